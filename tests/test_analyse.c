/* test_analyse.c: the post-game analysis (src/ai/analysis.c, kontor analyse).
 *
 * The analysis is tested on records whose mistake is known by construction:
 * a game of two greedy players in which seat 0, in the last round, places
 * its card on the cell that gives an area away and loses the game, where
 * the other cell would have won it, and the game then ends by forced
 * decisions, so the loss of that placement is known exactly. The analysis
 * must name that placement as the side's biggest loss, at its exact value. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ai/analysis.h"
#include "kontor/record.h"

/* How the game ends after t, when it ends in round `round` by forced
 * decisions alone (every seat to act has one legal decision, one seat at a
 * time, no new round): the winning team (0, 1, or -1 for a draw), the
 * points in pts and the result ai_result_of gives in r (may be NULL); -2
 * when it does not end so. Such an ending depends on nothing hidden: both
 * players and the search know it alike, so its value is exact. */
static int forced_ending(kontor_state t, int round, int pts[2], float r[2]) {
    unsigned act;
    while ((act = kontor_actors(&t)) != 0) {
        if (t.round != round || (act & (act - 1))) return -2;
        int seat = (act & 1) ? 0 : 1;
        kontor_move m[KONTOR_MAX_MOVES];
        if (kontor_legal(&t, seat, m) != 1) return -2;
        assert_int_equal(kontor_apply(&t, seat, m[0], NULL), KONTOR_OK);
    }
    if (t.round != round) return -2;
    kontor_points(&t, pts);
    if (r) ai_result_of(&t, r);
    return t.winner;
}

/* The blunder a game of greedy against greedy may offer seat 0, known by
 * construction: a placement in the last round (two free cells, seat 0 places
 * first, the opponent's revealed card then fits only the other) where one
 * cell wins the game and the other gives an area away and loses it; after
 * either the game ends by forced decisions (forced_ending). *bad is the
 * losing placement. */
static int last_round_blunder(const kontor_state *s, kontor_move *bad) {
    if (s->phase != KONTOR_PHASE_PLACE || !(kontor_actors(s) & 1)) return 0;
    kontor_move moves[KONTOR_MAX_MOVES];
    if (kontor_legal(s, 0, moves) != 2) return 0;
    int w[2], pts[2][2];
    for (int i = 0; i < 2; i++) {
        kontor_state t = *s;
        assert_int_equal(kontor_apply(&t, 0, moves[i], NULL), KONTOR_OK);
        if ((w[i] = forced_ending(t, s->round, pts[i], NULL)) == -2) return 0;
    }
    for (int i = 0; i < 2; i++)
        if (w[i] == 1 && w[1 - i] == 0 &&
            (pts[i][1] > pts[1 - i][1] || pts[i][0] < pts[1 - i][0])) { /* an area given away */
            *bad = moves[i];
            return 1;
        }
    return 0;
}

/* The blunder of the records of the other tests: the first placement by
 * seat 0 from round 4 on where some cell gives an area away (the areas won,
 * in the evaluation's terms, a whole area below the best cell's) is played
 * at the worst such cell. */
static int eval_blunder(const kontor_state *s, kontor_move *bad) {
    if (s->phase != KONTOR_PHASE_PLACE || !(kontor_actors(s) & 1) || s->round < 4) return 0;
    kontor_move moves[KONTOR_MAX_MOVES];
    int n = kontor_legal(s, 0, moves);
    double best = -1e9, worst = 1e9, worst_e = 1e9;
    for (int i = 0; i < n; i++) {
        kontor_state t = *s;
        kontor_apply(&t, 0, moves[i], NULL);
        ai_eval_terms e;
        ai_eval_terms_of(&t, 0, &e);
        if (e.points > best) best = e.points;
        if (e.points < worst || (e.points == worst && e.total < worst_e))
            worst = e.points, worst_e = e.total, *bad = moves[i];
    }
    return best - worst >= 10; /* an area (10 tenths) to the opponent, or lost to self */
}

/* Play greedy against greedy from seed; the first time blunder_at() offers
 * seat 0 a blunder, it is played. Returns that decision's index in the
 * record, -1 when none came. */
static int blunder_game_by(uint64_t seed, kontor_record *rec, int (*blunder_at)(const kontor_state *, kontor_move *)) {
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, "basic", &err), KONTOR_OK);
    kontor_state s;
    kt_deal_recorded(&s, rec, &cfg, seed);
    kontor_agent *g[2] = {kontor_agent_new("greedy", seed, &err), kontor_agent_new("greedy", seed + 1, &err)};
    assert_non_null(g[0]);
    assert_non_null(g[1]);
    int blunder = -1;
    unsigned actors;
    while ((actors = kontor_actors(&s)) != 0) {
        int seat = (actors & 1) ? 0 : 1;
        kontor_view v;
        kontor_view_of(&s, seat, &v);
        kontor_move m = g[seat]->decide(g[seat], &v);
        if (blunder < 0 && seat == 0 && blunder_at(&s, &m)) blunder = rec->nply;
        assert_int_equal(kontor_record_push(rec, seat, m), KONTOR_OK);
        assert_int_equal(kontor_apply(&s, seat, m, NULL), KONTOR_OK);
    }
    kontor_record_set_result(rec, &s);
    kontor_agent_free(g[0]);
    kontor_agent_free(g[1]);
    return blunder;
}

static int blunder_game(uint64_t seed, kontor_record *rec) { return blunder_game_by(seed, rec, eval_blunder); }

/* The analysis names a placement that gives an area away as the side's
 * biggest loss, on records whose blunder is known by construction
 * (last_round_blunder: the other cell would have won the game). Its loss is
 * exact whatever the search's seed: after either cell the game ends by
 * forced decisions, so every playout through a cell returns that ending's
 * result (ai_result_of: 0.9 for a win, plus a tenth for the margin), the
 * main search's value of each cell and the forced re-search's are that
 * result, and the loss is the difference of the won and the lost ending,
 * about 0.9 (the test asserts it to 1e-4: the search sums results in
 * floats). The budget only has to let the search tell apart two cells
 * whose values differ by 0.9: at 1,000 iterations the losing cell had 4
 * visits in each of the test's six analyses, so its loss came from the
 * forced re-search, exact too.
 * Every other decision of the side is a search estimate; that none comes
 * near is checked over three search seeds on each of two records. The deals
 * are those of greedy against greedy from seeds 1 to 2,000 that offer seat 0
 * such a placement: 156, 159, 553, 703, 989, 1557, 1905 (scanning for them
 * here would cost more than the analysis). Measured on all seven at 1,000
 * iterations with search seeds 1 to 30 (210 analyses): the blunder was the
 * biggest loss in every one, at its exact value (0.90-0.92), and the next
 * biggest loss of seat 0 at most 0.663 (deal 703), 0.33 on the two here.
 * Broken by hand, the test fails: losses negated (so clamped to 0), or the
 * forced re-search's value left in the opponent's terms (the blunder's loss
 * then read 0.198, below another decision's). */
static void test_analyse_names_the_placement_that_gives_an_area_away(void **st) {
    (void)st;
    static const uint64_t deals[] = {156, 553};
    for (size_t di = 0; di < sizeof deals / sizeof *deals; di++) {
        int deal = (int)deals[di];
        kontor_record rec;
        int b = blunder_game_by(deals[di], &rec, last_round_blunder);
        if (b < 0) fail_msg("deal %d: greedy against greedy no longer offers the last-round blunder", deal);
        /* the loss the analysis must find: the results of the two endings */
        kontor_state s;
        kontor_error err;
        assert_int_equal(kontor_record_replay(&rec, b, &s, NULL, NULL, &err), KONTOR_OK);
        kontor_move moves[KONTOR_MAX_MOVES];
        assert_int_equal(kontor_legal(&s, 0, moves), 2);
        float r[2][2];
        for (int i = 0; i < 2; i++) {
            kontor_state t = s;
            int pts[2];
            assert_int_equal(kontor_apply(&t, 0, moves[i], NULL), KONTOR_OK);
            assert_true(forced_ending(t, s.round, pts, r[i]) != -2);
        }
        double exact = fabs((double)r[0][0] - (double)r[1][0]);
        assert_true(exact > 0.85);
        for (uint64_t seed = 1; seed <= 3; seed++) {
            ai_analysis an;
            assert_int_equal(ai_analyse(&rec, "ismcts:iters=1000", seed, &an, &err), 0);
            int top = -1;
            double topl = -1, next = 0;
            for (int i = 0; i < an.n; i++) {
                if (an.item[i].seat != 0) continue;
                if (an.item[i].loss > topl) {
                    next = topl > next ? topl : next;
                    topl = an.item[i].loss, top = an.item[i].ply;
                } else if (an.item[i].loss > next) next = an.item[i].loss;
            }
            print_message("deal %d, search seed %d: the blunder's loss %.3f (exact %.3f), the next biggest %.3f\n",
                          deal, (int)seed, topl, exact, next);
            if (top != b)
                fail_msg("deal %d, seed %d: the biggest loss is decision %d (%.3f), the blunder was %d", deal, (int)seed,
                         top + 1, topl, b + 1);
            assert_true(fabs(topl - exact) < 1e-4); /* float sums */
            /* the summary's list of mistakes: biggest first, the blunder at its head,
             * every other loss of the seat no bigger than the last listed */
            int idx[3];
            int nw = ai_analysis_worst(&an, 0, 3, idx);
            assert_true(nw >= 1 && nw <= 3);
            assert_int_equal(an.item[idx[0]].ply, b);
            for (int j = 1; j < nw; j++) assert_true(an.item[idx[j - 1]].loss >= an.item[idx[j]].loss);
            for (int i = 0, listed; i < an.n; i++) {
                listed = 0;
                for (int j = 0; j < nw; j++) listed |= idx[j] == i;
                if (an.item[i].seat == 0 && !listed) assert_true(an.item[i].loss <= an.item[idx[nw - 1]].loss);
                if (an.item[i].seat != 0)
                    for (int j = 0; j < nw; j++) assert_int_not_equal(idx[j], i);
            }
            ai_analysis_release(&an);
        }
        kontor_record_release(&rec);
    }
}

/* The analysis covers every decision that had a choice and none other; a
 * mixed strategy's shares sum to (nearly) one; the record's text round-trips. */
static void test_analyse_covers_every_choice(void **st) {
    (void)st;
    kontor_record rec;
    blunder_game(4, &rec);
    char *text;
    size_t len;
    assert_int_equal(kontor_record_write(&rec, &text, &len), KONTOR_OK);
    kontor_record r2;
    kontor_error err;
    assert_int_equal(kontor_record_parse(&r2, text, len, &err), KONTOR_OK);
    free(text);
    ai_analysis an;
    assert_int_equal(ai_analyse(&r2, "ismcts:iters=100", 1, &an, &err), 0);
    kontor_state s;
    assert_int_equal(kontor_record_replay(&r2, 0, &s, NULL, NULL, &err), KONTOR_OK);
    int k = 0;
    for (int i = 0; i < r2.nply; i++) {
        kontor_move moves[KONTOR_MAX_MOVES];
        if (kontor_legal(&s, r2.ply[i].seat, moves) > 1) {
            assert_true(k < an.n);
            assert_int_equal(an.item[k].ply, i);
            assert_true(an.item[k].loss >= 0);
            if (an.item[k].phase == KONTOR_PHASE_CHOOSE) {
                double sum = 0;
                for (int j = 0; j < an.item[k].nchoice; j++) sum += an.item[k].share[j];
                assert_true(sum > 0.5 && sum < 1.0001);
            }
            k++;
        }
        kontor_apply(&s, r2.ply[i].seat, r2.ply[i].move, NULL);
    }
    assert_int_equal(k, an.n);
    ai_analysis_release(&an);
    assert_int_not_equal(ai_analyse(&r2, "cmd:nothing", 1, &an, &err), 0);
    assert_int_not_equal(ai_analyse(&r2, "nobody", 1, &an, &err), 0);
    kontor_record_release(&r2);
    kontor_record_release(&rec);
}

/* The played decision is re-searched, forced at the root: with a main search
 * far too small to visit every placement, the placements greedy played that
 * the search never visited still get their own value and a loss that is
 * finite and small on average (greedy places sensibly). Read from the main
 * search alone, such a decision would be worth 0 and lose the whole of the
 * recommendation's value. */
static void test_analyse_researches_the_played_move_it_never_visited(void **st) {
    (void)st;
    kontor_record rec;
    blunder_game(2, &rec);
    ai_analysis an;
    kontor_error err;
    assert_int_equal(ai_analyse_forced(&rec, "ismcts:iters=6", 3, 800, &an, &err), 0);
    int unvisited = 0;
    double sum = 0;
    for (int i = 0; i < an.n; i++) {
        const ai_decision *d = &an.item[i];
        if (d->played == d->best) {
            assert_int_equal(d->researched, 0);
            assert_true(d->loss == 0);
            continue;
        }
        assert_int_equal(d->researched, d->played_share * 6 < AI_ANALYSIS_MIN_VISITS - 0.5);
        assert_true(d->loss >= 0 && d->loss <= 1);
        assert_true(d->played_value >= 0 && d->played_value <= 1);
        if (d->played_share == 0) {
            unvisited++;
            assert_true(d->played_value > 0.02);
            sum += d->loss;
        }
    }
    print_message("%d unvisited decisions, average loss %.3f\n", unvisited, unvisited ? sum / unvisited : 0);
    assert_true(unvisited >= 5);
    assert_true(sum / unvisited < 0.12);
    ai_analysis_release(&an);
    kontor_record_release(&rec);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_analyse_names_the_placement_that_gives_an_area_away),
        cmocka_unit_test(test_analyse_covers_every_choice),
        cmocka_unit_test(test_analyse_researches_the_played_move_it_never_visited),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
