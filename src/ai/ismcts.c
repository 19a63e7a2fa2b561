/* ismcts.c: Information Set Monte Carlo Tree Search (Cowling, Powley and
 * Whitehouse 2012, "single observer" form) with decoupled UCT at the
 * simultaneous card choice.
 *
 * The player cannot see the opponent's hand nor the order of the piles, so
 * there is no one game tree to search. Each iteration therefore deals one
 * determinization of the view (kontor_determinize_with, from a determinizer
 * prepared once per search: the unseen cards at
 * random), walks one shared tree whose nodes are sequences of decisions (an
 * information set of the searching player, roughly), and plays the rest out
 * (ai_playout, playout.c: random, but with a ship that only goes after the
 * opponent's cards, and MAST where there is no ship). A decision that is legal in one determinization and
 * not in another (the opponent's cards) is handled by availability counts:
 * UCB uses how often a child could have been chosen, not how often its parent
 * was visited.
 *
 * The card choice (and before it the declarations of who passes, R1) is
 * simultaneous and hidden, so the tree must not let one
 * seat's choice depend on the other's. At a choice node each acting seat
 * keeps its own statistics per own action (STAT edges) and picks by its own
 * UCB without looking at the other's pick (decoupled UCT, Lanctot et al.
 * 2013); the pair then leads to a JOINT child, where the sequential placing
 * continues. Rewards are per team (win 1, draw 1/2, loss 0, shaded by a
 * tenth for the margin), so every seat maximises its own.
 *
 * Speed: the node pool is allocated once and reused across decisions (no
 * allocation in the loop); children of a node are found through a stamped
 * table indexed by (seat, move), so a visit costs O(children + legal), and
 * at a simultaneous node, where the opponent's hidden hand gives an edge to
 * nearly every unseen card, by key in an edge index (ismcts_index.h; one
 * thread to a tree), so a visit there costs O(legal).
 * Threads (threads=N, each with its own generator, determinizations and
 * MAST): par=tree (the default) searches ONE tree with all of them, under
 * per-node striped spin locks with a virtual loss (vl=K), drawing from one
 * iteration budget, each thread taking nodes from chunks of its own, and
 * with availability kept so that a pass writes the chosen edge and a
 * counter, not every child (ismcts_tree.h: what the threads share costs
 * cache lines moving between the cores); not deterministic with N > 1, since the interleaving
 * decides what each iteration sees. par=root grows N independent trees, each
 * with its share of the iterations, and sums the root statistics; with an
 * iteration budget its result does not depend on timing. par=sync grows N
 * trees as par=root does, but every merge=K iterations (default 64) each
 * tree adds what its root gained to a shared table and reads the others'
 * part back, which its root's UCB counts beside its own (root
 * parallelization with periodic merges, Chaslot, Winands and van den Herik
 * 2008; ismcts_tree.h, syncsh); under an iteration budget the merges wait
 * for each other, so it too is reproducible; with mopp=1 a simultaneous
 * root's other seats' edges are merged too (each tree's model of the
 * opponent's pick from all the trees' iterations). One thread is the same search
 * under all three (docs/ai.md, "Tree parallelism", "Two trees that share
 * their roots").
 *
 * Options: iters=N (iterations per decision, default 10000), ms=N (time per
 * decision instead), threads=N (default 1), par=tree|root|sync, merge=K,
 * mopp=0|1, depth=1|2 (par=sync: merge the level below the root too,
 * ismcts_deep.c) and vl=K (above),
 * c=X (exploration, default 0.7);
 * the playout (playout.c): policy=0|1 (the ship policy, default 1), ship=P
 * (its chance to move the ship when it can remove an opponent's card,
 * default 1), place=P (bias of dock cards next to their owner's, default 0),
 * mast=P (MAST; default by variant: 0.25 without the ship, 0 with it),
 * pass=P (a declared pass in a playout, R1; default 1/(cards+1), 0 uniform),
 * rounds=R (cut-off after R rounds, scored by the evaluation; default 0, to
 * the end), scale=X (the cut-off's logistic scale; default 0, by variant).
 * The defaults are the best measured (docs/ai.md): in the advanced game the
 * ship policy lifted the score against greedy from ~60% to 73-84% at 4000
 * iterations, in the basic game MAST from 66% to 80%; cut-offs and the
 * placement bias did not help.
 * At a simultaneous node: sim=uct|rm|exp3 (the selection: decoupled UCT,
 * regret matching or EXP3, Lanctot, Lisy and Winands 2014; gamma=G their
 * uniform exploration, default 0.1) and final=max|visits (the decision: the
 * most visited, or a draw from the visit shares, the mixed strategy; issue
 * 18; floor=P keeps only the choices with at least P x the top visits)
 * or final=nash (a draw from an equilibrium of the root's matrix game of
 * joint results, ismcts_matrix.c; shrink=K, default 4, a cell's
 * pseudo-samples of the additive fit of its row and column). Defaults uct and max, today's play. Sequential decisions are always
 * the most visited legal one at the root.
 * Issue 18's search refinements, all off by default (docs/ai.md, "Item
 * 3"): order=1, prior=W, pb=W, keep=D (MAST and the evaluation as move
 * ordering and progressive bias), eorder=K and ebias=W (greedy's evaluation
 * as the order of expansion / the bias at every placement node), margin=X
 * (the margin's weight in a playout's result); the third round (docs/ai.md,
 * "Item 3, a fourth session"): reuse=1 (the subtree of the last search under
 * the decisions and reveals since, reuse.c, becomes the tree), bank=1 with
 * seq=F (a sequential decision gets F of its budget and what it leaves,
 * the early stop's savings too, goes to the next simultaneous decision),
 * and the playout's remove=1 (playout.c); rave=K (RAVE at the placements,
 * ismcts_rave.c; session twelve: not stronger at 4000 iterations);
 * belief=K with beta=X and bnum=Y (session fourteen, belief.c: each
 * iteration's world weighed by how likely the opponent's past revealed cards
 * are under a softmax of greedy's evaluation and the card's number, by
 * rejection with at most K draws; off).
 */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ai/ismcts_tree.h"

/* Sum the root statistics of every tree per move of v->seat. */
typedef struct root_stat {
    uint64_t visits;
    double reward;
} root_stat;

static int rank_with(kontor_agent *a, const kontor_view *v, const kontor_state *fixed, const kontor_move *fmoves,
                     int nfixed, ai_choice *out, int cap);

static int ismcts_rank(kontor_agent *a, const kontor_view *v, ai_choice *out, int cap) {
    return rank_with(a, v, NULL, NULL, 0, out, cap);
}

int ai_ismcts_rank_against(kontor_agent *a, const kontor_view *v, const kontor_state *states,
                           const kontor_move *moves, int n, ai_choice *out, int cap) {
    if (!a || a->release != ai_release || ((ai_base *)a->impl)->rank != ismcts_rank || n <= 0) return -1;
    return rank_with(a, v, states, moves, n, out, cap);
}

static int rank_with(kontor_agent *a, const kontor_view *v, const kontor_state *fixed, const kontor_move *fmoves,
                     int nfixed, ai_choice *out, int cap) {
    ismcts_impl *m = a->impl;
    int seat = v->seat;
    kontor_move moves[KONTOR_MAX_MOVES];
    int n = kontor_legal(&v->s, seat, moves);
    if (n <= 0) return 0;
    if (ist_ensure_trees(a)) {
        snprintf(a->error, sizeof a->error, "agent '%s': out of memory for the search tree", a->name);
        return -1;
    }
    uint64_t base = kontor_rng_next(&a->rng);
    kontor_determinizer det; /* the view's deal worked out once, read by every thread's iterations */
    if (!fixed) kontor_determinizer_prepare(v, &det);
    if (m->bel && !fixed) ai_belief_prepare(m->bel, v, &det, &a->rng); /* belief=K: the model's tables */
    double t0 = ai_now();
    uint64_t reused = 0;
    for (int t = 0; t < m->threads; t++) { /* each thread its own generator, one tree or several */
        tree *T = &m->trees[t];
        kontor_rng_seed(&T->rng, base ^ (0x9E3779B97F4A7C15ULL * (uint64_t)(t + 1)));
        T->v = v;
        T->det = &det;
        T->bel = m->bel && m->bel->on && !fixed ? m->bel : NULL;
        T->c = (float)m->c;
        T->sim = m->sim;
        T->fixed = fixed;
        T->fixed_moves = fmoves;
        T->nfixed = fixed ? nfixed : 0;
        T->gamma = m->gamma;
        T->po = m->po;
        T->order = m->order;
        T->eorder = m->eorder;
        T->shipw = m->shipw;
        T->ebias = (float)m->ebias;
        T->margin = (float)m->margin;
        T->pb = (float)m->pb;
        T->keep = (float)m->keep;
        T->prior = (float)m->prior;
        T->rave = (float)m->rave;
        uint64_t iters = m->grant > 0 && !m->ms ? (uint64_t)m->grant : m->iters;
        double ms = m->grant > 0 && m->ms ? m->grant : m->ms;
        T->budget = m->ms ? 0 : iters / (uint64_t)m->threads + ((uint64_t)t < iters % (uint64_t)m->threads);
        if (!m->ms && T->budget == 0) T->budget = 1;
        T->deadline = t0 + ms / 1000.0;
        T->cpu = m->clock;
        T->span = ms / 1000.0;
        T->stop = m->stop && (m->threads == 1 || m->sh || m->rs);
        T->sh = m->sh;
        T->rs = m->rs;
        T->ss = m->ss;
        if (m->ss) { /* par=sync: nothing merged yet; the root moves' places in the table */
            T->merge = (uint32_t)m->merge;
            T->rkind = ist_simultaneous(&v->s) ? N_STAT : N_SEQ;
            memset(T->rix, 0, sizeof T->rix);
            for (int i = 0; i < n; i++) T->rix[moves[i]] = (uint16_t)(i + 1);
            memset(T->ov, 0, sizeof T->ov);
            memset(T->orw, 0, sizeof T->orw);
            memset(T->pub_v, 0, sizeof T->pub_v);
            memset(T->pub_r, 0, sizeof T->pub_r);
            T->ototal = 0;
            T->mopp = m->mopp && T->rkind == N_STAT;
            T->oseen = 0;
            if (T->mopp) {
                memset(T->oix, 0, sizeof T->oix);
                memset(T->oov, 0, sizeof T->oov);
                memset(T->ooa, 0, sizeof T->ooa);
                memset(T->oorw, 0, sizeof T->oorw);
                memset(T->opub_v, 0, sizeof T->opub_v);
                memset(T->opub_a, 0, sizeof T->opub_a);
                memset(T->opub_r, 0, sizeof T->opub_r);
            }
        }
        T->tid = t;
        T->nthreads = m->threads;
        T->vl = (uint32_t)m->vl;
        T->cnext = T->cend = 0; /* par=tree: no chunk of the pool, no batch of iterations yet */
        T->bnext = T->bend = 0;
        if (m->sh) T->budget = m->ms ? 0 : iters; /* the threads draw from one budget */
        T->reused = 0;
        if (m->final == FINAL_NASH && !T->mx && !(T->mx = malloc(sizeof *T->mx))) {
            snprintf(a->error, sizeof a->error, "agent '%s': out of memory for the search tree", a->name);
            return -1;
        }
        if (T->mx) { /* final=nash: the root's matrix game, at a simultaneous root (ismcts_matrix.c) */
            ist_matrix_start(T->mx, &v->s, seat, moves, !fixed && ist_simultaneous(&v->s) ? n : 0);
            T->mx->shrink = m->shrink;
        }
        if (m->path && !fixed && (!m->sh || t == 0)) { /* par=tree: the one tree is the first's */
            if (m->sh) { /* the nodes every thread took */
                uint32_t nn = atomic_load(&m->sh->n);
                T->n = nn < T->cap ? nn : T->cap;
            }
            T->reused = ist_reuse_tree(T, m->path, seat);
        }
        if (T->reused)
            for (uint32_t e = T->pool[1].child; e; e = T->pool[e].sibling)
                if (T->pool[e].seat == seat && T->pool[e].kind != N_PASS) reused += T->pool[e].visits;
    }
    if (m->ss) { /* par=sync: an empty table, every thread a member of the rounds */
        syncsh *S = m->ss;
        S->barrier = !m->ms;
        S->members = m->threads;
        S->waiting = 0;
        S->merges = 0;
        S->n = n;
        memcpy(S->moves, moves, (size_t)n * sizeof *moves);
        memset(S->acc_v, 0, sizeof S->acc_v);
        memset(S->acc_r, 0, sizeof S->acc_r);
        S->opp = m->mopp && ist_simultaneous(&v->s);
        S->no = S->osnap_n = 0;
        if (S->opp) {
            memset(S->oix, 0, sizeof S->oix);
            memset(S->oacc_v, 0, sizeof S->oacc_v);
            memset(S->oacc_a, 0, sizeof S->oacc_a);
            memset(S->oacc_r, 0, sizeof S->oacc_r);
        }
        if (S->d) ist_deep_reset(S, m->trees, m->threads);
    }
    if (m->rs) { /* par=root|sync: nobody has settled yet */
        atomic_store(&m->rs->done, 0);
        for (int t = 0; t < m->threads; t++) atomic_store(&m->rs->t[t].lead, 0);
    }
    if (m->sh) { /* one root for all, before they start */
        atomic_store(&m->sh->next, 0);
        atomic_store(&m->sh->done, 0);
        if (m->trees[0].reused) atomic_store(&m->sh->n, m->trees[0].n);
        else ist_new_root(&m->trees[0]);
    }
    m->base.reused = reused;
    m->base.nreused += reused > 0;
    m->path = NULL;
    m->have_prev = 0; /* the trees are this search's now */
    pthread_t th[64];
    int started = 0;
    for (int t = 1; t < m->threads; t++) {
        if (pthread_create(&th[t], NULL, ist_run_tree, &m->trees[t]) != 0) break;
        started = t;
    }
    /* par=sync: a thread that could not start runs later, alone, out of the
     * rounds (the others would wait for it); its root still counts in the
     * decision, which sums the trees */
    for (int t = started + 1; t < m->threads; t++)
        if (m->ss) {
            m->trees[t].ss = NULL;
            ist_sync_leave(m->ss);
        }
    ist_run_tree(&m->trees[0]);
    for (int t = 1; t <= started; t++) pthread_join(th[t], NULL);
    /* threads that could not start run here, in order */
    for (int t = started + 1; t < m->threads; t++) ist_run_tree(&m->trees[t]);
    m->total_seconds += ai_now() - t0;
    for (int t = 0; t < m->threads; t++) m->total_iters += m->trees[t].iters;

    static const int kinds_at_root[2] = {N_SEQ, N_STAT};
    ai_choice ch[KONTOR_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        uint64_t vis = 0;
        double rew = 0;
        for (int t = 0; t < (m->sh ? 1 : m->threads); t++) { /* par=tree: one tree */
            tree *T = &m->trees[t];
            for (uint32_t e = T->pool[1].child; e; e = T->pool[e].sibling) {
                node *x = &T->pool[e];
                if (x->seat == seat && x->move == moves[i] &&
                    x->kind == kinds_at_root[ist_simultaneous(&v->s)]) {
                    vis += x->visits;
                    rew += x->reward;
                }
            }
        }
        ch[i].move = moves[i];
        ch[i].visits = (uint32_t)(vis > UINT32_MAX ? UINT32_MAX : vis);
        ch[i].value = vis ? rew / (double)vis : 0.0;
    }
    /* most visited first; ties by mean result, then legal order (stable sort) */
    for (int i = 1; i < n; i++) {
        ai_choice x = ch[i];
        int j = i;
        while (j > 0 && (ch[j - 1].visits < x.visits || (ch[j - 1].visits == x.visits && ch[j - 1].value < x.value))) {
            ch[j] = ch[j - 1];
            j--;
        }
        ch[j] = x;
    }
    if (n > cap) n = cap;
    memcpy(out, ch, (size_t)n * sizeof *out);
    m->base.iters = m->total_iters;
    m->base.seconds = m->total_seconds;
    return n;
}

int ai_pick_by_visits(const ai_choice *ch, int n, kontor_rng *rng) {
    uint64_t total = 0;
    for (int i = 0; i < n; i++) total += ch[i].visits;
    if (n <= 0) return -1;
    if (total == 0) return 0;
    uint64_t r = kontor_rng_next(rng) % total, acc = 0;
    for (int i = 0; i < n; i++) {
        acc += ch[i].visits;
        if (r < acc) return i;
    }
    return n - 1;
}

/* The decision: the most visited (final=max), or at a simultaneous choice
 * under final=visits a draw from the visit shares, the mixed strategy the
 * search found (sequential decisions stay the most visited: there nobody
 * guesses). The whole ranking and the pick are kept in the base for tests
 * and the analysis. */
static kontor_move ismcts_decide(kontor_agent *a, const kontor_view *v) {
    ismcts_impl *m = a->impl;
    kontor_move only[KONTOR_MAX_MOVES];
    m->base.nlast = 0;
    if (m->bel) ai_belief_observe(m->bel, v); /* belief=K: the round, and what the opponent revealed */
    if (kontor_legal(&v->s, v->seat, only) == 1) { /* nothing to think about */
        if (m->have_prev && m->nmine < AI_REUSE_MAX) m->mine[m->nmine++] = only[0];
        else m->have_prev = 0;
        return only[0];
    }
    ai_reuse_path path;
    if (m->reuse && m->have_prev && ai_reuse_find(&m->prev, m->mine, m->nmine, v, &a->rng, &path)) m->path = &path;
    int sim = ist_simultaneous(&v->s);
    double unit = m->ms ? (double)m->ms : (double)m->iters, before = 0;
    uint64_t iters0 = m->total_iters;
    if (m->bank) { /* this decision's budget: a share of its own, or its own and the bank */
        m->grant = sim ? unit + m->banked : unit * m->seq;
        if (!sim) m->banked += unit - m->grant;
        else m->banked = 0;
        before = ist_clock_of(m->clock);
    }
    int n = ismcts_rank(a, v, m->base.last, KONTOR_MAX_MOVES);
    m->path = NULL;
    if (m->bank) { /* what the early stop left goes to the bank */
        double used = m->ms ? (ist_clock_of(m->clock) - before) * 1000.0 : (double)(m->total_iters - iters0);
        if (used < m->grant) m->banked += m->grant - used;
        m->grant = 0;
    }
    if (n < 0) return KONTOR_FORFEIT;
    if (n == 0) return ai_random_move(a, v); /* fills a->error */
    m->base.nlast = n;
    int i = 0;
    if (m->final == FINAL_VISITS && ist_simultaneous(&v->s)) {
        /* floor=P: only the choices with at least P times the top visits
         * (the rest is mostly exploration, not strategy) */
        int keep = n;
        while (keep > 1 && (double)m->base.last[keep - 1].visits < m->floor * m->base.last[0].visits) keep--;
        i = ai_pick_by_visits(m->base.last, keep, &a->rng);
    }
    if (m->final == FINAL_NASH && ist_simultaneous(&v->s)) i = ist_nash_pick(m, &a->rng);
    m->base.picked = i;
    if (m->reuse) {
        m->prev = *v;
        m->mine[0] = m->base.last[i].move;
        m->nmine = 1;
        m->have_prev = 1;
    }
    return m->base.last[i].move;
}

/* A new game: nothing of the last tree applies. */
static void ismcts_newgame(kontor_agent *a, const kontor_view *v) {
    (void)v;
    ((ismcts_impl *)a->impl)->have_prev = 0;
    ((ismcts_impl *)a->impl)->banked = 0;
    if (((ismcts_impl *)a->impl)->bel) ai_belief_reset(((ismcts_impl *)a->impl)->bel);
}

static void ismcts_destroy(void *impl) {
    ismcts_impl *m = impl;
    if (!m) return;
    if (m->trees)
        for (int t = 0; t < m->threads; t++) {
            free(m->trees[t].mem);
            free(m->trees[t].mark);
            free(m->trees[t].idx);
            free(m->trees[t].hit);
            free(m->trees[t].logs);
            free(m->trees[t].mast);
            free(m->trees[t].map);
            free(m->trees[t].stack);
            free(m->trees[t].arm);
            free(m->trees[t].anm);
            free(m->trees[t].apos);
            free(m->trees[t].aseen);
            free(m->trees[t].d);
            free(m->trees[t].mx);
            ix_free(&m->trees[t].eix);
        }
    free(m->trees);
    free(m->sh);
    free(m->rs);
    if (m->ss) {
        pthread_mutex_destroy(&m->ss->mu);
        pthread_cond_destroy(&m->ss->cv);
        free(m->ss->d);
    }
    free(m->ss);
    free(m->bel);
    free(m);
}

static const ai_opt ismcts_opts[] = {
    {"iters", AI_OPT_U64, offsetof(ismcts_impl, iters), 1, 1e9},
    {"ms", AI_OPT_INT, offsetof(ismcts_impl, ms), 1, 3600000},
    {"stop", AI_OPT_INT, offsetof(ismcts_impl, stop), 0, 1},
    {"threads", AI_OPT_INT, offsetof(ismcts_impl, threads), 1, 64},
    {"vl", AI_OPT_INT, offsetof(ismcts_impl, vl), 1, 1000},
    {"merge", AI_OPT_INT, offsetof(ismcts_impl, merge), 1, 1000000},
    {"mopp", AI_OPT_INT, offsetof(ismcts_impl, mopp), 0, 1},
    {"depth", AI_OPT_INT, offsetof(ismcts_impl, depth), 1, 2},
    {"c", AI_OPT_DOUBLE, offsetof(ismcts_impl, c), 0, 100},
    {"rounds", AI_OPT_INT, offsetof(ismcts_impl, po.rounds), 0, 1000},
    {"scale", AI_OPT_FLOAT, offsetof(ismcts_impl, po.scale), 0, 1000},
    {"policy", AI_OPT_INT, offsetof(ismcts_impl, po.policy), 0, 1},
    {"ship", AI_OPT_FLOAT, offsetof(ismcts_impl, po.ship_move), 0, 1},
    {"place", AI_OPT_FLOAT, offsetof(ismcts_impl, po.place), 0, 1},
    {"mast", AI_OPT_FLOAT, offsetof(ismcts_impl, po.mast), 0, 1},
    {"pass", AI_OPT_FLOAT, offsetof(ismcts_impl, po.pass), 0, 1},
    {"gamma", AI_OPT_FLOAT, offsetof(ismcts_impl, gamma), 0, 1},
    {"floor", AI_OPT_DOUBLE, offsetof(ismcts_impl, floor), 0, 1},
    {"shrink", AI_OPT_DOUBLE, offsetof(ismcts_impl, shrink), 0, 1e9},
    {"order", AI_OPT_INT, offsetof(ismcts_impl, order), 0, 1},
    {"margin", AI_OPT_DOUBLE, offsetof(ismcts_impl, margin), 0, 1},
    {"ebias", AI_OPT_DOUBLE, offsetof(ismcts_impl, ebias), 0, 100},
    {"eorder", AI_OPT_INT, offsetof(ismcts_impl, eorder), 0, 100},
    {"pb", AI_OPT_DOUBLE, offsetof(ismcts_impl, pb), 0, 100},
    {"keep", AI_OPT_DOUBLE, offsetof(ismcts_impl, keep), 0, 1},
    {"prior", AI_OPT_DOUBLE, offsetof(ismcts_impl, prior), 0, 100},
    {"reuse", AI_OPT_INT, offsetof(ismcts_impl, reuse), 0, 1},
    {"shipw", AI_OPT_INT, offsetof(ismcts_impl, shipw), 0, 1000000},
    {"bank", AI_OPT_INT, offsetof(ismcts_impl, bank), 0, 1},
    {"seq", AI_OPT_DOUBLE, offsetof(ismcts_impl, seq), 0.05, 1},
    {"remove", AI_OPT_INT, offsetof(ismcts_impl, po.remove), 0, 1},
    {"rave", AI_OPT_DOUBLE, offsetof(ismcts_impl, rave), 0, 1e9},
    {"belief", AI_OPT_INT, offsetof(ismcts_impl, belief), 0, 1000},
    {"beta", AI_OPT_DOUBLE, offsetof(ismcts_impl, beta), 0, 100},
    {"bnum", AI_OPT_DOUBLE, offsetof(ismcts_impl, bnum), -100, 100},
};

/* The options that take words: sim=uct|rm|exp3, final=max|visits|nash. */
static int word_opt(kontor_agent *a, const char *key, const char *val, const char *const *words, int nwords,
                    int *out, kontor_error *err) {
    for (int i = 0; i < nwords; i++)
        if (strcmp(val, words[i]) == 0) {
            *out = i;
            return 0;
        }
    ai_fail(err, KONTOR_E_PARSE, "agent '%s': option '%s' wants %s%s%s%s%s, not '%s'", a->name, key, words[0],
            nwords > 1 ? "|" : "", nwords > 1 ? words[1] : "", nwords > 2 ? "|" : "", nwords > 2 ? words[2] : "",
            val);
    return -1;
}

static int ismcts_opt(void *ctx, const char *key, const char *val, kontor_error *err) {
    kontor_agent *a = ctx;
    ismcts_impl *m = a->impl;
    static const char *const sims[] = {"uct", "rm", "exp3"}, *const finals[] = {"max", "visits", "nash"},
                             *const clocks[] = {"wall", "cpu"}, *const pars[] = {"tree", "root", "sync"};
    if (strcmp(key, "par") == 0) return word_opt(a, key, val, pars, 3, &m->par, err);
    if (strcmp(key, "clock") == 0) return word_opt(a, key, val, clocks, 2, &m->clock, err);
    if (strcmp(key, "sim") == 0) return word_opt(a, key, val, sims, 3, &m->sim, err);
    if (strcmp(key, "final") == 0) return word_opt(a, key, val, finals, 3, &m->final, err);
    if (ai_opt_set(a->name, "ismcts", ismcts_opts, sizeof ismcts_opts / sizeof *ismcts_opts, m, key, val, err))
        return -1;
    if (strcmp(key, "iters") == 0) m->ms = 0; /* the last budget given counts */
    return 0;
}

int ai_ismcts_init(kontor_agent *a, const char *opts, kontor_error *err) {
    ismcts_impl *m = calloc(1, sizeof *m);
    if (!m) {
        ai_fail(err, KONTOR_E_RANGE, "agent '%s': out of memory", a->name);
        return -1;
    }
    m->base.rank = ismcts_rank;
    m->base.destroy = ismcts_destroy;
    m->iters = 10000;
    m->threads = 1;
    m->par = PAR_TREE;
    m->vl = 1;
    m->merge = 64;
    m->depth = 1;
    m->stop = 1;
    m->c = 0.7;
    m->margin = -1; /* playout.c's result */
    m->seq = 1;
    m->sim = SIM_UCT;
    m->final = FINAL_MAX;
    m->shrink = MX_PRIOR;
    m->gamma = 0.1f;
    m->beta = 1.0;
    m->po.rounds = 0;
    m->po.place = 0.0f;
    m->po.mast = -1.0f; /* by variant: playout.c */
    m->po.scale = 0.0f; /* by variant: playout.c */
    m->po.policy = 1;
    m->po.ship_move = 1.0f;
    m->po.pass = -1.0f; /* a declared pass as often as the old hidden pass: playout.c */
    a->impl = m;
    if (ai_parse_opts(a->name, opts, ismcts_opt, a, err)) {
        free(m);
        a->impl = NULL;
        return -1;
    }
    /* the tree's move ordering and bias read the MAST averages: keep them
     * even where the playouts do not use them (the advanced game) */
    m->po.record = m->order || m->pb > 0 || m->keep > 0;
    if (m->belief > 0) { /* belief=K: the rounds remembered across the game's decisions */
        if (!(m->bel = calloc(1, sizeof *m->bel))) {
            free(m);
            a->impl = NULL;
            ai_fail(err, KONTOR_E_RANGE, "agent '%s': out of memory", a->name);
            return -1;
        }
        m->bel->tries = m->belief;
        m->bel->beta = m->beta;
        m->bel->bnum = m->bnum;
    }
    /* each thread's tree on cache lines of its own (tree is _Alignas(64)) */
    m->trees = aligned_alloc(_Alignof(tree), (size_t)m->threads * sizeof *m->trees);
    if (m->trees) memset(m->trees, 0, (size_t)m->threads * sizeof *m->trees);
    if (m->par == PAR_TREE && m->threads > 1 && (m->sh = aligned_alloc(64, sizeof *m->sh)) != NULL)
        for (int i = 0; i < NLOCKS; i++) atomic_init(&m->sh->lock[i].f, 0);
    if (m->par != PAR_TREE && m->threads > 1 && (m->rs = aligned_alloc(64, sizeof *m->rs)) != NULL)
        memset(m->rs, 0, sizeof *m->rs);
    if (m->par == PAR_SYNC && m->threads > 1 && (m->ss = calloc(1, sizeof *m->ss)) != NULL) {
        pthread_mutex_init(&m->ss->mu, NULL);
        pthread_cond_init(&m->ss->cv, NULL);
    }
    int deep = m->ss && m->trees && m->depth == 2; /* depth=2: the next level's tables */
    if (deep && (m->ss->d = calloc(1, sizeof *m->ss->d)) != NULL)
        for (int t = 0; t < m->threads; t++)
            if (!(m->trees[t].d = calloc(1, sizeof *m->trees[t].d))) deep = -1;
    if (!m->trees || (m->par == PAR_TREE && m->threads > 1 && !m->sh) ||
        (m->par != PAR_TREE && m->threads > 1 && !m->rs) || (m->par == PAR_SYNC && m->threads > 1 && !m->ss) ||
        (deep && (!m->ss->d || deep < 0))) {
        if (m->trees)
            for (int t = 0; t < m->threads; t++) free(m->trees[t].d);
        if (m->ss) free(m->ss->d);
        free(m->trees);
        free(m->sh);
        free(m->rs);
        if (m->ss) {
            pthread_mutex_destroy(&m->ss->mu);
            pthread_cond_destroy(&m->ss->cv);
        }
        free(m->ss);
        free(m->bel);
        free(m);
        a->impl = NULL;
        ai_fail(err, KONTOR_E_RANGE, "agent '%s': out of memory", a->name);
        return -1;
    }
    a->decide = ismcts_decide;
    a->newgame = ismcts_newgame;
    a->release = ai_release;
    return 0;
}
