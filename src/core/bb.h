/* bb.h: 256-bit bitboards over the 16x16 grid, as static inline helpers.
 *
 * The board of every variant (at most 8x8 growing around the centre, or a
 * fixed 4x12) fits a 16x16 grid with the centre at (7,7). A set of cells is
 * four 64-bit words, each holding four rows of 16 cells, so moving a set one
 * row is a 16-bit shift with a carry between words and moving it one column is
 * a 1-bit shift inside each word with the wrapped column masked off. Area
 * flood fills, enclosure tests and legal-cell generation are then a handful of
 * word operations, which is what makes hundreds of thousands of games a
 * second possible (Stockfish bitboard.h is the model).
 */
#ifndef KONTOR_BB_H
#define KONTOR_BB_H

#include <string.h>

#include "kontor/kontor.h"

typedef kontor_bb bb_t;

/* Column 0 and column 15 of every row, replicated over a word. */
static const uint64_t BB_COL0 = 0x0001000100010001ULL;
static const uint64_t BB_COL15 = 0x8000800080008000ULL;

static inline bb_t bb_empty(void) {
    bb_t r = {{0, 0, 0, 0}};
    return r;
}
static inline bb_t bb_all(void) {
    bb_t r = {{~0ULL, ~0ULL, ~0ULL, ~0ULL}};
    return r;
}
static inline bb_t bb_cell(int c) {
    bb_t r = bb_empty();
    r.w[c >> 6] = 1ULL << (c & 63);
    return r;
}
static inline int bb_test(const bb_t *b, int c) { return (int)((b->w[c >> 6] >> (c & 63)) & 1); }
static inline void bb_set(bb_t *b, int c) { b->w[c >> 6] |= 1ULL << (c & 63); }
static inline void bb_clear(bb_t *b, int c) { b->w[c >> 6] &= ~(1ULL << (c & 63)); }

static inline bb_t bb_and(bb_t a, bb_t b) {
    bb_t r = {{a.w[0] & b.w[0], a.w[1] & b.w[1], a.w[2] & b.w[2], a.w[3] & b.w[3]}};
    return r;
}
static inline bb_t bb_or(bb_t a, bb_t b) {
    bb_t r = {{a.w[0] | b.w[0], a.w[1] | b.w[1], a.w[2] | b.w[2], a.w[3] | b.w[3]}};
    return r;
}
static inline bb_t bb_andnot(bb_t a, bb_t b) { /* a & ~b */
    bb_t r = {{a.w[0] & ~b.w[0], a.w[1] & ~b.w[1], a.w[2] & ~b.w[2], a.w[3] & ~b.w[3]}};
    return r;
}
static inline int bb_any(bb_t a) { return (a.w[0] | a.w[1] | a.w[2] | a.w[3]) != 0; }
static inline int bb_eq(bb_t a, bb_t b) {
    return ((a.w[0] ^ b.w[0]) | (a.w[1] ^ b.w[1]) | (a.w[2] ^ b.w[2]) | (a.w[3] ^ b.w[3])) == 0;
}
static inline int bb_count(bb_t a) {
    return __builtin_popcountll(a.w[0]) + __builtin_popcountll(a.w[1]) +
           __builtin_popcountll(a.w[2]) + __builtin_popcountll(a.w[3]);
}
/* Lowest cell of a non-empty set. */
static inline int bb_first(bb_t a) {
    for (int i = 0; i < 4; i++)
        if (a.w[i]) return i * 64 + __builtin_ctzll(a.w[i]);
    return -1;
}
/* Remove and return the lowest cell of a non-empty set. */
static inline int bb_pop(bb_t *a) {
    for (int i = 0; i < 4; i++)
        if (a->w[i]) {
            int c = i * 64 + __builtin_ctzll(a->w[i]);
            a->w[i] &= a->w[i] - 1;
            return c;
        }
    return -1;
}
/* The n-th lowest cell (0-based) of a set with more than n cells. */
static inline int bb_nth(bb_t a, int n) {
    for (int i = 0; i < 4; i++) {
        int k = __builtin_popcountll(a.w[i]);
        if (n < k) {
            uint64_t w = a.w[i];
            while (n--) w &= w - 1;
            return i * 64 + __builtin_ctzll(w);
        }
        n -= k;
    }
    return -1;
}

/* The orthogonal neighbours of a set (the set itself not included unless a
 * cell of it neighbours another). */
static inline bb_t bb_neighbours(bb_t a) {
    bb_t r;
    /* east: x+1, west: x-1 within each word */
    for (int i = 0; i < 4; i++)
        r.w[i] = ((a.w[i] << 1) & ~BB_COL0) | ((a.w[i] >> 1) & ~BB_COL15);
    /* south: index + 16, north: index - 16, carrying between words */
    r.w[0] |= (a.w[0] << 16) | (a.w[0] >> 16) | (a.w[1] << 48);
    r.w[1] |= (a.w[1] << 16) | (a.w[0] >> 48) | (a.w[1] >> 16) | (a.w[2] << 48);
    r.w[2] |= (a.w[2] << 16) | (a.w[1] >> 48) | (a.w[2] >> 16) | (a.w[3] << 48);
    r.w[3] |= (a.w[3] << 16) | (a.w[2] >> 48) | (a.w[3] >> 16);
    return r;
}

/* The orthogonal neighbours of one cell: bb_neighbours(bb_cell(c)) in four
 * bit sets instead of a pass over the four words. */
static inline bb_t bb_around(int c) {
    bb_t r = bb_empty();
    if (c & 15) bb_set(&r, c - 1);
    if ((c & 15) != 15) bb_set(&r, c + 1);
    if (c >= 16) bb_set(&r, c - 16);
    if (c < 240) bb_set(&r, c + 16);
    return r;
}

/* The orthogonal neighbours of one cell c as three words: w[1] those in
 * c's own word (c >> 6), w[0] and w[2] those in the words before and after
 * it (0 when none). A table (6 KiB) read by the placement, where working
 * them out cost ~26 instructions a card. */
typedef struct bb_near3 {
    uint64_t w[3];
} bb_near3;
#define BB_NBIT(c) (1ULL << ((c) & 63))
#define BB_NEAR1(c)                                                                                                    \
    {{((c) & 63) < 16 && (c) >= 64 ? BB_NBIT(c) << 48 : 0,                                                            \
      ((BB_NBIT(c) << 1) & ~0x0001000100010001ULL) | ((BB_NBIT(c) >> 1) & ~0x8000800080008000ULL) | (BB_NBIT(c) << 16) | (BB_NBIT(c) >> 16),    \
      ((c) & 63) >= 48 && (c) < 192 ? BB_NBIT(c) >> 48 : 0}}
#define BB_NEAR4(c) BB_NEAR1(c), BB_NEAR1((c) + 1), BB_NEAR1((c) + 2), BB_NEAR1((c) + 3)
#define BB_NEAR16(c) BB_NEAR4(c), BB_NEAR4((c) + 4), BB_NEAR4((c) + 8), BB_NEAR4((c) + 12)
#define BB_NEAR64(c) BB_NEAR16(c), BB_NEAR16((c) + 16), BB_NEAR16((c) + 32), BB_NEAR16((c) + 48)
static const bb_near3 BB_NEAR[256] = {BB_NEAR64(0), BB_NEAR64(64), BB_NEAR64(128), BB_NEAR64(192)};

/* BB_NEAR[c] as three words (for updates in place of a state's bitboards,
 * where bb_around's set would be built in memory). */
static inline void bb_near(int c, uint64_t near[3]) {
    near[0] = BB_NEAR[c].w[0];
    near[1] = BB_NEAR[c].w[1];
    near[2] = BB_NEAR[c].w[2];
}

/* The connected component (orthogonal) of within that contains seed. */
static inline bb_t bb_flood(bb_t seed, bb_t within) {
    bb_t a = bb_and(seed, within);
    for (;;) {
        bb_t n = bb_and(bb_or(a, bb_neighbours(a)), within);
        if (bb_eq(n, a)) return a;
        a = n;
    }
}

/* ---- eight rows as two words ----
 * Every card lies inside the board's extent, at most eight rows high in all
 * but the fixed boards, so an area and everything a flood fill of it reads
 * fit rows r0..r0+7 of the grid: 128 bits, two words instead of four. A
 * window is cut out of a bitboard and put back by shifts; a fill in it costs
 * half the word operations of one on the whole grid. */
typedef struct bb_win {
    uint64_t w[2]; /* rows r0..r0+3, r0+4..r0+7, 16 cells a row */
} bb_win;

/* Rows r0..r0+7 (0 <= r0 <= 15) of b; rows past the grid read empty. */
static inline bb_win bb_window(const bb_t *b, int r0) {
    int q = r0 >> 2, sh = (r0 & 3) * 16;
    uint64_t w0 = b->w[q], w1 = q < 3 ? b->w[q + 1] : 0, w2 = q < 2 ? b->w[q + 2] : 0;
    bb_win r;
    if (sh) {
        r.w[0] = (w0 >> sh) | (w1 << (64 - sh));
        r.w[1] = (w1 >> sh) | (w2 << (64 - sh));
    } else {
        r.w[0] = w0, r.w[1] = w1;
    }
    return r;
}

/* The window's cells as a bitboard of the grid (the inverse of bb_window
 * for a set inside rows r0..r0+7). */
static inline bb_t bb_unwindow(bb_win a, int r0) {
    int q = r0 >> 2, sh = (r0 & 3) * 16;
    bb_t r = bb_empty();
    r.w[q] = a.w[0] << sh;
    if (q < 3) r.w[q + 1] = sh ? (a.w[0] >> (64 - sh)) | (a.w[1] << sh) : a.w[1];
    if (q < 2 && sh) r.w[q + 2] = a.w[1] >> (64 - sh);
    return r;
}

/* Row y (0..15) of b as 16 bits. */
static inline uint64_t bb_row(const bb_t *b, int y) { return (b->w[y >> 2] >> ((y & 3) * 16)) & 0xFFFFULL; }

/* bb_neighbours inside a window (cells beyond its rows are left out). */
static inline bb_win bb_win_neighbours(bb_win a) {
    bb_win r;
    for (int i = 0; i < 2; i++) r.w[i] = ((a.w[i] << 1) & ~BB_COL0) | ((a.w[i] >> 1) & ~BB_COL15);
    r.w[0] |= (a.w[0] << 16) | (a.w[0] >> 16) | (a.w[1] << 48);
    r.w[1] |= (a.w[1] << 16) | (a.w[0] >> 48) | (a.w[1] >> 16);
    return r;
}

/* ---- eight rows as one value (bb_w) ----
 * Rows r0..r0+7 of a bitboard are the 16 bytes at byte 2 * r0 of its four
 * little-endian words (16 cells a row, two bytes): a window is one unaligned
 * load, not shifts across three words. With SSE2 it is one register whose
 * 16-bit lanes are the rows, so a cell's west and east neighbours are lane
 * shifts (a lane holds exactly a row: no column masks) and its north and
 * south ones a shift of the register by two bytes. Without SSE2 (or with
 * KONTOR_NO_SSE2, to test that path) a bb_w is a bb_win and the same
 * functions work on its two words. The enclosure test (area.c) is their
 * user; property_window_ops_agree_with_the_grid (tests/test_properties.c) checks
 * each against the four-word bitboards. */
#if defined(__SSE2__) && !defined(KONTOR_NO_SSE2)
#include <emmintrin.h>
typedef __m128i bb_w;
/* rows r0..r0+7 of b, 0 <= r0 <= 8 */
static inline bb_w bbw_load(const bb_t *b, int r0) {
    return _mm_loadu_si128((const __m128i *)(const void *)((const char *)b->w + 2 * r0));
}
/* b's rows r0..r0+7 |= a */
static inline void bbw_or_into(bb_t *b, int r0, bb_w a) {
    __m128i *p = (__m128i *)(void *)((char *)b->w + 2 * r0);
    _mm_storeu_si128(p, _mm_or_si128(_mm_loadu_si128(p), a));
}
static inline bb_w bbw_make(uint64_t lo, uint64_t hi) { return _mm_set_epi64x((long long)hi, (long long)lo); }
static inline uint64_t bbw_lo(bb_w a) { return (uint64_t)_mm_cvtsi128_si64(a); }
static inline uint64_t bbw_hi(bb_w a) { return (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(a, a)); }
static inline bb_w bbw_and(bb_w a, bb_w b) { return _mm_and_si128(a, b); }
static inline bb_w bbw_or(bb_w a, bb_w b) { return _mm_or_si128(a, b); }
static inline bb_w bbw_andnot(bb_w a, bb_w b) { return _mm_andnot_si128(b, a); } /* a & ~b */
static inline int bbw_any(bb_w a) { return _mm_movemask_epi8(_mm_cmpeq_epi8(a, _mm_setzero_si128())) != 0xFFFF; }
static inline int bbw_eq(bb_w a, bb_w b) { return _mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) == 0xFFFF; }
/* the west and east neighbours */
static inline bb_w bbw_beside(bb_w a) { return _mm_or_si128(_mm_slli_epi16(a, 1), _mm_srli_epi16(a, 1)); }
/* each row moved one row down (row i to row i + 1; the first row empty) */
static inline bb_w bbw_down(bb_w a) { return _mm_slli_si128(a, 2); }
/* bb_win_neighbours */
static inline bb_w bbw_nb(bb_w a) {
    return _mm_or_si128(bbw_beside(a), _mm_or_si128(_mm_slli_si128(a, 2), _mm_srli_si128(a, 2)));
}
/* Cell wc of a window (0..127) alone, and its neighbours in the window,
 * each one load from a table slid by the cell's byte (its row): the bit's
 * byte sits at byte 16 of BBW_ONE[wc & 7], a column's neighbours around
 * byte 16 of BBW_AROUND[x] (the row above at 14, the cell's row at 16, the
 * row below at 18; what slides out of the 16 bytes lies beyond the window). */
#define BBW_ONE_ROW(b) [b][16] = 1 << (b)
static const uint8_t BBW_ONE[8][32] = {BBW_ONE_ROW(0), BBW_ONE_ROW(1), BBW_ONE_ROW(2), BBW_ONE_ROW(3),
                                       BBW_ONE_ROW(4), BBW_ONE_ROW(5), BBW_ONE_ROW(6), BBW_ONE_ROW(7)};
#define BBW_SIDES(x) ((((x) > 0 ? 1u << ((x) - 1) : 0u) | ((x) < 15 ? 1u << ((x) + 1) : 0u)) & 0xFFFFu)
#define BBW_AROUND_COL(x)                                                                                              \
    [x][14] = (1u << (x)) & 0xFF, [x][15] = (1u << (x)) >> 8, [x][16] = BBW_SIDES(x) & 0xFF,                          \
    [x][17] = BBW_SIDES(x) >> 8, [x][18] = (1u << (x)) & 0xFF, [x][19] = (1u << (x)) >> 8
static const uint8_t BBW_AROUND[16][48] = {
    BBW_AROUND_COL(0),  BBW_AROUND_COL(1),  BBW_AROUND_COL(2),  BBW_AROUND_COL(3), BBW_AROUND_COL(4),  BBW_AROUND_COL(5),
    BBW_AROUND_COL(6),  BBW_AROUND_COL(7),  BBW_AROUND_COL(8),  BBW_AROUND_COL(9), BBW_AROUND_COL(10), BBW_AROUND_COL(11),
    BBW_AROUND_COL(12), BBW_AROUND_COL(13), BBW_AROUND_COL(14), BBW_AROUND_COL(15)};
static inline bb_w bbw_cell(int wc) { return _mm_loadu_si128((const __m128i *)(const void *)&BBW_ONE[wc & 7][16 - (wc >> 3)]); }
static inline bb_w bbw_around(int wc) {
    return _mm_loadu_si128((const __m128i *)(const void *)&BBW_AROUND[wc & 15][16 - 2 * (wc >> 4)]);
}
#else
typedef bb_win bb_w;
static inline bb_w bbw_load(const bb_t *b, int r0) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    bb_w r;
    memcpy(r.w, (const char *)b->w + 2 * r0, 16);
    return r;
#else
    return bb_window(b, r0);
#endif
}
static inline void bbw_or_into(bb_t *b, int r0, bb_w a) {
    bb_t u = bb_unwindow(a, r0);
    for (int i = 0; i < 4; i++) b->w[i] |= u.w[i];
}
static inline bb_w bbw_make(uint64_t lo, uint64_t hi) {
    bb_w r = {{lo, hi}};
    return r;
}
static inline uint64_t bbw_lo(bb_w a) { return a.w[0]; }
static inline uint64_t bbw_hi(bb_w a) { return a.w[1]; }
static inline bb_w bbw_and(bb_w a, bb_w b) { return bbw_make(a.w[0] & b.w[0], a.w[1] & b.w[1]); }
static inline bb_w bbw_or(bb_w a, bb_w b) { return bbw_make(a.w[0] | b.w[0], a.w[1] | b.w[1]); }
static inline bb_w bbw_andnot(bb_w a, bb_w b) { return bbw_make(a.w[0] & ~b.w[0], a.w[1] & ~b.w[1]); }
static inline int bbw_any(bb_w a) { return (a.w[0] | a.w[1]) != 0; }
static inline int bbw_eq(bb_w a, bb_w b) { return ((a.w[0] ^ b.w[0]) | (a.w[1] ^ b.w[1])) == 0; }
static inline bb_w bbw_beside(bb_w a) {
    return bbw_make(((a.w[0] << 1) & ~BB_COL0) | ((a.w[0] >> 1) & ~BB_COL15),
                    ((a.w[1] << 1) & ~BB_COL0) | ((a.w[1] >> 1) & ~BB_COL15));
}
static inline bb_w bbw_down(bb_w a) { return bbw_make(a.w[0] << 16, (a.w[1] << 16) | (a.w[0] >> 48)); }
static inline bb_w bbw_nb(bb_w a) { return bb_win_neighbours(a); }
static inline bb_w bbw_cell(int wc) { return bbw_make(wc < 64 ? 1ULL << (wc & 63) : 0, wc < 64 ? 0 : 1ULL << (wc & 63)); }
static inline bb_w bbw_around(int wc) { return bb_win_neighbours(bbw_cell(wc)); }
#endif

/* BB_ROWS_BELOW[k]: the cells of rows 0..k-1. */
static const bb_t BB_ROWS_BELOW[17] = {
    {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
    {{0x000000000000FFFFULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
    {{0x00000000FFFFFFFFULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
    {{0x0000FFFFFFFFFFFFULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
    {{0xFFFFFFFFFFFFFFFFULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
    {{0xFFFFFFFFFFFFFFFFULL, 0x000000000000FFFFULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
    {{0xFFFFFFFFFFFFFFFFULL, 0x00000000FFFFFFFFULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
    {{0xFFFFFFFFFFFFFFFFULL, 0x0000FFFFFFFFFFFFULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
    {{0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
    {{0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0x000000000000FFFFULL, 0x0000000000000000ULL}},
    {{0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0x00000000FFFFFFFFULL, 0x0000000000000000ULL}},
    {{0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0x0000FFFFFFFFFFFFULL, 0x0000000000000000ULL}},
    {{0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0x0000000000000000ULL}},
    {{0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0x000000000000FFFFULL}},
    {{0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0x00000000FFFFFFFFULL}},
    {{0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0x0000FFFFFFFFFFFFULL}},
    {{0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL}},
};

/* Rows y0..y1 and columns x0..x1 (grid coordinates, inclusive). */
static inline bb_t bb_rect(int x0, int x1, int y0, int y1) {
    bb_t r = bb_empty();
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > 15) x1 = 15;
    if (y1 > 15) y1 = 15;
    if (x0 > x1 || y0 > y1) return r;
    uint64_t row = (((1ULL << (x1 - x0 + 1)) - 1) << x0) & 0xFFFFULL;
    uint64_t rows = row * 0x0001000100010001ULL; /* the row in all four rows of a word */
    bb_t in = bb_andnot(BB_ROWS_BELOW[y1 + 1], BB_ROWS_BELOW[y0]);
    for (int i = 0; i < 4; i++) r.w[i] = rows & in.w[i];
    return r;
}

#endif
