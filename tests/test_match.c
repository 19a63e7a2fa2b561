/* test_match.c: the game driver, the arena and the Elo fit.
 *
 * The driver is tested with agents built here for the purpose (one that
 * cheats by answering an illegal move, one that gives up) because a driver
 * that trusts its agents is the bug to catch. The Elo fit is tested on
 * hand-made tables whose answers are known in closed form (a 75% score is
 * 400 * log10(3) = 190.8 Elo), and the arena on a short fixed-seed run whose
 * totals must add up and whose table must not depend on the number of
 * threads. */
#include "testutil.h"
#include "aiutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kontor/match.h"

static void config(kontor_config *cfg, const char *variant) {
    kontor_error err;
    assert_int_equal(kontor_config_init(cfg, variant, &err), KONTOR_OK);
}

/* ---- test agents -------------------------------------------------------------- */

/* Plays its first legal move, except in round `bad_round`, where it answers
 * with a move of the wrong kind (cheater) or gives up (quitter). Counts the
 * calls of decide and observe. */
typedef struct test_impl {
    int bad_round, quit, decides, observes, newgames;
} test_impl;

static kontor_move test_decide(kontor_agent *a, const kontor_view *v) {
    test_impl *t = a->impl;
    t->decides++;
    if (v->s.round == t->bad_round) {
        if (t->quit) {
            snprintf(a->error, sizeof a->error, "the engine crashed");
            return KONTOR_FORFEIT;
        }
        return KONTOR_MOVE(KONTOR_MOVE_PLACE, kontor_cell(5, 5)); /* never legal here */
    }
    kontor_move m[KONTOR_MAX_MOVES];
    int n = kontor_legal(&v->s, v->seat, m);
    return n ? m[0] : KONTOR_FORFEIT;
}

static void test_observe(kontor_agent *a, const kontor_view *v, const kontor_log *log) {
    (void)v;
    (void)log;
    ((test_impl *)a->impl)->observes++;
}

static void test_newgame(kontor_agent *a, const kontor_view *v) {
    (void)v;
    ((test_impl *)a->impl)->newgames++;
}

static void make_test_agent(kontor_agent *a, test_impl *t, int bad_round, int quit) {
    memset(a, 0, sizeof *a);
    memset(t, 0, sizeof *t);
    snprintf(a->name, sizeof a->name, "%s", quit ? "quitter" : "cheater");
    t->bad_round = bad_round;
    t->quit = quit;
    a->impl = t;
    a->decide = test_decide;
    a->observe = test_observe;
    a->newgame = test_newgame;
}

/* The two test agents of a match, red's and black's (ag: as
 * kontor_match_play takes them), each as make_test_agent makes it. */
typedef struct test_pair {
    kontor_agent agent[2];
    test_impl impl[2];
    kontor_agent *ag[2];
} test_pair;

static void make_test_pair(test_pair *p, int red_bad_round, int red_quit, int black_bad_round, int black_quit) {
    make_test_agent(&p->agent[0], &p->impl[0], red_bad_round, red_quit);
    make_test_agent(&p->agent[1], &p->impl[1], black_bad_round, black_quit);
    p->ag[0] = &p->agent[0];
    p->ag[1] = &p->agent[1];
}

/* ---- the driver ---------------------------------------------------------------- */

static void test_driver_plays_to_the_end_and_tells_everyone(void **st) {
    (void)st;
    kontor_config cfg;
    config(&cfg, "basic");
    test_pair p;
    make_test_pair(&p, -1, 0, -1, 0);
    test_impl *ta = &p.impl[0], *tb = &p.impl[1];
    kontor_state s;
    kontor_new(&s, &cfg, 4, NULL);
    kontor_match_result r;
    assert_int_equal(kontor_match_play(&s, p.ag, NULL, NULL, NULL, &r), KONTOR_OK);
    assert_true(kontor_over(&s));
    assert_int_equal(r.forfeit, -1);
    assert_int_equal(r.winner, s.winner);
    assert_int_equal(r.score[0], s.score[0]);
    assert_int_equal(r.decisions, r.seat_decisions[0] + r.seat_decisions[1]);
    assert_int_equal(ta->decides, (int)r.seat_decisions[0]);
    assert_int_equal(tb->decides, (int)r.seat_decisions[1]);
    /* every agent hears of every decision, its own and the other's */
    assert_int_equal(ta->observes, (int)r.decisions);
    assert_int_equal(tb->observes, (int)r.decisions);
    assert_int_equal(ta->newgames, 1);
    assert_string_equal(r.reason, "");
}

static void test_driver_illegal_move_loses(void **st) {
    (void)st;
    kontor_config cfg;
    config(&cfg, "basic");
    test_pair p;
    make_test_pair(&p, -1, 0, 3, 0); /* black cheats in round 3 */
    kontor_state s;
    kontor_record rec;
    kt_deal_recorded(&s, &rec, &cfg, 6);
    kontor_match_result r;
    assert_int_equal(kontor_match_play(&s, p.ag, &rec, NULL, NULL, &r), KONTOR_OK);
    assert_int_equal(r.forfeit, 1);
    assert_int_equal(r.winner, 0);
    assert_false(kontor_over(&s));
    assert_int_equal(s.round, 3);
    assert_non_null(strstr(r.reason, "black loses in round 3"));
    assert_non_null(strstr(r.reason, "agent 'cheater' made an illegal decision"));
    assert_string_equal(rec.result, "1-0");
    assert_string_equal(rec.termination, r.reason);
    assert_int_equal(rec.nply, (int)r.decisions);
    kontor_record_release(&rec);
}

static void test_driver_forfeit_keeps_the_agents_reason(void **st) {
    (void)st;
    kontor_config cfg;
    config(&cfg, "advanced");
    test_pair p;
    make_test_pair(&p, 2, 1, -1, 0); /* red gives up in round 2 */
    kontor_state s;
    kontor_new(&s, &cfg, 6, NULL);
    kontor_match_result r;
    kontor_match_play(&s, p.ag, NULL, NULL, NULL, &r);
    assert_int_equal(r.forfeit, 0);
    assert_int_equal(r.winner, 1);
    assert_string_equal(r.reason, "red forfeits in round 2: the engine crashed");
}

static void test_driver_record_replays_to_the_same_end(void **st) {
    (void)st;
    kontor_config cfg;
    config(&cfg, "advanced");
    kontor_state s, again;
    kontor_record rec;
    kt_deal_recorded(&s, &rec, &cfg, 12);
    kontor_agent *ag[2] = {kt_agent("greedy", 1), kt_agent("random", 2)};
    kontor_match_result r;
    assert_int_equal(kontor_match_play(&s, ag, &rec, NULL, NULL, &r), KONTOR_OK);
    assert_int_equal(rec.nply, (int)r.decisions);
    const char *want = s.winner == 0 ? "1-0" : s.winner == 1 ? "0-1" : "1/2-1/2";
    assert_string_equal(rec.result, want);
    kontor_error err;
    assert_int_equal(kontor_record_replay(&rec, -1, &again, NULL, NULL, &err), KONTOR_OK);
    assert_memory_equal(&s, &again, sizeof s);
    kontor_record_release(&rec);
    kontor_agent_free(ag[0]);
    kontor_agent_free(ag[1]);
}

/* ---- Elo ------------------------------------------------------------------------------ */

static void test_elo_of_score(void **st) {
    (void)st;
    assert_true(fabs(kontor_elo_of_score(0.75) - 190.85) < 0.1);
    assert_true(fabs(kontor_elo_of_score(0.5)) < 1e-9);
    assert_true(fabs(kontor_elo_of_score(0.25) + 190.85) < 0.1);
}

static void test_elo_75_percent_is_about_191(void **st) {
    (void)st;
    kontor_arena_table t;
    kontor_arena_init(&t, 2);
    kontor_match_result w = {.winner = 0, .forfeit = -1}, l = {.winner = 1, .forfeit = -1};
    for (int i = 0; i < 300; i++) kontor_arena_add(&t, 0, 1, 0, &w); /* agent 0 wins as red */
    for (int i = 0; i < 100; i++) kontor_arena_add(&t, 0, 1, 1, &w); /* agent 0 loses as black */
    assert_int_equal(t.p[0][1].wins, 300);
    assert_int_equal(t.p[0][1].losses, 100);
    assert_int_equal(t.p[1][0].wins, 100);
    double elo[2], se[2];
    assert_int_equal(kontor_elo(&t, elo, se), 0);
    /* one virtual draw: 300.5 / 401 = 0.7494 -> 190.3 */
    double diff = elo[0] - elo[1];
    assert_true(fabs(diff - 190.8) < 2.0);
    assert_true(fabs(elo[0] + elo[1]) < 1e-6); /* centred */
    /* se of the difference for a binomial: (400/ln10) / sqrt(n p (1-p)) = 20.1;
     * each rating carries half of it */
    assert_true(fabs(se[0] - 10.0) < 1.0);
    assert_true(fabs(se[0] - se[1]) < 1e-6);
    (void)l;
}

static void test_elo_is_transitive_through_a_common_opponent(void **st) {
    (void)st;
    /* A scores 75% against B, B 75% against C, A and C never meet */
    kontor_arena_table t;
    kontor_arena_init(&t, 3);
    kontor_match_result red = {.winner = 0, .forfeit = -1}, draw = {.winner = -1, .forfeit = -1};
    for (int i = 0; i < 149; i++) {
        kontor_arena_add(&t, 0, 1, 0, &red);
        kontor_arena_add(&t, 1, 2, 0, &red);
    }
    for (int i = 0; i < 101; i++) {
        kontor_arena_add(&t, 0, 1, 0, &draw);
        kontor_arena_add(&t, 1, 2, 0, &draw);
    }
    /* 149 + 50.5 of 250 = 79.8%, + virtual draw: 200/251 */
    double elo[3], se[3];
    assert_int_equal(kontor_elo(&t, elo, se), 0);
    double d = kontor_elo_of_score(200.0 / 251.0);
    assert_true(fabs((elo[0] - elo[1]) - d) < 1.0);
    assert_true(fabs((elo[1] - elo[2]) - d) < 1.0);
    assert_true(se[1] < se[0]); /* the middle one is the best measured */
}

static void test_elo_clean_sweep_is_finite(void **st) {
    (void)st;
    kontor_arena_table t;
    kontor_arena_init(&t, 2);
    kontor_match_result w = {.winner = 0, .forfeit = -1};
    for (int i = 0; i < 50; i++) kontor_arena_add(&t, 0, 1, 0, &w);
    double elo[2], se[2];
    assert_int_equal(kontor_elo(&t, elo, se), 0);
    assert_true(isfinite(elo[0]) && elo[0] > 300 && elo[0] < 800);
}

/* ---- the arena ------------------------------------------------------------------------- */

typedef struct progress {
    int calls, last, total;
} progress;

static void count_done(void *ctx, const kontor_arena_game *g, const kontor_record *rec, int finished, int total) {
    progress *p = ctx;
    (void)g;
    assert_non_null(rec);
    assert_true(rec->nply > 0);
    p->calls++;
    p->last = finished;
    p->total = total;
}

/* The same, and each agent's decisions counted from the records: the seats
 * of agent a are its team's (seat_a; with four, seats 2t and 2t + 1). */
typedef struct census {
    progress p;
    uint64_t decisions[KONTOR_ARENA_MAX];
} census;

static void count_done_and_decisions(void *ctx, const kontor_arena_game *g, const kontor_record *rec, int finished,
                                     int total) {
    census *c = ctx;
    count_done(&c->p, g, rec, finished, total);
    int ns = rec->cfg.nseats;
    for (int i = 0; i < rec->nply; i++) {
        int team = ns == 4 ? rec->ply[i].seat / 2 : rec->ply[i].seat;
        c->decisions[team == g->seat_a ? g->a : g->b]++;
    }
}

/* An arena of the n agents specs, games games of variant (cfg, which must
 * outlive o); every other option zero. */
static void arena_of(kontor_arena_opts *o, kontor_config *cfg, const char *variant, const char *const *specs, int n,
                     int games) {
    config(cfg, variant);
    memset(o, 0, sizeof *o);
    o->cfg = cfg;
    o->specs = specs;
    o->n = n;
    o->games = games;
}

/* kontor_arena_run(o, t), which must succeed. */
static void arena_run_ok(const kontor_arena_opts *o, kontor_arena_table *t) {
    kontor_error err;
    if (kontor_arena_run(o, t, &err) != KONTOR_OK) fail_msg("arena: %s", err.msg);
}

/* The short tournament of these tests: three agents, two paired deals of the
 * basic game (cfg must outlive o). */
static const char *const three_specs[] = {"random", "greedy", "ismcts:iters=60"};

static void three_agents(kontor_arena_opts *o, kontor_config *cfg, int jobs) {
    arena_of(o, cfg, "basic", three_specs, 3, 3); /* 3 games, rounded up to 4: two paired deals */
    o->seed = 7;
    o->jobs = jobs;
    o->records = 1;
}

static void run_arena(int jobs, kontor_arena_table *t, progress *p) {
    kontor_config cfg;
    kontor_arena_opts o;
    three_agents(&o, &cfg, jobs);
    o.done = count_done;
    o.done_ctx = p;
    arena_run_ok(&o, t);
}

static void test_arena_totals_add_up(void **st) {
    (void)st;
    kontor_arena_table t;
    census c;
    memset(&c, 0, sizeof c);
    {
        kontor_config cfg;
        kontor_arena_opts o;
        three_agents(&o, &cfg, 1);
        o.done = count_done_and_decisions;
        o.done_ctx = &c;
        arena_run_ok(&o, &t);
    }
    const progress p = c.p;
    assert_int_equal(p.calls, 12);
    assert_int_equal(p.last, 12);
    assert_int_equal(p.total, 12);
    int games = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            const kontor_arena_pair *x = &t.p[i][j], *y = &t.p[j][i];
            if (i == j) {
                assert_int_equal(x->games, 0);
                continue;
            }
            assert_int_equal(x->games, 4);
            assert_int_equal(x->wins + x->draws + x->losses, x->games);
            assert_int_equal(x->wins, y->losses);
            assert_int_equal(x->draws, y->draws);
            assert_int_equal(x->diff, -y->diff);
            games += x->games;
        }
    assert_int_equal(games, 2 * 12);
    for (int i = 0; i < 3; i++) {
        assert_true(t.decisions[i] > 0);
        assert_int_equal(t.decisions[i], c.decisions[i]); /* as many as its games' records hold */
        assert_int_equal(t.forfeits[i], 0);
    }
    /* greedy and the search both beat random on these deals */
    assert_true(t.p[1][0].wins >= 3);
    assert_true(t.p[2][0].wins >= 3);
    double elo[3], se[3];
    assert_int_equal(kontor_elo(&t, elo, se), 0);
    assert_true(elo[0] < elo[1] && elo[0] < elo[2]);
}

static void test_arena_does_not_depend_on_jobs(void **st) {
    (void)st;
    kontor_arena_table t1, t2;
    progress p1 = {0, 0, 0}, p2 = {0, 0, 0};
    run_arena(1, &t1, &p1);
    run_arena(2, &t2, &p2);
    assert_memory_equal(t1.p, t2.p, sizeof t1.p);
    assert_memory_equal(t1.decisions, t2.decisions, sizeof t1.decisions);
}

/* A resumed tournament (--resume): games the known callback vouches for are
 * not played (done gets no record for them) and their results count as if
 * they had been: the table is that of the full run. */
typedef struct resume_ctx {
    kontor_match_result result[12];
    int played, known;
} resume_ctx;

static void keep_results(void *ctx, const kontor_arena_game *g, const kontor_record *rec, int finished, int total) {
    resume_ctx *r = ctx;
    (void)finished;
    (void)total;
    assert_true(g->index >= 0 && g->index < 12);
    if (rec) r->played++, r->result[g->index] = g->result;
    else r->known++;
}

static int even_games_known(void *ctx, const kontor_arena_game *g, kontor_match_result *res) {
    const resume_ctx *first = ctx;
    if (g->index % 2) return 0;
    *res = first->result[g->index];
    return 1;
}

static void test_arena_resume_counts_known_games(void **st) {
    (void)st;
    kontor_config cfg;
    kontor_arena_opts o;
    three_agents(&o, &cfg, 1);
    o.done = keep_results;
    kontor_arena_table full, resumed;
    resume_ctx first, second;
    memset(&first, 0, sizeof first);
    memset(&second, 0, sizeof second);
    o.done_ctx = &first;
    arena_run_ok(&o, &full);
    assert_int_equal(first.played, 12);
    assert_int_equal(first.known, 0);
    o.done_ctx = &second;
    o.known = even_games_known;
    o.known_ctx = &first;
    o.jobs = 2;
    arena_run_ok(&o, &resumed);
    assert_int_equal(second.played, 6);
    assert_int_equal(second.known, 6);
    assert_memory_equal(full.p, resumed.p, sizeof full.p);
    /* the known games add no decisions and no thinking time */
    uint64_t d_full = 0, d_resumed = 0;
    for (int i = 0; i < 3; i++) d_full += full.decisions[i], d_resumed += resumed.decisions[i];
    assert_true(d_resumed > 0 && d_resumed < d_full);
}

/* The same through the command: an interrupted run (a record lost, one
 * broken) goes on where it stopped and prints the same table. */
static char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *b = calloc(1, 1 << 16);
    if (b) {
        size_t n = fread(b, 1, (1 << 16) - 1, f);
        b[n] = 0;
    }
    fclose(f);
    return b;
}

static void test_arena_command_resumes_from_records(void **st) {
    (void)st;
    const char *k = getenv("KONTOR");
    if (!k || !*k) k = "build/kontor";
    char dir[] = "/tmp/kontor-resume-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s arena --agents random,greedy --games 4 --seed 3 --resume %s/rec > %s/out1 2>&1", k,
             dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "rm %s/rec/game-0002.kgn && echo broken > %s/rec/game-0003.kgn", dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s arena --agents random,greedy --games 4 --seed 3 --resume %s/rec > %s/out2 2>&1", k,
             dir, dir);
    assert_int_equal(system(cmd), 0);
    char p1[128], p2[128];
    snprintf(p1, sizeof p1, "%s/out1", dir);
    snprintf(p2, sizeof p2, "%s/out2", dir);
    char *a = read_all(p1), *b = read_all(p2);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(strstr(a, "(0 of them counted from their records"));
    assert_non_null(strstr(b, "(2 of them counted from their records"));
    /* the pairing line (wins, draws, losses, points) is the same */
    const char *la = strstr(a, "\nrandom "), *lb = strstr(b, "\nrandom ");
    assert_non_null(la);
    assert_non_null(lb);
    assert_memory_equal(la, lb, (size_t)(strchr(la + 1, '\n') - la));
    free(a);
    free(b);
    /* the lost and the broken record are written again */
    snprintf(cmd, sizeof cmd, "grep -q '^\\[Result' %s/rec/game-0002.kgn && grep -q '^\\[Result' %s/rec/game-0003.kgn", dir,
             dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* The game for four: each agent plays a team (both its seats); the records
 * name all four players; results add up and greedy teams beat random ones. */
static void test_arena_plays_team_matches_for_four(void **st) {
    (void)st;
    kontor_config cfg;
    const char *specs[] = {"random", "greedy"};
    kontor_arena_opts o;
    arena_of(&o, &cfg, "four", specs, 2, 6);
    o.seed = 3;
    o.records = 1;
    census c;
    memset(&c, 0, sizeof c);
    o.done = count_done_and_decisions;
    o.done_ctx = &c;
    kontor_arena_table t;
    arena_run_ok(&o, &t);
    assert_int_equal(c.p.calls, 6);
    const kontor_arena_pair *x = &t.p[1][0];
    assert_int_equal(x->games, 6);
    assert_int_equal(x->wins + x->draws + x->losses, 6);
    assert_int_equal(x->wins, t.p[0][1].losses);
    assert_true(x->wins >= 5);
    assert_true(t.decisions[0] > 0 && t.decisions[1] > 0);
    /* both seats of a team count for its agent: as many as the records hold */
    assert_int_equal(t.decisions[0], c.decisions[0]);
    assert_int_equal(t.decisions[1], c.decisions[1]);
}

static void test_arena_bad_spec_is_an_error(void **st) {
    (void)st;
    kontor_config cfg;
    const char *specs[] = {"random", "ismcts:iters=-1"};
    kontor_arena_opts o;
    arena_of(&o, &cfg, "basic", specs, 2, 2);
    kontor_arena_table t;
    kontor_error err;
    assert_int_not_equal(kontor_arena_run(&o, &t, &err), KONTOR_OK);
    assert_non_null(strstr(err.msg, "agent 'ismcts:iters=-1'"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_driver_plays_to_the_end_and_tells_everyone),
        cmocka_unit_test(test_driver_illegal_move_loses),
        cmocka_unit_test(test_driver_forfeit_keeps_the_agents_reason),
        cmocka_unit_test(test_driver_record_replays_to_the_same_end),
        cmocka_unit_test(test_elo_of_score),
        cmocka_unit_test(test_elo_75_percent_is_about_191),
        cmocka_unit_test(test_elo_is_transitive_through_a_common_opponent),
        cmocka_unit_test(test_elo_clean_sweep_is_finite),
        cmocka_unit_test(test_arena_totals_add_up),
        cmocka_unit_test(test_arena_does_not_depend_on_jobs),
        cmocka_unit_test(test_arena_plays_team_matches_for_four),
        cmocka_unit_test(test_arena_bad_spec_is_an_error),
        cmocka_unit_test(test_arena_resume_counts_known_games),
        cmocka_unit_test(test_arena_command_resumes_from_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
