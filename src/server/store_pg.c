/* store_pg.c: the PostgreSQL backend of store.h (libpq): several `kontor serve` nodes on one database.
 *
 * The same tables as SQLite's (a row a game, a row a decision), plus what
 * several nodes need. games.nply counts every decision stored (the record's
 * plus the plies after it); games.base is the record's own count, so the game
 * is its record followed by its plies from base on. A decision is appended by
 * one statement, that is one transaction:
 *
 *   UPDATE games SET nply = nply + 1 WHERE id = $1 AND nply = $2 AND over = 0
 *   -> INSERT INTO plies ...  -> SELECT pg_notify('kontor', ...)
 *
 * The UPDATE takes the game's row lock; a second node appending the same
 * decision number waits for it, then finds nply moved on and changes nothing
 * (READ COMMITTED re-reads the row), and learns that it was late
 * (KONTOR_E_ILLEGAL): so a decision is never stored twice, and every node
 * told it was stored is told by the commit itself. NOTIFY is delivered at
 * commit to every node that LISTENs (nodesync.c). A full save takes the row
 * lock (SELECT ... FOR UPDATE) and replaces the record only when it holds at
 * least as many decisions as stored (a node whose cache is behind never
 * overwrites newer decisions; its meta, the seats, is saved all the same).
 * Unlike SQLite's, a save keeps the plies: they are the decisions in the
 * order they were stored (store_since), which a node catching up needs (a
 * record's text writes a round's simultaneous choices in seat order).
 *
 * The computer's seats of a game are worked by the node holding its lease
 * (lease_node, lease_until): taken or renewed by store_lease, renewed every
 * second by the node, and taken over by another node's sweep (store_orphans:
 * UPDATE ... WHERE id IN (SELECT ... FOR UPDATE SKIP LOCKED)) once it ran
 * out, so a node's death hands its computer moves to another within the ttl.
 *
 * One connection behind a mutex per store (a node); synchronous_commit is
 * off unless the URL sets it (see store_pg_open). Several nodes creating
 * the schema at once take an advisory lock first.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kontor/record.h"
#include "server/pq.h"
#include "server/store_backend.h"

typedef struct pg_store {
    store base; /* first: the ops */
    PGconn *c;
    pthread_mutex_t mu;
} pg_store;

static const store_ops pg_ops;

static const char *schema =
    "BEGIN;"
    "SELECT pg_advisory_xact_lock(7236746);" /* one node creates the tables */
    "CREATE TABLE IF NOT EXISTS games ("
    "  id TEXT PRIMARY KEY,"
    "  over INTEGER NOT NULL,"
    "  meta TEXT NOT NULL,"
    "  record TEXT NOT NULL,"
    "  base INTEGER NOT NULL,"
    "  nply INTEGER NOT NULL,"
    "  seq BIGSERIAL,"
    "  created TIMESTAMPTZ NOT NULL DEFAULT now(),"
    "  updated TIMESTAMPTZ NOT NULL DEFAULT now(),"
    "  lease_node TEXT,"
    "  lease_until TIMESTAMPTZ);"
    "CREATE INDEX IF NOT EXISTS games_over ON games(over, updated);"
    "CREATE INDEX IF NOT EXISTS games_lease ON games(lease_until) WHERE over = 0 AND lease_node IS NOT NULL;"
    "CREATE TABLE IF NOT EXISTS plies ("
    "  game TEXT NOT NULL,"
    "  ply INTEGER NOT NULL,"
    "  seat INTEGER NOT NULL,"
    "  move INTEGER NOT NULL,"
    "  PRIMARY KEY(game, ply));"
    "COMMIT;";

static kontor_status pg_fail(kontor_error *err, PGconn *c, const char *what) {
    char why[200];
    snprintf(why, sizeof why, "%s", c ? PQerrorMessage(c) : "out of memory");
    size_t n = strlen(why);
    while (n && (why[n - 1] == '\n' || why[n - 1] == ' ')) why[--n] = 0;
    return store_io_error(err, what, why);
}

/* Run one statement with text parameters; NULL (err filled) unless it
 * returned the status wanted. A broken connection is reset once and the
 * statement tried again (a restarted database server). Call with mu held. */
static PGresult *run(pg_store *st, const char *sql, int n, const char *const *args, ExecStatusType want,
                     kontor_error *err, const char *what) {
    for (int attempt = 0; attempt < 2; attempt++) {
        PGresult *r = PQexecParams(st->c, sql, n, NULL, args, NULL, NULL, 0);
        if (r && PQresultStatus(r) == want) return r;
        PQclear(r);
        if (PQstatus(st->c) == CONNECTION_OK || attempt) break;
        PQreset(st->c);
    }
    pg_fail(err, st->c, what);
    return NULL;
}

store *store_pg_open(const char *url, kontor_error *err) {
    if (pq_load(err) != KONTOR_OK) return NULL;
    pg_store *st = calloc(1, sizeof *st);
    if (!st) {
        store_io_error(err, "postgresql", "out of memory");
        return NULL;
    }
    st->c = PQconnectdb(url);
    if (PQstatus(st->c) != CONNECTION_OK) {
        pg_fail(err, st->c, "connecting to PostgreSQL");
        PQfinish(st->c);
        free(st);
        return NULL;
    }
    PGresult *r = PQexec(st->c, "SET client_min_messages = warning");
    PQclear(r);
    /* the promise of SQLite's synchronous=NORMAL (store_sqlite.c): a commit
     * survives the death of the kontor node at once; it reaches the disk
     * within PostgreSQL's wal_writer_delay (200 ms), so a crash of the
     * database server or its machine can lose the last fraction of a second.
     * Waiting for the disk on every move instead (synchronous_commit=on)
     * costs an fsync on the event loop's thread each move: 126 moves/s a node
     * on this machine (docs/server.md). A URL that sets it keeps its choice:
     * postgresql://...?options=-csynchronous_commit%3Don */
    if (!strstr(url, "synchronous_commit")) PQclear(PQexec(st->c, "SET synchronous_commit = off"));
    r = PQexec(st->c, schema);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        pg_fail(err, st->c, "creating the tables");
        PQclear(r);
        PQfinish(st->c);
        free(st);
        return NULL;
    }
    PQclear(r);
    pthread_mutex_init(&st->mu, NULL);
    st->base.ops = &pg_ops;
    return &st->base;
}

static void pg_close(store *base) {
    pg_store *st = (pg_store *)base;
    PQfinish(st->c);
    pthread_mutex_destroy(&st->mu);
    free(st);
}

static void rollback(pg_store *st) { PQclear(PQexec(st->c, "ROLLBACK")); }

static kontor_status pg_save(store *base, const char *id, int over, const char *meta, const char *record,
                             kontor_error *err) {
    pg_store *st = (pg_store *)base;
    char what[64];
    snprintf(what, sizeof what, "saving game '%.32s'", id);
    /* the record's own count of decisions */
    kontor_record rec;
    kontor_error perr;
    if (kontor_record_parse(&rec, record, strlen(record), &perr) != KONTOR_OK) return store_io_error(err, what, perr.msg);
    int nply = rec.nply;
    kontor_record_release(&rec);
    char nbuf[16], obuf[4];
    snprintf(nbuf, sizeof nbuf, "%d", nply);
    snprintf(obuf, sizeof obuf, "%d", over ? 1 : 0);
    pthread_mutex_lock(&st->mu);
    kontor_status ret = KONTOR_OK;
    PGresult *r = run(st, "BEGIN", 0, NULL, PGRES_COMMAND_OK, err, what);
    if (!r) {
        pthread_mutex_unlock(&st->mu);
        return KONTOR_E_IO;
    }
    PQclear(r);
    const char *a1[] = {id};
    r = run(st, "SELECT nply FROM games WHERE id = $1 FOR UPDATE", 1, a1, PGRES_TUPLES_OK, err, what);
    int ok = r != NULL;
    if (ok) {
        int exists = PQntuples(r) == 1;
        int stored = exists ? atoi(PQgetvalue(r, 0, 0)) : 0;
        PQclear(r);
        const char *a5[] = {id, obuf, meta, record, nbuf};
        if (!exists)
            r = run(st, "INSERT INTO games(id, over, meta, record, base, nply) VALUES($1, $2, $3, $4, $5, $5)", 5, a5,
                    PGRES_COMMAND_OK, err, what);
        else if (stored <= nply)
            r = run(st,
                    "UPDATE games SET over = $2, meta = $3, record = $4, base = $5, nply = $5, updated = now() "
                    "WHERE id = $1",
                    5, a5, PGRES_COMMAND_OK, err, what);
        else /* this node's copy is behind: keep the newer decisions, take the seats */
            r = run(st, "UPDATE games SET meta = $2, updated = now() WHERE id = $1", 2, (const char *[]){id, meta},
                    PGRES_COMMAND_OK, err, what);
        ok = r != NULL;
        PQclear(r);
        if (ok) {
            char payload[64];
            snprintf(payload, sizeof payload, "%.32s %d s", id, nply > stored ? nply : stored);
            r = run(st, "SELECT pg_notify('kontor', $1)", 1, (const char *[]){payload}, PGRES_TUPLES_OK, err, what);
            ok = r != NULL;
            PQclear(r);
        }
    }
    if (ok) {
        r = run(st, "COMMIT", 0, NULL, PGRES_COMMAND_OK, err, what);
        ok = r != NULL;
        PQclear(r);
    } else {
        rollback(st);
    }
    if (!ok) ret = KONTOR_E_IO;
    pthread_mutex_unlock(&st->mu);
    return ret;
}

static kontor_status pg_add_ply(store *base, const char *id, int ply, int seat, int move, kontor_error *err) {
    pg_store *st = (pg_store *)base;
    char p[16], s[16], m[16], next[16];
    snprintf(p, sizeof p, "%d", ply);
    snprintf(s, sizeof s, "%d", seat);
    snprintf(m, sizeof m, "%d", move);
    snprintf(next, sizeof next, "%d", ply + 1);
    const char *args[] = {id, p, s, m, next};
    char what[80];
    snprintf(what, sizeof what, "saving game '%.32s' decision %d", id, ply + 1);
    pthread_mutex_lock(&st->mu);
    PGresult *r = run(st,
                      "WITH u AS (UPDATE games SET nply = nply + 1, updated = now() "
                      "           WHERE id = $1 AND nply = $2::int AND over = 0 RETURNING id),"
                      "     i AS (INSERT INTO plies(game, ply, seat, move) SELECT id, $2::int, $3::int, $4::int FROM u "
                      "           RETURNING game)"
                      "SELECT pg_notify('kontor', game || ' ' || $5) FROM i",
                      5, args, PGRES_TUPLES_OK, err, what);
    kontor_status ret = KONTOR_OK;
    if (!r) ret = KONTOR_E_IO;
    else if (PQntuples(r) != 1) {
        if (err) {
            err->code = KONTOR_E_ILLEGAL;
            err->line = err->round = 0;
            snprintf(err->msg, sizeof err->msg, "game '%.32s': decision %d was already stored (by another node)", id,
                     ply + 1);
        }
        ret = KONTOR_E_ILLEGAL;
    }
    PQclear(r);
    pthread_mutex_unlock(&st->mu);
    return ret;
}

static kontor_status pg_delete(store *base, const char *id, kontor_error *err) {
    pg_store *st = (pg_store *)base;
    char what[80];
    snprintf(what, sizeof what, "forgetting game '%.32s'", id);
    pthread_mutex_lock(&st->mu);
    PGresult *r = run(st, "WITH d AS (DELETE FROM plies WHERE game = $1) DELETE FROM games WHERE id = $1", 1,
                      (const char *[]){id}, PGRES_COMMAND_OK, err, what);
    PQclear(r);
    pthread_mutex_unlock(&st->mu);
    return r ? KONTOR_OK : KONTOR_E_IO;
}

/* The columns every reader selects: id, over, meta, record, and the plies
 * after the record as "ply seat move,..." (one statement: one snapshot). */
#define GAME_COLS                                                                                                    \
    "id, over, meta, record, (SELECT string_agg(ply || ' ' || seat || ' ' || move, ',' ORDER BY ply) FROM plies " \
    "WHERE game = games.id AND ply >= games.base) "

/* "ply seat move,..." as an array (malloc'd, *n), NULL out of memory. */
static store_ply *parse_plies(const char *pl, long *nout) {
    long n = 0;
    for (const char *q = pl; *q; q++) n += *q == ',';
    if (*pl) n++;
    store_ply *p = malloc((size_t)(n ? n : 1) * sizeof *p);
    if (!p) return NULL;
    long k = 0;
    const char *q = pl;
    while (*q && k < n) {
        char *end;
        p[k].ply = (int)strtol(q, &end, 10);
        p[k].seat = (int)strtol(end, &end, 10);
        p[k].move = (int)strtol(end, &end, 10);
        k++;
        q = *end == ',' ? end + 1 : end;
    }
    *nout = k;
    return p;
}

/* The game of row i of r as one record text (malloc'd), NULL with err filled. */
static char *row_record(PGresult *r, int i, kontor_error *err) {
    const char *id = PQgetvalue(r, i, 0), *rec = PQgetvalue(r, i, 3);
    long k;
    store_ply *p = parse_plies(PQgetvalue(r, i, 4), &k);
    if (!p) {
        store_io_error(err, "reading a game", "out of memory");
        return NULL;
    }
    char *out = store_fold_plies(id, rec, p, k, err);
    free(p);
    return out;
}

static kontor_status each_row(pg_store *st, const char *sql, int n, const char *const *args, store_each_fn fn,
                              void *ctx, kontor_error *err) {
    pthread_mutex_lock(&st->mu);
    PGresult *r = run(st, sql, n, args, PGRES_TUPLES_OK, err, "reading games");
    pthread_mutex_unlock(&st->mu);
    if (!r) return KONTOR_E_IO;
    for (int i = 0; i < PQntuples(r); i++) {
        kontor_error e = {0};
        char *full = row_record(r, i, &e);
        if (!full) fprintf(stderr, "kontor serve: %s\n", e.msg);
        int stop = fn(ctx, PQgetvalue(r, i, 0), atoi(PQgetvalue(r, i, 1)), PQgetvalue(r, i, 2),
                      full ? full : PQgetvalue(r, i, 3));
        free(full);
        if (stop) break;
    }
    PQclear(r);
    return KONTOR_OK;
}

static kontor_status pg_load(store *base, int unfinished_only, store_each_fn fn, void *ctx, kontor_error *err) {
    return each_row((pg_store *)base,
                    unfinished_only ? "SELECT " GAME_COLS "FROM games WHERE over = 0 ORDER BY created, seq"
                                    : "SELECT " GAME_COLS "FROM games ORDER BY created, seq",
                    0, NULL, fn, ctx, err);
}

static kontor_status pg_recent(store *base, int limit, store_each_fn fn, void *ctx, kontor_error *err) {
    char l[16];
    snprintf(l, sizeof l, "%d", limit);
    return each_row((pg_store *)base,
                    "SELECT " GAME_COLS "FROM games WHERE over = 1 ORDER BY updated DESC, seq DESC LIMIT $1::int", 1,
                    (const char *[]){l}, fn, ctx, err);
}

static kontor_status pg_unfinished(store *base, int limit, store_each_fn fn, void *ctx, kontor_error *err) {
    char l[16];
    snprintf(l, sizeof l, "%d", limit);
    return each_row((pg_store *)base,
                    "SELECT " GAME_COLS "FROM games WHERE over = 0 ORDER BY created DESC, seq DESC LIMIT $1::int", 1,
                    (const char *[]){l}, fn, ctx, err);
}

static char *dup_text(const char *s) {
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    if (d) memcpy(d, s, n + 1);
    return d;
}

static kontor_status pg_get(store *base, const char *id, int *over, char **meta, char **record, kontor_error *err) {
    pg_store *st = (pg_store *)base;
    pthread_mutex_lock(&st->mu);
    PGresult *r = run(st, "SELECT " GAME_COLS "FROM games WHERE id = $1", 1, (const char *[]){id}, PGRES_TUPLES_OK,
                      err, "reading a game");
    pthread_mutex_unlock(&st->mu);
    if (!r) return KONTOR_E_IO;
    kontor_status ret = KONTOR_OK;
    if (PQntuples(r) == 0) {
        if (err) {
            err->code = KONTOR_E_INVALID;
            err->line = err->round = 0;
            snprintf(err->msg, sizeof err->msg, "game '%.32s' does not exist", id);
        }
        ret = KONTOR_E_INVALID;
    } else {
        kontor_error e = {0};
        *over = atoi(PQgetvalue(r, 0, 1));
        *meta = dup_text(PQgetvalue(r, 0, 2));
        *record = row_record(r, 0, &e);
        if (!*meta || !*record) {
            free(*meta);
            free(*record);
            if (err) *err = e;
            ret = e.code ? e.code : KONTOR_E_IO;
        }
    }
    PQclear(r);
    return ret;
}

static int pg_lease(store *base, const char *id, const char *node, int ttl_ms) {
    pg_store *st = (pg_store *)base;
    char t[16];
    snprintf(t, sizeof t, "%d", ttl_ms);
    kontor_error err;
    pthread_mutex_lock(&st->mu);
    PGresult *r = run(st,
                      "UPDATE games SET lease_node = $2, lease_until = now() + $3::int * interval '1 millisecond' "
                      "WHERE id = $1 AND (lease_node IS NULL OR lease_node = $2 OR lease_until < now()) RETURNING 1",
                      3, (const char *[]){id, node, t}, PGRES_TUPLES_OK, &err, "taking a lease");
    pthread_mutex_unlock(&st->mu);
    int held = r ? PQntuples(r) == 1 : -1;
    PQclear(r);
    return held;
}

static int pg_renew(store *base, const char *node, int ttl_ms) {
    pg_store *st = (pg_store *)base;
    char t[16];
    snprintf(t, sizeof t, "%d", ttl_ms);
    kontor_error err;
    pthread_mutex_lock(&st->mu);
    PGresult *r = run(st,
                      "UPDATE games SET lease_until = now() + $2::int * interval '1 millisecond' "
                      "WHERE lease_node = $1 AND over = 0",
                      2, (const char *[]){node, t}, PGRES_COMMAND_OK, &err, "renewing leases");
    pthread_mutex_unlock(&st->mu);
    int n = r ? atoi(PQcmdTuples(r)) : -1;
    PQclear(r);
    return n;
}

static kontor_status pg_orphans(store *base, const char *node, int ttl_ms, int limit, store_id_fn fn, void *ctx,
                                kontor_error *err) {
    pg_store *st = (pg_store *)base;
    char t[16], l[16];
    snprintf(t, sizeof t, "%d", ttl_ms);
    snprintf(l, sizeof l, "%d", limit);
    pthread_mutex_lock(&st->mu);
    PGresult *r = run(st,
                      "UPDATE games SET lease_node = $1, lease_until = now() + $2::int * interval '1 millisecond' "
                      "WHERE id IN (SELECT id FROM games WHERE over = 0 AND lease_node IS NOT NULL "
                      "             AND lease_until < now() ORDER BY lease_until LIMIT $3::int "
                      "             FOR UPDATE SKIP LOCKED) RETURNING id",
                      3, (const char *[]){node, t, l}, PGRES_TUPLES_OK, err, "taking over leases");
    pthread_mutex_unlock(&st->mu);
    if (!r) return KONTOR_E_IO;
    for (int i = 0; i < PQntuples(r); i++)
        if (fn(ctx, PQgetvalue(r, i, 0))) break;
    PQclear(r);
    return KONTOR_OK;
}

static kontor_status pg_since(store *base, const char *id, int from, store_ply **p, long *n, char **meta,
                              kontor_error *err) {
    pg_store *st = (pg_store *)base;
    char f[16];
    snprintf(f, sizeof f, "%d", from);
    pthread_mutex_lock(&st->mu);
    PGresult *r = run(st,
                      "SELECT meta, (SELECT string_agg(ply || ' ' || seat || ' ' || move, ',' ORDER BY ply) FROM plies "
                      "WHERE game = games.id AND ply >= $2::int), (SELECT min(ply) FROM plies WHERE game = games.id), "
                      "nply FROM games WHERE id = $1",
                      2, (const char *[]){id, f}, PGRES_TUPLES_OK, err, "reading a game's decisions");
    pthread_mutex_unlock(&st->mu);
    if (!r) return KONTOR_E_IO;
    kontor_status ret = KONTOR_OK;
    if (PQntuples(r) != 1) {
        ret = store_io_error(err, "reading a game's decisions", "no such game");
    } else {
        int nply = atoi(PQgetvalue(r, 0, 3));
        int first = PQgetisnull(r, 0, 2) ? nply : atoi(PQgetvalue(r, 0, 2));
        if (first > from && from < nply) {
            /* decisions stored before this store kept them one by one */
            if (err) {
                err->code = KONTOR_E_RANGE;
                snprintf(err->msg, sizeof err->msg, "game '%.32s': decisions before %d are in its record only", id,
                         first + 1);
            }
            ret = KONTOR_E_RANGE;
        } else {
            *p = parse_plies(PQgetvalue(r, 0, 1), n);
            *meta = dup_text(PQgetvalue(r, 0, 0));
            if (!*p || !*meta) {
                free(*p);
                free(*meta);
                *p = NULL;
                *meta = NULL;
                ret = store_io_error(err, "reading a game's decisions", "out of memory");
            }
        }
    }
    PQclear(r);
    return ret;
}

static const store_ops pg_ops = {
    .name = "postgresql",
    .shared = 1,
    .close = pg_close,
    .save = pg_save,
    .add_ply = pg_add_ply,
    .del = pg_delete,
    .load = pg_load,
    .recent = pg_recent,
    .unfinished = pg_unfinished,
    .get = pg_get,
    .lease = pg_lease,
    .orphans = pg_orphans,
    .renew = pg_renew,
    .since = pg_since,
};
