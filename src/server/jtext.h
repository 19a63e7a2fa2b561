/* jtext.h: compact JSON text of a jansson tree, written into a reusable buffer.
 *
 * The same bytes as json_dumps(o, JSON_COMPACT) (tests/test_jtext.c checks
 * it on every view of whole games), at a fraction of the cost: json_dumps
 * formats every integer with snprintf and grows a fresh buffer through a
 * callback for each message, and the state messages (a board, areas,
 * hands, legal decisions: hundreds of integers) made it more than half of
 * the server's instructions (docs/server.md, "Load benchmark").
 */
#ifndef KONTOR_SERVER_JTEXT_H
#define KONTOR_SERVER_JTEXT_H

#include <stddef.h>

#include <jansson.h>

/* A growable text buffer: reset it (len = 0) and write again; its memory is
 * kept between messages. Zero-initialise; jtext_release frees. */
typedef struct jtext {
    char *buf;
    size_t len, cap;
    int oom; /* a write did not fit in memory: the text is incomplete */
} jtext;

/* Append o as compact JSON (NUL-terminated after len); 0, or -1 out of memory. */
int jtext_dump(jtext *t, const json_t *o);
void jtext_release(jtext *t);

#endif
