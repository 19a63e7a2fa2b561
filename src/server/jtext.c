/* jtext.c: compact JSON text into a reusable buffer, from a jansson tree or value by value (jtext.h says why).
 *
 * Written to give json_dumps(JSON_COMPACT)'s bytes exactly: objects in
 * their insertion order, strings escaped as jansson does (\" \\ \b \f \n \r
 * \t, other control characters as \u00XX, UTF-8 left as it is), integers in
 * decimal. Reals (the game's JSON has none) go through jansson itself. The
 * tree's dump and the direct writer share the integer and string writers,
 * so the two cannot escape differently.
 */
#include <stdlib.h>
#include <string.h>

#include "server/jtext.h"

int jtext_grow(jtext *t, size_t more) {
    if (t->oom) return -1;
    if (t->len + more + 1 <= t->cap) return 0;
    size_t cap = t->cap ? t->cap : 4096;
    while (cap < t->len + more + 1) cap *= 2;
    char *b = realloc(t->buf, cap);
    if (!b) {
        t->oom = 1;
        return -1;
    }
    t->buf = b;
    t->cap = cap;
    return 0;
}

/* (the NUL is written once, at the end of jtext_dump) */
static inline int put(jtext *t, const char *s, size_t n) {
    if (t->len + n + 1 > t->cap && jtext_grow(t, n)) return -1;
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    return 0;
}

static int put_int(jtext *t, json_int_t v) {
    char tmp[24];
    int k = sizeof tmp;
    /* the magnitude as unsigned, so that the most negative value works too */
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        tmp[--k] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) tmp[--k] = '-';
    return put(t, tmp + k, sizeof tmp - (size_t)k);
}

static int put_string(jtext *t, const char *s, size_t n) {
    static const char hex[] = "0123456789ABCDEF";
    if (jtext_grow(t, n + 2)) return -1;
    t->buf[t->len++] = '"';
    size_t run = 0; /* characters copied as they are, since the last escape */
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch >= 0x20 && ch != '"' && ch != '\\') {
            run++;
            continue;
        }
        if (put(t, s + i - run, run)) return -1;
        run = 0;
        char esc[6] = {'\\', 0, 0, 0, 0, 0};
        size_t k = 2;
        switch (ch) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            esc[1] = 'u';
            esc[2] = '0';
            esc[3] = '0';
            esc[4] = hex[ch >> 4];
            esc[5] = hex[ch & 15];
            k = 6;
        }
        if (put(t, esc, k)) return -1;
    }
    if (put(t, s + n - run, run)) return -1;
    return put(t, "\"", 1);
}

static int dump(jtext *t, const json_t *o) {
    switch (json_typeof(o)) {
    case JSON_OBJECT: {
        if (put(t, "{", 1)) return -1;
        const char *key;
        json_t *v;
        int first = 1;
        json_object_foreach((json_t *)o, key, v) {
            if (!first && put(t, ",", 1)) return -1;
            first = 0;
            if (put_string(t, key, strlen(key)) || put(t, ":", 1) || dump(t, v)) return -1;
        }
        return put(t, "}", 1);
    }
    case JSON_ARRAY: {
        if (put(t, "[", 1)) return -1;
        size_t n = json_array_size(o);
        for (size_t i = 0; i < n; i++)
            if ((i && put(t, ",", 1)) || dump(t, json_array_get(o, i))) return -1;
        return put(t, "]", 1);
    }
    case JSON_STRING: return put_string(t, json_string_value(o), json_string_length(o));
    case JSON_INTEGER: return put_int(t, json_integer_value(o));
    case JSON_TRUE: return put(t, "true", 4);
    case JSON_FALSE: return put(t, "false", 5);
    case JSON_NULL: return put(t, "null", 4);
    case JSON_REAL: {
        char *s = json_dumps(o, JSON_COMPACT | JSON_ENCODE_ANY);
        int r = s ? put(t, s, strlen(s)) : (t->oom = 1, -1);
        free(s);
        return r;
    }
    }
    return -1;
}

int jtext_dump(jtext *t, const json_t *o) {
    if (!o || dump(t, o) || jtext_grow(t, 0)) return -1; /* no object: a json_pack that failed */
    t->buf[t->len] = 0;
    return 0;
}

void jt_int(jtext *t, long long v) {
    jt_comma(t);
    if (v >= 0 && v < 10) { /* most numbers of a message are one digit */
        char ch = (char)('0' + v);
        put(t, &ch, 1);
    } else {
        put_int(t, v);
    }
    t->sep = 1;
}

void jt_strn(jtext *t, const char *s, size_t n) {
    jt_comma(t);
    put_string(t, s, n);
    t->sep = 1;
}

int jt_end(jtext *t) {
    if (jtext_grow(t, 0)) return -1;
    t->buf[t->len] = 0;
    return 0;
}

void jtext_release(jtext *t) {
    free(t->buf);
    memset(t, 0, sizeof *t);
}
