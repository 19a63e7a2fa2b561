/* test_jtext.c: the server's JSON text is json_dumps(JSON_COMPACT)'s text of sjson.c's trees, byte for byte, on every message of whole games.
 *
 * The server's state messages are not dumped by jansson: jtext_dump
 * (src/server/jtext.c) writes a tree's text faster, and the hot path
 * writes the state message straight from the view, with no tree at all
 * (sjtext.c, views.c's state_text). The browser and the tests read these
 * messages, so none may differ by a byte from json_dumps of the trees
 * sjson.c builds (the API's answers). Checked on every view (each seat, a
 * spectator, the full state), every legal list, every event and every
 * whole state message (with its ack, players, team chat, timeout, deadline
 * and result) of random games in every variant and expansion, and on the
 * awkward cases (escapes, control characters, UTF-8, extreme integers,
 * empty containers).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "server/jtext.h"
#include "server/sgame.h"
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

/* The direct writer: the awkward strings and integers against jansson's own
 * text of them, and the commas of nested arrays and objects. */
static void test_the_writer_escapes_and_separates_as_json_dumps(void **state) {
    (void)state;
#define STR(x) {x, sizeof x - 1}
    static const struct {
        const char *s;
        size_t n;
    } strs[] = {STR(""),        STR("plain"),   STR("a\"b\\c/d"),
                STR("\b\f\n\r\t\x01\x1f\x7f end"), STR("K\xc3\xb6nig \xe2\x82\xac \xf0\x9f\x9a\xa2"),
                STR("a\0b"),     STR("\""),      STR("\\"),
                STR("\x1f\"\\\n")};
    static const long long nums[] = {0, 1, -1, 9, 10, -10, 99, 255, 256, 1234567, -2147483648LL, INT64_MAX, INT64_MIN};
    jtext t = {0};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
        json_t *o = json_stringn(strs[i].s, strs[i].n);
        char *want = json_dumps(o, JSON_COMPACT | JSON_ENCODE_ANY);
        jt_reset(&t);
        jt_strn(&t, strs[i].s, strs[i].n);
        assert_int_equal(jt_end(&t), 0);
        if (strcmp(want, t.buf) != 0) fail_msg("string %zu: writer '%s', json_dumps '%s'", i, t.buf, want);
        free(want);
        json_decref(o);
    }
    for (size_t i = 0; i < sizeof nums / sizeof *nums; i++) {
        json_t *o = json_integer(nums[i]);
        char *want = json_dumps(o, JSON_COMPACT | JSON_ENCODE_ANY);
        jt_reset(&t);
        jt_int(&t, nums[i]);
        assert_int_equal(jt_end(&t), 0);
        assert_string_equal(t.buf, want);
        free(want);
        json_decref(o);
    }
    /* {"a":[1,[],{},[true,false,null]],"b":{"c":"d","e":{}},"f":[[1],[2]]} */
    jt_reset(&t);
    jt_open(&t, '{');
    jt_key(&t, "a");
    jt_open(&t, '[');
    jt_int(&t, 1);
    jt_open(&t, '[');
    jt_close(&t, ']');
    jt_open(&t, '{');
    jt_close(&t, '}');
    jt_open(&t, '[');
    jt_bool(&t, 1);
    jt_bool(&t, 0);
    jt_null(&t);
    jt_close(&t, ']');
    jt_close(&t, ']');
    jt_key(&t, "b");
    jt_open(&t, '{');
    jt_key(&t, "c");
    jt_str(&t, "d");
    jt_key(&t, "e");
    jt_open(&t, '{');
    jt_close(&t, '}');
    jt_close(&t, '}');
    jt_key(&t, "f");
    jt_open(&t, '[');
    jt_open(&t, '[');
    jt_int(&t, 1);
    jt_close(&t, ']');
    jt_open(&t, '[');
    jt_int(&t, 2);
    jt_close(&t, ']');
    jt_close(&t, ']');
    jt_close(&t, '}');
    assert_int_equal(jt_end(&t), 0);
    assert_string_equal(t.buf, "{\"a\":[1,[],{},[true,false,null]],\"b\":{\"c\":\"d\",\"e\":{}},\"f\":[[1],[2]]}");
    jtext_release(&t);
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
            kontor_log log;
            kt_random_step(s, &rng, &log);
            for (int i = 0; i < log.n; i++)
                for (int viewer = -2; viewer < cfg.nseats; viewer++) same_text(sj_event(s, &log.ev[i], seq, viewer));
            seq += log.n;
        }
        same_text(sj_state_full(s));
    }
    free(s);
    printf("    %ld texts compared byte for byte\n", compared);
}

/* The state message as views.c built it before the direct writer: sjson.c's
 * tree of the seat's view, the fields views.c adds, dumped by jansson. The
 * reference state_text must match byte for byte. */
static char *tree_state_message(sgame *g, wsconn *w, double now) {
    kontor_view v;
    kontor_view_of(&g->s, w->seat, &v);
    json_t *o = sj_view(&v);
    json_object_set_new(o, "type", json_string("state"));
    json_object_set_new(o, "game", json_string(g->id));
    json_object_set_new(o, "seat", w->seat >= 0 ? json_integer(w->seat) : json_null());
    json_object_set_new(o, "ply", json_integer(g->rec.nply));
    if (w->has_ack) {
        json_object_set_new(o, "ack", json_integer(w->ack));
        w->has_ack = 0;
    }
    json_object_set_new(o, "players", seats_info(g));
    if (w->seat >= 0 && g->s.cfg->nseats == 4)
        json_object_set_new(o, "team_chat", json_boolean(chat_team_open(&g->s, kontor_team(&g->s, w->seat))));
    json_object_set_new(o, "legal", sj_legal(&g->s, w->seat));
    json_t *ev = json_array();
    for (long i = w->sent; i < g->nev; i++) json_array_append_new(ev, sj_event(&g->s, &g->ev[i], i, w->seat));
    w->sent = g->nev;
    json_object_set_new(o, "events", ev);
    if (g->timing_seat > 0) {
        json_t *tm = json_pack("{s:i}", "seat", g->timing_seat - 1);
        if (w->seat == g->timing_seat - 1) {
            json_object_set_new(tm, "text", json_string(g->timing_text));
            json_object_set_new(tm, "move", json_integer(g->timing_move));
        }
        json_object_set_new(o, "timeout", tm);
    }
    if (g->deadline > 0) json_object_set_new(o, "deadline_ms", json_integer((json_int_t)((g->deadline - now) * 1000)));
    if (kontor_over(&g->s)) json_object_set_new(o, "result", json_string(g->rec.result));
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return text;
}

static long direct_compared, with[6]; /* with: messages with an ack, a timeout, a deadline, a result, team_chat, all events */

/* The writer's text in t against json_dumps of the tree o (freed). */
static void same_as_tree(jtext *t, json_t *o, const char *what) {
    char *want = json_dumps(o, JSON_COMPACT | JSON_ENCODE_ANY);
    assert_non_null(want);
    assert_int_equal(jt_end(t), 0);
    if (t->len != strlen(want) || memcmp(t->buf, want, t->len) != 0)
        fail_msg("%s: direct '%.300s'\n tree '%.300s'", what, t->buf, want);
    free(want);
    json_decref(o);
    direct_compared++;
}

/* Player names a server may hold (player_name_ok: no control characters),
 * with what JSON must escape and UTF-8. */
static const char *const names[] = {"", "Ann", "Zo\xc3\xab \"Q\" \\o/", "\xe2\x82\xac / \\\\ \"\"", "{\"seat\":1}"};

/* One game of cfg played at random to its end; at every decision each
 * seat's and a spectator's whole state message (its view, legal list,
 * events) is written both ways and compared, and every event for every
 * viewer (-2: everyone, as a finished game's API sends them); at the
 * deal, each seat's and a spectator's welcome (the card set). */
static int direct_game(const kontor_config *cfg, uint64_t seed, kontor_rng *rng) {
    kontor_error err;
    sgame *g = calloc(1, sizeof *g);
    assert_non_null(g);
    if (kontor_new(&g->s, cfg, seed, &err) != KONTOR_OK) { /* an expansion this variant does not take */
        free(g);
        return -1;
    }
    snprintf(g->id, sizeof g->id, "g%05u", (unsigned)(seed % 100000));
    for (int i = 0; i < cfg->nseats; i++) {
        snprintf(g->seat[i].kind, sizeof g->seat[i].kind, "%s", kontor_rng_below(rng, 2) ? "human" : "easy");
        snprintf(g->seat[i].player, sizeof g->seat[i].player, "%s",
                 names[kontor_rng_below(rng, sizeof names / sizeof *names)]);
    }
    long evcap = 64;
    g->ev = malloc((size_t)evcap * sizeof *g->ev);
    assert_non_null(g->ev);
    kontor_record_set_result(&g->rec, &g->s);
    jtext t = {0};
    for (int ply = 0;; ply++) {
        g->rec.nply = ply;
        for (int viewer = -1; viewer < cfg->nseats; viewer++) {
            /* the whole message (the view and the legal list in it), its parts at random: a new connection
             * (every event) or one that saw some, an ack, the timer's
             * decision, a deadline ahead or past */
            for (int i = 0; i < cfg->nseats; i++) {
                g->seat[i].claimed = (int)kontor_rng_below(rng, 2);
                g->seat[i].connected = (int)kontor_rng_below(rng, 3);
            }
            g->timing_seat = kontor_rng_below(rng, 3) ? 0 : 1 + (int)kontor_rng_below(rng, (uint32_t)cfg->nseats);
            g->timing_move = (int)kontor_rng_below(rng, 4096);
            snprintf(g->timing_text, sizeof g->timing_text, "%s", kontor_rng_below(rng, 2) ? "pass" : "play \"15\"\\\t");
            double now = 1000.0 + kontor_rng_below(rng, 1000) / 7.0;
            g->deadline = kontor_rng_below(rng, 2) ? 0 : now + ((double)kontor_rng_below(rng, 600000) - 1000) / 1000;
            wsconn w1, w2;
            memset(&w1, 0, sizeof w1);
            w1.seat = viewer;
            w1.sent = kontor_rng_below(rng, 4) == 0 ? 0 : g->nev - (long)kontor_rng_below(rng, (uint32_t)(g->nev < 5 ? g->nev + 1 : 5));
            w1.has_ack = kontor_rng_below(rng, 2);
            static const json_int_t acks[] = {0, 1, -7, 123456789012LL, INT64_MAX, INT64_MIN};
            w1.ack = acks[kontor_rng_below(rng, sizeof acks / sizeof *acks)];
            w2 = w1;
            with[0] += w1.has_ack;
            with[1] += g->timing_seat > 0;
            with[2] += g->deadline > 0;
            with[3] += kontor_over(&g->s);
            with[4] += viewer >= 0 && cfg->nseats == 4;
            with[5] += w1.sent == 0 && g->nev > 0;
            char *want = tree_state_message(g, &w1, now);
            assert_non_null(want);
            assert_int_equal(state_text(g, &w2, &t, now), 0);
            if (t.len != strlen(want) || memcmp(t.buf, want, t.len) != 0)
                fail_msg("state message of seat %d, ply %d:\n direct '%s'\n tree   '%s'", viewer, ply, t.buf, want);
            assert_int_equal(w2.sent, w1.sent);
            assert_int_equal(w2.has_ack, 0);
            free(want);
            direct_compared++;
        }
        if (ply == 0)
            for (int seat = -1; seat < cfg->nseats; seat++)
                for (int tb = 0; tb < 2; tb++) { /* the welcome, as session.c packed it before */
                    g->timeout_s = tb ? 0 : 86400;
                    json_t *wel = json_pack("{s:s, s:s, s:o, s:s, s:o, s:i, s:b, s:i}", "type", "welcome", "game", g->id,
                                            "seat", seat >= 0 ? json_integer(seat) : json_null(), "variant",
                                            kontor_variant_name(g->s.cfg->variant), "cards", sj_cards(g->s.cfg->cards),
                                            "timeout", g->timeout_s, "takeback", tb, "nseats", g->s.cfg->nseats);
                    assert_int_equal(welcome_text(g, seat, tb, &t), 0);
                    same_as_tree(&t, wel, "welcome");
                }
        if (kontor_over(&g->s) || ply >= 400) break;
        unsigned act = kontor_actors(&g->s);
        int seat = 0;
        while (!(act & (1u << seat))) seat++;
        kontor_move mv[KONTOR_MAX_MOVES];
        int n = kontor_legal(&g->s, seat, mv);
        assert_true(n > 0);
        kontor_log log;
        log.n = 0;
        assert_int_equal(kontor_apply(&g->s, seat, mv[kontor_rng_below(rng, (uint32_t)n)], &log), KONTOR_OK);
        kontor_record_set_result(&g->rec, &g->s);
        for (int i = 0; i < log.n; i++) {
            for (int viewer = -2; viewer < cfg->nseats; viewer++) {
                jt_reset(&t);
                sjt_event(&t, &g->s, &log.ev[i], g->nev, viewer);
                same_as_tree(&t, sj_event(&g->s, &log.ev[i], g->nev, viewer), "event");
            }
            if (g->nev == evcap) {
                evcap *= 2;
                g->ev = realloc(g->ev, (size_t)evcap * sizeof *g->ev);
                assert_non_null(g->ev);
            }
            g->ev[g->nev++] = log.ev[i];
        }
    }
    jtext_release(&t);
    free(g->ev);
    free(g);
    return 0;
}

static void test_the_direct_state_message_is_the_trees_text(void **state) {
    (void)state;
    kontor_rng rng;
    kontor_rng_seed(&rng, 2026);
    static const char *const expansions[] = {"", "export=1", "events=1", "tiles=1", "export=1,events=1,tiles=1"};
    int played[5] = {0};
    for (int v = 0; kontor_variant_describe(v); v++)
        for (int x = 0; x < 5; x++) {
            kontor_config cfg;
            kontor_error err;
            if (kontor_config_init(&cfg, kontor_variant_name(v), &err) != KONTOR_OK) continue;
            if (*expansions[x] && kontor_config_options(&cfg, expansions[x], &err) != KONTOR_OK) continue;
            if (direct_game(&cfg, 700 + 10 * (uint64_t)v + (uint64_t)x, &rng) == 0) played[x]++;
            else if (x == 0) fail_msg("variant %s: no deal", kontor_variant_name(v));
        }
    for (int x = 0; x < 5; x++)
        if (!played[x]) fail_msg("no variant took '%s'", expansions[x]);
    /* every optional part of the message was there many times */
    for (int k = 0; k < 6; k++) assert_true(with[k] > 50);
    printf("    %ld texts written directly and compared (%d variants; %d, %d, %d with export, events, tiles, %d with all "
           "three)\n",
           direct_compared, played[0], played[1], played[2], played[3], played[4]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_awkward_cases_match_json_dumps),
        cmocka_unit_test(test_every_message_of_random_games_matches_json_dumps),
        cmocka_unit_test(test_the_writer_escapes_and_separates_as_json_dumps),
        cmocka_unit_test(test_the_direct_state_message_is_the_trees_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
