/* registry.c: the server's games by id, and what every other file needs of a game: ids, names, meta, events, save.
 *
 * The bottom of the server's files (sgame.h lists them): a hash table of
 * the games in memory under S.reg_mu, with a list of them all for the
 * housekeeping that walks them (snapshot() copies it, so nobody walks it
 * under the lock); the random ids and tokens; the checks of ids and names
 * that outside input goes through; and a game's stored form (its meta JSON,
 * saved with its record in one transaction).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "server/sgame.h"

server_state S;

double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((format(printf, 1, 2))) void logf_(const char *fmt, ...) {
    if (S.quiet) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("kontor serve: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void random_hex(char *out, int n) {
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

uint64_t random_u64(void) {
    char hex[17];
    random_hex(hex, 16);
    return strtoull(hex, NULL, 16);
}

int valid_id(const char *id) {
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
const char *level_spec(const char *level) {
    if (strcmp(level, "medium") == 0) return "ismcts:iters=1500";
    if (strcmp(level, "hard") == 0) return "ismcts:iters=5000";
    return level; /* "random", "easy" */
}
int is_level(const char *k) {
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

sgame *find_game(const char *id) {
    pthread_mutex_lock(&S.reg_mu);
    sgame *g = S.bucket[hash_id(id)];
    while (g && strcmp(g->id, id) != 0) g = g->hnext;
    pthread_mutex_unlock(&S.reg_mu);
    return g;
}

/* g by id, kept in memory (pinned) until unpin(): for the node-sync
 * thread, which is not the loop's. */
sgame *find_pinned(const char *id) {
    pthread_mutex_lock(&S.reg_mu);
    sgame *g = S.bucket[hash_id(id)];
    while (g && strcmp(g->id, id) != 0) g = g->hnext;
    if (g) g->pins++;
    pthread_mutex_unlock(&S.reg_mu);
    return g;
}

void unpin(sgame *g) {
    pthread_mutex_lock(&S.reg_mu);
    g->pins--;
    pthread_mutex_unlock(&S.reg_mu);
}

/* Register g; returns g, or the game already registered under its id (then
 * g is not registered), or NULL out of memory. */
sgame *register_game(sgame *g) {
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
sgame **snapshot(long *n) {
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

void free_game(sgame *g) {
    if (!g) return;
    for (int i = 0; i < KONTOR_MAX_SEATS; i++) kontor_agent_free(g->seat[i].agent);
    kontor_config_release(g->cfg); /* the last of its states went with its agents */
    kontor_record_release(&g->rec);
    chat_room_free(g->chat);
    free(g->meta);
    free(g->ev);
    pthread_mutex_destroy(&g->mu);
    free(g);
}


char *make_meta(const sgame *g) {
    json_t *seats = json_array();
    for (int i = 0; i < g->s.cfg->nseats; i++)
        json_array_append_new(seats, json_pack("{s:s, s:s, s:b, s:s}", "kind", g->seat[i].kind, "token", g->seat[i].token,
                                               "claimed", g->seat[i].claimed, "player", g->seat[i].player));
    json_t *m = json_pack("{s:o, s:i, s:I, s:I, s:b, s:b, s:i}", "seats", seats, "timeout", g->timeout_s, "seed",
                          (json_int_t)g->seed, "ai_seed", (json_int_t)g->ai_seed, "listed", g->listed, "takeback",
                          g->takeback, "takebacks", g->takebacks);
    char *t = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    return t;
}

int push_events(sgame *g, const kontor_log *log) {
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


/* Save g (record and meta) in one transaction. Call with g->mu held. */
kontor_status save_game(sgame *g, kontor_error *err) {
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

/* A player's name: 1..PLAYER_NAME_MAX bytes (jansson has checked the
 * UTF-8), no control characters, not only spaces. Clients show it as text. */
int player_name_ok(const char *n) {
    size_t len = strlen(n);
    if (len == 0 || len > PLAYER_NAME_MAX) return 0;
    int visible = 0;
    for (const unsigned char *p = (const unsigned char *)n; *p; p++) {
        if (*p < 0x20 || *p == 0x7f) return 0;
        if (*p != ' ') visible = 1;
    }
    return visible;
}

/* Take g out of the registry (loop thread); 0 (and g stays) while the
 * node-sync thread holds it. */
int unregister_game(sgame *g) {
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

/* A running game left memory idle: the lobby keeps listing it from sum
 * (its summary, taken), until it comes back (away_forget). */
void away_add(json_t *sum) {
    if (!sum) return;
    pthread_mutex_lock(&S.reg_mu);
    if (S.naway == AWAY_MAX) {
        json_decref(S.away[0]);
        memmove(S.away, S.away + 1, (size_t)(AWAY_MAX - 1) * sizeof *S.away);
        S.naway--;
    }
    S.away[S.naway++] = sum;
    pthread_mutex_unlock(&S.reg_mu);
}

void away_forget(const char *id) {
    pthread_mutex_lock(&S.reg_mu);
    for (int i = 0; i < S.naway; i++)
        if (strcmp(json_string_value(json_object_get(S.away[i], "id")), id) == 0) {
            json_decref(S.away[i]);
            memmove(S.away + i, S.away + i + 1, (size_t)(S.naway - i - 1) * sizeof *S.away);
            S.naway--;
            break;
        }
    pthread_mutex_unlock(&S.reg_mu);
}

/* The games away, newest first, as a new array of copies. */
json_t *away_list(void) {
    json_t *a = json_array();
    pthread_mutex_lock(&S.reg_mu);
    for (int i = S.naway - 1; i >= 0; i--) json_array_append_new(a, json_deep_copy(S.away[i]));
    pthread_mutex_unlock(&S.reg_mu);
    return a;
}
