/* fuzz_server.c: libFuzzer target for the game server's handlers, in process.
 *
 * Everything a browser (or an attacker) sends the server reaches it through
 * two functions: server_http (every HTTP request to /api/) and
 * server_conn_message (every WebSocket message), both without sockets
 * (server.h). jansson parses inside them, so its recursion is fuzzed too.
 * Each input gets a fresh server (an in-memory SQLite store) with two games
 * already made, and is cut into lines, each one request or message:
 *
 *   P<body>         POST /api/games with that body
 *   G<path>         GET <path> (a '?' starts the query)
 *   C<n>            POST /api/games/@G/seats/<n>
 *   T<body>         POST /api/games/@H/takeback with that body (a takeback)
 *   W<d><text>      a text message on WebSocket d (0-3; opened on first use)
 *   B<d><bytes>     a binary message on WebSocket d
 *   X<d>            WebSocket d closes
 *
 * In any line "@G" becomes the first game's id, "@H" the second's (a human
 * against the computer), "@0" and "@1" the first game's seat tokens, "@2" the
 * second's human seat's, so that the fuzzer reaches joins, moves, chats and
 * takebacks. Every answer must be well formed: an
 * HTTP status the API documents and, for JSON, a JSON object; every WebSocket
 * message a JSON object with a "type". */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "server/server.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(x) do { if (!(x)) abort(); } while (0)

static char gid[2][40], tok[2][40], tokh[1][40];

static void check_json_object(const char *t, size_t n) {
    json_t *o = json_loadb(t, n, 0, NULL);
    CHECK(json_is_object(o));
    json_decref(o);
}

static void on_send(void *tx, const char *text, size_t len) {
    (void)tx;
    json_t *o = json_loadb(text, len, 0, NULL);
    CHECK(json_is_object(o) && json_is_string(json_object_get(o, "type")));
    json_decref(o);
}

static void on_close(void *tx, int code) {
    int *closed = tx;
    CHECK(code >= 1000 && code < 5000);
    *closed = 1;
}

static int http(const char *method, const char *uri, const char *body, size_t blen, server_http_resp *rs) {
    char path[4200];
    snprintf(path, sizeof path, "%s", uri);
    char *q = strchr(path, '?');
    if (q) *q++ = 0;
    server_http_req rq = {method, path, q, body, blen, 0};
    int st = server_http(&rq, rs);
    /* the documented statuses (docs/server.md): 403 a private game's seat or a computer-only game
     * refused, 429 too many games of computer seats only at once (or analyses from one address),
     * 202 an analysis under way, 503 too many analyses under way */
    CHECK(st == 200 || st == 201 || st == 202 || st == 400 || st == 403 || st == 404 || st == 405 || st == 409 ||
          st == 413 || st == 429 || st == 500 || st == 503);
    CHECK(st == rs->status && rs->body);
    if (strcmp(rs->ctype, "application/json") == 0) check_json_object(rs->body, rs->len);
    return st;
}

/* Make a game; its id and the first two seat tokens. */
static void make_game(const char *body, char *id, char (*tokens)[40]) {
    server_http_resp rs;
    CHECK(http("POST", "/api/games", body, strlen(body), &rs) == 201);
    json_t *o = json_loads(rs.body, 0, NULL);
    snprintf(id, 40, "%s", json_string_value(json_object_get(o, "id")));
    json_t *seats = json_object_get(o, "seats");
    for (size_t i = 0; tokens && i < 2 && i < json_array_size(seats); i++)
        snprintf(tokens[i], 40, "%s", json_string_value(json_object_get(json_array_get(seats, i), "token")));
    json_decref(o);
    free(rs.body);
}

/* The line with the placeholders put in (malloc'd; *n its length). */
static char *expand(const uint8_t *p, size_t len, size_t *n) {
    char *out = malloc(len * 20 + 1);
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        const char *sub = NULL;
        if (p[i] == '@' && i + 1 < len) {
            char c = (char)p[i + 1];
            sub = c == 'G' ? gid[0] : c == 'H' ? gid[1] : c == '0' ? tok[0] : c == '1' ? tok[1] : c == '2' ? tokh[0] : NULL;
        }
        if (sub) {
            size_t sl = strlen(sub);
            memcpy(out + k, sub, sl);
            k += sl;
            i++;
        } else {
            out[k++] = (char)p[i];
        }
    }
    out[k] = 0;
    *n = k;
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    kontor_error err;
    if (server_init(":memory:", 1, &err) != 0) abort();
    make_game("{\"variant\":\"basic\",\"seats\":[\"human\",\"human\"]}", gid[0], tok);
    char tmp2[2][40];
    make_game("{\"variant\":\"basic\",\"seats\":[\"human\",\"random\"]}", gid[1], tmp2);
    snprintf(tokh[0], sizeof tokh[0], "%s", tmp2[0]);
    server_conn *ws[4] = {NULL, NULL, NULL, NULL};
    int closed[4] = {0, 0, 0, 0};
    size_t at = 0;
    while (at < size) {
        const uint8_t *nl = memchr(data + at, '\n', size - at);
        size_t len = nl ? (size_t)(nl - (data + at)) : size - at;
        size_t n;
        char *line = expand(data + at, len, &n);
        at += len + 1;
        if (n == 0) {
            free(line);
            continue;
        }
        server_http_resp rs = {0};
        char op = line[0];
        int d = n > 1 ? (line[1] - '0') & 3 : 0;
        if (op == 'P') {
            http("POST", "/api/games", line + 1, n - 1, &rs);
        } else if (op == 'G') {
            http("GET", line + 1, NULL, 0, &rs);
        } else if (op == 'C') {
            char uri[4200];
            snprintf(uri, sizeof uri, "/api/games/%s/seats/%s", gid[0], line + 1);
            http("POST", uri, NULL, 0, &rs);
        } else if (op == 'T') {
            char uri[200];
            snprintf(uri, sizeof uri, "/api/games/%s/takeback", gid[1]);
            http("POST", uri, line + 1, n - 1, &rs);
        } else if (op == 'W' || op == 'B') {
            if (!ws[d] && !closed[d]) ws[d] = server_conn_open(on_send, on_close, &closed[d]);
            if (ws[d] && !closed[d] && !server_conn_message(ws[d], op == 'W', line + 2, n > 2 ? n - 2 : 0)) closed[d] = 1;
        } else if (op == 'X') {
            server_conn_closed(ws[d]);
            ws[d] = NULL;
            closed[d] = 1;
        }
        free(rs.body);
        free(line);
    }
    for (int i = 0; i < 4; i++) server_conn_closed(ws[i]);
    server_shutdown();
    return 0;
}
