/* test_rules_board.c: the rules of the board of the two-player game, one test per rule and per ruling of docs/rules.md.
 *
 * Where a card may be placed (orthogonally, never stacked, cranes), the
 * board's extent (basic and advanced), a card with no legal cell (R3),
 * compulsory placing (R4), and the ship of the advanced game (R6). Split
 * from test_rules.c along the rulebook's parts: a round and the end are in
 * test_rules_round.c, areas and their scoring in test_rules_scoring.c.
 *
 * Positions come about through the real interface (choose, place) wherever a
 * few rounds reach them; the rulebook's figures, which no short game reaches,
 * are laid by hand with the hooks of core/internal.h (tests/rulesutil.h). */
#include "rulesutil.h"
#include "core/rules.h"

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

/* The board's size (R5's W x H, docs/rules.md): the width and height
 * options are 3..8, the rulebook's largest board being 8x8 (the game for
 * four, Gigant); 9 and 12 (kontor's own extension until issue 17) are refused
 * with the range and the reason. A layout's growing board ('size') stops at
 * 8x8 too, a fixed one ('fixed') at 12 a side but no more cells than hold
 * KONTOR_MAX_AREAS areas (Canale's 12x4: 48), and a config made by hand
 * with a larger board is refused by the deal (a fixed board by its own
 * cells). */
static void ruling_R5_a_board_is_at_most_eight_by_eight_width_9_and_12_refused(void **st) {
    (void)st;
    static const char *const refused[] = {"width=9", "width=12", "height=9", "height=12", "width=2"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        kontor_config cfg;
        kontor_error err;
        assert_int_equal(kontor_config_init(&cfg, "four", NULL), KONTOR_OK);
        assert_int_equal(kontor_config_options(&cfg, refused[i], &err), KONTOR_E_RANGE);
        char want[96];
        snprintf(want, sizeof want, "option '%s' is out of range (3..8: the rulebook's largest board is 8x8)",
                 refused[i]);
        assert_string_equal(err.msg, want);
        assert_int_equal(cfg.width * cfg.height, 64); /* unchanged */
    }
    kontor_state s;
    setup(&s, "basic", "width=8,height=8");
    assert_int_equal(s.cfg->width * s.cfg->height, 64);
    /* the layouts */
    static const struct {
        const char *text, *why;
    } layouts[] = {{"size 9x8\n", "a board that grows is at most 8x8, not 9x8"},
                   {"size 12x12\n", "a board that grows is at most 8x8, not 12x12"},
                   {"fixed 12x6 -5,-2\n", "a 12x6 board could hold 36 areas, more than the 32 a game keeps"},
                   {"fixed 12x4 -5,-1\n", NULL},
                   {"size 8x8\nwater -2,+0\nwater +2,+0\nwater 0,-2\nwater 0,+2\n", NULL},
                   /* from the centre alone an 8x8 board reaches 15x15 cells, past
                    * the narrow board's window (docs/rules.md R5) */
                   {"size 8x8\n", "a 8x8 board from the centre alone reaches 15x15 cells, more than the 128 a game's "
                                   "board holds; make width or height smaller"}};
    for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
        kontor_config cfg;
        kontor_error err;
        assert_int_equal(kontor_config_init(&cfg, "advanced", NULL), KONTOR_OK);
        kontor_status st_ = kontor_layout_parse(&cfg, "t", layouts[i].text, strlen(layouts[i].text), &err);
        if (!layouts[i].why) {
            assert_int_equal(st_, KONTOR_OK);
            continue;
        }
        assert_int_equal(st_, KONTOR_E_PARSE);
        char want[256];
        snprintf(want, sizeof want, "layout 't' line 1: %s", layouts[i].why);
        assert_string_equal(err.msg, want);
    }
    /* a config made by hand */
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, "basic", NULL), KONTOR_OK);
    cfg.width = 12, cfg.height = 6;
    assert_int_not_equal(kontor_new(&s, &cfg, 1, &err), KONTOR_OK);
    assert_non_null(strstr(err.msg, "could hold more areas than a game keeps"));
    /* a fixed board is its own cells (Canale's 48), whatever the options say;
     * one of more than 64 cells made by hand is refused */
    assert_int_equal(kontor_config_init(&cfg, "canale", NULL), KONTOR_OK);
    assert_int_equal(kontor_config_options(&cfg, "height=8", NULL), KONTOR_OK);
    assert_int_equal(kontor_new(&s, &cfg, 1, &err), KONTOR_OK);
    cfg.board_mask.w[3] = ~0ULL;
    assert_int_not_equal(kontor_new(&s, &cfg, 1, &err), KONTOR_OK);
    assert_non_null(strstr(err.msg, "could hold more areas than a game keeps"));
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

/* R6: the ship moves to another water card; with none but the one it is on
 * a ship card is placed at once (start_turn's quick test, two water cards
 * seen in two places of the board's words, must not send it to the ship). */
static void ship_a_ship_card_with_no_other_water_card_is_placed(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "advanced", NULL);
    bare(&s);
    assert_int_equal(s.ship_cell, C(0, 0));
    choose(&s, 3 /* TWS ship */, PASS, NULL);
    assert_int_equal(s.phase, KONTOR_PHASE_PLACE);
    /* one water card more: the ship may move */
    setup(&s, "advanced", NULL);
    bare(&s);
    kontor__put(&s, C(2, 0), id(&s, 39));
    choose(&s, 3, PASS, NULL);
    assert_int_equal(s.phase, KONTOR_PHASE_SHIP);
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
    assert_int_equal(kontor_state_card_at(&s, C(2, 1)), KONTOR_NONE);
    assert_int_equal(s.dock_pile[0].n, under + 1);
    assert_int_equal(kontor_pile_card(&s, &s.dock_pile[0], under), id(&s, 3));
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
    assert_true(kt_in(&s, KONTOR_SET_ENCLOSED, C(1, -1)));
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

/* ---- the start ------------------------------------------------------------------------ */

/* place_start keeps the last start's frontier, extent and mask (one per
 * thread, cells.c's start_cache): a deal that finds its start there must give
 * the state byte for byte that a deal which works it out gives. Each variant
 * (and boards of other sizes) dealt after a board of another size (the
 * cache misses), then again (it hits). */
static void start_cache_gives_what_place_start_works_out(void **st) {
    (void)st;
    static const char *const variants[][2] = {
        {"basic", NULL}, {"advanced", NULL}, {"four", NULL}, {"specials", NULL}, {"canale", NULL},
        {"kleinen", NULL}, {"wasserspiele", NULL}, {"tictactoe", NULL}, {"bakschisch", NULL}, {"david", NULL},
        {"gigant", NULL}, {"gulliver", NULL}, {"justizia", NULL}, {"insel", NULL}, {"insel4", NULL},
        {"armut", NULL}, {"armut4", NULL}, {"seilschaften", NULL}, {"seilschaften4", NULL},
        {"basic", "width=8,height=4"}, {"four", "width=5,height=8"}, {"advanced", "width=3,height=3"}};
    static kontor_state miss, hit, other;
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        setup(&other, "basic", "width=7,height=3"); /* no variant's board: the next deal misses */
        setup(&miss, variants[v][0], variants[v][1]);
        setup(&hit, variants[v][0], variants[v][1]);
        if (memcmp(&miss, &hit, sizeof miss) != 0) fail_msg("%s %s: the start from the cache differs", variants[v][0],
                                                            variants[v][1] ? variants[v][1] : "");
        kontor_bb front = kontor_state_set(&hit, KONTOR_SET_FRONT);
        for (int c = kontor_bb_next(&front, 0); c >= 0; c = kontor_bb_next(&front, c + 1))
            assert_false(kt_in(&hit, KONTOR_SET_OCC, c));
        assert_true(kontor_bb_count(&front) != 0 && hit.minx <= hit.maxx && hit.maxy < 16);
    }
}

/* The cache is keyed by the board's size and the start's cells (cells.c,
 * session sixteen): a start of other cells on a board of the same size, dealt
 * after the usual one, must not take the usual start's frontier, extent and
 * mask. The basic game's cross moved one cell east and one south (the same
 * count of cells, the same 6x6 board), dealt after the basic game and after a
 * board of another size (the cache misses), byte for byte the same. */
static void start_cache_keys_the_start_by_its_cells(void **st) {
    (void)st;
    static kontor_state after_basic, after_other, other;
    kontor_config moved;
    assert_int_equal(kontor_config_init(&moved, "basic", NULL), KONTOR_OK);
    for (int i = 0; i < moved.layout_n; i++)
        moved.layout[i] = (uint8_t)(moved.layout[i] + 17); /* (x + 1, y + 1: kontor_cell) */
    setup(&other, "basic", NULL);
    assert_int_equal(kontor_new(&after_basic, &moved, 7, NULL), KONTOR_OK);
    setup(&other, "basic", "width=7,height=3");
    assert_int_equal(kontor_new(&after_other, &moved, 7, NULL), KONTOR_OK);
    if (memcmp(&after_basic, &after_other, sizeof after_basic) != 0) {
        size_t at = 0;
        while (((unsigned char *)&after_basic)[at] == ((unsigned char *)&after_other)[at]) at++;
        fail_msg("the moved start dealt after the basic game differs at byte %d", (int)at);
    }
    /* N1 (0,-1) moved to (1,0) */
    assert_true(kt_in(&after_basic, KONTOR_SET_OCC, kontor_cell(1, 0)) && !kt_in(&after_basic, KONTOR_SET_OCC, kontor_cell(0, -1)));
}

/* The playout's test whether a card grows the extent (outside_win, the four
 * bounds in one word, issue 17) answers as the four compares
 * (outside_extent): every cell against every extent the bounds can hold,
 * and the empty extent the deal begins with (255, 0, 255, 0). */
static void board_extent_grows_exactly_when_a_card_lies_beyond_a_bound(void **st) {
    (void)st;
    static kontor_state s;
    s.minx = s.miny = 255, s.maxx = s.maxy = 0;
    for (int c = 0; c < KONTOR_CELLS; c++)
        if (!outside_win(&s, (size_t)c)) fail_msg("cell %d lies inside the empty extent", c);
    for (int x0 = 0; x0 < 16; x0++)
        for (int x1 = x0; x1 < 16; x1++)
            for (int y0 = 0; y0 < 16; y0++)
                for (int y1 = y0; y1 < 16; y1++) {
                    s.minx = (uint8_t)x0, s.maxx = (uint8_t)x1, s.miny = (uint8_t)y0, s.maxy = (uint8_t)y1;
                    for (int c = 0; c < KONTOR_CELLS; c++)
                        if (outside_win(&s, (size_t)c) != outside_extent(&s, c))
                            fail_msg("cell %d, extent x %d..%d y %d..%d: outside_win says %d", c, x0, x1, y0, y1,
                                     outside_win(&s, (size_t)c));
                }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(placement_example_two_cards_leave_six_cells_a_to_f),
        cmocka_unit_test(placement_must_touch_a_card_orthogonally_and_never_stack),
        cmocka_unit_test(board_extent_is_fixed_once_a_direction_reaches_six),
        cmocka_unit_test(advanced_board_is_seven_by_seven),
        cmocka_unit_test(ruling_R5_a_board_is_at_most_eight_by_eight_width_9_and_12_refused),
        cmocka_unit_test(crane_keeps_the_free_cells_next_to_it_clear_of_opposing_dock_cards),
        cmocka_unit_test(crane_two_opposing_cranes_leave_only_water),
        cmocka_unit_test(ruling_R3_a_card_with_no_legal_cell_goes_back_to_the_hand),
        cmocka_unit_test(ruling_R4_placing_is_compulsory_unless_optional_place),
        cmocka_unit_test(ship_a_ship_card_may_move_the_ship_to_any_other_water_card),
        cmocka_unit_test(ship_a_ship_card_with_no_other_water_card_is_placed),
        cmocka_unit_test(ship_a_card_without_ship_symbol_does_not_move_it),
        cmocka_unit_test(ship_not_moving_means_no_removal),
        cmocka_unit_test(ship_example_black_removes_the_3_and_the_area_splits),
        cmocka_unit_test(ship_only_ship_symbol_cards_outside_enclosed_areas_own_cards_too),
        cmocka_unit_test(ruling_R6_the_extent_does_not_shrink_when_the_ship_removes_an_edge_card),
        cmocka_unit_test(start_cache_gives_what_place_start_works_out),
        cmocka_unit_test(start_cache_keys_the_start_by_its_cells),
        cmocka_unit_test(board_extent_grows_exactly_when_a_card_lies_beyond_a_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
