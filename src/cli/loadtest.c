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
    "with every game connected and after every game has ended.\n";

enum { PLAYER, SPECTATOR, IDLE };

typedef struct client {
    wsc w;
    int kind;
    int game, seat;
    int pending;      /* a move sent, not yet acknowledged */
    long id;          /* id of that move */
    double sent_at;
    int over;
    json_int_t next_move; /* decided, waiting for its think time; -1 none */
    double due;
    long got;         /* this round's wsc_fill */
    double read_at;   /* when it returned */
} client;

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
    long nlat = 0, errors = 0, done = 0;
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
    printf("loadtest: %d games created and %d sockets joined in %.1f s (%d players, %d spectators, %d idle)\n",
           (int)games, nclients, t1 - t0, nplayers, (int)nspect, (int)nidle);
    fflush(stdout);
    long idle_closed = 0, spect_dropped = 0;

    long nextid = 1;
    double deadline = t1 + (double)seconds;
    while (done < nplayers && cli_now() < deadline) {
        int r = epoll_wait(ep, evs, nclients, think ? 5 : 1000);
        if (r < 0 && errno != EINTR) break;
        long nready = 0;
        for (int k = 0; k < r; k++) {
            int i = (int)evs[k].data.u32;
            if (!cl[i].over) ready[nready++] = i;
        }
        double tnow = cli_now();
        for (int i = 0; i < nplayers && think; i++) {
            client *c = &cl[i];
            if (c->over || c->next_move < 0 || tnow < c->due) continue;
            char msg[96];
            c->id = nextid++;
            snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":%lld,\"id\":%ld}", (long long)c->next_move, c->id);
            c->pending = 1;
            c->next_move = -1;
            c->sent_at = cli_now();
            if (wsc_send(&c->w, 1, msg, strlen(msg)) != 0) errors++;
        }
        /* read every socket that has data first and note when, then parse:
         * a reply's latency ends when its bytes were read, not after this
         * thread has parsed the JSON of every other socket before it */
        for (long k = 0; k < nready; k++) {
            int i = ready[k];
            cl[i].got = wsc_fill(&cl[i].w);
            cl[i].read_at = cli_now();
        }
        for (long k = 0; k < nready; k++) {
            client *c = &cl[ready[k]];
            long got = c->got;
            if (c->kind != PLAYER) {
                int op;
                char *m;
                size_t len;
                while (wsc_take(&c->w, &op, &m, &len) == 1) {
                    if (c->kind == SPECTATOR && !c->over && strstr(m, "\"over\":true")) c->over = 2; /* saw its end */
                    free(m);
                }
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
            int op;
            char *m;
            size_t len;
            json_t *last = NULL;
            while (wsc_take(&c->w, &op, &m, &len) == 1) {
                json_t *o = json_loadb(m, len, 0, NULL);
                free(m);
                const char *type = json_string_value(json_object_get(o, "type"));
                if (type && strcmp(type, "state") == 0) {
                    json_t *ack = json_object_get(o, "ack");
                    if (c->pending && json_is_integer(ack) && json_integer_value(ack) == c->id) {
                        lat[nlat < 4000000 ? nlat++ : nlat - 1] = c->read_at - c->sent_at;
                        c->pending = 0;
                    }
                    json_decref(last);
                    last = o;
                } else {
                    if (type && strcmp(type, "error") == 0) {
                        errors++;
                        if (errors < 5) fprintf(stderr, "loadtest: server error: %s\n",
                                                json_string_value(json_object_get(o, "error")));
                        if (json_is_integer(json_object_get(o, "id"))) c->pending = 0;
                    }
                    json_decref(o);
                }
            }
            /* act on the newest state only */
            if (last) {
                if (json_is_true(json_object_get(last, "over"))) {
                    if (!c->over) {
                        c->over = 1;
                        done++;
                        wsc_close(&c->w);
                    }
                } else if (!c->pending && c->next_move < 0) {
                    json_t *legal = json_object_get(last, "legal");
                    size_t n = json_array_size(legal);
                    if (n && think) {
                        json_t *mv = json_object_get(json_array_get(legal, kontor_rng_below(&rng, (uint32_t)n)), "m");
                        c->next_move = json_integer_value(mv);
                        c->due = cli_now() + (double)kontor_rng_below(&rng, (uint32_t)(2 * think + 1)) / 1000.0;
                    } else if (n) {
                        json_t *mv = json_object_get(json_array_get(legal, kontor_rng_below(&rng, (uint32_t)n)), "m");
                        char msg[96];
                        c->id = nextid++;
                        snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":%lld,\"id\":%ld}",
                                 (long long)json_integer_value(mv), c->id);
                        c->pending = 1;
                        c->sent_at = cli_now();
                        if (wsc_send(&c->w, 1, msg, strlen(msg)) != 0) errors++;
                    }
                }
                json_decref(last);
            }
        }
    }
    double t2 = cli_now();
    long cpu2 = server_stat(p, "cpu_ms");
    if (nlat > 4000000) nlat = 4000000;
    qsort(lat, (size_t)nlat, sizeof *lat, cmp_double);
    double p50 = nlat ? lat[nlat / 2] : 0, p99 = nlat ? lat[(long)(nlat * 0.99)] : 0, mx = nlat ? lat[nlat - 1] : 0;
    printf("loadtest: %d concurrent games, think %d ms, %ld moves in %.1f s: %.0f moves/s\n", (int)games, (int)think,
           nlat, t2 - t1, nlat / (t2 - t1));
    printf("loadtest: latency per move p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", p50 * 1e3, p99 * 1e3, mx * 1e3);
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
    printf("loadtest: %ld of %d seats saw their game end; %ld errors\n", done, nplayers, errors);
    rc = (done == nplayers && errors == 0) ? 0 : 1;
out:
    if (cl)
        for (int i = 0; i < nclients; i++)
            if (cl[i].w.fd > 0) wsc_close(&cl[i].w);
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
