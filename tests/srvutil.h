/* srvutil.h: a real `kontor serve` for the server tests (test_server*.c, test_security.c, test_leak.c, test_serve_limits.c).
 *
 * Each test starts the binary ($KONTOR, set by `make test`; build/kontor
 * otherwise) with `serve --port 0` on 127.0.0.1 and a fresh database in a
 * temporary directory (setup/teardown), and talks to it with the client of
 * src/server/wsclient.c, as a browser would: HTTP requests, WebSocket
 * clients that keep their newest state, error and welcome, and players that take
 * decisions. start_env() can set one environment variable for the server,
 * start_bin() start another build of it (the leak oracle's test build),
 * start_opts() give it more options (test_serve_limits.c: the limits);
 * get_record() and replay_ends_with_score() read a finished game's record
 * back and check it against what the players saw.
 *
 * The tests that call the API's handlers directly instead (test_api_body.c,
 * test_server_configs.c: server_http, as the fuzz target does, no socket
 * and no second process) take the same temporary directory and database
 * from setup_in_process()/teardown_in_process() and ask with
 * http_in_process(), at the end of this file: one place creates and
 * removes a test server's files, whichever way it runs.
 */
#ifndef KONTOR_TESTS_SRVUTIL_H
#define KONTOR_TESTS_SRVUTIL_H
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "kontor/record.h"
#include "server/server.h"
#include "server/wsclient.h"
#include "testutil.h"

static char tmpdir[64];
static char dbpath[128];
static pid_t running = -1; /* the server of the current test, killed in teardown if a test failed */

typedef struct srv {
    pid_t pid;
    int port;
} srv;

/* The kontor binary under test: $KONTOR, else build/kontor. */
static inline const char *kontor_bin(void) { return getenv("KONTOR") ? getenv("KONTOR") : "build/kontor"; }

/* The test build whose server leaks what issue 13 closed (Makefile,
 * -DKONTOR_TEST_LEAKY): $KONTOR_LEAKY, else tests/kontor-leaky in the
 * directory of kontor_bin(). */
static inline const char *leaky_bin(void) {
    static char path[512];
    if (getenv("KONTOR_LEAKY")) return getenv("KONTOR_LEAKY");
    const char *k = kontor_bin(), *slash = strrchr(k, '/');
    snprintf(path, sizeof path, "%.*s/tests/kontor-leaky", slash ? (int)(slash - k) : 1, slash ? k : ".");
    return path;
}

/* Start bin's server (with the environment variable name=value if name),
 * with the options extra (NULL-terminated; NULL: none) after the usual ones. */
static inline srv start_opts(const char *bin, const char *name, const char *value, const char *const *extra) {
    srv s = {-1, 0};
    int pfd[2];
    assert_int_equal(pipe(pfd), 0);
    s.pid = fork();
    assert_true(s.pid >= 0);
    if (s.pid == 0) {
        dup2(pfd[1], 1);
        if (name) setenv(name, value, 1);
        close(pfd[0]);
        close(pfd[1]);
        const char *argv[48] = {"kontor", "serve", "--port", "0",  "--db", dbpath, "--web",
                                "web",    "--quiet", "--threads", "64"};
        int n = 11;
        for (int i = 0; extra && extra[i] && n < 46; i++) argv[n++] = extra[i];
        argv[n] = NULL;
        execv(bin, (char **)argv);
        _exit(127);
    }
    close(pfd[1]);
    running = s.pid;
    char line[256];
    size_t n = 0;
    while (n < sizeof line - 1 && read(pfd[0], line + n, 1) == 1 && line[n] != '\n') n++;
    line[n] = 0;
    close(pfd[0]);
    char *colon = strrchr(line, ':');
    s.port = colon ? atoi(colon + 1) : 0;
    if (s.port <= 0) fail_msg("'%s serve' did not start: '%s'", bin, line);
    return s;
}

static inline srv start_bin(const char *bin, const char *name, const char *value) { return start_opts(bin, name, value, NULL); }
static inline srv start_env(const char *name, const char *value) { return start_bin(kontor_bin(), name, value); }
static inline srv start(void) { return start_env(NULL, NULL); }

static inline void stop(srv *s, int sig) {
    kill(s->pid, sig);
    int status;
    waitpid(s->pid, &status, 0);
    running = -1;
    if (sig == SIGTERM) assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static inline int setup(void **state) {
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/kontor-test-XXXXXX");
    assert_non_null(mkdtemp(tmpdir));
    snprintf(dbpath, sizeof dbpath, "%s/games.db", tmpdir);
    return 0;
}

static inline int teardown(void **state) {
    (void)state;
    if (running > 0) {
        kill(running, SIGKILL);
        waitpid(running, NULL, 0);
        running = -1;
    }
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static inline json_t *http_json(const srv *s, const char *method, const char *path, const char *body, int *status) {
    char *resp = NULL;
    *status = http_request("127.0.0.1", s->port, method, path, body, &resp);
    json_t *o = resp ? json_loads(resp, 0, NULL) : NULL;
    free(resp);
    return o;
}

/* Create a game; returns its JSON (id, seats with tokens). */
static inline json_t *create(const srv *s, const char *body) {
    int st;
    json_t *g = http_json(s, "POST", "/api/games", body, &st);
    assert_int_equal(st, 201);
    assert_non_null(json_string_value(json_object_get(g, "id")));
    return g;
}

/* The stored record of game id (GET /api/games/ID/record: asserted 200,
 * and asserted to parse) in *r; the caller releases it. */
static inline void get_record(const srv *s, const char *id, kontor_record *r) {
    char path[128], *resp = NULL;
    kontor_error err;
    snprintf(path, sizeof path, "/api/games/%s/record", id);
    assert_int_equal(http_request("127.0.0.1", s->port, "GET", path, NULL, &resp), 200);
    if (kontor_record_parse(r, resp, strlen(resp), &err) != KONTOR_OK) fail_msg("record of '%s': %s", id, err.msg);
    free(resp);
}

/* The replay view of game id (GET /api/games/ID/view, of ply if ply >= 0,
 * else of now: asserted 200); the caller frees it. */
static inline json_t *get_view(const srv *s, const char *id, int ply) {
    char path[128];
    int st;
    if (ply >= 0) snprintf(path, sizeof path, "/api/games/%s/view?ply=%d", id, ply);
    else snprintf(path, sizeof path, "/api/games/%s/view", id);
    json_t *v = http_json(s, "GET", path, NULL, &st);
    assert_int_equal(st, 200);
    return v;
}

/* Record r replayed to its end into *fin (each called after every decision
 * if not NULL, as kontor_record_replay does): the game is over with score
 * (a JSON array of the two seats' scores, from the players' last state). */
static inline void replay_ends_with_score(const kontor_record *r, json_t *score, kontor_state *fin,
                                          kontor_replay_cb each, void *ctx) {
    kontor_error err;
    assert_int_equal(kontor_record_replay(r, -1, fin, each, ctx, &err), KONTOR_OK);
    assert_true(kontor_over(fin));
    assert_int_equal(fin->score[0], json_integer_value(json_array_get(score, 0)));
    assert_int_equal(fin->score[1], json_integer_value(json_array_get(score, 1)));
}

typedef struct cl {
    wsc w;
    json_t *state;   /* the newest state */
    json_t *error;   /* the newest error */
    json_t *welcome; /* the newest welcome (what the seat may do: takeback, ...) */
    int closed;
} cl;

/* Read messages until one of type ("*": any) arrives (or timeout); keeps the
 * newest state, error and welcome. Returns that message (borrowed) or NULL. */
static inline json_t *until(cl *c, const char *type, int timeout_ms) {
    for (;;) {
        int op;
        char *m;
        size_t len;
        int r = wsc_recv(&c->w, timeout_ms, &op, &m, &len);
        if (r <= 0) {
            if (r < 0) c->closed = 1;
            return NULL;
        }
        if (op == 8) {
            free(m);
            c->closed = 1;
            return NULL;
        }
        json_t *o = json_loadb(m, len, 0, NULL);
        free(m);
        const char *t = json_string_value(json_object_get(o, "type"));
        if (!t) {
            json_decref(o);
            continue;
        }
        int match = strcmp(t, type) == 0 || strcmp(type, "*") == 0;
        if (strcmp(t, "state") == 0) {
            json_decref(c->state);
            c->state = o;
        } else if (strcmp(t, "error") == 0) {
            json_decref(c->error);
            c->error = o;
        } else if (strcmp(t, "welcome") == 0) {
            json_decref(c->welcome);
            c->welcome = o;
        } else {
            json_decref(o);
            o = NULL;
        }
        if (match) return o ? o : json_null();
    }
}

/* Drain whatever is pending (waits up to ms). */
static inline void drain(cl *c, int ms) {
    while (until(c, "-", ms)) {
    }
}

static inline void open_cl(cl *c, const srv *s) {
    char err[128];
    memset(c, 0, sizeof *c);
    assert_int_equal(wsc_connect(&c->w, "127.0.0.1", s->port, "/ws", err, sizeof err), 0);
    until(c, "hello", 2000);
}

static inline void send_str(cl *c, const char *text) { assert_int_equal(wsc_send(&c->w, 1, text, strlen(text)), 0); }

static inline void join(cl *c, const srv *s, const char *id, const char *token) {
    char msg[256];
    open_cl(c, s);
    if (token) snprintf(msg, sizeof msg, "{\"type\":\"join\",\"game\":\"%s\",\"token\":\"%s\"}", id, token);
    else snprintf(msg, sizeof msg, "{\"type\":\"watch\",\"game\":\"%s\"}", id);
    send_str(c, msg);
    assert_non_null(until(c, "welcome", 2000));
    assert_non_null(until(c, "state", 2000));
}

static inline void close_cl(cl *c) {
    wsc_close(&c->w);
    json_decref(c->state);
    json_decref(c->error);
    json_decref(c->welcome);
    memset(c, 0, sizeof *c);
}

static inline const char *token_of(json_t *g, int seat) {
    json_t *seats = json_object_get(g, "seats");
    for (size_t i = 0; i < json_array_size(seats); i++) {
        json_t *s = json_array_get(seats, i);
        if (json_integer_value(json_object_get(s, "seat")) == seat) return json_string_value(json_object_get(s, "token"));
    }
    return NULL;
}

/* The body of the most common game: basic, a person (seat 0) against the computer. */
#define BASIC_VS_COMPUTER "{\"variant\":\"basic\",\"seats\":[\"human\",\"random\"]}"

static inline const char *game_id(json_t *g) { return json_string_value(json_object_get(g, "id")); }

/* Create a game from body and join c to it with seat's token (welcome and
 * first state read); returns the game's JSON (the caller frees it). */
static inline json_t *create_joined(const srv *s, const char *body, cl *c, int seat) {
    json_t *g = create(s, body);
    join(c, s, game_id(g), token_of(g, seat));
    return g;
}

/* The end of a test's game: c closed, g freed, the server stopped (and
 * asserted to exit cleanly on SIGTERM). */
static inline void finish(srv *s, cl *c, json_t *g) {
    close_cl(c);
    json_decref(g);
    stop(s, SIGTERM);
}

/* The body of a game of two people (basic). */
#define TWO_PEOPLE "{\"seats\":[\"human\",\"human\"]}"

/* a and b join game g as its seats 0 and 1, in that order (each welcome and
 * first state read). */
static inline void join_two(cl *a, cl *b, const srv *s, json_t *g) {
    join(a, s, game_id(g), token_of(g, 0));
    join(b, s, game_id(g), token_of(g, 1));
}

/* The opener of a game of two people: a game created from body, a and b
 * joined as seats 0 and 1; returns the game's JSON (the caller frees it). */
static inline json_t *create_two_joined(const srv *s, const char *body, cl *a, cl *b) {
    json_t *g = create(s, body);
    join_two(a, b, s, g);
    return g;
}

/* The end of a test's game with two clients (two players, or a player and
 * a spectator): a and b closed, g freed, the server stopped (and asserted
 * to exit cleanly on SIGTERM). */
static inline void finish_two(srv *s, cl *a, cl *b, json_t *g) {
    close_cl(a);
    close_cl(b);
    json_decref(g);
    stop(s, SIGTERM);
}

static inline int ply_of(cl *c) { return (int)json_integer_value(json_object_get(c->state, "ply")); }
static inline int is_over(cl *c) { return json_is_true(json_object_get(c->state, "over")); }

/* Send decision m as a move with a fresh "id"; returns the id. */
static inline int send_move(cl *c, json_int_t m) {
    static int id = 1;
    char msg[96];
    int want = ++id;
    snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":%lld,\"id\":%d}", (long long)m, want);
    send_str(c, msg);
    return want;
}

/* If c's newest state offers decisions, play the first (or a random one) and
 * wait for its acknowledgement. Returns 1 if it moved. */
static inline int play_one(cl *c, kontor_rng *rng) {
    json_t *legal = json_object_get(c->state, "legal");
    size_t n = json_array_size(legal);
    if (!n) return 0;
    json_int_t m = json_integer_value(json_object_get(json_array_get(legal, rng ? kontor_rng_below(rng, (uint32_t)n) : 0), "m"));
    int want = send_move(c, m);
    for (;;) {
        json_t *st = until(c, "state", 3000);
        assert_non_null(st);
        if (json_integer_value(json_object_get(st, "ack")) == want) return 1;
    }
}

/* c, the one person of a game against the computer, plays random decisions
 * (seeded with seed) until the game is over, waiting up to wait_ms for the
 * computer's answer each time it has nothing to decide. */
static inline void play_to_the_end(cl *c, uint64_t seed, int wait_ms) {
    kontor_rng rng;
    kontor_rng_seed(&rng, seed);
    for (int i = 0; i < 5000 && !is_over(c); i++)
        if (!play_one(c, &rng)) until(c, "state", wait_ms);
    assert_true(is_over(c));
}

/* Both players of a game take turns until it is over (or limit moves). */
static inline int play_both(cl *a, cl *b, kontor_rng *rng, int limit) {
    int moves = 0;
    while (!is_over(a) && moves < limit) {
        int moved = play_one(a, rng);
        drain(b, moved ? 5 : 0);
        moved += play_one(b, rng);
        drain(a, moved ? 5 : 50);
        moves += moved;
    }
    return moves;
}

/* ---- a server in process (link $(SERVER_OBJ), server.o included) ------------ */

/* setup(), then a server in this process on its database (one thread). */
static inline int setup_in_process(void **state) {
    if (setup(state) != 0) return -1;
    kontor_error err;
    return server_init(dbpath, 1, &err) == 0 ? 0 : -1;
}

/* The server in process shut down, then teardown(). */
static inline int teardown_in_process(void **state) {
    server_shutdown();
    return teardown(state);
}

/* Ask the server in process (server_http) method path with the len bytes of
 * body; returns the status, and in *out (if out) the answer's JSON (NULL if
 * it has none; the caller frees it). */
static inline int http_in_process(const char *method, const char *path, const char *body, size_t len, json_t **out) {
    server_http_req rq = {method, path, NULL, body, len, 0, NULL};
    server_http_resp rs;
    int st = server_http(&rq, &rs);
    if (out) *out = rs.body ? json_loadb(rs.body, rs.len, 0, NULL) : NULL;
    free(rs.body);
    return st;
}
#endif
