/* record.c: game records (.kgn, "kontor game notation"): build, write, replay.
 *
 * The text format is specified in docs/records.md; this file is its reference
 * writer, and parse.c its reader. A record stores the decisions exactly as
 * the engine took them (kontor_record.ply[]), so the writer needs no rules: it
 * groups the plies into rounds by one fact only, that every seat makes at most
 * one declaration and one choice per round and these come before the round's
 * other decisions.
 * The parser checks only the grammar and the card set; whether each decision
 * was legal is the replay's question, answered by the engine itself
 * (kontor_apply, and kontor_why_illegal for the words). Keeping the three
 * apart means a record that the engine would reject can still be read,
 * shown and reported precisely ("round 7: ..."). There is no global state;
 * errors are values in a caller-owned kontor_error.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kontor/record.h"
#include "ceilings.h"


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

static const char *seat_name(int nseats, int seat) { return record_seat_name(nseats, seat); }
static const char *const tag_seat2[2] = {"Red", "Black"};
static const char *const tag_seat4[4] = {"Red1", "Red2", "Black1", "Black2"};

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
        sb_printf(b, " export %s", v == KONTOR_NONE ? "-" : record_good_word(v));
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

/* ---- replay -------------------------------------------------------------------- */

/* "black plays 31", "red places on +1,-2", ... for an error message. */
static void describe_ply(const kontor_state *s, int seat, kontor_move m, char *buf, size_t cap) {
    const char *who = seat_name(s->cfg->nseats, seat);
    int v = KONTOR_MOVE_VALUE(m);
    char cs[8];
    switch (KONTOR_MOVE_KIND(m)) {
    case KONTOR_MOVE_DECLARE:
        snprintf(buf, cap, "%s declares %s", who, v == KONTOR_PASS ? "a pass" : "to play a card");
        break;
    case KONTOR_MOVE_CHOOSE:
        if (v == KONTOR_PASS) snprintf(buf, cap, "%s passes", who);
        else if (v < s->cfg->cards->ncards) snprintf(buf, cap, "%s plays %d", who, s->cfg->cards->card[v].number);
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
                 v < s->cfg->cards->ncards ? s->cfg->cards->card[v].number : -1);
        break;
    case KONTOR_MOVE_TAVERN: snprintf(buf, cap, "%s says the tavern's area %s", who, v ? "scores" : "does not score"); break;
    case KONTOR_MOVE_EXPORT:
        if (v == KONTOR_NONE) snprintf(buf, cap, "%s exports nothing", who);
        else snprintf(buf, cap, "%s exports %s", who, record_good_word(v));
        break;
    default:
        snprintf(buf, cap, "%s makes an unknown decision", who);
        break;
    }
}

/* err for seat's decision m that the engine refused in state s. (Out of
 * line: with it inside, the replay's loop kept its variables on the stack.) */
__attribute__((noinline, cold)) static kontor_status refuse(const kontor_state *s, int seat, kontor_move m,
                                                           kontor_error *err) {
    char what[96], why[160];
    describe_ply(s, seat, m, what, sizeof what);
    if (seat >= s->cfg->nseats) snprintf(why, sizeof why, "there is no such seat");
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

/* The replay of kontor_record_replay and kontor_record_replay_rounds. The
 * events are kept only for a callback: without one the engine is given no
 * log and writes none (its unlogged paths are the playouts', the same state). */
static kontor_status replay(const kontor_record *r, int upto, kontor_state *s, kontor_replay_cb each, void *ctx,
                            int *last_round, kontor_error *err) {
    kontor_error local;
    if (!err) err = &local;
    memset(err, 0, sizeof *err);
    kontor_status st = kontor_new_from_deal(s, &r->cfg, &r->deal, err);
    if (st) return st;
    int n = upto < 0 || upto > r->nply ? r->nply : upto, before = 0;
    kontor_log log, *lp = each ? &log : NULL;
    for (int i = 0; i < n; i++) {
        int seat = r->ply[i].seat;
        kontor_move m = r->ply[i].move;
        before = s->round;
        log.n = 0;
        if (kontor_apply(s, seat, m, lp) != KONTOR_OK) return refuse(s, seat, m, err);
        if (each) each(ctx, s, i, &log);
    }
    if (last_round) *last_round = before;
    return KONTOR_OK;
}

kontor_status kontor_record_replay(const kontor_record *r, int upto, kontor_state *s, kontor_replay_cb each, void *ctx,
                                   kontor_error *err) {
    return replay(r, upto, s, each, ctx, NULL, err);
}

kontor_status kontor_record_replay_rounds(const kontor_record *r, kontor_state *s, int *last_round,
                                          kontor_error *err) {
    return replay(r, -1, s, NULL, NULL, last_round, err);
}
