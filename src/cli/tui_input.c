/* tui_input.c: keys of kontor play, from the keyboard or from a test script.
 *
 * The main loop asks for one key at a time (tui_key) after it has drawn the
 * screen. A script is read only at that moment, one line at a time, so its
 * "expect" and "dump" lines see exactly the screen a person would see before
 * pressing the next key; nothing depends on timing, and a run is repeatable.
 * The script language (docs/play.md):
 *
 *     keys TEXT       type TEXT; <enter> <esc> <bs> <ctrl-u> <tab> <space> <lt> <left>
 *                     <right> <up> <down> <pgup> <pgdn> name special keys
 *     expect TEXT     the screen must show TEXT (on one line), else exit 3
 *     expect-not TEXT the screen must not show TEXT
 *     dump [LABEL]    write the screen as text to --dump FILE (or stdout)
 *     resize CxR      the terminal becomes C columns by R rows
 *     until-over TEXT type TEXT again and again until the game is over
 *     repeat TEXT     the keys that "until" types
 *     until TEXT      type the repeat keys again and again until the screen shows TEXT
 *     # ...           a comment
 *
 * tui_step handles one key: the decision keys of the current phase (choose a
 * card, the ship, a removal, a cell) and the commands available at any time
 * (help, hint, undo, save, load, log, quit). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/tui.h"

#define UNTIL_MAX_KEYS 20000 /* a game is about 40 rounds of a few keys each */
#define UNTIL_STUCK 50       /* repetitions without any decision: the keys do not play */

/* ---- the script ------------------------------------------------------------- */

int tui_script_open(tui *t, const char *path, const char *dump) {
    t->script = 1;
    snprintf(t->sname, sizeof t->sname, "%s", path);
    t->sf = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!t->sf) {
        cli_error(_("play: cannot read script '%s': %s"), path, strerror(errno));
        return -1;
    }
    if (dump) {
        t->dumpf = fopen(dump, "w");
        if (!t->dumpf) {
            cli_error(_("play: cannot write screen dumps to '%s': %s"), dump, strerror(errno));
            return -1;
        }
        t->own_dumpf = 1;
    } else {
        t->dumpf = stdout;
    }
    return 0;
}

void tui_script_close(tui *t) {
    if (t->sf && t->sf != stdin) fclose(t->sf);
    t->sf = NULL;
    if (t->own_dumpf && t->dumpf) fclose(t->dumpf);
    t->dumpf = NULL;
}

__attribute__((format(printf, 2, 3))) static void script_fail(tui *t, const char *fmt, ...) {
    char buf[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tui_fatal(t, _("script '%s' line %d: %s"), t->sname, t->sline, buf);
    t->exit_code = 3;
    tui_dump(t, stderr, "at the failure");
}

static const struct {
    const char *name;
    int key;
} key_names[] = {
    {"enter", '\n'}, {"esc", 27}, {"ctrl-u", 21}, {"bs", KEY_BACKSPACE}, {"tab", '\t'}, {"space", ' '}, {"lt", '<'},
    {"left", KEY_LEFT}, {"right", KEY_RIGHT}, {"up", KEY_UP}, {"down", KEY_DOWN}, {"pgup", KEY_PPAGE},
    {"pgdn", KEY_NPAGE}, {"home", KEY_HOME}, {"end", KEY_END},
};

/* Parse TEXT of a keys line into keys; -1 on an unknown <name>. */
static int parse_keys(tui *t, const char *s, int *out, int cap) {
    int n = 0;
    while (*s && n < cap) {
        if (*s == '<') {
            const char *e = strchr(s, '>');
            size_t len = e ? (size_t)(e - s - 1) : 0;
            size_t i;
            for (i = 0; e && i < sizeof key_names / sizeof *key_names; i++)
                if (strlen(key_names[i].name) == len && strncmp(s + 1, key_names[i].name, len) == 0) break;
            if (!e || i == sizeof key_names / sizeof *key_names) {
                script_fail(t, "unknown key name in '%s' (known: <enter> <esc> <bs> <ctrl-u> <tab> <space> <lt> <left> "
                               "<right> <up> <down> <pgup> <pgdn> <home> <end>)", s);
                return -1;
            }
            out[n++] = key_names[i].key;
            s = e + 1;
        } else {
            out[n++] = (unsigned char)*s++;
        }
    }
    if (*s) {
        script_fail(t, "too many keys on one line (at most %d)", cap);
        return -1;
    }
    return n;
}

static int script_key(tui *t) {
    char line[1024];
    for (;;) {
        if (t->quit) return 'q';
        if (t->kqpos < t->kqn) return t->kq[t->kqpos++];
        if (t->until_on) {
            if (t->until_text[0] && tui_screen_has(t, t->until_text)) {
                t->until_on = 0;
                t->until_text[0] = 0;
            } else if (kontor_over(&t->s) || t->broken) {
                t->until_on = 0;
                if (t->until_text[0]) {
                    script_fail(t, "until: the game ended before '%s' showed on the screen", t->until_text);
                    return 'q';
                }
            } else {
                if (t->until_keys > UNTIL_MAX_KEYS) {
                    script_fail(t, "until-over: the game is not over after %d keys", UNTIL_MAX_KEYS);
                    return 'q';
                }
                if (t->nply != t->until_nply) t->until_nply = t->nply, t->until_stuck = 0;
                else if (++t->until_stuck > UNTIL_STUCK) {
                    script_fail(t, "until-over: %d repetitions without a decision", UNTIL_STUCK);
                    return 'q';
                }
                memcpy(t->kq, t->until, sizeof t->until[0] * (size_t)t->untiln);
                t->kqn = t->untiln;
                t->kqpos = 0;
                t->until_keys += t->untiln;
                continue;
            }
        }
        if (!fgets(line, sizeof line, t->sf)) {
            script_fail(t, "the script ended while the game waits for a key");
            return 'q';
        }
        t->sline++;
        size_t len = strlen(line);
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (!*p || *p == '#') continue;
        char *arg = p;
        while (*arg && *arg != ' ') arg++;
        if (*arg) *arg++ = 0;
        if (strcmp(p, "keys") == 0) {
            int n = parse_keys(t, arg, t->kq, (int)(sizeof t->kq / sizeof *t->kq));
            if (n < 0) return 'q';
            t->kqn = n;
            t->kqpos = 0;
        } else if (strcmp(p, "until-over") == 0) {
            int n = parse_keys(t, arg, t->until, (int)(sizeof t->until / sizeof *t->until));
            if (n < 0) return 'q';
            if (n == 0) {
                script_fail(t, "until-over wants keys to repeat");
                return 'q';
            }
            t->untiln = n;
            t->until_on = 1;
            t->until_keys = 0;
            t->until_nply = t->nply;
            t->until_stuck = 0;
            t->until_text[0] = 0;
        } else if (strcmp(p, "repeat") == 0) {
            int n = parse_keys(t, arg, t->until, (int)(sizeof t->until / sizeof *t->until));
            if (n <= 0) {
                if (n == 0) script_fail(t, "repeat wants keys");
                return 'q';
            }
            t->untiln = n;
        } else if (strcmp(p, "until") == 0) {
            if (!*arg || !t->untiln) {
                script_fail(t, "until wants a text, after a 'repeat' line with keys");
                return 'q';
            }
            snprintf(t->until_text, sizeof t->until_text, "%.255s", arg);
            t->until_on = 1;
            t->until_keys = 0;
            t->until_nply = t->nply;
            t->until_stuck = 0;
        } else if (strcmp(p, "expect") == 0 || strcmp(p, "expect-not") == 0) {
            int want = strcmp(p, "expect") == 0;
            if (!*arg) {
                script_fail(t, "%s wants a text", p);
                return 'q';
            }
            if (tui_screen_has(t, arg) != want) {
                script_fail(t, want ? "expected '%s' on the screen" : "did not expect '%s' on the screen", arg);
                return 'q';
            }
        } else if (strcmp(p, "dump") == 0) {
            tui_dump(t, t->dumpf, arg);
        } else if (strcmp(p, "resize") == 0) {
            char *end;
            long c = strtol(arg, &end, 10), r = *end == 'x' ? strtol(end + 1, &end, 10) : -1;
            if (*end || c < 20 || c > 500 || r < 8 || r > 300) {
                script_fail(t, "resize wants COLSxROWS like 80x24, not '%s'", arg);
                return 'q';
            }
            resizeterm((int)r, (int)c);
            return KEY_RESIZE;
        } else {
            script_fail(t, "'%s' is not a script command (keys, expect, expect-not, dump, resize, until-over, repeat, until)", p);
            return 'q';
        }
    }
}

int tui_key(tui *t) {
    if (t->script) return script_key(t);
    int k;
    do k = getch();
    while (k == ERR && !t->quit);
    return k;
}

static int is_enter(int k) { return k == '\n' || k == '\r' || k == KEY_ENTER; }
static int is_backspace(int k) { return k == KEY_BACKSPACE || k == 127 || k == 8; }

/* Read a line of text on the message line; returns 0 on Enter, -1 on Esc. */
static int read_line(tui *t, const char *prompt, char *buf, size_t cap) {
    size_t n = strlen(buf);
    for (;;) {
        tui_draw(t);
        move(LINES - 3, 0);
        clrtoeol();
        mvprintw(LINES - 3, 0, _("%s%s_   (Enter: ok, Esc: cancel)"), prompt, buf);
        refresh();
        int k = tui_key(t);
        if (t->quit) return -1;
        if (is_enter(k)) return 0;
        if (k == 27) return -1;
        if (k == 21) { /* ctrl-u: clear the line */
            n = 0;
            buf[0] = 0;
        } else if (is_backspace(k)) {
            if (n) buf[--n] = 0;
        } else if (k >= 32 && k < 127 && n + 1 < cap) {
            buf[n++] = (char)k;
            buf[n] = 0;
        }
    }
}

static int confirm(tui *t, const char *question) {
    tui_msg(t, 0, _("%s (y/n)"), question);
    tui_draw(t);
    int k = tui_key(t);
    tui_msg(t, 0, "%s", "");
    return k == 'y' || k == 'Y' || k == 'j' || k == 'J'; /* ja */
}

/* ---- decisions ---------------------------------------------------------------- */

/* The kind of the board decision of a board phase. */
static int board_kind(const kontor_state *s) {
    switch (s->phase) {
    case KONTOR_PHASE_SHIP: return KONTOR_MOVE_SHIP;
    case KONTOR_PHASE_REMOVE: return KONTOR_MOVE_REMOVE;
    case KONTOR_PHASE_PLACE: return KONTOR_MOVE_PLACE;
    default: return 0;
    }
}

/* The menu entry whose decision names cell, or -1. */
static int menu_entry_at(const kontor_move *mv, int n, int cell) {
    for (int i = 0; i < n; i++)
        if (tui_move_cell(mv[i]) == cell) return i;
    return -1;
}

/* New decision: selection on the first card or entry, cursor on the first
 * target. */
static void reset_decision(tui *t) {
    t->decision = t->nply;
    t->typing[0] = 0;
    t->pending = 0;
    t->sel = 0;
    t->msel = 0;
    t->mnum = 0;
    int seat = tui_human_actor(t);
    /* R1: the card picked while declaring to play stays picked for the choice */
    if (seat >= 0 && t->s.phase == KONTOR_PHASE_CHOOSE && t->presel[seat] >= 0 && t->presel[seat] < t->s.hand_n[seat])
        t->sel = t->presel[seat];
    if (seat >= 0 && t->s.phase == KONTOR_PHASE_DECLARE) t->presel[seat] = -1;
    if (seat < 0 || t->s.phase == KONTOR_PHASE_CHOOSE || t->s.phase == KONTOR_PHASE_DECLARE) return;
    kontor_move mv[KONTOR_MAX_MOVES];
    int n = kontor_legal(&t->s, seat, mv);
    int first = n > 0 ? tui_move_cell(mv[0]) : -1;
    for (int i = 0; i < n && first < 0; i++) first = tui_move_cell(mv[i]);
    if (first >= 0) t->cursor = first;
    if (t->cursor < 0 || t->cursor >= KONTOR_CELLS) t->cursor = KONTOR_CENTRE_CELL;
}

static void try_move(tui *t, int seat, kontor_move m) {
    char why[200];
    if (!kontor_is_legal(&t->s, seat, m)) {
        tui_msg(t, 1, _("not allowed: %s"), kontor_why_illegal(&t->s, seat, m, why, sizeof why));
        return;
    }
    if (tui_apply(t, seat, m)) return;
    tui_msg(t, 0, "%s", "");
    /* among several people, the keyboard goes on once this seat owes no
     * more secret decisions */
    if (t->nhuman >= 2 && !(tui_secret_phase(t->s.phase) && ((kontor_actors(&t->s) >> seat) & 1))) t->handed = -1;
}

static void move_cursor(tui *t, int dx, int dy) {
    int x = kontor_cell_dx(t->cursor) + dx, y = kontor_cell_dy(t->cursor) + dy;
    if (x < t->wx0) x = t->wx0;
    if (x > t->wx1) x = t->wx1;
    if (y < t->wy0) y = t->wy0;
    if (y > t->wy1) y = t->wy1;
    t->cursor = kontor_cell(x, y);
    t->pending = 0;
    if (t->msg_err) tui_msg(t, 0, "%s", ""); /* the cursor line explains the new cell */
}

/* Place the card at cell: as a dock card where that is legal, else as water
 * (a customs house), else the dock card's refusal explains. */
static void place_at(tui *t, int seat, int cell) {
    kontor_move dock = KONTOR_MOVE(KONTOR_MOVE_PLACE, cell), water = KONTOR_MOVE(KONTOR_MOVE_PLACE_WATER, cell);
    if (!kontor_is_legal(&t->s, seat, dock) && kontor_is_legal(&t->s, seat, water)) try_move(t, seat, water);
    else try_move(t, seat, dock);
}

/* A cell typed as x,y: returns it, or -1 with the error on the message line. */
static int typed_cell(tui *t) {
    int c = kontor_parse_cell(t->typing);
    if (c < 0) {
        tui_msg(t, 1, _("'%s' is not a cell: type x,y such as +1,-2 (x east, y south of the centre)"), t->typing);
        return -1;
    }
    int x = kontor_cell_dx(c), y = kontor_cell_dy(c);
    if (x >= t->wx0 && x <= t->wx1 && y >= t->wy0 && y <= t->wy1) t->cursor = c;
    return c;
}

/* Keys while a cell is being typed; returns 1 if the key was taken. On
 * Enter, *cell is the cell (or -1). */
static int typing_key(tui *t, int k, int *cell) {
    size_t len = strlen(t->typing);
    *cell = -1;
    if (!len) return 0;
    if (is_enter(k)) {
        *cell = typed_cell(t);
        t->typing[0] = 0;
        if (*cell < 0) *cell = -2;
    } else if (k == 27) {
        t->typing[0] = 0;
    } else if (is_backspace(k)) {
        t->typing[len - 1] = 0;
    } else if ((isdigit(k) || k == '+' || k == '-' || k == ',') && len + 1 < sizeof t->typing) {
        t->typing[len] = (char)k;
        t->typing[len + 1] = 0;
    }
    return 1;
}

/* The menu: every legal decision of a phase without keys of its own. */
static void menu_key(tui *t, int seat, int k) {
    kontor_move mv[KONTOR_MAX_MOVES];
    int n = kontor_legal(&t->s, seat, mv);
    if (n <= 0) return;
    int cells = 0, kind = KONTOR_MOVE_KIND(mv[0]), none = -1;
    for (int i = 0; i < n; i++) {
        if (tui_move_cell(mv[i]) >= 0) cells = 1, kind = KONTOR_MOVE_KIND(mv[i]);
        else if (KONTOR_MOVE_VALUE(mv[i]) == KONTOR_NONE) none = i;
    }
    int cell;
    if (cells && typing_key(t, k, &cell)) {
        if (cell >= 0) {
            int i = menu_entry_at(mv, n, cell);
            if (i >= 0) t->msel = i, try_move(t, seat, mv[i]);
            else try_move(t, seat, KONTOR_MOVE(kind, cell)); /* refused: says why */
        }
        return;
    }
    if (k >= '1' && k <= '9' ? 1 : k == '0' && t->mnum > 0) {
        int d = k - '0', v = t->mnum * 10 + d;
        if (v < 1 || v > n) v = d;
        if (v < 1 || v > n) {
            tui_msg(t, 1, _("there is no choice %c here (1-%d)"), k, n);
            t->mnum = 0;
            return;
        }
        t->mnum = v;
        t->msel = v - 1;
        t->pending = 0;
        if (tui_move_cell(mv[v - 1]) >= 0) t->cursor = tui_move_cell(mv[v - 1]);
        return;
    }
    t->mnum = 0;
    if (cells && (k == '+' || k == '-' || k == '0')) {
        t->typing[0] = (char)k;
        t->typing[1] = 0;
        return;
    }
    int step = 0;
    if (k == '\t' || k == KEY_NPAGE) step = 1;
    else if (k == KEY_BTAB || k == KEY_PPAGE) step = -1;
    else if (!cells && (k == KEY_DOWN || k == KEY_RIGHT)) step = 1;
    else if (!cells && (k == KEY_UP || k == KEY_LEFT)) step = -1;
    if (step) {
        int i = t->msel < 0 ? 0 : (t->msel + step + n) % n;
        t->msel = i;
        t->pending = 0;
        if (tui_move_cell(mv[i]) >= 0) t->cursor = tui_move_cell(mv[i]);
        return;
    }
    if (cells && (k == KEY_LEFT || k == KEY_RIGHT || k == KEY_UP || k == KEY_DOWN)) {
        move_cursor(t, k == KEY_LEFT ? -1 : k == KEY_RIGHT ? 1 : 0, k == KEY_UP ? -1 : k == KEY_DOWN ? 1 : 0);
        t->msel = menu_entry_at(mv, n, t->cursor);
        return;
    }
    if (k == 'n' || k == 'N') {
        if (none >= 0) try_move(t, seat, mv[none]);
        else tui_msg(t, 1, _("there is no 'none' here: pick one of the %d choices"), n);
        return;
    }
    if (is_enter(k) || k == ' ') {
        if (t->msel >= 0 && t->msel < n) try_move(t, seat, mv[t->msel]);
        else try_move(t, seat, KONTOR_MOVE(kind, t->cursor)); /* refused: says why */
    }
}

static void decision_key(tui *t, int seat, int k) {
    kontor_state *s = &t->s;
    if (s->phase == KONTOR_PHASE_CHOOSE || s->phase == KONTOR_PHASE_DECLARE) {
        int n = s->hand_n[seat];
        if (k >= '1' && k <= '9') {
            if (k - '1' < n) t->sel = k - '1';
            else tui_msg(t, 1, _("there is no card %c in your hand (1-%d)"), k, n);
        } else if (k == 'p' || k == 'P') {
            t->sel = n;
        } else if (k == KEY_LEFT || k == KEY_UP) {
            t->sel = t->sel > 0 ? t->sel - 1 : n;
        } else if (k == KEY_RIGHT || k == KEY_DOWN || k == '\t') {
            t->sel = t->sel < n ? t->sel + 1 : 0;
        } else if ((is_enter(k) || k == ' ') && s->phase == KONTOR_PHASE_DECLARE) {
            /* R1: a card picked declares to play (the card is chosen after the
             * declarations are revealed, picked again by Enter); p passes */
            t->presel[seat] = t->sel < n ? t->sel : -1;
            try_move(t, seat, KONTOR_MOVE(KONTOR_MOVE_DECLARE, t->sel < n ? KONTOR_PLAY : KONTOR_PASS));
        } else if (is_enter(k) || k == ' ') {
            try_move(t, seat, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, t->sel < n ? s->hand[seat][t->sel] : KONTOR_PASS));
        }
        return;
    }
    if (tui_menu_phase(s->phase)) {
        menu_key(t, seat, k);
        return;
    }
    int kind = board_kind(s), cell;
    if (typing_key(t, k, &cell)) {
        if (cell >= 0) {
            if (kind == KONTOR_MOVE_PLACE) place_at(t, seat, cell);
            else try_move(t, seat, KONTOR_MOVE(kind, cell));
        }
        return;
    }
    switch (k) {
    case KEY_LEFT: move_cursor(t, -1, 0); break;
    case KEY_RIGHT: move_cursor(t, 1, 0); break;
    case KEY_UP: move_cursor(t, 0, -1); break;
    case KEY_DOWN: move_cursor(t, 0, 1); break;
    case 'n':
    case 'N': try_move(t, seat, KONTOR_MOVE(kind, KONTOR_NONE)); break;
    case 'w':
    case 'W':
        if (kind == KONTOR_MOVE_PLACE) try_move(t, seat, KONTOR_MOVE(KONTOR_MOVE_PLACE_WATER, t->cursor));
        break;
    default:
        if (is_enter(k) || k == ' ') {
            if (t->pending) try_move(t, seat, t->pending);
            else if (kind == KONTOR_MOVE_PLACE) place_at(t, seat, t->cursor);
            else try_move(t, seat, KONTOR_MOVE(kind, t->cursor));
        } else if (isdigit(k) || k == '+' || k == '-') {
            t->typing[0] = (char)k;
            t->typing[1] = 0;
        }
    }
}

static void hint(tui *t, int seat) {
    if (seat < 0) {
        tui_msg(t, 1, _("no hint: it is not your decision"));
        return;
    }
    char who[64], c1[24], text[160];
    kontor_move m = tui_hint(t, seat, who, sizeof who);
    if (m == KONTOR_FORFEIT) return;
    if (!kontor_is_legal(&t->s, seat, m)) {
        tui_msg(t, 1, _("the hint player %s gave an illegal move"), who);
        return;
    }
    int v = KONTOR_MOVE_VALUE(m);
    if (KONTOR_MOVE_KIND(m) == KONTOR_MOVE_DECLARE) {
        t->sel = v == KONTOR_PASS ? t->s.hand_n[seat] : 0;
        tui_msg(t, 0, _("hint (%s): %s. Enter accepts"), who, v == KONTOR_PASS ? _("pass this round") : _("play a card this round"));
        return;
    }
    if (KONTOR_MOVE_KIND(m) == KONTOR_MOVE_CHOOSE) {
        if (v == KONTOR_PASS) {
            t->sel = t->s.hand_n[seat];
            tui_msg(t, 0, _("hint (%s): pass. Enter accepts"), who);
        } else {
            for (int i = 0; i < t->s.hand_n[seat]; i++)
                if (t->s.hand[seat][i] == v) t->sel = i;
            tui_msg(t, 0, _("hint (%s): play %s. Enter accepts"), who, tui_card_text(&t->s, v, c1, sizeof c1));
        }
        return;
    }
    kontor_move_text(&t->s, seat, m, text, sizeof text);
    t->typing[0] = 0;
    if (tui_move_cell(m) >= 0) t->cursor = tui_move_cell(m);
    if (tui_menu_phase(t->s.phase)) {
        kontor_move mv[KONTOR_MAX_MOVES];
        int n = kontor_legal(&t->s, seat, mv);
        for (int i = 0; i < n; i++)
            if (mv[i] == m) t->msel = i;
        t->mnum = 0;
    } else {
        t->pending = m;
    }
    tui_msg(t, 0, _("hint (%s): %s. Enter accepts"), who, text);
}

static void log_page(tui *t) {
    size_t cap = (size_t)t->nlog * TUI_LOG_WIDTH + 1, n = 0;
    char *buf = malloc(cap);
    if (!buf) return;
    buf[0] = 0;
    for (int i = 0; i < t->nlog; i++) n += (size_t)snprintf(buf + n, cap - n, "%s\n", t->log[i]);
    tui_page(t, _("Kontor: the log of this game (newest last)"), buf);
    free(buf);
}

/* Keys that work at any time. Returns 1 if k was one. */
static int command_key(tui *t, int k, int seat) {
    char path[512];
    switch (k) {
    case 'q':
    case 'Q':
        if (kontor_over(&t->s) || t->broken || confirm(t, _("quit the game?"))) t->quit = 1;
        return 1;
    case '?': tui_page(t, _("Kontor: keys and rules (any other key goes back)"), _(tui_rules_text)); return 1;
    case 'L': log_page(t); return 1;
    case 'h': hint(t, seat); return 1;
    case 'u': tui_undo(t); t->autosaved = 0; return 1;
    case 's':
        if (t->savefile[0]) snprintf(path, sizeof path, "%s", t->savefile);
        else snprintf(path, sizeof path, "kontor-%llu.kgn", (unsigned long long)t->seed);
        if (read_line(t, _("save the game record to: "), path, sizeof path) == 0 && path[0]) tui_save(t, path);
        return 1;
    case 'l': {
        /* offered: the file this game was last saved to or loaded from */
        if (t->savefile[0]) snprintf(path, sizeof path, "%s", t->savefile);
        else snprintf(path, sizeof path, "kontor-%llu.kgn", (unsigned long long)t->seed);
        if (read_line(t, _("load a game record from: "), path, sizeof path) != 0) return 1;
        if (!path[0]) {
            tui_msg(t, 1, "%s", _("no file name given: nothing loaded"));
        } else {
            kontor_error err;
            if (tui_load(t, path, &err)) tui_msg(t, 1, "%s", err.msg);
            else {
                t->handed = -1;
                t->autosaved = 0;
                tui_msg(t, 0, _("loaded '%s': round %d, %d decisions"), path, t->s.round, t->nply);
            }
        }
        return 1;
    }
    case KEY_RESIZE: return 1;
    default: return 0;
    }
}

void tui_step(tui *t) {
    if (t->decision != t->nply) reset_decision(t);
    if (tui_too_small()) {
        tui_draw(t);
        int k = tui_key(t);
        if (k == 'q') t->quit = 1;
        return;
    }
    if (kontor_over(&t->s)) {
        if (t->autosave && !t->autosaved) {
            t->autosaved = 1;
            tui_save(t, t->savefile);
        }
        if (!t->show_board) {
            char buf[8192];
            tui_end_text(t, buf, sizeof buf);
            int k = tui_page(t, _("Kontor: the end"), buf);
            if (k == 'b') t->show_board = 1;
            else command_key(t, k, -1);
            return;
        }
    } else {
        t->show_board = 0;
    }
    int seat = t->broken ? -1 : tui_human_actor(t);
    if (seat >= 0 && t->nhuman >= 2 && tui_secret_phase(t->s.phase) && t->handed != seat) {
        t->handed = -1;
        tui_draw_handover(t, seat);
        int k = tui_key(t);
        if (is_enter(k) || k == ' ') t->handed = seat;
        else if (k == 'q' && confirm(t, _("quit the game?"))) t->quit = 1;
        return;
    }
    tui_draw(t);
    int k = tui_key(t);
    if (t->quit) return;
    if (kontor_over(&t->s) && k == 'b') {
        t->show_board = 0;
        return;
    }
    if (command_key(t, k, seat)) return;
    if (seat >= 0) decision_key(t, seat, k);
}

const char *const tui_rules_text = N_(
    "KEYS\n"
    "  declaring  p Enter passes this round; a card picked (1-8) and Enter plays\n"
    "  choosing   1-8 pick a card of your hand, arrows move, Enter plays it\n"
    "  board      arrows move the cursor [ ], Enter acts on its cell; or type a cell\n"
    "             such as +1,-2 (x east, y south of the centre) and Enter\n"
    "             n: leave the ship / remove nothing / (optional_place) take back\n"

    "  any time   ? this page   h hint from the computer   u undo (against the computer)\n"
    "             s save a game record   l load one   L the whole log   q quit\n"
    "\n"
    "THE BOARD\n"
    "  r17^  a red dock card number 17 with a ship symbol, b = black;  $ coin symbol\n"
    "  TW    its goods: T tea, W wine, S spice;  Krn crane, Tav tavern\n"
    "  ~45   a water card,  @ the harbour centre,  SHIP where the ship lies\n"
    "  R B   an enclosed area won by red or black (a keeper), = nobody won it;\n"
    "        lower case r b: the area does not count (only the largest count)\n"

    "  .     a cell that can still take a card; blank: it never can\n"
    "  ++    a legal cell for your card now;  * a target (ship, removal)\n"
    "\n"
    "THE RULES (Michael Schacht, Goldsieber 1999; docs/rules.md has the rulings)\n"
    "  Each round both players first declare in secret whether they pass; a pass\n"
    "  takes a coin from the treasury at once. Then those who play choose a card\n"
    "  of their hand in secret, knowing who passed. The cards are revealed.\n"
    "  A card with a coin\n"
    "  symbol makes the OTHER player pay one coin in tax; who cannot pay takes his\n"
    "  card back (and then owes nothing to the other).\n"
    "  The higher number goes first. Each places his card next to a card on the\n"
    "  table (not diagonally), then draws a card of the same kind (dock or water).\n"
    "  Placing a water card earns a coin from the treasury.\n"
    "  The board grows to 6x6 (advanced: 7x7); once a direction is that wide its\n"
    "  edges are fixed. A crane keeps the cells next to it clear of the opponent's\n"
    "  dock cards (water may go there).\n"
    "  Dock cards that touch form an area. When an area is enclosed by water (and\n"
    "  fixed edges) it is scored at once: compare the goods of each colour; the\n"
    "  largest single lead wins, then leads in more goods, then the value of the\n"
    "  goods (wine beats spice, spice beats tea, tea beats wine). The winner puts a\n"
    "  keeper there: one point. Equal: nobody.\n"
    "  The game ends when the board is full. Most points wins; equal points: more\n"
    "  money; then a draw.\n"
    "\n"
    "ADVANCED GAME\n"
    "  7x7 board; at the end only the five largest areas count (equal size: nearer\n"
    "  the centre). The ship starts on the centre. Who plays a card with a ship\n"
    "  symbol may first move the ship to another water card, and may then remove\n"
    "  one dock card with a ship symbol next to it (not in an enclosed area); the\n"
    "  card goes under its owner's pile, and its cell may take the card placed now.\n"
    "\n"
    "THE GAME FOR FOUR, SCENARIOS AND EXPANSIONS (docs/variants.md)\n"
    "  menus      every decision without keys of its own (buy, pile, bribe,\n"
    "             keep/discard, tavern, export, event, tile): 1-N (two digits for\n"
    "             10 and more), up/down or Tab/PgDn, Enter takes it; n the 'none'\n"
    "             choice; where the choices are cells, the arrows move the cursor\n"
    "             on the board and select the choice on its cell\n"
    "  w          place a customs house as water (Enter: as a dock card)\n"
    "  F88 B89 C90  flood, bridge, customs house (special cards); under a bridge\n"
    "        ===, under a customs house as a dock card Cus\n"
    "  x     an area its tavern's owner took out (Alte Seilschaften)\n"
    "  T5~~  action tile 5 on that water card: 1 move the centre, 2-4 a tea, wine,\n"
    "        spice warehouse, 5 one coin, 6 two coins, 7 the ship, 8 a point\n");
