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

/* ---- the layout, for the rule files (issue 17's narrow board) ----
 * The rule files (src/core) know a set's layout only through what follows:
 * a cell's bit in a state's set (bb_bit, and back: bb_cell_of), its word and
 * its bit in the word, its neighbours' three words (bb_near_of), the rows and
 * columns of the grid (bb_column, bb_line, bb_row16, the lines a mask loses),
 * and the placement's window of eight rows (PLACE_WIN, bbw_at). Today a bit
 * is its cell (y * 16 + x over the 16x16 grid); the helpers that a narrower
 * board would work out from the config take it (const kontor_config *,
 * unused here), so that the narrow board (a config's window of at most 128
 * cells) changes this file and the callers' types, not their code. A cell
 * number (moves, records, the extent minx..maxy) stays the grid's. */
struct kontor_config;

/* A cell's column and row on the grid (public numbering: y * 16 + x). */
#define BB_X(c) ((c) & (KONTOR_GRID - 1))
#define BB_Y(c) ((c) >> 4)
_Static_assert(KONTOR_GRID == 16, "BB_Y's shift");
static inline int bb_x(int c) { return BB_X(c); }
static inline int bb_y(int c) { return BB_Y(c); }
static inline int bb_xy(int x, int y) { return y * KONTOR_GRID + x; }
/* The last column and row of the grid. */
#define BB_XMAX (KONTOR_GRID - 1)
#define BB_YMAX (KONTOR_GRID - 1)

/* A cell's bit in a state's sets, and the cell of a bit (the same number
 * on the 16x16 grid). Type-generic (macros), so that a caller's unsigned
 * index stays one (no sign to extend). */
#define bb_bit(cfg, c) ((void)(cfg), (c))
#define bb_cell_of(cfg, b) ((void)(cfg), (b))
/* The words of a set; a bit's word and its mask in it; a word's bit k as
 * a bit of the set. */
#define BB_WORDS 4
#define BB_WORD(set, i) ((set).w[i])
#define BB_WORD_OF(b) ((b) >> 6)
#define BB_MASK_OF(b) (1ULL << ((b) & 63))
#define BB_BIT_AT(i, k) ((i) * 64 + (k))

/* A bit's neighbours as three words (BB_NEAR: its own word's in [1], the
 * words before and after in [0] and [2], 0 where there is none). */
static inline const uint64_t *bb_near_of(const struct kontor_config *cfg, size_t b) {
    (void)cfg;
    return BB_NEAR[b].w;
}
/* *set |= the neighbours of bit b */
static inline void bb_or_near(bb_t *set, const uint64_t *near, size_t b) {
    size_t i = BB_WORD_OF(b);
    set->w[i] |= near[1];
    if (near[0]) set->w[i - 1] |= near[0];
    if (near[2]) set->w[i + 1] |= near[2];
}
/* A card laid on bit b (occ already holds it): its free neighbours join
 * the frontier, the cell leaves it. */
static inline void bb_front_lay(bb_t *front, const bb_t *occ, const uint64_t *near, size_t b) {
    size_t i = BB_WORD_OF(b);
    front->w[i] = (front->w[i] | (near[1] & ~occ->w[i])) & ~BB_MASK_OF(b);
    if (near[0]) front->w[i - 1] |= near[0] & ~occ->w[i - 1];
    if (near[2]) front->w[i + 1] |= near[2] & ~occ->w[i + 1];
}
/* The neighbours of bit b in a and not in n, as a set. */
static inline bb_t bb_near_andnot(const bb_t *a, const bb_t *n, const uint64_t *near, size_t b) {
    bb_t r = bb_empty();
    size_t i = BB_WORD_OF(b);
    r.w[i] = near[1] & a->w[i] & ~n->w[i];
    if (near[0]) r.w[i - 1] = near[0] & a->w[i - 1] & ~n->w[i - 1];
    if (near[2]) r.w[i + 1] = near[2] & a->w[i + 1] & ~n->w[i + 1];
    return r;
}
/* Whether bit b has a neighbour in a and not in n. */
static inline int bb_near_any_andnot(const bb_t *a, const bb_t *n, const uint64_t *near, size_t b) {
    size_t i = BB_WORD_OF(b);
    uint64_t r = near[1] & a->w[i] & ~n->w[i];
    if (near[0]) r |= near[0] & a->w[i - 1] & ~n->w[i - 1];
    if (near[2]) r |= near[2] & a->w[i + 1] & ~n->w[i + 1];
    return r != 0;
}
/* Whether bit b has a free neighbour (not in occ) in mask or, with edges
 * 0, anywhere: the gaps next to a cell (rules.h's touches_gap). */
static inline int bb_near_any_gap(const bb_t *occ, const bb_t *mask, uint64_t edges, const uint64_t *near, size_t b) {
    size_t i = BB_WORD_OF(b);
    uint64_t r = near[1] & ~occ->w[i] & (mask->w[i] | ~edges);
    if (near[0]) r |= near[0] & ~occ->w[i - 1] & (mask->w[i - 1] | ~edges);
    if (near[2]) r |= near[2] & ~occ->w[i + 1] & (mask->w[i + 1] | ~edges);
    return r != 0;
}
/* The neighbours (nb, bb_near_of's) of a bit of word w in a and not in n,
 * in word w - 1 + k (k = 0, 1, 2; 0 where there is none: nb[0] is 0 in
 * the first word, nb[2] in the last): a draw among them counts and picks
 * in registers (the playout's removal). One word a call, not a struct or
 * arrays: the playout's loop keeps its generator in registers (with a
 * struct of the three, basic +680 instructions a game). */
static inline uint64_t bb_near_word_andnot(const bb_t *a, const bb_t *n, const uint64_t *nb, unsigned w, int k) {
    if (k == 1) return nb[1] & a->w[w] & ~n->w[w];
    return nb[k] ? nb[k] & a->w[w + k - 1] & ~n->w[w + k - 1] : 0;
}

/* The counts of b's words, summed: c0 the first, c1 the first two, c2 the
 * first three, all of them (for bb_nth_counted). */
typedef struct bb_counts_t {
    unsigned c0, c1, c2, all;
} bb_counts_t;
static inline bb_counts_t bb_counts(const bb_t *b) {
    bb_counts_t r;
    r.c0 = (unsigned)__builtin_popcountll(b->w[0]);
    r.c1 = r.c0 + (unsigned)__builtin_popcountll(b->w[1]);
    r.c2 = r.c1 + (unsigned)__builtin_popcountll(b->w[2]);
    r.all = r.c2 + (unsigned)__builtin_popcountll(b->w[3]);
    return r;
}
/* The i-th lowest bit of b (0-based, below its count), given bb_counts'
 * c0..c2: no word counted again. */
static inline int bb_nth_counted(const bb_t *b, unsigned i, unsigned c0, unsigned c1, unsigned c2) {
    unsigned q = 0, below = 0;
    if (i >= c0) {
        q = 1, below = c0;
        if (i >= c1) {
            q = 2, below = c1;
            if (i >= c2) q = 3, below = c2;
        }
    }
    uint64_t w = b->w[q];
    for (unsigned m = i - below; m > 0; m--) w &= w - 1;
    return (int)q * 64 + __builtin_ctzll(w);
}
/* The words or'ed together: nonzero when b has a cell; with two cells or
 * more in one word, or in two, bb_fold & (bb_fold - 1) is not always
 * nonzero, so only for a set whose cells lie each in a word of their own
 * or for emptiness, and for the columns (bb_fold_has_col). */
static inline uint64_t bb_fold(const bb_t *b) { return b->w[0] | b->w[1] | b->w[2] | b->w[3]; }
/* Whether a set's fold (bb_fold) holds a cell of column x. */
static inline int bb_fold_has_col(uint64_t fold, int x) { return (fold & (BB_COL0 << x)) != 0; }
/* The columns of a set as bits 0..15 (bit x: a cell in column x). */
static inline unsigned bb_cols(const bb_t *b) {
    uint64_t any = bb_fold(b);
    any |= any >> 32;
    any |= any >> 16;
    return (unsigned)(any & 0xFFFF);
}
/* The highest bit of a non-empty set. */
static inline int bb_last(const bb_t *b) {
    for (int i = 3; i >= 0; i--)
        if (b->w[i]) return i * 64 + 63 - __builtin_clzll(b->w[i]);
    return -1;
}
/* Whether the words or'ed have two bits: then the set has two cells at
 * least (one cell gives one bit; the converse needs its cells not at one
 * bit of two words: start_turn_all tests exactly, round.c). */
static inline int bb_fold_two(const bb_t *b) {
    uint64_t x = bb_fold(b);
    return (x & (x - 1)) != 0;
}

/* Column x (0..15) and row y (0..15) of the grid as sets. */
static inline bb_t bb_column(int x) {
    uint64_t c = BB_COL0 << x;
    bb_t r = {{c, c, c, c}};
    return r;
}
static inline bb_t bb_line(int y) {
    bb_t r = bb_empty();
    r.w[y >> 2] = 0xFFFFULL << ((y & 3) * 16);
    return r;
}
/* Columns given as bits 0..15 (bb_cols' form), every row of them. */
static inline bb_t bb_columns(uint64_t cols) {
    bb_t r;
    for (int i = 0; i < 4; i++) r.w[i] = cols * BB_COL0;
    return r;
}
/* b |= row y */
static inline void bb_or_line(bb_t *b, int y) { b->w[y >> 2] |= 0xFFFFULL << 16 * (y & 3); }
/* b loses row y; the set of row y2 of b after it */
static inline bb_t bb_drop_line(bb_t *b, int y, int y2) {
    b->w[y >> 2] &= ~(0xFFFFULL << 16 * (y & 3));
    bb_t r = bb_empty();
    r.w[y2 >> 2] = b->w[y2 >> 2] & 0xFFFFULL << 16 * (y2 & 3);
    return r;
}
/* b loses column x; the set of column x2 of b after it */
static inline bb_t bb_drop_column(bb_t *b, int x, int x2) {
    bb_t r;
    uint64_t col = BB_COL0 << x;
    for (int i = 0; i < 4; i++) {
        uint64_t m = b->w[i] & ~col;
        b->w[i] = m;
        r.w[i] = m & BB_COL0 << x2;
    }
    return r;
}
/* Row y (0..15) of b as 16 bits: its two bytes (bb_row on a big-endian
 * machine). */
static inline uint64_t bb_row16(const bb_t *b, int y) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint16_t v;
    memcpy(&v, (const char *)b->w + 2 * y, 2);
    return v;
#else
    return bb_row(b, y);
#endif
}

/* ---- the windows' geometry ---- */
/* A window's bit of a grid cell in rows r0..r0+7, and the bit of the
 * window's first cell (its bit 0) as a bit of the set. */
static inline int bbw_index(int c, int r0) { return c - r0 * KONTOR_GRID; }
static inline int bbw_base(int r0) { return r0 * KONTOR_GRID; }
/* The window's first row and its last (row 7) as windows. */
static inline bb_w bbw_first_row(void) { return bbw_make(0xFFFF, 0); }
static inline bb_w bbw_last_row(void) { return bbw_make(0, 0xFFFFULL << 48); }
/* The window's sets moved a column: bbw_west's cell x holds a's cell x - 1,
 * bbw_east's a's x + 1. */
#if defined(__SSE2__) && !defined(KONTOR_NO_SSE2)
static inline bb_w bbw_west(bb_w a) { return _mm_slli_epi16(a, 1); }
static inline bb_w bbw_east(bb_w a) { return _mm_srli_epi16(a, 1); }
#else
static inline bb_w bbw_west(bb_w a) { return bbw_make((a.w[0] << 1) & ~BB_COL0, (a.w[1] << 1) & ~BB_COL0); }
static inline bb_w bbw_east(bb_w a) { return bbw_make((a.w[0] >> 1) & ~BB_COL15, (a.w[1] >> 1) & ~BB_COL15); }
#endif
/* The first row r of the window of eight rows that holds cell c's row, the
 * two rows above it and the row below (inside the grid): y - 2 inside 0..8,
 * from a table (two compares before: basic -20 instructions a game,
 * advanced -30; session thirteen). */
static inline int bbw_rows_around(int c) {
    static const uint8_t FROM_ROW[16] = {0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 8, 8};
    return FROM_ROW[BB_Y(c)];
}
/* The window of a set's first eight rows and of its last eight, stored:
 * b = lo's and hi's rows. */
static inline void bbw_store2(bb_t *b, bb_w lo, bb_w hi) {
#if defined(__SSE2__) && !defined(KONTOR_NO_SSE2)
    _mm_storeu_si128((__m128i *)(void *)&b->w[0], lo);
    _mm_storeu_si128((__m128i *)(void *)&b->w[2], hi);
#else
    b->w[0] = lo.w[0], b->w[1] = lo.w[1], b->w[2] = hi.w[0], b->w[3] = hi.w[1];
#endif
}
/* The windows of a set's two halves: rows 0..7 and 8..15. */
#define BBW_LO_ROW 0
#define BBW_HI_ROW 8

/* The playout's placement works in the eight rows from two above the card
 * (inside the grid), which hold its neighbours and theirs: PLACE_WIN[c].r2
 * is twice that first row (the window's byte in a bitboard, bbw_load's 2 *
 * r0), .around where bbw_around finds the card's neighbours in BBW_AROUND
 * (a table: working both out cost ~25 instructions a card). */
typedef struct place_win {
    uint16_t r2, around;
    uint32_t ext; /* outside_win's: the cell's x, 15 - x, y, 15 - y in bytes 0..3, each | 0x80 */
} place_win;
#define PLACE_R(c) ((c) >> 4 < 2 ? 0 : (c) >> 4 > 10 ? 8 : ((c) >> 4) - 2)
#define PLACE_EXT(c)                                                                                                   \
    (0x80808080u | (uint32_t)((c) & 15) | (uint32_t)(15 - ((c) & 15)) << 8 | (uint32_t)((c) >> 4) << 16 |           \
     (uint32_t)(15 - ((c) >> 4)) << 24)
#define PLACE_WIN1(c) {2 * PLACE_R(c), ((c) & 15) * 48 + 16 - 2 * (((c) >> 4) - PLACE_R(c)), PLACE_EXT(c)}
#define PLACE_WIN4(c) PLACE_WIN1(c), PLACE_WIN1((c) + 1), PLACE_WIN1((c) + 2), PLACE_WIN1((c) + 3)
#define PLACE_WIN16(c) PLACE_WIN4(c), PLACE_WIN4((c) + 4), PLACE_WIN4((c) + 8), PLACE_WIN4((c) + 12)
#define PLACE_WIN64(c) PLACE_WIN16(c), PLACE_WIN16((c) + 16), PLACE_WIN16((c) + 32), PLACE_WIN16((c) + 48)
static const place_win PLACE_WIN[256] = {PLACE_WIN64(0), PLACE_WIN64(64), PLACE_WIN64(128), PLACE_WIN64(192)};
/* A cell's window (PLACE_WIN) for a config. */
static inline const place_win *place_win_of(const struct kontor_config *cfg, size_t c) {
    (void)cfg;
    return &PLACE_WIN[c];
}
/* b's window at byte r2 (bbw_load(b, r2 / 2)) */
static inline bb_w bbw_at(const bb_t *b, size_t r2) {
#if defined(__SSE2__) && !defined(KONTOR_NO_SSE2)
    return _mm_loadu_si128((const __m128i *)(const void *)((const char *)b->w + r2));
#else
    return bbw_load(b, (int)(r2 / 2));
#endif
}
/* b's rows r0..r0+7 = a, the window at byte r2 (bbw_at's inverse): the
 * placement writes a bitboard's window back whole, the rows it did not
 * change as it read them. */
static inline void bbw_put(bb_t *b, size_t r2, bb_w a) {
#if defined(__SSE2__) && !defined(KONTOR_NO_SSE2)
    _mm_storeu_si128((__m128i *)(void *)((char *)b->w + r2), a);
#else
    int r0 = (int)(r2 / 2);
    bb_t rows = bb_andnot(BB_ROWS_BELOW[r0 + 8], BB_ROWS_BELOW[r0]);
    *b = bb_or(bb_andnot(*b, rows), bb_unwindow(a, r0));
#endif
}
/* b's window at byte r2 |= a */
static inline void bbw_or_at(bb_t *b, size_t r2, bb_w a) { bbw_put(b, r2, bbw_or(bbw_at(b, r2), a)); }
/* The card's neighbours in its window (bbw_around(c - 8 * w.r2)). */
static inline bb_w place_around(size_t c, place_win w) {
#if defined(__SSE2__) && !defined(KONTOR_NO_SSE2)
    (void)c;
    return _mm_loadu_si128((const __m128i *)(const void *)(&BBW_AROUND[0][0] + w.around));
#else
    return bbw_around((int)c - 8 * w.r2);
#endif
}

#endif
