/* score.c: the end of the game: which enclosed areas count (largest-N,
 * smallest, by size), the points, the taverns' votes (Alte Seilschaften) and
 * the winner.
 *
 * Areas are scored (their warehouses written down) when they are closed in,
 * in area.c; this file only counts them at the end. */
#include <stdio.h>
#include <string.h>

#include "core/rules.h"

/* ---- the end -------------------------------------------------------------------- */

/* The areas that count at the end, one bit an area (KONTOR_MAX_AREAS fits
 * a word): kontor_counted_areas's array and kontor_points's sum are read
 * from it, the points over its few bits and not over every area. Inline in
 * both (no call, no frame of its own: basic 16,054 -> 16,035, advanced
 * 24,732 -> 24,716 a game). */
_Static_assert(KONTOR_MAX_AREAS <= 64, "an area's bit in one word");
__attribute__((always_inline)) static inline uint64_t counted_mask(const kontor_state *s) {
    const kontor_config *c = s->cfg;
    int n = s->nareas, left = c->largest, keepers = c->largest_keepers, min = c->min_area_cards;
    if (left == 0 || c->scoring == KONTOR_SCORE_SIZE) {
        uint64_t m = 0;
        for (int i = 0; i < n; i++) {
            const kontor_area *a = &s->area[i];
            if ((keepers && !a->keeper) || a->size < min || a->out) continue; /* out: Alte Seilschaften */
            if (c->scoring == KONTOR_SCORE_SIZE && a->size >= 4) continue;   /* Kleinen: "kleiner als 4" */
            m |= 1ULL << i;
        }
        return m;
    }
    /* sort by size (larger first; smaller first for David und Goliath), then
     * distance to the centre (nearer first): one key an area, (the size's
     * rank << 16 | dist << 8 | index), sorted by insertion in locals; the
     * index keeps equal areas in their order (a stable sort) and a group of
     * equal size and distance is one key >> 8 (advanced: the end's count
     * ~670 -> ~570 instructions a game; advanced 28,472 -> 28,377). The
     * keys are made in the pass that picks the candidates. */
    unsigned flip = c->scoring == KONTOR_SCORE_SMALLEST ? 0 : 255;
    /* keys[0] is a sentinel (0 is above no key), so the sort's inner loop
     * has no test of its start; the keys from keys[1] */
    uint32_t keys[KONTOR_MAX_AREAS + 1], *key = keys + 1;
    keys[0] = 0;
    uint64_t all = 0;
    int nc = 0;
    const kontor_area *a = s->area; /* (a pointer that walks: not area[i]'s address again each time) */
    for (unsigned i = 0; i < (unsigned)n; i++, a++) {
        if ((keepers && !a->keeper) || a->size < min || a->out) continue;
        key[nc++] = (uint32_t)(a->size ^ flip) << 16 | (uint32_t)a->dist << 8 | i;
        all |= 1ULL << i;
    }
    /* no more candidates than places: every group fits (R10's walk below
     * would take them all), without a sort (advanced: 38% of the games) */
    if (nc <= left) return all;
    for (int i = 1; i < nc; i++) {
        uint32_t t = key[i];
        int j = i;
        for (; key[j - 1] > t; j--) key[j] = key[j - 1];
        key[j] = t;
    }
    uint64_t m = 0;
    if (key[left - 1] >> 8 != key[left] >> 8) {
        /* no group across the last place: the groups before it fit, one by
         * one, and fill the places (the walk's answer, without its groups) */
        for (int k = 0; k < left; k++) m |= 1ULL << (key[k] & 255);
        return m;
    }
    /* R10: walk groups of equal size and distance; a group that does not fit
     * in the places left counts not at all, and smaller areas move up. */
    for (int i = 0; i < nc && left > 0;) {
        int j = i + 1;
        while (j < nc && key[j] >> 8 == key[i] >> 8) j++;
        if (j - i <= left) {
            for (int k = i; k < j; k++) m |= 1ULL << (key[k] & 255);
            left -= j - i;
        }
        i = j;
    }
    return m;
}

void kontor_counted_areas(const kontor_state *s, uint8_t counted[KONTOR_MAX_AREAS]) {
    uint64_t m = counted_mask(s);
    for (int i = 0; i < KONTOR_MAX_AREAS; i++) counted[i] = (uint8_t)((m >> i) & 1);
}

/* kontor_points, inline in finish_game (the end of every game: no call,
 * the two sums in registers: p0 and p1, not points[], which kept them in
 * memory and added the bonus points by SSE: session sixteen) */
__attribute__((always_inline)) static inline void points_in(const kontor_state *s, int points[2]) {
    const kontor_config *c = s->cfg;
    int p0 = 0, p1 = 0;
    if (c->largest == 0 && c->scoring != KONTOR_SCORE_SIZE) {
        /* every area counts (the basic game): counted_mask's first loop
         * and the sum in one pass, without the mask; an area without a
         * keeper adds nothing, so the keepers' rule (largest_keepers)
         * changes no sum here (a random basic game's end ~330 -> ~130) */
        int min = c->min_area_cards;
        for (const kontor_area *a = s->area, *end = a + s->nareas; a < end; a++) {
            if (!a->keeper || a->out || a->size < min) continue;
            if (a->winner) p1 += a->value;
            else p0 += a->value;
        }
    } else {
        for (uint64_t m = counted_mask(s); m; m &= m - 1) {
            const kontor_area *a = &s->area[__builtin_ctzll(m)];
            if (!a->keeper) continue; /* (a keeper's winner is 0 or 1) */
            if (a->winner) p1 += a->value;
            else p0 += a->value;
        }
    }
    /* Exportlager: "Fuer jede Mehrheit in einer Sorte erhaelt der jeweilige
     * Spieler einen Siegpunkt" */
    if (c->export_store)
        for (int g = 0; g < 3; g++) {
            p0 += s->export_n[0][g] > s->export_n[1][g];
            p1 += s->export_n[1][g] > s->export_n[0][g];
        }
    points[0] = p0 + s->bonus_points[0]; /* Aktionstafeln: the extra point */
    points[1] = p1 + s->bonus_points[1];
}
void kontor_points(const kontor_state *s, int points[2]) { points_in(s, points); }

/* Alte Seilschaften: the next enclosed area from index `from` with exactly
 * one tavern in it (two taverns: it scores, no decision); -1 when none. */
static int tavern_card(const kontor_state *s, int area) {
    bb_t cells = bb_flood(bb_cell(s->area[area].cell), s->enclosed);
    int found = -1, n = 0;
    while (bb_any(cells)) {
        int c = bb_pop(&cells);
        if (s->cell_card[c] != KONTOR_NONE && card_of(s, s->cell_card[c])->kind == KONTOR_KIND_TAVERN) found = c, n++;
    }
    return n == 1 ? s->cell_card[found] : -1;
}

int next_tavern(const kontor_state *s, int from) {
    for (int i = from; i < s->nareas; i++)
        if (tavern_card(s, i) >= 0) return i;
    return -1;
}

/* The seat that decides the area in the tavern phase: the tavern's owner (in
 * the game for four the first seat of its team, ruling V9). */
int tavern_seat(const kontor_state *s) {
    int id = tavern_card(s, s->tavern_area);
    return owner_seat(s, id >= 0 ? card_of(s, id)->colour : 0);
}


/* The end of a game of Alte Seilschaften decided by points: the owners
 * decide first, from the first area with one tavern; with none, the end.
 * Out of line: end_game_won's every call its last act (a jump). */
static __attribute__((noinline)) void end_game_tavern(kontor_state *s, kontor_log *log) {
    int a = next_tavern(s, 0);
    if (a >= 0) {
        s->tavern_area = (uint8_t)a;
        s->phase = KONTOR_PHASE_TAVERN;
        return;
    }
    finish_game(s, -2, log);
}

/* The game ends: forced is the winning team when the end decides it (Tic Tac
 * Toe's row, Armut's bankruptcy), -2 when points decide. */
void end_game_won(kontor_state *s, int reason, int forced, kontor_log *log) {
    /* A revealed card that never got placed (the board filled first) goes
     * back to its player's hand. */
    if (s->phase == KONTOR_PHASE_PLACE || s->phase == KONTOR_PHASE_SHIP || s->phase == KONTOR_PHASE_REMOVE ||
        s->phase == KONTOR_PHASE_EXPORT || s->phase == KONTOR_PHASE_PILE || s->phase == KONTOR_PHASE_TILE) {
        /* a bankruptcy can end the game before the seat to act has placed */
        int placed = s->phase == KONTOR_PHASE_EXPORT || s->phase == KONTOR_PHASE_TILE;
        int from = reason == KONTOR_END_BANKRUPT && !placed ? s->turn : s->turn + 1;
        for (int t = from; t < s->norder; t++) hand_add(s, s->order[t], s->choice[s->order[t]]);
    }
    s->end_reason = (uint8_t)reason;
    s->norder = 0;
    for (int p = 0; p < KONTOR_MAX_SEATS; p++) s->choice[p] = s->bribe[p] = KONTOR_NONE;
    s->placed_cell = KONTOR_NONE;
    if (forced == -2 && s->cfg->tavern_vote) end_game_tavern(s, log);
    else finish_game(s, forced, log);
    /* (both a jump: end_game_won keeps no register across a call, and has
     * no frame; basic, advanced and four 4 to 8 instructions a game less) */
}

void end_game(kontor_state *s, int reason, kontor_log *log) { end_game_won(s, reason, -2, log); }

void finish_game(kontor_state *s, int forced, kontor_log *log) {
    int reason = s->end_reason;
    int pts[2];
    points_in(s, pts);
    s->score[0] = (uint8_t)pts[0];
    s->score[1] = (uint8_t)pts[1];
    int coins[2] = {0, 0};
    /* kontor_team's teams without its calls: seat p of two, seats 2t and 2t + 1 of four */
    if (s->cfg->nseats == 2) coins[0] = s->coins[0], coins[1] = s->coins[1];
    else if (s->cfg->nseats == 4) coins[0] = s->coins[0] + s->coins[1], coins[1] = s->coins[2] + s->coins[3];
    else
        for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++) coins[kontor_team(s, p)] += s->coins[p];
    if (pts[0] != pts[1]) s->winner = pts[0] > pts[1] ? 0 : 1;
    else if (coins[0] != coins[1]) s->winner = coins[0] > coins[1] ? 0 : 1;
    else s->winner = -1;
    if (forced >= 0) s->winner = (int8_t)forced;
    s->phase = KONTOR_PHASE_OVER;
    s->tavern_area = KONTOR_NONE;
    log_ev(log, KONTOR_EV_END, KONTOR_NONE, KONTOR_NONE, KONTOR_NONE, reason);
}
