/* chat.h: the chat of a game: its table and team channels, text checks, rate limit, history.
 *
 * The people of a game talk over its WebSocket ({"type":"chat"}). This module
 * holds what that needs apart from sockets: whether a text may be sent
 * (chat_text_check), whether a connection has sent too many lately
 * (chat_rate_take), whether a team may confer now (chat_team_open, the
 * rulebook's window for the game for four), the last messages of a game kept
 * in memory so that a reload shows them (chat_room), and who may read a
 * message (chat_reaches). server.c calls it under the game's mutex and sends
 * each message only to the connections chat_reaches names. docs/server.md,
 * "Chat", is the protocol.
 */
#ifndef KONTOR_SERVER_CHAT_H
#define KONTOR_SERVER_CHAT_H

#include <stddef.h>

#include <jansson.h>

#include "kontor/kontor.h"

/* The longest message, in characters (Unicode code points). */
#define CHAT_TEXT_MAX 200
/* The most messages --chat-burst may allow within a window (the rate ring's size). */
#define CHAT_BURST_MAX 20

/* A message's channel: the table (every player and spectator) or one team's. */
enum { CHAT_TABLE = -1, CHAT_TEAM_RED = 0, CHAT_TEAM_BLACK = 1 };

/* Is text (len bytes, as received) a message one may send? 1 yes; 0 with
 * *code ("chat_empty", "chat_too_long", "chat_control", "chat_utf8") and why
 * (a sentence) filled. Refused: not UTF-8, no character but spaces, more than
 * CHAT_TEXT_MAX characters, any control character (C0 but none, DEL, C1, and
 * the bidirectional overrides and isolates that would turn the text shown
 * around it). */
int chat_text_check(const char *text, size_t len, const char **code, char *why, size_t cap);

/* One connection's recent messages: at most burst within window_s seconds. */
typedef struct chat_rate {
    double t[CHAT_BURST_MAX]; /* when the last messages were sent, a ring */
    int n, head;
} chat_rate;

/* May one more message be sent at now (monotonic seconds)? 1 and it counts;
 * 0 and *retry_after is the whole seconds until one may (at least 1). */
int chat_rate_take(chat_rate *r, double now, int burst, int window_s, int *retry_after);

/* The game for four: may team (0 red, 1 black) confer now? The rulebook
 * ("Karten anlegen"): from the reveal of the played cards until both of its
 * cards are placed, i.e. in a round's placements while a seat of the team
 * still has its card to place. Always 0 in games for two. */
int chat_team_open(const kontor_state *s, int team);

/* Who reads a message of channel: a seat of team (or -1, a spectator). */
int chat_reaches(int channel, int viewer_team);

/* The last messages of one game. */
typedef struct chat_room chat_room;
chat_room *chat_room_new(int keep); /* NULL out of memory */
void chat_room_free(chat_room *r);  /* NULL is a no-op */
/* Keep a message and return it as JSON ({"type":"chat", "seq", "channel":
 * "table"|"team", "team", "seat", "name", "player", "text"}; a new
 * reference, the caller decrefs), NULL out of memory. */
json_t *chat_room_add(chat_room *r, int channel, int seat, const char *seat_name, const char *player,
                      const char *text);
/* Every kept message viewer_team may read, oldest first, as
 * {"type":"chat_history","messages":[...]} (a new reference). */
json_t *chat_room_history(const chat_room *r, int viewer_team);

#endif
