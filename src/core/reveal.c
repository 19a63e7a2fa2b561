/* reveal.c: the random playout's reveal of a round's cards, for the loop of
 * playout.c that draws a round's declarations and choices at once.
 *
 * The loop takes the chosen cards out of the hands itself and reveals them
 * here without do_declare and do_choose: the passers' coin (R12), the taxes,
 * the order of play, the first turn, with the same state as the rules'
 * reveal (resolve_n in round.c) gives. The reveal of two is resolve_n's case
 * by case (both pass, one plays, both play) and leaves a tax a seat cannot
 * pay to resolve_n; every call in its usual paths is a jump at its end
 * (both seats playing, which needs more registers, is a function of its
 * own; round.c's start_turn and new_round out of line), so that it needs no
 * frame and saves no register (issue 17: basic 20,359 -> 19,868 a game case
 * by case, -> 19,382 without the frame), and the loop's round enters it
 * by its passers (playout_round_both, _pass0, _pass1, _none). The reveal of four is a copy for
 * each set of players, the order of play by ranks without a sort (four
 * 42,394 -> 40,681 a game). In a file of its own: round.c holds the rules'
 * phases (~800 lines). */
#include <stddef.h>
#include <string.h>

#include "core/rules.h"

/* A reveal with players: norder = n, turn = 0 (the first turn), no_pass =
 * 0 (somebody played) and ship_moved = 0 (start_turn's on every path, the
 * first turn's start follows) as one store of an immediate word. GCC's -O3
 * made the two bytes of the order one vector store of a constant loaded
 * from memory (two instructions), and a 16-bit immediate it writes through
 * a register as well (-mtune=generic). */
_Static_assert(offsetof(kontor_state, turn) == offsetof(kontor_state, norder) + 1 &&
                   offsetof(kontor_state, no_pass) == offsetof(kontor_state, norder) + 2 &&
                   offsetof(kontor_state, ship_moved) == offsetof(kontor_state, norder) + 3,
               "norder, turn, no_pass and ship_moved are one word");
static inline void order_start(kontor_state *s, unsigned n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint32_t v = n;
    memcpy(&s->norder, &v, 4);
#else
    s->norder = (uint8_t)n;
    s->turn = 0;
    s->no_pass = 0;
    s->ship_moved = 0;
#endif
}

/* pay_out's usual case, the treasury pays every seat in want (n of them):
 * one bit a seat added to the four coins read as one word, as in pay_out */
__attribute__((always_inline)) static inline void pay_all(kontor_state *s, unsigned want, int n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t c;
    memcpy(&c, s->coins, 4);
    c += ((want & 15u) * 0x204081u) & 0x01010101u;
    memcpy(s->coins, &c, 4);
#else
    for (int p = 0; p < KONTOR_MAX_SEATS; p++) s->coins[p] = (uint8_t)(s->coins[p] + ((want >> p) & 1));
#endif
    s->treasury = (uint8_t)(s->treasury - n);
}

/* Both play: each owes a coin for the other's coin symbol; a seat that
 * cannot pay leaves the reveal to resolve_n (untaxed: take-back, sit-out).
 * (Out of line, the loop's entry too: it needs more registers.) */
void playout_round_both(kontor_state *s) {
    int a = s->choice[0], b = s->choice[1];
    const kontor_card *ka = card_of(s, a), *kb = card_of(s, b);
    int owe_a = kb->coin, owe_b = ka->coin;
    if ((owe_a && !s->coins[0]) || (owe_b && !s->coins[1])) {
        playout_reveal_two(s, 0);
        return;
    }
    int second = ka->number < kb->number; /* the higher number first */
    s->pub[a >> 6] |= 1ULL << (a & 63); /* pub_set without its test: a chosen card is a card */
    s->pub[b >> 6] |= 1ULL << (b & 63);
    s->coins[0] = (uint8_t)(s->coins[0] - owe_a);
    s->coins[1] = (uint8_t)(s->coins[1] - owe_b);
    s->treasury = (uint8_t)(s->treasury + owe_a + owe_b);
    s->order[0] = (uint8_t)second;
    s->order[1] = (uint8_t)(second ^ 1);
    order_start(s, 2);
    playout_start_turn(s);
}

__attribute__((always_inline)) static inline void reveal_two(kontor_state *s, unsigned passers) {
    if (passers == 3) { /* both pass: nobody reveals (R2: no pass next round with pass=rest), a new round */
        s->no_pass = s->cfg->pass_rest != 0;
        s->norder = 0;
        s->choice[0] = s->choice[1] = KONTOR_NONE;
        s->turn = 0;
        playout_new_round(s);
        return;
    }
    if (!passers) {
        playout_round_both(s);
        return;
    }
    /* one plays: no tax, the order is that seat */
    int p = passers == 1, id = s->choice[p];
    s->pub[id >> 6] |= 1ULL << (id & 63);
    s->order[0] = (uint8_t)p;
    order_start(s, 1);
    s->choice[p ^ 1] = KONTOR_NONE;
    playout_start_turn(s);
}

/* Every seat of ns passes and the treasury pays them all or is empty (then
 * it pays nobody: most such rounds come late in a game): pay_all or nothing
 * and the reveal of nobody (reveal_two's, resolve_n's), then new_round's
 * next round at once (round + 1, begin_round's declarations) when the round
 * is not past the safety rule's, a seat holds a card and no scenario's cell
 * rule or round hook is in the game; else 0 with nothing changed. The
 * choices (each KONTOR_PASS) open again, the phase is the declarations'
 * (four 37,211 -> 37,077 a game). */
__attribute__((always_inline)) static inline int all_pass_quick(kontor_state *s, int ns) {
    unsigned round = s->round, t = s->treasury;
    uint32_t hands; /* (seats past ns hold no card: check_hands_past_the_seats_are_empty) */
    memcpy(&hands, s->hand_n, 4);
    if ((t && t < (unsigned)ns) || round >= s->cfg->max_rounds ||
        (s->hooks & (KONTOR__HOOK_CELLS | KONTOR__HOOK_ROUND | KONTOR__HOOK_HIDDEN)) || !hands)
        return 0;
    if (t) pay_all(s, (1u << ns) - 1, ns);
    s->no_pass = s->cfg->pass_rest != 0; /* R2 */
    s->norder = 0, s->turn = 0;
    const uint32_t none4 = 0x01010101u * (uint8_t)KONTOR_NONE; /* the four choices as one immediate (as new_round) */
    memcpy(s->choice, &none4, 4);
    s->round = (uint16_t)(round + 1);
    s->event_due = 0;
    s->phase = KONTOR_PHASE_DECLARE;
    return 1;
}

/* the treasury cannot pay every passer and is not empty (rare): R12's
 * shortage is pay_out's */
__attribute__((noinline, cold)) static void round_two_short(kontor_state *s, unsigned passers) {
    uint8_t got[KONTOR_MAX_SEATS];
    pay_out(s, passers, got);
    reveal_two(s, passers);
}

/* The passers' coins and the reveal of a round of two (four) seats, for the
 * copies of the loop without Armut, whose bankruptcy test reads the coins
 * before the choices (the choices read none): an empty treasury pays
 * nobody (often). The round the loop's declarations drew (not the hidden
 * choice's, whose games have a round hook) tries all_pass_quick first. */
/* One passes (seat q): the treasury pays its coin unless empty (pay_out's
 * shortage needs two in want), the other plays (reveal_two's). The
 * passer's choice is not read (the loop's declared round leaves it
 * unwritten) and becomes KONTOR_NONE. */
__attribute__((always_inline)) static inline void round_one_in(kontor_state *s, unsigned q) {
    unsigned p = q ^ 1, id = s->choice[p];
    if (s->treasury) s->treasury--, s->coins[q]++;
    s->pub[id >> 6] |= 1ULL << (id & 63);
    s->order[0] = (uint8_t)p;
    order_start(s, 1);
    s->choice[q] = KONTOR_NONE;
    playout_start_turn(s);
}

__attribute__((always_inline)) static inline void round_two_in(kontor_state *s, unsigned passers, int declared) {
    if (declared && passers == 3 && all_pass_quick(s, 2)) return;
    if (passers == 1 || passers == 2) {
        round_one_in(s, passers >> 1);
        return;
    }
    if (passers) {
        int n = __builtin_popcount(passers);
        if (n <= s->treasury) {
            pay_all(s, passers, n);
        } else if (s->treasury) {
            round_two_short(s, passers);
            return;
        }
    }
    reveal_two(s, passers);
}
void playout_round_two(kontor_state *s, unsigned passers) { round_two_in(s, passers, 0); }

/* The round of the loop's declarations (and of its hidden choice), an
 * entry for each set of passers: the loop branches on them already to take
 * the players' cards, so no test of the passers here, and the passer's seat
 * a constant; a passer's choice is left unwritten by the loop (the reveal
 * makes it KONTOR_NONE). Both play: playout_round_both. Basic 15,368 ->
 * 15,225, advanced 23,739 -> 23,522, the iteration 14,503 -> 14,380 a game
 * against one entry that tested the passers. The hidden choice's games have
 * a round hook: its double pass is playout_round_two's. */
void playout_round_pass0(kontor_state *s) { round_one_in(s, 0); }
void playout_round_pass1(kontor_state *s) { round_one_in(s, 1); }
void playout_round_none(kontor_state *s) { round_two_in(s, 3, 1); }

/* The reveal of four for one set of players (playing, a constant in each
 * copy: the tests of who plays fold away), resolve_n's without its loops:
 * the taxes of the two opposing pairs tested first (a seat that cannot pay
 * sends the whole reveal to resolve_n before anything changed), then the
 * cards public, the coins by one word, and the order of play by ranks:
 * seat p's key is its card's number above 3 - p, so that the higher number
 * goes first and of equal numbers the lower seat, as resolve_n's insertion
 * sort; a player's rank is the number of players with a key above its own,
 * and order[rank] = p (the places past norder keep what they held, as in
 * resolve_n). */
__attribute__((always_inline)) static inline void reveal_four_of(kontor_state *s, unsigned playing) {
    const kontor_card *card = s->card;
    unsigned passers = ~playing & 15u, owe = 0;
    int c[KONTOR_MAX_SEATS] = {0, 0, 0, 0}, k[KONTOR_MAX_SEATS] = {0, 0, 0, 0};
#pragma GCC unroll 4
    for (int p = 0; p < 4; p++)
        if ((playing >> p) & 1) c[p] = s->choice[p];
#pragma GCC unroll 2
    for (int a = 0; a < 2; a++) { /* seats a and a + 2 face each other */
        if (((playing >> a) & 5u) != 5u) continue;
        unsigned oa = card[c[a + 2]].coin != 0, ob = card[c[a]].coin != 0;
        if ((oa && !s->coins[a]) || (ob && !s->coins[a + 2])) {
            playout_reveal_four(s, passers);
            return;
        }
        owe |= oa << a | ob << (a + 2);
    }
#pragma GCC unroll 4
    for (int p = 0; p < 4; p++)
        if ((playing >> p) & 1) {
            s->pub[c[p] >> 6] |= 1ULL << (c[p] & 63); /* pub_set without its test */
            k[p] = card[c[p]].number << 2 | (3 - p);
        }
    if (owe) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        uint32_t w;
        memcpy(&w, s->coins, 4);
        w -= (owe * 0x204081u) & 0x01010101u; /* an owing seat has a coin: no byte borrows */
        memcpy(s->coins, &w, 4);
#else
        for (int p = 0; p < KONTOR_MAX_SEATS; p++) s->coins[p] = (uint8_t)(s->coins[p] - ((owe >> p) & 1));
#endif
        s->treasury = (uint8_t)(s->treasury + __builtin_popcount(owe));
    }
#pragma GCC unroll 4
    for (int p = 0; p < 4; p++) {
        if (!((playing >> p) & 1)) continue;
        int rank = 0;
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++) /* (keys differ: one comparison a pair) */
            if (q != p && ((playing >> q) & 1)) rank += q < p ? k[q] > k[p] : !(k[p] > k[q]);
        s->order[rank] = (uint8_t)p;
    }
    /* a passer's choice (KONTOR_PASS) becomes KONTOR_NONE */
#pragma GCC unroll 4
    for (int p = 0; p < 4; p++)
        if ((passers >> p) & 1) s->choice[p] = KONTOR_NONE;
    order_start(s, (unsigned)__builtin_popcount(playing));
    playout_start_turn(s);
}

/* reveal_four_of in a function for each set of players (at least one),
 * each saving only the registers its case needs */
#define REVEAL_FOUR(m) \
    __attribute__((noinline)) static void reveal_four_##m(kontor_state *s) { reveal_four_of(s, m##u); }
REVEAL_FOUR(1) REVEAL_FOUR(2) REVEAL_FOUR(3) REVEAL_FOUR(4) REVEAL_FOUR(5) REVEAL_FOUR(6) REVEAL_FOUR(7)
REVEAL_FOUR(8) REVEAL_FOUR(9) REVEAL_FOUR(10) REVEAL_FOUR(11) REVEAL_FOUR(12) REVEAL_FOUR(13) REVEAL_FOUR(14)
REVEAL_FOUR(15)
#undef REVEAL_FOUR
static void (*const reveal_four_by_players[16])(kontor_state *) = {
    NULL,           reveal_four_1,  reveal_four_2,  reveal_four_3,  reveal_four_4,  reveal_four_5,
    reveal_four_6,  reveal_four_7,  reveal_four_8,  reveal_four_9,  reveal_four_10, reveal_four_11,
    reveal_four_12, reveal_four_13, reveal_four_14, reveal_four_15};

/* after the passers' coins: nobody plays (resolve_n's reveal of nobody), or
 * the copy for the players */
__attribute__((always_inline)) static inline void reveal_four(kontor_state *s, unsigned passers) {
    if (passers == 15u) playout_reveal_four(s, passers);
    else reveal_four_by_players[~passers & 15u](s);
}

/* the treasury cannot pay every passer and is not empty: pay_out's */
__attribute__((noinline, cold)) static void round_four_short(kontor_state *s, unsigned passers) {
    uint8_t got[KONTOR_MAX_SEATS];
    pay_out(s, passers, got);
    reveal_four(s, passers);
}

void playout_round_four(kontor_state *s, unsigned passers) {
    if (passers == 15u && all_pass_quick(s, 4)) return;
    /* (an empty treasury, most rounds with a passer in a game for four,
     * tested first: no count of the passers then; four 35,959 -> 35,875) */
    unsigned t = s->treasury;
    if (passers && t) {
        unsigned n = (unsigned)__builtin_popcount(passers);
        if (n <= t) {
            pay_all(s, passers, (int)n);
        } else {
            round_four_short(s, passers);
            return;
        }
    }
    reveal_four(s, passers);
}
