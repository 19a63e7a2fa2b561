/* rng.h: xoshiro256** as static inline functions, for the engine's hot loops
 * (random playouts draw a number for every decision); rng.c wraps the same
 * code as the public kontor_rng_* functions, so both give one stream. */
#ifndef KONTOR_RNG_H
#define KONTOR_RNG_H

#include "kontor/kontor.h"

static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(kontor_rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n), n >= 1: Lemire's nearly divisionless method on the top
 * 32 bits. */
static inline uint32_t rng_below(kontor_rng *r, uint32_t n) {
    uint64_t m = (rng_next(r) >> 32) * (uint64_t)n;
    uint32_t lo = (uint32_t)m;
    if (lo < n) {
        uint32_t t = (uint32_t)(-n) % n;
        while (lo < t) {
            m = (rng_next(r) >> 32) * (uint64_t)n;
            lo = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

#endif
