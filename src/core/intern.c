/* intern.c: every configuration a game is dealt under, kept once per process for as long as it is used.
 *
 * A state refers to its config by a pointer (issue 17: the state of a
 * two-player game at most 1 KiB, and still a plain value that copies with
 * memcpy). The pointer must outlive every state, view and copy made of it and
 * must not change under them, yet the callers' configs are locals (the
 * server's create_game, kontor bench, a test): so kontor_new and
 * kontor_new_from_deal point the state at a copy of the caller's config kept
 * here, immutable while it is used, one copy per distinct content (equal
 * configs give the same pointer, so states of the same game still compare
 * byte for byte, and a view's state equals the truth's, even when the view
 * was rebuilt by another owner: the protocol engine's, tests/test_proto.c).
 *
 * Who keeps an entry alive (session fourteen). A state cannot count the
 * references to its config: it is copied by memcpy into views, search trees,
 * the AI's threads, the server's takeback, and nobody is told. So the count
 * belongs to the owners of games, which do know when a game starts and ends:
 *   - kontor_config_retain / kontor_config_release: an owner (the server's
 *     game, an analysis of the server, a record the server replays, the
 *     protocol engine's game) holds its config from before the deal until
 *     the last state of that game is gone (its agents freed, its threads
 *     joined); an entry no owner holds is free, and a new config may take
 *     its place;
 *   - kontor_config_intern (and so kontor_new / kontor_new_from_deal from a
 *     config that is not an entry): a caller that holds nothing (kontor
 *     bench, the CLI, the tests, the named variants the server interns at
 *     its start). If an equal config is held at that moment the state
 *     borrows that hold (it is valid while the hold lasts: the server wraps
 *     every replay of a record in a hold of the record's config for this,
 *     because the record's replay in src/record/ deals from the record's own
 *     copy); otherwise the entry is pinned: never reused, as every entry was
 *     before, so a process that never holds behaves exactly as before.
 * The other design, each owner keeping its own immutable copy and the state
 * pointing at it (as with the card set), was not taken: the protocol engine
 * rebuilds its state from its own config and tests/test_proto.c compares its
 * views byte for byte with the truth's, dealt by another owner from another
 * copy, which needs one pointer per content across owners; and the server's
 * records are replayed by src/record/ and src/ai/analysis.c, which deal from
 * the record's config: with owners' copies those would have to learn to deal
 * from a given pointer, here the server just holds around them.
 *
 * The table is a fixed array (KONTOR_CONFIGS_MAX entries; a state's pointer
 * into it never moves), found by a hash of the canonical bytes (one chain a
 * bucket, as many buckets as entries), under one mutex: a lookup is a hash
 * of 224 bytes and, but for collisions, one memcmp. A freed entry stays in
 * its chain (an equal config coming back finds it) until a new config takes
 * it, the oldest freed first, before any never used entry: untouched entries
 * stay zero pages, so the memory used follows the most configs held or
 * pinned at once, not the number ever seen. When every entry is held or pinned a new config is refused with a
 * clear error (KONTOR_E_RANGE); it deals again as soon as one is released.
 *
 * Beside each entry, in its window, what the deal works out from the config
 * alone (the state's hooks, whether kontor_new's quick deal may take it:
 * kontor__deal_checks, deal.c), set whenever a config takes the entry, so
 * that a freed entry taken by another config answers for the new one
 * (session sixteen; a cache by the config's address could not tell). */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/window.h"
#include "kontor/kontor.h"

/* The bytes that make a config: its settings, up to the pointer to the
 * window that kontor__window works out from them (issue 17's narrow
 * board), which is neither hashed nor compared nor taken from a caller's
 * config. */
#define KEY_BYTES offsetof(kontor_config, win)
_Static_assert(KEY_BYTES % 8 == 0, "a config's key is whole words");

#define NBUCKETS KONTOR_CONFIGS_MAX /* a power of two: one chain an entry on average when full */
_Static_assert((KONTOR_CONFIGS_MAX & (KONTOR_CONFIGS_MAX - 1)) == 0, "the buckets are masked");

/* An entry's bookkeeping, beside the configs (the configs stay an array of
 * kontor_config, so that a pointer's index is its offset). Links are
 * index + 1, 0 for none, so that the zeroed array is an empty table. */
typedef struct slot {
    uint32_t hash;   /* of the canonical config */
    uint32_t next;   /* the next entry in its bucket's chain */
    uint32_t prev_free, next_free; /* in the list of freed entries, oldest first */
    uint32_t count;  /* the owners' holds */
    uint8_t pinned;  /* interned without a hold: never reused */
    uint8_t in_free; /* in the freed list (count 0, not pinned) */
} slot;

kontor_config kontor__config_table[KONTOR_CONFIGS_MAX]; /* (window.h: deal.c tells an entry by its address) */
#define table kontor__config_table
static kontor_window windows[KONTOR_CONFIGS_MAX]; /* table[i].win is &windows[i] */
static slot meta[KONTOR_CONFIGS_MAX];
static uint32_t bucket[NBUCKETS];
static uint32_t fresh;                /* table[fresh ..) never used */
static uint32_t free_head, free_tail; /* the freed entries, oldest first */
static atomic_size_t alive;           /* entries held or pinned */
static _Atomic uint32_t last_pinned;  /* the entry pinned or found pinned last (its index + 1), or 0 */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* cfg with its padding zeroed and its derived field (cells) worked out:
 * equal settings, equal bytes. The padding is the one byte after layout[]
 * (a field added elsewhere that opens another gap costs at worst a
 * duplicate entry); cells took the two after event_arg[] (session
 * thirteen: board_full reads it instead of width and height). */
#define ZERO_GAP(c, a, b)                                                                                    \
    memset((char *)(c) + offsetof(kontor_config, a) + sizeof (c)->a, 0,                                     \
           offsetof(kontor_config, b) - offsetof(kontor_config, a) - sizeof (c)->a)
static void canonical(kontor_config *out, const kontor_config *cfg) {
    memcpy(out, cfg, KEY_BYTES);
    ZERO_GAP(out, layout, board_mask);
    ZERO_GAP(out, event_arg, cells);
    ZERO_GAP(out, cells, inner);
    out->cells = (uint16_t)(cfg->width * cfg->height);
}

/* The canonical bytes by words, multiplied in, then mixed (murmur3's
 * finalizer): the configs a server sees differ in a byte or two, and a
 * difference in any bit of any word reaches the bucket's bits. */
static uint32_t hash_of(const kontor_config *c) {
    const unsigned char *p = (const unsigned char *)c;
    uint64_t h = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < KEY_BYTES; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdu;
    }
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53u;
    h ^= h >> 33;
    return (uint32_t)h;
}

static long index_of(const kontor_config *cfg) {
    uintptr_t p = (uintptr_t)cfg, t0 = (uintptr_t)table;
    if (p >= t0 && p < t0 + sizeof table && (p - t0) % sizeof *table == 0) return (long)((p - t0) / sizeof *table);
    return -1;
}

/* ---- under the lock ---------------------------------------------------------------- */

static uint32_t find(const kontor_config *c, uint32_t h) {
    for (uint32_t i = bucket[h & (NBUCKETS - 1)]; i; i = meta[i - 1].next)
        if (meta[i - 1].hash == h && memcmp(&table[i - 1], c, KEY_BYTES) == 0) return i;
    return 0;
}

static void free_unlink(uint32_t i) {
    slot *m = &meta[i - 1];
    if (m->prev_free) meta[m->prev_free - 1].next_free = m->next_free;
    else free_head = m->next_free;
    if (m->next_free) meta[m->next_free - 1].prev_free = m->prev_free;
    else free_tail = m->prev_free;
    m->prev_free = m->next_free = 0;
    m->in_free = 0;
}

static void free_push(uint32_t i) {
    slot *m = &meta[i - 1];
    m->prev_free = free_tail;
    m->next_free = 0;
    if (free_tail) meta[free_tail - 1].next_free = i;
    else free_head = i;
    free_tail = i;
    m->in_free = 1;
}

static void chain_unlink(uint32_t i) {
    uint32_t *at = &bucket[meta[i - 1].hash & (NBUCKETS - 1)];
    while (*at != i) at = &meta[*at - 1].next;
    *at = meta[i - 1].next;
}

/* A place for c: the oldest freed entry, else a never used one (so the
 * entries touched are as many as were ever in use at once); 0 when every
 * entry is held or pinned. */
static uint32_t insert(const kontor_config *c, uint32_t h) {
    uint32_t i = free_head;
    if (i) {
        free_unlink(i);
        chain_unlink(i);
    } else if (fresh < KONTOR_CONFIGS_MAX) i = ++fresh;
    else return 0;
    memcpy(&table[i - 1], c, sizeof *c); /* the padding too */
    slot *m = &meta[i - 1];
    m->hash = h;
    m->count = 0;
    m->pinned = 0;
    m->next = bucket[h & (NBUCKETS - 1)];
    bucket[h & (NBUCKETS - 1)] = i;
    return i;
}

/* an entry found or made becomes alive (held or pinned) */
static void wake(uint32_t i) {
    if (meta[i - 1].in_free) free_unlink(i);
    if (!meta[i - 1].count && !meta[i - 1].pinned) atomic_fetch_add_explicit(&alive, 1, memory_order_relaxed);
}

static void full_error(kontor_error *err) {
    if (!err) return;
    memset(err, 0, sizeof *err);
    err->code = KONTOR_E_RANGE;
    snprintf(err->msg, sizeof err->msg,
             "the process holds %d distinct configurations in use already (KONTOR_CONFIGS_MAX); this one is not among them",
             KONTOR_CONFIGS_MAX);
}

/* c canonical; hold: 1 for kontor_config_retain, 0 for kontor_config_intern */
static const kontor_config *lookup(const kontor_config *c, int hold, kontor_error *err) {
    uint32_t h = hash_of(c);
    pthread_mutex_lock(&lock);
    uint32_t i = find(c, h);
    if (!i) {
        /* a new config: its window, or its refusal (a board too large for
         * a state's sets) */
        kontor_window w;
        if (kontor__window(c, &w, err) != KONTOR_OK) {
            pthread_mutex_unlock(&lock);
            return NULL;
        }
        i = insert(c, h);
        if (i) {
            kontor__deal_checks(c, &w); /* the deal's checks with the entry (window.h) */
            windows[i - 1] = w;
            table[i - 1].win = &windows[i - 1];
        }
    }
    if (i) {
        slot *m = &meta[i - 1];
        if (hold) {
            wake(i);
            m->count++;
        } else if (!m->count && !m->pinned) { /* nobody's hold to borrow: kept for good */
            wake(i);
            m->pinned = 1;
        }
        if (m->pinned) atomic_store_explicit(&last_pinned, i, memory_order_release);
    }
    pthread_mutex_unlock(&lock);
    if (!i) full_error(err);
    return i ? &table[i - 1] : NULL;
}

/* ---- the API (kontor.h) ------------------------------------------------------------- */

const kontor_config *kontor_config_intern(const kontor_config *cfg, kontor_error *err) {
    /* already one of ours (a state's cfg dealt again, the server's held
     * config): itself, alive as long as its holder keeps it */
    if (index_of(cfg) >= 0) return cfg;
    kontor_config c;
    canonical(&c, cfg);
    /* the entry pinned last, without the lock or the hash: a pinned entry
     * never changes (the CLI replaying records, kontor_new from a config of
     * the caller's: one memcmp, as before session fourteen) */
    uint32_t lp = atomic_load_explicit(&last_pinned, memory_order_acquire);
    if (lp && memcmp(&table[lp - 1], &c, KEY_BYTES) == 0) return &table[lp - 1];
    return lookup(&c, 0, err);
}

const kontor_config *kontor_config_retain(const kontor_config *cfg, kontor_error *err) {
    long k = index_of(cfg);
    if (k < 0) {
        kontor_config c;
        canonical(&c, cfg);
        return lookup(&c, 1, err);
    }
    pthread_mutex_lock(&lock);
    wake((uint32_t)k + 1);
    meta[k].count++;
    pthread_mutex_unlock(&lock);
    return cfg;
}

void kontor_config_release(const kontor_config *cfg) {
    long k = cfg ? index_of(cfg) : -1;
    if (k < 0) return;
    pthread_mutex_lock(&lock);
    slot *m = &meta[k];
    if (m->count && !--m->count && !m->pinned) {
        free_push((uint32_t)k + 1);
        atomic_fetch_sub_explicit(&alive, 1, memory_order_relaxed);
    }
    pthread_mutex_unlock(&lock);
}

size_t kontor_configs_interned(void) {
    return atomic_load_explicit(&alive, memory_order_relaxed);
}
