/* record.h: game records, kontor's PGN: a text that replays a whole game.
 *
 * A record is the configuration (variant, options, card set), the deal (the
 * full initial order of every pile) and every decision in order, with header
 * tags for people (players, date, result). The text format is specified in
 * docs/records.md so that another program can replay a record from the
 * document alone. Records are not on the hot path: a kontor_record owns a
 * heap array of decisions, released by kontor_record_release.
 */
#ifndef KONTOR_RECORD_H
#define KONTOR_RECORD_H

#include "kontor/kontor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kontor_ply {
    uint8_t seat;
    kontor_move move;
} kontor_ply;

#define KONTOR_TAG_MAX 128

/* The edition of kontor's default rulings a record's Options tag is written
 * against (its Rulings tag). 1 (a record without the tag): a pass is a hidden
 * choice and nobody may pass after a double pass, as "declare=hidden,pass=rest"
 * say now; 2: the rulebook's R1 and R2 (docs/rules.md). The writer always
 * writes the current one, so every record names the rules it was played under. */
#define KONTOR_RULINGS 2
#define KONTOR_RULINGS_1_OPTIONS "declare=hidden,pass=rest"

typedef struct kontor_record {
    kontor_config cfg;
    kontor_deal deal;
    char players[KONTOR_MAX_SEATS][KONTOR_TAG_MAX]; /* agent or person names, per seat */
    char date[KONTOR_TAG_MAX];                      /* YYYY-MM-DD, or "" */
    char event[KONTOR_TAG_MAX];                     /* free text, or "" */
    char result[16];                                /* "1-0", "0-1", "1/2-1/2", "*" */
    char termination[KONTOR_TAG_MAX];               /* why it ended early (forfeit reason), or "" */
    uint64_t seed;                                  /* the deal's seed, if it came from one */
    int has_seed;
    kontor_ply *ply;                                /* owned */
    int nply, cap;
} kontor_record;

/* Start an empty record for a game dealt from d under cfg. */
void kontor_record_init(kontor_record *r, const kontor_config *cfg, const kontor_deal *d);
void kontor_record_release(kontor_record *r);
/* Append a decision (the caller has applied it, or will). KONTOR_E_RANGE on
 * allocation failure. */
kontor_status kontor_record_push(kontor_record *r, int seat, kontor_move m);
/* Set result from a finished state ("*" while it is not over). */
void kontor_record_set_result(kontor_record *r, const kontor_state *s);

/* Write the record as text into a malloc'd string (*out, caller frees). */
kontor_status kontor_record_write(const kontor_record *r, char **out, size_t *len);
/* Parse a record's text. The decisions are parsed but not checked against the
 * rules; kontor_record_replay does that. err names the line on failure. */
kontor_status kontor_record_parse(kontor_record *r, const char *text, size_t len, kontor_error *err);
/* The same with another card set than the built-in one (NULL: built-in).
 * Card numbers are read with cards; a record whose Cards tag names another
 * set is refused. After either parse, r owns its plies (kontor_record_release);
 * on failure r holds nothing and err names the line. */
kontor_status kontor_record_parse_with(kontor_record *r, const kontor_cardset *cards, const char *text, size_t len,
                                       kontor_error *err);
/* Replay the first upto decisions (all when upto < 0) from the deal into s,
 * checking each; err names the round and the reason of an illegal one. If
 * each is not NULL it is called after every decision with the events (the
 * engine keeps no events when it is NULL). */
typedef void (*kontor_replay_cb)(void *ctx, const kontor_state *s, int ply, const kontor_log *log);
kontor_status kontor_record_replay(const kontor_record *r, int upto, kontor_state *s,
                                   kontor_replay_cb each, void *ctx, kontor_error *err);
/* The whole record, as kontor_record_replay with no callback, and *last_round
 * (if not NULL) the round the game was in before its last decision (0 when
 * the record holds none): what `kontor replay` prints as the record's number
 * of rounds, without a call a decision. */
kontor_status kontor_record_replay_rounds(const kontor_record *r, kontor_state *s, int *last_round,
                                          kontor_error *err);

#ifdef __cplusplus
}
#endif
#endif
