/* window.c: the part of the 16x16 grid that a config's cards can ever reach
 * (issue 17's narrow board).
 *
 * The cells keep their public numbers (y * 16 + x: moves, events, records,
 * the protocol), but a board never covers the grid: its extent is at most
 * width x height (R5) around its start, so a card can lie only within
 * width - 1 columns and height - 1 rows of every start card, or on a fixed
 * board's cells. That window is 7x7 for the basic game (6 wide from the
 * water cross), 9x9 for the advanced (7), 11x11 for the game for four,
 * Gigant and Kleinen (8 from the cross, 6 from the centre alone), 9x9 for
 * Gulliver (5 from the centre) and 12x4 for Canale's fixed board: at most
 * 128 cells, two 64-bit words, where the grid's sets are four. The window is
 * worked out here once, when a config is interned, with the tables that map
 * a cell to its bit and back and the column masks that neighbours by shifts
 * need; a config whose window would exceed 128 cells is refused. */
#include <stdio.h>
#include <string.h>

#include "core/bb.h"
#include "core/window.h"
#include "kontor/kontor.h"

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The neighbours of each bit by shape (stride, rows: 1..16 each), built the
 * first time a config of that shape is interned (intern.c's lock is held)
 * and never changed after: 256 shapes x 2 KiB of zero pages, touched only
 * for the shapes in use. */
static uint64_t near_of_shape[KONTOR_GRID][KONTOR_GRID][KONTOR_WINDOW_MAX][2];
static uint8_t shape_built[KONTOR_GRID][KONTOR_GRID];

static const uint64_t (*shape_near(int stride, int rows))[2] {
    uint64_t(*t)[2] = near_of_shape[stride - 1][rows - 1];
    if (!shape_built[stride - 1][rows - 1]) {
        for (int b = 0; b < stride * rows; b++) {
            int x = b % stride, y = b / stride;
            int nbs[4] = {x > 0 ? b - 1 : -1, x < stride - 1 ? b + 1 : -1, y > 0 ? b - stride : -1,
                          y < rows - 1 ? b + stride : -1};
            for (int i = 0; i < 4; i++)
                if (nbs[i] >= 0) t[b][nbs[i] >> 6] |= 1ULL << (nbs[i] & 63);
        }
        shape_built[stride - 1][rows - 1] = 1;
    }
    return (const uint64_t(*)[2])t;
}

kontor_status kontor__window(const kontor_config *cfg, kontor_window *out, kontor_error *err) {
    int x0, x1, y0, y1;
    if (cfg->fixed_board) {
        /* the fixed board's bounding box */
        x0 = y0 = KONTOR_GRID, x1 = y1 = -1;
        for (bb_t t = cfg->board_mask; bb_any(t);) {
            int c = bb_pop(&t);
            if (bb_x(c) < x0) x0 = bb_x(c);
            if (bb_x(c) > x1) x1 = bb_x(c);
            if (bb_y(c) < y0) y0 = bb_y(c);
            if (bb_y(c) > y1) y1 = bb_y(c);
        }
        if (x1 < 0) x0 = x1 = y0 = y1 = bb_x(KONTOR_CENTRE_CELL);
    } else {
        /* the start's extent (the centre and the start layout's cells), then
         * every cell within width - 1 (height - 1) of its far side */
        int sx0 = bb_x(KONTOR_CENTRE_CELL), sx1 = sx0, sy0 = bb_y(KONTOR_CENTRE_CELL), sy1 = sy0;
        for (int i = 0; i < cfg->layout_n && i < KONTOR_LAYOUT_MAX; i++) {
            int c = cfg->layout[i];
            if (bb_x(c) < sx0) sx0 = bb_x(c);
            if (bb_x(c) > sx1) sx1 = bb_x(c);
            if (bb_y(c) < sy0) sy0 = bb_y(c);
            if (bb_y(c) > sy1) sy1 = bb_y(c);
        }
        int w = cfg->width ? cfg->width : 1, h = cfg->height ? cfg->height : 1;
        x0 = clampi(sx1 - (w - 1), 0, BB_XMAX), x1 = clampi(sx0 + (w - 1), 0, BB_XMAX);
        y0 = clampi(sy1 - (h - 1), 0, BB_YMAX), y1 = clampi(sy0 + (h - 1), 0, BB_YMAX);
        if (x0 > sx0) x0 = sx0; /* a start wider than the board: its cards still lie in the window */
        if (x1 < sx1) x1 = sx1;
        if (y0 > sy0) y0 = sy0;
        if (y1 < sy1) y1 = sy1;
    }
    int stride = x1 - x0 + 1, rows = y1 - y0 + 1;
    if (stride * rows > KONTOR_WINDOW_MAX) {
        if (err) {
            memset(err, 0, sizeof *err);
            err->code = KONTOR_E_RANGE;
            snprintf(err->msg, sizeof err->msg,
                     "a %dx%d board %s reaches %dx%d cells, more than the %d a game's board holds; make width or "
                     "height smaller",
                     cfg->width, cfg->height, cfg->fixed_board ? "(fixed)" : cfg->layout_n ? "from its start" : "from the centre alone",
                     stride, rows, KONTOR_WINDOW_MAX);
        }
        return KONTOR_E_RANGE;
    }
    memset(out, 0, sizeof *out);
    out->x0 = (uint8_t)x0, out->y0 = (uint8_t)y0;
    out->stride = (uint8_t)stride, out->rows = (uint8_t)rows;
    out->shift[0] = (uint64_t)stride, out->shift[1] = (uint64_t)(64 - stride);
    out->near = shape_near(stride, rows);
    memset(out->bit_of, KONTOR_NONE, sizeof out->bit_of);
    memset(out->cell_of, KONTOR_NONE, sizeof out->cell_of);
    for (int r = 0; r < rows; r++)
        for (int x = 0; x < stride; x++) {
            int b = r * stride + x, c = bb_xy(x0 + x, y0 + r);
            out->bit_of[c] = (uint8_t)b;
            out->cell_of[b] = (uint8_t)c;
            out->all[b >> 6] |= 1ULL << (b & 63);
            if (x == 0) out->col0[b >> 6] |= 1ULL << (b & 63);
            if (x == stride - 1) out->collast[b >> 6] |= 1ULL << (b & 63);
        }
    return KONTOR_OK;
}
