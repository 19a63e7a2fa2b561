/* test_tree_par.c: tree parallelism in ismcts (par=tree, the default with
 * threads > 1; issue 18, item 3): several threads search one shared tree,
 * drawing from one iteration budget, with a virtual loss (vl=K) that each
 * takes back. What can be pinned although the threads' interleaving is not
 * deterministic: the budget is spent exactly (every iteration passes through
 * one root choice of the seat), the virtual loss leaves no visit behind, and
 * the threads grow ONE tree (each root cell expanded once, which two trees
 * of half the budget do not do); par=root stays reproducible for a seed; the
 * option's errors. The locking itself is checked under ThreadSanitizer
 * (docs/ai.md, "Tree parallelism"). */
#include "testutil.h"
#include "aiutil.h"

#include <stdio.h>
#include <string.h>

#include "ai/ai.h"

static uint64_t total_visits(const ai_choice *c, int n) {
    uint64_t t = 0;
    for (int i = 0; i < n; i++) t += c[i].visits;
    return t;
}

/* The threads draw from one budget: exactly iters iterations in all, each
 * through one root choice, whatever the virtual loss (vl=K adds K visits on
 * the way down and takes K - 1 back with the result). Both a placement
 * (sequential) and the card choice (simultaneous) at the root. */
static void test_tree_par_spends_the_budget_exactly(void **st) {
    (void)st;
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, "basic", &err), KONTOR_OK);
    kontor_state s0;
    kontor_new(&s0, &cfg, 9, NULL);
    kontor_view choose, place;
    kontor_view_of(&s0, 0, &choose);
    kontor_state s;
    assert_true(kt_red_places_view(5, 2, &s, &place));
    const kontor_view *views[] = {&choose, &place};
    const char *specs[] = {"ismcts:iters=3000,threads=2", "ismcts:iters=3000,threads=2,vl=3",
                           "ismcts:iters=3000,threads=3,vl=2,sim=rm"};
    for (int k = 0; k < 3; k++)
        for (int w = 0; w < 2; w++) {
            kontor_agent *a = kt_agent(specs[k], 3);
            ai_choice c[KONTOR_MAX_MOVES];
            int n = kontor_agent_rank(a, views[w], c, KONTOR_MAX_MOVES);
            assert_true(n > 1);
            assert_int_equal(total_visits(c, n), 3000);
            assert_int_equal(((ai_base *)a->impl)->iters, 3000);
            kontor_agent_free(a);
        }
}

/* One tree, not two: at a placement with n cells and a budget of n
 * iterations each iteration expands an untried root cell (untried first),
 * so one shared tree visits every cell exactly once; two trees of n/2
 * each pick their cells independently and some cell twice. */
static void test_tree_par_grows_one_tree(void **st) {
    (void)st;
    int checked = 0, root_dup = 0;
    for (uint64_t seed = 1; seed <= 50 && checked < 5; seed++) {
        kontor_state s;
        kontor_view v;
        if (!kt_red_places_view(seed, 2, &s, &v)) continue;
        kontor_move m[KONTOR_MAX_MOVES];
        int n = kontor_legal(&s, 0, m);
        if (n < 8) continue;
        for (int par = 0; par < 2; par++) {
            char spec[80];
            snprintf(spec, sizeof spec, "ismcts:iters=%d,threads=2,par=%s", n, par ? "root" : "tree");
            kontor_agent *a = kt_agent(spec, seed);
            ai_choice c[KONTOR_MAX_MOVES];
            int k = kontor_agent_rank(a, &v, c, KONTOR_MAX_MOVES);
            assert_int_equal(k, n);
            assert_int_equal(total_visits(c, k), (uint64_t)n);
            if (par == 0) assert_int_equal(c[0].visits, 1); /* the most visited: once */
            else root_dup += c[0].visits > 1;
            kontor_agent_free(a);
        }
        checked++;
    }
    assert_int_equal(checked, 5);
    assert_true(root_dup > 0); /* the check above tells the two apart */
}

/* A time budget under par=tree: both threads search until the deadline
 * (or the first sees the decision settled) and the move is legal. */
static void test_tree_par_time_budget(void **st) {
    (void)st;
    kontor_state s;
    kontor_view v;
    assert_true(kt_red_places_view(7, 2, &s, &v));
    const char *specs[] = {"ismcts:ms=30,threads=2", "ismcts:ms=30,threads=2,stop=0,clock=cpu"};
    for (int k = 0; k < 2; k++) {
        kontor_agent *a = kt_agent(specs[k], 3);
        kontor_move m = a->decide(a, &v);
        assert_true(kontor_is_legal(&s, 0, m));
        assert_true(((ai_base *)a->impl)->iters > 0);
        kontor_agent_free(a);
    }
}

/* par=root keeps today's reproducible search: the same seed, the same
 * ranking and visits, two threads or not. */
static void test_par_root_reproducible(void **st) {
    (void)st;
    kontor_state s;
    kontor_view v;
    assert_true(kt_red_places_view(5, 2, &s, &v));
    ai_choice c1[KONTOR_MAX_MOVES], c2[KONTOR_MAX_MOVES];
    kontor_agent *a = kt_agent("ismcts:iters=700,threads=2,par=root", 4), *b = kt_agent("ismcts:iters=700,threads=2,par=root", 4);
    int n1 = kontor_agent_rank(a, &v, c1, KONTOR_MAX_MOVES), n2 = kontor_agent_rank(b, &v, c2, KONTOR_MAX_MOVES);
    assert_int_equal(n1, n2);
    for (int i = 0; i < n1; i++) {
        assert_int_equal(c1[i].move, c2[i].move);
        assert_int_equal(c1[i].visits, c2[i].visits);
    }
    kontor_agent_free(a);
    kontor_agent_free(b);
}

static void test_par_spec_errors(void **st) {
    (void)st;
    struct {
        const char *spec, *says;
    } bad[] = {{"ismcts:threads=2,par=leaf", "option 'par' wants tree|root, not 'leaf'"},
               {"ismcts:threads=2,vl=0", "option 'vl'"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        kontor_error err;
        memset(&err, 0, sizeof err);
        assert_null(kontor_agent_new(bad[i].spec, 1, &err));
        if (!strstr(err.msg, bad[i].says)) fail_msg("'%s' says '%s'", bad[i].spec, err.msg);
    }
    const char *ok[] = {"ismcts:threads=2,par=tree,vl=3", "ismcts:threads=2,par=root", "ismcts:par=tree"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) kontor_agent_free(kt_agent(ok[i], 1));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree_par_spends_the_budget_exactly),
        cmocka_unit_test(test_tree_par_grows_one_tree),
        cmocka_unit_test(test_tree_par_time_budget),
        cmocka_unit_test(test_par_root_reproducible),
        cmocka_unit_test(test_par_spec_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
