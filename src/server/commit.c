/* commit.c: decisions stored off the event loop: one writer thread commits everything pending as one transaction.
 *
 * A decision is applied in memory under its game's mutex (apply.c) and
 * queued here; the writer thread takes every write queued so far and
 * stores them in one transaction (store_write_batch: group commit), so the
 * loop never waits on the disk, and many decisions share one commit. When
 * the commit returns, the loop (woken through the transport) finishes each
 * game of the batch: once none of a game's writes is still on its way, its
 * connections get the new state, the acknowledgements of the decisions in
 * it included, and its computer seats are scheduled. So a decision is
 * acknowledged and shown to anyone only once it is stored, and in the
 * order of its game: a game's later decision, applied in memory while an
 * earlier one was being stored, is told together with it or after it.
 *
 * A failed commit: every game in the batch goes back to its last stored
 * decision (its record is rebuilt without the rest, as a takeback does,
 * and its writes still queued are dropped, never stored after a gap); its
 * connections get a "takeback" message (seat -1, "reason":"store", their
 * events come again from the start), the movers an error with their move's
 * "id", and every one its state. Nothing unstored was ever told.
 *
 * The rarer whole saves (a game created, a seat claimed, a rematch, a
 * takeback) are made at once by their caller (the loop) when none of the
 * game's writes is on its way, as before; otherwise they go through the
 * same queue, so that they are stored in order behind them, and their caller
 * waits for them (commit_save_wait). A game's end (its record with the
 * result) is queued like a decision.
 * Without the writer (a shared store, PostgreSQL: each node's decision is
 * stored under the game's row lock before anyone is told; or the fuzzer,
 * which runs no loop) everything stays synchronous (apply.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sgame.h"
#include "server/takeback.h"

typedef struct cjob {
    struct cjob *next;
    sgame *g;
    int nply;            /* the game's decisions once this is stored */
    unsigned seq;        /* g->wseq when queued */
    int ply, seat, move; /* a decision (record NULL) */
    int over;            /* a whole save (record not NULL) */
    char *meta, *record;
    int wait, done;      /* a caller waits (commit_save_wait); it was stored or failed */
    kontor_status st;
    kontor_error err;
} cjob;

static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv, done_cv;
    cjob *head, **tail;  /* queued */
    cjob *done, **dtail; /* stored (or failed), for the loop */
    int running, stopping;
    pthread_t th;
    void (*wake)(void);
} C;

int commit_async(void) { return C.running; }

static void job_free(cjob *j) {
    free(j->meta);
    free(j->record);
    free(j);
}

static void *writer(void *arg) {
    (void)arg;
    store_write *w = NULL;
    long cap = 0;
    pthread_mutex_lock(&C.mu);
    for (;;) {
        while (!C.head && !C.stopping) pthread_cond_wait(&C.cv, &C.mu);
        if (!C.head) break;
        cjob *batch = C.head;
        C.head = NULL;
        C.tail = &C.head;
        long n = 0;
        for (cjob *j = batch; j; j = j->next) n++;
        if (n > cap) {
            store_write *more = realloc(w, (size_t)n * sizeof *w);
            if (more) {
                w = more;
                cap = n;
            }
        }
        /* a game whose earlier write failed stores nothing more until the
         * loop has put it back (cbroken: under C.mu) */
        long k = 0;
        for (cjob *j = batch; j; j = j->next) {
            j->st = KONTOR_OK;
            if (j->g->cbroken || n > cap) {
                j->st = KONTOR_E_IO;
                snprintf(j->err.msg, sizeof j->err.msg, "game '%s': %s", j->g->id,
                         n > cap ? "out of memory" : "an earlier decision of the game was not stored");
                continue;
            }
            w[k++] = (store_write){j->g->id, j->ply, j->seat, j->move, j->over, j->meta, j->record};
        }
        pthread_mutex_unlock(&C.mu);
        kontor_error err = {0};
        kontor_status st = k ? store_write_batch(S.st, w, k, &err) : KONTOR_OK;
        pthread_mutex_lock(&C.mu);
        for (cjob *j = batch, *next; j; j = next) {
            next = j->next;
            if (j->st == KONTOR_OK && st != KONTOR_OK) {
                j->st = st;
                j->err = err;
            }
            if (j->st != KONTOR_OK) j->g->cbroken = 1;
            if (j->wait) {
                j->done = 1;
            } else {
                j->next = NULL;
                *C.dtail = j;
                C.dtail = &j->next;
            }
        }
        pthread_cond_broadcast(&C.done_cv);
        pthread_mutex_unlock(&C.mu);
        if (C.wake) C.wake();
        pthread_mutex_lock(&C.mu);
    }
    pthread_mutex_unlock(&C.mu);
    free(w);
    return NULL;
}

int commit_start(void (*wake)(void)) {
    pthread_mutex_init(&C.mu, NULL);
    pthread_cond_init(&C.cv, NULL);
    pthread_cond_init(&C.done_cv, NULL);
    C.head = C.done = NULL;
    C.tail = &C.head;
    C.dtail = &C.done;
    C.stopping = 0;
    C.wake = wake;
    if (pthread_create(&C.th, NULL, writer, NULL) != 0) return -1;
    C.running = 1;
    return 0;
}

void commit_stop(void) {
    if (!C.running) return;
    pthread_mutex_lock(&C.mu);
    C.stopping = 1;
    pthread_cond_signal(&C.cv);
    pthread_mutex_unlock(&C.mu);
    pthread_join(C.th, NULL); /* (it stores what is queued first) */
    C.running = 0;
    for (cjob *j = C.done, *next; j; j = next) {
        next = j->next;
        job_free(j);
    }
    C.done = NULL;
    pthread_mutex_destroy(&C.mu);
    pthread_cond_destroy(&C.cv);
    pthread_cond_destroy(&C.done_cv);
}

/* g->mu held (or g not yet registered). */
static void enqueue(cjob *j) {
    j->seq = ++j->g->wseq;
    pthread_mutex_lock(&C.mu);
    *C.tail = j;
    C.tail = &j->next;
    pthread_cond_signal(&C.cv);
    pthread_mutex_unlock(&C.mu);
}

int commit_ply(sgame *g, int ply, int seat, int move) {
    if (!C.running) return -1;
    cjob *j = calloc(1, sizeof *j);
    if (!j) return -1;
    j->g = g;
    j->nply = ply + 1;
    j->ply = ply;
    j->seat = seat;
    j->move = move;
    g->commits++;
    enqueue(j);
    return 0;
}

/* A whole save of g (the record text and meta as of now); g->mu held. */
static cjob *save_job(sgame *g, const char *record, kontor_error *err) {
    cjob *j = calloc(1, sizeof *j);
    size_t lm = strlen(g->meta), lr = strlen(record);
    if (j) {
        j->meta = malloc(lm + 1);
        j->record = malloc(lr + 1);
    }
    if (!j || !j->meta || !j->record) {
        if (j) job_free(j);
        snprintf(err->msg, sizeof err->msg, "game '%s': out of memory", g->id);
        return NULL;
    }
    memcpy(j->meta, g->meta, lm + 1);
    memcpy(j->record, record, lr + 1);
    j->g = g;
    j->nply = g->rec.nply;
    j->over = kontor_over(&g->s);
    return j;
}

static kontor_status commit_save(sgame *g, const char *record, kontor_error *err) {
    cjob *j = save_job(g, record, err);
    if (!j) return err->code = KONTOR_E_IO;
    g->commits++;
    enqueue(j);
    return KONTOR_OK;
}

static kontor_status commit_save_wait(sgame *g, const char *record, kontor_error *err) {
    cjob *j = save_job(g, record, err);
    if (!j) return err->code = KONTOR_E_IO;
    j->wait = 1;
    enqueue(j);
    pthread_mutex_lock(&C.mu);
    while (!j->done) pthread_cond_wait(&C.done_cv, &C.mu);
    pthread_mutex_unlock(&C.mu);
    kontor_status st = j->st;
    if (st == KONTOR_OK) {
        g->durable = j->nply; /* (every earlier write of g is stored too) */
        g->dseq = j->seq;
    } else {
        *err = j->err;
        /* the caller puts g back itself; writes of g still on their way
         * are rewound by commit_finish, which lets g store again */
        pthread_mutex_lock(&C.mu);
        if (g->commits == 0) g->cbroken = 0;
        pthread_mutex_unlock(&C.mu);
    }
    job_free(j);
    return st;
}

/* g's record text with its result, malloc'd; NULL with err filled. */
static char *record_text(sgame *g, kontor_error *err) {
    char *text = NULL;
    size_t len = 0;
    kontor_record_set_result(&g->rec, &g->s);
    if (kontor_record_write(&g->rec, &text, &len) != KONTOR_OK) {
        snprintf(err->msg, sizeof err->msg, "game '%s': cannot write its record", g->id);
        err->code = KONTOR_E_IO;
        return NULL;
    }
    return text;
}

kontor_status save_game(sgame *g, kontor_error *err) {
    char *text = record_text(g, err);
    if (!text) return err->code;
    /* none of g's writes on their way (a new game, a seat claimed at the
     * start, most takebacks): stored at once by this thread, the loop (a
     * handoff to the writer costs two wakeups, 25 ms each under load: 10,000
     * claims took longer than the join timeout); else in order behind them */
    kontor_status st = C.running && g->commits > 0 ? commit_save_wait(g, text, err)
                                                   : store_save(S.st, g->id, kontor_over(&g->s), g->meta, text, err);
    if (st == KONTOR_OK && (!C.running || g->commits == 0)) {
        g->durable = g->rec.nply;
        g->dseq = g->wseq;
    }
    free(text);
    return st;
}

kontor_status save_game_queued(sgame *g, kontor_error *err) {
    if (!C.running) return save_game(g, err);
    char *text = record_text(g, err);
    if (!text) return err->code;
    kontor_status st = commit_save(g, text, err);
    free(text);
    return st;
}

/* A failed write: g back to its last stored decision, everyone told. g->mu
 * held, none of g's writes on their way. */
static void rewind_game(sgame *g, const char *why) {
    int to = g->durable;
    kontor_state *ns = malloc(sizeof *ns);
    kontor_event *ev = NULL;
    long nev = 0;
    kontor_error err = {0};
    if (!ns || takeback_rebuild(&g->rec, to, ns, &ev, &nev, &err) != KONTOR_OK) {
        /* the store keeps decision to; memory runs ahead of it: say so */
        logf_("game '%s': decisions after %d were not stored, and it cannot be rebuilt: %s", g->id, to,
              ns ? err.msg : "out of memory");
        free(ns);
        return;
    }
    logf_("game '%s': decisions %d to %d were not stored (%s); back to decision %d", g->id, to + 1, g->rec.nply, why,
          to);
    g->s = *ns;
    free(ns);
    g->rec.nply = to;
    kontor_record_set_result(&g->rec, &g->s);
    free(g->ev);
    g->ev = ev;
    g->nev = g->evcap = nev;
    g->epoch++; /* a computer thinking now about the lost position is ignored */
    g->timing_seat = 0;
    json_t *tb = json_pack("{s:s, s:i, s:i, s:i, s:s}", "type", "takeback", "seat", -1, "ply", to, "takebacks",
                           g->takebacks, "reason", "store");
    char *t = json_dumps(tb, JSON_COMPACT);
    json_decref(tb);
    for (wsconn *w = g->conns; w; w = w->next) {
        if (t) send_text(w, t);
        w->sent = 0;
        if (w->has_ack) {
            json_t *e = json_pack("{s:s, s:s, s:s, s:I}", "type", "error", "code", "server", "error", why, "id",
                                  w->ack);
            send_json(w, e);
            w->has_ack = 0;
        }
    }
    free(t);
    update_deadline(g);
    pthread_mutex_lock(&C.mu);
    g->cbroken = 0;
    pthread_mutex_unlock(&C.mu);
}

void commit_finish(void) {
    if (!C.running) return;
    pthread_mutex_lock(&C.mu);
    cjob *list = C.done;
    C.done = NULL;
    C.dtail = &C.done;
    pthread_mutex_unlock(&C.mu);
    for (cjob *j = list, *next; j; j = next) {
        next = j->next;
        sgame *g = j->g;
        pthread_mutex_lock(&g->mu);
        g->commits--;
        if (j->st == KONTOR_OK) {
            /* (a whole save waited for since, a takeback's, knows better) */
            if (j->seq > g->dseq) {
                g->durable = j->nply;
                g->dseq = j->seq;
            }
        } else if (!g->cfailed) {
            g->cfailed = 1;
            memcpy(g->cwhy, j->err.msg, sizeof g->cwhy);
            g->cwhy[sizeof g->cwhy - 1] = 0;
        }
        if (g->commits == 0) {
            if (g->cfailed) {
                rewind_game(g, g->cwhy);
                g->cfailed = 0;
            }
            for (wsconn *w = g->conns; w; w = w->next)
                if (w->has_ack && S.decided) S.decided(w->tx); /* its acknowledgement is queued now: time it */
            broadcast(g);
            g->timing_seat = 0;
            schedule_ai(g);
            if (S.resume) S.resume(g); /* (moves that came meanwhile, judged on what was told) */
        }
        pthread_mutex_unlock(&g->mu);
        job_free(j);
    }
}
