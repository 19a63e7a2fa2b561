/* intern.c: every configuration a game is dealt under, kept once per process.
 *
 * A state refers to its config by a pointer (issue 17: the state of a
 * two-player game at most 1 KiB, and still a plain value that copies with
 * memcpy). The pointer must outlive every state, view and copy made of it and
 * must not change under them, yet the callers' configs are locals (the
 * server's create_game, kontor bench, a test): so kontor_new and
 * kontor_new_from_deal point the state at a copy of the caller's config
 * kept here, immutable, never freed, one copy per distinct content (equal
 * configs give the same pointer, so states of the same game still compare
 * byte for byte, and a view's state equals the truth's).
 *
 * The table is bounded (KONTOR_CONFIGS_MAX): the server deals from configs
 * that strangers choose (a variant and options), and a process must not grow
 * without limit. When it is full, a config not yet in it is refused with a
 * clear error (existing ones still deal). Readers do not lock: an entry is
 * complete before the count that publishes it is stored (release), and a
 * reader loads the count first (acquire); inserts take the mutex. */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kontor/kontor.h"

static kontor_config table[KONTOR_CONFIGS_MAX];
static atomic_size_t published; /* table[0 .. published) are complete and never change */
static pthread_mutex_t insert_lock = PTHREAD_MUTEX_INITIALIZER;

/* cfg with its padding zeroed and its derived field (cells) worked out:
 * equal settings, equal bytes. The padding is the one byte after layout[]
 * (a field added elsewhere that opens another gap costs at worst a
 * duplicate entry); cells took the two after event_arg[] (session
 * thirteen: board_full reads it instead of width and height). */
#define ZERO_GAP(c, a, b)                                                                                    \
    memset((char *)(c) + offsetof(kontor_config, a) + sizeof (c)->a, 0,                                     \
           offsetof(kontor_config, b) - offsetof(kontor_config, a) - sizeof (c)->a)
static void canonical(kontor_config *out, const kontor_config *cfg) {
    memcpy(out, cfg, sizeof *out);
    ZERO_GAP(out, layout, board_mask);
    ZERO_GAP(out, event_arg, cells);
    ZERO_GAP(out, cells, inner);
    out->cells = (uint16_t)(cfg->width * cfg->height);
}

static const kontor_config *find(const kontor_config *c, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (memcmp(&table[i], c, sizeof *c) == 0) return &table[i];
    return NULL;
}

const kontor_config *kontor_config_intern(const kontor_config *cfg, kontor_error *err) {
    /* already one of ours (a state's cfg dealt again): itself */
    uintptr_t p = (uintptr_t)cfg, t0 = (uintptr_t)table;
    if (p >= t0 && p < t0 + sizeof table && (p - t0) % sizeof *table == 0) return cfg;
    kontor_config c;
    canonical(&c, cfg);
    const kontor_config *hit = find(&c, atomic_load_explicit(&published, memory_order_acquire));
    if (hit) return hit;
    pthread_mutex_lock(&insert_lock);
    size_t n = atomic_load_explicit(&published, memory_order_relaxed);
    hit = find(&c, n);
    if (!hit && n < KONTOR_CONFIGS_MAX) {
        memcpy(&table[n], &c, sizeof c); /* the padding too */
        atomic_store_explicit(&published, n + 1, memory_order_release);
        hit = &table[n];
    }
    pthread_mutex_unlock(&insert_lock);
    if (!hit && err) {
        memset(err, 0, sizeof *err);
        err->code = KONTOR_E_RANGE;
        snprintf(err->msg, sizeof err->msg,
                 "the process holds %d distinct configurations already (KONTOR_CONFIGS_MAX); this one is not among them",
                 KONTOR_CONFIGS_MAX);
    }
    return hit;
}

size_t kontor_configs_interned(void) {
    return atomic_load_explicit(&published, memory_order_acquire);
}
