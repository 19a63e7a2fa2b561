/* wsclient.h: a small WebSocket and HTTP client, for the load benchmark and the server tests.
 *
 * Just enough of RFC 6455 to talk to kontor serve over loopback: connect and
 * handshake, send masked frames, take whole unfragmented frames out of a
 * receive buffer. The socket can be polled by the caller (the load benchmark
 * keeps thousands open on one thread); wsc_recv waits for one message. It is
 * not a general client (no TLS, no fragmented messages, no redirects).
 */
#ifndef KONTOR_SERVER_WSCLIENT_H
#define KONTOR_SERVER_WSCLIENT_H

#include <stddef.h>

typedef struct wsc {
    int fd;
    char *buf;       /* received bytes not yet taken as frames */
    size_t n, cap;
} wsc;

/* Connect to host:port and upgrade path to a WebSocket. Returns 0, or -1
 * with err filled. */
int wsc_connect(wsc *w, const char *host, int port, const char *path, char *err, size_t errcap);
/* Send one frame (opcode 1 text, 2 binary, 8 close, 9 ping). 0 or -1. */
int wsc_send(wsc *w, int opcode, const void *data, size_t len);
/* Send raw bytes as they are (for tests of malformed frames). */
int wsc_send_raw(wsc *w, const void *data, size_t len);
/* Read what the socket has into the buffer (one read). Returns the bytes
 * read, 0 at end of stream, -1 on error (EAGAIN included: returns -2). */
long wsc_fill(wsc *w);
/* Take one whole frame from the buffer: 1 and *msg (malloc'd,
 * NUL-terminated, caller frees), 0 if none is whole yet, -1 on a protocol
 * error. A ping is answered with its pong here (and still returned). */
int wsc_take(wsc *w, int *opcode, char **msg, size_t *len);
/* Like wsc_take, without a copy: the frame at buffer offset *off, its
 * payload in place (not NUL-terminated, valid until the next wsc_fill or
 * wsc_consume); *off moves past it. Then wsc_consume(w, off) drops what was
 * taken. */
int wsc_peek(wsc *w, size_t *off, int *opcode, const char **msg, size_t *len);
void wsc_consume(wsc *w, size_t off);
/* Wait up to timeout_ms for one frame. 1, 0 on timeout, -1 on error or end. */
int wsc_recv(wsc *w, int timeout_ms, int *opcode, char **msg, size_t *len);
void wsc_close(wsc *w);

/* One HTTP/1.1 request (Connection: close). Returns the status code, or -1
 * with nothing allocated; *resp is the malloc'd body. */
int http_request(const char *host, int port, const char *method, const char *path, const char *body,
                 char **resp);

#endif
