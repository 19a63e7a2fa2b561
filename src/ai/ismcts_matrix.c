/* ismcts_matrix.c: final=nash, a draw from an equilibrium of the root's
 * matrix game at a simultaneous choice (issue 18, item 2).
 *
 * Why. ismcts searches the simultaneous card choice with decoupled
 * selection: each seat keeps statistics per own card, never per pair, and
 * the decision is the most visited card, a pure strategy that a program
 * modelling it beats (exploit: +72 Elo at 2,000 iterations, docs/ai.md,
 * session twelve). Drawing from the visit shares (final=visits) was no less
 * exploitable: those shares are mostly exploration, not an equilibrium. So
 * here the root keeps what decoupled statistics throw away: for each pair
 * (my card, the opponent's card) the sum and count of the results of the
 * iterations that played it, and the decision solves the zero-sum game of
 * those means and draws from my side's equilibrium mix.
 *
 * The opponent's hand differs between determinizations, so the columns are
 * his moves by id (every one seen), and a column is not always his to play:
 * each iteration also records his hand (his legal moves there, a set of
 * columns), and the game solved is the one in which he picks knowing his
 * hand: his pure strategies are a card for each hand, and my maximin mix x
 * maximises sum_h w_h min_{j in h} (x'A)_j (w_h how often hand h was
 * dealt). Where his hand is known (later in a game, when his cards came from
 * face-up piles) it is the plain matrix game of the means. Treating every
 * column as always his would let a card he holds in a few determinizations
 * decide my mix.
 *
 * Few samples. The search's own selection decides which pairs are tried,
 * and many cells are seen a few times or never. A cell's mean is shrunk
 * toward the additive fit of its row and column, row mean + column mean -
 * overall mean (clamped to [0, 1]), as if MX_PRIOR results of that fit were
 * among its samples: an unseen pair is assumed to do as my card does on
 * average, moved by how good the opponent's card is on average. (Toward the
 * row mean alone, every unseen pair would look like my card's average and
 * the mix would lean to the pure search's choice; toward the overall mean,
 * a rarely tried card of mine would look average against everything.)
 * Rows (my moves) never sampled get no weight.
 *
 * The solver: regret matching plus (Tammelin 2014) on both sides, the
 * opponent's per hand (his regrets over the cards of that hand), updated
 * in turn (mine, then his against my new strategy), for MX_STEPS rounds;
 * my mix is the average of my rounds' strategies weighted by the round's
 * number (as CFR+ averages). The average regrets go to 0, so the pair of
 * averages approaches an equilibrium of the hand-by-hand game (bilinear,
 * so the minimax theorem holds); the value returned is what my mix
 * guarantees against his best response in each hand. Regret matching
 * against a best-responding opponent instead (tried first) converged more
 * slowly: on 2 x 2 pennies paying 0.9 and 0.3 it was at 0.265 for the
 * first row after 1,000 rounds where the equilibrium is 0.25 (this one:
 * 0.2506, and 0.2535 after 100). No LP, no dependency; a round costs rows x columns + the
 * hands' cards.
 *
 * Hooks: ismcts.c starts a matrix per tree at a search (final=nash, not
 * under an opponent model), ismcts_tree.c's iterate() reports the root's
 * picks and the playout's result, and the decision merges the threads'
 * matrices, solves and draws with the agent's generator (reproducible for a
 * seed). With two or more other seats acting (the game for four) or no
 * other (the opponent passed), the decision is the most visited card. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ismcts_matrix.h"
#include "ai/ismcts_tree.h"

/* MX_PRIOR (ismcts_matrix.h), the pseudo-samples of the additive fit in
 * every cell (above): at 2,000 iterations a 5 x 5 root's visited cells hold
 * tens of results; a cell seen once or twice is then mostly the fit, one
 * seen 40 times mostly its own mean. A larger shrink=K leans to the fit, in
 * which my best card is the same against every card of his: as K grows the
 * mix goes to the pure best mean. */
/* Rounds of the solver: on rock-paper-scissors 100 rounds already put each
 * card within 0.001 of 1/3, on the uneven pennies above 250 within 0.002 of 1/4
 * (the tests ask 0.01); at the card choices of a 2,000-iteration game 250
 * rounds gave every card's share within 0.01 of 10,000 rounds' (100 within
 * 0.02). A round costs rows x columns + the hands' cards: at a 5 x 53 root
 * with 512 hands, 1,000 rounds were 158 M instructions against the
 * search's 84 M (callgrind), 250 rounds a quarter of that. */
#define MX_STEPS 250

void ist_matrix_start(ist_matrix *M, const kontor_state *s, int seat, const kontor_move *moves, int n) {
    M->on = 0;
    M->pr = M->pc = -1;
    unsigned act = kontor_actors(s);
    if (!(act >> seat & 1) || n > MX_ROWS || n < 1) return;
    unsigned others = act & ~(1u << seat);
    if (!others || (others & (others - 1))) return; /* none, or two and more */
    int opp = 0;
    while (!(others >> opp & 1)) opp++;
    M->on = 1;
    M->seat = seat;
    M->opp = opp;
    M->nr = n;
    memcpy(M->row, moves, (size_t)n * sizeof *moves);
    M->nc = M->nh = 0;
    M->lost = 0;
    M->steps = MX_STEPS;
    M->shrink = MX_PRIOR;
    memset(M->colix, 0, sizeof M->colix);
    memset(M->sum, 0, sizeof M->sum);
    memset(M->cnt, 0, sizeof M->cnt);
    memset(M->hix, 0, sizeof M->hix);
}

/* The column of an opponent's move, made if new; -1 past MX_COLS. */
static int column(ist_matrix *M, kontor_move m) {
    int c = M->colix[m & (MX_MOVE_KEYS - 1)];
    if (c) return c - 1;
    if (M->nc == MX_COLS) return -1;
    M->col[M->nc] = m;
    M->colix[m & (MX_MOVE_KEYS - 1)] = (uint8_t)(M->nc + 1);
    return M->nc++;
}

static uint32_t hand_hash(uint64_t h) {
    return (uint32_t)((h * 0x9E3779B97F4A7C15ULL) >> 40) & (MX_HASH - 1);
}

/* Counts w more deals of hand h (dropped past MX_HANDS). */
static void add_hand(ist_matrix *M, uint64_t h, uint32_t w) {
    for (uint32_t k = hand_hash(h);; k = (k + 1) & (MX_HASH - 1)) {
        int s = M->hix[k];
        if (s && M->hand[s - 1] == h) {
            M->hw[s - 1] += w;
            return;
        }
        if (!s) {
            if (M->nh == MX_HANDS) return;
            M->hand[M->nh] = h;
            M->hw[M->nh] = w;
            M->hix[k] = (uint16_t)(++M->nh);
            return;
        }
    }
}

void ist_matrix_pick(ist_matrix *M, kontor_move mine, kontor_move theirs, const kontor_move *legal, int nlegal) {
    M->pr = M->pc = -1;
    int r = 0;
    while (r < M->nr && M->row[r] != mine) r++;
    if (r == M->nr) return;
    uint64_t h = 0;
    for (int i = 0; i < nlegal; i++) {
        int c = column(M, legal[i]);
        if (c < 0) {
            M->lost++;
            return;
        }
        h |= 1ull << c;
    }
    int c = column(M, theirs);
    if (c < 0) {
        M->lost++;
        return;
    }
    add_hand(M, h | 1ull << c, 1);
    M->pr = r;
    M->pc = c;
}

void ist_matrix_result(ist_matrix *M, double x) {
    if (M->pr < 0) return;
    M->sum[M->pr][M->pc] += x;
    M->cnt[M->pr][M->pc]++;
    M->pr = M->pc = -1;
}

void ist_matrix_merge(ist_matrix *dst, const ist_matrix *src) {
    if (!dst->on || !src->on) return;
    int map[MX_COLS];
    for (int j = 0; j < src->nc; j++) map[j] = column(dst, src->col[j]);
    for (int i = 0; i < src->nr; i++) {
        int r = 0;
        while (r < dst->nr && dst->row[r] != src->row[i]) r++;
        if (r == dst->nr) continue;
        for (int j = 0; j < src->nc; j++)
            if (map[j] >= 0) {
                dst->sum[r][map[j]] += src->sum[i][j];
                dst->cnt[r][map[j]] += src->cnt[i][j];
            }
    }
    for (int h = 0; h < src->nh; h++) {
        uint64_t b = src->hand[h], d = 0;
        int ok = 1;
        for (; b; b &= b - 1) {
            int j = map[__builtin_ctzll(b)];
            if (j < 0) ok = 0;
            else d |= 1ull << j;
        }
        if (ok) add_hand(dst, d, src->hw[h]);
    }
    dst->lost += src->lost;
}

int ist_matrix_solve(const ist_matrix *M, double *x) {
    if (!M->on || M->nc == 0) return 0;
    int nr = M->nr, nc = M->nc;
    double rs[MX_ROWS] = {0}, cs[MX_COLS] = {0}, tot = 0;
    uint32_t rn[MX_ROWS] = {0}, cn[MX_COLS] = {0};
    uint64_t n = 0;
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nc; j++) {
            rs[i] += M->sum[i][j], rn[i] += M->cnt[i][j];
            cs[j] += M->sum[i][j], cn[j] += M->cnt[i][j];
            tot += M->sum[i][j], n += M->cnt[i][j];
        }
    if (n == 0) return 0;
    /* the sampled rows only, in A (row-major), the shrunk means */
    double A[MX_ROWS * MX_COLS];
    int idx[MX_ROWS], k = 0;
    double mu = tot / (double)n;
    for (int i = 0; i < nr; i++) {
        if (!rn[i]) continue;
        double a = rs[i] / rn[i];
        for (int j = 0; j < nc; j++) {
            double b = cn[j] ? cs[j] / cn[j] : mu, prior = a + b - mu;
            prior = prior < 0 ? 0 : prior > 1 ? 1 : prior;
            A[k * nc + j] = (M->sum[i][j] + M->shrink * prior) / (M->cnt[i][j] + M->shrink);
        }
        idx[k++] = i;
    }
    double w[MX_HANDS], y[MX_ROWS];
    for (int h = 0; h < M->nh; h++) w[h] = M->hw[h];
    /* no hand counted (cannot happen with a cell sampled): the plain game */
    ist_nash_solve(A, k, nc, M->hand, w, M->nh, M->steps, y);
    for (int i = 0; i < nr; i++) x[i] = 0;
    for (int i = 0; i < k; i++) x[idx[i]] = y[i];
    return nr;
}

/* The column player's best response per hand to the row mix's column
 * values y (the lowest y in the hand, the first column on a tie), summed
 * into s by the hands' weights; returns the weight. */
static double respond(const double *y, int nc, const uint64_t *hands, const double *w, int nh, double *s) {
    for (int j = 0; j < nc; j++) s[j] = 0;
    if (nh == 0) {
        int b = 0;
        for (int j = 1; j < nc; j++)
            if (y[j] < y[b]) b = j;
        s[b] = 1;
        return 1;
    }
    double W = 0;
    for (int h = 0; h < nh; h++) {
        uint64_t bits = hands[h];
        if (!bits || w[h] <= 0) continue;
        int b = __builtin_ctzll(bits);
        for (bits &= bits - 1; bits; bits &= bits - 1) {
            int j = __builtin_ctzll(bits);
            if (y[j] < y[b]) b = j;
        }
        s[b] += w[h];
        W += w[h];
    }
    return W;
}

/* The mix of regrets q over k choices (regret matching: the positive
 * regrets normalised, uniform when none is positive). */
static void match(const double *q, int k, double *p) {
    double pos = 0;
    for (int i = 0; i < k; i++) pos += q[i];
    for (int i = 0; i < k; i++) p[i] = pos > 0 ? q[i] / pos : 1.0 / k;
}

double ist_nash_solve(const double *A, int nr, int nc, const uint64_t *hands, const double *w, int nh, int steps,
                      double *x) {
    double q[MX_ROWS] = {0}, cur[MX_ROWS], y[MX_COLS], s[MX_COLS], u[MX_ROWS], norm = 0;
    if (nr <= 0) return 0;
    uint64_t all = nc >= 64 ? ~0ull : (1ull << nc) - 1;
    static const double one = 1;
    if (nh == 0) { /* the plain game: one hand of every column */
        hands = &all;
        w = &one;
        nh = 1;
    }
    /* the opponent's regrets, per hand per card of it, in one block */
    int total = 0;
    for (int h = 0; h < nh; h++) total += __builtin_popcountll(hands[h]);
    double *Q = calloc((size_t)total + 1, 2 * sizeof *Q), *P = Q ? Q + total + 1 : NULL;
    double W = 0;
    for (int h = 0; h < nh; h++) W += w[h] > 0 ? w[h] : 0;
    for (int i = 0; i < nr; i++) x[i] = 0;
    for (int t = 1; Q && W > 0 && t <= steps; t++) {
        /* the opponent's current strategy per hand, and its sum over the hands */
        for (int j = 0; j < nc; j++) s[j] = 0;
        for (int h = 0, o = 0; h < nh; h++) {
            int k = __builtin_popcountll(hands[h]);
            match(Q + o, k, P + o);
            if (w[h] > 0)
                for (uint64_t b = hands[h], e = 0; b; b &= b - 1, e++) s[__builtin_ctzll(b)] += w[h] * P[o + e];
            o += k;
        }
        /* my regrets against it (regret matching plus: none kept below 0) */
        match(q, nr, cur);
        double ubar = 0;
        for (int i = 0; i < nr; i++) {
            u[i] = 0;
            for (int j = 0; j < nc; j++) u[i] += s[j] * A[i * nc + j];
            u[i] /= W;
            ubar += cur[i] * u[i];
        }
        for (int i = 0; i < nr; i++) {
            q[i] += u[i] - ubar;
            if (q[i] < 0) q[i] = 0;
            x[i] += t * cur[i]; /* the average, the later rounds weighing more */
        }
        norm += t;
        /* then his, per hand, against my updated strategy (alternating updates) */
        match(q, nr, cur);
        for (int j = 0; j < nc; j++) {
            y[j] = 0;
            for (int i = 0; i < nr; i++) y[j] += cur[i] * A[i * nc + j];
        }
        for (int h = 0, o = 0; h < nh; h++) {
            int k = __builtin_popcountll(hands[h]);
            double ev = 0;
            uint64_t b = hands[h];
            for (int e = 0; e < k; e++, b &= b - 1) ev += P[o + e] * y[__builtin_ctzll(b)];
            b = hands[h];
            for (int e = 0; e < k; e++, b &= b - 1) {
                Q[o + e] += ev - y[__builtin_ctzll(b)]; /* his result is 1 - mine */
                if (Q[o + e] < 0) Q[o + e] = 0;
            }
            o += k;
        }
    }
    free(Q);
    if (norm <= 0) {
        for (int i = 0; i < nr; i++) x[i] = 1.0 / nr;
    } else
        for (int i = 0; i < nr; i++) x[i] /= norm;
    /* the mix's guaranteed value: the opponent's best response to it */
    for (int j = 0; j < nc; j++) {
        y[j] = 0;
        for (int i = 0; i < nr; i++) y[j] += x[i] * A[i * nc + j];
    }
    double Wr = respond(y, nc, hands, w, nh, s), v = 0;
    for (int j = 0; j < nc; j++) v += s[j] * y[j];
    return Wr > 0 ? v / Wr : 0;
}

int ist_nash_pick(ismcts_impl *m, kontor_rng *rng) {
    int n = m->base.nlast;
    for (int i = 0; i < n; i++) m->mix[i] = 0;
    ist_matrix *M = m->trees[0].mx;
    if (!M || !M->on) return 0;
    for (int t = 1; t < m->threads; t++)
        if (m->trees[t].mx) ist_matrix_merge(M, m->trees[t].mx);
    double x[MX_ROWS];
    if (!ist_matrix_solve(M, x)) return 0;
    for (int i = 0; i < n; i++)
        for (int r = 0; r < M->nr; r++)
            if (M->row[r] == m->base.last[i].move) m->mix[i] = x[r];
    double u = (double)(kontor_rng_next(rng) >> 11) * 0x1.0p-53, acc = 0;
    int last = 0;
    for (int i = 0; i < n; i++) {
        if (m->mix[i] <= 0) continue;
        acc += m->mix[i];
        last = i;
        if (u < acc) return i;
    }
    return last; /* rounding: the sum fell short of u */
}
