/* sjson.c: the game as JSON (see sjson.h); one function per message part.
 *
 * Cards travel by id: the card set goes once in the welcome message and views
 * name cards by id, with ids of KONTOR_UNKNOWN_BASE and up meaning "a card of
 * this class you cannot see" (the client draws its back). Cells travel as the
 * people's coordinates x, y relative to the harbour centre (kontor.h), the
 * same numbers the record uses, so the log in the browser and the record
 * read alike.
 */
#include <string.h>

#include "server/sjson.h"

static const char *kind_names[] = {"goods", "crane", "tavern", "water", "centre", "flood", "bridge", "customs"};
static const char *colour_names[] = {"red", "black", "neutral"};
static const char *phase_names[] = {"choose", "ship", "remove", "place", "over"};
static const char *end_names[] = {"none", "full", "max_rounds", "stuck"};
static const char *event_names[] = {"?",     "round", "pass",  "reveal", "tax",  "takeback", "sitout",
                                    "ship",  "remove", "place", "score", "draw", "coin",     "end"};

const char *sj_move_kind(int kind) {
    switch (kind) {
    case KONTOR_MOVE_CHOOSE: return "choose";
    case KONTOR_MOVE_SHIP: return "ship";
    case KONTOR_MOVE_REMOVE: return "remove";
    case KONTOR_MOVE_PLACE: return "place";
    default: return "?";
    }
}

json_t *sj_cards(const kontor_cardset *cs) {
    json_t *a = json_array();
    for (int i = 0; i < cs->ncards; i++) {
        const kontor_card *c = &cs->card[i];
        json_array_append_new(
            a, json_pack("{s:i, s:i, s:s, s:s, s:b, s:b, s:[i,i,i]}", "id", i, "n", c->number, "colour",
                         colour_names[c->colour < 3 ? c->colour : 2], "kind", c->kind < 8 ? kind_names[c->kind] : "?",
                         "coin", c->coin, "ship", c->ship, "goods", c->goods[0], c->goods[1], c->goods[2]));
    }
    return a;
}

static json_t *xy(int cell) { return json_pack("[i,i]", kontor_cell_dx(cell), kontor_cell_dy(cell)); }

static int bb_has(const kontor_bb *b, int cell) { return (int)((b->w[cell >> 6] >> (cell & 63)) & 1); }

/* The body common to views and full states. viewer: seat whose hand is
 * shown, -1 for none, -2 for every hand. */
static json_t *state_json(const kontor_state *s, int viewer) {
    const kontor_config *cfg = &s->cfg;
    json_t *o = json_object();
    json_object_set_new(o, "variant", json_string(kontor_variant_name(cfg->variant)));
    json_object_set_new(o, "round", json_integer(s->round));
    json_object_set_new(o, "phase", json_string(s->phase <= KONTOR_PHASE_OVER ? phase_names[s->phase] : "?"));
    json_object_set_new(o, "over", json_boolean(s->phase == KONTOR_PHASE_OVER));

    unsigned act = kontor_actors(s);
    json_t *actors = json_array();
    for (int i = 0; i < cfg->nseats; i++)
        if (act & (1u << i)) json_array_append_new(actors, json_integer(i));
    json_object_set_new(o, "actors", actors);
    if (s->phase != KONTOR_PHASE_CHOOSE && s->phase != KONTOR_PHASE_OVER)
        json_object_set_new(o, "current", json_integer(kontor_current(s)));

    /* board */
    json_t *board = json_object();
    json_object_set_new(board, "w", json_integer(cfg->width));
    json_object_set_new(board, "h", json_integer(cfg->height));
    json_object_set_new(board, "extent", json_pack("[i,i,i,i]", kontor_cell_dx(s->minx), kontor_cell_dx(s->maxx),
                                                   kontor_cell_dy(s->miny * 16), kontor_cell_dy(s->maxy * 16)));
    json_t *cells = json_array();
    for (int c = 0; c < KONTOR_CELLS; c++)
        if (bb_has(&s->occ, c))
            json_array_append_new(cells, json_pack("[i,i,i]", kontor_cell_dx(c), kontor_cell_dy(c), s->cell_card[c]));
    json_object_set_new(board, "cells", cells);
    json_t *enc = json_array();
    for (int c = 0; c < KONTOR_CELLS; c++)
        if (bb_has(&s->enclosed, c)) json_array_append_new(enc, xy(c));
    json_object_set_new(board, "enclosed", enc);
    json_object_set_new(board, "ship", s->ship_cell == KONTOR_NONE ? json_null() : xy(s->ship_cell));
    json_object_set_new(o, "board", board);

    /* areas, each with its cells so the client can tint them */
    json_t *areas = json_array();
    uint8_t counted[KONTOR_MAX_AREAS] = {0};
    kontor_counted_areas(s, counted);
    for (int i = 0; i < s->nareas; i++) {
        const kontor_area *a = &s->area[i];
        kontor_bb cellsbb;
        uint8_t goods[2][3];
        memset(&cellsbb, 0, sizeof cellsbb);
        kontor_area_at(s, a->cell, &cellsbb, goods);
        json_t *ac = json_array();
        for (int c = 0; c < KONTOR_CELLS; c++)
            if (bb_has(&cellsbb, c)) json_array_append_new(ac, xy(c));
        json_array_append_new(
            areas, json_pack("{s:o, s:i, s:i, s:o, s:b, s:i, s:b, s:[[i,i,i],[i,i,i]], s:o}", "at", xy(a->cell), "size",
                             a->size, "dist", a->dist, "winner",
                             a->winner == KONTOR_NONE ? json_null() : json_integer(a->winner), "keeper", a->keeper,
                             "round", a->round, "counts", counted[i], "goods", a->goods[0][0], a->goods[0][1],
                             a->goods[0][2], a->goods[1][0], a->goods[1][1], a->goods[1][2], "cells", ac));
    }
    json_object_set_new(o, "areas", areas);

    /* seats */
    json_t *seats = json_array();
    for (int i = 0; i < cfg->nseats; i++) {
        json_t *so = json_object();
        json_object_set_new(so, "name", json_string(kontor_seat_name(s, i)));
        json_object_set_new(so, "coins", json_integer(s->coins[i]));
        json_object_set_new(so, "hand_n", json_integer(s->hand_n[i]));
        json_object_set_new(so, "pile", json_integer(s->dock_pile[i].n));
        if (viewer == i || viewer == -2) {
            json_t *h = json_array();
            for (int k = 0; k < s->hand_n[i]; k++) json_array_append_new(h, json_integer(s->hand[i][k]));
            json_object_set_new(so, "hand", h);
        }
        uint8_t ch = s->choice[i];
        json_t *cj;
        if (ch == KONTOR_NONE) cj = json_null();
        else if (ch == KONTOR_PASS) cj = json_string("pass");
        else if (ch == KONTOR_HIDDEN || ch >= KONTOR_UNKNOWN_BASE) cj = json_string("hidden");
        else cj = json_integer(ch);
        json_object_set_new(so, "choice", cj);
        json_array_append_new(seats, so);
    }
    json_object_set_new(o, "seats", seats);
    json_object_set_new(o, "treasury", json_integer(s->treasury));
    json_object_set_new(o, "keepers", json_pack("[i,i]", s->keepers[0], s->keepers[1]));
    json_object_set_new(o, "water_pile", json_integer(s->water_pile.n));
    json_object_set_new(o, "no_pass", json_boolean(s->no_pass));
    int pts[2];
    kontor_points(s, pts);
    json_object_set_new(o, "points", json_pack("[i,i]", pts[0], pts[1]));
    if (s->phase == KONTOR_PHASE_OVER) {
        json_object_set_new(o, "score", json_pack("[i,i]", s->score[0], s->score[1]));
        json_object_set_new(o, "winner", s->winner < 0 ? json_null() : json_integer(s->winner));
        json_object_set_new(o, "end", json_string(s->end_reason < 4 ? end_names[s->end_reason] : "?"));
    }
    return o;
}

json_t *sj_view(const kontor_view *v) {
    return state_json(&v->s, v->seat == KONTOR_NONE ? -1 : v->seat);
}

json_t *sj_state_full(const kontor_state *s) { return state_json(s, -2); }

json_t *sj_legal(const kontor_state *s, int seat) {
    json_t *a = json_array();
    if (seat < 0) return a;
    kontor_move mv[KONTOR_MAX_MOVES];
    int n = kontor_legal(s, seat, mv);
    for (int i = 0; i < n; i++) {
        int kind = KONTOR_MOVE_KIND(mv[i]), val = KONTOR_MOVE_VALUE(mv[i]);
        json_t *o = json_pack("{s:i, s:s}", "m", mv[i], "kind", sj_move_kind(kind));
        if (kind == KONTOR_MOVE_CHOOSE) {
            if (val == KONTOR_PASS) json_object_set_new(o, "pass", json_true());
            else json_object_set_new(o, "card", json_integer(val));
        } else if (val == KONTOR_NONE) {
            json_object_set_new(o, "none", json_true());
        } else {
            json_object_set_new(o, "x", json_integer(kontor_cell_dx(val)));
            json_object_set_new(o, "y", json_integer(kontor_cell_dy(val)));
        }
        json_array_append_new(a, o);
    }
    return a;
}

json_t *sj_event(const kontor_state *s, const kontor_event *e, long seq) {
    (void)s;
    json_t *o = json_pack("{s:i, s:s}", "seq", (json_int_t)seq, "kind", e->kind < 14 ? event_names[e->kind] : "?");
    if (e->seat != KONTOR_NONE) json_object_set_new(o, "seat", json_integer(e->seat));
    if (e->card != KONTOR_NONE) json_object_set_new(o, "card", json_integer(e->card));
    if (e->cell != KONTOR_NONE) {
        json_object_set_new(o, "x", json_integer(kontor_cell_dx(e->cell)));
        json_object_set_new(o, "y", json_integer(kontor_cell_dy(e->cell)));
    }
    json_object_set_new(o, "a", json_integer(e->a));
    return o;
}
