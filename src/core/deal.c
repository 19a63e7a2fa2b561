/* deal.c: the set-up: shuffling a deal, checking a written one, laying out
 * the start (the water cross, the hands, the piles, the scenarios' extras).
 *
 * All randomness of a game is here: after kontor_new the game is a pure
 * function of the decisions. A deal can be written down (kontor_deal) and
 * replayed, which is how records carry it. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/rules.h"
#include "core/window.h"

/* ---- set-up --------------------------------------------------------------------- */

static inline int is_removed(const kontor_config *cfg, int id) {
    if (cfg->remove_kinds) return kontor_card_removed(cfg, id); /* scenarios: by kind too */
    return (int)((cfg->removed[id >> 6] >> (id & 63)) & 1);
}

static void shuffle(uint8_t *a, int n, kontor_rng *rng) {
    kontor_rng r = *rng; /* a local: the byte stores below may alias *rng, which would be reloaded each time */
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(&r, (uint32_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    *rng = r;
}

/* For each of njob lists in turn (job[q]: a, n, k, out), the same
 * Fisher-Yates as shuffle (the same draws, the same order), with the places
 * from k on written to out[i - k] as each is settled (a settled place is
 * never read again) instead of into a: kontor_new's deal straight into the
 * state's piles, the places below k (the start, the hands) left in a. The
 * lists one after the other in one call (kontor_new's three classes): the
 * generator's four words stay in registers throughout (a call for each cost
 * ~45 instructions of saved registers and set-up). k is at least 1 (the
 * assembly's loops: no place 0 to settle; kontor_new's jobs have k of 3 or
 * more, the hands' three dock cards, the start and the hands' water: the
 * general form's stop and its last place cost ~26 instructions a deal in
 * the jobs' loop; the C loops keep k = 0). */
typedef struct split_job {
    uint8_t *a, *out;
    int n, k;
} split_job;
#if defined(__x86_64__) && !defined(KONTOR_NO_ASM)
/* On x86-64 the two loops of a list are a block of assembly each, the
 * same draws as rng_below(r, i + 1) (xoshiro256** and Lemire's bound, rng.h)
 * with the product taken another way: the number with its low half cleared
 * times n as one 128-bit product (mulq), (x >> 32 << 32) * n = m << 32 for
 * Lemire's m = (x >> 32) * n, so the product's high word (rdx) is the index
 * m >> 32 itself and its low word (rax) m's low half << 32. Lemire's test
 * (m's low half below n) is then the low word below n << 32; the loops test
 * it against sure = (the list's n) << 32, which holds for every n of the
 * list, and only below it (2^-26 of the draws for a list of 43) work out
 * rng_below's exact bound t = 2^32 mod n by a div and draw again while m's
 * low half is below it (below t is below n too: rng_below's two tests in one).
 * A draw is then 21 instructions: the generator's 11, and, mulq, cmp, jb,
 * the two byte moves (loads and stores by rdx), and half of the loop's lea,
 * sub, cmp, ja (two places a turn; 22 with one). In C, GCC made it 24 (a
 * shift for the index, an add of the list's address for its load and
 * store); with the 128-bit product written in C it made n a 128-bit
 * induction variable (an imul and an adc more), and with the product in a
 * line of assembly it kept rax and rdx in other registers, or on the stack,
 * for the rejection's path (26 to 29 a draw; session sixteen). sure and
 * stop may be memory operands ("rm": the same count of instructions): a
 * sanitizer's build, with its frame pointer and its stack, has too few
 * registers for all of them.
 * The generator's step, its number's top half in rax, times M: rdx:rax. */
#define SPLIT_DRAW(M)                                                                                                  \
    "lea (%[s1],%[s1],4), %%rax\n\t"                                                                                   \
    "rol $7, %%rax\n\t"                                                                                                \
    "lea (%%rax,%%rax,8), %%rax\n\t"                                                                                   \
    "mov %[s1], %[t]\n\t"                                                                                              \
    "shl $17, %[t]\n\t"                                                                                                \
    "xor %[s0], %[s2]\n\t"                                                                                             \
    "xor %[s1], %[s3]\n\t"                                                                                             \
    "xor %[s2], %[s1]\n\t"                                                                                             \
    "xor %[s3], %[s0]\n\t"                                                                                             \
    "xor %[t], %[s2]\n\t"                                                                                              \
    "rol $45, %[s3]\n\t"                                                                                               \
    "and %[mask], %%rax\n\t"                                                                                           \
    "mulq " M "\n\t"
/* One place: a draw times M (the place's n, in register m or mm), its
 * rejection's test (out of line, at L3), the place's byte moves (at L2, where
 * the rejection comes back with the index in rdx). */
#define SPLIT_STEP(L, M, MOVES) SPLIT_DRAW(M) "cmp %[sure], %%rax\n\t" "jb " L "3f\n" L "2:\n\t" MOVES
/* The settling place's moves (out[i - k] = a[j], a[j] = a[i]) and the
 * swap's, for the place m + D - 1 + 1 = m + D (D -1 or -2: i = m - 1 or
 * m - 2). */
#define SPLIT_SETTLE(D)                                                                                                \
    "movzbl (%[a],%%rdx), %%eax\n\t"                                                                                   \
    "mov %%al, " D "(%[outk],%[m])\n\t"                                                                                \
    "movzbl " D "(%[a],%[m]), %%eax\n\t"                                                                               \
    "mov %%al, (%[a],%%rdx)\n\t"
#define SPLIT_SWAP(D)                                                                                                  \
    "movzbl (%[a],%%rdx), %%eax\n\t"                                                                                   \
    "movzbl " D "(%[a],%[m]), %k[t]\n\t"                                                                               \
    "mov %%al, " D "(%[a],%[m])\n\t"                                                                                   \
    "mov %b[t], (%[a],%%rdx)\n\t"
/* Lemire's rejection, rare (rax the low word, rdx the index): the index in
 * sp (a stack slot), the low half in t; the bound 2^32 mod M by div
 * (edx:eax = 2^32 - M); at or above it the index back in rdx and on at L2,
 * else the bound in sp and a draw again until the low half (rax >> 32) is at
 * or above it. */
#define SPLIT_REJECT(L, M)                                                                                             \
    L "3:\n\t"                                                                                                         \
    "mov %%rdx, %[sp]\n\t"                                                                                             \
    "mov %%rax, %[t]\n\t"                                                                                              \
    "shr $32, %[t]\n\t"                                                                                                \
    "mov %k" M ", %%eax\n\t"                                                                                           \
    "neg %%eax\n\t"                                                                                                    \
    "xor %%edx, %%edx\n\t"                                                                                             \
    "divl %k" M "\n\t"                                                                                                 \
    "cmp %%edx, %k[t]\n\t"                                                                                             \
    "jae " L "5f\n\t"                                                                                                  \
    "movl %%edx, %[sp]\n"                                                                                              \
    L "6:\n\t" SPLIT_DRAW("%" M) "shr $32, %%rax\n\t"                                                                  \
    "cmpl %[sp], %%eax\n\t"                                                                                            \
    "jb " L "6b\n\t"                                                                                                   \
    "jmp " L "2b\n"                                                                                                    \
    L "5:\n\t"                                                                                                         \
    "mov %[sp], %%rdx\n\t"                                                                                             \
    "jmp " L "2b\n"
/* Each loop two places a turn (m and m - 1: the loop's sub, cmp, ja and
 * mm's lea for two draws), one place first when their count is odd. */
#define SPLIT_LOOP(STOP, MOVES1, MOVES2)                                                                              \
    "jnz 1f\n\t" SPLIT_STEP("1", "%[m]", MOVES1) "sub $1, %[m]\n\t"                                                    \
    "cmp " STOP ", %[m]\n\t"                                                                                           \
    "jb 9f\n"                                                                                                          \
    "1:\n\t"                                                                                                           \
    "lea -1(%[m]), %[mm]\n\t" SPLIT_STEP("2", "%[m]", MOVES1) SPLIT_STEP("3", "%[mm]", MOVES2) "sub $2, %[m]\n\t"      \
    "cmp " STOP ", %[m]\n\t"                                                                                           \
    "ja 1b\n\t"                                                                                                        \
    "jmp 9f\n" SPLIT_REJECT("1", "[m]") SPLIT_REJECT("2", "[m]") SPLIT_REJECT("3", "[mm]") "9:"
#endif
__attribute__((noinline)) static void shuffle_splits(const split_job *job, int njob, kontor_rng *rng) {
#if defined(__x86_64__) && !defined(KONTOR_NO_ASM)
    uint64_t s0 = rng->s[0], s1 = rng->s[1], s2 = rng->s[2], s3 = rng->s[3], mask = 0xFFFFFFFF00000000ULL;
    /* the jobs' loop unrolled (kontor_new's three): no loop control, no
     * spilled end of the list of jobs (session sixteen: -10 a deal) */
#pragma GCC unroll 3
    for (int q = 0; q < njob; q++) {
        int n = job[q].n, k = job[q].k;
        /* m = i + 1 counts the places: a[i] is a[m - 1], out[i - k] outk[m - 1] */
        uint8_t *a = job[q].a, *outk = job[q].out - k;
        uint64_t m = (uint64_t)(uint32_t)n, sure = m << 32, stop = (uint64_t)k + 1, t, mm, sp, rax, rdx;
        if (m >= stop) /* places m down to stop: an odd count when m - stop is even */
            __asm__("mov %[m], %[t]\n\t"
                    "sub %[stop], %[t]\n\t"
                    "test $1, %b[t]\n\t" SPLIT_LOOP("%[stop]", SPLIT_SETTLE("-1"), SPLIT_SETTLE("-2"))
                    : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [m] "+r"(m), [t] "=&r"(t),
                      [mm] "=&r"(mm), [sp] "=m"(sp), "=&a"(rax), "=&d"(rdx)
                    : [a] "r"(a), [outk] "r"(outk), [stop] "rm"(stop), [sure] "rm"(sure), [mask] "r"(mask)
                    : "cc", "memory");
        /* places m down to 2: an odd count when m is even; m > 1 here
         * without a test: kontor_new's jobs have k >= 3 (the start's water,
         * layout_n + 2 a seat; a colour's three dock cards and its hands)
         * and m >= k after the loop above (session sixteen: ~6 a deal;
         * test_intern.c's the_quick_deals_jobs_keep_two_cards_or_more) */
        __asm__("test $1, %b[m]\n\t" SPLIT_LOOP("$2", SPLIT_SWAP("-1"), SPLIT_SWAP("-2"))
                : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [m] "+r"(m), [t] "=&r"(t),
                  [mm] "=&r"(mm), [sp] "=m"(sp), "=&a"(rax), "=&d"(rdx)
                : [a] "r"(a), [sure] "rm"(sure), [mask] "r"(mask)
                : "cc", "memory");
    }
    rng->s[0] = s0, rng->s[1] = s1, rng->s[2] = s2, rng->s[3] = s3;
#else
    kontor_rng r = *rng; /* a local, as in shuffle */
    for (int q = 0; q < njob; q++) {
        uint8_t *a = job[q].a, *out = job[q].out;
        int n = job[q].n, k = job[q].k;
        int i = n - 1, stop = k > 1 ? k : 1;
        for (; i >= stop; i--) {
            int j = (int)rng_below(&r, (uint32_t)i + 1);
            out[i - k] = a[j];
            a[j] = a[i];
        }
        for (; i > 0; i--) {
            int j = (int)rng_below(&r, (uint32_t)i + 1);
            uint8_t x = a[i];
            a[i] = a[j];
            a[j] = x;
        }
        if (k == 0 && n > 0) out[0] = a[0];
    }
    *rng = r;
#endif
}

/* Zero n bytes (a multiple of 8) at p by stores of eight or sixteen bytes.
 * A memset of the state compiles to rep stosq, one instruction a word for
 * callgrind (306 of them a game); a zero the compiler cannot see as one (the
 * empty asm) keeps it from turning the loop back into that memset. */
static inline void zero_words(void *p, size_t n) {
    uint64_t z = 0;
    __asm__("" : "+r"(z));
    unsigned char *b = p;
#pragma GCC unroll 16
    for (size_t i = 0; i < n; i += 8) memcpy(b + i, &z, 8);
}

/* Set n bytes (a multiple of 16) at p to byte, and copy n bytes (a multiple
 * of 16) from src to dst, by stores of sixteen bytes: the memset and memcpy
 * of the cells' cards and the config compiled to rep stos and rep movs,
 * one instruction a word for callgrind (the empty asm, as in zero_words). */
typedef uint8_t deal_v16 __attribute__((vector_size(16), aligned(1)));
#if defined(__x86_64__) || defined(__i386__)
#define DEAL_HIDE16(v) __asm__("" : "+x"(v)) /* in an SSE register */
#else
#define DEAL_HIDE16(v) __asm__("" : : "r"(&(v)) : "memory") /* elsewhere: the bytes through memory */
#endif
static inline void fill16(void *p, size_t n, uint8_t byte) {
    deal_v16 v = {byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte};
    DEAL_HIDE16(v);
    unsigned char *b = p;
    /* 64: every fill of the deal unrolled whole (the state's tail after the
     * cells' cards, 744 bytes with 32 areas: under 16 GCC kept a loop for
     * it, +197 instructions a game; session fifteen) */
#pragma GCC unroll 64
    for (size_t i = 0; i < n; i += 16) memcpy(b + i, &v, 16);
}
static inline void copy16(void *dst, const void *src, size_t n) {
    unsigned char *d = dst;
    const unsigned char *s = src;
#pragma GCC unroll 16
    for (size_t i = 0; i < n; i += 16) {
        deal_v16 v;
        memcpy(&v, s + i, 16);
        DEAL_HIDE16(v);
        memcpy(d + i, &v, 16);
    }
}
/* A class's list of n cards to a: copy16 of the first 32, 64 or all
 * KONTOR_MAX_CARDS bytes of the list (a constant length each, unrolled: the
 * whole list was 6 loads and stores a class, a basic deal's three lists fit
 * 64, 32 and 32). */
static inline void copy_list(uint8_t a[KONTOR_MAX_CARDS], const uint8_t list[KONTOR_MAX_CARDS], int n) {
    _Static_assert(KONTOR_MAX_CARDS % 16 == 0 && KONTOR_MAX_CARDS > 64, "a list copied by 32, 64 or all its bytes");
    if (n <= 32) copy16(a, list, 32);
    else if (n <= 64) copy16(a, list, 64);
    else copy16(a, list, KONTOR_MAX_CARDS);
}

void kontor_deal_shuffle(kontor_deal *d, const kontor_config *cfg, uint64_t seed) {
    kontor_rng rng;
    kontor_rng_seed(&rng, seed);
    zero_words(d, sizeof *d & ~(size_t)7); /* a memset: rep stosq, 50 instructions */
    memset((char *)d + (sizeof *d & ~(size_t)7), 0, sizeof *d & 7);
    const kontor_cardset *cs = cfg->cards;
    uint8_t team[2][KONTOR_MAX_CARDS];
    int nteam[2] = {0, 0}, nwater = 0, nspecial = 0, specials = cfg->specials, ncards = cs->ncards;
    /* the cards out of the game, once (locals: the byte stores below may alias cfg) */
    uint64_t out[2] = {cfg->removed[0], cfg->removed[1]};
    if (cfg->remove_kinds)
        for (int id = 0; id < ncards; id++)
            if (kontor_card_removed(cfg, id)) out[id >> 6] |= 1ULL << (id & 63);
    /* each class in order of id (cs->class_ids, kontor_cards_index): the
     * card set's lists when no card is out of the game (the basic and
     * advanced games, the game for four), else from the bit sets */
    if (!(out[0] | out[1])) {
        nwater = cs->class_n[KONTOR_CLASS_WATER];
        memcpy(d->water, cs->class_list[KONTOR_CLASS_WATER], (size_t)nwater);
        for (int t = 0; t < 2; t++) {
            nteam[t] = cs->class_n[t];
            memcpy(team[t], cs->class_list[t], (size_t)nteam[t]);
        }
        if (specials) {
            nspecial = cs->class_n[KONTOR_CLASS_SPECIAL] < 8 ? cs->class_n[KONTOR_CLASS_SPECIAL] : 8;
            memcpy(d->special, cs->class_list[KONTOR_CLASS_SPECIAL], (size_t)nspecial);
        }
    }
    for (int w = 0; w < 2 && (out[0] | out[1]); w++) {
        for (uint64_t m = cs->class_ids[KONTOR_CLASS_WATER][w] & ~out[w]; m; m &= m - 1)
            d->water[nwater++] = (uint8_t)(w * 64 + __builtin_ctzll(m));
        for (int t = 0; t < 2; t++)
            for (uint64_t m = cs->class_ids[t][w] & ~out[w]; m; m &= m - 1)
                team[t][nteam[t]++] = (uint8_t)(w * 64 + __builtin_ctzll(m));
        for (uint64_t m = specials ? cs->class_ids[KONTOR_CLASS_SPECIAL][w] & ~out[w] : 0; m && nspecial < 8; m &= m - 1)
            d->special[nspecial++] = (uint8_t)(w * 64 + __builtin_ctzll(m));
    }
    d->nwater = (uint8_t)nwater;
    d->nspecial = (uint8_t)nspecial;
    /* Fisher-Yates: the water pile, then each colour, then the special cards */
    shuffle(d->water, d->nwater, &rng);
    for (int t = 0; t < 2; t++) {
        shuffle(team[t], nteam[t], &rng);
        if (cfg->nseats == 4) { /* the team's cards split into two equal piles */
            int half = nteam[t] / 2;
            memcpy(d->dock[t * 2], team[t], (size_t)half);
            memcpy(d->dock[t * 2 + 1], team[t] + half, (size_t)(nteam[t] - half));
            d->ndock[t * 2] = (uint8_t)half;
            d->ndock[t * 2 + 1] = (uint8_t)(nteam[t] - half);
        } else {
            memcpy(d->dock[t], team[t], (size_t)nteam[t]);
            d->ndock[t] = (uint8_t)nteam[t];
        }
    }
    if (d->nspecial > 1) shuffle(d->special, d->nspecial, &rng); /* (draws nothing for fewer) */
    /* the expansions' decks, after everything else: other deals stay as they were */
    if (cfg->events) {
        d->nevents = cfg->nevent_cards;
        for (int i = 0; i < d->nevents; i++) d->events[i] = (uint8_t)i;
        shuffle(d->events, d->nevents, &rng);
    }
    if (cfg->tiles) {
        for (int i = 0; i < KONTOR_TILES; i++) d->tiles[i] = (uint8_t)i;
        shuffle(d->tiles, KONTOR_TILES, &rng);
    }
}

/* The ends of the water cross (N2 E2 S2 W2), where the action tiles lie. */

/* Is the start layout the water cross, which the action tiles need? */
static int has_cross(const kontor_config *cfg) {
    if (cfg->layout_n != 8 || cfg->fixed_board) return 0;
    for (int k = 0; k < 4; k++) {
        int found = 0;
        for (int i = 0; i < 8; i++) found |= cfg->layout[i] == kontor_cell(cross_end[k][0], cross_end[k][1]);
        if (!found) return 0;
    }
    return 1;
}

/* Is a[0..n) a permutation of 0..n-1? */
static int is_perm(const uint8_t *a, int n) {
    uint8_t seen[32] = {0};
    for (int i = 0; i < n; i++)
        if (a[i] >= n || a[i] >= 32 || seen[a[i]]++) return 0;
    return 1;
}

static kontor_status deal_error(kontor_error *err, const char *msg) {
    if (err) {
        memset(err, 0, sizeof *err);
        err->code = KONTOR_E_INVALID;
        snprintf(err->msg, sizeof err->msg, "deal: %s", msg);
    }
    return KONTOR_E_INVALID;
}

static void deal_onto(kontor_state *s, const kontor_config *cfg, const kontor_deal *d);

/* Takes the n cards ids into seen: 1 if each is of the class (bits in), not
 * out of the game (gone) and not met before, else 0. */
static int deal_take(const uint8_t *ids, int n, const uint64_t in[2], const uint64_t gone[2], uint64_t seen[2]) {
    /* may: the cards still to take, in locals (a store through seen[] would
     * make the compiler load every word again for each card) */
    uint64_t may[2] = {in[0] & ~gone[0] & ~seen[0], in[1] & ~gone[1] & ~seen[1]};
    for (int i = 0; i < n; i++) {
        int id = ids[i];
        if (id >= KONTOR_MAX_CARDS) return 0;
        uint64_t bit = 1ULL << (id & 63);
        if (id < 64) {
            if (!(may[0] & bit)) return 0;
            may[0] &= ~bit;
        } else {
            if (!(may[1] & bit)) return 0;
            may[1] &= ~bit;
        }
    }
    /* every card taken was in may and is not any more */
    seen[0] |= in[0] & ~gone[0] & ~seen[0] & ~may[0];
    seen[1] |= in[1] & ~gone[1] & ~seen[1] & ~may[1];
    return 1;
}

/* KONTOR_MAX_AREAS (kontor.h): a board holds at most half its cells' areas,
 * rounded up, so at most 2 * KONTOR_MAX_AREAS cells: the W x H of a board
 * that grows, a fixed board's own (its width and height options do not
 * make it). The options and the layouts keep to it; a config made by hand
 * is held to it here. */
static inline int board_fits(const kontor_config *cfg) {
    if (!cfg->fixed_board) return cfg->width * cfg->height <= 2 * KONTOR_MAX_AREAS;
    return kontor_bb_count(&cfg->board_mask) <= 2 * KONTOR_MAX_AREAS; /* (the config's public 16x16 form) */
}

kontor_status kontor_new_from_deal(kontor_state *s, const kontor_config *cfg, const kontor_deal *d,
                                   kontor_error *err) {
    const kontor_cardset *cs = cfg->cards;
    int ns = cfg->nseats;
    if (ns != 2 && ns != 4) return deal_error(err, "a game is for 2 or 4 players");
    /* the deal must hold every card in play of its class exactly once;
     * checked with bit sets (a replay deals every record: issue 17): in[cl]
     * holds the cards in play of class cl, seen the cards met so far */
    uint64_t gone[2] = {cfg->removed[0], cfg->removed[1]}, in[KONTOR_NCLASSES][2], seen[2] = {0, 0};
    if (cfg->remove_kinds)
        for (int id = 0; id < cs->ncards; id++)
            if (is_removed(cfg, id)) gone[id >> 6] |= 1ULL << (id & 63);
    int want[KONTOR_NCLASSES];
    for (int cl = 0; cl < KONTOR_NCLASSES; cl++) {
        want[cl] = 0;
        for (int w = 0; w < 2; w++) {
            /* only ids below ncards are cards */
            uint64_t below = cs->ncards >= (w + 1) * 64 ? ~0ULL
                             : cs->ncards > w * 64  ? (1ULL << (cs->ncards - w * 64)) - 1
                                                    : 0;
            in[cl][w] = cs->class_ids[cl][w] & below;
            want[cl] += __builtin_popcountll(in[cl][w] & ~gone[w]);
        }
    }
    if (!board_fits(cfg)) return deal_error(err, "the board's cells could hold more areas than a game keeps");
    if (d->nwater != want[KONTOR_CLASS_WATER]) return deal_error(err, "the water pile does not hold every water card");
    if (!deal_take(d->water, d->nwater, in[KONTOR_CLASS_WATER], gone, seen))
        return deal_error(err, "the water pile is not a permutation of the water cards");
    int got[2] = {0, 0};
    for (int p = 0; p < ns; p++) {
        int t = ns == 4 ? p / 2 : p;
        if (d->ndock[p] < 3) return deal_error(err, "a dock pile has fewer than 3 cards");
        if (!deal_take(d->dock[p], d->ndock[p], in[t], gone, seen))
            return deal_error(err, "a dock pile is not a permutation of its colour's cards");
        got[t] += d->ndock[p];
    }
    if (got[0] != want[KONTOR_CLASS_RED] || got[1] != want[KONTOR_CLASS_BLACK])
        return deal_error(err, "the dock piles do not hold every dock card");
    if (cfg->specials) {
        if (d->nspecial != want[KONTOR_CLASS_SPECIAL] || d->nspecial < (cfg->specials == 1 ? ns : 0))
            return deal_error(err, "the special cards are not all dealt");
        static const uint64_t none[2] = {0, 0}; /* a special card counts even when removed */
        if (!deal_take(d->special, d->nspecial, in[KONTOR_CLASS_SPECIAL], none, seen))
            return deal_error(err, "the special cards are not a permutation of the special cards");
    } else if (d->nspecial) {
        return deal_error(err, "special cards are dealt in a game without them");
    }
    if (d->nwater < cfg->layout_n + 2 * ns + cfg->water_aside)
        return deal_error(err, "too few water cards for the start, the hands and the cards set aside");
    /* KONTOR_PILE_MAX (kontor.h): the cards set aside (water, special cards
     * not dealt, Justizia's discards) must fit the pile */
    if (cfg->water_aside + (cfg->specials == 1 && d->nspecial > ns ? d->nspecial - ns : 0) + ns * cfg->select_discard >
        KONTOR_PILE_MAX)
        return deal_error(err, "more cards set aside than a pile holds");
    if (cfg->total_coins < cfg->start_coins * ns) return deal_error(err, "fewer coins in the game than the players start with");
    if ((cfg->events || cfg->tiles || cfg->export_store) && ns != 2) return deal_error(err, "the expansions are for two players");
    /* kontor_state.known holds KONTOR_KNOWN_SEATS seats (the deal_quick path takes no select_keep) */
    if ((cfg->select_keep || cfg->select_discard) && ns > KONTOR_KNOWN_SEATS)
        return deal_error(err, "Justizia's picks are for two players");
    if (cfg->events && (d->nevents != cfg->nevent_cards || !is_perm(d->events, d->nevents)))
        return deal_error(err, "the event deck is not a permutation of the event cards");
    if (!cfg->events && d->nevents) return deal_error(err, "event cards are dealt in a game without them");
    if (cfg->tiles && !has_cross(cfg)) return deal_error(err, "the action tiles need the water cross of the usual start");
    if (cfg->tiles && !is_perm(d->tiles, KONTOR_TILES)) return deal_error(err, "the action tiles are not a permutation of the eight tiles");
    /* the state points at the process's copy (only a config that deals is kept) */
    if (!(cfg = kontor_config_intern(cfg, err))) return KONTOR_E_RANGE;
    deal_onto(s, cfg, d);
    return KONTOR_OK;
}

/* The cross of the standard start: N1 N2 E1 E2 S1 S2 W1 W2 (R13). */
static const int8_t cross[8][2] = {{0, -1}, {0, -2}, {1, 0}, {2, 0}, {0, 1}, {0, 2}, {-1, 0}, {-2, 0}};

void kontor_layout_cross(kontor_config *cfg) {
    cfg->layout_n = 8;
    for (int i = 0; i < 8; i++) cfg->layout[i] = (uint8_t)kontor_cell(cross[i][0], cross[i][1]);
}

/* The piles' places in the pool (kontor.h, kontor_pile) for a deal that
 * puts n[k] cards in pile k: in order, each dock pile of a seat in play
 * followed by an equal share of the room the deal leaves (the cards on the
 * board and in the hands: what may come back under a dock pile, the ship's
 * removal, a buy-out), the cards set aside by the room for Justizia's
 * discards. Every pile starts empty at its head; the deal fills them. The
 * places depend on the counts alone (public), never on which cards. */
__attribute__((always_inline)) static inline void piles_lay_out(kontor_state *s, const kontor_config *cfg,
                                                                const int n[KONTOR_NPILES]) {
    int ns = cfg->nseats, total = n[0] + n[1] + n[2] + n[3] + n[4] + n[5] + n[6];
    int aside_room = ns * cfg->select_discard;
    if (aside_room > KONTOR_MAX_CARDS - total) aside_room = KONTOR_MAX_CARDS - total > 0 ? KONTOR_MAX_CARDS - total : 0;
    int room = KONTOR_MAX_CARDS - total - aside_room;
    int gap = room <= 0 || ns <= 0 ? 0 : ns == 2 ? room >> 1 : ns == 4 ? room >> 2 : room / ns; /* no division */
    int at = 0; /* (every pile's n is 0 from deal_begin) */
    for (int k = 0; k < KONTOR_MAX_SEATS; k++) {
        s->pile[k].head = (uint8_t)at;
        at += n[k] + (k < ns ? gap : 0);
    }
    s->water_pile.head = (uint8_t)at;
    s->aside.head = (uint8_t)(at += n[KONTOR_MAX_SEATS]);
    s->special_pile.head = (uint8_t)(at + n[KONTOR_MAX_SEATS + 1] + aside_room);
}

int pile_make_room(kontor_state *s, int k) {
    kontor_pile *pl = s->pile;
    /* the first pile after k with room after it: the piles between move right */
    for (int j = k + 1; j < KONTOR_NPILES; j++) {
        if ((unsigned)(pl[j].head + pl[j].n) >= pile_limit(s, j)) continue;
        unsigned from = pl[k + 1].head, to = (unsigned)(pl[j].head + pl[j].n);
        memmove(s->pile_card + from + 1, s->pile_card + from, to - from);
        for (int i = k + 1; i <= j; i++) pl[i].head++;
        return 1;
    }
    /* else the last pile up to k with room before it: it and those after it move left */
    for (int j = k; j >= 0; j--) {
        if (pl[j].head <= (j ? (unsigned)(pl[j - 1].head + pl[j - 1].n) : 0u)) continue;
        unsigned from = pl[j].head, to = (unsigned)(pl[k].head + pl[k].n);
        memmove(s->pile_card + from - 1, s->pile_card + from, to - from);
        for (int i = j; i <= k; i++) pl[i].head--;
        return 1;
    }
    return 0;
}

/* The state before the deal's cards: every byte set (states are compared
 * whole): the config (the process's copy, kontor_config_intern), the cells'
 * cards KONTOR_NONE, the rest zero but for the few fields that start at
 * KONTOR_NONE or 255 (a memset(s, 0, sizeof *s) first cost 306 instructions). */
static inline void deal_begin(kontor_state *s, const kontor_config *cfg) {
    _Static_assert(offsetof(kontor_state, cell_card) % 8 == 0 && sizeof s->cell_card % 16 == 0 &&
                       sizeof *s % 8 == 0,
                   "the state's parts zeroed by words, the cells' cards set by 16 bytes");
    _Static_assert(offsetof(kontor_state, cfg) == 0 && offsetof(kontor_state, card) == 8 && sizeof s->card == 8,
                   "the config's and the cards' pointers first");
    s->cfg = cfg;
    s->card = cfg->cards->card;
    /* zeroed by sixteen bytes (fill16, unrolled; zero_words over these
     * lengths became a loop of four instructions a store, +330 a game) */
    size_t head = offsetof(kontor_state, cell_card) - 16, after = offsetof(kontor_state, cell_card) + sizeof s->cell_card;
    fill16((char *)s + 16, head & ~(size_t)15, 0);
    if (head & 8) zero_words((char *)s + 16 + (head & ~(size_t)15), 8);
    fill16(s->cell_card, sizeof s->cell_card, KONTOR_NONE);
    fill16((char *)s + after, (sizeof *s - after) & ~(size_t)15, 0);
    if ((sizeof *s - after) & 8) zero_words((char *)s + sizeof *s - 8, 8);
    s->hooks = cfg->win->hooks; /* hooks_of(cfg), kept with the entry (kontor__deal_checks) */
    for (int i = 0; i < KONTOR_MAX_SEATS; i++) s->choice[i] = s->buy[i] = KONTOR_NONE;
    s->minx = s->miny = 255;
    s->ship_cell = KONTOR_NONE;
    s->removed_card = KONTOR_NONE;
}

/* The state after the deal's cards: coins, the first round. */
static inline void deal_end(kontor_state *s, const kontor_config *cfg, const kontor_deal *d) {
    int ns = cfg->nseats;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (ns == 2 || ns == 4) { /* the four coins as one word, the seats past ns 0 (a loop of byte stores) */
        uint32_t v = cfg->start_coins * (ns == 4 ? 0x01010101u : 0x0101u);
        memcpy(s->coins, &v, 4);
    } else
#endif
        for (int p = 0; p < ns; p++) s->coins[p] = cfg->start_coins;
    if (pile_top(s, &s->water_pile) != KONTOR_NONE) pub_set(s, pile_top(s, &s->water_pile));
    s->treasury = (uint8_t)(cfg->total_coins - cfg->start_coins * ns);
    if (cfg->ship) s->ship_cell = KONTOR_CENTRE_CELL;
    s->round = 1;
    s->phase = KONTOR_PHASE_CHOOSE;
    s->tavern_area = KONTOR_NONE;
    s->placed_cell = KONTOR_NONE;
    for (int p = 0; p < KONTOR_MAX_SEATS; p++) s->bribe[p] = KONTOR_NONE;
    /* the expansions (d: NULL for none) */
    s->event_n = cfg->events && d ? d->nevents : 0;
    if (d) memcpy(s->event_deck, d->events, sizeof s->event_deck);
    s->event_cur = s->last_layer = s->tile_cur = s->ship_owner = KONTOR_NONE;
    for (int k = 0; k < 4; k++) s->tile_at[k] = cfg->tiles && d ? d->tiles[k] : KONTOR_NONE;
    for (int g = 0; g < 3; g++) s->tile_bonus[g] = KONTOR_NONE;
    if (cfg->select_keep) s->phase = KONTOR_PHASE_SELECT; /* Justizia: hands first */
    else begin_round(s, NULL);
}

/* Lay out a deal known to be valid. */
static void deal_onto(kontor_state *s, const kontor_config *cfg, const kontor_deal *d) {
    const kontor_cardset *cs = cfg->cards;
    int ns = cfg->nseats;
    deal_begin(s, cfg);

    /* the centre, then the start layout from the top of the water pile */
    uint8_t cells[1 + KONTOR_LAYOUT_MAX], ids[1 + KONTOR_LAYOUT_MAX];
    cells[0] = KONTOR_CENTRE_CELL, ids[0] = cs->centre;
    int wi = 0;
    memcpy(cells + 1, cfg->layout, 16); /* (place_start reads sixteen cells: the layout's first) */
    for (int i = 0; i < cfg->layout_n; i++) cells[1 + i] = cfg->layout[i], ids[1 + i] = d->water[wi++];
    place_start(s, cells, ids, 1 + cfg->layout_n);
    int n[KONTOR_NPILES] = {0};
    for (int p = 0; p < ns && p < KONTOR_MAX_SEATS; p++) n[p] = cfg->select_keep ? d->ndock[p] : d->ndock[p] - (d->ndock[p] < 3 ? d->ndock[p] : 3);
    n[KONTOR_MAX_SEATS] = d->nwater - wi - 2 * ns - cfg->water_aside;
    n[KONTOR_MAX_SEATS + 1] = cfg->water_aside + (cfg->specials == 1 && d->nspecial > ns ? d->nspecial - ns : 0);
    n[KONTOR_MAX_SEATS + 2] = cfg->specials == 2 ? d->nspecial : 0;
    piles_lay_out(s, cfg, n);
    for (int p = 0; p < ns; p++)
        for (int k = 0; k < 2; k++) hand_add(s, p, d->water[wi++]);
    for (int k = 0; k < cfg->water_aside; k++) pile_put_under(s, &s->aside, d->water[wi++]);
    pile_fill(s, &s->water_pile, &d->water[wi], d->nwater - wi);
    for (int p = 0; p < ns; p++) {
        uint8_t water[2] = {s->hand[p][0], s->hand[p][1]};
        s->hand_n[p] = 0;
        /* hands read dock cards first, then water, then a special card */
        if (!cfg->select_keep) {
            int k = d->ndock[p] < 3 ? d->ndock[p] : 3;
            for (int i = 0; i < k; i++) hand_add(s, p, d->dock[p][i]);
            pile_fill(s, &s->dock_pile[p], &d->dock[p][k], d->ndock[p] - k);
        } else {
            /* Justizia: the player looks through his dock cards and picks */
            pile_fill(s, &s->dock_pile[p], d->dock[p], d->ndock[p]);
            for (int i = 0; i < d->ndock[p] && p < KONTOR_KNOWN_SEATS; i++)
                s->known[p][d->dock[p][i] >> 6] |= 1ULL << (d->dock[p][i] & 63);
        }
        hand_add(s, p, water[0]);
        hand_add(s, p, water[1]);
        if (pile_top(s, &s->dock_pile[p]) != KONTOR_NONE && !cfg->select_keep) pub_set(s, pile_top(s, &s->dock_pile[p]));
    }
    if (cfg->specials == 1) {
        for (int i = 0; i < d->nspecial; i++) {
            if (i < ns && i < KONTOR_MAX_SEATS) hand_add(s, i, d->special[i]);
            else pile_put_under(s, &s->aside, d->special[i]);
        }
    } else if (cfg->specials == 2) {
        for (int i = 0; i < d->nspecial; i++) pile_put_under(s, &s->special_pile, d->special[i]);
    }
    deal_end(s, cfg, d);
}

/* A hand of the quick deal: three dock cards, then two water cards (its
 * places 5 to 7 zero: deal_begin's) as one store of eight bytes, the dock
 * cards read as four (the list's fourth byte cleared) and the water as two
 * (session sixteen: the three bytes' copy, two stores and the count were
 * ~15 a seat). */
static inline void deal_hand(kontor_state *s, int p, const uint8_t *dock, const uint8_t *water) {
    _Static_assert(KONTOR_HAND_MAX >= 8, "a hand's first eight places in one store");
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t d;
    uint16_t wv;
    memcpy(&d, dock, 4);
    memcpy(&wv, water, 2);
    uint64_t v = (d & 0xFFFFFFu) | (uint64_t)wv << 24;
    memcpy(s->hand[p], &v, 8);
#else
    memcpy(s->hand[p], dock, 3);
    memcpy(s->hand[p] + 3, water, 2);
#endif
    s->hand_n[p] = 5;
}

/* kontor_new's deal straight into the state, for a config with no card out
 * of the game and no expansion's deck, nothing set aside, no hands picked
 * (the basic and advanced games, the game for four, most scenarios): what
 * deal_onto lays out from kontor_deal_shuffle's deal, byte for byte, with the
 * same draws in the same order, but each class shuffled from the card set's
 * list into the piles and hands without the kontor_deal between (issue 17;
 * kontor_new_deals_what_its_written_deal_deals in tests/test_rules_round.c
 * holds the two the same). */
static void deal_quick(kontor_state *s, const kontor_config *cfg, kontor_rng *rng) {
    const kontor_cardset *cs = cfg->cards;
    int ns = cfg->nseats, lay = cfg->layout_n;
    deal_begin(s, cfg);
    /* the water: the start, two to each hand, the pile (kontor_deal.water's order) */
    _Static_assert(KONTOR_MAX_CARDS % 16 == 0, "a class's list copied by 16 bytes");
    uint8_t w[KONTOR_MAX_CARDS];
    int nw = cs->class_n[KONTOR_CLASS_WATER], wi = lay + 2 * ns;
    /* (no rep movsb of nw bytes; all of it when the start's copy below reads 64) */
    copy_list(w, cs->class_list[KONTOR_CLASS_WATER], lay < 16 ? nw : KONTOR_MAX_CARDS);
    int nsp = !cfg->specials ? 0 : cs->class_n[KONTOR_CLASS_SPECIAL] < 8 ? cs->class_n[KONTOR_CLASS_SPECIAL] : 8;
    /* each colour's count; four: its first seat's half, its last pile's
     * place (two: the seat's own), the second team's first pile's */
    int c0 = cs->class_n[0], c1 = cs->class_n[1], h0 = ns == 4 ? c0 >> 1 : 0, h1 = ns == 4 ? c1 >> 1 : 0;
    int last0 = 0, last1 = 0, first1 = 0;
    {   /* the piles' places: piles_lay_out's for the same counts, worked
         * out for two or four seats and no discards (piles_lay_out's loop
         * over an array of counts cost ~100 instructions a deal, this ~40;
         * kontor_new_deals_what_its_written_deal_deals holds the two equal) */
        int aside = cfg->specials == 1 && nsp > ns ? nsp - ns : 0, special = cfg->specials == 2 ? nsp : 0;
        int room = KONTOR_MAX_CARDS - (c0 + c1 - 3 * ns) - (nw - wi) - aside - special;
        int at;
        if (ns == 2) {
            int gap = room >> 1;
            s->dock_pile[1].head = (uint8_t)(at = c0 - 3 + gap);
            last1 = at;
            at += c1 - 3 + gap;
            s->dock_pile[2].head = s->dock_pile[3].head = (uint8_t)at;
        } else {
            int gap = room >> 2;
            s->dock_pile[1].head = (uint8_t)(last0 = at = h0 - 3 + gap);
            s->dock_pile[2].head = (uint8_t)(first1 = at += c0 - h0 - 3 + gap);
            s->dock_pile[3].head = (uint8_t)(last1 = at += h1 - 3 + gap);
            at += c1 - h1 - 3 + gap;
        }
        s->water_pile.head = (uint8_t)at;
        s->aside.head = (uint8_t)(at += nw - wi);
        s->special_pile.head = (uint8_t)(at + aside);
    }
    /* the three classes' shuffles (the water, each colour) in one call */
    uint8_t team[2][KONTOR_MAX_CARDS];
    copy_list(team[0], cs->class_list[0], c0);
    copy_list(team[1], cs->class_list[1], c1);
    split_job job[3]; /* each written whole (an initializer zeroed the three first) */
    job[0] = (split_job){w, s->pile_card + s->water_pile.head, nw, wi};
    job[1] = (split_job){team[0], s->pile_card + last0, c0, h0 + 3};
    job[2] = (split_job){team[1], s->pile_card + last1, c1, h1 + 3};
    shuffle_splits(job, 3, rng);
    s->water_pile.n = (uint8_t)(nw - wi);
    uint8_t cells[1 + KONTOR_LAYOUT_MAX], ids[1 + KONTOR_LAYOUT_MAX];
    cells[0] = KONTOR_CENTRE_CELL, ids[0] = cs->centre;
    _Static_assert(sizeof cfg->layout == KONTOR_LAYOUT_MAX && KONTOR_LAYOUT_MAX % 16 == 0 &&
                       KONTOR_LAYOUT_MAX <= KONTOR_MAX_CARDS, "the layout's cells and cards copied by 16 bytes");
    if (lay < 16) { /* (the first lay of each are read: 16 bytes for the usual start of 8) */
        copy16(cells + 1, cfg->layout, 16);
        copy16(ids + 1, w, 16);
    } else {
        copy16(cells + 1, cfg->layout, KONTOR_LAYOUT_MAX);
        copy16(ids + 1, w, KONTOR_LAYOUT_MAX);
    }
    place_start(s, cells, ids, 1 + lay);
    /* each colour: two seats, its first three to the hand and the rest the
     * pile; four, the first half the team's first seat's, the rest its second's */
    s->dock_pile[ns == 4 ? 1 : 0].n = (uint8_t)(c0 - h0 - 3);
    s->dock_pile[ns == 4 ? 3 : 1].n = (uint8_t)(c1 - h1 - 3);
    if (ns == 4) {
        memcpy(s->pile_card, team[0] + 3, (size_t)(h0 - 3)); /* (pile 0's place is 0) */
        s->dock_pile[0].n = (uint8_t)(h0 - 3);
        memcpy(s->pile_card + first1, team[1] + 3, (size_t)(h1 - 3));
        s->dock_pile[2].n = (uint8_t)(h1 - 3);
    }
    /* the hands: three dock cards, then two water cards */
    for (int p = 0; p < ns; p++) {
        const uint8_t *dock = ns == 2 ? team[p] : p == 0 ? team[0] : p == 1 ? team[0] + h0 : p == 2 ? team[1] : team[1] + h1;
        deal_hand(s, p, dock, w + lay + 2 * p);
        if (s->dock_pile[p].n) { /* the top is public (a card of a class's list: below KONTOR_MAX_CARDS) */
            unsigned id = s->pile_card[s->dock_pile[p].head];
            s->pub[id >> 6] |= 1ULL << (id & 63);
        }
    }
    if (cfg->specials) {
        uint8_t sp[8];
        int n = nsp;
        memcpy(sp, cs->class_list[KONTOR_CLASS_SPECIAL], (size_t)n);
        if (n > 1) shuffle(sp, n, rng);
        if (cfg->specials == 1) {
            for (int i = 0; i < n; i++) {
                if (i < ns) hand_add(s, i, sp[i]);
                else pile_put_under(s, &s->aside, sp[i]);
            }
        } else {
            for (int i = 0; i < n; i++) pile_put_under(s, &s->special_pile, sp[i]);
        }
    }
    deal_end(s, cfg, NULL);
}

/* kontor_new's checks for deal_quick that read the config alone: what
 * kontor_new_from_deal would check of it, and nothing deal_quick does not
 * lay out (the expansions' decks, water set aside, hands picked). */
static int quick_config(const kontor_config *cfg) {
    int ns = cfg->nseats;
    return (ns == 2 || ns == 4) && !(cfg->removed[0] | cfg->removed[1]) && !cfg->remove_kinds && !cfg->water_aside &&
           !cfg->select_keep && !cfg->events && !cfg->tiles && (!cfg->export_store || ns == 2) &&
           cfg->total_coins >= cfg->start_coins * ns && board_fits(cfg);
}

/* The rest, of the card set's counts: every class from its lists, at least
 * three dock cards a seat (22 a colour, cards.c), enough water cards for
 * the start and the hands, every special card dealt. */
static inline int quick_cards(const kontor_config *cfg) {
    const kontor_cardset *cs = cfg->cards;
    int ns = cfg->nseats;
    /* (after quick_config: ns is 2 or 4, so three dock cards a seat of a
     * colour is ns + ns / 2; nw - wi in [0, KONTOR_PILE_MAX] one unsigned
     * compare: session sixteen, ~4 a deal) */
    int nw = cs->class_n[KONTOR_CLASS_WATER], wi = cfg->layout_n + 2 * ns, dock = ns + (ns >> 1);
    return (unsigned)(nw - wi) <= KONTOR_PILE_MAX && cs->class_n[KONTOR_CLASS_RED] >= dock &&
           cs->class_n[KONTOR_CLASS_BLACK] >= dock &&
           (!cfg->specials ||
            (cs->class_n[KONTOR_CLASS_SPECIAL] <= 8 && cs->class_n[KONTOR_CLASS_SPECIAL] >= (cfg->specials == 1 ? ns : 0)));
}

void kontor__deal_checks(const kontor_config *cfg, kontor_window *w) {
    w->hooks = hooks_of(cfg);
    w->quick = (uint8_t)quick_config(cfg);
}

kontor_status kontor_new(kontor_state *s, const kontor_config *cfg, uint64_t seed, kontor_error *err) {
    /* deal_quick when its config holds what kontor_new_from_deal would
     * check (quick_config, quick_cards). A config that is an entry already
     * (kontor bench's, the server's held one, a state's dealt again) has
     * quick_config's answer with it (session sixteen: ~50 instructions a
     * deal, and kontor_config_intern's call); the card set's counts are
     * tested at each deal. An entry is told by its address: a config of the
     * caller's cannot lie inside the table. */
    int entry = (uintptr_t)cfg - (uintptr_t)kontor__config_table < sizeof kontor__config_table;
    /* (the two ways apart: entry not tested again for the intern;
     * session sixteen, 2 a deal) */
    if (entry) {
        if (cfg->win->quick && quick_cards(cfg)) goto quick;
    } else if (quick_config(cfg) && quick_cards(cfg)) {
        if (!(cfg = kontor_config_intern(cfg, err))) return KONTOR_E_RANGE;
        goto quick;
    }
    kontor_deal d;
    kontor_deal_shuffle(&d, cfg, seed);
    return kontor_new_from_deal(s, cfg, &d, err);
quick:;
    kontor_rng rng;
    kontor_rng_seed(&rng, seed);
    deal_quick(s, cfg, &rng);
    return KONTOR_OK;
}
