/* cells.c: the board's cards and the cells a card may take: laying the
 * start's cards (place_start, its cache), taking a card off (remove_raw),
 * and the rules of the cells: the customs house's (customs_cells), the
 * special cards' (special_cells), Tic Tac Toe's no_split, would_enclose and
 * the place phase's cells (compute_cells). Split from area.c (issue 17: no
 * file of the core over ~800 lines), which keeps the areas: the enclosure
 * test and the scoring. The usual card's cells (legal_cells,
 * put_usual_cells) and laying a card (place_as) are inline in rules.h, so
 * that the placement inlines them; the cells that close an area are in
 * closing.h, shared with area.c. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/closing.h"
#include "core/rules.h"

/* ---- placing and removing cards ---------------------------------------------- */

/* place_as and place_raw are in rules.h: the placement inlines them. */

/* What place_start works out from the start's cells alone on an empty board
 * (the frontier, the extent, the mask), for the last start it laid, one per
 * thread: every game of a playout or a match deals the same layout on the
 * same board, and copying these is ~200 instructions of a game's ~450 less
 * (issue 17, session thirteen). Keyed by the board's size and the start's
 * cells in their order (n of them, at most 16: the first sixteen bytes of
 * the caller's cells compared, which both deals fill from the layout; a
 * start of more is keyed by its occupied cells, worked out first), so that
 * a hit lays only the cards (the cells' bits, ~6 instructions a card, from
 * the cache: session sixteen); a fixed board's mask is the config's own and
 * is not kept here. A cache of pure values: whether it hits changes nothing
 * but the work (start_cache_gives_what_place_start_works_out,
 * tests/test_rules_board.c). */
static _Thread_local struct {
    bb_t occ, front, mask;
    uint8_t width, height, ext[4]; /* width 0: empty (no board is 0 wide) */
    uint8_t n, cells[16];          /* n 0: keyed by occ alone */
} start_cache;

/* The start's water cards on an empty board (deal_begin's), as place_raw one
 * by one would lay them, with the frontier, the extent and the mask worked
 * out once. cells holds at least 16 bytes when n <= 16 (read as the key). */
void place_start(kontor_state *s, const uint8_t *cells, const uint8_t *ids, int n) {
    /* The start is water cards only: the centre and the start layout's
     * cards from the top of the water pile (kontor_new_from_deal checks the
     * pile's class). So put_bits of each is its cell, its bit of occ and
     * water and its card public, gathered in locals (a random basic game
     * ~75 instructions less, issue 17); and there is no crane whose
     * neighbours to keep (crane_near stays as the deal zeroed it). */
    uint64_t pub[2] = {0, 0};
    int keep = n && !s->cfg->fixed_board;
    _Static_assert(offsetof(kontor_state, maxy) == offsetof(kontor_state, minx) + 3, "the extent's four bytes");
    if (keep && n <= 16 && start_cache.n == n && start_cache.width == s->cfg->width &&
        start_cache.height == s->cfg->height && memcmp(start_cache.cells, cells, 16) == 0) {
        /* each card's public bit straight into the state's (the index a
         * 32-bit shift: no mask of a byte's shift) */
        for (int j = 0; j < n; j++) {
            unsigned id = ids[j];
            s->pub[id >> 6] |= 1ULL << (id & 63);
            s->cell_card[cells[j]] = (uint8_t)id;
        }
        s->occ = bb_or(s->occ, start_cache.occ);
        s->water = bb_or(s->water, start_cache.occ);
        s->ncards_board = (uint8_t)(s->ncards_board + n);
        s->front = start_cache.front;
        s->mask = start_cache.mask;
        memcpy(&s->minx, start_cache.ext, 4);
        return;
    }
    bb_t at = bb_empty();
    for (int j = 0; j < n; j++) {
        BB_WORD(at, BB_WORD_OF(bb_bit(s->cfg, cells[j]))) |= BB_MASK_OF(bb_bit(s->cfg, cells[j]));
        pub[ids[j] >> 6] |= 1ULL << (ids[j] & 63);
        s->cell_card[cells[j]] = ids[j];
    }
    s->occ = bb_or(s->occ, at);
    s->water = bb_or(s->water, at);
    s->pub[0] |= pub[0];
    s->pub[1] |= pub[1];
    s->ncards_board = (uint8_t)(s->ncards_board + n);
    if (keep && n > 16 && start_cache.n == 0 && start_cache.width == s->cfg->width &&
        start_cache.height == s->cfg->height && bb_eq(start_cache.occ, s->occ)) {
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
        unsigned cols = bb_cols(&s->occ);
        int x0 = __builtin_ctz(cols), x1 = 31 - __builtin_clz(cols);
        int y0 = bb_y(bb_cell_of(s->cfg, bb_first(s->occ))), y1 = bb_y(bb_cell_of(s->cfg, bb_last(&s->occ)));
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
        start_cache.n = (uint8_t)(n <= 16 ? n : 0);
        if (n <= 16) memcpy(start_cache.cells, cells, 16);
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

/* customs_cells' window: G (the cells that keep an area open: neither
 * closing nor open dock) in rows r..r+7 (r <= 8), for the mask given and
 * em all ones when the edges do not close. */
static inline bb_w gap_win(const kontor_state *s, const bb_t *mask, bb_w em, int r) {
    bb_w open = bbw_andnot(bbw_load(&s->dock, r), bbw_load(&s->enclosed, r));
    return bbw_andnot(bbw_or(bbw_load(mask, r), em), bbw_or(bbw_load(&s->water, r), open));
}

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
        bb_w gw = bbw_west(wg), ge = bbw_east(wg);
        wtodo = bbw_andnot(wtodo, bbw_or(bbw_or(bbw_and(gw, ge), bbw_and(bbw_or(gw, ge), bbw_or(gn, gs))),
                                         bbw_and(gn, gs)));
        /* the cells of G above the window's first row and below its last:
         * row 0 of gn, row 7 of gs */
        bb_w ext = bbw_or(bbw_and(gn, bbw_first_row()), bbw_and(gs, bbw_last_row()));
        while (bbw_any(wtodo)) {
            uint64_t lo = bbw_lo(wtodo), hi = bbw_hi(wtodo);
            bb_w area = lo ? bbw_make(lo & -lo, 0) : bbw_make(0, hi & -hi); /* the lowest cell */
            int k;
            for (;;) {
                bb_w n = bbw_nb(area), t = bbw_and(n, wg), u = bbw_and(area, ext);
                /* u: the window's first row and its last, one word each
                 * and not at one bit of both */
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
        uint64_t colsc = bb_fold(&cand), colso = bb_fold(&open);
        for (int d = 0; d < 4; d++) {
            int at = d == 0 ? x0 - 1 : d == 1 ? x1 + 1 : d == 2 ? y0 - 1 : y1 + 1;
            if (at < 0 || at > (d < 2 ? BB_XMAX : BB_YMAX)) continue;
            /* whether the side holds a cell: a column of the words folded
             * into one (bb_fold), a row's two bytes (bb_row16) */
            if (d < 2 ? !bb_fold_has_col(colsc, at) : !bb_row16(&cand, at)) continue;
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
                join = lost < 0 || lost > (d < 2 ? BB_XMAX : BB_YMAX) ||
                       !(d < 2 ? bb_fold_has_col(colso, next) : bb_row16(&open, next) != 0);
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
        for (int i = 0; i < BB_WORDS; i++) {
            uint64_t rw = 0;
            for (uint64_t t = BB_WORD(s->dock, i) & ~BB_WORD(s->enclosed, i); t; t &= t - 1) {
                int b = __builtin_ctzll(t);
                const kontor_card *u = &cards[s->cell_card[bb_cell_of(s->cfg, BB_BIT_AT(i, b))]];
                uint64_t one = (uint64_t)(u->kind == KONTOR_KIND_BRIDGE) |
                               (uint64_t)(u->kind == KONTOR_KIND_GOODS && u->goods[0] + u->goods[1] + u->goods[2] == 1);
                rw |= one << b;
            }
            BB_WORD(r, i) = rw;
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
