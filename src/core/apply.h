/* apply.h: applying a decision without checking it, for the library's own
 * playouts (src/ai/playout.c, kontor_playout).
 *
 * kontor_apply checks every decision against the rules first (the
 * declarations, choices and placements straight, the rest through
 * kontor_is_legal), which is what anything from outside needs: records,
 * the protocol, the server, people. A playout applies only decisions it has
 * just generated from the state itself (kontor_legal, or the bitboards the
 * legal list is made of), so the check is work whose answer is known; in the
 * search's policy playouts it was a sixth of the cost of a placement. Not a
 * public header: a caller that passes a move it did not generate corrupts the
 * state. Sanitizer builds (make SANITIZE=...) define KONTOR_CHECK_UNCHECKED,
 * and there this path checks anyway and aborts on an illegal move, so every
 * test run under sanitizers also proves the playouts' moves legal. */
#ifndef KONTOR_APPLY_H
#define KONTOR_APPLY_H

#include "kontor/kontor.h"

/* Apply a legal decision of seat (the same effects and log as kontor_apply). */
void kontor__apply_unchecked(kontor_state *s, int seat, kontor_move move, kontor_log *log);

#endif
