/* ai.h: what kontor's own agents share inside src/ai, and the analysis hook
 * that `kontor hint` uses.
 *
 * The public face of an agent is the small table of functions in
 * kontor/agent.h. Behind it each of kontor's own agents keeps an impl that
 * starts with an ai_base, so that code which knows it holds one of ours (the
 * hint command, tests) can ask for more than one move: the ranked
 * alternatives with the agent's own measure of each. The evaluation of the
 * greedy player is here too because the MCTS player and the hint command
 * describe positions with it.
 */
#ifndef KONTOR_AI_H
#define KONTOR_AI_H

#include "kontor/agent.h"

/* One alternative as an agent sees it. value is the agent's own measure:
 * greedy: the evaluation in points (see eval.c); ismcts: the mean result in
 * [0, 1] (1 = a sure win) over the visits. */
typedef struct ai_choice {
    kontor_move move;
    double value;
    uint32_t visits; /* ismcts: visits of the move at the root; greedy: 0 */
} ai_choice;

typedef struct ai_base {
    /* Rank the legal decisions of v->seat, best first; returns how many were
     * written (at most cap). Advances the agent's generator like decide. */
    int (*rank)(kontor_agent *a, const kontor_view *v, ai_choice *out, int cap);
    /* Frees the impl; NULL means free(impl). */
    void (*destroy)(void *impl);
    /* Search effort so far (ismcts; 0 for the others): iterations, each one
     * a determinization, a walk down the tree and a playout, and the wall
     * time spent searching. */
    uint64_t iters;
    double seconds;
} ai_base;

/* The release function of every agent of ours: calls base->destroy. */
void ai_release(kontor_agent *a);

/* kontor_agent_rank: the ranked alternatives of one of kontor's own agents;
 * -1 when a is not one of ours (an external engine). */
int kontor_agent_rank(kontor_agent *a, const kontor_view *v, ai_choice *out, int cap);

/* ---- evaluation (eval.c) ---------------------------------------------------- */

/* The greedy evaluation of a full state for seat's team, in points: positive
 * is good for seat. Terminal states are worth +-1000 plus the margin. */
double ai_eval(const kontor_state *s, int seat);

/* The same, split into its terms for people (hint). */
typedef struct ai_eval_terms {
    double points, open_areas, money, cranes, ship, total;
} ai_eval_terms;
void ai_eval_terms_of(const kontor_state *s, int seat, ai_eval_terms *t);

/* ---- constructors (one per agent file) --------------------------------------- */

/* Each parses its own options from opts ("k=v,k=v" or ""), fills a, and
 * returns 0; on a bad option fills err and returns -1. */
int ai_random_init(kontor_agent *a, const char *opts, kontor_error *err);
int ai_greedy_init(kontor_agent *a, const char *opts, kontor_error *err);
int ai_ismcts_init(kontor_agent *a, const char *opts, kontor_error *err);

/* Option parsing shared by the constructors: walks "k=v,k=v". For each pair
 * calls fn; fn returns 0, or -1 after filling err. */
typedef int (*ai_opt_fn)(void *ctx, const char *key, const char *val, kontor_error *err);
int ai_parse_opts(const char *spec, const char *opts, ai_opt_fn fn, void *ctx, kontor_error *err);
/* Parse a number in [lo, hi] for option key of spec; -1 and err on failure. */
int ai_opt_number(const char *spec, const char *key, const char *val, double lo, double hi,
                  double *out, kontor_error *err);
void ai_fail(kontor_error *err, kontor_status code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Seconds on a monotonic clock (the AI may read the clock; the core may not). */
double ai_now(void);

/* A uniformly random legal move of v->seat from a's generator. */
kontor_move ai_random_move(kontor_agent *a, const kontor_view *v);

#endif
