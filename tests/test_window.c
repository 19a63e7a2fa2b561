/* test_window.c: each config's window of the grid (src/core/window.c), the
 * cells a card of it can ever reach (issue 17's narrow board).
 *
 * A state's sets will hold only the window's cells (at most 128, two
 * words), so the window must hold every cell that a game's cards reach, and
 * a config whose window would be larger must be refused when it is
 * interned, with a message that names its width and height. */
#include <string.h>

#include "core/nb.h"
#include "core/window.h"
#include "core/rules.h"
#include "testutil.h"

static const kontor_config *interned(const char *variant, const char *opts, kontor_error *err) {
    kontor_config c;
    assert_int_equal(kontor_config_init(&c, variant, NULL), KONTOR_OK);
    if (opts) assert_int_equal(kontor_config_options(&c, opts, NULL), KONTOR_OK);
    return kontor_config_intern(&c, err);
}

/* The windows the lead's table names: 7x7 basic, 9x9 advanced, 11x11 for
 * four, Gigant and Kleinen, 9x9 Gulliver, 12x4 Canale. */
static void each_variant_has_the_window_of_its_reach(void **st) {
    (void)st;
    static const struct {
        const char *variant;
        int w, h;
    } want[] = {{"basic", 7, 7},   {"advanced", 9, 9}, {"four", 11, 11},    {"gigant", 11, 11},
                {"kleinen", 11, 11}, {"gulliver", 9, 9}, {"canale", 12, 4}, {"tictactoe", 8, 8}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        kontor_error err;
        const kontor_config *c = interned(want[i].variant, NULL, &err);
        assert_non_null(c);
        if (c->win->stride != want[i].w || c->win->rows != want[i].h)
            fail_msg("%s: window %dx%d, want %dx%d", want[i].variant, c->win->stride, c->win->rows, want[i].w, want[i].h);
    }
}

/* Every named variant's window holds at most 128 cells, its tables are
 * each other's inverse, and its column masks are its first and last
 * columns. */
static void the_tables_map_cells_and_bits_both_ways(void **st) {
    (void)st;
    for (int v = 0; kontor_variant_describe(v); v++) {
        const char *name = kontor_variant_name(v);
        kontor_error err;
        const kontor_config *c = interned(name, NULL, &err);
        if (!c) fail_msg("%s: %s", name, err.msg);
        int n = c->win->stride * c->win->rows;
        assert_true(n <= KONTOR_WINDOW_MAX);
        int inside = 0;
        for (int cell = 0; cell < KONTOR_CELLS; cell++) {
            int b = c->win->bit_of[cell];
            if (b == KONTOR_NONE) continue;
            inside++;
            assert_int_equal(c->win->cell_of[b], cell);
            int x = b % c->win->stride;
            assert_int_equal((int)(c->win->col0[b >> 6] >> (b & 63) & 1), x == 0);
            assert_int_equal((int)(c->win->collast[b >> 6] >> (b & 63) & 1), x == c->win->stride - 1);
            assert_int_equal((int)(c->win->all[b >> 6] >> (b & 63) & 1), 1);
        }
        assert_int_equal(inside, n);
        assert_true(c->win->bit_of[KONTOR_CENTRE_CELL] != KONTOR_NONE);
        for (int i = 0; i < c->layout_n; i++) assert_true(c->win->bit_of[c->layout[i]] != KONTOR_NONE);
        if (c->fixed_board)
            for (bb_t t = c->board_mask; bb_any(t);) assert_true(c->win->bit_of[bb_pop(&t)] != KONTOR_NONE);
    }
}

/* Random games stay in their window: every card laid, the cells a card
 * could go to next, the mask and the frontier inside the mask lie inside
 * it (the frontier itself, the free cells next to a card, may lie a cell
 * beyond: the narrow board drops those, which the mask would drop). */
static void cards_never_leave_the_window(void **st) {
    (void)st;
    static const char *const variants[] = {"basic", "advanced", "four", "gigant", "kleinen", "gulliver", "canale", "insel"};
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        kontor_config cfg;
        assert_int_equal(kontor_config_init(&cfg, variants[v], NULL), KONTOR_OK);
        for (uint64_t seed = 1; seed <= 30; seed++) {
            kontor_state s;
            assert_int_equal(kontor_new(&s, &cfg, seed, NULL), KONTOR_OK);
            kontor_rng r;
            kontor_rng_seed(&r, seed * 7 + 1);
            while (s.phase != KONTOR_PHASE_OVER) {
                for (int cell = 0; cell < KONTOR_CELLS; cell++)
                    if (s.cfg->win->bit_of[cell] == KONTOR_NONE) {
                        if (bb_test(&s.occ, cell) || bb_test(&s.cells, cell) || bb_test(&s.cells_water, cell) ||
                            bb_test(&s.mask, cell))
                            fail_msg("%s seed %d: cell %d outside the window", variants[v], (int)seed, cell);
                    }
                kontor_move moves[KONTOR_MAX_MOVES];
                unsigned actors = kontor_actors(&s);
                assert_true(actors != 0);
                int seat = __builtin_ctz(actors);
                int n = kontor_legal(&s, seat, moves);
                assert_true(n > 0);
                assert_int_equal(kontor_apply(&s, seat, moves[kontor_rng_below(&r, (uint32_t)n)], NULL), KONTOR_OK);
            }
        }
    }
}

/* A board whose window would hold more than 128 cells is refused, naming
 * its width and height: the centre alone and 7x7 reach 13x13. */
static void a_board_beyond_128_cells_is_refused_naming_its_size(void **st) {
    (void)st;
    kontor_error err;
    memset(&err, 0, sizeof err);
    assert_null(interned("kleinen", "width=7,height=7", &err));
    assert_int_equal(err.code, KONTOR_E_RANGE);
    assert_non_null(strstr(err.msg, "7x7"));
    kontor_config cfg;
    assert_int_equal(kontor_config_init(&cfg, "kleinen", NULL), KONTOR_OK);
    assert_int_equal(kontor_config_options(&cfg, "width=7,height=7", NULL), KONTOR_OK);
    kontor_state s;
    assert_int_equal(kontor_new(&s, &cfg, 1, &err), KONTOR_E_RANGE);
    /* the cross and 8x8 (the game for four) fits: 11x11 */
    assert_non_null(interned("four", "width=8,height=8", &err));
}

/* The narrow sets (src/core/nb.h) against the grid's: over the windows of
 * the named variants and random sets inside them, a set converted there
 * and back is itself, and each row's and column's move (north, south, east,
 * west), the neighbours and a flood fill are the grid's kept to the window. */
static kontor_bb grid_moved(kontor_bb a, int dx, int dy) {
    kontor_bb r = bb_empty();
    for (kontor_bb t = a; bb_any(t);) {
        int c = bb_pop(&t), x = bb_x(c) + dx, y = bb_y(c) + dy;
        if (x >= 0 && x < KONTOR_GRID && y >= 0 && y < KONTOR_GRID) bb_set(&r, bb_xy(x, y));
    }
    return r;
}
static void property_narrow_sets_agree_with_the_grid(void **st) {
    (void)st;
    static const char *const variants[] = {"basic", "advanced", "four", "kleinen", "gulliver", "canale", "tictactoe"};
    kontor_rng rng;
    kontor_rng_seed(&rng, 17);
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        kontor_error err;
        const kontor_config *c = interned(variants[v], NULL, &err);
        assert_non_null(c);
        kontor_bb win = bb_of_nb(nb_all(c), c);
        assert_int_equal(bb_count(win), c->win->stride * c->win->rows);
        for (int n = 0; n < 2000; n++) {
            kontor_bb a, b;
            for (int i = 0; i < 4; i++) {
                a.w[i] = kontor_rng_next(&rng) & kontor_rng_next(&rng);
                b.w[i] = kontor_rng_next(&rng) | kontor_rng_next(&rng);
            }
            a = bb_and(a, win), b = bb_and(b, win);
            nb_t na = nb_of(&a, c), nbb = nb_of(&b, c);
            assert_true(bb_eq(bb_of_nb(na, c), a));
            assert_int_equal(nb_count(na), bb_count(a));
            assert_true(bb_eq(bb_of_nb(nb_north(na, c), c), bb_and(grid_moved(a, 0, -1), win)));
            assert_true(bb_eq(bb_of_nb(nb_south(na, c), c), bb_and(grid_moved(a, 0, 1), win)));
            assert_true(bb_eq(bb_of_nb(nb_east(na, c), c), bb_and(grid_moved(a, 1, 0), win)));
            assert_true(bb_eq(bb_of_nb(nb_west(na, c), c), bb_and(grid_moved(a, -1, 0), win)));
            assert_true(bb_eq(bb_of_nb(nb_neighbours(na, c), c), bb_and(bb_neighbours(a), win)));
            if (bb_any(b)) {
                int seed = bb_first(b);
                nb_t f = nb_flood(nb_of(&(kontor_bb){{0}}, c), nbb, c);
                assert_false(nb_any(f));
                kontor_bb one = bb_cell(seed);
                f = nb_flood(nb_of(&one, c), nbb, c);
                assert_true(bb_eq(bb_of_nb(f, c), bb_flood(one, b)));
            }
        }
    }
}

/* The register form (nb.h's nbw, SSE2 where the machine has it) against
 * the two words' functions: every move, the neighbours and the flood fill
 * over random sets of the same windows (the words' own are checked against
 * the grid above). */
static nb_t words_of(nbw v) {
    nb_t r;
    nbw_store(&r, v);
    return r;
}
static void property_narrow_register_agrees_with_the_words(void **st) {
    (void)st;
    static const char *const variants[] = {"basic", "advanced", "four", "kleinen", "gulliver", "canale", "tictactoe"};
    kontor_rng rng;
    kontor_rng_seed(&rng, 171);
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        kontor_error err;
        const kontor_config *c = interned(variants[v], NULL, &err);
        assert_non_null(c);
        nb_t all = nb_all(c);
        for (int n = 0; n < 4000; n++) {
            nb_t a = nb_and(nb_make(kontor_rng_next(&rng) & kontor_rng_next(&rng), kontor_rng_next(&rng) & kontor_rng_next(&rng)), all);
            nb_t b = nb_and(nb_make(kontor_rng_next(&rng) | kontor_rng_next(&rng), kontor_rng_next(&rng) | kontor_rng_next(&rng)), all);
            if (n & 1) a = nb_and(nb_make(1ULL << (n % 64), 1ULL << ((n / 64) % 64)), all); /* one or two cells */
            nbw ra = nbw_load(&a);
            assert_true(nb_eq(words_of(nbw_north(ra, c)), nb_north(a, c)));
            assert_true(nb_eq(words_of(nbw_south(ra, c)), nb_south(a, c)));
            assert_true(nb_eq(words_of(nbw_east(ra, c)), nb_east(a, c)));
            assert_true(nb_eq(words_of(nbw_west(ra, c)), nb_west(a, c)));
            assert_true(nb_eq(words_of(nbw_neighbours(ra, c)), nb_neighbours(a, c)));
            assert_true(nb_eq(words_of(nbw_flood(ra, nbw_load(&b), c)), nb_flood(a, b, c)));
            assert_int_equal(nbw_any(ra), nb_any(a));
        }
        /* the window's table of each bit's neighbours (shown to fail with the last row's south neighbour kept) */
        for (int b = 0; b < KONTOR_WINDOW_MAX; b++) {
            nb_t one = nb_empty();
            if (b < c->win->stride * c->win->rows) nb_set(&one, b);
            assert_true(nb_eq(nb_make(c->win->near[b][0], c->win->near[b][1]), nb_neighbours(one, c)));
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_variant_has_the_window_of_its_reach),
        cmocka_unit_test(the_tables_map_cells_and_bits_both_ways),
        cmocka_unit_test(cards_never_leave_the_window),
        cmocka_unit_test(a_board_beyond_128_cells_is_refused_naming_its_size),
        cmocka_unit_test(property_narrow_sets_agree_with_the_grid),
        cmocka_unit_test(property_narrow_register_agrees_with_the_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
