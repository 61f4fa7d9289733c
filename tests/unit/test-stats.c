// SPDX-License-Identifier: GPL-2.0-or-later
/* test-stats.c - Student-t quantiles, confidence intervals, -i/-I stopping. */
#include "config.h"

#include <math.h>
#include <stdbool.h>

#include "session/iterate.h"
#include "session/session.h"
#include "stats/stats.h"
#include "tap.h"

struct t_known {
	double level;
	unsigned df;
	double t;	/* from published two-sided t tables */
};

static const struct t_known t_table[] = {
	{ 95, 1, 12.706 },  { 95, 2, 4.303 },	{ 95, 9, 2.262 },
	{ 99, 29, 2.756 },  { 99, 1, 63.657 },	{ 95, 30, 2.042 },
	{ 95, 1000, 1.962 }, { 90, 5, 2.015 },	{ 99, 4, 4.604 },
	{ 99.9, 10, 4.587 }, { 80, 20, 1.325 }, { 95, 120, 1.980 },
};

static void test_t_table(void)
{
	unsigned i;

	for (i = 0; i < sizeof(t_table) / sizeof(t_table[0]); i++) {
		const struct t_known *k = &t_table[i];
		double t = stats_t_quantile(k->level, k->df);

		ok(fabs(t - k->t) < 0.0005, "t(%g %%, df=%u) = %.3f (got %.6f)",
		   k->level, k->df, k->t, t);
	}
}

/*
 * For df = 1 (Cauchy) and df = 2 the quantile has a closed form, so any
 * level can be checked to near double precision.
 */
static void test_t_closed_forms(void)
{
	static const double levels[] = { 50.5, 60, 75, 88.8, 95, 97.3, 99,
					 99.9, 99.99 };
	double worst1 = 0, worst2 = 0;
	unsigned i;

	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		double l = levels[i] / 100;
		double t1 = tan(M_PI * l / 2);
		double t2 = l * sqrt(2 / (1 - l * l));
		double e1 = fabs(stats_t_quantile(levels[i], 1) - t1) / t1;
		double e2 = fabs(stats_t_quantile(levels[i], 2) - t2) / t2;

		if (e1 > worst1)
			worst1 = e1;
		if (e2 > worst2)
			worst2 = e2;
	}
	ok(worst1 < 1e-9, "df=1 matches tan(pi*level/2) at levels 50.5..99.99 "
	   "(worst relative error %.2g)", worst1);
	ok(worst2 < 1e-9, "df=2 matches level*sqrt(2/(1-level^2)) at levels "
	   "50.5..99.99 (worst relative error %.2g)", worst2);
}

static void test_t_shape(void)
{
	static const unsigned dfs[] = { 1, 2, 3, 5, 10, 30, 100, 1000, 10000,
					99999, 100000, 100001, 1000000,
					4000000000u };
	double prev = INFINITY, z = 1.959963984540054;
	bool falling = true, rising = true;
	unsigned i;

	for (i = 0; i < sizeof(dfs) / sizeof(dfs[0]); i++) {
		double t = stats_t_quantile(95, dfs[i]);

		if (!(t < prev && t > z))
			falling = false;
		prev = t;
	}
	ok(falling, "95 %% quantile falls with df and stays above the normal "
	   "quantile, across the large-df series switch");
	ok(fabs(stats_t_quantile(95, 4000000000u) - z) < 1e-8,
	   "huge df gives the normal quantile 1.959964");
	prev = 0;
	for (i = 51; i < 100; i++) {
		double t = stats_t_quantile(i, 7);

		if (!(t > prev))
			rising = false;
		prev = t;
	}
	ok(rising, "quantile rises with level at df=7 from 51 to 99 %%");
	ok(isnan(stats_t_quantile(100, 5)) && isnan(stats_t_quantile(0, 5)) &&
	   isnan(stats_t_quantile(-3, 5)) && isnan(stats_t_quantile(NAN, 5)) &&
	   isnan(stats_t_quantile(95, 0)),
	   "level outside (0, 100) or df = 0 gives NAN");
}

static void test_ci(void)
{
	static const double x[] = { 10, 12, 14, 16, 18 };
	static const double same[] = { 7, 7, 7 };
	static const double neg[] = { -10, -12, -14, -16, -18 };
	static const double around0[] = { -1, 1, -1, 1 };
	struct ci ci;
	/* by hand: s = sqrt(40 / 4), t(95 %, 4) = 2.7764451,
	 * half = 2.7764451 * sqrt(10) / sqrt(5) = 3.9264863 */
	double half = 3.9264863;

	stats_ci(x, 5, 95, &ci);
	ok(ci.n == 5 && ci.mean == 14 && fabs(ci.stddev - sqrt(10)) < 1e-12,
	   "10,12,14,16,18: mean 14, sample stddev sqrt(10)");
	ok(fabs(ci.half_width - half) < 1e-6,
	   "10,12,14,16,18 at 95 %%: half width 3.92649 (got %.7f)",
	   ci.half_width);
	ok(fabs(ci.width_pct - 2 * half / 14 * 100) < 1e-4,
	   "10,12,14,16,18 at 95 %%: width 56.09 %% of the mean (got %.4f)",
	   ci.width_pct);

	stats_ci(neg, 5, 95, &ci);
	ok(ci.mean == -14 && fabs(ci.width_pct - 2 * half / 14 * 100) < 1e-4,
	   "a negative mean gives the same positive width");

	stats_ci(x, 1, 95, &ci);
	ok(ci.n == 1 && ci.mean == 10 && isinf(ci.half_width) &&
	   isinf(ci.width_pct), "one value: mean, but an infinite interval");
	stats_ci(x, 0, 95, &ci);
	ok(ci.n == 0 && isinf(ci.half_width) && isinf(ci.width_pct),
	   "no values: infinite interval");

	stats_ci(same, 3, 99, &ci);
	ok(ci.mean == 7 && ci.stddev == 0 && ci.half_width == 0 &&
	   ci.width_pct == 0, "identical values: zero width");
	stats_ci(around0, 4, 95, &ci);
	ok(ci.mean == 0 && ci.half_width > 0 && isinf(ci.width_pct),
	   "spread around a zero mean: infinite relative width");
}

static void test_iterate(void)
{
	static const double narrow[] = { 100, 101, 99, 100, 100, 100, 100,
					 100, 100, 100 };
	static const double wide[] = { 100, 130, 70, 100, 100, 130, 70, 100,
				       100, 100 };
	const double *const both_narrow[] = { narrow, narrow };
	const double *const one_wide[] = { narrow, wide };
	struct iterate it = { .max_iter = 10, .min_iter = 3, .level = 99,
			      .width_pct = 5 };

	ok(!stats_iterate_done(&it, both_narrow, 2, 2),
	   "below min: not done, however narrow");
	ok(stats_iterate_done(&it, one_wide, 2, 10),
	   "at max: done, however wide");
	ok(stats_iterate_done(&it, both_narrow, 2, 5),
	   "between min and max: done once every figure is narrow enough");
	ok(!stats_iterate_done(&it, one_wide, 2, 5) &&
	   !stats_iterate_done(&it, one_wide + 1, 1, 9),
	   "between min and max: not done while one figure is too wide");
	ok(stats_iterate_done(&it, one_wide, 1, 5),
	   "only tracked figures count");

	/* narrow[0..4]: width 1.76 % at 95 %, 2.91 % at 99 % */
	it.width_pct = 2.5;
	ok(!stats_iterate_done(&it, both_narrow, 1, 5),
	   "width 2.5 %% at 99 %%: not yet");
	it.level = 95;
	ok(stats_iterate_done(&it, both_narrow, 1, 5),
	   "width 2.5 %% at 95 %%: done (the level is honoured)");

	it.min_iter = 6;
	ok(!stats_iterate_done(&it, both_narrow, 1, 5),
	   "raising min keeps a narrow run going");
}

/* One finished iteration as the session reports it. */
static void add_iter(struct iter_set *set, enum test_type type, double thr,
		     double lcpu, double elapsed)
{
	struct session_result r = { .throughput = thr };
	double units = test_is_rr(type) ? thr * elapsed
					: thr * 1e6 / 8 / 1024 * elapsed;

	r.local.cpu.ncpu = 2;
	r.local.cpu.total.busy = lcpu;
	r.local_sd = service_demand(lcpu, 2, elapsed, units);
	r.remote_sd = -1;
	iter_add(set, &r);
}

static void test_iter_sd(void)
{
	struct iterate it = { .max_iter = 10, .min_iter = 3, .level = 99,
			      .width_pct = 5 };
	struct iter_set set = { 0 };
	struct iter_result ir;

	/* netperf: 86.58 % of 2 CPUs at 36856.04 Mbit/s is 0.385 us/KB
	 * (tcp_stream-i.txt); 43.37 % at 58180.24 Trans/s is 14.930 us/Tr */
	ok(fabs(iter_sd(TEST_TCP_STREAM, 86.58, 2, 36856.04) - 0.385) < 0.0005,
	   "stream SD: netperf's 0.385 us/KB");
	ok(fabs(iter_sd(TEST_TCP_RR, 43.37, 2, 58180.24) - 14.909) < 0.001,
	   "RR SD: util/100 * ncpu * 1e6 / trans per s");
	ok(iter_sd(TEST_TCP_RR, 50, 0, 1000) < 0 &&
	   iter_sd(TEST_TCP_RR, NAN, 2, 1000) < 0 &&
	   iter_sd(TEST_TCP_RR, 50, 2, 0) < 0,
	   "SD n/a without CPUs, utilisation or work");

	/* Iterations whose SDs disagree with the SD of the means. */
	add_iter(&set, TEST_TCP_STREAM, 10000, 50, 1.0);
	add_iter(&set, TEST_TCP_STREAM, 20000, 90, 1.0);
	add_iter(&set, TEST_TCP_STREAM, 30000, 100, 1.0);
	iter_finish(&set, &it, true, false, TEST_TCP_STREAM, 2, 0, &ir);
	ok(ir.n == 3 && fabs(ir.throughput - 20000) < 1e-9 &&
	   fabs(ir.lcpu - 80) < 1e-9, "means of throughput and CPU");
	ok(fabs(ir.lsd - 0.8 * 2 * 1e6 / (20000e6 / 8 / 1024)) < 1e-9,
	   "SD is netperf's formula on the means (%.4f), not a mean of SDs (%.4f)",
	   ir.lsd, ir.ci[ITER_LSD].mean);
	ok(ir.rsd < 0 && isinf(ir.ci[ITER_RSD].width_pct) == 0 &&
	   ir.ci[ITER_RSD].n == 3, "no remote CPU: remote SD n/a");
	ok(ir.ci[ITER_THR].n == 3 && ir.ci[ITER_LCPU].n == 3 &&
	   ir.ci[ITER_LSD].n == 3 && ir.ci[ITER_LSD].width_pct > 0,
	   "every figure has its own interval over the same iterations");
	ok(!ir.reached && !iter_done(&set, &it, true, false),
	   "wide: not reached, not done below max");
}

static void test_segs_per_trans(void)
{
	struct end_result e = { .segs_out = 3000, .segs_in = 2500,
				.data_segs_out = 1000, .data_segs_in = 2000 };
	struct segs_per_trans s;

	e.total.trans = 1000;
	session_segs_per_trans(&e, true, &s);
	ok(s.out == 3.0 && s.in == 2.5 && s.data_out == 1.0 && s.data_in == 2.0,
	   "segments per transaction: all and data, each direction");
	e.data_segs_out = -1;
	session_segs_per_trans(&e, true, &s);
	ok(s.data_out < 0 && s.out == 3.0, "a kernel without data_segs: n/a, the rest stays");
	session_segs_per_trans(&e, false, &s);
	ok(s.out < 0 && s.in < 0 && s.data_in < 0, "not an RR test: n/a");
	e.total.trans = 0;
	session_segs_per_trans(&e, true, &s);
	ok(s.out < 0, "no transaction: n/a, not a division by zero");
}

int main(void)
{
	test_t_table();
	test_t_closed_forms();
	test_t_shape();
	test_ci();
	test_iterate();
	test_iter_sd();
	test_segs_per_trans();
	return tap_done();
}
