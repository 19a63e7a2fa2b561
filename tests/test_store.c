/* test_store.c: one suite of store tests (src/server/store.h) run against both backends: SQLite and PostgreSQL.
 *
 * Each test runs twice: on a SQLite file in a temporary directory and on a
 * real PostgreSQL server that this binary starts itself (tests/pgtmp.sh:
 * Debian's postgresql, initdb into a temporary directory, an unprivileged
 * user, 127.0.0.1 on a free port). A PostgreSQL that is missing or does not
 * start fails the suite. The tests of what only a shared store does (a
 * decision stored once when two nodes race for it, a node whose copy is
 * behind not overwriting newer decisions, leases) run on PostgreSQL, and
 * assert on SQLite what its single node promises instead.
 */
#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kontor/record.h"
#include "server/store.h"
#include "testutil.h"
#include "pgtmp.h"

static pgtmp pg;

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}
static char sqlite_dir[64];
static int ndb; /* a fresh database (or a fresh id prefix on PostgreSQL) per test */

typedef struct backend {
    const char *name;
    char url[200];
} backend;
static backend sqlite_be = {"sqlite", ""}, pg_be = {"postgresql", ""};

/* A game: its record with no decision, and the decisions of one random play. */
typedef struct game {
    char *empty; /* the record text before any decision */
    int n;
    int seat[400], move[400];
    kontor_record rec;
} game;

static void make_game(game *g, uint64_t seed) {
    kontor_config cfg;
    kontor_error err;
    assert_int_equal(kontor_config_init(&cfg, "basic", &err), KONTOR_OK);
    kontor_state s;
    kt_deal_recorded(&s, &g->rec, &cfg, seed);
    size_t len;
    assert_int_equal(kontor_record_write(&g->rec, &g->empty, &len), KONTOR_OK);
    kontor_rng rng;
    kontor_rng_seed(&rng, seed);
    kontor_move mv[KONTOR_MAX_MOVES];
    g->n = 0;
    while (!kontor_over(&s) && g->n < 400) {
        unsigned a = kontor_actors(&s);
        int seat = (a & 1) ? 0 : 1;
        int k = kontor_legal(&s, seat, mv);
        kontor_move m = mv[kontor_rng_below(&rng, (uint32_t)k)];
        assert_int_equal(kontor_apply(&s, seat, m, NULL), KONTOR_OK);
        assert_int_equal(kontor_record_push(&g->rec, seat, m), KONTOR_OK);
        g->seat[g->n] = seat;
        g->move[g->n++] = (int)m;
    }
    kontor_record_set_result(&g->rec, &s);
}

/* The record text of g with its first k decisions. */
static char *text_upto(game *g, int k) {
    int all = g->rec.nply;
    char result[sizeof g->rec.result];
    memcpy(result, g->rec.result, sizeof result);
    g->rec.nply = k;
    if (k < all) snprintf(g->rec.result, sizeof g->rec.result, "*"); /* as the server writes a running game */
    char *t;
    size_t len;
    assert_int_equal(kontor_record_write(&g->rec, &t, &len), KONTOR_OK);
    g->rec.nply = all;
    memcpy(g->rec.result, result, sizeof result);
    return t;
}

static int nply_of(const char *text) {
    kontor_record r;
    kontor_error err;
    assert_int_equal(kontor_record_parse(&r, text, strlen(text), &err), KONTOR_OK);
    int n = r.nply;
    kontor_record_release(&r);
    return n;
}

static store *open_be(const backend *b, kontor_error *err) {
    char path[200];
    if (strcmp(b->name, "sqlite") == 0) snprintf(path, sizeof path, "%s/t%d.db", sqlite_dir, ndb);
    else snprintf(path, sizeof path, "%s", b->url);
    return store_open(path, err);
}

static store *fresh(void **state) {
    ndb++;
    kontor_error err;
    store *st = open_be(*state, &err);
    if (!st) fprintf(stderr, "%s\n", err.msg);
    assert_non_null(st);
    return st;
}

/* ids unique across the tests (PostgreSQL keeps one database for all) */
static void gid(char *out, size_t cap, const char *what) { snprintf(out, cap, "%s%d", what, ndb); }

/* What every test starts from, on the backend of *state: a fresh store, a
 * game played at random from seed, and the id what+N, saved with meta and no
 * decision yet. */
typedef struct fixture {
    store *st;
    game g;
    char id[32];
} fixture;

static void begin(fixture *f, void **state, uint64_t seed, const char *what, const char *meta) {
    f->st = fresh(state);
    make_game(&f->g, seed);
    gid(f->id, sizeof f->id, what);
    kontor_error err;
    assert_int_equal(store_save(f->st, f->id, 0, meta, f->g.empty, &err), KONTOR_OK);
}

/* Store the game's decisions from to to (not included) one at a time. */
static void add_plies(fixture *f, int from, int to) {
    kontor_error err;
    for (int i = from; i < to; i++) assert_int_equal(store_add_ply(f->st, f->id, i, f->g.seat[i], f->g.move[i], &err), KONTOR_OK);
}

static void end(fixture *f) {
    free(f->g.empty);
    kontor_record_release(&f->g.rec);
    store_close(f->st);
}

static void test_save_get_round_trip(void **state) {
    fixture f;
    begin(&f, state, 11, "rt", "{\"m\":1}");
    kontor_error err;
    int over = -1;
    char *meta, *rec;
    assert_int_equal(store_get(f.st, f.id, &over, &meta, &rec, &err), KONTOR_OK);
    assert_int_equal(over, 0);
    assert_string_equal(meta, "{\"m\":1}");
    assert_string_equal(rec, f.g.empty);
    free(meta);
    free(rec);
    assert_int_equal(store_get(f.st, "nosuchgame", &over, &meta, &rec, &err), KONTOR_E_INVALID);
    assert_non_null(strstr(err.msg, "does not exist"));
    end(&f);
}

/* Decisions appended one at a time come back as one record; a full save
 * folds them in; the last save marks the game over. */
static void test_plies_fold_into_the_record(void **state) {
    fixture f;
    begin(&f, state, 12, "pl", "{}");
    kontor_error err;
    add_plies(&f, 0, 10);
    int over;
    char *meta, *rec;
    assert_int_equal(store_get(f.st, f.id, &over, &meta, &rec, &err), KONTOR_OK);
    char *want = text_upto(&f.g, 10);
    assert_string_equal(rec, want);
    free(meta);
    free(rec);
    free(want);
    /* a save at 10, then more decisions, then the whole game over */
    char *t10 = text_upto(&f.g, 10);
    assert_int_equal(store_save(f.st, f.id, 0, "{\"s\":1}", t10, &err), KONTOR_OK);
    free(t10);
    add_plies(&f, 10, f.g.n - 1);
    assert_int_equal(store_get(f.st, f.id, &over, &meta, &rec, &err), KONTOR_OK);
    assert_int_equal(nply_of(rec), f.g.n - 1);
    assert_string_equal(meta, "{\"s\":1}");
    free(meta);
    free(rec);
    char *all = text_upto(&f.g, f.g.n);
    assert_int_equal(store_save(f.st, f.id, 1, "{\"s\":1}", all, &err), KONTOR_OK);
    assert_int_equal(store_get(f.st, f.id, &over, &meta, &rec, &err), KONTOR_OK);
    assert_int_equal(over, 1);
    assert_string_equal(rec, all);
    free(meta);
    free(rec);
    free(all);
    end(&f);
}

typedef struct seen {
    char ids[16][32];
    int over[16], nply[16], n;
} seen;

static int collect(void *ctx, const char *id, int over, const char *meta, const char *record) {
    (void)meta;
    seen *s = ctx;
    if (s->n < 16) {
        snprintf(s->ids[s->n], sizeof s->ids[0], "%s", id);
        s->over[s->n] = over;
        s->nply[s->n++] = nply_of(record);
    }
    return 0;
}

static int has(const seen *s, const char *id) {
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->ids[i], id) == 0) return i;
    return -1;
}

/* load lists unfinished games with their decisions, recent the finished
 * ones, delete forgets a game and its decisions. */
static void test_load_recent_delete(void **state) {
    fixture f; /* game a (f.id), saved with no decision yet */
    begin(&f, state, 13, "la", "{}");
    const char *a = f.id;
    char b[32], c[32];
    gid(b, sizeof b, "lb");
    gid(c, sizeof c, "lc");
    kontor_error err;
    char *all = text_upto(&f.g, f.g.n);
    add_plies(&f, 0, 5); /* to a */
    assert_int_equal(store_save(f.st, b, 1, "{}", all, &err), KONTOR_OK);
    assert_int_equal(store_save(f.st, c, 0, "{}", f.g.empty, &err), KONTOR_OK);
    seen s = {0};
    assert_int_equal(store_load(f.st, 1, collect, &s, &err), KONTOR_OK);
    assert_true(has(&s, a) >= 0 && has(&s, c) >= 0);
    assert_int_equal(has(&s, b), -1);
    assert_int_equal(s.nply[has(&s, a)], 5);
    memset(&s, 0, sizeof s);
    assert_int_equal(store_recent(f.st, 10, collect, &s, &err), KONTOR_OK);
    assert_true(has(&s, b) >= 0);
    assert_int_equal(s.over[has(&s, b)], 1);
    assert_int_equal(has(&s, a), -1);
    assert_int_equal(store_delete(f.st, a, &err), KONTOR_OK);
    int over;
    char *meta, *rec;
    assert_int_equal(store_get(f.st, a, &over, &meta, &rec, &err), KONTOR_E_INVALID);
    /* its decisions went with it: a new game under the same id starts empty */
    assert_int_equal(store_save(f.st, a, 0, "{}", f.g.empty, &err), KONTOR_OK);
    assert_int_equal(store_get(f.st, a, &over, &meta, &rec, &err), KONTOR_OK);
    assert_int_equal(nply_of(rec), 0);
    free(meta);
    free(rec);
    free(all);
    end(&f);
}

/* Two nodes (two stores on one database) race to store the same decision
 * number from many threads: exactly one wins each time, the others learn
 * they were late (KONTOR_E_ILLEGAL), and no decision is stored twice. On
 * SQLite (one node) the store does not arbitrate: the server's game mutex
 * does, and a second append of a decision number replaces it. */
typedef struct racer {
    store *st;
    const char *id;
    game *g;
    int wins, late;
} racer;

static void *race(void *arg) {
    racer *r = arg;
    kontor_error err;
    for (int i = 0; i < 30; i++) {
        kontor_status s = store_add_ply(r->st, r->id, i, r->g->seat[i], r->g->move[i], &err);
        if (s == KONTOR_OK) r->wins++;
        else if (s == KONTOR_E_ILLEGAL) r->late++;
        else fprintf(stderr, "race: %s\n", err.msg);
    }
    return NULL;
}

static void test_decision_stored_once_when_nodes_race(void **state) {
    fixture f;
    begin(&f, state, 14, "race", "{}");
    kontor_error err;
    store *st2 = open_be(*state, &err); /* a second node on the same database */
    assert_non_null(st2);
    racer r[4] = {{f.st, f.id, &f.g, 0, 0}, {st2, f.id, &f.g, 0, 0}, {f.st, f.id, &f.g, 0, 0}, {st2, f.id, &f.g, 0, 0}};
    pthread_t t[4];
    for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, race, &r[i]);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    int wins = 0, late = 0;
    for (int i = 0; i < 4; i++) {
        wins += r[i].wins;
        late += r[i].late;
    }
    int over;
    char *meta, *rec;
    assert_int_equal(store_get(st2, f.id, &over, &meta, &rec, &err), KONTOR_OK);
    assert_int_equal(nply_of(rec), 30);
    if (store_shared(f.st)) {
        assert_int_equal(wins, 30);
        assert_int_equal(late, 90);
        /* a decision past the next one is refused too, and so is any after the end */
        assert_int_equal(store_add_ply(f.st, f.id, 31, f.g.seat[31], f.g.move[31], &err), KONTOR_E_ILLEGAL);
        assert_non_null(strstr(err.msg, "already stored"));
    } else {
        assert_int_equal(wins, 120);
    }
    free(meta);
    free(rec);
    store_close(st2);
    end(&f);
}

/* A node whose copy is behind saves the game (a seat claimed): the newer
 * decisions another node stored stay, the seats are taken. */
static void test_stale_save_keeps_newer_decisions(void **state) {
    fixture f;
    begin(&f, state, 15, "stale", "{}");
    kontor_error err;
    add_plies(&f, 0, 8);
    char *t3 = text_upto(&f.g, 3);
    assert_int_equal(store_save(f.st, f.id, 0, "{\"claimed\":1}", t3, &err), KONTOR_OK);
    free(t3);
    int over;
    char *meta, *rec;
    assert_int_equal(store_get(f.st, f.id, &over, &meta, &rec, &err), KONTOR_OK);
    assert_string_equal(meta, "{\"claimed\":1}");
    /* SQLite's one node never saves behind itself: the save is the game */
    assert_int_equal(nply_of(rec), store_shared(f.st) ? 8 : 3);
    free(meta);
    free(rec);
    end(&f);
}

static int take_id(void *ctx, const char *id) {
    seen *s = ctx;
    if (s->n < 16) snprintf(s->ids[s->n++], sizeof s->ids[0], "%s", id);
    return 0;
}

/* The computer's seats: one node holds a game's lease; another gets it
 * only once it ran out, and its sweep finds the game then, not before. */
static void test_lease_passes_when_its_node_is_gone(void **state) {
    fixture f;
    begin(&f, state, 16, "lease", "{}");
    kontor_error err;
    store *st2 = open_be(*state, &err); /* a second node on the same database */
    assert_non_null(st2);
    assert_int_equal(store_lease(f.st, f.id, "nodeA", 700), 1);
    assert_int_equal(store_lease(f.st, f.id, "nodeA", 700), 1); /* renewing one's own */
    seen s = {0};
    assert_int_equal(store_orphans(st2, "nodeB", 5000, 10, take_id, &s, &err), KONTOR_OK);
    if (!store_shared(f.st)) {
        assert_int_equal(store_lease(st2, f.id, "nodeB", 700), 1); /* one node: always its own */
        assert_int_equal(s.n, 0);
    } else {
        assert_int_equal(store_lease(st2, f.id, "nodeB", 700), 0);
        assert_int_equal(has(&s, f.id), -1);
        assert_true(store_renew(f.st, "nodeA", 700) >= 1);
        sleep_ms(900); /* nodeA died: no renewal */
        assert_int_equal(store_orphans(st2, "nodeB", 5000, 10, take_id, &s, &err), KONTOR_OK);
        assert_true(has(&s, f.id) >= 0);
        assert_int_equal(store_lease(f.st, f.id, "nodeA", 700), 0); /* now nodeB's */
        assert_int_equal(store_lease(st2, f.id, "nodeB", 700), 1);
        /* a finished game is nobody's orphan */
        char *all = text_upto(&f.g, f.g.n);
        assert_int_equal(store_save(st2, f.id, 1, "{}", all, &err), KONTOR_OK);
        free(all);
        sleep_ms(800);
        memset(&s, 0, sizeof s);
        assert_int_equal(store_orphans(f.st, "nodeA", 5000, 10, take_id, &s, &err), KONTOR_OK);
        assert_int_equal(has(&s, f.id), -1);
    }
    store_close(st2);
    end(&f);
}

/* A database that cannot be reached is a clear error, not a crash. */
static void test_unreachable_database_is_an_error(void **state) {
    (void)state;
    kontor_error err = {0};
    store *st = store_open("postgresql://kontor@127.0.0.1:1/postgres?connect_timeout=2", &err);
    assert_null(st);
    assert_int_equal(err.code, KONTOR_E_IO);
    assert_non_null(strstr(err.msg, "connecting to PostgreSQL"));
    st = store_open("/nonexistent-dir/x/games.db", &err);
    assert_null(st);
    assert_int_equal(err.code, KONTOR_E_IO);
}

/* 1 if the PostgreSQL client library is mapped into this process */
static int libpq_mapped(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return -1;
    char line[512];
    int found = 0;
    while (fgets(line, sizeof line, f))
        if (strstr(line, "/libpq.so")) found = 1;
    fclose(f);
    return found;
}

/* The server is not linked with libpq: src/server/pq.c loads it when a
 * postgresql:// store is opened, so that no other command pays its load
 * (docs/engine-speed.md, issue 17); a library that cannot be loaded is a clear error.
 * In a child process; the test runs first, before this process opened a
 * PostgreSQL store. */
static void test_libpq_is_loaded_only_when_a_postgresql_store_is_opened(void **state) {
    (void)state;
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fd[0]);
        char out[600];
        kontor_error err = {0};
        int before = libpq_mapped();
        setenv("KONTOR_LIBPQ", "/nonexistent-dir/libpq.so.5", 1);
        store *bad = store_open(pg_be.url, &err);
        int bad_mapped = libpq_mapped();
        unsetenv("KONTOR_LIBPQ");
        kontor_error err2 = {0};
        store *good = store_open(pg_be.url, &err2);
        int after = libpq_mapped();
        snprintf(out, sizeof out, "%d %d %d %d %d %d|%s", before, bad != NULL, (int)err.code, bad_mapped,
                 good != NULL, after, err.msg);
        if (good) store_close(good);
        ssize_t w = write(fd[1], out, strlen(out) + 1);
        _exit(w > 0 ? 0 : 1);
    }
    close(fd[1]);
    char got[600] = {0};
    size_t n = 0;
    ssize_t k;
    while (n < sizeof got - 1 && (k = read(fd[0], got + n, sizeof got - 1 - n)) > 0) n += (size_t)k;
    close(fd[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char want[64];
    snprintf(want, sizeof want, "0 0 %d 0 1 1|", (int)KONTOR_E_IO);
    if (strncmp(got, want, strlen(want)) != 0) fprintf(stderr, "child said: %s\n", got);
    assert_true(strncmp(got, want, strlen(want)) == 0);
    const char *msg = "store: postgresql: cannot load the PostgreSQL client library '/nonexistent-dir/libpq.so.5' "
                      "(install libpq5, or set KONTOR_LIBPQ to its path): /nonexistent-dir/libpq.so.5: "; /* dlerror's */
    assert_true(strncmp(strchr(got, '|') + 1, msg, strlen(msg)) == 0);
}

static int group_setup(void **state) {
    (void)state;
    snprintf(sqlite_dir, sizeof sqlite_dir, "/tmp/kontor-store-XXXXXX");
    if (!mkdtemp(sqlite_dir)) return -1;
    if (pgtmp_start(&pg) != 0) return -1;
    snprintf(pg_be.url, sizeof pg_be.url, "%s", pg.url);
    return 0;
}

static int group_teardown(void **state) {
    (void)state;
    pgtmp_stop(&pg);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", sqlite_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* The WAL starts over while commits never stop (store_sqlite.c,
 * ckpt_thread): a WAL is reused from its first frame only when a writer
 * begins with every frame copied into the database, which a steady stream
 * of commits never allows unless the checkpointer makes it. Without that,
 * this stream grew it by tens of megabytes a second. And a WAL nobody
 * writes to is truncated to nothing. */
static void test_the_wal_starts_over_under_a_steady_stream_of_commits(void **state) {
    fixture f;
    begin(&f, state, 13, "wal", "{}");
    char wal[240];
    snprintf(wal, sizeof wal, "%s/t%d.db-wal", sqlite_dir, ndb);
    kontor_error err;
    long biggest = 0;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int i = 0;
    for (;; i++) {
        assert_int_equal(store_add_ply(f.st, f.id, i, 0, i & 63, &err), KONTOR_OK);
        if (i % 256 == 0) {
            struct stat sb;
            if (stat(wal, &sb) == 0 && sb.st_size > biggest) biggest = (long)sb.st_size;
            clock_gettime(CLOCK_MONOTONIC, &t);
            if (t.tv_sec - t0.tv_sec >= 4) break;
        }
    }
    printf("    %d commits in 4 s; the largest WAL seen: %ld KiB\n", i, biggest / 1024);
    /* the start-over threshold (4 MiB) plus what piles up during a catch-up
     * at this test's pace (15,000 to 36,000 commits a second, four to nine
     * times a server's at 10,000 players): 8 to 10 MiB in all seen, once 49 MiB
     * (36,000 a second, the fourteenth session's CI); without the catch-up,
     * 400 MB at 15,000 a second (each commit ~5.7 KiB more WAL): the bound
     * leaves room for a checkpointer slowed by a loaded machine */
    assert_true(biggest <= 128L * 1024 * 1024);
    /* the idle WAL truncated: at once on an idle machine, later when the
     * checkpointer shares the cores (up to 20 s) */
    long now = -1;
    for (int k = 0; k < 200 && now != 0; k++) {
        sleep_ms(100);
        struct stat sb;
        now = stat(wal, &sb) == 0 ? (long)sb.st_size : 0;
    }
    assert_int_equal(now, 0);
    end(&f);
}

#define BOTH(f) cmocka_unit_test_prestate(f, &sqlite_be), cmocka_unit_test_prestate(f, &pg_be)

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_libpq_is_loaded_only_when_a_postgresql_store_is_opened),
        BOTH(test_save_get_round_trip),
        BOTH(test_plies_fold_into_the_record),
        BOTH(test_load_recent_delete),
        BOTH(test_decision_stored_once_when_nodes_race),
        BOTH(test_stale_save_keeps_newer_decisions),
        BOTH(test_lease_passes_when_its_node_is_gone),
        cmocka_unit_test(test_unreachable_database_is_an_error),
        cmocka_unit_test_prestate(test_the_wal_starts_over_under_a_steady_stream_of_commits, &sqlite_be),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
