/* test_rules_round.c: the rules of a round of the two-player game and of its end, one test per rule and per ruling of docs/rules.md.
 *
 * Set-up, declaring a pass and taxes (R1, R2, R12), who acts first, drawing
 * and money, the end of the game and its winner (R8, R9), and the options'
 * text. test_rules.c once held every rule; it grew past 1,100 lines and is
 * split along the rulebook's parts: the board (placing, the ship) is in
 * test_rules_board.c, areas and their scoring in test_rules_scoring.c.
 *
 * Positions come about through the real interface (choose, place) wherever a
 * few rounds reach them; the rest are laid by hand with the hooks of
 * core/internal.h (tests/rulesutil.h). */
#include "rulesutil.h"

/* ---- set-up -------------------------------------------------------------------- */

static void setup_lays_centre_and_cross_from_the_top_of_the_water_pile(void **st) {
    (void)st;
    kontor_config cfg;
    kontor_deal d;
    kontor_state s;
    kontor_config_init(&cfg, "basic", NULL);
    kontor_deal_shuffle(&d, &cfg, 11);
    assert_int_equal(kontor_new_from_deal(&s, &cfg, &d, NULL), KONTOR_OK);
    assert_int_equal(kontor_state_card_at(&s, C(0, 0)), cfg.cards->centre);
    /* R13: N1 N2 E1 E2 S1 S2 W1 W2 */
    int cells[8] = {C(0, -1), C(0, -2), C(1, 0), C(2, 0), C(0, 1), C(0, 2), C(-1, 0), C(-2, 0)};
    for (int i = 0; i < 8; i++) assert_int_equal(kontor_state_card_at(&s, cells[i]), d.water[i]);
    assert_int_equal(s.ncards_board, 9);
    /* hands: 3 dock cards from the top of the own pile, then 2 water cards;
     * red takes water 9 and 10 of the pile, black 11 and 12 */
    for (int p = 0; p < 2; p++) {
        assert_int_equal(s.hand_n[p], 5);
        for (int i = 0; i < 3; i++) assert_int_equal(s.hand[p][i], d.dock[p][i]);
        assert_int_equal(s.hand[p][3], d.water[8 + 2 * p]);
        assert_int_equal(s.hand[p][4], d.water[9 + 2 * p]);
        assert_int_equal(s.dock_pile[p].n, 19);
        assert_int_equal(kontor_pile_card(&s, &s.dock_pile[p], 0), d.dock[p][3]);
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
    assert_int_equal(s.cfg->width, 7);
    assert_int_equal(s.cfg->largest, 5);
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

/* kontor_new deals straight into the state where its config allows
 * (src/core/deal.c, deal_quick: no kontor_deal between, issue 17): the state
 * must be, byte for byte, what kontor_deal_shuffle's deal for the same seed
 * laid out by kontor_new_from_deal gives (records carry that deal), in every
 * variant, with the expansions and rulings that change the deal or the hooks. */
static void kontor_new_deals_what_its_written_deal_deals(void **st) {
    (void)st;
    static const char *opts[] = {"", "export=1", "events=1", "tiles=1", "declare=hidden", "pass=rest",
                                 "width=6,height=8", "export=1,events=1,tiles=1"};
    int quick = 0;
    for (int v = 0; v < KONTOR_NVARIANTS; v++)
        for (size_t o = 0; o < sizeof opts / sizeof *opts; o++) {
            kontor_config cfg;
            assert_int_equal(kontor_config_init(&cfg, kontor_variant_name(v), NULL), KONTOR_OK);
            if (kontor_config_options(&cfg, opts[o], NULL) != KONTOR_OK) continue;
            for (uint64_t seed = 0; seed < 40; seed++) {
                kontor_state a, b;
                kontor_deal d;
                kontor_error ea, eb;
                memset(&a, 0xAA, sizeof a);
                memset(&b, 0x55, sizeof b);
                kontor_status sa = kontor_new(&a, &cfg, seed, &ea);
                kontor_deal_shuffle(&d, &cfg, seed);
                kontor_status sb = kontor_new_from_deal(&b, &cfg, &d, &eb);
                if (sa != sb) fail_msg("%s %s seed %d: kontor_new %d, the written deal %d", kontor_variant_name(v),
                                       opts[o], (int)seed, (int)sa, (int)sb);
                if (sa != KONTOR_OK) continue;
                if (memcmp(&a, &b, sizeof a) != 0) {
                    size_t at = 0;
                    while (((unsigned char *)&a)[at] == ((unsigned char *)&b)[at]) at++;
                    fail_msg("%s %s seed %d: the states differ at byte %d", kontor_variant_name(v), opts[o], (int)seed,
                             (int)at);
                }
                quick += !cfg.events && !cfg.tiles && !cfg.water_aside && !cfg.select_keep;
            }
        }
    assert_true(quick > 1000); /* most of them by the quick deal */
}

/* Lemire's bound redraws a number whose product's low half falls below
 * 2^32 mod n (rng.h's rng_below): kontor_new's shuffle (deal.c's
 * shuffle_splits, whose test of that low half is its own: against the
 * list's largest n first, then the exact bound) must redraw exactly when
 * rng_below does. A redraw is one number in ~10^9 of a deal's, so no seed of
 * the test above meets one; these seeds were found by running the basic
 * deal's draws (the water's 43, each colour's 22, from n down to 2): each
 * meets the exact test at least once, most a redraw, in each of the
 * shuffle's two loops (the places settled into the piles, the ones left for
 * the start and the hands). The test counts them again, so that a change of
 * the card set that moves the redraws away shows. */
static int deal_redraws(const kontor_config *cfg, uint64_t seed, int *exact) {
    const kontor_cardset *cs = cfg->cards;
    int lists[3] = {cs->class_n[KONTOR_CLASS_WATER], cs->class_n[KONTOR_CLASS_RED], cs->class_n[KONTOR_CLASS_BLACK]};
    int redraws = 0;
    kontor_rng r;
    kontor_rng_seed(&r, seed);
    *exact = 0;
    for (int l = 0; l < 3; l++)
        for (uint32_t n = (uint32_t)lists[l]; n > 1; n--)
            for (;;) {
                uint32_t lo = (uint32_t)((kontor_rng_next(&r) >> 32) * n), t = (uint32_t)(-n) % n;
                *exact += lo < (uint32_t)lists[l]; /* shuffle_splits' exact test */
                if (lo >= t) break;
                redraws++;
            }
    return redraws;
}

static void lemire_redraws_in_kontor_new_as_in_the_written_deal(void **st) {
    (void)st;
    /* seed, the redraws it meets (the first three: the exact test without one) */
    static const struct {
        uint64_t seed;
        int redraws;
    } seeds[] = {{256987, 0},    {809520, 0},    {2692468, 0},    {14267111, 1},  {14275507, 1},
                 {15254569, 1},  {16628772, 1},  {63280538, 1},   {127654146, 1}, {262784486, 1},
                 {467463792, 1}, {490194101, 1}};
    kontor_config cfg;
    assert_int_equal(kontor_config_init(&cfg, "basic", NULL), KONTOR_OK);
    for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++) {
        int exact;
        if (deal_redraws(&cfg, seeds[i].seed, &exact) != seeds[i].redraws || !exact)
            fail_msg("seed %llu: the deal's draws no longer meet Lemire's exact test as they did",
                     (unsigned long long)seeds[i].seed);
        kontor_state a, b;
        kontor_deal d;
        memset(&a, 0xAA, sizeof a);
        memset(&b, 0x55, sizeof b);
        assert_int_equal(kontor_new(&a, &cfg, seeds[i].seed, NULL), KONTOR_OK);
        kontor_deal_shuffle(&d, &cfg, seeds[i].seed);
        assert_int_equal(kontor_new_from_deal(&b, &cfg, &d, NULL), KONTOR_OK);
        if (memcmp(&a, &b, sizeof a) != 0) {
            size_t at = 0;
            while (((unsigned char *)&a)[at] == ((unsigned char *)&b)[at]) at++;
            fail_msg("basic seed %llu: the states differ at byte %d", (unsigned long long)seeds[i].seed, (int)at);
        }
    }
}

/* The start is water cards only (R13: the centre and the start layout from
 * the top of the water pile; src/core/cells.c's place_start lays them as
 * such: no dock bit, no crane to keep neighbours of): in every variant the
 * board after the deal holds water cards, occ and water are the cells with a
 * card, every dock bitboard is empty, and each card is public. */
static void setup_the_start_is_water_cards_only(void **st) {
    (void)st;
    for (int v = 0; v < KONTOR_NVARIANTS; v++)
        for (uint64_t seed = 0; seed < 20; seed++) {
            kontor_config cfg;
            kontor_state s;
            assert_int_equal(kontor_config_init(&cfg, kontor_variant_name(v), NULL), KONTOR_OK);
            if (seed & 1) assert_int_equal(kontor_config_options(&cfg, "width=6,height=8", NULL), KONTOR_OK);
            kontor_status st0 = kontor_new(&s, &cfg, seed, NULL);
            if ((seed & 1) && st0 == KONTOR_E_RANGE) continue; /* from the centre alone: an 11x15 window, over 128 cells */
            assert_int_equal(st0, KONTOR_OK);
            kontor_bb at = {{0, 0, 0, 0}};
            int n = 0;
            for (int c = 0; c < KONTOR_CELLS; c++) {
                int id = kontor_state_card_at(&s, c);
                if (id == KONTOR_NONE) continue;
                if (!kontor_card_is_water(&cfg.cards->card[id]))
                    fail_msg("%s seed %d: card %d at the start is not water", kontor_variant_name(v), (int)seed, id);
                if (!((s.pub[id >> 6] >> (id & 63)) & 1))
                    fail_msg("%s seed %d: card %d at the start is not public", kontor_variant_name(v), (int)seed, id);
                kontor_bb_add(&at, c);
                n++;
            }
            assert_int_equal(s.ncards_board, n);
            kontor_bb occ = kontor_state_set(&s, KONTOR_SET_OCC), water = kontor_state_set(&s, KONTOR_SET_WATER);
            assert_memory_equal(&occ, &at, sizeof at);
            assert_memory_equal(&water, &at, sizeof at);
            static const kontor_set none[] = {KONTOR_SET_DOCK,        KONTOR_SET_TEAM_DOCK0, KONTOR_SET_TEAM_DOCK1,
                                              KONTOR_SET_CRANE0,      KONTOR_SET_CRANE1,     KONTOR_SET_SHIPSYM,
                                              KONTOR_SET_CUSTOMS,     KONTOR_SET_CRANE_NEAR0, KONTOR_SET_CRANE_NEAR1};
            for (size_t k = 0; k < sizeof none / sizeof *none; k++)
                if (kt_count(&s, none[k])) fail_msg("%s seed %d: dock bitboard %d not empty at the start",
                                                    kontor_variant_name(v), (int)seed, (int)k);
        }
}

/* KONTOR_PILE_MAX (48, kontor.h) holds every pile of every variant: at the
 * deal, where the water pile is at its largest (it is only drawn from), no
 * pile is over it, and the largest (Gullivers Reisen and Immer auf die
 * Kleinen: the centre alone, 43 - 4 water cards in the pile) comes close;
 * the dock piles, which take cards back, hold at most their colour's 22
 * (test_properties' check_cards finds a card lost to a ring too small). */
static void pile_max_holds_every_pile_of_every_variant(void **st) {
    (void)st;
    int most = 0;
    for (int v = 0; v < KONTOR_NVARIANTS; v++)
        for (uint64_t seed = 0; seed < 10; seed++) {
            kontor_config cfg;
            kontor_state s;
            assert_int_equal(kontor_config_init(&cfg, kontor_variant_name(v), NULL), KONTOR_OK);
            assert_int_equal(kontor_new(&s, &cfg, seed, NULL), KONTOR_OK);
            const kontor_pile *p[] = {&s.water_pile, &s.aside, &s.special_pile, &s.dock_pile[0], &s.dock_pile[1],
                                      &s.dock_pile[2], &s.dock_pile[3]};
            for (size_t k = 0; k < sizeof p / sizeof *p; k++) {
                assert_true(p[k]->n <= KONTOR_PILE_MAX && p[k]->head + p[k]->n <= KONTOR_MAX_CARDS);
                if (k >= 3) assert_true(p[k]->n <= 22);
                if (p[k]->n > most) most = p[k]->n;
            }
        }
    assert_int_equal(most, 39);
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

/* ---- drawing and money ---------------------------------------------------------------- */

static void draw_the_same_kind_and_water_earns_a_coin(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "basic", NULL);
    choose(&s, 38, 5, NULL);
    int wtop = kontor_pile_card(&s, &s.water_pile, 0);
    int dtop = kontor_pile_card(&s, &s.dock_pile[1], 0);
    place(&s, 0, C(1, 1), NULL); /* 38 is higher: red first */
    assert_true(in_hand(&s, 0, s.cfg->cards->card[wtop].number));
    assert_int_equal(s.hand_n[0], 5);
    assert_int_equal(s.coins[0], 5);
    assert_int_equal(s.treasury, 11);
    place(&s, 1, C(-1, 1), NULL);
    assert_true(in_hand(&s, 1, s.cfg->cards->card[dtop].number));
    assert_int_equal(s.coins[1], 4);
    /* the new tops are public */
    kontor_view v;
    kontor_view_of(&s, 0, &v);
    assert_int_equal(kontor_pile_card(&v.s, &v.s.water_pile, 0), kontor_pile_card(&s, &s.water_pile, 0));
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
        cmocka_unit_test(kontor_new_deals_what_its_written_deal_deals),
        cmocka_unit_test(lemire_redraws_in_kontor_new_as_in_the_written_deal),
        cmocka_unit_test(setup_the_start_is_water_cards_only),
        cmocka_unit_test(pile_max_holds_every_pile_of_every_variant),
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
        cmocka_unit_test(draw_the_same_kind_and_water_earns_a_coin),
        cmocka_unit_test(no_draw_from_an_empty_pile_and_no_coin_from_an_empty_treasury),
        cmocka_unit_test(ruling_R9_the_game_ends_at_once_when_the_board_is_full),
        cmocka_unit_test(ruling_R9_option_final_draw_still_draws_and_pays),
        cmocka_unit_test(most_keepers_win_then_most_coins_else_a_draw),
        cmocka_unit_test(ruling_R8_the_game_ends_after_max_rounds),
        cmocka_unit_test(options_parse_and_describe_round_trip),
        cmocka_unit_test(cells_format_and_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
