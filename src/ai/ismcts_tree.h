/* ismcts_tree.h: the search tree of ismcts.c, shared by its files:
 * ismcts_tree.c grows it (an iteration: selection, expansion, the playout's
 * result carried back, under the threads' locks), ismcts_run.c runs the
 * iterations of a search (budget, threads, the trees' memory),
 * ismcts_keep.c keeps the subtree between decisions, ismcts_order.c orders
 * a placement's untried moves, and ismcts.c is the agent around it (the
 * ranking of the root's moves, the decision, the options). Private to
 * src/ai. */
#ifndef KONTOR_AI_ISMCTS_TREE_H
#define KONTOR_AI_ISMCTS_TREE_H
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "ai/ai.h"
#include "ai/belief.h"
#include "ai/ismcts_index.h"
#include "ai/ismcts_matrix.h"
#include "ai/reuse.h"


/* N_PASS: not an edge but a counter on its parent's child list, one per
 * (kind, seat) that chose there (kind in its move): in visits how often
 * seat chose an edge of that kind at the parent, in key how the group of
 * those edges counts availability (0: counts, 1: misses; below), in miss
 * (as an int32) the writes the other way would have saved so far. */
enum { N_SEQ = 0, N_STAT = 1, N_JOINT = 2, N_PASS = 3 };

/* Availability (how often an edge was selectable when its parent's seat
 * chose): counting it on every selectable edge wrote each of a node's
 * children at every pass, and under par=tree every one of those cache lines
 * then moved to the other core (docs/ai.md, "Tree parallelism, where the
 * time went"). An edge keeps its birth (the parent's pass count when it was
 * made) and in miss either its count (the group counts) or the passes it
 * was not selectable in (the group counts misses: available = passes -
 * birth - misses, the same number). A group switches to whichever writes
 * less (the searching seat's own edges at the root are selectable at every
 * pass: no write but the chosen one's), converting its edges once. */
typedef struct node {
    uint32_t child;   /* first child, 0 for none (index 0 is never a node) */
    uint32_t sibling; /* next child of the same parent */
    uint32_t key;     /* JOINT: the acting seats' choice values, 8 bits each; SEQ, STAT: the birth */
    uint32_t visits;  /* PASS: the passes */
    uint32_t miss;    /* SEQ, STAT: passes it was selectable in, or not, by its group's count (above) */
    float reward;     /* sum of the results for the team of seat */
    float acc;        /* STAT under sim=rm: cumulative regret; sim=exp3: estimated total reward */
    union {
        uint32_t seen;  /* STAT under sim=rm|exp3: the last iteration (1-based) it was selectable in */
        uint32_t joint; /* a parent (root, SEQ, JOINT; never a STAT): its first JOINT child, 0 for none */
        uint32_t nedges; /* PASS: the edges of its group (kind, seat) at its parent after its last pass */
    };
    uint16_t move;
    uint8_t kind;
    uint8_t seat;
} node;

/* kontor_actors(s), a placement's seat without the call: the seat in turn
 * (test_search_actors_are_kontor_actors, at every state of random games);
 * the tree's nodes below the root are placements most of the time. */
static inline unsigned ist_actors(const kontor_state *s) {
    return s->phase == KONTOR_PHASE_PLACE ? 1u << s->order[s->turn] : kontor_actors(s);
}

/* An edge x's availability after its group's last pass, g the group's
 * N_PASS node (NULL: none): the passes in which x was selectable, what
 * select_edge counts live (passed()); par=sync's merges publish it
 * (ismcts_sync.c for the root's other seats, ismcts_deep.c for depth=2). */
static inline uint64_t ist_avail_after(const node *g, const node *x) {
    return !g ? 0 : g->key ? g->visits - x->key - x->miss : x->miss;
}

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

/* par=tree: what the threads searching one tree share. A node's child
 * lists and its children's statistics are guarded by the node's lock, a
 * spin lock of a stripe (node index mod NLOCKS, one cache line each); a
 * thread holds one lock at a time, so there is no lock order to keep. The
 * pool is handed out by an atomic counter in chunks of NCHUNK nodes (each
 * thread allocates from a chunk of its own: the nodes one thread creates
 * do not share cache lines with the other's), the iterations of a budget
 * by another counter in batches of NBATCH, which also numbers them
 * (sim=rm|exp3 stamps). The two counters sit on cache lines of their own:
 * the second session's measurements, docs/ai.md, "Tree parallelism, where
 * the time went". */
#define NLOCKS 1024
#define NCHUNK 64
#define NBATCH 8
typedef struct stripe {
    _Alignas(64) atomic_int f; /* 0 free, 1 held */
} stripe;
typedef struct shared {
    stripe lock[NLOCKS];
    _Alignas(64) atomic_uint n; /* nodes handed out of the first tree's pool (whole chunks) */
    atomic_int done;            /* the first thread saw the decision settled (ms=, stop=1) */
    _Alignas(64) atomic_ullong next; /* iterations handed out (whole batches) */
} shared;

/* par=root with threads > 1: what the trees share for the early stop
 * (ms=, stop=1): each thread publishes, at its checks of the clock, the
 * move its own tree has settled on (the move + 1, or 0: not settled), and
 * the first thread stops them all once every tree has settled on the same
 * move (ai_settled_all). Each on a cache line of its own. */
#define ROOT_MAX_THREADS 64
typedef struct rootsh {
    _Alignas(64) atomic_int done;
    struct {
        _Alignas(64) atomic_int lead;
    } t[ROOT_MAX_THREADS];
} rootsh;

/* par=sync, depth=2: the next level below the root merged too (the edges
 * under each of the searching seat's root placements, or under each joint
 * child of a simultaneous root: the opponent's replies, the next card
 * choice), keyed by (the depth-1 node: root move or joint key, seat, kind,
 * move), each key given a slot when a tree first merges it: visits,
 * rewards (for the edge's team) and availability (passes of its group in
 * which it was selectable), as mopp=1 keeps the root's other seats. The
 * shared part (dtable, under syncsh.mu) and each tree's (dlocal: its own
 * part of the table as last merged, the others' part as last read, and the
 * key -> slot map for select_edge) are allocated only with depth=2
 * (ismcts_deep.c; docs/ai.md, "Session twelve: sync20"). */
#define DSLOTS 32768 /* keys a table holds (the rest are not merged) */
#define DHASH (2 * DSLOTS) /* open addressing, slot + 1 per entry, 0 for none */
typedef struct dtable {
    int n, snap_n;               /* slots given, and as of the last completed round */
    uint16_t hash[DHASH];
    uint64_t key[DSLOTS];
    uint64_t acc_v[DSLOTS], snap_v[DSLOTS], acc_a[DSLOTS], snap_a[DSLOTS];
    double acc_r[DSLOTS], snap_r[DSLOTS];
} dtable;
#define DDIRTY 1024 /* depth-1 nodes a tree remembers between two merges (more: it publishes all) */
typedef struct dlocal {
    int seen;                    /* the table's slots mapped in hash */
    int ndirty, alldirty;        /* the depth-1 nodes passed since the last merge (dirty), or all */
    uint32_t dirty[DDIRTY];
    uint16_t hash[DHASH];
    uint64_t key[DSLOTS];
    uint64_t pub_v[DSLOTS], pub_a[DSLOTS];
    double pub_r[DSLOTS];
    uint32_t ov[DSLOTS], oa[DSLOTS]; /* the other trees' visits and availability, at the last merge */
    float orw[DSLOTS];               /* ... and their rewards */
} dlocal;

/* The key of an edge (seat, kind, move) under the depth-1 node pid (a root
 * move, or a joint child's key) and its slot in a map (0: none). */
static inline uint64_t dkey(uint32_t pid, int seat, int kind, uint32_t move) {
    return (uint64_t)pid << 24 | (uint64_t)seat << 20 | (uint64_t)kind << 16 | (move & 0xffffu);
}
static inline uint32_t dhash(uint64_t k) {
    return (uint32_t)((k * 0x9E3779B97F4A7C15ULL) >> 48) & (DHASH - 1);
}
static inline int dfind(const uint16_t *hash, const uint64_t *keys, uint64_t k) {
    for (uint32_t h = dhash(k);; h = (h + 1) & (DHASH - 1)) {
        int r = hash[h];
        if (!r || keys[r - 1] == k) return r;
    }
}

/* par=sync with threads > 1 (root parallelism with a shared root table,
 * Chaslot, Winands and van den Herik 2008): each thread grows a tree of its
 * own, as under par=root, and every merge=K of its iterations adds what its
 * root edges of the searching seat gained since its last merge (visits,
 * rewards) to the table acc, then reads the table back: the other trees'
 * share of it steers its own UCB at the root (ismcts_sync.c, ist_sync_root).
 * Under an iteration budget a merge is a barrier (the table read is snap,
 * the table as the last thread of that round of merges left it), so the
 * search is reproducible for a seed; a thread that has spent its budget
 * adds its last gains and leaves (members - 1). Under ms= a merge adds and
 * reads without waiting. After the search acc holds the sum of every
 * tree's root statistics (the decision sums the trees, as par=root). All
 * under mu. */
#define OSLOTS 512 /* mopp=1: the other seats' root moves a table holds (the rest are not merged) */
typedef struct syncsh {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int barrier;                 /* 1: iteration budget, merges wait for each other */
    int members, waiting;        /* barrier: threads still searching, and waiting at this round */
    unsigned long gen;           /* barrier: rounds of merges completed */
    uint64_t merges;             /* merges done, every thread's (tests, docs) */
    int n;                       /* the searching seat's root moves */
    kontor_move moves[KONTOR_MAX_MOVES];
    uint64_t acc_v[KONTOR_MAX_MOVES], snap_v[KONTOR_MAX_MOVES];
    double acc_r[KONTOR_MAX_MOVES], snap_r[KONTOR_MAX_MOVES];
    /* mopp=1 (at a simultaneous root only): the other seats' root edges
     * too, by slot, a slot given to a (seat, move) key when a tree first
     * merges it (okey; oix the key's slot + 1): visits, rewards (for that
     * seat's team) and availability (passes in which the move was dealt) */
    int opp;                     /* mopp=1 and the root is simultaneous (set before the threads start) */
    int no, osnap_n;             /* slots given, and as of the last completed round */
    uint32_t okey[OSLOTS];       /* slot -> seat * KEYS_PER_SEAT + move */
    uint16_t oix[NKEYS];         /* key -> slot + 1, 0 for none */
    uint64_t oacc_v[OSLOTS], osnap_v[OSLOTS], oacc_a[OSLOTS], osnap_a[OSLOTS];
    double oacc_r[OSLOTS], osnap_r[OSLOTS];
    dtable *d;                   /* depth=2: the next level's table; else NULL */
} syncsh;

/* depth=2: the depth-1 node x was passed (its edges' statistics changed);
 * a node passed twice in a row is kept once, twice otherwise (the second
 * publish adds nothing). */
static inline void dtouch(dlocal *L, uint32_t x) {
    if (L->ndirty && L->dirty[L->ndirty - 1] == x) return;
    if (L->ndirty == DDIRTY) L->alldirty = 1;
    else L->dirty[L->ndirty++] = x;
}

/* One per thread, each on cache lines of its own (the threads write their
 * generator and counters all the time). */
typedef struct tree {
    _Alignas(64) node *pool; /* the nodes searched: mem, or under par=tree the first tree's */
    uint32_t cap, n;
    node *mem;        /* this tree's own pool (under par=tree only the first tree has one) */
    uint32_t memcap;
    shared *sh;       /* par=tree with threads > 1: the shared counters and locks; else NULL */
    rootsh *rs;       /* par=root|sync with threads > 1: the early stop's flags; else NULL */
    syncsh *ss;       /* par=sync with threads > 1: the shared root table; else NULL */
    uint32_t merge;   /* par=sync: merge=K, iterations between two merges */
    int rkind;        /* par=sync: the kind of the searching seat's root edges (N_SEQ, N_STAT) */
    uint16_t rix[KEYS_PER_SEAT]; /* par=sync: root move -> its index in ss->moves + 1, 0 for none */
    uint32_t ov[KONTOR_MAX_MOVES]; /* par=sync: the other trees' root visits per move, at the last merge */
    float orw[KONTOR_MAX_MOVES];   /* ... and their rewards */
    uint32_t ototal;               /* ... and their root passes (the sum of ov) */
    uint64_t pub_v[KONTOR_MAX_MOVES]; /* par=sync: this tree's root visits per move as last merged */
    double pub_r[KONTOR_MAX_MOVES];
    int mopp;         /* par=sync, mopp=1, a simultaneous root: the other seats' root edges are merged too */
    int oseen;        /* mopp: the table's slots this tree has mapped in oix */
    uint16_t oix[NKEYS];           /* mopp: (seat, move) key -> slot + 1 in ss, 0 for none */
    uint32_t oov[OSLOTS], ooa[OSLOTS]; /* mopp: the other trees' visits and availability per slot, at the last merge */
    float oorw[OSLOTS];            /* ... and their rewards */
    uint64_t opub_v[OSLOTS], opub_a[OSLOTS]; /* mopp: this tree's part of the table per slot as last merged */
    double opub_r[OSLOTS];
    dlocal *d;        /* par=sync, depth=2: this tree's part of the next level's merge; else NULL */
    uint32_t dnode, dpid; /* depth=2: this iteration's depth-1 node (0: none yet) and its key (root move or joint key) */
    int tid, nthreads;/* this thread's number (0: the one that checks the early stop) and how many search */
    uint32_t vl;      /* vl=K: visits a thread adds on its way down, K - 1 taken back after */
    uint32_t it;      /* this iteration's number (1-based; unique across the threads of one tree) */
    uint32_t cnext, cend; /* par=tree: this thread's chunk of the pool, [cnext, cend) still free */
    uint64_t bnext, bend; /* par=tree: this thread's batch of iterations, [bnext, bend) still to run */
    kontor_rng rng;
    uint32_t stamp;
    uint32_t *mark; /* NKEYS stamps */
    uint32_t *idx;  /* NKEYS node indices, valid where mark == stamp */
    uint32_t *hit;  /* NKEYS stamps: the edges selectable at this pass (== stamp) */
    double *logs;   /* LOGS_N values: logs[i] = log(i), the UCB's log(avail) without a call */
    uint64_t iters;
    /* work order */
    const kontor_view *v;
    const kontor_determinizer *det; /* v's, prepared once a search (without fixed states) */
    const ai_belief *bel; /* belief=K: the worlds weighed (belief.c), NULL: uniform */
    kontor_move root_moves[KONTOR_MAX_MOVES]; /* v->seat's legal decisions at the root (v's) */
    int root_n; /* how many, or -1: listed at every iteration (fixed states) */
    int root_actors; /* kontor_actors of every determinization of v (det's state), or -1: asked at each */
    uint32_t root_edge[KONTOR_MAX_MOVES]; /* the edge of root_moves[i] under the root, 0: not found yet (with the index) */
    int root_full; /* every root_edge[i] found (an edge is never dropped during a search) */
    uint32_t root_pc[KONTOR_MAX_SEATS];   /* the root's PASS node of each seat's STAT edges, 0: not found yet */
    uint32_t root_by[KONTOR_MAX_SEATS][256]; /* a STAT edge under the root by its move's value, 0: not found yet */
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
    int place_plain; /* none of the options select_edge reads at a placement: select_place (ismcts_tree.c) */
    int place_usual; /* select_place's cell laid by playout_place_usual (kontor__place_usual_of the view's config) */
    int walk;        /* ismcts_impl's walk (tests only): no select_place either */
    int plain_po;    /* the playout is kontor_playout and ai_result_of (ai_playout_plain), called by iterate */
    ai_results results; /* plain_po: ai_result_of's values by table (ai_result_by) */
    int stat_plain;  /* sim=uct, no par=sync: select_stat serves the STAT edges (with the edge index) */
    int root_hand;   /* stat_plain at a root in the choice phase: the other seats' edges from their hands */
    int plain_back;  /* the backup is a sum along the path (one thread, vl=1, sim=uct, no rave, no fixed states) */
    uint8_t team[KONTOR_MAX_SEATS]; /* plain_back: each seat's team (kontor_team of the view) */
    float margin;   /* margin=X: the result's weight of the point margin (default 0.1, playout.c's) */
    int shipw;      /* shipw=K: at a ship or removal node, only the policy's moves until K visits */
    float ebias;    /* ebias=W: at every placement, all cells at once, in g order, bias W x g / (visits + 1) */
    /* rave=K (ismcts_rave.c): at placement nodes UCB's mean blended with the
     * AMAF mean of the move, K the equivalence parameter; 0: off */
    float rave;
    float *ar, *arm;     /* rave: beside the pool, per node: its AMAF results (for its seat's team); arm this tree's own */
    uint32_t *an, *anm;  /* ... and its AMAF count */
    uint32_t *apos;      /* rave: per RAVE key (ai_placements), its first place in this iteration's placements */
    uint32_t *aseen;     /* ... valid where aseen == astamp */
    uint32_t astamp;
    ai_placements rec;   /* rave: this iteration's playout's placements */
    /* tests only: called after each iteration's playout under rave with the
     * tree's placement keys per step (UINT32_MAX: not a placement), the
     * playout's placements and the result */
    void (*rave_log)(void *ctx, const uint32_t *pkey, int np, const ai_placements *rec, const float r[2]);
    void *rave_ctx;
    /* an opponent model (ai_ismcts_rank_against): nfixed states consistent
     * with the view and, per state, every seat's modelled choice at the root */
    const kontor_state *fixed;
    const kontor_move *fixed_moves; /* nfixed x KONTOR_MAX_SEATS */
    int nfixed;
    /* reuse=1: this decision starts from the subtree kept from the last one */
    int reused;
    ist_matrix *mx;  /* final=nash: the root's joint results (ismcts_matrix.c); else NULL */
    ix eix;          /* one thread to a tree: the STAT, PASS and JOINT children by key (ismcts_index.h) */
    uint32_t *map;   /* reuse=1: cap entries of scratch for keep_subtree */
    uint32_t *stack; /* reuse=1: cap entries more (keep_subtree's walk) */
} tree;

enum { SIM_UCT = 0, SIM_RM = 1, SIM_EXP3 = 2 };
enum { PAR_TREE = 0, PAR_ROOT = 1, PAR_SYNC = 2 };
enum { FINAL_MAX = 0, FINAL_VISITS = 1, FINAL_NASH = 2 };

typedef struct ismcts_impl {
    ai_base base;
    uint64_t iters;
    int ms, threads;
    int par;   /* par=tree|root|sync: several threads share one tree, or grow one each (sync: merging their roots) */
    int merge; /* merge=K, par=sync: iterations of a tree between its merges */
    int mopp;  /* mopp=0|1, par=sync: at a simultaneous root merge the other seats' root edges too */
    int depth; /* depth=1|2, par=sync: merge the root only, or the level below it too */
    int vl;    /* vl=K, par=tree: the virtual loss, in visits */
    shared *sh; /* par=tree and threads > 1 */
    rootsh *rs; /* par=root|sync and threads > 1 */
    syncsh *ss; /* par=sync and threads > 1 */
    int stop; /* early stop under ms= (threads=1 only): stop=0|1, default 1 */
    int clock; /* ms= counts wall time (clock=wall, default) or each thread's CPU time (clock=cpu) */
    int sim, final;
    float gamma;
    double floor; /* final=visits: drop choices below floor x the top visits */
    double mix[KONTOR_MAX_MOVES]; /* final=nash: the last decision's mix, by base.last (all 0: not solved) */
    double shrink; /* final=nash: shrink=K, a cell's pseudo-samples of the additive fit (ismcts_matrix.c) */
    double c;
    int order, eorder, shipw;
    double pb, keep, prior, ebias, margin;
    double rave; /* rave=K: RAVE at the placements (ismcts_rave.c); 0 off */
    /* belief=K, beta=X: worlds weighed by the opponent's past card choices
     * (belief.c); NULL when off */
    int belief;
    double beta, bnum;
    ai_belief *bel;
    ai_playout_opts po;
    /* reuse=1: the view the last search was for and the seat's decisions
     * since (reuse.c), and the address found for the next search */
    int reuse, have_prev, nmine;
    int walk; /* tests only: no edge index, the lists walked, and every placement's list matched against
                 its node's edges (select_edge, not select_place): test_edge_index compares the two */
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

/* The lock of node i under par=tree (nothing with one thread or par=root).
 * A waiter yields after a while: on a loaded machine the holder may be off
 * its core. */

/* The lock of node i under par=tree (nothing with one thread or par=root):
 * test and test-and-set, so that a waiter spins on its own copy of the
 * line instead of taking it from the holder again and again. A waiter
 * yields after a while (1024 plain loads, a few microseconds: longer than
 * a selection holds a lock, since a yield is a system call): on a loaded
 * machine the holder may be off its core. */
static inline void lock_wait(atomic_int *f) {
    int spins = 0;
    while (atomic_exchange_explicit(f, 1, memory_order_acquire))
        while (atomic_load_explicit(f, memory_order_relaxed))
            if (++spins == 1024) {
                spins = 0;
                sched_yield();
            }
}

static inline void lock_node(shared *sh, uint32_t i) {
    if (sh) lock_wait(&sh->lock[i & (NLOCKS - 1)].f);
}

static inline void unlock_node(shared *sh, uint32_t i) {
    if (sh) atomic_store_explicit(&sh->lock[i & (NLOCKS - 1)].f, 0, memory_order_release);
}

/* One iteration (ismcts_tree.c), and a joint child by its phase and key. */
void ist_iterate(tree *T);
uint32_t ist_find_joint(tree *T, uint32_t parent, int phase, uint32_t key);
int ist_simultaneous(const kontor_state *s);
void *ist_run_tree(void *arg);
int ist_reuse_tree(tree *T, const ai_reuse_path *p, int seat);
void ist_new_root(tree *T);
int ist_ensure_trees(kontor_agent *a);
double ist_clock_of(int cpu);
void ist_sync_leave(syncsh *S);
/* par=sync: a merge (ismcts_sync.c); leaving: this tree's search is over. */
void ist_sync_root(tree *T, int leaving);
/* rave=K (ismcts_rave.c): the edge's UCB value blended with its AMAF mean
 * (i its index, la log of its availability); this iteration's placements
 * numbered (pkey per step, UINT32_MAX for none; ppos gets each placement
 * step's place); the AMAF update of parent's edges of seat for a placement
 * step with key and place pos, x the result for seat's team. */
double ist_rave_value(const tree *T, uint32_t i, double la);
void ist_rave_mark(tree *T, const uint32_t *pkey, int np, uint32_t *ppos);
void ist_rave_update(tree *T, uint32_t parent, int seat, uint32_t key, uint32_t pos, float x);
void ist_deep_publish(tree *T);
void ist_deep_read(tree *T);
void ist_deep_snap(dtable *D);
void ist_deep_reset(syncsh *S, tree *trees, int nthreads);
#endif
