/* nb.h: the narrow board's sets (issue 17): 128 bits over a config's window.
 *
 * A config's cards can reach only its window of the 16x16 grid (window.c:
 * 7x7 for the basic game, at most 128 cells for any config that is dealt),
 * so a set of the state needs two 64-bit words, not four: bit b is the
 * window's cell (b % stride, b / stride) from its corner (the window's x0, y0).
 * The stride is the config's (7 for the basic game), not a constant, so a
 * row up or down is a shift by a variable amount across the two words, and
 * a column east or west a shift by one with the window's first or last
 * column masked off (the window's col0 and collast: what would wrap into the
 * next row). These are the operations the rule files will use in place of bb.h's
 * (stage 2 of the narrow board, docs/engine-speed.md, session fifteen);
 * nb_of and bb_of_nb convert to and from the grid's kontor_bb, which stays
 * the form of the config's fixed sets (board_mask, inner) and of the public
 * API (kontor_state_set). property_narrow_sets_agree_with_the_grid
 * (tests/test_window.c) checks every operation against bb.h's. */
#ifndef KONTOR_NB_H
#define KONTOR_NB_H

#include "core/bb.h"
#include "core/window.h"

typedef struct kontor_nb {
    uint64_t w[2]; /* bit b: the window's cell b (row b / stride, column b % stride) */
} nb_t;

static inline nb_t nb_make(uint64_t lo, uint64_t hi) {
    nb_t r = {{lo, hi}};
    return r;
}
static inline nb_t nb_empty(void) { return nb_make(0, 0); }
static inline nb_t nb_and(nb_t a, nb_t b) { return nb_make(a.w[0] & b.w[0], a.w[1] & b.w[1]); }
static inline nb_t nb_or(nb_t a, nb_t b) { return nb_make(a.w[0] | b.w[0], a.w[1] | b.w[1]); }
static inline nb_t nb_andnot(nb_t a, nb_t b) { return nb_make(a.w[0] & ~b.w[0], a.w[1] & ~b.w[1]); }
static inline int nb_any(nb_t a) { return (a.w[0] | a.w[1]) != 0; }
static inline int nb_eq(nb_t a, nb_t b) { return ((a.w[0] ^ b.w[0]) | (a.w[1] ^ b.w[1])) == 0; }
static inline int nb_count(nb_t a) { return __builtin_popcountll(a.w[0]) + __builtin_popcountll(a.w[1]); }
static inline int nb_test(const nb_t *a, int b) { return (int)(a->w[b >> 6] >> (b & 63) & 1); }
static inline void nb_set(nb_t *a, int b) { a->w[b >> 6] |= 1ULL << (b & 63); }
static inline void nb_clear(nb_t *a, int b) { a->w[b >> 6] &= ~(1ULL << (b & 63)); }
/* the window's cells, its first column, its last */
static inline nb_t nb_all(const kontor_config *cfg) { return nb_make(cfg->win->all[0], cfg->win->all[1]); }
static inline nb_t nb_col0(const kontor_config *cfg) { return nb_make(cfg->win->col0[0], cfg->win->col0[1]); }
static inline nb_t nb_collast(const kontor_config *cfg) { return nb_make(cfg->win->collast[0], cfg->win->collast[1]); }

/* Each cell moved one row down (bit b to b + stride; what leaves the
 * window's last row is dropped) and one row up (b to b - stride). The
 * stride is 1..16 (a window's width on the grid): the shifts by it and by
 * 64 - stride are both inside 1..63. */
static inline nb_t nb_south(nb_t a, const kontor_config *cfg) {
    unsigned k = cfg->win->stride;
    return nb_make((a.w[0] << k) & cfg->win->all[0], ((a.w[1] << k) | (a.w[0] >> (64 - k))) & cfg->win->all[1]);
}
static inline nb_t nb_north(nb_t a, const kontor_config *cfg) {
    unsigned k = cfg->win->stride;
    return nb_make((a.w[0] >> k) | (a.w[1] << (64 - k)), a.w[1] >> k);
}
/* Each cell moved one column east (x + 1: bit b + 1) and west (b - 1),
 * without wrapping into the next row. */
static inline nb_t nb_east(nb_t a, const kontor_config *cfg) {
    a = nb_andnot(a, nb_collast(cfg));
    return nb_make(a.w[0] << 1, (a.w[1] << 1) | (a.w[0] >> 63));
}
static inline nb_t nb_west(nb_t a, const kontor_config *cfg) {
    a = nb_andnot(a, nb_col0(cfg));
    return nb_make((a.w[0] >> 1) | (a.w[1] << 63), a.w[1] >> 1);
}
/* The orthogonal neighbours inside the window. */
static inline nb_t nb_neighbours(nb_t a, const kontor_config *cfg) {
    return nb_or(nb_or(nb_north(a, cfg), nb_south(a, cfg)), nb_or(nb_east(a, cfg), nb_west(a, cfg)));
}
/* The connected component of within that holds seed. */
static inline nb_t nb_flood(nb_t seed, nb_t within, const kontor_config *cfg) {
    nb_t a = nb_and(seed, within);
    for (;;) {
        nb_t n = nb_and(nb_or(a, nb_neighbours(a, cfg)), within);
        if (nb_eq(n, a)) return a;
        a = n;
    }
}

/* ---- a narrow set as one register (nbw) ----
 * The scalar shifts above cross the two words by a variable count (56
 * instructions for nb_neighbours alone, docs/engine-speed.md, board17). With
 * SSE2 a narrow set is one register: a row down is the two lanes shifted by
 * the stride (_mm_sll_epi64) and the low lane's top bits carried into the
 * high lane (the register moved 8 bytes up, shifted right by 64 - stride),
 * both counts one load (the window's shift[]); a column east or west the
 * same by one with the column masked. Without SSE2 (or with KONTOR_NO_SSE2)
 * an nbw is an nb_t and these are the scalar functions above.
 * property_narrow_register_agrees_with_the_words (tests/test_window.c)
 * checks each against them. */
#if defined(__SSE2__) && !defined(KONTOR_NO_SSE2)
typedef __m128i nbw;
static inline nbw nbw_load(const nb_t *a) { return _mm_loadu_si128((const __m128i *)(const void *)a->w); }
static inline void nbw_store(nb_t *a, nbw v) { _mm_storeu_si128((__m128i *)(void *)a->w, v); }
static inline nbw nbw_of(const uint64_t *w) { return _mm_loadu_si128((const __m128i *)(const void *)w); }
static inline nbw nbw_and(nbw a, nbw b) { return _mm_and_si128(a, b); }
static inline nbw nbw_or(nbw a, nbw b) { return _mm_or_si128(a, b); }
static inline nbw nbw_andnot(nbw a, nbw b) { return _mm_andnot_si128(b, a); } /* a & ~b */
static inline int nbw_any(nbw a) { return _mm_movemask_epi8(_mm_cmpeq_epi8(a, _mm_setzero_si128())) != 0xFFFF; }
static inline int nbw_eq(nbw a, nbw b) { return _mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) == 0xFFFF; }
static inline nbw nbw_south(nbw a, const kontor_config *cfg) {
    __m128i n = nbw_of(cfg->win->shift), back = _mm_unpackhi_epi64(n, n);
    __m128i r = _mm_or_si128(_mm_sll_epi64(a, n), _mm_srl_epi64(_mm_slli_si128(a, 8), back));
    return _mm_and_si128(r, nbw_of(cfg->win->all));
}
static inline nbw nbw_north(nbw a, const kontor_config *cfg) {
    __m128i n = nbw_of(cfg->win->shift), back = _mm_unpackhi_epi64(n, n);
    return _mm_or_si128(_mm_srl_epi64(a, n), _mm_sll_epi64(_mm_srli_si128(a, 8), back));
}
static inline nbw nbw_east(nbw a, const kontor_config *cfg) {
    a = _mm_andnot_si128(nbw_of(cfg->win->collast), a);
    return _mm_or_si128(_mm_slli_epi64(a, 1), _mm_srli_epi64(_mm_slli_si128(a, 8), 63));
}
static inline nbw nbw_west(nbw a, const kontor_config *cfg) {
    a = _mm_andnot_si128(nbw_of(cfg->win->col0), a);
    return _mm_or_si128(_mm_srli_epi64(a, 1), _mm_slli_epi64(_mm_srli_si128(a, 8), 63));
}
/* the four together: the south shift's mask by the window's cells once, at
 * the end (north, east and west stay inside it) */
static inline nbw nbw_neighbours(nbw a, const kontor_config *cfg) {
    const kontor_window *w = cfg->win;
    __m128i n = nbw_of(w->shift), back = _mm_unpackhi_epi64(n, n);
    __m128i up = _mm_srli_si128(a, 8), down = _mm_slli_si128(a, 8);
    __m128i ns = _mm_or_si128(_mm_or_si128(_mm_srl_epi64(a, n), _mm_sll_epi64(up, back)),
                              _mm_or_si128(_mm_sll_epi64(a, n), _mm_srl_epi64(down, back)));
    __m128i e = _mm_andnot_si128(nbw_of(w->collast), a), x = _mm_andnot_si128(nbw_of(w->col0), a);
    __m128i ew = _mm_or_si128(_mm_or_si128(_mm_slli_epi64(e, 1), _mm_srli_epi64(_mm_slli_si128(e, 8), 63)),
                              _mm_or_si128(_mm_srli_epi64(x, 1), _mm_slli_epi64(_mm_srli_si128(x, 8), 63)));
    return _mm_and_si128(_mm_or_si128(ns, ew), nbw_of(w->all));
}
#else
typedef nb_t nbw;
static inline nbw nbw_load(const nb_t *a) { return *a; }
static inline void nbw_store(nb_t *a, nbw v) { *a = v; }
static inline nbw nbw_of(const uint64_t *w) { return nb_make(w[0], w[1]); }
static inline nbw nbw_and(nbw a, nbw b) { return nb_and(a, b); }
static inline nbw nbw_or(nbw a, nbw b) { return nb_or(a, b); }
static inline nbw nbw_andnot(nbw a, nbw b) { return nb_andnot(a, b); }
static inline int nbw_any(nbw a) { return nb_any(a); }
static inline int nbw_eq(nbw a, nbw b) { return nb_eq(a, b); }
static inline nbw nbw_south(nbw a, const kontor_config *cfg) { return nb_south(a, cfg); }
static inline nbw nbw_north(nbw a, const kontor_config *cfg) { return nb_north(a, cfg); }
static inline nbw nbw_east(nbw a, const kontor_config *cfg) { return nb_east(a, cfg); }
static inline nbw nbw_west(nbw a, const kontor_config *cfg) { return nb_west(a, cfg); }
static inline nbw nbw_neighbours(nbw a, const kontor_config *cfg) { return nb_neighbours(a, cfg); }
#endif
/* The connected component of within that holds seed, in the register. */
static inline nbw nbw_flood(nbw seed, nbw within, const kontor_config *cfg) {
    nbw a = nbw_and(seed, within);
    for (;;) {
        nbw n = nbw_and(nbw_or(a, nbw_neighbours(a, cfg)), within);
        if (nbw_eq(n, a)) return a;
        a = n;
    }
}

/* A grid set's cells inside the window, as a narrow set (cells outside
 * are dropped), and a narrow set as the grid's (the public form). */
static inline nb_t nb_of(const kontor_bb *b, const kontor_config *cfg) {
    nb_t r = nb_empty();
    for (bb_t t = *b; bb_any(t);) {
        int c = bb_pop(&t), k = cfg->win->bit_of[c];
        if (k != KONTOR_NONE) nb_set(&r, k);
    }
    return r;
}
static inline kontor_bb bb_of_nb(nb_t a, const kontor_config *cfg) {
    kontor_bb r = bb_empty();
    for (int i = 0; i < 2; i++)
        for (uint64_t w = a.w[i]; w; w &= w - 1) bb_set(&r, cfg->win->cell_of[i * 64 + __builtin_ctzll(w)]);
    return r;
}

#endif
