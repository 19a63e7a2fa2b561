/* analysis_api.h: GET /api/games/ID/analysis: the post-game analysis of a
 * finished game (src/ai/analysis.c), computed once, off the event loop.
 *
 * server.c calls these from three places (the hook): analysis_api_init and
 * _shutdown with the server, analysis_api_get from the HTTP handler (on the
 * loop's thread), and analysis_api_pending / analysis_api_work from its
 * computer-player workers, which analyse one decision at a time when no game
 * with a person owes a computer move. docs/server.md, "Analysis".
 */
#ifndef KONTOR_SERVER_ANALYSIS_API_H
#define KONTOR_SERVER_ANALYSIS_API_H

#include "server/limits.h"

/* An answer: status, a JSON body (malloc'd, caller frees), extra header
 * lines ("Retry-After: 2\r\n") or "". */
typedef struct analysis_answer {
    int status;
    char *body;
    char extra[64];
} analysis_answer;

/* wake: wakes the workers (a new analysis is waiting for them). lim is kept
 * (analysis_per_min, analyses, analysis_iters). */
void analysis_api_init(const server_limits *lim, void (*wake)(void));
void analysis_api_shutdown(void);

/* The answer for game id from the cache alone: 1 when answered (ready:
 * 200; under way: 202 pending with retry_after; failed: 500), 0 when the
 * game has no analysis yet (then the caller fetches the record and calls
 * analysis_api_start). */
int analysis_api_cached(const char *id, analysis_answer *a);
/* Start the analysis of the finished game id from its record text: 202
 * pending; 429 when addr (NULL: in-process callers, one budget) has started
 * too many (--analysis-per-min); 503 busy when --analyses are under way. */
void analysis_api_start(const char *id, const char *record, const char *addr, analysis_answer *a);

/* For the workers: 1 when an analysis has a decision to do that no worker is
 * doing (cheap; call under the workers' queue lock or not); work does one. */
int analysis_api_pending(void);
void analysis_api_work(void);

#endif
