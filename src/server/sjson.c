/* sjson.c: the game as JSON (see sjson.h); one function per message part.
 *
 * Cards travel by id: the card set goes once in the welcome message and views
 * name cards by id, with ids of KONTOR_UNKNOWN_BASE and up meaning "a card of
 * this class you cannot see" (the client draws its back). Cells travel as the
 * people's coordinates x, y relative to the harbour centre (kontor.h), the
 * same numbers the record uses, so the log in the browser and the record
 * read alike.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "server/sjson.h"

static const char *kind_names[] = {"goods", "crane", "tavern", "water", "centre", "flood", "bridge", "customs"};
static const char *colour_names[] = {"red", "black", "neutral"};
/* Names by enum value (kontor.h); the _Static_asserts keep them in step with the engine. */
static const char *phase_names[] = {"choose", "ship", "remove", "place",  "over",   "buy",  "pile",
                                    "bribe",  "select", "tavern", "export", "event", "tile", "declare"};
_Static_assert(sizeof phase_names / sizeof *phase_names == KONTOR_PHASE_DECLARE + 1, "a phase without a name");
static const char *end_names[] = {"none", "full", "max_rounds", "stuck", "row", "bankrupt"};
_Static_assert(sizeof end_names / sizeof *end_names == KONTOR_END_BANKRUPT + 1, "an end without a name");
static const char *event_names[] = {"?",      "round",  "pass",  "reveal", "tax",       "takeback", "sitout", "ship",
                                    "remove", "place",  "score", "draw",   "coin",      "end",      "buy",    "overbuild",
                                    "bribe",  "select", "tavern", "export", "event",    "tile",     "play"};
_Static_assert(sizeof event_names / sizeof *event_names == KONTOR_EV_PLAY + 1, "an event without a name");
static const char *move_names[] = {"?",    "choose", "ship",   "remove",  "place",  "buy",   "pile", "place_water",
                                   "bribe", "keep",  "discard", "tavern", "export", "event", "tile", "declare"};
_Static_assert(sizeof move_names / sizeof *move_names == KONTOR_MOVE_DECLARE + 1, "a move kind without a name");
#define NAME_OF(tab, i) ((unsigned)(i) < sizeof tab / sizeof *tab ? tab[i] : "?")

const char *sj_move_kind(int kind) { return kind > 0 ? NAME_OF(move_names, kind) : "?"; }
const char *sj_colour_name(const kontor_card *c) { return colour_names[c->colour < 3 ? c->colour : 2]; }
const char *sj_kind_name(const kontor_card *c) { return c->kind < 8 ? kind_names[c->kind] : "?"; }
const char *sj_phase_name(int phase) { return NAME_OF(phase_names, phase); }
const char *sj_end_name(int reason) { return NAME_OF(end_names, reason); }
const char *sj_event_name(int kind) { return NAME_OF(event_names, kind); }

json_t *sj_cards(const kontor_cardset *cs) {
    json_t *a = json_array();
    for (int i = 0; i < cs->ncards; i++) {
        const kontor_card *c = &cs->card[i];
        json_array_append_new(a, json_pack("{s:i, s:i, s:s, s:s, s:b, s:b, s:[i,i,i]}", "id", i, "n", c->number, "colour",
                                           sj_colour_name(c), "kind", sj_kind_name(c), "coin", c->coin, "ship", c->ship,
                                           "goods", c->goods[0], c->goods[1], c->goods[2]));
    }
    return a;
}

/* [a, b] and [a, b, c], built directly: these are the most frequent arrays
 * of a view (a cell each), and json_pack parses its format on every call. */
static json_t *ints2(int a, int b) {
    json_t *o = json_array();
    json_array_append_new(o, json_integer(a));
    json_array_append_new(o, json_integer(b));
    return o;
}
static json_t *ints3(int a, int b, int c) {
    json_t *o = ints2(a, b);
    json_array_append_new(o, json_integer(c));
    return o;
}
static json_t *xy(int cell) { return ints2(kontor_cell_dx(cell), kontor_cell_dy(cell)); }

static json_t *cell_list(const kontor_bb *b) {
    json_t *a = json_array();
    for (int c = kontor_bb_next(b, 0); c >= 0; c = kontor_bb_next(b, c + 1)) json_array_append_new(a, xy(c));
    return a;
}

/* A fixed board's rectangle [x0, x1, y0, y1] (Canale Grande, Tic Tac Toe). */
static json_t *mask_box(const kontor_bb *b) {
    int x0 = 99, x1 = -99, y0 = 99, y1 = -99;
    for (int c = kontor_bb_next(b, 0); c >= 0; c = kontor_bb_next(b, c + 1)) {
        int x = kontor_cell_dx(c), y = kontor_cell_dy(c);
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
    }
    return x0 > x1 ? json_null() : json_pack("[i,i,i,i]", x0, x1, y0, y1);
}

/* The built-in deck, parsed once for the process (every server thread reads it). */
static kontor_event_card deck[KONTOR_EVENTS_MAX];
static int deck_n;
static pthread_once_t deck_once = PTHREAD_ONCE_INIT;
static void deck_load(void) { deck_n = kontor_events_default(deck, KONTOR_EVENTS_MAX); }

const kontor_event_card *sj_event_card_info(int idx) {
    pthread_once(&deck_once, deck_load);
    return idx >= 0 && idx < deck_n ? &deck[idx] : NULL;
}

/* Event card idx of the built-in deck (data/events.txt, the one every server game uses). */
static json_t *event_card_json(int idx) {
    const kontor_event_card *ev = sj_event_card_info(idx);
    if (!ev) return json_pack("{s:i}", "card", idx);
    return json_pack("{s:i, s:s, s:s}", "card", idx, "name", ev->name, "text", ev->text);
}

/* What the special cards, the scenarios and the action tiles add to the board. */
static void board_extras(const kontor_state *s, json_t *board) {
    const kontor_config *cfg = s->cfg;
    if (cfg->fixed_board) json_object_set_new(board, "fixed", mask_box(&cfg->board_mask));
    /* customs houses: [x, y, 1 if laid as water] */
    json_t *customs = json_array();
    kontor_bb houses = kontor_state_set(s, KONTOR_SET_CUSTOMS), water = kontor_state_set(s, KONTOR_SET_WATER);
    for (int c = kontor_bb_next(&houses, 0); c >= 0; c = kontor_bb_next(&houses, c + 1))
        json_array_append_new(customs,
                              json_pack("[i,i,b]", kontor_cell_dx(c), kontor_cell_dy(c), kontor_bb_has(&water, c)));
    json_object_set_new(board, "customs", customs);
    /* the cards a flood or a bridge lies on */
    json_t *under = json_array();
    for (int i = 0; i < s->nunder && i < KONTOR_UNDER_MAX; i++)
        json_array_append_new(under, json_pack("[i,i,i]", kontor_cell_dx(s->under_cell[i]), kontor_cell_dy(s->under_cell[i]),
                                               s->under_card[i]));
    json_object_set_new(board, "under", under);
    if (cfg->inner_value) json_object_set_new(board, "inner", cell_list(&cfg->inner));
    if (cfg->tiles) {
        /* the N, E, S, W ends of the water cross (kontor_layout_cross) */
        static const int end[4][2] = {{0, -2}, {2, 0}, {0, 2}, {-2, 0}};
        json_t *tiles = json_array();
        for (int k = 0; k < 4; k++)
            if (s->tile_at[k] != KONTOR_NONE)
                json_array_append_new(tiles, json_pack("{s:[i,i], s:i, s:s}", "at", end[k][0], end[k][1], "tile",
                                                       s->tile_at[k], "name", kontor_tile_name(s->tile_at[k])));
        json_object_set_new(board, "tiles", tiles);
    }
}

/* A seat's part in the hidden decisions before a round: what it decided,
 * "hidden" for another seat's decision (the view masks it), null while
 * undecided. */
static void seat_extras(const kontor_state *s, int i, json_t *so) {
    if (s->phase == KONTOR_PHASE_BUY) {
        uint8_t b = s->buy[i];
        json_object_set_new(so, "buy", b == KONTOR_NONE ? json_null() : b == KONTOR_HIDDEN ? json_string("hidden")
                                                                                        : json_integer(b));
    }
    if (s->phase == KONTOR_PHASE_BRIBE) {
        uint8_t b = s->bribe[i];
        json_object_set_new(so, "bribe", b == KONTOR_NONE     ? json_null()
                                         : b == KONTOR_HIDDEN ? json_string("hidden")
                                         : b == KONTOR_PASS   ? json_string("none")
                                                              : xy(b));
    }
    if (s->phase == KONTOR_PHASE_SELECT) json_object_set_new(so, "selected", json_integer(s->selected[i]));
}

/* The expansions' public state: export stores, the event, tiles won. */
static void game_extras(const kontor_state *s, json_t *o) {
    const kontor_config *cfg = s->cfg;
    if (cfg->specials == 2) json_object_set_new(o, "special_pile", json_integer(s->special_pile.n));
    /* Alte Seilschaften: the area (index into areas) whose tavern's owner decides now */
    if (s->phase == KONTOR_PHASE_TAVERN && s->tavern_area < s->nareas)
        json_object_set_new(o, "tavern_area", json_integer(s->tavern_area));
    if (cfg->export_store)
        json_object_set_new(o, "export", json_pack("[[i,i,i],[i,i,i]]", s->export_n[0][0], s->export_n[0][1],
                                                   s->export_n[0][2], s->export_n[1][0], s->export_n[1][1],
                                                   s->export_n[1][2]));
    if (cfg->events) {
        json_object_set_new(o, "events_left", json_integer(s->event_n - s->event_next));
        if (s->event_cur != KONTOR_NONE) json_object_set_new(o, "event", event_card_json(s->event_cur));
    }
    if (cfg->tiles) {
        json_object_set_new(o, "bonus_points", json_pack("[i,i]", s->bonus_points[0], s->bonus_points[1]));
        json_object_set_new(o, "ship_owner", s->ship_owner == KONTOR_NONE ? json_null() : json_integer(s->ship_owner));
        if (s->phase == KONTOR_PHASE_TILE)
            json_object_set_new(o, "tile", json_pack("{s:i, s:s}", "tile", s->tile_cur, "name", kontor_tile_name(s->tile_cur)));
    }
}

/* The top card of a face-up pile (every dock pile and the water pile lie
 * face up, so the top is public: the state keeps it in pub), or null when
 * the pile is empty or its top is not public. */
static json_t *pile_top(const kontor_state *s, const kontor_pile *p) {
    if (!p->n) return json_null();
    int id = s->pile_card[p->head];
    if (id >= KONTOR_MAX_CARDS || !((s->pub[id >> 6] >> (id & 63)) & 1)) return json_null();
    return json_integer(id);
}

/* Who leads an open area, and by what: the rule of kontor_compare_goods
 * that decides (the largest superiority in one good; else being ahead in
 * more goods; else the cycle wine > spice > tea > wine), said for the reader. */
void sj_lead(const uint8_t g[2][3], sj_lead_t *out) {
    int max[2] = {0, 0}, cnt[2] = {0, 0}, lead[2] = {-1, -1};
    for (int k = 0; k < 3; k++) {
        int d = (int)g[0][k] - (int)g[1][k], who = d > 0 ? 0 : 1;
        if (d < 0) d = -d;
        if (d == 0) continue;
        cnt[who]++;
        if (d > max[who]) max[who] = d, lead[who] = k;
    }
    memset(out, 0, sizeof *out);
    out->over = -1;
    int w = out->leader = kontor_compare_goods(g);
    if (w < 0) return;
    out->rule = max[0] != max[1] ? "superiority" : cnt[0] != cnt[1] ? "more" : "cycle";
    out->good = lead[w];
    out->amount = max[w];
    out->ahead = cnt[w];
    if (strcmp(out->rule, "cycle") == 0) out->over = lead[1 - w];
}

static json_t *lead_json(const uint8_t g[2][3]) {
    sj_lead_t l;
    sj_lead(g, &l);
    if (l.leader < 0) return json_pack("{s:n}", "leader");
    json_t *o = json_pack("{s:i, s:s, s:i, s:i, s:i}", "leader", l.leader, "rule", l.rule, "good", l.good, "amount",
                          l.amount, "ahead", l.ahead);
    if (strcmp(l.rule, "cycle") == 0) json_object_set_new(o, "over", json_integer(l.over));
    return o;
}

/* The areas not yet enclosed: their cells, warehouses, who leads and by
 * what, and how many free cells still border them. Public knowledge: the
 * board and its warehouses. */
int sj_open_area_next(const kontor_state *s, const kontor_bb *gaps, kontor_bb *seen, int *cell, sj_open_area *a) {
    /* the first dock cell not enclosed, and not in an area already listed */
    kontor_bb dock = kontor_state_set(s, KONTOR_SET_DOCK), enclosed = kontor_state_set(s, KONTOR_SET_ENCLOSED);
    int c = *cell < KONTOR_CELLS ? kontor_bb_next(&dock, *cell) : -1;
    while (c >= 0 && (kontor_bb_has(&enclosed, c) || kontor_bb_has(seen, c))) c = kontor_bb_next(&dock, c + 1);
    if (c < 0) {
        *cell = KONTOR_CELLS;
        return 0;
    }
    a->size = kontor_area_at(s, c, &a->cells, a->goods);
    kontor_bb next; /* the cells beside the area */
    memset(&next, 0, sizeof next);
    for (int d = kontor_bb_next(&a->cells, 0); d >= 0; d = kontor_bb_next(&a->cells, d + 1)) {
        kontor_bb_add(seen, d);
        int nb[4] = {(d & 15) > 0 ? d - 1 : -1, (d & 15) < 15 ? d + 1 : -1, d >= 16 ? d - 16 : -1,
                     d < KONTOR_CELLS - 16 ? d + 16 : -1};
        for (int k = 0; k < 4; k++)
            if (nb[k] >= 0) kontor_bb_add(&next, nb[k]);
    }
    a->free = 0; /* the free cells among them */
    for (int d = kontor_bb_next(&next, 0); d >= 0; d = kontor_bb_next(&next, d + 1)) a->free += kontor_bb_has(gaps, d);
    *cell = c + 1;
    return 1;
}

static json_t *open_areas_json(const kontor_state *s) {
    json_t *out = json_array();
    kontor_bb seen, gaps;
    memset(&seen, 0, sizeof seen);
    kontor_gap_cells(s, &gaps);
    sj_open_area oa;
    int c = 0;
    while (sj_open_area_next(s, &gaps, &seen, &c, &oa)) {
        json_t *a = lead_json(oa.goods);
        json_object_set_new(a, "size", json_integer(oa.size));
        json_object_set_new(a, "free", json_integer(oa.free));
        json_object_set_new(a, "goods", json_pack("[[i,i,i],[i,i,i]]", oa.goods[0][0], oa.goods[0][1], oa.goods[0][2],
                                                  oa.goods[1][0], oa.goods[1][1], oa.goods[1][2]));
        json_object_set_new(a, "cells", cell_list(&oa.cells));
        json_array_append_new(out, a);
    }
    return out;
}

/* The body common to views and full states. viewer: seat whose hand is
 * shown, -1 for none, -2 for every hand. */
static json_t *state_json(const kontor_state *s, int viewer) {
    const kontor_config *cfg = s->cfg;
    json_t *o = json_object();
    json_object_set_new(o, "variant", json_string(kontor_variant_name(cfg->variant)));
    json_object_set_new(o, "round", json_integer(s->round));
    json_object_set_new(o, "phase", json_string(NAME_OF(phase_names, s->phase)));
    json_object_set_new(o, "nseats", json_integer(cfg->nseats));
    json_object_set_new(o, "over", json_boolean(s->phase == KONTOR_PHASE_OVER));

    unsigned act = kontor_actors(s);
    json_t *actors = json_array();
    for (int i = 0; i < cfg->nseats; i++)
        if (act & (1u << i)) json_array_append_new(actors, json_integer(i));
    json_object_set_new(o, "actors", actors);
    /* the one seat to act, in the phases where seats act in turn */
    if (act && !(act & (act - 1)) && s->phase != KONTOR_PHASE_CHOOSE && s->phase != KONTOR_PHASE_BUY &&
        s->phase != KONTOR_PHASE_BRIBE && s->phase != KONTOR_PHASE_SELECT && s->phase != KONTOR_PHASE_DECLARE) {
        int cur = 0;
        while (!(act & (1u << cur))) cur++;
        json_object_set_new(o, "current", json_integer(cur));
    }

    /* board */
    json_t *board = json_object();
    json_object_set_new(board, "w", json_integer(cfg->width));
    json_object_set_new(board, "h", json_integer(cfg->height));
    json_object_set_new(board, "extent", json_pack("[i,i,i,i]", kontor_cell_dx(s->minx), kontor_cell_dx(s->maxx),
                                                   kontor_cell_dy(s->miny * 16), kontor_cell_dy(s->maxy * 16)));
    json_t *cells = json_array();
    kontor_bb occ = kontor_state_set(s, KONTOR_SET_OCC), enclosed = kontor_state_set(s, KONTOR_SET_ENCLOSED);
    for (int c = kontor_bb_next(&occ, 0); c >= 0; c = kontor_bb_next(&occ, c + 1))
        json_array_append_new(cells, ints3(kontor_cell_dx(c), kontor_cell_dy(c), kontor_state_card_at(s, c)));
    json_object_set_new(board, "cells", cells);
    json_object_set_new(board, "enclosed", cell_list(&enclosed));
    json_object_set_new(board, "ship", s->ship_cell == KONTOR_NONE ? json_null() : xy(s->ship_cell));
    board_extras(s, board);
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
        kontor_area_goods(a, goods); /* as it was scored */
        json_t *ac = cell_list(&cellsbb);
        json_array_append_new(
            areas, json_pack("{s:o, s:i, s:i, s:o, s:b, s:i, s:b, s:[[i,i,i],[i,i,i]], s:o}", "at", xy(a->cell), "size",
                             a->size, "dist", a->dist, "winner",
                             a->winner == KONTOR_NONE ? json_null() : json_integer(a->winner), "keeper", a->keeper,
                             "round", a->round, "counts", counted[i], "goods", goods[0][0], goods[0][1],
                             goods[0][2], goods[1][0], goods[1][1], goods[1][2], "cells", ac));
        /* its points (1, +1 per customs house; the scenarios' values) and Alte Seilschaften's verdict */
        json_t *last = json_array_get(areas, json_array_size(areas) - 1);
        json_object_set_new(last, "value", json_integer(a->value));
        if (a->out) json_object_set_new(last, "out", json_true());
    }
    json_object_set_new(o, "areas", areas);
    json_object_set_new(o, "open_areas", open_areas_json(s));

    /* seats */
    json_t *seats = json_array();
    for (int i = 0; i < cfg->nseats; i++) {
        json_t *so = json_object();
        json_object_set_new(so, "name", json_string(kontor_seat_name(s, i)));
        json_object_set_new(so, "coins", json_integer(s->coins[i]));
        json_object_set_new(so, "hand_n", json_integer(s->hand_n[i]));
        json_object_set_new(so, "pile", json_integer(s->dock_pile[i].n));
        /* Justizia: while a seat picks, its view shows its pile sorted, not in order */
        if (!(s->phase == KONTOR_PHASE_SELECT && viewer == i))
            json_object_set_new(so, "top", pile_top(s, &s->dock_pile[i]));
        if (viewer == i || viewer == -2) {
            json_t *h = json_array();
            for (int k = 0; k < s->hand_n[i]; k++) json_array_append_new(h, json_integer(s->hand[i][k]));
            json_object_set_new(so, "hand", h);
        }
        uint8_t ch = s->choice[i];
        json_t *cj;
        if (ch == KONTOR_NONE) cj = json_null();
        else if (ch == KONTOR_PASS) cj = json_string("pass");
        else if (ch == KONTOR_PLAY) cj = json_string("play"); /* the seat's own declaration (R1) */
        else if (ch == KONTOR_HIDDEN || ch >= KONTOR_UNKNOWN_BASE) cj = json_string("hidden");
        else cj = json_integer(ch);
        json_object_set_new(so, "choice", cj);
        json_object_set_new(so, "team", json_integer(kontor_team(s, i)));
        seat_extras(s, i, so);
        json_array_append_new(seats, so);
    }
    json_object_set_new(o, "seats", seats);
    json_object_set_new(o, "treasury", json_integer(s->treasury));
    json_object_set_new(o, "keepers", json_pack("[i,i]", s->keepers[0], s->keepers[1]));
    json_object_set_new(o, "water_pile", json_integer(s->water_pile.n));
    json_object_set_new(o, "water_top", pile_top(s, &s->water_pile));
    json_object_set_new(o, "no_pass", json_boolean(s->no_pass));
    int pts[2];
    kontor_points(s, pts);
    json_object_set_new(o, "points", json_pack("[i,i]", pts[0], pts[1]));
    if (s->phase == KONTOR_PHASE_OVER) {
        json_object_set_new(o, "score", json_pack("[i,i]", s->score[0], s->score[1]));
        json_object_set_new(o, "winner", s->winner < 0 ? json_null() : json_integer(s->winner));
        json_object_set_new(o, "end", json_string(NAME_OF(end_names, s->end_reason)));
    }
    game_extras(s, o);
    return o;
}

json_t *sj_view(const kontor_view *v) {
    return state_json(&v->s, v->seat == KONTOR_NONE ? -1 : v->seat);
}

json_t *sj_state_full(const kontor_state *s) { return state_json(s, -2); }

void sj_move_words(const kontor_state *s, int seat, kontor_move m, char *text, size_t cap) {
    kontor_move_text(s, seat, m, text, cap);
#ifdef KONTOR_TEST_LEAKY
    /* the test build build/tests/kontor-leaky (Makefile) names another
     * seat's first hand card in the words, for tests/test_leak.c to catch */
    int q = (seat + 1) % s->cfg->nseats;
    if (s->hand_n[q] && s->hand[q][0] < s->cfg->cards->ncards)
        snprintf(text + strlen(text), cap - strlen(text), ", beside card %d", s->cfg->cards->card[s->hand[q][0]].number);
#endif
}

json_t *sj_move(const kontor_state *s, int seat, kontor_move m) {
    int kind = KONTOR_MOVE_KIND(m), val = KONTOR_MOVE_VALUE(m);
    char text[160];
    sj_move_words(s, seat, m, text, sizeof text);
    json_t *o = json_pack("{s:i, s:s, s:s}", "m", m, "kind", sj_move_kind(kind), "text", text);
    switch (kind) {
    case KONTOR_MOVE_CHOOSE:
        if (val == KONTOR_PASS) json_object_set_new(o, "pass", json_true());
        else json_object_set_new(o, "card", json_integer(val));
        break;
    case KONTOR_MOVE_DECLARE: /* R1: pass this round, or play a card */
        json_object_set_new(o, val == KONTOR_PASS ? "pass" : "play", json_true());
        break;
    case KONTOR_MOVE_KEEP:
    case KONTOR_MOVE_DISCARD: json_object_set_new(o, "card", json_integer(val)); break;
    case KONTOR_MOVE_BUY:
    case KONTOR_MOVE_TAVERN: json_object_set_new(o, "value", json_integer(val)); break;
    case KONTOR_MOVE_PILE: json_object_set_new(o, "seat", json_integer(val)); break;
    case KONTOR_MOVE_EXPORT:
        if (val == KONTOR_NONE) json_object_set_new(o, "none", json_true());
        else json_object_set_new(o, "good", json_integer(val));
        break;
    default: /* ship, remove, place, place_water, bribe, event, tile: a cell or none */
        if (val == KONTOR_NONE) {
            json_object_set_new(o, "none", json_true());
        } else {
            json_object_set_new(o, "x", json_integer(kontor_cell_dx(val)));
            json_object_set_new(o, "y", json_integer(kontor_cell_dy(val)));
        }
    }
    return o;
}

json_t *sj_legal(const kontor_state *s, int seat) {
    json_t *a = json_array();
    if (seat < 0) return a;
    kontor_move mv[KONTOR_MAX_MOVES];
    int n = kontor_legal(s, seat, mv);
    for (int i = 0; i < n; i++) json_array_append_new(a, sj_move(s, seat, mv[i]));
    return a;
}

/* May viewer (a seat, -1 a spectator, -2 everyone) know which card id is?
 * Cards on the board, revealed or drawn from a face-up pile are public
 * (pub); a seat also knows its own hand and what only it has seen (known). */
static int card_visible(const kontor_state *s, int viewer, int id) {
    if (viewer == -2 || id >= KONTOR_MAX_CARDS || id >= s->cfg->cards->ncards) return 1;
    if ((s->pub[id >> 6] >> (id & 63)) & 1) return 1;
    if (viewer < 0 || viewer >= s->cfg->nseats) return 0;
    if (kontor_known(s, viewer, id)) return 1;
    for (int k = 0; k < s->hand_n[viewer]; k++)
        if (s->hand[viewer][k] == id) return 1;
    return 0;
}

int sj_event_card(const kontor_state *s, const kontor_event *e, int viewer) {
    /* a card the viewer may not know (a special card bought, a card drawn
     * unseen) goes as its back, like the cards of a view */
    int card = e->card;
    if (e->kind != KONTOR_EV_TAVERN && !card_visible(s, viewer, card))
        card = KONTOR_UNKNOWN_BASE + kontor_card_class(&s->cfg->cards->card[card]);
    return card;
}

json_t *sj_event(const kontor_state *s, const kontor_event *e, long seq, int viewer) {
    json_t *o = json_pack("{s:I, s:s}", "seq", (json_int_t)seq, "kind", NAME_OF(event_names, e->kind));
    if (e->seat != KONTOR_NONE) json_object_set_new(o, "seat", json_integer(e->seat));
    if (e->card != KONTOR_NONE) json_object_set_new(o, "card", json_integer(sj_event_card(s, e, viewer)));
    if (e->cell != KONTOR_NONE) {
        json_object_set_new(o, "x", json_integer(kontor_cell_dx(e->cell)));
        json_object_set_new(o, "y", json_integer(kontor_cell_dy(e->cell)));
    }
    json_object_set_new(o, "a", json_integer(e->a));
    if (e->kind == KONTOR_EV_EVENT) json_object_set_new(o, "event", event_card_json(e->a));
    if (e->kind == KONTOR_EV_TILE) json_object_set_new(o, "tile", json_string(kontor_tile_name(e->a)));
    return o;
}

/* ---- outside JSON ------------------------------------------------------------ */

int sj_shape_ok(const char *buf, size_t len, const char **code, char *why, size_t whycap) {
    if (len > SJ_MAX_BYTES) {
        *code = "too_large";
        snprintf(why, whycap, "JSON of %zu bytes is over the limit of %d bytes", len, SJ_MAX_BYTES);
        return -1;
    }
    int depth = 0, in_str = 0;
    for (size_t i = 0; i < len; i++) {
        char c = buf[i];
        if (in_str) {
            if (c == '\\') i++; /* the escaped character cannot end the string */
            else if (c == '"') in_str = 0;
        } else if (c == '"') {
            in_str = 1;
        } else if (c == '[' || c == '{') {
            if (++depth > SJ_MAX_DEPTH) {
                *code = "too_deep";
                snprintf(why, whycap, "JSON nests deeper than %d arrays and objects (at byte %zu)", SJ_MAX_DEPTH, i);
                return -1;
            }
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        }
    }
    return 0;
}

json_t *sj_parse_object(const char *buf, size_t len, const char **code, char *why, size_t whycap) {
    if (sj_shape_ok(buf, len, code, why, whycap) != 0) return NULL;
    json_error_t je;
    json_t *o = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    if (!o) {
        *code = "bad_json";
        snprintf(why, whycap, "not JSON: %s at line %d column %d", je.text, je.line, je.column);
        /* jansson's text quotes the input near the error, which may be any
         * bytes: the answer carries it as a JSON string, which must be UTF-8
         * (json_pack refuses anything else), so it keeps printable ASCII */
        for (char *p = why; *p; p++)
            if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f) *p = '?';
        return NULL;
    }
    if (!json_is_object(o)) {
        json_decref(o);
        *code = "bad_json";
        snprintf(why, whycap, "JSON but not an object");
        return NULL;
    }
    return o;
}
