/* analysis.h: the post-game analysis of a record (analysis.c): per decision
 * what the search recommends and how much the decision played lost. */
#ifndef KONTOR_AI_ANALYSIS_H
#define KONTOR_AI_ANALYSIS_H

#include "ai/ai.h"
#include "kontor/record.h"

#define AI_ANALYSIS_TOP 8

typedef struct ai_decision {
    int ply, seat, round, phase;
    kontor_move played, best;
    double best_value, played_value; /* the search's expected result, [0, 1] */
    double loss;                     /* best_value - played_value, 0 when played is best */
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
 * default in the CLI ismcts:iters=3000). 0, or -1 with err. */
int ai_analyse(const kontor_record *r, const char *spec, uint64_t seed, ai_analysis *an, kontor_error *err);
void ai_analysis_release(ai_analysis *an);
/* The k biggest losses (> 0) of seat as indices into an->item, biggest
 * first; returns how many (at most k). */
int ai_analysis_worst(const ai_analysis *an, int seat, int k, int *out);

#endif
