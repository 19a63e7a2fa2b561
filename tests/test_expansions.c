/* test_expansions.c: the designer's expansions (fan page, docs/variants.md),
 * one test per rule they change, and records that replay with them on.
 *
 * Only the first expansion, the Exportlager, is built so far (option
 * export=1); its random-game properties run in test_properties.c. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/internal.h"
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
    play(s, 0, KONTOR_MOVE_CHOOSE, id(s, n));
    play(s, 1, KONTOR_MOVE_CHOOSE, KONTOR_PASS);
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
    assert_int_equal(s.phase, KONTOR_PHASE_CHOOSE);
    assert_int_equal(s.round, 2);
}

static void export_not_for_water_cards(void **st) {
    (void)st;
    kontor_state s;
    setup(&s, "advanced", "export=1");
    red_plays(&s, 38);
    play(&s, 0, KONTOR_MOVE_PLACE, C(1, -1));
    assert_int_equal(s.phase, KONTOR_PHASE_CHOOSE);
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
    s->export_mark[C(1, -1)] = 1 << (2 * KONTOR_TEA);
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
    assert_int_equal(s.export_mark[C(1, -1)], 0);
}

static void export_records_replay(void **st) {
    (void)st;
    const char *on[3] = {"basic", "advanced", "bakschisch"};
    for (int v = 0; v < 3; v++) {
        kontor_config cfg;
        kontor_config_init(&cfg, on[v], NULL);
        kontor_config_options(&cfg, "export=1", NULL);
        for (int g = 0; g < 5; g++) {
            kontor_deal d;
            kontor_deal_shuffle(&d, &cfg, (uint64_t)g);
            kontor_state s;
            assert_int_equal(kontor_new_from_deal(&s, &cfg, &d, NULL), KONTOR_OK);
            kontor_record r;
            kontor_record_init(&r, &cfg, &d);
            kontor_rng rng;
            kontor_rng_seed(&rng, (uint64_t)g);
            int exports = 0;
            while (!kontor_over(&s)) {
                int seat = __builtin_ctz(kontor_actors(&s));
                kontor_move m[KONTOR_MAX_MOVES];
                int n = kontor_legal(&s, seat, m);
                kontor_move pick = m[kontor_rng_below(&rng, (uint32_t)n)];
                exports += KONTOR_MOVE_KIND(pick) == KONTOR_MOVE_EXPORT;
                kontor_apply(&s, seat, pick, NULL);
                kontor_record_push(&r, seat, pick);
            }
            assert_true(exports > 0);
            char *text;
            size_t len;
            assert_int_equal(kontor_record_write(&r, &text, &len), KONTOR_OK);
            assert_non_null(strstr(text, "[Options \"export=1\"]"));
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
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(export_a_placed_goods_card_may_send_one_warehouse),
        cmocka_unit_test(export_not_for_water_cards),
        cmocka_unit_test(export_majorities_score_one_point_each),
        cmocka_unit_test(export_ship_removal_takes_from_the_area_first),
        cmocka_unit_test(export_ship_removal_takes_from_the_store_when_the_area_has_none),
        cmocka_unit_test(export_records_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
