/* test_server_configs.c: the server deals any number of games of distinct options, and a game's config lives as long as the game (issue 17's regression, session fourteen).
 *
 * Each game's state points at the process's entry of its config
 * (src/core/intern.c), which the game holds from its deal until it leaves
 * memory (games.c, registry.c's free_game). Before that hold a server that
 * had seen 4,096 distinct option sets refused every new one with a 400 until
 * a restart. Here a server in process (server_http, as the fuzz target calls
 * it) creates thousands of games, each under a max_rounds of its own, lets
 * each leave memory (an open game nobody joined, --open-ttl at 0 seconds),
 * and the process's table of configs holds no more than the games alive;
 * the replays of records it serves (/view) hold and release their configs
 * too, pinning nothing. And a game alive all along keeps its config's bytes
 * (run under AddressSanitizer too: make SANITIZE=address,undefined). And a
 * board larger than 8x8 is a 400 with the option's reason (session fifteen).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "server/sgame.h"
#include "srvutil.h"

/* srvutil.h's server in process, whose open games nobody joined leave at
 * the next evict_games() */
static int setup_open_games_leave_at_once(void **state) {
    if (setup_in_process(state) != 0) return -1;
    S.lim.open_ttl_s = 0;
    return 0;
}

/* POST /api/games of the basic game for two people with options; its id */
static void create_with_options(const char *options, char *id, size_t cap) {
    char body[200];
    snprintf(body, sizeof body, "{\"variant\":\"basic\",\"options\":\"%s\",\"seats\":[\"human\",\"human\"]}", options);
    json_t *g;
    int st = http_in_process("POST", "/api/games", body, strlen(body), &g);
    if (st != 201) fail_msg("options '%s': %d %s", options, st, g ? json_string_value(json_object_get(g, "error")) : "");
    snprintf(id, cap, "%s", json_string_value(json_object_get(g, "id")));
    json_decref(g);
}

#define GAMES 5000

static void a_server_deals_any_number_of_games_of_distinct_options_and_holds_only_the_live_ones(void **state) {
    (void)state;
    assert_int_equal(http_in_process("GET", "/api/variants", NULL, 0, NULL), 200); /* its trial deals hold and release */
    size_t base = kontor_configs_interned();
    for (int i = 0; i < GAMES; i++) {
        char opts[32], id[ID_LEN + 1];
        snprintf(opts, sizeof opts, "max_rounds=%d", 10 + i);
        create_with_options(opts, id, sizeof id);
        sgame *g = find_game(id);
        assert_non_null(g);
        assert_int_equal(g->s.cfg->max_rounds, 10 + i);
        assert_true(kontor_configs_interned() <= base + 1); /* (base: max_rounds=200 is the basic game's own, held for good) */
        if (i % 100 == 0) { /* a replay of its stored record, under a hold of its own */
            char path[64];
            snprintf(path, sizeof path, "/api/games/%s/view", id);
            assert_int_equal(http_in_process("GET", path, NULL, 0, NULL), 200);
            assert_true(kontor_configs_interned() <= base + 1);
        }
        evict_games();
        assert_null(find_game(id));
        assert_int_equal(kontor_configs_interned(), base);
    }
}

/* A game that stays (a seat claimed: not an open game nobody joined) while
 * thousands of others come and go, and their entries are reused. */
static void a_live_games_config_is_never_reused_while_it_lives(void **state) {
    (void)state;
    char keep[ID_LEN + 1];
    create_with_options("max_rounds=777,edge=both", keep, sizeof keep);
    sgame *g = find_game(keep);
    assert_non_null(g);
    pthread_mutex_lock(&g->mu);
    g->seat[0].claimed = 1;
    const kontor_config *cfg = g->s.cfg, want = *cfg;
    pthread_mutex_unlock(&g->mu);
    for (int i = 0; i < 3000; i++) {
        char opts[32], id[ID_LEN + 1];
        snprintf(opts, sizeof opts, "max_rounds=%d", 1000 + i);
        create_with_options(opts, id, sizeof id);
        if (i % 7 == 6) evict_games(); /* several at once in memory, then gone */
        assert_non_null(find_game(keep));
    }
    evict_games();
    assert_ptr_equal(find_game(keep), g);
    pthread_mutex_lock(&g->mu);
    assert_ptr_equal(g->s.cfg, cfg);
    assert_memory_equal(g->s.cfg, &want, sizeof want);
    assert_int_equal(g->s.cfg->max_rounds, 777);
    kontor_view v;
    kontor_view_of(&g->s, 1, &v);
    assert_int_equal(v.s.cfg->edge_both, 1);
    pthread_mutex_unlock(&g->mu);
}

/* The width and height options stop at 8 (the rulebook's largest board,
 * docs/rules.md R5; the areas' bound, KONTOR_MAX_AREAS): the server answers
 * a larger board with a 400 and the option's message, and makes an 8x8 one. */
static void a_board_larger_than_eight_by_eight_is_a_400_with_the_reason(void **state) {
    (void)state;
    static const char *const refused[] = {"width=9", "width=12", "height=12,width=8"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        char body[200], want[120];
        snprintf(body, sizeof body, "{\"variant\":\"basic\",\"options\":\"%s\",\"seats\":[\"human\",\"human\"]}",
                 refused[i]);
        json_t *g;
        assert_int_equal(http_in_process("POST", "/api/games", body, strlen(body), &g), 400);
        snprintf(want, sizeof want, "option '%s' is out of range (3..8: the rulebook's largest board is 8x8)",
                 strncmp(refused[i], "height", 6) == 0 ? "height=12" : refused[i]);
        assert_string_equal(json_string_value(json_object_get(g, "error")), want);
        json_decref(g);
    }
    char id[ID_LEN + 1];
    create_with_options("width=8,height=8", id, sizeof id);
    sgame *g = find_game(id);
    assert_non_null(g);
    assert_int_equal(g->s.cfg->width * g->s.cfg->height, 64);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_server_deals_any_number_of_games_of_distinct_options_and_holds_only_the_live_ones,
                                        setup_open_games_leave_at_once, teardown_in_process),
        cmocka_unit_test_setup_teardown(a_live_games_config_is_never_reused_while_it_lives, setup_open_games_leave_at_once,
                                        teardown_in_process),
        cmocka_unit_test_setup_teardown(a_board_larger_than_eight_by_eight_is_a_400_with_the_reason,
                                        setup_open_games_leave_at_once, teardown_in_process),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
