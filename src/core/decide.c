/* decide.c: the decision interface: who acts, the legal decisions, applying
 * one (checked for everything from outside; unchecked for the search, which
 * only applies moves it generated) and queries.
 *
 * This is the engine's public entry for play; the rules themselves are in
 * deal.c, round.c, place.c, ship.c, cells.c, area.c, score.c and variants.c,
 * and the random playout's loop in playout.c (split from here in session
 * fourteen: one concept a file, no file of the core over ~800 lines). */
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

/* The cells of t as decisions of kind, in bb_pop's order (the lowest cell
 * first), a word at a time: bb_pop tests the whole board and looks for the
 * lowest word again at every cell (~20 instructions a cell, here ~5; the
 * search lists a placement's ~25 cells at every placement node it walks
 * through: an iteration of the basic game's search 22,809 -> 22,460). */
static inline int cells_as_moves(bb_t t, int kind, kontor_move *moves) {
    int n = 0;
    for (int i = 0; i < BB_WORDS; i++)
        for (uint64_t w = BB_WORD(t, i); w; w &= w - 1) moves[n++] = KONTOR_MOVE(kind, BB_BIT_AT(i, __builtin_ctzll(w)));
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

/* kontor__choose_two_unchecked, the search tree's joint choice of two,
 * lives in playout.c beside hand_take, which it shares. */

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
