/* test_jtext.c: jtext_dump writes json_dumps(JSON_COMPACT)'s bytes exactly, on every message of whole games.
 *
 * The server's state messages are written by jtext (src/server/jtext.c)
 * instead of json_dumps, for speed; the browser and the tests read them, so
 * the two must not differ by a byte. Checked on every view (each seat, a
 * spectator, the full state), every legal list and every event of random
 * games in every variant, and on a tree of the awkward cases (escapes,
 * control characters, UTF-8, extreme integers, empty containers).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "server/jtext.h"
#include "server/sjson.h"
#include "testutil.h"

static long compared;

static void same_text(json_t *o) {
    char *want = json_dumps(o, JSON_COMPACT | JSON_ENCODE_ANY);
    jtext t = {0};
    assert_int_equal(jtext_dump(&t, o), 0);
    assert_non_null(want);
    if (strcmp(want, t.buf) != 0) fail_msg("jtext '%.200s'\n json_dumps '%.200s'", t.buf, want);
    assert_int_equal(t.len, strlen(want));
    /* the buffer is reused: a second text after a reset is right too */
    t.len = 0;
    assert_int_equal(jtext_dump(&t, o), 0);
    assert_string_equal(t.buf, want);
    jtext_release(&t);
    free(want);
    json_decref(o);
    compared++;
}

static void test_the_awkward_cases_match_json_dumps(void **state) {
    (void)state;
    json_t *o = json_object();
    json_object_set_new(o, "quote\"and\\back", json_string("a\"b\\c/d"));
    json_object_set_new(o, "controls", json_string("\b\f\n\r\t\x01\x1f\x7f end"));
    json_object_set_new(o, "utf8", json_string("K\xc3\xb6nig \xe2\x82\xac \xf0\x9f\x9a\xa2"));
    json_object_set_new(o, "nul", json_stringn("a\0b", 3));
    json_object_set_new(o, "ints", json_pack("[I,I,I,I,i]", (json_int_t)0, (json_int_t)-1, (json_int_t)INT64_MAX,
                                             (json_int_t)INT64_MIN, 1234567));
    json_object_set_new(o, "empty", json_pack("{s:[], s:{}, s:s}", "a", "o", "s", ""));
    json_object_set_new(o, "bools", json_pack("[b,b,n]", 1, 0));
    json_object_set_new(o, "real", json_real(0.5));
    json_object_set_new(o, "zkey", json_integer(1));
    json_object_set_new(o, "akey", json_integer(2)); /* insertion order, not sorted */
    same_text(o);
    same_text(json_string("alone"));
    same_text(json_integer(-42));
}

static void test_every_message_of_random_games_matches_json_dumps(void **state) {
    (void)state;
    kontor_rng rng;
    kontor_rng_seed(&rng, 15);
    kontor_state *s = malloc(sizeof *s);
    assert_non_null(s);
    for (int v = 0; kontor_variant_describe(v); v++) {
        kontor_config cfg;
        kontor_error err;
        if (kontor_config_init(&cfg, kontor_variant_name(v), &err) != KONTOR_OK) continue;
        if (v == 0) same_text(sj_cards(cfg.cards));
        assert_int_equal(kontor_new(s, &cfg, 100 + (uint64_t)v, &err), KONTOR_OK);
        long seq = 0;
        for (int ply = 0; ply < 400 && !kontor_over(s); ply++) {
            for (int viewer = -1; viewer < cfg.nseats; viewer++) {
                kontor_view vw;
                kontor_view_of(s, viewer, &vw);
                same_text(sj_view(&vw));
                if (viewer >= 0) same_text(sj_legal(s, viewer));
            }
            unsigned act = kontor_actors(s);
            int seat = 0;
            while (!(act & (1u << seat))) seat++;
            kontor_move mv[KONTOR_MAX_MOVES];
            int n = kontor_legal(s, seat, mv);
            assert_true(n > 0);
            kontor_log log;
            log.n = 0;
            assert_int_equal(kontor_apply(s, seat, mv[kontor_rng_below(&rng, (uint32_t)n)], &log), KONTOR_OK);
            for (int i = 0; i < log.n; i++)
                for (int viewer = -2; viewer < cfg.nseats; viewer++) same_text(sj_event(s, &log.ev[i], seq, viewer));
            seq += log.n;
        }
        same_text(sj_state_full(s));
    }
    free(s);
    printf("    %ld texts compared byte for byte\n", compared);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_awkward_cases_match_json_dumps),
        cmocka_unit_test(test_every_message_of_random_games_matches_json_dumps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
