/* ismcts_deep.c: par=sync's merge one level below the root (depth=2).
 * Merging the roots of two trees, as often as every 8 iterations, left two
 * trees of N/2 iterations about 25-35 Elo below one tree of N (docs/ai.md,
 * "Session eleven"): each tree grows the subtree under a root move from
 * half the iterations through it, so the opponent's replies there are
 * searched half as deeply. With depth=2 each merge also adds what the
 * edges of the next level gained (under each of the searching seat's root
 * placements, or under each joint child of a simultaneous root) to a table
 * keyed by (depth-1 node, seat, kind, move), and each tree's UCB at a
 * depth-1 node counts the other trees' visits, rewards and availability of
 * the same edge beside its own (select_edge, ismcts_tree.c). Called under
 * syncsh.mu by ist_sync_root; the tables are in ismcts_tree.h (dtable, dlocal).
 * docs/ai.md, "Session twelve: sync20 -- merging below the root". */
#include <string.h>

#include "ai/ismcts_tree.h"

/* The slot of key k in the shared table, a new one if there is room (0:
 * full, the key stays unmerged), as slot + 1. */
static int dslot(dtable *D, uint64_t k) {
    uint32_t h = dhash(k);
    for (;; h = (h + 1) & (DHASH - 1)) {
        int r = D->hash[h];
        if (!r) break;
        if (D->key[r - 1] == k) return r;
    }
    if (D->n == DSLOTS) return 0;
    D->key[D->n] = k;
    D->hash[h] = (uint16_t)++D->n;
    return D->n;
}

/* What the edges under the depth-1 node p (key pid) gained since this
 * tree's last merge: visits, rewards and availability (the passes of its
 * group, (kind, seat) at p, in which it was selectable: passed()'s count,
 * or the group's passes less its birth and misses). */
static void publish_under(tree *T, uint32_t p, uint32_t pid) {
    dtable *D = T->ss->d;
    dlocal *L = T->d;
    const node *pool = T->pool;
    uint32_t pc[2][KONTOR_MAX_SEATS] = {{0}};
    for (uint32_t e = pool[p].child; e; e = pool[e].sibling)
        if (pool[e].kind == N_PASS && pool[e].move <= N_STAT && pool[e].seat < KONTOR_MAX_SEATS)
            pc[pool[e].move][pool[e].seat] = e;
    for (uint32_t e = pool[p].child; e; e = pool[e].sibling) {
        const node *x = &pool[e];
        if ((x->kind != N_SEQ && x->kind != N_STAT) || x->seat >= KONTOR_MAX_SEATS) continue;
        int r = dslot(D, dkey(pid, x->seat, x->kind, x->move));
        if (!r) continue;
        const node *g = pc[x->kind][x->seat] ? &pool[pc[x->kind][x->seat]] : NULL;
        uint64_t avail = ist_avail_after(g, x);
        D->acc_v[r - 1] += x->visits - L->pub_v[r - 1];
        D->acc_a[r - 1] += avail - L->pub_a[r - 1];
        D->acc_r[r - 1] += (double)x->reward - L->pub_r[r - 1];
        L->pub_v[r - 1] = x->visits;
        L->pub_a[r - 1] = avail;
        L->pub_r[r - 1] = x->reward;
    }
}

/* depth=2, under the table's lock: this tree's next level into the table.
 * The depth-1 nodes: at a sequential root the searching seat's root edges
 * (keyed by their move), at a simultaneous root the joint children (keyed
 * by the picks). */
void ist_deep_publish(tree *T) {
    const node *pool = T->pool;
    dlocal *L = T->d;
    if (!L->alldirty) { /* only the depth-1 nodes passed since the last merge: nothing else changed */
        for (int i = 0; i < L->ndirty; i++) {
            uint32_t p = L->dirty[i];
            publish_under(T, p, T->rkind == N_SEQ ? pool[p].move : pool[p].key);
        }
        L->ndirty = 0;
        return;
    }
    L->ndirty = L->alldirty = 0;
    if (T->rkind == N_SEQ) {
        for (uint32_t e = pool[1].child; e; e = pool[e].sibling)
            if (pool[e].kind == N_SEQ && pool[e].seat == T->v->seat) publish_under(T, e, pool[e].move);
    } else
        for (uint32_t j = pool[1].joint; j; j = pool[j].sibling) publish_under(T, j, pool[j].key);
}

/* depth=2, under the table's lock: the table read back (the round's under
 * a barrier), the other trees' part kept per slot, the slots new to this
 * tree mapped from their keys. */
void ist_deep_read(tree *T) {
    const dtable *D = T->ss->d;
    dlocal *L = T->d;
    int barrier = T->ss->barrier, n = barrier ? D->snap_n : D->n;
    const uint64_t *sv = barrier ? D->snap_v : D->acc_v, *sa = barrier ? D->snap_a : D->acc_a;
    const double *sr = barrier ? D->snap_r : D->acc_r;
    for (; L->seen < n; L->seen++) {
        uint64_t k = D->key[L->seen];
        uint32_t h = dhash(k);
        while (L->hash[h]) h = (h + 1) & (DHASH - 1);
        L->key[L->seen] = k;
        L->hash[h] = (uint16_t)(L->seen + 1);
    }
    for (int i = 0; i < n; i++) {
        uint64_t o = sv[i] - L->pub_v[i], oa = sa[i] - L->pub_a[i];
        L->ov[i] = (uint32_t)(o > UINT32_MAX / 4 ? UINT32_MAX / 4 : o);
        L->oa[i] = (uint32_t)(oa > UINT32_MAX / 4 ? UINT32_MAX / 4 : oa);
        L->orw[i] = (float)(sr[i] - L->pub_r[i]);
    }
}

/* depth=2, a round complete (under the lock): the table as it stands is the round's. */
void ist_deep_snap(dtable *D) {
    memcpy(D->snap_v, D->acc_v, (size_t)D->n * sizeof *D->snap_v);
    memcpy(D->snap_a, D->acc_a, (size_t)D->n * sizeof *D->snap_a);
    memcpy(D->snap_r, D->acc_r, (size_t)D->n * sizeof *D->snap_r);
    D->snap_n = D->n;
}

/* depth=2, before a search (no thread running): an empty table, nothing
 * published or read by any tree (only the slots the last search used are
 * cleared). */
void ist_deep_reset(syncsh *S, tree *trees, int nthreads) {
    dtable *D = S->d;
    size_t n = (size_t)D->n;
    for (int t = 0; t < nthreads; t++) {
        dlocal *L = trees[t].d;
        L->seen = 0;
        L->ndirty = 0;
        L->alldirty = 1; /* the first merge publishes the whole level (a kept subtree, reuse=1) */
        memset(L->hash, 0, sizeof L->hash);
        memset(L->pub_v, 0, n * sizeof *L->pub_v);
        memset(L->pub_a, 0, n * sizeof *L->pub_a);
        memset(L->pub_r, 0, n * sizeof *L->pub_r);
        memset(L->ov, 0, n * sizeof *L->ov);
        memset(L->oa, 0, n * sizeof *L->oa);
        memset(L->orw, 0, n * sizeof *L->orw);
    }
    memset(D->hash, 0, sizeof D->hash);
    memset(D->acc_v, 0, n * sizeof *D->acc_v);
    memset(D->acc_a, 0, n * sizeof *D->acc_a);
    memset(D->acc_r, 0, n * sizeof *D->acc_r);
    D->n = D->snap_n = 0;
}
