/* test_record_fast.c: the record reader's fast path reads what the general reader reads.
 *
 * src/record/fast.c reads the deal and the rounds of a record in the shape
 * kontor writes them and declines anything else, which src/record/parse.c's
 * general reader then reads. Its promise is that a record comes out the same
 * either way, and that every error is the general reader's: these tests read
 * every committed record and thousands of mutations of them (a byte deleted,
 * inserted or replaced, a stretch cut or doubled, a word swapped for another
 * one of the grammar) both ways and compare status, message, line and every
 * field; and they check that the fast path does read the records kontor
 * writes, which is what it is for (replay costs). */
#include "testutil.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>

#include "kontor/record.h"
#include "record/fast.h"

/* A file and its length (kt_slurp's string would end at a NUL byte, which a
 * fuzz corpus file may hold). */
static char *read_bytes(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 20];
    *len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    char *t = malloc(*len + 1);
    assert_non_null(t);
    memcpy(t, buf, *len);
    t[*len] = 0;
    return t;
}

/* The same outcome from both readers: status, error, and every field. */
static void same_both_ways(const char *text, size_t len, const char *what) {
    static kontor_record a, b;
    kontor_error ea, eb;
    kontor_status sa = record_parse_mode(&a, NULL, text, len, &ea, RECORD_READ_GENERAL);
    kontor_status sb = record_parse_mode(&b, NULL, text, len, &eb, RECORD_READ_BOTH);
    if (sa != sb || ea.code != eb.code || ea.line != eb.line || ea.round != eb.round || strcmp(ea.msg, eb.msg) != 0)
        fail_msg("%s: the general reader says %d '%s' (line %d), with the fast path %d '%s' (line %d)", what, sa, ea.msg,
                 ea.line, sb, eb.msg, eb.line);
    if (sa == KONTOR_OK) {
        if (memcmp(&a.cfg, &b.cfg, sizeof a.cfg) != 0) fail_msg("%s: the configurations differ", what);
        if (memcmp(&a.deal, &b.deal, sizeof a.deal) != 0) fail_msg("%s: the deals differ", what);
        if (memcmp(a.players, b.players, sizeof a.players) != 0 || strcmp(a.date, b.date) != 0 ||
            strcmp(a.event, b.event) != 0 || strcmp(a.result, b.result) != 0 ||
            strcmp(a.termination, b.termination) != 0 || a.seed != b.seed || a.has_seed != b.has_seed)
            fail_msg("%s: the tags differ", what);
        if (a.nply != b.nply) fail_msg("%s: %d decisions read by the general reader, %d with the fast path", what, a.nply, b.nply);
        for (int i = 0; i < a.nply; i++)
            if (a.ply[i].seat != b.ply[i].seat || a.ply[i].move != b.ply[i].move)
                fail_msg("%s: decision %d differs", what, i);
        kontor_record_release(&a);
        kontor_record_release(&b);
    }
}

static const char *const patterns[] = {"docs/arena/*/*.kgn", "tests/cli/*.kgn", "fuzz/corpus/record/*"};

static void every_committed_record_reads_the_same_both_ways(void **state) {
    (void)state;
    int files = 0, fast = 0;
    for (size_t k = 0; k < sizeof patterns / sizeof *patterns; k++) {
        glob_t g;
        if (glob(patterns[k], 0, NULL, &g) != 0) continue;
        for (size_t i = 0; i < g.gl_pathc; i++) {
            size_t len;
            char *text = read_bytes(g.gl_pathv[i], &len);
            same_both_ways(text, len, g.gl_pathv[i]);
            kontor_record r;
            kontor_error e;
            if (record_parse_mode(&r, NULL, text, len, &e, RECORD_READ_FAST_ONLY) == KONTOR_OK) {
                fast++;
                kontor_record_release(&r);
            } else if (k == 0) {
                fail_msg("%s: written by kontor, but the fast path declines it", g.gl_pathv[i]);
            }
            free(text);
            files++;
        }
        globfree(&g);
    }
    printf("%d records, %d read by the fast path\n", files, fast);
    assert_true(files > 1900);
}

/* Words of the grammar, to put in place of another. */
static const char *const words[] = {"deal", "water", "red", "black", "special", "events", "pass", "play", "?",
                                    "buy", "-", "ship", "remove", "pile", "1.", "2.", "0", "1", "87", "255", "256",
                                    "999", "1000", "+1,-2", "0,0", "8,8", "+9,0", "-7,+8", "1,2,3", "+1,-", "red1",
                                    "{x}", ";", "[Red \"x\"]", "\t", "\r", "\n", "  ", "9.", "10.", "00001.", "."};

static void mutations_of_records_read_the_same_both_ways(void **state) {
    (void)state;
    static const char alphabet[] = " \n\t\r;{}[].,-+0123456789abdeprlkstwy?\"";
    kontor_rng rng;
    kontor_rng_seed(&rng, 17);
    glob_t g;
    assert_int_equal(glob("docs/arena/*/*.kgn", 0, NULL, &g), 0);
    int done = 0;
    for (size_t i = 0; i < g.gl_pathc; i += 7) {
        size_t len;
        char *text = read_bytes(g.gl_pathv[i], &len);
        char *m = malloc(len + 256);
        assert_non_null(m);
        for (int k = 0; k < 24; k++) {
            size_t at = kontor_rng_below(&rng, (uint32_t)len), n = 0;
            /* the deal and the rounds are what the fast path reads: aim there
             * more often than at the tags */
            if (k & 1) {
                const char *deal = strstr(text, "\ndeal");
                if (deal) at = (size_t)(deal - text) + kontor_rng_below(&rng, (uint32_t)(len - (size_t)(deal - text)));
            }
            int op = (int)kontor_rng_below(&rng, 6);
            memcpy(m, text, at);
            n = at;
            char piece[64];
            switch (op) {
            case 0: /* delete a byte */
                memcpy(m + n, text + at + 1, len - at - 1), n += len - at - 1;
                break;
            case 1: /* insert a byte */
                m[n++] = alphabet[kontor_rng_below(&rng, sizeof alphabet - 1)];
                memcpy(m + n, text + at, len - at), n += len - at;
                break;
            case 2: /* replace a byte */
                m[n++] = alphabet[kontor_rng_below(&rng, sizeof alphabet - 1)];
                memcpy(m + n, text + at + 1, len - at - 1), n += len - at - 1;
                break;
            case 3: { /* cut a stretch */
                size_t cut = 1 + kontor_rng_below(&rng, 30);
                if (cut > len - at) cut = len - at;
                memcpy(m + n, text + at + cut, len - at - cut), n += len - at - cut;
                break;
            }
            case 4: { /* double a stretch */
                size_t dup = 1 + kontor_rng_below(&rng, 30);
                if (dup > len - at) dup = len - at;
                memcpy(m + n, text + at, dup), n += dup;
                memcpy(m + n, text + at, len - at), n += len - at;
                break;
            }
            default: { /* a word for the word there */
                size_t end = at;
                while (end < len && text[end] != ' ' && text[end] != '\n') end++;
                snprintf(piece, sizeof piece, "%s", words[kontor_rng_below(&rng, sizeof words / sizeof *words)]);
                memcpy(m + n, piece, strlen(piece)), n += strlen(piece);
                memcpy(m + n, text + end, len - end), n += len - end;
                break;
            }
            }
            char what[300];
            snprintf(what, sizeof what, "%s, mutation %d (kind %d at byte %zu)", g.gl_pathv[i], k, op, at);
            same_both_ways(m, n, what);
            done++;
        }
        free(m);
        free(text);
    }
    globfree(&g);
    printf("%d mutated records\n", done);
    assert_true(done > 5000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_committed_record_reads_the_same_both_ways),
        cmocka_unit_test(mutations_of_records_read_the_same_both_ways),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
