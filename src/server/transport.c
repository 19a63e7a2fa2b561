/* transport.c: the event loop of transport.h: sockets, HTTP, static files, WebSocket frames, outbound queues.
 *
 * libuv gives the loop (epoll on Linux), its timers, the cross-thread wakeup
 * (uv_async) and the signals; each socket is a uv_poll on a non-blocking file
 * descriptor that this file reads and writes itself, so the WebSocket library
 * (wslay, frames only) can be handed plain recv/send callbacks. HTTP is the
 * small subset kontor needs: one request a connection (Connection: close),
 * a body only with Content-Length, headers under 16 KiB. docs/server.md,
 * "Transport", says why libuv and wslay.
 *
 * A connection's life: HTTP until its request is whole (within --join-timeout
 * seconds); then either an answer (the server's api callback, or a file) and
 * close, or the WebSocket handshake. As a WebSocket, its messages are
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
#include <unistd.h>

#include <uv.h>
#include <wslay/wslay.h>

#include "server/sha1.h"
#include "server/transport.h"

#define HDR_MAX (16 * 1024)       /* request line and headers */
#define FILE_MAX (8 * 1024 * 1024) /* a static file */
#define TICK_MS 200
#define SWEEP_MAX 100 /* deadlines acted on per tick */
#define ADDR_BUCKETS 4096
#define SNDBUF (64 * 1024)          /* a WebSocket's kernel send buffer: what a slow reader holds there */
/* What may wait for the loop's next flush beyond --out-max: the server's own
 * burst for one event (a welcome with the card set and a state). The limit
 * proper is checked after each write: what the socket did not take. */
#define OUT_SLACK (64 * 1024)

enum { C_HTTP, C_WS, C_DRAIN };

typedef struct omsg {
    struct omsg *next;
    size_t len;
    char data[];
} omsg;

typedef struct addrent {
    struct addrent *next;
    int conns;
    double tokens, last; /* game creations: a token bucket */
    char addr[INET6_ADDRSTRLEN];
} addrent;

struct tconn {
    uv_poll_t poll;
    int fd, state, closing, events;
    addrent *ae;
    double opened, last_rx, ping_at, close_at;
    int joined;
    /* HTTP in, raw bytes out (a reply or the handshake) */
    char *in;
    size_t nin, capin;
    char *out;
    size_t nout, outoff;
    /* WebSocket */
    wslay_event_context_ptr ws;
    void *ud;
    char *msg;
    size_t nmsg, capmsg;
    int msg_bin, in_ctrl, frame_fin, too_big, close_code, close_queued;
    uint64_t big_len;
    char close_reason[96];
    /* outbound, under out_mu */
    omsg *qhead, *qtail;
    size_t qbytes, inflight;
    int overflow, dirty, dead;
    tconn *dnext, *dprev;
    /* every connection, loop thread only */
    tconn *next, *prev;
};

static struct {
    uv_loop_t *loop;
    uv_poll_t lpoll;
    uv_timer_t tick, accept_pause;
    uv_async_t wake;
    uv_signal_t sigint, sigterm;
    int lfd;
    const transport_opts *o;
    const transport_cb *cb;
    const server_limits *lim;
    int max_conns, nconns;
    tconn *conns;
    addrent *addrs[ADDR_BUCKETS];
    pthread_mutex_t out_mu;
    tconn *dirty;
    int stopping;
    long ticks;
} T;

static double now_s(void) { return (double)uv_hrtime() / 1e9; }

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

/* ---- connections ---------------------------------------------------------------- */

static void on_poll(uv_poll_t *h, int status, int events);

static void set_events(tconn *c, int ev) {
    if (c->closing || ev == c->events) return;
    c->events = ev;
    if (ev) uv_poll_start(&c->poll, ev, on_poll);
    else uv_poll_stop(&c->poll);
}

static void free_queue(omsg *m) {
    while (m) {
        omsg *n = m->next;
        free(m);
        m = n;
    }
}

static void on_closed(uv_handle_t *h) {
    tconn *c = h->data;
    close(c->fd);
    if (c->ws) wslay_event_context_free(c->ws);
    free(c->in);
    free(c->out);
    free(c->msg);
    free(c);
}

/* The server forgets c (ws_close) and no thread can queue to it any more. */
static void detach(tconn *c) {
    if (c->ud && T.cb->ws_close) T.cb->ws_close(c, c->ud);
    c->ud = NULL;
    pthread_mutex_lock(&T.out_mu);
    if (c->dirty) {
        if (c->dprev) c->dprev->dnext = c->dnext;
        else T.dirty = c->dnext;
        if (c->dnext) c->dnext->dprev = c->dprev;
        c->dirty = 0;
    }
    free_queue(c->qhead);
    c->qhead = c->qtail = NULL;
    c->dead = 1;
    pthread_mutex_unlock(&T.out_mu);
}

static void conn_close(tconn *c) {
    if (c->closing) return;
    detach(c);
    c->closing = 1;
    if (c->prev) c->prev->next = c->next;
    else T.conns = c->next;
    if (c->next) c->next->prev = c->prev;
    if (c->ae) c->ae->conns--;
    T.nconns--;
    uv_poll_stop(&c->poll);
    uv_close((uv_handle_t *)&c->poll, on_closed);
}

/* Write c->out; 1 when all is written, 0 when the socket is full, -1 on error. */
static int write_raw(tconn *c) {
    while (c->outoff < c->nout) {
        ssize_t r = send(c->fd, c->out + c->outoff, c->nout - c->outoff, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (r < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
            return -1;
        }
        c->outoff += (size_t)r;
    }
    free(c->out);
    c->out = NULL;
    c->nout = c->outoff = 0;
    return 1;
}

static int append_out(tconn *c, const char *data, size_t len) {
    char *b = realloc(c->out, c->nout + len);
    if (!b) return -1;
    memcpy(b + c->nout, data, len);
    c->out = b;
    c->nout += len;
    return 0;
}

/* ---- HTTP replies ----------------------------------------------------------------- */

static const char *reason_of(int status) {
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
    default: return "Internal Server Error";
    }
}

/* The code of an error answer that has no more particular one: the browser
 * shows the message of its catalogue for the code (web/lang/en.js, de.js,
 * keys "err.CODE"; tests/test_i18n.c checks that both have every code). */
const char *http_error_code(int status) {
    switch (status) {
    case 400: return "bad_request";
    case 403: return "forbidden";
    case 404: return "not_found";
    case 405: return "bad_method";
    case 408: return "timeout";
    case 409: return "conflict";
    case 411: return "bad_request";
    case 413: return "too_large";
    case 429: return "busy";
    case 431: return "too_large";
    case 503: return "full";
    default: return "server";
    }
}

/* After a reply: write it, half-close, wait for the peer to close (so that a
 * reset cannot cut the reply short), at most --join-timeout. */
static void http_finish(tconn *c) {
    c->state = C_DRAIN;
    int w = write_raw(c);
    if (w < 0) {
        conn_close(c);
        return;
    }
    if (w == 1) shutdown(c->fd, SHUT_WR);
    set_events(c, UV_READABLE | (w == 0 ? UV_WRITABLE : 0));
}

static void reply_raw(tconn *c, int status, const char *ctype, const char *body, size_t len, const char *extra,
                      int head_only) {
    char hdr[1024];
    int n = snprintf(hdr, sizeof hdr,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nCache-Control: no-store\r\n"
                     "X-Content-Type-Options: nosniff\r\n%sConnection: close\r\n\r\n",
                     status, reason_of(status), ctype, len, extra ? extra : "");
    if (n < 0 || (size_t)n >= sizeof hdr || append_out(c, hdr, (size_t)n) != 0 ||
        (!head_only && len && append_out(c, body, len) != 0)) {
        conn_close(c);
        return;
    }
    http_finish(c);
}

__attribute__((format(printf, 3, 4))) static void reply_text(tconn *c, int status, const char *fmt, ...) {
    char msg[256], body[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t k = (size_t)snprintf(body, sizeof body, "{\"code\":\"%s\",\"error\":\"", http_error_code(status));
    for (const char *p = msg; *p && k + 4 < sizeof body; p++) {
        if (*p == '"' || *p == '\\') body[k++] = '\\';
        body[k++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
    }
    body[k++] = '"';
    body[k++] = '}';
    reply_raw(c, status, "application/json", body, k, NULL, 0);
}

void treply(treq *r, int status, const char *ctype, const char *body, size_t len, const char *extra) {
    if (r->replied) return;
    r->replied = 1;
    reply_raw(r->c, status, ctype, body, len, extra, strcmp(r->method, "HEAD") == 0);
}

static int hexval(int ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* Percent-decode src[0..n) into out (cap bytes with the NUL); -1 if it does not fit or has a NUL. */
static int url_decode(const char *src, size_t n, char *out, size_t cap, int plus_space) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int ch = (unsigned char)src[i];
        if (ch == '%' && i + 2 < n + 0 && hexval(src[i + 1]) >= 0 && hexval(src[i + 2]) >= 0) {
            ch = hexval(src[i + 1]) * 16 + hexval(src[i + 2]);
            i += 2;
        } else if (ch == '+' && plus_space) {
            ch = ' ';
        }
        if (ch == 0 || k + 1 >= cap) return -1;
        out[k++] = (char)ch;
    }
    out[k] = 0;
    return (int)k;
}

int treq_var(const treq *r, const char *name, char *out, size_t cap) {
    size_t nl = strlen(name);
    for (const char *p = r->query; *p;) {
        const char *amp = strchr(p, '&');
        size_t len = amp ? (size_t)(amp - p) : strlen(p);
        if (len > nl && strncmp(p, name, nl) == 0 && p[nl] == '=')
            return url_decode(p + nl + 1, len - nl - 1, out, cap, 1);
        p += len + (amp ? 1 : 0);
    }
    return -1;
}

/* ---- static files ---------------------------------------------------------------- */

static const char *mime_of(const char *path) {
    const char *dot = strrchr(path, '.');
    static const struct { const char *ext, *type; } types[] = {
        {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
        {".svg", "image/svg+xml"}, {".png", "image/png"}, {".ico", "image/x-icon"},
        {".json", "application/json"}, {".txt", "text/plain; charset=utf-8"}, {".woff2", "font/woff2"},
    };
    for (size_t i = 0; dot && i < sizeof types / sizeof *types; i++)
        if (strcasecmp(dot, types[i].ext) == 0) return types[i].type;
    return "application/octet-stream";
}

static void serve_file(tconn *c, const char *method, const char *path) {
    int head = strcmp(method, "HEAD") == 0;
    if (!head && strcmp(method, "GET") != 0) {
        reply_text(c, 405, "'%s': files are read with GET", method);
        return;
    }
    if (path[0] != '/' || strstr(path, "/..") || strchr(path, '\\')) {
        reply_text(c, 404, "'%s' is not a file of the client", path);
        return;
    }
    char full[4200];
    snprintf(full, sizeof full, "%s%s%s", T.o->web, path, path[strlen(path) - 1] == '/' ? "index.html" : "");
    int fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > FILE_MAX) {
        if (fd >= 0) close(fd);
        reply_text(c, 404, "'%s' is not a file of the client", path);
        return;
    }
    char *buf = malloc((size_t)sb.st_size + 1);
    size_t n = 0;
    while (buf && n < (size_t)sb.st_size) {
        ssize_t r = read(fd, buf + n, (size_t)sb.st_size - n);
        if (r <= 0) break;
        n += (size_t)r;
    }
    close(fd);
    if (!buf || n != (size_t)sb.st_size) {
        free(buf);
        reply_text(c, 500, "'%s' could not be read", path);
        return;
    }
    reply_raw(c, 200, mime_of(full), buf, n, NULL, head);
    free(buf);
}

/* ---- WebSocket ---------------------------------------------------------------- */

static ssize_t ws_recv_cb(wslay_event_context_ptr ctx, uint8_t *buf, size_t len, int flags, void *ud) {
    (void)flags;
    tconn *c = ud;
    if (c->too_big || c->close_code) {
        wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
        return -1;
    }
    if (c->nin) { /* bytes that came with the handshake */
        size_t k = c->nin < len ? c->nin : len;
        memcpy(buf, c->in, k);
        memmove(c->in, c->in + k, c->nin - k);
        c->nin -= k;
        if (!c->nin) { /* the request buffer is not needed any more */
            free(c->in);
            c->in = NULL;
            c->capin = 0;
        }
        return (ssize_t)k;
    }
    for (;;) {
        ssize_t r = recv(c->fd, buf, len, MSG_DONTWAIT);
        if (r > 0) {
            c->last_rx = now_s();
            c->ping_at = 0;
            return r;
        }
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
        else wslay_event_set_error(ctx, WSLAY_ERR_CALLBACK_FAILURE); /* end of stream or error */
        return -1;
    }
}

static ssize_t ws_send_cb(wslay_event_context_ptr ctx, const uint8_t *data, size_t len, int flags, void *ud) {
    (void)flags;
    tconn *c = ud;
    for (;;) {
        ssize_t r = send(c->fd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (r >= 0) return r;
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
        else wslay_event_set_error(ctx, WSLAY_ERR_CALLBACK_FAILURE);
        return -1;
    }
}

/* A frame starts: the length in its header is checked here, before its
 * payload is read; an oversized one stops reading at once. */
static void ws_frame_start(wslay_event_context_ptr ctx, const struct wslay_event_on_frame_recv_start_arg *a, void *ud) {
    tconn *c = ud;
    c->in_ctrl = a->opcode >= 8;
    if (c->in_ctrl) return;
    if (a->opcode != 0) { /* not a continuation: a new message */
        c->nmsg = 0;
        c->msg_bin = a->opcode == WSLAY_BINARY_FRAME;
    }
    c->frame_fin = a->fin;
    if (c->nmsg + a->payload_length > (uint64_t)T.lim->msg_max) {
        c->too_big = 1;
        c->big_len = c->nmsg + a->payload_length;
        wslay_event_shutdown_read(ctx);
    }
}

static void ws_frame_chunk(wslay_event_context_ptr ctx, const struct wslay_event_on_frame_recv_chunk_arg *a,
                           void *ud) {
    (void)ctx;
    tconn *c = ud;
    if (c->in_ctrl || c->too_big) return;
    if (c->nmsg + a->data_length + 1 > c->capmsg) {
        size_t cap = c->capmsg ? c->capmsg : 512;
        while (cap < c->nmsg + a->data_length + 1) cap *= 2;
        char *m = realloc(c->msg, cap);
        if (!m) {
            c->too_big = 1;
            return;
        }
        c->msg = m;
        c->capmsg = cap;
    }
    memcpy(c->msg + c->nmsg, a->data, a->data_length);
    c->nmsg += a->data_length;
}

static void ws_frame_end(wslay_event_context_ptr ctx, void *ud) {
    (void)ctx;
    tconn *c = ud;
    if (c->in_ctrl || c->too_big || !c->frame_fin || c->close_code) return;
    if (!c->msg) { /* an empty message */
        c->msg = malloc(512);
        if (!c->msg) return;
        c->capmsg = 512;
    }
    c->msg[c->nmsg] = 0;
    if (T.cb->ws_message && c->ud) T.cb->ws_message(c, c->ud, c->msg_bin, c->msg, c->nmsg);
    c->nmsg = 0;
    /* keep a small buffer, give a large one back */
    if (c->capmsg > 4096) {
        free(c->msg);
        c->msg = NULL;
        c->capmsg = 0;
    }
}

static void ws_msg(wslay_event_context_ptr ctx, const struct wslay_event_on_msg_recv_arg *a, void *ud) {
    (void)ctx;
    (void)a;
    (void)ud; /* data messages are taken frame by frame; ping, pong and close wslay answers itself */
}

/* Move c's queue into wslay and write what the socket takes; close c when
 * it is done or has failed. Loop thread. */
static void ws_flush(tconn *c) {
    if (c->closing) return;
    pthread_mutex_lock(&T.out_mu);
    omsg *m = c->qhead;
    c->qhead = c->qtail = NULL;
    c->qbytes = 0;
    int overflow = c->overflow;
    pthread_mutex_unlock(&T.out_mu);
    if (overflow) { /* a reader that fell behind: it reads nothing, so no close frame either */
        free_queue(m);
        conn_close(c);
        return;
    }
    for (omsg *p = m; p; p = p->next) {
        struct wslay_event_msg wm = {WSLAY_TEXT_FRAME, (const uint8_t *)p->data, p->len};
        if (!c->close_queued) wslay_event_queue_msg(c->ws, &wm);
    }
    free_queue(m);
    if (c->nout) {
        int w = write_raw(c);
        if (w < 0) {
            conn_close(c);
            return;
        }
    }
    if (!c->nout) {
        if (wslay_event_send(c->ws) != 0) {
            conn_close(c);
            return;
        }
        if (c->close_code && !c->close_queued && wslay_event_get_queued_msg_count(c->ws) == 0) {
            c->close_queued = 1;
            wslay_event_queue_close(c->ws, (uint16_t)c->close_code, (const uint8_t *)c->close_reason,
                                    strlen(c->close_reason));
            wslay_event_shutdown_read(c->ws);
            if (wslay_event_send(c->ws) != 0) {
                conn_close(c);
                return;
            }
        }
    }
    size_t held = wslay_event_get_queued_msg_length(c->ws);
    if (held > (size_t)T.lim->out_max) { /* the reader falls behind: drop it */
        conn_close(c);
        return;
    }
    pthread_mutex_lock(&T.out_mu);
    c->inflight = held;
    pthread_mutex_unlock(&T.out_mu);
    int want_w = c->nout || wslay_event_want_write(c->ws);
    int want_r = wslay_event_want_read(c->ws) && !c->too_big && !c->close_code;
    if (!want_w && !want_r) {
        /* done: half-close and read what the peer still sends until it
         * closes (closing at once with unread bytes would reset the
         * connection and could lose the last error and the close frame) */
        detach(c);
        c->state = C_DRAIN;
        c->opened = now_s();
        shutdown(c->fd, SHUT_WR);
        set_events(c, UV_READABLE);
        return;
    }
    set_events(c, (want_r ? UV_READABLE : 0) | (want_w ? UV_WRITABLE : 0));
}

static void queue_error(tconn *c, const char *code, const char *text) {
    char buf[512];
    int n = snprintf(buf, sizeof buf, "{\"type\":\"error\",\"code\":\"%s\",\"error\":\"%s\"}", code, text);
    if (n > 0 && (size_t)n < sizeof buf) tconn_send(c, buf, (size_t)n);
}

static void ws_readable(tconn *c) {
    if (wslay_event_recv(c->ws) != 0) {
        conn_close(c);
        return;
    }
    if (c->closing) return;
    if (c->too_big == 1) {
        c->too_big = 2;
        char text[200];
        snprintf(text, sizeof text, "message of %llu bytes is over the limit of %d bytes (--msg-max); closing",
                 (unsigned long long)c->big_len, T.lim->msg_max);
        queue_error(c, "too_large", text);
        tconn_close(c, 1009, "message too big");
    }
    ws_flush(c);
}

static void upgrade(tconn *c, const char *key, size_t keylen) {
    char acc[29];
    ws_accept_key(key, keylen, acc);
    char hdr[256];
    int n = snprintf(hdr, sizeof hdr,
                     "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Accept: %s\r\n\r\n",
                     acc);
    struct wslay_event_callbacks cbs = {ws_recv_cb, ws_send_cb, NULL, ws_frame_start, ws_frame_chunk, ws_frame_end,
                                        ws_msg};
    if (append_out(c, hdr, (size_t)n) != 0 || wslay_event_context_server_init(&c->ws, &cbs, c) != 0) {
        conn_close(c);
        return;
    }
    wslay_event_config_set_no_buffering(c->ws, 1);
    int sb = SNDBUF < T.lim->out_max ? SNDBUF : T.lim->out_max;
    setsockopt(c->fd, SOL_SOCKET, SO_SNDBUF, &sb, sizeof sb);
    c->state = C_WS;
    c->last_rx = now_s();
    c->ud = T.cb->ws_open ? T.cb->ws_open(c) : NULL;
    ws_flush(c);
}

/* ---- HTTP requests --------------------------------------------------------------- */

static const char *header(char *const *names, char *const *vals, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (strcasecmp(names[i], name) == 0) return vals[i];
    return NULL;
}

static int has_token(const char *v, const char *tok) {
    size_t tl = strlen(tok);
    for (const char *p = v; p && *p; p++)
        if (strncasecmp(p, tok, tl) == 0) return 1;
    return 0;
}

/* The request is whole in c->in[0..hlen) plus its body: answer it. */
static void http_dispatch(tconn *c, char *hdr, size_t hlen, size_t body_len) {
    hdr[hlen - 2] = 0; /* the blank line's CRLF */
    char *line_end = strstr(hdr, "\r\n");
    if (line_end) *line_end = 0;
    char *method = hdr, *sp1 = strchr(hdr, ' ');
    char *target = sp1 ? sp1 + 1 : NULL, *sp2 = target ? strchr(target, ' ') : NULL;
    if (!sp1 || !sp2 || strncmp(sp2 + 1, "HTTP/1.", 7) != 0) {
        reply_text(c, 400, "the request line is not 'METHOD /path HTTP/1.1'");
        return;
    }
    *sp1 = *sp2 = 0;
    char *names[64], *vals[64];
    int nh = 0;
    for (char *p = line_end ? line_end + 2 : NULL; p && *p && nh < 64;) {
        char *e = strstr(p, "\r\n");
        if (e) *e = 0;
        char *colon = strchr(p, ':');
        if (colon) {
            *colon = 0;
            char *v = colon + 1;
            while (*v == ' ' || *v == '\t') v++;
            names[nh] = p;
            vals[nh++] = v;
        }
        p = e ? e + 2 : NULL;
    }
    char *q = strchr(target, '?');
    if (q) *q++ = 0;
    char path[2048];
    if (url_decode(target, strlen(target), path, sizeof path, 0) < 0) {
        reply_text(c, 400, "the path is too long or holds a NUL");
        return;
    }
    if (strcmp(path, "/ws") == 0) {
        const char *up = header(names, vals, nh, "Upgrade"), *key = header(names, vals, nh, "Sec-WebSocket-Key");
        const char *ver = header(names, vals, nh, "Sec-WebSocket-Version");
        if (strcmp(method, "GET") != 0 || !has_token(up, "websocket") || !key || !ver || strcmp(ver, "13") != 0) {
            reply_text(c, 400, "/ws is a WebSocket (version 13) endpoint");
            return;
        }
        /* what came after the headers is the first frames */
        size_t rest = c->nin - hlen;
        char keybuf[129];
        snprintf(keybuf, sizeof keybuf, "%s", key);
        memmove(c->in, c->in + hlen, rest);
        c->nin = rest;
        if (!rest) {
            free(c->in);
            c->in = NULL;
            c->capin = 0;
        }
        upgrade(c, keybuf, strlen(keybuf));
        return;
    }
    if (strncmp(path, "/api/", 5) == 0) {
        char *body = hdr + hlen; /* the NUL after the body: c->in has room for it */
        char save = body[body_len];
        body[body_len] = 0;
        treq r = {c, method, path, q ? q : "", body, body_len, c->ae ? c->ae->addr : "?", 0};
        if (T.cb->api) T.cb->api(&r);
        body[body_len] = save;
        if (!r.replied) treply(&r, 500, "application/json", "{\"code\":\"server\",\"error\":\"no answer\"}", 39, NULL);
        return;
    }
    serve_file(c, method, path);
}

static void http_readable(tconn *c) {
    for (;;) {
        size_t cap = HDR_MAX + (size_t)T.lim->msg_max + 2;
        if (c->nin + 1 >= c->capin) {
            size_t nc = c->capin ? c->capin * 2 : 2048;
            if (nc > cap) nc = cap;
            if (nc <= c->nin + 1) break; /* full: judged below */
            char *b = realloc(c->in, nc);
            if (!b) {
                conn_close(c);
                return;
            }
            c->in = b;
            c->capin = nc;
        }
        ssize_t r = recv(c->fd, c->in + c->nin, c->capin - c->nin - 1, MSG_DONTWAIT);
        if (r > 0) {
            c->nin += (size_t)r;
            continue;
        }
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        conn_close(c); /* end of stream before a whole request, or an error */
        return;
    }
    c->in[c->nin] = 0;
    char *end = strstr(c->in, "\r\n\r\n");
    if (!end) {
        if (c->nin >= HDR_MAX) reply_text(c, 431, "the request's headers are over 16 KiB");
        return;
    }
    size_t hlen = (size_t)(end - c->in) + 4;
    if (hlen > HDR_MAX) {
        reply_text(c, 431, "the request's headers are over 16 KiB");
        return;
    }
    /* the body: Content-Length only, at most --msg-max */
    long clen = 0;
    for (char *p = strstr(c->in, "\r\n"); p && p < end; p = strstr(p + 2, "\r\n")) {
        if (strncasecmp(p + 2, "Content-Length:", 15) == 0) {
            char *e;
            clen = strtol(p + 17, &e, 10);
            if (clen < 0) clen = -1;
        } else if (strncasecmp(p + 2, "Transfer-Encoding:", 18) == 0) {
            reply_text(c, 411, "a body needs a Content-Length (no chunked encoding)");
            return;
        }
    }
    if (clen < 0 || clen > T.lim->msg_max) {
        reply_text(c, 413, "request body is over %d bytes (--msg-max)", T.lim->msg_max);
        return;
    }
    if (c->nin < hlen + (size_t)clen) return; /* the rest of the body is on its way */
    set_events(c, 0);
    http_dispatch(c, c->in, hlen, (size_t)clen);
}

static void on_poll(uv_poll_t *h, int status, int events) {
    tconn *c = h->data;
    if (c->closing) return;
    if (status < 0) {
        conn_close(c);
        return;
    }
    if (c->state == C_HTTP) {
        if (events & UV_READABLE) http_readable(c);
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

/* ---- the outbound queue --------------------------------------------------------------- */

int tconn_send(tconn *c, const char *text, size_t len) {
    omsg *m = malloc(sizeof *m + len);
    if (m) {
        m->next = NULL;
        m->len = len;
        memcpy(m->data, text, len);
    }
    pthread_mutex_lock(&T.out_mu);
    int rc = 0, wake = 0;
    if (c->dead || c->overflow) {
        rc = -1;
        free(m);
    } else if (!m || c->qbytes + c->inflight + len > (size_t)T.lim->out_max + OUT_SLACK) {
        c->overflow = 1;
        rc = -1;
        free(m);
    } else {
        if (c->qtail) c->qtail->next = m;
        else c->qhead = m;
        c->qtail = m;
        c->qbytes += len;
    }
    if (!c->dead && !c->dirty) {
        c->dirty = 1;
        c->dprev = NULL;
        c->dnext = T.dirty;
        if (T.dirty) T.dirty->dprev = c;
        wake = T.dirty == NULL;
        T.dirty = c;
    }
    pthread_mutex_unlock(&T.out_mu);
    if (wake) uv_async_send(&T.wake);
    return rc;
}

void tconn_close(tconn *c, int code, const char *reason) {
    if (c->close_code) return;
    c->close_code = code;
    c->close_at = now_s();
    snprintf(c->close_reason, sizeof c->close_reason, "%s", reason);
    if (c->ws) wslay_event_shutdown_read(c->ws);
    pthread_mutex_lock(&T.out_mu);
    int wake = 0;
    if (!c->dead && !c->dirty) {
        c->dirty = 1;
        c->dprev = NULL;
        c->dnext = T.dirty;
        if (T.dirty) T.dirty->dprev = c;
        wake = T.dirty == NULL;
        T.dirty = c;
    }
    pthread_mutex_unlock(&T.out_mu);
    if (wake) uv_async_send(&T.wake);
}

void tconn_joined(tconn *c) { c->joined = 1; }

static void on_wake(uv_async_t *a) {
    (void)a;
    for (;;) {
        pthread_mutex_lock(&T.out_mu);
        tconn *c = T.dirty;
        if (c) {
            T.dirty = c->dnext;
            if (T.dirty) T.dirty->dprev = NULL;
            c->dirty = 0;
            c->dnext = c->dprev = NULL;
        }
        pthread_mutex_unlock(&T.out_mu);
        if (!c) return;
        if (c->state == C_WS) ws_flush(c);
    }
}

/* ---- timers, signals, start and stop ------------------------------------------------- */

static void on_tick(uv_timer_t *t) {
    (void)t;
    if (T.cb->tick) T.cb->tick();
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
        if (c->state == C_HTTP || c->state == C_DRAIN) {
            if (now - c->opened > T.lim->join_s) conn_close(c);
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
