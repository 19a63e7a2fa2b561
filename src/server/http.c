/* http.c: HTTP/1.1 for kontor: reading a request, answering it (the API callback or a static file), the upgrade to WebSocket.
 *
 * The small subset kontor needs: one request a connection (Connection:
 * close), a body only with Content-Length and at most --msg-max, headers
 * under 16 KiB, each refusal a JSON error with its status. The request is
 * read whole before it is looked at.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/tconn.h"

/* ---- HTTP replies ----------------------------------------------------------------- */

const char *reason_of(int status) {
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
    default: return "Internal Server Error";
    }
}

/* After a reply: write it, half-close, wait for the peer to close (so that a
 * reset cannot cut the reply short), at most --join-timeout. */
static void http_finish(tconn *c) {
    c->state = C_DRAIN;
    int w = write_raw(c);
    if (w < 0) {
        conn_close(c);
        return;
    }
    if (w == 1) shutdown(c->fd, SHUT_WR);
    set_events(c, UV_READABLE | (w == 0 ? UV_WRITABLE : 0));
}

static void reply_raw(tconn *c, int status, const char *ctype, const char *body, size_t len, const char *extra,
                      int head_only) {
    char hdr[1024];
    int n = snprintf(hdr, sizeof hdr,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nCache-Control: no-store\r\n"
                     "X-Content-Type-Options: nosniff\r\n%sConnection: close\r\n\r\n",
                     status, reason_of(status), ctype, len, extra ? extra : "");
    if (n < 0 || (size_t)n >= sizeof hdr || append_out(c, hdr, (size_t)n) != 0 ||
        (!head_only && len && append_out(c, body, len) != 0)) {
        conn_close(c);
        return;
    }
    http_finish(c);
}

__attribute__((format(printf, 3, 4))) static void reply_text(tconn *c, int status, const char *fmt, ...) {
    char msg[256], body[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t k = (size_t)snprintf(body, sizeof body, "{\"error\":\"");
    for (const char *p = msg; *p && k + 4 < sizeof body; p++) {
        if (*p == '"' || *p == '\\') body[k++] = '\\';
        body[k++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
    }
    body[k++] = '"';
    body[k++] = '}';
    reply_raw(c, status, "application/json", body, k, NULL, 0);
}

void treply(treq *r, int status, const char *ctype, const char *body, size_t len, const char *extra) {
    if (r->replied) return;
    r->replied = 1;
    reply_raw(r->c, status, ctype, body, len, extra, strcmp(r->method, "HEAD") == 0);
}

static int hexval(int ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* Percent-decode src[0..n) into out (cap bytes with the NUL); -1 if it does not fit or has a NUL. */
static int url_decode(const char *src, size_t n, char *out, size_t cap, int plus_space) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int ch = (unsigned char)src[i];
        if (ch == '%' && i + 2 < n + 0 && hexval(src[i + 1]) >= 0 && hexval(src[i + 2]) >= 0) {
            ch = hexval(src[i + 1]) * 16 + hexval(src[i + 2]);
            i += 2;
        } else if (ch == '+' && plus_space) {
            ch = ' ';
        }
        if (ch == 0 || k + 1 >= cap) return -1;
        out[k++] = (char)ch;
    }
    out[k] = 0;
    return (int)k;
}

int treq_var(const treq *r, const char *name, char *out, size_t cap) {
    size_t nl = strlen(name);
    for (const char *p = r->query; *p;) {
        const char *amp = strchr(p, '&');
        size_t len = amp ? (size_t)(amp - p) : strlen(p);
        if (len > nl && strncmp(p, name, nl) == 0 && p[nl] == '=')
            return url_decode(p + nl + 1, len - nl - 1, out, cap, 1);
        p += len + (amp ? 1 : 0);
    }
    return -1;
}

/* ---- static files ---------------------------------------------------------------- */

static const char *mime_of(const char *path) {
    const char *dot = strrchr(path, '.');
    static const struct { const char *ext, *type; } types[] = {
        {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
        {".svg", "image/svg+xml"}, {".png", "image/png"}, {".ico", "image/x-icon"},
        {".json", "application/json"}, {".txt", "text/plain; charset=utf-8"}, {".woff2", "font/woff2"},
    };
    for (size_t i = 0; dot && i < sizeof types / sizeof *types; i++)
        if (strcasecmp(dot, types[i].ext) == 0) return types[i].type;
    return "application/octet-stream";
}

static void serve_file(tconn *c, const char *method, const char *path) {
    int head = strcmp(method, "HEAD") == 0;
    if (!head && strcmp(method, "GET") != 0) {
        reply_text(c, 405, "'%s': files are read with GET", method);
        return;
    }
    if (path[0] != '/' || strstr(path, "/..") || strchr(path, '\\')) {
        reply_text(c, 404, "'%s' is not a file of the client", path);
        return;
    }
    char full[4200];
    snprintf(full, sizeof full, "%s%s%s", T.o->web, path, path[strlen(path) - 1] == '/' ? "index.html" : "");
    int fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > FILE_MAX) {
        if (fd >= 0) close(fd);
        reply_text(c, 404, "'%s' is not a file of the client", path);
        return;
    }
    char *buf = malloc((size_t)sb.st_size + 1);
    size_t n = 0;
    while (buf && n < (size_t)sb.st_size) {
        ssize_t r = read(fd, buf + n, (size_t)sb.st_size - n);
        if (r <= 0) break;
        n += (size_t)r;
    }
    close(fd);
    if (!buf || n != (size_t)sb.st_size) {
        free(buf);
        reply_text(c, 500, "'%s' could not be read", path);
        return;
    }
    reply_raw(c, 200, mime_of(full), buf, n, NULL, head);
    free(buf);
}


/* ---- HTTP requests --------------------------------------------------------------- */

static const char *header(char *const *names, char *const *vals, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (strcasecmp(names[i], name) == 0) return vals[i];
    return NULL;
}

static int has_token(const char *v, const char *tok) {
    size_t tl = strlen(tok);
    for (const char *p = v; p && *p; p++)
        if (strncasecmp(p, tok, tl) == 0) return 1;
    return 0;
}

/* The request is whole in c->in[0..hlen) plus its body: answer it. */
static void http_dispatch(tconn *c, char *hdr, size_t hlen, size_t body_len) {
    hdr[hlen - 2] = 0; /* the blank line's CRLF */
    char *line_end = strstr(hdr, "\r\n");
    if (line_end) *line_end = 0;
    char *method = hdr, *sp1 = strchr(hdr, ' ');
    char *target = sp1 ? sp1 + 1 : NULL, *sp2 = target ? strchr(target, ' ') : NULL;
    if (!sp1 || !sp2 || strncmp(sp2 + 1, "HTTP/1.", 7) != 0) {
        reply_text(c, 400, "the request line is not 'METHOD /path HTTP/1.1'");
        return;
    }
    *sp1 = *sp2 = 0;
    char *names[64], *vals[64];
    int nh = 0;
    for (char *p = line_end ? line_end + 2 : NULL; p && *p && nh < 64;) {
        char *e = strstr(p, "\r\n");
        if (e) *e = 0;
        char *colon = strchr(p, ':');
        if (colon) {
            *colon = 0;
            char *v = colon + 1;
            while (*v == ' ' || *v == '\t') v++;
            names[nh] = p;
            vals[nh++] = v;
        }
        p = e ? e + 2 : NULL;
    }
    char *q = strchr(target, '?');
    if (q) *q++ = 0;
    char path[2048];
    if (url_decode(target, strlen(target), path, sizeof path, 0) < 0) {
        reply_text(c, 400, "the path is too long or holds a NUL");
        return;
    }
    if (strcmp(path, "/ws") == 0) {
        const char *up = header(names, vals, nh, "Upgrade"), *key = header(names, vals, nh, "Sec-WebSocket-Key");
        const char *ver = header(names, vals, nh, "Sec-WebSocket-Version");
        if (strcmp(method, "GET") != 0 || !has_token(up, "websocket") || !key || !ver || strcmp(ver, "13") != 0) {
            reply_text(c, 400, "/ws is a WebSocket (version 13) endpoint");
            return;
        }
        /* what came after the headers is the first frames */
        size_t rest = c->nin - hlen;
        char keybuf[129];
        snprintf(keybuf, sizeof keybuf, "%s", key);
        memmove(c->in, c->in + hlen, rest);
        c->nin = rest;
        if (!rest) {
            free(c->in);
            c->in = NULL;
            c->capin = 0;
        }
        upgrade(c, keybuf, strlen(keybuf));
        return;
    }
    if (strncmp(path, "/api/", 5) == 0) {
        char *body = hdr + hlen; /* the NUL after the body: c->in has room for it */
        char save = body[body_len];
        body[body_len] = 0;
        treq r = {c, method, path, q ? q : "", body, body_len, c->ae ? c->ae->addr : "?", 0};
        if (T.cb->api) T.cb->api(&r);
        body[body_len] = save;
        if (!r.replied) treply(&r, 500, "application/json", "{\"error\":\"no answer\"}", 21, NULL);
        return;
    }
    serve_file(c, method, path);
}

void http_readable(tconn *c) {
    for (;;) {
        size_t cap = HDR_MAX + (size_t)T.lim->msg_max + 2;
        if (c->nin + 1 >= c->capin) {
            size_t nc = c->capin ? c->capin * 2 : 2048;
            if (nc > cap) nc = cap;
            if (nc <= c->nin + 1) break; /* full: judged below */
            char *b = realloc(c->in, nc);
            if (!b) {
                conn_close(c);
                return;
            }
            c->in = b;
            c->capin = nc;
        }
        ssize_t r = recv(c->fd, c->in + c->nin, c->capin - c->nin - 1, MSG_DONTWAIT);
        if (r > 0) {
            c->nin += (size_t)r;
            continue;
        }
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        conn_close(c); /* end of stream before a whole request, or an error */
        return;
    }
    c->in[c->nin] = 0;
    char *end = strstr(c->in, "\r\n\r\n");
    if (!end) {
        if (c->nin >= HDR_MAX) reply_text(c, 431, "the request's headers are over 16 KiB");
        return;
    }
    size_t hlen = (size_t)(end - c->in) + 4;
    if (hlen > HDR_MAX) {
        reply_text(c, 431, "the request's headers are over 16 KiB");
        return;
    }
    /* the body: Content-Length only, at most --msg-max */
    long clen = 0;
    for (char *p = strstr(c->in, "\r\n"); p && p < end; p = strstr(p + 2, "\r\n")) {
        if (strncasecmp(p + 2, "Content-Length:", 15) == 0) {
            char *e;
            clen = strtol(p + 17, &e, 10);
            if (clen < 0) clen = -1;
        } else if (strncasecmp(p + 2, "Transfer-Encoding:", 18) == 0) {
            reply_text(c, 411, "a body needs a Content-Length (no chunked encoding)");
            return;
        }
    }
    if (clen < 0 || clen > T.lim->msg_max) {
        reply_text(c, 413, "request body is over %d bytes (--msg-max)", T.lim->msg_max);
        return;
    }
    if (c->nin < hlen + (size_t)clen) return; /* the rest of the body is on its way */
    set_events(c, 0);
    http_dispatch(c, c->in, hlen, (size_t)clen);
}

