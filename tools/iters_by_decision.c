/* iters_by_decision.c: the iterations each ismcts spec gets at every one of
 * red's decisions of one seeded random game, side by side.
 *
 * Why a program: iters_rate.c averages over the first decisions of a game,
 * where a playout is a whole game long. Two threads on one tree (par=tree)
 * scale by how much of an iteration is the tree's shared work, and that
 * share grows as the game shortens: in the last rounds a playout is a few
 * hundred nanoseconds and the nodes near the root pass between the cores at
 * every iteration. This prints the figures decision by decision, so the
 * whole game is seen (issue 18, docs/ai.md "Two threads: where the shared
 * tree loses"). Wall-clock budgets: run it on an idle machine. Not built by
 * the Makefile:
 *
 *   cc -O2 -Iinclude -Isrc -o /tmp/iters_by_decision tools/iters_by_decision.c build/libkontor.a -lm -pthread -ldl
 *   /tmp/iters_by_decision basic "ismcts:ms=100,stop=0" "ismcts:ms=100,stop=0,threads=2" "ismcts:ms=100,stop=0,threads=2,par=root"
 *
 * One line a decision: round, phase, legal moves, then each spec's
 * iterations at that decision. The game is the same for every spec
 * (seed 77; the moves are drawn at random, not the agents'). */
#include <stdio.h>
#include <stdlib.h>

#include "ai/ai.h"

int main(int argc, char **argv) {
    if (argc < 3 || argc > 10) {
        fprintf(stderr, "usage: iters_by_decision VARIANT SPEC [SPEC ...] (at most 8 specs)\n");
        return 2;
    }
    const char *variant = argv[1];
    int ns = argc - 2;
    kontor_agent *ag[8];
    kontor_error err;
    for (int a = 0; a < ns; a++)
        if (!(ag[a] = kontor_agent_new(argv[a + 2], 1, &err))) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
    kontor_config cfg;
    if (kontor_config_init(&cfg, variant, &err) != KONTOR_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    kontor_state s;
    kontor_new(&s, &cfg, 77, NULL);
    kontor_rng r;
    kontor_rng_seed(&r, 77);
    unsigned long long prev[8] = {0};
    while (kontor_actors(&s)) {
        unsigned act = kontor_actors(&s);
        int seat = (act & 1) ? 0 : 1;
        kontor_move m[KONTOR_MAX_MOVES];
        int n = kontor_legal(&s, seat, m);
        if (seat == 0 && n > 1) {
            kontor_view v;
            kontor_view_of(&s, 0, &v);
            ai_choice c[KONTOR_MAX_MOVES];
            printf("round %2d phase %2d n=%2d:", s.round, s.phase, n);
            for (int a = 0; a < ns; a++) {
                kontor_agent_rank(ag[a], &v, c, KONTOR_MAX_MOVES);
                unsigned long long it = ((ai_base *)ag[a]->impl)->iters;
                printf(" %8llu", it - prev[a]);
                prev[a] = it;
            }
            printf("\n");
            fflush(stdout);
        }
        kontor_apply(&s, seat, m[kontor_rng_below(&r, (uint32_t)n)], NULL);
    }
    for (int a = 0; a < ns; a++) kontor_agent_free(ag[a]);
    return 0;
}
