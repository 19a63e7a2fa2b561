/* explain.c: the engine's words for people: seat and card names, why a
 * decision is illegal, a decision in words; and the test hooks of
 * core/internal.h.
 *
 * Not on the hot path: these read the state and write text, nothing else.
 *
 * The words of kontor_why_illegal and kontor_move_text are English, W("...")
 * each: a program that shows them to people in another language sets a
 * translator once (kontor_set_words; kontor play sets gettext, and
 * xgettext collects W and WN from this file into po/kontor.pot). Seat names
 * (kontor_seat_name) stay English for records and the engine protocol. */
#include <stdio.h>
#include <string.h>

#include "core/rules.h"
#include "core/internal.h"

static const char *(*words)(const char *english);

void kontor_set_words(const char *(*tr)(const char *english)) { words = tr; }

/* A word for people, translated when a translator is set. */
__attribute__((format_arg(1))) static const char *W(const char *english) { return words ? words(english) : english; }
#define WN(s) (s) /* marks a word in a table, translated where it is used */

/* ---- explanations ------------------------------------------------------------- */

const char *kontor_seat_name_of(const kontor_config *cfg, int seat) {
    static const char *const two[2] = {"red", "black"};
    static const char *const four[4] = {"red 1", "red 2", "black 1", "black 2"};
    if (!cfg || seat < 0 || seat >= cfg->nseats || seat >= 4) return "nobody";
    return cfg->nseats == 4 ? four[seat] : two[seat];
}

const char *kontor_seat_name(const kontor_state *s, int seat) { return kontor_seat_name_of(s->cfg, seat); }

static const char *phase_word(int phase) {
    switch (phase) {
    case KONTOR_PHASE_CHOOSE: return W("choose a card");
    case KONTOR_PHASE_DECLARE: return W("declare whether to pass");
    case KONTOR_PHASE_SHIP: return W("move the ship or not");
    case KONTOR_PHASE_REMOVE: return W("remove a card with the ship or not");
    case KONTOR_PHASE_PLACE: return W("place a card");
    case KONTOR_PHASE_BUY: return W("buy special cards or not");
    case KONTOR_PHASE_PILE: return W("say whose pile takes the removed card");
    case KONTOR_PHASE_BRIBE: return W("buy out an opposing goods card or not");
    case KONTOR_PHASE_SELECT: return W("keep or discard a dock card");
    case KONTOR_PHASE_TAVERN: return W("say whether the tavern's area scores");
    case KONTOR_PHASE_EXPORT: return W("export a warehouse or not");
    case KONTOR_PHASE_EVENT: return W("carry out the event or not");
    case KONTOR_PHASE_TILE: return W("carry out the action tile or not");
    default: return W("nothing: the game is over");
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
        return seat >= 0 && seat < KONTOR_MAX_SEATS && s->selected[seat] < s->cfg->select_keep ? KONTOR_MOVE_KEEP
                                                                                             : KONTOR_MOVE_DISCARD;
    case KONTOR_PHASE_TAVERN: return KONTOR_MOVE_TAVERN;
    case KONTOR_PHASE_EXPORT: return KONTOR_MOVE_EXPORT;
    case KONTOR_PHASE_EVENT: return KONTOR_MOVE_EVENT;
    case KONTOR_PHASE_TILE: return KONTOR_MOVE_TILE;
    default: return 0;
    }
}

const char *kontor_why_illegal(const kontor_state *s, int seat, kontor_move move, char *buf, size_t cap) {
    const char *who = W(kontor_seat_name(s, seat));
    int v = KONTOR_MOVE_VALUE(move);
    char cs[8];
    if (kontor_is_legal(s, seat, move)) {
        snprintf(buf, cap, W("legal"));
        return buf;
    }
    if (s->phase == KONTOR_PHASE_OVER) {
        snprintf(buf, cap, W("the game is over"));
        return buf;
    }
    if (seat < 0 || seat >= s->cfg->nseats || !((kontor_actors(s) >> seat) & 1)) {
        if (s->phase == KONTOR_PHASE_CHOOSE && seat >= 0 && seat < s->cfg->nseats && s->choice[seat] == KONTOR_PASS &&
            !s->cfg->pass_hidden)
            snprintf(buf, cap, W("%s has declared a pass this round: others must %s"), who, phase_word(s->phase));
        else if (s->phase == KONTOR_PHASE_CHOOSE || s->phase == KONTOR_PHASE_BUY || s->phase == KONTOR_PHASE_BRIBE ||
            s->phase == KONTOR_PHASE_SELECT || s->phase == KONTOR_PHASE_DECLARE)
            snprintf(buf, cap, W("%s has already decided: others must %s"), who, phase_word(s->phase));
        else
            snprintf(buf, cap, W("it is %s's turn to %s, not %s's"), W(kontor_seat_name(s, kontor_current(s))),
                     phase_word(s->phase), who);
        return buf;
    }
    int want = kind_of_phase(s, seat);
    if (KONTOR_MOVE_KIND(move) != want &&
        !(want == KONTOR_MOVE_PLACE && KONTOR_MOVE_KIND(move) == KONTOR_MOVE_PLACE_WATER)) {
        snprintf(buf, cap, W("%s must %s now"), who, phase_word(s->phase));
        return buf;
    }
    switch (s->phase) {
    case KONTOR_PHASE_DECLARE:
        if (v == KONTOR_PASS)
            snprintf(buf, cap, "%s", W("nobody may pass this round (after a round that all passed, with pass=rest; or by the event)"));
        else if (v == KONTOR_PLAY) snprintf(buf, cap, W("%s has no card in hand to play"), who);
        else snprintf(buf, cap, W("a declaration is 'pass' or 'play'"));
        return buf;
    case KONTOR_PHASE_CHOOSE:
        if (v == KONTOR_PASS && !s->cfg->pass_hidden)
            snprintf(buf, cap, W("%s declared to play this round: a pass is declared before the cards (R1)"), who);
        else if (v == KONTOR_PASS)
            snprintf(buf, cap, "%s", W("nobody may pass this round (after a round that all passed, with pass=rest; or by the event)"));
        else if (v < s->cfg->cards->ncards)
            snprintf(buf, cap, W("card %d is not in %s's hand"), card_of(s, v)->number, who);
        else snprintf(buf, cap, W("there is no such card"));
        return buf;
    case KONTOR_PHASE_SHIP:
        if (v == s->ship_cell) snprintf(buf, cap, W("the ship is already on %s: it must move to another water card"), kontor_format_cell(v, cs));
        else snprintf(buf, cap, W("the ship can only move to a water card, and %s is none"), kontor_format_cell(v, cs));
        return buf;
    case KONTOR_PHASE_REMOVE: {
        kontor_format_cell(v, cs);
        if (s->cell_card[v] == KONTOR_NONE || !bb_test(&s->dock, v)) snprintf(buf, cap, W("there is no dock card on %s"), cs);
        else if (!bb_test(&s->shipsym, v)) snprintf(buf, cap, W("the dock card on %s shows no ship symbol"), cs);
        else if (bb_test(&s->enclosed, v)) snprintf(buf, cap, W("the card on %s is in an enclosed area"), cs);
        else snprintf(buf, cap, W("%s is not next to the ship"), cs);
        return buf;
    }
    case KONTOR_PHASE_PLACE: {
        if (v == KONTOR_NONE) {
            snprintf(buf, cap, W("%s must place the card (option optional_place is off)"), who);
            return buf;
        }
        kontor_format_cell(v, cs);
        bb_t near = bb_neighbours(s->occ), wet = bb_neighbours(s->water);
        if (bb_test(&s->occ, v)) snprintf(buf, cap, W("cell %s already holds a card"), cs);
        else if (!bb_test(&s->mask, v))
            snprintf(buf, cap, W("cell %s is outside the %dx%d board"), cs, s->cfg->width, s->cfg->height);
        else if (!bb_test(&near, v)) snprintf(buf, cap, W("cell %s does not touch a card (diagonal does not count)"), cs);
        else if (is_special(card_of(s, s->choice[seat])))
            snprintf(buf, cap, W("special card %d may not go on %s"), card_of(s, s->choice[seat])->number, cs);
        else if (is_water(card_of(s, s->choice[seat])) && bb_test(&s->cfg->inner, v))
            snprintf(buf, cap, W("cell %s is on the island: no water may go there"), cs);
        else if (is_water(card_of(s, s->choice[seat])))
            snprintf(buf, cap, W("a water card on %s would split an island in two"), cs);
        else if (s->cfg->water_touch && !bb_test(&wet, v))
            snprintf(buf, cap, W("cell %s does not touch water: every dock card must"), cs);
        else {
            int other = 1 - kontor_team(s, seat);
            bb_t cr = bb_and(bb_neighbours(bb_cell(v)), s->crane[other]);
            char cc[8];
            if (!bb_any(cr)) /* Die grosse Insel (V15) */
                snprintf(buf, cap, W("cell %s is next to an enclosed area: it is taboo"), cs);
            else
                snprintf(buf, cap, W("%s's crane on %s keeps %s clear of %s's dock cards"), other == 0 ? W("red") : W("black"),
                         kontor_format_cell(bb_first(cr), cc), cs, who);
        }
        return buf;
    }
    case KONTOR_PHASE_BRIBE: {
        kontor_format_cell(v, cs);
        const kontor_card *k = s->cell_card[v] == KONTOR_NONE ? NULL : card_of(s, s->cell_card[v]);
        if (!k || !bb_test(&s->dock, v)) snprintf(buf, cap, W("there is no dock card on %s"), cs);
        else if (k->colour == kontor_team(s, seat)) snprintf(buf, cap, W("the card on %s is %s's own"), cs, who);
        else if (k->kind != KONTOR_KIND_GOODS) snprintf(buf, cap, W("the card on %s shows no goods"), cs);
        else if (bb_test(&s->enclosed, v)) snprintf(buf, cap, W("the card on %s is in an enclosed area"), cs);
        else snprintf(buf, cap, W("buying out the card on %s costs %d coins and %s has %d"), cs, count_goods(k), who, s->coins[seat]);
        return buf;
    }
    case KONTOR_PHASE_SELECT:
        if (v < s->cfg->cards->ncards) snprintf(buf, cap, W("card %d is not in %s's pile"), card_of(s, v)->number, who);
        else snprintf(buf, cap, W("there is no such card"));
        return buf;
    case KONTOR_PHASE_EXPORT:
        snprintf(buf, cap, W("the card just placed shows no such good"));
        return buf;
    case KONTOR_PHASE_EVENT:
        snprintf(buf, cap, W("the event does not allow %s"), kontor_format_cell(v, cs));
        return buf;
    case KONTOR_PHASE_TILE:
        if (s->tile_cur == 0) snprintf(buf, cap, W("the harbour centre cannot move to %s"), kontor_format_cell(v, cs));
        else snprintf(buf, cap, W("%s holds none of %s's goods cards in an open area, named by its lowest such card"),
                      kontor_format_cell(v, cs), who);
        return buf;
    case KONTOR_PHASE_BUY:
        snprintf(buf, cap,
                 buy_max(s, seat) == 1 ? W("%s may buy at most %d special card now (2 coins each, %d left, room in the hand)")
                                       : W("%s may buy at most %d special cards now (2 coins each, %d left, room in the hand)"),
                 who, buy_max(s, seat), s->special_pile.n);
        return buf;
    default:
        snprintf(buf, cap, W("not allowed"));
        return buf;
    }
}

/* ---- test hooks (core/internal.h) ---------------------------------------------- */

#include "core/internal.h"

void kontor__clear_board(kontor_state *s) {
    s->occ = s->water = s->dock = s->shipsym = s->enclosed = s->mask = bb_empty();
    for (int t = 0; t < 2; t++) s->team_dock[t] = s->crane[t] = s->crane_near[t] = bb_empty();
    s->front = bb_empty();
    memset(s->cell_card, KONTOR_NONE, sizeof s->cell_card);
    s->export_bits = 0;
    s->minx = s->miny = 255;
    s->maxx = s->maxy = 0;
    s->ncards_board = 0;
    s->nareas = 0;
    s->keepers[0] = s->keepers[1] = 0;
}

void kontor__put(kontor_state *s, int cell, int id) { place_raw(s, cell, id); }

void kontor__score_enclosed(kontor_state *s, kontor_log *log) { check_enclosures(s, s->dock, log); }

void kontor__score_area_plain(kontor_state *s, kontor_bb cells) { score_area(s, cells, NULL); }

int kontor__card_id(const kontor_state *s, int number) {
    for (int id = 0; id < s->cfg->cards->ncards; id++)
        if (s->cfg->cards->card[id].number == number) return id;
    return -1;
}

/* ---- decisions in words ------------------------------------------------------- */

static void card_words(const kontor_state *s, int id, char *buf, size_t cap) {
    if (id >= s->cfg->cards->ncards) {
        snprintf(buf, cap, W("a card"));
        return;
    }
    const kontor_card *k = card_of(s, id);
    static const char *const kinds[] = {"", WN("crane"), WN("tavern"), WN("water"), WN("centre"), WN("flood"), WN("bridge"),
                                        WN("customs house")};
    if (k->kind == KONTOR_KIND_GOODS) {
        /* TRANSLATORS: one letter each for tea, wine, spice; keep three ASCII letters */
        const char *goods = W("TWS");
        if (strlen(goods) != 3) goods = "TWS";
        char g[8];
        int n = 0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < k->goods[i] && n < 6; j++) g[n++] = goods[i];
        g[n] = 0;
        snprintf(buf, cap, "%d (%s)", k->number, g);
    } else {
        snprintf(buf, cap, "%d (%s)", k->number, k->kind < 8 && k->kind ? W(kinds[k->kind]) : "");
    }
}

const char *kontor_move_text(const kontor_state *s, int seat, kontor_move move, char *buf, size_t cap) {
    int v = KONTOR_MOVE_VALUE(move);
    char cs[8], cw[32];
    static const char *const good_name[3] = {WN("tea"), WN("wine"), WN("spice")};
    (void)seat;
    switch (KONTOR_MOVE_KIND(move)) {
    case KONTOR_MOVE_DECLARE:
        snprintf(buf, cap, v == KONTOR_PASS ? W("pass this round (take a coin now, pay no tax)") : W("play a card this round"));
        break;
    case KONTOR_MOVE_CHOOSE:
        if (v == KONTOR_PASS) snprintf(buf, cap, W("pass (take a coin, pay no tax)"));
        else card_words(s, v, cw, sizeof cw), snprintf(buf, cap, W("play %s"), cw);
        break;
    case KONTOR_MOVE_SHIP:
        if (v == KONTOR_NONE) snprintf(buf, cap, W("leave the ship where it is"));
        else snprintf(buf, cap, W("move the ship to %s"), kontor_format_cell(v, cs));
        break;
    case KONTOR_MOVE_REMOVE:
        if (v == KONTOR_NONE) snprintf(buf, cap, W("remove nothing"));
        else card_words(s, s->cell_card[v], cw, sizeof cw),
             snprintf(buf, cap, W("remove %s on %s"), cw, kontor_format_cell(v, cs));
        break;
    case KONTOR_MOVE_PLACE:
        if (v == KONTOR_NONE) snprintf(buf, cap, W("take the card back"));
        else snprintf(buf, cap, W("place on %s"), kontor_format_cell(v, cs));
        break;
    case KONTOR_MOVE_PLACE_WATER:
        snprintf(buf, cap, W("place as water on %s"), kontor_format_cell(v, cs));
        break;
    case KONTOR_MOVE_BUY:
        if (v > 1) snprintf(buf, cap, W("buy %d special cards (%d coins)"), v, 2 * v);
        else snprintf(buf, cap, v ? W("buy a special card (2 coins)") : W("buy nothing"));
        break;
    case KONTOR_MOVE_PILE:
        snprintf(buf, cap, W("put it under %s's pile"), W(kontor_seat_name(s, v)));
        break;
    case KONTOR_MOVE_BRIBE:
        if (v == KONTOR_NONE) snprintf(buf, cap, W("buy out nothing"));
        else {
            int id = s->cell_card[v];
            card_words(s, id, cw, sizeof cw);
            int cost = id < s->cfg->cards->ncards ? card_of(s, id)->goods[0] + card_of(s, id)->goods[1] + card_of(s, id)->goods[2] : 0;
            snprintf(buf, cap, cost == 1 ? W("buy out %s on %s (%d coin)") : W("buy out %s on %s (%d coins)"), cw,
                     kontor_format_cell(v, cs), cost);
        }
        break;
    case KONTOR_MOVE_KEEP:
        card_words(s, v, cw, sizeof cw);
        snprintf(buf, cap, W("keep %s in the hand"), cw);
        break;
    case KONTOR_MOVE_DISCARD:
        card_words(s, v, cw, sizeof cw);
        snprintf(buf, cap, W("put %s out of the game"), cw);
        break;
    case KONTOR_MOVE_TAVERN:
        snprintf(buf, cap, v ? W("the tavern's area scores") : W("the tavern's area does not score"));
        break;
    case KONTOR_MOVE_EXPORT:
        if (v == KONTOR_NONE || v > 2) snprintf(buf, cap, W("export nothing"));
        else snprintf(buf, cap, W("export a %s warehouse"), W(good_name[v]));
        break;
    case KONTOR_MOVE_EVENT:
    case KONTOR_MOVE_TILE:
        if (v == KONTOR_NONE) snprintf(buf, cap, KONTOR_MOVE_KIND(move) == KONTOR_MOVE_EVENT ? W("pass on the event") : W("forgo the tile"));
        else snprintf(buf, cap, W("choose %s"), kontor_format_cell(v, cs));
        break;
    default:
        snprintf(buf, cap, "?");
        break;
    }
    return buf;
}
