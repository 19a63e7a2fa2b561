/* test_server_variants.c: every variant and expansion played to its end through kontor serve, each state checked.
 *
 * The server's list of variants (/api/variants) against the engine's table;
 * the game for four by four people (each seeing only its own hand) and with
 * computer seats; Bakschisch with export, a bribe hidden until both decide,
 * Justizia and the special cards with the expansions, Alte Seilschaften's
 * tavern decisions; every variant by computers. Each client checks every
 * state it gets (only its own hand, every decision offered with its words),
 * and each finished game's record replays to the score the server showed and
 * holds the decisions and events the variant is about (record_census).
 * Starting the server and the client helpers: tests/srvutil.h.
 */
#include "srvutil.h"

/* Play one decision of c, picked by rng among its legal ones, and wait for
 * the state that acknowledges it; a decision made stale by another seat's
 * move meanwhile comes back as an error and counts as none. Every decision
 * offered must carry its words. Returns 1 if it moved. */
static int play_any_but(cl *c, kontor_rng *rng, int *kinds, int avoid);
static int play_any(cl *c, kontor_rng *rng, int *kinds) { return play_any_but(c, rng, kinds, 0); }

/* The same, but for decisions of kind avoid, "none" when offered. */
static int play_any_but(cl *c, kontor_rng *rng, int *kinds, int avoid) {
    json_t *legal = json_object_get(c->state, "legal");
    size_t n = json_array_size(legal);
    if (!n || is_over(c)) return 0;
    for (size_t i = 0; i < n; i++) {
        json_t *l = json_array_get(legal, i);
        const char *text = json_string_value(json_object_get(l, "text"));
        assert_non_null(text);
        assert_true(strlen(text) > 2);
        assert_string_not_equal(text, "?");
        int kind = (int)(json_integer_value(json_object_get(l, "m")) >> 8) & 15;
        if (kinds) kinds[kind] = 1;
        /* what a client needs besides the words: a cell, a card, a pass or none */
        int cell = json_is_integer(json_object_get(l, "x")) && json_is_integer(json_object_get(l, "y"));
        int none = json_is_true(json_object_get(l, "none"));
        switch (kind) {
        case KONTOR_MOVE_CHOOSE:
            assert_true(json_is_integer(json_object_get(l, "card")) || json_is_true(json_object_get(l, "pass")));
            break;
        case KONTOR_MOVE_PLACE_WATER:
            assert_true(cell);
            assert_non_null(strstr(text, "as water"));
            break;
        case KONTOR_MOVE_SHIP:
        case KONTOR_MOVE_REMOVE:
        case KONTOR_MOVE_PLACE:
        case KONTOR_MOVE_BRIBE:
        case KONTOR_MOVE_EVENT:
        case KONTOR_MOVE_TILE: assert_true(cell != none); break;
        case KONTOR_MOVE_PILE: assert_true(json_is_integer(json_object_get(l, "seat"))); break;
        case KONTOR_MOVE_KEEP:
        case KONTOR_MOVE_DISCARD: assert_true(json_is_integer(json_object_get(l, "card"))); break;
        default: break;
        }
    }
    json_int_t m = json_integer_value(json_object_get(json_array_get(legal, kontor_rng_below(rng, (uint32_t)n)), "m"));
    for (size_t i = 0; i < n && avoid; i++) {
        json_t *l = json_array_get(legal, i);
        json_int_t li = json_integer_value(json_object_get(l, "m"));
        if (((li >> 8) & 15) == avoid && json_is_true(json_object_get(l, "none"))) m = li;
    }
    int want = send_move(c, m);
    for (;;) {
        json_t *o = until(c, "*", 3000);
        assert_non_null(o);
        const char *t = json_string_value(json_object_get(o, "type"));
        json_int_t got = json_integer_value(json_object_get(o, strcmp(t, "state") == 0 ? "ack" : "id"));
        if (got == want) return strcmp(t, "state") == 0;
    }
}

/* What seat (-1 spectator) must and must not see in its newest state: its
 * own hand only, and no other seat's secret decision. */
static void check_fair(cl *c, int seat, int nseats) {
    json_t *seats = json_object_get(c->state, "seats");
    assert_int_equal(json_array_size(seats), nseats);
    const char *phase = json_string_value(json_object_get(c->state, "phase"));
    for (int j = 0; j < nseats; j++) {
        json_t *sj = json_array_get(seats, j);
        if (j == seat) assert_non_null(json_object_get(sj, "hand"));
        else assert_null(json_object_get(sj, "hand"));
        if (j == seat) continue;
        json_t *ch = json_object_get(sj, "choice");
        /* R1: a declaration is hidden until all are made; then a pass is public */
        if (strcmp(phase, "declare") == 0 && !json_is_null(ch)) assert_string_equal(json_string_value(ch), "hidden");
        if (strcmp(phase, "choose") == 0 && !json_is_null(ch) && strcmp(json_string_value(ch), "pass") != 0)
            assert_string_equal(json_string_value(ch), "hidden");
        json_t *b = json_object_get(sj, "bribe");
        if (strcmp(phase, "bribe") == 0 && !json_is_null(b)) assert_string_equal(json_string_value(b), "hidden");
        json_t *buy = json_object_get(sj, "buy");
        if (strcmp(phase, "buy") == 0 && !json_is_null(buy)) assert_string_equal(json_string_value(buy), "hidden");
    }
    if (seat < 0) assert_int_equal(json_array_size(json_object_get(c->state, "legal")), 0);
    /* Alte Seilschaften: the area being decided is named */
    if (strcmp(phase, "tavern") == 0) {
        json_t *ta = json_object_get(c->state, "tavern_area");
        assert_true(json_is_integer(ta));
        assert_true(json_integer_value(ta) < (json_int_t)json_array_size(json_object_get(c->state, "areas")));
    }
}

/* n clients (seats 0..n-1 of the game's human seats in order, spectator last
 * with seat -1) play until the game is over; returns the decisions made. */
static int play_all(cl *c, const int *seat, int n, int nseats, kontor_rng *rng, int *kinds, int limit) {
    int moves = 0, idle = 0;
    while (!is_over(&c[0]) && moves < limit) {
        int moved = 0;
        for (int i = 0; i < n; i++) {
            drain(&c[i], 0);
            check_fair(&c[i], seat[i], nseats);
            if (seat[i] >= 0) moved += play_any(&c[i], rng, kinds);
        }
        moves += moved;
        /* nobody owed a decision: the computers think */
        if (!moved) {
            assert_true(++idle < 200);
            until(&c[0], "state", 100);
        } else idle = 0;
    }
    for (int i = 0; i < n; i++) drain(&c[i], 50);
    return moves;
}

/* What a finished game's record holds: the events of its replay by kind,
 * the decisions by kind (made, and taken for real: a value other than
 * "none"/"no"), the seats that decided and those that placed a card, and
 * the coins left in the game (the seats' and the treasury's). */
typedef struct census {
    int ev[32];
    int made[16], taken[16];
    unsigned seats, placers;
    int coins;
} census;

static void count_events(void *ctx, const kontor_state *s, int ply, const kontor_log *log) {
    census *c = ctx;
    (void)s;
    (void)ply;
    for (int i = 0; i < log->n; i++) {
        c->ev[log->ev[i].kind & 31]++;
        if (log->ev[i].kind == KONTOR_EV_PLACE) c->placers |= 1u << (log->ev[i].seat & 7);
    }
}

/* The record of game id, replayed: its final score must equal score; what it
 * holds goes into *c if c is not NULL. */
static void record_census(const srv *s, const char *id, json_t *score, census *c) {
    kontor_record r;
    kontor_state *fin = malloc(sizeof *fin);
    get_record(s, id, &r);
    if (c) memset(c, 0, sizeof *c);
    replay_ends_with_score(&r, score, fin, c ? count_events : NULL, c);
    for (int i = 0; c && i < r.nply; i++) {
        int kind = KONTOR_MOVE_KIND(r.ply[i].move) & 15, v = KONTOR_MOVE_VALUE(r.ply[i].move);
        c->made[kind]++;
        c->taken[kind] += v != KONTOR_NONE && v != KONTOR_PASS && !(kind == KONTOR_MOVE_BUY && v == 0);
        c->seats |= 1u << r.ply[i].seat;
    }
    if (c) {
        c->coins = fin->treasury;
        for (int i = 0; i < fin->cfg->nseats; i++) c->coins += fin->coins[i];
    }
    free(fin);
    kontor_record_release(&r);
}

static void record_replays_to(const srv *s, const char *id, json_t *score) { record_census(s, id, score, NULL); }

static void test_variants_lists_every_variant_with_its_seats_and_expansions(void **state) {
    (void)state;
    srv s = start();
    int st;
    json_t *d = http_json(&s, "GET", "/api/variants", NULL, &st);
    assert_int_equal(st, 200);
    json_t *vs = json_object_get(d, "variants");
    assert_int_equal(json_array_size(vs), KONTOR_NVARIANTS);
    for (size_t i = 0; i < json_array_size(vs); i++) {
        json_t *v = json_array_get(vs, i);
        const char *name = json_string_value(json_object_get(v, "name"));
        assert_string_equal(name, kontor_variant_name((int)i));
        kontor_config cfg;
        kontor_error err;
        assert_int_equal(kontor_config_init(&cfg, name, &err), KONTOR_OK);
        assert_int_equal(json_integer_value(json_object_get(v, "seats")), cfg.nseats);
        size_t nexp = json_array_size(json_object_get(v, "expansions"));
        /* the expansions are for two; the tiles need the water cross */
        if (cfg.nseats == 4) assert_int_equal(nexp, 0);
        if (strcmp(name, "basic") == 0) assert_int_equal(nexp, 3);
        if (strcmp(name, "canale") == 0) assert_int_equal(nexp, 2);
    }
    json_decref(d);
    /* a game for four takes four seats, not two */
    json_t *e = http_json(&s, "POST", "/api/games", "{\"variant\":\"four\",\"seats\":[\"human\",\"easy\"]}", &st);
    assert_int_equal(st, 400);
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "4 seats"));
    json_decref(e);
    /* a scenario with decisions of its own takes human seats now */
    json_t *g = create(&s, "{\"variant\":\"justizia\",\"seats\":[\"human\",\"human\"],\"options\":\"events=1\"}");
    json_decref(g);
    stop(&s, SIGTERM);
}

static void test_four_humans_play_to_the_end_each_seeing_only_its_hand(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"variant\":\"four\",\"seats\":[\"human\",\"human\",\"human\",\"human\"]}");
    const char *id = json_string_value(json_object_get(g, "id"));
    assert_int_equal(json_array_size(json_object_get(g, "seats")), 4);
    cl c[5];
    int seat[5] = {0, 1, 2, 3, -1};
    for (int i = 0; i < 4; i++) join(&c[i], &s, id, token_of(g, i));
    join(&c[4], &s, id, NULL);
    /* the state names the four seats in two teams */
    json_t *seats = json_object_get(c[0].state, "seats");
    assert_string_equal(json_string_value(json_object_get(json_array_get(seats, 1), "name")), "red 2");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(seats, 1), "team")), 0);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(seats, 2), "team")), 1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(c[0].state, "board"), "w")), 8);
    kontor_rng rng;
    kontor_rng_seed(&rng, 11);
    int kinds[16] = {0};
    int moves = play_all(c, seat, 5, 4, &rng, kinds, 20000);
    for (int i = 0; i < 5; i++) assert_true(is_over(&c[i]));
    assert_true(moves > 40);
    assert_true(kinds[KONTOR_MOVE_CHOOSE] && kinds[KONTOR_MOVE_PLACE] && kinds[KONTOR_MOVE_SHIP]);
    /* the spectator saw the same end */
    assert_true(json_equal(json_object_get(c[0].state, "score"), json_object_get(c[4].state, "score")));
    record_replays_to(&s, id, json_object_get(c[0].state, "score"));
    /* the replay viewer of the finished game: four players, every hand shown */
    json_t *v = get_view(&s, id, 9);
    assert_int_equal(json_array_size(json_object_get(v, "players")), 4);
    for (int i = 0; i < 4; i++) assert_non_null(json_object_get(json_array_get(json_object_get(v, "seats"), (size_t)i), "hand"));
    json_decref(v);
    for (int i = 0; i < 5; i++) close_cl(&c[i]);
    json_decref(g);
    stop(&s, SIGTERM);
}

static void test_four_with_computer_seats_to_the_end(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"variant\":\"four\",\"seats\":[\"human\",\"random\",\"easy\",\"random\"]}");
    const char *id = json_string_value(json_object_get(g, "id"));
    assert_int_equal(json_array_size(json_object_get(g, "seats")), 1); /* one link: the one human seat */
    cl c[1];
    int seat[1] = {0};
    join(&c[0], &s, id, token_of(g, 0));
    json_t *players = json_object_get(c[0].state, "players");
    assert_int_equal(json_array_size(players), 4);
    assert_string_equal(json_string_value(json_object_get(json_array_get(players, 2), "kind")), "easy");
    kontor_rng rng;
    kontor_rng_seed(&rng, 12);
    int moves = play_all(c, seat, 1, 4, &rng, NULL, 20000);
    assert_true(is_over(&c[0]));
    /* the three computers moved too */
    assert_true(ply_of(&c[0]) > 2 * moves);
    record_replays_to(&s, id, json_object_get(c[0].state, "score"));
    close_cl(&c[0]);
    json_decref(g);
    stop(&s, SIGTERM);
}

/* Bakschisch with the export store: the bribe (hidden until both decide,
 * on a cell) and the export (a choice of goods) are played over the API. */
static void test_bakschisch_with_export_to_the_end(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"variant\":\"bakschisch\",\"options\":\"export=1\",\"seats\":[\"human\",\"human\"]}");
    const char *id = json_string_value(json_object_get(g, "id"));
    cl c[3];
    int seat[3] = {0, 1, -1};
    join(&c[0], &s, id, token_of(g, 0));
    join(&c[1], &s, id, token_of(g, 1));
    join(&c[2], &s, id, NULL);
    kontor_rng rng;
    kontor_rng_seed(&rng, 13);
    int kinds[16] = {0};
    play_all(c, seat, 3, 2, &rng, kinds, 20000);
    assert_true(is_over(&c[0]));
    assert_true(kinds[KONTOR_MOVE_BRIBE]);
    assert_true(kinds[KONTOR_MOVE_EXPORT]);
    assert_non_null(json_object_get(c[0].state, "export"));
    record_replays_to(&s, id, json_object_get(c[0].state, "score"));
    for (int i = 0; i < 3; i++) close_cl(&c[i]);
    json_decref(g);
    stop(&s, SIGTERM);
}

/* Alte Seilschaften: a tavern's owner decides at the end, with a button of
 * words; three games in four reach that phase under random play, so up to
 * eight games are played until one does. */
static void test_seilschaften_tavern_decisions_to_the_end(void **state) {
    (void)state;
    srv s = start();
    int kinds[16] = {0}, games = 0;
    kontor_rng rng;
    kontor_rng_seed(&rng, 17);
    while (!kinds[KONTOR_MOVE_TAVERN] && games < 8) {
        json_t *g = create(&s, "{\"variant\":\"seilschaften\",\"seats\":[\"human\",\"human\"]}");
        const char *id = json_string_value(json_object_get(g, "id"));
        cl c[2];
        int seat[2] = {0, 1};
        join(&c[0], &s, id, token_of(g, 0));
        join(&c[1], &s, id, token_of(g, 1));
        play_all(c, seat, 2, 2, &rng, kinds, 20000);
        assert_true(is_over(&c[0]));
        record_replays_to(&s, id, json_object_get(c[0].state, "score"));
        close_cl(&c[0]);
        close_cl(&c[1]);
        json_decref(g);
        games++;
    }
    assert_true(kinds[KONTOR_MOVE_TAVERN]);
    stop(&s, SIGTERM);
}

/* Justizia (picking the hand) with the event cards, and the special cards
 * for two (buying one) with the action tiles, played by two people over the
 * API to the end: the decisions of each reach the players with their words,
 * and the record shows the rules at work: hands picked, event cards turned
 * up; special cards bought and laid over cards, action tiles won; in Armut
 * for four every seat decides and places, with 12 coins in the game (3 a
 * player). The deals are the server's own (random), so a game that happens
 * to miss one of these is followed by another, up to three. */
static int census_shows(int b, const census *c) {
    switch (b) {
    case 0: return c->taken[KONTOR_MOVE_KEEP] && c->taken[KONTOR_MOVE_DISCARD] && c->ev[KONTOR_EV_SELECT] >= 2 &&
                   c->ev[KONTOR_EV_EVENT] > 0;
    case 1: return c->taken[KONTOR_MOVE_BUY] && c->ev[KONTOR_EV_BUY] > 0 && c->ev[KONTOR_EV_OVERBUILD] > 0 &&
                   c->ev[KONTOR_EV_TILE] > 0;
    default: return c->seats == 15 && c->placers == 15;
    }
}

static void test_justizia_and_specials_with_expansions_to_the_end(void **state) {
    (void)state;
    srv s = start();
    static const char *const bodies[] = {
        "{\"variant\":\"justizia\",\"options\":\"events=1\",\"seats\":[\"human\",\"human\"]}",
        "{\"variant\":\"specials\",\"options\":\"tiles=1\",\"seats\":[\"human\",\"human\"]}",
        "{\"variant\":\"armut4\",\"seats\":[\"human\",\"human\",\"human\",\"human\"]}",
    };
    static const char *const shows[] = {"hands picked, an event turned up",
                                        "a special card bought and laid, an action tile won",
                                        "all four seats decide and place"};
    static const int nseats[] = {2, 2, 4};
    int kinds[3][16] = {{0}};
    kontor_rng rng;
    kontor_rng_seed(&rng, 19);
    for (int b = 0; b < 3; b++) {
        census cs;
        int games = 0;
        do {
            json_t *g = create(&s, bodies[b]);
            const char *id = json_string_value(json_object_get(g, "id"));
            cl c[5];
            int seat[5] = {0, 1, 2, 3, -1};
            int n = nseats[b];
            int offered[16] = {0};
            for (int i = 0; i < n; i++) join(&c[i], &s, id, token_of(g, i));
            seat[n] = -1;
            join(&c[n], &s, id, NULL);
            play_all(c, seat, n + 1, n, &rng, offered, 20000);
            assert_true(is_over(&c[0]));
            record_census(&s, id, json_object_get(c[0].state, "score"), &cs);
            /* an event's or a tile's decision offered (a phase of its own,
             * "none" included) was made, and is in the record */
            for (int k = KONTOR_MOVE_EVENT; k <= KONTOR_MOVE_TILE; k++)
                if (offered[k] && !cs.made[k]) fail_msg("game %d: decisions of kind %d offered, none in the record", b, k);
            for (int k = 0; k < 16; k++) kinds[b][k] |= offered[k];
            for (int i = 0; i <= n; i++) close_cl(&c[i]);
            json_decref(g);
        } while (!census_shows(b, &cs) && ++games < 3);
        if (!census_shows(b, &cs)) fail_msg("%s: three games and never %s", bodies[b], shows[b]);
        if (b == 2) assert_int_equal(cs.coins, 12);
    }
    assert_true(kinds[0][KONTOR_MOVE_KEEP] && kinds[0][KONTOR_MOVE_DISCARD]);
    assert_true(kinds[1][KONTOR_MOVE_BUY]);
    assert_true(kinds[2][KONTOR_MOVE_CHOOSE]);
    stop(&s, SIGTERM);
}

/* A bribe is a secret until both have decided: the other seat and the
 * spectator see only "hidden". */
static void test_a_bribe_stays_hidden_until_both_decide(void **state) {
    (void)state;
    srv s = start();
    cl a, b;
    json_t *g = create_two_joined(&s, "{\"variant\":\"bakschisch\",\"seats\":[\"human\",\"human\"]}", &a, &b);
    kontor_rng rng;
    kontor_rng_seed(&rng, 21);
    int seen = 0;
    for (int k = 0; k < 3000 && !seen && !is_over(&a); k++) {
        drain(&a, 0);
        drain(&b, 0);
        if (strcmp(json_string_value(json_object_get(a.state, "phase")), "bribe") == 0 &&
            json_array_size(json_object_get(a.state, "legal")) > 0 && json_array_size(json_object_get(b.state, "legal")) > 0) {
            /* red buys out a card (the first decision with a cell), black has not decided */
            json_t *legal = json_object_get(a.state, "legal");
            for (size_t i = 0; i < json_array_size(legal) && !seen; i++) {
                json_t *l = json_array_get(legal, i);
                if (!json_object_get(l, "x")) continue;
                assert_non_null(strstr(json_string_value(json_object_get(l, "text")), "buy out"));
                char msg[96];
                snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":%lld,\"id\":7}",
                         (long long)json_integer_value(json_object_get(l, "m")));
                send_str(&a, msg);
                json_t *st = until(&b, "state", 3000);
                assert_non_null(st);
                json_t *rb = json_object_get(json_array_get(json_object_get(b.state, "seats"), 0), "bribe");
                assert_string_equal(json_string_value(rb), "hidden");
                /* red's own state shows its bribe (wait for it: a loaded machine is slow) */
                json_t *mine = NULL;
                for (int w = 0; w < 60 && !json_is_array(mine); w++) {
                    if (w) until(&a, "state", 50);
                    mine = json_object_get(json_array_get(json_object_get(a.state, "seats"), 0), "bribe");
                }
                assert_true(json_is_array(mine));
                seen = 1;
            }
            if (seen) break;
        }
        /* nobody bribes on the way, so both keep coins to bribe with */
        if (!play_any_but(&a, &rng, NULL, KONTOR_MOVE_BRIBE) && !play_any_but(&b, &rng, NULL, KONTOR_MOVE_BRIBE))
            until(&a, "state", 50);
    }
    assert_true(seen);
    finish_two(&s, &a, &b, g);
}

/* Every variant and every expansion it takes, played to the end on the
 * server by computer seats while a spectator watches: no variant stalls,
 * and the spectator never sees a hand. */
static void test_every_variant_is_played_to_the_end_by_computers(void **state) {
    (void)state;
    /* computer seats play as fast as the server goes, and since the state
     * message is written without a tree (docs/server.md) the server writes
     * states faster than this spectator parses and checks them: the default
     * --out-max would drop it as a reader that fell behind (a limit with its
     * own test in test_serve_limits.c), so here the queue may hold a game */
    static const char *const roomy[] = {"--out-max", "67108864", NULL};
    srv s = start_opts(kontor_bin(), NULL, NULL, roomy);
    int st;
    json_t *d = http_json(&s, "GET", "/api/variants", NULL, &st);
    json_t *vs = json_object_get(d, "variants");
    int games = 0;
    for (size_t i = 0; i < json_array_size(vs); i++) {
        json_t *v = json_array_get(vs, i);
        int n = (int)json_integer_value(json_object_get(v, "seats"));
        json_t *exps = json_object_get(v, "expansions");
        for (size_t k = 0; k <= json_array_size(exps); k++) {
            /* each variant alone, and basic with each expansion */
            if (k > 0 && strcmp(json_string_value(json_object_get(v, "name")), "basic") != 0) break;
            char body[256];
            snprintf(body, sizeof body, "{\"variant\":\"%s\",\"options\":\"%s\",\"seats\":[\"random\",\"random\"%s]}",
                     json_string_value(json_object_get(v, "name")), k ? json_string_value(json_array_get(exps, k - 1)) : "",
                     n == 4 ? ",\"random\",\"random\"" : "");
            json_t *g = create(&s, body);
            cl w;
            join(&w, &s, json_string_value(json_object_get(g, "id")), NULL);
            for (int t = 0; t < 400 && !is_over(&w); t++) {
                check_fair(&w, -1, n);
                until(&w, "state", 100);
            }
            assert_true(is_over(&w));
            check_fair(&w, -1, n);
            close_cl(&w);
            json_decref(g);
            games++;
        }
    }
    assert_int_equal(games, KONTOR_NVARIANTS + 3);
    json_decref(d);
    stop(&s, SIGTERM);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_variants_lists_every_variant_with_its_seats_and_expansions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_four_humans_play_to_the_end_each_seeing_only_its_hand, setup, teardown),
        cmocka_unit_test_setup_teardown(test_four_with_computer_seats_to_the_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bakschisch_with_export_to_the_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_bribe_stays_hidden_until_both_decide, setup, teardown),
        cmocka_unit_test_setup_teardown(test_justizia_and_specials_with_expansions_to_the_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_seilschaften_tavern_decisions_to_the_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_every_variant_is_played_to_the_end_by_computers, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
