/* closing.h: the cells that close an area and the cells that keep it open
 * (R7, and Die grosse Insel's dead cells, V15). Both the enclosure test
 * (area.c) and the placement rules of the cells (cells.c: a customs house,
 * Tic Tac Toe's water, would_enclose) read them, so they live here, static
 * inline as they were in area.c before its split (issue 17: no file of the
 * core over ~800 lines). Not a public header. */
#ifndef KONTOR_CLOSING_H
#define KONTOR_CLOSING_H

#include "core/rules.h"

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

#endif
