/* test_expansions.c: the designer's expansions (fan page, docs/variants.md),
 * one test per rule they change, and records that replay with them on:
 * the Exportlager (export=1), the event cards (events=1, our own events from
 * data/events.txt) and the action tiles (tiles=1). Their random-game
 * properties run in test_properties.c. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/internal.h"
#include "core/rules.h" /* export_add, export_mark */
#include "kontor/record.h"

static int C(int dx, int dy) { return kontor_cell(dx, dy); }

static int id(const kontor_state *s, int number) {
    int i = kontor__card_id(s, number);
    assert_true(i >= 0);
    return i;
}

static void setup(kontor_state *s, const char *variant, const char *opts) {
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, variant, &err), KONTOR_OK);
    if (opts && kontor_config_options(&cfg, opts, &err)) fail_msg("%s", err.msg);
    assert_int_equal(kontor_new(s, &cfg, 7, &err), KONTOR_OK);
}

static void give(kontor_state *s, int seat, int n) {
    for (int i = 0; i < s->hand_n[seat]; i++)
        if (s->hand[seat][i] == id(s, n)) return;
    s->hand[seat][0] = (uint8_t)id(s, n);
}

static void play(kontor_state *s, int seat, int kind, int value) {
    char why[160];
    kontor_move m = KONTOR_MOVE(kind, value);
    if (!kontor_is_legal(s, seat, m)) fail_msg("%s", kontor_why_illegal(s, seat, m, why, sizeof why));
    assert_int_equal(kontor_apply(s, seat, m, NULL), KONTOR_OK);
}

/* red plays card n, black passes */
static void red_plays(kontor_state *s, int n) {
    give(s, 0, n);
    int pick[2] = {id(s, n), KONTOR_PASS};
    assert_int_equal(kt_choose_all(s, pick, NULL), KONTOR_OK);
}

static void export_a_placed_goods_card_may_send_one_warehouse(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "advanced", "export=1");
    red_plays(&s, 29); /* tea and wine */
    play(&s, 0, KONTOR_MOVE_PLACE, C(1, -1));
    assert_int_equal(s.phase, KONTOR_PHASE_EXPORT);
    kontor_move m[KONTOR_MAX_MOVES];
    assert_int_equal(kontor_legal(&s, 0, m), 3); /* none, tea, wine */
    assert_false(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_EXPORT, KONTOR_SPICE)));
    char why[128];
    kontor_why_illegal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_EXPORT, KONTOR_SPICE), why, sizeof why);
    assert_string_equal(why, "the card just placed shows no such good");
    play(&s, 0, KONTOR_MOVE_EXPORT, KONTOR_TEA);
    assert_int_equal(s.export_n[0][KONTOR_TEA], 1);
    uint8_t goods[2][3];
    kontor_area_at(&s, C(1, -1), NULL, goods);
    assert_int_equal(goods[0][KONTOR_TEA], 0);
    assert_int_equal(goods[0][KONTOR_WINE], 1);
    /* and the turn went on: red drew a dock card, the round is over */
    assert_int_equal(s.phase, kt_choice_phase(&s));
    assert_int_equal(s.round, 2);
}

static void export_not_for_water_cards(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "advanced", "export=1");
    red_plays(&s, 38);
    play(&s, 0, KONTOR_MOVE_PLACE, C(1, -1));
    assert_int_equal(s.phase, kt_choice_phase(&s));
}

static void export_majorities_score_one_point_each(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "advanced", "export=1");
    s.export_n[0][KONTOR_TEA] = 2, s.export_n[1][KONTOR_TEA] = 1;
    s.export_n[0][KONTOR_WINE] = 1, s.export_n[1][KONTOR_WINE] = 1; /* a tie: nobody */
    s.export_n[0][KONTOR_SPICE] = 0, s.export_n[1][KONTOR_SPICE] = 3;
    int pts[2];
    kontor_points(&s, pts);
    assert_int_equal(pts[0], 1);
    assert_int_equal(pts[1], 1);
}

/* Red's 17 (tea, ship symbol) exported its tea; red removes it with the ship. */
static void ship_removes(kontor_state *s, int with_other_tea) {
    kontor__put(s, C(1, -1), id(s, 17));
    export_add(s, id(s, 17), KONTOR_TEA);
    s->export_n[0][KONTOR_TEA] = 1;
    if (with_other_tea) kontor__put(s, C(2, -1), id(s, 23)); /* tea, in the same area */
    red_plays(s, 21);                                        /* wine, ship symbol */
    play(s, 0, KONTOR_MOVE_SHIP, C(0, -1));
    play(s, 0, KONTOR_MOVE_REMOVE, C(1, -1));
}

static void export_ship_removal_takes_from_the_area_first(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "advanced", "export=1");
    ship_removes(&s, 1);
    /* the area still held tea (card 23): that warehouse goes, the export stays */
    assert_int_equal(s.export_n[0][KONTOR_TEA], 1);
    uint8_t goods[2][3];
    kontor_area_at(&s, C(2, -1), NULL, goods);
    assert_int_equal(goods[0][KONTOR_TEA], 0);
}

static void export_ship_removal_takes_from_the_store_when_the_area_has_none(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "advanced", "export=1");
    ship_removes(&s, 0);
    assert_int_equal(s.export_n[0][KONTOR_TEA], 0);
    assert_int_equal(export_mark(&s, id(&s, 17)), 0);
}

/* The Exportlager's warehouses are bits of one word (kontor_state.export_bits,
 * issue 17), each a warehouse a card shows (cards->warehouse_at): every bit
 * set belongs to a card on the board, not covered, and a team's exported
 * warehouses of a good are in its export store. Random games of every
 * variant the expansion plays with, every state; fails when a card that
 * leaves the board keeps its bits, or a bit is set past its card. */
static void export_every_exported_warehouse_lies_on_a_card_on_the_board(void **st) {
    (void)st;
    static const char *const v[][2] = {{"basic", "export=1"}, {"advanced", "export=1"}, {"bakschisch", "export=1"},
                                       {"specials", "export=1"}, {"advanced", "export=1,events=1,tiles=1"}};
    int exported = 0;
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        kontor_config cfg;
        assert_int_equal(kontor_config_init(&cfg, v[i][0], NULL), KONTOR_OK);
        assert_int_equal(kontor_config_options(&cfg, v[i][1], NULL), KONTOR_OK);
        kontor_rng rng;
        kontor_rng_seed(&rng, 5);
        for (int g = 0; g < 60; g++) {
            static kontor_state s;
            assert_int_equal(kontor_new(&s, &cfg, (uint64_t)g, NULL), KONTOR_OK);
            const kontor_cardset *cs = s.cfg->cards;
            while (!kontor_over(&s)) {
                int on_board[KONTOR_MAX_CARDS] = {0}, sum[2][3] = {{0}};
                for (int c = 0; c < KONTOR_CELLS; c++)
                    if (kontor_state_card_at(&s, c) < KONTOR_MAX_CARDS) on_board[kontor_state_card_at(&s, c)] = 1;
                for (uint64_t b = s.export_bits; b; b &= b - 1) {
                    unsigned bit = (unsigned)__builtin_ctzll(b);
                    int owner = -1;
                    for (int id = 0; id < cs->ncards; id++) {
                        const kontor_card *k = &cs->card[id];
                        if (bit >= cs->warehouse_at[id] && bit < (unsigned)(cs->warehouse_at[id] + k->goods[0] + k->goods[1] + k->goods[2]))
                            owner = id;
                    }
                    if (owner < 0 || !on_board[owner])
                        fail_msg("%s %s game %d round %d: warehouse %u exported by card %d, not on the board", v[i][0],
                                 v[i][1], g, s.round, bit, owner);
                    exported++;
                }
                for (int id = 0; id < cs->ncards; id++)
                    for (int gd = 0; gd < 3; gd++)
                        if (cs->card[id].colour < 2) sum[cs->card[id].colour][gd] += (export_mark(&s, id) >> (2 * gd)) & 3;
                for (int tm = 0; tm < 2; tm++)
                    for (int gd = 0; gd < 3; gd++) assert_true(sum[tm][gd] <= s.export_n[tm][gd]);
                int seat = __builtin_ctz(kontor_actors(&s));
                kontor_move m[KONTOR_MAX_MOVES];
                int n = kontor_legal(&s, seat, m);
                assert_true(n > 0);
                assert_int_equal(kontor_apply(&s, seat, m[kontor_rng_below(&rng, (uint32_t)n)], NULL), KONTOR_OK);
            }
        }
    }
    assert_true(exported > 1000);
}

/* How often the record's text writes the word " name " (a decision of that
 * kind: "export tea", "event e2", "tile -"; the tags say "export=1" and the
 * deals "deal events", "deal tiles", so neither counts). */
static int words_in(const char *text, const char *name) {
    char w[24];
    snprintf(w, sizeof w, " %s ", name);
    int n = 0;
    for (const char *p = strstr(text, w); p; p = strstr(p + 1, w)) n++;
    return n;
}

/* Random games with each expansion on: the record holds every decision of
 * the expansion the game made, in its words, and replays to the same state.
 * Over the five games each expansion's decision is taken for real (a good
 * exported, an event or a tile carried out on a cell), not only let pass. */
static void expansion_records_replay(void **st) {
    (void)st;
    static const char *const word[3] = {"export", "event", "tile"};
    static const int kind[3] = {KONTOR_MOVE_EXPORT, KONTOR_MOVE_EVENT, KONTOR_MOVE_TILE};
    static const struct {
        const char *variant, *options;
        int on[3]; /* export, events, tiles */
    } on[] = {{"basic", "export=1", {1, 0, 0}},      {"advanced", "export=1", {1, 0, 0}},
              {"bakschisch", "export=1", {1, 0, 0}}, {"advanced", "events=1", {0, 1, 0}},
              {"advanced", "tiles=1", {0, 0, 1}},    {"advanced", "export=1,events=1,tiles=1", {1, 1, 1}}};
    for (size_t v = 0; v < sizeof on / sizeof *on; v++) {
        kontor_config cfg;
        kontor_config_init(&cfg, on[v].variant, NULL);
        assert_int_equal(kontor_config_options(&cfg, on[v].options, NULL), KONTOR_OK);
        int taken[3] = {0, 0, 0};
        for (int g = 0; g < 5; g++) {
            kontor_state s;
            kontor_record r;
            kt_deal_recorded(&s, &r, &cfg, (uint64_t)g);
            kontor_rng rng;
            kontor_rng_seed(&rng, (uint64_t)g);
            int made[3] = {0, 0, 0};
            while (!kontor_over(&s)) {
                int seat = __builtin_ctz(kontor_actors(&s));
                kontor_move m[KONTOR_MAX_MOVES];
                int n = kontor_legal(&s, seat, m);
                kontor_move pick = m[kontor_rng_below(&rng, (uint32_t)n)];
                for (int k = 0; k < 3; k++)
                    if (KONTOR_MOVE_KIND(pick) == kind[k]) {
                        made[k]++;
                        taken[k] += KONTOR_MOVE_VALUE(pick) != KONTOR_NONE;
                    }
                assert_int_equal(kontor_apply(&s, seat, pick, NULL), KONTOR_OK);
                assert_int_equal(kontor_record_push(&r, seat, pick), KONTOR_OK);
            }
            char *text;
            size_t len;
            assert_int_equal(kontor_record_write(&r, &text, &len), KONTOR_OK);
            for (int k = 0; k < 3; k++) {
                if (!on[v].on[k]) assert_int_equal(made[k], 0);
                if (words_in(text, word[k]) != made[k])
                    fail_msg("%s with %s, game %d: %d %s decisions made, %d in the record", on[v].variant, on[v].options,
                             g, made[k], word[k], words_in(text, word[k]));
            }
            kontor_record back;
            kontor_error err;
            if (kontor_record_parse(&back, text, len, &err)) fail_msg("%s", err.msg);
            kontor_state t;
            if (kontor_record_replay(&back, -1, &t, NULL, NULL, &err)) fail_msg("%s", err.msg);
            assert_memory_equal(&s, &t, sizeof s);
            free(text);
            kontor_record_release(&r);
            kontor_record_release(&back);
        }
        for (int k = 0; k < 3; k++)
            if (on[v].on[k] && !taken[k])
                fail_msg("%s with %s: no %s decision taken in five games", on[v].variant, on[v].options, word[k]);
    }
}

/* ---- Ereigniskarten ---- */

static int event_index(const char *name) {
    kontor_event_card ev[KONTOR_EVENTS_MAX];
    int n = kontor_events_default(ev, KONTOR_EVENTS_MAX);
    for (int i = 0; i < n; i++)
        if (strcmp(ev[i].name, name) == 0) return i;
    fail_msg("no event '%s'", name);
    return -1;
}

static void events_are_data_and_ours(void **st) {
    (void)st;
    kontor_event_card ev[KONTOR_EVENTS_MAX];
    assert_int_equal(kontor_events_default(ev, KONTOR_EVENTS_MAX), 10);
    assert_non_null(strstr(kontor_events_default_text(), "OUR OWN EVENTS"));
    for (int i = 0; i < 10; i++) {
        assert_true(ev[i].action >= KONTOR_ACT_COINS_EACH && ev[i].action <= KONTOR_ACT_NO_PASS);
        assert_true(strlen(ev[i].text) > 10);
    }
    kontor_config cfg;
    kontor_config_init(&cfg, "advanced", NULL);
    kontor_config_options(&cfg, "events=1", NULL);
    assert_int_equal(cfg.nevent_cards, 10);
    assert_int_equal(cfg.event_action[event_index("storm")], KONTOR_ACT_SHIP_MOVE);
}

static void events_with_an_error_name_the_line(void **st) {
    (void)st;
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"# c\na | coins_each 1 | fine\nb | rain | wet\n", "events line 3: 'rain' is not an action (coins_each, coin_poorest, ...)"},
        {"a | coins_each | no number\n", "events line 1: 'coins_each' wants a number of coins from -3 to 3, not 0"},
        {"a | no_pass 2 | x\n", "events line 1: 'no_pass' takes no argument"},
        {"a | no_pass\n", "events line 1: an event is 'name | action [argument] | text'"},
        {"# nothing\n", "events line 1: no events"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        kontor_event_card ev[4];
        kontor_error err;
        assert_int_equal(kontor_events_parse(ev, 4, bad[i].text, strlen(bad[i].text), &err), -1);
        assert_string_equal(err.msg, bad[i].msg);
    }
}

/* Red closes an area in round 1 (a water card on +1,-2 next to its 5 on
 * +1,-1); black passes. The deck's top card is set to the named event. */
static void close_an_area(kontor_state *s, const char *event) {
    setup(s, "advanced", "events=1");
    s->event_deck[0] = (uint8_t)event_index(event);
    for (int i = 1; i < s->event_n; i++) s->event_deck[i] = (uint8_t)(i <= s->event_deck[0] ? i - 1 : i);
    kontor__put(s, C(1, -1), id(s, 5));
    kontor__put(s, C(2, -1), id(s, 40));
    red_plays(s, 38);
    play(s, 0, KONTOR_MOVE_PLACE, C(1, -2));
    assert_int_equal(s->nareas, 1);
}

static void event_turns_up_after_a_round_with_a_scoring(void **st) {
    (void)st;
    kontor_state s;
    close_an_area(&s, "good_season");
    /* round 2 opened with "good season": a coin each */
    assert_int_equal(s.round, 2);
    assert_int_equal(s.event_next, 1);
    assert_int_equal(s.coins[0], 4 + 1 + 1); /* the water card's coin, the event's */
    assert_int_equal(s.coins[1], 4 + 1 + 1); /* the pass's coin, the event's */
    /* a round without a scoring: no event */
    red_plays(&s, 5 + 4); /* 9: a dock card */
    play(&s, 0, KONTOR_MOVE_PLACE, C(-1, -1));
    assert_int_equal(s.event_next, 1);
}

static void event_decisions_start_with_the_last_layer(void **st) {
    (void)st;
    kontor_state s;
    close_an_area(&s, "storm");
    assert_int_equal(s.phase, KONTOR_PHASE_EVENT);
    assert_int_equal(kontor_actors(&s), 1u); /* red laid the last card */
    play(&s, 0, KONTOR_MOVE_EVENT, C(2, -1));
    assert_int_equal(s.ship_cell, C(2, -1));
    assert_int_equal(kontor_actors(&s), 2u); /* then black */
    char why[128];
    kontor_why_illegal(&s, 1, KONTOR_MOVE(KONTOR_MOVE_EVENT, C(5, 5)), why, sizeof why);
    assert_string_equal(why, "the event does not allow +5,+5");
    play(&s, 1, KONTOR_MOVE_EVENT, KONTOR_NONE);
    assert_int_equal(s.phase, kt_choice_phase(&s));
}

static void event_that_is_not_possible_is_skipped(void **st) {
    (void)st;
    kontor_state s;
    close_an_area(&s, "inspection"); /* nothing with a ship symbol next to the ship */
    assert_int_equal(s.phase, kt_choice_phase(&s));
    assert_int_equal(s.event_next, 1);
}

/* Tic Tac Toe with the event cards: "Erreicht ein Spieler dies, ist das
 * Spiel sofort beendet" whatever laid the card. Red owns the north-west
 * island; his water card closes the north-middle one in round 1, so round 2
 * opens with "spring tide", and red (the last layer) lays its water card on
 * the last free cell of the north-east island: the top row is his, the game
 * is over at once. Black, who owns two islands of the bottom row and could
 * close the third with his water card of the same event, never acts (V14:
 * within one event the first row completed ends the game). */
static void event_water_card_that_completes_a_tic_tac_toe_row_ends_the_game(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "tictactoe", "events=1");
    s.event_deck[0] = (uint8_t)event_index("spring_tide");
    for (int i = 1; i < s.event_n; i++) s.event_deck[i] = (uint8_t)(i <= s.event_deck[0] ? i - 1 : i);
    static const int cards[12] = {1, 3, 5, 9, 11, 13, 15, 0, 19, 21, 23, 0};
    static const int black[12] = {2, 4, 6, 10, 12, 14, 16, 18, 20, 22, 24, 0};
    for (int k = 0; k < 12; k++) { /* islands x -2..-1, 1..2, 4..5 of the top row, y -2..-1, and of the bottom row, y 4..5 */
        if (cards[k]) kontor__put(&s, C(-2 + 3 * (k / 4) + k % 2, -2 + (k % 4) / 2), id(&s, cards[k]));
        if (black[k]) kontor__put(&s, C(-2 + 3 * (k / 4) + k % 2, 4 + (k % 4) / 2), id(&s, black[k]));
    }
    kontor__score_enclosed(&s, NULL);
    assert_int_equal(s.nareas, 3);
    red_plays(&s, 38);
    play(&s, 0, KONTOR_MOVE_PLACE, C(2, -1)); /* closes the middle island */
    assert_int_equal(s.nareas, 4);
    assert_false(kontor_over(&s));
    assert_int_equal(s.round, 2);
    assert_int_equal(s.phase, KONTOR_PHASE_EVENT);
    assert_int_equal(kontor_actors(&s), 1u);
    play(&s, 0, KONTOR_MOVE_EVENT, C(5, -1)); /* spring tide: the top water card */
    assert_int_equal(s.nareas, 5);
    assert_true(kontor_over(&s));
    assert_int_equal(kontor_state_card_at(&s, C(5, 5)), KONTOR_NONE); /* black's water card never came */
    assert_int_equal(s.end_reason, KONTOR_END_ROW);
    assert_int_equal(s.winner, 0);
    assert_int_equal(s.event_cur, KONTOR_NONE);
}

/* The same over many random games of Tic Tac Toe with the events: after
 * every decision, three islands in a row mean the game is over by the row
 * and won by the row's owner; no game goes on after a row. The islands'
 * owners are read from the areas as docs/variants.md defines them. */
static unsigned rows_of(const kontor_state *s) {
    static const unsigned lines[8] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};
    unsigned owned[2] = {0, 0}, rows = 0;
    for (int i = 0; i < s->nareas; i++) {
        int x = (s->area[i].cell & 15) - 5, y = (s->area[i].cell >> 4) - 5; /* from -2,-2 */
        if (!s->area[i].keeper || x % 3 == 2 || y % 3 == 2) continue;
        owned[s->area[i].winner] |= 1u << ((y / 3) * 3 + x / 3);
    }
    for (int t = 0; t < 2; t++)
        for (int l = 0; l < 8; l++)
            if ((owned[t] & lines[l]) == lines[l]) rows |= 1u << t;
    return rows;
}

static void property_tictactoe_with_events_ends_at_the_first_row(void **st) {
    (void)st;
    kontor_config cfg;
    assert_int_equal(kontor_config_init(&cfg, "tictactoe", NULL), KONTOR_OK);
    assert_int_equal(kontor_config_options(&cfg, "events=1", NULL), KONTOR_OK);
    int rows = 0;
    for (uint64_t g = 0; g < 1500; g++) {
        kontor_state s;
        assert_int_equal(kontor_new(&s, &cfg, g, NULL), KONTOR_OK);
        kontor_rng rng;
        kontor_rng_seed(&rng, g ^ 0x5eed);
        while (!kontor_over(&s)) {
            assert_int_equal(rows_of(&s), 0); /* a decision after a finished row */
            unsigned act = kontor_actors(&s);
            int seat = __builtin_ctz(act);
            kontor_move m[KONTOR_MAX_MOVES];
            int n = kontor_legal(&s, seat, m);
            assert_int_equal(kontor_apply(&s, seat, m[kontor_rng_below(&rng, (uint32_t)n)], NULL), KONTOR_OK);
        }
        unsigned r = rows_of(&s);
        if (s.end_reason == KONTOR_END_ROW) {
            assert_true(r == 1 || r == 2); /* one scoring never completes two rows (V14) */
            assert_int_equal(s.winner, r == 1 ? 0 : 1);
            rows++;
        } else {
            assert_int_equal(r, 0);
        }
    }
    assert_true(rows > 100); /* the property was exercised */
}

static void event_deck_is_hidden_in_views(void **st) {
    (void)st;
    kontor_state s, t;
    close_an_area(&s, "good_season");
    t = s;
    uint8_t x = t.event_deck[3];
    t.event_deck[3] = t.event_deck[7];
    t.event_deck[7] = x;
    kontor_view a, b;
    for (int seat = 0; seat < 2; seat++) {
        kontor_view_of(&s, seat, &a);
        kontor_view_of(&t, seat, &b);
        assert_memory_equal(&a, &b, sizeof a);
        assert_int_equal(a.s.event_deck[0], s.event_deck[0]); /* the card turned up is known */
    }
}

/* ---- Aktionstafeln ---- */

static void tiles_lie_on_the_ends_of_the_cross(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "advanced", "tiles=1");
    uint8_t seen = 0;
    for (int k = 0; k < 4; k++) {
        assert_true(s.tile_at[k] < KONTOR_TILES);
        seen |= (uint8_t)(1u << s.tile_at[k]);
    }
    assert_int_equal(__builtin_popcount(seen), 4);
    kontor_config cfg;
    kontor_error err;
    kontor_config_init(&cfg, "canale", NULL);
    kontor_config_options(&cfg, "tiles=1", NULL);
    assert_int_equal(kontor_new(&s, &cfg, 1, &err), KONTOR_E_INVALID);
    assert_string_equal(err.msg, "deal: the action tiles need the water cross of the usual start");
}

/* Red closes in the north end of the cross (0,-2), which holds tile t. */
static void close_north_end(kontor_state *s, int tile, int card) {
    setup(s, "advanced", "tiles=1");
    s->tile_at[0] = (uint8_t)tile;
    kontor__put(s, C(0, -3), id(s, 40));
    kontor__put(s, C(-1, -2), id(s, 47));
    red_plays(s, card);
    play(s, 0, KONTOR_MOVE_PLACE, C(1, -2));
    assert_int_equal(s->tile_at[0], KONTOR_NONE);
}

static void tile_goes_to_the_player_who_closes_it(void **st) {
    (void)st;
    kontor_state s;
    close_north_end(&s, 7, 5); /* one extra point */
    assert_int_equal(s.bonus_points[0], 1);
    int pts[2];
    kontor_points(&s, pts);
    assert_int_equal(pts[0], 1);
    close_north_end(&s, 5, 5); /* two coins */
    assert_int_equal(s.coins[0], 4 + 2);
}

static void tile_ship_control_keeps_the_other_from_the_ship(void **st) {
    (void)st;
    kontor_state s;
    close_north_end(&s, 6, 5);
    assert_int_equal(s.ship_owner, 0);
    /* black plays 4 (ship symbol): no ship phase for black */
    give(&s, 1, 4);
    int pick[2] = {KONTOR_PASS, id(&s, 4)};
    assert_int_equal(kt_choose_all(&s, pick, NULL), KONTOR_OK);
    assert_int_equal(s.phase, KONTOR_PHASE_PLACE);
}

static void tile_warehouse_goes_into_an_own_area(void **st) {
    (void)st;
    kontor_state s;
    close_north_end(&s, 1, 5); /* a tea warehouse; red's 5 (wine) on +1,-2 */
    assert_int_equal(s.phase, KONTOR_PHASE_TILE);
    kontor_move m[KONTOR_MAX_MOVES];
    assert_int_equal(kontor_legal(&s, 0, m), 2); /* forgo, or red's one area */
    play(&s, 0, KONTOR_MOVE_TILE, C(1, -2));
    uint8_t goods[2][3];
    kontor_area_at(&s, C(1, -2), NULL, goods);
    assert_int_equal(goods[0][KONTOR_TEA], 1);
    assert_int_equal(goods[0][KONTOR_WINE], 1);
    assert_int_equal(s.phase, kt_choice_phase(&s));
}

static void tile_moves_the_harbour_centre_and_the_ship(void **st) {
    (void)st;
    kontor_state s;
    close_north_end(&s, 0, 5);
    assert_int_equal(s.phase, KONTOR_PHASE_TILE);
    int centre = s.cfg->cards->centre;
    assert_false(kontor_is_legal(&s, 0, KONTOR_MOVE(KONTOR_MOVE_TILE, C(0, 0))));
    play(&s, 0, KONTOR_MOVE_TILE, C(-1, 1));
    assert_int_equal(kontor_state_card_at(&s, C(-1, 1)), centre);
    assert_int_equal(kontor_state_card_at(&s, C(0, 0)), KONTOR_NONE);
    assert_int_equal(s.ship_cell, C(-1, 1)); /* the ship lay on the centre and sails with it */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(export_a_placed_goods_card_may_send_one_warehouse),
        cmocka_unit_test(export_not_for_water_cards),
        cmocka_unit_test(export_majorities_score_one_point_each),
        cmocka_unit_test(export_ship_removal_takes_from_the_area_first),
        cmocka_unit_test(export_ship_removal_takes_from_the_store_when_the_area_has_none),
        cmocka_unit_test(export_every_exported_warehouse_lies_on_a_card_on_the_board),
        cmocka_unit_test(events_are_data_and_ours),
        cmocka_unit_test(events_with_an_error_name_the_line),
        cmocka_unit_test(event_turns_up_after_a_round_with_a_scoring),
        cmocka_unit_test(event_decisions_start_with_the_last_layer),
        cmocka_unit_test(event_that_is_not_possible_is_skipped),
        cmocka_unit_test(event_deck_is_hidden_in_views),
        cmocka_unit_test(event_water_card_that_completes_a_tic_tac_toe_row_ends_the_game),
        cmocka_unit_test(property_tictactoe_with_events_ends_at_the_first_row),
        cmocka_unit_test(tiles_lie_on_the_ends_of_the_cross),
        cmocka_unit_test(tile_goes_to_the_player_who_closes_it),
        cmocka_unit_test(tile_ship_control_keeps_the_other_from_the_ship),
        cmocka_unit_test(tile_warehouse_goes_into_an_own_area),
        cmocka_unit_test(tile_moves_the_harbour_centre_and_the_ship),
        cmocka_unit_test(expansion_records_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
