/* test_scenarios_players.c: the scenarios that change what the players decide or own, one test per rule.
 *
 * Bakschisch (buying out an opposing card), Justizia (each player picks his
 * dock cards), Armut (coins run out, for two and for four), Alte
 * Seilschaften (a tavern's owner decides at the end whether its area scores,
 * for two and for four). The scenarios of the board and its scoring are in
 * test_scenarios.c.
 *
 * Test names follow docs/variants.md: the scenario, then the rule. Positions
 * are reached through kontor_apply where a round or two gets there; the rest
 * are laid by hand with the hooks of core/internal.h (tests/scenutil.h). */
#include "scenutil.h"

/* ---- Bakschisch ---- */

static void bakschisch_setup_follows_the_rulebook(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "bakschisch", NULL, 1);
    assert_int_equal(s.coins[0], 3);
    assert_int_equal(s.coins[1], 3);
    assert_int_equal(s.aside.n, 10);
    assert_int_equal(s.ship_cell, KONTOR_NONE);
    assert_int_equal(s.cfg->width, 6);
    assert_int_equal(s.cfg->largest, 5);
}

static void bakschisch_both_buy_out_a_card_at_once(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "bakschisch", NULL, 1);
    kontor__put(&s, C(1, -1), id(&s, 4));  /* black, three goods: costs 3 */
    kontor__put(&s, C(-1, -1), id(&s, 5)); /* red, one good: costs 1 */
    kontor__put(&s, C(-1, 1), id(&s, 7));  /* red crane: no goods, not for sale */
    /* a round of passing: the next round opens with the bribes */
    choose(&s, PASS, PASS);
    assert_int_equal(s.phase, KONTOR_PHASE_BRIBE);
    assert_int_equal(kontor_actors(&s), 3u);
    assert_int_equal(s.coins[0], 4);
    /* black may not buy out the crane, nor its own card */
    char why[128];
    assert_false(kontor_is_legal(&s, 1, KONTOR_MOVE(KONTOR_MOVE_BRIBE, C(-1, 1))));
    kontor_why_illegal(&s, 1, KONTOR_MOVE(KONTOR_MOVE_BRIBE, C(1, -1)), why, sizeof why);
    assert_string_equal(why, "the card on +1,-1 is black's own");
    int treasury = s.treasury;
    assert_int_equal(kontor_apply(&s, 0, KONTOR_MOVE(KONTOR_MOVE_BRIBE, C(1, -1)), NULL), KONTOR_OK);
    /* red's bribe is hidden until both have decided */
    kontor_view v;
    kontor_view_of(&s, 1, &v);
    assert_int_equal(v.s.bribe[0], KONTOR_HIDDEN);
    kontor_log log = {.n = 0};
    assert_int_equal(kontor_apply(&s, 1, KONTOR_MOVE(KONTOR_MOVE_BRIBE, C(-1, -1)), &log), KONTOR_OK);
    assert_int_equal(s.phase, kt_choice_phase(&s));
    assert_int_equal(s.coins[0], 4 - 3);
    assert_int_equal(s.coins[1], 4 - 1);
    assert_int_equal(s.treasury, treasury + 4);
    assert_int_equal(kontor_state_card_at(&s, C(1, -1)), KONTOR_NONE);
    assert_int_equal(kontor_state_card_at(&s, C(-1, -1)), KONTOR_NONE);
    /* each card goes under its owner's pile */
    const kontor_pile *b = &s.dock_pile[1], *r = &s.dock_pile[0];
    assert_int_equal(kontor_pile_card(&s, b, b->n - 1), id(&s, 4));
    assert_int_equal(kontor_pile_card(&s, r, r->n - 1), id(&s, 5));
    int ev = 0;
    for (int i = 0; i < log.n; i++) ev += log.ev[i].kind == KONTOR_EV_BRIBE;
    assert_int_equal(ev, 2);
}

static void bakschisch_enclosed_and_unaffordable_cards_are_taboo(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "bakschisch", NULL, 1);
    kontor__put(&s, C(1, -1), id(&s, 4));
    kontor__put(&s, C(1, -2), id(&s, 38)); /* water around 1,-1 */
    kontor__put(&s, C(2, -1), id(&s, 40));
    kontor__score_enclosed(&s, NULL);
    assert_int_equal(s.nareas, 1);
    kontor__put(&s, C(-1, -1), id(&s, 12)); /* black, two goods: costs 2 */
    s.coins[0] = 1;
    s.treasury = (uint8_t)(s.cfg->total_coins - 1 - s.coins[1]);
    choose(&s, PASS, PASS); /* red gets a coin: 2 */
    assert_int_equal(s.phase, KONTOR_PHASE_BRIBE);
    assert_false(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_BRIBE, C(1, -1))));
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_BRIBE, C(-1, -1))));
    char why[128];
    kontor_why_illegal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_BRIBE, C(1, -1)), why, sizeof why);
    assert_string_equal(why, "the card on +1,-1 is in an enclosed area");
    s.coins[0] = 1;
    kontor_why_illegal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_BRIBE, C(-1, -1)), why, sizeof why);
    assert_string_equal(why, "buying out the card on -1,-1 costs 2 coins and red has 1");
}

/* ---- Justizia ---- */

static void justizia_players_pick_three_and_discard_four(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "justizia", NULL, 1);
    assert_int_equal(s.phase, KONTOR_PHASE_SELECT);
    assert_int_equal(kontor_actors(&s), 3u);
    assert_int_equal(s.hand_n[0], 2); /* the water cards only */
    kontor_move m[KONTOR_MAX_MOVES];
    assert_int_equal(kontor_legal(&s, 0, m), 22);
    assert_int_equal(KONTOR_MOVE_KIND(m[0]), KONTOR_MOVE_KEEP);
    /* red keeps 3, 11 and 29 and puts 7, 43, 87 and 1 out */
    static const int keep[3] = {3, 11, 29}, out[4] = {7, 43, 87, 1};
    for (int i = 0; i < 3; i++) assert_int_equal(kontor_apply(&s, 0, KONTOR_MOVE(KONTOR_MOVE_KEEP, id(&s, keep[i])), NULL), KONTOR_OK);
    assert_int_equal(kontor_legal(&s, 0, m), 19);
    assert_int_equal(KONTOR_MOVE_KIND(m[0]), KONTOR_MOVE_DISCARD);
    char why[128];
    kontor_why_illegal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_DISCARD, id(&s, 4)), why, sizeof why);
    assert_string_equal(why, "card 4 is not in red's pile");
    for (int i = 0; i < 4; i++) assert_int_equal(kontor_apply(&s, 0, KONTOR_MOVE(KONTOR_MOVE_DISCARD, id(&s, out[i])), NULL), KONTOR_OK);
    assert_int_equal(kontor_actors(&s), 2u);
    /* red's view: his pile sorted, his discards known; black's view: none of it */
    kontor_view vr, vb;
    kontor_view_of(&s, 0, &vr);
    kontor_view_of(&s, 1, &vb);
    const kontor_pile *p = &vr.s.dock_pile[0];
    for (int i = 1; i < p->n; i++)
        assert_true(kontor_pile_card(&vr.s, p, i - 1) < kontor_pile_card(&vr.s, p, i));
    for (int i = 0; i < 4; i++) {
        assert_int_equal(kontor_pile_card(&vr.s, &vr.s.aside, i), id(&s, out[i]));
        assert_true(kontor_pile_card(&vb.s, &vb.s.aside, i) >= KONTOR_UNKNOWN_BASE);
    }
    for (int i = 0; i < vb.s.dock_pile[0].n; i++)
        assert_true(kontor_pile_card(&vb.s, &vb.s.dock_pile[0], i) >= KONTOR_UNKNOWN_BASE);
    /* black picks the first seven of his list */
    for (int k = 0; k < 7; k++) {
        assert_true(kontor_legal(&s, 1, m) > 0);
        assert_int_equal(kontor_apply(&s, 1, m[0], NULL), KONTOR_OK);
    }
    assert_int_equal(s.phase, kt_choice_phase(&s));
    assert_int_equal(s.round, 1);
    for (int i = 0; i < 3; i++) assert_true(in_hand(&s, 0, keep[i]));
    assert_int_equal(s.hand_n[0], 5);
    assert_int_equal(s.dock_pile[0].n, 22 - 7);
    for (int i = 0; i < 4; i++) assert_false(in_pile(&s, &s.dock_pile[0], id(&s, out[i])));
    /* now red knows his pile's cards but not their order: the view hides them, top card aside */
    kontor_view_of(&s, 0, &vr);
    p = &vr.s.dock_pile[0];
    assert_true(kontor_pile_card(&vr.s, p, 0) < KONTOR_UNKNOWN_BASE);
    assert_true(kontor_pile_card(&vr.s, p, 1) >= KONTOR_UNKNOWN_BASE);
    /* and the discards stay known to red only */
    assert_int_equal(kontor_pile_card(&vr.s, &vr.s.aside, 0), id(&s, 7));
}

/* The state keeps private knowledge for KONTOR_KNOWN_SEATS (2) seats only
 * (kontor_state.known, issue 17): every variant whose players pick their
 * dock cards is for two, and a deal of Justizia's picks for four is
 * refused rather than written past the array. */
static void justizia_is_for_two_players_only(void **st) {
    (void)st;
    for (int v = 0; v < KONTOR_NVARIANTS; v++) {
        kontor_config cfg;
        assert_int_equal(kontor_config_init(&cfg, kontor_variant_name(v), NULL), KONTOR_OK);
        if (cfg.select_keep || cfg.select_discard) assert_true(cfg.nseats <= KONTOR_KNOWN_SEATS);
    }
    kontor_config cfg;
    assert_int_equal(kontor_config_init(&cfg, "four", NULL), KONTOR_OK);
    cfg.select_keep = 3;
    cfg.select_discard = 4;
    kontor_state s;
    kontor_error err;
    assert_int_not_equal(kontor_new(&s, &cfg, 1, &err), KONTOR_OK);
    assert_non_null(strstr(err.msg, "two players"));
}

/* ---- Armut ---- */

static void armut_three_coins_each_and_no_more(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "armut", NULL, 1);
    assert_int_equal(s.coins[0] + s.coins[1] + s.treasury, 6);
    assert_int_equal(s.treasury, 0);
    setup(&s, "armut4", NULL, 1);
    assert_int_equal(s.coins[0] + s.coins[1] + s.coins[2] + s.coins[3] + s.treasury, 12);
}

static void armut_a_broke_player_with_an_empty_treasury_loses_at_once(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "armut", NULL, 1);
    s.coins[0] = 0;
    s.coins[1] = 5;
    s.treasury = 1;
    /* both play water without a coin symbol; black (40) goes first and takes
     * the treasury's last coin for the water card: red is broke, the bank empty */
    choose(&s, 38, 40);
    assert_int_equal(kontor_current(&s), 1);
    place(&s, 1, C(0, 3));
    assert_true(kontor_over(&s));
    assert_int_equal(s.end_reason, KONTOR_END_BANKRUPT);
    assert_int_equal(s.winner, 1);
    assert_true(in_hand(&s, 0, 38)); /* red never placed: the card is his again */
    assert_int_equal(s.coins[0] + s.coins[1] + s.treasury, 6);
}

/* The n-th (from 0) water card that is not on the board, with or without a
 * coin symbol. */
static int water_off_board(const kontor_state *s, int coin, int nth) {
    for (int n = 37; n <= 85; n++) {
        int c = id(s, n);
        const kontor_card *k = &s->cfg->cards->card[c];
        if (k->kind != KONTOR_KIND_WATER || k->coin != coin) continue;
        int on = 0;
        for (int cell = 0; cell < KONTOR_CELLS; cell++) on |= kontor_state_card_at(s, cell) == c;
        if (!on && nth-- == 0) return n;
    }
    fail_msg("no such water card");
    return -1;
}

/* Every seat of four chooses: numbers, or PASS (each card written into the
 * seat's hand first). */
static void choose4(kontor_state *s, const int nums[4]) {
    for (int p = 0; p < 4; p++)
        if (nums[p] != PASS) s->hand[p][0] = (uint8_t)id(s, nums[p]);
    int pick[4];
    for (int p = 0; p < 4; p++) pick[p] = nums[p] == PASS ? KONTOR_PASS : id(s, nums[p]);
    assert_int_equal(kt_choose_all(s, pick, NULL), KONTOR_OK);
}

/* V8 with four: "Der andere Spieler bzw. das andere Team hat dann
 * gewonnen". Red 2 has one coin and the treasury none; black 2, opposite
 * him, reveals a water card with a coin symbol: red 2 pays his last coin as
 * tax, and black 2, placing first, takes it from the treasury for his water
 * card. Red 2 is broke, the treasury empty: his team loses at once, though
 * red 1 still has coins; red 2's card, never placed, is his again. */
static void armut4_a_broke_player_loses_for_his_team(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "armut4", NULL, 1);
    s.coins[0] = 3, s.coins[1] = 1, s.coins[2] = 3, s.coins[3] = 3;
    s.treasury = 0;
    int w = water_off_board(&s, 1, 0);
    choose4(&s, (const int[4]){PASS, 5, PASS, w});
    assert_int_equal(s.coins[1], 0);
    assert_int_equal(s.treasury, 1);
    assert_false(kontor_over(&s));
    assert_int_equal(kontor_current(&s), 3);
    kontor_move m[KONTOR_MAX_MOVES];
    assert_true(kontor_legal(&s, 3, m) > 0);
    assert_int_equal(kontor_apply(&s, 3, m[0], NULL), KONTOR_OK);
    assert_true(kontor_over(&s));
    assert_int_equal(s.end_reason, KONTOR_END_BANKRUPT);
    assert_int_equal(s.winner, 1);
    assert_true(in_hand(&s, 1, 5));
}

/* V8, both teams broke at once (possible only with four): red 2 and black 1
 * have no coin, the treasury one; the passers are equally poor and cannot
 * both be paid (R12), so red 1's water card takes the last coin: both teams
 * have a broke player. Neither loses by it; the points decide as at a normal
 * end: red's enclosed area (two cards) gives red the game. */
static void armut4_both_teams_broke_at_once_the_points_decide(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "armut4", NULL, 1);
    /* red's area 1,-1 and 1,-2 between the cross and three water cards */
    kontor__put(&s, C(1, -1), id(&s, 1));
    kontor__put(&s, C(1, -2), id(&s, 3));
    kontor__put(&s, C(2, -1), id(&s, water_off_board(&s, 0, 0)));
    kontor__put(&s, C(2, -2), id(&s, water_off_board(&s, 0, 0)));
    kontor__put(&s, C(1, -3), id(&s, water_off_board(&s, 0, 0)));
    kontor__score_enclosed(&s, NULL);
    assert_int_equal(s.nareas, 1);
    assert_int_equal(s.area[0].winner, 0);
    s.coins[0] = 3, s.coins[1] = 0, s.coins[2] = 0, s.coins[3] = 3;
    s.treasury = 1;
    choose4(&s, (const int[4]){water_off_board(&s, 0, 0), PASS, PASS, PASS});
    assert_int_equal(s.treasury, 1); /* R12: two equally poor passers, one coin: nobody */
    kontor_move m[KONTOR_MAX_MOVES];
    assert_true(kontor_legal(&s, 0, m) > 0);
    assert_int_equal(kontor_apply(&s, 0, m[0], NULL), KONTOR_OK);
    assert_true(kontor_over(&s));
    assert_int_equal(s.end_reason, KONTOR_END_BANKRUPT);
    assert_int_equal(s.score[0], 1);
    assert_int_equal(s.score[1], 0);
    assert_int_equal(s.winner, 0); /* by the points, not by whose player went broke */
}

/* ---- Alte Seilschaften ---- */

/* Red's tavern 87 on +1,-1 and card number other on +1,-2, closed into an
 * area of two cells by six water cards. */
static void tavern_area(kontor_state *s, int other) {
    static const int water[6][3] = {{2, -1, 38}, {2, -2, 40}, {1, -3, 47}, {0, -3, 50}, {0, -2, 52}, {0, -1, 53}};
    kontor__put(s, C(1, -1), id(s, 87));
    kontor__put(s, C(1, -2), id(s, other));
    lay(s, water, 6);
}

static void seilschaften_the_taverns_owner_decides_at_the_end(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "seilschaften", NULL, 1);
    /* red's tavern 87 with black's 2 in an enclosed area that black wins */
    tavern_area(&s, 2);
    kontor__score_enclosed(&s, NULL);
    assert_int_equal(s.nareas, 1);
    assert_int_equal(s.area[0].winner, 1);
    s.round = s.cfg->max_rounds; /* the last round: the game ends after it */
    choose(&s, PASS, PASS);
    assert_int_equal(s.phase, KONTOR_PHASE_TAVERN);
    assert_int_equal(kontor_actors(&s), 1u); /* red owns the tavern */
    assert_int_equal(kontor_current(&s), 0);
    assert_int_equal(kontor_apply(&s, 0, KONTOR_MOVE(KONTOR_MOVE_TAVERN, 0), NULL), KONTOR_OK);
    assert_true(kontor_over(&s));
    assert_int_equal(s.score[1], 0); /* black's area does not score */
    assert_int_equal(s.area[0].out, 1);
}

static void seilschaften_two_taverns_in_one_area_score_without_asking(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "seilschaften", NULL, 1);
    tavern_area(&s, 86); /* black's tavern beside red's */
    kontor__put(&s, C(-1, -1), id(&s, 2)); /* a second area, black's, without a tavern */
    kontor__put(&s, C(-2, -1), id(&s, 54));
    kontor__put(&s, C(-1, -2), id(&s, 56));
    kontor__score_enclosed(&s, NULL);
    assert_int_equal(s.nareas, 2);
    s.round = s.cfg->max_rounds; /* the last round */
    choose(&s, PASS, PASS);
    assert_true(kontor_over(&s)); /* nothing to decide */
}

/* V9 with four: "Der Spieler oder das Team, dem eine Hafenkneipe auf dem
 * Spielfeld gehört, darf bei Spielende entscheiden, ob das Gebiet ...
 * gewertet wird": the first seat of the tavern's team decides
 * for the team. Red's tavern 87 stands in an area black wins, black's tavern
 * 86 in one red wins: red 1 (not red 2) decides the first, black 1 (not
 * black 2) the second; both take their area out, and nobody scores. */
static void seilschaften4_the_first_seat_of_the_taverns_team_decides(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "seilschaften4", NULL, 1);
    kontor__put(&s, C(1, -1), id(&s, 87)); /* red's tavern with black's 2 */
    kontor__put(&s, C(1, -2), id(&s, 2));
    kontor__put(&s, C(-1, 1), id(&s, 86)); /* black's tavern with red's 1 */
    kontor__put(&s, C(-1, 2), id(&s, 1));
    static const int wet[8][2] = {{2, -1}, {2, -2}, {1, -3}, {0, -3}, {-2, 1}, {-2, 2}, {-1, 3}, {0, 3}};
    for (int i = 0; i < 8; i++) kontor__put(&s, C(wet[i][0], wet[i][1]), id(&s, water_off_board(&s, 0, 0)));
    kontor__score_enclosed(&s, NULL);
    assert_int_equal(s.nareas, 2);
    assert_int_equal(s.area[0].winner, 1); /* the area of red's tavern: black's */
    assert_int_equal(s.area[1].winner, 0);
    s.round = s.cfg->max_rounds; /* the last round */
    choose4(&s, (const int[4]){PASS, PASS, PASS, PASS});
    assert_int_equal(s.phase, KONTOR_PHASE_TAVERN);
    assert_int_equal(kontor_actors(&s), 1u); /* red 1 */
    assert_false(kontor_is_legal(&s, 1, KONTOR_MOVE(KONTOR_MOVE_TAVERN, 0)));
    assert_int_equal(kontor_apply(&s, 0, KONTOR_MOVE(KONTOR_MOVE_TAVERN, 0), NULL), KONTOR_OK);
    assert_int_equal(s.phase, KONTOR_PHASE_TAVERN);
    assert_int_equal(kontor_actors(&s), 4u); /* black 1 */
    assert_false(kontor_is_legal(&s, 3, KONTOR_MOVE(KONTOR_MOVE_TAVERN, 0)));
    assert_int_equal(kontor_apply(&s, 2, KONTOR_MOVE(KONTOR_MOVE_TAVERN, 0), NULL), KONTOR_OK);
    assert_true(kontor_over(&s));
    assert_int_equal(s.area[0].out, 1);
    assert_int_equal(s.area[1].out, 1);
    assert_int_equal(s.score[0], 0);
    assert_int_equal(s.score[1], 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bakschisch_setup_follows_the_rulebook),
        cmocka_unit_test(bakschisch_both_buy_out_a_card_at_once),
        cmocka_unit_test(bakschisch_enclosed_and_unaffordable_cards_are_taboo),
        cmocka_unit_test(justizia_players_pick_three_and_discard_four),
        cmocka_unit_test(justizia_is_for_two_players_only),
        cmocka_unit_test(armut_three_coins_each_and_no_more),
        cmocka_unit_test(armut_a_broke_player_with_an_empty_treasury_loses_at_once),
        cmocka_unit_test(armut4_a_broke_player_loses_for_his_team),
        cmocka_unit_test(armut4_both_teams_broke_at_once_the_points_decide),
        cmocka_unit_test(seilschaften_the_taverns_owner_decides_at_the_end),
        cmocka_unit_test(seilschaften_two_taverns_in_one_area_score_without_asking),
        cmocka_unit_test(seilschaften4_the_first_seat_of_the_taverns_team_decides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
