/* threads_bench.c: the work of ismcts's search threads, per CPU-second.
 *
 * Why a program: issue 18 asks whether two search threads are worth 1.8x one.
 * On this shared 2-core machine (load 10-20) wall-clock speed says more about
 * the other jobs than about the search, so this measures what does not
 * depend on them: the search iterations done per second of the process's
 * CPU time, with threads=1 and threads=T, on the same views (a seeded random
 * game, every decision of red with a choice from round 1 on, up to V of them)
 * at the same total iteration budget. With root parallelism (independent trees, no
 * locks) the trees never wait for each other, so equal iterations per
 * CPU-second means T threads on T free cores do T times the iterations of
 * one; whether those iterations are worth as much as one tree's is a
 * question of strength (docs/ai.md, "Two threads"). It prints wall time too,
 * for an idle machine. Not built by the Makefile:
 *
 *   cc -O2 -Iinclude -Isrc -o /tmp/threads_bench tools/threads_bench.c build/libkontor.a -lm -pthread
 *   /tmp/threads_bench basic 20000 12 2
 *   (variant, iterations a decision, views, threads)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ai/ai.h"

static double clk(clockid_t c) {
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: threads_bench VARIANT ITERS VIEWS THREADS [SPEC-OPTIONS]\n");
        return 2;
    }
    const char *variant = argv[1];
    long iters = atol(argv[2]);
    int nviews = atoi(argv[3]), threads = atoi(argv[4]);
    const char *extra = argc > 5 ? argv[5] : "";
    kontor_config cfg;
    kontor_error err;
    if (kontor_config_init(&cfg, variant, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    kontor_state s;
    kontor_new(&s, &cfg, 42, NULL);
    kontor_rng r;
    kontor_rng_seed(&r, 42);
    static kontor_view views[256];
    int nv = 0;
    while (kontor_actors(&s) && nv < nviews && nv < 256) {
        unsigned act = kontor_actors(&s);
        int seat = (act & 1) ? 0 : 1;
        kontor_move m[KONTOR_MAX_MOVES];
        int n = kontor_legal(&s, seat, m);
        if (seat == 0 && n > 1) kontor_view_of(&s, 0, &views[nv++]);
        kontor_apply(&s, seat, m[kontor_rng_below(&r, (uint32_t)n)], NULL);
    }
    for (int pass = 0; pass < 2; pass++) {
        int t = pass ? threads : 1;
        char spec[200];
        snprintf(spec, sizeof spec, "ismcts:iters=%ld,threads=%d%s%s", iters, t, *extra ? "," : "", extra);
        kontor_agent *a = kontor_agent_new(spec, 7, &err);
        if (!a) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        ai_choice ch[KONTOR_MAX_MOVES];
        kontor_agent_rank(a, &views[0], ch, KONTOR_MAX_MOVES); /* allocate the trees */
        double c0 = clk(CLOCK_PROCESS_CPUTIME_ID), w0 = clk(CLOCK_MONOTONIC);
        uint64_t i0 = ((ai_base *)a->impl)->iters;
        for (int i = 0; i < nv; i++) kontor_agent_rank(a, &views[i], ch, KONTOR_MAX_MOVES);
        double cpu = clk(CLOCK_PROCESS_CPUTIME_ID) - c0, wall = clk(CLOCK_MONOTONIC) - w0;
        uint64_t it = ((ai_base *)a->impl)->iters - i0;
        printf("%-40s views %d iterations %llu cpu %.2f s wall %.2f s: %.0f iterations per CPU-second, %.0f per "
               "wall-second\n",
               spec, nv, (unsigned long long)it, cpu, wall, it / cpu, it / wall);
        kontor_agent_free(a);
    }
    return 0;
}
