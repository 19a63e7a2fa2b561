/* test_proto.c: the engine protocol: command lines, every command and error
 * token of the engine end, the engine's rebuilt game against the truth,
 * external engines over pipes (the example bot, a crashing, a hanging and a
 * lying engine), and the golden transcripts in tests/proto/.
 *
 * The central test is test_engine_views_match_truth: two engines play whole
 * games against each other in-process, told only what the protocol tells, and
 * at every decision the view each engine hands its agent must be byte for
 * byte the view the true state gives that seat. That one comparison checks
 * the reconstruction (no guess leaks, no fact is lost) and that the events
 * carry no hidden information: the engine can only know what it was told.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kontor/proto.h"
#include "proto/proto_int.h"
#include "testutil.h"

/* ---- a small agent of the test's own: uniform over the legal decisions ------ */

static const kontor_state *g_truth; /* the true game, when a test checks views */
static int g_views_checked;

static kontor_move test_decide(kontor_agent *a, const kontor_view *v) {
    if (g_truth) {
        kontor_view want;
        kontor_view_of(g_truth, v->seat, &want);
        /* The one difference allowed: whether another seat has already made
         * its hidden choice this round. The protocol does not tell it (the
         * choice is simultaneous, and kontor_determinize undoes it anyway). */
        for (int q = 0; q < KONTOR_MAX_SEATS; q++)
            if (want.s.phase == KONTOR_PHASE_CHOOSE && want.s.choice[q] == KONTOR_HIDDEN) want.s.choice[q] = KONTOR_NONE;
        assert_memory_equal(&want, v, sizeof want);
        g_views_checked++;
    }
    kontor_move moves[KONTOR_MAX_MOVES];
    int n = kontor_legal(&v->s, v->seat, moves);
    if (n <= 0) {
        snprintf(a->error, sizeof a->error, "no legal decision");
        return KONTOR_FORFEIT;
    }
    return moves[kontor_rng_below(&a->rng, (uint32_t)n)];
}

static kontor_move forfeit_decide(kontor_agent *a, const kontor_view *v) {
    (void)v;
    snprintf(a->error, sizeof a->error, "agent 'quitter' always gives up");
    return KONTOR_FORFEIT;
}

static kontor_agent *test_factory(const char *spec, uint64_t seed, kontor_error *err) {
    int quitter = strcmp(spec, "quitter") == 0;
    if (strcmp(spec, "random") != 0 && !quitter && strcmp(spec, "random:ms=50") != 0) {
        snprintf(err->msg, sizeof err->msg, "unknown agent '%s'", spec);
        return NULL;
    }
    kontor_agent *a = calloc(1, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", spec);
    a->decide = quitter ? forfeit_decide : test_decide;
    kontor_rng_seed(&a->rng, seed);
    return a;
}

/* ---- talking to an in-process engine ------------------------------------------ */

static char g_reply[1 << 16];

static const char *say(kontor_engine *e, const char *line) {
    size_t n;
    kontor_engine_handle(e, line, strlen(line), g_reply, sizeof g_reply, &n);
    return g_reply;
}

static int emit_ok(void *ctx, const char *ev) {
    char line[300];
    snprintf(line, sizeof line, "observe %s", ev);
    const char *r = say(ctx, line);
    if (r[0] != '=') fprintf(stderr, "engine refused '%s': %s", line, r);
    assert_int_equal(r[0], '=');
    return 0;
}

static void start_game(kontor_engine *e, const kontor_state *s, int seat, int tops[3]) {
    char line[256], opts[200];
    kontor_config_describe(&s->cfg, opts, sizeof opts);
    snprintf(line, sizeof line, "newgame %s %s %s", kontor_variant_name(s->cfg.variant), kontor_seat_name(s, seat), opts);
    assert_string_equal(say(e, line), "=\n\n");
    kontor_view v;
    kontor_view_of(s, seat, &v);
    assert_int_equal(proto_deal_events(&v, tops, emit_ok, e), 0);
}

/* Play one game between two in-process engines; returns the rounds. */
static int play_in_process(const char *variant, const char *options, uint64_t seed) {
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, variant, &err), KONTOR_OK);
    if (options) assert_int_equal(kontor_config_options(&cfg, options, &err), KONTOR_OK);
    kontor_state s;
    assert_int_equal(kontor_new(&s, &cfg, seed, &err), KONTOR_OK);
    kontor_engine *e[2];
    int tops[2][3];
    for (int q = 0; q < 2; q++) {
        e[q] = kontor_engine_new(test_factory, "random", seed * 7 + (uint64_t)q, &err);
        assert_non_null(e[q]);
        start_game(e[q], &s, q, tops[q]);
    }
    g_truth = &s;
    unsigned actors;
    while ((actors = kontor_actors(&s)) != 0) {
        int seat = actors & 1 ? 0 : 1;
        kontor_view prev[2];
        for (int q = 0; q < 2; q++) kontor_view_of(&s, q, &prev[q]);
        const char *r = say(e[seat], s.phase == KONTOR_PHASE_CHOOSE ? "genchoice" : "genplace");
        if (r[0] != '=') fprintf(stderr, "engine: %s", r);
        assert_int_equal(r[0], '=');
        char ans[64];
        snprintf(ans, sizeof ans, "%.*s", (int)strcspn(r + 2, "\n"), r + 2);
        kontor_move m;
        assert_int_equal(proto_parse_answer(&s, ans, &m), 0);
        kontor_log log;
        log.n = 0;
        assert_int_equal(kontor_apply(&s, seat, m, &log), KONTOR_OK);
        for (int q = 0; q < 2; q++) {
            kontor_view v;
            kontor_view_of(&s, q, &v);
            assert_int_equal(proto_decision_events(&prev[q], &v, &log, tops[q], emit_ok, e[q]), 0);
        }
    }
    g_truth = NULL;
    /* after the end both engines agree the game is over */
    for (int q = 0; q < 2; q++) {
        assert_true(strncmp(say(e[q], "genchoice"), "? no game", 9) == 0);
        kontor_engine_free(e[q]);
    }
    return s.round;
}

static void test_engine_views_match_truth(void **state) {
    (void)state;
    g_views_checked = 0;
    int rounds = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) rounds += play_in_process("basic", NULL, seed);
    for (uint64_t seed = 1; seed <= 6; seed++) rounds += play_in_process("advanced", NULL, seed);
    /* the rulings that add decisions and events: declining, free passing,
     * the final draw, the ship in the basic game */
    for (uint64_t seed = 1; seed <= 4; seed++)
        rounds += play_in_process("advanced", "optional_place=1,pass=free,final_draw=1", seed);
    for (uint64_t seed = 1; seed <= 4; seed++) rounds += play_in_process("basic", "ship=1,start_coins=0", seed);
    assert_true(rounds > 20 * 10);
    assert_true(g_views_checked > 20 * 20);
}

/* ---- the command line -------------------------------------------------------------- */

static void test_command_parse(void **state) {
    (void)state;
    static kontor_command c;
    const char *l = "12 observe\tplace  red 31 +1,-2 # comment";
    assert_int_equal(kontor_command_parse(&c, l, strlen(l)), KONTOR_PE_OK);
    assert_string_equal(c.id, "12");
    assert_string_equal(c.name, "observe");
    assert_int_equal(c.argc, 4);
    assert_string_equal(c.argv[3], "+1,-2");
    l = "name\r";
    assert_int_equal(kontor_command_parse(&c, l, strlen(l)), KONTOR_PE_OK);
    assert_string_equal(c.id, "");
    assert_string_equal(c.name, "name");
    /* control bytes vanish, NUL included */
    const char bin[] = {'n', 0, 'a', 1, 'm', 27, 'e'};
    assert_int_equal(kontor_command_parse(&c, bin, sizeof bin), KONTOR_PE_OK);
    assert_string_equal(c.name, "name");
    l = "   # only a comment";
    assert_int_equal(kontor_command_parse(&c, l, strlen(l)), KONTOR_PE_OK);
    assert_null(c.name);
    l = "7a name"; /* not an id: a command called 7a */
    assert_int_equal(kontor_command_parse(&c, l, strlen(l)), KONTOR_PE_OK);
    assert_string_equal(c.id, "");
    assert_string_equal(c.name, "7a");
    l = "123456789012345678901234567890 name";
    assert_int_equal(kontor_command_parse(&c, l, strlen(l)), KONTOR_PE_SYNTAX);
    char many[1024] = "x";
    for (int i = 0; i < 80; i++) strcat(many, " a");
    assert_int_equal(kontor_command_parse(&c, many, strlen(many)), KONTOR_PE_SYNTAX);
    char *big = malloc(KONTOR_PROTO_LINE_MAX + 10);
    memset(big, 'a', KONTOR_PROTO_LINE_MAX + 10);
    memcpy(big, "99 name ", 8);
    assert_int_equal(kontor_command_parse(&c, big, KONTOR_PROTO_LINE_MAX + 10), KONTOR_PE_LINE_TOO_LONG);
    assert_string_equal(c.id, "99");
    free(big);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_command_parse),
        cmocka_unit_test(test_engine_views_match_truth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
