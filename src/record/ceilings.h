/* ceilings.h: what record.c (building, writing, replaying) and parse.c (reading)
 * of the game records share: the ceilings on a record's size and the seat
 * words, so that the writer and the reader cannot drift apart. Private to
 * src/record. */
#ifndef KONTOR_RECORD_CEILINGS_H
#define KONTOR_RECORD_CEILINGS_H

#include "kontor/record.h"

/* Rounds: the safety rule (option max_rounds) allows at most 10000. */
#define ROUND_MAX 10000
/* Decisions: per round 2 declarations, 2 choices and, per seat, at most a
 * ship move, a removal and a placement: 10 a round for two; with four seats
 * and the scenarios' decisions more, so 16 a round is a generous ceiling. */
#define PLY_MAX (ROUND_MAX * 16)

/* Seat words: red and black with two players; red1 red2 black1 black2 with
 * four (seats 0 to 3). */
static inline const char *record_seat_name(int nseats, int seat) {
    static const char *const two[2] = {"red", "black"};
    static const char *const four[4] = {"red1", "red2", "black1", "black2"};
    if (seat < 0 || seat >= nseats) return "nobody";
    return nseats == 4 ? four[seat] : two[seat];
}

/* The goods a harbour exports (Hafenbehörden: the export decision). */
static inline const char *record_good_word(int g) {
    static const char *const goods[3] = {"tea", "wine", "spice"};
    return g >= 0 && g < 3 ? goods[g] : "an unknown good";
}

#endif
