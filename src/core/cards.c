/* cards.c: reading, validating and classifying card sets.
 *
 * The card list of Kontor is not public, so the project treats it as data: a
 * text file (data/cards.txt, format in docs/cards.md) that a person holding
 * the box can correct without touching code. This file turns such text into a
 * kontor_cardset and checks every fact the rules rely on, so that the engine
 * may assume them. The parser is line-oriented and allocates nothing: it walks
 * the text once, splits each line into at most five fields, and keeps only a
 * table of the line each number was first seen on. Every failure names the
 * line (or "card set" for a whole-set fact) and the broken constraint.
 *
 * Codes: malformed text is KONTOR_E_PARSE; a well-formed line or set that
 * breaks a rule fact is KONTOR_E_INVALID; a number or card count beyond what
 * the engine stores (numbers are uint8_t, at most KONTOR_MAX_CARDS cards) is
 * KONTOR_E_RANGE. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "kontor/kontor.h"

/* Per colour, the box has 22 dock cards: 2 cranes, 1 tavern, 19 goods cards. */
#define DOCK_PER_COLOUR 22
#define CRANES_PER_COLOUR 2
#define TAVERNS_PER_COLOUR 1
/* A goods card shows 1 to 3 goods (the three-goods cards are 3 and 4). */
#define MAX_GOODS_ON_CARD 3
/* The box has 16 warehouses of each good. Every goods card on the board may
 * ask for its warehouses, so the dock cards together may not show more. */
#define WAREHOUSES_PER_GOOD 16
/* kontor_area keeps a team's warehouses of a good in an area in five bits
 * (kontor.h): at most the card set's and an action tile's extra one. */
_Static_assert(WAREHOUSES_PER_GOOD + 1 < 32, "kontor_area's goods5 holds a count below 32");
/* ... so the Exportlager's bits (kontor_state.export_bits) hold them all. */
_Static_assert(3 * WAREHOUSES_PER_GOOD <= 64, "a bit a warehouse in a word");
/* Numbered water cards needed at the least: the start cross takes 8 and each
 * of two hands 2. (The box has 43.) */
#define MIN_WATER 12
/* The game for four uses 2 floods, 2 bridges, 2 customs houses. */
#define MAX_SPECIAL 6
/* An area's dock cards are at most the cards that can lie as dock cards:
 * kontor_area.size's six bits (kontor.h, src/core/area.c) hold them. (The
 * number of areas is bounded by the board, not the cards: KONTOR_MAX_AREAS.) */
_Static_assert(2 * DOCK_PER_COLOUR + MAX_SPECIAL < 64, "kontor_area.size has six bits: the dock cards of one area");
/* KONTOR_PILE_MAX's bound (kontor.h): a dock pile holds at most its
 * colour's dock cards, the water pile at most the water cards a card set can
 * have (all but the dock cards and the centre) less the four dealt to two
 * hands, the special cards' pile at most 8 (the deal's most). */
_Static_assert(KONTOR_PILE_MAX >= DOCK_PER_COLOUR && KONTOR_PILE_MAX >= KONTOR_MAX_CARDS - 2 * DOCK_PER_COLOUR - 1 - 4 &&
                   KONTOR_PILE_MAX >= 8 && MAX_SPECIAL <= 8,
               "KONTOR_PILE_MAX must hold every card a pile can hold");
/* Longest set name: kontor_cardset.name holds 21 characters and a NUL. */
#define NAME_MAX_LEN ((int)sizeof(((kontor_cardset *)0)->name) - 1)
/* Fields of a card line; one more is read to detect extras. */
#define NFIELDS 5

_Static_assert(KONTOR_MAX_CARDS <= 255, "card ids and ncards are uint8_t");

typedef struct field {
    const char *s;
    int n;
} field;

static const char *const good_name[3] = {"tea", "wine", "spice"};
static const char *const colour_name[3] = {"red", "black", "neutral"};
static const char *const kind_name[] = {"goods", "crane", "tavern", "water",
                                        "centre", "flood", "bridge", "customs"};
_Static_assert(sizeof kind_name / sizeof kind_name[0] == KONTOR_KIND_CUSTOMS + 1,
               "one name per kontor_kind");

static kontor_status fail(kontor_error *err, kontor_status code, int line,
                          const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Fill err: "line N: ..." when line > 0, "card set: ..." otherwise. */
static kontor_status fail(kontor_error *err, kontor_status code, int line,
                          const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    err->code = code;
    err->line = line;
    err->round = 0;
    if (line > 0)
        snprintf(err->msg, sizeof err->msg, "line %d: %s", line, what);
    else
        snprintf(err->msg, sizeof err->msg, "card set: %s", what);
    return code;
}

static int field_is(field f, const char *word)
{
    size_t n = strlen(word);
    return (size_t)f.n == n && memcmp(f.s, word, n) == 0;
}

/* Index of f in names[0..n), or -1. */
static int lookup(field f, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (field_is(f, names[i]))
            return i;
    return -1;
}

/* Field text for messages: at most 24 characters (the rest elided). */
#define FIELD_FMT "'%.*s%s'"
#define FIELD_ARG(f) ((f).n > 24 ? 24 : (f).n), (f).s, ((f).n > 24 ? "..." : "")

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* Split line [s, s+n) (no '\n') into fields, stopping at '#'. Returns the
 * number of fields found, at most max + 1 (so extras show). Fails on a NUL or
 * a control or non-ASCII byte outside a comment. */
static kontor_status split(const char *s, int n, field *f, int max, int *nf,
                           int line, kontor_error *err)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (s[i] == '\0')
            return fail(err, KONTOR_E_PARSE, line, "the text contains a NUL byte");
    for (int i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (c == '#')
            break;
        if (is_blank((char)c)) {
            i++;
            continue;
        }
        int start = i;
        while (i < n && !is_blank(s[i]) && s[i] != '#') {
            c = (unsigned char)s[i];
            if (c < 0x20 || c > 0x7e)
                return fail(err, KONTOR_E_PARSE, line,
                            "unexpected byte 0x%02x (only printable ascii outside comments)", c);
            i++;
        }
        if (k <= max)
            f[k] = (field){s + start, i - start};
        k++;
    }
    *nf = k > max + 1 ? max + 1 : k;
    return KONTOR_OK;
}

static int name_char_ok(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_' || c == '.' || c == '+';
}

static kontor_status parse_name(kontor_cardset *cs, const field *f, int nf, int line,
                                kontor_error *err)
{
    if (nf != 2)
        return fail(err, KONTOR_E_PARSE, line, "'name' takes exactly one word, found %d", nf - 1);
    if (f[1].n > NAME_MAX_LEN)
        return fail(err, KONTOR_E_PARSE, line, "the name " FIELD_FMT " is longer than %d characters",
                    FIELD_ARG(f[1]), NAME_MAX_LEN);
    for (int i = 0; i < f[1].n; i++)
        if (!name_char_ok(f[1].s[i]))
            return fail(err, KONTOR_E_PARSE, line,
                        "the name " FIELD_FMT " may hold only letters, digits and - _ . +",
                        FIELD_ARG(f[1]));
    memcpy(cs->name, f[1].s, (size_t)f[1].n);
    cs->name[f[1].n] = '\0';
    return KONTOR_OK;
}

/* NUMBER: decimal digits. Returns -1 if not digits, 256 if above 255. */
static int parse_number(field f)
{
    int v = 0;
    for (int i = 0; i < f.n; i++) {
        if (f.s[i] < '0' || f.s[i] > '9')
            return -1;
        v = v * 10 + (f.s[i] - '0');
        if (v > 255)
            v = 256;    /* saturate: no overflow however long the field */
    }
    return v;
}

static int is_dock_kind(int kind)
{
    return kind == KONTOR_KIND_GOODS || kind == KONTOR_KIND_CRANE || kind == KONTOR_KIND_TAVERN;
}

static int is_special_kind(int kind)
{
    return kind == KONTOR_KIND_FLOOD || kind == KONTOR_KIND_BRIDGE || kind == KONTOR_KIND_CUSTOMS;
}

/* One card line: syntax, then the facts a single line can break. */
static kontor_status parse_card(kontor_card *c, const field *f, int nf, int line,
                                kontor_error *err)
{
    if (nf != NFIELDS)
        return fail(err, KONTOR_E_PARSE, line,
                    "expected 5 fields (number colour kind goods symbol), found %s%d",
                    nf > NFIELDS ? "more than " : "", nf > NFIELDS ? NFIELDS : nf);

    int number = parse_number(f[0]);
    if (number < 0)
        return fail(err, KONTOR_E_PARSE, line, "the number " FIELD_FMT " is not a whole number",
                    FIELD_ARG(f[0]));
    if (number > 255)
        return fail(err, KONTOR_E_RANGE, line, "the number " FIELD_FMT " is above 255",
                    FIELD_ARG(f[0]));

    int colour = lookup(f[1], colour_name, 3);
    if (colour < 0)
        return fail(err, KONTOR_E_PARSE, line,
                    "unknown colour " FIELD_FMT " (expected red, black or neutral)",
                    FIELD_ARG(f[1]));

    int kind = lookup(f[2], kind_name, KONTOR_KIND_CUSTOMS + 1);
    if (kind < 0)
        return fail(err, KONTOR_E_PARSE, line,
                    "unknown kind " FIELD_FMT " (expected goods, crane, tavern, water, centre, "
                    "flood, bridge or customs)", FIELD_ARG(f[2]));

    int goods[3] = {0, 0, 0}, ngoods = 0;
    if (!field_is(f[3], "-")) {
        for (int i = 0; i < f[3].n; i++) {
            char g = f[3].s[i];
            int k = g == 'T' ? KONTOR_TEA : g == 'W' ? KONTOR_WINE : g == 'S' ? KONTOR_SPICE : -1;
            if (k < 0)
                return fail(err, KONTOR_E_PARSE, line,
                            "goods " FIELD_FMT " must be '-' or letters T, W, S",
                            FIELD_ARG(f[3]));
            goods[k]++;
            ngoods++;
        }
    }

    int coin, ship;
    if (field_is(f[4], "-"))
        coin = 0, ship = 0;
    else if (field_is(f[4], "coin"))
        coin = 1, ship = 0;
    else if (field_is(f[4], "ship"))
        coin = 0, ship = 1;
    else if (field_is(f[4], "coin+ship"))
        coin = 1, ship = 1;
    else
        return fail(err, KONTOR_E_PARSE, line,
                    "unknown symbol " FIELD_FMT " (expected -, coin, ship or coin+ship)",
                    FIELD_ARG(f[4]));

    /* Facts of one card. */
    if (is_dock_kind(kind) && colour == KONTOR_NEUTRAL)
        return fail(err, KONTOR_E_INVALID, line, "a %s card is a dock card and must be red or black",
                    kind_name[kind]);
    if (!is_dock_kind(kind) && colour != KONTOR_NEUTRAL)
        return fail(err, KONTOR_E_INVALID, line, "a %s card must be neutral, not %s",
                    kind_name[kind], colour_name[colour]);
    if (kind == KONTOR_KIND_CENTRE && number != 0)
        return fail(err, KONTOR_E_INVALID, line, "the centre card has no number: write 0, not %d",
                    number);
    if (kind != KONTOR_KIND_CENTRE && number == 0)
        return fail(err, KONTOR_E_INVALID, line,
                    "number 0 is the centre's; a %s card needs a number from 1 to 255",
                    kind_name[kind]);
    if (kind != KONTOR_KIND_GOODS && ngoods > 0)
        return fail(err, KONTOR_E_INVALID, line, "a %s card cannot show goods", kind_name[kind]);
    if (kind == KONTOR_KIND_GOODS && ngoods == 0)
        return fail(err, KONTOR_E_INVALID, line, "a goods card must show 1 to 3 goods, it shows none");
    if (ngoods > MAX_GOODS_ON_CARD)
        return fail(err, KONTOR_E_INVALID, line, "a goods card shows at most 3 goods, not %d",
                    ngoods);
    if (kind == KONTOR_KIND_CENTRE && (coin || ship))
        return fail(err, KONTOR_E_INVALID, line, "the centre card shows an anchor, not a symbol");

    c->number = (uint8_t)number;
    c->colour = (uint8_t)colour;
    c->kind = (uint8_t)kind;
    c->coin = (uint8_t)coin;
    c->ship = (uint8_t)ship;
    for (int k = 0; k < 3; k++)
        c->goods[k] = (uint8_t)goods[k];
    return KONTOR_OK;
}

/* Facts of the whole set, checked once every line has been read. */
static kontor_status check_set(const kontor_cardset *cs, const int *line_of,
                               kontor_error *err)
{
    int dock[2] = {0, 0}, cranes[2] = {0, 0}, taverns[2] = {0, 0};
    int water = 0, special = 0, centres = 0;
    int goods[3] = {0, 0, 0};
    int top = -1;   /* id of the highest-numbered non-tavern dock or water card */

    for (int i = 0; i < cs->ncards; i++) {
        const kontor_card *c = &cs->card[i];
        if (kontor_card_is_dock(c)) {
            dock[c->colour]++;
            cranes[c->colour] += c->kind == KONTOR_KIND_CRANE;
            taverns[c->colour] += c->kind == KONTOR_KIND_TAVERN;
            for (int k = 0; k < 3; k++)
                goods[k] += c->goods[k];
        } else if (c->kind == KONTOR_KIND_WATER) {
            water++;
        } else if (c->kind == KONTOR_KIND_CENTRE) {
            centres++;
        } else if (is_special_kind(c->kind)) {
            special++;
        }
        if ((kontor_card_is_dock(c) || c->kind == KONTOR_KIND_WATER) &&
            c->kind != KONTOR_KIND_TAVERN && (top < 0 || c->number > cs->card[top].number))
            top = i;
    }

    if (centres == 0)
        return fail(err, KONTOR_E_INVALID, 0, "there is no centre card (0 neutral centre - -)");
    for (int col = 0; col < 2; col++)
        if (dock[col] != DOCK_PER_COLOUR)
            return fail(err, KONTOR_E_INVALID, 0, "%s has %d dock cards, %d are needed",
                        colour_name[col], dock[col], DOCK_PER_COLOUR);
    for (int col = 0; col < 2; col++)
        if (cranes[col] != CRANES_PER_COLOUR)
            return fail(err, KONTOR_E_INVALID, 0, "%s has %d cranes, %d are needed",
                        colour_name[col], cranes[col], CRANES_PER_COLOUR);
    for (int col = 0; col < 2; col++)
        if (taverns[col] != TAVERNS_PER_COLOUR)
            return fail(err, KONTOR_E_INVALID, 0, "%s has %d taverns, %d is needed",
                        colour_name[col], taverns[col], TAVERNS_PER_COLOUR);
    if (water < MIN_WATER)
        return fail(err, KONTOR_E_INVALID, 0,
                    "there are %d numbered water cards, at least %d are needed "
                    "(8 for the start cross, 2 for each hand)", water, MIN_WATER);
    if (special > MAX_SPECIAL)
        return fail(err, KONTOR_E_INVALID, 0, "there are %d special cards, at most %d are allowed",
                    special, MAX_SPECIAL);

    /* The tavern is the highest card of the basic game (dock and water).
     * top >= 0 here: each colour has 21 dock cards that are not taverns. */
    for (int i = 0; i < cs->ncards; i++) {
        const kontor_card *c = &cs->card[i];
        if (c->kind == KONTOR_KIND_TAVERN && c->number < cs->card[top].number)
            return fail(err, KONTOR_E_INVALID, line_of[i],
                        "the %s tavern has number %d, lower than number %d on line %d "
                        "(the taverns carry the highest numbers of the basic game)",
                        colour_name[c->colour], c->number, cs->card[top].number, line_of[top]);
    }

    for (int k = 0; k < 3; k++)
        if (goods[k] > WAREHOUSES_PER_GOOD)
            return fail(err, KONTOR_E_INVALID, 0,
                        "the dock cards show %d %s, the box has only %d %s warehouses",
                        goods[k], good_name[k], WAREHOUSES_PER_GOOD, good_name[k]);
    return KONTOR_OK;
}

kontor_status kontor_cards_parse(kontor_cardset *cs, const char *text, size_t len,
                                 kontor_error *err)
{
    kontor_error scratch;
    if (err == NULL)
        err = &scratch;
    memset(err, 0, sizeof *err);
    memset(cs, 0, sizeof *cs);
    strcpy(cs->name, "default");
    cs->centre = KONTOR_NONE;

    int first_line[256];    /* line each number was first used on; 0 = unused */
    int line_of[KONTOR_MAX_CARDS];
    memset(first_line, 0, sizeof first_line);

    int line = 0, seen_content = 0, name_line = 0;
    size_t pos = 0;
    while (pos < len) {
        size_t end = pos;
        while (end < len && text[end] != '\n')
            end++;
        line++;
        if (end - pos > 0x7fffffff)
            return fail(err, KONTOR_E_RANGE, line, "the line is too long");
        field f[NFIELDS + 1];
        int nf = 0;
        kontor_status st = split(text + pos, (int)(end - pos), f, NFIELDS, &nf, line, err);
        pos = end + 1;  /* past the '\n' (or past len at the end: the loop stops) */
        if (st != KONTOR_OK)
            return st;
        if (nf == 0)
            continue;

        if (field_is(f[0], "name")) {
            if (name_line)
                return fail(err, KONTOR_E_PARSE, line, "a second 'name' line (first on line %d)",
                            name_line);
            if (seen_content)
                return fail(err, KONTOR_E_PARSE, line, "'name' must come before the first card");
            st = parse_name(cs, f, nf, line, err);
            if (st != KONTOR_OK)
                return st;
            name_line = line;
            seen_content = 1;
            continue;
        }
        seen_content = 1;

        if (cs->ncards >= KONTOR_MAX_CARDS)
            return fail(err, KONTOR_E_RANGE, line, "more than %d cards", KONTOR_MAX_CARDS);
        kontor_card *c = &cs->card[cs->ncards];
        st = parse_card(c, f, nf, line, err);
        if (st != KONTOR_OK)
            return st;
        if (c->kind == KONTOR_KIND_CENTRE) {
            if (cs->centre != KONTOR_NONE)
                return fail(err, KONTOR_E_INVALID, line, "a second centre card (first on line %d)",
                            line_of[cs->centre]);
            cs->centre = cs->ncards;
        } else {
            if (first_line[c->number])
                return fail(err, KONTOR_E_INVALID, line, "number %d is used twice (first on line %d)",
                            c->number, first_line[c->number]);
            first_line[c->number] = line;
        }
        line_of[cs->ncards] = line;
        cs->ncards++;
    }
    kontor_status st = check_set(cs, line_of, err);
    if (st == KONTOR_OK)
        kontor_cards_index(cs);
    return st;
}

void kontor_cards_index(kontor_cardset *cs)
{
    memset(cs->class_ids, 0, sizeof cs->class_ids);
    memset(cs->class_n, 0, sizeof cs->class_n);
    memset(cs->class_list, 0, sizeof cs->class_list);
    memset(cs->warehouse_at, 0, sizeof cs->warehouse_at);
    unsigned at = 0;
    for (int id = 0; id < cs->ncards && id < KONTOR_MAX_CARDS; id++) {
        int cl = kontor_card_class(&cs->card[id]);
        cs->class_ids[cl][id >> 6] |= 1ULL << (id & 63);
        cs->class_list[cl][cs->class_n[cl]++] = (uint8_t)id;
        cs->warehouse_at[id] = (uint8_t)(at < 255 ? at : 255);
        at += cs->card[id].goods[0] + cs->card[id].goods[1] + cs->card[id].goods[2];
    }
}

/* The built-in set is parsed once per process (replay and every new config
 * used to parse it again: 63% of a record's replay) and then shared,
 * immutable, by every config that points at it. call_once makes the first
 * use safe from several threads (the server). */
static kontor_cardset builtin;
static once_flag builtin_once = ONCE_FLAG_INIT;

static void parse_builtin(void)
{
    const char *text = kontor_cards_default_text();
    kontor_error err;
    /* The built-in text is tested (tests/test_cards.c); failing here is a
     * build defect, not a run-time condition, and the core does no I/O. */
    if (kontor_cards_parse(&builtin, text, strlen(text), &err) != KONTOR_OK)
        abort();
}

const kontor_cardset *kontor_cards_builtin(void)
{
    call_once(&builtin_once, parse_builtin);
    return &builtin;
}

void kontor_cards_default(kontor_cardset *cs)
{
    memcpy(cs, kontor_cards_builtin(), sizeof *cs);
}

int kontor_card_is_dock(const kontor_card *c)
{
    return is_dock_kind(c->kind);
}

int kontor_card_is_water(const kontor_card *c)
{
    return c->kind == KONTOR_KIND_WATER || c->kind == KONTOR_KIND_CENTRE;
}

int kontor_card_class(const kontor_card *c)
{
    if (is_dock_kind(c->kind))
        return c->colour == KONTOR_BLACK ? KONTOR_CLASS_BLACK : KONTOR_CLASS_RED;
    if (c->kind == KONTOR_KIND_WATER)
        return KONTOR_CLASS_WATER;
    if (c->kind == KONTOR_KIND_CENTRE)
        return KONTOR_CLASS_CENTRE;
    return KONTOR_CLASS_SPECIAL;
}

const char *kontor_status_name(kontor_status st)
{
    switch (st) {
    case KONTOR_OK: return "ok";
    case KONTOR_E_PARSE: return "parse error";
    case KONTOR_E_INVALID: return "invalid";
    case KONTOR_E_ILLEGAL: return "illegal move";
    case KONTOR_E_IO: return "i/o error";
    case KONTOR_E_RANGE: return "out of range";
    }
    return "unknown status";
}
