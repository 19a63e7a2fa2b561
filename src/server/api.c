/* api.c: the HTTP API under /api/: the lobby's lists, creating and claiming games, rematches, records and replays.
 *
 * Each request comes in whole (server_http_req, from the transport or a
 * test) and gets one answer (server_http_resp); nothing here touches a
 * socket. Bodies are capped and parsed with sj_parse_object, and every
 * refusal is a JSON {"error": ...} with a status that says which kind.
 * docs/server.md lists the calls.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "server/server.h"
#include "server/analysis_api.h"
#include "server/latency.h"
#include "server/sgame.h"
#include "server/sjson.h"
#include "server/transport.h"

/* A request and its answer while a handler runs (the transport reads the
 * one and writes the other). */
typedef struct hx {
    const server_http_req *rq;
    server_http_resp *rs;
} hx;

static int reply(hx *c, int status, const char *ctype, const char *body, size_t len, const char *extra) {
    server_http_resp *rs = c->rs;
    free(rs->body);
    rs->body = malloc(len + 1);
    if (rs->body) {
        memcpy(rs->body, body, len);
        rs->body[len] = 0;
        rs->len = len;
    } else {
        rs->len = 0;
        status = 500;
    }
    rs->status = status;
    snprintf(rs->ctype, sizeof rs->ctype, "%s", ctype);
    snprintf(rs->extra, sizeof rs->extra, "%s", extra ? extra : "");
    return status;
}

static int reply_json(hx *c, int status, json_t *o) {
    char *t = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (!t) return reply(c, 500, "text/plain", "out of memory\n", 14, NULL);
    int r = reply(c, status, "application/json", t, strlen(t), NULL);
    free(t);
    return r;
}

__attribute__((format(printf, 3, 4))) static int reply_error(hx *c, int status, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return reply_json(c, status, json_pack("{s:s, s:s}", "error", msg, "code", http_error_code(status)));
}

/* The same with a code for programs ("too_deep", "running", ...). */
__attribute__((format(printf, 4, 5))) static int reply_code(hx *c, int status, const char *code, const char *fmt,
                                                            ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return reply_json(c, status, json_pack("{s:s, s:s}", "error", msg, "code", code));
}

static int stored_summary(void *ctx, const char *id, int over, const char *meta, const char *record) {
    (void)meta;
    json_t *a = ctx;
    if (find_game(id)) return 0; /* already listed from memory */
    kontor_record r;
    kontor_error err;
    if (kontor_record_parse(&r, record, strlen(record), &err) != KONTOR_OK) return 0;
    json_t *pl = json_array();
    for (int i = 0; i < r.cfg.nseats; i++) json_array_append_new(pl, json_string(r.players[i]));
    json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:o}", "id", id, "variant",
                                       kontor_variant_name(r.cfg.variant), "status", over ? "over" : "stored",
                                       "result", r.result, "players", pl));
    kontor_record_release(&r);
    return 0;
}

/* Several nodes: an unfinished game of the database that this node does
 * not hold, summed up from its stored meta and record (ctx: the open and
 * running lists). */
static int stored_unfinished(void *ctx, const char *id, int over, const char *meta, const char *record) {
    json_t **lists = ctx;
    (void)over;
    if (find_game(id)) return 0; /* already listed from memory */
    kontor_record r;
    kontor_error err;
    if (kontor_record_parse(&r, record, strlen(record), &err) != KONTOR_OK) return 0;
    kontor_state *s = malloc(sizeof *s);
    json_t *m = json_loads(meta, 0, NULL);
    json_t *mseats = json_object_get(m, "seats");
    /* the replay's state borrows this hold of its config (intern.c): released once s is gone */
    const kontor_config *held = kontor_config_retain(&r.cfg, &err);
    if (s && held && kontor_record_replay(&r, -1, s, NULL, NULL, &err) == KONTOR_OK &&
        json_array_size(mseats) == (size_t)s->cfg->nseats) {
        int open = 0;
        json_t *seats = json_array();
        for (int i = 0; i < s->cfg->nseats; i++) {
            json_t *so = json_array_get(mseats, (size_t)i);
            const char *kind = json_string_value(json_object_get(so, "kind"));
            int claimed = json_is_true(json_object_get(so, "claimed"));
            int human = kind && strcmp(kind, "human") == 0;
            open |= human && !claimed;
            json_array_append_new(seats, json_pack("{s:s, s:i, s:s, s:b, s:b}", "name", kontor_seat_name(s, i), "team",
                                                   kontor_team(s, i), "kind", kind && is_level(kind) ? kind : "human",
                                                   "claimed", claimed, "connected", 0));
        }
        json_t *dst = open ? lists[0] : lists[1];
        json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:i, s:o, s:s, s:i, s:i}", "id", id, "variant",
                              kontor_variant_name(s->cfg->variant), "status", open ? "open" : "running", "round",
                              s->round, "ply", r.nply, "seats", seats, "result", "*", "timeout",
                              (int)json_integer_value(json_object_get(m, "timeout")), "spectators", 0);
        if (json_array_size(dst) < 50) json_array_append_new(dst, o);
        else json_decref(o);
    }
    json_decref(m);
    free(s);
    kontor_config_release(held);
    kontor_record_release(&r);
    return 0;
}

static int api_list(hx *c) {
    long n;
    sgame **all = snapshot(&n);
    if (!all) return reply_error(c, 500, "out of memory");
    json_t *open = json_array(), *running = json_array(), *over = json_array();
    /* newest first, at most 50 of each kind */
    for (long i = n - 1; i >= 0; i--) {
        json_t *o = summary(all[i]);
        const char *st = json_string_value(json_object_get(o, "status"));
        json_t *dst = strcmp(st, "open") == 0 ? open : strcmp(st, "running") == 0 ? running : over;
        if (json_array_size(dst) < 50) json_array_append_new(dst, o);
        else json_decref(o);
    }
    free(all);
    if (!S.shared) {
        /* running games that left memory idle (games.c) are still listed */
        json_t *away = away_list();
        size_t i;
        json_t *o;
        json_array_foreach(away, i, o) {
            const char *st = json_string_value(json_object_get(o, "status"));
            json_t *dst = st && strcmp(st, "open") == 0 ? open : running;
            if (json_array_size(dst) < 50) json_array_append(dst, o);
        }
        json_decref(away);
    }
    kontor_error err;
    if (json_array_size(over) < 20) store_recent(S.st, 20, stored_summary, over, &err);
    json_t *lists[2] = {open, running};
    if (S.shared) store_unfinished(S.st, 100, stored_unfinished, lists, &err); /* the other nodes' games */
    return reply_json(c, 200, json_pack("{s:o, s:o, s:o, s:I}", "open", open, "running", running, "finished", over,
                                        "total", (json_int_t)n));
}

static json_t *links_of(sgame *g, int only) {
    json_t *a = json_array();
    for (int i = 0; i < g->s.cfg->nseats; i++) {
        if (only >= 0 && i != only) continue;
        if (strcmp(g->seat[i].kind, "human") != 0) continue;
        char link[128];
        snprintf(link, sizeof link, "/#play/%s/%s", g->id, g->seat[i].token);
        json_array_append_new(a, json_pack("{s:i, s:s, s:s, s:s}", "seat", i, "name", kontor_seat_name(&g->s, i),
                                           "token", g->seat[i].token, "link", link));
    }
    return a;
}

/* A request's body as a JSON object: capped at MSG_MAX and checked for size
 * and depth before jansson parses it (sj_parse_object). NULL once it has
 * answered 413 or 400, with that reply's result in *replied. */
static json_t *body_object(hx *c, int *replied) {
    if (c->rq->body_over || c->rq->body_len > (size_t)MSG_MAX) {
        *replied = reply_code(c, 413, "too_large", "request body is over %d bytes", MSG_MAX);
        return NULL;
    }
    const char *code;
    char why[160];
    json_t *req = sj_parse_object(c->rq->body ? c->rq->body : "", c->rq->body_len, &code, why, sizeof why);
    if (!req) *replied = reply_code(c, strcmp(code, "too_large") == 0 ? 413 : 400, code, "request body is %s", why);
    return req;
}

static int api_create(hx *c) {
    int replied;
    json_t *req = body_object(c, &replied);
    if (!req) return replied;
    json_t *vj = json_object_get(req, "variant"), *oj = json_object_get(req, "options");
    if ((vj && !json_is_string(vj)) || (oj && !json_is_string(oj))) {
        const char *field = vj && !json_is_string(vj) ? "variant" : "options";
        json_decref(req);
        return reply_code(c, 400, "bad_request", "'%s' must be a string", field);
    }
    const char *variant = json_string_value(vj);
    const char *options = json_string_value(oj);
    json_t *tj = json_object_get(req, "timeout");
    if (tj && !json_is_integer(tj)) {
        json_decref(req);
        return reply_error(c, 400, "'timeout' must be a whole number of seconds");
    }
    json_int_t timeout = tj ? json_integer_value(tj) : 0;
    json_t *lj = json_object_get(req, "listed"), *tbj = json_object_get(req, "takeback");
    if ((lj && !json_is_boolean(lj)) || (tbj && !json_is_boolean(tbj))) {
        const char *field = lj && !json_is_boolean(lj) ? "listed" : "takeback"; /* (before req goes) */
        json_decref(req);
        return reply_error(c, 400, "'%s' must be true or false", field);
    }
    /* games of computers only: as many at once as the operator allows */
    json_t *sj = json_object_get(req, "seats");
    int people = 0;
    for (size_t i = 0; i < json_array_size(sj); i++)
        people += json_is_string(json_array_get(sj, i)) && strcmp(json_string_value(json_array_get(sj, i)), "human") == 0;
    if (json_array_size(sj) > 0 && !people) {
        if (S.lim.ai_games <= 0) {
            json_decref(req);
            return reply_code(c, 403, "ai_games_off", "games of computer seats only are off on this server (--ai-games 0)");
        }
        if (bots_running() >= S.lim.ai_games) {
            json_decref(req);
            return reply_code(c, 429, "ai_games_limit",
                               "at most %d games of computer seats only at once on this server (--ai-games); "
                               "try again when one ends", S.lim.ai_games);
        }
    }
    kontor_error err = {0};
    sgame *g = NULL;
    if (timeout < 0 || timeout > TIMEOUT_MAX)
        snprintf(err.msg, sizeof err.msg, "'timeout' %lld is outside 0..%d seconds", (long long)timeout, TIMEOUT_MAX);
    else
        g = create_game(variant ? variant : "basic", options, json_object_get(req, "seats"), (int)timeout,
                        json_is_true(lj), tbj ? json_is_true(tbj) : -1, &err);
    json_decref(req);
    if (!g) return reply_error(c, err.code == KONTOR_E_IO ? 500 : 400, "%s", err.msg);
    logf_("game '%s' created", g->id);
    pthread_mutex_lock(&g->mu);
    json_t *links = links_of(g, -1);
    pthread_mutex_unlock(&g->mu);
    char watch[64];
    snprintf(watch, sizeof watch, "/#watch/%s", g->id);
    return reply_json(c, 201, json_pack("{s:s, s:o, s:s}", "id", g->id, "seats", links, "watch", watch));
}

/* A finished game played again, colours swapped: the seats' kinds move to
 * the other team (2 players: seat i to 1 - i; 4: i to i ^ 2), same variant,
 * options, timeout and listing. Asked with a seat's token; the first asks
 * create it, every seat's token then gets its own new seat's link, and the
 * game's connections are told (without any link) that it exists. */
static int api_rematch(hx *c, sgame *g) {
    int replied;
    json_t *req = body_object(c, &replied);
    if (!req) return replied;
    const char *tok = json_string_value(json_object_get(req, "token"));
    pthread_mutex_lock(&g->mu);
    int seat = -1, ns = g->s.cfg->nseats;
    for (int i = 0; tok && i < ns; i++)
        if (g->seat[i].token[0] && strcmp(g->seat[i].token, tok) == 0) seat = i;
    json_decref(req); /* (tok is not used past here) */
    if (seat < 0) {
        pthread_mutex_unlock(&g->mu);
        return reply_code(c, 403, "rematch_token", "a rematch of game '%s' is asked with a player's \"token\"", g->id);
    }
    if (!kontor_over(&g->s)) {
        pthread_mutex_unlock(&g->mu);
        return reply_code(c, 409, "not_over", "game '%s' is not over: no rematch yet", g->id);
    }
    int moved = ns == 4 ? seat ^ 2 : 1 - seat; /* the asker's seat in the rematch */
    sgame *ng = g->rematch[0] ? find_game(g->rematch) : NULL;
    if (!ng) {
        json_t *kinds = json_array();
        for (int j = 0; j < ns; j++) json_array_append_new(kinds, json_string(g->seat[ns == 4 ? j ^ 2 : 1 - j].kind));
        char opts[256];
        kontor_config_describe(g->s.cfg, opts, sizeof opts);
        kontor_error err = {0};
        ng = create_game(kontor_variant_name(g->s.cfg->variant), opts, kinds, g->timeout_s, g->listed, g->takeback, &err);
        json_decref(kinds);
        if (!ng) {
            pthread_mutex_unlock(&g->mu);
            return reply_error(c, 500, "game '%s': the rematch could not be created: %s", g->id, err.msg);
        }
        snprintf(g->rematch, sizeof g->rematch, "%s", ng->id);
        logf_("game '%s' created, a rematch of '%s'", ng->id, g->id);
        for (wsconn *w = g->conns; w; w = w->next)
            send_json(w, json_pack("{s:s, s:s, s:s}", "type", "rematch", "game", g->id, "rematch", ng->id));
    }
    pthread_mutex_unlock(&g->mu);
    pthread_mutex_lock(&ng->mu);
    json_t *links = links_of(ng, moved);
    pthread_mutex_unlock(&ng->mu);
    char watch[64];
    snprintf(watch, sizeof watch, "/#watch/%s", ng->id);
    return reply_json(c, 200, json_pack("{s:s, s:o, s:s}", "id", ng->id, "seats", links, "watch", watch));
}

/* Claim a free human seat of an open game: its link, once. */
static int api_claim(hx *c, sgame *g, const char *seatstr) {
    char *end;
    long seat = strtol(seatstr, &end, 10);
    pthread_mutex_lock(&g->mu);
    if (*end || end == seatstr || seat < 0 || seat >= g->s.cfg->nseats) {
        pthread_mutex_unlock(&g->mu);
        return reply_code(c, 404, "no_seat", "game '%s' has no seat '%.8s'", g->id, seatstr);
    }
    if (!g->listed) {
        pthread_mutex_unlock(&g->mu);
        return reply_code(c, 403, "private", "game '%s' is private: its seats are taken only through their links", g->id);
    }
    if (strcmp(g->seat[seat].kind, "human") != 0 || g->seat[seat].claimed) {
        pthread_mutex_unlock(&g->mu);
        return reply_code(c, 409, "seat_taken", "game '%s': seat %ld is not free", g->id, seat);
    }
    g->seat[seat].claimed = 1;
    char *m = make_meta(g);
    kontor_error err;
    if (m) {
        free(g->meta);
        g->meta = m;
    }
    if (!m || save_game(g, &err) != KONTOR_OK) {
        g->seat[seat].claimed = 0;
        pthread_mutex_unlock(&g->mu);
        return reply_error(c, 500, "game '%s': the claim could not be stored", g->id);
    }
    json_t *links = links_of(g, (int)seat);
    broadcast(g);
    pthread_mutex_unlock(&g->mu);
    return reply_json(c, 200, json_pack("{s:s, s:o}", "id", g->id, "seats", links));
}

/* The whole record text of a game (deal, seed, every decision), from memory
 * or from the store, for the server's own use: while the game runs it holds
 * every secret, so it is sent to nobody (*over says whether it may be). */
static char *record_text(const char *id, int *found, int *over) {
    sgame *g = get_game(id);
    char *text = NULL;
    *found = 0;
    *over = 0;
    if (g) {
        size_t len;
        pthread_mutex_lock(&g->mu);
        kontor_record_set_result(&g->rec, &g->s);
        if (kontor_record_write(&g->rec, &text, &len) != KONTOR_OK) text = NULL;
        *over = kontor_over(&g->s);
        pthread_mutex_unlock(&g->mu);
        *found = 1;
        return text;
    }
    char *meta = NULL;
    kontor_error err;
    if (store_get(S.st, id, over, &meta, &text, &err) != KONTOR_OK) return NULL;
    free(meta);
    *found = 1;
    return text;
}

/* The value of name=value in a query string (no %-decoding: the values of
 * this API are numbers); 0 when absent or too long for out. */
static int query_var(const char *q, const char *name, char *out, size_t cap) {
    size_t nl = strlen(name);
    while (q && *q) {
        size_t k = strcspn(q, "&");
        if (k > nl && strncmp(q, name, nl) == 0 && q[nl] == '=') {
            if (k - nl - 1 >= cap) return 0;
            memcpy(out, q + nl + 1, k - nl - 1);
            out[k - nl - 1] = 0;
            return 1;
        }
        q += k;
        if (*q) q++;
    }
    return 0;
}

typedef struct replay_ctx {
    int upto;
    int viewer; /* -2 a finished game (every card shown), -1 a running one (a spectator) */
    json_t *events;
    long seq;
    const kontor_state *last;
} replay_ctx;

static void replay_events(void *ctx, const kontor_state *s, int ply, const kontor_log *log) {
    replay_ctx *rc = ctx;
    for (int i = 0; i < log->n; i++, rc->seq++)
        if (ply == rc->upto - 1) json_array_append_new(rc->events, sj_event(s, &log->ev[i], rc->seq, rc->viewer));
}

/* A position of a game for the replay viewer: after ply plies. Finished
 * games show every hand; running ones only what a spectator sees. */
static int api_view(hx *c, const char *id) {
    char pbuf[16] = "";
    long ply = -1;
    if (query_var(c->rq->query, "ply", pbuf, sizeof pbuf)) {
        char *end;
        ply = strtol(pbuf, &end, 10);
        if (!pbuf[0] || *end || ply < 0) return reply_error(c, 400, "'ply' must be a number from 0");
    }
    int found, stored_over;
    char *text = record_text(id, &found, &stored_over);
    if (!text) return found ? reply_error(c, 500, "game '%s': record unavailable", id)
                            : reply_code(c, 404, "no_game", "game '%s' does not exist", id);
    kontor_record r;
    kontor_error err;
    if (kontor_record_parse(&r, text, strlen(text), &err) != KONTOR_OK) {
        free(text);
        return reply_error(c, 500, "game '%s': %s", id, err.msg);
    }
    free(text);
    if (ply < 0 || ply > r.nply) ply = r.nply;
    kontor_state *s = malloc(sizeof *s), *fin = malloc(sizeof *fin);
    replay_ctx rc = {(int)ply, -1, json_array(), 0, NULL};
    int over = 0;
    /* both replays' states borrow this hold of their config (intern.c): released once they are gone */
    const kontor_config *held = kontor_config_retain(&r.cfg, &err);
    if (s && fin && held && kontor_record_replay(&r, -1, fin, NULL, NULL, &err) == KONTOR_OK) over = kontor_over(fin);
    if (over) rc.viewer = -2;
    if (!s || !fin || !held || kontor_record_replay(&r, (int)ply, s, replay_events, &rc, &err) != KONTOR_OK) {
        free(s);
        free(fin);
        kontor_config_release(held);
        kontor_record_release(&r);
        json_decref(rc.events);
        return reply_error(c, 500, "game '%s': %s", id, err.msg);
    }
    json_t *o;
    if (over) {
        o = sj_state_full(s);
    } else {
        kontor_view v;
        kontor_view_of(s, -1, &v);
        o = sj_view(&v);
    }
    json_object_set_new(o, "game", json_string(id));
    json_object_set_new(o, "ply", json_integer(ply));
    json_object_set_new(o, "plies", json_integer(r.nply));
    json_object_set_new(o, "events", rc.events);
    json_object_set_new(o, "cards", sj_cards(r.cfg.cards));
    json_t *pl = json_array();
    for (int i = 0; i < r.cfg.nseats; i++) json_array_append_new(pl, json_string(r.players[i]));
    json_object_set_new(o, "players", pl);
    json_object_set_new(o, "result", json_string(r.result));
    if (ply > 0) {
        /* who decided last; what, only once the game is over: while it runs
         * the decision may be a hidden one (a chosen card, a bribe), and the
         * events above already say what of it a spectator may know */
        kontor_ply p = r.ply[ply - 1];
        json_object_set_new(o, "last", over || S.leaky ? json_pack("{s:i, s:i}", "seat", p.seat, "m", p.move)
                                                       : json_pack("{s:i}", "seat", p.seat));
    }
    free(s);
    free(fin);
    kontor_config_release(held);
    kontor_record_release(&r);
    return reply_json(c, 200, o);
}

/* GET /api/games/ID/analysis (analysis_api.c): once the game is over, its
 * analysis, computed once by the workers: 202 pending until it is ready */
static int api_analysis(hx *c, const char *id) {
    analysis_answer a;
    if (!analysis_api_cached(id, &a)) {
        int found, over;
        char *text = record_text(id, &found, &over);
        if (!text) return found ? reply_error(c, 500, "game '%s': record unavailable", id)
                                : reply_error(c, 404, "game '%s' does not exist", id);
        if (!over && !S.leaky) {
            /* it would tell the hidden cards and the search's reading of them
             * (the test build kontor-leaky, -DKONTOR_TEST_LEAKY: served, so that test_leak.c shows
             * that its oracle sees it) */
            free(text);
            return reply_code(c, 409, "running", "game '%s' is running: it is analysed once it is over", id);
        }
        analysis_api_start(id, text, c->rq->addr, &a);
        free(text);
    }
    reply(c, a.status, "application/json", a.body ? a.body : "{}", a.body ? strlen(a.body) : 2, a.extra);
    free(a.body);
    return a.status;
}

/* Every variant of the engine's table with its seats and the expansions
 * (export=1, events=1, tiles=1) it takes: those whose deal succeeds, so the
 * lobby never offers a combination the engine refuses. */
static int api_variants(hx *c) {
    static const char *const exp[] = {"export=1", "events=1", "tiles=1"};
    json_t *a = json_array();
    kontor_state *s = malloc(sizeof *s);
    if (!s) return reply_error(c, 500, "out of memory");
    for (int v = 0; kontor_variant_describe(v); v++) {
        kontor_config cfg;
        kontor_error err;
        if (kontor_config_init(&cfg, kontor_variant_name(v), &err) != KONTOR_OK) continue;
        json_t *opts = json_array();
        for (size_t k = 0; k < sizeof exp / sizeof *exp; k++) {
            kontor_config c2 = cfg;
            if (kontor_config_option(&c2, exp[k], &err) != KONTOR_OK) continue;
            /* held for the trial deal only: a server pins no config but the named variants' (intern.c) */
            const kontor_config *held = kontor_config_retain(&c2, &err);
            if (held && kontor_new(s, held, 1, &err) == KONTOR_OK) json_array_append_new(opts, json_string(exp[k]));
            kontor_config_release(held);
        }
        json_array_append_new(a, json_pack("{s:s, s:s, s:i, s:i, s:i, s:o}", "name", kontor_variant_name(v),
                                           "describe", kontor_variant_describe(v), "seats", cfg.nseats, "w", cfg.width,
                                           "h", cfg.height, "expansions", opts));
    }
    free(s);
    /* the expansions' names for the lobby (docs/variants.md says what each does) */
    json_t *names = json_pack("{s:s, s:s, s:s}", "export=1", "expansion 1, Exportlager (export store)", "events=1",
                              "expansion 2, Ereigniskarten (event cards)", "tiles=1",
                              "expansion 3, Aktionstafeln (action tiles)");
    return reply_json(c, 200, json_pack("{s:o, s:o}", "variants", a, "expansions", names));
}

/* One histogram of latency.h: its count, p50, p99 and max in microseconds
 * since the start, and its non-empty buckets as [index, count] pairs (a
 * reader subtracts two readings for the quantiles of the time between). */
static json_t *lat_json(const lathist *h) {
    json_t *b = json_array();
    for (int i = 0; i < LAT_BUCKETS; i++)
        if (h->b[i]) json_array_append_new(b, json_pack("[i, I]", i, (json_int_t)h->b[i]));
    return json_pack("{s:I, s:I, s:I, s:I, s:o}", "n", (json_int_t)h->n, "p50_us",
                     (json_int_t)lat_quantile(h->b, h->n, 0.50), "p99_us", (json_int_t)lat_quantile(h->b, h->n, 0.99),
                     "max_us", (json_int_t)h->max_us, "buckets", b);
}

static long rss_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0) kib = strtol(line + 6, NULL, 10);
    fclose(f);
    return kib;
}

static int api_handler(hx *c) {
    const char *uri = c->rq->uri ? c->rq->uri : "";
    const char *method = c->rq->method ? c->rq->method : "";
    int get = strcmp(method, "GET") == 0, post = strcmp(method, "POST") == 0;
    if (strcmp(uri, "/api/games") == 0) {
        if (get) return api_list(c);
        if (post) return api_create(c);
        return reply_error(c, 405, "'%s /api/games': use GET or POST", method);
    }
    if (strcmp(uri, "/api/variants") == 0) {
        if (get) return api_variants(c);
        return reply_error(c, 405, "'%s /api/variants': use GET", method);
    }
    if (strcmp(uri, "/api/stats") == 0) {
        long n;
        sgame **all = snapshot(&n);
        free(all);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        json_int_t cpu_ms = (json_int_t)ru.ru_utime.tv_sec * 1000 + ru.ru_utime.tv_usec / 1000 +
                            (json_int_t)ru.ru_stime.tv_sec * 1000 + ru.ru_stime.tv_usec / 1000;
        /* shared: 1 when this node is one of several on one database;
         * latency: the server's own histograms (latency.h) */
        return reply_json(c, 200,
                          json_pack("{s:I, s:I, s:I, s:i, s:{s:o, s:o, s:o}}", "games", (json_int_t)n, "rss_kib",
                                    (json_int_t)rss_kib(), "cpu_ms", cpu_ms, "shared", S.shared, "latency",
                                    "decision", lat_json(&lat_decision), "wait", lat_json(&lat_wait), "loop",
                                    lat_json(&lat_loop)));
    }
    if (strncmp(uri, "/api/games/", 11) == 0) {
        char id[40] = "", rest[40] = "", arg[16] = "";
        const char *p = uri + 11;
        size_t k = strcspn(p, "/");
        if (k >= sizeof id) return reply_error(c, 404, "no such game");
        memcpy(id, p, k);
        id[k] = 0;
        p += k;
        if (*p == '/') {
            p++;
            size_t k2 = strcspn(p, "/");
            if (k2 >= sizeof rest) return reply_error(c, 404, "'%.60s' is not an API path", uri);
            memcpy(rest, p, k2);
            rest[k2] = 0;
            p += k2;
            if (*p == '/') snprintf(arg, sizeof arg, "%s", p + 1);
        }
        if (!valid_id(id)) return reply_error(c, 404, "'%.40s' is not a game id", id);
        if (rest[0] == 0 && get) {
            sgame *g = get_game(id);
            if (!g) return reply_code(c, 404, "no_game", "game '%s' does not exist", id);
            return reply_json(c, 200, summary(g));
        }
        if (strcmp(rest, "record") == 0 && get) {
            int found, over;
            char *text = record_text(id, &found, &over);
            if (!text) return found ? reply_error(c, 500, "game '%s': record unavailable", id)
                                    : reply_code(c, 404, "no_game", "game '%s' does not exist", id);
            if (!over && !S.leaky) {
                /* the record holds the seed, the deal and the hidden choices:
                 * published when the game ends, when it proves the shuffle */
                free(text);
                return reply_code(c, 409, "running",
                                  "game '%s' is running: its record (with the deal and the seed) is published when it ends",
                                  id);
            }
            char extra[128];
            snprintf(extra, sizeof extra, "Content-Disposition: attachment; filename=\"kontor-%s.kgn\"\r\n", id);
            reply(c, 200, "text/plain; charset=utf-8", text, strlen(text), extra);
            free(text);
            return 200;
        }
        if (strcmp(rest, "view") == 0 && get) return api_view(c, id);
        if (strcmp(rest, "takeback") == 0 && post) { /* game_chat.c */
            sgame *g = get_game(id);
            if (!g) return reply_error(c, 404, "game '%s' does not exist", id);
            int replied;
            json_t *req = body_object(c, &replied);
            if (!req) return replied;
            json_t *answer = NULL;
            int status = game_takeback(g, json_string_value(json_object_get(req, "token")), &answer);
            json_decref(req);
            return reply_json(c, status, answer);
        }
        if (strcmp(rest, "analysis") == 0 && get) return api_analysis(c, id);
        if (strcmp(rest, "rematch") == 0 && post) {
            sgame *g = find_game(id);
            if (!g) return reply_code(c, 404, "no_game", "game '%s' does not exist", id);
            return api_rematch(c, g);
        }
        if (strcmp(rest, "seats") == 0 && post && arg[0]) {
            sgame *g = get_game(id);
            if (!g) return reply_code(c, 404, "no_game", "game '%s' does not exist", id);
            return api_claim(c, g, arg);
        }
    }
    return reply_error(c, 404, "'%s %.80s' is not an API call", method, uri);
}

int server_http(const server_http_req *rq, server_http_resp *rs) {
    memset(rs, 0, sizeof *rs);
    hx c = {rq, rs};
    return api_handler(&c);
}
