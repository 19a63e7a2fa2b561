/* test_cards.c: the card set: the built-in set keeps every fact of the box,
 * and every broken constraint in a card file is caught on the right line.
 *
 * The error tests start from a valid set written out one card a line with
 * card id i on line i + 1 (the built-in set, whose ids equal its numbers, so
 * card number n sits on line n + 1), change one line, and check the exact
 * message. */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

/* ---- helpers ---------------------------------------------------------------- */

static kontor_cardset def;  /* the built-in set */

static int setup_default(void **state)
{
    (void)state;
    kontor_cards_default(&def);
    return 0;
}

static int count(const kontor_cardset *cs, int colour, int kind)
{
    int n = 0;
    for (int i = 0; i < cs->ncards; i++)
        if ((colour < 0 || cs->card[i].colour == colour) && cs->card[i].kind == kind)
            n++;
    return n;
}

static int ngoods(const kontor_card *c)
{
    return c->goods[0] + c->goods[1] + c->goods[2];
}

static const kontor_card *by_number(const kontor_cardset *cs, int number)
{
    for (int i = 0; i < cs->ncards; i++)
        if (cs->card[i].number == number && cs->card[i].kind != KONTOR_KIND_CENTRE)
            return &cs->card[i];
    return NULL;
}

static const char *const kinds[] = {"goods", "crane", "tavern", "water",
                                    "centre", "flood", "bridge", "customs"};

/* One card as a card-file line. */
static void format_card(const kontor_card *c, char *buf, size_t cap)
{
    static const char *const colours[] = {"red", "black", "neutral"};
    char goods[8] = "-";
    int n = 0;
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < c->goods[k]; j++)
            goods[n++] = "TWS"[k];
    if (n)
        goods[n] = '\0';
    const char *sym = c->coin && c->ship ? "coin+ship" : c->coin ? "coin" : c->ship ? "ship" : "-";
    snprintf(buf, cap, "%d %s %s %s %s", c->number, colours[c->colour], kinds[c->kind], goods,
             sym);
}

/* The editable card file: line[i] is line i + 1. */
#define MAXLINES 128
typedef struct cardfile {
    char line[MAXLINES][64];
    int n;
} cardfile;

static void cardfile_default(cardfile *f)
{
    f->n = def.ncards;
    for (int i = 0; i < def.ncards; i++)
        format_card(&def.card[i], f->line[i], sizeof f->line[i]);
}

/* Replace the line of the card numbered number (line number + 1). */
static void set_card(cardfile *f, int number, const char *text)
{
    assert_true(number + 1 <= f->n);
    snprintf(f->line[number], sizeof f->line[number], "%s", text);
}

static void add_line(cardfile *f, const char *text)
{
    assert_true(f->n < MAXLINES);
    snprintf(f->line[f->n++], sizeof f->line[0], "%s", text);
}

static kontor_status parse_file(const cardfile *f, kontor_cardset *cs, kontor_error *err)
{
    static char text[MAXLINES * 65];
    size_t len = 0;
    for (int i = 0; i < f->n; i++) {
        size_t n = strlen(f->line[i]);
        memcpy(text + len, f->line[i], n);
        len += n;
        text[len++] = '\n';
    }
    return kontor_cards_parse(cs, text, len, err);
}

static void expect_error(const cardfile *f, kontor_status code, int line, const char *msg)
{
    kontor_cardset cs;
    kontor_error err;
    kontor_status st = parse_file(f, &cs, &err);
    assert_string_equal(err.msg, msg);
    assert_int_equal(st, code);
    assert_int_equal(err.code, code);
    assert_int_equal(err.line, line);
}

/* The default set with the line of the card numbered number replaced by
 * text is refused with code, at line, saying msg. */
static void card_refused(int number, const char *text, kontor_status code, int line, const char *msg)
{
    cardfile f;
    cardfile_default(&f);
    set_card(&f, number, text);
    expect_error(&f, code, line, msg);
}

static kontor_status parse_str(const char *text, kontor_cardset *cs, kontor_error *err)
{
    return kontor_cards_parse(cs, text, strlen(text), err);
}

/* ---- the built-in set ------------------------------------------------------- */

static void default_set_parses(void **state)
{
    (void)state;
    const char *text = kontor_cards_default_text();
    kontor_cardset cs;
    kontor_error err;
    assert_int_equal(parse_str(text, &cs, &err), KONTOR_OK);
    assert_int_equal(err.code, KONTOR_OK);
    assert_string_equal(cs.name, "default");
    assert_int_equal(cs.ncards, 94);
    assert_memory_equal(&cs, &def, sizeof cs);
    assert_int_equal(def.card[def.centre].kind, KONTOR_KIND_CENTRE);
    assert_int_equal(def.card[def.centre].number, 0);
}

static void default_set_says_it_is_reconstructed(void **state)
{
    (void)state;
    assert_non_null(strstr(kontor_cards_default_text(), "RECONSTRUCTED, NOT COPIED FROM THE BOX"));
}

static void each_colour_has_22_dock_cards_2_cranes_1_tavern_19_goods(void **state)
{
    (void)state;
    for (int col = KONTOR_RED; col <= KONTOR_BLACK; col++) {
        int dock = 0;
        for (int i = 0; i < def.ncards; i++)
            dock += def.card[i].colour == col && kontor_card_is_dock(&def.card[i]);
        assert_int_equal(dock, 22);
        assert_int_equal(count(&def, col, KONTOR_KIND_CRANE), 2);
        assert_int_equal(count(&def, col, KONTOR_KIND_TAVERN), 1);
        assert_int_equal(count(&def, col, KONTOR_KIND_GOODS), 19);
    }
}

static void goods_cards_show_1_to_3_goods_and_only_they_show_goods(void **state)
{
    (void)state;
    for (int i = 0; i < def.ncards; i++) {
        const kontor_card *c = &def.card[i];
        if (c->kind == KONTOR_KIND_GOODS)
            assert_in_range(ngoods(c), 1, 3);
        else
            assert_int_equal(ngoods(c), 0);
    }
}

static void cards_3_and_4_show_three_goods(void **state)
{
    (void)state;
    for (int n = 3; n <= 4; n++) {
        const kontor_card *c = by_number(&def, n);
        assert_non_null(c);
        assert_int_equal(c->kind, KONTOR_KIND_GOODS);
        assert_int_equal(ngoods(c), 3);
    }
    /* and they are the only three-goods cards */
    for (int i = 0; i < def.ncards; i++)
        if (ngoods(&def.card[i]) == 3)
            assert_in_range(def.card[i].number, 3, 4);
    /* red odd, black even: 3 is red's, 4 is black's */
    assert_int_equal(by_number(&def, 3)->colour, KONTOR_RED);
    assert_int_equal(by_number(&def, 4)->colour, KONTOR_BLACK);
}

static void taverns_are_the_highest_cards_of_the_basic_game(void **state)
{
    (void)state;
    int low_tavern = 255, top_other = 0;
    for (int i = 0; i < def.ncards; i++) {
        const kontor_card *c = &def.card[i];
        if (c->kind == KONTOR_KIND_TAVERN)
            low_tavern = c->number < low_tavern ? c->number : low_tavern;
        else if (kontor_card_is_dock(c) || c->kind == KONTOR_KIND_WATER)
            top_other = c->number > top_other ? c->number : top_other;
    }
    assert_true(low_tavern > top_other);
    assert_int_equal(by_number(&def, 86)->kind, KONTOR_KIND_TAVERN);
    assert_int_equal(by_number(&def, 86)->colour, KONTOR_BLACK);
    assert_int_equal(by_number(&def, 87)->kind, KONTOR_KIND_TAVERN);
    assert_int_equal(by_number(&def, 87)->colour, KONTOR_RED);
}

static void numbers_1_to_93_each_once_centre_0(void **state)
{
    (void)state;
    int seen[256] = {0};
    for (int i = 0; i < def.ncards; i++)
        seen[def.card[i].number]++;
    assert_int_equal(seen[0], 1);
    for (int n = 1; n <= 93; n++)
        assert_int_equal(seen[n], 1);
    for (int n = 94; n < 256; n++)
        assert_int_equal(seen[n], 0);
}

static void card_ids_follow_the_lines(void **state)
{
    (void)state;
    /* The built-in file lists the centre first and then 1..93 in order. */
    assert_int_equal(def.centre, 0);
    for (int i = 0; i < def.ncards; i++)
        assert_int_equal(def.card[i].number, i);
}

static void water_43_numbered_cards_and_the_centre(void **state)
{
    (void)state;
    assert_int_equal(count(&def, -1, KONTOR_KIND_WATER), 43);
    assert_int_equal(count(&def, -1, KONTOR_KIND_CENTRE), 1);
    int wet = 0;
    for (int i = 0; i < def.ncards; i++)
        wet += kontor_card_is_water(&def.card[i]);
    assert_int_equal(wet, 44);
}

static void most_water_cards_are_higher_than_the_dock_cards(void **state)
{
    (void)state;
    int top_dock = 0, higher = 0, water = 0;
    for (int i = 0; i < def.ncards; i++)
        if (def.card[i].kind == KONTOR_KIND_GOODS || def.card[i].kind == KONTOR_KIND_CRANE)
            top_dock = def.card[i].number > top_dock ? def.card[i].number : top_dock;
    for (int i = 0; i < def.ncards; i++)
        if (def.card[i].kind == KONTOR_KIND_WATER) {
            water++;
            higher += def.card[i].number > top_dock;
        }
    assert_true(2 * higher > water);
    assert_true(higher < water);    /* most, not all */
}

static void special_cards_2_flood_2_bridge_2_customs_even_and_odd(void **state)
{
    (void)state;
    assert_int_equal(count(&def, KONTOR_NEUTRAL, KONTOR_KIND_FLOOD), 2);
    assert_int_equal(count(&def, KONTOR_NEUTRAL, KONTOR_KIND_BRIDGE), 2);
    assert_int_equal(count(&def, KONTOR_NEUTRAL, KONTOR_KIND_CUSTOMS), 2);
    int even = 0, odd = 0;
    for (int i = 0; i < def.ncards; i++)
        if (kontor_card_class(&def.card[i]) == KONTOR_CLASS_SPECIAL) {
            even += def.card[i].number % 2 == 0;
            odd += def.card[i].number % 2 == 1;
        }
    assert_int_equal(even, 3);
    assert_int_equal(odd, 3);
}

static void eight_of_each_good_per_colour_16_warehouses_per_good(void **state)
{
    (void)state;
    int goods[2][3] = {{0}};
    for (int i = 0; i < def.ncards; i++)
        if (kontor_card_is_dock(&def.card[i]))
            for (int k = 0; k < 3; k++)
                goods[def.card[i].colour][k] += def.card[i].goods[k];
    for (int col = 0; col < 2; col++)
        for (int k = 0; k < 3; k++)
            assert_int_equal(goods[col][k], 8);
}

static int design_cmp(const void *a, const void *b)
{
    const kontor_card *x = a, *y = b;
    int dx[6] = {x->kind, x->goods[0], x->goods[1], x->goods[2], x->coin, x->ship};
    int dy[6] = {y->kind, y->goods[0], y->goods[1], y->goods[2], y->coin, y->ship};
    for (int i = 0; i < 6; i++)
        if (dx[i] != dy[i])
            return dx[i] - dy[i];
    return 0;
}

static void colours_are_equal_in_strength(void **state)
{
    (void)state;
    kontor_card side[2][22];
    int n[2] = {0, 0};
    for (int i = 0; i < def.ncards; i++) {
        const kontor_card *c = &def.card[i];
        if (kontor_card_is_dock(c)) {
            assert_true(n[c->colour] < 22);
            side[c->colour][n[c->colour]] = *c;
            side[c->colour][n[c->colour]].number = 0;
            side[c->colour][n[c->colour]].colour = 0;
            n[c->colour]++;
        }
    }
    for (int col = 0; col < 2; col++)
        qsort(side[col], 22, sizeof side[col][0], design_cmp);
    for (int j = 0; j < 22; j++)
        assert_int_equal(design_cmp(&side[0][j], &side[1][j]), 0);
}

static void red_odd_black_even_in_pairs_of_one_design(void **state)
{
    (void)state;
    for (int i = 0; i < def.ncards; i++) {
        const kontor_card *c = &def.card[i];
        if (!kontor_card_is_dock(c))
            continue;
        assert_int_equal(c->number % 2, c->colour == KONTOR_RED ? 1 : 0);
        if (c->kind == KONTOR_KIND_TAVERN || c->colour == KONTOR_BLACK)
            continue;
        const kontor_card *mate = by_number(&def, c->number + 1);
        assert_non_null(mate);
        assert_int_equal(mate->colour, KONTOR_BLACK);
        assert_int_equal(design_cmp(c, mate), 0);
    }
}

static void symbols_per_colour_6_coins_7_ships_none_both(void **state)
{
    (void)state;
    for (int col = 0; col < 2; col++) {
        int coin = 0, ship = 0, crane_ship = 0;
        for (int i = 0; i < def.ncards; i++) {
            const kontor_card *c = &def.card[i];
            if (c->colour != col)
                continue;
            coin += c->coin;
            ship += c->ship;
            if (c->kind == KONTOR_KIND_CRANE)
                crane_ship += c->ship;
        }
        assert_int_equal(coin, 6);
        assert_int_equal(ship, 7);
        /* scenarios remove "cranes without ship symbol": there is one of each */
        assert_int_equal(crane_ship, 1);
    }
    for (int i = 0; i < def.ncards; i++)
        assert_false(def.card[i].coin && def.card[i].ship);
}

static void water_symbols_10_coin_12_ship(void **state)
{
    (void)state;
    int coin = 0, ship = 0;
    for (int i = 0; i < def.ncards; i++)
        if (def.card[i].kind == KONTOR_KIND_WATER) {
            coin += def.card[i].coin;
            ship += def.card[i].ship;
        }
    assert_int_equal(coin, 10);
    assert_int_equal(ship, 12);
}

static void card_classes(void **state)
{
    (void)state;
    int per[KONTOR_NCLASSES] = {0};
    for (int i = 0; i < def.ncards; i++) {
        const kontor_card *c = &def.card[i];
        int cl = kontor_card_class(c);
        assert_in_range(cl, 0, KONTOR_NCLASSES - 1);
        per[cl]++;
        assert_int_equal(kontor_card_is_dock(c), cl == KONTOR_CLASS_RED || cl == KONTOR_CLASS_BLACK);
        assert_int_equal(kontor_card_is_water(c), cl == KONTOR_CLASS_WATER || cl == KONTOR_CLASS_CENTRE);
    }
    assert_int_equal(per[KONTOR_CLASS_RED], 22);
    assert_int_equal(per[KONTOR_CLASS_BLACK], 22);
    assert_int_equal(per[KONTOR_CLASS_WATER], 43);
    assert_int_equal(per[KONTOR_CLASS_SPECIAL], 6);
    assert_int_equal(per[KONTOR_CLASS_CENTRE], 1);
    assert_int_equal(kontor_card_class(by_number(&def, 3)), KONTOR_CLASS_RED);
    assert_int_equal(kontor_card_class(by_number(&def, 86)), KONTOR_CLASS_BLACK);
}

/* The class sets the dealer reads (cs->class_ids and the class lists) hold
 * each card in its class and nowhere else, after parsing and after
 * kontor_cards_index on a set changed by hand. */
static void class_ids_follow_the_cards(kontor_cardset *cs)
{
    for (int i = 0; i < KONTOR_MAX_CARDS; i++)
        for (int cl = 0; cl < KONTOR_NCLASSES; cl++) {
            int in = (int)((cs->class_ids[cl][i >> 6] >> (i & 63)) & 1);
            assert_int_equal(in, i < cs->ncards && kontor_card_class(&cs->card[i]) == cl);
        }
    /* the class lists (the deal copies them): the same ids, ascending */
    for (int cl = 0; cl < KONTOR_NCLASSES; cl++) {
        int n = 0;
        for (int i = 0; i < cs->ncards; i++)
            if (kontor_card_class(&cs->card[i]) == cl) {
                assert_true(n < cs->class_n[cl]);
                assert_int_equal(cs->class_list[cl][n++], i);
            }
        assert_int_equal(n, cs->class_n[cl]);
    }
}

static void class_ids_index_the_classes(void **state)
{
    (void)state;
    kontor_cardset cs = def;
    class_ids_follow_the_cards(&cs);
    /* a red goods card turned black by hand: stale until indexed again */
    int id = by_number(&cs, 3) - cs.card;
    cs.card[id].colour = KONTOR_BLACK;
    assert_true((cs.class_ids[KONTOR_CLASS_RED][id >> 6] >> (id & 63)) & 1);
    kontor_cards_index(&cs);
    class_ids_follow_the_cards(&cs);
    assert_true((cs.class_ids[KONTOR_CLASS_BLACK][id >> 6] >> (id & 63)) & 1);
}

static void status_names(void **state)
{
    (void)state;
    assert_string_equal(kontor_status_name(KONTOR_OK), "ok");
    assert_string_equal(kontor_status_name(KONTOR_E_PARSE), "parse error");
    assert_string_equal(kontor_status_name(KONTOR_E_INVALID), "invalid");
    assert_string_equal(kontor_status_name(KONTOR_E_ILLEGAL), "illegal move");
    assert_string_equal(kontor_status_name(KONTOR_E_IO), "i/o error");
    assert_string_equal(kontor_status_name(KONTOR_E_RANGE), "out of range");
}

/* ---- the parser -------------------------------------------------------------- */

static void written_out_set_reads_back_the_same(void **state)
{
    (void)state;
    cardfile f;
    kontor_cardset cs;
    kontor_error err;
    cardfile_default(&f);
    assert_int_equal(parse_file(&f, &cs, &err), KONTOR_OK);
    assert_memory_equal(&cs, &def, sizeof cs);
}

/* The built-in text with every "\n" made "\r\n", spaces made tabs, comments
 * after the cards, blank lines, and no final newline: the same set. */
static void crlf_tabs_comments_blank_lines_and_no_final_newline(void **state)
{
    (void)state;
    const char *src = kontor_cards_default_text();
    size_t n = strlen(src);
    char *text = malloc(3 * n + 64);
    assert_non_null(text);
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        if (src[i] == '\n') {
            if (i > 0 && src[i - 1] != '\n' && src[i - 1] != '#')
                len += (size_t)sprintf(text + len, "\t# note");
            memcpy(text + len, "\r\n \t\r\n", 6);
            len += 6;
        } else if (src[i] == ' ') {
            text[len++] = '\t';
        } else {
            text[len++] = src[i];
        }
    }
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' ' ||
                       text[len - 1] == '\t'))
        len--;
    kontor_cardset cs;
    kontor_error err;
    assert_int_equal(kontor_cards_parse(&cs, text, len, &err), KONTOR_OK);
    assert_memory_equal(&cs, &def, sizeof cs);
    free(text);
}

static void name_line_names_the_set(void **state)
{
    (void)state;
    cardfile f;
    cardfile_default(&f);
    memmove(f.line[2], f.line[0], sizeof f.line[0] * (size_t)f.n);
    snprintf(f.line[0], sizeof f.line[0], "# my box");
    snprintf(f.line[1], sizeof f.line[1], "name my-box_1999");
    f.n += 2;
    kontor_cardset cs;
    kontor_error err;
    assert_int_equal(parse_file(&f, &cs, &err), KONTOR_OK);
    assert_string_equal(cs.name, "my-box_1999");
    assert_int_equal(cs.ncards, 94);
}

static void ids_follow_line_order_not_numbers(void **state)
{
    (void)state;
    cardfile f;
    cardfile_default(&f);
    /* swap the lines of cards 0 (centre) and 93 */
    char tmp[64];
    memcpy(tmp, f.line[0], sizeof tmp);
    memcpy(f.line[0], f.line[93], sizeof tmp);
    memcpy(f.line[93], tmp, sizeof tmp);
    kontor_cardset cs;
    kontor_error err;
    assert_int_equal(parse_file(&f, &cs, &err), KONTOR_OK);
    assert_int_equal(cs.centre, 93);
    assert_int_equal(cs.card[0].number, 93);
    assert_int_equal(cs.card[0].kind, KONTOR_KIND_CUSTOMS);
}

static void two_of_one_good_and_coin_plus_ship(void **state)
{
    (void)state;
    cardfile f;
    cardfile_default(&f);
    set_card(&f, 1, "1 red goods SS coin+ship");    /* was S coin */
    set_card(&f, 3, "3 red goods TW -");            /* was TWS: spice stays 16 */
    kontor_cardset cs;
    kontor_error err;
    assert_int_equal(parse_file(&f, &cs, &err), KONTOR_OK);
    assert_int_equal(cs.card[1].goods[KONTOR_SPICE], 2);
    assert_int_equal(cs.card[1].coin, 1);
    assert_int_equal(cs.card[1].ship, 1);
    assert_int_equal(cs.card[3].goods[KONTOR_SPICE], 0);
}

/* ---- parse errors ------------------------------------------------------------ */

static void a_nul_byte_is_an_error(void **state)
{
    (void)state;
    const char text[] = "0 neutral centre - -\n# comment\n1 red go\0ds S -\n";
    kontor_cardset cs;
    kontor_error err;
    assert_int_equal(kontor_cards_parse(&cs, text, sizeof text - 1, &err), KONTOR_E_PARSE);
    assert_int_equal(err.line, 3);
    assert_string_equal(err.msg, "line 3: the text contains a NUL byte");
    /* also inside a comment */
    const char text2[] = "# a\0b\n";
    assert_int_equal(kontor_cards_parse(&cs, text2, sizeof text2 - 1, &err), KONTOR_E_PARSE);
    assert_string_equal(err.msg, "line 1: the text contains a NUL byte");
}

static void a_control_byte_is_an_error(void **state)
{
    (void)state;
    card_refused(5, "5 red\x01 goods W -", KONTOR_E_PARSE, 6,
                 "line 6: unexpected byte 0x01 (only printable ascii outside comments)");
}

static void a_card_line_has_five_fields(void **state)
{
    (void)state;
    card_refused(5, "5 red goods W", KONTOR_E_PARSE, 6,
                 "line 6: expected 5 fields (number colour kind goods symbol), found 4");
    card_refused(5, "5 red goods W - extra more", KONTOR_E_PARSE, 6,
                 "line 6: expected 5 fields (number colour kind goods symbol), found more than 5");
}

static void the_number_is_a_whole_number(void **state)
{
    (void)state;
    card_refused(12, "12x black goods WS ship", KONTOR_E_PARSE, 13,
                 "line 13: the number '12x' is not a whole number");
    card_refused(12, "-12 black goods WS ship", KONTOR_E_PARSE, 13,
                 "line 13: the number '-12' is not a whole number");
}

static void numbers_above_255_are_out_of_range(void **state)
{
    (void)state;
    card_refused(12, "256 black goods WS ship", KONTOR_E_RANGE, 13, "line 13: the number '256' is above 255");
    card_refused(12, "99999999999999999999 black goods WS ship", KONTOR_E_RANGE, 13,
                 "line 13: the number '99999999999999999999' is above 255");
}

static void unknown_colour_kind_goods_symbol(void **state)
{
    (void)state;
    card_refused(20, "20 blue goods ST ship", KONTOR_E_PARSE, 21,
                 "line 21: unknown colour 'blue' (expected red, black or neutral)");
    card_refused(20, "20 black cargo ST ship", KONTOR_E_PARSE, 21,
                 "line 21: unknown kind 'cargo' (expected goods, crane, tavern, water, centre, "
                 "flood, bridge or customs)");
    card_refused(20, "20 black goods SX ship", KONTOR_E_PARSE, 21,
                 "line 21: goods 'SX' must be '-' or letters T, W, S");
    card_refused(20, "20 black goods st ship", KONTOR_E_PARSE, 21,
                 "line 21: goods 'st' must be '-' or letters T, W, S");
    card_refused(20, "20 black goods ST boat", KONTOR_E_PARSE, 21,
                 "line 21: unknown symbol 'boat' (expected -, coin, ship or coin+ship)");
    card_refused(20, "20 black goods ST ship+coin", KONTOR_E_PARSE, 21,
                 "line 21: unknown symbol 'ship+coin' (expected -, coin, ship or coin+ship)");
}

static void long_fields_are_cut_short_in_messages(void **state)
{
    (void)state;
    card_refused(20, "20 abcdefghijklmnopqrstuvwxyz goods ST ship", KONTOR_E_PARSE, 21,
                 "line 21: unknown colour 'abcdefghijklmnopqrstuvwx...' (expected red, black or "
                 "neutral)");
}

static void name_must_come_first_once_and_be_short(void **state)
{
    (void)state;
    cardfile f;
    cardfile_default(&f);
    add_line(&f, "name late");
    expect_error(&f, KONTOR_E_PARSE, 95, "line 95: 'name' must come before the first card");

    kontor_cardset cs;
    kontor_error err;
    assert_int_equal(parse_str("# c\nname a\n\nname b\n", &cs, &err), KONTOR_E_PARSE);
    assert_string_equal(err.msg, "line 4: a second 'name' line (first on line 2)");
    assert_int_equal(parse_str("name\n", &cs, &err), KONTOR_E_PARSE);
    assert_string_equal(err.msg, "line 1: 'name' takes exactly one word, found 0");
    assert_int_equal(parse_str("name my box\n", &cs, &err), KONTOR_E_PARSE);
    assert_string_equal(err.msg, "line 1: 'name' takes exactly one word, found 2");
    assert_int_equal(parse_str("name abcdefghijklmnopqrstuv\n", &cs, &err), KONTOR_E_PARSE);
    assert_string_equal(err.msg,
                        "line 1: the name 'abcdefghijklmnopqrstuv' is longer than 21 characters");
    assert_int_equal(parse_str("name a/b\n", &cs, &err), KONTOR_E_PARSE);
    assert_string_equal(err.msg,
                        "line 1: the name 'a/b' may hold only letters, digits and - _ . +");
}

/* ---- invalid lines --------------------------------------------------------- */

static void each_number_is_used_once(void **state)
{
    (void)state;
    card_refused(11, "17 red goods WS ship", KONTOR_E_INVALID, 18,
                 "line 18: number 17 is used twice (first on line 12)");
}

static void there_is_one_centre_card(void **state)
{
    (void)state;
    cardfile f;
    cardfile_default(&f);
    add_line(&f, "0 neutral centre - -");
    expect_error(&f, KONTOR_E_INVALID, 95, "line 95: a second centre card (first on line 1)");
    card_refused(0, "# no centre", KONTOR_E_INVALID, 0,
                 "card set: there is no centre card (0 neutral centre - -)");
}

static void the_centre_is_number_0_and_only_it(void **state)
{
    (void)state;
    card_refused(0, "94 neutral centre - -", KONTOR_E_INVALID, 1,
                 "line 1: the centre card has no number: write 0, not 94");
    card_refused(50, "0 neutral water - -", KONTOR_E_INVALID, 51,
                 "line 51: number 0 is the centre's; a water card needs a number from 1 to 255");
}

static void the_centre_shows_no_symbol(void **state)
{
    (void)state;
    card_refused(0, "0 neutral centre - coin", KONTOR_E_INVALID, 1,
                 "line 1: the centre card shows an anchor, not a symbol");
}

static void dock_cards_are_red_or_black(void **state)
{
    (void)state;
    card_refused(7, "7 neutral crane - ship", KONTOR_E_INVALID, 8,
                 "line 8: a crane card is a dock card and must be red or black");
}

static void water_and_special_cards_are_neutral(void **state)
{
    (void)state;
    card_refused(48, "48 red water - ship", KONTOR_E_INVALID, 49,
                 "line 49: a water card must be neutral, not red");
    card_refused(89, "89 black bridge - -", KONTOR_E_INVALID, 90,
                 "line 90: a bridge card must be neutral, not black");
}

static void only_goods_cards_show_goods(void **state)
{
    (void)state;
    card_refused(29, "29 neutral water W coin", KONTOR_E_INVALID, 30,
                 "line 30: a water card cannot show goods");
    card_refused(43, "43 red crane T -", KONTOR_E_INVALID, 44, "line 44: a crane card cannot show goods");
}

static void a_goods_card_shows_1_to_3_goods(void **state)
{
    (void)state;
    card_refused(9, "9 red goods - coin", KONTOR_E_INVALID, 10,
                 "line 10: a goods card must show 1 to 3 goods, it shows none");
    card_refused(4, "4 black goods TWST -", KONTOR_E_INVALID, 5,
                 "line 5: a goods card shows at most 3 goods, not 4");
}

static void at_most_96_cards(void **state)
{
    (void)state;
    cardfile f;
    cardfile_default(&f);
    set_card(&f, 86, "254 black tavern - -");   /* keep the taverns highest */
    set_card(&f, 87, "255 red tavern - -");
    add_line(&f, "# two more water cards fit");
    add_line(&f, "94 neutral water - -");
    add_line(&f, "95 neutral water - -");
    kontor_cardset cs;
    kontor_error err;
    assert_int_equal(parse_file(&f, &cs, &err), KONTOR_OK);
    assert_int_equal(cs.ncards, KONTOR_MAX_CARDS);
    add_line(&f, "96 neutral water - -");
    expect_error(&f, KONTOR_E_RANGE, 98, "line 98: more than 96 cards");
}

/* ---- invalid sets ---------------------------------------------------------- */

static void each_colour_has_22_dock_cards(void **state)
{
    (void)state;
    cardfile f;
    card_refused(17, "# 17 gone", KONTOR_E_INVALID, 0, "card set: red has 21 dock cards, 22 are needed");
    cardfile_default(&f);
    add_line(&f, "94 black goods T -");
    expect_error(&f, KONTOR_E_INVALID, 0, "card set: black has 23 dock cards, 22 are needed");
}

static void each_colour_has_2_cranes(void **state)
{
    (void)state;
    card_refused(44, "44 black goods T -", KONTOR_E_INVALID, 0, "card set: black has 1 cranes, 2 are needed");
}

static void each_colour_has_1_tavern(void **state)
{
    (void)state;
    card_refused(87, "87 red goods T -", KONTOR_E_INVALID, 0, "card set: red has 0 taverns, 1 is needed");
}

static void at_least_12_numbered_water_cards(void **state)
{
    (void)state;
    cardfile f;
    cardfile_default(&f);
    int removed = 0;
    for (int n = 47; n <= 85 && removed < 32; n++, removed++)
        set_card(&f, n, "");
    expect_error(&f, KONTOR_E_INVALID, 0,
                 "card set: there are 11 numbered water cards, at least 12 are needed "
                 "(8 for the start cross, 2 for each hand)");
    /* twelve are enough */
    set_card(&f, 47, "47 neutral water - -");
    kontor_cardset cs;
    kontor_error err;
    assert_int_equal(parse_file(&f, &cs, &err), KONTOR_OK);
}

static void at_most_6_special_cards(void **state)
{
    (void)state;
    cardfile f;
    cardfile_default(&f);
    add_line(&f, "94 neutral flood - -");
    expect_error(&f, KONTOR_E_INVALID, 0, "card set: there are 7 special cards, at most 6 are allowed");
}

static void taverns_carry_the_highest_numbers_of_the_basic_game(void **state)
{
    (void)state;
    cardfile f;
    cardfile_default(&f);
    set_card(&f, 85, "# 85 gone");
    set_card(&f, 86, "85 black tavern - -");  /* still fine: 85 is above 84 */
    kontor_cardset cs;
    kontor_error err;
    assert_int_equal(parse_file(&f, &cs, &err), KONTOR_OK);

    card_refused(88, "95 neutral water - -", KONTOR_E_INVALID, 87,
                 "line 87: the black tavern has number 86, lower than number 95 on line 89 "
                 "(the taverns carry the highest numbers of the basic game)");
    /* special cards may be higher: they are not in the basic game (88..93 are) */
}

static void at_most_16_of_each_good_as_the_box_has_16_warehouses(void **state)
{
    (void)state;
    cardfile f;
    card_refused(5, "5 red goods WW -", KONTOR_E_INVALID, 0,
                 "card set: the dock cards show 17 wine, the box has only 16 wine warehouses");
    cardfile_default(&f);
    set_card(&f, 9, "9 red goods S coin");   /* was T: 7 tea, 9 spice for red */
    set_card(&f, 10, "10 black goods S coin");
    expect_error(&f, KONTOR_E_INVALID, 0,
                 "card set: the dock cards show 18 spice, the box has only 16 spice warehouses");
}

static void err_may_be_null(void **state)
{
    (void)state;
    kontor_cardset cs;
    assert_int_equal(kontor_cards_parse(&cs, "x", 1, NULL), KONTOR_E_PARSE);
    assert_int_equal(kontor_cards_parse(&cs, "", 0, NULL), KONTOR_E_INVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(default_set_parses),
        cmocka_unit_test(default_set_says_it_is_reconstructed),
        cmocka_unit_test(each_colour_has_22_dock_cards_2_cranes_1_tavern_19_goods),
        cmocka_unit_test(goods_cards_show_1_to_3_goods_and_only_they_show_goods),
        cmocka_unit_test(cards_3_and_4_show_three_goods),
        cmocka_unit_test(taverns_are_the_highest_cards_of_the_basic_game),
        cmocka_unit_test(numbers_1_to_93_each_once_centre_0),
        cmocka_unit_test(card_ids_follow_the_lines),
        cmocka_unit_test(water_43_numbered_cards_and_the_centre),
        cmocka_unit_test(most_water_cards_are_higher_than_the_dock_cards),
        cmocka_unit_test(special_cards_2_flood_2_bridge_2_customs_even_and_odd),
        cmocka_unit_test(eight_of_each_good_per_colour_16_warehouses_per_good),
        cmocka_unit_test(colours_are_equal_in_strength),
        cmocka_unit_test(red_odd_black_even_in_pairs_of_one_design),
        cmocka_unit_test(symbols_per_colour_6_coins_7_ships_none_both),
        cmocka_unit_test(water_symbols_10_coin_12_ship),
        cmocka_unit_test(card_classes),
        cmocka_unit_test(class_ids_index_the_classes),
        cmocka_unit_test(status_names),
        cmocka_unit_test(written_out_set_reads_back_the_same),
        cmocka_unit_test(crlf_tabs_comments_blank_lines_and_no_final_newline),
        cmocka_unit_test(name_line_names_the_set),
        cmocka_unit_test(ids_follow_line_order_not_numbers),
        cmocka_unit_test(two_of_one_good_and_coin_plus_ship),
        cmocka_unit_test(a_nul_byte_is_an_error),
        cmocka_unit_test(a_control_byte_is_an_error),
        cmocka_unit_test(a_card_line_has_five_fields),
        cmocka_unit_test(the_number_is_a_whole_number),
        cmocka_unit_test(numbers_above_255_are_out_of_range),
        cmocka_unit_test(unknown_colour_kind_goods_symbol),
        cmocka_unit_test(long_fields_are_cut_short_in_messages),
        cmocka_unit_test(name_must_come_first_once_and_be_short),
        cmocka_unit_test(each_number_is_used_once),
        cmocka_unit_test(there_is_one_centre_card),
        cmocka_unit_test(the_centre_is_number_0_and_only_it),
        cmocka_unit_test(the_centre_shows_no_symbol),
        cmocka_unit_test(dock_cards_are_red_or_black),
        cmocka_unit_test(water_and_special_cards_are_neutral),
        cmocka_unit_test(only_goods_cards_show_goods),
        cmocka_unit_test(a_goods_card_shows_1_to_3_goods),
        cmocka_unit_test(at_most_96_cards),
        cmocka_unit_test(each_colour_has_22_dock_cards),
        cmocka_unit_test(each_colour_has_2_cranes),
        cmocka_unit_test(each_colour_has_1_tavern),
        cmocka_unit_test(at_least_12_numbered_water_cards),
        cmocka_unit_test(at_most_6_special_cards),
        cmocka_unit_test(taverns_carry_the_highest_numbers_of_the_basic_game),
        cmocka_unit_test(at_most_16_of_each_good_as_the_box_has_16_warehouses),
        cmocka_unit_test(err_may_be_null),
    };
    return cmocka_run_group_tests(tests, setup_default, NULL);
}
