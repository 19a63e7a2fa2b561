/* tiles.c: expansion 3, Aktionstafeln: where the harbour centre may move
 * (tile 1), the choices a won tile offers and carrying one out. Split from
 * round.c (issue 17: no file of the core over ~800 lines); when a tile is
 * won is decided where a card is placed (place.c). */
#include "core/rules.h"

/* The centre card's cell now (tile 1 can move it). */
int centre_cell(const kontor_state *s) {
    if (s->cell_card[KONTOR_CENTRE_CELL] == s->cfg->cards->centre) return KONTOR_CENTRE_CELL;
    for (int c = 0; c < KONTOR_CELLS; c++)
        if (s->cell_card[c] == s->cfg->cards->centre) return c;
    return KONTOR_CENTRE_CELL;
}

/* Where the harbour centre may go (tile 1): a free cell where a water card
 * could be laid once the centre has left its cell, not that cell itself. */
static bb_t centre_targets(const kontor_state *s, int seat) {
    kontor_state t = *s;
    int from = centre_cell(s);
    remove_raw(&t, from);
    bb_t r = legal_cells(&t, seat, s->cfg->cards->centre);
    bb_clear(&r, from);
    return r;
}

/* The decisions of a tile for seat, KONTOR_NONE (forgo) first. */
int tile_options(const kontor_state *s, int seat, int tile, kontor_move *moves) {
    int n = 0;
    moves[n++] = KONTOR_MOVE(KONTOR_MOVE_TILE, KONTOR_NONE);
    if (tile == 0) {
        bb_t t = centre_targets(s, seat);
        while (bb_any(t)) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_TILE, bb_pop(&t));
    } else if (tile >= 1 && tile <= 3) {
        /* one of his central stores: an open area where he has goods; named
         * by its lowest cell holding one of his goods cards */
        int team = kontor_team(s, seat);
        bb_t mine = bb_andnot(s->team_dock[team], s->enclosed), done = bb_empty();
        while (bb_any(mine)) {
            int c = bb_pop(&mine);
            if (bb_test(&done, c) || card_of(s, s->cell_card[c])->kind != KONTOR_KIND_GOODS) continue;
            done = bb_or(done, bb_flood(bb_cell(c), s->dock));
            moves[n++] = KONTOR_MOVE(KONTOR_MOVE_TILE, c);
        }
    }
    return n;
}

void do_tile(kontor_state *s, int value, kontor_log *log) {
    int tile = s->tile_cur;
    s->tile_cur = KONTOR_NONE;
    if (value != KONTOR_NONE && tile == 0) {
        int from = centre_cell(s);
        remove_raw(s, from);
        place_as(s, value, s->cfg->cards->centre, 1);
        if (s->ship_cell == from) s->ship_cell = (uint8_t)value; /* the ship sails with it */
        check_enclosures(s, s->dock, log);
        if (row_ends_game(s, log)) return;
    } else if (value != KONTOR_NONE) {
        s->tile_bonus[tile - 1] = (uint8_t)value;
    }
    s->phase = KONTOR_PHASE_PLACE;
    if (board_full(s)) {
        end_game(s, KONTOR_END_FULL, log);
        return;
    }
    turn_done(s, log);
}
