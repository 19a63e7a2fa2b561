/* arena.c: round-robin tournaments on paired deals, in parallel threads.
 *
 * Strength is measured, not asserted, and measurement needs many games, so
 * the tournament is library code that the `kontor arena` command and the
 * tests share. Three choices make its figures trustworthy: every deal is
 * played twice with the seats swapped (the luck of the cards and of sitting
 * red cancels in the pair); every game builds fresh agents from seeds derived
 * from the tournament seed, so no game depends on another and any one can be
 * replayed alone; and results are stored by schedule index and tallied in
 * that order after the threads finish, so the table does not depend on which
 * thread finished first.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "kontor/match.h"

typedef struct arena_run {
    const kontor_arena_opts *o;
    kontor_arena_game *games;
    int total, next, finished;
    int failed;
    kontor_error err;
    pthread_mutex_t mu;
} arena_run;

static uint64_t mix(uint64_t x) { /* splitmix64's finaliser */
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static kontor_agent *make_agent(const kontor_arena_opts *o, int which, uint64_t seed, kontor_error *err) {
    if (o->factory) return o->factory(o->factory_ctx, o->specs[which], seed, err);
    return kontor_agent_new(o->specs[which], seed, err);
}

static int play_one(arena_run *R, kontor_arena_game *g) {
    const kontor_arena_opts *o = R->o;
    kontor_error err;
    memset(&err, 0, sizeof err);
    if (o->known) { /* played before: count it, do not play it again */
        kontor_match_result r;
        memset(&r, 0, sizeof r);
        r.forfeit = -1;
        if (o->known(o->known_ctx, g, &r)) {
            memset(r.seat_decisions, 0, sizeof r.seat_decisions);
            memset(r.seconds, 0, sizeof r.seconds);
            r.decisions = 0;
            g->result = r;
            pthread_mutex_lock(&R->mu);
            R->finished++;
            if (o->done) o->done(o->done_ctx, g, NULL, R->finished, R->total);
            pthread_mutex_unlock(&R->mu);
            return 0;
        }
    }
    /* seat_a is agent a's team; with four players each team's two seats get
     * their own instance of the team's agent */
    int ns = o->cfg->nseats;
    kontor_agent *ag[KONTOR_MAX_SEATS] = {NULL, NULL, NULL, NULL};
    int ok = 1;
    for (int q = 0; q < ns; q++) {
        int team = ns == 4 ? q / 2 : q;
        int which = team == g->seat_a ? g->a : g->b;
        ag[q] = make_agent(o, which, mix(o->seed ^ mix((uint64_t)g->index * 4 + (uint64_t)q + 1)), &err);
        if (!ag[q]) {
            ok = 0;
            break;
        }
    }
    int rc = 0;
    kontor_deal deal;
    kontor_state s;
    kontor_record rec;
    int have_rec = 0;
    if (ok) {
        kontor_deal_shuffle(&deal, o->cfg, g->deal_seed);
        if (kontor_new_from_deal(&s, o->cfg, &deal, &err) != KONTOR_OK) rc = -1;
    } else {
        rc = -1;
    }
    if (!rc && o->records) {
        kontor_record_init(&rec, o->cfg, &deal);
        rec.seed = g->deal_seed;
        rec.has_seed = 1;
        for (int q = 0; q < ns; q++) snprintf(rec.players[q], sizeof rec.players[q], "%s", ag[q]->name);
        snprintf(rec.event, sizeof rec.event, "kontor arena game %d", g->index + 1);
        have_rec = 1;
    }
    if (!rc && kontor_match_play(&s, ag, have_rec ? &rec : NULL, NULL, NULL, &g->result) != KONTOR_OK) {
        ai_fail(&err, KONTOR_E_RANGE, "arena game %d: %s", g->index + 1, g->result.reason);
        rc = -1;
    }
    for (int q = 0; q < ns; q++)
        if (ag[q] && ag[q]->release == ai_release) {
            const ai_base *b = ag[q]->impl;
            int team = ns == 4 ? q / 2 : q;
            g->iters[team] += b->iters;
            g->search_seconds[team] += b->seconds;
        }
    pthread_mutex_lock(&R->mu);
    if (rc) {
        if (!R->failed) R->err = err;
        R->failed = 1;
    } else {
        R->finished++;
        if (o->done) o->done(o->done_ctx, g, have_rec ? &rec : NULL, R->finished, R->total);
    }
    pthread_mutex_unlock(&R->mu);
    if (have_rec) kontor_record_release(&rec);
    for (int q = 0; q < KONTOR_MAX_SEATS; q++) kontor_agent_free(ag[q]);
    return rc;
}

static void *worker(void *arg) {
    arena_run *R = arg;
    for (;;) {
        pthread_mutex_lock(&R->mu);
        int i = R->failed ? R->total : R->next++;
        pthread_mutex_unlock(&R->mu);
        if (i >= R->total) return NULL;
        play_one(R, &R->games[i]);
    }
}

kontor_status kontor_arena_run(const kontor_arena_opts *o, kontor_arena_table *t, kontor_error *err) {
    if (o->n < 2 || o->n > KONTOR_ARENA_MAX) {
        ai_fail(err, KONTOR_E_RANGE, "arena: wants from 2 to %d agents, not %d", KONTOR_ARENA_MAX, o->n);
        return KONTOR_E_RANGE;
    }
    if (o->cfg->nseats != 2 && o->cfg->nseats != 4) {
        ai_fail(err, KONTOR_E_INVALID, "arena: a game is for two players or two teams");
        return KONTOR_E_INVALID;
    }
    /* check every spec once before playing */
    for (int i = 0; i < o->n; i++) {
        kontor_agent *a = make_agent(o, i, 1, err);
        if (!a) return err ? err->code : KONTOR_E_INVALID;
        kontor_agent_free(a);
    }
    int deals = (o->games + 1) / 2;
    arena_run R;
    memset(&R, 0, sizeof R);
    R.o = o;
    R.total = o->n * (o->n - 1) / 2 * deals * 2;
    R.games = calloc((size_t)(R.total ? R.total : 1), sizeof *R.games);
    if (!R.games) {
        ai_fail(err, KONTOR_E_RANGE, "arena: out of memory");
        return KONTOR_E_RANGE;
    }
    int k = 0;
    for (int a = 0; a < o->n; a++)
        for (int b = a + 1; b < o->n; b++)
            for (int d = 0; d < deals; d++)
                for (int sw = 0; sw < 2; sw++) {
                    kontor_arena_game *g = &R.games[k];
                    g->index = k++;
                    g->a = a;
                    g->b = b;
                    g->seat_a = sw;
                    g->deal_seed = o->seed + (uint64_t)d;
                }
    pthread_mutex_init(&R.mu, NULL);
    int jobs = o->jobs < 1 ? 1 : o->jobs > 64 ? 64 : o->jobs;
    pthread_t th[64];
    int started = 0;
    for (int j = 1; j < jobs; j++) {
        if (pthread_create(&th[j], NULL, worker, &R) != 0) break;
        started = j;
    }
    worker(&R);
    for (int j = 1; j <= started; j++) pthread_join(th[j], NULL);
    pthread_mutex_destroy(&R.mu);
    kontor_status st = KONTOR_OK;
    if (R.failed) {
        if (err) *err = R.err;
        st = R.err.code ? R.err.code : KONTOR_E_INVALID;
    } else {
        kontor_arena_init(t, o->n);
        for (int i = 0; i < R.total; i++) {
            const kontor_arena_game *g = &R.games[i];
            kontor_arena_add(t, g->a, g->b, g->seat_a, &g->result);
            t->iters[g->a] += g->iters[g->seat_a];
            t->iters[g->b] += g->iters[1 - g->seat_a];
            t->search_seconds[g->a] += g->search_seconds[g->seat_a];
            t->search_seconds[g->b] += g->search_seconds[1 - g->seat_a];
        }
    }
    free(R.games);
    return st;
}
