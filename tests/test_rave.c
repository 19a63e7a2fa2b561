/* test_rave.c: ismcts's rave=K (RAVE at the placements, ismcts_rave.c):
 * the AMAF statistics at the root are what the iterations' placement lists
 * say, counted here by hand; rave=0 is today's search, decision for
 * decision; the spec's range. The count test fails with the update broken
 * (the playout's placements left out, or a move's own place not counted:
 * checked by hand, docs/ai.md). */
#include "testutil.h"
#include "aiutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ai/ismcts_tree.h"

#define NK (KONTOR_MAX_SEATS * AI_RAVE_PER_SEAT)

/* By hand: for every RAVE key, the iterations whose placements (the tree's
 * and the playout's) hold it, and their results for its seat's team. */
typedef struct amaf_count {
    const kontor_state *s;
    uint32_t root_key; /* the placement of the root's step must be the first */
    int iters, bad_first;
    uint32_t n[NK];
    double sum[NK];
    uint8_t seen[NK];
} amaf_count;

static void count_keys(void *ctx, const uint32_t *pkey, int np, const ai_placements *rec, const float r[2]) {
    amaf_count *c = ctx;
    uint32_t keys[MAX_PATH + AI_PLACEMENTS_MAX];
    int n = 0;
    for (int i = 0; i < np; i++)
        if (pkey[i] != UINT32_MAX) keys[n++] = pkey[i];
    if (n == 0 || (keys[0] & ~0xFFFu) != c->root_key) c->bad_first++;
    for (int j = 0; j < rec->n; j++) keys[n++] = rec->key[j];
    memset(c->seen, 0, sizeof c->seen);
    for (int i = 0; i < n; i++) {
        uint32_t k = keys[i];
        if (c->seen[k]) continue;
        c->seen[k] = 1;
        c->n[k]++;
        c->sum[k] += r[kontor_team(c->s, (int)(k / AI_RAVE_PER_SEAT))];
    }
    c->iters++;
}

static void test_rave_amaf_at_the_root_counts_every_later_placement(void **st) {
    (void)st;
    kontor_state s;
    kontor_view v;
    int checked = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        assert_true(kt_red_places_view(seed, 3, &s, &v));
        kontor_agent *a = kt_agent("ismcts:iters=300,rave=100", seed);
        ismcts_impl *m = a->impl;
        static amaf_count c;
        memset(&c, 0, sizeof c);
        c.s = &v.s;
        c.root_key = ai_rave_key(&v.s, v.seat, KONTOR_MOVE(KONTOR_MOVE_PLACE, 0)) & ~0xFFFu;
        m->trees[0].rave_log = count_keys;
        m->trees[0].rave_ctx = &c;
        kontor_move d = a->decide(a, &v);
        assert_true(kontor_is_legal(&v.s, v.seat, d));
        assert_int_equal(c.iters, 300);
        assert_int_equal(c.bad_first, 0);
        const tree *T = &m->trees[0];
        kontor_move moves[KONTOR_MAX_MOVES];
        int nlegal = kontor_legal(&v.s, v.seat, moves), nedges = 0, more = 0;
        uint32_t visits = 0;
        for (uint32_t e = T->pool[1].child; e; e = T->pool[e].sibling) {
            const node *x = &T->pool[e];
            if (x->kind != N_SEQ || x->seat != v.seat) continue;
            uint32_t k = ai_rave_key(&v.s, v.seat, x->move);
            if (T->an[e] != c.n[k]) fail_msg("seed %llu move %d: AMAF count %u, by hand %u", (unsigned long long)seed,
                                            x->move, T->an[e], c.n[k]);
            assert_true(fabs(T->ar[e] - c.sum[k]) <= 1e-3 * (c.n[k] + 1));
            assert_true(T->an[e] >= x->visits); /* its own visits are AMAF visits too */
            more += T->an[e] > x->visits;
            visits += x->visits;
            nedges++;
        }
        assert_int_equal(nedges, nlegal); /* every cell has its edge from the first pass */
        assert_int_equal(visits, 300);
        assert_true(more > 0); /* the later placements count */
        checked++;
        kontor_agent_free(a);
    }
    assert_int_equal(checked, 3);
}

/* rave=0 is the search without the option, decision for decision and
 * visit for visit (the statistics are not even allocated). */
static void test_rave_zero_is_todays_search(void **st) {
    (void)st;
    kontor_state s;
    kontor_view v;
    for (uint64_t seed = 1; seed <= 2; seed++) {
        assert_true(kt_red_places_view(seed, 3, &s, &v));
        kontor_agent *a = kt_agent("ismcts:iters=400", seed), *b = kt_agent("ismcts:iters=400,rave=0", seed);
        assert_int_equal(a->decide(a, &v), b->decide(b, &v));
        const ai_base *ba = a->impl, *bb = b->impl;
        assert_int_equal(ba->nlast, bb->nlast);
        for (int i = 0; i < ba->nlast; i++) {
            assert_int_equal(ba->last[i].move, bb->last[i].move);
            assert_int_equal(ba->last[i].visits, bb->last[i].visits);
        }
        assert_null(((ismcts_impl *)b->impl)->trees[0].an);
        kontor_agent_free(a);
        kontor_agent_free(b);
    }
}

static void test_rave_spec(void **st) {
    (void)st;
    kontor_agent_free(kt_agent("ismcts:iters=10,rave=300", 1));
    kontor_error err;
    memset(&err, 0, sizeof err);
    assert_null(kontor_agent_new("ismcts:rave=-1", 1, &err));
    if (!strstr(err.msg, "option 'rave' wants a number")) fail_msg("said '%s'", err.msg);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rave_amaf_at_the_root_counts_every_later_placement),
        cmocka_unit_test(test_rave_zero_is_todays_search),
        cmocka_unit_test(test_rave_spec),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
