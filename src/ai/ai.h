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
    /* ismcts: the last decision's whole ranking (nlast of them, 0 when the
     * decision was forced) and the index of the one played: under
     * final=visits at a simultaneous choice a draw from the visit shares. */
    ai_choice last[KONTOR_MAX_MOVES];
    int nlast, picked;
    /* ismcts's reuse=1: the seat's root visits the last decision kept from
     * the search before it (0 when it started afresh), and how many of the
     * decisions searched so far kept a subtree */
    uint64_t reused;
    uint64_t nreused;
} ai_base;

/* ismcts's ranking for v->seat at a simultaneous choice against an opponent
 * model: each iteration starts from one of states[0..n) (states consistent
 * with v, e.g. determinizations) and the other seats' choices at the root
 * are the modelled ones, moves[i * KONTOR_MAX_SEATS + q] for state i and
 * seat q; below the root the search is as usual. -1 when a is not an ismcts
 * agent. The exploiter (exploit.c) is its user. */
int ai_ismcts_rank_against(kontor_agent *a, const kontor_view *v, const kontor_state *states,
                           const kontor_move *moves, int n, ai_choice *out, int cap);
int ai_exploit_init(kontor_agent *a, const char *opts, kontor_error *err);
int ai_first_init(kontor_agent *a, const char *opts, kontor_error *err);
int ai_last_init(kontor_agent *a, const char *opts, kontor_error *err);
/* The spec a level name stands for ("hard" -> "ismcts:ms=1000,threads=2"),
 * or spec itself. */
const char *ai_level_spec(const char *spec);

/* A draw from ch[0..n) in proportion to the visits (the first when none has
 * any); the index, -1 when n is 0. */
int ai_pick_by_visits(const ai_choice *ch, int n, kontor_rng *rng);

/* The release function of every agent of ours: calls base->destroy. */
void ai_release(kontor_agent *a);

/* kontor_agent_rank: the ranked alternatives of one of kontor's own agents;
 * -1 when a is not one of ours (an external engine). */
int kontor_agent_rank(kontor_agent *a, const kontor_view *v, ai_choice *out, int cap);

/* ---- evaluation (eval.c) ---------------------------------------------------- */

/* The greedy evaluation of a full state for seat's team, in points: positive
 * is good for seat. Terminal states are worth +-1000 plus the margin. */
double ai_eval(const kontor_state *s, int seat);
/* greedy.c: whether seat q goes on deciding alone (its own turn: ship,
 * removal, cell), and q's best value of the rest of that turn (quick: a ship
 * move judged after the removal, the placement not searched), its first move
 * in *best (NULL: not wanted). belief.c's opponent model plays the quick turn. */
int ai_own_turn_goes_on(const kontor_state *s, int q);
double ai_best_turn(const kontor_state *s, int q, int quick, kontor_move *best);

/* The same, split into its terms for people (hint). */
typedef struct ai_eval_terms {
    double points, open_areas, money, cranes, ship, total;
} ai_eval_terms;
void ai_eval_terms_of(const kontor_state *s, int seat, ai_eval_terms *t);

/* ---- playouts (playout.c) ------------------------------------------------------ */

/* How the search plays out the rest of a game from a tree leaf. */
typedef struct ai_playout_opts {
    int rounds;      /* 0: to the end; R: stop when R new rounds have begun and evaluate */
    float scale;     /* the evaluation's step on the logistic curve (eval.c units); 0: by variant */
    int policy;      /* 0: uniform; 1: the ship moves only to remove an opponent's card */
    float ship_move; /* policy 1: chance that the ship moves when it can remove one */
    float place;     /* chance that a dock card goes next to its owner's dock cards */
    float mast;      /* 0: off; else the chance that a placement or card choice is
                        the best by its average result so far (MAST); < 0: by
                        variant (0.25 without the ship, off with it) */
    float pass;      /* R1, the declaration in a playout: 0 uniform (a pass half the
                        time); P: a pass with chance P; < 0: 1 / (hand cards + 1),
                        as often as a uniform pick among the cards and the pass */
    int record;      /* 1: update the MAST averages even where mast is 0 (the
                        tree's move ordering reads them, ismcts.c) */
    int remove;      /* policy 1: 0 any of the opponent's cards in reach; 1 the ones whose
                        removal hurts him most (ai_removal_score) */
} ai_playout_opts;
/* Seat's legal decisions in a placement or a card choice without the list
 * (playout.c): how many (-1 in other phases) and kontor_legal's i-th. Seat
 * must be an actor. */
int ai_legal_count(const kontor_state *s, int seat);
kontor_move ai_legal_nth(const kontor_state *s, int seat, int i);
/* The playout's remove=1: 3 when removing the opponent's card at c costs him
 * the lead of its open area (or gives it to seat's team), 2 when he keeps
 * a lead there, 1 otherwise (playout.c). */
int ai_removal_score(const kontor_state *s, int seat, int c);
/* The ship policy's decision for seat in s, in the ship phase (where the
 * ship goes) or the removal phase (which card it takes) (playout.c). */
kontor_move ai_playout_ship_pick(const kontor_state *s, int seat, const ai_playout_opts *o, kontor_rng *rng);
/* ismcts's shipw=K: 1 when seat's ship move or removal m is one the ship
 * policy could make (stay or take nothing; go next to, or take, a removable
 * card of the opponent), 0 for the others (playout.c). */
int ai_ship_useful(const kontor_state *s, int seat, kontor_move m);

/* MAST (move-average sampling, Finnsson and Bjoernsson 2008): the average
 * result per team of each card choice and each placement (cell, and whether
 * a dock or a water card went there) over the playouts of one search. */
#define AI_MAST_KEYS (2 * 2 * 4096)
typedef struct ai_mast {
    float sum[AI_MAST_KEYS];
    uint32_t n[AI_MAST_KEYS];
} ai_mast;

/* The result per team of a finished game: 0.9 x (win 1, draw 1/2, loss 0)
 * + 0.1 x (1/2 + margin/10), margin clamped to +-5. */
void ai_result_of(const kontor_state *s, float r[2]);
/* ai_result_of's values in a table, by the result (0 loss, 1 draw, 2 win)
 * and the margin clamped to +-AI_MARGIN_CLAMP (its index m + the clamp),
 * filled by ai_result_table (the same expression, so the same floats), and
 * read by ai_result_by: the search's result of a playout without the
 * arithmetic. */
#define AI_MARGIN_CLAMP 5
typedef struct ai_results {
    float r[3][2 * AI_MARGIN_CLAMP + 1];
} ai_results;
void ai_result_table(ai_results *t);
static inline void ai_result_by(const kontor_state *s, const ai_results *t, float r[2]) {
    for (int k = 0; k < 2; k++) {
        int w = s->winner == k ? 2 : s->winner < 0 ? 1 : 0;
        int m = (int)s->score[k] - (int)s->score[1 - k];
        if (m > AI_MARGIN_CLAMP) m = AI_MARGIN_CLAMP;
        if (m < -AI_MARGIN_CLAMP) m = -AI_MARGIN_CLAMP;
        r[k] = t->r[w][m + AI_MARGIN_CLAMP];
    }
}
/* Play s on with the policy of o (s is changed) and write the result per
 * team into r: the finished game's, or the evaluation's win chance at the
 * cut-off. Deterministic for the generator's state. */
void ai_playout(kontor_state *s, kontor_rng *rng, const ai_playout_opts *o, float r[2]);
/* The same with MAST statistics (o->mast > 0): read to pick, and updated
 * with the result at the end. mast may be NULL (then as without). */
void ai_playout_mast(kontor_state *s, kontor_rng *rng, const ai_playout_opts *o, ai_mast *mast, float r[2]);
/* 1 when ai_playout_mast with o and mast plays a game of cfg by the core's
 * kontor_playout and ai_result_of alone (no policy, no cut-off, no MAST):
 * the search then calls those two itself. */
int ai_playout_plain(const ai_playout_opts *o, const kontor_config *cfg, const ai_mast *mast);
/* ismcts's rave=K: the placements of one playout, in order, each as its
 * RAVE key: seat x AI_RAVE_PER_SEAT + (a dock card ? 4096 : 0) + the move's
 * low 12 bits (kind and cell); the card itself is not in it (a card is
 * placed once a game, so no later placement could match it). */
#define AI_RAVE_PER_SEAT 8192
#define AI_PLACEMENTS_MAX 512
typedef struct ai_placements {
    int n;
    uint32_t key[AI_PLACEMENTS_MAX];
} ai_placements;
uint32_t ai_rave_key(const kontor_state *s, int seat, kontor_move m);
/* ai_playout_mast, and with rec the playout's placements written into it
 * (rec may be NULL: then the same as ai_playout_mast, draw for draw; with
 * rec the playout never takes the core's kontor_playout, which records
 * nothing: the default searches of both variants never take it anyway). */
void ai_playout_rec(kontor_state *s, kontor_rng *rng, const ai_playout_opts *o, ai_mast *mast,
                    ai_placements *rec, float r[2]);
/* The MAST average of seat's move m in s (before it is applied) for seat's
 * team: (sum + 1/2) / (n + 1), 1/2 for a move MAST does not track. */
float ai_mast_value(const kontor_state *s, int seat, kontor_move m, const ai_mast *t);
/* ismcts's order=1: the index among untried[0..n) of the move with the best
 * MAST average for seat in s, ties drawn with rng (ismcts.c). */
int ai_order_untried(const kontor_state *s, int seat, const kontor_move *untried, int n, const ai_mast *mast,
                     kontor_rng *rng);
/* ismcts's eorder=K: the index among untried[0..n) of the placement after
 * which ai_eval is best for seat, of K drawn at random (all when K >= n;
 * ties to the first drawn; ismcts.c). */
/* ismcts's margin=X: the result per team of a finished game s, (1 - X) x
 * win/draw/loss + X x the point margin (clamped to +-5) (ismcts.c). */
void ai_result_margin(const kontor_state *s, float x, float r[2]);
int ai_eval_order_untried(const kontor_state *s, int seat, const kontor_move *untried, int n, int k, kontor_rng *rng);

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
/* An agent's numeric options as a table: key, the field's type and offset in
 * the agent's settings, and the range it takes. */
typedef enum { AI_OPT_INT, AI_OPT_U64, AI_OPT_DOUBLE, AI_OPT_FLOAT } ai_opt_type;
typedef struct ai_opt {
    const char *key;
    ai_opt_type type;
    size_t off;
    double lo, hi;
} ai_opt;
/* Set the option key of table[0..n) in the settings at base from val. An
 * unknown key or a bad value fills err (naming spec, and for an unknown key
 * every option the agent `kind` takes, or "none" when n is 0) and returns -1. */
int ai_opt_set(const char *spec, const char *kind, const ai_opt *table, size_t n, void *base, const char *key,
               const char *val, kontor_error *err);
void ai_fail(kontor_error *err, kontor_status code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Seconds on a monotonic clock (the AI may read the clock; the core may not). */
double ai_now(void);
/* ismcts's early stop under a time budget: 1 when a lead of first - second
 * root visits cannot be overtaken by the iterations that `left` more seconds
 * could run at the rate iters / spent (with a margin of a half). */
int ai_settled(uint32_t first, uint32_t second, uint64_t iters, double spent, double left);
/* par=root's early stop: the trees' settled moves (each the move + 1, or 0
 * when that tree has not settled); the common move + 1 when all n settled on
 * the same one, else 0. Each tree's lead being more than its own remaining
 * iterations could overturn, the sum of their visits, which is the
 * decision, cannot be overturned either. */
int ai_settled_all(const int *lead, int n);

/* A uniformly random legal move of v->seat from a's generator. */
kontor_move ai_random_move(kontor_agent *a, const kontor_view *v);

#endif
