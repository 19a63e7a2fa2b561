/* latency.h: the server's view of its own latency: histograms of a decision's time in the server and of the loop's turns.
 *
 * A load generator on the same machine measures its own lag too (it reads a
 * reply late when it is busy or descheduled), so the server keeps its own
 * figures, which /api/stats reports and `kontor loadtest` prints beside its
 * own. Three histograms, all written and read on the loop's thread only:
 *
 *   decision  from the kernel's receive timestamp of the bytes that
 *             completed a move (SO_TIMESTAMPNS) to the moment the frame
 *             carrying its acknowledging state was handed to the kernel:
 *             waiting to be read, parsing, the engine, the store, the views
 *   wait      from that receive timestamp to the loop's read, for every read
 *             of a WebSocket that returned bytes (the loop's lag as a
 *             client sees it)
 *   loop      the busy time of each turn of the loop: from one turn's
 *             prepare to the next, less the time spent waiting in epoll
 *
 * Buckets are log-linear: exact below 16 us, then eight a power of two (a
 * bucket is at most 12.5% wide), up to 2^30 us. A quantile is reported as
 * its bucket's upper edge. The cumulative counts are published too, so that
 * a reader can take the difference of two readings and get the quantiles of
 * just the interval between them (loadtest does).
 */
#ifndef KONTOR_SERVER_LATENCY_H
#define KONTOR_SERVER_LATENCY_H

#include <stdint.h>

#define LAT_BUCKETS 224
#define LAT_MAX_US ((UINT64_C(1) << 30) - 1)

typedef struct lathist {
    uint64_t n, max_us;
    uint64_t b[LAT_BUCKETS];
} lathist;

/* The bucket of a value in microseconds. */
static inline int lat_bucket(uint64_t us) {
    if (us > LAT_MAX_US) us = LAT_MAX_US;
    if (us < 16) return (int)us;
    int e = 63 - __builtin_clzll(us); /* 4..29 */
    return 16 + (e - 4) * 8 + (int)((us >> (e - 3)) & 7);
}

/* The largest value in bucket i, in microseconds. */
static inline uint64_t lat_upper(int i) {
    if (i < 16) return (uint64_t)i;
    int e = (i - 16) / 8 + 4, m = (i - 16) % 8;
    return ((uint64_t)(9 + m) << (e - 3)) - 1;
}

void lat_add(lathist *h, uint64_t us);
/* The upper edge of the bucket holding quantile q (0..1) of counts b
 * totalling n; 0 when n is 0. */
uint64_t lat_quantile(const uint64_t *b, uint64_t n, double q);

/* The server's three (loop thread only). */
extern lathist lat_decision, lat_wait, lat_loop;

/* Wall-clock (CLOCK_REALTIME) nanoseconds: the clock of the kernel's
 * receive timestamps. */
uint64_t lat_now_ns(void);

#endif
