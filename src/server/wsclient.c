/* wsclient.c: the WebSocket and HTTP client of wsclient.h.
 *
 * Blocking connect and handshake (loopback answers at once), then frames in
 * and out of a growing buffer so that a caller may poll() many sockets. The
 * masking key is fixed: masking protects proxies from forged requests, and
 * this client only ever talks to a server on the same machine.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server/wsclient.h"

static int dial(const char *host, int port) {
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    char ps[16];
    snprintf(ps, sizeof ps, "%d", port);
    if (getaddrinfo(host, ps, &hints, &res) != 0) return -1;
    int fd = -1;
    for (struct addrinfo *a = res; a; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd < 0) continue;
        if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) break;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd >= 0) {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    return fd;
}

static int write_all(int fd, const void *data, size_t len) {
    const char *p = data;
    while (len) {
        ssize_t r = send(fd, p, len, MSG_NOSIGNAL);
        if (r < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                struct pollfd pf = {fd, POLLOUT, 0};
                poll(&pf, 1, 1000);
                continue;
            }
            return -1;
        }
        p += r;
        len -= (size_t)r;
    }
    return 0;
}

static int grow(wsc *w, size_t need) {
    if (w->n + need <= w->cap) return 0;
    size_t cap = w->cap ? w->cap : 4096;
    while (cap < w->n + need) cap *= 2;
    char *b = realloc(w->buf, cap);
    if (!b) return -1;
    w->buf = b;
    w->cap = cap;
    return 0;
}

int wsc_connect(wsc *w, const char *host, int port, const char *path, char *err, size_t errcap) {
    memset(w, 0, sizeof *w);
    w->fd = dial(host, port);
    if (w->fd < 0) {
        snprintf(err, errcap, "cannot connect to %s:%d", host, port);
        return -1;
    }
    char req[512];
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
                     path, host, port);
    if (write_all(w->fd, req, (size_t)n) != 0) {
        snprintf(err, errcap, "handshake with %s:%d: cannot send", host, port);
        wsc_close(w);
        return -1;
    }
    /* read the response head; anything after it is already frames */
    for (;;) {
        if (grow(w, 1024) != 0) break;
        struct pollfd pf = {w->fd, POLLIN, 0};
        if (poll(&pf, 1, 5000) <= 0) break;
        ssize_t r = recv(w->fd, w->buf + w->n, w->cap - w->n - 1, 0);
        if (r <= 0) break;
        w->n += (size_t)r;
        w->buf[w->n] = 0;
        char *end = strstr(w->buf, "\r\n\r\n");
        if (!end) continue;
        if (strncmp(w->buf, "HTTP/1.1 101", 12) != 0) {
            snprintf(err, errcap, "handshake refused: %.60s", w->buf);
            wsc_close(w);
            return -1;
        }
        size_t head = (size_t)(end + 4 - w->buf);
        memmove(w->buf, w->buf + head, w->n - head);
        w->n -= head;
        return 0;
    }
    snprintf(err, errcap, "handshake with %s:%d: no answer", host, port);
    wsc_close(w);
    return -1;
}

int wsc_send(wsc *w, int opcode, const void *data, size_t len) {
    unsigned char head[14];
    size_t h = 0;
    static const unsigned char key[4] = {0x12, 0x34, 0x56, 0x78};
    head[h++] = (unsigned char)(0x80 | (opcode & 0x0F));
    if (len < 126) {
        head[h++] = (unsigned char)(0x80 | len);
    } else if (len < 65536) {
        head[h++] = 0x80 | 126;
        head[h++] = (unsigned char)(len >> 8);
        head[h++] = (unsigned char)len;
    } else {
        head[h++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--) head[h++] = (unsigned char)((uint64_t)len >> (8 * i));
    }
    memcpy(head + h, key, 4);
    h += 4;
    unsigned char *frame = malloc(h + len);
    if (!frame) return -1;
    memcpy(frame, head, h);
    const unsigned char *d = data;
    for (size_t i = 0; i < len; i++) frame[h + i] = d[i] ^ key[i & 3];
    int r = write_all(w->fd, frame, h + len);
    free(frame);
    return r;
}

int wsc_send_raw(wsc *w, const void *data, size_t len) { return write_all(w->fd, data, len); }

long wsc_fill(wsc *w) {
    if (grow(w, 65536) != 0) return -1;
    ssize_t r = recv(w->fd, w->buf + w->n, w->cap - w->n, MSG_DONTWAIT);
    if (r < 0) return (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) ? -2 : -1;
    w->n += (size_t)r;
    return (long)r;
}

/* The frame at buf + off: 1 with its header length and payload length, 0
 * when it is not whole yet, -1 on a protocol error. */
static int frame_at(const wsc *w, size_t off, size_t *hlen, uint64_t *plen_out) {
    const unsigned char *b = (const unsigned char *)w->buf + off;
    size_t have = w->n - off;
    if (have < 2) return 0;
    size_t h = 2;
    uint64_t plen = b[1] & 0x7F;
    if (b[1] & 0x80) return -1; /* servers do not mask */
    if (plen == 126) {
        if (have < 4) return 0;
        plen = ((uint64_t)b[2] << 8) | b[3];
        h = 4;
    } else if (plen == 127) {
        if (have < 10) return 0;
        plen = 0;
        for (int i = 0; i < 8; i++) plen = (plen << 8) | b[2 + i];
        h = 10;
        if (plen > (64u << 20)) return -1;
    }
    if (have < h + plen) return 0;
    *hlen = h;
    *plen_out = plen;
    return 1;
}

int wsc_peek(wsc *w, size_t *off, int *opcode, const char **msg, size_t *len) {
    size_t h;
    uint64_t plen;
    int f = frame_at(w, *off, &h, &plen);
    if (f != 1) return f;
    *opcode = (unsigned char)w->buf[*off] & 0x0F;
    *msg = w->buf + *off + h;
    *len = (size_t)plen;
    *off += h + (size_t)plen;
    /* answer the server's keep-alive ping at once (it drops peers that do not) */
    if (*opcode == 9) wsc_send(w, 10, *msg, (size_t)plen);
    return 1;
}

void wsc_consume(wsc *w, size_t off) {
    if (!off) return;
    memmove(w->buf, w->buf + off, w->n - off);
    w->n -= off;
}

int wsc_take(wsc *w, int *opcode, char **msg, size_t *len) {
    const unsigned char *b = (const unsigned char *)w->buf;
    size_t h;
    uint64_t plen;
    int f = frame_at(w, 0, &h, &plen);
    if (f != 1) return f;
    char *m = malloc((size_t)plen + 1);
    if (!m) return -1;
    memcpy(m, w->buf + h, (size_t)plen);
    m[plen] = 0;
    *opcode = b[0] & 0x0F;
    *msg = m;
    *len = (size_t)plen;
    memmove(w->buf, w->buf + h + plen, w->n - h - (size_t)plen);
    w->n -= h + (size_t)plen;
    /* answer the server's keep-alive ping at once (it drops peers that do not) */
    if (*opcode == 9) wsc_send(w, 10, m, (size_t)plen);
    return 1;
}

int wsc_recv(wsc *w, int timeout_ms, int *opcode, char **msg, size_t *len) {
    for (;;) {
        int t = wsc_take(w, opcode, msg, len);
        if (t != 0) return t;
        struct pollfd pf = {w->fd, POLLIN, 0};
        int p = poll(&pf, 1, timeout_ms);
        if (p == 0) return 0;
        if (p < 0 && errno != EINTR) return -1;
        long r = wsc_fill(w);
        if (r == 0 || r == -1) return -1;
    }
}

void wsc_close(wsc *w) {
    if (w->fd >= 0) close(w->fd);
    w->fd = -1;
    free(w->buf);
    w->buf = NULL;
    w->n = w->cap = 0;
}

int http_request(const char *host, int port, const char *method, const char *path, const char *body,
                 char **resp) {
    *resp = NULL;
    int fd = dial(host, port);
    if (fd < 0) return -1;
    size_t blen = body ? strlen(body) : 0;
    char head[512];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n"
                     "Connection: close\r\n\r\n",
                     method, path, host, port, blen);
    if (write_all(fd, head, (size_t)n) != 0 || (blen && write_all(fd, body, blen) != 0)) {
        close(fd);
        return -1;
    }
    wsc w = {fd, NULL, 0, 0};
    for (;;) {
        struct pollfd pf = {fd, POLLIN, 0};
        if (poll(&pf, 1, 10000) <= 0) break;
        if (grow(&w, 65536) != 0) break;
        ssize_t r = recv(fd, w.buf + w.n, w.cap - w.n - 1, 0);
        if (r <= 0) break;
        w.n += (size_t)r;
    }
    close(fd);
    if (!w.buf) return -1;
    w.buf[w.n] = 0;
    int status = -1;
    char *sep = strstr(w.buf, "\r\n\r\n");
    if (sscanf(w.buf, "HTTP/1.%*d %d", &status) != 1 || !sep) {
        free(w.buf);
        return -1;
    }
    size_t off = (size_t)(sep + 4 - w.buf);
    memmove(w.buf, w.buf + off, w.n - off + 1);
    *resp = w.buf;
    return status;
}
