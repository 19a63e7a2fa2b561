/* ismcts_index.c: the edge index's table, its generations and its growth
 * (the why is in ismcts_index.h; the lookup is inline there). */
#include <stdlib.h>
#include <string.h>

#include "ai/ismcts_index.h"

/* The first table: 4096 slots (64 KB), doubled as the tree grows. */
#define IX_FIRST 4096u

void ix_free(ix *x) {
    free(x->e);
    x->e = NULL;
    x->mask = x->n = 0;
    x->on = 0;
}

int ix_alloc(ix *x) {
    if (x->e) return 0;
    if (!(x->e = calloc(IX_FIRST, sizeof *x->e))) return -1;
    x->mask = IX_FIRST - 1;
    x->gen = 0; /* every slot empty: generations start at 1 */
    x->n = 0;
    x->on = 0;
    return 0;
}

void ix_reset(ix *x) {
    if (!x->e) return;
    if (++x->gen == 0) { /* wrapped: every slot of every old generation emptied once */
        memset(x->e, 0, ((size_t)x->mask + 1) * sizeof *x->e);
        x->gen = 1;
    }
    x->n = 0;
    x->on = 1;
}

static void put(ix *x, const ix_entry *y) {
    uint32_t i = ix_slot(y->parent, y->val, y->tag) & x->mask;
    while (x->e[i].gen == x->gen) i = (i + 1) & x->mask;
    x->e[i] = *y;
}

void ix_add(ix *x, uint32_t parent, int kind, int seat, uint32_t val, uint32_t node) {
    if (!x->on) return;
    if (2 * (x->n + 1) > x->mask + 1) { /* half full: twice the slots, this generation's entries moved */
        uint32_t oldsize = x->mask + 1, size = 2 * oldsize;
        ix_entry *old = x->e, *e = size ? calloc(size, sizeof *e) : NULL;
        if (!e) {
            x->on = 0;
            return;
        }
        uint16_t gen = x->gen;
        x->e = e;
        x->mask = size - 1;
        x->gen = 1;
        for (uint32_t i = 0; i < oldsize; i++)
            if (old[i].gen == gen) {
                ix_entry y = old[i];
                y.gen = 1;
                put(x, &y);
            }
        free(old);
    }
    ix_entry y = {parent, val, node, (uint16_t)((uint32_t)kind | (uint32_t)seat << 2), x->gen};
    put(x, &y);
    x->n++;
}
