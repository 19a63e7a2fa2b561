/* ismcts_keep.c: reuse=1, the subtree under the decisions made since the
 * last search kept as the new tree: the node found by its address, its
 * subtree moved down in place and renumbered, the edge index rebuilt.
 * Split from ismcts_tree.c (session fifteen), which grows the tree; this
 * runs once a search, between two of them. */
#include <string.h>

#include "ai/ismcts_tree.h"

/* The edge index of the whole tree anew (after keep_subtree renumbered
 * it), and every PASS node's count of its group's edges with it. */
static void reindex(tree *T) {
    node *pool = T->pool;
    ix_reset(&T->eix);
    for (uint32_t i = 1; i < T->n; i++) {
        for (uint32_t c = pool[i].child; c; c = pool[c].sibling) {
            if (pool[c].kind == N_SEQ) continue;
            ix_add(&T->eix, i, pool[c].kind, pool[c].seat, pool[c].move, c);
            if (pool[c].kind != N_PASS) continue;
            uint32_t k = 0;
            for (uint32_t f = pool[i].child; f; f = pool[f].sibling)
                k += pool[f].kind == pool[c].move && pool[f].seat == pool[c].seat;
            pool[c].nedges = k;
        }
        if (pool[i].kind != N_STAT && pool[i].kind != N_PASS)
            for (uint32_t c = pool[i].joint; c; c = pool[c].sibling)
                ix_add(&T->eix, i, N_JOINT, pool[c].seat, pool[c].key, c);
    }
}

/* reuse=1: make node x the root, keeping its subtree and dropping the rest
 * of the tree, in place. A walk from x marks the subtree (under par=tree a
 * child may have a smaller index than its parent, even than x: the threads
 * allocate from chunks of their own), a pass numbers it in the order of the
 * old indices with x first (so every new index is at most the old one) and
 * a third moves each node down with its links renumbered. STAT nodes'
 * iteration stamps (sim=rm|exp3) restart. */
static void keep_subtree(tree *T, uint32_t x) {
    node *pool = T->pool;
    uint32_t *map = T->map, *stack = T->stack, n = T->n, top = 0;
    memset(map, 0, (size_t)n * sizeof *map);
    stack[top++] = x;
    while (top) { /* a tree: every node is pushed once, so n entries are enough */
        uint32_t i = stack[--top];
        map[i] = 1;
        for (uint32_t c = pool[i].child; c; c = pool[c].sibling) stack[top++] = c;
        if (pool[i].kind != N_STAT && pool[i].kind != N_PASS)
            for (uint32_t c = pool[i].joint; c; c = pool[c].sibling) stack[top++] = c;
    }
    uint32_t next = 2;
    for (uint32_t i = 2; i < n; i++)
        if (map[i]) map[i] = i == x ? 1 : next++;
    for (uint32_t i = 2; i < n; i++) {
        if (!map[i]) continue;
        node y = pool[i];
        y.child = y.child ? map[y.child] : 0;
        y.sibling = i == x || !y.sibling ? 0 : map[y.sibling];
        if (y.kind == N_STAT) y.seen = 0;
        else if (y.kind != N_PASS) y.joint = y.joint ? map[y.joint] : 0;
        pool[map[i]] = y;
        if (T->an) T->an[map[i]] = T->an[i], T->ar[map[i]] = T->ar[i];
    }
    T->n = next;
    if (T->eix.e) reindex(T);
}

/* reuse=1: the node of the last tree at the address p (reuse.c) for seat;
 * its subtree becomes the tree (returns 1), or 0 when the last search never
 * went there. */
int ist_reuse_tree(tree *T, const ai_reuse_path *p, int seat) {
    if (!T->map || T->n <= 2) return 0;
    uint32_t cur = 1;
    if (p->joint) cur = ist_find_joint(T, 1, p->phase, p->key);
    for (int i = 0; cur && i < p->nseq; i++) {
        uint32_t e = T->pool[cur].child;
        while (e && !(T->pool[e].kind == N_SEQ && T->pool[e].seat == seat && T->pool[e].move == p->seq[i]))
            e = T->pool[e].sibling;
        cur = e;
    }
    if (cur <= 1) return 0;
    keep_subtree(T, cur);
    return 1;
}

