/* limits.h: every limit of kontor serve, in one place: its option, its default, what it bounds.
 *
 * Each limit answers a way one client (or one address) could take more than
 * its share of a server that many people use: sockets held open and idle, a
 * frame that announces gigabytes, a reader that never reads, a burst of game
 * creations, games of computers only. Each is a field of server_limits, set
 * from the command line by its option (`kontor serve --help` lists them with
 * their defaults), and each refusal says which limit and how to change it.
 * docs/server.md, "Limits", gives the reasons for the defaults.
 */
#ifndef KONTOR_SERVER_LIMITS_H
#define KONTOR_SERVER_LIMITS_H

#include <stdio.h>

typedef struct server_limits {
    int conns_per_addr;   /* open connections from one address; 0: no limit */
    int max_conns;        /* open connections in all (lowered to fit the open-file limit) */
    int join_s;           /* seconds for a request to arrive whole, and for a WebSocket to join or watch a game */
    int ping_s;           /* seconds of silence before a WebSocket is pinged; as long again without an answer drops it */
    int msg_max;          /* bytes of one WebSocket message or HTTP request body, checked from the header */
    int msg_rate;         /* WebSocket messages a second per connection (bursts of twice that) */
    int create_per_min;   /* games created per address per minute; 0: no limit */
    int open_ttl_s;       /* an open game that no person has joined leaves after this many seconds */
    int ai_games;         /* games of computer seats only, at once; 0: refused */
    int out_max;          /* bytes waiting to be sent to one connection; past it the connection is dropped */
    int linger_s;         /* a finished game stays in memory this long after its last connection left */
    int keepalive_s;      /* seconds an HTTP connection may wait for its next request */
    int keepalive_max;    /* HTTP requests on one connection (1: one request a connection) */
    int idle_s;           /* a running game nobody is connected to leaves memory after this long (the store keeps it) */
    int chat_burst;       /* chat messages one connection may send within chat_window_s */
    int chat_window_s;    /* the window of chat_burst, in seconds */
    int chat_keep;        /* chat messages a game keeps in memory, so that a reload shows them */
    int analysis_per_min; /* game analyses started per address per minute; 0: none */
    int analyses;         /* game analyses under way at once (queued or running), in all */
    int analysis_iters;   /* the search's iterations a decision in an analysis (and again for a re-search) */
} server_limits;

/* The defaults (docs/server.md says why each). */
void limits_default(server_limits *l);
/* If opt is one of the limits' options ("--msg-max"), parse val into it:
 * returns 1 when it took the option, 0 when opt is not a limit, -1 with
 * err filled when val is out of range. */
int limits_set(server_limits *l, const char *opt, const char *val, char *err, size_t errcap);
/* One help line per limit, with its default. */
void limits_help(FILE *f);

#endif
