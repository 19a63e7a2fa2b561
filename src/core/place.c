/* place.c: the place phase: laying a card (do_place, and the playout's
 * playout_place), a special card's (a flood, a bridge, a customs house),
 * scoring the areas it closes (score_placed, the test itself in area.c),
 * Aktionstafeln's tiles it wins, the end checks (R9), the draw and the coin,
 * and the end of the turn. The playout's placement is here with place_n,
 * whose code it shares (after_scoring_in, score_placed: always inline), so
 * that the hot caller and its callees stay one translation unit. Split from
 * round.c (issue 17: no file of the core over ~800 lines). */
#include <stdio.h>
#include <string.h>

#include "core/rules.h"

/* Lay a special card; as_water only matters for a customs house. */
__attribute__((noinline)) static void place_special(kontor_state *s, int seat, int cell, int id, int as_water,
                                                   kontor_log *log) {
    const kontor_card *k = card_of(s, id);
    if (k->kind == KONTOR_KIND_CUSTOMS) {
        place_as(s, cell, id, as_water);
        log_ev(log, KONTOR_EV_PLACE, seat, id, cell, as_water);
        return;
    }
    /* a flood or a bridge covers the card on cell, which stays under it
     * (with the Exportlager, its exported warehouses stay exported) */
    int under = s->cell_card[cell];
    export_clear(s, under);
    if (s->cfg->tiles) tile_bonus_moves(s, cell);
    if (s->nunder < KONTOR_UNDER_MAX) {
        s->under_cell[s->nunder] = (uint8_t)cell;
        s->under_card[s->nunder] = (uint8_t)under;
        s->nunder++;
    }
    remove_raw(s, cell);
    place_as(s, cell, id, k->kind == KONTOR_KIND_FLOOD);
    log_ev(log, KONTOR_EV_OVERBUILD, seat, id, cell, under);
}

/* do_place in two copies, one without a log (the playouts'), as resolve_n:
 * no log_ev test left in it (a random game: basic 32,605 -> 32,376
 * instructions, four 71,470 -> 70,998; session ten). */
__attribute__((always_inline)) static inline void place_n(kontor_state *s, int value, int as_water, kontor_log *log);
__attribute__((always_inline)) static inline void after_scoring_in(kontor_state *s, int seat, int water, int special,
                                                                   int plain, kontor_log *log);
__attribute__((always_inline)) static inline void draw_after(kontor_state *s, int seat, int water, kontor_log *log);

void do_place(kontor_state *s, int value, int as_water, kontor_log *log) {
    if (!log) place_n(s, value, as_water, NULL);
    else place_n(s, value, as_water, log);
}

/* A placement's scoring, place_n's and the playout's (playout_placed): the
 * area of a dock card, the areas next to a water card (enclose_at, from the
 * cell); and when the extent grew, the areas next to cells that just became
 * unplayable (only they can have been closed by the new edge). */
__attribute__((always_inline)) static inline void score_placed(kontor_state *s, int seat, int value, int water,
                                                               int special, int grew, bb_t mask_before,
                                                               kontor_log *log) {
    if (!grew && !s->cfg->inner_value) {
        if (may_enclose(s, value, water)) enclose_at(s, value, water, log);
        after_scoring(s, seat, water, special, log);
        return;
    }
    bb_t candidates = water ? bb_around(value) : bb_cell(value);
    if (grew) {
        /* with edge=both every unplayable cell may have begun to close areas */
        bb_t newly = s->cfg->edge_both ? bb_andnot(bb_all(), s->mask) : bb_andnot(mask_before, s->mask);
        candidates = bb_or(candidates, bb_neighbours(newly));
    }
    check_enclosures(s, candidates, log);
    after_scoring(s, seat, water, special, log);
}

__attribute__((always_inline)) static inline void place_n(kontor_state *s, int value, int as_water, kontor_log *log) {
    int seat = s->order[s->turn];
    int id = s->choice[seat];
    if (value == KONTOR_NONE) { /* optional_place: declined */
        take_back(s, seat, KONTOR_TAKEBACK_DECLINED, log);
        next_turn(s, log);
        return;
    }
    const kontor_card *k = card_of(s, id);
    int special = is_special(k);
    bb_t mask_before;
    s->last_layer = (uint8_t)seat;
    int water, grew;
    if (special) {
        mask_before = s->mask;
        place_special(s, seat, value, id, as_water, log);
        water = bb_test(&s->water, value);
        grew = !bb_eq(mask_before, s->mask);
    } else {
        /* the mask changed (and what it was in mask_before); the card is
         * public since its reveal (resolve_n) */
        grew = place_card(s, value, id, is_water(k), &mask_before, 0);
        log_ev(log, KONTOR_EV_PLACE, seat, id, value, 0);
        water = is_water(k);
        if (s->cfg->export_store && k->kind == KONTOR_KIND_GOODS && s->cfg->nseats == 2) {
            /* Exportlager: the warehouses go in after the player says whether
             * one goes to his export store; the area is scored after that */
            s->placed_cell = (uint8_t)value;
            s->phase = KONTOR_PHASE_EXPORT;
            return;
        }
    }
    score_placed(s, seat, value, water, special, grew, mask_before, log);
}

/* The playout's entry (issue 17): the usual card (from a hand, not special,
 * inside the extent, no KONTOR__HOOK_PLACE) is laid by a path whose every
 * call is a jump, with no stack frame; the rest goes to do_place or to the
 * functions below, each place_n's own code from where the path left it
 * (session twelve). The card's neighbours are one register of the eight
 * rows around it, for the frontier, a crane's neighbours and both enclosure
 * tests; its byte stores first, its colour and ship read where used, the
 * seat and the cell unsigned indices (three saved registers, were six): basic
 * 20,417 -> 19,324 with the start's cache (session thirteen, docs/engine-speed.md). */
/* The card lies (lay_bits) outside the extent, or a scenario's rule comes
 * next. */
/* A board that grows, no placement rule, the unplayable cells close areas
 * as soon as they are (no edge=both): grow_mask_step (session thirteen),
 * inline in playout_place_out. */
__attribute__((always_inline)) static inline void playout_grown(kontor_state *s, int seat, int value, int water) {
    bb_t lines;
    if (grow_mask_step(s, value, &lines)) {
        /* the card's cell, or its neighbours (BB_NEAR's three words),
         * added to the lines in place (bb_or of bb_around's four bit
         * sets cost basic 38 instructions a game, advanced 78) */
        size_t b = bb_bit(s->cfg, (unsigned)value);
        if (water) bb_or_near(&lines, bb_near_of(s->cfg, b), b);
        else BB_WORD(lines, BB_WORD_OF(b)) |= BB_MASK_OF(b);
        enclose_lines_quiet(s, &lines);
    } else if (may_enclose_at(s, value, water, ~0ULL)) {
        enclose_at(s, value, water, NULL);
    }
    after_scoring_in(s, seat, water, 0, 1, NULL);
}
__attribute__((noinline)) static void playout_placed(kontor_state *s, int seat, int value, int water, int outside) {
    bb_t mask_before = s->mask;
    int grew = outside && grow_extent(s, value) ? update_mask(s) : 0;
    if (s->cfg->export_store && card_of(s, s->choice[seat])->kind == KONTOR_KIND_GOODS && s->cfg->nseats == 2) {
        s->placed_cell = (uint8_t)value;
        s->phase = KONTOR_PHASE_EXPORT;
        return;
    }
    score_placed(s, seat, value, water, 0, grew, mask_before, NULL); /* place_n's scoring from here */
}
/* The card may have closed an area (may_enclose): place_in has drawn
 * already (draw_after), this is after_scoring_in's end for the usual card. */
__attribute__((noinline)) static void playout_enclose(kontor_state *s, int value, int water) {
    enclose_quiet(s, value, water);
    if (board_full(s)) {
        end_game(s, KONTOR_END_FULL, NULL);
        return;
    }
    next_turn_quiet(s);
}
/* The draw first, then the enclosure test and the turn's end: the scoring
 * reads nothing the draw writes (the hands, the piles and their public
 * tops, the treasury and the coins) nor the draw anything the scoring
 * writes, so the order is free; after_scoring_in's R9 test comes first
 * (a full board ends the game without the draw). playout_enclose then
 * saves one register across its call, not the seat and the card's kind
 * too, and has no draw of its own. */
__attribute__((always_inline)) static inline void playout_draw_enclose(kontor_state *s, size_t seat, int value,
                                                                       int water) {
    if (!board_full(s) || s->cfg->final_draw) draw_after(s, (int)seat, water, NULL);
    playout_enclose(s, value, water);
}
/* The usual card outside the extent, or a scenario's rule (out of line: 7%
 * of a basic game's placements; playout_place tests the extent before it
 * lays the card, and keeps no answer in a register across its work): the
 * card laid here, then playout_grown on a board that grows (inline here,
 * not in playout_placed: no frame for place_n's scoring; basic -15
 * instructions a game, advanced -29), else playout_placed. */
__attribute__((noinline)) static void playout_place_out(kontor_state *s, int value) {
    size_t seat = s->order[s->turn], c = (unsigned)value;
    int id = s->choice[seat];
    const kontor_card *k = card_of(s, id);
    int water = is_water(k), outside = outside_win(s, c);
    bb_w occ;
    playout_lay(s, seat, c, id, k, water, &occ);
    if (outside && !(s->hooks & KONTOR__HOOK_PLACE) && !s->cfg->fixed_board && !s->cfg->edge_both) {
        playout_grown(s, (int)seat, value, water);
        return;
    }
    playout_placed(s, (int)seat, value, water, outside);
}
/* maybe_none: value may be KONTOR_NONE (optional placing); maybe_special:
 * the card may be a special card (cfg.specials): else their tests go
 * (playout_place_cell and playout_place_usual, the playout's loop). */
__attribute__((always_inline)) static inline void place_in(kontor_state *s, int value, int as_water, int maybe_none,
                                                           int maybe_special, int maybe_hook) {
    size_t seat = s->order[s->turn]; /* a register's width: no second copy for the indices */
    if (maybe_none && value == KONTOR_NONE) {
        do_place(s, value, as_water, NULL);
        return;
    }
    int id = s->choice[seat];
    const kontor_card *k = card_of(s, id);
    if (maybe_special && is_special(k)) {
        do_place(s, value, as_water, NULL);
        return;
    }
    size_t c = (unsigned)value; /* the indices: no sign to extend */
    /* the card's byte stores first (they may alias anything: nothing is
     * read again after them); playout_place_out makes them again */
    s->last_layer = (uint8_t)seat;
    s->cell_card[c] = (uint8_t)id;
    /* || and not |: two tests and jumps, and the two saved registers pushed
     * after them (basic -88 instructions a game, advanced -139) */
    if (outside_win(s, c) || (maybe_hook && (s->hooks & KONTOR__HOOK_PLACE))) {
        playout_place_out(s, value);
        return;
    }
    int water = is_water(k);
    bb_w occ;
    bb_w around = playout_lay(s, seat, c, id, k, water, &occ);
    size_t r2 = place_win_of(s->cfg, c)->r2;
    /* may_enclose_at with the edges closed (with edge=both before they
     * close, it lets more cards through: fewer gaps, and enclose_at
     * decides), in the same window: the gaps are free cells of the mask */
    bb_w gap = bbw_andnot(bbw_at(&s->mask, r2), occ);
    /* Two steps from the card, not one: an open dock card next to a gap
     * (near) keeps open the area of every open dock card beside it, so a
     * dock card with such a neighbour, and a water card whose open
     * neighbours each have one or are next to a gap, close nothing. The
     * window's near lacks the gaps beyond its first and last rows, which
     * only lets more cards through to enclose_quiet (it decides). Of the
     * 7.5 calls a basic game, 5.7 are left, 1.2 of them closing nothing
     * (was 2.8): basic -53 instructions a game, advanced -142, four -233
     * (session sixteen). */
    if (water) {
        /* the open dock cards next to it first: with none, no gaps'
         * neighbours to work out (basic -24 instructions a game) */
        bb_w open = bbw_andnot(bbw_at(&s->dock, r2), bbw_at(&s->enclosed, r2));
        bb_w cand = bbw_and(around, open);
        if (bbw_any(cand)) {
            bb_w near = bbw_nb(gap);
            cand = bbw_andnot(cand, near);
            if (bbw_any(cand) && bbw_any(bbw_andnot(cand, bbw_nb(bbw_and(open, near))))) {
                playout_draw_enclose(s, seat, value, 1);
                return;
            }
        }
    } else if (!bbw_any(bbw_and(around, gap))) {
        bb_w open = bbw_andnot(bbw_at(&s->dock, r2), bbw_at(&s->enclosed, r2));
        if (!bbw_any(bbw_and(bbw_and(around, open), bbw_nb(gap)))) {
            playout_draw_enclose(s, seat, value, 0);
            return;
        }
    }
    after_scoring_in(s, (int)seat, water, 0, 1, NULL);
}
void playout_place(kontor_state *s, int value, int as_water) { place_in(s, value, as_water, 1, 1, 1); }
/* value a cell of s->cells (not KONTOR_NONE), in a game without
 * KONTOR__HOOK_PLACE (the caller tested): the card on a cell */
void playout_place_cell(kontor_state *s, int value) { place_in(s, value, 0, 0, 1, 0); }
/* the same, and the card not special: a game without cfg.specials, where
 * none is dealt (test_playout's no_special_card_is_dealt_without_specials) */
void playout_place_usual(kontor_state *s, int value) { place_in(s, value, 0, 0, 0, 0); }

/* The rest of a placement after the areas are scored: the end checks, the
 * draw and the coin, the next turn. */

/* Aktionstafeln: a water card with a tile has just been closed in on all four
 * sides by a placement: its tile goes to the player who laid that card. One
 * placement can close at most one (no cell touches two ends of the cross).
 * Coins, the ship and the point take effect at once; the centre and the
 * warehouses are decisions, taken after the draw (s->tile_cur). */
__attribute__((noinline)) static void check_tiles(kontor_state *s, int seat, kontor_log *log) {
    for (int k = 0; k < 4; k++) {
        if (s->tile_at[k] == KONTOR_NONE) continue;
        int c = kontor_cell(cross_end[k][0], cross_end[k][1]);
        bb_t around = bb_around(c);
        if (!bb_eq(bb_and(around, s->occ), around)) continue;
        int tile = s->tile_at[k], team = kontor_team(s, seat);
        s->tile_at[k] = KONTOR_NONE;
        log_ev(log, KONTOR_EV_TILE, seat, KONTOR_NONE, c, tile);
        uint8_t got[KONTOR_MAX_SEATS];
        if (tile == 4 || tile == 5) /* one or two coins from the bank, as far as it goes */
            for (int i = 0; i < tile - 3; i++) pay_out(s, 1u << seat, got);
        else if (tile == 6) s->ship_owner = (uint8_t)team;
        else if (tile == 7) s->bonus_points[team]++;
        else s->tile_cur = (uint8_t)tile; /* "muss sofort ausfuehren, sonst verfallen sie" */
    }
}

/* A tile's decision (s->tile_cur) after the draw: 1 when seat has one to
 * take (the tile phase), else the tile is lost. Out of line: the placement
 * keeps its move list off its own stack. */
__attribute__((noinline)) static int tile_waits(kontor_state *s, int seat) {
    kontor_move m[KONTOR_MAX_MOVES];
    if (tile_options(s, seat, s->tile_cur, m) > 1) {
        s->phase = KONTOR_PHASE_TILE;
        return 1;
    }
    s->tile_cur = KONTOR_NONE; /* nothing it could do: the tile is lost */
    return 0;
}

/* The draw after a usual card (not a special card, which draws none and
 * earns no coin): the same kind, from the top of the pile (a public
 * card), and a coin for a water card. after_scoring_in's, and the
 * playout's before an enclosure test (place_in). */
__attribute__((always_inline)) static inline void draw_after(kontor_state *s, int seat, int water, kontor_log *log) {
    size_t p = (unsigned)seat; /* the indices: no sign to extend */
    /* draw the same kind, from the top of the pile (a public card);
     * no card is drawn after a special card, and it earns no coin */
    kontor_pile *pile = water ? &s->water_pile : s->dock_pile + p;
    int n = pile->n;
    if (n) {
        /* pile_draw, then pile_top of what is left, with the head and
         * the count read once (a random game: basic 26,193 -> 26,083
         * instructions, advanced 41,462 -> 41,294, four 61,783 ->
         * 61,578; session eleven) */
        int head = pile->head, drawn = s->pile_card[head];
        head++;
        pile->head = (uint8_t)head;
        pile->n = (uint8_t)(n - 1);
        if (s->hand_n[p] < KONTOR_HAND_MAX) s->hand[p][s->hand_n[p]++] = (uint8_t)drawn; /* hand_add */
        log_ev(log, KONTOR_EV_DRAW, seat, drawn, KONTOR_NONE, 0);
        if (n > 1) { /* pub_set without its test: a pile holds cards of the set only
                        (property_piles_hold_only_cards_of_the_set) */
            size_t top = s->pile_card[(unsigned)head];
            s->pub[top >> 6] |= 1ULL << (top & 63);
        }
    }
    if (water && s->treasury) {
        s->treasury--;
        s->coins[p]++;
        log_ev(log, KONTOR_EV_COIN, seat, KONTOR_NONE, KONTOR_NONE, 1);
    }
}

/* plain: neither Aktionstafeln nor Tic Tac Toe (the caller tested). */
__attribute__((always_inline)) static inline void after_scoring_in(kontor_state *s, int seat, int water, int special,
                                                                   int plain, kontor_log *log) {
    if (!plain && (s->cfg->tiles | s->cfg->tictactoe)) { /* one test for the two scenarios' rules */
        if (s->cfg->tiles) check_tiles(s, seat, log);
        if (s->cfg->tictactoe && row_ends_game(s, log)) return;
    }
    /* R9: a full board ends the game at once, or after the draw
     * (final_draw); the draw does not change it, so one test (basic -54
     * instructions a game; session sixteen) */
    if (__builtin_expect(board_full(s), 0)) {
        if (s->cfg->final_draw && !special) draw_after(s, seat, water, log);
        end_game(s, KONTOR_END_FULL, log);
        return;
    }
    if (!special) draw_after(s, seat, water, log);
    /* a tile waits only with Aktionstafeln (check_tiles; the deal leaves
     * none): plain has no test */
    if (!plain && s->tile_cur != KONTOR_NONE && tile_waits(s, seat)) return;
    next_turn(s, log);
}
__attribute__((always_inline)) inline void after_scoring(kontor_state *s, int seat, int water, int special,
                                                                kontor_log *log) {
    after_scoring_in(s, seat, water, special, 0, log);
}
