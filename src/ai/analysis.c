/* analysis.c: the post-game analysis of a record (issue 18, `kontor analyse`).
 *
 * For every decision of a game that had a choice, the seat's view at that
 * moment is searched (ismcts by default, at an iteration budget so the result
 * does not depend on the machine) and the decision played is compared with
 * the search's first choice. Results are in [0, 1], 1 = a sure win, so a loss
 * of 0.2 is "twenty points of win chance".
 *
 * The loss is not always read from that one search: there a decision the
 * search thought poor has few visits, or none, and its mean is noise (or
 * nothing). So when the decision played is not the search's first choice
 * and had fewer than AI_ANALYSIS_MIN_VISITS visits, both are re-searched
 * forced at the root, each with the same budget (forced_iters,
 * by default the main search's): AI_ANALYSIS_WORLDS determinizations of the
 * seat's view (the same worlds for both, so that they differ only by the
 * decision), the decision applied in each, and the rest searched from there:
 *  - after a sequential decision (a placement, the ship), an ismcts search
 *    of the position that follows from the view of whoever acts next (it
 *    determinizes again what that seat cannot see), its visit-weighted mean
 *    result turned into the deciding seat's side;
 *  - at a simultaneous choice (a card, a declaration) the opponent still
 *    picks without knowing the seat's pick, so the decision is not applied
 *    but fixed as the seat's pick at the root of a search of the opponent's
 *    choice in that world (ai_ismcts_rank_against); further opponents that
 *    pick at once (four players) pick at random there.
 * The loss is the forced value of the first choice minus that of the
 * decision played, never below 0. The forced values are the searches' values
 * of their most visited reply, which are optimistic at a small budget for
 * both alike: measured on the test's blunder (a placement giving an area
 * away), the forced loss at 1,500 iterations was 0.05-0.07 where a main
 * search of 60,000 iterations put it at 0.139 (and its own 1,500 at 0.40 on
 * 14 visits). So the main search's value is kept where it has visits enough
 * (AI_ANALYSIS_MIN_VISITS) and the forced one used where it has not.
 *
 * At a simultaneous choice the search's mixed strategy, its visit shares, is
 * kept beside the card played: there the "best" card is only best against
 * the opponent the search imagines. The search sees only the seat's view, as
 * in the game: the analysis never uses the opponent's hidden cards. The state
 * between decisions comes from the record itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/analysis.h"

#define SHARED_WORLDS 32

struct ai_analyser {
    kontor_ply *ply;
    int nply, i;
    kontor_state s;
    kontor_agent *a; /* the main search */
    kontor_agent *f; /* the forced re-searches: ismcts at forced_iters / AI_ANALYSIS_WORLDS a world */
    kontor_agent *g; /* ... or at forced_iters in one tree over the worlds */
    kontor_state *worlds; /* SHARED_WORLDS of them */
    uint64_t seed;
    char spec[64];
};

void ai_analysis_release(ai_analysis *an) {
    free(an->item);
    memset(an, 0, sizeof *an);
}

static int simultaneous(int phase) {
    return phase == KONTOR_PHASE_CHOOSE || phase == KONTOR_PHASE_DECLARE || phase == KONTOR_PHASE_BUY ||
           phase == KONTOR_PHASE_BRIBE || phase == KONTOR_PHASE_SELECT;
}

/* The value of "key=" in the options of spec (after its ':'), or 0. */
static uint64_t spec_opt(const char *spec, const char *key) {
    const char *o = strchr(spec, ':');
    size_t kl = strlen(key);
    while (o) {
        o++;
        if (strncmp(o, key, kl) == 0 && o[kl] == '=') return strtoull(o + kl + 1, NULL, 10);
        o = strchr(o, ',');
    }
    return 0;
}

/* The forced search's spec: ismcts at per-world iterations, with spec's own
 * ismcts settings but for its budget and threads. */
static void forced_spec(const char *spec, uint64_t per_world, char *out, size_t cap) {
    int n = snprintf(out, cap, "ismcts:iters=%llu", (unsigned long long)per_world);
    if (strncmp(spec, "ismcts:", 7) != 0) return;
    const char *o = spec + 7;
    while (*o) {
        size_t k = strcspn(o, ",");
        size_t kk = strcspn(o, "=");
        if (kk > k) kk = k;
        int skip = (kk == 5 && strncmp(o, "iters", 5) == 0) || (kk == 2 && strncmp(o, "ms", 2) == 0) ||
                   (kk == 7 && strncmp(o, "threads", 7) == 0) || (kk == 4 && strncmp(o, "stop", 4) == 0);
        if (!skip && n >= 0 && (size_t)n + k + 2 < cap) n += snprintf(out + n, cap - (size_t)n, ",%.*s", (int)k, o);
        o += k;
        if (*o == ',') o++;
    }
}

/* The root's value for the seat that chose: the mean result of its most
 * visited choice (ch is ranked so), as the search would play it; the
 * visit-weighted mean over every choice would count the search's
 * exploration of poor replies as if they were played. 1/2 without visits. */
static double root_value(const ai_choice *ch, int n) {
    return n > 0 && ch[0].visits > 0 ? ch[0].value : 0.5;
}

/* After a sequential decision: the position that follows, searched in one
 * tree over worlds t[0..n) (each a determinization of the seat's view with m
 * applied, so all consistent with what the seat knows after m) when the seat
 * q to act there has the same choices in every world; -2 when not (the
 * caller searches world by world), -1 when the search failed. */
static double shared_value(ai_analyser *z, const kontor_state *t, int n, int seat) {
    unsigned act = kontor_actors(&t[0]);
    int q = (act >> seat) & 1 ? seat : 0;
    while (q < t[0].cfg->nseats - 1 && !((act >> q) & 1)) q++;
    kontor_move m0[KONTOR_MAX_MOVES], mk[KONTOR_MAX_MOVES];
    int n0 = kontor_legal(&t[0], q, m0);
    for (int k = 0; k < n; k++) {
        if (kontor_actors(&t[k]) != act || kontor_over(&t[k])) return -2;
        if (kontor_legal(&t[k], q, mk) != n0 || memcmp(m0, mk, (size_t)n0 * sizeof *mk) != 0) return -2;
        /* several seats picking at once: the others' picks would be fixed */
        if (act & (act - 1)) return -2;
    }
    kontor_view v;
    kontor_view_of(&t[0], q, &v);
    kontor_move fixed[SHARED_WORLDS * KONTOR_MAX_SEATS] = {0};
    ai_choice ch[KONTOR_MAX_MOVES];
    int got = ai_ismcts_rank_against(z->g, &v, t, fixed, n, ch, KONTOR_MAX_MOVES);
    if (got < 0) return -1;
    double val = root_value(ch, got);
    return kontor_team(&t[0], q) != kontor_team(&t[0], seat) ? 1 - val : val;
}

/* The forced value for seat of decision m in state s (its view searched in
 * AI_ANALYSIS_WORLDS worlds); -1 when the search failed. */
static double forced_value(ai_analyser *z, const kontor_state *s, int seat, kontor_move m, int ply) {
    kontor_view v;
    kontor_view_of(s, seat, &v);
    kontor_rng worlds;
    kontor_rng_seed(&worlds, z->seed ^ (0xA11A1F5Eull * (uint64_t)(ply + 1)));
    int team = kontor_team(s, seat);
    kontor_determinizer dz; /* prepared once for every world: the same deals as kontor_determinize */
    kontor_determinizer_prepare(&v, &dz);
    if (!simultaneous(s->phase)) {
        kontor_state *t = z->worlds;
        int over = 0;
        for (int k = 0; k < SHARED_WORLDS; k++) {
            kontor_determinize_with(&dz, &worlds, &t[k]);
            if (kontor_apply(&t[k], seat, m, NULL) != KONTOR_OK) return -1;
            over |= kontor_over(&t[k]);
        }
        if (!over) {
            kontor_rng_seed(&z->g->rng, z->seed ^ (0x5EEDull * (uint64_t)(ply + 1)));
            double val = shared_value(z, t, SHARED_WORLDS, seat);
            if (val != -2) return val;
        }
        kontor_rng_seed(&worlds, z->seed ^ (0xA11A1F5Eull * (uint64_t)(ply + 1)));
    }
    double sum = 0;
    for (int k = 0; k < AI_ANALYSIS_WORLDS; k++) {
        kontor_state d;
        kontor_determinize_with(&dz, &worlds, &d);
        /* the search's own randomness, the same for every decision compared */
        kontor_rng_seed(&z->f->rng, z->seed ^ (0x5EEDull * (uint64_t)(ply + 1)) ^ ((uint64_t)k << 40));
        ai_choice ch[KONTOR_MAX_MOVES];
        double val;
        unsigned act = kontor_actors(&d);
        int other = -1;
        for (int q = 0; q < d.cfg->nseats && other < 0; q++)
            if (q != seat && ((act >> q) & 1)) other = q;
        if (simultaneous(d.phase) && other >= 0) {
            /* the opponent picks without knowing m: m is fixed at the root of a
             * search of the opponent's pick in this world */
            kontor_move fixed[KONTOR_MAX_SEATS] = {0};
            for (int q = 0; q < d.cfg->nseats; q++) {
                if (!((act >> q) & 1) || q == other) continue;
                if (q == seat) fixed[q] = m;
                else {
                    kontor_move lm[KONTOR_MAX_MOVES];
                    int nl = kontor_legal(&d, q, lm);
                    fixed[q] = nl > 0 ? lm[kontor_rng_below(&worlds, (uint32_t)nl)] : 0;
                }
            }
            kontor_view ov;
            kontor_view_of(&d, other, &ov);
            int n = ai_ismcts_rank_against(z->f, &ov, &d, fixed, 1, ch, KONTOR_MAX_MOVES);
            if (n < 0) return -1;
            val = root_value(ch, n);
            if (kontor_team(&d, other) != team) val = 1 - val;
        } else {
            if (kontor_apply(&d, seat, m, NULL) != KONTOR_OK) return -1;
            if (kontor_over(&d)) {
                float r[2];
                ai_result_of(&d, r);
                val = r[team];
            } else {
                act = kontor_actors(&d);
                int q = (act >> seat) & 1 ? seat : 0;
                while (q < d.cfg->nseats - 1 && !((act >> q) & 1)) q++;
                kontor_view nv;
                kontor_view_of(&d, q, &nv);
                int n = kontor_agent_rank(z->f, &nv, ch, KONTOR_MAX_MOVES);
                if (n < 0) return -1;
                val = root_value(ch, n);
                if (kontor_team(&d, q) != team) val = 1 - val;
            }
        }
        sum += val;
    }
    return sum / AI_ANALYSIS_WORLDS;
}

void ai_analyser_end(ai_analyser *z) {
    if (!z) return;
    kontor_agent_free(z->a);
    kontor_agent_free(z->f);
    kontor_agent_free(z->g);
    free(z->ply);
    free(z->worlds);
    free(z);
}

ai_analyser *ai_analyser_begin(const kontor_record *r, const char *spec, uint64_t seed, uint64_t forced_iters,
                               ai_analysis *an, kontor_error *err) {
    memset(an, 0, sizeof *an);
    ai_analyser *z = calloc(1, sizeof *z);
    if (!z) {
        ai_fail(err, KONTOR_E_RANGE, "out of memory");
        return NULL;
    }
    if (kontor_record_replay(r, 0, &z->s, NULL, NULL, err)) {
        free(z);
        return NULL;
    }
    snprintf(z->spec, sizeof z->spec, "%s", spec);
    z->seed = seed;
    z->a = kontor_agent_new(spec, seed, err);
    if (!z->a) {
        ai_analyser_end(z);
        return NULL;
    }
    if (!z->a->impl || z->a->release != ai_release) {
        ai_fail(err, KONTOR_E_INVALID, "agent '%s' cannot rank decisions", spec);
        ai_analyser_end(z);
        return NULL;
    }
    if (!forced_iters) forced_iters = spec_opt(ai_level_spec(spec), "iters");
    if (!forced_iters) forced_iters = 3000;
    uint64_t per_world = forced_iters / AI_ANALYSIS_WORLDS;
    char fs[128];
    forced_spec(ai_level_spec(spec), per_world ? per_world : 1, fs, sizeof fs);
    z->f = kontor_agent_new(fs, seed, err);
    forced_spec(ai_level_spec(spec), forced_iters, fs, sizeof fs);
    z->g = z->f ? kontor_agent_new(fs, seed, err) : NULL;
    if (!z->g) {
        ai_analyser_end(z);
        return NULL;
    }
    z->nply = r->nply;
    z->ply = malloc((size_t)(r->nply > 0 ? r->nply : 1) * sizeof *z->ply);
    an->item = calloc((size_t)(r->nply > 0 ? r->nply : 1), sizeof *an->item);
    z->worlds = malloc(SHARED_WORLDS * sizeof *z->worlds);
    if (!z->ply || !an->item || !z->worlds) {
        ai_fail(err, KONTOR_E_RANGE, "out of memory");
        ai_analyser_end(z);
        ai_analysis_release(an);
        return NULL;
    }
    if (r->nply) memcpy(z->ply, r->ply, (size_t)r->nply * sizeof *z->ply);
    an->nseats = z->s.cfg->nseats;
    an->final = z->s;
    return z;
}

void ai_analyser_progress(const ai_analyser *z, int *done, int *total) {
    *done = z->i;
    *total = z->nply;
}

/* The decisions up to and including the next one with a choice. */
int ai_analyser_step(ai_analyser *z, ai_analysis *an, kontor_error *err) {
    kontor_state *s = &z->s;
    while (z->i < z->nply) {
        int i = z->i;
        int seat = z->ply[i].seat;
        kontor_move played = z->ply[i].move;
        kontor_move legal[KONTOR_MAX_MOVES];
        int nl = seat < s->cfg->nseats ? kontor_legal(s, seat, legal) : 0;
        int searched = 0;
        if (nl > 1 && kontor_is_legal(s, seat, played)) {
            searched = 1;
            kontor_view v;
            kontor_view_of(s, seat, &v);
            ai_choice ch[KONTOR_MAX_MOVES];
            int n = kontor_agent_rank(z->a, &v, ch, KONTOR_MAX_MOVES);
            if (n < 0) {
                ai_fail(err, KONTOR_E_INVALID, "agent '%s' failed at decision %d: %s", z->spec, i + 1, z->a->error);
                return -1;
            }
            ai_decision *d = &an->item[an->n++];
            d->ply = i;
            d->seat = seat;
            d->round = s->round;
            d->phase = s->phase;
            d->played = played;
            d->state = *s;
            d->nchoice = n < AI_ANALYSIS_TOP ? n : AI_ANALYSIS_TOP;
            uint64_t total = 0;
            for (int k = 0; k < n; k++) total += ch[k].visits;
            d->best = ch[0].move;
            d->best_value = d->played_value = ch[0].value;
            for (int k = 0; k < n; k++)
                if (ch[k].move == played) {
                    d->search_value = ch[k].value;
                    d->played_share = total ? (double)ch[k].visits / (double)total : 0;
                }
            for (int k = 0; k < d->nchoice; k++) {
                d->choice[k] = ch[k];
                d->share[k] = total ? (double)ch[k].visits / (double)total : 0;
            }
            uint32_t pv = 0;
            for (int k = 0; k < n; k++)
                if (ch[k].move == played) pv = ch[k].visits;
            if (played != d->best && pv >= AI_ANALYSIS_MIN_VISITS) d->played_value = d->search_value;
            else if (played != d->best) {
                double b = forced_value(z, s, seat, d->best, i);
                double p = b < 0 ? -1 : forced_value(z, s, seat, played, i);
                if (b < 0 || p < 0) {
                    ai_fail(err, KONTOR_E_INVALID, "the forced search failed at decision %d: %s", i + 1, z->f->error);
                    return -1;
                }
                d->researched = 1;
                d->best_value = b;
                d->played_value = p;
            }
            d->loss = d->best_value - d->played_value;
            if (played == d->best || d->loss < 0) d->loss = 0;
        }
        if (seat >= s->cfg->nseats || kontor_apply(s, seat, played, NULL) != KONTOR_OK) {
            char why[160];
            ai_fail(err, KONTOR_E_ILLEGAL, "decision %d (round %d) is illegal: %s", i + 1, s->round,
                    seat < s->cfg->nseats ? kontor_why_illegal(s, seat, played, why, sizeof why) : "no such seat");
            return -1;
        }
        z->i++;
        an->final = *s;
        if (searched) return z->i >= z->nply;
    }
    return 1;
}

int ai_analyse_forced(const kontor_record *r, const char *spec, uint64_t seed, uint64_t forced_iters,
                      ai_analysis *an, kontor_error *err) {
    ai_analyser *z = ai_analyser_begin(r, spec, seed, forced_iters, an, err);
    if (!z) return -1;
    int rc;
    while ((rc = ai_analyser_step(z, an, err)) == 0) {
    }
    ai_analyser_end(z);
    if (rc < 0) {
        ai_analysis_release(an);
        return -1;
    }
    return 0;
}

int ai_analyse(const kontor_record *r, const char *spec, uint64_t seed, ai_analysis *an, kontor_error *err) {
    return ai_analyse_forced(r, spec, seed, 0, an, err);
}

int ai_analysis_worst(const ai_analysis *an, int seat, int k, int *out) {
    int n = 0;
    for (int i = 0; i < an->n; i++) {
        if (an->item[i].seat != seat || an->item[i].loss <= 0) continue;
        /* insert i into out[0..n), kept sorted by loss, biggest first, at most k */
        int j = n < k ? n++ : k;
        while (j > 0 && an->item[out[j - 1]].loss < an->item[i].loss) {
            if (j < k) out[j] = out[j - 1];
            j--;
        }
        if (j < k) out[j] = i;
    }
    return n;
}
