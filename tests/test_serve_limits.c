/* test_serve_limits.c: kontor serve under each abuse of issue 15, scaled to CI: a game still moves, memory stays bounded.
 *
 * Each test starts the real server ($KONTOR serve --port 0, a fresh
 * database: tests/srvutil.h) with the limit under test set small where that
 * makes the test quick, and runs one abuse: a thousand idle sockets, frames
 * that announce a gigabyte, a spectator that never reads, a burst of game
 * creations, a hundred games of computers only, peers that stop answering.
 * While it runs, a probe (two people playing a game over two WebSockets)
 * plays moves and measures each move from sending it to its acknowledgement:
 * the test asserts the p99 is under PROBE_P99_MS and that the server's
 * resident memory (its /api/stats) stays under RSS_MAX_KIB. Before the event
 * loop (civetweb, a thread a connection) the idle sockets stopped every
 * request, the gigabyte frame was buffered, the silent spectator froze its
 * game for ~45 s and the computer games made a person's opponent answer
 * after 49 s.
 */
#define _GNU_SOURCE /* strcasestr */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "srvutil.h"

/* A bound on starvation, not a speed figure (speed is the load test's,
 * docs/server.md): the probe's p99 is 0.2-4 ms on this machine when idle,
 * and the failures these tests guard against froze a game for 45-49 s.
 * 100 ms failed now and then at a load average of ~10 (110.9 ms, the
 * fourteenth session: eight sessions sharing two cores), which says
 * nothing about the server; one second is 250 times the idle p99 and 45
 * times below the smallest freeze guarded against. */
#define PROBE_P99_MS 1000.0
#define RSS_MAX_KIB (96 * 1024)

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void sleep_ms(int ms) { nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000L}, NULL); }

/* The server with the options extra (NULL-terminated) after srvutil.h's. */
static srv start_with(const char *const *extra) { return start_opts(kontor_bin(), NULL, NULL, extra); }

/* srvutil.h's setup, and as many open files as allowed (a thousand idle
 * sockets), and a write to a closed socket an error, not a signal. */
static int limits_setup(void **state) {
    setup(state);
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    signal(SIGPIPE, SIG_IGN);
    return 0;
}

static long rss_kib(const srv *s) {
    int st;
    json_t *o = http_json(s, "GET", "/api/stats", NULL, &st);
    long k = st == 200 ? (long)json_integer_value(json_object_get(o, "rss_kib")) : -1;
    json_decref(o);
    return k;
}

static long games_in_memory(const srv *s) {
    int st;
    json_t *o = http_json(s, "GET", "/api/stats", NULL, &st);
    long k = st == 200 ? (long)json_integer_value(json_object_get(o, "games")) : -1;
    json_decref(o);
    return k;
}

/* Read frames until a JSON message of type arrives (a new reference; NULL on
 * timeout or close). srvutil.h's until() reads a cl; this one a bare socket. */
static json_t *wait_for(wsc *w, const char *type, int timeout_ms, int *closed) {
    double end = now_ms() + timeout_ms;
    for (;;) {
        int left = (int)(end - now_ms());
        if (left <= 0) return NULL;
        int op;
        char *m;
        size_t len;
        int r = wsc_recv(w, left, &op, &m, &len);
        if (r <= 0) {
            if (r < 0 && closed) *closed = 1;
            return NULL;
        }
        if (op == 8) {
            free(m);
            if (closed) *closed = 1;
            return NULL;
        }
        json_t *o = json_loadb(m, len, 0, NULL);
        free(m);
        const char *t = json_string_value(json_object_get(o, "type"));
        if (t && strcmp(t, type) == 0) return o;
        json_decref(o);
    }
}

/* ---- the probe: two people play; each move timed ----------------------------------------- */

typedef struct probe {
    wsc p[2];
    json_t *st[2];
    double lat[4096];
    int n;
    long id;
} probe;

static void probe_join(probe *pr, const srv *s, json_t *g, int seat) {
    char err[128], msg[256];
    assert_int_equal(wsc_connect(&pr->p[seat], "127.0.0.1", s->port, "/ws", err, sizeof err), 0);
    json_t *seats = json_object_get(g, "seats");
    snprintf(msg, sizeof msg, "{\"type\":\"join\",\"game\":\"%s\",\"token\":\"%s\"}",
             json_string_value(json_object_get(g, "id")),
             json_string_value(json_object_get(json_array_get(seats, (size_t)seat), "token")));
    assert_int_equal(wsc_send(&pr->p[seat], 1, msg, strlen(msg)), 0);
    json_decref(wait_for(&pr->p[seat], "welcome", 5000, NULL));
    pr->st[seat] = wait_for(&pr->p[seat], "state", 5000, NULL);
    assert_non_null(pr->st[seat]);
}

static void probe_start(probe *pr, const srv *s) {
    memset(pr, 0, sizeof *pr);
    int st;
    json_t *g = http_json(s, "POST", "/api/games", "{\"seats\":[\"human\",\"human\"]}", &st);
    assert_int_equal(st, 201);
    probe_join(pr, s, g, 0);
    probe_join(pr, s, g, 1);
    json_decref(g);
}

/* Newest state of seat i, reading what is pending (up to ms). */
static void probe_drain(probe *pr, int i, int ms) {
    json_t *o;
    while ((o = wait_for(&pr->p[i], "state", ms, NULL))) {
        json_decref(pr->st[i]);
        pr->st[i] = o;
        ms = 0;
    }
}

/* Play up to k moves (whoever owes one), timing each; returns moves made. */
static int probe_play(probe *pr, int k) {
    int made = 0;
    for (int tries = 0; made < k && tries < 4 * k + 8; tries++) {
        for (int i = 0; i < 2 && made < k; i++) {
            probe_drain(pr, i, 0);
            if (json_is_true(json_object_get(pr->st[i], "over"))) return made;
            json_t *legal = json_object_get(pr->st[i], "legal");
            if (!json_array_size(legal)) continue;
            json_int_t m = json_integer_value(json_object_get(json_array_get(legal, 0), "m"));
            char msg[96];
            long want = ++pr->id;
            snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":%lld,\"id\":%ld}", (long long)m, want);
            double t0 = now_ms();
            assert_int_equal(wsc_send(&pr->p[i], 1, msg, strlen(msg)), 0);
            for (;;) {
                json_t *o = wait_for(&pr->p[i], "state", 5000, NULL);
                assert_non_null(o); /* acknowledged within 5 s at all */
                json_decref(pr->st[i]);
                pr->st[i] = o;
                if (json_integer_value(json_object_get(o, "ack")) == want) break;
            }
            if (pr->n < 4096) pr->lat[pr->n++] = now_ms() - t0;
            made++;
        }
        probe_drain(pr, 0, 2);
        probe_drain(pr, 1, 2);
    }
    return made;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double probe_p99(probe *pr) {
    assert_true(pr->n >= 10);
    double *c = malloc(sizeof(double) * (size_t)pr->n);
    memcpy(c, pr->lat, sizeof(double) * (size_t)pr->n);
    qsort(c, (size_t)pr->n, sizeof *c, cmp_d);
    double p = c[(int)(pr->n * 0.99)];
    free(c);
    printf("    probe: %d moves, p99 %.1f ms\n", pr->n, p);
    return p;
}

static void probe_end(probe *pr) {
    for (int i = 0; i < 2; i++) {
        wsc_close(&pr->p[i]);
        json_decref(pr->st[i]);
    }
}

/* A raw WebSocket that upgrades and then does nothing. */
static int idle_socket(const srv *s) {
    wsc w;
    char err[128];
    if (wsc_connect(&w, "127.0.0.1", s->port, "/ws", err, sizeof err) != 0) return -1;
    int fd = w.fd;
    free(w.buf);
    return fd;
}

/* 1 if the server has closed fd (reads to the end, discarding). */
static int peer_closed(int fd, int wait_ms) {
    char buf[4096];
    double end = now_ms() + wait_ms;
    for (;;) {
        struct pollfd pf = {fd, POLLIN, 0};
        int left = (int)(end - now_ms());
        if (poll(&pf, 1, left > 0 ? left : 0) <= 0) return 0;
        ssize_t r = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
        if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) return 1;
    }
}

/* ---- tests ------------------------------------------------------------------- */

/* 1,000 WebSockets that upgrade and never join (civetweb: 255 took every
 * thread and every request timed out). They cost the loop nothing, the probe
 * plays, and --join-timeout closes them all with a join_timeout error. */
static void test_idle_sockets_are_closed_and_do_not_starve_players(void **state) {
    (void)state;
    const char *opts[] = {"--conns-per-addr", "0", "--join-timeout", "3", NULL};
    srv s = start_with(opts);
    probe pr;
    probe_start(&pr, &s);
    enum { N = 1000 };
    static int fds[N];
    for (int i = 0; i < N; i++) {
        fds[i] = idle_socket(&s);
        assert_true(fds[i] >= 0);
    }
    assert_int_equal(probe_play(&pr, 30), 30);
    int st;
    json_t *list = http_json(&s, "GET", "/api/games", NULL, &st);
    assert_int_equal(st, 200); /* HTTP is served too */
    json_decref(list);
    assert_true(probe_play(&pr, 20) > 0);
    assert_true(probe_p99(&pr) < PROBE_P99_MS);
    long rss = rss_kib(&s);
    printf("    server memory with %d idle sockets: %ld KiB\n", N, rss);
    assert_true(rss > 0 && rss < RSS_MAX_KIB);
    /* within the join timeout (3 s) and the sweep (1 s), every idle one is closed; the players are not */
    int closed = 0;
    for (int i = 0; i < N; i++) {
        int k = peer_closed(fds[i], i == 0 ? 8000 : 3000);
        if (!k) printf("    idle socket %d was not closed\n", i);
        closed += k;
    }
    assert_int_equal(closed, N);
    for (int i = 0; i < N; i++) close(fds[i]);
    assert_true(probe_play(&pr, 5) > 0);
    probe_end(&pr);
    stop(&s, SIGTERM);
}

/* One address may hold --conns-per-addr connections; the next is refused
 * with 429 and a message naming the limit. */
static void test_connections_per_address_are_capped(void **state) {
    (void)state;
    const char *opts[] = {"--conns-per-addr", "20", NULL};
    srv s = start_with(opts);
    int fds[20];
    for (int i = 0; i < 19; i++) fds[i] = idle_socket(&s); /* the 20th: the refused request's own */
    for (int i = 0; i < 19; i++) assert_true(fds[i] >= 0);
    sleep_ms(100);
    char *resp = NULL;
    int st = http_request("127.0.0.1", s.port, "GET", "/api/games", NULL, &resp);
    /* 19 idle plus this one: 20, allowed */
    assert_int_equal(st, 200);
    free(resp);
    sleep_ms(100);
    fds[19] = idle_socket(&s);
    assert_true(fds[19] >= 0);
    sleep_ms(100);
    st = http_request("127.0.0.1", s.port, "GET", "/api/games", NULL, &resp);
    assert_int_equal(st, 429);
    assert_non_null(strstr(resp, "--conns-per-addr"));
    free(resp);
    for (int i = 0; i < 20; i++) close(fds[i]);
    sleep_ms(100);
    st = http_request("127.0.0.1", s.port, "GET", "/api/games", NULL, &resp);
    assert_int_equal(st, 200);
    free(resp);
    stop(&s, SIGTERM);
}

/* A JSON object body of exactly n bytes: {"seats":["human","human"],"pad":"xxx..."}. */
static char *body_of(size_t n) {
    const char *head = "{\"seats\":[\"human\",\"human\"],\"pad\":\"", *tail = "\"}";
    size_t h = strlen(head), t = strlen(tail);
    assert_true(n >= h + t);
    char *b = malloc(n + 1);
    memcpy(b, head, h);
    memset(b + h, 'x', n - h - t);
    memcpy(b + n - t, tail, t + 1);
    return b;
}

/* A request body of --msg-max + 1 bytes to POST /api/games, to the rematch
 * and to the takeback is refused with 413 and code too_large (the transport
 * reads no more than --msg-max; api.c's body_object() checks the same for
 * the handlers, test_api_body.c); one of --msg-max bytes is read. */
static void test_request_bodies_over_msg_max_are_refused_with_413(void **state) {
    (void)state;
    const char *opts[] = {"--msg-max", "1024", NULL};
    srv s = start_with(opts);
    int st;
    json_t *g = http_json(&s, "POST", "/api/games", "{\"seats\":[\"human\",\"human\"]}", &st);
    assert_int_equal(st, 201);
    char rematch[64], takeback[64];
    snprintf(rematch, sizeof rematch, "/api/games/%s/rematch", game_id(g));
    snprintf(takeback, sizeof takeback, "/api/games/%s/takeback", game_id(g));
    const char *paths[] = {"/api/games", rematch, takeback};
    char *over = body_of(1025), *at = body_of(1024);
    for (int i = 0; i < 3; i++) {
        json_t *e = http_json(&s, "POST", paths[i], over, &st);
        assert_int_equal(st, 413);
        assert_string_equal(json_string_value(json_object_get(e, "code")), "too_large");
        json_decref(e);
        /* exactly --msg-max: read and answered by the handler */
        e = http_json(&s, "POST", paths[i], at, &st);
        assert_int_not_equal(st, 413);
        json_decref(e);
    }
    free(over);
    free(at);
    json_decref(g);
    stop(&s, SIGTERM);
}

/* Ten sockets each send a frame header announcing 1 GB and some of its
 * payload (civetweb buffered each to its announced size: 10 sockets, 12 GB
 * of address space). Each is refused from the header with too_large and
 * closed; the server's memory does not move; the probe plays. */
static void test_frames_announcing_a_gigabyte_are_refused_from_the_header(void **state) {
    (void)state;
    srv s = start_with(NULL);
    probe pr;
    probe_start(&pr, &s);
    long rss0 = rss_kib(&s);
    enum { N = 10 };
    wsc w[N];
    char *chunk = calloc(1, 256 * 1024);
    for (int i = 0; i < N; i++) {
        char err[128];
        assert_int_equal(wsc_connect(&w[i], "127.0.0.1", s.port, "/ws", err, sizeof err), 0);
        unsigned char head[14] = {0x81, 0xFF, 0, 0, 0, 0, 0x40, 0, 0, 0, 1, 2, 3, 4}; /* 2^30 bytes, masked */
        assert_int_equal(wsc_send_raw(&w[i], head, sizeof head), 0);
        (void)!send(w[i].fd, chunk, 256 * 1024, MSG_DONTWAIT | MSG_NOSIGNAL);
    }
    free(chunk);
    for (int i = 0; i < N; i++) {
        int closed = 0;
        json_t *e = wait_for(&w[i], "error", 5000, &closed);
        assert_non_null(e);
        assert_string_equal(json_string_value(json_object_get(e, "code")), "too_large");
        assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "1073741824 bytes"));
        json_decref(e);
        json_decref(wait_for(&w[i], "-", 3000, &closed));
        assert_true(closed);
        wsc_close(&w[i]);
    }
    assert_int_equal(probe_play(&pr, 40), 40);
    assert_true(probe_p99(&pr) < PROBE_P99_MS);
    long rss1 = rss_kib(&s);
    printf("    server memory %ld KiB before, %ld KiB after ten 1 GB frames\n", rss0, rss1);
    assert_true(rss1 - rss0 < 16 * 1024);
    probe_end(&pr);
    stop(&s, SIGTERM);
}

/* A spectator that never reads (civetweb: its blocked write held the game's
 * lock, freezing the game and the lobby for ~45 s). Its queue passes
 * --out-max and it is dropped; the players never wait for it. */
static void test_a_reader_that_never_reads_is_dropped(void **state) {
    (void)state;
    const char *opts[] = {"--out-max", "4096", NULL};
    srv s = start_with(opts);
    probe pr;
    probe_start(&pr, &s);
    int st;
    json_t *list = http_json(&s, "GET", "/api/games", NULL, &st);
    const char *id = json_string_value(json_object_get(json_array_get(json_object_get(list, "running"), 0), "id"));
    assert_non_null(id);
    char gid[40];
    snprintf(gid, sizeof gid, "%s", id);
    json_decref(list);
    /* a small receive buffer so that the kernel holds little for it */
    wsc sp;
    char err[128];
    assert_int_equal(wsc_connect(&sp, "127.0.0.1", s.port, "/ws", err, sizeof err), 0);
    int small = 4096;
    setsockopt(sp.fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    char msg[128];
    snprintf(msg, sizeof msg, "{\"type\":\"watch\",\"game\":\"%s\"}", gid);
    assert_int_equal(wsc_send(&sp, 1, msg, strlen(msg)), 0);
    char path[64];
    snprintf(path, sizeof path, "/api/games/%s", gid);
    int dropped = 0;
    for (int round = 0; round < 40 && !dropped; round++) {
        if (probe_play(&pr, 4) == 0) break;
        json_t *sum = http_json(&s, "GET", path, NULL, &st);
        assert_int_equal(st, 200); /* the lobby answers all along */
        dropped = json_integer_value(json_object_get(sum, "spectators")) == 0;
        json_decref(sum);
    }
    assert_true(dropped);
    assert_true(probe_play(&pr, 10) > 0);
    assert_true(probe_p99(&pr) < PROBE_P99_MS);
    assert_true(peer_closed(sp.fd, 3000));
    wsc_close(&sp);
    assert_true(rss_kib(&s) < RSS_MAX_KIB);
    probe_end(&pr);
    stop(&s, SIGTERM);
}

/* A burst of creations from one address: --create-per-min pass, then 429
 * with retry_after (3,000 games in 3.7 s before, none refused). */
static void test_a_burst_of_creations_is_refused_with_retry_after(void **state) {
    (void)state;
    srv s = start_with(NULL); /* the default: 30 a minute */
    probe pr;
    probe_start(&pr, &s); /* one of the 30 */
    int created = 0, refused = 0, retry = 0;
    double t0 = now_ms();
    for (int i = 0; i < 100; i++) {
        int st;
        json_t *o = http_json(&s, "POST", "/api/games", "{\"seats\":[\"human\",\"human\"]}", &st);
        if (st == 201) created++;
        if (st == 429) {
            refused++;
            retry = (int)json_integer_value(json_object_get(o, "retry_after"));
            assert_non_null(strstr(json_string_value(json_object_get(o, "error")), "--create-per-min"));
        }
        json_decref(o);
    }
    /* 29 of the first 30 (the probe took one), and the bucket refills at
     * 0.5 a second while the burst lasts */
    double secs = (now_ms() - t0) / 1000.0;
    printf("    %d created, %d refused in %.1f s\n", created, refused, secs);
    assert_true(created >= 29 && created <= 30 + (int)(secs / 2.0) + 1);
    assert_int_equal(refused, 100 - created);
    assert_true(retry >= 1 && retry <= 60);
    assert_int_equal(probe_play(&pr, 30), 30);
    assert_true(probe_p99(&pr) < PROBE_P99_MS);
    probe_end(&pr);
    stop(&s, SIGTERM);
}

/* Games of computers only: refused by default past --ai-games (4), off
 * with 0; when allowed (here 100 hard games), they wait behind games with a
 * person in the AI queue: a person's easy opponent still answers at once
 * (49 s behind 40 such games before). */
static void test_computer_only_games_are_limited_and_wait_behind_people(void **state) {
    (void)state;
    const char *body = "{\"seats\":[\"hard\",\"hard\",\"hard\",\"hard\"],\"variant\":\"four\"}";
    int st;
    {
        srv s = start_with(NULL);
        for (int i = 0; i < 4; i++) json_decref(http_json(&s, "POST", "/api/games", body, &st)), assert_int_equal(st, 201);
        json_t *e = http_json(&s, "POST", "/api/games", body, &st);
        assert_int_equal(st, 429);
        assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "--ai-games"));
        json_decref(e);
        stop(&s, SIGTERM);
    }
    {
        const char *off[] = {"--ai-games", "0", NULL};
        srv s = start_with(off);
        json_t *e = http_json(&s, "POST", "/api/games", body, &st);
        assert_int_equal(st, 403);
        json_decref(e);
        stop(&s, SIGTERM);
    }
    const char *opts[] = {"--ai-games", "100", "--create-per-min", "0", "--ai-threads", "2", NULL};
    snprintf(dbpath, sizeof dbpath, "%s/games2.db", tmpdir); /* not the four games above */
    srv s = start_with(opts);
    for (int i = 0; i < 100; i++) {
        json_t *o = http_json(&s, "POST", "/api/games", body, &st);
        if (st != 201) printf("    game %d: HTTP %d: %s\n", i, st, json_string_value(json_object_get(o, "error")));
        json_decref(o);
        assert_int_equal(st, 201);
    }
    probe pr;
    probe_start(&pr, &s);
    /* a person against easy: each of the computer's answers comes quickly */
    json_t *g = http_json(&s, "POST", "/api/games", "{\"seats\":[\"human\",\"easy\"]}", &st);
    assert_int_equal(st, 201);
    wsc h;
    char err[128], msg[256];
    assert_int_equal(wsc_connect(&h, "127.0.0.1", s.port, "/ws", err, sizeof err), 0);
    snprintf(msg, sizeof msg, "{\"type\":\"join\",\"game\":\"%s\",\"token\":\"%s\"}",
             json_string_value(json_object_get(g, "id")),
             json_string_value(json_object_get(json_array_get(json_object_get(g, "seats"), 0), "token")));
    wsc_send(&h, 1, msg, strlen(msg));
    json_decref(g);
    /* the person makes 10 decisions, each as soon as offered: the time is
     * the computer's answers in between (and the loop's own work) */
    int made = 0;
    double t0 = now_ms();
    json_t *last = wait_for(&h, "state", 5000, NULL);
    while (last && made < 10 && !json_is_true(json_object_get(last, "over")) && now_ms() - t0 < 30000) {
        json_t *legal = json_object_get(last, "legal");
        if (json_array_size(legal)) {
            snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":%lld}",
                     (long long)json_integer_value(json_object_get(json_array_get(legal, 0), "m")));
            wsc_send(&h, 1, msg, strlen(msg));
            made++;
        }
        json_decref(last);
        last = wait_for(&h, "state", 10000, NULL);
    }
    json_decref(last);
    wsc_close(&h);
    double took = now_ms() - t0;
    printf("    a person's 10 decisions against easy, behind 100 hard games: %.0f ms\n", took);
    assert_int_equal(made, 10);
    assert_true(took < 5000);
    assert_int_equal(probe_play(&pr, 30), 30);
    assert_true(probe_p99(&pr) < PROBE_P99_MS);
    assert_true(rss_kib(&s) < RSS_MAX_KIB);
    probe_end(&pr);
    stop(&s, SIGTERM);
}

/* A finished game leaves memory after --linger (the store keeps its record);
 * an open game nobody joined leaves after --open-ttl and is forgotten. */
static void test_finished_and_abandoned_games_leave_memory(void **state) {
    (void)state;
    const char *opts[] = {"--linger", "0", "--open-ttl", "2", NULL};
    srv s = start_with(opts);
    int st;
    json_t *fin = http_json(&s, "POST", "/api/games", "{\"seats\":[\"random\",\"random\"]}", &st);
    assert_int_equal(st, 201);
    json_t *open = http_json(&s, "POST", "/api/games", "{\"seats\":[\"human\",\"human\"]}", &st);
    assert_int_equal(st, 201);
    assert_int_equal(games_in_memory(&s), 2);
    char rec[96], orec[96];
    snprintf(rec, sizeof rec, "/api/games/%s/record", json_string_value(json_object_get(fin, "id")));
    snprintf(orec, sizeof orec, "/api/games/%s/record", json_string_value(json_object_get(open, "id")));
    long n = -1;
    for (int i = 0; i < 150 && n != 0; i++) {
        sleep_ms(200);
        n = games_in_memory(&s);
    }
    assert_int_equal(n, 0);
    char *resp = NULL;
    assert_int_equal(http_request("127.0.0.1", s.port, "GET", rec, NULL, &resp), 200);
    assert_non_null(strstr(resp, "[Result"));
    free(resp);
    assert_int_equal(http_request("127.0.0.1", s.port, "GET", orec, NULL, &resp), 404);
    free(resp);
    json_decref(fin);
    json_decref(open);
    stop(&s, SIGTERM);
}

/* A running game that nobody follows (no seat, no spectator connected)
 * leaves memory after --idle-evict seconds; the store has every decision,
 * and the first request for it, HTTP or WebSocket, loads it back: the same
 * position, the same hands, and it plays on to the end. 200 such games
 * leaving memory give their memory back (the figure is printed). Every game
 * keeps a connection until the count, so that a slow run (sanitizers) does
 * not see some leave early. */
static void test_a_running_game_nobody_follows_leaves_memory_and_comes_back(void **state) {
    (void)state;
    const char *opts[] = {"--idle-evict", "2", "--create-per-min", "0", "--conns-per-addr", "0", NULL};
    srv s = start_with(opts);
    int st;
    char err[128], msg[256];
    json_t *g = http_json(&s, "POST", "/api/games", "{\"seats\":[\"human\",\"human\"]}", &st);
    assert_int_equal(st, 201);
    const char *id = json_string_value(json_object_get(g, "id"));
    enum { MORE = 200 };
    wsc *held = calloc(MORE + 1, sizeof *held); /* held[MORE]: a spectator of g */
    assert_non_null(held);
    assert_int_equal(wsc_connect(&held[MORE], "127.0.0.1", s.port, "/ws", err, sizeof err), 0);
    snprintf(msg, sizeof msg, "{\"type\":\"watch\",\"game\":\"%s\"}", id);
    assert_int_equal(wsc_send(&held[MORE], 1, msg, strlen(msg)), 0);
    json_decref(wait_for(&held[MORE], "welcome", 5000, NULL));
    /* 200 more games, each with a seat joined */
    char newest[40] = "";
    for (int k = 0; k < MORE; k++) {
        json_t *o = http_json(&s, "POST", "/api/games", "{\"seats\":[\"human\",\"human\"]}", &st);
        assert_int_equal(st, 201);
        snprintf(newest, sizeof newest, "%s", json_string_value(json_object_get(o, "id")));
        assert_int_equal(wsc_connect(&held[k], "127.0.0.1", s.port, "/ws", err, sizeof err), 0);
        snprintf(msg, sizeof msg, "{\"type\":\"join\",\"game\":\"%s\",\"token\":\"%s\"}", newest,
                 json_string_value(json_object_get(json_array_get(json_object_get(o, "seats"), 0), "token")));
        assert_int_equal(wsc_send(&held[k], 1, msg, strlen(msg)), 0);
        json_decref(wait_for(&held[k], "welcome", 5000, NULL));
        json_decref(o);
    }
    probe pr;
    memset(&pr, 0, sizeof pr);
    probe_join(&pr, &s, g, 0);
    probe_join(&pr, &s, g, 1);
    assert_int_equal(probe_play(&pr, 12), 12);
    probe_end(&pr);
    /* what each seat sees now, from a fresh join (every event since the deal) */
    json_t *before[2];
    for (int i = 0; i < 2; i++) {
        memset(&pr, 0, sizeof pr);
        probe_join(&pr, &s, g, i);
        before[i] = json_incref(pr.st[i]);
        wsc_close(&pr.p[i]);
        json_decref(pr.st[i]);
    }
    long rss_full = rss_kib(&s), games_full = games_in_memory(&s);
    assert_int_equal(games_full, MORE + 1);
    for (int k = 0; k <= MORE; k++) wsc_close(&held[k]);
    free(held);
    long n = -1;
    for (int i = 0; i < 150 && n != 0; i++) {
        sleep_ms(200);
        n = games_in_memory(&s);
    }
    assert_int_equal(n, 0);
    long rss_empty = rss_kib(&s);
    printf("    201 running games in memory: %ld KiB; after they left: %ld KiB (%.1f KiB a game)\n", rss_full, rss_empty,
           (double)(rss_full - rss_empty) / 201);
#ifndef __SANITIZE_ADDRESS__ /* (AddressSanitizer keeps freed memory in quarantine) */
    assert_true(rss_empty < rss_full);
#endif
    /* the lobby still lists them (the newest 50) as running */
    json_t *lobby = http_json(&s, "GET", "/api/games", NULL, &st);
    assert_int_equal(st, 200);
    int listed = 0;
    size_t i;
    json_t *o;
    json_array_foreach(json_object_get(lobby, "running"), i, o) listed |= strcmp(json_string_value(json_object_get(o, "id")), newest) == 0;
    assert_true(listed);
    json_decref(lobby);
    /* HTTP brings it back, at the same decision */
    char path[96];
    snprintf(path, sizeof path, "/api/games/%s", id);
    json_t *sum = http_json(&s, "GET", path, NULL, &st);
    assert_int_equal(st, 200);
    assert_int_equal(json_integer_value(json_object_get(sum, "ply")), json_integer_value(json_object_get(before[0], "ply")));
    json_decref(sum);
    assert_int_equal(games_in_memory(&s), 1);
    /* each seat sees exactly what it saw before it left */
    memset(&pr, 0, sizeof pr);
    probe_join(&pr, &s, g, 0);
    probe_join(&pr, &s, g, 1);
    for (int k = 0; k < 2; k++) {
        json_t *a = json_deep_copy(before[k]), *b = json_deep_copy(pr.st[k]);
        json_object_del(a, "players"); /* who is connected differs */
        json_object_del(b, "players");
        assert_true(json_equal(a, b));
        json_decref(a);
        json_decref(b);
        json_decref(before[k]);
    }
    /* and the game plays on to its end */
    while (probe_play(&pr, 50) > 0) {
    }
    assert_true(json_is_true(json_object_get(pr.st[0], "over")) || json_is_true(json_object_get(pr.st[1], "over")));
    probe_end(&pr);
    json_decref(g);
    stop(&s, SIGTERM);
}

/* One HTTP response from fd: its status, its Connection header's value
 * into conn (empty if none); -1 when the peer closed first. */
static int read_response(int fd, char *conn, size_t conncap) {
    char buf[65536];
    size_t n = 0;
    char *end = NULL;
    while (!end) {
        struct pollfd pf = {fd, POLLIN, 0};
        if (poll(&pf, 1, 5000) <= 0 || n + 1 >= sizeof buf) return -1;
        ssize_t r = recv(fd, buf + n, 1, 0); /* a byte at a time: the next response stays in the socket */
        if (r <= 0) return -1;
        n += (size_t)r;
        buf[n] = 0;
        end = strstr(buf, "\r\n\r\n");
    }
    int status = atoi(buf + 9);
    const char *clen = strcasestr(buf, "\r\nContent-Length:");
    long len = clen ? atol(clen + 17) : 0;
    const char *cn = strcasestr(buf, "\r\nConnection:");
    conn[0] = 0;
    if (cn) sscanf(cn + 13, " %63[^\r]", conn);
    (void)conncap;
    for (long got = 0; got < len;) {
        ssize_t r = recv(fd, buf, (size_t)(len - got) < sizeof buf ? (size_t)(len - got) : sizeof buf, 0);
        if (r <= 0) return -1;
        got += r;
    }
    return status;
}

static int tcp_connect(const srv *s) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {0};
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)s->port);
    sa.sin_addr.s_addr = htonl(0x7f000001);
    assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    return fd;
}

/* HTTP keep-alive: several requests on one connection (one after the other,
 * and pipelined), at most --keepalive-max of them (the last answer says
 * "Connection: close" and the server closes), and a kept connection that
 * sends nothing more is closed after --keepalive seconds. "Connection:
 * close" from the client still closes after one answer. */
static void test_http_keep_alive_serves_several_requests_then_closes(void **state) {
    (void)state;
    const char *opts[] = {"--keepalive", "1", "--keepalive-max", "5", NULL};
    srv s = start_with(opts);
    static const char get[] = "GET /api/stats HTTP/1.1\r\nHost: k\r\n\r\n";
    char conn[64];
    int fd = tcp_connect(&s);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(send(fd, get, strlen(get), 0), (ssize_t)strlen(get));
        assert_int_equal(read_response(fd, conn, sizeof conn), 200);
        assert_string_equal(conn, "keep-alive");
    }
    /* two more, pipelined in one write: the fifth is the last */
    char two[256];
    snprintf(two, sizeof two, "%s%s", get, get);
    assert_int_equal(send(fd, two, strlen(two), 0), (ssize_t)strlen(two));
    assert_int_equal(read_response(fd, conn, sizeof conn), 200);
    assert_string_equal(conn, "keep-alive");
    assert_int_equal(read_response(fd, conn, sizeof conn), 200);
    assert_string_equal(conn, "close");
    assert_true(peer_closed(fd, 3000));
    close(fd);
    /* idle after an answer: closed after --keepalive (1 s), not at once */
    fd = tcp_connect(&s);
    assert_int_equal(send(fd, get, strlen(get), 0), (ssize_t)strlen(get));
    assert_int_equal(read_response(fd, conn, sizeof conn), 200);
    double t0 = now_ms();
    assert_false(peer_closed(fd, 500));
    assert_true(peer_closed(fd, 3000));
    printf("    an idle kept connection closed after %.0f ms (--keepalive 1)\n", now_ms() - t0);
    close(fd);
    /* the client's "Connection: close": one answer */
    fd = tcp_connect(&s);
    static const char once[] = "GET /api/stats HTTP/1.1\r\nHost: k\r\nConnection: close\r\n\r\n";
    assert_int_equal(send(fd, once, strlen(once), 0), (ssize_t)strlen(once));
    assert_int_equal(read_response(fd, conn, sizeof conn), 200);
    assert_string_equal(conn, "close");
    assert_true(peer_closed(fd, 3000));
    close(fd);
    stop(&s, SIGTERM);
}

/* Keep-alive: a WebSocket that stops answering pings is dropped after
 * --ping seconds more (its seat shows as not connected); one that answers
 * (wsclient.c pongs) stays. */
static void test_a_dead_peer_is_dropped_after_an_unanswered_ping(void **state) {
    (void)state;
    const char *opts[] = {"--ping", "1", NULL};
    srv s = start_with(opts);
    probe pr;
    probe_start(&pr, &s);
    /* the probe's black seat goes silent: it reads nothing, answers nothing;
     * red reads (and so pongs) all along */
    double t0 = now_ms();
    while (now_ms() - t0 < 6000) probe_drain(&pr, 0, 100);
    json_t *players = json_object_get(pr.st[0], "players");
    assert_true(json_is_true(json_object_get(json_array_get(players, 0), "connected")));
    assert_false(json_is_true(json_object_get(json_array_get(players, 1), "connected")));
    probe_end(&pr);
    stop(&s, SIGTERM);
}

/* The WAL is checkpointed and truncated while the server runs: after a few
 * thousand decisions (computer games) it stays under 4 MiB plus a margin. */
static void test_the_wal_stays_small_while_the_server_runs(void **state) {
    (void)state;
    const char *opts[] = {"--ai-games", "60", "--create-per-min", "0", "--ai-threads", "2", NULL};
    srv s = start_with(opts);
    int st;
    for (int i = 0; i < 60; i++) {
        json_decref(http_json(&s, "POST", "/api/games", "{\"seats\":[\"random\",\"random\",\"random\",\"random\"],\"variant\":\"four\"}", &st));
        assert_int_equal(st, 201);
    }
    char wal[160];
    snprintf(wal, sizeof wal, "%s-wal", dbpath);
    long biggest = 0;
    for (int i = 0; i < 100; i++) {
        struct stat sb;
        if (stat(wal, &sb) == 0 && sb.st_size > biggest) biggest = (long)sb.st_size;
        sleep_ms(100);
    }
    /* once the burst is over (every game ended: on a loaded machine the
     * computers take longer than the sampling above), the WAL file is cut
     * back to journal_size_limit (4 MiB) */
    int waited = 0;
    for (; waited < 240; waited++) {
        json_t *lobby = http_json(&s, "GET", "/api/games", NULL, &st);
        size_t going = json_array_size(json_object_get(lobby, "running"));
        json_decref(lobby);
        if (going == 0) break;
        sleep_ms(500);
    }
    sleep_ms(1000);
    struct stat sb;
    assert_int_equal(stat(wal, &sb), 0);
    printf("    largest WAL seen during the burst: %ld KiB; after it (its games over %d ms after the sampling): %ld KiB\n",
           biggest / 1024, waited * 500, (long)sb.st_size / 1024);
    assert_true(biggest < 64L * 1024 * 1024);
    assert_true(sb.st_size <= 4L * 1024 * 1024);
    stop(&s, SIGTERM);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_idle_sockets_are_closed_and_do_not_starve_players, limits_setup, teardown),
        cmocka_unit_test_setup_teardown(test_connections_per_address_are_capped, limits_setup, teardown),
        cmocka_unit_test_setup_teardown(test_frames_announcing_a_gigabyte_are_refused_from_the_header, limits_setup, teardown),
        cmocka_unit_test_setup_teardown(test_request_bodies_over_msg_max_are_refused_with_413, limits_setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_reader_that_never_reads_is_dropped, limits_setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_burst_of_creations_is_refused_with_retry_after, limits_setup, teardown),
        cmocka_unit_test_setup_teardown(test_computer_only_games_are_limited_and_wait_behind_people, limits_setup, teardown),
        cmocka_unit_test_setup_teardown(test_finished_and_abandoned_games_leave_memory, limits_setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_running_game_nobody_follows_leaves_memory_and_comes_back, limits_setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_http_keep_alive_serves_several_requests_then_closes, limits_setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_dead_peer_is_dropped_after_an_unanswered_ping, limits_setup, teardown),
        cmocka_unit_test_setup_teardown(test_the_wal_stays_small_while_the_server_runs, limits_setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
