/* test_security.c: the attacks of issue 13 against a real `kontor serve`, each a test that failed before its fix.
 *
 * 1. the record of a running game (seed, deal, hidden choices) is not served;
 * 2. /view's "last" never names a hidden decision while the game runs;
 * 3. deeply nested JSON (WebSocket and HTTP) is refused before jansson's
 *    recursive parse, and the connection and the games go on;
 * 5. a finished game is found after a restart (summary, join);
 * 6. a field of the wrong type is a 400;
 * 7. `kontor selfplay --record a/b` makes the missing directories;
 * 8. (issue 16) a team's chat in the game for four reaches neither the other
 *    team nor a spectator, and is refused outside the rulebook's window;
 * 9. the analysis of a running game (issue 18) is not served, a finished
 *    game's is computed once and one address cannot start analyses without
 *    end (--analysis-per-min);
 * and the computer seats' randomness does not come from the published seed.
 * (4, the engine that ran a program named in the protocol, is in test_proto.c.)
 */
#include <time.h>

#include "kontor/agent.h"
#include "srvutil.h"

static void wait_for_choice_hidden(cl *c, int seat) {
    for (int i = 0; i < 100; i++) {
        json_t *ch = json_object_get(json_array_get(json_object_get(c->state, "seats"), (size_t)seat), "choice");
        if (json_is_string(ch) && strcmp(json_string_value(ch), "hidden") == 0) return;
        until(c, "state", 100);
    }
    fail_msg("seat %d never showed as having chosen", seat);
}

/* The record of a running game is refused (409, "running") — also in a game
 * against the computer after the computer has chosen — and served whole,
 * deal and seed included, once the game is over. */
static void test_the_record_of_a_running_game_is_not_served(void **state) {
    (void)state;
    srv s = start();
    cl a;
    json_t *g = create_joined(&s, BASIC_VS_COMPUTER, &a, 0);
    const char *id = game_id(g);
    wait_for_choice_hidden(&a, 1); /* the computer has chosen its card */
    char path[80], *resp = NULL;
    snprintf(path, sizeof path, "/api/games/%s/record", id);
    assert_int_equal(http_request("127.0.0.1", s.port, "GET", path, NULL, &resp), 409);
    assert_null(strstr(resp, "deal red"));
    assert_null(strstr(resp, "[Seed"));
    json_t *e = json_loads(resp, 0, NULL);
    assert_string_equal(json_string_value(json_object_get(e, "code")), "running");
    json_decref(e);
    free(resp);
    play_to_the_end(&a, 5, 200);
    resp = NULL;
    assert_int_equal(http_request("127.0.0.1", s.port, "GET", path, NULL, &resp), 200);
    assert_non_null(strstr(resp, "[Seed "));
    assert_non_null(strstr(resp, "deal red"));
    free(resp);
    finish(&s, &a, g);
}

typedef struct ai_ctx {
    kontor_agent *a;
    const kontor_record *r;
    int seat, decisions, same;
} ai_ctx;

/* Replaying a finished game against the computer: would an agent seeded from
 * the record's seed (as the server once seeded it) have played the same? */
static void ai_guess(void *ctx, const kontor_state *s, int ply, const kontor_log *log) {
    (void)log;
    ai_ctx *c = ctx;
    if (ply + 1 >= c->r->nply || c->r->ply[ply + 1].seat != c->seat) return;
    kontor_view v;
    kontor_view_of(s, c->seat, &v);
    c->decisions++;
    c->same += c->a->decide(c->a, &v) == c->r->ply[ply + 1].move;
}

/* The record of a finished game publishes its seed; the computer's seat was
 * seeded from it, so anyone could replay its choices (and, from the seed of a
 * running game, predict them). It is seeded from a server secret now. */
static void test_the_computer_is_not_seeded_from_the_published_seed(void **state) {
    (void)state;
    srv s = start();
    cl a;
    json_t *g = create_joined(&s, BASIC_VS_COMPUTER, &a, 0);
    const char *id = game_id(g);
    play_to_the_end(&a, 3, 200);
    kontor_record r;
    kontor_error err;
    get_record(&s, id, &r);
    assert_true(r.has_seed);
    ai_ctx c = {kontor_agent_new("random", r.seed ^ (0x5EA7ull << 1), &err), &r, 1, 0, 0};
    assert_non_null(c.a);
    kontor_state fin, first;
    /* the first decision (ply 0) too: replay 0 plies, then ask */
    assert_int_equal(kontor_record_replay(&r, 0, &first, NULL, NULL, &err), KONTOR_OK);
    if (r.ply[0].seat == 1) ai_guess(&c, &first, -1, NULL);
    assert_int_equal(kontor_record_replay(&r, -1, &fin, ai_guess, &c, &err), KONTOR_OK);
    assert_true(c.decisions >= 20);
    if (c.same == c.decisions) fail_msg("all %d decisions of the computer follow from the published seed", c.same);
    kontor_agent_free(c.a);
    kontor_record_release(&r);
    finish(&s, &a, g);
}

/* /view of a running game names who decided last, never a hidden choice. */
static void test_view_last_never_names_a_hidden_choice(void **state) {
    (void)state;
    srv s = start();
    cl a;
    json_t *g = create_joined(&s, "{\"variant\":\"basic\",\"seats\":[\"human\",\"human\"]}", &a, 0);
    const char *id = game_id(g);
    assert_int_equal(play_one(&a, NULL), 1); /* red chooses a card: hidden until black has chosen */
    json_t *v = get_view(&s, id, -1);
    json_t *last = json_object_get(v, "last");
    assert_non_null(last);
    assert_int_equal(json_integer_value(json_object_get(last, "seat")), 0);
    assert_null(json_object_get(last, "m"));
    json_decref(v);
    finish(&s, &a, g);
}

static char *nested(const char *open, int depth, const char *close) {
    size_t lo = strlen(open), lc = strlen(close);
    char *t = malloc((lo + lc) * (size_t)depth + 8);
    size_t n = 0;
    for (int i = 0; i < depth; i++, n += lo) memcpy(t + n, open, lo);
    t[n++] = '1';
    for (int i = 0; i < depth; i++, n += lc) memcpy(t + n, close, lc);
    t[n] = 0;
    return t;
}

/* Nesting that overflowed a connection thread's stack inside jansson is
 * refused with "too_deep"; the socket, the server and a running game go on. */
static void test_deep_json_is_refused_and_stops_nothing(void **state) {
    (void)state;
    srv s = start();
    cl a, b;
    json_t *g = create_two_joined(&s, TWO_PEOPLE, &a, &b);
    char *deep[3] = {nested("[", 900, "]"), nested("{\"a\":", 1000, "}"), nested("[", 100000, "]")};
    for (int k = 0; k < 3; k++) {
        send_str(&a, deep[k]);
        json_t *e = until(&a, "error", 3000);
        assert_non_null(e);
        assert_string_equal(json_string_value(json_object_get(e, "code")), k < 2 ? "too_deep" : "too_large");
        if (k == 2) break; /* too_large closes the socket, as documented */
        send_str(&a, "{\"type\":\"ping\"}");
        assert_non_null(until(&a, "pong", 2000));
    }
    int st;
    char *body = nested("[", 1000, "]");
    json_t *e = http_json(&s, "POST", "/api/games", body, &st);
    assert_int_equal(st, 400);
    assert_string_equal(json_string_value(json_object_get(e, "code")), "too_deep");
    json_decref(e);
    free(body);
    /* a bracket inside a string does not nest */
    body = malloc(2000);
    strcpy(body, "{\"variant\":\"");
    memset(body + 12, '[', 1000);
    strcpy(body + 1012, "\",\"seats\":[\"human\",\"human\"]}");
    e = http_json(&s, "POST", "/api/games", body, &st);
    assert_int_equal(st, 400); /* no such variant, but parsed */
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "variant"));
    json_decref(e);
    free(body);
    for (int k = 0; k < 3; k++) free(deep[k]);
    /* the game goes on for the other player */
    assert_int_equal(play_one(&b, NULL), 1);
    finish_two(&s, &a, &b, g);
}

/* A finished game after a restart: not loaded at start (only unfinished
 * games are), but found on demand, by its summary and by its players. */
static void test_a_finished_game_is_found_after_a_restart(void **state) {
    (void)state;
    srv s = start();
    cl a;
    json_t *g = create_joined(&s, BASIC_VS_COMPUTER, &a, 0);
    const char *id = game_id(g);
    play_to_the_end(&a, 9, 200);
    json_t *score = json_deep_copy(json_object_get(a.state, "score"));
    close_cl(&a);
    stop(&s, SIGKILL); /* the last decision is stored; nothing after it */
    s = start();
    char path[80];
    snprintf(path, sizeof path, "/api/games/%s", id);
    int st;
    json_t *sum = http_json(&s, "GET", path, NULL, &st);
    assert_int_equal(st, 200);
    assert_string_equal(json_string_value(json_object_get(sum, "status")), "over");
    json_decref(sum);
    join(&a, &s, id, token_of(g, 0));
    assert_true(is_over(&a));
    assert_true(json_equal(score, json_object_get(a.state, "score")));
    close_cl(&a);
    json_decref(score);
    json_decref(g);
    stop(&s, SIGTERM);
}

static void test_a_field_of_the_wrong_type_is_a_400(void **state) {
    (void)state;
    srv s = start();
    const char *bad[] = {"{\"variant\":5,\"seats\":[\"human\",\"human\"]}",
                         "{\"variant\":[\"basic\"],\"seats\":[\"human\",\"human\"]}",
                         "{\"variant\":\"basic\",\"options\":7,\"seats\":[\"human\",\"human\"]}",
                         "{\"variant\":\"basic\",\"seats\":\"human\"}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int st;
        json_t *e = http_json(&s, "POST", "/api/games", bad[i], &st);
        if (st != 400) fail_msg("'%s' answered %d, not 400", bad[i], st);
        json_decref(e);
    }
    stop(&s, SIGTERM);
}

static void test_selfplay_record_makes_the_missing_directories(void **state) {
    (void)state;
    const char *bin = getenv("KONTOR") ? getenv("KONTOR") : "build/kontor";
    char cmd[512], path[256];
    snprintf(cmd, sizeof cmd, "'%s' selfplay --games 1 --record '%s/a/b' >/dev/null 2>&1", bin, tmpdir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/a/b/game-000001.kgn", tmpdir);
    assert_int_equal(access(path, R_OK), 0);
}

/* ---- the team channel of the game for four (issue 16) ---------------------------------- */

typedef struct tclient {
    cl c;
    int team;           /* 0 red, 1 black, -1 spectator */
    int heard[2];       /* frames carrying a team's secret */
    int said_round;     /* the round it last spoke in */
    int refused_closed; /* team_chat_closed errors */
} tclient;

static int has(const char *m, size_t len, const char *needle) {
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= len; i++)
        if (memcmp(m + i, needle, k) == 0) return 1;
    return 0;
}

/* Read what is pending (up to ms for the first), noting the team secrets
 * each frame carries; returns 1 when a state acknowledging want arrived, -1
 * on an error naming want, else 0. */
static int tpump(tclient *t, int ms, int want) {
    int got = 0;
    for (;;) {
        int op;
        char *m;
        size_t len;
        if (wsc_recv(&t->c.w, ms, &op, &m, &len) <= 0) return got;
        ms = got ? 0 : ms;
        for (int team = 0; team < 2; team++)
            if (has(m, len, team == 0 ? "SECRET-red" : "SECRET-black")) t->heard[team]++;
        json_t *o = json_loadb(m, len, 0, NULL);
        free(m);
        const char *ty = json_string_value(json_object_get(o, "type"));
        if (ty && strcmp(ty, "state") == 0) {
            json_decref(t->c.state);
            t->c.state = o;
            if (want && json_integer_value(json_object_get(o, "ack")) == want) got = 1, ms = 0;
            continue;
        }
        if (ty && strcmp(ty, "error") == 0) {
            const char *code = json_string_value(json_object_get(o, "code"));
            if (code && strcmp(code, "team_chat_closed") == 0) t->refused_closed++;
            if (want && json_integer_value(json_object_get(o, "id")) == want) got = -1, ms = 0;
        }
        json_decref(o);
        if (got) ms = 0;
    }
}

static void team_say(tclient *t, int seat, int round) {
    char msg[160];
    snprintf(msg, sizeof msg, "{\"type\":\"chat\",\"channel\":\"team\",\"text\":\"SECRET-%s round %d from %d\"}",
             t->team == 0 ? "red" : "black", round, seat);
    send_str(&t->c, msg);
}

/* The rulebook lets the partners of the game for four confer from the reveal
 * until both their cards are placed, and at no other time; what they say is
 * theirs. Four people and a spectator play a whole game; every seat tries its
 * team channel at every decision of the first round's choice (refused,
 * team_chat_closed) and speaks whenever its state says the channel is open.
 * A frame with a team's words reaching the other team or the spectator, now
 * or in the history a reload gets, fails; the partner must have heard them. */
static void test_team_chat_never_reaches_the_other_team_or_a_spectator(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"variant\":\"four\",\"seats\":[\"human\",\"human\",\"human\",\"human\"]}");
    const char *id = json_string_value(json_object_get(g, "id"));
    tclient t[5];
    memset(t, 0, sizeof t);
    for (int i = 0; i < 4; i++) {
        join(&t[i].c, &s, id, token_of(g, i));
        t[i].team = i < 2 ? 0 : 1;
    }
    join(&t[4].c, &s, id, NULL);
    t[4].team = -1;
    /* before the reveal: every seat tries, every seat is refused */
    for (int i = 0; i < 4; i++) team_say(&t[i], i, 1);
    for (int i = 0; i < 5; i++) tpump(&t[i], 300, 0);
    for (int i = 0; i < 4; i++) assert_int_equal(t[i].refused_closed, 1);
    kontor_rng rng;
    kontor_rng_seed(&rng, 16);
    int spoke = 0, id_n = 100;
    for (int step = 0; step < 3000 && !is_over(&t[0].c); step++) {
        int moved = 0;
        for (int i = 0; i < 4; i++) {
            tpump(&t[i], 0, 0);
            json_t *st = t[i].c.state;
            int round = (int)json_integer_value(json_object_get(st, "round"));
            if (json_is_true(json_object_get(st, "team_chat")) && t[i].said_round != round) {
                team_say(&t[i], i, round);
                t[i].said_round = round;
                spoke++;
            }
            json_t *legal = json_object_get(st, "legal");
            size_t n = json_array_size(legal);
            if (!n) continue;
            json_int_t m = json_integer_value(json_object_get(json_array_get(legal, kontor_rng_below(&rng, (uint32_t)n)), "m"));
            char msg[96];
            int want = ++id_n;
            snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":%lld,\"id\":%d}", (long long)m, want);
            send_str(&t[i].c, msg);
            for (int k = 0; k < 50 && !tpump(&t[i], 100, want); k++) {
            }
            moved = 1;
        }
        for (int i = 0; i < 5; i++) tpump(&t[i], moved ? 0 : 20, 0);
    }
    assert_true(is_over(&t[0].c));
    for (int i = 0; i < 5; i++) tpump(&t[i], 200, 0);
    assert_true(spoke >= 4);
    /* each team heard itself; nobody else heard it */
    assert_true(t[0].heard[0] + t[1].heard[0] >= 2);
    assert_true(t[2].heard[1] + t[3].heard[1] >= 2);
    for (int i = 0; i < 5; i++)
        for (int team = 0; team < 2; team++)
            if (t[i].team != team) assert_int_equal(t[i].heard[team], 0);
    /* the history a reload gets: the same */
    for (int i = 2; i < 5; i++) {
        tclient r;
        memset(&r, 0, sizeof r);
        r.team = i == 4 ? -1 : 1;
        open_cl(&r.c, &s);
        char msg[200];
        if (i == 4) snprintf(msg, sizeof msg, "{\"type\":\"watch\",\"game\":\"%s\"}", id);
        else snprintf(msg, sizeof msg, "{\"type\":\"join\",\"game\":\"%s\",\"token\":\"%s\"}", id, token_of(g, i));
        send_str(&r.c, msg);
        tpump(&r, 500, 0);
        assert_int_equal(r.heard[0], 0);
        if (i < 4) assert_true(r.heard[1] > 0);
        close_cl(&r.c);
    }
    for (int i = 0; i < 5; i++) close_cl(&t[i].c);
    json_decref(g);
    stop(&s, SIGTERM);
}

/* Play a game of a person (random decisions) against the computer to its
 * end; returns its id (static storage). */
static const char *finished_game(const srv *s, uint64_t seed, cl *a, json_t **g) {
    *g = create_joined(s, BASIC_VS_COMPUTER, a, 0);
    play_to_the_end(a, seed, 200);
    return game_id(*g);
}

static void test_the_analysis_is_for_finished_games_once_and_rationed(void **state) {
    (void)state;
    srv s = start();
    cl a;
    json_t *g = create_joined(&s, BASIC_VS_COMPUTER, &a, 0);
    const char *id = game_id(g);
    wait_for_choice_hidden(&a, 1);
    char path[80], *resp = NULL;
    snprintf(path, sizeof path, "/api/games/%s/analysis", id);
    assert_int_equal(http_request("127.0.0.1", s.port, "GET", path, NULL, &resp), 409);
    json_t *e = json_loads(resp, 0, NULL);
    assert_string_equal(json_string_value(json_object_get(e, "code")), "running");
    assert_null(json_object_get(e, "decisions"));
    json_decref(e);
    free(resp);
    close_cl(&a);
    json_decref(g);

    /* a finished game: pending (202, retry_after) until the workers are done, then ready */
    cl b;
    json_t *g1;
    id = finished_game(&s, 3, &b, &g1);
    snprintf(path, sizeof path, "/api/games/%s/analysis", id);
    int st = 0, pending = 0;
    char *first = NULL;
    for (int i = 0; i < 600; i++) {
        resp = NULL;
        st = http_request("127.0.0.1", s.port, "GET", path, NULL, &resp);
        if (st != 202) {
            first = resp;
            break;
        }
        e = json_loads(resp, 0, NULL);
        assert_string_equal(json_string_value(json_object_get(e, "status")), "pending");
        assert_true(json_integer_value(json_object_get(e, "retry_after")) > 0);
        json_decref(e);
        free(resp);
        pending++;
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    assert_int_equal(st, 200);
    assert_true(pending >= 1);
    e = json_loads(first, 0, NULL);
    assert_non_null(e);
    json_t *ds = json_object_get(e, "decisions");
    assert_true(json_array_size(ds) > 10);
    for (size_t i = 0; i < json_array_size(ds); i++) {
        json_t *d = json_array_get(ds, i);
        double loss = json_number_value(json_object_get(d, "loss"));
        assert_true(loss >= 0 && loss <= 1);
        assert_true(json_is_integer(json_object_get(json_object_get(d, "played"), "m")));
        assert_true(json_array_size(json_object_get(d, "choices")) >= 1);
    }
    assert_int_equal(json_array_size(json_object_get(e, "players")), 2);
    json_decref(e);
    /* computed once: the same bytes again, at once */
    resp = NULL;
    assert_int_equal(http_request("127.0.0.1", s.port, "GET", path, NULL, &resp), 200);
    assert_string_equal(resp, first);
    free(resp);
    free(first);
    close_cl(&b);
    json_decref(g1);

    /* --analysis-per-min (2): the second analysis from this address starts,
     * the third is refused with the time to wait */
    cl c2, c3;
    json_t *g2, *g3;
    const char *id2 = finished_game(&s, 4, &c2, &g2);
    const char *id3 = finished_game(&s, 5, &c3, &g3);
    snprintf(path, sizeof path, "/api/games/%s/analysis", id2);
    resp = NULL;
    assert_int_equal(http_request("127.0.0.1", s.port, "GET", path, NULL, &resp), 202);
    free(resp);
    snprintf(path, sizeof path, "/api/games/%s/analysis", id3);
    resp = NULL;
    assert_int_equal(http_request("127.0.0.1", s.port, "GET", path, NULL, &resp), 429);
    e = json_loads(resp, 0, NULL);
    assert_string_equal(json_string_value(json_object_get(e, "code")), "rate");
    assert_true(json_integer_value(json_object_get(e, "retry_after")) > 0);
    json_decref(e);
    free(resp);
    close_cl(&c2);
    close_cl(&c3);
    json_decref(g2);
    json_decref(g3);
    stop(&s, SIGTERM);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_the_record_of_a_running_game_is_not_served, setup, teardown),
        cmocka_unit_test_setup_teardown(test_view_last_never_names_a_hidden_choice, setup, teardown),
        cmocka_unit_test_setup_teardown(test_the_computer_is_not_seeded_from_the_published_seed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deep_json_is_refused_and_stops_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_finished_game_is_found_after_a_restart, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_field_of_the_wrong_type_is_a_400, setup, teardown),
        cmocka_unit_test_setup_teardown(test_selfplay_record_makes_the_missing_directories, setup, teardown),
        cmocka_unit_test_setup_teardown(test_team_chat_never_reaches_the_other_team_or_a_spectator, setup, teardown),
        cmocka_unit_test_setup_teardown(test_the_analysis_is_for_finished_games_once_and_rationed, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
