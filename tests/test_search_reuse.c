/* test_search_reuse.c: issue 18 item 3's third round of search options:
 * reuse=1 (the subtree of the last search kept for the next decision,
 * reuse.c), bank=1 and seq=F (budget moved from sequential decisions to the
 * next simultaneous one), the playout's remove=1 (the ship takes the
 * opponent's card whose removal hurts him most) and shipw=K (progressive
 * widening at the ship: the policy's moves first). Each test fails with its
 * option's code broken (checked by hand, docs/ai.md). */
#include "testutil.h"
#include "aiutil.h"

#include <stdio.h>
#include <string.h>

#include "ai/ai.h"
#include "ai/reuse.h"
#include "kontor/match.h"

static void deal(kontor_state *s, const char *variant, uint64_t seed) {
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, variant, &err), KONTOR_OK);
    kontor_new(s, &cfg, seed, NULL);
}

/* play at random (seeded) until pred holds for the state; 0 at the end */
typedef int (*pred_fn)(const kontor_state *s);
static int play_until(kontor_state *s, kontor_rng *r, pred_fn pred) {
    while (kontor_actors(s)) {
        if (pred(s)) return 1;
        unsigned act = kontor_actors(s);
        for (int q = 0; q < s->cfg->nseats; q++) {
            if (!((act >> q) & 1)) continue;
            kontor_move m[KONTOR_MAX_MOVES];
            int n = kontor_legal(s, q, m);
            kontor_apply(s, q, m[kontor_rng_below(r, (uint32_t)n)], NULL);
            break;
        }
    }
    return 0;
}

static int red_declares(const kontor_state *s) {
    return s->round >= 3 && s->phase == KONTOR_PHASE_DECLARE && (kontor_actors(s) & 3) == 3;
}
static int both_choose(const kontor_state *s) {
    return s->round >= 3 && s->phase == KONTOR_PHASE_CHOOSE && (kontor_actors(s) & 3) == 3;
}

/* reuse.c: after the declarations the address is the joint child keyed by
 * both declarations (the other's read from who chooses now); after the
 * cards, when red leads, the one keyed by both cards; not when black leads
 * or has placed. */
static void test_reuse_finds_the_reveals(void **st) {
    (void)st;
    int declare_seen = 0, lead = 0, follow = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        kontor_state s;
        kontor_rng r;
        kontor_view old, now;
        ai_reuse_path p;
        deal(&s, "basic", seed);
        kontor_rng_seed(&r, seed);
        if (play_until(&s, &r, red_declares)) {
            kontor_view_of(&s, 0, &old);
            kontor_move play = KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY);
            kontor_move other = seed & 1 ? KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PASS) : play;
            if (kontor_apply(&s, 0, play, NULL) == KONTOR_OK && kontor_apply(&s, 1, other, NULL) == KONTOR_OK &&
                s.phase == KONTOR_PHASE_CHOOSE) {
                kontor_view_of(&s, 0, &now);
                kontor_rng g;
                kontor_rng_seed(&g, 5);
                assert_int_equal(ai_reuse_find(&old, &play, 1, &now, &g, &p), 1);
                assert_int_equal(p.joint, 1);
                assert_int_equal(p.phase, KONTOR_PHASE_DECLARE);
                assert_int_equal(p.nseq, 0);
                assert_int_equal(p.key, (uint32_t)KONTOR_PLAY | (uint32_t)KONTOR_MOVE_VALUE(other) << 8);
                declare_seen++;
            }
        }
        deal(&s, "basic", seed + 100);
        kontor_rng_seed(&r, seed + 100);
        if (!play_until(&s, &r, both_choose)) continue;
        kontor_view_of(&s, 0, &old);
        kontor_move m0[KONTOR_MAX_MOVES], m1[KONTOR_MAX_MOVES];
        int n0 = kontor_legal(&s, 0, m0), n1 = kontor_legal(&s, 1, m1);
        kontor_move a = m0[kontor_rng_below(&r, (uint32_t)n0)], b = m1[kontor_rng_below(&r, (uint32_t)n1)];
        assert_int_equal(kontor_apply(&s, 0, a, NULL), KONTOR_OK);
        assert_int_equal(kontor_apply(&s, 1, b, NULL), KONTOR_OK);
        if (s.phase != KONTOR_PHASE_PLACE || s.norder != 2) continue; /* a take-back for the tax */
        kontor_view_of(&s, 0, &now);
        kontor_rng g;
        kontor_rng_seed(&g, 5);
        int found = ai_reuse_find(&old, &a, 1, &now, &g, &p);
        if (s.order[0] == 0) {
            assert_int_equal(found, 1);
            assert_int_equal(p.joint, 1);
            assert_int_equal(p.phase, KONTOR_PHASE_CHOOSE);
            assert_int_equal(p.key, (uint32_t)KONTOR_MOVE_VALUE(a) | (uint32_t)KONTOR_MOVE_VALUE(b) << 8);
            lead++;
        } else {
            assert_int_equal(found, 0); /* black places first: its cell is not a reveal */
            kontor_move c[KONTOR_MAX_MOVES];
            kontor_legal(&s, 1, c);
            assert_int_equal(kontor_apply(&s, 1, c[0], NULL), KONTOR_OK);
            if (s.phase == KONTOR_PHASE_PLACE && kontor_current(&s) == 0) {
                kontor_view_of(&s, 0, &now);
                assert_int_equal(ai_reuse_find(&old, &a, 1, &now, &g, &p), 0);
                follow++;
            }
        }
    }
    assert_true(declare_seen >= 10);
    assert_true(lead >= 5);
    assert_true(follow >= 5);
}

/* A game of reuse=1 against plain ismcts, every decision of red watched:
 * at a searched decision red's root visits are this search's iterations
 * plus the visits kept (base.reused), and the kept visits are those the
 * last search gave to the subtree: after red's own ship move or removal
 * (nothing in between) exactly the last decision's visits less the one that
 * expanded it; after a reveal at most those. */
typedef struct watch {
    kontor_agent *a;
    int iters;
    int searched, kept, seq_kept;
    uint32_t prev_visits;
    int prev_seq, forced_since;
} watch;

static void watch_cb(void *ctx, const kontor_state *s, int seat, kontor_move m, const kontor_log *log) {
    (void)s, (void)m, (void)log;
    watch *w = ctx;
    if (seat != 0) return;
    ai_base *b = w->a->impl;
    if (b->nlast == 0) {
        w->forced_since++;
        return;
    }
    uint64_t sum = 0;
    for (int i = 0; i < b->nlast; i++) sum += b->last[i].visits;
    assert_int_equal(sum, (uint64_t)w->iters + b->reused);
    w->searched++;
    if (b->reused) {
        w->kept++;
        assert_true(w->prev_visits > 0);
        if (w->prev_seq && !w->forced_since) {
            assert_int_equal(b->reused, (uint64_t)w->prev_visits - 1);
            w->seq_kept++;
        } else {
            assert_true(b->reused <= w->prev_visits);
        }
    }
    w->prev_visits = b->last[b->picked].visits;
    w->forced_since = 0;
    w->prev_seq = b->last[0].move >> 8 != KONTOR_MOVE_CHOOSE && b->last[0].move >> 8 != KONTOR_MOVE_DECLARE;
}

static void play_watched(const char *variant, uint64_t seed, const char *spec, int iters, watch *w) {
    kontor_state s;
    deal(&s, variant, seed);
    kontor_agent *ag[2] = {kt_agent(spec, seed), kt_agent("ismcts:iters=300", seed + 1)};
    memset(w, 0, sizeof *w);
    w->a = ag[0];
    w->iters = iters;
    kontor_match_result res;
    assert_int_equal(kontor_match_play(&s, ag, NULL, watch_cb, w, &res), KONTOR_OK);
    assert_int_equal(res.forfeit, -1);
    kontor_agent_free(ag[0]);
    kontor_agent_free(ag[1]);
}

static void test_reuse_keeps_the_subtree(void **st) {
    (void)st;
    watch w;
    play_watched("advanced", 11, "ismcts:iters=400,reuse=1", 400, &w);
    assert_true(w.kept * 5 >= w.searched); /* a fifth of the searches or more start from a kept tree */
    assert_true(w.seq_kept >= 3);
    int kept = w.kept;
    play_watched("basic", 12, "ismcts:iters=400,reuse=1", 400, &w);
    assert_true(w.kept * 5 >= w.searched);
    /* two threads on one tree (par=tree): the shared tree is kept */
    play_watched("advanced", 11, "ismcts:iters=400,reuse=1,threads=2", 400, &w);
    assert_true(w.kept * 5 >= w.searched);
    assert_true(w.seq_kept >= 3);
    play_watched("advanced", 11, "ismcts:iters=400", 400, &w);
    assert_int_equal(w.kept, 0); /* off by default */
    (void)kept;
}

/* bank=1,seq=0.5 at an iteration budget: a sequential decision runs half its
 * budget, a simultaneous one its own and everything banked since. */
typedef struct bankw {
    kontor_agent *a;
    uint64_t iters0;
    int seq_since, sims, seqs;
} bankw;

static void bank_cb(void *ctx, const kontor_state *s, int seat, kontor_move m, const kontor_log *log) {
    (void)s, (void)log;
    bankw *w = ctx;
    if (seat != 0) return;
    ai_base *b = w->a->impl;
    uint64_t ran = b->iters - w->iters0;
    w->iters0 = b->iters;
    if (b->nlast == 0) return;
    int sim = m >> 8 == KONTOR_MOVE_CHOOSE || m >> 8 == KONTOR_MOVE_DECLARE;
    if (sim) {
        assert_int_equal(ran, 1000 + 500 * (uint64_t)w->seq_since);
        w->seq_since = 0;
        w->sims++;
    } else {
        assert_int_equal(ran, 500);
        w->seq_since++;
        w->seqs++;
    }
}

static void test_bank_moves_the_budget(void **st) {
    (void)st;
    kontor_state s;
    deal(&s, "basic", 21);
    kontor_agent *ag[2] = {kt_agent("ismcts:iters=1000,bank=1,seq=0.5", 1), kt_agent("ismcts:iters=200", 2)};
    bankw w = {ag[0], 0, 0, 0, 0};
    assert_int_equal(kontor_match_play(&s, ag, NULL, bank_cb, &w, NULL), KONTOR_OK);
    assert_true(w.sims >= 10 && w.seqs >= 10);
    kontor_agent_free(ag[0]);
    kontor_agent_free(ag[1]);
}

static int red_removes(const kontor_state *s) {
    if (s->phase != KONTOR_PHASE_REMOVE || kontor_current(s) != 0) return 0;
    kontor_move m[KONTOR_MAX_MOVES];
    return kontor_legal(s, 0, m) > 2;
}

/* The goods of the area c was in, with c's card taken off by the engine
 * (the removal), summed over what is left of it. */
static int winner_without(const kontor_state *s, int c) {
    kontor_bb cells;
    uint8_t g[2][3], sum[2][3] = {{0}};
    kontor_area_at(s, c, &cells, g);
    kontor_state t = *s;
    assert_int_equal(kontor_apply(&t, 0, KONTOR_MOVE(KONTOR_MOVE_REMOVE, c), NULL), KONTOR_OK);
    uint8_t done[KONTOR_CELLS] = {0};
    for (int x = 0; x < KONTOR_CELLS; x++) {
        if (x == c || !kontor_bb_has(&cells, x) || done[x]) continue;
        kontor_bb part;
        uint8_t h[2][3];
        kontor_area_at(&t, x, &part, h);
        for (int y = 0; y < KONTOR_CELLS; y++)
            if (kontor_bb_has(&part, y)) done[y] = 1;
        for (int i = 0; i < 2; i++)
            for (int k = 0; k < 3; k++) sum[i][k] = (uint8_t)(sum[i][k] + h[i][k]);
    }
    return kontor_compare_goods(sum);
}

/* remove=1: the removal scores say what the engine's removal does to the
 * area's lead, and the ship policy then always takes a card of the best
 * score, where remove=0 takes any. */
static void test_remove_takes_the_card_that_hurts(void **st) {
    (void)st;
    int states = 0, lower = 0, flips = 0, gains = 0;
    for (uint64_t seed = 1; seed <= 2000 && (states < 30 || !gains); seed++) {
        kontor_state s;
        kontor_rng r;
        deal(&s, "advanced", seed);
        kontor_rng_seed(&r, seed);
        if (!play_until(&s, &r, red_removes)) continue;
        kontor_move m[KONTOR_MAX_MOVES];
        int n = kontor_legal(&s, 0, m), top = 0, score[KONTOR_CELLS] = {0};
        for (int i = 0; i < n; i++) {
            int c = KONTOR_MOVE_VALUE(m[i]);
            if (c == KONTOR_NONE) continue;
            const kontor_card *k = &s.cfg->cards->card[kontor_state_card_at(&s, c)];
            if (k->colour != 1) continue; /* the policy takes the opponent's cards only */
            kontor_bb cells;
            uint8_t g[2][3];
            kontor_area_at(&s, c, &cells, g);
            int w = kontor_compare_goods(g), w2 = winner_without(&s, c);
            int expect = (w == 1 && w2 != 1) || (w != 0 && w2 == 0) ? 3 : w == 1 ? 2 : 1;
            score[c] = ai_removal_score(&s, 0, c);
            assert_int_equal(score[c], expect);
            flips += expect == 3;
            gains += w < 0 && w2 == 0;
            if (score[c] > top) top = score[c];
        }
        if (!top) continue;
        states++;
        ai_playout_opts o = {.policy = 1, .ship_move = 1.0f, .remove = 1};
        ai_playout_opts o0 = o;
        o0.remove = 0;
        for (int d = 0; d < 40; d++) {
            kontor_move p = ai_playout_ship_pick(&s, 0, &o, &r);
            assert_int_equal(score[KONTOR_MOVE_VALUE(p)], top);
            kontor_move q = ai_playout_ship_pick(&s, 0, &o0, &r);
            assert_true(score[KONTOR_MOVE_VALUE(q)] > 0);
            lower += score[KONTOR_MOVE_VALUE(q)] < top;
        }
    }
    assert_true(states >= 10);
    assert_true(lower > 0); /* without the option a worse card is taken too */
    assert_true(flips > 0);
    assert_true(gains > 0); /* a removal that hands an undecided area to red was judged too */
}

static int red_ships(const kontor_state *s) {
    if (s->round < 4 || s->phase != KONTOR_PHASE_SHIP || kontor_current(s) != 0) return 0;
    kontor_move m[KONTOR_MAX_MOVES];
    int n = kontor_legal(s, 0, m), useful = 0;
    for (int i = 0; i < n; i++) useful += ai_ship_useful(s, 0, m[i]);
    return useful >= 2 && useful < n;
}

/* shipw=K: at a ship node only the moves the ship policy could make are
 * searched until the node has K visits; without it every water cell is. */
static void test_shipw_widens_progressively(void **st) {
    (void)st;
    int views = 0;
    for (uint64_t seed = 1; seed <= 200 && views < 5; seed++) {
        kontor_state s;
        kontor_rng r;
        kontor_view v;
        deal(&s, "advanced", seed);
        kontor_rng_seed(&r, seed);
        if (!play_until(&s, &r, red_ships)) continue;
        views++;
        kontor_view_of(&s, 0, &v);
        const char *specs[3] = {"ismcts:iters=600,shipw=1000000", "ismcts:iters=600", "ismcts:iters=600,shipw=100"};
        for (int k = 0; k < 3; k++) {
            kontor_agent *a = kt_agent(specs[k], seed);
            kontor_move m = a->decide(a, &v);
            assert_true(kontor_is_legal(&s, 0, m));
            ai_base *b = a->impl;
            uint64_t useless = 0, all = 0;
            for (int i = 0; i < b->nlast; i++) {
                all += b->last[i].visits;
                if (!ai_ship_useful(&s, 0, b->last[i].move)) useless += b->last[i].visits;
            }
            assert_int_equal(all, 600);
            if (k == 0) assert_int_equal(useless, 0);
            else assert_true(useless > 0);
            if (k == 0) assert_true(ai_ship_useful(&s, 0, m));
            kontor_agent_free(a);
        }
    }
    assert_int_equal(views, 5);
}

static void test_reuse_specs(void **st) {
    (void)st;
    kontor_agent_free(kt_agent("ismcts:iters=10,reuse=1,bank=1,seq=0.5,remove=1,shipw=50", 1));
    kontor_error err;
    assert_null(kontor_agent_new("ismcts:reuse=2", 1, &err));
    assert_non_null(strstr(err.msg, "option 'reuse' wants a number from 0 to 1, not '2'"));
    assert_null(kontor_agent_new("ismcts:seq=0", 1, &err));
    assert_non_null(strstr(err.msg, "option 'seq'"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reuse_specs),
        cmocka_unit_test(test_reuse_finds_the_reveals),
        cmocka_unit_test(test_reuse_keeps_the_subtree),
        cmocka_unit_test(test_bank_moves_the_budget),
        cmocka_unit_test(test_remove_takes_the_card_that_hurts),
        cmocka_unit_test(test_shipw_widens_progressively),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
