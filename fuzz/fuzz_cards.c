/* fuzz_cards.c: libFuzzer target for the card file parser.
 *
 * kontor_cards_parse reads outside input (--cards FILE), so it must never
 * crash or read out of bounds whatever the bytes. When it accepts a set, the
 * set must keep the invariants the engine relies on; when it refuses, the
 * error must be a filled, terminated, lowercase message. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kontor/kontor.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(x) do { if (!(x)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* An exact-size heap copy, so ASan catches any read past the end. */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    if (size)
        memcpy(text, data, size);

    kontor_cardset cs;
    kontor_error err;
    kontor_status st = kontor_cards_parse(&cs, text, size, &err);
    free(text);

    CHECK(err.code == st);
    CHECK(memchr(err.msg, '\0', sizeof err.msg) != NULL);
    if (st != KONTOR_OK) {
        CHECK(st == KONTOR_E_PARSE || st == KONTOR_E_INVALID || st == KONTOR_E_RANGE);
        CHECK(err.msg[0] != '\0');
        CHECK(err.line >= 0);
        return 0;
    }

    CHECK(cs.ncards <= KONTOR_MAX_CARDS);
    CHECK(cs.centre < cs.ncards);
    CHECK(cs.card[cs.centre].kind == KONTOR_KIND_CENTRE);
    CHECK(cs.card[cs.centre].number == 0);
    CHECK(memchr(cs.name, '\0', sizeof cs.name) != NULL && cs.name[0] != '\0');
    int seen[256] = {0}, dock[2] = {0, 0}, goods[3] = {0, 0, 0}, water = 0;
    for (int i = 0; i < cs.ncards; i++) {
        const kontor_card *c = &cs.card[i];
        CHECK(c->kind <= KONTOR_KIND_CUSTOMS);
        CHECK(c->colour <= KONTOR_NEUTRAL);
        CHECK(c->coin <= 1 && c->ship <= 1);
        CHECK(seen[c->number]++ == 0);
        int n = c->goods[0] + c->goods[1] + c->goods[2];
        CHECK(c->kind == KONTOR_KIND_GOODS ? n >= 1 && n <= 3 : n == 0);
        int cl = kontor_card_class(c);
        CHECK(cl >= 0 && cl < KONTOR_NCLASSES);
        if (kontor_card_is_dock(c)) {
            CHECK(c->colour != KONTOR_NEUTRAL);
            CHECK(cl == (c->colour == KONTOR_RED ? KONTOR_CLASS_RED : KONTOR_CLASS_BLACK));
            dock[c->colour]++;
            for (int k = 0; k < 3; k++)
                goods[k] += c->goods[k];
        } else {
            CHECK(c->colour == KONTOR_NEUTRAL);
        }
        if (c->kind == KONTOR_KIND_WATER)
            water++;
    }
    CHECK(dock[0] == 22 && dock[1] == 22);
    CHECK(water >= 12);
    for (int k = 0; k < 3; k++)
        CHECK(goods[k] <= 16);
    return 0;
}
