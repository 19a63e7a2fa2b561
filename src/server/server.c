/* server.c: kontor serve: start and stop, the 200 ms tick, and the transport's callbacks.
 *
 * The server's other files (sgame.h lists them, bottom to top) hold the
 * games, their views, the computer's queue and threads, the WebSocket
 * sessions and the HTTP API; this file wires them to the transport and
 * says, here, how their threads share the games.
 *
 * Threads. One event loop (transport.c: libuv, epoll) owns every socket and
 * runs the handlers here for /api/ requests and WebSocket messages, the
 * 200 ms tick (timeouts, games leaving memory) and the signals. Each game
 * has its own mutex, and everything that changes a game (a player's move, a
 * computer's move, a timeout) goes through apply_decision() under that
 * mutex: check, apply, store the record, and only then queue the new views.
 * So a move is acknowledged only once it is on disk, and a crash can lose at
 * most a move nobody was told about. Nothing is written to a socket under a
 * game's lock: broadcast() only appends to each connection's bounded queue
 * (tconn_send), and the loop writes. A connection is in its game's list only
 * while it is open (its close removes it under the game's mutex), so queueing
 * to the connections of a game under that mutex never touches a freed one.
 * Only the loop's thread finds games by id; a game leaves memory (finished,
 * or open and abandoned) on that thread when no computer move is queued or
 * under way, so no other thread holds it then.
 *
 * Computer seats are played by --ai-threads workers fed by two queues, games
 * with a person first: a worker takes a view under the lock, thinks without
 * it (other moves of the same game wait for it, other games do not), and
 * applies under the lock if the game has not moved on. The same workers
 * analyse finished games (analysis_api.c), one decision at a time, when no
 * game with a person waits, taking turns with the computer-only games.
 *
 * Outside input is distrusted: WebSocket messages and bodies are capped
 * (--msg-max, from the frame header, in transport.c) and rate-limited per
 * connection (a token bucket), JSON is parsed by jansson and every field is
 * checked for type and range before use; errors go back as
 * {"type":"error","error":"..."} and change nothing. limits.h lists every limit.
 */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server/analysis_api.h"
#include "server/nodesync.h"
#include "server/server.h"
#include "server/sgame.h"
#include "server/transport.h"

/* ---- the transport's side (transport.c calls these on the loop's thread) ----------------- */

static void t_send(void *tx, const char *text, size_t len) { tconn_send(tx, text, len); }
static void t_close(void *tx, int code) { tconn_close(tx, code, code == 1009 ? "message too big" : "policy"); }
static void t_joined(void *tx) { tconn_joined(tx); }
static void t_decided(void *tx) { tconn_decided(tx); }

static void *t_ws_open(tconn *c) { return server_conn_open(t_send, t_close, c); }

static void t_ws_message(tconn *c, void *ud, int binary, const char *data, size_t len) {
    if (ud && !server_conn_message(ud, !binary, data, len)) tconn_close(c, 1008, "closing");
}

static void t_ws_close(tconn *c, void *ud) {
    (void)c;
    server_conn_closed(ud);
}

static void t_api(treq *r) {
    /* game creations: a budget per address (--create-per-min); the handlers
     * do not see addresses, the transport does */
    if (strcmp(r->method, "POST") == 0 && strcmp(r->path, "/api/games") == 0) {
        int retry;
        if (!treq_take_create(r, &retry)) {
            char hdr[64], msg[200];
            snprintf(hdr, sizeof hdr, "Retry-After: %d\r\n", retry);
            snprintf(msg, sizeof msg, "too many games created from your address: at most %d a minute (--create-per-min)",
                     S.lim.create_per_min);
            json_t *o = json_pack("{s:s, s:s, s:i}", "error", msg, "code", "rate", "retry_after", retry);
            char *t = json_dumps(o, JSON_COMPACT);
            json_decref(o);
            treply(r, 429, "application/json", t ? t : "{}", t ? strlen(t) : 2, hdr);
            free(t);
            return;
        }
    }
    server_http_req rq = {r->method, r->path, r->query[0] ? r->query : NULL, r->body, r->body_len, 0, r->addr};
    server_http_resp rs;
    server_http(&rq, &rs);
    treply(r, rs.status, rs.ctype, rs.body ? rs.body : "", rs.body ? rs.len : 0, rs.extra[0] ? rs.extra : NULL);
    free(rs.body);
}

static void server_tick(void) {
    play_timeouts();
    if (++S.ticks % 5 == 0) {
        evict_games();
        if (S.shared) leases_tick();
    }
}

static const char *run_db;
static int run_resumed;
static const char *run_host;

static void on_ready(int port) {
    /* a PostgreSQL URL may carry a password: show it up to its '@' as "..." */
    char shown[200];
    const char *at = strrchr(run_db, '@'), *scheme = strstr(run_db, "://");
    if (at && scheme && scheme < at) snprintf(shown, sizeof shown, "%.*s...%s", (int)(scheme + 3 - run_db), run_db, at);
    else snprintf(shown, sizeof shown, "%s", run_db);
    printf("kontor: serving http://%s:%d/ (db '%s', %d unfinished game%s resumed)\n", run_host, port, shown,
           run_resumed, run_resumed == 1 ? "" : "s");
    fflush(stdout);
}

/* ---- run -------------------------------------------------------------------------- */

static int resumed_games;

/* analysis_api.c: an analysis is waiting for the workers */
static void wake_workers(void) {
    pthread_mutex_lock(&S.q_mu);
    pthread_cond_broadcast(&S.q_cv);
    pthread_mutex_unlock(&S.q_mu);
}

int server_init(const char *db, int quiet, kontor_error *err) {
    memset(err, 0, sizeof *err);
    S.quiet = quiet;
#ifdef KONTOR_TEST_LEAKY
    S.leaky = 1;
#endif
    if (!S.lim.msg_max) limits_default(&S.lim); /* (server_run sets them first) */
    pthread_mutex_init(&S.reg_mu, NULL);
    pthread_mutex_init(&S.q_mu, NULL);
    pthread_cond_init(&S.q_cv, NULL);
    analysis_api_init(&S.lim, wake_workers);
    /* every named variant's own config in the process's table of configs
     * first, held for the life of the process (never released): the
     * strangers' option sets are held only by their games and leave the
     * table with them (src/core/intern.c), but if ever KONTOR_CONFIGS_MAX of
     * them are in memory at once a new one is refused, never the plain
     * variants. (Taken again by a second server_init in one process, a test's:
     * a hold more on an entry that is never released anyway.) */
    for (int v = 0; kontor_variant_describe(v); v++) {
        kontor_config vc;
        if (kontor_config_init(&vc, kontor_variant_name(v), NULL) == KONTOR_OK) (void)kontor_config_retain(&vc, NULL);
    }
    kontor_rng_seed(&S.tick_rng, (uint64_t)(now_s() * 1e6));
    S.st = store_open(db, err);
    if (!S.st) return 1;
    resumed_games = 0;
    S.shared = store_shared(S.st);
    /* several nodes: games come into memory when a client asks for one,
     * or when their node died (leases_tick), not all at start */
    if (S.shared) random_hex(S.node, 16);
    if (!S.shared && store_load(S.st, 1, load_one, &resumed_games, err) != KONTOR_OK) {
        store_close(S.st);
        S.st = NULL;
        return 1;
    }
    return 0;
}

void server_shutdown(void) {
    views_thread_done(); /* (the loop's thread, or the caller's) */
    analysis_api_shutdown();
    for (long i = 0; i < S.nall; i++) free_game(S.all[i]);
    free(S.all);
    for (int i = 0; i < S.naway; i++) json_decref(S.away[i]);
    free(S.people.q);
    free(S.bots.q);
    if (S.st) store_close(S.st);
    pthread_mutex_destroy(&S.reg_mu);
    pthread_mutex_destroy(&S.q_mu);
    pthread_cond_destroy(&S.q_cv);
    memset(&S, 0, sizeof S);
}

int server_run(const server_opts *o, kontor_error *err) {
    memset(err, 0, sizeof *err);

    char index[PATH_MAX];
    snprintf(index, sizeof index, "%s/index.html", o->web);
    if (access(index, R_OK) != 0) {
        err->code = KONTOR_E_IO;
        snprintf(err->msg, sizeof err->msg, "web directory '%s' has no index.html (give --web DIR)", o->web);
        return 1;
    }
    S.lim = o->lim;
    if (server_init(o->db, o->quiet, err) != 0) return 1;

    /* the computer's threads never take SIGINT or SIGTERM: the loop does */
    sigset_t sigs, old;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, &old);
    signal(SIGPIPE, SIG_IGN);

    int nai = o->ai_threads > 0 ? o->ai_threads : 1;
    pthread_t ai[16];
    if (nai > 16) nai = 16;
    for (int i = 0; i < nai; i++) pthread_create(&ai[i], NULL, ai_worker, i == 0 && nai > 1 ? &S : NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);

    if (S.shared && nodesync_start(o->db, on_node_change, err) != 0) {
        pthread_mutex_lock(&S.q_mu);
        S.stop = 1;
        pthread_cond_broadcast(&S.q_cv);
        pthread_mutex_unlock(&S.q_mu);
        for (int i = 0; i < nai; i++) pthread_join(ai[i], NULL);
        server_shutdown();
        return 1;
    }
    run_db = o->db;
    run_host = o->host;
    run_resumed = resumed_games;
    S.joined = t_joined;
    S.decided = t_decided;
    transport_opts to = {o->host, o->port, o->web, &S.lim, on_ready, o->slow_turn_ms};
    transport_cb cb = {t_api, t_ws_open, t_ws_message, t_ws_close, server_tick};
    int rc = transport_run(&to, &cb, err);
    if (rc == 0) logf_("stopped on a signal");

    pthread_mutex_lock(&S.q_mu);
    S.stop = 1;
    pthread_cond_broadcast(&S.q_cv);
    pthread_mutex_unlock(&S.q_mu);
    for (int i = 0; i < nai; i++) pthread_join(ai[i], NULL);
    nodesync_stop();
    server_shutdown();
    return rc;
}
