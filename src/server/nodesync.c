/* nodesync.c: the listener of nodesync.h: a thread, its own libpq connection, LISTEN kontor.
 *
 * It waits on the connection's socket (poll, 200 ms, so that a stop is seen
 * soon), reads what arrived (PQconsumeInput) and hands each notice to the
 * server. The payload comes from our own database but is still checked for
 * shape before use (an id of letters and digits, a count).
 */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/nodesync.h"
#include "server/pq.h"

static struct {
    pthread_t th;
    int running;
    volatile int stop;
    char *url;
    nodesync_fn fn;
    PGconn *c;
} N;

int nodesync_parse(const char *payload, char *id, size_t idcap, int *nply, int *saved) {
    size_t n = 0;
    while (payload[n] && payload[n] != ' ') {
        char ch = payload[n];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) || n + 1 >= idcap) return 0;
        id[n] = ch;
        n++;
    }
    if (n == 0 || payload[n] != ' ') return 0;
    id[n] = 0;
    char *end;
    long v = strtol(payload + n + 1, &end, 10);
    if (end == payload + n + 1 || v < 0 || v > 1000000) return 0;
    *nply = (int)v;
    *saved = 0;
    if (*end == ' ' && end[1] == 's' && end[2] == 0) *saved = 1;
    else if (*end != 0) return 0;
    return 1;
}

static PGconn *connect_listen(void) {
    PGconn *c = PQconnectdb(N.url);
    if (PQstatus(c) == CONNECTION_OK) {
        PGresult *r = PQexec(c, "LISTEN kontor");
        int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        PQclear(r);
        if (ok) return c;
    }
    fprintf(stderr, "kontor serve: node sync: %s", PQerrorMessage(c));
    PQfinish(c);
    return NULL;
}

static void *listener(void *arg) {
    (void)arg;
    while (!N.stop) {
        if (!N.c) {
            struct timespec ts = {0, 300 * 1000000L};
            nanosleep(&ts, NULL);
            N.c = connect_listen();
            if (N.c) N.fn(NULL, 0, 1); /* notices may have been missed */
            continue;
        }
        struct pollfd p = {PQsocket(N.c), POLLIN, 0};
        int k = poll(&p, 1, 200);
        if (k < 0) continue;
        if (k > 0 && !PQconsumeInput(N.c)) {
            fprintf(stderr, "kontor serve: node sync: %s", PQerrorMessage(N.c));
            PQfinish(N.c);
            N.c = NULL;
            continue;
        }
        PGnotify *nt;
        while ((nt = PQnotifies(N.c)) != NULL) {
            char id[40];
            int nply, saved;
            if (nodesync_parse(nt->extra, id, sizeof id, &nply, &saved)) N.fn(id, nply, saved);
            PQfreemem(nt);
        }
    }
    return NULL;
}

int nodesync_start(const char *url, nodesync_fn fn, kontor_error *err) {
    if (pq_load(err) != KONTOR_OK) return -1;
    N.url = strdup(url);
    N.fn = fn;
    N.stop = 0;
    N.c = N.url ? connect_listen() : NULL;
    if (!N.c) {
        err->code = KONTOR_E_IO;
        snprintf(err->msg, sizeof err->msg, "node sync: cannot LISTEN on the database");
        free(N.url);
        N.url = NULL;
        return -1;
    }
    if (pthread_create(&N.th, NULL, listener, NULL) != 0) {
        PQfinish(N.c);
        N.c = NULL;
        free(N.url);
        N.url = NULL;
        err->code = KONTOR_E_IO;
        snprintf(err->msg, sizeof err->msg, "node sync: cannot start its thread");
        return -1;
    }
    N.running = 1;
    return 0;
}

void nodesync_stop(void) {
    if (!N.running) return;
    N.stop = 1;
    pthread_join(N.th, NULL);
    PQfinish(N.c);
    free(N.url);
    memset(&N, 0, sizeof N);
}
