/* belief_fit.c: how much the opponent model of ismcts's belief=K (src/ai/belief.c)
 * knows, measured against the true hands (docs/ai.md, "Session fourteen:
 * belief14"). Plays GAMES games of SPEC against itself (seeds 1..GAMES); at each
 * of red's declarations it prepares red's belief tables as the search would and
 * prints (1) the true hand's percentile among 400 uniform worlds by the model's
 * weight at beta=BETA (0.5: the model knows nothing), and (2) the log-likelihood
 * of the cards black revealed given his true hands, at the last declaration of
 * each game, for a grid of beta (greedy's evaluation) and of the same factor on
 * the card's number / 10 (bnum): the largest is the maximum-likelihood fit.
 * Not part of the build:
 *   cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Iinclude -Isrc -o /tmp/belief_fit tools/belief_fit.c build/libkontor.a -lm -pthread
 *   /tmp/belief_fit basic 1 20 ismcts:iters=2000      (VARIANT BETA GAMES SPEC) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "kontor/kontor.h"
#include "kontor/agent.h"
#include "ai/ai.h"
#include "ai/belief.h"
int main(int argc, char **argv) {
    const char *variant = argc > 1 ? argv[1] : "basic";
    double beta = argc > 2 ? atof(argv[2]) : 1.0;
    int games = argc > 3 ? atoi(argv[3]) : 10;
    const char *spec = argc > 4 ? argv[4] : "ismcts:iters=500";
    double sum_pct = 0, sum_d = 0; long cnt = 0;
    ai_belief *b = calloc(1, sizeof *b);
    static const double grid[] = {-1, -0.5, -0.3, -0.15, 0, 0.3, 1, 3};
    enum { NG = sizeof grid / sizeof *grid };
    double ll[NG] = {0}, lln[NG] = {0}; int nused = 0;
    ai_belief *b2 = calloc(1, sizeof *b2);
    for (int g = 1; g <= games; g++) {
        kontor_config cfg; kontor_error err;
        if (kontor_config_init(&cfg, variant, &err) != KONTOR_OK) return 1;
        kontor_state s; kontor_new(&s, &cfg, (uint64_t)g, NULL);
        kontor_agent *ag[2];
        ag[0] = kontor_agent_new(spec, 100 + g, &err);
        ag[1] = kontor_agent_new(spec, 200 + g, &err);
        ai_belief_reset(b); b->tries = 16; b->beta = beta;
        kontor_rng rng; kontor_rng_seed(&rng, g);
        double gp = 0; int gc = 0; double last[NG] = {0}, lastn[NG] = {0}; int lastnr = 0;
        while (kontor_actors(&s)) {
            unsigned act = kontor_actors(&s);
            kontor_move mv[2]; int who[2], n = 0;
            for (int q = 0; q < 2; q++) if ((act >> q) & 1) {
                kontor_view v; kontor_view_of(&s, q, &v);
                if (q == 0) {
                    ai_belief_observe(b, &v);
                    if (s.phase == KONTOR_PHASE_DECLARE) {
                        kontor_determinizer det; kontor_determinizer_prepare(&v, &det);
                        ai_belief_prepare(b, &v, &det, &rng);
                        if (b->on) {
                            double lt = ai_belief_logw(b, &s), below = 0, mean = 0; int N = 400;
                            for (int k = 0; k < N; k++) { kontor_state d; kontor_determinize_with(&det, &rng, &d);
                                double l = ai_belief_logw(b, &d); mean += l / N; below += (l < lt) + 0.5 * (l == lt); }
                            for (int j = 0; j < NG; j++) { b->beta = grid[j]; ai_belief_prepare(b, &v, &det, &rng); last[j] = ai_belief_logw(b, &s); }
                            lastnr = b->nr; b->beta = beta;
                            *b2 = *b;
                            for (int k = 0; k < b2->n; k++) for (int x = 0; x < s.cfg->cards->ncards; x++) b2->r[k].q[x] = s.cfg->cards->card[x].number / 10.0f;
                            for (int j = 0; j < NG; j++) { b2->beta = grid[j]; ai_belief_prepare(b2, &v, &det, &rng); lastn[j] = ai_belief_logw(b2, &s); }
                            gp += below / N; gc++; sum_pct += below / N; sum_d += lt - mean; cnt++;
                        }
                    }
                }
                mv[n] = ag[q]->decide(ag[q], &v); who[n++] = q;
                if (s.phase != KONTOR_PHASE_DECLARE && s.phase != KONTOR_PHASE_CHOOSE) break;
            }
            for (int i = 0; i < n; i++) kontor_apply(&s, who[i], mv[i], NULL);
        }
        for (int j = 0; j < NG; j++) ll[j] += last[j], lln[j] += lastn[j];
        nused += lastnr;
        fprintf(stderr, "game %d: %d searches, mean percentile of the true hand %.3f\n", g, gc, gc ? gp / gc : 0);
        kontor_agent_free(ag[0]); kontor_agent_free(ag[1]);
    }
    printf("%s beta=%g: %ld declarations; the true hand's percentile among uniform draws %.3f (0.5: no information); log-weight over the mean %.3f\n", variant, beta, cnt, sum_pct / cnt, sum_d / cnt);
    printf("log-likelihood of the revealed cards given the true hands, over %d rounds:", nused);
    for (int j = 0; j < NG; j++) printf(" beta=%g: %.1f", grid[j], ll[j]);
    printf("\nthe same with q = the card's number / 10:");
    for (int j = 0; j < NG; j++) printf(" beta=%g: %.1f", grid[j], lln[j]);
    printf("\n");
    return 0;
}
