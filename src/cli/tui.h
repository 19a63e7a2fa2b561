/* tui.h: what the three files of the terminal client (kontor play) share.
 *
 * play.c keeps the game (deal + decisions, replayed into a state), the
 * command line and the main loop; tui_draw.c draws stdscr from the viewer's
 * view; tui_input.c turns keys (from the keyboard or a test script) into
 * decisions and commands. One struct, tui, holds all of it: there is one game
 * on one screen, and passing it explicitly keeps the files free of globals.
 *
 * Decisions come in two sorts. Choosing a card, the ship, a removal and
 * placing have keys of their own (the hand, the board cursor). Every other
 * decision of every variant (buying a special card, a pile, a bribe, picking
 * a hand, a tavern, an export, an event, a tile) is offered as a menu of the
 * engine's legal decisions in the engine's own words (kontor_move_text), so a
 * new decision kind needs no new keys; where a decision names a cell, the
 * board cursor picks it too. */
#ifndef KONTOR_TUI_H
#define KONTOR_TUI_H

#include <curses.h>
#include <stdarg.h>

/* ncurses is loaded on first use (lazy_curses.c): its variables are read
 * through their addresses */
WINDOW **tui_curses_stdscr(void);
int *tui_curses_cols(void);
int *tui_curses_lines(void);
#define stdscr (*tui_curses_stdscr())
#define COLS (*tui_curses_cols())
#define LINES (*tui_curses_lines())

#include "cli/cli.h"
#include "cli/i18n.h"
#include "kontor/agent.h"
#include "kontor/record.h"

#define TUI_LOG_LINES 400  /* a whole game's events fit (about 12 a round) */
#define TUI_LOG_WIDTH 120
#define TUI_MIN_COLS 80    /* the screen the layout is made for */
#define TUI_MIN_ROWS 24

typedef struct tui_seat {
    char spec[64];          /* "human", "medium", "cmd:...", ... */
    int human;
    kontor_agent *agent;    /* owned; NULL for a human */
} tui_seat;

typedef struct tui {
    /* the game */
    kontor_config cfg;
    kontor_deal deal;
    uint64_t seed;
    int has_seed;
    kontor_ply *ply;        /* owned */
    int nply, cap;
    kontor_state s;         /* the deal replayed through ply[] */
    tui_seat seat[KONTOR_MAX_SEATS];
    int nseats;             /* 2, or 4 in the game for four */
    int nhuman;
    int handed;             /* two or more humans: the seat at the keyboard for its secret decisions, or -1 */
    int broken;             /* a computer player failed: the game cannot go on */
    char log[TUI_LOG_LINES][TUI_LOG_WIDTH];
    int nlog;
    int last_cell[KONTOR_MAX_SEATS]; /* the cell each seat placed on last, or -1 */

    kontor_agent *hint_agent;
    char hint_spec[64];
    char savefile[512];
    int autosave, autosaved;

    /* the screen */
    int colour_wanted, colour;
    SCREEN *scr;
    FILE *term_out, *term_in;
    int mx0, mx1, my0, my1; /* every cell where a card may ever lie, at the deal */
    int wx0, wx1, wy0, wy1; /* board window, centre-relative cells (tui_window) */
    int cell_w;             /* characters a board cell takes: 5, or 4 on a board too wide for that */
    int delay_ms;

    /* what the player is doing */
    int decision;           /* nply when cursor/selection were last reset */
    int cursor;             /* board cell */
    int sel;                /* hand index in the declaration and choice phases; hand_n means pass */
    int presel[KONTOR_MAX_SEATS]; /* the card a seat had selected when it declared to play (R1), or -1 */
    char typing[16];        /* a cell being typed, "" when not */
    kontor_move pending;    /* Enter takes this decision (from a hint) until the cursor moves; 0: none */
    int msel;               /* the menu's selected entry, -1 when the cursor is on no entry's cell */
    int mnum;               /* the menu number typed so far */
    char msg[200];
    int msg_err;
    int dirty;
    int show_board;         /* game over: the board instead of the end screen */

    /* scripted input (tests) */
    int script;
    FILE *sf;
    char sname[256];
    int sline;
    int kq[512], kqn, kqpos;
    int until[128], untiln, until_on, until_keys, until_nply, until_stuck;
    char until_text[256];   /* until: stop when the screen shows this */
    FILE *dumpf;
    int own_dumpf;

    int quit, exit_code;
    char fatal[256];
} tui;

/* play.c */
__attribute__((format(printf, 2, 3))) void tui_logf(tui *t, const char *fmt, ...);
kontor_status tui_apply(tui *t, int seat, kontor_move m);
kontor_status tui_replay(tui *t, const kontor_ply *ply, int n, kontor_error *err);
int tui_new_game(tui *t, uint64_t seed);
void tui_undo(tui *t);
kontor_move tui_hint(tui *t, int seat, char *who, size_t cap);
int tui_save(tui *t, const char *path);
int tui_load(tui *t, const char *path, kontor_error *err);
int tui_viewer(const tui *t);
/* The engine's seat name ("red", "black 2") in the user's language. */
const char *tui_seat_name(const kontor_state *s, int seat);
/* Phases in which the seats decide at once and hidden (choose, buy, bribe, select). */
int tui_secret_phase(int phase);
/* Does the phase have keys of its own (choose, ship, remove, place), or the menu? */
int tui_menu_phase(int phase);
/* The cell a decision names (ship, remove, place, bribe, event, tile), or -1. */
int tui_move_cell(kontor_move m);
/* The human seat that owes a decision now, or -1. */
int tui_human_actor(const tui *t);
/* Fit the board window to the screen and the board as it is now. */
void tui_window(tui *t);

/* tui_draw.c */
int tui_screen_open(tui *t, int cols, int rows);
void tui_screen_close(tui *t);
void tui_draw(tui *t);
void tui_draw_handover(tui *t, int seat);
/* Show a page of text (lines separated by '\n') until a key other than
 * scrolling; returns that key. */
int tui_page(tui *t, const char *title, const char *text);
void tui_end_text(const tui *t, char *buf, size_t cap);
const char *tui_end_reason(int reason);
const char *tui_card_text(const kontor_state *s, int id, char *buf, size_t cap);
__attribute__((format(printf, 3, 4))) void tui_msg(tui *t, int err, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) void tui_fatal(tui *t, const char *fmt, ...);
void tui_dump(tui *t, FILE *f, const char *label);
int tui_screen_has(tui *t, const char *text);
int tui_too_small(void);

/* tui_input.c */
int tui_script_open(tui *t, const char *path, const char *dump);
void tui_script_close(tui *t);
int tui_key(tui *t);
void tui_step(tui *t);
extern const char *const tui_rules_text;

#endif
