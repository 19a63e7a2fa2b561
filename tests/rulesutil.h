/* rulesutil.h: the positions of the rules tests (test_rules_round.c, test_rules_board.c, test_rules_scoring.c).
 *
 * A two-player game of a variant with fixed seed 7, card numbers to ids, a
 * card given into a hand by swapping it with one of the same kind (so every
 * card stays somewhere exactly once, unlike tests/scenutil.h's), both seats'
 * choices of a round, a placement that must be legal, the reason an illegal
 * decision gives, an empty board. One header, so that the three files
 * reach their positions the same way.
 */
#ifndef KONTOR_TESTS_RULESUTIL_H
#define KONTOR_TESTS_RULESUTIL_H
#include "testutil.h"

#include <stdio.h>

#include "core/internal.h"

#define PASS (-1)

static inline int bb_test_cell(const kontor_bb *b, int c) { return kontor_bb_has(b, c); }

static inline void setup(kontor_state *s, const char *variant, const char *opts) {
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, variant, &err), KONTOR_OK);
    if (opts) assert_int_equal(kontor_config_options(&cfg, opts, &err), KONTOR_OK);
    assert_int_equal(kontor_new(s, &cfg, 7, &err), KONTOR_OK);
}

static inline int id(const kontor_state *s, int number) {
    int i = kontor__card_id(s, number);
    assert_true(i >= 0);
    return i;
}

static inline int C(int dx, int dy) { return kontor_cell(dx, dy); }

/* Make sure card number n is in seat's hand, swapping it with a hand card of
 * the same kind wherever it is (a pile or the other hand), so that every card
 * stays somewhere exactly once. */
static inline void give(kontor_state *s, int seat, int n) {
    int c = id(s, n);
    for (int i = 0; i < s->hand_n[seat]; i++)
        if (s->hand[seat][i] == c) return;
    int water = kontor_card_is_water(&s->cfg->cards->card[c]);
    int slot = -1;
    for (int i = 0; i < s->hand_n[seat]; i++)
        if (kontor_card_is_water(&s->cfg->cards->card[s->hand[seat][i]]) == water) slot = i;
    assert_true(slot >= 0);
    uint8_t *where = NULL;
    for (int q = 0; q < 2 && !where; q++)
        for (int i = 0; i < s->hand_n[q]; i++)
            if (s->hand[q][i] == c) where = &s->hand[q][i];
    kontor_pile *piles[3] = {&s->dock_pile[0], &s->dock_pile[1], &s->water_pile};
    for (int k = 0; k < 3 && !where; k++)
        for (int i = 0; i < piles[k]->n; i++) {
            uint8_t *p = &s->pile_card[kontor_pile_at(piles[k], i)];
            if (*p == c) where = p;
        }
    if (!where) fail_msg("card %d is on the board, cannot give it", n);
    *where = s->hand[seat][slot];
    s->hand[seat][slot] = (uint8_t)c;
}

static inline kontor_move choice(const kontor_state *s, int n) {
    return KONTOR_MOVE(KONTOR_MOVE_CHOOSE, n == PASS ? KONTOR_PASS : id(s, n));
}

/* Both seats choose (a card number or PASS). */
static inline void choose(kontor_state *s, int red, int black, kontor_log *log) {
    if (red != PASS) give(s, 0, red);
    if (black != PASS) give(s, 1, black);
    int pick[2] = {KONTOR_MOVE_VALUE(choice(s, red)), KONTOR_MOVE_VALUE(choice(s, black))};
    assert_int_equal(kt_choose_all(s, pick, log), KONTOR_OK);
}

static inline void place(kontor_state *s, int seat, int cell, kontor_log *log) {
    char why[128];
    kontor_move m = KONTOR_MOVE(KONTOR_MOVE_PLACE, cell);
    if (!kontor_is_legal(s, seat, m)) fail_msg("place: %s", kontor_why_illegal(s, seat, m, why, sizeof why));
    assert_int_equal(kontor_apply(s, seat, m, log), KONTOR_OK);
}

static inline int in_hand(const kontor_state *s, int seat, int n) {
    int c = kontor__card_id(s, n);
    for (int i = 0; i < s->hand_n[seat]; i++)
        if (s->hand[seat][i] == c) return 1;
    return 0;
}

static inline int has_event(const kontor_log *log, int kind, int seat) {
    for (int i = 0; i < log->n; i++)
        if (log->ev[i].kind == kind && (seat < 0 || log->ev[i].seat == seat)) return 1;
    return 0;
}

static inline int legal_count(const kontor_state *s, int seat) {
    kontor_move m[KONTOR_MAX_MOVES];
    return kontor_legal(s, seat, m);
}

static inline void expect_why(const kontor_state *s, int seat, kontor_move m, const char *part) {
    char why[160];
    assert_false(kontor_is_legal(s, seat, m));
    kontor_why_illegal(s, seat, m, why, sizeof why);
    if (!strstr(why, part)) fail_msg("expected '%s' in '%s'", part, why);
}

/* An empty board with only the harbour centre. */
static inline void bare(kontor_state *s) {
    kontor__clear_board(s);
    kontor__put(s, KONTOR_CENTRE_CELL, s->cfg->cards->centre);
}

#endif
