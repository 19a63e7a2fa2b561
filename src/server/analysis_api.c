/* analysis_api.c: GET /api/games/ID/analysis: the post-game analysis of a
 * finished game for the browser's replay viewer (issue 18).
 *
 * An analysis searches every decision of a game (src/ai/analysis.c): seconds
 * of computer time, so one request must not be able to buy more of it than a
 * move of a game costs, and nothing of it may run on the event loop:
 *  - only a finished game is analysed: while it runs, the analysis would
 *    tell what the record tells (the hidden cards, the choices of this
 *    round) and what the search reads in a seat's position: 409 "running";
 *  - each game is analysed at most once: the result is kept in memory, at
 *    most CACHE_MAX games, the least recently asked for leaving first (not
 *    in the store: a restart analyses again);
 *  - the computer-player workers do the work, one decision at a time, and
 *    only when no game with a person owes a computer move (server.c asks
 *    analysis_api_pending in its queue's wait), taking turns with the games
 *    of computers only; so the analysis waits behind people's games and a
 *    move of one never waits longer than one decision of an analysis;
 *  - the search has a fixed budget a decision (--analysis-iters, and as much
 *    again for a re-search), at most --analyses are under way at once (more
 *    are refused, 503 "busy" with retry_after) and one address may start at
 *    most --analysis-per-min a minute (429 "rate", a token bucket; asking
 *    for one already under way or ready costs nothing);
 *  - until it is ready the answer is 202 {"status":"pending", done, total,
 *    retry_after} and the client asks again.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "ai/analysis.h"
#include "kontor/record.h"
#include "server/analysis_api.h"
#include "server/sjson.h"

/* Games whose analysis is kept (ready ones leave, least recently asked for
 * first, to make room), and addresses whose budget is kept. */
#define CACHE_MAX 96
#define ADDR_MAX 256
#define RETRY_PENDING 2
#define RETRY_BUSY 10
#define WORST 3

enum { A_FREE = 0, A_RUNNING, A_READY, A_FAILED };

typedef struct ajob {
    char id[40];
    int state;
    int busy;          /* a worker is doing its next decision (it alone touches z and an then) */
    char *json;        /* A_READY: the answer; A_FAILED: the error's */
    ai_analyser *z;
    ai_analysis an;
    const kontor_config *cfg; /* held from before z's replay until z and an are gone (intern.c) */
    double touched;
    int done, total;
    char spec[48];
} ajob;

typedef struct abudget {
    char addr[48];
    double tokens, last;
} abudget;

static struct {
    pthread_mutex_t mu;
    ajob job[CACHE_MAX];
    abudget addr[ADDR_MAX];
    server_limits lim;
    void (*wake)(void);
    unsigned rr;
} A = {.mu = PTHREAD_MUTEX_INITIALIZER};

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void answer_json(analysis_answer *a, int status, json_t *o) {
    a->status = status;
    a->body = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (!a->body) {
        a->status = 500;
        a->body = strdup("{\"error\":\"out of memory\"}");
    }
}

static void answer_retry(analysis_answer *a, int status, const char *code, const char *msg, int retry) {
    answer_json(a, status, json_pack("{s:s, s:s, s:i}", "error", msg, "code", code, "retry_after", retry));
    snprintf(a->extra, sizeof a->extra, "Retry-After: %d\r\n", retry);
}

void analysis_api_init(const server_limits *lim, void (*wake)(void)) {
    pthread_mutex_lock(&A.mu);
    A.lim = *lim;
    A.wake = wake;
    pthread_mutex_unlock(&A.mu);
}

static void job_free(ajob *j) {
    free(j->json);
    ai_analyser_end(j->z);
    ai_analysis_release(&j->an);
    kontor_config_release(j->cfg); /* the analysis's last state is gone */
    memset(j, 0, sizeof *j);
}

void analysis_api_shutdown(void) {
    pthread_mutex_lock(&A.mu);
    for (int i = 0; i < CACHE_MAX; i++)
        if (A.job[i].state != A_FREE) job_free(&A.job[i]);
    memset(A.addr, 0, sizeof A.addr);
    pthread_mutex_unlock(&A.mu);
}

static ajob *find(const char *id) {
    for (int i = 0; i < CACHE_MAX; i++)
        if (A.job[i].state != A_FREE && strcmp(A.job[i].id, id) == 0) return &A.job[i];
    return NULL;
}

/* Under A.mu. */
static void answer_of(ajob *j, analysis_answer *a) {
    j->touched = now_s();
    if (j->state == A_READY) {
        a->status = 200;
        a->body = strdup(j->json);
        if (!a->body) answer_json(a, 500, json_pack("{s:s}", "error", "out of memory"));
    } else if (j->state == A_FAILED) {
        answer_json(a, 500, json_pack("{s:s, s:s}", "error", j->json ? j->json : "the analysis failed", "code", "failed"));
    } else {
        json_t *o = json_pack("{s:s, s:i, s:i, s:i}", "status", "pending", "done", j->done, "total", j->total,
                              "retry_after", RETRY_PENDING);
        answer_json(a, 202, o);
        snprintf(a->extra, sizeof a->extra, "Retry-After: %d\r\n", RETRY_PENDING);
    }
}

int analysis_api_cached(const char *id, analysis_answer *a) {
    memset(a, 0, sizeof *a);
    pthread_mutex_lock(&A.mu);
    ajob *j = find(id);
    if (j) answer_of(j, a);
    pthread_mutex_unlock(&A.mu);
    return j != NULL;
}

/* The budget of addr, refilled to now (under A.mu); the oldest entry makes
 * room for a new address. */
static abudget *budget_of(const char *addr, double t) {
    if (!addr) addr = "";
    abudget *b = NULL, *oldest = &A.addr[0];
    for (int i = 0; i < ADDR_MAX && !b; i++) {
        if (A.addr[i].last > 0 && strcmp(A.addr[i].addr, addr) == 0) b = &A.addr[i];
        else if (A.addr[i].last < oldest->last) oldest = &A.addr[i];
    }
    double cap = A.lim.analysis_per_min;
    if (!b) {
        b = oldest;
        snprintf(b->addr, sizeof b->addr, "%s", addr);
        b->tokens = cap;
        b->last = t;
    }
    b->tokens += (t - b->last) * cap / 60.0;
    if (b->tokens > cap) b->tokens = cap;
    b->last = t;
    return b;
}

void analysis_api_start(const char *id, const char *record, const char *addr, analysis_answer *a) {
    memset(a, 0, sizeof *a);
    double t = now_s();
    pthread_mutex_lock(&A.mu);
    ajob *j = find(id);
    if (j) { /* (started meanwhile) */
        answer_of(j, a);
        pthread_mutex_unlock(&A.mu);
        return;
    }
    abudget *b = budget_of(addr, t);
    if (A.lim.analysis_per_min <= 0 || b->tokens < 1) {
        int retry = A.lim.analysis_per_min > 0 ? (int)((1 - b->tokens) * 60.0 / A.lim.analysis_per_min) + 1 : 3600;
        pthread_mutex_unlock(&A.mu);
        char msg[160];
        snprintf(msg, sizeof msg, "too many analyses started from your address: at most %d a minute (--analysis-per-min)",
                 A.lim.analysis_per_min);
        answer_retry(a, 429, "rate", msg, retry);
        return;
    }
    int running = 0;
    ajob *slot = NULL;
    for (int i = 0; i < CACHE_MAX; i++) {
        ajob *x = &A.job[i];
        if (x->state == A_RUNNING) running++;
        else if (x->state == A_FREE) {
            if (!slot || slot->state != A_FREE) slot = x;
        } else if (!slot || (slot->state != A_FREE && x->touched < slot->touched)) slot = x;
    }
    if (running >= A.lim.analyses || !slot) {
        pthread_mutex_unlock(&A.mu);
        char msg[160];
        snprintf(msg, sizeof msg, "the server is analysing %d games already (--analyses): ask again later", running);
        answer_retry(a, 503, "busy", msg, RETRY_BUSY);
        return;
    }
    kontor_record rec;
    kontor_error err;
    if (kontor_record_parse(&rec, record, strlen(record), &err) != KONTOR_OK) {
        pthread_mutex_unlock(&A.mu);
        answer_json(a, 500, json_pack("{s:s}", "error", err.msg));
        return;
    }
    if (slot->state != A_FREE) job_free(slot);
    snprintf(slot->spec, sizeof slot->spec, "ismcts:iters=%d", A.lim.analysis_iters);
    /* the analyser's replay of rec (src/ai/analysis.c) and every state of
     * the analysis borrow this hold of rec's config, until job_free */
    slot->cfg = kontor_config_retain(&rec.cfg, &err);
    slot->z = slot->cfg ? ai_analyser_begin(&rec, slot->spec, 1, (uint64_t)A.lim.analysis_iters, &slot->an, &err) : NULL;
    kontor_record_release(&rec);
    if (!slot->z) {
        kontor_config_release(slot->cfg);
        memset(slot, 0, sizeof *slot);
        pthread_mutex_unlock(&A.mu);
        answer_json(a, 500, json_pack("{s:s}", "error", err.msg));
        return;
    }
    b->tokens -= 1;
    snprintf(slot->id, sizeof slot->id, "%s", id);
    slot->state = A_RUNNING;
    ai_analyser_progress(slot->z, &slot->done, &slot->total);
    answer_of(slot, a);
    void (*wake)(void) = A.wake;
    pthread_mutex_unlock(&A.mu);
    if (wake) wake();
}

int analysis_api_pending(void) {
    int n = 0;
    pthread_mutex_lock(&A.mu);
    for (int i = 0; i < CACHE_MAX && !n; i++) n = A.job[i].state == A_RUNNING && !A.job[i].busy;
    pthread_mutex_unlock(&A.mu);
    return n;
}

static int simultaneous(int phase) {
    return phase == KONTOR_PHASE_CHOOSE || phase == KONTOR_PHASE_DECLARE || phase == KONTOR_PHASE_BUY ||
           phase == KONTOR_PHASE_BRIBE || phase == KONTOR_PHASE_SELECT;
}

/* The finished analysis as the replay viewer reads it (docs/server.md,
 * "Analysis"): plies count from 0, as /view?ply=K does: decision K is taken
 * in the position /view?ply=K shows. */
static char *analysis_json(const char *id, const char *spec, const ai_analysis *an) {
    json_t *ds = json_array();
    for (int i = 0; i < an->n; i++) {
        const ai_decision *d = &an->item[i];
        json_t *ch = json_array();
        for (int k = 0; k < d->nchoice; k++) {
            json_t *m = sj_move(&d->state, d->seat, d->choice[k].move);
            json_object_set_new(m, "value", json_real(d->choice[k].value));
            json_object_set_new(m, "share", json_real(d->share[k]));
            json_array_append_new(ch, m);
        }
        json_array_append_new(
            ds, json_pack("{s:i, s:i, s:i, s:b, s:o, s:o, s:f, s:f, s:f, s:b, s:f, s:o}", "ply", d->ply, "seat",
                          d->seat, "round", d->round, "simultaneous", simultaneous(d->phase), "played",
                          sj_move(&d->state, d->seat, d->played), "best", sj_move(&d->state, d->seat, d->best),
                          "best_value", d->best_value, "played_value", d->played_value, "loss", d->loss,
                          "researched", d->researched, "played_share", d->played_share, "choices", ch));
    }
    json_t *ps = json_array();
    for (int seat = 0; seat < an->nseats; seat++) {
        int n = 0;
        double sum = 0;
        for (int i = 0; i < an->n; i++)
            if (an->item[i].seat == seat) n++, sum += an->item[i].loss;
        int idx[WORST];
        int nw = ai_analysis_worst(an, seat, WORST, idx);
        json_t *w = json_array();
        for (int k = 0; k < nw; k++)
            json_array_append_new(w, json_pack("{s:i, s:f}", "ply", an->item[idx[k]].ply, "loss", an->item[idx[k]].loss));
        json_array_append_new(ps, json_pack("{s:i, s:i, s:f, s:f, s:o}", "seat", seat, "decisions", n, "average_loss",
                                            n ? sum / n : 0.0, "total_loss", sum, "worst", w));
    }
    json_t *o = json_pack("{s:s, s:s, s:s, s:o, s:o}", "game", id, "status", "ready", "agent", spec, "decisions", ds,
                          "players", ps);
    char *t = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(4)) : NULL;
    json_decref(o);
    return t;
}

void analysis_api_work(void) {
    pthread_mutex_lock(&A.mu);
    ajob *j = NULL;
    for (int k = 0; k < CACHE_MAX && !j; k++) {
        ajob *x = &A.job[(A.rr + (unsigned)k) % CACHE_MAX];
        if (x->state == A_RUNNING && !x->busy) j = x;
    }
    if (!j) {
        pthread_mutex_unlock(&A.mu);
        return;
    }
    A.rr = (unsigned)(j - A.job) + 1; /* the next call takes the next analysis: they take turns */
    j->busy = 1;
    pthread_mutex_unlock(&A.mu);

    kontor_error err;
    int rc = ai_analyser_step(j->z, &j->an, &err);
    char *json = NULL;
    if (rc == 1) json = analysis_json(j->id, j->spec, &j->an);

    pthread_mutex_lock(&A.mu);
    ai_analyser_progress(j->z, &j->done, &j->total);
    if (rc != 0) {
        ai_analyser_end(j->z);
        j->z = NULL;
        ai_analysis_release(&j->an);
        if (rc == 1 && json) {
            j->state = A_READY;
            j->json = json;
        } else {
            free(json);
            j->state = A_FAILED;
            j->json = strdup(rc < 0 ? err.msg : "out of memory");
        }
    }
    j->busy = 0;
    pthread_mutex_unlock(&A.mu);
}
