/* store.h: where the server keeps its games: open, save one game, load all, get one, list.
 *
 * The server stores every game as its record (the .kgn text of
 * include/kontor/record.h), saved whole now and then and appended to one
 * decision at a time in between, plus a small JSON "meta" text for what a record
 * does not hold (who sits where, the seats' secret tokens, the timeout). The
 * interface is this narrow on purpose: it is the whole of what a second
 * backend (PostgreSQL, docs/server.md) would have to provide. Only SQLite is
 * built. Every function is safe to call from several threads at once (one
 * connection behind a mutex: SQLite's writers are serialized anyway).
 */
#ifndef KONTOR_SERVER_STORE_H
#define KONTOR_SERVER_STORE_H

#include "kontor/kontor.h"

typedef struct store store;

/* Open (creating if needed) the database at path. On failure returns NULL and
 * fills err. */
store *store_open(const char *path, kontor_error *err);
void store_close(store *st); /* NULL is a no-op */

/* Insert or replace game id (its whole record) in one transaction; returns only once it is
 * durable against a crash of the process (WAL, synchronous=NORMAL).
 * over: 1 when the game has ended. */
kontor_status store_save(store *st, const char *id, int over, const char *meta, const char *record,
                         kontor_error *err);

/* Append decision number ply (0-based: the record's nply before it) of game
 * id in one transaction, durable as store_save is. The game's next
 * store_save folds every such decision into its record. */
kontor_status store_add_ply(store *st, const char *id, int ply, int seat, int move, kontor_error *err);

/* Forget game id (its row and its decisions), in one transaction: an open
 * game that nobody joined. */
kontor_status store_delete(store *st, const char *id, kontor_error *err);

/* Called for each stored game; return non-zero to stop. The strings belong
 * to the store and live only during the call. */
typedef int (*store_each_fn)(void *ctx, const char *id, int over, const char *meta, const char *record);

/* Every game not over (unfinished_only) or every game, oldest first. */
kontor_status store_load(store *st, int unfinished_only, store_each_fn fn, void *ctx, kontor_error *err);
/* The most recent finished games, newest first, at most limit. */
kontor_status store_recent(store *st, int limit, store_each_fn fn, void *ctx, kontor_error *err);
/* One game; KONTOR_E_INVALID when there is no such id. *meta and *record are
 * malloc'd (caller frees). */
kontor_status store_get(store *st, const char *id, int *over, char **meta, char **record, kontor_error *err);

#endif
