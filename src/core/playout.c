/* playout.c: the random playout (kontor_playout), the engine's hot loop.
 *
 * Researchers' bench runs and every ismcts iteration end in a random game
 * played from a state to its end: a uniform pick among the legal decisions
 * of each seat, drawn from the stream in a fixed order (the bench signatures
 * and the seeded searches depend on it). It lives apart from decide.c (the
 * decision interface that checks what comes from outside) because it is
 * the one place that applies moves without checking them: it only draws
 * among the moves it generated, case by case per phase, with the state's
 * fields read directly and nothing logged (issue 17: a random game's
 * instructions; docs/engine-speed.md tells each step). Everything it calls
 * inline lies in this file, rules.h and bb.h, so the split from decide.c
 * costs nothing (session fourteen). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/apply.h"
#include "core/rules.h"

/* Armut: the bankruptcy check after the declarations, on do_declare's
 * state (the passers' choices a pass, the players still to choose; the
 * round goes on when somebody plays); 0 when it ended the game. */
__attribute__((noinline, cold)) static int declared_solvent(kontor_state *s, unsigned passers) {
    for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++)
        s->choice[p] = (passers >> p) & 1 ? KONTOR_PASS : KONTOR_NONE;
    check_bankrupt(s, NULL);
    return s->phase == KONTOR_PHASE_CHOOSE;
}

/* rng_below(r, n) for a hand's count, n taken as a 64-bit value: the same
 * draws and the same result (the compare is of the low halves, as
 * rng_below's). With rng_below's uint32_t n, GCC widened the count twice
 * around each card draw of the round of two, once for the multiply and
 * once for the compare (two movzbl a card, session sixteen). */
static inline uint32_t hand_below(kontor_rng *r, uint64_t n) {
    uint64_t m = (rng_next(r) >> 32) * n;
    if ((uint32_t)m < (uint32_t)n) {
        uint32_t t = (uint32_t)(-(uint32_t)n) % (uint32_t)n;
        while ((uint32_t)m < t) m = (rng_next(r) >> 32) * n;
    }
    return (uint32_t)(m >> 32);
}

/* Take the card at place i out of seat's hand and return it: the rest keep
 * their order and the place left free is 0, as after hand_remove (states
 * are compared whole). */
static inline uint8_t hand_take_of(kontor_state *s, int seat, uint32_t i, unsigned held) {
    /* hand_remove's carried byte from the end (a shift from i up would be a
     * call of memmove) */
    s->hand_n[seat] = (uint8_t)(held - 1);
    int n = (int)held - 1;
    uint8_t *h = s->hand[seat], carry = 0;
    if (__builtin_expect(held <= 8, 1)) {
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
static inline uint8_t hand_take(kontor_state *s, int seat, uint32_t i) {
    return hand_take_of(s, seat, i, s->hand_n[seat]);
}

/* A card drawn from seat's hand and taken out of it (hand_take(s, seat,
 * rng_below(r, s->hand_n[seat]))): the count read once into one 64-bit
 * register (an empty asm) for the multiply, the compare and the take.
 * GCC kept two or three copies of the byte around each card draw of the
 * round of two (a movzbl and a mov a card, session sixteen). */
static inline uint8_t hand_draw(kontor_state *s, int seat, kontor_rng *r) {
    uint64_t held = s->hand_n[seat];
    __asm__("" : "+r"(held));
    return hand_take_of(s, seat, hand_below(r, held), (unsigned)held);
}

/* The place of card id in seat's hand, which holds it: the first of the
 * sixteen bytes from the hand's start that equals id (SSE2; the sixteen lie
 * in the state, decide.c's static asserts): the hand's cards are distinct
 * and id is one of its first hand_n, so no byte before it matches. */
static inline uint32_t hand_place(const kontor_state *s, int seat, int id) {
#if defined(__SSE2__) && !defined(KONTOR_NO_SSE2)
    __m128i h = _mm_loadu_si128((const __m128i *)(const void *)s->hand[seat]);
    return (uint32_t)__builtin_ctz((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(h, _mm_set1_epi8((char)id))));
#else
    uint32_t i = 0;
    while (s->hand[seat][i] != id) i++;
    return i;
#endif
}

/* The hidden choices of two seats at once (v0, v1: a card or KONTOR_PASS),
 * for the search's tree, which picks both from the legal lists at a joint
 * node: the same as kontor__apply_unchecked of seat 0's and then seat 1's
 * choice (do_choose, resolve_choices) without a bankruptcy to check (the
 * caller's test: cfg.bankrupt 0), by the playout's reveal: the cards out of
 * the hands, the passers' coins (resolve_n's order: a hidden pass is paid
 * before the reveal) and the reveal by playout_round_two, the playout's own
 * round of two without Armut (session fifteen: 14,926 -> 14,899; before,
 * pay_out and playout_reveal_two). An iteration of the basic game's search
 * 22,113 -> 21,987. Each card leaves its hand by its place (hand_place,
 * hand_take), not by hand_remove's search and carried bytes: the same hand
 * after it (session fifteen: 15,085 -> 15,055). */
void kontor__choose_two_unchecked(kontor_state *s, int v0, int v1) {
#ifdef KONTOR_CHECK_UNCHECKED
    if (s->cfg->nseats != 2 || s->cfg->bankrupt || !kontor_is_legal(s, 0, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, v0)) ||
        !kontor_is_legal(s, 1, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, v1)))
        abort();
#endif
    /* the reveal entered by the passers, as the loop's round (a passer's
     * choice not written: the reveal makes it KONTOR_NONE): iteration
     * 14,230 -> 14,219) */
    if (v0 != KONTOR_PASS) {
        hand_take(s, 0, hand_place(s, 0, v0));
        s->choice[0] = (uint8_t)v0;
        if (v1 != KONTOR_PASS) {
            hand_take(s, 1, hand_place(s, 1, v1));
            s->choice[1] = (uint8_t)v1;
            playout_round_both(s);
        } else {
            playout_round_pass1(s);
        }
    } else if (v1 != KONTOR_PASS) {
        hand_take(s, 1, hand_place(s, 1, v1));
        s->choice[1] = (uint8_t)v1;
        playout_round_pass0(s);
    } else {
        playout_round_two(s, 3);
    }
}

int kontor__place_usual_of(const kontor_config *cfg) {
    return !cfg->bankrupt && !cfg->specials && !(hooks_of(cfg) & KONTOR__HOOK_PLACE);
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

/* The removal drawn as rng_below(r, bb_count(removable(s)) + 1) and
 * bb_nth(removable(s), i - 1) would draw it (0: none), from removable()'s
 * three words (the ship's word and the ones before and after it, lowest
 * first: bb_nth's order), counted and picked in registers: no bitboard of
 * four words zeroed, filled and counted on the stack. */
__attribute__((always_inline)) static inline int remove_pick(const kontor_state *s, kontor_rng *r) {
    /* the generator's number first (rng_below's draw, its product below):
     * the words and counts are not live across it */
    uint64_t x0 = rng_next(r);
    unsigned c = s->ship_cell;
    if (c == KONTOR_NONE) return KONTOR_NONE; /* rng_below(r, 1): one number, 0 */
    unsigned b = bb_bit(s->cfg, c), w = BB_WORD_OF(b);
    const uint64_t *nb = bb_near_of(s->cfg, b);
    uint64_t t0 = bb_near_word_andnot(&s->shipsym, &s->enclosed, nb, w, 0);
    uint64_t t1 = bb_near_word_andnot(&s->shipsym, &s->enclosed, nb, w, 1);
    uint64_t t2 = bb_near_word_andnot(&s->shipsym, &s->enclosed, nb, w, 2);
    unsigned c0 = (unsigned)__builtin_popcountll(t0), c1 = c0 + (unsigned)__builtin_popcountll(t1);
    uint32_t n = c1 + (unsigned)__builtin_popcountll(t2) + 1;
    uint64_t m = (x0 >> 32) * (uint64_t)n;
    if (__builtin_expect((uint32_t)m < n, 0)) {
        uint32_t lim = (uint32_t)(-n) % n;
        while ((uint32_t)m < lim) m = (rng_next(r) >> 32) * (uint64_t)n;
    }
    unsigned i = (unsigned)(m >> 32);
    if (i == 0) return KONTOR_NONE;
    i--;
    uint64_t x = t0;
    unsigned q = w - 1;
    if (i >= c0) {
        x = t1, q = w, i -= c0;
        if (i >= c1 - c0) x = t2, q = w + 1, i -= c1 - c0;
    }
    for (; i > 0; i--) x &= x - 1;
    return (int)bb_cell_of(s->cfg, BB_BIT_AT(q, (unsigned)__builtin_ctzll(x)));
}

/* Every choice of ns seats (2 or 4) a pass, before the players' cards go
 * over theirs: one immediate word with the seats past two (KONTOR_NONE from
 * the deal on: check_choices_past_the_seats_are_none), not a pass loaded
 * into a register for each seat's store (basic 15,395 -> 15,368, four
 * 36,236 -> 36,146, the iteration 14,606 -> 14,512). */
static inline void choices_pass(kontor_state *s, int ns) {
    const uint32_t pass = (uint8_t)KONTOR_PASS, none = (uint8_t)KONTOR_NONE;
    const uint32_t w = ns == 4 ? pass * 0x01010101u : none << 24 | none << 16 | pass << 8 | pass;
    memcpy(s->choice, &w, 4);
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
                                                                    int hidden, int hook, int rest) {
    /* (kontor_playout played a round whose declarations began outside on:
     * the round below finds every choice open, without a test) */
    int stop = 0;
    for (;;) {
        /* (a byte: compared as one, no copy widened for the chain of
         * tests; unsigned gave basic 15,054 -> 14,999, four 36,066 -> 35,957) */
        uint8_t phase = s->phase;
        if (phase == KONTOR_PHASE_PLACE) {
            /* cells as water: only for a customs house, a special card
             * (none is dealt without cfg.specials) */
            /* (unsigned: the count goes to the multiply without a sign extension) */
            bb_counts_t cc = bb_counts(&s->cells);
            unsigned a = cc.all, c0 = cc.c0, c1 = cc.c1, c2 = cc.c2;
            /* (cells_water is empty unless the card is a customs house,
             * test_cells_as_water_only_for_a_customs_house: the card's
             * kind tested, not the four words; four 37,794 -> 37,622) */
            unsigned b = specials && s->card[s->choice[s->order[s->turn]]].kind == KONTOR_KIND_CUSTOMS
                             ? (unsigned)bb_count(s->cells_water)
                             : 0;
            unsigned n = a + b + (optional ? 1 : 0);
            unsigned i = rng_below(&r, n);
            /* the cells' word read again for the pick (an empty asm that
             * may write memory), not kept across the draw (basic -25 a
             * game); the prefix sums of the counts kept, to find the word
             * (pick_nth: basic 18,084 -> 17,808 against bb_nth) */
            __asm__ volatile("" ::: "memory");
            if ((!specials && !optional) || i < a) {
                /* a cell, never KONTOR_NONE; without cfg.specials no
                 * special card: playout_place's tests of the two go
                 * (basic 16,321 -> 16,120, the iteration 15,563 -> 15,374) */
                int v = bb_cell_of(s->cfg, bb_nth_counted(&s->cells, i, c0, c1, c2));
                if (hook) playout_place(s, v, 0);
                else if (specials) playout_place_cell(s, v);
                else playout_place_usual(s, v);
            }
            else if (i < a + b) playout_place(s, bb_nth(s->cells_water, (int)(i - a)), 1);
            else playout_place(s, KONTOR_NONE, 0);
            if (bankrupt) check_bankrupt(s, NULL);
            /* a placement that ended the round (most of them in a game for
             * two) goes to the next round's declarations (hidden choice) at
             * once, to the branch the chain of tests below would take, not
             * through the chain from the placement's test: basic 15,001 ->
             * 14,948, advanced 23,166 -> 23,078, four 35,875 -> 35,805, the
             * iteration 14,219 -> 14,183 */
            else if (!hidden && ns == 2 && s->phase == KONTOR_PHASE_DECLARE) goto declare2;
            else if (hidden && ns == 2 && !hook && s->phase == KONTOR_PHASE_CHOOSE) goto choose2;
            else if (ns == 4 && s->phase == KONTOR_PHASE_DECLARE) goto declare4;
        } else if (!hidden && phase == KONTOR_PHASE_DECLARE && ns == 2) { /* (no declarations with declare=hidden: open_choice) */
        declare2:;
            /* the round of two seats at once: the two declarations (in seat
             * order: red's changes nothing black's depend on), the passers'
             * coins (do_declare), the players' choices (the choice phase)
             * and the reveal (do_choose), with the same draws in the same
             * order. A seat may play when it holds a card, and pass unless
             * pass=rest forbids it to a seat holding one (may_pass): 1 + (it
             * may do both) choices */
            /* a seat's pass is the top bit of x0 (x1): in the usual round
             * (both hold a card and may pass) the draws' own top bits,
             * without declared_pass's tests (basic -150); the round's
             * branches test the two signs, no word of two bits made and
             * taken apart (basic 15,225 -> 15,088, advanced 23,522 -> 23,315;
             * the hidden choice's the same by its draws: iteration 14,380 ->
             * 14,310) */
            uint64_t x0 = rng_next(&r), x1 = rng_next(&r);
            if (__builtin_expect(!(s->hand_n[0] && s->hand_n[1] && !(rest && s->no_pass)), 0)) {
                unsigned both = !(rest && s->no_pass);
                x0 = (uint64_t)declared_pass(x0, both, s->hand_n[0]) << 63;
                x1 = (uint64_t)declared_pass(x1, both, s->hand_n[1]) << 63;
            }
            unsigned pass2 = (unsigned)(x0 >> 63) | (unsigned)(x1 >> 63) << 1;
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
            if (bankrupt) {
                choices_pass(s, 2);
                if (!(pass2 & 1)) s->choice[0] = hand_draw(s, 0, &r);
                if (!(pass2 & 2)) s->choice[1] = hand_draw(s, 1, &r);
                playout_reveal_two(s, pass2), check_bankrupt(s, NULL);
            } else if (!(x0 >> 63)) {
                /* (without Armut, the reveal pays the passers; its every
                 * path sets the phase; a passer's choice it does not read) */
                s->choice[0] = hand_draw(s, 0, &r);
                if (!(x1 >> 63)) {
                    s->choice[1] = hand_draw(s, 1, &r);
                    playout_round_both(s);
                } else {
                    playout_round_pass1(s);
                }
            } else if (!(x1 >> 63)) {
                s->choice[1] = hand_draw(s, 1, &r);
                playout_round_pass0(s);
            } else {
                playout_round_none(s);
                if (s->phase == KONTOR_PHASE_DECLARE) goto declare2; /* (the next round at once, as after a placement) */
            }
        } else if (hidden && phase == KONTOR_PHASE_CHOOSE && ns == 2 &&
                   (!hook || (s->choice[0] == KONTOR_NONE && s->choice[1] == KONTOR_NONE))) {
        choose2:;
            /* (the usual copy finds every choice open: kontor_playout
             * played a round whose choices began outside on, and none
             * other arises in it: iteration 14,280 -> 14,230, the others +2) */
            /* the hidden choice of two (declare=hidden: the search's
             * playouts) as playout_step's, without its call and the
             * generator's copies: iteration 19,466 -> 18,492 in this copy
             * of its own; a pass is kontor__may_pass's, a choice unless
             * pass=rest forbids it this round */
            /* (the counts 64-bit and given to the take: no widened copy of
             * them kept for hand_take, iteration -11, session sixteen) */
            uint64_t h0 = s->hand_n[0], h1 = s->hand_n[1];
            unsigned n0 = (unsigned)h0 + 1, n1 = (unsigned)h1 + 1;
            if (__builtin_expect(s->no_pass, 0))
                n0 = (unsigned)h0 + (unsigned)kontor__may_pass(s, 0), n1 = (unsigned)h1 + (unsigned)kontor__may_pass(s, 1);
            unsigned i0 = rng_below(&r, n0);
            unsigned i1 = rng_below(&r, n1);
            unsigned pass2 = (unsigned)(i0 >= h0) | (unsigned)(i1 >= h1) << 1;
            if (bankrupt) {
                choices_pass(s, 2);
                if (!(pass2 & 1)) s->choice[0] = hand_take_of(s, 0, i0, h0);
                if (!(pass2 & 2)) s->choice[1] = hand_take_of(s, 1, i1, h1);
                pay_and_reveal_two(s, pass2, bankrupt);
            } else if (i0 < h0) { /* (as the declared round's, above) */
                s->choice[0] = hand_take_of(s, 0, i0, h0);
                if (i1 < h1) {
                    s->choice[1] = hand_take_of(s, 1, i1, h1);
                    playout_round_both(s);
                } else {
                    playout_round_pass1(s);
                }
            } else if (i1 < h1) {
                s->choice[1] = hand_take_of(s, 1, i1, h1);
                playout_round_pass0(s);
            } else {
                playout_round_two(s, 3);
            }
        } else if (phase == KONTOR_PHASE_DECLARE && ns == 4) {
        declare4:;
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
            if (__builtin_expect(!((hands - 0x01010101u) & ~hands & 0x80808080u) && !(rest && s->no_pass), 1)) {
                /* every seat holds a card and may pass: the top bits (as for two) */
                pass4 = (unsigned)(x[0] >> 63) | ((unsigned)(x[1] >> 62) & 2) | ((unsigned)(x[2] >> 61) & 4) |
                        ((unsigned)(x[3] >> 60) & 8);
            } else {
#pragma GCC unroll 4
                for (int p = 0; p < 4; p++) pass4 |= declared_pass(x[p], !(rest && s->no_pass), s->hand_n[p]) << p;
            }
            if (bankrupt) {
                if (pass4) {
                    uint8_t got[KONTOR_MAX_SEATS];
                    pay_out(s, pass4, got);
                }
                s->phase = KONTOR_PHASE_CHOOSE;
                if (pass4 != 15 && !declared_solvent(s, pass4)) continue;
            }
            choices_pass(s, 4);
#pragma GCC unroll 4
            for (int p = 0; p < 4; p++)
                if (!((pass4 >> p) & 1)) s->choice[p] = hand_draw(s, p, &r);
            if (bankrupt) playout_reveal_four(s, pass4), check_bankrupt(s, NULL);
            else playout_round_four(s, pass4);
        } else if (phase == KONTOR_PHASE_SHIP) {
            bb_t t = ship_targets(s);
            int i = (int)rng_below(&r, (uint32_t)bb_count(t) + 1);
            playout_ship(s, i == 0 ? KONTOR_NONE : bb_nth(t, i - 1));
            if (bankrupt) check_bankrupt(s, NULL);
        } else if (phase == KONTOR_PHASE_REMOVE) {
            if (ns == 2) playout_remove(s, remove_pick(s, &r));
            else if (ns == 4 && !bankrupt) {
                /* four: the removal and the pile phase after it (R21) in one
                 * step, the pile phase's draw rng_below(&r, 2) in pile_seats'
                 * order as x's top bit (as declared_pass): no step of its own
                 * through playout_step, no do_remove and compute_cells (four
                 * 37,398 -> 37,008 a game) */
                int v = remove_pick(s, &r);
                if (v == KONTOR_NONE) playout_remove(s, v);
                else playout_remove_pile(s, v, (unsigned)(rng_next(&r) >> 63));
            }
            else do_remove(s, remove_pick(s, &r), NULL); /* Armut for four: the bankruptcy test between */
            if (bankrupt) check_bankrupt(s, NULL);
        } else if (phase == KONTOR_PHASE_OVER) { /* (once a game: after the ship and the removal) */
            break;
        } else {
            r = playout_step(s, r, &stop);
            if (stop) break;
        }
    }
    return r;
}

/* The loop in a copy for each usual game, its number of seats, whether a
 * bankruptcy can end it (Armut), whether special cards (customs houses as
 * water) and optional placing (Canale) are in it, and whether a round may
 * forbid passing (pass=rest, events) known when compiling: the tests of
 * cfg.bankrupt after each step, of the seats and no_pass at the
 * declarations and of the two options at each placement go. The game for four has the
 * special cards; four without them goes the general way (a fourth copy
 * cost basic +14 and advanced +22 a game, layout). */
void kontor_playout(kontor_state *s, kontor_rng *rng) {
    kontor_rng r = *rng; /* a local, kept in registers: the state's byte stores could alias *rng */
    const kontor_config *c = s->cfg;
    /* A round whose declarations (declare=hidden: hidden choices) began
     * outside (a search's state between two seats' declarations) is played
     * on by playout_step first: the loop's
     * round then always finds every choice open, without a test (only
     * do_declare leaves a round's choices partly made, and only
     * playout_step's declarations call it: here, or for seats other than
     * two or four, whose declarations the loop leaves to it). With the end
     * tested after the two usual phases and no test of the pick for a game
     * without special cards and optional placing: basic 19,868 -> 19,662 a
     * game. */
    for (int stop = 0; (s->phase == KONTOR_PHASE_DECLARE || (s->phase == KONTOR_PHASE_CHOOSE && c->pass_hidden)) &&
                       !choices_open(s, c->nseats);) {
        r = playout_step(s, r, &stop);
        if (stop) {
            *rng = r;
            return;
        }
    }
    /* (the three copies without KONTOR__HOOK_PLACE: no test of it a placement) */
    int usual = !c->bankrupt && !c->optional_place && !(s->hooks & KONTOR__HOOK_PLACE);
    /* (rest: no_pass can be set, only by pass=rest's double pass and an
     * event card, check_no_pass_only_with_pass_rest_or_events in
     * test_properties; the copies for games without either do not test it:
     * basic 15,467 -> 15,395, advanced 23,948 -> 23,780, four 36,551 ->
     * 36,236 a game; such games take the general copy) */
    int rest = c->pass_rest || c->events;
    if (usual && !rest && c->nseats == 2 && !c->specials && !c->pass_hidden) r = playout_loop(s, r, 2, 0, 0, 0, 0, 0, 0);
    else if (usual && c->nseats == 2 && !c->specials && c->pass_hidden)
        r = playout_loop(s, r, 2, 0, 0, 0, 1, 0, 1); /* declare=hidden: the search's records */
    else if (usual && !rest && c->nseats == 4 && c->specials) r = playout_loop(s, r, 4, 0, 1, 0, 0, 0, 0);
    else r = playout_loop(s, r, c->nseats, c->bankrupt, c->specials, c->optional_place, c->pass_hidden, 1, 1);
    *rng = r;
}
