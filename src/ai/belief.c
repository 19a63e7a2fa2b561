/* belief.c: what the opponent's past card choices say about his hidden hand
 * (ismcts's belief=K, off by default; docs/ai.md, "Session fourteen").
 *
 * Why: ismcts deals the opponent's unseen cards uniformly among those the
 * searcher has not seen. But he chose a card each round from the hand he
 * held, and a player who held a card much better than the one he revealed
 * would likely have played it. So the worlds in which his hidden cards would
 * have been much better choices than his revealed ones are less likely.
 *
 * What makes it cheap in kontor: his hidden cards all come from the deal (a
 * draw takes a pile's face-up top, so every later card in a hand is seen),
 * so a card hidden in his hand now was in his hand in every earlier round.
 * His hand in round r was: the cards of it the searcher saw then, the hidden
 * ones he revealed in round r or later (seen now), and the hidden ones he
 * still holds (the world's). The model: he reveals card x of that hand with
 * a chance proportional to exp(beta q_r(x) + bnum number(x) / 10), q_r(x)
 * the greedy evaluation for him after he plays x alone in round r's
 * position (the searcher passing) and places it greedily (bnum: searching
 * players reveal low numbers first, the fit in docs/ai.md). The likelihood of a world is the product
 * over the rounds of the chance of the card he revealed; only the
 * denominators depend on the world, through the exp(beta q_r(h)) of his
 * hidden cards h: per world a few additions and a logarithm a round.
 *
 * The searcher remembers each round's view before the choice (its own
 * decisions see it: the declaration, or the choice) and finds the card he
 * revealed from its next views (his choice during the placing, else the
 * card that lay new on the board and was not its own). No observe call is
 * needed, so the server's computer players could use it too.
 *
 * A search with belief=K draws each iteration's world uniformly (as
 * without) and keeps it with the chance w/W of its weight over W, the
 * largest weight of 16 uniform draws at the start of the search, trying at
 * most K times (then the last draw is kept): rejection sampling, K bounding
 * its cost. Two seats only; the game for four searches as without. */
#include <math.h>
#include <string.h>

#include "ai/ai.h"
#include "ai/belief.h"

void ai_belief_reset(ai_belief *b) {
    b->n = 0;
    b->on = 0;
}

static int in_hand(const kontor_state *s, int seat, int id) {
    for (int i = 0; i < s->hand_n[seat] && i < KONTOR_HAND_MAX; i++)
        if (s->hand[seat][i] == id) return 1;
    return 0;
}

/* The one card that lies new on the board of now since round view then and
 * was not in the searcher's hand then; KONTOR_NONE if none or several. */
static int new_card(const kontor_view *then, const kontor_state *now) {
    int found = KONTOR_NONE, count = 0;
    for (int c = 0; c < KONTOR_CELLS; c++) {
        int id = now->cell_card[c];
        if (id == KONTOR_NONE || id == then->s.cell_card[c] || id >= KONTOR_MAX_CARDS) continue;
        if (in_hand(&then->s, then->seat, id)) continue;
        found = id;
        count++;
    }
    return count == 1 ? found : KONTOR_NONE;
}

void ai_belief_observe(ai_belief *b, const kontor_view *v) {
    const kontor_state *s = &v->s;
    if (!s->cfg || s->cfg->nseats != 2 || v->seat > 1) return;
    int opp = 1 - v->seat;
    if (b->n > 0 && (s->round < b->r[b->n - 1].v.s.round || v->seat != b->r[b->n - 1].v.seat)) ai_belief_reset(b);
    int before = s->phase == KONTOR_PHASE_DECLARE || s->phase == KONTOR_PHASE_CHOOSE; /* nothing revealed yet */
    if (b->n > 0 && !b->r[b->n - 1].done) { /* the last round's card, if this view shows it */
        bel_round *l = &b->r[b->n - 1];
        if (s->round == l->v.s.round && !before) {
            if (s->choice[opp] < KONTOR_MAX_CARDS) l->card = s->choice[opp], l->done = 1;
            else if ((l->card = (uint8_t)new_card(&l->v, s)) != KONTOR_NONE) l->done = 1;
        } else if (s->round > l->v.s.round) {
            l->card = s->round == l->v.s.round + 1 ? (uint8_t)new_card(&l->v, s) : KONTOR_NONE;
            l->done = 1;
        }
    }
    if (before && (b->n == 0 || s->round > b->r[b->n - 1].v.s.round) && b->n < BEL_ROUNDS) {
        bel_round *r = &b->r[b->n++];
        r->v = *v;
        r->card = KONTOR_NONE;
        r->done = 0;
        for (int i = 0; i < KONTOR_MAX_CARDS; i++) r->q[i] = NAN;
    }
}

/* q_r(x): the opponent plays x alone from d (a world of round r's view with
 * x in his hand), places it greedily; his evaluation then. NaN: not legal. */
static float card_value(const kontor_state *d, int me, int opp, int x) {
    kontor_state c = *d;
    for (int guard = 0; (c.phase == KONTOR_PHASE_DECLARE || c.phase == KONTOR_PHASE_CHOOSE) && guard < 8; guard++) {
        unsigned act = kontor_actors(&c);
        int q = (act >> opp) & 1 ? opp : me;
        if (!((act >> q) & 1)) return NAN;
        int decl = c.phase == KONTOR_PHASE_DECLARE;
        kontor_move m = q == opp ? KONTOR_MOVE(decl ? KONTOR_MOVE_DECLARE : KONTOR_MOVE_CHOOSE, decl ? KONTOR_PLAY : x)
                                 : KONTOR_MOVE(decl ? KONTOR_MOVE_DECLARE : KONTOR_MOVE_CHOOSE, KONTOR_PASS);
        if (kontor_apply(&c, q, m, NULL) != KONTOR_OK) {
            kontor_move any[KONTOR_MAX_MOVES]; /* the searcher cannot pass: any of its cards */
            if (q == opp || kontor_legal(&c, q, any) <= 0 || kontor_apply(&c, q, any[0], NULL) != KONTOR_OK) return NAN;
        }
    }
    for (int guard = 0; ai_own_turn_goes_on(&c, opp) && guard < 16; guard++) {
        kontor_move m;
        ai_best_turn(&c, opp, 1, &m); /* greedy's quick turn: a ship move judged after the removal */
        if (m == KONTOR_FORFEIT || kontor_apply(&c, opp, m, NULL) != KONTOR_OK) break;
    }
    return (float)ai_eval(&c, opp);
}

/* Put card x into slot i of seat opp's hand in world d, swapping it with the
 * hidden place it was dealt to; 0 if it is not in a hidden place. */
static int swap_in(kontor_state *d, int opp, int i, int x) {
    if (in_hand(d, opp, x)) return 1;
    kontor_pile *piles[KONTOR_MAX_SEATS + 3];
    int np = 0;
    for (int q = 0; q < KONTOR_MAX_SEATS; q++) piles[np++] = &d->dock_pile[q];
    piles[np++] = &d->water_pile;
    piles[np++] = &d->aside;
    piles[np++] = &d->special_pile;
    for (int k = 0; k < np; k++)
        for (int j = 1; j < piles[k]->n; j++) { /* below the top: the top is seen */
            uint8_t *p = &d->pile_card[kontor_pile_at(piles[k], j)];
            if (*p == x) {
                *p = d->hand[opp][i];
                d->hand[opp][i] = (uint8_t)x;
                return 1;
            }
        }
    return 0;
}

static int klass(const kontor_state *s, int id) { return kontor_card_class(&s->cfg->cards->card[id]); }

/* Work out q_r(x) for the cards x of list that round r has not yet. */
static void values(bel_round *r, const uint8_t *list, int n) {
    int me = r->v.seat, opp = 1 - me, need = 0;
    for (int k = 0; k < n; k++) need |= isnan(r->q[list[k]]);
    if (!need) return;
    kontor_rng rng; /* the same world of round r for every card, every search */
    kontor_rng_seed(&rng, 0x6b6f6e746f72ULL + r->v.s.round);
    kontor_state d;
    kontor_determinize(&r->v, &rng, &d);
    for (int k = 0; k < n; k++) {
        int x = list[k];
        if (!isnan(r->q[x])) continue;
        kontor_state c = d;
        int ok = in_hand(&r->v.s, opp, x);
        for (int i = 0; !ok && i < r->v.s.hand_n[opp]; i++)
            if (r->v.s.hand[opp][i] == KONTOR_UNKNOWN_BASE + klass(&r->v.s, x)) ok = swap_in(&c, opp, i, x);
        r->q[x] = ok ? card_value(&c, me, opp, x) : -1e9f; /* not his to hold then: never chosen */
        if (isnan(r->q[x])) r->q[x] = -1e9f;
    }
}

/* The model's score of card x in round r: beta q_r(x) + bnum number(x) / 10
 * (he reveals x with a chance proportional to exp of it). */
static double score(const ai_belief *b, const bel_round *r, int x) {
    double sc = b->bnum * r->v.s.cfg->cards->card[x].number / 10.0;
    return b->beta != 0 ? sc + b->beta * r->q[x] : sc;
}

void ai_belief_prepare(ai_belief *b, const kontor_view *v, const kontor_determinizer *det, kontor_rng *rng) {
    const kontor_state *s = &v->s;
    b->on = 0;
    b->nr = 0;
    if (b->tries <= 0 || !s->cfg || s->cfg->nseats != 2 || v->seat > 1) return;
    int me = v->seat, opp = 1 - me;
    b->opp = opp;
    b->nslot = 0;
    unsigned classes = 0;
    for (int i = 0; i < s->hand_n[opp] && i < KONTOR_HAND_MAX; i++)
        if (s->hand[opp][i] >= KONTOR_UNKNOWN_BASE && s->hand[opp][i] < KONTOR_UNKNOWN_BASE + KONTOR_NCLASSES) {
            b->slot[b->nslot++] = i;
            classes |= 1u << (s->hand[opp][i] - KONTOR_UNKNOWN_BASE);
        }
    if (b->nslot == 0) return;
    /* the cards his hidden places may hold now: unseen, of their classes */
    uint8_t cand[KONTOR_MAX_CARDS];
    int nc = 0;
    for (int x = 0; x < s->cfg->cards->ncards && x < KONTOR_MAX_CARDS; x++)
        if (!((s->pub[x >> 6] >> (x & 63)) & 1) && !in_hand(s, me, x) && ((classes >> klass(s, x)) & 1))
            cand[nc++] = (uint8_t)x;
    for (int k = 0; k < b->n; k++) {
        bel_round *r = &b->r[k];
        if (!r->done || r->card >= KONTOR_MAX_CARDS) continue;
        /* his hand then: what was seen of it, the hidden cards he revealed
         * from round k on (seen now), and the world's hidden ones */
        uint8_t held[2 * KONTOR_MAX_CARDS];
        int nh = 0;
        for (int i = 0; i < r->v.s.hand_n[opp] && i < KONTOR_HAND_MAX; i++)
            if (r->v.s.hand[opp][i] < KONTOR_MAX_CARDS) held[nh++] = r->v.s.hand[opp][i];
        for (int j = k; j < b->n; j++)
            if (b->r[j].done && b->r[j].card < KONTOR_MAX_CARDS && !in_hand(&b->r[j].v.s, opp, b->r[j].card) &&
                !in_hand(&r->v.s, opp, b->r[j].card)) {
                int dup = 0;
                for (int i = 0; i < nh; i++) dup |= held[i] == b->r[j].card;
                if (!dup) held[nh++] = b->r[j].card;
            }
        if (b->beta != 0) { /* the evaluation's part (beta=0: the numbers' alone, nothing to work out) */
            values(r, held, nh);
            values(r, cand, nc);
            if (r->q[r->card] < -1e8f) continue; /* the model cannot have him reveal it: no evidence */
        }
        float *e = b->e[b->nr];
        double sc = score(b, r, r->card);
        for (int x = 0; x < KONTOR_MAX_CARDS; x++) e[x] = 1.0f;
        for (int i = 0; i < nc; i++) e[cand[i]] = (float)exp(fmin(score(b, r, cand[i]) - sc, 50.0));
        double base = 0;
        for (int i = 0; i < nh; i++) base += exp(fmin(score(b, r, held[i]) - sc, 50.0));
        b->base[b->nr++] = base;
    }
    if (b->nr == 0) return;
    b->on = 1;
    b->top = -1e300;
    for (int k = 0; k < 16; k++) {
        kontor_state st;
        kontor_determinize_with(det, rng, &st);
        double lw = ai_belief_logw(b, &st);
        if (lw > b->top) b->top = lw;
    }
}

double ai_belief_logw(const ai_belief *b, const kontor_state *st) {
    double lw = 0;
    for (int k = 0; k < b->nr; k++) {
        double d = b->base[k];
        for (int i = 0; i < b->nslot; i++) {
            int x = st->hand[b->opp][b->slot[i]];
            if (x < KONTOR_MAX_CARDS) d += b->e[k][x];
        }
        lw -= log(d);
    }
    return lw;
}

void ai_belief_deal(const ai_belief *b, const kontor_determinizer *det, kontor_rng *rng, kontor_state *out) {
    for (int t = 0; t < b->tries; t++) {
        kontor_determinize_with(det, rng, out);
        double lw = ai_belief_logw(b, out);
        if (lw >= b->top) return;
        double u = (double)(kontor_rng_next(rng) >> 11) * 0x1.0p-53;
        if (u < exp(lw - b->top)) return;
    }
}
