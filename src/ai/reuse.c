/* reuse.c: which part of the last search's tree the next decision can keep
 * (ismcts's reuse=1, issue 18 item 3).
 *
 * ismcts grows a new tree at every decision. When a seat decides several
 * times with nothing in between but its own decisions and public reveals —
 * the ship, the removal and the placement of one turn (advanced game), the
 * declaration and then the card (R1), the card and then its own first
 * placement when it leads the round — the next decision's position is a
 * node of the last tree, often a well visited one, and its subtree is a
 * search already done. This file finds that node's address from the views
 * alone (the server's computer players get no observe calls): the own
 * decisions since the search (kept by the agent, the forced ones too) and,
 * when the search was at a simultaneous choice, the other seats' picks as
 * the new view shows them after the reveal (the declarations: who chooses a
 * card now; the cards: the choice of each seat in the round's order).
 * ismcts.c then walks its tree along that address and keeps the subtree.
 *
 * Anything else (an opponent's placement, a new round, a take-back of a card
 * for its tax) gives no address and the search starts afresh: keeping a
 * wrong subtree would only mislead the search, so every case is checked
 * against the new view, and the sequential steps are replayed in a
 * determinization of the old view and compared with the new one. */
#include <string.h>

#include "ai/reuse.h"

static int seq_phase(int ph) {
    return ph == KONTOR_PHASE_SHIP || ph == KONTOR_PHASE_REMOVE || ph == KONTOR_PHASE_PLACE;
}

/* The public facts a step changes, compared after the replay. */
static int same_public(const kontor_state *a, const kontor_state *b) {
    return a->phase == b->phase && a->round == b->round && a->turn == b->turn && a->norder == b->norder &&
           a->ship_cell == b->ship_cell && a->ncards_board == b->ncards_board &&
           memcmp(&a->occ, &b->occ, sizeof a->occ) == 0 && memcmp(a->coins, b->coins, sizeof a->coins) == 0 &&
           memcmp(a->order, b->order, sizeof a->order) == 0;
}

int ai_reuse_find(const kontor_view *old, const kontor_move *mine, int nmine, const kontor_view *now,
                  kontor_rng *rng, ai_reuse_path *out) {
    const kontor_state *P = &old->s, *N = &now->s;
    int me = old->seat;
    memset(out, 0, sizeof *out);
    if (nmine < 1 || nmine > AI_REUSE_MAX || now->seat != me || N->round != P->round ||
        P->cfg->nseats != N->cfg->nseats || N->phase == KONTOR_PHASE_OVER)
        return 0;
    int first = 0; /* the first of mine that is a sequential step */
    if (P->phase == KONTOR_PHASE_DECLARE) {
        /* the declarations revealed, the cards to choose: this seat plays,
         * the others play when they choose now, else they passed */
        if (nmine != 1 || N->phase != KONTOR_PHASE_CHOOSE || N->choice[me] != KONTOR_NONE) return 0;
        out->joint = 1;
        out->phase = KONTOR_PHASE_DECLARE;
        for (int q = 0; q < N->cfg->nseats; q++) {
            int val = q == me ? KONTOR_MOVE_VALUE(mine[0]) : N->choice[q] == KONTOR_PASS ? KONTOR_PASS : KONTOR_PLAY;
            out->key |= (uint32_t)(val & 0xFF) << (8 * q);
        }
        return 1;
    }
    if (P->phase == KONTOR_PHASE_CHOOSE) {
        /* the cards revealed and nobody has placed yet: this seat leads the
         * round and every seat that chose a card is in the order with it.
         * The seats that chose are those who declared to play (R1) */
        if (!seq_phase(N->phase) || N->turn != 0 || N->norder < 1 || N->order[0] != me ||
            N->ncards_board != P->ncards_board)
            return 0;
        if (N->choice[me] != KONTOR_MOVE_VALUE(mine[0])) return 0;
        out->joint = 1;
        out->phase = KONTOR_PHASE_CHOOSE;
        int ninorder = 0;
        for (int q = 0; q < N->cfg->nseats; q++) {
            if (P->choice[q] == KONTOR_PASS) continue; /* declared a pass: no pick (R1) */
            int in = 0;
            for (int t = 0; t < N->norder; t++) in |= N->order[t] == q;
            if (!in) return 0; /* a pass under the old ruling, a take-back: not known */
            ninorder++;
            out->key |= (uint32_t)N->choice[q] << (8 * q);
        }
        if (ninorder != N->norder) return 0;
        first = 1;
    } else if (!seq_phase(P->phase)) {
        return 0;
    }
    /* the own sequential steps: replayed in a determinization of the old view
     * (after the reveal: the new view's, whose turn it was) */
    out->nseq = 0;
    if (first < nmine) {
        kontor_state d;
        if (first == 0) {
            kontor_determinize(old, rng, &d);
            if (d.norder < 1 || d.order[d.turn] != me) return 0;
        } else {
            return 0; /* a forced step after the reveal: rare, not replayed */
        }
        for (int i = first; i < nmine; i++) {
            if (kontor_apply(&d, me, mine[i], NULL) != KONTOR_OK) return 0;
            out->seq[out->nseq++] = mine[i];
        }
        if (!same_public(&d, N) || !(kontor_actors(&d) >> me & 1)) return 0;
    } else if (!seq_phase(N->phase) || !(kontor_actors(N) >> me & 1)) {
        return 0;
    }
    return 1;
}
