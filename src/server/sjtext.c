/* sjtext.c: the game's JSON written straight into a jtext: views, legal decisions, events (sjson.h).
 *
 * The server sends every connection of a game a state message after each
 * decision. Built as a jansson tree (sjson.c) and dumped, each message cost
 * a few thousand small allocations and frees, which were most of the
 * server's instructions (docs/server.md, "Load benchmark"). Here the same
 * text is written value by value from the same data, in the same order,
 * with no allocation once the buffer has grown. sjson.c's trees stay for
 * the API (GET .../view, records, analyses) and are the reference:
 * tests/test_jtext.c checks that both write the same bytes at every
 * decision of random games of every variant, for every seat and a
 * spectator. Any change to the JSON of a game is made in both files.
 *
 * What a seat may see is not decided here: a view comes from
 * kontor_view_of(), a seat's legal decisions from its own kontor_legal(),
 * an event's card from sj_event_card(), exactly as in sjson.c.
 */
#include <string.h>

#include "server/sjson.h"

/* ---- small values ------------------------------------------------------------ */

/* Decimal digits of v into p (v of an int, as every number of a view is); the count. */
static int fmt_int(char *p, int v) {
    if (v >= 0 && v < 100) { /* nearly every number of a view: cells, cards, counts */
        if (v < 10) {
            p[0] = (char)('0' + v);
            return 1;
        }
        p[0] = (char)('0' + v / 10);
        p[1] = (char)('0' + v % 10);
        return 2;
    }
    if (v < 0 && v > -10) {
        p[0] = '-';
        p[1] = (char)('0' - v);
        return 2;
    }
    char tmp[12];
    int k = sizeof tmp;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    do {
        tmp[--k] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) tmp[--k] = '-';
    memcpy(p, tmp + k, sizeof tmp - (size_t)k);
    return (int)sizeof tmp - k;
}

/* [v0,v1,...] of n ints (n <= 6), written in one copy: the cells and goods
 * of a view are thousands of such small arrays. */
static void ints(jtext *t, const int *v, int n) {
    char b[6 * 12 + 8];
    int k = 0;
    b[k++] = '[';
    for (int i = 0; i < n; i++) {
        if (i) b[k++] = ',';
        k += fmt_int(b + k, v[i]);
    }
    b[k++] = ']';
    jt_comma(t);
    jt_raw(t, b, (size_t)k);
    t->sep = 1;
}

static void int2(jtext *t, int a, int b) { ints(t, (const int[]){a, b}, 2); }
static void int3(jtext *t, int a, int b, int c) { ints(t, (const int[]){a, b, c}, 3); }
static void xy(jtext *t, int cell) { int2(t, kontor_cell_dx(cell), kontor_cell_dy(cell)); }
/* [[a0,a1,a2],[b0,b1,b2]]: the goods of two teams */
static void goods6(jtext *t, const uint8_t g[2][3]) {
    jt_open(t, '[');
    int3(t, g[0][0], g[0][1], g[0][2]);
    int3(t, g[1][0], g[1][1], g[1][2]);
    jt_close(t, ']');
}

#define next_cell kontor_bb_next

static void cell_list(jtext *t, const kontor_bb *b) {
    jt_open(t, '[');
    for (int c = next_cell(b, 0); c >= 0; c = next_cell(b, c + 1)) xy(t, c);
    jt_close(t, ']');
}

/* A fixed board's rectangle [x0, x1, y0, y1], or null. */
static void mask_box(jtext *t, const kontor_bb *b) {
    int x0 = 99, x1 = -99, y0 = 99, y1 = -99;
    for (int c = next_cell(b, 0); c >= 0; c = next_cell(b, c + 1)) {
        int x = kontor_cell_dx(c), y = kontor_cell_dy(c);
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
    }
    if (x0 > x1) jt_null(t);
    else ints(t, (const int[]){x0, x1, y0, y1}, 4);
}

static void event_card(jtext *t, int idx) {
    const kontor_event_card *ev = sj_event_card_info(idx);
    jt_open(t, '{');
    jt_key(t, "card");
    jt_int(t, idx);
    if (ev) {
        jt_key(t, "name");
        jt_str(t, ev->name);
        jt_key(t, "text");
        jt_str(t, ev->text);
    }
    jt_close(t, '}');
}

/* The top card of a face-up pile, or null (sjson.c's pile_top). */
static void pile_top(jtext *t, const kontor_state *s, const kontor_pile *p) {
    int id = p->n ? s->pile_card[p->head] : KONTOR_MAX_CARDS;
    if (id >= KONTOR_MAX_CARDS || !((s->pub[id >> 6] >> (id & 63)) & 1)) jt_null(t);
    else jt_int(t, id);
}

/* ---- the parts of a view, in sjson.c's order ------------------------------------ */

static void board_extras(jtext *t, const kontor_state *s) {
    const kontor_config *cfg = s->cfg;
    if (cfg->fixed_board) {
        jt_key(t, "fixed");
        mask_box(t, &cfg->board_mask);
    }
    jt_key(t, "customs");
    jt_open(t, '[');
    kontor_bb houses = kontor_state_set(s, KONTOR_SET_CUSTOMS), water = kontor_state_set(s, KONTOR_SET_WATER);
    for (int c = next_cell(&houses, 0); c >= 0; c = next_cell(&houses, c + 1)) {
        /* [x, y, true if laid as water] */
        jt_open(t, '[');
        jt_int(t, kontor_cell_dx(c));
        jt_int(t, kontor_cell_dy(c));
        jt_bool(t, kontor_bb_has(&water, c));
        jt_close(t, ']');
    }
    jt_close(t, ']');
    jt_key(t, "under");
    jt_open(t, '[');
    for (int i = 0; i < s->nunder && i < KONTOR_UNDER_MAX; i++)
        int3(t, kontor_cell_dx(s->under_cell[i]), kontor_cell_dy(s->under_cell[i]), s->under_card[i]);
    jt_close(t, ']');
    if (cfg->inner_value) {
        jt_key(t, "inner");
        cell_list(t, &cfg->inner);
    }
    if (cfg->tiles) {
        static const int end[4][2] = {{0, -2}, {2, 0}, {0, 2}, {-2, 0}};
        jt_key(t, "tiles");
        jt_open(t, '[');
        for (int k = 0; k < 4; k++)
            if (s->tile_at[k] != KONTOR_NONE) {
                jt_open(t, '{');
                jt_key(t, "at");
                int2(t, end[k][0], end[k][1]);
                jt_key(t, "tile");
                jt_int(t, s->tile_at[k]);
                jt_key(t, "name");
                jt_str(t, kontor_tile_name(s->tile_at[k]));
                jt_close(t, '}');
            }
        jt_close(t, ']');
    }
}

static void seat_extras(jtext *t, const kontor_state *s, int i) {
    if (s->phase == KONTOR_PHASE_BUY) {
        uint8_t b = s->buy[i];
        jt_key(t, "buy");
        if (b == KONTOR_NONE) jt_null(t);
        else if (b == KONTOR_HIDDEN) jt_str(t, "hidden");
        else jt_int(t, b);
    }
    if (s->phase == KONTOR_PHASE_BRIBE) {
        uint8_t b = s->bribe[i];
        jt_key(t, "bribe");
        if (b == KONTOR_NONE) jt_null(t);
        else if (b == KONTOR_HIDDEN) jt_str(t, "hidden");
        else if (b == KONTOR_PASS) jt_str(t, "none");
        else xy(t, b);
    }
    if (s->phase == KONTOR_PHASE_SELECT) {
        jt_key(t, "selected");
        jt_int(t, s->selected[i]);
    }
}

static void game_extras(jtext *t, const kontor_state *s) {
    const kontor_config *cfg = s->cfg;
    if (cfg->specials == 2) {
        jt_key(t, "special_pile");
        jt_int(t, s->special_pile.n);
    }
    if (s->phase == KONTOR_PHASE_TAVERN && s->tavern_area < s->nareas) {
        jt_key(t, "tavern_area");
        jt_int(t, s->tavern_area);
    }
    if (cfg->export_store) {
        jt_key(t, "export");
        jt_open(t, '[');
        int3(t, s->export_n[0][0], s->export_n[0][1], s->export_n[0][2]);
        int3(t, s->export_n[1][0], s->export_n[1][1], s->export_n[1][2]);
        jt_close(t, ']');
    }
    if (cfg->events) {
        jt_key(t, "events_left");
        jt_int(t, s->event_n - s->event_next);
        if (s->event_cur != KONTOR_NONE) {
            jt_key(t, "event");
            event_card(t, s->event_cur);
        }
    }
    if (cfg->tiles) {
        jt_key(t, "bonus_points");
        int2(t, s->bonus_points[0], s->bonus_points[1]);
        jt_key(t, "ship_owner");
        if (s->ship_owner == KONTOR_NONE) jt_null(t);
        else jt_int(t, s->ship_owner);
        if (s->phase == KONTOR_PHASE_TILE) {
            jt_key(t, "tile");
            jt_open(t, '{');
            jt_key(t, "tile");
            jt_int(t, s->tile_cur);
            jt_key(t, "name");
            jt_str(t, kontor_tile_name(s->tile_cur));
            jt_close(t, '}');
        }
    }
}

static void open_areas(jtext *t, const kontor_state *s) {
    kontor_bb seen, gaps;
    memset(&seen, 0, sizeof seen);
    kontor_gap_cells(s, &gaps);
    sj_open_area oa;
    int c = 0;
    jt_open(t, '[');
    while (sj_open_area_next(s, &gaps, &seen, &c, &oa)) {
        sj_lead_t l;
        sj_lead(oa.goods, &l);
        jt_open(t, '{');
        jt_key(t, "leader");
        if (l.leader < 0) {
            jt_null(t);
        } else {
            jt_int(t, l.leader);
            jt_key(t, "rule");
            jt_str(t, l.rule);
            jt_key(t, "good");
            jt_int(t, l.good);
            jt_key(t, "amount");
            jt_int(t, l.amount);
            jt_key(t, "ahead");
            jt_int(t, l.ahead);
            if (strcmp(l.rule, "cycle") == 0) {
                jt_key(t, "over");
                jt_int(t, l.over);
            }
        }
        jt_key(t, "size");
        jt_int(t, oa.size);
        jt_key(t, "free");
        jt_int(t, oa.free);
        jt_key(t, "goods");
        goods6(t, oa.goods);
        jt_key(t, "cells");
        cell_list(t, &oa.cells);
        jt_close(t, '}');
    }
    jt_close(t, ']');
}

static void areas(jtext *t, const kontor_state *s) {
    uint8_t counted[KONTOR_MAX_AREAS] = {0};
    kontor_counted_areas(s, counted);
    jt_open(t, '[');
    for (int i = 0; i < s->nareas; i++) {
        const kontor_area *a = &s->area[i];
        kontor_bb cells;
        uint8_t goods[2][3];
        memset(&cells, 0, sizeof cells);
        kontor_area_at(s, a->cell, &cells, goods);
        jt_open(t, '{');
        jt_key(t, "at");
        xy(t, a->cell);
        jt_key(t, "size");
        jt_int(t, a->size);
        jt_key(t, "dist");
        jt_int(t, a->dist);
        jt_key(t, "winner");
        if (a->winner == KONTOR_NONE) jt_null(t);
        else jt_int(t, a->winner);
        jt_key(t, "keeper");
        jt_bool(t, a->keeper);
        jt_key(t, "round");
        jt_int(t, a->round);
        jt_key(t, "counts");
        jt_bool(t, counted[i]);
        jt_key(t, "goods");
        kontor_area_goods(a, goods); /* as it was scored */
        goods6(t, (const uint8_t(*)[3])goods);
        jt_key(t, "cells");
        cell_list(t, &cells);
        jt_key(t, "value");
        jt_int(t, a->value);
        if (a->out) {
            jt_key(t, "out");
            jt_bool(t, 1);
        }
        jt_close(t, '}');
    }
    jt_close(t, ']');
}

/* sjson.c's state_json, member by member. viewer: the seat whose hand is shown, -1 none. */
static void state_fields(jtext *t, const kontor_state *s, int viewer) {
    const kontor_config *cfg = s->cfg;
    jt_key(t, "variant");
    jt_str(t, kontor_variant_name(cfg->variant));
    jt_key(t, "round");
    jt_int(t, s->round);
    jt_key(t, "phase");
    jt_str(t, sj_phase_name(s->phase));
    jt_key(t, "nseats");
    jt_int(t, cfg->nseats);
    jt_key(t, "over");
    jt_bool(t, s->phase == KONTOR_PHASE_OVER);

    unsigned act = kontor_actors(s);
    jt_key(t, "actors");
    jt_open(t, '[');
    for (int i = 0; i < cfg->nseats; i++)
        if (act & (1u << i)) jt_int(t, i);
    jt_close(t, ']');
    if (act && !(act & (act - 1)) && s->phase != KONTOR_PHASE_CHOOSE && s->phase != KONTOR_PHASE_BUY &&
        s->phase != KONTOR_PHASE_BRIBE && s->phase != KONTOR_PHASE_SELECT && s->phase != KONTOR_PHASE_DECLARE) {
        int cur = 0;
        while (!(act & (1u << cur))) cur++;
        jt_key(t, "current");
        jt_int(t, cur);
    }

    jt_key(t, "board");
    jt_open(t, '{');
    jt_key(t, "w");
    jt_int(t, cfg->width);
    jt_key(t, "h");
    jt_int(t, cfg->height);
    jt_key(t, "extent");
    ints(t,
         (const int[]){kontor_cell_dx(s->minx), kontor_cell_dx(s->maxx), kontor_cell_dy(s->miny * 16),
                       kontor_cell_dy(s->maxy * 16)},
         4);
    jt_key(t, "cells");
    jt_open(t, '[');
    kontor_bb occ = kontor_state_set(s, KONTOR_SET_OCC), enclosed = kontor_state_set(s, KONTOR_SET_ENCLOSED);
    for (int c = next_cell(&occ, 0); c >= 0; c = next_cell(&occ, c + 1))
        int3(t, kontor_cell_dx(c), kontor_cell_dy(c), kontor_state_card_at(s, c));
    jt_close(t, ']');
    jt_key(t, "enclosed");
    cell_list(t, &enclosed);
    jt_key(t, "ship");
    if (s->ship_cell == KONTOR_NONE) jt_null(t);
    else xy(t, s->ship_cell);
    board_extras(t, s);
    jt_close(t, '}');

    jt_key(t, "areas");
    areas(t, s);
    jt_key(t, "open_areas");
    open_areas(t, s);

    jt_key(t, "seats");
    jt_open(t, '[');
    for (int i = 0; i < cfg->nseats; i++) {
        jt_open(t, '{');
        jt_key(t, "name");
        jt_str(t, kontor_seat_name(s, i));
        jt_key(t, "coins");
        jt_int(t, s->coins[i]);
        jt_key(t, "hand_n");
        jt_int(t, s->hand_n[i]);
        jt_key(t, "pile");
        jt_int(t, s->dock_pile[i].n);
        /* Justizia: while a seat picks, its view shows its pile sorted, not in order */
        if (!(s->phase == KONTOR_PHASE_SELECT && viewer == i)) {
            jt_key(t, "top");
            pile_top(t, s, &s->dock_pile[i]);
        }
        if (viewer == i || viewer == -2) {
            jt_key(t, "hand");
            jt_open(t, '[');
            for (int k = 0; k < s->hand_n[i]; k++) jt_int(t, s->hand[i][k]);
            jt_close(t, ']');
        }
        uint8_t ch = s->choice[i];
        jt_key(t, "choice");
        if (ch == KONTOR_NONE) jt_null(t);
        else if (ch == KONTOR_PASS) jt_str(t, "pass");
        else if (ch == KONTOR_PLAY) jt_str(t, "play");
        else if (ch == KONTOR_HIDDEN || ch >= KONTOR_UNKNOWN_BASE) jt_str(t, "hidden");
        else jt_int(t, ch);
        jt_key(t, "team");
        jt_int(t, kontor_team(s, i));
        seat_extras(t, s, i);
        jt_close(t, '}');
    }
    jt_close(t, ']');
    jt_key(t, "treasury");
    jt_int(t, s->treasury);
    jt_key(t, "keepers");
    int2(t, s->keepers[0], s->keepers[1]);
    jt_key(t, "water_pile");
    jt_int(t, s->water_pile.n);
    jt_key(t, "water_top");
    pile_top(t, s, &s->water_pile);
    jt_key(t, "no_pass");
    jt_bool(t, s->no_pass);
    int pts[2];
    kontor_points(s, pts);
    jt_key(t, "points");
    int2(t, pts[0], pts[1]);
    if (s->phase == KONTOR_PHASE_OVER) {
        jt_key(t, "score");
        int2(t, s->score[0], s->score[1]);
        jt_key(t, "winner");
        if (s->winner < 0) jt_null(t);
        else jt_int(t, s->winner);
        jt_key(t, "end");
        jt_str(t, sj_end_name(s->end_reason));
    }
    game_extras(t, s);
}

void sjt_view_fields(jtext *t, const kontor_view *v) { state_fields(t, &v->s, v->seat == KONTOR_NONE ? -1 : v->seat); }


/* ---- the card set, decisions and events ---------------------------------------- */

void sjt_cards(jtext *t, const kontor_cardset *cs) {
    jt_open(t, '[');
    for (int i = 0; i < cs->ncards; i++) {
        const kontor_card *c = &cs->card[i];
        jt_open(t, '{');
        jt_key(t, "id");
        jt_int(t, i);
        jt_key(t, "n");
        jt_int(t, c->number);
        jt_key(t, "colour");
        jt_str(t, sj_colour_name(c));
        jt_key(t, "kind");
        jt_str(t, sj_kind_name(c));
        jt_key(t, "coin");
        jt_bool(t, c->coin);
        jt_key(t, "ship");
        jt_bool(t, c->ship);
        jt_key(t, "goods");
        int3(t, c->goods[0], c->goods[1], c->goods[2]);
        jt_close(t, '}');
    }
    jt_close(t, ']');
}

void sjt_move(jtext *t, const kontor_state *s, int seat, kontor_move m) {
    int kind = KONTOR_MOVE_KIND(m), val = KONTOR_MOVE_VALUE(m);
    char text[160];
    sj_move_words(s, seat, m, text, sizeof text);
    jt_open(t, '{');
    jt_key(t, "m");
    jt_int(t, m);
    jt_key(t, "kind");
    jt_str(t, sj_move_kind(kind));
    jt_key(t, "text");
    jt_str(t, text);
    switch (kind) {
    case KONTOR_MOVE_CHOOSE:
        if (val == KONTOR_PASS) {
            jt_key(t, "pass");
            jt_bool(t, 1);
        } else {
            jt_key(t, "card");
            jt_int(t, val);
        }
        break;
    case KONTOR_MOVE_DECLARE:
        if (val == KONTOR_PASS) jt_key(t, "pass");
        else jt_key(t, "play");
        jt_bool(t, 1);
        break;
    case KONTOR_MOVE_KEEP:
    case KONTOR_MOVE_DISCARD:
        jt_key(t, "card");
        jt_int(t, val);
        break;
    case KONTOR_MOVE_BUY:
    case KONTOR_MOVE_TAVERN:
        jt_key(t, "value");
        jt_int(t, val);
        break;
    case KONTOR_MOVE_PILE:
        jt_key(t, "seat");
        jt_int(t, val);
        break;
    case KONTOR_MOVE_EXPORT:
        if (val == KONTOR_NONE) {
            jt_key(t, "none");
            jt_bool(t, 1);
        } else {
            jt_key(t, "good");
            jt_int(t, val);
        }
        break;
    default:
        if (val == KONTOR_NONE) {
            jt_key(t, "none");
            jt_bool(t, 1);
        } else {
            jt_key(t, "x");
            jt_int(t, kontor_cell_dx(val));
            jt_key(t, "y");
            jt_int(t, kontor_cell_dy(val));
        }
    }
    jt_close(t, '}');
}

void sjt_legal(jtext *t, const kontor_state *s, int seat) {
    jt_open(t, '[');
    if (seat >= 0) {
        kontor_move mv[KONTOR_MAX_MOVES];
        int n = kontor_legal(s, seat, mv);
        for (int i = 0; i < n; i++) sjt_move(t, s, seat, mv[i]);
    }
    jt_close(t, ']');
}

void sjt_event(jtext *t, const kontor_state *s, const kontor_event *e, long seq, int viewer) {
    jt_open(t, '{');
    jt_key(t, "seq");
    jt_int(t, seq);
    jt_key(t, "kind");
    jt_str(t, sj_event_name(e->kind));
    if (e->seat != KONTOR_NONE) {
        jt_key(t, "seat");
        jt_int(t, e->seat);
    }
    if (e->card != KONTOR_NONE) {
        jt_key(t, "card");
        jt_int(t, sj_event_card(s, e, viewer));
    }
    if (e->cell != KONTOR_NONE) {
        jt_key(t, "x");
        jt_int(t, kontor_cell_dx(e->cell));
        jt_key(t, "y");
        jt_int(t, kontor_cell_dy(e->cell));
    }
    jt_key(t, "a");
    jt_int(t, e->a);
    if (e->kind == KONTOR_EV_EVENT) {
        jt_key(t, "event");
        event_card(t, e->a);
    }
    if (e->kind == KONTOR_EV_TILE) {
        jt_key(t, "tile");
        jt_str(t, kontor_tile_name(e->a));
    }
    jt_close(t, '}');
}
