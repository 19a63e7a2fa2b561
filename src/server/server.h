/* server.h: kontor serve: the game server (HTTP, WebSocket, lobby, AI seats, storage).
 *
 * One call runs the whole server until SIGINT or SIGTERM. The server keeps
 * each game's authoritative kontor_state in memory, stores each game as its
 * record (store.h) before any result leaves the process, and sends each
 * connection only its seat's view. docs/server.md describes the protocol.
 */
#ifndef KONTOR_SERVER_SERVER_H
#define KONTOR_SERVER_SERVER_H

#include "kontor/kontor.h"
#include "server/limits.h"

typedef struct server_opts {
    const char *host;     /* address to bind, "127.0.0.1" or "0.0.0.0" */
    int port;             /* 0: any free port (the port is printed) */
    const char *db;       /* SQLite file */
    const char *web;      /* directory of the browser client */
    int threads;          /* ignored: the event loop needs no thread a connection (kept for old scripts) */
    int ai_threads;       /* threads that play the computer's seats */
    int quiet;            /* no log lines on stderr */
    server_limits lim;    /* limits.h */
    int slow_turn_ms;     /* log each turn of the loop busy longer than this (0: none) */
} server_opts;

/* Serve until a signal; returns 0 on a clean stop, non-zero (err filled) when
 * the server could not start. Prints "kontor: serving http://HOST:PORT/" on
 * stdout once it accepts connections. */
int server_run(const server_opts *o, kontor_error *err);

/* The server without its transport, so that tests and the fuzz target
 * (fuzz/fuzz_server.c) call the handlers in process. server_init opens the
 * store and resumes its games; no thread is started (computer seats wait).
 * server_shutdown frees every game and closes the store. */
int server_init(const char *db, int quiet, kontor_error *err);
void server_shutdown(void);

/* One HTTP request to /api/...: method, path, query (or NULL), the body of a
 * POST (body_over: it was longer than the server reads, 64 KiB). The answer:
 * status, content type, extra header lines, body (malloc'd; caller frees). */
typedef struct server_http_req {
    const char *method, *uri, *query;
    const char *body;
    size_t body_len;
    int body_over;
    const char *addr; /* the peer's address (per-address limits), or NULL */
} server_http_req;
typedef struct server_http_resp {
    int status;
    char ctype[48];
    char extra[160];
    char *body;
    size_t len;
} server_http_resp;
int server_http(const server_http_req *rq, server_http_resp *rs);

/* One WebSocket connection: the transport gives how to send a text message
 * and how to close (with a close code); server_conn_open sends "hello".
 * server_conn_message takes one whole message (text: a text frame); 0 means
 * close the connection. server_conn_closed when the socket is gone (frees). */
typedef struct wsconn server_conn;
server_conn *server_conn_open(void (*send)(void *tx, const char *text, size_t len), void (*close)(void *tx, int code),
                              void *tx);
int server_conn_message(server_conn *w, int text, const char *data, size_t len);
void server_conn_closed(server_conn *w);

#endif
