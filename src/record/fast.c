/* fast.c: the deal and the rounds of a record in the shape kontor writes them, read in one pass.
 *
 * Why a second reader: replaying a record spent more instructions reading
 * its text than playing its game (about 33,000 for an 866-byte record of
 * the basic game: words as slices, peeks kept for the next read, keyword
 * tests, every limit checked word by word). The records kontor writes
 * (kontor_record_write: the arena, the server, selfplay, the tests) take one
 * shape: "deal" lines of card numbers, then "N." rounds of card numbers,
 * "pass" or "play", seat words, cells like +1,-2 and the ship's, the
 * removal's, the water card's and the pile's decisions ("ship -2,+1",
 * "remove +1,0", "water 0,+3", "pile black"), words parted by one space or a
 * newline. This file reads that shape straight from the bytes,
 * with no token kept, no peek and no call a word, and declines (returns 0)
 * at the first byte that does not fit it: a comment, a tab, a carriage
 * return, a scenario's decision such as "bribe" or "buy", an unknown or
 * misplaced card, a round out of order, anything parse.c would refuse. parse.c
 * then reads the text again with its general reader from the same place, so
 * this file never decides what an error is: every message comes from one
 * reader, and a record either takes the shape and gets the same fields from
 * both (test_record compares them on every committed record and on thousands
 * of mutations of them) or is read by the general reader alone. The tags
 * before the deal are always read by parse.c.
 */
#include <string.h>

#include "ceilings.h"
#include "fast.h"

#define NO_CARD 0xFF

/* 1: a byte that parts words and that this shape uses (space, newline); 2: one
 * that parts words but that only the general reader takes (a tab, a carriage
 * return, ';' or '{' comments, a misplaced '['). */
static const unsigned char parts[256] = {[' '] = 1, ['\n'] = 1, ['\t'] = 2, ['\r'] = 2, [';'] = 2, ['{'] = 2, ['['] = 2};

/* The scan keeps its place in locals p and end (a byte store through the
 * record's arrays could alias a cursor kept in memory).
 *
 * BLANKS: skip spaces and newlines; decline at a byte only the general
 * reader takes. WORD(s, n): the word at p (blanks skipped, not at the end)
 * into s and its length n; decline when a byte only the general reader takes
 * ends it. */
#define BLANKS()                                                     \
    do {                                                             \
        if (end - p >= 2 && *p == ' ' && !parts[(unsigned char)p[1]]) { \
            p++;                                                     \
            break;                                                   \
        }                                                            \
        while (p < end && parts[(unsigned char)*p] == 1) p++;        \
        if (p < end && parts[(unsigned char)*p]) return 0;           \
    } while (0)
#define WORD(s, n)                                                   \
    do {                                                             \
        s = p;                                                       \
        while (p < end && !parts[(unsigned char)*p]) p++;            \
        if (p < end && parts[(unsigned char)*p] != 1) return 0;      \
        n = (int)(p - s);                                            \
    } while (0)

/* A word of one to digits digits; -1 if not (parse.c's number_of). */
static inline long digits_of(const char *s, int n, int digits) {
    if (n <= 0 || n > digits) return -1;
    long v = 0;
    for (int i = 0; i < n; i++) {
        if ((unsigned)(s[i] - '0') > 9) return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* A coordinate of the short forms: "5", "+5" or "-5"; -100 if another form. */
static inline int coord(const char *s, int n) {
    if (n == 1) return (unsigned)(s[0] - '0') <= 9 ? s[0] - '0' : -100;
    if (n == 2 && (s[0] == '+' || s[0] == '-') && (unsigned)(s[1] - '0') <= 9) return s[0] == '-' ? '0' - s[1] : s[1] - '0';
    return -100;
}

/* A cell of the short forms (+1,-2 with one digit a coordinate) or "-";
 * -1 for anything else, which the general reader reads. */
static inline int cell_of(const char *s, int n) {
    if (n == 1 && s[0] == '-') return KONTOR_NONE;
    if (n < 3 || n > 5) return -1;
    int k = s[1] == ',' ? 1 : s[2] == ',' ? 2 : 0;
    if (!k) return -1;
    int x = coord(s, k), y = coord(s + k + 1, n - k - 1);
    if (x < -7 || x > 8 || y < -7 || y > 8) return -1;
    int cell = kontor_cell(x, y);
    return cell == KONTOR_NONE ? -1 : cell;
}

/* The seat a word names, or -1 (parse.c's seat_of). */
static inline int seat_of(const char *s, int n, int nseats) {
    int seat, len;
    if (n >= 3 && s[0] == 'r' && s[1] == 'e' && s[2] == 'd') seat = 0, len = 3;
    else if (n >= 5 && memcmp(s, "black", 5) == 0) seat = 1, len = 5;
    else return -1;
    if (nseats == 2) return n == len ? seat : -1;
    if (nseats == 4 && n == len + 1 && (s[len] == '1' || s[len] == '2')) return seat * 2 + (s[len] - '1');
    return -1;
}

/* The pile a "deal" line names: 0 water, 1..nseats the seats, then the
 * special cards (parse.c's pile_word); -1 for another word. */
static int pile_of(const kontor_record *r, const char *s, int n) {
    int ns = r->cfg.nseats;
    if (n == 5 && memcmp(s, "water", 5) == 0) return 0;
    int seat = seat_of(s, n, ns);
    if (seat >= 0) return 1 + seat;
    if (r->cfg.specials && n == 7 && memcmp(s, "special", 7) == 0) return 1 + ns;
    return -1;
}

#define PILES_MAX (KONTOR_MAX_SEATS + 2)

/* The "deal" lines from *pp: 1 when the deal is complete and every card is
 * where it may be, *pp then at the first round. */
static int read_deal(kontor_record *r, const fast_tables *t, const char **pp, const char *end, uint64_t dealt[2]) {
    kontor_deal *d = &r->deal;
    const char *p = *pp, *s;
    int ns = r->cfg.nseats, npiles = 1 + ns + (r->cfg.specials ? 1 : 0), n;
    int done[PILES_MAX] = {0}, any = 0;
    uint64_t dealt0 = 0, dealt1 = 0;
    for (;;) {
        BLANKS();
        if (p == end) break;
        WORD(s, n);
        if (n != 4 || memcmp(s, "deal", 4) != 0) {
            p = s; /* the first round */
            break;
        }
        any = 1;
        BLANKS();
        if (p == end) return 0;
        WORD(s, n);
        int which = pile_of(r, s, n);
        if (which < 0 || done[which]) return 0;
        done[which] = 1;
        int want = which == 0 ? KONTOR_CLASS_WATER : which <= ns ? (ns == 4 ? (which - 1) / 2 : which - 1) : KONTOR_CLASS_SPECIAL;
        uint8_t *ids = which == 0 ? d->water : which <= ns ? d->dock[which - 1] : d->special;
        uint8_t *count = which == 0 ? &d->nwater : which <= ns ? &d->ndock[which - 1] : &d->nspecial;
        unsigned cap = which == 0 ? KONTOR_MAX_CARDS : which <= ns ? KONTOR_MAX_CARDS / 2 : 8, k = 0;
        /* the cards this pile may take: of its class, in the game, not dealt */
        uint64_t may0 = t->cls[want][0] & ~t->gone[0] & ~dealt0, may1 = t->cls[want][1] & ~t->gone[1] & ~dealt1;
        const uint8_t *num2id = t->num2id;
        for (;;) {
            unsigned v, dig;
            /* the usual: a space, one or two digits and a space or a newline,
             * read at once (what the general steps below read the same way) */
            if (end - p >= 4 && p[0] == ' ' && (v = (unsigned char)p[1] - '0') <= 9) {
                if ((dig = (unsigned char)p[2] - '0') <= 9) {
                    if (parts[(unsigned char)p[3]] == 1) {
                        v = v * 10 + dig;
                        p += 3;
                        goto number;
                    }
                } else if (parts[(unsigned char)p[2]] == 1) {
                    p += 2;
                    goto number;
                }
            }
            BLANKS();
            if (p == end) break;
            /* a number: one to three digits, then a blank or the end */
            v = (unsigned char)*p - '0';
            if (v > 9) break; /* a word: the next "deal" or the first round */
            const char *q = p + 1;
            if (q < end && (dig = (unsigned char)*q - '0') <= 9) {
                v = v * 10 + dig;
                if (++q < end && (dig = (unsigned char)*q - '0') <= 9) v = v * 10 + dig, q++;
            }
            if (q < end && parts[(unsigned char)*q] != 1) {
                if (parts[(unsigned char)*q]) return 0;
                break; /* a longer word ("1234", "1.") */
            }
            p = q;
        number:;
            unsigned id = v < 256 ? num2id[v] : NO_CARD;
            uint64_t bit = 1ULL << (id & 63);
            if (id < 64 && (may0 & bit)) may0 &= ~bit, dealt0 |= bit;
            else if (id >= 64 && id < 128 && (may1 & bit)) may1 &= ~bit, dealt1 |= bit;
            else return 0;
            if (k >= cap) return 0;
            ids[k++] = (uint8_t)id;
        }
        *count = (uint8_t)k;
    }
    if (!any) return 0;
    for (int k = 0; k < npiles; k++)
        if (!done[k]) return 0;
    uint64_t got[2] = {dealt0, dealt1};
    for (int w = 0; w < 2; w++) {
        uint64_t want = t->cls[KONTOR_CLASS_RED][w] | t->cls[KONTOR_CLASS_BLACK][w] | t->cls[KONTOR_CLASS_WATER][w];
        if (r->cfg.specials) want |= t->cls[KONTOR_CLASS_SPECIAL][w];
        if (want & ~t->gone[w] & ~got[w]) return 0;
    }
    dealt[0] = dealt0;
    dealt[1] = dealt1;
    *pp = p;
    return 1;
}

/* The decisions a record holds, written straight into its array; 0 when it
 * is full and cannot grow (the general reader says so). */
typedef struct plies {
    kontor_ply *at;
    int n, cap;
} plies;

static inline int push(kontor_record *r, plies *pl, int seat, kontor_move m) {
    if (pl->n < pl->cap) {
        pl->at[pl->n].seat = (uint8_t)seat;
        pl->at[pl->n].move = m;
        pl->n++;
        return 1;
    }
    r->nply = pl->n;
    if (kontor_record_push(r, seat, m) != KONTOR_OK) return 0;
    pl->at = r->ply;
    pl->n = r->nply;
    pl->cap = r->cap;
    return 1;
}

/* The rounds from p: "N." and its choices (declarations first, with R1),
 * then runs of decisions, each headed by its seat. 1 when they hold nothing
 * else to the end of the text. */
static int read_rounds(kontor_record *r, const fast_tables *t, const char *p, const char *end) {
    int ns = r->cfg.nseats, declare = !r->cfg.pass_hidden, card[KONTOR_MAX_SEATS];
    const uint8_t *num2id = t->num2id;
    plies pl = {r->ply, r->nply, r->cap};
    const char *s;
    int n;
    BLANKS();
    for (long expect = 1; p < end; expect++) {
        WORD(s, n);
        if (n < 2 || s[n - 1] != '.' || digits_of(s, n - 1, 5) != expect || expect > ROUND_MAX) return 0;
        for (int seat = 0; seat < ns; seat++) {
            card[seat] = -1;
            BLANKS();
            if (p == end) return 0;
            /* the usual card number, one or two digits and a blank, read at once */
            unsigned d0 = (unsigned char)p[0] - '0';
            if (d0 <= 9 && end - p >= 3) {
                unsigned d1 = (unsigned char)p[1] - '0', v = d0;
                const char *q = p + 1;
                if (d1 <= 9) v = v * 10 + d1, q++;
                if (parts[(unsigned char)*q] == 1 && num2id[v] != NO_CARD) {
                    p = q;
                    if (declare) {
                        if (!push(r, &pl, seat, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY))) return 0;
                        card[seat] = num2id[v];
                    } else if (!push(r, &pl, seat, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, num2id[v]))) {
                        return 0;
                    }
                    continue;
                }
            }
            WORD(s, n);
            if (n == 4 && s[0] == 'p' && s[1] == 'a' && s[2] == 's' && s[3] == 's') {
                if (!push(r, &pl, seat, KONTOR_MOVE(declare ? KONTOR_MOVE_DECLARE : KONTOR_MOVE_CHOOSE, KONTOR_PASS))) return 0;
                continue;
            }
            if (declare && n == 4 && memcmp(s, "play", 4) == 0) {
                if (!push(r, &pl, seat, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY))) return 0;
                continue;
            }
            long v = digits_of(s, n, 3);
            int id = v >= 0 && v <= 255 ? num2id[v] : NO_CARD;
            if (id == NO_CARD) return 0; /* "?", "buy", anything else: the general reader's */
            if (declare) {
                if (!push(r, &pl, seat, KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY))) return 0;
                card[seat] = id;
            } else if (!push(r, &pl, seat, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, id))) {
                return 0;
            }
        }
        for (int seat = 0; seat < ns; seat++)
            if (card[seat] >= 0 && !push(r, &pl, seat, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, card[seat]))) return 0;
        for (int seat = -1;;) {
            BLANKS();
            if (p == end) break;
            /* the usual seat words of the game for two, read at once */
            if (ns == 2 && end - p >= 3 && p[0] == 'r' && p[1] == 'e' && p[2] == 'd' &&
                (end - p == 3 || parts[(unsigned char)p[3]] == 1)) {
                seat = 0;
                p += 3;
                continue;
            }
            if (ns == 2 && end - p >= 5 && memcmp(p, "black", 5) == 0 && (end - p == 5 || parts[(unsigned char)p[5]] == 1)) {
                seat = 1;
                p += 5;
                continue;
            }
            /* the usual cell, [+-]d,[+-]d and a blank or the end, read at once */
            if (seat >= 0 && end - p >= 4) {
                const char *q = p;
                int sx = 1, sy = 1;
                if (*q == '+' || *q == '-') sx = *q++ == '-' ? -1 : 1;
                unsigned dx = (unsigned char)q[0] - '0';
                if (dx <= 9 && q[1] == ',' && end - q >= 3) {
                    q += 2;
                    if (*q == '+' || *q == '-') sy = *q++ == '-' ? -1 : 1;
                    unsigned dy = q < end ? (unsigned char)*q - '0' : 10;
                    if (dy <= 9 && (q + 1 == end || parts[(unsigned char)q[1]] == 1)) {
                        int x = sx * (int)dx, y = sy * (int)dy;
                        if (x >= -7 && x <= 8 && y >= -7 && y <= 8 && kontor_cell(x, y) != KONTOR_NONE) {
                            if (!push(r, &pl, seat, KONTOR_MOVE(KONTOR_MOVE_PLACE, kontor_cell(x, y)))) return 0;
                            p = q + 1;
                            continue;
                        }
                    }
                }
            }
            WORD(s, n);
            if (s[n - 1] == '.') { /* the next round (or a word the general reader refuses) */
                p = s;
                break;
            }
            int who = seat_of(s, n, ns);
            if (who >= 0) {
                seat = who;
                continue;
            }
            if (seat < 0) return 0;
            int kind = KONTOR_MOVE_PLACE;
            if (s[0] >= 'a' && s[0] <= 'z') { /* a keyword and its word */
                if (n == 4 && memcmp(s, "ship", 4) == 0) kind = KONTOR_MOVE_SHIP;
                else if (n == 6 && memcmp(s, "remove", 6) == 0) kind = KONTOR_MOVE_REMOVE;
                else if (n == 5 && memcmp(s, "water", 5) == 0) kind = KONTOR_MOVE_PLACE_WATER;
                else if (n != 4 || memcmp(s, "pile", 4) != 0) return 0;
                BLANKS();
                if (p == end) return 0;
                WORD(s, n);
                if (kind == KONTOR_MOVE_PLACE) { /* "pile" and a seat */
                    int whose = seat_of(s, n, ns);
                    if (whose < 0 || !push(r, &pl, seat, KONTOR_MOVE(KONTOR_MOVE_PILE, whose))) return 0;
                    continue;
                }
            }
            int cell = cell_of(s, n);
            if (cell < 0 || (kind == KONTOR_MOVE_PLACE_WATER && cell == KONTOR_NONE) ||
                !push(r, &pl, seat, KONTOR_MOVE(kind, cell)))
                return 0;
        }
    }
    r->nply = pl.n;
    return 1;
}

int record_parse_fast(kontor_record *r, const fast_tables *t, const char *p, const char *end, uint64_t dealt[2]) {
    return read_deal(r, t, &p, end, dealt) && read_rounds(r, t, p, end);
}
