/* pq.c: loads libpq on first use (pq.h says why it is not linked).
 *
 * Once loaded, the library stays for the life of the process (never
 * dlclose'd: connections and the listener thread of nodesync.c use it until
 * exit). A failed load leaves nothing behind and is tried again at the next
 * call, so that the error is the same every time.
 */
#define KONTOR_PQ_NO_MACROS
#include "server/pq.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pq_api pq_fn;

static pthread_mutex_t pq_mu = PTHREAD_MUTEX_INITIALIZER;
static int pq_loaded;

/* Looks every function up before any pointer is set: a library that lacks
 * one leaves pq_fn as it was. */
static int pq_resolve(void *h, pq_api *api, const char **missing) {
#define PQ_SYM(field, name)                                                                                            \
    do {                                                                                                               \
        void *p = dlsym(h, name);                                                                                      \
        if (!p) {                                                                                                      \
            *missing = name;                                                                                           \
            return 0;                                                                                                  \
        }                                                                                                              \
        /* POSIX: what dlsym returns for a function is its address */                                                  \
        memcpy(&api->field, &p, sizeof p);                                                                             \
    } while (0)
    PQ_SYM(clear, "PQclear");
    PQ_SYM(cmdTuples, "PQcmdTuples");
    PQ_SYM(connectdb, "PQconnectdb");
    PQ_SYM(consumeInput, "PQconsumeInput");
    PQ_SYM(errorMessage, "PQerrorMessage");
    PQ_SYM(exec, "PQexec");
    PQ_SYM(execParams, "PQexecParams");
    PQ_SYM(finish, "PQfinish");
    PQ_SYM(freemem, "PQfreemem");
    PQ_SYM(getisnull, "PQgetisnull");
    PQ_SYM(getvalue, "PQgetvalue");
    PQ_SYM(notifies, "PQnotifies");
    PQ_SYM(ntuples, "PQntuples");
    PQ_SYM(reset, "PQreset");
    PQ_SYM(resultStatus, "PQresultStatus");
    PQ_SYM(socket, "PQsocket");
    PQ_SYM(status, "PQstatus");
#undef PQ_SYM
    return 1;
}

static void pq_io(kontor_error *err) {
    err->code = KONTOR_E_IO;
    err->line = err->round = 0;
}

kontor_status pq_load(kontor_error *err) {
    pthread_mutex_lock(&pq_mu);
    if (pq_loaded) {
        pthread_mutex_unlock(&pq_mu);
        return KONTOR_OK;
    }
    const char *name = getenv("KONTOR_LIBPQ");
    if (!name || !*name) name = "libpq.so.5";
    kontor_status s = KONTOR_OK;
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        s = KONTOR_E_IO;
        if (err) {
            pq_io(err);
            snprintf(err->msg, sizeof err->msg,
                     "store: postgresql: cannot load the PostgreSQL client library '%s' (install libpq5, or set "
                     "KONTOR_LIBPQ to its path): %s",
                     name, why ? why : "not found");
        }
    } else {
        pq_api api;
        const char *missing = NULL;
        if (pq_resolve(h, &api, &missing)) {
            pq_fn = api;
            pq_loaded = 1;
        } else {
            dlclose(h);
            s = KONTOR_E_IO;
            if (err) {
                pq_io(err);
                snprintf(err->msg, sizeof err->msg,
                         "store: postgresql: '%s' is not the PostgreSQL client library: it has no %s", name, missing);
            }
        }
    }
    pthread_mutex_unlock(&pq_mu);
    return s;
}
