/* test_api_body.c: the API's handlers refuse a request body over --msg-max with 413 too_large themselves (api.c body_object), in process.
 *
 * Over the network the transport refuses such a body before any handler
 * runs (test_serve_limits.c); the handlers check it again for whoever calls
 * them directly (server_http: the fuzz target, a future transport). A body
 * of MSG_MAX + 1 bytes is handed to POST /api/games, to the rematch and to
 * the takeback of a game through server_http(), and each answer must be 413
 * with the code too_large (a 400 there went unnoticed before).
 *
 * And a body that is not JSON, with bytes that are not UTF-8 next to the
 * error, is answered 400 with the error in printable ASCII: jansson's error
 * text quotes the input, and the answer (a JSON string, which must be UTF-8)
 * came out as nothing (json_pack refused it) and the WebSocket path crashed
 * on it (found by fuzz_server; its input is in fuzz/corpus/server/).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "srvutil.h" /* each test: a server of its own, in process, on a database in a new directory */

static void test_bodies_over_msg_max_are_413_too_large_in_the_handlers(void **state) {
    (void)state;
    json_t *g;
    const char *create = "{\"seats\":[\"human\",\"human\"]}";
    assert_int_equal(http_in_process("POST", "/api/games", create, strlen(create), &g), 201);
    char rematch[64], takeback[64];
    snprintf(rematch, sizeof rematch, "/api/games/%s/rematch", json_string_value(json_object_get(g, "id")));
    snprintf(takeback, sizeof takeback, "/api/games/%s/takeback", json_string_value(json_object_get(g, "id")));
    json_decref(g);
    /* the default --msg-max (limits.c): 64 KiB */
    size_t n = 64 * 1024 + 1;
    char *body = malloc(n + 1);
    memset(body, ' ', n);
    body[0] = '{';
    body[n - 1] = '}';
    body[n] = 0;
    const char *paths[] = {"/api/games", rematch, takeback};
    for (int i = 0; i < 3; i++) {
        json_t *e;
        assert_int_equal(http_in_process("POST", paths[i], body, n, &e), 413);
        assert_string_equal(json_string_value(json_object_get(e, "code")), "too_large");
        json_decref(e);
        /* one byte less is read (a body of spaces: 400 or 403/409, never 413) */
        assert_int_not_equal(http_in_process("POST", paths[i], body + 1, n - 1, &e), 413);
        json_decref(e);
    }
    free(body);
}

static void test_a_body_not_json_with_bytes_not_utf8_is_answered_in_ascii(void **state) {
    (void)state;
    const char body[] = "{\"seats\":\"a\\u000\xc9\x9d\xdd\x8a\"}";
    json_t *e;
    assert_int_equal(http_in_process("POST", "/api/games", body, sizeof body - 1, &e), 400);
    assert_non_null(e);
    const char *msg = json_string_value(json_object_get(e, "error"));
    assert_non_null(msg);
    assert_non_null(strstr(msg, "not JSON"));
    for (const char *p = msg; *p; p++) assert_true(*p >= 0x20 && *p < 0x7f);
    json_decref(e);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_bodies_over_msg_max_are_413_too_large_in_the_handlers, setup_in_process,
                                        teardown_in_process),
        cmocka_unit_test_setup_teardown(test_a_body_not_json_with_bytes_not_utf8_is_answered_in_ascii, setup_in_process,
                                        teardown_in_process),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
