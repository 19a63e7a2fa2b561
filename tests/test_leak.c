/* test_leak.c: the leak oracle: no party of a game learns from the server what the rules hide from it.
 *
 * For every variant of the server's list (/api/variants, which is the
 * engine's table), alone and with every expansion it takes, a game is played
 * to its end through a real `kontor serve` over real sockets: every seat a
 * WebSocket client playing random legal decisions, and a spectator. Then every
 * variant once more with its expansions, one seat a person (a client) and the
 * others the computer ("easy", "random"), with a spectator. At every moment
 * a seat at random also sends a decision the server must refuse (a random
 * one, often of the kind the phase asks for, often naming a card), so that
 * the engine's refusals are read too. Every byte each party receives is kept with
 * the moments (the number of decisions taken) it can have been written at:
 * every WebSocket frame, and after each decision the unauthenticated HTTP
 * answers — /api/games/ID, /api/games/ID/record, /api/games/ID/view (now, and
 * a ply K that cycles through every earlier one), /api/games/ID/analysis
 * (16 decisions from the 12th, then every 8th), /api/games every 16
 * decisions — which anybody can fetch, so they count as the spectator's.
 * (With computer seats the game moves on its own: a message may have been
 * written at any moment from the one its party had seen when it asked to the
 * newest one seen after the answer, and it passes if one of those explains it.)
 *
 * When the game is over its record is public; the oracle replays it with the
 * engine and, at each moment, asks the engine's own view (kontor_view_of) of
 * that position what each party must not know, and checks the bytes:
 *  - a card whose place the party's view masks (another seat's hand, the
 *    order of every pile below what is public, the water pile, the cards set
 *    aside, the special cards, a hidden choice) must not be named where the
 *    API names cards: "card", "choice", an element of "hand", the card of a
 *    "cells" or "under" entry; nor in the words of a "text" (a legal
 *    decision's, the timer's) or of an "error", as "card N" or "N (" (the
 *    engine's way to name a card), unless it is the card the party's own
 *    refused decision named;
 *  - the legal decisions a seat is offered ("legal": each m, kind, card, cell
 *    and text) and the words of every refusal of its decisions must be the
 *    same in states the party cannot tell apart: the oracle deals the hidden
 *    cards anew (kontor_determinize of the party's view) three times and
 *    asks the engine again (sj_legal; kontor_why_illegal as the server words
 *    it); words that change with the hidden cards tell them;
 *  - no four masked cards of one hand or pile in their order, as ids
 *    ("a,b,c,d") or as the record writes them ("A B C D", card numbers), nor
 *    three face-down event cards in their order, anywhere in the bytes (the
 *    card table is left out);
 *  - the seed, in decimal or hex, anywhere;
 *  - a decision the party's view shows as hidden (a choice, a purchase, a
 *    bribe: any seat's decision taken in the current secret phase, and
 *    Justizia's picks) must not be named as "m" outside the party's own
 *    "legal" list.
 * After the end nothing is secret any more, so the end is not checked.
 *
 * The oracle is shown to fail: the test build build/tests/kontor-leaky
 * (compiled with -DKONTOR_TEST_LEAKY, Makefile) serves the record and /view's
 * last move of a running game as the server did before issue 13, the
 * analysis of a running game (issue 18), and names another seat's card in the
 * words of each legal decision; the oracle must find all four. build/kontor, given the environment variable that switched
 * the old leaks on (KONTOR_TEST_LEAKY_RECORD=1), must leak nothing.
 */
#include "server/sjson.h"
#include <time.h>

#include "srvutil.h"

#define MAXP (KONTOR_MAX_SEATS + 1)
/* how many other deals of the hidden cards each offer and refusal is tried on */
#define NDEALS 3

typedef struct got {
    int party;  /* seat, or -1 the spectator (and anyone over HTTP) */
    int lo, hi; /* the moments it can have been written at */
    int at;     /* a view of a past moment (/view?ply=K): K, whose secrets it is held to; else -1 */
    int probe;  /* the refused decision it answers, or -1 */
    char *bytes;
    char where[64];
} got;

/* What the checks of one message (or of one run) found. */
typedef struct finding {
    int leaks, record, last, words, analysis;
    char first[1200];
} finding;

/* The record writes a round's simultaneous decisions (the declarations, the
 * cards, ...) in seat order (docs/records.md), not in the order they were
 * taken, and the positions in between are the ones the parties saw: so the
 * oracle notes who took each decision — a person's from its
 * acknowledgement, the computer's from the seats the spectator saw owing a
 * decision before and after it. */
#define MAXPLY 4096

typedef struct game_run {
    got *g;
    int n, cap;
    finding f;
    long checked, offers, refusals;
    char id[16];
    signed char by[MAXPLY + 1]; /* by[k]: the seat that took decision k (1-based), -1 not known */
    uint16_t owing[MAXPLY + 1]; /* owing[k]: the seats the spectator saw owing a decision at moment k, +1 */
} game_run;

static void keep(game_run *r, int party, int lo, int hi, int probe, const char *bytes, size_t len, const char *where) {
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 1024;
        r->g = realloc(r->g, (size_t)r->cap * sizeof *r->g);
        assert_non_null(r->g);
    }
    got *x = &r->g[r->n++];
    x->party = party;
    x->lo = lo;
    x->hi = hi;
    x->at = -1;
    x->probe = probe;
    x->bytes = malloc(len + 1);
    memcpy(x->bytes, bytes, len);
    x->bytes[len] = 0;
    snprintf(x->where, sizeof x->where, "%s", where);
}

typedef struct client {
    wsc w;
    int seat;
    json_t *state;
    int ply;          /* of the newest state */
    int asked_ply;    /* ply of the newest state when it last sent a decision */
    int asked_id;     /* that decision's "id" */
    int asked_move;   /* and the decision */
    int ncards;       /* the card table's size (welcome) */
} client;

/* Read frames of p for up to ms each, keeping each, until a state with
 * ply >= want_ply (and, if want_id, the acknowledgement of that id) has
 * arrived: returns 1; or the refusal of want_id: returns 2; 0 on timeout.
 * A state was written at its ply; any other message after p last asked and
 * before the newest state it follows was queued (the server queues a game's
 * states under its lock, before it reads the next decision). */
static int pump(client *p, game_run *r, int ms, int want_ply, int want_id) {
    if (!want_id && p->state && p->ply >= want_ply) ms = 0; /* only what has arrived */
    for (;;) {
        int op;
        char *m;
        size_t len;
        int rc = wsc_recv(&p->w, ms, &op, &m, &len);
        if (rc <= 0) return !want_id && p->state && p->ply >= want_ply;
        json_t *o = json_loadb(m, len, 0, NULL);
        const char *t = json_string_value(json_object_get(o, "type"));
        int lo = p->asked_ply < p->ply ? p->asked_ply : p->ply, done = 0, probe = -1;
        if (t && strcmp(t, "state") == 0) {
            lo = p->ply = (int)json_integer_value(json_object_get(o, "ply"));
            json_decref(p->state);
            p->state = json_incref(o);
            done = p->ply >= want_ply && (!want_id || json_integer_value(json_object_get(o, "ack")) == want_id);
            if (want_id && done && p->ply <= MAXPLY) r->by[p->ply] = (signed char)p->seat;
            if (p->seat < 0 && p->ply <= MAXPLY) {
                unsigned owe = 0;
                json_t *a = json_object_get(o, "actors");
                for (size_t i = 0; i < json_array_size(a); i++) owe |= 1u << json_integer_value(json_array_get(a, i));
                r->owing[p->ply] = (uint16_t)(owe + 1);
            }
        } else if (t && strcmp(t, "error") == 0 && p->asked_id &&
                   json_integer_value(json_object_get(o, "id")) == p->asked_id) {
            probe = p->asked_move;
            done = want_id && p->asked_id == want_id ? 2 : 0;
        } else if (t && strcmp(t, "welcome") == 0) {
            p->ncards = (int)json_array_size(json_object_get(o, "cards"));
        }
        char where[64];
        snprintf(where, sizeof where, "websocket %s", t ? t : "?");
        keep(r, p->seat, lo, p->ply, probe, m, len, where);
        json_decref(o);
        free(m);
        if (done) return done;
    }
}

/* p sends decision m (with a fresh id) and reads until it is acknowledged
 * (1) or refused (2). */
static int ask(client *p, game_run *r, kontor_move m) {
    static int next_id;
    char msg[96];
    p->asked_id = ++next_id;
    p->asked_move = m;
    p->asked_ply = p->ply;
    snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":%d,\"id\":%d}", (int)m, p->asked_id);
    assert_int_equal(wsc_send(&p->w, 1, msg, strlen(msg)), 0);
    int rc = pump(p, r, 5000, p->ply + 1, p->asked_id);
    if (!rc) fail_msg("seat %d: no answer to decision %d within 5 s", p->seat, (int)m);
    return rc;
}

static int offered(json_t *legal, int m) {
    for (size_t i = 0; i < json_array_size(legal); i++)
        if (json_integer_value(json_object_get(json_array_get(legal, i), "m")) == m) return 1;
    return 0;
}

/* A decision p is not offered: half the time of a kind p is offered (the
 * phase's), else any kind; its value half the time a card id. */
static kontor_move refused_one(kontor_rng *rng, const client *p) {
    json_t *legal = json_object_get(p->state, "legal");
    size_t n = json_array_size(legal);
    for (;;) {
        int kind = 1 + (int)kontor_rng_below(rng, 15);
        if (n && kontor_rng_below(rng, 2))
            kind = KONTOR_MOVE_KIND(
                (int)json_integer_value(json_object_get(json_array_get(legal, kontor_rng_below(rng, (uint32_t)n)), "m")));
        int v = (int)kontor_rng_below(rng, kontor_rng_below(rng, 2) && p->ncards > 0 ? (uint32_t)p->ncards : 256);
        kontor_move m = KONTOR_MOVE(kind, v);
        if (!offered(legal, m)) return m;
    }
}

static int fetch(game_run *r, const srv *s, int lo, const char *path) {
    char *resp = NULL;
    int st = http_request("127.0.0.1", s->port, "GET", path, NULL, &resp);
    assert_true(st > 0);
    if (resp) keep(r, -1, lo, lo, -1, resp, strlen(resp), path);
    free(resp);
    return r->n - 1;
}

/* ---- the secrets of one position for one party -------------------------------- */

typedef struct secrets {
    uint8_t card[KONTOR_MAX_CARDS]; /* 1: the party may not know where this card is */
    uint8_t event[KONTOR_EVENTS_MAX]; /* 1: an event card still face down */
    uint8_t chosen[KONTOR_MAX_CARDS]; /* 1: a hidden choice (the card may be known, not that it was chosen) */
    char seq[64][48];               /* forbidden sequences (ids and record numbers) */
    int nseq;
    int move[KONTOR_MAX_SEATS * 8];  /* hidden decisions */
    int nmove;
} secrets;

static void add_seq(secrets *x, const char *s) {
    if (x->nseq < 64) snprintf(x->seq[x->nseq++], sizeof x->seq[0], "%s", s);
}

/* The masked cards of one place (a hand, a pile) in order: each is secret,
 * and every four in a row are a forbidden sequence. */
static void masked_run(secrets *x, const kontor_state *s, const uint8_t *full, const uint8_t *seen, int n) {
    int ids[KONTOR_MAX_CARDS], k = 0;
    for (int i = 0; i < n; i++)
        if (full[i] < s->cfg->cards->ncards && seen[i] >= KONTOR_UNKNOWN_BASE) {
            x->card[full[i]] = 1;
            ids[k++] = full[i];
        }
    for (int i = 0; i + 4 <= k; i++) {
        char a[48], b[48];
        snprintf(a, sizeof a, "%d,%d,%d,%d", ids[i], ids[i + 1], ids[i + 2], ids[i + 3]);
        snprintf(b, sizeof b, " %d %d %d %d", s->cfg->cards->card[ids[i]].number, s->cfg->cards->card[ids[i + 1]].number,
                 s->cfg->cards->card[ids[i + 2]].number, s->cfg->cards->card[ids[i + 3]].number);
        add_seq(x, a);
        add_seq(x, b);
    }
}

static void pile_cards(const kontor_state *s, const kontor_pile *p, uint8_t *out) {
    for (int i = 0; i < p->n; i++) out[i] = (uint8_t)kontor_pile_card(s, p, i);
}

static void masked_pile(secrets *x, const kontor_state *s, const kontor_state *w, const kontor_pile *full,
                        const kontor_pile *seen) {
    uint8_t a[KONTOR_PILE_MAX], b[KONTOR_PILE_MAX];
    pile_cards(s, full, a);
    pile_cards(w, seen, b);
    masked_run(x, s, a, b, full->n);
}

/* What party may not know at moment n: from the engine's view of states[n]. */
static void secrets_of(secrets *x, kontor_state *const *states, const kontor_ply *played, int n, int party) {
    memset(x, 0, sizeof *x);
    const kontor_state *s = states[n];
    kontor_view v;
    kontor_view_of(s, party, &v);
    const kontor_state *w = &v.s;
    for (int q = 0; q < s->cfg->nseats; q++) {
        masked_run(x, s, s->hand[q], w->hand[q], s->hand_n[q]);
        masked_pile(x, s, w, &s->dock_pile[q], &w->dock_pile[q]);
    }
    masked_pile(x, s, w, &s->water_pile, &w->water_pile);
    masked_pile(x, s, w, &s->aside, &w->aside);
    masked_pile(x, s, w, &s->special_pile, &w->special_pile);
    /* the face-down event cards, as the record numbers them (from 1) */
    for (int i = s->event_next; i < s->event_n; i++)
        if (s->event_deck[i] < KONTOR_EVENTS_MAX) x->event[s->event_deck[i]] = 1;
    for (int i = s->event_next; i + 3 <= s->event_n; i++) {
        char b[48];
        snprintf(b, sizeof b, " %d %d %d", s->event_deck[i] + 1, s->event_deck[i + 1] + 1, s->event_deck[i + 2] + 1);
        add_seq(x, b);
    }
    /* hidden decisions: a seat whose decision the view hides has its
     * decisions of the current secret phase hidden (Justizia's picks stay
     * the picker's) */
    for (int q = 0; q < s->cfg->nseats; q++) {
        if (q == party) continue;
        int hidden = w->choice[q] == KONTOR_HIDDEN || w->buy[q] == KONTOR_HIDDEN || w->bribe[q] == KONTOR_HIDDEN;
        if (hidden && s->choice[q] < s->cfg->cards->ncards) x->chosen[s->choice[q]] = 1;
        for (int j = n - 1; j >= 0; j--) {
            if (s->phase != KONTOR_PHASE_SELECT &&
                (!hidden || states[j]->phase != s->phase || states[j]->round != s->round))
                break;
            if (played[j].seat == q && x->nmove < (int)(sizeof x->move / sizeof *x->move))
                x->move[x->nmove++] = played[j].move;
        }
    }
}

/* ---- checking the bytes ------------------------------------------------------- */

/* One message checked at one moment k: the position and what its party may
 * not know there. */
typedef struct moment {
    int k;
    const kontor_state *s;
    const secrets *x;
    uint64_t seed;
    const char *id; /* the game's */
} moment;

static void leak(finding *f, const got *x, int k, const char *what) {
    f->leaks++;
    if (strncmp(x->where, "/api/games/", 11) == 0 && strstr(x->where, "/record")) f->record++;
    if (strstr(what, "hidden decision") && strstr(x->where, "/view")) f->last++;
    if (strstr(what, "words")) f->words++;
    if (strstr(x->where, "/analysis")) f->analysis++;
    if (!f->first[0])
        snprintf(f->first, sizeof f->first, "party %d at decision %d, %s: %s in %.600s", x->party, k, x->where, what,
                 x->bytes);
}

static int is_secret_card(const secrets *x, json_t *v) {
    if (!json_is_integer(v)) return 0;
    json_int_t c = json_integer_value(v);
    return c >= 0 && c < KONTOR_MAX_CARDS && x->card[c];
}

/* The number of a card of x->card that words t name ("card N", or "N (" as
 * the engine's words name a card), other than the number echo; -1 if none. */
static int secret_in_words(const char *t, const secrets *x, const kontor_cardset *cs, int echo) {
    for (const char *p = t; *p; p++) {
        if (*p < '0' || *p > '9' || (p > t && p[-1] != ' ')) continue;
        char *e;
        long n = strtol(p, &e, 10);
        int named = (e[0] == ' ' && e[1] == '(') || (p - t >= 5 && strncmp(p - 5, "card ", 5) == 0);
        if (named && n != echo)
            for (int id = 0; id < cs->ncards; id++)
                if (cs->card[id].number == n && x->card[id]) return (int)n;
        p = e - 1;
    }
    return -1;
}

static void walk(finding *f, const got *g, const moment *mo, json_t *v, const char *key, int in_legal, int echo) {
    const secrets *x = mo->x;
    char what[160];
    if (json_is_object(v) && key && strcmp(key, "event") == 0) {
        /* an event card: {"card": its index in the event deck, name, text} */
        json_t *c = json_object_get(v, "card");
        if (json_is_integer(c) && json_integer_value(c) >= 0 && json_integer_value(c) < KONTOR_EVENTS_MAX &&
            x->event[json_integer_value(c)]) {
            snprintf(what, sizeof what, "face-down event card %lld", (long long)json_integer_value(c));
            leak(f, g, mo->k, what);
        }
        return;
    }
    if (json_is_object(v)) {
        /* a tavern event's "card" is its yes/no, not a card (kontor.h, KONTOR_EV_TAVERN) */
        const char *kind = json_string_value(json_object_get(v, "kind"));
        int tavern = kind && strcmp(kind, "tavern") == 0 && json_is_integer(json_object_get(v, "seq"));
        const char *k;
        json_t *e;
        json_object_foreach(v, k, e) {
            if (tavern && strcmp(k, "card") == 0) continue;
            walk(f, g, mo, e, k, in_legal || strcmp(k, "legal") == 0, echo);
        }
        return;
    }
    if (json_is_array(v)) {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) {
            if (key && strcmp(key, "hand") == 0 && is_secret_card(x, e)) {
                snprintf(what, sizeof what, "hidden card %lld in a hand", (long long)json_integer_value(e));
                leak(f, g, mo->k, what);
            } else if (key && (strcmp(key, "cells") == 0 || strcmp(key, "under") == 0) && json_array_size(e) == 3 &&
                       is_secret_card(x, json_array_get(e, 2))) {
                snprintf(what, sizeof what, "hidden card in \"%s\"", key);
                leak(f, g, mo->k, what);
            } else {
                walk(f, g, mo, e, key, in_legal, echo);
            }
        }
        return;
    }
    if (!key) return;
    if (json_is_string(v) && (strcmp(key, "text") == 0 || strcmp(key, "error") == 0)) {
        int n = secret_in_words(json_string_value(v), x, mo->s->cfg->cards, echo);
        if (n >= 0) {
            snprintf(what, sizeof what, "hidden card %d named in the words \"%.80s\"", n, json_string_value(v));
            leak(f, g, mo->k, what);
        }
    }
    if ((strcmp(key, "card") == 0 || strcmp(key, "choice") == 0) && is_secret_card(x, v)) {
        snprintf(what, sizeof what, "hidden card %lld as \"%s\"", (long long)json_integer_value(v), key);
        leak(f, g, mo->k, what);
    }
    if (strcmp(key, "choice") == 0 && json_is_integer(v) && json_integer_value(v) >= 0 &&
        json_integer_value(v) < KONTOR_MAX_CARDS && x->chosen[json_integer_value(v)]) {
        snprintf(what, sizeof what, "hidden choice %lld", (long long)json_integer_value(v));
        leak(f, g, mo->k, what);
    }
    if (strcmp(key, "m") == 0 && !in_legal && json_is_integer(v))
        for (int i = 0; i < x->nmove; i++)
            if (json_integer_value(v) == x->move[i]) {
                snprintf(what, sizeof what, "hidden decision m=%d", x->move[i]);
                leak(f, g, mo->k, what);
            }
}

/* A refusal of seat's decision m in s, worded as the server words it
 * (src/server/apply.c, apply_once). */
static void refusal_words(const kontor_state *s, const char *id, int seat, kontor_move m, char *buf, size_t cap) {
    char why[200];
    if (kontor_over(s)) snprintf(buf, cap, "game '%s' is over", id);
    else if (!((kontor_actors(s) >> seat) & 1))
        snprintf(buf, cap, "game '%s' round %d: %s owes no decision now", id, s->round, kontor_seat_name(s, seat));
    else snprintf(buf, cap, "game '%s' round %d: %s", id, s->round, kontor_why_illegal(s, seat, m, why, sizeof why));
}

/* The offers ("legal") and the refusal in o, which seat g->party received,
 * must be what the engine says in the true position and in NDEALS others its
 * party cannot tell from it (the hidden cards dealt anew). */
static void check_words(finding *f, const got *g, const moment *mo, json_t *o) {
    const char *type = json_string_value(json_object_get(o, "type"));
    json_t *legal = json_object_get(o, "legal");
    const char *said = json_string_value(json_object_get(o, "error"));
    int offers = type && strcmp(type, "state") == 0 && legal;
    int refusal = type && strcmp(type, "error") == 0 && g->probe >= 0 && said &&
                  strcmp(json_string_value(json_object_get(o, "code")), "illegal") == 0;
    if (g->party < 0 || (!offers && !refusal)) return;
    kontor_view v;
    kontor_view_of(mo->s, g->party, &v);
    kontor_rng rng;
    kontor_rng_seed(&rng, 0x5eedULL * (uint64_t)(mo->k + 1) + (uint64_t)g->party);
    char what[520];
    for (int d = -1; d < NDEALS; d++) {
        kontor_state t = *mo->s;
        if (d >= 0) kontor_determinize(&v, &rng, &t);
        const char *deal = d < 0 ? "the true position" : "another deal";
        if (offers) {
            json_t *want = sj_legal(&t, g->party);
            if (!json_equal(want, legal)) {
                size_t i = 0;
                while (i < json_array_size(want) && json_equal(json_array_get(want, i), json_array_get(legal, i))) i++;
                char *a = json_dumps(json_array_get(legal, i), JSON_COMPACT | JSON_ENCODE_ANY);
                char *b = json_dumps(json_array_get(want, i), JSON_COMPACT | JSON_ENCODE_ANY);
                snprintf(what, sizeof what, "offered words that change with the hidden cards: offer %zu is %.200s, in %s %.200s",
                         i, a ? a : "none", deal, b ? b : "none");
                free(a);
                free(b);
                json_decref(want);
                leak(f, g, mo->k, what);
                return;
            }
            json_decref(want);
        } else {
            char want[400];
            refusal_words(&t, mo->id, g->party, (kontor_move)g->probe, want, sizeof want);
            if (strcmp(want, said) != 0) {
                snprintf(what, sizeof what, "refusal words that change with the hidden cards: '%.200s', in %s '%.200s'",
                         said, deal, want);
                leak(f, g, mo->k, what);
                return;
            }
        }
    }
}

/* The number of the card that g's refused decision named, or -1. */
static int echo_of(const got *g, const kontor_state *s) {
    int kind = KONTOR_MOVE_KIND(g->probe), v = KONTOR_MOVE_VALUE(g->probe);
    if (g->probe < 0 || (kind != KONTOR_MOVE_CHOOSE && kind != KONTOR_MOVE_KEEP && kind != KONTOR_MOVE_DISCARD) ||
        v >= s->cfg->cards->ncards)
        return -1;
    return s->cfg->cards->card[v].number;
}

static void check_one(finding *f, const got *g, const moment *mo) {
    char what[96];
    char dec[24], hex[24];
    snprintf(dec, sizeof dec, "%llu", (unsigned long long)mo->seed);
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)mo->seed);
    if (strstr(g->bytes, dec) || strstr(g->bytes, hex)) leak(f, g, mo->k, "the seed");
    json_t *o = g->bytes[0] == '{' ? json_loads(g->bytes, 0, NULL) : NULL;
    char *text = g->bytes;
    if (o) {
        walk(f, g, mo, o, NULL, 0, echo_of(g, mo->s));
        check_words(f, g, mo, o);
        json_object_del(o, "cards"); /* the card table names every card, by design */
        text = json_dumps(o, JSON_COMPACT);
    }
    for (int i = 0; i < mo->x->nseq; i++)
        if (strstr(text, mo->x->seq[i])) {
            snprintf(what, sizeof what, "hidden order '%s'", mo->x->seq[i]);
            leak(f, g, mo->k, what);
        }
    if (o) {
        free(text);
        json_decref(o);
    }
}

/* g passes if one moment it can have been written at explains it; a moment
 * after the end has nothing secret. Otherwise its findings at its first
 * moment count. */
static void check_got(game_run *r, const got *g, kontor_state *const *states, const secrets *sec, int nply,
                      uint64_t seed) {
    finding first;
    memset(&first, 0, sizeof first);
    r->checked++;
    if (g->probe >= 0) r->refusals++;
    if (strstr(g->bytes, "\"legal\":[{")) r->offers++;
    if (g->at >= 0) {
        /* a past moment's view: nothing secret if the game may have ended
         * when it was fetched (a finished game shows every hand); else held
         * to the secrets of the moment it shows */
        for (int k = g->lo; k <= g->hi && k <= nply; k++)
            if (kontor_over(states[k])) return;
        moment mo = {g->at, states[g->at], &sec[g->at * MAXP + g->party + 1], seed, r->id};
        check_one(&first, g, &mo);
        if (!first.leaks) return;
    }
    for (int k = g->lo; g->at < 0 && k <= g->hi && k <= nply; k++) {
        if (kontor_over(states[k])) return;
        finding f;
        memset(&f, 0, sizeof f);
        moment mo = {k, states[k], &sec[k * MAXP + g->party + 1], seed, r->id};
        check_one(&f, g, &mo);
        if (!f.leaks) return;
        if (k == g->lo) first = f;
    }
    r->f.leaks += first.leaks;
    r->f.record += first.record;
    r->f.last += first.last;
    r->f.words += first.words;
    r->f.analysis += first.analysis;
    if (!r->f.first[0]) memcpy(r->f.first, first.first, sizeof first.first);
}

/* ---- one game ----------------------------------------------------------------- */

/* Who took decision k (1-based): noted, or the one computer seat that owed
 * one before it, or the one that owed one before and none after. */
static int who_decided(const game_run *r, int k, unsigned people) {
    if (r->by[k] >= 0) return r->by[k];
    if (!r->owing[k - 1] || !r->owing[k]) return -1;
    unsigned before = (r->owing[k - 1] - 1u) & ~people, after = (r->owing[k] - 1u);
    if (before && !(before & (before - 1))) return __builtin_ctz(before);
    unsigned gone = before & ~after;
    return gone && !(gone & (gone - 1)) ? __builtin_ctz(gone) : -1;
}

/* The positions as the game went: each seat's decisions in the record's
 * order (a seat's own order is kept), taken in the order noted. A decision
 * nobody saw taken (the computer's, before the spectator came) goes to the
 * first computer seat whose next decision is legal then: simultaneous
 * decisions give the same position in any order. Fills states[0..nply] and
 * played[0..nply). */
static void replay_as_played(const game_run *r, const kontor_record *rec, unsigned people, kontor_state **states,
                             kontor_ply *played) {
    kontor_error err;
    states[0] = malloc(sizeof **states);
    assert_int_equal(kontor_new_from_deal(states[0], &rec->cfg, &rec->deal, &err), KONTOR_OK);
    int next[KONTOR_MAX_SEATS] = {0};
    for (int k = 1; k <= rec->nply; k++) {
        int q = who_decided(r, k, people);
        for (int c = 0; q < 0 && c < rec->cfg.nseats; c++) {
            if ((people >> c) & 1) continue;
            while (next[c] < rec->nply && rec->ply[next[c]].seat != c) next[c]++;
            if (next[c] < rec->nply && kontor_is_legal(states[k - 1], c, rec->ply[next[c]].move)) q = c;
        }
        if (q < 0) fail_msg("game %s: cannot tell who took decision %d", r->id, k);
        while (next[q] < rec->nply && rec->ply[next[q]].seat != q) next[q]++;
        if (next[q] >= rec->nply) fail_msg("game %s: decision %d by seat %d is not in the record", r->id, k, q);
        played[k - 1] = rec->ply[next[q]++];
        states[k] = malloc(sizeof **states);
        *states[k] = *states[k - 1];
        kontor_log log;
        log.n = 0;
        if (kontor_apply(states[k], q, played[k - 1].move, &log) != KONTOR_OK)
            fail_msg("game %s: decision %d (seat %d, %d) does not follow", r->id, k, q, (int)played[k - 1].move);
    }
}

/* What anyone may fetch at moment now. With computer seats the game may
 * move on meanwhile: each answer's last moment is the ply of a read of
 * /api/games/ID after it. */
static void fetch_all(game_run *r, const srv *s, int now, int bots, int *cyc) {
    char path[128];
    int from = r->n;
    snprintf(path, sizeof path, "/api/games/%s", r->id);
    fetch(r, s, now, path);
    snprintf(path, sizeof path, "/api/games/%s/record", r->id);
    fetch(r, s, now, path);
    snprintf(path, sizeof path, "/api/games/%s/view", r->id);
    fetch(r, s, now, path);
    /* a past moment's view shows what the party could see then: it is held to
     * the secrets of that moment (a card chosen openly then may be chosen again,
     * hidden, now: the old view still names it, and that is no leak) */
    /* K strides through the past (37 is prime to most game lengths), so
     * that games of people alone, whose calls come once a moment, ask for
     * truly past moments too, not K == now */
    int at = (int)(((unsigned)(*cyc)++ * 37u) % (unsigned)(now + 1));
    snprintf(path, sizeof path, "/api/games/%s/view?ply=%d", r->id, at);
    int vi = fetch(r, s, now, path); /* fetch may move r->g: index after it */
    r->g[vi].at = at;
    /* issue 18: the search's reading of every decision, hands included; a
     * constant 409 while the game runs: 16 moments from the 12th (when the
     * first round's card choices are in the record: the leaky test build
     * computes its analysis once, at the first request, and it must hold
     * hand cards still hidden), then every 8th (so that the sanitizer run
     * stays within its time) */
    if (now >= 12 && (now < 28 || now % 8 == 3)) {
        snprintf(path, sizeof path, "/api/games/%s/analysis", r->id);
        fetch(r, s, now, path);
        /* the leaky test build starts its analysis here; the workers take it
         * up only while no game with a person owes a move, so wait until it
         * is ready: read while the hands it names are still hidden */
        for (int i = 0; now == 12 && i < 300 && strstr(r->g[r->n - 1].bytes, "\"pending\""); i++) {
            struct timespec ts = {0, 100 * 1000 * 1000};
            nanosleep(&ts, NULL);
            fetch(r, s, now, path);
        }
    }
    if (now % 16 == 1) fetch(r, s, now, "/api/games");
    if (!bots) return;
    snprintf(path, sizeof path, "/api/games/%s", r->id);
    int last = fetch(r, s, now, path);
    json_t *o = json_loads(r->g[last].bytes, 0, NULL);
    int hi = (int)json_integer_value(json_object_get(o, "ply"));
    json_decref(o);
    assert_true(hi >= now);
    for (int i = from; i < r->n; i++) r->g[i].hi = hi;
}

/* Play variant (with options) to its end, seat i a client where kinds[i] is
 * "human" (else the computer at that level) and a spectator, each client
 * also sending a decision the server must refuse at every moment; then check
 * every byte kept. */
static void play_and_check(const srv *s, const char *variant, const char *options, int nseats,
                           const char *const *kinds, uint64_t rseed, game_run *r) {
    memset(r, 0, sizeof *r);
    memset(r->by, -1, sizeof r->by);
    char body[320];
    char seats[128] = "";
    int bots = 0;
    unsigned people = 0;
    for (int i = 0; i < nseats; i++) {
        snprintf(seats + strlen(seats), sizeof seats - strlen(seats), "%s\"%s\"", i ? "," : "", kinds[i]);
        bots += strcmp(kinds[i], "human") != 0;
        if (strcmp(kinds[i], "human") == 0) people |= 1u << i;
    }
    snprintf(body, sizeof body, "{\"variant\":\"%s\",\"options\":\"%s\",\"seats\":[%s]}", variant, options, seats);
    int st;
    char *resp = NULL;
    st = http_request("127.0.0.1", s->port, "POST", "/api/games", body, &resp);
    if (st != 201) fail_msg("creating %s %s: %d %s", variant, options, st, resp ? resp : "");
    keep(r, -1, 0, 0, -1, resp, strlen(resp), "POST /api/games (the creator's)");
    json_t *g = json_loads(resp, 0, NULL);
    free(resp);
    snprintf(r->id, sizeof r->id, "%s", json_string_value(json_object_get(g, "id")));
    /* the spectator first (it notes who owes a decision), last in p */
    client p[MAXP];
    int np = 0;
    for (int i = 0; i <= nseats; i++)
        if (i == nseats || strcmp(kinds[i], "human") == 0) np++;
    for (int i = -1; i < nseats; i++) {
        if (i >= 0 && strcmp(kinds[i], "human") != 0) continue;
        char err[128], msg[256];
        client *c = i < 0 ? &p[np - 1] : &p[__builtin_popcount(people & ((1u << i) - 1))];
        memset(c, 0, sizeof *c);
        c->seat = i;
        assert_int_equal(wsc_connect(&c->w, "127.0.0.1", s->port, "/ws", err, sizeof err), 0);
        if (c->seat >= 0)
            snprintf(msg, sizeof msg, "{\"type\":\"join\",\"game\":\"%s\",\"token\":\"%s\"}", r->id, token_of(g, i));
        else
            snprintf(msg, sizeof msg, "{\"type\":\"watch\",\"game\":\"%s\"}", r->id);
        assert_int_equal(wsc_send(&c->w, 1, msg, strlen(msg)), 0);
        assert_int_equal(pump(c, r, 2000, 0, 0), 1);
    }
    client *watcher = &p[np - 1];
    kontor_rng rng;
    kontor_rng_seed(&rng, rseed);
    int now = 0, fetched = -1, cyc = 0;
    for (int guard = 0; guard < 20000; guard++) {
        for (int i = 0; i < np; i++) pump(&p[i], r, 0, 1 << 30, 0);
        now = watcher->ply;
        if (json_is_true(json_object_get(watcher->state, "over"))) break;
        if (now != fetched) {
            /* every party is at the newest moment: a seat at random asks for
             * a decision it is not offered, then anyone fetches what anyone may */
            for (int i = 0; i < np - 1; i++) pump(&p[i], r, 3000, now, 0);
            client *prober = &p[kontor_rng_below(&rng, (uint32_t)(np - 1))];
            ask(prober, r, refused_one(&rng, prober));
            fetch_all(r, s, now, bots, &cyc);
            fetched = now;
        }
        /* a seat with something to decide, taken at random */
        int who[MAXP], nw = 0;
        for (int i = 0; i < np - 1; i++)
            if (json_array_size(json_object_get(p[i].state, "legal")) > 0) who[nw++] = i;
        if (!nw) {
            /* the computer owes the next decision */
            assert_true(bots);
            if (!pump(watcher, r, 5000, now + 1, 0)) fail_msg("%s: the computer did not decide within 5 s", variant);
            continue;
        }
        client *me = &p[who[kontor_rng_below(&rng, (uint32_t)nw)]];
        json_t *legal = json_object_get(me->state, "legal");
        kontor_move m = (kontor_move)json_integer_value(
            json_object_get(json_array_get(legal, kontor_rng_below(&rng, (uint32_t)json_array_size(legal))), "m"));
        /* refused only when the computer moved on meanwhile; else every
         * party reads the new moment before the next decision is taken */
        if (ask(me, r, m) == 2) assert_true(bots);
        else
            for (int i = 0; i < np; i++)
                if (&p[i] != me && !pump(&p[i], r, 3000, me->ply, 0)) fail_msg("party %d missed decision %d", p[i].seat, me->ply);
    }
    assert_true(json_is_true(json_object_get(watcher->state, "over")));
    for (int i = 0; i < np; i++) {
        wsc_close(&p[i].w);
        json_decref(p[i].state);
    }

    /* the record, public now: every position of the game */
    kontor_record rec;
    get_record(s, r->id, &rec);
    assert_int_equal(rec.nply, now);
    assert_true(rec.has_seed);
    assert_true(rec.nply <= MAXPLY);
    kontor_state **states = calloc((size_t)rec.nply + 1, sizeof *states);
    kontor_ply *played = calloc((size_t)rec.nply + 1, sizeof *played);
    replay_as_played(r, &rec, people, states, played);

    secrets *sec = malloc(sizeof *sec * (size_t)(rec.nply + 1) * MAXP);
    for (int k = 0; k <= rec.nply; k++)
        for (int q = -1; q < nseats; q++) secrets_of(&sec[k * MAXP + q + 1], states, played, k, q);
    for (int i = 0; i < r->n; i++) check_got(r, &r->g[i], states, sec, rec.nply, rec.seed);
    free(sec);
    for (int k = 0; k <= rec.nply; k++) free(states[k]);
    free(states);
    free(played);
    kontor_record_release(&rec);
    json_decref(g);
}

static void free_run(game_run *r) {
    for (int i = 0; i < r->n; i++) free(r->g[i].bytes);
    free(r->g);
}

/* ---- tests -------------------------------------------------------------------- */

/* Each variant of the server's list, alone and with every expansion it takes
 * (with = 0, 1), or, with bots, once with every expansion and one person. */
static void every_variant(int bots) {
    srv s = start();
    int st;
    json_t *vs = http_json(&s, "GET", "/api/variants", NULL, &st);
    assert_int_equal(st, 200);
    json_t *list = json_object_get(vs, "variants");
    assert_true(json_array_size(list) >= 19);
    int games = 0;
    long bytes = 0, checked = 0, offers = 0, refusals = 0;
    for (size_t i = 0; i < json_array_size(list); i++) {
        json_t *v = json_array_get(list, i);
        const char *name = json_string_value(json_object_get(v, "name"));
        int nseats = (int)json_integer_value(json_object_get(v, "seats"));
        json_t *exp = json_object_get(v, "expansions");
        int has = json_array_size(exp) > 0;
        for (int with = bots ? has : 0; with <= has; with++) {
            char opts[128] = "";
            for (size_t k = 0; with && k < json_array_size(exp); k++) {
                if (k) strcat(opts, ",");
                strcat(opts, json_string_value(json_array_get(exp, k)));
            }
            /* with the computer: the person's seat goes round, the others
             * are "easy" and "random" in turn */
            const char *kinds[KONTOR_MAX_SEATS];
            for (int q = 0; q < nseats; q++)
                kinds[q] = !bots || q == (int)i % nseats ? "human" : (q % 2 ? "easy" : "random");
            game_run r;
            play_and_check(&s, name, opts, nseats, kinds, (bots ? 5000 : 1000) + i * 2 + (size_t)with, &r);
            for (int k = 0; k < r.n; k++) bytes += (long)strlen(r.g[k].bytes);
            checked += r.checked;
            offers += r.offers;
            refusals += r.refusals;
            games++;
            if (r.f.leaks) fail_msg("%s %s: %d leaks; the first: %s", name, opts, r.f.leaks, r.f.first);
            free_run(&r);
        }
    }
    print_message("leak oracle%s: %d games, %ld messages checked (%ld offers, %ld refusals), %ld bytes\n",
                  bots ? " with computer seats" : "", games, checked, offers, refusals, bytes);
    assert_true(offers > 1000 && refusals > 1000);
    json_decref(vs);
    stop(&s, SIGTERM);
}

static void test_no_party_learns_a_secret_in_any_variant(void **state) {
    (void)state;
    every_variant(0);
}

static void test_no_person_beside_computers_learns_a_secret(void **state) {
    (void)state;
    every_variant(1);
}

static const char *const two_humans[] = {"human", "human"};

/* The oracle can fail: the test build build/tests/kontor-leaky is caught by
 * its record and its /view (the server as it was before issue 13) and by the
 * words of its legal decisions. */
static void test_the_oracle_catches_the_leaky_test_build(void **state) {
    (void)state;
    srv s = start_bin(leaky_bin(), NULL, NULL);
    game_run r;
    play_and_check(&s, "basic", "", 2, two_humans, 7, &r);
    if (!r.f.record || !r.f.last || !r.f.words || !r.f.analysis)
        fail_msg("the oracle missed the test build's leaks: %d from /record, %d from /view's last, %d in words, "
                 "%d from /analysis (of %d)",
                 r.f.record, r.f.last, r.f.words, r.f.analysis, r.f.leaks);
    free_run(&r);
    stop(&s, SIGTERM);
}

/* The switch is the test build's alone: build/kontor with the old
 * environment variable set still keeps a running game's record and last
 * decision to itself. */
static void test_the_production_server_has_no_leaky_switch(void **state) {
    (void)state;
    srv s = start_env("KONTOR_TEST_LEAKY_RECORD", "1");
    game_run r;
    play_and_check(&s, "basic", "", 2, two_humans, 7, &r);
    if (r.f.leaks) fail_msg("%d leaks; the first: %s", r.f.leaks, r.f.first);
    free_run(&r);
    stop(&s, SIGTERM);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_the_oracle_catches_the_leaky_test_build, setup, teardown),
        cmocka_unit_test_setup_teardown(test_the_production_server_has_no_leaky_switch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_party_learns_a_secret_in_any_variant, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_person_beside_computers_learns_a_secret, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
