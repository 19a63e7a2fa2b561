/* jtext.h: compact JSON text written into a reusable buffer: a jansson tree dumped, or a message written directly.
 *
 * The same bytes as json_dumps(o, JSON_COMPACT) (tests/test_jtext.c checks
 * it on every view of whole games), at a fraction of the cost: json_dumps
 * formats every integer with snprintf and grows a fresh buffer through a
 * callback for each message, and the state messages (a board, areas,
 * hands, legal decisions: hundreds of integers) made it more than half of
 * the server's instructions (docs/server.md, "Load benchmark").
 *
 * The writer (jt_*) goes one step further: the server's state message is
 * written straight from the view into the buffer (sjtext.c), with no tree
 * at all, so a message costs no allocation once the buffer has grown. It
 * puts the commas itself: every value written after another value of the
 * same array or object gets one, so the callers write keys and values in
 * order and nothing else. A write that does not fit in memory marks the
 * text incomplete (oom) and the writes after it do nothing; jt_end says so.
 */
#ifndef KONTOR_SERVER_JTEXT_H
#define KONTOR_SERVER_JTEXT_H

#include <stddef.h>
#include <string.h>

#include <jansson.h>

/* A growable text buffer: reset it (jt_reset) and write again; its memory
 * is kept between messages. Zero-initialise; jtext_release frees. */
typedef struct jtext {
    char *buf;
    size_t len, cap;
    int oom; /* a write did not fit in memory: the text is incomplete */
    int sep; /* the writer: a value was written last, the next one needs a comma */
} jtext;

/* Append o as compact JSON (NUL-terminated after len); 0, or -1 out of memory. */
int jtext_dump(jtext *t, const json_t *o);
void jtext_release(jtext *t);

/* ---- the writer ---------------------------------------------------------------- */

/* Room for more bytes and the final NUL; 0, or -1 (and oom) out of memory. */
int jtext_grow(jtext *t, size_t more);

static inline void jt_reset(jtext *t) {
    t->len = 0;
    t->oom = 0;
    t->sep = 0;
}

/* n bytes as they are (no comma, no escaping). */
static inline void jt_raw(jtext *t, const char *s, size_t n) {
    if (t->len + n + 1 > t->cap && jtext_grow(t, n)) return;
    memcpy(t->buf + t->len, s, n);
    t->len += n;
}

static inline void jt_comma(jtext *t) {
    if (t->sep) jt_raw(t, ",", 1);
}

/* A key of the object being written: a C string literal that needs no
 * escaping (every key of the game's messages is a plain word), written
 * with its quotes and colon in one copy. */
#define jt_key(t, k) jt_key_((t), "\"" k "\":", sizeof k + 2)
static inline void jt_key_(jtext *t, const char *quoted, size_t n) {
    jt_comma(t);
    jt_raw(t, quoted, n);
    t->sep = 0;
}

/* '{' or '[' (a value: after a key, or in an array), and its end. */
static inline void jt_open(jtext *t, char c) {
    jt_comma(t);
    jt_raw(t, &c, 1);
    t->sep = 0;
}
static inline void jt_close(jtext *t, char c) {
    jt_raw(t, &c, 1);
    t->sep = 1;
}

/* Values, as json_dumps writes them. */
void jt_int(jtext *t, long long v);
/* A string, escaped as jansson escapes it (\" \\ \b \f \n \r \t, other
 * control characters \u00XX, UTF-8 as it is; the caller's text is UTF-8). */
void jt_strn(jtext *t, const char *s, size_t n);
static inline void jt_str(jtext *t, const char *s) { jt_strn(t, s, strlen(s)); }
static inline void jt_bool(jtext *t, int b) {
    jt_comma(t);
    if (b) jt_raw(t, "true", 4);
    else jt_raw(t, "false", 5);
    t->sep = 1;
}
static inline void jt_null(jtext *t) {
    jt_comma(t);
    jt_raw(t, "null", 4);
    t->sep = 1;
}

/* Ends the text with a NUL after len: 0, or -1 when a write ran out of memory. */
int jt_end(jtext *t);

#endif
