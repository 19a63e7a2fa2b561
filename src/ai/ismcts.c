/* ismcts.c: Information Set Monte Carlo Tree Search (Cowling, Powley and
 * Whitehouse 2012, "single observer" form) with decoupled UCT at the
 * simultaneous card choice.
 *
 * The player cannot see the opponent's hand nor the order of the piles, so
 * there is no one game tree to search. Each iteration therefore deals one
 * determinization of the view (kontor_determinize: the unseen cards at
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
 * table indexed by (seat, move), so a visit costs O(children + legal). Root
 * parallelism: threads=N grows N independent trees on N cores, each with its
 * own generator and its share of the iterations, and sums the root
 * statistics; with an iteration budget the result does not depend on timing.
 *
 * Options: iters=N (iterations per decision, default 10000), ms=N (time per
 * decision instead), threads=N (default 1), c=X (exploration, default 0.7);
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
 * 18; floor=P keeps only the choices with at least P x the top visits). Defaults uct and max, today's play. Sequential decisions are always
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
 * and the playout's remove=1 (playout.c).
 */
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ai/ai.h"
#include "ai/reuse.h"

enum { N_SEQ = 0, N_STAT = 1, N_JOINT = 2 };

typedef struct node {
    uint32_t child;   /* first child, 0 for none (index 0 is never a node) */
    uint32_t sibling; /* next child of the same parent */
    uint32_t key;     /* JOINT: the acting seats' choice values, 8 bits each */
    uint32_t visits;
    uint32_t avail;   /* times it was selectable when its parent was visited */
    float reward;     /* sum of the results for the team of seat */
    float acc;        /* STAT under sim=rm: cumulative regret; sim=exp3: estimated total reward */
    union {
        uint32_t seen;  /* STAT under sim=rm|exp3: the last iteration (1-based) it was selectable in */
        uint32_t joint; /* a parent (root, SEQ, JOINT; never a STAT): its first JOINT child, 0 for none */
    };
    uint16_t move;
    uint8_t kind;
    uint8_t seat;
} node;

/* Table index of (seat, move): moves are kind<<8 | value, kind in 4 bits. */
#define KEYS_PER_SEAT (16 * 256)
#define NKEYS (KONTOR_MAX_SEATS * KEYS_PER_SEAT)
/* Longest path of tree edges walked in one iteration (a game has a few
 * hundred decisions at most; the tree grows a handful of levels deep). */
#define MAX_PATH 512
/* A tree never grows past this many nodes (28 bytes each, 56 MB); after that
 * the search goes on without expanding. */
#define POOL_LIMIT (1u << 21)
/* log(avail) from a table below this (computed by log(), so the same values) */
#define LOGS_N 8192

typedef struct tree {
    node *pool;
    uint32_t cap, n;
    kontor_rng rng;
    uint32_t stamp;
    uint32_t *mark; /* NKEYS stamps */
    uint32_t *idx;  /* NKEYS node indices, valid where mark == stamp */
    double *logs;   /* LOGS_N values: logs[i] = log(i), the UCB's log(avail) without a call */
    uint64_t iters;
    /* work order */
    const kontor_view *v;
    uint64_t budget;    /* iterations, or 0 for a deadline */
    double deadline;
    int stop;           /* with a deadline: stop once the decision is settled */
    int cpu;            /* clock=cpu: the deadline is in this thread's CPU time */
    double span;        /* clock=cpu: the budget in seconds */
    float c;
    int sim;        /* selection at a simultaneous node: SIM_UCT, SIM_RM, SIM_EXP3 */
    float gamma;    /* sim=rm|exp3: the share of uniform exploration */
    ai_playout_opts po;
    ai_mast *mast;  /* with po.mast (or po.record): the move averages of this search */
    int order;      /* order=1: expand the untried placement with the best MAST average */
    float pb;       /* pb=W: progressive bias W x MAST average / (visits + 1) at placements */
    float keep;     /* keep=D: the MAST averages carry over to the next decision x D */
    float prior;    /* prior=W: at a root placement, bias W x g / (visits + 1), g from the evaluation */
    int eorder;     /* eorder=K: expand the best by the evaluation of K untried placements */
    float margin;   /* margin=X: the result's weight of the point margin (default 0.1, playout.c's) */
    int shipw;      /* shipw=K: at a ship or removal node, only the policy's moves until K visits */
    float ebias;    /* ebias=W: at every placement, all cells at once, in g order, bias W x g / (visits + 1) */
    /* an opponent model (ai_ismcts_rank_against): nfixed states consistent
     * with the view and, per state, every seat's modelled choice at the root */
    const kontor_state *fixed;
    const kontor_move *fixed_moves; /* nfixed x KONTOR_MAX_SEATS */
    int nfixed;
    /* reuse=1: this decision starts from the subtree kept from the last one */
    int reused;
    uint32_t *map; /* reuse=1: cap entries of scratch for keep_subtree */
} tree;

enum { SIM_UCT = 0, SIM_RM = 1, SIM_EXP3 = 2 };
enum { FINAL_MAX = 0, FINAL_VISITS = 1 };

typedef struct ismcts_impl {
    ai_base base;
    uint64_t iters;
    int ms, threads;
    int stop; /* early stop under ms= (threads=1 only): stop=0|1, default 1 */
    int clock; /* ms= counts wall time (clock=wall, default) or each thread's CPU time (clock=cpu) */
    int sim, final;
    float gamma;
    double floor; /* final=visits: drop choices below floor x the top visits */
    double c;
    int order, eorder, shipw;
    double pb, keep, prior, ebias, margin;
    ai_playout_opts po;
    /* reuse=1: the view the last search was for and the seat's decisions
     * since (reuse.c), and the address found for the next search */
    int reuse, have_prev, nmine;
    kontor_view prev;
    kontor_move mine[AI_REUSE_MAX];
    const ai_reuse_path *path;
    /* bank=1, seq=F: the budget moved between decisions (decide): what a
     * sequential decision does not use (seq=F keeps only F of it; the
     * early stop) waits in the bank for the next simultaneous one; in ms
     * or iterations as the budget is. grant: this decision's budget, 0 for
     * the plain one. */
    int bank;
    double seq, banked, grant;
    tree *trees; /* threads of them */
    uint64_t total_iters;
    double total_seconds;
} ismcts_impl;

static uint32_t alloc_node(tree *T, uint32_t parent, int kind, int seat, kontor_move move, uint32_t key) {
    if (T->n >= T->cap) return 0;
    uint32_t i = T->n++;
    node *x = &T->pool[i];
    memset(x, 0, sizeof *x);
    x->kind = (uint8_t)kind;
    x->seat = (uint8_t)seat;
    x->move = move;
    x->key = key;
    /* JOINT children on a list of their own: select_edge walks the edges
     * (SEQ, STAT) of a node, find_joint its joint children, neither the other's */
    uint32_t *head = kind == N_JOINT ? &T->pool[parent].joint : &T->pool[parent].child;
    x->sibling = *head;
    *head = i;
    return i;
}

/* Regret matching (Hart and Mas-Colell 2000) or EXP3 (Auer et al. 2002) at
 * a simultaneous node, as in Lanctot, Lisy and Winands 2014 ("Monte Carlo
 * tree search in simultaneous move games with applications to Goofspiel"):
 * the seat's strategy over its selectable edges is the positive regrets
 * normalised (rm) or exp(eta x estimated reward) normalised (exp3, eta =
 * gamma / K), mixed with gamma uniform; one edge is drawn from it and its
 * probability kept for the update (update_sampled). The edges drawn count
 * visits as under UCT, so the visit shares estimate the average strategy,
 * which is what final=visits plays. */
static uint32_t select_sampled(tree *T, const uint32_t *cand, int nc, float *prob) {
    node *pool = T->pool;
    double w[KONTOR_MAX_MOVES], sum = 0, top = -1e300;
    uint32_t it = (uint32_t)T->iters + 1;
    for (int i = 0; i < nc; i++) {
        node *x = &pool[cand[i]];
        x->avail++;
        x->seen = it;
        if (x->acc > top) top = x->acc;
    }
    double eta = T->gamma / nc;
    for (int i = 0; i < nc; i++) {
        const node *x = &pool[cand[i]];
        w[i] = T->sim == SIM_RM ? (x->acc > 0 ? x->acc : 0) : exp(eta * (x->acc - top));
        sum += w[i];
    }
    double g = T->gamma, r = (double)(kontor_rng_next(&T->rng) >> 11) * 0x1.0p-53, acc = 0;
    int pick = nc - 1;
    double p = 0;
    for (int i = 0; i < nc; i++) {
        double pi = (1 - g) * (sum > 0 ? w[i] / sum : 1.0 / nc) + g / nc;
        acc += pi;
        if (r < acc) {
            pick = i;
            p = pi;
            break;
        }
        p = pi;
    }
    *prob = (float)p;
    return cand[pick];
}

/* The update after the playout for the edge e drawn by select_sampled under
 * parent with probability p, x the result for its seat: rm adds to every edge
 * selectable this iteration the sampled regret (x / p for the drawn edge,
 * 0 for the others, minus x); exp3 adds x / p to the drawn edge. */
static void update_sampled(tree *T, uint32_t parent, uint32_t e, float p, float x) {
    node *pool = T->pool;
    float gain = p > 0 ? x / p : 0;
    if (T->sim == SIM_RM) {
        uint32_t it = (uint32_t)T->iters + 1;
        for (uint32_t f = pool[parent].child; f; f = pool[f].sibling)
            if (pool[f].kind == N_STAT && pool[f].seat == pool[e].seat && pool[f].seen == it) pool[f].acc -= x;
    }
    pool[e].acc += gain;
}

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

/* ebias=W: the first time the search passes a placement node (or meets a
 * cell it has no edge for) every legal cell gets its edge at once, with
 * g = exp((e - best e) / 10) in acc, e the evaluation after it (as
 * root_prior does at the root, at every depth): one evaluation per cell and
 * node, not per expansion. select_edge then tries the unvisited cells in the
 * order of g and adds W x g / (visits + 1) to UCB. Returns 0 when the pool
 * is full. */
static int ebias_expand(tree *T, const kontor_state *s, uint32_t parent, int seat, const kontor_move *moves, int n) {
    double e[KONTOR_MAX_MOVES], best = -1e300;
    for (int i = 0; i < n; i++) {
        kontor_state c = *s;
        e[i] = kontor_apply(&c, seat, moves[i], NULL) == KONTOR_OK ? ai_eval(&c, seat) : -1e300;
        if (e[i] > best) best = e[i];
    }
    uint32_t st = T->stamp; /* the marks select_edge just set: the cells with an edge */
    for (int i = 0; i < n; i++) {
        uint32_t k = (uint32_t)seat * KEYS_PER_SEAT + moves[i];
        if (k < NKEYS && T->mark[k] == st) continue;
        uint32_t x = alloc_node(T, parent, N_SEQ, seat, moves[i], 0);
        if (!x) return 0;
        T->pool[x].acc = (float)exp((e[i] - best) / 10.0);
        if (k < NKEYS) T->mark[k] = st, T->idx[k] = x;
    }
    return 1;
}

/* Pick seat's edge of kind (SEQ or STAT) under parent among the legal moves.
 * SEQ: an untried move is expanded (one new node, *expanded = 1); STAT: all
 * missing edges are added and an unvisited one goes first. Otherwise UCB
 * over the available edges. Returns 0 when the pool is full and a new node
 * would be needed. */
static uint32_t select_edge(tree *T, const kontor_state *s, uint32_t parent, int kind, int seat,
                            const kontor_move *moves, int n, int *expanded, float *prob) {
    node *pool = T->pool;
    kontor_move useful[KONTOR_MAX_MOVES];
    if (T->shipw && kind == N_SEQ && (s->phase == KONTOR_PHASE_SHIP || s->phase == KONTOR_PHASE_REMOVE) &&
        pool[parent].visits < (uint32_t)T->shipw) {
        /* shipw=K, progressive widening: until the node has K visits only
         * the moves the ship policy could make are candidates */
        int k = 0;
        for (int i = 0; i < n; i++)
            if (ai_ship_useful(s, seat, moves[i])) useful[k++] = moves[i];
        if (k > 0) moves = useful, n = k;
    }
    uint32_t st = ++T->stamp;
    if (st == 0) { /* wrapped: clear the table once every 4 billion visits */
        memset(T->mark, 0, NKEYS * sizeof *T->mark);
        st = T->stamp = 1;
    }
    for (uint32_t e = pool[parent].child; e; e = pool[e].sibling) {
        if (pool[e].kind != kind || pool[e].seat != seat) continue;
        uint32_t k = (uint32_t)seat * KEYS_PER_SEAT + pool[e].move;
        T->mark[k] = st;
        T->idx[k] = e;
    }
    uint32_t cand[KONTOR_MAX_MOVES];
    int nuntried = 0;
    kontor_move untried[KONTOR_MAX_MOVES];
    int nc = 0;
    for (int i = 0; i < n; i++) {
        uint32_t k = (uint32_t)seat * KEYS_PER_SEAT + moves[i];
        if (k < NKEYS && T->mark[k] == st) cand[nc++] = T->idx[k];
        else untried[nuntried++] = moves[i];
    }
    int ebias = T->ebias > 0 && kind == N_SEQ && s->phase == KONTOR_PHASE_PLACE && n > 1;
    if (ebias && nuntried) {
        if (!ebias_expand(T, s, parent, seat, moves, n)) return 0;
        nc = 0;
        for (int i = 0; i < n; i++) {
            uint32_t k = (uint32_t)seat * KEYS_PER_SEAT + moves[i];
            if (k < NKEYS && T->mark[k] == st) cand[nc++] = T->idx[k];
        }
        nuntried = 0;
    }
    if (kind == N_SEQ && nuntried) {
        kontor_move m = untried[kontor_rng_below(&T->rng, (uint32_t)nuntried)];
        if (T->order && T->mast && s->phase == KONTOR_PHASE_PLACE)
            m = untried[ai_order_untried(s, seat, untried, nuntried, T->mast, &T->rng)];
        else if (T->eorder > 0 && nuntried > 1 && s->phase == KONTOR_PHASE_PLACE)
            m = untried[ai_eval_order_untried(s, seat, untried, nuntried, T->eorder, &T->rng)];
        for (int i = 0; i < nc; i++) T->pool[cand[i]].avail++;
        uint32_t e = alloc_node(T, parent, N_SEQ, seat, m, 0);
        if (!e) return 0;
        T->pool[e].avail = 1;
        *expanded = 1;
        return e;
    }
    if (kind == N_STAT)
        for (int i = 0; i < nuntried; i++) {
            uint32_t e = alloc_node(T, parent, N_STAT, seat, untried[i], 0);
            if (!e) return 0;
            cand[nc++] = e;
        }
    if (kind == N_STAT && T->sim != SIM_UCT && nc > 0) return select_sampled(T, cand, nc, prob);
    /* unvisited first (the first in legal order: deterministic), else UCB */
    uint32_t best = 0;
    double bestv = -1.0;
    int bias = T->pb > 0 && T->mast && kind == N_SEQ && s->phase == KONTOR_PHASE_PLACE;
    int eprior = T->prior > 0 && parent == 1 && kind == N_SEQ;
    uint32_t fresh = 0; /* ebias: the unvisited cell of the best evaluation */
    for (int i = 0; i < nc; i++) {
        node *x = &pool[cand[i]];
        x->avail++;
        if (x->visits == 0) {
            if (ebias) {
                if (!fresh || x->acc > pool[fresh].acc) fresh = cand[i];
            } else if (bestv < 1e30) best = cand[i], bestv = 1e30;
            continue;
        }
        double la = x->avail < LOGS_N ? T->logs[x->avail] : log((double)x->avail);
        double u = x->reward / x->visits + T->c * sqrt(la / x->visits);
        if (bias) u += T->pb * ai_mast_value(s, seat, x->move, T->mast) / (x->visits + 1);
        if (eprior) u += T->prior * x->acc / (x->visits + 1);
        if (ebias) u += T->ebias * x->acc / (x->visits + 1);
        if (u > bestv) best = cand[i], bestv = u;
    }
    if (fresh) { /* a new cell: the playout starts after it */
        *expanded = 1;
        return fresh;
    }
    return best;
}

/* The phases in which the seats decide at the same moment, hidden from each
 * other: the declarations of who passes (R1), the card choice, buying special
 * cards (scenario "specials"), and the scenarios' bribes (Bakschisch) and
 * hand picks (Justizia). */
static int simultaneous(const kontor_state *s) {
    return s->phase == KONTOR_PHASE_CHOOSE || s->phase == KONTOR_PHASE_DECLARE || s->phase == KONTOR_PHASE_BUY ||
           s->phase == KONTOR_PHASE_BRIBE || s->phase == KONTOR_PHASE_SELECT;
}

/* A joint child is keyed by the phase (in its seat field) and the picks.
 * The one found moves to the front of its list: the search returns to a few
 * pairs of picks most of the time, and a node has up to 13 x 13 of them.
 * (The list's order decides nothing else: a key is on it once.) */
static uint32_t find_joint(tree *T, uint32_t parent, int phase, uint32_t key) {
    node *pool = T->pool;
    for (uint32_t e = pool[parent].joint, prev = 0; e; prev = e, e = pool[e].sibling)
        if (pool[e].seat == phase && pool[e].key == key) {
            if (prev) {
                pool[prev].sibling = pool[e].sibling;
                pool[e].sibling = pool[parent].joint;
                pool[parent].joint = e;
            }
            return e;
        }
    return 0;
}

/* margin=X: the result of a finished playout as (1 - X) x (win 1, draw
 * 1/2, loss 0) + X x the point margin (clamped to +-5, mapped to [0, 1]).
 * playout.c's result is X = 0.1; a larger X makes the search care more for
 * the margin, a smoother signal at a small budget. */
void ai_result_margin(const kontor_state *s, float x, float r[2]) {
    for (int t = 0; t < 2; t++) {
        float wdl = s->winner == t ? 1.0f : s->winner < 0 ? 0.5f : 0.0f;
        int m = (int)s->score[t] - (int)s->score[1 - t];
        if (m > 5) m = 5;
        if (m < -5) m = -5;
        r[t] = (1.0f - x) * wdl + x * (0.5f + (float)m / 10.0f);
    }
}

static void iterate(tree *T) {
    const kontor_view *v = T->v;
    kontor_state st;
    int k = -1;
    if (T->nfixed) {
        k = (int)kontor_rng_below(&T->rng, (uint32_t)T->nfixed);
        st = T->fixed[k];
    } else kontor_determinize(v, &T->rng, &st);
    uint32_t path[MAX_PATH], from[MAX_PATH];
    float prob[MAX_PATH];
    int np = 0;
    uint32_t cur = 1;
    int expanded = 0;
    kontor_move moves[KONTOR_MAX_MOVES];
    while (!expanded && st.phase != KONTOR_PHASE_OVER && np < MAX_PATH - KONTOR_MAX_SEATS - 1) {
        unsigned actors = kontor_actors(&st);
        if (simultaneous(&st)) {
            int phase = st.phase;
            kontor_move pick[KONTOR_MAX_SEATS];
            uint32_t key = 0;
            int full = 0;
            for (int q = 0; q < st.cfg.nseats; q++) {
                if (!((actors >> q) & 1)) continue;
                if (k >= 0 && cur == 1 && q != v->seat) { /* the modelled opponent */
                    pick[q] = T->fixed_moves[k * KONTOR_MAX_SEATS + q];
                    key |= (uint32_t)KONTOR_MOVE_VALUE(pick[q]) << (8 * q);
                    continue;
                }
                int n = kontor_legal(&st, q, moves);
                float p = 0;
                uint32_t e = select_edge(T, &st, cur, N_STAT, q, moves, n, &expanded, &p);
                if (!e) {
                    full = 1;
                    pick[q] = moves[kontor_rng_below(&T->rng, (uint32_t)n)];
                } else {
                    pick[q] = T->pool[e].move;
                    from[np] = cur;
                    prob[np] = p;
                    path[np++] = e;
                }
                key |= (uint32_t)KONTOR_MOVE_VALUE(pick[q]) << (8 * q);
            }
            /* decoupled: the picks were made independently; now apply them */
            for (int q = 0; q < st.cfg.nseats; q++)
                if ((actors >> q) & 1) kontor_apply(&st, q, pick[q], NULL);
            if (full) break;
            uint32_t j = find_joint(T, cur, phase, key);
            if (!j) {
                j = alloc_node(T, cur, N_JOINT, phase, 0, key);
                if (!j) break;
                expanded = 1;
            }
            T->pool[j].visits++;
            cur = j;
        } else {
            int q = 0;
            while (q < KONTOR_MAX_SEATS - 1 && !((actors >> q) & 1)) q++;
            int n = kontor_legal(&st, q, moves);
            if (n <= 0) break;
            uint32_t e = select_edge(T, &st, cur, N_SEQ, q, moves, n, &expanded, NULL);
            if (!e) break;
            kontor_apply(&st, q, T->pool[e].move, NULL);
            from[np] = cur;
            prob[np] = 0;
            path[np++] = e;
            cur = e;
        }
    }
    float r[2];
    ai_playout_mast(&st, &T->rng, &T->po, T->mast, r);
    if (T->margin >= 0 && st.phase == KONTOR_PHASE_OVER) ai_result_margin(&st, T->margin, r);
    T->pool[1].visits++;
    for (int i = 0; i < np; i++) {
        node *x = &T->pool[path[i]];
        x->visits++;
        x->reward += r[kontor_team(&st, x->seat)];
        if (x->kind == N_STAT && T->sim != SIM_UCT) update_sampled(T, from[i], path[i], prob[i], r[kontor_team(&st, x->seat)]);
    }
    T->iters++;
}

/* Early stop under a time budget: the decision is the most visited root
 * action, so once its lead over the runner-up is larger than the number of
 * iterations the rest of the time could still run, more search cannot change
 * it (Huang, Coulom and Lin 2010, "Time management for Monte-Carlo tree
 * search in Go"). The remaining iterations are estimated from this search's
 * own rate, with a margin of a half. Only with threads=1: with several
 * trees the decision is the sum of their root visits, which no one tree can
 * settle alone. ai_settled is the test itself, apart for the tests. */
int ai_settled(uint32_t first, uint32_t second, uint64_t iters, double spent, double left) {
    if (spent <= 0 || iters < 64 || first <= second) return 0;
    double more = (double)iters / spent * (left > 0 ? left : 0) * 1.5 + 16;
    return (double)(first - second) > more;
}

static int settled(const tree *T, double t0, double now) {
    const kontor_view *v = T->v;
    int kind = simultaneous(&v->s) ? N_STAT : N_SEQ;
    uint32_t first = 0, second = 0; /* an untried move counts 0 visits */
    for (uint32_t e = T->pool[1].child; e; e = T->pool[e].sibling) {
        const node *x = &T->pool[e];
        if (x->kind != kind || x->seat != v->seat) continue;
        if (x->visits > first) second = first, first = x->visits;
        else if (x->visits > second) second = x->visits;
    }
    return ai_settled(first, second, T->iters, now - t0, T->deadline - now);
}

/* prior=W: at a root placement every legal cell gets its edge before the
 * search, with g = exp((e - best e) / 10) in acc (e: the evaluation, eval.c,
 * of the position after it; 10 = one area), so g is 1 for the cell greedy
 * would take and 1/e for one an area worse. UCB adds W x g / (visits + 1)
 * (progressive bias, Chaslot et al. 2008): at a small budget the search
 * starts from greedy's judgement instead of a uniform one, and the bias
 * fades as the visits come in. The evaluation reads public facts only, so
 * one determinization serves for all. */
static void root_prior(tree *T) {
    const kontor_view *v = T->v;
    if (T->prior <= 0 || v->s.phase != KONTOR_PHASE_PLACE) return;
    kontor_move moves[KONTOR_MAX_MOVES];
    int n = kontor_legal(&v->s, v->seat, moves);
    if (n <= 1) return;
    kontor_state d;
    kontor_determinize(v, &T->rng, &d);
    double e[KONTOR_MAX_MOVES], best = -1e300;
    for (int i = 0; i < n; i++) {
        kontor_state c = d;
        e[i] = kontor_apply(&c, v->seat, moves[i], NULL) == KONTOR_OK ? ai_eval(&c, v->seat) : -1e300;
        if (e[i] > best) best = e[i];
    }
    for (int i = 0; i < n; i++) {
        uint32_t x = alloc_node(T, 1, N_SEQ, v->seat, moves[i], 0);
        if (!x) return;
        T->pool[x].acc = (float)exp((e[i] - best) / 10.0);
    }
}

/* The clock of a time budget: wall time, or under clock=cpu the CPU time of
 * the calling thread, so that a search on a loaded machine gets the same
 * work done per decision as on an idle one (what equal-time comparisons on
 * a shared machine need; docs/ai.md). */
static double clock_of(int cpu) {
    if (!cpu) return ai_now();
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* reuse=1: make node x the root, keeping its subtree and dropping the rest
 * of the tree, in place. A child is always allocated after its parent, so
 * one pass upwards from x marks the subtree, a second numbers it (every new
 * index is below the old one) and a third moves each node down with its
 * links renumbered. STAT nodes' iteration stamps (sim=rm|exp3) restart. */
static void keep_subtree(tree *T, uint32_t x) {
    node *pool = T->pool;
    uint32_t *map = T->map, n = T->n;
    memset(map + x, 0, (size_t)(n - x) * sizeof *map);
    map[x] = 1;
    for (uint32_t i = x; i < n; i++) {
        if (!map[i]) continue;
        for (uint32_t c = pool[i].child; c; c = pool[c].sibling) map[c] = 1;
        if (pool[i].kind != N_STAT)
            for (uint32_t c = pool[i].joint; c; c = pool[c].sibling) map[c] = 1;
    }
    uint32_t next = 2;
    for (uint32_t i = x; i < n; i++)
        if (map[i]) map[i] = i == x ? 1 : next++;
    for (uint32_t i = x; i < n; i++) {
        if (!map[i]) continue;
        node y = pool[i];
        y.child = y.child ? map[y.child] : 0;
        y.sibling = i == x || !y.sibling ? 0 : map[y.sibling];
        if (y.kind == N_STAT) y.seen = 0;
        else y.joint = y.joint ? map[y.joint] : 0;
        pool[map[i]] = y;
    }
    T->n = next;
}

/* reuse=1: the node of the last tree at the address p (reuse.c) for seat;
 * its subtree becomes the tree (returns 1), or 0 when the last search never
 * went there. */
static int reuse_tree(tree *T, const ai_reuse_path *p, int seat) {
    if (!T->map || T->n <= 2) return 0;
    uint32_t cur = 1;
    if (p->joint) cur = find_joint(T, 1, p->phase, p->key);
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

static void *run_tree(void *arg) {
    tree *T = arg;
    if (T->cpu) T->deadline = clock_of(1) + T->span;
    if (!T->reused) {
        T->n = 2; /* 0 is "none", 1 the root */
        memset(&T->pool[1], 0, sizeof T->pool[1]);
        root_prior(T);
    }
    T->iters = 0;
    if (T->mast && T->keep > 0) { /* keep=D: last decision's averages, weighed down */
        for (int k = 0; k < AI_MAST_KEYS; k++) {
            uint32_t n = (uint32_t)(T->mast->n[k] * T->keep);
            T->mast->sum[k] = T->mast->n[k] ? T->mast->sum[k] * (float)n / (float)T->mast->n[k] : 0.0f;
            T->mast->n[k] = n;
        }
    } else if (T->mast) memset(T->mast, 0, sizeof *T->mast);
    if (T->budget) {
        for (uint64_t i = 0; i < T->budget; i++) iterate(T);
    } else {
        double t0 = clock_of(T->cpu), now;
        do {
            for (int i = 0; i < 16; i++) iterate(T);
            now = clock_of(T->cpu);
        } while (now < T->deadline && !(T->stop && settled(T, t0, now)));
    }
    return NULL;
}

static int ensure_trees(kontor_agent *a) {
    ismcts_impl *m = a->impl;
    uint64_t want = m->ms ? POOL_LIMIT : 24 * (m->iters / (uint64_t)m->threads + 1) * (m->reuse ? 2 : 1) + 4096;
    if (want > POOL_LIMIT) want = POOL_LIMIT;
    for (int t = 0; t < m->threads; t++) {
        tree *T = &m->trees[t];
        if (!T->mark) {
            T->mark = calloc(NKEYS, sizeof *T->mark);
            T->idx = calloc(NKEYS, sizeof *T->idx);
            if (!T->mark || !T->idx) return -1;
        }
        if (!T->logs) {
            if (!(T->logs = malloc(LOGS_N * sizeof *T->logs))) return -1;
            T->logs[0] = 0; /* never read: an edge is available before it is visited */
            for (int i = 1; i < LOGS_N; i++) T->logs[i] = log((double)i);
        }
        if ((m->po.mast != 0.0f || m->po.record) && !T->mast) {
            if (!(T->mast = malloc(sizeof *T->mast))) return -1;
            memset(T->mast, 0, sizeof *T->mast);
        }
        if (T->cap < want) {
            node *p = realloc(T->pool, (size_t)want * sizeof *p);
            if (!p) return -1;
            T->pool = p;
            T->cap = (uint32_t)want;
            if (m->reuse) {
                free(T->map);
                if (!(T->map = malloc((size_t)want * sizeof *T->map))) return -1;
            }
        }
    }
    return 0;
}

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
    if (ensure_trees(a)) {
        snprintf(a->error, sizeof a->error, "agent '%s': out of memory for the search tree", a->name);
        return -1;
    }
    uint64_t base = kontor_rng_next(&a->rng);
    double t0 = ai_now();
    uint64_t reused = 0;
    for (int t = 0; t < m->threads; t++) {
        tree *T = &m->trees[t];
        kontor_rng_seed(&T->rng, base ^ (0x9E3779B97F4A7C15ULL * (uint64_t)(t + 1)));
        T->v = v;
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
        uint64_t iters = m->grant > 0 && !m->ms ? (uint64_t)m->grant : m->iters;
        double ms = m->grant > 0 && m->ms ? m->grant : m->ms;
        T->budget = m->ms ? 0 : iters / (uint64_t)m->threads + ((uint64_t)t < iters % (uint64_t)m->threads);
        if (!m->ms && T->budget == 0) T->budget = 1;
        T->deadline = t0 + ms / 1000.0;
        T->cpu = m->clock;
        T->span = ms / 1000.0;
        T->stop = m->stop && m->threads == 1;
        T->reused = m->path && !fixed ? reuse_tree(T, m->path, seat) : 0;
        if (T->reused)
            for (uint32_t e = T->pool[1].child; e; e = T->pool[e].sibling)
                if (T->pool[e].seat == seat) reused += T->pool[e].visits;
    }
    m->base.reused = reused;
    m->base.nreused += reused > 0;
    m->path = NULL;
    m->have_prev = 0; /* the trees are this search's now */
    pthread_t th[64];
    int started = 0;
    for (int t = 1; t < m->threads; t++) {
        if (pthread_create(&th[t], NULL, run_tree, &m->trees[t]) != 0) break;
        started = t;
    }
    run_tree(&m->trees[0]);
    for (int t = 1; t <= started; t++) pthread_join(th[t], NULL);
    /* threads that could not start run here, in order */
    for (int t = started + 1; t < m->threads; t++) run_tree(&m->trees[t]);
    m->total_seconds += ai_now() - t0;
    for (int t = 0; t < m->threads; t++) m->total_iters += m->trees[t].iters;

    static const int kinds_at_root[2] = {N_SEQ, N_STAT};
    ai_choice ch[KONTOR_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        uint64_t vis = 0;
        double rew = 0;
        for (int t = 0; t < m->threads; t++) {
            tree *T = &m->trees[t];
            for (uint32_t e = T->pool[1].child; e; e = T->pool[e].sibling) {
                node *x = &T->pool[e];
                if (x->seat == seat && x->move == moves[i] &&
                    x->kind == kinds_at_root[simultaneous(&v->s)]) {
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
    if (kontor_legal(&v->s, v->seat, only) == 1) { /* nothing to think about */
        if (m->have_prev && m->nmine < AI_REUSE_MAX) m->mine[m->nmine++] = only[0];
        else m->have_prev = 0;
        return only[0];
    }
    ai_reuse_path path;
    if (m->reuse && m->have_prev && ai_reuse_find(&m->prev, m->mine, m->nmine, v, &a->rng, &path)) m->path = &path;
    int sim = simultaneous(&v->s);
    double unit = m->ms ? (double)m->ms : (double)m->iters, before = 0;
    uint64_t iters0 = m->total_iters;
    if (m->bank) { /* this decision's budget: a share of its own, or its own and the bank */
        m->grant = sim ? unit + m->banked : unit * m->seq;
        if (!sim) m->banked += unit - m->grant;
        else m->banked = 0;
        before = clock_of(m->clock);
    }
    int n = ismcts_rank(a, v, m->base.last, KONTOR_MAX_MOVES);
    m->path = NULL;
    if (m->bank) { /* what the early stop left goes to the bank */
        double used = m->ms ? (clock_of(m->clock) - before) * 1000.0 : (double)(m->total_iters - iters0);
        if (used < m->grant) m->banked += m->grant - used;
        m->grant = 0;
    }
    if (n < 0) return KONTOR_FORFEIT;
    if (n == 0) return ai_random_move(a, v); /* fills a->error */
    m->base.nlast = n;
    int i = 0;
    if (m->final == FINAL_VISITS && simultaneous(&v->s)) {
        /* floor=P: only the choices with at least P times the top visits
         * (the rest is mostly exploration, not strategy) */
        int keep = n;
        while (keep > 1 && (double)m->base.last[keep - 1].visits < m->floor * m->base.last[0].visits) keep--;
        i = ai_pick_by_visits(m->base.last, keep, &a->rng);
    }
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
}

static void ismcts_destroy(void *impl) {
    ismcts_impl *m = impl;
    if (!m) return;
    if (m->trees)
        for (int t = 0; t < m->threads; t++) {
            free(m->trees[t].pool);
            free(m->trees[t].mark);
            free(m->trees[t].idx);
            free(m->trees[t].logs);
            free(m->trees[t].mast);
            free(m->trees[t].map);
        }
    free(m->trees);
    free(m);
}

static const ai_opt ismcts_opts[] = {
    {"iters", AI_OPT_U64, offsetof(ismcts_impl, iters), 1, 1e9},
    {"ms", AI_OPT_INT, offsetof(ismcts_impl, ms), 1, 3600000},
    {"stop", AI_OPT_INT, offsetof(ismcts_impl, stop), 0, 1},
    {"threads", AI_OPT_INT, offsetof(ismcts_impl, threads), 1, 64},
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
};

/* The options that take words: sim=uct|rm|exp3, final=max|visits. */
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
    static const char *const sims[] = {"uct", "rm", "exp3"}, *const finals[] = {"max", "visits"},
                             *const clocks[] = {"wall", "cpu"};
    if (strcmp(key, "clock") == 0) return word_opt(a, key, val, clocks, 2, &m->clock, err);
    if (strcmp(key, "sim") == 0) return word_opt(a, key, val, sims, 3, &m->sim, err);
    if (strcmp(key, "final") == 0) return word_opt(a, key, val, finals, 2, &m->final, err);
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
    m->stop = 1;
    m->c = 0.7;
    m->margin = -1; /* playout.c's result */
    m->seq = 1;
    m->sim = SIM_UCT;
    m->final = FINAL_MAX;
    m->gamma = 0.1f;
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
    m->trees = calloc((size_t)m->threads, sizeof *m->trees);
    if (!m->trees) {
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
