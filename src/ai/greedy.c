/* greedy.c: the one-ply player: try each decision, evaluate, keep the best.
 *
 * Placements (ship, removal, cell) are searched to the end of the player's
 * own turn on a determinization of the view: the evaluation reads only
 * public facts, so which determinization does not matter for them. The card
 * choice is different: its worth depends on the card the opponent picks at
 * the same moment, which the player cannot see. So each own card (and the
 * pass) is played against the same `samples` determinizations, each with the
 * opponent's hidden hand dealt at random and his choice drawn uniformly from
 * it; the round is then finished with both sides placing greedily, and the
 * card with the best average evaluation is chosen. Using the same samples
 * for every own card (common random numbers) makes the comparison between
 * cards much less noisy than the averages themselves.
 *
 * The declaration of a pass (R1) is judged the same way, one step earlier:
 * each sample draws every other seat's round as before (a card of its hand
 * or a pass, uniformly: a card means it declares to play), and the own
 * declaration "play" is worth its best card's average, "pass" the average of
 * passing. In the choice that follows, a seat that declared a pass is known
 * and no longer drawn.
 *
 * Options: samples=K (determinizations per card choice, default 8),
 * noise=P (with probability P play a uniformly random legal decision; the
 * "easy" level uses it).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"

typedef struct greedy_impl {
    ai_base base;
    int samples;
    double noise;
} greedy_impl;

/* Does seat q go on deciding alone (its own turn: ship, removal, cell)? */
int ai_own_turn_goes_on(const kontor_state *s, int q) {
    /* the scenarios' simultaneous phases (a bribe, Justizia's seven picks)
     * are decisions of their own, not a turn to search to its end */
    return s->phase != KONTOR_PHASE_OVER && s->phase != KONTOR_PHASE_CHOOSE && s->phase != KONTOR_PHASE_BUY &&
           s->phase != KONTOR_PHASE_BRIBE && s->phase != KONTOR_PHASE_SELECT && s->phase != KONTOR_PHASE_DECLARE &&
           ((kontor_actors(s) >> q) & 1);
}

/* Best value for seat q of the rest of q's own turn from s (ship, removal,
 * placement), evaluated when the turn ends. In quick mode a ship move is
 * judged after the removal without searching the placement (the lookahead of
 * the card choice would otherwise cost thousands of evaluations per card). */
double ai_best_turn(const kontor_state *s, int q, int quick, kontor_move *best) {
    kontor_move moves[KONTOR_MAX_MOVES];
    int n = kontor_legal(s, q, moves);
    double bestv = -1e300;
    if (best) *best = n ? moves[0] : KONTOR_FORFEIT;
    for (int i = 0; i < n; i++) {
        kontor_state c = *s;
        if (kontor_apply(&c, q, moves[i], NULL) != KONTOR_OK) continue;
        double v;
        int again = ai_own_turn_goes_on(&c, q);
        if (again && !(quick && c.phase == KONTOR_PHASE_PLACE)) v = ai_best_turn(&c, q, quick, NULL);
        else v = ai_eval(&c, q);
        if (v > bestv) {
            bestv = v;
            if (best) *best = moves[i];
        }
    }
    return n ? bestv : ai_eval(s, q);
}

/* Finish the round: every seat that places does its greedy best. */
static void finish_round(kontor_state *s) {
    int guard = 0;
    while (s->phase != KONTOR_PHASE_OVER && s->phase != KONTOR_PHASE_CHOOSE && s->phase != KONTOR_PHASE_DECLARE &&
           guard++ < 64) {
        unsigned actors = kontor_actors(s);
        int q = 0;
        while (q < KONTOR_MAX_SEATS - 1 && !((actors >> q) & 1)) q++;
        kontor_move m;
        ai_best_turn(s, q, 1, &m);
        if (m == KONTOR_FORFEIT || kontor_apply(s, q, m, NULL) != KONTOR_OK) break;
    }
}

static int cmp_choice(const void *a, const void *b) {
    const ai_choice *x = a, *y = b;
    if (x->value != y->value) return x->value > y->value ? -1 : 1;
    return (int)x->visits - (int)y->visits; /* visits holds the legal index: stable */
}

/* One sample of the other seats' round: each acting seat q other than seat
 * draws uniformly among its hand cards and (where it may) the pass;
 * pick[q] is the card or KONTOR_PASS, KONTOR_NONE for seats not drawn. */
static void draw_others(const kontor_state *det, int seat, kontor_rng *rng, int pick[KONTOR_MAX_SEATS]) {
    unsigned actors = kontor_actors(det);
    for (int q = 0; q < KONTOR_MAX_SEATS; q++) {
        pick[q] = KONTOR_NONE;
        if (q == seat || q >= det->cfg->nseats || !((actors >> q) & 1)) continue;
        int pass = kontor_is_legal(det, q, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PASS));
        int n = det->hand_n[q] + pass;
        if (n <= 0) continue;
        int i = (int)kontor_rng_below(rng, (uint32_t)n);
        pick[q] = i < det->hand_n[q] ? det->hand[q][i] : KONTOR_PASS;
    }
}

/* From the declarations on: every seat's declaration, then the cards of those
 * who play (pick[q] as in draw_others; seat's own in pick[seat]). */
static void play_declared_round(kontor_state *c, const int pick[KONTOR_MAX_SEATS]) {
    for (int q = 0; q < c->cfg->nseats && c->phase == KONTOR_PHASE_DECLARE; q++)
        if (pick[q] != KONTOR_NONE)
            kontor_apply(c, q, KONTOR_MOVE(KONTOR_MOVE_DECLARE, pick[q] == KONTOR_PASS ? KONTOR_PASS : KONTOR_PLAY), NULL);
    for (int q = 0; q < c->cfg->nseats && c->phase == KONTOR_PHASE_CHOOSE; q++)
        if (pick[q] != KONTOR_NONE && pick[q] != KONTOR_PASS) kontor_apply(c, q, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, pick[q]), NULL);
    finish_round(c);
}

/* The declaration (R1): "play" is worth its best card's average over the
 * samples, "pass" the average of passing. */
static void rank_declaration(greedy_impl *g, kontor_agent *a, const kontor_view *v, ai_choice *ch, int n) {
    int seat = v->seat, nh = v->s.hand_n[seat];
    double card[KONTOR_HAND_MAX] = {0}, pass = 0;
    kontor_determinizer dz; /* prepared once for the samples: the same deals as kontor_determinize */
    kontor_determinizer_prepare(v, &dz);
    for (int k = 0; k < g->samples; k++) {
        kontor_state det;
        kontor_determinize_with(&dz, &a->rng, &det);
        int pick[KONTOR_MAX_SEATS];
        draw_others(&det, seat, &a->rng, pick);
        for (int i = 0; i <= nh; i++) {
            kontor_state c = det;
            pick[seat] = i < nh ? det.hand[seat][i] : KONTOR_PASS;
            play_declared_round(&c, pick);
            double e = ai_eval(&c, seat) / g->samples;
            if (i < nh) card[i] += e;
            else pass += e;
        }
    }
    double best = -1e300;
    for (int i = 0; i < nh; i++)
        if (card[i] > best) best = card[i];
    for (int i = 0; i < n; i++) ch[i].value = KONTOR_MOVE_VALUE(ch[i].move) == KONTOR_PASS ? pass : best;
}

static int greedy_rank(kontor_agent *a, const kontor_view *v, ai_choice *out, int cap) {
    greedy_impl *g = a->impl;
    int seat = v->seat;
    kontor_move moves[KONTOR_MAX_MOVES];
    int n = kontor_legal(&v->s, seat, moves);
    if (n <= 0) return 0;
    ai_choice ch[KONTOR_MAX_MOVES];
    for (int i = 0; i < n; i++) ch[i] = (ai_choice){moves[i], 0.0, (uint32_t)i};

    if (v->s.phase == KONTOR_PHASE_DECLARE) {
        rank_declaration(g, a, v, ch, n);
    } else if (v->s.phase == KONTOR_PHASE_CHOOSE) {
        kontor_determinizer dz; /* prepared once for the samples: the same deals as kontor_determinize */
        kontor_determinizer_prepare(v, &dz);
        for (int k = 0; k < g->samples; k++) {
            kontor_state det;
            kontor_determinize_with(&dz, &a->rng, &det);
            /* the opponents' hidden choices, drawn uniformly */
            kontor_move opp[KONTOR_MAX_SEATS];
            unsigned actors = kontor_actors(&det);
            for (int q = 0; q < det.cfg->nseats; q++) {
                opp[q] = KONTOR_FORFEIT;
                if (q == seat || !((actors >> q) & 1)) continue;
                kontor_move om[KONTOR_MAX_MOVES];
                int on = kontor_legal(&det, q, om);
                if (on > 0) opp[q] = om[kontor_rng_below(&a->rng, (uint32_t)on)];
            }
            for (int i = 0; i < n; i++) {
                kontor_state c = det;
                kontor_apply(&c, seat, moves[i], NULL);
                for (int q = 0; q < c.cfg->nseats; q++)
                    if (opp[q] != KONTOR_FORFEIT) kontor_apply(&c, q, opp[q], NULL);
                finish_round(&c);
                ch[i].value += ai_eval(&c, seat) / g->samples;
            }
        }
    } else {
        kontor_state det;
        kontor_determinize(v, &a->rng, &det);
        for (int i = 0; i < n; i++) {
            kontor_state c = det;
            kontor_apply(&c, seat, moves[i], NULL);
            int again = ai_own_turn_goes_on(&c, seat);
            ch[i].value = again ? ai_best_turn(&c, seat, 0, NULL) : ai_eval(&c, seat);
        }
    }
    qsort(ch, (size_t)n, sizeof *ch, cmp_choice);
    if (n > cap) n = cap;
    for (int i = 0; i < n; i++) {
        out[i] = ch[i];
        out[i].visits = 0;
    }
    return n;
}

static kontor_move greedy_decide(kontor_agent *a, const kontor_view *v) {
    greedy_impl *g = a->impl;
    if (g->noise > 0) {
        /* draw the coin first, always, so the stream does not depend on it */
        double u = (double)(kontor_rng_next(&a->rng) >> 11) * (1.0 / 9007199254740992.0);
        if (u < g->noise) return ai_random_move(a, v);
    }
    ai_choice best;
    if (greedy_rank(a, v, &best, 1) < 1) return ai_random_move(a, v); /* fills a->error */
    return best.move;
}

static const ai_opt greedy_opts[] = {
    {"samples", AI_OPT_INT, offsetof(greedy_impl, samples), 1, 1000},
    {"noise", AI_OPT_DOUBLE, offsetof(greedy_impl, noise), 0, 1},
};

static int greedy_opt(void *ctx, const char *key, const char *val, kontor_error *err) {
    kontor_agent *a = ctx;
    return ai_opt_set(a->name, "greedy", greedy_opts, sizeof greedy_opts / sizeof *greedy_opts, a->impl, key, val,
                      err);
}

int ai_greedy_init(kontor_agent *a, const char *opts, kontor_error *err) {
    greedy_impl *g = calloc(1, sizeof *g);
    if (!g) {
        ai_fail(err, KONTOR_E_RANGE, "agent '%s': out of memory", a->name);
        return -1;
    }
    g->base.rank = greedy_rank;
    g->samples = 8;
    a->impl = g;
    if (ai_parse_opts(a->name, opts, greedy_opt, a, err)) {
        free(g);
        a->impl = NULL;
        return -1;
    }
    a->decide = greedy_decide;
    a->release = ai_release;
    return 0;
}
