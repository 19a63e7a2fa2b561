/* websocket.c: a WebSocket connection: frames in (wslay, the size checked from the header), the outbound queue, frames out.
 *
 * wslay parses and writes frames; its own buffering of a message would
 * allocate the length a frame announces, so it is off and messages are
 * assembled here, each frame's length checked against --msg-max before a
 * byte of its payload is kept. Other threads queue messages with
 * tconn_send() (under out_mu, bounded by --out-max) and wake the loop,
 * which moves them to wslay and writes (ws_flush).
 */
#define _GNU_SOURCE /* SCM_TIMESTAMPNS */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "server/latency.h"
#include "server/sha1.h"
#include "server/tconn.h"

/* ---- WebSocket ---------------------------------------------------------------- */

static ssize_t ws_recv_cb(wslay_event_context_ptr ctx, uint8_t *buf, size_t len, int flags, void *ud) {
    (void)flags;
    tconn *c = ud;
    if (c->too_big || c->close_code) {
        wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
        return -1;
    }
    if (c->nin) { /* bytes that came with the handshake */
        size_t k = c->nin < len ? c->nin : len;
        memcpy(buf, c->in, k);
        memmove(c->in, c->in + k, c->nin - k);
        c->nin -= k;
        if (!c->nin) { /* the request buffer is not needed any more */
            free(c->in);
            c->in = NULL;
            c->capin = 0;
        }
        return (ssize_t)k;
    }
    for (;;) {
        /* with the kernel's receive timestamp (SO_TIMESTAMPNS, set at the
         * upgrade): how long the bytes waited for the loop (latency.h) */
        struct iovec iov = {buf, len};
        union {
            char b[CMSG_SPACE(sizeof(struct timespec))];
            struct cmsghdr align;
        } cm;
        struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cm.b, .msg_controllen = sizeof cm.b};
        ssize_t r = recvmsg(c->fd, &mh, MSG_DONTWAIT);
        if (r > 0) {
            uint64_t now = lat_now_ns();
            c->rx_ns = now;
            for (struct cmsghdr *h = CMSG_FIRSTHDR(&mh); h; h = CMSG_NXTHDR(&mh, h))
                if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_TIMESTAMPNS) {
                    struct timespec ts;
                    memcpy(&ts, CMSG_DATA(h), sizeof ts);
                    uint64_t k = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
                    if (k && k <= now) c->rx_ns = k;
                }
            lat_add(&lat_wait, (now - c->rx_ns) / 1000);
            c->last_rx = now_s();
            c->ping_at = 0;
            return r;
        }
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
        else wslay_event_set_error(ctx, WSLAY_ERR_CALLBACK_FAILURE); /* end of stream or error */
        return -1;
    }
}

static ssize_t ws_send_cb(wslay_event_context_ptr ctx, const uint8_t *data, size_t len, int flags, void *ud) {
    (void)flags;
    tconn *c = ud;
    for (;;) {
        ssize_t r = send(c->fd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (r >= 0) return r;
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
        else wslay_event_set_error(ctx, WSLAY_ERR_CALLBACK_FAILURE);
        return -1;
    }
}

/* A frame starts: the length in its header is checked here, before its
 * payload is read; an oversized one stops reading at once. */
static void ws_frame_start(wslay_event_context_ptr ctx, const struct wslay_event_on_frame_recv_start_arg *a, void *ud) {
    tconn *c = ud;
    c->in_ctrl = a->opcode >= 8;
    if (c->in_ctrl) return;
    if (a->opcode != 0) { /* not a continuation: a new message */
        c->nmsg = 0;
        c->msg_bin = a->opcode == WSLAY_BINARY_FRAME;
    }
    c->frame_fin = a->fin;
    if (c->nmsg + a->payload_length > (uint64_t)T.lim->msg_max) {
        c->too_big = 1;
        c->big_len = c->nmsg + a->payload_length;
        wslay_event_shutdown_read(ctx);
    }
}

static void ws_frame_chunk(wslay_event_context_ptr ctx, const struct wslay_event_on_frame_recv_chunk_arg *a,
                           void *ud) {
    (void)ctx;
    tconn *c = ud;
    if (c->in_ctrl || c->too_big) return;
    if (c->nmsg + a->data_length + 1 > c->capmsg) {
        size_t cap = c->capmsg ? c->capmsg : 512;
        while (cap < c->nmsg + a->data_length + 1) cap *= 2;
        char *m = realloc(c->msg, cap);
        if (!m) {
            c->too_big = 1;
            return;
        }
        c->msg = m;
        c->capmsg = cap;
    }
    memcpy(c->msg + c->nmsg, a->data, a->data_length);
    c->nmsg += a->data_length;
}

static void ws_frame_end(wslay_event_context_ptr ctx, void *ud) {
    (void)ctx;
    tconn *c = ud;
    if (c->in_ctrl || c->too_big || !c->frame_fin || c->close_code) return;
    if (!c->msg) { /* an empty message */
        c->msg = malloc(512);
        if (!c->msg) return;
        c->capmsg = 512;
    }
    c->msg[c->nmsg] = 0;
    if (T.cb->ws_message && c->ud) T.cb->ws_message(c, c->ud, c->msg_bin, c->msg, c->nmsg);
    c->nmsg = 0;
    /* keep a small buffer, give a large one back */
    if (c->capmsg > 4096) {
        free(c->msg);
        c->msg = NULL;
        c->capmsg = 0;
    }
}

static void ws_msg(wslay_event_context_ptr ctx, const struct wslay_event_on_msg_recv_arg *a, void *ud) {
    (void)ctx;
    (void)a;
    (void)ud; /* data messages are taken frame by frame; ping, pong and close wslay answers itself */
}

/* Write c's frames and wslay's control frames, and take the queue other
 * threads filled; close c when it is done or has failed. Loop thread.
 *
 * Text frames are framed here, once, straight into the queue's buffer
 * (tconn_send), which then becomes c->out whole: no copy per recipient
 * into wslay and no allocation per message (wslay would copy each message
 * again). wslay still writes the control frames (its pongs, our pings, the
 * close), and the two never interleave inside a frame: wslay is asked to
 * write only when c->out is empty, and the queue moves to c->out only when
 * wslay has nothing left to write. */
void ws_flush(tconn *c) {
    if (c->closing) return;
    pthread_mutex_lock(&T.out_mu);
    int overflow = c->overflow;
    pthread_mutex_unlock(&T.out_mu);
    if (overflow) { /* a reader that fell behind: it reads nothing, so no close frame either */
        conn_close(c);
        return;
    }
    for (;;) {
        if (c->nout) {
            int w = write_raw(c);
            if (w < 0) {
                conn_close(c);
                return;
            }
            if (w == 0) break; /* the socket is full */
        }
        if (wslay_event_want_write(c->ws)) {
            if (wslay_event_send(c->ws) != 0) {
                conn_close(c);
                return;
            }
            if (wslay_event_want_write(c->ws)) break;
        }
        pthread_mutex_lock(&T.out_mu);
        int took = 0;
        overflow = c->overflow;
        if (!overflow && c->qn && !c->close_queued) {
            c->out = c->qb;
            c->nout = c->qn;
            c->outoff = 0;
            took = 1;
        } else {
            free(c->qb); /* (after the close frame nothing more is sent) */
        }
        c->qb = NULL;
        c->qn = c->qcap = 0;
        pthread_mutex_unlock(&T.out_mu);
        if (overflow) {
            conn_close(c);
            return;
        }
        if (!took) break;
    }
    if (c->close_code && !c->close_queued && !c->nout && !wslay_event_want_write(c->ws)) {
        c->close_queued = 1;
        wslay_event_queue_close(c->ws, (uint16_t)c->close_code, (const uint8_t *)c->close_reason,
                                strlen(c->close_reason));
        wslay_event_shutdown_read(c->ws);
        if (wslay_event_send(c->ws) != 0) {
            conn_close(c);
            return;
        }
    }
    if (c->dec_rx_ns && !c->nout && !wslay_event_want_write(c->ws)) {
        /* a decision's acknowledgement is in the kernel's hands */
        uint64_t now = lat_now_ns();
        lat_add(&lat_decision, now > c->dec_rx_ns ? (now - c->dec_rx_ns) / 1000 : 0);
        c->dec_rx_ns = 0;
    }
    size_t held = c->nout - c->outoff + wslay_event_get_queued_msg_length(c->ws);
    pthread_mutex_lock(&T.out_mu);
    c->inflight = held;
    size_t queued = c->qn;
    pthread_mutex_unlock(&T.out_mu);
    if (held + queued > (size_t)T.lim->out_max) { /* the reader falls behind: drop it */
        conn_close(c);
        return;
    }
    int want_w = c->nout || wslay_event_want_write(c->ws);
    int want_r = wslay_event_want_read(c->ws) && !c->too_big && !c->close_code;
    if (!want_w && !want_r) {
        /* done: half-close and read what the peer still sends until it
         * closes (closing at once with unread bytes would reset the
         * connection and could lose the last error and the close frame) */
        detach(c);
        c->state = C_DRAIN;
        c->opened = now_s();
        shutdown(c->fd, SHUT_WR);
        set_events(c, UV_READABLE);
        return;
    }
    set_events(c, (want_r ? UV_READABLE : 0) | (want_w ? UV_WRITABLE : 0));
}

void queue_error(tconn *c, const char *code, const char *text) {
    char buf[512];
    int n = snprintf(buf, sizeof buf, "{\"type\":\"error\",\"code\":\"%s\",\"error\":\"%s\"}", code, text);
    if (n > 0 && (size_t)n < sizeof buf) tconn_send(c, buf, (size_t)n);
}

void ws_readable(tconn *c) {
    if (wslay_event_recv(c->ws) != 0) {
        conn_close(c);
        return;
    }
    if (c->closing) return;
    if (c->too_big == 1) {
        c->too_big = 2;
        char text[200];
        snprintf(text, sizeof text, "message of %llu bytes is over the limit of %d bytes (--msg-max); closing",
                 (unsigned long long)c->big_len, T.lim->msg_max);
        queue_error(c, "too_large", text);
        tconn_close(c, 1009, "message too big");
    }
    ws_flush(c);
}

void upgrade(tconn *c, const char *key, size_t keylen) {
    char acc[29];
    ws_accept_key(key, keylen, acc);
    char hdr[256];
    int n = snprintf(hdr, sizeof hdr,
                     "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Accept: %s\r\n\r\n",
                     acc);
    struct wslay_event_callbacks cbs = {ws_recv_cb, ws_send_cb, NULL, ws_frame_start, ws_frame_chunk, ws_frame_end,
                                        ws_msg};
    if (append_out(c, hdr, (size_t)n) != 0 || wslay_event_context_server_init(&c->ws, &cbs, c) != 0) {
        conn_close(c);
        return;
    }
    wslay_event_config_set_no_buffering(c->ws, 1);
    int one = 1; /* the receive timestamps of latency.h */
    setsockopt(c->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    int sb = SNDBUF < T.lim->out_max ? SNDBUF : T.lim->out_max;
    setsockopt(c->fd, SOL_SOCKET, SO_SNDBUF, &sb, sizeof sb);
    c->state = C_WS;
    c->last_rx = now_s();
    c->ud = T.cb->ws_open ? T.cb->ws_open(c) : NULL;
    ws_flush(c);
}


/* ---- the outbound queue --------------------------------------------------------------- */

int tconn_send(tconn *c, const char *text, size_t len) {
    /* a server's text frame: FIN and opcode 1, unmasked, the length in 7,
     * 16 or 64 bits (RFC 6455 5.2) */
    unsigned char head[10];
    size_t h = 0;
    head[h++] = 0x81;
    if (len < 126) {
        head[h++] = (unsigned char)len;
    } else if (len < 65536) {
        head[h++] = 126;
        head[h++] = (unsigned char)(len >> 8);
        head[h++] = (unsigned char)len;
    } else {
        head[h++] = 127;
        for (int i = 7; i >= 0; i--) head[h++] = (unsigned char)((uint64_t)len >> (8 * i));
    }
    pthread_mutex_lock(&T.out_mu);
    int rc = 0, wake = 0;
    if (c->dead || c->overflow) {
        rc = -1;
    } else if (c->qn + c->inflight + len > (size_t)T.lim->out_max + OUT_SLACK) {
        c->overflow = 1;
        rc = -1;
    } else {
        if (c->qn + h + len > c->qcap) {
            size_t cap = c->qcap ? c->qcap : 1024;
            while (cap < c->qn + h + len) cap *= 2;
            char *b = realloc(c->qb, cap);
            if (!b) {
                c->overflow = 1;
                rc = -1;
            } else {
                c->qb = b;
                c->qcap = cap;
            }
        }
        if (rc == 0) {
            memcpy(c->qb + c->qn, head, h);
            memcpy(c->qb + c->qn + h, text, len);
            c->qn += h + len;
        }
    }
    if (!c->dead && !c->dirty) {
        c->dirty = 1;
        c->dprev = NULL;
        c->dnext = T.dirty;
        if (T.dirty) T.dirty->dprev = c;
        wake = T.dirty == NULL;
        T.dirty = c;
    }
    pthread_mutex_unlock(&T.out_mu);
    if (wake) uv_async_send(&T.wake);
    return rc;
}

void tconn_close(tconn *c, int code, const char *reason) {
    if (c->close_code) return;
    c->close_code = code;
    c->close_at = now_s();
    snprintf(c->close_reason, sizeof c->close_reason, "%s", reason);
    if (c->ws) wslay_event_shutdown_read(c->ws);
    pthread_mutex_lock(&T.out_mu);
    int wake = 0;
    if (!c->dead && !c->dirty) {
        c->dirty = 1;
        c->dprev = NULL;
        c->dnext = T.dirty;
        if (T.dirty) T.dirty->dprev = c;
        wake = T.dirty == NULL;
        T.dirty = c;
    }
    pthread_mutex_unlock(&T.out_mu);
    if (wake) uv_async_send(&T.wake);
}

void tconn_joined(tconn *c) { c->joined = 1; }

void tconn_decided(tconn *c) { c->dec_rx_ns = c->rx_ns ? c->rx_ns : lat_now_ns(); }

void on_wake(uv_async_t *a) {
    (void)a;
    for (;;) {
        pthread_mutex_lock(&T.out_mu);
        tconn *c = T.dirty;
        if (c) {
            T.dirty = c->dnext;
            if (T.dirty) T.dirty->dprev = NULL;
            c->dirty = 0;
            c->dnext = c->dprev = NULL;
        }
        pthread_mutex_unlock(&T.out_mu);
        if (!c) return;
        if (c->state == C_WS) ws_flush(c);
    }
}
