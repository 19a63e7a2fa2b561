/* decide.c: the decision interface: who acts, the legal decisions, applying
 * one (checked for everything from outside; unchecked inside the playout,
 * which only applies moves it generated), the random playout and queries.
 *
 * This is the engine's public entry for play; the rules themselves are in
 * deal.c, round.c, area.c, score.c and variants.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/apply.h"
#include "core/rules.h"

int kontor_team(const kontor_state *s, int seat) { return s->cfg->nseats == 4 ? seat / 2 : seat; }
int kontor_over(const kontor_state *s) { return s->phase == KONTOR_PHASE_OVER; }

/* ---- the decision interface ------------------------------------------------------ */

unsigned kontor_actors(const kontor_state *s) {
    unsigned m = 0;
    switch (s->phase) {
    case KONTOR_PHASE_CHOOSE:
    case KONTOR_PHASE_DECLARE:
        for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++)
            if (s->choice[p] == KONTOR_NONE) m |= 1u << p;
        return m;
    case KONTOR_PHASE_BUY:
        for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++)
            if (s->buy[p] == KONTOR_NONE) m |= 1u << p;
        return m;
    case KONTOR_PHASE_BRIBE:
        for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++)
            if (s->bribe[p] == KONTOR_NONE) m |= 1u << p;
        return m;
    case KONTOR_PHASE_SELECT:
        for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++)
            if (s->selected[p] < select_total(s)) m |= 1u << p;
        return m;
    case KONTOR_PHASE_TAVERN: return 1u << tavern_seat(s);
    case KONTOR_PHASE_EVENT: return 1u << event_seat(s);
    case KONTOR_PHASE_TILE:
    case KONTOR_PHASE_EXPORT:
    case KONTOR_PHASE_SHIP:
    case KONTOR_PHASE_REMOVE:
    case KONTOR_PHASE_PLACE:
    case KONTOR_PHASE_PILE:
        return 1u << s->order[s->turn];
    default:
        return 0;
    }
}

int kontor_current(const kontor_state *s) {
    if (s->phase == KONTOR_PHASE_OVER || s->phase == KONTOR_PHASE_CHOOSE || s->phase == KONTOR_PHASE_BUY ||
        s->phase == KONTOR_PHASE_BRIBE || s->phase == KONTOR_PHASE_SELECT || s->phase == KONTOR_PHASE_DECLARE)
        return -1;
    if (s->phase == KONTOR_PHASE_TAVERN) return tavern_seat(s);
    if (s->phase == KONTOR_PHASE_EVENT) return event_seat(s);
    return s->order[s->turn];
}

/* The goods of the card just placed, for the export phase (bit g: good g). */
static unsigned export_goods(const kontor_state *s) {
    const kontor_card *k = card_of(s, s->cell_card[s->placed_cell]);
    return (k->goods[0] ? 1u : 0) | (k->goods[1] ? 2u : 0) | (k->goods[2] ? 4u : 0);
}

/* The two seats of the removed card's team, in the pile phase. */
static int pile_seats(const kontor_state *s, int out[2]) {
    int team = card_of(s, s->removed_card)->colour;
    out[0] = owner_seat(s, team);
    out[1] = owner_seat(s, team) + 1;
    return 2;
}

/* The cells of t as decisions of kind, in bb_pop's order (the lowest cell
 * first), a word at a time: bb_pop tests the whole board and looks for the
 * lowest word again at every cell (~20 instructions a cell, here ~5; the
 * search lists a placement's ~25 cells at every placement node it walks
 * through: an iteration of the basic game's search 22,809 -> 22,460). */
static inline int cells_as_moves(bb_t t, int kind, kontor_move *moves) {
    int n = 0;
    for (int i = 0; i < (int)(sizeof t.w / sizeof t.w[0]); i++)
        for (uint64_t w = t.w[i]; w; w &= w - 1) moves[n++] = KONTOR_MOVE(kind, i * 64 + __builtin_ctzll(w));
    return n;
}

/* kontor_legal's list for a seat that is to act (kontor_actors). */
__attribute__((always_inline)) static inline int legal_of(const kontor_state *s, int seat, kontor_move *moves) {
    int n = 0;
    switch (s->phase) {
    case KONTOR_PHASE_DECLARE:
        if (s->hand_n[seat]) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY);
        if (kontor__may_pass(s, seat)) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PASS);
        break;
    case KONTOR_PHASE_CHOOSE:
        for (int i = 0; i < s->hand_n[seat]; i++) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_CHOOSE, s->hand[seat][i]);
        if (kontor__may_pass_in_choice(s, seat)) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_CHOOSE, KONTOR_PASS);
        break;
    case KONTOR_PHASE_BUY:
        for (int k = 0, m = buy_max(s, seat); k <= m; k++) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_BUY, k);
        break;
    case KONTOR_PHASE_BRIBE: {
        moves[n++] = KONTOR_MOVE(KONTOR_MOVE_BRIBE, KONTOR_NONE);
        n += cells_as_moves(bribe_targets(s, seat), KONTOR_MOVE_BRIBE, moves + n);
        break;
    }
    case KONTOR_PHASE_SELECT: {
        int kind = s->selected[seat] < s->cfg->select_keep ? KONTOR_MOVE_KEEP : KONTOR_MOVE_DISCARD;
        const kontor_pile *pl = &s->dock_pile[seat];
        /* in card order, not pile order: the order of the pile is hidden */
        for (int id = 0; id < s->cfg->cards->ncards; id++)
            if (pile_has(s, pl, id)) moves[n++] = KONTOR_MOVE(kind, id);
        break;
    }
    case KONTOR_PHASE_TAVERN:
        moves[n++] = KONTOR_MOVE(KONTOR_MOVE_TAVERN, 1);
        moves[n++] = KONTOR_MOVE(KONTOR_MOVE_TAVERN, 0);
        break;
    case KONTOR_PHASE_EVENT: n = event_options(s, seat, moves); break;
    case KONTOR_PHASE_TILE: n = tile_options(s, seat, s->tile_cur, moves); break;
    case KONTOR_PHASE_EXPORT: {
        moves[n++] = KONTOR_MOVE(KONTOR_MOVE_EXPORT, KONTOR_NONE);
        unsigned g = export_goods(s);
        for (int k = 0; k < 3; k++)
            if ((g >> k) & 1) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_EXPORT, k);
        break;
    }
    case KONTOR_PHASE_SHIP: {
        moves[n++] = KONTOR_MOVE(KONTOR_MOVE_SHIP, KONTOR_NONE);
        n += cells_as_moves(ship_targets(s), KONTOR_MOVE_SHIP, moves + n);
        break;
    }
    case KONTOR_PHASE_REMOVE: {
        moves[n++] = KONTOR_MOVE(KONTOR_MOVE_REMOVE, KONTOR_NONE);
        n += cells_as_moves(removable(s), KONTOR_MOVE_REMOVE, moves + n);
        break;
    }
    case KONTOR_PHASE_PILE: {
        int ps[2];
        pile_seats(s, ps);
        moves[n++] = KONTOR_MOVE(KONTOR_MOVE_PILE, ps[0]);
        moves[n++] = KONTOR_MOVE(KONTOR_MOVE_PILE, ps[1]);
        break;
    }
    case KONTOR_PHASE_PLACE: {
        n = cells_as_moves(s->cells, KONTOR_MOVE_PLACE, moves);
        n += cells_as_moves(s->cells_water, KONTOR_MOVE_PLACE_WATER, moves + n);
        if (s->cfg->optional_place) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_PLACE, KONTOR_NONE);
        break;
    }
    default:
        break;
    }
    return n;
}

int kontor_legal(const kontor_state *s, int seat, kontor_move *moves) {
    if (seat < 0 || seat >= s->cfg->nseats || !((kontor_actors(s) >> seat) & 1)) return 0;
    return legal_of(s, seat, moves);
}

/* The search's tree lists the decisions of the seats kontor_actors just
 * named: without asking it again (~30 instructions a list, two lists an
 * iteration of the basic game's search: 21,847 -> 21,755). A card choice's
 * list (legal_of's: the hand in its order, then the pass) is the hand's
 * bytes widened to moves sixteen at once (SSE2): the first hand_n are the
 * cards, the rest of the sixteen are overwritten or not counted (moves has
 * room for KONTOR_MAX_MOVES; the sixteen bytes read lie in the state: the
 * last seat's hand is followed by hand_n). */
int kontor__legal_of_actor(const kontor_state *s, int seat, kontor_move *moves) {
#ifdef KONTOR_CHECK_UNCHECKED
    if (seat < 0 || seat >= s->cfg->nseats || !((kontor_actors(s) >> seat) & 1)) abort();
#endif
#if defined(__SSE2__) && !defined(KONTOR_NO_SSE2)
    _Static_assert(KONTOR_HAND_MAX <= 16 && KONTOR_MAX_MOVES >= 16, "a hand in one load, its moves in two stores");
    _Static_assert(offsetof(kontor_state, hand_n) == offsetof(kontor_state, hand) + sizeof(((kontor_state *)0)->hand) &&
                       KONTOR_HAND_MAX + sizeof(((kontor_state *)0)->hand_n) >= 16,
                   "sixteen bytes from the last seat's hand stay in the state");
    if (s->phase == KONTOR_PHASE_CHOOSE) {
        int n = s->hand_n[seat];
        __m128i h = _mm_loadu_si128((const __m128i *)(const void *)s->hand[seat]);
        __m128i k = _mm_set1_epi8((char)KONTOR_MOVE_CHOOSE);
        _mm_storeu_si128((__m128i *)(void *)moves, _mm_unpacklo_epi8(h, k));
        _mm_storeu_si128((__m128i *)(void *)(moves + 8), _mm_unpackhi_epi8(h, k));
        if (kontor__may_pass_in_choice(s, seat)) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_CHOOSE, KONTOR_PASS);
        return n;
    }
#endif
    return legal_of(s, seat, moves);
}

int kontor_is_legal(const kontor_state *s, int seat, kontor_move move) {
    if (seat < 0 || seat >= s->cfg->nseats || !((kontor_actors(s) >> seat) & 1)) return 0;
    int v = KONTOR_MOVE_VALUE(move), kind = KONTOR_MOVE_KIND(move);
    if (move >> 12) return 0;
    switch (s->phase) {
    case KONTOR_PHASE_DECLARE:
        if (kind != KONTOR_MOVE_DECLARE) return 0;
        if (v == KONTOR_PASS) return kontor__may_pass(s, seat);
        return v == KONTOR_PLAY && s->hand_n[seat] > 0;
    case KONTOR_PHASE_CHOOSE:
        if (kind != KONTOR_MOVE_CHOOSE) return 0;
        if (v == KONTOR_PASS) return kontor__may_pass_in_choice(s, seat);
        for (int i = 0; i < s->hand_n[seat]; i++)
            if (s->hand[seat][i] == v) return 1;
        return 0;
    case KONTOR_PHASE_BUY:
        return kind == KONTOR_MOVE_BUY && v <= buy_max(s, seat);
    case KONTOR_PHASE_BRIBE: {
        if (kind != KONTOR_MOVE_BRIBE) return 0;
        if (v == KONTOR_NONE) return 1;
        bb_t t = bribe_targets(s, seat);
        return bb_test(&t, v);
    }
    case KONTOR_PHASE_SELECT:
        if (kind != (s->selected[seat] < s->cfg->select_keep ? KONTOR_MOVE_KEEP : KONTOR_MOVE_DISCARD)) return 0;
        return pile_has(s, &s->dock_pile[seat], v);
    case KONTOR_PHASE_TAVERN:
        return kind == KONTOR_MOVE_TAVERN && v <= 1;
    case KONTOR_PHASE_EVENT:
    case KONTOR_PHASE_TILE: {
        if (kind != (s->phase == KONTOR_PHASE_EVENT ? KONTOR_MOVE_EVENT : KONTOR_MOVE_TILE)) return 0;
        kontor_move m[KONTOR_MAX_MOVES];
        int n = s->phase == KONTOR_PHASE_EVENT ? event_options(s, seat, m) : tile_options(s, seat, s->tile_cur, m);
        for (int i = 0; i < n; i++)
            if (m[i] == move) return 1;
        return 0;
    }
    case KONTOR_PHASE_EXPORT:
        if (kind != KONTOR_MOVE_EXPORT) return 0;
        return v == KONTOR_NONE || (v < 3 && ((export_goods(s) >> v) & 1));
    case KONTOR_PHASE_SHIP: {
        if (kind != KONTOR_MOVE_SHIP) return 0;
        if (v == KONTOR_NONE) return 1;
        bb_t t = ship_targets(s);
        return bb_test(&t, v);
    }
    case KONTOR_PHASE_REMOVE: {
        if (kind != KONTOR_MOVE_REMOVE) return 0;
        if (v == KONTOR_NONE) return 1;
        bb_t t = removable(s);
        return bb_test(&t, v);
    }
    case KONTOR_PHASE_PILE: {
        int ps[2];
        pile_seats(s, ps);
        return kind == KONTOR_MOVE_PILE && (v == ps[0] || v == ps[1]);
    }
    case KONTOR_PHASE_PLACE:
        if (kind == KONTOR_MOVE_PLACE_WATER) return v != KONTOR_NONE && bb_test(&s->cells_water, v);
        if (kind != KONTOR_MOVE_PLACE) return 0;
        if (v == KONTOR_NONE) return s->cfg->optional_place;
        return bb_test(&s->cells, v);
    default:
        return 0;
    }
}

void kontor__apply_unchecked(kontor_state *s, int seat, kontor_move move, kontor_log *log) {
#ifdef KONTOR_CHECK_UNCHECKED
    /* sanitizer builds (Makefile): a caller that applies a move it did not
     * generate stops here instead of corrupting the state */
    if (!kontor_is_legal(s, seat, move)) abort();
#endif
    int v = KONTOR_MOVE_VALUE(move);
    switch (s->phase) {
    case KONTOR_PHASE_CHOOSE: do_choose(s, seat, v, log); break;
    case KONTOR_PHASE_DECLARE: do_declare(s, seat, v, log); break;
    case KONTOR_PHASE_BUY: do_buy(s, seat, v, log); break;
    case KONTOR_PHASE_SHIP: do_ship(s, v, log); break;
    case KONTOR_PHASE_REMOVE: do_remove(s, v, log); break;
    case KONTOR_PHASE_PILE: do_pile(s, v, log); break;
    case KONTOR_PHASE_PLACE:
        /* without a log (the search's tree and policy playouts) by the
         * playout's path, the same placement (test_playout compares
         * kontor_playout with kontor_apply's games) */
        if (!log) playout_place(s, v, KONTOR_MOVE_KIND(move) == KONTOR_MOVE_PLACE_WATER);
        else do_place(s, v, KONTOR_MOVE_KIND(move) == KONTOR_MOVE_PLACE_WATER, log);
        break;
    case KONTOR_PHASE_BRIBE: do_bribe(s, seat, v, log); break;
    case KONTOR_PHASE_SELECT: do_select(s, seat, v, log); break;
    case KONTOR_PHASE_TAVERN: do_tavern(s, v, log); break;
    case KONTOR_PHASE_EXPORT: do_export(s, v, log); break;
    case KONTOR_PHASE_EVENT: do_event(s, v, log); break;
    case KONTOR_PHASE_TILE: do_tile(s, v, log); break;
    default: break;
    }
    if (s->cfg->bankrupt) check_bankrupt(s, log);
}

/* The hidden choices of two seats at once (v0, v1: a card or KONTOR_PASS),
 * for the search's tree, which picks both from the legal lists at a joint
 * node: the same as kontor__apply_unchecked of seat 0's and then seat 1's
 * choice (do_choose, resolve_choices) without a bankruptcy to check (the
 * caller's test: cfg.bankrupt 0), by the playout's reveal: the cards out of
 * the hands, the passers' coins (resolve_n's order: a hidden pass is paid
 * before the reveal), playout_reveal_two. An iteration of the basic game's
 * search 22,113 -> 21,987. */
void kontor__choose_two_unchecked(kontor_state *s, int v0, int v1) {
#ifdef KONTOR_CHECK_UNCHECKED
    if (s->cfg->nseats != 2 || s->cfg->bankrupt || !kontor_is_legal(s, 0, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, v0)) ||
        !kontor_is_legal(s, 1, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, v1)))
        abort();
#endif
    unsigned pass2 = (unsigned)(v0 == KONTOR_PASS) | (unsigned)(v1 == KONTOR_PASS) << 1;
    if (!(pass2 & 1)) hand_remove(s, 0, v0);
    if (!(pass2 & 2)) hand_remove(s, 1, v1);
    s->choice[0] = (uint8_t)v0;
    s->choice[1] = (uint8_t)v1;
    if (pass2) {
        uint8_t got[KONTOR_MAX_SEATS];
        pay_out(s, pass2, got);
    }
    playout_reveal_two(s, pass2);
}

/* The other phases' decisions, checked through the legal list's rules. (Not
 * inlined: kontor_is_legal's move list would give the hot path below a large
 * frame and every register to save.) */
__attribute__((noinline)) static kontor_status apply_other(kontor_state *s, int seat, kontor_move move, kontor_log *log) {
    if (!kontor_is_legal(s, seat, move)) return KONTOR_E_ILLEGAL;
    kontor__apply_unchecked(s, seat, move, log);
    return KONTOR_OK;
}

/* The checked apply. The decisions of every game (the declarations, the
 * choices, the placements) are checked here straight, the one decision
 * against the state, as kontor_is_legal checks them (seat in the game and
 * still to act, the kind of the phase and nothing above it, the value), and
 * applied without a second switch on the phase; the other phases go through
 * kontor_is_legal and kontor__apply_unchecked. A record's replay is this call
 * for every decision. property_checked_apply_accepts_exactly_the_legal_moves
 * (test_properties) compares it, move for move, with kontor_legal. */
kontor_status kontor_apply(kontor_state *s, int seat, kontor_move move, kontor_log *log) {
    int v = KONTOR_MOVE_VALUE(move);
    switch (s->phase) {
    case KONTOR_PHASE_CHOOSE: {
        /* a seat still to choose: a card in its hand, or a pass if it may */
        if (seat < 0 || seat >= s->cfg->nseats || seat >= KONTOR_MAX_SEATS || s->choice[seat] != KONTOR_NONE ||
            move >> 8 != KONTOR_MOVE_CHOOSE)
            return KONTOR_E_ILLEGAL;
        if (v == KONTOR_PASS) {
            if (!kontor__may_pass_in_choice(s, seat)) return KONTOR_E_ILLEGAL;
        } else {
            const uint8_t *h = s->hand[seat];
            int i = 0, n = s->hand_n[seat];
            while (i < n && h[i] != v) i++;
            if (i == n) return KONTOR_E_ILLEGAL;
        }
        do_choose(s, seat, v, log);
        break;
    }
    case KONTOR_PHASE_PLACE:
        /* the seat whose turn it is: a cell it may take, as a dock card or as
         * water (the customs house), or no cell where placing is optional */
        if (seat < 0 || seat >= s->cfg->nseats || seat != s->order[s->turn]) return KONTOR_E_ILLEGAL;
        if (move >> 8 == KONTOR_MOVE_PLACE) {
            if (v == KONTOR_NONE ? !s->cfg->optional_place : !bb_test(&s->cells, v)) return KONTOR_E_ILLEGAL;
            do_place(s, v, 0, log);
        } else if (move >> 8 == KONTOR_MOVE_PLACE_WATER && v != KONTOR_NONE && bb_test(&s->cells_water, v)) {
            do_place(s, v, 1, log);
        } else {
            return KONTOR_E_ILLEGAL;
        }
        break;
    case KONTOR_PHASE_DECLARE:
        /* a seat still to declare: to play if it holds a card, a pass if it may */
        if (seat < 0 || seat >= s->cfg->nseats || seat >= KONTOR_MAX_SEATS || s->choice[seat] != KONTOR_NONE ||
            move >> 8 != KONTOR_MOVE_DECLARE)
            return KONTOR_E_ILLEGAL;
        if (v == KONTOR_PASS ? !kontor__may_pass(s, seat) : v != KONTOR_PLAY || s->hand_n[seat] == 0) return KONTOR_E_ILLEGAL;
        do_declare(s, seat, v, log);
        break;
    default:
        return apply_other(s, seat, move, log);
    }
    if (s->cfg->bankrupt) check_bankrupt(s, log);
    return KONTOR_OK;
}

/* Armut: the bankruptcy check after the declarations, on do_declare's
 * state (the passers' choices a pass, the players still to choose; the
 * round goes on when somebody plays); 0 when it ended the game. */
__attribute__((noinline, cold)) static int declared_solvent(kontor_state *s, unsigned passers) {
    for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++)
        s->choice[p] = (passers >> p) & 1 ? KONTOR_PASS : KONTOR_NONE;
    check_bankrupt(s, NULL);
    return s->phase == KONTOR_PHASE_CHOOSE;
}

/* Take the card at place i out of seat's hand and return it: the rest keep
 * their order and the place left free is 0, as after hand_remove (states
 * are compared whole). */
static inline uint8_t hand_take(kontor_state *s, int seat, uint32_t i) {
    /* hand_remove's carried byte from the end (a shift from i up would be a
     * call of memmove) */
    unsigned held = s->hand_n[seat];
    s->hand_n[seat] = (uint8_t)(held - 1);
    int n = (int)held - 1;
    uint8_t *h = s->hand[seat], carry = 0;
    if (held <= 8) {
        /* a hand of at most eight: its first word, the bytes from i+1 one
         * place down; the eighth byte comes from the ninth place, free and
         * so 0 (test_a_hands_free_places_are_zero). Basic 23,758 -> 23,636,
         * four 54,294 -> 53,917 a game (session eleven's word version, with
         * masks and shifts for the bytes before i too, cost more than the
         * loop); one mask and an exclusive or, not two masks: basic -82;
         * the mask as two shifts by 8i of the difference, not a shifted
         * ~0 (one instruction less a card taken: basic 16,373 -> 16,345) */
        uint64_t v;
        unsigned sh = 8 * i;
        memcpy(&v, h, 8);
        uint8_t id = h[i];
        v ^= (v ^ (v >> 8)) >> sh << sh; /* the bytes from i: those one place up */
        memcpy(h, &v, 8);
        return id;
    }
    for (int j = n; j > (int)i; j--) {
        uint8_t t = h[j];
        h[j] = carry;
        carry = t;
    }
    uint8_t id = h[i];
    h[i] = carry;
    return id;
}

/* A declaration drawn as rng_below(&r, play + may_pass) would draw it
 * (play: the seat holds a card; may_pass: it may pass, kontor__may_pass),
 * from the generator's next number x, and whether it is a pass. The choices
 * are one or two, and rng_below of 1 or 2 is 0 or x's top bit (its
 * rejection never draws again there: (2^32 - n) mod n is 0): a seat passes
 * when it holds no card, or when it may do both and the top bit is set. */
static inline unsigned declared_pass(uint64_t x, unsigned both, unsigned hand_n) {
    return (unsigned)(hand_n == 0) | (both & (unsigned)(x >> 63));
}

/* One step of a random playout, the decisions of every phase but the two
 * that make up most of a game (kontor_playout's round of two seats and its
 * placements): out of line, so that the hot loop keeps its registers. The
 * generator comes and goes by value (a local in registers). *stop: nobody
 * can act (cannot happen in a game that is not over). */
__attribute__((noinline)) static kontor_rng playout_other(kontor_state *s, kontor_rng r, int *stop) {
    switch (s->phase) {
    case KONTOR_PHASE_DECLARE: {
        if (s->cfg->nseats == 2 && s->choice[0] == KONTOR_NONE && s->choice[1] == KONTOR_NONE) {
            /* both seats at once, in seat order: red's declaration
             * changes nothing black's choices depend on */
            int play0 = s->hand_n[0] > 0, i0 = (int)rng_below(&r, (uint32_t)(play0 + kontor__may_pass(s, 0)));
            int play1 = s->hand_n[1] > 0, i1 = (int)rng_below(&r, (uint32_t)(play1 + kontor__may_pass(s, 1)));
            s->choice[0] = i0 < play0 ? KONTOR_PLAY : KONTOR_PASS; /* do_declare(s, 0, ...) */
            do_declare(s, 1, i1 < play1 ? KONTOR_PLAY : KONTOR_PASS, NULL);
            break;
        }
        if (s->cfg->nseats == 4 && (s->choice[0] & s->choice[1] & s->choice[2] & s->choice[3]) == KONTOR_NONE) {
            /* the four seats at once, the same way (with do_declare for four: 79,501 -> 77,606) */
            uint8_t v4[4];
            for (int p = 0; p < 4; p++) {
                int play = s->hand_n[p] > 0, i = (int)rng_below(&r, (uint32_t)(play + kontor__may_pass(s, p)));
                v4[p] = i < play ? KONTOR_PLAY : KONTOR_PASS;
            }
            s->choice[0] = v4[0], s->choice[1] = v4[1], s->choice[2] = v4[2]; /* do_declare(s, 0..2, ...) */
            do_declare(s, 3, v4[3], NULL);
            break;
        }
        /* every seat still to declare, in seat order; only the last one's
         * do_declare acts (the others' would only note the choice), and
         * no seat's declaration changes what the next ones may declare */
        int last = -1, v = 0;
        for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++) {
            if (s->choice[p] != KONTOR_NONE) continue;
            if (last >= 0) s->choice[last] = (uint8_t)v; /* do_declare(s, last, v) */
            int play = s->hand_n[p] > 0, i = (int)rng_below(&r, (uint32_t)(play + kontor__may_pass(s, p)));
            v = i < play ? KONTOR_PLAY : KONTOR_PASS;
            last = p;
        }
        if (last >= 0) do_declare(s, last, v, NULL);
        break;
    }
    case KONTOR_PHASE_CHOOSE: {
        if (s->cfg->nseats == 4) {
            /* four seats: the same as below, unrolled (with do_choose's test for four: 77,606 -> 77,124) */
            int last = -1, v = 0, ph = s->cfg->pass_hidden;
            for (int p = 0; p < 4; p++) {
                if (s->choice[p] != KONTOR_NONE) continue;
                if (last >= 0) s->choice[last] = (uint8_t)v;
                int h = s->hand_n[p], n = h + (ph && kontor__may_pass(s, p)), i = (int)rng_below(&r, (uint32_t)n);
                v = i < h ? s->hand[p][i] : KONTOR_PASS;
                last = p;
            }
            if (last >= 0) do_choose(s, last, v, NULL);
            break;
        }
        /* the same for the hidden choices: a choice changes nothing the
         * next seat's choices depend on */
        int last = -1, v = 0;
        for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++) {
            if (s->choice[p] != KONTOR_NONE) continue;
            if (last >= 0) s->choice[last] = (uint8_t)v; /* do_choose(s, last, v) */
            int n = s->hand_n[p] + kontor__may_pass_in_choice(s, p), i = (int)rng_below(&r, (uint32_t)n);
            v = i < s->hand_n[p] ? s->hand[p][i] : KONTOR_PASS;
            last = p;
        }
        if (last >= 0) do_choose(s, last, v, NULL);
        break;
    }
    case KONTOR_PHASE_BUY:
        for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS && s->phase == KONTOR_PHASE_BUY; p++)
            if (s->buy[p] == KONTOR_NONE) do_buy(s, p, (int)rng_below(&r, (uint32_t)buy_max(s, p) + 1), NULL);
        break;
    case KONTOR_PHASE_SHIP: {
        bb_t t = ship_targets(s);
        int i = (int)rng_below(&r, (uint32_t)bb_count(t) + 1);
        do_ship(s, i == 0 ? KONTOR_NONE : bb_nth(t, i - 1), NULL);
        break;
    }
    case KONTOR_PHASE_REMOVE: {
        bb_t t = removable(s);
        int i = (int)rng_below(&r, (uint32_t)bb_count(t) + 1);
        do_remove(s, i == 0 ? KONTOR_NONE : bb_nth(t, i - 1), NULL);
        break;
    }
    case KONTOR_PHASE_PILE: {
        int ps[2];
        pile_seats(s, ps);
        do_pile(s, ps[rng_below(&r, 2)], NULL);
        break;
    }
    default: {
        /* the scenarios' decisions: through the move list (not the hot path) */
        int seat = __builtin_ctz(kontor_actors(s));
        kontor_move m[KONTOR_MAX_MOVES];
        int n = kontor_legal(s, seat, m);
        if (!n) {
            *stop = 1;
            return r;
        }
        kontor__apply_unchecked(s, seat, m[rng_below(&r, (uint32_t)n)], NULL);
        return r; /* kontor__apply_unchecked checked bankruptcy */
    }
    }
    if (s->cfg->bankrupt) check_bankrupt(s, NULL);
    return r;
}

/* The passers' coins and the reveal of a round of two, its choices made:
 * with Armut by the rules' reveal, else playout_round_two (the same payment,
 * the reveal case by case). */
__attribute__((always_inline)) static inline void pay_and_reveal_two(kontor_state *s, unsigned pass2, int bankrupt) {
    if (!bankrupt) {
        playout_round_two(s, pass2);
        return;
    }
    uint8_t got[KONTOR_MAX_SEATS];
    if (pass2) pay_out(s, pass2, got);
    playout_reveal_two(s, pass2);
    check_bankrupt(s, NULL);
}

/* One step of a random playout (playout_other's), with the hidden choice of
 * two seats first: a round of the search's playouts in a game with
 * declare=hidden, whose registers and stack the other phases
 * need no more (an iteration of the basic game's search 22,337 -> 22,157;
 * four 47,102 -> 47,154 a game, a call a game more: the same test first in
 * one function gave 22,218 and 47,104). */
__attribute__((noinline)) static kontor_rng playout_step(kontor_state *s, kontor_rng r, int *stop) {
    if (s->phase == KONTOR_PHASE_CHOOSE && s->cfg->nseats == 2 && s->choice[0] == KONTOR_NONE &&
        s->choice[1] == KONTOR_NONE) {
        /* both seats at once, as for the declarations, and revealed as
         * the round loop reveals them (playout_reveal_two): each card
         * taken out of the hand by its place (hand_take), not looked for
         * by its number (do_choose's reveal, hand_remove). A drawn pass
         * is a hidden pass (declare=hidden: kontor__may_pass_in_choice),
         * whose coin the reveal pays (resolve_n) and the round loop's
         * passers had taken at their declarations: paid here first. The
         * same state as do_choose's (test_playout, same_behaviour); an
         * iteration of the basic game's search 24,066 -> 22,809. */
        int h0 = s->hand_n[0], h1 = s->hand_n[1];
        int i0 = (int)rng_below(&r, (uint32_t)(h0 + kontor__may_pass_in_choice(s, 0)));
        int i1 = (int)rng_below(&r, (uint32_t)(h1 + kontor__may_pass_in_choice(s, 1)));
        unsigned pass2 = (unsigned)(i0 >= h0) | (unsigned)(i1 >= h1) << 1;
        s->choice[0] = pass2 & 1 ? KONTOR_PASS : hand_take(s, 0, (uint32_t)i0);
        s->choice[1] = pass2 & 2 ? KONTOR_PASS : hand_take(s, 1, (uint32_t)i1);
        pay_and_reveal_two(s, pass2, s->cfg->bankrupt);
        return r;
    }
    return playout_other(s, r, stop);
}

/* The i-th lowest cell of b (0-based, below its count), given the counts of
 * its first one, two and three words: no word counted again. */
static inline int pick_nth(const bb_t *b, unsigned i, unsigned c0, unsigned c1, unsigned c2) {
    unsigned q = 0, below = 0;
    if (i >= c0) {
        q = 1, below = c0;
        if (i >= c1) {
            q = 2, below = c1;
            if (i >= c2) q = 3, below = c2;
        }
    }
    uint64_t w = b->w[q];
    for (unsigned m = i - below; m > 0; m--) w &= w - 1;
    return (int)q * 64 + __builtin_ctzll(w);
}

/* The removal drawn as rng_below(r, bb_count(removable(s)) + 1) and
 * bb_nth(removable(s), i - 1) would draw it (0: none), from removable()'s
 * three words (the ship's word and the ones before and after it, lowest
 * first: bb_nth's order), counted and picked in registers: no bitboard of
 * four words zeroed, filled and counted on the stack. */
static inline int remove_pick(const kontor_state *s, kontor_rng *r) {
    unsigned c = s->ship_cell;
    if (c == KONTOR_NONE) {
        (void)rng_below(r, 1);
        return KONTOR_NONE;
    }
    const uint64_t *nb = BB_NEAR[c].w;
    unsigned w = c >> 6;
    /* nb[0] is 0 in the first word, nb[2] in the last (BB_NEAR1) */
    uint64_t t0 = nb[0] ? nb[0] & s->shipsym.w[w - 1] & ~s->enclosed.w[w - 1] : 0;
    uint64_t t1 = nb[1] & s->shipsym.w[w] & ~s->enclosed.w[w];
    uint64_t t2 = nb[2] ? nb[2] & s->shipsym.w[w + 1] & ~s->enclosed.w[w + 1] : 0;
    unsigned c0 = (unsigned)__builtin_popcountll(t0), c1 = c0 + (unsigned)__builtin_popcountll(t1);
    unsigned i = rng_below(r, c1 + (unsigned)__builtin_popcountll(t2) + 1);
    if (i == 0) return KONTOR_NONE;
    i--;
    uint64_t x = t0;
    unsigned q = w - 1;
    if (i >= c0) {
        x = t1, q = w, i -= c0;
        if (i >= c1 - c0) x = t2, q = w + 1, i -= c1 - c0;
    }
    for (; i > 0; i--) x &= x - 1;
    return (int)(q * 64 + (unsigned)__builtin_ctzll(x));
}

/* Whether no seat of ns has declared yet this round (every choice open). */
static inline int choices_open(const kontor_state *s, int ns) {
    if (ns == 4) return (s->choice[0] & s->choice[1] & s->choice[2] & s->choice[3]) == KONTOR_NONE;
    return s->choice[0] == KONTOR_NONE && s->choice[1] == KONTOR_NONE;
}

/* Random playouts pick straight from bitboards and hands, without building
 * move lists: this is the loop that kontor bench and search measure. Each
 * decision is uniform over the same legal set kontor_legal lists
 * (test_playout compares the two, decision for decision). The loop is the
 * game's round: a round of two or four seats from the declarations to the
 * reveal in one step, then the placements (and the ship); the other phases
 * are playout_step's. */
__attribute__((always_inline)) static inline kontor_rng playout_loop(kontor_state *s, kontor_rng r, int ns,
                                                                    int bankrupt, int specials, int optional,
                                                                    int hidden) {
    /* (kontor_playout played a round whose declarations began outside on:
     * the round below finds every choice open, without a test) */
    int stop = 0;
    for (;;) {
        int phase = s->phase;
        if (phase == KONTOR_PHASE_PLACE) {
            /* cells as water: only for a customs house, a special card
             * (none is dealt without cfg.specials) */
            /* (unsigned: the count goes to the multiply without a sign extension) */
            unsigned c0 = (unsigned)__builtin_popcountll(s->cells.w[0]);
            unsigned c1 = c0 + (unsigned)__builtin_popcountll(s->cells.w[1]);
            unsigned c2 = c1 + (unsigned)__builtin_popcountll(s->cells.w[2]);
            unsigned a = c2 + (unsigned)__builtin_popcountll(s->cells.w[3]);
            unsigned b = specials && bb_any(s->cells_water) ? (unsigned)bb_count(s->cells_water) : 0;
            unsigned n = a + b + (optional ? 1 : 0);
            unsigned i = rng_below(&r, n);
            /* the cells' word read again for the pick (an empty asm that
             * may write memory), not kept across the draw (basic -25 a
             * game); the prefix sums of the counts kept, to find the word
             * (pick_nth: basic 18,084 -> 17,808 against bb_nth) */
            __asm__ volatile("" ::: "memory");
            if ((!specials && !optional) || i < a) playout_place(s, pick_nth(&s->cells, i, c0, c1, c2), 0);
            else if (i < a + b) playout_place(s, bb_nth(s->cells_water, (int)(i - a)), 1);
            else playout_place(s, KONTOR_NONE, 0);
            if (bankrupt) check_bankrupt(s, NULL);
        } else if (!hidden && phase == KONTOR_PHASE_DECLARE && ns == 2) { /* (no declarations with declare=hidden: open_choice) */
            /* the round of two seats at once: the two declarations (in seat
             * order: red's changes nothing black's depend on), the passers'
             * coins (do_declare), the players' choices (the choice phase)
             * and the reveal (do_choose), with the same draws in the same
             * order. A seat may play when it holds a card, and pass unless
             * pass=rest forbids it to a seat holding one (may_pass): 1 + (it
             * may do both) choices */
            uint64_t x0 = rng_next(&r), x1 = rng_next(&r);
            unsigned pass2;
            if (__builtin_expect(s->hand_n[0] && s->hand_n[1] && !s->no_pass, 1)) {
                /* both hold a card and may pass (the usual round): the two
                 * top bits, without declared_pass's tests (basic -150) */
                pass2 = (unsigned)(x0 >> 63) | ((unsigned)(x1 >> 62) & 2);
            } else {
                unsigned both = !s->no_pass;
                pass2 = declared_pass(x0, both, s->hand_n[0]) | declared_pass(x1, both, s->hand_n[1]) << 1;
            }
            if (bankrupt) { /* the coins before the bankruptcy test; else the reveal pays them */
                if (pass2) {
                    uint8_t got[KONTOR_MAX_SEATS];
                    pay_out(s, pass2, got);
                }
                s->phase = KONTOR_PHASE_CHOOSE;
                if (pass2 != 3 && !declared_solvent(s, pass2)) continue;
            }
            /* a player holds a card (it declared to play) and chooses one
             * (without declare=hidden no pass is a choice), which leaves the
             * hand for the reveal */
            s->choice[0] = pass2 & 1 ? KONTOR_PASS : hand_take(s, 0, rng_below(&r, s->hand_n[0]));
            s->choice[1] = pass2 & 2 ? KONTOR_PASS : hand_take(s, 1, rng_below(&r, s->hand_n[1]));
            /* (without Armut, the reveal pays the passers; its every path sets the phase) */
            if (bankrupt) playout_reveal_two(s, pass2), check_bankrupt(s, NULL);
            else playout_round_two(s, pass2);
        } else if (hidden && phase == KONTOR_PHASE_CHOOSE && ns == 2 && s->choice[0] == KONTOR_NONE &&
                   s->choice[1] == KONTOR_NONE) {
            /* the hidden choice of two (declare=hidden: the search's
             * playouts) as playout_step's, without its call and the
             * generator's copies: iteration 19,466 -> 18,492 in this copy
             * of its own; a pass is kontor__may_pass's, a choice unless
             * pass=rest forbids it this round */
            unsigned h0 = s->hand_n[0], h1 = s->hand_n[1];
            unsigned n0 = h0 + 1, n1 = h1 + 1;
            if (__builtin_expect(s->no_pass, 0))
                n0 = h0 + (unsigned)kontor__may_pass(s, 0), n1 = h1 + (unsigned)kontor__may_pass(s, 1);
            unsigned i0 = rng_below(&r, n0);
            unsigned i1 = rng_below(&r, n1);
            unsigned pass2 = (unsigned)(i0 >= h0) | (unsigned)(i1 >= h1) << 1;
            s->choice[0] = pass2 & 1 ? KONTOR_PASS : hand_take(s, 0, i0);
            s->choice[1] = pass2 & 2 ? KONTOR_PASS : hand_take(s, 1, i1);
            pay_and_reveal_two(s, pass2, bankrupt);
        } else if (phase == KONTOR_PHASE_DECLARE && ns == 4) {
            /* the round of four seats at once, as for two (the four
             * declarations drawn at once: 79,501 -> 77,606 a game) */
            unsigned pass4 = 0;
            uint64_t x[4];
            /* both loops unrolled: four 61,256 -> 60,332 a game (basic and
             * advanced +11 and +19) */
#pragma GCC unroll 4
            for (int p = 0; p < 4; p++) x[p] = rng_next(&r);
            uint32_t hands;
            memcpy(&hands, s->hand_n, 4);
            if (__builtin_expect(!((hands - 0x01010101u) & ~hands & 0x80808080u) && !s->no_pass, 1)) {
                /* every seat holds a card and may pass: the top bits (as for two) */
                pass4 = (unsigned)(x[0] >> 63) | ((unsigned)(x[1] >> 62) & 2) | ((unsigned)(x[2] >> 61) & 4) |
                        ((unsigned)(x[3] >> 60) & 8);
            } else {
#pragma GCC unroll 4
                for (int p = 0; p < 4; p++) pass4 |= declared_pass(x[p], !s->no_pass, s->hand_n[p]) << p;
            }
            if (bankrupt) {
                if (pass4) {
                    uint8_t got[KONTOR_MAX_SEATS];
                    pay_out(s, pass4, got);
                }
                s->phase = KONTOR_PHASE_CHOOSE;
                if (pass4 != 15 && !declared_solvent(s, pass4)) continue;
            }
#pragma GCC unroll 4
            for (int p = 0; p < 4; p++)
                s->choice[p] = (pass4 >> p) & 1 ? KONTOR_PASS : hand_take(s, p, rng_below(&r, s->hand_n[p]));
            if (bankrupt) playout_reveal_four(s, pass4), check_bankrupt(s, NULL);
            else playout_round_four(s, pass4);
        } else if (phase == KONTOR_PHASE_OVER) {
            break;
        } else if (phase == KONTOR_PHASE_SHIP) {
            bb_t t = ship_targets(s);
            int i = (int)rng_below(&r, (uint32_t)bb_count(t) + 1);
            playout_ship(s, i == 0 ? KONTOR_NONE : bb_nth(t, i - 1));
            if (bankrupt) check_bankrupt(s, NULL);
        } else if (phase == KONTOR_PHASE_REMOVE) {
            int v = remove_pick(s, &r);
            if (ns == 2) playout_remove(s, v); /* four: the pile phase may follow */
            else do_remove(s, v, NULL);
            if (bankrupt) check_bankrupt(s, NULL);
        } else {
            r = playout_step(s, r, &stop);
            if (stop) break;
        }
    }
    return r;
}

/* The loop in a copy for each usual game, its number of seats, whether a
 * bankruptcy can end it (Armut), whether special cards (customs houses as
 * water) and optional placing (Canale) are in it known when compiling: the
 * tests of cfg.bankrupt after each step, of the seats at the declarations
 * and of the two options at each placement go. The game for four has the
 * special cards; four without them goes the general way (a fourth copy
 * cost basic +14 and advanced +22 a game, layout). */
void kontor_playout(kontor_state *s, kontor_rng *rng) {
    kontor_rng r = *rng; /* a local, kept in registers: the state's byte stores could alias *rng */
    const kontor_config *c = s->cfg;
    /* A round whose declarations began outside (a search's state between two
     * seats' declarations) is played on by playout_step first: the loop's
     * round then always finds every choice open, without a test (only
     * do_declare leaves a round's choices partly made, and only
     * playout_step's declarations call it: here, or for seats other than
     * two or four, whose declarations the loop leaves to it). With the end
     * tested after the two usual phases and no test of the pick for a game
     * without special cards and optional placing: basic 19,868 -> 19,662 a
     * game. */
    for (int stop = 0; s->phase == KONTOR_PHASE_DECLARE && !choices_open(s, c->nseats);) {
        r = playout_step(s, r, &stop);
        if (stop) {
            *rng = r;
            return;
        }
    }
    if (!c->bankrupt && !c->optional_place && c->nseats == 2 && !c->specials && !c->pass_hidden)
        r = playout_loop(s, r, 2, 0, 0, 0, 0);
    else if (!c->bankrupt && !c->optional_place && c->nseats == 2 && !c->specials)
        r = playout_loop(s, r, 2, 0, 0, 0, 1); /* declare=hidden: the search's records */
    else if (!c->bankrupt && !c->optional_place && c->nseats == 4 && c->specials)
        r = playout_loop(s, r, 4, 0, 1, 0, 0);
    else r = playout_loop(s, r, c->nseats, c->bankrupt, c->specials, c->optional_place, c->pass_hidden);
    *rng = r;
}


/* ---- queries ------------------------------------------------------------------ */

int kontor_area_at(const kontor_state *s, int cell, kontor_bb *cells, uint8_t goods[2][3]) {
    if (cell < 0 || cell >= KONTOR_CELLS || !bb_test(&s->dock, cell)) {
        if (cells) *cells = bb_empty();
        if (goods) memset(goods, 0, 6);
        return 0;
    }
    bb_t a = bb_flood(bb_cell(cell), s->dock);
    if (cells) *cells = a;
    if (goods) area_goods(s, a, goods);
    return bb_count(a);
}

int kontor_parse_cell(const char *t) {
    int v[2];
    for (int k = 0; k < 2; k++) {
        int sign = 1, n = 0, digits = 0;
        if (*t == '+' || *t == '-') sign = *t++ == '-' ? -1 : 1;
        while (*t >= '0' && *t <= '9' && digits < 3) n = n * 10 + (*t++ - '0'), digits++;
        if (!digits) return -1;
        v[k] = sign * n;
        if (k == 0 && *t++ != ',') return -1;
    }
    if (*t) return -1;
    if (v[0] < -7 || v[0] > 8 || v[1] < -7 || v[1] > 8) return -1;
    return kontor_cell(v[0], v[1]);
}

const char *kontor_format_cell(int cell, char *buf) {
    if (cell < 0 || cell >= KONTOR_CELLS) {
        snprintf(buf, 8, "-");
        return buf;
    }
    int dx = kontor_cell_dx(cell), dy = kontor_cell_dy(cell);
    char a[4], b[4];
    snprintf(a, sizeof a, dx > 0 ? "+%d" : "%d", dx);
    snprintf(b, sizeof b, dy > 0 ? "+%d" : "%d", dy);
    snprintf(buf, 8, "%s,%s", a, b);
    return buf;
}
