/* tconn.h: the transport's inside, shared by its files (not a public header).
 *
 * transport.c was one file of 1,100 lines; it is split by concept, and this
 * header holds what the parts share: a connection (tconn), the loop's state
 * T, the limits' constants. The files depend on each other one way, bottom
 * to top (each calls only those above it in this list):
 *
 *   conn.c        a connection's buffers, its events, closing it
 *   websocket.c   WebSocket frames (wslay), the outbound queue any thread fills
 *   http.c        HTTP requests and replies, static files, the upgrade to WebSocket
 *   transport.c   accepting, limits per address, the timers, the loop itself
 *
 * transport.c's opening comment describes a connection's life.
 */
#ifndef KONTOR_SERVER_TCONN_H
#define KONTOR_SERVER_TCONN_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>

#include <uv.h>
#include <wslay/wslay.h>

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

/* C_HTTP: reading a request; C_KEEP: writing a reply, then C_HTTP again
 * (keep-alive); C_WS: a WebSocket; C_DRAIN: a last reply or close frame
 * written, waiting for the peer to close. */
enum { C_HTTP, C_WS, C_DRAIN, C_KEEP };

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
    /* keep-alive: requests answered on this connection; this request's
     * length in c->in (what the next one starts after); 1 when its reply
     * keeps the connection open */
    int nreq, keep;
    size_t req_len;
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
    /* outbound, under out_mu: whole text frames (header and payload) that
     * any thread appended, not yet handed to the loop's c->out; inflight:
     * what the loop still holds (c->out's rest and wslay's control frames) */
    char *qb;
    size_t qn, qcap, inflight;
    int overflow, dirty, dead;
    /* latency.h: the kernel's receive time of the last bytes read (CLOCK_REALTIME
     * ns), and of a decision whose acknowledgement is not yet written (0: none) */
    uint64_t rx_ns, dec_rx_ns;
    tconn *dnext, *dprev;
    /* every connection, loop thread only */
    tconn *next, *prev;
};

/* The loop's state: one for the process (transport_run fills it). */
typedef struct tstate {
    uv_loop_t *loop;
    uv_poll_t lpoll;
    uv_timer_t tick, accept_pause;
    uv_prepare_t prep;            /* each turn of the loop: its busy time (latency.h) */
    uint64_t prep_ns, prep_idle, prep_cpu, prep_nev, nev, tick_ns; /* --slow-turn */
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
    uv_poll_cb poll_cb; /* on_poll (transport.c): what a connection's poll calls */
} tstate;
extern tstate T;

static inline double now_s(void) { return (double)uv_hrtime() / 1e9; }

/* conn.c */
void set_events(tconn *c, int ev);
void detach(tconn *c);
void conn_close(tconn *c);
int write_raw(tconn *c);
int append_out(tconn *c, const char *data, size_t len);

/* websocket.c */
void ws_flush(tconn *c);
void ws_readable(tconn *c);
void queue_error(tconn *c, const char *code, const char *text);
void upgrade(tconn *c, const char *key, size_t keylen);
void on_wake(uv_async_t *a);

/* http.c */
const char *reason_of(int status);
void http_readable(tconn *c);
void http_writable(tconn *c);

#endif
