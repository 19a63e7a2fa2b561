/* agent.h: computer players. An agent sees only a kontor_view (never the
 * state) and returns one decision for the view's seat.
 *
 * Agents are objects with a small table of functions so that kontor's own
 * players (random, greedy, ismcts) and external engines spoken to over the
 * engine protocol (cmd:PROGRAM) can sit in the same seat of the same game
 * driver. Agents are deterministic for a given seed (with time budgets the
 * number of iterations depends on the machine; iteration budgets do not).
 */
#ifndef KONTOR_AGENT_H
#define KONTOR_AGENT_H

#include "kontor/kontor.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KONTOR_FORFEIT ((kontor_move)0xFFFF) /* the agent failed: it loses the game */

typedef struct kontor_agent kontor_agent;
struct kontor_agent {
    char name[64];
    /* One decision for v->seat, which owes one (kontor_actors). Returns a legal
     * move, or KONTOR_FORFEIT with error[] filled. */
    kontor_move (*decide)(kontor_agent *a, const kontor_view *v);
    /* Optional: told what happened (public events) after every decision. */
    void (*observe)(kontor_agent *a, const kontor_view *v, const kontor_log *log);
    /* Optional: told that a new game starts for seat (v is its first view). */
    void (*newgame)(kontor_agent *a, const kontor_view *v);
    void (*release)(kontor_agent *a);
    void *impl;
    kontor_rng rng;
    char error[256];
};

/* Create one of kontor's own agents from a spec: "random", "greedy",
 * "ismcts", "ismcts:iters=2000", "ismcts:ms=1000,threads=2", "easy",
 * "medium", "hard". Returns NULL and fills err for an unknown spec. Free with
 * kontor_agent_free. */
kontor_agent *kontor_agent_new(const char *spec, uint64_t seed, kontor_error *err);
void kontor_agent_free(kontor_agent *a); /* NULL is a no-op */

#ifdef __cplusplus
}
#endif
#endif
