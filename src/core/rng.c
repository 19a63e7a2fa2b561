/* rng.c: the one random number generator of kontor, xoshiro256**.
 *
 * Every random choice (the deal, random players, search) draws from a
 * kontor_rng the caller owns and seeds; nothing is global, so the same seed
 * gives the same game on every machine. splitmix64 expands the 64-bit seed
 * into the 256-bit state, as the generator's authors recommend. */
#include "core/rng.h"
#include "kontor/kontor.h"

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void kontor_rng_seed(kontor_rng *r, uint64_t seed) {
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

uint64_t kontor_rng_next(kontor_rng *r) { return rng_next(r); }

uint32_t kontor_rng_below(kontor_rng *r, uint32_t n) { return rng_below(r, n); }
