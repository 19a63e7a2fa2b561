/* test_sets.c: the state's sets at the public edge (src/core/sets.c), one test per promise.
 *
 * Outside the core the state's sets of cells and its cards by cell are read
 * only through kontor_state_set and kontor_state_card_at (issue 17: the core
 * narrows the fields to a window of the board), and a public kontor_bb only
 * through kontor_bb_has, kontor_bb_count, kontor_bb_next and kontor_bb_add.
 * So these must give exactly what the fields say, cell by cell, over every
 * set of dealt and played games of every variant and their views; and
 * the helpers must agree with each other on any set. The comparison with the
 * fields reads them in the grid form they have today (field_has below): when
 * the core changes their form, that one function changes with it. */
#include <stddef.h>

#include "testutil.h"

/* Each kontor_set's field, in the enum's order. */
static const size_t field_at[KONTOR_SET_COUNT] = {
    offsetof(kontor_state, occ),           offsetof(kontor_state, water),        offsetof(kontor_state, dock),
    offsetof(kontor_state, team_dock[0]),  offsetof(kontor_state, team_dock[1]), offsetof(kontor_state, crane[0]),
    offsetof(kontor_state, crane[1]),      offsetof(kontor_state, shipsym),      offsetof(kontor_state, enclosed),
    offsetof(kontor_state, mask),          offsetof(kontor_state, front),        offsetof(kontor_state, crane_near[0]),
    offsetof(kontor_state, crane_near[1]), offsetof(kontor_state, customs),      offsetof(kontor_state, cells),
    offsetof(kontor_state, cells_water)};

/* Whether the field of set which holds cell, read in the fields' own form
 * (today the 16x16 grid, bit c of word c / 64). */
static int field_has(const kontor_state *s, kontor_set which, int cell) {
    const kontor_bb *b = (const kontor_bb *)(const void *)((const char *)s + field_at[which]);
    return (int)((b->w[cell >> 6] >> (cell & 63)) & 1);
}

/* Every set and every card of s against the fields, cell by cell; returns
 * how many cells the sets hold in all (so a caller sees the games were not
 * empty). */
static long check_state(const kontor_state *s, const char *what, int step) {
    long held = 0;
    for (int k = 0; k < KONTOR_SET_COUNT; k++) {
        kontor_bb b = kontor_state_set(s, (kontor_set)k);
        for (int c = 0; c < KONTOR_CELLS; c++)
            if (kontor_bb_has(&b, c) != field_has(s, (kontor_set)k, c))
                fail_msg("%s step %d: set %d at cell %d is %d, its field %d", what, step, k, c, kontor_bb_has(&b, c),
                         field_has(s, (kontor_set)k, c));
        held += kontor_bb_count(&b);
    }
    for (int c = 0; c < KONTOR_CELLS; c++)
        if (kontor_state_card_at(s, c) != s->cell_card[c])
            fail_msg("%s step %d: the card at cell %d is %d, cell_card %d", what, step, c, kontor_state_card_at(s, c),
                     s->cell_card[c]);
    return held;
}

static void every_set_and_card_is_its_field_in_dealt_and_played_games(void **st) {
    (void)st;
    static const char *const games[][2] = {
        {"basic", NULL},         {"advanced", NULL},       {"four", NULL},          {"specials", NULL},
        {"canale", NULL},        {"tictactoe", NULL},      {"insel", NULL},         {"insel4", NULL},
        {"gulliver", NULL},      {"seilschaften", NULL},   {"advanced", "export=1,events=1,tiles=1"},
        {"four", "edge=both"},   {"basic", "width=8,height=4"}};
    long held[KONTOR_SET_COUNT] = {0};
    for (size_t v = 0; v < sizeof games / sizeof *games; v++) {
        kontor_config cfg;
        assert_int_equal(kontor_config_init(&cfg, games[v][0], NULL), KONTOR_OK);
        if (games[v][1]) assert_int_equal(kontor_config_options(&cfg, games[v][1], NULL), KONTOR_OK);
        char what[96];
        snprintf(what, sizeof what, "%s %s", games[v][0], games[v][1] ? games[v][1] : "");
        for (uint64_t seed = 1; seed <= 4; seed++) {
            kontor_state s;
            assert_int_equal(kontor_new(&s, &cfg, seed, NULL), KONTOR_OK);
            kontor_rng rng;
            kontor_rng_seed(&rng, seed * 7 + v);
            for (int step = 0;; step++) {
                check_state(&s, what, step);
                for (int k = 0; k < KONTOR_SET_COUNT; k++) held[k] += kt_count(&s, (kontor_set)k);
                for (int seat = -1; seat < s.cfg->nseats; seat++) { /* a view is a state too */
                    kontor_view view;
                    kontor_view_of(&s, seat, &view);
                    check_state(&view.s, what, step);
                }
                if (kontor_over(&s)) break;
                kt_random_step(&s, &rng, NULL);
            }
        }
    }
    /* every set held cells somewhere, so no comparison was of empty sets alone */
    for (int k = 0; k < KONTOR_SET_COUNT; k++)
        if (!held[k]) fail_msg("set %d was empty in every game", k);
}

/* The same, checked apart from the fields: the occupied cells are those
 * with a card, and a card lies in the water set, the dock set or both (a
 * customs house) exactly where it lies. */
static void the_occupied_set_is_the_cells_with_a_card(void **st) {
    (void)st;
    kontor_config cfg;
    assert_int_equal(kontor_config_init(&cfg, "four", NULL), KONTOR_OK);
    for (uint64_t seed = 1; seed <= 10; seed++) {
        kontor_state s;
        assert_int_equal(kontor_new(&s, &cfg, seed, NULL), KONTOR_OK);
        kontor_rng rng;
        kontor_rng_seed(&rng, seed);
        for (;;) {
            kontor_bb occ = kontor_state_set(&s, KONTOR_SET_OCC), water = kontor_state_set(&s, KONTOR_SET_WATER),
                      dock = kontor_state_set(&s, KONTOR_SET_DOCK);
            for (int c = 0; c < KONTOR_CELLS; c++) {
                int id = kontor_state_card_at(&s, c);
                assert_int_equal(kontor_bb_has(&occ, c), id != KONTOR_NONE);
                if (id == KONTOR_NONE) {
                    assert_false(kontor_bb_has(&water, c) || kontor_bb_has(&dock, c));
                    continue;
                }
                assert_true(id < s.cfg->cards->ncards);
                assert_true(kontor_bb_has(&water, c) || kontor_bb_has(&dock, c));
                if (kontor_card_is_water(&s.cfg->cards->card[id])) assert_true(kontor_bb_has(&water, c));
            }
            if (kontor_over(&s)) break;
            kt_random_step(&s, &rng, NULL);
        }
    }
}

/* Reads out of range: no card, an empty set. */
static void reads_out_of_range_give_no_card_and_an_empty_set(void **st) {
    (void)st;
    kontor_state s;
    kontor_config cfg;
    assert_int_equal(kontor_config_init(&cfg, "basic", NULL), KONTOR_OK);
    assert_int_equal(kontor_new(&s, &cfg, 3, NULL), KONTOR_OK);
    assert_int_equal(kontor_state_card_at(&s, -1), KONTOR_NONE);
    assert_int_equal(kontor_state_card_at(&s, KONTOR_CELLS), KONTOR_NONE);
    assert_int_not_equal(kontor_state_card_at(&s, KONTOR_CENTRE_CELL), KONTOR_NONE);
    kontor_bb none = kontor_state_set(&s, KONTOR_SET_COUNT);
    assert_int_equal(kontor_bb_count(&none), 0);
    assert_int_equal(kontor_bb_next(&none, 0), -1);
}

/* kontor_bb_next from any cell visits exactly the cells kontor_bb_has
 * holds, lowest first, kontor_bb_count counts them, and kontor_bb_add puts
 * in one cell and no other: on random sets of every density, and on the
 * edges of the words (cells 63, 64, 255). */
static void bb_next_count_and_add_agree_with_bb_has(void **st) {
    (void)st;
    kontor_rng rng;
    kontor_rng_seed(&rng, 17);
    for (int n = 0; n < 3000; n++) {
        kontor_bb b = {{0, 0, 0, 0}};
        int density = (int)kontor_rng_below(&rng, 5); /* 0 empty .. 4 full */
        for (int c = 0; c < KONTOR_CELLS; c++)
            if (density == 4 || (density && kontor_rng_below(&rng, 8) < (uint32_t)(2 * density - 1)))
                kontor_bb_add(&b, c);
        if (n == 0) { /* the words' edges */
            memset(&b, 0, sizeof b);
            kontor_bb_add(&b, 0), kontor_bb_add(&b, 63), kontor_bb_add(&b, 64), kontor_bb_add(&b, 255);
        }
        int count = 0;
        for (int c = 0; c < KONTOR_CELLS; c++) count += kontor_bb_has(&b, c);
        assert_int_equal(kontor_bb_count(&b), count);
        int from = (int)kontor_rng_below(&rng, KONTOR_CELLS + 1), want = from;
        while (want < KONTOR_CELLS && !kontor_bb_has(&b, want)) want++;
        assert_int_equal(kontor_bb_next(&b, from), want < KONTOR_CELLS ? want : -1);
        int seen = 0, last = -1;
        for (int c = kontor_bb_next(&b, 0); c >= 0; c = kontor_bb_next(&b, c + 1)) {
            assert_true(c > last && kontor_bb_has(&b, c));
            last = c, seen++;
        }
        assert_int_equal(seen, count);
        int c = (int)kontor_rng_below(&rng, KONTOR_CELLS);
        kontor_bb a = b;
        kontor_bb_add(&a, c);
        for (int d = 0; d < KONTOR_CELLS; d++) assert_int_equal(kontor_bb_has(&a, d), d == c || kontor_bb_has(&b, d));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_set_and_card_is_its_field_in_dealt_and_played_games),
        cmocka_unit_test(the_occupied_set_is_the_cells_with_a_card),
        cmocka_unit_test(reads_out_of_range_give_no_card_and_an_empty_set),
        cmocka_unit_test(bb_next_count_and_add_agree_with_bb_has),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
