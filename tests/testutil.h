/* testutil.h: what every test file includes: cmocka and small helpers.
 *
 * Each tests/test_*.c is its own cmocka binary (one per module), so modules
 * can be added without touching a central list; tests/run.sh sums them up. */
#ifndef KONTOR_TESTUTIL_H
#define KONTOR_TESTUTIL_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "kontor/kontor.h"
#include "kontor/record.h"

/* Every seat's choice of a round as the tests write it: pick[p] is a card id
 * or KONTOR_PASS for seat p, or KONTOR_NONE for a seat that has already
 * decided. With declarations (R1, the default) each seat declares first (a
 * pass, or to play), then the players choose their cards; with
 * declare=hidden the pass is a choice. Returns the first failure. */
static inline kontor_status kt_choose_all(kontor_state *s, const int *pick, kontor_log *log) {
    int ns = s->cfg->nseats;
    kontor_status st;
    if (s->phase == KONTOR_PHASE_DECLARE)
        for (int p = 0; p < ns; p++) {
            if (pick[p] == KONTOR_NONE) continue;
            kontor_move m = KONTOR_MOVE(KONTOR_MOVE_DECLARE, pick[p] == KONTOR_PASS ? KONTOR_PASS : KONTOR_PLAY);
            if ((st = kontor_apply(s, p, m, log)) != KONTOR_OK) return st;
        }
    for (int p = 0; p < ns; p++) {
        if (pick[p] == KONTOR_NONE || (pick[p] == KONTOR_PASS && !s->cfg->pass_hidden)) continue;
        if ((st = kontor_apply(s, p, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, pick[p]), log)) != KONTOR_OK) return st;
    }
    return KONTOR_OK;
}

/* The phase a round's choice opens with: the declarations, or with
 * declare=hidden the choice itself. */
static inline int kt_choice_phase(const kontor_state *s) {
    return s->cfg->pass_hidden ? KONTOR_PHASE_CHOOSE : KONTOR_PHASE_DECLARE;
}
/* A whole file as a NUL-terminated string (malloc'd), or NULL if it cannot
 * be read. */
static inline char *kt_slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!b) {
        fclose(f);
        return NULL;
    }
    size_t got = fread(b, 1, (size_t)n, f);
    b[got] = 0;
    fclose(f);
    return b;
}

/* Whether cell is in the state's set which, and how many cells that set
 * holds: the state's sets as the public API gives them (kontor_state_set),
 * never its fields, whose form is the core's own (issue 17). */
static inline int kt_in(const kontor_state *s, kontor_set which, int cell) {
    kontor_bb b = kontor_state_set(s, which);
    return kontor_bb_has(&b, cell);
}
static inline int kt_count(const kontor_state *s, kontor_set which) {
    kontor_bb b = kontor_state_set(s, which);
    return kontor_bb_count(&b);
}

/* One random legal decision of the lowest seat that has one to make,
 * applied (and asserted legal); log may be NULL. Returns the seat. */
static inline int kt_random_step(kontor_state *s, kontor_rng *rng, kontor_log *log) {
    unsigned act = kontor_actors(s);
    int seat = 0;
    while (!(act & (1u << seat))) seat++;
    kontor_move mv[KONTOR_MAX_MOVES];
    int n = kontor_legal(s, seat, mv);
    assert_true(n > 0);
    if (log) log->n = 0;
    assert_int_equal(kontor_apply(s, seat, mv[kontor_rng_below(rng, (uint32_t)n)], log), KONTOR_OK);
    return seat;
}

/* A game to record: s dealt under cfg from seed (asserted), and rec the
 * record of that deal with no decision yet (the caller releases it). */
static inline void kt_deal_recorded(kontor_state *s, kontor_record *rec, const kontor_config *cfg, uint64_t seed) {
    kontor_deal d;
    kontor_deal_shuffle(&d, cfg, seed);
    assert_int_equal(kontor_new_from_deal(s, cfg, &d, NULL), KONTOR_OK);
    kontor_record_init(rec, cfg, &d);
}

/* The committed record at path (relative to the repository's root, where
 * the tests run) read and parsed into r (both asserted; the caller releases r). */
static inline void kt_read_record(const char *path, kontor_record *r) {
    char *text = kt_slurp(path);
    if (!text) fail_msg("cannot read '%s' (run the tests from the repository root)", path);
    kontor_error err;
    if (kontor_record_parse(r, text, strlen(text), &err)) fail_msg("%s: %s", path, err.msg);
    free(text);
}
#endif
