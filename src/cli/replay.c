/* replay.c: kontor replay: check game records move by move, print where they end.
 *
 * Each record is parsed (kontor_record_parse_with, against the card set of
 * --cards or the built-in one) and replayed through the engine, which checks
 * every decision; the first bad line or illegal decision stops that record
 * with a message naming the file and the line or round. The Result tag must
 * agree with the replayed game (a record cut short by a forfeit says so in a
 * Termination tag). --trace prints one line of facts after every round, in
 * the format docs/records.md specifies, so that another implementation of
 * the rules can be compared with kontor round by round. This file also holds
 * the record loading that `kontor show` shares (cli_load_record).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "kontor/draw.h"
#include "kontor/record.h"

static const char *help =
    "usage: kontor replay FILE... [--trace] [--cards FILE] [--quiet]\n"
    "\n"
    "Replays each game record (.kgn, see docs/records.md) decision by decision\n"
    "and checks every one against the rules. On a bad line or an illegal\n"
    "decision it names the file and the line or round and the reason, and the\n"
    "exit status is 1. Otherwise it prints a summary line, then the final board\n"
    "and the result; the record's Result tag must agree with the replay.\n"
    "\n"
    "  --trace        after every round print one line of facts:\n"
    "                 round R coins C C treasury T keepers K K [area W CELL...]...\n"
    "  --cards FILE   read card numbers with this card set (for records whose\n"
    "                 Cards tag names another set than the built-in one)\n"
    "  --quiet        print only the summary line of each record\n";

int cli_load_record(const char *path, const char *cards_file, kontor_record *r) {
    const kontor_cardset *cs = NULL;
    kontor_error err;
    if (cards_file && !(cs = cli_cards(cards_file))) return 1;
    char *text;
    size_t len;
    if (cli_read_file(path, &text, &len)) {
        cli_error("cannot read record '%s': %s", path, strerror(errno));
        return 1;
    }
    kontor_status st = kontor_record_parse_with(r, cs, text, len, &err);
    free(text);
    if (st) {
        cli_error("record '%s' %s", path, err.msg);
        return 1;
    }
    return 0;
}

const char *cli_result_of(const kontor_state *s) {
    if (!kontor_over(s)) return "*";
    return s->winner == 0 ? "1-0" : s->winner == 1 ? "0-1" : "1/2-1/2";
}

/* ---- the trace ---------------------------------------------------------------- */

typedef struct trace {
    FILE *f;
    int on;         /* print lines */
    int round;      /* round of the state before the next decision */
    int rounds;     /* rounds that have a decision in the record */
    char areas[2048];
    size_t nareas;
} trace;

/* (not inlined: each_ply runs for every decision of every record, and with
 * this inside it saves and restores every register each time) */
__attribute__((noinline)) static void trace_areas(trace *t, const kontor_state *s, const kontor_log *log) {
    static const char *const w[2] = {"red", "black"};
    for (int i = 0; i < log->n; i++) {
        const kontor_event *e = &log->ev[i];
        if (e->kind != KONTOR_EV_SCORE || e->a >= s->nareas) continue;
        const kontor_area *a = &s->area[e->a];
        kontor_bb cells;
        kontor_area_at(s, a->cell, &cells, NULL);
        int n = snprintf(t->areas + t->nareas, sizeof t->areas - t->nareas, " area %s",
                         a->keeper && a->winner < 2 ? w[a->winner] : "none");
        if (n > 0 && (size_t)n < sizeof t->areas - t->nareas) t->nareas += (size_t)n;
        for (int c = 0; c < KONTOR_CELLS; c++)
            if (kontor_bb_has(&cells, c)) {
                char cs[8];
                n = snprintf(t->areas + t->nareas, sizeof t->areas - t->nareas, " %s", kontor_format_cell(c, cs));
                if (n > 0 && (size_t)n < sizeof t->areas - t->nareas) t->nareas += (size_t)n;
            }
    }
}

static void each_ply(void *ctx, const kontor_state *s, int ply, const kontor_log *log) {
    trace *t = ctx;
    (void)ply;
    t->rounds = t->round;
    if (t->on) trace_areas(t, s, log);
    if (s->round != t->round || kontor_over(s)) {
        if (t->on)
            fprintf(t->f, "round %d coins %d %d treasury %d keepers %d %d%s\n", t->round, s->coins[0], s->coins[1],
                    s->treasury, s->keepers[0], s->keepers[1], t->areas);
        t->areas[0] = 0;
        t->nareas = 0;
        t->round = s->round;
    }
}

/* "record 'PATH': N rounds, result R[ (TERMINATION)]" and a newline, put
 * together by hand and written at once: printf's format machinery cost more
 * than a thousand instructions a record of `kontor replay --quiet`. */
static void summary_line(const char *path, int rounds, const char *result, const char *termination) {
    char line[512], num[16];
    size_t np = strlen(path), nr = strlen(result), nt = strlen(termination), nn = 0;
    unsigned v = rounds < 0 ? 0u - (unsigned)rounds : (unsigned)rounds;
    do num[sizeof num - 1 - nn++] = (char)('0' + v % 10); while ((v /= 10) && nn < sizeof num - 1);
    if (rounds < 0) num[sizeof num - 1 - nn++] = '-';
    if (np + nr + nt + nn + 40 > sizeof line) {
        printf("record '%s': %d rounds, result %s", path, rounds, result);
        if (termination[0]) printf(" (%s)", termination);
        printf("\n");
        return;
    }
    size_t n = 0;
#define PUT(s, len) (memcpy(line + n, (s), (len)), n += (len))
    PUT("record '", 8);
    PUT(path, np);
    PUT("': ", 3);
    PUT(num + sizeof num - nn, nn);
    PUT(" rounds, result ", 16);
    PUT(result, nr);
    if (nt) {
        PUT(" (", 2);
        PUT(termination, nt);
        PUT(")", 1);
    }
    PUT("\n", 1);
#undef PUT
    fwrite(line, 1, n, stdout);
}

/* ---- the command ---------------------------------------------------------------- */

/* s and t: the caller's, reused from record to record (a replay of many
 * records allocates them once; t's area text is not cleared beyond its
 * first byte). */
static int replay_one(const char *path, const char *cards_file, int do_trace, int quiet, kontor_state *s, trace *t) {
    kontor_record r;
    if (cli_load_record(path, cards_file, &r)) return 1;
    t->f = stdout;
    t->on = do_trace;
    t->round = 1;
    t->rounds = 0;
    t->areas[0] = 0;
    t->nareas = 0;
    kontor_error err;
    int rc = 0;
    /* without --trace no call a decision: the engine then keeps no events,
     * and the number of rounds comes from the replay itself */
    kontor_status st = do_trace ? kontor_record_replay(&r, -1, s, each_ply, t, &err)
                                : kontor_record_replay_rounds(&r, s, &t->rounds, &err);
    if (st) {
        fflush(stdout);
        cli_error("record '%s' %s", path, err.msg);
        rc = 1;
        goto done;
    }
    const char *got = cli_result_of(s);
    if (strcmp(got, r.result) != 0 && !(strcmp(got, "*") == 0 && r.termination[0])) {
        fflush(stdout);
        if (kontor_over(s))
            cli_error("record '%s': the Result tag says '%s', but the replayed game ends %s", path, r.result, got);
        else
            cli_error("record '%s': the Result tag says '%s', but the game is not over after round %d and no "
                      "Termination tag says why", path, r.result, t->rounds);
        rc = 1;
        goto done;
    }
    summary_line(path, t->rounds, r.result, r.termination);
    if (!quiet) {
        char board[8192];
        size_t n = kontor_draw_board(s, board, sizeof board, KONTOR_DRAW_ALL_HANDS);
        fputs(board, stdout);
        if (n >= sizeof board) printf("...\n");
    }
done:
    kontor_record_release(&r);
    return rc;
}

int cmd_replay(int argc, char **argv) {
    const char *cards_file = NULL;
    int do_trace = 0, quiet = 0, nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(help, stdout);
            return 0;
        } else if (strcmp(a, "--trace") == 0) {
            do_trace = 1;
        } else if (strcmp(a, "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(a, "--cards") == 0) {
            if (i + 1 >= argc) {
                cli_error("replay: --cards wants a card file");
                return 2;
            }
            cards_file = argv[++i];
        } else if (a[0] == '-' && a[1] != 0) {
            cli_error("replay: '%s' is not an option (try --help)", a);
            return 2;
        } else {
            nfiles++;
        }
    }
    if (!nfiles) {
        cli_error("replay: which record? (kontor replay FILE..., try --help)");
        return 2;
    }
    kontor_state *s = malloc(sizeof *s);
    trace *t = malloc(sizeof *t);
    if (!s || !t) {
        free(s);
        free(t);
        cli_error("out of memory");
        return 1;
    }
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--cards") == 0) {
            i++;
            continue;
        }
        if (a[0] == '-' && a[1] != 0) continue;
        if (replay_one(a, cards_file, do_trace, quiet, s, t)) rc = 1;
        fflush(stdout);
    }
    free(s);
    free(t);
    return rc;
}
