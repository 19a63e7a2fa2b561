/* test_ai.c: the agents: specs, legality over many games, determinism for a
 * seed, and blindness to hidden information.
 *
 * Blindness is tested the strong way: build a second state that differs from
 * the first only in what the deciding seat cannot see (the opponent's hidden
 * hand card swapped with a hidden card of his pile, or a different hidden
 * card choice), check the views are byte-identical, and check that a fresh
 * agent with the same seed decides the same on both. Budgets are small so the
 * whole file runs in a second or two (longer under sanitizers). */
#include "testutil.h"
#include "aiutil.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>

#include "ai/ai.h"
#include "ai/ismcts_tree.h"
#include "kontor/match.h"

/* par=root: blindness compares two decisions of the same seed, which needs a
 * reproducible search; two threads on one tree (par=tree) are not */
static const char *const all_specs[] = {"random", "greedy", "ismcts:iters=200", "ismcts:iters=200,threads=2,par=root",
                                        "easy"};
#define NSPECS (sizeof all_specs / sizeof *all_specs)

static void config(kontor_config *cfg, const char *variant) {
    kontor_error err;
    assert_int_equal(kontor_config_init(cfg, variant, &err), KONTOR_OK);
}

static int is_pub(const kontor_state *s, int id) { return (s->pub[id >> 6] >> (id & 63)) & 1; }

/* ---- specs ------------------------------------------------------------------ */

static void test_specs_known(void **st) {
    (void)st;
    const char *ok[] = {"random", "greedy", "greedy:samples=3,noise=0.5", "ismcts", "ismcts:iters=10",
                        "ismcts:ms=5,threads=2,c=1.2", "ismcts:ms=5,stop=0", "easy", "medium", "hard"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        kontor_agent *a = kt_agent(ok[i], 1);
        assert_string_equal(a->name, ok[i]);
        assert_non_null(a->decide);
        kontor_agent_free(a);
    }
    kontor_agent_free(NULL);
}

static void test_specs_errors_say_what(void **st) {
    (void)st;
    struct {
        const char *spec, *says;
    } bad[] = {{"alphazero", "agent 'alphazero' is unknown"},
               {"ismcts:iters=0", "option 'iters' wants a number"},
               {"ismcts:width=3", "unknown option 'width'"},
               {"greedy:noise", "is not of the form key=value"},
               {"random:x=1", "random takes none"},
               {"greedy:noise=2", "from 0 to 1"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        kontor_error err;
        memset(&err, 0, sizeof err);
        assert_null(kontor_agent_new(bad[i].spec, 1, &err));
        assert_non_null(strstr(err.msg, bad[i].says));
        assert_true(err.code != KONTOR_OK);
    }
}

/* ---- legality: whole games through the driver ---------------------------------- */

static void play_games(const char *spec_a, const char *spec_b, const char *variant, int games) {
    kontor_config cfg;
    config(&cfg, variant);
    for (int g = 0; g < games; g++) {
        kontor_agent *ag[2];
        ag[g & 1] = kt_agent(spec_a, 10 + (uint64_t)g);
        ag[1 - (g & 1)] = kt_agent(spec_b, 1000 + (uint64_t)g);
        kontor_state s;
        assert_int_equal(kontor_new(&s, &cfg, 77 + (uint64_t)g / 2, NULL), KONTOR_OK);
        kontor_match_result r;
        assert_int_equal(kontor_match_play(&s, ag, NULL, NULL, NULL, &r), KONTOR_OK);
        if (r.forfeit >= 0) fail_msg("%s vs %s (%s, game %d): %s", spec_a, spec_b, variant, g, r.reason);
        assert_true(kontor_over(&s));
        assert_true(r.decisions > 20);
        kontor_agent_free(ag[0]);
        kontor_agent_free(ag[1]);
    }
}

static void test_random_legal_many_games(void **st) {
    (void)st;
    play_games("random", "random", "basic", 60);
    play_games("random", "random", "advanced", 60);
}

static void test_greedy_legal(void **st) {
    (void)st;
    play_games("greedy", "random", "basic", 6);
    play_games("greedy", "greedy", "advanced", 4);
    play_games("easy", "greedy", "basic", 2);
}

static void test_ismcts_legal(void **st) {
    (void)st;
    play_games("ismcts:iters=150", "random", "basic", 2);
    play_games("ismcts:iters=150,threads=2", "greedy", "advanced", 2);
}

/* the game for four (two teams) and the special cards for two (a hidden
 * buying phase before the choice): every agent stays legal in every seat:
 * each spec plays two games, once on the even seats and once on the odd ones
 * (with four, one seat of each team), random on the others */
static void test_all_agents_legal_in_four_and_specials(void **st) {
    (void)st;
    const char *variants[] = {"four", "specials"};
    const char *specs[] = {"random", "greedy", "ismcts:iters=100", "ismcts:iters=100,threads=2"};
    for (int vi = 0; vi < 2; vi++)
        for (int k = 0; k < 4; k++)
            for (int odd = 0; odd < 2; odd++) {
                kontor_config cfg;
                config(&cfg, variants[vi]);
                kontor_agent *ag[KONTOR_MAX_SEATS];
                for (int q = 0; q < cfg.nseats; q++) ag[q] = kt_agent((q & 1) == odd ? specs[k] : "random", 50 + (uint64_t)q);
                kontor_state s;
                kontor_error err;
                if (kontor_new(&s, &cfg, 3 + (uint64_t)k, &err)) fail_msg("%s: %s", variants[vi], err.msg);
                kontor_match_result r;
                assert_int_equal(kontor_match_play(&s, ag, NULL, NULL, NULL, &r), KONTOR_OK);
                if (r.forfeit >= 0) fail_msg("%s on the %s seats of '%s': %s", specs[k], odd ? "odd" : "even", variants[vi], r.reason);
                assert_true(kontor_over(&s));
                for (int q = 0; q < cfg.nseats; q++) {
                    assert_true(r.seat_decisions[q] > 0);
                    kontor_agent_free(ag[q]);
                }
            }
}

/* greedy must beat random clearly even in a handful of games: a broken
 * evaluation (sign error, own and opponent swapped) would not */
static void test_greedy_beats_random(void **st) {
    (void)st;
    kontor_config cfg;
    config(&cfg, "basic");
    int won = 0, games = 10;
    for (int g = 0; g < games; g++) {
        kontor_agent *ag[2];
        int gs = g & 1;
        ag[gs] = kt_agent("greedy", (uint64_t)g);
        ag[1 - gs] = kt_agent("random", 100 + (uint64_t)g);
        kontor_state s;
        kontor_error err;
        if (kontor_new(&s, &cfg, 500 + (uint64_t)g / 2, &err)) fail_msg("deal %d: %s", g, err.msg);
        kontor_match_result r;
        assert_int_equal(kontor_match_play(&s, ag, NULL, NULL, NULL, &r), KONTOR_OK);
        if (r.forfeit >= 0) fail_msg("game %d: %s", g, r.reason);
        assert_true(kontor_over(&s));
        won += r.winner == gs;
        kontor_agent_free(ag[0]);
        kontor_agent_free(ag[1]);
    }
    assert_true(won >= 8);
}

/* ---- determinism -------------------------------------------------------------------- */

typedef struct trace {
    kontor_move m[1024];
    int n;
} trace;

static void record_trace(void *ctx, const kontor_state *s, int seat, kontor_move m, const kontor_log *log) {
    (void)s;
    (void)log;
    trace *t = ctx;
    if (t->n < 1024) t->m[t->n++] = (kontor_move)(m | (seat << 12));
}

static void play_traced(const char *a, const char *b, uint64_t seed, trace *t) {
    kontor_config cfg;
    config(&cfg, "advanced");
    kontor_agent *ag[2] = {kt_agent(a, seed), kt_agent(b, seed + 1)};
    kontor_state s;
    kontor_new(&s, &cfg, 5, NULL);
    t->n = 0;
    kontor_match_play(&s, ag, NULL, record_trace, t, NULL);
    kontor_agent_free(ag[0]);
    kontor_agent_free(ag[1]);
}

static void test_same_seed_same_game(void **st) {
    (void)st;
    const char *pairs[][2] = {{"ismcts:iters=200,threads=2,par=root", "greedy"}, {"random", "easy"}};
    for (int p = 0; p < 2; p++) {
        trace *t1 = calloc(1, sizeof *t1), *t2 = calloc(1, sizeof *t2);
        play_traced(pairs[p][0], pairs[p][1], 42, t1);
        play_traced(pairs[p][0], pairs[p][1], 42, t2);
        assert_true(t1->n > 20);
        assert_int_equal(t1->n, t2->n);
        assert_memory_equal(t1->m, t2->m, (size_t)t1->n * sizeof t1->m[0]);
        free(t1);
        free(t2);
    }
}

/* the ismcts search itself: same view, same seed, same ranking and visits,
 * with one thread and with two */
/* The early stop under ms=: a lead settles a decision only when the
 * iterations the remaining time could still run (at this search's rate, with
 * a margin of a half, plus 16) could not overturn it. */
static void test_ismcts_early_stop_rule(void **st) {
    (void)st;
    /* 10000 iterations in 0.5 s: 20000/s; 1 ms left → at most 30 + 16 more */
    assert_true(ai_settled(1000, 0, 10000, 0.5, 0.001));
    assert_true(ai_settled(147, 100, 10000, 0.5, 0.001));
    assert_false(ai_settled(146, 100, 10000, 0.5, 0.001)); /* lead 46 = 46: not more */
    /* half the time left: 15016 more could come, no lead of 10000 is safe */
    assert_false(ai_settled(10000, 0, 10000, 0.5, 0.5));
    /* a fresh search (under 64 iterations) and a tie never stop */
    assert_false(ai_settled(63, 0, 63, 0.5, 0.0));
    assert_false(ai_settled(500, 500, 1000, 0.5, 0.0));
    /* past the deadline only the 16 of the last batch can come */
    assert_true(ai_settled(117, 100, 1000, 1.0, -0.01));
    assert_false(ai_settled(116, 100, 1000, 1.0, -0.01));
}

/* par=root's early stop: the search stops when every tree has settled on
 * the same move (each flag the move + 1, or 0 for a tree not settled). */
static void test_ismcts_root_parallel_stops_when_every_tree_settled_alike(void **st) {
    (void)st;
    assert_int_equal(ai_settled_all((const int[]){5, 5}, 2), 5);
    assert_int_equal(ai_settled_all((const int[]){7}, 1), 7);
    assert_int_equal(ai_settled_all((const int[]){3, 3, 3, 3}, 4), 3);
    assert_int_equal(ai_settled_all((const int[]){5, 6}, 2), 0); /* two moves: the sum may go either way */
    assert_int_equal(ai_settled_all((const int[]){5, 0}, 2), 0); /* one tree still open */
    assert_int_equal(ai_settled_all((const int[]){0, 5}, 2), 0);
    assert_int_equal(ai_settled_all((const int[]){0, 0}, 2), 0);
    assert_int_equal(ai_settled_all((const int[]){4, 4, 4, 9}, 4), 0); /* the last one differs */
    assert_int_equal(ai_settled_all(NULL, 0), 0);
}

static void test_ismcts_reproducible_search(void **st) {
    (void)st;
    kontor_config cfg;
    config(&cfg, "basic");
    kontor_state s;
    kontor_new(&s, &cfg, 9, NULL);
    kontor_view v;
    kontor_view_of(&s, 0, &v);
    const char *specs[] = {"ismcts:iters=500", "ismcts:iters=500,threads=2,par=root"};
    for (int k = 0; k < 2; k++) {
        ai_choice c1[KONTOR_MAX_MOVES], c2[KONTOR_MAX_MOVES];
        kontor_agent *a = kt_agent(specs[k], 3), *b = kt_agent(specs[k], 3);
        int n1 = kontor_agent_rank(a, &v, c1, KONTOR_MAX_MOVES);
        int n2 = kontor_agent_rank(b, &v, c2, KONTOR_MAX_MOVES);
        assert_true(n1 > 1);
        assert_int_equal(n1, n2);
        uint32_t total = 0;
        for (int i = 0; i < n1; i++) {
            assert_int_equal(c1[i].move, c2[i].move);
            assert_int_equal(c1[i].visits, c2[i].visits);
            total += c1[i].visits;
        }
        /* every iteration passes through exactly one root choice of seat 0 */
        assert_int_equal(total, 500);
        kontor_agent_free(a);
        kontor_agent_free(b);
    }
}

/* ---- blindness ----------------------------------------------------------------------- */

static int red_chooses(const kontor_state *s) { return s->phase == KONTOR_PHASE_CHOOSE && s->choice[0] == KONTOR_NONE; }
static int red_ships(const kontor_state *s) { return s->phase == KONTOR_PHASE_SHIP && kontor_current(s) == 0; }

/* Swap one of black's hidden hand cards with a hidden card of the same class
 * in black's dock pile or the water pile. Returns 1 if it could. */
static int swap_hidden(kontor_state *s) {
    for (int i = 0; i < s->hand_n[1]; i++) {
        int id = s->hand[1][i];
        if (is_pub(s, id)) continue;
        int cl = kontor_card_class(&s->cfg->cards->card[id]);
        kontor_pile *p = cl == KONTOR_CLASS_WATER ? &s->water_pile : &s->dock_pile[1];
        for (int j = 1; j < p->n; j++) {
            uint8_t *c = &s->pile_card[kontor_pile_at(p, j)];
            if (is_pub(s, *c) || kontor_card_class(&s->cfg->cards->card[*c]) != cl || *c == id) continue;
            s->hand[1][i] = *c;
            *c = (uint8_t)id;
            return 1;
        }
    }
    return 0;
}

static void check_blind(const kontor_state *s1, const kontor_state *s2) {
    kontor_view v1, v2;
    kontor_view_of(s1, 0, &v1);
    kontor_view_of(s2, 0, &v2);
    assert_memory_equal(&v1, &v2, sizeof v1);
    for (size_t k = 0; k < NSPECS; k++) {
        kontor_agent *a = kt_agent(all_specs[k], 1234), *b = kt_agent(all_specs[k], 1234);
        kontor_move m1 = a->decide(a, &v1), m2 = b->decide(b, &v2);
        if (m1 != m2) fail_msg("agent '%s' decides %04x and %04x on the same view", all_specs[k], m1, m2);
        assert_true(kontor_is_legal(s1, 0, m1));
        kontor_agent_free(a);
        kontor_agent_free(b);
    }
}

static void test_blind_to_hand_and_pile_when_choosing(void **st) {
    (void)st;
    kontor_state s1, s2;
    assert_true(kt_advance_until(&s1, "basic", 3, red_chooses, 4));
    s2 = s1;
    assert_true(swap_hidden(&s2));
    assert_memory_not_equal(&s1, &s2, sizeof s1);
    check_blind(&s1, &s2);
}

static void test_blind_to_hidden_choice(void **st) {
    (void)st;
    /* black has chosen first; red must not see which card */
    kontor_state s1, s2;
    assert_true(kt_advance_until(&s1, "basic", 8, red_chooses, 3));
    s2 = s1;
    kontor_move m[KONTOR_MAX_MOVES];
    int n = kontor_legal(&s1, 1, m);
    assert_true(n >= 2);
    assert_int_equal(kontor_apply(&s1, 1, m[0], NULL), KONTOR_OK);
    assert_int_equal(kontor_apply(&s2, 1, m[1], NULL), KONTOR_OK);
    check_blind(&s1, &s2);
}

static void test_blind_when_placing(void **st) {
    (void)st;
    kontor_state s1, s2;
    assert_true(kt_advance_until(&s1, "basic", 11, kt_red_places, 3));
    s2 = s1;
    assert_true(swap_hidden(&s2));
    check_blind(&s1, &s2);
}

static void test_blind_when_moving_the_ship(void **st) {
    (void)st;
    kontor_state s1, s2;
    int found = 0;
    for (uint64_t seed = 1; seed < 40 && !found; seed++)
        if (kt_advance_until(&s1, "advanced", seed, red_ships, 2)) {
            s2 = s1;
            found = swap_hidden(&s2);
        }
    assert_true(found);
    check_blind(&s1, &s2);
}

/* ---- mixed strategies at the simultaneous choice (issue 18) ------------------------- */

/* The sampling itself: a draw in proportion to the visits. */
static void test_pick_by_visits_follows_the_shares(void **st) {
    (void)st;
    ai_choice ch[3] = {{0, 0, 600}, {1, 0, 300}, {2, 0, 100}};
    kontor_rng r;
    kontor_rng_seed(&r, 5);
    int count[3] = {0};
    for (int i = 0; i < 20000; i++) count[ai_pick_by_visits(ch, 3, &r)]++;
    assert_in_range(count[0], 11600, 12400);
    assert_in_range(count[1], 5600, 6400);
    assert_in_range(count[2], 1700, 2300);
}

/* The card choice of a basic game after both declared to play. */
static void choice_view(kontor_view *v, uint64_t seed) {
    kontor_config cfg;
    config(&cfg, "basic");
    kontor_state s;
    kontor_new(&s, &cfg, seed, NULL);
    if (s.phase == KONTOR_PHASE_DECLARE)
        for (int p = 0; p < 2; p++)
            assert_int_equal(kontor_apply(&s, p, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY), NULL), KONTOR_OK);
    assert_int_equal(s.phase, KONTOR_PHASE_CHOOSE);
    kontor_view_of(&s, 0, v);
}

/* final=visits plays the search's mixed strategy: over many decisions the
 * card played is not the most visited one about as often as the visit
 * shares say (with the most visited, final=max, never). Checked for every
 * selection rule at the simultaneous node. */
static void test_final_visits_samples_the_visit_shares(void **st) {
    (void)st;
    kontor_view v;
    choice_view(&v, 11);
    const char *specs[] = {"ismcts:iters=60,final=visits", "ismcts:iters=60,final=visits,sim=rm",
                           "ismcts:iters=60,final=visits,sim=exp3", "ismcts:iters=60"};
    for (int k = 0; k < 4; k++) {
        kontor_agent *a = kt_agent(specs[k], 21);
        ai_base *b = a->impl;
        double expect_other = 0;
        int other = 0, N = 300;
        for (int i = 0; i < N; i++) {
            kontor_move m = a->decide(a, &v);
            assert_true(b->nlast > 1);
            assert_int_equal(m, b->last[b->picked].move);
            uint64_t tot = 0;
            for (int j = 0; j < b->nlast; j++) tot += b->last[j].visits;
            expect_other += 1.0 - (double)b->last[0].visits / (double)tot;
            other += b->picked != 0;
        }
        if (k == 3) {
            assert_int_equal(other, 0); /* final=max: always the most visited */
        } else {
            /* a binomial-like count: within 4 standard deviations of its mean */
            double sd = sqrt(expect_other * (1 - expect_other / N));
            assert_true(expect_other > 30);
            assert_true(fabs(other - expect_other) < 4 * sd + 1);
        }
        kontor_agent_free(a);
    }
}

/* floor=P: a choice with fewer than P x the top visits is never drawn. */
static void test_final_visits_floor(void **st) {
    (void)st;
    kontor_view v;
    choice_view(&v, 11);
    kontor_agent *a = kt_agent("ismcts:iters=60,final=visits,floor=0.6", 21);
    ai_base *b = a->impl;
    int other = 0;
    for (int i = 0; i < 200; i++) {
        a->decide(a, &v);
        assert_true(b->last[b->picked].visits >= 0.6 * b->last[0].visits);
        other += b->picked != 0;
    }
    assert_true(other > 0); /* still mixed where two are close */
    kontor_agent_free(a);
}

/* Sequential decisions stay the most visited under final=visits; the sampled
 * choice is reproducible for a seed. */
static void test_final_visits_deterministic_for_a_seed(void **st) {
    (void)st;
    kontor_view v;
    choice_view(&v, 12);
    kontor_agent *a = kt_agent("ismcts:iters=80,final=visits,sim=rm", 4), *b = kt_agent("ismcts:iters=80,final=visits,sim=rm", 4);
    for (int i = 0; i < 30; i++) assert_int_equal(a->decide(a, &v), b->decide(b, &v));
    kontor_agent_free(a);
    kontor_agent_free(b);
}

/* Regret matching and EXP3 still find a clearly better card: over its visits
 * the search under each rule sums to the iterations at the root and every
 * legal card is tried. */
static void test_sim_rules_visit_every_card(void **st) {
    (void)st;
    kontor_view v;
    choice_view(&v, 13);
    const char *specs[] = {"ismcts:iters=400,sim=rm", "ismcts:iters=400,sim=exp3"};
    for (int k = 0; k < 2; k++) {
        kontor_agent *a = kt_agent(specs[k], 2);
        ai_choice c[KONTOR_MAX_MOVES];
        int n = kontor_agent_rank(a, &v, c, KONTOR_MAX_MOVES);
        assert_true(n > 1);
        uint32_t tot = 0;
        for (int i = 0; i < n; i++) {
            assert_true(c[i].visits > 0);
            tot += c[i].visits;
        }
        assert_int_equal(tot, 400);
        kontor_agent_free(a);
    }
}

/* ---- final=nash: the root's matrix game (ismcts_matrix.c) ---------------------------- */

/* The solver on games whose equilibria are known: matching pennies (1/2,
 * 1/2), rock-paper-scissors (1/3 each), value 1/2 in both. A solver that
 * played the best row by its mean (the argmax) would give a pure strategy
 * here and fail. */
static void test_nash_solver_known_equilibria(void **st) {
    (void)st;
    double x[3];
    const double pennies[4] = {1, 0, 0, 1};
    double v = ist_nash_solve(pennies, 2, 2, NULL, NULL, 0, 250, x);
    assert_true(fabs(x[0] - 0.5) < 0.01 && fabs(x[1] - 0.5) < 0.01);
    assert_true(fabs(v - 0.5) < 0.01);
    /* rows and columns rock, paper, scissors; 1 a win, 1/2 a tie */
    const double rps[9] = {0.5, 0, 1, 1, 0.5, 0, 0, 1, 0.5};
    v = ist_nash_solve(rps, 3, 3, NULL, NULL, 0, 250, x);
    for (int i = 0; i < 3; i++) assert_true(fabs(x[i] - 1.0 / 3) < 0.01);
    assert_true(fabs(v - 0.5) < 0.01);
    /* an uneven one: pennies paying 0.9 for a match of the first, 0.3 of
     * the second; row mix (p, 1 - p) with 0.9 p = 0.3 (1 - p): p = 1/4 */
    const double uneven[4] = {0.9, 0, 0, 0.3};
    v = ist_nash_solve(uneven, 2, 2, NULL, NULL, 0, 250, x);
    assert_true(fabs(x[0] - 0.25) < 0.01);
    assert_true(fabs(v - 0.225) < 0.01);
}

/* A dominant row is played pure. */
static void test_nash_solver_dominant_row_is_pure(void **st) {
    (void)st;
    const double A[6] = {0.8, 0.7, 0.9, 0.6, 0.5, 0.7}; /* row 0 beats row 1 against every column */
    double x[2];
    double v = ist_nash_solve(A, 2, 3, NULL, NULL, 0, 250, x);
    assert_true(x[0] > 0.999);
    assert_true(fabs(v - 0.7) < 1e-3);
}

/* The opponent picks from his hand: one who only ever holds rock is met by
 * paper, pure (the same game with every column his is mixed, above); with
 * two hands the mix answers each by its weight. */
static void test_nash_solver_answers_the_hands_dealt(void **st) {
    (void)st;
    const double rps[9] = {0.5, 0, 1, 1, 0.5, 0, 0, 1, 0.5};
    double x[3];
    uint64_t rock = 1;
    double w = 1;
    double v = ist_nash_solve(rps, 3, 3, &rock, &w, 1, 250, x);
    assert_true(x[1] > 0.999);
    assert_true(fabs(v - 1.0) < 1e-3);
    /* hands {rock} three times in four, {scissors} once: paper wins 3/4
     * and rock 1/4 + 3/8; paper's 3/4 is the best guaranteed */
    uint64_t hands[2] = {1, 4};
    double ws[2] = {3, 1};
    v = ist_nash_solve(rps, 3, 3, hands, ws, 2, 250, x);
    assert_true(x[1] > 0.99);
    assert_true(fabs(v - 0.75) < 0.01);
}

/* What the root records is the search's own root: per card of the searching
 * seat the matrix's row holds exactly the root edge's visits, and per card
 * of the opponent the column his root edge's visits (no iteration lost). */
static void test_final_nash_matrix_is_the_roots_visits(void **st) {
    (void)st;
    kontor_view v;
    choice_view(&v, 11);
    kontor_agent *a = kt_agent("ismcts:iters=400,final=nash", 3);
    ismcts_impl *m = a->impl;
    a->decide(a, &v);
    ist_matrix *M = m->trees[0].mx;
    assert_non_null(M);
    assert_true(M->on);
    assert_int_equal(M->lost, 0);
    uint64_t total = 0;
    for (uint32_t e = m->trees[0].pool[1].child; e; e = m->trees[0].pool[e].sibling) {
        const node *x = &m->trees[0].pool[e];
        if (x->kind != N_STAT) continue;
        uint64_t cnt = 0;
        if (x->seat == v.seat) {
            int r = 0;
            while (r < M->nr && M->row[r] != x->move) r++;
            assert_true(r < M->nr);
            for (int j = 0; j < M->nc; j++) cnt += M->cnt[r][j];
            total += cnt;
        } else {
            int c = 0;
            while (c < M->nc && M->col[c] != x->move) c++;
            assert_true(c < M->nc);
            for (int i = 0; i < M->nr; i++) cnt += M->cnt[i][c];
        }
        assert_int_equal(cnt, x->visits);
    }
    assert_int_equal(total, 400);
    kontor_agent_free(a);
    /* two trees (par=root): the decision merges the second's matrix into the
     * first's, every iteration of both counted once */
    a = kt_agent("ismcts:iters=400,final=nash,threads=2,par=root", 3);
    m = a->impl;
    a->decide(a, &v);
    M = m->trees[0].mx;
    total = 0;
    uint64_t hands = 0;
    for (int i = 0; i < M->nr; i++)
        for (int j = 0; j < M->nc; j++) total += M->cnt[i][j];
    for (int h = 0; h < M->nh; h++) hands += M->hw[h];
    assert_int_equal(total, 400);
    if (M->nh < MX_HANDS) assert_int_equal(hands, 400);
    kontor_agent_free(a);
}

/* final=nash draws from the solved mix: the mix sums to 1 over the ranked
 * cards, the card played has a share in it, the same seed plays the same,
 * and over many decisions a card other than the most visited is played
 * when the mix gives it a share. */
static void test_final_nash_draws_from_the_mix(void **st) {
    (void)st;
    kontor_view v;
    choice_view(&v, 12);
    kontor_agent *a = kt_agent("ismcts:iters=300,final=nash", 4), *b = kt_agent("ismcts:iters=300,final=nash", 4);
    ismcts_impl *m = a->impl;
    int other = 0;
    double expect_other = 0;
    for (int i = 0; i < 60; i++) {
        kontor_move mv = a->decide(a, &v);
        assert_int_equal(mv, b->decide(b, &v));
        assert_int_equal(mv, m->base.last[m->base.picked].move);
        double sum = 0;
        for (int j = 0; j < m->base.nlast; j++) sum += m->mix[j];
        assert_true(fabs(sum - 1) < 1e-9);
        assert_true(m->mix[m->base.picked] > 0);
        expect_other += 1 - m->mix[0];
        other += m->base.picked != 0;
    }
    if (expect_other > 5) assert_true(other > 0);
    kontor_agent_free(a);
    kontor_agent_free(b);
}

/* shrink=K: with the cells all but the additive fit of row and column, my
 * best card is the same against every card of his, and the mix is pure on
 * the card of the best mean (with the default shrink=4 the mix of seed 12's
 * view is not: this test fails with shrink=4, checked). */
static void test_final_nash_shrunk_all_the_way_is_the_best_mean(void **st) {
    (void)st;
    kontor_view v;
    choice_view(&v, 12);
    kontor_agent *a = kt_agent("ismcts:iters=300,final=nash,shrink=1e9", 4);
    ismcts_impl *m = a->impl;
    for (int i = 0; i < 5; i++) {
        a->decide(a, &v);
        int best = 0;
        for (int j = 1; j < m->base.nlast; j++)
            if (m->base.last[j].value > m->base.last[best].value) best = j;
        double near = 0; /* the best mean's share, with any within 0.01 of it (the solver's 250 rounds split a near tie) */
        for (int j = 0; j < m->base.nlast; j++)
            if (m->base.last[j].value > m->base.last[best].value - 0.01) near += m->mix[j];
        assert_true(near > 0.99);
    }
    kontor_agent_free(a);
}

/* ---- the exploiter (issue 18) ------------------------------------------------------------ */

/* Against a fully predictable target, the exploiter answers with the best
 * response to it: its ranking is exactly that of its own search (ismcts at
 * iters=, seeded as the exploiter seeds it) over the states it deals, with
 * the opponent's choice in each the one the target makes there. The test
 * deals the same states (the exploiter's generator: seeded with its seed,
 * two draws for the model's and the search's seeds, then the deals) and
 * fixes the opponent's choice from the target's definition, not from the
 * exploiter: `last` declares the last legal decision (a pass), `first` the
 * first (to play). Nothing but the exploiter's own work separates the two
 * rankings (no sample, no search noise), so they are equal for every deal
 * and seed, and the test holds for any; broken by hand it failed when the
 * exploiter played against the first legal decision instead of its model's,
 * and when its search got all but one of the states it dealt.
 * And the model matters: against `last` and `first` the same states give
 * other values. (Until issue 18's review the test compared the exploiter
 * with a bigger search on other states within 0.04, which held on
 * hand-picked deals only.) */
static void test_exploit_best_response_to_a_predictable_target(void **st) {
    (void)st;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        kontor_config cfg;
        config(&cfg, "basic");
        kontor_state s;
        kontor_new(&s, &cfg, seed, NULL);
        assert_int_equal(s.phase, KONTOR_PHASE_DECLARE);
        kontor_view v;
        kontor_view_of(&s, 0, &v);
        double value_of_play[2] = {0, 0};
        for (int t = 0; t < 2; t++) {
            const char *spec = t == 0 ? "exploit:last+samples=16,titers=10,iters=3000"
                                      : "exploit:first+samples=16,titers=10,iters=3000";
            kontor_agent *x = kt_agent(spec, seed);
            /* the exploiter's generator after its set-up: the two seeds drawn */
            kontor_rng r;
            kontor_rng_seed(&r, seed);
            kontor_rng_next(&r);
            uint64_t self_seed = kontor_rng_next(&r);
            assert_memory_equal(&r, &x->rng, sizeof r);
            static kontor_state states[16];
            kontor_move opp[16 * KONTOR_MAX_SEATS];
            for (int k = 0; k < 16; k++) {
                kontor_determinize(&v, &r, &states[k]);
                kontor_move m[KONTOR_MAX_MOVES];
                int n = kontor_legal(&states[k], 1, m);
                assert_int_equal(n, 2);
                for (int q = 0; q < KONTOR_MAX_SEATS; q++) opp[k * KONTOR_MAX_SEATS + q] = KONTOR_FORFEIT;
                opp[k * KONTOR_MAX_SEATS + 1] = t == 0 ? m[n - 1] : m[0];
            }
            assert_int_equal(opp[1], t == 0 ? KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PASS)
                                            : KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY));
            kontor_agent *ref = kt_agent("ismcts:iters=3000", self_seed);
            ai_choice rc[KONTOR_MAX_MOVES];
            int rn = ai_ismcts_rank_against(ref, &v, states, opp, 16, rc, KONTOR_MAX_MOVES);
            assert_int_equal(rn, 2);
            kontor_move got = x->decide(x, &v);
            ai_base *b = x->impl;
            assert_int_equal(b->nlast, rn);
            for (int i = 0; i < rn; i++) {
                assert_int_equal(b->last[i].move, rc[i].move);
                assert_int_equal(b->last[i].visits, rc[i].visits);
                assert_true(b->last[i].value == rc[i].value);
                if (rc[i].move == KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY)) value_of_play[t] = rc[i].value;
            }
            assert_int_equal(got, rc[0].move); /* a best response is pure */
            kontor_agent_free(ref);
            kontor_agent_free(x);
        }
        assert_true(value_of_play[0] != value_of_play[1]);
    }
}

static void test_exploit_spec_errors(void **st) {
    (void)st;
    kontor_error err;
    const char *bad[] = {"exploit", "exploit:", "exploit:nobody", "exploit:exploit:hard", "exploit:hard+depth=2",
                         "exploit:cmd:foo"};
    for (int i = 0; i < 6; i++) {
        kontor_agent *a = kontor_agent_new(bad[i], 1, &err);
        if (a) fail_msg("'%s' was accepted", bad[i]);
        assert_true(strlen(err.msg) > 10);
    }
    kontor_agent *a = kt_agent("exploit:hard+samples=2,titers=20,iters=50", 1);
    kontor_agent_free(a);
    a = kt_agent("exploit:hard+s=2,t=20,i=50", 1); /* the short forms */
    kontor_agent_free(a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs_known),
        cmocka_unit_test(test_specs_errors_say_what),
        cmocka_unit_test(test_random_legal_many_games),
        cmocka_unit_test(test_greedy_legal),
        cmocka_unit_test(test_ismcts_legal),
        cmocka_unit_test(test_all_agents_legal_in_four_and_specials),
        cmocka_unit_test(test_greedy_beats_random),
        cmocka_unit_test(test_same_seed_same_game),
        cmocka_unit_test(test_ismcts_early_stop_rule),
        cmocka_unit_test(test_ismcts_root_parallel_stops_when_every_tree_settled_alike),
        cmocka_unit_test(test_ismcts_reproducible_search),
        cmocka_unit_test(test_blind_to_hand_and_pile_when_choosing),
        cmocka_unit_test(test_blind_to_hidden_choice),
        cmocka_unit_test(test_blind_when_placing),
        cmocka_unit_test(test_blind_when_moving_the_ship),
        cmocka_unit_test(test_pick_by_visits_follows_the_shares),
        cmocka_unit_test(test_final_visits_samples_the_visit_shares),
        cmocka_unit_test(test_final_visits_deterministic_for_a_seed),
        cmocka_unit_test(test_final_visits_floor),
        cmocka_unit_test(test_sim_rules_visit_every_card),
        cmocka_unit_test(test_nash_solver_known_equilibria),
        cmocka_unit_test(test_nash_solver_dominant_row_is_pure),
        cmocka_unit_test(test_nash_solver_answers_the_hands_dealt),
        cmocka_unit_test(test_final_nash_matrix_is_the_roots_visits),
        cmocka_unit_test(test_final_nash_draws_from_the_mix),
        cmocka_unit_test(test_final_nash_shrunk_all_the_way_is_the_best_mean),
        cmocka_unit_test(test_exploit_best_response_to_a_predictable_target),
        cmocka_unit_test(test_exploit_spec_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
