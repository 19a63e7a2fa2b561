/* record.c: game records (.kgn, "kontor game notation"): build, write, parse, replay.
 *
 * The text format is specified in docs/records.md; this file is its reference
 * reader and writer. A record stores the decisions exactly as the engine took
 * them (kontor_record.ply[]), so the writer needs no rules: it groups the
 * plies into rounds by one fact only, that every seat makes at most one
 * declaration and one choice per round and these come before the round's
 * other decisions.
 * The parser likewise checks only the grammar and the card set (every number
 * must name a card, the deal must be a permutation); whether each decision
 * was legal is the replay's question, answered by the engine itself
 * (kontor_apply, and kontor_why_illegal for the words). Keeping the three
 * apart means a record that the engine would reject can still be read,
 * shown and reported precisely ("round 7: ...").
 *
 * The parser never trusts its input: the text is checked line by line for
 * length and control bytes before any token is read, every number is bounded
 * before it is stored, and the count of decisions has a ceiling, so a hostile
 * file costs at most a few megabytes and a linear scan. There is no global
 * state; errors are values in a caller-owned kontor_error.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kontor/record.h"

/* A line may be long (a whole game written on one line is still a reasonable
 * record: about 20 characters a round times at most 10000 rounds would not
 * fit, but a few hundred rounds do), yet bounded so that error messages and
 * scans stay cheap. */
#define LINE_MAX_CHARS 16384
/* A token (a tag name, a number, a cell, a keyword) is short; 48 bytes hold
 * the longest legal one with room to quote a bad one in a message. */
#define TOKEN_MAX 48
/* Rounds: the safety rule (option max_rounds) allows at most 10000. */
#define ROUND_MAX 10000
/* Decisions: per round 2 declarations, 2 choices and, per seat, at most a
 * ship move, a removal and a placement: 10 a round for two; with four seats
 * and the scenarios' decisions more, so 16 a round is a generous ceiling. */
#define PLY_MAX (ROUND_MAX * 16)

/* dst = a b c, cut short to fit cap (a message cut short is still a message). */
static void join(char *dst, size_t cap, const char *a, const char *b, const char *c) {
    size_t n = 0;
    const char *part[3] = {a, b, c};
    if (!cap) return;
    for (int i = 0; i < 3; i++)
        for (const char *p = part[i]; *p && n + 1 < cap; p++) dst[n++] = *p;
    dst[n] = 0;
}

/* ---- building ------------------------------------------------------------------ */

void kontor_record_init(kontor_record *r, const kontor_config *cfg, const kontor_deal *d) {
    memset(r, 0, sizeof *r);
    r->cfg = *cfg;
    if (d) r->deal = *d;
    snprintf(r->result, sizeof r->result, "*");
}

void kontor_record_release(kontor_record *r) {
    if (!r) return;
    free(r->ply);
    r->ply = NULL;
    r->nply = r->cap = 0;
}

kontor_status kontor_record_push(kontor_record *r, int seat, kontor_move m) {
    if (r->nply >= PLY_MAX) return KONTOR_E_RANGE;
    if (r->nply >= r->cap) {
        int cap = r->cap ? r->cap * 2 : 256;
        if (cap > PLY_MAX) cap = PLY_MAX;
        kontor_ply *p = realloc(r->ply, (size_t)cap * sizeof *p);
        if (!p) return KONTOR_E_RANGE;
        r->ply = p;
        r->cap = cap;
    }
    r->ply[r->nply].seat = (uint8_t)seat;
    r->ply[r->nply].move = m;
    r->nply++;
    return KONTOR_OK;
}

void kontor_record_set_result(kontor_record *r, const kontor_state *s) {
    const char *res = "*";
    if (kontor_over(s)) res = s->winner == 0 ? "1-0" : s->winner == 1 ? "0-1" : "1/2-1/2";
    snprintf(r->result, sizeof r->result, "%s", res);
}

/* ---- writing ------------------------------------------------------------------- */

/* A growing string; on allocation failure it stops growing and remembers. */
typedef struct sbuf {
    char *s;
    size_t n, cap;
    int failed;
} sbuf;

__attribute__((format(printf, 2, 3)))
static void sb_printf(sbuf *b, const char *fmt, ...) {
    if (b->failed) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->failed = 1;
            return;
        }
        if (b->s && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = b->cap ? b->cap : 4096;
        while (cap <= b->n + (size_t)k) cap *= 2;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            b->failed = 1;
            return;
        }
        b->s = ns;
        b->cap = cap;
    }
}

/* A tag line; the value is escaped as in PGN (backslash before '"' and '\').
 * A control character (a name set by a program may hold one) becomes a
 * space, since a record line may not hold it. */
static void write_tag(sbuf *b, const char *name, const char *value) {
    sb_printf(b, "[%s \"", name);
    for (const char *p = value; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\') sb_printf(b, "\\%c", c);
        else sb_printf(b, "%c", c < 32 || c == 127 ? ' ' : c);
    }
    sb_printf(b, "\"]\n");
}

/* Seat words: red and black with two players; red1 red2 black1 black2 with
 * four (seats 0 to 3). */
static const char *const seat_word2[2] = {"red", "black"};
static const char *const seat_word4[4] = {"red1", "red2", "black1", "black2"};
static const char *seat_name(int nseats, int seat) {
    if (seat < 0 || seat >= nseats) return "nobody";
    return nseats == 4 ? seat_word4[seat] : seat_word2[seat];
}
static const char *const tag_seat2[2] = {"Red", "Black"};
static const char *const tag_seat4[4] = {"Red1", "Red2", "Black1", "Black2"};
static const char *const good_word[3] = {"tea", "wine", "spice"};

static int write_value(sbuf *b, const kontor_config *cfg, kontor_move m) {
    int v = KONTOR_MOVE_VALUE(m);
    char cs[8];
    switch (KONTOR_MOVE_KIND(m)) {
    case KONTOR_MOVE_BUY: /* how many special cards (R20): one digit, the pile holds six */
        if (v > 9) return -1;
        sb_printf(b, " %d", v);
        return 0;
    case KONTOR_MOVE_PILE:
        if (v >= cfg->nseats) return -1;
        sb_printf(b, " pile %s", seat_name(cfg->nseats, v));
        return 0;
    case KONTOR_MOVE_PLACE_WATER:
        if (v == KONTOR_NONE) return -1;
        sb_printf(b, " water %s", kontor_format_cell(v, cs));
        return 0;
    case KONTOR_MOVE_DECLARE:
        if (v == KONTOR_PASS) sb_printf(b, " pass");
        else if (v == KONTOR_PLAY) sb_printf(b, " play");
        else return -1;
        return 0;
    case KONTOR_MOVE_CHOOSE:
        if (v == KONTOR_PASS) sb_printf(b, " pass");
        else if (v < cfg->cards->ncards) sb_printf(b, " %d", cfg->cards->card[v].number);
        else return -1;
        return 0;
    case KONTOR_MOVE_SHIP:
        sb_printf(b, " ship %s", v == KONTOR_NONE ? "-" : kontor_format_cell(v, cs));
        return 0;
    case KONTOR_MOVE_REMOVE:
        sb_printf(b, " remove %s", v == KONTOR_NONE ? "-" : kontor_format_cell(v, cs));
        return 0;
    case KONTOR_MOVE_PLACE:
        sb_printf(b, " %s", v == KONTOR_NONE ? "-" : kontor_format_cell(v, cs));
        return 0;
    /* the scenarios' decisions (docs/variants.md) */
    case KONTOR_MOVE_BRIBE:
        sb_printf(b, " bribe %s", v == KONTOR_NONE ? "-" : kontor_format_cell(v, cs));
        return 0;
    case KONTOR_MOVE_EVENT:
        sb_printf(b, " event %s", v == KONTOR_NONE ? "-" : kontor_format_cell(v, cs));
        return 0;
    case KONTOR_MOVE_TILE:
        sb_printf(b, " tile %s", v == KONTOR_NONE ? "-" : kontor_format_cell(v, cs));
        return 0;
    case KONTOR_MOVE_KEEP:
    case KONTOR_MOVE_DISCARD:
        if (v >= cfg->cards->ncards) return -1;
        sb_printf(b, " %s %d", KONTOR_MOVE_KIND(m) == KONTOR_MOVE_KEEP ? "keep" : "discard", cfg->cards->card[v].number);
        return 0;
    case KONTOR_MOVE_TAVERN:
        sb_printf(b, " tavern %s", v ? "yes" : "no");
        return 0;
    case KONTOR_MOVE_EXPORT:
        if (v != KONTOR_NONE && v > 2) return -1;
        sb_printf(b, " export %s", v == KONTOR_NONE ? "-" : good_word[v]);
        return 0;
    default:
        return -1;
    }
}

static void write_pile(sbuf *b, const kontor_config *cfg, const char *name, const uint8_t *ids, int n) {
    sb_printf(b, "deal %s", name);
    for (int i = 0; i < n; i++) sb_printf(b, " %d", cfg->cards->card[ids[i]].number);
    sb_printf(b, "\n");
}

kontor_status kontor_record_write(const kontor_record *r, char **out, size_t *len) {
    const kontor_config *cfg = &r->cfg;
    int ns = cfg->nseats;
    sbuf b = {0};
    char opts[256];
    *out = NULL;
    if (len) *len = 0;
    if (ns != 2 && ns != 4) return KONTOR_E_RANGE;
    for (int i = 0; i < r->deal.nwater; i++)
        if (r->deal.water[i] >= cfg->cards->ncards) return KONTOR_E_INVALID;
    for (int p = 0; p < ns; p++)
        for (int i = 0; i < r->deal.ndock[p]; i++)
            if (r->deal.dock[p][i] >= cfg->cards->ncards) return KONTOR_E_INVALID;
    for (int i = 0; i < r->deal.nspecial; i++)
        if (r->deal.special[i] >= cfg->cards->ncards) return KONTOR_E_INVALID;

    write_tag(&b, "Event", r->event);
    write_tag(&b, "Date", r->date);
    write_tag(&b, "Variant", kontor_variant_name(cfg->variant));
    char rulings[8];
    snprintf(rulings, sizeof rulings, "%d", KONTOR_RULINGS);
    write_tag(&b, "Rulings", rulings);
    kontor_config_describe(cfg, opts, sizeof opts);
    if (opts[0]) write_tag(&b, "Options", opts);
    write_tag(&b, "Cards", cfg->cards->name);
    for (int p = 0; p < ns; p++) write_tag(&b, ns == 4 ? tag_seat4[p] : tag_seat2[p], r->players[p]);
    if (r->has_seed) {
        char seed[24];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)r->seed);
        write_tag(&b, "Seed", seed);
    }
    write_tag(&b, "Result", r->result[0] ? r->result : "*");
    if (r->termination[0]) write_tag(&b, "Termination", r->termination);
    sb_printf(&b, "\n");
    write_pile(&b, cfg, "water", r->deal.water, r->deal.nwater);
    for (int p = 0; p < ns; p++) write_pile(&b, cfg, seat_name(ns, p), r->deal.dock[p], r->deal.ndock[p]);
    if (cfg->specials) write_pile(&b, cfg, "special", r->deal.special, r->deal.nspecial);
    /* the expansions' decks: event cards by their line in data/events.txt, tiles 1..8 */
    if (cfg->events) {
        sb_printf(&b, "deal events");
        for (int i = 0; i < r->deal.nevents; i++) sb_printf(&b, " %d", r->deal.events[i] + 1);
        sb_printf(&b, "\n");
    }
    if (cfg->tiles) {
        sb_printf(&b, "deal tiles");
        for (int i = 0; i < KONTOR_TILES; i++) sb_printf(&b, " %d", r->deal.tiles[i] + 1);
        sb_printf(&b, "\n");
    }
    sb_printf(&b, "\n");

    /* Rounds: a round is its buys when there were any ("buy" and one word a
     * seat, '-' for a seat not asked), its choices (one per seat, written in
     * seat order, '?' for a seat whose choice is not in the record) and then
     * the other decisions in order, in runs headed by the seat that takes
     * them. A buy, a declaration or a choice by a seat that has already made
     * one, or after the round's other decisions, begins the next round. With
     * declarations (R1) a seat's word says both: 'pass' (declared a pass), a
     * card (declared to play and chose it), 'play' (declared to play, the
     * card not in the record), '?' (no declaration in the record). */
    int i = 0, round = 0;
    kontor_status st = KONTOR_OK;
    while (i < r->nply && st == KONTOR_OK) {
        kontor_move choice[KONTOR_MAX_SEATS] = {0}, buy[KONTOR_MAX_SEATS] = {0}, decl[KONTOR_MAX_SEATS] = {0};
        int have[KONTOR_MAX_SEATS] = {0}, bought[KONTOR_MAX_SEATS] = {0}, anybuy = 0, declared[KONTOR_MAX_SEATS] = {0};
        while (i < r->nply && KONTOR_MOVE_KIND(r->ply[i].move) == KONTOR_MOVE_BUY) {
            int seat = r->ply[i].seat;
            if (seat >= ns) {
                st = KONTOR_E_INVALID;
                break;
            }
            if (bought[seat]) break;
            bought[seat] = anybuy = 1;
            buy[seat] = r->ply[i].move;
            i++;
        }
        while (!st && i < r->nply && KONTOR_MOVE_KIND(r->ply[i].move) == KONTOR_MOVE_DECLARE) {
            int seat = r->ply[i].seat;
            if (seat >= ns || cfg->pass_hidden) {
                st = KONTOR_E_INVALID;
                break;
            }
            if (declared[seat]) break;
            declared[seat] = 1;
            decl[seat] = r->ply[i].move;
            i++;
        }
        while (!st && i < r->nply && KONTOR_MOVE_KIND(r->ply[i].move) == KONTOR_MOVE_CHOOSE) {
            int seat = r->ply[i].seat;
            if (seat >= ns) {
                st = KONTOR_E_INVALID;
                break;
            }
            if (have[seat]) break;
            have[seat] = 1;
            choice[seat] = r->ply[i].move;
            i++;
        }
        if (st) break;
        sb_printf(&b, "%d.", ++round);
        if (anybuy) {
            sb_printf(&b, " buy");
            for (int p = 0; p < ns; p++) {
                if (!bought[p]) sb_printf(&b, " -");
                else if (write_value(&b, cfg, buy[p])) st = KONTOR_E_INVALID;
            }
        }
        for (int p = 0; p < ns; p++) {
            if (!cfg->pass_hidden) {
                /* a choice needs a declaration to play before it */
                int plays = declared[p] && KONTOR_MOVE_VALUE(decl[p]) == KONTOR_PLAY;
                if (have[p] && (!plays || KONTOR_MOVE_VALUE(choice[p]) == KONTOR_PASS)) st = KONTOR_E_INVALID;
                else if (!declared[p]) sb_printf(&b, " ?");
                else if (write_value(&b, cfg, have[p] ? choice[p] : decl[p])) st = KONTOR_E_INVALID;
            } else if (!have[p]) {
                sb_printf(&b, " ?");
            } else if (write_value(&b, cfg, choice[p])) {
                st = KONTOR_E_INVALID;
            }
        }
        int last = -1;
        while (i < r->nply && KONTOR_MOVE_KIND(r->ply[i].move) != KONTOR_MOVE_CHOOSE &&
               KONTOR_MOVE_KIND(r->ply[i].move) != KONTOR_MOVE_BUY &&
               KONTOR_MOVE_KIND(r->ply[i].move) != KONTOR_MOVE_DECLARE) {
            int seat = r->ply[i].seat;
            if (seat >= ns) {
                st = KONTOR_E_INVALID;
                break;
            }
            if (seat != last) sb_printf(&b, " %s", seat_name(ns, seat));
            last = seat;
            if (write_value(&b, cfg, r->ply[i].move)) st = KONTOR_E_INVALID;
            i++;
        }
        sb_printf(&b, "\n");
    }
    if (st || b.failed) {
        free(b.s);
        return st ? st : KONTOR_E_RANGE;
    }
    *out = b.s;
    if (len) *len = b.n;
    return KONTOR_OK;
}

/* ---- parsing ------------------------------------------------------------------- */

typedef struct parser {
    const char *p, *end;
    int line;
    kontor_error *err;
    kontor_record *r;
    const kontor_cardset *cs;   /* the card set the numbers are read with */
    int num2id[256];            /* card number -> id, or -1 */
    uint8_t dealt[KONTOR_MAX_CARDS];
} parser;

__attribute__((format(printf, 4, 5)))
static kontor_status fail_at(kontor_error *err, kontor_status code, int line, const char *fmt, ...) {
    if (err) {
        char msg[sizeof err->msg];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        memset(err, 0, sizeof *err);
        err->code = code;
        err->line = line;
        char where[24] = "";
        if (line > 0) snprintf(where, sizeof where, "line %d: ", line);
        join(err->msg, sizeof err->msg, where, msg, "");
    }
    return code;
}

/* Before any token: every line within LINE_MAX_CHARS, no NUL or other
 * control bytes except tab, carriage return and newline. */
static kontor_status check_lines(const char *text, size_t len, kontor_error *err) {
    int line = 1;
    size_t col = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\n') {
            line++;
            col = 0;
            continue;
        }
        if (++col > LINE_MAX_CHARS)
            return fail_at(err, KONTOR_E_PARSE, line, "line is longer than %d characters", LINE_MAX_CHARS);
        if (c == 0) return fail_at(err, KONTOR_E_PARSE, line, "a NUL byte is not allowed in a record");
        if ((c < 32 && c != '\t' && c != '\r') || c == 127)
            return fail_at(err, KONTOR_E_PARSE, line, "control byte 0x%02x is not allowed in a record", c);
    }
    return KONTOR_OK;
}

/* Skip whitespace and comments; fails on an unterminated { comment. */
static kontor_status skip_space(parser *ps) {
    while (ps->p < ps->end) {
        char c = *ps->p;
        if (c == '\n') {
            ps->line++;
            ps->p++;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            ps->p++;
        } else if (c == ';') {
            while (ps->p < ps->end && *ps->p != '\n') ps->p++;
        } else if (c == '{') {
            int start = ps->line;
            ps->p++;
            while (ps->p < ps->end && *ps->p != '}') {
                if (*ps->p == '\n') ps->line++;
                ps->p++;
            }
            if (ps->p >= ps->end)
                return fail_at(ps->err, KONTOR_E_PARSE, start, "comment '{' is not closed by '}'");
            ps->p++;
        } else {
            break;
        }
    }
    return KONTOR_OK;
}

static int is_delim(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '{' || c == ';' || c == '[';
}

/* Read one word (up to a delimiter) into tok. 1 if read, 0 at the end. */
static int read_word(parser *ps, char tok[TOKEN_MAX], kontor_status *st) {
    *st = skip_space(ps);
    if (*st || ps->p >= ps->end) return 0;
    const char *s = ps->p;
    while (ps->p < ps->end && !is_delim(*ps->p)) ps->p++;
    size_t n = (size_t)(ps->p - s);
    if (n == 0) { /* a lone '[' out of place */
        *st = fail_at(ps->err, KONTOR_E_PARSE, ps->line, "a tag '[...]' must come before the deal and the rounds");
        return 0;
    }
    if (n >= TOKEN_MAX) {
        *st = fail_at(ps->err, KONTOR_E_PARSE, ps->line, "'%.20s...' is too long for a word of a record", s);
        return 0;
    }
    memcpy(tok, s, n);
    tok[n] = 0;
    return 1;
}

/* Peek: does the next word (after space and comments) satisfy pred? */
static int peek_word(parser *ps, char tok[TOKEN_MAX], kontor_status *st) {
    const char *p = ps->p;
    int line = ps->line;
    int got = read_word(ps, tok, st);
    ps->p = p;
    ps->line = line;
    return got;
}

/* A decimal number of at most digits digits, whole word; -1 if not. */
static long number_of(const char *tok, int digits) {
    long v = 0;
    int n = 0;
    if (!*tok) return -1;
    for (const char *p = tok; *p; p++) {
        if (*p < '0' || *p > '9' || ++n > digits) return -1;
        v = v * 10 + (*p - '0');
    }
    return v;
}

/* "12." -> 12; -1 if tok is not a round marker. */
static long round_of(const char *tok) {
    size_t n = strlen(tok);
    if (n < 2 || tok[n - 1] != '.') return -1;
    char t[TOKEN_MAX];
    memcpy(t, tok, n - 1);
    t[n - 1] = 0;
    return number_of(t, 5);
}

/* A cell word, or "-" for KONTOR_NONE; -1 if neither. The grid cell +8,+8
 * has the number of KONTOR_NONE and so cannot be written. */
static int cell_of(const char *tok) {
    if (strcmp(tok, "-") == 0) return KONTOR_NONE;
    int cell = kontor_parse_cell(tok);
    return cell == KONTOR_NONE ? -1 : cell;
}

static int seat_of(const char *tok, int nseats) {
    for (int p = 0; p < nseats; p++)
        if (strcmp(tok, seat_name(nseats, p)) == 0) return p;
    return -1;
}

/* ---- tags ---- */

enum { TAG_EVENT, TAG_DATE, TAG_VARIANT, TAG_OPTIONS, TAG_CARDS, TAG_RED, TAG_BLACK,
       TAG_SEED, TAG_RESULT, TAG_TERMINATION, TAG_RED1, TAG_RED2, TAG_BLACK1, TAG_BLACK2, TAG_RULINGS, NTAGS };
static const char *const tag_names[NTAGS] = {"Event", "Date", "Variant", "Options", "Cards",
                                             "Red", "Black", "Seed", "Result", "Termination",
                                             "Red1", "Red2", "Black1", "Black2", "Rulings"};

typedef struct tags {
    char value[NTAGS][KONTOR_TAG_MAX];
    int line[NTAGS];  /* 0: not given */
} tags;

/* At '[': read [Name "value"] into t. */
static kontor_status read_tag(parser *ps, tags *t) {
    int line = ps->line;
    const char *p = ps->p + 1, *end = ps->end;
    char name[TOKEN_MAX];
    size_t n = 0;
    while (p < end && *p == ' ') p++;
    while (p < end && ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')) {
        if (n + 1 >= sizeof name) return fail_at(ps->err, KONTOR_E_PARSE, line, "a tag name is too long");
        name[n++] = *p++;
    }
    name[n] = 0;
    if (n == 0) return fail_at(ps->err, KONTOR_E_PARSE, line, "a tag wants a name after '[', like [Red \"alice\"]");
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    if (p >= end || *p != '"')
        return fail_at(ps->err, KONTOR_E_PARSE, line, "tag '%s' wants a value in double quotes", name);
    p++;
    char value[KONTOR_TAG_MAX];
    size_t vn = 0;
    for (;;) {
        if (p >= end || *p == '\n')
            return fail_at(ps->err, KONTOR_E_PARSE, line, "the value of tag '%s' is not closed by '\"'", name);
        char c = *p++;
        if (c == '"') break;
        if (c == '\\') {
            if (p >= end || (*p != '"' && *p != '\\'))
                return fail_at(ps->err, KONTOR_E_PARSE, line, "tag '%s': only \\\" and \\\\ may follow a backslash", name);
            c = *p++;
        }
        if (vn + 1 >= sizeof value)
            return fail_at(ps->err, KONTOR_E_PARSE, line, "the value of tag '%s' is longer than %d characters", name,
                           KONTOR_TAG_MAX - 1);
        value[vn++] = c;
    }
    value[vn] = 0;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    if (p >= end || *p != ']') return fail_at(ps->err, KONTOR_E_PARSE, line, "tag '%s' is not closed by ']'", name);
    ps->p = p + 1;
    for (int i = 0; i < NTAGS; i++)
        if (strcmp(name, tag_names[i]) == 0) {
            if (t->line[i])
                return fail_at(ps->err, KONTOR_E_PARSE, line, "tag '%s' is given twice (first on line %d)", name, t->line[i]);
            memcpy(t->value[i], value, vn + 1);
            t->line[i] = line;
        }
    /* other tags are for people and are ignored */
    return KONTOR_OK;
}

/* The tags are read: build the configuration and the record's fields. */
static kontor_status apply_tags(parser *ps, const tags *t) {
    kontor_record *r = ps->r;
    kontor_error e;
    const char *variant = t->line[TAG_VARIANT] ? t->value[TAG_VARIANT] : "basic";
    if (kontor_config_init(&r->cfg, variant, &e))
        return fail_at(ps->err, KONTOR_E_PARSE, t->line[TAG_VARIANT], "%s", e.msg);
    r->cfg.cards = ps->cs;
    /* The Options are relative to the defaults of the record's rulings: a
     * record without the tag was written before the rulebook's R1 and R2 became
     * the defaults (KONTOR_RULINGS). */
    if (!t->line[TAG_RULINGS] || strcmp(t->value[TAG_RULINGS], "1") == 0) {
        kontor_config_options(&r->cfg, KONTOR_RULINGS_1_OPTIONS, &e);
    } else if (strcmp(t->value[TAG_RULINGS], "2") != 0) {
        return fail_at(ps->err, KONTOR_E_PARSE, t->line[TAG_RULINGS],
                       "tag 'Rulings' is '1' or '2' (this kontor's), not '%s': a newer kontor wrote the record",
                       t->value[TAG_RULINGS]);
    }
    if (t->line[TAG_OPTIONS] && kontor_config_options(&r->cfg, t->value[TAG_OPTIONS], &e))
        return fail_at(ps->err, e.code, t->line[TAG_OPTIONS], "tag 'Options': %s", e.msg);
    const char *cards = t->line[TAG_CARDS] ? t->value[TAG_CARDS] : "default";
    if (strcmp(cards, ps->cs->name) != 0)
        return fail_at(ps->err, KONTOR_E_INVALID, t->line[TAG_CARDS],
                       "the record is played with card set '%s', but card set '%s' is loaded (use --cards FILE)",
                       cards, ps->cs->name);
    if (t->line[TAG_SEED]) {
        const char *s = t->value[TAG_SEED];
        unsigned long long v = 0;
        int ok = *s != 0 && strlen(s) <= 20;
        for (const char *p = s; ok && *p; p++) {
            if (*p < '0' || *p > '9') ok = 0;
            else if (v > (~0ULL - (unsigned)(*p - '0')) / 10) ok = 0;
            else v = v * 10 + (unsigned)(*p - '0');
        }
        if (!ok)
            return fail_at(ps->err, KONTOR_E_PARSE, t->line[TAG_SEED], "tag 'Seed' wants a whole number below 2^64, not '%s'", s);
        r->seed = v;
        r->has_seed = 1;
    }
    if (t->line[TAG_RESULT]) {
        const char *s = t->value[TAG_RESULT];
        if (strcmp(s, "1-0") && strcmp(s, "0-1") && strcmp(s, "1/2-1/2") && strcmp(s, "*"))
            return fail_at(ps->err, KONTOR_E_PARSE, t->line[TAG_RESULT],
                           "tag 'Result' is '1-0', '0-1', '1/2-1/2' or '*', not '%s'", s);
        snprintf(r->result, sizeof r->result, "%.15s", s);
    } else {
        snprintf(r->result, sizeof r->result, "*");
    }
    snprintf(r->event, sizeof r->event, "%s", t->value[TAG_EVENT]);
    snprintf(r->date, sizeof r->date, "%s", t->value[TAG_DATE]);
    if (r->cfg.nseats == 4) {
        for (int p = 0; p < 4; p++) snprintf(r->players[p], sizeof r->players[p], "%s", t->value[TAG_RED1 + p]);
    } else {
        snprintf(r->players[0], sizeof r->players[0], "%s", t->value[TAG_RED]);
        snprintf(r->players[1], sizeof r->players[1], "%s", t->value[TAG_BLACK]);
    }
    snprintf(r->termination, sizeof r->termination, "%s", t->value[TAG_TERMINATION]);
    for (int i = 0; i < 256; i++) ps->num2id[i] = -1;
    for (int id = 0; id < ps->cs->ncards; id++) ps->num2id[ps->cs->card[id].number] = id;
    return KONTOR_OK;
}

/* ---- the deal ---- */

static const char *class_words[KONTOR_NCLASSES] = {"a red dock card", "a black dock card", "a water card",
                                                   "a special card", "the harbour centre"};

/* The piles of the deal: 0 water, 1..nseats the seats' dock piles, then the
 * special cards. */
#define PILES_MAX (KONTOR_MAX_SEATS + 2)
static const char *pile_word(const parser *ps, int which) {
    int ns = ps->r->cfg.nseats;
    if (which == 0) return "water";
    if (which <= ns) return seat_name(ns, which - 1);
    return "special";
}

/* Out of the game in this variant (cards removed by id or by kind: docs/variants.md). */
static int removed_card(const kontor_config *cfg, int id) { return kontor_card_removed(cfg, id); }

static kontor_status read_pile(parser *ps, int which, int line, int done[PILES_MAX]) {
    kontor_deal *d = &ps->r->deal;
    int ns = ps->r->cfg.nseats;
    const char *name = pile_word(ps, which);
    int want_class = which == 0 ? KONTOR_CLASS_WATER
                   : which <= ns ? (ns == 4 ? (which - 1) / 2 : which - 1)
                                 : KONTOR_CLASS_SPECIAL;
    if (done[which])
        return fail_at(ps->err, KONTOR_E_PARSE, line, "the %s pile is dealt twice (first on line %d)", name, done[which]);
    done[which] = line;
    uint8_t *ids = which == 0 ? d->water : which <= ns ? d->dock[which - 1] : d->special;
    uint8_t *n = which == 0 ? &d->nwater : which <= ns ? &d->ndock[which - 1] : &d->nspecial;
    int cap = which == 0 ? KONTOR_MAX_CARDS : which <= ns ? KONTOR_MAX_CARDS / 2 : 8;
    char tok[TOKEN_MAX];
    kontor_status st;
    *n = 0;
    for (;;) {
        if (!peek_word(ps, tok, &st)) {
            if (st) return st;
            break;
        }
        long v = number_of(tok, 3);
        if (v < 0) break; /* the next keyword or round */
        read_word(ps, tok, &st);
        if (v > 255 || ps->num2id[v] < 0)
            return fail_at(ps->err, KONTOR_E_INVALID, ps->line, "there is no card %ld in card set '%s'", v, ps->cs->name);
        int id = ps->num2id[v];
        int cl = kontor_card_class(&ps->cs->card[id]);
        if (cl != want_class)
            return fail_at(ps->err, KONTOR_E_INVALID, ps->line, "card %ld in the %s pile is %s", v, name, class_words[cl]);
        if (removed_card(&ps->r->cfg, id))
            return fail_at(ps->err, KONTOR_E_INVALID, ps->line, "card %ld is out of the game in this variant", v);
        if (ps->dealt[id]) return fail_at(ps->err, KONTOR_E_INVALID, ps->line, "card %ld is dealt twice", v);
        ps->dealt[id] = 1;
        if (*n >= cap) return fail_at(ps->err, KONTOR_E_RANGE, ps->line, "the %s pile holds too many cards", name);
        ids[(*n)++] = (uint8_t)id;
    }
    return KONTOR_OK;
}

/* "deal events N ..." (the event cards by their line in data/events.txt) or
 * "deal tiles N ..." (the action tiles 1..8): the expansions' decks. Whether
 * they are permutations is checked when the game is dealt. */
static kontor_status read_deck(parser *ps, int events, int line) {
    kontor_deal *d = &ps->r->deal;
    int cap = events ? KONTOR_EVENTS_MAX : KONTOR_TILES, n = 0;
    char tok[TOKEN_MAX];
    kontor_status st;
    for (;;) {
        if (!peek_word(ps, tok, &st)) {
            if (st) return st;
            break;
        }
        long v = number_of(tok, 2);
        if (v < 0) break;
        read_word(ps, tok, &st);
        if (v < 1 || v > cap || n == cap)
            return fail_at(ps->err, KONTOR_E_INVALID, ps->line, "the %s deck has no %s %ld", events ? "event" : "tile",
                           events ? "card" : "tile", v);
        (events ? d->events : d->tiles)[n++] = (uint8_t)(v - 1);
    }
    if (events) d->nevents = (uint8_t)n;
    else if (n != KONTOR_TILES) return fail_at(ps->err, KONTOR_E_INVALID, line, "'deal tiles' wants the 8 tiles, not %d", n);
    return KONTOR_OK;
}

/* Every card in play of the dealt classes is dealt. */
static kontor_status check_deal_complete(parser *ps, int first_line) {
    int ns = ps->r->cfg.nseats;
    for (int id = 0; id < ps->cs->ncards; id++) {
        int cl = kontor_card_class(&ps->cs->card[id]);
        if (cl == KONTOR_CLASS_CENTRE || removed_card(&ps->r->cfg, id) || ps->dealt[id]) continue;
        if (cl == KONTOR_CLASS_SPECIAL && !ps->r->cfg.specials) continue;
        const char *where = cl == KONTOR_CLASS_WATER ? "water" : cl == KONTOR_CLASS_SPECIAL ? "special"
                          : ns == 4 ? (cl == 0 ? "red1 and red2" : "black1 and black2") : seat_name(2, cl);
        return fail_at(ps->err, KONTOR_E_INVALID, first_line, "the %s pile lacks card %d", where, ps->cs->card[id].number);
    }
    return KONTOR_OK;
}

/* ---- rounds ---- */

static kontor_status push(parser *ps, int seat, kontor_move m) {
    if (kontor_record_push(ps->r, seat, m))
        return fail_at(ps->err, KONTOR_E_RANGE, ps->line, "the record holds more than %d decisions", PLY_MAX);
    return KONTOR_OK;
}

/* After "ship" or "remove": a cell or "-". */
static kontor_status read_cell_arg(parser *ps, const char *what, int kind, int seat) {
    char tok[TOKEN_MAX];
    kontor_status st;
    int line = ps->line;
    if (!read_word(ps, tok, &st)) {
        if (st) return st;
        return fail_at(ps->err, KONTOR_E_PARSE, line, "'%s' wants a cell like +1,-2 or '-', but the record ends", what);
    }
    int cell = cell_of(tok);
    if (cell < 0)
        return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "'%s' wants a cell like +1,-2 or '-', not '%s'", what, tok);
    return push(ps, seat, KONTOR_MOVE(kind, cell));
}

/* After "keep", "discard" (a card number), "tavern" (yes, no) or "export"
 * (tea, wine, spice, -): the scenarios' decisions. */
static kontor_status read_word_arg(parser *ps, const char *what, long round, int seat) {
    char tok[TOKEN_MAX], name[TOKEN_MAX];
    kontor_status st;
    int line = ps->line;
    snprintf(name, sizeof name, "%s", what);
    if (!read_word(ps, tok, &st)) {
        if (st) return st;
        return fail_at(ps->err, KONTOR_E_PARSE, line, "round %ld: '%s' wants a value, but the record ends", round, name);
    }
    if (strcmp(name, "tavern") == 0) {
        if (strcmp(tok, "yes") && strcmp(tok, "no"))
            return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "round %ld: 'tavern' wants 'yes' or 'no', not '%s'", round, tok);
        return push(ps, seat, KONTOR_MOVE(KONTOR_MOVE_TAVERN, tok[0] == 'y'));
    }
    if (strcmp(name, "export") == 0) {
        for (int g = 0; g < 3; g++)
            if (strcmp(tok, good_word[g]) == 0) return push(ps, seat, KONTOR_MOVE(KONTOR_MOVE_EXPORT, g));
        if (strcmp(tok, "-") == 0) return push(ps, seat, KONTOR_MOVE(KONTOR_MOVE_EXPORT, KONTOR_NONE));
        return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "round %ld: 'export' wants 'tea', 'wine', 'spice' or '-', not '%s'",
                       round, tok);
    }
    long v = number_of(tok, 3);
    if (v < 0)
        return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "round %ld: '%s' wants a card number, not '%s'", round, name, tok);
    if (v > 255 || ps->num2id[v] < 0)
        return fail_at(ps->err, KONTOR_E_INVALID, ps->line, "round %ld: there is no card %ld in card set '%s'", round, v,
                       ps->cs->name);
    return push(ps, seat, KONTOR_MOVE(name[0] == 'k' ? KONTOR_MOVE_KEEP : KONTOR_MOVE_DISCARD, ps->num2id[v]));
}

static kontor_status read_round(parser *ps, long number) {
    char tok[TOKEN_MAX];
    kontor_status st;
    int line = ps->line;
    int ns = ps->r->cfg.nseats;
    /* the buys, when there were any: one word a seat */
    if (peek_word(ps, tok, &st) && strcmp(tok, "buy") == 0) {
        read_word(ps, tok, &st);
        for (int seat = 0; seat < ns; seat++) {
            if (!read_word(ps, tok, &st)) {
                if (st) return st;
                return fail_at(ps->err, KONTOR_E_PARSE, line, "round %ld wants %s's buy, but the record ends", number,
                               seat_name(ns, seat));
            }
            if (strcmp(tok, "-") == 0) continue;
            if (tok[0] < '0' || tok[0] > '9' || tok[1])
                return fail_at(ps->err, KONTOR_E_PARSE, ps->line,
                               "round %ld: %s's buy is a number of cards (0 to 9) or '-', not '%s'", number,
                               seat_name(ns, seat), tok);
            if ((st = push(ps, seat, KONTOR_MOVE(KONTOR_MOVE_BUY, tok[0] - '0')))) return st;
        }
    } else if (st) {
        return st;
    }
    /* the choices, seat order; with declarations (R1) every seat's
     * declaration first, then the cards of those who play */
    int declare = !ps->r->cfg.pass_hidden, card[KONTOR_MAX_SEATS];
    for (int seat = 0; seat < ns; seat++) {
        card[seat] = -1;
        if (!read_word(ps, tok, &st)) {
            if (st) return st;
            return fail_at(ps->err, KONTOR_E_PARSE, line, "round %ld wants %s's choice, but the record ends", number,
                           seat_name(ns, seat));
        }
        if (strcmp(tok, "?") == 0) continue;
        if (strcmp(tok, "pass") == 0) {
            if ((st = push(ps, seat, KONTOR_MOVE(declare ? KONTOR_MOVE_DECLARE : KONTOR_MOVE_CHOOSE, KONTOR_PASS)))) return st;
            continue;
        }
        if (declare && strcmp(tok, "play") == 0) {
            if ((st = push(ps, seat, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY)))) return st;
            continue;
        }
        long v = number_of(tok, 3);
        if (v < 0)
            return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "round %ld: %s's choice is a card number, 'pass'%s or '?', not '%s'",
                           number, seat_name(ns, seat), declare ? ", 'play'" : "", tok);
        if (v > 255 || ps->num2id[v] < 0)
            return fail_at(ps->err, KONTOR_E_INVALID, ps->line, "round %ld: there is no card %ld in card set '%s'", number, v,
                           ps->cs->name);
        if (declare) {
            if ((st = push(ps, seat, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY)))) return st;
            card[seat] = ps->num2id[v];
        } else if ((st = push(ps, seat, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, ps->num2id[v])))) {
            return st;
        }
    }
    for (int seat = 0; seat < ns; seat++)
        if (card[seat] >= 0 && (st = push(ps, seat, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, card[seat])))) return st;
    /* then runs of decisions, each headed by its seat */
    int seat = -1;
    for (;;) {
        if (!peek_word(ps, tok, &st)) return st;
        if (round_of(tok) >= 0) return KONTOR_OK;
        read_word(ps, tok, &st);
        int s2 = seat_of(tok, ns);
        if (s2 >= 0) {
            seat = s2;
            continue;
        }
        if (seat < 0)
            return fail_at(ps->err, KONTOR_E_PARSE, ps->line,
                           "round %ld: after the choices comes a seat ('%s', ...) or the next round, not '%s'", number,
                           seat_name(ns, 0), tok);
        if (strcmp(tok, "ship") == 0) {
            if ((st = read_cell_arg(ps, "ship", KONTOR_MOVE_SHIP, seat))) return st;
        } else if (strcmp(tok, "bribe") == 0) {
            if ((st = read_cell_arg(ps, "bribe", KONTOR_MOVE_BRIBE, seat))) return st;
        } else if (strcmp(tok, "event") == 0) {
            if ((st = read_cell_arg(ps, "event", KONTOR_MOVE_EVENT, seat))) return st;
        } else if (strcmp(tok, "tile") == 0) {
            if ((st = read_cell_arg(ps, "tile", KONTOR_MOVE_TILE, seat))) return st;
        } else if (strcmp(tok, "keep") == 0 || strcmp(tok, "discard") == 0 || strcmp(tok, "tavern") == 0 ||
                   strcmp(tok, "export") == 0) {
            if ((st = read_word_arg(ps, tok, number, seat))) return st;
        } else if (strcmp(tok, "remove") == 0) {
            if ((st = read_cell_arg(ps, "remove", KONTOR_MOVE_REMOVE, seat))) return st;
        } else if (strcmp(tok, "water") == 0) {
            if ((st = read_cell_arg(ps, "water", KONTOR_MOVE_PLACE_WATER, seat))) return st;
            kontor_ply *last = &ps->r->ply[ps->r->nply - 1];
            if (KONTOR_MOVE_VALUE(last->move) == KONTOR_NONE)
                return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "round %ld: 'water' wants a cell like +1,-2, not '-'", number);
        } else if (strcmp(tok, "pile") == 0) {
            int l2 = ps->line;
            if (!read_word(ps, tok, &st)) {
                if (st) return st;
                return fail_at(ps->err, KONTOR_E_PARSE, l2, "'pile' wants a seat, but the record ends");
            }
            int who = seat_of(tok, ns);
            if (who < 0) return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "'pile' wants a seat, not '%s'", tok);
            if ((st = push(ps, seat, KONTOR_MOVE(KONTOR_MOVE_PILE, who)))) return st;
        } else {
            int cell = cell_of(tok);
            if (cell < 0)
                return fail_at(ps->err, KONTOR_E_PARSE, ps->line,
                               "round %ld: '%s' is not a cell like +1,-2, '-', 'ship', 'remove', 'water', 'pile' or a seat",
                               number, tok);
            if ((st = push(ps, seat, KONTOR_MOVE(KONTOR_MOVE_PLACE, cell)))) return st;
        }
    }
}

static kontor_status parse_body(parser *ps) {
    tags t;
    memset(&t, 0, sizeof t);
    kontor_status st;
    /* tags first */
    for (;;) {
        if ((st = skip_space(ps))) return st;
        if (ps->p >= ps->end || *ps->p != '[') break;
        if ((st = read_tag(ps, &t))) return st;
    }
    if ((st = apply_tags(ps, &t))) return st;

    /* then the deal */
    char tok[TOKEN_MAX];
    int done[PILES_MAX] = {0};
    int ns = ps->r->cfg.nseats, npiles = 1 + ns + (ps->r->cfg.specials ? 1 : 0), any = 0;
    int first_line = ps->line; /* where the deal starts (or should) */
    for (;;) {
        if (!peek_word(ps, tok, &st)) {
            if (st) return st;
            break;
        }
        if (strcmp(tok, "deal") != 0) break;
        read_word(ps, tok, &st);
        int line = ps->line;
        if (!any) first_line = line;
        any = 1;
        if (!read_word(ps, tok, &st)) {
            if (st) return st;
            return fail_at(ps->err, KONTOR_E_PARSE, line, "'deal' wants 'water', a seat or 'special', but the record ends");
        }
        if ((strcmp(tok, "events") == 0 && ps->r->cfg.events) || (strcmp(tok, "tiles") == 0 && ps->r->cfg.tiles)) {
            if ((st = read_deck(ps, tok[0] == 'e', line))) return st;
            continue;
        }
        int which = -1;
        for (int k = 0; k < npiles; k++)
            if (strcmp(tok, pile_word(ps, k)) == 0) which = k;
        if (which < 0)
            return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "'deal' wants 'water', a seat ('%s', ...)%s, not '%s'",
                           seat_name(ns, 0), ps->r->cfg.specials ? " or 'special'" : "", tok);
        if ((st = read_pile(ps, which, ps->line, done))) return st;
    }
    if (!any) {
        if (!ps->r->has_seed)
            return fail_at(ps->err, KONTOR_E_PARSE, first_line,
                           "the record has no deal ('deal water ...', 'deal %s ...', ...) and no Seed tag", seat_name(ns, 0));
        kontor_deal_shuffle(&ps->r->deal, &ps->r->cfg, ps->r->seed);
    } else {
        for (int k = 0; k < npiles; k++)
            if (!done[k])
                return fail_at(ps->err, KONTOR_E_PARSE, first_line, "the deal lacks the '%s' pile ('deal %s ...')",
                               pile_word(ps, k), pile_word(ps, k));
        if ((st = check_deal_complete(ps, first_line))) return st;
    }

    /* then the rounds */
    long expect = 1;
    for (;;) {
        if (!read_word(ps, tok, &st)) return st;
        long n = round_of(tok);
        if (n < 0) {
            /* ('deal' after a round is read as that round's decision) */
            return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "expected round %ld, like '%ld.', not '%s'", expect, expect, tok);
        }
        if (n != expect) return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "round %ld comes where round %ld belongs", n, expect);
        if (n > ROUND_MAX) return fail_at(ps->err, KONTOR_E_RANGE, ps->line, "a record holds at most %d rounds", ROUND_MAX);
        if ((st = read_round(ps, n))) return st;
        expect++;
    }
}

static kontor_status parse_common(kontor_record *r, const kontor_cardset *cs, const char *text, size_t len,
                                  kontor_error *err) {
    kontor_error local;
    if (!err) err = &local;
    memset(err, 0, sizeof *err);
    memset(r, 0, sizeof *r);
    snprintf(r->result, sizeof r->result, "*");
    kontor_status st = check_lines(text, len, err);
    if (st) return st;
    parser *ps = malloc(sizeof *ps);
    if (!ps) return fail_at(err, KONTOR_E_RANGE, 0, "out of memory");
    memset(ps, 0, sizeof *ps);
    ps->p = text;
    ps->end = text + len;
    ps->line = 1;
    ps->err = err;
    ps->r = r;
    ps->cs = cs;
    st = parse_body(ps);
    free(ps);
    if (st) kontor_record_release(r);
    return st;
}

kontor_status kontor_record_parse_with(kontor_record *r, const kontor_cardset *cards, const char *text, size_t len,
                                       kontor_error *err) {
    return parse_common(r, cards ? cards : kontor_cards_builtin(), text, len, err);
}

kontor_status kontor_record_parse(kontor_record *r, const char *text, size_t len, kontor_error *err) {
    return kontor_record_parse_with(r, NULL, text, len, err);
}

/* ---- replay -------------------------------------------------------------------- */

/* "black plays 31", "red places on +1,-2", ... for an error message. */
static void describe_ply(const kontor_state *s, int seat, kontor_move m, char *buf, size_t cap) {
    const char *who = seat_name(s->cfg.nseats, seat);
    int v = KONTOR_MOVE_VALUE(m);
    char cs[8];
    switch (KONTOR_MOVE_KIND(m)) {
    case KONTOR_MOVE_DECLARE:
        snprintf(buf, cap, "%s declares %s", who, v == KONTOR_PASS ? "a pass" : "to play a card");
        break;
    case KONTOR_MOVE_CHOOSE:
        if (v == KONTOR_PASS) snprintf(buf, cap, "%s passes", who);
        else if (v < s->cfg.cards->ncards) snprintf(buf, cap, "%s plays %d", who, s->cfg.cards->card[v].number);
        else snprintf(buf, cap, "%s plays an unknown card", who);
        break;
    case KONTOR_MOVE_SHIP:
        if (v == KONTOR_NONE) snprintf(buf, cap, "%s leaves the ship where it is", who);
        else snprintf(buf, cap, "%s moves the ship to %s", who, kontor_format_cell(v, cs));
        break;
    case KONTOR_MOVE_REMOVE:
        if (v == KONTOR_NONE) snprintf(buf, cap, "%s removes nothing", who);
        else snprintf(buf, cap, "%s removes the card on %s", who, kontor_format_cell(v, cs));
        break;
    case KONTOR_MOVE_PLACE:
        if (v == KONTOR_NONE) snprintf(buf, cap, "%s takes the card back", who);
        else snprintf(buf, cap, "%s places on %s", who, kontor_format_cell(v, cs));
        break;
    case KONTOR_MOVE_EVENT:
        if (v == KONTOR_NONE) snprintf(buf, cap, "%s lets the event pass", who);
        else snprintf(buf, cap, "%s carries out the event on %s", who, kontor_format_cell(v, cs));
        break;
    case KONTOR_MOVE_TILE:
        if (v == KONTOR_NONE) snprintf(buf, cap, "%s forgoes the action tile", who);
        else snprintf(buf, cap, "%s carries out the action tile on %s", who, kontor_format_cell(v, cs));
        break;
    case KONTOR_MOVE_BRIBE:
        if (v == KONTOR_NONE) snprintf(buf, cap, "%s buys out nothing", who);
        else snprintf(buf, cap, "%s buys out the card on %s", who, kontor_format_cell(v, cs));
        break;
    case KONTOR_MOVE_KEEP:
    case KONTOR_MOVE_DISCARD:
        snprintf(buf, cap, "%s %s %d", who, KONTOR_MOVE_KIND(m) == KONTOR_MOVE_KEEP ? "keeps" : "discards",
                 v < s->cfg.cards->ncards ? s->cfg.cards->card[v].number : -1);
        break;
    case KONTOR_MOVE_TAVERN: snprintf(buf, cap, "%s says the tavern's area %s", who, v ? "scores" : "does not score"); break;
    case KONTOR_MOVE_EXPORT:
        if (v == KONTOR_NONE) snprintf(buf, cap, "%s exports nothing", who);
        else snprintf(buf, cap, "%s exports %s", who, v < 3 ? good_word[v] : "an unknown good");
        break;
    default:
        snprintf(buf, cap, "%s makes an unknown decision", who);
        break;
    }
}

kontor_status kontor_record_replay(const kontor_record *r, int upto, kontor_state *s, kontor_replay_cb each, void *ctx,
                                   kontor_error *err) {
    kontor_error local;
    if (!err) err = &local;
    memset(err, 0, sizeof *err);
    kontor_status st = kontor_new_from_deal(s, &r->cfg, &r->deal, err);
    if (st) return st;
    int n = upto < 0 || upto > r->nply ? r->nply : upto;
    kontor_log log;
    for (int i = 0; i < n; i++) {
        int seat = r->ply[i].seat;
        kontor_move m = r->ply[i].move;
        log.n = 0;
        if (kontor_apply(s, seat, m, &log) != KONTOR_OK) {
            char what[96], why[160];
            describe_ply(s, seat, m, what, sizeof what);
            if (seat >= s->cfg.nseats) snprintf(why, sizeof why, "there is no such seat");
            else kontor_why_illegal(s, seat, m, why, sizeof why);
            memset(err, 0, sizeof *err);
            err->code = KONTOR_E_ILLEGAL;
            err->round = s->round;
            char where[32];
            snprintf(where, sizeof where, "round %d: ", s->round);
            join(err->msg, sizeof err->msg, where, what, ", but ");
            join(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg), why, "", "");
            return KONTOR_E_ILLEGAL;
        }
        if (each) each(ctx, s, i, &log);
    }
    return KONTOR_OK;
}
