/* fuzz_layout.c: libFuzzer target for the scenarios' data parsers: start
 * layouts (data/layouts/NAME.txt) and event cards (data/events.txt).
 *
 * Both read text a person edits, so they must never crash or read out of
 * bounds whatever the bytes. The first byte picks the parser. A layout that
 * is accepted must give a game that deals; a refusal must carry a filled,
 * terminated message naming its line. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kontor/kontor.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(x) do { if (!(x)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!size) return 0;
    int events = data[0] & 1;
    data++, size--;
    char *text = malloc(size ? size : 1); /* exact size: ASan sees any overread */
    if (!text) return 0;
    if (size) memcpy(text, data, size);
    kontor_error err;
    memset(&err, 0, sizeof err);
    if (events) {
        kontor_event_card ev[KONTOR_EVENTS_MAX];
        int n = kontor_events_parse(ev, KONTOR_EVENTS_MAX, text, size, &err);
        if (n < 0) CHECK(err.msg[0] && memchr(err.msg, 0, sizeof err.msg) && err.line >= 1);
        else
            for (int i = 0; i < n; i++) CHECK(ev[i].action >= KONTOR_ACT_COINS_EACH && ev[i].action <= KONTOR_ACT_NO_PASS);
    } else {
        kontor_config cfg;
        kontor_config_init(&cfg, "advanced", NULL);
        kontor_status st = kontor_layout_parse(&cfg, "fuzz", text, size, &err);
        if (st) {
            CHECK(err.msg[0] && memchr(err.msg, 0, sizeof err.msg) && err.line >= 1);
        } else {
            /* a layout that parses fits its board: a game deals from it, or
             * says why not (too many water cards for the pile) */
            kontor_state s;
            kontor_status ns = kontor_new(&s, &cfg, 1, &err);
            CHECK(ns == KONTOR_OK || ns == KONTOR_E_INVALID ||
                  /* the process's table of configs is full (every parsed
                   * layout is a config of its own; KONTOR_CONFIGS_MAX) */
                  (ns == KONTOR_E_RANGE && kontor_configs_interned() == KONTOR_CONFIGS_MAX && err.msg[0]));
            if (ns == KONTOR_OK) {
                kontor_rng rng;
                kontor_rng_seed(&rng, 2);
                kontor_playout(&s, &rng);
                CHECK(kontor_over(&s));
            }
        }
    }
    free(text);
    return 0;
}
