/* ismcts_matrix.h: the root's matrix game under final=nash (ismcts_matrix.c
 * says why): the joint results of the two seats' picks at a simultaneous
 * root, and the solver of its zero-sum game. Private to src/ai. */
#ifndef KONTOR_AI_ISMCTS_MATRIX_H
#define KONTOR_AI_ISMCTS_MATRIX_H
#include <stdint.h>

#include "kontor/kontor.h"

/* Rows: the searching seat's root moves (a hand holds at most 12 cards;
 * more, and the root is not a matrix game here: the most visited plays).
 * Columns: the opponent's moves by id, every one seen in a determinization
 * (his hidden hand differs between them; 64 so that a hand is a word of
 * bits; a move past them is not recorded). Hands: the distinct sets of
 * columns the opponent could pick from (his legal moves in a
 * determinization), each with how often it was dealt; past MX_HANDS a new
 * hand is not counted (its cell's result still is). */
#define MX_ROWS 32
#define MX_COLS 64
#define MX_HANDS 512
#define MX_HASH 1024 /* open addressing over the hands, slot + 1, 0 for none */
#define MX_MOVE_KEYS 4096 /* a move is kind << 8 | value, kind in 4 bits */
/* A cell's mean counts MX_PRIOR results of the additive fit of its row and
 * column (ismcts_matrix.c says why); the option shrink=K changes it. */
#define MX_PRIOR 4.0

typedef struct ist_matrix {
    int on;                      /* this search records: a simultaneous root, one other seat acting */
    int seat, opp;               /* the searching seat and the other acting one */
    int nr, nc, nh;
    kontor_move row[MX_ROWS], col[MX_COLS];
    uint8_t colix[MX_MOVE_KEYS]; /* opponent's move -> column + 1, 0 for none */
    double sum[MX_ROWS][MX_COLS]; /* results for the searching seat's team */
    uint32_t cnt[MX_ROWS][MX_COLS];
    uint64_t hand[MX_HANDS];
    uint32_t hw[MX_HANDS];
    uint16_t hix[MX_HASH];
    int pr, pc;                  /* this iteration's cell, -1: none (not recorded) */
    uint64_t lost;               /* iterations not recorded (a move past the columns) */
    int steps;                   /* the solver's rounds (MX_STEPS; tests may change it) */
    double shrink;               /* a cell's pseudo-samples of the additive fit (MX_PRIOR; shrink=K) */
} ist_matrix;

/* A new search from the root of s: records only if s is simultaneous with
 * seat and exactly one other seat acting and seat's moves fit the rows. */
void ist_matrix_start(ist_matrix *M, const kontor_state *s, int seat, const kontor_move *moves, int n);
/* An iteration's picks at the root: seat's, the opponent's, and the
 * opponent's legal moves in this determinization (his hand). */
void ist_matrix_pick(ist_matrix *M, kontor_move mine, kontor_move theirs, const kontor_move *legal, int nlegal);
/* The iteration's result for seat's team (in [0, 1], the opponent's 1 - x). */
void ist_matrix_result(ist_matrix *M, double x);
/* Adds src's records into dst (the same root: par=root|sync, par=tree's threads). */
void ist_matrix_merge(ist_matrix *dst, const ist_matrix *src);
/* The equilibrium mix of seat over M's rows (x[i] for M->row[i]); rows never
 * sampled get 0. Returns the rows, 0 when nothing was recorded. */
int ist_matrix_solve(const ist_matrix *M, double *x);

/* The solver itself: A[i * nc + j] the row player's result (in [0, 1],
 * zero-sum: the column player's is 1 - A) for row i against column j; the
 * column player picks knowing his hand, hands[h] a set of columns (bit j)
 * dealt with weight w[h] (nh = 0: one hand of every column, the plain matrix
 * game). x gets the row player's maximin mix after steps rounds of regret
 * matching against the column player's best response. Returns the mix's
 * guaranteed value. */
/* final=nash's decision (ismcts.c, after the ranking in m->base.last):
 * merges the trees' matrices, solves, fills m->mix by the ranking and
 * returns the index in it of a draw from the mix (from rng); 0 (the most
 * visited) when the root was not recorded as a matrix game. */
struct ismcts_impl;
int ist_nash_pick(struct ismcts_impl *m, kontor_rng *rng);

double ist_nash_solve(const double *A, int nr, int nc, const uint64_t *hands, const double *w, int nh, int steps,
                      double *x);
#endif
