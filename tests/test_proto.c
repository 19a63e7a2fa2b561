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
#include <time.h>
#include <unistd.h>

#include "kontor/match.h"
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
            if ((want.s.phase == KONTOR_PHASE_CHOOSE || want.s.phase == KONTOR_PHASE_DECLARE) &&
                want.s.choice[q] == KONTOR_HIDDEN)
                want.s.choice[q] = KONTOR_NONE;
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
    if (strcmp(spec, "random") != 0 && !quitter) {
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

/* newgame for seat, then the deal's events of its view through emit */
static void deal_events_to(kontor_engine *e, const kontor_state *s, int seat, int tops[3], proto_emit_fn emit,
                           void *ctx) {
    char line[256], opts[200];
    kontor_config_describe(s->cfg, opts, sizeof opts);
    snprintf(line, sizeof line, "newgame %s %s %s", kontor_variant_name(s->cfg->variant), kontor_seat_name(s, seat), opts);
    assert_string_equal(say(e, line), "=\n\n");
    kontor_view v;
    kontor_view_of(s, seat, &v);
    assert_int_equal(proto_deal_events(&v, tops, emit, ctx), 0);
}

static void start_game(kontor_engine *e, const kontor_state *s, int seat, int tops[3]) {
    deal_events_to(e, s, seat, tops, emit_ok, e);
}

/* The game of variant (with options, if any) dealt from seed. */
static kontor_state deal(const char *variant, const char *options, uint64_t seed) {
    kontor_config cfg;
    kontor_error err;
    kontor_state s;
    assert_int_equal(kontor_config_init(&cfg, variant, &err), KONTOR_OK);
    if (options) assert_int_equal(kontor_config_options(&cfg, options, &err), KONTOR_OK);
    assert_int_equal(kontor_new(&s, &cfg, seed, &err), KONTOR_OK);
    return s;
}

/* An in-process engine of factory's "random" player, seeded 1 (the caller frees it). */
static kontor_engine *random_engine(kontor_engine_factory factory) {
    kontor_error err;
    kontor_engine *e = kontor_engine_new(factory, "random", 1, &err);
    assert_non_null(e);
    return e;
}

/* Play one game between two in-process engines; returns the rounds. */
static int play_in_process(const char *variant, const char *options, uint64_t seed) {
    kontor_error err;
    kontor_state s = deal(variant, options, seed);
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
        const char *r =
            say(e[seat], s.phase == KONTOR_PHASE_CHOOSE || s.phase == KONTOR_PHASE_DECLARE ? "genchoice" : "genplace");
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

/* A bot driver sends newgame again and again, each game under options of
 * its own: every game deals, and the engine holds only its current game's
 * config (know.c: from the deal to the next newgame; src/core/intern.c),
 * so the process's table of configs does not fill however many games it
 * sees. Its views still equal the truth's byte for byte, the config's
 * pointer included (the engine's held entry is the truth's). */
static void test_engine_deals_any_number_of_newgames_of_distinct_options(void **state) {
    (void)state;
    kontor_error err;
    kontor_engine *e = random_engine(test_factory);
    size_t base = kontor_configs_interned();
    g_views_checked = 0;
    for (int i = 0; i < 5000; i++) {
        kontor_config cfg;
        char opts[32];
        snprintf(opts, sizeof opts, "max_rounds=%d", 20 + i);
        assert_int_equal(kontor_config_init(&cfg, i % 3 ? "basic" : "advanced", &err), KONTOR_OK);
        assert_int_equal(kontor_config_options(&cfg, opts, &err), KONTOR_OK);
        const kontor_config *held = kontor_config_retain(&cfg, &err); /* the referee holds its game's */
        assert_non_null(held);
        kontor_state s;
        assert_int_equal(kontor_new(&s, held, (uint64_t)i, &err), KONTOR_OK);
        int tops[3];
        start_game(e, &s, i % 2, tops);
        g_truth = &s;
        const char *r = say(e, "genchoice"); /* the engine deals; its agent's view is checked */
        g_truth = NULL;
        if (r[0] != '=') fprintf(stderr, "game %d: %s", i, r);
        assert_int_equal(r[0], '=');
        /* the truth's and the engine's are one entry; the last game's went at newgame */
        assert_true(kontor_configs_interned() <= base + 1);
        kontor_config_release(held);
    }
    assert_int_equal(g_views_checked, 5000);
    kontor_engine_free(e);
    assert_int_equal(kontor_configs_interned(), base);
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


/* ---- the engine end, in-process: what golden transcripts cannot reach ------ */

/* Finding 4 of issue 13: `setoption level cmd:/bin/sh` made the engine start
 * a program named in the stream. The factory is asked for no cmd: spec. */
static int asked_for_a_program;
static kontor_agent *spy_factory(const char *spec, uint64_t seed, kontor_error *err) {
    if (strncmp(spec, "cmd:", 4) == 0) asked_for_a_program = 1;
    return test_factory(spec, seed, err);
}

static void test_engine_runs_no_program_named_in_the_stream(void **state) {
    (void)state;
    kontor_engine *e = random_engine(spy_factory);
    asked_for_a_program = 0;
    const char *r = say(e, "5 setoption level cmd:/bin/sh");
    assert_true(strncmp(r, "?5 bad option: level 'cmd:...' is refused", 41) == 0);
    assert_false(asked_for_a_program);
    /* the old player stays */
    assert_string_equal(say(e, "6 setoption level random"), "=6\n\n");
    kontor_engine_free(e);
}

/* A hand at the deal with a card of the other colour is refused with the
 * seat's name, before any game is dealt (the state's config is still NULL:
 * the name comes from the engine's own config). The fuzzer found the name
 * read through the undealt state's config pointer (a crash) once the
 * config left the state (issue 17). */
typedef struct bad_hand_ctx {
    kontor_engine *e;
    int wrong;       /* a black dock card's number */
    int refused;     /* a reply naming red's hand came back */
} bad_hand_ctx;

static int emit_bad_hand(void *ctx, const char *ev) {
    bad_hand_ctx *c = ctx;
    char line[300];
    if (strncmp(ev, "hand ", 5) == 0) {
        const char *rest = strchr(ev + 5, ' '); /* the first card replaced by the wrong one */
        snprintf(line, sizeof line, "observe hand %d%s", c->wrong, rest ? rest : "");
    } else {
        snprintf(line, sizeof line, "observe %s", ev);
    }
    const char *r = say(c->e, line);
    if (r[0] == '?' && strstr(r, "cannot be in red's hand")) c->refused = 1;
    return 0;
}

static void test_protocol_a_hand_of_the_wrong_colour_is_refused_by_seat_name_before_the_deal(void **state) {
    (void)state;
    kontor_engine *e = random_engine(test_factory);
    kontor_state s = deal("basic", NULL, 3);
    bad_hand_ctx c = {e, -1, 0};
    const kontor_cardset *cs = s.cfg->cards;
    for (int id = 0; id < cs->ncards && c.wrong < 0; id++)
        if (kontor_card_class(&cs->card[id]) == 1) c.wrong = cs->card[id].number;
    assert_true(c.wrong >= 0);
    int tops[3];
    deal_events_to(e, &s, 0, tops, emit_bad_hand, &c);
    const char *r = say(e, "7 genchoice"); /* the deal is checked when play begins */
    if (r[0] == '?' && strstr(r, "cannot be in red's hand")) c.refused = 1;
    assert_true(c.refused);
    kontor_engine_free(e);
}

static void test_engine_failure_token(void **state) {
    (void)state;
    kontor_engine *e = random_engine(test_factory);
    kontor_state s = deal("basic", NULL, 3);
    int tops[3];
    start_game(e, &s, 0, tops);
    /* the level changes the player; a player that fails is an engine failure */
    assert_string_equal(say(e, "5 setoption level quitter"), "=5\n\n");
    assert_string_equal(say(e, "6 genchoice"), "?6 engine failure: agent 'quitter' always gives up\n\n");
    assert_string_equal(say(e, "7 setoption level random"), "=7\n\n");
    assert_int_equal(say(e, "8 genchoice")[0], '=');
    /* a bad level keeps the old player */
    assert_true(strncmp(say(e, "9 setoption level nobody"), "?9 bad option: unknown agent 'nobody'", 37) == 0);
    assert_int_equal(say(e, "10 genchoice")[0], '=');
    /* a board past the narrow board's window is a bad option at newgame
     * (docs/rules.md R5), not a failure at the deal's events */
    assert_string_equal(say(e, "11 newgame kleinen red width=8,height=8"),
                        "?11 bad option: a 8x8 board from the centre alone reaches 15x15 cells, more than the 128 a "
                        "game's board holds; make width or height smaller\n\n");
    assert_string_equal(say(e, "12 newgame kleinen red width=6,height=6"), "=12\n\n");
    /* a reply too big for the caller's buffer is cut at a line end and
     * still ends with the blank line */
    char small[64];
    size_t n;
    kontor_engine_handle(e, "11 showboard", 12, small, sizeof small, &n);
    assert_true(n >= 2 && n < sizeof small);
    assert_string_equal(small + n - 2, "\n\n");
    assert_null(strstr(small, "\n\n\n"));
    assert_int_equal(kontor_engine_handle(e, "12 quit", 7, small, sizeof small, &n), 1);
    kontor_engine_free(e);
    kontor_engine_free(NULL);
}

/* ---- golden transcripts: tests/proto/NAME.in -> NAME.out ------------------------- */

static const char *kontor_bin(void) {
    const char *k = getenv("KONTOR");
    return k && *k ? k : "build/kontor";
}

static char *slurp(FILE *f, size_t *len) {
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    size_t got;
    while ((got = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) b = realloc(b, cap *= 2);
    }
    b[n] = 0;
    *len = n;
    return b;
}

static void test_golden_transcripts(void **state) {
    (void)state;
    static const char *const names[] = {"handshake", "game", "garbage"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char cmd[512], path[256];
        snprintf(cmd, sizeof cmd, "%s engine --agent random --seed 1 < tests/proto/%s.in", kontor_bin(), names[i]);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        size_t n, m;
        char *got = slurp(p, &n);
        assert_int_equal(pclose(p), 0);
        snprintf(path, sizeof path, "tests/proto/%s.out", names[i]);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        char *want = slurp(f, &m);
        fclose(f);
        if (n != m || memcmp(got, want, n) != 0) {
            size_t k = 0, line = 1;
            while (k < n && k < m && got[k] == want[k]) line += got[k++] == '\n';
            fprintf(stderr, "tests/proto/%s.out: differs at line %zu (rerun tests/proto/update.sh if meant)\n",
                    names[i], line);
        }
        assert_int_equal(n, m);
        assert_memory_equal(got, want, n);
        free(got);
        free(want);
    }
}

/* ---- external engines over pipes ---------------------------------------------- */

static int reaped(long pid) {
    /* our child is gone for good: waitpid knows it no more */
    return waitpid((pid_t)pid, NULL, WNOHANG) == -1 && errno == ECHILD;
}

/* R1 in protocol 2: while the seats declare, genchoice answers pass or play;
 * a card number counts as play, so that an engine of version 1, which only
 * knows choosing, can still declare; then the card is a second genchoice. */
static void test_a_declaration_is_pass_play_or_a_card(void **state) {
    (void)state;
    kontor_state s = deal("basic", NULL, 3);
    kontor_move m;
    assert_int_equal(s.phase, KONTOR_PHASE_DECLARE);
    assert_int_equal(proto_parse_answer(&s, "pass", &m), 0);
    assert_int_equal(m, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PASS));
    assert_int_equal(proto_parse_answer(&s, "play", &m), 0);
    assert_int_equal(m, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY));
    char num[8];
    snprintf(num, sizeof num, "%d", s.cfg->cards->card[s.hand[0][0]].number);
    assert_int_equal(proto_parse_answer(&s, num, &m), 0);
    assert_int_equal(m, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY));
    assert_int_equal(proto_parse_answer(&s, "ship -", &m), -1);
    assert_int_equal(proto_parse_answer(&s, "999", &m), -1);
    assert_int_equal(kontor_apply(&s, 0, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY), NULL), KONTOR_OK);
    assert_int_equal(kontor_apply(&s, 1, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PASS), NULL), KONTOR_OK);
    /* the card, once declared: "play" is no card */
    assert_int_equal(proto_parse_answer(&s, num, &m), 0);
    assert_int_equal(m, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, s.hand[0][0]));
    assert_int_equal(proto_parse_answer(&s, "play", &m), -1);
}

/* An arena in small: our agent against the Python example bot, both seats,
 * both variants. Every game must end by the rules, none by failure. */
static void test_example_bot_plays_whole_games(void **state) {
    (void)state;
    kontor_error err;
    kontor_agent *bot = kontor_external_agent_new("./examples/randombot.py --seed 3", 30000, &err);
    if (!bot) fprintf(stderr, "%s\n", err.msg);
    assert_non_null(bot);
    kontor_agent *ours = kontor_agent_new("greedy", 1, &err);
    assert_non_null(ours);
    static const char *const setups[][2] = {
        {"basic", NULL}, {"advanced", NULL}, {"advanced", "optional_place=1,pass=rest,declare=hidden"}, {"basic", "ship=1"}};
    for (int g = 0; g < 4; g++) {
        kontor_state s = deal(setups[g][0], setups[g][1], 40 + (uint64_t)g);
        kontor_agent *agents[2] = {g & 1 ? ours : bot, g & 1 ? bot : ours};
        kontor_match_result res;
        assert_int_equal(kontor_match_play(&s, agents, NULL, NULL, NULL, &res), KONTOR_OK);
        if (res.forfeit >= 0) fprintf(stderr, "game %d: %s\n", g, res.reason);
        assert_int_equal(res.forfeit, -1);
        assert_true(kontor_over(&s));
        assert_true(res.seat_decisions[g & 1 ? 1 : 0] > 10);
    }
    long pid = kontor_external_agent_pid(bot);
    assert_true(pid > 0);
    kontor_agent_free(bot);
    assert_true(reaped(pid));
    kontor_agent_free(ours);
}

/* kontor engine behind the controller: both ends of the protocol are ours. */
static void test_kontor_engine_as_external_agent(void **state) {
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "%s engine --agent greedy --seed 5", kontor_bin());
    kontor_error err;
    kontor_agent *ext = kontor_external_agent_new(cmd, 30000, &err);
    assert_non_null(ext);
    kontor_agent *ours = kontor_agent_new("random", 2, &err);
    for (int g = 0; g < 2; g++) {
        kontor_state s = deal(g ? "advanced" : "basic", NULL, 7 + (uint64_t)g);
        kontor_agent *agents[2] = {ext, ours};
        kontor_match_result res;
        kontor_match_play(&s, agents, NULL, NULL, NULL, &res);
        if (res.forfeit >= 0) fprintf(stderr, "%s\n", res.reason);
        assert_int_equal(res.forfeit, -1);
        assert_true(kontor_over(&s));
    }
    kontor_agent_free(ext);
    kontor_agent_free(ours);
}

typedef struct killer {
    kontor_agent *victim;
    int after, seen;
    long pid;
} killer;

static void kill_after(void *ctx, const kontor_state *s, int seat, kontor_move m, const kontor_log *log) {
    (void)s, (void)seat, (void)m, (void)log;
    killer *k = ctx;
    if (++k->seen == k->after) {
        k->pid = kontor_external_agent_pid(k->victim);
        kill((pid_t)k->pid, SIGKILL);
    }
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* An engine killed mid-game loses that game with the reason, is reaped, and
 * the agent starts a fresh engine for the next game. */
static void test_engine_killed_mid_game(void **state) {
    (void)state;
    kontor_error err;
    kontor_agent *bot = kontor_external_agent_new("./examples/randombot.py", 30000, &err);
    assert_non_null(bot);
    kontor_agent *ours = kontor_agent_new("random", 1, &err);
    kontor_state s = deal("basic", NULL, 11);
    kontor_agent *agents[2] = {ours, bot};
    killer k = {bot, 12, 0, -1};
    kontor_match_result res;
    double t0 = now_s();
    kontor_match_play(&s, agents, NULL, kill_after, &k, &res);
    assert_true(now_s() - t0 < 3.0);
    assert_true(k.pid > 0);
    assert_int_equal(res.forfeit, 1);
    assert_int_equal(res.winner, 0);
    assert_false(kontor_over(&s));
    assert_non_null(strstr(res.reason, "was killed by signal 9"));
    assert_true(reaped(k.pid));
    assert_int_equal(kontor_external_agent_pid(bot), -1);
    /* the next game: a new process, a whole game */
    s = deal("basic", NULL, 12);
    kontor_match_play(&s, agents, NULL, NULL, NULL, &res);
    assert_int_equal(res.forfeit, -1);
    assert_true(kontor_over(&s));
    assert_true(kontor_external_agent_pid(bot) > 0);
    assert_true(kontor_external_agent_pid(bot) != k.pid);
    kontor_agent_free(bot);
    kontor_agent_free(ours);
}

/* An engine that stops answering loses after the timeout, not later. */
static void test_engine_hangs(void **state) {
    (void)state;
    kontor_error err;
    /* answers the handshake, then sleeps */
    kontor_agent *slow =
        kontor_external_agent_new("sh -c 'read l; printf \"=1 1\\n\\n\"; exec sleep 30'", 300, &err);
    if (!slow) fprintf(stderr, "%s\n", err.msg);
    assert_non_null(slow);
    long pid = kontor_external_agent_pid(slow);
    kontor_agent *ours = kontor_agent_new("random", 1, &err);
    kontor_state s = deal("basic", NULL, 1);
    kontor_agent *agents[2] = {slow, ours};
    kontor_match_result res;
    double t0 = now_s();
    kontor_match_play(&s, agents, NULL, NULL, NULL, &res);
    double took = now_s() - t0;
    assert_true(took >= 0.25 && took < 10.0); /* well under the engine's 30 s sleep; a loaded machine is slow */
    assert_int_equal(res.forfeit, 0);
    assert_non_null(strstr(res.reason, "did not answer 'newgame basic red' within 300 ms"));
    assert_true(reaped(pid));
    kontor_agent_free(slow);
    kontor_agent_free(ours);
}

/* An engine that answers nonsense or an illegal move loses with the reason. */
static void test_engine_answers_illegally(void **state) {
    (void)state;
    kontor_error err;
    /* says "1" to everything: protocol version 1, and card 1 (red's) */
    kontor_agent *liar = kontor_external_agent_new(
        "sh -c 'while read id rest; do printf \"=%s 1\\n\\n\" \"$id\"; done'", 2000, &err);
    assert_non_null(liar);
    kontor_agent *ours = kontor_agent_new("random", 1, &err);
    kontor_state s = deal("basic", NULL, 2);
    kontor_agent *agents[2] = {ours, liar};
    kontor_match_result res;
    kontor_match_play(&s, agents, NULL, NULL, NULL, &res);
    assert_int_equal(res.forfeit, 1);
    assert_non_null(strstr(res.reason, "answered 'genchoice' with '1', an illegal move: card 1 is not in black's hand"));
    kontor_agent_free(liar);
    /* an engine whose replies are not replies fails the handshake */
    assert_null(kontor_external_agent_new("sh -c 'while read l; do printf \"hello\\n\\n\"; done'", 2000, &err));
    assert_non_null(strstr(err.msg, "answered 'protocol_version' with 'hello'"));
    /* an engine that answers with an error token loses with it */
    kontor_agent *grump = kontor_external_agent_new(
        "sh -c 'read l; printf \"=1 1\\n\\n\"; while read id rest; do printf \"?%s engine failure: no\\n\\n\" \"$id\"; done'",
        2000, &err);
    assert_non_null(grump);
    s = deal("basic", NULL, 2);
    agents[1] = grump;
    kontor_match_play(&s, agents, NULL, NULL, NULL, &res);
    assert_int_equal(res.forfeit, 1);
    assert_non_null(strstr(res.reason, "refused 'newgame basic black': engine failure: no"));
    kontor_agent_free(grump);
    kontor_agent_free(ours);
}

static void test_engine_does_not_start(void **state) {
    (void)state;
    kontor_error err;
    assert_null(kontor_external_agent_new("/nonexistent/kontor-bot 2>/dev/null", 2000, &err));
    assert_non_null(strstr(err.msg, "exited with status 127 during 'protocol_version'"));
    assert_null(kontor_external_agent_new("", 2000, &err));
    assert_non_null(strstr(err.msg, "the command line is empty"));
    /* a wrong protocol version */
    assert_null(kontor_external_agent_new("sh -c 'read l; printf \"=1 3\\n\\n\"; read l'", 2000, &err));
    assert_non_null(strstr(err.msg, "speaks protocol version '3', kontor speaks 1 and 2"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_command_parse),
        cmocka_unit_test(test_engine_views_match_truth),
        cmocka_unit_test(test_engine_deals_any_number_of_newgames_of_distinct_options),
        cmocka_unit_test(test_engine_failure_token),
        cmocka_unit_test(test_engine_runs_no_program_named_in_the_stream),
        cmocka_unit_test(test_protocol_a_hand_of_the_wrong_colour_is_refused_by_seat_name_before_the_deal),
        cmocka_unit_test(test_golden_transcripts),
        cmocka_unit_test(test_a_declaration_is_pass_play_or_a_card),
        cmocka_unit_test(test_example_bot_plays_whole_games),
        cmocka_unit_test(test_kontor_engine_as_external_agent),
        cmocka_unit_test(test_engine_killed_mid_game),
        cmocka_unit_test(test_engine_hangs),
        cmocka_unit_test(test_engine_answers_illegally),
        cmocka_unit_test(test_engine_does_not_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
