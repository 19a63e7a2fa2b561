/* aiqueue.c: the queues of games owing a computer move, games with a person first.
 *
 * Its own file so that the rule "computer-only games wait behind games with
 * people" lives in one place: two rings (S.people, S.bots) under S.q_mu;
 * schedule_ai() puts a game in once (g->ai_queued), the computer's threads
 * (aiplayer.c) take them out.
 */
#include <stdlib.h>
#include <string.h>

#include "server/sgame.h"

static int ai_owes(const sgame *g) {
    unsigned act = kontor_actors(&g->s);
    for (int i = 0; i < g->s.cfg->nseats; i++)
        if ((act & (1u << i)) && strcmp(g->seat[i].kind, "human") != 0) return 1;
    return 0;
}

static int gq_push(gqueue *q, sgame *g) {
    if (q->n == q->cap) {
        long cap = q->cap ? q->cap * 2 : 256;
        sgame **a = malloc((size_t)cap * sizeof *a);
        if (!a) return -1;
        for (long i = 0; i < q->n; i++) a[i] = q->q[(q->head + i) % q->cap];
        free(q->q);
        q->q = a;
        q->cap = cap;
        q->head = 0;
    }
    q->q[(q->head + q->n) % q->cap] = g;
    q->n++;
    return 0;
}

sgame *gq_pop(gqueue *q) {
    if (!q->n) return NULL;
    sgame *g = q->q[q->head];
    q->head = (q->head + 1) % q->cap;
    q->n--;
    return g;
}

/* Queue g for a computer move if one is owed. Call with g->mu held. */
void schedule_ai(sgame *g) {
    if (g->ai_queued || g->ai_busy || !ai_owes(g)) return;
    pthread_mutex_lock(&S.q_mu);
    if (gq_push(g->bots_only ? &S.bots : &S.people, g) == 0) {
        g->ai_queued = 1;
        pthread_cond_broadcast(&S.q_cv); /* (a people-only worker may be the one waiting) */
    }
    pthread_mutex_unlock(&S.q_mu);
}
