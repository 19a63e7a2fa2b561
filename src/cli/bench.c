/* bench.c: kontor bench: random full games per second on one core.
 *
 * Each run deals and plays --games uniformly random games (kontor_new, then
 * kontor_playout) for the basic and the advanced game; the figure quoted is
 * the median of --runs runs. The sum of rounds over all games is printed as
 * a signature: it depends only on the seed and the rules, so a change of
 * behaviour shows up as a change of signature (Stockfish's bench). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static const char *help =
    "usage: kontor bench [--games N] [--runs R] [--seed S] [--variant V]\n"
    "\n"
    "Plays N random games (default 100000) R times (default 5) for each variant\n"
    "(basic and advanced, or only --variant V: any variant, four included) on one\n"
    "core and prints games per\n"
    "second: the median and the range over the runs, and a signature (total\n"
    "rounds) that changes only when the rules' behaviour changes.\n";

int cmd_bench(int argc, char **argv) {
    uint64_t games = 100000, runs = 5, seed = 1;
    const char *only = NULL;
    const cli_option opts[] = {{"--games", NULL, &games, 1, 100000000},
                               {"--runs", NULL, &runs, 1, 1000},
                               {"--seed", NULL, &seed, 0, UINT64_MAX},
                               {"--variant", &only, NULL, 0, 0},
                               {NULL, NULL, NULL, 0, 0}};
    int parsed = cli_options("bench", argc, argv, help, opts);
    if (parsed) return parsed == 1 ? 0 : 2;
    const char *variants[2] = {"basic", "advanced"};
    int nvariants = 2;
    if (only) variants[0] = only, nvariants = 1;
    for (int v = 0; v < nvariants; v++) {
        kontor_config cfg;
        if (cli_config(&cfg, variants[v], NULL, NULL)) return 2;
        /* the process's copy of the config, once: kontor_new knows its own
         * copies by their address and skips the search by content that a
         * caller's local config costs each deal (about 115 instructions a
         * game, hashing and comparing 224 bytes; what a program that deals
         * many games under one config does) */
        kontor_error ierr;
        const kontor_config *icfg = kontor_config_intern(&cfg, &ierr);
        if (!icfg) {
            fprintf(stderr, "kontor bench: %s\n", ierr.msg);
            return 2;
        }
        double *rate = calloc(runs, sizeof *rate);
        if (!rate) return 1;
        uint64_t signature = 0;
        for (uint64_t r = 0; r < runs; r++) {
            kontor_rng rng;
            kontor_rng_seed(&rng, seed);
            uint64_t rounds = 0;
            double t0 = cli_now();
            for (uint64_t g = 0; g < games; g++) {
                kontor_state s;
                kontor_new(&s, icfg, seed + g, NULL);
                kontor_playout(&s, &rng);
                rounds += s.round;
            }
            double t = cli_now() - t0;
            rate[r] = (double)games / (t > 0 ? t : 1e-9);
            signature = rounds;
            if (isatty(2))
                fprintf(stderr, "\r%s: run %llu/%llu: %.0f games/s   ", variants[v], (unsigned long long)r + 1,
                    (unsigned long long)runs, rate[r]);
        }
        if (isatty(2)) fputs("\r                                        \r", stderr);
        qsort(rate, runs, sizeof *rate, cmp_double);
        printf("%-8s %9.0f games/s median of %llu runs (min %.0f, max %.0f), %llu games a run, signature %llu\n",
               variants[v], rate[runs / 2], (unsigned long long)runs, rate[0], rate[runs - 1],
               (unsigned long long)games, (unsigned long long)signature);
        free(rate);
    }
    return 0;
}
