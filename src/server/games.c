/* games.c: a game's life in memory: created, loaded from the store on demand, leaving memory.
 *
 * The store holds every game; memory holds those being played or looked
 * at. This file is where a game enters memory (create_game for a new one,
 * game_from_store for a stored one: its record replayed) and where it
 * leaves (evict_games, on the loop's thread, when nothing else can hold
 * it). The limit on computer-only games is checked here too, because both
 * creating and loading start one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif

#include "server/sgame.h"


/* Computer-only games in memory that are not over. */
int bots_running(void) {
    long n;
    int k = 0;
    sgame **all = snapshot(&n);
    for (long i = 0; all && i < n; i++) {
        pthread_mutex_lock(&all[i]->mu);
        k += all[i]->bots_only && !kontor_over(&all[i]->s);
        pthread_mutex_unlock(&all[i]->mu);
    }
    free(all);
    return k;
}

static sgame *new_game_struct(void) {
    sgame *g = calloc(1, sizeof *g);
    if (g) {
        pthread_mutex_init(&g->mu, NULL);
        g->born = now_s();
    }
    return g;
}

/* Create a game from a request; on failure returns NULL with err filled. */
sgame *create_game(const char *variant, const char *options, json_t *seats, int timeout_s, int listed, int takeback,
                   kontor_error *err) {
    kontor_config cfg;
    if (kontor_config_init(&cfg, variant, err) != KONTOR_OK) return NULL;
    if (options && *options && kontor_config_options(&cfg, options, err) != KONTOR_OK) return NULL;
    if (!json_is_array(seats) || json_array_size(seats) != cfg.nseats) {
        snprintf(err->msg, sizeof err->msg, "'seats' must list %d seats, each \"human\" or a computer level", cfg.nseats);
        err->code = KONTOR_E_INVALID;
        return NULL;
    }
    if (timeout_s < 0 || timeout_s > TIMEOUT_MAX) {
        snprintf(err->msg, sizeof err->msg, "'timeout' %d is outside 0..%d seconds", timeout_s, TIMEOUT_MAX);
        err->code = KONTOR_E_RANGE;
        return NULL;
    }
    int people = 0;
    for (size_t i = 0; i < json_array_size(seats); i++) {
        const char *k = json_string_value(json_array_get(seats, i));
        people += k && strcmp(k, "human") == 0;
    }
    sgame *g = new_game_struct();
    if (!g) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        err->code = KONTOR_E_RANGE;
        return NULL;
    }
    for (int i = 0; i < cfg.nseats; i++) {
        const char *k = json_string_value(json_array_get(seats, (size_t)i));
        if (!k || (strcmp(k, "human") != 0 && !is_level(k))) {
            snprintf(err->msg, sizeof err->msg,
                     "seat %d: '%.40s' is neither \"human\" nor a level (random, easy, medium, hard)", i, k ? k : "?");
            err->code = KONTOR_E_INVALID;
            free_game(g);
            return NULL;
        }
        snprintf(g->seat[i].kind, sizeof g->seat[i].kind, "%s", k);
        if (strcmp(k, "human") == 0) random_hex(g->seat[i].token, TOKEN_LEN);
    }
    do random_hex(g->id, ID_LEN);
    while (find_game(g->id));
    uint64_t seed = random_u64();
    g->seed = seed;
    g->ai_seed = random_u64();
    g->timeout_s = timeout_s;
    g->listed = listed;
    g->takeback = takeback < 0 ? people == 1 : takeback; /* default: on against the computer */
    g->bots_only = !people;
    kontor_deal d;
    kontor_deal_shuffle(&d, &cfg, seed);
    /* the game holds its config while it is in memory (free_game releases it) */
    if (!(g->cfg = kontor_config_retain(&cfg, err)) || kontor_new_from_deal(&g->s, g->cfg, &d, err) != KONTOR_OK) {
        free_game(g);
        return NULL;
    }
    kontor_record_init(&g->rec, &cfg, &d);
    g->rec.seed = seed;
    g->rec.has_seed = 1;
    for (int i = 0; i < cfg.nseats; i++)
        snprintf(g->rec.players[i], KONTOR_TAG_MAX, "%s%s", strcmp(g->seat[i].kind, "human") == 0 ? "" : "kontor ",
                 g->seat[i].kind);
    time_t t = time(NULL);
    struct tm tmv;
    gmtime_r(&t, &tmv);
    strftime(g->rec.date, sizeof g->rec.date, "%Y-%m-%d", &tmv);
    snprintf(g->rec.event, sizeof g->rec.event, "kontor serve game %s", g->id);
    g->meta = make_meta(g);
    if (!g->meta || save_game(g, err) != KONTOR_OK || register_game(g) != g) {
        if (!err->msg[0]) snprintf(err->msg, sizeof err->msg, "out of memory");
        free_game(g);
        return NULL;
    }
    pthread_mutex_lock(&g->mu);
    update_deadline(g);
    schedule_ai(g);
    pthread_mutex_unlock(&g->mu);
    return g;
}

static void collect_events(void *ctx, const kontor_state *s, int ply, const kontor_log *log) {
    (void)s;
    (void)ply;
    push_events(ctx, log);
}

/* A stored game in memory: parse its meta and record, replay every decision.
 * NULL (logged) when the stored row is damaged or memory is short. */
static sgame *game_from_store(const char *id, const char *meta, const char *record) {
    kontor_error err = {0};
    sgame *g = new_game_struct();
    if (!g) return NULL;
    json_error_t je;
    json_t *m = json_loads(meta, 0, &je);
    json_t *seats = json_object_get(m, "seats");
    if (!valid_id(id) || strlen(id) > ID_LEN || !json_is_array(seats)) {
        logf_("game '%.32s': its stored meta is damaged; not resumed", id);
        json_decref(m);
        free_game(g);
        return NULL;
    }
    snprintf(g->id, sizeof g->id, "%s", id);
    /* the game holds its record's config (free_game releases it): the
     * replay's deal, and every later one of its takeback, borrow that hold */
    if (kontor_record_parse(&g->rec, record, strlen(record), &err) != KONTOR_OK ||
        !(g->cfg = kontor_config_retain(&g->rec.cfg, &err)) ||
        kontor_record_replay(&g->rec, -1, &g->s, collect_events, g, &err) != KONTOR_OK ||
        json_array_size(seats) != g->s.cfg->nseats) {
        logf_("game '%s': its stored record does not replay (%s); not resumed", id, err.msg);
        json_decref(m);
        free_game(g);
        return NULL;
    }
    for (size_t i = 0; i < json_array_size(seats); i++) {
        json_t *so = json_array_get(seats, i);
        const char *k = json_string_value(json_object_get(so, "kind"));
        const char *tok = json_string_value(json_object_get(so, "token"));
        snprintf(g->seat[i].kind, sizeof g->seat[i].kind, "%s", k && is_level(k) ? k : "human");
        snprintf(g->seat[i].token, sizeof g->seat[i].token, "%s", tok ? tok : "");
        g->seat[i].claimed = json_is_true(json_object_get(so, "claimed"));
        const char *pn = json_string_value(json_object_get(so, "player"));
        if (pn && player_name_ok(pn)) snprintf(g->seat[i].player, sizeof g->seat[i].player, "%s", pn);
    }
    g->timeout_s = (int)json_integer_value(json_object_get(m, "timeout"));
    g->bots_only = 1;
    for (int i = 0; i < g->s.cfg->nseats; i++)
        if (strcmp(g->seat[i].kind, "human") == 0) g->bots_only = 0;
    if (g->bots_only && !kontor_over(&g->s) && bots_running() >= S.lim.ai_games) {
        logf_("game '%s': computer seats only, over --ai-games %d; left in the store, not resumed", id, S.lim.ai_games);
        json_decref(m);
        free_game(g);
        return 0;
    }
    g->seed = (uint64_t)json_integer_value(json_object_get(m, "seed"));
    /* games stored before takebacks existed allow them against the computer */
    json_t *tb = json_object_get(m, "takeback");
    g->takeback = tb ? json_is_true(tb) : people_of(g) == 1;
    g->takebacks = (int)json_integer_value(json_object_get(m, "takebacks"));
    /* games stored before private games existed were all listed */
    json_t *lj = json_object_get(m, "listed");
    g->listed = lj ? json_is_true(lj) : 1;
    /* games stored before the secret existed get a new one */
    json_t *as = json_object_get(m, "ai_seed");
    g->ai_seed = json_is_integer(as) ? (uint64_t)json_integer_value(as) : random_u64();
    json_decref(m);
    g->meta = make_meta(g);
    if (!g->meta) {
        free_game(g);
        return NULL;
    }
    return g;
}

/* Resume one stored game (at start: every unfinished one). */
int load_one(void *ctx, const char *id, int over, const char *meta, const char *record) {
    int *count = ctx;
    (void)over;
    sgame *g = game_from_store(id, meta, record);
    if (!g) return 0;
    if (register_game(g) != g) {
        free_game(g);
        return 1;
    }
    pthread_mutex_lock(&g->mu);
    update_deadline(g);
    schedule_ai(g);
    pthread_mutex_unlock(&g->mu);
    (*count)++;
    return 0;
}

/* A game by id: in memory, or else from the store (a finished game after a
 * restart, including one whose last decision was stored just before the
 * server died, so that its players still see the result). NULL if none. */
sgame *get_game(const char *id) {
    sgame *g = find_game(id);
    if (g || !valid_id(id) || strlen(id) > ID_LEN) return g;
    char *meta = NULL, *text = NULL;
    int over;
    kontor_error err;
    if (store_get(S.st, id, &over, &meta, &text, &err) != KONTOR_OK) return NULL;
    g = game_from_store(id, meta, text);
    free(meta);
    free(text);
    if (!g) return NULL;
    sgame *have = register_game(g); /* another thread may have loaded it first */
    if (have != g) {
        free_game(g);
        return have;
    }
    away_forget(id);
    pthread_mutex_lock(&g->mu);
    if (S.shared) catch_up(g); /* decisions stored while it was being loaded */
    if (S.shared && !over && kontor_over(&g->s) && save_game(g, &err) != KONTOR_OK) /* (see catch_up) */
        logf_("%s", err.msg);
    update_deadline(g);
    schedule_ai(g);
    pthread_mutex_unlock(&g->mu);
    return g;
}


/* Once a second on the loop's thread: a finished game leaves memory --linger
 * seconds after its last connection left (the store keeps it: its record and
 * view are read from there); a running game that nobody is connected to
 * leaves after --idle-evict seconds (the store keeps it, and the first
 * request for it loads it back); an open game that no person joined leaves
 * after --open-ttl seconds, and the store forgets it. Only the loop's thread finds
 * games by id (HTTP and WebSocket handlers, the timeouts), and a game leaves
 * only when no computer move is queued or under way, so no other thread
 * holds it. */
void evict_games(void) {
    long n;
    sgame **all = snapshot(&n);
    if (!all) return;
    double t = now_s();
    long freed = 0;
    for (long i = 0; i < n; i++) {
        sgame *g = all[i];
        pthread_mutex_lock(&g->mu);
        int idle = !g->conns && !g->ai_queued && !g->ai_busy;
        int over = kontor_over(&g->s), joined = 0, people = 0;
        for (int k = 0; k < g->s.cfg->nseats; k++)
            if (strcmp(g->seat[k].kind, "human") == 0) {
                people++;
                joined += g->seat[k].claimed;
            }
        double since = g->left > g->born ? g->left : g->born;
        int finished = idle && over && t - since >= S.lim.linger_s;
        int expired = idle && !over && people && !joined && t - g->born >= S.lim.open_ttl_s;
        /* a running game nobody follows: its record is in the store, decision
         * by decision, and get_game() replays it on the next request; one
         * whose timer runs stays (the timer plays it on) */
        int away = idle && !over && !expired && people && joined && g->deadline == 0 && t - since >= S.lim.idle_s;
        pthread_mutex_unlock(&g->mu);
        if (!finished && !expired && !away) continue;
        json_t *sum = away ? summary(g) : NULL;
        if (!unregister_game(g)) {
            json_decref(sum);
            continue;
        }
        if (away) away_add(sum);
        if (expired) {
            kontor_error err;
            if (store_delete(S.st, g->id, &err) != KONTOR_OK) logf_("%s", err.msg);
            logf_("game '%s': open for %d s and nobody joined; removed", g->id, S.lim.open_ttl_s);
        }
        free_game(g);
        freed++;
    }
    free(all);
#ifdef __GLIBC__
    /* give the freed games' pages back (glibc keeps them otherwise) */
    if (freed) malloc_trim(0);
#endif
}
