/* iters_rate.c: how many search iterations an ismcts spec gets a decision.
 *
 * Why a program: issue 18 compares search refinements at the same time a
 * decision (ms=20,clock=cpu), and a refinement that costs work gets fewer
 * iterations in that time; this prints the average over red's decisions with
 * a choice in a seeded random game (seed 77), for each spec given, so the
 * cost of an option is seen apart from its strength. Under clock=cpu the
 * figure does not depend on the load (cache effects aside). Not built by the
 * Makefile:
 *
 *   cc -O2 -Iinclude -Isrc -o /tmp/iters_rate tools/iters_rate.c build/libkontor.a -lm -pthread
 *   /tmp/iters_rate basic 20 "ismcts:ms=20,clock=cpu,stop=0" "ismcts:ms=20,clock=cpu,stop=0,ebias=1"
 *   (variant, decisions, specs)
 *
 * Each spec after the first also gets its ratio to the first: with wall-time
 * budgets on an idle machine, what two threads are worth (issue 18, docs/ai.md
 * "Tree parallelism, where the time went"):
 *
 *   /tmp/iters_rate basic 20 "ismcts:ms=200,stop=0" "ismcts:ms=200,stop=0,threads=2" "ismcts:ms=200,stop=0,threads=2,par=root"
 */
#include <stdio.h>
#include <stdlib.h>
#include "ai/ai.h"
int main(int argc, char **argv) {
    const char *variant = argv[1];
    int nv = atoi(argv[2]);
    double first = 0;
    for (int a = 3; a < argc; a++) {
        kontor_config cfg; kontor_error err;
        kontor_config_init(&cfg, variant, &err);
        kontor_state s; kontor_new(&s, &cfg, 77, NULL);
        kontor_rng r; kontor_rng_seed(&r, 77);
        kontor_agent *ag = kontor_agent_new(argv[a], 1, &err);
        if (!ag) { fprintf(stderr, "%s\n", err.msg); return 1; }
        int views = 0; unsigned long long it0 = 0;
        while (kontor_actors(&s) && views < nv) {
            unsigned act = kontor_actors(&s);
            int seat = (act & 1) ? 0 : 1;
            kontor_move m[KONTOR_MAX_MOVES];
            int n = kontor_legal(&s, seat, m);
            if (seat == 0 && n > 1 && s.round >= 1) {
                kontor_view v; kontor_view_of(&s, 0, &v);
                ai_choice c[KONTOR_MAX_MOVES];
                kontor_agent_rank(ag, &v, c, KONTOR_MAX_MOVES);
                views++;
            }
            kontor_apply(&s, seat, m[kontor_rng_below(&r, (uint32_t)n)], NULL);
        }
        it0 = ((ai_base *)ag->impl)->iters;
        double per = (double)it0 / views;
        if (a == 3) first = per;
        printf("%s %s: %d views, %.0f iterations a decision", variant, argv[a], views, per);
        if (a > 3 && first > 0) printf(", %.2fx the first", per / first);
        printf("\n");
        kontor_agent_free(ag);
    }
    return 0;
}
