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

static const char *const variant_names[] = {"basic", "advanced", "four", "specials"};

const char *kontor_variant_name(int variant) {
    if (variant < 0 || variant >= (int)(sizeof variant_names / sizeof *variant_names)) return "?";
    return variant_names[variant];
}

static void defaults(kontor_config *cfg, int variant) {
    kontor_cardset cards = cfg->cards;
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
    if (variant == KONTOR_VARIANT_SPECIALS) cfg->specials = 2; /* scenario: the special cards for two */
}

kontor_status kontor_config_init(kontor_config *cfg, const char *variant, kontor_error *err) {
    int v = -1;
    for (int i = 0; i < (int)(sizeof variant_names / sizeof *variant_names); i++)
        if (variant && strcmp(variant, variant_names[i]) == 0) v = i;
    if (v < 0) return fail(err, KONTOR_E_INVALID, "unknown variant '%s' (known: basic, advanced, four, specials)", variant ? variant : "");
    memset(cfg, 0, sizeof *cfg);
    kontor_cards_default(&cfg->cards);
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
    {"pass", offsetof(kontor_config, pass_rule), 0, 0, 1, "rest|free: after a double pass nobody may pass next round, or passing is always allowed"},
    OPT(optional_place, 0, 1, "1: a player may take a placeable card back"),
    OPT(final_draw, 0, 1, "1: the card that fills the board still draws and earns its coin"),
    OPT(largest_keepers, 0, 1, "1: only areas with a keeper compete for the largest places"),
    OPT(keeper_limit, 0, 1, "1: the 5 keepers a player has are a limit"),
    OPT(max_rounds, 1, 10000, "safety rule: the game ends after this many rounds"),
    OPT(width, 3, 12, "board width limit"),
    OPT(height, 3, 12, "board height limit"),
    OPT(ship, 0, 1, "1: the ship is in play"),
    OPT(largest, 0, 64, "0: every area counts; N: only the N largest"),
    OPT(start_coins, 0, 20, "coins per player at the start"),
    OPT(total_coins, 0, 60, "coins in the game"),
    OPT(min_area_cards, 0, 64, "areas with fewer dock cards never count at the end"),
};
#define NOPTIONS (sizeof options / sizeof *options)

static int word_value(const char *name, const char *val, long *out) {
    if (strcmp(name, "edge") == 0) {
        if (strcmp(val, "own") == 0) return *out = 0, 1;
        if (strcmp(val, "both") == 0) return *out = 1, 1;
    }
    if (strcmp(name, "pass") == 0) {
        if (strcmp(val, "rest") == 0) return *out = 0, 1;
        if (strcmp(val, "free") == 0) return *out = 1, 1;
    }
    return 0;
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
        if (!word_value(name, val, &v)) {
            char *end;
            v = strtol(val, &end, 10);
            if (*val == 0 || *end != 0) return fail(err, KONTOR_E_PARSE, "option '%s' wants a number", opt);
        }
        if (v < o->lo || v > o->hi) return fail(err, KONTOR_E_RANGE, "option '%s' is out of range", opt);
        unsigned char *p = (unsigned char *)cfg + o->off;
        if (o->wide) {
            uint16_t w = (uint16_t)v;
            memcpy(p, &w, 2);
        } else {
            *p = (uint8_t)v;
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
        if (strcmp(o->name, "edge") == 0) snprintf(item, sizeof item, "edge=%s", v ? "both" : "own");
        else if (strcmp(o->name, "pass") == 0) snprintf(item, sizeof item, "pass=%s", v ? "free" : "rest");
        else snprintf(item, sizeof item, "%s=%ld", o->name, v);
        int n = snprintf(buf + len, cap > len ? cap - len : 0, "%s%s", len ? "," : "", item);
        if (n > 0) len += (size_t)n;
    }
    if (len >= cap && cap) buf[cap - 1] = 0;
    return len;
}
