/* serve.c: kontor serve: start the game server (src/server/) from the command line.
 *
 * Only option parsing lives here; the server itself is src/server/ (server.c).
 * The browser client's directory is found the way a checkout and an install
 * both work: --web, else web/ next to the binary's repository (build/kontor
 * -> ../web), else ./web, else /usr/local/share/kontor/web and
 * /usr/share/kontor/web. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "server/server.h"

static const char *help =
    "usage: kontor serve [--port N] [--host ADDR] [--db FILE|URL] [--web DIR]\n"
    "                    [--ai-threads N] [--quiet] [LIMITS]\n"
    "\n"
    "Serves the browser client and the game API (HTTP and WebSocket, one\n"
    "event loop) until interrupted (SIGINT or SIGTERM). Open\n"
    "http://localhost:8080/ to play.\n"
    "\n"
    "  --port N        port to listen on (default 8080; 0: any free port, printed)\n"
    "  --host ADDR     address to bind (default 127.0.0.1; 0.0.0.0 for every interface)\n"
    "  --db FILE       SQLite database of games (default kontor.db); every\n"
    "                  unfinished game in it is resumed at start\n"
    "  --db URL        PostgreSQL instead (postgresql://USER@HOST:PORT/DB, libpq's\n"
    "                  syntax): several nodes may serve one database behind a\n"
    "                  load balancer (docs/deploy.md); games come into a node's\n"
    "                  memory when a client asks for them\n"
    "  --web DIR       the browser client (default: web/ of this checkout or install)\n"
    "  --ai-threads N  threads playing the computer's seats (default 1)\n"
    "  --threads N     ignored (connections no longer take a thread each)\n"
    "  --quiet         no log lines on stderr\n"
    "  --slow-turn MS  a line on stderr for each turn of the event loop busy for\n"
    "                  longer than MS ms: its time on a core (less: it waited for\n"
    "                  one), its socket events and its 200 ms tick (default 0: none;\n"
    "                  /api/stats has the histogram of every turn)\n"
    "\n"
    "LIMITS (each refusal names the option that sets it):\n";

static int is_web_dir(const char *dir) {
    char p[PATH_MAX];
    if ((size_t)snprintf(p, sizeof p, "%s/index.html", dir) >= sizeof p) return 0;
    return access(p, R_OK) == 0;
}

static const char *find_web(char *buf, size_t cap) {
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            if ((size_t)snprintf(buf, cap, "%s/../web", exe) < cap && is_web_dir(buf)) return buf;
            if ((size_t)snprintf(buf, cap, "%s/../share/kontor/web", exe) < cap && is_web_dir(buf)) return buf;
        }
    }
    const char *fixed[] = {"web", "/usr/local/share/kontor/web", "/usr/share/kontor/web"};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        if (is_web_dir(fixed[i])) {
            snprintf(buf, cap, "%s", fixed[i]);
            return buf;
        }
    return NULL;
}

int cmd_serve(int argc, char **argv) {
    server_opts o = {"127.0.0.1", 8080, "kontor.db", NULL, 256, 1, 0, {0}, 0};
    limits_default(&o.lim);
    uint64_t v;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(help, stdout);
            limits_help(stdout);
            fputs("\nSee docs/server.md for the API, the storage and the limits.\n", stdout);
            return 0;
        }
        if (strcmp(a, "--quiet") == 0) {
            o.quiet = 1;
            continue;
        }
        if (i + 1 >= argc) {
            cli_error("serve: '%s' is not an option, or lacks its value (try --help)", a);
            return 2;
        }
        const char *val = argv[++i];
        char lerr[160];
        int lr = limits_set(&o.lim, a, val, lerr, sizeof lerr);
        if (lr < 0) {
            cli_error("serve: %s", lerr);
            return 2;
        }
        if (lr > 0) continue;
        if (strcmp(a, "--port") == 0) {
            if (cli_number(a, val, 65535, &v)) return 2;
            o.port = (int)v;
        } else if (strcmp(a, "--host") == 0) {
            o.host = val;
        } else if (strcmp(a, "--db") == 0) {
            o.db = val;
        } else if (strcmp(a, "--web") == 0) {
            o.web = val;
        } else if (strcmp(a, "--threads") == 0) {
            if (cli_number(a, val, 20000, &v) || v < 4) {
                cli_error("serve: --threads must be from 4 to 20000");
                return 2;
            }
            o.threads = (int)v;
        } else if (strcmp(a, "--slow-turn") == 0) {
            if (cli_number(a, val, 60000, &v)) return 2;
            o.slow_turn_ms = (int)v;
        } else if (strcmp(a, "--ai-threads") == 0) {
            if (cli_number(a, val, 16, &v) || v < 1) {
                cli_error("serve: --ai-threads must be from 1 to 16");
                return 2;
            }
            o.ai_threads = (int)v;
        } else {
            cli_error("serve: '%s' is not an option (try --help)", a);
            return 2;
        }
    }
    char web[PATH_MAX];
    if (!o.web) {
        o.web = find_web(web, sizeof web);
        if (!o.web) {
            cli_error("serve: cannot find the browser client (web/index.html); give --web DIR");
            return 2;
        }
    }
    kontor_error err;
    if (server_run(&o, &err) != 0) {
        cli_error("serve: %s", err.msg);
        return 1;
    }
    return 0;
}
