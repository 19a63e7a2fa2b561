/* session.c: one WebSocket connection's life in the server: hello, join or watch, moves, close.
 *
 * The transport hands whole messages in; this file distrusts them (size,
 * rate by a token bucket, JSON shape and every field) before anything
 * changes, and answers errors as {"type":"error",...}. A connection is in
 * its game's list from attach() to server_conn_closed(), both under the
 * game's mutex (server.c's opening comment says why that matters).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/server.h"
#include "server/sgame.h"
#include "server/sjson.h"

wsconn *server_conn_open(void (*send)(void *tx, const char *text, size_t len), void (*close)(void *tx, int code),
                         void *tx) {
    wsconn *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->send = send;
    w->close = close;
    w->tx = tx;
    w->seat = -1;
    w->tokens = RATE_BURST;
    w->last = now_s();
    send_json(w, json_pack("{s:s, s:s}", "type", "hello", "version", KONTOR_VERSION));
    return w;
}


/* name: the player's name for seat, or NULL to keep the one it has. */
static void attach(wsconn *w, sgame *g, int seat, const char *name) {
    if (S.joined) S.joined(w->tx); /* ends its --join-timeout */
    pthread_mutex_lock(&g->mu);
    /* several nodes: a seat claimed here saves the meta; take the seats
     * claimed through other nodes first, so that it does not unclaim them */
    if (S.shared && seat >= 0 && !g->seat[seat].claimed) catch_up(g);
    w->g = g;
    w->seat = seat;
    w->sent = 0;
    w->next = g->conns;
    g->conns = w;
    int meta_changed = 0;
    if (seat >= 0) {
        g->seat[seat].connected++;
        if (!g->seat[seat].claimed) {
            g->seat[seat].claimed = 1;
            meta_changed = 1;
        }
        if (name && strcmp(name, g->seat[seat].player) != 0) {
            snprintf(g->seat[seat].player, sizeof g->seat[seat].player, "%s", name);
            meta_changed = 1;
        }
    }
    if (meta_changed) {
        char *m = make_meta(g);
        if (m) {
            free(g->meta);
            g->meta = m;
            kontor_error err;
            if (save_game(g, &err) != KONTOR_OK) logf_("%s", err.msg);
        }
    }
    send_welcome(w, g, seat >= 0 && takeback_allowed(g));
    chat_welcome(w, g); /* the chat so far, as far as this seat may read it */
    /* everyone sees who is connected now; the newcomer also gets every event so far */
    broadcast(g);
    pthread_mutex_unlock(&g->mu);
}

static void handle_message(wsconn *w, json_t *msg) {
    const char *type = json_string_value(json_object_get(msg, "type"));
    wsconn *c = w;
    if (!type) {
        send_error(c, "bad_request", "message has no \"type\" string");
        return;
    }
    if (strcmp(type, "ping") == 0) {
        send_json(c, json_pack("{s:s}", "type", "pong"));
        return;
    }
    if (strcmp(type, "join") == 0 || strcmp(type, "watch") == 0) {
        const char *id = json_string_value(json_object_get(msg, "game"));
        if (w->g) {
            send_error(c, "bad_request", "this connection already follows game '%s'", w->g->id);
            return;
        }
        if (!id || !valid_id(id)) {
            send_error(c, "bad_request", "\"game\" must be a game id (lowercase letters and digits)");
            return;
        }
        sgame *g = get_game(id);
        if (!g) {
            send_error(c, "no_game", "game '%s' does not exist", id);
            return;
        }
        int seat = -1;
        const char *name = NULL;
        if (strcmp(type, "join") == 0) {
            const char *tok = json_string_value(json_object_get(msg, "token"));
            if (!tok) {
                send_error(c, "bad_request", "join needs a \"token\" string (from the seat's join link)");
                return;
            }
            for (int i = 0; i < g->s.cfg->nseats; i++)
                if (g->seat[i].token[0] && strcmp(g->seat[i].token, tok) == 0) seat = i;
            if (seat < 0) {
                send_error(c, "bad_token", "token does not open a seat of game '%s'", id);
                return;
            }
            json_t *nj = json_object_get(msg, "name");
            name = json_string_value(nj);
            if (nj && (!name || !player_name_ok(name))) {
                send_error(c, "bad_request", "\"name\" must be 1 to %d bytes of text without control characters",
                           PLAYER_NAME_MAX);
                return;
            }
        }
        attach(w, g, seat, name);
        return;
    }
    if (strcmp(type, "chat") == 0) {
        chat_post(w, msg);
        return;
    }
    if (strcmp(type, "move") == 0) {
        json_t *mj = json_object_get(msg, "move");
        if (!w->g) {
            send_error(c, "bad_request", "join a game before moving");
            return;
        }
        if (w->seat < 0) {
            send_error(c, "spectator", "game '%s': a spectator cannot move", w->g->id);
            return;
        }
        if (!json_is_integer(mj) || json_integer_value(mj) < 0 || json_integer_value(mj) > 0xFFFF) {
            send_error(c, "bad_request", "\"move\" must be a decision number from \"legal\"");
            return;
        }
        sgame *g = w->g;
        json_t *idj = json_object_get(msg, "id");
        pthread_mutex_lock(&g->mu);
        kontor_error err;
        w->ack = json_is_integer(idj) ? json_integer_value(idj) : 0;
        w->has_ack = json_is_integer(idj);
        kontor_status st = apply_decision(g, w->seat, (kontor_move)json_integer_value(mj), &err);
        w->has_ack = 0;
        pthread_mutex_unlock(&g->mu);
        if (st == KONTOR_OK && S.decided) S.decided(w->tx); /* its acknowledgement is queued: time it */
        if (st != KONTOR_OK) {
            json_t *e = json_pack("{s:s, s:s, s:s}", "type", "error", "code",
                                  st == KONTOR_E_ILLEGAL ? "illegal" : "server", "error", err.msg);
            if (json_is_integer(idj)) json_object_set(e, "id", idj);
            send_json(c, e);
        }
        return;
    }
    send_error(c, "bad_request", "unknown message type '%.40s' (join, watch, move, chat, ping)", type);
}

int server_conn_message(wsconn *w, int text, const char *data, size_t len) {
    wsconn *c = w;
    if (len > (size_t)MSG_MAX) {
        send_error(c, "too_large", "message of %zu bytes is over the limit of %d bytes; closing", len, MSG_MAX);
        w->close(w->tx, 1009); /* too big */
        return 0;
    }
    /* token bucket */
    double t = now_s();
    w->tokens += (t - w->last) * RATE_PER_S;
    if (w->tokens > RATE_BURST) w->tokens = RATE_BURST;
    w->last = t;
    if (w->tokens < 1.0) {
        if (++w->refused >= FLOOD_CLOSE) {
            send_error(c, "flood", "too many messages; closing");
            w->close(w->tx, 1008); /* policy */
            return 0;
        }
        if (w->refused % 50 == 1) send_error(c, "rate", "too many messages: at most %.0f a second", RATE_PER_S);
        return 1;
    }
    w->tokens -= 1.0;
    if (!text) {
        send_error(c, "bad_request", "only text messages (JSON) are understood");
        return 1;
    }
    const char *code;
    char why[160];
    json_t *msg = sj_parse_object(data, len, &code, why, sizeof why);
    if (!msg) {
        send_error(c, code, "message is %s", why);
        return 1;
    }
    handle_message(w, msg);
    json_decref(msg);
    return 1;
}

void server_conn_closed(wsconn *w) {
    if (!w) return;
    sgame *g = w->g;
    if (g) {
        pthread_mutex_lock(&g->mu);
        for (wsconn **p = &g->conns; *p; p = &(*p)->next)
            if (*p == w) {
                *p = w->next;
                break;
            }
        if (w->seat >= 0) g->seat[w->seat].connected--;
        if (!g->conns) g->left = now_s();
        broadcast(g);
        pthread_mutex_unlock(&g->mu);
    }
    free(w);
}
