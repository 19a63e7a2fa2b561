/* transport.h: kontor serve's network side: one event loop (libuv, epoll) for HTTP, static files and WebSocket.
 *
 * One thread runs the loop: it accepts, reads requests, answers the static
 * client from the web directory, upgrades /ws to WebSocket (frames by wslay)
 * and calls the server's handlers (server.c) for /api/ requests and for
 * WebSocket messages. Other threads (the computer's players) never touch a
 * socket: tconn_send() only appends to a connection's bounded outbound
 * queue and wakes the loop, which writes. A connection whose queue passes
 * --out-max (a reader that does not read) is dropped. The limits of limits.h
 * that concern sockets (per address, join timeout, pings, frame size) are
 * enforced here, each refusal with a message that names it.
 */
#ifndef KONTOR_SERVER_TRANSPORT_H
#define KONTOR_SERVER_TRANSPORT_H

#include <stddef.h>

#include "kontor/kontor.h"
#include "server/limits.h"

typedef struct tconn tconn;

/* An HTTP request, valid during the api callback only. */
typedef struct treq {
    tconn *c;
    const char *method;  /* "GET", "POST", ... */
    const char *path;    /* decoded path without the query, "/api/games" */
    const char *query;   /* after '?', "" if none */
    const char *body;    /* the body (NUL-terminated), body_len bytes */
    size_t body_len;
    const char *addr;    /* the peer's address, as text */
    int replied;
} treq;

typedef struct transport_cb {
    void (*api)(treq *r);                                           /* a request under /api/: must treply() */
    void *(*ws_open)(tconn *c);                                     /* a new WebSocket; returns its user data */
    void (*ws_message)(tconn *c, void *ud, int binary, const char *data, size_t len);
    void (*ws_close)(tconn *c, void *ud);                           /* before the connection is freed */
    void (*tick)(void);                                             /* every 200 ms */
} transport_cb;

typedef struct transport_opts {
    const char *host;
    int port;
    const char *web;
    const server_limits *lim;
    void (*ready)(int port); /* once listening */
    int slow_turn_ms;        /* a line on stderr for each turn of the loop busy longer (0: none) */
} transport_opts;

/* Run the loop until SIGINT or SIGTERM; 0, or non-zero with err filled
 * when it cannot listen. Every open connection is closed (ws_close called)
 * before it returns. */
int transport_run(const transport_opts *o, const transport_cb *cb, kontor_error *err);

/* Answer r (once): status, content type, body; extra: more header lines
 * ("Name: value\r\n"), or NULL. The connection closes after it. */
void treply(treq *r, int status, const char *ctype, const char *body, size_t len, const char *extra);
/* "not_found" for 404 and so on: the code of an error answer without a more
 * particular one (the browser words it from its catalogue). */
const char *http_error_code(int status);
/* The value of name in the query string, decoded: its length, or -1. */
int treq_var(const treq *r, const char *name, char *out, size_t cap);
/* Take one game creation from r's address's budget (--create-per-min):
 * 1 if allowed, else 0 with *retry_s the seconds until the next one is. */
int treq_take_create(treq *r, int *retry_s);

/* Queue a text message to c. Any thread may call it while c is known to be
 * open (the server holds the game's mutex that ws_close also takes). Never
 * writes to the socket. Returns 0, or -1 when c's queue is full (c is then
 * dropped by the loop) or c is closing. */
int tconn_send(tconn *c, const char *text, size_t len);
/* Loop thread: close c after what is queued, with a close code (1008 policy,
 * 1009 too big) and a short reason. */
void tconn_close(tconn *c, int code, const char *reason);
/* Loop thread: c has joined or watched a game (ends its join timeout). */
void tconn_joined(tconn *c);
/* Loop thread: a decision that arrived on c was applied and its
 * acknowledgement queued to c; the time until it is written is counted
 * (latency.h, /api/stats). */
void tconn_decided(tconn *c);

#endif
