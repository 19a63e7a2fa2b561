/* eval.c: the static evaluation of a position, in points, for the greedy
 * player and for the words of `kontor hint`.
 *
 * Kontor is won by areas, and an area is worth something only once it is
 * enclosed; until then it can be reversed by one card. So the evaluation
 * counts enclosed areas at full value and open areas at a value that grows
 * with the chance that they close soon: an area with one free cell left on
 * its border is a coin-flip from being scored, one with six is a long way
 * off. Money matters because a player without coins cannot pay the tax on
 * the opponent's coin cards and loses his turn, so the first coins are worth
 * much more than the tenth. Cranes are worth the free cells they keep clear
 * of the opponent's dock cards; in the advanced game a dock card with the
 * ship symbol next to water can be sent back by the opponent's ship. Every
 * term is "mine minus the opponent's", so the evaluation of one side is the
 * negative of the other's. The weights are hand-set (listed below with why);
 * docs/ai.md gives the measurements that back them. Only public information
 * is used (board, coins, areas), so a view's state evaluates the same as any
 * determinization of it.
 */
#include <string.h>

#include "ai/ai.h"
#include "core/bb.h"

/* An enclosed area won is the unit: the final score counts them. */
#define W_POINT 10.0
/* An open area led, with k free cells on its border, is worth
 * W_OPEN * (0.25 + 0.75 / k): 0.4 of a point with one cell left (the
 * opponent can still add a dock card or two), falling to a quarter of that
 * for areas far from closing. */
#define W_OPEN 4.0
/* Bigger leads are harder to overturn: a superiority of two or more goods
 * counts in full, a lead of one at 60%. */
#define LEAD_THIN 0.6
/* In the advanced game only the five largest areas count; a larger open
 * area is more likely to be among them. */
#define W_SIZE 0.15
/* Cranes: each free cell next to one's crane is a cell the opponent cannot
 * use for a dock card. */
#define W_CRANE 0.25
/* Ship: a dock card with the ship symbol next to water in an open area can
 * be removed by the opponent's ship card (advanced game). */
#define W_SHIP 0.6

/* Money: the value of c coins. The first two pay the next taxes, the next
 * two keep options open, beyond that coins only break ties. */
static double money_value(int c) {
    double v = 0;
    v += 2.0 * (c < 2 ? c : 2);
    if (c > 2) v += 1.0 * (c - 2 < 2 ? c - 2 : 2);
    if (c > 4) v += 0.3 * (c - 4);
    return v;
}

static void area_goods_of(const kontor_state *s, bb_t cells, uint8_t goods[2][3]) {
    memset(goods, 0, 6);
    while (bb_any(cells)) {
        int c = bb_pop(&cells);
        const kontor_card *k = &s->cfg->cards->card[s->cell_card[c]];
        if (k->kind != KONTOR_KIND_GOODS || k->colour > 1) continue;
        for (int g = 0; g < 3; g++) goods[k->colour][g] = (uint8_t)(goods[k->colour][g] + k->goods[g]);
    }
}

/* The largest single superiority of the winner over the loser. */
static int lead_size(const uint8_t g[2][3], int w) {
    int best = 0;
    for (int k = 0; k < 3; k++) {
        int d = (int)g[w][k] - (int)g[1 - w][k];
        if (d > best) best = d;
    }
    return best;
}

void ai_eval_terms_of(const kontor_state *s, int seat, ai_eval_terms *t) {
    memset(t, 0, sizeof *t);
    int me = kontor_team(s, seat), op = 1 - me;
    if (s->phase == KONTOR_PHASE_OVER) {
        int margin = (int)s->score[me] - (int)s->score[op];
        t->points = (s->winner == me ? 1000.0 : s->winner < 0 ? 0.0 : -1000.0) + W_POINT * margin;
        t->total = t->points;
        return;
    }
    int pts[2];
    kontor_points(s, pts);
    t->points = W_POINT * (pts[me] - pts[op]);

    /* open areas: dock components not yet enclosed */
    bb_t open = bb_andnot(s->dock, s->enclosed);
    bb_t closing = bb_or(s->water, bb_andnot(bb_all(), s->mask));
    bb_t free_cells = bb_andnot(s->mask, s->occ);
    while (bb_any(open)) {
        bb_t area = bb_flood(bb_cell(bb_first(open)), open);
        open = bb_andnot(open, area);
        uint8_t g[2][3];
        area_goods_of(s, area, g);
        int w = kontor_compare_goods(g);
        if (w < 0) continue;
        bb_t border = bb_andnot(bb_andnot(bb_neighbours(area), area), closing);
        int k = bb_count(bb_and(border, free_cells));
        if (k < 1) k = 1;
        double v = W_OPEN * (0.25 + 0.75 / k);
        if (lead_size(g, w) < 2) v *= LEAD_THIN;
        if (s->cfg->largest) v *= 1.0 + W_SIZE * bb_count(area);
        t->open_areas += w == me ? v : -v;
    }

    int coins[2] = {0, 0};
    for (int p = 0; p < s->cfg->nseats; p++) coins[kontor_team(s, p)] += s->coins[p];
    t->money = money_value(coins[me]) - money_value(coins[op]);

    for (int team = 0; team < 2; team++) {
        int n = bb_count(bb_and(bb_neighbours(s->crane[team]), free_cells));
        t->cranes += (team == me ? 1 : -1) * W_CRANE * n;
    }

    if (s->cfg->ship) {
        bb_t exposed = bb_and(bb_andnot(s->shipsym, s->enclosed), bb_neighbours(s->water));
        for (int team = 0; team < 2; team++) {
            int n = bb_count(bb_and(exposed, s->team_dock[team]));
            t->ship += (team == me ? -1 : 1) * W_SHIP * n;
        }
    }
    t->total = t->points + t->open_areas + t->money + t->cranes + t->ship;
}

double ai_eval(const kontor_state *s, int seat) {
    ai_eval_terms t;
    ai_eval_terms_of(s, seat, &t);
    return t.total;
}
