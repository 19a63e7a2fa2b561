/* test_four.c: the game for four (two teams, 8x8, special cards) and the
 * scenario "the special cards for two": a test per rule and ruling
 * (docs/rules.md R19..R27). */
#include "testutil.h"

#include <stdlib.h>

#include "core/internal.h"
#include "kontor/record.h"

#define PASS (-1)

static int C(int dx, int dy) { return kontor_cell(dx, dy); }

static void setup(kontor_state *s, const char *variant, const char *opts) {
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, variant, &err), KONTOR_OK);
    if (opts) assert_int_equal(kontor_config_options(&cfg, opts, &err), KONTOR_OK);
    assert_int_equal(kontor_new(s, &cfg, 5, &err), KONTOR_OK);
}

static int id(const kontor_state *s, int number) {
    int i = kontor__card_id(s, number);
    assert_true(i >= 0);
    return i;
}

/* Put card number n into seat's hand, swapping it with a hand card of the
 * same class from wherever it is. */
static void give(kontor_state *s, int seat, int n) {
    int c = id(s, n);
    for (int i = 0; i < s->hand_n[seat]; i++)
        if (s->hand[seat][i] == c) return;
    int cl = kontor_card_class(&s->cfg->cards->card[c]);
    int slot = -1;
    for (int i = 0; i < s->hand_n[seat]; i++) {
        int hc = kontor_card_class(&s->cfg->cards->card[s->hand[seat][i]]);
        if (hc == cl || (cl <= KONTOR_CLASS_BLACK && hc <= KONTOR_CLASS_BLACK)) slot = i;
    }
    assert_true(slot >= 0);
    uint8_t *where = NULL;
    for (int q = 0; q < s->cfg->nseats && !where; q++)
        for (int i = 0; i < s->hand_n[q]; i++)
            if (s->hand[q][i] == c) where = &s->hand[q][i];
    kontor_pile *piles[8] = {&s->dock_pile[0], &s->dock_pile[1], &s->dock_pile[2], &s->dock_pile[3],
                             &s->water_pile, &s->aside, &s->special_pile, NULL};
    for (int k = 0; piles[k] && !where; k++)
        for (int i = 0; i < piles[k]->n; i++) {
            uint8_t *p = &s->pile_card[kontor_pile_at(piles[k], i)];
            if (*p == c) where = p;
        }
    if (!where) fail_msg("card %d is not in a hand or pile", n);
    *where = s->hand[seat][slot];
    s->hand[seat][slot] = (uint8_t)c;
}

/* Every seat chooses: numbers, or PASS. */
static void choose4(kontor_state *s, const int *nums) {
    for (int p = 0; p < s->cfg->nseats; p++)
        if (nums[p] != PASS) give(s, p, nums[p]);
    int pick[KONTOR_MAX_SEATS];
    for (int p = 0; p < s->cfg->nseats; p++) pick[p] = nums[p] == PASS ? KONTOR_PASS : id(s, nums[p]);
    assert_int_equal(kt_choose_all(s, pick, NULL), KONTOR_OK);
}

static void act(kontor_state *s, int seat, kontor_move m) {
    char why[160];
    if (!kontor_is_legal(s, seat, m)) fail_msg("%s", kontor_why_illegal(s, seat, m, why, sizeof why));
    assert_int_equal(kontor_apply(s, seat, m, NULL), KONTOR_OK);
}

static void bare(kontor_state *s) {
    kontor__clear_board(s);
    kontor__put(s, KONTOR_CENTRE_CELL, s->cfg->cards->centre);
}

static void four_setup_two_teams_each_with_own_piles_coins_and_a_special_card(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "four", NULL);
    assert_int_equal(s.cfg->nseats, 4);
    assert_int_equal(s.cfg->width, 8);
    for (int p = 0; p < 4; p++) {
        assert_int_equal(s.hand_n[p], 6);
        assert_int_equal(s.coins[p], 4);
        assert_int_equal(s.dock_pile[p].n, 8); /* 11 each, 3 in the hand */
        int special = 0, dock = 0;
        for (int i = 0; i < 6; i++) {
            int cl = kontor_card_class(&s.cfg->cards->card[s.hand[p][i]]);
            special += cl == KONTOR_CLASS_SPECIAL;
            dock += cl == (p < 2 ? KONTOR_CLASS_RED : KONTOR_CLASS_BLACK);
        }
        assert_int_equal(special, 1);
        assert_int_equal(dock, 3);
        assert_int_equal(kontor_team(&s, p), p / 2);
    }
    assert_int_equal(s.treasury, 4);
    assert_int_equal(s.aside.n, 2);             /* the other two special cards, unseen */
    assert_int_equal(s.water_pile.n, 43 - 8 - 8);
    assert_int_equal(kontor_actors(&s), 15u);
}

static void four_taxes_per_opposing_pair(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "four", NULL);
    int nums[4] = {1 /* red, coin */, 5, 6, 10 /* black, coin */};
    choose4(&s, nums);
    /* seat 0's coin taxes seat 2 (opposite); seat 3's coin taxes seat 1 */
    assert_int_equal(s.coins[0], 4);
    assert_int_equal(s.coins[1], 3);
    assert_int_equal(s.coins[2], 3);
    assert_int_equal(s.coins[3], 4);
    assert_int_equal(s.treasury, 6);
    /* order by number: 10, 6, 5, 1 */
    assert_int_equal(s.order[0], 3);
    assert_int_equal(s.order[1], 2);
    assert_int_equal(s.order[2], 1);
    assert_int_equal(s.order[3], 0);
}

static void four_partners_may_not_pay_for_each_other(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "four", NULL);
    s.treasury = (uint8_t)(s.treasury + s.coins[2]);
    s.coins[2] = 0; /* seat 2 broke, its partner seat 3 rich */
    int nums[4] = {1, 5, 6, 12};
    choose4(&s, nums);
    assert_int_equal(s.coins[3], 4);
    int placing = 0;
    for (int i = 0; i < s.norder; i++) placing |= 1 << s.order[i];
    assert_false(placing & (1 << 2)); /* seat 2 took its card back */
}

static void four_views_hide_the_partners_hand_too(void **st) {
    (void)st;
    kontor_state s;
    kontor_view v;
    setup(&s, "four", NULL);
    kontor_view_of(&s, 0, &v);
    for (int q = 1; q < 4; q++)
        for (int i = 0; i < v.s.hand_n[q]; i++) assert_true(v.s.hand[q][i] >= KONTOR_UNKNOWN_BASE);
    for (int i = 0; i < v.s.hand_n[0]; i++) assert_true(v.s.hand[0][i] < KONTOR_MAX_CARDS);
    for (int i = 0; i < v.s.aside.n; i++)
        assert_true(kontor_pile_card(&v.s, &v.s.aside, i) >= KONTOR_UNKNOWN_BASE);
}

static void four_the_remover_chooses_which_opponent_takes_the_card(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "four", NULL);
    kontor__put(&s, C(1, 1), id(&s, 17)); /* red T ship, next to 1,0 and 0,1 */
    int nums[4] = {PASS, PASS, 48 /* water, ship */, PASS};
    choose4(&s, nums);
    act(&s, 2, KONTOR_MOVE(KONTOR_MOVE_SHIP, C(1, 0)));
    act(&s, 2, KONTOR_MOVE(KONTOR_MOVE_REMOVE, C(1, 1)));
    assert_int_equal(s.phase, KONTOR_PHASE_PILE);
    assert_false(kontor_is_legal(&s, 2, KONTOR_MOVE(KONTOR_MOVE_PILE, 3)));
    int before = s.dock_pile[1].n;
    act(&s, 2, KONTOR_MOVE(KONTOR_MOVE_PILE, 1));
    assert_int_equal(s.dock_pile[1].n, before + 1);
    assert_int_equal(s.phase, KONTOR_PHASE_PLACE);
}

static void four_only_areas_of_two_dock_cards_count(void **st) {
    (void)st;
    kontor_state s;
    uint8_t c[KONTOR_MAX_AREAS];
    setup(&s, "four", NULL);
    s.nareas = 3;
    int size[3] = {1, 2, 5};
    for (int i = 0; i < 3; i++) {
        memset(&s.area[i], 0, sizeof s.area[i]);
        s.area[i].size = (uint8_t)size[i];
        s.area[i].dist = 1;
        s.area[i].keeper = 1;
        s.area[i].value = 1;
    }
    kontor_counted_areas(&s, c);
    assert_int_equal(c[0], 0);
    assert_int_equal(c[1], 1);
    assert_int_equal(c[2], 1);
}

static void special_flood_covers_a_bridge_or_a_one_good_dock_card_and_is_water(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "four", NULL);
    bare(&s);
    kontor__put(&s, C(1, 0), id(&s, 5));  /* red W: one good */
    kontor__put(&s, C(2, 0), id(&s, 11)); /* red WS: two goods */
    kontor__put(&s, C(0, 1), id(&s, 47));
    int nums[4] = {88 /* flood */, PASS, PASS, PASS};
    choose4(&s, nums);
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(1, 0))));
    assert_false(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(2, 0))));
    assert_false(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(0, 1)))); /* water */
    assert_false(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(-1, 0)))); /* free cell */
    int coins = s.coins[0], hand = s.hand_n[0];
    act(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(1, 0)));
    assert_true(kt_in(&s, KONTOR_SET_WATER, C(1, 0)));
    assert_false(kt_in(&s, KONTOR_SET_DOCK, C(1, 0)));
    assert_int_equal(s.nunder, 1);
    assert_int_equal(s.under_card[0], id(&s, 5));
    assert_int_equal(s.coins[0], coins); /* no coin */
    assert_int_equal(s.hand_n[0], hand); /* no draw (the flood left, nothing came) */
    /* next round red 2 lays a bridge over the water card at 0,1: a dock card
     * of nobody, the water card under it */
    assert_int_equal(s.phase, kt_choice_phase(&s));
    int bridge[4] = {PASS, 89 /* bridge */, PASS, PASS};
    choose4(&s, bridge);
    act(&s, 1, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(0, 1)));
    assert_int_equal(kontor_state_card_at(&s, C(0, 1)), id(&s, 89));
    assert_true(kt_in(&s, KONTOR_SET_DOCK, C(0, 1)));
    assert_false(kt_in(&s, KONTOR_SET_WATER, C(0, 1)));
    assert_int_equal(s.nunder, 2);
    assert_int_equal(s.under_card[1], id(&s, 47));
    /* the round after, black 1's flood may cover the bridge, which stays
     * under it, and the cell is water again */
    assert_int_equal(s.phase, kt_choice_phase(&s));
    int flood[4] = {PASS, PASS, 91 /* the other flood */, PASS};
    choose4(&s, flood);
    assert_true(kontor_is_legal(&s, 2, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(0, 1))));
    assert_false(kontor_is_legal(&s, 2, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(2, 0)))); /* still two goods */
    act(&s, 2, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(0, 1)));
    assert_int_equal(kontor_state_card_at(&s, C(0, 1)), id(&s, 91));
    assert_true(kt_in(&s, KONTOR_SET_WATER, C(0, 1)));
    assert_false(kt_in(&s, KONTOR_SET_DOCK, C(0, 1)));
    assert_int_equal(s.nunder, 3);
    assert_int_equal(s.under_card[2], id(&s, 89));
}

static void special_bridge_covers_water_joins_areas_and_counts_as_dock(void **st) {
    (void)st;
    kontor_state s;
    uint8_t g[2][3];
    setup(&s, "four", NULL);
    bare(&s);
    kontor__put(&s, C(1, 0), id(&s, 5));  /* red W */
    kontor__put(&s, C(2, 0), id(&s, 47)); /* water between */
    kontor__put(&s, C(3, 0), id(&s, 6));  /* black W */
    int nums[4] = {89 /* bridge */, PASS, PASS, PASS};
    choose4(&s, nums);
    assert_false(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(0, 0)))); /* the centre (and the ship) */
    act(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(2, 0)));
    assert_int_equal(kontor_area_at(&s, C(1, 0), NULL, g), 3);
    assert_int_equal(g[0][KONTOR_WINE], 1);
    assert_int_equal(g[1][KONTOR_WINE], 1);
}

static void special_bridge_never_joins_an_enclosed_area(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "four", NULL);
    bare(&s);
    kontor__put(&s, C(1, 1), id(&s, 5));
    kontor__put(&s, C(1, 0), id(&s, 47));
    kontor__put(&s, C(0, 1), id(&s, 48));
    kontor__put(&s, C(2, 1), id(&s, 49));
    kontor__put(&s, C(1, 2), id(&s, 50));
    kontor__score_enclosed(&s, NULL);
    assert_int_equal(s.nareas, 1);
    int nums[4] = {89, PASS, PASS, PASS};
    choose4(&s, nums);
    assert_false(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(1, 0))));
    assert_false(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(2, 1))));
}

static void special_customs_house_as_water_or_dock_never_encloses_and_adds_a_point(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "four", NULL);
    bare(&s);
    /* red W at 1,1 with water on three sides: its last side is 1,2 */
    kontor__put(&s, C(1, 0), id(&s, 47));
    kontor__put(&s, C(0, 1), id(&s, 48));
    kontor__put(&s, C(2, 1), id(&s, 49));
    kontor__put(&s, C(1, 1), id(&s, 5));
    int nums[4] = {90 /* customs */, PASS, PASS, PASS};
    choose4(&s, nums);
    /* as water on 1,2 it would enclose the 5: not allowed */
    assert_false(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE_WATER, C(1, 2))));
    /* as a dock card there it joins the area and leaves it open */
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(1, 2))));
    act(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(1, 2)));
    assert_true(kt_in(&s, KONTOR_SET_CUSTOMS, C(1, 2)));
    assert_true(kt_in(&s, KONTOR_SET_DOCK, C(1, 2)));
    /* close the area with water: it is worth two points */
    int nums2[4] = {PASS, 38, PASS, PASS};
    choose4(&s, nums2);
    act(&s, 1, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(0, 2)));
    int nums3[4] = {PASS, 40, PASS, PASS};
    choose4(&s, nums3);
    act(&s, 1, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(2, 2)));
    int nums4[4] = {PASS, 52, PASS, PASS};
    choose4(&s, nums4);
    act(&s, 1, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(1, 3)));
    assert_int_equal(s.nareas, 1);
    assert_int_equal(s.area[0].size, 2);
    assert_int_equal(s.area[0].value, 2);
    assert_int_equal(s.area[0].winner, 0);
    int pts[2];
    kontor_points(&s, pts);
    assert_int_equal(pts[0], 2);
}

/* The same when the board's extent already reaches the customs house's cell
 * (water at 2,3 and -1,2): the card moves no edge, and the test looks only at
 * the areas next to it (would_enclose). As water on 1,2 it would enclose the
 * 5 at 1,1; as water on -1,1 it touches no area and is allowed. */
static void special_customs_house_never_encloses_inside_the_extent(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "four", NULL);
    bare(&s);
    kontor__put(&s, C(1, 0), id(&s, 47));
    kontor__put(&s, C(0, 1), id(&s, 48));
    kontor__put(&s, C(2, 1), id(&s, 49));
    kontor__put(&s, C(2, 3), id(&s, 50));
    kontor__put(&s, C(-1, 2), id(&s, 53));
    kontor__put(&s, C(1, 1), id(&s, 5));
    int nums[4] = {90 /* customs */, PASS, PASS, PASS};
    choose4(&s, nums);
    assert_false(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE_WATER, C(1, 2))));
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(1, 2))));
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE_WATER, C(-1, 1))));
    /* with water on 0,2, 2,2 and 1,3 too, a dock card at 1,2 closes the
     * area with the 5: the customs house may not go there at all */
    kontor_state t;
    setup(&t, "four", NULL);
    bare(&t);
    int water[10][3] = {{1, 0, 47}, {0, 1, 48}, {2, 1, 49}, {2, 3, 50}, {0, 2, 51},
                        {2, 2, 52}, {1, 3, 54}, {3, 1, 55}, {4, 2, 56}, {3, 3, 58}};
    for (int i = 0; i < 10; i++) kontor__put(&t, C(water[i][0], water[i][1]), id(&t, water[i][2]));
    kontor__put(&t, C(1, 1), id(&t, 5));
    choose4(&t, nums);
    assert_false(kontor_is_legal(&t, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(1, 2))));
    assert_false(kontor_is_legal(&t, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE_WATER, C(1, 2))));
    /* 3,2 is a pocket of water: as a dock card the customs house would be an
     * enclosed area of its own; as water it closes nothing */
    assert_false(kontor_is_legal(&t, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(3, 2))));
    assert_true(kontor_is_legal(&t, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE_WATER, C(3, 2))));
}

static void special_customs_house_as_dock_is_kept_off_by_opposing_cranes(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "four", NULL);
    bare(&s);
    kontor__put(&s, C(1, 0), id(&s, 8)); /* black crane */
    int nums[4] = {90, PASS, PASS, PASS};
    choose4(&s, nums);
    assert_false(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(2, 0))));
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE_WATER, C(2, 0))));
}

static void specials_for_two_buy_for_two_coins_before_the_round(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "specials", NULL);
    assert_int_equal(s.special_pile.n, 6);
    assert_int_equal(s.phase, KONTOR_PHASE_BUY);
    act(&s, 0, KONTOR_MOVE(KONTOR_MOVE_BUY, 1));
    act(&s, 1, KONTOR_MOVE(KONTOR_MOVE_BUY, 0));
    assert_int_equal(s.phase, kt_choice_phase(&s));
    assert_int_equal(s.coins[0], 2);
    assert_int_equal(s.treasury, 14);
    assert_int_equal(s.hand_n[0], 6);
    assert_int_equal(s.special_pile.n, 5);
    /* the bought card is hidden from black */
    kontor_view v;
    kontor_view_of(&s, 1, &v);
    assert_true(v.s.hand[0][5] >= KONTOR_UNKNOWN_BASE);
}

/* R20: "darf man Sonderkarten kaufen. Jede Karte kostet 2 Münzen" -- as
 * many as the coins pay for, in one hidden decision. Red (4 coins) buys two;
 * three would cost 6. */
static void ruling_R20_a_player_may_buy_several_special_cards_a_round(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "specials", NULL);
    assert_int_equal(s.phase, KONTOR_PHASE_BUY);
    kontor_move m[KONTOR_MAX_MOVES];
    assert_int_equal(kontor_legal(&s, 0, m), 3); /* none, one, two */
    assert_int_equal(m[2], KONTOR_MOVE(KONTOR_MOVE_BUY, 2));
    char why[160];
    assert_false(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_BUY, 3)));
    kontor_why_illegal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_BUY, 3), why, sizeof why);
    assert_string_equal(why, "red may buy at most 2 special cards now (2 coins each, 6 left, room in the hand)");
    act(&s, 0, KONTOR_MOVE(KONTOR_MOVE_BUY, 2));
    act(&s, 1, KONTOR_MOVE(KONTOR_MOVE_BUY, 0));
    assert_int_equal(s.phase, kt_choice_phase(&s));
    assert_int_equal(s.coins[0], 0);
    assert_int_equal(s.treasury, 16);
    assert_int_equal(s.hand_n[0], 7);
    assert_int_equal(s.special_pile.n, 4);
    kontor_move_text(&s, 0, KONTOR_MOVE(KONTOR_MOVE_BUY, 2), why, sizeof why);
    assert_string_equal(why, "buy 2 special cards (4 coins)");
}

/* R20, a short pile: "Wollen beide kaufen und es sind nicht mehr genügend
 * Sonderkarten da, darf der Spieler kaufen, der die höchste Karte aus seiner
 * Hand vorweist". Three cards left, both want two: black shows the tavern 86
 * (higher than any card of red's) and buys his two first; red gets the one
 * left. */
static void ruling_R20_a_short_pile_goes_first_to_the_higher_hand_card(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "specials", NULL);
    s.special_pile.n = 3;
    give(&s, 1, 86);
    for (int i = 0; i < s.hand_n[0]; i++) assert_true(s.cfg->cards->card[s.hand[0][i]].number < 86);
    act(&s, 0, KONTOR_MOVE(KONTOR_MOVE_BUY, 2));
    act(&s, 1, KONTOR_MOVE(KONTOR_MOVE_BUY, 2));
    assert_int_equal(s.coins[1], 0);
    assert_int_equal(s.coins[0], 2);
    assert_int_equal(s.hand_n[1], 7);
    assert_int_equal(s.hand_n[0], 6);
    assert_int_equal(s.special_pile.n, 0);
}

static void specials_for_two_the_last_card_goes_to_the_higher_hand_card(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "specials", NULL);
    s.special_pile.n = 1;
    give(&s, 1, 86); /* black shows the tavern 86 */
    give(&s, 0, 1);
    int red_best = 0;
    for (int i = 0; i < s.hand_n[0]; i++)
        if (s.cfg->cards->card[s.hand[0][i]].number > red_best) red_best = s.cfg->cards->card[s.hand[0][i]].number;
    act(&s, 0, KONTOR_MOVE(KONTOR_MOVE_BUY, 1));
    act(&s, 1, KONTOR_MOVE(KONTOR_MOVE_BUY, 1));
    int winner = red_best > 86 ? 0 : 1;
    assert_int_equal(s.coins[winner], 2);
    assert_int_equal(s.coins[1 - winner], 4);
    assert_int_equal(s.special_pile.n, 0);
}

static void four_random_games_end_and_replay_deterministically(void **st) {
    (void)st;
    kontor_config cfg;
    kontor_config_init(&cfg, "four", NULL);
    for (int g = 0; g < 300; g++) {
        kontor_state a, b;
        kontor_rng r1, r2;
        kontor_new(&a, &cfg, (uint64_t)g, NULL);
        b = a;
        kontor_rng_seed(&r1, (uint64_t)g);
        kontor_rng_seed(&r2, (uint64_t)g);
        kontor_playout(&a, &r1);
        kontor_playout(&b, &r2);
        assert_true(kontor_over(&a));
        assert_memory_equal(&a, &b, sizeof a);
        int coins = a.treasury;
        for (int p = 0; p < 4; p++) coins += a.coins[p];
        assert_int_equal(coins, 20);
    }
}

/* Random games of the game for four and of the special cards for two are
 * written as records, read back to the same text, and replay to the same
 * state. */
static void records_of_four_and_specials_round_trip_and_replay(void **st) {
    (void)st;
    const char *variants[2] = {"four", "specials"};
    for (int v = 0; v < 2; v++) {
        kontor_config cfg;
        kontor_config_init(&cfg, variants[v], NULL);
        for (int g = 0; g < 60; g++) {
            kontor_deal d;
            kontor_state s, again;
            kontor_rng rng;
            kontor_record rec, back;
            kontor_error err;
            kontor_deal_shuffle(&d, &cfg, (uint64_t)g);
            assert_int_equal(kontor_new_from_deal(&s, &cfg, &d, NULL), KONTOR_OK);
            kontor_record_init(&rec, &cfg, &d);
            kontor_rng_seed(&rng, (uint64_t)g + 7);
            while (!kontor_over(&s)) {
                unsigned a = kontor_actors(&s);
                int seat = __builtin_ctz(a);
                /* buys and choices in seat order, as a record writes them */
                kontor_move m[KONTOR_MAX_MOVES];
                int n = kontor_legal(&s, seat, m);
                kontor_move pick = m[kontor_rng_below(&rng, (uint32_t)n)];
                assert_int_equal(kontor_apply(&s, seat, pick, NULL), KONTOR_OK);
                assert_int_equal(kontor_record_push(&rec, seat, pick), KONTOR_OK);
            }
            kontor_record_set_result(&rec, &s);
            char *t1, *t2;
            size_t n1, n2;
            assert_int_equal(kontor_record_write(&rec, &t1, &n1), KONTOR_OK);
            if (kontor_record_parse(&back, t1, n1, &err)) fail_msg("%s\n%s", err.msg, t1);
            assert_int_equal(kontor_record_write(&back, &t2, &n2), KONTOR_OK);
            assert_int_equal(n1, n2);
            assert_memory_equal(t1, t2, n1);
            if (kontor_record_replay(&back, -1, &again, NULL, NULL, &err)) fail_msg("%s", err.msg);
            assert_memory_equal(&s, &again, sizeof s);
            free(t1);
            free(t2);
            kontor_record_release(&rec);
            kontor_record_release(&back);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(four_setup_two_teams_each_with_own_piles_coins_and_a_special_card),
        cmocka_unit_test(four_taxes_per_opposing_pair),
        cmocka_unit_test(four_partners_may_not_pay_for_each_other),
        cmocka_unit_test(four_views_hide_the_partners_hand_too),
        cmocka_unit_test(four_the_remover_chooses_which_opponent_takes_the_card),
        cmocka_unit_test(four_only_areas_of_two_dock_cards_count),
        cmocka_unit_test(special_flood_covers_a_bridge_or_a_one_good_dock_card_and_is_water),
        cmocka_unit_test(special_bridge_covers_water_joins_areas_and_counts_as_dock),
        cmocka_unit_test(special_bridge_never_joins_an_enclosed_area),
        cmocka_unit_test(special_customs_house_as_water_or_dock_never_encloses_and_adds_a_point),
        cmocka_unit_test(special_customs_house_never_encloses_inside_the_extent),
        cmocka_unit_test(special_customs_house_as_dock_is_kept_off_by_opposing_cranes),
        cmocka_unit_test(specials_for_two_buy_for_two_coins_before_the_round),
        cmocka_unit_test(specials_for_two_the_last_card_goes_to_the_higher_hand_card),
        cmocka_unit_test(ruling_R20_a_player_may_buy_several_special_cards_a_round),
        cmocka_unit_test(ruling_R20_a_short_pile_goes_first_to_the_higher_hand_card),
        cmocka_unit_test(four_random_games_end_and_replay_deterministically),
        cmocka_unit_test(records_of_four_and_specials_round_trip_and_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
