/* server.c: kontor serve: games in memory, their records in the store, civetweb for HTTP and WebSocket.
 *
 * Threads. civetweb gives every connection a worker thread; a WebSocket keeps
 * its thread for its whole life, so --threads bounds the open sockets. Each
 * game has its own mutex, and everything that changes a game (a player's
 * move, a computer's move, a timeout) goes through apply_decision() under
 * that mutex: check, apply, store the record, and only then send the new
 * views. So a move is acknowledged only once it is on disk, and a crash can
 * lose at most a move nobody was told about. Games are never freed while
 * the server runs, so a pointer to a game stays valid without reference
 * counts; a connection is in its game's list only while its socket is open
 * (the close handler removes it under the game's mutex), so sending to the
 * connections of a game under that mutex never touches a closed socket.
 *
 * Computer seats are played by --ai-threads workers fed by a queue: a worker
 * takes a view under the lock, thinks without it (other moves of the same
 * game wait for it, other games do not), and applies under the lock if the
 * game has not moved on. A timer thread plays a random legal move for a human
 * seat whose per-decision timeout (a game option) has run out.
 *
 * Outside input is distrusted: WebSocket messages are capped at 64 KiB and
 * rate-limited per connection (a token bucket), JSON is parsed by jansson and
 * every field is checked for type and range before use; errors go back as
 * {"type":"error","error":"..."} and change nothing.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <civetweb.h>
#include <jansson.h>

#include "kontor/agent.h"
#include "kontor/record.h"
#include "server/server.h"
#include "server/sjson.h"
#include "server/store.h"

/* A message of the protocol is a few hundred bytes; 64 KiB leaves room for
 * any legitimate one and bounds what a hostile client makes us parse. */
#define MSG_MAX (64 * 1024)
/* A person clicks a few times a second, a script playing fast a few hundred
 * times: 200 messages a second sustained with bursts of 400 serves both;
 * a client over the limit gets errors, and one that keeps flooding (1000
 * refused messages) is disconnected. */
#define RATE_PER_S 200.0
#define RATE_BURST 400.0
#define FLOOD_CLOSE 1000
#define ID_LEN 10
#define TOKEN_LEN 32
#define NBUCKETS 4096
/* The longest a timeout may be set to (a day), and the timer's tick. */
#define TIMEOUT_MAX 86400
#define TIMER_TICK_MS 200

typedef struct sgame sgame;
typedef struct wsconn wsconn;

struct wsconn {
    struct mg_connection *c;
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
    kontor_agent *agent;         /* computer seats, made on first use */
} seatinfo;

struct sgame {
    char id[ID_LEN + 1];
    pthread_mutex_t mu;
    kontor_state s;
    kontor_record rec;
    seatinfo seat[KONTOR_MAX_SEATS];
    int timeout_s;     /* 0: no timeout */
    double deadline;   /* monotonic seconds; 0: none running */
    uint64_t seed;
    char *meta;        /* the stored meta JSON (changes when a seat is claimed) */
    kontor_event *ev;  /* every event since the deal */
    long nev, evcap;
    wsconn *conns;
    int ai_queued, ai_busy;
    sgame *hnext;      /* hash chain */
};

static struct {
    store *st;
    pthread_mutex_t reg_mu;
    sgame *bucket[NBUCKETS];
    sgame **all;
    long nall, capall;
    pthread_mutex_t q_mu;
    pthread_cond_t q_cv;
    sgame **q;
    long qhead, qn, qcap;
    volatile int stop;
    int quiet;
} S;

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

static int register_game(sgame *g) {
    pthread_mutex_lock(&S.reg_mu);
    if (S.nall == S.capall) {
        long cap = S.capall ? S.capall * 2 : 256;
        sgame **a = realloc(S.all, (size_t)cap * sizeof *a);
        if (!a) {
            pthread_mutex_unlock(&S.reg_mu);
            return -1;
        }
        S.all = a;
        S.capall = cap;
    }
    S.all[S.nall++] = g;
    unsigned h = hash_id(g->id);
    g->hnext = S.bucket[h];
    S.bucket[h] = g;
    pthread_mutex_unlock(&S.reg_mu);
    return 0;
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
        json_array_append_new(seats, json_pack("{s:s, s:s, s:b}", "kind", g->seat[i].kind, "token", g->seat[i].token,
                                               "claimed", g->seat[i].claimed));
    json_t *m = json_pack("{s:o, s:i, s:I}", "seats", seats, "timeout", g->timeout_s, "seed", (json_int_t)g->seed);
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

static void send_text(struct mg_connection *c, const char *text) {
    mg_websocket_write(c, MG_WEBSOCKET_OPCODE_TEXT, text, strlen(text));
}

static void send_json(struct mg_connection *c, json_t *o) {
    char *t = json_dumps(o, JSON_COMPACT);
    if (t) send_text(c, t);
    free(t);
    json_decref(o);
}

static void send_error(struct mg_connection *c, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void send_error(struct mg_connection *c, const char *code, const char *fmt, ...) {
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
        json_array_append_new(a, json_pack("{s:s, s:i, s:s, s:b, s:b}", "name", kontor_seat_name(&g->s, i), "team",
                                           kontor_team(&g->s, i), "kind", g->seat[i].kind, "claimed",
                                           g->seat[i].claimed, "connected", g->seat[i].connected > 0));
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
    if (g->deadline > 0) json_object_set_new(o, "deadline_ms", json_integer((json_int_t)((g->deadline - now_s()) * 1000)));
    if (kontor_over(&g->s)) json_object_set_new(o, "result", json_string(g->rec.result));
    char *t = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return t;
}

static void send_state(sgame *g, wsconn *w) {
    char *t = state_text(g, w);
    if (t) send_text(w->c, t);
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
        if (spect) send_text(w->c, spect);
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

/* Queue g for a computer move if one is owed. Call with g->mu held. */
static void schedule_ai(sgame *g) {
    if (g->ai_queued || g->ai_busy || !ai_owes(g)) return;
    pthread_mutex_lock(&S.q_mu);
    if (S.qn == S.qcap) {
        long cap = S.qcap ? S.qcap * 2 : 256;
        sgame **q = malloc((size_t)cap * sizeof *q);
        if (!q) {
            pthread_mutex_unlock(&S.q_mu);
            return;
        }
        for (long i = 0; i < S.qn; i++) q[i] = S.q[(S.qhead + i) % S.qcap];
        free(S.q);
        S.q = q;
        S.qcap = cap;
        S.qhead = 0;
    }
    S.q[(S.qhead + S.qn) % S.qcap] = g;
    S.qn++;
    g->ai_queued = 1;
    pthread_cond_signal(&S.q_cv);
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

/* The one way a game changes: check, apply, store, then tell everyone.
 * Call with g->mu held. On failure nothing changed and err says why. */
static kontor_status apply_decision(sgame *g, int seat, kontor_move m, kontor_error *err) {
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
         * whole record with its result */
        st = kontor_over(&g->s) ? save_game(g, err)
                                : store_add_ply(S.st, g->id, g->rec.nply - 1, seat, (int)m, err);
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
        logf_("%s", err->msg);
        return err->code = st;
    }
    update_deadline(g);
    broadcast(g);
    schedule_ai(g);
    return KONTOR_OK;
}

static void *ai_worker(void *arg) {
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&S.q_mu);
        while (!S.qn && !S.stop) pthread_cond_wait(&S.q_cv, &S.q_mu);
        if (S.stop) {
            pthread_mutex_unlock(&S.q_mu);
            return NULL;
        }
        sgame *g = S.q[S.qhead];
        S.qhead = (S.qhead + 1) % S.qcap;
        S.qn--;
        pthread_mutex_unlock(&S.q_mu);

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
        kontor_error err;
        if (!g->seat[seat].agent) {
            g->seat[seat].agent = kontor_agent_new(level_spec(g->seat[seat].kind), g->seed ^ (0x5EA7ull << seat), &err);
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

static void *timer_thread(void *arg) {
    (void)arg;
    kontor_rng rng;
    kontor_rng_seed(&rng, (uint64_t)(now_s() * 1e6));
    while (!S.stop) {
        struct timespec ts = {0, TIMER_TICK_MS * 1000000L};
        nanosleep(&ts, NULL);
        long n;
        sgame **all = snapshot(&n);
        if (!all) continue;
        double t = now_s();
        for (long i = 0; i < n && !S.stop; i++) {
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
                    apply_decision(g, seat, mv[kontor_rng_below(&rng, (uint32_t)k)], &err);
                }
            }
            pthread_mutex_unlock(&g->mu);
        }
        free(all);
    }
    return NULL;
}

/* ---- creating and loading games --------------------------------------------- */

static sgame *new_game_struct(void) {
    sgame *g = calloc(1, sizeof *g);
    if (g) pthread_mutex_init(&g->mu, NULL);
    return g;
}

/* Create a game from a request; on failure returns NULL with err filled. */
static sgame *create_game(const char *variant, const char *options, json_t *seats, int timeout_s, kontor_error *err) {
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
    uint64_t seed;
    if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed) seed = (uint64_t)(now_s() * 1e9);
    g->seed = seed;
    g->timeout_s = timeout_s;
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
    if (!g->meta || save_game(g, err) != KONTOR_OK || register_game(g) != 0) {
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

/* Resume one stored game: parse its meta and record, replay every decision. */
static int load_one(void *ctx, const char *id, int over, const char *meta, const char *record) {
    int *count = ctx;
    (void)over;
    kontor_error err = {0};
    sgame *g = new_game_struct();
    if (!g) return 1;
    json_error_t je;
    json_t *m = json_loads(meta, 0, &je);
    json_t *seats = json_object_get(m, "seats");
    if (!valid_id(id) || strlen(id) > ID_LEN || !json_is_array(seats)) {
        logf_("game '%.32s': its stored meta is damaged; not resumed", id);
        json_decref(m);
        free_game(g);
        return 0;
    }
    snprintf(g->id, sizeof g->id, "%s", id);
    if (kontor_record_parse(&g->rec, record, strlen(record), &err) != KONTOR_OK ||
        kontor_record_replay(&g->rec, -1, &g->s, collect_events, g, &err) != KONTOR_OK ||
        json_array_size(seats) != g->s.cfg.nseats) {
        logf_("game '%s': its stored record does not replay (%s); not resumed", id, err.msg);
        json_decref(m);
        free_game(g);
        return 0;
    }
    for (size_t i = 0; i < json_array_size(seats); i++) {
        json_t *so = json_array_get(seats, i);
        const char *k = json_string_value(json_object_get(so, "kind"));
        const char *tok = json_string_value(json_object_get(so, "token"));
        snprintf(g->seat[i].kind, sizeof g->seat[i].kind, "%s", k && is_level(k) ? k : "human");
        snprintf(g->seat[i].token, sizeof g->seat[i].token, "%s", tok ? tok : "");
        g->seat[i].claimed = json_is_true(json_object_get(so, "claimed"));
    }
    g->timeout_s = (int)json_integer_value(json_object_get(m, "timeout"));
    g->seed = (uint64_t)json_integer_value(json_object_get(m, "seed"));
    json_decref(m);
    g->meta = make_meta(g);
    if (!g->meta || register_game(g) != 0) {
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

/* ---- WebSocket ------------------------------------------------------------------ */

static int ws_connect(const struct mg_connection *c, void *ud) {
    (void)c;
    (void)ud;
    return 0;
}

static void ws_ready(struct mg_connection *c, void *ud) {
    (void)ud;
    wsconn *w = calloc(1, sizeof *w);
    if (!w) return;
    w->c = c;
    w->seat = -1;
    w->tokens = RATE_BURST;
    w->last = now_s();
    mg_set_user_connection_data(c, w);
    send_json(c, json_pack("{s:s, s:s}", "type", "hello", "version", KONTOR_VERSION));
}

static void attach(wsconn *w, sgame *g, int seat) {
    pthread_mutex_lock(&g->mu);
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
    send_json(w->c, wel);
    /* everyone sees who is connected now; the newcomer also gets every event so far */
    broadcast(g);
    pthread_mutex_unlock(&g->mu);
}

static void handle_message(wsconn *w, json_t *msg) {
    const char *type = json_string_value(json_object_get(msg, "type"));
    struct mg_connection *c = w->c;
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
        sgame *g = find_game(id);
        if (!g) {
            send_error(c, "no_game", "game '%s' does not exist", id);
            return;
        }
        int seat = -1;
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
        }
        attach(w, g, seat);
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

static int ws_data(struct mg_connection *c, int bits, char *data, size_t len, void *ud) {
    (void)ud;
    wsconn *w = mg_get_user_connection_data(c);
    int op = bits & 0x0F;
    if (!w) return 0;
    if (op == MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE) return 0;
    if (op == MG_WEBSOCKET_OPCODE_PING) {
        mg_websocket_write(c, MG_WEBSOCKET_OPCODE_PONG, data, len);
        return 1;
    }
    if (op == MG_WEBSOCKET_OPCODE_PONG) return 1;
    if (len > MSG_MAX) {
        send_error(c, "too_large", "message of %zu bytes is over the limit of %d bytes; closing", len, MSG_MAX);
        mg_websocket_write(c, MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE, "\x03\xf1", 2); /* 1009: too big */
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
            mg_websocket_write(c, MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE, "\x03\xf0", 2); /* 1008: policy */
            return 0;
        }
        if (w->refused % 50 == 1) send_error(c, "rate", "too many messages: at most %.0f a second", RATE_PER_S);
        return 1;
    }
    w->tokens -= 1.0;
    if (op != MG_WEBSOCKET_OPCODE_TEXT) {
        send_error(c, "bad_request", "only text messages (JSON) are understood");
        return 1;
    }
    json_error_t je;
    json_t *msg = json_loadb(data, len, JSON_REJECT_DUPLICATES, &je);
    if (!msg || !json_is_object(msg)) {
        if (msg) send_error(c, "bad_json", "message is JSON but not an object");
        else send_error(c, "bad_json", "message is not JSON: %s at line %d column %d", je.text, je.line, je.column);
        json_decref(msg);
        return 1;
    }
    handle_message(w, msg);
    json_decref(msg);
    return 1;
}

static void ws_close(const struct mg_connection *cc, void *ud) {
    (void)ud;
    wsconn *w = mg_get_user_connection_data(cc);
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
        broadcast(g);
        pthread_mutex_unlock(&g->mu);
    }
    free(w);
}

/* ---- HTTP API ----------------------------------------------------------------------- */

static int reply(struct mg_connection *c, int status, const char *ctype, const char *body, size_t len,
                 const char *extra) {
    const char *reason = status == 200 ? "OK" : status == 201 ? "Created" : status == 400 ? "Bad Request"
                         : status == 404 ? "Not Found" : status == 405 ? "Method Not Allowed"
                         : status == 409 ? "Conflict" : status == 413 ? "Payload Too Large" : "Internal Server Error";
    mg_printf(c,
              "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nCache-Control: no-store\r\n%s"
              "Connection: close\r\n\r\n",
              status, reason, ctype, len, extra ? extra : "");
    mg_write(c, body, len);
    return status;
}

static int reply_json(struct mg_connection *c, int status, json_t *o) {
    char *t = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (!t) return reply(c, 500, "text/plain", "out of memory\n", 14, NULL);
    int r = reply(c, status, "application/json", t, strlen(t), NULL);
    free(t);
    return r;
}

__attribute__((format(printf, 3, 4))) static int reply_error(struct mg_connection *c, int status, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return reply_json(c, status, json_pack("{s:s}", "error", msg));
}

static json_t *summary(sgame *g) {
    pthread_mutex_lock(&g->mu);
    int open = 0;
    for (int i = 0; i < g->s.cfg.nseats; i++)
        if (strcmp(g->seat[i].kind, "human") == 0 && !g->seat[i].claimed) open = 1;
    const char *status = kontor_over(&g->s) ? "over" : open ? "open" : "running";
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

static int api_list(struct mg_connection *c) {
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
    return reply_json(c, 200, json_pack("{s:o, s:o, s:o, s:I}", "open", open, "running", running, "finished", over,
                                        "total", (json_int_t)n));
}

static int read_body(struct mg_connection *c, char **out) {
    const struct mg_request_info *ri = mg_get_request_info(c);
    if (ri->content_length > MSG_MAX) return -2;
    size_t cap = MSG_MAX + 1, n = 0;
    char *buf = malloc(cap);
    if (!buf) return -1;
    int r;
    while (n < cap - 1 && (r = mg_read(c, buf + n, cap - 1 - n)) > 0) n += (size_t)r;
    if (n >= cap - 1) {
        free(buf);
        return -2;
    }
    buf[n] = 0;
    *out = buf;
    return (int)n;
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

static int api_create(struct mg_connection *c) {
    char *body = NULL;
    int n = read_body(c, &body);
    if (n == -2) return reply_error(c, 413, "request body is over %d bytes", MSG_MAX);
    if (n < 0) return reply_error(c, 500, "out of memory");
    json_error_t je;
    json_t *req = json_loadb(body, (size_t)n, JSON_REJECT_DUPLICATES, &je);
    free(body);
    if (!json_is_object(req)) {
        json_decref(req);
        return reply_error(c, 400, "request body is not a JSON object: %s", je.text);
    }
    const char *variant = json_string_value(json_object_get(req, "variant"));
    const char *options = json_string_value(json_object_get(req, "options"));
    json_t *tj = json_object_get(req, "timeout");
    if (tj && !json_is_integer(tj)) {
        json_decref(req);
        return reply_error(c, 400, "'timeout' must be a whole number of seconds");
    }
    json_int_t timeout = tj ? json_integer_value(tj) : 0;
    kontor_error err = {0};
    sgame *g = NULL;
    if (timeout < 0 || timeout > TIMEOUT_MAX)
        snprintf(err.msg, sizeof err.msg, "'timeout' %lld is outside 0..%d seconds", (long long)timeout, TIMEOUT_MAX);
    else
        g = create_game(variant ? variant : "basic", options, json_object_get(req, "seats"), (int)timeout, &err);
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

/* Claim a free human seat of an open game: its link, once. */
static int api_claim(struct mg_connection *c, sgame *g, const char *seatstr) {
    char *end;
    long seat = strtol(seatstr, &end, 10);
    pthread_mutex_lock(&g->mu);
    if (*end || end == seatstr || seat < 0 || seat >= g->s.cfg.nseats) {
        pthread_mutex_unlock(&g->mu);
        return reply_error(c, 404, "game '%s' has no seat '%.8s'", g->id, seatstr);
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

/* The record text of a game, from memory or from the store. */
static char *record_text(const char *id, int *found) {
    sgame *g = find_game(id);
    char *text = NULL;
    *found = 0;
    if (g) {
        size_t len;
        pthread_mutex_lock(&g->mu);
        kontor_record_set_result(&g->rec, &g->s);
        if (kontor_record_write(&g->rec, &text, &len) != KONTOR_OK) text = NULL;
        pthread_mutex_unlock(&g->mu);
        *found = 1;
        return text;
    }
    char *meta = NULL;
    int over;
    kontor_error err;
    if (store_get(S.st, id, &over, &meta, &text, &err) != KONTOR_OK) return NULL;
    free(meta);
    *found = 1;
    return text;
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
static int api_view(struct mg_connection *c, const char *id) {
    const struct mg_request_info *ri = mg_get_request_info(c);
    char pbuf[16] = "";
    long ply = -1;
    if (ri->query_string && mg_get_var(ri->query_string, strlen(ri->query_string), "ply", pbuf, sizeof pbuf) > 0) {
        char *end;
        ply = strtol(pbuf, &end, 10);
        if (*end || ply < 0) return reply_error(c, 400, "'ply' must be a number from 0");
    }
    int found;
    char *text = record_text(id, &found);
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
        kontor_ply p = r.ply[ply - 1];
        json_object_set_new(o, "last", json_pack("{s:i, s:i}", "seat", p.seat, "m", p.move));
    }
    free(s);
    free(fin);
    kontor_record_release(&r);
    return reply_json(c, 200, o);
}

/* Every variant of the engine's table with its seats and the expansions
 * (export=1, events=1, tiles=1) it takes: those whose deal succeeds, so the
 * lobby never offers a combination the engine refuses. */
static int api_variants(struct mg_connection *c) {
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

static int api_handler(struct mg_connection *c, void *ud) {
    (void)ud;
    const struct mg_request_info *ri = mg_get_request_info(c);
    const char *uri = ri->local_uri ? ri->local_uri : "";
    const char *method = ri->request_method;
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
        return reply_json(c, 200, json_pack("{s:I, s:I}", "games", (json_int_t)n, "rss_kib", (json_int_t)rss_kib()));
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
            sgame *g = find_game(id);
            if (!g) return reply_error(c, 404, "game '%s' does not exist", id);
            return reply_json(c, 200, summary(g));
        }
        if (strcmp(rest, "record") == 0 && get) {
            int found;
            char *text = record_text(id, &found);
            if (!text) return found ? reply_error(c, 500, "game '%s': record unavailable", id)
                                    : reply_error(c, 404, "game '%s' does not exist", id);
            char extra[128];
            snprintf(extra, sizeof extra, "Content-Disposition: attachment; filename=\"kontor-%s.kgn\"\r\n", id);
            reply(c, 200, "text/plain; charset=utf-8", text, strlen(text), extra);
            free(text);
            return 200;
        }
        if (strcmp(rest, "view") == 0 && get) return api_view(c, id);
        if (strcmp(rest, "seats") == 0 && post && arg[0]) {
            sgame *g = find_game(id);
            if (!g) return reply_error(c, 404, "game '%s' does not exist", id);
            return api_claim(c, g, arg);
        }
    }
    return reply_error(c, 404, "'%s %.80s' is not an API call", method, uri);
}

static int log_message(const struct mg_connection *c, const char *msg) {
    (void)c;
    logf_("civetweb: %s", msg);
    return 1;
}

/* ---- run -------------------------------------------------------------------------- */

/* civetweb's master thread polls its listening socket with a 2 s timeout and
 * mg_stop() waits for it to see the stop flag, so a stop took up to 2 s (and
 * so did every test's server). While mg_stop() runs, this thread connects to
 * the port every 20 ms to wake the poll; the connection is dropped unserved. */
typedef struct waker {
    char host[64];
    int port;
    atomic_int done;
} waker;

static void *waker_thread(void *arg) {
    waker *w = arg;
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)w->port);
    if (inet_pton(AF_INET, strcmp(w->host, "0.0.0.0") == 0 ? "127.0.0.1" : w->host, &sa.sin_addr) != 1)
        return NULL; /* not an IPv4 address: mg_stop() just takes its time */
    while (!atomic_load(&w->done)) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd >= 0) {
            (void)connect(fd, (struct sockaddr *)&sa, sizeof sa);
            close(fd);
        }
        nanosleep(&(struct timespec){0, 20 * 1000000L}, NULL);
    }
    return NULL;
}

int server_run(const server_opts *o, kontor_error *err) {
    memset(err, 0, sizeof *err);
    S.quiet = o->quiet;
    pthread_mutex_init(&S.reg_mu, NULL);
    pthread_mutex_init(&S.q_mu, NULL);
    pthread_cond_init(&S.q_cv, NULL);

    char index[PATH_MAX];
    snprintf(index, sizeof index, "%s/index.html", o->web);
    if (access(index, R_OK) != 0) {
        err->code = KONTOR_E_IO;
        snprintf(err->msg, sizeof err->msg, "web directory '%s' has no index.html (give --web DIR)", o->web);
        return 1;
    }
    S.st = store_open(o->db, err);
    if (!S.st) return 1;

    /* signals: every thread blocks them, the main thread waits for them */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    int resumed = 0;
    if (store_load(S.st, 1, load_one, &resumed, err) != KONTOR_OK) {
        store_close(S.st);
        return 1;
    }

    int nai = o->ai_threads > 0 ? o->ai_threads : 1;
    pthread_t ai[16], timer;
    if (nai > 16) nai = 16;
    for (int i = 0; i < nai; i++) pthread_create(&ai[i], NULL, ai_worker, NULL);
    pthread_create(&timer, NULL, timer_thread, NULL);

    char ports[96], threads[16], queue[16];
    snprintf(ports, sizeof ports, "%s:%d", o->host, o->port);
    snprintf(threads, sizeof threads, "%d", o->threads > 0 ? o->threads : 64);
    snprintf(queue, sizeof queue, "%d", o->threads > 64 ? o->threads : 64);
    const char *copts[] = {"listening_ports", ports, "document_root", o->web, "num_threads", threads,
                           "enable_directory_listing", "no", "listen_backlog", "1024", "connection_queue", queue,
                           "tcp_nodelay", "1", "request_timeout_ms", "10000", "enable_keep_alive", "no",
                           "static_file_max_age", "0", "additional_header", "X-Content-Type-Options: nosniff",
                           NULL};
    struct mg_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.log_message = log_message;
    mg_init_library(MG_FEATURES_WEBSOCKET | MG_FEATURES_FILES);
    struct mg_context *ctx = mg_start(&cb, NULL, copts);
    int rc = 0;
    if (!ctx) {
        err->code = KONTOR_E_IO;
        snprintf(err->msg, sizeof err->msg, "cannot listen on '%s' (port taken, or no permission)", ports);
        rc = 1;
    } else {
        mg_set_request_handler(ctx, "/api/", api_handler, NULL);
        mg_set_websocket_handler(ctx, "/ws", ws_connect, ws_ready, ws_data, ws_close, NULL);
        struct mg_server_port sp[4];
        int np = mg_get_server_ports(ctx, 4, sp);
        int port = np > 0 ? sp[0].port : o->port;
        printf("kontor: serving http://%s:%d/ (db '%s', %d unfinished game%s resumed)\n", o->host, port, o->db,
               resumed, resumed == 1 ? "" : "s");
        fflush(stdout);
        int sig;
        sigwait(&sigs, &sig);
        logf_("stopping on signal %d", sig);
        waker wk;
        snprintf(wk.host, sizeof wk.host, "%s", o->host);
        wk.port = port;
        atomic_init(&wk.done, 0);
        pthread_t wt;
        int have_waker = pthread_create(&wt, NULL, waker_thread, &wk) == 0;
        mg_stop(ctx);
        atomic_store(&wk.done, 1);
        if (have_waker) pthread_join(wt, NULL);
    }
    mg_exit_library();
    pthread_mutex_lock(&S.q_mu);
    S.stop = 1;
    pthread_cond_broadcast(&S.q_cv);
    pthread_mutex_unlock(&S.q_mu);
    for (int i = 0; i < nai; i++) pthread_join(ai[i], NULL);
    pthread_join(timer, NULL);
    for (long i = 0; i < S.nall; i++) free_game(S.all[i]);
    free(S.all);
    free(S.q);
    store_close(S.st);
    return rc;
}
