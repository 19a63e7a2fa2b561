/* test_intern.c: the process's configs (src/core/intern.c), one test per promise of kontor_config_intern and of the owners' holds.
 *
 * A state holds a pointer to its config (issue 17), so the pointer must be
 * the same for equal configs (states compare byte for byte), must not follow
 * the caller's config after the deal (the server deals from a local), and the
 * table behind it must stay bounded (the server deals from configs that
 * strangers choose). Since session fourteen the owners of games hold their
 * configs (kontor_config_retain / kontor_config_release): a released entry
 * makes room for any number of new configs over a process's life, and an
 * entry held or pinned is never reused. The bound's test fills the table
 * with pinned entries, so it runs last. */
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

/* kontor_new's shuffle (deal.c, shuffle_splits) runs its second loop with
 * no test of m > 1: its three jobs keep k >= 2 cards (the start's water, a
 * colour's dock cards and hands). Were a job's k below 2, that loop would
 * draw once more than the written deal: the quick deal of every variant
 * that has one, for two and four seats, is the written deal, byte for byte. */
static void the_quick_deals_jobs_keep_two_cards_or_more(void **st) {
    (void)st;
    for (int v = 0; kontor_variant_name(v) && kontor_variant_describe(v); v++) {
        kontor_config cfg;
        if (kontor_config_init(&cfg, kontor_variant_name(v), NULL) != KONTOR_OK) continue;
        for (uint64_t seed = 1; seed <= 20; seed++) {
            kontor_state s, t;
            kontor_deal d;
            assert_int_equal(kontor_new(&s, &cfg, seed, NULL), KONTOR_OK);
            kontor_deal_shuffle(&d, &cfg, seed);
            assert_int_equal(kontor_new_from_deal(&t, &cfg, &d, NULL), KONTOR_OK);
            assert_memory_equal(&s, &t, sizeof s);
        }
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

/* a config of the basic game told apart by k (0 .. 131071): max_rounds and the edge ruling */
static void config_no(kontor_config *c, long k) {
    config_with(c, "basic", NULL);
    c->max_rounds = (uint16_t)(1 + k % 65535);
    c->edge_both = (uint8_t)(k / 65535 % 2);
}

/* The server's and the protocol engine's life: games come and go, each
 * under a config of its own, any number of them over the life of the
 * process, and the table holds only those alive. */
static void any_number_of_held_configs_deal_when_each_is_released(void **st) {
    (void)st;
    size_t base = kontor_configs_interned();
    for (long k = 0; k < KONTOR_CONFIGS_MAX + 2000; k++) {
        kontor_config c;
        config_no(&c, k);
        kontor_error err;
        const kontor_config *p = kontor_config_retain(&c, &err);
        if (!p) fail_msg("game %ld: %s", k, err.msg);
        kontor_state s;
        assert_int_equal(kontor_new(&s, p, (uint64_t)k, NULL), KONTOR_OK);
        assert_ptr_equal(s.cfg, p);
        assert_int_equal(s.cfg->max_rounds, c.max_rounds);
        assert_true(kontor_configs_interned() <= base + 1); /* (equal to base: one pinned by a test before) */
        kontor_config_release(p);
    }
    assert_int_equal(kontor_configs_interned(), base);
}

/* A game alive while thousands of others come and go: its entry (and so
 * every state and view of it) keeps its bytes. The others are held many at
 * once, so that freed entries are reused while it lives. */
static void a_held_config_is_never_reused_while_it_is_held(void **st) {
    (void)st;
    kontor_config a;
    config_with(&a, "advanced", "max_rounds=777,edge=both");
    const kontor_config *pa = kontor_config_retain(&a, NULL), *pa2 = kontor_config_retain(&a, NULL);
    assert_ptr_equal(pa, pa2); /* two owners, one entry */
    kontor_config want = *pa;
    kontor_state s;
    assert_int_equal(kontor_new(&s, pa, 5, NULL), KONTOR_OK);
    kontor_view v;
    kontor_view_of(&s, 0, &v);
    enum { AT_ONCE = 500 };
    static const kontor_config *held[AT_ONCE];
    for (int wave = 0; wave < 12; wave++) {
        if (wave == 6) kontor_config_release(pa2); /* one owner left: still held */
        for (int i = 0; i < AT_ONCE; i++) {
            kontor_config c;
            config_no(&c, 100000 + wave * AT_ONCE + i);
            held[i] = kontor_config_retain(&c, NULL);
            assert_non_null(held[i]);
            assert_ptr_not_equal(held[i], pa);
        }
        for (int i = 0; i < AT_ONCE; i++) kontor_config_release(held[i]);
        assert_memory_equal(pa, &want, sizeof want);
    }
    assert_ptr_equal(v.s.cfg, pa);
    assert_int_equal(s.cfg->max_rounds, 777);
    assert_int_equal(v.s.cfg->edge_both, 1);
    /* and found again by its content */
    assert_ptr_equal(kontor_config_retain(&a, NULL), pa);
    kontor_config_release(pa);
    kontor_config_release(pa);
}

/* The same for an entry pinned by a caller that holds nothing (kontor_new
 * from a config of its own, as the CLI and kontor bench deal). */
static void a_pinned_config_is_never_reused(void **st) {
    (void)st;
    kontor_config a;
    config_with(&a, "four", "max_rounds=555");
    kontor_state s;
    assert_int_equal(kontor_new(&s, &a, 9, NULL), KONTOR_OK);
    kontor_config want = *s.cfg;
    size_t base = kontor_configs_interned();
    for (int i = 0; i < 3000; i++) {
        kontor_config c;
        config_no(&c, 110000 + i);
        const kontor_config *p = kontor_config_retain(&c, NULL);
        assert_ptr_not_equal(p, s.cfg);
        kontor_config_release(p);
    }
    assert_memory_equal(s.cfg, &want, sizeof want);
    kontor_config_release(s.cfg); /* a release without a hold changes nothing */
    assert_int_equal(kontor_configs_interned(), base);
    assert_ptr_equal(kontor_config_intern(&a, NULL), s.cfg);
}

/* The server replays records (src/record/) that deal from the record's own
 * copy of the config: under the server's hold of an equal config that deal
 * borrows the hold (the same pointer) and pins nothing, so the entry leaves
 * when the hold ends. */
static void a_deal_under_an_equal_held_config_borrows_the_hold_and_pins_nothing(void **st) {
    (void)st;
    kontor_config a, copy;
    config_with(&a, "basic", "max_rounds=4321");
    size_t base = kontor_configs_interned();
    const kontor_config *p = kontor_config_retain(&a, NULL);
    copy = a;
    kontor_state s;
    kontor_deal d;
    kontor_deal_shuffle(&d, &copy, 3);
    assert_int_equal(kontor_new_from_deal(&s, &copy, &d, NULL), KONTOR_OK);
    assert_ptr_equal(s.cfg, p);
    assert_int_equal(kontor_new(&s, &copy, 4, NULL), KONTOR_OK);
    assert_ptr_equal(s.cfg, p);
    assert_int_equal(kontor_configs_interned(), base + 1);
    kontor_config_release(p);
    assert_int_equal(kontor_configs_interned(), base); /* not pinned */
}

/* The chains of the hash stay whole while entries leave and come: every
 * config held is found again by its content, whichever entries were reused. */
static void every_held_config_is_found_by_its_content_after_reuse(void **st) {
    (void)st;
    enum { N = 4000 };
    static const kontor_config *p[N];
    for (int i = 0; i < N; i++) {
        kontor_config c;
        config_no(&c, 120000 + i);
        assert_non_null(p[i] = kontor_config_retain(&c, NULL));
    }
    for (int i = 0; i < N; i += 2) kontor_config_release(p[i]); /* every other one leaves */
    for (int i = 0; i < N; i += 2) {
        kontor_config c;
        config_no(&c, 124000 + i);
        assert_non_null(p[i] = kontor_config_retain(&c, NULL)); /* and takes a freed entry */
    }
    for (int i = 0; i < N; i++) {
        kontor_config c;
        config_no(&c, (i % 2 ? 120000 : 124000) + i);
        assert_ptr_equal(kontor_config_retain(&c, NULL), p[i]);
        assert_int_equal(p[i]->max_rounds, c.max_rounds);
        kontor_config_release(p[i]);
        kontor_config_release(p[i]);
    }
}

/* The deal's checks and the hooks are kept with the entry (window.h's hooks
 * and quick, set by kontor__deal_checks when a config takes the entry,
 * session sixteen): an entry freed and taken by another config must answer
 * for the new one. A held basic config (the quick deal, no hook) leaves, and
 * configs with the events (the written deal, the round's hook) are held
 * until one takes its entry: that one deals what its written deal deals,
 * with its own hooks, and a basic config that takes an events config's
 * entry back deals the quick way again, the same state. */
static void a_reused_entry_keeps_the_deal_checks_of_its_new_config(void **st) {
    (void)st;
    enum { N = 8000 };
    static const kontor_config *held[N];
    kontor_config a;
    config_no(&a, 250000);
    const kontor_config *pa = kontor_config_retain(&a, NULL);
    assert_non_null(pa);
    kontor_state s, t;
    assert_int_equal(kontor_new(&s, pa, 7, NULL), KONTOR_OK);
    assert_int_equal(s.hooks, 0);
    kontor_config_release(pa);
    int n = 0, found = -1;
    while (found < 0 && n < N) {
        kontor_config b;
        config_no(&b, 250001 + n);
        assert_int_equal(kontor_config_options(&b, "events=1", NULL), KONTOR_OK);
        assert_non_null(held[n] = kontor_config_retain(&b, NULL));
        if (held[n] == pa) found = n;
        n++;
    }
    assert_true(found >= 0);
    assert_int_equal(pa->events, 1);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        assert_int_equal(kontor_new(&s, pa, seed, NULL), KONTOR_OK);
        kontor_deal d;
        kontor_deal_shuffle(&d, pa, seed);
        assert_int_equal(kontor_new_from_deal(&t, pa, &d, NULL), KONTOR_OK);
        assert_memory_equal(&s, &t, sizeof s);
        assert_int_equal(s.hooks, hooks_of(pa));
        assert_true(s.hooks & KONTOR__HOOK_ROUND);
        assert_int_equal(s.event_n, pa->nevent_cards);
    }
    for (int i = 0; i < n; i++) kontor_config_release(held[i]);
    /* and back: a config of the quick deal in an entry an events config left */
    int back = 0;
    for (int i = 0; i < N && !back; i++) {
        kontor_config c;
        config_no(&c, 270000 + i);
        const kontor_config *pc = kontor_config_retain(&c, NULL);
        assert_non_null(pc);
        held[i] = pc;
        n = i + 1;
        back = pc == pa;
    }
    assert_true(back);
    assert_int_equal(pa->events, 0);
    assert_int_equal(kontor_new(&s, pa, 5, NULL), KONTOR_OK);
    kontor_deal d;
    kontor_deal_shuffle(&d, pa, 5);
    assert_int_equal(kontor_new_from_deal(&t, pa, &d, NULL), KONTOR_OK);
    assert_memory_equal(&s, &t, sizeof s);
    assert_int_equal(s.hooks, 0);
    for (int i = 0; i < n; i++) kontor_config_release(held[i]);
}

/* Threads of the server (its workers, its loop) hold and release at once,
 * some configs shared, some their own: each sees its own config's bytes. */
#define HOLDERS 4
static void *hold_many(void *arg) {
    long t = (long)(intptr_t)arg;
    for (long i = 0; i < 3000; i++) {
        kontor_config c;
        config_no(&c, i % 3 ? 130000 + i % 16 : 140000 + t * 10000 + i);
        const kontor_config *p = kontor_config_retain(&c, NULL);
        if (!p || p->max_rounds != c.max_rounds || p->edge_both != c.edge_both) return (void *)1;
        kontor_state s;
        if (kontor_new(&s, &c, (uint64_t)i, NULL) != KONTOR_OK || s.cfg != p) return (void *)1;
        kontor_config_release(p);
    }
    return NULL;
}
static void threads_holding_and_releasing_see_their_own_configs(void **st) {
    (void)st;
    size_t base = kontor_configs_interned();
    pthread_t th[HOLDERS];
    for (long k = 0; k < HOLDERS; k++) assert_int_equal(pthread_create(&th[k], NULL, hold_many, (void *)(intptr_t)k), 0);
    for (int k = 0; k < HOLDERS; k++) {
        void *r;
        pthread_join(th[k], &r);
        assert_null(r);
    }
    assert_int_equal(kontor_configs_interned(), base);
}

/* KONTOR_CONFIGS_MAX: a table full of configs in use refuses a new config,
 * with a message, still deals every config it holds, and deals the new one
 * as soon as one is released. */
static void the_table_of_configs_is_bounded(void **st) {
    (void)st;
    kontor_config c, h;
    config_with(&c, "advanced", NULL);
    config_with(&h, "advanced", NULL);
    h.max_rounds = 60001;
    const kontor_config *ph = kontor_config_retain(&h, NULL);
    kontor_state s;
    kontor_error err;
    for (long r = 1; kontor_configs_interned() < KONTOR_CONFIGS_MAX; r++) {
        c.max_rounds = (uint16_t)(1 + r % 60000);
        c.edge_both = (uint8_t)(r / 60000);
        assert_non_null(kontor_config_intern(&c, NULL));
    }
    c.max_rounds = 60000;
    c.edge_both = 1;
    assert_null(kontor_config_intern(&c, NULL));
    assert_null(kontor_config_retain(&c, NULL));
    assert_int_equal(kontor_new(&s, &c, 1, &err), KONTOR_E_RANGE);
    assert_non_null(strstr(err.msg, "KONTOR_CONFIGS_MAX"));
    kontor_deal d;
    kontor_deal_shuffle(&d, &c, 1);
    assert_int_equal(kontor_new_from_deal(&s, &c, &d, &err), KONTOR_E_RANGE);
    assert_int_equal(kontor_configs_interned(), KONTOR_CONFIGS_MAX);
    c.max_rounds = 5;
    c.edge_both = 0;
    assert_int_equal(kontor_new(&s, &c, 1, &err), KONTOR_OK);
    assert_int_equal(s.cfg->max_rounds, 5);
    /* a hold ends: its entry deals the refused config */
    kontor_config_release(ph);
    c.max_rounds = 60000;
    c.edge_both = 1;
    assert_int_equal(kontor_new(&s, &c, 1, &err), KONTOR_OK);
    assert_ptr_equal(s.cfg, ph);
    assert_int_equal(s.cfg->max_rounds, 60000);
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
        cmocka_unit_test(any_number_of_held_configs_deal_when_each_is_released),
        cmocka_unit_test(a_held_config_is_never_reused_while_it_is_held),
        cmocka_unit_test(a_pinned_config_is_never_reused),
        cmocka_unit_test(a_deal_under_an_equal_held_config_borrows_the_hold_and_pins_nothing),
        cmocka_unit_test(every_held_config_is_found_by_its_content_after_reuse),
        cmocka_unit_test(a_reused_entry_keeps_the_deal_checks_of_its_new_config),
        cmocka_unit_test(the_quick_deals_jobs_keep_two_cards_or_more),
        cmocka_unit_test(threads_holding_and_releasing_see_their_own_configs),
        cmocka_unit_test(the_table_of_configs_is_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
