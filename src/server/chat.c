/* chat.c: the chat of a game (chat.h): text checks, a sliding-window rate limit, the team window, the history.
 *
 * Kept apart from the sockets so that each rule is a function a test can call
 * on its own (tests/test_chat.c), and so that who reads a message is decided
 * in one place (chat_reaches), as what a seat may see of the game is decided
 * in kontor_view_of. The history is a ring of the last --chat-keep messages
 * of a game, in memory only: a reload within the game's life shows them, a
 * restart of the server forgets them (a chat is not part of the record).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/chat.h"

/* ---- text ----------------------------------------------------------------------- */

/* The next code point of s (n bytes left), its length in *k; -1 when s is
 * not well-formed UTF-8 there (overlong forms, surrogates, past U+10FFFF). */
static long utf8_next(const unsigned char *s, size_t n, int *k) {
    unsigned c = s[0];
    if (c < 0x80) {
        *k = 1;
        return c;
    }
    int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
    if (!len || c > 0xF4 || (size_t)len > n) return -1;
    long cp = c & (0x3F >> (len - 1));
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return -1;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    static const long min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return -1;
    *k = len;
    return cp;
}

/* Characters that change how text around them is shown, or are not text:
 * C0 controls (a line break is refused too: a chat line is one line), DEL,
 * C1, and the bidirectional embeddings, overrides and isolates (U+202A..E,
 * U+2066..9), which would let a message turn the next one around. */
static int is_control(long cp) {
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

int chat_text_check(const char *text, size_t len, const char **code, char *why, size_t cap) {
    const unsigned char *s = (const unsigned char *)text;
    size_t chars = 0;
    int visible = 0;
    for (size_t i = 0; i < len;) {
        int k;
        long cp = utf8_next(s + i, len - i, &k);
        if (cp < 0) {
            *code = "chat_utf8";
            snprintf(why, cap, "chat text is not UTF-8 at byte %zu", i);
            return 0;
        }
        if (is_control(cp)) {
            *code = "chat_control";
            snprintf(why, cap, "chat text has a control character (U+%04lX) at character %zu", (unsigned long)cp,
                     chars + 1);
            return 0;
        }
        if (cp != ' ' && cp != 0xA0 && cp != 0x3000) visible = 1;
        chars++;
        i += (size_t)k;
    }
    if (!visible) {
        *code = "chat_empty";
        snprintf(why, cap, "chat text is empty");
        return 0;
    }
    if (chars > CHAT_TEXT_MAX) {
        *code = "chat_too_long";
        snprintf(why, cap, "chat text has %zu characters, at most %d are sent", chars, CHAT_TEXT_MAX);
        return 0;
    }
    return 1;
}

/* ---- rate ------------------------------------------------------------------------ */

int chat_rate_take(chat_rate *r, double now, int burst, int window_s, int *retry_after) {
    if (burst > CHAT_BURST_MAX) burst = CHAT_BURST_MAX;
    if (burst < 1) burst = 1;
    /* forget what left the window (the ring holds the newest n, oldest at head) */
    while (r->n > 0 && now - r->t[r->head] >= window_s) {
        r->head = (r->head + 1) % CHAT_BURST_MAX;
        r->n--;
    }
    if (r->n >= burst) {
        double wait = r->t[r->head] + window_s - now;
        int s = (int)wait;
        if (s < wait) s++;
        *retry_after = s < 1 ? 1 : s;
        return 0;
    }
    r->t[(r->head + r->n) % CHAT_BURST_MAX] = now;
    r->n++;
    return 1;
}

/* ---- the team window ----------------------------------------------------------- */

int chat_team_open(const kontor_state *s, int team) {
    if (s->cfg->nseats != 4) return 0;
    /* the placements of a round (the cards are revealed); the seat to act
     * has laid its card once it is in the export or tile phase (as
     * end_game_won reads it) */
    int placed;
    switch (s->phase) {
    case KONTOR_PHASE_SHIP:
    case KONTOR_PHASE_REMOVE:
    case KONTOR_PHASE_PILE:
    case KONTOR_PHASE_PLACE: placed = 0; break;
    case KONTOR_PHASE_EXPORT:
    case KONTOR_PHASE_TILE: placed = 1; break;
    default: return 0; /* choosing, declaring, buying, ...: before the reveal; over */
    }
    for (int k = s->turn + placed; k < s->norder; k++)
        if (kontor_team(s, s->order[k]) == team) return 1;
    return 0;
}

int chat_reaches(int channel, int viewer_team) { return channel == CHAT_TABLE || channel == viewer_team; }

/* ---- history -------------------------------------------------------------------- */

typedef struct chat_msg {
    long seq;
    int channel, seat;
    char seat_name[16];
    char player[32];
    char *text; /* malloc'd: a game's history costs what was said, not 50 times the longest message */
} chat_msg;

struct chat_room {
    chat_msg *m; /* a ring of keep */
    int keep, n, head;
    long seq;
};

chat_room *chat_room_new(int keep) {
    chat_room *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->keep = keep > 0 ? keep : 1;
    r->m = calloc((size_t)r->keep, sizeof *r->m);
    if (!r->m) {
        free(r);
        return NULL;
    }
    return r;
}

void chat_room_free(chat_room *r) {
    if (!r) return;
    for (int i = 0; i < r->keep; i++) free(r->m[i].text);
    free(r->m);
    free(r);
}

static json_t *msg_json(const chat_msg *m) {
    json_t *o = json_pack("{s:s, s:I, s:s, s:i, s:s, s:s, s:s}", "type", "chat", "seq", (json_int_t)m->seq, "channel",
                          m->channel == CHAT_TABLE ? "table" : "team", "seat", m->seat, "name", m->seat_name, "player",
                          m->player, "text", m->text);
    if (o && m->channel != CHAT_TABLE) json_object_set_new(o, "team", json_integer(m->channel));
    return o;
}

json_t *chat_room_add(chat_room *r, int channel, int seat, const char *seat_name, const char *player,
                      const char *text) {
    size_t len = strlen(text);
    char *copy = malloc(len + 1);
    if (!copy) return NULL;
    memcpy(copy, text, len + 1);
    chat_msg *m;
    if (r->n < r->keep) {
        m = &r->m[(r->head + r->n) % r->keep];
        r->n++;
    } else { /* the oldest leaves */
        m = &r->m[r->head];
        r->head = (r->head + 1) % r->keep;
    }
    m->seq = ++r->seq;
    m->channel = channel;
    m->seat = seat;
    snprintf(m->seat_name, sizeof m->seat_name, "%s", seat_name ? seat_name : "");
    snprintf(m->player, sizeof m->player, "%s", player ? player : "");
    free(m->text);
    m->text = copy;
    return msg_json(m);
}

json_t *chat_room_history(const chat_room *r, int viewer_team) {
    json_t *a = json_array();
    for (int i = 0; r && i < r->n; i++) {
        const chat_msg *m = &r->m[(r->head + i) % r->keep];
        if (chat_reaches(m->channel, viewer_team)) json_array_append_new(a, msg_json(m));
    }
    return json_pack("{s:s, s:o}", "type", "chat_history", "messages", a);
}
