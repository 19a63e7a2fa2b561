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
#include "server/jtext.h"

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

/* ---- the same JSON written directly (sjtext.c) ------------------------------
 *
 * The server's hot path writes the state message's parts straight into a
 * jtext (jtext.h) instead of building the trees above: the same bytes, the
 * same keys in the same order (tests/test_jtext.c compares them on every
 * decision of random games), from the same data: a view for the board and
 * hands, the full state only where the functions above take it too (a
 * seat's own legal decisions, which event cards a viewer may know). Each
 * writes one value, with its comma (jtext.h). */
/* sj_view's members, without the braces: the state message adds its own (views.c). */
void sjt_view_fields(jtext *t, const kontor_view *v);
void sjt_cards(jtext *t, const kontor_cardset *cs);
void sjt_legal(jtext *t, const kontor_state *s, int seat);
void sjt_move(jtext *t, const kontor_state *s, int seat, kontor_move m);
void sjt_event(jtext *t, const kontor_state *s, const kontor_event *e, long seq, int viewer);

/* ---- what both ways of writing share (sjson.c) ------------------------------
 * The decisions behind the JSON, made once: names, which card a viewer may
 * know, a decision's words, who leads an open area and by what rule. */
const char *sj_colour_name(const kontor_card *c);
const char *sj_kind_name(const kontor_card *c);
const char *sj_phase_name(int phase);
const char *sj_end_name(int reason);
const char *sj_event_name(int kind);
/* The card id of event e as viewer (a seat, -1 a spectator, -2 everyone) may
 * know it: its own id, or KONTOR_UNKNOWN_BASE + its class. */
int sj_event_card(const kontor_state *s, const kontor_event *e, int viewer);
/* Event card idx of the built-in deck (data/events.txt, the one every server
 * game uses), parsed once; NULL when there is no such card. */
const kontor_event_card *sj_event_card_info(int idx);
/* The words of seat's decision m, as its entry of the legal list says them. */
void sj_move_words(const kontor_state *s, int seat, kontor_move m, char *text, size_t cap);
/* Who leads an open area with these goods and by which rule of
 * kontor_compare_goods ("superiority", "more", "cycle"); leader -1: a tie
 * (nothing else set); over: the good the leader is beaten in (cycle only, else -1). */
typedef struct sj_lead_t {
    int leader, good, amount, ahead, over;
    const char *rule;
} sj_lead_t;
void sj_lead(const uint8_t goods[2][3], sj_lead_t *out);
/* The open areas one by one: start with *cell = 0 and seen zeroed, gaps from
 * kontor_gap_cells; each call fills *a with the next area (its cells, goods,
 * size, and free cells bordering it) and returns 1, or 0 when none is left. */
typedef struct sj_open_area {
    kontor_bb cells;
    uint8_t goods[2][3];
    int size, free;
} sj_open_area;
int sj_open_area_next(const kontor_state *s, const kontor_bb *gaps, kontor_bb *seen, int *cell, sj_open_area *a);

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
