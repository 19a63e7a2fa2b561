/* aiplayer.c: the computer's threads, which play the computer seats, and several nodes' leases on them.
 *
 * A worker takes a game from the queues (aiqueue.c), takes a view of it
 * under its lock, thinks without the lock and applies (apply.c) only if the
 * game has not moved on. With several nodes, the node holding a game's
 * lease plays its computer seats; leases_tick() renews them and adopts the
 * games of a node that died.
 */
#define _DEFAULT_SOURCE /* syscall(SYS_gettid): a thread's own priority */
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "server/analysis_api.h"
#include "server/sgame.h"

/* arg: non-NULL for the worker kept for games with people (with two or
 * more workers, the first never takes a computer-only game, so those can
 * never hold every worker while a person waits). */
void *ai_worker(void *arg) {
    int people_only = arg != NULL;
    int turn = 0;
    /* the computer thinks at a lower priority than the event loop (nice 10
     * for this thread only), so that a machine busy with computer games
     * still answers people's moves at once */
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
    for (;;) {
        pthread_mutex_lock(&S.q_mu);
        /* (analysis_api.c: a game analysis, a decision at a time, behind the
         * games with people, taking turns with the computer-only ones) */
        int analysis = 0;
        while (!S.people.n && (people_only || (!S.bots.n && !(analysis = analysis_api_pending()))) && !S.stop)
            pthread_cond_wait(&S.q_cv, &S.q_mu);
        if (S.stop) {
            pthread_mutex_unlock(&S.q_mu);
            views_thread_done();
            return NULL;
        }
        sgame *g = gq_pop(&S.people);
        if (!g && !people_only && (analysis || (turn ^= 1))) {
            if (analysis || analysis_api_pending()) {
                pthread_mutex_unlock(&S.q_mu);
                analysis_api_work();
                continue;
            }
        }
        if (!g) g = gq_pop(&S.bots);
        pthread_mutex_unlock(&S.q_mu);
        if (!g) continue;

        pthread_mutex_lock(&g->mu);
        g->ai_queued = 0;
        unsigned act = kontor_actors(&g->s);
        int seat = -1;
        for (int i = 0; i < g->s.cfg->nseats && seat < 0; i++)
            if ((act & (1u << i)) && strcmp(g->seat[i].kind, "human") != 0) seat = i;
        if (seat < 0) {
            pthread_mutex_unlock(&g->mu);
            continue;
        }
        /* several nodes: the node holding the game's lease plays its
         * computer seats (it hears of every move; another node takes the
         * lease over if it dies) */
        if (S.shared && store_lease(S.st, g->id, S.node, LEASE_MS) != 1) {
            pthread_mutex_unlock(&g->mu);
            continue;
        }
        kontor_error err;
        if (g->agent_epoch != g->epoch) { /* a takeback: the agents start afresh */
            for (int i = 0; i < KONTOR_MAX_SEATS; i++) {
                kontor_agent_free(g->seat[i].agent);
                g->seat[i].agent = NULL;
            }
            g->agent_epoch = g->epoch;
        }
        unsigned epoch = g->epoch;
        if (!g->seat[seat].agent) {
            g->seat[seat].agent = kontor_agent_new(level_spec(g->seat[seat].kind), g->ai_seed ^ (0x5EA7ull << seat), &err);
            if (!g->seat[seat].agent) logf_("game '%s': %s", g->id, err.msg);
        }
        kontor_agent *a = g->seat[seat].agent;
        kontor_view v;
        kontor_view_of(&g->s, seat, &v);
        int ply = g->rec.nply;
        g->ai_busy = 1;
        pthread_mutex_unlock(&g->mu);

        kontor_move m = a ? a->decide(a, &v) : KONTOR_FORFEIT;

        pthread_mutex_lock(&g->mu);
        g->ai_busy = 0;
        if (g->rec.nply == ply && g->epoch == epoch) {
            if (m == KONTOR_FORFEIT || !kontor_is_legal(&g->s, seat, m)) {
                /* an agent that fails must not stall the game: play its first legal move */
                kontor_move mv[KONTOR_MAX_MOVES];
                if (kontor_legal(&g->s, seat, mv) > 0) m = mv[0];
                logf_("game '%s': computer %s failed (%s), played its first legal move", g->id,
                      kontor_seat_name(&g->s, seat), a ? a->error : "no agent");
            }
            apply_decision(g, seat, m, &err);
        }
        schedule_ai(g);
        pthread_mutex_unlock(&g->mu);
    }
}

/* Several nodes, once a second: renew this node's leases, and adopt the
 * games whose node died (their lease ran out): load them and play their
 * computer seats. */
static int adopt(void *ctx, const char *id) {
    (void)ctx;
    sgame *g = get_game(id);
    if (g) {
        logf_("game '%s': its node's lease ran out; this node plays its computer seats", id);
        pthread_mutex_lock(&g->mu);
        catch_up(g);
        schedule_ai(g);
        pthread_mutex_unlock(&g->mu);
    }
    return 0;
}

void leases_tick(void) {
    kontor_error err;
    store_renew(S.st, S.node, LEASE_MS);
    if (store_orphans(S.st, S.node, LEASE_MS, 16, adopt, NULL, &err) != KONTOR_OK) logf_("%s", err.msg);
}
