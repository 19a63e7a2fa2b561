/* area.c: the open areas and the test that closes them in (R7), and the
 * scoring of an area once it is enclosed (the rulebook's "Gebietswertung").
 *
 * Areas are not stored while open: they are the connected components of the
 * dock bitboard, found by flood fill when needed (see rules.h). The
 * enclosure test (check_enclosures, enclose_at) and the scoring it calls are
 * one translation unit, so that the compiler inlines across them; the cells
 * a card may take and the cards' own placing and removing are in cells.c
 * (split from here: issue 17, no file of the core over ~800 lines); the
 * cells that close an area are in closing.h, which both read; laying a card
 * (place_as) is inline in rules.h, so that do_place inlines it too. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/closing.h"
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

void kontor_dead_cells(const kontor_state *s, kontor_bb *out) {
    *out = s->cfg->inner_value ? dead_cells(s) : bb_empty();
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
 * most the cards that can lie as dock cards, which src/core/cards.c checks
 * to be below 64, so six bits hold it. */

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
#define DIST_X(c) (BB_X(c) >= 7 ? BB_X(c) - 7 : 7 - BB_X(c))
#define DIST_Y(c) (BB_Y(c) >= 7 ? BB_Y(c) - 7 : 7 - BB_Y(c))
#define DIST1(c) (uint8_t)(DIST_X(c) + DIST_Y(c))
#define DIST4(c) DIST1(c), DIST1(c + 1), DIST1(c + 2), DIST1(c + 3)
#define DIST16(c) DIST4(c), DIST4(c + 4), DIST4(c + 8), DIST4(c + 12)
#define DIST64(c) DIST16(c), DIST16(c + 16), DIST16(c + 32), DIST16(c + 48)
static const uint8_t DIST[KONTOR_CELLS] = {DIST64(0), DIST64(64), DIST64(128), DIST64(192)};

/* score_area_win_in's rare paths out of line, jumped to with nothing live
 * across them, so that its usual path saves three registers, not six (the
 * inline call to score_area and the wide comparison held them for the whole
 * function): the plain reading and a comparison with a difference beyond
 * -4..3. GCC knows which registers a function of this file leaves alone and
 * lets its callers keep values in them across the call (enclose_quiet keeps
 * the state's address in rdi): the plain reading lays the window's bytes
 * into the bitboard where bbw_load reads them, not bb_unwindow's shifts
 * across words, which took rdi and cost enclose_quiet a saved register
 * (basic +44 a game; session sixteen, score16). */
__attribute__((noinline, cold)) static void score_area_plain(kontor_state *s, uint64_t lo, uint64_t hi, int r0, kontor_log *log) {
    bb_t cells = bb_empty(); /* the window's 16 bytes at byte 2 * r0 (bbw_load's) */
    uint64_t w[2] = {lo, hi};
    memcpy((char *)cells.w + 2 * r0, w, sizeof w);
    score_area(s, cells, log);
}
__attribute__((noinline)) static void decided_wide(kontor_state *s, kontor_area *a, uint32_t d, kontor_log *log) {
    area_decided(s, a, compare_diffs((int)(d & 0xFF) - 0x84, (int)((d >> 8) & 0xFF) - 0x84, (int)((d >> 16) & 0xFF) - 0x84), log);
}

#if defined(__SSE2__) && !defined(KONTOR_NO_SSE2)
#define AREA_HIDE(v) __asm__("" : "+x"(v)) /* in its SSE register: read again */
#else
#define AREA_HIDE(v) ((void)0)
#endif

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
        score_area_plain(s, lo, hi, r0, log);
        return;
    }
    int base = bbw_base(r0);
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
    /* the area's words again from its register, not kept across the walk
     * (with them, its size and r0 held, the walk ran out of the caller's
     * registers: six saved) */
    AREA_HIDE(area);
    lo = bbw_lo(area), hi = bbw_hi(area);
    int size = __builtin_popcountll(lo) + __builtin_popcountll(hi);
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
    if (__builtin_expect((d & 0xF8F8F8u) != 0x808080u, 0)) {
        decided_wide(s, a, d, log); /* a jump: nothing lives across it */
        return;
    }
    int w = COMPARE_SMALL[(d & 7) << 6 | ((d >> 5) & 0x38) | ((d >> 16) & 7)];
    area_decided(s, a, w, log);
}

static void score_area_win(kontor_state *s, bb_w area, int r0, kontor_log *log) { score_area_win_in(s, area, r0, log); }
/* score_area_win without a log (enclose_quiet's); each copy its own function
 * (inline in enclose_window_in, the flood's registers spill: basic +90) */
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
/* closed: the caller knows that edges_close(s) holds (no test of the
 * config). low: the extent is at most six rows (maxy - miny <= 5; the caller
 * tested). The window then begins a row above it (inside the grid) and holds
 * the rows next to it too, so the cells next to a gap are the gaps'
 * neighbours in this one window (bbw_nb): its first and last rows, which
 * lack the gaps beyond them, hold no dock card (every dock card lies in the
 * extent). Not the windows at r0 - 1 and r0 + 1 (four loads and their
 * ors): the playout's enclose_quiet and enclose_lines_quiet, basic 15,557
 * -> 15,488 instructions a game, advanced and four the same (3,000 games;
 * session sixteen; one copy of the test for the branch cost advanced +66,
 * four +102); enclose_at and check_enclosures too (a record's replay
 * 39,269 -> 39,187). Each caller branches into two copies. */
__attribute__((always_inline)) static inline void enclose_window_in(kontor_state *s, const bb_t *candidates, int cell,
                                                                    int water, kontor_log *log, int low, int closed) {
    int r0 = s->miny;
    if (low) r0 -= r0 > 0;
    bb_w open = bbw_andnot(bbw_load(&s->dock, r0), bbw_load(&s->enclosed, r0)), todo;
    if (candidates) {
        todo = bbw_and(bbw_load(candidates, r0), open);
        if (!bbw_any(todo)) return;
    } else {
        /* the card's cell in the window: its row is in the extent */
        int wc = bbw_index(cell, r0);
        todo = bbw_and(water ? bbw_around(wc) : bbw_cell(wc), open);
    }
    /* gaps: free cells, inside the mask once the edges close */
    uint64_t e = closed || edges_close(s) ? 0 : ~0ULL;
    bb_w edges = bbw_make(e, e);
    bb_w g = bbw_andnot(bbw_or(bbw_load(&s->mask, r0), edges), bbw_load(&s->occ, r0)), near;
    if (low) {
        near = bbw_nb(g);
    } else {
        bb_w below = bbw_andnot(bbw_or(bbw_load(&s->mask, r0 + 1), edges), bbw_load(&s->occ, r0 + 1));
        bb_w above = r0 ? bbw_andnot(bbw_or(bbw_load(&s->mask, r0 - 1), edges), bbw_load(&s->occ, r0 - 1))
                        : bbw_down(g); /* no row above the grid */
        near = bbw_or(bbw_beside(g), bbw_or(above, below));
    }
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
        if (s->maxy - s->miny <= 5) enclose_window_in(s, NULL, cell, water, log, 1, 0);
        else enclose_window_in(s, NULL, cell, water, log, 0, 0);
        return;
    }
    check_enclosures(s, water ? bb_around(cell) : bb_cell(cell), log);
}

/* enclose_at without a log: the playout's (playout_enclose). Its areas are
 * scored by score_area_quiet (enclose_window_in's pick for a constant NULL log):
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
    if (s->maxy - s->miny <= 5) enclose_window_in(s, NULL, cell, water, NULL, 1, 0);
    else enclose_window_in(s, NULL, cell, water, NULL, 0, 0);
}

/* check_enclosures without a log for the playout's grown board
 * (place.c's playout_grown: no KONTOR__HOOK_PLACE, so not Die grosse
 * Insel), the candidates by address: no copy of four words onto the stack
 * and no frame for the whole grid's bitboards in the window's case
 * (session sixteen). Its caller (playout_place_out) grows only a board
 * without edge=both (nor a fixed one), where the unplayable cells close
 * areas at once (edges_close): the gaps are the mask's free cells, without
 * the config's two tests (closed, 1; session sixteen, lines16). */
void enclose_lines_quiet(kontor_state *s, const bb_t *candidates) {
    /* miny < 8 and maxy - miny < 8 in one test (both lie in 0..15: the
     * card just laid set the extent): basic -2 instructions a game */
    if (__builtin_expect((unsigned)(s->miny | (s->maxy - s->miny)) >= 8, 0)) {
        check_enclosures(s, *candidates, NULL);
        return;
    }
    if (!candidates) __builtin_unreachable(); /* (the window's cell path, not compiled here) */
    if (s->maxy - s->miny <= 5) enclose_window_in(s, candidates, KONTOR_NONE, 0, NULL, 1, 1);
    else enclose_window_in(s, candidates, KONTOR_NONE, 0, NULL, 0, 1);
}

void check_enclosures(kontor_state *s, bb_t candidates, kontor_log *log) {
    if (__builtin_expect(s->cfg->inner_value != 0, 0) && enclose_island(s, log)) return;
    int r0 = s->miny;
    if (r0 < 8 && s->maxy - r0 < 8) {
        if (s->maxy - r0 <= 5) enclose_window_in(s, &candidates, KONTOR_NONE, 0, log, 1, 0);
        else enclose_window_in(s, &candidates, KONTOR_NONE, 0, log, 0, 0);
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
