/* pq.h: libpq, loaded when a PostgreSQL store is opened (dlopen), not linked into kontor.
 *
 * Linked in, libpq and what it needs (OpenSSL, GnuTLS, Kerberos, LDAP, SASL:
 * 17 shared libraries, all bound at load time) cost every kontor command
 * about 11.8 million instructions in the dynamic loader before main, though
 * only `kontor serve --db postgresql://...` uses it (docs/engine-speed.md, issue 17). So
 * store_pg.c and nodesync.c call libpq through a table of pointers that
 * pq_load fills from the library on first use. The macros below keep their
 * code ordinary libpq calls: PQexec(c, sql) is pq_fn.exec(c, sql). Each
 * pointer has the type of the function in <libpq-fe.h>, so a wrong call does
 * not compile.
 *
 * The library is $KONTOR_LIBPQ if set, else "libpq.so.5" (the soname of
 * every libpq since PostgreSQL 8.0), found the way the dynamic loader finds
 * any library.
 */
#ifndef KONTOR_SERVER_PQ_H
#define KONTOR_SERVER_PQ_H

#include <libpq-fe.h>

#include "kontor/kontor.h"

typedef struct pq_api {
    __typeof__(PQclear) *clear;
    __typeof__(PQcmdTuples) *cmdTuples;
    __typeof__(PQconnectdb) *connectdb;
    __typeof__(PQconsumeInput) *consumeInput;
    __typeof__(PQerrorMessage) *errorMessage;
    __typeof__(PQexec) *exec;
    __typeof__(PQexecParams) *execParams;
    __typeof__(PQfinish) *finish;
    __typeof__(PQfreemem) *freemem;
    __typeof__(PQgetisnull) *getisnull;
    __typeof__(PQgetvalue) *getvalue;
    __typeof__(PQnotifies) *notifies;
    __typeof__(PQntuples) *ntuples;
    __typeof__(PQreset) *reset;
    __typeof__(PQresultStatus) *resultStatus;
    __typeof__(PQsocket) *socket;
    __typeof__(PQstatus) *status;
} pq_api;

/* filled by pq_load; read only after it returned KONTOR_OK */
extern pq_api pq_fn;

/* Loads libpq once per process (thread-safe). KONTOR_OK, or KONTOR_E_IO with
 * err saying which library could not be loaded or lacks which function; a
 * failed load is tried again at the next call. */
kontor_status pq_load(kontor_error *err);

#ifndef KONTOR_PQ_NO_MACROS
#define PQclear pq_fn.clear
#define PQcmdTuples pq_fn.cmdTuples
#define PQconnectdb pq_fn.connectdb
#define PQconsumeInput pq_fn.consumeInput
#define PQerrorMessage pq_fn.errorMessage
#define PQexec pq_fn.exec
#define PQexecParams pq_fn.execParams
#define PQfinish pq_fn.finish
#define PQfreemem pq_fn.freemem
#define PQgetisnull pq_fn.getisnull
#define PQgetvalue pq_fn.getvalue
#define PQnotifies pq_fn.notifies
#define PQntuples pq_fn.ntuples
#define PQreset pq_fn.reset
#define PQresultStatus pq_fn.resultStatus
#define PQsocket pq_fn.socket
#define PQstatus pq_fn.status
#endif

#endif
