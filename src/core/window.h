/* window.h: a config's window of the grid (issue 17's narrow board; the
 * why in window.c). Internal to the core: a state's config points at its
 * window (kontor_config.win), set by kontor_config_intern. */
#ifndef KONTOR_WINDOW_H
#define KONTOR_WINDOW_H

#include "kontor/kontor.h"

/* At most KONTOR_WINDOW_MAX cells: stride cells a row (its width), rows
 * rows, its cell (x0, y0) at bit 0; bit_of[cell] is a grid cell's bit
 * (KONTOR_NONE outside the window), cell_of[bit] a bit's cell; col0 and
 * collast are the window's first and last column as bits (the masks of the
 * east and west shifts), all its cells. */
typedef struct kontor_window {
    uint8_t x0, y0, stride, rows;
    /* Not the window's: what the deal works out from the config alone, kept
     * with the interned entry (intern.c sets both when a config takes the
     * entry, by kontor__deal_checks): the state's hooks (hooks_of), and
     * whether kontor_new's quick deal may take the config, its card set's
     * counts aside (kontor_new tests those at each deal: a card set is the
     * caller's, and another set may come to the same address). */
    uint8_t hooks, quick;
    uint8_t pad[2];
    uint64_t col0[2], collast[2], all[2];
    uint64_t shift[2]; /* stride and 64 - stride: the counts of nbw_north/nbw_south's shifts (one load) */
    /* near[b]: bit b's neighbours inside the window (empty past its
     * cells): one load for a card's neighbours, where nbw_neighbours of the
     * bit costs 37 instructions. They depend on stride and rows alone, so
     * the windows of one shape share a table (window.c, 2 KiB a shape). */
    const uint64_t (*near)[2];
    uint8_t bit_of[KONTOR_CELLS];
    uint8_t cell_of[KONTOR_WINDOW_MAX];
} kontor_window;

/* Work out cfg's window into *w; KONTOR_E_RANGE, with err filled, when it
 * would hold more than KONTOR_WINDOW_MAX cells. kontor_config_intern calls
 * it for every config it keeps. */
kontor_status kontor__window(const kontor_config *cfg, kontor_window *w, kontor_error *err);

/* deal.c: w's hooks and quick for the config cfg (the entry's, see above). */
void kontor__deal_checks(const kontor_config *cfg, kontor_window *w);

/* intern.c: the entries; a config a state points at is one of them. */
extern kontor_config kontor__config_table[KONTOR_CONFIGS_MAX];

#endif
