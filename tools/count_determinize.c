/* count_determinize.c: the instructions of one kontor_determinize, for callgrind.
 *
 * Why a program: kontor_determinize runs once per search iteration, and its
 * cost hides among the search's in a profile of kontor hint. This plays a
 * seeded random game 30 decisions in (a basic game reaches round 9), takes
 * red's view and determinizes it N times; the difference of two runs
 * (N = 2000 and N = 1000) divided by 1000 is the cost of one call and of
 * hashing its result in main; the call alone is kontor_determinize_with's
 * (or kontor_determinize's) inclusive count over N, which
 * `callgrind_annotate --inclusive=yes` prints. It prints a
 * hash of the dealt hands and piles, so two builds can be checked to deal the
 * same cards. With "prepared" as the third argument it prepares a
 * determinizer once (kontor_determinizer_prepare) and deals from it
 * (kontor_determinize_with), as the search does every iteration; the hash
 * is the same. Not built by the Makefile:
 *
 *   cc -O2 -Iinclude -o /tmp/count_det tools/count_determinize.c build/libkontor.a -lm -pthread
 *   valgrind --tool=callgrind --callgrind-out-file=/dev/null /tmp/count_det 1000 basic [prepared]
 *   valgrind --tool=callgrind --callgrind-out-file=/dev/null /tmp/count_det 2000 basic [prepared]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kontor/kontor.h"

static uint64_t hash(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = h * 1099511628211ULL ^ b[i];
    return h;
}

/* A pile by its cards from the top, not the bytes that hold them: the same
 * deals hash the same whatever the piles' layout (a ring of KONTOR_PILE_MAX
 * bytes each until issue 17, one pool since). */
static uint64_t hash_pile(uint64_t h, const kontor_state *s, const kontor_pile *p) {
    for (int i = 0; i < p->n; i++) {
        unsigned char c = (unsigned char)kontor_pile_card(s, p, i);
        h = hash(h, &c, 1);
    }
    return hash(h, &p->n, 1);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    kontor_config cfg;
    kontor_error err;
    if (kontor_config_init(&cfg, argc > 2 ? argv[2] : "basic", &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    static kontor_state s, out;
    static kontor_view v;
    if (kontor_new(&s, &cfg, 7, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    kontor_rng r;
    kontor_rng_seed(&r, 1);
    kontor_move mv[KONTOR_MAX_MOVES];
    for (int k = 0; k < 30 && !kontor_over(&s); k++) {
        int seat = __builtin_ctz(kontor_actors(&s));
        int m = kontor_legal(&s, seat, mv);
        kontor_apply(&s, seat, mv[kontor_rng_below(&r, (uint32_t)m)], NULL);
    }
    kontor_view_of(&s, 0, &v);
    static kontor_determinizer d;
    int prepared = argc > 3 && !strcmp(argv[3], "prepared");
    if (prepared) kontor_determinizer_prepare(&v, &d);
    uint64_t h = 0;
    for (int i = 0; i < n; i++) {
        if (prepared) kontor_determinize_with(&d, &r, &out);
        else kontor_determinize(&v, &r, &out);
        h = hash(h, out.hand, sizeof out.hand);
        for (int p = 0; p < KONTOR_MAX_SEATS; p++) h = hash_pile(h, &out, &out.dock_pile[p]);
        h = hash_pile(h, &out, &out.water_pile);
        h = hash_pile(h, &out, &out.aside);
        h = hash_pile(h, &out, &out.special_pile);
        h = hash(h, out.choice, sizeof out.choice);
        h = hash(h, out.event_deck, sizeof out.event_deck);
    }
    printf("round %d hash %llu\n", s.round, (unsigned long long)h);
    return 0;
}
