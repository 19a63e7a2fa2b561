/* test_edge_index.c: ismcts's edge index (src/ai/ismcts_index.h), the table
 * that finds a simultaneous node's STAT edges, PASS counters and JOINT
 * children by key instead of walking the parent's lists. It is only a
 * faster way to find what the lists hold, so: every such child of every
 * node is found at its parent, nothing else is, and each PASS node's count
 * of its group's edges is the count in the list (checked after searches
 * that grow the table several times and keep subtrees, reuse=1); and a
 * search with the index is the search that walks the lists (the same
 * rankings and moves, to the bit, in the basic game, the advanced game and
 * the game for four, under sim=uct and rm, reuse=1 and par=root). Plus the
 * table's own generations: a new search forgets the last one's entries,
 * also when the generation counter wraps. */
#include "testutil.h"
#include "aiutil.h"

#include <string.h>

#include "ai/ai.h"
#include "kontor/record.h"
#include "ai/ismcts_index.h"
#include "ai/ismcts_tree.h"

/* Every STAT, PASS and JOINT child of every node of T's tree found by the
 * index at its parent, every PASS node's nedges the count of its group in
 * the list, and as many entries as children; returns the entries checked. */
static uint32_t check_index(const tree *T) {
    const node *pool = T->pool;
    uint32_t n = 0;
    assert_true(T->eix.on);
    for (uint32_t i = 1; i < T->n; i++) {
        for (uint32_t c = pool[i].child; c; c = pool[c].sibling) {
            if (pool[c].kind == N_SEQ) continue;
            if (ix_find(&T->eix, i, pool[c].kind, pool[c].seat, pool[c].move) != c)
                fail_msg("node %u: child %u (kind %d, seat %d, move %d) not in the index", i, c, pool[c].kind,
                         pool[c].seat, pool[c].move);
            /* a move of that group with no edge is not found either */
            if (ix_find(&T->eix, i, pool[c].kind, pool[c].seat, 0xFFFF) != 0) fail_msg("node %u: a ghost", i);
            n++;
            if (pool[c].kind != N_PASS) continue;
            uint32_t k = 0;
            for (uint32_t f = pool[i].child; f; f = pool[f].sibling)
                k += pool[f].kind == pool[c].move && pool[f].seat == pool[c].seat;
            if (pool[c].kind == N_PASS && pool[c].move == N_STAT && pool[c].nedges != k)
                fail_msg("node %u: PASS %u counts %u edges, the list has %u", i, c, pool[c].nedges, k);
        }
        if (pool[i].kind == N_STAT || pool[i].kind == N_PASS) continue;
        for (uint32_t c = pool[i].joint; c; c = pool[c].sibling) {
            if (ix_find(&T->eix, i, N_JOINT, pool[c].seat, pool[c].key) != c)
                fail_msg("node %u: joint child %u (key %x) not in the index", i, c, pool[c].key);
            n++;
        }
    }
    assert_int_equal(n, T->eix.n);
    return n;
}

/* Seat 0 played by two agents of one spec and seed, one with the index and
 * one walking the lists, the others at random, for a game of variant from
 * deal seed: at every decision of seat 0 both rank the same moves with the
 * same visits and values and pick the same one; the indexed tree is checked
 * whole after each search. Returns the decisions compared. */
static int same_game(const char *variant, const char *spec, uint64_t seed, int max_decisions, uint32_t *entries) {
    kontor_config cfg;
    kontor_error err;
    const char *hidden = strstr(variant, "+hidden"); /* declare=hidden, as the search's records */
    char name[32];
    snprintf(name, sizeof name, "%.*s", hidden ? (int)(hidden - variant) : (int)strlen(variant), variant);
    assert_int_equal(kontor_config_init(&cfg, name, &err), KONTOR_OK);
    if (hidden) cfg.pass_hidden = 1;
    kontor_state s;
    kontor_new(&s, &cfg, seed, NULL);
    kontor_agent *a = kt_agent(spec, seed), *b = kt_agent(spec, seed);
    ismcts_impl *ma = a->impl, *mb = b->impl;
    mb->walk = 1;
    kontor_rng r;
    kontor_rng_seed(&r, seed);
    int decisions = 0;
    while (kontor_actors(&s) && decisions < max_decisions) {
        unsigned act = kontor_actors(&s);
        if (act & 1) {
            kontor_view v;
            kontor_view_of(&s, 0, &v);
            kontor_move x = a->decide(a, &v), y = b->decide(b, &v);
            assert_int_equal(x, y);
            const ai_base *ba = a->impl, *bb = b->impl;
            assert_int_equal(ba->nlast, bb->nlast);
            for (int i = 0; i < ba->nlast; i++) {
                assert_int_equal(ba->last[i].move, bb->last[i].move);
                assert_int_equal(ba->last[i].visits, bb->last[i].visits);
                if (memcmp(&ba->last[i].value, &bb->last[i].value, sizeof(double)) != 0)
                    fail_msg("%s %s seed %llu: move %d values differ", variant, spec, (unsigned long long)seed,
                             ba->last[i].move);
            }
            assert_int_equal(ba->reused, bb->reused);
            if (ba->nlast) {
                decisions++;
                for (int t = 0; t < (ma->rs ? ma->threads : 1); t++) {
                    assert_null(mb->trees[t].eix.e);
                    assert_false(mb->trees[t].place_plain);
                    *entries += check_index(&ma->trees[t]);
                }
            }
            assert_int_equal(kontor_apply(&s, 0, x, NULL), KONTOR_OK);
            continue;
        }
        for (int q = 1; q < s.cfg->nseats; q++) {
            if (!((act >> q) & 1)) continue;
            kontor_move m[KONTOR_MAX_MOVES];
            int n = kontor_legal(&s, q, m);
            assert_int_equal(kontor_apply(&s, q, m[kontor_rng_below(&r, (uint32_t)n)], NULL), KONTOR_OK);
            break;
        }
    }
    kontor_agent_free(a);
    kontor_agent_free(b);
    return decisions;
}

static void test_edge_index_search_is_the_walks_search(void **st) {
    (void)st;
    struct {
        const char *variant, *spec;
        int decisions;
    } games[] = {
        {"basic", "ismcts:iters=3000", 4},                      /* 3000: the table doubles twice */
        {"basic", "ismcts:iters=400,sim=rm,mast=0", 40},
        {"basic", "ismcts:iters=300,reuse=1", 60},              /* kept subtrees re-indexed */
        {"advanced", "ismcts:iters=300,reuse=1,sim=exp3", 60},
        {"four", "ismcts:iters=300", 30},                       /* joint keys of four seats */
        {"basic", "ismcts:iters=600,threads=2,par=root", 20},   /* a tree, an index, a thread */
        /* the plain search's placements from the cells' bits (select_place) */
        {"basic", "ismcts:iters=500,policy=0,mast=0,pass=0", 40},
        {"advanced", "ismcts:iters=500,policy=0,mast=0,pass=0", 40},
        /* declare=hidden: the other seat's root edges from its hand and
         * its pass (select_stat_hand), against the walk's */
        {"basic+hidden", "ismcts:iters=500,policy=0,mast=0,pass=0", 40},
    };
    for (size_t g = 0; g < sizeof games / sizeof *games; g++) {
        uint32_t entries = 0;
        int d = same_game(games[g].variant, games[g].spec, 7 + g, games[g].decisions, &entries);
        if (d < 3 || entries < 100) fail_msg("%s %s: %d decisions, %u entries", games[g].variant, games[g].spec, d, entries);
    }
}

/* The ply that starts round want (kontor_record_replay's callback). */
typedef struct round_at {
    int want, ply;
} round_at;
static void find_round(void *ctx, const kontor_state *s, int ply, const kontor_log *log) {
    (void)log;
    round_at *f = ctx;
    if (f->ply < 0 && s->round >= f->want) f->ply = ply + 1;
}

/* select_place takes the selectable edges in the order of the children's
 * list and chooses among them as select_edge does in the order of
 * kontor_legal's list, the cells ascending (ucb_cells): the unvisited edge
 * of the smallest cell first, and of equal UCB values the smaller cell.
 * Equal values are rare (the edges' visits, results and availability all
 * equal): the search of `kontor hint docs/arena/basic-1s/game-0001.kgn
 * --round 6 --seed 3` meets one, at black's search. Both seats' rankings
 * there are the walk's, to the bit (it failed with the larger cell taken of
 * equals, checked by hand). */
static void test_place_ties_go_to_the_smaller_cell_as_in_the_walk(void **st) {
    (void)st;
    kontor_record r;
    kontor_state s;
    kontor_error err;
    kt_read_record("docs/arena/basic-1s/game-0001.kgn", &r);
    round_at at = {6, -1};
    if (kontor_record_replay(&r, -1, &s, find_round, &at, &err)) fail_msg("%s", err.msg);
    assert_true(at.ply > 0);
    if (kontor_record_replay(&r, at.ply, &s, NULL, NULL, &err)) fail_msg("%s", err.msg);
    kontor_record_release(&r);
    kontor_agent *a = kt_agent("ismcts:iters=1500", 3), *b = kt_agent("ismcts:iters=1500", 3);
    ismcts_impl *mb = b->impl;
    mb->walk = 1;
    unsigned act = kontor_actors(&s);
    assert_int_equal(act, 3);
    for (int seat = 0; seat < 2; seat++) {
        kontor_view v;
        kontor_view_of(&s, seat, &v);
        ai_choice x[KONTOR_MAX_MOVES], y[KONTOR_MAX_MOVES];
        int n = kontor_agent_rank(a, &v, x, KONTOR_MAX_MOVES), m = kontor_agent_rank(b, &v, y, KONTOR_MAX_MOVES);
        assert_int_equal(n, m);
        for (int i = 0; i < n; i++) {
            assert_int_equal(x[i].move, y[i].move);
            assert_int_equal(x[i].visits, y[i].visits);
            if (memcmp(&x[i].value, &y[i].value, sizeof(double)) != 0)
                fail_msg("seat %d: move %d values differ", seat, x[i].move);
        }
    }
    kontor_agent_free(a);
    kontor_agent_free(b);
}

/* A new search (ix_reset) forgets the last one's entries without clearing
 * the table, by generations, and when the generation counter wraps the
 * table is emptied once: entries of generation 1 from long ago would
 * otherwise come back. The table doubles when half full and keeps what it
 * held. Adding to an index that is off does nothing. */
static void test_edge_index_forgets_the_last_search(void **st) {
    (void)st;
    ix x;
    memset(&x, 0, sizeof x);
    assert_int_equal(ix_alloc(&x), 0);
    assert_false(x.on); /* nothing of a tree in it yet */
    ix_add(&x, 1, N_STAT, 0, 5, 2);
    assert_int_equal(x.n, 0);
    ix_reset(&x);
    assert_int_equal(x.gen, 1);
    for (uint32_t i = 0; i < 5000; i++) ix_add(&x, 1 + i / 7, N_STAT, (int)(i & 1), i, 2 + i); /* doubles twice */
    assert_true(x.mask + 1 >= 16384);
    for (uint32_t i = 0; i < 5000; i++) assert_int_equal(ix_find(&x, 1 + i / 7, N_STAT, (int)(i & 1), i), 2 + i);
    assert_int_equal(ix_find(&x, 1, N_JOINT, 0, 0), 0);
    assert_int_equal(ix_find(&x, 1, N_STAT, 1, 0), 0);
    ix_reset(&x);
    for (uint32_t i = 0; i < 5000; i++) assert_int_equal(ix_find(&x, 1 + i / 7, N_STAT, (int)(i & 1), i), 0);
    x.gen = 0xFFFF; /* the next reset wraps to generation 1, the entries' */
    ix_reset(&x);
    assert_int_equal(x.gen, 1);
    for (uint32_t i = 0; i < 5000; i++) assert_int_equal(ix_find(&x, 1 + i / 7, N_STAT, (int)(i & 1), i), 0);
    ix_free(&x);
    ix_free(&x); /* twice: harmless */
}

/* ist_actors (the search's actors of a node below the root) is
 * kontor_actors at every state of random games of several variants. */
static void test_search_actors_are_kontor_actors(void **st) {
    (void)st;
    static const char *const vs[] = {"basic", "advanced", "four"};
    int checked = 0;
    for (size_t v = 0; v < sizeof vs / sizeof *vs; v++) {
        kontor_config cfg;
        kontor_error err;
        assert_int_equal(kontor_config_init(&cfg, vs[v], &err), KONTOR_OK);
        for (uint64_t g = 0; g < 6; g++) {
            static kontor_state s;
            kontor_rng rng;
            kontor_rng_seed(&rng, 5 + g);
            assert_int_equal(kontor_new(&s, &cfg, g, &err), KONTOR_OK);
            while (!kontor_over(&s)) {
                unsigned act = kontor_actors(&s);
                if (ist_actors(&s) != act) fail_msg("%s seed %llu phase %d: %x, not %x", vs[v], (unsigned long long)g, s.phase, ist_actors(&s), act);
                checked++;
                int seat = __builtin_ctz(act);
                kontor_move m[KONTOR_MAX_MOVES];
                int n = kontor_legal(&s, seat, m);
                assert_int_equal(kontor_apply(&s, seat, m[kontor_rng_below(&rng, (uint32_t)n)], NULL), KONTOR_OK);
            }
        }
    }
    assert_true(checked > 1000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edge_index_search_is_the_walks_search),
        cmocka_unit_test(test_edge_index_forgets_the_last_search),
        cmocka_unit_test(test_place_ties_go_to_the_smaller_cell_as_in_the_walk),
        cmocka_unit_test(test_search_actors_are_kontor_actors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
