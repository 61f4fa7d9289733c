/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stats.h - Student-t intervals and netperf's iterate-until-confident rule. */
#ifndef TT_STATS_H
#define TT_STATS_H

#include <stdbool.h>

/*
 * Two-sided Student-t quantile: the t with P(|T| <= t) = level / 100, for
 * any level in (0, 100) (e.g. 95, 99) and df >= 1; NAN otherwise.
 */
double stats_t_quantile(double level, unsigned df);

struct ci {
	unsigned n;
	double mean;
	double stddev;		/* sample standard deviation (n - 1) */
	double half_width;	/* t * s / sqrt(n) */
	double width_pct;	/* full width (2 * half) as percent of mean */
};

/*
 * Mean and confidence interval of x[0..n-1] at level.  With n < 2,
 * half_width and width_pct are INFINITY; identical values give width 0, a
 * zero mean with any spread an infinite width_pct.
 */
void stats_ci(const double *x, unsigned n, double level, struct ci *out);

/*
 * netperf's -i max,min -I level,width: run at least min and at most max
 * iterations, stopping once every tracked figure's interval is at most
 * width percent of its mean.  Like netperf, the CLI clamps both counts to
 * 3..30 and raises max to min; stats_iterate_done takes them as given
 * (min is checked first).
 */
struct iterate {
	unsigned max_iter, min_iter;	/* CLI: 3 <= min <= max <= 30 */
	double level;			/* 95 or 99 */
	double width_pct;		/* full width, percent */
};

/*
 * Decide whether to stop after n iterations; fig[f][0..n-1] are the n
 * results of figure f.  false while n < min_iter, true once n >= max_iter,
 * otherwise true iff every figure's width_pct <= width_pct.
 */
bool stats_iterate_done(const struct iterate *it, const double *const *fig,
			unsigned nfig, unsigned n);

#endif
