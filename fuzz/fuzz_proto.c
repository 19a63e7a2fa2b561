/* fuzz_proto.c: libFuzzer target for the engine end of the protocol.
 *
 * Every byte an engine reads comes from another program, so the command
 * parser, the event parser and the game rebuilt from events must survive any
 * input. The input is cut into lines and fed to one kontor_engine; after each
 * line the reply must keep the framing a controller relies on: empty (a blank
 * input line), or "=" or "?" first, printable text, no blank line inside, and
 * exactly one blank line at the end. The seed corpus holds the golden
 * transcripts, so the fuzzer starts from real games and mutates them. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kontor/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(x) do { if (!(x)) abort(); } while (0)

/* A player of the fuzzer's own: the first legal decision (no search, so the
 * fuzzer spends its time in the protocol). */
static kontor_move first_legal(kontor_agent *a, const kontor_view *v) {
    kontor_move m[KONTOR_MAX_MOVES];
    int n = kontor_legal(&v->s, v->seat, m);
    if (n <= 0) {
        strcpy(a->error, "nothing to decide");
        return KONTOR_FORFEIT;
    }
    return m[kontor_rng_below(&a->rng, (uint32_t)n)];
}

static kontor_agent *factory(const char *spec, uint64_t seed, kontor_error *err) {
    if (strncmp(spec, "first", 5) != 0) {
        strcpy(err->msg, "unknown agent");
        return NULL;
    }
    kontor_agent *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    strcpy(a->name, "first");
    a->decide = first_legal;
    kontor_rng_seed(&a->rng, seed);
    return a;
}

static char reply[1 << 16];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    kontor_error err;
    kontor_engine *e = kontor_engine_new(factory, "first", 1, &err);
    CHECK(e);
    size_t start = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i < size && data[i] != '\n') continue;
        size_t len = i - start;
        /* an exact-size heap copy, so ASan catches a read past the line */
        char *line = malloc(len ? len : 1);
        CHECK(line);
        memcpy(line, data + start, len);
        size_t n = 0;
        int quit = kontor_engine_handle(e, line, len, reply, sizeof reply, &n);
        free(line);
        start = i + 1;
        CHECK(n < sizeof reply);
        if (n) {
            CHECK(reply[0] == '=' || reply[0] == '?');
            CHECK(n >= 3 && reply[n - 1] == '\n' && reply[n - 2] == '\n' && reply[n - 3] != '\n');
            CHECK(reply[n] == 0);
            for (size_t k = 0; k + 2 < n; k++) {
                unsigned char c = (unsigned char)reply[k];
                CHECK(c == '\n' ? reply[k + 1] != '\n' : (c >= 32 && c < 127));
            }
        }
        if (quit) break;
    }
    kontor_engine_free(e);
    return 0;
}
