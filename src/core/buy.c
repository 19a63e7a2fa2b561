/* buy.c: the phases a round can open with before the choice, which only
 * scenarios have: Bakschisch's bribe (which opposing goods cards a seat may
 * buy out) and the special cards' buy of the scenario for two (R20: how many
 * a seat may buy, and who buys first when the pile runs short). Split from
 * round.c (issue 17: no file of the core over ~800 lines); the bribe itself,
 * once decided, is carried out in variants.c. */
#include "core/rules.h"

/* Bakschisch: the opposing goods cards seat may buy out now: not in an
 * enclosed area, and costing (1 coin a good) no more than it has. */
bb_t bribe_targets(const kontor_state *s, int seat) {
    bb_t t = bb_andnot(s->team_dock[1 - kontor_team(s, seat)], s->enclosed), r = bb_empty();
    while (bb_any(t)) {
        int c = bb_pop(&t);
        const kontor_card *k = card_of(s, s->cell_card[c]);
        if (k->kind == KONTOR_KIND_GOODS && count_goods(k) <= s->coins[seat]) bb_set(&r, c);
    }
    return r;
}

/* Bakschisch: the bribe phase opens when some seat can bribe (1), with the
 * seats that cannot passed; else nobody bribes this round (0). Out of line:
 * only the scenario has it, and begin_bribe opens every round of a game whose
 * rounds open with more than the choice (KONTOR__HOOK_ROUND: events, bribes,
 * special cards to buy; until session fifteen also every round of
 * declare=hidden, now opened by KONTOR__HOOK_HIDDEN without this call), where
 * its registers saved for this loop were half its cost (an iteration of the
 * basic game's search 22,460 -> 22,337; a record's replay 40,617 -> 40,496). */
__attribute__((noinline, cold)) static int open_bribe(kontor_state *s) {
    int any = 0;
    for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++) {
        int can = bb_any(bribe_targets(s, p));
        s->bribe[p] = can ? KONTOR_NONE : KONTOR_PASS;
        any |= can;
    }
    if (any) {
        s->phase = KONTOR_PHASE_BRIBE;
        return 1;
    }
    for (int p = 0; p < KONTOR_MAX_SEATS; p++) s->bribe[p] = KONTOR_NONE;
    return 0;
}

void begin_bribe(kontor_state *s) {
    s->phase = KONTOR_PHASE_CHOOSE;
    if (s->cfg->bribe && open_bribe(s)) return;
    begin_buy(s);
}

/* R20: how many special cards seat may buy now: "darf man Sonderkarten
 * kaufen. Jede Karte kostet 2 Münzen" -- as many as its coins pay for, the
 * pile holds and its hand has room for. */
int buy_max(const kontor_state *s, int seat) {
    int n = s->coins[seat] / 2;
    if (n > s->special_pile.n) n = s->special_pile.n;
    if (n > KONTOR_HAND_MAX - s->hand_n[seat]) n = KONTOR_HAND_MAX - s->hand_n[seat];
    return n;
}

/* The choice opens with the declarations (R1: "gleich zu Anfang einer
 * Aktionsrunde, noch bevor Karten gespielt werden"), unless a pass is one of
 * the hidden choices (option declare=hidden). */
static void open_choice(kontor_state *s) {
    s->phase = s->cfg->pass_hidden ? KONTOR_PHASE_CHOOSE : KONTOR_PHASE_DECLARE;
}

void begin_buy(kontor_state *s) {
    open_choice(s);
    if (s->cfg->specials != 2 || !s->special_pile.n) return;
    int any = 0;
    for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++) {
        /* R20: 2 coins a card, with room in the hand */
        int can = buy_max(s, p) > 0;
        s->buy[p] = can ? KONTOR_NONE : 0;
        any |= can;
    }
    if (any) s->phase = KONTOR_PHASE_BUY;
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
    int ns = s->cfg->nseats, want = 0;
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
            int id = pile_draw(s, &s->special_pile);
            s->coins[p] = (uint8_t)(s->coins[p] - 2);
            s->treasury = (uint8_t)(s->treasury + 2);
            hand_add(s, p, id);
            log_ev(log, KONTOR_EV_BUY, p, id, KONTOR_NONE, 2);
        }
    }
    for (int p = 0; p < KONTOR_MAX_SEATS; p++) s->buy[p] = KONTOR_NONE;
    open_choice(s);
}

void do_buy(kontor_state *s, int seat, int value, kontor_log *log) {
    s->buy[seat] = (uint8_t)value;
    for (int p = 0; p < s->cfg->nseats && p < KONTOR_MAX_SEATS; p++)
        if (s->buy[p] == KONTOR_NONE) return;
    resolve_buys(s, log);
}
