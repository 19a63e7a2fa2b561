/* game.c: the rules of Kontor: the games for two and four, the scenarios, the expansions.
 *
 * The state is a plain value (see kontor.h) and every rule here is a pure
 * function of it. Areas are not stored while they are open: they are the
 * connected components of the dock bitboard, found by flood fill when needed,
 * and a player's warehouses in an area are the goods of that player's cards
 * in it. That one choice makes merging areas, splitting them after the ship
 * removes a card, and "warehouses follow their cards" all true by
 * construction instead of by bookkeeping. Only enclosed areas, which never
 * change again, are written down (kontor_area), with the warehouses they held
 * when scored.
 *
 * The rulebook's scenarios and the designer's expansions (docs/variants.md)
 * are configuration, not forks: each changes a rule through a field of
 * kontor_config (a fixed board, cards out of the game, a scoring mode, a cell
 * restriction, an extra decision phase), and the code branches on that field
 * where the rule lives. The basic game's hot path (random playouts) sees only
 * a few untaken branches. Warehouses that leave their cards (exported, or a
 * tile's extra one) are still tied to a card, so the by-construction property
 * above survives: export_mark and tile_bonus move with their cards.
 *
 * Rulings (docs/rules.md) are cited as R<n> next to the code that makes them;
 * the scenarios' as V<n>, the expansions' as E<n> (docs/variants.md).
 */
#include <stdio.h>
#include <string.h>

#include "core/bb.h"
#include "core/rng.h"
#include "kontor/kontor.h"

/* ---- small helpers ---------------------------------------------------------- */

static inline const kontor_card *card_of(const kontor_state *s, int id) { return &s->cfg.cards->card[id]; }
/* The same as kontor_card_is_water / _is_dock, inlined for the hot path. */
static inline int is_water(const kontor_card *k) { return k->kind == KONTOR_KIND_WATER || k->kind == KONTOR_KIND_CENTRE; }
static inline int is_dock(const kontor_card *k) {
    return k->kind == KONTOR_KIND_GOODS || k->kind == KONTOR_KIND_CRANE || k->kind == KONTOR_KIND_TAVERN;
}

static inline void log_ev(kontor_log *log, int kind, int seat, int card, int cell, int a) {
    if (!log || log->n >= KONTOR_LOG_MAX) return;
    kontor_event *e = &log->ev[log->n++];
    e->kind = (uint8_t)kind;
    e->seat = (uint8_t)seat;
    e->card = (uint8_t)card;
    e->cell = (uint8_t)cell;
    e->a = (uint16_t)a;
}

static inline void pub_set(kontor_state *s, int id) {
    if (id < KONTOR_MAX_CARDS) s->pub[id >> 6] |= 1ULL << (id & 63);
}

int kontor_team(const kontor_state *s, int seat) { return s->cfg.nseats == 4 ? seat / 2 : seat; }
int kontor_over(const kontor_state *s) { return s->phase == KONTOR_PHASE_OVER; }

/* The seat that sits opposite seat (the one it pays taxes to and from). */
static inline int opposite(const kontor_state *s, int seat) {
    return s->cfg.nseats == 4 ? (seat + 2) & 3 : seat ^ 1;
}
/* The seat whose pile takes back a removed dock card of colour team. */
static inline int owner_seat(const kontor_state *s, int team) { return s->cfg.nseats == 4 ? team * 2 : team; }

static inline int pile_top(const kontor_pile *p) { return p->n ? p->card[p->head] : KONTOR_NONE; }

static inline int pile_draw(kontor_pile *p) {
    if (!p->n) return KONTOR_NONE;
    int c = p->card[p->head];
    p->head = (uint8_t)((p->head + 1) & (KONTOR_PILE_MAX - 1));
    p->n--;
    return c;
}

static inline void pile_put_under(kontor_pile *p, int id) {
    p->card[(p->head + p->n) & (KONTOR_PILE_MAX - 1)] = (uint8_t)id;
    p->n++;
}

/* Put n cards under an empty pile (at set-up). */
static inline void pile_fill(kontor_pile *p, const uint8_t *ids, int n) {
    if (n > KONTOR_PILE_MAX - p->n) n = KONTOR_PILE_MAX - p->n;
    if (n <= 0) return;
    if (p->head == 0) {
        memcpy(&p->card[p->n], ids, (size_t)n);
        p->n = (uint8_t)(p->n + n);
    } else {
        for (int i = 0; i < n; i++) pile_put_under(p, ids[i]);
    }
}

static inline void hand_add(kontor_state *s, int seat, int id) {
    if (s->hand_n[seat] < KONTOR_HAND_MAX) s->hand[seat][s->hand_n[seat]++] = (uint8_t)id;
}

static inline int hand_remove(kontor_state *s, int seat, int id) {
    for (int i = 0; i < s->hand_n[seat]; i++)
        if (s->hand[seat][i] == id) {
            /* keep the order of the rest: views and records show hands in order */
            int n = --s->hand_n[seat];
            for (; i < n; i++) s->hand[seat][i] = s->hand[seat][i + 1]; /* a few bytes: no memmove call */
            s->hand[seat][n] = 0;
            return 1;
        }
    return 0;
}

static inline int gx(int cell) { return cell & 15; }
static inline int gy(int cell) { return cell >> 4; }

/* R5: the cells where a card may still ever lie: every cell of some W x H
 * board that contains everything placed so far. The extent is the bounding
 * box of every cell that ever held a card, so it never shrinks (R6). */
static void update_mask(kontor_state *s) {
    if (s->cfg.fixed_board) { /* scenarios with a fixed board: the mask never changes */
        s->mask = s->cfg.board_mask;
        return;
    }
    int w = s->cfg.width, h = s->cfg.height;
    s->mask = bb_rect(s->maxx - (w - 1), s->minx + (w - 1), s->maxy - (h - 1), s->miny + (h - 1));
}

/* R7: do the cells that can never hold a card close areas yet? As soon as
 * their own direction's extent is fixed (default), or only once both are
 * (edge=both). */
static inline int edges_close(const kontor_state *s) {
    if (!s->cfg.edge_both || s->cfg.fixed_board) return 1;
    return s->maxx - s->minx + 1 >= s->cfg.width && s->maxy - s->miny + 1 >= s->cfg.height;
}

/* Die grosse Insel: the free cells of the island that can never hold a card
 * (ruling V15). No water may go on the island ("Dort darf kein Wasser gelegt
 * werden"); a free cell next to a red and a black crane keeps every dock card
 * off; and a free cell next to an enclosed area takes none either
 * ("Abgeschlossene Gebiete sind tabu": a card there would join it), which
 * keeps such a cell closed when the ship later removes one of its cranes.
 * Like the cells beyond the board's edge, they close the areas next to them. */
static inline bb_t dead_cells(const kontor_state *s) {
    bb_t both = bb_and(bb_neighbours(s->crane[0]), bb_neighbours(s->crane[1]));
    return bb_andnot(bb_and(s->cfg.inner, bb_or(both, bb_neighbours(s->enclosed))), s->occ);
}

void kontor_dead_cells(const kontor_state *s, kontor_bb *out) {
    *out = s->cfg.inner_value ? dead_cells(s) : bb_empty();
}

/* Cells that close an area from outside: water, the unplayable cells
 * (edges_close), and on the island the cells no card can fill. */
static inline bb_t closing_cells(const kontor_state *s) {
    bb_t c = edges_close(s) ? bb_or(s->water, bb_andnot(bb_all(), s->mask)) : s->water;
    return s->cfg.inner_value ? bb_or(c, dead_cells(s)) : c;
}

/* The cells that keep an area open: neither water, nor dock, nor closing
 * (every occupied cell is water or dock, so: the free cells that count). */
static inline bb_t gap_cells(const kontor_state *s) {
    return edges_close(s) ? bb_andnot(s->mask, s->occ) : bb_andnot(bb_all(), s->occ);
}


/* Warehouses per team and good in a set of dock cells. */
static void area_goods(const kontor_state *s, bb_t cells, uint8_t goods[2][3]) {
    memset(goods, 0, 6);
    const int exported = s->cfg.export_store;
    if (s->cfg.tiles) /* Aktionstafeln: a tile's extra warehouse in this area */
        for (int g = 0; g < 3; g++)
            if (s->tile_bonus[g] != KONTOR_NONE && bb_test(&cells, s->tile_bonus[g])) {
                int t = card_of(s, s->cell_card[s->tile_bonus[g]])->colour;
                if (t < 2) goods[t][g]++;
            }
    while (bb_any(cells)) {
        int c = bb_pop(&cells);
        const kontor_card *k = card_of(s, s->cell_card[c]);
        if (k->kind != KONTOR_KIND_GOODS || k->colour > 1) continue;
        goods[k->colour][0] = (uint8_t)(goods[k->colour][0] + k->goods[0]);
        goods[k->colour][1] = (uint8_t)(goods[k->colour][1] + k->goods[1]);
        goods[k->colour][2] = (uint8_t)(goods[k->colour][2] + k->goods[2]);
        if (exported && s->export_mark[c]) /* Exportlager: warehouses this card sent to the export store */
            for (int g = 0; g < 3; g++) goods[k->colour][g] = (uint8_t)(goods[k->colour][g] - ((s->export_mark[c] >> (2 * g)) & 3));
    }
}

/* The rulebook's comparison: largest single superiority, then more
 * superiorities, then the value of the goods (wine > spice > tea > wine). */
int kontor_compare_goods(const uint8_t g[2][3]) {
    int max[2] = {0, 0}, cnt[2] = {0, 0}, lead[2] = {-1, -1};
    for (int k = 0; k < 3; k++) {
        int d = (int)g[0][k] - (int)g[1][k];
        int who = d > 0 ? 0 : 1;
        if (d < 0) d = -d;
        if (d == 0) continue;
        cnt[who]++;
        if (d > max[who]) max[who] = d, lead[who] = k;
    }
    if (max[0] != max[1]) return max[0] > max[1] ? 0 : 1;
    if (max[0] == 0) return -1; /* no superiority at all: exact tie, or no warehouses */
    if (cnt[0] != cnt[1]) return cnt[0] > cnt[1] ? 0 : 1;
    /* one superiority each, of equal size, in different goods: good a beats
     * good b when b == (a + 1) % 3 (wine 1 > spice 2 > tea 0 > wine 1). */
    if (cnt[0] == 1 && lead[0] != lead[1]) return (lead[0] + 1) % 3 == lead[1] ? 0 : 1;
    return -1;
}

static int manhattan_to_centre(bb_t cells) {
    int best = 99;
    while (bb_any(cells)) {
        int c = bb_pop(&cells);
        int dx = gx(c) - 7, dy = gy(c) - 7;
        int d = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
        if (d < best) best = d;
    }
    return best;
}

/* An area has just been enclosed: score it at once (rulebook "Gebietswertung")
 * and freeze it. */
static void score_area(kontor_state *s, bb_t cells, kontor_log *log) {
    if (s->nareas >= KONTOR_MAX_AREAS) return; /* cannot happen on a 12x12 board */
    kontor_area *a = &s->area[s->nareas];
    memset(a, 0, sizeof *a);
    a->cell = (uint8_t)bb_first(cells);
    a->size = (uint8_t)bb_count(cells);
    a->dist = (uint8_t)manhattan_to_centre(cells);
    a->round = (uint8_t)(s->round > 255 ? 255 : s->round);
    area_goods(s, cells, a->goods);
    int base = 1;
    if (s->cfg.scoring == KONTOR_SCORE_SIZE) base = a->size; /* Kleinen: 1, 2, 3 points (4 and more: not counted) */
    if (s->cfg.inner_value && bb_any(bb_and(cells, s->cfg.inner))) base = s->cfg.inner_value; /* the island */
    a->value = (uint8_t)(base + bb_count(bb_and(cells, s->customs)));
    int w = kontor_compare_goods(a->goods);
    a->winner = w < 0 ? KONTOR_NONE : (uint8_t)w;
    if (w >= 0) {
        /* R11: keepers are unlimited unless keeper_limit=1 */
        if (!s->cfg.keeper_limit || s->keepers[w] < 5) {
            a->keeper = 1;
            s->keepers[w]++;
        }
    }
    s->enclosed = bb_or(s->enclosed, cells);
    s->event_due = 1; /* Ereigniskarten: the next round opens with an event */
    log_ev(log, KONTOR_EV_SCORE, w < 0 ? KONTOR_NONE : w, KONTOR_NONE, a->cell, s->nareas);
    s->nareas++;
}

/* Score every open area that is now enclosed; candidates limits the search
 * to the areas touching those cells.
 * Die grosse Insel: the island's dead cells (V15) close areas like water.
 * They count as occupied for the test (s->occ, restored after), and every
 * open area is a candidate, because a crane can make a cell dead and so
 * close areas that are not its own. The inner call finds no dead cell left
 * and runs the usual test, which thus stays as it was for every other game. */
static void check_enclosures(kontor_state *s, bb_t candidates, kontor_log *log);

__attribute__((noinline)) static int enclose_island(kontor_state *s, kontor_log *log) {
    bb_t dead = dead_cells(s);
    if (!bb_any(dead)) return 0;
    bb_t occ = s->occ;
    s->occ = bb_or(occ, dead);
    check_enclosures(s, s->dock, log);
    s->occ = occ;
    return 1;
}

static void check_enclosures(kontor_state *s, bb_t candidates, kontor_log *log) {
    if (__builtin_expect(s->cfg.inner_value != 0, 0) && enclose_island(s, log)) return;
    bb_t open = bb_andnot(s->dock, s->enclosed);
    bb_t todo = bb_and(candidates, open);
    if (!bb_any(todo)) return;
    bb_t gaps = gap_cells(s);
    while (bb_any(todo)) {
        int c = bb_first(todo);
        /* most cards that could close an area have a free cell next to
         * them: four bit tests settle it */
        if (((c & 15) > 0 && bb_test(&gaps, c - 1)) || ((c & 15) < 15 && bb_test(&gaps, c + 1)) ||
            (c >= 16 && bb_test(&gaps, c - 16)) || (c < KONTOR_CELLS - 16 && bb_test(&gaps, c + 16))) {
            bb_clear(&todo, c);
            continue;
        }
        /* grow the area from that cell; stop as soon as it touches a gap,
         * which is how most areas end: still open */
        bb_t area = bb_cell(c), grown;
        int enclosed = 1;
        for (;;) {
            bb_t around = bb_neighbours(area);
            if (bb_any(bb_and(around, gaps))) {
                enclosed = 0;
                break;
            }
            grown = bb_and(bb_or(area, around), open);
            if (bb_eq(grown, area)) break;
            area = grown;
        }
        todo = bb_andnot(todo, area);
        if (enclosed) score_area(s, area, log);
    }
}

/* ---- set-up --------------------------------------------------------------------- */

/* The class of a card (validation of a deal only: the dealer reads cs->class_ids). */
static inline int class_of(const kontor_cardset *cs, int id) { return kontor_card_class(&cs->card[id]); }

static inline int is_removed(const kontor_config *cfg, int id) {
    if (cfg->remove_kinds) return kontor_card_removed(cfg, id); /* scenarios: by kind too */
    return (int)((cfg->removed[id >> 6] >> (id & 63)) & 1);
}

static void shuffle(uint8_t *a, int n, kontor_rng *rng) {
    kontor_rng r = *rng; /* a local: the byte stores below may alias *rng, which would be reloaded each time */
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(&r, (uint32_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    *rng = r;
}

void kontor_deal_shuffle(kontor_deal *d, const kontor_config *cfg, uint64_t seed) {
    kontor_rng rng;
    kontor_rng_seed(&rng, seed);
    memset(d, 0, sizeof *d);
    const kontor_cardset *cs = cfg->cards;
    uint8_t team[2][KONTOR_MAX_CARDS];
    int nteam[2] = {0, 0}, nwater = 0, nspecial = 0, specials = cfg->specials, ncards = cs->ncards;
    /* the cards out of the game, once (locals: the byte stores below may alias cfg) */
    uint64_t out[2] = {cfg->removed[0], cfg->removed[1]};
    if (cfg->remove_kinds)
        for (int id = 0; id < ncards; id++)
            if (kontor_card_removed(cfg, id)) out[id >> 6] |= 1ULL << (id & 63);
    /* each class in order of id (cs->class_ids, kontor_cards_index) */
    for (int w = 0; w < 2; w++) {
        for (uint64_t m = cs->class_ids[KONTOR_CLASS_WATER][w] & ~out[w]; m; m &= m - 1)
            d->water[nwater++] = (uint8_t)(w * 64 + __builtin_ctzll(m));
        for (int t = 0; t < 2; t++)
            for (uint64_t m = cs->class_ids[t][w] & ~out[w]; m; m &= m - 1)
                team[t][nteam[t]++] = (uint8_t)(w * 64 + __builtin_ctzll(m));
        for (uint64_t m = specials ? cs->class_ids[KONTOR_CLASS_SPECIAL][w] & ~out[w] : 0; m && nspecial < 8; m &= m - 1)
            d->special[nspecial++] = (uint8_t)(w * 64 + __builtin_ctzll(m));
    }
    d->nwater = (uint8_t)nwater;
    d->nspecial = (uint8_t)nspecial;
    /* Fisher-Yates: the water pile, then each colour, then the special cards */
    shuffle(d->water, d->nwater, &rng);
    for (int t = 0; t < 2; t++) {
        shuffle(team[t], nteam[t], &rng);
        if (cfg->nseats == 4) { /* the team's cards split into two equal piles */
            int half = nteam[t] / 2;
            for (int i = 0; i < nteam[t]; i++) {
                int seat = t * 2 + (i >= half);
                d->dock[seat][d->ndock[seat]++] = team[t][i];
            }
        } else {
            memcpy(d->dock[t], team[t], (size_t)nteam[t]);
            d->ndock[t] = (uint8_t)nteam[t];
        }
    }
    shuffle(d->special, d->nspecial, &rng);
    /* the expansions' decks, after everything else: other deals stay as they were */
    if (cfg->events) {
        d->nevents = cfg->nevent_cards;
        for (int i = 0; i < d->nevents; i++) d->events[i] = (uint8_t)i;
        shuffle(d->events, d->nevents, &rng);
    }
    if (cfg->tiles) {
        for (int i = 0; i < KONTOR_TILES; i++) d->tiles[i] = (uint8_t)i;
        shuffle(d->tiles, KONTOR_TILES, &rng);
    }
}

/* The ends of the water cross (N2 E2 S2 W2), where the action tiles lie. */
static const int8_t cross_end[4][2] = {{0, -2}, {2, 0}, {0, 2}, {-2, 0}};

/* Is the start layout the water cross, which the action tiles need? */
static int has_cross(const kontor_config *cfg) {
    if (cfg->layout_n != 8 || cfg->fixed_board) return 0;
    for (int k = 0; k < 4; k++) {
        int found = 0;
        for (int i = 0; i < 8; i++) found |= cfg->layout[i] == kontor_cell(cross_end[k][0], cross_end[k][1]);
        if (!found) return 0;
    }
    return 1;
}

/* Is a[0..n) a permutation of 0..n-1? */
static int is_perm(const uint8_t *a, int n) {
    uint8_t seen[32] = {0};
    for (int i = 0; i < n; i++)
        if (a[i] >= n || a[i] >= 32 || seen[a[i]]++) return 0;
    return 1;
}

static kontor_status deal_error(kontor_error *err, const char *msg) {
    if (err) {
        memset(err, 0, sizeof *err);
        err->code = KONTOR_E_INVALID;
        snprintf(err->msg, sizeof err->msg, "deal: %s", msg);
    }
    return KONTOR_E_INVALID;
}

static void place_raw(kontor_state *s, int cell, int id);
static void deal_onto(kontor_state *s, const kontor_config *cfg, const kontor_deal *d);
static void begin_round(kontor_state *s, kontor_log *log);

kontor_status kontor_new_from_deal(kontor_state *s, const kontor_config *cfg, const kontor_deal *d,
                                   kontor_error *err) {
    const kontor_cardset *cs = cfg->cards;
    int ns = cfg->nseats;
    if (ns != 2 && ns != 4) return deal_error(err, "a game is for 2 or 4 players");
    /* the deal must hold every card in play of its class exactly once */
    uint8_t seen[KONTOR_MAX_CARDS] = {0};
    int want[KONTOR_NCLASSES] = {0};
    for (int id = 0; id < cs->ncards; id++)
        if (!is_removed(cfg, id)) want[class_of(cs, id)]++;
    if (d->nwater != want[KONTOR_CLASS_WATER]) return deal_error(err, "the water pile does not hold every water card");
    for (int i = 0; i < d->nwater; i++) {
        int id = d->water[i];
        if (id >= cs->ncards || class_of(cs, id) != KONTOR_CLASS_WATER || is_removed(cfg, id) || seen[id]++)
            return deal_error(err, "the water pile is not a permutation of the water cards");
    }
    int got[2] = {0, 0};
    for (int p = 0; p < ns; p++) {
        int t = ns == 4 ? p / 2 : p;
        if (d->ndock[p] < 3) return deal_error(err, "a dock pile has fewer than 3 cards");
        for (int i = 0; i < d->ndock[p]; i++) {
            int id = d->dock[p][i];
            if (id >= cs->ncards || class_of(cs, id) != t || is_removed(cfg, id) || seen[id]++)
                return deal_error(err, "a dock pile is not a permutation of its colour's cards");
        }
        got[t] += d->ndock[p];
    }
    if (got[0] != want[KONTOR_CLASS_RED] || got[1] != want[KONTOR_CLASS_BLACK])
        return deal_error(err, "the dock piles do not hold every dock card");
    if (cfg->specials) {
        if (d->nspecial != want[KONTOR_CLASS_SPECIAL] || d->nspecial < (cfg->specials == 1 ? ns : 0))
            return deal_error(err, "the special cards are not all dealt");
        for (int i = 0; i < d->nspecial; i++) {
            int id = d->special[i];
            if (id >= cs->ncards || class_of(cs, id) != KONTOR_CLASS_SPECIAL || seen[id]++)
                return deal_error(err, "the special cards are not a permutation of the special cards");
        }
    } else if (d->nspecial) {
        return deal_error(err, "special cards are dealt in a game without them");
    }
    if (d->nwater < cfg->layout_n + 2 * ns + cfg->water_aside)
        return deal_error(err, "too few water cards for the start, the hands and the cards set aside");
    if (cfg->total_coins < cfg->start_coins * ns) return deal_error(err, "fewer coins in the game than the players start with");
    if ((cfg->events || cfg->tiles || cfg->export_store) && ns != 2) return deal_error(err, "the expansions are for two players");
    if (cfg->events && (d->nevents != cfg->nevent_cards || !is_perm(d->events, d->nevents)))
        return deal_error(err, "the event deck is not a permutation of the event cards");
    if (!cfg->events && d->nevents) return deal_error(err, "event cards are dealt in a game without them");
    if (cfg->tiles && !has_cross(cfg)) return deal_error(err, "the action tiles need the water cross of the usual start");
    if (cfg->tiles && !is_perm(d->tiles, KONTOR_TILES)) return deal_error(err, "the action tiles are not a permutation of the eight tiles");
    deal_onto(s, cfg, d);
    return KONTOR_OK;
}

/* The cross of the standard start: N1 N2 E1 E2 S1 S2 W1 W2 (R13). */
static const int8_t cross[8][2] = {{0, -1}, {0, -2}, {1, 0}, {2, 0}, {0, 1}, {0, 2}, {-1, 0}, {-2, 0}};

void kontor_layout_cross(kontor_config *cfg) {
    cfg->layout_n = 8;
    for (int i = 0; i < 8; i++) cfg->layout[i] = (uint8_t)kontor_cell(cross[i][0], cross[i][1]);
}

/* Lay out a deal known to be valid. */
static void deal_onto(kontor_state *s, const kontor_config *cfg, const kontor_deal *d) {
    const kontor_cardset *cs = cfg->cards;
    int ns = cfg->nseats;
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    memset(s->cell_card, KONTOR_NONE, sizeof s->cell_card);
    for (int i = 0; i < KONTOR_MAX_SEATS; i++) s->choice[i] = s->buy[i] = KONTOR_NONE;
    s->minx = s->miny = 255;
    s->ship_cell = KONTOR_NONE;
    s->removed_card = KONTOR_NONE;

    /* the centre, then the start layout from the top of the water pile */
    place_raw(s, KONTOR_CENTRE_CELL, cs->centre);
    int wi = 0;
    for (int i = 0; i < cfg->layout_n; i++) place_raw(s, cfg->layout[i], d->water[wi++]);
    for (int p = 0; p < ns; p++)
        for (int k = 0; k < 2; k++) hand_add(s, p, d->water[wi++]);
    for (int k = 0; k < cfg->water_aside; k++) pile_put_under(&s->aside, d->water[wi++]);
    pile_fill(&s->water_pile, &d->water[wi], d->nwater - wi);
    for (int p = 0; p < ns; p++) {
        uint8_t water[2] = {s->hand[p][0], s->hand[p][1]};
        s->hand_n[p] = 0;
        /* hands read dock cards first, then water, then a special card */
        if (!cfg->select_keep) {
            int k = d->ndock[p] < 3 ? d->ndock[p] : 3;
            for (int i = 0; i < k; i++) hand_add(s, p, d->dock[p][i]);
            pile_fill(&s->dock_pile[p], &d->dock[p][k], d->ndock[p] - k);
        } else {
            /* Justizia: the player looks through his dock cards and picks */
            pile_fill(&s->dock_pile[p], d->dock[p], d->ndock[p]);
            for (int i = 0; i < d->ndock[p]; i++) s->known[p][d->dock[p][i] >> 6] |= 1ULL << (d->dock[p][i] & 63);
        }
        hand_add(s, p, water[0]);
        hand_add(s, p, water[1]);
        s->coins[p] = cfg->start_coins;
        if (pile_top(&s->dock_pile[p]) != KONTOR_NONE && !cfg->select_keep) pub_set(s, pile_top(&s->dock_pile[p]));
    }
    if (cfg->specials == 1) {
        for (int i = 0; i < d->nspecial; i++) {
            if (i < ns) hand_add(s, i, d->special[i]);
            else pile_put_under(&s->aside, d->special[i]);
        }
    } else if (cfg->specials == 2) {
        for (int i = 0; i < d->nspecial; i++) pile_put_under(&s->special_pile, d->special[i]);
    }
    if (pile_top(&s->water_pile) != KONTOR_NONE) pub_set(s, pile_top(&s->water_pile));
    s->treasury = (uint8_t)(cfg->total_coins - cfg->start_coins * ns);
    if (cfg->ship) s->ship_cell = KONTOR_CENTRE_CELL;
    s->round = 1;
    s->phase = KONTOR_PHASE_CHOOSE;
    s->tavern_area = KONTOR_NONE;
    s->placed_cell = KONTOR_NONE;
    for (int p = 0; p < KONTOR_MAX_SEATS; p++) s->bribe[p] = KONTOR_NONE;
    /* the expansions */
    s->event_n = cfg->events ? d->nevents : 0;
    memcpy(s->event_deck, d->events, sizeof s->event_deck);
    s->event_cur = s->last_layer = s->tile_cur = s->ship_owner = KONTOR_NONE;
    for (int k = 0; k < 4; k++) s->tile_at[k] = cfg->tiles ? d->tiles[k] : KONTOR_NONE;
    for (int g = 0; g < 3; g++) s->tile_bonus[g] = KONTOR_NONE;
    if (cfg->select_keep) s->phase = KONTOR_PHASE_SELECT; /* Justizia: hands first */
    else begin_round(s, NULL);
}

kontor_status kontor_new(kontor_state *s, const kontor_config *cfg, uint64_t seed, kontor_error *err) {
    kontor_deal d;
    kontor_deal_shuffle(&d, cfg, seed);
    if (cfg->nseats == 2 && !cfg->specials && !cfg->water_aside && !cfg->select_keep && !cfg->events && !cfg->tiles &&
        cfg->total_coins >= cfg->start_coins * 2 &&
        d.nwater >= cfg->layout_n + 4 && d.ndock[0] >= 3 && d.ndock[1] >= 3) {
        deal_onto(s, cfg, &d); /* a shuffle of the card set is a valid deal by construction */
        return KONTOR_OK;
    }
    return kontor_new_from_deal(s, cfg, &d, err);
}

/* ---- placing and removing cards ---------------------------------------------- */

/* Put a card on a cell: bitboards, extent, mask. No scoring. */
/* Put a card on a cell, as water or as a dock card (special cards: a flood
 * is water, a bridge a dock card, a customs house either). */
static void place_as(kontor_state *s, int cell, int id, int as_water) {
    const kontor_card *k = card_of(s, id);
    s->cell_card[cell] = (uint8_t)id;
    bb_set(&s->occ, cell);
    if (k->kind == KONTOR_KIND_CUSTOMS) bb_set(&s->customs, cell);
    if (as_water) {
        bb_set(&s->water, cell);
    } else {
        bb_set(&s->dock, cell);
        if (k->colour < 2) {
            bb_set(&s->team_dock[k->colour], cell);
            if (k->kind == KONTOR_KIND_CRANE) bb_set(&s->crane[k->colour], cell);
        }
        if (k->ship) bb_set(&s->shipsym, cell);
    }
    s->ncards_board++;
    pub_set(s, id);
    int x = gx(cell), y = gy(cell);
    int changed = 0;
    if (x < s->minx) s->minx = (uint8_t)x, changed = 1;
    if (x > s->maxx) s->maxx = (uint8_t)x, changed = 1;
    if (y < s->miny) s->miny = (uint8_t)y, changed = 1;
    if (y > s->maxy) s->maxy = (uint8_t)y, changed = 1;
    if (changed) update_mask(s);
}

static void place_raw(kontor_state *s, int cell, int id) { place_as(s, cell, id, is_water(card_of(s, id))); }

static void remove_raw(kontor_state *s, int cell) {
    int id = s->cell_card[cell];
    const kontor_card *k = card_of(s, id);
    s->cell_card[cell] = KONTOR_NONE;
    bb_clear(&s->occ, cell);
    bb_clear(&s->dock, cell);
    bb_clear(&s->water, cell);
    bb_clear(&s->customs, cell);
    bb_clear(&s->shipsym, cell);
    if (k->colour < 2) {
        bb_clear(&s->team_dock[k->colour], cell);
        bb_clear(&s->crane[k->colour], cell);
    }
    s->ncards_board--;
}

/* Tic Tac Toe: "Wasserkarten ... duerfen aber keine neuen Gebiete abtrennen".
 * Ruling V4: a water card may go only where it does not cut the cells of the
 * board that are not water (an island's land) into more pieces: every land
 * cell next to it must stay connected to the others through land. */
static bb_t no_split(const kontor_state *s, bb_t cand) {
    bb_t r = bb_empty();
    while (bb_any(cand)) {
        int c = bb_pop(&cand);
        bb_t land = bb_andnot(s->mask, bb_or(s->water, bb_cell(c)));
        bb_t nb = bb_and(bb_neighbours(bb_cell(c)), land);
        if (bb_count(nb) <= 1 || bb_eq(bb_and(bb_flood(bb_cell(bb_first(nb)), land), nb), nb)) bb_set(&r, c);
    }
    return r;
}

/* Free cells next to the board where seat may put card id. */
__attribute__((always_inline)) static inline bb_t legal_cells(const kontor_state *s, int seat, int id) {
    bb_t cand = bb_and(bb_andnot(bb_neighbours(s->occ), s->occ), s->mask);
    const kontor_card *k = card_of(s, id);
    if (is_dock(k)) {
        /* Crane: an opposing crane keeps the free cells next to it clear of
         * this player's dock cards; water may still go there. */
        int other = 1 - kontor_team(s, seat);
        if (bb_any(s->crane[other])) cand = bb_andnot(cand, bb_neighbours(s->crane[other]));
        /* Wasserspiele: "Alle Hafenkarten muessen mindestens mit einer Seite an
         * Wasserkarten angrenzen" (with no cell left, R3 takes the card back) */
        if (s->cfg.water_touch | s->cfg.inner_value) {
            if (s->cfg.water_touch) cand = bb_and(cand, bb_neighbours(s->water));
            /* Die grosse Insel: no dock card joins an enclosed area (V15;
             * only there can an enclosed area have a free cell next to it) */
            if (s->cfg.inner_value) cand = bb_andnot(cand, bb_neighbours(s->enclosed));
        }
    } else if (s->cfg.inner_value || s->cfg.tictactoe) {
        cand = bb_andnot(cand, s->cfg.inner); /* Die grosse Insel: "Dort darf kein Wasser gelegt werden" */
        if (s->cfg.tictactoe) cand = no_split(s, cand);
    }
    return cand;
}

static int count_goods(const kontor_card *k) { return k->goods[0] + k->goods[1] + k->goods[2]; }

/* Would laying card id on cell (as water or as dock) enclose an area? The
 * customs house may not be the card that does (rulebook). */
static int would_enclose(const kontor_state *s, int cell, int id, int as_water) {
    kontor_state t = *s;
    place_as(&t, cell, id, as_water);
    int before = t.nareas;
    bb_t open = bb_andnot(t.dock, t.enclosed);
    bb_t closing = closing_cells(&t);
    bb_t todo = open;
    while (bb_any(todo)) {
        bb_t area = bb_flood(bb_cell(bb_first(todo)), open);
        todo = bb_andnot(todo, area);
        if (!bb_any(bb_andnot(bb_andnot(bb_neighbours(area), area), closing))) return 1;
    }
    return t.nareas != before;
}

/* Where seat may lay special card id: a flood on a bridge or on a dock card
 * with exactly one good; a bridge on a water card or a flood (not the harbour
 * centre, not under the ship, not next to an enclosed area: it would join
 * it); a customs house on a free cell as water (as_water) or as a dock card,
 * never as the card that encloses an area. Never on or in an enclosed area. */
static bb_t special_cells(const kontor_state *s, int seat, int id, int as_water) {
    const kontor_card *k = card_of(s, id);
    bb_t r = bb_empty();
    if (k->kind == KONTOR_KIND_FLOOD) {
        bb_t t = bb_andnot(s->dock, s->enclosed);
        while (bb_any(t)) {
            int c = bb_pop(&t);
            const kontor_card *u = card_of(s, s->cell_card[c]);
            if (u->kind == KONTOR_KIND_BRIDGE || (u->kind == KONTOR_KIND_GOODS && count_goods(u) == 1)) bb_set(&r, c);
        }
    } else if (k->kind == KONTOR_KIND_BRIDGE) {
        r = bb_andnot(bb_andnot(s->water, s->customs), bb_neighbours(s->enclosed));
        bb_clear(&r, KONTOR_CENTRE_CELL);
        if (s->ship_cell != KONTOR_NONE) bb_clear(&r, s->ship_cell);
    } else if (k->kind == KONTOR_KIND_CUSTOMS) {
        bb_t cand = bb_and(bb_andnot(bb_neighbours(s->occ), s->occ), s->mask);
        if (!as_water) cand = bb_andnot(cand, bb_neighbours(s->crane[1 - kontor_team(s, seat)]));
        while (bb_any(cand)) {
            int c = bb_pop(&cand);
            if (!would_enclose(s, c, id, as_water)) bb_set(&r, c);
        }
    }
    return r;
}

static int is_special(const kontor_card *k) {
    return k->kind == KONTOR_KIND_FLOOD || k->kind == KONTOR_KIND_BRIDGE || k->kind == KONTOR_KIND_CUSTOMS;
}

/* The cells for the place phase, in s->cells (and s->cells_water for a
 * customs house placed as water). */
static void compute_cells(kontor_state *s, int seat, int id) {
    const kontor_card *k = card_of(s, id);
    if (is_special(k)) {
        s->cells = special_cells(s, seat, id, k->kind == KONTOR_KIND_FLOOD);
        s->cells_water = k->kind == KONTOR_KIND_CUSTOMS ? special_cells(s, seat, id, 1) : bb_empty();
    } else {
        s->cells = legal_cells(s, seat, id);
        s->cells_water = bb_empty();
    }
}

static bb_t ship_targets(const kontor_state *s) {
    bb_t t = s->water;
    if (s->ship_cell != KONTOR_NONE) bb_clear(&t, s->ship_cell);
    return t;
}

static bb_t removable(const kontor_state *s) {
    if (s->ship_cell == KONTOR_NONE) return bb_empty();
    return bb_andnot(bb_and(bb_neighbours(bb_cell(s->ship_cell)), s->shipsym), s->enclosed);
}

static int board_full(const kontor_state *s) { return s->ncards_board >= s->cfg.width * s->cfg.height; }

/* ---- the end -------------------------------------------------------------------- */

void kontor_counted_areas(const kontor_state *s, uint8_t counted[KONTOR_MAX_AREAS]) {
    int n = s->nareas;
    memset(counted, 0, KONTOR_MAX_AREAS);
    uint8_t cand[KONTOR_MAX_AREAS];
    int nc = 0;
    for (int i = 0; i < n; i++) {
        if (s->cfg.largest_keepers && !s->area[i].keeper) continue;
        if (s->area[i].size < s->cfg.min_area_cards) continue;
        if (s->area[i].out) continue; /* Alte Seilschaften: its tavern's owner took it out */
        if (s->cfg.scoring == KONTOR_SCORE_SIZE && s->area[i].size >= 4) continue; /* Kleinen: "kleiner als 4" */
        cand[nc++] = (uint8_t)i;
    }
    if (s->cfg.largest == 0 || s->cfg.scoring == KONTOR_SCORE_SIZE) {
        for (int i = 0; i < nc; i++) counted[cand[i]] = 1;
        return;
    }
    /* sort by size (larger first; smaller first for David und Goliath), then
     * distance to the centre (nearer first) */
    int small = s->cfg.scoring == KONTOR_SCORE_SMALLEST;
    for (int i = 1; i < nc; i++) {
        uint8_t t = cand[i];
        int j = i;
        while (j > 0) {
            const kontor_area *a = &s->area[cand[j - 1]], *b = &s->area[t];
            int before = small ? a->size < b->size : a->size > b->size;
            if (before || (a->size == b->size && a->dist <= b->dist)) break;
            cand[j] = cand[j - 1];
            j--;
        }
        cand[j] = t;
    }
    /* R10: walk groups of equal size and distance; a group that does not fit
     * in the places left counts not at all, and smaller areas move up. */
    int left = s->cfg.largest;
    for (int i = 0; i < nc && left > 0;) {
        int j = i;
        while (j < nc && s->area[cand[j]].size == s->area[cand[i]].size &&
               s->area[cand[j]].dist == s->area[cand[i]].dist)
            j++;
        if (j - i <= left) {
            for (int k = i; k < j; k++) counted[cand[k]] = 1;
            left -= j - i;
        }
        i = j;
    }
}

void kontor_points(const kontor_state *s, int points[2]) {
    uint8_t counted[KONTOR_MAX_AREAS];
    kontor_counted_areas(s, counted);
    points[0] = points[1] = 0;
    for (int i = 0; i < s->nareas; i++)
        if (counted[i] && s->area[i].keeper) points[s->area[i].winner] += s->area[i].value;
    /* Exportlager: "Fuer jede Mehrheit in einer Sorte erhaelt der jeweilige
     * Spieler einen Siegpunkt" */
    if (s->cfg.export_store)
        for (int g = 0; g < 3; g++)
            if (s->export_n[0][g] != s->export_n[1][g]) points[s->export_n[0][g] > s->export_n[1][g] ? 0 : 1]++;
    points[0] += s->bonus_points[0]; /* Aktionstafeln: the extra point */
    points[1] += s->bonus_points[1];
}

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

static int next_tavern(const kontor_state *s, int from) {
    for (int i = from; i < s->nareas; i++)
        if (tavern_card(s, i) >= 0) return i;
    return -1;
}

/* The seat that decides the area in the tavern phase: the tavern's owner (in
 * the game for four the first seat of its team, ruling V9). */
static int tavern_seat(const kontor_state *s) {
    int id = tavern_card(s, s->tavern_area);
    return owner_seat(s, id >= 0 ? card_of(s, id)->colour : 0);
}

static void finish_game(kontor_state *s, int forced, kontor_log *log);

/* The game ends: forced is the winning team when the end decides it (Tic Tac
 * Toe's row, Armut's bankruptcy), -2 when points decide. */
static void end_game_won(kontor_state *s, int reason, int forced, kontor_log *log) {
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
    if (forced == -2 && s->cfg.tavern_vote) {
        int a = next_tavern(s, 0);
        if (a >= 0) { /* Alte Seilschaften: the owners decide first */
            s->tavern_area = (uint8_t)a;
            s->phase = KONTOR_PHASE_TAVERN;
            return;
        }
    }
    finish_game(s, forced, log);
}

static void end_game(kontor_state *s, int reason, kontor_log *log) { end_game_won(s, reason, -2, log); }

static void finish_game(kontor_state *s, int forced, kontor_log *log) {
    int reason = s->end_reason;
    int pts[2];
    kontor_points(s, pts);
    s->score[0] = (uint8_t)pts[0];
    s->score[1] = (uint8_t)pts[1];
    int coins[2] = {0, 0};
    for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++) coins[kontor_team(s, p)] += s->coins[p];
    if (pts[0] != pts[1]) s->winner = pts[0] > pts[1] ? 0 : 1;
    else if (coins[0] != coins[1]) s->winner = coins[0] > coins[1] ? 0 : 1;
    else s->winner = -1;
    if (forced >= 0) s->winner = (int8_t)forced;
    s->phase = KONTOR_PHASE_OVER;
    s->tavern_area = KONTOR_NONE;
    log_ev(log, KONTOR_EV_END, KONTOR_NONE, KONTOR_NONE, KONTOR_NONE, reason);
}

/* ---- the round ------------------------------------------------------------------ */

static void start_turn(kontor_state *s, kontor_log *log);

/* A round opens with the buy phase when special cards are for sale (the
 * scenario for two) and somebody can pay; else with the choice. */
static int count_goods(const kontor_card *k);

/* Bakschisch: the opposing goods cards seat may buy out now: not in an
 * enclosed area, and costing (1 coin a good) no more than it has. */
static bb_t bribe_targets(const kontor_state *s, int seat) {
    bb_t t = bb_andnot(s->team_dock[1 - kontor_team(s, seat)], s->enclosed), r = bb_empty();
    while (bb_any(t)) {
        int c = bb_pop(&t);
        const kontor_card *k = card_of(s, s->cell_card[c]);
        if (k->kind == KONTOR_KIND_GOODS && count_goods(k) <= s->coins[seat]) bb_set(&r, c);
    }
    return r;
}

static void begin_buy(kontor_state *s);

static int start_event(kontor_state *s, kontor_log *log);
static void begin_bribe(kontor_state *s);

/* A round opens with an event card (Ereigniskarten) after a round in which an
 * area was scored, then the bribe phase (Bakschisch) when somebody can bribe,
 * then the buy phase when special cards are for sale, then the choice. */
static void begin_round(kontor_state *s, kontor_log *log) {
    s->phase = KONTOR_PHASE_CHOOSE;
    int due = s->event_due;
    s->event_due = 0;
    if (s->cfg.events && due && s->event_next < s->event_n && start_event(s, log)) return;
    begin_bribe(s);
}

static void begin_bribe(kontor_state *s) {
    s->phase = KONTOR_PHASE_CHOOSE;
    if (s->cfg.bribe) {
        int any = 0;
        for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++) {
            int can = bb_any(bribe_targets(s, p));
            s->bribe[p] = can ? KONTOR_NONE : KONTOR_PASS;
            any |= can;
        }
        if (any) {
            s->phase = KONTOR_PHASE_BRIBE;
            return;
        }
        for (int p = 0; p < KONTOR_MAX_SEATS; p++) s->bribe[p] = KONTOR_NONE;
    }
    begin_buy(s);
}

/* R20: how many special cards seat may buy now: "darf man Sonderkarten
 * kaufen. Jede Karte kostet 2 Münzen" -- as many as its coins pay for, the
 * pile holds and its hand has room for. */
static int buy_max(const kontor_state *s, int seat) {
    int n = s->coins[seat] / 2;
    if (n > s->special_pile.n) n = s->special_pile.n;
    if (n > KONTOR_HAND_MAX - s->hand_n[seat]) n = KONTOR_HAND_MAX - s->hand_n[seat];
    return n;
}

/* The choice opens with the declarations (R1: "gleich zu Anfang einer
 * Aktionsrunde, noch bevor Karten gespielt werden"), unless a pass is one of
 * the hidden choices (option declare=hidden). */
static void open_choice(kontor_state *s) {
    s->phase = s->cfg.pass_hidden ? KONTOR_PHASE_CHOOSE : KONTOR_PHASE_DECLARE;
}

static void begin_buy(kontor_state *s) {
    open_choice(s);
    if (s->cfg.specials != 2 || !s->special_pile.n) return;
    int any = 0;
    for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++) {
        /* R20: 2 coins a card, with room in the hand */
        int can = buy_max(s, p) > 0;
        s->buy[p] = can ? KONTOR_NONE : 0;
        any |= can;
    }
    if (any) s->phase = KONTOR_PHASE_BUY;
}

/* Scenarios that forbid cells to some cards (Wasserspiele, Die grosse Insel,
 * Tic Tac Toe) can reach a board where nobody holds a card that fits
 * anywhere: ruling V10 ends the game then, at the start of a round, as when
 * nobody holds a card at all, instead of rounds of passing until the safety
 * rule. */
static int any_placeable(const kontor_state *s) {
    for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++)
        for (int i = 0; i < s->hand_n[p]; i++) {
            int id = s->hand[p][i];
            if (is_special(card_of(s, id))) {
                if (bb_any(special_cells(s, p, id, 0)) || bb_any(special_cells(s, p, id, 1))) return 1;
            } else if (bb_any(legal_cells(s, p, id))) {
                return 1;
            }
        }
    return 0;
}

static void new_round(kontor_state *s, kontor_log *log) {
    s->round++;
    s->phase = KONTOR_PHASE_CHOOSE;
    s->norder = 0;
    s->turn = 0;
    for (int p = 0; p < KONTOR_MAX_SEATS; p++) s->choice[p] = KONTOR_NONE;
    if (s->round > s->cfg.max_rounds) {
        s->round--;
        end_game(s, KONTOR_END_MAX_ROUNDS, log);
        return;
    }
    int any = 0;
    for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++) any |= s->hand_n[p] > 0;
    if (!any || ((s->cfg.water_touch || s->cfg.inner_value || s->cfg.tictactoe) && !any_placeable(s))) {
        end_game(s, KONTOR_END_STUCK, log);
        return;
    }
    log_ev(log, KONTOR_EV_ROUND, KONTOR_NONE, KONTOR_NONE, KONTOR_NONE, s->round);
    begin_round(s, log);
}

static void next_turn(kontor_state *s, kontor_log *log) {
    s->choice[s->order[s->turn]] = KONTOR_NONE;
    s->turn++;
    s->ship_moved = 0;
    if (s->turn >= s->norder) new_round(s, log);
    else start_turn(s, log);
}

static void take_back(kontor_state *s, int seat, int reason, kontor_log *log) {
    int id = s->choice[seat];
    hand_add(s, seat, id);
    log_ev(log, KONTOR_EV_TAKEBACK, seat, id, KONTOR_NONE, reason);
}

/* The seat at order[turn] begins its actions: the ship if its card shows one,
 * else placing. */
static void start_turn(kontor_state *s, kontor_log *log) {
    int seat = s->order[s->turn];
    int id = s->choice[seat];
    s->ship_moved = 0;
    if (s->cfg.ship && card_of(s, id)->ship && bb_any(ship_targets(s)) &&
        (s->ship_owner == KONTOR_NONE || s->ship_owner == kontor_team(s, seat))) { /* tile 7: only its owner */
        s->phase = KONTOR_PHASE_SHIP;
        return;
    }
    s->phase = KONTOR_PHASE_PLACE;
    compute_cells(s, seat, id);
    if (!bb_any(s->cells) && !bb_any(s->cells_water)) {
        /* R3: a revealed card with no legal cell goes back to the hand */
        take_back(s, seat, KONTOR_TAKEBACK_NOCELL, log);
        next_turn(s, log);
    }
}

/* Pay one coin from the treasury to each seat in want (a mask), all at the
 * same moment. R12: when the treasury cannot pay them all, the poorer are paid
 * first; among equally poor seats that cannot all be paid, none is. */
static void pay_out(kontor_state *s, unsigned want, uint8_t got[KONTOR_MAX_SEATS]) {
    memset(got, 0, KONTOR_MAX_SEATS);
    while (want && s->treasury) {
        int least = 256, n = 0;
        for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++)
            if ((want >> p) & 1) {
                if (s->coins[p] < least) least = s->coins[p], n = 0;
                if (s->coins[p] == least) n++;
            }
        if (n > s->treasury) break;
        for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++)
            if (((want >> p) & 1) && s->coins[p] == least) {
                s->coins[p]++;
                s->treasury--;
                got[p] = 1;
                want &= ~(1u << p);
            }
    }
}

/* Every seat has chosen: reveal, passes, taxes, order. Inlined per number of
 * seats (and without a log for playouts), so the loops over seats unroll. */
__attribute__((always_inline)) static inline void resolve_n(kontor_state *s, kontor_log *log, int ns) {
    unsigned passers = 0, playing = 0;
    for (int p = 0; p < ns; p++) {
        if (s->choice[p] == KONTOR_PASS) passers |= 1u << p;
        else playing |= 1u << p;
    }
    uint8_t got[KONTOR_MAX_SEATS];
    if (s->cfg.pass_hidden) { /* else the passers took their coin when they declared (do_declare) */
        pay_out(s, passers, got);
        for (int p = 0; p < ns; p++)
            if ((passers >> p) & 1) log_ev(log, KONTOR_EV_PASS, p, KONTOR_NONE, KONTOR_NONE, got[p]);
    }
    for (int p = 0; p < ns; p++)
        if ((playing >> p) & 1) {
            hand_remove(s, p, s->choice[p]);
            pub_set(s, s->choice[p]);
            log_ev(log, KONTOR_EV_REVEAL, p, s->choice[p], KONTOR_NONE, 0);
        }
    /* R2, option pass=rest: after a double pass nobody may pass in the next round */
    s->no_pass = (uint8_t)(s->cfg.pass_rest && passers == (1u << ns) - 1);

    /* Taxes, per opposing pair. A seat owes a coin when the seat opposite
     * plays a card with a coin symbol and it plays a card itself. */
    unsigned out = 0, sitout = 0;
    for (int a = 0; a < ns; a++) {
        int b = ns == 4 ? (a + 2) & 3 : a ^ 1; /* opposite(s, a) */
        if (b < a) continue;
        int pa = (playing >> a) & 1, pb = (playing >> b) & 1;
        int owe_a = pa && pb && card_of(s, s->choice[b])->coin;
        int owe_b = pa && pb && card_of(s, s->choice[a])->coin;
        int can_a = s->coins[a] >= 1, can_b = s->coins[b] >= 1;
        if (owe_a && owe_b && !can_a && !can_b) {
            sitout |= (1u << a) | (1u << b);
        } else if (owe_a && !can_a) {
            out |= 1u << a; /* b's tax falls away with a's card */
        } else if (owe_b && !can_b) {
            out |= 1u << b;
        } else {
            if (owe_a) s->coins[a]--, s->treasury++, log_ev(log, KONTOR_EV_TAX, a, KONTOR_NONE, KONTOR_NONE, 1);
            if (owe_b) s->coins[b]--, s->treasury++, log_ev(log, KONTOR_EV_TAX, b, KONTOR_NONE, KONTOR_NONE, 1);
        }
    }
    for (int p = 0; p < ns; p++)
        if ((out >> p) & 1) take_back(s, p, KONTOR_TAKEBACK_TAX, log);
    if (sitout) {
        pay_out(s, sitout, got);
        for (int p = 0; p < ns; p++)
            if ((sitout >> p) & 1) {
                hand_add(s, p, s->choice[p]);
                log_ev(log, KONTOR_EV_SITOUT, p, s->choice[p], KONTOR_NONE, got[p]);
            }
    }
    playing &= ~(out | sitout);
    /* the higher number goes first */
    s->norder = 0;
    for (int p = 0; p < ns; p++)
        if ((playing >> p) & 1) {
            int j = s->norder++;
            while (j > 0 && card_of(s, s->choice[s->order[j - 1]])->number < card_of(s, s->choice[p])->number) {
                s->order[j] = s->order[j - 1];
                j--;
            }
            s->order[j] = (uint8_t)p;
        }
    for (int p = 0; p < ns; p++)
        if (!((playing >> p) & 1)) s->choice[p] = KONTOR_NONE;
    s->turn = 0;
    if (s->norder == 0) new_round(s, log);
    else start_turn(s, log);
}

static void resolve_choices(kontor_state *s, kontor_log *log) {
    if (s->cfg.nseats == 2 && !log) resolve_n(s, NULL, 2);
    else if (s->cfg.nseats == 2) resolve_n(s, log, 2);
    else resolve_n(s, log, s->cfg.nseats);
}

static void do_choose(kontor_state *s, int seat, int value, kontor_log *log) {
    s->choice[seat] = (uint8_t)value;
    for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++)
        if (s->choice[p] == KONTOR_NONE) return;
    resolve_choices(s, log);
}

/* R1: every seat has declared; the declarations are revealed together. The
 * passers take their coin at once ("Dann bekommt er sofort eine Münze", R12
 * when the treasury cannot pay them all); those who play choose their cards
 * next, knowing who passed. When nobody plays the round is over. */
static void do_declare(kontor_state *s, int seat, int value, kontor_log *log) {
    s->choice[seat] = (uint8_t)value;
    int ns = s->cfg.nseats;
    unsigned passers = 0;
    for (int p = 0; p < ns && p < KONTOR_MAX_SEATS; p++) {
        if (s->choice[p] == KONTOR_NONE) return;
        if (s->choice[p] == KONTOR_PASS) passers |= 1u << p;
    }
    uint8_t got[KONTOR_MAX_SEATS];
    pay_out(s, passers, got);
    for (int p = 0; p < ns && p < KONTOR_MAX_SEATS; p++) {
        if ((passers >> p) & 1) {
            log_ev(log, KONTOR_EV_PASS, p, KONTOR_NONE, KONTOR_NONE, got[p]);
        } else {
            log_ev(log, KONTOR_EV_PLAY, p, KONTOR_NONE, KONTOR_NONE, 0);
            s->choice[p] = KONTOR_NONE;
        }
    }
    s->phase = KONTOR_PHASE_CHOOSE;
    if (passers == (1u << ns) - 1) resolve_choices(s, log);
}

static void enter_place(kontor_state *s, kontor_log *log);

static void do_ship(kontor_state *s, int value, kontor_log *log) {
    int seat = s->order[s->turn];
    if (value != KONTOR_NONE) {
        s->ship_cell = (uint8_t)value;
        s->ship_moved = 1;
        log_ev(log, KONTOR_EV_SHIP, seat, KONTOR_NONE, value, 0);
        if (bb_any(removable(s))) {
            s->phase = KONTOR_PHASE_REMOVE;
            return;
        }
    }
    enter_place(s, log);
}

static void enter_place(kontor_state *s, kontor_log *log) {
    int seat = s->order[s->turn];
    s->phase = KONTOR_PHASE_PLACE;
    compute_cells(s, seat, s->choice[seat]);
    if (!bb_any(s->cells) && !bb_any(s->cells_water)) {
        take_back(s, seat, KONTOR_TAKEBACK_NOCELL, log);
        next_turn(s, log);
    }
}

static void put_under_pile(kontor_state *s, int to, int id, kontor_log *log) {
    pile_put_under(&s->dock_pile[to], id); /* a public card: it was on the board */
    if (log && log->n && log->ev[log->n - 1].kind == KONTOR_EV_REMOVE) log->ev[log->n - 1].a = (uint16_t)to;
}

/* Exportlager: a card that sent warehouses to the export store leaves the
 * board (ship or bribe). Its owner takes its warehouses out of the area;
 * "hat kein Lagerhaus fuer die entsprechende Ware in dem Gebiet, so muss er
 * das Lagerhaus aus seinem Exportlager nehmen" (and only then). Warehouses
 * belong to cards here, so one taken from the area instead of the export
 * store is a mark that moves to another card of the same good (ruling E2). */
static void export_on_remove(kontor_state *s, int cell) {
    const kontor_card *k = card_of(s, s->cell_card[cell]);
    int t = k->colour;
    bb_t area = bb_and(bb_flood(bb_cell(cell), s->dock), s->team_dock[t]);
    for (int g = 0; g < 3; g++) {
        int kx = (s->export_mark[cell] >> (2 * g)) & 3;
        if (!kx) continue;
        int net = 0; /* the player's warehouses of g in the area's store */
        for (bb_t a = area; bb_any(a);) {
            int c = bb_pop(&a);
            const kontor_card *u = card_of(s, s->cell_card[c]);
            if (u->kind == KONTOR_KIND_GOODS) net += u->goods[g] - ((s->export_mark[c] >> (2 * g)) & 3);
        }
        int need = k->goods[g];
        int from_export = need > net ? need - net : 0;
        int left = net >= need ? net - need : 0;
        int others = net - (need - kx); /* what the other cards hold now */
        int add = others - left;        /* marks that move to other cards */
        s->export_n[t][g] = (uint8_t)(s->export_n[t][g] - from_export);
        for (bb_t a = area; bb_any(a) && add > 0;) {
            int c = bb_pop(&a);
            if (c == cell) continue;
            const kontor_card *u = card_of(s, s->cell_card[c]);
            int m = (s->export_mark[c] >> (2 * g)) & 3;
            while (u->kind == KONTOR_KIND_GOODS && m < u->goods[g] && add > 0) {
                s->export_mark[c] = (uint8_t)(s->export_mark[c] + (1 << (2 * g)));
                m++, add--;
            }
        }
    }
    s->export_mark[cell] = 0;
}

/* Aktionstafeln: the dock card on cell, which holds a tile's extra warehouse
 * for its area, leaves the board: the warehouse stays in the area with
 * another card of the same player there, or is lost (ruling E5). */
static void tile_bonus_moves(kontor_state *s, int cell) {
    for (int g = 0; g < 3; g++) {
        if (s->tile_bonus[g] != cell) continue;
        int t = card_of(s, s->cell_card[cell])->colour;
        bb_t rest = bb_and(bb_flood(bb_cell(cell), s->dock), s->team_dock[t < 2 ? t : 0]);
        bb_clear(&rest, cell);
        s->tile_bonus[g] = bb_any(rest) ? (uint8_t)bb_first(rest) : KONTOR_NONE;
    }
}

/* A dock card is about to leave the board (ship, bribe, event). */
static void before_remove(kontor_state *s, int cell) {
    if (s->export_mark[cell]) export_on_remove(s, cell);
    if (s->cfg.tiles) tile_bonus_moves(s, cell);
}

static void do_remove(kontor_state *s, int value, kontor_log *log) {
    int seat = s->order[s->turn];
    if (value != KONTOR_NONE) {
        int id = s->cell_card[value];
        int team = card_of(s, id)->colour;
        before_remove(s, value);
        remove_raw(s, value);
        log_ev(log, KONTOR_EV_REMOVE, seat, id, value, owner_seat(s, team));
        if (s->cfg.nseats == 4) {
            /* the remover chooses which player of the card's team takes it (R21) */
            s->removed_card = (uint8_t)id;
            s->phase = KONTOR_PHASE_PILE;
            return;
        }
        put_under_pile(s, owner_seat(s, team), id, log);
    }
    enter_place(s, log);
}

static void do_pile(kontor_state *s, int value, kontor_log *log) {
    int id = s->removed_card;
    s->removed_card = KONTOR_NONE;
    pile_put_under(&s->dock_pile[value], id);
    log_ev(log, KONTOR_EV_REMOVE, s->order[s->turn], id, KONTOR_NONE, value);
    enter_place(s, log);
}

/* The highest hand card of seat p, -1 for an empty hand. */
static int highest_in_hand(const kontor_state *s, int p) {
    int best = -1;
    for (int i = 0; i < s->hand_n[p]; i++)
        if (card_of(s, s->hand[p][i])->number > best) best = card_of(s, s->hand[p][i])->number;
    return best;
}

/* Every seat has said how many special cards it buys (R20). "Wollen beide
 * kaufen und es sind nicht mehr genügend Sonderkarten da, darf der Spieler
 * kaufen, der die höchste Karte aus seiner Hand vorweist": when they want
 * more than the pile holds, the seat showing the highest hand card buys
 * first, as many as it said; the other then buys what is left, up to his
 * number. Otherwise seat order (it changes nothing: everybody gets all). */
static void resolve_buys(kontor_state *s, kontor_log *log) {
    int ns = s->cfg.nseats, want = 0;
    for (int p = 0; p < ns && p < KONTOR_MAX_SEATS; p++) want += s->buy[p];
    int order[KONTOR_MAX_SEATS], no = 0;
    for (int p = 0; p < ns && p < KONTOR_MAX_SEATS; p++) order[no++] = p;
    if (want > s->special_pile.n) /* not enough for everybody: highest hand card first */
        for (int i = 1; i < no; i++)
            for (int j = i; j > 0 && highest_in_hand(s, order[j]) > highest_in_hand(s, order[j - 1]); j--) {
                int t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
    for (int i = 0; i < no; i++) {
        int p = order[i];
        for (int k = 0; k < s->buy[p] && s->special_pile.n; k++) {
            int id = pile_draw(&s->special_pile);
            s->coins[p] = (uint8_t)(s->coins[p] - 2);
            s->treasury = (uint8_t)(s->treasury + 2);
            hand_add(s, p, id);
            log_ev(log, KONTOR_EV_BUY, p, id, KONTOR_NONE, 2);
        }
    }
    for (int p = 0; p < KONTOR_MAX_SEATS; p++) s->buy[p] = KONTOR_NONE;
    open_choice(s);
}

static void do_buy(kontor_state *s, int seat, int value, kontor_log *log) {
    s->buy[seat] = (uint8_t)value;
    for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++)
        if (s->buy[p] == KONTOR_NONE) return;
    resolve_buys(s, log);
}

/* Lay a special card; as_water only matters for a customs house. */
static void place_special(kontor_state *s, int seat, int cell, int id, int as_water, kontor_log *log) {
    const kontor_card *k = card_of(s, id);
    if (k->kind == KONTOR_KIND_CUSTOMS) {
        place_as(s, cell, id, as_water);
        log_ev(log, KONTOR_EV_PLACE, seat, id, cell, as_water);
        return;
    }
    /* a flood or a bridge covers the card on cell, which stays under it
     * (with the Exportlager, its exported warehouses stay exported) */
    int under = s->cell_card[cell];
    s->export_mark[cell] = 0;
    if (s->cfg.tiles) tile_bonus_moves(s, cell);
    if (s->nunder < KONTOR_UNDER_MAX) {
        s->under_cell[s->nunder] = (uint8_t)cell;
        s->under_card[s->nunder] = (uint8_t)under;
        s->nunder++;
    }
    remove_raw(s, cell);
    place_as(s, cell, id, k->kind == KONTOR_KIND_FLOOD);
    log_ev(log, KONTOR_EV_OVERBUILD, seat, id, cell, under);
}

static inline void after_scoring(kontor_state *s, int seat, int water, int special, kontor_log *log);

static void do_place(kontor_state *s, int value, int as_water, kontor_log *log) {
    int seat = s->order[s->turn];
    int id = s->choice[seat];
    if (value == KONTOR_NONE) { /* optional_place: declined */
        take_back(s, seat, KONTOR_TAKEBACK_DECLINED, log);
        next_turn(s, log);
        return;
    }
    const kontor_card *k = card_of(s, id);
    int special = is_special(k);
    bb_t mask_before = s->mask;
    s->last_layer = (uint8_t)seat;
    int water;
    if (special) {
        place_special(s, seat, value, id, as_water, log);
        water = bb_test(&s->water, value);
    } else {
        place_raw(s, value, id);
        log_ev(log, KONTOR_EV_PLACE, seat, id, value, 0);
        water = is_water(k);
        if (s->cfg.export_store && k->kind == KONTOR_KIND_GOODS && s->cfg.nseats == 2) {
            /* Exportlager: the warehouses go in after the player says whether
             * one goes to his export store; the area is scored after that */
            s->placed_cell = (uint8_t)value;
            s->phase = KONTOR_PHASE_EXPORT;
            return;
        }
    }
    /* Scoring: the area of a dock card, the areas next to a water card; and
     * when the extent grew, the areas next to cells that just became
     * unplayable (only they can have been closed by the new edge). */
    bb_t candidates = water ? bb_neighbours(bb_cell(value)) : bb_cell(value);
    if (!bb_eq(mask_before, s->mask)) {
        /* with edge=both every unplayable cell may have begun to close areas */
        bb_t newly = s->cfg.edge_both ? bb_andnot(bb_all(), s->mask) : bb_andnot(mask_before, s->mask);
        candidates = bb_or(candidates, bb_neighbours(newly));
    }
    check_enclosures(s, candidates, log);
    after_scoring(s, seat, water, special, log);
}

/* Tic Tac Toe: the island (0..8) of a cell of the fixed 8x8 board: islands of
 * 2x2 cells between canals one cell wide (data/layouts/tictactoe.txt). */
static int island_of(const kontor_state *s, int cell) {
    int first = bb_first(s->cfg.board_mask);
    int x = (cell & 15) - (first & 15), y = (cell >> 4) - (first >> 4);
    if (x < 0 || y < 0 || x % 3 == 2 || y % 3 == 2 || x > 7 || y > 7) return -1;
    return (y / 3) * 3 + x / 3;
}

/* Which teams own three islands in a row: bit t for team t (0 none, 3 both).
 * An island is owned by the team whose keeper stands on its (enclosed) area. */
static unsigned three_in_a_row(const kontor_state *s) {
    static const uint16_t lines[8] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};
    unsigned owned[2] = {0, 0}, rows = 0;
    for (int i = 0; i < s->nareas; i++) {
        int is = island_of(s, s->area[i].cell);
        if (is >= 0 && s->area[i].keeper) owned[s->area[i].winner] |= 1u << is;
    }
    for (int t = 0; t < 2; t++)
        for (int l = 0; l < 8; l++)
            if ((owned[t] & lines[l]) == lines[l]) rows |= 1u << t;
    return rows;
}

/* Tic Tac Toe: "Erreicht ein Spieler dies, ist das Spiel sofort beendet".
 * Checked after every scoring, whatever laid the card (a card from a hand,
 * an event's water card, the moved harbour centre); returns 1 when the game
 * ended. Ruling V14: when one scoring completes a row for both players at
 * once, neither was first; the game ends at once all the same and is decided
 * as when nobody completes a row ("Schafft es keiner, gewinnt der, der die
 * meisten Gebiete besitzt"): by points, then coins. */
static int row_ends_game(kontor_state *s, kontor_log *log) {
    if (!s->cfg.tictactoe) return 0;
    unsigned rows = three_in_a_row(s);
    if (!rows) return 0;
    end_game_won(s, KONTOR_END_ROW, rows == 3 ? -2 : (rows == 1 ? 0 : 1), log);
    return 1;
}

/* The rest of a placement after the areas are scored: the end checks, the
 * draw and the coin, the next turn. */
static int tile_options(const kontor_state *s, int seat, int tile, kontor_move *moves);

/* Aktionstafeln: a water card with a tile has just been closed in on all four
 * sides by a placement: its tile goes to the player who laid that card. One
 * placement can close at most one (no cell touches two ends of the cross).
 * Coins, the ship and the point take effect at once; the centre and the
 * warehouses are decisions, taken after the draw (s->tile_cur). */
static void check_tiles(kontor_state *s, int seat, kontor_log *log) {
    for (int k = 0; k < 4; k++) {
        if (s->tile_at[k] == KONTOR_NONE) continue;
        int c = kontor_cell(cross_end[k][0], cross_end[k][1]);
        bb_t around = bb_neighbours(bb_cell(c));
        if (!bb_eq(bb_and(around, s->occ), around)) continue;
        int tile = s->tile_at[k], team = kontor_team(s, seat);
        s->tile_at[k] = KONTOR_NONE;
        log_ev(log, KONTOR_EV_TILE, seat, KONTOR_NONE, c, tile);
        uint8_t got[KONTOR_MAX_SEATS];
        if (tile == 4 || tile == 5) /* one or two coins from the bank, as far as it goes */
            for (int i = 0; i < tile - 3; i++) pay_out(s, 1u << seat, got);
        else if (tile == 6) s->ship_owner = (uint8_t)team;
        else if (tile == 7) s->bonus_points[team]++;
        else s->tile_cur = (uint8_t)tile; /* "muss sofort ausfuehren, sonst verfallen sie" */
    }
}

__attribute__((always_inline)) static inline void after_scoring(kontor_state *s, int seat, int water, int special,
                                                                kontor_log *log) {
    if (s->cfg.tiles) check_tiles(s, seat, log);
    if (s->cfg.tictactoe && row_ends_game(s, log)) return;
    if (board_full(s) && !s->cfg.final_draw) { /* R9: the game ends at once */
        end_game(s, KONTOR_END_FULL, log);
        return;
    }
    if (!special) {
        /* draw the same kind, from the top of the pile (a public card);
         * no card is drawn after a special card, and it earns no coin */
        kontor_pile *pile = water ? &s->water_pile : &s->dock_pile[seat];
        int drawn = pile_draw(pile);
        if (drawn != KONTOR_NONE) {
            hand_add(s, seat, drawn);
            log_ev(log, KONTOR_EV_DRAW, seat, drawn, KONTOR_NONE, 0);
            if (pile->n) pub_set(s, pile_top(pile));
        }
        if (water && s->treasury) {
            s->treasury--;
            s->coins[seat]++;
            log_ev(log, KONTOR_EV_COIN, seat, KONTOR_NONE, KONTOR_NONE, 1);
        }
    }
    if (board_full(s)) {
        end_game(s, KONTOR_END_FULL, log);
        return;
    }
    if (s->tile_cur != KONTOR_NONE) {
        kontor_move m[KONTOR_MAX_MOVES];
        if (tile_options(s, seat, s->tile_cur, m) > 1) {
            s->phase = KONTOR_PHASE_TILE;
            return;
        }
        s->tile_cur = KONTOR_NONE; /* nothing it could do: the tile is lost */
    }
    next_turn(s, log);
}

/* The centre card's cell now (tile 1 can move it). */
static int centre_cell(const kontor_state *s) {
    if (s->cell_card[KONTOR_CENTRE_CELL] == s->cfg.cards->centre) return KONTOR_CENTRE_CELL;
    for (int c = 0; c < KONTOR_CELLS; c++)
        if (s->cell_card[c] == s->cfg.cards->centre) return c;
    return KONTOR_CENTRE_CELL;
}

/* Where the harbour centre may go (tile 1): a free cell where a water card
 * could be laid once the centre has left its cell, not that cell itself. */
static bb_t centre_targets(const kontor_state *s, int seat) {
    kontor_state t = *s;
    int from = centre_cell(s);
    remove_raw(&t, from);
    bb_t r = legal_cells(&t, seat, s->cfg.cards->centre);
    bb_clear(&r, from);
    return r;
}

/* The decisions of a tile for seat, KONTOR_NONE (forgo) first. */
static int tile_options(const kontor_state *s, int seat, int tile, kontor_move *moves) {
    int n = 0;
    moves[n++] = KONTOR_MOVE(KONTOR_MOVE_TILE, KONTOR_NONE);
    if (tile == 0) {
        bb_t t = centre_targets(s, seat);
        while (bb_any(t)) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_TILE, bb_pop(&t));
    } else if (tile >= 1 && tile <= 3) {
        /* one of his central stores: an open area where he has goods; named
         * by its lowest cell holding one of his goods cards */
        int team = kontor_team(s, seat);
        bb_t mine = bb_andnot(s->team_dock[team], s->enclosed), done = bb_empty();
        while (bb_any(mine)) {
            int c = bb_pop(&mine);
            if (bb_test(&done, c) || card_of(s, s->cell_card[c])->kind != KONTOR_KIND_GOODS) continue;
            done = bb_or(done, bb_flood(bb_cell(c), s->dock));
            moves[n++] = KONTOR_MOVE(KONTOR_MOVE_TILE, c);
        }
    }
    return n;
}

static void do_tile(kontor_state *s, int value, kontor_log *log) {
    int tile = s->tile_cur;
    s->tile_cur = KONTOR_NONE;
    if (value != KONTOR_NONE && tile == 0) {
        int from = centre_cell(s);
        remove_raw(s, from);
        place_as(s, value, s->cfg.cards->centre, 1);
        if (s->ship_cell == from) s->ship_cell = (uint8_t)value; /* the ship sails with it */
        check_enclosures(s, s->dock, log);
        if (row_ends_game(s, log)) return;
    } else if (value != KONTOR_NONE) {
        s->tile_bonus[tile - 1] = (uint8_t)value;
    }
    s->phase = KONTOR_PHASE_PLACE;
    if (board_full(s)) {
        end_game(s, KONTOR_END_FULL, log);
        return;
    }
    next_turn(s, log);
}

/* ---- the scenarios' decisions ---------------------------------------------------- */

/* Exportlager: the seat that just placed a goods card sends one warehouse of
 * good value to its export store, or none; then the placement goes on. */
static void do_export(kontor_state *s, int value, kontor_log *log) {
    int seat = s->order[s->turn];
    int cell = s->placed_cell;
    if (value != KONTOR_NONE) {
        int team = card_of(s, s->cell_card[cell])->colour;
        s->export_mark[cell] = (uint8_t)(s->export_mark[cell] + (1 << (2 * value)));
        s->export_n[team][value]++;
        log_ev(log, KONTOR_EV_EXPORT, seat, s->cell_card[cell], cell, value);
    }
    s->placed_cell = KONTOR_NONE;
    s->phase = KONTOR_PHASE_PLACE;
    /* every open area: the extent may have grown (not the hot path) */
    check_enclosures(s, s->dock, log);
    after_scoring(s, seat, 0, 0, log);
}

/* Bakschisch: every seat has decided; both bribes happen at once (they
 * concern cards of different colours, so they never collide: ruling V6). */
static void do_bribe(kontor_state *s, int seat, int value, kontor_log *log) {
    s->bribe[seat] = (uint8_t)(value == KONTOR_NONE ? KONTOR_PASS : value);
    for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++)
        if (s->bribe[p] == KONTOR_NONE) return;
    for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++) {
        int cell = s->bribe[p];
        if (cell == KONTOR_PASS) continue;
        int id = s->cell_card[cell];
        const kontor_card *k = card_of(s, id);
        int cost = count_goods(k);
        s->coins[p] = (uint8_t)(s->coins[p] - cost);
        s->treasury = (uint8_t)(s->treasury + cost);
        before_remove(s, cell);
        remove_raw(s, cell);
        /* "die ausgewaehlte Karte kommt unter den Stapel des Gegenspielers" */
        pile_put_under(&s->dock_pile[owner_seat(s, k->colour)], id);
        log_ev(log, KONTOR_EV_BRIBE, p, id, cell, cost);
    }
    for (int p = 0; p < KONTOR_MAX_SEATS; p++) s->bribe[p] = KONTOR_NONE;
    begin_buy(s);
}

static int pile_take(kontor_pile *p, int id) {
    for (int i = 0; i < p->n; i++) {
        int at = (p->head + i) & (KONTOR_PILE_MAX - 1);
        if (p->card[at] != id) continue;
        for (int j = i; j + 1 < p->n; j++)
            p->card[(p->head + j) & (KONTOR_PILE_MAX - 1)] = p->card[(p->head + j + 1) & (KONTOR_PILE_MAX - 1)];
        p->n--;
        p->card[(p->head + p->n) & (KONTOR_PILE_MAX - 1)] = 0;
        return 1;
    }
    return 0;
}

static int pile_has(const kontor_pile *p, int id) {
    for (int i = 0; i < p->n; i++)
        if (p->card[(p->head + i) & (KONTOR_PILE_MAX - 1)] == id) return 1;
    return 0;
}

static int select_total(const kontor_state *s) { return s->cfg.select_keep + s->cfg.select_discard; }

/* Justizia: seat keeps (into its hand) or discards (out of the game) a dock
 * card from its pile: first select_keep keeps, then select_discard discards. */
static void do_select(kontor_state *s, int seat, int id, kontor_log *log) {
    pile_take(&s->dock_pile[seat], id);
    if (s->selected[seat] < s->cfg.select_keep) hand_add(s, seat, id);
    else pile_put_under(&s->aside, id); /* stays known to seat (known[]), hidden from the others */
    s->selected[seat]++;
    if (s->selected[seat] == select_total(s)) log_ev(log, KONTOR_EV_SELECT, seat, KONTOR_NONE, KONTOR_NONE, 0);
    for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++)
        if (s->selected[p] < select_total(s)) return;
    /* everybody has chosen: the rest of each pile is shuffled (its order was
     * never shown: views list it sorted), its top card shows as usual */
    for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++) {
        kontor_pile *pl = &s->dock_pile[p];
        for (int i = 0; i < pl->n; i++) {
            int c = pl->card[(pl->head + i) & (KONTOR_PILE_MAX - 1)];
            s->known[p][c >> 6] &= ~(1ULL << (c & 63));
        }
        if (pl->n) pub_set(s, pile_top(pl));
    }
    begin_round(s, log);
}

/* Alte Seilschaften: the owner of the tavern in area tavern_area says whether
 * it scores; then the next such area, then the final count. */
static void do_tavern(kontor_state *s, int value, kontor_log *log) {
    int a = s->tavern_area;
    s->area[a].out = (uint8_t)!value;
    log_ev(log, KONTOR_EV_TAVERN, tavern_seat(s), value, s->area[a].cell, a);
    int next = next_tavern(s, a + 1);
    if (next >= 0) {
        s->tavern_area = (uint8_t)next;
        return;
    }
    finish_game(s, -2, log);
}

/* Armut: "Ist ein Spieler blank und ist kein Geld mehr in der Stadtkasse,
 * endet das Spiel vorzeitig. Der andere Spieler bzw. das andere Team hat dann
 * gewonnen." Checked after every decision; both sides broke at once (only
 * possible with four): the points decide (ruling V8). */
static void check_bankrupt(kontor_state *s, kontor_log *log) {
    if (s->treasury || s->phase == KONTOR_PHASE_OVER) return;
    unsigned lose = 0;
    for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++)
        if (!s->coins[p]) lose |= 1u << kontor_team(s, p);
    if (lose) end_game_won(s, KONTOR_END_BANKRUPT, lose == 3 ? -2 : (lose == 1 ? 1 : 0), log);
}

/* ---- Ereigniskarten: the event cards ------------------------------------------- */

/* The seat whose part of the event comes now: the player who laid the last
 * card first ("Dabei beginnt der Spieler, der die letzte Karte gelegt hatte"),
 * then the other. */
static int event_seat(const kontor_state *s) {
    int first = s->last_layer == KONTOR_NONE ? 0 : s->last_layer;
    return s->event_step == 0 ? first : first ^ 1;
}

/* The decisions of the current event for seat, KONTOR_NONE (pass) first. */
static int event_options(const kontor_state *s, int seat, kontor_move *moves) {
    int n = 0;
    moves[n++] = KONTOR_MOVE(KONTOR_MOVE_EVENT, KONTOR_NONE);
    bb_t t = bb_empty();
    switch (s->cfg.event_action[s->event_cur]) {
    case KONTOR_ACT_SHIP_MOVE:
        if (s->ship_cell != KONTOR_NONE) t = ship_targets(s);
        break;
    case KONTOR_ACT_SHIP_REMOVE: t = removable(s); break;
    case KONTOR_ACT_FREE_WATER:
        if (s->water_pile.n) t = legal_cells(s, seat, pile_top(&s->water_pile));
        break;
    default: break;
    }
    while (bb_any(t)) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_EVENT, bb_pop(&t));
    return n;
}

/* How many seats take part in the current event's decisions. */
static int event_steps(const kontor_state *s) {
    return s->cfg.event_action[s->event_cur] == KONTOR_ACT_SHIP_REMOVE ? 1 : 2;
}

/* Move on to the next seat that can do something, or end the event. */
static void event_next_step(kontor_state *s, kontor_log *log) {
    kontor_move m[KONTOR_MAX_MOVES];
    while (s->event_step < event_steps(s)) {
        if (event_options(s, event_seat(s), m) > 1) {
            s->phase = KONTOR_PHASE_EVENT;
            return;
        }
        s->event_step++; /* "es sei denn es ist nicht moeglich" */
    }
    s->event_cur = KONTOR_NONE;
    s->event_step = 0;
    (void)log;
    begin_bribe(s);
}

/* Turn up the top event card and carry it out; returns 1 when it waits for
 * a decision (the event phase), 0 when it is done. */
static int start_event(kontor_state *s, kontor_log *log) {
    int ev = s->event_deck[s->event_next++];
    int act = s->cfg.event_action[ev], arg = s->cfg.event_arg[ev], ns = s->cfg.nseats;
    log_ev(log, KONTOR_EV_EVENT, KONTOR_NONE, KONTOR_NONE, KONTOR_NONE, ev);
    uint8_t got[KONTOR_MAX_SEATS];
    unsigned want = 0;
    int lo = 255, hi = 0;
    for (int p = 0; p < ns; p++) {
        if (s->coins[p] < lo) lo = s->coins[p];
        if (s->coins[p] > hi) hi = s->coins[p];
    }
    switch (act) {
    case KONTOR_ACT_COINS_EACH:
        for (int i = 0; i < (arg > 0 ? arg : 0); i++) pay_out(s, (1u << ns) - 1, got); /* R12 when it runs short */
        for (int p = 0; p < ns && arg < 0; p++) {
            int pay = s->coins[p] < -arg ? s->coins[p] : -arg;
            s->coins[p] = (uint8_t)(s->coins[p] - pay);
            s->treasury = (uint8_t)(s->treasury + pay);
        }
        return 0;
    case KONTOR_ACT_COIN_POOREST:
        for (int p = 0; p < ns; p++) want |= (unsigned)(s->coins[p] == lo) << p;
        pay_out(s, want, got);
        return 0;
    case KONTOR_ACT_COIN_RICHEST:
        for (int p = 0; p < ns; p++)
            if (hi > 0 && s->coins[p] == hi) s->coins[p]--, s->treasury++;
        return 0;
    case KONTOR_ACT_CENTRE_COIN: {
        bb_t near = bb_and(bb_neighbours(bb_cell(centre_cell(s))), s->dock);
        for (int p = 0; p < ns; p++) want |= (unsigned)bb_any(bb_and(near, s->team_dock[kontor_team(s, p)])) << p;
        pay_out(s, want, got);
        return 0;
    }
    case KONTOR_ACT_DRAW_DOCK:
        for (int p = 0; p < ns; p++) {
            if (s->hand_n[p] >= KONTOR_HAND_MAX || !s->dock_pile[p].n) continue;
            hand_add(s, p, pile_draw(&s->dock_pile[p]));
            if (s->dock_pile[p].n) pub_set(s, pile_top(&s->dock_pile[p]));
        }
        return 0;
    case KONTOR_ACT_NO_PASS: s->no_pass = 1; return 0;
    default: break;
    }
    s->event_cur = (uint8_t)ev;
    s->event_step = 0;
    event_next_step(s, log);
    return s->phase == KONTOR_PHASE_EVENT;
}

static void do_event(kontor_state *s, int value, kontor_log *log) {
    int seat = event_seat(s);
    if (value != KONTOR_NONE) {
        switch (s->cfg.event_action[s->event_cur]) {
        case KONTOR_ACT_SHIP_MOVE:
            s->ship_cell = (uint8_t)value;
            log_ev(log, KONTOR_EV_SHIP, seat, KONTOR_NONE, value, 0);
            break;
        case KONTOR_ACT_SHIP_REMOVE: {
            int id = s->cell_card[value];
            int owner = owner_seat(s, card_of(s, id)->colour);
            before_remove(s, value);
            remove_raw(s, value);
            pile_put_under(&s->dock_pile[owner], id);
            log_ev(log, KONTOR_EV_REMOVE, seat, id, value, owner);
            break;
        }
        case KONTOR_ACT_FREE_WATER: {
            int id = pile_draw(&s->water_pile);
            if (s->water_pile.n) pub_set(s, pile_top(&s->water_pile));
            place_raw(s, value, id);
            s->last_layer = (uint8_t)seat;
            log_ev(log, KONTOR_EV_PLACE, seat, id, value, 0);
            check_enclosures(s, s->dock, log);
            if (row_ends_game(s, log)) { /* an event's water card can close the third island too */
                s->event_cur = KONTOR_NONE;
                return;
            }
            if (board_full(s)) {
                s->event_cur = KONTOR_NONE;
                end_game(s, KONTOR_END_FULL, log);
                return;
            }
            break;
        }
        default: break;
        }
    }
    s->event_step++;
    event_next_step(s, log);
}

/* ---- the decision interface ------------------------------------------------------ */

unsigned kontor_actors(const kontor_state *s) {
    unsigned m = 0;
    switch (s->phase) {
    case KONTOR_PHASE_CHOOSE:
    case KONTOR_PHASE_DECLARE:
        for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++)
            if (s->choice[p] == KONTOR_NONE) m |= 1u << p;
        return m;
    case KONTOR_PHASE_BUY:
        for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++)
            if (s->buy[p] == KONTOR_NONE) m |= 1u << p;
        return m;
    case KONTOR_PHASE_BRIBE:
        for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++)
            if (s->bribe[p] == KONTOR_NONE) m |= 1u << p;
        return m;
    case KONTOR_PHASE_SELECT:
        for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS; p++)
            if (s->selected[p] < select_total(s)) m |= 1u << p;
        return m;
    case KONTOR_PHASE_TAVERN: return 1u << tavern_seat(s);
    case KONTOR_PHASE_EVENT: return 1u << event_seat(s);
    case KONTOR_PHASE_TILE:
    case KONTOR_PHASE_EXPORT:
    case KONTOR_PHASE_SHIP:
    case KONTOR_PHASE_REMOVE:
    case KONTOR_PHASE_PLACE:
    case KONTOR_PHASE_PILE:
        return 1u << s->order[s->turn];
    default:
        return 0;
    }
}

int kontor_current(const kontor_state *s) {
    if (s->phase == KONTOR_PHASE_OVER || s->phase == KONTOR_PHASE_CHOOSE || s->phase == KONTOR_PHASE_BUY ||
        s->phase == KONTOR_PHASE_BRIBE || s->phase == KONTOR_PHASE_SELECT || s->phase == KONTOR_PHASE_DECLARE)
        return -1;
    if (s->phase == KONTOR_PHASE_TAVERN) return tavern_seat(s);
    if (s->phase == KONTOR_PHASE_EVENT) return event_seat(s);
    return s->order[s->turn];
}

/* The goods of the card just placed, for the export phase (bit g: good g). */
static unsigned export_goods(const kontor_state *s) {
    const kontor_card *k = card_of(s, s->cell_card[s->placed_cell]);
    return (k->goods[0] ? 1u : 0) | (k->goods[1] ? 2u : 0) | (k->goods[2] ? 4u : 0);
}

/* R2: passing is always allowed, unless the house rule (pass=rest) or an
 * event forbids it this round; a seat with no card in hand may always pass. */
static int may_pass(const kontor_state *s, int seat) { return !s->no_pass || s->hand_n[seat] == 0; }
/* In the choice phase a pass is a choice only with declare=hidden (R1). */
static int may_pass_in_choice(const kontor_state *s, int seat) { return s->cfg.pass_hidden && may_pass(s, seat); }

/* The two seats of the removed card's team, in the pile phase. */
static int pile_seats(const kontor_state *s, int out[2]) {
    int team = card_of(s, s->removed_card)->colour;
    out[0] = owner_seat(s, team);
    out[1] = owner_seat(s, team) + 1;
    return 2;
}

int kontor_legal(const kontor_state *s, int seat, kontor_move *moves) {
    int n = 0;
    if (seat < 0 || seat >= s->cfg.nseats || !((kontor_actors(s) >> seat) & 1)) return 0;
    switch (s->phase) {
    case KONTOR_PHASE_DECLARE:
        if (s->hand_n[seat]) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PLAY);
        if (may_pass(s, seat)) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_DECLARE, KONTOR_PASS);
        break;
    case KONTOR_PHASE_CHOOSE:
        for (int i = 0; i < s->hand_n[seat]; i++) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_CHOOSE, s->hand[seat][i]);
        if (may_pass_in_choice(s, seat)) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_CHOOSE, KONTOR_PASS);
        break;
    case KONTOR_PHASE_BUY:
        for (int k = 0, m = buy_max(s, seat); k <= m; k++) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_BUY, k);
        break;
    case KONTOR_PHASE_BRIBE: {
        moves[n++] = KONTOR_MOVE(KONTOR_MOVE_BRIBE, KONTOR_NONE);
        bb_t t = bribe_targets(s, seat);
        while (bb_any(t)) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_BRIBE, bb_pop(&t));
        break;
    }
    case KONTOR_PHASE_SELECT: {
        int kind = s->selected[seat] < s->cfg.select_keep ? KONTOR_MOVE_KEEP : KONTOR_MOVE_DISCARD;
        const kontor_pile *pl = &s->dock_pile[seat];
        /* in card order, not pile order: the order of the pile is hidden */
        for (int id = 0; id < s->cfg.cards->ncards; id++)
            if (pile_has(pl, id)) moves[n++] = KONTOR_MOVE(kind, id);
        break;
    }
    case KONTOR_PHASE_TAVERN:
        moves[n++] = KONTOR_MOVE(KONTOR_MOVE_TAVERN, 1);
        moves[n++] = KONTOR_MOVE(KONTOR_MOVE_TAVERN, 0);
        break;
    case KONTOR_PHASE_EVENT: n = event_options(s, seat, moves); break;
    case KONTOR_PHASE_TILE: n = tile_options(s, seat, s->tile_cur, moves); break;
    case KONTOR_PHASE_EXPORT: {
        moves[n++] = KONTOR_MOVE(KONTOR_MOVE_EXPORT, KONTOR_NONE);
        unsigned g = export_goods(s);
        for (int k = 0; k < 3; k++)
            if ((g >> k) & 1) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_EXPORT, k);
        break;
    }
    case KONTOR_PHASE_SHIP: {
        moves[n++] = KONTOR_MOVE(KONTOR_MOVE_SHIP, KONTOR_NONE);
        bb_t t = ship_targets(s);
        while (bb_any(t)) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_SHIP, bb_pop(&t));
        break;
    }
    case KONTOR_PHASE_REMOVE: {
        moves[n++] = KONTOR_MOVE(KONTOR_MOVE_REMOVE, KONTOR_NONE);
        bb_t t = removable(s);
        while (bb_any(t)) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_REMOVE, bb_pop(&t));
        break;
    }
    case KONTOR_PHASE_PILE: {
        int ps[2];
        pile_seats(s, ps);
        moves[n++] = KONTOR_MOVE(KONTOR_MOVE_PILE, ps[0]);
        moves[n++] = KONTOR_MOVE(KONTOR_MOVE_PILE, ps[1]);
        break;
    }
    case KONTOR_PHASE_PLACE: {
        bb_t t = s->cells;
        while (bb_any(t)) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_PLACE, bb_pop(&t));
        t = s->cells_water;
        while (bb_any(t)) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_PLACE_WATER, bb_pop(&t));
        if (s->cfg.optional_place) moves[n++] = KONTOR_MOVE(KONTOR_MOVE_PLACE, KONTOR_NONE);
        break;
    }
    default:
        break;
    }
    return n;
}

int kontor_is_legal(const kontor_state *s, int seat, kontor_move move) {
    if (seat < 0 || seat >= s->cfg.nseats || !((kontor_actors(s) >> seat) & 1)) return 0;
    int v = KONTOR_MOVE_VALUE(move), kind = KONTOR_MOVE_KIND(move);
    if (move >> 12) return 0;
    switch (s->phase) {
    case KONTOR_PHASE_DECLARE:
        if (kind != KONTOR_MOVE_DECLARE) return 0;
        if (v == KONTOR_PASS) return may_pass(s, seat);
        return v == KONTOR_PLAY && s->hand_n[seat] > 0;
    case KONTOR_PHASE_CHOOSE:
        if (kind != KONTOR_MOVE_CHOOSE) return 0;
        if (v == KONTOR_PASS) return may_pass_in_choice(s, seat);
        for (int i = 0; i < s->hand_n[seat]; i++)
            if (s->hand[seat][i] == v) return 1;
        return 0;
    case KONTOR_PHASE_BUY:
        return kind == KONTOR_MOVE_BUY && v <= buy_max(s, seat);
    case KONTOR_PHASE_BRIBE: {
        if (kind != KONTOR_MOVE_BRIBE) return 0;
        if (v == KONTOR_NONE) return 1;
        bb_t t = bribe_targets(s, seat);
        return bb_test(&t, v);
    }
    case KONTOR_PHASE_SELECT:
        if (kind != (s->selected[seat] < s->cfg.select_keep ? KONTOR_MOVE_KEEP : KONTOR_MOVE_DISCARD)) return 0;
        return pile_has(&s->dock_pile[seat], v);
    case KONTOR_PHASE_TAVERN:
        return kind == KONTOR_MOVE_TAVERN && v <= 1;
    case KONTOR_PHASE_EVENT:
    case KONTOR_PHASE_TILE: {
        if (kind != (s->phase == KONTOR_PHASE_EVENT ? KONTOR_MOVE_EVENT : KONTOR_MOVE_TILE)) return 0;
        kontor_move m[KONTOR_MAX_MOVES];
        int n = s->phase == KONTOR_PHASE_EVENT ? event_options(s, seat, m) : tile_options(s, seat, s->tile_cur, m);
        for (int i = 0; i < n; i++)
            if (m[i] == move) return 1;
        return 0;
    }
    case KONTOR_PHASE_EXPORT:
        if (kind != KONTOR_MOVE_EXPORT) return 0;
        return v == KONTOR_NONE || (v < 3 && ((export_goods(s) >> v) & 1));
    case KONTOR_PHASE_SHIP: {
        if (kind != KONTOR_MOVE_SHIP) return 0;
        if (v == KONTOR_NONE) return 1;
        bb_t t = ship_targets(s);
        return bb_test(&t, v);
    }
    case KONTOR_PHASE_REMOVE: {
        if (kind != KONTOR_MOVE_REMOVE) return 0;
        if (v == KONTOR_NONE) return 1;
        bb_t t = removable(s);
        return bb_test(&t, v);
    }
    case KONTOR_PHASE_PILE: {
        int ps[2];
        pile_seats(s, ps);
        return kind == KONTOR_MOVE_PILE && (v == ps[0] || v == ps[1]);
    }
    case KONTOR_PHASE_PLACE:
        if (kind == KONTOR_MOVE_PLACE_WATER) return v != KONTOR_NONE && bb_test(&s->cells_water, v);
        if (kind != KONTOR_MOVE_PLACE) return 0;
        if (v == KONTOR_NONE) return s->cfg.optional_place;
        return bb_test(&s->cells, v);
    default:
        return 0;
    }
}

static void apply_unchecked(kontor_state *s, int seat, kontor_move move, kontor_log *log) {
    int v = KONTOR_MOVE_VALUE(move);
    switch (s->phase) {
    case KONTOR_PHASE_CHOOSE: do_choose(s, seat, v, log); break;
    case KONTOR_PHASE_DECLARE: do_declare(s, seat, v, log); break;
    case KONTOR_PHASE_BUY: do_buy(s, seat, v, log); break;
    case KONTOR_PHASE_SHIP: do_ship(s, v, log); break;
    case KONTOR_PHASE_REMOVE: do_remove(s, v, log); break;
    case KONTOR_PHASE_PILE: do_pile(s, v, log); break;
    case KONTOR_PHASE_PLACE: do_place(s, v, KONTOR_MOVE_KIND(move) == KONTOR_MOVE_PLACE_WATER, log); break;
    case KONTOR_PHASE_BRIBE: do_bribe(s, seat, v, log); break;
    case KONTOR_PHASE_SELECT: do_select(s, seat, v, log); break;
    case KONTOR_PHASE_TAVERN: do_tavern(s, v, log); break;
    case KONTOR_PHASE_EXPORT: do_export(s, v, log); break;
    case KONTOR_PHASE_EVENT: do_event(s, v, log); break;
    case KONTOR_PHASE_TILE: do_tile(s, v, log); break;
    default: break;
    }
    if (s->cfg.bankrupt) check_bankrupt(s, log);
}

kontor_status kontor_apply(kontor_state *s, int seat, kontor_move move, kontor_log *log) {
    if (!kontor_is_legal(s, seat, move)) return KONTOR_E_ILLEGAL;
    apply_unchecked(s, seat, move, log);
    return KONTOR_OK;
}

/* Random playouts pick straight from bitboards and hands, without building
 * move lists: this is the loop that kontor bench and search measure. Each
 * decision is uniform over the same legal set kontor_legal lists. */
void kontor_playout(kontor_state *s, kontor_rng *rng) {
    kontor_rng r = *rng; /* a local, kept in registers: the state's byte stores could alias *rng */
    while (s->phase != KONTOR_PHASE_OVER) {
        switch (s->phase) {
        case KONTOR_PHASE_DECLARE:
            for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS && s->phase == KONTOR_PHASE_DECLARE; p++) {
                if (s->choice[p] != KONTOR_NONE) continue;
                int play = s->hand_n[p] > 0, n = play + may_pass(s, p);
                int i = (int)rng_below(&r, (uint32_t)n);
                do_declare(s, p, i < play ? KONTOR_PLAY : KONTOR_PASS, NULL);
            }
            break;
        case KONTOR_PHASE_CHOOSE:
            for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS && s->phase == KONTOR_PHASE_CHOOSE; p++) {
                if (s->choice[p] != KONTOR_NONE) continue;
                int n = s->hand_n[p] + may_pass_in_choice(s, p);
                int i = (int)rng_below(&r, (uint32_t)n);
                do_choose(s, p, i < s->hand_n[p] ? s->hand[p][i] : KONTOR_PASS, NULL);
            }
            break;
        case KONTOR_PHASE_BUY:
            for (int p = 0; p < s->cfg.nseats && p < KONTOR_MAX_SEATS && s->phase == KONTOR_PHASE_BUY; p++)
                if (s->buy[p] == KONTOR_NONE) do_buy(s, p, (int)rng_below(&r, (uint32_t)buy_max(s, p) + 1), NULL);
            break;
        case KONTOR_PHASE_SHIP: {
            bb_t t = ship_targets(s);
            int i = (int)rng_below(&r, (uint32_t)bb_count(t) + 1);
            do_ship(s, i == 0 ? KONTOR_NONE : bb_nth(t, i - 1), NULL);
            break;
        }
        case KONTOR_PHASE_REMOVE: {
            bb_t t = removable(s);
            int i = (int)rng_below(&r, (uint32_t)bb_count(t) + 1);
            do_remove(s, i == 0 ? KONTOR_NONE : bb_nth(t, i - 1), NULL);
            break;
        }
        case KONTOR_PHASE_PILE: {
            int ps[2];
            pile_seats(s, ps);
            do_pile(s, ps[rng_below(&r, 2)], NULL);
            break;
        }
        case KONTOR_PHASE_PLACE: {
            int a = bb_count(s->cells), b = bb_count(s->cells_water);
            int n = a + b + (s->cfg.optional_place ? 1 : 0);
            int i = (int)rng_below(&r, (uint32_t)n);
            if (i < a) do_place(s, bb_nth(s->cells, i), 0, NULL);
            else if (i < a + b) do_place(s, bb_nth(s->cells_water, i - a), 1, NULL);
            else do_place(s, KONTOR_NONE, 0, NULL);
            break;
        }
        default: {
            /* the scenarios' decisions: through the move list (not the hot path) */
            int seat = __builtin_ctz(kontor_actors(s));
            kontor_move m[KONTOR_MAX_MOVES];
            int n = kontor_legal(s, seat, m);
            if (!n) goto out; /* nobody can act: cannot happen in a game that is not over */
            apply_unchecked(s, seat, m[rng_below(&r, (uint32_t)n)], NULL);
            continue; /* apply_unchecked checked bankruptcy */
        }
        }
        if (s->cfg.bankrupt) check_bankrupt(s, NULL);
    }
out:
    *rng = r;
}

/* ---- queries ------------------------------------------------------------------ */

int kontor_area_at(const kontor_state *s, int cell, kontor_bb *cells, uint8_t goods[2][3]) {
    if (cell < 0 || cell >= KONTOR_CELLS || !bb_test(&s->dock, cell)) {
        if (cells) *cells = bb_empty();
        if (goods) memset(goods, 0, 6);
        return 0;
    }
    bb_t a = bb_flood(bb_cell(cell), s->dock);
    if (cells) *cells = a;
    if (goods) area_goods(s, a, goods);
    return bb_count(a);
}

int kontor_parse_cell(const char *t) {
    int v[2];
    for (int k = 0; k < 2; k++) {
        int sign = 1, n = 0, digits = 0;
        if (*t == '+' || *t == '-') sign = *t++ == '-' ? -1 : 1;
        while (*t >= '0' && *t <= '9' && digits < 3) n = n * 10 + (*t++ - '0'), digits++;
        if (!digits) return -1;
        v[k] = sign * n;
        if (k == 0 && *t++ != ',') return -1;
    }
    if (*t) return -1;
    if (v[0] < -7 || v[0] > 8 || v[1] < -7 || v[1] > 8) return -1;
    return kontor_cell(v[0], v[1]);
}

const char *kontor_format_cell(int cell, char *buf) {
    if (cell < 0 || cell >= KONTOR_CELLS) {
        snprintf(buf, 8, "-");
        return buf;
    }
    int dx = kontor_cell_dx(cell), dy = kontor_cell_dy(cell);
    char a[4], b[4];
    snprintf(a, sizeof a, dx > 0 ? "+%d" : "%d", dx);
    snprintf(b, sizeof b, dy > 0 ? "+%d" : "%d", dy);
    snprintf(buf, 8, "%s,%s", a, b);
    return buf;
}

/* ---- explanations ------------------------------------------------------------- */

const char *kontor_seat_name(const kontor_state *s, int seat) {
    static const char *const two[2] = {"red", "black"};
    static const char *const four[4] = {"red 1", "red 2", "black 1", "black 2"};
    if (seat < 0 || seat >= s->cfg.nseats) return "nobody";
    return s->cfg.nseats == 4 ? four[seat] : two[seat];
}

static const char *phase_word(int phase) {
    switch (phase) {
    case KONTOR_PHASE_CHOOSE: return "choose a card";
    case KONTOR_PHASE_DECLARE: return "declare whether to pass";
    case KONTOR_PHASE_SHIP: return "move the ship or not";
    case KONTOR_PHASE_REMOVE: return "remove a card with the ship or not";
    case KONTOR_PHASE_PLACE: return "place a card";
    case KONTOR_PHASE_BUY: return "buy special cards or not";
    case KONTOR_PHASE_PILE: return "say whose pile takes the removed card";
    case KONTOR_PHASE_BRIBE: return "buy out an opposing goods card or not";
    case KONTOR_PHASE_SELECT: return "keep or discard a dock card";
    case KONTOR_PHASE_TAVERN: return "say whether the tavern's area scores";
    case KONTOR_PHASE_EXPORT: return "export a warehouse or not";
    case KONTOR_PHASE_EVENT: return "carry out the event or not";
    case KONTOR_PHASE_TILE: return "carry out the action tile or not";
    default: return "nothing: the game is over";
    }
}

/* The decision kind each phase takes (KONTOR_MOVE_PLACE_WATER too in the place phase). */
static int kind_of_phase(const kontor_state *s, int seat) {
    switch (s->phase) {
    case KONTOR_PHASE_CHOOSE: return KONTOR_MOVE_CHOOSE;
    case KONTOR_PHASE_DECLARE: return KONTOR_MOVE_DECLARE;
    case KONTOR_PHASE_SHIP: return KONTOR_MOVE_SHIP;
    case KONTOR_PHASE_REMOVE: return KONTOR_MOVE_REMOVE;
    case KONTOR_PHASE_PLACE: return KONTOR_MOVE_PLACE;
    case KONTOR_PHASE_BUY: return KONTOR_MOVE_BUY;
    case KONTOR_PHASE_PILE: return KONTOR_MOVE_PILE;
    case KONTOR_PHASE_BRIBE: return KONTOR_MOVE_BRIBE;
    case KONTOR_PHASE_SELECT:
        return seat >= 0 && seat < KONTOR_MAX_SEATS && s->selected[seat] < s->cfg.select_keep ? KONTOR_MOVE_KEEP
                                                                                             : KONTOR_MOVE_DISCARD;
    case KONTOR_PHASE_TAVERN: return KONTOR_MOVE_TAVERN;
    case KONTOR_PHASE_EXPORT: return KONTOR_MOVE_EXPORT;
    case KONTOR_PHASE_EVENT: return KONTOR_MOVE_EVENT;
    case KONTOR_PHASE_TILE: return KONTOR_MOVE_TILE;
    default: return 0;
    }
}

const char *kontor_why_illegal(const kontor_state *s, int seat, kontor_move move, char *buf, size_t cap) {
    const char *who = kontor_seat_name(s, seat);
    int v = KONTOR_MOVE_VALUE(move);
    char cs[8];
    if (kontor_is_legal(s, seat, move)) {
        snprintf(buf, cap, "legal");
        return buf;
    }
    if (s->phase == KONTOR_PHASE_OVER) {
        snprintf(buf, cap, "the game is over");
        return buf;
    }
    if (seat < 0 || seat >= s->cfg.nseats || !((kontor_actors(s) >> seat) & 1)) {
        if (s->phase == KONTOR_PHASE_CHOOSE && seat >= 0 && seat < s->cfg.nseats && s->choice[seat] == KONTOR_PASS &&
            !s->cfg.pass_hidden)
            snprintf(buf, cap, "%s has declared a pass this round: others must %s", who, phase_word(s->phase));
        else if (s->phase == KONTOR_PHASE_CHOOSE || s->phase == KONTOR_PHASE_BUY || s->phase == KONTOR_PHASE_BRIBE ||
            s->phase == KONTOR_PHASE_SELECT || s->phase == KONTOR_PHASE_DECLARE)
            snprintf(buf, cap, "%s has already decided: others must %s", who, phase_word(s->phase));
        else
            snprintf(buf, cap, "it is %s's turn to %s, not %s's", kontor_seat_name(s, kontor_current(s)),
                     phase_word(s->phase), who);
        return buf;
    }
    int want = kind_of_phase(s, seat);
    if (KONTOR_MOVE_KIND(move) != want &&
        !(want == KONTOR_MOVE_PLACE && KONTOR_MOVE_KIND(move) == KONTOR_MOVE_PLACE_WATER)) {
        snprintf(buf, cap, "%s must %s now", who, phase_word(s->phase));
        return buf;
    }
    switch (s->phase) {
    case KONTOR_PHASE_DECLARE:
        if (v == KONTOR_PASS)
            snprintf(buf, cap, "%s", "nobody may pass this round (after a round that all passed, with pass=rest; or by the event)");
        else if (v == KONTOR_PLAY) snprintf(buf, cap, "%s has no card in hand to play", who);
        else snprintf(buf, cap, "a declaration is 'pass' or 'play'");
        return buf;
    case KONTOR_PHASE_CHOOSE:
        if (v == KONTOR_PASS && !s->cfg.pass_hidden)
            snprintf(buf, cap, "%s declared to play this round: a pass is declared before the cards (R1)", who);
        else if (v == KONTOR_PASS)
            snprintf(buf, cap, "%s", "nobody may pass this round (after a round that all passed, with pass=rest; or by the event)");
        else if (v < s->cfg.cards->ncards)
            snprintf(buf, cap, "card %d is not in %s's hand", card_of(s, v)->number, who);
        else snprintf(buf, cap, "there is no such card");
        return buf;
    case KONTOR_PHASE_SHIP:
        if (v == s->ship_cell) snprintf(buf, cap, "the ship is already on %s: it must move to another water card", kontor_format_cell(v, cs));
        else snprintf(buf, cap, "the ship can only move to a water card, and %s is none", kontor_format_cell(v, cs));
        return buf;
    case KONTOR_PHASE_REMOVE: {
        kontor_format_cell(v, cs);
        if (s->cell_card[v] == KONTOR_NONE || !bb_test(&s->dock, v)) snprintf(buf, cap, "there is no dock card on %s", cs);
        else if (!bb_test(&s->shipsym, v)) snprintf(buf, cap, "the dock card on %s shows no ship symbol", cs);
        else if (bb_test(&s->enclosed, v)) snprintf(buf, cap, "the card on %s is in an enclosed area", cs);
        else snprintf(buf, cap, "%s is not next to the ship", cs);
        return buf;
    }
    case KONTOR_PHASE_PLACE: {
        if (v == KONTOR_NONE) {
            snprintf(buf, cap, "%s must place the card (option optional_place is off)", who);
            return buf;
        }
        kontor_format_cell(v, cs);
        bb_t near = bb_neighbours(s->occ), wet = bb_neighbours(s->water);
        if (bb_test(&s->occ, v)) snprintf(buf, cap, "cell %s already holds a card", cs);
        else if (!bb_test(&s->mask, v))
            snprintf(buf, cap, "cell %s is outside the %dx%d board", cs, s->cfg.width, s->cfg.height);
        else if (!bb_test(&near, v)) snprintf(buf, cap, "cell %s does not touch a card (diagonal does not count)", cs);
        else if (is_special(card_of(s, s->choice[seat])))
            snprintf(buf, cap, "special card %d may not go on %s", card_of(s, s->choice[seat])->number, cs);
        else if (is_water(card_of(s, s->choice[seat])) && bb_test(&s->cfg.inner, v))
            snprintf(buf, cap, "cell %s is on the island: no water may go there", cs);
        else if (is_water(card_of(s, s->choice[seat])))
            snprintf(buf, cap, "a water card on %s would split an island in two", cs);
        else if (s->cfg.water_touch && !bb_test(&wet, v))
            snprintf(buf, cap, "cell %s does not touch water: every dock card must", cs);
        else {
            int other = 1 - kontor_team(s, seat);
            bb_t cr = bb_and(bb_neighbours(bb_cell(v)), s->crane[other]);
            char cc[8];
            if (!bb_any(cr)) /* Die grosse Insel (V15) */
                snprintf(buf, cap, "cell %s is next to an enclosed area: it is taboo", cs);
            else
                snprintf(buf, cap, "%s's crane on %s keeps %s clear of %s's dock cards", other == 0 ? "red" : "black",
                         kontor_format_cell(bb_first(cr), cc), cs, who);
        }
        return buf;
    }
    case KONTOR_PHASE_BRIBE: {
        kontor_format_cell(v, cs);
        const kontor_card *k = s->cell_card[v] == KONTOR_NONE ? NULL : card_of(s, s->cell_card[v]);
        if (!k || !bb_test(&s->dock, v)) snprintf(buf, cap, "there is no dock card on %s", cs);
        else if (k->colour == kontor_team(s, seat)) snprintf(buf, cap, "the card on %s is %s's own", cs, who);
        else if (k->kind != KONTOR_KIND_GOODS) snprintf(buf, cap, "the card on %s shows no goods", cs);
        else if (bb_test(&s->enclosed, v)) snprintf(buf, cap, "the card on %s is in an enclosed area", cs);
        else snprintf(buf, cap, "buying out the card on %s costs %d coins and %s has %d", cs, count_goods(k), who, s->coins[seat]);
        return buf;
    }
    case KONTOR_PHASE_SELECT:
        if (v < s->cfg.cards->ncards) snprintf(buf, cap, "card %d is not in %s's pile", card_of(s, v)->number, who);
        else snprintf(buf, cap, "there is no such card");
        return buf;
    case KONTOR_PHASE_EXPORT:
        snprintf(buf, cap, "the card just placed shows no such good");
        return buf;
    case KONTOR_PHASE_EVENT:
        snprintf(buf, cap, "the event does not allow %s", kontor_format_cell(v, cs));
        return buf;
    case KONTOR_PHASE_TILE:
        if (s->tile_cur == 0) snprintf(buf, cap, "the harbour centre cannot move to %s", kontor_format_cell(v, cs));
        else snprintf(buf, cap, "%s holds none of %s's goods cards in an open area, named by its lowest such card",
                      kontor_format_cell(v, cs), who);
        return buf;
    case KONTOR_PHASE_BUY:
        snprintf(buf, cap, "%s may buy at most %d special card%s now (2 coins each, %d left, room in the hand)", who,
                 buy_max(s, seat), buy_max(s, seat) == 1 ? "" : "s", s->special_pile.n);
        return buf;
    default:
        snprintf(buf, cap, "not allowed");
        return buf;
    }
}

/* ---- test hooks (core/internal.h) ---------------------------------------------- */

#include "core/internal.h"

void kontor__clear_board(kontor_state *s) {
    s->occ = s->water = s->dock = s->shipsym = s->enclosed = s->mask = bb_empty();
    for (int t = 0; t < 2; t++) s->team_dock[t] = s->crane[t] = bb_empty();
    memset(s->cell_card, KONTOR_NONE, sizeof s->cell_card);
    s->minx = s->miny = 255;
    s->maxx = s->maxy = 0;
    s->ncards_board = 0;
    s->nareas = 0;
    s->keepers[0] = s->keepers[1] = 0;
}

void kontor__put(kontor_state *s, int cell, int id) { place_raw(s, cell, id); }

void kontor__score_enclosed(kontor_state *s, kontor_log *log) { check_enclosures(s, s->dock, log); }

int kontor__card_id(const kontor_state *s, int number) {
    for (int id = 0; id < s->cfg.cards->ncards; id++)
        if (s->cfg.cards->card[id].number == number) return id;
    return -1;
}

/* ---- decisions in words ------------------------------------------------------- */

static void card_words(const kontor_state *s, int id, char *buf, size_t cap) {
    if (id >= s->cfg.cards->ncards) {
        snprintf(buf, cap, "a card");
        return;
    }
    const kontor_card *k = card_of(s, id);
    static const char *const kinds[] = {"", "crane", "tavern", "water", "centre", "flood", "bridge", "customs house"};
    if (k->kind == KONTOR_KIND_GOODS) {
        static const char goods[3] = {'T', 'W', 'S'};
        char g[8];
        int n = 0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < k->goods[i] && n < 6; j++) g[n++] = goods[i];
        g[n] = 0;
        snprintf(buf, cap, "%d (%s)", k->number, g);
    } else {
        snprintf(buf, cap, "%d (%s)", k->number, kinds[k->kind < 8 ? k->kind : 0]);
    }
}

const char *kontor_move_text(const kontor_state *s, int seat, kontor_move move, char *buf, size_t cap) {
    int v = KONTOR_MOVE_VALUE(move);
    char cs[8], cw[32];
    static const char *const good_name[3] = {"tea", "wine", "spice"};
    (void)seat;
    switch (KONTOR_MOVE_KIND(move)) {
    case KONTOR_MOVE_DECLARE:
        snprintf(buf, cap, v == KONTOR_PASS ? "pass this round (take a coin now, pay no tax)" : "play a card this round");
        break;
    case KONTOR_MOVE_CHOOSE:
        if (v == KONTOR_PASS) snprintf(buf, cap, "pass (take a coin, pay no tax)");
        else card_words(s, v, cw, sizeof cw), snprintf(buf, cap, "play %s", cw);
        break;
    case KONTOR_MOVE_SHIP:
        if (v == KONTOR_NONE) snprintf(buf, cap, "leave the ship where it is");
        else snprintf(buf, cap, "move the ship to %s", kontor_format_cell(v, cs));
        break;
    case KONTOR_MOVE_REMOVE:
        if (v == KONTOR_NONE) snprintf(buf, cap, "remove nothing");
        else card_words(s, s->cell_card[v], cw, sizeof cw),
             snprintf(buf, cap, "remove %s on %s", cw, kontor_format_cell(v, cs));
        break;
    case KONTOR_MOVE_PLACE:
        if (v == KONTOR_NONE) snprintf(buf, cap, "take the card back");
        else snprintf(buf, cap, "place on %s", kontor_format_cell(v, cs));
        break;
    case KONTOR_MOVE_PLACE_WATER:
        snprintf(buf, cap, "place as water on %s", kontor_format_cell(v, cs));
        break;
    case KONTOR_MOVE_BUY:
        if (v > 1) snprintf(buf, cap, "buy %d special cards (%d coins)", v, 2 * v);
        else snprintf(buf, cap, v ? "buy a special card (2 coins)" : "buy nothing");
        break;
    case KONTOR_MOVE_PILE:
        snprintf(buf, cap, "put it under %s's pile", kontor_seat_name(s, v));
        break;
    case KONTOR_MOVE_BRIBE:
        if (v == KONTOR_NONE) snprintf(buf, cap, "buy out nothing");
        else {
            int id = s->cell_card[v];
            card_words(s, id, cw, sizeof cw);
            int cost = id < s->cfg.cards->ncards ? card_of(s, id)->goods[0] + card_of(s, id)->goods[1] + card_of(s, id)->goods[2] : 0;
            snprintf(buf, cap, "buy out %s on %s (%d coin%s)", cw, kontor_format_cell(v, cs), cost, cost == 1 ? "" : "s");
        }
        break;
    case KONTOR_MOVE_KEEP:
        card_words(s, v, cw, sizeof cw);
        snprintf(buf, cap, "keep %s in the hand", cw);
        break;
    case KONTOR_MOVE_DISCARD:
        card_words(s, v, cw, sizeof cw);
        snprintf(buf, cap, "put %s out of the game", cw);
        break;
    case KONTOR_MOVE_TAVERN:
        snprintf(buf, cap, v ? "the tavern's area scores" : "the tavern's area does not score");
        break;
    case KONTOR_MOVE_EXPORT:
        if (v == KONTOR_NONE || v > 2) snprintf(buf, cap, "export nothing");
        else snprintf(buf, cap, "export a %s warehouse", good_name[v]);
        break;
    case KONTOR_MOVE_EVENT:
    case KONTOR_MOVE_TILE:
        if (v == KONTOR_NONE) snprintf(buf, cap, KONTOR_MOVE_KIND(move) == KONTOR_MOVE_EVENT ? "pass on the event" : "forgo the tile");
        else snprintf(buf, cap, "choose %s", kontor_format_cell(v, cs));
        break;
    default:
        snprintf(buf, cap, "?");
        break;
    }
    return buf;
}
