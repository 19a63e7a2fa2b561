/* ismcts_tree.c: how ismcts.c's tree grows. One iteration deals a
 * determinization, walks down the tree by (decoupled) UCB with availability
 * counts, expands one node, plays out and carries the result back; threads
 * share one tree under striped spin locks with a virtual loss (par=tree) or
 * grow one each (par=root). The iteration's hot path is all in this file,
 * so that the selections inline into it; the loop over the iterations is
 * ismcts_run.c's, the subtree kept between searches (reuse=1)
 * ismcts_keep.c's, a placement's move ordering ismcts_order.c's. The why of
 * each choice is in ismcts.c's opening comment and docs/ai.md. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ismcts_tree.h"
#include "core/apply.h"

/* A new node under parent, whose lock the caller holds (par=tree: from this
 * thread's chunk, a new chunk of NCHUNK from the shared counter when it is
 * used up; a child may then have a smaller index than its parent). */
static uint32_t alloc_node(tree *T, uint32_t parent, int kind, int seat, kontor_move move, uint32_t key) {
    uint32_t i;
    if (T->sh) {
        if (T->cnext >= T->cend) {
            if (atomic_load_explicit(&T->sh->n, memory_order_relaxed) >= T->cap) return 0;
            uint32_t c = atomic_fetch_add_explicit(&T->sh->n, NCHUNK, memory_order_relaxed);
            if (c >= T->cap) return 0; /* another thread took the last one */
            T->cnext = c;
            T->cend = T->cap - c > NCHUNK ? c + NCHUNK : T->cap;
        }
        i = T->cnext++;
    } else {
        if (T->n >= T->cap) {
            T->eix.on = 0; /* the edge index's counts may miss what was made before (ismcts_index.h) */
            return 0;
        }
        i = T->n++;
    }
    node *x = &T->pool[i];
    memset(x, 0, sizeof *x);
    if (T->an) T->an[i] = 0, T->ar[i] = 0; /* rave=K's statistics beside it */
    x->kind = (uint8_t)kind;
    x->seat = (uint8_t)seat;
    x->move = move;
    x->key = key;
    /* JOINT children on a list of their own: select_edge walks the edges
     * (SEQ, STAT) of a node, find_joint its joint children, neither the other's */
    uint32_t *head = kind == N_JOINT ? &T->pool[parent].joint : &T->pool[parent].child;
    x->sibling = *head;
    *head = i;
    if (kind != N_SEQ && T->eix.on) ix_add(&T->eix, parent, kind, seat, kind == N_JOINT ? key : move, i);
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
    uint32_t it = T->it;
    for (int i = 0; i < nc; i++) {
        node *x = &pool[cand[i]];
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
        uint32_t it = T->it;
        for (uint32_t f = pool[parent].child; f; f = pool[f].sibling)
            if (pool[f].kind == N_STAT && pool[f].seat == pool[e].seat && pool[f].seen == it) pool[f].acc -= x;
    }
    pool[e].acc += gain;
}

/* ebias=W: the first time the search passes a placement node (or meets a
 * cell it has no edge for) every legal cell gets its edge at once, with
 * g = exp((e - best e) / 10) in acc, e the evaluation after it (as
 * root_prior does at the root, at every depth): one evaluation per cell and
 * node, not per expansion. select_edge then tries the unvisited cells in the
 * order of g and adds W x g / (visits + 1) to UCB. Returns 0 when the pool
 * is full. */
static int ebias_expand(tree *T, const kontor_state *s, uint32_t parent, int seat, const kontor_move *moves, int n,
                        uint32_t birth) {
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
        uint32_t x = alloc_node(T, parent, N_SEQ, seat, moves[i], birth);
        if (!x) return 0;
        T->pool[x].acc = (float)exp((e[i] - best) / 10.0);
        if (k < NKEYS) T->mark[k] = st, T->idx[k] = x;
    }
    return 1;
}

/* A pass of select_edge that chose e: it is counted on the parent's PASS
 * node for (kind, seat) (made at the first pass), and the group's
 * availability with it: counting, each selectable edge (cand, and enew, a
 * new edge not among them) gets one; counting misses, each edge that was
 * there before the pass (from head0 on: new ones go to the front of the
 * list) and not selectable now (hit != stamp) gets a miss. The group then
 * counts the way that would have written less, by a running sum with a
 * margin, converting its edges when it switches (count = passes since
 * birth - misses, either way). Returns e, or 0 when the pool is full. */
#define PASS_SWITCH 64
/* Inline at each of its calls (three a plain iteration): twelve arguments
 * passed and the function's frame cost more than its usual work, and each
 * call's constants (kind, enew, nm) drop the tests that do not apply. */
static inline __attribute__((always_inline)) uint32_t passed_by(tree *T, uint32_t parent, int kind, int seat,
                                                                uint32_t pc, uint32_t head0, const uint32_t *cand,
                                                                int nc, uint32_t enew, int nk, int nm, uint32_t e,
                                                                const int counted) {
    node *pool = T->pool;
    if (!pc && !(pc = alloc_node(T, parent, N_PASS, seat, (kontor_move)kind, 0))) return 0;
    node *p = &pool[pc];
    uint32_t pass = ++p->visits;
    int nsel = nc + (enew != 0);
    if (p->key == 0) {
        if (!counted) /* else the UCB loop counted them (ucb_counted) */
            for (int i = 0; i < nc; i++) pool[cand[i]].miss++;
        if (enew) pool[enew].miss++;
    } else if (nm < nk)
        for (uint32_t f = head0; f; f = pool[f].sibling)
            if (pool[f].kind == kind && pool[f].seat == seat &&
                T->hit[(uint32_t)seat * KEYS_PER_SEAT + pool[f].move] != T->stamp)
                pool[f].miss++;
    int32_t score = (int32_t)p->miss + nsel - (nk - nm); /* > 0: counting misses writes less */
    if (score > 4 * PASS_SWITCH) score = 4 * PASS_SWITCH;
    if (score < -4 * PASS_SWITCH) score = -4 * PASS_SWITCH;
    if ((p->key == 0 && score > PASS_SWITCH) || (p->key == 1 && score < -PASS_SWITCH)) {
        for (uint32_t f = pool[parent].child; f; f = pool[f].sibling)
            if (pool[f].kind == kind && pool[f].seat == seat) pool[f].miss = pass - pool[f].key - pool[f].miss;
        p->key ^= 1;
        score = 0;
    }
    p->miss = (uint32_t)score;
    p->nedges = (uint32_t)(nk + nc - nm) + (enew != 0); /* the ones before and the ones made at this pass */
    return e;
}

static inline __attribute__((always_inline)) uint32_t passed(tree *T, uint32_t parent, int kind, int seat, uint32_t pc,
                                                             uint32_t head0, const uint32_t *cand, int nc,
                                                             uint32_t enew, int nk, int nm, uint32_t e) {
    return passed_by(T, parent, kind, seat, pc, head0, cand, nc, enew, nk, nm, e, 0);
}

/* The square root of x >= 0 (la / visits): sqrtsd itself, without the
 * library's test for a negative x (errno) at every edge, and without the
 * intrinsics' clearing of the register's upper half; the same value. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(KONTOR_NO_SSE2)
static inline double sqrt_pos(double x) {
    double r;
    __asm__("sqrtsd %1, %0" : "=x"(r) : "x"(x));
    return r;
}
#else
static inline double sqrt_pos(double x) { return sqrt(x); }
#endif

/* ucb_plain's loop, for a group counting misses (misses = 1) or
 * availability (0): written twice by the compiler, no test of the mode per
 * edge, the table of logarithms and c (as a double, the value the product
 * had) read once. */
static inline __attribute__((always_inline)) uint32_t ucb_loop(const tree *T, const uint32_t *cand, int nc,
                                                               const int misses, uint32_t pass, const int count) {
    node *pool = T->pool;
    const double *logs = T->logs, c = T->c;
    uint32_t best = 0;
    double bestv = -1.0;
    for (int i = 0; i < nc; i++) {
        node *x = &pool[cand[i]];
        uint32_t v = x->visits;
        if (v == 0) {
            if (count)
                for (int j = i; j < nc; j++) pool[cand[j]].miss++;
            return cand[i];
        }
        uint32_t avail = misses ? pass - x->key - x->miss : x->miss + 1;
        if (count) x->miss = avail;
        double la = avail < LOGS_N ? logs[avail] : log((double)avail);
        double u = x->reward / v + c * sqrt_pos(la / v);
        if (u > bestv) best = cand[i], bestv = u;
    }
    return best;
}

/* The plain search's choice among the selectable edges cand (select_edge's
 * loop without its per-edge tests of the options): the first unvisited
 * edge, else the best by UCB with availability, the first of equals. Done at
 * the first unvisited edge (none after it could be chosen: an unvisited
 * edge's 1e30 is above any UCB value, at most 1 + 100 x sqrt(log(2^32))
 * with c <= 100). An iteration of the basic game's search 21,987 -> 21,847;
 * the same choices (test_one_thread_availability_as_before fails when the
 * last unvisited edge is chosen instead, checked by hand). */
static inline uint32_t ucb_plain(const tree *T, const uint32_t *cand, int nc, int misses, uint32_t pass) {
    return misses ? ucb_loop(T, cand, nc, 1, pass, 0) : ucb_loop(T, cand, nc, 0, pass, 0);
}

/* ucb_plain that also counts this pass's availability of the edges of a
 * group that counts it (misses = 0: each selectable edge's count + 1, the
 * value the UCB reads): the write passed() would make, done where the
 * edge is read anyway; passed_by(..., counted = 1) then leaves them. */
static inline uint32_t ucb_counted(const tree *T, const uint32_t *cand, int nc, int misses, uint32_t pass) {
    return misses ? ucb_loop(T, cand, nc, 1, pass, 0) : ucb_loop(T, cand, nc, 0, pass, 1);
}

/* select_edge's STAT edges of seat under parent found by the edge index
 * (T->eix.on) among the legal moves: the selectable ones into cand (their
 * number returned), the others into untried (*nuntried), the group's PASS
 * node (*pc, 0: none yet) and its edges (*nk); the stamps st where passed()
 * reads them. */
static inline __attribute__((always_inline)) int stat_edges(tree *T, uint32_t parent, int seat,
                                                            const kontor_move *moves, int n, uint32_t st,
                                                            uint32_t *pcp, int *nkp, uint32_t *cand,
                                                            kontor_move *untried, int *nuntried) {
    node *pool = T->pool;
    uint32_t pc;
    int nc = 0, nu = 0;
    /* the edge index (ismcts_index.h): the same edges and counts as
     * select_edge's walk finds, without walking the other seat's edges and the
     * cards this determinization does not deal to seat */
    /* the searching seat's own edges at the root: the same list
     * (T->root_moves) at every iteration, each edge found once a search
     * (root_edge; an edge is never dropped during a search) */
    /* the other seats' edges at the root by their move's value
     * (root_by; a hit is checked against the edge's move, and a miss
     * asks the index), and every seat's PASS node there (root_pc) */
    int root = parent == 1;
    int own = root && moves == T->root_moves;
    if (root) {
        pc = T->root_pc[seat];
        if (!pc) pc = T->root_pc[seat] = ix_find(&T->eix, parent, N_PASS, seat, N_STAT);
    } else pc = ix_find(&T->eix, parent, N_PASS, seat, N_STAT);
    int nk = pc ? (int)pool[pc].nedges : 0;
    int misses = pc && pool[pc].key; /* passed() reads hit[] only then */
    if (own && T->root_full) { /* every edge found: the list as it stands */
        memcpy(cand, T->root_edge, (size_t)n * sizeof *cand);
        nc = n;
    } else if (own) {
        for (int i = 0; i < n; i++) {
            uint32_t e = T->root_edge[i];
            if (!e) e = T->root_edge[i] = ix_find(&T->eix, parent, N_STAT, seat, moves[i]);
            if (e) cand[nc++] = e;
            else untried[nu++] = moves[i];
        }
        T->root_full = nu == 0;
    } else if (root) {
        uint32_t *by = T->root_by[seat];
        for (int i = 0; i < n; i++) {
            kontor_move m = moves[i];
            uint32_t e = by[m & 0xFF];
            if (!e || pool[e].move != m) {
                e = ix_find(&T->eix, parent, N_STAT, seat, m);
                if (e) by[m & 0xFF] = e;
            }
            if (e) cand[nc++] = e;
            else untried[nu++] = m;
        }
    } else
        for (int i = 0; i < n; i++) {
            uint32_t e = ix_find(&T->eix, parent, N_STAT, seat, moves[i]);
            if (e) cand[nc++] = e;
            else untried[nu++] = moves[i];
        }
    /* passed() reads the stamps only when some edge of before is not
     * selectable now (nm < nk): not at the searching seat's root, whose
     * edges are its moves in every determinization */
    if (misses && nc < nk)
        for (int i = 0; i < nc; i++) T->hit[(uint32_t)seat * KEYS_PER_SEAT + pool[cand[i]].move] = st;
    *pcp = pc;
    *nkp = nk;
    *nuntried = nu;
    return nc;
}

/* ucb_plain's choice among the edges cand, of one kind and seat, given in
 * any order: the one ucb_plain would choose were they in the ascending
 * order of their moves (kontor_legal's order of a placement's cells): the
 * unvisited edge of the smallest move, else the best by UCB with
 * availability, of equals the one of the smallest move. */
static inline __attribute__((always_inline)) uint32_t ucb_cells_loop(const tree *T, const uint32_t *cand, int nc,
                                                                     const int misses, uint32_t pass) {
    const node *pool = T->pool;
    const double *logs = T->logs, c = T->c;
    uint32_t best = 0, fresh = 0;
    unsigned bm = 0, fm = ~0u;
    double bestv = -1.0;
    for (int i = 0; i < nc; i++) {
        const node *x = &pool[cand[i]];
        uint32_t v = x->visits;
        unsigned m = x->move;
        if (v == 0) {
            if (m < fm) fm = m, fresh = cand[i];
            continue;
        }
        uint32_t avail = misses ? pass - x->key - x->miss : x->miss + 1;
        double la = avail < LOGS_N ? logs[avail] : log((double)avail);
        double u = x->reward / v + c * sqrt_pos(la / v);
        if (u >= bestv && (u > bestv || m < bm)) best = cand[i], bestv = u, bm = m; /* one test when below */
    }
    return fresh ? fresh : best;
}

static inline uint32_t ucb_cells(const tree *T, const uint32_t *cand, int nc, int misses, uint32_t pass) {
    return misses ? ucb_cells_loop(T, cand, nc, 1, pass) : ucb_cells_loop(T, cand, nc, 0, pass);
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
    if (st == 0) { /* wrapped: clear the tables once every 4 billion visits */
        memset(T->mark, 0, NKEYS * sizeof *T->mark);
        memset(T->hit, 0, NKEYS * sizeof *T->hit);
        st = T->stamp = 1;
    }
    uint32_t head0 = pool[parent].child, pc = 0; /* pc: the PASS node of (kind, seat) */
    int nk = 0; /* the edges of (kind, seat) */
    uint32_t cand[KONTOR_MAX_MOVES];
    int nuntried = 0;
    kontor_move untried[KONTOR_MAX_MOVES];
    int nc = 0;
    if (kind == N_STAT && T->eix.on) {
        nc = stat_edges(T, parent, seat, moves, n, st, &pc, &nk, cand, untried, &nuntried);
    } else {
        for (uint32_t e = head0; e; e = pool[e].sibling) {
            if (pool[e].seat != seat) continue;
            if (pool[e].kind != kind) {
                if (pool[e].kind == N_PASS && pool[e].move == kind) pc = e;
                continue;
            }
            uint32_t k = (uint32_t)seat * KEYS_PER_SEAT + pool[e].move;
            T->mark[k] = st;
            T->idx[k] = e;
            nk++;
        }
        for (int i = 0; i < n; i++) {
            uint32_t k = (uint32_t)seat * KEYS_PER_SEAT + moves[i];
            if (k < NKEYS && T->mark[k] == st) {
                cand[nc++] = T->idx[k];
                T->hit[k] = st;
            } else untried[nuntried++] = moves[i];
        }
    }
    /* this pass's number; an edge made now is born at pass - 1; the
     * group counts availability (then a selectable edge's is its count + 1,
     * this pass included) or misses (pass - birth - misses) */
    uint32_t pass = (pc ? pool[pc].visits : 0) + 1;
    int misses = pc && pool[pc].key;
    int nm = nc; /* the edges of before that are selectable */
    int ebias = T->ebias > 0 && kind == N_SEQ && s->phase == KONTOR_PHASE_PLACE && n > 1;
    /* rave=K (ismcts_rave.c): a placement node's edges all at once */
    int rave = T->rave > 0 && !ebias && kind == N_SEQ && s->phase == KONTOR_PHASE_PLACE && n > 1;
    if (rave)
        for (; nuntried > 0; nuntried--) {
            uint32_t e = alloc_node(T, parent, N_SEQ, seat, untried[nuntried - 1], pass - 1);
            if (!e) return 0;
            cand[nc++] = e;
        }
    if (ebias && nuntried) {
        if (!ebias_expand(T, s, parent, seat, moves, n, pass - 1)) return 0;
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
        uint32_t e = alloc_node(T, parent, N_SEQ, seat, m, pass - 1);
        if (!e) return 0;
        *expanded = 1;
        return passed(T, parent, kind, seat, pc, head0, cand, nc, e, nk, nm, e);
    }
    if (kind == N_STAT)
        for (int i = 0; i < nuntried; i++) {
            uint32_t e = alloc_node(T, parent, N_STAT, seat, untried[i], pass - 1);
            if (!e) return 0;
            cand[nc++] = e;
        }
    if (kind == N_STAT && T->sim != SIM_UCT && nc > 0)
        return passed(T, parent, kind, seat, pc, head0, cand, nc, 0, nk, nm, select_sampled(T, cand, nc, prob));
    /* unvisited first (the first in legal order: deterministic), else UCB */
    uint32_t best = 0;
    double bestv = -1.0;
    int bias = T->pb > 0 && T->mast && kind == N_SEQ && s->phase == KONTOR_PHASE_PLACE;
    int eprior = T->prior > 0 && parent == 1 && kind == N_SEQ;
    uint32_t fresh = 0; /* ebias: the unvisited cell of the best evaluation */
    int nbest = 0;      /* rave: the edges tied at bestv (one drawn) */
    /* par=sync: at the root the searching seat's edges count the other
     * trees' visits and rewards too, as of the last merge (ist_sync_root, ismcts_sync.c) */
    int merged = 0, omerged = 0, dmerged = 0;
    if (T->ss) {
        merged = parent == 1 && kind == T->rkind && seat == T->v->seat;
        /* mopp=1: the other seats' edges at a simultaneous root too, each
         * with the other trees' availability of it (sync_opp_read, ismcts_sync.c) */
        omerged = T->mopp && parent == 1 && kind == N_STAT && seat != T->v->seat;
        /* depth=2: every edge at this iteration's depth-1 node, with the
         * other trees' visits, rewards and availability of it (ismcts_deep.c) */
        dmerged = T->d && T->dnode && parent == T->dnode;
    }
    if (!(merged | omerged | dmerged | rave | ebias | bias | eprior)) best = ucb_plain(T, cand, nc, misses, pass);
    else
        for (int i = 0; i < nc; i++) {
            node *x = &pool[cand[i]];
            if (merged || omerged || dmerged) {
                uint32_t r, ovis, oav;
                float orw;
                if (dmerged) {
                    const dlocal *L = T->d;
                    r = (uint32_t)dfind(L->hash, L->key, dkey(T->dpid, seat, kind, x->move));
                    ovis = r ? L->ov[r - 1] : 0;
                    orw = r ? L->orw[r - 1] : 0.0f;
                    oav = r ? L->oa[r - 1] : 0;
                } else if (merged) {
                    r = T->rix[x->move];
                    ovis = r ? T->ov[r - 1] : 0;
                    orw = r ? T->orw[r - 1] : 0.0f;
                    oav = T->ototal;
                } else {
                    r = T->oix[(uint32_t)seat * KEYS_PER_SEAT + x->move];
                    ovis = r ? T->oov[r - 1] : 0;
                    orw = r ? T->oorw[r - 1] : 0.0f;
                    oav = r ? T->ooa[r - 1] : 0;
                }
                uint32_t vis = x->visits + ovis;
                if (vis == 0) {
                    if (ebias) {
                        if (!fresh || x->acc > pool[fresh].acc) fresh = cand[i];
                    } else if (bestv < 1e30) best = cand[i], bestv = 1e30;
                    continue;
                }
                uint32_t avail = (misses ? pass - x->key - x->miss : x->miss + 1) + oav;
                double la = avail < LOGS_N ? T->logs[avail] : log((double)avail);
                /* in float as below: with nothing merged, the very search of par=root */
                float q = (x->reward + orw) / vis;
                double u = q + T->c * sqrt(la / vis);
                if (bias) u += T->pb * ai_mast_value(s, seat, x->move, T->mast) / (vis + 1);
                if (eprior) u += T->prior * x->acc / (vis + 1);
                if (ebias) u += T->ebias * x->acc / (vis + 1);
                if (u > bestv) best = cand[i], bestv = u;
                continue;
            }
            if (rave) {
                uint32_t avail = misses ? pass - x->key - x->miss : x->miss + 1;
                double u = ist_rave_value(T, cand[i], avail < LOGS_N ? T->logs[avail] : log((double)avail));
                if (u > bestv) best = cand[i], bestv = u, nbest = 1;
                else if (u == bestv && kontor_rng_below(&T->rng, (uint32_t)++nbest) == 0) best = cand[i];
                continue;
            }
            if (x->visits == 0) {
                if (ebias) {
                    if (!fresh || x->acc > pool[fresh].acc) fresh = cand[i];
                } else if (bestv < 1e30) best = cand[i], bestv = 1e30;
                continue;
            }
            uint32_t avail = misses ? pass - x->key - x->miss : x->miss + 1;
            double la = avail < LOGS_N ? T->logs[avail] : log((double)avail);
            double u = x->reward / x->visits + T->c * sqrt(la / x->visits);
            if (bias) u += T->pb * ai_mast_value(s, seat, x->move, T->mast) / (x->visits + 1);
            if (eprior) u += T->prior * x->acc / (x->visits + 1);
            if (ebias) u += T->ebias * x->acc / (x->visits + 1);
            if (u > bestv) best = cand[i], bestv = u;
        }
    if (fresh || (rave && best && pool[best].visits == 0)) { /* a new cell: the playout starts after it */
        if (!fresh) fresh = best;
        *expanded = 1;
        return passed(T, parent, kind, seat, pc, head0, cand, nc, 0, nk, nm, fresh);
    }
    return passed(T, parent, kind, seat, pc, head0, cand, nc, 0, nk, nm, best);
}

/* The plain search's simultaneous edge (stat_plain: sim=uct, no par=sync;
 * the edge index on): select_edge's STAT path without its tests of the
 * options, which touch no STAT edge of such a search. The same edges, new
 * edges, choice and pass. */
static inline __attribute__((always_inline)) uint32_t select_stat(tree *T, uint32_t parent, int seat,
                                                                  const kontor_move *moves, int n) {
    uint32_t st = ++T->stamp;
    if (st == 0) { /* wrapped: as in select_edge */
        memset(T->mark, 0, NKEYS * sizeof *T->mark);
        memset(T->hit, 0, NKEYS * sizeof *T->hit);
        st = T->stamp = 1;
    }
    uint32_t head0 = T->pool[parent].child, pc, cand[KONTOR_MAX_MOVES];
    kontor_move untried[KONTOR_MAX_MOVES];
    int nk, nuntried;
    int nc = stat_edges(T, parent, seat, moves, n, st, &pc, &nk, cand, untried, &nuntried);
    const node *pool = T->pool;
    uint32_t pass = (pc ? pool[pc].visits : 0) + 1;
    int misses = pc && pool[pc].key, nm = nc;
    for (int i = 0; i < nuntried; i++) {
        uint32_t e = alloc_node(T, parent, N_STAT, seat, untried[i], pass - 1);
        if (!e) return 0;
        cand[nc++] = e;
    }
    uint32_t best = ucb_counted(T, cand, nc, misses, pass);
    return passed_by(T, parent, N_STAT, seat, pc, head0, cand, nc, 0, nk, nm, best, 1);
}

/* select_stat for another seat than the searching one at a root in the
 * choice phase (root_hand): its legal list is its hand in order, then the
 * pass when it may pass (kontor__legal_of_actor's), and its edges are found
 * by root_by as stat_edges finds them; here in one pass over the hand's
 * bytes, without the list (which only a full pool needs, and builds then:
 * iterate). The same edges, new edges, choice and pass as select_stat's. */
static inline __attribute__((always_inline)) uint32_t select_stat_hand(tree *T, const kontor_state *s, int seat) {
    uint32_t st = ++T->stamp;
    if (st == 0) { /* wrapped: as in select_edge */
        memset(T->mark, 0, NKEYS * sizeof *T->mark);
        memset(T->hit, 0, NKEYS * sizeof *T->hit);
        st = T->stamp = 1;
    }
    node *pool = T->pool;
    uint32_t head0 = pool[1].child, cand[KONTOR_MAX_MOVES];
    kontor_move untried[KONTOR_MAX_MOVES];
    uint32_t pc = T->root_pc[seat];
    if (!pc) pc = T->root_pc[seat] = ix_find(&T->eix, 1, N_PASS, seat, N_STAT);
    int nk = pc ? (int)pool[pc].nedges : 0, nc = 0, nu = 0;
    uint32_t *by = T->root_by[seat];
    int n = s->hand_n[seat];
    const uint8_t *h = s->hand[seat];
    for (int i = 0; i <= n; i++) {
        unsigned v;
        if (i < n) v = h[i];
        else if (kontor__may_pass_in_choice(s, seat)) v = KONTOR_PASS;
        else break;
        kontor_move m = KONTOR_MOVE(KONTOR_MOVE_CHOOSE, v);
        uint32_t e = by[v];
        if (!e || pool[e].move != m) {
            e = ix_find(&T->eix, 1, N_STAT, seat, m);
            if (e) by[v] = e;
        }
        if (e) cand[nc++] = e;
        else untried[nu++] = m;
    }
    uint32_t pass = (pc ? pool[pc].visits : 0) + 1;
    int misses = pc && pool[pc].key, nm = nc;
    if (misses && nc < nk)
        for (int i = 0; i < nc; i++) T->hit[(uint32_t)seat * KEYS_PER_SEAT + pool[cand[i]].move] = st;
    for (int i = 0; i < nu; i++) {
        uint32_t e = alloc_node(T, 1, N_STAT, seat, untried[i], pass - 1);
        if (!e) return 0;
        cand[nc++] = e;
    }
    uint32_t best = ucb_counted(T, cand, nc, misses, pass);
    return passed_by(T, 1, N_STAT, seat, pc, head0, cand, nc, 0, nk, nm, best, 1);
}

/* Whether a board's bit set has a cell. */
static inline int bb_some(const kontor_bb *b) {
    uint64_t a = 0;
    for (int i = 0; i < (int)(sizeof b->w / sizeof b->w[0]); i++) a |= b->w[i];
    return a != 0;
}

/* A node's kind and seat (adjacent bytes) in one load, and a kind and
 * seat laid out the same way to compare it with. */
_Static_assert(offsetof(node, seat) == offsetof(node, kind) + 1, "kind and seat are adjacent");
static inline uint16_t kind_seat(const node *x) {
    uint16_t v;
    memcpy(&v, &x->kind, sizeof v);
    return v;
}
static inline uint16_t kind_seat_of(int kind, int seat) {
    uint8_t b[2] = {(uint8_t)kind, (uint8_t)seat}; /* the two bytes as a node holds them */
    uint16_t v;
    memcpy(&v, b, sizeof v);
    return v;
}

/* The plain search's placement node (place_plain: no option that reads
 * the placement's move list, no water cells, no declined placement): what
 * select_edge does with kontor_legal's list of the cells, from the cells'
 * bits. The list is the cells in ascending order, and so are the
 * selectable edges (the children's cells among them, the same order as the
 * list's) and the untried cells (the others): the same edges, draws and
 * choice without listing ~25 cells and matching each against the children.
 * An iteration of the basic game's search 21,755 -> 21,494; test_edge_index's
 * search with walk=1 (select_edge at every placement) is the reference: the
 * same visits and values. Inline in iterate, its one caller (19,051 ->
 * 19,001: the call's frame and saved registers). */
static inline __attribute__((always_inline)) uint32_t select_place(tree *T, const kontor_state *s, uint32_t parent,
                                                                   int seat, int *expanded) {
    node *pool = T->pool;
    uint32_t st = ++T->stamp;
    if (st == 0) { /* wrapped: as in select_edge */
        memset(T->mark, 0, NKEYS * sizeof *T->mark);
        memset(T->hit, 0, NKEYS * sizeof *T->hit);
        st = T->stamp = 1;
    }
    const uint32_t base = (uint32_t)seat * KEYS_PER_SEAT + ((uint32_t)KONTOR_MOVE_PLACE << 8);
    uint32_t head0 = pool[parent].child, pc = 0;
    int nk = 0;
    kontor_bb have = {{0}}; /* the cells of seat's placement edges here */
    const uint16_t seq = kind_seat_of(N_SEQ, seat), pas = kind_seat_of(N_PASS, seat);
    /* the selectable edges (their cells legal now) in the order of the
     * children's list: ucb_cells chooses as ucb_plain over the cells'
     * ascending order, and passed() counts them in any order */
    uint32_t cand[KONTOR_MAX_MOVES];
    int nc = 0, nuntried = 0;
    for (uint32_t e = head0; e; e = pool[e].sibling) {
        const node *x = &pool[e];
        uint16_t ks = kind_seat(x);
        if (ks == seq) {
            nk++;
            /* a cell (not KONTOR_NONE) of a placement's move */
            unsigned cell = (unsigned)x->move - ((unsigned)KONTOR_MOVE_PLACE << 8);
            if (cell < KONTOR_NONE) {
                uint64_t bit = 1ULL << (cell & 63);
                have.w[cell >> 6] |= bit;
                if (s->cells.w[cell >> 6] & bit) cand[nc++] = e;
            }
        } else if (ks == pas && x->move == N_SEQ)
            pc = e;
    }
    for (int i = 0; i < (int)(sizeof have.w / sizeof have.w[0]); i++)
        nuntried += __builtin_popcountll(s->cells.w[i] & ~have.w[i]);
    uint32_t pass = (pc ? pool[pc].visits : 0) + 1;
    int misses = pc && pool[pc].key;
    /* passed() reads the stamps only when the group counts misses and some
     * edge of before is not selectable now (as in select_edge) */
    if (misses && nc < nk)
        for (int i = 0; i < nc; i++) T->hit[base + (pool[cand[i]].move & 0xFFu)] = st;
    if (nuntried) {
        /* the r-th untried cell, as untried[r] of select_edge's list */
        uint32_t r = kontor_rng_below(&T->rng, (uint32_t)nuntried);
        int cell = -1;
        for (int i = 0; i < (int)(sizeof have.w / sizeof have.w[0]) && cell < 0; i++) {
            uint64_t w = s->cells.w[i] & ~have.w[i];
            uint32_t c = (uint32_t)__builtin_popcountll(w);
            if (r >= c) {
                r -= c;
                continue;
            }
            while (r--) w &= w - 1;
            cell = i * 64 + __builtin_ctzll(w);
        }
        uint32_t e = alloc_node(T, parent, N_SEQ, seat, KONTOR_MOVE(KONTOR_MOVE_PLACE, cell), pass - 1);
        if (!e) return 0;
        *expanded = 1;
        return passed(T, parent, N_SEQ, seat, pc, head0, cand, nc, e, nk, nc, e);
    }
    return passed(T, parent, N_SEQ, seat, pc, head0, cand, nc, 0, nk, nc, ucb_cells(T, cand, nc, misses, pass));
}

/* The phases in which the seats decide at the same moment, hidden from each
 * other: the declarations of who passes (R1), the card choice, buying special
 * cards (scenario "specials"), and the scenarios' bribes (Bakschisch) and
 * hand picks (Justizia). */
int ist_simultaneous(const kontor_state *s) {
    return s->phase == KONTOR_PHASE_CHOOSE || s->phase == KONTOR_PHASE_DECLARE || s->phase == KONTOR_PHASE_BUY ||
           s->phase == KONTOR_PHASE_BRIBE || s->phase == KONTOR_PHASE_SELECT;
}

/* A joint child is keyed by the phase (in its seat field) and the picks.
 * The one found moves to the front of its list: the search returns to a few
 * pairs of picks most of the time, and a node has up to 13 x 13 of them.
 * (The list's order decides nothing else: a key is on it once.) */
uint32_t ist_find_joint(tree *T, uint32_t parent, int phase, uint32_t key) {
    if (T->eix.on) return ix_find(&T->eix, parent, N_JOINT, phase, key);
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

/* One iteration: a determinization, a walk down the tree to a new node, a
 * playout, and its result added along the path. An edge's visit is counted
 * on the way down (vl of them: the virtual loss) and its result on the way
 * back, so that under par=tree another thread meanwhile sees the edge
 * visited and not yet paid, a loss, and tends to another (Chaslot, Winands
 * and van den Herik 2008). With one thread and vl=1 nothing reads an edge of
 * the path before its result is in, so this is the same search as counting
 * the visit at the end. Under par=tree every touch of a node's children
 * holds the node's lock. */
void ist_iterate(tree *T) {
    const kontor_view *v = T->v;
    shared *const sh = T->sh; /* par=tree's locks, or NULL (read once: the pool's bytes may alias the tree) */
    kontor_state st;
    int k = -1;
    if (T->nfixed) {
        k = (int)kontor_rng_below(&T->rng, (uint32_t)T->nfixed);
        st = T->fixed[k];
    } else if (T->bel) {
        ai_belief_deal(T->bel, T->det, &T->rng, &st); /* belief=K: the worlds weighed */
    } else kontor_determinize_with(T->det, &T->rng, &st);
    uint32_t path[MAX_PATH], from[MAX_PATH];
    uint32_t pkey[MAX_PATH], ppos[MAX_PATH]; /* rave=K: each step's placement key (UINT32_MAX: none) and place */
    float prob[MAX_PATH];
    int np = 0;
    uint32_t cur = 1;
    int expanded = 0;
    kontor_move moves[KONTOR_MAX_MOVES], smoves[KONTOR_MAX_SEATS][KONTOR_MAX_MOVES];
    while (!expanded && st.phase != KONTOR_PHASE_OVER && np < MAX_PATH - KONTOR_MAX_SEATS - 1) {
        unsigned actors = cur == 1 && T->root_actors >= 0 ? (unsigned)T->root_actors : ist_actors(&st);
        if (ist_simultaneous(&st)) {
            int phase = st.phase;
            kontor_move pick[KONTOR_MAX_SEATS];
            uint32_t key = 0;
            int full = 0;
            /* the legal moves before taking the lock, the picks applied
             * after releasing it: the lock is held for the tree only */
            int nlegal[KONTOR_MAX_SEATS];
            const kontor_move *lm[KONTOR_MAX_SEATS]; /* each seat's legal list (the root's own: T->root_moves) */
            /* the other seats at a root in the choice phase: their edges
             * from their hands (select_stat_hand), no list (nlegal -1) */
            int hand = cur == 1 && T->root_hand && T->eix.on; /* (off once the pool is full) */
            for (unsigned a = actors; a; a &= a - 1) { /* the acting seats, ascending */
                int q = __builtin_ctz(a);
                if (!(k >= 0 && cur == 1 && q != v->seat)) {
                    if (cur == 1 && q == v->seat && T->root_n >= 0) lm[q] = T->root_moves, nlegal[q] = T->root_n;
                    else if (hand) lm[q] = smoves[q], nlegal[q] = -1;
                    else lm[q] = smoves[q], nlegal[q] = kontor__legal_of_actor(&st, q, smoves[q]);
                }
            }
            lock_node(sh, cur);
            for (unsigned a = actors; a; a &= a - 1) {
                int q = __builtin_ctz(a);
                if (k >= 0 && cur == 1 && q != v->seat) { /* the modelled opponent */
                    pick[q] = T->fixed_moves[k * KONTOR_MAX_SEATS + q];
                    key |= (uint32_t)KONTOR_MOVE_VALUE(pick[q]) << (8 * q);
                    continue;
                }
                int n = nlegal[q];
                float p = 0;
                uint32_t e = n < 0                         ? select_stat_hand(T, &st, q)
                             : T->stat_plain && T->eix.on ? select_stat(T, cur, q, lm[q], n)
                                                          : select_edge(T, &st, cur, N_STAT, q, lm[q], n, &expanded, &p);
                if (!e) {
                    full = 1;
                    if (n < 0) n = nlegal[q] = kontor__legal_of_actor(&st, q, smoves[q]);
                    pick[q] = lm[q][kontor_rng_below(&T->rng, (uint32_t)n)];
                } else {
                    pick[q] = T->pool[e].move;
                    T->pool[e].visits += T->vl;
                    pkey[np] = UINT32_MAX;
                    from[np] = cur;
                    prob[np] = p;
                    path[np++] = e;
                }
                key |= (uint32_t)KONTOR_MOVE_VALUE(pick[q]) << (8 * q);
            }
            uint32_t j = full ? 0 : ist_find_joint(T, cur, phase, key);
            if (!full && !j) {
                j = alloc_node(T, cur, N_JOINT, phase, 0, key);
                if (j) expanded = 1;
            }
            if (j) T->pool[j].visits++;
            unlock_node(sh, cur);
            /* decoupled: the picks were made independently; now apply them.
             * A pick is an edge of this state's legal list (select_edge
             * matches edges against it) or drawn from that list, so it is
             * applied without the rules' check (core/apply.h); a modelled
             * opponent's pick comes from outside the tree and is checked. */
            if (phase == KONTOR_PHASE_CHOOSE && actors == 3 && st.cfg->nseats == 2 && !st.cfg->bankrupt &&
                !(k >= 0 && cur == 1))
                /* the usual joint node of the game for two: both choices at once */
                kontor__choose_two_unchecked(&st, KONTOR_MOVE_VALUE(pick[0]), KONTOR_MOVE_VALUE(pick[1]));
            else
                for (unsigned a = actors; a; a &= a - 1) {
                    int q = __builtin_ctz(a);
                    if (k >= 0 && cur == 1 && q != v->seat) kontor_apply(&st, q, pick[q], NULL);
                    else kontor__apply_unchecked(&st, q, pick[q], NULL);
                }
            if (cur == 1 && T->mx && T->mx->on && k < 0) /* final=nash: the root's pair (ismcts_matrix.c) */
                ist_matrix_pick(T->mx, pick[v->seat], pick[T->mx->opp], lm[T->mx->opp], nlegal[T->mx->opp]);
            if (!j) break;
            if (cur == 1 && T->d) { /* depth=2: the depth-1 node */
                T->dnode = j, T->dpid = T->pool[j].key;
                dtouch(T->d, j);
            }
            cur = j;
        } else {
            int q = 0;
            while (q < KONTOR_MAX_SEATS - 1 && !((actors >> q) & 1)) q++;
            uint32_t e;
            int cell = 0; /* select_place's: a cell, laid by playout_place_usual when the game's placement is usual */
            if (T->place_plain && st.phase == KONTOR_PHASE_PLACE && !st.cfg->optional_place && !bb_some(&st.cells_water)) {
                if (!bb_some(&st.cells)) break;
                lock_node(sh, cur);
                e = select_place(T, &st, cur, q, &expanded);
                cell = T->place_usual;
            } else {
                const kontor_move *lq = moves;
                int n;
                if (cur == 1 && q == v->seat && T->root_n >= 0) lq = T->root_moves, n = T->root_n;
                else n = kontor__legal_of_actor(&st, q, moves);
                if (n <= 0) break;
                lock_node(sh, cur);
                e = select_edge(T, &st, cur, N_SEQ, q, lq, n, &expanded, NULL);
            }
            if (e) T->pool[e].visits += T->vl;
            unlock_node(sh, cur);
            if (!e) break;
            pkey[np] = T->rave > 0 && st.phase == KONTOR_PHASE_PLACE ? ai_rave_key(&st, q, T->pool[e].move) : UINT32_MAX;
#ifdef KONTOR_CHECK_UNCHECKED
            if (cell && !kontor_is_legal(&st, q, T->pool[e].move)) abort(); /* as kontor__apply_unchecked checks */
#endif
            if (cell) playout_place_usual(&st, KONTOR_MOVE_VALUE(T->pool[e].move));
            else kontor__apply_unchecked(&st, q, T->pool[e].move, NULL); /* one of lq[] */
            from[np] = cur;
            prob[np] = 0;
            path[np++] = e;
            if (cur == 1 && T->d) { /* depth=2: the depth-1 node */
                T->dnode = e, T->dpid = T->pool[e].move;
                dtouch(T->d, e);
            }
            cur = e;
        }
    }
    float r[2];
    if (T->plain_po) { /* what ai_playout_mast would do, without asking again */
        kontor_playout(&st, &T->rng);
        ai_result_by(&st, &T->results, r); /* ai_result_of's values */
    } else if (T->rave > 0) ai_playout_rec(&st, &T->rng, &T->po, T->mast, &T->rec, r);
    else ai_playout_mast(&st, &T->rng, &T->po, T->mast, r);
    if (T->margin >= 0 && st.phase == KONTOR_PHASE_OVER) ai_result_margin(&st, T->margin, r);
    if (T->mx) ist_matrix_result(T->mx, r[kontor_team(&st, v->seat)]);
    if (T->rave > 0) {
        ist_rave_mark(T, pkey, np, ppos);
        if (T->rave_log) T->rave_log(T->rave_ctx, pkey, np, &T->rec, r);
    }
    /* the result carried back, taking each parent's lock once (the path
     * starts at the root, whose own visit is counted under the same lock;
     * a simultaneous node's edges follow each other) */
    if (T->plain_back) { /* one thread, vl=1, sim=uct, no rave: a sum along the path */
        node *pool = T->pool;
        pool[1].visits++;
        for (int i = 0; i < np; i++) {
            node *x = &pool[path[i]];
            x->reward += r[T->team[x->seat]];
        }
        T->iters++;
        return;
    }
    if (np == 0) {
        lock_node(sh, 1);
        T->pool[1].visits++;
        unlock_node(sh, 1);
    }
    for (int i = 0; i < np; i++) {
        if (i == 0 || from[i] != from[i - 1]) lock_node(sh, from[i]);
        if (i == 0) T->pool[1].visits++; /* from[0] is the root */
        node *x = &T->pool[path[i]];
        x->visits -= T->vl - 1;
        x->reward += r[kontor_team(&st, x->seat)];
        if (x->kind == N_STAT && T->sim != SIM_UCT) update_sampled(T, from[i], path[i], prob[i], r[kontor_team(&st, x->seat)]);
        if (T->rave > 0 && pkey[i] != UINT32_MAX)
            ist_rave_update(T, from[i], x->seat, pkey[i], ppos[i], r[kontor_team(&st, x->seat)]);
        if (i == np - 1 || from[i + 1] != from[i]) unlock_node(sh, from[i]);
    }
    T->iters++;
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

/* A fresh root (under par=tree once, by the calling thread, before the
 * threads start). */
void ist_new_root(tree *T) {
    if (T->sh) atomic_store(&T->sh->n, 2);
    T->cnext = T->cend = 0;
    T->n = 2; /* 0 is "none", 1 the root */
    memset(&T->pool[1], 0, sizeof T->pool[1]);
    ix_reset(&T->eix);
    root_prior(T);
}


