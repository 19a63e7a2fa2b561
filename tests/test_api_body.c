/* test_api_body.c: the API's handlers refuse a request body over --msg-max with 413 too_large themselves (api.c body_object), in process.
 *
 * Over the network the transport refuses such a body before any handler
 * runs (test_serve_limits.c); the handlers check it again for whoever calls
 * them directly (server_http: the fuzz target, a future transport). A body
 * of MSG_MAX + 1 bytes is handed to POST /api/games, to the rematch and to
 * the takeback of a game through server_http(), and each answer must be 413
 * with the code too_large (a 400 there went unnoticed before).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "server/server.h"
#include "testutil.h"

static char dir[64], db[128];

static int http(const char *method, const char *path, const char *body, size_t len, json_t **out) {
    server_http_req rq = {method, path, NULL, body, len, 0, NULL};
    server_http_resp rs;
    int st = server_http(&rq, &rs);
    *out = rs.body ? json_loadb(rs.body, rs.len, 0, NULL) : NULL;
    free(rs.body);
    return st;
}

static void test_bodies_over_msg_max_are_413_too_large_in_the_handlers(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/kontor-body-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(db, sizeof db, "%s/games.db", dir);
    kontor_error err;
    assert_int_equal(server_init(db, 1, &err), 0);
    json_t *g;
    const char *create = "{\"seats\":[\"human\",\"human\"]}";
    assert_int_equal(http("POST", "/api/games", create, strlen(create), &g), 201);
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
        assert_int_equal(http("POST", paths[i], body, n, &e), 413);
        assert_string_equal(json_string_value(json_object_get(e, "code")), "too_large");
        json_decref(e);
        /* one byte less is read (a body of spaces: 400 or 403/409, never 413) */
        assert_int_not_equal(http("POST", paths[i], body + 1, n - 1, &e), 413);
        json_decref(e);
    }
    free(body);
    server_shutdown();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bodies_over_msg_max_are_413_too_large_in_the_handlers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
