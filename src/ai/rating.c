/* rating.c: the arena's table of results and Elo by maximum likelihood.
 *
 * Ratings come from all games at once, not from an incremental update, so
 * they do not depend on the order the games were played in: the
 * Bradley-Terry model on the Elo scale is fitted by Newton's method (a
 * handful of agents, so the n x n linear algebra is trivial), with one
 * agent's rating held at zero during the fit and the result then centred on
 * the mean. The standard errors are the square roots of the diagonal of the
 * inverse Fisher information, carried through the centring, which is what
 * BayesElo and Ordo report as well (without their priors). A draw counts as
 * half a win and half a loss, the usual treatment.
 */
#include <math.h>
#include <string.h>

#include "kontor/match.h"

#define ELO_PER_NAT (400.0 / 2.302585092994046) /* 400 / ln 10 */

void kontor_arena_init(kontor_arena_table *t, int n) {
    memset(t, 0, sizeof *t);
    t->n = n;
}

void kontor_arena_add(kontor_arena_table *t, int a, int b, int seat_a, const kontor_match_result *r) {
    /* seat_a is agent a's team; in a two-player game seat and team are one */
    int ta = seat_a, tb = 1 - seat_a;
    int four = r->nseats == 4;
    kontor_arena_pair *pa = &t->p[a][b], *pb = &t->p[b][a];
    pa->games++;
    pb->games++;
    if (r->winner == ta) pa->wins++, pb->losses++;
    else if (r->winner == tb) pa->losses++, pb->wins++;
    else pa->draws++, pb->draws++;
    long d = (long)r->score[ta] - (long)r->score[tb];
    pa->diff += d;
    pb->diff -= d;
    for (int seat = 0; seat < (four ? 4 : 2); seat++) {
        int who = (four ? seat / 2 : seat) == ta ? a : b;
        t->decisions[who] += r->seat_decisions[seat];
        t->seconds[who] += r->seconds[seat];
    }
    if (r->forfeit >= 0) t->forfeits[(four ? r->forfeit / 2 : r->forfeit) == ta ? a : b]++;
}

double kontor_elo_of_score(double s) { return -400.0 * log10(1.0 / s - 1.0); }

/* Solve A x = b in place (Gauss-Jordan with partial pivoting) and, if inv is
 * not NULL, invert A into it. n <= KONTOR_ARENA_MAX. Returns -1 if singular. */
static int solve(int n, double a[KONTOR_ARENA_MAX][KONTOR_ARENA_MAX], double *x,
                 double inv[KONTOR_ARENA_MAX][KONTOR_ARENA_MAX]) {
    double m[KONTOR_ARENA_MAX][2 * KONTOR_ARENA_MAX + 1];
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) m[i][j] = a[i][j];
        for (int j = 0; j < n; j++) m[i][n + j] = i == j;
        m[i][2 * n] = x ? x[i] : 0;
    }
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(m[r][c]) > fabs(m[piv][c])) piv = r;
        if (fabs(m[piv][c]) < 1e-12) return -1;
        for (int j = 0; j <= 2 * n; j++) {
            double tmp = m[c][j];
            m[c][j] = m[piv][j];
            m[piv][j] = tmp;
        }
        double d = m[c][c];
        for (int j = 0; j <= 2 * n; j++) m[c][j] /= d;
        for (int r = 0; r < n; r++) {
            if (r == c || m[r][c] == 0) continue;
            double f = m[r][c];
            for (int j = 0; j <= 2 * n; j++) m[r][j] -= f * m[c][j];
        }
    }
    for (int i = 0; i < n; i++) {
        if (x) x[i] = m[i][2 * n];
        if (inv)
            for (int j = 0; j < n; j++) inv[i][j] = m[i][n + j];
    }
    return 0;
}

/* The information matrix h (the negative Hessian of the log-likelihood) over
 * the free parameters idx[1..m-1] at ratings x, and, if grad is not NULL, the
 * gradient: what both the Newton steps and the covariance at the optimum need. */
static void fisher(int m, const int *idx, double g[KONTOR_ARENA_MAX][KONTOR_ARENA_MAX],
                   double s[KONTOR_ARENA_MAX][KONTOR_ARENA_MAX], const double *x,
                   double h[KONTOR_ARENA_MAX][KONTOR_ARENA_MAX], double *grad) {
    memset(h, 0, sizeof(double) * KONTOR_ARENA_MAX * KONTOR_ARENA_MAX);
    for (int a = 1; a < m; a++) {
        int i = idx[a];
        for (int b = 0; b < m; b++) {
            int j = idx[b];
            if (i == j || g[i][j] == 0) continue;
            double p = 1.0 / (1.0 + exp(x[j] - x[i]));
            double w = g[i][j] * p * (1 - p);
            if (grad) grad[a - 1] += s[i][j] - g[i][j] * p;
            h[a - 1][a - 1] += w;
            if (b > 0) h[a - 1][b - 1] -= w;
        }
    }
}

int kontor_elo(const kontor_arena_table *t, double elo[], double se[]) {
    int n = t->n;
    if (n < 1 || n > KONTOR_ARENA_MAX) return -1;
    /* games and points with the virtual draw; who is connected to agent 0 */
    double g[KONTOR_ARENA_MAX][KONTOR_ARENA_MAX], s[KONTOR_ARENA_MAX][KONTOR_ARENA_MAX];
    int played[KONTOR_ARENA_MAX] = {0};
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            const kontor_arena_pair *p = &t->p[i][j];
            g[i][j] = p->games ? p->games + 1.0 : 0.0;
            s[i][j] = p->games ? p->wins + 0.5 * p->draws + 0.5 : 0.0;
            if (i != j && p->games) played[i] = 1;
        }
    /* the agents to fit: those that played; the first of them is the anchor */
    int idx[KONTOR_ARENA_MAX], m = 0;
    for (int i = 0; i < n; i++)
        if (played[i]) idx[m++] = i;
    double x[KONTOR_ARENA_MAX] = {0};
    for (int i = 0; i < n; i++) elo[i] = 0, se[i] = 0;
    if (m < 2) return 0;
    double h[KONTOR_ARENA_MAX][KONTOR_ARENA_MAX], cov[KONTOR_ARENA_MAX][KONTOR_ARENA_MAX];
    int k = m - 1; /* free parameters: idx[1..m-1] */
    for (int it = 0; it < 100; it++) {
        double grad[KONTOR_ARENA_MAX] = {0};
        fisher(m, idx, g, s, x, h, grad);
        /* Newton: x += H^-1 grad (H is the negative Hessian) */
        if (solve(k, h, grad, NULL)) return -1;
        double step = 0;
        for (int a = 1; a < m; a++) {
            x[idx[a]] += grad[a - 1];
            step = fmax(step, fabs(grad[a - 1]));
        }
        if (step < 1e-10) break;
        if (it == 99) return -1;
    }
    /* covariance of the free parameters at the optimum */
    fisher(m, idx, g, s, x, h, NULL);
    if (solve(k, h, NULL, cov)) return -1;
    /* full covariance C (anchor row and column zero), then centre:
     * y = (I - J/m) x, Cov(y) = A C A^T */
    double c[KONTOR_ARENA_MAX][KONTOR_ARENA_MAX] = {{0}};
    for (int a = 1; a < m; a++)
        for (int b = 1; b < m; b++) c[a][b] = cov[a - 1][b - 1];
    double rowmean[KONTOR_ARENA_MAX] = {0}, all = 0, mean = 0;
    for (int a = 0; a < m; a++) {
        for (int b = 0; b < m; b++) rowmean[a] += c[a][b] / m;
        all += rowmean[a] / m;
        mean += x[idx[a]] / m;
    }
    for (int a = 0; a < m; a++) {
        double var = c[a][a] - 2 * rowmean[a] + all;
        elo[idx[a]] = (x[idx[a]] - mean) * ELO_PER_NAT;
        se[idx[a]] = sqrt(var > 0 ? var : 0) * ELO_PER_NAT;
    }
    return 0;
}
