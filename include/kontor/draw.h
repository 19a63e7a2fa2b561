/* draw.h: the board and the table as plain text, for people.
 *
 * One pure function of the state, with no I/O, so that `kontor show`,
 * `kontor replay`, the terminal client and the web client all draw the same
 * picture. What is drawn is decided by flags: a client shows only its own
 * seat's hand (fairness); a replay of a finished record may show all.
 */
#ifndef KONTOR_DRAW_H
#define KONTOR_DRAW_H

#include <stddef.h>

#include "kontor/kontor.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KONTOR_DRAW_HAND(seat) (1u << (seat)) /* show this seat's hand cards */
#define KONTOR_DRAW_ALL_HANDS 0xFu            /* show every hand */
#define KONTOR_DRAW_NO_LEGEND (1u << 4)       /* leave out the key to the symbols */

/* Draw s into buf (at most cap bytes, always NUL-terminated when cap > 0).
 * Returns the length of the whole drawing, as snprintf does: a return value
 * >= cap means it was cut short. Hands not selected by flags are drawn as a
 * count of cards; cards a view cannot see (KONTOR_UNKNOWN_BASE + class) as
 * '?'. The layout is described in docs/records.md ("The board as text"). */
size_t kontor_draw_board(const kontor_state *s, char *buf, size_t cap, unsigned flags);

#ifdef __cplusplus
}
#endif
#endif
