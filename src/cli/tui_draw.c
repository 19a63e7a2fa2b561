/* tui_draw.c: the screen of kontor play: board, players, hand, log, pages.
 *
 * Every character is plain ASCII written into stdscr, and every fact on the
 * screen is there as text (owner letter, goods letters, '$' coin, '^' ship
 * symbol, '+' legal cell, '*' target, '<' cursor); colour repeats what the
 * text says. So a monochrome terminal loses nothing, and a test can read the
 * screen back with winnstr and compare it with a file. The layout is made for
 * 80x24: the board (at most 9x9 cells of 5x2 characters, 48 columns and 19
 * rows for the advanced game) on the left, the players, the hand and the log
 * in the 31 columns on the right, four lines of messages, prompt and keys at
 * the bottom. Larger terminals give the panel and the log more room. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli/tui.h"

enum {
    P_RED = 1, P_BLACK, P_TEA, P_WINE, P_SPICE, P_WATER, P_COIN, P_SHIP, P_LEGAL, P_TITLE, P_ERR,
    P_SHIPW, P_TARGET
};

#define CELL_H 2
#define BOARD_X 3  /* after the row labels "-3 " */
#define BOARD_Y 2  /* after the title and the column labels */

int tui_screen_open(tui *t, int cols, int rows) {
    if (t->script) {
        /* no terminal: draw into memory, send the output nowhere */
        t->term_out = fopen("/dev/null", "w");
        t->term_in = fopen("/dev/null", "r");
        if (!t->term_out || !t->term_in) {
            cli_error(_("play: cannot open /dev/null"));
            return -1;
        }
        const char *term = getenv("TERM");
        if (!term || !*term || strcmp(term, "dumb") == 0) term = "xterm";
        t->scr = newterm(term, t->term_out, t->term_in);
        if (!t->scr) t->scr = newterm("xterm", t->term_out, t->term_in);
        if (!t->scr) t->scr = newterm("vt100", t->term_out, t->term_in);
    } else {
        t->scr = newterm(NULL, stdout, stdin);
    }
    if (!t->scr) {
        cli_error(_("play: cannot start the terminal (TERM='%s'); try TERM=xterm"), getenv("TERM") ? getenv("TERM") : "");
        return -1;
    }
    set_term(t->scr);
    if (t->script) resizeterm(rows, cols);
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    t->colour = 0;
    if (t->colour_wanted && has_colors() && start_color() == OK) {
        short bg = use_default_colors() == OK ? -1 : COLOR_BLACK;
        init_pair(P_RED, COLOR_RED, bg);
        init_pair(P_BLACK, COLOR_BLACK, COLOR_WHITE);
        init_pair(P_TEA, COLOR_YELLOW, bg);
        init_pair(P_WINE, COLOR_MAGENTA, bg);
        init_pair(P_SPICE, COLOR_GREEN, bg);
        init_pair(P_WATER, COLOR_CYAN, COLOR_BLUE);
        init_pair(P_COIN, COLOR_YELLOW, bg);
        init_pair(P_SHIP, COLOR_CYAN, bg);
        init_pair(P_LEGAL, COLOR_BLACK, COLOR_GREEN);
        init_pair(P_TITLE, COLOR_WHITE, COLOR_BLUE);
        init_pair(P_ERR, COLOR_RED, bg);
        init_pair(P_SHIPW, COLOR_YELLOW, COLOR_BLUE);
        init_pair(P_TARGET, COLOR_BLACK, COLOR_YELLOW);
        t->colour = 1;
    }
    return 0;
}

void tui_screen_close(tui *t) {
    if (!t->scr) return;
    endwin();
    delscreen(t->scr);
    t->scr = NULL;
    if (t->term_out) fclose(t->term_out);
    if (t->term_in) fclose(t->term_in);
    t->term_out = t->term_in = NULL;
}

void tui_msg(tui *t, int err, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->msg, sizeof t->msg, fmt, ap);
    va_end(ap);
    t->msg_err = err;
}

void tui_fatal(tui *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->fatal, sizeof t->fatal, fmt, ap);
    va_end(ap);
    t->quit = 1;
    t->exit_code = 1;
}

int tui_too_small(void) { return COLS < TUI_MIN_COLS || LINES < TUI_MIN_ROWS; }

/* ---- text pieces --------------------------------------------------------------- */

static attr_t pair(const tui *t, int p) { return t->colour && p ? COLOR_PAIR(p) : 0; }

/* Write s at (y, x), clipped before column xmax; returns the next column. */
static int put(const tui *t, int y, int x, int xmax, int p, attr_t a, const char *s) {
    if (x >= xmax || y < 0 || y >= LINES) return x;
    /* columns, not bytes: a translation has umlauts */
    int w = cli_text_width(s), n = (int)strlen(s);
    if (w > xmax - x) w = xmax - x, n = cli_text_fit(s, w);
    attr_t at = a | pair(t, p);
    if (at) attron(at);
    mvaddnstr(y, x, s, n);
    if (at) attroff(at);
    return x + w;
}

__attribute__((format(printf, 7, 8)))
static int putf(const tui *t, int y, int x, int xmax, int p, attr_t a, const char *fmt, ...) {
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return put(t, y, x, xmax, p, a, buf);
}

static int is_unknown(int id) { return id >= KONTOR_UNKNOWN_BASE && id < KONTOR_UNKNOWN_BASE + KONTOR_NCLASSES; }

static const char *kind_word(int kind) {
    switch (kind) {
    case KONTOR_KIND_CRANE: return _("crane");
    case KONTOR_KIND_TAVERN: return _("tavern");
    case KONTOR_KIND_WATER: return _("water");
    case KONTOR_KIND_CENTRE: return _("centre");
    case KONTOR_KIND_FLOOD: return _("flood");
    case KONTOR_KIND_BRIDGE: return _("bridge");
    case KONTOR_KIND_CUSTOMS: return _("customs");
    default: return "";
    }
}

/* The letters of tea, wine and spice, and of the owners red, black and
 * neutral, in the user's language (German: T W G, r s n). */
static char good_letter(int g) {
    /* TRANSLATORS: one letter each for tea, wine, spice, shown on the board; keep three ASCII letters */
    const char *l = _("TWS");
    return strlen(l) == 3 ? l[g] : "TWS"[g];
}

static char owner_letter(int colour) {
    /* TRANSLATORS: the owner letters of red, black and neutral cards on the board; keep three ASCII lowercase letters */
    const char *l = _("rbn");
    int i = colour == KONTOR_RED ? 0 : colour == KONTOR_BLACK ? 1 : 2;
    return strlen(l) == 3 ? l[i] : "rbn"[i];
}
static const int good_pair[3] = {P_TEA, P_WINE, P_SPICE};

const char *tui_card_text(const kontor_state *s, int id, char *buf, size_t cap) {
    if (id == KONTOR_PASS) return snprintf(buf, cap, _("pass")), buf;
    if (is_unknown(id) || id >= s->cfg->cards->ncards) return snprintf(buf, cap, "?"), buf;
    const kontor_card *k = &s->cfg->cards->card[id];
    if (k->kind == KONTOR_KIND_CENTRE) return snprintf(buf, cap, _("centre")), buf;
    char what[16] = "";
    if (k->kind == KONTOR_KIND_GOODS) {
        int n = 0;
        for (int g = 0; g < 3; g++)
            for (int i = 0; i < k->goods[g] && n < 12; i++) what[n++] = good_letter(g);
        what[n] = 0;
    } else {
        snprintf(what, sizeof what, "%s", kind_word(k->kind));
    }
    snprintf(buf, cap, "%d %s%s%s", k->number, what, k->coin ? " $" : "", k->ship ? (k->coin ? "^" : " ^") : "");
    return buf;
}

/* The same text in colour: number in the owner's colour, goods letters in
 * theirs, '$' and '^' in theirs. */
static int put_card(const tui *t, int y, int x, int xmax, const kontor_state *s, int id, attr_t extra) {
    if (id == KONTOR_PASS) return put(t, y, x, xmax, 0, extra, _("pass"));
    if (is_unknown(id) || id >= s->cfg->cards->ncards) return put(t, y, x, xmax, 0, extra, "?");
    const kontor_card *k = &s->cfg->cards->card[id];
    if (k->kind == KONTOR_KIND_CENTRE) return put(t, y, x, xmax, 0, extra, _("centre"));
    int np = k->colour == KONTOR_RED ? P_RED : k->colour == KONTOR_BLACK ? P_BLACK : P_SHIP;
    x = putf(t, y, x, xmax, np, A_BOLD | extra, "%d", k->number);
    x = put(t, y, x, xmax, 0, extra, " ");
    if (k->kind == KONTOR_KIND_GOODS) {
        for (int g = 0; g < 3; g++)
            for (int i = 0; i < k->goods[g]; i++) {
                char c[2] = {good_letter(g), 0};
                x = put(t, y, x, xmax, good_pair[g], A_BOLD | extra, c);
            }
    } else {
        x = put(t, y, x, xmax, k->kind == KONTOR_KIND_WATER ? P_SHIP : 0, extra, kind_word(k->kind));
    }
    if (k->coin || k->ship) x = put(t, y, x, xmax, 0, extra, " ");
    if (k->coin) x = put(t, y, x, xmax, P_COIN, A_BOLD | extra, "$");
    if (k->ship) x = put(t, y, x, xmax, P_SHIP, A_BOLD | extra, "^");
    return x;
}

/* ---- the board ------------------------------------------------------------------ */

typedef struct board_marks {
    kontor_bb target;   /* cells the current decision may pick, or concerns (tavern, export) */
    int cursor;         /* -1: no cursor */
} board_marks;

static int pile_top_id(const kontor_state *s, const kontor_pile *p) { return p->n ? s->pile_card[p->head] : KONTOR_NONE; }

/* Which cells the decision asked of seat now may pick; for a tavern's vote
 * the cells of its area, for an export the card just placed. */
static void targets(const tui *t, int seat, board_marks *bm) {
    memset(&bm->target, 0, sizeof bm->target);
    if (seat < 0) return;
    const kontor_state *s = &t->s;
    kontor_move mv[KONTOR_MAX_MOVES];
    int n = kontor_legal(s, seat, mv);
    for (int i = 0; i < n; i++) {
        int c = tui_move_cell(mv[i]);
        if (c >= 0) kontor_bb_add(&bm->target, c);
    }
    if (s->phase == KONTOR_PHASE_TAVERN && s->tavern_area < s->nareas) {
        kontor_bb cells;
        kontor_area_at(s, s->area[s->tavern_area].cell, &cells, NULL);
        for (int c = kontor_bb_next(&cells, 0); c >= 0; c = kontor_bb_next(&cells, c + 1)) kontor_bb_add(&bm->target, c);
    }
    if (s->phase == KONTOR_PHASE_EXPORT && s->placed_cell != KONTOR_NONE) kontor_bb_add(&bm->target, s->placed_cell);
}

/* The cross end where action tile i lies (N, E, S, W: the second water card out). */
static int tile_cell(int i) {
    static const int dx[4] = {0, 2, 0, -2}, dy[4] = {-2, 0, 2, 0};
    return kontor_cell(dx[i], dy[i]);
}

static void draw_board(tui *t, const kontor_state *d, const board_marks *bm) {
    int w = t->wx1 - t->wx0 + 1, cw = t->cell_w;
    int xmax = BOARD_X + w * cw;
    /* the area each enclosed cell belongs to, and which areas count */
    int8_t area_of[KONTOR_CELLS];
    memset(area_of, -1, sizeof area_of);
    uint8_t counted[KONTOR_MAX_AREAS];
    kontor_counted_areas(d, counted);
    for (int a = 0; a < d->nareas; a++) {
        kontor_bb cells;
        kontor_area_at(d, d->area[a].cell, &cells, NULL);
        for (int c = 0; c < KONTOR_CELLS; c++)
            if (kontor_bb_has(&cells, c)) area_of[c] = (int8_t)a;
    }
    int tile_on[KONTOR_CELLS];
    for (int c = 0; c < KONTOR_CELLS; c++) tile_on[c] = -1;
    if (d->cfg->tiles)
        for (int i = 0; i < 4; i++)
            if (d->tile_at[i] < KONTOR_TILES) tile_on[tile_cell(i)] = d->tile_at[i];
    kontor_bb mask = kontor_state_set(d, KONTOR_SET_MASK), water = kontor_state_set(d, KONTOR_SET_WATER);
    for (int x = t->wx0; x <= t->wx1; x++)
        putf(t, 1, BOARD_X + (x - t->wx0) * cw, xmax, 0, A_DIM, cw == 5 ? "%+3d " : "%+3d", x);
    for (int y = t->wy0; y <= t->wy1; y++) {
        int sy = BOARD_Y + (y - t->wy0) * CELL_H;
        putf(t, sy, 0, BOARD_X, 0, A_DIM, "%+2d ", y);
        for (int x = t->wx0; x <= t->wx1; x++) {
            int c = kontor_cell(x, y), sx = BOARD_X + (x - t->wx0) * cw;
            int id = kontor_state_card_at(d, c);
            int is_target = kontor_bb_has(&bm->target, c), is_cursor = c == bm->cursor;
            attr_t cur = is_cursor ? A_REVERSE : 0;
            if (id == KONTOR_NONE || id >= d->cfg->cards->ncards) {
                if (is_target) {
                    put(t, sy, sx, xmax, P_LEGAL, cur, " ++ ");
                    put(t, sy + 1, sx, xmax, P_LEGAL, cur, "    ");
                } else if (!kontor_bb_has(&mask, c)) {
                    put(t, sy, sx, xmax, 0, cur, "    ");
                    put(t, sy + 1, sx, xmax, 0, cur, "    ");
                } else {
                    put(t, sy, sx, xmax, 0, cur | A_DIM, "  . ");
                    put(t, sy + 1, sx, xmax, 0, cur, "    ");
                }
            } else {
                const kontor_card *k = &d->cfg->cards->card[id];
                attr_t last = 0;
                for (int p = 0; p < t->nseats; p++)
                    if (c == t->last_cell[p]) last = A_UNDERLINE;
                char sym = k->coin ? '$' : k->ship ? '^' : ' ';
                int sp = k->coin ? P_COIN : P_SHIP;
                int special = k->kind == KONTOR_KIND_FLOOD || k->kind == KONTOR_KIND_BRIDGE ||
                              k->kind == KONTOR_KIND_CUSTOMS;
                int as_water = kontor_card_is_water(k) || k->kind == KONTOR_KIND_FLOOD ||
                               (k->kind == KONTOR_KIND_CUSTOMS && kontor_bb_has(&water, c));
                int ship = c == d->ship_cell;
                if (special) {
                    char l = k->kind == KONTOR_KIND_FLOOD ? 'F' : k->kind == KONTOR_KIND_BRIDGE ? 'B' : 'C';
                    putf(t, sy, sx, xmax, as_water ? P_WATER : P_SHIP, cur | last | A_BOLD, "%c%2d ", l, k->number);
                }
                if (as_water) {
                    if (special) {
                        /* drawn above */
                    } else if (k->kind == KONTOR_KIND_CENTRE) {
                        put(t, sy, sx, xmax, P_WATER, cur | A_BOLD, " @  ");
                    } else {
                        putf(t, sy, sx, xmax, P_WATER, cur | last, "~%2d", k->number);
                        char sb[2] = {sym, 0};
                        put(t, sy, sx + 3, xmax, sym == '$' ? P_SHIPW : P_WATER, cur | A_BOLD, sb);
                    }
                    char low[16];
                    if (tile_on[c] >= 0) snprintf(low, sizeof low, "T%d%s", (tile_on[c] + 1) % 10, ship ? _("SH") : "~~");
                    else snprintf(low, sizeof low, "%s", ship ? _("SHIP") : "~~~~");
                    put(t, sy + 1, sx, xmax, ship ? P_SHIPW : P_WATER, cur | (ship ? A_BOLD : 0), low);
                } else {
                    int op = k->colour == KONTOR_RED ? P_RED : k->colour == KONTOR_BLACK ? P_BLACK : P_SHIP;
                    char own = owner_letter(k->colour);
                    if (special) {
                        /* drawn above */
                    } else {
                        if (k->number < 100) putf(t, sy, sx, xmax, op, cur | last | A_BOLD, "%c%2d", own, k->number);
                        else putf(t, sy, sx, xmax, op, cur | last | A_BOLD, "%3d", k->number);
                        char sb[2] = {sym, 0};
                        put(t, sy, sx + 3, xmax, sp, cur | A_BOLD, sb);
                    }
                    int gx = sx;
                    if (k->kind == KONTOR_KIND_GOODS) {
                        for (int g = 0; g < 3; g++)
                            for (int i = 0; i < k->goods[g] && gx < sx + 3; i++) {
                                char cb[2] = {good_letter(g), 0};
                                gx = put(t, sy + 1, gx, xmax, good_pair[g], cur | A_BOLD, cb);
                            }
                    } else {
                        gx = put(t, sy + 1, gx, xmax, 0, cur,
                                 k->kind == KONTOR_KIND_CRANE    ? _("Krn")
                                 : k->kind == KONTOR_KIND_TAVERN ? _("Tav")
                                 : k->kind == KONTOR_KIND_BRIDGE ? "==="
                                                                 : _("Cus"));
                    }
                    while (gx < sx + 3) gx = put(t, sy + 1, gx, xmax, 0, cur, " ");
                    int a = area_of[c];
                    char mark[2] = {' ', 0};
                    int mp = 0;
                    if (a >= 0) {
                        const kontor_area *ar = &d->area[a];
                        if (ar->winner < 2 && ar->keeper && !ar->out) {
                            mark[0] = (char)toupper((unsigned char)owner_letter(ar->winner == 0 ? KONTOR_RED : KONTOR_BLACK));
                            if (!counted[a]) mark[0] = (char)(mark[0] - 'A' + 'a');
                            mp = ar->winner == 0 ? P_RED : P_BLACK;
                        } else {
                            mark[0] = ar->out ? 'x' : '=';
                        }
                    }
                    put(t, sy + 1, sx + 3, xmax, mp, cur | A_BOLD, mark);
                }
                if (is_target) put(t, sy + 1, sx + cw - 1, xmax + 1, P_TARGET, A_BOLD, "*");
            }
            if (is_cursor && cw == 5) {
                put(t, sy, sx - 1, sx, 0, A_BOLD, "[");
                put(t, sy, sx + 4, xmax + 1, 0, A_BOLD, "]");
            }
        }
    }
}

/* ---- the panel -------------------------------------------------------------------- */

static int wrap_lines(const char *s, int width, char out[][TUI_LOG_WIDTH], int max) {
    int n = 0, len = (int)strlen(s), first = 1;
    while (len > 0 && n < max) {
        int w = first ? width : width - 2;
        int take = len;
        if (take > w) {
            take = w;
            while (take > w / 2 && s[take] != ' ') take--;
            if (s[take] != ' ') take = w;
        }
        snprintf(out[n++], TUI_LOG_WIDTH, "%s%.*s", first ? "" : "  ", take, s);
        s += take;
        len -= take;
        while (*s == ' ') s++, len--;
        first = 0;
    }
    return n;
}

/* Write text wrapped into at most max lines from y; returns the lines used. */
static int put_wrapped(const tui *t, int y, int x, int xmax, attr_t a, const char *text, int max) {
    char lines[8][TUI_LOG_WIDTH];
    if (max > 8) max = 8;
    int n = wrap_lines(text, xmax - x, lines, max);
    for (int i = 0; i < n; i++) put(t, y + i, x, xmax, 0, a, lines[i]);
    return n;
}

static void append(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t cap, const char *fmt, ...) {
    size_t n = strlen(buf);
    if (n + 1 >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
}

/* The seats that still owe a decision, as words. */
static void actors_text(const kontor_state *s, char *buf, size_t cap) {
    unsigned act = kontor_actors(s);
    for (int p = 0; p < s->cfg->nseats; p++)
        if ((act >> p) & 1) append(buf, cap, " %s", tui_seat_name(s, p));
}

/* The event card being carried out: its name and text, or NULL. */
static const kontor_event_card *current_event(const kontor_state *s, kontor_event_card *ev) {
    static kontor_event_card cards[KONTOR_EVENTS_MAX];
    int n = kontor_events_default(cards, KONTOR_EVENTS_MAX);
    if (s->event_cur >= n) return NULL;
    *ev = cards[s->event_cur];
    return ev;
}

/* What the round is at, in words: who still decides, or the cards in play
 * in their order (">" acts now), or the event, tile or tavern at stake. */
static void status_text(const kontor_state *d, char *buf, size_t cap) {
    char c1[24], cs[8];
    kontor_event_card ev;
    buf[0] = 0;
    switch (d->phase) {
    case KONTOR_PHASE_DECLARE:
        snprintf(buf, cap, _("round %d, to declare:"), d->round);
        for (int p = 0; p < d->cfg->nseats; p++)
            if (d->choice[p] == KONTOR_NONE) append(buf, cap, " %s", tui_seat_name(d, p));
        if (d->no_pass) append(buf, cap, "%s", _(" (no passing this round)"));
        break;
    case KONTOR_PHASE_CHOOSE:
        snprintf(buf, cap, _("round %d, to choose:"), d->round);
        for (int p = 0; p < d->cfg->nseats; p++)
            if (d->choice[p] == KONTOR_NONE) append(buf, cap, " %s", tui_seat_name(d, p));
        for (int p = 0; p < d->cfg->nseats; p++)
            if (d->choice[p] == KONTOR_PASS && !d->cfg->pass_hidden) append(buf, cap, _("; %s passes"), tui_seat_name(d, p));
        if (d->no_pass && d->cfg->pass_hidden) append(buf, cap, "%s", _(" (no passing this round)"));
        break;
    case KONTOR_PHASE_BUY:
        snprintf(buf, cap, _("round %d, buying special cards:"), d->round);
        actors_text(d, buf, cap);
        break;
    case KONTOR_PHASE_BRIBE:
        snprintf(buf, cap, _("round %d, bribes to decide:"), d->round);
        actors_text(d, buf, cap);
        break;
    case KONTOR_PHASE_SELECT:
        snprintf(buf, cap, _("picking hands, still picking:"));
        actors_text(d, buf, cap);
        break;
    case KONTOR_PHASE_TAVERN:
        if (d->tavern_area < d->nareas)
            snprintf(buf, cap, _("the end: does the tavern's area at %s score? (%s decides)"),
                     kontor_format_cell(d->area[d->tavern_area].cell, cs), tui_seat_name(d, kontor_current(d)));
        break;
    case KONTOR_PHASE_EVENT:
        if (current_event(d, &ev)) snprintf(buf, cap, _("event %s: %s"), ev.name, _(ev.text));
        else snprintf(buf, cap, _("an event card"));
        break;
    case KONTOR_PHASE_OVER: snprintf(buf, cap, _("game over")); break;
    default:
        snprintf(buf, cap, _("round %d:"), d->round);
        for (int i = d->turn; i < d->norder; i++) {
            int p = d->order[i];
            append(buf, cap, "%s%s %s", i == d->turn ? " >" : i == d->turn + 1 ? _(" then ") : ", ",
                   tui_seat_name(d, p), tui_card_text(d, d->choice[p], c1, sizeof c1));
        }
        if (d->phase == KONTOR_PHASE_TILE && d->tile_cur < KONTOR_TILES)
            append(buf, cap, _("; tile %d: %s"), d->tile_cur + 1, _(kontor_tile_name(d->tile_cur)));
        break;
    }
}

/* The game for two: each player on a line, then the piles (the layout the
 * basic and advanced games have always had). */
static int panel_two(tui *t, const kontor_state *d, int viewer, int px, int y) {
    int xmax = COLS, pts[2];
    kontor_points(d, pts);
    for (int p = 0; p < 2; p++, y++) {
        int x = put(t, y, px, xmax, 0, A_BOLD, p == viewer ? ">" : " ");
        x = put(t, y, x, xmax, p == 0 ? P_RED : P_BLACK, A_BOLD, p == 0 ? _("red  ") : _("black"));
        x = putf(t, y, x, xmax, 0, 0, xmax - px < 31 ? " %-6.6s" : " %-8.8s", p == viewer ? _("(you)") : t->seat[p].spec);
        x = putf(t, y, x, xmax, P_COIN, A_BOLD, " $%-2d", d->coins[p]);
        putf(t, y, x, xmax, 0, 0, _(" keepers %d"), d->keepers[p]);
    }
    int x = putf(t, y, px, xmax, 0, 0, _(" treasury "));
    x = putf(t, y, x, xmax, P_COIN, A_BOLD, "$%-2d", d->treasury);
    putf(t, y++, x, xmax, 0, 0, _("  points %d:%d"), pts[0], pts[1]);
    for (int p = 0; p < 3; p++, y++) {
        const kontor_pile *pl = p < 2 ? &d->dock_pile[p] : &d->water_pile;
        int id = pile_top_id(d, pl);
        x = putf(t, y, px, xmax, 0, 0, _(" %-5s pile %2d, top "), p == 0 ? _("red") : p == 1 ? _("black") : _("water"), pl->n);
        if (id == KONTOR_NONE) put(t, y, x, xmax, 0, 0, "-");
        else put_card(t, y, x, xmax, d, id, 0);
    }
    return y;
}

/* The game for four: a table of the seats (coins, cards in hand, pile and
 * its top card), the water pile, the treasury and the teams' points. */
static int panel_four(tui *t, const kontor_state *d, int viewer, int px, int y) {
    int xmax = COLS, pts[2];
    kontor_points(d, pts);
    putf(t, y++, px, xmax, 0, A_DIM, " %-8s%-4s%3s%5s %s", _("seat"), "$", _("hnd"), _("pile"), _("top"));
    for (int p = 0; p < d->cfg->nseats; p++, y++) {
        int x = put(t, y, px, xmax, 0, A_BOLD, p == viewer ? ">" : " ");
        x = putf(t, y, x, xmax, kontor_team(d, p) == 0 ? P_RED : P_BLACK, A_BOLD, "%-8s", tui_seat_name(d, p));
        x = putf(t, y, x, xmax, P_COIN, A_BOLD, "$%-3d", d->coins[p]);
        x = putf(t, y, x, xmax, 0, 0, "%3d%5d ", d->hand_n[p], d->dock_pile[p].n);
        int id = pile_top_id(d, &d->dock_pile[p]);
        if (id == KONTOR_NONE) put(t, y, x, xmax, 0, 0, "-");
        else put_card(t, y, x, xmax, d, id, 0);
    }
    int x = putf(t, y, px, xmax, 0, 0, " %-8s%-4s%3s%5d ", _("water"), "", "", d->water_pile.n);
    int id = pile_top_id(d, &d->water_pile);
    if (id == KONTOR_NONE) put(t, y, x, xmax, 0, 0, "-");
    else put_card(t, y, x, xmax, d, id, 0);
    y++;
    x = putf(t, y, px, xmax, 0, 0, _(" treasury "));
    x = putf(t, y, x, xmax, P_COIN, A_BOLD, "$%-2d", d->treasury);
    putf(t, y++, x, xmax, 0, 0, _(" points %d:%d keep %d:%d"), pts[0], pts[1], d->keepers[0], d->keepers[1]);
    return y;
}

/* The menu of the decision asked of seat: every legal decision in the
 * engine's words, numbered, the selected one marked '>'; scrolled so that
 * the selection shows. Returns the next free line. */
static int draw_menu(tui *t, int seat, int px, int y, int ybottom) {
    int xmax = COLS;
    kontor_move mv[KONTOR_MAX_MOVES];
    int n = kontor_legal(&t->s, seat, mv);
    putf(t, y++, px, xmax, 0, A_BOLD, _("%s decides (1-%d, Enter):"), tui_seat_name(&t->s, seat), n);
    int room = ybottom - y;
    if (room < 1) return y;
    int top = 0, shown = n <= room ? n : room - 1;
    if (shown < 1) shown = 1;
    if (t->msel >= shown) top = t->msel - shown + 1;
    for (int i = top; i < n && i < top + shown; i++, y++) {
        char text[160];
        kontor_move_text(&t->s, seat, mv[i], text, sizeof text);
        int sel = i == t->msel;
        putf(t, y, px, xmax, 0, sel ? A_REVERSE : 0, "%c%2d) %s", sel ? '>' : ' ', i + 1, text);
    }
    if (shown < n) putf(t, y++, px, xmax, 0, A_DIM, _(" (%d-%d of %d; Tab, PgDn: more)"), top + 1, top + shown, n);
    return y;
}

static void draw_panel(tui *t, const kontor_state *d, int viewer, int seat, int px, int ybottom) {
    int xmax = COLS;
    int y = t->nseats == 2 ? panel_two(t, d, viewer, px, 1) : panel_four(t, d, viewer, px, 1);
    char line[512];
    if (d->cfg->specials == 2) putf(t, y++, px, xmax, 0, 0, _(" special cards %d, face down"), d->special_pile.n);
    if (d->cfg->export_store)
        putf(t, y++, px, xmax, 0, 0, _(" export red %d/%d/%d black %d/%d/%d"), d->export_n[0][0], d->export_n[0][1],
             d->export_n[0][2], d->export_n[1][0], d->export_n[1][1], d->export_n[1][2]);
    /* the round: who chose, or the cards in play */
    int menu = seat >= 0 && tui_menu_phase(d->phase);
    if (t->nseats == 2 && (d->phase == KONTOR_PHASE_CHOOSE || d->phase == KONTOR_PHASE_DECLARE)) {
        int declare = d->phase == KONTOR_PHASE_DECLARE;
        int x = putf(t, y, px, xmax, 0, 0, _("round %d, to %s:"), d->round, declare ? _("declare") : _("choose"));
        for (int p = 0; p < 2; p++)
            if (d->choice[p] == KONTOR_NONE) x = putf(t, y, x, xmax, 0, 0, " %s", p == 0 ? _("red") : _("black"));
        if (d->no_pass && (declare || d->cfg->pass_hidden)) put(t, y + 1, px, xmax, 0, A_BOLD, _("(no passing this round)"));
        for (int p = 0; p < 2 && !declare && !d->cfg->pass_hidden; p++)
            if (d->choice[p] == KONTOR_PASS) putf(t, y + 1, px, xmax, 0, A_BOLD, _("%s passes this round"), p == 0 ? _("red") : _("black"));
        y += 2;
    } else if (t->nseats == 2 && d->phase >= KONTOR_PHASE_SHIP && d->phase <= KONTOR_PHASE_PLACE) {
        int x = putf(t, y, px, xmax, 0, 0, _("round %d:"), d->round);
        for (int i = d->turn; i < d->norder; i++) {
            int p = d->order[i], yy = y + (i > d->turn);
            if (i > d->turn) x = put(t, yy, px, xmax, 0, 0, _("   then"));
            x = put(t, yy, x, xmax, 0, A_BOLD, i == d->turn ? " >" : " ");
            x = put(t, yy, x, xmax, p == 0 ? P_RED : P_BLACK, A_BOLD, p == 0 ? _("red ") : _("black "));
            x = put_card(t, yy, x, xmax, d, d->choice[p], 0);
        }
        y += 2;
    } else {
        status_text(d, line, sizeof line);
        int max = menu ? 2 : 3;
        y += put_wrapped(t, y, px, xmax, d->phase == KONTOR_PHASE_OVER ? A_BOLD : 0, line, max);
        if (!menu) y++;
    }
    if (menu) {
        /* the hand in one line, then the menu */
        if (viewer == seat && d->hand_n[seat]) {
            char c1[24];
            snprintf(line, sizeof line, _("hand:"));
            for (int i = 0; i < d->hand_n[seat]; i++)
                append(line, sizeof line, "%s %s", i ? "," : "", tui_card_text(d, d->hand[seat][i], c1, sizeof c1));
            y += put_wrapped(t, y, px, xmax, 0, line, 2);
        }
        y = draw_menu(t, seat, px, y, ybottom);
    } else if (viewer >= 0) {
        /* the hand */
        int choosing = (d->phase == KONTOR_PHASE_CHOOSE || d->phase == KONTOR_PHASE_DECLARE) &&
                       ((kontor_actors(d) >> viewer) & 1);
        putf(t, y++, px, xmax, 0, A_BOLD, _("your hand (%s):"), tui_seat_name(d, viewer));
        int n = d->hand_n[viewer], half = (xmax - px) / 2;
        if (half > 20) half = 20;
        int items = n + (choosing ? 1 : 0);
        kontor_move mv[KONTOR_MAX_MOVES];
        int nl = choosing ? kontor_legal(d, viewer, mv) : 0, may_pass = 0;
        for (int i = 0; i < nl; i++) may_pass |= KONTOR_MOVE_VALUE(mv[i]) == KONTOR_PASS;
        /* R1: the pass is declared first; when the cards are chosen it is gone */
        if (d->phase == KONTOR_PHASE_CHOOSE && !d->cfg->pass_hidden) items = n;
        for (int i = 0; i < items; i++) {
            int cy = y + i / 2, cx = px + (i % 2) * half;
            int sel = choosing && i == t->sel;
            attr_t a = sel ? A_REVERSE : 0;
            if (i < n) {
                int xx = putf(t, cy, cx, cx + half, 0, a, "%c%d) ", sel ? '>' : ' ', i + 1);
                put_card(t, cy, xx, cx + half - 1, d, d->hand[viewer][i], a);
            } else {
                putf(t, cy, cx, cx + half, 0, a | (may_pass ? 0 : A_DIM), _("%cp) pass%s"), sel ? '>' : ' ',
                     may_pass ? "" : _(" (no)"));
            }
        }
        y += (items + 1) / 2;
    } else {
        put(t, y++, px, xmax, 0, A_DIM, t->nhuman >= 2 ? _("(hands are hidden)") : _("(computer against computer)"));
    }
    y++;
    /* the log: the newest lines that fit, wrapped */
    if (y < ybottom) {
        put(t, y++, px, xmax, 0, A_BOLD, _("log (L: all)"));
        int room = ybottom - y;
        if (room <= 0) return;
        char lines[64][TUI_LOG_WIDTH];
        int n = 0;
        if (room > 64) room = 64;
        for (int i = t->nlog - 1; i >= 0 && n < room; i--) {
            char part[8][TUI_LOG_WIDTH];
            int k = wrap_lines(t->log[i], xmax - px, part, 8);
            if (n + k > room) break; /* whole entries only */
            for (int j = k - 1; j >= 0; j--) memcpy(lines[n++], part[j], TUI_LOG_WIDTH);
        }
        for (int i = n - 1; i >= 0; i--) put(t, y++, px, xmax, 0, 0, lines[i]);
    }
}

/* ---- the whole screen --------------------------------------------------------- */

static const char *prompt_for(const tui *t, int seat, char *buf, size_t cap) {
    const kontor_state *s = &t->s;
    char c1[24];
    const char *who = tui_seat_name(s, seat);
    kontor_move mv[KONTOR_MAX_MOVES];
    int n = s->phase == KONTOR_PHASE_OVER ? 0 : kontor_legal(s, seat, mv);
    switch (s->phase) {
    case KONTOR_PHASE_DECLARE:
        snprintf(buf, cap, _("%s: pass this round? p Enter passes; Enter (a card picked with 1-%d) plays"), who,
                 s->hand_n[seat]);
        break;
    case KONTOR_PHASE_CHOOSE:
        if (s->cfg->pass_hidden)
            snprintf(buf, cap, _("%s: choose a card in secret: 1-%d or arrows, p pass, Enter plays it"), who, s->hand_n[seat]);
        else
            snprintf(buf, cap, _("%s: choose your card in secret: 1-%d or arrows, Enter plays it"), who, s->hand_n[seat]);
        break;
    case KONTOR_PHASE_SHIP:
        snprintf(buf, cap, _("%s: move the ship? Enter on a water card (*), n leaves it"), who);
        break;
    case KONTOR_PHASE_REMOVE:
        snprintf(buf, cap, _("%s: remove a ship-symbol card (*)? Enter on it, n removes none"), who);
        break;
    case KONTOR_PHASE_PLACE: {
        int water = 0;
        for (int i = 0; i < n; i++) water |= KONTOR_MOVE_KIND(mv[i]) == KONTOR_MOVE_PLACE_WATER;
        snprintf(buf, cap, _("%s: place %s: arrows or type +x,y, Enter places%s%s"), who,
                 tui_card_text(s, s->choice[seat], c1, sizeof c1), water ? _(", w as water") : "",
                 s->cfg->optional_place ? _(", n takes back") : "");
        break;
    }
    case KONTOR_PHASE_BUY: snprintf(buf, cap, _("%s: buy special cards for 2 coins each? 1-%d or arrows, Enter"), who, n); break;
    case KONTOR_PHASE_PILE: snprintf(buf, cap, _("%s: whose pile takes the removed card? 1-%d or arrows, Enter"), who, n); break;
    case KONTOR_PHASE_BRIBE:
        snprintf(buf, cap, _("%s: buy out a card (*)? 1-%d/Tab or arrows on the board, Enter; n none"), who, n);
        break;
    case KONTOR_PHASE_SELECT:
        snprintf(buf, cap, _("%s: pick your hand: keep %d, then put %d out (%d done): 1-%d, Enter"), who,
                 s->cfg->select_keep, s->cfg->select_discard, s->selected[seat], n);
        break;
    case KONTOR_PHASE_TAVERN: snprintf(buf, cap, _("%s: does your tavern's area (*) score? 1-%d or arrows, Enter"), who, n); break;
    case KONTOR_PHASE_EXPORT: snprintf(buf, cap, _("%s: export a warehouse of the card (*)? 1-%d, Enter; n none"), who, n); break;
    case KONTOR_PHASE_EVENT: snprintf(buf, cap, _("%s: the event: 1-%d/Tab or arrows on the board, Enter; n passes"), who, n); break;
    case KONTOR_PHASE_TILE: snprintf(buf, cap, _("%s: the tile: 1-%d/Tab or arrows on the board, Enter; n forgoes"), who, n); break;
    default: snprintf(buf, cap, _("the game is over: q quits, s saves, b shows the board")); break;
    }
    return buf;
}

/* The line under the message: the cell being typed, the cursor's cell and
 * whether a decision may take it, or the menu's selected entry in full. */
static void cursor_line(tui *t, int seat, const board_marks *bm, char *line, size_t cap) {
    char cs[8], why[160], text[160];
    line[0] = 0;
    if (t->typing[0]) {
        snprintf(line, cap, _("cell: %s_   (Enter goes there, Esc cancels)"), t->typing);
        return;
    }
    if (seat < 0) return;
    kontor_move mv[KONTOR_MAX_MOVES];
    int n = kontor_legal(&t->s, seat, mv);
    if (tui_menu_phase(t->s.phase)) {
        if (t->msel >= 0 && t->msel < n) {
            snprintf(line, cap, _("choice %d of %d: %s"), t->msel + 1, n,
                     kontor_move_text(&t->s, seat, mv[t->msel], text, sizeof text));
        } else if (bm->cursor >= 0) {
            int kind = 0;
            for (int i = 0; i < n; i++)
                if (tui_move_cell(mv[i]) >= 0) kind = KONTOR_MOVE_KIND(mv[i]);
            snprintf(line, cap, _("cursor %s: %s"), kontor_format_cell(bm->cursor, cs),
                     kontor_why_illegal(&t->s, seat, KONTOR_MOVE(kind, bm->cursor), why, sizeof why));
        }
        return;
    }
    if (bm->cursor < 0) return;
    int k = t->s.phase == KONTOR_PHASE_SHIP ? KONTOR_MOVE_SHIP : t->s.phase == KONTOR_PHASE_REMOVE ? KONTOR_MOVE_REMOVE : KONTOR_MOVE_PLACE;
    kontor_move m = KONTOR_MOVE(k, bm->cursor);
    int ok = kontor_is_legal(&t->s, seat, m);
    int water = k == KONTOR_MOVE_PLACE && kontor_is_legal(&t->s, seat, KONTOR_MOVE(KONTOR_MOVE_PLACE_WATER, bm->cursor));
    snprintf(line, cap, _("cursor %s: %s"), kontor_format_cell(bm->cursor, cs),
             ok && water ? _("legal, as a dock card (Enter) or as water (w)")
             : water     ? _("legal as water (Enter or w)")
             : ok        ? _("legal")
                         : kontor_why_illegal(&t->s, seat, m, why, sizeof why));
}

void tui_draw(tui *t) {
    erase();
    if (tui_too_small()) {
        mvprintw(0, 0, _("kontor play needs a terminal of at least %dx%d;"), TUI_MIN_COLS, TUI_MIN_ROWS);
        mvprintw(1, 0, _("this one is %dx%d. Make it larger, or q to quit."), COLS, LINES);
        refresh();
        return;
    }
    tui_window(t);
    int viewer = tui_viewer(t);
    kontor_view v;
    kontor_view_of(&t->s, viewer, &v);
    const kontor_state *d = &v.s;
    /* title */
    char title[256];
    snprintf(title, sizeof title, _(" Kontor %s  round %d  seed %llu  "), kontor_variant_name(d->cfg->variant), d->round,
             (unsigned long long)t->seed);
    if (t->nseats == 2)
        append(title, sizeof title, _(" red: %s  black: %s"), t->seat[0].spec, t->seat[1].spec);
    else
        append(title, sizeof title, _(" red: %s+%s  black: %s+%s"), t->seat[0].spec, t->seat[1].spec, t->seat[2].spec,
               t->seat[3].spec);
    attr_t ta = t->colour ? pair(t, P_TITLE) : A_REVERSE;
    attron(ta);
    mvhline(0, 0, ' ', COLS);
    attroff(ta);
    put(t, 0, 0, COLS, P_TITLE, t->colour ? A_BOLD : A_REVERSE, title);
    /* who decides now, and on what */
    int seat = t->broken ? -1 : tui_human_actor(t);
    board_marks bm;
    targets(t, seat, &bm);
    bm.cursor = -1;
    if (seat >= 0 && t->s.phase != KONTOR_PHASE_CHOOSE && t->s.phase != KONTOR_PHASE_DECLARE) {
        if (!tui_menu_phase(t->s.phase)) {
            bm.cursor = t->cursor;
        } else {
            /* a menu of cells: the cursor shows the selected entry's cell, or
             * roams the board when the arrows moved it off every entry */
            kontor_move mv[KONTOR_MAX_MOVES];
            int n = kontor_legal(&t->s, seat, mv), cells = 0;
            for (int i = 0; i < n; i++) cells |= tui_move_cell(mv[i]) >= 0;
            if (cells && (t->msel < 0 || (t->msel < n && tui_move_cell(mv[t->msel]) == t->cursor))) bm.cursor = t->cursor;
        }
    }
    draw_board(t, d, &bm);
    int bw = BOARD_X + (t->wx1 - t->wx0 + 1) * t->cell_w + 1;
    draw_panel(t, d, viewer, seat, bw, LINES - 4);
    /* messages */
    char line[256];
    int long_msg = (int)strlen(t->msg) > COLS;
    if (long_msg) {
        char part[4][TUI_LOG_WIDTH];
        int k = wrap_lines(t->msg, COLS < TUI_LOG_WIDTH ? COLS : TUI_LOG_WIDTH - 1, part, 4);
        for (int i = 0; i < k && i < 2; i++)
            put(t, LINES - 4 + i, 0, COLS, t->msg_err ? P_ERR : 0, t->msg_err ? A_BOLD : 0, part[i]);
    } else {
        put(t, LINES - 4, 0, COLS, t->msg_err ? P_ERR : 0, t->msg_err ? A_BOLD : 0, t->msg);
        cursor_line(t, seat, &bm, line, sizeof line);
        put(t, LINES - 3, 0, COLS, 0, t->typing[0] ? A_BOLD : A_DIM, line);
    }
    if (t->broken) snprintf(line, sizeof line, _("a computer player failed: s saves the game, q quits"));
    else if (seat >= 0) prompt_for(t, seat, line, sizeof line);
    else if (kontor_over(&t->s)) prompt_for(t, 0, line, sizeof line);
    else snprintf(line, sizeof line, _("the computer is thinking..."));
    put(t, LINES - 2, 0, COLS, 0, A_BOLD, line);
    put(t, LINES - 1, 0, COLS, 0, A_DIM, _("? help  h hint  u undo  s save  l load  L log  q quit"));
    refresh();
}

/* Between people: the public screen (t->handed is -1, so no hand is drawn)
 * with the hand-over in place of the messages and the prompt. */
void tui_draw_handover(tui *t, int seat) {
    tui_draw(t);
    if (tui_too_small()) return;
    char who[16];
    const char *name = tui_seat_name(&t->s, seat);
    size_t i;
    for (i = 0; name[i] && i + 1 < sizeof who; i++) who[i] = (char)toupper((unsigned char)name[i]);
    who[i] = 0;
    for (int y = LINES - 4; y < LINES - 1; y++) {
        move(y, 0);
        clrtoeol();
    }
    int p = kontor_team(&t->s, seat) == 0 ? P_RED : P_BLACK;
    const char *what = t->s.phase == KONTOR_PHASE_CHOOSE    ? _("choice")
                       : t->s.phase == KONTOR_PHASE_DECLARE ? _("declaration")
                       : t->s.phase == KONTOR_PHASE_BUY     ? _("purchase")
                       : t->s.phase == KONTOR_PHASE_BRIBE ? _("bribe") : _("picks");
    int x = put(t, LINES - 4, 0, COLS, p, A_BOLD | A_REVERSE, _(" HAND-OVER "));
    putf(t, LINES - 4, x, COLS, 0, A_BOLD, _(" give the keyboard to %s for the secret %s of round %d."), who, what,
         t->s.round);
    if (t->nseats == 2)
        putf(t, LINES - 3, 0, COLS, 0, 0, _("%s, please look away: %s's hand comes next."), seat == 0 ? _("Black") : _("Red"),
             name);
    else
        putf(t, LINES - 3, 0, COLS, 0, 0, _("Everybody else, please look away: %s's hand comes next."), name);
    putf(t, LINES - 2, 0, COLS, 0, A_BOLD, _("%s: press Enter when you are ready (q quits)."), who);
    refresh();
}

int tui_page(tui *t, const char *title, const char *text) {
    /* split into lines once */
    int cap = 64, n = 0;
    const char **lines = malloc(sizeof *lines * (size_t)cap);
    int *lens = malloc(sizeof *lens * (size_t)cap);
    if (!lines || !lens) {
        free(lines);
        free(lens);
        return 'q';
    }
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        int len = e ? (int)(e - p) : (int)strlen(p);
        if (n == cap) {
            cap *= 2;
            const char **nl = realloc(lines, sizeof *lines * (size_t)cap);
            int *nn = realloc(lens, sizeof *lens * (size_t)cap);
            if (nl) lines = nl;
            if (nn) lens = nn;
            if (!nl || !nn) break;
        }
        lines[n] = p;
        lens[n++] = len;
        p = e ? e + 1 : p + len;
    }
    int top = 0, key;
    for (;;) {
        int room = LINES - 2;
        if (top > n - room) top = n - room;
        if (top < 0) top = 0;
        erase();
        attr_t ta = t->colour ? pair(t, P_TITLE) : A_REVERSE;
        attron(ta);
        mvhline(0, 0, ' ', COLS);
        mvaddnstr(0, 1, title, COLS - 1);
        attroff(ta);
        for (int i = 0; i < room && top + i < n; i++) {
            /* clipped by columns, not bytes (a translation has umlauts) */
            char ln[512];
            snprintf(ln, sizeof ln, "%.*s", lens[top + i] < (int)sizeof ln ? lens[top + i] : (int)sizeof ln - 1, lines[top + i]);
            mvaddnstr(1 + i, 0, ln, cli_text_fit(ln, COLS));
        }
        char foot[128];
        snprintf(foot, sizeof foot, _("lines %d-%d of %d   up/down/PgUp/PgDn scroll, any other key goes back"), n ? top + 1 : 0,
                 top + room < n ? top + room : n, n);
        put(t, LINES - 1, 0, COLS, 0, A_DIM, foot);
        refresh();
        key = tui_key(t);
        if (t->quit) break;
        if (key == KEY_UP) top--;
        else if (key == KEY_DOWN) top++;
        else if (key == KEY_PPAGE) top -= room;
        else if (key == KEY_NPAGE || key == ' ') top += room;
        else if (key == KEY_HOME) top = 0;
        else if (key == KEY_END) top = n;
        else if (key == KEY_RESIZE) continue;
        else break;
    }
    free(lines);
    free(lens);
    return key;
}

const char *tui_end_reason(int reason) {
    switch (reason) {
    case KONTOR_END_FULL: return _("the board is full");
    case KONTOR_END_MAX_ROUNDS: return _("the round limit is reached");
    case KONTOR_END_STUCK: return _("nobody has a card left that fits");
    case KONTOR_END_ROW: return _("three islands in a row");
    case KONTOR_END_BANKRUPT: return _("a player is broke and the treasury empty");
    default: return "";
    }
}

/* The end screen: result, the table of enclosed areas, money. */
void tui_end_text(const tui *t, char *buf, size_t cap) {
    const kontor_state *s = &t->s;
    size_t n = 0;
#define OUT(...) do { if (n < cap) n += (size_t)snprintf(buf + n, cap - n, __VA_ARGS__); } while (0)
    OUT(_("Game over after %d rounds: %s.\n\n"), s->round, tui_end_reason(s->end_reason));
    if (s->winner < 0) OUT(_("  A DRAW, %d:%d (and equal money).\n\n"), s->score[0], s->score[1]);
    else OUT(_("  %s WINS %d:%d%s\n\n"), s->winner == 0 ? _("RED") : _("BLACK"), s->score[0], s->score[1],
             s->score[0] == s->score[1] && s->end_reason != KONTOR_END_ROW && s->end_reason != KONTOR_END_BANKRUPT
                 ? _(" on money (points equal)") : "");
    OUT(_("                 red           black\n"));
    if (t->nseats == 2) {
        OUT(_("  player         %-13.13s %-13.13s\n"), t->seat[0].spec, t->seat[1].spec);
    } else {
        char a[160], b[160];
        snprintf(a, sizeof a, "%s+%s", t->seat[0].spec, t->seat[1].spec);
        snprintf(b, sizeof b, "%s+%s", t->seat[2].spec, t->seat[3].spec);
        OUT(_("  players        %-13.13s %-13.13s\n"), a, b);
    }
    OUT(_("  points         %-13d %-13d\n"), s->score[0], s->score[1]);
    OUT(_("  keepers        %-13d %-13d\n"), s->keepers[0], s->keepers[1]);
    if (t->nseats == 2) {
        OUT(_("  coins          %-13d %-13d\n"), s->coins[0], s->coins[1]);
    } else {
        char a[32], b[32];
        snprintf(a, sizeof a, "%d (%d+%d)", s->coins[0] + s->coins[1], s->coins[0], s->coins[1]);
        snprintf(b, sizeof b, "%d (%d+%d)", s->coins[2] + s->coins[3], s->coins[2], s->coins[3]);
        OUT(_("  coins          %-13s %-13s\n"), a, b);
    }
    if (s->cfg->export_store)
        OUT(_("  export T/W/S   %d/%d/%d         %d/%d/%d\n"), s->export_n[0][0], s->export_n[0][1], s->export_n[0][2],
            s->export_n[1][0], s->export_n[1][1], s->export_n[1][2]);
    if (s->cfg->tiles) OUT(_("  tile points    %-13d %-13d\n"), s->bonus_points[0], s->bonus_points[1]);
    OUT("\n");
    uint8_t counted[KONTOR_MAX_AREAS];
    kontor_counted_areas(s, counted);
    OUT(_("Enclosed areas, in the order they were closed%s:\n"),
        s->cfg->scoring == KONTOR_SCORE_SMALLEST ? _(" (only the smallest count)")
        : s->cfg->largest                        ? _(" (only the largest count)") : "");
    OUT(_("   #  round  cards  dist  at      red T W S  black T W S  winner  counts pts\n"));
    for (int a = 0; a < s->nareas; a++) {
        const kontor_area *ar = &s->area[a];
        char cs[8];
        int counts = ar->winner < 2 && ar->keeper && !ar->out && counted[a];
        uint8_t g[2][3];
        kontor_area_goods(ar, g);
        OUT("  %2d  %5d  %5d  %4d  %-6s      %d %d %d        %d %d %d  %-6s  %-6s %d\n", a + 1, ar->round, ar->size,
            ar->dist, kontor_format_cell(ar->cell, cs), g[0][0], g[0][1], g[0][2],
            g[1][0], g[1][1], g[1][2],
            ar->winner == 0 ? _("red") : ar->winner == 1 ? _("black") : "-",
            ar->out ? _("out") : ar->winner < 2 && ar->keeper ? (counted[a] ? _("yes") : _("no")) : "-",
            counts ? ar->value : 0);
    }
    if (!s->nareas) OUT(_("  (none)\n"));
    OUT(_("\nGoods are T tea, W wine, S spice; the winner of an area has the largest\n"
        "single lead, then leads in more goods, then wine > spice > tea > wine.\n"
        "'out': its tavern's owner chose that it does not score.\n"));
    OUT(_("\nKeys: b the board, s save, L log, u undo, q quit.\n"));
#undef OUT
}

void tui_dump(tui *t, FILE *f, const char *label) {
    (void)t;
    char line[1024];
    int cy, cx;
    getyx(stdscr, cy, cx);
    fprintf(f, "--- screen%s%s %dx%d ---\n", label && *label ? " " : "", label ? label : "", COLS, LINES);
    for (int y = 0; y < LINES; y++) {
        int n = mvwinnstr(stdscr, y, 0, line, COLS < (int)sizeof line - 1 ? COLS : (int)sizeof line - 1);
        if (n < 0) n = 0;
        line[n] = 0;
        while (n > 0 && line[n - 1] == ' ') line[--n] = 0;
        fprintf(f, "%s\n", line);
    }
    fflush(f);
    move(cy, cx);
}

int tui_screen_has(tui *t, const char *text) {
    char line[1024];
    (void)t;
    int cy, cx, found = 0;
    getyx(stdscr, cy, cx);
    for (int y = 0; y < LINES && !found; y++) {
        int n = mvwinnstr(stdscr, y, 0, line, COLS < (int)sizeof line - 1 ? COLS : (int)sizeof line - 1);
        if (n < 0) n = 0;
        line[n] = 0;
        found = strstr(line, text) != NULL;
    }
    move(cy, cx);
    return found;
}
