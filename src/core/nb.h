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
