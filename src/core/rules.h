/* rules.h: what the rule files of the core share: the small inline helpers of
 * the state and the functions one rule file calls in another.
 *
 * The rules were one file (game.c); they are split along the rulebook:
 * deal.c (the set-up), round.c (the round and its turns), place.c (the
 * place phase), ship.c (the ship and the removal), cells.c (the cells a card
 * may take), area.c (closing areas and scoring them), score.c (the end), variants.c (the scenarios'
 * and expansions' own decisions), decide.c (the decision interface), playout.c
 * (the random playout's loop) and explain.c (words for people). Not a public header.
 *
 * The state is a plain value (see kontor.h) and every rule here is a pure
 * function of it. Areas are not stored while they are open: they are the
 * connected components of the dock bitboard, found by flood fill when needed,
 * and a player's warehouses in an area are the goods of that player's cards
 * in it. That one choice makes merging areas, splitting them after the ship
 * removes a card, and "warehouses follow their cards" all true by
 * construction instead of by bookkeeping. Only enclosed areas, which never
 * change again, are written down (kontor_area), with the warehouses they held
 * when scored.
 *
 * The rulebook's scenarios and the designer's expansions (docs/variants.md)
 * are configuration, not forks: each changes a rule through a field of
 * kontor_config (a fixed board, cards out of the game, a scoring mode, a cell
 * restriction, an extra decision phase), and the code branches on that field
 * where the rule lives. The basic game's hot path (random playouts) sees only
 * a few untaken branches. Warehouses that leave their cards (exported, or a
 * tile's extra one) are still tied to a card, so the by-construction property
 * above survives: export_mark and tile_bonus move with their cards.
 *
 * Rulings (docs/rules.md) are cited as R<n> next to the code that makes them;
 * the scenarios' as V<n>, the expansions' as E<n> (docs/variants.md).
 */
#ifndef KONTOR_RULES_H
#define KONTOR_RULES_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/bb.h"
#include "core/rng.h"
#include "kontor/kontor.h"

/* ---- small helpers ---------------------------------------------------------- */

/* kontor_state.hooks: the config's rules that the round's flow must look at,
 * one bit for each test it makes, so that the usual round (the basic,
 * advanced and four-player games: no bit) tests one byte instead of six.
 * Worked out by hooks_of once, when a config takes its interned entry
 * (kontor__deal_checks, kept in the entry's window), and copied into the
 * state at the deal (deal_onto), the only place a state's config is set; the
 * config does not change during a game. */
enum {
    KONTOR__HOOK_CELLS = 1, /* the scenarios' cell rules: water_touch, inner_value, tictactoe */
    KONTOR__HOOK_ROUND = 2, /* a round opens with more than the declarations or the choice: events,
                               bribe, special cards bought */
    KONTOR__HOOK_PLACE = 4, /* a placement has more to do than lay the card and score what it closed:
                               Exportlager, Die grosse Insel, Aktionstafeln, Tic Tac Toe (the
                               playout's placement takes its general path then) */
    KONTOR__HOOK_HIDDEN = 8, /* no declarations (declare=hidden): a round opens with the choice (the
                                search's records; begin_round without a call, session fifteen) */
    KONTOR__HOOK_SPECIAL = 16, /* special cards are in the game: a turn's card may be one (start_turn
                                 tests it with the cell rules, one byte) */
};
static inline uint8_t hooks_of(const kontor_config *cfg) {
    return (uint8_t)(((cfg->water_touch | cfg->inner_value | cfg->tictactoe) ? KONTOR__HOOK_CELLS : 0) |
                     ((cfg->events | cfg->bribe || cfg->specials == 2) ? KONTOR__HOOK_ROUND : 0) |
                     (cfg->pass_hidden ? KONTOR__HOOK_HIDDEN : 0) |
                     ((cfg->export_store | cfg->inner_value | cfg->tiles | cfg->tictactoe)
                          ? KONTOR__HOOK_PLACE
                          : 0) |
                     (cfg->specials ? KONTOR__HOOK_SPECIAL : 0));
}

static inline const kontor_card *card_of(const kontor_state *s, int id) { return &s->card[id]; }

/* Exportlager: the warehouses a card sent to export, as bits of the state's
 * export_bits (kontor.h): the card's own from cards->warehouse_at[id], its
 * tea, then wine, then spice, a good's exported ones its lowest. A card
 * exports at most what it shows of a good (do_export: once, when placed;
 * export_on_remove: up to what it shows), so its bits hold every count. */
static inline uint64_t export_bits_of(const kontor_state *s, int id, unsigned *at) {
    const kontor_card *k = card_of(s, id);
    unsigned a = s->cfg->cards->warehouse_at[id], n = (unsigned)(k->goods[0] + k->goods[1] + k->goods[2]);
    *at = a;
    return a < 64 && n ? (s->export_bits >> a) & ((1ULL << n) - 1) : 0;
}

/* The warehouses card id sent to export: 2 bits per good (tea at bit 0,
 * wine at 2, spice at 4), the counts; 0 when nothing is exported. */
static inline unsigned export_mark(const kontor_state *s, int id) {
    if (!s->export_bits) return 0;
    unsigned at;
    uint64_t b = export_bits_of(s, id, &at);
    if (!b) return 0;
    const kontor_card *k = card_of(s, id);
    unsigned t = k->goods[0], w = k->goods[1];
    unsigned mt = (unsigned)__builtin_popcountll(b & ((1ULL << t) - 1));
    unsigned mw = (unsigned)__builtin_popcountll((b >> t) & ((1ULL << w) - 1));
    unsigned ms = (unsigned)__builtin_popcountll(b >> (t + w));
    return mt | mw << 2 | ms << 4;
}

/* Card id sends one more warehouse of good g to export (none past what it shows). */
static inline void export_add(kontor_state *s, int id, int g) {
    unsigned at;
    unsigned m = (export_mark(s, id) >> (2 * g)) & 3;
    (void)export_bits_of(s, id, &at);
    const kontor_card *k = card_of(s, id);
    unsigned pos = at + (g > 0 ? k->goods[0] : 0) + (g > 1 ? k->goods[1] : 0) + m;
    if (m < k->goods[g] && pos < 64) s->export_bits |= 1ULL << pos;
}

/* Card id has sent nothing to export (it left the board, or lies covered). */
static inline void export_clear(kontor_state *s, int id) {
    if (!s->export_bits) return;
    unsigned at;
    uint64_t b = export_bits_of(s, id, &at);
    if (b) s->export_bits &= ~(b << at);
}
/* The same as kontor_card_is_water / _is_dock, inlined for the hot path. */
static inline int is_water(const kontor_card *k) { return k->kind == KONTOR_KIND_WATER || k->kind == KONTOR_KIND_CENTRE; }
static inline int is_dock(const kontor_card *k) {
    return k->kind == KONTOR_KIND_GOODS || k->kind == KONTOR_KIND_CRANE || k->kind == KONTOR_KIND_TAVERN;
}

static inline void log_ev(kontor_log *log, int kind, int seat, int card, int cell, int a) {
    if (!log || log->n >= KONTOR_LOG_MAX) return;
    kontor_event *e = &log->ev[log->n++];
    e->kind = (uint8_t)kind;
    e->seat = (uint8_t)seat;
    e->card = (uint8_t)card;
    e->cell = (uint8_t)cell;
    e->a = (uint16_t)a;
}

static inline void pub_set(kontor_state *s, int id) {
    if (id < KONTOR_MAX_CARDS) s->pub[id >> 6] |= 1ULL << (id & 63);
}


/* The seat that sits opposite seat (the one it pays taxes to and from). */
static inline int opposite(const kontor_state *s, int seat) {
    return s->cfg->nseats == 4 ? (seat + 2) & 3 : seat ^ 1;
}
/* The seat whose pile takes back a removed dock card of colour team. */
static inline int owner_seat(const kontor_state *s, int team) { return s->cfg->nseats == 4 ? team * 2 : team; }

/* The two seats of the removed card's team, in the pile phase (decide.c's
 * legal decisions and playout.c's loop). */
static inline int pile_seats(const kontor_state *s, int out[2]) {
    int team = card_of(s, s->removed_card)->colour;
    out[0] = owner_seat(s, team);
    out[1] = owner_seat(s, team) + 1;
    return 2;
}

static inline int pile_top(const kontor_state *s, const kontor_pile *p) {
    return p->n ? s->pile_card[p->head] : KONTOR_NONE;
}

static inline int pile_draw(kontor_state *s, kontor_pile *p) {
    if (!p->n) return KONTOR_NONE;
    int c = s->pile_card[p->head];
    p->head++;
    p->n--;
    return c;
}

/* Room for one card under pile k: its neighbours moved over by one (deal.c;
 * 0 when the pool is full, which no game reaches: no card is in two piles). */
int pile_make_room(kontor_state *s, int k);

/* The first place after pile k that is not its (the next pile's head, or the
 * pool's end). */
static inline unsigned pile_limit(const kontor_state *s, int k) {
    return k + 1 < KONTOR_NPILES ? s->pile[k + 1].head : KONTOR_MAX_CARDS;
}

/* Put card id under pile p of s (most often into the room the deal left
 * after it; else its neighbours move over, pile_make_room). */
static inline void pile_put_under(kontor_state *s, kontor_pile *p, int id) {
    int k = (int)(p - s->pile);
    if ((unsigned)(p->head + p->n) >= pile_limit(s, k) && !pile_make_room(s, k)) return;
    s->pile_card[p->head + p->n] = (uint8_t)id;
    p->n++;
}

/* Put n cards under pile p (at set-up: the deal laid the pool out for them,
 * so they go in one copy). */
static inline void pile_fill(kontor_state *s, kontor_pile *p, const uint8_t *ids, int n) {
    if (n <= 0) return;
    unsigned end = (unsigned)(p->head + p->n);
    if (end + (unsigned)n <= pile_limit(s, (int)(p - s->pile))) {
        memcpy(s->pile_card + end, ids, (size_t)n);
        p->n = (uint8_t)(p->n + n);
        return;
    }
    for (int i = 0; i < n; i++) pile_put_under(s, p, ids[i]);
}

static inline void hand_add(kontor_state *s, int seat, int id) {
    if (s->hand_n[seat] < KONTOR_HAND_MAX) s->hand[seat][s->hand_n[seat]++] = (uint8_t)id;
}

static inline int hand_remove(kontor_state *s, int seat, int id) {
    for (int i = 0; i < s->hand_n[seat]; i++)
        if (s->hand[seat][i] == id) {
            /* keep the order of the rest: views and records show hands in order */
            /* the cards after it move up one, as a carried byte from the
             * end: a loop the compiler does not turn into a call of memmove
             * (the plain shift did: 25 instructions a removal, now ~13) */
            int n = --s->hand_n[seat];
            uint8_t *h = s->hand[seat], carry = 0;
            for (int j = n; j > i; j--) {
                uint8_t t = h[j];
                h[j] = carry;
                carry = t;
            }
            h[i] = carry;
            return 1;
        }
    return 0;
}

static inline int is_special(const kontor_card *k) {
    return k->kind == KONTOR_KIND_FLOOD || k->kind == KONTOR_KIND_BRIDGE || k->kind == KONTOR_KIND_CUSTOMS;
}
/* cells: width * height in every state's (interned) config
 * (property_interned_config_cells_is_width_times_height); one load less
 * than the product, two with the config's pointer (session thirteen) */
static inline int board_full(const kontor_state *s) { return s->ncards_board >= s->cfg->cells; }
/* kontor_team, inlined for the hot path */
static inline int team_of(const kontor_state *s, int seat) { return s->cfg->nseats == 4 ? seat >> 1 : seat; }

static inline int gx(int cell) { return bb_x(cell); }
static inline int gy(int cell) { return bb_y(cell); }

static const int8_t cross_end[4][2] = {{0, -2}, {2, 0}, {0, 2}, {-2, 0}};

/* ---- across the rule files ---- */

void area_goods(const kontor_state *s, bb_t cells, uint8_t goods[2][3]);
void check_enclosures(kontor_state *s, bb_t candidates, kontor_log *log);
void enclose_at(kontor_state *s, int cell, int water, kontor_log *log);
void enclose_quiet(kontor_state *s, int cell, int water);
void enclose_lines_quiet(kontor_state *s, const bb_t *candidates);
void score_area(kontor_state *s, bb_t cells, kontor_log *log);
/* R5: recompute the mask from the extent; 1 when it changed */
int update_mask(kontor_state *s);
void place_start(kontor_state *s, const uint8_t *cells, const uint8_t *ids, int n);
void remove_raw(kontor_state *s, int cell);
int count_goods(const kontor_card *k);
bb_t special_cells(const kontor_state *s, int seat, int id, int as_water);
void compute_cells(kontor_state *s, int seat, int id);
int next_tavern(const kontor_state *s, int from);
int tavern_seat(const kontor_state *s);
void end_game_won(kontor_state *s, int reason, int forced, kontor_log *log);
void end_game(kontor_state *s, int reason, kontor_log *log);
void finish_game(kontor_state *s, int forced, kontor_log *log);
bb_t bribe_targets(const kontor_state *s, int seat);
void begin_round(kontor_state *s, kontor_log *log);
void begin_bribe(kontor_state *s);
int buy_max(const kontor_state *s, int seat);
void begin_buy(kontor_state *s);
void pay_out_short(kontor_state *s, unsigned want, uint8_t got[KONTOR_MAX_SEATS]);
/* Pay one coin from the treasury to each seat in want (a mask), all at the
 * same moment; got[p] 1 for each seat paid. R12: when the treasury cannot pay
 * them all, the poorer are paid first; among equally poor seats that cannot
 * all be paid, none is (pay_out_short, round.c, out of line: rare). The usual
 * case, the treasury pays them all, adds one bit a seat to the four seats'
 * coins read as one word (want * 0x204081 puts want's bit p at bit 8p): 21
 * calls a random basic game, ~15 instructions each. Inline (session
 * thirteen): the call's frame was a third of that, and the playout's callers
 * do not read got (a random game: basic 20,417 -> 20,256
 * instructions, advanced 32,102 -> 31,858, four 47,102 -> 46,888). */
static inline void pay_out(kontor_state *s, unsigned want, uint8_t got[KONTOR_MAX_SEATS]) {
    _Static_assert(KONTOR_MAX_SEATS == 4 && sizeof s->coins == 4, "the coins are one 32-bit word");
    int n = __builtin_popcount(want);
    if (__builtin_expect(n > s->treasury, 0)) {
        if (s->treasury) pay_out_short(s, want, got);
        else memset(got, 0, KONTOR_MAX_SEATS); /* an empty treasury (often, in the game for four) */
        return;
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* no carry between bytes: a seat's coins stay below the game's total (a uint8_t) */
    uint32_t one = ((want & 15u) * 0x204081u) & 0x01010101u, c;
    memcpy(&c, s->coins, 4);
    c += one;
    memcpy(s->coins, &c, 4);
    memcpy(got, &one, 4);
#else
    for (int p = 0; p < KONTOR_MAX_SEATS; p++) {
        got[p] = (uint8_t)((want >> p) & 1);
        s->coins[p] = (uint8_t)(s->coins[p] + got[p]);
    }
#endif
    s->treasury = (uint8_t)(s->treasury - n);
}
void do_choose(kontor_state *s, int seat, int value, kontor_log *log);
void playout_reveal_two(kontor_state *s, unsigned passers);
void playout_reveal_four(kontor_state *s, unsigned passers);
void playout_round_two(kontor_state *s, unsigned passers);
/* the same for the loop's declared round, by its passers (reveal.c): none, seat 0, seat 1, both */
void playout_round_both(kontor_state *s);
void playout_round_pass0(kontor_state *s);
void playout_round_pass1(kontor_state *s);
void playout_round_none(kontor_state *s);
void playout_round_four(kontor_state *s, unsigned passers);
void playout_start_turn(kontor_state *s);
void playout_new_round(kontor_state *s);
void do_declare(kontor_state *s, int seat, int value, kontor_log *log);
void do_ship(kontor_state *s, int value, kontor_log *log);
void playout_ship(kontor_state *s, int value);
void playout_remove(kontor_state *s, int value);
void playout_remove_pile(kontor_state *s, int value, unsigned second);
void before_remove(kontor_state *s, int cell);
void do_remove(kontor_state *s, int value, kontor_log *log);
void do_pile(kontor_state *s, int value, kontor_log *log);
void do_buy(kontor_state *s, int seat, int value, kontor_log *log);
void do_place(kontor_state *s, int value, int as_water, kontor_log *log);
void playout_place(kontor_state *s, int value, int as_water);
void playout_place_cell(kontor_state *s, int value);
void playout_place_usual(kontor_state *s, int value);
int row_ends_game(kontor_state *s, kontor_log *log);
int centre_cell(const kontor_state *s);
int tile_options(const kontor_state *s, int seat, int tile, kontor_move *moves);
void do_tile(kontor_state *s, int value, kontor_log *log);
void turn_done(kontor_state *s, kontor_log *log);
/* The end of a turn (round.c), in a copy without a log (the playouts') and
 * one with; next_turn picks the copy by the caller's log (for a caller
 * without one, when compiling). */
void next_turn_quiet(kontor_state *s);
void next_turn_logged(kontor_state *s, kontor_log *log);
static inline void next_turn(kontor_state *s, kontor_log *log) {
    if (log) next_turn_logged(s, log);
    else next_turn_quiet(s);
}
void take_back(kontor_state *s, int seat, int reason, kontor_log *log);
void tile_bonus_moves(kontor_state *s, int cell);
void do_export(kontor_state *s, int value, kontor_log *log);
void do_bribe(kontor_state *s, int seat, int value, kontor_log *log);
int pile_has(const kontor_state *s, const kontor_pile *p, int id);
int select_total(const kontor_state *s);
void do_select(kontor_state *s, int seat, int id, kontor_log *log);
void do_tavern(kontor_state *s, int value, kontor_log *log);
void check_bankrupt(kontor_state *s, kontor_log *log);
int event_seat(const kontor_state *s);
int event_options(const kontor_state *s, int seat, kontor_move *moves);
int start_event(kontor_state *s, kontor_log *log);
void do_event(kontor_state *s, int value, kontor_log *log);
bb_t no_split(const kontor_state *s, bb_t cand);
/* always inlined in place.c, its own file; variants.c calls it */
void after_scoring(kontor_state *s, int seat, int water, int special, kontor_log *log);

/* ---- placing a card (cells.c's, here because do_place inlines it) ---- */

/* The card's bits: its cell, the bitboards of its kind, the count; the
 * card is public from now on (pub: 0 when it is already, see place_card). */
__attribute__((always_inline)) static inline void put_bits_pub(kontor_state *s, int cell, int id, int as_water,
                                                               int pub) {
    const kontor_card *k = card_of(s, id);
    s->cell_card[cell] = (uint8_t)id;
    bb_set(&s->occ, cell);
    if (k->kind == KONTOR_KIND_CUSTOMS) bb_set(&s->customs, cell);
    if (as_water) {
        bb_set(&s->water, cell);
    } else {
        bb_set(&s->dock, cell);
        if (k->colour < 2) {
            bb_set(&s->team_dock[k->colour], cell);
            if (k->kind == KONTOR_KIND_CRANE) bb_set(&s->crane[k->colour], cell);
        }
        if (k->ship) bb_set(&s->shipsym, cell);
    }
    s->ncards_board++;
    if (pub) pub_set(s, id);
}
static inline void put_bits(kontor_state *s, int cell, int id, int as_water) { put_bits_pub(s, cell, id, as_water, 1); }

/* Put a card on a cell, as water or as a dock card (special cards: a flood
 * is water, a bridge a dock card, a customs house either): bitboards, the
 * frontier, extent and mask; no scoring. Returns 1 when the mask changed (the
 * board's extent grew, and the cells where a card may still lie with it).
 * Inline here rather than in cells.c: a call for every placement cost a
 * random game 2% more instructions (issue 17). place_card is the same for
 * the placement's own use (do_place): the mask before a change in *before
 * (do_place needs it only then, where it copied it for every card), and no
 * pub_set for a card from a hand, public since its reveal
 * (property_cards_to_be_placed_are_public): a random basic game 33,350 ->
 * 32,984 instructions (session ten). */
__attribute__((always_inline)) static inline int place_bits(kontor_state *s, int cell, int id, int as_water, int pub);
__attribute__((always_inline)) static inline int place_card(kontor_state *s, int cell, int id, int as_water,
                                                            bb_t *before, int pub) {
    if (!place_bits(s, cell, id, as_water, pub)) return 0;
    /* the mask before here, not in update_mask: a local's address passed
     * out of line kept do_place from ending in a jump to next_turn (a
     * random game: basic 26,083 -> 26,019 instructions, advanced 41,294 ->
     * 41,201, four 61,578 -> 61,454; session eleven) */
    if (before) *before = s->mask;
    return update_mask(s);
}
/* The card's bits and the frontier (and the cells next to a crane): a
 * card laid, without the extent. put_bits_pub and the frontier's update,
 * written so that the card is read once and the byte stores (which may
 * alias anything) come last: nothing is read again after them. */
__attribute__((always_inline)) static inline void lay_bits(kontor_state *s, int cell, int id, int as_water, int pub) {
    const kontor_card *k = card_of(s, id);
    int kind = k->kind, colour = k->colour, ship = k->ship;
    int b = bb_bit(s->cfg, cell), i = BB_WORD_OF(b);
    uint64_t bit = BB_MASK_OF(b);
    const uint64_t *near = bb_near_of(s->cfg, (size_t)b);
    BB_WORD(s->occ, i) |= bit;
    if (kind == KONTOR_KIND_CUSTOMS) BB_WORD(s->customs, i) |= bit;
    if (as_water) {
        BB_WORD(s->water, i) |= bit;
    } else {
        BB_WORD(s->dock, i) |= bit;
        if (colour < 2) {
            BB_WORD(s->team_dock[colour], i) |= bit;
            if (kind == KONTOR_KIND_CRANE) {
                BB_WORD(s->crane[colour], i) |= bit;
                bb_or_near(&s->crane_near[colour], near, (size_t)b);
            }
        }
        if (ship) BB_WORD(s->shipsym, i) |= bit;
    }
    /* the frontier: the cell leaves it, its free neighbours join it */
    bb_front_lay(&s->front, &s->occ, near, (size_t)b);
    if (pub) pub_set(s, id);
    s->cell_card[cell] = (uint8_t)id;
    s->ncards_board++;
}
/* The extent with cell in it; 1 when it grew (then update_mask is due). */
__attribute__((always_inline)) static inline int grow_extent(kontor_state *s, int cell) {
    int x = gx(cell), y = gy(cell);
    int changed = 0;
    if (x < s->minx) s->minx = (uint8_t)x, changed = 1;
    if (x > s->maxx) s->maxx = (uint8_t)x, changed = 1;
    if (y < s->miny) s->miny = (uint8_t)y, changed = 1;
    if (y > s->maxy) s->maxy = (uint8_t)y, changed = 1;
    return changed;
}
/* grow_extent and update_mask at once on a board that is not fixed, from
 * the bounds of the mask's rectangle before and after; 1 when the mask
 * changed, and then *lines holds the cells of the new mask next to the
 * cells it lost: those lie beyond the sides that moved in, so these are the
 * lines of those sides (score_placed's bb_neighbours of the lost cells,
 * inside the mask, where every dock card lies:
 * property_every_dock_card_lies_inside_its_mask; check_enclosures looks
 * only at dock cards). Not with edge=both (every unplayable cell counts
 * there, not only the lost ones). No mask before, no bb_neighbours of four
 * words (the playout's grown board, session thirteen). */
__attribute__((always_inline)) static inline int grow_mask(kontor_state *s, int cell, bb_t *lines) {
    int w = s->cfg->width - 1, h = s->cfg->height - 1;
    int ox0 = s->maxx - w, ox1 = s->minx + w, oy0 = s->maxy - h, oy1 = s->miny + h;
    grow_extent(s, cell);
    int x0 = s->maxx - w, x1 = s->minx + w, y0 = s->maxy - h, y1 = s->miny + h;
    x0 = x0 < 0 ? 0 : x0;
    x1 = x1 > BB_XMAX ? BB_XMAX : x1;
    y0 = y0 < 0 ? 0 : y0;
    y1 = y1 > BB_YMAX ? BB_YMAX : y1;
    ox0 = ox0 < 0 ? 0 : ox0;
    ox1 = ox1 > BB_XMAX ? BB_XMAX : ox1;
    oy0 = oy0 < 0 ? 0 : oy0;
    oy1 = oy1 > BB_YMAX ? BB_YMAX : oy1;
    if (x0 == ox0 && x1 == ox1 && y0 == oy0 && y1 == oy1) return 0;
    bb_t m = bb_rect(x0, x1, y0, y1); /* update_mask's */
    s->mask = m;
    uint64_t cols = (x0 != ox0 ? 1ULL << x0 : 0) | (x1 != ox1 ? 1ULL << x1 : 0);
    *lines = bb_columns(cols);
    if (y0 != oy0) bb_or_line(lines, y0);
    if (y1 != oy1) bb_or_line(lines, y1);
    *lines = bb_and(*lines, m);
    return 1;
}
/* grow_mask for a card next to a card (a cell of the frontier: the
 * playout's placement), which moves one bound of the extent by one: the
 * mask (the rectangle of the extent, property_every_dock_card_lies_inside_its_mask)
 * loses at most the line on the far side, and *lines is the line before
 * it; no rectangle built, no clamps of eight bounds. A cell beyond two
 * bounds, or beyond one by more than one, takes grow_mask. */
__attribute__((always_inline)) static inline int grow_mask_step(kontor_state *s, int cell, bb_t *lines) {
    int x = gx(cell), y = gy(cell);
    int xin = x >= s->minx && x <= s->maxx, yin = y >= s->miny && y <= s->maxy;
    int lost, line;
    if (yin && x == s->minx - 1) {
        s->minx = (uint8_t)x;
        lost = x + s->cfg->width, line = lost - 1; /* the mask's east side moves in */
    } else if (yin && x == s->maxx + 1) {
        s->maxx = (uint8_t)x;
        lost = x - s->cfg->width, line = lost + 1;
    } else if (xin && y == s->miny - 1) {
        s->miny = (uint8_t)y;
        lost = y + s->cfg->height, line = lost - 1;
    } else if (xin && y == s->maxy + 1) {
        s->maxy = (uint8_t)y;
        lost = y - s->cfg->height, line = lost + 1;
    } else {
        return grow_mask(s, cell, lines);
    }
    if (lost < 0 || lost > (xin ? BB_YMAX : BB_XMAX)) return 0; /* that side lay beyond the grid: the mask is the same */
    if (xin) *lines = bb_drop_line(&s->mask, lost, line); /* a row */
    else *lines = bb_drop_column(&s->mask, lost, line);   /* a column */
    return 1;
}
/* Would cell grow the extent (grow_extent's answer, nothing written)? */
static inline int outside_extent(const kontor_state *s, int cell) {
    int x = gx(cell), y = gy(cell);
    return x < s->minx || x > s->maxx || y < s->miny || y > s->maxy;
}
/* place_card without the mask: the card's bits, the frontier and the
 * extent; 1 when the extent grew (then update_mask is due). */
__attribute__((always_inline)) static inline int place_bits(kontor_state *s, int cell, int id, int as_water, int pub) {
    lay_bits(s, cell, id, as_water, pub);
    return grow_extent(s, cell);
}
static inline int place_as(kontor_state *s, int cell, int id, int as_water) {
    return place_card(s, cell, id, as_water, NULL, 1);
}

static inline int place_raw(kontor_state *s, int cell, int id) { return place_as(s, cell, id, is_water(card_of(s, id))); }

/* Does cell c have a gap next to it (then a dock card there is open)? A
 * gap (closing.h's gap_cells) is free, and inside the mask once the edges
 * close (edges: all ones then). By the three words of its neighbours
 * (bb_near_of). */
static inline int touches_gap(const kontor_state *s, int c, uint64_t edges) {
    size_t b = (size_t)bb_bit(s->cfg, c);
    return bb_near_any_gap(&s->occ, &s->mask, edges, bb_near_of(s->cfg, b), b);
}
/* After a card on cell whose placement did not move the board's edge: can
 * it have closed an area? Only if the card (dock) or an open dock card next
 * to it (water) has no gap beside it. This is check_enclosures' own first
 * test, made per cell before the bitboards of the full test are built: most
 * placements close nothing and stop here. Word by word: the open dock cards
 * next to a water card are the bits of its neighbour words, each tested by
 * its own (it was four bit tests a neighbour, four neighbours: ~60
 * instructions a card). Not for Die grosse Insel, whose dead cells close
 * areas anywhere (check_enclosures). */
__attribute__((always_inline)) static inline int may_enclose_at(const kontor_state *s, int cell, int water,
                                                                uint64_t edges) {
    if (!water) return !touches_gap(s, cell, edges);
    /* A water card: in the eight rows r.. from two above its own (inside
     * the grid), which hold its neighbours' rows and the rows next to
     * those, the open dock cards next to it that have no gap beside them
     * (bb.h's windows: basic ~56 -> ~30 instructions a water card; session
     * twelve). The cells next to a gap are worked out inside the window,
     * right for every row but its first and last, and those are not its
     * neighbours' rows unless they are the grid's first or last row. */
    int r = bbw_rows_around(cell);
    bb_w open = bbw_andnot(bbw_load(&s->dock, r), bbw_load(&s->enclosed, r));
    bb_w g = bbw_andnot(bbw_or(bbw_load(&s->mask, r), bbw_make(~edges, ~edges)), bbw_load(&s->occ, r));
    return bbw_any(bbw_andnot(bbw_and(bbw_around(bbw_index(cell, r)), open), bbw_nb(g)));
}
/* edges: all ones when the unplayable cells close areas (without edge=both,
 * always: the playout's placement passes that) */
static inline int may_enclose(const kontor_state *s, int cell, int water) {
    int edges_close = !s->cfg->edge_both || s->cfg->fixed_board ||
                      (s->maxx - s->minx + 1 >= s->cfg->width && s->maxy - s->miny + 1 >= s->cfg->height);
    return may_enclose_at(s, cell, water, edges_close ? ~0ULL : 0);
}

/* outside_extent(s, cell) from the cell's PLACE_WIN: the four bounds
 * (minx, maxx, miny, maxy: four bytes in a row) read as one word, maxx and
 * maxy as 15 - maxx and 15 - maxy (an xor: they are 0..15), taken from the
 * cell's x, 15 - x, y, 15 - y at once: each byte is 0x80 + the difference,
 * 0x71..0x8F (no borrow between bytes), and its top bit is clear where the
 * cell lies beyond that bound. Four tests in one (16 instructions a
 * placement, now 7). */
static inline int outside_win(const kontor_state *s, size_t cell) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    _Static_assert(offsetof(kontor_state, maxy) == offsetof(kontor_state, minx) + 3, "the bounds are four bytes in a row");
    uint32_t e;
    memcpy(&e, &s->minx, 4);
    return ((place_win_of(s->cfg, cell)->ext - (e ^ 0x0F000F00u)) & 0x80808080u) != 0x80808080u;
#else
    return outside_extent(s, (int)cell);
#endif
}
/* The card's bits in the words, its neighbours in its window (PLACE_WIN),
 * which may_enclose_at reads too, and the frontier: lay_bits' work for the
 * playout's placement (place.c), the card's byte stores first. *occ: the occupied cells' window
 * after it. */
__attribute__((always_inline)) static inline bb_w playout_lay(kontor_state *s, size_t seat, size_t c, int id,
                                                              const kontor_card *k, int water, bb_w *occ) {
    s->last_layer = (uint8_t)seat; /* (again after playout_place's: the same bytes) */
    s->cell_card[c] = (uint8_t)id;
    s->ncards_board++;
    place_win pw = *place_win_of(s->cfg, c);
    size_t r2 = pw.r2;
    bb_w around = place_around(c, pw);
    size_t b = bb_bit(s->cfg, c), i = BB_WORD_OF(b);
    uint64_t bit = BB_MASK_OF(b);
    BB_WORD(s->occ, i) |= bit;
    if (water) {
        BB_WORD(s->water, i) |= bit;
    } else {
        BB_WORD(s->dock, i) |= bit;
        int colour = k->colour;
        if (colour < 2) {
            BB_WORD(s->team_dock[colour], i) |= bit;
            if (k->kind == KONTOR_KIND_CRANE) {
                BB_WORD(s->crane[colour], i) |= bit;
                bbw_or_at(&s->crane_near[colour], r2, around);
            }
        }
        if (k->ship) BB_WORD(s->shipsym, i) |= bit;
    }
    /* the frontier: its free neighbours join it, the cell leaves it */
    *occ = bbw_at(&s->occ, r2);
    bbw_put(&s->front, r2, bbw_or(bbw_at(&s->front, r2), bbw_andnot(around, *occ)));
    BB_WORD(s->front, i) &= ~bit;
    return around;
}
/* Where the ship may sail: every water card but the one it is on. Inline:
 * the playout asks it at every ship turn (a call cost 13 instructions more). */
static inline bb_t ship_targets(const kontor_state *s) {
    bb_t t = s->water;
    if (s->ship_cell != KONTOR_NONE) bb_clear(&t, s->ship_cell);
    return t;
}

/* The dock cards with a ship symbol next to the ship, not in an enclosed
 * area: by the ship cell's neighbours in the three words around it
 * (bb_near), not a set of the whole grid built bit by bit. Inline, as
 * ship_targets. */
static inline bb_t removable(const kontor_state *s) {
    int c = s->ship_cell;
    if (c == KONTOR_NONE) return bb_empty();
    size_t b = (size_t)bb_bit(s->cfg, c);
    return bb_near_andnot(&s->shipsym, &s->enclosed, bb_near_of(s->cfg, b), b);
}

/* In rules.h, not cells.c, because the placement's hot path inlines it in
 * more than one rule file. */
/* Free cells next to the board where seat may put card id. */
__attribute__((always_inline)) static inline bb_t legal_cells(const kontor_state *s, int seat, int id) {
    bb_t cand = bb_and(s->front, s->mask); /* the free cells next to the board (place_as keeps s->front) */
    const kontor_card *k = card_of(s, id);
    if (is_dock(k)) {
        /* Crane: an opposing crane keeps the free cells next to it clear of
         * this player's dock cards; water may still go there. */
        cand = bb_andnot(cand, s->crane_near[1 - team_of(s, seat)]);
        /* Wasserspiele: "Alle Hafenkarten muessen mindestens mit einer Seite an
         * Wasserkarten angrenzen" (with no cell left, R3 takes the card back) */
        if (s->cfg->water_touch | s->cfg->inner_value) {
            if (s->cfg->water_touch) cand = bb_and(cand, bb_neighbours(s->water));
            /* Die grosse Insel: no dock card joins an enclosed area (V15;
             * only there can an enclosed area have a free cell next to it) */
            if (s->cfg->inner_value) cand = bb_andnot(cand, bb_neighbours(s->enclosed));
        }
    } else if (s->cfg->inner_value || s->cfg->tictactoe) {
        cand = bb_andnot(cand, s->cfg->inner); /* Die grosse Insel: "Dort darf kein Wasser gelegt werden" */
        if (s->cfg->tictactoe) cand = no_split(s, cand);
    }
    return cand;
}

/* start_turn's legal_cells for the usual card (the caller tested: no
 * scenario's cell rule), written into s->cells with cells_water empty; 1
 * when it holds a cell. As two windows of eight rows (bb.h's bb_w): the
 * frontier, the mask and the opposing crane's cells two loads each, not
 * four words apiece and a not for each of the crane's. */
__attribute__((always_inline)) static inline int put_usual_cells(kontor_state *s, int seat, const kontor_card *k) {
#if defined(__SSE2__) && !defined(KONTOR_NO_SSE2)
    bb_w lo = bbw_and(bbw_load(&s->front, BBW_LO_ROW), bbw_load(&s->mask, BBW_LO_ROW));
    bb_w hi = bbw_and(bbw_load(&s->front, BBW_HI_ROW), bbw_load(&s->mask, BBW_HI_ROW));
    if (is_dock(k)) {
        const bb_t *cn = &s->crane_near[(unsigned)team_of(s, seat) ^ 1u];
        lo = bbw_andnot(lo, bbw_load(cn, BBW_LO_ROW));
        hi = bbw_andnot(hi, bbw_load(cn, BBW_HI_ROW));
    }
    bbw_store2(&s->cells, lo, hi);
    s->cells_water = bb_empty();
    return bbw_any(bbw_or(lo, hi));
#else
    s->cells = legal_cells(s, seat, (int)(k - s->card));
    s->cells_water = bb_empty();
    return bb_any(s->cells);
#endif
}

#endif
