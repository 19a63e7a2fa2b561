/* test_takeback.c: taking back a decision against the computer (src/server/takeback.c), over a real server.
 *
 * A person playing the computer takes back their last decision: the view
 * after it is the view before it (hand, board, coins, the decisions
 * offered); the store keeps the game without the decisions taken back, also
 * across a kill -9 right after the answer; the record says that takebacks
 * happened. Refused with 409 and its code with two people, in a game created
 * without takebacks, when nothing was decided yet, and once the game is
 * over; 403 without the player's token.
 */
#include "server/store.h"
#include "srvutil.h"

static json_t *takeback(const srv *s, const char *id, const char *token, int *status) {
    char path[96], body[96];
    snprintf(path, sizeof path, "/api/games/%s/takeback", id);
    snprintf(body, sizeof body, "{\"token\":\"%s\"}", token);
    return http_json(s, "POST", path, body, status);
}

static const char *code_of(json_t *o) { return json_string_value(json_object_get(o, "code")); }

/* A takeback that must be refused with status and, if code, that code. */
static void expect_refused(const srv *s, const char *id, const char *token, int status, const char *code) {
    int st;
    json_t *r = takeback(s, id, token, &st);
    assert_int_equal(st, status);
    if (code) assert_string_equal(code_of(r), code);
    json_decref(r);
}

/* Wait until c's state offers c decisions (the computer has answered). */
static void wait_my_turn(cl *c) {
    for (int i = 0; i < 100 && !json_array_size(json_object_get(c->state, "legal")) && !is_over(c); i++)
        until(c, "state", 100);
    assert_true(json_array_size(json_object_get(c->state, "legal")) > 0 || is_over(c));
}

/* What a takeback must restore, of a seat's view. */
static void assert_same_position(json_t *a, json_t *b) {
    const char *keys[] = {"round", "phase", "board", "legal", "treasury", "water_pile"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (!json_equal(json_object_get(a, keys[i]), json_object_get(b, keys[i])))
            fail_msg("'%s' differs after the takeback", keys[i]);
    json_t *sa = json_array_get(json_object_get(a, "seats"), 0), *sb = json_array_get(json_object_get(b, "seats"), 0);
    assert_true(json_equal(json_object_get(sa, "hand"), json_object_get(sb, "hand")));
    assert_true(json_equal(json_object_get(sa, "coins"), json_object_get(sb, "coins")));
    assert_true(json_array_size(json_object_get(sa, "hand")) > 0);
}

static void test_a_takeback_restores_the_hand_and_the_board_and_the_store_forgets_the_moves(void **state) {
    (void)state;
    srv s = start();
    cl a;
    json_t *g = create_joined(&s, BASIC_VS_COMPUTER, &a, 0);
    const char *id = game_id(g), *tok = token_of(g, 0);
    /* several decisions; the position before the last one is kept */
    json_t *before = NULL;
    int placed = 0;
    for (int i = 0; i < 40 && placed < 3; i++) {
        wait_my_turn(&a);
        json_decref(before);
        before = json_deep_copy(a.state);
        const char *phase = json_string_value(json_object_get(a.state, "phase"));
        placed += phase && strcmp(phase, "place") == 0;
        assert_true(play_one(&a, NULL));
    }
    assert_int_equal(placed, 3); /* the last decision taken back is a card laid on the board */
    drain(&a, 300);
    int ply_before = (int)json_integer_value(json_object_get(before, "ply"));
    int st;
    json_t *r = takeback(&s, id, tok, &st);
    assert_int_equal(st, 200);
    assert_int_equal(json_integer_value(json_object_get(r, "ply")), ply_before);
    json_decref(r);
    /* the takeback message, then the rebuilt view */
    assert_non_null(until(&a, "takeback", 2000));
    assert_non_null(until(&a, "state", 2000));
    assert_int_equal(ply_of(&a), ply_before);
    assert_same_position(before, a.state);
    /* a crash right after the answer: the game comes back without the moves */
    stop(&s, SIGKILL);
    close_cl(&a);
    s = start();
    join(&a, &s, id, tok);
    assert_true(ply_of(&a) >= ply_before); /* (the computer may have answered again since) */
    if (ply_of(&a) == ply_before) assert_same_position(before, a.state);
    close_cl(&a);
    stop(&s, SIGTERM);
    /* the stored record: no decision past the takeback point but the
     * computer's answers to it, and the Event tag tells the takeback */
    kontor_error err;
    store *db = store_open(dbpath, &err);
    assert_non_null(db);
    int over;
    char *meta = NULL, *text = NULL;
    assert_int_equal(store_get(db, id, &over, &meta, &text, &err), KONTOR_OK);
    kontor_record rec;
    assert_int_equal(kontor_record_parse(&rec, text, strlen(text), &err), KONTOR_OK);
    for (int i = ply_before; i < rec.nply; i++) assert_int_equal(rec.ply[i].seat, 1);
    assert_true(rec.nply <= ply_before + 1);
    assert_non_null(strstr(rec.event, "1 takeback"));
    kontor_record_release(&rec);
    free(meta);
    free(text);
    store_close(db);
    json_decref(before);
    json_decref(g);
}

/* Takebacks one after the other go further back, to the start. */
static void test_takebacks_go_back_decision_by_decision_to_the_first(void **state) {
    (void)state;
    srv s = start();
    cl a;
    json_t *g = create_joined(&s, BASIC_VS_COMPUTER, &a, 0);
    const char *id = game_id(g), *tok = token_of(g, 0);
    for (int i = 0; i < 3; i++) {
        wait_my_turn(&a);
        assert_true(play_one(&a, NULL));
    }
    drain(&a, 200);
    int st, last = 1 << 30;
    for (int i = 0; i < 3; i++) {
        json_t *r = takeback(&s, id, tok, &st);
        assert_int_equal(st, 200);
        int ply = (int)json_integer_value(json_object_get(r, "ply"));
        assert_true(ply < last);
        last = ply;
        json_decref(r);
        drain(&a, 200); /* the computer may decide again before the next */
    }
    expect_refused(&s, id, tok, 409, "takeback_none");
    finish(&s, &a, g);
}

static void test_a_takeback_is_refused_with_two_people_without_a_token_or_before_any_decision(void **state) {
    (void)state;
    srv s = start();
    /* two people */
    cl a, b;
    json_t *g = create_joined(&s, "{\"variant\":\"basic\",\"seats\":[\"human\",\"human\"]}", &a, 0);
    join(&b, &s, game_id(g), token_of(g, 1));
    assert_true(play_one(&a, NULL));
    expect_refused(&s, game_id(g), token_of(g, 0), 409, "takeback_people");
    close_cl(&a);
    close_cl(&b);
    json_decref(g);
    /* against the computer: not before a decision, not without the token */
    g = create_joined(&s, BASIC_VS_COMPUTER, &a, 0);
    expect_refused(&s, game_id(g), token_of(g, 0), 409, "takeback_none");
    expect_refused(&s, game_id(g), "0123456789abcdef0123456789abcdef", 403, NULL);
    close_cl(&a);
    json_decref(g);
    /* "takeback" is true or false */
    int st;
    json_t *r = http_json(&s, "POST", "/api/games", "{\"variant\":\"basic\",\"seats\":[\"human\",\"random\"],\"takeback\":\"yes\"}", &st);
    assert_int_equal(st, 400);
    assert_non_null(strstr(json_string_value(json_object_get(r, "error")), "'takeback'"));
    json_decref(r);
    /* a game created without takebacks */
    g = create_joined(&s, "{\"variant\":\"basic\",\"seats\":[\"human\",\"random\"],\"takeback\":false}", &a, 0);
    assert_true(play_one(&a, NULL));
    expect_refused(&s, game_id(g), token_of(g, 0), 409, "takeback_off");
    finish(&s, &a, g);
}

/* The welcome says whether the seat may take back (the client's Undo). */
static void test_the_welcome_says_whether_a_takeback_is_offered(void **state) {
    (void)state;
    srv s = start();
    const char *bodies[] = {BASIC_VS_COMPUTER,
                            "{\"variant\":\"basic\",\"seats\":[\"human\",\"human\"]}",
                            "{\"variant\":\"basic\",\"seats\":[\"random\",\"human\"],\"takeback\":false}"};
    int want[] = {1, 0, 0};
    for (int k = 0; k < 3; k++) {
        cl a;
        json_t *g = create_joined(&s, bodies[k], &a, k == 2 ? 1 : 0);
        assert_non_null(a.welcome);
        assert_int_equal(json_is_true(json_object_get(a.welcome, "takeback")), want[k]);
        close_cl(&a);
        json_decref(g);
    }
    stop(&s, SIGTERM);
}

/* A finished game takes nothing back. */
static void test_a_takeback_is_refused_once_the_game_is_over(void **state) {
    (void)state;
    srv s = start();
    cl a;
    json_t *g = create_joined(&s, BASIC_VS_COMPUTER, &a, 0);
    kontor_rng rng;
    kontor_rng_seed(&rng, 3);
    for (int i = 0; i < 400 && !is_over(&a); i++) {
        wait_my_turn(&a);
        if (!is_over(&a)) play_one(&a, &rng);
    }
    for (int i = 0; i < 50 && !is_over(&a); i++) until(&a, "state", 100);
    assert_true(is_over(&a));
    expect_refused(&s, game_id(g), token_of(g, 0), 409, "takeback_over");
    finish(&s, &a, g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(
            test_a_takeback_restores_the_hand_and_the_board_and_the_store_forgets_the_moves, setup, teardown),
        cmocka_unit_test_setup_teardown(test_takebacks_go_back_decision_by_decision_to_the_first, setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_a_takeback_is_refused_with_two_people_without_a_token_or_before_any_decision, setup, teardown),
        cmocka_unit_test_setup_teardown(test_the_welcome_says_whether_a_takeback_is_offered, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_takeback_is_refused_once_the_game_is_over, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
