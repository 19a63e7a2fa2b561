/* test_chat.c: the chat of a game (src/server/chat.c): its text checks, rate limit, team window and history.
 *
 * The functions on their own first (each rule of chat.h one test), then over
 * a real `kontor serve` (tests/srvutil.h): who receives a table message, that
 * a reload shows the history, that each refusal has its code. That a team
 * message never reaches the other team or a spectator is the leak test in
 * tests/test_security.c.
 */
#include "server/chat.h"
#include "srvutil.h"

static int text_ok(const char *t, const char **code) {
    char why[160];
    *code = "";
    return chat_text_check(t, strlen(t), code, why, sizeof why);
}

static void test_chat_text_of_1_to_200_characters_is_sent(void **state) {
    (void)state;
    const char *code;
    assert_true(text_ok("a", &code));
    assert_true(text_ok("Wo legen wir die 17 hin? Tee über Gewürz!", &code));
    char buf[1024] = "";
    for (int i = 0; i < 200; i++) strcat(buf, "\xc3\xa4"); /* 200 characters, 400 bytes */
    assert_true(text_ok(buf, &code));
    strcat(buf, "a");
    assert_false(text_ok(buf, &code));
    assert_string_equal(code, "chat_too_long");
    assert_false(text_ok("", &code));
    assert_string_equal(code, "chat_empty");
    assert_false(text_ok("   ", &code));
    assert_string_equal(code, "chat_empty");
}

static void test_chat_control_characters_are_refused(void **state) {
    (void)state;
    const char *bad[] = {"a\nb", "a\tb", "\x1b[31mred", "del\x7f", "nel\xc2\x85", "\xe2\x80\xae" "drow", "\xe2\x81\xa6x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *code;
        assert_false(text_ok(bad[i], &code));
        assert_string_equal(code, "chat_control");
    }
}

static void test_chat_text_that_is_not_utf8_is_refused(void **state) {
    (void)state;
    const char *bad[] = {"\xff", "a\xc0\xaf", "\xed\xa0\x80", "\xe2\x82", "\xf4\x90\x80\x80"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *code;
        assert_false(text_ok(bad[i], &code));
        assert_string_equal(code, "chat_utf8");
    }
}

/* --chat-burst 5 in --chat-window 10 s: the sixth within the window waits
 * until the first leaves it, and is told how long. */
static void test_chat_rate_is_5_messages_in_10_seconds(void **state) {
    (void)state;
    chat_rate r;
    memset(&r, 0, sizeof r);
    int retry = 0;
    for (int i = 0; i < 5; i++) assert_true(chat_rate_take(&r, 100.0 + i, 5, 10, &retry));
    assert_false(chat_rate_take(&r, 104.5, 5, 10, &retry));
    assert_int_equal(retry, 6); /* the first (at 100) leaves at 110 */
    assert_false(chat_rate_take(&r, 109.9, 5, 10, &retry));
    assert_int_equal(retry, 1);
    assert_true(chat_rate_take(&r, 110.0, 5, 10, &retry));
    assert_false(chat_rate_take(&r, 110.5, 5, 10, &retry));
    /* a quiet connection has its whole burst again */
    for (int i = 0; i < 5; i++) assert_true(chat_rate_take(&r, 200.0, 5, 10, &retry));
}

/* The rulebook, Der Wettstreit zu viert, "Karten anlegen": partners may
 * confer once the played cards are revealed, about where to lay both cards,
 * and at no other time. An oracle from the events: a team's window opens at
 * the reveal of its cards and closes when each of its revealed cards is
 * placed (or went back to the hand); chat_team_open must agree at every
 * decision of 40 random games for four, and both states must occur. */
static void test_team_chat_open_exactly_from_the_reveal_until_the_teams_cards_are_placed(void **state) {
    (void)state;
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, "four", &err), KONTOR_OK);
    kontor_state *s = malloc(sizeof *s);
    int seen_open = 0, seen_closed_choosing = 0, seen_closed_placing = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        assert_int_equal(kontor_new(s, &cfg, seed, &err), KONTOR_OK);
        kontor_rng rng;
        kontor_rng_seed(&rng, seed);
        unsigned pending = 0; /* seats whose revealed card is not yet placed */
        for (int step = 0; step < 2000 && !kontor_over(s); step++) {
            for (int team = 0; team < 2; team++) {
                unsigned mine = team == 0 ? 0x3u : 0xCu;
                int want = (pending & mine) != 0;
                assert_int_equal(chat_team_open(s, team), want);
                seen_open += want;
                if (!want && s->phase == KONTOR_PHASE_CHOOSE) seen_closed_choosing++;
                if (!want && s->phase == KONTOR_PHASE_PLACE) seen_closed_placing++;
            }
            kontor_log log;
            kt_random_step(s, &rng, &log);
            for (int i = 0; i < log.n; i++) {
                const kontor_event *e = &log.ev[i];
                if (e->kind == KONTOR_EV_ROUND || e->kind == KONTOR_EV_END) pending = 0;
                if (e->kind == KONTOR_EV_REVEAL) pending |= 1u << e->seat;
                if (e->kind == KONTOR_EV_PLACE || e->kind == KONTOR_EV_OVERBUILD || e->kind == KONTOR_EV_TAKEBACK)
                    pending &= ~(1u << e->seat);
            }
        }
        assert_true(kontor_over(s));
        assert_false(chat_team_open(s, 0) || chat_team_open(s, 1));
    }
    free(s);
    assert_true(seen_open > 100);
    assert_true(seen_closed_choosing > 100);
    assert_true(seen_closed_placing > 10); /* the other team still placing, this one done */
}

static void test_team_chat_never_opens_in_a_game_for_two(void **state) {
    (void)state;
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, "advanced", &err), KONTOR_OK);
    kontor_state *s = malloc(sizeof *s);
    assert_int_equal(kontor_new(s, &cfg, 7, &err), KONTOR_OK);
    kontor_rng rng;
    kontor_rng_seed(&rng, 7);
    while (!kontor_over(s)) {
        assert_false(chat_team_open(s, 0) || chat_team_open(s, 1));
        unsigned act = kontor_actors(s);
        int seat = act & 1u ? 0 : 1;
        kontor_move mv[KONTOR_MAX_MOVES];
        int n = kontor_legal(s, seat, mv);
        assert_int_equal(kontor_apply(s, seat, mv[kontor_rng_below(&rng, (uint32_t)n)], NULL), KONTOR_OK);
    }
    free(s);
}

/* The history keeps the last N, oldest first; a team's messages only for it. */
static void test_chat_history_keeps_the_last_messages_and_each_team_its_own(void **state) {
    (void)state;
    chat_room *r = chat_room_new(3);
    json_decref(chat_room_add(r, CHAT_TABLE, 0, "red 1", "Ann", "one"));
    json_decref(chat_room_add(r, CHAT_TEAM_RED, 1, "red 2", "", "red secret"));
    json_decref(chat_room_add(r, CHAT_TABLE, 2, "black 1", "", "three"));
    json_decref(chat_room_add(r, CHAT_TEAM_BLACK, 3, "black 2", "", "black secret"));
    json_t *h = chat_room_history(r, -1); /* a spectator: the table only, "one" has left */
    char *t = json_dumps(h, JSON_COMPACT);
    assert_null(strstr(t, "one"));
    assert_non_null(strstr(t, "three"));
    assert_null(strstr(t, "secret"));
    free(t);
    json_decref(h);
    h = chat_room_history(r, 0);
    t = json_dumps(h, JSON_COMPACT);
    assert_non_null(strstr(t, "red secret"));
    assert_null(strstr(t, "black secret"));
    free(t);
    json_decref(h);
    chat_room_free(r);
}

/* ---- over a real server ---------------------------------------------------------- */

/* Read until a message of type arrives; returns it (a new reference) or NULL. */
static json_t *next_of(cl *c, const char *type, int ms) {
    for (;;) {
        int op;
        char *m;
        size_t len;
        if (wsc_recv(&c->w, ms, &op, &m, &len) <= 0) return NULL;
        json_t *o = json_loadb(m, len, 0, NULL);
        free(m);
        const char *t = json_string_value(json_object_get(o, "type"));
        if (t && strcmp(t, type) == 0) return o;
        if (t && strcmp(t, "state") == 0) {
            json_decref(c->state);
            c->state = o;
            continue;
        }
        json_decref(o);
    }
}

static void say(cl *c, const char *channel, const char *text) {
    json_t *o = json_pack("{s:s, s:s, s:s}", "type", "chat", "channel", channel, "text", text);
    char *t = json_dumps(o, JSON_COMPACT);
    send_str(c, t);
    free(t);
    json_decref(o);
}

static void expect_error(cl *c, const char *code) {
    json_t *e = next_of(c, "error", 2000);
    assert_non_null(e);
    assert_string_equal(json_string_value(json_object_get(e, "code")), code);
    json_decref(e);
}

/* A table message reaches both players and the spectator (as text, with
 * the sender's seat and name); a spectator may not write; a reload shows it. */
static void test_chat_reaches_the_players_and_spectators_and_a_reload_shows_it(void **state) {
    (void)state;
    srv s = start();
    cl a, b, w;
    json_t *g = create_two_joined(&s, "{\"variant\":\"basic\",\"seats\":[\"human\",\"human\"]}", &a, &b);
    const char *id = game_id(g);
    join(&w, &s, id, NULL);
    say(&a, "table", "<b>hallo</b> & tschüss");
    cl *all[3] = {&a, &b, &w};
    for (int i = 0; i < 3; i++) {
        json_t *m = next_of(all[i], "chat", 2000);
        assert_non_null(m);
        assert_string_equal(json_string_value(json_object_get(m, "text")), "<b>hallo</b> & tschüss");
        assert_string_equal(json_string_value(json_object_get(m, "channel")), "table");
        assert_int_equal(json_integer_value(json_object_get(m, "seat")), 0);
        json_decref(m);
    }
    say(&w, "table", "a stranger speaks");
    expect_error(&w, "spectator");
    assert_null(next_of(&a, "chat", 200));
    /* a reload: the history arrives with the welcome */
    close_cl(&b);
    open_cl(&b, &s);
    char msg[200];
    snprintf(msg, sizeof msg, "{\"type\":\"join\",\"game\":\"%s\",\"token\":\"%s\"}", id, token_of(g, 1));
    send_str(&b, msg);
    json_t *h = next_of(&b, "chat_history", 2000);
    assert_non_null(h);
    json_t *ms = json_object_get(h, "messages");
    assert_int_equal(json_array_size(ms), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(ms, 0), "text")), "<b>hallo</b> & tschüss");
    json_decref(h);
    close_cl(&w);
    finish_two(&s, &a, &b, g);
}

/* Each refusal has its code: too long, control characters, no team channel
 * in a game for two, a text that is no string, and the sixth message in
 * 10 s (with retry_after). */
static void test_chat_refusals_have_their_codes(void **state) {
    (void)state;
    srv s = start();
    cl a, b;
    json_t *g = create_two_joined(&s, "{\"variant\":\"basic\",\"seats\":[\"human\",\"human\"]}", &a, &b);
    char longtext[260];
    memset(longtext, 'x', 201);
    longtext[201] = 0;
    say(&a, "table", longtext);
    expect_error(&a, "chat_too_long");
    say(&a, "table", "two\nlines");
    expect_error(&a, "chat_control");
    say(&a, "team", "psst");
    expect_error(&a, "no_team");
    send_str(&a, "{\"type\":\"chat\",\"channel\":\"table\",\"text\":17}");
    expect_error(&a, "bad_request");
    send_str(&a, "{\"type\":\"chat\",\"channel\":\"lobby\",\"text\":\"hi\"}");
    expect_error(&a, "bad_request");
    for (int i = 0; i < 5; i++) {
        say(&a, "table", "hi");
        json_t *m = next_of(&b, "chat", 2000);
        assert_non_null(m);
        json_decref(m);
    }
    say(&a, "table", "one too many");
    json_t *e = next_of(&a, "error", 2000);
    assert_non_null(e);
    assert_string_equal(json_string_value(json_object_get(e, "code")), "chat_rate");
    json_int_t retry = json_integer_value(json_object_get(e, "retry_after"));
    assert_true(retry >= 1 && retry <= 10);
    json_decref(e);
    assert_null(next_of(&b, "chat", 300)); /* it was not sent */
    finish_two(&s, &a, &b, g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chat_text_of_1_to_200_characters_is_sent),
        cmocka_unit_test(test_chat_control_characters_are_refused),
        cmocka_unit_test(test_chat_text_that_is_not_utf8_is_refused),
        cmocka_unit_test(test_chat_rate_is_5_messages_in_10_seconds),
        cmocka_unit_test(test_team_chat_open_exactly_from_the_reveal_until_the_teams_cards_are_placed),
        cmocka_unit_test(test_team_chat_never_opens_in_a_game_for_two),
        cmocka_unit_test(test_chat_history_keeps_the_last_messages_and_each_team_its_own),
        cmocka_unit_test_setup_teardown(test_chat_reaches_the_players_and_spectators_and_a_reload_shows_it, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_chat_refusals_have_their_codes, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
