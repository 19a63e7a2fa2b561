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
 * and on runs of bytes: the cards the view shows (present) are collected as
 * bits, the board's from its occupied cells, and each class's unseen cards
 * are the class's bits (kontor_cardset.class_ids) minus present and minus the
 * cards out of the game, taken in ascending id order as a scan over the ids
 * would. The piles are read as at most two stretches of their ring buffer,
 * the unknown places kept as runs (found eight bytes at a time, filled by
 * memcpy), the random numbers drawn inline (rng.h, the stream of kontor_rng_below): the
 * same draws in the same order as the scan of every card through out-of-line
 * calls that this replaced, so a seeded search plays the same moves. */
static inline void bit_set(uint64_t b[2], int id) { b[id >> 6] |= 1ULL << (id & 63); }

/* The cards out of the game (kontor_card_removed) as bits. */
static void removed_bits(const kontor_config *cfg, uint64_t out[2]) {
    out[0] = cfg->removed[0];
    out[1] = cfg->removed[1];
    if (!cfg->remove_kinds) return;
    for (int id = 0; id < cfg->cards->ncards && id < KONTOR_MAX_CARDS; id++)
        if (kontor_card_removed(cfg, id)) bit_set(out, id);
}

/* The unknown places of each class, in the order a scan meets them, as runs
 * of bytes (a hidden pile is one run or two; a card a run of one). */
typedef struct slots {
    uint8_t *at[KONTOR_NCLASSES][KONTOR_MAX_CARDS];
    uint8_t len[KONTOR_NCLASSES][KONTOR_MAX_CARDS];
    int nrun[KONTOR_NCLASSES];
    int n[KONTOR_NCLASSES]; /* places in all, at most KONTOR_MAX_CARDS a class */
} slots;

/* One stretch of bytes (a hand, or a stretch of a pile): a card id is
 * present, a run of unknown cards of class X is a run of places to fill,
 * its end found eight bytes at a time. */
static inline void visit_run(uint8_t *b, int len, uint64_t present[2], slots *sl) {
    int i = 0;
    while (i < len) {
        unsigned c = b[i];
        if (c < KONTOR_MAX_CARDS) {
            present[c >> 6] |= 1ULL << (c & 63);
            i++;
            continue;
        }
        unsigned cl = c - KONTOR_UNKNOWN_BASE;
        if (cl >= KONTOR_NCLASSES) {
            i++;
            continue;
        }
        int j = i + 1;
        uint64_t same = 0x0101010101010101ULL * c;
        for (;;) {
            if (len - j >= 8) {
                uint64_t x;
                memcpy(&x, b + j, 8);
                if (x == same) {
                    j += 8;
                    continue;
                }
                j += __builtin_ctzll(x ^ same) >> 3;
                break;
            }
            while (j < len && b[j] == c) j++;
            break;
        }
        int take = j - i;
        if (take > KONTOR_MAX_CARDS - sl->n[cl]) take = KONTOR_MAX_CARDS - sl->n[cl];
        if (take > 0) {
            sl->at[cl][sl->nrun[cl]] = b + i;
            sl->len[cl][sl->nrun[cl]++] = (uint8_t)take;
            sl->n[cl] += take;
        }
        i = j;
    }
}

/* A pile's cards from its top: the ring buffer in at most two stretches. */
static inline void visit_pile(kontor_pile *p, uint64_t present[2], slots *sl) {
    int first = KONTOR_PILE_MAX - p->head;
    if (first > p->n) first = p->n;
    visit_run(p->card + p->head, first, present, sl);
    visit_run(p->card, p->n - first, present, sl);
}

void kontor_determinize(const kontor_view *v, kontor_rng *rng, kontor_state *out) {
    *out = v->s;
    const kontor_cardset *cs = out->cfg.cards;
    uint64_t present[2] = {0, 0};
    slots sl;
    memset(sl.n, 0, sizeof sl.n);
    memset(sl.nrun, 0, sizeof sl.nrun);

    /* the board: cell_card holds a card exactly on the occupied cells */
    for (int w = 0; w < 4; w++)
        for (uint64_t b = out->occ.w[w]; b; b &= b - 1) {
            int id = out->cell_card[w * 64 + __builtin_ctzll(b)];
            if (id < KONTOR_MAX_CARDS) bit_set(present, id);
        }
    for (int q = 0; q < KONTOR_MAX_SEATS; q++) {
        visit_run(out->hand[q], out->hand_n[q] < KONTOR_HAND_MAX ? out->hand_n[q] : KONTOR_HAND_MAX, present, &sl);
        visit_pile(&out->dock_pile[q], present, &sl);
        /* a card in play (revealed, being placed) is out of the hand */
        if (out->phase != KONTOR_PHASE_CHOOSE && out->choice[q] < KONTOR_MAX_CARDS) bit_set(present, out->choice[q]);
        if ((out->phase == KONTOR_PHASE_CHOOSE || out->phase == KONTOR_PHASE_DECLARE) && q != v->seat &&
            out->choice[q] == KONTOR_HIDDEN)
            out->choice[q] = KONTOR_NONE;
        if (out->phase == KONTOR_PHASE_BUY && q != v->seat && out->buy[q] == KONTOR_HIDDEN) out->buy[q] = KONTOR_NONE;
        if (out->phase == KONTOR_PHASE_BRIBE && q != v->seat && out->bribe[q] == KONTOR_HIDDEN) out->bribe[q] = KONTOR_NONE;
    }
    visit_pile(&out->water_pile, present, &sl);
    visit_pile(&out->aside, present, &sl);
    visit_pile(&out->special_pile, present, &sl);
    for (int i = 0; i < out->nunder; i++)
        if (out->under_card[i] < KONTOR_MAX_CARDS) bit_set(present, out->under_card[i]);
    if (out->phase == KONTOR_PHASE_PILE && out->removed_card < KONTOR_MAX_CARDS) bit_set(present, out->removed_card);

    kontor_rng r = *rng; /* drawn from a local copy, which stays in registers */
    /* the event cards still face down: the ones not turned up, in a random order */
    if (out->event_n > out->event_next) {
        uint8_t up[KONTOR_EVENTS_MAX] = {0}, rest[KONTOR_EVENTS_MAX];
        int n = 0;
        for (int i = 0; i < out->event_next; i++) up[out->event_deck[i] % KONTOR_EVENTS_MAX] = 1;
        for (int e = 0; e < out->event_n; e++)
            if (!up[e]) rest[n++] = (uint8_t)e;
        for (int i = n - 1; i > 0; i--) {
            int j = (int)rng_below(&r, (uint32_t)i + 1);
            uint8_t t = rest[i];
            rest[i] = rest[j];
            rest[j] = t;
        }
        for (int i = 0; i < n; i++) out->event_deck[out->event_next + i] = rest[i];
    }
    /* the cards no place shows: ids below ncards, not present, in the game */
    uint64_t avail[2];
    int avail_done = 0;
    for (int cl = 0; cl < KONTOR_NCLASSES; cl++) {
        if (!sl.n[cl]) continue;
        if (!avail_done) {
            uint64_t gone[2];
            removed_bits(&out->cfg, gone);
            for (int w = 0; w < 2; w++) {
                uint64_t below = cs->ncards >= (w + 1) * 64 ? ~0ULL
                                 : cs->ncards > w * 64  ? (1ULL << (cs->ncards - w * 64)) - 1
                                                        : 0;
                avail[w] = below & ~present[w] & ~gone[w];
            }
            avail_done = 1;
        }
        uint8_t unseen[KONTOR_MAX_CARDS];
        int n = 0;
        for (uint64_t b = cs->class_ids[cl][0] & avail[0]; b; b &= b - 1) unseen[n++] = (uint8_t)__builtin_ctzll(b);
        for (uint64_t b = cs->class_ids[cl][1] & avail[1]; b; b &= b - 1) unseen[n++] = (uint8_t)(64 + __builtin_ctzll(b));
        for (int i = n - 1; i > 0; i--) {
            int j = (int)rng_below(&r, (uint32_t)i + 1);
            uint8_t t = unseen[i];
            unseen[i] = unseen[j];
            unseen[j] = t;
        }
        /* the first min(places, cards) places get the shuffled cards in order */
        int k = sl.n[cl] < n ? sl.n[cl] : n, done = 0;
        for (int u = 0; u < sl.nrun[cl] && done < k; u++) {
            int m = sl.len[cl][u] < k - done ? sl.len[cl][u] : k - done;
            memcpy(sl.at[cl][u], unseen + done, (size_t)m);
            done += m;
        }
    }
    *rng = r;
}
