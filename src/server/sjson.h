/* sjson.h: the game as JSON for the browser and the API: cards, views, legal decisions, events.
 *
 * Only this file knows the JSON shape of a game (docs/server.md lists every
 * field). It works on a kontor_view, never on the full state, so a message
 * can only carry what its seat may know; the one exception, sj_state_full, is
 * for finished games, where nothing is secret any more.
 */
#ifndef KONTOR_SERVER_SJSON_H
#define KONTOR_SERVER_SJSON_H

#include <jansson.h>

#include "kontor/kontor.h"

/* The card set: [{id, n, colour, kind, coin, ship, goods:[t,w,s]}, ...]. */
json_t *sj_cards(const kontor_cardset *cs);
/* What v's seat (or a spectator) sees: board, hands, coins, round, phase,
 * areas, points; and the result when over. */
json_t *sj_view(const kontor_view *v);
/* The whole state (a finished game, or a replay of one). */
json_t *sj_state_full(const kontor_state *s);
/* seat's legal decisions, each with its words (kontor_move_text):
 * [{m, kind, text, card?, x?, y?, pass?, none?, value?, seat?, good?}, ...]. */
json_t *sj_legal(const kontor_state *s, int seat);
/* One decision of seat in s as sj_legal writes each: {"m", "kind", "text", and its card, cell, ...}. */
json_t *sj_move(const kontor_state *s, int seat, kontor_move m);
/* One event with its sequence number, as viewer (a seat, -1 a spectator,
 * -2 everyone: a finished game) may know it: card ids the viewer may not know
 * now in s go as KONTOR_UNKNOWN_BASE + class. */
json_t *sj_event(const kontor_state *s, const kontor_event *e, long seq, int viewer);
/* "choose", "ship", ..., "tile" for a move kind; "?" for others. */
const char *sj_move_kind(int kind);

/* Outside JSON is parsed only through here. The shape is checked on the raw
 * bytes first: at most SJ_MAX_BYTES bytes and SJ_MAX_DEPTH nested arrays and
 * objects (jansson parses recursively, and a deep document overflows a
 * thread's stack before it returns). No protocol message or request body
 * nests deeper than 3. */
#define SJ_MAX_BYTES (64 * 1024)
#define SJ_MAX_DEPTH 16
/* 0 when buf[0..len) is within both limits; otherwise -1 with *code
 * "too_large" or "too_deep" and why filled. Strings are skipped (a bracket in
 * a string does not nest). */
int sj_shape_ok(const char *buf, size_t len, const char **code, char *why, size_t whycap);
/* sj_shape_ok, then jansson (duplicate keys refused); the value must be an
 * object. NULL with *code ("too_large", "too_deep", "bad_json") and why
 * filled otherwise. */
json_t *sj_parse_object(const char *buf, size_t len, const char **code, char *why, size_t whycap);

#endif
