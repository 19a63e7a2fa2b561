/* test_scenarios.c: the scenarios' boards and scoring: one test per rule that a scenario changes there.
 *
 * The machinery (variants, start layouts as data, fixed boards, cards out of
 * the game), the scenarios that change the board or what scores (Immer auf
 * die Kleinen, Wasserspiele, Tic Tac Toe, David und Goliath, Gigant,
 * Gullivers Reisen, Die grosse Insel), one hand-built game per scenario that
 * shows its special ending or scoring, and records of every scenario that
 * replay. The scenarios that change what the players decide or own are in
 * test_scenarios_players.c.
 *
 * Test names follow docs/variants.md: the scenario, then the rule. Positions
 * are reached through kontor_apply where a round or two gets there; the rest
 * are laid by hand with the hooks of core/internal.h (tests/scenutil.h). */
#include "scenutil.h"

#include "kontor/draw.h"
#include "kontor/record.h"

/* The placement of cell by seat is illegal in s, and kontor_why_illegal
 * says exactly why. */
static void placing_is_illegal_because(const kontor_state *s, int seat, int cell, const char *why_want) {
    char why[160];
    kontor_move m = KONTOR_MOVE(KONTOR_MOVE_PLACE, cell);
    assert_false(kontor_is_legal(s, seat, m));
    kontor_why_illegal(s, seat, m, why, sizeof why);
    assert_string_equal(why, why_want);
}

/* ---- the machinery: variants, layouts, fixed boards, cards out of the game ---- */

static void variants_every_name_makes_a_config(void **st) {
    (void)st;
    for (int v = 0; v < KONTOR_NVARIANTS; v++) {
        kontor_config cfg;
        assert_int_equal(kontor_config_init(&cfg, kontor_variant_name(v), NULL), KONTOR_OK);
        assert_int_equal(cfg.variant, v);
        assert_non_null(kontor_variant_describe(v));
        /* every start layout fits the board */
        kontor_state s;
        assert_int_equal(kontor_new(&s, &cfg, 3, NULL), KONTOR_OK);
        assert_int_equal(s.ncards_board, 1 + cfg.layout_n);
    }
    assert_null(kontor_variant_describe(KONTOR_NVARIANTS));
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, "atlantis", &err), KONTOR_E_INVALID);
    assert_string_equal(err.msg, "unknown variant 'atlantis' (kontor variants lists them)");
}

static void layouts_are_data_and_parse(void **st) {
    (void)st;
    static const struct {
        const char *name;
        int water, inner, fixed, w, h;
    } want[] = {{"canale", 13, 0, 1, 12, 4},      {"wasserspiele", 4, 0, 0, 6, 6}, {"tictactoe", 27, 0, 1, 8, 8},
                {"insel", 15, 9, 0, 7, 7},        {"insel4", 19, 16, 0, 8, 8}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const char *text = kontor_layout_text(want[i].name);
        assert_non_null(text);
        kontor_config cfg;
        kontor_error err;
        kontor_config_init(&cfg, "advanced", NULL);
        if (kontor_layout_parse(&cfg, want[i].name, text, strlen(text), &err)) fail_msg("%s", err.msg);
        assert_int_equal(cfg.layout_n, want[i].water);
        assert_int_equal(bbn(&cfg.inner), want[i].inner);
        assert_int_equal(cfg.fixed_board, want[i].fixed);
        assert_int_equal(cfg.width, want[i].w);
        assert_int_equal(cfg.height, want[i].h);
        if (want[i].fixed) assert_int_equal(bbn(&cfg.board_mask), want[i].w * want[i].h);
    }
    assert_null(kontor_layout_text("atlantis"));
}

static void layouts_with_an_error_name_the_line(void **st) {
    (void)st;
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"# a comment\nsize 6x6\nwater +1,0\nwater +1,0\n", "layout 't' line 4: cell +1,0 is given twice"},
        {"fixed 12x4 -5,-1\nwater +7,0\n", "layout 't' line 2: cell +7,0 is outside the fixed board"},
        {"size 6x6\nlake +1,0\n", "layout 't' line 2: 'lake' is not 'size', 'fixed', 'water' or 'inner'"},
        {"water +1,0\n", "layout 't' line 1: the layout has no 'size' or 'fixed' line"},
        {"size 6x6\nwater 0,0\n", "layout 't' line 2: cell 0,0 is the harbour centre"},
        {"size 6x6\nwater +1;0\n", "layout 't' line 2: '+1;0' is not a cell like +1,-2"},
        {"size 13x6\n", "layout 't' line 1: '13x6' is not a size from 3x3 to 12x12"},
        {"size 4x4\nwater +4,0\n", "layout 't' line 2: the start cards span 5x1, more than the 4x4 board"},
        {"fixed 4x4 +1,+1\n", "layout 't' line 1: the board does not hold the harbour centre 0,0"},
        /* the narrow board's window (docs/rules.md R5): a start of one water
         * card lets an 8x6 board grow 13x11 cells, past 128; found by the
         * layout fuzzer (a layout that parses must deal) */
        {"# a start of one card\nsize 8x6\nwater -2,+0\n",
         "layout 't' line 2: a 8x6 board from its start reaches 13x11 cells, more than the 128 a game's board "
         "holds; make width or height smaller"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        kontor_config cfg;
        kontor_error err;
        kontor_config_init(&cfg, "advanced", NULL);
        assert_int_equal(kontor_layout_parse(&cfg, "t", bad[i].text, strlen(bad[i].text), &err), KONTOR_E_PARSE);
        assert_string_equal(err.msg, bad[i].msg);
    }
}

static void fixed_board_is_the_mask_from_the_start(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "canale", NULL, 1);
    kontor_bb mask = kontor_state_set(&s, KONTOR_SET_MASK);
    assert_memory_equal(&mask, &s.cfg->board_mask, sizeof mask);
    assert_int_equal(bbn(&mask), 48);
    /* the canal: from the west edge to the east edge */
    assert_true(kt_in(&s, KONTOR_SET_WATER, C(-5, 1)) && kt_in(&s, KONTOR_SET_WATER, C(6, 1)) &&
                kt_in(&s, KONTOR_SET_WATER, C(0, 0)));
    /* two rows north of the centre is off the 4x12 board, though a 7x7 board would allow it */
    choose(&s, 38, PASS);
    placing_is_illegal_because(&s, 0, C(0, -2), "cell 0,-2 is outside the 12x4 board");
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(0, -1))));
}

static void canale_board_edges_enclose_from_the_start(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "canale", NULL, 1);
    /* two red cards in the north-west corner, closed by the edges, the canal
     * and two water cards: enclosed at once (a growing board would wait) */
    kontor__put(&s, C(-5, 0), id(&s, 5));
    kontor__put(&s, C(-5, -1), id(&s, 9));
    kontor__put(&s, C(-4, 0), id(&s, 38));
    kontor__put(&s, C(-4, -1), id(&s, 40));
    kontor__score_enclosed(&s, NULL);
    assert_int_equal(s.nareas, 1);
    assert_int_equal(s.area[0].size, 2);
    assert_int_equal(s.area[0].winner, 0);
}

static void cards_out_of_the_game_are_never_dealt(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "kleinen", NULL, 2);
    /* Kleinen: every crane (7, 8, 43, 44) is out */
    int cranes[4] = {7, 8, 43, 44};
    for (int i = 0; i < 4; i++) {
        int c = id(&s, cranes[i]);
        assert_true(kontor_card_removed(s.cfg, c));
        assert_false(in_hand(&s, 0, cranes[i]) || in_hand(&s, 1, cranes[i]));
        assert_false(in_pile(&s, &s.dock_pile[0], c) || in_pile(&s, &s.dock_pile[1], c));
    }
    assert_int_equal(s.dock_pile[0].n + 3, 20);
    /* Gulliver: cranes without a ship symbol (43, 44) and taverns (86, 87) out, 7 and 8 in */
    setup(&s, "gulliver", NULL, 2);
    assert_true(kontor_card_removed(s.cfg, id(&s, 43)) && kontor_card_removed(s.cfg, id(&s, 44)));
    assert_true(kontor_card_removed(s.cfg, id(&s, 86)) && kontor_card_removed(s.cfg, id(&s, 87)));
    assert_false(kontor_card_removed(s.cfg, id(&s, 7)) || kontor_card_removed(s.cfg, id(&s, 8)));
    assert_int_equal(s.dock_pile[0].n + 3, 20);
}

/* ---- Immer auf die Kleinen ---- */

/* An enclosed area, written down as score_area would. */
static void add_area(kontor_state *s, int size, int dist, int winner) {
    kontor_area *a = &s->area[s->nareas++];
    memset(a, 0, sizeof *a);
    a->cell = (uint8_t)(s->nareas * 3);
    a->size = (uint8_t)size;
    a->dist = (uint8_t)dist;
    a->winner = (uint8_t)winner;
    a->keeper = winner != KONTOR_NONE;
    a->value = 1;
}

static void kleinen_areas_under_four_score_their_size(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "kleinen", NULL, 1);
    assert_int_equal(s.cfg->width, 6);
    assert_int_equal(s.ship_cell, KONTOR_NONE);
    assert_int_equal(s.ncards_board, 1); /* "nur die Hafenzentrumkarte" */
    kontor__clear_board(&s);
    /* red: areas of 1 and 3 cards; black: 2 and 4 cards, laid and scored for real */
    kontor__put(&s, C(0, 0), id(&s, 0));
    kontor__put(&s, C(-2, -2), id(&s, 5)); /* red 1 */
    kontor__put(&s, C(0, -2), id(&s, 6));  /* black 2 */
    kontor__put(&s, C(1, -2), id(&s, 10));
    kontor__put(&s, C(-2, 0), id(&s, 9)); /* red 3 */
    kontor__put(&s, C(-2, 1), id(&s, 13));
    kontor__put(&s, C(-2, 2), id(&s, 15));
    kontor__put(&s, C(2, 0), id(&s, 14)); /* black 4 */
    kontor__put(&s, C(2, 1), id(&s, 16));
    kontor__put(&s, C(2, 2), id(&s, 18));
    kontor__put(&s, C(3, 2), id(&s, 20));
    /* water all around each of them, on the 6x6 board x -2..+3, y -2..+3 */
    kontor__put(&s, C(0, 3), id(&s, 85));
    int water = 37;
    for (int y = -2; y <= 3; y++)
        for (int x = -2; x <= 3; x++) {
            int c = C(x, y);
            if (kontor_state_card_at(&s, c) != KONTOR_NONE) continue;
            int next = 0;
            for (int k = 0; k < 4; k++) {
                int n = c + (k == 0 ? 1 : k == 1 ? -1 : k == 2 ? 16 : -16);
                if (kontor_state_card_at(&s, n) != KONTOR_NONE &&
                    !kontor_card_is_water(&s.cfg->cards->card[kontor_state_card_at(&s, n)]))
                    next = 1;
            }
            while (water <= 85 && s.cfg->cards->card[id(&s, water)].kind != KONTOR_KIND_WATER) water++;
            if (next && water <= 85) kontor__put(&s, c, id(&s, water++));
        }
    kontor__score_enclosed(&s, NULL);
    assert_int_equal(s.nareas, 4);
    int pts[2];
    kontor_points(&s, pts);
    assert_int_equal(pts[0], 1 + 3); /* sizes 1 and 3 */
    assert_int_equal(pts[1], 2);     /* size 2; the area of 4 scores nothing */
}

/* ---- Wasserspiele ---- */

static void wasserspiele_dock_cards_must_touch_water(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "wasserspiele", NULL, 1);
    assert_int_equal(s.ncards_board, 5);
    choose(&s, 5, PASS);
    assert_int_equal(s.phase, KONTOR_PHASE_PLACE);
    kontor_bb wet = kontor_state_set(&s, KONTOR_SET_WATER);
    /* every legal cell touches a water card */
    kontor_move m[KONTOR_MAX_MOVES];
    int n = kontor_legal(&s, 0, m);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        int c = KONTOR_MOVE_VALUE(m[i]);
        int touches = bbt(&wet, c + 1) || bbt(&wet, c - 1) || bbt(&wet, c + 16) || bbt(&wet, c - 16);
        assert_true(touches);
    }
    /* 0,-1 touches the centre: legal; cells off the water are not listed */
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(0, -1))));
}

static void wasserspiele_a_dock_card_away_from_water_is_illegal(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "wasserspiele", NULL, 1);
    choose(&s, 5, PASS);
    place(&s, 0, C(0, -1));
    choose(&s, 9, PASS);
    /* 0,-2 touches only the dock card on 0,-1 (the fountains are diagonal) */
    placing_is_illegal_because(&s, 0, C(0, -2), "cell 0,-2 does not touch water: every dock card must");
}

static void wasserspiele_no_cell_by_water_takes_the_card_back(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "wasserspiele", NULL, 1);
    /* ring every water card with dock cards by hand: no free cell touches water */
    int dock = 0;
    static const int red[] = {1, 3, 5, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 41, 45};
    for (int y = -3; y <= 3; y++)
        for (int x = -3; x <= 3; x++) {
            int c = C(x, y);
            if (kontor_state_card_at(&s, c) != KONTOR_NONE || !kt_in(&s, KONTOR_SET_MASK, c)) continue;
            kontor_bb water = kontor_state_set(&s, KONTOR_SET_WATER);
            int wet = bbt(&water, c + 1) || bbt(&water, c - 1) || bbt(&water, c + 16) || bbt(&water, c - 16);
            if (wet && dock < 19) kontor__put(&s, c, id(&s, red[dock++]));
        }
    give(&s, 1, 6);
    kontor_log log = {.n = 0};
    int pick[2] = {KONTOR_PASS, id(&s, 6)};
    assert_int_equal(kt_choose_all(&s, pick, &log), KONTOR_OK);
    /* black's card had no cell by the water: back to the hand (R3) */
    int back = 0;
    for (int i = 0; i < log.n; i++)
        if (log.ev[i].kind == KONTOR_EV_TAKEBACK && log.ev[i].a == KONTOR_TAKEBACK_NOCELL) back = 1;
    assert_true(back);
    assert_true(in_hand(&s, 1, 6));
}

/* Ruling V10: a round that opens with no seat holding a card that fits
 * anywhere ends the game (as when nobody holds a card), in the scenarios
 * whose cell rules can forbid every cell. new_round asks for it only when the
 * state's hooks say the config has such rules (KONTOR__HOOK_CELLS, worked
 * out at the deal): the basic game's rounds test one byte. The same hands in
 * the basic game, where the dock cards fit, go on to the next round. */
static void ring_the_water(kontor_state *s) {
    int dock = 0;
    static const int red[] = {1, 3, 5, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 41, 45};
    for (int y = -3; y <= 3; y++)
        for (int x = -3; x <= 3; x++) {
            int c = C(x, y);
            if (kontor_state_card_at(s, c) != KONTOR_NONE || !kt_in(s, KONTOR_SET_MASK, c)) continue;
            kontor_bb water = kontor_state_set(s, KONTOR_SET_WATER);
            int wet = bbt(&water, c + 1) || bbt(&water, c - 1) || bbt(&water, c + 16) || bbt(&water, c - 16);
            if (wet && dock < 19) kontor__put(s, c, id(s, red[dock++]));
        }
    /* one dock card a hand, none of them on the board */
    memset(s->hand, 0, sizeof s->hand);
    s->hand_n[0] = s->hand_n[1] = 1;
    s->hand[0][0] = (uint8_t)id(s, 43);
    s->hand[1][0] = (uint8_t)id(s, 6);
}

static void ruling_V10_a_round_nobody_can_place_in_ends_the_game(void **st) {
    (void)st;
    for (int wet = 0; wet < 2; wet++) {
        kontor_state s;
        setup(&s, wet ? "wasserspiele" : "basic", NULL, 1);
        ring_the_water(&s);
        int pick[2] = {KONTOR_PASS, id(&s, 6)};
        kontor_log log = {.n = 0};
        assert_int_equal(kt_choose_all(&s, pick, &log), KONTOR_OK);
        if (wet) {
            /* black's card went back (no cell by the water), and in the next
             * round neither card fits anywhere */
            assert_true(in_hand(&s, 1, 6));
            assert_int_equal(s.phase, KONTOR_PHASE_OVER);
            assert_int_equal(s.end_reason, KONTOR_END_STUCK);
        } else {
            /* black places its card; the game goes on */
            assert_int_equal(s.phase, KONTOR_PHASE_PLACE);
            assert_int_equal(s.round, 1);
        }
    }
}

/* ---- Tic Tac Toe ---- */

static void tictactoe_water_may_not_split_an_island(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "tictactoe", NULL, 1);
    assert_true(kontor_card_removed(s.cfg, id(&s, 7)) && kontor_card_removed(s.cfg, id(&s, 43)));
    /* the north-west island: -2..-1 x -2..-1; water on its corner -2,-2 */
    kontor__put(&s, C(-2, -2), id(&s, 85));
    choose(&s, 38, PASS);
    /* -1,-1 would cut -1,-2 from -2,-1 */
    placing_is_illegal_because(&s, 0, C(-1, -1), "a water card on -1,-1 would split an island in two");
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(-1, -2))));
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(-2, -1))));
}

static void tictactoe_three_islands_in_a_row_win_at_once(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "tictactoe", NULL, 1);
    /* red fills the two western islands of the top row, and three cells of the third */
    static const int red[] = {1, 3, 5, 9, 11, 13, 15, 17, 19, 21, 23};
    int k = 0;
    static const int xs[3][2] = {{-2, -1}, {1, 2}, {4, 5}};
    for (int i = 0; i < 3; i++)
        for (int y = -2; y <= -1; y++)
            for (int j = 0; j < 2; j++)
                if (!(i == 2 && y == -1 && j == 1)) kontor__put(&s, C(xs[i][j], y), id(&s, red[k++]));
    kontor__score_enclosed(&s, NULL);
    assert_int_equal(s.nareas, 2);
    assert_false(kontor_over(&s));
    choose(&s, 41, PASS);
    place(&s, 0, C(5, -1));
    assert_true(kontor_over(&s));
    assert_int_equal(s.end_reason, KONTOR_END_ROW);
    assert_int_equal(s.winner, 0);
    assert_int_equal(s.nareas, 3);
}

static void tictactoe_a_diagonal_wins_too(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "tictactoe", NULL, 1);
    /* black owns the islands 0 (north-west), 4 (middle) and 8 (south-east) */
    static const int black[] = {2, 4, 6, 10, 12, 14, 16, 18, 20, 22, 24, 26};
    static const int at[3][2] = {{-2, -2}, {1, 1}, {4, 4}};
    int k = 0;
    for (int i = 0; i < 3; i++)
        for (int dy = 0; dy < 2; dy++)
            for (int dx = 0; dx < 2; dx++)
                if (!(i == 2 && dx == 1 && dy == 1)) kontor__put(&s, C(at[i][0] + dx, at[i][1] + dy), id(&s, black[k++]));
    kontor__score_enclosed(&s, NULL);
    choose(&s, PASS, 28);
    place(&s, 1, C(5, 5));
    assert_true(kontor_over(&s));
    assert_int_equal(s.end_reason, KONTOR_END_ROW);
    assert_int_equal(s.winner, 1);
}

/* Fill island (col, row) of the Tic Tac Toe grid with the given dock cards
 * (four numbers; 0 leaves that cell free), row by row. */
static void fill_island(kontor_state *s, int col, int row, const int cards[4]) {
    for (int k = 0; k < 4; k++)
        if (cards[k]) kontor__put(s, C(-2 + 3 * col + k % 2, -2 + 3 * row + k / 2), id(s, cards[k]));
}

/* V14: a scoring that completes rows for both players at once ends the game,
 * and the points decide. The engine checks for a row after every scoring, so
 * this cannot arise in play (one card closes at most one island); the
 * position is built by hand: both rows laid without a check, then a third
 * player-less scoring (a black island closed by red's water card) runs it.
 * Black owns more islands: he wins (before the ruling red was named, as the
 * first colour checked). */
static void ruling_V14_rows_for_both_at_once_are_decided_by_points(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "tictactoe", NULL, 1);
    static const int red[3][4] = {{1, 3, 5, 9}, {11, 13, 15, 17}, {19, 21, 23, 25}};
    static const int black[4][4] = {{2, 4, 6, 10}, {12, 14, 16, 18}, {20, 22, 24, 26}, {28, 30, 32, 0}};
    for (int i = 0; i < 3; i++) fill_island(&s, i, 0, red[i]);   /* red: the top row */
    for (int i = 0; i < 3; i++) fill_island(&s, i, 2, black[i]); /* black: the bottom row */
    kontor__score_enclosed(&s, NULL);                              /* scored by hand: no row check ran */
    assert_int_equal(s.nareas, 6);
    assert_false(kontor_over(&s));
    fill_island(&s, 0, 1, black[3]); /* a fourth black island, open at -1,+2 */
    choose(&s, 38, PASS);
    place(&s, 0, C(-1, 2));
    assert_int_equal(s.nareas, 7);
    assert_true(kontor_over(&s));
    assert_int_equal(s.end_reason, KONTOR_END_ROW);
    assert_int_equal(s.score[0], 3);
    assert_int_equal(s.score[1], 4);
    assert_int_equal(s.winner, 1); /* the points decide, not the colour checked first */
}

/* ---- David und Goliath, Gigant ---- */

static void david_the_three_smallest_areas_score(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "david", NULL, 1);
    assert_int_equal(s.cfg->width, 6);
    s.nareas = 0;
    add_area(&s, 5, 1, 0);
    add_area(&s, 1, 3, 1);
    add_area(&s, 2, 2, 0);
    add_area(&s, 3, 1, 1);
    add_area(&s, 4, 1, 0);
    uint8_t counted[KONTOR_MAX_AREAS];
    kontor_counted_areas(&s, counted);
    assert_int_equal(counted[0] + counted[4], 0);
    assert_int_equal(counted[1] + counted[2] + counted[3], 3);
    int pts[2];
    kontor_points(&s, pts);
    assert_int_equal(pts[0], 1);
    assert_int_equal(pts[1], 2);
}

static void david_ties_at_the_boundary_count_for_nobody(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "david", NULL, 1);
    s.nareas = 0;
    add_area(&s, 1, 2, 0);
    add_area(&s, 2, 1, 1); /* three areas of 2 at the same distance for two places */
    add_area(&s, 2, 1, 0);
    add_area(&s, 2, 1, 0);
    add_area(&s, 2, 3, 1); /* farther: moves up (R10) */
    uint8_t counted[KONTOR_MAX_AREAS];
    kontor_counted_areas(&s, counted);
    assert_int_equal(counted[0], 1);
    assert_int_equal(counted[1] + counted[2] + counted[3], 0);
    assert_int_equal(counted[4], 1);
}

static void gigant_the_seven_largest_on_eight_by_eight(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "gigant", NULL, 1);
    assert_int_equal(s.cfg->width, 8);
    s.nareas = 0;
    for (int i = 1; i <= 8; i++) add_area(&s, i, 1, i & 1);
    uint8_t counted[KONTOR_MAX_AREAS];
    kontor_counted_areas(&s, counted);
    assert_int_equal(counted[0], 0); /* the smallest of eight */
    for (int i = 1; i < 8; i++) assert_int_equal(counted[i], 1);
}

static void gulliver_five_by_five_with_three_coins(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "gulliver", NULL, 1);
    assert_int_equal(s.cfg->width, 5);
    assert_int_equal(s.coins[0], 3);
    assert_int_equal(s.treasury, 20 - 6);
    assert_int_equal(s.ncards_board, 1);
    assert_int_equal(s.cfg->largest, 0);
    assert_true(s.ship_cell == KONTOR_CENTRE_CELL);
}

/* ---- Die grosse Insel ---- */

static void insel_no_water_on_the_island(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "insel", NULL, 1);
    assert_int_equal(s.ncards_board, 16);
    assert_true(kontor_card_removed(s.cfg, id(&s, 43)));
    assert_false(kontor_card_removed(s.cfg, id(&s, 7)));
    choose(&s, 38, PASS);
    placing_is_illegal_because(&s, 0, C(0, -1), "cell 0,-1 is on the island: no water may go there");
    assert_true(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_PLACE, C(0, 1))));
}

static void insel_the_island_scores_two(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "insel", NULL, 1);
    static const int cards[9] = {1, 3, 5, 9, 2, 4, 11, 13, 15};
    int k = 0;
    for (int y = -3; y <= -1; y++)
        for (int x = -1; x <= 1; x++)
            if (!(x == 1 && y == -1)) kontor__put(&s, C(x, y), id(&s, cards[k++]));
    choose(&s, 41, PASS);
    place(&s, 0, C(1, -1));
    assert_int_equal(s.nareas, 1);
    assert_int_equal(s.area[0].size, 9);
    assert_int_equal(s.area[0].value, 2);
    int pts[2];
    kontor_points(&s, pts);
    assert_int_equal(pts[0], 2);
}

/* V15: with cranes in play, a free island cell next to a red and a black
 * crane can hold no card (the cranes keep every dock card off, no water may
 * go on the island): it closes the island like the board's edge, and kontor
 * show marks it 'x'. Red's crane stands west of the island's middle cell;
 * black lays his crane east of it: the island (eight cards) is enclosed and
 * scored (2 points) although its middle cell is free. */
static void insel_a_cell_between_opposing_cranes_closes_the_island(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "insel", NULL, 1);
    static const int cards[9] = {1, 3, 5, 7, 0, 0, 9, 11, 13}; /* 7: red's crane; 0: left free */
    for (int k = 0; k < 9; k++)
        if (cards[k]) kontor__put(&s, C(-1 + k % 3, -3 + k / 3), id(&s, cards[k]));
    kontor__score_enclosed(&s, NULL);
    assert_int_equal(s.nareas, 0);
    kontor_bb dead;
    kontor_dead_cells(&s, &dead);
    assert_int_equal(bbn(&dead), 0);
    choose(&s, PASS, 8); /* black's crane, with a ship symbol: he leaves the ship */
    assert_int_equal(kontor_apply(&s, 1, KONTOR_MOVE(KONTOR_MOVE_SHIP, KONTOR_NONE), NULL), KONTOR_OK);
    place(&s, 1, C(1, -2));
    kontor_dead_cells(&s, &dead);
    assert_int_equal(bbn(&dead), 1);
    assert_true(bbt(&dead, C(0, -2)));
    assert_int_equal(s.nareas, 1);
    assert_int_equal(s.area[0].size, 8);
    assert_int_equal(s.area[0].value, 2);
    assert_int_equal(s.area[0].winner, 0);
    int pts[2];
    kontor_points(&s, pts);
    assert_int_equal(pts[0], 2);
    char buf[8192];
    kontor_draw_board(&s, buf, sizeof buf, 0);
    assert_non_null(strstr(buf, "  x"));
    assert_non_null(strstr(buf, "x an island cell no card can ever fill"));
}

/* V15, the other half: a free island cell next to an enclosed area takes no
 * card ("Abgeschlossene Gebiete sind tabu"), so it stays closed when the
 * ship takes away one of the cranes that made it dead. By hand: red's
 * column (crane in the middle) between the ring and two water cards laid on
 * the island by hand; black's card north-east. Black lays his crane east of
 * the middle cell: that cell is dead and closes red's column (not the
 * crane's own area, which stays open). Then red's ship card clears black's
 * crane; the middle cell is next to red's crane only now, yet red may not
 * lay his card there. */
static void insel_a_dead_cell_stays_closed_when_the_ship_takes_a_crane(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "insel", NULL, 1);
    kontor__put(&s, C(-1, -3), id(&s, 1));
    kontor__put(&s, C(-1, -2), id(&s, 7));
    kontor__put(&s, C(-1, -1), id(&s, 5));
    kontor__put(&s, C(0, -3), id(&s, 84));
    kontor__put(&s, C(0, -1), id(&s, 83));
    kontor__put(&s, C(1, -3), id(&s, 2));
    kontor__score_enclosed(&s, NULL);
    assert_int_equal(s.nareas, 0);
    choose(&s, PASS, 8);
    assert_int_equal(kontor_apply(&s, 1, KONTOR_MOVE(KONTOR_MOVE_SHIP, KONTOR_NONE), NULL), KONTOR_OK);
    place(&s, 1, C(1, -2));
    assert_int_equal(s.nareas, 1); /* red's column, closed by the dead cell */
    assert_int_equal(s.area[0].size, 3);
    assert_int_equal(s.area[0].winner, 0);
    choose(&s, 3, PASS); /* 3 shows a ship */
    assert_int_equal(kontor_apply(&s, 0, KONTOR_MOVE(KONTOR_MOVE_SHIP, C(2, -2)), NULL), KONTOR_OK);
    assert_int_equal(kontor_apply(&s, 0, KONTOR_MOVE(KONTOR_MOVE_REMOVE, C(1, -2)), NULL), KONTOR_OK);
    assert_int_equal(s.phase, KONTOR_PHASE_PLACE);
    assert_false(kt_count(&s, KONTOR_SET_CRANE1));
    kontor_bb dead;
    kontor_dead_cells(&s, &dead);
    assert_true(bbt(&dead, C(0, -2)));
    placing_is_illegal_because(&s, 0, C(0, -2), "cell 0,-2 is next to an enclosed area: it is taboo");
    place(&s, 0, C(1, -2)); /* the freed cell is fine */
}

static void insel4_is_for_four_without_special_cards(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "insel4", NULL, 1);
    assert_int_equal(s.cfg->nseats, 4);
    assert_int_equal(s.cfg->specials, 0);
    assert_int_equal(s.cfg->width, 8);
    assert_int_equal(bbn(&s.cfg->inner), 16);
    assert_int_equal(s.ncards_board, 20);
}

/* ---- records of every variant replay (for two and for four) ---- */

static void records_of_every_scenario_replay(void **st) {
    (void)st;
    for (int v = 0; v < KONTOR_NVARIANTS; v++) {
        kontor_config cfg;
        kontor_config_init(&cfg, kontor_variant_name(v), NULL);
        for (int g = 0; g < 5; g++) {
            kontor_state s;
            kontor_record r;
            kt_deal_recorded(&s, &r, &cfg, (uint64_t)g);
            kontor_rng rng;
            kontor_rng_seed(&rng, (uint64_t)g + 99);
            while (!kontor_over(&s)) {
                int seat = __builtin_ctz(kontor_actors(&s));
                kontor_move m[KONTOR_MAX_MOVES];
                int n = kontor_legal(&s, seat, m);
                kontor_move pick = m[kontor_rng_below(&rng, (uint32_t)n)];
                assert_int_equal(kontor_apply(&s, seat, pick, NULL), KONTOR_OK);
                assert_int_equal(kontor_record_push(&r, seat, pick), KONTOR_OK);
            }
            kontor_record_set_result(&r, &s);
            char *text;
            size_t len;
            assert_int_equal(kontor_record_write(&r, &text, &len), KONTOR_OK);
            kontor_record back;
            kontor_error err;
            if (kontor_record_parse(&back, text, len, &err)) fail_msg("%s: %s", kontor_variant_name(v), err.msg);
            assert_int_equal(back.cfg.variant, v);
            kontor_state t;
            if (kontor_record_replay(&back, -1, &t, NULL, NULL, &err)) fail_msg("%s: %s", kontor_variant_name(v), err.msg);
            assert_memory_equal(&s, &t, sizeof s);
            free(text);
            kontor_record_release(&r);
            kontor_record_release(&back);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(variants_every_name_makes_a_config),
        cmocka_unit_test(layouts_are_data_and_parse),
        cmocka_unit_test(layouts_with_an_error_name_the_line),
        cmocka_unit_test(fixed_board_is_the_mask_from_the_start),
        cmocka_unit_test(canale_board_edges_enclose_from_the_start),
        cmocka_unit_test(cards_out_of_the_game_are_never_dealt),
        cmocka_unit_test(kleinen_areas_under_four_score_their_size),
        cmocka_unit_test(wasserspiele_dock_cards_must_touch_water),
        cmocka_unit_test(wasserspiele_a_dock_card_away_from_water_is_illegal),
        cmocka_unit_test(wasserspiele_no_cell_by_water_takes_the_card_back),
        cmocka_unit_test(ruling_V10_a_round_nobody_can_place_in_ends_the_game),
        cmocka_unit_test(tictactoe_water_may_not_split_an_island),
        cmocka_unit_test(tictactoe_three_islands_in_a_row_win_at_once),
        cmocka_unit_test(tictactoe_a_diagonal_wins_too),
        cmocka_unit_test(ruling_V14_rows_for_both_at_once_are_decided_by_points),
        cmocka_unit_test(david_the_three_smallest_areas_score),
        cmocka_unit_test(david_ties_at_the_boundary_count_for_nobody),
        cmocka_unit_test(gigant_the_seven_largest_on_eight_by_eight),
        cmocka_unit_test(gulliver_five_by_five_with_three_coins),
        cmocka_unit_test(insel_no_water_on_the_island),
        cmocka_unit_test(insel_the_island_scores_two),
        cmocka_unit_test(insel_a_cell_between_opposing_cranes_closes_the_island),
        cmocka_unit_test(insel_a_dead_cell_stays_closed_when_the_ship_takes_a_crane),
        cmocka_unit_test(insel4_is_for_four_without_special_cards),
        cmocka_unit_test(records_of_every_scenario_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
