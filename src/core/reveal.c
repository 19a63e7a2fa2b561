/* reveal.c: the random playout's reveal of a round's cards, for the loop of
 * decide.c that draws a round's declarations and choices at once.
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
 * by case, -> 19,382 without the frame). In a file of its own: round.c
 * holds the rules' phases (~800 lines). */
#include <string.h>

#include "core/rules.h"

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
 * cannot pay leaves the reveal to resolve_n (untaxed: take-back, sit-out). */
__attribute__((noinline)) static void reveal_two_both(kontor_state *s) {
    int a = s->choice[0], b = s->choice[1];
    const kontor_card *ka = card_of(s, a), *kb = card_of(s, b);
    int owe_a = kb->coin, owe_b = ka->coin;
    if ((owe_a && !s->coins[0]) || (owe_b && !s->coins[1])) {
        playout_reveal_two(s, 0);
        return;
    }
    int second = ka->number < kb->number; /* the higher number first */
    s->no_pass = 0;
    s->pub[a >> 6] |= 1ULL << (a & 63); /* pub_set without its test: a chosen card is a card */
    s->pub[b >> 6] |= 1ULL << (b & 63);
    s->coins[0] = (uint8_t)(s->coins[0] - owe_a);
    s->coins[1] = (uint8_t)(s->coins[1] - owe_b);
    s->treasury = (uint8_t)(s->treasury + owe_a + owe_b);
    s->order[0] = (uint8_t)second;
    s->order[1] = (uint8_t)(second ^ 1);
    s->norder = 2;
    s->turn = 0;
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
        reveal_two_both(s);
        return;
    }
    /* one plays: no tax, the order is that seat */
    int p = passers == 1, id = s->choice[p];
    s->no_pass = 0;
    s->pub[id >> 6] |= 1ULL << (id & 63);
    s->order[0] = (uint8_t)p;
    s->norder = 1;
    s->choice[p ^ 1] = KONTOR_NONE;
    s->turn = 0;
    playout_start_turn(s);
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
 * nobody (often). */
void playout_round_two(kontor_state *s, unsigned passers) {
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

void playout_round_four(kontor_state *s, unsigned passers) {
    if (passers) {
        int n = __builtin_popcount(passers);
        uint8_t got[KONTOR_MAX_SEATS];
        if (n <= s->treasury) pay_all(s, passers, n);
        else if (s->treasury) pay_out(s, passers, got);
    }
    playout_reveal_four(s, passers);
}
