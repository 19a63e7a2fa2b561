/* hint.c: kontor hint FILE: the computer's advice for the side to move.
 *
 * Replays a record (to its end, or to the start of --round R), asks an agent
 * for its ranked alternatives for every seat that owes a decision, and says
 * them in words: the decision, and the agent's own measure of it (the share
 * of won simulations for ismcts, the evaluation in points for greedy), with
 * the greedy evaluation's terms for the position as it stands. The agent
 * sees only the seat's view, as in a game: advice never leaks the opponent's
 * hand.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "cli/cli.h"
#include "kontor/record.h"

static const char *help =
    "usage: kontor hint FILE [--round R] [--agent SPEC] [--seed S] [--top K]\n"
    "\n"
    "Replays the record FILE (\"-\" for stdin) to its end, or to the start of round\n"
    "R, and prints for the side to move the decision the agent prefers and the\n"
    "next best alternatives (K in all, default 5) with the agent's evaluation of\n"
    "each, in words. The agent (default ismcts:iters=20000) sees only what that\n"
    "side may see. Agents: random, greedy, ismcts[:...], easy, medium, hard.\n";

typedef struct round_finder {
    int want, ply;
} round_finder;

static void find_round(void *ctx, const kontor_state *s, int ply, const kontor_log *log) {
    (void)log;
    round_finder *f = ctx;
    if (f->ply < 0 && s->round >= f->want) f->ply = ply + 1;
}

static void say_move(const kontor_state *s, kontor_move m, char *buf, size_t cap) {
    int v = KONTOR_MOVE_VALUE(m);
    char cell[8];
    const kontor_cardset *cs = s->cfg->cards;
    switch (KONTOR_MOVE_KIND(m)) {
    case KONTOR_MOVE_DECLARE:
        snprintf(buf, cap, "%s", v == KONTOR_PASS ? "declare a pass (take a coin)" : "declare to play a card");
        break;
    case KONTOR_MOVE_CHOOSE:
        if (v == KONTOR_PASS) snprintf(buf, cap, "pass (take a coin)");
        else if (v < cs->ncards) {
            const kontor_card *k = &cs->card[v];
            static const char *const kinds[] = {"goods", "crane", "tavern", "water", "centre", "flood", "bridge", "customs"};
            snprintf(buf, cap, "play card %d (%s%s%s)", k->number, k->kind < 8 ? kinds[k->kind] : "?",
                     k->coin ? ", coin" : "", k->ship ? ", ship" : "");
        } else snprintf(buf, cap, "play an unknown card");
        break;
    case KONTOR_MOVE_SHIP:
        if (v == KONTOR_NONE) snprintf(buf, cap, "leave the ship where it is");
        else snprintf(buf, cap, "move the ship to %s", kontor_format_cell(v, cell));
        break;
    case KONTOR_MOVE_REMOVE:
        if (v == KONTOR_NONE) snprintf(buf, cap, "remove nothing");
        else snprintf(buf, cap, "remove card %d at %s",
                      kontor_state_card_at(s, v) < cs->ncards ? cs->card[kontor_state_card_at(s, v)].number : 0,
                      kontor_format_cell(v, cell));
        break;
    case KONTOR_MOVE_PLACE:
        if (v == KONTOR_NONE) snprintf(buf, cap, "take the card back");
        else snprintf(buf, cap, "place it at %s", kontor_format_cell(v, cell));
        break;
    case KONTOR_MOVE_BUY:
        if (v > 1) snprintf(buf, cap, "buy %d special cards", v);
        else snprintf(buf, cap, "%s", v ? "buy a special card" : "buy nothing");
        break;
    case KONTOR_MOVE_PILE:
        snprintf(buf, cap, "send the removed card to %s's pile", kontor_seat_name(s, v));
        break;
    default:
        snprintf(buf, cap, "decision %04x", m);
    }
}

static const char *phase_words[] = {"choose a card or pass", "may move the ship", "may remove a card",
                                    "place the card",        "game over",         "may buy a special card",
                                    "chooses the pile for the removed card"};

int cmd_hint(int argc, char **argv) {
    const char *file = NULL, *spec = "ismcts:iters=20000";
    uint64_t round = 0, seed = 1, top = 5;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(help, stdout);
            return 0;
        }
        if (a[0] == '-' && a[1] == '-') {
            if (i + 1 >= argc) {
                cli_error("hint: '%s' lacks its value (try --help)", a);
                return 2;
            }
            const char *v = argv[++i];
            if (strcmp(a, "--round") == 0) {
                if (cli_number(a, v, 10000, &round) || !round) return 2;
            } else if (strcmp(a, "--agent") == 0) spec = v;
            else if (strcmp(a, "--seed") == 0) {
                if (cli_number(a, v, UINT64_MAX, &seed)) return 2;
            } else if (strcmp(a, "--top") == 0) {
                if (cli_number(a, v, KONTOR_MAX_MOVES, &top) || !top) return 2;
            } else {
                cli_error("hint: '%s' is not an option (try --help)", a);
                return 2;
            }
        } else if (!file) file = a;
        else {
            cli_error("hint: one record at a time ('%s' and '%s')", file, a);
            return 2;
        }
    }
    if (!file) {
        cli_error("hint: which record? (kontor hint FILE; try --help)");
        return 2;
    }
    char *text;
    size_t len;
    if (cli_read_file(file, &text, &len)) {
        cli_error("hint: cannot read record '%s': %s", file, strerror(errno));
        return 1;
    }
    kontor_record rec;
    kontor_error err;
    kontor_status st = kontor_record_parse(&rec, text, len, &err);
    free(text);
    if (st) {
        cli_error("record '%s': %s", file, err.msg);
        return 1;
    }
    int upto = -1;
    kontor_state s;
    if (round > 1) {
        round_finder f = {(int)round, -1};
        if (kontor_record_replay(&rec, -1, &s, find_round, &f, &err)) {
            cli_error("record '%s': %s", file, err.msg);
            kontor_record_release(&rec);
            return 1;
        }
        if (f.ply < 0) {
            cli_error("record '%s': the game never reaches round %llu (it ends in round %d)", file,
                      (unsigned long long)round, s.round);
            kontor_record_release(&rec);
            return 1;
        }
        upto = f.ply;
    } else if (round == 1) {
        upto = 0;
    }
    if (kontor_record_replay(&rec, upto, &s, NULL, NULL, &err)) {
        cli_error("record '%s': %s", file, err.msg);
        kontor_record_release(&rec);
        return 1;
    }
    kontor_record_release(&rec);
    unsigned actors = kontor_actors(&s);
    if (!actors) {
        printf("the game is over: %s %d, %s %d\n", kontor_seat_name(&s, 0), s.score[0], kontor_seat_name(&s, 1),
               s.score[1]);
        return 0;
    }
    kontor_agent *a = cli_agent_new(spec, seed, &err);
    if (!a) {
        cli_error("hint: %s", err.msg);
        return 2;
    }
    int rc = 0;
    for (int seat = 0; seat < s.cfg->nseats; seat++) {
        if (!((actors >> seat) & 1)) continue;
        kontor_view v;
        kontor_view_of(&s, seat, &v);
        ai_eval_terms t;
        ai_eval_terms_of(&s, seat, &t);
        printf("%s to move, round %d: %s\n", kontor_seat_name(&s, seat), s.round,
               s.phase == KONTOR_PHASE_DECLARE                    ? "declare whether to pass"
               : s.phase < sizeof phase_words / sizeof *phase_words ? phase_words[s.phase]
                                                                    : "decide");
        printf("  position for %s: %+.1f (areas won %+.1f, open areas %+.1f, money %+.1f, cranes %+.1f, ship %+.1f)\n",
               kontor_seat_name(&s, seat), t.total, t.points, t.open_areas, t.money, t.cranes, t.ship);
        ai_choice ch[KONTOR_MAX_MOVES];
        int n = kontor_agent_rank(a, &v, ch, (int)top);
        if (n < 0) {
            /* an external engine: only its one decision */
            kontor_move m = a->decide(a, &v);
            if (m == KONTOR_FORFEIT) {
                cli_error("hint: agent '%s' failed: %s", spec, a->error);
                rc = 1;
                continue;
            }
            char w[96];
            say_move(&s, m, w, sizeof w);
            printf("  %s would %s\n", spec, w);
            continue;
        }
        int sims = 0;
        for (int i = 0; i < n; i++) sims |= ch[i].visits > 0;
        for (int i = 0; i < n; i++) {
            char w[96];
            say_move(&s, ch[i].move, w, sizeof w);
            if (sims)
                printf("  %s %-36s expected result %4.1f%% over %u simulations\n", i == 0 ? "best:" : "     ", w,
                       100 * ch[i].value, ch[i].visits);
            else
                printf("  %s %-36s evaluation %+.1f\n", i == 0 ? "best:" : "     ", w, ch[i].value);
        }
    }
    kontor_agent_free(a);
    return rc;
}
