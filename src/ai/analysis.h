/* analysis.h: the post-game analysis of a record (analysis.c): per decision
 * what the search recommends and how much the decision played lost. */
#ifndef KONTOR_AI_ANALYSIS_H
#define KONTOR_AI_ANALYSIS_H

#include "ai/ai.h"
#include "kontor/record.h"

#define AI_ANALYSIS_TOP 8
/* The forced re-search of a decision: this many worlds (determinizations of
 * the seat's view), the same for every decision compared. */
#define AI_ANALYSIS_WORLDS 8
/* Below this many visits in the main search the decision played is re-searched. */
#define AI_ANALYSIS_MIN_VISITS 10

typedef struct ai_decision {
    int ply, seat, round, phase;
    kontor_move played, best;
    /* the expected result, [0, 1]: with researched, of the forced
     * re-searches of best and of played (same worlds, same budget); else
     * the main search's values of both */
    double best_value, played_value;
    double loss;                     /* best_value - played_value, 0 when played is best */
    int researched;                  /* played and best were re-searched, forced at the root */
    double search_value;             /* the main search's value of played (0 when it never visited it) */
    double played_share;             /* the visit share of the decision played */
    int nchoice;                     /* the search's first AI_ANALYSIS_TOP choices */
    ai_choice choice[AI_ANALYSIS_TOP];
    double share[AI_ANALYSIS_TOP];   /* their visit shares: the mixed strategy at a reveal */
    kontor_state state;              /* before the decision (for words) */
} ai_decision;

typedef struct ai_analysis {
    ai_decision *item; /* the decisions that had a choice, in order */
    int n, nseats;
    kontor_state final;
} ai_analysis;

/* Analyse every decision of r with the agent spec (one of kontor's own,
 * default in the CLI ismcts:iters=3000). Where the decision played is not
 * the search's first choice, both are re-searched forced at the root with
 * forced_iters iterations each (0: the spec's iters=, or 3000 without one).
 * 0, or -1 with err. */
int ai_analyse(const kontor_record *r, const char *spec, uint64_t seed, ai_analysis *an, kontor_error *err);
int ai_analyse_forced(const kontor_record *r, const char *spec, uint64_t seed, uint64_t forced_iters,
                      ai_analysis *an, kontor_error *err);
void ai_analysis_release(ai_analysis *an);
/* The k biggest losses (> 0) of seat as indices into an->item, biggest
 * first; returns how many (at most k). */
int ai_analysis_worst(const ai_analysis *an, int seat, int k, int *out);

/* The same a step at a time (the server's workers analyse one decision, then
 * let a person's game go first): begin, then step until it returns 1 (done)
 * or -1 (err filled); an is the analysis so far. end frees the analyser
 * (not an). */
typedef struct ai_analyser ai_analyser;
ai_analyser *ai_analyser_begin(const kontor_record *r, const char *spec, uint64_t seed, uint64_t forced_iters,
                               ai_analysis *an, kontor_error *err);
int ai_analyser_step(ai_analyser *z, ai_analysis *an, kontor_error *err);
/* decisions of the record done so far and in all */
void ai_analyser_progress(const ai_analyser *z, int *done, int *total);
void ai_analyser_end(ai_analyser *z);

#endif
