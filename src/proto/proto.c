/* proto.c: the text of the engine protocol: command lines, error tokens, events.
 *
 * Both ends of the protocol (the engine in engine.c, the controller in
 * external.c) read and write the same text, so the splitting of a command
 * line and the spelling of every event live here, once. The line splitter
 * follows GTP's preprocessing (drop control characters, tabs to spaces, '#'
 * comments) because that is what makes a line protocol robust against
 * whatever a pipe delivers: after it, every byte sequence is a sequence of
 * printable words or nothing, and the fuzz target (fuzz/fuzz_proto.c) holds
 * the splitter to that.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kontor/proto.h"
#include "proto/proto_int.h"

const char *kontor_proto_err_token(kontor_proto_err e) {
    switch (e) {
    case KONTOR_PE_OK: return "ok";
    case KONTOR_PE_UNKNOWN_COMMAND: return "unknown command";
    case KONTOR_PE_SYNTAX: return "syntax error";
    case KONTOR_PE_LINE_TOO_LONG: return "line too long";
    case KONTOR_PE_NO_GAME: return "no game";
    case KONTOR_PE_NOT_YOUR_TURN: return "not your turn";
    case KONTOR_PE_ILLEGAL: return "illegal move";
    case KONTOR_PE_BAD_EVENT: return "bad event";
    case KONTOR_PE_BAD_OPTION: return "bad option";
    case KONTOR_PE_ENGINE_FAILURE: return "engine failure";
    }
    return "unknown error";
}

/* Read the id (leading digits followed by a space or the end) from a raw,
 * possibly overlong line, for the reply to a line that is refused whole. */
static void read_id(const char *line, size_t len, char *id, size_t cap) {
    size_t i = 0, n = 0;
    id[0] = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    size_t start = i;
    while (i < len && line[i] >= '0' && line[i] <= '9') i++;
    n = i - start;
    if (n == 0 || n >= cap || (i < len && line[i] != ' ' && line[i] != '\t')) return;
    memcpy(id, line + start, n);
    id[n] = 0;
}

kontor_proto_err kontor_command_parse(kontor_command *cmd, const char *line, size_t len) {
    cmd->id[0] = 0;
    cmd->name = NULL;
    cmd->argc = 0;
    cmd->buf[0] = 0;
    if (len > KONTOR_PROTO_LINE_MAX) {
        read_id(line, len, cmd->id, sizeof cmd->id);
        return KONTOR_PE_LINE_TOO_LONG;
    }
    /* preprocess into buf: drop control characters and DEL, tabs to spaces,
     * cut at '#' */
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c == '#') break;
        if (c == '\t') c = ' ';
        if (c < 32 || c == 127) continue;
        cmd->buf[n++] = (char)c;
    }
    cmd->buf[n] = 0;
    /* split on spaces */
    const char *word[KONTOR_PROTO_MAX_ARGS + 2];
    int nw = 0;
    char *p = cmd->buf;
    for (;;) {
        while (*p == ' ') p++;
        if (!*p) break;
        if (nw == KONTOR_PROTO_MAX_ARGS + 2) {
            read_id(line, len, cmd->id, sizeof cmd->id);
            return KONTOR_PE_SYNTAX;
        }
        word[nw++] = p;
        while (*p && *p != ' ') p++;
        if (*p) *p++ = 0;
    }
    int w = 0;
    if (nw > 0 && word[0][0] >= '0' && word[0][0] <= '9') {
        size_t idn = strspn(word[0], "0123456789");
        if (word[0][idn] == 0) {
            if (idn >= sizeof cmd->id) return KONTOR_PE_SYNTAX;
            memcpy(cmd->id, word[0], idn + 1);
            w = 1;
        }
    }
    if (w >= nw) return KONTOR_PE_OK; /* empty line, or an id alone */
    cmd->name = word[w++];
    if (nw - w > KONTOR_PROTO_MAX_ARGS) {
        cmd->name = NULL;
        return KONTOR_PE_SYNTAX;
    }
    for (; w < nw; w++) cmd->argv[cmd->argc++] = word[w];
    return KONTOR_PE_OK;
}

/* ---- names ----------------------------------------------------------------- */

static const char *const kind_names[] = {"goods", "crane", "tavern", "water", "centre", "flood", "bridge", "customs"};
static const char *const colour_names[] = {"red", "black", "neutral"};
static const char *const takeback_names[] = {"?", "tax", "nocell", "declined"};
static const char *const end_names[] = {"?", "full", "rounds", "stuck"};
static const char *const pile_names[] = {"red", "black", "water"};

const char *proto_pile_name(int pile) { return pile >= 0 && pile < 3 ? pile_names[pile] : "?"; }

int proto_word_index(const char *w, const char *const *names, int n) {
    for (int i = 0; i < n; i++)
        if (strcmp(w, names[i]) == 0) return i;
    return -1;
}

int proto_pile_index(const char *w) { return proto_word_index(w, pile_names, 3); }
int proto_takeback_index(const char *w) {
    int i = proto_word_index(w, takeback_names, 4);
    return i >= 1 ? i : -1;
}
int proto_end_index(const char *w) {
    int i = proto_word_index(w, end_names, 4);
    return i >= 1 ? i : -1;
}

/* "31", or "?" for a card id the state does not hold */
static const char *card_number(const kontor_state *s, int id, char *buf) {
    if (id < 0 || id >= s->cfg->cards->ncards) return "?";
    snprintf(buf, 8, "%d", s->cfg->cards->card[id].number);
    return buf;
}

size_t kontor_proto_format_card(const kontor_cardset *cs, int id, char *buf, size_t cap) {
    if (id < 0 || id >= cs->ncards) return 0;
    const kontor_card *c = &cs->card[id];
    char goods[16];
    size_t g = 0;
    static const char letter[3] = {'T', 'W', 'S'};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < c->goods[k] && g < sizeof goods - 1; i++) goods[g++] = letter[k];
    if (!g) goods[g++] = '-';
    goods[g] = 0;
    const char *sym = c->coin && c->ship ? "coin+ship" : c->coin ? "coin" : c->ship ? "ship" : "-";
    int n = snprintf(buf, cap, "card %d %s %s %s %s", c->number, colour_names[c->colour < 3 ? c->colour : 2],
                     c->kind < 8 ? kind_names[c->kind] : "?", goods, sym);
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

size_t kontor_proto_format_event(const kontor_state *s, const kontor_event *e, char *buf, size_t cap) {
    char c1[8], c2[8];
    const char *who = kontor_seat_name(s, e->seat);
    int n = 0;
    switch (e->kind) {
    case KONTOR_EV_ROUND: n = snprintf(buf, cap, "round %u", (unsigned)e->a); break;
    case KONTOR_EV_PASS: n = snprintf(buf, cap, "pass %s %u", who, (unsigned)e->a); break;
    case KONTOR_EV_PLAY: n = snprintf(buf, cap, "play %s", who); break;
    case KONTOR_EV_REVEAL: n = snprintf(buf, cap, "reveal %s %s", who, card_number(s, e->card, c1)); break;
    case KONTOR_EV_TAX: n = snprintf(buf, cap, "tax %s", who); break;
    case KONTOR_EV_TAKEBACK:
        n = snprintf(buf, cap, "takeback %s %s %s", who, card_number(s, e->card, c1),
                     e->a >= 1 && e->a <= 3 ? takeback_names[e->a] : "?");
        break;
    case KONTOR_EV_SITOUT: n = snprintf(buf, cap, "sitout %s %s %u", who, card_number(s, e->card, c1), (unsigned)e->a); break;
    case KONTOR_EV_SHIP: n = snprintf(buf, cap, "ship %s %s", who, kontor_format_cell(e->cell, c1)); break;
    case KONTOR_EV_REMOVE: n = snprintf(buf, cap, "remove %s %s", who, kontor_format_cell(e->cell, c1)); break;
    case KONTOR_EV_PLACE:
        n = snprintf(buf, cap, "place %s %s %s", who, card_number(s, e->card, c1), kontor_format_cell(e->cell, c2));
        break;
    case KONTOR_EV_SCORE: {
        int size = e->a < s->nareas ? s->area[e->a].size : 0;
        n = snprintf(buf, cap, "score %s %s %d", kontor_format_cell(e->cell, c1),
                     e->seat < s->cfg->nseats ? who : "none", size);
        break;
    }
    case KONTOR_EV_DRAW: n = snprintf(buf, cap, "draw %s %s", who, card_number(s, e->card, c1)); break;
    case KONTOR_EV_COIN: n = snprintf(buf, cap, "coin %s", who); break;
    case KONTOR_EV_END:
        n = snprintf(buf, cap, "end %s %u %u %s", e->a >= 1 && e->a <= 3 ? end_names[e->a] : "?", (unsigned)s->score[0],
                     (unsigned)s->score[1], s->winner < 0 ? "draw" : kontor_seat_name(s, s->winner));
        break;
    default: return 0;
    }
    if (n < 0) return 0;
    return (size_t)n < cap ? (size_t)n : cap - 1;
}

/* ---- what the controller tells ---------------------------------------------------- */

int proto_deal_events(const kontor_view *v, int tops[3], proto_emit_fn emit, void *ctx) {
    const kontor_state *s = &v->s;
    const kontor_cardset *cs = s->cfg->cards;
    char line[256];
    int r;
    snprintf(line, sizeof line, "cardset %s", cs->name);
    if ((r = emit(ctx, line))) return r;
    for (int id = 0; id < cs->ncards; id++) {
        kontor_proto_format_card(cs, id, line, sizeof line);
        if ((r = emit(ctx, line))) return r;
    }
    for (int c = 0; c < KONTOR_CELLS; c++)
        if (kontor_state_card_at(s, c) < cs->ncards) {
            char b[8];
            snprintf(line, sizeof line, "board %s %d", kontor_format_cell(c, b),
                     cs->card[kontor_state_card_at(s, c)].number);
            if ((r = emit(ctx, line))) return r;
        }
    size_t n = (size_t)snprintf(line, sizeof line, "hand");
    for (int i = 0; i < s->hand_n[v->seat] && n < sizeof line; i++)
        n += (size_t)snprintf(line + n, sizeof line - n, " %d", cs->card[s->hand[v->seat][i]].number);
    if ((r = emit(ctx, line))) return r;
    for (int p = 0; p < PROTO_NPILES; p++) {
        int t = proto_pile_top(s, p);
        tops[p] = t;
        if (t < cs->ncards) snprintf(line, sizeof line, "top %s %d", proto_pile_name(p), cs->card[t].number);
        else snprintf(line, sizeof line, "top %s -", proto_pile_name(p));
        if ((r = emit(ctx, line))) return r;
    }
    return 0;
}

int proto_decision_events(const kontor_view *prev, const kontor_view *v, const kontor_log *log, int tops[3],
                          proto_emit_fn emit, void *ctx) {
    const kontor_state *p = &prev->s, *s = &v->s;
    char ev[200];
    int r;
    /* the decisions that leave no event: not moving the ship, not removing */
    int first = log->n ? log->ev[0].kind : 0;
    if (p->phase == KONTOR_PHASE_SHIP && first != KONTOR_EV_SHIP) {
        snprintf(ev, sizeof ev, "ship %s -", kontor_seat_name(p, kontor_current(p)));
        if ((r = emit(ctx, ev))) return r;
    }
    if (p->phase == KONTOR_PHASE_REMOVE && first != KONTOR_EV_REMOVE) {
        snprintf(ev, sizeof ev, "remove %s -", kontor_seat_name(p, kontor_current(p)));
        if ((r = emit(ctx, ev))) return r;
    }
    for (int i = 0; i < log->n; i++)
        if (kontor_proto_format_event(s, &log->ev[i], ev, sizeof ev) && (r = emit(ctx, ev))) return r;
    for (int q = 0; q < PROTO_NPILES; q++) {
        int t = proto_pile_top(s, q);
        /* a top the seat cannot see is never told (it cannot happen: every
         * top is public; the test keeps it so) */
        if (t == tops[q] || (t != KONTOR_NONE && t >= s->cfg->cards->ncards)) continue;
        tops[q] = t;
        if (t == KONTOR_NONE) snprintf(ev, sizeof ev, "top %s -", proto_pile_name(q));
        else snprintf(ev, sizeof ev, "top %s %d", proto_pile_name(q), s->cfg->cards->card[t].number);
        if ((r = emit(ctx, ev))) return r;
    }
    return 0;
}

/* Read a decision from the engine's answer: "pass" or "play" for a
 * declaration (R1; a card number counts as "play", so that an engine of
 * protocol version 1 can declare by choosing); a card number or "pass" for a
 * choice; "ship|remove|place CELL|-" (or a bare cell for a placement). */
int proto_parse_answer(const kontor_state *s, const char *ans, kontor_move *m) {
    char w1[32] = "", w2[32] = "", extra[8] = "";
    int nw = sscanf(ans, "%31s %31s %7s", w1, w2, extra);
    if (nw < 1 || nw > 2) return -1;
    if (s->phase == KONTOR_PHASE_DECLARE) {
        if (nw != 1) return -1;
        if (strcmp(w1, "pass") == 0) return *m = KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PASS), 0;
        if (strcmp(w1, "play") == 0) return *m = KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY), 0;
        char *end;
        long num = strtol(w1, &end, 10);
        if (*end || end == w1) return -1;
        for (int id = 0; id < s->cfg->cards->ncards; id++)
            if (s->cfg->cards->card[id].number == num) return *m = KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY), 0;
        return -1;
    }
    if (s->phase == KONTOR_PHASE_CHOOSE) {
        if (nw != 1) return -1;
        if (strcmp(w1, "pass") == 0) return *m = KONTOR_MOVE(KONTOR_MOVE_CHOOSE, KONTOR_PASS), 0;
        char *end;
        long num = strtol(w1, &end, 10);
        if (*end || end == w1) return -1;
        for (int id = 0; id < s->cfg->cards->ncards; id++)
            if (s->cfg->cards->card[id].number == num) return *m = KONTOR_MOVE(KONTOR_MOVE_CHOOSE, id), 0;
        return -1;
    }
    static const char *const kinds[] = {"", "ship", "remove", "place"};
    const char *cellw = w2;
    int kind;
    if (nw == 1) { /* a bare cell: a placement */
        kind = KONTOR_PHASE_PLACE;
        cellw = w1;
    } else {
        kind = proto_word_index(w1, kinds, 4);
        if (kind < 1) return -1;
    }
    int cell = strcmp(cellw, "-") == 0 ? KONTOR_NONE : kontor_parse_cell(cellw);
    if (cell < 0) return -1;
    static const int move_kind[] = {0, KONTOR_MOVE_SHIP, KONTOR_MOVE_REMOVE, KONTOR_MOVE_PLACE};
    *m = KONTOR_MOVE(move_kind[kind], cell);
    return 0;
}

