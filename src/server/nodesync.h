/* nodesync.h: several `kontor serve` nodes on one PostgreSQL: each hears of every other's changes (LISTEN/NOTIFY).
 *
 * A shared store (store_pg.c) announces each stored decision and each saved
 * game with NOTIFY on the channel "kontor", payload "ID NPLY" (a decision:
 * the game now has NPLY decisions) or "ID NPLY s" (a save: meta or record).
 * nodesync runs one thread per node with its own connection that LISTENs
 * and hands each notice to the server (apply.c catches its cached copy of
 * that game up from the store and tells its clients). A lost connection is
 * made again, and then every cached game is caught up (id NULL): notices
 * sent while it was away are gone.
 */
#ifndef KONTOR_SERVER_NODESYNC_H
#define KONTOR_SERVER_NODESYNC_H

#include "kontor/kontor.h"

/* on_change(id, nply, saved): called on the listener's thread; id NULL
 * means "catch up every game" (after a reconnection). */
typedef void (*nodesync_fn)(const char *id, int nply, int saved);

/* Start listening on url (a PostgreSQL URL); 0, or -1 with err filled. */
int nodesync_start(const char *url, nodesync_fn fn, kontor_error *err);
/* Stop the thread and close its connection (no-op if not started). */
void nodesync_stop(void);

/* Parse a notice's payload: 1 and fills id (at most idcap-1 characters),
 * nply and saved when it has the form above, else 0. */
int nodesync_parse(const char *payload, char *id, size_t idcap, int *nply, int *saved);

#endif
