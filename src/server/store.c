/* store.c: the SQLite backend of store.h: one table, one row a game, WAL.
 *
 * A row is rewritten whole at every decision (a record is a few kilobytes),
 * which keeps the format a plain record that `kontor replay` reads, and makes
 * "the game as of the last acknowledged decision" the only state on disk: no
 * log to compact, no partial rounds. WAL with synchronous=NORMAL makes each
 * commit durable against the death of the process (SIGKILL, crash) without an
 * fsync per decision; a power failure can lose the last commits (the SQLite
 * documentation, "WAL mode": synchronous=FULL would cost an fsync per
 * decision). One connection is shared behind a mutex: SQLite serializes
 * writers anyway, and statements are prepared once.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "server/store.h"

struct store {
    sqlite3 *db;
    pthread_mutex_t mu;
    sqlite3_stmt *save, *load_all, *load_open, *recent, *get;
};

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
    "CREATE INDEX IF NOT EXISTS games_over ON games(over, updated);";

store *store_open(const char *path, kontor_error *err) {
    store *st = calloc(1, sizeof *st);
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
        store_close(st);
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
    };
    for (size_t i = 0; i < sizeof prep / sizeof *prep; i++)
        if (sqlite3_prepare_v2(st->db, prep[i].sql, -1, prep[i].stmt, NULL) != SQLITE_OK) {
            db_fail(err, st->db, what);
            store_close(st);
            return NULL;
        }
    pthread_mutex_init(&st->mu, NULL);
    return st;
}

void store_close(store *st) {
    if (!st) return;
    sqlite3_finalize(st->save);
    sqlite3_finalize(st->load_all);
    sqlite3_finalize(st->load_open);
    sqlite3_finalize(st->recent);
    sqlite3_finalize(st->get);
    sqlite3_close(st->db);
    pthread_mutex_destroy(&st->mu);
    free(st);
}

kontor_status store_save(store *st, const char *id, int over, const char *meta, const char *record,
                         kontor_error *err) {
    pthread_mutex_lock(&st->mu);
    sqlite3_stmt *q = st->save;
    sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 2, over ? 1 : 0);
    sqlite3_bind_text(q, 3, meta, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 4, record, -1, SQLITE_STATIC);
    /* one statement outside BEGIN is one transaction of its own */
    int rc = sqlite3_step(q);
    kontor_status ret = KONTOR_OK;
    if (rc != SQLITE_DONE) {
        char what[64];
        snprintf(what, sizeof what, "saving game '%.32s'", id);
        ret = db_fail(err, st->db, what);
    }
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    pthread_mutex_unlock(&st->mu);
    return ret;
}

static kontor_status each_row(store *st, sqlite3_stmt *q, store_each_fn fn, void *ctx, kontor_error *err) {
    kontor_status ret = KONTOR_OK;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(q, 0);
        int over = sqlite3_column_int(q, 1);
        const char *meta = (const char *)sqlite3_column_text(q, 2);
        const char *rec = (const char *)sqlite3_column_text(q, 3);
        if (fn(ctx, id ? id : "", over, meta ? meta : "", rec ? rec : "")) break;
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) ret = db_fail(err, st->db, "reading games");
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    return ret;
}

kontor_status store_load(store *st, int unfinished_only, store_each_fn fn, void *ctx, kontor_error *err) {
    pthread_mutex_lock(&st->mu);
    kontor_status ret = each_row(st, unfinished_only ? st->load_open : st->load_all, fn, ctx, err);
    pthread_mutex_unlock(&st->mu);
    return ret;
}

kontor_status store_recent(store *st, int limit, store_each_fn fn, void *ctx, kontor_error *err) {
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

kontor_status store_get(store *st, const char *id, int *over, char **meta, char **record, kontor_error *err) {
    pthread_mutex_lock(&st->mu);
    sqlite3_stmt *q = st->get;
    sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    kontor_status ret = KONTOR_OK;
    if (rc == SQLITE_ROW) {
        *over = sqlite3_column_int(q, 0);
        *meta = dup_text(sqlite3_column_text(q, 1));
        *record = dup_text(sqlite3_column_text(q, 2));
        if (!*meta || !*record) {
            free(*meta);
            free(*record);
            ret = db_fail(err, NULL, "reading a game");
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
