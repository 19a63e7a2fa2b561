/* config.c: variants and rulings as data: kontor_config and its options.
 *
 * A variant fills in the board size, the ship, the largest-N rule and the
 * money; the rulings that docs/rules.md calls matters of taste are options
 * with a documented default, set by name ("edge=both"). Records write the
 * options that differ from the defaults, so a record names its rules. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kontor/kontor.h"

__attribute__((format(printf, 3, 4)))
static kontor_status fail(kontor_error *err, kontor_status code, const char *fmt, ...) {
    if (err) {
        va_list ap;
        memset(err, 0, sizeof *err);
        err->code = code;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* The variants: the base games and the rulebook's scenarios ("Szenarien":
 * "Wenn nicht anderes angegeben ist, gelten die Regeln des Profispiels", so a
 * scenario starts from the advanced game and changes what its text says).
 * Each line: name, base, the start layout file (or NULL: the cross, or "-":
 * the harbour centre alone), and one line for kontor variants. */
typedef struct variant_def {
    const char *name;
    int base;              /* KONTOR_VARIANT_BASIC, _ADVANCED or _FOUR */
    const char *layout;
    const char *describe;
} variant_def;

static const variant_def variants[KONTOR_NVARIANTS] = {
    {"basic", KONTOR_VARIANT_BASIC, NULL, "the basic game for two: 6x6, no ship, every enclosed area scores"},
    {"advanced", KONTOR_VARIANT_ADVANCED, NULL, "the advanced game for two: 7x7, the ship, the five largest areas score"},
    {"four", KONTOR_VARIANT_FOUR, NULL, "the game for four in two teams: 8x8, a special card each, areas of two or more"},
    {"specials", KONTOR_VARIANT_ADVANCED, NULL, "scenario: the special cards for two, bought for two coins before a round"},
    {"canale", KONTOR_VARIANT_ADVANCED, "canale", "scenario Canale Grande: fixed 4x12 board along a canal (layout reconstructed), all areas score"},
    {"kleinen", KONTOR_VARIANT_ADVANCED, "-", "scenario Immer auf die Kleinen: centre only, 6x6, no cranes, no ship, areas of 1/2/3 score 1/2/3"},
    {"wasserspiele", KONTOR_VARIANT_ADVANCED, "wasserspiele", "scenario Wasserspiele: 6x6 (layout reconstructed), every dock card must touch water, all areas score"},
    {"tictactoe", KONTOR_VARIANT_ADVANCED, "tictactoe", "scenario Tic Tac Toe: fixed 8x8 of 3x3 islands (reconstructed), no cranes, three in a row win"},
    {"bakschisch", KONTOR_VARIANT_ADVANCED, NULL, "scenario Bakschisch: 6x6, 3 coins, 10 water aside, no ship, buy out opposing cards for 1/2/3"},
    {"david", KONTOR_VARIANT_ADVANCED, NULL, "scenario David und Goliath: 6x6, only the three smallest areas score"},
    {"gigant", KONTOR_VARIANT_ADVANCED, NULL, "scenario Gigant: 8x8, the seven largest areas score"},
    {"gulliver", KONTOR_VARIANT_ADVANCED, "-", "scenario Gullivers Reisen: centre only, 5x5, 3 coins, no plain cranes, no taverns, all score"},
    {"justizia", KONTOR_VARIANT_ADVANCED, NULL, "scenario Justizia: each player picks his three dock cards and puts four out of the game"},
    {"insel", KONTOR_VARIANT_ADVANCED, "insel", "scenario Die grosse Insel for two: 7x7, water ring (reconstructed), island scores 2, no plain cranes"},
    {"insel4", KONTOR_VARIANT_FOUR, "insel4", "scenario Die grosse Insel for four: 8x8, water ring (reconstructed), island scores 2, no specials"},
    {"armut", KONTOR_VARIANT_ADVANCED, NULL, "scenario Armut for two: 3 coins each and 6 in all; a broke player with an empty treasury loses"},
    {"armut4", KONTOR_VARIANT_FOUR, NULL, "scenario Armut for four: 3 coins each and 12 in all; a broke player's team loses"},
    {"seilschaften", KONTOR_VARIANT_ADVANCED, NULL, "scenario Alte Seilschaften for two: a tavern's owner decides at the end if its area scores"},
    {"seilschaften4", KONTOR_VARIANT_FOUR, NULL, "scenario Alte Seilschaften for four: a tavern's team decides at the end if its area scores"},
};

const char *kontor_variant_name(int variant) {
    if (variant < 0 || variant >= KONTOR_NVARIANTS) return "?";
    return variants[variant].name;
}

const char *kontor_variant_describe(int variant) {
    if (variant < 0 || variant >= KONTOR_NVARIANTS) return NULL;
    return variants[variant].describe;
}

int kontor_card_removed(const kontor_config *cfg, int id) {
    if (id < 0 || id >= KONTOR_MAX_CARDS) return 0;
    if ((cfg->removed[id >> 6] >> (id & 63)) & 1) return 1;
    if (!cfg->remove_kinds || id >= cfg->cards->ncards) return 0;
    const kontor_card *k = &cfg->cards->card[id];
    if (k->kind == KONTOR_KIND_CRANE && (cfg->remove_kinds & KONTOR_REMOVE_CRANES)) return 1;
    if (k->kind == KONTOR_KIND_CRANE && !k->ship && (cfg->remove_kinds & KONTOR_REMOVE_PLAIN_CRANES)) return 1;
    if (k->kind == KONTOR_KIND_TAVERN && (cfg->remove_kinds & KONTOR_REMOVE_TAVERNS)) return 1;
    return 0;
}

static void base_defaults(kontor_config *cfg, int variant) {
    const kontor_cardset *cards = cfg->cards;
    memset(cfg, 0, sizeof *cfg);
    cfg->cards = cards;
    cfg->variant = (uint8_t)variant;
    cfg->nseats = 2;
    cfg->start_coins = 4;
    cfg->total_coins = 20;
    cfg->max_rounds = 200;
    kontor_layout_cross(cfg);
    if (variant == KONTOR_VARIANT_BASIC) {
        cfg->width = cfg->height = 6;
    } else {
        cfg->width = cfg->height = 7;
        cfg->ship = 1;
        cfg->largest = 5;
    }
    if (variant == KONTOR_VARIANT_FOUR) {
        /* the game for four: two teams, 8x8, a special card each, only areas
         * of at least two dock cards among the five largest count */
        cfg->nseats = 4;
        cfg->width = cfg->height = 8;
        cfg->specials = 1;
        cfg->min_area_cards = 2;
    }
}

/* The scenarios' changes to their base game, each from the rulebook's text
 * (docs/variants.md cites it). Layout files are read after this. */
static void defaults(kontor_config *cfg, int variant) {
    const variant_def *d = &variants[variant];
    base_defaults(cfg, d->base);
    cfg->variant = (uint8_t)variant;
    if (d->layout && strcmp(d->layout, "-") == 0) cfg->layout_n = 0; /* "nur die Hafenzentrumkarte" */
    switch (variant) {
    case KONTOR_VARIANT_SPECIALS: cfg->specials = 2; break;
    case KONTOR_VARIANT_CANALE: cfg->largest = 0; break;
    case KONTOR_VARIANT_KLEINEN:
        cfg->width = cfg->height = 6;
        cfg->remove_kinds = KONTOR_REMOVE_CRANES;
        cfg->ship = 0;
        cfg->largest = 0;
        cfg->scoring = KONTOR_SCORE_SIZE;
        break;
    case KONTOR_VARIANT_WASSERSPIELE:
        cfg->largest = 0;
        cfg->water_touch = 1;
        break;
    case KONTOR_VARIANT_TICTACTOE:
        cfg->remove_kinds = KONTOR_REMOVE_CRANES;
        cfg->largest = 0; /* without three in a row: the most areas win */
        cfg->tictactoe = 1;
        break;
    case KONTOR_VARIANT_BAKSCHISCH:
        cfg->width = cfg->height = 6;
        cfg->start_coins = 3;
        cfg->water_aside = 10;
        cfg->ship = 0;
        cfg->bribe = 1;
        break;
    case KONTOR_VARIANT_DAVID:
        cfg->width = cfg->height = 6;
        cfg->largest = 3;
        cfg->scoring = KONTOR_SCORE_SMALLEST;
        break;
    case KONTOR_VARIANT_GIGANT:
        cfg->width = cfg->height = 8;
        cfg->largest = 7;
        break;
    case KONTOR_VARIANT_GULLIVER:
        cfg->width = cfg->height = 5;
        cfg->start_coins = 3;
        cfg->remove_kinds = KONTOR_REMOVE_PLAIN_CRANES | KONTOR_REMOVE_TAVERNS;
        cfg->largest = 0;
        break;
    case KONTOR_VARIANT_JUSTIZIA:
        cfg->select_keep = 3;
        cfg->select_discard = 4;
        break;
    case KONTOR_VARIANT_INSEL:
        cfg->remove_kinds = KONTOR_REMOVE_PLAIN_CRANES;
        cfg->largest = 0;
        cfg->inner_value = 2;
        break;
    case KONTOR_VARIANT_INSEL4:
        cfg->specials = 0;
        cfg->largest = 0;
        cfg->inner_value = 2;
        break;
    case KONTOR_VARIANT_ARMUT:
    case KONTOR_VARIANT_ARMUT4:
        cfg->start_coins = 3;
        cfg->total_coins = (uint8_t)(3 * cfg->nseats); /* "die restlichen kommen aus dem Spiel" */
        cfg->bankrupt = 1;
        break;
    case KONTOR_VARIANT_SEILSCHAFTEN:
    case KONTOR_VARIANT_SEILSCHAFTEN4: cfg->tavern_vote = 1; break;
    default: break;
    }
    if (d->layout && strcmp(d->layout, "-") != 0) {
        const char *text = kontor_layout_text(d->layout);
        kontor_error e;
        /* the compiled-in layouts are tested (test_scenarios): they parse */
        if (text) kontor_layout_parse(cfg, d->layout, text, strlen(text), &e);
    }
}

static int variant_index(const char *name) {
    for (int i = 0; i < KONTOR_NVARIANTS; i++)
        if (name && strcmp(name, variants[i].name) == 0) return i;
    return -1;
}

kontor_status kontor_config_init(kontor_config *cfg, const char *variant, kontor_error *err) {
    int v = variant_index(variant);
    if (v < 0) return fail(err, KONTOR_E_INVALID, "unknown variant '%s' (kontor variants lists them)", variant ? variant : "");
    memset(cfg, 0, sizeof *cfg);
    cfg->cards = kontor_cards_builtin();
    defaults(cfg, v);
    return KONTOR_OK;
}

/* The options: name, offset of the field, width (1 or 2 bytes), range. */
typedef struct option {
    const char *name;
    size_t off;
    int wide;
    long lo, hi;
    const char *help;
} option;

#define OPT(f, lo, hi, help) {#f, offsetof(kontor_config, f), sizeof(((kontor_config *)0)->f) == 2, lo, hi, help}
static const option options[] = {
    {"edge", offsetof(kontor_config, edge_both), 0, 0, 1, "own|both: when a board edge starts to enclose areas"},
    {"declare", offsetof(kontor_config, pass_hidden), 0, 0, 1,
     "first|hidden: passes are declared before the cards are chosen (R1), or a pass is a hidden choice revealed with the cards"},
    {"pass", offsetof(kontor_config, pass_rest), 0, 0, 1,
     "free|rest: passing is always allowed (R2), or after a double pass nobody may pass next round"},
    OPT(optional_place, 0, 1, "1: a player may take a placeable card back"),
    OPT(final_draw, 0, 1, "1: the card that fills the board still draws and earns its coin"),
    OPT(largest_keepers, 0, 1, "1: only areas with a keeper compete for the largest places"),
    OPT(keeper_limit, 0, 1, "1: the 5 keepers a player has are a limit"),
    OPT(max_rounds, 1, 10000, "safety rule: the game ends after this many rounds"),
    /* at most 8: the rulebook's largest board (the game for four, Gigant;
     * docs/rules.md), and the bound KONTOR_MAX_AREAS counts on (kontor.h) */
    OPT(width, 3, KONTOR_MAX_SIDE, "board width limit"),
    OPT(height, 3, KONTOR_MAX_SIDE, "board height limit"),
    OPT(ship, 0, 1, "1: the ship is in play"),
    OPT(largest, 0, 64, "0: every area counts; N: only the N largest"),
    OPT(start_coins, 0, 20, "coins per player at the start"),
    OPT(total_coins, 0, 60, "coins in the game"),
    OPT(min_area_cards, 0, 64, "areas with fewer dock cards never count at the end"),
    {"export", offsetof(kontor_config, export_store), 0, 0, 1, "1: expansion Exportlager (any variant for two)"},
    {"events", offsetof(kontor_config, events), 0, 0, 1, "1: expansion Ereigniskarten (any variant for two; our own events)"},
    {"tiles", offsetof(kontor_config, tiles), 0, 0, 1, "1: expansion Aktionstafeln (variants for two with the water cross)"},
};
#define NOPTIONS (sizeof options / sizeof *options)

/* The options whose values are words: value 0, value 1. A number is refused
 * for them, since "pass=1" once meant what "pass=free" means now. */
static const char *const word_options[][3] = {
    {"edge", "own", "both"},
    {"declare", "first", "hidden"},
    {"pass", "free", "rest"},
};
#define NWORD_OPTIONS (sizeof word_options / sizeof *word_options)

/* 1 and *out set for a known word; 0 for a name that takes numbers; -1 for
 * a word option given something else. */
static int word_value(const char *name, const char *val, long *out) {
    for (size_t i = 0; i < NWORD_OPTIONS; i++) {
        if (strcmp(name, word_options[i][0]) != 0) continue;
        if (strcmp(val, word_options[i][1]) == 0) return *out = 0, 1;
        if (strcmp(val, word_options[i][2]) == 0) return *out = 1, 1;
        return -1;
    }
    return 0;
}

static const char *word_of(const char *name, long v) {
    for (size_t i = 0; i < NWORD_OPTIONS; i++)
        if (strcmp(name, word_options[i][0]) == 0) return word_options[i][v ? 2 : 1];
    return NULL;
}

kontor_status kontor_config_option(kontor_config *cfg, const char *opt, kontor_error *err) {
    char name[32];
    const char *eq = strchr(opt, '=');
    if (!eq || eq == opt || (size_t)(eq - opt) >= sizeof name)
        return fail(err, KONTOR_E_PARSE, "option '%s' is not of the form name=value", opt);
    memcpy(name, opt, (size_t)(eq - opt));
    name[eq - opt] = 0;
    const char *val = eq + 1;
    for (size_t i = 0; i < NOPTIONS; i++) {
        const option *o = &options[i];
        if (strcmp(o->name, name) != 0) continue;
        long v;
        int word = word_value(name, val, &v);
        if (word < 0) {
            for (size_t k = 0; k < NWORD_OPTIONS; k++)
                if (strcmp(name, word_options[k][0]) == 0)
                    return fail(err, KONTOR_E_PARSE, "option '%s' wants '%s' or '%s'", opt, word_options[k][1],
                                word_options[k][2]);
            return fail(err, KONTOR_E_PARSE, "option '%s' has no such value", opt); /* not reached */
        }
        if (!word) {
            char *end;
            v = strtol(val, &end, 10);
            if (*val == 0 || *end != 0) return fail(err, KONTOR_E_PARSE, "option '%s' wants a number", opt);
        }
        if (v < o->lo || v > o->hi) {
            int side = o->off == offsetof(kontor_config, width) || o->off == offsetof(kontor_config, height);
            return fail(err, KONTOR_E_RANGE, "option '%s' is out of range (%ld..%ld%s)", opt, o->lo, o->hi,
                        side ? ": the rulebook's largest board is 8x8" : "");
        }
        unsigned char *p = (unsigned char *)cfg + o->off;
        if (o->wide) {
            uint16_t w = (uint16_t)v;
            memcpy(p, &w, 2);
        } else {
            *p = (uint8_t)v;
        }
        if (o->off == offsetof(kontor_config, events)) {
            /* the deck: what each event card does, from data/events.txt */
            kontor_event_card ev[KONTOR_EVENTS_MAX];
            int n = v ? kontor_events_default(ev, KONTOR_EVENTS_MAX) : 0;
            cfg->nevent_cards = (uint8_t)n;
            for (int e = 0; e < KONTOR_EVENTS_MAX; e++) {
                cfg->event_action[e] = e < n ? ev[e].action : 0;
                cfg->event_arg[e] = e < n ? ev[e].arg : 0;
            }
        }
        return KONTOR_OK;
    }
    return fail(err, KONTOR_E_PARSE, "unknown option '%s'", name);
}

kontor_status kontor_config_options(kontor_config *cfg, const char *opts, kontor_error *err) {
    char buf[64];
    const char *p = opts;
    while (p && *p) {
        while (*p == ',' || *p == ' ' || *p == '\t') p++;
        if (!*p) break;
        size_t n = strcspn(p, ", \t");
        if (n >= sizeof buf) return fail(err, KONTOR_E_PARSE, "option '%.40s...' is too long", p);
        memcpy(buf, p, n);
        buf[n] = 0;
        kontor_status st = kontor_config_option(cfg, buf, err);
        if (st) return st;
        p += n;
    }
    return KONTOR_OK;
}

size_t kontor_config_describe(const kontor_config *cfg, char *buf, size_t cap) {
    kontor_config def;
    def.cards = cfg->cards;
    defaults(&def, cfg->variant);
    size_t len = 0;
    if (cap) buf[0] = 0;
    for (size_t i = 0; i < NOPTIONS; i++) {
        const option *o = &options[i];
        const unsigned char *a = (const unsigned char *)cfg + o->off;
        const unsigned char *b = (const unsigned char *)&def + o->off;
        if (memcmp(a, b, o->wide ? 2 : 1) == 0) continue;
        long v;
        if (o->wide) {
            uint16_t w;
            memcpy(&w, a, 2);
            v = w;
        } else {
            v = *a;
        }
        char item[48];
        if (word_of(o->name, v)) snprintf(item, sizeof item, "%s=%s", o->name, word_of(o->name, v));
        else snprintf(item, sizeof item, "%s=%ld", o->name, v);
        int n = snprintf(buf + len, cap > len ? cap - len : 0, "%s%s", len ? "," : "", item);
        if (n > 0) len += (size_t)n;
    }
    if (len >= cap && cap) buf[cap - 1] = 0;
    return len;
}
