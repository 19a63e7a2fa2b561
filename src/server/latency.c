/* latency.c: the histograms of latency.h and their JSON for /api/stats.
 *
 * Fixed arrays, no allocation on the hot path: an add is a bucket index and
 * two increments, cheap enough to run for every read and every loop turn.
 */
#include <time.h>

#include "server/latency.h"

lathist lat_decision, lat_wait, lat_loop;

void lat_add(lathist *h, uint64_t us) {
    h->n++;
    if (us > h->max_us) h->max_us = us;
    h->b[lat_bucket(us)]++;
}

uint64_t lat_quantile(const uint64_t *b, uint64_t n, double q) {
    if (!n) return 0;
    uint64_t want = (uint64_t)(q * (double)n);
    if (want >= n) want = n - 1;
    uint64_t seen = 0;
    for (int i = 0; i < LAT_BUCKETS; i++) {
        seen += b[i];
        if (seen > want) return lat_upper(i);
    }
    return lat_upper(LAT_BUCKETS - 1);
}

uint64_t lat_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
