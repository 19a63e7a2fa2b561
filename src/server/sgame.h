/* sgame.h: the game server's inside, shared by its files (not a public header).
 *
 * server.c was one file of 2,000 lines; it is split by concept, and this
 * header holds what those files share: a game in memory (sgame), a
 * WebSocket client of the server (wsconn), the server's state S, and the
 * functions one file offers the others. The files depend on each other one
 * way, bottom to top (a file calls only those above it in this list):
 *
 *   registry.c   ids, names, the game table, a game's meta, events and save
 *   views.c      the messages a connection is sent: its state, broadcasts
 *   aiqueue.c    the queues of games owing a computer move
 *   apply.c      the one way a game changes (apply_decision), timeouts, catching up from other nodes
 *   games.c      a game's life: created, loaded from the store, leaving memory
 *   aiplayer.c   the computer's threads; several nodes' leases
 *   game_chat.c  a game's chat and takebacks (chat.c and takeback.c, which need no game, decide)
 *   session.c    a WebSocket connection's messages (join, watch, move)
 *   api.c        the HTTP API under /api/
 *   server.c     start, stop, the tick, and the transport's callbacks
 *
 * analysis_api.c (GET /api/games/ID/analysis) stands beside them, on its
 * own: it knows nothing of sgame or S; aiplayer.c, api.c and server.c call
 * it (analysis_api.h) and it calls back only the wake function server.c
 * gives it.
 *
 * server.c's opening comment says how the threads share the games.
 */
#ifndef KONTOR_SERVER_SGAME_H
#define KONTOR_SERVER_SGAME_H

#include <pthread.h>
#include <stdint.h>

#include <jansson.h>

#include "kontor/agent.h"
#include "kontor/kontor.h"
#include "kontor/record.h"
#include "server/chat.h"
#include "server/jtext.h"
#include "server/limits.h"
#include "server/store.h"

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
    chat_rate chat;  /* its recent chat messages (chat.h, --chat-burst) */
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
    /* the config g->s (and every view, copy and search of it) points at:
     * held (kontor_config_retain) from before the deal until free_game, after
     * its agents are freed; so the process's entry of it is never reused
     * while the game is in memory (src/core/intern.c) */
    const kontor_config *cfg;
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
    chat_room *chat;   /* its last chat messages (chat.h), made on the first one; memory only */
    int takeback;      /* its one person may take decisions back (takeback.h); stored in the meta */
    int takebacks;     /* how many were taken back (the record's Event tag says it too) */
    unsigned epoch, agent_epoch; /* a takeback moves epoch on: a computer's move thought before it is dropped */
    sgame *hnext;      /* hash chain */
};

/* The lobby's list of running games that left memory while idle (nobody
 * connected): the newest this many, so that it stays bounded however many
 * are abandoned; the lobby shows at most 50 of each kind anyway. */
#define AWAY_MAX 128

/* A queue of games owing a computer move (a ring). */
typedef struct gqueue {
    sgame **q;
    long head, n, cap;
} gqueue;

/* The server's state: one for the process (server_init fills it). */
typedef struct server_state {
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
    void (*decided)(void *tx); /* the transport: a decision of this connection was applied (latency.h) */
    /* 1 only in the test build build/tests/kontor-leaky (compiled with
     * -DKONTOR_TEST_LEAKY, Makefile): serve the whole record of a running
     * game and the last decision of /view as before issue 13, and the analysis
     * of a running game, so that
     * tests/test_leak.c proves it catches them. build/kontor never leaks. */
    int leaky;
    /* several nodes on one database (a shared store, PostgreSQL): this
     * node's name for its computer-seat leases (docs/server.md) */
    int shared;
    char node[17];
    /* running games that left memory idle (games.c), as the lobby lists
     * them, newest last: at most AWAY_MAX, loop thread, under reg_mu */
    json_t *away[AWAY_MAX];
    int naway;
} server_state;
extern server_state S;

/* How long a node's lease on a game's computer seats lasts; renewed every
 * second, so a node that died hands them over within this. */
#define LEASE_MS 3000

/* registry.c */
double now_s(void);
__attribute__((format(printf, 1, 2))) void logf_(const char *fmt, ...);
void random_hex(char *out, int n);
uint64_t random_u64(void);
int valid_id(const char *id);
const char *level_spec(const char *level);
int is_level(const char *k);
int player_name_ok(const char *n);
sgame *find_game(const char *id);
sgame *find_pinned(const char *id);
void unpin(sgame *g);
sgame *register_game(sgame *g);
int unregister_game(sgame *g);
void away_add(json_t *sum);
void away_forget(const char *id);
json_t *away_list(void);
sgame **snapshot(long *n);
void free_game(sgame *g);
char *make_meta(const sgame *g);
int push_events(sgame *g, const kontor_log *log);
kontor_status save_game(sgame *g, kontor_error *err);

/* views.c */
void send_text(wsconn *c, const char *text);
void send_json(wsconn *c, json_t *o);
void send_error(wsconn *c, const char *code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
json_t *seats_info(const sgame *g);
/* The state message of w (its seat's view, legal decisions, new events, ...)
 * into t, written directly; now: the broadcast's now_s(). Marks w's events
 * sent and its ack told; g->mu held. 0, or -1 out of memory. */
int state_text(sgame *g, wsconn *w, jtext *t, double now);
/* The welcome message of a connection to seat of g (-1: a spectator), with
 * the card set; takeback: its person may take decisions back. 0, or -1. */
int welcome_text(const sgame *g, int seat, int takeback, jtext *t);
void send_welcome(wsconn *w, const sgame *g, int takeback);
json_t *summary(sgame *g);
void broadcast(sgame *g);
void views_thread_done(void);

/* aiqueue.c */
void schedule_ai(sgame *g);
sgame *gq_pop(gqueue *q);

/* apply.c */
void update_deadline(sgame *g);
kontor_status apply_decision(sgame *g, int seat, kontor_move m, kontor_error *err);
void catch_up(sgame *g);
void on_node_change(const char *id, int nply, int saved);
void play_timeouts(void);

/* games.c */
int bots_running(void);
/* takeback: 1/0 its one person may take back, -1 the default (on against the computer) */
sgame *create_game(const char *variant, const char *options, json_t *seats, int timeout_s, int listed, int takeback,
                   kontor_error *err);
int load_one(void *ctx, const char *id, int over, const char *meta, const char *record);
sgame *get_game(const char *id);
void evict_games(void);

/* game_chat.c: the chat and takebacks of a game in memory (chat.c and takeback.c decide) */
int people_of(const sgame *g);
int takeback_allowed(const sgame *g);
void chat_post(wsconn *w, json_t *msg);
void chat_welcome(wsconn *w, sgame *g);
int game_takeback(sgame *g, const char *token, json_t **answer);

/* aiplayer.c */
void *ai_worker(void *arg);
void leases_tick(void);

#endif
