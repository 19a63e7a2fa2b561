/* reuse.h: the address, in the last search's tree, of the next decision's
 * position (reuse.c; ismcts's reuse=1). */
#ifndef KONTOR_AI_REUSE_H
#define KONTOR_AI_REUSE_H

#include "kontor/kontor.h"

/* The own decisions remembered since the last search (that one included). */
#define AI_REUSE_MAX 8

/* From the root: when joint, first the joint child of the simultaneous
 * phase `phase` keyed by `key` (each acting seat's pick value in its 8 bits,
 * as ismcts.c keys them), then the sequential steps seq[0..nseq) of the
 * seat. */
typedef struct ai_reuse_path {
    int joint, phase;
    uint32_t key;
    int nseq;
    kontor_move seq[AI_REUSE_MAX];
} ai_reuse_path;

/* old: the view the last search was for; mine[0..nmine): old->seat's
 * decisions since then (the searched one first); now: the view to decide on.
 * Fills out and returns 1 when now's position is reached from old's by those
 * decisions and public reveals only (checked; rng draws the determinization
 * the sequential steps are replayed in), else 0. */
int ai_reuse_find(const kontor_view *old, const kontor_move *mine, int nmine, const kontor_view *now,
                  kontor_rng *rng, ai_reuse_path *out);

#endif
