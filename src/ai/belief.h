/* belief.h: inference about the opponent's hidden hand from his past card
 * choices (ismcts's belief=K; belief.c has the why and the model). */
#ifndef KONTOR_AI_BELIEF_H
#define KONTOR_AI_BELIEF_H

#include <stdint.h>

#include "kontor/kontor.h"

#define BEL_ROUNDS 64 /* rounds remembered (later ones are not) */

/* One round the searcher saw before the cards were chosen: its view then,
 * and the card the opponent revealed (KONTOR_NONE: not known, or none). */
typedef struct bel_round {
    kontor_view v;
    uint8_t card;
    uint8_t done; /* 1: card is settled (found, or never to be found) */
    float q[KONTOR_MAX_CARDS]; /* the model's value of each card for the opponent then (NaN: not worked out) */
} bel_round;

/* What the searcher remembers across its decisions of one game, and, per
 * search, the tables the determinizations are weighed with. */
typedef struct ai_belief {
    int tries;   /* belief=K: draws per iteration at most (0: off) */
    double beta; /* beta=X: the model's inverse temperature, per point of the evaluation */
    double bnum; /* bnum=Y: the same per ten of the card's number (below 0: low numbers first) */
    int n;       /* rounds in r[] */
    bel_round r[BEL_ROUNDS];
    /* per search (ai_belief_prepare) */
    int on;      /* the search weighs its worlds (two seats, some round with a known card) */
    int opp;     /* the opponent's seat */
    int slot[KONTOR_HAND_MAX], nslot; /* the opponent's hand places the view does not show */
    int nr;      /* rounds used */
    double base[BEL_ROUNDS];  /* per used round: the weights of the cards he held that are known now */
    float e[BEL_ROUNDS][KONTOR_MAX_CARDS]; /* per used round and card: exp(beta (q(card) - q(revealed))) */
    double top;  /* the largest log-weight of a few uniform draws: the rejection's bound */
} ai_belief;

/* A decision's view: remember the round (before the choice) and what the
 * opponent revealed since. A new game (an earlier round) forgets. */
void ai_belief_observe(ai_belief *b, const kontor_view *v);
/* Before a search of v: the model's values of the cards still needed, and
 * the tables (b->on says whether the search weighs its worlds). */
void ai_belief_prepare(ai_belief *b, const kontor_view *v, const kontor_determinizer *det, kontor_rng *rng);
/* The log of the likelihood of the opponent's revealed cards under the model,
 * given a world st of the prepared view (up to a constant). */
double ai_belief_logw(const ai_belief *b, const kontor_state *st);
/* A world of the prepared view, drawn uniformly and kept with a chance of its
 * weight over the bound, at most b->tries draws (the last is kept). */
void ai_belief_deal(const ai_belief *b, const kontor_determinizer *det, kontor_rng *rng, kontor_state *out);
void ai_belief_reset(ai_belief *b);

#endif
