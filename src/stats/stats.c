// SPDX-License-Identifier: GPL-2.0-or-later
/* stats.c - Student-t quantiles, confidence intervals, netperf's -i/-I rule. */
#include "config.h"

#include <math.h>

#include "stats/stats.h"

/* Above this many degrees of freedom the Cornish-Fisher series is exact to
 * double precision and cheaper than the continued fraction. */
#define STATS_DF_SERIES 100000u
#define STATS_CF_MAX 100000
#define STATS_BISECT_MAX 400

/*
 * Continued fraction of the regularised incomplete beta function
 * (modified Lentz; Numerical Recipes 6.4, DLMF 8.17.22), good for
 * x < (a + 1) / (a + b + 2).
 */
static double stats_betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-16;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= STATS_CF_MAX; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/* Regularised incomplete beta I_x(a, b), with y = 1 - x given exactly. */
static double stats_betai(double a, double b, double x, double y)
{
	double lnfront;

	if (x <= 0)
		return 0;
	if (y <= 0)
		return 1;
	lnfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		  b * log(y);
	if (x < (a + 1) / (a + b + 2))
		return exp(lnfront) * stats_betacf(a, b, x) / a;
	return 1 - exp(lnfront) * stats_betacf(b, a, y) / b;
}

/* P(|T| > t) for Student's t with df degrees of freedom (DLMF 8.17.5). */
static double stats_t_tail(double t, double df)
{
	double t2 = t * t;

	return stats_betai(df / 2, 0.5, df / (df + t2), t2 / (df + t2));
}

/* Solve tail(v) = alpha for v >= 0 by bracketing and bisection. */
static double stats_solve_tail(double (*tail)(double v, double df), double df,
			       double alpha)
{
	double lo = 0, hi = 1, mid;
	int i;

	while (tail(hi, df) > alpha && hi < 1e300) {
		lo = hi;
		hi *= 2;
	}
	for (i = 0; i < STATS_BISECT_MAX; i++) {
		mid = lo + (hi - lo) / 2;
		if (mid <= lo || mid >= hi)
			break;
		if (tail(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

/* P(|Z| > z) for the standard normal. */
static double stats_z_tail(double z, double unused)
{
	return erfc(z / M_SQRT2);
}

/*
 * t from the normal quantile z by the Cornish-Fisher expansion
 * (Abramowitz & Stegun 26.7.5); its error falls as df^-5.
 */
static double stats_t_series(double z, double df)
{
	double z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2;
	double z9 = z7 * z2;
	double g1 = (z3 + z) / 4;
	double g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
	double g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
	double g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) /
		    92160;

	return z + g1 / df + g2 / (df * df) + g3 / (df * df * df) +
	       g4 / (df * df * df * df);
}

/*
 * Two-sided quantile: the t with P(|T| <= t) = level / 100.  Any level in
 * (0, 100) works; anything else, or df == 0, gives NAN.
 */
double stats_t_quantile(double level, unsigned df)
{
	double alpha;

	if (!df || !(level > 0 && level < 100))
		return NAN;
	alpha = 1 - level / 100;
	if (df > STATS_DF_SERIES)
		return stats_t_series(stats_solve_tail(stats_z_tail, 0, alpha),
				      df);
	return stats_solve_tail(stats_t_tail, df, alpha);
}

/*
 * Mean, sample standard deviation and the Student-t interval of x.  With
 * fewer than two values the width is unknown (INFINITY); a zero mean gives
 * an infinite relative width unless every value is equal.
 */
void stats_ci(const double *x, unsigned n, double level, struct ci *out)
{
	double sum = 0, ss = 0, t;
	unsigned i;

	out->n = n;
	out->mean = 0;
	out->stddev = 0;
	out->half_width = INFINITY;
	out->width_pct = INFINITY;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		sum += x[i];
	out->mean = sum / n;
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		ss += (x[i] - out->mean) * (x[i] - out->mean);
	out->stddev = sqrt(ss / (n - 1));
	t = stats_t_quantile(level, n - 1);
	out->half_width = t * out->stddev / sqrt((double)n);
	if (out->half_width == 0)
		out->width_pct = 0;
	else if (out->mean != 0)
		out->width_pct = 2 * out->half_width / fabs(out->mean) * 100;
}

/*
 * netperf keeps iterating while fewer than min runs are done or, below
 * max, while any figure's interval is wider than asked (netperf's
 * calculate_confidence / confidence_iteration loop in netlib.c).
 */
bool stats_iterate_done(const struct iterate *it, const double *const *fig,
			unsigned nfig, unsigned n)
{
	struct ci ci;
	unsigned f;

	if (n < it->min_iter)
		return false;
	if (n >= it->max_iter)
		return true;
	for (f = 0; f < nfig; f++) {
		stats_ci(fig[f], n, it->level, &ci);
		if (!(ci.width_pct <= it->width_pct))
			return false;
	}
	return true;
}
