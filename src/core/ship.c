/* ship.c: the ship (a card with a ship symbol, R16) and the removal it
 * brings: the ship's cell, the dock card it takes off the board, the pile
 * that card goes under (for four, the remover's choice, R21), and what
 * leaves with it: the Exportlager's warehouses (E2) and Aktionstafeln's
 * extra warehouse (E5). Then the place phase opens (enter_place). The
 * playout's copies (playout_ship, playout_remove) are here with the logged
 * phases they copy, so that the rules they share stay in one translation
 * unit and inline. Split from round.c (issue 17: no file of the core over
 * ~800 lines). */
#include <stdio.h>
#include <string.h>

#include "core/rules.h"

static void enter_place(kontor_state *s, kontor_log *log);
static __attribute__((noinline)) void enter_place_quiet(kontor_state *s);

/* bb_any(removable(s)) for a ship on a cell, without the call and without
 * the set: a dock card with a ship symbol next to it, not in an enclosed
 * area. */
static inline int any_removable(const kontor_state *s) {
    size_t b = (size_t)bb_bit(s->cfg, s->ship_cell);
    return bb_near_any_andnot(&s->shipsym, &s->enclosed, bb_near_of(s->cfg, b), b);
}
/* any_removable in the cell's window (PLACE_WIN, the placement's): its
 * neighbours one load from a table, the two sets' rows around it one load
 * each, no test of the words before and after (the playout's ship) */
static inline int any_removable_win(const kontor_state *s, size_t c) {
    place_win pw = *place_win_of(s->cfg, c);
    size_t r2 = pw.r2;
    return bbw_any(bbw_andnot(bbw_and(place_around(c, pw), bbw_at(&s->shipsym, r2)), bbw_at(&s->enclosed, r2)));
}

void do_ship(kontor_state *s, int value, kontor_log *log) {
    int seat = s->order[s->turn];
    if (value != KONTOR_NONE) {
        s->ship_cell = (uint8_t)value;
        s->ship_moved = 1;
        log_ev(log, KONTOR_EV_SHIP, seat, KONTOR_NONE, value, 0);
        if (any_removable(s)) {
            s->phase = KONTOR_PHASE_REMOVE;
            return;
        }
    }
    enter_place(s, log);
}

/* enter_place in the playout (playout_ship's and playout_remove's): the
 * usual card's cells (not a special card, no scenario's cell rules) worked
 * out inline as start_turn does, not through compute_cells; every other
 * case through enter_place (the same cells: a pure function of the state). */
__attribute__((always_inline)) static inline void playout_enter_place(kontor_state *s) {
    int seat = s->order[s->turn];
    const kontor_card *k = card_of(s, s->choice[seat]);
    /* start_turn's test and cells (put_usual_cells: two windows of eight
     * rows, not legal_cells' four words apiece; the scenarios' cell rules
     * by the state's hooks, not three bytes of the config: advanced
     * 24,906 -> 24,781 a game, four 37,622 -> 37,484) */
    if (!is_special(k) && !(s->hooks & KONTOR__HOOK_CELLS)) {
        s->phase = KONTOR_PHASE_PLACE;
        if (put_usual_cells(s, seat, k)) return; /* compute_cells */
    }
    enter_place_quiet(s); /* a jump: playout_ship saves no register (advanced 28,576 -> 28,472 a game, four 44,080 -> 43,940) */
}

/* do_ship in the playout's loop (decide.c): without a log, the place phase
 * by playout_enter_place. */
void playout_ship(kontor_state *s, int value) {
    if (value != KONTOR_NONE) {
        s->ship_cell = (uint8_t)value;
        s->ship_moved = 1;
        if (any_removable_win(s, (unsigned)value)) {
            s->phase = KONTOR_PHASE_REMOVE;
            return;
        }
    }
    playout_enter_place(s);
}

static void export_on_remove(kontor_state *s, int cell);

/* before_remove and remove_raw in the playout (playout_remove's and
 * playout_remove_pile's): the dock card on cell value leaves the board,
 * without a log; its number, its colour in *colour. */
__attribute__((always_inline)) static inline int take_off_quiet(kontor_state *s, int value, int *colour) {
    {
        size_t c = (unsigned)value; /* the indices: no sign to extend */
        size_t b = bb_bit(s->cfg, c), i = BB_WORD_OF(b);
        int id = s->cell_card[c];
        int team = *colour = card_of(s, id)->colour;
        /* before_remove, its tests inline */
        if (export_mark(s, id)) export_on_remove(s, value);
        if (s->cfg->tiles) tile_bonus_moves(s, value);
        /* remove_raw inline: the card's word and bit once, the byte stores last */
        uint64_t keep = ~BB_MASK_OF(b);
        BB_WORD(s->occ, i) &= keep;
        BB_WORD(s->dock, i) &= keep;
        BB_WORD(s->water, i) &= keep;
        BB_WORD(s->customs, i) &= keep;
        BB_WORD(s->shipsym, i) &= keep;
        if (team < 2) {
            BB_WORD(s->team_dock[team], i) &= keep;
            if (BB_WORD(s->crane[team], i) & ~keep) { /* the cells next to the cranes change only with a crane */
                BB_WORD(s->crane[team], i) &= keep;
                s->crane_near[team] = bb_neighbours(s->crane[team]);
            }
        }
        /* the frontier (the free cells next to a card) changes only on the
         * cell and its neighbours, whose own neighbours lie in the card's
         * window (PLACE_WIN, as the placement's): the free neighbours stay
         * in it when next to a card still, the cell joins it when next to
         * one (remove_raw works the whole out again) */
        place_win pw = *place_win_of(s->cfg, c);
        size_t r2 = pw.r2;
        bb_w around = place_around(c, pw), occ = bbw_at(&s->occ, r2), free_nb = bbw_andnot(around, occ);
        bb_w front = bbw_at(&s->front, r2);
        bbw_put(&s->front, r2, bbw_or(bbw_andnot(front, free_nb), bbw_and(free_nb, bbw_nb(occ))));
        if (bbw_any(bbw_and(around, occ))) BB_WORD(s->front, i) |= ~keep;
        s->ncards_board--;
        s->cell_card[c] = KONTOR_NONE;
        return id;
    }
}

/* do_remove in the playout's loop (playout.c) for two seats (no pile phase):
 * without a log, the place phase by playout_enter_place and not
 * compute_cells (issue 17, session fourteen). Four seats with no card
 * removed too (do_remove's enter_place). */
static __attribute__((noinline)) void remove_two_quiet(kontor_state *s, int value) {
    int team, id = take_off_quiet(s, value, &team);
    pile_put_under(s, &s->dock_pile[team], id); /* put_under_pile without a log; owner_seat of two */
    playout_enter_place(s);
}
/* (half the removal phases remove nothing: their place phase without the
 * removal's frame, the card's removal a jump) */
void playout_remove(kontor_state *s, int value) {
    if (value != KONTOR_NONE) {
        remove_two_quiet(s, value);
        return;
    }
    playout_enter_place(s);
}

/* do_remove of a card and the pile phase after it (do_pile) in the playout's
 * loop for four seats (R21): the card goes under the pile of its team's
 * first seat (second 0) or second (1), the pile phase's draw (rng_below(r,
 * 2): pile_seats' order); without the phase's step through the loop,
 * without a log, the place phase by playout_enter_place (four: do_remove
 * and do_pile's enter_place, ~660 instructions a game). */
void playout_remove_pile(kontor_state *s, int value, unsigned second) {
    int team, id = take_off_quiet(s, value, &team);
    pile_put_under(s, &s->dock_pile[2 * team + second], id); /* owner_seat of four */
    playout_enter_place(s);
}

/* enter_place without a log, out of line: the rare case of playout_ship
 * (a special card, a scenario's cell rule, no legal cell). */
static __attribute__((noinline)) void enter_place_quiet(kontor_state *s) { enter_place(s, NULL); }

static void enter_place(kontor_state *s, kontor_log *log) {
    int seat = s->order[s->turn];
    s->phase = KONTOR_PHASE_PLACE;
    compute_cells(s, seat, s->choice[seat]);
    if (!bb_any(s->cells) && !bb_any(s->cells_water)) {
        take_back(s, seat, KONTOR_TAKEBACK_NOCELL, log);
        next_turn(s, log);
    }
}

static void put_under_pile(kontor_state *s, int to, int id, kontor_log *log) {
    pile_put_under(s, &s->dock_pile[to], id); /* a public card: it was on the board */
    if (log && log->n && log->ev[log->n - 1].kind == KONTOR_EV_REMOVE) log->ev[log->n - 1].a = (uint16_t)to;
}

/* Exportlager: a card that sent warehouses to the export store leaves the
 * board (ship or bribe). Its owner takes its warehouses out of the area;
 * "hat kein Lagerhaus fuer die entsprechende Ware in dem Gebiet, so muss er
 * das Lagerhaus aus seinem Exportlager nehmen" (and only then). Warehouses
 * belong to cards here, so one taken from the area instead of the export
 * store is a mark that moves to another card of the same good (ruling E2). */
static void export_on_remove(kontor_state *s, int cell) {
    const kontor_card *k = card_of(s, s->cell_card[cell]);
    int t = k->colour;
    bb_t area = bb_and(bb_flood(bb_cell(cell), s->dock), s->team_dock[t]);
    for (int g = 0; g < 3; g++) {
        int kx = (export_mark(s, s->cell_card[cell]) >> (2 * g)) & 3;
        if (!kx) continue;
        int net = 0; /* the player's warehouses of g in the area's store */
        for (bb_t a = area; bb_any(a);) {
            int c = bb_pop(&a);
            const kontor_card *u = card_of(s, s->cell_card[c]);
            if (u->kind == KONTOR_KIND_GOODS) net += u->goods[g] - ((export_mark(s, s->cell_card[c]) >> (2 * g)) & 3);
        }
        int need = k->goods[g];
        int from_export = need > net ? need - net : 0;
        int left = net >= need ? net - need : 0;
        int others = net - (need - kx); /* what the other cards hold now */
        int add = others - left;        /* marks that move to other cards */
        s->export_n[t][g] = (uint8_t)(s->export_n[t][g] - from_export);
        for (bb_t a = area; bb_any(a) && add > 0;) {
            int c = bb_pop(&a);
            if (c == cell) continue;
            const kontor_card *u = card_of(s, s->cell_card[c]);
            int m = (export_mark(s, s->cell_card[c]) >> (2 * g)) & 3;
            while (u->kind == KONTOR_KIND_GOODS && m < u->goods[g] && add > 0) {
                export_add(s, s->cell_card[c], g);
                m++, add--;
            }
        }
    }
    export_clear(s, s->cell_card[cell]);
}

/* Aktionstafeln: the dock card on cell, which holds a tile's extra warehouse
 * for its area, leaves the board: the warehouse stays in the area with
 * another card of the same player there, or is lost (ruling E5). */
void tile_bonus_moves(kontor_state *s, int cell) {
    for (int g = 0; g < 3; g++) {
        if (s->tile_bonus[g] != cell) continue;
        int t = card_of(s, s->cell_card[cell])->colour;
        bb_t rest = bb_and(bb_flood(bb_cell(cell), s->dock), s->team_dock[t < 2 ? t : 0]);
        bb_clear(&rest, cell);
        s->tile_bonus[g] = bb_any(rest) ? (uint8_t)bb_first(rest) : KONTOR_NONE;
    }
}

/* A dock card is about to leave the board (ship, bribe, event). */
void before_remove(kontor_state *s, int cell) {
    if (export_mark(s, s->cell_card[cell])) export_on_remove(s, cell);
    if (s->cfg->tiles) tile_bonus_moves(s, cell);
}

void do_remove(kontor_state *s, int value, kontor_log *log) {
    int seat = s->order[s->turn];
    if (value != KONTOR_NONE) {
        int id = s->cell_card[value];
        int team = card_of(s, id)->colour;
        before_remove(s, value);
        remove_raw(s, value);
        log_ev(log, KONTOR_EV_REMOVE, seat, id, value, owner_seat(s, team));
        if (s->cfg->nseats == 4) {
            /* the remover chooses which player of the card's team takes it (R21) */
            s->removed_card = (uint8_t)id;
            s->phase = KONTOR_PHASE_PILE;
            return;
        }
        put_under_pile(s, owner_seat(s, team), id, log);
    }
    enter_place(s, log);
}

void do_pile(kontor_state *s, int value, kontor_log *log) {
    int id = s->removed_card;
    s->removed_card = KONTOR_NONE;
    pile_put_under(s, &s->dock_pile[value], id);
    log_ev(log, KONTOR_EV_REMOVE, s->order[s->turn], id, KONTOR_NONE, value);
    enter_place(s, log);
}
