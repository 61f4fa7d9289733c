// SPDX-License-Identifier: GPL-2.0-or-later
/* abstat.c - is an A/B difference real: medians, bootstrap intervals,
 * Mann-Whitney U. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/abstat.h"

/* Largest side the exact Mann-Whitney distribution is computed for. */
#define ABSTAT_EXACT_MAX 10u
/* Fewer values than this on a side and the verdict is "~". */
#define ABSTAT_MIN_N 3u

struct abstat_obs {
	double v;
	unsigned from_a;
};

/* splitmix64 (Steele, Lea, Flood 2014): small, fast, and good enough to
 * resample with and to order pairs. */
uint64_t ab_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The top bit, not the bottom one: splitmix64's output is uniform in every
 * bit, and the top one is what `tunetop ab --seed S` has always used. */
int ab_pair_first(uint64_t *state)
{
	return (int)(ab_rand(state) >> 63);
}

/* A uniform index in [0, n) by Lemire's multiply-shift (bias below 2^-32 for
 * our n). */
static unsigned abstat_index(uint64_t *state, unsigned n)
{
	return (unsigned)(((unsigned __int128)ab_rand(state) * n) >> 64);
}

static void abstat_swap(double *v, unsigned i, unsigned j)
{
	double t = v[i];

	v[i] = v[j];
	v[j] = t;
}

/*
 * Put the k-th smallest of v[0..n-1] (no NANs) at v[k], smaller ones
 * before it and larger ones after.  Three-way partitions, because
 * bootstrap medians of a few values repeat a lot.
 */
static void abstat_select(double *v, unsigned n, unsigned k)
{
	unsigned lo = 0, hi = n;

	while (hi - lo > 1) {
		double x = v[lo], y = v[lo + (hi - lo) / 2], z = v[hi - 1];
		double p = x < y ? (y < z ? y : (x < z ? z : x))
				 : (x < z ? x : (y < z ? z : y));
		unsigned lt = lo, i = lo, gt = hi;

		while (i < gt) {
			if (v[i] < p)
				abstat_swap(v, lt++, i++);
			else if (v[i] > p)
				abstat_swap(v, i, --gt);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return;
	}
}

/* Median of v[0..n-1] (n > 0, no NANs), reordering v. */
static double abstat_median_inplace(double *v, unsigned n)
{
	unsigned h = n / 2, i;
	double lo;

	abstat_select(v, n, h);
	if (n & 1)
		return v[h];
	lo = v[0];
	for (i = 1; i < h; i++)
		if (v[i] > lo)
			lo = v[i];
	return lo + (v[h] - lo) / 2;
}

/* The q-quantile (0..1) of v[0..n-1] (n > 0, no NANs) by linear interpolation
 * (R type 7). */
static double abstat_quantile_inplace(double *v, unsigned n, double q)
{
	double h = q * (n - 1), frac, next;
	unsigned k = (unsigned)h, i;

	abstat_select(v, n, k);
	frac = h - k;
	if (frac <= 0 || k + 1 >= n)
		return v[k];
	next = v[k + 1];
	for (i = k + 2; i < n; i++)
		if (v[i] < next)
			next = v[i];
	return v[k] + frac * (next - v[k]);
}

/* Copy the non-NAN values of v into out; returns how many. */
static unsigned abstat_clean(const double *v, unsigned n, double *out)
{
	unsigned i, m = 0;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			out[m++] = v[i];
	return m;
}

double ab_median(const double *v, unsigned n)
{
	double *c, m;
	unsigned k;

	if (!v || !n)
		return NAN;
	c = malloc(n * sizeof(*c));
	if (!c)
		return NAN;
	k = abstat_clean(v, n, c);
	m = k ? abstat_median_inplace(c, k) : NAN;
	free(c);
	return m;
}

static int abstat_obs_cmp(const void *x, const void *y)
{
	const struct abstat_obs *p = x, *q = y;

	return (p->v > q->v) - (p->v < q->v);
}

/*
 * P(U <= u) for U the Mann-Whitney statistic of m and n values
 * (m, n <= ABSTAT_EXACT_MAX) under the null hypothesis without ties.
 * count(i, j, u) = count(i - 1, j, u - j) + count(i, j - 1, u): the
 * largest of i + j values is either one of the i (beating all j) or one
 * of the j (beating none) -- Mann and Whitney (1947).
 */
static double abstat_mw_exact_cdf(unsigned m, unsigned n, unsigned u)
{
	double prev[ABSTAT_EXACT_MAX + 1]
		   [ABSTAT_EXACT_MAX * ABSTAT_EXACT_MAX + 1];
	double cur[ABSTAT_EXACT_MAX + 1]
		  [ABSTAT_EXACT_MAX * ABSTAT_EXACT_MAX + 1];
	double below = 0, total = 0;
	unsigned i, j, k;

	memset(prev, 0, sizeof(prev));
	for (j = 0; j <= n; j++)
		prev[j][0] = 1;
	for (i = 1; i <= m; i++) {
		memset(cur, 0, sizeof(cur));
		cur[0][0] = 1;
		for (j = 1; j <= n; j++)
			for (k = 0; k <= i * j; k++)
				cur[j][k] = (k >= j ? prev[j][k - j] : 0) +
					    cur[j - 1][k];
		memcpy(prev, cur, sizeof(prev));
	}
	for (k = 0; k <= m * n; k++) {
		total += prev[n][k];
		if (k <= u)
			below += prev[n][k];
	}
	return below / total;
}

/* Mann-Whitney p-value of two NAN-free samples (both non-empty). */
static double abstat_mw(const double *a, unsigned na, const double *b,
			unsigned nb)
{
	unsigned n = na + nb, i, j;
	struct abstat_obs *o = malloc(n * sizeof(*o));
	double ranks_a = 0, ties = 0, u, mu, var, z, p;

	if (!o)
		return NAN;
	for (i = 0; i < na; i++)
		o[i] = (struct abstat_obs){a[i], 1};
	for (i = 0; i < nb; i++)
		o[na + i] = (struct abstat_obs){b[i], 0};
	qsort(o, n, sizeof(*o), abstat_obs_cmp);
	for (i = 0; i < n; i = j) {
		double t, rank;
		unsigned in_a = 0;

		for (j = i; j < n && o[j].v == o[i].v; j++)
			in_a += o[j].from_a;
		t = j - i;
		rank = (i + 1 + j) / 2.0; /* ranks i+1 .. j averaged */
		ranks_a += in_a * rank;
		ties += t * t * t - t;
	}
	free(o);
	u = ranks_a - na * (na + 1) / 2.0;
	mu = (double)na * nb / 2;
	if (na <= ABSTAT_EXACT_MAX && nb <= ABSTAT_EXACT_MAX && ties == 0) {
		double lo = u < mu ? u : (double)na * nb - u;

		p = 2 * abstat_mw_exact_cdf(na, nb, (unsigned)lo);
		return p < 1 ? p : 1;
	}
	var = (double)na * nb / 12 * ((n + 1) - ties / ((double)n * (n - 1)));
	if (var <= 0)
		return 1; /* every value tied: no evidence of a difference */
	z = (fabs(u - mu) - 0.5) / sqrt(var);
	if (z <= 0)
		return 1;
	p = erfc(z / M_SQRT2);
	return p < 1 ? p : 1;
}

double ab_mann_whitney(const double *a, unsigned na, const double *b,
		       unsigned nb)
{
	double *ca, *cb, p = NAN;
	unsigned ma, mb;

	if (!a || !b || !na || !nb)
		return NAN;
	ca = malloc(na * sizeof(*ca));
	cb = malloc(nb * sizeof(*cb));
	if (ca && cb) {
		ma = abstat_clean(a, na, ca);
		mb = abstat_clean(b, nb, cb);
		if (ma && mb)
			p = abstat_mw(ca, ma, cb, mb);
	}
	free(ca);
	free(cb);
	return p;
}

/* 100 * (mb - ma) / ma, with a resampled median of 0 kept out of NAN. */
static double abstat_rel(double ma, double mb)
{
	if (ma == 0)
		return mb == 0 ? 0 : (mb > 0 ? INFINITY : -INFINITY);
	return 100 * (mb - ma) / ma;
}

/*
 * Percentile bootstrap: resample a and b independently with replacement,
 * boot times, and take the 2.5 and 97.5 percentiles of the relative
 * difference of the resampled medians (Efron and Tibshirani 1993, 13.3).
 */
static int abstat_boot(const double *a, unsigned na, const double *b,
		       unsigned nb, unsigned boot, uint64_t seed, double *lo,
		       double *hi)
{
	unsigned n = na > nb ? na : nb, r, i;
	double *tmp = malloc(n * sizeof(*tmp));
	double *d = malloc(boot * sizeof(*d));
	uint64_t st = seed;

	if (!tmp || !d) {
		free(tmp);
		free(d);
		return -ENOMEM;
	}
	for (r = 0; r < boot; r++) {
		double ma, mb;

		for (i = 0; i < na; i++)
			tmp[i] = a[abstat_index(&st, na)];
		ma = abstat_median_inplace(tmp, na);
		for (i = 0; i < nb; i++)
			tmp[i] = b[abstat_index(&st, nb)];
		mb = abstat_median_inplace(tmp, nb);
		d[r] = abstat_rel(ma, mb);
	}
	*lo = abstat_quantile_inplace(d, boot, 0.025);
	*hi = abstat_quantile_inplace(d, boot, 0.975);
	free(tmp);
	free(d);
	return 0;
}

/* Decimals that keep the smaller of |delta| and the half-width from printing as
 * 0.0. */
static int abstat_decimals(double x)
{
	x = fabs(x);
	if (x >= 0.05 || x == 0)
		return 1;
	if (x >= 0.005)
		return 2;
	return 3;
}

/*
 * Fill the verdict the way benchstat prints one: "~" when the test cannot
 * tell (why says p or the sample size), else the signed change and half
 * the interval's width, "-7.1 % ± 1.3 %".  "±" is UTF-8 (U+00B1, two
 * bytes); the caller decides whether its terminal can show it.
 */
static void abstat_verdict(struct ab_result *r, double alpha)
{
	unsigned n = r->na < r->nb ? r->na : r->nb;
	double half = (r->ci_hi_pct - r->ci_lo_pct) / 2;
	int dec;

	if (n < ABSTAT_MIN_N) {
		snprintf(r->verdict, sizeof(r->verdict), "~");
		snprintf(r->why, sizeof(r->why), "too few samples (n=%u)", n);
		return;
	}
	if (!(r->p < alpha)) {
		snprintf(r->verdict, sizeof(r->verdict), "~");
		snprintf(r->why, sizeof(r->why), "p=%.2g", r->p);
		return;
	}
	/*
	 * Both tests must agree: a rank test that happens to fire while the
	 * bootstrap interval of the change still holds 0 is no difference
	 * a user should act on (and it keeps false alarms on identical
	 * samples under alpha, also at n = 10 where the rank test alone
	 * gives ~4.3 %).
	 */
	if (!isnan(half) && r->ci_lo_pct <= 0 && r->ci_hi_pct >= 0) {
		snprintf(r->verdict, sizeof(r->verdict), "~");
		snprintf(r->why, sizeof(r->why), "p=%.2g but the interval holds 0", r->p);
		return;
	}
	r->significant = true;
	if (isnan(half)) {
		dec = abstat_decimals(r->delta_pct);
		snprintf(r->verdict, sizeof(r->verdict), "%+.*f %%", dec,
			 r->delta_pct);
		return;
	}
	dec = abstat_decimals(fabs(r->delta_pct) < half ? r->delta_pct : half);
	snprintf(r->verdict, sizeof(r->verdict), "%+.*f %% \u00b1 %.*f %%", dec,
		 r->delta_pct, dec, half);
}

/*
 * The A/B comparison of ab_result.  Infinite values are rejected
 * (-EINVAL) like a median of 0: a relative change cannot be formed.
 * Allocation failure is -ENOMEM.  With boot 0 the interval is NAN and
 * the verdict carries no "±".
 */
int ab_compare(const double *a, unsigned na, const double *b, unsigned nb,
	       double alpha, unsigned boot, uint64_t seed,
	       struct ab_result *out)
{
	double *ca = NULL, *cb = NULL;
	unsigned i;
	int ret = 0;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->median_a = out->median_b = out->delta_pct = NAN;
	out->ci_lo_pct = out->ci_hi_pct = out->p = NAN;
	snprintf(out->verdict, sizeof(out->verdict), "~");
	if ((!a && na) || (!b && nb) || !(alpha > 0 && alpha < 1)) {
		snprintf(out->why, sizeof(out->why), "invalid arguments");
		return -EINVAL;
	}
	ca = malloc((na ? na : 1) * sizeof(*ca));
	cb = malloc((nb ? nb : 1) * sizeof(*cb));
	if (!ca || !cb) {
		ret = -ENOMEM;
		snprintf(out->why, sizeof(out->why), "out of memory");
		goto out;
	}
	out->na = abstat_clean(a, na, ca);
	out->nb = abstat_clean(b, nb, cb);
	if (!out->na || !out->nb) {
		ret = -EINVAL;
		snprintf(out->why, sizeof(out->why), "no values (n=%u+%u)",
			 out->na, out->nb);
		goto out;
	}
	for (i = 0; i < out->na || i < out->nb; i++) {
		if ((i < out->na && isinf(ca[i])) ||
		    (i < out->nb && isinf(cb[i]))) {
			ret = -EINVAL;
			snprintf(out->why, sizeof(out->why), "infinite value");
			goto out;
		}
	}
	out->p = abstat_mw(ca, out->na, cb, out->nb);
	if (isnan(out->p)) {
		ret = -ENOMEM;
		snprintf(out->why, sizeof(out->why), "out of memory");
		goto out;
	}
	out->median_a = abstat_median_inplace(ca, out->na);
	out->median_b = abstat_median_inplace(cb, out->nb);
	if (out->median_a == 0) {
		ret = -EINVAL;
		snprintf(out->why, sizeof(out->why),
			 "median of A is 0: no relative change");
		goto out;
	}
	out->delta_pct = abstat_rel(out->median_a, out->median_b);
	if (boot) {
		ret = abstat_boot(ca, out->na, cb, out->nb, boot, seed,
				  &out->ci_lo_pct, &out->ci_hi_pct);
		if (ret) {
			snprintf(out->why, sizeof(out->why), "out of memory");
			goto out;
		}
	}
	abstat_verdict(out, alpha);
out:
	free(ca);
	free(cb);
	return ret;
}

int ab_median_run(const double *v, unsigned n)
{
	unsigned m = 0, want;

	for (unsigned i = 0; i < n; i++)
		m += isfinite(v[i]) ? 1 : 0;
	if (!m)
		return -1;
	want = (m - 1) / 2;
	/* The run whose rank, ties broken by order, is the lower middle one. */
	for (unsigned k = 0; k < n; k++) {
		unsigned rank = 0;

		if (!isfinite(v[k]))
			continue;
		for (unsigned j = 0; j < n; j++)
			if (isfinite(v[j]) && (v[j] < v[k] || (v[j] == v[k] && j < k)))
				rank++;
		if (rank == want)
			return (int)k;
	}
	return -1;
}
