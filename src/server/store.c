/* store.c: store.h's one interface over its backends (SQLite, PostgreSQL), chosen by --db.
 *
 * `--db FILE` opens SQLite (store_sqlite.c), `--db postgresql://...` (or
 * postgres://) opens PostgreSQL (store_pg.c). Each call goes to the backend's
 * table of functions (store_backend.h). What both backends share lives here
 * too: folding a game's stored decisions into its record's text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kontor/record.h"
#include "server/store_backend.h"

static int is_pg_url(const char *s) {
    return strncmp(s, "postgresql://", 13) == 0 || strncmp(s, "postgres://", 11) == 0;
}

store *store_open(const char *path, kontor_error *err) {
    return is_pg_url(path) ? store_pg_open(path, err) : store_sqlite_open(path, err);
}

void store_close(store *st) {
    if (st) st->ops->close(st);
}

kontor_status store_save(store *st, const char *id, int over, const char *meta, const char *record,
                         kontor_error *err) {
    return st->ops->save(st, id, over, meta, record, err);
}

kontor_status store_add_ply(store *st, const char *id, int ply, int seat, int move, kontor_error *err) {
    return st->ops->add_ply(st, id, ply, seat, move, err);
}

kontor_status store_delete(store *st, const char *id, kontor_error *err) { return st->ops->del(st, id, err); }

kontor_status store_load(store *st, int unfinished_only, store_each_fn fn, void *ctx, kontor_error *err) {
    return st->ops->load(st, unfinished_only, fn, ctx, err);
}

kontor_status store_recent(store *st, int limit, store_each_fn fn, void *ctx, kontor_error *err) {
    return st->ops->recent(st, limit, fn, ctx, err);
}

kontor_status store_unfinished(store *st, int limit, store_each_fn fn, void *ctx, kontor_error *err) {
    return st->ops->unfinished ? st->ops->unfinished(st, limit, fn, ctx, err) : KONTOR_OK;
}

kontor_status store_get(store *st, const char *id, int *over, char **meta, char **record, kontor_error *err) {
    return st->ops->get(st, id, over, meta, record, err);
}

int store_shared(const store *st) { return st->ops->shared; }
const char *store_backend(const store *st) { return st->ops->name; }

int store_lease(store *st, const char *id, const char *node, int ttl_ms) {
    return st->ops->lease ? st->ops->lease(st, id, node, ttl_ms) : 1;
}

int store_renew(store *st, const char *node, int ttl_ms) {
    return st->ops->renew ? st->ops->renew(st, node, ttl_ms) : 0;
}

kontor_status store_orphans(store *st, const char *node, int ttl_ms, int limit, store_id_fn fn, void *ctx,
                            kontor_error *err) {
    return st->ops->orphans ? st->ops->orphans(st, node, ttl_ms, limit, fn, ctx, err) : KONTOR_OK;
}

kontor_status store_since(store *st, const char *id, int from, store_ply **p, long *n, char **meta, kontor_error *err) {
    *p = NULL;
    *n = 0;
    *meta = NULL;
    if (st->ops->since) return st->ops->since(st, id, from, p, n, meta, err);
    if (err) {
        err->code = KONTOR_E_RANGE;
        snprintf(err->msg, sizeof err->msg, "store '%s' keeps no decisions one by one", st->ops->name);
    }
    return KONTOR_E_RANGE;
}

kontor_status store_io_error(kontor_error *err, const char *what, const char *why) {
    if (err) {
        err->code = KONTOR_E_IO;
        err->line = err->round = 0;
        snprintf(err->msg, sizeof err->msg, "store: %s: %s", what, why);
    }
    return KONTOR_E_IO;
}

char *store_fold_plies(const char *id, const char *record, const store_ply *p, long n, kontor_error *err) {
    if (n == 0) {
        size_t len = strlen(record);
        char *out = malloc(len + 1);
        if (out) memcpy(out, record, len + 1);
        else store_io_error(err, "reading a game", "out of memory");
        return out;
    }
    kontor_record r;
    if (kontor_record_parse(&r, record, strlen(record), err) != KONTOR_OK) return NULL;
    char *out = NULL;
    int bad = 0;
    for (long i = 0; i < n && !bad; i++) {
        if (p[i].ply < r.nply) continue; /* already in the record */
        if (p[i].ply != r.nply || p[i].seat < 0 || p[i].seat >= KONTOR_MAX_SEATS || p[i].move < 0 ||
            p[i].move > 0xFFFF) {
            snprintf(err->msg, sizeof err->msg, "game '%.32s': stored decision %d follows decision %d", id,
                     p[i].ply + 1, r.nply);
            err->code = KONTOR_E_INVALID;
            bad = 1;
        } else if (kontor_record_push(&r, p[i].seat, (kontor_move)p[i].move) != KONTOR_OK) {
            store_io_error(err, "reading a game", "out of memory");
            bad = 1;
        }
    }
    size_t len;
    if (!bad && kontor_record_write(&r, &out, &len) != KONTOR_OK) {
        store_io_error(err, "writing a game's record", "out of memory");
        out = NULL;
    }
    kontor_record_release(&r);
    return out;
}
