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

#include "server/sgame.h"
#include "server/sjson.h"

void send_text(wsconn *c, const char *text) { c->send(c->tx, text, strlen(text)); }

void send_json(wsconn *c, json_t *o) {
    char *t = json_dumps(o, JSON_COMPACT);
    if (t) send_text(c, t);
    free(t);
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
    for (int i = 0; i < g->s.cfg.nseats; i++)
        json_array_append_new(a, json_pack("{s:s, s:i, s:s, s:b, s:b, s:s}", "name", kontor_seat_name(&g->s, i), "team",
                                           kontor_team(&g->s, i), "kind", g->seat[i].kind, "claimed",
                                           g->seat[i].claimed, "connected", g->seat[i].connected > 0, "player",
                                           g->seat[i].player));
    return a;
}

/* The state message for one connection: its view, its legal decisions, the
 * events it has not seen, as JSON text (malloc'd; NULL out of memory).
 * Marks those events sent. Call with g->mu held. */
static char *state_text(sgame *g, wsconn *w) {
    kontor_view v;
    kontor_view_of(&g->s, w->seat, &v);
    json_t *o = sj_view(&v);
    json_object_set_new(o, "type", json_string("state"));
    json_object_set_new(o, "game", json_string(g->id));
    json_object_set_new(o, "seat", w->seat >= 0 ? json_integer(w->seat) : json_null());
    json_object_set_new(o, "ply", json_integer(g->rec.nply));
    if (w->has_ack) {
        json_object_set_new(o, "ack", json_integer(w->ack));
        w->has_ack = 0;
    }
    json_object_set_new(o, "players", seats_info(g));
    json_object_set_new(o, "legal", sj_legal(&g->s, w->seat));
    json_t *ev = json_array();
    for (long i = w->sent; i < g->nev; i++) json_array_append_new(ev, sj_event(&g->s, &g->ev[i], i, w->seat));
    w->sent = g->nev;
    json_object_set_new(o, "events", ev);
    if (g->timing_seat > 0) {
        /* the decision of this message was played by the timer, not chosen */
        json_t *t = json_pack("{s:i}", "seat", g->timing_seat - 1);
        if (w->seat == g->timing_seat - 1) {
            json_object_set_new(t, "text", json_string(g->timing_text));
            json_object_set_new(t, "move", json_integer(g->timing_move));
        }
        json_object_set_new(o, "timeout", t);
    }
    if (g->deadline > 0) json_object_set_new(o, "deadline_ms", json_integer((json_int_t)((g->deadline - now_s()) * 1000)));
    if (kontor_over(&g->s)) json_object_set_new(o, "result", json_string(g->rec.result));
    char *t = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return t;
}

static void send_state(sgame *g, wsconn *w) {
    char *t = state_text(g, w);
    if (t) send_text(w, t);
    free(t);
}

/* Every connection of g gets its state. Spectators see the same view, so
 * those that have seen the same events share one message, built once. */
void broadcast(sgame *g) {
    char *spect = NULL;
    long spect_from = -1;
    for (wsconn *w = g->conns; w; w = w->next) {
        if (w->seat >= 0 || w->has_ack) {
            send_state(g, w);
            continue;
        }
        if (!spect || spect_from != w->sent) {
            free(spect);
            spect_from = w->sent;
            spect = state_text(g, w);
        } else {
            w->sent = g->nev;
        }
        if (spect) send_text(w, spect);
    }
    free(spect);
}
