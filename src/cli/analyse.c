/* analyse.c: kontor analyse FILE: the post-game analysis of a record, for
 * people (text) or programs (--json).
 *
 * Every decision that had a choice is searched from the deciding seat's view
 * (src/ai/analysis.c): what the search recommends, how much the decision
 * played lost in expected result, and at each reveal the mixed strategy the
 * search found beside the card played; then per player the average loss, the
 * biggest mistakes and the loss round by round. The search sees only what the
 * seat could see in the game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/analysis.h"
#include "cli/cli.h"
#include "kontor/record.h"

static const char *help =
    "usage: kontor analyse FILE [--agent SPEC] [--seed S] [--forced N] [--json] [--worst K]\n"
    "\n"
    "Analyses every decision of the game record FILE (\"-\" for stdin) that had a\n"
    "choice: the agent (default ismcts:iters=3000) searches the deciding side's view\n"
    "and the decision played is compared with its first choice. The loss is the\n"
    "difference in expected result (0..1, 1 = a sure win) between them; where the\n"
    "search visited the decision played fewer than 10 times, both are re-searched\n"
    "forced at the root with N iterations each (--forced, default the agent's\n"
    "iters=, else 3000), and marked \"re-searched\". At each\n"
    "simultaneous choice (declaration, card) the search's mixed strategy (its visit\n"
    "shares) is shown beside the card played. Ends with a summary per player: the\n"
    "average loss, the K biggest mistakes (default 3) and the loss per round.\n"
    "--json prints the same as one JSON object (docs/ai.md, \"Analysis\").\n";

static int simultaneous_phase(int p) {
    return p == KONTOR_PHASE_CHOOSE || p == KONTOR_PHASE_DECLARE || p == KONTOR_PHASE_BUY ||
           p == KONTOR_PHASE_BRIBE || p == KONTOR_PHASE_SELECT;
}

static void json_str(const char *t) {
    putchar('"');
    for (; *t; t++) {
        if (*t == '"' || *t == '\\') printf("\\%c", *t);
        else if ((unsigned char)*t < 0x20) printf("\\u%04x", *t);
        else putchar(*t);
    }
    putchar('"');
}

static const char *mtext(const kontor_state *s, int seat, kontor_move m, char *buf, size_t cap) {
    return kontor_move_text(s, seat, m, buf, cap);
}

static void print_text(const ai_analysis *an, int worst) {
    char b1[64], b2[64];
    for (int i = 0; i < an->n; i++) {
        const ai_decision *d = &an->item[i];
        const kontor_state *s = &d->state;
        printf("%4d  round %2d  %-6s %-22s", d->ply + 1, d->round, kontor_seat_name(s, d->seat),
               mtext(s, d->seat, d->played, b1, sizeof b1));
        if (d->played != d->best) { /* (a loss of 0 when the re-search found the two equal) */
            printf(" loss %5.1f%%  (best %s: %.1f%% against %.1f%%)", 100 * d->loss,
                   mtext(s, d->seat, d->best, b2, sizeof b2), 100 * d->best_value, 100 * d->played_value);
        } else {
            printf(" best        (%.1f%%)", 100 * d->best_value);
        }
        if (d->researched) printf(" re-searched");
        if (simultaneous_phase(d->phase)) {
            printf("\n      mixed strategy:");
            for (int k = 0; k < d->nchoice; k++)
                printf(" %s %.0f%%", mtext(s, d->seat, d->choice[k].move, b2, sizeof b2), 100 * d->share[k]);
        }
        putchar('\n');
    }
    printf("\nsummary\n");
    for (int seat = 0; seat < an->nseats; seat++) {
        int n = 0, maxround = 0;
        double sum = 0, perround[256] = {0};
        for (int i = 0; i < an->n; i++)
            if (an->item[i].seat == seat) {
                n++;
                sum += an->item[i].loss;
                int r = an->item[i].round & 255;
                perround[r] += an->item[i].loss;
                if (r > maxround) maxround = r;
            }
        printf("%s: %d decisions, average loss %.2f%%, total %.1f%%\n", kontor_seat_name(&an->final, seat), n,
               n ? 100 * sum / n : 0, 100 * sum);
        int idx[16];
        int nw = ai_analysis_worst(an, seat, worst, idx);
        for (int k = 0; k < nw; k++) {
            const ai_decision *d = &an->item[idx[k]];
            printf("  mistake %d: decision %d, round %d: %s lost %.1f%% (best %s)\n", k + 1, d->ply + 1, d->round,
                   mtext(&d->state, seat, d->played, b1, sizeof b1), 100 * d->loss,
                   mtext(&d->state, seat, d->best, b2, sizeof b2));
        }
        printf("  loss by round:");
        for (int r = 1; r <= maxround; r++) printf(" %d:%.1f", r, 100 * perround[r]);
        putchar('\n');
    }
}

static void print_json(const ai_analysis *an, const char *spec, int worst) {
    char b[64];
    printf("{\"agent\":");
    json_str(spec);
    printf(",\"decisions\":[");
    for (int i = 0; i < an->n; i++) {
        const ai_decision *d = &an->item[i];
        const kontor_state *s = &d->state;
        printf("%s\n{\"ply\":%d,\"round\":%d,\"seat\":", i ? "," : "", d->ply + 1, d->round);
        json_str(kontor_seat_name(s, d->seat));
        printf(",\"simultaneous\":%s,\"played\":", simultaneous_phase(d->phase) ? "true" : "false");
        json_str(mtext(s, d->seat, d->played, b, sizeof b));
        printf(",\"best\":");
        json_str(mtext(s, d->seat, d->best, b, sizeof b));
        printf(",\"best_value\":%.4f,\"played_value\":%.4f,\"loss\":%.4f,\"researched\":%s,\"played_share\":%.4f,"
               "\"choices\":[",
               d->best_value, d->played_value, d->loss, d->researched ? "true" : "false", d->played_share);
        for (int k = 0; k < d->nchoice; k++) {
            printf("%s{\"move\":", k ? "," : "");
            json_str(mtext(s, d->seat, d->choice[k].move, b, sizeof b));
            printf(",\"value\":%.4f,\"share\":%.4f}", d->choice[k].value, d->share[k]);
        }
        printf("]}");
    }
    printf("],\n\"players\":[");
    for (int seat = 0; seat < an->nseats; seat++) {
        int n = 0;
        double sum = 0;
        for (int i = 0; i < an->n; i++)
            if (an->item[i].seat == seat) n++, sum += an->item[i].loss;
        printf("%s{\"seat\":", seat ? "," : "");
        json_str(kontor_seat_name(&an->final, seat));
        printf(",\"decisions\":%d,\"average_loss\":%.4f,\"total_loss\":%.4f,\"worst\":[", n, n ? sum / n : 0, sum);
        int idx[16];
        int nw = ai_analysis_worst(an, seat, worst, idx);
        for (int k = 0; k < nw; k++) printf("%s%d", k ? "," : "", an->item[idx[k]].ply + 1);
        printf("]}");
    }
    printf("]}\n");
}

int cmd_analyse(int argc, char **argv) {
    const char *file = NULL, *spec = "ismcts:iters=3000";
    uint64_t seed = 1, worst = 3, forced = 0;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(help, stdout);
            return 0;
        }
        if (strcmp(a, "--json") == 0) {
            json = 1;
            continue;
        }
        if (a[0] == '-' && a[1] == '-') {
            if (i + 1 >= argc) {
                cli_error("analyse: '%s' lacks its value (try --help)", a);
                return 2;
            }
            const char *v = argv[++i];
            if (strcmp(a, "--agent") == 0) spec = v;
            else if (strcmp(a, "--seed") == 0) {
                if (cli_number(a, v, UINT64_MAX, &seed)) return 2;
            } else if (strcmp(a, "--forced") == 0) {
                if (cli_number_in(a, v, 8, 100000000, &forced)) return 2;
            } else if (strcmp(a, "--worst") == 0) {
                if (cli_number_in(a, v, 1, 16, &worst)) return 2;
            } else {
                cli_error("analyse: '%s' is not an option (try --help)", a);
                return 2;
            }
        } else if (!file) file = a;
        else {
            cli_error("analyse: one record at a time ('%s' and '%s')", file, a);
            return 2;
        }
    }
    if (!file) {
        cli_error("analyse: which record? (kontor analyse FILE; try --help)");
        return 2;
    }
    kontor_error err;
    kontor_agent *probe = kontor_agent_new(spec, seed, &err);
    if (!probe) {
        cli_error("analyse: %s", err.msg);
        return 2;
    }
    kontor_agent_free(probe);
    kontor_record rec;
    if (cli_load_record(file, NULL, &rec)) return 1;
    ai_analysis an;
    int rc = ai_analyse_forced(&rec, spec, seed, forced, &an, &err);
    kontor_record_release(&rec);
    if (rc) {
        cli_error("analyse: record '%s': %s", file, err.msg);
        return 1;
    }
    if (json) print_json(&an, spec, (int)worst);
    else print_text(&an, (int)worst);
    ai_analysis_release(&an);
    return 0;
}
