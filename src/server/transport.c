/* transport.c: the event loop of transport.h: sockets, HTTP, static files, WebSocket frames, outbound queues.
 *
 * libuv gives the loop (epoll on Linux), its timers, the cross-thread wakeup
 * (uv_async) and the signals; each socket is a uv_poll on a non-blocking file
 * descriptor that this file reads and writes itself, so the WebSocket library
 * (wslay, frames only) can be handed plain recv/send callbacks. HTTP is the
 * small subset kontor needs (http.c). docs/server.md, "Transport", says why
 * libuv and wslay. tconn.h lists the transport's files; this one accepts,
 * keeps the limits per address, runs the timers and the loop.
 *
 * A connection's life: HTTP until its request is whole (within --join-timeout
 * seconds); then either an answer (the server's api callback, or a file),
 * after which it closes or, kept alive, waits for its next request (within
 * --keepalive seconds), or the WebSocket handshake. As a WebSocket, its messages are
 * assembled here from frames whose length is checked against --msg-max from
 * the frame header, before a byte of the payload is kept (wslay's own
 * buffering would allocate the announced length: it is off). Messages to it
 * wait in its queue (any thread appends, under out_mu) until the loop moves
 * them to wslay and writes. Closing runs the server's ws_close first (which
 * unlinks it from its game under the game's mutex), then unlinks it from the
 * dirty list under out_mu; after that no other thread can reach it, and
 * libuv frees it in the close callback.
 */
#define _GNU_SOURCE /* accept4 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <uv.h>
#include <wslay/wslay.h>

#include "server/latency.h"
#include "server/sha1.h"
#include "server/tconn.h"

tstate T;

/* ---- per address ---------------------------------------------------------------- */

static unsigned addr_hash(const char *a) {
    unsigned h = 2166136261u;
    for (; *a; a++) h = (h ^ (unsigned char)*a) * 16777619u;
    return h % ADDR_BUCKETS;
}

static addrent *addr_get(const char *a) {
    unsigned h = addr_hash(a);
    for (addrent *e = T.addrs[h]; e; e = e->next)
        if (strcmp(e->addr, a) == 0) return e;
    addrent *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    snprintf(e->addr, sizeof e->addr, "%s", a);
    e->tokens = T.lim->create_per_min;
    e->last = now_s();
    e->next = T.addrs[h];
    T.addrs[h] = e;
    return e;
}

static void addr_refill(addrent *e, double t) {
    double cap = T.lim->create_per_min;
    e->tokens += (t - e->last) * cap / 60.0;
    if (e->tokens > cap) e->tokens = cap;
    e->last = t;
}

/* Forget addresses with no connection and a full creation budget. */
static void addr_sweep(void) {
    double t = now_s();
    for (int h = 0; h < ADDR_BUCKETS; h++)
        for (addrent **p = &T.addrs[h]; *p;) {
            addrent *e = *p;
            addr_refill(e, t);
            if (e->conns == 0 && e->tokens >= T.lim->create_per_min) {
                *p = e->next;
                free(e);
            } else {
                p = &e->next;
            }
        }
}

int treq_take_create(treq *r, int *retry_s) {
    *retry_s = 0;
    if (T.lim->create_per_min <= 0 || !r->c->ae) return 1;
    addrent *e = r->c->ae;
    addr_refill(e, now_s());
    if (e->tokens >= 1.0) {
        e->tokens -= 1.0;
        return 1;
    }
    *retry_s = (int)((1.0 - e->tokens) * 60.0 / T.lim->create_per_min) + 1;
    return 0;
}

static void on_poll(uv_poll_t *h, int status, int events) {
    tconn *c = h->data;
    T.nev++;
    if (c->closing) return;
    if (status < 0) {
        conn_close(c);
        return;
    }
    if (c->state == C_HTTP) {
        if (events & UV_READABLE) http_readable(c);
    } else if (c->state == C_KEEP) {
        if (events & UV_WRITABLE) http_writable(c);
    } else if (c->state == C_DRAIN) {
        if (c->nout) {
            int w = write_raw(c);
            if (w < 0) {
                conn_close(c);
                return;
            }
            if (w == 1) {
                shutdown(c->fd, SHUT_WR);
                set_events(c, UV_READABLE);
            }
        }
        if (events & UV_READABLE) {
            char buf[4096];
            ssize_t r = recv(c->fd, buf, sizeof buf, MSG_DONTWAIT);
            if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) conn_close(c);
        }
    } else {
        if (events & UV_READABLE) ws_readable(c);
        else ws_flush(c);
    }
}

/* ---- accepting --------------------------------------------------------------- */

static void refuse(int fd, int status, const char *text) {
    char buf[512];
    int n = snprintf(buf, sizeof buf,
                     "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n"
                     "Connection: close\r\n\r\n%s",
                     status, reason_of(status), strlen(text), text);
    if (n > 0) (void)!send(fd, buf, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
    close(fd);
}

static void on_accept(uv_poll_t *h, int status, int events);

static void on_accept_resume(uv_timer_t *t) {
    (void)t;
    uv_poll_start(&T.lpoll, UV_READABLE, on_accept);
}

static void on_accept(uv_poll_t *h, int status, int events) {
    (void)h;
    (void)events;
    if (status < 0) return;
    for (int k = 0; k < 256; k++) {
        struct sockaddr_storage sa;
        socklen_t sl = sizeof sa;
        int fd = accept4(T.lfd, (struct sockaddr *)&sa, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                /* out of descriptors: stop accepting for a moment instead of spinning */
                uv_poll_stop(&T.lpoll);
                uv_timer_start(&T.accept_pause, on_accept_resume, 100, 0);
            }
            return;
        }
        char addr[INET6_ADDRSTRLEN] = "?";
        if (sa.ss_family == AF_INET) inet_ntop(AF_INET, &((struct sockaddr_in *)&sa)->sin_addr, addr, sizeof addr);
        else if (sa.ss_family == AF_INET6) inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&sa)->sin6_addr, addr, sizeof addr);
        if (T.nconns >= T.max_conns) {
            refuse(fd, 503, "{\"code\":\"full\",\"error\":\"the server is full (--max-conns); try again later\"}");
            continue;
        }
        addrent *ae = addr_get(addr);
        if (!ae) {
            close(fd);
            continue;
        }
        if (T.lim->conns_per_addr > 0 && ae->conns >= T.lim->conns_per_addr) {
            char text[160];
            snprintf(text, sizeof text, "{\"code\":\"conns\",\"error\":\"too many connections from your address (at most %d: --conns-per-addr)\"}",
                     T.lim->conns_per_addr);
            refuse(fd, 429, text);
            continue;
        }
        tconn *c = calloc(1, sizeof *c);
        if (!c || uv_poll_init(T.loop, &c->poll, fd) != 0) {
            free(c);
            close(fd);
            continue;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        c->fd = fd;
        c->poll.data = c;
        c->ae = ae;
        ae->conns++;
        c->opened = c->last_rx = now_s();
        c->next = T.conns;
        if (T.conns) T.conns->prev = c;
        T.conns = c;
        T.nconns++;
        set_events(c, UV_READABLE);
    }
}

/* ---- timers, signals, start and stop ------------------------------------------------- */

static void on_tick(uv_timer_t *t) {
    (void)t;
    uint64_t t0 = uv_hrtime();
    if (T.cb->tick) T.cb->tick();
    T.tick_ns += uv_hrtime() - t0;
    ++T.ticks;
    /* every tick: the connections' deadlines, at most SWEEP_MAX closes and
     * pings a tick, so that a thousand sockets timing out together do not
     * hold the loop (and everyone's moves) for one long sweep */
    double now = now_s();
    int budget = SWEEP_MAX;
    for (tconn *c = T.conns, *n; c && budget > 0; c = n) {
        n = c->next;
        if (c->closing) continue;
        int acted = 1;
        if (c->state == C_HTTP || c->state == C_DRAIN || c->state == C_KEEP) {
            /* between two requests of a kept connection: --keepalive;
             * a request on its way, a reply being written: --join-timeout */
            int limit = c->state == C_HTTP && c->nreq > 0 && c->nin == 0 ? T.lim->keepalive_s : T.lim->join_s;
            if (now - c->opened > limit) conn_close(c);
            else acted = 0;
        } else if (!c->joined && !c->close_code && now - c->opened > T.lim->join_s) {
            char text[160];
            snprintf(text, sizeof text, "no join or watch within %d seconds (--join-timeout); closing", T.lim->join_s);
            queue_error(c, "join_timeout", text);
            tconn_close(c, 1008, "join timeout");
        } else if (c->close_code && now - c->close_at > 5) {
            conn_close(c); /* closing, and the peer does not finish it */
        } else if (c->ping_at > 0 && now - c->ping_at > T.lim->ping_s) {
            conn_close(c); /* no answer to a ping: a dead peer */
        } else if (c->ping_at == 0 && now - c->last_rx > T.lim->ping_s) {
            struct wslay_event_msg pm = {WSLAY_PING, (const uint8_t *)"k", 1};
            wslay_event_queue_msg(c->ws, &pm);
            c->ping_at = now;
            ws_flush(c);
        } else {
            acted = 0;
        }
        budget -= acted;
    }
    if (T.ticks % 300 == 0) addr_sweep();
}

/* Each turn of the loop, before it waits in epoll: the turn just done was
 * busy for the time since the last prepare less the time it waited. */
static void on_prepare(uv_prepare_t *p) {
    (void)p;
    uint64_t t = uv_hrtime(), idle = uv_metrics_idle_time(T.loop);
    uint64_t cpu = 0;
    if (T.o->slow_turn_ms) { /* this thread's CPU: was a slow turn working, or waiting for a core? */
        struct timespec ct;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ct);
        cpu = (uint64_t)ct.tv_sec * 1000000000u + (uint64_t)ct.tv_nsec;
    }
    if (T.prep_ns) {
        uint64_t span = t - T.prep_ns, waited = idle - T.prep_idle;
        uint64_t busy = span > waited ? span - waited : 0;
        lat_add(&lat_loop, busy / 1000);
        if (T.o->slow_turn_ms && busy > (uint64_t)T.o->slow_turn_ms * 1000000u)
            fprintf(stderr, "kontor: slow turn of the loop: busy %.1f ms, on a core %.1f ms, %llu socket events, "
                            "the tick %.1f ms\n",
                    busy / 1e6, (cpu - T.prep_cpu) / 1e6, (unsigned long long)(T.nev - T.prep_nev), T.tick_ns / 1e6);
    }
    T.tick_ns = 0;
    T.prep_cpu = cpu;
    T.prep_nev = T.nev;
    T.prep_ns = t;
    T.prep_idle = idle;
}

static void on_walk_close(uv_handle_t *h, void *arg) {
    (void)arg;
    if (!uv_is_closing(h)) uv_close(h, NULL);
}

static void on_signal(uv_signal_t *s, int sig) {
    (void)s;
    (void)sig;
    if (T.stopping) return;
    T.stopping = 1;
    uv_poll_stop(&T.lpoll);
    while (T.conns) conn_close(T.conns);
    uv_walk(T.loop, on_walk_close, NULL);
}

/* Raise the soft limit of open files to the hard one, so that 10,000 sockets fit. */
static int raise_nofile(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return 1024;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    return rl.rlim_cur > 1000000 ? 1000000 : (int)rl.rlim_cur;
}

static int listen_on(const char *host, int port, int *bound, kontor_error *err) {
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    char ps[16];
    snprintf(ps, sizeof ps, "%d", port);
    int fd = -1;
    if (getaddrinfo(host, ps, &hints, &res) == 0) {
        for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
            fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
            if (fd < 0) continue;
            int one = 1;
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
            if (bind(fd, a->ai_addr, a->ai_addrlen) != 0 || listen(fd, 4096) != 0) {
                close(fd);
                fd = -1;
            }
        }
        freeaddrinfo(res);
    }
    if (fd < 0) {
        err->code = KONTOR_E_IO;
        snprintf(err->msg, sizeof err->msg, "cannot listen on '%s:%d' (port taken, or no permission)", host, port);
        return -1;
    }
    struct sockaddr_storage sa;
    socklen_t sl = sizeof sa;
    getsockname(fd, (struct sockaddr *)&sa, &sl);
    *bound = ntohs(sa.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&sa)->sin6_port
                                            : ((struct sockaddr_in *)&sa)->sin_port);
    return fd;
}

int transport_run(const transport_opts *o, const transport_cb *cb, kontor_error *err) {
    memset(&T, 0, sizeof T);
    T.o = o;
    T.cb = cb;
    T.lim = o->lim;
    T.poll_cb = on_poll;
    pthread_mutex_init(&T.out_mu, NULL);
    int nofile = raise_nofile();
    T.max_conns = o->lim->max_conns < nofile - 64 ? o->lim->max_conns : nofile - 64;
    if (T.max_conns < 16) T.max_conns = 16;
    int port;
    T.lfd = listen_on(o->host, o->port, &port, err);
    if (T.lfd < 0) return 1;
    T.loop = malloc(sizeof *T.loop);
    if (!T.loop || uv_loop_init(T.loop) != 0) {
        close(T.lfd);
        free(T.loop);
        err->code = KONTOR_E_IO;
        snprintf(err->msg, sizeof err->msg, "cannot start the event loop");
        return 1;
    }
    uv_loop_configure(T.loop, UV_METRICS_IDLE_TIME);
    uv_prepare_init(T.loop, &T.prep);
    uv_prepare_start(&T.prep, on_prepare);
    uv_poll_init(T.loop, &T.lpoll, T.lfd);
    uv_poll_start(&T.lpoll, UV_READABLE, on_accept);
    uv_timer_init(T.loop, &T.tick);
    uv_timer_start(&T.tick, on_tick, TICK_MS, TICK_MS);
    uv_timer_init(T.loop, &T.accept_pause);
    uv_async_init(T.loop, &T.wake, on_wake);
    uv_signal_init(T.loop, &T.sigint);
    uv_signal_init(T.loop, &T.sigterm);
    uv_signal_start(&T.sigint, on_signal, SIGINT);
    uv_signal_start(&T.sigterm, on_signal, SIGTERM);
    if (o->ready) o->ready(port);
    uv_run(T.loop, UV_RUN_DEFAULT);
    uv_loop_close(T.loop);
    free(T.loop);
    close(T.lfd);
    for (int h = 0; h < ADDR_BUCKETS; h++)
        while (T.addrs[h]) {
            addrent *e = T.addrs[h];
            T.addrs[h] = e->next;
            free(e);
        }
    pthread_mutex_destroy(&T.out_mu);
    return 0;
}
