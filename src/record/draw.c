/* draw.c: the board and the table as plain text (kontor_draw_board).
 *
 * The board grows around the harbour centre up to a fixed extent, so the
 * picture shows every cell where a card may still ever lie (the engine's
 * mask) together with everything placed so far: the reader sees at once how
 * far each edge may still move. Each cell is two text lines of fixed width,
 * the first naming the card (owner and number), the second what it shows
 * (goods, symbols, or the ship on a water card), so a cell never needs more
 * than six characters and the grid stays readable in an 80-column terminal
 * for the 7x7 board plus its margin. Enclosed areas carry their keeper's
 * letter in brackets. Everything is written through one bounded appender,
 * so the function is pure, allocates nothing and never writes past cap.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kontor/draw.h"

typedef struct out {
    char *buf;
    size_t cap, n; /* n counts the whole drawing, even past cap */
} out;

__attribute__((format(printf, 2, 3)))
static void put(out *o, const char *fmt, ...) {
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    if ((size_t)k >= sizeof tmp) k = (int)sizeof tmp - 1;
    for (int i = 0; i < k; i++) {
        if (o->n + 1 < o->cap) o->buf[o->n] = tmp[i];
        o->n++;
    }
    if (o->cap) o->buf[o->n < o->cap ? o->n : o->cap - 1] = 0;
}

/* Whether cell is in set which of s (the state's sets in their public form). */
static int in_set(const kontor_state *s, kontor_set which, int cell) {
    kontor_bb b = kontor_state_set(s, which);
    return kontor_bb_has(&b, cell);
}

/* A card as people name it: its number, '?' when unseen, "centre". */
static void card_name(const kontor_state *s, int id, char *buf, size_t cap) {
    if (id >= KONTOR_UNKNOWN_BASE || id >= s->cfg->cards->ncards) snprintf(buf, cap, "?");
    else if (s->cfg->cards->card[id].kind == KONTOR_KIND_CENTRE) snprintf(buf, cap, "centre");
    else snprintf(buf, cap, "%d", s->cfg->cards->card[id].number);
}

/* The keeper letter of the enclosed area holding cell: 'R', 'B', or '-'
 * when nobody won it. */
static char keeper_at(const kontor_state *s, int cell) {
    for (int i = 0; i < s->nareas; i++) {
        kontor_bb cells;
        kontor_area_at(s, s->area[i].cell, &cells, NULL);
        if (kontor_bb_has(&cells, cell)) {
            if (!s->area[i].keeper || s->area[i].winner > 1) return '-';
            return s->area[i].winner == 0 ? 'R' : 'B';
        }
    }
    return '-';
}

/* The two lines of a cell, at most 6 characters each. */
static void cell_text(const kontor_state *s, int cell, char top[8], char bottom[8]) {
    top[0] = bottom[0] = 0;
    int id = kontor_state_card_at(s, cell);
    if (id == KONTOR_NONE || id >= s->cfg->cards->ncards) {
        kontor_bb dead;
        kontor_dead_cells(s, &dead);
        if (kontor_bb_has(&dead, cell)) snprintf(top, 8, "  x"); /* Die grosse Insel: no card can ever go here */
        else if (in_set(s, KONTOR_SET_MASK, cell)) snprintf(top, 8, "  .");
        return;
    }
    const kontor_card *c = &s->cfg->cards->card[id];
    int ship_here = s->ship_cell == cell;
    if (c->kind == KONTOR_KIND_CENTRE) {
        snprintf(top, 8, "(@)");
        snprintf(bottom, 8, "%s", ship_here ? "ship" : "~~");
        return;
    }
    if (c->kind == KONTOR_KIND_FLOOD || (c->kind == KONTOR_KIND_CUSTOMS && in_set(s, KONTOR_SET_WATER, cell))) {
        snprintf(top, 8, "~%d%s", c->number, c->kind == KONTOR_KIND_FLOOD ? "F" : "Z");
        snprintf(bottom, 8, "%s", ship_here ? "ship" : "~~");
        return;
    }
    if (kontor_card_is_water(c)) {
        snprintf(top, 8, "~%d", c->number);
        snprintf(bottom, 8, "%s", ship_here ? "ship" : "~~");
        return;
    }
    char owner = c->colour == KONTOR_RED ? 'r' : c->colour == KONTOR_BLACK ? 'b' : 'n';
    if (in_set(s, KONTOR_SET_ENCLOSED, cell)) snprintf(top, 8, "%c%d[%c]", owner, c->number % 1000, keeper_at(s, cell));
    else snprintf(top, 8, "%c%d", owner, c->number % 1000);
    int n = 0;
    static const char goods_letter[3] = {'T', 'W', 'S'};
    if (c->kind == KONTOR_KIND_CRANE) bottom[n++] = 'K';
    else if (c->kind == KONTOR_KIND_TAVERN) bottom[n++] = 'P';
    else if (c->kind == KONTOR_KIND_BRIDGE) bottom[n++] = '=';
    else if (c->kind == KONTOR_KIND_CUSTOMS) bottom[n++] = 'Z';
    for (int g = 0; g < 3; g++)
        for (int k = 0; k < c->goods[g] && n < 4; k++) bottom[n++] = goods_letter[g];
    if (c->coin && n < 6) bottom[n++] = '$';
    if (c->ship && n < 6) bottom[n++] = '^';
    bottom[n] = 0;
}

static void pile_text(const kontor_state *s, const kontor_pile *p, char *buf, size_t cap) {
    if (!p->n) {
        snprintf(buf, cap, "empty");
        return;
    }
    char top[12];
    card_name(s, s->pile_card[p->head], top, sizeof top);
    snprintf(buf, cap, "%d cards, top %s", p->n, top);
}

static const char *phase_text(int phase) {
    switch (phase) {
    case KONTOR_PHASE_SHIP: return "may move the ship";
    case KONTOR_PHASE_REMOVE: return "may remove a card next to the ship";
    case KONTOR_PHASE_PLACE: return "places";
    case KONTOR_PHASE_PILE: return "chooses whose pile takes the removed card";
    default: return "";
    }
}

static const char *end_text(int reason) {
    switch (reason) {
    case KONTOR_END_FULL: return "the board is full";
    case KONTOR_END_MAX_ROUNDS: return "the round limit (option max_rounds)";
    case KONTOR_END_STUCK: return "nobody can play";
    default: return "?";
    }
}

size_t kontor_draw_board(const kontor_state *s, char *buf, size_t cap, unsigned flags) {
    out o = {buf, cap, 0};
    static const char *const who[2] = {"red", "black"};
    if (cap) buf[0] = 0;

    /* the columns and rows to draw: the mask and every card */
    int x0 = 15, x1 = 0, y0 = 15, y1 = 0;
    kontor_bb mask = kontor_state_set(s, KONTOR_SET_MASK), occ = kontor_state_set(s, KONTOR_SET_OCC);
    for (int c = 0; c < KONTOR_CELLS; c++)
        if (kontor_bb_has(&mask, c) || kontor_bb_has(&occ, c)) {
            int x = c & 15, y = c >> 4;
            if (x < x0) x0 = x;
            if (x > x1) x1 = x;
            if (y < y0) y0 = y;
            if (y > y1) y1 = y;
        }
    if (x0 > x1) x0 = x1 = y0 = y1 = 7;

    put(&o, "    ");
    for (int x = x0; x <= x1; x++) put(&o, " %+-6d", x - 7);
    put(&o, "\n");
    for (int y = y0; y <= y1; y++) {
        char top[16][8], bottom[16][8];
        for (int x = x0; x <= x1; x++) cell_text(s, y * 16 + x, top[x], bottom[x]);
        put(&o, "%+3d ", y - 7);
        for (int x = x0; x <= x1; x++) put(&o, " %-6s", top[x]);
        put(&o, "\n    ");
        for (int x = x0; x <= x1; x++) put(&o, " %-6s", bottom[x]);
        put(&o, "\n");
    }
    put(&o, "\n");

    /* the round and who acts */
    int ns = s->cfg->nseats > KONTOR_MAX_SEATS ? KONTOR_MAX_SEATS : s->cfg->nseats;
    if (s->phase == KONTOR_PHASE_OVER) {
        put(&o, "game over in round %d (%s): keepers counted red %d, black %d; ", s->round, end_text(s->end_reason),
            s->score[0], s->score[1]);
        if (s->winner == 0 || s->winner == 1) put(&o, "%s wins\n", who[s->winner]);
        else put(&o, "a draw\n");
    } else if (s->phase == KONTOR_PHASE_BUY) {
        put(&o, "round %d: buying special cards\n", s->round);
    } else if (s->phase == KONTOR_PHASE_DECLARE) {
        put(&o, "round %d: declaring who passes", s->round);
        for (int p = 0; p < ns; p++)
            if (s->choice[p] != KONTOR_NONE) put(&o, "; %s has declared", kontor_seat_name(s, p));
        if (s->no_pass) put(&o, "; nobody may pass this round");
        put(&o, "\n");
    } else if (s->phase == KONTOR_PHASE_CHOOSE) {
        put(&o, "round %d: choosing", s->round);
        for (int p = 0; p < ns; p++)
            if (s->choice[p] == KONTOR_PASS && !s->cfg->pass_hidden) put(&o, "; %s passes", kontor_seat_name(s, p));
            else if (s->choice[p] != KONTOR_NONE) put(&o, "; %s has chosen", kontor_seat_name(s, p));
        if (s->no_pass && s->cfg->pass_hidden) put(&o, "; nobody may pass this round");
        put(&o, "\n");
    } else {
        int seat = s->order[s->turn < KONTOR_MAX_SEATS ? s->turn : 0];
        char name[12];
        card_name(s, seat < KONTOR_MAX_SEATS ? s->choice[seat] : KONTOR_NONE, name, sizeof name);
        put(&o, "round %d: %s plays %s and %s\n", s->round, kontor_seat_name(s, seat), name, phase_text(s->phase));
    }

    /* the players */
    int pts[2];
    kontor_points(s, pts);
    for (int p = 0; p < ns; p++) {
        char pile[32];
        pile_text(s, &s->dock_pile[p], pile, sizeof pile);
        int t = kontor_team(s, p);
        put(&o, "%-7s coins %d, keepers %d (%d points), hand", kontor_seat_name(s, p), s->coins[p], s->keepers[t], pts[t]);
        if (flags & KONTOR_DRAW_HAND(p)) {
            for (int i = 0; i < s->hand_n[p] && i < KONTOR_HAND_MAX; i++) {
                char name[12];
                card_name(s, s->hand[p][i], name, sizeof name);
                put(&o, " %s", name);
            }
            if (!s->hand_n[p]) put(&o, " empty");
        } else {
            put(&o, " of %d cards", s->hand_n[p]);
        }
        put(&o, "; dock pile %s\n", pile);
    }
    char water[32];
    pile_text(s, &s->water_pile, water, sizeof water);
    put(&o, "treasury %d; water pile %s", s->treasury, water);
    if (s->ship_cell != KONTOR_NONE) {
        char cs[8];
        put(&o, "; ship on %s", kontor_format_cell(s->ship_cell, cs));
    }
    put(&o, "\n");
    if (!(flags & KONTOR_DRAW_NO_LEGEND))
        put(&o, "key: r15/b22 red/black dock card, T W S tea wine spice, $ coin, ^ ship symbol, K crane, P tavern,\n"
                "     ~47 water, (@) centre, ship the ship, [R]/[B] enclosed area kept by red/black ([-] nobody),\n"
                "     . a free cell where a card may still go; specials: ~88F flood, = bridge, Z / ~90Z customs house\n");
    if (!(flags & KONTOR_DRAW_NO_LEGEND) && s->cfg->inner_value) {
        kontor_bb dead;
        kontor_dead_cells(s, &dead);
        if (kontor_bb_count(&dead))
            put(&o, "     x an island cell no card can ever fill (next to a red and a black crane, or to an enclosed\n"
                    "       area): it closes the areas next to it\n");
    }
    return o.n;
}
