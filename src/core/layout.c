/* layout.c: start layouts as data: the board and the water cards of a scenario.
 *
 * Four scenarios start from a layout that the rulebook gives only as a figure
 * (Canale Grande, Wasserspiele, Tic Tac Toe, Die grosse Insel). Their layouts
 * are reconstructions, so they live in small text files (data/layouts/NAME.txt,
 * compiled in by the Makefile) that a person holding the printed rulebook can
 * correct without touching code. The format is one statement a line:
 *
 *   size WxH        the board grows to at most W x H cells (the usual rule; W, H 3..8)
 *   fixed WxH X,Y   the board is fixed from the start: W x H cells, top-left X,Y
 *                   (W, H 3..12, and at most 64 cells: KONTOR_MAX_AREAS, kontor.h)
 *   water X,Y       a start water card from the top of the pile, in this order
 *   inner X,Y       an inner cell (Die grosse Insel): no water, its area scores more
 *
 * with cells relative to the harbour centre (x east, y south) and '#' comments.
 * A bad line is an error naming the line, like every parser of outside input.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bb.h"
#include "core/window.h"
#include "kontor/kontor.h"

__attribute__((format(printf, 4, 5)))
static kontor_status fail(kontor_error *err, const char *name, int line, const char *fmt, ...) {
    if (err) {
        char what[200];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        memset(err, 0, sizeof *err);
        err->code = KONTOR_E_PARSE;
        err->line = line;
        snprintf(err->msg, sizeof err->msg, "layout '%s' line %d: %s", name, line, what);
    }
    return KONTOR_E_PARSE;
}

static int parse_size(const char *t, int *w, int *h) {
    char *end;
    long a = strtol(t, &end, 10);
    if (end == t || *end != 'x') return 0;
    const char *u = end + 1;
    long b = strtol(u, &end, 10);
    if (end == u || *end) return 0;
    if (a < 3 || a > 12 || b < 3 || b > 12) return 0;
    *w = (int)a;
    *h = (int)b;
    return 1;
}

kontor_status kontor_layout_parse(kontor_config *cfg, const char *name, const char *text, size_t len,
                                  kontor_error *err) {
    int line = 0, have_board = 0, board_line = 0;
    int fixed = 0, fw = 0, fh = 0, w = cfg->width, h = cfg->height;
    bb_t board = bb_empty(), water = bb_cell(KONTOR_CENTRE_CELL), inner = bb_empty();
    int nwater = 0;
    uint8_t cells[KONTOR_LAYOUT_MAX];
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        line++;
        char buf[128];
        size_t n = (size_t)(le - p);
        if (n >= sizeof buf) return fail(err, name, line, "the line is longer than %d characters", (int)sizeof buf - 1);
        memcpy(buf, p, n);
        buf[n] = 0;
        p = nl ? nl + 1 : end;
        char *hash = strchr(buf, '#');
        if (hash) *hash = 0;
        char *word[4];
        int nw = 0;
        for (char *tok = strtok(buf, " \t\r"); tok; tok = strtok(NULL, " \t\r")) {
            if (nw == 3) return fail(err, name, line, "too many words");
            word[nw++] = tok;
        }
        if (!nw) continue;
        if (strcmp(word[0], "size") == 0 || strcmp(word[0], "fixed") == 0) {
            int is_fixed = word[0][0] == 'f';
            if (have_board) return fail(err, name, line, "the board is given twice");
            if (nw != (is_fixed ? 3 : 2))
                return fail(err, name, line, is_fixed ? "'fixed' wants a size and a corner, like 'fixed 12x4 -5,-1'"
                                                      : "'size' wants a size, like 'size 6x6'");
            if (!parse_size(word[1], &w, &h)) return fail(err, name, line, "'%s' is not a size from 3x3 to 12x12", word[1]);
            /* a board that grows: at most 8x8, as the width and height
             * options (the rulebook's largest board); a fixed one: its cells
             * may hold no more areas than the state keeps (KONTOR_MAX_AREAS:
             * at most half the cells, rounded up) */
            if (!is_fixed && (w > KONTOR_MAX_SIDE || h > KONTOR_MAX_SIDE))
                return fail(err, name, line, "a board that grows is at most %dx%d, not %s", KONTOR_MAX_SIDE,
                            KONTOR_MAX_SIDE, word[1]);
            if ((w * h + 1) / 2 > KONTOR_MAX_AREAS)
                return fail(err, name, line, "a %s board could hold %d areas, more than the %d a game keeps", word[1],
                            (w * h + 1) / 2, KONTOR_MAX_AREAS);
            if (is_fixed) {
                int c = kontor_parse_cell(word[2]);
                if (c < 0) return fail(err, name, line, "'%s' is not a cell like -5,-1", word[2]);
                int x0 = bb_x(c), y0 = bb_y(c);
                if (x0 + w > KONTOR_GRID || y0 + h > KONTOR_GRID) return fail(err, name, line, "the board leaves the 16x16 grid");
                board = bb_rect(x0, x0 + w - 1, y0, y0 + h - 1);
                if (!bb_test(&board, KONTOR_CENTRE_CELL)) return fail(err, name, line, "the board does not hold the harbour centre 0,0");
                fixed = 1, fw = w, fh = h;
            }
            if (nwater) return fail(err, name, line, "the board must come before the cells");
            have_board = 1, board_line = line;
        } else if (strcmp(word[0], "water") == 0 || strcmp(word[0], "inner") == 0) {
            if (nw != 2) return fail(err, name, line, "'%s' wants one cell, like '%s +1,-2'", word[0], word[0]);
            int c = kontor_parse_cell(word[1]);
            if (c < 0 || c == KONTOR_NONE) return fail(err, name, line, "'%s' is not a cell like +1,-2", word[1]);
            if (fixed && !bb_test(&board, c)) return fail(err, name, line, "cell %s is outside the fixed board", word[1]);
            if (bb_test(&water, c) || bb_test(&inner, c))
                return fail(err, name, line, c == KONTOR_CENTRE_CELL ? "cell %s is the harbour centre" : "cell %s is given twice", word[1]);
            if (word[0][0] == 'w') {
                if (nwater == KONTOR_LAYOUT_MAX) return fail(err, name, line, "more than %d water cells", KONTOR_LAYOUT_MAX);
                cells[nwater++] = (uint8_t)c;
                bb_set(&water, c);
            } else {
                bb_set(&inner, c);
            }
        } else {
            return fail(err, name, line, "'%s' is not 'size', 'fixed', 'water' or 'inner'", word[0]);
        }
    }
    if (!have_board) return fail(err, name, line ? line : 1, "the layout has no 'size' or 'fixed' line");
    /* every start card must fit one W x H board */
    bb_t all = bb_or(water, inner);
    int x0 = BB_XMAX, x1 = 0, y0 = BB_YMAX, y1 = 0;
    for (bb_t t = all; bb_any(t);) {
        int c = bb_pop(&t);
        if (bb_x(c) < x0) x0 = bb_x(c);
        if (bb_x(c) > x1) x1 = bb_x(c);
        if (bb_y(c) < y0) y0 = bb_y(c);
        if (bb_y(c) > y1) y1 = bb_y(c);
    }
    if (x1 - x0 + 1 > w || y1 - y0 + 1 > h)
        return fail(err, name, line, "the start cards span %dx%d, more than the %dx%d board", x1 - x0 + 1, y1 - y0 + 1, w, h);
    kontor_config t = *cfg;
    t.width = (uint8_t)(fixed ? fw : w);
    t.height = (uint8_t)(fixed ? fh : h);
    t.fixed_board = (uint8_t)fixed;
    t.board_mask = fixed ? board : bb_empty();
    t.layout_n = (uint8_t)nwater;
    memcpy(t.layout, cells, (size_t)nwater);
    t.inner = inner;
    /* the cells a game can reach from this start must fit the narrow
     * board's window (window.c: at most KONTOR_WINDOW_MAX): refused here,
     * at the board's line, so that a layout that parses deals */
    kontor_window win;
    kontor_error werr;
    if (kontor__window(&t, &win, &werr) != KONTOR_OK) return fail(err, name, board_line, "%s", werr.msg);
    *cfg = t;
    return KONTOR_OK;
}
