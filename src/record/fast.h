/* fast.h: the record reader's fast path (fast.c), for parse.c only. */
#ifndef KONTOR_RECORD_FAST_H
#define KONTOR_RECORD_FAST_H

#include "kontor/record.h"

/* What the fast path reads cards with: parse.c's tables for the record. */
typedef struct fast_tables {
    const uint8_t *num2id;      /* card number -> id, or 0xFF */
    const uint64_t (*cls)[2];   /* the ids of each class */
    const uint64_t *gone;       /* the cards out of the game */
} fast_tables;

/* Read the deal and the rounds, the rest of the text [p, end), when they
 * take the shape kontor_record_write gives them and hold no error: 1, with
 * r's deal and decisions filled in and dealt[] the dealt cards. 0 when the
 * text takes any other shape or holds an error; r's deal, r->nply and dealt[]
 * are then to be reset by the caller, who reads the text with the general
 * reader, which says what is wrong. */
int record_parse_fast(kontor_record *r, const fast_tables *t, const char *p, const char *end, uint64_t dealt[2]);

/* For the tests that hold the two readers to the same results:
 * kontor_record_parse_with with the general reader alone, with the fast
 * path and the general reader after it (what kontor_record_parse_with
 * does), or with the fast path alone (a record it declines is refused with
 * "the fast reader declines the record"). */
enum { RECORD_READ_GENERAL, RECORD_READ_BOTH, RECORD_READ_FAST_ONLY };
kontor_status record_parse_mode(kontor_record *r, const kontor_cardset *cards, const char *text, size_t len,
                                kontor_error *err, int mode);

#endif
