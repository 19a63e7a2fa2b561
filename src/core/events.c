/* events.c: the event cards of the second expansion as data, and the tiles' names.
 *
 * The designer's ten event texts are lost, so the events are ours and live in
 * a text file (data/events.txt, compiled in by the Makefile) that names, for
 * each card, one of a few actions the engine knows (kontor_event_action) and
 * its argument. A person holding the real cards can rewrite the file as far
 * as those actions can say them. The parser names the line of an error, like
 * every parser of outside input. The configuration keeps each card's action
 * and argument (kontor_config.event_action), so a game needs no global table.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kontor/kontor.h"

static const struct {
    const char *word;
    int action, has_arg;
} actions[] = {
    {"coins_each", KONTOR_ACT_COINS_EACH, 1}, {"coin_poorest", KONTOR_ACT_COIN_POOREST, 0},
    {"coin_richest", KONTOR_ACT_COIN_RICHEST, 0}, {"centre_coin", KONTOR_ACT_CENTRE_COIN, 0},
    {"ship_move", KONTOR_ACT_SHIP_MOVE, 0}, {"ship_remove", KONTOR_ACT_SHIP_REMOVE, 0},
    {"free_water", KONTOR_ACT_FREE_WATER, 0}, {"draw_dock", KONTOR_ACT_DRAW_DOCK, 0},
    {"no_pass", KONTOR_ACT_NO_PASS, 0},
};

__attribute__((format(printf, 3, 4)))
static int fail(kontor_error *err, int line, const char *fmt, ...) {
    if (err) {
        char what[200];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        memset(err, 0, sizeof *err);
        err->code = KONTOR_E_PARSE;
        err->line = line;
        snprintf(err->msg, sizeof err->msg, "events line %d: %s", line, what);
    }
    return -1;
}

/* Trim spaces at both ends, in place. */
static char *trim(char *t) {
    while (*t == ' ' || *t == '\t') t++;
    size_t n = strlen(t);
    while (n && (t[n - 1] == ' ' || t[n - 1] == '\t' || t[n - 1] == '\r')) t[--n] = 0;
    return t;
}

int kontor_events_parse(kontor_event_card *out, int cap, const char *text, size_t len, kontor_error *err) {
    int n = 0, line = 0;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        line++;
        char buf[320];
        size_t k = (size_t)(le - p);
        if (k >= sizeof buf) return fail(err, line, "the line is longer than %d characters", (int)sizeof buf - 1);
        memcpy(buf, p, k);
        buf[k] = 0;
        p = nl ? nl + 1 : end;
        char *t = trim(buf);
        if (!*t || *t == '#') continue;
        char *bar1 = strchr(t, '|'), *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
        if (!bar2) return fail(err, line, "an event is 'name | action [argument] | text'");
        *bar1 = *bar2 = 0;
        char *name = trim(t), *act = trim(bar1 + 1), *say = trim(bar2 + 1);
        if (!*name || strlen(name) >= sizeof out->name) return fail(err, line, "the name must be 1 to %d characters", (int)sizeof out->name - 1);
        if (!*say || strlen(say) >= sizeof out->text) return fail(err, line, "the text must be 1 to %d characters", (int)sizeof out->text - 1);
        if (n == cap) return fail(err, line, "more than %d events", cap);
        char *arg = strpbrk(act, " \t");
        if (arg) *arg++ = 0, arg = trim(arg);
        int found = -1;
        for (size_t i = 0; i < sizeof actions / sizeof *actions; i++)
            if (strcmp(act, actions[i].word) == 0) found = (int)i;
        if (found < 0) return fail(err, line, "'%s' is not an action (coins_each, coin_poorest, ...)", act);
        long v = 0;
        if (actions[found].has_arg) {
            char *e;
            v = arg && *arg ? strtol(arg, &e, 10) : 0;
            if (!arg || !*arg || *e || v < -3 || v > 3 || v == 0)
                return fail(err, line, "'%s' wants a number of coins from -3 to 3, not 0", act);
        } else if (arg && *arg) {
            return fail(err, line, "'%s' takes no argument", act);
        }
        kontor_event_card *c = &out[n++];
        memset(c, 0, sizeof *c);
        snprintf(c->name, sizeof c->name, "%s", name);
        snprintf(c->text, sizeof c->text, "%s", say);
        c->action = (uint8_t)actions[found].action;
        c->arg = (int8_t)v;
    }
    if (!n) return fail(err, line ? line : 1, "no events");
    return n;
}

int kontor_events_default(kontor_event_card *out, int cap) {
    const char *t = kontor_events_default_text();
    int n = kontor_events_parse(out, cap, t, strlen(t), NULL);
    return n < 0 ? 0 : n; /* the built-in file is tested to parse (test_expansions) */
}

/* WN marks a tile's name for xgettext (make pot): the terminal client shows
 * it through gettext, _(kontor_tile_name(t)); everything else keeps English. */
#define WN(s) (s)

const char *kontor_tile_name(int tile) {
    static const char *const names[KONTOR_TILES] = {
        WN("move the harbour centre"), WN("a tea warehouse"), WN("a wine warehouse"), WN("a spice warehouse"),
        WN("one coin"), WN("two coins"), WN("the ship for the rest of the game"), WN("one extra point")};
    return tile >= 0 && tile < KONTOR_TILES ? names[tile] : "?";
}
