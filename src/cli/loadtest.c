/* loadtest.c: kontor loadtest: many concurrent games against kontor serve over loopback.
 *
 * A benchmark, not a test: it starts a server of its own (this binary's
 * `serve`, on a free port, with a fresh database in a temporary directory)
 * unless --port names a running one, creates --games games with two human
 * seats, opens one WebSocket per seat (2 per game) and plays every game to
 * its end with random legal decisions, all from one thread with epoll. A
 * move's latency is the time from sending it to receiving the state that
 * acknowledges it (the server echoes the move's "id" as "ack" once it is
 * applied and stored), read off the socket: each round of poll() reads
 * every ready socket first and parses afterwards, so the client's own JSON
 * work on other sockets does not count as the server's latency. Memory per game is the growth of the server's
 * resident set (its /api/stats) from before the games to when every game is
 * created and both its seats connected, divided by the games: it includes
 * the connections' buffers; it is measured again once every game has ended
 * (the server started here forgets finished games at once: --linger 0).
 * Server CPU is its /api/stats cpu_ms over the playing time. --spectators N
 * watch games (round robin) and read everything; --idle N sockets upgrade
 * and never join (the server closes them after its --join-timeout).
 *
 * The client must not be what it measures: it runs on the same cores as the
 * server, and its own lag (a reply read late because this thread was busy
 * or descheduled) counts in the latency it reports. So it parses nothing it
 * does not need: a small scanner finds the few top-level fields of a
 * message ("type", "ack", "over", "legal"'s "m"s, "code", "id") without
 * building a tree, frames are taken in place from the receive buffer, and
 * the moves waiting for their think time sit in a heap ordered by when they
 * are due. It prints its own CPU and the longest of its own turns, and,
 * beside its figure, the server's own view of the same interval (its
 * /api/stats latency histograms, latency.h: a decision from the kernel's
 * receive timestamp to its acknowledgement written, the wait of bytes for
 * the loop, the loop's turns), so a reader can tell the server's lag from
 * the client's.
 */
#include <errno.h>
#include <sys/epoll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "server/latency.h"
#include "server/wsclient.h"

static const char *help =
    "usage: kontor loadtest [--games N] [--think MS] [--spectators N] [--idle N] [--port P] [--seed S]\n"
    "                       [--seconds T] [--web DIR]\n"
    "\n"
    "Plays N concurrent games (default 1000; two WebSockets each) against a\n"
    "kontor serve over loopback with random legal moves and prints moves per\n"
    "second, the p50/p99/max latency of a move and the server's memory per\n"
    "game. Without --port it starts its own server (this binary, a free port,\n"
    "a temporary database) and stops it at the end. --seconds bounds the run\n"
    "(default 300). --think MS: each player waits a random 0..2*MS ms before\n"
    "each decision, as people do (default 0: as fast as possible, which\n"
    "measures the saturated server and so queueing, not service time).\n"
    "--spectators N: N more sockets watch the games (round robin) and read\n"
    "every state. --idle N: N more sockets upgrade to WebSocket and never\n"
    "join (the server closes them after its --join-timeout). It prints the\n"
    "server's CPU (its own count) over the playing time and its memory a game\n"
    "with every game connected and after every game has ended; beside its own\n"
    "latency, the server's own figures for the same time (/api/stats: a\n"
    "decision from its arrival to its acknowledgement written, the wait of\n"
    "reads, the loop's turns) and this client's CPU, so that the client's lag\n"
    "can be told from the server's. The playing time starts once every player\n"
    "has the state of its join.\n";

enum { PLAYER, SPECTATOR, IDLE };

typedef struct client {
    wsc w;
    int kind;
    int game, seat;
    int pending;      /* a move sent, not yet acknowledged */
    long id;          /* id of that move */
    double sent_at;
    int over;
    long next_move;   /* decided, waiting for its think time; -1 none */
    double due;
    long got;         /* this round's wsc_fill */
    double read_at;   /* when it returned */
    /* the newest state's legal decisions (several nodes: a move refused as
     * stale is retried on it); has_state: one was received */
    int *legal, nlegal, caplegal, has_state;
} client;

/* ---- the few fields of a message, without a tree ---------------------------------------- */

static const char *skip_ws(const char *p, const char *e) {
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/* The end of the JSON value at p (a string, an object or array with
 * everything in it, or a scalar), or NULL when it runs past e. */
static const char *skip_value(const char *p, const char *e) {
    int depth = 0;
    if (p < e && *p != '"' && *p != '{' && *p != '[') {
        while (p < e && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\n') p++;
        return p;
    }
    while (p < e) {
        char ch = *p;
        if (ch == '"') {
            for (p++; p < e && *p != '"'; p++)
                if (*p == '\\') p++;
            if (p >= e) return NULL;
            p++;
            if (!depth) return p;
            continue;
        }
        if (ch == '{' || ch == '[') {
            depth++;
        } else if (ch == '}' || ch == ']') {
            if (--depth <= 0) return depth < 0 ? NULL : p + 1;
        }
        p++;
    }
    return NULL;
}

/* The top-level fields loadtest reads; each value as [v, ve) or NULL. */
typedef struct fields {
    const char *type, *type_e, *ack, *ack_e, *over, *over_e, *legal, *legal_e, *code, *code_e, *id, *id_e, *error,
        *error_e;
} fields;

static int key_is(const char *k, size_t n, const char *name) { return strlen(name) == n && memcmp(k, name, n) == 0; }

/* One pass over a message's top-level object; 0 when it is not one. */
static int scan_fields(const char *m, size_t len, fields *f) {
    memset(f, 0, sizeof *f);
    const char *p = skip_ws(m, m + len), *e = m + len;
    if (p >= e || *p != '{') return 0;
    p = skip_ws(p + 1, e);
    while (p < e && *p == '"') {
        const char *k = p + 1, *ke = memchr(k, '"', (size_t)(e - k)); /* our keys have no escapes */
        if (!ke) return 0;
        p = skip_ws(ke + 1, e);
        if (p >= e || *p != ':') return 0;
        const char *v = skip_ws(p + 1, e), *ve = skip_value(v, e);
        if (!ve) return 0;
        size_t kn = (size_t)(ke - k);
        const char **slot = key_is(k, kn, "type")    ? &f->type
                            : key_is(k, kn, "ack")   ? &f->ack
                            : key_is(k, kn, "over")  ? &f->over
                            : key_is(k, kn, "legal") ? &f->legal
                            : key_is(k, kn, "code")  ? &f->code
                            : key_is(k, kn, "id")    ? &f->id
                            : key_is(k, kn, "error") ? &f->error
                                                     : NULL;
        if (slot) {
            slot[0] = v;
            slot[1] = ve;
        }
        p = skip_ws(ve, e);
        if (p < e && *p == ',') p = skip_ws(p + 1, e);
        else break;
    }
    return 1;
}

static int val_is(const char *v, const char *ve, const char *text) {
    return v && (size_t)(ve - v) == strlen(text) && memcmp(v, text, (size_t)(ve - v)) == 0;
}

/* An integer value, or -1 when v is not one. */
static long val_int(const char *v, const char *ve) {
    if (!v || v >= ve || *v < '0' || *v > '9') return -1;
    long x = 0;
    for (; v < ve && *v >= '0' && *v <= '9'; v++) x = x * 10 + (*v - '0');
    return x;
}

/* The "m" of every entry of a "legal" array into c->legal; 0, or -1 out of memory. */
static int take_legal(client *c, const char *v, const char *e) {
    c->nlegal = 0;
    c->has_state = 1;
    if (!v || *v != '[') return 0;
    const char *p = skip_ws(v + 1, e);
    while (p < e && *p == '{') {
        const char *end = skip_value(p, e);
        if (!end) return 0;
        long mv = -1;
        const char *q = skip_ws(p + 1, end);
        while (q < end && *q == '"') {
            const char *k = q + 1, *ke = memchr(k, '"', (size_t)(end - k));
            if (!ke) break;
            const char *x = skip_ws(ke + 1, end);
            if (x < end && *x == ':') x = skip_ws(x + 1, end);
            const char *xe = skip_value(x, end);
            if (!xe) break;
            if (key_is(k, (size_t)(ke - k), "m")) {
                mv = val_int(x, xe);
                break;
            }
            q = skip_ws(xe, end);
            if (q < end && *q == ',') q = skip_ws(q + 1, end);
        }
        if (mv >= 0) {
            if (c->nlegal == c->caplegal) {
                int cap = c->caplegal ? 2 * c->caplegal : 32;
                int *l = realloc(c->legal, sizeof *l * (size_t)cap);
                if (!l) return -1;
                c->legal = l;
                c->caplegal = cap;
            }
            c->legal[c->nlegal++] = (int)mv;
        }
        p = skip_ws(end, e);
        if (p < e && *p == ',') p = skip_ws(p + 1, e);
    }
    return 0;
}

/* ---- the moves waiting for their think time: a binary heap by due time ------------------ */

typedef struct dueheap {
    int *a;
    long n;
} dueheap;

static void heap_push(dueheap *h, const client *cl, int i) {
    long k = h->n++;
    while (k > 0) {
        long up = (k - 1) / 2;
        if (cl[h->a[up]].due <= cl[i].due) break;
        h->a[k] = h->a[up];
        k = up;
    }
    h->a[k] = i;
}

static int heap_pop(dueheap *h, const client *cl) {
    int top = h->a[0], last = h->a[--h->n];
    long k = 0;
    for (;;) {
        long l = 2 * k + 1, r = l + 1, m = k;
        double dm = cl[last].due;
        if (l < h->n && cl[h->a[l]].due < dm) m = l, dm = cl[h->a[l]].due;
        if (r < h->n && cl[h->a[r]].due < dm) m = r;
        if (m == k) break;
        h->a[k] = h->a[m];
        k = m;
    }
    if (h->n) h->a[k] = last;
    return top;
}

/* ---- the server's own figures: its latency histograms between two readings ------------- */

typedef struct srvlat {
    uint64_t b[3][LAT_BUCKETS];
    int ok;
} srvlat;

static const char *const lat_names[3] = {"decision", "wait", "loop"};

static void server_lat(int port, srvlat *out) {
    memset(out, 0, sizeof *out);
    char *resp = NULL;
    if (http_request("127.0.0.1", port, "GET", "/api/stats", NULL, &resp) == 200) {
        json_t *o = json_loads(resp, 0, NULL), *l = json_object_get(o, "latency");
        for (int k = 0; k < 3; k++) {
            json_t *b = json_object_get(json_object_get(l, lat_names[k]), "buckets");
            for (size_t i = 0; i < json_array_size(b); i++) {
                json_int_t at = json_integer_value(json_array_get(json_array_get(b, i), 0));
                json_int_t n = json_integer_value(json_array_get(json_array_get(b, i), 1));
                if (at >= 0 && at < LAT_BUCKETS) out->b[k][at] = (uint64_t)n;
            }
            out->ok |= json_is_array(b);
        }
        json_decref(o);
    }
    free(resp);
}

/* "p50 X ms, p99 Y ms, max Z ms" of the counts in b (bucket upper edges). */
static void lat_line(const uint64_t *b, char *out, size_t cap) {
    uint64_t n = 0;
    int top = 0;
    for (int i = 0; i < LAT_BUCKETS; i++) {
        n += b[i];
        if (b[i]) top = i;
    }
    snprintf(out, cap, "p50 %.2f ms, p99 %.2f ms, max %.1f ms (%llu)", lat_quantile(b, n, 0.5) / 1e3,
             lat_quantile(b, n, 0.99) / 1e3, n ? lat_upper(top) / 1e3 : 0.0, (unsigned long long)n);
}

/* c picks a random legal decision of its newest state: sent now, or (with
 * think time) put in the heap until it is due. */
static void decide(client *c, client *cl, dueheap *heap, kontor_rng *rng, uint64_t think, long *nextid,
                   long *errors) {
    long mv = c->legal[kontor_rng_below(rng, (uint32_t)c->nlegal)];
    if (think) {
        c->next_move = mv;
        c->due = cli_now() + (double)kontor_rng_below(rng, (uint32_t)(2 * think + 1)) / 1000.0;
        heap_push(heap, cl, (int)(c - cl));
        return;
    }
    char msg[96];
    c->id = (*nextid)++;
    snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":%ld,\"id\":%ld}", mv, c->id);
    c->pending = 1;
    c->sent_at = cli_now();
    if (wsc_send(&c->w, 1, msg, strlen(msg)) != 0) (*errors)++;
}

static double cpu_self_s(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A field of the server's /api/stats ("rss_kib", "cpu_ms", "games"), or -1. */
static long server_stat(int port, const char *field) {
    char *resp = NULL;
    long v = -1;
    if (http_request("127.0.0.1", port, "GET", "/api/stats", NULL, &resp) == 200) {
        json_t *o = json_loads(resp, 0, NULL);
        json_t *f = json_object_get(o, field);
        if (json_is_integer(f)) v = (long)json_integer_value(f);
        json_decref(o);
    }
    free(resp);
    return v;
}

/* Start `kontor serve --port 0` and read its port from the first line. */
static pid_t start_server(const char *dir, const char *web, int threads, int *port) {
    int pfd[2];
    if (pipe(pfd) != 0) return -1;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        dup2(pfd[1], 1);
        close(pfd[0]);
        close(pfd[1]);
        char db[4200], th[16];
        snprintf(db, sizeof db, "%s/load.db", dir);
        snprintf(th, sizeof th, "%d", threads);
        /* the load comes from one address, as fast as it can: lift the
         * per-address limits; finished games leave memory at once */
        const char *argv[32] = {"kontor", "serve", "--port", "0", "--db", db, "--threads", th, "--quiet",
                                "--conns-per-addr", "0", "--create-per-min", "0", "--linger", "0",
                                "--max-conns", "100000"};
        int n = 17;
        if (web) {
            argv[n++] = "--web";
            argv[n++] = web;
        }
        argv[n] = NULL;
        execv("/proc/self/exe", (char **)argv);
        _exit(127);
    }
    close(pfd[1]);
    char line[256];
    size_t n = 0;
    while (n < sizeof line - 1) {
        ssize_t r = read(pfd[0], line + n, 1);
        if (r <= 0 || line[n] == '\n') break;
        n++;
    }
    line[n] = 0;
    close(pfd[0]);
    char *colon = strrchr(line, ':');
    *port = colon ? atoi(colon + 1) : 0;
    if (*port <= 0) {
        cli_error("loadtest: the server did not start ('%s')", line);
        kill(pid, SIGTERM);
        waitpid(pid, NULL, 0);
        return -1;
    }
    return pid;
}

int cmd_loadtest(int argc, char **argv) {
    uint64_t games = 1000, port = 0, seed = 1, seconds = 300, think = 0, nspect = 0, nidle = 0;
    const char *web = NULL;
    const cli_option opts[] = {{"--games", NULL, &games, 1, 20000},
                               {"--spectators", NULL, &nspect, 0, 20000},
                               {"--idle", NULL, &nidle, 0, 20000},
                               {"--port", NULL, &port, 0, 65535},
                               {"--seed", NULL, &seed, 0, UINT64_MAX},
                               {"--seconds", NULL, &seconds, 1, 86400},
                               {"--think", NULL, &think, 0, 60000},
                               {"--web", &web, NULL, 0, 0},
                               {NULL, NULL, NULL, 0, 0}};
    int parsed = cli_options("loadtest", argc, argv, help, opts);
    if (parsed) return parsed == 1 ? 0 : 2;
    int nplayers = (int)games * 2;
    int nclients = nplayers + (int)nspect + (int)nidle;
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)nclients + 64) {
        rl.rlim_cur = rl.rlim_max < (rlim_t)nclients + 64 ? rl.rlim_max : (rlim_t)nclients + 64;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    signal(SIGPIPE, SIG_IGN);
    char dir[] = "/tmp/kontor-load-XXXXXX";
    pid_t pid = -1;
    int p = (int)port;
    if (!port) {
        if (!mkdtemp(dir)) {
            cli_error("loadtest: cannot make a temporary directory");
            return 1;
        }
        pid = start_server(dir, web, nclients + 64 > 20000 ? 20000 : nclients + 64, &p);
        if (pid < 0) return 1;
    }
    int rc = 1;
    char (*gids)[16] = NULL;
    client *cl = calloc((size_t)nclients, sizeof *cl);
    double *lat = malloc(sizeof(double) * 4000000);
    /* epoll, not poll: poll() over thousands of sockets every few
     * milliseconds costs this client more CPU than the server spends, on
     * the cores the server shares with it */
    struct epoll_event *evs = calloc((size_t)nclients, sizeof *evs);
    int *ready = calloc((size_t)nclients, sizeof *ready);
    int ep = epoll_create1(0);
    long nlat = 0, errors = 0, done = 0, stale = 0;
    kontor_rng rng;
    kontor_rng_seed(&rng, seed);
    if (!cl || !lat || !evs || !ready || ep < 0) goto out;

    long rss0 = server_stat(p, "rss_kib");
    gids = calloc(games, sizeof *gids);
    if (!gids) goto out;
    double t0 = cli_now();
    for (int g = 0; g < (int)games; g++) {
        char *resp = NULL;
        int st = http_request("127.0.0.1", p, "POST", "/api/games",
                              "{\"variant\":\"basic\",\"seats\":[\"human\",\"human\"]}", &resp);
        json_t *o = st == 201 ? json_loads(resp, 0, NULL) : NULL;
        free(resp);
        json_t *seats = json_object_get(o, "seats");
        const char *gid = json_string_value(json_object_get(o, "id"));
        if (gid) snprintf(gids[g], sizeof gids[g], "%s", gid);
        if (!gid || json_array_size(seats) != 2) {
            cli_error("loadtest: creating game %d failed (HTTP %d)", g, st);
            json_decref(o);
            goto out;
        }
        for (int s = 0; s < 2; s++) {
            client *c = &cl[2 * g + s];
            char err[128], msg[256];
            c->kind = PLAYER;
            c->game = g;
            c->seat = s;
            c->next_move = -1;
            if (wsc_connect(&c->w, "127.0.0.1", p, "/ws", err, sizeof err) != 0) {
                cli_error("loadtest: game %d seat %d: %s", g, s, err);
                json_decref(o);
                goto out;
            }
            snprintf(msg, sizeof msg, "{\"type\":\"join\",\"game\":\"%s\",\"token\":\"%s\"}", gid,
                     json_string_value(json_object_get(json_array_get(seats, (size_t)s), "token")));
            wsc_send(&c->w, 1, msg, strlen(msg));
            struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)(2 * g + s)};
            if (epoll_ctl(ep, EPOLL_CTL_ADD, c->w.fd, &ev) != 0) {
                cli_error("loadtest: game %d seat %d: epoll_ctl failed", g, s);
                json_decref(o);
                goto out;
            }
        }
        json_decref(o);
    }
    /* wait until the server has answered every player's join with a state:
     * the playing time, and the server's figures read when it starts, begin
     * with the joins done, not in the middle of them */
    long joined = 0;
    for (double until_t = cli_now() + 120; joined < nplayers && cli_now() < until_t;) {
        int r = epoll_wait(ep, evs, nclients, 200);
        for (int k = 0; k < r; k++) {
            client *c = &cl[evs[k].data.u32];
            long got = wsc_fill(&c->w);
            if (got == 0 || got == -1) {
                cli_error("loadtest: game %d seat %d: the server closed the socket before the game began", c->game,
                          c->seat);
                goto out;
            }
            int op;
            const char *m;
            size_t len, off = 0;
            fields f;
            while (wsc_peek(&c->w, &off, &op, &m, &len) == 1)
                if (op == 1 && scan_fields(m, len, &f) && val_is(f.type, f.type_e, "\"state\"")) {
                    joined += !c->has_state;
                    if (take_legal(c, f.legal, f.legal_e) != 0) goto out;
                }
            wsc_consume(&c->w, off);
        }
    }
    if (joined < nplayers) {
        cli_error("loadtest: %ld of %d players had no state from the server after 120 s", joined, nplayers);
        goto out;
    }
    /* spectators (watch game i mod games) and idle sockets (never join) */
    for (int i = nplayers; i < nclients; i++) {
        client *c = &cl[i];
        char err[128], msg[128];
        c->kind = i < nplayers + (int)nspect ? SPECTATOR : IDLE;
        c->game = (i - nplayers) % (int)games;
        c->next_move = -1;
        if (wsc_connect(&c->w, "127.0.0.1", p, "/ws", err, sizeof err) != 0) {
            cli_error("loadtest: socket %d: %s", i, err);
            goto out;
        }
        if (c->kind == SPECTATOR) {
            snprintf(msg, sizeof msg, "{\"type\":\"watch\",\"game\":\"%s\"}", gids[c->game]);
            wsc_send(&c->w, 1, msg, strlen(msg));
        }
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        if (epoll_ctl(ep, EPOLL_CTL_ADD, c->w.fd, &ev) != 0) {
            cli_error("loadtest: socket %d: epoll_ctl failed", i);
            goto out;
        }
    }
    double t1 = cli_now();
    long rss1 = server_stat(p, "rss_kib"), cpu1 = server_stat(p, "cpu_ms");
    /* several nodes (behind a proxy): a move can be refused because the
     * player's node had not yet heard of another node's move */
    int stale_ok = server_stat(p, "shared") == 1;
    printf("loadtest: %d games created and %d sockets joined (every player has its first state) in %.1f s (%d players, "
           "%d spectators, %d idle)\n",
           (int)games, nclients, t1 - t0, nplayers, (int)nspect, (int)nidle);
    fflush(stdout);
    long idle_closed = 0, spect_dropped = 0;

    long nextid = 1;
    double deadline = t1 + (double)seconds;
    dueheap heap = {malloc(sizeof(int) * (size_t)(nplayers ? nplayers : 1)), 0};
    if (!heap.a) goto out;
    srvlat sl1, sl2;
    server_lat(p, &sl1);
    /* the first decisions, on the states of the joins */
    for (int i = 0; i < nplayers; i++)
        if (cl[i].nlegal) decide(&cl[i], cl, &heap, &rng, think, &nextid, &errors);
    double self1 = cli_now(), cpuself1 = cpu_self_s();
    lathist turns; /* this client's own turns: from epoll's return to the next wait */
    memset(&turns, 0, sizeof turns);
    while (done < nplayers && cli_now() < deadline) {
        int wait_ms = 1000;
        if (heap.n) {
            double dt = cl[heap.a[0]].due - cli_now();
            wait_ms = dt <= 0 ? 0 : (int)(dt * 1000.0) + 1;
            if (wait_ms > 1000) wait_ms = 1000;
        }
        int r = epoll_wait(ep, evs, nclients, wait_ms);
        if (r < 0 && errno != EINTR) break;
        double turn0 = cli_now();
        long nready = 0;
        for (int k = 0; k < r; k++) {
            int i = (int)evs[k].data.u32;
            if (!cl[i].over) ready[nready++] = i;
        }
        /* moves whose think time is up */
        while (heap.n && cl[heap.a[0]].due <= turn0) {
            client *c = &cl[heap_pop(&heap, cl)];
            if (c->over || c->next_move < 0) continue;
            char msg[96];
            c->id = nextid++;
            snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":%ld,\"id\":%ld}", c->next_move, c->id);
            c->pending = 1;
            c->next_move = -1;
            c->sent_at = cli_now();
            if (wsc_send(&c->w, 1, msg, strlen(msg)) != 0) errors++;
        }
        /* read every socket that has data first and note when, then parse:
         * a reply's latency ends when its bytes were read, not after this
         * thread has looked at every other socket's messages before it */
        for (long k = 0; k < nready; k++) {
            int i = ready[k];
            cl[i].got = wsc_fill(&cl[i].w);
            cl[i].read_at = cli_now();
        }
        for (long k = 0; k < nready; k++) {
            client *c = &cl[ready[k]];
            long got = c->got;
            int op;
            const char *m;
            size_t len, off = 0;
            fields f;
            if (c->kind != PLAYER) {
                while (wsc_peek(&c->w, &off, &op, &m, &len) == 1)
                    if (c->kind == SPECTATOR && !c->over && scan_fields(m, len, &f) && val_is(f.over, f.over_e, "true"))
                        c->over = 2; /* saw its end */
                wsc_consume(&c->w, off);
                if (got == 0 || got == -1) {
                    if (c->kind == IDLE) idle_closed++;
                    else if (c->over != 2) spect_dropped++;
                    c->over = 1;
                    epoll_ctl(ep, EPOLL_CTL_DEL, c->w.fd, NULL);
                }
                continue;
            }
            if (got == 0 || got == -1) {
                if (!c->over) {
                    c->over = 1;
                    done++;
                    errors++;
                }
                continue;
            }
            /* the newest state's fields (its legal decisions go to c->legal) */
            int have_last = 0, last_over = 0, refused = 0;
            while (wsc_peek(&c->w, &off, &op, &m, &len) == 1) {
                if (op != 1 || !scan_fields(m, len, &f)) continue;
                if (val_is(f.type, f.type_e, "\"state\"")) {
                    long ack = val_int(f.ack, f.ack_e);
                    if (c->pending && ack >= 0 && ack == c->id) {
                        lat[nlat < 4000000 ? nlat++ : nlat - 1] = c->read_at - c->sent_at;
                        c->pending = 0;
                    }
                    if (take_legal(c, f.legal, f.legal_e) != 0) errors++;
                    have_last = 1;
                    last_over = val_is(f.over, f.over_e, "true");
                } else if (val_is(f.type, f.type_e, "\"error\"")) {
                    int has_id = val_int(f.id, f.id_e) >= 0;
                    if (val_is(f.code, f.code_e, "\"illegal\"") && has_id && stale_ok) {
                        /* several nodes: the player's node was behind another
                         * node's move; the newer state came first */
                        stale++;
                        c->pending = 0;
                        refused = 1;
                    } else {
                        errors++;
                        if (errors < 5)
                            fprintf(stderr, "loadtest: server error: %.*s\n", f.error ? (int)(f.error_e - f.error) : 0,
                                    f.error ? f.error : "");
                        if (has_id) {
                            c->pending = 0;
                            refused = 1;
                        }
                    }
                }
            }
            wsc_consume(&c->w, off);
            /* act on the newest state only (after a refused move: the one
             * already received, which a node that was behind sent first) */
            if (!have_last && refused && c->has_state) have_last = 1;
            if (!have_last) continue;
            if (last_over) {
                if (!c->over) {
                    c->over = 1;
                    done++;
                    wsc_close(&c->w);
                }
            } else if (!c->pending && c->next_move < 0 && c->nlegal) {
                decide(c, cl, &heap, &rng, think, &nextid, &errors);
            }
        }
        if (r > 0) lat_add(&turns, (uint64_t)((cli_now() - turn0) * 1e6));
    }
    free(heap.a);
    double self2 = cli_now(), cpuself2 = cpu_self_s();
    server_lat(p, &sl2);
    double t2 = cli_now();
    long cpu2 = server_stat(p, "cpu_ms");
    if (nlat > 4000000) nlat = 4000000;
    qsort(lat, (size_t)nlat, sizeof *lat, cmp_double);
    double p50 = nlat ? lat[nlat / 2] : 0, p99 = nlat ? lat[(long)(nlat * 0.99)] : 0, mx = nlat ? lat[nlat - 1] : 0;
    printf("loadtest: %d concurrent games, think %d ms, %ld moves in %.1f s: %.0f moves/s\n", (int)games, (int)think,
           nlat, t2 - t1, nlat / (t2 - t1));
    printf("loadtest: latency per move p50 %.2f ms, p99 %.2f ms, max %.2f ms (this client: from sending a move to "
           "reading the state that acknowledges it)\n",
           p50 * 1e3, p99 * 1e3, mx * 1e3);
    if (sl1.ok && sl2.ok) {
        /* the same interval seen by the server (latency.h), bucket upper edges */
        char line[160];
        for (int k = 0; k < 3; k++) {
            for (int i = 0; i < LAT_BUCKETS; i++) sl2.b[k][i] -= sl1.b[k][i] <= sl2.b[k][i] ? sl1.b[k][i] : sl2.b[k][i];
            lat_line(sl2.b[k], line, sizeof line);
            printf("loadtest: server's own %s %s\n",
                   k == 0 ? "decision latency (received to acknowledgement written):"
                   : k == 1 ? "read wait (received to read by its loop):"
                            : "loop turns (busy time of each):",
                   line);
        }
    }
    {
        char line[160];
        lat_line(turns.b, line, sizeof line);
        printf("loadtest: this client used %.1f s of CPU in %.1f s: %.2f cores; its own turns %s\n",
               cpuself2 - cpuself1, self2 - self1, (cpuself2 - cpuself1) / (self2 - self1), line);
    }
    if (cpu1 >= 0 && cpu2 >= 0)
        printf("loadtest: server CPU %.1f s in %.1f s of play: %.2f cores\n", (cpu2 - cpu1) / 1e3, t2 - t1,
               (cpu2 - cpu1) / 1e3 / (t2 - t1));
    if (rss0 > 0 && rss1 > 0)
        printf("loadtest: server memory %ld KiB before, %ld KiB with every game connected: %.1f KiB per game\n", rss0,
               rss1, (double)(rss1 - rss0) / (double)games);
    /* close the players' sockets, give the server a moment to forget the games */
    for (int i = 0; i < nplayers; i++)
        if (cl[i].w.fd > 0) wsc_close(&cl[i].w);
    nanosleep(&(struct timespec){2, 0}, NULL);
    long rss3 = server_stat(p, "rss_kib"), left = server_stat(p, "games");
    if (rss0 > 0 && rss3 > 0)
        printf("loadtest: after the games: %ld KiB, %ld games in memory: %.1f KiB per game played\n", rss3, left,
               (double)(rss3 - rss0) / (double)games);
    if (nspect) printf("loadtest: %ld of %d spectators dropped before their game ended\n", spect_dropped, (int)nspect);
    if (nidle) printf("loadtest: %ld of %d idle sockets closed by the server\n", idle_closed, (int)nidle);
    if (stale) printf("loadtest: %ld moves refused because another node had moved first (each retried on the newer state)\n", stale);
    printf("loadtest: %ld of %d seats saw their game end; %ld errors\n", done, nplayers, errors);
    rc = (done == nplayers && errors == 0) ? 0 : 1;
out:
    if (cl)
        for (int i = 0; i < nclients; i++) {
            if (cl[i].w.fd > 0) wsc_close(&cl[i].w);
            free(cl[i].legal);
        }
    free(cl);
    free(gids);
    free(lat);
    free(evs);
    free(ready);
    if (ep >= 0) close(ep);
    if (pid > 0) {
        kill(pid, SIGTERM);
        waitpid(pid, NULL, 0);
        char path[4200];
        const char *suffix[] = {"load.db", "load.db-wal", "load.db-shm"};
        for (int i = 0; i < 3; i++) {
            snprintf(path, sizeof path, "%s/%s", dir, suffix[i]);
            unlink(path);
        }
        rmdir(dir);
    }
    return rc;
}
