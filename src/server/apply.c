/* apply.c: the one way a game changes: a decision checked, applied, stored, then told; timeouts; catching up from other nodes.
 *
 * A person's move (session.c), a computer's (aiplayer.c) and a timeout's
 * (play_timeouts, here) all go through apply_decision() under the game's
 * mutex, so a move is acknowledged only once it is in the store. With
 * several nodes on one database a node's copy of a game may be behind:
 * catch_up() replays what others stored, and a decision whose number was
 * taken is retried on the caught-up game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sgame.h"

void update_deadline(sgame *g) {
    g->deadline = 0;
    if (g->timeout_s <= 0 || kontor_over(&g->s)) return;
    unsigned act = kontor_actors(&g->s);
    for (int i = 0; i < g->s.cfg->nseats; i++)
        if ((act & (1u << i)) && strcmp(g->seat[i].kind, "human") == 0) g->deadline = now_s() + g->timeout_s;
}

void catch_up(sgame *g);

/* The one way a game changes: check, apply, store, then tell everyone.
 * Call with g->mu held. On failure nothing changed and err says why;
 * *late: a shared store had the decision's number taken by another node. */
static kontor_status apply_once(sgame *g, int seat, kontor_move m, kontor_error *err, int *late) {
    err->code = KONTOR_OK;
    err->msg[0] = 0;
    if (kontor_over(&g->s)) {
        snprintf(err->msg, sizeof err->msg, "game '%s' is over", g->id);
        return err->code = KONTOR_E_ILLEGAL;
    }
    if (!(kontor_actors(&g->s) & (1u << seat))) {
        snprintf(err->msg, sizeof err->msg, "game '%s' round %d: %s owes no decision now", g->id, g->s.round,
                 kontor_seat_name(&g->s, seat));
        return err->code = KONTOR_E_ILLEGAL;
    }
    if (!kontor_is_legal(&g->s, seat, m)) {
        char why[200];
        kontor_why_illegal(&g->s, seat, m, why, sizeof why);
        snprintf(err->msg, sizeof err->msg, "game '%s' round %d: %s", g->id, g->s.round, why);
        return err->code = KONTOR_E_ILLEGAL;
    }
    kontor_state before = g->s;
    kontor_log log;
    log.n = 0;
    kontor_status st = kontor_apply(&g->s, seat, m, &log);
    if (st == KONTOR_OK) st = kontor_record_push(&g->rec, seat, m);
    else snprintf(err->msg, sizeof err->msg, "game '%s': the engine refused a legal decision", g->id);
    if (st == KONTOR_OK) {
        /* a running game stores just this decision; the last one stores the
         * whole record with its result (several nodes: the decision first,
         * under the game's row lock, so that it is stored once) */
        if (kontor_over(&g->s) && !S.shared) {
            st = save_game(g, err);
        } else {
            st = store_add_ply(S.st, g->id, g->rec.nply - 1, seat, (int)m, err);
            if (st == KONTOR_E_ILLEGAL) *late = 1;
            if (st == KONTOR_OK && kontor_over(&g->s) && save_game(g, err) != KONTOR_OK)
                logf_("%s (its decisions are stored)", err->msg);
        }
        if (st != KONTOR_OK) g->rec.nply--;
    }
    if (st == KONTOR_OK && push_events(g, &log) != 0) {
        /* stored but the event history is short of memory: tell nobody the
         * events, the views are still right */
        logf_("game '%s': out of memory for events", g->id);
    }
    if (st != KONTOR_OK) {
        g->s = before;
        kontor_record_set_result(&g->rec, &g->s);
        if (!*late) logf_("%s", err->msg);
        return err->code = st;
    }
    update_deadline(g);
    broadcast(g);
    schedule_ai(g);
    return KONTOR_OK;
}

/* apply_once; when another node stored a decision first (this node's copy
 * was behind), catch up from the store and try again: the decision still
 * stands if the rules still allow it. */
kontor_status apply_decision(sgame *g, int seat, kontor_move m, kontor_error *err) {
    for (int tries = 0;; tries++) {
        int late = 0;
        kontor_status st = apply_once(g, seat, m, err, &late);
        if (!late || tries == 5) return st;
        catch_up(g);
    }
}

/* ---- several nodes: catching up a cached game from the store ------------------------ */

/* Bring g (cached in this node's memory) up to what the store holds:
 * decisions stored by other nodes are applied in order, seats claimed
 * elsewhere are marked, and the clients of g here are told. Call with g->mu
 * held. */
void catch_up(sgame *g) {
    store_ply *p = NULL;
    long n = 0;
    char *meta = NULL;
    kontor_error err;
    if (store_since(S.st, g->id, g->rec.nply, &p, &n, &meta, &err) != KONTOR_OK) {
        logf_("game '%s': catching up: %s", g->id, err.msg);
        return;
    }
    int changed = 0;
    for (long i = 0; i < n; i++) {
        if (p[i].ply < g->rec.nply) continue;
        int seat = p[i].seat;
        kontor_move m = (kontor_move)p[i].move;
        kontor_log log;
        log.n = 0;
        if (p[i].ply != g->rec.nply || seat < 0 || seat >= g->s.cfg->nseats || !kontor_is_legal(&g->s, seat, m) ||
            kontor_apply(&g->s, seat, m, &log) != KONTOR_OK || kontor_record_push(&g->rec, seat, m) != KONTOR_OK) {
            logf_("game '%s': stored decision %d does not follow this node's copy", g->id, p[i].ply + 1);
            break;
        }
        push_events(g, &log);
        changed = 1;
    }
    kontor_record_set_result(&g->rec, &g->s);
    free(p);
    json_t *m = json_loads(meta, 0, NULL);
    json_t *seats = json_object_get(m, "seats");
    for (int i = 0; i < g->s.cfg->nseats && i < (int)json_array_size(seats); i++)
        if (!g->seat[i].claimed && json_is_true(json_object_get(json_array_get(seats, (size_t)i), "claimed"))) {
            g->seat[i].claimed = 1;
            changed = 1;
        }
    json_decref(m);
    free(meta);
    if (changed) {
        char *nm = make_meta(g);
        if (nm) {
            free(g->meta);
            g->meta = nm;
        }
        /* the node that stored the last decision saves the finished game;
         * if it died in between, the game's row still says running: every
         * node that sees the end saves it (the same record, harmless twice) */
        if (kontor_over(&g->s) && save_game(g, &err) != KONTOR_OK) logf_("%s", err.msg);
        update_deadline(g);
        broadcast(g);
        schedule_ai(g);
    }
}

/* A notice from another node (nodesync.c's thread): catch up the game if
 * this node caches it and is behind (or a save changed its seats); id NULL:
 * every cached game. */
void on_node_change(const char *id, int nply, int saved) {
    if (!id) {
        long n;
        sgame **all = snapshot(&n);
        for (long i = 0; all && i < n; i++) {
            sgame *g = find_pinned(all[i]->id);
            if (!g) continue;
            pthread_mutex_lock(&g->mu);
            catch_up(g);
            pthread_mutex_unlock(&g->mu);
            unpin(g);
        }
        free(all);
        return;
    }
    sgame *g = find_pinned(id);
    if (!g) return;
    pthread_mutex_lock(&g->mu);
    if (g->rec.nply < nply || saved) catch_up(g);
    pthread_mutex_unlock(&g->mu);
    unpin(g);
}

/* Every 200 ms on the event loop's thread: a random legal move for each
 * human seat whose per-decision timeout has run out. */
void play_timeouts(void) {
    long n;
    sgame **all = snapshot(&n);
    if (!all) return;
    double t = now_s();
    for (long i = 0; i < n; i++) {
        sgame *g = all[i];
        if (g->timeout_s <= 0) continue;
        pthread_mutex_lock(&g->mu);
        if (g->deadline > 0 && t >= g->deadline) {
            unsigned act = kontor_actors(&g->s);
            for (int seat = 0; seat < g->s.cfg->nseats; seat++) {
                if (!(act & (1u << seat)) || strcmp(g->seat[seat].kind, "human") != 0) continue;
                if (!(kontor_actors(&g->s) & (1u << seat))) continue;
                kontor_move mv[KONTOR_MAX_MOVES];
                int k = kontor_legal(&g->s, seat, mv);
                if (k <= 0) continue;
                kontor_error err;
                logf_("game '%s' round %d: %s ran out of time, a random legal move is played", g->id, g->s.round,
                      kontor_seat_name(&g->s, seat));
                kontor_move m = mv[kontor_rng_below(&S.tick_rng, (uint32_t)k)];
                kontor_move_text(&g->s, seat, m, g->timing_text, sizeof g->timing_text);
                g->timing_seat = seat + 1;
                g->timing_move = (int)m;
                apply_decision(g, seat, m, &err);
                g->timing_seat = 0;
            }
        }
        pthread_mutex_unlock(&g->mu);
    }
    free(all);
}
