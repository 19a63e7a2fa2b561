/* takeback.h: taking back a person's last decision against the computer: when, to where, the rebuilt game.
 *
 * A casual game of one person against computer seats may let that person
 * take a decision back (POST /api/games/ID/takeback, docs/server.md). The
 * game is rebuilt from its record, never undone move by move: the record up
 * to the person's previous decision point is replayed from the deal, so the
 * state, the events and the record cannot disagree. server.c does the
 * locking, the store and the telling; this module decides.
 */
#ifndef KONTOR_SERVER_TAKEBACK_H
#define KONTOR_SERVER_TAKEBACK_H

#include "kontor/kontor.h"
#include "kontor/record.h"

/* May seat take back now? NULL when it may, with *ply the number of
 * decisions to keep (the record's decisions before seat's last one); else
 * a code for the 409 ("takeback_people": two or more people play,
 * "takeback_off": the game was created without takebacks, "takeback_over":
 * the game is over, "takeback_none": seat has made no decision yet) and why
 * in words. people: the game's human seats; allowed: its creator's choice. */
const char *takeback_check(const kontor_record *rec, const kontor_state *s, int seat, int people, int allowed,
                           int *ply, char *why, size_t cap);

/* The game of rec's first ply decisions, replayed from the deal: *s, and
 * every event since the deal (*ev malloc'd, *nev of them; caller frees).
 * rec is not changed. */
kontor_status takeback_rebuild(const kontor_record *rec, int ply, kontor_state *s, kontor_event **ev, long *nev,
                               kontor_error *err);

/* rec's Event tag with the count of takebacks so far (the record format has
 * no tag of its own for it: docs/records.md "Event" is free text). */
void takeback_note(kontor_record *rec, const char *game_id, int count);

#endif
