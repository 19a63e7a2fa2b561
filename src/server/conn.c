/* conn.c: one connection of the transport: its event mask, its raw output, closing it.
 *
 * The bottom of the transport's files (tconn.h lists them): what HTTP and
 * WebSocket both do with a socket. Closing is in two steps: detach() makes
 * the server forget the connection and stops other threads from queueing to
 * it (under out_mu); then libuv closes the handle and on_closed frees it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server/tconn.h"

/* ---- connections ---------------------------------------------------------------- */

void set_events(tconn *c, int ev) {
    if (c->closing || ev == c->events) return;
    c->events = ev;
    if (ev) uv_poll_start(&c->poll, ev, T.poll_cb);
    else uv_poll_stop(&c->poll);
}

static void on_closed(uv_handle_t *h) {
    tconn *c = h->data;
    close(c->fd);
    if (c->ws) wslay_event_context_free(c->ws);
    free(c->in);
    free(c->out);
    free(c->msg);
    free(c);
}

/* The server forgets c (ws_close) and no thread can queue to it any more. */
void detach(tconn *c) {
    if (c->ud && T.cb->ws_close) T.cb->ws_close(c, c->ud);
    c->ud = NULL;
    pthread_mutex_lock(&T.out_mu);
    if (c->dirty) {
        if (c->dprev) c->dprev->dnext = c->dnext;
        else T.dirty = c->dnext;
        if (c->dnext) c->dnext->dprev = c->dprev;
        c->dirty = 0;
    }
    free(c->qb);
    c->qb = NULL;
    c->qn = c->qcap = 0;
    c->dead = 1;
    pthread_mutex_unlock(&T.out_mu);
}

void conn_close(tconn *c) {
    if (c->closing) return;
    detach(c);
    c->closing = 1;
    if (c->prev) c->prev->next = c->next;
    else T.conns = c->next;
    if (c->next) c->next->prev = c->prev;
    if (c->ae) c->ae->conns--;
    T.nconns--;
    uv_poll_stop(&c->poll);
    uv_close((uv_handle_t *)&c->poll, on_closed);
}

/* Write c->out; 1 when all is written, 0 when the socket is full, -1 on error. */
int write_raw(tconn *c) {
    while (c->outoff < c->nout) {
        ssize_t r = send(c->fd, c->out + c->outoff, c->nout - c->outoff, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (r < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
            return -1;
        }
        c->outoff += (size_t)r;
    }
    free(c->out);
    c->out = NULL;
    c->nout = c->outoff = 0;
    return 1;
}

int append_out(tconn *c, const char *data, size_t len) {
    char *b = realloc(c->out, c->nout + len);
    if (!b) return -1;
    memcpy(b + c->nout, data, len);
    c->out = b;
    c->nout += len;
    return 0;
}
