/* round.c: the round and its phases: declarations (R1), hidden choices and
 * their reveal, taxes, the ship, placing, drawing and paying out, the special
 * cards and the end of a turn. The phases only scenarios and expansions have
 * live beside it: the bribe and the special cards' buy in buy.c,
 * Aktionstafeln's tiles in tiles.c.
 *
 * Each phase is a do_* function that takes one decision and then runs the
 * rules forward until some seat owes the next one; decide.c dispatches to
 * them. */
#include <stdio.h>
#include <string.h>

#include "core/rules.h"

/* ---- the round ------------------------------------------------------------------ */

__attribute__((always_inline)) static inline void start_turn(kontor_state *s, kontor_log *log);

/* A round opens with the buy phase when special cards are for sale (the
 * scenario for two) and somebody can pay; else with the choice. */


/* A round opens with an event card (Ereigniskarten) after a round in which an
 * area was scored, then the bribe phase (Bakschisch) when somebody can bribe,
 * then the buy phase when special cards are for sale, then the choice. */
__attribute__((noinline)) static void begin_round_hooks(kontor_state *s, kontor_log *log);
void begin_round(kontor_state *s, kontor_log *log) {
    if (!(s->hooks & KONTOR__HOOK_ROUND)) { /* no events, bribes or special cards to buy, declarations: the basic and advanced game */
        s->event_due = 0;
        s->phase = KONTOR_PHASE_DECLARE; /* open_choice without declare=hidden */
        return;
    }
    begin_round_hooks(s, log); /* out of line: no frame for the turn's end, which inlines this */
}
static void begin_round_hooks(kontor_state *s, kontor_log *log) {
    const kontor_config *c = s->cfg;
    if (!(c->events | c->bribe) && c->specials != 2) {
        /* declare=hidden alone (the search's records): no event, no
         * bribe, nothing to buy; begin_bribe's and begin_buy's choice
         * without their calls */
        s->event_due = 0;
        s->phase = c->pass_hidden ? KONTOR_PHASE_CHOOSE : KONTOR_PHASE_DECLARE;
        return;
    }
    s->phase = KONTOR_PHASE_CHOOSE;
    int due = s->event_due;
    s->event_due = 0;
    if (s->cfg->events && due && s->event_next < s->event_n && start_event(s, log)) return;
    begin_bribe(s);
}


/* Scenarios that forbid cells to some cards (Wasserspiele, Die grosse Insel,
 * Tic Tac Toe) can reach a board where nobody holds a card that fits
 * anywhere: ruling V10 ends the game then, at the start of a round, as when
 * nobody holds a card at all, instead of rounds of passing until the safety
 * rule. */
__attribute__((noinline, cold)) static int any_placeable(const kontor_state *s) {
    for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++)
        for (int i = 0; i < s->hand_n[p]; i++) {
            int id = s->hand[p][i];
            if (is_special(card_of(s, id))) {
                if (bb_any(special_cells(s, p, id, 0)) || bb_any(special_cells(s, p, id, 1))) return 1;
            } else if (bb_any(legal_cells(s, p, id))) {
                return 1;
            }
        }
    return 0;
}

__attribute__((always_inline)) static inline void new_round_in(kontor_state *s, kontor_log *log) {
    s->round++;
    s->phase = KONTOR_PHASE_CHOOSE;
    s->norder = 0;
    s->turn = 0;
    for (int p = 0; p < KONTOR_MAX_SEATS; p++) s->choice[p] = KONTOR_NONE;
    if (s->round > s->cfg->max_rounds) {
        s->round--;
        end_game(s, KONTOR_END_MAX_ROUNDS, log);
        return;
    }
    /* does any seat hold a card? (for two or four seats, without a loop) */
    int any = s->hand_n[0] | s->hand_n[1] | (s->cfg->nseats == 4 ? s->hand_n[2] | s->hand_n[3] : 0);
    if (!any || ((s->hooks & KONTOR__HOOK_CELLS) && !any_placeable(s))) {
        end_game(s, KONTOR_END_STUCK, log);
        return;
    }
    log_ev(log, KONTOR_EV_ROUND, KONTOR_NONE, KONTOR_NONE, KONTOR_NONE, s->round);
    begin_round(s, log);
}

static void new_round(kontor_state *s, kontor_log *log) { new_round_in(s, log); }

__attribute__((always_inline)) static inline void next_turn_in(kontor_state *s, kontor_log *log) {
    s->choice[s->order[s->turn]] = KONTOR_NONE;
    s->turn++;
    s->ship_moved = 0;
    if (s->turn >= s->norder) new_round_in(s, log);
    else start_turn(s, log);
}

/* The end of a turn, in a copy without a log (the playouts': no test of
 * the log left in it) and one with; the caller's log picks the copy, and
 * in the placement's copy without a log (place_n) the choice is made when
 * compiling. */
__attribute__((noinline)) static void next_turn_quiet(kontor_state *s) { /* the new round opens the choices */
    size_t t = s->turn;
    s->ship_moved = 0;
    if (t + 1 >= s->norder) {
        new_round_in(s, NULL);
        return;
    }
    s->choice[s->order[t]] = KONTOR_NONE;
    s->turn = (uint8_t)(t + 1);
    start_turn(s, NULL);
}
__attribute__((noinline)) static void next_turn_logged(kontor_state *s, kontor_log *log) { next_turn_in(s, log); }
static inline void next_turn(kontor_state *s, kontor_log *log) {
    if (log) next_turn_logged(s, log);
    else next_turn_quiet(s);
}

static void take_back(kontor_state *s, int seat, int reason, kontor_log *log) {
    int id = s->choice[seat];
    hand_add(s, seat, id);
    log_ev(log, KONTOR_EV_TAKEBACK, seat, id, KONTOR_NONE, reason);
}

/* The seat at order[turn] begins its actions: the ship if its card shows one,
 * else placing. start_turn takes the usual case, a card without a ship (or
 * no ship in the game) that is not a special card and has a legal cell, in
 * a game without the scenarios' cell rules (Wasserspiele, Die grosse Insel,
 * Tic Tac Toe), in a few registers, and leaves every other to
 * start_turn_all, which does the whole again from the start (the same
 * cells: a pure function of the state). A turn cost 86 instructions in
 * start_turn and compute_cells; a random game: basic 33,857 -> 33,350 with
 * the usual case inline, 32,376 -> 31,990 with the scenarios' rules out of
 * it, 31,796 -> 31,698 with start_turn itself inline in its callers (the
 * next turn, the reveal) (session ten). */
__attribute__((noinline)) static void start_turn_all(kontor_state *s, kontor_log *log);

/* The ship surely has a target (start_turn_all tests exactly): water in two
 * places of the words is two cells (no copy of ship_targets on the stack). */
static inline int ship_has_target(const kontor_state *s) {
    uint64_t x = s->water.w[0] | s->water.w[1] | s->water.w[2] | s->water.w[3];
    return (x & (x - 1)) != 0;
}

__attribute__((always_inline)) static inline void start_turn(kontor_state *s, kontor_log *log) {
    int seat = s->order[s->turn];
    int id = s->choice[seat];
    const kontor_card *k = card_of(s, id);
    if (s->cfg->ship && k->ship) {
        /* the ship first (start_turn_all's test, without tile 7's owner) */
        if (s->ship_owner == KONTOR_NONE && ship_has_target(s)) {
            s->ship_moved = 0;
            s->phase = KONTOR_PHASE_SHIP;
            return;
        }
    } else if (!is_special(k) && !(s->hooks & KONTOR__HOOK_CELLS)) {
        s->ship_moved = 0;
        s->phase = KONTOR_PHASE_PLACE;
        if (put_usual_cells(s, seat, k)) return; /* compute_cells */
    }
    start_turn_all(s, log);
}

static void start_turn_all(kontor_state *s, kontor_log *log) {
    int seat = s->order[s->turn];
    int id = s->choice[seat];
    s->ship_moved = 0;
    if (s->cfg->ship && card_of(s, id)->ship && bb_any(ship_targets(s)) &&
        (s->ship_owner == KONTOR_NONE || s->ship_owner == kontor_team(s, seat))) { /* tile 7: only its owner */
        s->phase = KONTOR_PHASE_SHIP;
        return;
    }
    s->phase = KONTOR_PHASE_PLACE;
    compute_cells(s, seat, id);
    if (!bb_any(s->cells) && !bb_any(s->cells_water)) {
        /* R3: a revealed card with no legal cell goes back to the hand */
        take_back(s, seat, KONTOR_TAKEBACK_NOCELL, log);
        next_turn(s, log);
    }
}

/* pay_out (rules.h) when the treasury cannot pay every seat in want (R12):
 * the poorer are paid first; among equally poor seats that cannot all be
 * paid, none is. Rare (an empty treasury late in a game). */
void pay_out_short(kontor_state *s, unsigned want, uint8_t got[KONTOR_MAX_SEATS]) {
    memset(got, 0, KONTOR_MAX_SEATS);
    while (want && s->treasury) {
        int least = 256, n = 0;
        for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++)
            if ((want >> p) & 1) {
                if (s->coins[p] < least) least = s->coins[p], n = 0;
                if (s->coins[p] == least) n++;
            }
        if (n > s->treasury) break;
        for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++)
            if (((want >> p) & 1) && s->coins[p] == least) {
                s->coins[p]++;
                s->treasury--;
                got[p] = 1;
                want &= ~(1u << p);
            }
    }
}

/* The seats in out could not pay their tax: their cards go back to the hand;
 * those in sitout (both of a pair, neither could pay) sit the round out with
 * a coin (R12 when the treasury cannot pay them all). Out of line: rare, and
 * the reveal's registers are not saved for it. */
__attribute__((noinline, cold)) static void untaxed(kontor_state *s, unsigned out, unsigned sitout, kontor_log *log) {
    for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++)
        if ((out >> p) & 1) take_back(s, p, KONTOR_TAKEBACK_TAX, log);
    if (sitout) {
        uint8_t got[KONTOR_MAX_SEATS];
        pay_out(s, sitout, got);
        for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++)
            if ((sitout >> p) & 1) {
                hand_add(s, p, s->choice[p]);
                log_ev(log, KONTOR_EV_SITOUT, p, s->choice[p], KONTOR_NONE, got[p]);
            }
    }
}

/* Every seat has chosen: reveal, passes, taxes, order. Inlined per number of
 * seats (and without a log for playouts), so the loops over seats unroll.
 * taken: the chosen cards are out of the hands already (the playout's round
 * loop takes each by its place in the hand, without a search), and the
 * passers have their coins: the round loop runs only without declare=hidden;
 * taken_passers is then the mask of the seats that passed (else 0). */
__attribute__((always_inline)) static inline void resolve_n(kontor_state *s, kontor_log *log, int ns, int taken,
                                                           unsigned taken_passers) {
    unsigned passers = taken_passers; /* taken: the caller knows who passed */
    if (!taken)
        for (int p = 0; p < ns; p++) passers |= (unsigned)(s->choice[p] == KONTOR_PASS) << p;
    unsigned playing = ((1u << ns) - 1) & ~passers;
    uint8_t got[KONTOR_MAX_SEATS];
    if (!taken && s->cfg->pass_hidden) { /* else the passers took their coin when they declared (do_declare) */
        pay_out(s, passers, got);
        for (int p = 0; p < ns; p++)
            if ((passers >> p) & 1) log_ev(log, KONTOR_EV_PASS, p, KONTOR_NONE, KONTOR_NONE, got[p]);
    }
    for (int p = 0; p < ns; p++)
        if ((playing >> p) & 1) {
            if (!taken) hand_remove(s, p, s->choice[p]);
            /* pub_set of a card (a player's choice is one): without its test */
            s->pub[s->choice[p] >> 6] |= 1ULL << (s->choice[p] & 63);
            log_ev(log, KONTOR_EV_REVEAL, p, s->choice[p], KONTOR_NONE, 0);
        }
    /* R2, option pass=rest: after a double pass nobody may pass in the next round */
    s->no_pass = (uint8_t)(s->cfg->pass_rest && passers == (1u << ns) - 1);

    /* Taxes, per opposing pair. A seat owes a coin when the seat opposite
     * plays a card with a coin symbol and it plays a card itself. */
    unsigned out = 0, sitout = 0;
    for (int a = 0; a < ns; a++) {
        int b = ns == 4 ? (a + 2) & 3 : a ^ 1; /* opposite(s, a) */
        if (b < a) continue;
        int pa = (playing >> a) & 1, pb = (playing >> b) & 1;
        int owe_a = pa && pb && card_of(s, s->choice[b])->coin;
        int owe_b = pa && pb && card_of(s, s->choice[a])->coin;
        int can_a = s->coins[a] >= 1, can_b = s->coins[b] >= 1;
        if (owe_a && owe_b && !can_a && !can_b) {
            sitout |= (1u << a) | (1u << b);
        } else if (owe_a && !can_a) {
            out |= 1u << a; /* b's tax falls away with a's card */
        } else if (owe_b && !can_b) {
            out |= 1u << b;
        } else {
            if (owe_a) s->coins[a]--, s->treasury++, log_ev(log, KONTOR_EV_TAX, a, KONTOR_NONE, KONTOR_NONE, 1);
            if (owe_b) s->coins[b]--, s->treasury++, log_ev(log, KONTOR_EV_TAX, b, KONTOR_NONE, KONTOR_NONE, 1);
        }
    }
    if (out | sitout) untaxed(s, out, sitout, log);
    playing &= ~(out | sitout);
    /* the higher number goes first */
    int no = 0; /* s->norder, counted in a register */
    for (int p = 0; p < ns; p++)
        if ((playing >> p) & 1) {
            int j = no++;
            while (j > 0 && card_of(s, s->choice[s->order[j - 1]])->number < card_of(s, s->choice[p])->number) {
                s->order[j] = s->order[j - 1];
                j--;
            }
            s->order[j] = (uint8_t)p;
        }
    s->norder = (uint8_t)no;
    for (int p = 0; p < ns; p++)
        if (!((playing >> p) & 1)) s->choice[p] = KONTOR_NONE;
    s->turn = 0;
    if (s->norder == 0) new_round(s, log);
    else start_turn(s, log);
}

/* For the playout's reveal (reveal.c): resolve_n, start_turn and new_round to jump to. */
void playout_reveal_two(kontor_state *s, unsigned passers) { resolve_n(s, NULL, 2, 1, passers); }
void playout_reveal_four(kontor_state *s, unsigned passers) { resolve_n(s, NULL, 4, 1, passers); }
__attribute__((noinline)) void playout_start_turn(kontor_state *s) { start_turn(s, NULL); }
void playout_new_round(kontor_state *s) { new_round(s, NULL); }

static void resolve_choices(kontor_state *s, kontor_log *log) {
    if (s->cfg->nseats == 2 && !log) resolve_n(s, NULL, 2, 0, 0);
    else if (s->cfg->nseats == 4 && !log) resolve_n(s, NULL, 4, 0, 0); /* four: 87,317 -> 84,893 a random game */
    else if (s->cfg->nseats == 2) resolve_n(s, log, 2, 0, 0);
    else resolve_n(s, log, s->cfg->nseats, 0, 0);
}

void do_choose(kontor_state *s, int seat, int value, kontor_log *log) {
    s->choice[seat] = (uint8_t)value;
    if (s->cfg->nseats == 4) {
        if (s->choice[0] == KONTOR_NONE || s->choice[1] == KONTOR_NONE || s->choice[2] == KONTOR_NONE ||
            s->choice[3] == KONTOR_NONE)
            return;
    } else {
        for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++)
            if (s->choice[p] == KONTOR_NONE) return;
    }
    resolve_choices(s, log);
}

/* R1: every seat has declared; the declarations are revealed together. The
 * passers take their coin at once ("Dann bekommt er sofort eine Münze", R12
 * when the treasury cannot pay them all); those who play choose their cards
 * next, knowing who passed. When nobody plays the round is over. */
void do_declare(kontor_state *s, int seat, int value, kontor_log *log) {
    s->choice[seat] = (uint8_t)value;
    int ns = s->cfg->nseats;
    if (ns == 2 && !log) { /* the playouts' two seats: the same, without the loops */
        int c0 = s->choice[0], c1 = s->choice[1];
        if (c0 == KONTOR_NONE || c1 == KONTOR_NONE) return;
        unsigned pass2 = (unsigned)(c0 == KONTOR_PASS) | (unsigned)(c1 == KONTOR_PASS) << 1;
        uint8_t got2[KONTOR_MAX_SEATS];
        if (pass2) pay_out(s, pass2, got2);
        if (!(pass2 & 1)) s->choice[0] = KONTOR_NONE;
        if (!(pass2 & 2)) s->choice[1] = KONTOR_NONE;
        s->phase = KONTOR_PHASE_CHOOSE;
        if (pass2 == 3) resolve_choices(s, NULL);
        return;
    }
    if (ns == 4 && !log) {
        /* the playouts' four seats: the same, without the loops (four:
         * 79,501 -> 77,606, with the playout's four draws at once) */
        int c0 = s->choice[0], c1 = s->choice[1], c2 = s->choice[2], c3 = s->choice[3];
        if (c0 == KONTOR_NONE || c1 == KONTOR_NONE || c2 == KONTOR_NONE || c3 == KONTOR_NONE) return;
        unsigned pass4 = (unsigned)(c0 == KONTOR_PASS) | (unsigned)(c1 == KONTOR_PASS) << 1 |
                         (unsigned)(c2 == KONTOR_PASS) << 2 | (unsigned)(c3 == KONTOR_PASS) << 3;
        uint8_t got4[KONTOR_MAX_SEATS];
        if (pass4) pay_out(s, pass4, got4);
        if (!(pass4 & 1)) s->choice[0] = KONTOR_NONE;
        if (!(pass4 & 2)) s->choice[1] = KONTOR_NONE;
        if (!(pass4 & 4)) s->choice[2] = KONTOR_NONE;
        if (!(pass4 & 8)) s->choice[3] = KONTOR_NONE;
        s->phase = KONTOR_PHASE_CHOOSE;
        if (pass4 == 15) resolve_choices(s, NULL);
        return;
    }
    unsigned passers = 0;
    for (int p = 0; p < ns && p < KONTOR_MAX_SEATS; p++) {
        if (s->choice[p] == KONTOR_NONE) return;
        if (s->choice[p] == KONTOR_PASS) passers |= 1u << p;
    }
    uint8_t got[KONTOR_MAX_SEATS] = {0};
    if (passers) pay_out(s, passers, got);
    for (int p = 0; p < ns && p < KONTOR_MAX_SEATS; p++) {
        if ((passers >> p) & 1) {
            log_ev(log, KONTOR_EV_PASS, p, KONTOR_NONE, KONTOR_NONE, got[p]);
        } else {
            log_ev(log, KONTOR_EV_PLAY, p, KONTOR_NONE, KONTOR_NONE, 0);
            s->choice[p] = KONTOR_NONE;
        }
    }
    s->phase = KONTOR_PHASE_CHOOSE;
    if (passers == (1u << ns) - 1) resolve_choices(s, log);
}

static void enter_place(kontor_state *s, kontor_log *log);
static __attribute__((noinline)) void enter_place_quiet(kontor_state *s);

/* bb_any(removable(s)) for a ship on a cell, without the call and without
 * the set: a dock card with a ship symbol next to it, not in an enclosed
 * area. */
static inline int any_removable(const kontor_state *s) {
    int c = s->ship_cell, i = c >> 6;
    const uint64_t *n = BB_NEAR[c].w;
    uint64_t r = n[1] & s->shipsym.w[i] & ~s->enclosed.w[i];
    if (n[0]) r |= n[0] & s->shipsym.w[i - 1] & ~s->enclosed.w[i - 1];
    if (n[2]) r |= n[2] & s->shipsym.w[i + 1] & ~s->enclosed.w[i + 1];
    return r != 0;
}
/* any_removable in the cell's window (PLACE_WIN, the placement's): its
 * neighbours one load from a table, the two sets' rows around it one load
 * each, no test of the words before and after (the playout's ship) */
static inline int any_removable_win(const kontor_state *s, size_t c) {
    place_win pw = PLACE_WIN[c];
    size_t r2 = pw.r2;
    return bbw_any(bbw_andnot(bbw_and(place_around(c, pw), bbw_at(&s->shipsym, r2)), bbw_at(&s->enclosed, r2)));
}

void do_ship(kontor_state *s, int value, kontor_log *log) {
    int seat = s->order[s->turn];
    if (value != KONTOR_NONE) {
        s->ship_cell = (uint8_t)value;
        s->ship_moved = 1;
        log_ev(log, KONTOR_EV_SHIP, seat, KONTOR_NONE, value, 0);
        if (any_removable(s)) {
            s->phase = KONTOR_PHASE_REMOVE;
            return;
        }
    }
    enter_place(s, log);
}

/* enter_place in the playout (playout_ship's and playout_remove's): the
 * usual card's cells (not a special card, no scenario's cell rules) worked
 * out inline as start_turn does, not through compute_cells; every other
 * case through enter_place (the same cells: a pure function of the state). */
__attribute__((always_inline)) static inline void playout_enter_place(kontor_state *s) {
    int seat = s->order[s->turn], id = s->choice[seat];
    if (!is_special(card_of(s, id)) && !(s->cfg->water_touch | s->cfg->inner_value | s->cfg->tictactoe)) {
        s->phase = KONTOR_PHASE_PLACE;
        s->cells = legal_cells(s, seat, id); /* compute_cells */
        s->cells_water = bb_empty();
        if (bb_any(s->cells)) return;
    }
    enter_place_quiet(s); /* a jump: playout_ship saves no register (advanced 28,576 -> 28,472 a game, four 44,080 -> 43,940) */
}

/* do_ship in the playout's loop (decide.c): without a log, the place phase
 * by playout_enter_place. */
void playout_ship(kontor_state *s, int value) {
    if (value != KONTOR_NONE) {
        s->ship_cell = (uint8_t)value;
        s->ship_moved = 1;
        if (any_removable_win(s, (unsigned)value)) {
            s->phase = KONTOR_PHASE_REMOVE;
            return;
        }
    }
    playout_enter_place(s);
}

static void export_on_remove(kontor_state *s, int cell);
static void tile_bonus_moves(kontor_state *s, int cell);

/* do_remove in the playout's loop (decide.c) for two seats (no pile phase):
 * without a log, the place phase by playout_enter_place and not
 * compute_cells (issue 17, session fourteen). */
void playout_remove(kontor_state *s, int value) {
    if (value != KONTOR_NONE) {
        size_t c = (unsigned)value, i = c >> 6; /* the indices: no sign to extend */
        int id = s->cell_card[c];
        int team = card_of(s, id)->colour;
        /* before_remove, its tests inline */
        if (export_mark(s, id)) export_on_remove(s, value);
        if (s->cfg->tiles) tile_bonus_moves(s, value);
        /* remove_raw inline: the card's word and bit once, the byte stores last */
        uint64_t keep = ~(1ULL << (c & 63));
        s->occ.w[i] &= keep;
        s->dock.w[i] &= keep;
        s->water.w[i] &= keep;
        s->customs.w[i] &= keep;
        s->shipsym.w[i] &= keep;
        if (team < 2) {
            s->team_dock[team].w[i] &= keep;
            if (s->crane[team].w[i] & ~keep) { /* the cells next to the cranes change only with a crane */
                s->crane[team].w[i] &= keep;
                s->crane_near[team] = bb_neighbours(s->crane[team]);
            }
        }
        /* the frontier (the free cells next to a card) changes only on the
         * cell and its neighbours, whose own neighbours lie in the card's
         * window (PLACE_WIN, as the placement's): the free neighbours stay
         * in it when next to a card still, the cell joins it when next to
         * one (remove_raw works the whole out again) */
        place_win pw = PLACE_WIN[c];
        size_t r2 = pw.r2;
        bb_w around = place_around(c, pw), occ = bbw_at(&s->occ, r2), free_nb = bbw_andnot(around, occ);
        bb_w front = bbw_at(&s->front, r2);
        bbw_put(&s->front, r2, bbw_or(bbw_andnot(front, free_nb), bbw_and(free_nb, bbw_nb(occ))));
        if (bbw_any(bbw_and(around, occ))) s->front.w[i] |= ~keep;
        s->ncards_board--;
        s->cell_card[c] = KONTOR_NONE;
        pile_put_under(s, &s->dock_pile[team], id); /* put_under_pile without a log; owner_seat of two */
    }
    playout_enter_place(s);
}

/* enter_place without a log, out of line: the rare case of playout_ship
 * (a special card, a scenario's cell rule, no legal cell). */
static __attribute__((noinline)) void enter_place_quiet(kontor_state *s) { enter_place(s, NULL); }

static void enter_place(kontor_state *s, kontor_log *log) {
    int seat = s->order[s->turn];
    s->phase = KONTOR_PHASE_PLACE;
    compute_cells(s, seat, s->choice[seat]);
    if (!bb_any(s->cells) && !bb_any(s->cells_water)) {
        take_back(s, seat, KONTOR_TAKEBACK_NOCELL, log);
        next_turn(s, log);
    }
}

static void put_under_pile(kontor_state *s, int to, int id, kontor_log *log) {
    pile_put_under(s, &s->dock_pile[to], id); /* a public card: it was on the board */
    if (log && log->n && log->ev[log->n - 1].kind == KONTOR_EV_REMOVE) log->ev[log->n - 1].a = (uint16_t)to;
}

/* Exportlager: a card that sent warehouses to the export store leaves the
 * board (ship or bribe). Its owner takes its warehouses out of the area;
 * "hat kein Lagerhaus fuer die entsprechende Ware in dem Gebiet, so muss er
 * das Lagerhaus aus seinem Exportlager nehmen" (and only then). Warehouses
 * belong to cards here, so one taken from the area instead of the export
 * store is a mark that moves to another card of the same good (ruling E2). */
static void export_on_remove(kontor_state *s, int cell) {
    const kontor_card *k = card_of(s, s->cell_card[cell]);
    int t = k->colour;
    bb_t area = bb_and(bb_flood(bb_cell(cell), s->dock), s->team_dock[t]);
    for (int g = 0; g < 3; g++) {
        int kx = (export_mark(s, s->cell_card[cell]) >> (2 * g)) & 3;
        if (!kx) continue;
        int net = 0; /* the player's warehouses of g in the area's store */
        for (bb_t a = area; bb_any(a);) {
            int c = bb_pop(&a);
            const kontor_card *u = card_of(s, s->cell_card[c]);
            if (u->kind == KONTOR_KIND_GOODS) net += u->goods[g] - ((export_mark(s, s->cell_card[c]) >> (2 * g)) & 3);
        }
        int need = k->goods[g];
        int from_export = need > net ? need - net : 0;
        int left = net >= need ? net - need : 0;
        int others = net - (need - kx); /* what the other cards hold now */
        int add = others - left;        /* marks that move to other cards */
        s->export_n[t][g] = (uint8_t)(s->export_n[t][g] - from_export);
        for (bb_t a = area; bb_any(a) && add > 0;) {
            int c = bb_pop(&a);
            if (c == cell) continue;
            const kontor_card *u = card_of(s, s->cell_card[c]);
            int m = (export_mark(s, s->cell_card[c]) >> (2 * g)) & 3;
            while (u->kind == KONTOR_KIND_GOODS && m < u->goods[g] && add > 0) {
                export_add(s, s->cell_card[c], g);
                m++, add--;
            }
        }
    }
    export_clear(s, s->cell_card[cell]);
}

/* Aktionstafeln: the dock card on cell, which holds a tile's extra warehouse
 * for its area, leaves the board: the warehouse stays in the area with
 * another card of the same player there, or is lost (ruling E5). */
static void tile_bonus_moves(kontor_state *s, int cell) {
    for (int g = 0; g < 3; g++) {
        if (s->tile_bonus[g] != cell) continue;
        int t = card_of(s, s->cell_card[cell])->colour;
        bb_t rest = bb_and(bb_flood(bb_cell(cell), s->dock), s->team_dock[t < 2 ? t : 0]);
        bb_clear(&rest, cell);
        s->tile_bonus[g] = bb_any(rest) ? (uint8_t)bb_first(rest) : KONTOR_NONE;
    }
}

/* A dock card is about to leave the board (ship, bribe, event). */
void before_remove(kontor_state *s, int cell) {
    if (export_mark(s, s->cell_card[cell])) export_on_remove(s, cell);
    if (s->cfg->tiles) tile_bonus_moves(s, cell);
}

void do_remove(kontor_state *s, int value, kontor_log *log) {
    int seat = s->order[s->turn];
    if (value != KONTOR_NONE) {
        int id = s->cell_card[value];
        int team = card_of(s, id)->colour;
        before_remove(s, value);
        remove_raw(s, value);
        log_ev(log, KONTOR_EV_REMOVE, seat, id, value, owner_seat(s, team));
        if (s->cfg->nseats == 4) {
            /* the remover chooses which player of the card's team takes it (R21) */
            s->removed_card = (uint8_t)id;
            s->phase = KONTOR_PHASE_PILE;
            return;
        }
        put_under_pile(s, owner_seat(s, team), id, log);
    }
    enter_place(s, log);
}

void do_pile(kontor_state *s, int value, kontor_log *log) {
    int id = s->removed_card;
    s->removed_card = KONTOR_NONE;
    pile_put_under(s, &s->dock_pile[value], id);
    log_ev(log, KONTOR_EV_REMOVE, s->order[s->turn], id, KONTOR_NONE, value);
    enter_place(s, log);
}


/* Lay a special card; as_water only matters for a customs house. */
__attribute__((noinline)) static void place_special(kontor_state *s, int seat, int cell, int id, int as_water,
                                                   kontor_log *log) {
    const kontor_card *k = card_of(s, id);
    if (k->kind == KONTOR_KIND_CUSTOMS) {
        place_as(s, cell, id, as_water);
        log_ev(log, KONTOR_EV_PLACE, seat, id, cell, as_water);
        return;
    }
    /* a flood or a bridge covers the card on cell, which stays under it
     * (with the Exportlager, its exported warehouses stay exported) */
    int under = s->cell_card[cell];
    export_clear(s, under);
    if (s->cfg->tiles) tile_bonus_moves(s, cell);
    if (s->nunder < KONTOR_UNDER_MAX) {
        s->under_cell[s->nunder] = (uint8_t)cell;
        s->under_card[s->nunder] = (uint8_t)under;
        s->nunder++;
    }
    remove_raw(s, cell);
    place_as(s, cell, id, k->kind == KONTOR_KIND_FLOOD);
    log_ev(log, KONTOR_EV_OVERBUILD, seat, id, cell, under);
}

/* do_place in two copies, one without a log (the playouts'), as resolve_n:
 * no log_ev test left in it (a random game: basic 32,605 -> 32,376
 * instructions, four 71,470 -> 70,998; session ten). */
__attribute__((always_inline)) static inline void place_n(kontor_state *s, int value, int as_water, kontor_log *log);
__attribute__((always_inline)) static inline void after_scoring_in(kontor_state *s, int seat, int water, int special,
                                                                   int plain, kontor_log *log);

void do_place(kontor_state *s, int value, int as_water, kontor_log *log) {
    if (!log) place_n(s, value, as_water, NULL);
    else place_n(s, value, as_water, log);
}

/* A placement's scoring, place_n's and the playout's (playout_placed): the
 * area of a dock card, the areas next to a water card (enclose_at, from the
 * cell); and when the extent grew, the areas next to cells that just became
 * unplayable (only they can have been closed by the new edge). */
__attribute__((always_inline)) static inline void score_placed(kontor_state *s, int seat, int value, int water,
                                                               int special, int grew, bb_t mask_before,
                                                               kontor_log *log) {
    if (!grew && !s->cfg->inner_value) {
        if (may_enclose(s, value, water)) enclose_at(s, value, water, log);
        after_scoring(s, seat, water, special, log);
        return;
    }
    bb_t candidates = water ? bb_around(value) : bb_cell(value);
    if (grew) {
        /* with edge=both every unplayable cell may have begun to close areas */
        bb_t newly = s->cfg->edge_both ? bb_andnot(bb_all(), s->mask) : bb_andnot(mask_before, s->mask);
        candidates = bb_or(candidates, bb_neighbours(newly));
    }
    check_enclosures(s, candidates, log);
    after_scoring(s, seat, water, special, log);
}

__attribute__((always_inline)) static inline void place_n(kontor_state *s, int value, int as_water, kontor_log *log) {
    int seat = s->order[s->turn];
    int id = s->choice[seat];
    if (value == KONTOR_NONE) { /* optional_place: declined */
        take_back(s, seat, KONTOR_TAKEBACK_DECLINED, log);
        next_turn(s, log);
        return;
    }
    const kontor_card *k = card_of(s, id);
    int special = is_special(k);
    bb_t mask_before;
    s->last_layer = (uint8_t)seat;
    int water, grew;
    if (special) {
        mask_before = s->mask;
        place_special(s, seat, value, id, as_water, log);
        water = bb_test(&s->water, value);
        grew = !bb_eq(mask_before, s->mask);
    } else {
        /* the mask changed (and what it was in mask_before); the card is
         * public since its reveal (resolve_n) */
        grew = place_card(s, value, id, is_water(k), &mask_before, 0);
        log_ev(log, KONTOR_EV_PLACE, seat, id, value, 0);
        water = is_water(k);
        if (s->cfg->export_store && k->kind == KONTOR_KIND_GOODS && s->cfg->nseats == 2) {
            /* Exportlager: the warehouses go in after the player says whether
             * one goes to his export store; the area is scored after that */
            s->placed_cell = (uint8_t)value;
            s->phase = KONTOR_PHASE_EXPORT;
            return;
        }
    }
    score_placed(s, seat, value, water, special, grew, mask_before, log);
}

/* The playout's entry (issue 17): the usual card (from a hand, not special,
 * inside the extent, no KONTOR__HOOK_PLACE) is laid by a path whose every
 * call is a jump, with no stack frame; the rest goes to do_place or to the
 * functions below, each place_n's own code from where the path left it
 * (session twelve). The card's neighbours are one register of the eight
 * rows around it, for the frontier, a crane's neighbours and both enclosure
 * tests; its byte stores first, its colour and ship read where used, the
 * seat and the cell unsigned indices (three saved registers, were six): basic
 * 20,417 -> 19,324 with the start's cache (session thirteen, docs/engine-speed.md). */
/* The card lies (lay_bits) outside the extent, or a scenario's rule comes
 * next. */
/* A board that grows, no placement rule, the unplayable cells close areas
 * as soon as they are (no edge=both): grow_mask_step (session thirteen),
 * inline in playout_place_out. */
__attribute__((always_inline)) static inline void playout_grown(kontor_state *s, int seat, int value, int water) {
    bb_t lines;
    if (grow_mask_step(s, value, &lines)) {
        /* the card's cell, or its neighbours (BB_NEAR's three words),
         * added to the lines in place (bb_or of bb_around's four bit
         * sets cost basic 38 instructions a game, advanced 78) */
        size_t c = (unsigned)value, i = c >> 6;
        if (water) {
            const uint64_t *n = BB_NEAR[c].w;
            lines.w[i] |= n[1];
            if (i > 0) lines.w[i - 1] |= n[0];
            if (i < 3) lines.w[i + 1] |= n[2];
        } else {
            lines.w[i] |= 1ULL << (c & 63);
        }
        check_enclosures(s, lines, NULL);
    } else if (may_enclose_at(s, value, water, ~0ULL)) {
        enclose_at(s, value, water, NULL);
    }
    after_scoring_in(s, seat, water, 0, 1, NULL);
}
__attribute__((noinline)) static void playout_placed(kontor_state *s, int seat, int value, int water, int outside) {
    bb_t mask_before = s->mask;
    int grew = outside && grow_extent(s, value) ? update_mask(s) : 0;
    if (s->cfg->export_store && card_of(s, s->choice[seat])->kind == KONTOR_KIND_GOODS && s->cfg->nseats == 2) {
        s->placed_cell = (uint8_t)value;
        s->phase = KONTOR_PHASE_EXPORT;
        return;
    }
    score_placed(s, seat, value, water, 0, grew, mask_before, NULL); /* place_n's scoring from here */
}
/* The card may have closed an area (may_enclose). */
__attribute__((noinline)) static void playout_enclose(kontor_state *s, size_t seat, int value, int water) {
    enclose_quiet(s, value, water);
    after_scoring_in(s, (int)seat, water, 0, 1, NULL);
}
/* The usual card outside the extent, or a scenario's rule (out of line: 7%
 * of a basic game's placements; playout_place tests the extent before it
 * lays the card, and keeps no answer in a register across its work): the
 * card laid here, then playout_grown on a board that grows (inline here,
 * not in playout_placed: no frame for place_n's scoring; basic -15
 * instructions a game, advanced -29), else playout_placed. */
__attribute__((noinline)) static void playout_place_out(kontor_state *s, int value) {
    size_t seat = s->order[s->turn], c = (unsigned)value;
    int id = s->choice[seat];
    const kontor_card *k = card_of(s, id);
    int water = is_water(k), outside = outside_win(s, c);
    bb_w occ;
    playout_lay(s, seat, c, id, k, water, &occ);
    if (outside && !(s->hooks & KONTOR__HOOK_PLACE) && !s->cfg->fixed_board && !s->cfg->edge_both) {
        playout_grown(s, (int)seat, value, water);
        return;
    }
    playout_placed(s, (int)seat, value, water, outside);
}
void playout_place(kontor_state *s, int value, int as_water) {
    size_t seat = s->order[s->turn]; /* a register's width: no second copy for the indices */
    if (value == KONTOR_NONE) {
        do_place(s, value, as_water, NULL);
        return;
    }
    int id = s->choice[seat];
    const kontor_card *k = card_of(s, id);
    if (is_special(k)) {
        do_place(s, value, as_water, NULL);
        return;
    }
    size_t c = (unsigned)value; /* the indices: no sign to extend */
    /* the card's byte stores first (they may alias anything: nothing is
     * read again after them); playout_place_out makes them again */
    s->last_layer = (uint8_t)seat;
    s->cell_card[c] = (uint8_t)id;
    /* || and not |: two tests and jumps, and the two saved registers pushed
     * after them (basic -88 instructions a game, advanced -139) */
    if (outside_win(s, c) || (s->hooks & KONTOR__HOOK_PLACE)) {
        playout_place_out(s, value);
        return;
    }
    int water = is_water(k);
    bb_w occ;
    bb_w around = playout_lay(s, seat, c, id, k, water, &occ);
    size_t r2 = PLACE_WIN[c].r2;
    /* may_enclose_at with the edges closed (with edge=both before they
     * close, it lets more cards through: fewer gaps, and enclose_at
     * decides), in the same window: the gaps are free cells of the mask */
    bb_w gap = bbw_andnot(bbw_at(&s->mask, r2), occ);
    if (water) {
        /* the open dock cards next to it first: with none, no gaps'
         * neighbours to work out (basic -24 instructions a game) */
        bb_w open = bbw_and(around, bbw_andnot(bbw_at(&s->dock, r2), bbw_at(&s->enclosed, r2)));
        if (bbw_any(open) && bbw_any(bbw_andnot(open, bbw_nb(gap)))) {
            playout_enclose(s, seat, value, 1);
            return;
        }
    } else if (!bbw_any(bbw_and(around, gap))) {
        playout_enclose(s, seat, value, 0);
        return;
    }
    after_scoring_in(s, (int)seat, water, 0, 1, NULL);
}

/* The rest of a placement after the areas are scored: the end checks, the
 * draw and the coin, the next turn. */

/* Aktionstafeln: a water card with a tile has just been closed in on all four
 * sides by a placement: its tile goes to the player who laid that card. One
 * placement can close at most one (no cell touches two ends of the cross).
 * Coins, the ship and the point take effect at once; the centre and the
 * warehouses are decisions, taken after the draw (s->tile_cur). */
__attribute__((noinline)) static void check_tiles(kontor_state *s, int seat, kontor_log *log) {
    for (int k = 0; k < 4; k++) {
        if (s->tile_at[k] == KONTOR_NONE) continue;
        int c = kontor_cell(cross_end[k][0], cross_end[k][1]);
        bb_t around = bb_around(c);
        if (!bb_eq(bb_and(around, s->occ), around)) continue;
        int tile = s->tile_at[k], team = kontor_team(s, seat);
        s->tile_at[k] = KONTOR_NONE;
        log_ev(log, KONTOR_EV_TILE, seat, KONTOR_NONE, c, tile);
        uint8_t got[KONTOR_MAX_SEATS];
        if (tile == 4 || tile == 5) /* one or two coins from the bank, as far as it goes */
            for (int i = 0; i < tile - 3; i++) pay_out(s, 1u << seat, got);
        else if (tile == 6) s->ship_owner = (uint8_t)team;
        else if (tile == 7) s->bonus_points[team]++;
        else s->tile_cur = (uint8_t)tile; /* "muss sofort ausfuehren, sonst verfallen sie" */
    }
}

/* A tile's decision (s->tile_cur) after the draw: 1 when seat has one to
 * take (the tile phase), else the tile is lost. Out of line: the placement
 * keeps its move list off its own stack. */
__attribute__((noinline)) static int tile_waits(kontor_state *s, int seat) {
    kontor_move m[KONTOR_MAX_MOVES];
    if (tile_options(s, seat, s->tile_cur, m) > 1) {
        s->phase = KONTOR_PHASE_TILE;
        return 1;
    }
    s->tile_cur = KONTOR_NONE; /* nothing it could do: the tile is lost */
    return 0;
}

/* plain: neither Aktionstafeln nor Tic Tac Toe (the caller tested). */
__attribute__((always_inline)) static inline void after_scoring_in(kontor_state *s, int seat, int water, int special,
                                                                   int plain, kontor_log *log) {
    if (!plain && (s->cfg->tiles | s->cfg->tictactoe)) { /* one test for the two scenarios' rules */
        if (s->cfg->tiles) check_tiles(s, seat, log);
        if (s->cfg->tictactoe && row_ends_game(s, log)) return;
    }
    if (board_full(s) && !s->cfg->final_draw) { /* R9: the game ends at once */
        end_game(s, KONTOR_END_FULL, log);
        return;
    }
    if (!special) {
        size_t p = (unsigned)seat; /* the indices: no sign to extend */
        /* draw the same kind, from the top of the pile (a public card);
         * no card is drawn after a special card, and it earns no coin */
        kontor_pile *pile = water ? &s->water_pile : s->dock_pile + p;
        int n = pile->n;
        if (n) {
            /* pile_draw, then pile_top of what is left, with the head and
             * the count read once (a random game: basic 26,193 -> 26,083
             * instructions, advanced 41,462 -> 41,294, four 61,783 ->
             * 61,578; session eleven) */
            int head = pile->head, drawn = s->pile_card[head];
            head++;
            pile->head = (uint8_t)head;
            pile->n = (uint8_t)(n - 1);
            if (s->hand_n[p] < KONTOR_HAND_MAX) s->hand[p][s->hand_n[p]++] = (uint8_t)drawn; /* hand_add */
            log_ev(log, KONTOR_EV_DRAW, seat, drawn, KONTOR_NONE, 0);
            if (n > 1) { /* pub_set without its test: a pile holds cards of the set only
                            (property_piles_hold_only_cards_of_the_set) */
                size_t top = s->pile_card[(unsigned)head];
                s->pub[top >> 6] |= 1ULL << (top & 63);
            }
        }
        if (water && s->treasury) {
            s->treasury--;
            s->coins[p]++;
            log_ev(log, KONTOR_EV_COIN, seat, KONTOR_NONE, KONTOR_NONE, 1);
        }
    }
    if (board_full(s)) {
        end_game(s, KONTOR_END_FULL, log);
        return;
    }
    /* a tile waits only with Aktionstafeln (check_tiles; the deal leaves
     * none): plain has no test */
    if (!plain && s->tile_cur != KONTOR_NONE && tile_waits(s, seat)) return;
    next_turn(s, log);
}
__attribute__((always_inline)) inline void after_scoring(kontor_state *s, int seat, int water, int special,
                                                                kontor_log *log) {
    after_scoring_in(s, seat, water, special, 0, log);
}

/* The end of a turn for the phases kept in other files (Aktionstafeln's
 * tile, tiles.c): next_turn is inline here. */
void turn_done(kontor_state *s, kontor_log *log) { next_turn(s, log); }
