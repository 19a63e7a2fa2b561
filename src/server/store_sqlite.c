/* store_sqlite.c: the SQLite backend of store.h: a row a game plus an append-only table of decisions, WAL.
 *
 * A game's row holds its whole record (a plain record that `kontor replay`
 * reads) as of its last full save: creation, a seat claimed, the end. Each
 * decision in between is one small row of `plies` (game, ply, seat, move),
 * inserted in a transaction of its own, so a decision costs a page or two of
 * WAL instead of rewriting a record of several kilobytes and its overflow
 * pages. A full save deletes the game's plies in the same transaction, so the
 * row plus the plies after it is always the game as of the last acknowledged
 * decision; readers (store_load, store_get) get it back as one record text.
 * WAL with synchronous=NORMAL makes each commit durable against the death of
 * the process (SIGKILL, crash) without an fsync per decision; a power failure
 * can lose the last commits (the SQLite documentation, "WAL mode":
 * synchronous=FULL would cost an fsync per decision). Checkpoints (copying
 * the WAL into the database file, with its fsyncs) run on a thread of their
 * own with a second connection instead of inside whichever decision's commit
 * crosses SQLite's automatic threshold, so no decision waits for them. One
 * writing connection is shared behind a mutex: SQLite serializes writers
 * anyway, and statements are prepared once.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "server/store_backend.h"

/* How often the checkpoint thread copies the WAL into the database, and the
 * WAL size (frames of 4 KiB: 4 MiB) past which it makes the next commit
 * start the WAL file over (see ckpt_thread). Each start-over makes the
 * writers wait a few milliseconds (9.5 ms median at 10,000 players on an
 * idle machine); a threshold of 16 MiB made them four times rarer but longer
 * and the tail worse (docs/server.md). The file is reused from its start
 * (overwriting is cheaper than appending), journal_size_limit (64 MiB) cuts
 * it back should it ever pass that, and a WAL without a commit for a tick is
 * truncated to nothing: the WAL reached 70.7 MB after 60k decisions when only
 * a RESTART at 64 MiB reset it and only the shutdown truncated it. */
#define CKPT_MS 250
#define CKPT_RESET_FRAMES 1024
/* Frames left to copy below which the last catch-up is done with the
 * writers' mutex held. */
#define CKPT_REST_FRAMES 64

typedef struct sq_store {
    store base; /* first: the ops */
    sqlite3 *db, *ckdb;
    pthread_mutex_t mu;
    sqlite3_stmt *save, *load_all, *load_open, *recent, *get, *add_ply, *del_plies, *plies, *begin, *commit,
        *rollback;
    pthread_t ckpt;
    int ckpt_running;
    pthread_mutex_t ck_mu;
    pthread_cond_t ck_cv;
    int stopping, kicked;
    int trace; /* KONTOR_CKPT_TRACE set: each reset's wait on stderr (docs/server.md) */
    unsigned long commits; /* commits of the writing connection (wal_hook; st->mu) */
} sq_store;

static kontor_status db_fail(kontor_error *err, sqlite3 *db, const char *what) {
    if (err) {
        err->code = KONTOR_E_IO;
        err->line = err->round = 0;
        snprintf(err->msg, sizeof err->msg, "store: %s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
    }
    return KONTOR_E_IO;
}

static const char *schema =
    "PRAGMA journal_mode=WAL;"
    "PRAGMA synchronous=NORMAL;"
    "CREATE TABLE IF NOT EXISTS games ("
    "  id TEXT PRIMARY KEY,"
    "  over INTEGER NOT NULL,"
    "  meta TEXT NOT NULL,"
    "  record TEXT NOT NULL,"
    "  created INTEGER NOT NULL DEFAULT (strftime('%s','now')),"
    "  updated INTEGER NOT NULL DEFAULT (strftime('%s','now')));"
    "CREATE INDEX IF NOT EXISTS games_over ON games(over, updated);"
    "CREATE TABLE IF NOT EXISTS plies ("
    "  game TEXT NOT NULL,"
    "  ply INTEGER NOT NULL,"
    "  seat INTEGER NOT NULL,"
    "  move INTEGER NOT NULL,"
    "  PRIMARY KEY(game, ply)) WITHOUT ROWID;"
    "PRAGMA wal_autocheckpoint=0;"
    "PRAGMA journal_size_limit=67108864;";

/* Copy the WAL into the database every CKPT_MS, or at once when a commit
 * has taken the WAL past CKPT_RESET_FRAMES (wal_hook), without blocking
 * writers (PASSIVE). A WAL starts over from its first frame only when a
 * writer begins with every frame copied, which a steady stream of commits
 * never allows; so past CKPT_RESET_FRAMES the checkpointer catches up with
 * PASSIVE passes until fewer than CKPT_REST_FRAMES are left, and copies that
 * rest with the writers' mutex held. The next commit then starts the WAL
 * over. The writers wait only for the rest's copy and its two fsyncs: a
 * TRUNCATE checkpoint with the mutex held, as before, held it 22.6 ms
 * median six times a second at 10,000 players (docs/server.md). A WAL
 * without a commit since the last tick is truncated to nothing (nobody is
 * writing to wait for it). */
static void *ckpt_thread(void *arg) {
    sq_store *st = arg;
    unsigned long seen = 0;
    pthread_mutex_lock(&st->ck_mu);
    while (!st->stopping) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += (long)CKPT_MS * 1000000L;
        ts.tv_sec += ts.tv_nsec / 1000000000L;
        ts.tv_nsec %= 1000000000L;
        if (!st->kicked) pthread_cond_timedwait(&st->ck_cv, &st->ck_mu, &ts);
        st->kicked = 0;
        if (st->stopping) break;
        pthread_mutex_unlock(&st->ck_mu);
        int nlog = 0, nckpt = 0;
        sqlite3_wal_checkpoint_v2(st->ckdb, NULL, SQLITE_CHECKPOINT_PASSIVE, &nlog, &nckpt);
        pthread_mutex_lock(&st->mu);
        if (st->commits == seen) {
            /* no commit since the last tick: nobody waits for a truncation */
            if (nlog > 0) sqlite3_wal_checkpoint_v2(st->ckdb, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
            pthread_mutex_unlock(&st->mu);
        } else {
            seen = st->commits;
            pthread_mutex_unlock(&st->mu);
            if (nlog > CKPT_RESET_FRAMES) {
                for (int i = 0; i < 8 && nlog - nckpt >= CKPT_REST_FRAMES; i++)
                    sqlite3_wal_checkpoint_v2(st->ckdb, NULL, SQLITE_CHECKPOINT_PASSIVE, &nlog, &nckpt);
                struct timespec a, b;
                clock_gettime(CLOCK_MONOTONIC, &a);
                pthread_mutex_lock(&st->mu);
                sqlite3_wal_checkpoint_v2(st->ckdb, NULL, SQLITE_CHECKPOINT_PASSIVE, &nlog, &nckpt);
                pthread_mutex_unlock(&st->mu);
                clock_gettime(CLOCK_MONOTONIC, &b);
                if (st->trace)
                    fprintf(stderr, "kontor: checkpoint: the writers waited %.2f ms (WAL %d frames, %d copied)\n",
                            (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6, nlog,
                            nckpt);
            }
        }
        pthread_mutex_lock(&st->ck_mu);
    }
    pthread_mutex_unlock(&st->ck_mu);
    return NULL;
}

/* After each commit of the writing connection (st->mu held): a WAL past
 * CKPT_RESET_FRAMES wakes the checkpointer now rather than at its next
 * tick. */
static int wal_hook(void *arg, sqlite3 *db, const char *name, int nframes) {
    (void)db;
    (void)name;
    sq_store *st = arg;
    st->commits++;
    if (nframes > CKPT_RESET_FRAMES) {
        pthread_mutex_lock(&st->ck_mu);
        st->kicked = 1;
        pthread_cond_signal(&st->ck_cv);
        pthread_mutex_unlock(&st->ck_mu);
    }
    return SQLITE_OK;
}

static const store_ops sq_ops;
static void sq_close(store *base);

store *store_sqlite_open(const char *path, kontor_error *err) {
    sq_store *st = calloc(1, sizeof *st);
    if (!st) {
        db_fail(err, NULL, path);
        return NULL;
    }
    char what[200];
    snprintf(what, sizeof what, "'%s'", path);
    if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL) !=
            SQLITE_OK ||
        sqlite3_busy_timeout(st->db, 5000) != SQLITE_OK || sqlite3_exec(st->db, schema, NULL, NULL, NULL) != SQLITE_OK) {
        db_fail(err, st->db, what);
        sq_close(&st->base);
        return NULL;
    }
    struct {
        sqlite3_stmt **stmt;
        const char *sql;
    } prep[] = {
        {&st->save,
         "INSERT INTO games(id, over, meta, record) VALUES(?1, ?2, ?3, ?4) "
         "ON CONFLICT(id) DO UPDATE SET over=?2, meta=?3, record=?4, updated=strftime('%s','now')"},
        {&st->load_all, "SELECT id, over, meta, record FROM games ORDER BY created, rowid"},
        {&st->load_open, "SELECT id, over, meta, record FROM games WHERE over = 0 ORDER BY created, rowid"},
        {&st->recent, "SELECT id, over, meta, record FROM games WHERE over = 1 ORDER BY updated DESC, rowid DESC LIMIT ?1"},
        {&st->get, "SELECT over, meta, record FROM games WHERE id = ?1"},
        {&st->add_ply, "INSERT OR REPLACE INTO plies(game, ply, seat, move) VALUES(?1, ?2, ?3, ?4)"},
        {&st->del_plies, "DELETE FROM plies WHERE game = ?1"},
        {&st->plies, "SELECT ply, seat, move FROM plies WHERE game = ?1 ORDER BY ply"},
        {&st->begin, "BEGIN IMMEDIATE"},
        {&st->commit, "COMMIT"},
        {&st->rollback, "ROLLBACK"},
    };
    for (size_t i = 0; i < sizeof prep / sizeof *prep; i++)
        if (sqlite3_prepare_v2(st->db, prep[i].sql, -1, prep[i].stmt, NULL) != SQLITE_OK) {
            db_fail(err, st->db, what);
            sq_close(&st->base);
            return NULL;
        }
    pthread_mutex_init(&st->mu, NULL);
    st->base.ops = &sq_ops;
    pthread_mutex_init(&st->ck_mu, NULL);
    st->trace = getenv("KONTOR_CKPT_TRACE") != NULL;
    pthread_cond_init(&st->ck_cv, NULL);
    /* the checkpointer's own connection; without it (":memory:", or it
     * fails) checkpoints stay SQLite's automatic ones */
    if (strcmp(path, ":memory:") != 0 && /* (a second ":memory:" would be another database) */
        sqlite3_open_v2(path, &st->ckdb, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, NULL) == SQLITE_OK &&
        sqlite3_busy_timeout(st->ckdb, 5000) == SQLITE_OK &&
        sqlite3_exec(st->ckdb, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL) == SQLITE_OK &&
        pthread_create(&st->ckpt, NULL, ckpt_thread, st) == 0) {
        st->ckpt_running = 1;
        sqlite3_wal_hook(st->db, wal_hook, st);
    } else {
        sqlite3_exec(st->db, "PRAGMA wal_autocheckpoint=1000", NULL, NULL, NULL);
    }
    return &st->base;
}

static void sq_close(store *base) {
    sq_store *st = (sq_store *)base;
    if (!st) return;
    if (st->ckpt_running) {
        pthread_mutex_lock(&st->ck_mu);
        st->stopping = 1;
        pthread_cond_signal(&st->ck_cv);
        pthread_mutex_unlock(&st->ck_mu);
        pthread_join(st->ckpt, NULL);
        pthread_mutex_destroy(&st->ck_mu);
        pthread_cond_destroy(&st->ck_cv);
    }
    sqlite3_close(st->ckdb);
    sqlite3_finalize(st->add_ply);
    sqlite3_finalize(st->del_plies);
    sqlite3_finalize(st->plies);
    sqlite3_finalize(st->begin);
    sqlite3_finalize(st->commit);
    sqlite3_finalize(st->rollback);
    sqlite3_finalize(st->save);
    sqlite3_finalize(st->load_all);
    sqlite3_finalize(st->load_open);
    sqlite3_finalize(st->recent);
    sqlite3_finalize(st->get);
    sqlite3_close(st->db);
    if (st->base.ops) pthread_mutex_destroy(&st->mu);
    free(st);
}

static int step_done(sqlite3_stmt *q) {
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    return rc == SQLITE_DONE;
}

static kontor_status sq_save(store *base, const char *id, int over, const char *meta, const char *record,
                         kontor_error *err) {
    sq_store *st = (sq_store *)base;
    pthread_mutex_lock(&st->mu);
    kontor_status ret = KONTOR_OK;
    int ok = step_done(st->begin);
    if (ok) {
        sqlite3_stmt *q = st->save;
        sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
        sqlite3_bind_int(q, 2, over ? 1 : 0);
        sqlite3_bind_text(q, 3, meta, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 4, record, -1, SQLITE_STATIC);
        ok = step_done(q);
    }
    if (ok) {
        /* the record now holds every decision: the game's plies are spent */
        sqlite3_bind_text(st->del_plies, 1, id, -1, SQLITE_STATIC);
        ok = step_done(st->del_plies);
    }
    if (ok) ok = step_done(st->commit);
    if (!ok) {
        char what[64];
        snprintf(what, sizeof what, "saving game '%.32s'", id);
        ret = db_fail(err, st->db, what);
        if (!sqlite3_get_autocommit(st->db)) step_done(st->rollback);
    }
    pthread_mutex_unlock(&st->mu);
    return ret;
}

static kontor_status sq_add_ply(store *base, const char *id, int ply, int seat, int move, kontor_error *err) {
    sq_store *st = (sq_store *)base;
    pthread_mutex_lock(&st->mu);
    sqlite3_stmt *q = st->add_ply;
    sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 2, ply);
    sqlite3_bind_int(q, 3, seat);
    sqlite3_bind_int(q, 4, move);
    /* one statement outside BEGIN is one transaction of its own */
    kontor_status ret = KONTOR_OK;
    if (!step_done(q)) {
        char what[80];
        snprintf(what, sizeof what, "saving game '%.32s' decision %d", id, ply + 1);
        ret = db_fail(err, st->db, what);
    }
    pthread_mutex_unlock(&st->mu);
    return ret;
}

static kontor_status sq_delete(store *base, const char *id, kontor_error *err) {
    sq_store *st = (sq_store *)base;
    pthread_mutex_lock(&st->mu);
    kontor_status ret = KONTOR_OK;
    char *msg = NULL;
    char *sql = sqlite3_mprintf("BEGIN IMMEDIATE; DELETE FROM plies WHERE game = %Q; DELETE FROM games WHERE id = %Q; COMMIT;",
                                id, id);
    if (!sql || sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
        char what[80];
        snprintf(what, sizeof what, "forgetting game '%.32s'", id);
        ret = db_fail(err, st->db, what);
    }
    sqlite3_free(msg);
    sqlite3_free(sql);
    pthread_mutex_unlock(&st->mu);
    return ret;
}

/* The record of game id as stored: its row's record followed by the
 * decisions of its plies after it, as one malloc'd text (NULL with err
 * filled when they do not fit together). Call with st->mu held. */
static char *full_record(sq_store *st, const char *id, const char *record, kontor_error *err) {
    /* err is never NULL here; the folding is store.c's (store_fold_plies) */
    sqlite3_stmt *q = st->plies;
    sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
    store_ply *p = NULL;
    long n = 0, cap = 0;
    int rc, oom = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (n == cap) {
            long c = cap ? cap * 2 : 64;
            store_ply *more = realloc(p, (size_t)c * sizeof *p);
            if (!more) {
                oom = 1;
                break;
            }
            p = more;
            cap = c;
        }
        p[n].ply = sqlite3_column_int(q, 0);
        p[n].seat = sqlite3_column_int(q, 1);
        p[n].move = sqlite3_column_int(q, 2);
        n++;
    }
    char *out = NULL;
    if (oom) db_fail(err, NULL, "reading a game");
    else if (rc != SQLITE_DONE) db_fail(err, st->db, "reading a game's decisions");
    else out = store_fold_plies(id, record, p, n, err);
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    free(p);
    return out;
}

static kontor_status each_row(sq_store *st, sqlite3_stmt *q, store_each_fn fn, void *ctx, kontor_error *err) {
    kontor_status ret = KONTOR_OK;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(q, 0);
        int over = sqlite3_column_int(q, 1);
        const char *meta = (const char *)sqlite3_column_text(q, 2);
        const char *rec = (const char *)sqlite3_column_text(q, 3);
        kontor_error e = {0};
        char *full = over ? NULL : full_record(st, id ? id : "", rec ? rec : "", &e);
        if (!over && !full) {
            /* a game whose decisions do not fit its record: hand over the
             * record alone (the caller replays what it can) */
            fprintf(stderr, "kontor serve: %s\n", e.msg);
        }
        int stop = fn(ctx, id ? id : "", over, meta ? meta : "", full ? full : rec ? rec : "");
        free(full);
        if (stop) break;
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) ret = db_fail(err, st->db, "reading games");
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    return ret;
}

static kontor_status sq_load(store *base, int unfinished_only, store_each_fn fn, void *ctx, kontor_error *err) {
    sq_store *st = (sq_store *)base;
    pthread_mutex_lock(&st->mu);
    kontor_status ret = each_row(st, unfinished_only ? st->load_open : st->load_all, fn, ctx, err);
    pthread_mutex_unlock(&st->mu);
    return ret;
}

static kontor_status sq_recent(store *base, int limit, store_each_fn fn, void *ctx, kontor_error *err) {
    sq_store *st = (sq_store *)base;
    pthread_mutex_lock(&st->mu);
    sqlite3_bind_int(st->recent, 1, limit);
    kontor_status ret = each_row(st, st->recent, fn, ctx, err);
    pthread_mutex_unlock(&st->mu);
    return ret;
}

static char *dup_text(const unsigned char *t) {
    const char *s = t ? (const char *)t : "";
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    if (d) memcpy(d, s, n + 1);
    return d;
}

static kontor_status sq_get(store *base, const char *id, int *over, char **meta, char **record, kontor_error *err) {
    sq_store *st = (sq_store *)base;
    pthread_mutex_lock(&st->mu);
    sqlite3_stmt *q = st->get;
    sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    kontor_status ret = KONTOR_OK;
    if (rc == SQLITE_ROW) {
        *over = sqlite3_column_int(q, 0);
        *meta = dup_text(sqlite3_column_text(q, 1));
        kontor_error e = {0};
        const char *rec = (const char *)sqlite3_column_text(q, 2);
        *record = *over ? dup_text(sqlite3_column_text(q, 2)) : full_record(st, id, rec ? rec : "", &e);
        if (!*meta || !*record) {
            free(*meta);
            free(*record);
            if (e.msg[0] && err) *err = e;
            ret = e.msg[0] ? (e.code ? e.code : KONTOR_E_IO) : db_fail(err, NULL, "reading a game");
        }
    } else if (rc == SQLITE_DONE) {
        if (err) {
            err->code = KONTOR_E_INVALID;
            err->line = err->round = 0;
            snprintf(err->msg, sizeof err->msg, "game '%.32s' does not exist", id);
        }
        ret = KONTOR_E_INVALID;
    } else {
        ret = db_fail(err, st->db, "reading a game");
    }
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    pthread_mutex_unlock(&st->mu);
    return ret;
}

static const store_ops sq_ops = {
    .name = "sqlite",
    .shared = 0,
    .close = sq_close,
    .save = sq_save,
    .add_ply = sq_add_ply,
    .del = sq_delete,
    .load = sq_load,
    .recent = sq_recent,
    .get = sq_get,
};
