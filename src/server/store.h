/* store.h: where the server keeps its games: open, save one game, load all, get one, list.
 *
 * The server stores every game as its record (the .kgn text of
 * include/kontor/record.h), saved whole now and then and appended to one
 * decision at a time in between, plus a small JSON "meta" text for what a record
 * does not hold (who sits where, the seats' secret tokens, the timeout). The
 * interface is this narrow on purpose: it is the whole of what a backend
 * provides. Two are built: SQLite (store_sqlite.c; one node, the default)
 * and PostgreSQL (store_pg.c; `--db postgresql://...`, several `kontor
 * serve` nodes on one database, docs/server.md "Several nodes"). Every
 * function is safe to call from several threads at once (one connection
 * behind a mutex each).
 */
#ifndef KONTOR_SERVER_STORE_H
#define KONTOR_SERVER_STORE_H

#include "kontor/kontor.h"

typedef struct store store;

/* Open (creating if needed) the database at path: a SQLite file, or a
 * PostgreSQL URL (postgresql://... or postgres://..., libpq's syntax). On
 * failure returns NULL and fills err. */
store *store_open(const char *path, kontor_error *err);
void store_close(store *st); /* NULL is a no-op */

/* Insert or replace game id (its whole record) in one transaction; returns only once it is
 * durable against a crash of the process (WAL, synchronous=NORMAL).
 * over: 1 when the game has ended. */
kontor_status store_save(store *st, const char *id, int over, const char *meta, const char *record,
                         kontor_error *err);

/* Append decision number ply (0-based: the record's nply before it) of game
 * id in one transaction, durable as store_save is. The game's next
 * store_save folds every such decision into its record. A shared store
 * (PostgreSQL) appends only while the game's row lock is held and only if
 * ply is the game's next decision and the game is not over; otherwise it
 * returns KONTOR_E_ILLEGAL (another node moved first: catch up and retry),
 * so no decision is stored twice. Every change of a shared store is
 * announced to every node (NOTIFY, nodesync.h). */
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
/* The newest games not over, at most limit: with several nodes, the lobby
 * lists them from the database (a node holds only the games its clients
 * asked for). A single-node store lists none: all of them are in its
 * memory. */
kontor_status store_unfinished(store *st, int limit, store_each_fn fn, void *ctx, kontor_error *err);
/* One game; KONTOR_E_INVALID when there is no such id. *meta and *record are
 * malloc'd (caller frees). */
kontor_status store_get(store *st, const char *id, int *over, char **meta, char **record, kontor_error *err);

/* A game's decisions from number from on, in the order they were stored
 * (a record's text writes a round's simultaneous choices in seat order
 * instead, so a node catching up its copy reads them here), and its meta:
 * *p (malloc'd, *n of them; caller frees) and *meta (malloc'd). A shared
 * store keeps every decision; KONTOR_E_RANGE when the store does not hold
 * them one by one (SQLite folds them into the record). */
typedef struct store_ply {
    int ply, seat, move;
} store_ply;
kontor_status store_since(store *st, const char *id, int from, store_ply **p, long *n, char **meta, kontor_error *err);

/* Several nodes on one database (PostgreSQL): 1 for a shared store. */
int store_shared(const store *st);
const char *store_backend(const store *st); /* "sqlite" or "postgresql" */

/* The computer's seats of a game are played by one node at a time: its
 * lease. store_lease takes or renews the lease of game id for node for
 * ttl_ms: 1 when node holds it, 0 when another node's lease runs, -1 on an
 * error. Single-node stores always answer 1. */
int store_lease(store *st, const char *id, const char *node, int ttl_ms);
/* Renew every lease node holds (games not over); the count, -1 on error. */
int store_renew(store *st, const char *node, int ttl_ms);
/* Games not over whose lease ran out (their node died): take the leases of
 * at most limit of them for node (rows locked by another node's sweep are
 * skipped) and call fn with each id. Single-node stores find none. */
typedef int (*store_id_fn)(void *ctx, const char *id);
kontor_status store_orphans(store *st, const char *node, int ttl_ms, int limit, store_id_fn fn, void *ctx,
                            kontor_error *err);

#endif
