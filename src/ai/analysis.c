/* analysis.c: the post-game analysis of a record (issue 18, `kontor analyse`).
 *
 * For every decision of a game that had a choice, the seat's view at that
 * moment is searched (ismcts by default, at an iteration budget so the result
 * does not depend on the machine) and the decision played is compared with
 * the search's: the loss is the search's expected result of its own first
 * choice minus that of the decision played (0 when they agree; results in
 * [0, 1], 1 = a sure win, so a loss of 0.2 is "twenty points of win chance").
 * At a simultaneous choice (declaration, card) the search's mixed strategy,
 * its visit shares, is kept beside the card played: there the "best" card
 * is only best against the opponent the search imagines. The search sees only
 * the seat's view, as in the game: the analysis never uses the opponent's
 * hidden cards. The state between decisions comes from the record itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/analysis.h"

void ai_analysis_release(ai_analysis *an) {
    free(an->item);
    memset(an, 0, sizeof *an);
}

int ai_analyse(const kontor_record *r, const char *spec, uint64_t seed, ai_analysis *an, kontor_error *err) {
    memset(an, 0, sizeof *an);
    kontor_state s;
    if (kontor_record_replay(r, 0, &s, NULL, NULL, err)) return -1;
    kontor_agent *a = kontor_agent_new(spec, seed, err);
    if (!a) return -1;
    if (!a->impl || a->release != ai_release) {
        kontor_agent_free(a);
        ai_fail(err, KONTOR_E_INVALID, "agent '%s' cannot rank decisions", spec);
        return -1;
    }
    an->item = calloc((size_t)(r->nply > 0 ? r->nply : 1), sizeof *an->item);
    if (!an->item) {
        kontor_agent_free(a);
        ai_fail(err, KONTOR_E_RANGE, "out of memory");
        return -1;
    }
    an->nseats = s.cfg.nseats;
    for (int i = 0; i < r->nply; i++) {
        int seat = r->ply[i].seat;
        kontor_move played = r->ply[i].move;
        kontor_move legal[KONTOR_MAX_MOVES];
        int nl = seat < s.cfg.nseats ? kontor_legal(&s, seat, legal) : 0;
        if (nl > 1 && kontor_is_legal(&s, seat, played)) {
            kontor_view v;
            kontor_view_of(&s, seat, &v);
            ai_choice ch[KONTOR_MAX_MOVES];
            int n = kontor_agent_rank(a, &v, ch, KONTOR_MAX_MOVES);
            if (n < 0) {
                ai_fail(err, KONTOR_E_INVALID, "agent '%s' failed at decision %d: %s", spec, i + 1, a->error);
                kontor_agent_free(a);
                ai_analysis_release(an);
                return -1;
            }
            ai_decision *d = &an->item[an->n++];
            d->ply = i;
            d->seat = seat;
            d->round = s.round;
            d->phase = s.phase;
            d->played = played;
            d->state = s;
            d->nchoice = n < AI_ANALYSIS_TOP ? n : AI_ANALYSIS_TOP;
            uint64_t total = 0;
            for (int k = 0; k < n; k++) total += ch[k].visits;
            d->best = ch[0].move;
            d->best_value = ch[0].value;
            d->played_value = ch[0].value;
            for (int k = 0; k < n; k++)
                if (ch[k].move == played) {
                    d->played_value = ch[k].value;
                    d->played_share = total ? (double)ch[k].visits / (double)total : 0;
                }
            for (int k = 0; k < d->nchoice; k++) {
                d->choice[k] = ch[k];
                d->share[k] = total ? (double)ch[k].visits / (double)total : 0;
            }
            d->loss = d->best_value - d->played_value;
            if (played == d->best || d->loss < 0) d->loss = 0;
        }
        if (seat >= s.cfg.nseats || kontor_apply(&s, seat, played, NULL) != KONTOR_OK) {
            char why[160];
            ai_fail(err, KONTOR_E_ILLEGAL, "decision %d (round %d) is illegal: %s", i + 1, s.round,
                    seat < s.cfg.nseats ? kontor_why_illegal(&s, seat, played, why, sizeof why) : "no such seat");
            kontor_agent_free(a);
            ai_analysis_release(an);
            return -1;
        }
    }
    an->final = s;
    kontor_agent_free(a);
    return 0;
}

int ai_analysis_worst(const ai_analysis *an, int seat, int k, int *out) {
    int n = 0;
    for (int i = 0; i < an->n; i++) {
        if (an->item[i].seat != seat || an->item[i].loss <= 0) continue;
        /* insert i into out[0..n), kept sorted by loss, biggest first, at most k */
        int j = n < k ? n++ : k;
        while (j > 0 && an->item[out[j - 1]].loss < an->item[i].loss) {
            if (j < k) out[j] = out[j - 1];
            j--;
        }
        if (j < k) out[j] = i;
    }
    return n;
}
