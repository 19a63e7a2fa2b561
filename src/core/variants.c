/* variants.c: the decisions only some scenarios and expansions have:
 * Exportlager, Bakschisch, Justizia, Alte Seilschaften, Armut, and the event
 * cards of Ereigniskarten; and Tic Tac Toe's row, which ends the game.
 *
 * They live apart from the round so that the basic game's rules read
 * without them; the round calls in here through the config's fields. */
#include <stdio.h>
#include <string.h>

#include "core/rules.h"

/* ---- the scenarios' decisions ---------------------------------------------------- */

/* Exportlager: the seat that just placed a goods card sends one warehouse of
 * good value to its export store, or none; then the placement goes on. */
void do_export(kontor_state *s, int value, kontor_log *log) {
    int seat = s->order[s->turn];
    int cell = s->placed_cell;
    if (value != KONTOR_NONE) {
        int team = card_of(s, s->cell_card[cell])->colour;
        export_add(s, s->cell_card[cell], value);
        s->export_n[team][value]++;
        log_ev(log, KONTOR_EV_EXPORT, seat, s->cell_card[cell], cell, value);
    }
    s->placed_cell = KONTOR_NONE;
    s->phase = KONTOR_PHASE_PLACE;
    /* every open area: the extent may have grown (not the hot path) */
    check_enclosures(s, s->dock, log);
    after_scoring(s, seat, 0, 0, log);
}

/* Bakschisch: every seat has decided; both bribes happen at once (they
 * concern cards of different colours, so they never collide: ruling V6). */
void do_bribe(kontor_state *s, int seat, int value, kontor_log *log) {
    s->bribe[seat] = (uint8_t)(value == KONTOR_NONE ? KONTOR_PASS : value);
    for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++)
        if (s->bribe[p] == KONTOR_NONE) return;
    for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++) {
        int cell = s->bribe[p];
        if (cell == KONTOR_PASS) continue;
        int id = s->cell_card[cell];
        const kontor_card *k = card_of(s, id);
        int cost = count_goods(k);
        s->coins[p] = (uint8_t)(s->coins[p] - cost);
        s->treasury = (uint8_t)(s->treasury + cost);
        before_remove(s, cell);
        remove_raw(s, cell);
        /* "die ausgewaehlte Karte kommt unter den Stapel des Gegenspielers" */
        pile_put_under(s, &s->dock_pile[owner_seat(s, k->colour)], id);
        log_ev(log, KONTOR_EV_BRIBE, p, id, cell, cost);
    }
    for (int p = 0; p < KONTOR_MAX_SEATS; p++) s->bribe[p] = KONTOR_NONE;
    begin_buy(s);
}

static int pile_take(kontor_state *s, kontor_pile *p, int id) {
    uint8_t *c = s->pile_card + p->head;
    for (int i = 0; i < p->n; i++) {
        if (c[i] != id) continue;
        for (int j = i; j + 1 < p->n; j++) c[j] = c[j + 1];
        p->n--;
        c[p->n] = 0;
        return 1;
    }
    return 0;
}

int pile_has(const kontor_state *s, const kontor_pile *p, int id) {
    for (int i = 0; i < p->n; i++)
        if (kontor_pile_card(s, p, i) == id) return 1;
    return 0;
}

int select_total(const kontor_state *s) { return s->cfg->select_keep + s->cfg->select_discard; }

/* Justizia: seat keeps (into its hand) or discards (out of the game) a dock
 * card from its pile: first select_keep keeps, then select_discard discards. */
void do_select(kontor_state *s, int seat, int id, kontor_log *log) {
    pile_take(s, &s->dock_pile[seat], id);
    if (s->selected[seat] < s->cfg->select_keep) hand_add(s, seat, id);
    else pile_put_under(s, &s->aside, id); /* stays known to seat (known[]), hidden from the others */
    s->selected[seat]++;
    if (s->selected[seat] == select_total(s)) log_ev(log, KONTOR_EV_SELECT, seat, KONTOR_NONE, KONTOR_NONE, 0);
    for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++)
        if (s->selected[p] < select_total(s)) return;
    /* everybody has chosen: the rest of each pile is shuffled (its order was
     * never shown: views list it sorted), its top card shows as usual */
    for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++) {
        kontor_pile *pl = &s->dock_pile[p];
        for (int i = 0; i < pl->n && p < KONTOR_KNOWN_SEATS; i++) { /* (the deal: Justizia is for two) */
            int c = kontor_pile_card(s, pl, i);
            s->known[p][c >> 6] &= ~(1ULL << (c & 63));
        }
        if (pl->n) pub_set(s, pile_top(s, pl));
    }
    begin_round(s, log);
}

/* Alte Seilschaften: the owner of the tavern in area tavern_area says whether
 * it scores; then the next such area, then the final count. */
void do_tavern(kontor_state *s, int value, kontor_log *log) {
    int a = s->tavern_area;
    s->area[a].out = (uint8_t)!value;
    log_ev(log, KONTOR_EV_TAVERN, tavern_seat(s), value, s->area[a].cell, a);
    int next = next_tavern(s, a + 1);
    if (next >= 0) {
        s->tavern_area = (uint8_t)next;
        return;
    }
    finish_game(s, -2, log);
}

/* Armut: "Ist ein Spieler blank und ist kein Geld mehr in der Stadtkasse,
 * endet das Spiel vorzeitig. Der andere Spieler bzw. das andere Team hat dann
 * gewonnen." Checked after every decision; both sides broke at once (only
 * possible with four): the points decide (ruling V8). */
void check_bankrupt(kontor_state *s, kontor_log *log) {
    if (s->treasury || s->phase == KONTOR_PHASE_OVER) return;
    unsigned lose = 0;
    for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++)
        if (!s->coins[p]) lose |= 1u << kontor_team(s, p);
    if (lose) end_game_won(s, KONTOR_END_BANKRUPT, lose == 3 ? -2 : (lose == 1 ? 1 : 0), log);
}

/* ---- Tic Tac Toe: three islands in a row ---------------------------------------- */

/* Tic Tac Toe: the island (0..8) of a cell of the fixed 8x8 board: islands of
 * 2x2 cells between canals one cell wide (data/layouts/tictactoe.txt). */
static int island_of(const kontor_state *s, int cell) {
    int first = bb_first(s->cfg->board_mask);
    int x = bb_x(cell) - bb_x(first), y = bb_y(cell) - bb_y(first);
    if (x < 0 || y < 0 || x % 3 == 2 || y % 3 == 2 || x > 7 || y > 7) return -1;
    return (y / 3) * 3 + x / 3;
}

/* Which teams own three islands in a row: bit t for team t (0 none, 3 both).
 * An island is owned by the team whose keeper stands on its (enclosed) area. */
static unsigned three_in_a_row(const kontor_state *s) {
    static const uint16_t lines[8] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};
    unsigned owned[2] = {0, 0}, rows = 0;
    for (int i = 0; i < s->nareas; i++) {
        int is = island_of(s, s->area[i].cell);
        if (is >= 0 && s->area[i].keeper) owned[s->area[i].winner] |= 1u << is;
    }
    for (int t = 0; t < 2; t++)
        for (int l = 0; l < 8; l++)
            if ((owned[t] & lines[l]) == lines[l]) rows |= 1u << t;
    return rows;
}

/* Tic Tac Toe: "Erreicht ein Spieler dies, ist das Spiel sofort beendet".
 * Checked after every scoring, whatever laid the card (a card from a hand,
 * an event's water card, the moved harbour centre); returns 1 when the game
 * ended. Ruling V14: when one scoring completes a row for both players at
 * once, neither was first; the game ends at once all the same and is decided
 * as when nobody completes a row ("Schafft es keiner, gewinnt der, der die
 * meisten Gebiete besitzt"): by points, then coins. */
int row_ends_game(kontor_state *s, kontor_log *log) {
    if (!s->cfg->tictactoe) return 0;
    unsigned rows = three_in_a_row(s);
    if (!rows) return 0;
    end_game_won(s, KONTOR_END_ROW, rows == 3 ? -2 : (rows == 1 ? 0 : 1), log);
    return 1;
}

/* ---- Ereigniskarten: the event cards ------------------------------------------- */

/* The seat whose part of the event comes now: the player who laid the last
 * card first ("Dabei beginnt der Spieler, der die letzte Karte gelegt hatte"),
 * then the other. */
int event_seat(const kontor_state *s) {
    int first = s->last_layer == KONTOR_NONE ? 0 : s->last_layer;
    return s->event_step == 0 ? first : first ^ 1;
}

/* The decisions of the current event for seat, KONTOR_NONE (pass) first. */
int event_options(const kontor_state *s, int seat, kontor_move *moves) {
    int n = 0;
    moves[n++] = KONTOR_MOVE(KONTOR_MOVE_EVENT, KONTOR_NONE);
    bb_t t = bb_empty();
    switch (s->cfg->event_action[s->event_cur]) {
    case KONTOR_ACT_SHIP_MOVE:
        if (s->ship_cell != KONTOR_NONE) t = ship_targets(s);
        break;
    case KONTOR_ACT_SHIP_REMOVE: t = removable(s); break;
    case KONTOR_ACT_FREE_WATER:
        if (s->water_pile.n) t = legal_cells(s, seat, pile_top(s, &s->water_pile));
        break;
    default: break;
    }
    while (bb_any(t)) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_EVENT, bb_pop(&t));
    return n;
}

/* How many seats take part in the current event's decisions. */
static int event_steps(const kontor_state *s) {
    return s->cfg->event_action[s->event_cur] == KONTOR_ACT_SHIP_REMOVE ? 1 : 2;
}

/* Move on to the next seat that can do something, or end the event. */
static void event_next_step(kontor_state *s, kontor_log *log) {
    kontor_move m[KONTOR_MAX_MOVES];
    while (s->event_step < event_steps(s)) {
        if (event_options(s, event_seat(s), m) > 1) {
            s->phase = KONTOR_PHASE_EVENT;
            return;
        }
        s->event_step++; /* "es sei denn es ist nicht moeglich" */
    }
    s->event_cur = KONTOR_NONE;
    s->event_step = 0;
    (void)log;
    begin_bribe(s);
}

/* Turn up the top event card and carry it out; returns 1 when it waits for
 * a decision (the event phase), 0 when it is done. */
int start_event(kontor_state *s, kontor_log *log) {
    int ev = s->event_deck[s->event_next++];
    int act = s->cfg->event_action[ev], arg = s->cfg->event_arg[ev], ns = s->cfg->nseats;
    log_ev(log, KONTOR_EV_EVENT, KONTOR_NONE, KONTOR_NONE, KONTOR_NONE, ev);
    uint8_t got[KONTOR_MAX_SEATS];
    unsigned want = 0;
    int lo = 255, hi = 0;
    for (int p = 0; p < ns; p++) {
        if (s->coins[p] < lo) lo = s->coins[p];
        if (s->coins[p] > hi) hi = s->coins[p];
    }
    switch (act) {
    case KONTOR_ACT_COINS_EACH:
        for (int i = 0; i < (arg > 0 ? arg : 0); i++) pay_out(s, (1u << ns) - 1, got); /* R12 when it runs short */
        for (int p = 0; p < ns && arg < 0; p++) {
            int pay = s->coins[p] < -arg ? s->coins[p] : -arg;
            s->coins[p] = (uint8_t)(s->coins[p] - pay);
            s->treasury = (uint8_t)(s->treasury + pay);
        }
        return 0;
    case KONTOR_ACT_COIN_POOREST:
        for (int p = 0; p < ns; p++) want |= (unsigned)(s->coins[p] == lo) << p;
        pay_out(s, want, got);
        return 0;
    case KONTOR_ACT_COIN_RICHEST:
        for (int p = 0; p < ns; p++)
            if (hi > 0 && s->coins[p] == hi) s->coins[p]--, s->treasury++;
        return 0;
    case KONTOR_ACT_CENTRE_COIN: {
        bb_t near = bb_and(bb_neighbours(bb_cell(centre_cell(s))), s->dock);
        for (int p = 0; p < ns; p++) want |= (unsigned)bb_any(bb_and(near, s->team_dock[kontor_team(s, p)])) << p;
        pay_out(s, want, got);
        return 0;
    }
    case KONTOR_ACT_DRAW_DOCK:
        for (int p = 0; p < ns; p++) {
            if (s->hand_n[p] >= KONTOR_HAND_MAX || !s->dock_pile[p].n) continue;
            hand_add(s, p, pile_draw(s, &s->dock_pile[p]));
            if (s->dock_pile[p].n) pub_set(s, pile_top(s, &s->dock_pile[p]));
        }
        return 0;
    case KONTOR_ACT_NO_PASS: s->no_pass = 1; return 0;
    default: break;
    }
    s->event_cur = (uint8_t)ev;
    s->event_step = 0;
    event_next_step(s, log);
    return s->phase == KONTOR_PHASE_EVENT;
}

void do_event(kontor_state *s, int value, kontor_log *log) {
    int seat = event_seat(s);
    if (value != KONTOR_NONE) {
        switch (s->cfg->event_action[s->event_cur]) {
        case KONTOR_ACT_SHIP_MOVE:
            s->ship_cell = (uint8_t)value;
            log_ev(log, KONTOR_EV_SHIP, seat, KONTOR_NONE, value, 0);
            break;
        case KONTOR_ACT_SHIP_REMOVE: {
            int id = s->cell_card[value];
            int owner = owner_seat(s, card_of(s, id)->colour);
            before_remove(s, value);
            remove_raw(s, value);
            pile_put_under(s, &s->dock_pile[owner], id);
            log_ev(log, KONTOR_EV_REMOVE, seat, id, value, owner);
            break;
        }
        case KONTOR_ACT_FREE_WATER: {
            int id = pile_draw(s, &s->water_pile);
            if (s->water_pile.n) pub_set(s, pile_top(s, &s->water_pile));
            place_raw(s, value, id);
            s->last_layer = (uint8_t)seat;
            log_ev(log, KONTOR_EV_PLACE, seat, id, value, 0);
            check_enclosures(s, s->dock, log);
            if (row_ends_game(s, log)) { /* an event's water card can close the third island too */
                s->event_cur = KONTOR_NONE;
                return;
            }
            if (board_full(s)) {
                s->event_cur = KONTOR_NONE;
                end_game(s, KONTOR_END_FULL, log);
                return;
            }
            break;
        }
        default: break;
        }
    }
    s->event_step++;
    event_next_step(s, log);
}
