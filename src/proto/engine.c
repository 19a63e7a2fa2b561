/* engine.c: the engine end of the protocol: commands in, replies out.
 *
 * kontor_engine_handle takes one line and writes one reply into a caller's
 * buffer; it does no I/O, so the tests drive it directly, the fuzz target
 * throws bytes at it, and kontor_engine_run is only a read loop around it.
 * Every path through a command ends in exactly one reply (=id ... or ?id
 * TOKEN: detail) followed by a blank line, whatever the input was: that is the
 * whole robustness contract (docs/protocol.md), and a command never prints a
 * blank line inside its reply, so a controller can always find the end.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/proto_int.h"

struct kontor_engine {
    kontor_engine_factory factory;
    char spec[128];     /* the agent's spec as given (level) */
    uint64_t seed;
    int ms;             /* time per decision, 0 when not set */
    kontor_agent *agent;
    know k;
    int told_newgame;   /* the agent has had newgame() for this game */
    /* buffers for one line and one reply: an engine handles one line at a
     * time, and these are too big for the stack of a small thread */
    kontor_command cmd;
    char line[KONTOR_PROTO_LINE_MAX + 2];
    char rep[1 << 16];
};

/* the commands, in the order list_commands gives them */
static const char *const command_names[] = {
    "protocol_version", "name", "version", "list_commands", "known_command", "isready", "quit",
    "newgame", "observe", "genchoice", "genplace", "setoption", "showboard",
};
#define NCOMMANDS ((int)(sizeof command_names / sizeof *command_names))

static kontor_agent *make_agent(kontor_engine *e, const char *spec, int ms, uint64_t seed, char *msg, size_t cap) {
    char full[192];
    if (ms > 0) snprintf(full, sizeof full, "%s%sms=%d", spec, strchr(spec, ':') ? "," : ":", ms);
    else snprintf(full, sizeof full, "%s", spec);
    kontor_error err;
    memset(&err, 0, sizeof err);
    kontor_agent *a = e->factory(full, seed, &err);
    if (!a) snprintf(msg, cap, "%s", err.msg[0] ? err.msg : "the agent could not be made");
    return a;
}

kontor_engine *kontor_engine_new(kontor_engine_factory factory, const char *spec, uint64_t seed, kontor_error *err) {
    kontor_engine *e = calloc(1, sizeof *e);
    if (!e) {
        if (err) snprintf(err->msg, sizeof err->msg, "out of memory"), err->code = KONTOR_E_RANGE;
        return NULL;
    }
    e->factory = factory;
    snprintf(e->spec, sizeof e->spec, "%s", spec);
    e->seed = seed;
    know_init(&e->k);
    char msg[256];
    e->agent = make_agent(e, spec, 0, seed, msg, sizeof msg);
    if (!e->agent) {
        if (err) {
            memset(err, 0, sizeof *err);
            err->code = KONTOR_E_INVALID;
            snprintf(err->msg, sizeof err->msg, "%s", msg);
        }
        free(e);
        return NULL;
    }
    return e;
}

static void free_agent(kontor_agent *a) {
    if (!a) return;
    if (a->release) a->release(a);
    free(a);
}

void kontor_engine_free(kontor_engine *e) {
    if (!e) return;
    free_agent(e->agent);
    know_release(&e->k);
    free(e);
}

/* ---- replies -------------------------------------------------------------------- */

typedef struct reply {
    char *buf;
    size_t cap, n;
} reply;

static void put(reply *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(reply *r, const char *fmt, ...) {
    if (r->n + 1 >= r->cap) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(r->buf + r->n, r->cap - r->n, fmt, ap);
    va_end(ap);
    if (w < 0) return;
    r->n += (size_t)w < r->cap - r->n ? (size_t)w : r->cap - r->n - 1;
}

/* Close a reply: drop characters that could break the framing (blank lines,
 * control bytes), cut at a line end if it did not fit, add the blank line. */
static void finish(reply *r) {
    size_t o = 0;
    for (size_t i = 0; i < r->n; i++) {
        unsigned char c = (unsigned char)r->buf[i];
        if (c == '\n') {
            if (o == 0 || r->buf[o - 1] == '\n') continue;
        } else if (c < 32 || c >= 127) { /* replies are printable ascii */
            c = '?';
        }
        r->buf[o++] = (char)c;
    }
    while (o > 0 && r->buf[o - 1] == '\n') o--;
    if (o + 3 > r->cap) { /* no room for "\n\n": cut back to a line end */
        o = r->cap >= 3 ? r->cap - 3 : 0;
        while (o > 0 && r->buf[o - 1] != '\n') o--;
        if (o > 0) o--;
    }
    if (r->cap >= 3) {
        r->buf[o++] = '\n';
        r->buf[o++] = '\n';
        r->buf[o] = 0;
    }
    r->n = o;
}

static void fail(reply *r, const char *id, kontor_proto_err pe, const char *detail) {
    r->n = 0;
    put(r, "?%s %s", id, kontor_proto_err_token(pe));
    if (detail && *detail) put(r, ": %s", detail);
}

/* ---- showboard -------------------------------------------------------------------- */

static void draw_board(reply *r, const kontor_engine *e) {
    const know *k = &e->k;
    if (!k->started) {
        put(r, "%s game, %s to play; the deal is not complete yet", kontor_variant_name(k->cfg.variant),
            k->seat == KONTOR_RED ? "red" : "black");
        return;
    }
    kontor_view v;
    kontor_view_of(&k->s, k->seat, &v);
    const kontor_state *s = &v.s;
    const kontor_cardset *cs = s->cfg->cards;
    static const char *const phases[] = {"choose", "ship", "remove", "place", "over"};
    put(r, "%s game, %s to play, round %d, phase %s", kontor_variant_name(s->cfg->variant),
        kontor_seat_name(s, k->seat), s->round,
        s->phase == KONTOR_PHASE_DECLARE ? "declare" : phases[s->phase <= 4 ? s->phase : 4]);
    if (s->phase != KONTOR_PHASE_CHOOSE && s->phase != KONTOR_PHASE_OVER && s->phase != KONTOR_PHASE_DECLARE)
        put(r, " (%s, card %d)", kontor_seat_name(s, kontor_current(s)),
            cs->card[s->choice[kontor_current(s)]].number);
    put(r, "\n");
    int x0 = 15, x1 = 0, y0 = 15, y1 = 0;
    for (int c = 0; c < KONTOR_CELLS; c++)
        if (kontor_state_card_at(s, c) != KONTOR_NONE) {
            int x = c & 15, y = c >> 4;
            x0 = x < x0 ? x : x0, x1 = x > x1 ? x : x1, y0 = y < y0 ? y : y0, y1 = y > y1 ? y : y1;
        }
    x0 = x0 > 0 ? x0 - 1 : 0, y0 = y0 > 0 ? y0 - 1 : 0, x1 = x1 < 15 ? x1 + 1 : 15, y1 = y1 < 15 ? y1 + 1 : 15;
    put(r, "    ");
    for (int x = x0; x <= x1; x++) put(r, " %+3d", x - 7);
    put(r, "\n");
    for (int y = y0; y <= y1; y++) {
        put(r, "%+3d ", y - 7);
        for (int x = x0; x <= x1; x++) {
            int c = y * 16 + x, id = kontor_state_card_at(s, c);
            char mark = c == s->ship_cell ? '*' : ' ';
            if (id == KONTOR_NONE) put(r, "   .");
            else if (id == cs->centre) put(r, "  %c@", mark);
            else {
                const kontor_card *cd = &cs->card[id];
                char t = kontor_card_is_water(cd) ? '~' : cd->colour == KONTOR_RED ? 'r' : 'b';
                put(r, "%c%2d%c", mark, cd->number, t);
            }
        }
        put(r, "\n");
    }
    put(r, "hand");
    for (int i = 0; i < s->hand_n[k->seat]; i++) put(r, " %d", cs->card[s->hand[k->seat][i]].number);
    put(r, "\ncoins");
    for (int q = 0; q < s->cfg->nseats; q++) put(r, " %s %d,", kontor_seat_name(s, q), s->coins[q]);
    put(r, " treasury %d\ntops", s->treasury);
    for (int p = 0; p < PROTO_NPILES; p++) {
        int t = proto_pile_top(s, p);
        if (t < KONTOR_MAX_CARDS) put(r, " %s %d", proto_pile_name(p), cs->card[t].number);
        else put(r, " %s -", proto_pile_name(p));
    }
    int pts[2];
    kontor_points(s, pts);
    put(r, "\npoints red %d, black %d; areas %d", pts[0], pts[1], s->nareas);
    if (s->ship_cell != KONTOR_NONE) {
        char b[8];
        put(r, "; ship on %s (marked *)", kontor_format_cell(s->ship_cell, b));
    }
    if (s->phase == KONTOR_PHASE_OVER)
        put(r, "\ngame over: %s", s->winner < 0 ? "a draw" : kontor_seat_name(s, s->winner));
}

/* ---- the agent ---------------------------------------------------------------- */

/* Tell the agent what it has not heard yet: the new game, the last decision. */
static void tell_agent(kontor_engine *e) {
    know *k = &e->k;
    if (!k->started) return;
    kontor_view v;
    if (!e->told_newgame) {
        /* the agent joins at the deal: its first view is the start */
        e->told_newgame = 1;
        k->have_log = 0;
        kontor_view_of(&k->s, k->seat, &v);
        if (e->agent->newgame) e->agent->newgame(e->agent, &v);
    }
    if (k->have_log) {
        k->have_log = 0;
        kontor_view_of(&k->s, k->seat, &v);
        if (e->agent->observe) e->agent->observe(e->agent, &v, &k->last_log);
    }
}

/* ---- commands ---------------------------------------------------------------------- */

static int join_args(const kontor_command *c, int from, char *buf, size_t cap) {
    size_t n = 0;
    buf[0] = 0;
    for (int i = from; i < c->argc; i++) {
        int w = snprintf(buf + n, cap - n, "%s%s", n ? " " : "", c->argv[i]);
        if (w < 0 || (size_t)w >= cap - n) return -1;
        n += (size_t)w;
    }
    return 0;
}

static int decide(kontor_engine *e, reply *r, const char *id, kontor_move *out) {
    know *k = &e->k;
    if (k->qhead < k->qn) {
        char want[160];
        kontor_proto_format_event(&k->s, &k->queue[k->qhead], want, sizeof want);
        char d[256];
        snprintf(d, sizeof d, "events of the last decision are missing, next '%s'", want);
        fail(r, id, KONTOR_PE_BAD_EVENT, d);
        return -1;
    }
    tell_agent(e);
    kontor_view v;
    kontor_view_of(&k->s, k->seat, &v);
    e->agent->error[0] = 0;
    kontor_move m = e->agent->decide(e->agent, &v);
    if (m == KONTOR_FORFEIT) {
        fail(r, id, KONTOR_PE_ENGINE_FAILURE, e->agent->error[0] ? e->agent->error : "the agent gave up");
        return -1;
    }
    if (!kontor_is_legal(&k->s, k->seat, m)) {
        char why[160], d[320];
        snprintf(d, sizeof d, "agent '%s' chose an illegal decision: %s", e->agent->name,
                 kontor_why_illegal(&k->s, k->seat, m, why, sizeof why));
        fail(r, id, KONTOR_PE_ENGINE_FAILURE, d);
        return -1;
    }
    *out = m;
    return 0;
}

static int seat_of_name(const char *w) {
    if (strcmp(w, "red") == 0) return KONTOR_RED;
    if (strcmp(w, "black") == 0) return KONTOR_BLACK;
    return -1;
}

/* Returns 1 after quit. */
static int run_command(kontor_engine *e, const kontor_command *c, reply *r) {
    const char *id = c->id, *name = c->name;
    know *k = &e->k;
    char msg[256];
    msg[0] = 0;
    int cmd = proto_word_index(name, command_names, NCOMMANDS);
#define NOARGS()                                                                 \
    do {                                                                         \
        if (c->argc) {                                                           \
            snprintf(msg, sizeof msg, "'%s' takes no arguments", name);          \
            fail(r, id, KONTOR_PE_SYNTAX, msg);                                  \
            return 0;                                                            \
        }                                                                        \
    } while (0)
    switch (cmd) {
    case 0: NOARGS(); put(r, "=%s %d", id, KONTOR_PROTO_VERSION); return 0;
    case 1: NOARGS(); put(r, "=%s kontor", id); return 0;
    case 2: NOARGS(); put(r, "=%s %s %s", id, KONTOR_VERSION, e->agent->name); return 0;
    case 3:
        NOARGS();
        put(r, "=%s", id);
        for (int i = 0; i < NCOMMANDS; i++) put(r, "%s%s", i ? "\n" : " ", command_names[i]);
        return 0;
    case 4:
        if (c->argc != 1) {
            fail(r, id, KONTOR_PE_SYNTAX, "usage: known_command NAME");
            return 0;
        }
        put(r, "=%s %s", id, proto_word_index(c->argv[0], command_names, NCOMMANDS) >= 0 ? "true" : "false");
        return 0;
    case 5: NOARGS(); put(r, "=%s readyok", id); return 0;
    case 6: NOARGS(); put(r, "=%s", id); return 1;
    case 7: { /* newgame VARIANT SEAT [options] */
        int seat = c->argc >= 2 ? seat_of_name(c->argv[1]) : -1;
        char opts[KONTOR_PROTO_LINE_MAX];
        if (c->argc < 2 || seat < 0 || join_args(c, 2, opts, sizeof opts)) {
            fail(r, id, KONTOR_PE_SYNTAX, "usage: newgame VARIANT red|black [OPTION=VALUE...]");
            return 0;
        }
        kontor_proto_err pe = know_newgame(k, c->argv[0], opts, seat, e->seed, msg, sizeof msg);
        if (pe) {
            fail(r, id, pe, msg);
            return 0;
        }
        e->told_newgame = 0;
        put(r, "=%s", id);
        return 0;
    }
    case 8: { /* observe EVENT */
        if (c->argc < 1) {
            fail(r, id, KONTOR_PE_SYNTAX, "usage: observe EVENT [ARGS...]");
            return 0;
        }
        /* the agent hears about the previous decision before the next one
         * is applied (top events may still correct the state until then) */
        if (k->started && k->qhead >= k->qn && strcmp(c->argv[0], "top") != 0) tell_agent(e);
        kontor_proto_err pe = know_event(k, c->argc, c->argv, msg, sizeof msg);
        if (pe) {
            fail(r, id, pe, msg);
            return 0;
        }
        put(r, "=%s", id);
        return 0;
    }
    case 9:
    case 10: { /* genchoice; genplace [ship|remove|place] */
        kontor_proto_err pe = know_start(k, msg, sizeof msg);
        if (pe) {
            fail(r, id, pe, msg);
            return 0;
        }
        const kontor_state *s = &k->s;
        static const char *const kinds[] = {"", "ship", "remove", "place"};
        int want = -1;
        if (cmd == 9 && c->argc) NOARGS();
        if (cmd == 10 && c->argc) {
            want = proto_word_index(c->argv[0], kinds, 4);
            if (c->argc > 1 || want < 1) {
                fail(r, id, KONTOR_PE_SYNTAX, "usage: genplace [ship|remove|place]");
                return 0;
            }
        }
        if (kontor_over(s)) {
            fail(r, id, KONTOR_PE_NO_GAME, "the game is over");
            return 0;
        }
        int mine = (kontor_actors(s) >> k->seat) & 1;
        int choosing = s->phase == KONTOR_PHASE_CHOOSE || s->phase == KONTOR_PHASE_DECLARE;
        if (cmd == 9 && !(choosing && mine && k->nchosen == 0)) {
            fail(r, id, KONTOR_PE_NOT_YOUR_TURN,
                 choosing ? "the choice is made" : "the seats are not choosing cards");
            return 0;
        }
        if (cmd == 10 && !(!choosing && mine && (want < 0 || want == s->phase))) {
            snprintf(msg, sizeof msg, "%s", choosing ? "the seats are choosing cards"
                                            : !mine ? "another seat is to act"
                                                    : "the decision now is another one");
            fail(r, id, KONTOR_PE_NOT_YOUR_TURN, msg);
            return 0;
        }
        kontor_move m;
        if (decide(e, r, id, &m)) return 0;
        int v = KONTOR_MOVE_VALUE(m);
        char b[8];
        if (cmd == 9) {
            if (v == KONTOR_PASS) put(r, "=%s pass", id);
            else if (v == KONTOR_PLAY) put(r, "=%s play", id);
            else put(r, "=%s %d", id, s->cfg->cards->card[v].number);
        } else {
            put(r, "=%s %s %s", id, kinds[KONTOR_MOVE_KIND(m) - 1], kontor_format_cell(v == KONTOR_NONE ? -1 : v, b));
        }
        return 0;
    }
    case 11: { /* setoption NAME VALUE */
        if (c->argc != 2) {
            fail(r, id, KONTOR_PE_SYNTAX, "usage: setoption level|ms|seed VALUE");
            return 0;
        }
        const char *opt = c->argv[0], *val = c->argv[1];
        char spec[128];
        snprintf(spec, sizeof spec, "%s", e->spec);
        int ms = e->ms;
        uint64_t seed = e->seed;
        if (strcmp(opt, "level") == 0) {
            if (strlen(val) >= sizeof spec) {
                fail(r, id, KONTOR_PE_BAD_OPTION, "the level is too long");
                return 0;
            }
            /* a program to run comes from the command line (--agent), never
             * from the stream: whoever writes to an engine must not get a shell */
            if (strncmp(val, "cmd:", 4) == 0) {
                fail(r, id, KONTOR_PE_BAD_OPTION,
                     "level 'cmd:...' is refused: an external program is named on the command line (--agent), not in the protocol");
                return 0;
            }
            snprintf(spec, sizeof spec, "%s", val);
        } else if (strcmp(opt, "ms") == 0 || strcmp(opt, "seed") == 0) {
            char *end;
            errno = 0;
            unsigned long long x = strtoull(val, &end, 10);
            int isms = opt[0] == 'm';
            if (*val < '0' || *val > '9' || *end || errno || (isms && (x < 1 || x > 3600000))) {
                snprintf(msg, sizeof msg, "'%.40s' is not a valid %s (%s)", val, opt,
                         isms ? "milliseconds from 1 to 3600000" : "a whole number");
                fail(r, id, KONTOR_PE_BAD_OPTION, msg);
                return 0;
            }
            if (isms) ms = (int)x;
            else seed = x;
        } else {
            snprintf(msg, sizeof msg, "unknown option '%.40s' (known: level, ms, seed)", opt);
            fail(r, id, KONTOR_PE_BAD_OPTION, msg);
            return 0;
        }
        kontor_agent *a = make_agent(e, spec, ms, seed, msg, sizeof msg);
        if (!a) {
            fail(r, id, KONTOR_PE_BAD_OPTION, msg);
            return 0;
        }
        free_agent(e->agent);
        e->agent = a;
        snprintf(e->spec, sizeof e->spec, "%s", spec);
        e->ms = ms;
        e->seed = seed;
        e->told_newgame = 0; /* the new agent hears of the game before it decides */
        put(r, "=%s", id);
        return 0;
    }
    case 12:
        NOARGS();
        if (!k->have_game) {
            fail(r, id, KONTOR_PE_NO_GAME, "no newgame yet");
            return 0;
        }
        if (k->cards_ready || k->have_hand) {
            kontor_proto_err pe = know_start(k, msg, sizeof msg);
            if (pe) {
                fail(r, id, pe, msg);
                return 0;
            }
        }
        put(r, "=%s ", id);
        draw_board(r, e);
        return 0;
    default: {
        /* quote the name as printable ascii: the reply must stay clean text */
        char shown[48];
        size_t i = 0;
        for (; name[i] && i < 40; i++) shown[i] = (unsigned char)name[i] < 128 ? name[i] : '?';
        shown[i] = 0;
        snprintf(msg, sizeof msg, "'%s%s'", shown, name[i] ? "..." : "");
        fail(r, id, KONTOR_PE_UNKNOWN_COMMAND, msg);
        return 0;
    }
    }
#undef NOARGS
}

int kontor_engine_handle(kontor_engine *e, const char *line, size_t len, char *out, size_t cap, size_t *outlen) {
    kontor_command *cmdp = &e->cmd;
    reply r = {out, cap, 0};
    if (cap) out[0] = 0;
    int quit = 0;
    kontor_proto_err pe = kontor_command_parse(cmdp, line, len);
    if (pe) {
        fail(&r, cmdp->id, pe, pe == KONTOR_PE_LINE_TOO_LONG ? "the longest line is 4096 bytes" : "more than 64 arguments, or an id of more than 20 digits");
    } else if (!cmdp->name) {
        if (!cmdp->id[0]) { /* an empty line gets no reply, as in GTP */
            if (outlen) *outlen = 0;
            return 0;
        }
        fail(&r, cmdp->id, KONTOR_PE_SYNTAX, "an id without a command");
    } else {
        quit = run_command(e, cmdp, &r);
    }
    finish(&r);
    if (outlen) *outlen = r.n;
    return quit;
}

int kontor_engine_run(kontor_engine *e, int in_fd, FILE *out) {
    char *line = e->line, *rep = e->rep;
    char buf[4096];
    size_t n = 0;      /* bytes of the current line kept (at most LINE_MAX + 1) */
    int over = 0;      /* the current line is longer than we keep */
    for (;;) {
        ssize_t got = read(in_fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return 1;
        int eof = got == 0;
        for (ssize_t i = 0; i <= got; i++) {
            int end_of_line = i < got ? buf[i] == '\n' : (eof && (n > 0 || over));
            if (i == got && !end_of_line) break;
            if (!end_of_line) {
                if (n < sizeof e->line - 1) line[n++] = buf[i];
                else over = 1;
                continue;
            }
            size_t len;
            int quit = kontor_engine_handle(e, line, over ? KONTOR_PROTO_LINE_MAX + 1 : n, rep, sizeof e->rep, &len);
            n = 0;
            over = 0;
            if (len && (fwrite(rep, 1, len, out) != len || fflush(out) != 0)) return 1;
            if (quit) return 0;
            if (i == got) break;
        }
        if (eof) return 0;
    }
}
