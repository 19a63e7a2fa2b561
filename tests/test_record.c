/* test_record.c: game records (.kgn) and the board as text.
 *
 * The central property: a game played with random legal decisions, pushed to
 * a record, written, parsed and replayed, ends in a state memcmp-identical to
 * the one played, for hundreds of seeds of both variants; and the text is a
 * fixed point of write(parse(text)). Around it: every parse error names its
 * line, an illegal decision names its round and the engine's reason, the
 * example record printed in docs/records.md replays to the facts the
 * document states, and the drawing shows what a reader needs.
 */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"
#include <glob.h>
#include <stdio.h>

#include "kontor/draw.h"
#include "kontor/record.h"

/* ---- helpers ---------------------------------------------------------------- */

/* Play one random game, recording every decision. Seats act in seat order
 * in the choice phase (the order a record stores). */
static void play_random(kontor_record *r, kontor_state *s, const char *variant, const char *opts, uint64_t seed) {
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, variant, &err), KONTOR_OK);
    if (opts) assert_int_equal(kontor_config_options(&cfg, opts, &err), KONTOR_OK);
    kt_deal_recorded(s, r, &cfg, seed);
    r->seed = seed;
    r->has_seed = 1;
    snprintf(r->players[0], sizeof r->players[0], "random");
    snprintf(r->players[1], sizeof r->players[1], "random \"quoted\" \\ name");
    snprintf(r->event, sizeof r->event, "test_record");
    kontor_rng rng;
    kontor_rng_seed(&rng, seed * 0x9E3779B97F4A7C15ULL + 1);
    kontor_move mv[KONTOR_MAX_MOVES];
    while (!kontor_over(s)) {
        unsigned a = kontor_actors(s);
        assert_true(a != 0);
        int seat = (a & 1) ? 0 : 1;
        int n = kontor_legal(s, seat, mv);
        assert_true(n > 0);
        kontor_move m = mv[kontor_rng_below(&rng, (uint32_t)n)];
        assert_int_equal(kontor_apply(s, seat, m, NULL), KONTOR_OK);
        assert_int_equal(kontor_record_push(r, seat, m), KONTOR_OK);
    }
    kontor_record_set_result(r, s);
}

static char *write_text(const kontor_record *r) {
    char *t = NULL;
    size_t len = 0;
    assert_int_equal(kontor_record_write(r, &t, &len), KONTOR_OK);
    assert_non_null(t);
    assert_int_equal(strlen(t), len);
    return t;
}

/* Parse text that must fail; check the code, the line and a piece of the message. */
static void parse_fails(const char *text, kontor_status code, int line, const char *piece) {
    kontor_record r;
    kontor_error err;
    kontor_status st = kontor_record_parse(&r, text, strlen(text), &err);
    if (st != code || err.line != line || !strstr(err.msg, piece))
        fail_msg("want code %d line %d '%s', got code %d line %d '%s'", code, line, piece, st, err.line, err.msg);
    assert_int_equal(err.code, st);
    char want[32];
    snprintf(want, sizeof want, "line %d: ", line);
    assert_true(strncmp(err.msg, want, strlen(want)) == 0);
    assert_null(r.ply);
    kontor_record_release(&r);
}

/* A valid record of a short game: tags, deal, the first rounds. */
static char *valid_text(uint64_t seed) {
    kontor_record r;
    kontor_state s;
    play_random(&r, &s, "basic", NULL, seed);
    char *t = write_text(&r);
    kontor_record_release(&r);
    return t;
}

/* ---- round trips ------------------------------------------------------------- */

static void round_trip(const char *variant, const char *opts, int games) {
    for (int g = 0; g < games; g++) {
        kontor_record r, back;
        kontor_state *played = malloc(sizeof *played), *replayed = malloc(sizeof *replayed);
        kontor_error err;
        assert_non_null(played);
        assert_non_null(replayed);
        play_random(&r, played, variant, opts, (uint64_t)g + 1000);
        char *text = write_text(&r);
        assert_int_equal(kontor_record_parse(&back, text, strlen(text), &err), KONTOR_OK);
        /* same decisions */
        assert_int_equal(back.nply, r.nply);
        for (int i = 0; i < r.nply; i++) {
            assert_int_equal(back.ply[i].seat, r.ply[i].seat);
            assert_int_equal(back.ply[i].move, r.ply[i].move);
        }
        assert_memory_equal(&back.deal, &r.deal, sizeof r.deal);
        assert_string_equal(back.result, r.result);
        assert_string_equal(back.players[1], r.players[1]);
        assert_true(back.has_seed && back.seed == r.seed);
        /* the text is a fixed point */
        char *again = write_text(&back);
        assert_string_equal(again, text);
        /* the replay ends in the very same state */
        assert_int_equal(kontor_record_replay(&back, -1, replayed, NULL, NULL, &err), KONTOR_OK);
        assert_memory_equal(replayed, played, sizeof *played);
        free(text);
        free(again);
        free(played);
        free(replayed);
        kontor_record_release(&r);
        kontor_record_release(&back);
    }
}

static void random_basic_games_replay_to_the_same_state(void **state) {
    (void)state;
    round_trip("basic", NULL, 300);
}

static void random_advanced_games_replay_to_the_same_state(void **state) {
    (void)state;
    round_trip("advanced", NULL, 300);
}

static void games_with_options_replay_to_the_same_state(void **state) {
    (void)state;
    /* optional_place writes '-' for a declined placement; pass=free and
     * edge=both change the rules the replay must apply from the Options tag */
    round_trip("basic", "optional_place=1,pass=free", 100);
    round_trip("advanced", "edge=both,optional_place=1", 100);
}

static void the_options_tag_names_the_rules(void **state) {
    (void)state;
    kontor_record r;
    kontor_state s;
    play_random(&r, &s, "advanced", "optional_place=1", 7);
    char *t = write_text(&r);
    assert_non_null(strstr(t, "[Variant \"advanced\"]\n"));
    assert_non_null(strstr(t, "[Options \"optional_place=1\"]\n"));
    assert_non_null(strstr(t, "[Cards \"default\"]\n"));
    assert_non_null(strstr(t, "[Seed \"7\"]\n"));
    assert_non_null(strstr(t, "[Black \"random \\\"quoted\\\" \\\\ name\"]\n"));
    assert_non_null(strstr(t, "\ndeal water "));
    /* a control character in a name cannot break the line */
    snprintf(r.players[0], sizeof r.players[0], "tab\there\nnewline");
    free(t);
    t = write_text(&r);
    assert_non_null(strstr(t, "[Red \"tab here newline\"]\n"));
    assert_non_null(strstr(t, "\n1. "));
    free(t);
    kontor_record_release(&r);
}

/* Cut a game after red's first decision of kind in some round from ply 20 on;
 * the record must say what is missing ('?' no declaration, 'play' declared
 * but no card) and read back to the same decisions. */
static void cut_round_trips(int kind, const char *tail, int phase) {
    kontor_record r, back;
    kontor_state s;
    kontor_error err;
    play_random(&r, &s, "advanced", NULL, 11);
    int cut = -1;
    for (int i = 20; i < r.nply; i++)
        if (KONTOR_MOVE_KIND(r.ply[i].move) == kind && r.ply[i].seat == 0 &&
            (kind != KONTOR_MOVE_DECLARE || KONTOR_MOVE_VALUE(r.ply[i].move) == KONTOR_PLAY) &&
            (i + 1 >= r.nply || r.ply[i + 1].seat == 1)) {
            cut = i + 1;
            break;
        }
    assert_true(cut > 0);
    r.nply = cut;
    snprintf(r.result, sizeof r.result, "*");
    char *t = write_text(&r);
    if (!strstr(t, tail)) fail_msg("no '%s' in:\n%s", tail, t);
    assert_int_equal(kontor_record_parse(&back, t, strlen(t), &err), KONTOR_OK);
    assert_int_equal(back.nply, cut);
    char *again = write_text(&back);
    assert_string_equal(again, t);
    assert_int_equal(kontor_record_replay(&back, -1, &s, NULL, NULL, &err), KONTOR_OK);
    assert_false(kontor_over(&s));
    assert_int_equal(s.phase, phase);
    assert_int_equal(kontor_actors(&s), 2u); /* black still owes its decision */
    free(t);
    free(again);
    kontor_record_release(&r);
    kontor_record_release(&back);
}

static void an_unfinished_game_round_trips(void **state) {
    (void)state;
    /* after red's declaration: black's is missing */
    cut_round_trips(KONTOR_MOVE_DECLARE, " play ?\n", KONTOR_PHASE_DECLARE);
    /* after red's card: black declared to play, his card is missing */
    cut_round_trips(KONTOR_MOVE_CHOOSE, " play\n", KONTOR_PHASE_CHOOSE);
}

static void whitespace_and_comments_are_ignored(void **state) {
    (void)state;
    char *t = valid_text(3);
    /* rebuild the text with comments, CRLF, tabs and extra spaces */
    size_t n = strlen(t);
    char *u = malloc(n * 4 + 200);
    assert_non_null(u);
    size_t k = 0;
    k += (size_t)sprintf(u + k, "; a comment line\r\n{ a block\ncomment }\n");
    size_t body = (size_t)(strstr(t, "\ndeal") - t); /* tags keep their spaces; tested elsewhere */
    for (size_t i = 0; i < n; i++) {
        if (i < body) u[k++] = t[i];
        else if (t[i] == '\n') k += (size_t)sprintf(u + k, " {c};x\r\n");
        else if (t[i] == ' ' && i > 0 && t[i - 1] != '[' && t[i - 1] != '"' && strchr("0123456789s-", t[i - 1]))
            k += (size_t)sprintf(u + k, " \t {tax} ");
        else u[k++] = t[i];
    }
    u[k] = 0;
    kontor_record a, b;
    kontor_error err;
    assert_int_equal(kontor_record_parse(&a, t, strlen(t), &err), KONTOR_OK);
    if (kontor_record_parse(&b, u, k, &err)) fail_msg("%s", err.msg);
    char *ta = write_text(&a), *tb = write_text(&b);
    assert_string_equal(ta, tb);
    free(t);
    free(u);
    free(ta);
    free(tb);
    kontor_record_release(&a);
    kontor_record_release(&b);
}

static void a_seed_stands_for_the_deal(void **state) {
    (void)state;
    const char *text = "[Variant \"basic\"]\n[Seed \"42\"]\n\n1. pass pass\n";
    kontor_record r;
    kontor_error err;
    assert_int_equal(kontor_record_parse(&r, text, strlen(text), &err), KONTOR_OK);
    kontor_config cfg;
    kontor_config_init(&cfg, "basic", NULL);
    kontor_deal d;
    kontor_deal_shuffle(&d, &cfg, 42);
    assert_memory_equal(&r.deal, &d, sizeof d);
    assert_int_equal(r.nply, 2);
    kontor_state s;
    assert_int_equal(kontor_record_replay(&r, -1, &s, NULL, NULL, &err), KONTOR_OK);
    assert_int_equal(s.round, 2);
    assert_int_equal(s.no_pass, 1);
    kontor_record_release(&r);
}

/* ---- parse errors name their line ---------------------------------------------- */

static void tag_errors_name_the_line(void **state) {
    (void)state;
    parse_fails("[Event \"x\"]\n[Variant \"huge\"]\n", KONTOR_E_PARSE, 2, "unknown variant 'huge'");
    parse_fails("\n\n[Event \"x]\n", KONTOR_E_PARSE, 3, "not closed by '\"'");
    parse_fails("[Event \"x\"\n", KONTOR_E_PARSE, 1, "tag 'Event' is not closed by ']'");
    parse_fails("[Event x]\n", KONTOR_E_PARSE, 1, "wants a value in double quotes");
    parse_fails("[ \"x\"]\n", KONTOR_E_PARSE, 1, "wants a name");
    parse_fails("[Red \"a\"]\n[Red \"b\"]\n", KONTOR_E_PARSE, 2, "tag 'Red' is given twice (first on line 1)");
    parse_fails("[Red \"a\\n\"]\n", KONTOR_E_PARSE, 1, "only \\\" and \\\\ may follow a backslash");
    parse_fails("\n[Seed \"12x\"]\n", KONTOR_E_PARSE, 2, "tag 'Seed' wants a whole number");
    parse_fails("[Seed \"18446744073709551616\"]\n", KONTOR_E_PARSE, 1, "tag 'Seed' wants a whole number");
    parse_fails("[Result \"2-0\"]\n", KONTOR_E_PARSE, 1, "tag 'Result' is '1-0', '0-1', '1/2-1/2' or '*', not '2-0'");
    parse_fails("\n\n\n[Options \"bogus=1\"]\n", KONTOR_E_PARSE, 4, "tag 'Options': unknown option 'bogus'");
    parse_fails("[Options \"max_rounds=0\"]\n", KONTOR_E_RANGE, 1, "out of range");
    parse_fails("[Cards \"mine\"]\n", KONTOR_E_INVALID, 1,
                "the record is played with card set 'mine', but card set 'default' is loaded (use --cards FILE)");
    parse_fails("\n[Event_with_a_very_long_name_that_goes_on_and_on_and_on \"x\"]\n", KONTOR_E_PARSE, 2,
                "a tag name is too long");
    char longtag[400];
    snprintf(longtag, sizeof longtag, "[Event \"%0200d\"]\n", 0);
    parse_fails(longtag, KONTOR_E_PARSE, 1, "longer than 127 characters");
}

/* Every tag the reader knows is found by its name (the reader looks a name
 * up among the tags of its length): given twice, each is refused as such;
 * other names, even one letter off, are ignored. A tag name may be 47 bytes
 * long, not 48. */
static void every_tag_is_known_by_its_name(void **state) {
    (void)state;
    static const char *const known[] = {"Event", "Date", "Variant", "Options", "Cards", "Red", "Black", "Seed",
                                        "Result", "Termination", "Red1", "Red2", "Black1", "Black2", "Rulings"};
    static const char *const other[] = {"red", "Reds", "Re", "Red3", "Blacks", "Dat", "Seeds", "Terminatio",
                                        "Event_", "Rulingz", "Cardz", "Xed"};
    char text[256], want[96];
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        snprintf(text, sizeof text, "[%s \"1\"]\n[%s \"1\"]\n", known[i], known[i]);
        snprintf(want, sizeof want, "tag '%s' is given twice (first on line 1)", known[i]);
        parse_fails(text, KONTOR_E_PARSE, 2, want);
    }
    for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
        kontor_record r;
        kontor_error err;
        snprintf(text, sizeof text, "[%s \"1\"]\n[%s \"1\"]\n", other[i], other[i]);
        kontor_status st = kontor_record_parse(&r, text, strlen(text), &err);
        if (st == KONTOR_OK) kontor_record_release(&r);
        else if (strstr(err.msg, "given twice")) fail_msg("tag '%s' is not the reader's but was taken: %s", other[i], err.msg);
    }
    char name[64];
    memset(name, 'x', sizeof name);
    name[47] = 0;
    snprintf(text, sizeof text, "[%s \"1\"]\n", name);
    kontor_record r;
    kontor_error err;
    kontor_status st = kontor_record_parse(&r, text, strlen(text), &err);
    if (st == KONTOR_OK) kontor_record_release(&r);
    else if (strstr(err.msg, "too long")) fail_msg("a name of 47 bytes: %s", err.msg);
    name[47] = 'x';
    name[48] = 0;
    snprintf(text, sizeof text, "[%s \"1\"]\n", name);
    parse_fails(text, KONTOR_E_PARSE, 1, "a tag name is too long");
}

static void byte_errors_name_the_line(void **state) {
    (void)state;
    const char nul[] = "[Event \"x\"]\n\n\0";
    kontor_record r;
    kontor_error err;
    assert_int_equal(kontor_record_parse(&r, nul, sizeof nul - 1, &err), KONTOR_E_PARSE);
    assert_int_equal(err.line, 3);
    assert_non_null(strstr(err.msg, "line 3: a NUL byte"));
    parse_fails("[Event \"x\"]\n\x01\n", KONTOR_E_PARSE, 2, "control byte 0x01");
    char *big = malloc(20000);
    assert_non_null(big);
    memset(big, ' ', 19999);
    big[0] = '\n';
    big[19999] = 0;
    parse_fails(big, KONTOR_E_PARSE, 2, "longer than 16384 characters");
    free(big);
    parse_fails("{ open\n\ncomment\n", KONTOR_E_PARSE, 1, "comment '{' is not closed by '}'");
}

/* The line check reads eight bytes at a time (issue 17): a refused byte is
 * found at every place in a word, tabs and carriage returns are not refused,
 * and a line's length is counted exactly wherever its words fall. */
static void line_check_sees_every_byte_of_a_word(void **state) {
    (void)state;
    char buf[64], want[32];
    static const unsigned char bad[] = {0x01, 0x1b, 0x1f, 0x7f};
    for (int pad = 0; pad < 16; pad++)
        for (size_t b = 0; b < sizeof bad; b++) {
            snprintf(buf, sizeof buf, "[Event \"x\"]\n%.*s?%s", pad, "{ a comment ....}", "\n{ more }\n");
            buf[12 + pad] = (char)bad[b];
            snprintf(want, sizeof want, "control byte 0x%02x", bad[b]);
            parse_fails(buf, KONTOR_E_PARSE, 2, want);
            buf[12 + pad] = pad & 1 ? '\t' : '\r'; /* allowed: the error is another one */
            kontor_record r;
            kontor_error err;
            assert_int_equal(kontor_record_parse(&r, buf, strlen(buf), &err), KONTOR_E_PARSE);
            assert_null(strstr(err.msg, "control byte"));
        }
    char *big = malloc(16400 + 32);
    assert_non_null(big);
    for (int lead = 0; lead < 9; lead++)
        for (int len = 16382; len <= 16386; len++) {
            /* lead newlines, then a comment line of len characters, then a control byte on the next line */
            memset(big, '\n', (size_t)lead);
            big[lead] = ';';
            memset(big + lead + 1, 'x', (size_t)len - 1);
            snprintf(big + lead + len, 32, "\n\x02\n");
            if (len <= 16384) parse_fails(big, KONTOR_E_PARSE, lead + 2, "control byte 0x02");
            else parse_fails(big, KONTOR_E_PARSE, lead + 1, "longer than 16384 characters");
            /* a control byte on the long line: whichever comes first */
            big[lead + len - 1] = 0x03;
            if (len <= 16384) parse_fails(big, KONTOR_E_PARSE, lead + 1, "control byte 0x03");
            else parse_fails(big, KONTOR_E_PARSE, lead + 1, "longer than 16384 characters");
            big[lead + 16000] = 0x04;
            parse_fails(big, KONTOR_E_PARSE, lead + 1, "control byte 0x04");
        }
    free(big);
}

static void deal_errors_name_the_line(void **state) {
    (void)state;
    char *t = valid_text(5);
    char buf[8192];
    /* 9 tag lines, a blank line, the deal on lines 11-13, a blank line, rounds from line 15 */
    char *w = strstr(t, "deal water ");
    assert_non_null(w);
    char *rounds = strstr(t, "\n1. ");
    assert_non_null(rounds);
    int head = (int)(w - t);
    /* a missing pile */
    snprintf(buf, sizeof buf, "%.*s%s", head, t, strstr(t, "deal red"));
    parse_fails(buf, KONTOR_E_PARSE, 11, "the deal lacks the 'water' pile");
    /* no deal and no seed */
    snprintf(buf, sizeof buf, "[Variant \"basic\"]\n\n1. pass pass\n");
    parse_fails(buf, KONTOR_E_PARSE, 3, "no deal");
    /* a number that is no card */
    snprintf(buf, sizeof buf, "%.*sdeal water 200\n", head, t);
    parse_fails(buf, KONTOR_E_INVALID, 11, "there is no card 200 in card set 'default'");
    /* a dock card in the water pile */
    snprintf(buf, sizeof buf, "%.*sdeal water 52 1\n", head, t);
    parse_fails(buf, KONTOR_E_INVALID, 11, "card 1 in the water pile is a red dock card");
    /* a card twice */
    snprintf(buf, sizeof buf, "%.*sdeal water\n52 52\n", head, t);
    parse_fails(buf, KONTOR_E_INVALID, 12, "card 52 is dealt twice");
    /* a pile missing: the deal's first line is named */
    snprintf(buf, sizeof buf, "%.*sdeal water 52\n", head, t);
    parse_fails(buf, KONTOR_E_PARSE, 11, "the deal lacks the 'red' pile");
    /* a pile twice */
    snprintf(buf, sizeof buf, "%.*s%.*sdeal red 1\n", (int)(rounds - t), t, 0, "");
    parse_fails(buf, KONTOR_E_PARSE, 14, "the red pile is dealt twice (first on line 12)");
    /* a pile without its name */
    snprintf(buf, sizeof buf, "%.*s\n\ndeal ; nothing\n", head, t);
    parse_fails(buf, KONTOR_E_PARSE, 13, "'deal' wants 'water', a seat or 'special', but the record ends");
    /* an unknown pile */
    snprintf(buf, sizeof buf, "%.*sdeal green 1\n", head, t);
    parse_fails(buf, KONTOR_E_PARSE, 11, "'deal' wants 'water', a seat ('red', ...), not 'green'");
    free(t);
}

static void round_errors_name_the_line(void **state) {
    (void)state;
    char *t = valid_text(5);
    char buf[8192];
    char *rounds = strstr(t, "\n1. ");
    assert_non_null(rounds);
    int head = (int)(rounds - t) + 1; /* up to and with the blank line: rounds start on line 15 */
#define ROUNDS(text) (snprintf(buf, sizeof buf, "%.*s%s", head, t, text), buf)
    parse_fails(ROUNDS("1. pass pass\n3. pass pass\n"), KONTOR_E_PARSE, 16, "round 3 comes where round 2 belongs");
    parse_fails(ROUNDS("hello\n"), KONTOR_E_PARSE, 15, "expected round 1, like '1.', not 'hello'");
    parse_fails(ROUNDS("1. pass\n"), KONTOR_E_PARSE, 15, "round 1 wants black's choice, but the record ends");
    parse_fails(ROUNDS("1. pass x\n"), KONTOR_E_PARSE, 15, "black's choice is a card number, 'pass', 'play' or '?', not 'x'");
    parse_fails(ROUNDS("1. 1234 pass\n"), KONTOR_E_PARSE, 15, "red's choice is a card number");
    parse_fails(ROUNDS("1. 94 pass\n"), KONTOR_E_INVALID, 15, "round 1: there is no card 94 in card set 'default'");
    parse_fails(ROUNDS("1. 1 2\n+1,0\n"), KONTOR_E_PARSE, 16, "after the choices comes a seat ('red', ...) or the next round");
    parse_fails(ROUNDS("1. 1 2 red\n\nship x\n"), KONTOR_E_PARSE, 17, "'ship' wants a cell like +1,-2 or '-', not 'x'");
    parse_fails(ROUNDS("1. 1 2 red ship"), KONTOR_E_PARSE, 15, "'ship' wants a cell like +1,-2 or '-', but the record ends");
    parse_fails(ROUNDS("1. 1 2 red remove 1;2\n"), KONTOR_E_PARSE, 15, "'remove' wants a cell like +1,-2 or '-', not '1'");
    parse_fails(ROUNDS("1. 1 2 red +1,+9\n"), KONTOR_E_PARSE, 15, "round 1: '+1,+9' is not a cell");
    parse_fails(ROUNDS("1. 1 2 red +8,+8\n"), KONTOR_E_PARSE, 15, "round 1: '+8,+8' is not a cell");
    parse_fails(ROUNDS("1. 1 2 red ship +8,+8\n"), KONTOR_E_PARSE, 15, "'ship' wants a cell like +1,-2 or '-', not '+8,+8'");
    parse_fails(ROUNDS("1. 1 2 red 0,0\n[Event \"late\"]\n"), KONTOR_E_PARSE, 16, "a tag '[...]' must come before");
    parse_fails(ROUNDS("1. 1 2\ndeal water 52\n"), KONTOR_E_PARSE, 16, "comes a seat ('red', ...) or the next round, not 'deal'");
    parse_fails(ROUNDS("1. pass pass 2. pass pass 99999999. pass\n"), KONTOR_E_PARSE, 15, "not '99999999.'");
    char word[100];
    snprintf(word, sizeof word, "1. %060d\n", 1);
    parse_fails(ROUNDS(word), KONTOR_E_PARSE, 15, "is too long for a word of a record");
#undef ROUNDS
    free(t);
}

static void too_many_decisions_are_refused(void **state) {
    (void)state;
    /* 50001 rounds of two passes would be 100002 decisions; the ceiling is 100000
     * decisions and 10000 rounds, so the round limit trips first */
    size_t cap = 20 * 10002 + 200;
    char *t = malloc(cap);
    assert_non_null(t);
    size_t k = (size_t)sprintf(t, "[Seed \"1\"]\n");
    for (int i = 1; i <= 10001; i++) k += (size_t)sprintf(t + k, "%d. pass pass\n", i);
    parse_fails(t, KONTOR_E_RANGE, 10002, "a record holds at most 10000 rounds");
    free(t);
    /* one round may hold many decisions (illegal ones, but the parser does
     * not know the rules): 160000 in all is the ceiling */
    cap = 200 + 160001 * 5;
    t = malloc(cap);
    assert_non_null(t);
    k = (size_t)sprintf(t, "[Seed \"1\"]\n1. pass pass red");
    int line = 2;
    for (int i = 0; i < 160000 - 2 + 1; i++) {
        if (i % 1000 == 0) t[k++] = '\n', line++;
        k += (size_t)sprintf(t + k, " 0,0");
    }
    t[k] = 0;
    parse_fails(t, KONTOR_E_RANGE, line, "the record holds more than 160000 decisions");
    free(t);
}

/* ---- replay errors name the round ---------------------------------------------- */

static void an_illegal_move_names_its_round(void **state) {
    (void)state;
    kontor_record r;
    kontor_state s, s2;
    kontor_error err;
    play_random(&r, &s, "basic", NULL, 21);
    /* find the first placement in round >= 5 and put it on the centre */
    kontor_state cur;
    assert_int_equal(kontor_record_replay(&r, 0, &cur, NULL, NULL, &err), KONTOR_OK);
    int target = -1, round = 0;
    for (int i = 0; i < r.nply; i++) {
        if (cur.round >= 5 && KONTOR_MOVE_KIND(r.ply[i].move) == KONTOR_MOVE_PLACE) {
            target = i;
            round = cur.round;
            break;
        }
        assert_int_equal(kontor_apply(&cur, r.ply[i].seat, r.ply[i].move, NULL), KONTOR_OK);
    }
    assert_true(target >= 0);
    r.ply[target].move = KONTOR_MOVE(KONTOR_MOVE_PLACE, KONTOR_CENTRE_CELL);
    assert_int_equal(kontor_record_replay(&r, -1, &s2, NULL, NULL, &err), KONTOR_E_ILLEGAL);
    assert_int_equal(err.code, KONTOR_E_ILLEGAL);
    assert_int_equal(err.round, round);
    char want[128];
    snprintf(want, sizeof want, "round %d: %s places on 0,0, but cell 0,0 already holds a card", round,
             r.ply[target].seat ? "black" : "red");
    assert_string_equal(err.msg, want);
    /* the replay stopped right before it: the state is the one before the bad move */
    assert_memory_equal(&s2, &cur, sizeof cur);
    kontor_record_release(&r);
}

static void a_card_not_in_hand_is_named(void **state) {
    (void)state;
    kontor_record r;
    kontor_state s;
    kontor_error err;
    play_random(&r, &s, "basic", "declare=hidden", 22);
    /* round 1: black plays a card of red's */
    int red_card = -1;
    kontor_state start;
    kontor_record_replay(&r, 0, &start, NULL, NULL, &err);
    red_card = start.hand[0][0];
    assert_int_equal(KONTOR_MOVE_KIND(r.ply[1].move), KONTOR_MOVE_CHOOSE);
    assert_int_equal(r.ply[1].seat, 1);
    r.ply[1].move = KONTOR_MOVE(KONTOR_MOVE_CHOOSE, red_card);
    assert_int_equal(kontor_record_replay(&r, -1, &s, NULL, NULL, &err), KONTOR_E_ILLEGAL);
    int num = start.cfg->cards->card[red_card].number;
    char want[128];
    snprintf(want, sizeof want, "round 1: black plays %d, but card %d is not in black's hand", num, num);
    assert_string_equal(err.msg, want);
    assert_int_equal(err.round, 1);
    kontor_record_release(&r);
}

static void a_move_after_the_end_is_illegal(void **state) {
    (void)state;
    kontor_record r;
    kontor_state s;
    kontor_error err;
    play_random(&r, &s, "basic", NULL, 23);
    int last_round = s.round;
    assert_int_equal(kontor_record_push(&r, 0, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, KONTOR_PASS)), KONTOR_OK);
    assert_int_equal(kontor_record_replay(&r, -1, &s, NULL, NULL, &err), KONTOR_E_ILLEGAL);
    assert_int_equal(err.round, last_round);
    assert_non_null(strstr(err.msg, "red passes, but the game is over"));
    kontor_record_release(&r);
}

typedef struct counter {
    int calls, last_ply;
} counter;

static void count_plies(void *ctx, const kontor_state *s, int ply, const kontor_log *log) {
    counter *c = ctx;
    (void)s;
    assert_int_equal(ply, c->last_ply + 1);
    assert_true(log->n >= 0 && log->n <= KONTOR_LOG_MAX);
    c->last_ply = ply;
    c->calls++;
}

static void replay_upto_stops_and_calls_back_once_a_decision(void **state) {
    (void)state;
    kontor_record r;
    kontor_state s, part;
    kontor_error err;
    play_random(&r, &s, "advanced", NULL, 31);
    counter c = {0, -1};
    assert_int_equal(kontor_record_replay(&r, 10, &part, count_plies, &c, &err), KONTOR_OK);
    assert_int_equal(c.calls, 10);
    /* the same as applying the first ten by hand */
    kontor_state by_hand;
    kontor_new_from_deal(&by_hand, &r.cfg, &r.deal, NULL);
    for (int i = 0; i < 10; i++) kontor_apply(&by_hand, r.ply[i].seat, r.ply[i].move, NULL);
    assert_memory_equal(&part, &by_hand, sizeof part);
    kontor_record_release(&r);
}

/* kontor_record_replay_rounds (kontor replay without --trace) replays as
 * kontor_record_replay does, without a callback and a log, to the same
 * state, and names the round the last decision was taken in, as the trace's
 * callback counts it; an illegal decision gives the same error. */
static void replay_rounds_ends_in_the_same_state_and_names_the_last_round(void **state) {
    (void)state;
    const char *variants[] = {"basic", "advanced", "specials", "bakschisch", "justizia", "tictactoe"};
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            kontor_record r;
            kontor_state s, a, b, by_hand;
            kontor_error err, err2;
            play_random(&r, &s, variants[v], NULL, seed);
            int rounds = -1;
            assert_int_equal(kontor_record_replay(&r, -1, &a, NULL, NULL, &err), KONTOR_OK);
            assert_int_equal(kontor_record_replay_rounds(&r, &b, &rounds, &err), KONTOR_OK);
            assert_memory_equal(&a, &b, sizeof a);
            kontor_new_from_deal(&by_hand, &r.cfg, &r.deal, NULL);
            int before = 0;
            for (int i = 0; i < r.nply; i++) {
                before = by_hand.round;
                assert_int_equal(kontor_apply(&by_hand, r.ply[i].seat, r.ply[i].move, NULL), KONTOR_OK);
            }
            assert_true(r.nply > 0);
            assert_int_equal(rounds, before);
            /* cut right after the decision that ends a round: the round named is the one it ended */
            kontor_new_from_deal(&by_hand, &r.cfg, &r.deal, NULL);
            int cut = -1, cut_round = 0, keep = r.nply;
            for (int i = 0; i < r.nply && cut < 0; i++) {
                int b0 = by_hand.round;
                assert_int_equal(kontor_apply(&by_hand, r.ply[i].seat, r.ply[i].move, NULL), KONTOR_OK);
                if (by_hand.round != b0) cut = i + 1, cut_round = b0;
            }
            assert_true(cut > 0);
            r.nply = cut;
            assert_int_equal(kontor_record_replay_rounds(&r, &b, &rounds, &err), KONTOR_OK);
            assert_int_equal(rounds, cut_round);
            r.nply = keep;
            /* an illegal decision: the last one made again */
            kontor_ply last = r.ply[r.nply - 1];
            assert_int_equal(kontor_record_push(&r, last.seat, last.move), KONTOR_OK);
            assert_int_equal(kontor_record_replay(&r, -1, &a, NULL, NULL, &err), KONTOR_E_ILLEGAL);
            assert_int_equal(kontor_record_replay_rounds(&r, &b, &rounds, &err2), KONTOR_E_ILLEGAL);
            assert_string_equal(err.msg, err2.msg);
            assert_int_equal(err.round, err2.round);
            kontor_record_release(&r);
        }
    /* no decision: round 0 */
    kontor_record r;
    kontor_state s;
    kontor_error err;
    play_random(&r, &s, "basic", NULL, 4);
    r.nply = 0;
    int rounds = -1;
    assert_int_equal(kontor_record_replay_rounds(&r, &s, &rounds, &err), KONTOR_OK);
    assert_int_equal(rounds, 0);
    kontor_record_release(&r);
}

static void another_card_set_is_read_with_its_numbers(void **state) {
    (void)state;
    /* the built-in set renamed: numbers are read with the set given, and
     * a record must name that set */
    const char *def = kontor_cards_default_text();
    size_t n = strlen(def);
    char *text = malloc(n + 32);
    assert_non_null(text);
    const char *name = strstr(def, "\nname default");
    assert_non_null(name);
    snprintf(text, n + 32, "%.*s\nname other%s", (int)(name - def), def, name + strlen("\nname default"));
    kontor_cardset cs;
    kontor_error err;
    if (kontor_cards_parse(&cs, text, strlen(text), &err)) fail_msg("%s", err.msg);
    assert_string_equal(cs.name, "other");
    kontor_record r, back;
    kontor_state s, s2;
    kontor_config cfg;
    kontor_config_init(&cfg, "basic", NULL);
    cfg.cards = &cs;
    kt_deal_recorded(&s, &r, &cfg, 5);
    kontor_rng rng;
    kontor_rng_seed(&rng, 5);
    kontor_playout(&s, &rng); /* only to have a state; the record holds no decisions */
    char *t = write_text(&r);
    assert_non_null(strstr(t, "[Cards \"other\"]"));
    assert_int_equal(kontor_record_parse(&back, t, strlen(t), &err), KONTOR_E_INVALID);
    assert_non_null(strstr(err.msg, "card set 'other', but card set 'default' is loaded"));
    assert_int_equal(kontor_record_parse_with(&back, &cs, t, strlen(t), &err), KONTOR_OK);
    assert_int_equal(kontor_record_replay(&back, -1, &s2, NULL, NULL, &err), KONTOR_OK);
    assert_string_equal(s2.cfg->cards->name, "other");
    free(t);
    free(text);
    kontor_record_release(&r);
    kontor_record_release(&back);
}

static void release_is_harmless_twice_and_on_null(void **state) {
    (void)state;
    kontor_record r;
    kontor_config cfg;
    kontor_config_init(&cfg, "basic", NULL);
    kontor_record_init(&r, &cfg, NULL);
    assert_string_equal(r.result, "*");
    assert_int_equal(kontor_record_push(&r, 0, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, KONTOR_PASS)), KONTOR_OK);
    kontor_record_release(&r);
    kontor_record_release(&r);
    kontor_record_release(NULL);
    assert_null(r.ply);
}

/* ---- rulings: every record names the rules it was played under ------------------ */

/* A record without a Rulings tag was written before R1 and R2 followed the
 * rulebook: it is read under the old rulings (a pass among the hidden choices,
 * none after a double pass), so every record written before still replays. */
static void ruling_R1_R2_a_record_without_rulings_replays_under_the_old_ones(void **state) {
    (void)state;
    static const char old[] =
        "[Variant \"basic\"]\n[Seed \"5\"]\n\n1. pass pass\n2. pass ?\n";
    kontor_record r;
    kontor_state s;
    kontor_error err;
    assert_int_equal(kontor_record_parse(&r, old, sizeof old - 1, &err), KONTOR_OK);
    assert_int_equal(r.cfg.pass_hidden, 1);
    assert_int_equal(r.cfg.pass_rest, 1);
    /* round 2 after a double pass: the old house rule forbids red's pass */
    assert_int_equal(kontor_record_replay(&r, -1, &s, NULL, NULL, &err), KONTOR_E_ILLEGAL);
    assert_non_null(strstr(err.msg, "round 2: red passes, but nobody may pass"));
    /* written again, the record states its rulings and the old options */
    char *t = write_text(&r);
    assert_non_null(strstr(t, "[Rulings \"2\"]\n[Options \"declare=hidden,pass=rest\"]\n"));
    free(t);
    kontor_record_release(&r);
    /* the same text under the current rulings: the passes are declarations,
     * and passing after a double pass is allowed */
    static const char now[] =
        "[Variant \"basic\"]\n[Rulings \"2\"]\n[Seed \"5\"]\n\n1. pass pass\n2. pass pass\n";
    assert_int_equal(kontor_record_parse(&r, now, sizeof now - 1, &err), KONTOR_OK);
    assert_int_equal(r.cfg.pass_hidden, 0);
    assert_int_equal(r.cfg.pass_rest, 0);
    assert_int_equal(KONTOR_MOVE_KIND(r.ply[0].move), KONTOR_MOVE_DECLARE);
    assert_int_equal(kontor_record_replay(&r, -1, &s, NULL, NULL, &err), KONTOR_OK);
    assert_int_equal(s.round, 3);
    kontor_record_release(&r);
    static const char later[] = "[Rulings \"3\"]\n[Seed \"5\"]\n";
    parse_fails(later, KONTOR_E_PARSE, 1, "tag 'Rulings' is '1' or '2'");
}

/* Every game record committed in docs/arena was written before the Rulings
 * tag; all of them must still replay to their stated result. */
static void the_committed_arena_records_still_replay(void **state) {
    (void)state;
    glob_t g;
    assert_int_equal(glob("docs/arena/*/*.kgn", 0, NULL, &g), 0);
    assert_true(g.gl_pathc >= 800);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        kontor_record r;
        kontor_state s;
        kontor_error err;
        kt_read_record(g.gl_pathv[i], &r);
        if (kontor_record_replay(&r, -1, &s, NULL, NULL, &err)) fail_msg("%s: %s", g.gl_pathv[i], err.msg);
        assert_true(kontor_over(&s));
        const char *res = s.winner == 0 ? "1-0" : s.winner == 1 ? "0-1" : "1/2-1/2";
        if (strcmp(res, r.result)) fail_msg("%s: replayed %s, the record says %s", g.gl_pathv[i], res, r.result);
        kontor_record_release(&r);
    }
    globfree(&g);
}

/* ---- the example in docs/records.md ------------------------------------------------ */

/* The document's example is the text between the lines "```kgn" and "```".
 * It must replay, and end as the document says: after round 3 red has 5
 * coins and black 4 (the trace lines printed there). */
static void the_example_in_the_docs_replays(void **state) {
    (void)state;
    FILE *f = fopen("docs/records.md", "rb");
    if (!f) fail_msg("cannot open docs/records.md (run the tests from the repository root)");
    static char doc[65536];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = 0;
    char *start = strstr(doc, "```kgn\n");
    assert_non_null(start);
    start += 7;
    char *end = strstr(start, "```");
    assert_non_null(end);
    kontor_record r;
    kontor_state s;
    kontor_error err;
    if (kontor_record_parse(&r, start, (size_t)(end - start), &err)) fail_msg("%s", err.msg);
    if (kontor_record_replay(&r, -1, &s, NULL, NULL, &err)) fail_msg("%s", err.msg);
    /* the facts the document states about its example */
    assert_int_equal(s.round, 6);
    assert_int_equal(s.phase, kt_choice_phase(&s));
    char *facts = strstr(doc, "```trace\n");
    assert_non_null(facts);
    char line[256];
    snprintf(line, sizeof line, "round 5 coins %d %d treasury %d keepers %d %d", s.coins[0], s.coins[1], s.treasury,
             s.keepers[0], s.keepers[1]);
    assert_non_null(strstr(facts, line));
    kontor_record_release(&r);
}

/* ---- the board as text ---------------------------------------------------------- */

static void the_drawing_shows_cards_ship_and_table(void **state) {
    (void)state;
    kontor_config cfg;
    kontor_config_init(&cfg, "advanced", NULL);
    kontor_state s;
    kontor_new(&s, &cfg, 9, NULL);
    static char buf[8192];
    size_t n = kontor_draw_board(&s, buf, sizeof buf, KONTOR_DRAW_HAND(KONTOR_RED));
    assert_int_equal(n, strlen(buf));
    assert_non_null(strstr(buf, "(@)"));
    assert_non_null(strstr(buf, "ship")); /* the ship starts on the centre */
    char top[16];
    snprintf(top, sizeof top, "~%d", cfg.cards->card[kontor_state_card_at(&s, kontor_cell(0, -1))].number);
    assert_non_null(strstr(buf, top));
    assert_non_null(strstr(buf, "round 1: declaring who passes"));
    assert_non_null(strstr(buf, "black   coins 4, keepers 0 (0 points), hand of 5 cards"));
    /* red's hand is shown card by card */
    char hand[64];
    snprintf(hand, sizeof hand, "hand %d %d", cfg.cards->card[s.hand[0][0]].number, cfg.cards->card[s.hand[0][1]].number);
    assert_non_null(strstr(buf, hand));
    assert_non_null(strstr(buf, "treasury 12;"));
    assert_non_null(strstr(buf, "ship on 0,0"));
    /* free cells where a card may go are dots; the 7x7 mask around the 5x5 cross is 9 wide */
    assert_non_null(strstr(buf, "  .   "));
    assert_non_null(strstr(buf, "    -4 "));
    /* cut short: still terminated, and the full length is reported */
    char small[40];
    size_t m = kontor_draw_board(&s, small, sizeof small, 0);
    assert_true(m > sizeof small);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_int_equal(kontor_draw_board(&s, NULL, 0, 0), kontor_draw_board(&s, buf, sizeof buf, 0));
}

static void the_drawing_marks_enclosed_areas_with_their_keeper(void **state) {
    (void)state;
    /* play random games until one has an enclosed area with a keeper */
    for (uint64_t seed = 1; seed < 50; seed++) {
        kontor_record r;
        kontor_state s;
        play_random(&r, &s, "basic", NULL, seed);
        kontor_record_release(&r);
        for (int i = 0; i < s.nareas; i++)
            if (s.area[i].keeper) {
                static char buf[8192];
                kontor_draw_board(&s, buf, sizeof buf, KONTOR_DRAW_ALL_HANDS);
                const kontor_card *c = &s.cfg->cards->card[kontor_state_card_at(&s, s.area[i].cell)];
                char want[16];
                snprintf(want, sizeof want, "%c%d[%c]", c->colour ? 'b' : 'r', c->number, s.area[i].winner ? 'B' : 'R');
                if (!strstr(buf, want)) fail_msg("'%s' not in\n%s", want, buf);
                assert_non_null(strstr(buf, "game over"));
                return;
            }
    }
    fail_msg("no random game with a keeper in 50 seeds");
}

/* ---- the command: golden transcripts ------------------------------------------- */

/* tests/cli/run.sh runs `kontor replay` and `kontor show` on the committed
 * records in tests/cli/ and compares with tests/cli/expected/ (make test sets
 * KONTOR to the binary it built). */
static void the_commands_match_their_golden_transcripts(void **state) {
    (void)state;
    const char *kontor = getenv("KONTOR");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "sh tests/cli/run.sh '%s'", kontor && *kontor ? kontor : "build/kontor");
    int rc = system(cmd);
    if (rc != 0) fail_msg("'%s' failed (status %d): see its output above", cmd, rc);
}

/* Issue 17: `kontor replay` loads none of the game server's libraries
 * (SQLite, libuv, nettle: src/server/lazylib.h) nor the terminal client's
 * (ncurses: src/cli/lazy_curses.c), whose relocations cost more than
 * replaying a record. The dynamic loader names each file it opens
 * (LD_DEBUG=files); libc must be among them, so that the test cannot pass on
 * an empty list. */
static void replay_loads_none_of_the_servers_libraries(void **state) {
    (void)state;
    const char *kontor = getenv("KONTOR");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "LD_DEBUG=files '%s' replay --quiet tests/cli/basic.kgn 2>&1 >/dev/null",
             kontor && *kontor ? kontor : "build/kontor");
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    static char out[1 << 16];
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    assert_int_equal(pclose(f), 0);
    assert_non_null(strstr(out, "libc.so.6"));
    const char *libs[] = {"libsqlite3", "libuv", "libnettle", "libpq", "libncursesw", "libtinfo"};
    for (size_t i = 0; i < sizeof libs / sizeof *libs; i++)
        if (strstr(out, libs[i])) fail_msg("kontor replay loads %s:\n%s", libs[i], out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replay_loads_none_of_the_servers_libraries),
        cmocka_unit_test(random_basic_games_replay_to_the_same_state),
        cmocka_unit_test(random_advanced_games_replay_to_the_same_state),
        cmocka_unit_test(games_with_options_replay_to_the_same_state),
        cmocka_unit_test(the_options_tag_names_the_rules),
        cmocka_unit_test(an_unfinished_game_round_trips),
        cmocka_unit_test(ruling_R1_R2_a_record_without_rulings_replays_under_the_old_ones),
        cmocka_unit_test(the_committed_arena_records_still_replay),
        cmocka_unit_test(whitespace_and_comments_are_ignored),
        cmocka_unit_test(a_seed_stands_for_the_deal),
        cmocka_unit_test(tag_errors_name_the_line),
        cmocka_unit_test(every_tag_is_known_by_its_name),
        cmocka_unit_test(byte_errors_name_the_line),
        cmocka_unit_test(line_check_sees_every_byte_of_a_word),
        cmocka_unit_test(deal_errors_name_the_line),
        cmocka_unit_test(round_errors_name_the_line),
        cmocka_unit_test(too_many_decisions_are_refused),
        cmocka_unit_test(an_illegal_move_names_its_round),
        cmocka_unit_test(a_card_not_in_hand_is_named),
        cmocka_unit_test(a_move_after_the_end_is_illegal),
        cmocka_unit_test(replay_upto_stops_and_calls_back_once_a_decision),
        cmocka_unit_test(replay_rounds_ends_in_the_same_state_and_names_the_last_round),
        cmocka_unit_test(another_card_set_is_read_with_its_numbers),
        cmocka_unit_test(release_is_harmless_twice_and_on_null),
        cmocka_unit_test(the_example_in_the_docs_replays),
        cmocka_unit_test(the_drawing_shows_cards_ship_and_table),
        cmocka_unit_test(the_drawing_marks_enclosed_areas_with_their_keeper),
        cmocka_unit_test(the_commands_match_their_golden_transcripts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
