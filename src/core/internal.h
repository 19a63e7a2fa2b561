/* internal.h: hooks into the engine for tests that build positions by hand
 * (the rulebook's figures). Not part of the public interface: a position
 * built this way skips the rules that would have led to it. */
#ifndef KONTOR_INTERNAL_H
#define KONTOR_INTERNAL_H

#include "kontor/kontor.h"

/* Take every card off the board (they vanish: the caller keeps the count of
 * cards straight if it cares) and forget the extent and enclosed areas. */
void kontor__clear_board(kontor_state *s);
/* Lay card id on cell without any rule: no scoring, no draw. */
void kontor__put(kontor_state *s, int cell, int id);
/* Score every open area that is enclosed now (as after a placement). */
void kontor__score_enclosed(kontor_state *s, kontor_log *log);
/* Score cells as an enclosed area the plain way (area.c's score_area: its
 * fields by passes over the grid), appending it to s->area; for tests that
 * compare the placement's faster scoring with it. */
void kontor__score_area_plain(kontor_state *s, kontor_bb cells);
/* The id of the card with a printed number, or -1. */
int kontor__card_id(const kontor_state *s, int number);

#endif
