/* area.c: the board: placing and removing cards, the cells a card may take,
 * the open areas and the test that closes them in.
 *
 * Areas are not stored while open: they are the connected components of the
 * dock bitboard, found by flood fill when needed (see rules.h). This file
 * holds everything that touches the board's bitboards, so that the hot path
 * of a placement (compute_cells, check_enclosures) is one translation unit
 * and the compiler inlines across it; laying a card (place_as) is inline in
 * rules.h, so that do_place in round.c inlines it too. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/rules.h"

/* R5: the cells where a card may still ever lie: every cell of some W x H
 * board that contains everything placed so far. The extent is the bounding
 * box of every cell that ever held a card, so it never shrinks (R6). */
int update_mask(kontor_state *s) {
    bb_t m = s->cfg->board_mask; /* scenarios with a fixed board: the mask never changes */
    if (!s->cfg->fixed_board) {
        int w = s->cfg->width, h = s->cfg->height;
        m = bb_rect(s->maxx - (w - 1), s->minx + (w - 1), s->maxy - (h - 1), s->miny + (h - 1));
    }
    int changed = !bb_eq(m, s->mask);
    s->mask = m;
    return changed;
}

/* R7: do the cells that can never hold a card close areas yet? As soon as
 * their own direction's extent is fixed (default), or only once both are
 * (edge=both). */
static inline int edges_close(const kontor_state *s) {
    if (!s->cfg->edge_both || s->cfg->fixed_board) return 1;
    return s->maxx - s->minx + 1 >= s->cfg->width && s->maxy - s->miny + 1 >= s->cfg->height;
}

/* Die grosse Insel: the free cells of the island that can never hold a card
 * (ruling V15). No water may go on the island ("Dort darf kein Wasser gelegt
 * werden"); a free cell next to a red and a black crane keeps every dock card
 * off; and a free cell next to an enclosed area takes none either
 * ("Abgeschlossene Gebiete sind tabu": a card there would join it), which
 * keeps such a cell closed when the ship later removes one of its cranes.
 * Like the cells beyond the board's edge, they close the areas next to them. */
static inline bb_t dead_cells(const kontor_state *s) {
    bb_t both = bb_and(bb_neighbours(s->crane[0]), bb_neighbours(s->crane[1]));
    return bb_andnot(bb_and(s->cfg->inner, bb_or(both, bb_neighbours(s->enclosed))), s->occ);
}

void kontor_dead_cells(const kontor_state *s, kontor_bb *out) {
    *out = s->cfg->inner_value ? dead_cells(s) : bb_empty();
}

/* Cells that close an area from outside: water, the unplayable cells
 * (edges_close), and on the island the cells no card can fill. */
static inline bb_t closing_cells(const kontor_state *s) {
    bb_t c = edges_close(s) ? bb_or(s->water, bb_andnot(bb_all(), s->mask)) : s->water;
    return s->cfg->inner_value ? bb_or(c, dead_cells(s)) : c;
}

/* The cells that keep an area open: neither water, nor dock, nor closing
 * (every occupied cell is water or dock, so: the free cells that count). */
static inline bb_t gap_cells(const kontor_state *s) {
    return edges_close(s) ? bb_andnot(s->mask, s->occ) : bb_andnot(bb_all(), s->occ);
}

void kontor_gap_cells(const kontor_state *s, kontor_bb *out) { *out = gap_cells(s); }

/* Warehouses per team and good in a set of dock cells. */
void area_goods(const kontor_state *s, bb_t cells, uint8_t goods[2][3]) {
    memset(goods, 0, 6);
    const int exported = s->cfg->export_store;
    if (s->cfg->tiles) /* Aktionstafeln: a tile's extra warehouse in this area */
        for (int g = 0; g < 3; g++)
            if (s->tile_bonus[g] != KONTOR_NONE && bb_test(&cells, s->tile_bonus[g])) {
                int t = card_of(s, s->cell_card[s->tile_bonus[g]])->colour;
                if (t < 2) goods[t][g]++;
            }
    while (bb_any(cells)) {
        int c = bb_pop(&cells);
        const kontor_card *k = card_of(s, s->cell_card[c]);
        if (k->kind != KONTOR_KIND_GOODS || k->colour > 1) continue;
        goods[k->colour][0] = (uint8_t)(goods[k->colour][0] + k->goods[0]);
        goods[k->colour][1] = (uint8_t)(goods[k->colour][1] + k->goods[1]);
        goods[k->colour][2] = (uint8_t)(goods[k->colour][2] + k->goods[2]);
        int mark = exported ? (int)export_mark(s, s->cell_card[c]) : 0;
        if (mark) /* Exportlager: warehouses this card sent to the export store */
            for (int g = 0; g < 3; g++) goods[k->colour][g] = (uint8_t)(goods[k->colour][g] - ((mark >> (2 * g)) & 3));
    }
}

/* The rulebook's comparison: largest single superiority, then more
 * superiorities, then the value of the goods (wine > spice > tea > wine).
 * It reads only the differences red - black of tea, wine and spice, each
 * side's largest superiority and their count by comparisons without a loop
 * (scoring an area: basic ~50 instructions a call; session twelve);
 * rule_compare_goods_is_the_rulebooks_loop (tests/test_rules_scoring.c)
 * checks it against the loop over the goods it was. */
/* compare_diffs' answer for differences within -4..3 each (most areas:
 * an area of a random game holds a few warehouses), by the three
 * differences' bits (d + 4: three bits each), worked out from the lines
 * below when this table was written (the comparison ~25 instructions, the
 * table ~10: a random game, basic 20,129 -> 20,095, advanced 31,691 -> 31,651;
 * session thirteen). rule_compare_goods_is_the_rulebooks_loop reads every
 * entry: each count 0..7 of each good and side gives every difference
 * -7..7 (one entry broken by hand: that test fails). */
static const int8_t COMPARE_SMALL[512] = {
    1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,
    1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,1,1,1,1,1,1,1,0,1,1,1,1,1,1,1,0,1,1,1,1,1,0,0,0,
    1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,1,1,1,1,1,1,1,0,1,1,1,1,1,1,0,0,1,1,1,1,1,1,0,0,1,1,1,1,1,0,0,0,1,1,0,0,0,0,0,0,
    1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,1,1,1,1,1,1,0,0,1,1,1,1,1,0,0,0,1,1,1,1,1,0,0,0,1,1,1,0,0,0,0,0,1,1,0,0,0,0,0,0,
    1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,1,1,1,1,1,1,0,0,1,1,1,1,-1,0,0,0,1,1,1,0,0,0,0,0,1,1,0,0,0,0,0,0,1,0,0,0,0,0,0,0,
    1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,1,1,1,1,1,1,0,0,1,1,1,1,0,0,0,0,1,1,1,1,0,0,0,0,1,1,1,0,0,0,0,0,1,1,0,0,0,0,0,0,1,0,0,0,0,0,0,0,
    1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,1,1,1,1,0,0,0,0,1,1,1,0,0,0,0,0,1,1,1,0,0,0,0,0,1,1,0,0,0,0,0,0,1,1,0,0,0,0,0,0,1,0,0,0,0,0,0,0,
    1,1,1,1,1,1,1,1,1,1,1,1,0,0,0,0,1,1,0,0,0,0,0,0,1,1,0,0,0,0,0,0,1,1,0,0,0,0,0,0,1,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,
};
__attribute__((always_inline)) static inline int compare_diffs(int d0, int d1, int d2) {
    unsigned a = (unsigned)(d0 + 4), b = (unsigned)(d1 + 4), c = (unsigned)(d2 + 4);
    if ((a | b | c) < 8) return COMPARE_SMALL[a << 6 | b << 3 | c];
    /* each side's largest superiority: the largest difference (above 0),
     * minus the smallest (below 0); it was each difference's part above and
     * below 0 and the largest of each three (a random game: basic -20
     * instructions, advanced -24; session thirteen) */
    int hi = d0 > d1 ? d0 : d1, lo = d0 < d1 ? d0 : d1;
    hi = hi > d2 ? hi : d2;
    lo = lo < d2 ? lo : d2;
    int max0 = hi > 0 ? hi : 0, max1 = lo < 0 ? -lo : 0;
    if (max0 != max1) return max0 > max1 ? 0 : 1;
    if (max0 == 0) return -1; /* no superiority at all: exact tie, or no warehouses */
    int cnt0 = (d0 > 0) + (d1 > 0) + (d2 > 0), cnt1 = (d0 < 0) + (d1 < 0) + (d2 < 0);
    if (cnt0 != cnt1) return cnt0 > cnt1 ? 0 : 1;
    /* one superiority each (three goods: two each cannot be), of equal
     * size, in different goods: good a beats good b when b == (a + 1) % 3
     * (wine 1 > spice 2 > tea 0 > wine 1) */
    int lead0 = d0 > 0 ? 0 : d1 > 0 ? 1 : 2, lead1 = d0 < 0 ? 0 : d1 < 0 ? 1 : 2;
    return (lead0 + 1) % 3 == lead1 ? 0 : 1;
}
static inline int compare_goods(const uint8_t g[2][3]) {
    return compare_diffs((int)g[0][0] - (int)g[1][0], (int)g[0][1] - (int)g[1][1], (int)g[0][2] - (int)g[1][2]);
}
int kontor_compare_goods(const uint8_t g[2][3]) { return compare_goods(g); }

static int manhattan_to_centre(bb_t cells) {
    int best = 99;
    while (bb_any(cells)) {
        int c = bb_pop(&cells);
        int dx = gx(c) - 7, dy = gy(c) - 7;
        int d = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
        if (d < best) best = d;
    }
    return best;
}

/* The end of an area's scoring, once its goods are counted (score_area and
 * score_area_win): the majority of warehouses wins it and its owner places
 * a keeper there (R11: keepers are unlimited unless keeper_limit=1); the
 * area's cells are frozen and the next round opens with an event
 * (Ereigniskarten). */
static inline void area_decided(kontor_state *s, kontor_area *a, int w, kontor_log *log) {
    a->winner = w < 0 ? KONTOR_NONE : (uint8_t)w;
    if (w >= 0 && (!s->cfg->keeper_limit || s->keepers[w] < 5)) {
        a->keeper = 1;
        s->keepers[w]++;
    }
    s->event_due = 1;
    log_ev(log, KONTOR_EV_SCORE, w < 0 ? KONTOR_NONE : w, KONTOR_NONE, a->cell, s->nareas);
    s->nareas++;
}

/* kontor_area's fields hold their ranges (kontor.h): an area's size is at
 * most the cards that lie as dock cards, which KONTOR_MAX_AREAS bounds from
 * above (src/core/cards.c), so six bits hold it while that is below 64. */
_Static_assert(KONTOR_MAX_AREAS < 64, "kontor_area.size has six bits: at most KONTOR_MAX_AREAS dock cards an area");

/* An area's goods into its record, five bits a count, team t's good g at bit
 * 16t + 5g (kontor_area_goods reads them back). */
static inline void set_goods5_word(kontor_area *a, uint32_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(a->goods5, &v, 4); /* one store (the compiler keeps four byte stores) */
#else
    a->goods5[0] = (uint8_t)v, a->goods5[1] = (uint8_t)(v >> 8);
    a->goods5[2] = (uint8_t)(v >> 16), a->goods5[3] = (uint8_t)(v >> 24);
#endif
}
static inline void set_goods5(kontor_area *a, const uint8_t g[2][3]) {
    uint32_t v = 0;
    for (int i = 0; i < 6; i++) v |= (uint32_t)(g[i / 3][i % 3] & 31) << (16 * (i / 3) + 5 * (i % 3));
    set_goods5_word(a, v);
}

/* An area has just been enclosed: score it at once (rulebook "Gebietswertung")
 * and freeze it. */
void score_area(kontor_state *s, bb_t cells, kontor_log *log) {
    if (s->nareas >= KONTOR_MAX_AREAS) return; /* cannot happen: see KONTOR_MAX_AREAS */
    kontor_area *a = &s->area[s->nareas];
    memset(a, 0, sizeof *a);
    a->cell = (uint8_t)bb_first(cells);
    a->size = (uint8_t)bb_count(cells);
    a->dist = (uint8_t)manhattan_to_centre(cells);
    a->round = (uint8_t)(s->round > 255 ? 255 : s->round);
    uint8_t g[2][3];
    area_goods(s, cells, g);
    set_goods5(a, g);
    int base = 1;
    if (s->cfg->scoring == KONTOR_SCORE_SIZE) base = a->size; /* Kleinen: 1, 2, 3 points (4 and more: not counted) */
    if (s->cfg->inner_value && bb_any(bb_and(cells, s->cfg->inner))) base = s->cfg->inner_value; /* the island */
    a->value = (uint8_t)(base + bb_count(bb_and(cells, s->customs)));
    s->enclosed = bb_or(s->enclosed, cells);
    area_decided(s, a, compare_goods((const uint8_t(*)[3])g), log);
}

/* A card's eight bytes as one word, byte i at bits 8i: number, colour,
 * kind, coin, ship, tea, wine, spice. CARD_NOT_SCORED: the bits that are
 * zero exactly for a goods card (kind 0) of red or black (colour < 2), the
 * cards whose warehouses an area counts. */
_Static_assert(sizeof(kontor_card) == 8 && offsetof(kontor_card, colour) == 1 && offsetof(kontor_card, kind) == 2 &&
                   offsetof(kontor_card, goods) == 5 && KONTOR_KIND_GOODS == 0,
               "card_word reads a card as colour at byte 1, kind at byte 2, goods at bytes 5..7");
#define CARD_NOT_SCORED 0xFFFE00ULL
static inline uint64_t card_word(const kontor_card *k) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t u;
    memcpy(&u, k, 8);
    return u;
#else
    return (uint64_t)k->colour << 8 | (uint64_t)k->kind << 16 | (uint64_t)k->goods[0] << 40 |
           (uint64_t)k->goods[1] << 48 | (uint64_t)k->goods[2] << 56;
#endif
}

/* The Manhattan distance of each grid cell to the centre (7,7): a scored
 * area's nearest cell by a lookup a cell instead of two absolute values. */
#define DIST_X(c) (((c) & 15) >= 7 ? ((c) & 15) - 7 : 7 - ((c) & 15))
#define DIST_Y(c) (((c) >> 4) >= 7 ? ((c) >> 4) - 7 : 7 - ((c) >> 4))
#define DIST1(c) (uint8_t)(DIST_X(c) + DIST_Y(c))
#define DIST4(c) DIST1(c), DIST1(c + 1), DIST1(c + 2), DIST1(c + 3)
#define DIST16(c) DIST4(c), DIST4(c + 4), DIST4(c + 8), DIST4(c + 12)
#define DIST64(c) DIST16(c), DIST16(c + 16), DIST16(c + 32), DIST16(c + 48)
static const uint8_t DIST[KONTOR_CELLS] = {DIST64(0), DIST64(64), DIST64(128), DIST64(192)};

/* score_area for an area given in the window of rows r0..r0+7, where
 * check_enclosures finds it: its lowest cell, size, nearest cell and goods
 * from the two words (a cell's card read once for its goods and its
 * distance), instead of four-word passes over the grid. The games with
 * warehouses away from their cards (Exportlager, Aktionstafeln) and the
 * island's inner value take score_area, the plain reading; so does the
 * test of this one (property_scoring_in_the_window_is_the_plain_scoring).
 * They are told by the state's KONTOR__HOOK_PLACE bit (which Tic Tac Toe
 * sets too: the same scoring, read plainly), one byte of the state instead
 * of three of the config behind its pointer (basic 18,096 -> 18,085,
 * advanced 28,479 -> 28,467, four 43,941 -> 43,926; session thirteen). */
__attribute__((always_inline)) static inline void score_area_win_in(kontor_state *s, bb_w area, int r0, kontor_log *log) {
    uint64_t lo = bbw_lo(area), hi = bbw_hi(area);
    if ((s->hooks & KONTOR__HOOK_PLACE) || s->nareas >= KONTOR_MAX_AREAS) {
        bb_win wa = {{lo, hi}};
        score_area(s, bb_unwindow(wa, r0), log);
        return;
    }
    int base = r0 * 16, size = __builtin_popcountll(lo) + __builtin_popcountll(hi);
    /* A card as one word (card_word): its colour and kind tested at once,
     * its goods (bytes 5..7) added as they lie into one word, red's at
     * byte 0 and black's at byte 4: tea, wine, spice in bytes 0..2 and
     * 4..6 of g. No byte carries into the next: a count is at most the
     * card set's 16 of a good (src/core/cards.c). (It was two words of
     * 16-bit lanes, for any count below 256: five instructions more a
     * goods card; session fourteen.) */
    uint64_t g = 0;
    int dist = 99;
    const kontor_card *cards = s->card;
    for (uint64_t w = lo; w; w &= w - 1) {
        int c = base + __builtin_ctzll(w);
        if (DIST[c] < dist) dist = DIST[c];
        uint64_t u = card_word(&cards[s->cell_card[c]]);
        if (u & CARD_NOT_SCORED) continue;
        g += (u >> 40) << ((u >> 3) & 32); /* black (colour 1): 32 */
    }
    for (uint64_t w = hi; w; w &= w - 1) {
        int c = base + 64 + __builtin_ctzll(w);
        if (DIST[c] < dist) dist = DIST[c];
        uint64_t u = card_word(&cards[s->cell_card[c]]);
        if (u & CARD_NOT_SCORED) continue;
        g += (u >> 40) << ((u >> 3) & 32);
    }
    const kontor_config *cfg = s->cfg;
    int value = cfg->scoring == KONTOR_SCORE_SIZE ? size : 1; /* Kleinen: 1, 2, 3 points */
    /* the customs houses and the enclosed cells: the window of the grid's
     * bitboards (bbw_load: 16 bytes at row r0), not words shifted into it;
     * a customs house is a special card: none without them */
    if (cfg->specials) {
        bb_w cu = bbw_and(area, bbw_load(&s->customs, r0));
        value += __builtin_popcountll(bbw_lo(cu)) + __builtin_popcountll(bbw_hi(cu));
    }
    bbw_or_into(&s->enclosed, r0, area);
    /* the comparison: red minus black of each good, plus 0x84, in the
     * bytes of d (no byte borrows: each difference lies in -31..31); all
     * three within -4..3 (a byte 0x80..0x87) read COMPARE_SMALL by their
     * low three bits, d + 4, as compare_diffs does, without taking the six
     * counts apart (the others, a few in a thousand, through compare_diffs) */
    uint32_t d = (uint32_t)g + 0x848484u - (uint32_t)(g >> 32);
    int w = (d & 0xF8F8F8u) == 0x808080u
                ? COMPARE_SMALL[(d & 7) << 6 | ((d >> 5) & 0x38) | ((d >> 16) & 7)]
                : compare_diffs((int)(d & 0xFF) - 0x84, (int)((d >> 8) & 0xFF) - 0x84, (int)((d >> 16) & 0xFF) - 0x84);
    kontor_area *a = &s->area[s->nareas];
    a->cell = (uint8_t)(base + (lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(hi)));
    a->size = (uint8_t)size, a->keeper = 0, a->out = 0; /* every field written: no memset first */
    a->dist = (uint8_t)dist;
    a->round = (uint8_t)(s->round > 255 ? 255 : s->round);
    a->value = (uint8_t)value;
    /* the counts five bits each (team t's good g at bit 16t + 5g), both
     * teams at once: bytes 0, 1, 2 of each half of g to bits 0, 5, 10,
     * black's half then to bit 16 */
    uint64_t y = (g & 0x0000001F0000001FULL) | ((g >> 3) & 0x000003E0000003E0ULL) | ((g >> 6) & 0x00007C0000007C00ULL);
    set_goods5_word(a, (uint32_t)(y | (y >> 16)));
    area_decided(s, a, w, log);
}

static void score_area_win(kontor_state *s, bb_w area, int r0, kontor_log *log) { score_area_win_in(s, area, r0, log); }
/* score_area_win without a log (enclose_quiet's); each copy its own function
 * (inline in enclose_window, the flood's registers spill: basic +90) */
static void score_area_quiet(kontor_state *s, bb_w area, int r0) { score_area_win_in(s, area, r0, NULL); }

/* Score every open area that is now enclosed; candidates limits the search
 * to the areas touching those cells.
 * Die grosse Insel: the island's dead cells (V15) close areas like water.
 * They count as occupied for the test (s->occ, restored after), and every
 * open area is a candidate, because a crane can make a cell dead and so
 * close areas that are not its own. The inner call finds no dead cell left
 * and runs the usual test, which thus stays as it was for every other game. */

__attribute__((noinline)) static int enclose_island(kontor_state *s, kontor_log *log) {
    bb_t dead = dead_cells(s);
    if (!bb_any(dead)) return 0;
    bb_t occ = s->occ;
    s->occ = bb_or(occ, dead);
    check_enclosures(s, s->dock, log);
    s->occ = occ;
    return 1;
}

/* The window's test (check_enclosures, enclose_at): rows r0..r0+7, r0 < 8,
 * the extent's rows (every open dock card lies there), each set one bb_w
 * read from the grid's bitboard (bbw_load). An area is open when one of its
 * cells lies next to a gap: near, the cells next to a gap (the window's
 * gaps moved a column either way, and its gaps one row up and one row down
 * read as the windows at rows r0 + 1 and r0 - 1, which bring in the rows
 * below and above it). The candidates: the open cells of candidates when
 * cell is KONTOR_NONE, else cell (a dock card) or the cells next to it
 * (water), which enclose_at's caller gives without a bitboard of the grid.
 * The candidates next to a gap are open at once, and most are; from each
 * other one, grow its area and stop as soon as it reaches a cell next to a
 * gap, which is how most areas end: still open; score the others. */
__attribute__((always_inline)) static inline void enclose_window(kontor_state *s, const bb_t *candidates, int cell,
                                                                 int water, kontor_log *log) {
    int r0 = s->miny;
    bb_w open = bbw_andnot(bbw_load(&s->dock, r0), bbw_load(&s->enclosed, r0)), todo;
    if (candidates) {
        todo = bbw_and(bbw_load(candidates, r0), open);
        if (!bbw_any(todo)) return;
    } else {
        /* the card's cell in the window: its row is in the extent */
        int wc = cell - r0 * 16;
        todo = bbw_and(water ? bbw_around(wc) : bbw_cell(wc), open);
    }
    /* gaps: free cells, inside the mask once the edges close */
    uint64_t e = edges_close(s) ? 0 : ~0ULL;
    bb_w edges = bbw_make(e, e);
    bb_w g = bbw_andnot(bbw_or(bbw_load(&s->mask, r0), edges), bbw_load(&s->occ, r0));
    bb_w below = bbw_andnot(bbw_or(bbw_load(&s->mask, r0 + 1), edges), bbw_load(&s->occ, r0 + 1));
    bb_w above = r0 ? bbw_andnot(bbw_or(bbw_load(&s->mask, r0 - 1), edges), bbw_load(&s->occ, r0 - 1))
                    : bbw_down(g); /* no row above the grid */
    bb_w near = bbw_or(bbw_beside(g), bbw_or(above, below));
    todo = bbw_andnot(todo, near);
    while (bbw_any(todo)) {
        uint64_t lo = bbw_lo(todo), hi = bbw_hi(todo);
        bb_w area = lo ? bbw_make(lo & -lo, 0) : bbw_make(0, hi & -hi); /* the lowest cell */
        int enclosed = 1;
        for (;;) {
            bb_w grown = bbw_and(bbw_or(area, bbw_nb(area)), open);
            if (bbw_any(bbw_and(grown, near))) {
                enclosed = 0;
                break;
            }
            if (bbw_eq(grown, area)) break;
            area = grown;
        }
        todo = bbw_andnot(todo, area);
        if (enclosed) {
            if (log) score_area_win(s, area, r0, log);
            else score_area_quiet(s, area, r0);
        }
    }
}

/* check_enclosures for the areas a card just laid on cell can have closed
 * when the board's extent did not grow: the card's own (a dock card) or
 * those next to it (water); not for Die grosse Insel. The candidates come
 * from the cell in the window, not from a bitboard of the grid built and
 * passed by the caller (a random game: basic 26,284 -> 26,193
 * instructions, advanced 41,614 -> 41,462, four 62,058 -> 61,783; session
 * eleven). enclose_in_window is always inline: with two callers the
 * compiler made it a call, and the same change cost 26,427. */
void enclose_at(kontor_state *s, int cell, int water, kontor_log *log) {
    if (s->miny < 8 && s->maxy - s->miny < 8) {
        enclose_window(s, NULL, cell, water, log);
        return;
    }
    check_enclosures(s, water ? bb_around(cell) : bb_cell(cell), log);
}

/* enclose_at without a log: the playout's (playout_enclose). Its areas are
 * scored by score_area_quiet (enclose_window's pick for a constant NULL log):
 * a random game, basic 20,236 -> 20,162, advanced 31,828 -> 31,732. */
/* (the whole grid's test out of line: enclose_quiet's frame without its
 * bitboards, basic -12 instructions a game, advanced -16) */
__attribute__((noinline)) static void enclose_quiet_grid(kontor_state *s, int cell, int water) {
    check_enclosures(s, water ? bb_around(cell) : bb_cell(cell), NULL);
}
void enclose_quiet(kontor_state *s, int cell, int water) {
    if (__builtin_expect(s->miny >= 8 || s->maxy - s->miny >= 8, 0)) {
        enclose_quiet_grid(s, cell, water);
        return;
    }
    enclose_window(s, NULL, cell, water, NULL);
}

void check_enclosures(kontor_state *s, bb_t candidates, kontor_log *log) {
    if (__builtin_expect(s->cfg->inner_value != 0, 0) && enclose_island(s, log)) return;
    int r0 = s->miny;
    if (r0 < 8 && s->maxy - r0 < 8) {
        enclose_window(s, &candidates, KONTOR_NONE, 0, log);
        return;
    }
    bb_t open = bb_andnot(s->dock, s->enclosed);
    bb_t todo = bb_and(candidates, open);
    if (!bb_any(todo)) return;
    bb_t gaps = gap_cells(s);
    bb_t near_gap = bb_neighbours(gaps);
    todo = bb_andnot(todo, near_gap);
    while (bb_any(todo)) { /* a fixed board higher than eight rows (or beginning below row 7) */
        int c = bb_first(todo);
        bb_t area = bb_cell(c), grown;
        int enclosed = 1;
        for (;;) {
            grown = bb_and(bb_or(area, bb_neighbours(area)), open);
            if (bb_any(bb_and(grown, near_gap))) {
                enclosed = 0;
                break;
            }
            if (bb_eq(grown, area)) break;
            area = grown;
        }
        todo = bb_andnot(todo, area);
        if (enclosed) score_area(s, area, log);
    }
}


/* ---- placing and removing cards ---------------------------------------------- */

/* place_as and place_raw are in rules.h: the placement inlines them. */

/* What place_start works out from the start's cells alone on an empty board
 * (the frontier, the extent, the mask), for the last start it laid, one per
 * thread: every game of a playout or a match deals the same layout on the
 * same board, and copying these is ~200 instructions of a game's ~450 less
 * (issue 17, session thirteen). Keyed by the cells (occ) and the board's
 * size; a fixed board's mask is the config's own and is not kept here. A
 * cache of pure values: whether it hits changes nothing but the work
 * (start_cache_gives_what_place_start_works_out, tests/test_rules_board.c). */
static _Thread_local struct {
    bb_t occ, front, mask;
    uint8_t width, height, ext[4]; /* width 0: empty (no board is 0 wide) */
} start_cache;

/* The start's water cards on an empty board (deal_begin's), as place_raw one
 * by one would lay them, with the frontier, the extent and the mask worked
 * out once. */
void place_start(kontor_state *s, const uint8_t *cells, const uint8_t *ids, int n) {
    /* The start is water cards only: the centre and the start layout's
     * cards from the top of the water pile (kontor_new_from_deal checks the
     * pile's class). So put_bits of each is its cell, its bit of occ and
     * water and its card public, gathered in locals (a random basic game
     * ~75 instructions less, issue 17); and there is no crane whose
     * neighbours to keep (crane_near stays as the deal zeroed it). */
    bb_t at = bb_empty();
    uint64_t pub[2] = {0, 0};
    for (int j = 0; j < n; j++) {
        at.w[cells[j] >> 6] |= 1ULL << (cells[j] & 63);
        pub[ids[j] >> 6] |= 1ULL << (ids[j] & 63);
        s->cell_card[cells[j]] = ids[j];
    }
    s->occ = bb_or(s->occ, at);
    s->water = bb_or(s->water, at);
    s->pub[0] |= pub[0];
    s->pub[1] |= pub[1];
    s->ncards_board = (uint8_t)(s->ncards_board + n);
    _Static_assert(offsetof(kontor_state, maxy) == offsetof(kontor_state, minx) + 3, "the extent's four bytes");
    int keep = n && !s->cfg->fixed_board;
    if (keep && start_cache.width == s->cfg->width && start_cache.height == s->cfg->height &&
        bb_eq(start_cache.occ, s->occ)) {
        s->front = start_cache.front;
        s->mask = start_cache.mask;
        memcpy(&s->minx, start_cache.ext, 4);
        return;
    }
    if (n) {
        /* the extent from the occupied cells at once: their columns folded
         * into one row, their first and last rows (it was four tests a card,
         * nine cards in the basic game: a random game 31,889 -> 31,796
         * instructions, session ten) */
        uint64_t any = s->occ.w[0] | s->occ.w[1] | s->occ.w[2] | s->occ.w[3];
        any |= any >> 32;
        any |= any >> 16;
        unsigned cols = (unsigned)(any & 0xFFFF);
        int x0 = __builtin_ctz(cols), x1 = 31 - __builtin_clz(cols), y0 = bb_first(s->occ) >> 4, y1 = 0;
        for (int i = 3; i >= 0; i--)
            if (s->occ.w[i]) {
                y1 = (i * 64 + 63 - __builtin_clzll(s->occ.w[i])) >> 4;
                break;
            }
        if (x0 < s->minx) s->minx = (uint8_t)x0;
        if (x1 > s->maxx) s->maxx = (uint8_t)x1;
        if (y0 < s->miny) s->miny = (uint8_t)y0;
        if (y1 > s->maxy) s->maxy = (uint8_t)y1;
    }
    s->front = bb_andnot(bb_neighbours(s->occ), s->occ);
    if (n) update_mask(s);
    if (keep) {
        start_cache.occ = s->occ;
        start_cache.front = s->front;
        start_cache.mask = s->mask;
        memcpy(start_cache.ext, &s->minx, 4);
        start_cache.width = s->cfg->width;
        start_cache.height = s->cfg->height;
    }
}

void remove_raw(kontor_state *s, int cell) {
    int id = s->cell_card[cell];
    const kontor_card *k = card_of(s, id);
    s->cell_card[cell] = KONTOR_NONE;
    bb_clear(&s->occ, cell);
    bb_clear(&s->dock, cell);
    bb_clear(&s->water, cell);
    bb_clear(&s->customs, cell);
    bb_clear(&s->shipsym, cell);
    if (k->colour < 2) {
        bb_clear(&s->team_dock[k->colour], cell);
        if (bb_test(&s->crane[k->colour], cell)) { /* the cells next to the cranes change only with a crane */
            bb_clear(&s->crane[k->colour], cell);
            s->crane_near[k->colour] = bb_neighbours(s->crane[k->colour]);
        }
    }
    s->ncards_board--;
    s->front = bb_andnot(bb_neighbours(s->occ), s->occ); /* rare (the ship, an overbuild): recounted */
}

/* Tic Tac Toe: "Wasserkarten ... duerfen aber keine neuen Gebiete abtrennen".
 * Ruling V4: a water card may go only where it does not cut the cells of the
 * board that are not water (an island's land) into more pieces: every land
 * cell next to it must stay connected to the others through land. */
bb_t no_split(const kontor_state *s, bb_t cand) {
    bb_t r = bb_empty();
    while (bb_any(cand)) {
        int c = bb_pop(&cand);
        bb_t land = bb_andnot(s->mask, bb_or(s->water, bb_cell(c)));
        bb_t nb = bb_and(bb_around(c), land);
        if (bb_count(nb) <= 1 || bb_eq(bb_and(bb_flood(bb_cell(bb_first(nb)), land), nb), nb)) bb_set(&r, c);
    }
    return r;
}

int count_goods(const kontor_card *k) { return k->goods[0] + k->goods[1] + k->goods[2]; }

/* Would laying card id on cell (as water or as dock) enclose an area? The
 * customs house may not be the card that does (rulebook). Die grosse Insel's
 * test: its dead cells read more of the state, so the card is placed on a
 * copy and every open area is tested; every other game asks customs_cells
 * (below), which settles all the cells at once. */
static int would_enclose(const kontor_state *s, int cell, int id, int as_water) {
    kontor_state t = *s;
    place_as(&t, cell, id, as_water);
    bb_t open = bb_andnot(t.dock, s->enclosed), todo = open;
    /* An area is enclosed when nothing next to it is outside the closing
     * cells; next to a whole area lies no other open dock card, so the cells
     * that keep it open are those neither closing nor open dock. Grow each
     * area from a cell and stop at the first such cell: most areas are
     * open, and it shows after a step or two. */
    bb_t gaps = bb_andnot(bb_all(), bb_or(closing_cells(&t), open));
    while (bb_any(todo)) {
        bb_t area = bb_cell(bb_first(todo));
        for (;;) {
            bb_t around = bb_neighbours(area);
            if (bb_any(bb_and(around, gaps))) break;
            bb_t grown = bb_and(bb_or(area, around), open);
            if (bb_eq(grown, area)) return 1;
            area = grown;
        }
        todo = bb_andnot(todo, area);
    }
    return 0; /* placing scores nothing (place_as), so no area was added */
}

/* Column x (0..15) and row y (0..15) of the grid as bitboards. */
static inline bb_t bb_column(int x) {
    uint64_t c = BB_COL0 << x;
    bb_t r = {{c, c, c, c}};
    return r;
}
static inline bb_t bb_line(int y) {
    bb_t r = bb_empty();
    r.w[y >> 2] = 0xFFFFULL << ((y & 3) * 16);
    return r;
}

/* Row y (0..15) of b as 16 bits: its two bytes (bb_row on a big-endian
 * machine). */
static inline uint64_t row16(const bb_t *b, int y) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint16_t v;
    memcpy(&v, (const char *)b->w + 2 * y, 2);
    return v;
#else
    return bb_row(b, y);
#endif
}

/* customs_cells' window: G (the cells that keep an area open: neither
 * closing nor open dock) in rows r..r+7 (r <= 8), for the mask given and
 * em all ones when the edges do not close; and the window's sets moved a
 * column: win_west's cell x holds a's cell x - 1, win_east's a's x + 1. */
static inline bb_w gap_win(const kontor_state *s, const bb_t *mask, bb_w em, int r) {
    bb_w open = bbw_andnot(bbw_load(&s->dock, r), bbw_load(&s->enclosed, r));
    return bbw_andnot(bbw_or(bbw_load(mask, r), em), bbw_or(bbw_load(&s->water, r), open));
}
#if defined(__SSE2__) && !defined(KONTOR_NO_SSE2)
static inline bb_w win_west(bb_w a) { return _mm_slli_epi16(a, 1); }
static inline bb_w win_east(bb_w a) { return _mm_srli_epi16(a, 1); }
#else
static inline bb_w win_west(bb_w a) { return bbw_make((a.w[0] << 1) & ~BB_COL0, (a.w[1] << 1) & ~BB_COL0); }
static inline bb_w win_east(bb_w a) { return bbw_make((a.w[0] >> 1) & ~BB_COL15, (a.w[1] >> 1) & ~BB_COL15); }
#endif

/* Where a customs house may go, for every cell of in at once: free cells in
 * the mask whose card gives the board the extent minx..maxy (so the same mask
 * and edges for all of them). Let G be the cells that keep an area open once
 * the card lies there: neither closing (water, and beyond the mask once the
 * edges close) nor open dock. A cell c of in is one of them now, so every
 * open area next to c has c among the cells of G next to it, and the card on
 * c closes that area exactly when c is the only one. Only the areas next to
 * the card, or next to the cells that its new edge closes ("newly": those
 * that left the mask, or every cell outside it once edge=both's edges begin
 * to close), can close: any other area has the same surroundings as before
 * the card, and was open then (each placement scores what it closes;
 * do_place's candidates, for the same reason). Those areas are filled once,
 * counting the cells of G next to each: one makes the area "sole"; none
 * (an area next to newly) means that every cell of in encloses it. Else a
 * customs house as water on c encloses when an area next to c is sole, and
 * as a dock card when c has no cell of G next to it and every open area next
 * to it is sole (the area it makes is c and those areas). Not for Die grosse
 * Insel (dead cells: would_enclose). Measured: the game for four 105,928 ->
 * 95,046 instructions (issue 17). Both answers at once: the cells of in
 * where it may go as water are added to *water, those of in_dock (a part of
 * in: no opposing crane next to them) where it may go as a dock card to
 * *dock; the areas filled for in are those next to in_dock and more, and a
 * cell's answer reads only the areas next to it, so each answer is the one a
 * fill for its own cells alone would give (a fill, not two: four 84,893 ->
 * 81,023). */
__attribute__((always_inline)) static inline void customs_cells(const kontor_state *s, bb_t in, bb_t in_dock, int minx, int maxx, int miny, int maxy,
                          bb_t *water, bb_t *dock) {
    bb_t mask = s->mask, newly = bb_empty();
    int w = s->cfg->width, h = s->cfg->height;
    int edges = !s->cfg->edge_both || s->cfg->fixed_board || (maxx - minx + 1 >= w && maxy - miny + 1 >= h);
    if (minx != s->minx || maxx != s->maxx || miny != s->miny || maxy != s->maxy) {
        /* (the extent as now: the same mask and edges, nothing newly closing) */
        mask = s->cfg->fixed_board ? s->cfg->board_mask
                                  : bb_rect(maxx - (w - 1), minx + (w - 1), maxy - (h - 1), miny + (h - 1));
        if (!bb_eq(mask, s->mask) || edges != edges_close(s))
            newly = edges != edges_close(s) ? bb_andnot(bb_all(), mask) : bb_andnot(s->mask, mask);
    }
    bb_t open = bb_andnot(s->dock, s->enclosed);
    bb_t closing = edges ? bb_or(s->water, bb_andnot(bb_all(), mask)) : s->water;
    bb_t from = bb_or(in, newly), sole = bb_empty(); /* the areas next to these */
    int r0 = s->miny, closed = 0;
    if (r0 <= 7 && s->maxy - r0 < 8) {
        /* every open dock card lies in the extent's rows: fill in their
         * window, counting the cells of G next to the area (those of the
         * rows above and below the window too) and stopping at two; the
         * open cards next to from in the window (from's rows above and
         * below it too). Each set is one bb_w read at row r0 (bbw_load),
         * the fill a register's shifts (as enclose_window's); G's cells
         * north and south of the window's are the windows of G at r0 - 1
         * and r0 + 1, worked out from those of water, dock, enclosed and
         * the mask (for r0 = 0 the window moved down: no row above the
         * grid), not from a bitboard of the grid. */
        bb_w em = bbw_make(edges ? 0 : ~0ULL, edges ? 0 : ~0ULL);
        bb_w wopen = bbw_andnot(bbw_load(&s->dock, r0), bbw_load(&s->enclosed, r0));
        bb_w wg = gap_win(s, &mask, em, r0), wsole = bbw_make(0, 0);
        bb_w gn = r0 ? gap_win(s, &mask, em, r0 - 1) : bbw_down(wg), gs = gap_win(s, &mask, em, r0 + 1);
        bb_w wfrom = bbw_load(&from, r0);
        bb_w wtodo = bbw_or(bbw_beside(wfrom), bbw_or(r0 ? bbw_load(&from, r0 - 1) : bbw_down(wfrom),
                                                       bbw_load(&from, r0 + 1)));
        wtodo = bbw_and(wtodo, wopen);
        /* an open dock card with two cells of G beside it is in an area
         * that is neither sole nor closed: no fill from it */
        bb_w gw = win_west(wg), ge = win_east(wg);
        wtodo = bbw_andnot(wtodo, bbw_or(bbw_or(bbw_and(gw, ge), bbw_and(bbw_or(gw, ge), bbw_or(gn, gs))),
                                         bbw_and(gn, gs)));
        /* the cells of G above the window's first row and below its last:
         * row 0 of gn, row 7 of gs */
        bb_w ext = bbw_or(bbw_and(gn, bbw_make(0xFFFF, 0)), bbw_and(gs, bbw_make(0, 0xFFFFULL << 48)));
        while (bbw_any(wtodo)) {
            uint64_t lo = bbw_lo(wtodo), hi = bbw_hi(wtodo);
            bb_w area = lo ? bbw_make(lo & -lo, 0) : bbw_make(0, hi & -hi); /* the lowest cell */
            int k;
            for (;;) {
                bb_w n = bbw_nb(area), t = bbw_and(n, wg), u = bbw_and(area, ext);
                /* u: bits 0..15 of its low word, 48..63 of its high one */
                k = __builtin_popcountll(bbw_lo(t)) + __builtin_popcountll(bbw_hi(t)) +
                    __builtin_popcountll(bbw_lo(u) | bbw_hi(u));
                if (k >= 2) break;
                bb_w grown = bbw_and(bbw_or(area, n), wopen);
                if (bbw_eq(grown, area)) break;
                area = grown;
            }
            wtodo = bbw_andnot(wtodo, area);
            if (k == 1) wsole = bbw_or(wsole, area);
            closed |= k == 0;
        }
        bbw_or_into(&sole, r0, wsole);
    } else {
        bb_t g = bb_andnot(bb_all(), bb_or(closing, open));
        bb_t todo = bb_and(open, bb_neighbours(from));
        while (bb_any(todo)) {
            bb_t area = bb_flood(bb_cell(bb_first(todo)), open);
            todo = bb_andnot(todo, area);
            int k = bb_count(bb_and(bb_neighbours(area), g));
            if (k == 1) sole = bb_or(sole, area);
            closed |= k == 0;
        }
    }
    if (closed) return;
    /* as water: not next to a sole area; as a dock card: next to a cell of
     * G or to an open area that is not sole (G and the open dock cards are
     * every cell that is not closing) */
    if (bb_any(sole)) {
        *water = bb_or(*water, bb_andnot(in, bb_neighbours(sole)));
        closing = bb_or(closing, sole);
    } else {
        *water = bb_or(*water, in);
    }
    *dock = bb_or(*dock, bb_and(in_dock, bb_neighbours(bb_andnot(bb_all(), closing))));
}

/* Where seat may lay special card id: a flood on a bridge or on a dock card
 * with exactly one good; a bridge on a water card or a flood (not the harbour
 * centre, not under the ship, not next to an enclosed area: it would join
 * it); a customs house on a free cell as water (as_water) or as a dock card,
 * never as the card that encloses an area. Never on or in an enclosed area. */
/* A customs house of seat's: where it may go as water (*water) and as a dock
 * card (*dock), on a free cell next to the board, never as the card that
 * encloses an area (customs_cells), as a dock card not next to an opposing
 * crane. */
static void customs_house_cells(const kontor_state *s, int seat, int id, bb_t *water, bb_t *dock) {
    bb_t cand = bb_and(s->front, s->mask); /* the free cells next to the board, kept by place_as */
    bb_t off = s->crane_near[1 - team_of(s, seat)]; /* no dock card of seat's there (kept the same way) */
    *water = *dock = bb_empty();
    if (!s->cfg->inner_value) {
        /* by the extent the card gives the board: the same, or one more
         * column or row on one side (a free cell next to a card) */
        int x0 = s->minx, x1 = s->maxx, y0 = s->miny, y1 = s->maxy, w = s->cfg->width, h = s->cfg->height;
        /* A side whose new edge closes nothing (no open dock card next to
         * the cells that leave the mask, and the edges close as before)
         * gives its areas the same cells of G as the extent now: its cells
         * join those of in, for one fill (four 81,023 -> 79,501). A free
         * cell next to a card outside the extent lies on one of the four
         * lines around it; without edge=both the mask that a side's card
         * gives loses at most the line w (h) cells beyond the far side. */
        bb_t open = bb_andnot(s->dock, s->enclosed), in = cand;
        uint64_t colsc = cand.w[0] | cand.w[1] | cand.w[2] | cand.w[3];
        uint64_t colso = open.w[0] | open.w[1] | open.w[2] | open.w[3];
        for (int d = 0; d < 4; d++) {
            int at = d == 0 ? x0 - 1 : d == 1 ? x1 + 1 : d == 2 ? y0 - 1 : y1 + 1;
            if (at < 0 || at > 15) continue;
            /* whether the side holds a cell: a column of the four words
             * folded into one (colsc), a row's two bytes (row16) */
            if (d < 2 ? !(colsc & (BB_COL0 << at)) : !row16(&cand, at)) continue;
            int a0 = d == 0 ? at : x0, a1 = d == 1 ? at : x1, b0 = d == 2 ? at : y0, b1 = d == 3 ? at : y1;
            int join;
            if (s->cfg->fixed_board) {
                join = 1; /* the mask never changes, the edges always close */
            } else if (!s->cfg->edge_both) {
                /* the line that leaves the mask (lost) holds no card (a
                 * side's cell lies in the mask, so the extent is narrower
                 * than the board), nor does the line beyond it; the open
                 * dock cards next to it lie on the line inside it (next), in
                 * the mask's rows (columns): those next to a cell of lost */
                int lost = d == 0 ? x0 + w - 1 : d == 1 ? x1 - (w - 1) : d == 2 ? y0 + h - 1 : y1 - (h - 1);
                int next = d == 0 || d == 2 ? lost - 1 : lost + 1;
                join = lost < 0 || lost > 15 || !(d < 2 ? colso & (BB_COL0 << next) : row16(&open, next));
            } else {
                bb_t mask = bb_rect(a1 - (w - 1), a0 + (w - 1), b1 - (h - 1), b0 + (h - 1));
                int e = a1 - a0 + 1 >= w && b1 - b0 + 1 >= h;
                join = e == edges_close(s) && !bb_any(bb_and(open, bb_neighbours(bb_andnot(s->mask, mask))));
            }
            if (!join) {
                bb_t side = bb_and(cand, d < 2 ? bb_column(at) : bb_line(at));
                in = bb_andnot(in, side);
                customs_cells(s, side, bb_andnot(side, off), a0, a1, b0, b1, water, dock);
            }
        }
        if (bb_any(in)) customs_cells(s, in, bb_andnot(in, off), x0, x1, y0, y1, water, dock);
        return;
    }
    while (bb_any(cand)) { /* Die grosse Insel */
        int c = bb_pop(&cand);
        if (!would_enclose(s, c, id, 1)) bb_set(water, c);
        if (!bb_test(&off, c) && !would_enclose(s, c, id, 0)) bb_set(dock, c);
    }
}

/* Where seat may lay special card id: a flood on a bridge or on a dock card
 * with exactly one good; a bridge on a water card or a flood (not the harbour
 * centre, not under the ship, not next to an enclosed area: it would join
 * it); a customs house on a free cell as water (as_water) or as a dock card,
 * never as the card that encloses an area. Never on or in an enclosed area. */
bb_t special_cells(const kontor_state *s, int seat, int id, int as_water) {
    const kontor_card *k = card_of(s, id);
    bb_t r = bb_empty();
    if (k->kind == KONTOR_KIND_FLOOD) {
        /* word by word, each open dock card's bit set without a branch */
        const kontor_card *cards = s->cfg->cards->card;
        for (int i = 0; i < 4; i++) {
            uint64_t rw = 0;
            for (uint64_t t = s->dock.w[i] & ~s->enclosed.w[i]; t; t &= t - 1) {
                int b = __builtin_ctzll(t);
                const kontor_card *u = &cards[s->cell_card[i * 64 + b]];
                uint64_t one = (uint64_t)(u->kind == KONTOR_KIND_BRIDGE) |
                               (uint64_t)(u->kind == KONTOR_KIND_GOODS && u->goods[0] + u->goods[1] + u->goods[2] == 1);
                rw |= one << b;
            }
            r.w[i] = rw;
        }
    } else if (k->kind == KONTOR_KIND_BRIDGE) {
        r = bb_andnot(bb_andnot(s->water, s->customs), bb_neighbours(s->enclosed));
        bb_clear(&r, KONTOR_CENTRE_CELL);
        if (s->ship_cell != KONTOR_NONE) bb_clear(&r, s->ship_cell);
    } else if (k->kind == KONTOR_KIND_CUSTOMS) {
        bb_t water, dock;
        customs_house_cells(s, seat, id, &water, &dock);
        r = as_water ? water : dock;
    }
    return r;
}

/* The cells for the place phase, in s->cells (and s->cells_water for a
 * customs house placed as water). */
void compute_cells(kontor_state *s, int seat, int id) {
    const kontor_card *k = card_of(s, id);
    if (k->kind == KONTOR_KIND_CUSTOMS) {
        customs_house_cells(s, seat, id, &s->cells_water, &s->cells);
    } else if (is_special(k)) {
        s->cells = special_cells(s, seat, id, k->kind == KONTOR_KIND_FLOOD);
        s->cells_water = bb_empty();
    } else {
        s->cells = legal_cells(s, seat, id);
        s->cells_water = bb_empty();
    }
}
