/* test_rules.c: one test per rule of the two-player game and per ruling of
 * docs/rules.md (R1..R13), and the rulebook's own examples.
 *
 * Positions come about through the real interface (choose, place) wherever a
 * few rounds reach them; the rulebook's figures, which no short game reaches,
 * are laid by hand with the hooks of core/internal.h. */
#include "testutil.h"

#include <stdio.h>

#include "core/internal.h"

#define PASS (-1)

static int bb_test_cell(const kontor_bb *b, int c) { return (int)((b->w[c >> 6] >> (c & 63)) & 1); }

static void setup(kontor_state *s, const char *variant, const char *opts) {
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, variant, &err), KONTOR_OK);
    if (opts) assert_int_equal(kontor_config_options(&cfg, opts, &err), KONTOR_OK);
    assert_int_equal(kontor_new(s, &cfg, 7, &err), KONTOR_OK);
}

static int id(const kontor_state *s, int number) {
    int i = kontor__card_id(s, number);
    assert_true(i >= 0);
    return i;
}

static int C(int dx, int dy) { return kontor_cell(dx, dy); }

/* Make sure card number n is in seat's hand, swapping it with a hand card of
 * the same kind wherever it is (a pile or the other hand), so that every card
 * stays somewhere exactly once. */
static void give(kontor_state *s, int seat, int n) {
    int c = id(s, n);
    for (int i = 0; i < s->hand_n[seat]; i++)
        if (s->hand[seat][i] == c) return;
    int water = kontor_card_is_water(&s->cfg.cards->card[c]);
    int slot = -1;
    for (int i = 0; i < s->hand_n[seat]; i++)
        if (kontor_card_is_water(&s->cfg.cards->card[s->hand[seat][i]]) == water) slot = i;
    assert_true(slot >= 0);
    uint8_t *where = NULL;
    for (int q = 0; q < 2 && !where; q++)
        for (int i = 0; i < s->hand_n[q]; i++)
            if (s->hand[q][i] == c) where = &s->hand[q][i];
    kontor_pile *piles[3] = {&s->dock_pile[0], &s->dock_pile[1], &s->water_pile};
    for (int k = 0; k < 3 && !where; k++)
        for (int i = 0; i < piles[k]->n; i++) {
            uint8_t *p = &piles[k]->card[(piles[k]->head + i) & (KONTOR_PILE_MAX - 1)];
            if (*p == c) where = p;
        }
    if (!where) fail_msg("card %d is on the board, cannot give it", n);
    *where = s->hand[seat][slot];
    s->hand[seat][slot] = (uint8_t)c;
}

static kontor_move choice(const kontor_state *s, int n) {
    return KONTOR_MOVE(KONTOR_MOVE_CHOOSE, n == PASS ? KONTOR_PASS : id(s, n));
}

/* Both seats choose (a card number or PASS). */
static void choose(kontor_state *s, int red, int black, kontor_log *log) {
    if (red != PASS) give(s, 0, red);
    if (black != PASS) give(s, 1, black);
    int pick[2] = {KONTOR_MOVE_VALUE(choice(s, red)), KONTOR_MOVE_VALUE(choice(s, black))};
    assert_int_equal(kt_choose_all(s, pick, log), KONTOR_OK);
}

static void place(kontor_state *s, int seat, int cell, kontor_log *log) {
    char why[128];
    kontor_move m = KONTOR_MOVE(KONTOR_MOVE_PLACE, cell);
    if (!kontor_is_legal(s, seat, m)) fail_msg("place: %s", kontor_why_illegal(s, seat, m, why, sizeof why));
    assert_int_equal(kontor_apply(s, seat, m, log), KONTOR_OK);
}

static int in_hand(const kontor_state *s, int seat, int n) {
    int c = kontor__card_id(s, n);
    for (int i = 0; i < s->hand_n[seat]; i++)
        if (s->hand[seat][i] == c) return 1;
    return 0;
}

static int has_event(const kontor_log *log, int kind, int seat) {
    for (int i = 0; i < log->n; i++)
        if (log->ev[i].kind == kind && (seat < 0 || log->ev[i].seat == seat)) return 1;
    return 0;
}

static int legal_count(const kontor_state *s, int seat) {
    kontor_move m[KONTOR_MAX_MOVES];
    return kontor_legal(s, seat, m);
}

static void expect_why(const kontor_state *s, int seat, kontor_move m, const char *part) {
    char why[160];
    assert_false(kontor_is_legal(s, seat, m));
    kontor_why_illegal(s, seat, m, why, sizeof why);
    if (!strstr(why, part)) fail_msg("expected '%s' in '%s'", part, why);
}

/* An empty board with only the harbour centre. */
static void bare(kontor_state *s) {
    kontor__clear_board(s);
    kontor__put(s, KONTOR_CENTRE_CELL, s->cfg.cards->centre);
}

/* ---- set-up -------------------------------------------------------------------- */

static void setup_lays_centre_and_cross_from_the_top_of_the_water_pile(void **st) {
    (void)st;
    kontor_config cfg;
    kontor_deal d;
    kontor_state s;
    kontor_config_init(&cfg, "basic", NULL);
    kontor_deal_shuffle(&d, &cfg, 11);
    assert_int_equal(kontor_new_from_deal(&s, &cfg, &d, NULL), KONTOR_OK);
    assert_int_equal(s.cell_card[C(0, 0)], cfg.cards->centre);
    /* R13: N1 N2 E1 E2 S1 S2 W1 W2 */
    int cells[8] = {C(0, -1), C(0, -2), C(1, 0), C(2, 0), C(0, 1), C(0, 2), C(-1, 0), C(-2, 0)};
    for (int i = 0; i < 8; i++) assert_int_equal(s.cell_card[cells[i]], d.water[i]);
    assert_int_equal(s.ncards_board, 9);
    /* hands: 3 dock cards from the top of the own pile, then 2 water cards;
     * red takes water 9 and 10 of the pile, black 11 and 12 */
    for (int p = 0; p < 2; p++) {
        assert_int_equal(s.hand_n[p], 5);
        for (int i = 0; i < 3; i++) assert_int_equal(s.hand[p][i], d.dock[p][i]);
        assert_int_equal(s.hand[p][3], d.water[8 + 2 * p]);
        assert_int_equal(s.hand[p][4], d.water[9 + 2 * p]);
        assert_int_equal(s.dock_pile[p].n, 19);
        assert_int_equal(s.dock_pile[p].card[s.dock_pile[p].head], d.dock[p][3]);
    }
    assert_int_equal(s.water_pile.n, 43 - 12);
    assert_int_equal(s.coins[0], 4);
    assert_int_equal(s.coins[1], 4);
    assert_int_equal(s.treasury, 12);
    assert_int_equal(s.ship_cell, KONTOR_NONE);
    assert_int_equal(s.phase, kt_choice_phase(&s));
    assert_int_equal(kontor_actors(&s), 3u);
}

static void setup_advanced_puts_the_ship_on_the_centre(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "advanced", NULL);
    assert_int_equal(s.ship_cell, C(0, 0));
    assert_int_equal(s.cfg.width, 7);
    assert_int_equal(s.cfg.largest, 5);
}

static void setup_rejects_a_deal_that_is_not_a_permutation(void **st) {
    (void)st;
    kontor_config cfg;
    kontor_deal d;
    kontor_state s;
    kontor_error err;
    kontor_config_init(&cfg, "basic", NULL);
    kontor_deal_shuffle(&d, &cfg, 3);
    d.dock[0][5] = d.dock[0][6];
    assert_int_equal(kontor_new_from_deal(&s, &cfg, &d, &err), KONTOR_E_INVALID);
    assert_non_null(strstr(err.msg, "permutation"));
}

/* Each card of a deal is checked for its class, for being in play and for
 * being dealt once, pile by pile, and the first fault names its pile
 * (deal.c checks with bit sets since issue 17: these pin each message). */
static const char *deal_fault(const char *variant, void (*spoil)(kontor_deal *d, const kontor_config *cfg)) {
    static kontor_error err;
    static kontor_state s;
    kontor_config cfg;
    kontor_deal d;
    assert_int_equal(kontor_config_init(&cfg, variant, NULL), KONTOR_OK);
    kontor_deal_shuffle(&d, &cfg, 5);
    assert_int_equal(kontor_new_from_deal(&s, &cfg, &d, &err), KONTOR_OK);
    spoil(&d, &cfg);
    assert_int_equal(kontor_new_from_deal(&s, &cfg, &d, &err), KONTOR_E_INVALID);
    return err.msg;
}
static void water_twice(kontor_deal *d, const kontor_config *c) { (void)c, d->water[7] = d->water[3]; }
static void dock_in_water(kontor_deal *d, const kontor_config *c) { (void)c, d->water[0] = d->dock[0][0]; }
static void no_card_in_water(kontor_deal *d, const kontor_config *c) { d->water[9] = (uint8_t)c->cards->ncards; }
static void water_short(kontor_deal *d, const kontor_config *c) { (void)c, d->nwater--; }
static void black_in_red(kontor_deal *d, const kontor_config *c) { (void)c, d->dock[0][4] = d->dock[1][4]; }
static void water_in_black(kontor_deal *d, const kontor_config *c) { (void)c, d->dock[1][2] = d->water[5]; }
static void dock_short(kontor_deal *d, const kontor_config *c) { (void)c, d->ndock[1]--; }
static void special_twice(kontor_deal *d, const kontor_config *c) { (void)c, d->special[1] = d->special[0]; }
static void water_as_special(kontor_deal *d, const kontor_config *c) { (void)c, d->special[0] = d->water[0]; }

static void setup_checks_each_card_of_the_deal(void **st) {
    (void)st;
    assert_string_equal(deal_fault("basic", water_twice), "deal: the water pile is not a permutation of the water cards");
    assert_string_equal(deal_fault("basic", dock_in_water), "deal: the water pile is not a permutation of the water cards");
    assert_string_equal(deal_fault("basic", no_card_in_water), "deal: the water pile is not a permutation of the water cards");
    assert_string_equal(deal_fault("basic", water_short), "deal: the water pile does not hold every water card");
    assert_string_equal(deal_fault("basic", black_in_red), "deal: a dock pile is not a permutation of its colour's cards");
    assert_string_equal(deal_fault("basic", water_in_black), "deal: a dock pile is not a permutation of its colour's cards");
    assert_string_equal(deal_fault("basic", dock_short), "deal: the dock piles do not hold every dock card");
    assert_string_equal(deal_fault("specials", special_twice),
                        "deal: the special cards are not a permutation of the special cards");
    assert_string_equal(deal_fault("specials", water_as_special),
                        "deal: the special cards are not a permutation of the special cards");
}

static void same_seed_same_game(void **st) {
    (void)st;
    kontor_state a, b;
    kontor_rng r1, r2;
    setup(&a, "advanced", NULL);
    setup(&b, "advanced", NULL);
    assert_memory_equal(&a, &b, sizeof a);
    kontor_rng_seed(&r1, 99);
    kontor_rng_seed(&r2, 99);
    kontor_playout(&a, &r1);
    kontor_playout(&b, &r2);
    assert_memory_equal(&a, &b, sizeof a);
}

/* ---- taxes and passes ------------------------------------------------------------ */

static void tax_coin_symbol_makes_the_opponent_pay_the_treasury(void **st) {
    (void)st;
    kontor_state s;
    kontor_log log = {0};
    setup(&s, "basic", NULL);
    choose(&s, 1 /* S, coin */, 6 /* W */, &log);
    assert_int_equal(s.coins[0], 4);
    assert_int_equal(s.coins[1], 3);
    assert_int_equal(s.treasury, 13);
    assert_true(has_event(&log, KONTOR_EV_TAX, 1));
}

static void tax_who_cannot_pay_takes_the_card_back_and_loses_the_round(void **st) {
    (void)st;
    kontor_state s;
    kontor_log log = {0};
    setup(&s, "basic", NULL);
    s.treasury = (uint8_t)(s.treasury + s.coins[1]);
    s.coins[1] = 0;
    choose(&s, 1, 6, &log);
    assert_true(in_hand(&s, 1, 6));
    assert_int_equal(s.norder, 1);
    assert_int_equal(s.order[0], 0);
    assert_true(has_event(&log, KONTOR_EV_TAKEBACK, 1));
    assert_int_equal(s.coins[0], 4);
}

static void tax_a_card_taken_back_imposes_no_tax(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    s.treasury = (uint8_t)(s.treasury + s.coins[0]);
    s.coins[0] = 0;
    choose(&s, 1 /* coin */, 2 /* coin */, NULL);
    /* red cannot pay for black's 2 and takes the 1 back; so black owes nothing */
    assert_true(in_hand(&s, 0, 1));
    assert_int_equal(s.coins[1], 4);
    assert_int_equal(s.norder, 1);
    assert_int_equal(s.order[0], 1);
}

static void tax_both_broke_both_sit_out_and_take_a_coin(void **st) {
    (void)st;
    kontor_state s;
    kontor_log log = {0};
    setup(&s, "basic", NULL);
    s.treasury = 20;
    s.coins[0] = s.coins[1] = 0;
    choose(&s, 1, 2, &log);
    assert_int_equal(s.coins[0], 1);
    assert_int_equal(s.coins[1], 1);
    assert_int_equal(s.treasury, 18);
    assert_true(in_hand(&s, 0, 1));
    assert_true(in_hand(&s, 1, 2));
    assert_int_equal(s.round, 2);
    assert_int_equal(s.phase, kt_choice_phase(&s));
    assert_true(has_event(&log, KONTOR_EV_SITOUT, 0));
}

static void pass_earns_a_coin_and_pays_no_tax(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    choose(&s, PASS, 2 /* coin */, NULL);
    assert_int_equal(s.coins[0], 5);
    assert_int_equal(s.treasury, 11);
    assert_int_equal(s.hand_n[0], 5);
    assert_int_equal(s.norder, 1);
}

/* R1: "gleich zu Anfang einer Aktionsrunde, noch bevor Karten gespielt werden
 * erklären, daß man auf das Ausspielen einer Karte verzichtet. Dann bekommt
 * man 1 Münze" -- the declarations are simultaneous and hidden until all are
 * made; the passer is paid at once; the other chooses his card knowing it. */
static void ruling_R1_a_pass_is_declared_before_the_cards_and_paid_at_once(void **st) {
    (void)st;
    kontor_state s;
    kontor_view v;
    setup(&s, "basic", NULL);
    give(&s, 1, 2);
    assert_int_equal(s.phase, KONTOR_PHASE_DECLARE);
    assert_int_equal(kontor_actors(&s), 3u);
    assert_int_equal(legal_count(&s, 0), 2); /* play or pass, no card yet */
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, s.hand[0][0]), "declare whether to pass");
    assert_int_equal(kontor_apply(&s, 0, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PASS), NULL), KONTOR_OK);
    /* hidden until black has declared too: no coin yet, black cannot see it */
    assert_int_equal(s.coins[0], 4);
    kontor_view_of(&s, 1, &v);
    assert_int_equal(v.s.choice[0], KONTOR_HIDDEN);
    kontor_log log = {0};
    assert_int_equal(kontor_apply(&s, 1, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY), &log), KONTOR_OK);
    /* revealed together: red takes his coin at once, before any card */
    assert_true(has_event(&log, KONTOR_EV_PASS, 0));
    assert_int_equal(s.coins[0], 5);
    assert_int_equal(s.treasury, 11);
    assert_int_equal(s.phase, KONTOR_PHASE_CHOOSE);
    assert_int_equal(kontor_actors(&s), 2u);
    kontor_view_of(&s, 1, &v);
    assert_int_equal(v.s.choice[0], KONTOR_PASS); /* black chooses knowing red passed */
    /* black declared to play: he chooses a card and may not pass now */
    assert_int_equal(legal_count(&s, 1), 5);
    expect_why(&s, 1, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, KONTOR_PASS), "declared to play");
    assert_int_equal(kontor_apply(&s, 1, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, id(&s, 2)), NULL), KONTOR_OK);
    assert_int_equal(s.coins[0], 5); /* 2 shows a coin; red passed and pays no tax */
    assert_int_equal(s.norder, 1);
    assert_int_equal(s.order[0], 1);
}

static void ruling_R1_when_all_declare_a_pass_the_round_ends(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    assert_int_equal(kontor_apply(&s, 0, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PASS), NULL), KONTOR_OK);
    assert_int_equal(kontor_apply(&s, 1, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PASS), NULL), KONTOR_OK);
    assert_int_equal(s.coins[0], 5);
    assert_int_equal(s.coins[1], 5);
    assert_int_equal(s.round, 2);
    assert_int_equal(s.phase, KONTOR_PHASE_DECLARE);
    /* a seat with no card in hand can only pass */
    s.hand_n[0] = 0;
    assert_int_equal(legal_count(&s, 0), 1);
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY), "no card in hand");
}

static void ruling_R1_option_declare_hidden_makes_the_pass_a_hidden_choice(void **st) {
    (void)st;
    kontor_state s;
    kontor_view v;
    setup(&s, "basic", "declare=hidden");
    give(&s, 1, 2);
    assert_int_equal(s.phase, KONTOR_PHASE_CHOOSE);
    assert_int_equal(legal_count(&s, 0), 6); /* five cards or a pass */
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PASS), "choose a card");
    assert_int_equal(kontor_apply(&s, 0, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, KONTOR_PASS), NULL), KONTOR_OK);
    kontor_view_of(&s, 1, &v);
    assert_int_equal(v.s.choice[0], KONTOR_HIDDEN); /* black chooses not knowing */
    assert_int_equal(legal_count(&s, 1), 6);
    assert_int_equal(s.coins[0], 4);
    assert_int_equal(kontor_apply(&s, 1, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, id(&s, 2)), NULL), KONTOR_OK);
    assert_int_equal(s.coins[0], 5); /* paid at the reveal */
    assert_int_equal(s.norder, 1);
}

/* R2: the rulebook sets no limit to passing; the limit after a double pass is
 * the translator's bracketed house rule ("Suggested house rule ... - DO'D"),
 * kept as pass=rest. */
static void ruling_R2_passing_is_allowed_after_a_double_pass(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    choose(&s, PASS, PASS, NULL);
    assert_int_equal(s.round, 2);
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PASS)));
    assert_int_equal(legal_count(&s, 0), 2);
    choose(&s, PASS, PASS, NULL);
    assert_int_equal(s.round, 3);
    assert_int_equal(s.coins[0], 6);
}

static void ruling_R2_option_pass_rest_forbids_passing_after_a_double_pass(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", "pass=rest");
    choose(&s, PASS, PASS, NULL);
    assert_int_equal(s.coins[0], 5);
    assert_int_equal(s.coins[1], 5);
    assert_int_equal(s.round, 2);
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PASS), "all passed");
    assert_int_equal(legal_count(&s, 1), 1); /* only "play" */
    /* the round after that, passing is allowed again */
    choose(&s, 38, 40, NULL);
    place(&s, 1, C(1, 1), NULL);
    place(&s, 0, C(-1, 1), NULL);
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PASS)));
    /* the same with the pass as a hidden choice */
    setup(&s, "basic", "pass=rest,declare=hidden");
    choose(&s, PASS, PASS, NULL);
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, KONTOR_PASS), "all passed");
    assert_int_equal(legal_count(&s, 1), 5);
}

static void ruling_R12_one_coin_for_two_goes_to_the_poorer(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    s.treasury = 1;
    s.coins[0] = 5;
    s.coins[1] = 14;
    choose(&s, PASS, PASS, NULL);
    assert_int_equal(s.coins[0], 6);
    assert_int_equal(s.coins[1], 14);
    assert_int_equal(s.treasury, 0);
    /* equally poor and one coin: nobody */
    setup(&s, "basic", "total_coins=21");
    s.treasury = 1;
    s.coins[0] = s.coins[1] = 10;
    choose(&s, PASS, PASS, NULL);
    assert_int_equal(s.coins[0], 10);
    assert_int_equal(s.coins[1], 10);
    assert_int_equal(s.treasury, 1);
}

static void the_higher_number_goes_first(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    choose(&s, 5, 2, NULL);
    assert_int_equal(s.order[0], 0);
    assert_int_equal(s.order[1], 1);
    assert_int_equal(kontor_current(&s), 0);
    setup(&s, "basic", NULL);
    choose(&s, 87 /* red's tavern */, 86 /* black's tavern */, NULL);
    assert_int_equal(kontor_current(&s), 0);
    setup(&s, "basic", NULL);
    choose(&s, 38 /* water */, 86, NULL);
    assert_int_equal(kontor_current(&s), 1);
    /* the second player may not act first */
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(1, 1)), "turn");
}

/* ---- placing ------------------------------------------------------------------------ */

static void placement_example_two_cards_leave_six_cells_a_to_f(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    bare(&s);
    kontor__put(&s, C(1, 0), id(&s, 47));
    choose(&s, 38, PASS, NULL);
    kontor_move m[KONTOR_MAX_MOVES];
    int n = kontor_legal(&s, 0, m);
    assert_int_equal(n, 6);
    int want[6] = {C(-1, 0), C(2, 0), C(0, -1), C(1, -1), C(0, 1), C(1, 1)};
    for (int i = 0; i < 6; i++) assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, want[i])));
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(2, 1)), "diagonal");
}

static void placement_must_touch_a_card_orthogonally_and_never_stack(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    choose(&s, 5, PASS, NULL);
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(3, 1)), "does not touch");
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(1, 0)), "already holds");
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(3, 0))));
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(1, 1))));
}

static void board_extent_is_fixed_once_a_direction_reaches_six(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    choose(&s, 38, PASS, NULL);
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(-3, 0))));
    place(&s, 0, C(3, 0), NULL);
    choose(&s, 40, PASS, NULL);
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(-3, 0)), "outside the 6x6 board");
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(4, 0)), "outside");
    /* the other direction is still open */
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(0, 3))));
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(0, -3))));
}

static void advanced_board_is_seven_by_seven(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "advanced", NULL);
    kontor__put(&s, C(3, 0), id(&s, 47));
    choose(&s, 38, PASS, NULL);
    if (s.phase == KONTOR_PHASE_SHIP) kontor_apply(&s, 0, KONTOR_MOVE(KONTOR_MOVE_SHIP, KONTOR_NONE), NULL);
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(-3, 0))));
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(4, 0))));
    place(&s, 0, C(4, 0), NULL);
    choose(&s, 40, PASS, NULL);
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(-3, 0)), "outside the 7x7 board");
}

static void crane_keeps_the_free_cells_next_to_it_clear_of_opposing_dock_cards(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    bare(&s);
    kontor__put(&s, C(1, 0), id(&s, 7)); /* red crane */
    /* black's dock card: not next to the crane */
    choose(&s, PASS, 6, NULL);
    expect_why(&s, 1, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(2, 0)), "crane");
    expect_why(&s, 1, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(1, 1)), "crane");
    expect_why(&s, 1, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(1, -1)), "crane");
    assert_true(kontor_is_legal(&s, 1, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(0, 1))));
    assert_true(kontor_is_legal(&s, 1, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(-1, 0))));
    place(&s, 1, C(0, 1), NULL);
    /* black's water card may go there */
    choose(&s, PASS, 40, NULL);
    assert_true(kontor_is_legal(&s, 1, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(2, 0))));
    place(&s, 1, C(-1, 0), NULL);
    /* red's own dock card may go there */
    choose(&s, 5, PASS, NULL);
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(2, 0))));
}

static void crane_two_opposing_cranes_leave_only_water(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    bare(&s);
    kontor__put(&s, C(1, 0), id(&s, 7)); /* red crane */
    kontor__put(&s, C(3, 0), id(&s, 8)); /* black crane */
    kontor__put(&s, C(2, -1), id(&s, 47));
    choose(&s, 5, PASS, NULL);
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(2, 0)), "black's crane");
    place(&s, 0, C(-1, 0), NULL);
    choose(&s, PASS, 6, NULL);
    expect_why(&s, 1, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(2, 0)), "red's crane");
    place(&s, 1, C(0, 1), NULL);
    choose(&s, 38, PASS, NULL);
    place(&s, 0, C(2, 0), NULL);
}

static void ruling_R3_a_card_with_no_legal_cell_goes_back_to_the_hand(void **st) {
    (void)st;
    kontor_state s;
    kontor_log log = {0};
    setup(&s, "basic", "width=3,height=3");
    bare(&s);
    kontor__put(&s, C(1, 0), id(&s, 8));  /* black cranes left and right */
    kontor__put(&s, C(-1, 0), id(&s, 44));
    kontor__put(&s, C(0, 1), id(&s, 47)); /* water above and below: 3x3 fixed */
    kontor__put(&s, C(0, -1), id(&s, 48));
    choose(&s, 5, PASS, &log);
    assert_true(in_hand(&s, 0, 5));
    assert_int_equal(s.hand_n[0], 5);
    assert_int_equal(s.phase, kt_choice_phase(&s));
    assert_int_equal(s.round, 2);
    int found = 0;
    for (int i = 0; i < log.n; i++)
        if (log.ev[i].kind == KONTOR_EV_TAKEBACK && log.ev[i].a == KONTOR_TAKEBACK_NOCELL) found = 1;
    assert_true(found);
}

static void ruling_R4_placing_is_compulsory_unless_optional_place(void **st) {
    (void)st;
    kontor_state s;
    kontor_log log = {0};
    setup(&s, "basic", NULL);
    choose(&s, 5, PASS, NULL);
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, KONTOR_NONE), "must place");
    setup(&s, "basic", "optional_place=1");
    choose(&s, 5, PASS, NULL);
    assert_int_equal(kontor_apply(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, KONTOR_NONE), &log), KONTOR_OK);
    assert_true(in_hand(&s, 0, 5));
    assert_int_equal(s.round, 2);
}

/* ---- areas, warehouses, scoring ------------------------------------------------------- */

static void warehouses_count_per_area_and_player_and_areas_merge(void **st) {
    (void)st;
    kontor_state s;
    uint8_t g[2][3];
    setup(&s, "basic", NULL);
    bare(&s);
    kontor__put(&s, C(1, 1), id(&s, 3));  /* red TWS */
    kontor__put(&s, C(3, 1), id(&s, 9));  /* red T */
    assert_int_equal(kontor_area_at(&s, C(1, 1), NULL, g), 1);
    assert_int_equal(g[0][KONTOR_TEA], 1);
    assert_int_equal(kontor_area_at(&s, C(3, 1), NULL, g), 1);
    kontor__put(&s, C(2, 1), id(&s, 6));  /* black W joins them */
    assert_int_equal(kontor_area_at(&s, C(3, 1), NULL, g), 3);
    assert_int_equal(g[0][KONTOR_TEA], 2);
    assert_int_equal(g[0][KONTOR_WINE], 1);
    assert_int_equal(g[0][KONTOR_SPICE], 1);
    assert_int_equal(g[1][KONTOR_WINE], 1);
    assert_int_equal(g[1][KONTOR_TEA], 0);
}

static void an_area_enclosed_by_water_is_scored_at_once(void **st) {
    (void)st;
    kontor_state s;
    kontor_log log = {0};
    setup(&s, "basic", NULL);
    /* the corner cell 1,1 touches the cross at 1,0 and 0,1 */
    choose(&s, 5 /* W */, PASS, NULL);
    place(&s, 0, C(1, 1), NULL);
    choose(&s, PASS, 38, NULL);
    place(&s, 1, C(2, 1), NULL);
    assert_int_equal(s.nareas, 0);
    choose(&s, PASS, 40, &log);
    place(&s, 1, C(1, 2), &log);
    assert_int_equal(s.nareas, 1);
    assert_int_equal(s.area[0].winner, 0);
    assert_int_equal(s.area[0].keeper, 1);
    assert_int_equal(s.area[0].size, 1);
    assert_int_equal(s.area[0].goods[0][KONTOR_WINE], 1);
    assert_int_equal(s.keepers[0], 1);
    assert_true(has_event(&log, KONTOR_EV_SCORE, 0));
    assert_true(bb_test_cell(&s.enclosed, C(1, 1)));
}

/* The card that closes an area may be the dock card itself, laid in a pocket
 * of water: its own area (one card) is scored at once. */
static void a_dock_card_laid_into_a_pocket_of_water_is_scored_at_once(void **st) {
    (void)st;
    kontor_state s;
    kontor_log log = {0};
    setup(&s, "basic", NULL);
    choose(&s, PASS, 38, NULL);
    place(&s, 1, C(2, 1), NULL);
    choose(&s, PASS, 40, NULL);
    place(&s, 1, C(1, 2), NULL);
    assert_int_equal(s.nareas, 0);
    /* 1,1: water at 1,0 and 0,1 (the cross), 2,1 and 1,2 */
    choose(&s, 5 /* W */, PASS, &log);
    place(&s, 0, C(1, 1), &log);
    assert_int_equal(s.nareas, 1);
    assert_int_equal(s.area[0].size, 1);
    assert_int_equal(s.area[0].winner, 0);
    assert_true(has_event(&log, KONTOR_EV_SCORE, 0));
    assert_true(bb_test_cell(&s.enclosed, C(1, 1)));
}

static void an_area_without_warehouses_is_not_scored(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    choose(&s, 7 /* crane: no goods */, PASS, NULL);
    place(&s, 0, C(1, 1), NULL);
    choose(&s, PASS, 38, NULL);
    place(&s, 1, C(2, 1), NULL);
    choose(&s, PASS, 40, NULL);
    place(&s, 1, C(1, 2), NULL);
    assert_int_equal(s.nareas, 1);
    assert_int_equal(s.area[0].winner, KONTOR_NONE);
    assert_int_equal(s.keepers[0] + s.keepers[1], 0);
}

static void ruling_R7_a_fixed_edge_encloses_at_once_or_with_edge_both_only_when_both_are_fixed(void **st) {
    (void)st;
    for (int both = 0; both < 2; both++) {
        kontor_state s;
        setup(&s, "basic", both ? "edge=both" : NULL);
        bare(&s);
        for (int x = -2; x <= 3; x++)
            if (x) kontor__put(&s, C(x, 0), id(&s, 47 + x + 2)); /* width 6: x -2..3 fixed */
        kontor__put(&s, C(3, 1), id(&s, 5));                   /* red W on the east edge */
        kontor__put(&s, C(2, 1), id(&s, 60));
        kontor__put(&s, C(3, 2), id(&s, 61));
        kontor__score_enclosed(&s, NULL);
        assert_int_equal(s.nareas, both ? 0 : 1);
        /* fix the height too: y -2..3 */
        kontor__put(&s, C(0, -1), id(&s, 62));
        kontor__put(&s, C(0, -2), id(&s, 63));
        kontor__put(&s, C(0, 1), id(&s, 64));
        kontor__put(&s, C(0, 2), id(&s, 65));
        kontor__put(&s, C(0, 3), id(&s, 66));
        kontor__score_enclosed(&s, NULL);
        assert_int_equal(s.nareas, 1);
        assert_int_equal(s.area[0].winner, 0);
    }
}

static void ruling_R7_the_fixing_card_encloses_areas_along_the_new_edge(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    bare(&s);
    for (int x = -2; x <= 2; x++)
        if (x) kontor__put(&s, C(x, 0), id(&s, 47 + x + 2));
    kontor__put(&s, C(2, 1), id(&s, 5)); /* red W at the east end, open to the east */
    kontor__put(&s, C(1, 1), id(&s, 60));
    kontor__put(&s, C(2, 2), id(&s, 61));
    /* a water card on the far west fixes the width (x -3..2): 3,1 becomes unplayable */
    choose(&s, PASS, 38, NULL);
    place(&s, 1, C(-3, 0), NULL);
    assert_int_equal(s.nareas, 1);
    assert_int_equal(s.area[0].winner, 0);
}

static void scoring_example_1_largest_single_superiority(void **st) {
    (void)st;
    /* red +2 tea, +2 spice; black +3 wine: black */
    uint8_t g[2][3] = {{2, 0, 2}, {0, 3, 0}};
    assert_int_equal(kontor_compare_goods(g), 1);
}

static void scoring_example_2_more_superiorities(void **st) {
    (void)st;
    /* both +1 at most; black leads in two goods */
    uint8_t g[2][3] = {{1, 0, 0}, {0, 1, 1}};
    assert_int_equal(kontor_compare_goods(g), 1);
    uint8_t h[2][3] = {{2, 1, 0}, {0, 0, 2}};
    assert_int_equal(kontor_compare_goods(h), 0);
}

static void scoring_example_3_value_of_the_goods_wine_spice_tea_wine(void **st) {
    (void)st;
    uint8_t g[2][3] = {{0, 1, 0}, {0, 0, 1}}; /* red wine +1, black spice +1: wine wins */
    assert_int_equal(kontor_compare_goods(g), 0);
    uint8_t h[2][3] = {{0, 0, 1}, {1, 0, 0}}; /* spice beats tea */
    assert_int_equal(kontor_compare_goods(h), 0);
    uint8_t i[2][3] = {{1, 0, 0}, {0, 1, 0}}; /* tea beats wine */
    assert_int_equal(kontor_compare_goods(i), 0);
    uint8_t j[2][3] = {{0, 0, 2}, {0, 2, 0}}; /* black wine beats red spice */
    assert_int_equal(kontor_compare_goods(j), 1);
}

static void scoring_review_example_two_wine_beat_tea_and_spice(void **st) {
    (void)st;
    uint8_t g[2][3] = {{1, 0, 1}, {0, 2, 0}};
    assert_int_equal(kontor_compare_goods(g), 1);
}

static void scoring_exact_tie_or_no_warehouses_is_not_scored(void **st) {
    (void)st;
    uint8_t g[2][3] = {{1, 2, 0}, {1, 2, 0}};
    assert_int_equal(kontor_compare_goods(g), -1);
    uint8_t z[2][3] = {{0, 0, 0}, {0, 0, 0}};
    assert_int_equal(kontor_compare_goods(z), -1);
}

static void ruling_R11_keepers_are_unlimited_unless_keeper_limit(void **st) {
    (void)st;
    for (int lim = 0; lim < 2; lim++) {
        kontor_state s;
        setup(&s, "basic", lim ? "keeper_limit=1" : NULL);
        s.keepers[0] = 5;
        choose(&s, 5, PASS, NULL);
        place(&s, 0, C(1, 1), NULL);
        choose(&s, PASS, 38, NULL);
        place(&s, 1, C(2, 1), NULL);
        choose(&s, PASS, 40, NULL);
        place(&s, 1, C(1, 2), NULL);
        assert_int_equal(s.area[0].winner, 0);
        assert_int_equal(s.area[0].keeper, lim ? 0 : 1);
        assert_int_equal(s.keepers[0], lim ? 5 : 6);
    }
}

/* ---- drawing and money ---------------------------------------------------------------- */

static void draw_the_same_kind_and_water_earns_a_coin(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    choose(&s, 38, 5, NULL);
    int wtop = s.water_pile.card[s.water_pile.head];
    int dtop = s.dock_pile[1].card[s.dock_pile[1].head];
    place(&s, 0, C(1, 1), NULL); /* 38 is higher: red first */
    assert_true(in_hand(&s, 0, s.cfg.cards->card[wtop].number));
    assert_int_equal(s.hand_n[0], 5);
    assert_int_equal(s.coins[0], 5);
    assert_int_equal(s.treasury, 11);
    place(&s, 1, C(-1, 1), NULL);
    assert_true(in_hand(&s, 1, s.cfg.cards->card[dtop].number));
    assert_int_equal(s.coins[1], 4);
    /* the new tops are public */
    kontor_view v;
    kontor_view_of(&s, 0, &v);
    assert_int_equal(v.s.water_pile.card[v.s.water_pile.head], s.water_pile.card[s.water_pile.head]);
}

static void no_draw_from_an_empty_pile_and_no_coin_from_an_empty_treasury(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    s.coins[0] = 16;
    s.treasury = 0;
    give(&s, 0, 38);
    s.water_pile.n = 0; /* (the cards vanish: fine for this test) */
    choose(&s, 38, PASS, NULL);
    place(&s, 0, C(1, 1), NULL);
    assert_int_equal(s.hand_n[0], 4);
    assert_int_equal(s.coins[0], 16);
}

/* ---- the end ------------------------------------------------------------------------------ */

/* Fill a 6x6 board (x -2..3, y -2..3) with water except for cell last. */
static void fill_but(kontor_state *s, int last) {
    bare(s);
    int w = 47;
    for (int y = -2; y <= 3; y++)
        for (int x = -2; x <= 3; x++) {
            int c = C(x, y);
            if (c == C(0, 0) || c == last) continue;
            kontor__put(s, c, id(s, w));
            w = w == 85 ? 47 : w + 1;
        }
}

static void ruling_R9_the_game_ends_at_once_when_the_board_is_full(void **st) {
    (void)st;
    kontor_state s;
    kontor_log log = {0};
    setup(&s, "basic", NULL);
    fill_but(&s, C(3, 3));
    choose(&s, 38, 40, &log);
    int coins = s.coins[1];
    place(&s, 1, C(3, 3), &log); /* 40 is higher */
    assert_int_equal(s.phase, KONTOR_PHASE_OVER);
    assert_int_equal(s.end_reason, KONTOR_END_FULL);
    assert_int_equal(s.hand_n[1], 4); /* no draw */
    assert_int_equal(s.coins[1], coins); /* no coin */
    assert_int_equal(kontor_actors(&s), 0u);
    assert_true(has_event(&log, KONTOR_EV_END, -1));
    /* red never placed */
    assert_int_equal(legal_count(&s, 0), 0);
}

static void ruling_R9_option_final_draw_still_draws_and_pays(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", "final_draw=1");
    fill_but(&s, C(3, 3));
    choose(&s, 38, 40, NULL);
    int coins = s.coins[1];
    place(&s, 1, C(3, 3), NULL);
    assert_int_equal(s.phase, KONTOR_PHASE_OVER);
    assert_int_equal(s.hand_n[1], 5);
    assert_int_equal(s.coins[1], coins + 1);
}

static void most_keepers_win_then_most_coins_else_a_draw(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    fill_but(&s, C(3, 3));
    s.nareas = 1;
    memset(&s.area[0], 0, sizeof s.area[0]);
    s.area[0].winner = 1;
    s.area[0].keeper = 1;
    s.area[0].value = 1;
    s.area[0].size = 1;
    s.keepers[1] = 1;
    s.coins[0] = 10;
    s.coins[1] = 0;
    s.treasury = 10;
    choose(&s, 38, PASS, NULL);
    place(&s, 0, C(3, 3), NULL);
    assert_int_equal(s.winner, 1);
    assert_int_equal(s.score[1], 1);

    setup(&s, "basic", NULL);
    fill_but(&s, C(3, 3));
    s.coins[0] = 3;
    s.coins[1] = 9;
    s.treasury = 8;
    choose(&s, 38, PASS, NULL); /* black passes and takes a coin: 10 */
    place(&s, 0, C(3, 3), NULL);
    assert_int_equal(s.score[0], 0);
    assert_int_equal(s.winner, 1);

    setup(&s, "basic", NULL);
    fill_but(&s, C(3, 3));
    s.coins[0] = 5;
    s.coins[1] = 4;
    s.treasury = 11;
    choose(&s, 38, PASS, NULL); /* 5 and 5 */
    place(&s, 0, C(3, 3), NULL);
    assert_int_equal(s.winner, -1);
}

static void ruling_R8_the_game_ends_after_max_rounds(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", "max_rounds=2,pass=free");
    choose(&s, PASS, PASS, NULL);
    assert_int_equal(s.phase, kt_choice_phase(&s));
    choose(&s, PASS, PASS, NULL);
    assert_int_equal(s.phase, KONTOR_PHASE_OVER);
    assert_int_equal(s.end_reason, KONTOR_END_MAX_ROUNDS);
    assert_int_equal(s.round, 2);
}

/* ---- the largest five (advanced) -------------------------------------------------------------- */

static void set_areas(kontor_state *s, int n, const int *size, const int *dist) {
    s->nareas = (uint8_t)n;
    for (int i = 0; i < n; i++) {
        memset(&s->area[i], 0, sizeof s->area[i]);
        s->area[i].size = (uint8_t)size[i];
        s->area[i].dist = (uint8_t)dist[i];
        s->area[i].winner = (uint8_t)(i & 1);
        s->area[i].keeper = 1;
        s->area[i].value = 1;
    }
}

static void ruling_R10_only_the_five_largest_areas_count(void **st) {
    (void)st;
    kontor_state s;
    uint8_t c[KONTOR_MAX_AREAS];
    setup(&s, "advanced", NULL);
    int size[7] = {1, 5, 4, 4, 3, 3, 2}, dist[7] = {1, 3, 3, 2, 4, 5, 1};
    set_areas(&s, 7, size, dist);
    kontor_counted_areas(&s, c);
    int want[7] = {0, 1, 1, 1, 1, 1, 0};
    for (int i = 0; i < 7; i++) assert_int_equal(c[i], want[i]);
}

static void ruling_R10_equal_size_nearer_to_the_centre_counts(void **st) {
    (void)st;
    kontor_state s;
    uint8_t c[KONTOR_MAX_AREAS];
    setup(&s, "advanced", NULL);
    int size[6] = {3, 3, 3, 3, 3, 3}, dist[6] = {6, 1, 2, 3, 4, 5};
    set_areas(&s, 6, size, dist);
    kontor_counted_areas(&s, c);
    int want[6] = {0, 1, 1, 1, 1, 1};
    for (int i = 0; i < 6; i++) assert_int_equal(c[i], want[i]);
}

static void ruling_R10_still_tied_at_the_boundary_neither_counts_and_smaller_move_up(void **st) {
    (void)st;
    kontor_state s;
    uint8_t c[KONTOR_MAX_AREAS];
    int pts[2];
    setup(&s, "advanced", NULL);
    int size[7] = {5, 4, 3, 3, 2, 2, 1}, dist[7] = {1, 1, 1, 2, 2, 2, 3};
    set_areas(&s, 7, size, dist);
    kontor_counted_areas(&s, c);
    int want[7] = {1, 1, 1, 1, 0, 0, 1};
    for (int i = 0; i < 7; i++) assert_int_equal(c[i], want[i]);
    kontor_points(&s, pts);
    assert_int_equal(pts[0] + pts[1], 5);
    /* a tied group that fits whole counts whole */
    int size2[5] = {4, 4, 2, 2, 1}, dist2[5] = {1, 1, 2, 2, 1};
    set_areas(&s, 5, size2, dist2);
    kontor_counted_areas(&s, c);
    for (int i = 0; i < 5; i++) assert_int_equal(c[i], 1);
}

/* R10 with eight areas competing for the five places: the largest (6) and
 * the next (4) take two; three areas of size 3 at the same distance tie for
 * the three places left: the group fits, so it counts whole, and the smaller
 * areas behind it count not at all. A strict "fits" (fewer than the places
 * left) would drop the group and let the two areas of size 2 and the one of
 * size 1 in instead. */
static void ruling_R10_a_tied_group_that_fits_counts_whole_among_more_than_five(void **st) {
    (void)st;
    kontor_state s;
    uint8_t c[KONTOR_MAX_AREAS];
    int pts[2];
    setup(&s, "advanced", NULL);
    int size[8] = {3, 6, 2, 3, 1, 4, 3, 2}, dist[8] = {2, 1, 1, 2, 1, 1, 2, 1};
    set_areas(&s, 8, size, dist);
    kontor_counted_areas(&s, c);
    int want[8] = {1, 1, 0, 1, 0, 1, 1, 0};
    for (int i = 0; i < 8; i++) assert_int_equal(c[i], want[i]);
    kontor_points(&s, pts);
    assert_int_equal(pts[0] + pts[1], 5);
}

static void ruling_R10_every_enclosed_area_competes_unless_largest_keepers(void **st) {
    (void)st;
    kontor_state s;
    uint8_t c[KONTOR_MAX_AREAS];
    int size[6] = {6, 5, 4, 3, 2, 1}, dist[6] = {1, 1, 1, 1, 1, 1};
    for (int opt = 0; opt < 2; opt++) {
        setup(&s, "advanced", opt ? "largest_keepers=1" : NULL);
        set_areas(&s, 6, size, dist);
        s.area[0].keeper = 0; /* the largest area was a tie */
        s.area[0].winner = KONTOR_NONE;
        kontor_counted_areas(&s, c);
        assert_int_equal(c[0], opt ? 0 : 1);
        assert_int_equal(c[5], opt ? 1 : 0);
    }
}

static void basic_game_counts_every_area(void **st) {
    (void)st;
    kontor_state s;
    uint8_t c[KONTOR_MAX_AREAS];
    setup(&s, "basic", NULL);
    int size[8] = {1, 1, 1, 1, 1, 1, 1, 1}, dist[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    set_areas(&s, 8, size, dist);
    kontor_counted_areas(&s, c);
    for (int i = 0; i < 8; i++) assert_int_equal(c[i], 1);
}

/* ---- the ship (advanced) ------------------------------------------------------------------------ */

static void ship_a_ship_card_may_move_the_ship_to_any_other_water_card(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "advanced", NULL);
    choose(&s, 3 /* TWS ship */, PASS, NULL);
    assert_int_equal(s.phase, KONTOR_PHASE_SHIP);
    assert_int_equal(legal_count(&s, 0), 1 + 8); /* stay, or one of the 8 cross cards */
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_SHIP, C(0, 0)), "already on");
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_SHIP, C(1, 1)), "water card");
    assert_int_equal(kontor_apply(&s, 0, KONTOR_MOVE(KONTOR_MOVE_SHIP, C(2, 0)), NULL), KONTOR_OK);
    assert_int_equal(s.ship_cell, C(2, 0));
    /* nothing to remove next to 2,0: straight to placing */
    assert_int_equal(s.phase, KONTOR_PHASE_PLACE);
}

static void ship_a_card_without_ship_symbol_does_not_move_it(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "advanced", NULL);
    choose(&s, 5, PASS, NULL);
    assert_int_equal(s.phase, KONTOR_PHASE_PLACE);
    /* and in the basic game a ship card does nothing with it */
    setup(&s, "basic", NULL);
    choose(&s, 3, PASS, NULL);
    assert_int_equal(s.phase, KONTOR_PHASE_PLACE);
}

static void ship_not_moving_means_no_removal(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "advanced", NULL);
    kontor__put(&s, C(1, -1), id(&s, 17)); /* red T ship, next to the centre? no: next to 1,0 and 0,-1 */
    choose(&s, PASS, 4, NULL);
    assert_int_equal(kontor_apply(&s, 1, KONTOR_MOVE(KONTOR_MOVE_SHIP, KONTOR_NONE), NULL), KONTOR_OK);
    assert_int_equal(s.phase, KONTOR_PHASE_PLACE);
    assert_int_equal(s.ship_cell, C(0, 0));
}

/* The rulebook's ship example: Black removes the 3 with the ship; Red's
 * three warehouses leave with it; 36 and 16 become separate areas and Black's
 * green warehouse moves to the 16. */
static void ship_example_black_removes_the_3_and_the_area_splits(void **st) {
    (void)st;
    kontor_state s;
    kontor_log log = {0};
    uint8_t g[2][3];
    setup(&s, "advanced", NULL);
    bare(&s);
    for (int x = -2; x <= 3; x++)
        if (x) kontor__put(&s, C(x, 0), id(&s, 49 + x + 2));
    kontor__put(&s, C(1, 1), id(&s, 36)); /* black W */
    kontor__put(&s, C(2, 1), id(&s, 3));  /* red TWS, ship */
    kontor__put(&s, C(3, 1), id(&s, 16)); /* black S */
    kontor__put(&s, C(2, 2), id(&s, 47));
    assert_int_equal(kontor_area_at(&s, C(1, 1), NULL, g), 3);
    assert_int_equal(g[1][KONTOR_WINE], 1);
    assert_int_equal(g[1][KONTOR_SPICE], 1);
    assert_int_equal(g[0][KONTOR_TEA], 1);
    int under = s.dock_pile[0].n;
    choose(&s, PASS, 48 /* water, ship */, &log);
    assert_int_equal(s.phase, KONTOR_PHASE_SHIP);
    assert_int_equal(kontor_apply(&s, 1, KONTOR_MOVE(KONTOR_MOVE_SHIP, C(2, 2)), &log), KONTOR_OK);
    assert_int_equal(s.phase, KONTOR_PHASE_REMOVE);
    assert_int_equal(legal_count(&s, 1), 2); /* none, or the 3 */
    assert_int_equal(kontor_apply(&s, 1, KONTOR_MOVE(KONTOR_MOVE_REMOVE, C(2, 1)), &log), KONTOR_OK);
    assert_int_equal(s.cell_card[C(2, 1)], KONTOR_NONE);
    assert_int_equal(s.dock_pile[0].n, under + 1);
    assert_int_equal(s.dock_pile[0].card[(s.dock_pile[0].head + under) & (KONTOR_PILE_MAX - 1)], id(&s, 3));
    assert_int_equal(kontor_area_at(&s, C(1, 1), NULL, g), 1);
    assert_int_equal(g[1][KONTOR_WINE], 1);
    assert_int_equal(g[1][KONTOR_SPICE], 0);
    assert_int_equal(g[0][KONTOR_TEA] + g[0][KONTOR_WINE] + g[0][KONTOR_SPICE], 0);
    assert_int_equal(kontor_area_at(&s, C(3, 1), NULL, g), 1);
    assert_int_equal(g[1][KONTOR_SPICE], 1); /* the green warehouse is now on the 16 */
    assert_true(has_event(&log, KONTOR_EV_REMOVE, 1));
    /* the player may fill the space just made */
    place(&s, 1, C(2, 1), NULL);
}

static void ship_only_ship_symbol_cards_outside_enclosed_areas_own_cards_too(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "advanced", NULL);
    bare(&s);
    kontor__put(&s, C(1, 0), id(&s, 47));
    kontor__put(&s, C(2, 0), id(&s, 5));   /* red W, no ship symbol */
    kontor__put(&s, C(1, 1), id(&s, 17));  /* red T ship: own card of red */
    kontor__put(&s, C(1, -1), id(&s, 18)); /* black T ship, in an enclosed area below */
    kontor__put(&s, C(0, -1), id(&s, 50));
    kontor__put(&s, C(2, -1), id(&s, 51));
    kontor__put(&s, C(1, -2), id(&s, 52));
    kontor__score_enclosed(&s, NULL);
    assert_true(bb_test_cell(&s.enclosed, C(1, -1)));
    choose(&s, 39 /* water ship */, PASS, NULL);
    assert_int_equal(kontor_apply(&s, 0, KONTOR_MOVE(KONTOR_MOVE_SHIP, C(1, 0)), NULL), KONTOR_OK);
    assert_int_equal(s.phase, KONTOR_PHASE_REMOVE);
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_REMOVE, C(2, 0)), "no ship symbol");
    expect_why(&s, 0, KONTOR_MOVE(KONTOR_MOVE_REMOVE, C(1, -1)), "enclosed");
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_REMOVE, C(1, 1))));
    assert_int_equal(legal_count(&s, 0), 2);
}

static void ruling_R6_the_extent_does_not_shrink_when_the_ship_removes_an_edge_card(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "advanced", NULL);
    kontor__put(&s, C(3, 0), id(&s, 17));
    kontor__put(&s, C(4, 0), id(&s, 19)); /* x -2..4: width 7 reached */
    kontor__put(&s, C(4, 1), id(&s, 60));
    choose(&s, PASS, 39 /* ship */, NULL);
    kontor_apply(&s, 1, KONTOR_MOVE(KONTOR_MOVE_SHIP, C(4, 1)), NULL);
    assert_int_equal(kontor_apply(&s, 1, KONTOR_MOVE(KONTOR_MOVE_REMOVE, C(4, 0)), NULL), KONTOR_OK);
    expect_why(&s, 1, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(-3, 0)), "outside the 7x7 board");
    assert_true(kontor_is_legal(&s, 1, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(4, 0))));
}

/* ---- options --------------------------------------------------------------------------------- */

static void options_parse_and_describe_round_trip(void **st) {
    (void)st;
    kontor_config cfg, back;
    kontor_error err;
    char buf[256];
    kontor_config_init(&cfg, "advanced", NULL);
    assert_int_equal(kontor_config_describe(&cfg, buf, sizeof buf), 0);
    assert_int_equal(kontor_config_options(&cfg, "edge=both, pass=rest,declare=hidden,max_rounds=90", &err), KONTOR_OK);
    kontor_config_describe(&cfg, buf, sizeof buf);
    assert_string_equal(buf, "edge=both,declare=hidden,pass=rest,max_rounds=90");
    kontor_config_init(&back, "advanced", NULL);
    assert_int_equal(kontor_config_options(&back, buf, &err), KONTOR_OK);
    assert_memory_equal(&cfg, &back, sizeof cfg);
    assert_int_equal(kontor_config_option(&cfg, "edge=sideways", &err), KONTOR_E_PARSE);
    assert_int_equal(kontor_config_option(&cfg, "pass=1", &err), KONTOR_E_PARSE); /* once meant pass=free */
    assert_non_null(strstr(err.msg, "wants 'free' or 'rest'"));
    assert_int_equal(kontor_config_option(&cfg, "bogus=1", &err), KONTOR_E_PARSE);
    assert_non_null(strstr(err.msg, "unknown option 'bogus'"));
    assert_int_equal(kontor_config_option(&cfg, "max_rounds=0", &err), KONTOR_E_RANGE);
    assert_int_equal(kontor_config_init(&cfg, "chess", &err), KONTOR_E_INVALID);
}

static void cells_format_and_parse(void **st) {
    (void)st;
    char b[8];
    assert_string_equal(kontor_format_cell(C(1, -2), b), "+1,-2");
    assert_string_equal(kontor_format_cell(C(0, 0), b), "0,0");
    assert_int_equal(kontor_parse_cell("+1,-2"), C(1, -2));
    assert_int_equal(kontor_parse_cell("-3,4"), C(-3, 4));
    assert_int_equal(kontor_parse_cell("1;2"), -1);
    assert_int_equal(kontor_parse_cell("9,0"), -1);
    assert_int_equal(kontor_parse_cell(""), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(setup_lays_centre_and_cross_from_the_top_of_the_water_pile),
        cmocka_unit_test(setup_advanced_puts_the_ship_on_the_centre),
        cmocka_unit_test(setup_rejects_a_deal_that_is_not_a_permutation),
        cmocka_unit_test(setup_checks_each_card_of_the_deal),
        cmocka_unit_test(same_seed_same_game),
        cmocka_unit_test(tax_coin_symbol_makes_the_opponent_pay_the_treasury),
        cmocka_unit_test(tax_who_cannot_pay_takes_the_card_back_and_loses_the_round),
        cmocka_unit_test(tax_a_card_taken_back_imposes_no_tax),
        cmocka_unit_test(tax_both_broke_both_sit_out_and_take_a_coin),
        cmocka_unit_test(pass_earns_a_coin_and_pays_no_tax),
        cmocka_unit_test(ruling_R1_a_pass_is_declared_before_the_cards_and_paid_at_once),
        cmocka_unit_test(ruling_R1_when_all_declare_a_pass_the_round_ends),
        cmocka_unit_test(ruling_R1_option_declare_hidden_makes_the_pass_a_hidden_choice),
        cmocka_unit_test(ruling_R2_passing_is_allowed_after_a_double_pass),
        cmocka_unit_test(ruling_R2_option_pass_rest_forbids_passing_after_a_double_pass),
        cmocka_unit_test(ruling_R12_one_coin_for_two_goes_to_the_poorer),
        cmocka_unit_test(the_higher_number_goes_first),
        cmocka_unit_test(placement_example_two_cards_leave_six_cells_a_to_f),
        cmocka_unit_test(placement_must_touch_a_card_orthogonally_and_never_stack),
        cmocka_unit_test(board_extent_is_fixed_once_a_direction_reaches_six),
        cmocka_unit_test(advanced_board_is_seven_by_seven),
        cmocka_unit_test(crane_keeps_the_free_cells_next_to_it_clear_of_opposing_dock_cards),
        cmocka_unit_test(crane_two_opposing_cranes_leave_only_water),
        cmocka_unit_test(ruling_R3_a_card_with_no_legal_cell_goes_back_to_the_hand),
        cmocka_unit_test(ruling_R4_placing_is_compulsory_unless_optional_place),
        cmocka_unit_test(warehouses_count_per_area_and_player_and_areas_merge),
        cmocka_unit_test(an_area_enclosed_by_water_is_scored_at_once),
        cmocka_unit_test(a_dock_card_laid_into_a_pocket_of_water_is_scored_at_once),
        cmocka_unit_test(an_area_without_warehouses_is_not_scored),
        cmocka_unit_test(ruling_R7_a_fixed_edge_encloses_at_once_or_with_edge_both_only_when_both_are_fixed),
        cmocka_unit_test(ruling_R7_the_fixing_card_encloses_areas_along_the_new_edge),
        cmocka_unit_test(scoring_example_1_largest_single_superiority),
        cmocka_unit_test(scoring_example_2_more_superiorities),
        cmocka_unit_test(scoring_example_3_value_of_the_goods_wine_spice_tea_wine),
        cmocka_unit_test(scoring_review_example_two_wine_beat_tea_and_spice),
        cmocka_unit_test(scoring_exact_tie_or_no_warehouses_is_not_scored),
        cmocka_unit_test(ruling_R11_keepers_are_unlimited_unless_keeper_limit),
        cmocka_unit_test(draw_the_same_kind_and_water_earns_a_coin),
        cmocka_unit_test(no_draw_from_an_empty_pile_and_no_coin_from_an_empty_treasury),
        cmocka_unit_test(ruling_R9_the_game_ends_at_once_when_the_board_is_full),
        cmocka_unit_test(ruling_R9_option_final_draw_still_draws_and_pays),
        cmocka_unit_test(most_keepers_win_then_most_coins_else_a_draw),
        cmocka_unit_test(ruling_R8_the_game_ends_after_max_rounds),
        cmocka_unit_test(ruling_R10_only_the_five_largest_areas_count),
        cmocka_unit_test(ruling_R10_equal_size_nearer_to_the_centre_counts),
        cmocka_unit_test(ruling_R10_still_tied_at_the_boundary_neither_counts_and_smaller_move_up),
        cmocka_unit_test(ruling_R10_every_enclosed_area_competes_unless_largest_keepers),
        cmocka_unit_test(ruling_R10_a_tied_group_that_fits_counts_whole_among_more_than_five),
        cmocka_unit_test(basic_game_counts_every_area),
        cmocka_unit_test(ship_a_ship_card_may_move_the_ship_to_any_other_water_card),
        cmocka_unit_test(ship_a_card_without_ship_symbol_does_not_move_it),
        cmocka_unit_test(ship_not_moving_means_no_removal),
        cmocka_unit_test(ship_example_black_removes_the_3_and_the_area_splits),
        cmocka_unit_test(ship_only_ship_symbol_cards_outside_enclosed_areas_own_cards_too),
        cmocka_unit_test(ruling_R6_the_extent_does_not_shrink_when_the_ship_removes_an_edge_card),
        cmocka_unit_test(options_parse_and_describe_round_trip),
        cmocka_unit_test(cells_format_and_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
