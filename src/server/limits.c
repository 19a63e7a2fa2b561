/* limits.c: the table of kontor serve's limits (limits.h): option, default, range, help.
 *
 * One table so that the defaults, the parsing and `kontor serve --help`
 * cannot drift apart.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "server/limits.h"

typedef struct limit_def {
    const char *opt;
    size_t off;
    int def, min, max;
    const char *help;
} limit_def;

#define OFF(f) offsetof(server_limits, f)
static const limit_def defs[] = {
    {"--conns-per-addr", OFF(conns_per_addr), 64, 0, 1000000, "open connections from one address (0: no limit)"},
    {"--max-conns", OFF(max_conns), 20000, 16, 1000000, "open connections in all (lowered to fit the open-file limit)"},
    {"--join-timeout", OFF(join_s), 10, 1, 3600,
     "seconds for a request to arrive, and for a WebSocket to join or watch a game"},
    {"--ping", OFF(ping_s), 30, 1, 3600, "seconds of silence before a WebSocket is pinged; dropped after as long again"},
    {"--msg-max", OFF(msg_max), 64 * 1024, 1024, 16 * 1024 * 1024,
     "bytes of a WebSocket message or request body, refused from the frame header"},
    {"--msg-rate", OFF(msg_rate), 200, 1, 100000, "WebSocket messages a second per connection (bursts of twice that)"},
    {"--create-per-min", OFF(create_per_min), 30, 0, 1000000, "games created per address per minute (0: no limit)"},
    {"--open-ttl", OFF(open_ttl_s), 1800, 1, 30 * 86400, "seconds before an open game that nobody joined leaves"},
    {"--ai-games", OFF(ai_games), 4, 0, 100000, "games of computer seats only at once (0: refused)"},
    {"--out-max", OFF(out_max), 256 * 1024, 4096, 64 * 1024 * 1024,
     "bytes a reader leaves unread beyond its socket's buffer before it is disconnected"},
    {"--linger", OFF(linger_s), 30, 0, 86400, "seconds a finished game stays in memory after its last connection"},
    {"--keepalive", OFF(keepalive_s), 5, 1, 3600, "seconds an HTTP connection waits for its next request"},
    {"--keepalive-max", OFF(keepalive_max), 100, 1, 100000,
     "HTTP requests on one connection (1: one request a connection)"},
    {"--idle-evict", OFF(idle_s), 600, 1, 30 * 86400,
     "seconds a running game nobody is connected to stays in memory (it comes back on the next request)"},
    /* a person types a line in a few seconds: 5 in 10 s lets a quick
     * exchange through and stops a script pasting a wall of text */
    {"--chat-burst", OFF(chat_burst), 5, 1, 20, "chat messages one connection may send within --chat-window"},
    {"--chat-window", OFF(chat_window_s), 10, 1, 3600, "seconds of the --chat-burst window"},
    {"--chat-keep", OFF(chat_keep), 50, 1, 1000, "chat messages a game keeps in memory for a reload"},
    {"--analysis-per-min", OFF(analysis_per_min), 2, 0, 1000, "game analyses started per address per minute (0: none)"},
    {"--analyses", OFF(analyses), 2, 1, 64, "game analyses under way at once, in all (more wait: 503 busy)"},
    {"--analysis-iters", OFF(analysis_iters), 1000, 16, 100000,
     "search iterations a decision when a finished game is analysed"},
};

void limits_default(server_limits *l) {
    memset(l, 0, sizeof *l);
    for (size_t i = 0; i < sizeof defs / sizeof *defs; i++) *(int *)((char *)l + defs[i].off) = defs[i].def;
}

int limits_set(server_limits *l, const char *opt, const char *val, char *err, size_t errcap) {
    for (size_t i = 0; i < sizeof defs / sizeof *defs; i++) {
        if (strcmp(opt, defs[i].opt) != 0) continue;
        char *end;
        long v = strtol(val, &end, 10);
        if (end == val || *end || v < defs[i].min || v > defs[i].max) {
            snprintf(err, errcap, "%s must be a number from %d to %d, not '%.40s'", opt, defs[i].min, defs[i].max, val);
            return -1;
        }
        *(int *)((char *)l + defs[i].off) = (int)v;
        return 1;
    }
    return 0;
}

void limits_help(FILE *f) {
    for (size_t i = 0; i < sizeof defs / sizeof *defs; i++)
        fprintf(f, "  %-18s %s (default %d)\n", defs[i].opt, defs[i].help, defs[i].def);
}
