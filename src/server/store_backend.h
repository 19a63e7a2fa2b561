/* store_backend.h: what a store backend provides (store.c dispatches to it).
 *
 * store.h is the one interface the server sees; each backend (SQLite in
 * store_sqlite.c, PostgreSQL in store_pg.c) fills a table of these functions
 * and begins its own struct with a `store` whose ops point at it.
 */
#ifndef KONTOR_SERVER_STORE_BACKEND_H
#define KONTOR_SERVER_STORE_BACKEND_H

#include "server/store.h"

typedef struct store_ops {
    const char *name;
    int shared; /* several nodes may use the same database */
    void (*close)(store *st);
    kontor_status (*save)(store *st, const char *id, int over, const char *meta, const char *record, kontor_error *err);
    kontor_status (*add_ply)(store *st, const char *id, int ply, int seat, int move, kontor_error *err);
    kontor_status (*del)(store *st, const char *id, kontor_error *err);
    kontor_status (*load)(store *st, int unfinished_only, store_each_fn fn, void *ctx, kontor_error *err);
    kontor_status (*unfinished)(store *st, int limit, store_each_fn fn, void *ctx, kontor_error *err);
    kontor_status (*recent)(store *st, int limit, store_each_fn fn, void *ctx, kontor_error *err);
    kontor_status (*get)(store *st, const char *id, int *over, char **meta, char **record, kontor_error *err);
    int (*lease)(store *st, const char *id, const char *node, int ttl_ms);
    kontor_status (*orphans)(store *st, const char *node, int ttl_ms, int limit, store_id_fn fn, void *ctx,
                             kontor_error *err);
    int (*renew)(store *st, const char *node, int ttl_ms);
    kontor_status (*since)(store *st, const char *id, int from, store_ply **p, long *n, char **meta, kontor_error *err);
} store_ops;

struct store {
    const store_ops *ops;
};

store *store_sqlite_open(const char *path, kontor_error *err);
store *store_pg_open(const char *url, kontor_error *err);

/* The record text record followed by the decisions (ply, seat, move)
 * numbered from its own count on, as one malloc'd record text; NULL with err
 * filled when they do not fit together. Decisions the record already holds
 * are skipped. */
char *store_fold_plies(const char *id, const char *record, const store_ply *p, long n, kontor_error *err);
kontor_status store_io_error(kontor_error *err, const char *what, const char *why);

#endif
