/* test_tree_par.c: tree parallelism in ismcts (par=tree, the default with
 * threads > 1; issue 18, item 3): several threads search one shared tree,
 * drawing from one iteration budget, with a virtual loss (vl=K) that each
 * takes back. What can be pinned although the threads' interleaving is not
 * deterministic: the budget is spent exactly (every iteration passes through
 * one root choice of the seat), the virtual loss leaves no visit behind, and
 * the threads grow ONE tree (each root cell expanded once, which two trees
 * of half the budget do not do); par=root stays reproducible for a seed; the
 * option's errors. The locking itself is checked under ThreadSanitizer
 * (docs/ai.md, "Tree parallelism"). Since the second session ("where the
 * time went"): no visit or availability lost in the shared tree (every
 * node's counts add up), the availability counted by passes, births and
 * misses gives one thread the very search of counting it on every edge
 * (pinned by the rankings the code before that change found), and a kept
 * subtree whose nodes come before their parents in the pool (the threads'
 * chunks) is kept whole. */
#include "testutil.h"
#include "aiutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ai/ai.h"
#include "ai/ismcts_tree.h"

static uint64_t total_visits(const ai_choice *c, int n) {
    uint64_t t = 0;
    for (int i = 0; i < n; i++) t += c[i].visits;
    return t;
}

/* The two kinds of root the tests search: red's card choice at the start of
 * the basic game of deal 9 (simultaneous) and red's placement in round 2 or
 * later of deal 5 (sequential). */
static void two_views(kontor_view *choose, kontor_view *place) {
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, "basic", &err), KONTOR_OK);
    kontor_state s0;
    kontor_new(&s0, &cfg, 9, NULL);
    kontor_view_of(&s0, 0, choose);
    kontor_state s;
    assert_true(kt_red_places_view(5, 2, &s, place));
}

/* The threads draw from one budget: exactly iters iterations in all, each
 * through one root choice, whatever the virtual loss (vl=K adds K visits on
 * the way down and takes K - 1 back with the result). Both a placement
 * (sequential) and the card choice (simultaneous) at the root. */
static void test_tree_par_spends_the_budget_exactly(void **st) {
    (void)st;
    kontor_view choose, place;
    two_views(&choose, &place);
    const kontor_view *views[] = {&choose, &place};
    /* 2999: not a whole number of the threads' batches of iterations */
    const char *specs[] = {"ismcts:iters=3000,threads=2", "ismcts:iters=3000,threads=2,vl=3",
                           "ismcts:iters=3000,threads=3,vl=2,sim=rm", "ismcts:iters=2999,threads=2"};
    for (int k = 0; k < 4; k++)
        for (int w = 0; w < 2; w++) {
            kontor_agent *a = kt_agent(specs[k], 3);
            ai_choice c[KONTOR_MAX_MOVES];
            int n = kontor_agent_rank(a, views[w], c, KONTOR_MAX_MOVES);
            uint64_t want = k == 3 ? 2999 : 3000;
            assert_true(n > 1);
            assert_int_equal(total_visits(c, n), want);
            assert_int_equal(((ai_base *)a->impl)->iters, want);
            kontor_agent_free(a);
        }
}

/* One tree, not two: at a placement with n cells and a budget of n
 * iterations each iteration expands an untried root cell (untried first),
 * so one shared tree visits every cell exactly once; two trees of n/2
 * each pick their cells independently and some cell twice. */
static void test_tree_par_grows_one_tree(void **st) {
    (void)st;
    int checked = 0, root_dup = 0;
    for (uint64_t seed = 1; seed <= 50 && checked < 5; seed++) {
        kontor_state s;
        kontor_view v;
        if (!kt_red_places_view(seed, 2, &s, &v)) continue;
        kontor_move m[KONTOR_MAX_MOVES];
        int n = kontor_legal(&s, 0, m);
        if (n < 8) continue;
        for (int par = 0; par < 2; par++) {
            char spec[80];
            snprintf(spec, sizeof spec, "ismcts:iters=%d,threads=2,par=%s", n, par ? "root" : "tree");
            kontor_agent *a = kt_agent(spec, seed);
            ai_choice c[KONTOR_MAX_MOVES];
            int k = kontor_agent_rank(a, &v, c, KONTOR_MAX_MOVES);
            assert_int_equal(k, n);
            assert_int_equal(total_visits(c, k), (uint64_t)n);
            if (par == 0) assert_int_equal(c[0].visits, 1); /* the most visited: once */
            else root_dup += c[0].visits > 1;
            kontor_agent_free(a);
        }
        checked++;
    }
    assert_int_equal(checked, 5);
    assert_true(root_dup > 0); /* the check above tells the two apart */
}

/* A time budget under par=tree and par=root: every thread searches until
 * the deadline (or the decision is settled) and the move is legal. */
static void test_tree_par_time_budget(void **st) {
    (void)st;
    kontor_state s;
    kontor_view v;
    assert_true(kt_red_places_view(7, 2, &s, &v));
    const char *specs[] = {"ismcts:ms=30,threads=2", "ismcts:ms=30,threads=2,stop=0,clock=cpu",
                           "ismcts:ms=30,threads=2,par=root", "ismcts:ms=30,threads=3,par=root,clock=cpu"};
    for (int k = 0; k < 4; k++) {
        kontor_agent *a = kt_agent(specs[k], 3);
        kontor_move m = a->decide(a, &v);
        assert_true(kontor_is_legal(&s, 0, m));
        assert_true(((ai_base *)a->impl)->iters > 0);
        kontor_agent_free(a);
    }
}

/* Whether the agents of specs sa and sb, both seeded with seed, rank v
 * differently (a move or its visits at some rank); asserts that they rank
 * as many decisions, and writes the first difference into what. */
static int rankings_differ(const char *sa, const char *sb, uint64_t seed, const kontor_view *v, char *what,
                           size_t cap) {
    ai_choice c1[KONTOR_MAX_MOVES], c2[KONTOR_MAX_MOVES];
    kontor_agent *a = kt_agent(sa, seed), *b = kt_agent(sb, seed);
    int n1 = kontor_agent_rank(a, v, c1, KONTOR_MAX_MOVES), n2 = kontor_agent_rank(b, v, c2, KONTOR_MAX_MOVES);
    assert_int_equal(n1, n2);
    kontor_agent_free(a);
    kontor_agent_free(b);
    for (int i = 0; i < n1; i++)
        if (c1[i].move != c2[i].move || c1[i].visits != c2[i].visits) {
            snprintf(what, cap, "rank %d, move %d with %u visits, not %d with %u", i, c1[i].move, c1[i].visits,
                     c2[i].move, c2[i].visits);
            return 1;
        }
    snprintf(what, cap, "the same rankings");
    return 0;
}

/* par=root keeps today's reproducible search: the same seed, the same
 * ranking and visits, two threads or not. */
static void test_par_root_reproducible(void **st) {
    (void)st;
    kontor_state s;
    kontor_view v;
    assert_true(kt_red_places_view(5, 2, &s, &v));
    char what[128];
    if (rankings_differ("ismcts:iters=700,threads=2,par=root", "ismcts:iters=700,threads=2,par=root", 4, &v, what,
                        sizeof what))
        fail_msg("%s", what);
}

/* The counts of node i's subtree add up: for each group of edges (kind,
 * seat) under a node, its PASS node's passes are the sum of the edges'
 * visits (each pass chose one edge and took its virtual loss back), each
 * edge was available at least as often as it was chosen and at most at
 * every pass since its birth, and a simultaneous node's passes are its
 * joint children's visits. Returns the number of groups checked. */
static int check_counts(const node *pool, uint32_t i) {
    int groups = 0;
    for (uint32_t p = pool[i].child; p; p = pool[p].sibling) {
        if (pool[p].kind != N_PASS) continue;
        int kind = pool[p].move, seat = pool[p].seat;
        uint32_t passes = pool[p].visits;
        uint64_t sum = 0;
        for (uint32_t e = pool[i].child; e; e = pool[e].sibling) {
            if (pool[e].kind != kind || pool[e].seat != seat) continue;
            uint32_t avail = pool[p].key ? passes - pool[e].key - pool[e].miss : pool[e].miss;
            if (pool[e].visits > avail || avail > passes - pool[e].key)
                fail_msg("node %u, edge %u: %u visits, available %u of %u passes since its birth", i, e,
                         pool[e].visits, avail, passes - pool[e].key);
            sum += pool[e].visits;
        }
        if (sum != passes) fail_msg("node %u, group (%d, seat %d): %u passes, edges visited %llu times", i, kind, seat,
                                    passes, (unsigned long long)sum);
        if (kind == N_STAT) {
            uint64_t joint = 0;
            for (uint32_t j = pool[i].joint; j; j = pool[j].sibling) joint += pool[j].visits;
            if (joint != passes) fail_msg("node %u: %u simultaneous passes, %llu joint visits", i, passes,
                                          (unsigned long long)joint);
        }
        groups++;
    }
    for (uint32_t e = pool[i].child; e; e = pool[e].sibling)
        if (pool[e].kind != N_PASS) groups += check_counts(pool, e);
    if (pool[i].kind != N_STAT)
        for (uint32_t j = pool[i].joint; j; j = pool[j].sibling) groups += check_counts(pool, j);
    return groups;
}

/* No visit lost in the shared tree: with 2 and 3 threads, virtual losses
 * of 1 and 3 visits, sim=rm, at a card choice and a placement, every
 * node's counts add up (check_counts) and the root was visited once an
 * iteration; and along a whole game with reuse=1, where the kept tree has
 * nodes from both threads' chunks. Fails when the threads' updates race
 * (the locks or the chunks broken: checked by taking the root's lock out of
 * the way back), when a group's misses or counts are not kept, or when a
 * kept subtree loses nodes. */
static void test_tree_par_no_lost_visits(void **st) {
    (void)st;
    kontor_view choose, place;
    two_views(&choose, &place);
    const kontor_view *views[] = {&choose, &place};
    const char *specs[] = {"ismcts:iters=6000,threads=2", "ismcts:iters=6000,threads=2,vl=3",
                           "ismcts:iters=6000,threads=3,sim=rm", "ismcts:iters=6000"};
    for (int k = 0; k < 4; k++)
        for (int w = 0; w < 2; w++) {
            kontor_agent *a = kt_agent(specs[k], 5);
            ai_choice c[KONTOR_MAX_MOVES];
            assert_true(kontor_agent_rank(a, views[w], c, KONTOR_MAX_MOVES) > 1);
            const node *pool = ((ismcts_impl *)a->impl)->trees[0].pool;
            assert_int_equal(pool[1].visits, 6000);
            assert_true(check_counts(pool, 1) > 10);
            kontor_agent_free(a);
        }
    /* a game against greedy, red searching with two threads and reuse=1 */
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, "basic", &err), KONTOR_OK);
    kontor_state g;
    kontor_new(&g, &cfg, 21, NULL);
    kontor_agent *a = kt_agent("ismcts:iters=1500,threads=2,reuse=1", 2), *b = kt_agent("greedy", 2);
    int searched = 0, kept = 0;
    while (kontor_actors(&g) && searched < 24) {
        unsigned act = kontor_actors(&g);
        for (int seat = 0; seat < 2; seat++) {
            if (!((act >> seat) & 1)) continue;
            kontor_view v;
            kontor_view_of(&g, seat, &v);
            kontor_agent *who = seat == 0 ? a : b;
            kontor_move m = who->decide(who, &v);
            if (seat == 0 && ((ai_base *)a->impl)->nlast > 0) {
                const node *pool = ((ismcts_impl *)a->impl)->trees[0].pool;
                check_counts(pool, 1);
                searched++;
                kept += ((ai_base *)a->impl)->reused > 0;
            }
            assert_int_equal(kontor_apply(&g, seat, m, NULL), KONTOR_OK);
            break; /* one seat at a time: the actors change */
        }
    }
    assert_true(searched >= 20);
    assert_true(kept > 0);
    kontor_agent_free(a);
    kontor_agent_free(b);
}

/* One thread counts availability by passes, births and misses and gets the
 * very search of counting it on every selectable edge at every pass: the
 * rankings (moves and visits) of red's first 8 decisions with a choice in a
 * random game (seed 31), hashed, as the code before that change found them
 * (commit 5cb4874; tools: the same loop), with the plain search, sim=rm and
 * ebias=1,shipw=30, basic and advanced. Fails when a miss or a count is
 * dropped, a group's switch converts wrongly, or a birth is off by one
 * (each checked by hand). */
static uint64_t ranking_hash(const char *variant, const char *spec) {
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, variant, &err), KONTOR_OK);
    kontor_state s;
    kontor_new(&s, &cfg, 31, NULL);
    kontor_rng r;
    kontor_rng_seed(&r, 31);
    kontor_agent *a = kt_agent(spec, 3);
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    int views = 0;
    while (kontor_actors(&s) && views < 8) {
        unsigned act = kontor_actors(&s);
        int seat = (act & 1) ? 0 : 1;
        kontor_move m[KONTOR_MAX_MOVES];
        int n = kontor_legal(&s, seat, m);
        if (seat == 0 && n > 1) {
            kontor_view v;
            kontor_view_of(&s, 0, &v);
            ai_choice c[KONTOR_MAX_MOVES];
            int k = kontor_agent_rank(a, &v, c, KONTOR_MAX_MOVES);
            for (int i = 0; i < k; i++) {
                h = (h ^ c[i].move) * 1099511628211ULL;
                h = (h ^ c[i].visits) * 1099511628211ULL;
            }
            views++;
        }
        kontor_apply(&s, seat, m[kontor_rng_below(&r, (uint32_t)n)], NULL);
    }
    kontor_agent_free(a);
    return h;
}

static void test_one_thread_availability_as_before(void **st) {
    (void)st;
    struct {
        const char *variant, *spec;
        uint64_t hash;
    } pin[] = {{"basic", "ismcts:iters=4000", 0x91a3d517bc213eb2ULL},
               {"advanced", "ismcts:iters=4000", 0x2f81c0a3dfb5005cULL},
               {"basic", "ismcts:iters=4000,sim=rm", 0x3d88a4640f3fc0b8ULL},
               {"advanced", "ismcts:iters=4000,sim=rm", 0x1c24c7988c9f407eULL},
               {"basic", "ismcts:iters=4000,ebias=1,shipw=30", 0x3e3cb381dbf2c0d8ULL},
               {"advanced", "ismcts:iters=4000,ebias=1,shipw=30", 0x5dad4e090d63f918ULL}};
    for (size_t i = 0; i < sizeof pin / sizeof *pin; i++) {
        uint64_t h = ranking_hash(pin[i].variant, pin[i].spec);
        if (h != pin[i].hash)
            fail_msg("%s %s: rankings hash to 0x%016llx, not 0x%016llx as before", pin[i].variant, pin[i].spec,
                     (unsigned long long)h, (unsigned long long)pin[i].hash);
    }
}

/* A group that counts misses, and has some: the search against a fixed set
 * of states (ai_ismcts_rank_against) at red's card choice, ten of them the
 * deal and one with a card of red's hand swapped for one of blue's, so red's
 * card X is selectable in the ten and its card Y only in the eleventh. Red's
 * group at the root soon counts misses (it is all selectable at most
 * passes); X is available at every pass Y is not, so their availabilities
 * add up to the passes exactly. The searches of real games meet no such
 * group (every group there is either selectable at every pass or varies
 * enough to count), so this is the test of the misses: fails with them
 * dropped (checked by hand), with one thread and with two. */
static void test_availability_counts_misses(void **st) {
    (void)st;
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, "basic", &err), KONTOR_OK);
    kontor_state s0;
    kontor_new(&s0, &cfg, 9, NULL);
    while (s0.phase == KONTOR_PHASE_DECLARE) { /* both declare they play (R1): to the card choice */
        unsigned act = kontor_actors(&s0);
        for (int q = 0; q < 2; q++) {
            kontor_move m[KONTOR_MAX_MOVES];
            if ((act >> q) & 1 && kontor_legal(&s0, q, m) > 0) kontor_apply(&s0, q, m[0], NULL);
        }
    }
    assert_int_equal(s0.phase, KONTOR_PHASE_CHOOSE);
    kontor_view v;
    kontor_view_of(&s0, 0, &v);
    kontor_state states[11];
    kontor_move picks[11 * KONTOR_MAX_SEATS];
    memset(picks, 0, sizeof picks);
    for (int i = 0; i < 11; i++) states[i] = s0;
    kontor_state *odd = &states[10];
    uint8_t t = odd->hand[0][0];
    odd->hand[0][0] = odd->hand[1][0];
    odd->hand[1][0] = t;
    kontor_move a[KONTOR_MAX_MOVES], b[KONTOR_MAX_MOVES];
    int na = kontor_legal(&s0, 0, a), nb = kontor_legal(odd, 0, b);
    kontor_move X = 0, Y = 0;
    int nx = 0, ny = 0;
    for (int i = 0; i < na; i++) {
        int in = 0;
        for (int j = 0; j < nb; j++) in |= a[i] == b[j];
        if (!in) X = a[i], nx++;
    }
    for (int j = 0; j < nb; j++) {
        int in = 0;
        for (int i = 0; i < na; i++) in |= a[i] == b[j];
        if (!in) Y = b[j], ny++;
    }
    assert_int_equal(nx, 1);
    assert_int_equal(ny, 1);
    for (int i = 0; i < 11; i++) {
        kontor_move m[KONTOR_MAX_MOVES];
        assert_true(kontor_legal(&states[i], 1, m) > 0);
        picks[i * KONTOR_MAX_SEATS + 1] = m[0]; /* blue's modelled choice */
    }
    const char *specs[] = {"ismcts:iters=3000", "ismcts:iters=3000,threads=2"};
    for (int k = 0; k < 2; k++) {
        kontor_agent *ag = kt_agent(specs[k], 4);
        ai_choice c[KONTOR_MAX_MOVES];
        assert_true(ai_ismcts_rank_against(ag, &v, states, picks, 11, c, KONTOR_MAX_MOVES) > 1);
        const node *pool = ((ismcts_impl *)ag->impl)->trees[0].pool;
        uint32_t pc = 0, ex = 0, ey = 0;
        for (uint32_t e = pool[1].child; e; e = pool[e].sibling) {
            if (pool[e].seat != 0) continue;
            if (pool[e].kind == N_PASS && pool[e].move == N_STAT) pc = e;
            if (pool[e].kind == N_STAT && pool[e].move == X) ex = e;
            if (pool[e].kind == N_STAT && pool[e].move == Y) ey = e;
        }
        assert_true(pc && ex && ey);
        assert_int_equal(pool[pc].visits, 3000);
        assert_int_equal(pool[pc].key, 1); /* counting misses */
        uint32_t passes = pool[pc].visits;
        uint32_t ax = passes - pool[ex].key - pool[ex].miss, ay = passes - pool[ey].key - pool[ey].miss;
        if (ax + ay != passes) fail_msg("%s: X available %u times, Y %u, of %u passes", specs[k], ax, ay, passes);
        assert_true(ay > 100 && ay < 600); /* about 1 in 11 */
        check_counts(pool, 1);
        kontor_agent_free(ag);
    }
}

/* reuse=1 keeps the subtree under the decisions since, even where a node
 * comes before its parent in the pool (under par=tree each thread takes
 * nodes from a chunk of its own, so a child can get a smaller index than
 * its parent, even than the new root). A tree made by hand: the root 1,
 * its edge 6 (seat 0, move 40) to keep, under 6 the edges 3 (move 41) and
 * 8 (a PASS node), the joint child 2, and 9 under 3; 4, 5, 7 are dropped.
 * Fails with a marking that only looks at higher indices. */
static void test_keep_subtree_child_before_parent(void **st) {
    (void)st;
    node pool[12];
    uint32_t map[12], stack[12];
    memset(pool, 0, sizeof pool);
    pool[1].child = 5;
    pool[5] = (node){.sibling = 6, .kind = N_SEQ, .seat = 0, .move = 39, .visits = 1};
    pool[6] = (node){.sibling = 4, .child = 8, .kind = N_SEQ, .seat = 0, .move = 40, .visits = 7};
    pool[6].joint = 2;
    pool[4] = (node){.sibling = 0, .kind = N_PASS, .seat = 0, .move = N_SEQ, .visits = 8};
    pool[7] = (node){.sibling = 0, .kind = N_SEQ, .seat = 1, .move = 50, .visits = 1}; /* under 5 */
    pool[5].child = 7;
    pool[8] = (node){.sibling = 3, .kind = N_PASS, .seat = 1, .move = N_SEQ, .visits = 3};
    pool[3] = (node){.sibling = 0, .child = 9, .kind = N_SEQ, .seat = 1, .move = 41, .visits = 3};
    pool[2] = (node){.sibling = 0, .kind = N_JOINT, .seat = 2, .key = 77, .visits = 4};
    pool[9] = (node){.sibling = 0, .kind = N_SEQ, .seat = 0, .move = 42, .visits = 2};
    tree T;
    memset(&T, 0, sizeof T);
    T.pool = pool;
    T.cap = 12;
    T.n = 10;
    T.map = map;
    T.stack = stack;
    ai_reuse_path p;
    memset(&p, 0, sizeof p);
    p.nseq = 1;
    p.seq[0] = 40;
    assert_int_equal(ist_reuse_tree(&T, &p, 0), 1);
    assert_int_equal(T.n, 6); /* the new root and 4 nodes under it */
    assert_int_equal(pool[1].visits, 7);
    int seen41 = 0, seenpass = 0, seen42 = 0;
    for (uint32_t e = pool[1].child; e; e = pool[e].sibling) {
        assert_true(e >= 2 && e < 6);
        if (pool[e].kind == N_PASS) seenpass++, assert_int_equal(pool[e].visits, 3);
        if (pool[e].kind == N_SEQ && pool[e].move == 41) {
            seen41++;
            assert_true(pool[e].child >= 2 && pool[e].child < 6);
            assert_int_equal(pool[pool[e].child].move, 42);
            seen42 += pool[pool[e].child].visits == 2;
        }
    }
    assert_int_equal(seen41, 1);
    assert_int_equal(seenpass, 1);
    assert_int_equal(seen42, 1);
    assert_true(pool[1].joint >= 2 && pool[1].joint < 6);
    assert_int_equal(pool[pool[1].joint].key, 77);
}

/* par=sync: the root visits of the searching seat's moves that tree T
 * holds, the move's place in the table being i. */
static uint64_t tree_root_visits(const tree *T, int seat, int kind, kontor_move mv, double *reward) {
    uint64_t vis = 0;
    for (uint32_t e = T->pool[1].child; e; e = T->pool[e].sibling)
        if (T->pool[e].seat == seat && T->pool[e].kind == kind && T->pool[e].move == mv) {
            vis += T->pool[e].visits;
            if (reward) *reward += T->pool[e].reward;
        }
    return vis;
}

/* The merge's rule (par=sync, issue 18 item 3): after a search the root
 * table holds, per move of the searching seat, the sum of every tree's
 * root visits (and rewards) of it, which is also the decision's count; each
 * thread merged once every merge=K iterations of its share and once more
 * at its end (2 and 3 threads, a budget that is no multiple of K nor of
 * the threads, a card choice and a placement, under an iteration budget and
 * under a time budget). Fails when a thread's last gains are not merged
 * (checked by taking out the merge at the end of ist_run_tree), when a
 * merge adds a tree's totals instead of what it gained since its last one
 * (checked: pub_v not kept), or when the count of merges is off. */
static void test_par_sync_table_sums_the_trees(void **st) {
    (void)st;
    kontor_view choose, place;
    two_views(&choose, &place);
    const kontor_view *views[] = {&choose, &place};
    const char *specs[] = {"ismcts:iters=2999,threads=2,par=sync,merge=50",
                           "ismcts:iters=3001,threads=3,par=sync,merge=7",
                           "ismcts:ms=20,threads=2,par=sync,merge=16,clock=cpu,stop=0"};
    for (int k = 0; k < 3; k++)
        for (int w = 0; w < 2; w++) {
            const kontor_view *v = views[w];
            kontor_agent *a = kt_agent(specs[k], 11);
            ai_choice c[KONTOR_MAX_MOVES];
            int n = kontor_agent_rank(a, v, c, KONTOR_MAX_MOVES);
            ismcts_impl *m = a->impl;
            syncsh *S = m->ss;
            assert_non_null(S);
            assert_int_equal(S->n, n);
            assert_int_equal(S->members, 0); /* every thread left the rounds */
            int kind = w == 0 ? N_STAT : N_SEQ;
            uint64_t all = 0, merges = 0;
            for (int i = 0; i < S->n; i++) {
                uint64_t sum = 0;
                double rew = 0;
                for (int t = 0; t < m->threads; t++)
                    sum += tree_root_visits(&m->trees[t], v->seat, kind, S->moves[i], &rew);
                if (S->acc_v[i] != sum)
                    fail_msg("spec %d, view %d, move %d: table %llu visits, trees %llu", k, w, i,
                             (unsigned long long)S->acc_v[i], (unsigned long long)sum);
                assert_true(fabs(S->acc_r[i] - rew) < 1e-3 * (1 + rew));
                for (int j = 0; j < n; j++)
                    if (c[j].move == S->moves[i]) assert_int_equal(c[j].visits, sum);
                all += sum;
            }
            assert_int_equal(all, m->base.iters); /* one root choice of the seat an iteration */
            for (int t = 0; t < m->threads; t++)
                merges += (m->trees[t].iters - (m->ms ? 0 : 1)) / m->trees[t].merge + 1;
            assert_int_equal(S->merges, merges);
            kontor_agent_free(a);
        }
}

/* What the merge changes and what it does not: a merge interval longer
 * than the search is par=root's search exactly (the table then only sums
 * at the end, and the root's UCB is computed as par=root computes it);
 * with merges the search differs from par=root's (the other trees' share
 * steers each root), and it is reproducible for a seed (under an iteration
 * budget the merges are a barrier: what a tree reads does not depend on
 * timing), with 2 and 3 threads. One thread under par=sync is the plain
 * search. Fails when the merged statistics are not used at the root
 * (checked by taking them out of select_edge: the search then is par=root's)
 * or when the merges do not wait for each other (checked by clearing the
 * barrier: the three-thread rankings then differ from run to run). */
static void test_par_sync_steers_reproducibly(void **st) {
    (void)st;
    kontor_view choose, place;
    two_views(&choose, &place);
    const kontor_view *views[] = {&choose, &place};
    const char *pairs[][2] = {
        {"ismcts:iters=4000,threads=2,par=sync,merge=100000", "ismcts:iters=4000,threads=2,par=root"},
        {"ismcts:iters=4000,par=sync,merge=8", "ismcts:iters=4000"},
        {"ismcts:iters=4000,threads=2,par=sync,merge=32", "ismcts:iters=4000,threads=2,par=sync,merge=32"},
        {"ismcts:iters=4000,threads=3,par=sync,merge=5", "ismcts:iters=4000,threads=3,par=sync,merge=5"},
    };
    for (int w = 0; w < 2; w++) {
        for (int k = 0; k < 4; k++) {
            char what[128];
            if (rankings_differ(pairs[k][0], pairs[k][1], 5, views[w], what, sizeof what))
                fail_msg("view %d, '%s' against '%s': %s", w, pairs[k][0], pairs[k][1], what);
        }
        /* the merges change the search */
        char what[128];
        assert_true(rankings_differ("ismcts:iters=4000,threads=2,par=sync,merge=32", "ismcts:iters=4000,threads=2,par=root",
                                    5, views[w], what, sizeof what));
    }
}

/* mopp=1 (par=sync, issue 18 item 3, the eleventh session): at a
 * simultaneous root the other seat's root edges are merged too. After a
 * search at red's card choice the table holds, per (seat, move) of black's,
 * the sum of the trees' root visits and rewards of it; every pass of
 * black's at a root chose one edge (the slots' visits add up to the trees'
 * passes); a move's availability lies between its visits and the passes.
 * The merged statistics steer the search (mopp=1 differs from mopp=0 at the
 * card choice), reproducibly for a seed (2 and 3 threads); at a placement
 * there is nothing of black's at the root and mopp=1 is mopp=0's search.
 * Fails when a tree's gains are not published (checked by hand: the
 * sync_opp_publish call taken out) and when select_edge does not read them
 * (checked: omerged forced to 0, the card choice's rankings then equal). */
static void test_par_sync_merges_the_opponents_root(void **st) {
    (void)st;
    kontor_view choose, place;
    two_views(&choose, &place);
    const char *specs[] = {"ismcts:iters=3001,threads=2,par=sync,merge=16,mopp=1",
                           "ismcts:iters=2999,threads=3,par=sync,merge=5,mopp=1",
                           "ismcts:ms=20,threads=2,par=sync,merge=8,mopp=1,clock=cpu,stop=0"};
    for (int k = 0; k < 3; k++) {
        kontor_agent *a = kt_agent(specs[k], 11);
        ai_choice c[KONTOR_MAX_MOVES];
        assert_true(kontor_agent_rank(a, &choose, c, KONTOR_MAX_MOVES) > 0);
        ismcts_impl *m = a->impl;
        syncsh *S = m->ss;
        assert_true(S->opp);
        assert_true(S->no > 1);
        int opp = 1 - choose.seat;
        uint64_t passes = 0, vsum = 0;
        for (int t = 0; t < m->threads; t++) {
            const tree *T = &m->trees[t];
            for (uint32_t e = T->pool[1].child; e; e = T->pool[e].sibling)
                if (T->pool[e].kind == N_PASS && T->pool[e].seat == opp && T->pool[e].move == N_STAT)
                    passes += T->pool[e].visits;
        }
        assert_true(passes > 0);
        for (int i = 0; i < S->no; i++) {
            uint32_t key = S->okey[i];
            assert_int_equal(key / KEYS_PER_SEAT, (uint32_t)opp);
            assert_int_equal(S->oix[key], i + 1);
            double rew = 0;
            uint64_t sum = 0;
            for (int t = 0; t < m->threads; t++)
                sum += tree_root_visits(&m->trees[t], opp, N_STAT, (kontor_move)(key % KEYS_PER_SEAT), &rew);
            if (S->oacc_v[i] != sum)
                fail_msg("spec %d, slot %d: table %llu visits, trees %llu", k, i, (unsigned long long)S->oacc_v[i],
                         (unsigned long long)sum);
            assert_true(fabs(S->oacc_r[i] - rew) < 1e-3 * (1 + rew));
            assert_true(S->oacc_a[i] >= S->oacc_v[i]);
            assert_true(S->oacc_a[i] <= passes);
            vsum += S->oacc_v[i];
        }
        assert_int_equal(vsum, passes);
        kontor_agent_free(a);
    }
    const char *pairs[][2] = {
        {"ismcts:iters=4000,threads=2,par=sync,merge=16,mopp=1", "ismcts:iters=4000,threads=2,par=sync,merge=16,mopp=1"},
        {"ismcts:iters=4000,threads=3,par=sync,merge=5,mopp=1", "ismcts:iters=4000,threads=3,par=sync,merge=5,mopp=1"},
        {"ismcts:iters=4000,threads=2,par=sync,merge=16,mopp=1", "ismcts:iters=4000,threads=2,par=sync,merge=16"},
    };
    const kontor_view *views[] = {&choose, &place};
    for (int w = 0; w < 2; w++)
        for (int k = 0; k < 3; k++) {
            char what[128];
            int differ = rankings_differ(pairs[k][0], pairs[k][1], 5, views[w], what, sizeof what);
            /* the same but for mopp=1 against mopp=0 at the card choice */
            if (k == 2 && w == 0) assert_true(differ);
            else if (differ)
                fail_msg("view %d, '%s' against '%s': the rankings differ (%s)", w, pairs[k][0], pairs[k][1], what);
        }
}

/* depth=2: the next level's statistics that tree T holds for the key k
 * (visits, rewards, availability), found by walking its depth-1 nodes
 * (the searching seat's root placements, or a simultaneous root's joint
 * children) and their edges; *edges counts the edges walked. */
static uint64_t tree_deep_stats(const tree *T, int seat, int simroot, uint64_t k, double *reward, uint64_t *avail,
                                uint64_t *edges) {
    const node *pool = T->pool;
    uint64_t vis = 0;
    uint32_t p = simroot ? pool[1].joint : pool[1].child;
    for (; p; p = pool[p].sibling) {
        if (!simroot && (pool[p].kind != N_SEQ || pool[p].seat != seat)) continue;
        uint32_t pid = simroot ? pool[p].key : pool[p].move;
        for (uint32_t e = pool[p].child; e; e = pool[e].sibling) {
            const node *x = &pool[e];
            if (x->kind != N_SEQ && x->kind != N_STAT) continue;
            if (edges) ++*edges;
            if (dkey(pid, x->seat, x->kind, x->move) != k) continue;
            uint32_t g = 0;
            for (uint32_t f = pool[p].child; f; f = pool[f].sibling)
                if (pool[f].kind == N_PASS && pool[f].seat == x->seat && pool[f].move == x->kind) g = f;
            vis += x->visits;
            *reward += x->reward;
            *avail += !g ? 0 : pool[g].key ? pool[g].visits - x->key - x->miss : x->miss;
        }
    }
    return vis;
}

/* depth=2 (par=sync, issue 18 item 3, the twelfth session): the level
 * below the root merged too. After a search (2 and 3 threads, budgets no
 * multiple of K nor of the threads, a card choice and a placement, and
 * under ms=) the table holds, per key (depth-1 node, seat, kind, move), the
 * sum of the trees' visits, rewards and availability of that edge; every
 * edge of the next level of every tree has its slot (the table is far from
 * full), and each key is where its hash says. The merged statistics steer
 * the search (depth=2 differs from depth=1), reproducibly for a seed (2
 * and 3 threads); one thread with depth=2 is the plain search. Fails when
 * a tree's next level is not published (checked by hand: the
 * ist_deep_publish call in ist_sync_root (ismcts_sync.c) taken out), when a merge adds a
 * tree's totals instead of its gains (checked: pub_v not kept), and when
 * select_edge does not read the others' part (checked: dmerged forced to
 * 0, the rankings then equal depth=1's). */
static void test_par_sync_depth2_table_sums_the_trees(void **st) {
    (void)st;
    kontor_view choose, place;
    two_views(&choose, &place);
    const kontor_view *views[] = {&choose, &place};
    const char *specs[] = {"ismcts:iters=2999,threads=2,par=sync,merge=50,depth=2",
                           "ismcts:iters=3001,threads=3,par=sync,merge=7,depth=2",
                           "ismcts:ms=20,threads=2,par=sync,merge=9,depth=2,clock=cpu"};
    for (int k = 0; k < 3; k++)
        for (int w = 0; w < 2; w++) {
            const kontor_view *v = views[w];
            kontor_agent *a = kt_agent(specs[k], 11);
            ai_choice c[KONTOR_MAX_MOVES];
            assert_true(kontor_agent_rank(a, v, c, KONTOR_MAX_MOVES) > 0);
            ismcts_impl *m = a->impl;
            const dtable *D = m->ss->d;
            assert_non_null(D);
            assert_true(D->n > 1);
            assert_true(D->n < DSLOTS);
            uint64_t edges = 0, vsum = 0, tvis = 0;
            double dummy = 0;
            uint64_t da = 0;
            for (int t = 0; t < m->threads; t++)
                tree_deep_stats(&m->trees[t], v->seat, w == 0, ~0ULL, &dummy, &da, &edges);
            for (int i = 0; i < D->n; i++) {
                assert_int_equal(dfind(D->hash, D->key, D->key[i]), i + 1);
                double rew = 0;
                uint64_t av = 0, sum = 0, nedges = 0;
                for (int t = 0; t < m->threads; t++)
                    sum += tree_deep_stats(&m->trees[t], v->seat, w == 0, D->key[i], &rew, &av, &nedges);
                if (D->acc_v[i] != sum || D->acc_a[i] != av)
                    fail_msg("spec %d, view %d, slot %d: table %llu visits %llu available, trees %llu and %llu", k, w,
                             i, (unsigned long long)D->acc_v[i], (unsigned long long)D->acc_a[i],
                             (unsigned long long)sum, (unsigned long long)av);
                assert_true(fabs(D->acc_r[i] - rew) < 1e-3 * (1 + rew));
                assert_true(D->acc_a[i] >= D->acc_v[i]);
                vsum += D->acc_v[i];
            }
            /* every edge of the next level has its key in the table: the
             * slots' visits are all the trees' visits there */
            for (int t = 0; t < m->threads; t++) {
                const tree *T = &m->trees[t];
                uint32_t p = w == 0 ? T->pool[1].joint : T->pool[1].child;
                for (; p; p = T->pool[p].sibling) {
                    if (w == 1 && (T->pool[p].kind != N_SEQ || T->pool[p].seat != v->seat)) continue;
                    for (uint32_t e = T->pool[p].child; e; e = T->pool[e].sibling)
                        if (T->pool[e].kind == N_SEQ || T->pool[e].kind == N_STAT) tvis += T->pool[e].visits;
                }
            }
            assert_true(edges >= (uint64_t)D->n);
            assert_true(tvis > 0);
            assert_int_equal(vsum, tvis);
            kontor_agent_free(a);
        }
    const char *pairs[][2] = {
        {"ismcts:iters=4000,threads=2,par=sync,merge=16,depth=2", "ismcts:iters=4000,threads=2,par=sync,merge=16,depth=2"},
        {"ismcts:iters=4000,threads=3,par=sync,merge=5,depth=2", "ismcts:iters=4000,threads=3,par=sync,merge=5,depth=2"},
        {"ismcts:iters=4000,par=sync,depth=2", "ismcts:iters=4000"},
        {"ismcts:iters=4000,threads=2,par=sync,merge=16,depth=2", "ismcts:iters=4000,threads=2,par=sync,merge=16"},
    };
    for (int w = 0; w < 2; w++)
        for (int k = 0; k < 4; k++) {
            char what[128];
            int differ = rankings_differ(pairs[k][0], pairs[k][1], 5, views[w], what, sizeof what);
            /* depth=2 against depth=1: the merge below the root changes the search */
            if (k == 3) {
                if (!differ) fail_msg("view %d, '%s' against '%s': the rankings are equal", w, pairs[k][0], pairs[k][1]);
            } else if (differ)
                fail_msg("view %d, '%s' against '%s': the rankings differ (%s)", w, pairs[k][0], pairs[k][1], what);
        }
}

/* par=sync under a time budget: every thread searches until its deadline
 * (stop=0: the whole budget; merges do not wait under ms=), by the wall
 * clock and by the threads' CPU clocks, and the move is legal; with the
 * early stop too. No upper bound on the time (no timed test): a merge that
 * waited for a thread past its deadline would hang here. */
static void test_par_sync_time_budget(void **st) {
    (void)st;
    kontor_state s;
    kontor_view v;
    assert_true(kt_red_places_view(7, 2, &s, &v));
    const char *specs[] = {"ismcts:ms=30,threads=2,par=sync,stop=0", "ismcts:ms=30,threads=3,par=sync,clock=cpu,stop=0",
                           "ismcts:ms=30,threads=2,par=sync,merge=1"};
    for (int k = 0; k < 3; k++) {
        kontor_agent *a = kt_agent(specs[k], 3);
        kontor_move mv = a->decide(a, &v);
        assert_true(kontor_is_legal(&s, 0, mv));
        ismcts_impl *m = a->impl;
        assert_true(m->base.iters > 0);
        assert_false(m->ss->barrier);
        if (k == 0) assert_true(m->base.seconds >= 0.030);
        kontor_agent_free(a);
    }
}

static void test_par_spec_errors(void **st) {
    (void)st;
    struct {
        const char *spec, *says;
    } bad[] = {{"ismcts:threads=2,par=leaf", "option 'par' wants tree|root|sync, not 'leaf'"},
               {"ismcts:threads=2,vl=0", "option 'vl'"},
               {"ismcts:threads=2,par=sync,merge=0", "option 'merge'"},
               {"ismcts:threads=2,par=sync,mopp=2", "option 'mopp'"},
               {"ismcts:threads=2,par=sync,depth=3", "option 'depth'"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        kontor_error err;
        memset(&err, 0, sizeof err);
        assert_null(kontor_agent_new(bad[i].spec, 1, &err));
        if (!strstr(err.msg, bad[i].says)) fail_msg("'%s' says '%s'", bad[i].spec, err.msg);
    }
    const char *ok[] = {"ismcts:threads=2,par=tree,vl=3", "ismcts:threads=2,par=root", "ismcts:par=tree",
                        "ismcts:threads=2,par=sync,merge=100"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) kontor_agent_free(kt_agent(ok[i], 1));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree_par_spends_the_budget_exactly),
        cmocka_unit_test(test_tree_par_grows_one_tree),
        cmocka_unit_test(test_tree_par_no_lost_visits),
        cmocka_unit_test(test_one_thread_availability_as_before),
        cmocka_unit_test(test_availability_counts_misses),
        cmocka_unit_test(test_keep_subtree_child_before_parent),
        cmocka_unit_test(test_tree_par_time_budget),
        cmocka_unit_test(test_par_root_reproducible),
        cmocka_unit_test(test_par_sync_table_sums_the_trees),
        cmocka_unit_test(test_par_sync_steers_reproducibly),
        cmocka_unit_test(test_par_sync_merges_the_opponents_root),
        cmocka_unit_test(test_par_sync_depth2_table_sums_the_trees),
        cmocka_unit_test(test_par_sync_time_budget),
        cmocka_unit_test(test_par_spec_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
