/* agent.c: kontor's own agents by name, the random player, and the helpers
 * the agents share (options, errors, the clock).
 *
 * An agent is named by a spec, "NAME" or "NAME:key=value,key=value", so that
 * a command line, a record header and an arena table can all say exactly
 * which player played. The three levels for people (easy, medium, hard) are
 * nothing but fixed specs of the other agents, written in one table below, so
 * what "hard" means is never in doubt and is measured like any other spec
 * (docs/ai.md). The random player lives here because it is three lines: a
 * uniform pick from kontor_legal of the view's own state, which is legal for
 * the view's seat because a seat's legal decisions depend only on what it
 * can see (its own hand and the public board).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ai/ai.h"

void ai_fail(kontor_error *err, kontor_status code, const char *fmt, ...) {
    if (!err) return;
    va_list ap;
    memset(err, 0, sizeof *err);
    err->code = code;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

double ai_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int ai_parse_opts(const char *spec, const char *opts, ai_opt_fn fn, void *ctx, kontor_error *err) {
    char buf[256];
    if (strlen(opts) >= sizeof buf) {
        ai_fail(err, KONTOR_E_PARSE, "agent '%s': options too long", spec);
        return -1;
    }
    strcpy(buf, opts);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok || !eq[1]) {
            ai_fail(err, KONTOR_E_PARSE, "agent '%s': option '%s' is not of the form key=value", spec, tok);
            return -1;
        }
        *eq = 0;
        if (fn(ctx, tok, eq + 1, err)) return -1;
    }
    return 0;
}

/* A number in [lo, hi] for option key of spec; -1 and err on failure. */
static int ai_opt_number(const char *spec, const char *key, const char *val, double lo, double hi, double *out,
                         kontor_error *err) {
    char *end;
    double d = strtod(val, &end);
    if (end == val || *end || !(d >= lo && d <= hi)) {
        ai_fail(err, KONTOR_E_PARSE, "agent '%s': option '%s' wants a number from %g to %g, not '%s'", spec, key,
                lo, hi, val);
        return -1;
    }
    *out = d;
    return 0;
}

int ai_opt_set(const char *spec, const char *kind, const ai_opt *table, size_t n, void *base, const char *key,
               const char *val, kontor_error *err) {
    for (size_t i = 0; i < n; i++) {
        if (strcmp(key, table[i].key) != 0) continue;
        double d;
        if (ai_opt_number(spec, key, val, table[i].lo, table[i].hi, &d, err)) return -1;
        char *field = (char *)base + table[i].off;
        switch (table[i].type) {
        case AI_OPT_INT: *(int *)(void *)field = (int)d; break;
        case AI_OPT_U64: *(uint64_t *)(void *)field = (uint64_t)d; break;
        case AI_OPT_DOUBLE: *(double *)(void *)field = d; break;
        case AI_OPT_FLOAT: *(float *)(void *)field = (float)d; break;
        }
        return 0;
    }
    char names[200] = "";
    size_t len = 0;
    for (size_t i = 0; i < n && len < sizeof names; i++)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "", table[i].key);
    ai_fail(err, KONTOR_E_PARSE, "agent '%s': unknown option '%s' (%s takes %s)", spec, key, kind,
            n ? names : "none");
    return -1;
}

kontor_move ai_random_move(kontor_agent *a, const kontor_view *v) {
    kontor_move moves[KONTOR_MAX_MOVES];
    int n = kontor_legal(&v->s, v->seat, moves);
    if (n <= 0) {
        snprintf(a->error, sizeof a->error, "agent '%s': %s owes no decision", a->name,
                 kontor_seat_name(&v->s, v->seat));
        return KONTOR_FORFEIT;
    }
    return moves[kontor_rng_below(&a->rng, (uint32_t)n)];
}

/* ---- random ------------------------------------------------------------------- */

typedef struct random_impl {
    ai_base base;
} random_impl;

static kontor_move random_decide(kontor_agent *a, const kontor_view *v) { return ai_random_move(a, v); }

static int random_rank(kontor_agent *a, const kontor_view *v, ai_choice *out, int cap) {
    (void)a;
    kontor_move moves[KONTOR_MAX_MOVES];
    int n = kontor_legal(&v->s, v->seat, moves);
    if (n > cap) n = cap;
    for (int i = 0; i < n; i++) {
        out[i].move = moves[i];
        out[i].value = 1.0 / n;
        out[i].visits = 0;
    }
    return n;
}

static int random_opt(void *ctx, const char *key, const char *val, kontor_error *err) {
    return ai_opt_set(ctx, "random", NULL, 0, NULL, key, val, err); /* takes none */
}

void ai_release(kontor_agent *a) {
    ai_base *b = a->impl;
    if (b && b->destroy) b->destroy(b);
    else free(b);
    a->impl = NULL;
}

int ai_random_init(kontor_agent *a, const char *opts, kontor_error *err) {
    if (ai_parse_opts(a->name, opts, random_opt, a->name, err)) return -1;
    random_impl *r = calloc(1, sizeof *r);
    if (!r) {
        ai_fail(err, KONTOR_E_RANGE, "agent '%s': out of memory", a->name);
        return -1;
    }
    r->base.rank = random_rank;
    a->impl = r;
    a->decide = random_decide;
    a->release = ai_release;
    return 0;
}

/* ---- first: the first legal decision ---------------------------------------------- */

/* Fully predictable opponents (for the exploiter's tests and as a floor):
 * always the first of kontor_legal's decisions (first: declares to play,
 * plays its first hand card), or the last (last: declares a pass whenever it
 * may). */
static kontor_move first_decide(kontor_agent *a, const kontor_view *v) {
    kontor_move moves[KONTOR_MAX_MOVES];
    if (kontor_legal(&v->s, v->seat, moves) <= 0) return ai_random_move(a, v); /* fills a->error */
    return moves[0];
}

static kontor_move last_decide(kontor_agent *a, const kontor_view *v) {
    kontor_move moves[KONTOR_MAX_MOVES];
    int n = kontor_legal(&v->s, v->seat, moves);
    if (n <= 0) return ai_random_move(a, v); /* fills a->error */
    return moves[n - 1];
}

int ai_first_init(kontor_agent *a, const char *opts, kontor_error *err) {
    if (ai_random_init(a, opts, err)) return -1;
    a->decide = first_decide;
    return 0;
}

int ai_last_init(kontor_agent *a, const char *opts, kontor_error *err) {
    if (ai_random_init(a, opts, err)) return -1;
    a->decide = last_decide;
    return 0;
}

/* ---- by name ---------------------------------------------------------------------- */

/* The levels for people. Why these budgets: docs/ai.md, "Levels". */
static const struct level {
    const char *name, *spec;
} levels[] = {
    {"easy", "greedy:samples=2,noise=0.3"},
    {"medium", "ismcts:iters=4000"},
    {"hard", "ismcts:ms=1000,threads=2"},
};

static const struct kind {
    const char *name;
    int (*init)(kontor_agent *a, const char *opts, kontor_error *err);
} kinds[] = {
    {"random", ai_random_init},
    {"greedy", ai_greedy_init},
    {"ismcts", ai_ismcts_init},
    {"first", ai_first_init},
    {"last", ai_last_init},
    {"exploit", ai_exploit_init},
};

const char *ai_level_spec(const char *spec) {
    for (size_t i = 0; i < sizeof levels / sizeof *levels; i++)
        if (strcmp(spec, levels[i].name) == 0) return levels[i].spec;
    return spec;
}

kontor_agent *kontor_agent_new(const char *spec, uint64_t seed, kontor_error *err) {
    if (!spec) spec = "";
    if (strlen(spec) >= sizeof ((kontor_agent *)0)->name) {
        ai_fail(err, KONTOR_E_PARSE, "agent spec '%.40s...' is too long", spec);
        return NULL;
    }
    const char *full = ai_level_spec(spec);
    const char *colon = strchr(full, ':');
    size_t nlen = colon ? (size_t)(colon - full) : strlen(full);
    const char *opts = colon ? colon + 1 : "";
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        if (strlen(kinds[i].name) != nlen || strncmp(full, kinds[i].name, nlen) != 0) continue;
        kontor_agent *a = calloc(1, sizeof *a);
        if (!a) {
            ai_fail(err, KONTOR_E_RANGE, "agent '%s': out of memory", spec);
            return NULL;
        }
        snprintf(a->name, sizeof a->name, "%s", spec);
        kontor_rng_seed(&a->rng, seed);
        if (kinds[i].init(a, opts, err)) {
            free(a);
            return NULL;
        }
        return a;
    }
    ai_fail(err, KONTOR_E_INVALID, "agent '%s' is unknown (known: random, greedy, ismcts, easy, medium, hard)", spec);
    return NULL;
}

void kontor_agent_free(kontor_agent *a) {
    if (!a) return;
    if (a->release) a->release(a);
    free(a);
}

int kontor_agent_rank(kontor_agent *a, const kontor_view *v, ai_choice *out, int cap) {
    /* ours: every impl we create starts with an ai_base and releases through ai_release */
    if (!a || !a->impl || a->release != ai_release) return -1;
    return ((ai_base *)a->impl)->rank(a, v, out, cap);
}
