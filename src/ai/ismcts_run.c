/* ismcts_run.c: how a search runs its iterations over a tree, apart from
 * what one iteration does (ismcts_tree.c): the budget of iterations or of
 * time (with the early stop once the decision cannot change), the threads'
 * share of the budget under par=tree, the set-up a search decides once
 * (which fast paths its options allow), and the trees' memory. Split from
 * ismcts_tree.c (session fifteen: no file of the search over ~1,000 lines);
 * the iteration is ist_iterate there, one call an iteration as before. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ai/ismcts_tree.h"
#include "core/apply.h"

/* Early stop under a time budget: the decision is the most visited root
 * action, so once its lead over the runner-up is larger than the number of
 * iterations the rest of the time could still run, more search cannot change
 * it (Huang, Coulom and Lin 2010, "Time management for Monte-Carlo tree
 * search in Go"). The remaining iterations are estimated from this search's
 * own rate, with a margin of a half. With one thread or par=tree (one
 * tree, the first thread checks it for all, counting every thread's
 * iterations). Under par=root the decision is the sum of several trees'
 * root visits: each thread checks its own tree by its own rate and
 * publishes the move it settled on, and the search stops when all settled
 * on the same move (ai_settled_all). ai_settled is the test itself, apart
 * for the tests. */
int ai_settled(uint32_t first, uint32_t second, uint64_t iters, double spent, double left) {
    if (spent <= 0 || iters < 64 || first <= second) return 0;
    double more = (double)iters / spent * (left > 0 ? left : 0) * 1.5 + 16;
    return (double)(first - second) > more;
}

int ai_settled_all(const int *lead, int n) {
    if (n <= 0 || lead[0] <= 0) return 0;
    for (int i = 1; i < n; i++)
        if (lead[i] != lead[0]) return 0;
    return lead[0];
}

/* The root move this tree has settled on, + 1, or 0. */
static int settled(tree *T, double t0, double now) {
    const kontor_view *v = T->v;
    shared *sh = T->sh;
    int kind = ist_simultaneous(&v->s) ? N_STAT : N_SEQ;
    uint32_t first = 0, second = 0; /* an untried move counts 0 visits */
    int lead = 0;
    lock_node(sh, 1);
    for (uint32_t e = T->pool[1].child; e; e = T->pool[e].sibling) {
        const node *x = &T->pool[e];
        if (x->kind != kind || x->seat != v->seat) continue;
        if (x->visits > first) second = first, first = x->visits, lead = x->move + 1;
        else if (x->visits > second) second = x->visits;
    }
    unlock_node(sh, 1);
    uint64_t iters = T->sh ? atomic_load_explicit(&T->sh->next, memory_order_relaxed) : T->iters;
    return ai_settled(first, second, iters, now - t0, T->deadline - now) ? lead : 0;
}

/* The clock of a time budget: wall time, or under clock=cpu the CPU time of
 * the calling thread, so that a search on a loaded machine gets the same
 * work done per decision as on an idle one (what equal-time comparisons on
 * a shared machine need; docs/ai.md). */
double ist_clock_of(int cpu) {
    if (!cpu) return ai_now();
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* par=tree: the next iteration of the budget, or 0 when it is spent (with
 * a deadline: just its number). The shared counter hands out batches of
 * NBATCH (a batch past the budget is cut to it), so the threads touch its
 * cache line once in NBATCH iterations. */
static uint32_t claim(tree *T) {
    if (T->bnext >= T->bend) {
        uint64_t i = atomic_fetch_add_explicit(&T->sh->next, NBATCH, memory_order_relaxed);
        if (T->budget && i >= T->budget) return 0;
        T->bnext = i;
        T->bend = T->budget && T->budget - i < NBATCH ? T->budget : i + NBATCH;
    }
    uint64_t i = T->bnext++;
    return (uint32_t)i + 1 ? (uint32_t)i + 1 : 1;
}

void *ist_run_tree(void *arg) {
    tree *T = arg;
    if (T->cpu) T->deadline = ist_clock_of(1) + T->span;
    if (!T->sh && !T->reused) ist_new_root(T);
    /* the searching seat's decisions at the root, once a search: they are
     * its decisions in every determinization of its view, in the same order
     * (property_own_decisions_are_the_same_in_every_determinization); not
     * with fixed states, which the caller may make as it likes (-1) */
    T->root_n = T->nfixed ? -1 : kontor_legal(&T->v->s, T->v->seat, T->root_moves);
    /* the root's actors, once a search: the same in every determinization
     * of the view, which copies the prepared state's decisions and deals
     * only cards (property_actors_are_the_same_in_every_determinization);
     * not with fixed states or a belief's worlds */
    T->root_actors = T->nfixed || T->bel || !T->det ? -1 : (int)kontor_actors(&T->det->s);
    /* the root's own edges not found yet (select_edge) */
    memset(T->root_pc, 0, sizeof T->root_pc);
    memset(T->root_edge, 0, sizeof T->root_edge);
    T->root_full = 0;
    memset(T->root_by, 0, sizeof T->root_by);
    /* no option that reads a placement's move list or biases its edges:
     * select_place serves the placement nodes */
    T->place_plain = !T->ss && T->ebias <= 0 && T->rave <= 0 && !T->order && T->eorder <= 0 && T->pb <= 0 &&
                     T->prior <= 0 && !T->walk;
    /* and its cell laid by the playout's placement (kontor__place_usual_of),
     * for the view's config (fixed states are the caller's) */
    T->place_usual = T->place_plain && !T->nfixed && kontor__place_usual_of(T->v->s.cfg);
    /* the playout is the core's alone (ai_playout_plain), for the view's
     * config (fixed states are the caller's: asked at every playout) */
    T->plain_po = !T->nfixed && T->rave <= 0 && ai_playout_plain(&T->po, T->v->s.cfg, T->mast);
    ai_result_table(&T->results);
    /* the backup without locks, virtual loss, sampled updates or RAVE, the
     * seats' teams looked up once a search (the view's config) */
    T->stat_plain = T->sim == SIM_UCT && !T->ss;
    /* the other seats' root edges from their hands (select_stat_hand): a
     * root in the choice phase of the plain search, its legal lists the
     * hands (not with fixed states, whose opponents are modelled, nor with
     * final=nash, which reads the lists) */
    T->root_hand = T->stat_plain && !T->nfixed && !T->mx && T->v->s.phase == KONTOR_PHASE_CHOOSE;
    T->plain_back = !T->nfixed && !T->sh && T->vl == 1 && T->sim == SIM_UCT && T->rave <= 0;
    for (int q = 0; q < KONTOR_MAX_SEATS; q++)
        T->team[q] = (uint8_t)(q < T->v->s.cfg->nseats ? kontor_team(&T->v->s, q) : 0);
    T->iters = 0;
    if (T->mast && T->keep > 0) { /* keep=D: last decision's averages, weighed down */
        for (int k = 0; k < AI_MAST_KEYS; k++) {
            uint32_t n = (uint32_t)(T->mast->n[k] * T->keep);
            T->mast->sum[k] = T->mast->n[k] ? T->mast->sum[k] * (float)n / (float)T->mast->n[k] : 0.0f;
            T->mast->n[k] = n;
        }
    } else if (T->mast) memset(T->mast, 0, sizeof *T->mast);
    if (T->sh && T->budget) {
        while ((T->it = claim(T)) != 0) ist_iterate(T);
    } else if (T->budget) {
        for (uint64_t i = 0; i < T->budget; i++) {
            T->it = (uint32_t)T->iters + 1;
            ist_iterate(T);
            if (T->ss && T->iters % T->merge == 0 && i + 1 < T->budget) ist_sync_root(T, 0);
        }
    } else {
        double t0 = ist_clock_of(T->cpu), now;
        for (;;) {
            for (int i = 0; i < 16; i++) {
                T->it = T->sh ? claim(T) : (uint32_t)T->iters + 1;
                ist_iterate(T);
                if (T->ss && T->iters % T->merge == 0) ist_sync_root(T, 0);
            }
            now = ist_clock_of(T->cpu);
            if (now >= T->deadline) break;
            if (T->sh && atomic_load_explicit(&T->sh->done, memory_order_relaxed)) break;
            if (T->stop && T->rs) { /* par=root: every tree settled on one move */
                atomic_store_explicit(&T->rs->t[T->tid].lead, settled(T, t0, now), memory_order_relaxed);
                if (T->tid == 0) {
                    int lead[ROOT_MAX_THREADS];
                    for (int i = 0; i < T->nthreads; i++)
                        lead[i] = atomic_load_explicit(&T->rs->t[i].lead, memory_order_relaxed);
                    if (ai_settled_all(lead, T->nthreads)) atomic_store_explicit(&T->rs->done, 1, memory_order_relaxed);
                }
                if (atomic_load_explicit(&T->rs->done, memory_order_relaxed)) break;
            } else if (T->stop && T->tid == 0 && settled(T, t0, now)) {
                if (T->sh) atomic_store_explicit(&T->sh->done, 1, memory_order_relaxed);
                break;
            }
        }
    }
    if (T->ss) ist_sync_root(T, 1); /* the last gains, and out of the rounds */
    return NULL;
}

int ist_ensure_trees(kontor_agent *a) {
    ismcts_impl *m = a->impl;
    uint64_t per = m->sh ? m->iters : m->iters / (uint64_t)m->threads; /* iterations in one tree */
    /* rave=K makes a placement node's edges all at once: more nodes (at
     * iters=4000 a game's largest tree had 27,507 against 15,316) */
    uint64_t want = m->ms ? POOL_LIMIT : (m->rave > 0 ? 48 : 24) * (per + 1) * (m->reuse ? 2 : 1) + 4096;
    if (want > POOL_LIMIT) want = POOL_LIMIT;
    for (int t = 0; t < m->threads; t++) {
        tree *T = &m->trees[t];
        if (!T->mark) {
            T->mark = calloc(NKEYS, sizeof *T->mark);
            T->idx = calloc(NKEYS, sizeof *T->idx);
            T->hit = calloc(NKEYS, sizeof *T->hit);
            if (!T->mark || !T->idx || !T->hit) return -1;
        }
        if (!m->sh && !m->walk && ix_alloc(&T->eix) < 0) return -1;
        T->walk = m->walk; /* the tests' reference search: select_edge at every placement too */
        if (!T->logs) {
            if (!(T->logs = malloc(LOGS_N * sizeof *T->logs))) return -1;
            T->logs[0] = 0; /* never read: an edge is available before it is visited */
            for (int i = 1; i < LOGS_N; i++) T->logs[i] = log((double)i);
        }
        if ((m->po.mast != 0.0f || m->po.record) && !T->mast) {
            if (!(T->mast = malloc(sizeof *T->mast))) return -1;
            memset(T->mast, 0, sizeof *T->mast);
        }
        if (m->rave > 0 && !T->apos) {
            T->apos = calloc((size_t)KONTOR_MAX_SEATS * AI_RAVE_PER_SEAT, sizeof *T->apos);
            T->aseen = calloc((size_t)KONTOR_MAX_SEATS * AI_RAVE_PER_SEAT, sizeof *T->aseen);
            if (!T->apos || !T->aseen) return -1;
        }
        if (T->memcap < want && (t == 0 || !m->sh)) {
            node *p = realloc(T->mem, (size_t)want * sizeof *p);
            if (!p) return -1;
            T->mem = p;
            T->memcap = (uint32_t)want;
            if (m->rave > 0) {
                float *r = realloc(T->arm, (size_t)want * sizeof *r);
                if (r) T->arm = r;
                uint32_t *c = realloc(T->anm, (size_t)want * sizeof *c);
                if (c) T->anm = c;
                if (!r || !c) return -1;
            }
            if (m->reuse) {
                free(T->map);
                free(T->stack);
                T->stack = NULL;
                if (!(T->map = malloc((size_t)want * sizeof *T->map))) return -1;
                if (!(T->stack = malloc((size_t)want * sizeof *T->stack))) return -1;
            }
        }
        T->pool = m->sh ? m->trees[0].mem : T->mem;
        T->ar = m->sh ? m->trees[0].arm : T->arm;
        T->an = m->sh ? m->trees[0].anm : T->anm;
        T->cap = m->sh ? m->trees[0].memcap : T->memcap;
    }
    return 0;
}
