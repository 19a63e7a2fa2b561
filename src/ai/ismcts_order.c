/* ismcts_order.c: move ordering at a placement node, which untried cell
 * the search expands first: by MAST's averages (order=1) or by greedy's
 * evaluation of a few cells (eorder=K). Options of select_edge
 * (ismcts_tree.c) that the plain search does not take; split from it
 * (session fifteen). */
#include "ai/ismcts_tree.h"

/* order=1, move ordering at a placement: of the untried moves the one MAST
 * likes best (its average result over this search's playouts so far) is
 * expanded first, ties at random. With a few thousand iterations a node
 * with thirty cells sees each of them a handful of times at best, so which
 * cells it tries first matters. */
int ai_order_untried(const kontor_state *s, int seat, const kontor_move *untried, int n, const ai_mast *mast,
                     kontor_rng *rng) {
    float bestv = -1.0f;
    int best = 0, nbest = 0;
    for (int i = 0; i < n; i++) {
        float v = ai_mast_value(s, seat, untried[i], mast);
        if (v > bestv) bestv = v, best = i, nbest = 1;
        else if (v == bestv && kontor_rng_below(rng, (uint32_t)++nbest) == 0) best = i;
    }
    return best;
}

/* eorder=K, move ordering by the evaluation at a placement: of K untried
 * cells drawn at random (all when K >= n) the one after which greedy's
 * evaluation (eval.c) of the position is best for seat is expanded first,
 * ties to the first drawn. MAST (order=1) learns which cells pay off only
 * where the playouts use it (the basic game); the evaluation knows from the
 * first iteration which cell closes an area or gives one away, in either
 * game. It reads public facts only, so the determinization does not matter.
 * Costs one apply and one evaluation per cell looked at, paid from the
 * search's own budget. Returns the index into untried. */
int ai_eval_order_untried(const kontor_state *s, int seat, const kontor_move *untried, int n, int k, kontor_rng *rng) {
    int idx[KONTOR_MAX_MOVES];
    if (n <= 1) return 0;
    for (int i = 0; i < n; i++) idx[i] = i;
    if (k > n) k = n;
    int best = 0;
    double bestv = -1e300;
    for (int i = 0; i < k; i++) {
        if (k < n) { /* a partial shuffle: the first k are a uniform sample */
            int j = i + (int)kontor_rng_below(rng, (uint32_t)(n - i));
            int t = idx[i];
            idx[i] = idx[j];
            idx[j] = t;
        }
        kontor_state c = *s;
        if (kontor_apply(&c, seat, untried[idx[i]], NULL) != KONTOR_OK) continue;
        double v = ai_eval(&c, seat);
        if (v > bestv) bestv = v, best = idx[i];
    }
    return best;
}

