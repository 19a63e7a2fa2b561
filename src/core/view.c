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
 * there are places; its random indices come several from one 64-bit number
 * (draw_batch: exactly uniform, no modulo bias), so the deal is uniform over
 * every assignment of the unseen cards of each class to its unknown places. */

/* The cards out of the game (kontor_card_removed) as bits. */
static void removed_bits(const kontor_config *cfg, uint64_t out[2]) {
    out[0] = cfg->removed[0];
    out[1] = cfg->removed[1];
    if (!cfg->remove_kinds) return;
    for (int id = 0; id < cfg->cards->ncards && id < KONTOR_MAX_CARDS; id++)
        if (kontor_card_removed(cfg, id)) out[id >> 6] |= 1ULL << (id & 63);
}

/* (i+1)(i+2)...(i+8) for i = 0, 8, 16, ...: the product of the bounds of
 * eight steps of the shuffle below from step i on (below 2^53 for
 * i + 8 <= KONTOR_MAX_CARDS). */
#define R8(i) ((uint64_t)(i + 1) * (i + 2) * (i + 3) * (i + 4) * (i + 5) * (i + 6) * (i + 7) * (i + 8))
static const uint64_t rising8[KONTOR_MAX_CARDS / 8] = {
    R8(0), R8(8), R8(16), R8(24), R8(32), R8(40), R8(48), R8(56), R8(64), R8(72), R8(80), R8(88),
};
#undef R8
_Static_assert(KONTOR_MAX_CARDS == 96, "rising8 lists the products up to 96");

#define BITS57 ((1ULL << 57) - 1)

/* A number z uniform in [0, 2^57) from which the eight indices of steps i to
 * i + 7 (x uniform in [0, k], k = i .. i + 7) are read off in mixed radix by
 * successive multiplications, z (k + 1) = x 2^57 + z' (Brackett-Rozinsky and
 * Lemire, "Batched ranged random integer generation", 2024): with P the
 * product of the eight bounds, the eight digits are those of
 * floor(z P / 2^57), which Lemire's multiply-shift makes uniform in [0, P),
 * so the eight indices independent and uniform, when the last low word,
 * z P mod 2^57, is at least 2^57 mod P; a z below it is drawn again. Only a
 * low word below P (probability P / 2^57, below 2^-15 for the first 40 cards
 * of a class) needs the division. 57 bits, so that a step's product (a
 * bound is at most 96 < 2^7) fits a 64-bit word. */
static inline uint64_t draw8(kontor_rng *r, int i) {
    uint64_t prod = rising8[i >> 3];
    for (;;) {
        uint64_t z = rng_next(r) >> 7;
        uint64_t low = (z * prod) & BITS57;
        if (low >= prod || low >= (BITS57 + 1) % prod) return z;
    }
}

/* The ids that are the bits of b (plus base) put into a uniformly random
 * order in u[0..i + popcount(b)), after the i cards already there:
 * Fisher-Yates inside out (card i goes to place i, after the card at a place
 * x uniform in [0, i] has moved there), the ids in ascending order, the
 * indices eight from a number (draw8). */
static inline int shuffle_word(kontor_rng *r, uint64_t b, unsigned base, uint8_t *u, int i, uint64_t *zp) {
    uint64_t z = *zp;
    for (; b; b &= b - 1, i++) {
        if (!(i & 7)) z = draw8(r, i);
        uint64_t m = z * (uint64_t)(i + 1);
        unsigned x = (unsigned)(m >> 57);
        z = m & BITS57;
        u[i] = u[x];
        u[x] = (uint8_t)(base + (unsigned)__builtin_ctzll(b));
    }
    *zp = z;
    return i;
}

/* The cards whose ids are the bits of b0 (ids 0-63) and b1 (64-127), at
 * most KONTOR_MAX_CARDS of them, in a uniformly random order into u: every
 * order exactly equally likely. Returns how many. */
static inline int shuffle_ids(kontor_rng *r, uint64_t b0, uint64_t b1, uint8_t *u) {
    uint64_t z = 0;
    int n = shuffle_word(r, b0, 0, u, 0, &z);
    return shuffle_word(r, b1, 64, u, n, &z);
}

/* m (at most 64) bytes from src to dst, eight at a time; the bytes of the
 * last word past m are kept. src has eight bytes of room past m. */
static inline void copy_run(uint8_t *dst, const uint8_t *src, unsigned m) {
    for (; m >= 8; m -= 8, dst += 8, src += 8) memcpy(dst, src, 8);
    if (m) {
        uint64_t a, b, keep = ~0ULL << (8 * m);
        memcpy(&a, dst, 8);
        memcpy(&b, src, 8);
        a = (a & keep) | (b & ~keep);
        memcpy(dst, &a, 8);
    }
}

/* Each class's unseen cards in a random order, and how many of them have
 * been dealt. */
typedef struct decks {
    uint8_t u[KONTOR_NCLASSES][KONTOR_MAX_CARDS + 8]; /* 8 bytes of room for copy_run */
    unsigned n[KONTOR_NCLASSES], dealt[KONTOR_NCLASSES];
} decks;

#define HIGH_BITS 0x8080808080808080ULL

/* Deal into the unknown places among len (at most 64) bytes at b: each run
 * of unknown cards of one class (bytes KONTOR_UNKNOWN_BASE + class; a known
 * card is a byte below 0x80) gets that class's next cards, while it has
 * any (a place past them keeps its mark, as in a view that shows more
 * places than there are cards). Eight bytes at a time: a word read may reach
 * past len, never past the state (every stretch read is followed by other
 * fields of it), and what lies past len is neither looked at nor written. */
static inline void deal_into(uint8_t *b, unsigned len, decks *d) {
    unsigned i = 0;
    while (i < len) {
        uint64_t x;
        memcpy(&x, b + i, 8);
        if (!(x & HIGH_BITS)) {
            i += 8;
            continue;
        }
        i += (unsigned)__builtin_ctzll(x & HIGH_BITS) >> 3;
        if (i >= len) return;
        unsigned c = b[i], j = i;
        uint64_t same = 0x0101010101010101ULL * c;
        for (; j < len; j += 8) {
            memcpy(&x, b + j, 8);
            if (x != same) {
                j += (unsigned)__builtin_ctzll(x ^ same) >> 3;
                break;
            }
        }
        if (j > len) j = len;
        unsigned cl = c - KONTOR_UNKNOWN_BASE;
        if (cl < KONTOR_NCLASSES) {
            unsigned take = j - i, left = d->n[cl] - d->dealt[cl];
            if (take > left) take = left;
            copy_run(b + i, d->u[cl] + d->dealt[cl], take);
            d->dealt[cl] += take;
        }
        i = j;
    }
}

/* A pile: its ring buffer in at most two stretches, from its top. */
static inline void deal_into_pile(kontor_pile *p, decks *d) {
    unsigned first = KONTOR_PILE_MAX - p->head;
    unsigned n = p->n <= KONTOR_PILE_MAX ? p->n : KONTOR_PILE_MAX;
    if (first > n) first = n;
    deal_into(p->card + p->head, first, d);
    deal_into(p->card, n - first, d);
}

void kontor_determinize(const kontor_view *v, kontor_rng *rng, kontor_state *out) {
    *out = v->s;
    const kontor_cardset *cs = out->cfg.cards;
    const int seat = v->seat, nseats = out->cfg.nseats <= KONTOR_MAX_SEATS ? out->cfg.nseats : KONTOR_MAX_SEATS;

    /* the cards the seat sees: the public ones, those it knows, its hand */
    uint64_t shown[2] = {out->pub[0], out->pub[1]};
    if (seat < KONTOR_MAX_SEATS) {
        shown[0] |= out->known[seat][0];
        shown[1] |= out->known[seat][1];
        for (int i = 0; i < out->hand_n[seat] && i < KONTOR_HAND_MAX; i++) {
            unsigned c = out->hand[seat][i];
            if (c < KONTOR_MAX_CARDS) shown[c >> 6] |= 1ULL << (c & 63);
        }
    }
    kontor_rng r = *rng; /* drawn from a local copy, which stays in registers */
    /* the event cards still face down: the ones not turned up, in a random order */
    if (out->event_n > out->event_next) {
        uint64_t rest = out->event_n >= 64 ? ~0ULL : (1ULL << out->event_n) - 1;
        for (int i = 0; i < out->event_next; i++) rest &= ~(1ULL << (out->event_deck[i] % KONTOR_EVENTS_MAX));
        uint8_t deck[64 + 8];
        int n = shuffle_ids(&r, rest, 0, deck);
        if (n > KONTOR_EVENTS_MAX - out->event_next) n = KONTOR_EVENTS_MAX - out->event_next;
        memcpy(out->event_deck + out->event_next, deck, (size_t)n);
    }
    /* the cards no place shows: ids below ncards, in the game, not seen; the
     * special cards only when they are in play (else they are nowhere) */
    uint64_t gone[2], avail[2];
    removed_bits(&out->cfg, gone);
    for (int w = 0; w < 2; w++) {
        uint64_t below = cs->ncards >= (w + 1) * 64 ? ~0ULL
                         : cs->ncards > w * 64  ? (1ULL << (cs->ncards - w * 64)) - 1
                                                : 0;
        avail[w] = below & ~shown[w] & ~gone[w];
    }
    decks d;
    for (int cl = 0; cl < KONTOR_NCLASSES; cl++) {
        uint64_t b0 = cs->class_ids[cl][0] & avail[0], b1 = cs->class_ids[cl][1] & avail[1];
        if (cl == KONTOR_CLASS_SPECIAL && !out->cfg.specials) b0 = b1 = 0;
        d.n[cl] = (unsigned)shuffle_ids(&r, b0, b1, d.u[cl]);
        d.dealt[cl] = 0;
    }
    *rng = r;

    /* the unknown places, in the order of the state's arrays */
    for (int q = 0; q < nseats; q++) {
        if (q != seat) {
            deal_into(out->hand[q], out->hand_n[q] < KONTOR_HAND_MAX ? out->hand_n[q] : KONTOR_HAND_MAX, &d);
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
