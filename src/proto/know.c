/* know.c: the engine's knowledge of its game, rebuilt from observed events.
 *
 * See proto_int.h for the idea: a full state consistent with what the seat
 * was told, corrected by swaps when a hidden card turns up, decisions
 * replayed with kontor_apply and every consequence checked against what the
 * controller reports. Checking is by text: each event kontor_apply produces is
 * written with kontor_proto_format_event and compared with the reported event
 * brought to the same spelling (canonical), so the one function that writes
 * events defines what both ends mean by them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/proto_int.h"

#define MSG(...) (snprintf(msg, cap, __VA_ARGS__))

int proto_pile_top(const kontor_state *s, int pile) {
    const kontor_pile *p = pile == PROTO_PILE_WATER ? &s->water_pile : &s->dock_pile[pile];
    return p->n ? s->pile_card[p->head] : KONTOR_NONE;
}

static kontor_pile *pile_of(kontor_state *s, int pile) {
    return pile == PROTO_PILE_WATER ? &s->water_pile : &s->dock_pile[pile];
}

static int is_pub(const uint64_t pub[2], int id) {
    return id >= 0 && id < KONTOR_MAX_CARDS && ((pub[id >> 6] >> (id & 63)) & 1);
}
static void set_pub(uint64_t pub[2], int id, int on) {
    if (id < 0 || id >= KONTOR_MAX_CARDS) return;
    if (on) pub[id >> 6] |= 1ULL << (id & 63);
    else pub[id >> 6] &= ~(1ULL << (id & 63));
}

void know_init(know *k) {
    memset(k, 0, sizeof *k);
    memset(k->board_at, KONTOR_NONE, sizeof k->board_at);
    for (int p = 0; p < PROTO_NPILES; p++) k->top[p] = -1;
}

void know_release(know *k) {
    free(k->cardtext);
    kontor_config_release(k->held);
    know_init(k);
}

kontor_proto_err know_newgame(know *k, const char *variant, const char *options, int seat, uint64_t seed,
                              char *msg, size_t cap) {
    know_release(k);
    kontor_error err;
    if (kontor_config_init(&k->cfg, variant, &err) != KONTOR_OK ||
        (options && *options && kontor_config_options(&k->cfg, options, &err) != KONTOR_OK)) {
        MSG("%s", err.msg);
        return KONTOR_PE_BAD_OPTION;
    }
    /* a board whose reachable cells pass the narrow board's window (docs/
     * rules.md R5) is refused now, not at the deal's events: the engine's
     * game holds its config from the deal on (know_deal), this asks once;
     * know_deal interns it again because the card events between (cards_ready)
     * may give it another card set */
    const kontor_config *trial = kontor_config_retain(&k->cfg, &err);
    if (!trial) {
        MSG("%s", err.msg);
        return KONTOR_PE_BAD_OPTION;
    }
    kontor_config_release(trial);
    /* protocol version 1 covers the game for two without special cards; the
     * game for four and the special cards (a buy phase, hidden purchases)
     * need events of their own */
    if (k->cfg.nseats != 2 || k->cfg.specials) {
        MSG("protocol version %d covers the games for two without special cards (basic, advanced), not '%s'",
            KONTOR_PROTO_VERSION, variant);
        return KONTOR_PE_BAD_OPTION;
    }
    /* nor the scenarios' and expansions' own decisions (docs/variants.md):
     * bribes, Justizia's picks, tavern votes, exports, events, tiles */
    const kontor_config *c = &k->cfg;
    if (c->bribe || c->select_keep || c->tavern_vote || c->export_store || c->events || c->tiles) {
        MSG("protocol version %d has no words yet for the decisions of '%s'%s", KONTOR_PROTO_VERSION, variant,
            options && *options ? " with these options" : "");
        return KONTOR_PE_BAD_OPTION;
    }
    if (seat < 0 || seat >= k->cfg.nseats) {
        MSG("seat %d is not a seat of this game", seat);
        return KONTOR_PE_BAD_OPTION;
    }
    k->seat = seat;
    kontor_rng_seed(&k->rng, seed);
    k->have_game = 1;
    return KONTOR_PE_OK;
}

/* ---- words ------------------------------------------------------------------- */

static int parse_int(const char *w, int lo, int hi) {
    if (!*w || strlen(w) > 6) return -1;
    int v = 0;
    for (const char *p = w; *p; p++) {
        if (*p < '0' || *p > '9') return -1;
        v = v * 10 + (*p - '0');
    }
    return v >= lo && v <= hi ? v : -1;
}

static int seat_index(const know *k, const char *w) {
    for (int q = 0; q < k->cfg.nseats; q++)
        if (strcmp(w, kontor_seat_name_of(&k->cfg, q)) == 0) return q;
    return -1;
}

/* card id of a printed number, or -1 */
static int card_id(const kontor_cardset *cs, const char *w) {
    int n = parse_int(w, 0, 255);
    if (n < 0) return -1;
    for (int id = 0; id < cs->ncards; id++)
        if (cs->card[id].number == n) return id;
    return -1;
}

/* a cell, or KONTOR_NONE for "-", or -1 */
static int cell_or_none(const char *w) {
    if (strcmp(w, "-") == 0) return KONTOR_NONE;
    return kontor_parse_cell(w);
}

/* The reported event in the spelling kontor_proto_format_event uses: numbers
 * without leading zeros, cells with signs. */
static void canonical(int argc, const char *const *argv, char *out, size_t cap) {
    size_t n = 0;
    out[0] = 0;
    for (int i = 0; i < argc; i++) {
        char w[32];
        const char *word = argv[i];
        int cell = strchr(word, ',') ? kontor_parse_cell(word) : -1;
        int num = parse_int(word, 0, 999999);
        if (cell >= 0) word = kontor_format_cell(cell, w);
        else if (num >= 0) snprintf(w, sizeof w, "%d", num), word = w;
        int r = snprintf(out + n, cap - n, "%s%s", i ? " " : "", word);
        if (r < 0 || (size_t)r >= cap - n) return;
        n += (size_t)r;
    }
}

/* ---- set-up ------------------------------------------------------------------- */

static kontor_proto_err add_card_line(know *k, const char *line, char *msg, size_t cap) {
    size_t n = strlen(line);
    if (k->cardlen + n + 2 > k->cardcap) {
        size_t nc = k->cardcap ? k->cardcap * 2 : 4096;
        while (nc < k->cardlen + n + 2) nc *= 2;
        if (nc > 1 << 20) {
            MSG("too many card events");
            return KONTOR_PE_BAD_EVENT;
        }
        char *t = realloc(k->cardtext, nc);
        if (!t) {
            MSG("out of memory");
            return KONTOR_PE_ENGINE_FAILURE;
        }
        k->cardtext = t;
        k->cardcap = nc;
    }
    memcpy(k->cardtext + k->cardlen, line, n);
    k->cardlen += n;
    k->cardtext[k->cardlen++] = '\n';
    k->cardtext[k->cardlen] = 0;
    k->ncardlines++;
    return KONTOR_PE_OK;
}

static kontor_proto_err cards_ready(know *k, char *msg, size_t cap) {
    if (k->cards_ready) return KONTOR_PE_OK;
    if (k->ncardlines == 0) {
        /* no card events: the built-in set (kontor_config_init put it there) */
    } else {
        kontor_error err;
        if (kontor_cards_parse(&k->cardset, k->cardtext, k->cardlen, &err) != KONTOR_OK) {
            MSG("the card events do not make a card set: %s", err.msg);
            return KONTOR_PE_BAD_EVENT;
        }
        /* the built-in set told card by card is the built-in set: the same
         * pointer, so that views compare byte for byte with the truth's */
        const kontor_cardset *def = kontor_cards_builtin();
        k->cfg.cards = memcmp(&k->cardset, def, sizeof *def) == 0 ? def : &k->cardset;
    }
    k->cards_ready = 1;
    return KONTOR_PE_OK;
}

static void shuffle(kontor_rng *rng, uint8_t *a, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)kontor_rng_below(rng, (uint32_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

kontor_proto_err know_start(know *k, char *msg, size_t cap) {
    if (!k->have_game) {
        MSG("no newgame yet");
        return KONTOR_PE_NO_GAME;
    }
    if (k->started) return KONTOR_PE_OK;
    kontor_proto_err pe = cards_ready(k, msg, cap);
    if (pe) return pe;
    const kontor_cardset *cs = k->cfg.cards;
    static const int8_t cross[8][2] = {{0, -1}, {0, -2}, {1, 0}, {2, 0}, {0, 1}, {0, 2}, {-1, 0}, {-2, 0}};
    uint8_t used[KONTOR_MAX_CARDS] = {0};
    kontor_deal d;
    memset(&d, 0, sizeof d);
    if (!k->have_hand) {
        MSG("the deal is incomplete: no 'hand' event");
        return KONTOR_PE_NO_GAME;
    }
    for (int p = 0; p < PROTO_NPILES; p++)
        if (k->top[p] < 0 || k->top[p] == KONTOR_NONE) {
            MSG("the deal is incomplete: no 'top %s' event", proto_pile_name(p));
            return KONTOR_PE_NO_GAME;
        }
    /* the board at the deal: the centre and the cross, nothing else */
    for (int c = 0; c < KONTOR_CELLS; c++) {
        int id = k->board_at[c];
        if (id == KONTOR_NONE) continue;
        int ok = c == KONTOR_CENTRE_CELL ? id == cs->centre : 0;
        for (int i = 0; i < 8; i++)
            if (c == kontor_cell(cross[i][0], cross[i][1]))
                ok = kontor_card_class(&cs->card[id]) == KONTOR_CLASS_WATER;
        if (!ok) {
            char b[8];
            MSG("the deal cannot have card %d on %s", cs->card[id].number, kontor_format_cell(c, b));
            return KONTOR_PE_BAD_EVENT;
        }
    }
    for (int i = 0; i < 8; i++) {
        int id = k->board_at[kontor_cell(cross[i][0], cross[i][1])];
        if (id == KONTOR_NONE) {
            char b[8];
            MSG("the deal is incomplete: no card on %s", kontor_format_cell(kontor_cell(cross[i][0], cross[i][1]), b));
            return KONTOR_PE_NO_GAME;
        }
        d.water[i] = (uint8_t)id;
        used[id] = 1;
    }
    /* own hand: 3 dock cards of the seat's colour, 2 water cards */
    uint8_t own_dock[KONTOR_HAND_MAX], own_water[KONTOR_HAND_MAX];
    int nd = 0, nw = 0;
    for (int i = 0; i < k->hand_n; i++) {
        int id = k->hand[i], cl = kontor_card_class(&cs->card[id]);
        if (used[id]) {
            MSG("card %d is dealt twice", cs->card[id].number);
            return KONTOR_PE_BAD_EVENT;
        }
        used[id] = 1;
        if (cl == KONTOR_CLASS_WATER) own_water[nw++] = (uint8_t)id;
        else if (cl == k->seat) own_dock[nd++] = (uint8_t)id;
        else {
            MSG("card %d cannot be in %s's hand", cs->card[id].number, kontor_seat_name_of(&k->cfg, k->seat));
            return KONTOR_PE_BAD_EVENT;
        }
    }
    if (nd != 3 || nw != 2) {
        MSG("a hand at the deal holds 3 dock cards and 2 water cards, not %d and %d", nd, nw);
        return KONTOR_PE_BAD_EVENT;
    }
    for (int p = 0; p < PROTO_NPILES; p++) {
        int id = k->top[p], want = p == PROTO_PILE_WATER ? KONTOR_CLASS_WATER : p;
        if (used[id] || kontor_card_class(&cs->card[id]) != want) {
            MSG("card %d cannot be on top of the %s pile", cs->card[id].number, proto_pile_name(p));
            return KONTOR_PE_BAD_EVENT;
        }
        used[id] = 1;
    }
    /* the unseen cards of each class, shuffled: the guesses */
    uint8_t pool[3][KONTOR_MAX_CARDS];
    int np[3] = {0, 0, 0};
    for (int id = 0; id < cs->ncards; id++) {
        int cl = kontor_card_class(&cs->card[id]);
        if (used[id] || cl > KONTOR_CLASS_WATER) continue;
        pool[cl][np[cl]++] = (uint8_t)id;
    }
    for (int cl = 0; cl < 3; cl++) shuffle(&k->rng, pool[cl], np[cl]);
    int pw = 0;
    d.nwater = 8;
    for (int q = 0; q < 2; q++)
        for (int i = 0; i < 2; i++) {
            if (q == k->seat) d.water[d.nwater++] = own_water[i];
            else if (pw < np[KONTOR_CLASS_WATER]) d.water[d.nwater++] = pool[KONTOR_CLASS_WATER][pw++];
        }
    d.water[d.nwater++] = (uint8_t)k->top[PROTO_PILE_WATER];
    while (pw < np[KONTOR_CLASS_WATER]) d.water[d.nwater++] = pool[KONTOR_CLASS_WATER][pw++];
    for (int q = 0; q < 2; q++) {
        int pd = 0;
        d.ndock[q] = 0;
        for (int i = 0; i < 3; i++) {
            if (q == k->seat) d.dock[q][d.ndock[q]++] = own_dock[i];
            else if (pd < np[q]) d.dock[q][d.ndock[q]++] = pool[q][pd++];
        }
        d.dock[q][d.ndock[q]++] = (uint8_t)k->top[q];
        while (pd < np[q]) d.dock[q][d.ndock[q]++] = pool[q][pd++];
    }
    kontor_error err;
    const kontor_config *held = kontor_config_retain(&k->cfg, &err);
    if (!held || kontor_new_from_deal(&k->s, held, &d, &err) != KONTOR_OK) {
        kontor_config_release(held);
        MSG("the deal does not fit the rules: %s", err.msg);
        return KONTOR_PE_BAD_EVENT;
    }
    k->held = held; /* know_release lets it go */
    k->started = 1;
    return KONTOR_PE_OK;
}

/* ---- corrections: a hidden card turns up ------------------------------------ */

/* The slot in s holding card id where the seat cannot see it (another seat's
 * hand, a pile), or NULL. */
static uint8_t *hidden_slot(kontor_state *s, int me, int id) {
    for (int q = 0; q < s->cfg->nseats; q++) {
        if (q == me) continue;
        for (int i = 0; i < s->hand_n[q]; i++)
            if (s->hand[q][i] == id) return &s->hand[q][i];
    }
    for (int p = 0; p < PROTO_NPILES; p++) {
        kontor_pile *pl = pile_of(s, p);
        for (int i = 0; i < pl->n; i++) {
            uint8_t *c = &s->pile_card[kontor_pile_at(pl, i)];
            if (*c == id) return c;
        }
    }
    return NULL;
}

/* Make s hold card x in seat q's hand (q reveals it). */
static kontor_proto_err swap_into_hand(know *k, int q, int x, char *msg, size_t cap) {
    kontor_state *s = &k->s;
    const kontor_cardset *cs = s->cfg->cards;
    for (int i = 0; i < s->hand_n[q]; i++)
        if (s->hand[q][i] == x) return KONTOR_PE_OK;
    if (q == k->seat) return KONTOR_PE_OK; /* own hand: kontor_is_legal says no */
    uint8_t *slot = is_pub(s->pub, x) ? NULL : hidden_slot(s, k->seat, x);
    int cl = kontor_card_class(&cs->card[x]);
    for (int i = 0; slot && i < s->hand_n[q]; i++) {
        int y = s->hand[q][i];
        if (is_pub(s->pub, y) || kontor_card_class(&cs->card[y]) != cl) continue;
        *slot = (uint8_t)y;
        s->hand[q][i] = (uint8_t)x;
        return KONTOR_PE_OK;
    }
    MSG("card %d cannot be in %s's hand", cs->card[x].number, kontor_seat_name(s, q));
    return KONTOR_PE_BAD_EVENT;
}

/* Make s show card x (or no card) on top of pile p. */
static kontor_proto_err fix_top(know *k, int p, int x, const uint64_t known[2], char *msg, size_t cap) {
    kontor_state *s = &k->s;
    const kontor_cardset *cs = s->cfg->cards;
    kontor_pile *pl = pile_of(s, p);
    int y = pl->n ? s->pile_card[pl->head] : KONTOR_NONE;
    if (x == KONTOR_NONE || y == KONTOR_NONE) {
        if (x == y) return KONTOR_PE_OK;
        MSG("the %s pile is %s", proto_pile_name(p), y == KONTOR_NONE ? "empty" : "not empty");
        return KONTOR_PE_BAD_EVENT;
    }
    if (x == y) {
        set_pub(s->pub, x, 1);
        return KONTOR_PE_OK;
    }
    int want = p == PROTO_PILE_WATER ? KONTOR_CLASS_WATER : p;
    uint8_t *slot = NULL;
    if (!is_pub(known, y) && !is_pub(known, x) && kontor_card_class(&cs->card[x]) == want)
        slot = hidden_slot(s, k->seat, x);
    if (!slot) {
        MSG("card %d cannot be on top of the %s pile", cs->card[x].number, proto_pile_name(p));
        return KONTOR_PE_BAD_EVENT;
    }
    *slot = (uint8_t)y;
    s->pile_card[pl->head] = (uint8_t)x;
    set_pub(s->pub, y, 0);
    set_pub(s->pub, x, 1);
    return KONTOR_PE_OK;
}

/* ---- decisions ------------------------------------------------------------------ */

/* Apply the decisions (seat order for choices) and check that the events they
 * produce begin with the reported ones; queue the rest. */
/* A secret decision told for seat (a declaration, a choice of a card): the
 * event word must be one the phase takes (word_ok; the phase's words in
 * phase), with its arguments (args_ok; else usage), and seat must still owe
 * it, neither told already this round nor decided. */
static kontor_proto_err secret_decision_ok(const know *k, int seat, const char *canon, int word_ok, int args_ok,
                                           const char *phase, const char *usage, const char *decided, char *msg,
                                           size_t cap) {
    if (!word_ok) {
        MSG("'%s': the seats are %s", canon, phase);
        return KONTOR_PE_BAD_EVENT;
    }
    if (!args_ok) {
        MSG("usage: %s", usage);
        return KONTOR_PE_SYNTAX;
    }
    int owes = (kontor_actors(&k->s) >> seat) & 1;
    for (int i = 0; i < k->nchosen; i++) owes &= k->chosen[i].seat != seat;
    if (!owes) {
        MSG("%s has already %s this round", kontor_seat_name_of(&k->cfg, seat), decided);
        return KONTOR_PE_BAD_EVENT;
    }
    return KONTOR_PE_OK;
}

/* Keep seat's secret decision as told (an event of kind with card and a);
 * 1 once every seat that owes one has told it. */
static int tell_secret(know *k, int seat, int kind, int card, int a) {
    kontor_event *e = &k->chosen[k->nchosen++];
    memset(e, 0, sizeof *e);
    e->kind = (uint8_t)kind;
    e->seat = (uint8_t)seat;
    e->card = (uint8_t)card;
    e->a = (uint16_t)a;
    unsigned owe = kontor_actors(&k->s);
    int nowe = 0;
    for (int q = 0; q < k->s.cfg->nseats; q++) nowe += (owe >> q) & 1;
    return k->nchosen >= nowe;
}

/* The secret decisions told (k->chosen) in seat order, their seats in seats;
 * returns how many. */
static int told_in_seat_order(const know *k, int *seats, const kontor_event **told) {
    int n = 0;
    for (int q = 0; q < k->s.cfg->nseats; q++)
        for (int i = 0; i < k->nchosen; i++)
            if (k->chosen[i].seat == q) {
                seats[n] = q;
                told[n++] = &k->chosen[i];
            }
    return n;
}

static kontor_proto_err apply_decisions(know *k, const int *seats, const kontor_move *moves, int n,
                                        char reported[][160], int nrep, char *msg, size_t cap) {
    kontor_state *s = &k->s;
    for (int i = 0; i < n; i++)
        if (!kontor_is_legal(s, seats[i], moves[i])) {
            char why[160];
            MSG("%s", kontor_why_illegal(s, seats[i], moves[i], why, sizeof why));
            return KONTOR_PE_ILLEGAL;
        }
    kontor_state save = *s;
    memcpy(k->pub_before, s->pub, sizeof k->pub_before);
    kontor_log log;
    log.n = 0;
    for (int i = 0; i < n; i++) kontor_apply(s, seats[i], moves[i], &log);
    char text[KONTOR_LOG_MAX][160];
    for (int i = 0; i < log.n; i++)
        if (!kontor_proto_format_event(s, &log.ev[i], text[i], sizeof text[i])) text[i][0] = 0;
    for (int i = 0; i < nrep; i++) {
        if (i >= log.n || strcmp(text[i], reported[i]) != 0) {
            *s = save;
            MSG("'%s' does not follow from the game (expected '%s')", reported[i], i < log.n ? text[i] : "nothing");
            return KONTOR_PE_BAD_EVENT;
        }
    }
    k->qhead = 0;
    k->qn = 0;
    for (int i = nrep; i < log.n && k->qn < KNOW_QUEUE; i++) {
        if (!text[i][0]) continue;
        k->queue[k->qn++] = log.ev[i];
    }
    k->last_log = log;
    k->have_log = 1;
    return KONTOR_PE_OK;
}

kontor_proto_err know_event(know *k, int argc, const char *const *argv, char *msg, size_t cap) {
    if (!k->have_game) {
        MSG("no newgame yet");
        return KONTOR_PE_NO_GAME;
    }
    if (argc < 1) {
        MSG("observe wants an event");
        return KONTOR_PE_SYNTAX;
    }
    const char *ev = argv[0];
    kontor_proto_err pe;

    /* the box and the deal */
    if (strcmp(ev, "card") == 0 || strcmp(ev, "cardset") == 0) {
        if (k->cards_ready) {
            MSG("'%s' events come before every other event", ev);
            return KONTOR_PE_BAD_EVENT;
        }
        if (strcmp(ev, "cardset") == 0) {
            if (argc != 2) {
                MSG("usage: cardset NAME");
                return KONTOR_PE_SYNTAX;
            }
            if (k->ncardlines) {
                MSG("'cardset' comes before the first 'card'");
                return KONTOR_PE_BAD_EVENT;
            }
            char line[96];
            snprintf(line, sizeof line, "name %.40s", argv[1]);
            return add_card_line(k, line, msg, cap);
        }
        if (argc != 6) {
            MSG("usage: card NUMBER COLOUR KIND GOODS SYMBOL");
            return KONTOR_PE_SYNTAX;
        }
        char line[200];
        snprintf(line, sizeof line, "%.8s %.10s %.10s %.10s %.10s", argv[1], argv[2], argv[3], argv[4], argv[5]);
        return add_card_line(k, line, msg, cap);
    }
    if ((pe = cards_ready(k, msg, cap))) return pe;
    const kontor_cardset *cs = k->cfg.cards;

    if (strcmp(ev, "board") == 0 || strcmp(ev, "hand") == 0 || (strcmp(ev, "top") == 0 && !k->started)) {
        if (k->started) {
            MSG("'%s' belongs to the deal, and the game has begun", ev);
            return KONTOR_PE_BAD_EVENT;
        }
        if (strcmp(ev, "board") == 0) {
            int cell = argc == 3 ? kontor_parse_cell(argv[1]) : -1, id = argc == 3 ? card_id(cs, argv[2]) : -1;
            if (cell < 0 || id < 0) {
                MSG("usage: board CELL CARD");
                return KONTOR_PE_SYNTAX;
            }
            k->board_at[cell] = (uint8_t)id;
            return KONTOR_PE_OK;
        }
        if (strcmp(ev, "hand") == 0) {
            if (argc - 1 > KONTOR_HAND_MAX) {
                MSG("a hand holds at most %d cards", KONTOR_HAND_MAX);
                return KONTOR_PE_SYNTAX;
            }
            for (int i = 1; i < argc; i++) {
                int id = card_id(cs, argv[i]);
                if (id < 0) {
                    MSG("'%.20s' is not the number of a card", argv[i]);
                    return KONTOR_PE_SYNTAX;
                }
                k->hand[i - 1] = (uint8_t)id;
            }
            k->hand_n = argc - 1;
            k->have_hand = 1;
            return KONTOR_PE_OK;
        }
        int p = argc == 3 ? proto_pile_index(argv[1]) : -1;
        int id = argc == 3 ? (strcmp(argv[2], "-") == 0 ? KONTOR_NONE : card_id(cs, argv[2])) : -1;
        if (p < 0 || id < 0) {
            MSG("usage: top red|black|water CARD|-");
            return KONTOR_PE_SYNTAX;
        }
        k->top[p] = id;
        return KONTOR_PE_OK;
    }

    /* the game */
    if ((pe = know_start(k, msg, cap))) return pe;
    kontor_state *s = &k->s;
    char canon[160];
    canonical(argc, argv, canon, sizeof canon);

    if (strcmp(ev, "top") == 0) {
        int p = argc == 3 ? proto_pile_index(argv[1]) : -1;
        int id = argc == 3 ? (strcmp(argv[2], "-") == 0 ? KONTOR_NONE : card_id(cs, argv[2])) : -1;
        if (p < 0 || id < 0) {
            MSG("usage: top red|black|water CARD|-");
            return KONTOR_PE_SYNTAX;
        }
        return fix_top(k, p, id, k->have_log ? k->pub_before : s->pub, msg, cap);
    }

    /* a consequence of the last decision */
    if (k->qhead < k->qn) {
        char want[160];
        kontor_proto_format_event(s, &k->queue[k->qhead], want, sizeof want);
        if (strcmp(canon, want) != 0) {
            MSG("'%s' does not follow from the game (expected '%s')", canon, want);
            return KONTOR_PE_BAD_EVENT;
        }
        k->qhead++;
        return KONTOR_PE_OK;
    }
    if (kontor_over(s)) {
        MSG("the game is over");
        return KONTOR_PE_BAD_EVENT;
    }

    /* a decision */
    int seat = argc >= 2 ? seat_index(k, argv[1]) : -1;
    static const char *const decisions[] = {"pass", "reveal", "ship", "remove", "place", "takeback", "play"};
    int which = proto_word_index(ev, decisions, 7);
    static const char *const derived[] = {"round", "tax", "sitout", "score", "draw", "coin", "end"};
    if (which < 0) {
        if (proto_word_index(ev, derived, 7) >= 0) {
            MSG("'%s' does not follow from the game (nothing is pending)", canon);
            return KONTOR_PE_BAD_EVENT;
        }
        MSG("unknown event '%.40s'", ev);
        return KONTOR_PE_SYNTAX;
    }
    if (seat < 0) {
        MSG("'%s': the second word must be a seat (red or black)", canon);
        return KONTOR_PE_SYNTAX;
    }
    char rep[KONTOR_MAX_SEATS][160];
    /* the secret decisions of a round, once all are told, in seat order */
    int seats[KONTOR_MAX_SEATS];
    const kontor_event *told[KONTOR_MAX_SEATS];
    kontor_move moves[KONTOR_MAX_SEATS];
    if (s->phase == KONTOR_PHASE_DECLARE) {
        /* R1: the declarations, told together once all are made, each a pass
         * (with its coin) or a play, in seat order */
        int ok = (which == 0 && argc == 3 && parse_int(argv[2], 0, 1) >= 0) || (which == 6 && argc == 2);
        if ((pe = secret_decision_ok(k, seat, canon, which == 0 || which == 6, ok, "declaring (pass or play)",
                                     which == 0 ? "pass SEAT COIN" : "play SEAT", "declared", msg, cap)))
            return pe;
        kontor_move dm = KONTOR_MOVE(KONTOR_MOVE_DECLARE, which == 0 ? KONTOR_PASS : KONTOR_PLAY);
        if (!kontor_is_legal(s, seat, dm)) {
            char why[160];
            MSG("%s", kontor_why_illegal(s, seat, dm, why, sizeof why));
            return KONTOR_PE_ILLEGAL;
        }
        if (!tell_secret(k, seat, which == 0 ? KONTOR_EV_PASS : KONTOR_EV_PLAY, KONTOR_NONE,
                         which == 0 ? parse_int(argv[2], 0, 1) : 0))
            return KONTOR_PE_OK;
        int n = told_in_seat_order(k, seats, told);
        for (int i = 0; i < n; i++) {
            moves[i] = KONTOR_MOVE(KONTOR_MOVE_DECLARE, told[i]->kind == KONTOR_EV_PASS ? KONTOR_PASS : KONTOR_PLAY);
            kontor_proto_format_event(s, told[i], rep[i], sizeof rep[i]);
        }
        k->nchosen = 0;
        return apply_decisions(k, seats, moves, n, rep, n, msg, cap);
    }
    if (which == 6) {
        MSG("'%s': nobody is declaring now", canon);
        return KONTOR_PE_BAD_EVENT;
    }
    if (s->phase == KONTOR_PHASE_CHOOSE && which == 0 && !s->cfg->pass_hidden) {
        MSG("'%s': the passes were declared before the cards (R1)", canon);
        return KONTOR_PE_BAD_EVENT;
    }
    if (s->phase == KONTOR_PHASE_CHOOSE) {
        int ok = (which == 0 && argc == 3 && parse_int(argv[2], 0, 1) >= 0) ||
                 (which == 1 && argc == 3 && card_id(cs, argv[2]) >= 0);
        if ((pe = secret_decision_ok(k, seat, canon, which <= 1, ok, "choosing cards (pass or reveal)",
                                     which == 0 ? "pass SEAT COIN" : "reveal SEAT CARD", "chosen", msg, cap)))
            return pe;
        /* a reveal must be possible now: the seat's own card in its hand;
         * another seat's card one the seat could hold unseen */
        if (which == 1) {
            int x = card_id(cs, argv[2]);
            int cl = kontor_card_class(&cs->card[x]);
            int ok_card = 0;
            if (seat == k->seat) {
                ok_card = kontor_is_legal(s, seat, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, x));
            } else {
                for (int i = 0; i < s->hand_n[seat]; i++) ok_card |= s->hand[seat][i] == x;
                if (!ok_card)
                    ok_card = !is_pub(s->pub, x) && hidden_slot(s, k->seat, x) &&
                              (cl == KONTOR_CLASS_WATER || cl == kontor_team(s, seat));
            }
            if (!ok_card) {
                MSG("card %d is not in %s's hand", cs->card[x].number, kontor_seat_name(s, seat));
                return KONTOR_PE_ILLEGAL;
            }
        } else if (seat == k->seat && !kontor_is_legal(s, seat, KONTOR_MOVE(KONTOR_MOVE_CHOOSE, KONTOR_PASS))) {
            MSG("nobody may pass in the round after both passed");
            return KONTOR_PE_ILLEGAL;
        }
        if (!tell_secret(k, seat, which == 0 ? KONTOR_EV_PASS : KONTOR_EV_REVEAL,
                         which == 0 ? KONTOR_NONE : card_id(cs, argv[2]), which == 0 ? parse_int(argv[2], 0, 1) : 0))
            return KONTOR_PE_OK;
        /* every seat's choice is known: apply them in seat order */
        int n = told_in_seat_order(k, seats, told);
        for (int i = 0; i < n; i++) {
            if (told[i]->kind == KONTOR_EV_REVEAL && (pe = swap_into_hand(k, seats[i], told[i]->card, msg, cap))) {
                k->nchosen = 0;
                return pe;
            }
            moves[i] = KONTOR_MOVE(KONTOR_MOVE_CHOOSE, told[i]->kind == KONTOR_EV_PASS ? KONTOR_PASS : told[i]->card);
        }
        for (int i = 0; i < k->nchosen; i++) kontor_proto_format_event(s, &k->chosen[i], rep[i], sizeof rep[i]);
        int nrep = k->nchosen;
        k->nchosen = 0;
        return apply_decisions(k, seats, moves, n, rep, nrep, msg, cap);
    }
    if (k->nchosen) {
        MSG("choices are pending");
        return KONTOR_PE_BAD_EVENT;
    }
    int cur = kontor_current(s);
    static const int phase_of[] = {-1, -1, KONTOR_PHASE_SHIP, KONTOR_PHASE_REMOVE, KONTOR_PHASE_PLACE, KONTOR_PHASE_PLACE};
    if (which <= 1 || s->phase != phase_of[which] || seat != cur) {
        MSG("'%s' is not the decision the game waits for", canon);
        return KONTOR_PE_BAD_EVENT;
    }
    kontor_move m;
    int nrep = 1;
    snprintf(rep[0], sizeof rep[0], "%s", canon);
    if (which == 2 || which == 3) {
        int cell = argc == 3 ? cell_or_none(argv[2]) : -1;
        if (cell < 0) {
            MSG("usage: %s SEAT CELL|-", ev);
            return KONTOR_PE_SYNTAX;
        }
        m = KONTOR_MOVE(which == 2 ? KONTOR_MOVE_SHIP : KONTOR_MOVE_REMOVE, cell);
        if (cell == KONTOR_NONE) nrep = 0; /* "ship red -" is not in the log */
    } else if (which == 4) {
        int id = argc == 4 ? card_id(cs, argv[2]) : -1, cell = argc == 4 ? kontor_parse_cell(argv[3]) : -1;
        if (id < 0 || cell < 0) {
            MSG("usage: place SEAT CARD CELL");
            return KONTOR_PE_SYNTAX;
        }
        if (id != s->choice[seat]) {
            MSG("%s places card %d, not card %s", kontor_seat_name(s, seat), cs->card[s->choice[seat]].number, argv[2]);
            return KONTOR_PE_BAD_EVENT;
        }
        m = KONTOR_MOVE(KONTOR_MOVE_PLACE, cell);
    } else {
        if (argc != 4 || card_id(cs, argv[2]) < 0 || proto_takeback_index(argv[3]) < 0) {
            MSG("usage: takeback SEAT CARD tax|nocell|declined");
            return KONTOR_PE_SYNTAX;
        }
        if (proto_takeback_index(argv[3]) != KONTOR_TAKEBACK_DECLINED) {
            MSG("'%s' does not follow from the game (nothing is pending)", canon);
            return KONTOR_PE_BAD_EVENT;
        }
        m = KONTOR_MOVE(KONTOR_MOVE_PLACE, KONTOR_NONE);
    }
    seats[0] = seat;
    return apply_decisions(k, seats, &m, 1, rep, nrep, msg, cap);
}
