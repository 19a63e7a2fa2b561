/* aiutil.h: what the computer players' tests share: an agent from its spec
 * (failing the test, with the engine's words, when the spec is refused), and
 * a game played at random until a predicate holds (red has a card to place,
 * say). Include after testutil.h. */
#ifndef KONTOR_AIUTIL_H
#define KONTOR_AIUTIL_H
#include "kontor/agent.h"

static inline kontor_agent *kt_agent(const char *spec, uint64_t seed) {
    kontor_error err;
    kontor_agent *a = kontor_agent_new(spec, seed, &err);
    if (!a) fail_msg("agent '%s': %s", spec, err.msg);
    return a;
}

/* Random decisions from the deal of seed in variant until pred holds in
 * round min_round or later: 1 with s there, 0 if the game ended first. */
static inline int kt_advance_until(kontor_state *s, const char *variant, uint64_t seed,
                                   int (*pred)(const kontor_state *), int min_round) {
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, variant, &err), KONTOR_OK);
    kontor_new(s, &cfg, seed, NULL);
    kontor_rng r;
    kontor_rng_seed(&r, seed);
    while (kontor_actors(s)) {
        if (s->round >= min_round && pred(s)) return 1;
        unsigned act = kontor_actors(s);
        int seat = (act & 1) ? 0 : 1;
        kontor_move m[KONTOR_MAX_MOVES];
        int n = kontor_legal(s, seat, m);
        kontor_apply(s, seat, m[kontor_rng_below(&r, (uint32_t)n)], NULL);
    }
    return 0;
}

static inline int kt_red_places(const kontor_state *s) {
    return s->phase == KONTOR_PHASE_PLACE && kontor_current(s) == 0;
}

/* A basic game played at random from seed until red places in round
 * min_round or later: 1 with red's view in v, 0 if the game ended first. */
static inline int kt_red_places_view(uint64_t seed, int min_round, kontor_state *s, kontor_view *v) {
    if (!kt_advance_until(s, "basic", seed, kt_red_places, min_round)) return 0;
    kontor_view_of(s, 0, v);
    return 1;
}
#endif
