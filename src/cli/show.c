/* show.c: kontor show: the board of a game record as text, after any round.
 *
 * The record is replayed twice: once to find the last decision of the round
 * asked for (a round's length is known only to the rules: takes-backs and
 * ship moves vary it), once up to that decision. Both are cheap, and keeping
 * them apart lets the replay function stay the one checked path.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "kontor/draw.h"
#include "kontor/record.h"

static const char *help =
    "usage: kontor show FILE [--round R] [--cards FILE] [--hands all|red|black|none]\n"
    "\n"
    "Prints the board of a game record (.kgn) as text after round R (default: where\n"
    "the record ends; 0: the deal, before the first round), with coins, treasury,\n"
    "keepers, piles and hands (all hands unless --hands says otherwise). A record\n"
    "with an illegal decision can be shown up to the round before it.\n"
    "The drawing's key is printed below it and in docs/records.md.\n";

typedef struct finder {
    int want;   /* round asked for */
    int round;  /* round of the state before the next decision */
    int upto;   /* decisions that belong to rounds <= want */
    int rounds; /* rounds with a decision in the record */
} finder;

static void each_ply(void *ctx, const kontor_state *s, int ply, const kontor_log *log) {
    finder *f = ctx;
    (void)log;
    f->rounds = f->round;
    if (f->round <= f->want) f->upto = ply + 1;
    f->round = s->round;
}

int cmd_show(int argc, char **argv) {
    const char *file = NULL, *cards_file = NULL;
    uint64_t round = 0;
    int has_round = 0;
    unsigned flags = KONTOR_DRAW_ALL_HANDS;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(help, stdout);
            return 0;
        } else if (strcmp(a, "--round") == 0 || strcmp(a, "--cards") == 0 || strcmp(a, "--hands") == 0) {
            if (i + 1 >= argc) {
                cli_error("show: %s wants a value (try --help)", a);
                return 2;
            }
            const char *v = argv[++i];
            if (strcmp(a, "--round") == 0) {
                if (cli_number(a, v, 10000, &round)) return 2;
                has_round = 1;
            } else if (strcmp(a, "--cards") == 0) {
                cards_file = v;
            } else if (strcmp(v, "all") == 0) {
                flags = KONTOR_DRAW_ALL_HANDS;
            } else if (strcmp(v, "red") == 0) {
                flags = KONTOR_DRAW_HAND(KONTOR_RED);
            } else if (strcmp(v, "black") == 0) {
                flags = KONTOR_DRAW_HAND(KONTOR_BLACK);
            } else if (strcmp(v, "none") == 0) {
                flags = 0;
            } else {
                cli_error("show: --hands wants all, red, black or none, not '%s'", v);
                return 2;
            }
        } else if (a[0] == '-' && a[1] != 0) {
            cli_error("show: '%s' is not an option (try --help)", a);
            return 2;
        } else if (file) {
            cli_error("show: one record at a time ('%s' and '%s')", file, a);
            return 2;
        } else {
            file = a;
        }
    }
    if (!file) {
        cli_error("show: which record? (kontor show FILE, try --help)");
        return 2;
    }

    kontor_record r;
    if (cli_load_record(file, cards_file, &r)) return 1;
    kontor_state *s = malloc(sizeof *s);
    if (!s) {
        kontor_record_release(&r);
        cli_error("out of memory");
        return 1;
    }
    finder f = {has_round ? (int)round : 1 << 30, 1, 0, 0};
    kontor_error err;
    int rc = 0;
    if (kontor_record_replay(&r, -1, s, each_ply, &f, &err)) {
        /* a record that breaks after the round asked for can still be shown
         * up to it: that is how one looks at the moment before a bad move */
        if (!has_round || err.code != KONTOR_E_ILLEGAL || err.round <= (int)round) {
            cli_error("record '%s' %s", file, err.msg);
            rc = 1;
            goto done;
        }
        f.rounds = err.round;
    }
    if (has_round && (int)round > f.rounds) {
        cli_error("record '%s' has %d rounds: there is no round %d to show", file, f.rounds, (int)round);
        rc = 1;
        goto done;
    }
    if (has_round && kontor_record_replay(&r, f.upto, s, NULL, NULL, &err)) {
        cli_error("record '%s' %s", file, err.msg); /* cannot happen: the whole record replayed */
        rc = 1;
        goto done;
    }
    if (has_round && round == 0) printf("record '%s': the deal, before round 1\n", file);
    else printf("record '%s': after round %d of %d\n", file, has_round ? (int)round : f.rounds, f.rounds);
    char board[8192];
    size_t n = kontor_draw_board(s, board, sizeof board, flags);
    fputs(board, stdout);
    if (n >= sizeof board) printf("...\n");
done:
    free(s);
    kontor_record_release(&r);
    return rc;
}
