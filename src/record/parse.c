/* parse.c: reading a game record (.kgn) into a kontor_record.
 *
 * Why a file of its own: the reader faces hostile text and is the one part of
 * the records that runs for every record a server or `kontor replay` loads,
 * so it is written for both: every limit is checked before a byte is trusted,
 * and the text is read once, left to right, without copying. The format is
 * docs/records.md; record.c writes it and replays what this file reads.
 *
 * The parser checks only the grammar and the card set (every number must name
 * a card, the deal must be a permutation); whether each decision was legal is
 * the replay's question (kontor_record_replay). It never trusts its input:
 * the text is checked line by line for length and control bytes before any
 * token is read (eight bytes at a time), every number is bounded before it is
 * stored, and the count of decisions has a ceiling, so a hostile file costs
 * at most a few megabytes and a linear scan. A token is a slice of the text
 * (pointer and length), read once: a peek keeps the token it read for the
 * read that follows. Keywords are told apart by their first byte and length;
 * card numbers go through a 256-entry table built once a record from the card
 * set (which is itself parsed once per process: kontor_cards_builtin). There
 * is no global state; errors are values in a caller-owned kontor_error, and
 * every message says which line and, in the rounds, which round and why.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "kontor/record.h"
#include "ceilings.h"
#include "fast.h"

/* A line may be long (a whole game written on one line is still a reasonable
 * record: about 20 characters a round times at most 10000 rounds would not
 * fit, but a few hundred rounds do), yet bounded so that error messages and
 * scans stay cheap. */
#define LINE_MAX_CHARS 16384
/* A token (a tag name, a number, a cell, a keyword) is short; 48 bytes hold
 * the longest legal one with room to quote a bad one in a message. */
#define TOKEN_MAX 48

/* A word of the text: a slice, never NUL-terminated. */
typedef struct token {
    const char *s;
    int n;
    int line;
} token;

typedef struct parser {
    const char *p, *end;
    int line;
    kontor_error *err;
    kontor_record *r;
    const kontor_cardset *cs;      /* the card set the numbers are read with */
    token la;                      /* the word a peek read, when la_ok */
    const char *la_end;            /* where the text goes on after it */
    int la_ok;
    uint8_t num2id[256];           /* card number -> id, or 0xFF */
    uint64_t cls[KONTOR_NCLASSES][2]; /* the card set's ids of each class */
    uint64_t gone[2];              /* the cards out of the game in this variant */
    uint64_t dealt[2];             /* the cards dealt so far */
} parser;

#define NO_CARD 0xFF
#define IS(t, lit) ((t).n == (int)sizeof(lit) - 1 && memcmp((t).s, lit, sizeof(lit) - 1) == 0)

static inline int has_bit(const uint64_t b[2], int id) { return (int)((b[id >> 6] >> (id & 63)) & 1); }

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
        size_t n = 0; /* where and msg, cut short to fit (a message cut short is still a message) */
        for (const char *q = where; *q && n + 1 < sizeof err->msg; q++) err->msg[n++] = *q;
        for (const char *q = msg; *q && n + 1 < sizeof err->msg; q++) err->msg[n++] = *q;
        err->msg[n] = 0;
    }
    return code;
}

/* ---- the lines ---- */

/* One byte of check_lines' slow path: a newline, or a byte that may be a
 * control byte. *start is where the line began. */
static kontor_status check_byte(const char *q, const char **start, int *line, kontor_error *err) {
    unsigned char c = (unsigned char)*q;
    if (c == '\n') {
        *line += 1;
        *start = q + 1;
        return KONTOR_OK;
    }
    if (q - *start + 1 > LINE_MAX_CHARS)
        return fail_at(err, KONTOR_E_PARSE, *line, "line is longer than %d characters", LINE_MAX_CHARS);
    if (c == 0) return fail_at(err, KONTOR_E_PARSE, *line, "a NUL byte is not allowed in a record");
    if ((c < 32 && c != '\t' && c != '\r') || c == 127)
        return fail_at(err, KONTOR_E_PARSE, *line, "control byte 0x%02x is not allowed in a record", c);
    return KONTOR_OK;
}

/* Before any token: every line within LINE_MAX_CHARS, no NUL or other
 * control bytes except tab, carriage return and newline. Eight bytes at a
 * time: only the bytes below 32 or equal to 127 of a word are looked at (a
 * newline, a tab, or a byte to refuse), and every byte of a word in which the
 * line may pass LINE_MAX_CHARS, so that a line both too long and holding a
 * control byte fails for whichever comes first, as a byte-by-byte scan does. */
static kontor_status check_lines(const char *text, size_t len, kontor_error *err) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL, low7 = 0x7F7F7F7F7F7F7F7FULL;
    const char *q = text, *end = text + len, *start = text;
    int line = 1;
    kontor_status st;
    while (end - q >= 8) {
        uint64_t x, d;
        memcpy(&x, q, 8);
        d = x ^ (0x7F * ones);
        /* exactly the bytes below 32 and the bytes equal to 127 */
        uint64_t look = (~(((x & low7) + 0x60 * ones) | x) | ~(((d & low7) + low7) | d)) & highs;
        if (q + 8 - start > LINE_MAX_CHARS) look = highs; /* the line may grow too long in this word */
        for (; look; look &= look - 1)
            if ((st = check_byte(q + (__builtin_ctzll(look) >> 3), &start, &line, err))) return st;
        q += 8;
    }
    for (; q < end; q++)
        if ((st = check_byte(q, &start, &line, err))) return st;
    return KONTOR_OK;
}

/* ---- words ---- */

/* 1: a space; 2: a newline; 3: ';' (a comment to the end of the line); 4:
 * '{' (a comment to '}'); 5: '[' (a tag, out of place after the tags). A
 * word runs up to any of them. */
static const unsigned char byte_kind[256] = {[' '] = 1, ['\t'] = 1, ['\r'] = 1, ['\n'] = 2,
                                             [';'] = 3, ['{'] = 4, ['['] = 5};

/* Skip whitespace and comments; fails on an unterminated { comment. */
static kontor_status skip_space(parser *ps) {
    const char *p = ps->p, *end = ps->end;
    while (p < end) {
        unsigned char k = byte_kind[(unsigned char)*p];
        if (k == 1) {
            p++;
        } else if (k == 2) {
            ps->line++;
            p++;
        } else if (k == 3) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            p = nl ? nl : end;
        } else if (k == 4) {
            int start = ps->line;
            p++;
            while (p < end && *p != '}') {
                if (*p == '\n') ps->line++;
                p++;
            }
            if (p >= end) {
                ps->p = p;
                return fail_at(ps->err, KONTOR_E_PARSE, start, "comment '{' is not closed by '}'");
            }
            p++;
        } else {
            break;
        }
    }
    ps->p = p;
    return KONTOR_OK;
}

/* Read the next word from the text. 1 if read, 0 at the end or on an error
 * (*st says which). The common case, one space before a word, is taken
 * without a call. */
static inline __attribute__((always_inline)) int lex(parser *ps, token *t, kontor_status *st) {
    const char *s = ps->p, *end = ps->end;
    if (end - s >= 2 && s[0] == ' ' && !byte_kind[(unsigned char)s[1]]) {
        ps->p = ++s;
        *st = KONTOR_OK;
    } else {
        *st = skip_space(ps);
        if (*st || ps->p >= ps->end) return 0;
        s = ps->p;
    }
    const char *q = s;
    while (q < end && !byte_kind[(unsigned char)*q]) q++;
    size_t n = (size_t)(q - s);
    if (n == 0) { /* a lone '[' out of place */
        *st = fail_at(ps->err, KONTOR_E_PARSE, ps->line, "a tag '[...]' must come before the deal and the rounds");
        return 0;
    }
    if (n >= TOKEN_MAX) {
        *st = fail_at(ps->err, KONTOR_E_PARSE, ps->line, "'%.20s...' is too long for a word of a record", s);
        return 0;
    }
    ps->p = q;
    t->s = s;
    t->n = (int)n;
    t->line = ps->line;
    return 1;
}

/* Read one word (the one a peek kept, if any). 1 if read, 0 at the end. */
static inline __attribute__((always_inline)) int read_word(parser *ps, token *t, kontor_status *st) {
    if (ps->la_ok) {
        *t = ps->la;
        ps->p = ps->la_end;
        ps->line = ps->la.line;
        ps->la_ok = 0;
        *st = KONTOR_OK;
        return 1;
    }
    return lex(ps, t, st);
}

/* Give back a word just read (p and line: where the text stood before it):
 * the next read takes it again without reading it twice. */
static void unread(parser *ps, token t, const char *p, int line) {
    ps->la = t;
    ps->la_end = ps->p;
    ps->la_ok = 1;
    ps->p = p;
    ps->line = line;
}

/* Peek at the next word without taking it; it is kept for the next read. */
static int peek_word(parser *ps, token *t, kontor_status *st) {
    if (!ps->la_ok) {
        const char *p = ps->p;
        int line = ps->line;
        int got = lex(ps, &ps->la, st);
        ps->la_end = ps->p;
        ps->p = p;
        ps->line = line;
        if (!got) return 0;
        ps->la_ok = 1;
    }
    *t = ps->la;
    *st = KONTOR_OK;
    return 1;
}

/* A decimal number of at most digits digits, whole word; -1 if not. */
static inline __attribute__((always_inline)) long number_of(const char *s, int n, int digits) {
    if (n <= 0 || n > digits) return -1;
    long v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* "12." -> 12; -1 if the word is not a round marker. */
static inline __attribute__((always_inline)) long round_of(token t) {
    if (t.n < 2 || t.s[t.n - 1] != '.') return -1;
    return number_of(t.s, t.n - 1, 5);
}

/* A cell word (+1,-2: each coordinate an optional sign and one to three
 * digits, within -7..8), or "-" for KONTOR_NONE; -1 if neither. The grid
 * cell +8,+8 has the number of KONTOR_NONE and so cannot be written. The
 * same grammar as kontor_parse_cell, on a slice. */
static inline int coord_short(const char *s, int n) { /* "5", "+5", "-5"; -100 if another form */
    if (n == 1) return (unsigned)(s[0] - '0') <= 9 ? s[0] - '0' : -100;
    if (n == 2 && (s[0] == '+' || s[0] == '-') && (unsigned)(s[1] - '0') <= 9) return s[0] == '-' ? '0' - s[1] : s[1] - '0';
    return -100;
}

static int cell_of(token t) {
    if (t.n == 1 && t.s[0] == '-') return KONTOR_NONE;
    /* the forms a record writes (one digit, a sign or none): without the loop */
    if (t.n >= 3 && t.n <= 5) {
        int c = t.s[1] == ',' ? 1 : t.s[2] == ',' ? 2 : 0;
        int x = c ? coord_short(t.s, c) : -100, y = c ? coord_short(t.s + c + 1, t.n - c - 1) : -100;
        if (x > -100 && y > -100) {
            if (x < -7 || x > 8 || y < -7 || y > 8) return -1;
            int cell = kontor_cell(x, y);
            return cell == KONTOR_NONE ? -1 : cell;
        }
    }
    const char *q = t.s, *end = t.s + t.n;
    int v[2];
    for (int k = 0; k < 2; k++) {
        int sign = 1, n = 0, digits = 0;
        if (q < end && (*q == '+' || *q == '-')) sign = *q++ == '-' ? -1 : 1;
        while (q < end && *q >= '0' && *q <= '9' && digits < 3) n = n * 10 + (*q++ - '0'), digits++;
        if (!digits) return -1;
        v[k] = sign * n;
        if (k == 0 && (q >= end || *q++ != ',')) return -1;
    }
    if (q != end) return -1;
    if (v[0] < -7 || v[0] > 8 || v[1] < -7 || v[1] > 8) return -1;
    int cell = kontor_cell(v[0], v[1]);
    return cell == KONTOR_NONE ? -1 : cell;
}

/* The seat a word names (record_seat_name's words), or -1: red, black with
 * two seats; red1, red2, black1, black2 with four. */
static inline __attribute__((always_inline)) int seat_of(token t, int nseats) {
    const char *s = t.s;
    int seat, len;
    if (s[0] == 'r' && t.n >= 3 && s[1] == 'e' && s[2] == 'd') seat = 0, len = 3;
    else if (s[0] == 'b' && t.n >= 5 && memcmp(s, "black", 5) == 0) seat = 1, len = 5;
    else return -1;
    if (nseats == 2) return t.n == len ? seat : -1;
    if (nseats == 4 && t.n == len + 1 && (s[len] == '1' || s[len] == '2')) return seat * 2 + (s[len] - '1');
    return -1;
}

/* ---- tags ---- */

enum { TAG_EVENT, TAG_DATE, TAG_VARIANT, TAG_OPTIONS, TAG_CARDS, TAG_RED, TAG_BLACK,
       TAG_SEED, TAG_RESULT, TAG_TERMINATION, TAG_RED1, TAG_RED2, TAG_BLACK1, TAG_BLACK2, TAG_RULINGS, NTAGS };
static const char *const tag_names[NTAGS] = {"Event", "Date", "Variant", "Options", "Cards",
                                             "Red", "Black", "Seed", "Result", "Termination",
                                             "Red1", "Red2", "Black1", "Black2", "Rulings"};
/* The tags of each length of name (-1 ends a list); lengths past the table's
 * have none. */
static const signed char tags_of_len[12][5] = {
    [0] = {-1}, [1] = {-1}, [2] = {-1}, [3] = {TAG_RED, -1},
    [4] = {TAG_DATE, TAG_SEED, TAG_RED1, TAG_RED2, -1}, [5] = {TAG_EVENT, TAG_CARDS, TAG_BLACK, -1},
    [6] = {TAG_RESULT, TAG_BLACK1, TAG_BLACK2, -1}, [7] = {TAG_VARIANT, TAG_OPTIONS, TAG_RULINGS, -1},
    [8] = {-1}, [9] = {-1}, [10] = {-1}, [11] = {TAG_TERMINATION, -1}};

typedef struct tags {
    char value[NTAGS][KONTOR_TAG_MAX];
    int line[NTAGS];  /* 0: not given */
} tags;

/* The bytes of a tag's name: letters, digits, '_'. */
static const unsigned char name_byte[256] = {
#define R(a, b) [a] = 1, [a + 1] = 1, [a + 2] = 1, [a + 3] = 1, [a + 4] = 1, [a + 5] = 1, [a + 6] = 1, [a + 7] = 1, \
                [a + 8] = 1, [a + 9] = 1
    R('0', 0), R('A', 0), R('A' + 10, 0), ['A' + 20] = 1, ['A' + 21] = 1, ['A' + 22] = 1, ['A' + 23] = 1,
    ['A' + 24] = 1, ['A' + 25] = 1, R('a', 0), R('a' + 10, 0), ['a' + 20] = 1, ['a' + 21] = 1, ['a' + 22] = 1,
    ['a' + 23] = 1, ['a' + 24] = 1, ['a' + 25] = 1, ['_'] = 1,
#undef R
};
/* The bytes that end a run of a tag's value: its end, an escape, a newline. */
static const unsigned char value_stop[256] = {['"'] = 1, ['\\'] = 1, ['\n'] = 1};

/* At '[': read [Name "value"] into t. */
static kontor_status read_tag(parser *ps, tags *t) {
    int line = ps->line;
    const char *p = ps->p + 1, *end = ps->end;
    char name[TOKEN_MAX];
    size_t n = 0;
    while (p < end && *p == ' ') p++;
    /* the name's bytes at once: too long when they fill name (a byte at a
     * time, the one that would leave no room for its end) */
    const char *q0 = p;
    while (p < end && name_byte[(unsigned char)*p]) p++;
    n = (size_t)(p - q0);
    if (n >= sizeof name) return fail_at(ps->err, KONTOR_E_PARSE, line, "a tag name is too long");
    memcpy(name, q0, n);
    name[n] = 0;
    if (n == 0) return fail_at(ps->err, KONTOR_E_PARSE, line, "a tag wants a name after '[', like [Red \"alice\"]");
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    if (p >= end || *p != '"')
        return fail_at(ps->err, KONTOR_E_PARSE, line, "tag '%s' wants a value in double quotes", name);
    p++;
    char value[KONTOR_TAG_MAX];
    size_t vn = 0;
    for (;;) {
        /* a run of plain bytes at once, as the loop below would copy them one by one */
        const char *q = p;
        while (q < end && !value_stop[(unsigned char)*q]) q++;
        if ((size_t)(q - p) < sizeof value - vn) {
            memcpy(value + vn, p, (size_t)(q - p));
            vn += (size_t)(q - p);
            p = q;
        }
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
    for (const signed char *c = n < sizeof tags_of_len / sizeof *tags_of_len ? tags_of_len[n] : tags_of_len[0]; *c >= 0; c++) {
        int i = *c;
        if (tag_names[i][0] == name[0] && memcmp(name, tag_names[i], n) == 0) {
            if (t->line[i])
                return fail_at(ps->err, KONTOR_E_PARSE, line, "tag '%s' is given twice (first on line %d)", name, t->line[i]);
            memcpy(t->value[i], value, vn + 1);
            t->line[i] = line;
            break;
        }
    }
    /* other tags are for people and are ignored */
    return KONTOR_OK;
}

/* src into dst of cap bytes, cut short to fit (as snprintf "%s" would). */
static void copy_str(char *dst, size_t cap, const char *src) {
    size_t n = strlen(src);
    if (n >= cap) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

/* The tables the deal and the rounds read cards with: number -> id, the ids
 * of each class (the card set's index, or computed here for a set nobody
 * indexed) and the cards out of the game. */
static void num2id_of(const kontor_cardset *cs, uint8_t num2id[256]) {
    int nc = cs->ncards < KONTOR_MAX_CARDS ? cs->ncards : KONTOR_MAX_CARDS;
    memset(num2id, NO_CARD, 256);
    for (int id = 0; id < nc; id++) num2id[cs->card[id].number] = (uint8_t)id;
}

/* The built-in card set's numbers, worked out once per process (the set is
 * itself parsed once: kontor_cards_builtin). */
static uint8_t builtin_num2id[256];
static once_flag builtin_num2id_once = ONCE_FLAG_INIT;
static void builtin_num2id_init(void) { num2id_of(kontor_cards_builtin(), builtin_num2id); }

static void card_tables(parser *ps) {
    const kontor_cardset *cs = ps->cs;
    const kontor_config *cfg = &ps->r->cfg;
    int nc = cs->ncards < KONTOR_MAX_CARDS ? cs->ncards : KONTOR_MAX_CARDS;
    if (cs == kontor_cards_builtin()) {
        call_once(&builtin_num2id_once, builtin_num2id_init);
        memcpy(ps->num2id, builtin_num2id, sizeof ps->num2id);
    } else {
        num2id_of(cs, ps->num2id);
    }
    int indexed = 0;
    for (int cl = 0; cl < KONTOR_NCLASSES; cl++)
        indexed += __builtin_popcountll(cs->class_ids[cl][0]) + __builtin_popcountll(cs->class_ids[cl][1]);
    if (indexed == nc) {
        memcpy(ps->cls, cs->class_ids, sizeof ps->cls);
    } else {
        memset(ps->cls, 0, sizeof ps->cls);
        for (int id = 0; id < nc; id++) ps->cls[kontor_card_class(&cs->card[id])][id >> 6] |= 1ULL << (id & 63);
    }
    ps->gone[0] = cfg->removed[0];
    ps->gone[1] = cfg->removed[1];
    if (cfg->remove_kinds)
        for (int id = 0; id < nc; id++)
            if (kontor_card_removed(cfg, id)) ps->gone[id >> 6] |= 1ULL << (id & 63);
}

/* The configuration of the last variant and rulings this thread read a
 * record of (before its Options tag and card set): records come in runs of
 * one variant (a replay of a directory, a server loading its games), and
 * making it again (kontor_config_init, then the first rulings' options
 * string) cost about 900 instructions a record (docs/engine-speed.md, issue 17). It
 * depends on nothing but the two. */
static _Thread_local struct {
    char variant[KONTOR_TAG_MAX];
    int rulings; /* 1 or 2; 0: none kept */
    kontor_config cfg;
} last_defaults;

/* The tags are read: build the configuration and the record's fields. */
static kontor_status apply_tags(parser *ps, const tags *t) {
    kontor_record *r = ps->r;
    kontor_error e;
    const char *variant = t->line[TAG_VARIANT] ? t->value[TAG_VARIANT] : "basic";
    /* The Options are relative to the defaults of the record's rulings: a
     * record without the tag was written before the rulebook's R1 and R2 became
     * the defaults (KONTOR_RULINGS). */
    int rulings = !t->line[TAG_RULINGS] || strcmp(t->value[TAG_RULINGS], "1") == 0 ? 1
                  : strcmp(t->value[TAG_RULINGS], "2") == 0                      ? 2
                                                                                  : 0;
    size_t nv = strlen(variant);
    if (last_defaults.rulings && last_defaults.rulings == rulings && nv < sizeof last_defaults.variant &&
        memcmp(last_defaults.variant, variant, nv + 1) == 0) {
        r->cfg = last_defaults.cfg;
    } else {
        if (kontor_config_init(&r->cfg, variant, &e))
            return fail_at(ps->err, KONTOR_E_PARSE, t->line[TAG_VARIANT], "%s", e.msg);
        if (!rulings)
            return fail_at(ps->err, KONTOR_E_PARSE, t->line[TAG_RULINGS],
                           "tag 'Rulings' is '1' or '2' (this kontor's), not '%s': a newer kontor wrote the record",
                           t->value[TAG_RULINGS]);
        if (rulings == 1) kontor_config_options(&r->cfg, KONTOR_RULINGS_1_OPTIONS, &e);
        if (nv < sizeof last_defaults.variant) {
            memcpy(last_defaults.variant, variant, nv + 1);
            last_defaults.rulings = rulings;
            last_defaults.cfg = r->cfg;
        }
    }
    r->cfg.cards = ps->cs;
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
        copy_str(r->result, sizeof r->result, s);
    } else {
        copy_str(r->result, sizeof r->result, "*");
    }
    copy_str(r->event, sizeof r->event, t->value[TAG_EVENT]);
    copy_str(r->date, sizeof r->date, t->value[TAG_DATE]);
    if (r->cfg.nseats == 4) {
        for (int p = 0; p < 4; p++) copy_str(r->players[p], sizeof r->players[p], t->value[TAG_RED1 + p]);
    } else {
        copy_str(r->players[0], sizeof r->players[0], t->value[TAG_RED]);
        copy_str(r->players[1], sizeof r->players[1], t->value[TAG_BLACK]);
    }
    copy_str(r->termination, sizeof r->termination, t->value[TAG_TERMINATION]);
    card_tables(ps);
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
    if (which <= ns) return record_seat_name(ns, which - 1);
    return "special";
}

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
    token tok;
    kontor_status st;
    *n = 0;
    for (;;) {
        long v = -1;
        const char *q = ps->p, *end = ps->end;
        /* the usual word, one space and one to three digits, read at once;
         * any other word as a word (the same number, or not a number) */
        if (!ps->la_ok && end - q >= 2 && q[0] == ' ') {
            const char *w = q + 1;
            long x = 0;
            while (w < end && (unsigned)(*w - '0') <= 9 && w - q <= 3) x = x * 10 + (*w++ - '0');
            if (w - q >= 2 && w - q <= 4 && (w == end || byte_kind[(unsigned char)*w])) {
                ps->p = w;
                v = x;
            }
        }
        if (v < 0) {
            const char *before = ps->p;
            int before_line = ps->line;
            if (!read_word(ps, &tok, &st)) {
                if (st) return st;
                break;
            }
            v = number_of(tok.s, tok.n, 3);
            if (v < 0) { /* the next keyword or round */
                unread(ps, tok, before, before_line);
                break;
            }
        }
        if (v > 255 || ps->num2id[v] == NO_CARD)
            return fail_at(ps->err, KONTOR_E_INVALID, ps->line, "there is no card %ld in card set '%s'", v, ps->cs->name);
        int id = ps->num2id[v];
        if (!has_bit(ps->cls[want_class], id)) {
            int cl = kontor_card_class(&ps->cs->card[id]);
            return fail_at(ps->err, KONTOR_E_INVALID, ps->line, "card %ld in the %s pile is %s", v, name, class_words[cl]);
        }
        if (has_bit(ps->gone, id))
            return fail_at(ps->err, KONTOR_E_INVALID, ps->line, "card %ld is out of the game in this variant", v);
        if (has_bit(ps->dealt, id)) return fail_at(ps->err, KONTOR_E_INVALID, ps->line, "card %ld is dealt twice", v);
        ps->dealt[id >> 6] |= 1ULL << (id & 63);
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
    token tok;
    kontor_status st;
    for (;;) {
        if (!peek_word(ps, &tok, &st)) {
            if (st) return st;
            break;
        }
        long v = number_of(tok.s, tok.n, 2);
        if (v < 0) break;
        read_word(ps, &tok, &st);
        if (v < 1 || v > cap || n == cap)
            return fail_at(ps->err, KONTOR_E_INVALID, ps->line, "the %s deck has no %s %ld", events ? "event" : "tile",
                           events ? "card" : "tile", v);
        (events ? d->events : d->tiles)[n++] = (uint8_t)(v - 1);
    }
    if (events) d->nevents = (uint8_t)n;
    else if (n != KONTOR_TILES) return fail_at(ps->err, KONTOR_E_INVALID, line, "'deal tiles' wants the 8 tiles, not %d", n);
    return KONTOR_OK;
}

/* Every card in play of the dealt classes is dealt; the message names the
 * lowest missing card. */
static kontor_status check_deal_complete(parser *ps, int first_line) {
    int ns = ps->r->cfg.nseats;
    for (int w = 0; w < 2; w++) {
        uint64_t want = ps->cls[KONTOR_CLASS_RED][w] | ps->cls[KONTOR_CLASS_BLACK][w] | ps->cls[KONTOR_CLASS_WATER][w];
        if (ps->r->cfg.specials) want |= ps->cls[KONTOR_CLASS_SPECIAL][w];
        uint64_t missing = want & ~ps->gone[w] & ~ps->dealt[w];
        if (!missing) continue;
        int id = w * 64 + __builtin_ctzll(missing);
        int cl = kontor_card_class(&ps->cs->card[id]);
        const char *where = cl == KONTOR_CLASS_WATER ? "water" : cl == KONTOR_CLASS_SPECIAL ? "special"
                          : ns == 4 ? (cl == 0 ? "red1 and red2" : "black1 and black2") : record_seat_name(2, cl);
        return fail_at(ps->err, KONTOR_E_INVALID, first_line, "the %s pile lacks card %d", where, ps->cs->card[id].number);
    }
    return KONTOR_OK;
}

/* ---- rounds ---- */

static kontor_status push(parser *ps, int seat, kontor_move m) {
    kontor_record *r = ps->r;
    if (r->nply < r->cap) { /* the common case, without a call */
        r->ply[r->nply].seat = (uint8_t)seat;
        r->ply[r->nply].move = m;
        r->nply++;
        return KONTOR_OK;
    }
    if (kontor_record_push(r, seat, m))
        return fail_at(ps->err, KONTOR_E_RANGE, ps->line, "the record holds more than %d decisions", PLY_MAX);
    return KONTOR_OK;
}

/* After "ship", "remove", "water", "bribe", "event" or "tile": a cell or "-". */
static kontor_status read_cell_arg(parser *ps, const char *what, int kind, int seat) {
    token tok;
    kontor_status st;
    int line = ps->line;
    if (!read_word(ps, &tok, &st)) {
        if (st) return st;
        return fail_at(ps->err, KONTOR_E_PARSE, line, "'%s' wants a cell like +1,-2 or '-', but the record ends", what);
    }
    int cell = cell_of(tok);
    if (cell < 0)
        return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "'%s' wants a cell like +1,-2 or '-', not '%.*s'", what, tok.n, tok.s);
    return push(ps, seat, KONTOR_MOVE(kind, cell));
}

/* After "keep", "discard" (a card number), "tavern" (yes, no) or "export"
 * (tea, wine, spice, -): the scenarios' decisions. */
static kontor_status read_word_arg(parser *ps, token name, long round, int seat) {
    token tok;
    kontor_status st;
    int line = ps->line;
    if (!read_word(ps, &tok, &st)) {
        if (st) return st;
        return fail_at(ps->err, KONTOR_E_PARSE, line, "round %ld: '%.*s' wants a value, but the record ends", round, name.n,
                       name.s);
    }
    if (IS(name, "tavern")) {
        if (!IS(tok, "yes") && !IS(tok, "no"))
            return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "round %ld: 'tavern' wants 'yes' or 'no', not '%.*s'", round,
                           tok.n, tok.s);
        return push(ps, seat, KONTOR_MOVE(KONTOR_MOVE_TAVERN, tok.s[0] == 'y'));
    }
    if (IS(name, "export")) {
        for (int g = 0; g < 3; g++) {
            const char *w = record_good_word(g);
            if ((size_t)tok.n == strlen(w) && memcmp(tok.s, w, (size_t)tok.n) == 0)
                return push(ps, seat, KONTOR_MOVE(KONTOR_MOVE_EXPORT, g));
        }
        if (IS(tok, "-")) return push(ps, seat, KONTOR_MOVE(KONTOR_MOVE_EXPORT, KONTOR_NONE));
        return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "round %ld: 'export' wants 'tea', 'wine', 'spice' or '-', not '%.*s'",
                       round, tok.n, tok.s);
    }
    long v = number_of(tok.s, tok.n, 3);
    if (v < 0)
        return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "round %ld: '%.*s' wants a card number, not '%.*s'", round, name.n,
                       name.s, tok.n, tok.s);
    if (v > 255 || ps->num2id[v] == NO_CARD)
        return fail_at(ps->err, KONTOR_E_INVALID, ps->line, "round %ld: there is no card %ld in card set '%s'", round, v,
                       ps->cs->name);
    return push(ps, seat, KONTOR_MOVE(name.s[0] == 'k' ? KONTOR_MOVE_KEEP : KONTOR_MOVE_DISCARD, ps->num2id[v]));
}

/* A decision word after a seat (not a seat, not a round): its keyword by
 * length and first byte, else a cell. */
static kontor_status read_decision(parser *ps, token tok, long number, int seat) {
    kontor_status st;
    int ns = ps->r->cfg.nseats;
    switch (tok.s[0]) {
    case 's':
        if (IS(tok, "ship")) return read_cell_arg(ps, "ship", KONTOR_MOVE_SHIP, seat);
        break;
    case 'b':
        if (IS(tok, "bribe")) return read_cell_arg(ps, "bribe", KONTOR_MOVE_BRIBE, seat);
        break;
    case 'e':
        if (IS(tok, "event")) return read_cell_arg(ps, "event", KONTOR_MOVE_EVENT, seat);
        if (IS(tok, "export")) return read_word_arg(ps, tok, number, seat);
        break;
    case 't':
        if (IS(tok, "tile")) return read_cell_arg(ps, "tile", KONTOR_MOVE_TILE, seat);
        if (IS(tok, "tavern")) return read_word_arg(ps, tok, number, seat);
        break;
    case 'k':
        if (IS(tok, "keep")) return read_word_arg(ps, tok, number, seat);
        break;
    case 'd':
        if (IS(tok, "discard")) return read_word_arg(ps, tok, number, seat);
        break;
    case 'r':
        if (IS(tok, "remove")) return read_cell_arg(ps, "remove", KONTOR_MOVE_REMOVE, seat);
        break;
    case 'w':
        if (IS(tok, "water")) {
            if ((st = read_cell_arg(ps, "water", KONTOR_MOVE_PLACE_WATER, seat))) return st;
            kontor_ply *last = &ps->r->ply[ps->r->nply - 1];
            if (KONTOR_MOVE_VALUE(last->move) == KONTOR_NONE)
                return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "round %ld: 'water' wants a cell like +1,-2, not '-'", number);
            return KONTOR_OK;
        }
        break;
    case 'p':
        if (IS(tok, "pile")) {
            int l2 = ps->line;
            token who_tok;
            if (!read_word(ps, &who_tok, &st)) {
                if (st) return st;
                return fail_at(ps->err, KONTOR_E_PARSE, l2, "'pile' wants a seat, but the record ends");
            }
            int who = seat_of(who_tok, ns);
            if (who < 0)
                return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "'pile' wants a seat, not '%.*s'", who_tok.n, who_tok.s);
            return push(ps, seat, KONTOR_MOVE(KONTOR_MOVE_PILE, who));
        }
        break;
    default:
        break;
    }
    int cell = cell_of(tok);
    if (cell < 0)
        return fail_at(ps->err, KONTOR_E_PARSE, ps->line,
                       "round %ld: '%.*s' is not a cell like +1,-2, '-', 'ship', 'remove', 'water', 'pile' or a seat",
                       number, tok.n, tok.s);
    return push(ps, seat, KONTOR_MOVE(KONTOR_MOVE_PLACE, cell));
}

static kontor_status read_round(parser *ps, long number) {
    token tok;
    kontor_status st;
    int line = ps->line;
    int ns = ps->r->cfg.nseats;
    /* the buys, when there were any: one word a seat. The usual next word
     * (after one space, not starting with 'b') is no "buy" without a peek;
     * the read of the choices below meets what a peek would have. */
    const char *q = ps->p;
    int no_buy = !ps->la_ok && ps->end - q >= 2 && q[0] == ' ' && q[1] != 'b' && !byte_kind[(unsigned char)q[1]];
    st = KONTOR_OK;
    if (!no_buy && peek_word(ps, &tok, &st) && IS(tok, "buy")) {
        read_word(ps, &tok, &st);
        for (int seat = 0; seat < ns; seat++) {
            if (!read_word(ps, &tok, &st)) {
                if (st) return st;
                return fail_at(ps->err, KONTOR_E_PARSE, line, "round %ld wants %s's buy, but the record ends", number,
                               record_seat_name(ns, seat));
            }
            if (IS(tok, "-")) continue;
            if (tok.n != 1 || tok.s[0] < '0' || tok.s[0] > '9')
                return fail_at(ps->err, KONTOR_E_PARSE, ps->line,
                               "round %ld: %s's buy is a number of cards (0 to 9) or '-', not '%.*s'", number,
                               record_seat_name(ns, seat), tok.n, tok.s);
            if ((st = push(ps, seat, KONTOR_MOVE(KONTOR_MOVE_BUY, tok.s[0] - '0')))) return st;
        }
    } else if (st) {
        return st;
    }
    /* the choices, seat order; with declarations (R1) every seat's
     * declaration first, then the cards of those who play */
    int declare = !ps->r->cfg.pass_hidden, card[KONTOR_MAX_SEATS];
    for (int seat = 0; seat < ns; seat++) {
        card[seat] = -1;
        if (!read_word(ps, &tok, &st)) {
            if (st) return st;
            return fail_at(ps->err, KONTOR_E_PARSE, line, "round %ld wants %s's choice, but the record ends", number,
                           record_seat_name(ns, seat));
        }
        if (IS(tok, "?")) continue;
        if (IS(tok, "pass")) {
            if ((st = push(ps, seat, KONTOR_MOVE(declare ? KONTOR_MOVE_DECLARE : KONTOR_MOVE_CHOOSE, KONTOR_PASS)))) return st;
            continue;
        }
        if (declare && IS(tok, "play")) {
            if ((st = push(ps, seat, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY)))) return st;
            continue;
        }
        long v = number_of(tok.s, tok.n, 3);
        if (v < 0)
            return fail_at(ps->err, KONTOR_E_PARSE, ps->line,
                           "round %ld: %s's choice is a card number, 'pass'%s or '?', not '%.*s'", number,
                           record_seat_name(ns, seat), declare ? ", 'play'" : "", tok.n, tok.s);
        if (v > 255 || ps->num2id[v] == NO_CARD)
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
        const char *before = ps->p;
        int before_line = ps->line;
        if (!read_word(ps, &tok, &st)) return st;
        if (round_of(tok) >= 0) {
            unread(ps, tok, before, before_line);
            return KONTOR_OK;
        }
        int s2 = seat_of(tok, ns);
        if (s2 >= 0) {
            seat = s2;
            continue;
        }
        if (seat < 0)
            return fail_at(ps->err, KONTOR_E_PARSE, ps->line,
                           "round %ld: after the choices comes a seat ('%s', ...) or the next round, not '%.*s'", number,
                           record_seat_name(ns, 0), tok.n, tok.s);
        if ((st = read_decision(ps, tok, number, seat))) return st;
    }
}

/* The tags, first in a record, and the configuration they make. */
static kontor_status parse_tags(parser *ps) {
    tags t;
    for (int i = 0; i < NTAGS; i++) t.value[i][0] = 0, t.line[i] = 0;
    kontor_status st;
    for (;;) {
        if ((st = skip_space(ps))) return st;
        if (ps->p >= ps->end || *ps->p != '[') break;
        if ((st = read_tag(ps, &t))) return st;
    }
    return apply_tags(ps, &t);
}

/* After the tags: the deal and the rounds, by the general reader. */
static kontor_status parse_body(parser *ps) {
    kontor_status st;

    /* the deal */
    token tok;
    int done[PILES_MAX] = {0};
    int ns = ps->r->cfg.nseats, npiles = 1 + ns + (ps->r->cfg.specials ? 1 : 0), any = 0;
    int first_line = ps->line; /* where the deal starts (or should) */
    for (;;) {
        if (!peek_word(ps, &tok, &st)) {
            if (st) return st;
            break;
        }
        if (!IS(tok, "deal")) break;
        read_word(ps, &tok, &st);
        int line = ps->line;
        if (!any) first_line = line;
        any = 1;
        if (!read_word(ps, &tok, &st)) {
            if (st) return st;
            return fail_at(ps->err, KONTOR_E_PARSE, line, "'deal' wants 'water', a seat or 'special', but the record ends");
        }
        if ((IS(tok, "events") && ps->r->cfg.events) || (IS(tok, "tiles") && ps->r->cfg.tiles)) {
            if ((st = read_deck(ps, tok.s[0] == 'e', line))) return st;
            continue;
        }
        int which = -1;
        for (int k = 0; k < npiles; k++) {
            const char *w = pile_word(ps, k);
            if ((size_t)tok.n == strlen(w) && memcmp(tok.s, w, (size_t)tok.n) == 0) which = k;
        }
        if (which < 0)
            return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "'deal' wants 'water', a seat ('%s', ...)%s, not '%.*s'",
                           record_seat_name(ns, 0), ps->r->cfg.specials ? " or 'special'" : "", tok.n, tok.s);
        if ((st = read_pile(ps, which, ps->line, done))) return st;
    }
    if (!any) {
        if (!ps->r->has_seed)
            return fail_at(ps->err, KONTOR_E_PARSE, first_line,
                           "the record has no deal ('deal water ...', 'deal %s ...', ...) and no Seed tag",
                           record_seat_name(ns, 0));
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
        if (!read_word(ps, &tok, &st)) return st;
        long n = round_of(tok);
        if (n < 0) {
            /* ('deal' after a round is read as that round's decision) */
            return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "expected round %ld, like '%ld.', not '%.*s'", expect, expect,
                           tok.n, tok.s);
        }
        if (n != expect) return fail_at(ps->err, KONTOR_E_PARSE, ps->line, "round %ld comes where round %ld belongs", n, expect);
        if (n > ROUND_MAX) return fail_at(ps->err, KONTOR_E_RANGE, ps->line, "a record holds at most %d rounds", ROUND_MAX);
        if ((st = read_round(ps, n))) return st;
        expect++;
    }
}

static void parser_init(parser *ps, kontor_record *r, const kontor_cardset *cards, const char *text, size_t len,
                        kontor_error *err) {
    memset(err, 0, sizeof *err);
    memset(r, 0, sizeof *r);
    r->result[0] = '*';
    memset(ps, 0, sizeof *ps);
    ps->p = text;
    ps->end = text + len;
    ps->line = 1;
    ps->err = err;
    ps->r = r;
    ps->cs = cards ? cards : kontor_cards_builtin();
}

/* The fast way (fast.c): the tags by the general reader, the deal and the
 * rounds by the fast path, and the lines checked as check_lines does, the
 * tags' lines by check_lines and the rest by the fast path, which takes no
 * byte but the few its words and blanks are made of, on lines no longer
 * than the text after the tags. 1 when all of it reads; 0 otherwise, also
 * on any error, which the general reader then finds (check_lines first, as
 * always, so that an error is the same whichever way a text would be read). */
static int parse_fast(kontor_record *r, const kontor_cardset *cards, const char *text, size_t len, kontor_error *err) {
    parser ps;
    parser_init(&ps, r, cards, text, len, err);
    if (parse_tags(&ps)) return 0;
    const char *line = ps.p;
    while (line > text && line[-1] != '\n') line--;
    if (ps.end - line > LINE_MAX_CHARS || check_lines(text, (size_t)(ps.p - text), err)) return 0;
    fast_tables ft = {ps.num2id, (const uint64_t (*)[2])ps.cls, ps.gone};
    return !ps.la_ok && record_parse_fast(r, &ft, ps.p, ps.end, ps.dealt);
}

static kontor_status parse_with(kontor_record *r, const kontor_cardset *cards, const char *text, size_t len,
                                kontor_error *err, int mode) {
    kontor_error local;
    if (!err) err = &local;
    if (mode != RECORD_READ_GENERAL) {
        if (parse_fast(r, cards, text, len, err)) return KONTOR_OK;
        kontor_record_release(r);
        if (mode == RECORD_READ_FAST_ONLY) {
            memset(err, 0, sizeof *err);
            return fail_at(err, KONTOR_E_PARSE, 0, "the fast reader declines the record");
        }
    }
    parser ps;
    parser_init(&ps, r, cards, text, len, err);
    kontor_status st = check_lines(text, len, err);
    if (!st) st = parse_tags(&ps);
    if (!st) st = parse_body(&ps);
    if (st) kontor_record_release(r);
    return st;
}

kontor_status kontor_record_parse_with(kontor_record *r, const kontor_cardset *cards, const char *text, size_t len,
                                       kontor_error *err) {
    return parse_with(r, cards, text, len, err, RECORD_READ_BOTH);
}

kontor_status record_parse_mode(kontor_record *r, const kontor_cardset *cards, const char *text, size_t len,
                                kontor_error *err, int mode) {
    return parse_with(r, cards, text, len, err, mode);
}

kontor_status kontor_record_parse(kontor_record *r, const char *text, size_t len, kontor_error *err) {
    return kontor_record_parse_with(r, NULL, text, len, err);
}
