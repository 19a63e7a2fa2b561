/* narrow_place.c: the playout placement's set work in the two forms, for
 * callgrind (issue 17's narrow board, stage 2; docs/engine-speed.md,
 * board17c).
 *
 * Why a program: stage 2 turns the state's sets into 128 bits over the
 * config's window, and the playout's placement (place.c's place_in:
 * playout_lay's frontier and the may_enclose pre-test) then reads whole sets
 * where today it reads the eight rows around the card. Before that switch
 * its cost can be told only on the side: this plays random games of a
 * variant and, at every place decision, runs both forms on every legal cell
 * (as a dock card and as a water card), checks they answer the same and
 * leave the same frontier, and keeps each kernel out of line so that
 * `callgrind_annotate --inclusive=yes` gives its count over its calls;
 * nb_window / nb_narrow are a gap set's neighbours alone (bbw_nb against
 * nbw_neighbours), flood_window / flood_narrow a flood fill's loop (the
 * enclosure test's), with its rounds counted, and flood_lanes the same on
 * a lane copy of the card's eight rows made from the narrow sets. Not built by the Makefile:
 *     cc -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc -mpopcnt -O3 -o /tmp/narrow_place \
 *        tools/narrow_place.c build/libkontor.a -lm -pthread
 *     valgrind --tool=callgrind --callgrind-out-file=/tmp/np.cg /tmp/narrow_place basic 30
 * It exits 1 if the forms ever differ (build with -DNARROW_CHECK_SPREAD to
 * compare the lane copy's two spreads too). */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "core/nb.h"
#include "core/rules.h"

typedef struct { nb_t occ, mask, dock, enclosed, front; } nstate;
static nb_t ONE[128];

__attribute__((always_inline)) static inline int pre_window(const kontor_state *s, size_t c, int water, bb_t *front) {
    place_win pw = *place_win_of(s->cfg, c);
    size_t r2 = pw.r2;
    bb_w around = place_around(c, pw);
    bb_w occ = bbw_or(bbw_at(&s->occ, r2), bbw_cell((int)c - 8 * (int)r2));
    bbw_put(front, r2, bbw_andnot(bbw_or(bbw_at(front, r2), bbw_andnot(around, occ)), bbw_cell((int)c - 8 * (int)r2)));
    bb_w gap = bbw_andnot(bbw_at(&s->mask, r2), occ);
    if (water) {
        bb_w open = bbw_and(around, bbw_andnot(bbw_at(&s->dock, r2), bbw_at(&s->enclosed, r2)));
        return bbw_any(open) && bbw_any(bbw_andnot(open, bbw_nb(gap)));
    }
    return !bbw_any(bbw_and(around, gap));
}
__attribute__((always_inline)) static inline int pre_narrow(nstate *n, const kontor_config *cfg, size_t c, int water) {
    size_t b = cfg->win->bit_of[c];
    nbw around = nbw_of(cfg->win->near[b]), bit = nbw_load(&ONE[b]);
    nbw occ = nbw_or(nbw_load(&n->occ), bit);
    nbw_store(&n->front, nbw_andnot(nbw_or(nbw_load(&n->front), nbw_andnot(around, occ)), bit));
    nbw gap = nbw_andnot(nbw_load(&n->mask), occ);
    if (water) {
        nbw open = nbw_and(around, nbw_andnot(nbw_load(&n->dock), nbw_load(&n->enclosed)));
        return nbw_any(open) && nbw_any(nbw_andnot(open, nbw_neighbours(gap, cfg)));
    }
    return !nbw_any(nbw_and(around, gap));
}
__attribute__((noinline)) static int win_dock(const kontor_state *s, size_t c, bb_t *f) { return pre_window(s, c, 0, f); }
__attribute__((noinline)) static int win_water(const kontor_state *s, size_t c, bb_t *f) { return pre_window(s, c, 1, f); }
__attribute__((noinline)) static int nar_dock(nstate *n, const kontor_config *cfg, size_t c) { return pre_narrow(n, cfg, c, 0); }
__attribute__((noinline)) static int nar_water(nstate *n, const kontor_config *cfg, size_t c) { return pre_narrow(n, cfg, c, 1); }
/* the neighbours alone, of the gap set, in the two forms */
__attribute__((noinline)) static bb_w nb_window(const kontor_state *s, size_t c) {
    return bbw_nb(bbw_andnot(bbw_at(&s->mask, place_win_of(s->cfg, c)->r2), bbw_at(&s->occ, place_win_of(s->cfg, c)->r2)));
}
__attribute__((noinline)) static nbw nb_narrow(const nstate *n, const kontor_config *cfg) {
    return nbw_neighbours(nbw_andnot(nbw_load(&n->mask), nbw_load(&n->occ)), cfg);
}

/* a flood fill through the free cells of the mask from the card's free
 * neighbours (the enclosure test's loop), each form's own: the window's
 * stays in the card's eight rows, the narrow one covers the window, so
 * their answers may differ; *steps counts the loop's rounds */
__attribute__((noinline)) static int flood_window(const kontor_state *s, size_t c, long *steps) {
    place_win pw = *place_win_of(s->cfg, c);
    size_t r2 = pw.r2;
    bb_w open = bbw_andnot(bbw_at(&s->mask, r2), bbw_or(bbw_at(&s->occ, r2), bbw_cell((int)c - 8 * (int)r2)));
    bb_w area = bbw_and(place_around(c, pw), open);
    for (;;) {
        ++*steps;
        bb_w grown = bbw_and(bbw_or(area, bbw_nb(area)), open);
        if (bbw_eq(grown, area)) return bbw_any(area);
        area = grown;
    }
}
__attribute__((noinline)) static int flood_narrow(const nstate *n, const kontor_config *cfg, size_t c, long *steps) {
    size_t b = cfg->win->bit_of[c];
    nbw open = nbw_andnot(nbw_load(&n->mask), nbw_or(nbw_load(&n->occ), nbw_load(&ONE[b])));
    nbw area = nbw_and(nbw_of(cfg->win->near[b]), open);
    for (;;) {
        ++*steps;
        nbw grown = nbw_and(nbw_or(area, nbw_neighbours(area, cfg)), open);
        if (nbw_eq(grown, area)) return nbw_any(area);
        area = grown;
    }
}

/* The same flood on a copy of the narrow set's eight rows around the card
 * as 16-bit lanes (today's window form, its 12-instruction neighbours):
 * the rows cut out by one 128-bit shift, then spread by three steps (rows
 * 4-7 up by 4 x (16 - stride), then 2-3 and 6-7 by 2 x, then the odd rows
 * by 1 x), the masks of the stride worked out once (SPREAD). */
typedef unsigned __int128 u128;
static struct { u128 rows8, m[3]; int sh[3]; } SPREAD;
static void spread_init(int st) {
    u128 one = 1;
    SPREAD.rows8 = 8 * st >= 128 ? ~(u128)0 : (one << (8 * st)) - 1;
    u128 row = (one << st) - 1;
    SPREAD.m[0] = row << (4 * st) | row << (5 * st) | row << (6 * st) | row << (7 * st);
    SPREAD.m[1] = row << (2 * st) | row << (3 * st) | row << (64 + 2 * st) | row << (64 + 3 * st);
    SPREAD.m[2] = row << st | row << (32 + st) | row << (64 + st) | row << (96 + st);
    SPREAD.sh[0] = 4 * (16 - st), SPREAD.sh[1] = 2 * (16 - st), SPREAD.sh[2] = 16 - st;
}
/* the scalar form (two words and a 128-bit integer): lanes_of_scalar; the
 * register's (SSE2, the shifts of nbw_south/north by counts of a table):
 * lanes_of */
static inline bb_w lanes_of_scalar(const nb_t *a, int shift) {
    u128 x;
    memcpy(&x, a->w, sizeof x);
    x = (x >> shift) & SPREAD.rows8;
    for (int i = 0; i < 3; i++) x = (x & ~SPREAD.m[i]) | ((x & SPREAD.m[i]) << SPREAD.sh[i]);
    return bbw_make((uint64_t)x, (uint64_t)(x >> 64));
}
static struct { uint64_t rows8[2], m[3][2], cnt[3][2]; } SPREADW;
static void spreadw_init(void) {
    memcpy(SPREADW.rows8, &SPREAD.rows8, 16);
    for (int i = 0; i < 3; i++) {
        memcpy(SPREADW.m[i], &SPREAD.m[i], 16);
        SPREADW.cnt[i][0] = (uint64_t)SPREAD.sh[i], SPREADW.cnt[i][1] = (uint64_t)(64 - SPREAD.sh[i]);
    }
}
static inline bb_w lanes_of(const nb_t *a, int shift) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)a->w);
    if (shift >= 64) x = _mm_srli_si128(x, 8), shift -= 64;
    if (shift) {
        __m128i n = _mm_cvtsi32_si128(shift), back = _mm_cvtsi32_si128(64 - shift);
        x = _mm_or_si128(_mm_srl_epi64(x, n), _mm_sll_epi64(_mm_srli_si128(x, 8), back));
    }
    x = _mm_and_si128(x, _mm_loadu_si128((const __m128i *)(const void *)SPREADW.rows8));
    for (int i = 0; i < 3; i++) {
        __m128i m = _mm_loadu_si128((const __m128i *)(const void *)SPREADW.m[i]);
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)SPREADW.cnt[i]), back = _mm_unpackhi_epi64(c, c);
        __m128i t = _mm_and_si128(x, m);
        t = _mm_or_si128(_mm_sll_epi64(t, c), _mm_srl_epi64(_mm_slli_si128(t, 8), back));
        x = _mm_or_si128(_mm_andnot_si128(m, x), t);
    }
    return x;
}
__attribute__((noinline)) static int flood_lanes(const nstate *n, const kontor_config *cfg, size_t c, long *steps) {
    const kontor_window *w = cfg->win;
    int b = w->bit_of[c], st = w->stride, y = b / st, x = b % st;
    int r0 = y < 2 ? 0 : y - 2, top = w->rows > 8 ? w->rows - 8 : 0;
    if (r0 > top) r0 = top;
    nb_t free = nb_andnot(n->mask, n->occ);
    nb_clear(&free, b);
    bb_w open = lanes_of(&free, r0 * st);
#ifdef NARROW_CHECK_SPREAD /* -DNARROW_CHECK_SPREAD: the two spreads compared (off when counting) */
    if (!bbw_eq(open, lanes_of_scalar(&free, r0 * st))) return -1;
#endif
    bb_w area = bbw_and(bbw_around((y - r0) * 16 + x), open);
    for (;;) {
        ++*steps;
        bb_w grown = bbw_and(bbw_or(area, bbw_nb(area)), open);
        if (bbw_eq(grown, area)) return bbw_any(area);
        area = grown;
    }
}

int main(int argc, char **argv) {
    const char *variant = argc > 1 ? argv[1] : "basic";
    int games = argc > 2 ? atoi(argv[2]) : 200;
    kontor_config cfg0;
    kontor_config_init(&cfg0, variant, NULL);
    const kontor_config *cfg = kontor_config_intern(&cfg0, NULL);
    spread_init(cfg->win->stride);
    spreadw_init();
    for (int b = 0; b < 128; b++) {
        nb_t one = nb_empty();
        if (b < cfg->win->stride * cfg->win->rows) nb_set(&one, b);
        ONE[b] = one;
    }
    kontor_rng rng;
    kontor_rng_seed(&rng, 5);
    long calls = 0, differ = 0, sink = 0, steps_w = 0, steps_n = 0, steps_l = 0;
    kontor_move moves[KONTOR_MAX_MOVES];
    for (int g = 0; g < games; g++) {
        kontor_state s;
        if (kontor_new(&s, cfg, (uint64_t)g, NULL) != KONTOR_OK) return 1;
        while (!kontor_over(&s)) {
            unsigned act = kontor_actors(&s);
            int seat = __builtin_ctz(act);
            int n = kontor_legal(&s, seat, moves);
            if (n <= 0) return 2;
            nstate ns = {nb_of(&s.occ, cfg), nb_of(&s.mask, cfg), nb_of(&s.dock, cfg), nb_of(&s.enclosed, cfg), nb_of(&s.front, cfg)};
            for (int i = 0; i < n; i++) {
                if (KONTOR_MOVE_KIND(moves[i]) != KONTOR_MOVE_PLACE) continue;
                size_t c = KONTOR_MOVE_VALUE(moves[i]);
                if (c >= 256 || cfg->win->bit_of[c] == KONTOR_NONE) continue;
                for (int water = 0; water < 2; water++) {
                    bb_t front = s.front;
                    nstate m = ns;
                    int a = water ? win_water(&s, c, &front) : win_dock(&s, c, &front), z = water ? nar_water(&m, cfg, c) : nar_dock(&m, cfg, c);
                    calls++;
                    if (a != z || !nb_eq(nb_of(&front, cfg), m.front)) differ++;
                }
                bb_w x = nb_window(&s, c);
                nbw y = nb_narrow(&ns, cfg);
                sink += bbw_any(x) + nbw_any(y);
                int fw = flood_window(&s, c, &steps_w), fn = flood_narrow(&ns, cfg, c, &steps_n);
                int fl = flood_lanes(&ns, cfg, c, &steps_l);
                if (fw != fn || fw != fl) differ++;
                sink += fw;
            }
            kontor_apply(&s, seat, moves[kontor_rng_next(&rng) % (unsigned)n], NULL);
        }
    }
    printf("%s: %ld kernel calls (both forms), %ld differ, sink %ld; flood rounds: window %ld, narrow %ld, lanes %ld\n",
           variant, calls, differ, sink, steps_w, steps_n, steps_l);
    return differ != 0;
}
