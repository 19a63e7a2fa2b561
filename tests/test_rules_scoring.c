/* test_rules_scoring.c: the rules of areas and their scoring in the two-player game, one test per rule and per ruling of docs/rules.md.
 *
 * Warehouses and areas, when an area is enclosed and scored (R7), the
 * rulebook's scoring examples, keepers (R11), and which areas count in the
 * advanced game: the largest five (R10). Split from test_rules.c along the
 * rulebook's parts: a round and the end are in test_rules_round.c, the board
 * (placing, the ship) in test_rules_board.c.
 *
 * The rulebook's figures, which no short game reaches, are laid by hand with
 * the hooks of core/internal.h (tests/rulesutil.h). */
#include "rulesutil.h"

/* ---- areas, warehouses, scoring ------------------------------------------------------- */

static void warehouses_count_per_area_and_player_and_areas_merge(void **st) {
    (void)st;
    kontor_state s;
    uint8_t g[2][3];
    setup(&s, "basic", NULL);
    bare(&s);
    kontor__put(&s, C(1, 1), id(&s, 3));  /* red TWS */
    kontor__put(&s, C(3, 1), id(&s, 9));  /* red T */
    assert_int_equal(kontor_area_at(&s, C(1, 1), NULL, g), 1);
    assert_int_equal(g[0][KONTOR_TEA], 1);
    assert_int_equal(kontor_area_at(&s, C(3, 1), NULL, g), 1);
    kontor__put(&s, C(2, 1), id(&s, 6));  /* black W joins them */
    assert_int_equal(kontor_area_at(&s, C(3, 1), NULL, g), 3);
    assert_int_equal(g[0][KONTOR_TEA], 2);
    assert_int_equal(g[0][KONTOR_WINE], 1);
    assert_int_equal(g[0][KONTOR_SPICE], 1);
    assert_int_equal(g[1][KONTOR_WINE], 1);
    assert_int_equal(g[1][KONTOR_TEA], 0);
}

static void an_area_enclosed_by_water_is_scored_at_once(void **st) {
    (void)st;
    kontor_state s;
    kontor_log log = {0};
    setup(&s, "basic", NULL);
    /* the corner cell 1,1 touches the cross at 1,0 and 0,1 */
    choose(&s, 5 /* W */, PASS, NULL);
    place(&s, 0, C(1, 1), NULL);
    choose(&s, PASS, 38, NULL);
    place(&s, 1, C(2, 1), NULL);
    assert_int_equal(s.nareas, 0);
    choose(&s, PASS, 40, &log);
    place(&s, 1, C(1, 2), &log);
    assert_int_equal(s.nareas, 1);
    assert_int_equal(s.area[0].winner, 0);
    assert_int_equal(s.area[0].keeper, 1);
    assert_int_equal(s.area[0].size, 1);
    uint8_t goods[2][3];
    kontor_area_goods(&s.area[0], goods);
    assert_int_equal(goods[0][KONTOR_WINE], 1);
    assert_int_equal(s.keepers[0], 1);
    assert_true(has_event(&log, KONTOR_EV_SCORE, 0));
    assert_true(kt_in(&s, KONTOR_SET_ENCLOSED, C(1, 1)));
}

/* The card that closes an area may be the dock card itself, laid in a pocket
 * of water: its own area (one card) is scored at once. */
static void a_dock_card_laid_into_a_pocket_of_water_is_scored_at_once(void **st) {
    (void)st;
    kontor_state s;
    kontor_log log = {0};
    setup(&s, "basic", NULL);
    choose(&s, PASS, 38, NULL);
    place(&s, 1, C(2, 1), NULL);
    choose(&s, PASS, 40, NULL);
    place(&s, 1, C(1, 2), NULL);
    assert_int_equal(s.nareas, 0);
    /* 1,1: water at 1,0 and 0,1 (the cross), 2,1 and 1,2 */
    choose(&s, 5 /* W */, PASS, &log);
    place(&s, 0, C(1, 1), &log);
    assert_int_equal(s.nareas, 1);
    assert_int_equal(s.area[0].size, 1);
    assert_int_equal(s.area[0].winner, 0);
    assert_true(has_event(&log, KONTOR_EV_SCORE, 0));
    assert_true(kt_in(&s, KONTOR_SET_ENCLOSED, C(1, 1)));
}

static void an_area_without_warehouses_is_not_scored(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    choose(&s, 7 /* crane: no goods */, PASS, NULL);
    place(&s, 0, C(1, 1), NULL);
    choose(&s, PASS, 38, NULL);
    place(&s, 1, C(2, 1), NULL);
    choose(&s, PASS, 40, NULL);
    place(&s, 1, C(1, 2), NULL);
    assert_int_equal(s.nareas, 1);
    assert_int_equal(s.area[0].winner, KONTOR_NONE);
    assert_int_equal(s.keepers[0] + s.keepers[1], 0);
}

static void ruling_R7_a_fixed_edge_encloses_at_once_or_with_edge_both_only_when_both_are_fixed(void **st) {
    (void)st;
    for (int both = 0; both < 2; both++) {
        kontor_state s;
        setup(&s, "basic", both ? "edge=both" : NULL);
        bare(&s);
        for (int x = -2; x <= 3; x++)
            if (x) kontor__put(&s, C(x, 0), id(&s, 47 + x + 2)); /* width 6: x -2..3 fixed */
        kontor__put(&s, C(3, 1), id(&s, 5));                   /* red W on the east edge */
        kontor__put(&s, C(2, 1), id(&s, 60));
        kontor__put(&s, C(3, 2), id(&s, 61));
        kontor__score_enclosed(&s, NULL);
        assert_int_equal(s.nareas, both ? 0 : 1);
        /* fix the height too: y -2..3 */
        kontor__put(&s, C(0, -1), id(&s, 62));
        kontor__put(&s, C(0, -2), id(&s, 63));
        kontor__put(&s, C(0, 1), id(&s, 64));
        kontor__put(&s, C(0, 2), id(&s, 65));
        kontor__put(&s, C(0, 3), id(&s, 66));
        kontor__score_enclosed(&s, NULL);
        assert_int_equal(s.nareas, 1);
        assert_int_equal(s.area[0].winner, 0);
    }
}

static void ruling_R7_the_fixing_card_encloses_areas_along_the_new_edge(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    bare(&s);
    for (int x = -2; x <= 2; x++)
        if (x) kontor__put(&s, C(x, 0), id(&s, 47 + x + 2));
    kontor__put(&s, C(2, 1), id(&s, 5)); /* red W at the east end, open to the east */
    kontor__put(&s, C(1, 1), id(&s, 60));
    kontor__put(&s, C(2, 2), id(&s, 61));
    /* a water card on the far west fixes the width (x -3..2): 3,1 becomes unplayable */
    choose(&s, PASS, 38, NULL);
    place(&s, 1, C(-3, 0), NULL);
    assert_int_equal(s.nareas, 1);
    assert_int_equal(s.area[0].winner, 0);
}

static void scoring_example_1_largest_single_superiority(void **st) {
    (void)st;
    /* red +2 tea, +2 spice; black +3 wine: black */
    uint8_t g[2][3] = {{2, 0, 2}, {0, 3, 0}};
    assert_int_equal(kontor_compare_goods(g), 1);
}

static void scoring_example_2_more_superiorities(void **st) {
    (void)st;
    /* both +1 at most; black leads in two goods */
    uint8_t g[2][3] = {{1, 0, 0}, {0, 1, 1}};
    assert_int_equal(kontor_compare_goods(g), 1);
    uint8_t h[2][3] = {{2, 1, 0}, {0, 0, 2}};
    assert_int_equal(kontor_compare_goods(h), 0);
}

static void scoring_example_3_value_of_the_goods_wine_spice_tea_wine(void **st) {
    (void)st;
    uint8_t g[2][3] = {{0, 1, 0}, {0, 0, 1}}; /* red wine +1, black spice +1: wine wins */
    assert_int_equal(kontor_compare_goods(g), 0);
    uint8_t h[2][3] = {{0, 0, 1}, {1, 0, 0}}; /* spice beats tea */
    assert_int_equal(kontor_compare_goods(h), 0);
    uint8_t i[2][3] = {{1, 0, 0}, {0, 1, 0}}; /* tea beats wine */
    assert_int_equal(kontor_compare_goods(i), 0);
    uint8_t j[2][3] = {{0, 0, 2}, {0, 2, 0}}; /* black wine beats red spice */
    assert_int_equal(kontor_compare_goods(j), 1);
}

static void scoring_review_example_two_wine_beat_tea_and_spice(void **st) {
    (void)st;
    uint8_t g[2][3] = {{1, 0, 1}, {0, 2, 0}};
    assert_int_equal(kontor_compare_goods(g), 1);
}

/* kontor_compare_goods reads the differences without a loop (area.c,
 * session twelve): it answers as the loop over the goods it was, written
 * here as the reference, for every count 0..7 of each good and side and for
 * counts near 255 (the bytes wrap past it). */
static int compare_goods_by_the_loop(const uint8_t g[2][3]) {
    int max[2] = {0, 0}, cnt[2] = {0, 0}, lead[2] = {-1, -1};
    for (int k = 0; k < 3; k++) {
        int d = (int)g[0][k] - (int)g[1][k];
        int who = d > 0 ? 0 : 1;
        if (d < 0) d = -d;
        if (d == 0) continue;
        cnt[who]++;
        if (d > max[who]) max[who] = d, lead[who] = k;
    }
    if (max[0] != max[1]) return max[0] > max[1] ? 0 : 1;
    if (max[0] == 0) return -1;
    if (cnt[0] != cnt[1]) return cnt[0] > cnt[1] ? 0 : 1;
    if (cnt[0] == 1 && lead[0] != lead[1]) return (lead[0] + 1) % 3 == lead[1] ? 0 : 1;
    return -1;
}

static void rule_compare_goods_is_the_rulebooks_loop(void **st) {
    (void)st;
    static const uint8_t high[] = {0, 1, 2, 127, 128, 253, 254, 255};
    for (int pass = 0; pass < 2; pass++)
        for (int n = 0; n < 8 * 8 * 8 * 8 * 8 * 8; n++) {
            uint8_t g[2][3];
            for (int i = 0, m = n; i < 6; i++, m >>= 3) g[i / 3][i % 3] = pass ? high[m & 7] : (uint8_t)(m & 7);
            assert_int_equal(kontor_compare_goods(g), compare_goods_by_the_loop(g));
        }
}

static void scoring_exact_tie_or_no_warehouses_is_not_scored(void **st) {
    (void)st;
    uint8_t g[2][3] = {{1, 2, 0}, {1, 2, 0}};
    assert_int_equal(kontor_compare_goods(g), -1);
    uint8_t z[2][3] = {{0, 0, 0}, {0, 0, 0}};
    assert_int_equal(kontor_compare_goods(z), -1);
}

static void ruling_R11_keepers_are_unlimited_unless_keeper_limit(void **st) {
    (void)st;
    for (int lim = 0; lim < 2; lim++) {
        kontor_state s;
        setup(&s, "basic", lim ? "keeper_limit=1" : NULL);
        s.keepers[0] = 5;
        choose(&s, 5, PASS, NULL);
        place(&s, 0, C(1, 1), NULL);
        choose(&s, PASS, 38, NULL);
        place(&s, 1, C(2, 1), NULL);
        choose(&s, PASS, 40, NULL);
        place(&s, 1, C(1, 2), NULL);
        assert_int_equal(s.area[0].winner, 0);
        assert_int_equal(s.area[0].keeper, lim ? 0 : 1);
        assert_int_equal(s.keepers[0], lim ? 5 : 6);
    }
}

/* ---- the largest five (advanced) -------------------------------------------------------------- */

static void set_areas(kontor_state *s, int n, const int *size, const int *dist) {
    s->nareas = (uint8_t)n;
    for (int i = 0; i < n; i++) {
        memset(&s->area[i], 0, sizeof s->area[i]);
        s->area[i].size = (uint8_t)size[i];
        s->area[i].dist = (uint8_t)dist[i];
        s->area[i].winner = (uint8_t)(i & 1);
        s->area[i].keeper = 1;
        s->area[i].value = 1;
    }
}

static void ruling_R10_only_the_five_largest_areas_count(void **st) {
    (void)st;
    kontor_state s;
    uint8_t c[KONTOR_MAX_AREAS];
    setup(&s, "advanced", NULL);
    int size[7] = {1, 5, 4, 4, 3, 3, 2}, dist[7] = {1, 3, 3, 2, 4, 5, 1};
    set_areas(&s, 7, size, dist);
    kontor_counted_areas(&s, c);
    int want[7] = {0, 1, 1, 1, 1, 1, 0};
    for (int i = 0; i < 7; i++) assert_int_equal(c[i], want[i]);
}

static void ruling_R10_equal_size_nearer_to_the_centre_counts(void **st) {
    (void)st;
    kontor_state s;
    uint8_t c[KONTOR_MAX_AREAS];
    setup(&s, "advanced", NULL);
    int size[6] = {3, 3, 3, 3, 3, 3}, dist[6] = {6, 1, 2, 3, 4, 5};
    set_areas(&s, 6, size, dist);
    kontor_counted_areas(&s, c);
    int want[6] = {0, 1, 1, 1, 1, 1};
    for (int i = 0; i < 6; i++) assert_int_equal(c[i], want[i]);
}

static void ruling_R10_still_tied_at_the_boundary_neither_counts_and_smaller_move_up(void **st) {
    (void)st;
    kontor_state s;
    uint8_t c[KONTOR_MAX_AREAS];
    int pts[2];
    setup(&s, "advanced", NULL);
    int size[7] = {5, 4, 3, 3, 2, 2, 1}, dist[7] = {1, 1, 1, 2, 2, 2, 3};
    set_areas(&s, 7, size, dist);
    kontor_counted_areas(&s, c);
    int want[7] = {1, 1, 1, 1, 0, 0, 1};
    for (int i = 0; i < 7; i++) assert_int_equal(c[i], want[i]);
    kontor_points(&s, pts);
    assert_int_equal(pts[0] + pts[1], 5);
    /* a tied group that fits whole counts whole */
    int size2[5] = {4, 4, 2, 2, 1}, dist2[5] = {1, 1, 2, 2, 1};
    set_areas(&s, 5, size2, dist2);
    kontor_counted_areas(&s, c);
    for (int i = 0; i < 5; i++) assert_int_equal(c[i], 1);
}

/* R10 with eight areas competing for the five places: the largest (6) and
 * the next (4) take two; three areas of size 3 at the same distance tie for
 * the three places left: the group fits, so it counts whole, and the smaller
 * areas behind it count not at all. A strict "fits" (fewer than the places
 * left) would drop the group and let the two areas of size 2 and the one of
 * size 1 in instead. */
static void ruling_R10_a_tied_group_that_fits_counts_whole_among_more_than_five(void **st) {
    (void)st;
    kontor_state s;
    uint8_t c[KONTOR_MAX_AREAS];
    int pts[2];
    setup(&s, "advanced", NULL);
    int size[8] = {3, 6, 2, 3, 1, 4, 3, 2}, dist[8] = {2, 1, 1, 2, 1, 1, 2, 1};
    set_areas(&s, 8, size, dist);
    kontor_counted_areas(&s, c);
    int want[8] = {1, 1, 0, 1, 0, 1, 1, 0};
    for (int i = 0; i < 8; i++) assert_int_equal(c[i], want[i]);
    kontor_points(&s, pts);
    assert_int_equal(pts[0] + pts[1], 5);
}

static void ruling_R10_every_enclosed_area_competes_unless_largest_keepers(void **st) {
    (void)st;
    kontor_state s;
    uint8_t c[KONTOR_MAX_AREAS];
    int size[6] = {6, 5, 4, 3, 2, 1}, dist[6] = {1, 1, 1, 1, 1, 1};
    for (int opt = 0; opt < 2; opt++) {
        setup(&s, "advanced", opt ? "largest_keepers=1" : NULL);
        set_areas(&s, 6, size, dist);
        s.area[0].keeper = 0; /* the largest area was a tie */
        s.area[0].winner = KONTOR_NONE;
        kontor_counted_areas(&s, c);
        assert_int_equal(c[0], opt ? 0 : 1);
        assert_int_equal(c[5], opt ? 1 : 0);
    }
}

/* R10 as the rulebook walks it, for the test below: the candidates (areas
 * of at least min_area_cards, a keeper's with largest_keepers, not taken
 * out) in a stable order by size (larger first) and distance (nearer
 * first), groups of equal size and distance taken whole while they fit. */
static void r10_walk(const kontor_state *s, int largest, int keepers, int min, uint8_t counted[KONTOR_MAX_AREAS]) {
    int cand[KONTOR_MAX_AREAS], nc = 0;
    memset(counted, 0, KONTOR_MAX_AREAS);
    for (int i = 0; i < s->nareas; i++)
        if ((!keepers || s->area[i].keeper) && s->area[i].size >= min && !s->area[i].out) cand[nc++] = i;
    for (int i = 1; i < nc; i++) /* a stable sort: equal areas keep their order */
        for (int j = i; j > 0; j--) {
            const kontor_area *a = &s->area[cand[j - 1]], *b = &s->area[cand[j]];
            if (a->size > b->size || (a->size == b->size && a->dist <= b->dist)) break;
            int t = cand[j];
            cand[j] = cand[j - 1], cand[j - 1] = t;
        }
    int left = largest;
    for (int i = 0; i < nc && left > 0;) {
        int j = i + 1;
        while (j < nc && s->area[cand[j]].size == s->area[cand[i]].size &&
               s->area[cand[j]].dist == s->area[cand[i]].dist)
            j++;
        if (j - i <= left) {
            for (int k = i; k < j; k++) counted[cand[k]] = 1;
            left -= j - i;
        }
        i = j;
    }
}

/* The count's shortcuts (no sort when the candidates fit the places, the
 * first places at once when no group of equal areas lies across the last)
 * give the rulebook's walk: random sets of up to 14 areas of few sizes and
 * distances (ties at every place), some without a keeper, some too small
 * or taken out, with and without largest_keepers; the points are the
 * counted keepers' values. */
static void ruling_R10_the_count_is_the_walk_for_any_areas(void **st) {
    (void)st;
    kontor_state s;
    uint8_t c[KONTOR_MAX_AREAS], want[KONTOR_MAX_AREAS];
    uint32_t x = 12345;
    for (int opt = 0; opt < 2; opt++) {
        setup(&s, "advanced", opt ? "largest_keepers=1" : NULL);
        int largest = s.cfg->largest, min = s.cfg->min_area_cards;
        assert_int_equal(largest, 5);
        for (int round = 0; round < 4000; round++) {
            x = x * 1103515245u + 12345u;
            int n = (int)(x >> 16) % 15;
            int size[14], dist[14];
            for (int i = 0; i < n; i++) {
                x = x * 1103515245u + 12345u;
                size[i] = 1 + (int)((x >> 16) % 5);
                dist[i] = (int)((x >> 20) % 3);
            }
            set_areas(&s, n, size, dist);
            for (int i = 0; i < n; i++) {
                x = x * 1103515245u + 12345u;
                if ((x >> 16) % 7 == 0) s.area[i].keeper = 0, s.area[i].winner = KONTOR_NONE;
                if ((x >> 20) % 11 == 0) s.area[i].out = 1;
                s.area[i].value = (uint8_t)(1 + (x >> 24) % 3);
            }
            r10_walk(&s, largest, opt, min, want);
            kontor_counted_areas(&s, c);
            assert_memory_equal(c, want, KONTOR_MAX_AREAS);
            int pts[2], sum[2] = {0, 0};
            for (int i = 0; i < n; i++)
                if (want[i] && s.area[i].keeper) sum[s.area[i].winner] += s.area[i].value;
            kontor_points(&s, pts);
            assert_int_equal(pts[0], sum[0]);
            assert_int_equal(pts[1], sum[1]);
        }
    }
}

static void basic_game_counts_every_area(void **st) {
    (void)st;
    kontor_state s;
    uint8_t c[KONTOR_MAX_AREAS];
    setup(&s, "basic", NULL);
    int size[8] = {1, 1, 1, 1, 1, 1, 1, 1}, dist[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    set_areas(&s, 8, size, dist);
    kontor_counted_areas(&s, c);
    for (int i = 0; i < 8; i++) assert_int_equal(c[i], 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(warehouses_count_per_area_and_player_and_areas_merge),
        cmocka_unit_test(rule_compare_goods_is_the_rulebooks_loop),
        cmocka_unit_test(an_area_enclosed_by_water_is_scored_at_once),
        cmocka_unit_test(a_dock_card_laid_into_a_pocket_of_water_is_scored_at_once),
        cmocka_unit_test(an_area_without_warehouses_is_not_scored),
        cmocka_unit_test(ruling_R7_a_fixed_edge_encloses_at_once_or_with_edge_both_only_when_both_are_fixed),
        cmocka_unit_test(ruling_R7_the_fixing_card_encloses_areas_along_the_new_edge),
        cmocka_unit_test(scoring_example_1_largest_single_superiority),
        cmocka_unit_test(scoring_example_2_more_superiorities),
        cmocka_unit_test(scoring_example_3_value_of_the_goods_wine_spice_tea_wine),
        cmocka_unit_test(scoring_review_example_two_wine_beat_tea_and_spice),
        cmocka_unit_test(scoring_exact_tie_or_no_warehouses_is_not_scored),
        cmocka_unit_test(ruling_R11_keepers_are_unlimited_unless_keeper_limit),
        cmocka_unit_test(ruling_R10_only_the_five_largest_areas_count),
        cmocka_unit_test(ruling_R10_equal_size_nearer_to_the_centre_counts),
        cmocka_unit_test(ruling_R10_still_tied_at_the_boundary_neither_counts_and_smaller_move_up),
        cmocka_unit_test(ruling_R10_every_enclosed_area_competes_unless_largest_keepers),
        cmocka_unit_test(ruling_R10_a_tied_group_that_fits_counts_whole_among_more_than_five),
        cmocka_unit_test(ruling_R10_the_count_is_the_walk_for_any_areas),
        cmocka_unit_test(basic_game_counts_every_area),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
