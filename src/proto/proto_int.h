/* proto_int.h: what the files of src/proto share and nobody else needs:
 * event words and the engine's knowledge of the game (know.c). */
#ifndef KONTOR_PROTO_INT_H
#define KONTOR_PROTO_INT_H

#include "kontor/proto.h"

/* Piles as the protocol names them: 0 red dock, 1 black dock, 2 water. */
enum { PROTO_PILE_WATER = 2, PROTO_NPILES = 3 };

const char *proto_pile_name(int pile);
int proto_pile_index(const char *w);     /* -1 when not a pile name */
int proto_takeback_index(const char *w); /* KONTOR_TAKEBACK_*, or -1 */
int proto_end_index(const char *w);      /* kontor_end, or -1 */
int proto_word_index(const char *w, const char *const *names, int n);

/* The top card id of a pile in a state or view (KONTOR_NONE when empty; a
 * masked value when the viewer cannot see it). */
int proto_pile_top(const kontor_state *s, int pile);

/* ---- what the controller tells an engine ------------------------------------
 * Both call emit(ctx, event) for each event in order and stop at the first
 * non-zero return, which they return. tops[] holds the pile tops told so far
 * (card ids), updated as they are told. */
typedef int (*proto_emit_fn)(void *ctx, const char *event);
/* The deal as seat v->seat sees it: cardset, card..., board..., hand, top x3. */
int proto_deal_events(const kontor_view *v, int tops[3], proto_emit_fn emit, void *ctx);
/* One decision: prev is the seat's view before it, v after it, log its
 * events. Adds the decisions the log does not show ("ship red -", "remove
 * red -") and the pile tops that changed. */
int proto_decision_events(const kontor_view *prev, const kontor_view *v, const kontor_log *log, int tops[3],
                          proto_emit_fn emit, void *ctx);

/* An engine's answer to genchoice or genplace as a decision for the phase of
 * s: a card number or "pass"; "ship|remove|place CELL|-" or a bare cell for a
 * placement. -1 when the text is no decision (legality is not checked). */
int proto_parse_answer(const kontor_state *s, const char *answer, kontor_move *m);

/* ---- the engine's knowledge of its game ---------------------------------------
 *
 * The engine never sees hidden information, yet its agent wants a kontor_view
 * and the rules engine wants a full state to apply decisions to. So the
 * engine keeps a full state `s` that is *consistent* with everything its seat
 * has been told: a determinization. Unknown cards (the opponent's hand, the
 * inside of the piles) are guesses; whenever an event shows where a card
 * really is (the opponent reveals it, it turns up on top of a pile), the guess
 * is corrected by swapping that card with the guess in its place, which is an
 * unknown card of the same class, so every earlier fact stays true. Decisions
 * are then replayed with kontor_apply, and every event the controller reports
 * that follows from a decision (taxes, draws, scoring, ...) is checked against
 * the events kontor_apply produced: a mismatch is a "bad event". Because the
 * state agrees with the truth on everything the seat can see, kontor_view_of
 * gives the agent exactly the view the controller's own state would give
 * (tested byte for byte in tests/test_proto.c). */

#define KNOW_QUEUE 64

typedef struct know {
    int have_game;          /* newgame received */
    int started;            /* the deal has been built into s */
    int seat;
    kontor_config cfg;      /* variant and options; cards come from "card" events */
    kontor_rng rng;         /* guesses for unknown cards */

    /* set-up, before the deal is built */
    char *cardtext;         /* the "card" events, as a card file (malloc'd) */
    size_t cardlen, cardcap;
    int ncardlines;
    int cards_ready;        /* cfg.cards points at the set */
    kontor_cardset cardset; /* the set the card events made (cfg.cards points here) */
    uint8_t board_at[KONTOR_CELLS]; /* card ids on the board at the deal */
    uint8_t hand[KONTOR_HAND_MAX];
    int hand_n, have_hand;
    int top[PROTO_NPILES];  /* card ids, KONTOR_NONE, or -1 not told */

    kontor_state s;         /* the consistent full state */
    /* the config s points at, held (kontor_config_retain) from the deal until
     * know_release: the next newgame or the engine's end; the agent hears of
     * the next game (its newgame) before it reads a state again, so nothing
     * reads this game's config once its entry may be reused (intern.c) */
    const kontor_config *held;

    /* choices of the current choose phase, as reported (pass/reveal) */
    kontor_event chosen[KONTOR_MAX_SEATS];
    int nchosen;
    /* events that the last decision produced and that the controller has
     * still to report, in order */
    kontor_event queue[KNOW_QUEUE];
    int qhead, qn;

    /* the cards known before the last decision: a pile top that the rules
     * engine marked public after a draw is a guess until a "top" event */
    uint64_t pub_before[2];
    /* the last decision's events, for the agent's observe() */
    kontor_log last_log;
    int have_log;
} know;

void know_init(know *k);
void know_release(know *k);
/* Start a game: variant and options. Returns KONTOR_PE_OK or BAD_OPTION. */
kontor_proto_err know_newgame(know *k, const char *variant, const char *options, int seat, uint64_t seed,
                              char *msg, size_t cap);
/* Take one observed event (argv[0] is its name). */
kontor_proto_err know_event(know *k, int argc, const char *const *argv, char *msg, size_t cap);
/* Build the deal if it is not built yet (genchoice, genplace and showboard
 * need the game). */
kontor_proto_err know_start(know *k, char *msg, size_t cap);

#endif
