/* ismcts_sync.c: par=sync, the merges of the trees that share their roots'
 * statistics: each of T threads grows a tree of its own (reproducible for a
 * seed, at root parallelism's rate) and every merge=K iterations adds what
 * its root edges gained to a shared table and reads back the others' part
 * (mopp=1: the other seats' root edges too; depth=2: the level below, in
 * ismcts_deep.c), under a barrier so that the search does not depend on the
 * threads' timing. Split from ismcts_tree.c (which had passed 1,000 lines);
 * why par=sync exists is in docs/ai.md ("Two trees that share their roots"). */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "ai/ismcts_tree.h"

/* par=sync, barrier: a round of merges is complete when every thread still
 * searching has arrived; the table as it then stands is the round's. */
static void complete_round(syncsh *S) {
    memcpy(S->snap_v, S->acc_v, (size_t)S->n * sizeof *S->snap_v);
    memcpy(S->snap_r, S->acc_r, (size_t)S->n * sizeof *S->snap_r);
    if (S->opp) {
        memcpy(S->osnap_v, S->oacc_v, (size_t)S->no * sizeof *S->osnap_v);
        memcpy(S->osnap_a, S->oacc_a, (size_t)S->no * sizeof *S->osnap_a);
        memcpy(S->osnap_r, S->oacc_r, (size_t)S->no * sizeof *S->osnap_r);
        S->osnap_n = S->no;
    }
    if (S->d) ist_deep_snap(S->d);
    S->waiting = 0;
    S->gen++;
    pthread_cond_broadcast(&S->cv);
}

/* par=sync, under the table's lock: a thread stops taking part in the
 * rounds; the round the others wait in may be complete now. */
static void leave_locked(syncsh *S) {
    S->members--;
    if (S->barrier && S->waiting > 0 && S->waiting >= S->members) complete_round(S);
}

/* par=sync: a thread stops taking part in the rounds (its budget is spent,
 * or it never started). The caller holds nothing. */
void ist_sync_leave(syncsh *S) {
    pthread_mutex_lock(&S->mu);
    leave_locked(S);
    pthread_mutex_unlock(&S->mu);
}

/* par=sync, mopp=1, under the table's lock: what this tree's root edges of
 * the other seats gained since its last merge (visits, rewards, passes in
 * which the move was dealt) goes into the table, a new (seat, move) taking
 * the next slot. An edge's availability after its group's last pass is its
 * count, or that pass's number less its birth and misses (passed()). */
static void sync_opp_publish(tree *T) {
    syncsh *S = T->ss;
    const node *pool = T->pool;
    uint32_t pc[KONTOR_MAX_SEATS] = {0};
    for (uint32_t e = pool[1].child; e; e = pool[e].sibling)
        if (pool[e].kind == N_PASS && pool[e].move == N_STAT && pool[e].seat < KONTOR_MAX_SEATS) pc[pool[e].seat] = e;
    for (uint32_t e = pool[1].child; e; e = pool[e].sibling) {
        const node *x = &pool[e];
        if (x->kind != N_STAT || x->seat == T->v->seat || x->seat >= KONTOR_MAX_SEATS) continue;
        uint32_t k = (uint32_t)x->seat * KEYS_PER_SEAT + x->move;
        if (k >= NKEYS) continue;
        uint32_t r = S->oix[k];
        if (!r) {
            if (S->no == OSLOTS) continue; /* full: this move stays unmerged */
            S->okey[S->no] = k;
            r = S->oix[k] = (uint16_t)++S->no;
        }
        const node *p = pc[x->seat] ? &pool[pc[x->seat]] : NULL;
        uint64_t avail = ist_avail_after(p, x);
        S->oacc_v[r - 1] += x->visits - T->opub_v[r - 1];
        S->oacc_a[r - 1] += avail - T->opub_a[r - 1];
        S->oacc_r[r - 1] += (double)x->reward - T->opub_r[r - 1];
        T->opub_v[r - 1] = x->visits;
        T->opub_a[r - 1] = avail;
        T->opub_r[r - 1] = x->reward;
    }
}

/* par=sync, mopp=1, under the table's lock: the table read back (the
 * round's under a barrier), the others' part of it kept per slot, the
 * slots new to this tree mapped from their keys. */
static void sync_opp_read(tree *T) {
    syncsh *S = T->ss;
    int barrier = S->barrier, n = barrier ? S->osnap_n : S->no;
    const uint64_t *sv = barrier ? S->osnap_v : S->oacc_v, *sa = barrier ? S->osnap_a : S->oacc_a;
    const double *sr = barrier ? S->osnap_r : S->oacc_r;
    for (; T->oseen < n; T->oseen++) T->oix[S->okey[T->oseen]] = (uint16_t)(T->oseen + 1);
    for (int i = 0; i < n; i++) {
        uint64_t o = sv[i] - T->opub_v[i], oa = sa[i] - T->opub_a[i];
        T->oov[i] = (uint32_t)(o > UINT32_MAX / 4 ? UINT32_MAX / 4 : o);
        T->ooa[i] = (uint32_t)(oa > UINT32_MAX / 4 ? UINT32_MAX / 4 : oa);
        T->oorw[i] = (float)(sr[i] - T->opub_r[i]);
    }
}

/* par=sync: a merge. What this tree's root edges of the searching seat
 * gained since its last merge goes into the table; unless it is leaving
 * (its search is over), it reads the table back (under a barrier: the
 * round's, once every thread still searching has merged) and keeps the
 * others' part of it, the table less its own, for select_edge. */
void ist_sync_root(tree *T, int leaving) {
    syncsh *S = T->ss;
    int n = S->n;
    uint64_t dv[KONTOR_MAX_MOVES];
    double dr[KONTOR_MAX_MOVES];
    memset(dv, 0, (size_t)n * sizeof *dv);
    memset(dr, 0, (size_t)n * sizeof *dr);
    for (uint32_t e = T->pool[1].child; e; e = T->pool[e].sibling) {
        const node *x = &T->pool[e];
        uint32_t r = x->kind == T->rkind && x->seat == T->v->seat ? T->rix[x->move] : 0;
        if (!r) continue;
        dv[r - 1] = x->visits - T->pub_v[r - 1];
        dr[r - 1] = (double)x->reward - T->pub_r[r - 1];
        T->pub_v[r - 1] = x->visits;
        T->pub_r[r - 1] = x->reward;
    }
    uint64_t tv[KONTOR_MAX_MOVES];
    double tr[KONTOR_MAX_MOVES];
    pthread_mutex_lock(&S->mu);
    for (int i = 0; i < n; i++) {
        S->acc_v[i] += dv[i];
        S->acc_r[i] += dr[i];
    }
    if (T->mopp) sync_opp_publish(T);
    if (T->d) ist_deep_publish(T);
    S->merges++;
    if (leaving) {
        leave_locked(S);
        pthread_mutex_unlock(&S->mu);
        return;
    }
    const uint64_t *sv = S->acc_v;
    const double *sr = S->acc_r;
    if (S->barrier) {
        unsigned long gen = S->gen;
        if (++S->waiting >= S->members) complete_round(S);
        else
            while (S->gen == gen) pthread_cond_wait(&S->cv, &S->mu);
        sv = S->snap_v;
        sr = S->snap_r;
    }
    memcpy(tv, sv, (size_t)n * sizeof *tv);
    memcpy(tr, sr, (size_t)n * sizeof *tr);
    if (T->mopp) sync_opp_read(T);
    if (T->d) ist_deep_read(T);
    pthread_mutex_unlock(&S->mu);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        uint64_t o = tv[i] - T->pub_v[i];
        T->ov[i] = (uint32_t)(o > UINT32_MAX / 4 ? UINT32_MAX / 4 : o);
        T->orw[i] = (float)(tr[i] - T->pub_r[i]);
        total += T->ov[i];
    }
    T->ototal = (uint32_t)(total > UINT32_MAX / 4 ? UINT32_MAX / 4 : total);
}
