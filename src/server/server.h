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
} server_opts;

/* Serve until a signal; returns 0 on a clean stop, non-zero (err filled) when
 * the server could not start. Prints "kontor: serving http://HOST:PORT/" on
 * stdout once it accepts connections. */
int server_run(const server_opts *o, kontor_error *err);

#endif
