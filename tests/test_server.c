/* test_server.c: kontor serve tested over real sockets on loopback: API, fairness, refusals, crash and resume.
 *
 * Each test starts the real binary ($KONTOR, set by `make test`; build/kontor
 * otherwise) with `serve --port 0` on 127.0.0.1 and a fresh database in a
 * temporary directory, and talks to it with the client of
 * src/server/wsclient.c, exactly as a browser would. The crash test kills the
 * server with SIGKILL mid-game and starts it again on the same database.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "kontor/record.h"
#include "server/sha1.h"
#include "server/wsclient.h"
#include "testutil.h"

static char tmpdir[64];
static char dbpath[128];
static pid_t running = -1; /* the server of the current test, killed in teardown if a test failed */

typedef struct srv {
    pid_t pid;
    int port;
} srv;

static srv start(void) {
    srv s = {-1, 0};
    int pfd[2];
    assert_int_equal(pipe(pfd), 0);
    const char *bin = getenv("KONTOR") ? getenv("KONTOR") : "build/kontor";
    s.pid = fork();
    assert_true(s.pid >= 0);
    if (s.pid == 0) {
        dup2(pfd[1], 1);
        close(pfd[0]);
        close(pfd[1]);
        execl(bin, "kontor", "serve", "--port", "0", "--db", dbpath, "--web", "web", "--quiet", "--threads", "64",
              (char *)NULL);
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
    assert_true(s.port > 0);
    return s;
}

static void stop(srv *s, int sig) {
    kill(s->pid, sig);
    int status;
    waitpid(s->pid, &status, 0);
    running = -1;
    if (sig == SIGTERM) assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static int setup(void **state) {
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/kontor-test-XXXXXX");
    assert_non_null(mkdtemp(tmpdir));
    snprintf(dbpath, sizeof dbpath, "%s/games.db", tmpdir);
    return 0;
}

static int teardown(void **state) {
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

static json_t *http_json(const srv *s, const char *method, const char *path, const char *body, int *status) {
    char *resp = NULL;
    *status = http_request("127.0.0.1", s->port, method, path, body, &resp);
    json_t *o = resp ? json_loads(resp, 0, NULL) : NULL;
    free(resp);
    return o;
}

/* Create a game; returns its JSON (id, seats with tokens). */
static json_t *create(const srv *s, const char *body) {
    int st;
    json_t *g = http_json(s, "POST", "/api/games", body, &st);
    assert_int_equal(st, 201);
    assert_non_null(json_string_value(json_object_get(g, "id")));
    return g;
}

typedef struct cl {
    wsc w;
    json_t *state; /* the newest state */
    json_t *error; /* the newest error */
    int closed;
} cl;

/* Read messages until one of type ("*": any) arrives (or timeout); keeps the
 * newest state and error. Returns that message (borrowed) or NULL. */
static json_t *until(cl *c, const char *type, int timeout_ms) {
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
        } else {
            json_decref(o);
            o = NULL;
        }
        if (match) return o ? o : json_null();
    }
}

/* Drain whatever is pending (waits up to ms). */
static void drain(cl *c, int ms) {
    while (until(c, "-", ms)) {
    }
}

static void open_cl(cl *c, const srv *s) {
    char err[128];
    memset(c, 0, sizeof *c);
    assert_int_equal(wsc_connect(&c->w, "127.0.0.1", s->port, "/ws", err, sizeof err), 0);
    until(c, "hello", 2000);
}

static void send_str(cl *c, const char *text) { assert_int_equal(wsc_send(&c->w, 1, text, strlen(text)), 0); }

static void join(cl *c, const srv *s, const char *id, const char *token) {
    char msg[256];
    open_cl(c, s);
    if (token) snprintf(msg, sizeof msg, "{\"type\":\"join\",\"game\":\"%s\",\"token\":\"%s\"}", id, token);
    else snprintf(msg, sizeof msg, "{\"type\":\"watch\",\"game\":\"%s\"}", id);
    send_str(c, msg);
    assert_non_null(until(c, "welcome", 2000));
    assert_non_null(until(c, "state", 2000));
}

static void close_cl(cl *c) {
    wsc_close(&c->w);
    json_decref(c->state);
    json_decref(c->error);
    memset(c, 0, sizeof *c);
}

static const char *token_of(json_t *g, int seat) {
    json_t *seats = json_object_get(g, "seats");
    for (size_t i = 0; i < json_array_size(seats); i++) {
        json_t *s = json_array_get(seats, i);
        if (json_integer_value(json_object_get(s, "seat")) == seat) return json_string_value(json_object_get(s, "token"));
    }
    return NULL;
}

static int ply_of(cl *c) { return (int)json_integer_value(json_object_get(c->state, "ply")); }
static int is_over(cl *c) { return json_is_true(json_object_get(c->state, "over")); }

/* If c's newest state offers decisions, play the first (or a random one) and
 * wait for its acknowledgement. Returns 1 if it moved. */
static int play_one(cl *c, kontor_rng *rng) {
    json_t *legal = json_object_get(c->state, "legal");
    size_t n = json_array_size(legal);
    if (!n) return 0;
    json_int_t m = json_integer_value(json_object_get(json_array_get(legal, rng ? kontor_rng_below(rng, (uint32_t)n) : 0), "m"));
    static int id = 1;
    char msg[96];
    int want = ++id;
    snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":%lld,\"id\":%d}", (long long)m, want);
    send_str(c, msg);
    for (;;) {
        json_t *st = until(c, "state", 3000);
        assert_non_null(st);
        if (json_integer_value(json_object_get(st, "ack")) == want) return 1;
    }
}

/* Both players of a game take turns until it is over (or limit moves). */
static int play_both(cl *a, cl *b, kontor_rng *rng, int limit) {
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

/* ---- tests ------------------------------------------------------------------- */

static void test_lobby_creates_lists_and_refuses_bad_games(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"variant\":\"basic\",\"seats\":[\"human\",\"easy\"]}");
    const char *id = json_string_value(json_object_get(g, "id"));
    assert_int_equal(json_array_size(json_object_get(g, "seats")), 1); /* only the human seat has a link */
    int st;
    json_t *list = http_json(&s, "GET", "/api/games", NULL, &st);
    assert_int_equal(st, 200);
    json_t *open = json_object_get(list, "open");
    assert_int_equal(json_array_size(open), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(open, 0), "id")), id);
    json_decref(list);

    json_t *e = http_json(&s, "POST", "/api/games", "{\"seats\":[\"human\",\"grandmaster\"]}", &st);
    assert_int_equal(st, 400);
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "'grandmaster'"));
    json_decref(e);
    e = http_json(&s, "POST", "/api/games", "{\"seats\":", &st);
    assert_int_equal(st, 400);
    json_decref(e);
    e = http_json(&s, "POST", "/api/games", "{\"variant\":\"chess\",\"seats\":[\"human\",\"human\"]}", &st);
    assert_int_equal(st, 400);
    json_decref(e);
    e = http_json(&s, "GET", "/api/games/zzzz9999", NULL, &st);
    assert_int_equal(st, 404);
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "'zzzz9999' does not exist"));
    json_decref(e);
    e = http_json(&s, "GET", "/api/games/zzzz9999/record", NULL, &st);
    assert_int_equal(st, 404);
    json_decref(e);

    /* the record of a new game is published when it ends (tests/test_security.c) */
    char path[64];
    snprintf(path, sizeof path, "/api/games/%s/record", id);
    e = http_json(&s, "GET", path, NULL, &st);
    assert_int_equal(st, 409);
    json_decref(e);
    json_decref(g);
    stop(&s, SIGTERM);
}

static void test_each_seat_sees_only_its_own_hand(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"seats\":[\"human\",\"human\"]}");
    const char *id = json_string_value(json_object_get(g, "id"));
    cl a, b, w;
    join(&a, &s, id, token_of(g, 0));
    join(&b, &s, id, token_of(g, 1));
    join(&w, &s, id, NULL);
    drain(&a, 50);
    json_t *seats = json_object_get(a.state, "seats");
    assert_non_null(json_object_get(json_array_get(seats, 0), "hand"));
    assert_null(json_object_get(json_array_get(seats, 1), "hand"));
    assert_true(json_array_size(json_object_get(a.state, "legal")) > 0);
    seats = json_object_get(w.state, "seats");
    assert_null(json_object_get(json_array_get(seats, 0), "hand"));
    assert_null(json_object_get(json_array_get(seats, 1), "hand"));
    assert_int_equal(json_array_size(json_object_get(w.state, "legal")), 0);

    /* red chooses: black and the spectator learn that red chose, not what */
    assert_true(play_one(&a, NULL));
    while (ply_of(&b) < ply_of(&a)) assert_non_null(until(&b, "state", 2000));
    json_t *ch = json_object_get(json_array_get(json_object_get(b.state, "seats"), 0), "choice");
    assert_true(json_is_string(ch));
    /* a card or a pass alike: the choice is hidden until the reveal */
    assert_string_equal(json_string_value(ch), "hidden");
    close_cl(&a);
    close_cl(&b);
    close_cl(&w);
    json_decref(g);
    stop(&s, SIGTERM);
}

static void test_refused_messages_change_nothing(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"seats\":[\"human\",\"human\"]}");
    const char *id = json_string_value(json_object_get(g, "id"));
    cl a, w, x;
    join(&a, &s, id, token_of(g, 0));
    join(&w, &s, id, NULL);
    int ply = ply_of(&a);

    /* a spectator cannot move */
    send_str(&w, "{\"type\":\"move\",\"move\":256}");
    assert_non_null(until(&w, "error", 2000));
    assert_string_equal(json_string_value(json_object_get(w.error, "code")), "spectator");
    /* an illegal decision: place before choosing */
    send_str(&a, "{\"type\":\"move\",\"move\":1143}");
    assert_non_null(until(&a, "error", 2000));
    assert_string_equal(json_string_value(json_object_get(a.error, "code")), "illegal");
    /* choosing a card that is not in red's hand */
    char msg[128];
    json_t *hand = json_object_get(json_array_get(json_object_get(a.state, "seats"), 0), "hand");
    int notmine = 0;
    for (int c = 0; c < 90; c++) {
        int in = 0;
        for (size_t k = 0; k < json_array_size(hand); k++) in |= json_integer_value(json_array_get(hand, k)) == c;
        if (!in) {
            notmine = c;
            break;
        }
    }
    snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":%d}", (KONTOR_MOVE_CHOOSE << 8) | notmine);
    send_str(&a, msg);
    assert_non_null(until(&a, "error", 2000));
    assert_string_equal(json_string_value(json_object_get(a.error, "code")), "illegal");
    /* malformed JSON, a non-object, an unknown type, a bad field */
    send_str(&a, "{\"type\": \"move\", ");
    assert_non_null(until(&a, "error", 2000));
    assert_string_equal(json_string_value(json_object_get(a.error, "code")), "bad_json");
    send_str(&a, "[1,2]");
    assert_non_null(until(&a, "error", 2000));
    send_str(&a, "{\"type\":\"teleport\"}");
    assert_non_null(until(&a, "error", 2000));
    assert_non_null(strstr(json_string_value(json_object_get(a.error, "error")), "'teleport'"));
    send_str(&a, "{\"type\":\"move\",\"move\":\"north\"}");
    assert_non_null(until(&a, "error", 2000));
    /* unknown game, wrong token */
    open_cl(&x, &s);
    send_str(&x, "{\"type\":\"watch\",\"game\":\"nosuchgame\"}");
    assert_non_null(until(&x, "error", 2000));
    assert_string_equal(json_string_value(json_object_get(x.error, "code")), "no_game");
    send_str(&x, "{\"type\":\"join\",\"game\":\"x/../y\",\"token\":\"t\"}");
    assert_non_null(until(&x, "error", 2000));
    snprintf(msg, sizeof msg, "{\"type\":\"join\",\"game\":\"%s\",\"token\":\"0123\"}", id);
    send_str(&x, msg);
    assert_non_null(until(&x, "error", 2000));
    assert_string_equal(json_string_value(json_object_get(x.error, "code")), "bad_token");
    close_cl(&x);
    /* nothing changed */
    int st;
    char path[64];
    snprintf(path, sizeof path, "/api/games/%s", id);
    json_t *sum = http_json(&s, "GET", path, NULL, &st);
    assert_int_equal(json_integer_value(json_object_get(sum, "ply")), ply);
    json_decref(sum);

    /* an oversized message closes that socket only */
    open_cl(&x, &s);
    size_t big = 70 * 1024;
    char *huge = malloc(big + 1);
    memset(huge, ' ', big);
    huge[0] = '{';
    huge[big - 1] = '}';
    huge[big] = 0;
    assert_int_equal(wsc_send(&x.w, 1, huge, big), 0);
    free(huge);
    json_t *e = until(&x, "error", 3000);
    assert_non_null(e);
    assert_string_equal(json_string_value(json_object_get(x.error, "code")), "too_large");
    until(&x, "-", 2000);
    assert_true(x.closed);
    close_cl(&x);
    /* a flood: errors, then the socket is closed; the game goes on */
    open_cl(&x, &s);
    for (int i = 0; i < 1600 && !x.closed; i++) {
        if (wsc_send(&x.w, 1, "{\"type\":\"ping\"}", 15) != 0) break;
        /* civetweb drops a socket whose unread frames pass its 16 KiB buffer:
         * pace the flood so that it reaches the rate limiter */
        if (i % 8 == 0) nanosleep(&(struct timespec){0, 300000}, NULL);
    }
    int rate = 0;
    while (until(&x, "error", 2000)) rate += strcmp(json_string_value(json_object_get(x.error, "code")), "rate") == 0;
    assert_true(rate > 0);
    assert_true(x.closed);
    close_cl(&x);
    /* the players are still served */
    assert_true(play_one(&a, NULL));
    assert_int_equal(ply_of(&a), ply + 1);
    close_cl(&a);
    close_cl(&w);
    json_decref(g);
    stop(&s, SIGTERM);
}

static void test_two_humans_play_to_the_end_and_the_record_replays(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"seats\":[\"human\",\"human\"]}");
    const char *id = json_string_value(json_object_get(g, "id"));
    cl a, b;
    join(&a, &s, id, token_of(g, 0));
    join(&b, &s, id, token_of(g, 1));
    kontor_rng rng;
    kontor_rng_seed(&rng, 7);
    int moves = play_both(&a, &b, &rng, 5000);
    assert_true(is_over(&a));
    drain(&b, 100);
    assert_true(is_over(&b));
    json_t *score = json_object_get(a.state, "score");
    assert_true(json_is_array(score));

    char path[64], *resp = NULL;
    snprintf(path, sizeof path, "/api/games/%s/record", id);
    assert_int_equal(http_request("127.0.0.1", s.port, "GET", path, NULL, &resp), 200);
    kontor_record r;
    kontor_error err;
    kontor_state fin;
    assert_int_equal(kontor_record_parse(&r, resp, strlen(resp), &err), KONTOR_OK);
    assert_int_equal(r.nply, ply_of(&a));
    assert_true(r.nply >= moves);
    assert_int_equal(kontor_record_replay(&r, -1, &fin, NULL, NULL, &err), KONTOR_OK);
    assert_true(kontor_over(&fin));
    assert_int_equal(fin.score[0], json_integer_value(json_array_get(score, 0)));
    assert_int_equal(fin.score[1], json_integer_value(json_array_get(score, 1)));
    kontor_record_release(&r);
    free(resp);
    /* the replay view of the end shows every hand */
    int st;
    snprintf(path, sizeof path, "/api/games/%s/view?ply=3", id);
    json_t *v = http_json(&s, "GET", path, NULL, &st);
    assert_int_equal(st, 200);
    assert_int_equal(json_integer_value(json_object_get(v, "ply")), 3);
    assert_non_null(json_object_get(json_array_get(json_object_get(v, "seats"), 1), "hand"));
    json_decref(v);
    /* a finished game refuses moves */
    send_str(&a, "{\"type\":\"move\",\"move\":256}");
    assert_non_null(until(&a, "error", 2000));
    close_cl(&a);
    close_cl(&b);
    json_decref(g);
    stop(&s, SIGTERM);
}

static void test_computer_seat_plays_its_turns(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"seats\":[\"human\",\"random\"]}");
    cl a;
    join(&a, &s, json_string_value(json_object_get(g, "id")), token_of(g, 0));
    int moves = 0;
    while (!is_over(&a) && moves < 3000) {
        if (!play_one(&a, NULL)) assert_non_null(until(&a, "state", 3000));
        else moves++;
    }
    assert_true(is_over(&a));
    /* the computer moved too: more plies than ours */
    assert_true(ply_of(&a) > moves);
    close_cl(&a);
    json_decref(g);
    stop(&s, SIGTERM);
}

static void test_timeout_plays_for_a_silent_seat(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"seats\":[\"human\",\"human\"],\"timeout\":1}");
    cl a;
    join(&a, &s, json_string_value(json_object_get(g, "id")), token_of(g, 0));
    int ply = ply_of(&a);
    assert_true(json_integer_value(json_object_get(a.state, "deadline_ms")) > 0);
    /* nobody moves: after a second both choices are made for them */
    time_t t0 = time(NULL);
    while (ply_of(&a) < ply + 2 && time(NULL) - t0 < 6) until(&a, "state", 1000);
    assert_true(ply_of(&a) >= ply + 2);
    close_cl(&a);
    json_decref(g);
    stop(&s, SIGTERM);
}

static void test_sigkill_mid_game_loses_nothing(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"seats\":[\"human\",\"human\"]}");
    const char *id = json_string_value(json_object_get(g, "id"));
    cl a, b;
    join(&a, &s, id, token_of(g, 0));
    join(&b, &s, id, token_of(g, 1));
    kontor_rng rng;
    kontor_rng_seed(&rng, 3);
    play_both(&a, &b, &rng, 40);
    drain(&a, 50);
    int ply = ply_of(&a);
    assert_true(ply >= 40);
    json_t *before = json_deep_copy(json_object_get(a.state, "board"));
    json_t *hand = json_deep_copy(json_object_get(json_array_get(json_object_get(a.state, "seats"), 0), "hand"));
    close_cl(&a);
    close_cl(&b);
    stop(&s, SIGKILL);

    s = start();
    join(&a, &s, id, token_of(g, 0));
    join(&b, &s, id, token_of(g, 1));
    drain(&a, 50);
    assert_int_equal(ply_of(&a), ply);
    assert_true(json_equal(before, json_object_get(a.state, "board")));
    assert_true(json_equal(hand, json_object_get(json_array_get(json_object_get(a.state, "seats"), 0), "hand")));
    /* the whole history came back: the newcomer's log starts at the deal */
    json_decref(before);
    json_decref(hand);
    play_both(&a, &b, &rng, 5000);
    assert_true(is_over(&a));
    int last = ply_of(&a);
    json_t *score = json_deep_copy(json_object_get(a.state, "score"));
    close_cl(&a);
    close_cl(&b);
    /* killed again after the end: the finished game is read back from the
     * store (not resumed), its record holding every decision (the running
     * game stored one row per decision; the end folds them into the record) */
    stop(&s, SIGKILL);
    s = start();
    char path[64], *resp = NULL;
    snprintf(path, sizeof path, "/api/games/%s/record", id);
    assert_int_equal(http_request("127.0.0.1", s.port, "GET", path, NULL, &resp), 200);
    kontor_record r;
    kontor_error err;
    kontor_state fin;
    assert_int_equal(kontor_record_parse(&r, resp, strlen(resp), &err), KONTOR_OK);
    assert_int_equal(r.nply, last);
    assert_int_equal(kontor_record_replay(&r, -1, &fin, NULL, NULL, &err), KONTOR_OK);
    assert_true(kontor_over(&fin));
    assert_int_equal(fin.score[0], json_integer_value(json_array_get(score, 0)));
    assert_int_equal(fin.score[1], json_integer_value(json_array_get(score, 1)));
    kontor_record_release(&r);
    free(resp);
    json_decref(score);
    json_decref(g);
    stop(&s, SIGTERM);
}

/* A game killed mid-way: its stored record (the row plus one row per
 * decision since) comes back whole after the restart: every decision is in
 * its replay view (the record itself is published only at the end). */
static void test_sigkill_keeps_each_decision_in_the_record(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"seats\":[\"human\",\"human\"]}");
    const char *id = json_string_value(json_object_get(g, "id"));
    cl a, b;
    join(&a, &s, id, token_of(g, 0));
    join(&b, &s, id, token_of(g, 1));
    kontor_rng rng;
    kontor_rng_seed(&rng, 11);
    play_both(&a, &b, &rng, 17);
    drain(&a, 50);
    int ply = ply_of(&a);
    assert_true(ply >= 17);
    close_cl(&a);
    close_cl(&b);
    stop(&s, SIGKILL);
    s = start();
    /* the record of a running game is not served; its replay view counts
     * the stored decisions, and the game replays on to the end */
    char path[64];
    int st;
    snprintf(path, sizeof path, "/api/games/%s/view", id);
    json_t *v = http_json(&s, "GET", path, NULL, &st);
    assert_int_equal(st, 200);
    assert_int_equal(json_integer_value(json_object_get(v, "plies")), ply);
    assert_false(json_is_true(json_object_get(v, "over")));
    json_decref(v);
    json_decref(g);
    stop(&s, SIGTERM);
}

static void test_other_games_go_on_when_a_socket_dies(void **state) {
    (void)state;
    srv s = start();
    json_t *g1 = create(&s, "{\"seats\":[\"human\",\"human\"]}");
    json_t *g2 = create(&s, "{\"seats\":[\"human\",\"human\"]}");
    cl a, b, c, d;
    join(&a, &s, json_string_value(json_object_get(g1, "id")), token_of(g1, 0));
    join(&b, &s, json_string_value(json_object_get(g1, "id")), token_of(g1, 1));
    join(&c, &s, json_string_value(json_object_get(g2, "id")), token_of(g2, 0));
    join(&d, &s, json_string_value(json_object_get(g2, "id")), token_of(g2, 1));
    /* red of game 1 sends half a frame and vanishes */
    wsc_send_raw(&a.w, "\x81\xfe\x10", 3);
    close_cl(&a);
    drain(&b, 100);
    json_t *p = json_array_get(json_object_get(b.state, "players"), 0);
    assert_false(json_is_true(json_object_get(p, "connected")));
    kontor_rng rng;
    kontor_rng_seed(&rng, 5);
    play_both(&c, &d, &rng, 5000);
    assert_true(is_over(&c));
    close_cl(&b);
    close_cl(&c);
    close_cl(&d);
    json_decref(g1);
    json_decref(g2);
    stop(&s, SIGTERM);
}

/* ---- every variant ------------------------------------------------------------ */

/* Play one decision of c, picked by rng among its legal ones, and wait for
 * the state that acknowledges it; a decision made stale by another seat's
 * move meanwhile comes back as an error and counts as none. Every decision
 * offered must carry its words. Returns 1 if it moved. */
static int play_any_but(cl *c, kontor_rng *rng, int *kinds, int avoid);
static int play_any(cl *c, kontor_rng *rng, int *kinds) { return play_any_but(c, rng, kinds, 0); }

/* The same, but for decisions of kind avoid, "none" when offered. */
static int play_any_but(cl *c, kontor_rng *rng, int *kinds, int avoid) {
    json_t *legal = json_object_get(c->state, "legal");
    size_t n = json_array_size(legal);
    if (!n || is_over(c)) return 0;
    for (size_t i = 0; i < n; i++) {
        json_t *l = json_array_get(legal, i);
        const char *text = json_string_value(json_object_get(l, "text"));
        assert_non_null(text);
        assert_true(strlen(text) > 2);
        assert_string_not_equal(text, "?");
        int kind = (int)(json_integer_value(json_object_get(l, "m")) >> 8) & 15;
        if (kinds) kinds[kind] = 1;
        /* what a client needs besides the words: a cell, a card, a pass or none */
        int cell = json_is_integer(json_object_get(l, "x")) && json_is_integer(json_object_get(l, "y"));
        int none = json_is_true(json_object_get(l, "none"));
        switch (kind) {
        case KONTOR_MOVE_CHOOSE:
            assert_true(json_is_integer(json_object_get(l, "card")) || json_is_true(json_object_get(l, "pass")));
            break;
        case KONTOR_MOVE_PLACE_WATER:
            assert_true(cell);
            assert_non_null(strstr(text, "as water"));
            break;
        case KONTOR_MOVE_SHIP:
        case KONTOR_MOVE_REMOVE:
        case KONTOR_MOVE_PLACE:
        case KONTOR_MOVE_BRIBE:
        case KONTOR_MOVE_EVENT:
        case KONTOR_MOVE_TILE: assert_true(cell != none); break;
        case KONTOR_MOVE_PILE: assert_true(json_is_integer(json_object_get(l, "seat"))); break;
        case KONTOR_MOVE_KEEP:
        case KONTOR_MOVE_DISCARD: assert_true(json_is_integer(json_object_get(l, "card"))); break;
        default: break;
        }
    }
    json_int_t m = json_integer_value(json_object_get(json_array_get(legal, kontor_rng_below(rng, (uint32_t)n)), "m"));
    for (size_t i = 0; i < n && avoid; i++) {
        json_t *l = json_array_get(legal, i);
        json_int_t li = json_integer_value(json_object_get(l, "m"));
        if (((li >> 8) & 15) == avoid && json_is_true(json_object_get(l, "none"))) m = li;
    }
    static int id = 100000;
    char msg[96];
    int want = ++id;
    snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":%lld,\"id\":%d}", (long long)m, want);
    send_str(c, msg);
    for (;;) {
        json_t *o = until(c, "*", 3000);
        assert_non_null(o);
        const char *t = json_string_value(json_object_get(o, "type"));
        json_int_t got = json_integer_value(json_object_get(o, strcmp(t, "state") == 0 ? "ack" : "id"));
        if (got == want) return strcmp(t, "state") == 0;
    }
}

/* What seat (-1 spectator) must and must not see in its newest state: its
 * own hand only, and no other seat's secret decision. */
static void check_fair(cl *c, int seat, int nseats) {
    json_t *seats = json_object_get(c->state, "seats");
    assert_int_equal(json_array_size(seats), nseats);
    const char *phase = json_string_value(json_object_get(c->state, "phase"));
    for (int j = 0; j < nseats; j++) {
        json_t *sj = json_array_get(seats, j);
        if (j == seat) assert_non_null(json_object_get(sj, "hand"));
        else assert_null(json_object_get(sj, "hand"));
        if (j == seat) continue;
        json_t *ch = json_object_get(sj, "choice");
        /* R1: a declaration is hidden until all are made; then a pass is public */
        if (strcmp(phase, "declare") == 0 && !json_is_null(ch)) assert_string_equal(json_string_value(ch), "hidden");
        if (strcmp(phase, "choose") == 0 && !json_is_null(ch) && strcmp(json_string_value(ch), "pass") != 0)
            assert_string_equal(json_string_value(ch), "hidden");
        json_t *b = json_object_get(sj, "bribe");
        if (strcmp(phase, "bribe") == 0 && !json_is_null(b)) assert_string_equal(json_string_value(b), "hidden");
        json_t *buy = json_object_get(sj, "buy");
        if (strcmp(phase, "buy") == 0 && !json_is_null(buy)) assert_string_equal(json_string_value(buy), "hidden");
    }
    if (seat < 0) assert_int_equal(json_array_size(json_object_get(c->state, "legal")), 0);
    /* Alte Seilschaften: the area being decided is named */
    if (strcmp(phase, "tavern") == 0) {
        json_t *ta = json_object_get(c->state, "tavern_area");
        assert_true(json_is_integer(ta));
        assert_true(json_integer_value(ta) < (json_int_t)json_array_size(json_object_get(c->state, "areas")));
    }
}

/* n clients (seats 0..n-1 of the game's human seats in order, spectator last
 * with seat -1) play until the game is over; returns the decisions made. */
static int play_all(cl *c, const int *seat, int n, int nseats, kontor_rng *rng, int *kinds, int limit) {
    int moves = 0, idle = 0;
    while (!is_over(&c[0]) && moves < limit) {
        int moved = 0;
        for (int i = 0; i < n; i++) {
            drain(&c[i], 0);
            check_fair(&c[i], seat[i], nseats);
            if (seat[i] >= 0) moved += play_any(&c[i], rng, kinds);
        }
        moves += moved;
        /* nobody owed a decision: the computers think */
        if (!moved) {
            assert_true(++idle < 200);
            until(&c[0], "state", 100);
        } else idle = 0;
    }
    for (int i = 0; i < n; i++) drain(&c[i], 50);
    return moves;
}

/* What a finished game's record holds: the events of its replay by kind,
 * the decisions by kind (made, and taken for real: a value other than
 * "none"/"no"), the seats that decided and those that placed a card, and
 * the coins left in the game (the seats' and the treasury's). */
typedef struct census {
    int ev[32];
    int made[16], taken[16];
    unsigned seats, placers;
    int coins;
} census;

static void count_events(void *ctx, const kontor_state *s, int ply, const kontor_log *log) {
    census *c = ctx;
    (void)s;
    (void)ply;
    for (int i = 0; i < log->n; i++) {
        c->ev[log->ev[i].kind & 31]++;
        if (log->ev[i].kind == KONTOR_EV_PLACE) c->placers |= 1u << (log->ev[i].seat & 7);
    }
}

/* The record of game id, replayed: its final score must equal score; what it
 * holds goes into *c if c is not NULL. */
static void record_census(const srv *s, const char *id, json_t *score, census *c) {
    char path[64], *resp = NULL;
    snprintf(path, sizeof path, "/api/games/%s/record", id);
    assert_int_equal(http_request("127.0.0.1", s->port, "GET", path, NULL, &resp), 200);
    kontor_record r;
    kontor_error err;
    kontor_state *fin = malloc(sizeof *fin);
    assert_int_equal(kontor_record_parse(&r, resp, strlen(resp), &err), KONTOR_OK);
    if (c) memset(c, 0, sizeof *c);
    assert_int_equal(kontor_record_replay(&r, -1, fin, c ? count_events : NULL, c, &err), KONTOR_OK);
    assert_true(kontor_over(fin));
    assert_int_equal(fin->score[0], json_integer_value(json_array_get(score, 0)));
    assert_int_equal(fin->score[1], json_integer_value(json_array_get(score, 1)));
    for (int i = 0; c && i < r.nply; i++) {
        int kind = KONTOR_MOVE_KIND(r.ply[i].move) & 15, v = KONTOR_MOVE_VALUE(r.ply[i].move);
        c->made[kind]++;
        c->taken[kind] += v != KONTOR_NONE && v != KONTOR_PASS && !(kind == KONTOR_MOVE_BUY && v == 0);
        c->seats |= 1u << r.ply[i].seat;
    }
    if (c) {
        c->coins = fin->treasury;
        for (int i = 0; i < fin->cfg.nseats; i++) c->coins += fin->coins[i];
    }
    free(fin);
    kontor_record_release(&r);
    free(resp);
}

static void record_replays_to(const srv *s, const char *id, json_t *score) { record_census(s, id, score, NULL); }

static void test_variants_lists_every_variant_with_its_seats_and_expansions(void **state) {
    (void)state;
    srv s = start();
    int st;
    json_t *d = http_json(&s, "GET", "/api/variants", NULL, &st);
    assert_int_equal(st, 200);
    json_t *vs = json_object_get(d, "variants");
    assert_int_equal(json_array_size(vs), KONTOR_NVARIANTS);
    for (size_t i = 0; i < json_array_size(vs); i++) {
        json_t *v = json_array_get(vs, i);
        const char *name = json_string_value(json_object_get(v, "name"));
        assert_string_equal(name, kontor_variant_name((int)i));
        kontor_config cfg;
        kontor_error err;
        assert_int_equal(kontor_config_init(&cfg, name, &err), KONTOR_OK);
        assert_int_equal(json_integer_value(json_object_get(v, "seats")), cfg.nseats);
        size_t nexp = json_array_size(json_object_get(v, "expansions"));
        /* the expansions are for two; the tiles need the water cross */
        if (cfg.nseats == 4) assert_int_equal(nexp, 0);
        if (strcmp(name, "basic") == 0) assert_int_equal(nexp, 3);
        if (strcmp(name, "canale") == 0) assert_int_equal(nexp, 2);
    }
    json_decref(d);
    /* a game for four takes four seats, not two */
    json_t *e = http_json(&s, "POST", "/api/games", "{\"variant\":\"four\",\"seats\":[\"human\",\"easy\"]}", &st);
    assert_int_equal(st, 400);
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "4 seats"));
    json_decref(e);
    /* a scenario with decisions of its own takes human seats now */
    json_t *g = create(&s, "{\"variant\":\"justizia\",\"seats\":[\"human\",\"human\"],\"options\":\"events=1\"}");
    json_decref(g);
    stop(&s, SIGTERM);
}

static void test_four_humans_play_to_the_end_each_seeing_only_its_hand(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"variant\":\"four\",\"seats\":[\"human\",\"human\",\"human\",\"human\"]}");
    const char *id = json_string_value(json_object_get(g, "id"));
    assert_int_equal(json_array_size(json_object_get(g, "seats")), 4);
    cl c[5];
    int seat[5] = {0, 1, 2, 3, -1};
    for (int i = 0; i < 4; i++) join(&c[i], &s, id, token_of(g, i));
    join(&c[4], &s, id, NULL);
    /* the state names the four seats in two teams */
    json_t *seats = json_object_get(c[0].state, "seats");
    assert_string_equal(json_string_value(json_object_get(json_array_get(seats, 1), "name")), "red 2");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(seats, 1), "team")), 0);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(seats, 2), "team")), 1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(c[0].state, "board"), "w")), 8);
    kontor_rng rng;
    kontor_rng_seed(&rng, 11);
    int kinds[16] = {0};
    int moves = play_all(c, seat, 5, 4, &rng, kinds, 20000);
    for (int i = 0; i < 5; i++) assert_true(is_over(&c[i]));
    assert_true(moves > 40);
    assert_true(kinds[KONTOR_MOVE_CHOOSE] && kinds[KONTOR_MOVE_PLACE] && kinds[KONTOR_MOVE_SHIP]);
    /* the spectator saw the same end */
    assert_true(json_equal(json_object_get(c[0].state, "score"), json_object_get(c[4].state, "score")));
    record_replays_to(&s, id, json_object_get(c[0].state, "score"));
    /* the replay viewer of the finished game: four players, every hand shown */
    int st;
    char path[80];
    snprintf(path, sizeof path, "/api/games/%s/view?ply=9", id);
    json_t *v = http_json(&s, "GET", path, NULL, &st);
    assert_int_equal(st, 200);
    assert_int_equal(json_array_size(json_object_get(v, "players")), 4);
    for (int i = 0; i < 4; i++) assert_non_null(json_object_get(json_array_get(json_object_get(v, "seats"), (size_t)i), "hand"));
    json_decref(v);
    for (int i = 0; i < 5; i++) close_cl(&c[i]);
    json_decref(g);
    stop(&s, SIGTERM);
}

static void test_four_with_computer_seats_to_the_end(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"variant\":\"four\",\"seats\":[\"human\",\"random\",\"easy\",\"random\"]}");
    const char *id = json_string_value(json_object_get(g, "id"));
    assert_int_equal(json_array_size(json_object_get(g, "seats")), 1); /* one link: the one human seat */
    cl c[1];
    int seat[1] = {0};
    join(&c[0], &s, id, token_of(g, 0));
    json_t *players = json_object_get(c[0].state, "players");
    assert_int_equal(json_array_size(players), 4);
    assert_string_equal(json_string_value(json_object_get(json_array_get(players, 2), "kind")), "easy");
    kontor_rng rng;
    kontor_rng_seed(&rng, 12);
    int moves = play_all(c, seat, 1, 4, &rng, NULL, 20000);
    assert_true(is_over(&c[0]));
    /* the three computers moved too */
    assert_true(ply_of(&c[0]) > 2 * moves);
    record_replays_to(&s, id, json_object_get(c[0].state, "score"));
    close_cl(&c[0]);
    json_decref(g);
    stop(&s, SIGTERM);
}

/* Bakschisch with the export store: the bribe (hidden until both decide,
 * on a cell) and the export (a choice of goods) are played over the API. */
static void test_bakschisch_with_export_to_the_end(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"variant\":\"bakschisch\",\"options\":\"export=1\",\"seats\":[\"human\",\"human\"]}");
    const char *id = json_string_value(json_object_get(g, "id"));
    cl c[3];
    int seat[3] = {0, 1, -1};
    join(&c[0], &s, id, token_of(g, 0));
    join(&c[1], &s, id, token_of(g, 1));
    join(&c[2], &s, id, NULL);
    kontor_rng rng;
    kontor_rng_seed(&rng, 13);
    int kinds[16] = {0};
    play_all(c, seat, 3, 2, &rng, kinds, 20000);
    assert_true(is_over(&c[0]));
    assert_true(kinds[KONTOR_MOVE_BRIBE]);
    assert_true(kinds[KONTOR_MOVE_EXPORT]);
    assert_non_null(json_object_get(c[0].state, "export"));
    record_replays_to(&s, id, json_object_get(c[0].state, "score"));
    for (int i = 0; i < 3; i++) close_cl(&c[i]);
    json_decref(g);
    stop(&s, SIGTERM);
}

/* Alte Seilschaften: a tavern's owner decides at the end, with a button of
 * words; three games in four reach that phase under random play, so up to
 * eight games are played until one does. */
static void test_seilschaften_tavern_decisions_to_the_end(void **state) {
    (void)state;
    srv s = start();
    int kinds[16] = {0}, games = 0;
    kontor_rng rng;
    kontor_rng_seed(&rng, 17);
    while (!kinds[KONTOR_MOVE_TAVERN] && games < 8) {
        json_t *g = create(&s, "{\"variant\":\"seilschaften\",\"seats\":[\"human\",\"human\"]}");
        const char *id = json_string_value(json_object_get(g, "id"));
        cl c[2];
        int seat[2] = {0, 1};
        join(&c[0], &s, id, token_of(g, 0));
        join(&c[1], &s, id, token_of(g, 1));
        play_all(c, seat, 2, 2, &rng, kinds, 20000);
        assert_true(is_over(&c[0]));
        record_replays_to(&s, id, json_object_get(c[0].state, "score"));
        close_cl(&c[0]);
        close_cl(&c[1]);
        json_decref(g);
        games++;
    }
    assert_true(kinds[KONTOR_MOVE_TAVERN]);
    stop(&s, SIGTERM);
}

/* Justizia (picking the hand) with the event cards, and the special cards
 * for two (buying one) with the action tiles, played by two people over the
 * API to the end: the decisions of each reach the players with their words,
 * and the record shows the rules at work: hands picked, event cards turned
 * up; special cards bought and laid over cards, action tiles won; in Armut
 * for four every seat decides and places, with 12 coins in the game (3 a
 * player). The deals are the server's own (random), so a game that happens
 * to miss one of these is followed by another, up to three. */
static int census_shows(int b, const census *c) {
    switch (b) {
    case 0: return c->taken[KONTOR_MOVE_KEEP] && c->taken[KONTOR_MOVE_DISCARD] && c->ev[KONTOR_EV_SELECT] >= 2 &&
                   c->ev[KONTOR_EV_EVENT] > 0;
    case 1: return c->taken[KONTOR_MOVE_BUY] && c->ev[KONTOR_EV_BUY] > 0 && c->ev[KONTOR_EV_OVERBUILD] > 0 &&
                   c->ev[KONTOR_EV_TILE] > 0;
    default: return c->seats == 15 && c->placers == 15;
    }
}

static void test_justizia_and_specials_with_expansions_to_the_end(void **state) {
    (void)state;
    srv s = start();
    static const char *const bodies[] = {
        "{\"variant\":\"justizia\",\"options\":\"events=1\",\"seats\":[\"human\",\"human\"]}",
        "{\"variant\":\"specials\",\"options\":\"tiles=1\",\"seats\":[\"human\",\"human\"]}",
        "{\"variant\":\"armut4\",\"seats\":[\"human\",\"human\",\"human\",\"human\"]}",
    };
    static const char *const shows[] = {"hands picked, an event turned up",
                                        "a special card bought and laid, an action tile won",
                                        "all four seats decide and place"};
    static const int nseats[] = {2, 2, 4};
    int kinds[3][16] = {{0}};
    kontor_rng rng;
    kontor_rng_seed(&rng, 19);
    for (int b = 0; b < 3; b++) {
        census cs;
        int games = 0;
        do {
            json_t *g = create(&s, bodies[b]);
            const char *id = json_string_value(json_object_get(g, "id"));
            cl c[5];
            int seat[5] = {0, 1, 2, 3, -1};
            int n = nseats[b];
            int offered[16] = {0};
            for (int i = 0; i < n; i++) join(&c[i], &s, id, token_of(g, i));
            seat[n] = -1;
            join(&c[n], &s, id, NULL);
            play_all(c, seat, n + 1, n, &rng, offered, 20000);
            assert_true(is_over(&c[0]));
            record_census(&s, id, json_object_get(c[0].state, "score"), &cs);
            /* an event's or a tile's decision offered (a phase of its own,
             * "none" included) was made, and is in the record */
            for (int k = KONTOR_MOVE_EVENT; k <= KONTOR_MOVE_TILE; k++)
                if (offered[k] && !cs.made[k]) fail_msg("game %d: decisions of kind %d offered, none in the record", b, k);
            for (int k = 0; k < 16; k++) kinds[b][k] |= offered[k];
            for (int i = 0; i <= n; i++) close_cl(&c[i]);
            json_decref(g);
        } while (!census_shows(b, &cs) && ++games < 3);
        if (!census_shows(b, &cs)) fail_msg("%s: three games and never %s", bodies[b], shows[b]);
        if (b == 2) assert_int_equal(cs.coins, 12);
    }
    assert_true(kinds[0][KONTOR_MOVE_KEEP] && kinds[0][KONTOR_MOVE_DISCARD]);
    assert_true(kinds[1][KONTOR_MOVE_BUY]);
    assert_true(kinds[2][KONTOR_MOVE_CHOOSE]);
    stop(&s, SIGTERM);
}

/* A bribe is a secret until both have decided: the other seat and the
 * spectator see only "hidden". */
static void test_a_bribe_stays_hidden_until_both_decide(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"variant\":\"bakschisch\",\"seats\":[\"human\",\"human\"]}");
    const char *id = json_string_value(json_object_get(g, "id"));
    cl a, b;
    join(&a, &s, id, token_of(g, 0));
    join(&b, &s, id, token_of(g, 1));
    kontor_rng rng;
    kontor_rng_seed(&rng, 21);
    int seen = 0;
    for (int k = 0; k < 3000 && !seen && !is_over(&a); k++) {
        drain(&a, 0);
        drain(&b, 0);
        if (strcmp(json_string_value(json_object_get(a.state, "phase")), "bribe") == 0 &&
            json_array_size(json_object_get(a.state, "legal")) > 0 && json_array_size(json_object_get(b.state, "legal")) > 0) {
            /* red buys out a card (the first decision with a cell), black has not decided */
            json_t *legal = json_object_get(a.state, "legal");
            for (size_t i = 0; i < json_array_size(legal) && !seen; i++) {
                json_t *l = json_array_get(legal, i);
                if (!json_object_get(l, "x")) continue;
                assert_non_null(strstr(json_string_value(json_object_get(l, "text")), "buy out"));
                char msg[96];
                snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":%lld,\"id\":7}",
                         (long long)json_integer_value(json_object_get(l, "m")));
                send_str(&a, msg);
                json_t *st = until(&b, "state", 3000);
                assert_non_null(st);
                json_t *rb = json_object_get(json_array_get(json_object_get(b.state, "seats"), 0), "bribe");
                assert_string_equal(json_string_value(rb), "hidden");
                /* red's own state shows its bribe (wait for it: a loaded machine is slow) */
                json_t *mine = NULL;
                for (int w = 0; w < 60 && !json_is_array(mine); w++) {
                    if (w) until(&a, "state", 50);
                    mine = json_object_get(json_array_get(json_object_get(a.state, "seats"), 0), "bribe");
                }
                assert_true(json_is_array(mine));
                seen = 1;
            }
            if (seen) break;
        }
        /* nobody bribes on the way, so both keep coins to bribe with */
        if (!play_any_but(&a, &rng, NULL, KONTOR_MOVE_BRIBE) && !play_any_but(&b, &rng, NULL, KONTOR_MOVE_BRIBE))
            until(&a, "state", 50);
    }
    assert_true(seen);
    close_cl(&a);
    close_cl(&b);
    json_decref(g);
    stop(&s, SIGTERM);
}

/* Every variant and every expansion it takes, played to the end on the
 * server by computer seats while a spectator watches: no variant stalls,
 * and the spectator never sees a hand. */
static void test_every_variant_is_played_to_the_end_by_computers(void **state) {
    (void)state;
    srv s = start();
    int st;
    json_t *d = http_json(&s, "GET", "/api/variants", NULL, &st);
    json_t *vs = json_object_get(d, "variants");
    int games = 0;
    for (size_t i = 0; i < json_array_size(vs); i++) {
        json_t *v = json_array_get(vs, i);
        int n = (int)json_integer_value(json_object_get(v, "seats"));
        json_t *exps = json_object_get(v, "expansions");
        for (size_t k = 0; k <= json_array_size(exps); k++) {
            /* each variant alone, and basic with each expansion */
            if (k > 0 && strcmp(json_string_value(json_object_get(v, "name")), "basic") != 0) break;
            char body[256];
            snprintf(body, sizeof body, "{\"variant\":\"%s\",\"options\":\"%s\",\"seats\":[\"random\",\"random\"%s]}",
                     json_string_value(json_object_get(v, "name")), k ? json_string_value(json_array_get(exps, k - 1)) : "",
                     n == 4 ? ",\"random\",\"random\"" : "");
            json_t *g = create(&s, body);
            cl w;
            join(&w, &s, json_string_value(json_object_get(g, "id")), NULL);
            for (int t = 0; t < 400 && !is_over(&w); t++) {
                check_fair(&w, -1, n);
                until(&w, "state", 100);
            }
            assert_true(is_over(&w));
            check_fair(&w, -1, n);
            close_cl(&w);
            json_decref(g);
            games++;
        }
    }
    assert_int_equal(games, KONTOR_NVARIANTS + 3);
    json_decref(d);
    stop(&s, SIGTERM);
}

/* The handshake's accept value is RFC 6455's own example (section 1.3). */
static void test_websocket_accept_key_is_the_rfc_example(void **state) {
    (void)state;
    char acc[29];
    const char *key = "dGhlIHNhbXBsZSBub25jZQ==";
    ws_accept_key(key, strlen(key), acc);
    assert_string_equal(acc, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_websocket_accept_key_is_the_rfc_example),
        cmocka_unit_test_setup_teardown(test_lobby_creates_lists_and_refuses_bad_games, setup, teardown),
        cmocka_unit_test_setup_teardown(test_each_seat_sees_only_its_own_hand, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused_messages_change_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_humans_play_to_the_end_and_the_record_replays, setup, teardown),
        cmocka_unit_test_setup_teardown(test_computer_seat_plays_its_turns, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timeout_plays_for_a_silent_seat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sigkill_mid_game_loses_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sigkill_keeps_each_decision_in_the_record, setup, teardown),
        cmocka_unit_test_setup_teardown(test_other_games_go_on_when_a_socket_dies, setup, teardown),
        cmocka_unit_test_setup_teardown(test_variants_lists_every_variant_with_its_seats_and_expansions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_four_humans_play_to_the_end_each_seeing_only_its_hand, setup, teardown),
        cmocka_unit_test_setup_teardown(test_four_with_computer_seats_to_the_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bakschisch_with_export_to_the_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_bribe_stays_hidden_until_both_decide, setup, teardown),
        cmocka_unit_test_setup_teardown(test_justizia_and_specials_with_expansions_to_the_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_seilschaften_tavern_decisions_to_the_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_every_variant_is_played_to_the_end_by_computers, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
