/* lazy_curses.c: the ncurses functions and variables of the terminal client
 * (kontor play: tui.h), loaded with the library on first use.
 *
 * Why: loaded at every command's start, ncurses and its libtinfo cost about
 * 470,000 instructions of relocations before main, more than kontor replay
 * spends on a record (docs/engine-speed.md, issue 17); only kontor play draws with it. The
 * functions are defined here with curses.h's own prototypes (lazylib.h says
 * how); the three variables the client reads, stdscr, COLS and LINES, are
 * found by their addresses and read through tui.h's macros. dlsym on
 * libncursesw also finds what lives in libtinfo, which it needs. */
#include <curses.h>
#include <stdarg.h>

#include "server/lazylib.h"

#ifndef LIB_SONAME
#define LIB_SONAME "libncursesw.so.6"
#endif
#define LIB_PACKAGE "libncursesw6"

/* the declarations tui.h's macros use (it is not included here: its macros
 * would rename the variables below) */
WINDOW **tui_curses_stdscr(void);
int *tui_curses_cols(void);
int *tui_curses_lines(void);

#define FUNCS(X)                                                                                                       \
    X(int, cbreak, (void), ())                                                                                         \
    X(int, curs_set, (int v), (v))                                                                                     \
    X(int, endwin, (void), ())                                                                                         \
    X(bool, has_colors, (void), ())                                                                                    \
    X(int, init_pair, (NCURSES_PAIRS_T pair, NCURSES_COLOR_T fg, NCURSES_COLOR_T bg), (pair, fg, bg))                  \
    X(int, keypad, (WINDOW * w, bool on), (w, on))                                                                     \
    X(int, napms, (int ms), (ms))                                                                                      \
    X(SCREEN *, newterm, (const char *type, FILE *out, FILE *in), (type, out, in))                                     \
    X(int, noecho, (void), ())                                                                                         \
    X(int, resizeterm, (int lines, int cols), (lines, cols))                                                           \
    X(int, set_escdelay, (int ms), (ms))                                                                               \
    X(SCREEN *, set_term, (SCREEN * s), (s))                                                                           \
    X(int, start_color, (void), ())                                                                                    \
    X(int, use_default_colors, (void), ())                                                                             \
    X(int, waddnstr, (WINDOW * w, const char *s, int n), (w, s, n))                                                    \
    X(int, wattr_off, (WINDOW * w, attr_t a, void *opts), (w, a, opts))                                                \
    X(int, wattr_on, (WINDOW * w, attr_t a, void *opts), (w, a, opts))                                                 \
    X(int, wclrtoeol, (WINDOW * w), (w))                                                                               \
    X(int, werase, (WINDOW * w), (w))                                                                                  \
    X(int, wgetch, (WINDOW * w), (w))                                                                                  \
    X(int, whline, (WINDOW * w, chtype ch, int n), (w, ch, n))                                                         \
    X(int, winnstr, (WINDOW * w, char *s, int n), (w, s, n))                                                           \
    X(int, wmove, (WINDOW * w, int y, int x), (w, y, x))                                                               \
    X(int, wrefresh, (WINDOW * w), (w))
#define VFUNCS(X) X(void, delscreen, (SCREEN * s), (s))
/* looked up, used by hand below: the variables and vw_printw (for mvprintw) */
#define OWN(X) X(, stdscr, , ) X(, COLS, , ) X(, LINES, , ) X(, vw_printw, , )

LAZYLIB_DEFINE

WINDOW **tui_curses_stdscr(void) {
    call_once(&lazy_once, lazy_load);
    return lazy_fn.stdscr;
}

int *tui_curses_cols(void) {
    call_once(&lazy_once, lazy_load);
    return lazy_fn.COLS;
}

int *tui_curses_lines(void) {
    call_once(&lazy_once, lazy_load);
    return lazy_fn.LINES;
}

/* (variadic: as ncurses itself does it, a move and vw_printw) */
int mvprintw(int y, int x, const char *fmt, ...) {
    call_once(&lazy_once, lazy_load);
    if (lazy_fn.wmove(*lazy_fn.stdscr, y, x) == ERR) return ERR;
    va_list ap;
    va_start(ap, fmt);
    int rc = lazy_fn.vw_printw(*lazy_fn.stdscr, fmt, ap);
    va_end(ap);
    return rc;
}
