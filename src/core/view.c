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
#include <string.h>

#include "core/rng.h"
#include "kontor/kontor.h"

static inline int is_pub(const kontor_state *s, int id) {
    return id < KONTOR_MAX_CARDS && ((s->pub[id >> 6] >> (id & 63)) & 1);
}

static inline uint8_t mask_card(const kontor_state *s, int seat, int id) {
    if (id >= KONTOR_MAX_CARDS || is_pub(s, id)) return (uint8_t)id;
    if (seat >= 0 && seat < KONTOR_MAX_SEATS && ((s->known[seat][id >> 6] >> (id & 63)) & 1)) return (uint8_t)id;
    return (uint8_t)(KONTOR_UNKNOWN_BASE + kontor_card_class(&s->cfg.cards->card[id]));
}

static void mask_pile(const kontor_state *s, int seat, kontor_pile *p) {
    uint8_t live[KONTOR_PILE_MAX];
    for (int i = 0; i < p->n; i++) live[i] = mask_card(s, seat, p->card[(p->head + i) & (KONTOR_PILE_MAX - 1)]);
    memset(p->card, 0, sizeof p->card);
    for (int i = 0; i < p->n; i++) p->card[(p->head + i) & (KONTOR_PILE_MAX - 1)] = live[i];
}

void kontor_view_of(const kontor_state *s, int seat, kontor_view *v) {
    memset(v, 0, sizeof *v);
    v->s = *s;
    v->seat = seat < 0 ? KONTOR_NONE : (uint8_t)seat; /* seat -1: a spectator, who sees no hand */
    kontor_state *w = &v->s;
    for (int q = 0; q < KONTOR_MAX_SEATS; q++) {
        for (int i = w->hand_n[q]; i < KONTOR_HAND_MAX; i++) w->hand[q][i] = 0;
        if (q != seat)
            for (int i = 0; i < w->hand_n[q]; i++) w->hand[q][i] = mask_card(s, seat, w->hand[q][i]);
        mask_pile(s, seat, &w->dock_pile[q]);
        if (q != seat) w->known[q][0] = w->known[q][1] = 0;
        if (w->phase == KONTOR_PHASE_BRIBE && q != seat && w->bribe[q] != KONTOR_NONE) w->bribe[q] = KONTOR_HIDDEN;
        /* R1: the declarations are hidden until all are made; then a pass is
         * public while the cards are chosen (with declare=hidden a pass is a
         * choice like a card, hidden until the reveal) */
        if ((w->phase == KONTOR_PHASE_DECLARE ||
             (w->phase == KONTOR_PHASE_CHOOSE && (w->cfg.pass_hidden || w->choice[q] != KONTOR_PASS))) &&
            q != seat && w->choice[q] != KONTOR_NONE)
            w->choice[q] = KONTOR_HIDDEN;
        if (w->phase == KONTOR_PHASE_BUY && q != seat && w->buy[q] != KONTOR_NONE) w->buy[q] = KONTOR_HIDDEN;
    }
    /* Ereigniskarten: the event cards still face down are unknown to all */
    for (int i = w->event_next; i < KONTOR_EVENTS_MAX; i++) w->event_deck[i] = KONTOR_NONE;
    mask_pile(s, seat, &w->water_pile);
    mask_pile(s, seat, &w->aside);
    mask_pile(s, seat, &w->special_pile);
    if (w->phase == KONTOR_PHASE_SELECT && seat >= 0 && seat < KONTOR_MAX_SEATS) {
        /* Justizia: the player sees which cards his pile holds, not their order */
        kontor_pile *p = &w->dock_pile[seat];
        for (int i = 1; i < p->n; i++)
            for (int j = i; j > 0; j--) {
                uint8_t *a = &p->card[(p->head + j - 1) & (KONTOR_PILE_MAX - 1)];
                uint8_t *b = &p->card[(p->head + j) & (KONTOR_PILE_MAX - 1)];
                if (*a <= *b) break;
                uint8_t t = *a;
                *a = *b;
                *b = t;
            }
    }
}

/* Determinization runs once per search iteration, so it works on bit sets
 * and reads each place once. The cards the seat cannot see are the cards in
 * the game (below ncards, not out of it) that are neither public (pub) nor
 * known to the seat (known[seat], Justizia) nor in its hand: a view masks
 * exactly those (mask_card), so no scan of the board or the piles is needed
 * to find them, and each class's are its bits (kontor_cardset.class_ids)
 * within that set. The unknown places are found eight bytes at a time (an
 * unknown card is a byte with its top bit set). Each class's unseen cards are
 * dealt to its places in order by a Fisher-Yates shuffle taken as far as
 * there are places; its random indices come eight from one 64-bit number
 * (draw_batch: exactly uniform, no modulo bias), so the deal is uniform over
 * every assignment of the unseen cards of each class to its unknown places
 * (test_properties counts the deals of a view with seven hidden cards, and
 * where every unseen card lands). */

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
 * for the 96 steps of KONTOR_MAX_CARDS. */
#define NBATCH (KONTOR_MAX_CARDS / 8)
#define R8(i) ((uint64_t)(i + 1) * (i + 2) * (i + 3) * (i + 4) * (i + 5) * (i + 6) * (i + 7) * (i + 8))
static const uint64_t batch_prod[NBATCH] = {
    R8(0), R8(8), R8(16), R8(24), R8(32), R8(40), R8(48), R8(56), R8(64), R8(72), R8(80), R8(88),
};
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

/* A number z uniform in [0, 2^57) from which the indices of a batch's eight
 * steps (x uniform in [0, i] at step i) are read off in mixed radix by
 * successive multiplications, z (i + 1) = x 2^57 + z' (Brackett-Rozinsky and
 * Lemire, "Batched ranged random integer generation", 2024): with P the
 * product of the batch's bounds, its digits are those of floor(z P / 2^57),
 * which Lemire's multiply-shift makes uniform in [0, P) when the last low
 * word, z P mod 2^57, is at least 2^57 mod P; a z below that is drawn
 * again. So the batch's indices are independent and uniform, and so is any
 * first part of them (a class's last batch stops where its cards do). Only
 * a low word below P (probability P / 2^57, below 2^-15 for the first 40
 * cards of a class) needs the division. It is returned as Z = z 2^7 (the
 * generator's number with its low seven bits cleared), so that a step's
 * digit and next number are the high and low words of one 64 x 64-bit
 * product, Z (i + 1) = (z (i + 1)) 2^7 < 2^71 (mul_hi): the same digits as
 * the 57-bit arithmetic, which the draws were first written in. */
static inline uint64_t draw_batch(kontor_rng *r, uint64_t prod) {
    for (;;) {
        uint64_t w = rng_next(r), low = ((w >> 7) * prod) & BITS57;
        if (low >= prod || low >= (BITS57 + 1) % prod) return w & ~(uint64_t)127;
    }
}

/* Step o of a stretch of Fisher-Yates inside out: the card whose id is off
 * plus the lowest bit of b goes to place q[o], after the card at a place x
 * uniform in [0, k + o) has moved there (k is the bound of the stretch's
 * step 0, one more than its place in u). */
#define STEP(o, off)                                            \
    do {                                                        \
        uint64_t x_ = mul_hi(&z, k + (o));                      \
        uint8_t id_ = (uint8_t)((off) + __builtin_ctzll(b));    \
        b &= b - 1;                                             \
        q[o] = u[x_];                                           \
        u[x_] = id_;                                            \
    } while (0)

/* t (1 to 8) steps from step i on: eight in a row, or fewer entered at the
 * case that leaves as many, so that every step has a constant offset and no
 * test (u has eight bytes of room before it, so q stays inside the deck). */
#define STEPS(off)                                                           \
    do {                                                                     \
        uint8_t *q = u + i;                                                  \
        uint64_t k = i + 1;                                                  \
        if (t == 8) {                                                        \
            STEP(0, off); STEP(1, off); STEP(2, off); STEP(3, off);          \
            STEP(4, off); STEP(5, off); STEP(6, off); STEP(7, off);          \
            break;                                                           \
        }                                                                    \
        q -= 8 - t;                                                          \
        k -= 8 - t;                                                          \
        switch (t) {                                                         \
        case 7: STEP(1, off); /* fallthrough */                              \
        case 6: STEP(2, off); /* fallthrough */                              \
        case 5: STEP(3, off); /* fallthrough */                              \
        case 4: STEP(4, off); /* fallthrough */                              \
        case 3: STEP(5, off); /* fallthrough */                              \
        case 2: STEP(6, off); /* fallthrough */                              \
        default: STEP(7, off);                                               \
        }                                                                    \
    } while (0)

/* The cards whose ids are the bits of b (plus the class's base), in a
 * uniformly random order into u: every order exactly equally likely. The
 * ids go in ascending order. Returns how many. */
static inline unsigned shuffle_word(kontor_rng *r, uint64_t b, uint8_t *u) {
    unsigned n = (unsigned)__builtin_popcountll(b);
    for (unsigned i = 0, j = 0; i < n; j++) {
        uint64_t z = draw_batch(r, batch_prod[j]);
        unsigned e = batch_end[j] < n ? batch_end[j] : n, t = e - i;
        STEPS(0);
        i = e;
    }
    return n;
}

/* The same over the ids of two words (b0: 0-63, b1: 64-127), for a class
 * whose ids span more than 64 (the default card set's red and black dock
 * cards do: 1-43 and 86, 87): the stretches of steps end where a batch or a
 * word does. */
static unsigned shuffle_two_words(kontor_rng *r, uint64_t b0, uint64_t b1, uint8_t *u) {
    unsigned n0 = (unsigned)__builtin_popcountll(b0), n = n0 + (unsigned)__builtin_popcountll(b1);
    uint64_t b = b0, z = 0, off = 0;
    for (unsigned i = 0, j = 0, bend = 0, wend = n0; i < n;) {
        if (i == bend) {
            z = draw_batch(r, batch_prod[j]);
            bend = batch_end[j++];
        }
        if (i == wend) {
            b = b1;
            off = 64;
            wend = n;
        }
        unsigned e = bend < wend ? bend : wend, t = e - i;
        STEPS(off);
        i = e;
    }
    return n;
}
#undef STEPS
#undef STEP

/* Each class's unseen cards in a random order (as ids less the class's
 * base), the next to deal and how many are left. */
typedef struct decks {
    /* 8 bytes of room before a deck (STEPS) and after it (the last word's copy) */
    uint8_t u[KONTOR_NCLASSES][8 + KONTOR_MAX_CARDS + 8];
    const uint8_t *next[KONTOR_NCLASSES];
    unsigned left[KONTOR_NCLASSES];
    uint64_t base[KONTOR_NCLASSES]; /* the base in each byte of a word */
} decks;

#define ONES 0x0101010101010101ULL
#define HIGH_BITS 0x8080808080808080ULL

/* Deal into the unknown places among the bytes from b to end (at most 64):
 * each run of unknown cards of one class (bytes KONTOR_UNKNOWN_BASE + class;
 * a known card is a byte below 0x80) gets that class's next cards, while it
 * has any (a place past them keeps its mark, as in a view that shows more
 * places than there are cards), copied eight at a time with the class's
 * base added to each byte (no byte overflows: an id is below
 * KONTOR_MAX_CARDS). A word read may reach past end, never past the state
 * (every stretch read is followed by other fields of it); what lies past
 * end is not looked at, and the up to seven bytes past a run that its last
 * word's copy overwrites are put back as they were. */
static inline void deal_into(uint8_t *b, const uint8_t *end, decks *d) {
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
        uint8_t *e = b;
        for (;;) {
            memcpy(&x, e, 8);
            if (x != same) {
                e += __builtin_ctzll(x ^ same) >> 3;
                break;
            }
            e += 8;
            if (e >= end) break;
        }
        if (e > end) e = (uint8_t *)end;
        unsigned cl = c - KONTOR_UNKNOWN_BASE;
        if (cl < KONTOR_NCLASSES) {
            unsigned m = (unsigned)(e - b);
            if (m > d->left[cl]) m = d->left[cl];
            d->left[cl] -= m;
            const uint8_t *src = d->next[cl];
            d->next[cl] = src + m;
            uint64_t add = d->base[cl], w, after;
            if (m) {
                /* whole words, the last reaching up to seven bytes past the
                 * run, whose eight bytes are put back afterwards */
                memcpy(&after, b + m, 8);
#define WORD(o) (memcpy(&w, src + 8 * (o), 8), w += add, memcpy(b + 8 * (o), &w, 8))
                switch ((m + 7) >> 3) {
                case 8: WORD(7); /* fallthrough */
                case 7: WORD(6); /* fallthrough */
                case 6: WORD(5); /* fallthrough */
                case 5: WORD(4); /* fallthrough */
                case 4: WORD(3); /* fallthrough */
                case 3: WORD(2); /* fallthrough */
                case 2: WORD(1); /* fallthrough */
                default: WORD(0);
                }
#undef WORD
                memcpy(b + m, &after, 8);
            }
        }
        b = e;
    }
}

/* A hand (at most KONTOR_HAND_MAX cards): the same, a card at a time (its
 * unknown cards are few and of different classes, so runs would be short). */
static inline void deal_into_hand(uint8_t *h, unsigned n, decks *d) {
    for (unsigned i = 0; i < n; i++) {
        unsigned cl = h[i] - KONTOR_UNKNOWN_BASE;
        if (cl < KONTOR_NCLASSES && d->left[cl]) {
            d->left[cl]--;
            h[i] = (uint8_t)(*d->next[cl]++ + (uint8_t)d->base[cl]);
        }
    }
}

/* A pile: its ring buffer in at most two stretches, from its top. */
static inline void deal_into_pile(kontor_pile *p, decks *d) {
    unsigned n = p->n <= KONTOR_PILE_MAX ? p->n : KONTOR_PILE_MAX, first = KONTOR_PILE_MAX - p->head;
    if (!n) return;
    if (first >= n) {
        deal_into(p->card + p->head, p->card + p->head + n, d);
        return;
    }
    deal_into(p->card + p->head, p->card + KONTOR_PILE_MAX, d);
    deal_into(p->card, p->card + (n - first), d);
}

/* The lowest set bit of the 128 bits b0 (low) and b1 (high), both not 0. */
static inline unsigned lowest(uint64_t b0, uint64_t b1) {
    return b0 ? (unsigned)__builtin_ctzll(b0) : 64 + (unsigned)__builtin_ctzll(b1);
}

void kontor_determinize(const kontor_view *v, kontor_rng *rng, kontor_state *out) {
    *out = v->s;
    const kontor_cardset *cs = out->cfg.cards;
    const int seat = v->seat, nseats = out->cfg.nseats <= KONTOR_MAX_SEATS ? out->cfg.nseats : KONTOR_MAX_SEATS;

    /* the cards the seat sees: the public ones, those it knows, its hand */
    uint64_t shown0 = out->pub[0], shown1 = out->pub[1];
    if (seat < KONTOR_MAX_SEATS) {
        shown0 |= out->known[seat][0];
        shown1 |= out->known[seat][1];
        for (int i = 0; i < out->hand_n[seat] && i < KONTOR_HAND_MAX; i++) {
            unsigned c = out->hand[seat][i];
            uint64_t bit = 1ULL << (c & 63);
            if (c < 64) shown0 |= bit;
            else if (c < KONTOR_MAX_CARDS) shown1 |= bit;
        }
    }
    /* the event cards still face down: the ones not turned up, in a random order */
    if (out->event_n > out->event_next) {
        uint64_t rest = out->event_n >= 64 ? ~0ULL : (1ULL << out->event_n) - 1;
        for (int i = 0; i < out->event_next; i++) rest &= ~(1ULL << (out->event_deck[i] % KONTOR_EVENTS_MAX));
        uint8_t deck[8 + 64];
        unsigned n = shuffle_word(rng, rest, deck + 8);
        if (n > (unsigned)(KONTOR_EVENTS_MAX - out->event_next)) n = (unsigned)(KONTOR_EVENTS_MAX - out->event_next);
        memcpy(out->event_deck + out->event_next, deck + 8, n);
    }
    /* the cards no place shows: ids below ncards, in the game, not seen; the
     * special cards only when they are in play (else they are nowhere) */
    uint64_t gone[2];
    removed_bits(&out->cfg, gone);
    unsigned nc = cs->ncards;
    uint64_t avail0 = (nc >= 64 ? ~0ULL : (1ULL << nc) - 1) & ~shown0 & ~gone[0];
    uint64_t avail1 = (nc >= 128 ? ~0ULL : nc > 64 ? (1ULL << (nc - 64)) - 1 : 0) & ~shown1 & ~gone[1];
    decks d;
    for (int cl = 0; cl < KONTOR_NCLASSES; cl++) {
        uint64_t b0 = cs->class_ids[cl][0] & avail0, b1 = cs->class_ids[cl][1] & avail1;
        d.next[cl] = d.u[cl] + 8;
        d.left[cl] = 0;
        d.base[cl] = 0;
        if (!(b0 | b1) || (cl == KONTOR_CLASS_SPECIAL && !out->cfg.specials)) continue;
        /* the ids as one word from the lowest on, when they fit in one */
        unsigned lo = lowest(b0, b1), hi = b1 ? 127 - (unsigned)__builtin_clzll(b1) : 63 - (unsigned)__builtin_clzll(b0);
        if (hi - lo < 64) {
            uint64_t b = lo == 0 ? b0 : lo < 64 ? (b0 >> lo) | (b1 << (64 - lo)) : b1 >> (lo - 64);
            d.left[cl] = shuffle_word(rng, b, d.u[cl] + 8);
            d.base[cl] = ONES * lo;
        } else d.left[cl] = shuffle_two_words(rng, b0, b1, d.u[cl] + 8);
    }

    /* the unknown places, in the order of the state's arrays */
    for (int q = 0; q < nseats; q++) {
        if (q != seat) {
            deal_into_hand(out->hand[q], out->hand_n[q] < KONTOR_HAND_MAX ? out->hand_n[q] : KONTOR_HAND_MAX, &d);
            /* the other seats' hidden decisions are undone: they decide again */
            if ((out->phase == KONTOR_PHASE_CHOOSE || out->phase == KONTOR_PHASE_DECLARE) && out->choice[q] == KONTOR_HIDDEN)
                out->choice[q] = KONTOR_NONE;
            if (out->phase == KONTOR_PHASE_BUY && out->buy[q] == KONTOR_HIDDEN) out->buy[q] = KONTOR_NONE;
            if (out->phase == KONTOR_PHASE_BRIBE && out->bribe[q] == KONTOR_HIDDEN) out->bribe[q] = KONTOR_NONE;
        }
        deal_into_pile(&out->dock_pile[q], &d);
    }
    deal_into_pile(&out->water_pile, &d);
    deal_into_pile(&out->aside, &d);
    deal_into_pile(&out->special_pile, &d);
}
