/* round.c: the round and its turns: declarations (R1), hidden choices and
 * their reveal, taxes and the order of play, the start and the end of a
 * turn. The place phase (laying a card, what it scores, the draw and the
 * coin) is in place.c, the ship and the removal it brings in ship.c (split
 * from here: issue 17, no file of the core over ~800 lines). The phases
 * only scenarios and expansions have live beside them: the bribe and the
 * special cards' buy in buy.c, Aktionstafeln's tiles in tiles.c.
 *
 * Each phase is a do_* function that takes one decision and then runs the
 * rules forward until some seat owes the next one; decide.c dispatches to
 * them. */
#include <stdio.h>
#include <string.h>

#include "core/rules.h"

/* ---- the round ------------------------------------------------------------------ */

__attribute__((always_inline)) static inline void start_turn_of(kontor_state *s, int seat, kontor_log *log);
/* (the seat at order[turn]) */
__attribute__((always_inline)) static inline void start_turn(kontor_state *s, kontor_log *log) {
    start_turn_of(s, s->order[s->turn], log);
}

/* A round opens with the buy phase when special cards are for sale (the
 * scenario for two) and somebody can pay; else with the choice. */


/* A round opens with an event card (Ereigniskarten) after a round in which an
 * area was scored, then the bribe phase (Bakschisch) when somebody can bribe,
 * then the buy phase when special cards are for sale, then the choice. */
__attribute__((always_inline)) static inline void begin_round_hooks_in(kontor_state *s, kontor_log *log);
__attribute__((noinline)) static void begin_round_hooks(kontor_state *s, kontor_log *log);
void begin_round(kontor_state *s, kontor_log *log) {
    if (!(s->hooks & (KONTOR__HOOK_ROUND | KONTOR__HOOK_HIDDEN))) {
        /* no events, bribes or special cards to buy, declarations: the basic and advanced game */
        s->event_due = 0;
        s->phase = KONTOR_PHASE_DECLARE; /* open_choice without declare=hidden */
        return;
    }
    if (!(s->hooks & KONTOR__HOOK_ROUND)) {
        /* declare=hidden alone (the search's records): the choice at once,
         * as begin_round_hooks would open it (open_choice), without its
         * call: an iteration of the basic game's search 15,238 -> 15,147 */
        s->event_due = 0;
        s->phase = KONTOR_PHASE_CHOOSE;
        return;
    }
    begin_round_hooks(s, log); /* out of line: no frame for the turn's end, which inlines this */
}
static void begin_round_hooks(kontor_state *s, kontor_log *log) { begin_round_hooks_in(s, log); }
static inline void begin_round_hooks_in(kontor_state *s, kontor_log *log) {
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

/* new_round's rest in a game with a scenario's cell rule or a round hook
 * (new_round_in tests the two at once): out of line, begin_round_hooks'
 * body in it; declare=hidden's phase first (new_round_in stored the
 * declarations') */
__attribute__((always_inline)) static inline void new_round_hooks_in(kontor_state *s, kontor_log *log) {
    if (s->hooks & KONTOR__HOOK_HIDDEN) s->phase = KONTOR_PHASE_CHOOSE; /* begin_round's (open_choice) */
    if (s->hooks & KONTOR__HOOK_CELLS) {
        if (!any_placeable(s)) {
            end_game(s, KONTOR_END_STUCK, log);
            return;
        }
        if (!(s->hooks & KONTOR__HOOK_ROUND)) {
            log_ev(log, KONTOR_EV_ROUND, KONTOR_NONE, KONTOR_NONE, KONTOR_NONE, s->round);
            s->event_due = 0; /* begin_round's, its phase in new_round_in */
            return;
        }
    }
    log_ev(log, KONTOR_EV_ROUND, KONTOR_NONE, KONTOR_NONE, KONTOR_NONE, s->round);
    begin_round_hooks_in(s, log);
}
/* (a copy without a log: the playouts' declare=hidden tests no log) */
__attribute__((noinline)) static void new_round_hooks_quiet(kontor_state *s) { new_round_hooks_in(s, NULL); }
__attribute__((noinline)) static void new_round_hooks(kontor_state *s, kontor_log *log) { new_round_hooks_in(s, log); }

__attribute__((always_inline)) static inline void new_round_in(kontor_state *s, kontor_log *log) {
    s->round++;
    /* begin_round's phase for the usual game, stored with the choices, and
     * declare=hidden's choice set over it below: the end (end_game reads no
     * phase before or beside the placement's) and new_round_hooks (begin_round
     * sets its own) are the same from it as from the choice phase. An
     * immediate, not the phase worked out from the hooks (six instructions
     * a round): basic 15,634 -> 15,514 a game with the choices' word */
    s->phase = KONTOR_PHASE_DECLARE;
    s->norder = 0;
    s->turn = 0;
    /* the four choices KONTOR_NONE as one word: an immediate (-O3's
     * vector of the loop loaded its constant from memory) */
    const uint32_t none4 = 0x01010101u * (uint8_t)KONTOR_NONE;
    memcpy(s->choice, &none4, 4);
    if (s->round > s->cfg->max_rounds) {
        s->round--;
        end_game(s, KONTOR_END_MAX_ROUNDS, log);
        return;
    }
    /* does any seat hold a card? The four counts as one word: a game for
     * two holds no card for seats 2 and 3 (their counts stay 0 from the
     * deal on: check_hands_past_the_seats_are_empty in test_properties) */
    uint32_t any;
    memcpy(&any, s->hand_n, 4);
    if (!any) {
        end_game(s, KONTOR_END_STUCK, log);
        return;
    }
    if (s->hooks & (KONTOR__HOOK_CELLS | KONTOR__HOOK_ROUND | KONTOR__HOOK_HIDDEN)) {
        /* (the hooks read again here: the usual game's test is one
         * instruction on the state's byte, not a load kept for this) */
        __asm__ volatile("" ::: "memory");
        if (s->hooks & (KONTOR__HOOK_CELLS | KONTOR__HOOK_ROUND)) {
            if (log) new_round_hooks(s, log);
            else new_round_hooks_quiet(s);
            return;
        }
        s->phase = KONTOR_PHASE_CHOOSE; /* declare=hidden alone (the search's records): begin_round's */
    }
    log_ev(log, KONTOR_EV_ROUND, KONTOR_NONE, KONTOR_NONE, KONTOR_NONE, s->round);
    s->event_due = 0; /* begin_round's, its phase above */
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
__attribute__((noinline)) void next_turn_quiet(kontor_state *s) { /* the new round opens the choices */
    size_t t = s->turn;
    if (t + 1 >= s->norder) {
        s->ship_moved = 0; /* (start_turn sets it on every path) */
        new_round_in(s, NULL);
        return;
    }
    /* the next seat read before the choice's store (which might write it, to
     * the compiler), not again after it: basic -6, four -32 a game */
    int next = s->order[t + 1];
    s->choice[s->order[t]] = KONTOR_NONE;
    s->turn = (uint8_t)(t + 1);
    start_turn_of(s, next, NULL);
}
__attribute__((noinline)) void next_turn_logged(kontor_state *s, kontor_log *log) { next_turn_in(s, log); }
/* next_turn, which picks the copy, is inline in rules.h: the placement
 * (place.c) and the ship (ship.c) end their turns with it too. */

/* The seat's chosen card goes back to its hand (R3, the taxes, optional_place). */
void take_back(kontor_state *s, int seat, int reason, kontor_log *log) {
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
    return bb_fold_two(&s->water);
}

__attribute__((always_inline)) static inline void start_turn_of(kontor_state *s, int seat, kontor_log *log) {
    int id = s->choice[seat];
    const kontor_card *k = card_of(s, id);
    if (k->ship && s->cfg->ship) {
        /* the ship first (start_turn_all's test, without tile 7's owner) */
        if (s->ship_owner == KONTOR_NONE && ship_has_target(s)) {
            s->ship_moved = 0;
            s->phase = KONTOR_PHASE_SHIP;
            return;
        }
        goto all;
    }
    /* a special card (none is dealt without cfg.specials:
     * test_no_special_card_is_dealt_without_specials) or the cell rules:
     * start_turn_all; one test of the state's byte when neither is in the
     * game */
    if ((s->hooks & (KONTOR__HOOK_CELLS | KONTOR__HOOK_SPECIAL)) && (is_special(k) || (s->hooks & KONTOR__HOOK_CELLS)))
        goto all;
    s->ship_moved = 0;
    s->phase = KONTOR_PHASE_PLACE;
    if (put_usual_cells(s, seat, k)) return; /* compute_cells */
all:
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

/* The end of a turn for the tile phase (Aktionstafeln, tiles.c). */
void turn_done(kontor_state *s, kontor_log *log) { next_turn(s, log); }
