/* sets.c: the state's sets of cells and its cards by cell, in the public form.
 *
 * The board's sets of a kontor_state (occ, water, dock, ..., cells_water) and
 * its cell_card are the core's working form, which issue 17 narrows from the
 * 16x16 grid to a window around the config's board so that the hot path moves
 * fewer words. Every reader outside the core (the clients, the server's JSON,
 * records, the protocol, the tests) goes through these two functions instead
 * of the fields, and gets the public form: a kontor_bb of the 16x16 grid
 * (cell = y * 16 + x, kontor_cell) and a card per grid cell. While the working
 * form is still the grid they are plain copies; the change of form then
 * touches this file and the core alone, and tests/test_sets.c pins that what
 * they return is what the fields hold.
 */
#include "kontor/kontor.h"

kontor_bb kontor_state_set(const kontor_state *s, kontor_set which) {
    switch (which) {
    case KONTOR_SET_OCC: return s->occ;
    case KONTOR_SET_WATER: return s->water;
    case KONTOR_SET_DOCK: return s->dock;
    case KONTOR_SET_TEAM_DOCK0: return s->team_dock[0];
    case KONTOR_SET_TEAM_DOCK1: return s->team_dock[1];
    case KONTOR_SET_CRANE0: return s->crane[0];
    case KONTOR_SET_CRANE1: return s->crane[1];
    case KONTOR_SET_SHIPSYM: return s->shipsym;
    case KONTOR_SET_ENCLOSED: return s->enclosed;
    case KONTOR_SET_MASK: return s->mask;
    case KONTOR_SET_FRONT: return s->front;
    case KONTOR_SET_CRANE_NEAR0: return s->crane_near[0];
    case KONTOR_SET_CRANE_NEAR1: return s->crane_near[1];
    case KONTOR_SET_CUSTOMS: return s->customs;
    case KONTOR_SET_CELLS: return s->cells;
    case KONTOR_SET_CELLS_WATER: return s->cells_water;
    case KONTOR_SET_COUNT: break;
    }
    kontor_bb none = {{0, 0, 0, 0}};
    return none;
}

int kontor_state_card_at(const kontor_state *s, int cell) {
    return cell >= 0 && cell < KONTOR_CELLS ? s->cell_card[cell] : KONTOR_NONE;
}
