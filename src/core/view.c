/* view.c: what one seat may know, and full states consistent with it.
 *
 * A card's whereabouts are either common knowledge (it is on the board, on top
 * of a face-up pile, was revealed, was drawn from a visible top, or was put
 * under a pile by the ship) or known only to its holder. The state keeps the
 * first kind in the bit set pub; a view masks every other card that the seat
 * does not hold as "unknown card of class X". Because unknown cards only ever
 * come from the deal, they sit in a hand before the known ones and in the
 * middle of a pile, so the masked view does not depend on where exactly the
 * hidden cards are: two states that differ only in hidden information give
 * byte-identical views (tested). Determinization deals the unseen cards of
 * each class at random into the unknown places of that class.
 *
 * One scenario (Justizia) lets a player look through his own dock cards and
 * put four out of the game: he alone knows those. The state keeps that private
 * knowledge per seat (known[seat]); a view shows the seat the cards it knows
 * and drops the other seats' known sets, and while the player picks, his pile
 * is shown sorted, since he sees which cards it holds but not their order.
 */
#include <stddef.h>
#include <string.h>

#include "core/rng.h"
#include "kontor/kontor.h"

static inline int is_pub(const kontor_state *s, int id) {
    return id < KONTOR_MAX_CARDS && ((s->pub[id >> 6] >> (id & 63)) & 1);
}

static inline uint8_t mask_card(const kontor_state *s, int seat, int id) {
    if (id >= KONTOR_MAX_CARDS || is_pub(s, id)) return (uint8_t)id;
    if (kontor_known(s, seat, id)) return (uint8_t)id;
    return (uint8_t)(KONTOR_UNKNOWN_BASE + kontor_card_class(&s->cfg->cards->card[id]));
}

/* Every pile's cards masked, the pool's other bytes (cards drawn, room
 * left for cards to come) zeroed: they say nothing the seat may not know. */
static void mask_piles(const kontor_state *s, int seat, kontor_state *w) {
    memset(w->pile_card, 0, sizeof w->pile_card);
    for (int k = 0; k < KONTOR_NPILES; k++) {
        const kontor_pile *p = &s->pile[k];
        for (int i = 0; i < p->n && p->head + i < KONTOR_MAX_CARDS; i++)
            w->pile_card[p->head + i] = mask_card(s, seat, s->pile_card[p->head + i]);
    }
}

void kontor_view_of(const kontor_state *s, int seat, kontor_view *v) {
    memset(v, 0, sizeof *v);
    v->s = *s;
    v->seat = seat < 0 ? KONTOR_NONE : (uint8_t)seat; /* seat -1: a spectator, who sees no hand */
    kontor_state *w = &v->s;
    for (int q = 0; q < KONTOR_KNOWN_SEATS; q++)
        if (q != seat) w->known[q][0] = w->known[q][1] = 0;
    for (int q = 0; q < KONTOR_MAX_SEATS; q++) {
        for (int i = w->hand_n[q]; i < KONTOR_HAND_MAX; i++) w->hand[q][i] = 0;
        if (q != seat)
            for (int i = 0; i < w->hand_n[q]; i++) w->hand[q][i] = mask_card(s, seat, w->hand[q][i]);
        if (w->phase == KONTOR_PHASE_BRIBE && q != seat && w->bribe[q] != KONTOR_NONE) w->bribe[q] = KONTOR_HIDDEN;
        /* R1: the declarations are hidden until all are made; then a pass is
         * public while the cards are chosen (with declare=hidden a pass is a
         * choice like a card, hidden until the reveal) */
        if ((w->phase == KONTOR_PHASE_DECLARE ||
             (w->phase == KONTOR_PHASE_CHOOSE && (w->cfg->pass_hidden || w->choice[q] != KONTOR_PASS))) &&
            q != seat && w->choice[q] != KONTOR_NONE)
            w->choice[q] = KONTOR_HIDDEN;
        if (w->phase == KONTOR_PHASE_BUY && q != seat && w->buy[q] != KONTOR_NONE) w->buy[q] = KONTOR_HIDDEN;
    }
    /* Ereigniskarten: the event cards still face down are unknown to all */
    for (int i = w->event_next; i < KONTOR_EVENTS_MAX; i++) w->event_deck[i] = KONTOR_NONE;
    mask_piles(s, seat, w);
    if (w->phase == KONTOR_PHASE_SELECT && seat >= 0 && seat < KONTOR_MAX_SEATS) {
        /* Justizia: the player sees which cards his pile holds, not their order */
        kontor_pile *p = &w->dock_pile[seat];
        for (int i = 1; i < p->n; i++)
            for (int j = i; j > 0; j--) {
                uint8_t *a = &w->pile_card[kontor_pile_at(p, j - 1)];
                uint8_t *b = &w->pile_card[kontor_pile_at(p, j)];
                if (*a <= *b) break;
                uint8_t t = *a;
                *a = *b;
                *b = t;
            }
    }
}

/* Determinization runs once per search iteration, so it works on bit sets
 * and does per call only what the draws change. The cards the seat cannot
 * see are the cards in the game (below ncards, not out of it) that are
 * neither public (pub) nor known to the seat (known[seat], Justizia) nor in
 * its hand: a view masks exactly those (mask_card), so no scan of the board
 * or the piles is needed to find them, and each class's are its bits
 * (kontor_cardset.class_ids) within that set. Each class's unseen cards are
 * dealt to its unknown places in order by a Fisher-Yates shuffle; its random
 * indices come eight from one 64-bit number (draw_batch: exactly uniform, no
 * modulo bias), so the deal is uniform over every assignment of the unseen
 * cards of each class to its unknown places (test_properties counts the
 * deals of a view with seven hidden cards, and where every unseen card
 * lands).
 *
 * All of that but the shuffle depends on the view alone, so it is worked out
 * once into a kontor_deal_plan (kontor_determinizer_prepare, for a search
 * that determinizes one view thousands of times): the ids of each class's
 * unseen cards in ascending order (a deck, in the order of the draws: the
 * face-down event cards first), and the runs of unknown places (an unknown
 * card is a byte with its top bit set, found eight bytes at a time), each a
 * stretch of the state's bytes with the place in the decks its cards come
 * from. A deal (deal_plan) is then a copy of the view's state, the shuffle of
 * each deck, and a copy of each run. kontor_determinize prepares and deals
 * in one; both deal the same cards from the same draws. */

/* The cards out of the game (kontor_card_removed) as bits. */
static void removed_bits(const kontor_config *cfg, uint64_t out[2]) {
    out[0] = cfg->removed[0];
    out[1] = cfg->removed[1];
    if (!cfg->remove_kinds) return;
    for (int id = 0; id < cfg->cards->ncards && id < KONTOR_MAX_CARDS; id++)
        if (kontor_card_removed(cfg, id)) out[id >> 6] |= 1ULL << (id & 63);
}

/* The shuffle's steps take their random indices eight at a time from one
 * 64-bit number: batch j covers steps 8j to 8j + 7, and batch_prod[j] is
 * the product of their bounds (step i draws from i + 1 values), below 2^53
 * for the 96 steps of KONTOR_MAX_CARDS; batch_low[j] is 2^57 mod that
 * product (draw_batch). The event deck (at most 64 cards, its bits) takes
 * the first eight batches. */
#define NBATCH (KONTOR_MAX_CARDS / 8)
#define R8(i) ((uint64_t)(i + 1) * (i + 2) * (i + 3) * (i + 4) * (i + 5) * (i + 6) * (i + 7) * (i + 8))
#define BATCHES(F) F(0), F(8), F(16), F(24), F(32), F(40), F(48), F(56), F(64), F(72), F(80), F(88)
static const uint64_t batch_prod[NBATCH] = {BATCHES(R8)};
#define LOW8(i) ((1ULL << 57) % R8(i))
static const uint64_t batch_low[NBATCH] = {BATCHES(LOW8)};
#undef LOW8
#undef BATCHES
#undef R8
static const uint8_t batch_end[NBATCH] = {8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96};
_Static_assert(KONTOR_MAX_CARDS == 96, "the batches cover the steps up to 96");

#define BITS57 ((1ULL << 57) - 1)

/* The high word of Z k, and Z set to its low word (k below 2^32). On x86-64
 * one MUL with Z held in RAX: GCC's code for the 128-bit product moves Z out
 * of RAX and back (and spills it) at every step of the shuffle, 13
 * instructions a card instead of 10; the other paths compute the same
 * words. */
static inline uint64_t mul_hi(uint64_t *Z, uint64_t k) {
#if defined(__x86_64__) && defined(__GNUC__)
    uint64_t hi;
    __asm__("mulq %2" : "+a"(*Z), "=d"(hi) : "rm"(k) : "cc");
    return hi;
#elif defined(__SIZEOF_INT128__)
    unsigned __int128 m = (unsigned __int128)*Z * k;
    *Z = (uint64_t)m;
    return (uint64_t)(m >> 64);
#else
    uint64_t a = (*Z & 0xFFFFFFFFu) * k, b = (*Z >> 32) * k + (a >> 32);
    *Z *= k;
    return b >> 32;
#endif
}

/* A number z uniform in [0, 2^57) from which the indices of batch j's eight
 * steps (x uniform in [0, i] at step i) are read off in mixed radix by
 * successive multiplications, z (i + 1) = x 2^57 + z' (Brackett-Rozinsky and
 * Lemire, "Batched ranged random integer generation", 2024): with P the
 * product of the batch's bounds, its digits are those of floor(z P / 2^57),
 * which Lemire's multiply-shift makes uniform in [0, P) when the last low
 * word, z P mod 2^57, is at least 2^57 mod P (batch_low); a z below that is
 * drawn again (probability below P / 2^57, under 2^-15 for the first 40
 * cards of a class). So the batch's indices are independent and uniform,
 * and so is any first part of them (a deck's last batch stops where its
 * cards do). It is returned as Z = z 2^7 (the generator's number with its
 * low seven bits cleared), so that a step's digit and next number are the
 * high and low words of one 64 x 64-bit product, Z (i + 1) = (z (i + 1)) 2^7
 * < 2^71 (mul_hi): the same digits as the 57-bit arithmetic, which the draws
 * were first written in. */
static inline uint64_t draw_batch(kontor_rng *r, uint64_t prod, uint64_t low) {
    for (;;) {
        uint64_t w = rng_next(r);
        if ((((w >> 7) * prod) & BITS57) >= low) return w & ~(uint64_t)127;
    }
}

/* Step o of a batch of Fisher-Yates inside out: the card c[o] goes to place
 * q[o] of the deck d, after the card at a place x uniform in [0, k + o) has
 * moved there (k is the bound of the batch's step 0, one more than its
 * place in d). */
#define STEP(o)                                                 \
    do {                                                        \
        uint64_t x_ = mul_hi(&z, k[o]);                         \
        q[o] = d[x_];                                           \
        d[x_] = c[o];                                           \
    } while (0)

/* The steps' bounds as numbers in memory, bound_of[e + 1 + o] = e - 7 + o
 * (e a batch's end, o its step): MUL reads its factor from there, one
 * instruction a card instead of an add and the MUL (the same factors). A
 * step taken has e + 1 + o >= 9 (o >= 8 - t, e >= t): the first nine,
 * wrapped below zero, are never read. */
#define B8(i) (i) - 8, (i) - 7, (i) - 6, (i) - 5, (i) - 4, (i) - 3, (i) - 2, (i) - 1
static const uint64_t bound_of[KONTOR_MAX_CARDS + 16] = {
    B8(0), B8(8), B8(16), B8(24), B8(32), B8(40), B8(48), B8(56), B8(64), B8(72), B8(80), B8(88), B8(96), B8(104)};
#undef B8
_Static_assert(KONTOR_MAX_CARDS + 16 == 112, "bound_of lists 112 numbers");

/* The runs of a view's unknown places, worked out once. */
typedef struct planner {
    kontor_deal_plan *p;
    const uint8_t *s;               /* the state's first byte: a run's place is an offset */
    unsigned next[KONTOR_NCLASSES]; /* the next card of each class's deck (its place in id[]) */
    unsigned left[KONTOR_NCLASSES]; /* and how many are left */
} planner;

/* The bytes b to b + m get the cards of the decks from place from on; a run
 * that goes on where the last one ended (in the state and in the decks)
 * lengthens it. */
static inline void add_run(planner *pl, const uint8_t *b, unsigned m, unsigned from) {
    kontor_deal_plan *p = pl->p;
    unsigned off = (unsigned)(b - pl->s);
    if (p->nruns) {
        kontor_deal_run *r = &p->run[p->nruns - 1];
        if (r->off + r->len == off && r->from + r->len == from && r->len + m <= KONTOR_PILE_MAX) {
            r->len = (uint8_t)(r->len + m);
            return;
        }
    }
    if (p->nruns >= sizeof p->run / sizeof p->run[0]) return; /* not reached: a run deals at least one card */
    p->run[p->nruns++] = (kontor_deal_run){(uint16_t)off, (uint8_t)m, (uint8_t)from};
}

#define ONES 0x0101010101010101ULL
#define HIGH_BITS 0x8080808080808080ULL

/* The unknown places among the bytes from b to end (at most 64): each run
 * of unknown cards of one class (bytes KONTOR_UNKNOWN_BASE + class; a known
 * card is a byte below 0x80) gets that class's next cards, while it has any
 * (a place past them keeps its mark, as in a view that shows more places
 * than there are cards). Read eight bytes at a time; a word read may reach
 * past end, never past the state (every stretch read is followed by other
 * fields of it), and what lies past end is not looked at. */
static inline void find_runs(planner *pl, const uint8_t *b, const uint8_t *end) {
    while (b < end) {
        uint64_t x;
        memcpy(&x, b, 8);
        if (!(x & HIGH_BITS)) {
            b += 8;
            continue;
        }
        b += __builtin_ctzll(x & HIGH_BITS) >> 3;
        if (b >= end) return;
        unsigned c = *b;
        uint64_t same = ONES * c;
        const uint8_t *e = b;
        for (;;) {
            memcpy(&x, e, 8);
            if (x != same) {
                e += __builtin_ctzll(x ^ same) >> 3;
                break;
            }
            e += 8;
            if (e >= end) break;
        }
        if (e > end) e = end;
        unsigned cl = c - KONTOR_UNKNOWN_BASE;
        if (cl < KONTOR_NCLASSES) {
            unsigned m = (unsigned)(e - b);
            if (m > pl->left[cl]) m = pl->left[cl];
            if (m) {
                add_run(pl, b, m, pl->next[cl]);
                pl->left[cl] -= m;
                pl->next[cl] += m;
            }
        }
        b = e;
    }
}

/* A pile: one stretch of the pool, from its top. */
static inline void find_pile_runs(planner *pl, const kontor_state *s, const kontor_pile *p) {
    unsigned n = p->n <= KONTOR_PILE_MAX ? p->n : KONTOR_PILE_MAX;
    if (n && p->head + n <= KONTOR_MAX_CARDS) find_runs(pl, s->pile_card + p->head, s->pile_card + p->head + n);
}

/* A run's last word is copied whole (deal_plan), reaching up to seven bytes
 * past the run, and eight bytes from its end are read and put back: every
 * stretch of places is followed by at least eight bytes of the state. */
#define ROOM_AFTER(field) (offsetof(kontor_state, field) + sizeof(((kontor_state *)0)->field) + 8 <= sizeof(kontor_state))
_Static_assert(ROOM_AFTER(hand) && ROOM_AFTER(pile_card) && ROOM_AFTER(event_deck),
               "eight bytes of the state after every stretch of places");
#undef ROOM_AFTER

/* The lowest set bit of the 128 bits b0 (low) and b1 (high), both not 0. */
static inline unsigned lowest(uint64_t b0, uint64_t b1) {
    return b0 ? (unsigned)__builtin_ctzll(b0) : 64 + (unsigned)__builtin_ctzll(b1);
}

/* byte_ids[v]: the places of the set bits of the byte v, ascending, a byte
 * each from the lowest (the k-th set bit's place in byte k; the bytes past
 * the last are 0). */
#define BIT(v, k) ((uint64_t)(((v) >> (k)) & 1))
#define BELOW1(v) BIT(v, 0)
#define BELOW2(v) (BELOW1(v) + BIT(v, 1))
#define BELOW3(v) (BELOW2(v) + BIT(v, 2))
#define BELOW4(v) (BELOW3(v) + BIT(v, 3))
#define BELOW5(v) (BELOW4(v) + BIT(v, 4))
#define BELOW6(v) (BELOW5(v) + BIT(v, 5))
#define BELOW7(v) (BELOW6(v) + BIT(v, 6))
#define PLACE(v, k) ((BIT(v, k) * k) << (8 * BELOW##k(v)))
#define IDS(v) (PLACE(v, 1) + PLACE(v, 2) + PLACE(v, 3) + PLACE(v, 4) + PLACE(v, 5) + PLACE(v, 6) + PLACE(v, 7))
#define IDS4(v) IDS(v), IDS(v + 1), IDS(v + 2), IDS(v + 3)
#define IDS16(v) IDS4(v), IDS4(v + 4), IDS4(v + 8), IDS4(v + 12)
#define IDS64(v) IDS16(v), IDS16(v + 16), IDS16(v + 32), IDS16(v + 48)
static const uint64_t byte_ids[256] = {IDS64(0), IDS64(64), IDS64(128), IDS64(192)};
#undef IDS64
#undef IDS16
#undef IDS4
#undef IDS
#undef PLACE
#undef BELOW7
#undef BELOW6
#undef BELOW5
#undef BELOW4
#undef BELOW3
#undef BELOW2
#undef BELOW1
#undef BIT

/* The ids of the bits of b (plus base), ascending, into id, a byte of b at
 * a time (byte_ids, eight ids written, as many kept as the byte has bits:
 * id has room for eight past the last); how many. */
static inline unsigned ids_of(uint64_t b, unsigned base, uint8_t *id) {
    uint8_t *o = id;
    if (!b) return 0;
    unsigned i = (unsigned)__builtin_ctzll(b) & ~7u;
    for (b >>= i, base += i; b; b >>= 8, base += 8) {
        uint64_t w = byte_ids[b & 255] + ONES * base;
        memcpy(o, &w, 8);
        o += __builtin_popcountll(b & 255);
    }
    return (unsigned)(o - id);
}

_Static_assert(KONTOR_DEAL_IDS <= 256, "a batch's places in id[] (at, q) are bytes");

/* A new deck of n cards at at in id[] (the decks follow each other, from
 * byte 8 on): the batches of its shuffle (shuffle_plan). */
static unsigned add_deck(kontor_deal_plan *p, unsigned at, unsigned n) {
    for (unsigned i = 0, j = 0; i < n && p->nbatches < sizeof p->batch / sizeof p->batch[0]; j++) {
        unsigned e = batch_end[j] < n ? batch_end[j] : n, t = e - i;
        p->batch[p->nbatches++] = (kontor_deal_batch){batch_prod[j], batch_low[j], bound_of + e + 1, (uint8_t)at,
                                                      (uint8_t)(at + e - 8), (uint8_t)t};
        i = e;
    }
    return at + n;
}

/* The plan of v's deal, the other seats' hidden decisions undone in s (a
 * copy of v's state; the places are read from it). */
static void plan_of(const kontor_view *v, kontor_state *s, kontor_deal_plan *p) {
    const kontor_cardset *cs = s->cfg->cards;
    const int seat = v->seat, nseats = s->cfg->nseats <= KONTOR_MAX_SEATS ? s->cfg->nseats : KONTOR_MAX_SEATS;
    p->nbatches = p->nruns = 0;
    planner pl = {.p = p, .s = (const uint8_t *)s};
    unsigned at = 8; /* the next deck's first place in id[] */

    /* the cards the seat sees: the public ones, those it knows, its hand */
    uint64_t shown0 = s->pub[0], shown1 = s->pub[1];
    if (seat < KONTOR_MAX_SEATS) {
        if (seat < KONTOR_KNOWN_SEATS) {
            shown0 |= s->known[seat][0];
            shown1 |= s->known[seat][1];
        }
        for (int i = 0; i < s->hand_n[seat] && i < KONTOR_HAND_MAX; i++) {
            unsigned c = s->hand[seat][i];
            uint64_t bit = 1ULL << (c & 63);
            if (c < 64) shown0 |= bit;
            else if (c < KONTOR_MAX_CARDS) shown1 |= bit;
        }
    }
    /* the event cards still face down: the ones not turned up, in a random order */
    if (s->event_n > s->event_next) {
        uint64_t rest = s->event_n >= 64 ? ~0ULL : (1ULL << s->event_n) - 1;
        for (int i = 0; i < s->event_next; i++) rest &= ~(1ULL << (s->event_deck[i] % KONTOR_EVENTS_MAX));
        unsigned n = ids_of(rest, 0, p->id + at), m = (unsigned)(KONTOR_EVENTS_MAX - s->event_next);
        if (n) add_run(&pl, s->event_deck + s->event_next, n < m ? n : m, at);
        at = add_deck(p, at, n);
    }
    /* the cards no place shows: ids below ncards, in the game, not seen; the
     * special cards only when they are in play (else they are nowhere) */
    uint64_t gone[2];
    removed_bits(s->cfg, gone);
    unsigned nc = cs->ncards;
    uint64_t avail0 = (nc >= 64 ? ~0ULL : (1ULL << nc) - 1) & ~shown0 & ~gone[0];
    uint64_t avail1 = (nc >= 128 ? ~0ULL : nc > 64 ? (1ULL << (nc - 64)) - 1 : 0) & ~shown1 & ~gone[1];
    for (int cl = 0; cl < KONTOR_NCLASSES; cl++) {
        uint64_t b0 = cs->class_ids[cl][0] & avail0, b1 = cs->class_ids[cl][1] & avail1;
        pl.next[cl] = at;
        pl.left[cl] = 0;
        if (!(b0 | b1) || (cl == KONTOR_CLASS_SPECIAL && !s->cfg->specials)) continue;
        unsigned n = ids_of(b0, 0, p->id + at);
        n += ids_of(b1, 64, p->id + at + n);
        pl.left[cl] = n;
        at = add_deck(p, at, n);
    }

    /* the unknown places, in the order of the state's arrays */
    for (int q = 0; q < nseats; q++) {
        if (q != seat) {
            find_runs(&pl, s->hand[q], s->hand[q] + (s->hand_n[q] < KONTOR_HAND_MAX ? s->hand_n[q] : KONTOR_HAND_MAX));
            /* the other seats' hidden decisions are undone: they decide again */
            if ((s->phase == KONTOR_PHASE_CHOOSE || s->phase == KONTOR_PHASE_DECLARE) && s->choice[q] == KONTOR_HIDDEN)
                s->choice[q] = KONTOR_NONE;
            if (s->phase == KONTOR_PHASE_BUY && s->buy[q] == KONTOR_HIDDEN) s->buy[q] = KONTOR_NONE;
            if (s->phase == KONTOR_PHASE_BRIBE && s->bribe[q] == KONTOR_HIDDEN) s->bribe[q] = KONTOR_NONE;
        }
        find_pile_runs(&pl, s, &s->dock_pile[q]);
    }
    find_pile_runs(&pl, s, &s->water_pile);
    find_pile_runs(&pl, s, &s->aside);
    find_pile_runs(&pl, s, &s->special_pile);
}

/* Each deck's cards (ids, ascending) in a uniformly random order into u at
 * the same places as in id: every order exactly equally likely. A batch's t
 * steps (1 to 8, the last of them) are entered at the case that leaves as
 * many, so that every step has a constant offset and no test (u and id have
 * eight bytes of room before the first deck, so q and c stay inside their
 * buffers). */
static inline void shuffle_plan(const kontor_deal_plan *p, kontor_rng *rng, uint8_t *u) {
    kontor_rng r = *rng;
    for (unsigned b = 0; b < p->nbatches; b++) {
        const kontor_deal_batch *x = &p->batch[b];
        uint64_t z = draw_batch(&r, x->prod, x->low);
        const uint64_t *k = x->k; /* k[o]: step o's bound (step 0's, were it there, e - 7) */
        uint8_t *d = u + x->at, *q = u + x->q;
        const uint8_t *c = p->id + x->q;
        if (x->t == 8) goto full; /* most batches: no jump through the table */
        switch (x->t & 7) {     /* every value a case: no test of the table's range (t is 1 to 8) */
        case 0:
        full:
            STEP(0); /* fallthrough */
        case 7: STEP(1); /* fallthrough */
        case 6: STEP(2); /* fallthrough */
        case 5: STEP(3); /* fallthrough */
        case 4: STEP(4); /* fallthrough */
        case 3: STEP(5); /* fallthrough */
        case 2: STEP(6); /* fallthrough */
        case 1: STEP(7);
        }
    }
    *rng = r;
}
#undef STEP

/* Deal by the plan into out (a copy of the plan's state): each deck shuffled,
 * each run's cards copied eight at a time, the last word reaching up to
 * seven bytes past the run, whose eight bytes are put back afterwards (runs
 * are at most KONTOR_PILE_MAX long: a whole pile). */
static inline void deal_plan(const kontor_deal_plan *p, kontor_rng *rng, kontor_state *out) {
    uint8_t u[KONTOR_DEAL_IDS];
    shuffle_plan(p, rng, u);
    uint8_t *o = (uint8_t *)out;
    for (unsigned k = 0; k < p->nruns; k++) {
        const kontor_deal_run *run = &p->run[k];
        uint8_t *b = o + run->off;
        const uint8_t *src = u + run->from;
        unsigned m = run->len;
        uint64_t w, after;
        memcpy(&after, b + m, 8);
#define WORD(i) (memcpy(&w, src + 8 * (i), 8), memcpy(b + 8 * (i), &w, 8))
        if (m <= 8) goto one; /* most runs: no jump through the switch's table */
        _Static_assert(KONTOR_PILE_MAX <= 56, "a run is at most seven words");
        switch (((m + 7) >> 3) & 7) { /* every value a case: no test of the table's range */
        case 7: WORD(6); /* fallthrough */
        case 6: WORD(5); /* fallthrough */
        case 5: WORD(4); /* fallthrough */
        case 4: WORD(3); /* fallthrough */
        case 3: WORD(2); /* fallthrough */
        case 2: WORD(1); /* fallthrough */
        case 1:
        case 0:
        one:
            WORD(0);
        }
#undef WORD
        memcpy(b + m, &after, 8);
    }
}

void kontor_determinizer_prepare(const kontor_view *v, kontor_determinizer *d) {
    d->s = v->s;
    plan_of(v, &d->s, &d->p);
}

void kontor_determinize_with(const kontor_determinizer *d, kontor_rng *rng, kontor_state *out) {
    *out = d->s;
    deal_plan(&d->p, rng, out);
}

void kontor_determinize(const kontor_view *v, kontor_rng *rng, kontor_state *out) {
    kontor_deal_plan p;
    *out = v->s;
    plan_of(v, out, &p);
    deal_plan(&p, rng, out);
}
