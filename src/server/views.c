/* views.c: what a connection of a game is sent: its seat's view of the state, and the broadcast of a change.
 *
 * Apart because it is the server's hot path (every move sends every
 * connection of its game a message) and the one place that decides what a
 * seat may see: each message is built from kontor_view_of() for that seat,
 * never from the full state. Everything here runs with the game's mutex
 * held and only queues (the transport writes, never under the lock).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/jtext.h"
#include "server/sgame.h"
#include "server/sjson.h"

/* Messages are written into buffers kept by each thread (the loop and the
 * computer's workers build messages, each under its game's lock): no
 * allocation for the text once they have grown to the largest message.
 * scratch: one message at a time; aud: one a seat (and one for the
 * spectators, aud[0]) while a broadcast shares them. */
static _Thread_local jtext scratch;
static _Thread_local jtext aud[KONTOR_MAX_SEATS + 1];

/* This thread's buffers are freed (a computer's worker ending, the server
 * stopping). */
void views_thread_done(void) {
    jtext_release(&scratch);
    for (int i = 0; i <= KONTOR_MAX_SEATS; i++) jtext_release(&aud[i]);
}

void send_text(wsconn *c, const char *text) { c->send(c->tx, text, strlen(text)); }

void send_json(wsconn *c, json_t *o) {
    scratch.len = 0;
    scratch.oom = 0;
    if (jtext_dump(&scratch, o) == 0) c->send(c->tx, scratch.buf, scratch.len);
    json_decref(o);
}

void send_error(wsconn *c, const char *code, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    send_json(c, json_pack("{s:s, s:s, s:s}", "type", "error", "code", code, "error", msg));
}

json_t *seats_info(const sgame *g) {
    json_t *a = json_array();
    for (int i = 0; i < g->s.cfg->nseats; i++)
        json_array_append_new(a, json_pack("{s:s, s:i, s:s, s:b, s:b, s:s}", "name", kontor_seat_name(&g->s, i), "team",
                                           kontor_team(&g->s, i), "kind", g->seat[i].kind, "claimed",
                                           g->seat[i].claimed, "connected", g->seat[i].connected > 0, "player",
                                           g->seat[i].player));
    return a;
}

/* seats_info, written directly. */
static void seats_text(jtext *t, const sgame *g) {
    jt_open(t, '[');
    for (int i = 0; i < g->s.cfg->nseats; i++) {
        jt_open(t, '{');
        jt_key(t, "name");
        jt_str(t, kontor_seat_name(&g->s, i));
        jt_key(t, "team");
        jt_int(t, kontor_team(&g->s, i));
        jt_key(t, "kind");
        jt_str(t, g->seat[i].kind);
        jt_key(t, "claimed");
        jt_bool(t, g->seat[i].claimed);
        jt_key(t, "connected");
        jt_bool(t, g->seat[i].connected > 0);
        jt_key(t, "player");
        jt_str(t, g->seat[i].player);
        jt_close(t, '}');
    }
    jt_close(t, ']');
}

/* The state message for one connection: its view, its legal decisions, the
 * events it has not seen, as JSON text in *t (reset first), written
 * directly (sjtext.c; docs/server.md lists the fields). now: now_s() of the
 * broadcast, for the deadline. Marks those events sent and the ack told.
 * Call with g->mu held. 0, or -1 out of memory. */
int state_text(sgame *g, wsconn *w, jtext *t, double now) {
    kontor_view v;
    kontor_view_of(&g->s, w->seat, &v);
    jt_reset(t);
    jt_open(t, '{');
    sjt_view_fields(t, &v);
    jt_key(t, "type");
    jt_str(t, "state");
    jt_key(t, "game");
    jt_str(t, g->id);
    jt_key(t, "seat");
    if (w->seat >= 0) jt_int(t, w->seat);
    else jt_null(t);
    jt_key(t, "ply");
    jt_int(t, g->rec.nply);
    if (w->has_ack) {
        jt_key(t, "ack");
        jt_int(t, w->ack);
        w->has_ack = 0;
    }
    jt_key(t, "players");
    seats_text(t, g);
    if (w->seat >= 0 && g->s.cfg->nseats == 4) { /* its team may confer now (chat.h) */
        jt_key(t, "team_chat");
        jt_bool(t, chat_team_open(&g->s, kontor_team(&g->s, w->seat)));
    }
    jt_key(t, "legal");
    sjt_legal(t, &g->s, w->seat);
    jt_key(t, "events");
    jt_open(t, '[');
    for (long i = w->sent; i < g->nev; i++) sjt_event(t, &g->s, &g->ev[i], i, w->seat);
    jt_close(t, ']');
    w->sent = g->nev;
    if (g->timing_seat > 0) {
        /* the decision of this message was played by the timer, not chosen */
        jt_key(t, "timeout");
        jt_open(t, '{');
        jt_key(t, "seat");
        jt_int(t, g->timing_seat - 1);
        if (w->seat == g->timing_seat - 1) {
            jt_key(t, "text");
            jt_str(t, g->timing_text);
            jt_key(t, "move");
            jt_int(t, g->timing_move);
        }
        jt_close(t, '}');
    }
    if (g->deadline > 0) {
        jt_key(t, "deadline_ms");
        jt_int(t, (long long)((g->deadline - now) * 1000));
    }
    if (kontor_over(&g->s)) {
        jt_key(t, "result");
        jt_str(t, g->rec.result);
    }
    jt_close(t, '}');
    return jt_end(t);
}

/* The welcome message of a connection that joined seat of g (-1: watches):
 * the game's card set and settings. takeback: its person may take back. */
int welcome_text(const sgame *g, int seat, int takeback, jtext *t) {
    jt_reset(t);
    jt_open(t, '{');
    jt_key(t, "type");
    jt_str(t, "welcome");
    jt_key(t, "game");
    jt_str(t, g->id);
    jt_key(t, "seat");
    if (seat >= 0) jt_int(t, seat);
    else jt_null(t);
    jt_key(t, "variant");
    jt_str(t, kontor_variant_name(g->s.cfg->variant));
    jt_key(t, "cards");
    sjt_cards(t, g->s.cfg->cards);
    jt_key(t, "timeout");
    jt_int(t, g->timeout_s);
    jt_key(t, "takeback");
    jt_bool(t, takeback);
    jt_key(t, "nseats");
    jt_int(t, g->s.cfg->nseats);
    jt_close(t, '}');
    return jt_end(t);
}

void send_welcome(wsconn *w, const sgame *g, int takeback) {
    if (welcome_text(g, w->seat, takeback, &scratch) == 0) w->send(w->tx, scratch.buf, scratch.len);
}

/* Every connection of g gets its state. Each audience (a seat, or the
 * spectators) sees the same view, so the connections of one audience that
 * have seen the same events share one message, built once; a connection
 * whose move this acknowledges gets its own (its "ack"). */
void broadcast(sgame *g) {
    double now = now_s();
    long from[KONTOR_MAX_SEATS + 1];
    for (int i = 0; i <= KONTOR_MAX_SEATS; i++) from[i] = -1; /* -1: not built in this broadcast */
    for (wsconn *w = g->conns; w; w = w->next) {
        if (w->has_ack) {
            if (state_text(g, w, &scratch, now) == 0) w->send(w->tx, scratch.buf, scratch.len);
            continue;
        }
        int a = w->seat + 1;
        if (from[a] != w->sent) {
            from[a] = w->sent;
            if (state_text(g, w, &aud[a], now) != 0) {
                from[a] = -1;
                continue;
            }
        } else {
            w->sent = g->nev;
        }
        w->send(w->tx, aud[a].buf, aud[a].len);
    }
}

/* A game as the lobby lists it (and GET /api/games/ID answers): its
 * status, seats, and how many watch. Takes g->mu. */
json_t *summary(sgame *g) {
    pthread_mutex_lock(&g->mu);
    int open = 0;
    for (int i = 0; i < g->s.cfg->nseats; i++)
        if (strcmp(g->seat[i].kind, "human") == 0 && !g->seat[i].claimed) open = 1;
    /* a private game waiting for its players is not offered to strangers */
    const char *status = kontor_over(&g->s) ? "over" : open && g->listed ? "open" : "running";
    json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:i, s:o, s:s, s:i, s:i}", "id", g->id, "variant",
                          kontor_variant_name(g->s.cfg->variant), "status", status, "round", g->s.round, "ply",
                          g->rec.nply, "seats", seats_info(g), "result", g->rec.result, "timeout", g->timeout_s,
                          "spectators", 0);
    int spect = 0;
    for (wsconn *w = g->conns; w; w = w->next) spect += w->seat < 0;
    json_object_set_new(o, "spectators", json_integer(spect));
    pthread_mutex_unlock(&g->mu);
    return o;
}
