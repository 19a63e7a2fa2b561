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

/* kontor_legal of a seat kontor_actors names (not checked again). */
int kontor__legal_of_actor(const kontor_state *s, int seat, kontor_move *moves);

/* The hidden choices of both seats of a game for two without bankruptcy
 * (cfg.bankrupt 0), v0 and v1 a card or KONTOR_PASS, each legal: the same as
 * kontor__apply_unchecked of seat 0's choice and then seat 1's. */
void kontor__choose_two_unchecked(kontor_state *s, int v0, int v1);

/* The search tree's placement of a card on a cell (not as water, not
 * declined): whether a game of cfg lays it by the playout's own placement
 * (no special cards, no KONTOR__HOOK_PLACE, no bankruptcy: the games whose
 * playout loop calls playout_place_usual), and that placement, the same
 * state as kontor__apply_unchecked's (test_playout compares the playout's
 * games with kontor_apply's). */
int kontor__place_usual_of(const kontor_config *cfg);
void playout_place_usual(kontor_state *s, int value);

/* R2: passing is always allowed, unless the house rule (pass=rest) or an
 * event forbids it this round; a seat with no card in hand may always pass.
 * Here, not in decide.c alone, so that a playout counting the legal choices
 * without listing them (src/ai/playout.c) reads the rule from the one place
 * kontor_legal reads it. */
static inline int kontor__may_pass(const kontor_state *s, int seat) { return !s->no_pass || s->hand_n[seat] == 0; }
/* In the choice phase a pass is a choice only with declare=hidden (R1). */
static inline int kontor__may_pass_in_choice(const kontor_state *s, int seat) {
    return s->cfg->pass_hidden && kontor__may_pass(s, seat);
}

#endif
