/* game_chat.c: the chat and the takebacks of a game in memory: the glue between chat.c, takeback.c and a game.
 *
 * chat.c decides what a message may be, when a team may confer and who reads
 * what; takeback.c decides when a person may take back and rebuilds the game
 * from its record. This file does what needs the game itself: its mutex, its
 * connections, its store. session.c calls chat_post and chat_welcome, api.c
 * game_takeback; each runs on the loop's thread and takes the game's mutex.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/chat.h"
#include "server/sgame.h"
#include "server/takeback.h"

int people_of(const sgame *g) {
    int n = 0;
    for (int i = 0; i < g->s.cfg->nseats; i++) n += strcmp(g->seat[i].kind, "human") == 0;
    return n;
}

/* Its person may take back (a game against the computer created with takebacks). */
int takeback_allowed(const sgame *g) { return g->takeback && people_of(g) == 1 && !S.shared; }

/* ---- chat ------------------------------------------------------------------------- */

/* Call with g->mu held, right after the welcome. */
void chat_welcome(wsconn *w, sgame *g) {
    send_json(w, chat_room_history(g->chat, w->seat >= 0 ? kontor_team(&g->s, w->seat) : -1));
}

/* A chat message: checked, rate-limited, kept, and sent to those who may
 * read it (chat_reaches). Spectators read the table but do not write: a
 * watch link is public, so a stranger could otherwise talk into any game. */
void chat_post(wsconn *w, json_t *msg) {
    sgame *g = w->g;
    if (!g) {
        send_error(w, "bad_request", "join or watch a game before chatting");
        return;
    }
    if (w->seat < 0) {
        send_error(w, "spectator", "game '%s': spectators read the table's chat but do not write in it", g->id);
        return;
    }
    json_t *tj = json_object_get(msg, "text");
    const char *ch = json_string_value(json_object_get(msg, "channel"));
    if (!json_is_string(tj) || (json_object_get(msg, "channel") && !ch) ||
        (ch && strcmp(ch, "table") != 0 && strcmp(ch, "team") != 0)) {
        send_error(w, "bad_request", "chat needs a \"text\" string and a \"channel\" of \"table\" or \"team\"");
        return;
    }
    const char *code;
    char why[160];
    if (!chat_text_check(json_string_value(tj), json_string_length(tj), &code, why, sizeof why)) {
        send_error(w, code, "%s", why);
        return;
    }
    pthread_mutex_lock(&g->mu);
    int team = kontor_team(&g->s, w->seat);
    int channel = ch && strcmp(ch, "team") == 0 ? team : CHAT_TABLE;
    int retry = 0;
    if (channel != CHAT_TABLE && g->s.cfg->nseats != 4) {
        send_error(w, "no_team", "game '%s' is a game for two: it has no team channel", g->id);
    } else if (channel != CHAT_TABLE && !chat_team_open(&g->s, team)) {
        /* rulebook, Der Wettstreit zu viert, "Karten anlegen" (docs/rules.md R29) */
        send_error(w, "team_chat_closed",
                   "game '%s' round %d: partners confer only from the reveal until both their cards are placed",
                   g->id, g->s.round);
    } else if (!chat_rate_take(&w->chat, now_s(), S.lim.chat_burst, S.lim.chat_window_s, &retry)) {
        char m[160];
        snprintf(m, sizeof m, "at most %d chat messages in %d s (--chat-burst, --chat-window): try again in %d s",
                 S.lim.chat_burst, S.lim.chat_window_s, retry);
        send_json(w, json_pack("{s:s, s:s, s:s, s:i}", "type", "error", "code", "chat_rate", "error", m, "retry_after",
                               retry));
    } else {
        if (!g->chat) g->chat = chat_room_new(S.lim.chat_keep);
        json_t *m = g->chat ? chat_room_add(g->chat, channel, w->seat, kontor_seat_name(&g->s, w->seat),
                                            g->seat[w->seat].player, json_string_value(tj))
                            : NULL;
        char *t = m ? json_dumps(m, JSON_COMPACT) : NULL;
        json_decref(m);
        if (!t) send_error(w, "server", "out of memory");
        for (wsconn *c = g->conns; t && c; c = c->next)
            if (chat_reaches(channel, c->seat >= 0 ? kontor_team(&g->s, c->seat) : -1)) send_text(c, t);
        free(t);
    }
    pthread_mutex_unlock(&g->mu);
}

/* ---- takeback ----------------------------------------------------------------------- */

__attribute__((format(printf, 4, 5))) static int answer(json_t **out, int status, const char *code, const char *fmt,
                                                         ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    *out = code ? json_pack("{s:s, s:s}", "error", msg, "code", code) : json_pack("{s:s}", "error", msg);
    return status;
}

/* POST /api/games/ID/takeback {"token"}: the person's last decision taken
 * back (takeback.h). The game is rebuilt from its record without it and
 * saved whole in one transaction (SQLite's save also drops the game's
 * stored decisions): a crash before the commit leaves the game as it was,
 * after it the game without them; nobody is told before. Returns the HTTP
 * status and the answer's JSON (*out). */
int game_takeback(sgame *g, const char *tok, json_t **out) {
    char why[200];
    pthread_mutex_lock(&g->mu);
    int seat = -1, ply = 0;
    for (int i = 0; tok && i < g->s.cfg->nseats; i++)
        if (g->seat[i].token[0] && strcmp(g->seat[i].token, tok) == 0) seat = i;
    if (seat < 0) {
        pthread_mutex_unlock(&g->mu);
        return answer(out, 403, "bad_token", "a takeback in game '%s' is asked with the player's \"token\"", g->id);
    }
    const char *code = takeback_check(&g->rec, &g->s, seat, people_of(g), g->takeback, &ply, why, sizeof why);
    if (!code && S.shared) {
        code = "takeback_shared";
        snprintf(why, sizeof why, "takebacks are not offered on a server of several nodes");
    }
    if (code) {
        pthread_mutex_unlock(&g->mu);
        return answer(out, 409, code, "game '%s': %s", g->id, why);
    }
    kontor_state *ns = malloc(sizeof *ns);
    kontor_event *ev = NULL;
    long nev = 0;
    kontor_error err = {0};
    if (!ns || takeback_rebuild(&g->rec, ply, ns, &ev, &nev, &err) != KONTOR_OK) {
        pthread_mutex_unlock(&g->mu);
        free(ns);
        return answer(out, 500, NULL, "game '%s': the takeback could not rebuild it: %s", g->id,
                      ns ? err.msg : "out of memory");
    }
    /* the game without the decisions, stored before anything else changes */
    kontor_state before = g->s;
    int old_n = g->rec.nply;
    char old_event[KONTOR_TAG_MAX], *old_meta = g->meta;
    memcpy(old_event, g->rec.event, sizeof old_event);
    g->s = *ns;
    free(ns);
    g->rec.nply = ply;
    g->takebacks++;
    takeback_note(&g->rec, g->id, g->takebacks);
    g->meta = make_meta(g);
    if (!g->meta || save_game(g, &err) != KONTOR_OK) {
        free(g->meta);
        g->meta = old_meta;
        g->takebacks--;
        memcpy(g->rec.event, old_event, sizeof old_event);
        g->rec.nply = old_n;
        g->s = before;
        kontor_record_set_result(&g->rec, &g->s);
        pthread_mutex_unlock(&g->mu);
        free(ev);
        return answer(out, 500, NULL, "game '%s': the takeback was not stored: %s", g->id, err.msg);
    }
    free(old_meta);
    free(g->ev);
    g->ev = ev;
    g->nev = g->evcap = nev;
    g->epoch++; /* a computer thinking now about the old position is ignored */
    logf_("game '%s': %s took back to decision %d", g->id, kontor_seat_name(&g->s, seat), ply);
    /* every connection is told, and gets its view and the events anew */
    json_t *tbm = json_pack("{s:s, s:i, s:i, s:i}", "type", "takeback", "seat", seat, "ply", ply, "takebacks", g->takebacks);
    char *t = json_dumps(tbm, JSON_COMPACT);
    json_decref(tbm);
    for (wsconn *w = g->conns; w; w = w->next) {
        if (t) send_text(w, t);
        w->sent = 0;
    }
    free(t);
    update_deadline(g);
    broadcast(g);
    schedule_ai(g);
    *out = json_pack("{s:i, s:i, s:i}", "seat", seat, "ply", ply, "takebacks", g->takebacks);
    pthread_mutex_unlock(&g->mu);
    return 200;
}
