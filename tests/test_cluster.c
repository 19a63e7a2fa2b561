/* test_cluster.c: three `kontor serve` nodes on one PostgreSQL behind nginx, and one of them killed (kill -9).
 *
 * The setup is docs/deploy.md's, on loopback: a PostgreSQL of the test's own
 * (tests/pgtmp.h), three nodes with `--db postgresql://...`, and nginx run
 * with deploy/nginx.conf itself (only its ports changed). Clients reach the
 * nodes through nginx, as browsers would.
 *
 * - A spectator on one node sees every move made through another node
 *   (LISTEN/NOTIFY fan-out and catch-up), in a median of 100 ms or less.
 * - The lobby of one node lists the games made and joined through others.
 * - A burst of games (people against people, and people against the
 *   computer) is played through nginx; one node is killed with SIGKILL in
 *   the middle. The clients reconnect (nginx sends them to the living
 *   nodes) and finish. Then every game is over, and for each seat every
 *   acknowledged move is in the stored record, in its order (none lost),
 *   and the record holds no more moves of that seat than were acknowledged
 *   plus those whose answer the kill cut off (none applied twice). The
 *   computer seats of games whose node died are played by another node
 *   (their lease ran out).
 *
 * nginx and PostgreSQL must be installed (tools/setup.sh): missing, the
 * test fails.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "kontor/record.h"
#include "server/wsclient.h"
#include "testutil.h"
#include "pgtmp.h"

#define NODES 3

static pgtmp pg;
static pid_t node_pid[NODES];
static int node_port[NODES];
static pid_t nginx_pid = -1;
static int nginx_port;
static char nginx_dir[64];

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int start_node(int i) {
    node_port[i] = pgtmp_free_port();
    int pfd[2];
    if (pipe(pfd) != 0) return -1;
    const char *bin = getenv("KONTOR") ? getenv("KONTOR") : "build/kontor";
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        dup2(pfd[1], 1);
        close(pfd[0]);
        close(pfd[1]);
        char port[16];
        snprintf(port, sizeof port, "%d", node_port[i]);
        /* behind nginx every client has nginx's address: no per-address caps */
        execl(bin, "kontor", "serve", "--port", port, "--db", pg.url, "--web", "web", "--quiet", "--conns-per-addr",
              "0", "--create-per-min", "0", "--ai-threads", "2", (char *)NULL);
        _exit(127);
    }
    close(pfd[1]);
    node_pid[i] = pid;
    char line[300];
    size_t n = 0;
    while (n < sizeof line - 1 && read(pfd[0], line + n, 1) == 1 && line[n] != '\n') n++;
    line[n] = 0;
    close(pfd[0]);
    return strstr(line, "serving") ? 0 : -1;
}

/* deploy/nginx.conf with the test's ports; 0 once nginx answers. */
static int start_nginx(void) {
    snprintf(nginx_dir, sizeof nginx_dir, "/tmp/kontor-nginx-XXXXXX");
    if (!mkdtemp(nginx_dir)) return -1;
    if (getuid() == 0 && system("true") == 0) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "chown nobody %s", nginx_dir); /* its workers' temporary files */
        if (system(cmd) != 0) return -1;
    }
    nginx_port = pgtmp_free_port();
    char cmd[600];
    snprintf(cmd, sizeof cmd,
             "sed -e 's/listen 8080;/listen 127.0.0.1:%d;/' -e 's/127.0.0.1:8081/127.0.0.1:%d/' "
             "-e 's/127.0.0.1:8082/127.0.0.1:%d/' -e 's/127.0.0.1:8083/127.0.0.1:%d/' deploy/nginx.conf > %s/nginx.conf",
             nginx_port, node_port[0], node_port[1], node_port[2], nginx_dir);
    if (system(cmd) != 0) return -1;
    char conf[128];
    snprintf(conf, sizeof conf, "%s/nginx.conf", nginx_dir);
    nginx_pid = fork();
    if (nginx_pid < 0) return -1;
    if (nginx_pid == 0) {
        execlp("nginx", "nginx", "-p", nginx_dir, "-c", conf, "-g", "daemon off;", (char *)NULL);
        execl("/usr/sbin/nginx", "nginx", "-p", nginx_dir, "-c", conf, "-g", "daemon off;", (char *)NULL);
        fprintf(stderr, "test_cluster: nginx is not installed (Debian: apt-get install nginx; tools/setup.sh does)\n");
        _exit(127);
    }
    for (int t = 0; t < 100; t++) {
        char *resp = NULL;
        int st = http_request("127.0.0.1", nginx_port, "GET", "/api/games", NULL, &resp);
        free(resp);
        if (st == 200) return 0;
        if (waitpid(nginx_pid, NULL, WNOHANG) == nginx_pid) {
            nginx_pid = -1;
            return -1;
        }
        sleep_ms(100);
    }
    return -1;
}

static int group_setup(void **state) {
    (void)state;
    setenv("PGTMP_FSYNC", "off", 1); /* the kill is of nodes, never of PostgreSQL */
    if (pgtmp_start(&pg) != 0) return -1;
    for (int i = 0; i < NODES; i++)
        if (start_node(i) != 0) {
            fprintf(stderr, "test_cluster: node %d did not start\n", i);
            return -1;
        }
    if (start_nginx() != 0) {
        fprintf(stderr, "test_cluster: nginx did not start\n");
        return -1;
    }
    return 0;
}

static int group_teardown(void **state) {
    (void)state;
    if (nginx_pid > 0) {
        kill(nginx_pid, SIGQUIT);
        waitpid(nginx_pid, NULL, 0);
    }
    for (int i = 0; i < NODES; i++)
        if (node_pid[i] > 0) {
            kill(node_pid[i], SIGKILL);
            waitpid(node_pid[i], NULL, 0);
        }
    pgtmp_stop(&pg);
    if (nginx_dir[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", nginx_dir);
        if (system(cmd) != 0) return -1;
    }
    return 0;
}

/* ---- a client that never asserts (it runs on threads) ------------------------------ */

typedef struct pl {
    wsc w;
    int up;
    json_t *state; /* the newest */
    json_t *last;  /* the message pl_read returned last */
} pl;

static void pl_close(pl *c) {
    if (c->up) wsc_close(&c->w);
    c->up = 0;
}

/* Close and free everything c holds. */
static void pl_free(pl *c) {
    pl_close(c);
    json_decref(c->state);
    json_decref(c->last);
    c->state = c->last = NULL;
}

/* Read one message (up to ms); 1 a message (state kept; *out borrowed
 * until the next call, may be NULL), 0 none, -1 the connection is gone. */
static int pl_read(pl *c, int ms, json_t **out) {
    json_decref(c->last);
    c->last = NULL;
    if (out) *out = NULL;
    int op;
    char *m;
    size_t len;
    int r = wsc_recv(&c->w, ms, &op, &m, &len);
    if (r < 0 || (r > 0 && op == 8)) {
        if (r > 0) free(m);
        pl_close(c);
        return -1;
    }
    if (r == 0) return 0;
    json_t *o = json_loadb(m, len, 0, NULL);
    free(m);
    const char *t = json_string_value(json_object_get(o, "type"));
    if (t && strcmp(t, "state") == 0) {
        json_decref(c->state);
        c->state = json_incref(o);
    }
    c->last = o;
    if (out) *out = o;
    return 1;
}

static int pl_join(pl *c, int port, const char *id, const char *token) {
    char err[128], msg[200];
    pl_close(c);
    if (wsc_connect(&c->w, "127.0.0.1", port, "/ws", err, sizeof err) != 0) return -1;
    c->up = 1;
    if (token) snprintf(msg, sizeof msg, "{\"type\":\"join\",\"game\":\"%s\",\"token\":\"%s\"}", id, token);
    else snprintf(msg, sizeof msg, "{\"type\":\"watch\",\"game\":\"%s\"}", id);
    if (wsc_send(&c->w, 1, msg, strlen(msg)) != 0) {
        pl_close(c);
        return -1;
    }
    double until = now_ms() + 3000;
    while (now_ms() < until) {
        json_t *o;
        int r = pl_read(c, 200, &o);
        if (r < 0) return -1;
        if (o && json_is_string(json_object_get(o, "type")) &&
            strcmp(json_string_value(json_object_get(o, "type")), "state") == 0)
            return 0;
    }
    pl_close(c);
    return -1;
}

static int st_ply(const pl *c) { return (int)json_integer_value(json_object_get(c->state, "ply")); }
static int st_over(const pl *c) { return json_is_true(json_object_get(c->state, "over")); }

static json_t *create_game(const char *body) {
    char *resp = NULL;
    int st = http_request("127.0.0.1", nginx_port, "POST", "/api/games", body, &resp);
    json_t *g = st == 201 && resp ? json_loads(resp, 0, NULL) : NULL;
    free(resp);
    return g;
}

static const char *token_of(json_t *g, int seat) {
    json_t *seats = json_object_get(g, "seats");
    for (size_t i = 0; i < json_array_size(seats); i++) {
        json_t *s = json_array_get(seats, i);
        if (json_integer_value(json_object_get(s, "seat")) == seat) return json_string_value(json_object_get(s, "token"));
    }
    return NULL;
}

/* ---- a spectator on one node, a move through another ------------------------------ */

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A spectator on node 2 watches a game whose players sit on nodes 0 and 1.
 * Node 2 hears of a move only through the database's notice (LISTEN/NOTIFY,
 * nodesync.c): it polls nothing, and a spectator sends nothing that would
 * make it look. So the mechanism is asserted move by move: every move
 * applied through another node reaches the spectator (within 2 s, or the
 * test names the move that never came; a move the server refused is told to
 * its mover and not counted). The 100 ms is asserted on the median of 30
 * moves, the p90 and the slowest printed beside it: CI runs this on a
 * shared two-core machine, sometimes under sanitizers, where a stall of the
 * machine can hold up any one move; half of them held past 100 ms is no
 * stall. (Broken by hand: with a 150 ms sleep before the listener hands a
 * notice on, the median read about 150 ms and the test failed; with the
 * notice dropped, the first move was named as never seen.) */
static void test_spectator_sees_a_move_of_another_node_within_100ms(void **state) {
    (void)state;
    json_t *g = create_game("{\"variant\":\"basic\",\"seats\":[\"human\",\"human\"]}");
    assert_non_null(g);
    const char *id = json_string_value(json_object_get(g, "id"));
    pl red = {0}, black = {0}, spect = {0};
    /* each straight to its own node */
    assert_int_equal(pl_join(&red, node_port[0], id, token_of(g, 0)), 0);
    assert_int_equal(pl_join(&black, node_port[1], id, token_of(g, 1)), 0);
    assert_int_equal(pl_join(&spect, node_port[2], id, NULL), 0);
    kontor_rng rng;
    kontor_rng_seed(&rng, 7);
    double lat[40];
    int n = 0, within = 0;
    int refused = 0;
    for (int step = 0; step < 200 && n < 30 && !st_over(&spect); step++) {
        /* the three views agree first (each node has heard of the last move) */
        double t_sync = now_ms();
        while ((st_ply(&red) != st_ply(&spect) || st_ply(&black) != st_ply(&spect)) && now_ms() - t_sync < 2000) {
            assert_true(pl_read(&red, 2, NULL) >= 0);
            assert_true(pl_read(&black, 2, NULL) >= 0);
            assert_true(pl_read(&spect, 2, NULL) >= 0);
        }
        assert_int_equal(st_ply(&red), st_ply(&spect));
        assert_int_equal(st_ply(&black), st_ply(&spect));
        pl *mover = json_array_size(json_object_get(red.state, "legal"))     ? &red
                    : json_array_size(json_object_get(black.state, "legal")) ? &black
                                                                              : NULL;
        assert_non_null(mover);
        int before = st_ply(&spect);
        json_t *legal = json_object_get(mover->state, "legal");
        json_int_t m = json_integer_value(
            json_object_get(json_array_get(legal, kontor_rng_below(&rng, (uint32_t)json_array_size(legal))), "m"));
        char msg[96];
        snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":%lld,\"id\":%d}", (long long)m, step + 1);
        double t0 = now_ms();
        assert_int_equal(wsc_send(&mover->w, 1, msg, strlen(msg)), 0);
        while (st_ply(&spect) <= before && now_ms() - t0 < 2000) assert_true(pl_read(&spect, 50, NULL) >= 0);
        double dt = now_ms() - t0;
        if (st_ply(&spect) <= before) {
            /* not seen: refused (the mover is told why, an error with the
             * move's id), or applied on the mover's node and never heard of
             * on the spectator's */
            json_t *o = NULL;
            double t1 = now_ms();
            while (st_ply(mover) <= before && now_ms() - t1 < 2000 &&
                   !(o && json_is_integer(json_object_get(o, "id"))))
                assert_true(pl_read(mover, 50, &o) >= 0);
            if (st_ply(mover) > before)
                fail_msg("move %d (ply %d) was applied on node %d, but the spectator on node 2 had not seen it "
                         "after 2 s: no notice came",
                         step + 1, before + 1, mover == &red ? 0 : 1);
            assert_non_null(o);
            assert_true(json_is_integer(json_object_get(o, "id")));
            fprintf(stderr, "test_cluster: move refused: %s\n", json_string_value(json_object_get(o, "error")));
            refused++;
            continue;
        }
        lat[n++] = dt;
        within += dt <= 100.0;
    }
    assert_true(refused <= 2);
    assert_true(n >= 20);
    qsort(lat, (size_t)n, sizeof *lat, cmp_double);
    double median = n % 2 ? lat[n / 2] : (lat[n / 2 - 1] + lat[n / 2]) / 2;
    printf("test_cluster: %d moves on node 0/1 seen by a spectator on node 2: %d within 100 ms, median %.1f ms, "
           "p90 %.1f ms, the slowest %.1f ms\n",
           n, within, median, lat[(n * 9) / 10], lat[n - 1]);
    assert_true(median <= 100.0);
    pl_free(&red);
    pl_free(&black);
    pl_free(&spect);
    json_decref(g);
}

/* ---- the lobby comes from the database ---------------------------------------------- */

static int listed(int port, const char *list, const char *id) {
    char *resp = NULL;
    int st = http_request("127.0.0.1", port, "GET", "/api/games", NULL, &resp);
    json_t *o = st == 200 && resp ? json_loads(resp, 0, NULL) : NULL;
    free(resp);
    int found = 0;
    json_t *a = json_object_get(o, list);
    for (size_t i = 0; i < json_array_size(a); i++)
        found |= strcmp(json_string_value(json_object_get(json_array_get(a, i), "id")), id) == 0;
    json_decref(o);
    return found;
}

static void test_lobby_lists_the_games_of_every_node(void **state) {
    (void)state;
    char *resp = NULL;
    int st = http_request("127.0.0.1", node_port[0], "POST", "/api/games",
                          "{\"variant\":\"basic\",\"seats\":[\"human\",\"human\"]}", &resp);
    assert_int_equal(st, 201);
    json_t *g = json_loads(resp, 0, NULL);
    free(resp);
    const char *id = json_string_value(json_object_get(g, "id"));
    /* made on node 0, open on node 2's lobby (nobody has joined) */
    assert_true(listed(node_port[2], "open", id));
    pl red = {0};
    assert_int_equal(pl_join(&red, node_port[1], id, token_of(g, 0)), 0);
    pl black = {0};
    assert_int_equal(pl_join(&black, node_port[0], id, token_of(g, 1)), 0);
    /* both seats taken (through nodes 1 and 0): running on node 2's */
    double t0 = now_ms();
    while (!listed(node_port[2], "running", id) && now_ms() - t0 < 2000) sleep_ms(20);
    assert_true(listed(node_port[2], "running", id));
    assert_false(listed(node_port[2], "open", id));
    pl_free(&red);
    pl_free(&black);
    json_decref(g);
}

/* ---- a burst of games through nginx, and kill -9 of a node ------------------------- */

#define GAMES 12
#define AI_GAMES 4 /* of them, a person against the computer */

typedef struct gplay {
    int index;
    char id[16];
    char token[2][40];
    int human[2];
    int acked[2], unknown[2], errors, reconnects;
    int ack_move[2][400];
    int over;
    char why[160];
} gplay;

static volatile int total_acked;
static pthread_mutex_t acked_mu = PTHREAD_MUTEX_INITIALIZER;

static void *play_game(void *arg) {
    gplay *gp = arg;
    pl c[2];
    memset(c, 0, sizeof c);
    kontor_rng rng;
    kontor_rng_seed(&rng, 1000 + (uint64_t)gp->index);
    double deadline = now_ms() + 120000;
    int mid = 1;
    while (now_ms() < deadline) {
        /* connected, and every message read */
        int over = 0;
        for (int s = 0; s < 2; s++) {
            if (!gp->human[s]) continue;
            if (!c[s].up) {
                if (pl_join(&c[s], nginx_port, gp->id, gp->token[s]) != 0) {
                    sleep_ms(100);
                    continue;
                }
                gp->reconnects++;
            }
            while (c[s].up && pl_read(&c[s], 2, NULL) > 0) {
            }
            over |= c[s].up && st_over(&c[s]);
        }
        if (over) {
            gp->over = 1;
            break;
        }
        int moved = 0;
        for (int s = 0; s < 2; s++) {
            if (!gp->human[s] || !c[s].up) continue;
            json_t *legal = json_object_get(c[s].state, "legal");
            size_t n = json_array_size(legal);
            if (!n) continue;
            json_int_t m = json_integer_value(json_object_get(json_array_get(legal, kontor_rng_below(&rng, (uint32_t)n)), "m"));
            char msg[96];
            int want = mid++;
            snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":%lld,\"id\":%d}", (long long)m, want);
            if (wsc_send(&c[s].w, 1, msg, strlen(msg)) != 0) {
                pl_close(&c[s]);
                gp->unknown[s]++;
                continue;
            }
            double t0 = now_ms();
            int answered = 0;
            while (!answered && now_ms() - t0 < 5000) {
                json_t *o;
                int r = pl_read(&c[s], 200, &o);
                if (r < 0) break;
                if (!o) continue;
                const char *t = json_string_value(json_object_get(o, "type"));
                json_t *ack = json_object_get(o, t && strcmp(t, "state") == 0 ? "ack" : "id");
                if (!t || !json_is_integer(ack) || json_integer_value(ack) != want) continue;
                if (strcmp(t, "state") == 0) {
                    if (gp->acked[s] < 400) gp->ack_move[s][gp->acked[s]] = (int)m;
                    gp->acked[s]++;
                    pthread_mutex_lock(&acked_mu);
                    total_acked++;
                    pthread_mutex_unlock(&acked_mu);
                    moved = 1;
                } else {
                    gp->errors++; /* the state moved on under it (another node): it has the new state */
                }
                answered = 1;
            }
            if (!answered) {
                gp->unknown[s]++; /* the node died (or stalled) before answering */
                pl_close(&c[s]);
            }
        }
        if (!moved) sleep_ms(10); /* the computer's turn, or news from another node */
    }
    if (!gp->over) snprintf(gp->why, sizeof gp->why, "game %s did not end within 120 s", gp->id);
    for (int s = 0; s < 2; s++) pl_free(&c[s]);
    return NULL;
}

/* The stored record of game id (through nginx): every decision legal, the game over. */
static void check_game(const gplay *gp) {
    char path[64], *text = NULL;
    snprintf(path, sizeof path, "/api/games/%s/record", gp->id);
    int st = http_request("127.0.0.1", nginx_port, "GET", path, NULL, &text);
    assert_int_equal(st, 200);
    kontor_record r;
    kontor_error err;
    assert_int_equal(kontor_record_parse(&r, text, strlen(text), &err), KONTOR_OK);
    kontor_state s;
    assert_int_equal(kontor_record_replay(&r, -1, &s, NULL, NULL, &err), KONTOR_OK);
    assert_true(kontor_over(&s));
    for (int seat = 0; seat < 2; seat++) {
        if (!gp->human[seat]) continue;
        /* the seat's acknowledged moves are a subsequence of its stored ones */
        int k = 0, stored = 0;
        for (int i = 0; i < r.nply; i++) {
            if (r.ply[i].seat != seat) continue;
            stored++;
            if (k < gp->acked[seat] && k < 400 && (int)r.ply[i].move == gp->ack_move[seat][k]) k++;
        }
        if (k != gp->acked[seat] || stored > gp->acked[seat] + gp->unknown[seat])
            fprintf(stderr, "game %s seat %d: %d acknowledged, %d of them found in order, %d stored, %d unanswered\n",
                    gp->id, seat, gp->acked[seat], k, stored, gp->unknown[seat]);
        assert_int_equal(k, gp->acked[seat]);                          /* no acknowledged move lost */
        assert_true(stored <= gp->acked[seat] + gp->unknown[seat]); /* none applied twice */
    }
    kontor_record_release(&r);
    free(text);
}

static void test_kill_9_of_a_node_loses_no_acknowledged_move(void **state) {
    (void)state;
    static gplay gp[GAMES];
    pthread_t th[GAMES];
    memset(gp, 0, sizeof gp);
    for (int i = 0; i < GAMES; i++) {
        int ai = i < AI_GAMES;
        json_t *g = create_game(ai ? "{\"variant\":\"basic\",\"seats\":[\"human\",\"random\"]}"
                                   : "{\"variant\":\"basic\",\"seats\":[\"human\",\"human\"]}");
        assert_non_null(g);
        gp[i].index = i;
        snprintf(gp[i].id, sizeof gp[i].id, "%s", json_string_value(json_object_get(g, "id")));
        for (int s = 0; s < 2; s++) {
            const char *t = token_of(g, s);
            gp[i].human[s] = t != NULL;
            if (t) snprintf(gp[i].token[s], sizeof gp[i].token[s], "%s", t);
        }
        json_decref(g);
    }
    total_acked = 0;
    for (int i = 0; i < GAMES; i++) assert_int_equal(pthread_create(&th[i], NULL, play_game, &gp[i]), 0);
    /* in the middle of the burst */
    double t0 = now_ms();
    while (total_acked < 150 && now_ms() - t0 < 20000) sleep_ms(5);
    int before = total_acked;
    kill(node_pid[1], SIGKILL);
    waitpid(node_pid[1], NULL, 0);
    node_pid[1] = -1;
    double killed = now_ms();
    for (int i = 0; i < GAMES; i++) pthread_join(th[i], NULL);
    int acked = 0, unknown = 0, errors = 0, reconnects = 0;
    for (int i = 0; i < GAMES; i++) {
        acked += gp[i].acked[0] + gp[i].acked[1];
        unknown += gp[i].unknown[0] + gp[i].unknown[1];
        errors += gp[i].errors;
        reconnects += gp[i].reconnects;
        if (gp[i].why[0]) fprintf(stderr, "test_cluster: %s\n", gp[i].why);
    }
    printf("test_cluster: %d games, node 1 killed after %d acknowledged moves; %d acknowledged in all, %d unanswered "
           "(cut off by the kill), %d refused as stale, %d connections (re)made; all over %.1f s after the kill\n",
           GAMES, before, acked, unknown, errors, reconnects, (now_ms() - killed) / 1000);
    for (int i = 0; i < GAMES; i++) assert_true(gp[i].over); /* no game stuck */
    for (int i = 0; i < GAMES; i++) check_game(&gp[i]);
    assert_true(before >= 150); /* the kill came during the burst, not after it */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spectator_sees_a_move_of_another_node_within_100ms),
        cmocka_unit_test(test_lobby_lists_the_games_of_every_node),
        cmocka_unit_test(test_kill_9_of_a_node_loses_no_acknowledged_move),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
