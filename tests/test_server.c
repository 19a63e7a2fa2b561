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

/* Read messages until one of type arrives (or timeout); keeps the newest
 * state and error. Returns that message (borrowed) or NULL. */
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
        int match = strcmp(t, type) == 0;
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

    /* the record of a new game is a record */
    char *resp = NULL;
    char path[64];
    snprintf(path, sizeof path, "/api/games/%s/record", id);
    assert_int_equal(http_request("127.0.0.1", s.port, "GET", path, NULL, &resp), 200);
    kontor_record r;
    kontor_error err;
    assert_int_equal(kontor_record_parse(&r, resp, strlen(resp), &err), KONTOR_OK);
    kontor_record_release(&r);
    free(resp);
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
    close_cl(&a);
    close_cl(&b);
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

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lobby_creates_lists_and_refuses_bad_games, setup, teardown),
        cmocka_unit_test_setup_teardown(test_each_seat_sees_only_its_own_hand, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused_messages_change_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_humans_play_to_the_end_and_the_record_replays, setup, teardown),
        cmocka_unit_test_setup_teardown(test_computer_seat_plays_its_turns, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timeout_plays_for_a_silent_seat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sigkill_mid_game_loses_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_other_games_go_on_when_a_socket_dies, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
