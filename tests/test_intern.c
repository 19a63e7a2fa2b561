/* test_intern.c: the process's configs (src/core/intern.c), one test per promise of kontor_config_intern.
 *
 * A state holds a pointer to its config (issue 17), so the pointer must be
 * the same for equal configs (states compare byte for byte), must not follow
 * the caller's config after the deal (the server deals from a local), and the
 * table behind it must stay bounded (the server deals from configs that
 * strangers choose). The bound's test fills the table, so it runs last. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/rules.h"
#include "testutil.h"

static void config_with(kontor_config *c, const char *variant, const char *opts) {
    assert_int_equal(kontor_config_init(c, variant, NULL), KONTOR_OK);
    if (opts) assert_int_equal(kontor_config_options(c, opts, NULL), KONTOR_OK);
}

static void equal_configs_give_one_pointer_whatever_their_padding(void **st) {
    (void)st;
    kontor_config a, b;
    config_with(&a, "advanced", "edge=both");
    config_with(&b, "advanced", "edge=both");
    /* garbage in the padding: after layout[] and after event_arg[] */
    ((char *)&b)[offsetof(kontor_config, layout) + sizeof b.layout] = 0x5a;
    ((char *)&b)[offsetof(kontor_config, event_arg) + sizeof b.event_arg] = 0x5a;
    const kontor_config *pa = kontor_config_intern(&a, NULL), *pb = kontor_config_intern(&b, NULL);
    assert_non_null(pa);
    assert_ptr_equal(pa, pb);
    assert_ptr_not_equal(pa, &a);
    assert_int_equal(pa->edge_both, 1);
    kontor_config c;
    config_with(&c, "advanced", NULL);
    assert_ptr_not_equal(kontor_config_intern(&c, NULL), pa);
}

static void an_interned_config_interns_to_itself(void **st) {
    (void)st;
    kontor_config a;
    config_with(&a, "four", NULL);
    const kontor_config *p = kontor_config_intern(&a, NULL);
    size_t n = kontor_configs_interned();
    assert_ptr_equal(kontor_config_intern(p, NULL), p);
    assert_int_equal(kontor_configs_interned(), n);
}

/* the server's create_game: the config is a local that dies after the deal */
static void the_state_keeps_its_config_when_the_callers_changes(void **st) {
    (void)st;
    for (int quick = 0; quick < 2; quick++) {
        kontor_config cfg;
        config_with(&cfg, "basic", NULL);
        kontor_state s, t;
        if (quick) assert_int_equal(kontor_new(&s, &cfg, 7, NULL), KONTOR_OK);
        else {
            kontor_deal d;
            kontor_deal_shuffle(&d, &cfg, 7);
            assert_int_equal(kontor_new_from_deal(&s, &cfg, &d, NULL), KONTOR_OK);
        }
        assert_ptr_not_equal(s.cfg, &cfg);
        assert_ptr_equal(s.cfg, kontor_config_intern(&cfg, NULL));
        memset(&cfg, 0xff, sizeof cfg);
        assert_int_equal(s.cfg->nseats, 2);
        assert_int_equal(s.cfg->max_rounds, 200);
        /* and two games of one config compare whole */
        kontor_config again;
        config_with(&again, "basic", NULL);
        assert_int_equal(kontor_new(&t, &again, 7, NULL), KONTOR_OK);
        assert_memory_equal(&s, &t, sizeof s);
    }
}

/* the state's copy of the card table's pointer (card_of reads it) is its
 * config's, for every variant and both ways to deal */
static void the_states_card_table_is_its_configs(void **st) {
    (void)st;
    for (int v = 0; kontor_variant_name(v) && kontor_variant_describe(v); v++) {
        kontor_config cfg;
        if (kontor_config_init(&cfg, kontor_variant_name(v), NULL) != KONTOR_OK) continue;
        kontor_state s;
        kontor_deal d;
        assert_int_equal(kontor_new(&s, &cfg, 3, NULL), KONTOR_OK);
        assert_ptr_equal(s.card, s.cfg->cards->card);
        kontor_deal_shuffle(&d, &cfg, 3);
        assert_int_equal(kontor_new_from_deal(&s, &cfg, &d, NULL), KONTOR_OK);
        assert_ptr_equal(s.card, s.cfg->cards->card);
    }
}

static void a_config_that_does_not_deal_is_not_kept(void **st) {
    (void)st;
    kontor_config cfg;
    config_with(&cfg, "basic", NULL);
    cfg.nseats = 3;
    size_t n = kontor_configs_interned();
    kontor_state s;
    kontor_error err;
    assert_int_not_equal(kontor_new(&s, &cfg, 1, &err), KONTOR_OK);
    assert_int_equal(kontor_configs_interned(), n);
}

#define THREADS 4
#define PER_THREAD 64
static const kontor_config *seen[THREADS][PER_THREAD];
static void *intern_many(void *arg) {
    int k = (int)(intptr_t)arg;
    for (int i = 0; i < PER_THREAD; i++) {
        kontor_config c;
        char opt[32];
        snprintf(opt, sizeof opt, "max_rounds=%d", 300 + i);
        config_with(&c, "basic", opt);
        seen[k][i] = kontor_config_intern(&c, NULL);
    }
    return NULL;
}
static void threads_interning_the_same_configs_get_the_same_pointers(void **st) {
    (void)st;
    size_t n = kontor_configs_interned();
    pthread_t th[THREADS];
    for (int k = 0; k < THREADS; k++) assert_int_equal(pthread_create(&th[k], NULL, intern_many, (void *)(intptr_t)k), 0);
    for (int k = 0; k < THREADS; k++) pthread_join(th[k], NULL);
    for (int i = 0; i < PER_THREAD; i++) {
        assert_non_null(seen[0][i]);
        assert_int_equal(seen[0][i]->max_rounds, 300 + i);
        for (int k = 1; k < THREADS; k++) assert_ptr_equal(seen[k][i], seen[0][i]);
    }
    assert_int_equal(kontor_configs_interned(), n + PER_THREAD);
}

/* KONTOR_CONFIGS_MAX: a full table refuses a new config, with a message,
 * and still deals every config it holds */
static void the_table_of_configs_is_bounded(void **st) {
    (void)st;
    kontor_config c;
    config_with(&c, "advanced", NULL);
    kontor_state s;
    kontor_error err;
    for (int r = 1; kontor_configs_interned() < KONTOR_CONFIGS_MAX; r++) {
        c.max_rounds = (uint16_t)r;
        assert_int_equal(kontor_new(&s, &c, 1, NULL), KONTOR_OK);
    }
    c.max_rounds = 60000;
    assert_null(kontor_config_intern(&c, NULL));
    assert_int_equal(kontor_new(&s, &c, 1, &err), KONTOR_E_RANGE);
    assert_non_null(strstr(err.msg, "KONTOR_CONFIGS_MAX"));
    kontor_deal d;
    kontor_deal_shuffle(&d, &c, 1);
    assert_int_equal(kontor_new_from_deal(&s, &c, &d, &err), KONTOR_E_RANGE);
    assert_int_equal(kontor_configs_interned(), KONTOR_CONFIGS_MAX);
    c.max_rounds = 5;
    assert_int_equal(kontor_new(&s, &c, 1, &err), KONTOR_OK);
    assert_int_equal(s.cfg->max_rounds, 5);
}

/* board_full (src/core/rules.h) reads cfg->cells, which only the intern
 * works out: every state's config has width * height there, whatever the
 * caller left in it, for every board the variants give. */
static void property_interned_config_cells_is_width_times_height(void **st) {
    (void)st;
    static const char *const variants[] = {"basic", "advanced", "four", "specials"};
    for (size_t i = 0; i < sizeof variants / sizeof *variants; i++) {
        kontor_config c;
        config_with(&c, variants[i], NULL);
        c.cells = 7; /* the caller's value does not count */
        kontor_state s;
        assert_int_equal(kontor_new(&s, &c, 1, NULL), KONTOR_OK);
        assert_int_equal(s.cfg->cells, s.cfg->width * s.cfg->height);
        c.width = 5, c.height = 6;
        assert_int_equal(kontor_config_intern(&c, NULL)->cells, 30);
    }
}

/* The state's hooks are its config's (hooks_of at the deal): the playout's
 * tests read the byte instead of the fields behind the pointer (the cell
 * rules in the round, the window's scoring in score_area_win_in: the games
 * whose placement has more to do take the plain score_area). */
static void property_the_states_hooks_are_its_configs(void **st) {
    (void)st;
    static const char *const v[][2] = {
        {"basic", NULL},  {"advanced", NULL},     {"four", NULL},      {"specials", NULL},
        {"insel", NULL},  {"insel4", NULL},       {"tictactoe", NULL}, {"wasserspiele", NULL},
        {"advanced", "export=1"}, {"advanced", "tiles=1"}, {"advanced", "events=1"},
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        kontor_config c;
        config_with(&c, v[i][0], v[i][1]);
        kontor_state s;
        assert_int_equal(kontor_new(&s, &c, 1, NULL), KONTOR_OK);
        assert_int_equal(s.hooks, hooks_of(s.cfg));
        int place = !!(s.cfg->tiles | s.cfg->export_store | s.cfg->inner_value | s.cfg->tictactoe);
        assert_int_equal(!!(s.hooks & KONTOR__HOOK_PLACE), place);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(equal_configs_give_one_pointer_whatever_their_padding),
        cmocka_unit_test(an_interned_config_interns_to_itself),
        cmocka_unit_test(the_state_keeps_its_config_when_the_callers_changes),
        cmocka_unit_test(the_states_card_table_is_its_configs),
        cmocka_unit_test(a_config_that_does_not_deal_is_not_kept),
        cmocka_unit_test(threads_interning_the_same_configs_get_the_same_pointers),
        cmocka_unit_test(property_interned_config_cells_is_width_times_height),
        cmocka_unit_test(property_the_states_hooks_are_its_configs),
        cmocka_unit_test(the_table_of_configs_is_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
