/* fuzz_record.c: libFuzzer target for the game record parser and replay.
 *
 * Records come from outside (files, the network), so kontor_record_parse must
 * never crash, read out of bounds or leak whatever the bytes, and a parsed
 * record must replay without crashing, legal or not. Beyond not crashing,
 * every accepted record must be a fixed point after one write: parse, write,
 * parse, write gives the same text twice, and both parses replay alike. The
 * seed corpus (fuzz/corpus/record/) holds real records; the Seed tag lets
 * short inputs skip the long deal lines and reach the rounds. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kontor/draw.h"
#include "kontor/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(x) do { if (!(x)) abort(); } while (0)

static void check_error(const kontor_error *err, kontor_status st) {
    CHECK(err->code == st);
    CHECK(memchr(err->msg, '\0', sizeof err->msg) != NULL);
    CHECK(err->msg[0] != '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* an exact-size heap copy, so ASan catches any read past the end */
    char *text = malloc(size ? size : 1);
    if (!text) return 0;
    if (size) memcpy(text, data, size);

    kontor_record r;
    kontor_error err;
    kontor_status st = kontor_record_parse(&r, text, size, &err);
    free(text);
    if (st != KONTOR_OK) {
        check_error(&err, st);
        CHECK(st == KONTOR_E_PARSE || st == KONTOR_E_INVALID || st == KONTOR_E_RANGE);
        CHECK(err.line >= 1);
        CHECK(r.ply == NULL);
        kontor_record_release(&r);
        return 0;
    }

    static kontor_state s1, s2;
    kontor_error e1, e2;
    kontor_status r1 = kontor_record_replay(&r, -1, &s1, NULL, NULL, &e1);
    if (r1 != KONTOR_OK) {
        check_error(&e1, r1);
        CHECK(r1 == KONTOR_E_ILLEGAL || r1 == KONTOR_E_INVALID ||
              (r1 == KONTOR_E_RANGE && kontor_configs_interned() == KONTOR_CONFIGS_MAX));
        if (r1 == KONTOR_E_RANGE) { /* not dealt (the configs' table is full): nothing to draw */
            kontor_record_release(&r);
            return 0;
        }
    }
    static char board[16384];
    size_t n = kontor_draw_board(&s1, board, sizeof board, KONTOR_DRAW_ALL_HANDS);
    CHECK(n < sizeof board && strlen(board) == n);

    /* write, parse, write: a fixed point, and the same replay */
    char *t1 = NULL, *t2 = NULL;
    size_t l1 = 0, l2 = 0;
    CHECK(kontor_record_write(&r, &t1, &l1) == KONTOR_OK);
    kontor_record back;
    st = kontor_record_parse(&back, t1, l1, &err);
    CHECK(st == KONTOR_OK);
    CHECK(kontor_record_write(&back, &t2, &l2) == KONTOR_OK);
    CHECK(l1 == l2 && memcmp(t1, t2, l1) == 0);
    kontor_status r2 = kontor_record_replay(&back, -1, &s2, NULL, NULL, &e2);
    CHECK(r1 == r2);
    if (r1 == KONTOR_OK) CHECK(memcmp(&s1, &s2, sizeof s1) == 0);
    else CHECK(e1.round == e2.round && strcmp(e1.msg, e2.msg) == 0);
    free(t1);
    free(t2);
    kontor_record_release(&back);
    kontor_record_release(&r);
    return 0;
}
