/* test_server.c: kontor serve tested over real sockets on loopback: API, views, refusals, crash and resume.
 *
 * Each test starts the real binary with a fresh database (tests/srvutil.h)
 * and talks to it with the client of src/server/wsclient.c, exactly as a
 * browser would: the lobby and its refusals, what each seat sees, refused
 * messages, a game to its end and its record, computer seats, timeouts, pile
 * tops, open areas, names, rematch. The crash tests kill the server with
 * SIGKILL mid-game and start it again on the same database. Every variant
 * played to its end through the server is tests/test_server_variants.c.
 */
#include "server/latency.h"
#include "server/sha1.h"
#include "srvutil.h"

static void test_lobby_creates_lists_and_refuses_bad_games(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"variant\":\"basic\",\"seats\":[\"human\",\"easy\"],\"listed\":true}");
    const char *id = json_string_value(json_object_get(g, "id"));
    assert_int_equal(json_array_size(json_object_get(g, "seats")), 1); /* only the human seat has a link */
    int st;
    json_t *list = http_json(&s, "GET", "/api/games", NULL, &st);
    assert_int_equal(st, 200);
    json_t *open = json_object_get(list, "open");
    assert_int_equal(json_array_size(open), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(open, 0), "id")), id);
    json_decref(list);

    /* a game is private unless its creator lists it: not offered under open
     * games, and its free seat cannot be claimed by a stranger */
    json_t *p = create(&s, TWO_PEOPLE);
    const char *pid = json_string_value(json_object_get(p, "id"));
    list = http_json(&s, "GET", "/api/games", NULL, &st);
    open = json_object_get(list, "open");
    assert_int_equal(json_array_size(open), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(open, 0), "id")), id);
    json_decref(list);
    char claim[80];
    snprintf(claim, sizeof claim, "/api/games/%s/seats/1", pid);
    json_t *e = http_json(&s, "POST", claim, "", &st);
    assert_int_equal(st, 403);
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "private"));
    json_decref(e);
    /* the listed game's free seat is claimed once, by its link */
    snprintf(claim, sizeof claim, "/api/games/%s/seats/0", id);
    e = http_json(&s, "POST", claim, "", &st);
    assert_int_equal(st, 200);
    json_decref(e);
    e = http_json(&s, "POST", claim, "", &st);
    assert_int_equal(st, 409);
    json_decref(e);
    e = http_json(&s, "POST", "/api/games", "{\"seats\":[\"human\",\"easy\"],\"listed\":\"yes\"}", &st);
    assert_int_equal(st, 400);
    json_decref(e);
    json_decref(p);

    e = http_json(&s, "POST", "/api/games", "{\"seats\":[\"human\",\"grandmaster\"]}", &st);
    assert_int_equal(st, 400);
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "'grandmaster'"));
    json_decref(e);
    e = http_json(&s, "POST", "/api/games", "{\"seats\":", &st);
    assert_int_equal(st, 400);
    json_decref(e);
    e = http_json(&s, "POST", "/api/games", "{\"variant\":\"chess\",\"seats\":[\"human\",\"human\"]}", &st);
    assert_int_equal(st, 400);
    json_decref(e);
    e = http_json(&s, "GET", "/api/games/zzzz9999", NULL, &st);
    assert_int_equal(st, 404);
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "'zzzz9999' does not exist"));
    json_decref(e);
    e = http_json(&s, "GET", "/api/games/zzzz9999/record", NULL, &st);
    assert_int_equal(st, 404);
    json_decref(e);

    /* the record of a new game is published when it ends (tests/test_security.c) */
    char path[64];
    snprintf(path, sizeof path, "/api/games/%s/record", id);
    e = http_json(&s, "GET", path, NULL, &st);
    assert_int_equal(st, 409);
    json_decref(e);
    json_decref(g);
    stop(&s, SIGTERM);
}

static void test_each_seat_sees_only_its_own_hand(void **state) {
    (void)state;
    srv s = start();
    cl a, b, w;
    json_t *g = create_two_joined(&s, TWO_PEOPLE, &a, &b);
    const char *id = game_id(g);
    join(&w, &s, id, NULL);
    drain(&a, 50);
    json_t *seats = json_object_get(a.state, "seats");
    assert_non_null(json_object_get(json_array_get(seats, 0), "hand"));
    assert_null(json_object_get(json_array_get(seats, 1), "hand"));
    assert_true(json_array_size(json_object_get(a.state, "legal")) > 0);
    seats = json_object_get(w.state, "seats");
    assert_null(json_object_get(json_array_get(seats, 0), "hand"));
    assert_null(json_object_get(json_array_get(seats, 1), "hand"));
    assert_int_equal(json_array_size(json_object_get(w.state, "legal")), 0);

    /* red chooses: black and the spectator learn that red chose, not what */
    assert_true(play_one(&a, NULL));
    while (ply_of(&b) < ply_of(&a)) assert_non_null(until(&b, "state", 2000));
    json_t *ch = json_object_get(json_array_get(json_object_get(b.state, "seats"), 0), "choice");
    assert_true(json_is_string(ch));
    /* a card or a pass alike: the choice is hidden until the reveal */
    assert_string_equal(json_string_value(ch), "hidden");
    close_cl(&w);
    finish_two(&s, &a, &b, g);
}

static void test_refused_messages_change_nothing(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, TWO_PEOPLE);
    const char *id = json_string_value(json_object_get(g, "id"));
    cl a, w, x;
    join(&a, &s, id, token_of(g, 0));
    join(&w, &s, id, NULL);
    int ply = ply_of(&a);

    /* a spectator cannot move */
    send_str(&w, "{\"type\":\"move\",\"move\":256}");
    assert_non_null(until(&w, "error", 2000));
    assert_string_equal(json_string_value(json_object_get(w.error, "code")), "spectator");
    /* an illegal decision: place before choosing */
    send_str(&a, "{\"type\":\"move\",\"move\":1143}");
    assert_non_null(until(&a, "error", 2000));
    assert_string_equal(json_string_value(json_object_get(a.error, "code")), "illegal");
    /* choosing a card that is not in red's hand */
    char msg[128];
    json_t *hand = json_object_get(json_array_get(json_object_get(a.state, "seats"), 0), "hand");
    int notmine = 0;
    for (int c = 0; c < 90; c++) {
        int in = 0;
        for (size_t k = 0; k < json_array_size(hand); k++) in |= json_integer_value(json_array_get(hand, k)) == c;
        if (!in) {
            notmine = c;
            break;
        }
    }
    snprintf(msg, sizeof msg, "{\"type\":\"move\",\"move\":%d}", (KONTOR_MOVE_CHOOSE << 8) | notmine);
    send_str(&a, msg);
    assert_non_null(until(&a, "error", 2000));
    assert_string_equal(json_string_value(json_object_get(a.error, "code")), "illegal");
    /* malformed JSON, a non-object, an unknown type, a bad field */
    send_str(&a, "{\"type\": \"move\", ");
    assert_non_null(until(&a, "error", 2000));
    assert_string_equal(json_string_value(json_object_get(a.error, "code")), "bad_json");
    send_str(&a, "[1,2]");
    assert_non_null(until(&a, "error", 2000));
    send_str(&a, "{\"type\":\"teleport\"}");
    assert_non_null(until(&a, "error", 2000));
    assert_non_null(strstr(json_string_value(json_object_get(a.error, "error")), "'teleport'"));
    send_str(&a, "{\"type\":\"move\",\"move\":\"north\"}");
    assert_non_null(until(&a, "error", 2000));
    /* unknown game, wrong token */
    open_cl(&x, &s);
    send_str(&x, "{\"type\":\"watch\",\"game\":\"nosuchgame\"}");
    assert_non_null(until(&x, "error", 2000));
    assert_string_equal(json_string_value(json_object_get(x.error, "code")), "no_game");
    send_str(&x, "{\"type\":\"join\",\"game\":\"x/../y\",\"token\":\"t\"}");
    assert_non_null(until(&x, "error", 2000));
    snprintf(msg, sizeof msg, "{\"type\":\"join\",\"game\":\"%s\",\"token\":\"0123\"}", id);
    send_str(&x, msg);
    assert_non_null(until(&x, "error", 2000));
    assert_string_equal(json_string_value(json_object_get(x.error, "code")), "bad_token");
    close_cl(&x);
    /* nothing changed */
    int st;
    char path[64];
    snprintf(path, sizeof path, "/api/games/%s", id);
    json_t *sum = http_json(&s, "GET", path, NULL, &st);
    assert_int_equal(json_integer_value(json_object_get(sum, "ply")), ply);
    json_decref(sum);

    /* an oversized message closes that socket only */
    open_cl(&x, &s);
    size_t big = 70 * 1024;
    char *huge = malloc(big + 1);
    memset(huge, ' ', big);
    huge[0] = '{';
    huge[big - 1] = '}';
    huge[big] = 0;
    assert_int_equal(wsc_send(&x.w, 1, huge, big), 0);
    free(huge);
    json_t *e = until(&x, "error", 3000);
    assert_non_null(e);
    assert_string_equal(json_string_value(json_object_get(x.error, "code")), "too_large");
    until(&x, "-", 2000);
    assert_true(x.closed);
    close_cl(&x);
    /* a flood: errors, then the socket is closed; the game goes on */
    open_cl(&x, &s);
    for (int i = 0; i < 1600 && !x.closed; i++) {
        if (wsc_send(&x.w, 1, "{\"type\":\"ping\"}", 15) != 0) break;
        /* civetweb drops a socket whose unread frames pass its 16 KiB buffer:
         * pace the flood so that it reaches the rate limiter */
        if (i % 8 == 0) nanosleep(&(struct timespec){0, 300000}, NULL);
    }
    int rate = 0;
    while (until(&x, "error", 2000)) rate += strcmp(json_string_value(json_object_get(x.error, "code")), "rate") == 0;
    assert_true(rate > 0);
    assert_true(x.closed);
    close_cl(&x);
    /* the players are still served */
    assert_true(play_one(&a, NULL));
    assert_int_equal(ply_of(&a), ply + 1);
    finish_two(&s, &a, &w, g);
}

/* latency.h: every value falls in a bucket whose upper edge is at or above
 * it and whose previous bucket's edge is below it (so a quantile reported as
 * the edge is never less than the true value, and at most 12.5% more). */
static void test_latency_buckets_bound_their_values(void **state) {
    (void)state;
    for (uint64_t v = 0; v < 5000000; v = v < 100 ? v + 1 : v + v / 7) {
        int b = lat_bucket(v);
        assert_true(b >= 0 && b < LAT_BUCKETS);
        assert_true(lat_upper(b) >= v);
        if (b > 0) assert_true(lat_upper(b - 1) < v);
        if (v >= 16) assert_true(lat_upper(b) - v <= v / 8);
    }
    uint64_t counts[LAT_BUCKETS] = {0};
    counts[lat_bucket(100)] = 98;
    counts[lat_bucket(5000)] = 2;
    assert_int_equal(lat_quantile(counts, 100, 0.5), lat_upper(lat_bucket(100)));
    assert_int_equal(lat_quantile(counts, 100, 0.99), lat_upper(lat_bucket(5000)));
}

static json_int_t stat_of(const srv *s, const char *hist, const char *field) {
    int st;
    json_t *o = http_json(s, "GET", "/api/stats", NULL, &st);
    assert_int_equal(st, 200);
    json_t *h = json_object_get(json_object_get(o, "latency"), hist);
    assert_non_null(h);
    json_int_t v = json_integer_value(json_object_get(h, field));
    if (strcmp(field, "n") == 0) { /* the buckets add up to the count */
        json_int_t sum = 0;
        json_t *b = json_object_get(h, "buckets");
        for (size_t i = 0; i < json_array_size(b); i++) sum += json_integer_value(json_array_get(json_array_get(b, i), 1));
        assert_int_equal(sum, v);
    }
    json_decref(o);
    return v;
}

/* /api/stats: the server times each decision from the kernel's receive
 * timestamp to its acknowledgement written (one sample per applied move, none
 * for a refused one), every read's wait and every turn of its loop. */
static void test_stats_time_each_decision_the_server_applies(void **state) {
    (void)state;
    srv s = start();
    cl a, b;
    json_t *g = create_two_joined(&s, TWO_PEOPLE, &a, &b);
    assert_int_equal(stat_of(&s, "decision", "n"), 0);
    kontor_rng rng;
    kontor_rng_seed(&rng, 11);
    int moves = play_both(&a, &b, &rng, 12);
    assert_true(moves >= 12);
    assert_int_equal(stat_of(&s, "decision", "n"), moves);
    /* a refused decision is not one */
    send_move(&a, 0xFFFF);
    assert_non_null(until(&a, "error", 2000));
    assert_int_equal(stat_of(&s, "decision", "n"), moves);
    json_int_t p50 = stat_of(&s, "decision", "p50_us"), p99 = stat_of(&s, "decision", "p99_us");
    assert_true(p50 > 0 && p99 >= p50 && p99 < 10 * 1000 * 1000);
    assert_true(stat_of(&s, "decision", "max_us") >= p50 - p50 / 8);
    assert_true(stat_of(&s, "wait", "n") >= moves);
    assert_true(stat_of(&s, "loop", "n") > moves);
    finish_two(&s, &a, &b, g);
}

static void test_two_humans_play_to_the_end_and_the_record_replays(void **state) {
    (void)state;
    srv s = start();
    cl a, b;
    json_t *g = create_two_joined(&s, TWO_PEOPLE, &a, &b);
    const char *id = game_id(g);
    kontor_rng rng;
    kontor_rng_seed(&rng, 7);
    int moves = play_both(&a, &b, &rng, 5000);
    assert_true(is_over(&a));
    drain(&b, 100);
    assert_true(is_over(&b));
    json_t *score = json_object_get(a.state, "score");
    assert_true(json_is_array(score));

    kontor_record r;
    kontor_state fin;
    get_record(&s, id, &r);
    assert_int_equal(r.nply, ply_of(&a));
    assert_true(r.nply >= moves);
    replay_ends_with_score(&r, score, &fin, NULL, NULL);
    kontor_record_release(&r);
    /* the replay view of the end shows every hand */
    json_t *v = get_view(&s, id, 3);
    assert_int_equal(json_integer_value(json_object_get(v, "ply")), 3);
    assert_non_null(json_object_get(json_array_get(json_object_get(v, "seats"), 1), "hand"));
    json_decref(v);
    /* a finished game refuses moves */
    send_str(&a, "{\"type\":\"move\",\"move\":256}");
    assert_non_null(until(&a, "error", 2000));
    finish_two(&s, &a, &b, g);
}

static void test_computer_seat_plays_its_turns(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"seats\":[\"human\",\"random\"]}");
    cl a;
    join(&a, &s, json_string_value(json_object_get(g, "id")), token_of(g, 0));
    int moves = 0;
    while (!is_over(&a) && moves < 3000) {
        if (!play_one(&a, NULL)) assert_non_null(until(&a, "state", 3000));
        else moves++;
    }
    assert_true(is_over(&a));
    /* the computer moved too: more plies than ours */
    assert_true(ply_of(&a) > moves);
    close_cl(&a);
    json_decref(g);
    stop(&s, SIGTERM);
}

/* The tops of a view's state message: each dock pile's, then the water pile's (-1: none). */
static void tops_of(json_t *st, json_int_t top[KONTOR_MAX_SEATS + 1]) {
    json_t *seats = json_object_get(st, "seats");
    for (size_t i = 0; i < KONTOR_MAX_SEATS; i++) {
        json_t *t = json_object_get(json_array_get(seats, i), "top");
        top[i] = json_is_integer(t) ? json_integer_value(t) : -1;
    }
    json_t *t = json_object_get(st, "water_top");
    top[KONTOR_MAX_SEATS] = json_is_integer(t) ? json_integer_value(t) : -1;
}

/* R15: the pile tops are public. Every view carries them (the player's, the
 * spectator's alike), and the card a seat draws is the top it was shown. */
static void test_pile_tops_are_public_and_are_the_cards_drawn_next(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"seats\":[\"human\",\"easy\"]}");
    const char *id = json_string_value(json_object_get(g, "id"));
    cl a, w;
    join(&a, &s, id, token_of(g, 0));
    join(&w, &s, id, NULL);
    json_int_t ta[KONTOR_MAX_SEATS + 1], tw[KONTOR_MAX_SEATS + 1];
    tops_of(a.state, ta);
    tops_of(w.state, tw);
    assert_memory_equal(ta, tw, sizeof ta);
    assert_true(ta[0] >= 0 && ta[1] >= 0 && ta[KONTOR_MAX_SEATS] >= 0);
    int draws = 0;
    for (int i = 0; i < 400 && draws < 6 && !is_over(&a); i++) {
        if (!play_one(&a, NULL)) drain(&a, 20);
        json_t *st;
        while ((st = until(&w, "state", 30)) != NULL) {
            json_t *evs = json_object_get(st, "events");
            for (size_t k = 0; k < json_array_size(evs); k++) {
                json_t *e = json_array_get(evs, k);
                if (strcmp(json_string_value(json_object_get(e, "kind")), "draw") != 0) continue;
                json_int_t seat = json_integer_value(json_object_get(e, "seat"));
                json_int_t card = json_integer_value(json_object_get(e, "card"));
                assert_true(seat >= 0 && seat < 2);
                assert_true(card == tw[seat] || card == tw[KONTOR_MAX_SEATS]);
                draws++;
            }
            tops_of(st, tw);
        }
    }
    assert_true(draws >= 6);
    finish_two(&s, &a, &w, g);
}

/* The view's open areas: each still borders a free cell (else it would be
 * enclosed), its leader is the rulebook's comparison of its warehouses, and
 * the reason given is the rule that decides. */
static void check_open_areas(json_t *st, int *leaders, int *rules) {
    json_t *areas = json_object_get(st, "open_areas");
    assert_true(json_is_array(areas));
    for (size_t i = 0; i < json_array_size(areas); i++) {
        json_t *a = json_array_get(areas, i), *gj = json_object_get(a, "goods");
        assert_true(json_integer_value(json_object_get(a, "free")) >= 1);
        assert_int_equal(json_array_size(json_object_get(a, "cells")), json_integer_value(json_object_get(a, "size")));
        uint8_t g[2][3];
        for (int t = 0; t < 2; t++)
            for (int k = 0; k < 3; k++) g[t][k] = (uint8_t)json_integer_value(json_array_get(json_array_get(gj, t), k));
        int w = kontor_compare_goods(g);
        json_t *lj = json_object_get(a, "leader");
        if (w < 0) {
            assert_true(json_is_null(lj));
            continue;
        }
        assert_int_equal(json_integer_value(lj), w);
        (*leaders)++;
        const char *rule = json_string_value(json_object_get(a, "rule"));
        int good = (int)json_integer_value(json_object_get(a, "good"));
        int amount = (int)json_integer_value(json_object_get(a, "amount"));
        int dmax[2] = {0, 0}, ahead[2] = {0, 0};
        for (int k = 0; k < 3; k++) {
            int d = g[0][k] - g[1][k];
            if (d > 0) ahead[0]++, dmax[0] = d > dmax[0] ? d : dmax[0];
            if (d < 0) ahead[1]++, dmax[1] = -d > dmax[1] ? -d : dmax[1];
        }
        assert_int_equal(abs(g[0][good] - g[1][good]), amount);
        assert_int_equal(amount, dmax[w]);
        if (strcmp(rule, "superiority") == 0) {
            assert_true(dmax[w] > dmax[1 - w]);
            rules[0]++;
        } else if (strcmp(rule, "more") == 0) {
            assert_int_equal(dmax[w], dmax[1 - w]);
            assert_true(ahead[w] > ahead[1 - w]);
            rules[1]++;
        } else {
            assert_string_equal(rule, "cycle");
            assert_int_equal((good + 1) % 3, json_integer_value(json_object_get(a, "over")));
            rules[2]++;
        }
    }
}

static void test_open_areas_say_who_leads_by_what_and_their_free_cells(void **state) {
    (void)state;
    srv s = start();
    int leaders = 0, rules[3] = {0, 0, 0};
    /* games of random moves, played here (so that every state is seen, however
     * slow the machine), until both common rules have decided some lead: the
     * deals are random, so a cap, not a count */
    kontor_rng rng;
    kontor_rng_seed(&rng, 11);
    for (int game = 0; game < 30 && !(leaders > 20 && rules[0] > 0 && rules[1] > 0); game++) {
        cl a, b;
        json_t *g = create_two_joined(&s, TWO_PEOPLE, &a, &b);
        for (int moves = 0; !is_over(&a) && moves < 3000;) {
            int moved = play_one(&a, &rng);
            check_open_areas(a.state, &leaders, rules);
            drain(&b, moved ? 5 : 0);
            moved += play_one(&b, &rng);
            check_open_areas(b.state, &leaders, rules);
            drain(&a, moved ? 5 : 50);
            moves += moved;
        }
        assert_true(is_over(&a));
        close_cl(&a);
        close_cl(&b);
        json_decref(g);
    }
    assert_true(leaders > 20);
    assert_true(rules[0] > 0 && rules[1] > 0);
    stop(&s, SIGTERM);
}

/* A player's name, given at join: shown to everyone (the spectator too),
 * kept with the game; names too long, empty or with control characters are
 * refused and change nothing. */
static void test_a_player_names_himself_at_join(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, TWO_PEOPLE);
    const char *id = json_string_value(json_object_get(g, "id"));
    char msg[256];
    const char *bad[] = {"\"\"", "\"   \"", "\"a\\nb\"", "\"abcdefghijklmnopqrstuvwxy\"", "42"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        cl x;
        open_cl(&x, &s);
        snprintf(msg, sizeof msg, "{\"type\":\"join\",\"game\":\"%s\",\"token\":\"%s\",\"name\":%s}", id, token_of(g, 0), bad[k]);
        send_str(&x, msg);
        assert_non_null(until(&x, "error", 2000));
        assert_non_null(strstr(json_string_value(json_object_get(x.error, "error")), "\"name\""));
        close_cl(&x);
    }
    cl a, w;
    open_cl(&a, &s);
    snprintf(msg, sizeof msg, "{\"type\":\"join\",\"game\":\"%s\",\"token\":\"%s\",\"name\":\"Anna <b>\"}", id, token_of(g, 0));
    send_str(&a, msg);
    assert_non_null(until(&a, "welcome", 2000));
    assert_non_null(until(&a, "state", 2000));
    join(&w, &s, id, NULL);
    json_t *players = json_object_get(w.state, "players");
    assert_string_equal(json_string_value(json_object_get(json_array_get(players, 0), "player")), "Anna <b>");
    assert_string_equal(json_string_value(json_object_get(json_array_get(players, 1), "player")), "");
    finish_two(&s, &a, &w, g);
}

/* A rematch: asked with a player's token once the game is over; the seats'
 * kinds change teams (colours swapped), every player's token gets its own
 * new seat, asking twice gives the same game, the players' connections are
 * told; refused before the end and without a player's token. */
static void test_rematch_swaps_colours_for_the_same_players(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"variant\":\"advanced\",\"seats\":[\"human\",\"random\"]}");
    const char *id = json_string_value(json_object_get(g, "id"));
    char path[96], body[128];
    snprintf(path, sizeof path, "/api/games/%s/rematch", id);
    snprintf(body, sizeof body, "{\"token\":\"%s\"}", token_of(g, 0));
    int st;
    json_t *e = http_json(&s, "POST", path, body, &st);
    assert_int_equal(st, 409); /* not over yet */
    json_decref(e);
    cl a;
    join(&a, &s, id, token_of(g, 0));
    play_to_the_end(&a, 3, 1000);
    e = http_json(&s, "POST", path, "{\"token\":\"nope\"}", &st);
    assert_int_equal(st, 403);
    json_decref(e);
    json_t *r = http_json(&s, "POST", path, body, &st);
    assert_int_equal(st, 200);
    const char *nid = json_string_value(json_object_get(r, "id"));
    assert_non_null(nid);
    assert_string_not_equal(nid, id);
    /* red's human is black now: his one link is seat 1 */
    json_t *seats = json_object_get(r, "seats");
    assert_int_equal(json_array_size(seats), 1);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(seats, 0), "seat")), 1);
    /* the connection of the old game hears of it, with no link in it */
    json_t *m = until(&a, "rematch", 2000);
    assert_non_null(m);
    /* asked again: the same game */
    json_t *r2 = http_json(&s, "POST", path, body, &st);
    assert_int_equal(st, 200);
    assert_string_equal(json_string_value(json_object_get(r2, "id")), nid);
    /* the new game: the computer on red, the human on black */
    snprintf(path, sizeof path, "/api/games/%s", nid);
    json_t *info = http_json(&s, "GET", path, NULL, &st);
    assert_int_equal(st, 200);
    json_t *ns = json_object_get(info, "seats");
    assert_string_equal(json_string_value(json_object_get(json_array_get(ns, 0), "kind")), "random");
    assert_string_equal(json_string_value(json_object_get(json_array_get(ns, 1), "kind")), "human");
    assert_string_equal(json_string_value(json_object_get(info, "variant")), "advanced");
    json_decref(info);
    json_decref(r2);
    json_decref(r);
    close_cl(&a);
    json_decref(g);
    stop(&s, SIGTERM);
}

static void test_timeout_plays_for_a_silent_seat(void **state) {
    (void)state;
    srv s = start();
    json_t *g = create(&s, "{\"seats\":[\"human\",\"human\"],\"timeout\":1}");
    cl a;
    join(&a, &s, json_string_value(json_object_get(g, "id")), token_of(g, 0));
    int ply = ply_of(&a);
    assert_true(json_integer_value(json_object_get(a.state, "deadline_ms")) > 0);
    /* nobody moves: after a second both choices are made for them */
    time_t t0 = time(NULL);
    int own = 0, other = 0;
    while (ply_of(&a) < ply + 2 && time(NULL) - t0 < 6) {
        json_t *st = until(&a, "state", 1000);
        json_t *t = st ? json_object_get(st, "timeout") : NULL;
        if (!t) continue;
        /* the decision is marked as the timer's; its words (maybe a secret
         * choice) only for the seat it was played for */
        if (json_integer_value(json_object_get(t, "seat")) == 0) {
            assert_non_null(json_string_value(json_object_get(t, "text")));
            own++;
        } else {
            assert_null(json_object_get(t, "text"));
            other++;
        }
    }
    assert_true(ply_of(&a) >= ply + 2);
    assert_int_equal(own, 1);
    assert_int_equal(other, 1);
    close_cl(&a);
    json_decref(g);
    stop(&s, SIGTERM);
}

/* The two players of a game take turns (random decisions from rng) for at
 * least `moves` decisions, the state read to its end; returns its ply. */
static int play_at_least(cl *a, cl *b, kontor_rng *rng, int moves) {
    play_both(a, b, rng, moves);
    drain(a, 50);
    int ply = ply_of(a);
    assert_true(ply >= moves);
    return ply;
}

/* Both players gone, the server killed with SIGKILL (no chance to save). */
static void kill_mid_game(srv *s, cl *a, cl *b) {
    close_cl(a);
    close_cl(b);
    stop(s, SIGKILL);
}

static void test_sigkill_mid_game_loses_nothing(void **state) {
    (void)state;
    srv s = start();
    cl a, b;
    json_t *g = create_two_joined(&s, TWO_PEOPLE, &a, &b);
    const char *id = game_id(g);
    kontor_rng rng;
    kontor_rng_seed(&rng, 3);
    int ply = play_at_least(&a, &b, &rng, 40);
    json_t *before = json_deep_copy(json_object_get(a.state, "board"));
    json_t *hand = json_deep_copy(json_object_get(json_array_get(json_object_get(a.state, "seats"), 0), "hand"));
    kill_mid_game(&s, &a, &b);

    s = start();
    join_two(&a, &b, &s, g);
    drain(&a, 50);
    assert_int_equal(ply_of(&a), ply);
    assert_true(json_equal(before, json_object_get(a.state, "board")));
    assert_true(json_equal(hand, json_object_get(json_array_get(json_object_get(a.state, "seats"), 0), "hand")));
    /* the whole history came back: the newcomer's log starts at the deal */
    json_decref(before);
    json_decref(hand);
    play_both(&a, &b, &rng, 5000);
    assert_true(is_over(&a));
    int last = ply_of(&a);
    json_t *score = json_deep_copy(json_object_get(a.state, "score"));
    close_cl(&a);
    close_cl(&b);
    /* killed again after the end: the finished game is read back from the
     * store (not resumed), its record holding every decision (the running
     * game stored one row per decision; the end folds them into the record) */
    stop(&s, SIGKILL);
    s = start();
    kontor_record r;
    kontor_state fin;
    get_record(&s, id, &r);
    assert_int_equal(r.nply, last);
    replay_ends_with_score(&r, score, &fin, NULL, NULL);
    kontor_record_release(&r);
    json_decref(score);
    json_decref(g);
    stop(&s, SIGTERM);
}

/* A game killed mid-way: its stored record (the row plus one row per
 * decision since) comes back whole after the restart: every decision is in
 * its replay view (the record itself is published only at the end). */
static void test_sigkill_keeps_each_decision_in_the_record(void **state) {
    (void)state;
    srv s = start();
    cl a, b;
    json_t *g = create_two_joined(&s, TWO_PEOPLE, &a, &b);
    const char *id = game_id(g);
    kontor_rng rng;
    kontor_rng_seed(&rng, 11);
    int ply = play_at_least(&a, &b, &rng, 17);
    kill_mid_game(&s, &a, &b);
    s = start();
    /* the record of a running game is not served; its replay view counts
     * the stored decisions, and the game replays on to the end */
    json_t *v = get_view(&s, id, -1);
    assert_int_equal(json_integer_value(json_object_get(v, "plies")), ply);
    assert_false(json_is_true(json_object_get(v, "over")));
    json_decref(v);
    json_decref(g);
    stop(&s, SIGTERM);
}

static void test_other_games_go_on_when_a_socket_dies(void **state) {
    (void)state;
    srv s = start();
    cl a, b, c, d;
    json_t *g1 = create_two_joined(&s, TWO_PEOPLE, &a, &b);
    json_t *g2 = create_two_joined(&s, TWO_PEOPLE, &c, &d);
    /* red of game 1 sends half a frame and vanishes */
    wsc_send_raw(&a.w, "\x81\xfe\x10", 3);
    close_cl(&a);
    drain(&b, 100);
    json_t *p = json_array_get(json_object_get(b.state, "players"), 0);
    assert_false(json_is_true(json_object_get(p, "connected")));
    kontor_rng rng;
    kontor_rng_seed(&rng, 5);
    play_both(&c, &d, &rng, 5000);
    assert_true(is_over(&c));
    close_cl(&b);
    close_cl(&c);
    close_cl(&d);
    json_decref(g1);
    json_decref(g2);
    stop(&s, SIGTERM);
}

/* The handshake's accept value is RFC 6455's own example (section 1.3). */
static void test_websocket_accept_key_is_the_rfc_example(void **state) {
    (void)state;
    char acc[29];
    const char *key = "dGhlIHNhbXBsZSBub25jZQ==";
    ws_accept_key(key, strlen(key), acc);
    assert_string_equal(acc, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_websocket_accept_key_is_the_rfc_example),
        cmocka_unit_test_setup_teardown(test_lobby_creates_lists_and_refuses_bad_games, setup, teardown),
        cmocka_unit_test_setup_teardown(test_each_seat_sees_only_its_own_hand, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused_messages_change_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_humans_play_to_the_end_and_the_record_replays, setup, teardown),
        cmocka_unit_test(test_latency_buckets_bound_their_values),
        cmocka_unit_test_setup_teardown(test_stats_time_each_decision_the_server_applies, setup, teardown),
        cmocka_unit_test_setup_teardown(test_computer_seat_plays_its_turns, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timeout_plays_for_a_silent_seat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pile_tops_are_public_and_are_the_cards_drawn_next, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_player_names_himself_at_join, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rematch_swaps_colours_for_the_same_players, setup, teardown),
        cmocka_unit_test_setup_teardown(test_open_areas_say_who_leads_by_what_and_their_free_cells, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sigkill_mid_game_loses_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sigkill_keeps_each_decision_in_the_record, setup, teardown),
        cmocka_unit_test_setup_teardown(test_other_games_go_on_when_a_socket_dies, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
