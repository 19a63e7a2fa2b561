/* play.c: kontor play: play Kontor in the terminal (ncurses) against the
 * computer or a friend at the same keyboard.
 *
 * The game is kept as what a record keeps: the configuration, the deal and the
 * list of decisions. The state on screen is always the deal replayed through
 * those decisions, so undo (drop the last human decisions and replay), load
 * (parse a record and replay) and save (write the list) are the same few lines
 * and can never disagree with the rules engine. The screen is drawn from the
 * viewer's kontor_view, never from the full state, so the terminal cannot show
 * a card the player at the keyboard may not see.
 *
 * Everything is drawn in plain ASCII into stdscr, with colour as an extra when
 * the terminal has it: the same screen reads on a monochrome terminal, and a
 * test can dump stdscr as text. A test drives the real program with a script
 * (--script FILE, or keys on a non-tty stdin): key lines, screen expectations,
 * resizes and dumps, read only when the program waits for a key, so the run is
 * deterministic and needs no terminal (the curses output goes to /dev/null).
 * The drawing and the key handling live in tui_draw.c and tui_input.c; this
 * file holds the game, the command line and the main loop. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/tui.h"

/* ---- the game: deal + decisions ------------------------------------------- */

static void log_add(tui *t, const char *line) {
    if (t->nlog == TUI_LOG_LINES) {
        memmove(t->log[0], t->log[1], sizeof t->log[0] * (TUI_LOG_LINES - 1));
        t->nlog--;
    }
    snprintf(t->log[t->nlog++], sizeof t->log[0], "%s", line);
}

__attribute__((format(printf, 2, 3))) void tui_logf(tui *t, const char *fmt, ...) {
    char buf[sizeof t->log[0]];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    log_add(t, buf);
}

static const char *const good_names[3] = {N_("tea"), N_("wine"), N_("spice")};

/* The engine's seat names (kontor_seat_name) in the user's language. */
const char *tui_seat_name(const kontor_state *s, int seat) {
    static const char *const names[] = {N_("red"), N_("black"), N_("red 1"), N_("red 2"), N_("black 1"), N_("black 2"),
                                        N_("nobody")};
    (void)names;
    return _(kontor_seat_name(s, seat));
}

/* Why the winner won an area, in the rulebook's order of tests. */
static void explain_area(const kontor_area *a, char *buf, size_t cap) {
    int w = a->winner;
    uint8_t goods[2][3];
    kontor_area_goods(a, goods);
    if (w == KONTOR_NONE || w > 1) {
        int any = 0;
        for (int k = 0; k < 3; k++) any |= goods[0][k] | goods[1][k];
        snprintf(buf, cap, any ? _("a tie, nobody scores") : _("no warehouses, nobody scores"));
        return;
    }
    int lead[2][3] = {{0}}, max[2] = {0, 0}, at[2] = {-1, -1}, cnt[2] = {0, 0};
    for (int k = 0; k < 3; k++) {
        int d = (int)goods[0][k] - (int)goods[1][k];
        int who = d > 0 ? 0 : 1;
        if (d < 0) d = -d;
        if (!d) continue;
        lead[who][k] = d;
        cnt[who]++;
        if (d > max[who]) max[who] = d, at[who] = k;
    }
    const char *name = w == 0 ? _("red") : _("black");
    int l = 1 - w;
    if (max[w] > max[l])
        snprintf(buf, cap, _("%s wins with +%d %s"), name, max[w], _(good_names[at[w]]));
    else if (cnt[w] > cnt[l])
        snprintf(buf, cap, _("%s wins: leads in %d goods against %d"), name, cnt[w], cnt[l]);
    else
        snprintf(buf, cap, _("%s wins: +%d %s beats +%d %s"), name, max[w], _(good_names[at[w]]), max[l],
                 _(good_names[at[l]]));
    if (!a->keeper) snprintf(buf + strlen(buf), cap - strlen(buf), "%s", _(" (no keeper left)"));
    (void)lead;
}

static int is_pub(const kontor_state *s, int id) {
    return id < KONTOR_MAX_CARDS && ((s->pub[id >> 6] >> (id & 63)) & 1);
}

/* Events of one decision as log lines. Only public facts: a drawn card is
 * named when it was a visible pile top (always, in the rules as written), so
 * the log is the same for both players. */
static void log_events(tui *t, const kontor_log *lg) {
    const kontor_state *s = &t->s;
    char c1[24], c2[24], cell[8], why[160];
    for (int i = 0; i < lg->n; i++) {
        const kontor_event *e = &lg->ev[i];
        const char *who = tui_seat_name(s, e->seat);
        switch (e->kind) {
        case KONTOR_EV_ROUND: tui_logf(t, _("-- round %d --"), e->a); break;
        case KONTOR_EV_PASS:
            tui_logf(t, _("%s passes%s"), who, e->a ? _(" and takes a coin") : _(" (treasury empty: no coin)"));
            break;
        case KONTOR_EV_PLAY: tui_logf(t, _("%s will play a card"), who); break;
        case KONTOR_EV_REVEAL: tui_logf(t, _("%s plays %s"), who, tui_card_text(s, e->card, c1, sizeof c1)); break;
        case KONTOR_EV_TAX: tui_logf(t, _("%s pays a coin of tax"), who); break;
        case KONTOR_EV_TAKEBACK:
            tui_card_text(s, e->card, c1, sizeof c1);
            if (e->a == KONTOR_TAKEBACK_TAX) tui_logf(t, _("%s cannot pay the tax: takes %s back"), who, c1);
            else if (e->a == KONTOR_TAKEBACK_NOCELL) tui_logf(t, _("%s has no cell for %s: takes it back"), who, c1);
            else tui_logf(t, _("%s takes %s back"), who, c1);
            break;
        case KONTOR_EV_SITOUT:
            tui_logf(t, _("both owe tax and are broke: %s sits out%s"), who, e->a ? _(", takes a coin") : "");
            break;
        case KONTOR_EV_SHIP: tui_logf(t, _("%s moves the ship to %s"), who, kontor_format_cell(e->cell, cell)); break;
        case KONTOR_EV_REMOVE:
            /* with four the remover names the pile in a decision of its own: two events */
            if (e->cell == KONTOR_NONE)
                tui_logf(t, _("%s puts %s under %s's pile"), who, tui_card_text(s, e->card, c1, sizeof c1),
                         tui_seat_name(s, e->a));
            else if (s->cfg->nseats == 4 && s->phase == KONTOR_PHASE_PILE)
                tui_logf(t, _("%s removes %s from %s"), who, tui_card_text(s, e->card, c1, sizeof c1),
                         kontor_format_cell(e->cell, cell));
            else
                tui_logf(t, _("%s removes %s from %s (under %s's pile)"), who, tui_card_text(s, e->card, c1, sizeof c1),
                         kontor_format_cell(e->cell, cell), tui_seat_name(s, e->a));
            break;
        case KONTOR_EV_PLACE:
            tui_logf(t, _("%s places %s on %s"), who, tui_card_text(s, e->card, c1, sizeof c1),
                     kontor_format_cell(e->cell, cell));
            if (e->seat < KONTOR_MAX_SEATS) t->last_cell[e->seat] = e->cell;
            break;
        case KONTOR_EV_SCORE: {
            const kontor_area *a = &s->area[e->a];
            explain_area(a, why, sizeof why);
            tui_logf(t, P_("area of %d card at %s enclosed: %s", "area of %d cards at %s enclosed: %s", a->size), a->size,
                     kontor_format_cell(a->cell, cell), why);
            break;
        }
        case KONTOR_EV_DRAW:
            if (is_pub(s, e->card)) tui_logf(t, _("%s draws %s"), who, tui_card_text(s, e->card, c1, sizeof c1));
            else tui_logf(t, _("%s draws a card"), who);
            break;
        case KONTOR_EV_COIN: tui_logf(t, _("%s takes a coin for the water card"), who); break;
        case KONTOR_EV_END:
            tui_logf(t, _("game over: %s"), tui_end_reason(e->a));
            if (s->winner < 0) tui_logf(t, _("a draw, %d:%d"), s->score[0], s->score[1]);
            else tui_logf(t, _("%s wins %d:%d"), s->winner == 0 ? _("red") : _("black"), s->score[0], s->score[1]);
            break;
        case KONTOR_EV_BUY: tui_logf(t, _("%s buys a special card for 2 coins"), who); break;
        case KONTOR_EV_OVERBUILD:
            tui_card_text(s, e->a, c2, sizeof c2);
            tui_logf(t, _("%s lays %s over %s on %s"), who, tui_card_text(s, e->card, c1, sizeof c1), c2,
                     kontor_format_cell(e->cell, cell));
            break;
        case KONTOR_EV_BRIBE:
            tui_logf(t, P_("%s buys out %s on %s for %d coin (under its owner's pile)",
                           "%s buys out %s on %s for %d coins (under its owner's pile)", e->a),
                     who, tui_card_text(s, e->card, c1, sizeof c1), kontor_format_cell(e->cell, cell), e->a);
            break;
        case KONTOR_EV_SELECT: tui_logf(t, _("%s has picked a hand"), who); break;
        case KONTOR_EV_TAVERN:
            tui_logf(t, _("%s: the tavern's area at %s %s"), who, kontor_format_cell(e->cell, cell),
                     e->card ? _("scores") : _("does not score"));
            break;
        case KONTOR_EV_EXPORT:
            tui_logf(t, _("%s exports a %s warehouse of %s"), who, e->a < 3 ? _(good_names[e->a]) : "?",
                     tui_card_text(s, e->card, c1, sizeof c1));
            break;
        case KONTOR_EV_EVENT: {
            kontor_event_card ev[KONTOR_EVENTS_MAX];
            int n = kontor_events_default(ev, KONTOR_EVENTS_MAX);
            if (e->a < n) tui_logf(t, _("event card: %s: %s"), ev[e->a].name, _(ev[e->a].text));
            else tui_logf(t, _("event card %d is turned up"), e->a + 1);
            break;
        }
        case KONTOR_EV_TILE:
            tui_logf(t, _("%s wins action tile %d (%s) on %s"), who, e->a + 1, _(kontor_tile_name(e->a)),
                     kontor_format_cell(e->cell, cell));
            break;
        default: break;
        }
    }
}

static void agents_newgame(tui *t) {
    for (int p = 0; p < t->nseats; p++) {
        kontor_agent *a = t->seat[p].agent;
        if (a && a->newgame) {
            kontor_view v;
            kontor_view_of(&t->s, p, &v);
            a->newgame(a, &v);
        }
    }
}

static void agents_observe(tui *t, const kontor_log *lg) {
    for (int p = 0; p < t->nseats; p++) {
        kontor_agent *a = t->seat[p].agent;
        if (a && a->observe) {
            kontor_view v;
            kontor_view_of(&t->s, p, &v);
            a->observe(a, &v, lg);
        }
    }
}

static int push_ply(tui *t, int seat, kontor_move m) {
    if (t->nply == t->cap) {
        int cap = t->cap ? t->cap * 2 : 256;
        kontor_ply *np = realloc(t->ply, sizeof *np * (size_t)cap);
        if (!np) return -1;
        t->ply = np;
        t->cap = cap;
    }
    t->ply[t->nply].seat = (uint8_t)seat;
    t->ply[t->nply].move = m;
    t->nply++;
    return 0;
}

kontor_status tui_apply(tui *t, int seat, kontor_move m) {
    kontor_log lg;
    lg.n = 0;
    kontor_status st = kontor_apply(&t->s, seat, m, &lg);
    if (st) return st;
    if (push_ply(t, seat, m)) {
        tui_fatal(t, _("out of memory"));
        return KONTOR_E_RANGE;
    }
    log_events(t, &lg);
    agents_observe(t, &lg);
    t->dirty = 1;
    return KONTOR_OK;
}

/* Deal from t->deal and replay the first n decisions of ply[] (which may be
 * t->ply itself). Rebuilds the log. */
kontor_status tui_replay(tui *t, const kontor_ply *ply, int n, kontor_error *err) {
    kontor_status st = kontor_new_from_deal(&t->s, &t->cfg, &t->deal, err);
    if (st) return st;
    kontor_ply *copy = NULL;
    if (n > 0) {
        copy = malloc(sizeof *copy * (size_t)n);
        if (!copy) return KONTOR_E_RANGE;
        memcpy(copy, ply, sizeof *copy * (size_t)n);
    }
    t->nply = 0;
    t->nlog = 0;
    for (int p = 0; p < KONTOR_MAX_SEATS; p++) t->last_cell[p] = -1;
    agents_newgame(t);
    tui_logf(t, _("-- round 1 --"));
    for (int i = 0; i < n; i++) {
        st = tui_apply(t, copy[i].seat, copy[i].move);
        if (st) {
            if (err) {
                char why[160];
                memset(err, 0, sizeof *err);
                err->code = st;
                err->round = t->s.round;
                snprintf(err->msg, sizeof err->msg, _("decision %d (round %d): %s"), i + 1, t->s.round,
                         kontor_why_illegal(&t->s, copy[i].seat, copy[i].move, why, sizeof why));
            }
            free(copy);
            return st;
        }
    }
    free(copy);
    t->decision = -1;
    t->dirty = 1;
    return KONTOR_OK;
}

/* The extent of the board: every cell where a card may ever lie, taken at
 * the deal (the mask only shrinks). tui_window fits the window into it. */
static void set_window(tui *t) {
    kontor_state s0;
    if (kontor_new_from_deal(&s0, &t->cfg, &t->deal, NULL)) return;
    int x0 = 99, x1 = -99, y0 = 99, y1 = -99;
    kontor_bb mask = kontor_state_set(&s0, KONTOR_SET_MASK), occ = kontor_state_set(&s0, KONTOR_SET_OCC);
    for (int c = 0; c < KONTOR_CELLS; c++)
        if (kontor_bb_has(&mask, c) || kontor_bb_has(&occ, c)) {
            int x = kontor_cell_dx(c), y = kontor_cell_dy(c);
            if (x < x0) x0 = x;
            if (x > x1) x1 = x;
            if (y < y0) y0 = y;
            if (y > y1) y1 = y;
        }
    t->mx0 = x0, t->mx1 = x1, t->my0 = y0, t->my1 = y1;
    tui_window(t);
}

/* Cells of the board window that 80x24 holds: 9 rows of two lines between
 * the title and the four lines at the bottom, and 9 columns of five
 * characters beside a panel of 31 (the advanced game's 9x9 fills it). */
#define WINDOW_MAX 9

/* The window shows the whole board when it fits. The game for four and the
 * 8x8 scenarios can reach 11x11 cells, and a centre-only start 11x11 too:
 * then the window is the cards laid so far and one cell around them, which
 * holds every cell a card can go to now and is never more than 9 wide (an
 * extent of 8 leaves no cell around it). A board that is fixed wider than 9
 * (Canale Grande, 12x4) gets cells of four characters instead. */
void tui_window(tui *t) {
    int x0 = t->mx0, x1 = t->mx1, y0 = t->my0, y1 = t->my1;
    const kontor_state *s = &t->s;
    if (x1 - x0 + 1 > WINDOW_MAX || y1 - y0 + 1 > WINDOW_MAX) {
        /* where a card can still lie now, and one cell around the cards */
        int bx0 = 99, bx1 = -99, by0 = 99, by1 = -99;
        kontor_bb mask = kontor_state_set(s, KONTOR_SET_MASK), occ = kontor_state_set(s, KONTOR_SET_OCC);
        for (int c = 0; c < KONTOR_CELLS; c++)
            if (kontor_bb_has(&mask, c) || kontor_bb_has(&occ, c)) {
                int x = kontor_cell_dx(c), y = kontor_cell_dy(c);
                if (x < bx0) bx0 = x;
                if (x > bx1) bx1 = x;
                if (y < by0) by0 = y;
                if (y > by1) by1 = y;
            }
        int lox = s->minx - 7 - 1, hix = s->maxx - 7 + 1, loy = s->miny - 7 - 1, hiy = s->maxy - 7 + 1;
        if (x1 - x0 + 1 > WINDOW_MAX) {
            x0 = lox > bx0 ? lox : bx0;
            x1 = hix < bx1 ? hix : bx1;
        }
        if (y1 - y0 + 1 > WINDOW_MAX) {
            y0 = loy > by0 ? loy : by0;
            y1 = hiy < by1 ? hiy : by1;
        }
        /* never reached (an extent of 8 leaves no cell around it), but a
         * board taller than the screen must not run into the prompt */
        if (y1 - y0 + 1 > WINDOW_MAX) y1 = y0 + WINDOW_MAX - 1;
    }
    t->wx0 = x0, t->wx1 = x1, t->wy0 = y0, t->wy1 = y1;
    t->cell_w = x1 - x0 + 1 > WINDOW_MAX && COLS - 3 - (x1 - x0 + 1) * 5 < 31 ? 4 : 5;
}

int tui_new_game(tui *t, uint64_t seed) {
    t->seed = seed;
    t->has_seed = 1;
    kontor_deal_shuffle(&t->deal, &t->cfg, seed);
    kontor_error err;
    if (tui_replay(t, NULL, 0, &err)) {
        cli_error(_("play: %s"), err.msg);
        return -1;
    }
    set_window(t);
    return 0;
}

/* Undo against the computer: drop everything from the last human decision on
 * and replay. */
void tui_undo(tui *t) {
    if (t->nhuman != 1) {
        tui_msg(t, 1, _("undo is for games against the computer"));
        return;
    }
    int i = t->nply - 1;
    while (i >= 0 && !t->seat[t->ply[i].seat].human) i--;
    if (i < 0) {
        tui_msg(t, 1, _("nothing to undo: you have not decided anything yet"));
        return;
    }
    kontor_error err;
    if (tui_replay(t, t->ply, i, &err)) {
        tui_msg(t, 1, _("undo failed: %s"), err.msg);
        return;
    }
    tui_msg(t, 0, _("undone: back to round %d, your decision"), t->s.round);
}

/* ---- agents ------------------------------------------------------------------ */

static int seat_setup(tui *t, int p, const char *spec, const char *opt) {
    snprintf(t->seat[p].spec, sizeof t->seat[p].spec, "%s", spec);
    if (strcmp(spec, "human") == 0) {
        t->seat[p].human = 1;
        return 0;
    }
    kontor_error err;
    t->seat[p].agent = cli_agent_new(spec, t->seed * 2 + (uint64_t)p + 1, &err);
    if (!t->seat[p].agent) {
        cli_error(_("play: %s '%s': %s"), opt, spec, err.msg);
        return -1;
    }
    return 0;
}

/* One decision of a computer seat. */
static int computer_move(tui *t, int p) {
    kontor_view v;
    kontor_view_of(&t->s, p, &v);
    kontor_agent *a = t->seat[p].agent;
    kontor_move m = a->decide(a, &v);
    if (m == KONTOR_FORFEIT || tui_apply(t, p, m)) {
        char why[160];
        if (m == KONTOR_FORFEIT) snprintf(why, sizeof why, "%.150s", a->error);
        else kontor_why_illegal(&t->s, p, m, why, sizeof why);
        tui_logf(t, _("%s (%s) failed: %s"), tui_seat_name(&t->s, p), t->seat[p].spec, why);
        tui_msg(t, 1, _("the computer player %s failed: %s"), t->seat[p].spec, why);
        t->broken = 1;
        return -1;
    }
    return 0;
}

kontor_move tui_hint(tui *t, int seat, char *who, size_t cap) {
    if (!t->hint_agent) {
        kontor_error err;
        t->hint_agent = cli_agent_new(t->hint_spec, t->seed ^ 0x5eedULL, &err);
        if (!t->hint_agent) {
            tui_msg(t, 1, _("no hint: '%s': %s"), t->hint_spec, err.msg);
            return KONTOR_FORFEIT;
        }
    }
    snprintf(who, cap, "%s", t->hint_spec);
    kontor_view v;
    kontor_view_of(&t->s, seat, &v);
    return t->hint_agent->decide(t->hint_agent, &v);
}

/* ---- records --------------------------------------------------------------- */

int tui_save(tui *t, const char *path) {
    kontor_record r;
    kontor_record_init(&r, &t->cfg, &t->deal);
    for (int p = 0; p < t->nseats; p++) snprintf(r.players[p], sizeof r.players[p], "%s", t->seat[p].spec);
    snprintf(r.event, sizeof r.event, "kontor play");
    time_t now = time(NULL);
    struct tm tmv;
    if (localtime_r(&now, &tmv)) strftime(r.date, sizeof r.date, "%Y-%m-%d", &tmv);
    r.seed = t->seed;
    r.has_seed = t->has_seed;
    for (int i = 0; i < t->nply; i++)
        if (kontor_record_push(&r, t->ply[i].seat, t->ply[i].move)) {
            kontor_record_release(&r);
            tui_msg(t, 1, _("cannot save: out of memory"));
            return -1;
        }
    kontor_record_set_result(&r, &t->s);
    char *text = NULL;
    size_t len = 0;
    kontor_status st = kontor_record_write(&r, &text, &len);
    kontor_record_release(&r);
    if (st) {
        tui_msg(t, 1, _("cannot save: %s"), kontor_status_name(st));
        return -1;
    }
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
        int e = errno;
        if (f) fclose(f);
        free(text);
        tui_msg(t, 1, _("cannot save to '%s': %s"), path, strerror(e));
        return -1;
    }
    free(text);
    snprintf(t->savefile, sizeof t->savefile, "%s", path);
    tui_msg(t, 0, _("saved %d decisions to '%s'"), t->nply, path);
    return 0;
}

/* Load a record: its configuration, deal and decisions; the seats keep who
 * plays them now. On failure the game on screen is untouched and err says
 * why (with the file name). */
int tui_load(tui *t, const char *path, kontor_error *err) {
    char *text;
    size_t len;
    memset(err, 0, sizeof *err);
    if (cli_read_file(path, &text, &len)) {
        snprintf(err->msg, sizeof err->msg, _("cannot read '%.150s': %.80s"), path, strerror(errno));
        return -1;
    }
    kontor_record r;
    memset(&r, 0, sizeof r);
    kontor_error e;
    kontor_status st = kontor_record_parse(&r, text, len, &e);
    free(text);
    if (st) {
        snprintf(err->msg, sizeof err->msg, _("record '%.100s': %.140s"), path, e.msg);
        kontor_record_release(&r);
        return -1;
    }
    if (r.cfg.nseats != t->nseats) {
        snprintf(err->msg, sizeof err->msg, _("record '%.150s' is a game for %d; this game has %d seats (start kontor play --load with it)"),
                 path, r.cfg.nseats, t->nseats);
        kontor_record_release(&r);
        return -1;
    }
    /* keep the old game to fall back on */
    kontor_config ocfg = t->cfg;
    kontor_deal odeal = t->deal;
    int onply = t->nply;
    kontor_ply *oply = malloc(sizeof *oply * (size_t)(onply ? onply : 1));
    if (!oply) {
        kontor_record_release(&r);
        snprintf(err->msg, sizeof err->msg, _("out of memory"));
        return -1;
    }
    if (onply) memcpy(oply, t->ply, sizeof *oply * (size_t)onply);
    t->cfg = r.cfg;
    t->deal = r.deal;
    if (tui_replay(t, r.ply, r.nply, &e)) {
        snprintf(err->msg, sizeof err->msg, _("record '%.100s' %.140s"), path, e.msg);
        t->cfg = ocfg;
        t->deal = odeal;
        tui_replay(t, oply, onply, NULL);
        free(oply);
        kontor_record_release(&r);
        return -1;
    }
    free(oply);
    t->seed = r.seed;
    t->has_seed = r.has_seed;
    kontor_record_release(&r);
    set_window(t);
    snprintf(t->savefile, sizeof t->savefile, "%s", path);
    return 0;
}

/* ---- the main loop ---------------------------------------------------------- */

int tui_secret_phase(int phase) {
    return phase == KONTOR_PHASE_CHOOSE || phase == KONTOR_PHASE_DECLARE || phase == KONTOR_PHASE_BUY ||
           phase == KONTOR_PHASE_BRIBE || phase == KONTOR_PHASE_SELECT;
}

int tui_menu_phase(int phase) {
    return phase != KONTOR_PHASE_CHOOSE && phase != KONTOR_PHASE_DECLARE && phase != KONTOR_PHASE_SHIP &&
           phase != KONTOR_PHASE_REMOVE && phase != KONTOR_PHASE_PLACE && phase != KONTOR_PHASE_OVER;
}

int tui_move_cell(kontor_move m) {
    int v = KONTOR_MOVE_VALUE(m);
    if (v == KONTOR_NONE) return -1;
    switch (KONTOR_MOVE_KIND(m)) {
    case KONTOR_MOVE_SHIP:
    case KONTOR_MOVE_REMOVE:
    case KONTOR_MOVE_PLACE:
    case KONTOR_MOVE_PLACE_WATER:
    case KONTOR_MOVE_BRIBE:
    case KONTOR_MOVE_EVENT:
    case KONTOR_MOVE_TILE: return v;
    default: return -1;
    }
}

int tui_human_actor(const tui *t) {
    unsigned act = kontor_actors(&t->s);
    for (int p = 0; p < t->nseats; p++)
        if (((act >> p) & 1) && t->seat[p].human) return p;
    return -1;
}

/* The seat whose secrets the screen may show: the one human against the
 * computer; among several people, the one at the keyboard for a secret
 * decision (after the hand-over screen) and nobody otherwise; nobody when
 * the computer plays itself. */
int tui_viewer(const tui *t) {
    if (t->nhuman == 1)
        for (int p = 0; p < t->nseats; p++)
            if (t->seat[p].human) return p;
    if (t->nhuman >= 2 && tui_secret_phase(t->s.phase)) return t->handed;
    return -1;
}

static void run(tui *t) {
    while (!t->quit) {
        if (!t->broken && !kontor_over(&t->s)) {
            unsigned act = kontor_actors(&t->s);
            /* people decide first in the secret phases: a computer's hidden
             * decision is then never part of the game while a person
             * decides (nor of a save) */
            if (tui_secret_phase(t->s.phase))
                for (int p = 0; p < t->nseats; p++)
                    if (((act >> p) & 1) && t->seat[p].human) act = 0;
            int moved = 0;
            for (int p = 0; p < t->nseats && !moved; p++)
                if (((act >> p) & 1) && !t->seat[p].human) {
                    if (t->nhuman == 0 && !t->script) {
                        tui_draw(t);
                        napms(t->delay_ms);
                    }
                    if (computer_move(t, p) == 0) moved = 1;
                }
            if (moved) continue;
        }
        tui_step(t);
    }
}

static const char *help = N_(
    "usage: kontor play [--variant V] [--red human|SPEC] [--black human|SPEC]\n"
    "                   [--red1 --red2 --black1 --black2 human|SPEC] [--seat1..--seat4 ...]\n"
    "                   [--seed S] [--load FILE] [--save FILE] [--hint SPEC] [--no-color]\n"
    "                   [--lang de|en]\n"
    "                   [--script FILE [--dump FILE] [--size COLSxROWS]] [--delay MS]\n"
    "\n"
    "Play Kontor in the terminal. Each seat is 'human' or a computer player\n"
    "(easy, medium, hard, random, greedy, ismcts:iters=N, cmd:PROGRAM, ...).\n"
    "Default: you play red (red 1) and 'medium' the other seats; people\n"
    "share one keyboard with a hand-over screen before each secret decision.\n"
    "\n"
    "  --variant V     basic (6x6, default), advanced (7x7, ship, five largest areas),\n"
    "                  four (the game for four in two teams), or a scenario\n"
    "                  (kontor variants lists them; expansions with --options)\n"
    "  --red, --black  the two seats of a game for two\n"
    "  --red1 --red2 --black1 --black2\n"
    "                  the four seats of a game for four (red 1 and black 1 sit\n"
    "                  opposite, so do red 2 and black 2)\n"
    "  --seatN SPEC    seat N (1-4) by number, in either game\n"
    "  --options LIST  rule options (docs/rules.md), e.g. edge=both,declare=hidden\n"
    "  --seed S        the deal (default: from the clock; shown in the title)\n"
    "  --load FILE     continue a saved game record\n"
    "  --save FILE     where 's' saves, and the record written when the game ends\n"
    "  --hint SPEC     the computer player that answers 'h' (default medium)\n"
    "  --no-color      plain screen even on a colour terminal\n"
    "  --lang de|en    the language of the screen (default: from LANGUAGE, LC_ALL,\n"
    "                  LC_MESSAGES, LANG; records stay English)\n"
    "  --delay MS      pause between moves when the computer plays itself (300)\n"
    "  --script FILE   read keys from FILE ('-' for stdin; also used when stdin\n"
    "                  is not a terminal) instead of the keyboard, for tests;\n"
    "                  see docs/play.md for the script language\n"
    "  --dump FILE     where the script's 'dump' writes screens (default stdout)\n"
    "  --size CxR      the screen size in script mode (default 80x24)\n"
    "\n"
    "Keys: arrows move, Enter plays, p Enter passes (declared first), 1-8\n"
    "choose a card, +1,-2 Enter\n"
    "types a cell, n no ship move / no removal, w a customs house as water;\n"
    "other decisions are a menu: 1-N or arrows, Enter. ? help, h hint,\n"
    "u undo, s save, l load, L log, q quit. See docs/play.md.\n");

/* The number of seats of a record, read before the seats are set up. */
static int record_seats(const char *path, kontor_config *cfg) {
    char *text;
    size_t len;
    if (cli_read_file(path, &text, &len)) return -1;
    kontor_record r;
    memset(&r, 0, sizeof r);
    kontor_error e;
    kontor_status st = kontor_record_parse(&r, text, len, &e);
    free(text);
    if (!st) *cfg = r.cfg;
    kontor_record_release(&r);
    return st ? -1 : cfg->nseats;
}

/* Seat options: --red/--black for two, --red1.. for four, --seatN for both. */
static int seat_option(const char *a) {
    static const char *const names[] = {"--red", "--black", "--red1", "--red2", "--black1", "--black2",
                                        "--seat1", "--seat2", "--seat3", "--seat4"};
    for (int i = 0; i < 10; i++)
        if (strcmp(a, names[i]) == 0) return i;
    return -1;
}

int cmd_play(int argc, char **argv) {
    const char *variant = NULL, *options = NULL, *load = NULL;
    const char *spec[KONTOR_MAX_SEATS] = {NULL, NULL, NULL, NULL}, *spec_opt[KONTOR_MAX_SEATS] = {NULL, NULL, NULL, NULL};
    int two_opt = 0, four_opt = 0;
    const char *save = NULL, *script = NULL, *dump = NULL, *hint = "medium", *size = NULL;
    uint64_t seed = 0, delay = 300;
    int has_seed = 0, colour = 1;
    /* the language first: every word from here on is in it */
    const char *lang = NULL;
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--lang") == 0) lang = argv[i + 1];
    if (cli_i18n_init(lang)) return 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(_(help), stdout);
            return 0;
        }
        if (strcmp(a, "--no-color") == 0 || strcmp(a, "--no-colour") == 0) {
            colour = 0;
            continue;
        }
        if (strncmp(a, "--", 2) != 0) {
            cli_error(_("play: '%s' is not an option (try --help)"), a);
            return 2;
        }
        if (i + 1 >= argc) {
            cli_error(_("play: option '%s' wants a value (try --help)"), a);
            return 2;
        }
        const char *v = argv[++i];
        if (strcmp(a, "--variant") == 0) variant = v;
        else if (strcmp(a, "--options") == 0) options = v;
        else if (seat_option(a) >= 0) {
            int o = seat_option(a), p = o < 2 ? o : o < 6 ? o - 2 : o - 6;
            if (o < 2) two_opt = 1;
            else if (o < 6) four_opt = 1;
            if (spec[p]) {
                cli_error(_("play: %s and %s name the same seat"), spec_opt[p], a);
                return 2;
            }
            spec[p] = v, spec_opt[p] = a;
        } else if (strcmp(a, "--load") == 0) load = v;
        else if (strcmp(a, "--save") == 0) save = v;
        else if (strcmp(a, "--script") == 0) script = v;
        else if (strcmp(a, "--dump") == 0) dump = v;
        else if (strcmp(a, "--hint") == 0) hint = v;
        else if (strcmp(a, "--size") == 0) size = v;
        else if (strcmp(a, "--lang") == 0) continue; /* read above */
        else if (strcmp(a, "--seed") == 0) {
            if (cli_number(a, v, UINT64_MAX, &seed)) return 2;
            has_seed = 1;
        } else if (strcmp(a, "--delay") == 0) {
            if (cli_number(a, v, 10000, &delay)) return 2;
        } else {
            cli_error(_("play: '%s' is not an option (try --help)"), a);
            return 2;
        }
    }
    int cols = 80, rows = 24;
    if (size) {
        char *end;
        long c = strtol(size, &end, 10), r = *end == 'x' ? strtol(end + 1, &end, 10) : -1;
        if (*end || c < 20 || c > 500 || r < 8 || r > 300) {
            cli_error(_("play: --size wants COLSxROWS like 80x24 (20..500 x 8..300), not '%s'"), size);
            return 2;
        }
        cols = (int)c, rows = (int)r;
    }
    if (!script && !isatty(0)) script = "-";

    tui *t = calloc(1, sizeof *t);
    if (!t) {
        cli_error(_("play: out of memory"));
        return 1;
    }
    int rc = 1;
    for (int p = 0; p < KONTOR_MAX_SEATS; p++) t->presel[p] = -1;
    t->colour_wanted = colour;
    t->delay_ms = (int)delay;
    t->handed = -1;
    snprintf(t->hint_spec, sizeof t->hint_spec, "%s", hint);
    if (save) snprintf(t->savefile, sizeof t->savefile, "%s", save);
    t->autosave = save != NULL;
    if (cli_config(&t->cfg, variant, options, NULL)) goto out;
    if (load && record_seats(load, &t->cfg) < 0) {
        kontor_error err;
        tui_load(t, load, &err); /* says why, with the file name */
        cli_error(_("play: %s"), err.msg);
        goto out;
    }
    t->nseats = t->cfg.nseats;
    if (t->nseats == 2 && four_opt) {
        cli_error(_("play: variant '%s' is for two: name its seats with --red and --black"),
                  kontor_variant_name(t->cfg.variant));
        goto out;
    }
    if (t->nseats == 4 && two_opt) {
        cli_error(_("play: variant '%s' is for four: name its seats with --red1 --red2 --black1 --black2"),
                  kontor_variant_name(t->cfg.variant));
        goto out;
    }
    for (int p = t->nseats; p < KONTOR_MAX_SEATS; p++)
        if (spec[p]) {
            cli_error(_("play: %s: variant '%s' has only %d seats"), spec_opt[p], kontor_variant_name(t->cfg.variant),
                      t->nseats);
            goto out;
        }
    if (!has_seed) seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    t->seed = seed;
    for (int p = 0; p < t->nseats; p++) {
        static const char *const two[2] = {"--red", "--black"}, *const four[4] = {"--red1", "--red2", "--black1", "--black2"};
        const char *sp = spec[p] ? spec[p] : p == 0 ? "human" : "medium";
        if (seat_setup(t, p, sp, spec_opt[p] ? spec_opt[p] : t->nseats == 2 ? two[p] : four[p])) goto out;
        t->nhuman += t->seat[p].human;
    }
    if (load) {
        kontor_error err;
        if (tui_load(t, load, &err)) {
            cli_error(_("play: %s"), err.msg);
            goto out;
        }
        if (save) snprintf(t->savefile, sizeof t->savefile, "%s", save);
    } else if (tui_new_game(t, seed)) {
        goto out;
    }
    if (script && tui_script_open(t, script, dump)) goto out;
    if (tui_screen_open(t, cols, rows)) goto out;
    tui_msg(t, 0, "%s", load ? _("game loaded; press ? for help") : _("new game; press ? for help"));
    run(t);
    tui_screen_close(t);
    rc = t->exit_code;
    if (t->fatal[0]) cli_error(_("play: %s"), t->fatal);
out:
    for (int p = 0; p < KONTOR_MAX_SEATS; p++) kontor_agent_free(t->seat[p].agent);
    kontor_agent_free(t->hint_agent);
    tui_script_close(t);
    free(t->ply);
    free(t);
    return rc;
}
