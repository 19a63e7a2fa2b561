/* pgtmp.h: a test's own PostgreSQL server (tests/pgtmp.sh), for the store and cluster tests.
 *
 * pgtmp_start() makes a temporary directory, picks a free port on
 * 127.0.0.1, runs `sh tests/pgtmp.sh start` (initdb, pg_ctl as an
 * unprivileged user) and fills the URL; pgtmp_stop() stops it and removes
 * the directory. A PostgreSQL that is missing or does not start fails the
 * test (never a skip).
 */
#ifndef KONTOR_TESTS_PGTMP_H
#define KONTOR_TESTS_PGTMP_H
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct pgtmp {
    char dir[64];
    char url[160];
    int up;
} pgtmp;

/* A port on 127.0.0.1 that was free a moment ago. */
static inline int pgtmp_free_port(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = -1;
    if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 && getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    if (fd >= 0) close(fd);
    return port;
}

/* 0 on success (p->url set), -1 (with the reason on stderr) otherwise. */
static inline int pgtmp_start(pgtmp *p) {
    memset(p, 0, sizeof *p);
    snprintf(p->dir, sizeof p->dir, "/tmp/kontor-pg-XXXXXX");
    if (!mkdtemp(p->dir)) return -1;
    int port = pgtmp_free_port();
    if (port <= 0) return -1;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "sh tests/pgtmp.sh start %s %d", p->dir, port);
    FILE *f = popen(cmd, "r");
    if (!f) return -1;
    if (!fgets(p->url, sizeof p->url, f)) p->url[0] = 0;
    int rc = pclose(f);
    p->url[strcspn(p->url, "\n")] = 0;
    if (rc != 0 || strncmp(p->url, "postgresql://", 13) != 0) {
        fprintf(stderr, "pgtmp: PostgreSQL did not start (%s)\n", cmd);
        return -1;
    }
    p->up = 1;
    return 0;
}

static inline void pgtmp_stop(pgtmp *p) {
    if (!p->dir[0]) return;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "sh tests/pgtmp.sh stop %s", p->dir);
    if (system(cmd) != 0) fprintf(stderr, "pgtmp: stopping %s failed\n", p->dir);
    p->up = 0;
    p->dir[0] = 0;
}

#endif
