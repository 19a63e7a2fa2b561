/* test_commit.c: decisions are stored off the event loop (src/server/commit.c): told only once stored, and a failed commit is taken back.
 *
 * A real server over loopback (srvutil.h) on a SQLite file that this test
 * opens too: holding the database's write lock from here stalls the server's
 * writer thread as a slow disk would, and a trigger that refuses inserts
 * makes its commit fail as a full disk would.
 */
#include <sqlite3.h>
#include <time.h>

#include "srvutil.h"

static double mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static sqlite3 *open_db(void) {
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    return db;
}

static void exec(sqlite3 *db, const char *sql) {
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) fail_msg("'%s': %s", sql, msg ? msg : "?");
}

/* The first legal decision in c's newest state (c must have one). */
static json_int_t first_legal(cl *c) {
    json_t *legal = json_object_get(c->state, "legal");
    assert_true(json_array_size(legal) > 0);
    return json_integer_value(json_object_get(json_array_get(legal, 0), "m"));
}

/* A game of two people, both joined, played a few decisions in; *mover is
 * the one who owes a decision now. */
static json_t *two_people(srv *s, cl *a, cl *b, cl **mover) {
    json_t *g = create(s, "{\"seats\":[\"human\",\"human\"]}");
    join(a, s, game_id(g), token_of(g, 0));
    join(b, s, game_id(g), token_of(g, 1));
    kontor_rng rng;
    kontor_rng_seed(&rng, 5);
    play_both(a, b, &rng, 4);
    drain(a, 100);
    drain(b, 100);
    *mover = json_array_size(json_object_get(a->state, "legal")) ? a : b;
    assert_true(json_array_size(json_object_get((*mover)->state, "legal")) > 0);
    return g;
}

/* While the store cannot take the move (its write lock held here), nobody
 * is told it: no acknowledgement, no state for the other player; the same
 * player's next move is refused as pending; the other player's move that
 * would be refused is answered only after the state (a refusal's words
 * would describe the untold position); and the event loop still
 * answers at once (an HTTP request about the game), because the commit is
 * the writer thread's, not the loop's. Once the lock goes, the
 * acknowledgement and the other player's state come. Before commit.c the
 * loop itself waited up to the busy timeout (5 s) and answered nothing. */
static void test_a_move_is_told_only_once_stored_and_the_loop_never_waits_for_the_store(void **state) {
    (void)state;
    srv s = start();
    cl a, b, *m;
    json_t *g = two_people(&s, &a, &b, &m);
    cl *other = m == &a ? &b : &a;
    int ply = ply_of(m);
    sqlite3 *db = open_db();
    exec(db, "BEGIN IMMEDIATE");
    int id = send_move(m, first_legal(m));
    /* nothing told while it is not stored */
    assert_null(until(m, "state", 1000));
    assert_null(until(other, "state", 200));
    /* one acknowledgement owed at a time */
    send_str(m, "{\"type\":\"move\",\"move\":0,\"id\":999}");
    assert_non_null(until(m, "error", 1000));
    assert_string_equal(json_string_value(json_object_get(m->error, "code")), "pending");
    /* the other player's move that would be refused waits too: judged
     * against the new position only once that position is told */
    send_str(other, "{\"type\":\"move\",\"move\":65535,\"id\":777}");
    assert_null(until(other, "error", 500));
    /* the loop answers meanwhile */
    char path[64];
    snprintf(path, sizeof path, "/api/games/%s", game_id(g));
    double t0 = mono_ms();
    int st;
    json_t *sum = http_json(&s, "GET", path, NULL, &st);
    double took = mono_ms() - t0;
    assert_int_equal(st, 200);
    json_decref(sum);
    printf("    GET %s answered in %.1f ms while the store was locked\n", path, took);
    assert_true(took < 1000);
    exec(db, "ROLLBACK");
    /* stored now: acknowledged, and the other player sees it */
    json_t *ack = until(m, "state", 3000);
    assert_non_null(ack);
    assert_int_equal(json_integer_value(json_object_get(ack, "ack")), id);
    assert_int_equal(ply_of(m), ply + 1);
    assert_non_null(until(other, "state", 3000));
    assert_int_equal(ply_of(other), ply + 1);
    /* and then refused, in words of the position it was told */
    assert_non_null(until(other, "error", 3000));
    assert_int_equal(json_integer_value(json_object_get(other->error, "id")), 777);
    assert_string_equal(json_string_value(json_object_get(other->error, "code")), "illegal");
    sqlite3_close(db);
    close_cl(&a);
    close_cl(&b);
    json_decref(g);
    stop(&s, SIGTERM);
}

/* A move whose commit fails is taken back: its player gets an error with its
 * id and no acknowledgement, both players a "takeback" (reason "store") and
 * the state before it; the game goes on from there, and what a restarted
 * server loads is what the players were told. */
static void test_a_move_that_cannot_be_stored_is_taken_back_and_its_player_told(void **state) {
    (void)state;
    srv s = start();
    cl a, b, *m;
    json_t *g = two_people(&s, &a, &b, &m);
    char id[32], tok[64];
    snprintf(id, sizeof id, "%s", game_id(g));
    int seat = m == &a ? 0 : 1;
    snprintf(tok, sizeof tok, "%s", token_of(g, seat));
    cl *other = m == &a ? &b : &a;
    int ply = ply_of(m);
    json_int_t mv = first_legal(m);
    sqlite3 *db = open_db();
    exec(db, "CREATE TRIGGER refuse BEFORE INSERT ON plies BEGIN SELECT RAISE(ABORT, 'the disk is full'); END");
    int want = send_move(m, mv);
    assert_non_null(until(m, "takeback", 3000));
    assert_non_null(until(m, "error", 3000));
    assert_int_equal(json_integer_value(json_object_get(m->error, "id")), want);
    assert_string_equal(json_string_value(json_object_get(m->error, "code")), "server");
    json_t *back = until(m, "state", 3000);
    assert_non_null(back);
    assert_null(json_object_get(back, "ack"));
    assert_int_equal(ply_of(m), ply);
    assert_non_null(until(other, "takeback", 3000));
    assert_non_null(until(other, "state", 3000));
    assert_int_equal(ply_of(other), ply);
    /* the store takes moves again: the same move is played and stored */
    exec(db, "DROP TRIGGER refuse");
    sqlite3_close(db);
    drain(m, 100);
    want = send_move(m, mv);
    json_t *ack = until(m, "state", 3000);
    assert_non_null(ack);
    assert_int_equal(json_integer_value(json_object_get(ack, "ack")), want);
    assert_int_equal(ply_of(m), ply + 1);
    close_cl(&a);
    close_cl(&b);
    json_decref(g);
    stop(&s, SIGKILL);
    s = start();
    cl c;
    join(&c, &s, id, tok);
    assert_int_equal(ply_of(&c), ply + 1);
    close_cl(&c);
    stop(&s, SIGTERM);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_a_move_is_told_only_once_stored_and_the_loop_never_waits_for_the_store,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_move_that_cannot_be_stored_is_taken_back_and_its_player_told, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
