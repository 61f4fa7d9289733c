/* SPDX-License-Identifier: GPL-2.0-or-later */
/* abstat.h - is the difference real?  Medians, bootstrap intervals, Mann-Whitney, verdicts. */
#ifndef TT_ABSTAT_H
#define TT_ABSTAT_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Two samples of one metric, a (before / knob set A) and b (after / B).
 * The difference is b relative to a: (median(b) - median(a)) / median(a).
 */
struct ab_result {
	unsigned na, nb;
	double median_a, median_b;
	double delta_pct;		/* 100 * (median_b - median_a) / median_a */
	double ci_lo_pct, ci_hi_pct;	/* 95 % bootstrap interval of delta_pct */
	double p;			/* two-sided Mann-Whitney U p-value */
	bool significant;		/* p < alpha and the interval excludes 0
					 * (and enough samples to tell) */
	char verdict[48];		/* "~" or e.g. "-7.1 % ± 1.3 %" (benchstat's manner) */
	char why[96];			/* when "~": "p=0.42" or "too few samples (n=2)" */
};

/*
 * Compare a[0..na-1] with b[0..nb-1] (NAN values are left out).  alpha is
 * the significance level (0.05); boot the bootstrap resamples (e.g. 10000),
 * seed its PRNG (reproducible).  The interval is the percentile bootstrap
 * of the relative difference of medians; the half-width printed in the
 * verdict is half the interval's width.  A difference is significant
 * when the rank test says so at alpha and the interval does not hold 0;
 * with fewer than 3 values on a side the verdict is "~" (too few samples).  0, or -EINVAL (a median of
 * 0, no values).
 */
int ab_compare(const double *a, unsigned na, const double *b, unsigned nb, double alpha,
	       unsigned boot, uint64_t seed, struct ab_result *out);

/* Two-sided Mann-Whitney U test p-value, ties averaged: exact for
 * na, nb <= 10 without ties, else the normal approximation with the
 * tie-corrected variance and continuity correction. */
double ab_mann_whitney(const double *a, unsigned na, const double *b, unsigned nb);

/* splitmix64: the next value of the generator whose state is *state. */
uint64_t ab_rand(uint64_t *state);

/*
 * The A/B pair order: which side runs first in the next pair, 0 (A) or 1
 * (B), each pair at random to cancel drift.  *state is the seed, advanced;
 * the same seed gives the same order (`tunetop ab --seed`, the dashboard).
 */
int ab_pair_first(uint64_t *state);

/* Median of v[0..n-1] (NANs left out); NAN when none.  v is not changed. */
double ab_median(const double *v, unsigned n);

/*
 * Which of a side's n runs (their rates v, NAN: not counted) stands for
 * it when two sides' runs are compared mechanism by mechanism (what moved
 * from A to B, docs/why.md): the median-rate run, the lower middle one of
 * an even count, the earlier run of equal rates.  Its index, or -1 when
 * no rate is finite.  `tunetop ab` and the dashboard's A/B both ask here.
 */
int ab_median_run(const double *v, unsigned n);

#endif
