/* ismcts_index.h: the children of a simultaneous node found by their key,
 * not by walking the parent's list (ismcts_tree.c's edge index).
 *
 * At a card choice the opponent's hand is hidden, so over the
 * determinizations a node collects an edge for nearly every card the
 * opponent could hold (some eighty in the basic game's first round) while a
 * pass can select among the six or seven he holds in this one; the joint
 * children collect the pairs of picks (hundreds). Walking those lists was
 * a third of the search's own work an iteration (docs/engine-speed.md,
 * "Session ten"). The index is an open-addressing table keyed by (parent,
 * kind, seat, move or joint key) that holds the STAT edges, the PASS
 * counters and the JOINT children; the lists stay as they are (everything
 * else walks them), and the index finds exactly what a walk would find, so
 * the search is the same.
 *
 * Only a tree one thread grows has an index (one thread, or par=root):
 * under par=tree the threads insert under different nodes' locks, which the
 * table's slots do not follow, so there the lists are walked. Entries are
 * never deleted; a new search starts a new generation (an entry of another
 * generation is an empty slot), so nothing is cleared between searches.
 * The table doubles when half full. Private to src/ai. */
#ifndef KONTOR_AI_ISMCTS_INDEX_H
#define KONTOR_AI_ISMCTS_INDEX_H
#include <stdint.h>

typedef struct ix_entry {
    uint32_t parent, val, node; /* val: the move (STAT, PASS) or the joint key (JOINT) */
    uint16_t tag;               /* kind | seat (or the phase, JOINT) << 2 */
    uint16_t gen;               /* the generation it belongs to; another one: an empty slot */
} ix_entry;

typedef struct ix {
    ix_entry *e; /* the table (NULL until ix_alloc) */
    uint32_t mask, n;
    uint16_t gen;
    int on; /* the table holds this search's tree: look up; else walk the lists */
} ix;

static inline uint32_t ix_slot(uint32_t parent, uint32_t val, uint32_t tag) {
    uint32_t h = (parent * 0x9E3779B1u + val) * 0x85EBCA77u + tag * 0xC2B2AE3Du;
    return h ^ (h >> 15);
}

/* The node under parent with this kind, seat and val, or 0. */
static inline uint32_t ix_find(const ix *x, uint32_t parent, int kind, int seat, uint32_t val) {
    uint32_t tag = (uint32_t)kind | (uint32_t)seat << 2;
    for (uint32_t i = ix_slot(parent, val, tag) & x->mask;; i = (i + 1) & x->mask) {
        const ix_entry *y = &x->e[i];
        if (y->gen != x->gen) return 0;
        if (y->parent == parent && y->val == val && y->tag == tag) return y->node;
    }
}

/* The table, off until the first ix_reset (nothing of the tree is in it
 * yet). Returns -1 when it cannot be allocated (the lists serve). */
int ix_alloc(ix *x);
/* Start a generation: an empty index, on (when there is a table). */
void ix_reset(ix *x);
/* Add node under parent (not there yet), when the index is on. When the
 * table cannot grow the index goes off for the rest of this search (the
 * lists serve; the next ix_reset turns it on again). */
void ix_add(ix *x, uint32_t parent, int kind, int seat, uint32_t val, uint32_t node);
void ix_free(ix *x);

#endif
