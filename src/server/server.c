/* server.c: kontor serve: games in memory, their records in the store, handlers for HTTP and WebSocket.
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
 * applies under the lock if the game has not moved on.
 *
 * Outside input is distrusted: WebSocket messages and bodies are capped
 * (--msg-max, from the frame header, in transport.c) and rate-limited per
 * connection (a token bucket), JSON is parsed by jansson and every field is
 * checked for type and range before use; errors go back as
 * {"type":"error","error":"..."} and change nothing. limits.h lists every limit.
 */
#define _DEFAULT_SOURCE /* syscall(SYS_gettid): a thread's own priority */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif

#include "kontor/agent.h"
#include "kontor/record.h"
#include "server/analysis_api.h"
#include "server/nodesync.h"
#include "server/server.h"
#include "server/sjson.h"
#include "server/store.h"
#include "server/transport.h"

/* The size of a message and of a request body, and the message rate, are
 * limits (limits.h: --msg-max, --msg-rate). A person clicks a few times a
 * second, a script playing fast a few hundred times: 200 messages a second
 * sustained with bursts of 400 serves both; a client over the limit gets
 * errors, and one that keeps flooding (1000 refused messages) is
 * disconnected. */
#define MSG_MAX (S.lim.msg_max)
#define RATE_PER_S ((double)S.lim.msg_rate)
#define RATE_BURST (2.0 * S.lim.msg_rate)
#define FLOOD_CLOSE 1000
#define ID_LEN 10
#define TOKEN_LEN 32
#define NBUCKETS 4096
/* The longest name a player may give (bytes of UTF-8). */
#define PLAYER_NAME_MAX 24
static int player_name_ok(const char *n);

/* The longest a timeout may be set to (a day), and the timer's tick. */
#define TIMEOUT_MAX 86400
#define TIMER_TICK_MS 200

typedef struct sgame sgame;
typedef struct wsconn wsconn;

struct wsconn {
    /* the transport: how to send a text message, how to close the socket */
    void (*send)(void *tx, const char *text, size_t len);
    void (*close)(void *tx, int code);
    void *tx;
    sgame *g;     /* NULL until join or watch */
    int seat;     /* -1 spectator */
    long sent;    /* events of g already sent */
    double tokens, last;
    int refused;
    json_int_t ack;  /* the "id" of this connection's move being applied */
    int has_ack;
    wsconn *next; /* in g->conns */
};

typedef struct seatinfo {
    char kind[16];               /* "human", or a computer level */
    char token[TOKEN_LEN + 1];   /* humans only */
    int claimed;                 /* a token was handed out by claim or used */
    int connected;               /* open connections on this seat */
    char player[PLAYER_NAME_MAX + 1]; /* the name its player gave when joining (checked by player_name_ok), or "" */
    kontor_agent *agent;         /* computer seats, made on first use */
} seatinfo;

struct sgame {
    char id[ID_LEN + 1];
    pthread_mutex_t mu;
    kontor_state s;
    kontor_record rec;
    seatinfo seat[KONTOR_MAX_SEATS];
    int timeout_s;     /* 0: no timeout */
    int listed;        /* strangers find it under open games and may claim its free seats; else only its links */
    char rematch[ID_LEN + 1]; /* the game its players asked to play again (colours swapped), or ""; not stored */
    double deadline;   /* monotonic seconds; 0: none running */
    uint64_t seed;     /* the deal's seed: published with the record when the game is over */
    uint64_t ai_seed;  /* the computer seats' randomness: a server secret, never sent */
    char *meta;        /* the stored meta JSON (changes when a seat is claimed) */
    kontor_event *ev;  /* every event since the deal */
    long nev, evcap;
    wsconn *conns;
    int ai_queued, ai_busy;
    int timing_seat;   /* 1 + the seat whose decision the timer plays right now; 0: none */
    int timing_move;       /* that decision, and in words (told to its seat only: it may be secret) */
    char timing_text[160];
    int bots_only;     /* every seat a computer: behind games with people in the AI queue */
    double born, left; /* when it entered memory; when its last connection left (0: never had one) */
    int pins;          /* the node-sync thread holds it (under S.reg_mu): it stays in memory */
    sgame *hnext;      /* hash chain */
};

/* A queue of games owing a computer move (a ring). */
typedef struct gqueue {
    sgame **q;
    long head, n, cap;
} gqueue;

static struct {
    store *st;
    pthread_mutex_t reg_mu;
    sgame *bucket[NBUCKETS];
    sgame **all;
    long nall, capall;
    pthread_mutex_t q_mu;
    pthread_cond_t q_cv;
    gqueue people, bots; /* games with a person first: computer-only games wait behind them */
    volatile int stop;
    int quiet;
    server_limits lim;
    kontor_rng tick_rng;
    long ticks;
    void (*joined)(void *tx); /* the transport: a connection joined a game (ends its join timeout) */
    /* KONTOR_TEST_LEAKY_RECORD=1 in the environment (tests only): serve the
     * whole record of a running game and the last decision of /view as
     * before issue 13, and the analysis of a running game, so that
     * tests/test_leak.c proves it catches them */
    int leaky;
    /* several nodes on one database (a shared store, PostgreSQL): this
     * node's name for its computer-seat leases (docs/server.md) */
    int shared;
    char node[17];
} S;

/* How long a node's lease on a game's computer seats lasts; renewed every
 * second, so a node that died hands them over within this. */
#define LEASE_MS 3000

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((format(printf, 1, 2))) static void logf_(const char *fmt, ...) {
    if (S.quiet) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("kontor serve: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void random_hex(char *out, int n) {
    static const char hex[] = "0123456789abcdef";
    unsigned char buf[64];
    size_t got = 0;
    while (got < (size_t)n) {
        ssize_t r = getrandom(buf + got, (size_t)n - got, 0);
        if (r < 0) {
            if (errno == EINTR) continue;
            /* no kernel entropy call: fall back to the clock (still unique enough for ids) */
            uint64_t x = (uint64_t)(now_s() * 1e9) ^ (uint64_t)getpid() * 0x9E3779B97F4A7C15ull;
            for (; got < (size_t)n; got++) buf[got] = (unsigned char)((x = x * 6364136223846793005ull + 1) >> 56);
            break;
        }
        got += (size_t)r;
    }
    for (int i = 0; i < n; i++) out[i] = hex[buf[i] & 15];
    out[n] = 0;
}

static uint64_t random_u64(void) {
    char hex[17];
    random_hex(hex, 16);
    return strtoull(hex, NULL, 16);
}

static int valid_id(const char *id) {
    size_t n = strlen(id);
    if (n == 0 || n > 32) return 0;
    for (size_t i = 0; i < n; i++)
        if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'z'))) return 0;
    return 1;
}

static const char *levels[] = {"random", "easy", "medium", "hard"};
/* Server budgets: a computer move must not hold a game (or a worker) for
 * long, so the levels are iteration budgets, not the command line's time
 * budgets: about 0.05, 0.2 and 0.6 s a decision on this machine. */
static const char *level_spec(const char *level) {
    if (strcmp(level, "medium") == 0) return "ismcts:iters=1500";
    if (strcmp(level, "hard") == 0) return "ismcts:iters=5000";
    return level; /* "random", "easy" */
}
static int is_level(const char *k) {
    for (size_t i = 0; i < sizeof levels / sizeof *levels; i++)
        if (strcmp(k, levels[i]) == 0) return 1;
    return 0;
}

/* ---- registry ----------------------------------------------------------------- */

static unsigned hash_id(const char *id) {
    unsigned h = 2166136261u;
    for (; *id; id++) h = (h ^ (unsigned char)*id) * 16777619u;
    return h % NBUCKETS;
}

static sgame *find_game(const char *id) {
    pthread_mutex_lock(&S.reg_mu);
    sgame *g = S.bucket[hash_id(id)];
    while (g && strcmp(g->id, id) != 0) g = g->hnext;
    pthread_mutex_unlock(&S.reg_mu);
    return g;
}

/* g by id, kept in memory (pinned) until unpin(): for the node-sync
 * thread, which is not the loop's. */
static sgame *find_pinned(const char *id) {
    pthread_mutex_lock(&S.reg_mu);
    sgame *g = S.bucket[hash_id(id)];
    while (g && strcmp(g->id, id) != 0) g = g->hnext;
    if (g) g->pins++;
    pthread_mutex_unlock(&S.reg_mu);
    return g;
}

static void unpin(sgame *g) {
    pthread_mutex_lock(&S.reg_mu);
    g->pins--;
    pthread_mutex_unlock(&S.reg_mu);
}

/* Register g; returns g, or the game already registered under its id (then
 * g is not registered), or NULL out of memory. */
static sgame *register_game(sgame *g) {
    pthread_mutex_lock(&S.reg_mu);
    unsigned h = hash_id(g->id);
    for (sgame *o = S.bucket[h]; o; o = o->hnext)
        if (strcmp(o->id, g->id) == 0) {
            pthread_mutex_unlock(&S.reg_mu);
            return o;
        }
    if (S.nall == S.capall) {
        long cap = S.capall ? S.capall * 2 : 256;
        sgame **a = realloc(S.all, (size_t)cap * sizeof *a);
        if (!a) {
            pthread_mutex_unlock(&S.reg_mu);
            return NULL;
        }
        S.all = a;
        S.capall = cap;
    }
    S.all[S.nall++] = g;
    g->hnext = S.bucket[h];
    S.bucket[h] = g;
    pthread_mutex_unlock(&S.reg_mu);
    return g;
}

/* A snapshot of the game list (the games themselves live on). */
static sgame **snapshot(long *n) {
    pthread_mutex_lock(&S.reg_mu);
    sgame **a = malloc((size_t)(S.nall ? S.nall : 1) * sizeof *a);
    *n = 0;
    if (a) {
        if (S.nall) memcpy(a, S.all, (size_t)S.nall * sizeof *a); /* S.all is NULL before the first game */
        *n = S.nall;
    }
    pthread_mutex_unlock(&S.reg_mu);
    return a;
}

static void free_game(sgame *g) {
    if (!g) return;
    for (int i = 0; i < KONTOR_MAX_SEATS; i++) kontor_agent_free(g->seat[i].agent);
    kontor_record_release(&g->rec);
    free(g->meta);
    free(g->ev);
    pthread_mutex_destroy(&g->mu);
    free(g);
}

/* ---- meta, events, sending ----------------------------------------------------- */

static char *make_meta(const sgame *g) {
    json_t *seats = json_array();
    for (int i = 0; i < g->s.cfg.nseats; i++)
        json_array_append_new(seats, json_pack("{s:s, s:s, s:b, s:s}", "kind", g->seat[i].kind, "token", g->seat[i].token,
                                               "claimed", g->seat[i].claimed, "player", g->seat[i].player));
    json_t *m = json_pack("{s:o, s:i, s:I, s:I, s:b}", "seats", seats, "timeout", g->timeout_s, "seed", (json_int_t)g->seed,
                          "ai_seed", (json_int_t)g->ai_seed, "listed", g->listed);
    char *t = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    return t;
}

static int push_events(sgame *g, const kontor_log *log) {
    if (log->n <= 0) return 0; /* (g->ev may still be NULL) */
    if (g->nev + log->n > g->evcap) {
        long cap = g->evcap ? g->evcap * 2 : 128;
        while (cap < g->nev + log->n) cap *= 2;
        kontor_event *e = realloc(g->ev, (size_t)cap * sizeof *e);
        if (!e) return -1;
        g->ev = e;
        g->evcap = cap;
    }
    memcpy(g->ev + g->nev, log->ev, (size_t)log->n * sizeof *log->ev);
    g->nev += log->n;
    return 0;
}

static void send_text(wsconn *c, const char *text) { c->send(c->tx, text, strlen(text)); }

static void send_json(wsconn *c, json_t *o) {
    char *t = json_dumps(o, JSON_COMPACT);
    if (t) send_text(c, t);
    free(t);
    json_decref(o);
}

static void send_error(wsconn *c, const char *code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void send_error(wsconn *c, const char *code, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    send_json(c, json_pack("{s:s, s:s, s:s}", "type", "error", "code", code, "error", msg));
}

static json_t *seats_info(const sgame *g) {
    json_t *a = json_array();
    for (int i = 0; i < g->s.cfg.nseats; i++)
        json_array_append_new(a, json_pack("{s:s, s:i, s:s, s:b, s:b, s:s}", "name", kontor_seat_name(&g->s, i), "team",
                                           kontor_team(&g->s, i), "kind", g->seat[i].kind, "claimed",
                                           g->seat[i].claimed, "connected", g->seat[i].connected > 0, "player",
                                           g->seat[i].player));
    return a;
}

/* The state message for one connection: its view, its legal decisions, the
 * events it has not seen, as JSON text (malloc'd; NULL out of memory).
 * Marks those events sent. Call with g->mu held. */
static char *state_text(sgame *g, wsconn *w) {
    kontor_view v;
    kontor_view_of(&g->s, w->seat, &v);
    json_t *o = sj_view(&v);
    json_object_set_new(o, "type", json_string("state"));
    json_object_set_new(o, "game", json_string(g->id));
    json_object_set_new(o, "seat", w->seat >= 0 ? json_integer(w->seat) : json_null());
    json_object_set_new(o, "ply", json_integer(g->rec.nply));
    if (w->has_ack) {
        json_object_set_new(o, "ack", json_integer(w->ack));
        w->has_ack = 0;
    }
    json_object_set_new(o, "players", seats_info(g));
    json_object_set_new(o, "legal", sj_legal(&g->s, w->seat));
    json_t *ev = json_array();
    for (long i = w->sent; i < g->nev; i++) json_array_append_new(ev, sj_event(&g->s, &g->ev[i], i, w->seat));
    w->sent = g->nev;
    json_object_set_new(o, "events", ev);
    if (g->timing_seat > 0) {
        /* the decision of this message was played by the timer, not chosen */
        json_t *t = json_pack("{s:i}", "seat", g->timing_seat - 1);
        if (w->seat == g->timing_seat - 1) {
            json_object_set_new(t, "text", json_string(g->timing_text));
            json_object_set_new(t, "move", json_integer(g->timing_move));
        }
        json_object_set_new(o, "timeout", t);
    }
    if (g->deadline > 0) json_object_set_new(o, "deadline_ms", json_integer((json_int_t)((g->deadline - now_s()) * 1000)));
    if (kontor_over(&g->s)) json_object_set_new(o, "result", json_string(g->rec.result));
    char *t = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return t;
}

static void send_state(sgame *g, wsconn *w) {
    char *t = state_text(g, w);
    if (t) send_text(w, t);
    free(t);
}

/* Every connection of g gets its state. Spectators see the same view, so
 * those that have seen the same events share one message, built once. */
static void broadcast(sgame *g) {
    char *spect = NULL;
    long spect_from = -1;
    for (wsconn *w = g->conns; w; w = w->next) {
        if (w->seat >= 0 || w->has_ack) {
            send_state(g, w);
            continue;
        }
        if (!spect || spect_from != w->sent) {
            free(spect);
            spect_from = w->sent;
            spect = state_text(g, w);
        } else {
            w->sent = g->nev;
        }
        if (spect) send_text(w, spect);
    }
    free(spect);
}

/* ---- the computer's seats --------------------------------------------------- */

static int ai_owes(const sgame *g) {
    unsigned act = kontor_actors(&g->s);
    for (int i = 0; i < g->s.cfg.nseats; i++)
        if ((act & (1u << i)) && strcmp(g->seat[i].kind, "human") != 0) return 1;
    return 0;
}

static int gq_push(gqueue *q, sgame *g) {
    if (q->n == q->cap) {
        long cap = q->cap ? q->cap * 2 : 256;
        sgame **a = malloc((size_t)cap * sizeof *a);
        if (!a) return -1;
        for (long i = 0; i < q->n; i++) a[i] = q->q[(q->head + i) % q->cap];
        free(q->q);
        q->q = a;
        q->cap = cap;
        q->head = 0;
    }
    q->q[(q->head + q->n) % q->cap] = g;
    q->n++;
    return 0;
}

static sgame *gq_pop(gqueue *q) {
    if (!q->n) return NULL;
    sgame *g = q->q[q->head];
    q->head = (q->head + 1) % q->cap;
    q->n--;
    return g;
}

/* Queue g for a computer move if one is owed. Call with g->mu held. */
static void schedule_ai(sgame *g) {
    if (g->ai_queued || g->ai_busy || !ai_owes(g)) return;
    pthread_mutex_lock(&S.q_mu);
    if (gq_push(g->bots_only ? &S.bots : &S.people, g) == 0) {
        g->ai_queued = 1;
        pthread_cond_broadcast(&S.q_cv); /* (a people-only worker may be the one waiting) */
    }
    pthread_mutex_unlock(&S.q_mu);
}

static void update_deadline(sgame *g) {
    g->deadline = 0;
    if (g->timeout_s <= 0 || kontor_over(&g->s)) return;
    unsigned act = kontor_actors(&g->s);
    for (int i = 0; i < g->s.cfg.nseats; i++)
        if ((act & (1u << i)) && strcmp(g->seat[i].kind, "human") == 0) g->deadline = now_s() + g->timeout_s;
}

/* Save g (record and meta) in one transaction. Call with g->mu held. */
static kontor_status save_game(sgame *g, kontor_error *err) {
    char *text = NULL;
    size_t len = 0;
    kontor_record_set_result(&g->rec, &g->s);
    kontor_status st = kontor_record_write(&g->rec, &text, &len);
    if (st != KONTOR_OK) {
        snprintf(err->msg, sizeof err->msg, "game '%s': cannot write its record", g->id);
        return st;
    }
    st = store_save(S.st, g->id, kontor_over(&g->s), g->meta, text, err);
    free(text);
    return st;
}

static void catch_up(sgame *g);

/* The one way a game changes: check, apply, store, then tell everyone.
 * Call with g->mu held. On failure nothing changed and err says why;
 * *late: a shared store had the decision's number taken by another node. */
static kontor_status apply_once(sgame *g, int seat, kontor_move m, kontor_error *err, int *late) {
    err->code = KONTOR_OK;
    err->msg[0] = 0;
    if (kontor_over(&g->s)) {
        snprintf(err->msg, sizeof err->msg, "game '%s' is over", g->id);
        return err->code = KONTOR_E_ILLEGAL;
    }
    if (!(kontor_actors(&g->s) & (1u << seat))) {
        snprintf(err->msg, sizeof err->msg, "game '%s' round %d: %s owes no decision now", g->id, g->s.round,
                 kontor_seat_name(&g->s, seat));
        return err->code = KONTOR_E_ILLEGAL;
    }
    if (!kontor_is_legal(&g->s, seat, m)) {
        char why[200];
        kontor_why_illegal(&g->s, seat, m, why, sizeof why);
        snprintf(err->msg, sizeof err->msg, "game '%s' round %d: %s", g->id, g->s.round, why);
        return err->code = KONTOR_E_ILLEGAL;
    }
    kontor_state before = g->s;
    kontor_log log;
    log.n = 0;
    kontor_status st = kontor_apply(&g->s, seat, m, &log);
    if (st == KONTOR_OK) st = kontor_record_push(&g->rec, seat, m);
    else snprintf(err->msg, sizeof err->msg, "game '%s': the engine refused a legal decision", g->id);
    if (st == KONTOR_OK) {
        /* a running game stores just this decision; the last one stores the
         * whole record with its result (several nodes: the decision first,
         * under the game's row lock, so that it is stored once) */
        if (kontor_over(&g->s) && !S.shared) {
            st = save_game(g, err);
        } else {
            st = store_add_ply(S.st, g->id, g->rec.nply - 1, seat, (int)m, err);
            if (st == KONTOR_E_ILLEGAL) *late = 1;
            if (st == KONTOR_OK && kontor_over(&g->s) && save_game(g, err) != KONTOR_OK)
                logf_("%s (its decisions are stored)", err->msg);
        }
        if (st != KONTOR_OK) g->rec.nply--;
    }
    if (st == KONTOR_OK && push_events(g, &log) != 0) {
        /* stored but the event history is short of memory: tell nobody the
         * events, the views are still right */
        logf_("game '%s': out of memory for events", g->id);
    }
    if (st != KONTOR_OK) {
        g->s = before;
        kontor_record_set_result(&g->rec, &g->s);
        if (!*late) logf_("%s", err->msg);
        return err->code = st;
    }
    update_deadline(g);
    broadcast(g);
    schedule_ai(g);
    return KONTOR_OK;
}

/* apply_once; when another node stored a decision first (this node's copy
 * was behind), catch up from the store and try again: the decision still
 * stands if the rules still allow it. */
static kontor_status apply_decision(sgame *g, int seat, kontor_move m, kontor_error *err) {
    for (int tries = 0;; tries++) {
        int late = 0;
        kontor_status st = apply_once(g, seat, m, err, &late);
        if (!late || tries == 5) return st;
        catch_up(g);
    }
}

/* ---- several nodes: catching up a cached game from the store ------------------------ */

/* Bring g (cached in this node's memory) up to what the store holds:
 * decisions stored by other nodes are applied in order, seats claimed
 * elsewhere are marked, and the clients of g here are told. Call with g->mu
 * held. */
static void catch_up(sgame *g) {
    store_ply *p = NULL;
    long n = 0;
    char *meta = NULL;
    kontor_error err;
    if (store_since(S.st, g->id, g->rec.nply, &p, &n, &meta, &err) != KONTOR_OK) {
        logf_("game '%s': catching up: %s", g->id, err.msg);
        return;
    }
    int changed = 0;
    for (long i = 0; i < n; i++) {
        if (p[i].ply < g->rec.nply) continue;
        int seat = p[i].seat;
        kontor_move m = (kontor_move)p[i].move;
        kontor_log log;
        log.n = 0;
        if (p[i].ply != g->rec.nply || seat < 0 || seat >= g->s.cfg.nseats || !kontor_is_legal(&g->s, seat, m) ||
            kontor_apply(&g->s, seat, m, &log) != KONTOR_OK || kontor_record_push(&g->rec, seat, m) != KONTOR_OK) {
            logf_("game '%s': stored decision %d does not follow this node's copy", g->id, p[i].ply + 1);
            break;
        }
        push_events(g, &log);
        changed = 1;
    }
    kontor_record_set_result(&g->rec, &g->s);
    free(p);
    json_t *m = json_loads(meta, 0, NULL);
    json_t *seats = json_object_get(m, "seats");
    for (int i = 0; i < g->s.cfg.nseats && i < (int)json_array_size(seats); i++)
        if (!g->seat[i].claimed && json_is_true(json_object_get(json_array_get(seats, (size_t)i), "claimed"))) {
            g->seat[i].claimed = 1;
            changed = 1;
        }
    json_decref(m);
    free(meta);
    if (changed) {
        char *nm = make_meta(g);
        if (nm) {
            free(g->meta);
            g->meta = nm;
        }
        /* the node that stored the last decision saves the finished game;
         * if it died in between, the game's row still says running: every
         * node that sees the end saves it (the same record, harmless twice) */
        if (kontor_over(&g->s) && save_game(g, &err) != KONTOR_OK) logf_("%s", err.msg);
        update_deadline(g);
        broadcast(g);
        schedule_ai(g);
    }
}

/* A notice from another node (nodesync.c's thread): catch up the game if
 * this node caches it and is behind (or a save changed its seats); id NULL:
 * every cached game. */
static void on_node_change(const char *id, int nply, int saved) {
    if (!id) {
        long n;
        sgame **all = snapshot(&n);
        for (long i = 0; all && i < n; i++) {
            sgame *g = find_pinned(all[i]->id);
            if (!g) continue;
            pthread_mutex_lock(&g->mu);
            catch_up(g);
            pthread_mutex_unlock(&g->mu);
            unpin(g);
        }
        free(all);
        return;
    }
    sgame *g = find_pinned(id);
    if (!g) return;
    pthread_mutex_lock(&g->mu);
    if (g->rec.nply < nply || saved) catch_up(g);
    pthread_mutex_unlock(&g->mu);
    unpin(g);
}

/* arg: non-NULL for the worker kept for games with people (with two or
 * more workers, the first never takes a computer-only game, so those can
 * never hold every worker while a person waits). */
static void *ai_worker(void *arg) {
    int people_only = arg != NULL;
    int turn = 0;
    /* the computer thinks at a lower priority than the event loop (nice 10
     * for this thread only), so that a machine busy with computer games
     * still answers people's moves at once */
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
    for (;;) {
        pthread_mutex_lock(&S.q_mu);
        /* (analysis_api.c: a game analysis, a decision at a time, behind the
         * games with people, taking turns with the computer-only ones) */
        int analysis = 0;
        while (!S.people.n && (people_only || (!S.bots.n && !(analysis = analysis_api_pending()))) && !S.stop)
            pthread_cond_wait(&S.q_cv, &S.q_mu);
        if (S.stop) {
            pthread_mutex_unlock(&S.q_mu);
            return NULL;
        }
        sgame *g = gq_pop(&S.people);
        if (!g && !people_only && (analysis || (turn ^= 1))) {
            if (analysis || analysis_api_pending()) {
                pthread_mutex_unlock(&S.q_mu);
                analysis_api_work();
                continue;
            }
        }
        if (!g) g = gq_pop(&S.bots);
        pthread_mutex_unlock(&S.q_mu);
        if (!g) continue;

        pthread_mutex_lock(&g->mu);
        g->ai_queued = 0;
        unsigned act = kontor_actors(&g->s);
        int seat = -1;
        for (int i = 0; i < g->s.cfg.nseats && seat < 0; i++)
            if ((act & (1u << i)) && strcmp(g->seat[i].kind, "human") != 0) seat = i;
        if (seat < 0) {
            pthread_mutex_unlock(&g->mu);
            continue;
        }
        /* several nodes: the node holding the game's lease plays its
         * computer seats (it hears of every move; another node takes the
         * lease over if it dies) */
        if (S.shared && store_lease(S.st, g->id, S.node, LEASE_MS) != 1) {
            pthread_mutex_unlock(&g->mu);
            continue;
        }
        kontor_error err;
        if (!g->seat[seat].agent) {
            g->seat[seat].agent = kontor_agent_new(level_spec(g->seat[seat].kind), g->ai_seed ^ (0x5EA7ull << seat), &err);
            if (!g->seat[seat].agent) logf_("game '%s': %s", g->id, err.msg);
        }
        kontor_agent *a = g->seat[seat].agent;
        kontor_view v;
        kontor_view_of(&g->s, seat, &v);
        int ply = g->rec.nply;
        g->ai_busy = 1;
        pthread_mutex_unlock(&g->mu);

        kontor_move m = a ? a->decide(a, &v) : KONTOR_FORFEIT;

        pthread_mutex_lock(&g->mu);
        g->ai_busy = 0;
        if (g->rec.nply == ply) {
            if (m == KONTOR_FORFEIT || !kontor_is_legal(&g->s, seat, m)) {
                /* an agent that fails must not stall the game: play its first legal move */
                kontor_move mv[KONTOR_MAX_MOVES];
                if (kontor_legal(&g->s, seat, mv) > 0) m = mv[0];
                logf_("game '%s': computer %s failed (%s), played its first legal move", g->id,
                      kontor_seat_name(&g->s, seat), a ? a->error : "no agent");
            }
            apply_decision(g, seat, m, &err);
        }
        schedule_ai(g);
        pthread_mutex_unlock(&g->mu);
    }
}

/* Every 200 ms on the event loop's thread: a random legal move for each
 * human seat whose per-decision timeout has run out. */
static void play_timeouts(void) {
    long n;
    sgame **all = snapshot(&n);
    if (!all) return;
    double t = now_s();
    for (long i = 0; i < n; i++) {
        sgame *g = all[i];
        if (g->timeout_s <= 0) continue;
        pthread_mutex_lock(&g->mu);
        if (g->deadline > 0 && t >= g->deadline) {
            unsigned act = kontor_actors(&g->s);
            for (int seat = 0; seat < g->s.cfg.nseats; seat++) {
                if (!(act & (1u << seat)) || strcmp(g->seat[seat].kind, "human") != 0) continue;
                if (!(kontor_actors(&g->s) & (1u << seat))) continue;
                kontor_move mv[KONTOR_MAX_MOVES];
                int k = kontor_legal(&g->s, seat, mv);
                if (k <= 0) continue;
                kontor_error err;
                logf_("game '%s' round %d: %s ran out of time, a random legal move is played", g->id, g->s.round,
                      kontor_seat_name(&g->s, seat));
                kontor_move m = mv[kontor_rng_below(&S.tick_rng, (uint32_t)k)];
                kontor_move_text(&g->s, seat, m, g->timing_text, sizeof g->timing_text);
                g->timing_seat = seat + 1;
                g->timing_move = (int)m;
                apply_decision(g, seat, m, &err);
                g->timing_seat = 0;
            }
        }
        pthread_mutex_unlock(&g->mu);
    }
    free(all);
}

/* ---- creating and loading games --------------------------------------------- */

/* Computer-only games in memory that are not over. */
static int bots_running(void) {
    long n;
    int k = 0;
    sgame **all = snapshot(&n);
    for (long i = 0; all && i < n; i++) {
        pthread_mutex_lock(&all[i]->mu);
        k += all[i]->bots_only && !kontor_over(&all[i]->s);
        pthread_mutex_unlock(&all[i]->mu);
    }
    free(all);
    return k;
}

static sgame *new_game_struct(void) {
    sgame *g = calloc(1, sizeof *g);
    if (g) {
        pthread_mutex_init(&g->mu, NULL);
        g->born = now_s();
    }
    return g;
}

/* Create a game from a request; on failure returns NULL with err filled. */
static sgame *create_game(const char *variant, const char *options, json_t *seats, int timeout_s, int listed,
                          kontor_error *err) {
    kontor_config cfg;
    if (kontor_config_init(&cfg, variant, err) != KONTOR_OK) return NULL;
    if (options && *options && kontor_config_options(&cfg, options, err) != KONTOR_OK) return NULL;
    if (!json_is_array(seats) || json_array_size(seats) != cfg.nseats) {
        snprintf(err->msg, sizeof err->msg, "'seats' must list %d seats, each \"human\" or a computer level", cfg.nseats);
        err->code = KONTOR_E_INVALID;
        return NULL;
    }
    if (timeout_s < 0 || timeout_s > TIMEOUT_MAX) {
        snprintf(err->msg, sizeof err->msg, "'timeout' %d is outside 0..%d seconds", timeout_s, TIMEOUT_MAX);
        err->code = KONTOR_E_RANGE;
        return NULL;
    }
    int people = 0;
    for (size_t i = 0; i < json_array_size(seats); i++) {
        const char *k = json_string_value(json_array_get(seats, i));
        people += k && strcmp(k, "human") == 0;
    }
    sgame *g = new_game_struct();
    if (!g) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        err->code = KONTOR_E_RANGE;
        return NULL;
    }
    for (int i = 0; i < cfg.nseats; i++) {
        const char *k = json_string_value(json_array_get(seats, (size_t)i));
        if (!k || (strcmp(k, "human") != 0 && !is_level(k))) {
            snprintf(err->msg, sizeof err->msg,
                     "seat %d: '%.40s' is neither \"human\" nor a level (random, easy, medium, hard)", i, k ? k : "?");
            err->code = KONTOR_E_INVALID;
            free_game(g);
            return NULL;
        }
        snprintf(g->seat[i].kind, sizeof g->seat[i].kind, "%s", k);
        if (strcmp(k, "human") == 0) random_hex(g->seat[i].token, TOKEN_LEN);
    }
    do random_hex(g->id, ID_LEN);
    while (find_game(g->id));
    uint64_t seed = random_u64();
    g->seed = seed;
    g->ai_seed = random_u64();
    g->timeout_s = timeout_s;
    g->listed = listed;
    g->bots_only = !people;
    kontor_deal d;
    kontor_deal_shuffle(&d, &cfg, seed);
    if (kontor_new_from_deal(&g->s, &cfg, &d, err) != KONTOR_OK) {
        free_game(g);
        return NULL;
    }
    kontor_record_init(&g->rec, &cfg, &d);
    g->rec.seed = seed;
    g->rec.has_seed = 1;
    for (int i = 0; i < cfg.nseats; i++)
        snprintf(g->rec.players[i], KONTOR_TAG_MAX, "%s%s", strcmp(g->seat[i].kind, "human") == 0 ? "" : "kontor ",
                 g->seat[i].kind);
    time_t t = time(NULL);
    struct tm tmv;
    gmtime_r(&t, &tmv);
    strftime(g->rec.date, sizeof g->rec.date, "%Y-%m-%d", &tmv);
    snprintf(g->rec.event, sizeof g->rec.event, "kontor serve game %s", g->id);
    g->meta = make_meta(g);
    if (!g->meta || save_game(g, err) != KONTOR_OK || register_game(g) != g) {
        if (!err->msg[0]) snprintf(err->msg, sizeof err->msg, "out of memory");
        free_game(g);
        return NULL;
    }
    pthread_mutex_lock(&g->mu);
    update_deadline(g);
    schedule_ai(g);
    pthread_mutex_unlock(&g->mu);
    return g;
}

static void collect_events(void *ctx, const kontor_state *s, int ply, const kontor_log *log) {
    (void)s;
    (void)ply;
    push_events(ctx, log);
}

/* A stored game in memory: parse its meta and record, replay every decision.
 * NULL (logged) when the stored row is damaged or memory is short. */
static sgame *game_from_store(const char *id, const char *meta, const char *record) {
    kontor_error err = {0};
    sgame *g = new_game_struct();
    if (!g) return NULL;
    json_error_t je;
    json_t *m = json_loads(meta, 0, &je);
    json_t *seats = json_object_get(m, "seats");
    if (!valid_id(id) || strlen(id) > ID_LEN || !json_is_array(seats)) {
        logf_("game '%.32s': its stored meta is damaged; not resumed", id);
        json_decref(m);
        free_game(g);
        return NULL;
    }
    snprintf(g->id, sizeof g->id, "%s", id);
    if (kontor_record_parse(&g->rec, record, strlen(record), &err) != KONTOR_OK ||
        kontor_record_replay(&g->rec, -1, &g->s, collect_events, g, &err) != KONTOR_OK ||
        json_array_size(seats) != g->s.cfg.nseats) {
        logf_("game '%s': its stored record does not replay (%s); not resumed", id, err.msg);
        json_decref(m);
        free_game(g);
        return NULL;
    }
    for (size_t i = 0; i < json_array_size(seats); i++) {
        json_t *so = json_array_get(seats, i);
        const char *k = json_string_value(json_object_get(so, "kind"));
        const char *tok = json_string_value(json_object_get(so, "token"));
        snprintf(g->seat[i].kind, sizeof g->seat[i].kind, "%s", k && is_level(k) ? k : "human");
        snprintf(g->seat[i].token, sizeof g->seat[i].token, "%s", tok ? tok : "");
        g->seat[i].claimed = json_is_true(json_object_get(so, "claimed"));
        const char *pn = json_string_value(json_object_get(so, "player"));
        if (pn && player_name_ok(pn)) snprintf(g->seat[i].player, sizeof g->seat[i].player, "%s", pn);
    }
    g->timeout_s = (int)json_integer_value(json_object_get(m, "timeout"));
    g->bots_only = 1;
    for (int i = 0; i < g->s.cfg.nseats; i++)
        if (strcmp(g->seat[i].kind, "human") == 0) g->bots_only = 0;
    if (g->bots_only && !kontor_over(&g->s) && bots_running() >= S.lim.ai_games) {
        logf_("game '%s': computer seats only, over --ai-games %d; left in the store, not resumed", id, S.lim.ai_games);
        json_decref(m);
        free_game(g);
        return 0;
    }
    g->seed = (uint64_t)json_integer_value(json_object_get(m, "seed"));
    /* games stored before private games existed were all listed */
    json_t *lj = json_object_get(m, "listed");
    g->listed = lj ? json_is_true(lj) : 1;
    /* games stored before the secret existed get a new one */
    json_t *as = json_object_get(m, "ai_seed");
    g->ai_seed = json_is_integer(as) ? (uint64_t)json_integer_value(as) : random_u64();
    json_decref(m);
    g->meta = make_meta(g);
    if (!g->meta) {
        free_game(g);
        return NULL;
    }
    return g;
}

/* Resume one stored game (at start: every unfinished one). */
static int load_one(void *ctx, const char *id, int over, const char *meta, const char *record) {
    int *count = ctx;
    (void)over;
    sgame *g = game_from_store(id, meta, record);
    if (!g) return 0;
    if (register_game(g) != g) {
        free_game(g);
        return 1;
    }
    pthread_mutex_lock(&g->mu);
    update_deadline(g);
    schedule_ai(g);
    pthread_mutex_unlock(&g->mu);
    (*count)++;
    return 0;
}

/* A game by id: in memory, or else from the store (a finished game after a
 * restart, including one whose last decision was stored just before the
 * server died, so that its players still see the result). NULL if none. */
static sgame *get_game(const char *id) {
    sgame *g = find_game(id);
    if (g || !valid_id(id) || strlen(id) > ID_LEN) return g;
    char *meta = NULL, *text = NULL;
    int over;
    kontor_error err;
    if (store_get(S.st, id, &over, &meta, &text, &err) != KONTOR_OK) return NULL;
    g = game_from_store(id, meta, text);
    free(meta);
    free(text);
    if (!g) return NULL;
    sgame *have = register_game(g); /* another thread may have loaded it first */
    if (have != g) {
        free_game(g);
        return have;
    }
    pthread_mutex_lock(&g->mu);
    if (S.shared) catch_up(g); /* decisions stored while it was being loaded */
    if (S.shared && !over && kontor_over(&g->s) && save_game(g, &err) != KONTOR_OK) /* (see catch_up) */
        logf_("%s", err.msg);
    update_deadline(g);
    schedule_ai(g);
    pthread_mutex_unlock(&g->mu);
    return g;
}

/* ---- WebSocket ------------------------------------------------------------------ */

wsconn *server_conn_open(void (*send)(void *tx, const char *text, size_t len), void (*close)(void *tx, int code),
                         void *tx) {
    wsconn *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->send = send;
    w->close = close;
    w->tx = tx;
    w->seat = -1;
    w->tokens = RATE_BURST;
    w->last = now_s();
    send_json(w, json_pack("{s:s, s:s}", "type", "hello", "version", KONTOR_VERSION));
    return w;
}

/* A player's name: 1..PLAYER_NAME_MAX bytes (jansson has checked the
 * UTF-8), no control characters, not only spaces. Clients show it as text. */
static int player_name_ok(const char *n) {
    size_t len = strlen(n);
    if (len == 0 || len > PLAYER_NAME_MAX) return 0;
    int visible = 0;
    for (const unsigned char *p = (const unsigned char *)n; *p; p++) {
        if (*p < 0x20 || *p == 0x7f) return 0;
        if (*p != ' ') visible = 1;
    }
    return visible;
}

/* name: the player's name for seat, or NULL to keep the one it has. */
static void attach(wsconn *w, sgame *g, int seat, const char *name) {
    if (S.joined) S.joined(w->tx); /* ends its --join-timeout */
    pthread_mutex_lock(&g->mu);
    /* several nodes: a seat claimed here saves the meta; take the seats
     * claimed through other nodes first, so that it does not unclaim them */
    if (S.shared && seat >= 0 && !g->seat[seat].claimed) catch_up(g);
    w->g = g;
    w->seat = seat;
    w->sent = 0;
    w->next = g->conns;
    g->conns = w;
    int meta_changed = 0;
    if (seat >= 0) {
        g->seat[seat].connected++;
        if (!g->seat[seat].claimed) {
            g->seat[seat].claimed = 1;
            meta_changed = 1;
        }
        if (name && strcmp(name, g->seat[seat].player) != 0) {
            snprintf(g->seat[seat].player, sizeof g->seat[seat].player, "%s", name);
            meta_changed = 1;
        }
    }
    if (meta_changed) {
        char *m = make_meta(g);
        if (m) {
            free(g->meta);
            g->meta = m;
            kontor_error err;
            if (save_game(g, &err) != KONTOR_OK) logf_("%s", err.msg);
        }
    }
    json_t *wel = json_pack("{s:s, s:s, s:o, s:s, s:o, s:i}", "type", "welcome", "game", g->id, "seat",
                            seat >= 0 ? json_integer(seat) : json_null(), "variant",
                            kontor_variant_name(g->s.cfg.variant), "cards", sj_cards(g->s.cfg.cards), "timeout",
                            g->timeout_s);
    send_json(w, wel);
    /* everyone sees who is connected now; the newcomer also gets every event so far */
    broadcast(g);
    pthread_mutex_unlock(&g->mu);
}

static void handle_message(wsconn *w, json_t *msg) {
    const char *type = json_string_value(json_object_get(msg, "type"));
    wsconn *c = w;
    if (!type) {
        send_error(c, "bad_request", "message has no \"type\" string");
        return;
    }
    if (strcmp(type, "ping") == 0) {
        send_json(c, json_pack("{s:s}", "type", "pong"));
        return;
    }
    if (strcmp(type, "join") == 0 || strcmp(type, "watch") == 0) {
        const char *id = json_string_value(json_object_get(msg, "game"));
        if (w->g) {
            send_error(c, "bad_request", "this connection already follows game '%s'", w->g->id);
            return;
        }
        if (!id || !valid_id(id)) {
            send_error(c, "bad_request", "\"game\" must be a game id (lowercase letters and digits)");
            return;
        }
        sgame *g = get_game(id);
        if (!g) {
            send_error(c, "no_game", "game '%s' does not exist", id);
            return;
        }
        int seat = -1;
        const char *name = NULL;
        if (strcmp(type, "join") == 0) {
            const char *tok = json_string_value(json_object_get(msg, "token"));
            if (!tok) {
                send_error(c, "bad_request", "join needs a \"token\" string (from the seat's join link)");
                return;
            }
            for (int i = 0; i < g->s.cfg.nseats; i++)
                if (g->seat[i].token[0] && strcmp(g->seat[i].token, tok) == 0) seat = i;
            if (seat < 0) {
                send_error(c, "bad_token", "token does not open a seat of game '%s'", id);
                return;
            }
            json_t *nj = json_object_get(msg, "name");
            name = json_string_value(nj);
            if (nj && (!name || !player_name_ok(name))) {
                send_error(c, "bad_request", "\"name\" must be 1 to %d bytes of text without control characters",
                           PLAYER_NAME_MAX);
                return;
            }
        }
        attach(w, g, seat, name);
        return;
    }
    if (strcmp(type, "move") == 0) {
        json_t *mj = json_object_get(msg, "move");
        if (!w->g) {
            send_error(c, "bad_request", "join a game before moving");
            return;
        }
        if (w->seat < 0) {
            send_error(c, "spectator", "game '%s': a spectator cannot move", w->g->id);
            return;
        }
        if (!json_is_integer(mj) || json_integer_value(mj) < 0 || json_integer_value(mj) > 0xFFFF) {
            send_error(c, "bad_request", "\"move\" must be a decision number from \"legal\"");
            return;
        }
        sgame *g = w->g;
        json_t *idj = json_object_get(msg, "id");
        pthread_mutex_lock(&g->mu);
        kontor_error err;
        w->ack = json_is_integer(idj) ? json_integer_value(idj) : 0;
        w->has_ack = json_is_integer(idj);
        kontor_status st = apply_decision(g, w->seat, (kontor_move)json_integer_value(mj), &err);
        w->has_ack = 0;
        pthread_mutex_unlock(&g->mu);
        if (st != KONTOR_OK) {
            json_t *e = json_pack("{s:s, s:s, s:s}", "type", "error", "code",
                                  st == KONTOR_E_ILLEGAL ? "illegal" : "server", "error", err.msg);
            if (json_is_integer(idj)) json_object_set(e, "id", idj);
            send_json(c, e);
        }
        return;
    }
    send_error(c, "bad_request", "unknown message type '%.40s' (join, watch, move, ping)", type);
}

int server_conn_message(wsconn *w, int text, const char *data, size_t len) {
    wsconn *c = w;
    if (len > (size_t)MSG_MAX) {
        send_error(c, "too_large", "message of %zu bytes is over the limit of %d bytes; closing", len, MSG_MAX);
        w->close(w->tx, 1009); /* too big */
        return 0;
    }
    /* token bucket */
    double t = now_s();
    w->tokens += (t - w->last) * RATE_PER_S;
    if (w->tokens > RATE_BURST) w->tokens = RATE_BURST;
    w->last = t;
    if (w->tokens < 1.0) {
        if (++w->refused >= FLOOD_CLOSE) {
            send_error(c, "flood", "too many messages; closing");
            w->close(w->tx, 1008); /* policy */
            return 0;
        }
        if (w->refused % 50 == 1) send_error(c, "rate", "too many messages: at most %.0f a second", RATE_PER_S);
        return 1;
    }
    w->tokens -= 1.0;
    if (!text) {
        send_error(c, "bad_request", "only text messages (JSON) are understood");
        return 1;
    }
    const char *code;
    char why[160];
    json_t *msg = sj_parse_object(data, len, &code, why, sizeof why);
    if (!msg) {
        send_error(c, code, "message is %s", why);
        return 1;
    }
    handle_message(w, msg);
    json_decref(msg);
    return 1;
}

void server_conn_closed(wsconn *w) {
    if (!w) return;
    sgame *g = w->g;
    if (g) {
        pthread_mutex_lock(&g->mu);
        for (wsconn **p = &g->conns; *p; p = &(*p)->next)
            if (*p == w) {
                *p = w->next;
                break;
            }
        if (w->seat >= 0) g->seat[w->seat].connected--;
        if (!g->conns) g->left = now_s();
        broadcast(g);
        pthread_mutex_unlock(&g->mu);
    }
    free(w);
}

/* ---- HTTP API ----------------------------------------------------------------------- */

/* A request and its answer while a handler runs (the transport reads the
 * one and writes the other). */
typedef struct hx {
    const server_http_req *rq;
    server_http_resp *rs;
} hx;

static int reply(hx *c, int status, const char *ctype, const char *body, size_t len, const char *extra) {
    server_http_resp *rs = c->rs;
    free(rs->body);
    rs->body = malloc(len + 1);
    if (rs->body) {
        memcpy(rs->body, body, len);
        rs->body[len] = 0;
        rs->len = len;
    } else {
        rs->len = 0;
        status = 500;
    }
    rs->status = status;
    snprintf(rs->ctype, sizeof rs->ctype, "%s", ctype);
    snprintf(rs->extra, sizeof rs->extra, "%s", extra ? extra : "");
    return status;
}

static int reply_json(hx *c, int status, json_t *o) {
    char *t = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (!t) return reply(c, 500, "text/plain", "out of memory\n", 14, NULL);
    int r = reply(c, status, "application/json", t, strlen(t), NULL);
    free(t);
    return r;
}

__attribute__((format(printf, 3, 4))) static int reply_error(hx *c, int status, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return reply_json(c, status, json_pack("{s:s}", "error", msg));
}

/* The same with a code for programs ("too_deep", "running", ...). */
__attribute__((format(printf, 4, 5))) static int reply_code(hx *c, int status, const char *code, const char *fmt,
                                                            ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return reply_json(c, status, json_pack("{s:s, s:s}", "error", msg, "code", code));
}

static json_t *summary(sgame *g) {
    pthread_mutex_lock(&g->mu);
    int open = 0;
    for (int i = 0; i < g->s.cfg.nseats; i++)
        if (strcmp(g->seat[i].kind, "human") == 0 && !g->seat[i].claimed) open = 1;
    /* a private game waiting for its players is not offered to strangers */
    const char *status = kontor_over(&g->s) ? "over" : open && g->listed ? "open" : "running";
    json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:i, s:o, s:s, s:i, s:i}", "id", g->id, "variant",
                          kontor_variant_name(g->s.cfg.variant), "status", status, "round", g->s.round, "ply",
                          g->rec.nply, "seats", seats_info(g), "result", g->rec.result, "timeout", g->timeout_s,
                          "spectators", 0);
    int spect = 0;
    for (wsconn *w = g->conns; w; w = w->next) spect += w->seat < 0;
    json_object_set_new(o, "spectators", json_integer(spect));
    pthread_mutex_unlock(&g->mu);
    return o;
}

static int stored_summary(void *ctx, const char *id, int over, const char *meta, const char *record) {
    (void)meta;
    json_t *a = ctx;
    if (find_game(id)) return 0; /* already listed from memory */
    kontor_record r;
    kontor_error err;
    if (kontor_record_parse(&r, record, strlen(record), &err) != KONTOR_OK) return 0;
    json_t *pl = json_array();
    for (int i = 0; i < r.cfg.nseats; i++) json_array_append_new(pl, json_string(r.players[i]));
    json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:o}", "id", id, "variant",
                                       kontor_variant_name(r.cfg.variant), "status", over ? "over" : "stored",
                                       "result", r.result, "players", pl));
    kontor_record_release(&r);
    return 0;
}

/* Several nodes: an unfinished game of the database that this node does
 * not hold, summed up from its stored meta and record (ctx: the open and
 * running lists). */
static int stored_unfinished(void *ctx, const char *id, int over, const char *meta, const char *record) {
    json_t **lists = ctx;
    (void)over;
    if (find_game(id)) return 0; /* already listed from memory */
    kontor_record r;
    kontor_error err;
    if (kontor_record_parse(&r, record, strlen(record), &err) != KONTOR_OK) return 0;
    kontor_state *s = malloc(sizeof *s);
    json_t *m = json_loads(meta, 0, NULL);
    json_t *mseats = json_object_get(m, "seats");
    if (s && kontor_record_replay(&r, -1, s, NULL, NULL, &err) == KONTOR_OK &&
        json_array_size(mseats) == (size_t)s->cfg.nseats) {
        int open = 0;
        json_t *seats = json_array();
        for (int i = 0; i < s->cfg.nseats; i++) {
            json_t *so = json_array_get(mseats, (size_t)i);
            const char *kind = json_string_value(json_object_get(so, "kind"));
            int claimed = json_is_true(json_object_get(so, "claimed"));
            int human = kind && strcmp(kind, "human") == 0;
            open |= human && !claimed;
            json_array_append_new(seats, json_pack("{s:s, s:i, s:s, s:b, s:b}", "name", kontor_seat_name(s, i), "team",
                                                   kontor_team(s, i), "kind", kind && is_level(kind) ? kind : "human",
                                                   "claimed", claimed, "connected", 0));
        }
        json_t *dst = open ? lists[0] : lists[1];
        json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:i, s:o, s:s, s:i, s:i}", "id", id, "variant",
                              kontor_variant_name(s->cfg.variant), "status", open ? "open" : "running", "round",
                              s->round, "ply", r.nply, "seats", seats, "result", "*", "timeout",
                              (int)json_integer_value(json_object_get(m, "timeout")), "spectators", 0);
        if (json_array_size(dst) < 50) json_array_append_new(dst, o);
        else json_decref(o);
    }
    json_decref(m);
    free(s);
    kontor_record_release(&r);
    return 0;
}

static int api_list(hx *c) {
    long n;
    sgame **all = snapshot(&n);
    if (!all) return reply_error(c, 500, "out of memory");
    json_t *open = json_array(), *running = json_array(), *over = json_array();
    /* newest first, at most 50 of each kind */
    for (long i = n - 1; i >= 0; i--) {
        json_t *o = summary(all[i]);
        const char *st = json_string_value(json_object_get(o, "status"));
        json_t *dst = strcmp(st, "open") == 0 ? open : strcmp(st, "running") == 0 ? running : over;
        if (json_array_size(dst) < 50) json_array_append_new(dst, o);
        else json_decref(o);
    }
    free(all);
    kontor_error err;
    if (json_array_size(over) < 20) store_recent(S.st, 20, stored_summary, over, &err);
    json_t *lists[2] = {open, running};
    if (S.shared) store_unfinished(S.st, 100, stored_unfinished, lists, &err); /* the other nodes' games */
    return reply_json(c, 200, json_pack("{s:o, s:o, s:o, s:I}", "open", open, "running", running, "finished", over,
                                        "total", (json_int_t)n));
}

static json_t *links_of(sgame *g, int only) {
    json_t *a = json_array();
    for (int i = 0; i < g->s.cfg.nseats; i++) {
        if (only >= 0 && i != only) continue;
        if (strcmp(g->seat[i].kind, "human") != 0) continue;
        char link[128];
        snprintf(link, sizeof link, "/#play/%s/%s", g->id, g->seat[i].token);
        json_array_append_new(a, json_pack("{s:i, s:s, s:s, s:s}", "seat", i, "name", kontor_seat_name(&g->s, i),
                                           "token", g->seat[i].token, "link", link));
    }
    return a;
}

static int api_create(hx *c) {
    if (c->rq->body_over || c->rq->body_len > (size_t)MSG_MAX)
        return reply_code(c, 413, "too_large", "request body is over %d bytes", MSG_MAX);
    const char *code;
    char why[160];
    json_t *req = sj_parse_object(c->rq->body ? c->rq->body : "", c->rq->body_len, &code, why, sizeof why);
    if (!req) return reply_code(c, strcmp(code, "too_large") == 0 ? 413 : 400, code, "request body is %s", why);
    json_t *vj = json_object_get(req, "variant"), *oj = json_object_get(req, "options");
    if ((vj && !json_is_string(vj)) || (oj && !json_is_string(oj))) {
        const char *field = vj && !json_is_string(vj) ? "variant" : "options";
        json_decref(req);
        return reply_code(c, 400, "bad_request", "'%s' must be a string", field);
    }
    const char *variant = json_string_value(vj);
    const char *options = json_string_value(oj);
    json_t *tj = json_object_get(req, "timeout");
    if (tj && !json_is_integer(tj)) {
        json_decref(req);
        return reply_error(c, 400, "'timeout' must be a whole number of seconds");
    }
    json_int_t timeout = tj ? json_integer_value(tj) : 0;
    json_t *lj = json_object_get(req, "listed");
    if (lj && !json_is_boolean(lj)) {
        json_decref(req);
        return reply_error(c, 400, "'listed' must be true or false");
    }
    /* games of computers only: as many at once as the operator allows */
    json_t *sj = json_object_get(req, "seats");
    int people = 0;
    for (size_t i = 0; i < json_array_size(sj); i++)
        people += json_is_string(json_array_get(sj, i)) && strcmp(json_string_value(json_array_get(sj, i)), "human") == 0;
    if (json_array_size(sj) > 0 && !people) {
        if (S.lim.ai_games <= 0) {
            json_decref(req);
            return reply_error(c, 403, "games of computer seats only are off on this server (--ai-games 0)");
        }
        if (bots_running() >= S.lim.ai_games) {
            json_decref(req);
            return reply_error(c, 429,
                               "at most %d games of computer seats only at once on this server (--ai-games); "
                               "try again when one ends", S.lim.ai_games);
        }
    }
    kontor_error err = {0};
    sgame *g = NULL;
    if (timeout < 0 || timeout > TIMEOUT_MAX)
        snprintf(err.msg, sizeof err.msg, "'timeout' %lld is outside 0..%d seconds", (long long)timeout, TIMEOUT_MAX);
    else
        g = create_game(variant ? variant : "basic", options, json_object_get(req, "seats"), (int)timeout,
                        json_is_true(lj), &err);
    json_decref(req);
    if (!g) return reply_error(c, err.code == KONTOR_E_IO ? 500 : 400, "%s", err.msg);
    logf_("game '%s' created", g->id);
    pthread_mutex_lock(&g->mu);
    json_t *links = links_of(g, -1);
    pthread_mutex_unlock(&g->mu);
    char watch[64];
    snprintf(watch, sizeof watch, "/#watch/%s", g->id);
    return reply_json(c, 201, json_pack("{s:s, s:o, s:s}", "id", g->id, "seats", links, "watch", watch));
}

/* A finished game played again, colours swapped: the seats' kinds move to
 * the other team (2 players: seat i to 1 - i; 4: i to i ^ 2), same variant,
 * options, timeout and listing. Asked with a seat's token; the first asks
 * create it, every seat's token then gets its own new seat's link, and the
 * game's connections are told (without any link) that it exists. */
static int api_rematch(hx *c, sgame *g) {
    if (c->rq->body_over || c->rq->body_len > (size_t)MSG_MAX)
        return reply_code(c, 413, "too_large", "request body is over %d bytes", MSG_MAX);
    const char *code;
    char why[160];
    json_t *req = sj_parse_object(c->rq->body ? c->rq->body : "", c->rq->body_len, &code, why, sizeof why);
    if (!req) return reply_code(c, strcmp(code, "too_large") == 0 ? 413 : 400, code, "request body is %s", why);
    const char *tok = json_string_value(json_object_get(req, "token"));
    pthread_mutex_lock(&g->mu);
    int seat = -1, ns = g->s.cfg.nseats;
    for (int i = 0; tok && i < ns; i++)
        if (g->seat[i].token[0] && strcmp(g->seat[i].token, tok) == 0) seat = i;
    json_decref(req); /* (tok is not used past here) */
    if (seat < 0) {
        pthread_mutex_unlock(&g->mu);
        return reply_error(c, 403, "a rematch of game '%s' is asked with a player's \"token\"", g->id);
    }
    if (!kontor_over(&g->s)) {
        pthread_mutex_unlock(&g->mu);
        return reply_error(c, 409, "game '%s' is not over: no rematch yet", g->id);
    }
    int moved = ns == 4 ? seat ^ 2 : 1 - seat; /* the asker's seat in the rematch */
    sgame *ng = g->rematch[0] ? find_game(g->rematch) : NULL;
    if (!ng) {
        json_t *kinds = json_array();
        for (int j = 0; j < ns; j++) json_array_append_new(kinds, json_string(g->seat[ns == 4 ? j ^ 2 : 1 - j].kind));
        char opts[256];
        kontor_config_describe(&g->s.cfg, opts, sizeof opts);
        kontor_error err = {0};
        ng = create_game(kontor_variant_name(g->s.cfg.variant), opts, kinds, g->timeout_s, g->listed, &err);
        json_decref(kinds);
        if (!ng) {
            pthread_mutex_unlock(&g->mu);
            return reply_error(c, 500, "game '%s': the rematch could not be created: %s", g->id, err.msg);
        }
        snprintf(g->rematch, sizeof g->rematch, "%s", ng->id);
        logf_("game '%s' created, a rematch of '%s'", ng->id, g->id);
        for (wsconn *w = g->conns; w; w = w->next)
            send_json(w, json_pack("{s:s, s:s, s:s}", "type", "rematch", "game", g->id, "rematch", ng->id));
    }
    pthread_mutex_unlock(&g->mu);
    pthread_mutex_lock(&ng->mu);
    json_t *links = links_of(ng, moved);
    pthread_mutex_unlock(&ng->mu);
    char watch[64];
    snprintf(watch, sizeof watch, "/#watch/%s", ng->id);
    return reply_json(c, 200, json_pack("{s:s, s:o, s:s}", "id", ng->id, "seats", links, "watch", watch));
}

/* Claim a free human seat of an open game: its link, once. */
static int api_claim(hx *c, sgame *g, const char *seatstr) {
    char *end;
    long seat = strtol(seatstr, &end, 10);
    pthread_mutex_lock(&g->mu);
    if (*end || end == seatstr || seat < 0 || seat >= g->s.cfg.nseats) {
        pthread_mutex_unlock(&g->mu);
        return reply_error(c, 404, "game '%s' has no seat '%.8s'", g->id, seatstr);
    }
    if (!g->listed) {
        pthread_mutex_unlock(&g->mu);
        return reply_error(c, 403, "game '%s' is private: its seats are taken only through their links", g->id);
    }
    if (strcmp(g->seat[seat].kind, "human") != 0 || g->seat[seat].claimed) {
        pthread_mutex_unlock(&g->mu);
        return reply_error(c, 409, "game '%s': seat %ld is not free", g->id, seat);
    }
    g->seat[seat].claimed = 1;
    char *m = make_meta(g);
    kontor_error err;
    if (m) {
        free(g->meta);
        g->meta = m;
    }
    if (!m || save_game(g, &err) != KONTOR_OK) {
        g->seat[seat].claimed = 0;
        pthread_mutex_unlock(&g->mu);
        return reply_error(c, 500, "game '%s': the claim could not be stored", g->id);
    }
    json_t *links = links_of(g, (int)seat);
    broadcast(g);
    pthread_mutex_unlock(&g->mu);
    return reply_json(c, 200, json_pack("{s:s, s:o}", "id", g->id, "seats", links));
}

/* The whole record text of a game (deal, seed, every decision), from memory
 * or from the store, for the server's own use: while the game runs it holds
 * every secret, so it is sent to nobody (*over says whether it may be). */
static char *record_text(const char *id, int *found, int *over) {
    sgame *g = get_game(id);
    char *text = NULL;
    *found = 0;
    *over = 0;
    if (g) {
        size_t len;
        pthread_mutex_lock(&g->mu);
        kontor_record_set_result(&g->rec, &g->s);
        if (kontor_record_write(&g->rec, &text, &len) != KONTOR_OK) text = NULL;
        *over = kontor_over(&g->s);
        pthread_mutex_unlock(&g->mu);
        *found = 1;
        return text;
    }
    char *meta = NULL;
    kontor_error err;
    if (store_get(S.st, id, over, &meta, &text, &err) != KONTOR_OK) return NULL;
    free(meta);
    *found = 1;
    return text;
}

/* The value of name=value in a query string (no %-decoding: the values of
 * this API are numbers); 0 when absent or too long for out. */
static int query_var(const char *q, const char *name, char *out, size_t cap) {
    size_t nl = strlen(name);
    while (q && *q) {
        size_t k = strcspn(q, "&");
        if (k > nl && strncmp(q, name, nl) == 0 && q[nl] == '=') {
            if (k - nl - 1 >= cap) return 0;
            memcpy(out, q + nl + 1, k - nl - 1);
            out[k - nl - 1] = 0;
            return 1;
        }
        q += k;
        if (*q) q++;
    }
    return 0;
}

typedef struct replay_ctx {
    int upto;
    int viewer; /* -2 a finished game (every card shown), -1 a running one (a spectator) */
    json_t *events;
    long seq;
    const kontor_state *last;
} replay_ctx;

static void replay_events(void *ctx, const kontor_state *s, int ply, const kontor_log *log) {
    replay_ctx *rc = ctx;
    for (int i = 0; i < log->n; i++, rc->seq++)
        if (ply == rc->upto - 1) json_array_append_new(rc->events, sj_event(s, &log->ev[i], rc->seq, rc->viewer));
}

/* A position of a game for the replay viewer: after ply plies. Finished
 * games show every hand; running ones only what a spectator sees. */
static int api_view(hx *c, const char *id) {
    char pbuf[16] = "";
    long ply = -1;
    if (query_var(c->rq->query, "ply", pbuf, sizeof pbuf)) {
        char *end;
        ply = strtol(pbuf, &end, 10);
        if (!pbuf[0] || *end || ply < 0) return reply_error(c, 400, "'ply' must be a number from 0");
    }
    int found, stored_over;
    char *text = record_text(id, &found, &stored_over);
    if (!text) return found ? reply_error(c, 500, "game '%s': record unavailable", id)
                            : reply_error(c, 404, "game '%s' does not exist", id);
    kontor_record r;
    kontor_error err;
    if (kontor_record_parse(&r, text, strlen(text), &err) != KONTOR_OK) {
        free(text);
        return reply_error(c, 500, "game '%s': %s", id, err.msg);
    }
    free(text);
    if (ply < 0 || ply > r.nply) ply = r.nply;
    kontor_state *s = malloc(sizeof *s), *fin = malloc(sizeof *fin);
    replay_ctx rc = {(int)ply, -1, json_array(), 0, NULL};
    int over = 0;
    if (s && fin && kontor_record_replay(&r, -1, fin, NULL, NULL, &err) == KONTOR_OK) over = kontor_over(fin);
    if (over) rc.viewer = -2;
    if (!s || !fin || kontor_record_replay(&r, (int)ply, s, replay_events, &rc, &err) != KONTOR_OK) {
        free(s);
        free(fin);
        kontor_record_release(&r);
        json_decref(rc.events);
        return reply_error(c, 500, "game '%s': %s", id, err.msg);
    }
    json_t *o;
    if (over) {
        o = sj_state_full(s);
    } else {
        kontor_view v;
        kontor_view_of(s, -1, &v);
        o = sj_view(&v);
    }
    json_object_set_new(o, "game", json_string(id));
    json_object_set_new(o, "ply", json_integer(ply));
    json_object_set_new(o, "plies", json_integer(r.nply));
    json_object_set_new(o, "events", rc.events);
    json_object_set_new(o, "cards", sj_cards(r.cfg.cards));
    json_t *pl = json_array();
    for (int i = 0; i < r.cfg.nseats; i++) json_array_append_new(pl, json_string(r.players[i]));
    json_object_set_new(o, "players", pl);
    json_object_set_new(o, "result", json_string(r.result));
    if (ply > 0) {
        /* who decided last; what, only once the game is over: while it runs
         * the decision may be a hidden one (a chosen card, a bribe), and the
         * events above already say what of it a spectator may know */
        kontor_ply p = r.ply[ply - 1];
        json_object_set_new(o, "last", over || S.leaky ? json_pack("{s:i, s:i}", "seat", p.seat, "m", p.move)
                                                       : json_pack("{s:i}", "seat", p.seat));
    }
    free(s);
    free(fin);
    kontor_record_release(&r);
    return reply_json(c, 200, o);
}

/* GET /api/games/ID/analysis (analysis_api.c): once the game is over, its
 * analysis, computed once by the workers: 202 pending until it is ready */
static int api_analysis(hx *c, const char *id) {
    analysis_answer a;
    if (!analysis_api_cached(id, &a)) {
        int found, over;
        char *text = record_text(id, &found, &over);
        if (!text) return found ? reply_error(c, 500, "game '%s': record unavailable", id)
                                : reply_error(c, 404, "game '%s' does not exist", id);
        if (!over && !S.leaky) {
            /* it would tell the hidden cards and the search's reading of them
             * (KONTOR_TEST_LEAKY_RECORD=1: served, so that test_leak.c shows
             * that its oracle sees it) */
            free(text);
            return reply_code(c, 409, "running", "game '%s' is running: it is analysed once it is over", id);
        }
        analysis_api_start(id, text, c->rq->addr, &a);
        free(text);
    }
    reply(c, a.status, "application/json", a.body ? a.body : "{}", a.body ? strlen(a.body) : 2, a.extra);
    free(a.body);
    return a.status;
}

/* Every variant of the engine's table with its seats and the expansions
 * (export=1, events=1, tiles=1) it takes: those whose deal succeeds, so the
 * lobby never offers a combination the engine refuses. */
static int api_variants(hx *c) {
    static const char *const exp[] = {"export=1", "events=1", "tiles=1"};
    json_t *a = json_array();
    kontor_state *s = malloc(sizeof *s);
    if (!s) return reply_error(c, 500, "out of memory");
    for (int v = 0; kontor_variant_describe(v); v++) {
        kontor_config cfg;
        kontor_error err;
        if (kontor_config_init(&cfg, kontor_variant_name(v), &err) != KONTOR_OK) continue;
        json_t *opts = json_array();
        for (size_t k = 0; k < sizeof exp / sizeof *exp; k++) {
            kontor_config c2 = cfg;
            if (kontor_config_option(&c2, exp[k], &err) == KONTOR_OK && kontor_new(s, &c2, 1, &err) == KONTOR_OK)
                json_array_append_new(opts, json_string(exp[k]));
        }
        json_array_append_new(a, json_pack("{s:s, s:s, s:i, s:i, s:i, s:o}", "name", kontor_variant_name(v),
                                           "describe", kontor_variant_describe(v), "seats", cfg.nseats, "w", cfg.width,
                                           "h", cfg.height, "expansions", opts));
    }
    free(s);
    /* the expansions' names for the lobby (docs/variants.md says what each does) */
    json_t *names = json_pack("{s:s, s:s, s:s}", "export=1", "expansion 1, Exportlager (export store)", "events=1",
                              "expansion 2, Ereigniskarten (event cards)", "tiles=1",
                              "expansion 3, Aktionstafeln (action tiles)");
    return reply_json(c, 200, json_pack("{s:o, s:o}", "variants", a, "expansions", names));
}

static long rss_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0) kib = strtol(line + 6, NULL, 10);
    fclose(f);
    return kib;
}

static int api_handler(hx *c) {
    const char *uri = c->rq->uri ? c->rq->uri : "";
    const char *method = c->rq->method ? c->rq->method : "";
    int get = strcmp(method, "GET") == 0, post = strcmp(method, "POST") == 0;
    if (strcmp(uri, "/api/games") == 0) {
        if (get) return api_list(c);
        if (post) return api_create(c);
        return reply_error(c, 405, "'%s /api/games': use GET or POST", method);
    }
    if (strcmp(uri, "/api/variants") == 0) {
        if (get) return api_variants(c);
        return reply_error(c, 405, "'%s /api/variants': use GET", method);
    }
    if (strcmp(uri, "/api/stats") == 0) {
        long n;
        sgame **all = snapshot(&n);
        free(all);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        json_int_t cpu_ms = (json_int_t)ru.ru_utime.tv_sec * 1000 + ru.ru_utime.tv_usec / 1000 +
                            (json_int_t)ru.ru_stime.tv_sec * 1000 + ru.ru_stime.tv_usec / 1000;
        /* shared: 1 when this node is one of several on one database */
        return reply_json(c, 200, json_pack("{s:I, s:I, s:I, s:i}", "games", (json_int_t)n, "rss_kib",
                                            (json_int_t)rss_kib(), "cpu_ms", cpu_ms, "shared", S.shared));
    }
    if (strncmp(uri, "/api/games/", 11) == 0) {
        char id[40] = "", rest[40] = "", arg[16] = "";
        const char *p = uri + 11;
        size_t k = strcspn(p, "/");
        if (k >= sizeof id) return reply_error(c, 404, "no such game");
        memcpy(id, p, k);
        id[k] = 0;
        p += k;
        if (*p == '/') {
            p++;
            size_t k2 = strcspn(p, "/");
            if (k2 >= sizeof rest) return reply_error(c, 404, "'%.60s' is not an API path", uri);
            memcpy(rest, p, k2);
            rest[k2] = 0;
            p += k2;
            if (*p == '/') snprintf(arg, sizeof arg, "%s", p + 1);
        }
        if (!valid_id(id)) return reply_error(c, 404, "'%.40s' is not a game id", id);
        if (rest[0] == 0 && get) {
            sgame *g = get_game(id);
            if (!g) return reply_error(c, 404, "game '%s' does not exist", id);
            return reply_json(c, 200, summary(g));
        }
        if (strcmp(rest, "record") == 0 && get) {
            int found, over;
            char *text = record_text(id, &found, &over);
            if (!text) return found ? reply_error(c, 500, "game '%s': record unavailable", id)
                                    : reply_error(c, 404, "game '%s' does not exist", id);
            if (!over && !S.leaky) {
                /* the record holds the seed, the deal and the hidden choices:
                 * published when the game ends, when it proves the shuffle */
                free(text);
                return reply_code(c, 409, "running",
                                  "game '%s' is running: its record (with the deal and the seed) is published when it ends",
                                  id);
            }
            char extra[128];
            snprintf(extra, sizeof extra, "Content-Disposition: attachment; filename=\"kontor-%s.kgn\"\r\n", id);
            reply(c, 200, "text/plain; charset=utf-8", text, strlen(text), extra);
            free(text);
            return 200;
        }
        if (strcmp(rest, "view") == 0 && get) return api_view(c, id);
        if (strcmp(rest, "analysis") == 0 && get) return api_analysis(c, id);
        if (strcmp(rest, "rematch") == 0 && post) {
            sgame *g = find_game(id);
            if (!g) return reply_error(c, 404, "game '%s' does not exist", id);
            return api_rematch(c, g);
        }
        if (strcmp(rest, "seats") == 0 && post && arg[0]) {
            sgame *g = get_game(id);
            if (!g) return reply_error(c, 404, "game '%s' does not exist", id);
            return api_claim(c, g, arg);
        }
    }
    return reply_error(c, 404, "'%s %.80s' is not an API call", method, uri);
}

int server_http(const server_http_req *rq, server_http_resp *rs) {
    memset(rs, 0, sizeof *rs);
    hx c = {rq, rs};
    return api_handler(&c);
}

/* ---- the transport's side (transport.c calls these on the loop's thread) ----------------- */

static void t_send(void *tx, const char *text, size_t len) { tconn_send(tx, text, len); }
static void t_close(void *tx, int code) { tconn_close(tx, code, code == 1009 ? "message too big" : "policy"); }
static void t_joined(void *tx) { tconn_joined(tx); }

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

/* ---- housekeeping: games leave memory ------------------------------------------------ */

/* Take g out of the registry (loop thread); 0 (and g stays) while the
 * node-sync thread holds it. */
static int unregister_game(sgame *g) {
    pthread_mutex_lock(&S.reg_mu);
    if (g->pins) {
        pthread_mutex_unlock(&S.reg_mu);
        return 0;
    }
    for (long i = 0; i < S.nall; i++)
        if (S.all[i] == g) {
            memmove(S.all + i, S.all + i + 1, (size_t)(S.nall - i - 1) * sizeof *S.all);
            S.nall--;
            break;
        }
    for (sgame **p = &S.bucket[hash_id(g->id)]; *p; p = &(*p)->hnext)
        if (*p == g) {
            *p = g->hnext;
            break;
        }
    pthread_mutex_unlock(&S.reg_mu);
    return 1;
}

/* Once a second on the loop's thread: a finished game leaves memory --linger
 * seconds after its last connection left (the store keeps it: its record and
 * view are read from there); an open game that no person joined leaves after
 * --open-ttl seconds, and the store forgets it. Only the loop's thread finds
 * games by id (HTTP and WebSocket handlers, the timeouts), and a game leaves
 * only when no computer move is queued or under way, so no other thread
 * holds it. */
static void evict_games(void) {
    long n;
    sgame **all = snapshot(&n);
    if (!all) return;
    double t = now_s();
    long freed = 0;
    for (long i = 0; i < n; i++) {
        sgame *g = all[i];
        pthread_mutex_lock(&g->mu);
        int idle = !g->conns && !g->ai_queued && !g->ai_busy;
        int over = kontor_over(&g->s), joined = 0, people = 0;
        for (int k = 0; k < g->s.cfg.nseats; k++)
            if (strcmp(g->seat[k].kind, "human") == 0) {
                people++;
                joined += g->seat[k].claimed;
            }
        double since = g->left > g->born ? g->left : g->born;
        int finished = idle && over && t - since >= S.lim.linger_s;
        int expired = idle && !over && people && !joined && t - g->born >= S.lim.open_ttl_s;
        pthread_mutex_unlock(&g->mu);
        if (!finished && !expired) continue;
        if (!unregister_game(g)) continue;
        if (expired) {
            kontor_error err;
            if (store_delete(S.st, g->id, &err) != KONTOR_OK) logf_("%s", err.msg);
            logf_("game '%s': open for %d s and nobody joined; removed", g->id, S.lim.open_ttl_s);
        }
        free_game(g);
        freed++;
    }
    free(all);
#ifdef __GLIBC__
    /* give the freed games' pages back (glibc keeps them otherwise) */
    if (freed) malloc_trim(0);
#endif
}

/* Several nodes, once a second: renew this node's leases, and adopt the
 * games whose node died (their lease ran out): load them and play their
 * computer seats. */
static int adopt(void *ctx, const char *id) {
    (void)ctx;
    sgame *g = get_game(id);
    if (g) {
        logf_("game '%s': its node's lease ran out; this node plays its computer seats", id);
        pthread_mutex_lock(&g->mu);
        catch_up(g);
        schedule_ai(g);
        pthread_mutex_unlock(&g->mu);
    }
    return 0;
}

static void leases_tick(void) {
    kontor_error err;
    store_renew(S.st, S.node, LEASE_MS);
    if (store_orphans(S.st, S.node, LEASE_MS, 16, adopt, NULL, &err) != KONTOR_OK) logf_("%s", err.msg);
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
    const char *leak = getenv("KONTOR_TEST_LEAKY_RECORD");
    S.leaky = leak && strcmp(leak, "1") == 0;
    if (!S.lim.msg_max) limits_default(&S.lim); /* (server_run sets them first) */
    pthread_mutex_init(&S.reg_mu, NULL);
    pthread_mutex_init(&S.q_mu, NULL);
    pthread_cond_init(&S.q_cv, NULL);
    analysis_api_init(&S.lim, wake_workers);
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
    analysis_api_shutdown();
    for (long i = 0; i < S.nall; i++) free_game(S.all[i]);
    free(S.all);
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
    transport_opts to = {o->host, o->port, o->web, &S.lim, on_ready};
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
