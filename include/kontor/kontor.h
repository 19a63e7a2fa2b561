/* kontor.h: the public interface of libkontor, the rules engine of Kontor.
 *
 * The whole game is one plain value, kontor_state: no pointers, no heap, so
 * copying it with memcpy copies the game (search copies it millions of times).
 * All randomness is at set-up and comes from a seed the caller passes in; after
 * the deal the game is deterministic. The engine does no I/O and never reads
 * the clock. Errors are values (kontor_status) with the detail in a
 * caller-owned kontor_error.
 *
 * Coordinates: the board lives on a 16x16 grid, cell = y*16 + x, with the
 * harbour centre at grid (7,7). Records and people use coordinates relative to
 * the centre: x grows to the east, y grows to the south (screen order).
 *
 * A game is a sequence of decisions. kontor_actors() says which seats owe one
 * now; kontor_legal() lists a seat's legal decisions; kontor_apply() takes one.
 * In the declaration and choice phases every seat decides (simultaneously,
 * hidden); in the other phases exactly one seat does.
 */
#ifndef KONTOR_KONTOR_H
#define KONTOR_KONTOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KONTOR_VERSION "0.1.0"

/* ---- status and errors --------------------------------------------------- */

typedef enum kontor_status {
    KONTOR_OK = 0,
    KONTOR_E_PARSE,    /* malformed text (record, card file, option, command) */
    KONTOR_E_INVALID,  /* well-formed but breaks a constraint (card set, config) */
    KONTOR_E_ILLEGAL,  /* a decision that the rules do not allow now */
    KONTOR_E_IO,       /* a file could not be read or written */
    KONTOR_E_RANGE     /* a number outside what the engine supports */
} kontor_status;

/* Detail of a failure. Lines and rounds are 1-based; 0 means "not known". */
typedef struct kontor_error {
    kontor_status code;
    int line;
    int round;
    char msg[256];
} kontor_error;

/* Returns a static lowercase name for a status ("illegal move", ...). */
const char *kontor_status_name(kontor_status st);

/* ---- random numbers -------------------------------------------------------- */

/* xoshiro256** (Blackman and Vigna 2018), seeded through splitmix64 so that
 * every 64-bit seed, 0 included, gives a good state. Small, fast, and the same
 * stream on every platform. */
typedef struct kontor_rng {
    uint64_t s[4];
} kontor_rng;

void kontor_rng_seed(kontor_rng *r, uint64_t seed);
uint64_t kontor_rng_next(kontor_rng *r);
/* Uniform integer in [0, n) for n >= 1, without modulo bias (Lemire 2019). */
uint32_t kontor_rng_below(kontor_rng *r, uint32_t n);

/* ---- cards ---------------------------------------------------------------- */

#define KONTOR_MAX_CARDS 96     /* 44 dock + 44 water + 6 special = 94 */
#define KONTOR_NONE 0xFF        /* no card, no cell, no choice */
#define KONTOR_PASS 0xFE        /* the choice "pass" */
#define KONTOR_HIDDEN 0xFD      /* in a view: a choice made but not revealed */
#define KONTOR_PLAY 0xFC        /* the declaration "I play a card this round" (R1) */
/* In a view, a card the viewer cannot see reads KONTOR_UNKNOWN_BASE + its class. */
#define KONTOR_UNKNOWN_BASE 0xF0

enum { KONTOR_RED = 0, KONTOR_BLACK = 1, KONTOR_NEUTRAL = 2 };
enum { KONTOR_TEA = 0, KONTOR_WINE = 1, KONTOR_SPICE = 2 };

typedef enum kontor_kind {
    KONTOR_KIND_GOODS = 0,
    KONTOR_KIND_CRANE,
    KONTOR_KIND_TAVERN,
    KONTOR_KIND_WATER,
    KONTOR_KIND_CENTRE,
    KONTOR_KIND_FLOOD,
    KONTOR_KIND_BRIDGE,
    KONTOR_KIND_CUSTOMS
} kontor_kind;

/* Card classes: which hidden pool a card is drawn from when it is unseen. */
enum {
    KONTOR_CLASS_RED = 0,   /* red dock cards */
    KONTOR_CLASS_BLACK,     /* black dock cards */
    KONTOR_CLASS_WATER,     /* numbered water cards */
    KONTOR_CLASS_SPECIAL,   /* flood, bridge, customs house */
    KONTOR_CLASS_CENTRE,    /* the harbour centre (always public) */
    KONTOR_NCLASSES
};

typedef struct kontor_card {
    uint8_t number;     /* printed number; 0 for the harbour centre */
    uint8_t colour;     /* KONTOR_RED, KONTOR_BLACK or KONTOR_NEUTRAL */
    uint8_t kind;       /* kontor_kind */
    uint8_t coin;       /* 1 if the card shows the coin symbol */
    uint8_t ship;       /* 1 if the card shows the ship symbol */
    uint8_t goods[3];   /* how many tea, wine, spice the card shows */
} kontor_card;

typedef struct kontor_cardset {
    uint8_t ncards;
    uint8_t centre;                 /* id of the harbour centre card */
    char name[22];                  /* "default", or the file's stated name */
    kontor_card card[KONTOR_MAX_CARDS];
    /* The ids of each class (kontor_card_class), as bit sets: filled by
     * kontor_cards_parse and kontor_cards_default; a card set built or
     * changed by hand needs kontor_cards_index before it is dealt. */
    uint64_t class_ids[KONTOR_NCLASSES][2];
    /* The same ids as lists, ascending (kontor_cards_index): the deal
     * copies a class's cards from here when none is out of the game. */
    uint8_t class_n[KONTOR_NCLASSES];
    uint8_t class_list[KONTOR_NCLASSES][KONTOR_MAX_CARDS];
    /* Each card's first warehouse when the warehouses of the set are counted
     * card by card in order of id, tea, wine and spice of a card in that
     * order (kontor_cards_index): below 48, the set shows at most 16 of each
     * good (src/core/cards.c). The Exportlager's bits (kontor_state.export_bits). */
    uint8_t warehouse_at[KONTOR_MAX_CARDS];
} kontor_cardset;

/* The built-in card set (data/cards.txt compiled in), parsed once per
 * process and shared: never fails, never changes, lives as long as the
 * process. Safe to call from several threads. */
const kontor_cardset *kontor_cards_builtin(void);
/* A copy of the built-in card set, for a caller that wants to change it. */
void kontor_cards_default(kontor_cardset *cs);
/* Parse and validate a card file. On failure fills err (line and constraint)
 * and returns its code; cs is then unspecified. */
kontor_status kontor_cards_parse(kontor_cardset *cs, const char *text, size_t len,
                                 kontor_error *err);
/* The text of the built-in card file. */
const char *kontor_cards_default_text(void);
/* Recompute cs->class_ids and the class lists from the cards. */
void kontor_cards_index(kontor_cardset *cs);

/* 0 dock (goods, crane, tavern), 1 water (water, centre), 2 special. */
int kontor_card_is_dock(const kontor_card *c);
int kontor_card_is_water(const kontor_card *c);
int kontor_card_class(const kontor_card *c);

/* ---- bitboards ------------------------------------------------------------ */

#define KONTOR_GRID 16
#define KONTOR_CELLS 256
#define KONTOR_CENTRE_CELL (7 * 16 + 7)

typedef struct kontor_bb {
    uint64_t w[4];  /* word i holds rows 4i..4i+3, 16 cells a row */
} kontor_bb;

/* ---- configuration (variant and rulings) ----------------------------------- */

#define KONTOR_MAX_SEATS 4
#define KONTOR_EVENTS_MAX 16    /* event cards in a deck (data/events.txt holds 10) */
#define KONTOR_TILES 8          /* action tiles in the box */

typedef enum kontor_variant {
    KONTOR_VARIANT_BASIC = 0,
    KONTOR_VARIANT_ADVANCED,
    KONTOR_VARIANT_FOUR,     /* the game for four: two teams, 8x8, special cards */
    KONTOR_VARIANT_SPECIALS, /* scenario: the special cards for two, bought for two coins */
    /* the other scenarios of the rulebook (docs/variants.md) */
    KONTOR_VARIANT_CANALE,       /* Canale Grande: fixed 4x12 board around a canal */
    KONTOR_VARIANT_KLEINEN,      /* Immer auf die Kleinen: areas under 4 score their size */
    KONTOR_VARIANT_WASSERSPIELE, /* Wasserspiele: every dock card touches water */
    KONTOR_VARIANT_TICTACTOE,    /* Tic Tac Toe: three owned islands in a row win */
    KONTOR_VARIANT_BAKSCHISCH,   /* Bakschisch: buy out an opposing goods card before a round */
    KONTOR_VARIANT_DAVID,        /* David und Goliath: the three smallest areas score */
    KONTOR_VARIANT_GIGANT,       /* Gigant: 8x8, seven largest */
    KONTOR_VARIANT_GULLIVER,     /* Gullivers Reisen: 5x5 */
    KONTOR_VARIANT_JUSTIZIA,     /* Justizia: choose the starting hand, discard four */
    KONTOR_VARIANT_INSEL,        /* Die grosse Insel for two */
    KONTOR_VARIANT_INSEL4,       /* Die grosse Insel for four */
    KONTOR_VARIANT_ARMUT,        /* Armut for two: 3 coins each, bankruptcy ends the game */
    KONTOR_VARIANT_ARMUT4,       /* Armut for four */
    KONTOR_VARIANT_SEILSCHAFTEN, /* Alte Seilschaften for two: taverns decide their areas */
    KONTOR_VARIANT_SEILSCHAFTEN4,/* Alte Seilschaften for four */
    KONTOR_NVARIANTS
} kontor_variant;

/* How the areas count at the end (scenarios). */
typedef enum kontor_scoring {
    KONTOR_SCORE_LARGEST = 0, /* the `largest` largest (0: all), 1 point each */
    KONTOR_SCORE_SMALLEST,    /* the `largest` smallest, 1 point each (David und Goliath) */
    KONTOR_SCORE_SIZE         /* areas of 1, 2, 3 dock cards score 1, 2, 3; larger none (Kleinen) */
} kontor_scoring;

/* Cards out of the game by kind (kontor_config.remove_kinds). */
enum {
    KONTOR_REMOVE_CRANES = 1,         /* every crane */
    KONTOR_REMOVE_PLAIN_CRANES = 2,   /* cranes without a ship symbol */
    KONTOR_REMOVE_TAVERNS = 4         /* both taverns */
};

#define KONTOR_LAYOUT_MAX 64

/* Rulings that are a matter of taste are options; docs/rules.md gives each
 * one's default and why. */
typedef struct kontor_config {
    uint8_t variant;        /* kontor_variant */
    uint8_t nseats;         /* 2, or 4 in two teams (seats 0,1 red; 2,3 black; 0-2 and 1-3 sit opposite) */
    uint8_t width, height;  /* board extent limit: 6x6 basic, 7x7 advanced */
    uint8_t ship;           /* the ship is in play */
    uint8_t largest;        /* 0: every enclosed area counts; N: only the N largest */
    uint8_t start_coins;    /* coins per player at the start */
    uint8_t total_coins;    /* coins in the game (player coins + treasury) */
    /* rulings (options) */
    uint8_t edge_both;      /* 1: board edges enclose only when both extents are fixed */
    uint8_t pass_hidden;    /* R1: 0: passes are declared (simultaneously) before the cards are chosen;
                               1: a pass is one of the hidden choices, revealed with the cards */
    uint8_t pass_rest;      /* R2: 1: after a double pass nobody may pass next round (house rule); 0: no limit */
    uint8_t optional_place; /* 1: a player may take a placeable card back instead */
    uint8_t final_draw;     /* 1: the card that fills the board still draws and earns its coin */
    uint8_t largest_keepers;/* 1: only areas with a keeper compete for the N largest */
    uint8_t keeper_limit;   /* 1: a player with all 5 keepers placed wins areas without a point */
    uint16_t max_rounds;    /* safety rule: the game ends after this many rounds */
    uint8_t specials;       /* 0 none; 1 one dealt to each player, the rest aside (game for four);
                               2 a face-down pile, bought for 2 coins before a round (scenario for two) */
    uint8_t min_area_cards; /* areas with fewer dock cards never count at the end (2 in the game for four) */
    uint8_t water_aside;    /* water cards set aside unseen at the start */
    uint8_t fixed_board;    /* 1: the board is board_mask, fixed from the start */
    uint8_t layout_n;       /* the start: cells that take a water card from the top of the pile, in order */
    uint8_t layout[KONTOR_LAYOUT_MAX];
    kontor_bb board_mask;   /* with fixed_board */
    uint64_t removed[2];    /* cards out of the game (bit = card id) */
    /* scenarios and expansions (docs/variants.md); all 0 in the basic game */
    uint8_t scoring;        /* kontor_scoring */
    uint8_t remove_kinds;   /* KONTOR_REMOVE_* : cards out of the game by kind (with removed[]) */
    uint8_t water_touch;    /* Wasserspiele: a dock card must touch a water card */
    uint8_t tictactoe;      /* Tic Tac Toe: three owned islands in a row win; water may not split an island */
    uint8_t bribe;          /* Bakschisch: before a round each seat may buy out an opposing goods card */
    uint8_t select_keep;    /* Justizia: dock cards each seat picks for its hand (0: dealt) */
    uint8_t select_discard; /* Justizia: dock cards each seat puts out of the game */
    uint8_t bankrupt;       /* Armut: a seat with no coin while the treasury is empty loses */
    uint8_t tavern_vote;    /* Alte Seilschaften: a tavern's owner decides at the end whether its area scores */
    uint8_t inner_value;    /* Die grosse Insel: points of an area on the inner cells, where no water may go */
    uint8_t export_store;   /* expansion 1, Exportlager */
    uint8_t events;         /* expansion 2, Ereigniskarten (data/events.txt: our own events) */
    uint8_t tiles;          /* expansion 3, Aktionstafeln (needs the water cross) */
    uint8_t nevent_cards;   /* with events: the deck's cards, what each does (from data/events.txt) */
    uint8_t event_action[KONTOR_EVENTS_MAX];
    int8_t event_arg[KONTOR_EVENTS_MAX];
    /* Not a setting: width * height, the cells of a full board, worked out
     * by kontor_config_intern in the interned copy a state points at (the
     * placement's end test reads one field; it sits in what was padding,
     * so a config's size and its settings' bytes do not change). Callers
     * leave it alone; it is 0 or anything in their own configs. */
    uint16_t cells;
    kontor_bb inner;        /* with inner_value */
    /* The card set: shared and immutable, never owned by the config (so that
     * a state stays a plain value that copies with memcpy and a quarter of
     * its old size). kontor_config_init points it at kontor_cards_builtin();
     * a caller that points it at its own set keeps that set unchanged and
     * alive as long as any config, state, view or record refers to it. */
    const kontor_cardset *cards;
    /* Not a setting (issue 17's narrow board): the window of the grid that
     * holds every cell a card of this config can ever reach (its tables:
     * src/core/window.h), worked out by kontor_config_intern for the
     * interned copy and kept beside it (the config stays small: records and
     * the server copy configs), left out of the configs' comparison; NULL
     * or anything in a caller's own config. */
    const struct kontor_window *win;
} kontor_config;

/* The most cells a config's window may hold: a state's sets are 128 bits. */
#define KONTOR_WINDOW_MAX 128

/* Fill cfg with a named variant ("basic", "advanced", "four", "specials", or a
 * scenario: kontor variants lists them) and the default card set and rulings. */
kontor_status kontor_config_init(kontor_config *cfg, const char *variant, kontor_error *err);
/* Set the standard start layout, the water cross (R13). */
void kontor_layout_cross(kontor_config *cfg);
/* Apply one "name=value" option (see docs/rules.md for the names). */
kontor_status kontor_config_option(kontor_config *cfg, const char *opt, kontor_error *err);
/* Apply a comma- or space-separated list of options. */
kontor_status kontor_config_options(kontor_config *cfg, const char *opts, kontor_error *err);
/* Write the options that differ from the variant's defaults, "a=1,b=2", into
 * buf; returns the length. Empty when none differ. */
size_t kontor_config_describe(const kontor_config *cfg, char *buf, size_t cap);
const char *kontor_variant_name(int variant);
/* One line on a variant, for kontor variants; NULL past the last. */
const char *kontor_variant_describe(int variant);
/* The start layout files (data/layouts/NAME.txt compiled in): the text, or
 * NULL for an unknown name. */
const char *kontor_layout_text(const char *name);
/* Read a start layout into cfg: its board (size WxH; or fixed WxH at X,Y),
 * water cells in order, inner cells. On failure err names the line. */
kontor_status kontor_layout_parse(kontor_config *cfg, const char *name, const char *text, size_t len,
                                  kontor_error *err);
/* Is card id out of the game under cfg (removed[] or remove_kinds)? */
int kontor_card_removed(const kontor_config *cfg, int id);

/* ---- the expansions' data ---------------------------------------------------- */

/* What an event card does (data/events.txt names them). */
typedef enum kontor_event_action {
    KONTOR_ACT_COINS_EACH = 1, /* every seat receives arg coins from the treasury (or pays -arg) */
    KONTOR_ACT_COIN_POOREST,   /* the seat with the fewest coins receives one (ties: each, as far as it goes) */
    KONTOR_ACT_COIN_RICHEST,   /* the seat with the most coins pays one into the treasury (ties: each) */
    KONTOR_ACT_CENTRE_COIN,    /* a seat with a dock card next to the harbour centre receives one coin */
    KONTOR_ACT_SHIP_MOVE,      /* each seat in turn may move the ship to another water card (decision) */
    KONTOR_ACT_SHIP_REMOVE,    /* the last layer may remove a ship-symbol dock card next to the ship (decision) */
    KONTOR_ACT_FREE_WATER,     /* each seat in turn may lay the top water card on a free cell (decision) */
    KONTOR_ACT_DRAW_DOCK,      /* every seat draws the top card of its dock pile */
    KONTOR_ACT_NO_PASS         /* nobody may pass this round */
} kontor_event_action;

typedef struct kontor_event_card {
    char name[24];
    uint8_t action;   /* kontor_event_action */
    int8_t arg;
    char text[160];
} kontor_event_card;

/* The built-in event cards (data/events.txt compiled in): parsed into out
 * (capacity cap); returns the count. The text itself: */
int kontor_events_default(kontor_event_card *out, int cap);
const char *kontor_events_default_text(void);
/* Parse an event file; returns the count, or -1 with err naming the line. */
int kontor_events_parse(kontor_event_card *out, int cap, const char *text, size_t len, kontor_error *err);
/* The tiles of the Aktionstafeln: 0 move the harbour centre, 1..3 a warehouse of
 * tea, wine, spice, 4 one coin, 5 two coins, 6 the ship, 7 one point. */
const char *kontor_tile_name(int tile);

/* ---- the state -------------------------------------------------------------- */

typedef enum kontor_phase {
    KONTOR_PHASE_CHOOSE = 0,  /* every seat that plays picks a hand card, hidden (with pass_hidden: or a pass) */
    KONTOR_PHASE_SHIP,        /* the seat to act may move the ship */
    KONTOR_PHASE_REMOVE,      /* ... and then remove an adjacent ship-symbol dock card */
    KONTOR_PHASE_PLACE,       /* the seat to act places its card */
    KONTOR_PHASE_OVER,
    KONTOR_PHASE_BUY,         /* before choosing: every seat with 2 coins may buy special cards, hidden */
    KONTOR_PHASE_PILE,        /* game for four: which player of the card's team takes the removed card */
    KONTOR_PHASE_BRIBE,       /* Bakschisch, before choosing: every seat may buy out a card, hidden */
    KONTOR_PHASE_SELECT,      /* Justizia, at the start: every seat keeps 3 and discards 4 dock cards, hidden */
    KONTOR_PHASE_TAVERN,      /* Alte Seilschaften, at the end: a tavern's owner says whether its area scores */
    KONTOR_PHASE_EXPORT,      /* Exportlager: the seat that placed a goods card may export one warehouse */
    KONTOR_PHASE_EVENT,       /* Ereigniskarten: a seat carries out its part of the event card */
    KONTOR_PHASE_TILE,        /* Aktionstafeln: the seat that won a tile carries out its action */
    KONTOR_PHASE_DECLARE      /* R1, before choosing: every seat declares, hidden, whether it passes */
} kontor_phase;

#define KONTOR_HAND_MAX 12
#define KONTOR_UNDER_MAX 8
/* Cards a pile can hold. No pile of any variant holds more than 47 cards:
 * a dock pile at most its colour's 22 dock cards; the water pile at most
 * the card set's water cards but the four that go to the hands (a card set
 * has at most KONTOR_MAX_CARDS = 96 cards, of which exactly 44 are dock
 * cards and one the centre: at most 51 water cards); the special cards'
 * pile at most 8 (the deal's most; a card set holds at most 6); the cards
 * set aside at most a variant's water_aside (10), the special cards not
 * dealt (at most 4) and Justizia's discards (8). src/core/cards.c checks
 * the bound against the card set's limits. Since issue 17 the piles share
 * one pool (kontor_state.pile_card): the bound is what a determinization's
 * run of places and a view's masking assume a pile to hold at most. */
#define KONTOR_PILE_MAX 48
/* Enclosed areas a game can hold. Two enclosed areas never share an edge
 * (an area is a whole group of dock cards with nothing beside it but water
 * and cells that close; none of its cards ever leaves, none joins), so one
 * cell of each is a set of cells no two of which are neighbours, and a W x H
 * board, whose cells pair into dominoes but for one at most, holds at most
 * ceil(W * H / 2) areas (docs/engine-speed.md, session fourteen, areas14).
 * Every board a game can reach has at most 64 cells: the width and height
 * options are 3..8 (the rulebook's largest board is 8x8: the game for four,
 * Gigant; docs/rules.md), a layout's 'size' too, and a fixed layout's board
 * (Canale Grande's 12x4) is refused when its cells could hold more areas
 * (src/core/layout.c; kontor_new refuses a config made by hand the same
 * way). So 32. (It was 64 until issue 17, then 50, the cards that can lie
 * as dock cards, while the options allowed a 12x12 board: the state of a
 * game for two shrank by 196 and then 180 bytes.) */
#define KONTOR_MAX_AREAS 32
/* The width and height options' largest value (and a layout's 'size'). */
#define KONTOR_MAX_SIDE 8
_Static_assert((KONTOR_MAX_SIDE * KONTOR_MAX_SIDE + 1) / 2 <= KONTOR_MAX_AREAS, "the largest board's areas fit the state");

/* A pile: its cards are the n bytes of the state's pile_card[] from head on,
 * the top first. The seven piles (dock_pile[0..3], water_pile, aside,
 * special_pile: pile[0..6]) lie in that order in the pool, each after the
 * one before (pile[k].head + pile[k].n <= pile[k + 1].head, the last one's
 * end at most KONTOR_MAX_CARDS), with the room the deal leaves after each
 * dock pile for the cards that go back under it; a card put under a pile
 * with no room after it moves its neighbours over (src/core/rules.h,
 * pile_put_under). No card is in two piles, so the pool of
 * KONTOR_MAX_CARDS bytes always holds them all. (Until issue 17 each pile
 * was a ring of KONTOR_PILE_MAX bytes: 350 bytes of the state, now 110.) */
typedef struct kontor_pile {
    uint8_t head;   /* the place of its top card in pile_card[] */
    uint8_t n;
} kontor_pile;

#define KONTOR_NPILES 7

/* Seats that can know cards the others do not (kontor_state.known): only
 * Justizia's players see their own dock cards, and Justizia is a scenario
 * for two (the deal refuses select_keep with another seat count). Until
 * issue 17 every seat had its row, 32 bytes of zeros in every state. */
#define KONTOR_KNOWN_SEATS 2

/* The place in the state's pile_card[] of the pile's i-th card from the top
 * (0 the top; 0 <= i < p->n). */
static inline int kontor_pile_at(const kontor_pile *p, int i) { return p->head + i; }

/* An enclosed (and so scored) area: 10 bytes (issue 17: it was 13; the
 * state of a game for two 150 bytes smaller). Each field holds its whole
 * range: size at most the cards that lie as dock cards (50, below 64:
 * _Static_assert in src/core/area.c), dist at most 16 (a cell of the 16x16
 * grid from (7,7)), a count of warehouses at most 17 (the card set's 16 of a
 * good, src/core/cards.c, and the extra warehouse of an action tile). */
typedef struct kontor_area {
    uint8_t cell;       /* lowest cell of the area (a representative) */
    uint8_t size : 6;   /* dock cards in it */
    uint8_t keeper : 1; /* 1 if a keeper was placed */
    uint8_t out : 1;    /* Alte Seilschaften: its tavern's owner chose that it does not score */
    uint8_t dist;       /* Manhattan distance of its nearest cell to the centre */
    uint8_t winner;     /* team that put a keeper there, or KONTOR_NONE */
    uint8_t round;      /* round in which it was enclosed */
    uint8_t value;      /* points it is worth: 1, plus 1 for each customs house in it
                           (scenarios: its size in Kleinen, inner_value on the inner cells) */
    /* warehouses per team and good when it was scored, five bits each:
     * team t's good g at bit 16t + 5g of the little-endian word (bits 15
     * and 31 zero); read them with kontor_area_goods */
    uint8_t goods5[4];
} kontor_area;

/* The warehouses per team and good of an area when it was scored. */
static inline void kontor_area_goods(const kontor_area *a, uint8_t goods[2][3]) {
    uint32_t v = (uint32_t)a->goods5[0] | (uint32_t)a->goods5[1] << 8 | (uint32_t)a->goods5[2] << 16 |
                 (uint32_t)a->goods5[3] << 24;
    for (int i = 0; i < 6; i++) goods[i / 3][i % 3] = (uint8_t)((v >> (16 * (i / 3) + 5 * (i % 3))) & 31);
}

typedef struct kontor_state {
    const kontor_config *cfg; /* interned: kontor_config_intern */
    const kontor_card *card;  /* cfg->cards->card, kept here: a card's facts one load from the state
                                 (the hot path reads them most), as when the config lay inside it */

    /* board */
    kontor_bb occ;          /* cells with a card */
    kontor_bb water;        /* water cards (centre included) */
    kontor_bb dock;         /* dock cards */
    kontor_bb team_dock[2]; /* dock cards per colour */
    kontor_bb crane[2];     /* crane cards per colour */
    kontor_bb shipsym;      /* dock cards with a ship symbol */
    kontor_bb enclosed;     /* cells of enclosed areas */
    kontor_bb mask;         /* cells where a card can still ever lie */
    kontor_bb front;        /* the free cells next to a card (kept as cards come and go: the place
                               phase's candidates without a pass over the board) */
    kontor_bb crane_near[2];/* the cells next to each colour's cranes, kept the same way */
    uint8_t cell_card[KONTOR_CELLS];
    uint8_t minx, maxx, miny, maxy;  /* extent reached so far (grid coords); never shrinks */
    uint8_t ncards_board;
    uint8_t ship_cell;      /* KONTOR_NONE when the ship is not in play */

    /* cards off the board */
    uint8_t hand[KONTOR_MAX_SEATS][KONTOR_HAND_MAX];
    uint8_t hand_n[KONTOR_MAX_SEATS];
    union {                 /* the piles by name, or by their place in pile_card[] (pile[k]) */
        struct {
            kontor_pile dock_pile[KONTOR_MAX_SEATS];
            kontor_pile water_pile;
            kontor_pile aside;        /* out of play, unseen: special cards not dealt, water set aside */
            kontor_pile special_pile; /* face down: the special cards still to buy (scenario for two) */
        };
        kontor_pile pile[KONTOR_NPILES];
    };
    uint8_t pile_card[KONTOR_MAX_CARDS]; /* the piles' cards (kontor_pile) */
    uint64_t pub[2];        /* cards whose whereabouts every player knows */
    /* (two words of the scenarios and expansions, here beside pub: among the
       bytes below they left holes, 8 bytes of the state) */
    uint64_t known[KONTOR_KNOWN_SEATS][2];/* cards whose whereabouts only that seat knows (Justizia: seats
                                             0 and 1 only; kontor_known) */
    uint64_t export_bits;   /* Exportlager: the warehouses that cards on the board sent to export, a bit
                               each: card id's from cards->warehouse_at[id] on, tea, wine, spice, each good's
                               lowest first (src/core/rules.h, export_mark; 96 bytes until issue 17) */

    /* special cards on the board */
    kontor_bb customs;      /* cells with a customs house (as dock or as water) */
    uint8_t under_cell[KONTOR_UNDER_MAX];  /* cards overbuilt by a flood or a bridge */
    uint8_t under_card[KONTOR_UNDER_MAX];
    uint8_t nunder;
    uint8_t removed_card;   /* in the pile phase: the card the ship removed */
    uint8_t buy[KONTOR_MAX_SEATS];  /* in the buy phase: 0/1, or KONTOR_NONE while undecided */

    /* money and points */
    uint8_t coins[KONTOR_MAX_SEATS];
    uint8_t treasury;
    uint8_t keepers[2];     /* keepers placed, per team */

    /* round */
    uint16_t round;         /* 1-based */
    uint8_t phase;          /* kontor_phase */
    uint8_t choice[KONTOR_MAX_SEATS];  /* card id, KONTOR_PASS, or KONTOR_NONE; in the declare
                                          phase KONTOR_PASS, KONTOR_PLAY or KONTOR_NONE */
    uint8_t order[KONTOR_MAX_SEATS];   /* seats that place this round, in order */
    uint8_t norder;
    uint8_t turn;           /* index into order of the seat to act */
    uint8_t no_pass;        /* nobody may pass this round (after a double pass) */
    uint8_t ship_moved;     /* the seat to act has moved the ship this turn */
    uint8_t hooks;          /* which of the scenarios' and expansions' per-round and per-turn rules the
                               config turns on (the engine's KONTOR__HOOK_* bits), worked out from cfg at the
                               deal so that a round of the basic game tests one byte (in what was padding) */
    kontor_bb cells;        /* in the place phase: the cells where its card may go */
    kontor_bb cells_water;  /* ... and for a customs house, where it may go as water */

    /* enclosed areas */
    kontor_area area[KONTOR_MAX_AREAS];
    uint8_t nareas;

    /* scenarios and expansions */
    uint8_t bribe[KONTOR_MAX_SEATS];   /* in the bribe phase: a cell, KONTOR_PASS (none), KONTOR_NONE (undecided) */
    uint8_t selected[KONTOR_MAX_SEATS];/* in the select phase: cards kept and discarded so far */
    uint8_t tavern_area;    /* in the tavern phase: the area being decided */
    uint8_t export_n[2][3]; /* Exportlager: warehouses in each team's export store, per good */
    uint8_t placed_cell;    /* in the export phase: the cell of the goods card just placed */
    /* Ereigniskarten */
    uint8_t event_deck[KONTOR_EVENTS_MAX]; /* the shuffled event cards; those from event_next on are face down */
    uint8_t event_n, event_next;
    uint8_t event_cur;      /* the event being carried out, or KONTOR_NONE */
    uint8_t event_step;     /* in the event phase: 0 the last layer acts, 1 the other seat */
    uint8_t event_due;      /* an area was scored this round: the next round opens with an event */
    uint8_t last_layer;     /* the seat that laid the last card, or KONTOR_NONE */
    /* Aktionstafeln */
    uint8_t tile_at[4];     /* the tile on the N, E, S, W end of the cross, or KONTOR_NONE once won */
    uint8_t tile_cur;       /* in the tile phase: the tile being carried out */
    uint8_t tile_bonus[3];  /* per good: the dock cell whose area holds the tile's extra warehouse, or KONTOR_NONE */
    uint8_t ship_owner;     /* the team that alone moves the ship (tile 7), or KONTOR_NONE */
    uint8_t bonus_points[2];/* extra points per team (tile 8) */

    /* result, valid in KONTOR_PHASE_OVER */
    uint8_t score[2];       /* final points per team */
    int8_t winner;          /* team, or -1 for a draw */
    uint8_t end_reason;     /* kontor_end */
} kontor_state;

_Static_assert(offsetof(kontor_state, water_pile) == offsetof(kontor_state, pile[KONTOR_MAX_SEATS]) &&
                   offsetof(kontor_state, special_pile) == offsetof(kontor_state, pile[KONTOR_NPILES - 1]),
               "the piles by name are pile[0..6] in their order");

/* Whether seat knows card id (below KONTOR_MAX_CARDS) where the others do
 * not (Justizia); 0 for a seat past KONTOR_KNOWN_SEATS or a spectator. */
static inline int kontor_known(const kontor_state *s, int seat, int id) {
    return seat >= 0 && seat < KONTOR_KNOWN_SEATS && ((s->known[seat][id >> 6] >> (id & 63)) & 1);
}

/* The i-th card from the top of the pile p of s (0 the top; i < p->n). */
static inline int kontor_pile_card(const kontor_state *s, const kontor_pile *p, int i) {
    return s->pile_card[kontor_pile_at(p, i)];
}

/* ---- the state's sets of cells, read from outside the core ----------------
 * The board's sets above (occ ... crane_near, customs, cells, cells_water) and
 * cell_card are the core's own working form: issue 17 narrows them to a window
 * of the config's board (src/core/sets.c says more), so their layout is no
 * longer the public 16x16 grid of kontor_cell. Code outside src/core (the
 * clients, the server's JSON, records, the protocol, the tests) reads them
 * only through kontor_state_set and kontor_state_card_at, which give them in
 * the public form: a kontor_bb of the 16x16 grid and a card per grid cell. A
 * public kontor_bb (these, the config's board_mask and inner, what
 * kontor_area_at, kontor_dead_cells and kontor_gap_cells fill) is read with
 * kontor_bb_has, kontor_bb_count and kontor_bb_next rather than by its words. */
typedef enum kontor_set {
    KONTOR_SET_OCC = 0,       /* occ: cells with a card */
    KONTOR_SET_WATER,         /* water: water cards (centre included) */
    KONTOR_SET_DOCK,          /* dock: dock cards */
    KONTOR_SET_TEAM_DOCK0,    /* team_dock[0]; team t is KONTOR_SET_TEAM_DOCK0 + t */
    KONTOR_SET_TEAM_DOCK1,    /* team_dock[1] */
    KONTOR_SET_CRANE0,        /* crane[0]; team t is KONTOR_SET_CRANE0 + t */
    KONTOR_SET_CRANE1,        /* crane[1] */
    KONTOR_SET_SHIPSYM,       /* shipsym: dock cards with a ship symbol */
    KONTOR_SET_ENCLOSED,      /* enclosed: cells of enclosed areas */
    KONTOR_SET_MASK,          /* mask: cells where a card can still ever lie */
    KONTOR_SET_FRONT,         /* front: the free cells next to a card */
    KONTOR_SET_CRANE_NEAR0,   /* crane_near[0]; team t is KONTOR_SET_CRANE_NEAR0 + t */
    KONTOR_SET_CRANE_NEAR1,   /* crane_near[1] */
    KONTOR_SET_CUSTOMS,       /* customs: cells with a customs house */
    KONTOR_SET_CELLS,         /* cells: in the place phase, where its card may go */
    KONTOR_SET_CELLS_WATER,   /* cells_water: ... and a customs house as water */
    KONTOR_SET_COUNT
} kontor_set;

/* The set which of a dealt state s, as cells of the public 16x16 grid; an
 * empty set for a which out of range. */
kontor_bb kontor_state_set(const kontor_state *s, kontor_set which);
/* The card at public cell (0..KONTOR_CELLS-1) of a dealt state s, or
 * KONTOR_NONE for a free cell or a cell out of range. */
int kontor_state_card_at(const kontor_state *s, int cell);

/* Whether cell (0..KONTOR_CELLS-1) is in the public set b. */
static inline int kontor_bb_has(const kontor_bb *b, int cell) {
    return (int)((b->w[cell >> 6] >> (cell & 63)) & 1);
}
/* The number of cells in b. */
static inline int kontor_bb_count(const kontor_bb *b) {
    return __builtin_popcountll(b->w[0]) + __builtin_popcountll(b->w[1]) + __builtin_popcountll(b->w[2]) +
           __builtin_popcountll(b->w[3]);
}
/* The lowest cell of b at or after from (0..KONTOR_CELLS), or -1 if none:
 * for (int c = kontor_bb_next(&b, 0); c >= 0; c = kontor_bb_next(&b, c + 1)). */
static inline int kontor_bb_next(const kontor_bb *b, int from) {
    if (from < 0) from = 0;
    for (int i = from >> 6; i < 4; i++) {
        uint64_t m = i == from >> 6 ? b->w[i] >> (from & 63) << (from & 63) : b->w[i];
        if (m) return i * 64 + __builtin_ctzll(m);
    }
    return -1;
}
/* Put cell (0..KONTOR_CELLS-1) into b (for a caller's own set, such as the
 * cells a client has seen). */
static inline void kontor_bb_add(kontor_bb *b, int cell) { b->w[cell >> 6] |= 1ULL << (cell & 63); }

typedef enum kontor_end {
    KONTOR_END_NONE = 0,
    KONTOR_END_FULL,        /* the board is full */
    KONTOR_END_MAX_ROUNDS,  /* the safety rule */
    KONTOR_END_STUCK,       /* no seat can do anything (no cards left) */
    KONTOR_END_ROW,         /* Tic Tac Toe: a team owns three islands in a row */
    KONTOR_END_BANKRUPT     /* Armut: a seat has no coin and the treasury is empty */
} kontor_end;

/* The process's copy of cfg (src/core/intern.c): immutable while it is in
 * use, the same pointer for every config of the same content (its padding
 * aside). kontor_new and kontor_new_from_deal point the state's cfg at it, so
 * the caller's config need not outlive the game. Thread-safe.
 *
 * kontor_config_retain: an owner of games (the server's game, the protocol
 * engine's) holds the copy from before the deal until the last state, view,
 * copy and search of that game is gone, then calls kontor_config_release
 * once for each retain; dealing from the pointer retain gave (or from an
 * equal config while it is held) uses that entry. An entry nobody holds is
 * free: a new config may take its place, so a process that holds what it
 * uses deals from any number of configs over its life.
 * kontor_config_intern (and kontor_new / kontor_new_from_deal from a config
 * that is not an entry) holds nothing: it borrows the hold of an equal
 * config held at the time (the state is valid while that hold lasts), or
 * else pins the entry for the life of the process (a process that never
 * retains pins every config it deals from, as before session fourteen).
 * At most KONTOR_CONFIGS_MAX distinct configs held or pinned at once (the
 * server deals from configs strangers choose: the table must not grow
 * without limit); past that a config not among them gives NULL and
 * KONTOR_E_RANGE in err, and kontor_new refuses to deal from it, until an
 * entry is released. */
#define KONTOR_CONFIGS_MAX 65536 /* 65536 x 224 bytes, 14 MiB of zero pages, touched as configs are held at once */
const kontor_config *kontor_config_intern(const kontor_config *cfg, kontor_error *err);
const kontor_config *kontor_config_retain(const kontor_config *cfg, kontor_error *err);
void kontor_config_release(const kontor_config *cfg); /* NULL: nothing */
/* How many configs are held or pinned (for tests and the server's stats). */
size_t kontor_configs_interned(void);

/* Deal a new game: shuffle every pile with seed and lay out the start. */
kontor_status kontor_new(kontor_state *s, const kontor_config *cfg, uint64_t seed,
                         kontor_error *err);

/* The deal written down: the full initial order of every pile, top first.
 * water: the numbered water cards in play (first one to each cell of the start
 * layout — the cross N1 N2 E1 E2 S1 S2 W1 W2 by default — then 2 to each
 * seat's hand in seat order, then water_aside set aside, the rest the pile);
 * dock[s]: seat s's dock cards (first 3 to the hand, the rest the pile); in
 * the game for four each team's cards are split between its two seats. */
typedef struct kontor_deal {
    uint8_t water[KONTOR_MAX_CARDS];
    uint8_t nwater;
    uint8_t dock[KONTOR_MAX_SEATS][KONTOR_MAX_CARDS / 2];
    uint8_t ndock[KONTOR_MAX_SEATS];
    uint8_t special[8];  /* the special cards, shuffled: one to each seat in seat order, the
                            rest aside (specials=1); or the face-down pile, top first (specials=2) */
    uint8_t nspecial;
    uint8_t events[KONTOR_EVENTS_MAX]; /* Ereigniskarten: the event deck, top first (indexes into data/events.txt) */
    uint8_t nevents;
    uint8_t tiles[KONTOR_TILES];       /* Aktionstafeln: tiles[0..3] face up on the N, E, S, W ends, the rest out */
} kontor_deal;

/* Shuffle a deal for cfg with seed (what kontor_new does first). */
void kontor_deal_shuffle(kontor_deal *d, const kontor_config *cfg, uint64_t seed);
/* Start a game from a written deal; validates that it is a permutation. */
kontor_status kontor_new_from_deal(kontor_state *s, const kontor_config *cfg,
                                   const kontor_deal *d, kontor_error *err);

/* ---- decisions -------------------------------------------------------------- */

/* A decision, 16 bits:
 *   bits 0..7   value: a card id (choose), a cell (ship, remove, place),
 *               KONTOR_PASS (choose with pass_hidden; declare), KONTOR_PLAY
 *               (declare), KONTOR_NONE (do not move the ship /
 *               remove nothing / take the card back where allowed)
 *   bits 8..11  kind: kontor_move_kind
 */
typedef uint16_t kontor_move;
typedef enum kontor_move_kind {
    KONTOR_MOVE_CHOOSE = 1,
    KONTOR_MOVE_SHIP = 2,
    KONTOR_MOVE_REMOVE = 3,
    KONTOR_MOVE_PLACE = 4,
    KONTOR_MOVE_BUY = 5,        /* value: how many special cards to buy (0: none; R20) */
    KONTOR_MOVE_PILE = 6,       /* value: the seat whose pile takes the removed card */
    KONTOR_MOVE_PLACE_WATER = 7,/* a customs house placed as a water card on cell value */
    KONTOR_MOVE_BRIBE = 8,      /* Bakschisch: value the cell of the opposing goods card bought out,
                                   KONTOR_NONE: none */
    KONTOR_MOVE_KEEP = 9,       /* Justizia: value the dock card (id) taken from the pile into the hand */
    KONTOR_MOVE_DISCARD = 10,   /* Justizia: value the dock card (id) put out of the game */
    KONTOR_MOVE_TAVERN = 11,    /* Alte Seilschaften: value 1 the area scores, 0 it does not */
    KONTOR_MOVE_EXPORT = 12,    /* Exportlager: value the good (0 tea, 1 wine, 2 spice) whose warehouse goes
                                   to the export store, KONTOR_NONE: none */
    KONTOR_MOVE_EVENT = 13,     /* Ereigniskarten: value the cell the event asks for (the ship's new water
                                   card, the card to remove, the free water card's cell), KONTOR_NONE: pass */
    KONTOR_MOVE_TILE = 14,      /* Aktionstafeln: value the cell the tile asks for (the harbour centre's new
                                   cell, the dock card whose area takes the warehouse), KONTOR_NONE: forgo */
    KONTOR_MOVE_DECLARE = 15    /* R1: value KONTOR_PASS (pass this round, take a coin now) or KONTOR_PLAY */
} kontor_move_kind;

#define KONTOR_MOVE(kind, value) ((kontor_move)(((kind) << 8) | ((value) & 0xFF)))
#define KONTOR_MOVE_KIND(m) (((m) >> 8) & 0xF)
#define KONTOR_MOVE_VALUE(m) ((uint8_t)((m) & 0xFF))
#define KONTOR_MAX_MOVES 256

/* Seats that owe a decision now, as a bit mask (bit s = seat s). 0 when over. */
unsigned kontor_actors(const kontor_state *s);
/* The seat to act in the ship, remove and place phases. */
int kontor_current(const kontor_state *s);
/* Write seat's legal decisions into moves (capacity KONTOR_MAX_MOVES); returns
 * the count (0 when the seat owes nothing). */
int kontor_legal(const kontor_state *s, int seat, kontor_move *moves);
/* Is move legal for seat now? */
int kontor_is_legal(const kontor_state *s, int seat, kontor_move move);
/* Why move is not legal for seat now, in words for people ("cell +3,+0 is
 * outside the 6x6 board", "red's crane at -1,+1 keeps +0,+1 clear of black's
 * dock cards", ...); writes into buf and returns it. For a legal move, says
 * "legal". */
const char *kontor_why_illegal(const kontor_state *s, int seat, kontor_move move, char *buf, size_t cap);
/* A legal decision of seat in words for people ("play 15", "pass", "move the
 * ship to +1,-2", "buy a special card", "keep 15 in the hand", ...), so that a
 * client can offer any decision of any variant as a menu. Writes into buf and
 * returns it. */
const char *kontor_move_text(const kontor_state *s, int seat, kontor_move move, char *buf, size_t cap);
/* The words of kontor_why_illegal and kontor_move_text pass through tr when
 * it is set: kontor play sets gettext, so a player reads them in his
 * language. NULL (the default) keeps them English, as the server, records,
 * the engine protocol and every other command want. Set it once, before any
 * thread uses the library. */
void kontor_set_words(const char *(*tr)(const char *english));
/* Name of a seat ("red", "black") and of a card ("15", "centre"). */
const char *kontor_seat_name(const kontor_state *s, int seat);
/* The same from a config alone (NULL: "nobody"), for a state not dealt yet:
 * a state's cfg is the interned pointer kontor_new sets, NULL before it. */
const char *kontor_seat_name_of(const kontor_config *cfg, int seat);

/* ---- events: what happened, for logs, traces and observers ---------------- */

typedef enum kontor_event_kind {
    KONTOR_EV_ROUND = 1,   /* a: round number */
    KONTOR_EV_PASS,        /* seat passes; a: coin received (0/1); at the declarations' reveal (R1),
                              or at the cards' reveal with pass_hidden */
    KONTOR_EV_REVEAL,      /* seat reveals card */
    KONTOR_EV_TAX,         /* seat pays one coin in tax */
    KONTOR_EV_TAKEBACK,    /* seat takes card back; a: kontor_takeback reason */
    KONTOR_EV_SITOUT,      /* both broke: seat sits out; a: coin received */
    KONTOR_EV_SHIP,        /* seat moves the ship to cell */
    KONTOR_EV_REMOVE,      /* seat removes card from cell; a: owner seat whose pile takes it */
    KONTOR_EV_PLACE,       /* seat places card on cell */
    KONTOR_EV_SCORE,       /* area a enclosed and scored (state->area[a]) */
    KONTOR_EV_DRAW,        /* seat draws card */
    KONTOR_EV_COIN,        /* seat receives a coin for water */
    KONTOR_EV_END,         /* game over; a: kontor_end */
    KONTOR_EV_BUY,         /* seat buys a special card (card, hidden from the others) for 2 coins */
    KONTOR_EV_OVERBUILD,   /* seat's special card covers card on cell */
    KONTOR_EV_BRIBE,       /* seat buys out card from cell for a coins; it goes under its owner's pile */
    KONTOR_EV_SELECT,      /* seat has chosen its hand (the cards stay hidden) */
    KONTOR_EV_TAVERN,      /* seat decides area a's fate: card 1 scores, 0 does not */
    KONTOR_EV_EXPORT,      /* seat exports one warehouse of good a */
    KONTOR_EV_EVENT,       /* event card a is turned up (card: KONTOR_NONE) */
    KONTOR_EV_TILE,        /* seat wins action tile a (cell: the water card it lay on) */
    KONTOR_EV_PLAY         /* R1: seat declared to play a card (at the declarations' reveal, with the passes) */
} kontor_event_kind;

enum { KONTOR_TAKEBACK_TAX = 1, KONTOR_TAKEBACK_NOCELL, KONTOR_TAKEBACK_DECLINED };

typedef struct kontor_event {
    uint8_t kind;
    uint8_t seat;
    uint8_t card;
    uint8_t cell;
    uint16_t a;
} kontor_event;

#define KONTOR_LOG_MAX 64
typedef struct kontor_log {
    kontor_event ev[KONTOR_LOG_MAX];
    int n;
} kontor_log;

/* Take a decision for seat. log may be NULL; otherwise events are appended
 * (silently dropped past KONTOR_LOG_MAX). On an illegal move returns
 * KONTOR_E_ILLEGAL and leaves the state unchanged. */
kontor_status kontor_apply(kontor_state *s, int seat, kontor_move move, kontor_log *log);

/* Play the rest of the game with uniformly random legal decisions. */
void kontor_playout(kontor_state *s, kontor_rng *rng);

/* ---- queries ---------------------------------------------------------------- */

int kontor_team(const kontor_state *s, int seat);
int kontor_over(const kontor_state *s);
/* Warehouses per team and good of the (not necessarily enclosed) area that
 * contains dock cell; returns the number of dock cards in the area. */
int kontor_area_at(const kontor_state *s, int cell, kontor_bb *cells, uint8_t goods[2][3]);
/* Die grosse Insel: the free island cells no card can ever fill (next to a
 * red and a black crane, or next to an enclosed area); they close the areas
 * next to them like the board's edge (ruling V15). Empty in other variants. */
void kontor_dead_cells(const kontor_state *s, kontor_bb *out);
/* Winner of a warehouse comparison: 0, 1, or -1 (not scored). */
int kontor_compare_goods(const uint8_t goods[2][3]);
/* The free cells that keep an open area open: those that may still take a
 * card (and, under ruling R7, the cells outside the board until they close). */
void kontor_gap_cells(const kontor_state *s, kontor_bb *out);
/* Which enclosed areas count at the end (largest-N rule); marks counted[i]. */
void kontor_counted_areas(const kontor_state *s, uint8_t counted[KONTOR_MAX_AREAS]);
/* Points per team counting only the areas that count now. */
void kontor_points(const kontor_state *s, int points[2]);

/* Coordinates. */
static inline int kontor_cell(int dx, int dy) { return (7 + dy) * 16 + (7 + dx); }
static inline int kontor_cell_dx(int cell) { return (cell & 15) - 7; }
static inline int kontor_cell_dy(int cell) { return (cell >> 4) - 7; }
/* Parse "x,y" (e.g. "+1,-2", "0,3") into a cell; -1 on error. */
int kontor_parse_cell(const char *text);
/* Format a cell as "x,y" with signs ("+1,-2", "0,0"). buf >= 8 bytes. */
const char *kontor_format_cell(int cell, char *buf);

/* ---- fairness: views and determinization ---------------------------------- */

/* What one seat may know: the state with every card the seat cannot see
 * replaced by KONTOR_UNKNOWN_BASE + class, and other seats' hidden choices by
 * KONTOR_HIDDEN. Two states that differ only in what seat cannot see give
 * byte-identical views. */
typedef struct kontor_view {
    kontor_state s;
    uint8_t seat;
} kontor_view;

/* seat -1 gives a spectator's view: every hand hidden (v->seat is KONTOR_NONE). */
void kontor_view_of(const kontor_state *s, int seat, kontor_view *v);
/* A full state consistent with the view: unseen cards dealt at random into the
 * unknown places, other seats' hidden choices undone (they choose again). */
void kontor_determinize(const kontor_view *v, kontor_rng *rng, kontor_state *out);

/* The same prepared once for a view that is determinized many times (a
 * search): kontor_determinize_with deals the same cards from the same draws
 * as kontor_determinize of the view, doing per call only the shuffle and the
 * writes; what depends on the view alone (the unseen cards of each class,
 * the runs of unknown places, the hidden decisions undone) is worked out by
 * kontor_determinizer_prepare. The view need not outlive the determinizer,
 * which is read only by the deals (threads may share one). Its fields are
 * src/core/view.c's, not an interface. */
#define KONTOR_DEAL_IDS (8 + 64 + KONTOR_MAX_CARDS + 8)
typedef struct kontor_deal_run {
    uint16_t off;   /* the run's first byte in the state */
    uint8_t len;    /* its places (at most KONTOR_PILE_MAX) */
    uint8_t from;   /* the place in the shuffled decks its cards come from */
} kontor_deal_run;
typedef struct kontor_deal_batch {
    uint64_t prod, low;       /* its draw's product of bounds and rejection bound (by its number in its deck) */
    const uint64_t *k;        /* its steps' bounds (view.c's table, from one past its last step on) */
    uint8_t at;               /* its deck's first place in id[] */
    uint8_t q;                /* at + one past its last step (in the deck) - 8 */
    uint8_t t;                /* its steps (1 to 8, the last of them) */
} kontor_deal_batch;
typedef struct kontor_deal_plan {
    uint8_t id[KONTOR_DEAL_IDS]; /* the decks' cards in ascending order, from byte 8 on */
    uint8_t nbatches, nruns;
    kontor_deal_batch batch[32]; /* the shuffles' batches of steps, in the order of the draws */
    kontor_deal_run run[KONTOR_MAX_CARDS + 1];
} kontor_deal_plan;
typedef struct kontor_determinizer {
    kontor_state s; /* the view's state, the other seats' hidden decisions undone */
    kontor_deal_plan p;
} kontor_determinizer;
void kontor_determinizer_prepare(const kontor_view *v, kontor_determinizer *d);
void kontor_determinize_with(const kontor_determinizer *d, kontor_rng *rng, kontor_state *out);

#ifdef __cplusplus
}
#endif
#endif
