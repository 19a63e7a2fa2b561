/* scenutil.h: the hand-built positions of the scenario tests (test_scenarios.c, test_scenarios_players.c).
 *
 * A game of a variant from a seed, card numbers to ids, cards laid on the
 * board or given into a hand, both seats' choices of a round, a placement
 * that must be legal; cards
 * laid or given this way are not taken out of the piles (these tests do not
 * count cards; the property runs of test_properties.c do).
 */
#ifndef KONTOR_TESTS_SCENUTIL_H
#define KONTOR_TESTS_SCENUTIL_H
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/internal.h"

#define PASS (-1)

static inline int bbt(const kontor_bb *b, int c) { return kontor_bb_has(b, c); }
static inline int bbn(const kontor_bb *b) { return kontor_bb_count(b); }
static inline int C(int dx, int dy) { return kontor_cell(dx, dy); }

static inline void setup(kontor_state *s, const char *variant, const char *opts, uint64_t seed) {
    kontor_config cfg;
    kontor_error err;
    if (kontor_config_init(&cfg, variant, &err)) fail_msg("%s", err.msg);
    if (opts) assert_int_equal(kontor_config_options(&cfg, opts, &err), KONTOR_OK);
    if (kontor_new(s, &cfg, seed, &err)) fail_msg("%s", err.msg);
}

static inline int id(const kontor_state *s, int number) {
    int i = kontor__card_id(s, number);
    assert_true(i >= 0);
    return i;
}

static inline int in_hand(const kontor_state *s, int seat, int n) {
    int c = kontor__card_id(s, n);
    for (int i = 0; i < s->hand_n[seat]; i++)
        if (s->hand[seat][i] == c) return 1;
    return 0;
}

static inline int in_pile(const kontor_state *s, const kontor_pile *p, int c) {
    for (int i = 0; i < p->n; i++)
        if (kontor_pile_card(s, p, i) == c) return 1;
    return 0;
}

/* Put card number n into seat's hand (replacing its last card: these tests
 * do not count cards). */
static inline void give(kontor_state *s, int seat, int n) {
    if (in_hand(s, seat, n)) return;
    s->hand[seat][s->hand_n[seat] - 1] = (uint8_t)id(s, n);
}

/* Lay n cards by number on the board, each row {dx, dy, number} (not taken
 * out of any pile). */
static inline void lay(kontor_state *s, const int (*at)[3], int n) {
    for (int i = 0; i < n; i++) kontor__put(s, C(at[i][0], at[i][1]), id(s, at[i][2]));
}

static inline void choose(kontor_state *s, int red, int black) {
    if (red != PASS) give(s, 0, red);
    if (black != PASS) give(s, 1, black);
    int pick[2] = {red == PASS ? KONTOR_PASS : id(s, red), black == PASS ? KONTOR_PASS : id(s, black)};
    assert_int_equal(kt_choose_all(s, pick, NULL), KONTOR_OK);
}

static inline void place(kontor_state *s, int seat, int cell) {
    char why[160];
    kontor_move m = KONTOR_MOVE(KONTOR_MOVE_PLACE, cell);
    if (!kontor_is_legal(s, seat, m)) fail_msg("place: %s", kontor_why_illegal(s, seat, m, why, sizeof why));
    assert_int_equal(kontor_apply(s, seat, m, NULL), KONTOR_OK);
}

#endif
