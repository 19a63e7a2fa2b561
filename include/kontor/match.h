/* match.h: the game driver: one game between agents, decision by decision.
 *
 * Every client that plays a game (kontor arena, the terminal client, the
 * engine protocol, the server) runs it through this one loop, so the rules of
 * the table are in one place: a seat decides only when kontor_actors says it
 * owes a decision, sees only its view, and an agent that gives up
 * (KONTOR_FORFEIT) or answers with an illegal decision loses the game on the
 * spot with the reason written down. The driver keeps no state of its own
 * between calls and allocates nothing (the record it may fill grows itself).
 */
#ifndef KONTOR_MATCH_H
#define KONTOR_MATCH_H

#include "kontor/agent.h"
#include "kontor/record.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kontor_match_result {
    int winner;        /* team that won, or -1 for a draw */
    int forfeit;       /* seat that forfeited (lost by failure), or -1 */
    int score[2];      /* points per team (as far as the game went) */
    int rounds;        /* rounds played */
    uint64_t decisions;                        /* decisions applied */
    uint64_t seat_decisions[KONTOR_MAX_SEATS]; /* ... per seat */
    double seconds[KONTOR_MAX_SEATS];          /* thinking time per seat */
    int nseats;        /* seats in the game (2, or 4 in two teams) */
    char reason[256];  /* why the game ended early, in words, or "" */
} kontor_match_result;

/* Called after every decision with the new state (full information: for a
 * UI or a log, not for an agent), the seat that decided, its decision and
 * the events it caused. */
typedef void (*kontor_match_cb)(void *ctx, const kontor_state *s, int seat, kontor_move m,
                                const kontor_log *log);

/* Play s (a dealt game, or one under way) to its end with agents[seat]
 * deciding for each seat (the same agent may sit in several seats). Each
 * agent's newgame (if set) is called first with its seat's view, its
 * observe (if set) after every decision with its new view and the events.
 * If rec is not NULL every decision is appended and at the end its result
 * (and termination, for a forfeit) is set; rec must have been started with
 * kontor_record_init for the game's deal (and hold the decisions that led to
 * s, if any). each may be NULL. On return s is the final state and res (if
 * not NULL) says how it went. Returns KONTOR_OK, or KONTOR_E_RANGE when the
 * record could not grow (the game is then abandoned where it stood). */
kontor_status kontor_match_play(kontor_state *s, kontor_agent *const agents[], kontor_record *rec,
                                kontor_match_cb each, void *ctx, kontor_match_result *res);

/* ---- tournaments: the table of results and Elo ------------------------------ */

#define KONTOR_ARENA_MAX 16 /* agents in one tournament */

/* Results of one agent against another, from the first one's side. */
typedef struct kontor_arena_pair {
    int games, wins, draws, losses;
    long diff; /* sum over the games of (own points - opponent's points) */
} kontor_arena_pair;

typedef struct kontor_arena_table {
    int n;
    kontor_arena_pair p[KONTOR_ARENA_MAX][KONTOR_ARENA_MAX]; /* p[a][b]: a against b */
    uint64_t decisions[KONTOR_ARENA_MAX]; /* decisions taken by each agent */
    double seconds[KONTOR_ARENA_MAX];     /* thinking time of each agent */
    int forfeits[KONTOR_ARENA_MAX];       /* games lost by failure */
    uint64_t iters[KONTOR_ARENA_MAX];     /* search iterations (playouts), ismcts only */
    double search_seconds[KONTOR_ARENA_MAX]; /* time those took */
} kontor_arena_table;

void kontor_arena_init(kontor_arena_table *t, int n);
/* Add one game of agent a (in seat seat_a) against agent b (the other seat). */
void kontor_arena_add(kontor_arena_table *t, int a, int b, int seat_a, const kontor_match_result *r);

/* Elo ratings of the table's agents by maximum likelihood (Bradley-Terry with
 * the Elo scale: P(a beats b) = 1 / (1 + 10^((Rb - Ra) / 400)), a draw is half
 * a win), centred on a mean of 0, with the standard error of each rating from
 * the curvature of the likelihood (95% interval: +-1.96 se). One drawn game is
 * added to every pair that played, so that a clean sweep still has a finite
 * rating. Agents that played nobody get 0 and se 0. Returns 0, or -1 when the
 * fit does not converge. */
int kontor_elo(const kontor_arena_table *t, double elo[], double se[]);
/* The Elo difference that a score fraction s (0 < s < 1) means. */
double kontor_elo_of_score(double s);

/* A round-robin tournament on paired deals: every pair of agents plays
 * `games` games (rounded up to even), deal d (seed + d) once with each agent
 * in each seat, so the luck of the deal cancels. Agents are created fresh
 * for every game from their spec with a seed derived from seed, the game and
 * the seat, so every game can be replayed alone, and `jobs` games run in
 * parallel threads without changing any result. */
typedef kontor_agent *(*kontor_agent_factory)(void *ctx, const char *spec, uint64_t seed, kontor_error *err);
typedef struct kontor_arena_game {
    int index;       /* 0-based, in schedule order */
    int a, b;        /* agent indices: a sits in seat `seat_a` */
    int seat_a;
    uint64_t deal_seed;
    kontor_match_result result;
    uint64_t iters[2];          /* search iterations of the agent of each team (seat in a two-player game) */
    double search_seconds[2];
} kontor_arena_game;
typedef struct kontor_arena_opts {
    const kontor_config *cfg;
    const char *const *specs; /* n agent specs */
    int n;
    int games;                /* per pair */
    uint64_t seed;
    int jobs;                 /* games in parallel (>= 1) */
    kontor_agent_factory factory; /* NULL: kontor_agent_new */
    void *factory_ctx;
    /* Optional, called once per finished game (from worker threads, one at a
     * time): progress and, if records is set, the game's record. */
    void (*done)(void *ctx, const kontor_arena_game *g, const kontor_record *rec, int finished, int total);
    void *done_ctx;
    int records;              /* build a record of each game for done */
    /* Optional: a game played before (a resumed tournament). If it returns 1
     * for game g, g is not played: *r is its result (thinking time and
     * decisions 0) and done is called with no record. */
    int (*known)(void *ctx, const kontor_arena_game *g, kontor_match_result *r);
    void *known_ctx;
} kontor_arena_opts;

/* Run the tournament into t (initialised here). Returns KONTOR_OK, or an
 * error (an agent spec that does not build, out of memory) in err. */
kontor_status kontor_arena_run(const kontor_arena_opts *o, kontor_arena_table *t, kontor_error *err);

#ifdef __cplusplus
}
#endif
#endif
