/* test_piles.c: the piles' pool (kontor.h, kontor_pile; issue 17).
 *
 * The seven piles share one array of KONTOR_MAX_CARDS bytes, each pile a
 * stretch of it from its top, in the order of pile[]; the deal leaves room
 * after each dock pile, and a card put under a pile with no room after it
 * moves its neighbours over (pile_make_room). What the rest of the engine
 * relies on: the stretches never overlap and stay inside the pool, in every
 * variant (a card written over another would be lost: test_properties'
 * check_cards finds that too, these tests say where); a card put under a
 * full pile lands under it and every other pile keeps its cards in order;
 * a view shows no byte of the pool but its piles' (masked) cards. */
#include <stdio.h>
#include <string.h>

#include "core/rules.h"
#include "testutil.h"

/* The piles lie in order in the pool and inside it. */
static void assert_pool_in_order(const kontor_state *s, const char *what, int round) {
    unsigned end = 0;
    for (int k = 0; k < KONTOR_NPILES; k++) {
        if (s->pile[k].head < end)
            fail_msg("%s round %d: pile %d starts at %d, inside the pile before it (which ends at %u)", what, round, k,
                     s->pile[k].head, end);
        end = (unsigned)(s->pile[k].head + s->pile[k].n);
    }
    if (end > KONTOR_MAX_CARDS) fail_msg("%s round %d: the last pile ends at %u, past the pool", what, round, end);
}

/* Random games of every variant and of the expansions: after every decision
 * the piles lie in order inside the pool, and a view of it zeroes every
 * byte of the pool that no pile holds. */
static void piles_never_outgrow_the_pool_in_any_variant(void **st) {
    (void)st;
    static const char *const extra[] = {"basic,export=1", "basic,events=1", "advanced,tiles=1",
                                        "advanced,export=1,events=1,tiles=1"};
    int states = 0, grew = 0;
    for (int v = 0; v < KONTOR_NVARIANTS + (int)(sizeof extra / sizeof *extra); v++) {
        kontor_config cfg;
        char name[64];
        if (v < KONTOR_NVARIANTS) {
            assert_int_equal(kontor_config_init(&cfg, kontor_variant_name(v), NULL), KONTOR_OK);
        } else {
            const char *e = extra[v - KONTOR_NVARIANTS], *comma = strchr(e, ',');
            snprintf(name, sizeof name, "%.*s", (int)(comma - e), e);
            assert_int_equal(kontor_config_init(&cfg, name, NULL), KONTOR_OK);
            assert_int_equal(kontor_config_options(&cfg, comma + 1, NULL), KONTOR_OK);
        }
        const char *what = v < KONTOR_NVARIANTS ? kontor_variant_name(v) : extra[v - KONTOR_NVARIANTS];
        kontor_rng rng;
        kontor_rng_seed(&rng, 41);
        for (int g = 0; g < 40; g++) {
            static kontor_state s;
            static kontor_view view;
            assert_int_equal(kontor_new(&s, &cfg, (uint64_t)g + 3, NULL), KONTOR_OK);
            int dealt[KONTOR_NPILES];
            for (int k = 0; k < KONTOR_NPILES; k++) dealt[k] = s.pile[k].n;
            while (!kontor_over(&s)) {
                assert_pool_in_order(&s, what, s.round);
                for (int k = 0; k < KONTOR_NPILES; k++) grew += s.pile[k].n > dealt[k];
                if ((states++ & 15) == 0) {
                    kontor_view_of(&s, 0, &view);
                    uint8_t mine[KONTOR_MAX_CARDS] = {0};
                    for (int k = 0; k < KONTOR_NPILES; k++)
                        for (int i = 0; i < s.pile[k].n; i++) mine[kontor_pile_at(&s.pile[k], i)] = 1;
                    for (int i = 0; i < KONTOR_MAX_CARDS; i++)
                        if (!mine[i] && view.s.pile_card[i]) fail_msg("%s: a view shows byte %d of the pool", what, i);
                }
                int seat = __builtin_ctz(kontor_actors(&s));
                kontor_move m[KONTOR_MAX_MOVES];
                int n = kontor_legal(&s, seat, m);
                assert_true(n > 0);
                assert_int_equal(kontor_apply(&s, seat, m[kontor_rng_below(&rng, (uint32_t)n)], NULL), KONTOR_OK);
            }
            assert_pool_in_order(&s, what, s.round);
        }
    }
    assert_true(states > 10000);
    assert_true(grew > 0); /* piles did take cards back (the ship, buy-outs, Justizia's discards) */
}

/* A hand-made pool: pile k holds n[k] cards from head[k], its cards
 * 10 k + i; returns the state (static: the tests run one at a time). */
static kontor_state *pool_of(const int head[KONTOR_NPILES], const int n[KONTOR_NPILES]) {
    static kontor_state s;
    memset(&s, 0, sizeof s);
    for (int k = 0; k < KONTOR_NPILES; k++) {
        s.pile[k].head = (uint8_t)head[k];
        s.pile[k].n = 0;
        for (int i = 0; i < n[k]; i++) {
            s.pile_card[head[k] + i] = (uint8_t)(10 * k + i);
            s.pile[k].n++;
        }
    }
    return &s;
}

/* Every pile holds what pool_of gave it (and pile k its one card more). */
static void assert_piles(const kontor_state *s, const int n[KONTOR_NPILES], int k, int added) {
    assert_pool_in_order(s, "pool", 0);
    for (int q = 0; q < KONTOR_NPILES; q++) {
        assert_int_equal(s->pile[q].n, n[q] + (q == k));
        for (int i = 0; i < n[q]; i++) assert_int_equal(kontor_pile_card(s, &s->pile[q], i), 10 * q + i);
    }
    assert_int_equal(kontor_pile_card(s, &s->pile[k], n[k]), added);
}

/* No room after dock pile 1: the piles up to the first with room after it
 * (the water pile) move right by one, the card goes under dock pile 1. */
static void a_card_under_a_full_pile_moves_the_next_piles_right(void **st) {
    (void)st;
    const int head[KONTOR_NPILES] = {0, 5, 8, 8, 8, 20, 20}, n[KONTOR_NPILES] = {4, 3, 0, 0, 6, 0, 2};
    kontor_state *s = pool_of(head, n);
    pile_put_under(s, &s->dock_pile[1], 77);
    assert_piles(s, n, 1, 77);
    assert_int_equal(s->water_pile.head, 9);
    assert_int_equal(s->special_pile.head, 20); /* past the room: not moved */
}

/* No room after the special cards' pile nor after any pile before it up to
 * the end: the piles from the last with room before it move left. */
static void a_card_under_a_full_pile_at_the_end_moves_the_piles_left(void **st) {
    (void)st;
    const int head[KONTOR_NPILES] = {0, 30, 38, 38, 40, 90, 93}, n[KONTOR_NPILES] = {20, 8, 0, 0, 50, 3, 3};
    kontor_state *s = pool_of(head, n);
    pile_put_under(s, &s->special_pile, 99);
    assert_piles(s, n, 6, 99);
    assert_int_equal(s->water_pile.head, 39);
    assert_int_equal(s->special_pile.head, 92);
    assert_int_equal(s->dock_pile[1].head, 30); /* before the room taken: not moved */
}

/* The deal lays out the same pool whichever way it deals (kontor_new's
 * quick deal and a written deal: test_rules_round holds the states equal)
 * and leaves room after the dock piles of a game for two: the ship's
 * removals go under them without moving a pile. */
static void the_deal_leaves_room_after_each_dock_pile(void **st) {
    (void)st;
    kontor_config cfg;
    assert_int_equal(kontor_config_init(&cfg, "advanced", NULL), KONTOR_OK);
    kontor_state s;
    assert_int_equal(kontor_new(&s, &cfg, 5, NULL), KONTOR_OK);
    assert_pool_in_order(&s, "advanced", 0);
    for (int p = 0; p < 2; p++) assert_true(pile_limit(&s, p) - (s.dock_pile[p].head + s.dock_pile[p].n) >= 8);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(piles_never_outgrow_the_pool_in_any_variant),
        cmocka_unit_test(a_card_under_a_full_pile_moves_the_next_piles_right),
        cmocka_unit_test(a_card_under_a_full_pile_at_the_end_moves_the_piles_left),
        cmocka_unit_test(the_deal_leaves_room_after_each_dock_pile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
