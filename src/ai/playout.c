/* playout.c: the rest of the game as the search imagines it: a playout
 * policy, an optional cut-off, and the result per team.
 *
 * The engine's kontor_playout plays uniformly at random to the end of the
 * game. That is fast, but in the advanced game uniform play is a poor
 * picture of the future: a random player moves the ship on almost every ship
 * card (one "stay" among ~20 water cells) and then removes a random card,
 * often his own, so playouts are dominated by ship moves no player would
 * make, and the end of a game 25 rounds away says little about the decision
 * at hand. Four changes, each an option of ismcts, measured in docs/ai.md:
 *
 *  - a cut-off: stop when `rounds` new rounds have begun and score the
 *    position with the greedy evaluation (eval.c), mapped to a win chance by
 *    a logistic curve, 1 / (1 + exp(-eval / scale)); eval is in tenths of a
 *    point, so with scale 10 a lead of one area is worth a 73% chance. The
 *    default scale is the maximum-likelihood fit of that curve to the
 *    outcomes of greedy-against-greedy games (the evaluation at every round
 *    start of 200 games): 10 in the advanced game, 6 in the basic game, where
 *    fewer areas are at stake and one is worth more;
 *  - a ship policy: the ship moves only to a water cell next to a removable
 *    dock card of the opponent (with probability ship_move), and then
 *    removes one of the opponent's cards there; otherwise it stays.
 *    With remove=1 (issue 18, off by default) it goes after the cards whose
 *    removal hurts the opponent most (ai_removal_score: the area's lead
 *    lost, or handed over) and takes one of those.
 *  - a placement bias: a dock card goes next to one of its owner's dock
 *    cards with probability `place`, elsewhere uniformly;
 *  - MAST (move-average sampling): with probability `mast` a card choice or
 *    a placement is the one with the best average result for its side over
 *    this search's playouts so far, else uniform. It learns within one
 *    search which cells and cards pay, at the price of a scan of the legal
 *    moves per pick.
 *  - a declaration policy (R1): uniformly, a player would declare a pass in
 *    half the rounds, and playouts would be games of passing; by default a
 *    playout passes as often as a uniform pick among the hand cards and the
 *    pass (1 / (cards + 1)), what the hidden choice of the old ruling did.
 *    Everything else stays uniform, and every pick is a few bitboard
 *    operations, so a playout costs little more than the engine's.
 *
 * Measured (docs/ai.md): the ship policy (default on, ship=1) is what made
 * ismcts beat greedy in the advanced game; MAST (default 0.25 where there is
 * no ship) in the basic game; the cut-off and the placement bias did not help
 * and are off by default.
 *
 * With none of them (rounds 0, policy 0 or no ship, place 0, mast 0) the engine's
 * kontor_playout runs, so the plain search is exactly what it was, at the
 * engine's speed. Everything here reads the full state
 * of a determinization, never the real game: blindness is the caller's (the
 * determinization is drawn from a view).
 */
#include <math.h>
#include <string.h>

#include "ai/ai.h"
#include "core/apply.h"
#include "core/bb.h"

/* Reward = 0.9 * (win 1, draw 1/2, loss 0) + 0.1 * margin term, so that
 * among won (or lost) lines the search still prefers the larger margin. */
#define W_RESULT 0.9f
#define MARGIN_CLAMP 5
/* The default scales of the cut-off's logistic curve (see above): games where
 * only the largest areas count, and games where every area counts. */
#define SCALE_LARGEST 10.0
#define SCALE_ALL 6.0

_Static_assert(MARGIN_CLAMP == AI_MARGIN_CLAMP, "ai.h's table of results has the margins' width");
/* A team's result for a win, draw or loss (wdl 1, 1/2, 0) and the clamped
 * margin m: the one expression both ai_result_of and the table use. */
static inline float result_value(float wdl, int m) {
    return W_RESULT * wdl + (1.0f - W_RESULT) * (0.5f + (float)m / (2 * MARGIN_CLAMP));
}

void ai_result_of(const kontor_state *s, float r[2]) {
    for (int t = 0; t < 2; t++) {
        float wdl = s->winner == t ? 1.0f : s->winner < 0 ? 0.5f : 0.0f;
        int m = (int)s->score[t] - (int)s->score[1 - t];
        if (m > MARGIN_CLAMP) m = MARGIN_CLAMP;
        if (m < -MARGIN_CLAMP) m = -MARGIN_CLAMP;
        r[t] = result_value(wdl, m);
    }
}

void ai_result_table(ai_results *t) {
    for (int w = 0; w < 3; w++)
        for (int m = -MARGIN_CLAMP; m <= MARGIN_CLAMP; m++)
            t->r[w][m + MARGIN_CLAMP] = result_value(0.5f * (float)w, m);
}

/* uniform in [0, 1) from the top 24 bits */
static float unit(kontor_rng *rng) { return (float)(kontor_rng_next(rng) >> 40) * (1.0f / 16777216.0f); }

/* The number of the legal decisions of seat (an actor) in s, for the phases
 * a playout meets most (placements and card choices), without the list:
 * the same set kontor_legal lists, in the same order, so that ai_legal_nth
 * is its i-th. -1 for the other phases (then list them). */
int ai_legal_count(const kontor_state *s, int seat) {
    if (s->phase == KONTOR_PHASE_PLACE)
        return bb_count(s->cells) + bb_count(s->cells_water) + (s->cfg->optional_place ? 1 : 0);
    if (s->phase == KONTOR_PHASE_CHOOSE) /* a pass is a choice with declare=hidden, unless forbidden (R1, R2) */
        return s->hand_n[seat] + kontor__may_pass_in_choice(s, seat);
    return -1;
}

/* kontor_legal's i-th decision, 0 <= i < ai_legal_count(s, seat). */
kontor_move ai_legal_nth(const kontor_state *s, int seat, int i) {
    if (s->phase == KONTOR_PHASE_CHOOSE)
        return KONTOR_MOVE(KONTOR_MOVE_CHOOSE, i < s->hand_n[seat] ? s->hand[seat][i] : KONTOR_PASS);
    int a = bb_count(s->cells);
    if (i < a) return KONTOR_MOVE(KONTOR_MOVE_PLACE, bb_nth(s->cells, i));
    if (i < a + bb_count(s->cells_water)) return KONTOR_MOVE(KONTOR_MOVE_PLACE_WATER, bb_nth(s->cells_water, i - a));
    return KONTOR_MOVE(KONTOR_MOVE_PLACE, KONTOR_NONE);
}

static kontor_move pick_uniform(const kontor_state *s, int seat, kontor_rng *rng) {
    /* a placement (most playout decisions) straight from the bitboards: the
     * same set kontor_legal lists, in the same order, and the same draw */
    if (s->phase == KONTOR_PHASE_PLACE) {
        int n = ai_legal_count(s, seat);
        if (n > 0) return ai_legal_nth(s, seat, (int)kontor_rng_below(rng, (uint32_t)n));
    }
    kontor_move moves[KONTOR_MAX_MOVES];
    int n = kontor_legal(s, seat, moves);
    return n > 0 ? moves[kontor_rng_below(rng, (uint32_t)n)] : KONTOR_FORFEIT;
}

/* The opponent's dock cards the ship could remove from somewhere: ship
 * symbol, not enclosed, of the other team than seat's. */
static bb_t opponent_targets(const kontor_state *s, int seat) {
    int op = 1 - kontor_team(s, seat);
    return bb_andnot(bb_and(s->shipsym, s->team_dock[op]), s->enclosed);
}

/* remove=1: how much taking the opponent's card at cell c out of its open
 * area hurts him: 3 when it costs him the lead of the area (the goods
 * compared as at the scoring, kontor_compare_goods) or gives it to seat's
 * team, 2 when he keeps a lead, 1 otherwise. One flood of the area. */
int ai_removal_score(const kontor_state *s, int seat, int c) {
    int me = kontor_team(s, seat), op = 1 - me;
    kontor_bb cells;
    uint8_t g[2][3];
    kontor_area_at(s, c, &cells, g);
    int w = kontor_compare_goods(g);
    const kontor_card *k = &s->cfg->cards->card[s->cell_card[c]];
    if (k->kind == KONTOR_KIND_GOODS && k->colour <= 1)
        for (int i = 0; i < 3; i++) g[k->colour][i] = (uint8_t)(g[k->colour][i] - k->goods[i]);
    int w2 = kontor_compare_goods(g);
    if ((w == op && w2 != op) || (w != me && w2 == me)) return 3;
    return w == op ? 2 : 1;
}

/* remove=1: of the cells in t, those of the best ai_removal_score (all of
 * them score at least 1, so the set is empty only when t is) */
static bb_t best_targets(const kontor_state *s, int seat, bb_t t) {
    bb_t best = bb_empty();
    int top = 0;
    while (bb_any(t)) {
        int c = bb_pop(&t), v = ai_removal_score(s, seat, c);
        if (v > top) top = v, best = bb_empty();
        if (v == top) bb_set(&best, c);
    }
    return best;
}

static kontor_move pick_ship(const kontor_state *s, int seat, const ai_playout_opts *o, kontor_rng *rng) {
    bb_t targets = opponent_targets(s, seat);
    if (o->remove && bb_any(targets)) { /* the ship goes next to a card of the best score */
        bb_t reach = bb_and(s->water, bb_neighbours(targets)), ok = bb_empty();
        if (s->ship_cell != KONTOR_NONE) bb_clear(&reach, s->ship_cell);
        while (bb_any(reach)) { /* the targets the ship can still reach */
            int w = bb_pop(&reach);
            ok = bb_or(ok, bb_and(targets, bb_around(w)));
        }
        if (bb_any(ok)) targets = best_targets(s, seat, ok);
    }
    bb_t near = bb_neighbours(targets);
    bb_t t = bb_and(s->water, near);
    if (s->ship_cell != KONTOR_NONE) bb_clear(&t, s->ship_cell);
    if (!bb_any(t) || unit(rng) >= o->ship_move) return KONTOR_MOVE(KONTOR_MOVE_SHIP, KONTOR_NONE);
    return KONTOR_MOVE(KONTOR_MOVE_SHIP, bb_nth(t, (int)kontor_rng_below(rng, (uint32_t)bb_count(t))));
}

static kontor_move pick_remove(const kontor_state *s, int seat, const ai_playout_opts *o, kontor_rng *rng) {
    bb_t t = bb_and(opponent_targets(s, seat), bb_around(s->ship_cell));
    if (!bb_any(t)) return KONTOR_MOVE(KONTOR_MOVE_REMOVE, KONTOR_NONE);
    if (o->remove) t = best_targets(s, seat, t);
    return KONTOR_MOVE(KONTOR_MOVE_REMOVE, bb_nth(t, (int)kontor_rng_below(rng, (uint32_t)bb_count(t))));
}

int ai_ship_useful(const kontor_state *s, int seat, kontor_move m) {
    int kind = KONTOR_MOVE_KIND(m), c = KONTOR_MOVE_VALUE(m);
    if (c == KONTOR_NONE) return 1; /* staying, taking nothing */
    bb_t t = opponent_targets(s, seat);
    if (kind == KONTOR_MOVE_SHIP) {
        bb_t near = bb_and(s->water, bb_neighbours(t));
        return bb_test(&near, c);
    }
    if (kind == KONTOR_MOVE_REMOVE) return bb_test(&t, c);
    return 1;
}

kontor_move ai_playout_ship_pick(const kontor_state *s, int seat, const ai_playout_opts *o, kontor_rng *rng) {
    return s->phase == KONTOR_PHASE_SHIP ? pick_ship(s, seat, o, rng) : pick_remove(s, seat, o, rng);
}

/* A dock card goes next to one of its owner's dock cards with chance
 * o->place (when there is such a cell), elsewhere uniformly. */
static kontor_move pick_place(const kontor_state *s, int seat, const ai_playout_opts *o, kontor_rng *rng) {
    int id = s->choice[seat];
    const kontor_card *k = id < s->cfg->cards->ncards ? &s->cfg->cards->card[id] : NULL;
    if (k && kontor_card_is_dock(k) && k->colour <= 1) {
        bb_t t = bb_and(s->cells, bb_neighbours(s->team_dock[kontor_team(s, seat)]));
        if (bb_any(t) && unit(rng) < o->place)
            return KONTOR_MOVE(KONTOR_MOVE_PLACE, bb_nth(t, (int)kontor_rng_below(rng, (uint32_t)bb_count(t))));
    }
    return pick_uniform(s, seat, rng);
}

/* MAST key of seat's move m in s (before it is applied): the team, whether
 * the card is a dock card (placements), and the move (a declaration, a card,
 * a cell). -1 for moves MAST does not track (ship, removal, buying, piles). */
static inline int mast_key_of(const kontor_state *s, int seat, kontor_move m, int team2) {
    int kind = KONTOR_MOVE_KIND(m);
    if (kind == KONTOR_MOVE_CHOOSE || kind == KONTOR_MOVE_DECLARE) return (team2 << 12) | (m & 0xFFF);
    if (kind != KONTOR_MOVE_PLACE && kind != KONTOR_MOVE_PLACE_WATER) return -1;
    int id = s->choice[seat];
    int dock = id < s->cfg->cards->ncards && kontor_card_is_dock(&s->cfg->cards->card[id]);
    return ((team2 + dock) << 12) | (m & 0xFFF);
}

/* (team2: twice seat's team, which a playout works out once a seat) */
static int mast_key(const kontor_state *s, int seat, kontor_move m) {
    return mast_key_of(s, seat, m, kontor_team(s, seat) * 2);
}

float ai_mast_value(const kontor_state *s, int seat, kontor_move m, const ai_mast *t) {
    int k = mast_key(s, seat, m);
    return k < 0 ? 0.5f : (t->sum[k] + 0.5f) / (float)(t->n[k] + 1);
}

/* With chance o->mast the legal move with the best average so far (an
 * unseen move counts as a draw, 1/2), else uniform. */
static kontor_move pick_mast(const kontor_state *s, int seat, const ai_playout_opts *o, const ai_mast *t,
                             kontor_rng *rng) {
    kontor_move moves[KONTOR_MAX_MOVES];
    int n = ai_legal_count(s, seat);
    if (n >= 0) { /* the uniform pick (1 - mast of them) without the list: the same draws */
        if (n == 0) return KONTOR_FORFEIT;
        if (unit(rng) >= o->mast) return ai_legal_nth(s, seat, (int)kontor_rng_below(rng, (uint32_t)n));
        n = kontor_legal(s, seat, moves);
    } else {
        n = kontor_legal(s, seat, moves);
        if (n <= 0) return KONTOR_FORFEIT;
        if (unit(rng) >= o->mast) return moves[kontor_rng_below(rng, (uint32_t)n)];
    }
    int best = 0, nbest = 0;
    float bestv = -1.0f;
    /* mast_key of each move: the team and, for a placement, whether the card
     * is a dock card are the same for all of them, worked out once */
    int team2 = kontor_team(s, seat) * 2, dock = -1;
    for (int i = 0; i < n; i++) {
        int kind = KONTOR_MOVE_KIND(moves[i]), k = -1;
        if (kind == KONTOR_MOVE_CHOOSE || kind == KONTOR_MOVE_DECLARE) k = (team2 << 12) | (moves[i] & 0xFFF);
        else if (kind == KONTOR_MOVE_PLACE || kind == KONTOR_MOVE_PLACE_WATER) {
            if (dock < 0) {
                int id = s->choice[seat];
                dock = id < s->cfg->cards->ncards && kontor_card_is_dock(&s->cfg->cards->card[id]);
            }
            k = ((team2 + dock) << 12) | (moves[i] & 0xFFF);
        }
        float v = k < 0 ? 0.5f : (t->sum[k] + 0.5f) / (float)(t->n[k] + 1);
        if (v > bestv) bestv = v, best = i, nbest = 1;
        else if (v == bestv && kontor_rng_below(rng, (uint32_t)++nbest) == 0) best = i;
    }
    return moves[best];
}

/* R1: declare a pass with chance o->pass, or 1 / (hand cards + 1) when it is
 * negative; a seat that must play or must pass does. */
static kontor_move pick_declare(const kontor_state *s, int seat, const ai_playout_opts *o, kontor_rng *rng) {
    int n = s->hand_n[seat];
    kontor_move pass = KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PASS), play = KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY);
    if (!n) return pass;
    if (!kontor_is_legal(s, seat, pass)) return play;
    float p = o->pass < 0.0f ? 1.0f / (float)(n + 1) : o->pass;
    return unit(rng) < p ? pass : play;
}

void ai_playout(kontor_state *s, kontor_rng *rng, const ai_playout_opts *o, float r[2]) {
    ai_playout_mast(s, rng, o, NULL, r);
}

/* MAST's default chance where there is no ship (the basic game): 0.25 and
 * 0.5 both lifted the score against greedy from 66% to 80-82% at 4000
 * iterations (docs/ai.md); with the ship it brought nothing measurable and
 * costs a third of the playouts, so it is off there. */
#define MAST_ALL 0.25f
/* Moves of one playout remembered for the MAST update. */
#define MAST_PATH 1024

void ai_playout_mast(kontor_state *s, kontor_rng *rng, const ai_playout_opts *opts, ai_mast *mast, float r[2]) {
    ai_playout_rec(s, rng, opts, mast, NULL, r);
}

/* The RAVE key of seat's placement m in s (before it is applied): the seat,
 * whether the card is a dock card, the move (ai.h, ai_placements). */
uint32_t ai_rave_key(const kontor_state *s, int seat, kontor_move m) {
    int id = s->choice[seat];
    uint32_t dock = id < s->cfg->cards->ncards && kontor_card_is_dock(&s->cfg->cards->card[id]);
    return (uint32_t)seat * AI_RAVE_PER_SEAT + (dock << 12) + (m & 0xFFFu);
}

int ai_playout_plain(const ai_playout_opts *o, const kontor_config *cfg, const ai_mast *mast) {
    float m = o->mast < 0.0f ? (cfg->ship ? 0.0f : MAST_ALL) : o->mast;
    /* o->record: keep the averages (for the tree's move ordering, ismcts.c)
     * even where the playout does not use them */
    int keeps = mast && ((m > 0.0f) || o->record);
    /* the ship policy changes nothing where there is no ship */
    return o->rounds == 0 && (o->policy == 0 || !cfg->ship) && o->place <= 0.0f && !keeps &&
           (o->pass == 0.0f || cfg->pass_hidden);
}

void ai_playout_rec(kontor_state *s, kontor_rng *rng, const ai_playout_opts *opts, ai_mast *mast,
                    ai_placements *rec, float r[2]) {
    if (rec) rec->n = 0;
    else if (ai_playout_plain(opts, s->cfg, mast)) {
        kontor_playout(s, rng);
        ai_result_of(s, r);
        return;
    }
    ai_playout_opts eff = *opts;
    const ai_playout_opts *o = &eff;
    if (eff.mast < 0.0f) eff.mast = s->cfg->ship ? 0.0f : MAST_ALL;
    int use = eff.mast > 0.0f && mast;
    if (!use && !o->record) mast = NULL;
    unsigned stop = o->rounds ? (unsigned)s->round + (unsigned)o->rounds : 0xFFFFFFFFu;
    int path[MAST_PATH];
    int npath = 0;
    int team2[KONTOR_MAX_SEATS]; /* the seats' teams, twice, for the MAST keys */
    for (int q = 0; q < KONTOR_MAX_SEATS; q++) team2[q] = mast && q < s->cfg->nseats ? kontor_team(s, q) * 2 : 0;
    /* a few hundred decisions end any game (R8's safety rule); the guard only
     * protects against an engine bug turning into a hang */
    for (int guard = 0; s->phase != KONTOR_PHASE_OVER && guard < 100000; guard++) {
        int opens = s->phase == KONTOR_PHASE_CHOOSE || s->phase == KONTOR_PHASE_DECLARE || s->phase == KONTOR_PHASE_BUY;
        if (opens && s->round >= stop && !(s->phase == KONTOR_PHASE_CHOOSE && !s->cfg->pass_hidden)) break;
        unsigned actors = kontor_actors(s);
        if (!actors) break;
        if (opens) {
            int phase = s->phase;
            for (int q = 0; q < s->cfg->nseats && s->phase == phase; q++) {
                if (!((actors >> q) & 1)) continue;
                kontor_move m = phase == KONTOR_PHASE_DECLARE && o->pass != 0.0f ? pick_declare(s, q, o, rng)
                                 : use && phase != KONTOR_PHASE_BUY       ? pick_mast(s, q, o, mast, rng)
                                                                          : pick_uniform(s, q, rng);
                if (mast && npath < MAST_PATH) {
                    int k = mast_key_of(s, q, m, team2[q]);
                    if (k >= 0) path[npath++] = k;
                }
                if (m == KONTOR_FORFEIT) break; /* cannot happen: an actor has a decision */
                /* every pick above is one of the legal decisions (core/apply.h) */
                kontor__apply_unchecked(s, q, m, NULL);
            }
            continue;
        }
        int q = 0;
        while (q < KONTOR_MAX_SEATS - 1 && !((actors >> q) & 1)) q++;
        kontor_move m;
        if (o->policy && s->phase == KONTOR_PHASE_SHIP) m = pick_ship(s, q, o, rng);
        else if (o->policy && s->phase == KONTOR_PHASE_REMOVE) m = pick_remove(s, q, o, rng);
        else if (o->place > 0.0f && s->phase == KONTOR_PHASE_PLACE) m = pick_place(s, q, o, rng);
        else if (use && s->phase == KONTOR_PHASE_PLACE) m = pick_mast(s, q, o, mast, rng);
        else m = pick_uniform(s, q, rng);
        if (mast && npath < MAST_PATH) {
            int k = mast_key_of(s, q, m, team2[q]);
            if (k >= 0) path[npath++] = k;
        }
        if (m == KONTOR_FORFEIT) break; /* cannot happen: an actor has a decision */
        if (rec && s->phase == KONTOR_PHASE_PLACE && rec->n < AI_PLACEMENTS_MAX)
            rec->key[rec->n++] = ai_rave_key(s, q, m);
        kontor__apply_unchecked(s, q, m, NULL); /* every pick is legal (core/apply.h) */
    }
    if (s->phase == KONTOR_PHASE_OVER) {
        ai_result_of(s, r);
    } else {
        int t0 = kontor_team(s, 0);
        double e = ai_eval(s, 0);
        double scale = o->scale > 0 ? o->scale : s->cfg->largest ? SCALE_LARGEST : SCALE_ALL;
        float p = (float)(1.0 / (1.0 + exp(-e / scale)));
        r[t0] = p;
        r[1 - t0] = 1.0f - p;
    }
    for (int i = 0; i < npath; i++) {
        mast->sum[path[i]] += r[path[i] >> 13];
        mast->n[path[i]]++;
    }
}
