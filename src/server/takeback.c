/* takeback.c: when a person may take a decision back, and the game rebuilt without it (takeback.h).
 *
 * Why a replay and not an undo: the engine has no inverse of kontor_apply,
 * and needs none. A game's record is the game (the deal and every decision);
 * dropping its last decisions and replaying from the deal gives exactly the
 * state those decisions led to, its events for the log, and the record the
 * store keeps, all three agreeing by construction. A game is at most a few
 * hundred decisions, replayed in well under a millisecond.
 *
 * Where to: before the person's last decision in the record. The computer's
 * decisions after it go too (they answered it), and so do those before it in
 * the same simultaneous phase that the computer made after the person chose
 * (a replay puts them back only if they come first in the record).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/takeback.h"

const char *takeback_check(const kontor_record *rec, const kontor_state *s, int seat, int people, int allowed,
                           int *ply, char *why, size_t cap) {
    if (people != 1) {
        snprintf(why, cap, "a takeback is only for a game of one person against the computer (this one has %d people)",
                 people);
        return "takeback_people";
    }
    if (!allowed) {
        snprintf(why, cap, "this game was created without takebacks");
        return "takeback_off";
    }
    if (kontor_over(s)) {
        snprintf(why, cap, "the game is over: nothing is taken back");
        return "takeback_over";
    }
    for (int i = rec->nply - 1; i >= 0; i--)
        if (rec->ply[i].seat == seat) {
            *ply = i;
            return NULL;
        }
    snprintf(why, cap, "%s has made no decision yet: nothing to take back", kontor_seat_name(s, seat));
    return "takeback_none";
}

typedef struct evbuf {
    kontor_event *ev;
    long n, cap;
    int oom;
} evbuf;

static void collect(void *ctx, const kontor_state *s, int ply, const kontor_log *log) {
    evbuf *b = ctx;
    (void)s;
    (void)ply;
    if (b->oom || log->n <= 0) return;
    if (b->n + log->n > b->cap) {
        long cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->n + log->n) cap *= 2;
        kontor_event *e = realloc(b->ev, (size_t)cap * sizeof *e);
        if (!e) {
            b->oom = 1;
            return;
        }
        b->ev = e;
        b->cap = cap;
    }
    memcpy(b->ev + b->n, log->ev, (size_t)log->n * sizeof *log->ev);
    b->n += log->n;
}

kontor_status takeback_rebuild(const kontor_record *rec, int ply, kontor_state *s, kontor_event **ev, long *nev,
                               kontor_error *err) {
    evbuf b = {0};
    *ev = NULL;
    *nev = 0;
    kontor_status st = kontor_record_replay(rec, ply, s, collect, &b, err);
    if (st == KONTOR_OK && b.oom) {
        snprintf(err->msg, sizeof err->msg, "out of memory for the events of a takeback");
        st = err->code = KONTOR_E_RANGE;
    }
    if (st != KONTOR_OK) {
        free(b.ev);
        return st;
    }
    *ev = b.ev;
    *nev = b.n;
    return KONTOR_OK;
}

void takeback_note(kontor_record *rec, const char *game_id, int count) {
    snprintf(rec->event, sizeof rec->event, "kontor serve game %s (%d takeback%s)", game_id, count,
             count == 1 ? "" : "s");
}
