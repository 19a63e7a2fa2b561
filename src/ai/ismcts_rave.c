/* ismcts_rave.c: rave=K, RAVE (rapid action value estimation, Gelly and
 * Silver 2007) at the placement nodes of ismcts's tree.
 *
 * A cell's worth in Kontor depends more on who takes it than on when, so
 * every placement a seat makes later in an iteration (further down the
 * tree or in the playout) is counted as if it had been made at each
 * placement node of that seat on the iteration's path: the node's edge of
 * the same move (the cell, and whether a dock card goes there: the card
 * itself is placed once a game) gets an "all moves as first" (AMAF) visit
 * and result. A node's edges then learn from every iteration that passes
 * it, not only from the one edge it took, and UCB's mean becomes
 * (1 - b) x mean + b x AMAF mean with b = sqrt(K / (3n + K)), n the edge's
 * visits (K: the visits at which both weigh alike). With rave on, a
 * placement node gets all its edges at its first pass (else UCB would see
 * only the tried ones, and the tree tries each untried cell once before
 * UCB looks at any), an unvisited edge is valued by its AMAF mean alone
 * with the exploration of one visit, and the first visit of an edge ends
 * the walk (the playout starts after it), one new leaf an iteration as
 * before. The statistics sit in two arrays beside the pool (tree.ar, an),
 * indexed as the nodes: the node stays 28 bytes and the search without
 * rave is the same search, byte for byte.
 *
 * Cost: the playout writes its placements (ai_playout_rec) and the
 * backup walks the edges of each placement node of the path once: O(the
 * iteration's moves + the path's placement nodes' edges). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ai/ismcts_tree.h"

/* The unvisited and the rarely visited are valued by the AMAF mean with a
 * draw's half as its prior (one phantom result of 1/2): a cell no
 * iteration took yet is worth 1/2 until one does. */
double ist_rave_value(const tree *T, uint32_t i, double la) {
    const node *x = &T->pool[i];
    double qa = (T->ar[i] + 0.5) / (T->an[i] + 1.0);
    if (x->visits == 0) return qa + T->c * sqrt(la);
    double n = x->visits, k = T->rave, beta = sqrt(k / (3 * n + k));
    return (1 - beta) * x->reward / n + beta * qa + T->c * sqrt(la / n);
}

/* The iteration's placements in order: the tree's (pkey[i] for step i, in
 * path order) and then the playout's (T->rec); each key's first place is
 * kept in apos (valid under this iteration's stamp), each tree placement
 * step's own place in ppos[i]. Written from the last to the first, so the
 * first place of a key is what remains. */
void ist_rave_mark(tree *T, const uint32_t *pkey, int np, uint32_t *ppos) {
    uint32_t st = ++T->astamp;
    if (st == 0) { /* wrapped: clear once every 4 billion iterations */
        memset(T->aseen, 0, (size_t)KONTOR_MAX_SEATS * AI_RAVE_PER_SEAT * sizeof *T->aseen);
        st = T->astamp = 1;
    }
    uint32_t p = 0;
    for (int i = 0; i < np; i++)
        if (pkey[i] != UINT32_MAX) ppos[i] = p++;
    for (int j = T->rec.n - 1; j >= 0; j--) {
        uint32_t k = T->rec.key[j];
        T->aseen[k] = st;
        T->apos[k] = p + (uint32_t)j;
    }
    for (int i = np - 1; i >= 0; i--)
        if (pkey[i] != UINT32_MAX) {
            T->aseen[pkey[i]] = st;
            T->apos[pkey[i]] = ppos[i];
        }
}

/* A placement step of seat at parent, its key and place pos: each of
 * parent's edges of seat whose move seat placed at pos or later in this
 * iteration (with the same kind of card as at parent) gets an AMAF visit
 * with x. The caller holds parent's lock (par=tree). */
void ist_rave_update(tree *T, uint32_t parent, int seat, uint32_t key, uint32_t pos, float x) {
    node *pool = T->pool;
    uint32_t base = key & ~0xFFFu, st = T->astamp;
    for (uint32_t c = pool[parent].child; c; c = pool[c].sibling) {
        if (pool[c].kind != N_SEQ || pool[c].seat != seat) continue;
        uint32_t k = base + (pool[c].move & 0xFFFu);
        if (T->aseen[k] == st && T->apos[k] >= pos) {
            T->an[c]++;
            T->ar[c] += x;
        }
    }
}
