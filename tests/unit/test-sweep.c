// SPDX-License-Identifier: GPL-2.0-or-later
/* test-sweep.c - packet_byte_script sizes, value and knob lists, cliff
 * detection. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/abstat.h"
#include "stats/sweep.h"
#include "tap.h"

#define TRIALS 200

static uint64_t rng_state = 0x5eed000c11ffull;

/* The test's own noise: splitmix64 (ab_rand) with a state of its own. */
static uint64_t rng_next(void)
{
	return ab_rand(&rng_state);
}

/* Standard normal by Box-Muller. */
static double rng_gauss(void)
{
	double u1 = ((rng_next() >> 11) + 0.5) / 9007199254740992.0;
	double u2 = ((rng_next() >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static bool same_sizes(const uint32_t *got, int n, const uint32_t *want,
		       unsigned nwant)
{
	return n == (int)nwant && !memcmp(got, want, nwant * sizeof(*want));
}

static void test_sizes(void)
{
	/* seed 000: 1 byte doubling while below the MSS, then 1MSS, 1MSS+1 ...
	 * 3MSS+1 */
	static const uint32_t want1448[] = {1,	  2,	4,    8,    16,	  32,
					    64,	  128,	256,  512,  1024, 1448,
					    1449, 2896, 2897, 4344, 4345};
	static const uint32_t want8948[] = {
	    1,	  2,	4,    8,    16,	  32,	64,    128,   256,   512,
	    1024, 2048, 4096, 8192, 8948, 8949, 17896, 17897, 26844, 26845};
	static const uint32_t want1024[] = {1,	  2,	4,    8,   16,	 32,
					    64,	  128,	256,  512, 1024, 1025,
					    2048, 2049, 3072, 3073};
	uint32_t out[SWEEP_MAX_POINTS];
	int n;

	n = sweep_sizes(1448, out, SWEEP_MAX_POINTS);
	ok(same_sizes(out, n, want1448, 17),
	   "MSS 1448: packet_byte_script's 17 sizes (%d)", n);
	n = sweep_sizes(8948, out, SWEEP_MAX_POINTS);
	ok(same_sizes(out, n, want8948, 20),
	   "MSS 8948 (9000 MTU): 20 sizes (%d)", n);
	n = sweep_sizes(1024, out, SWEEP_MAX_POINTS);
	ok(same_sizes(out, n, want1024, 16),
	   "a power-of-two MSS is not repeated: doubling stops below it (%d)",
	   n);
	n = sweep_sizes(1448, out, 5);
	ok(same_sizes(out, n, want1448, 5),
	   "at most max sizes are written (%d)", n);
	n = sweep_sizes(1, out, SWEEP_MAX_POINTS);
	ok(n == 6 && out[0] == 1 && out[1] == 2 && out[5] == 4,
	   "MSS 1: only the MSS multiples");
	ok(sweep_sizes(0, out, SWEEP_MAX_POINTS) == -EINVAL,
	   "MSS 0 is -EINVAL");
}

static void test_parse_list(void)
{
	uint64_t v[8];
	unsigned n = 99;
	char err[ERR_MAX];

	ok(!sweep_parse_list("0,1,2,4,16", v, 8, &n, err) && n == 5 &&
	       v[0] == 0 && v[4] == 16,
	   "a plain comma list");
	ok(!sweep_parse_list("1K,64k, 2M ,1g,4G", v, 8, &n, err) && n == 5 &&
	       v[0] == 1024 && v[1] == 64000 && v[2] == 2097152 &&
	       v[3] == 1000000000ull && v[4] == 4294967296ull,
	   "K/M/G are binary, k/m/g decimal, blanks around items are allowed");
	ok(!sweep_parse_list("7", v, 1, &n, err) && n == 1 && v[0] == 7,
	   "one value, max 1");

	err[0] = '\0';
	ok(sweep_parse_list("1,,3", v, 8, &n, err) == -EINVAL && n == 0 &&
	       strstr(err, "item 2 is empty") && strstr(err, "K/M/G"),
	   "an empty item is named with what is accepted: %s", err);
	ok(sweep_parse_list("1,2,", v, 8, &n, err) == -EINVAL &&
	       strstr(err, "item 3 is empty"),
	   "a trailing comma is an empty item: %s", err);
	ok(sweep_parse_list("", v, 8, &n, err) == -EINVAL &&
	       strstr(err, "empty"),
	   "an empty list: %s", err);
	ok(sweep_parse_list("1,x2,3", v, 8, &n, err) == -EINVAL &&
	       strstr(err, "\"x2\"") && strstr(err, "non-negative integers"),
	   "junk is named: %s", err);
	ok(sweep_parse_list("4,-1", v, 8, &n, err) == -EINVAL &&
	       strstr(err, "\"-1\""),
	   "a negative value is refused: %s", err);
	ok(sweep_parse_list("1.5", v, 8, &n, err) == -EINVAL &&
	       strstr(err, "\"1.5\""),
	   "a fraction is refused: %s", err);
	ok(sweep_parse_list("16KB", v, 8, &n, err) == -EINVAL &&
	       strstr(err, "\"16KB\""),
	   "an unknown suffix is refused: %s", err);
	ok(sweep_parse_list("99999999999G", v, 8, &n, err) == -EINVAL &&
	       strstr(err, "too large"),
	   "an overflowing value is refused: %s", err);
	ok(sweep_parse_list("1,2,3", v, 2, &n, err) == -EINVAL &&
	       strstr(err, "more than 2"),
	   "more values than max: %s", err);
}

static void test_parse_knob(void)
{
	char name[64], buf[64], err[ERR_MAX];
	const char *vals[8];
	unsigned n = 99;

	ok(!sweep_parse_knob("rx-usecs=0,3,15,45,100", name, sizeof(name), buf,
			     sizeof(buf), vals, 8, &n, err) &&
	       !strcmp(name, "rx-usecs") && n == 5 && !strcmp(vals[0], "0") &&
	       !strcmp(vals[2], "15") && !strcmp(vals[4], "100"),
	   "rx-usecs=0,3,15,45,100: name and five values as text");
	ok(!sweep_parse_knob("net.ipv4.tcp_notsent_lowat=16K,128K,4294967295",
			     name, sizeof(name), buf, sizeof(buf), vals, 8, &n,
			     err) &&
	       !strcmp(name, "net.ipv4.tcp_notsent_lowat") && n == 3 &&
	       !strcmp(vals[0], "16K") && !strcmp(vals[2], "4294967295"),
	   "a sysctl name with suffixed values kept as typed");
	ok(!sweep_parse_knob("adaptive-rx=on, off", name, sizeof(name), buf,
			     sizeof(buf), vals, 8, &n, err) &&
	       n == 2 && !strcmp(vals[1], "off"),
	   "word values, blanks after commas allowed");

	ok(sweep_parse_knob("rx-usecs", name, sizeof(name), buf, sizeof(buf),
			    vals, 8, &n, err) == -EINVAL &&
	       strstr(err, "no '='") && strstr(err, "name=v1"),
	   "no '=': %s", err);
	ok(sweep_parse_knob("=1,2", name, sizeof(name), buf, sizeof(buf), vals,
			    8, &n, err) == -EINVAL &&
	       strstr(err, "bad knob name"),
	   "an empty name: %s", err);
	ok(sweep_parse_knob("rx usecs=1", name, sizeof(name), buf, sizeof(buf),
			    vals, 8, &n, err) == -EINVAL &&
	       strstr(err, "\"rx usecs\""),
	   "a name with a blank is named: %s", err);
	ok(sweep_parse_knob("rx-usecs=", name, sizeof(name), buf, sizeof(buf),
			    vals, 8, &n, err) == -EINVAL &&
	       strstr(err, "rx-usecs: value 1 is empty"),
	   "no values: %s", err);
	ok(sweep_parse_knob("rx-usecs=1,,3", name, sizeof(name), buf,
			    sizeof(buf), vals, 8, &n, err) == -EINVAL &&
	       strstr(err, "value 2 is empty") && n == 0,
	   "an empty value: %s", err);
	ok(sweep_parse_knob("rx-usecs=1,2,3", name, sizeof(name), buf,
			    sizeof(buf), vals, 2, &n, err) == -EINVAL &&
	       strstr(err, "more than 2"),
	   "more values than max: %s", err);
	ok(sweep_parse_knob("rx-usecs=1 2", name, sizeof(name), buf,
			    sizeof(buf), vals, 8, &n, err) == -EINVAL &&
	       strstr(err, "\"1 2\""),
	   "a value with a blank inside: %s", err);
	ok(sweep_parse_knob("rx-usecs=100000,200000", name, sizeof(name), buf,
			    10, vals, 8, &n, err) == -EINVAL &&
	       strstr(err, "longer than 10"),
	   "values that do not fit buf: %s", err);
	ok(sweep_parse_knob("net.ipv4.tcp_notsent_lowat=1", name, 8, buf,
			    sizeof(buf), vals, 8, &n, err) == -EINVAL &&
	       strstr(err, "longer than 7"),
	   "a name that does not fit: %s", err);
}

/* Seed 000's curve: flat RR rates, then 70 % lower from 3MSS+1 on. */
static unsigned seed000_curve(double *rate, double *noise, unsigned extra,
			      double noise_pct)
{
	uint32_t sizes[SWEEP_MAX_POINTS];
	int n = sweep_sizes(1448, sizes, SWEEP_MAX_POINTS), i;

	for (i = 0; i < n + (int)extra; i++) {
		double base =
		    i < n - 1 ? 10030 : 3406; /* seed 000: 4344 vs 4345 bytes */

		rate[i] = base * (1 + noise_pct / 100 * rng_gauss());
		if (noise)
			noise[i] = base * noise_pct / 100;
	}
	return (unsigned)n + extra;
}

static unsigned only_cliff(const bool *cliff, unsigned n)
{
	unsigned i, at = n;

	for (i = 0; i < n; i++)
		if (cliff[i])
			at = at == n ? i : n + 1;
	return at;
}

static void test_cliffs(void)
{
	double rate[SWEEP_MAX_POINTS], noise[SWEEP_MAX_POINTS];
	bool cliff[SWEEP_MAX_POINTS];
	unsigned n, i, t, found, hit;

	n = seed000_curve(rate, NULL, 0, 0);
	found = sweep_cliffs(rate, NULL, n, 1, 3, 20, cliff, NULL);
	ok(found == 1 && only_cliff(cliff, n) == n - 1,
	   "seed 000: the 70 %% drop at 3MSS+1 (the last point) is the only "
	   "cliff (%u)",
	   found);

	hit = 0;
	for (t = 0; t < TRIALS; t++) {
		n = seed000_curve(rate, noise, 4, 1);
		found = sweep_cliffs(rate, noise, n, 0, 3, 20, cliff, NULL);
		hit += found == 1 && only_cliff(cliff, n) == 17 - 1;
	}
	ok(hit == TRIALS,
	   "seed 000 with 1 %% noise, staying low past 3MSS+1: exactly 3MSS+1 "
	   "in %u/%d",
	   hit, TRIALS);

	found = 0;
	for (t = 0; t < TRIALS; t++) {
		for (i = 0; i < 20; i++)
			rate[i] = 10000 * (1 + 0.01 * rng_gauss());
		found += sweep_cliffs(rate, NULL, 20, 1, 3, 20, cliff, NULL) > 0;
	}
	ok(found == 0, "a flat curve with 1 %% noise: a cliff in %u/%d trials",
	   found, TRIALS);

	found = 0;
	for (t = 0; t < TRIALS; t++) {
		for (i = 0; i < 20; i++)
			rate[i] = 10000 * (1 + 0.01 * rng_gauss());
		found += sweep_cliffs(rate, NULL, 20, 1, 4, 0, cliff, NULL) > 0;
	}
	ok(found <= 2,
	   "the same with no minimum drop, k=4: a cliff in %u/%d trials", found,
	   TRIALS);

	{
		uint32_t sizes[SWEEP_MAX_POINTS];
		int m = sweep_sizes(1448, sizes, SWEEP_MAX_POINTS);

		/* larger requests cost more: half the rate by 3MSS+1, smoothly
		 */
		for (i = 0; i < (unsigned)m; i++)
			rate[i] = 10000 / (1 + sizes[i] / 4345.0);
		found = sweep_cliffs(rate, NULL, (unsigned)m, 1, 3, 20, cliff, NULL);
		ok(found == 0,
		   "a smooth decline to half the rate has no cliff (%u)",
		   found);
		for (i = 0; i < 20; i++)
			rate[i] = 10000 * pow(0.85, i);
		found = sweep_cliffs(rate, NULL, 20, 1, 3, 20, cliff, NULL);
		ok(found == 0,
		   "a 15 %% decline at every point has no cliff (%u)", found);
	}

	for (i = 0; i < 10; i++)
		rate[i] = 5000;
	rate[0] = 1000;
	found = sweep_cliffs(rate, NULL, 10, 1, 3, 20, cliff, NULL);
	ok(found == 1 && cliff[0],
	   "a low first point is a cliff against its one neighbour");
	rate[0] = 5000;
	rate[4] = 2000;
	found = sweep_cliffs(rate, NULL, 10, 1, 3, 20, cliff, NULL);
	ok(found == 1 && cliff[4] && !cliff[3] && !cliff[5],
	   "a dip in the middle is one cliff");
	rate[4] = 5000 * 0.85;
	found = sweep_cliffs(rate, NULL, 10, 1, 3, 20, cliff, NULL);
	ok(found == 0, "a 15 %% dip is under min_drop_pct 20");
	for (i = 0; i < 10; i++)
		noise[i] = 500;
	rate[4] = 5000 * 0.75;
	found = sweep_cliffs(rate, noise, 10, 1, 3, 20, cliff, NULL);
	ok(found == 0,
	   "a 25 %% dip within 3x its noise (sd 10 %%) is not a cliff");
	found = sweep_cliffs(rate, NULL, 10, 1, 3, 20, cliff, NULL);
	ok(found == 1 && cliff[4], "the same dip at 1 %% noise is");
	rate[4] = NAN;
	rate[5] = 2000;
	found = sweep_cliffs(rate, NULL, 10, 1, 3, 20, cliff, NULL);
	ok(found == 1 && cliff[5] && !cliff[4],
	   "a missing point is skipped, not read as 0; the neighbour beyond it "
	   "counts");
	rate[5] = 5000;
	rate[9] = 1500;
	found = sweep_cliffs(rate, NULL, 10, 1, 3, 20, cliff, NULL);
	ok(found == 1 && cliff[9], "a cliff at the end point");
	ok(sweep_cliffs(rate, NULL, 1, 1, 3, 20, cliff, NULL) == 0,
	   "one point has no neighbours");
}

/* The end prefix of a knob spec, as both front ends read it. */
static void test_knob_end(void)
{
	enum sweep_end end;
	const char *rest;

	rest = sweep_knob_end("both:net.ipv4.tcp_reordering=3,10", &end);
	ok(end == SWEEP_END_BOTH && !strcmp(rest, "net.ipv4.tcp_reordering=3,10"),
	   "both: is both ends");
	rest = sweep_knob_end("remote:gro=on,off", &end);
	ok(end == SWEEP_END_REMOTE && !strcmp(rest, "gro=on,off"), "remote:");
	rest = sweep_knob_end("local:gro=on", &end);
	ok(end == SWEEP_END_LOCAL && !strcmp(rest, "gro=on"), "local:");
	rest = sweep_knob_end("gro=on", &end);
	ok(end == SWEEP_END_LOCAL && !strcmp(rest, "gro=on"), "no prefix is local");
	rest = sweep_knob_end("bothx:gro=on", &end);
	ok(end == SWEEP_END_LOCAL && !strcmp(rest, "bothx:gro=on"),
	   "an unknown prefix is left to the name check");
	for (unsigned e = SWEEP_END_LOCAL; e <= SWEEP_END_BOTH; e++) {
		char spec[64];

		snprintf(spec, sizeof(spec), "%sgro=on", sweep_end_prefix((enum sweep_end)e));
		rest = sweep_knob_end(spec, &end);
		ok(end == (enum sweep_end)e && !strcmp(rest, "gro=on"),
		   "sweep_end_prefix writes what sweep_knob_end reads: %s", spec);
	}
}

/* A one-knob point's name: the end's prefix, the store's 63 characters. */
static void test_knob_point_name(void)
{
	char buf[64], longv[200];

	sweep_knob_point_name(SWEEP_END_BOTH, "net.ipv4.tcp_reordering", "10", buf, sizeof(buf));
	ok(!strcmp(buf, "both:net.ipv4.tcp_reordering=10"), "both: %s", buf);
	sweep_knob_point_name(SWEEP_END_REMOTE, "gro", "off", buf, sizeof(buf));
	ok(!strcmp(buf, "remote:gro=off"), "remote: %s", buf);
	sweep_knob_point_name(SWEEP_END_LOCAL, "rx-usecs", "15", buf, sizeof(buf));
	ok(!strcmp(buf, "rx-usecs=15"), "local has no prefix: %s", buf);
	memset(longv, '7', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	sweep_knob_point_name(SWEEP_END_LOCAL, "net.ipv4.tcp_rmem", longv, buf, sizeof(buf));
	ok(strlen(buf) == 63 && !strncmp(buf, "net.ipv4.tcp_rmem=777", 21),
	   "cut at the store's 63 characters");
}

/* The knob plan both front ends use: one knob, two crossed, the refusals. */
static void test_knob_plan(void)
{
	static struct sweep_knob_pt pt[SWEEP_MAX_POINTS];
	static const char *const v0[] = { "0", "3", "15" }, *const v1[] = { "on", "off" };
	static const char *many[200];
	struct sweep_knob_axis ax[2] = {
		{ .name = "rx-usecs", .end = SWEEP_END_LOCAL, .values = v0, .n = 3 },
		{ .name = "net.ipv4.tcp_sack", .end = SWEEP_END_REMOTE, .values = v1, .n = 2 },
	};
	char err[ERR_MAX] = "";
	unsigned n = 99;

	ok(sweep_knob_plan(ax, 1, pt, SWEEP_MAX_POINTS, &n, err) == 0 && n == 3 &&
	   !strcmp(pt[2].name, "rx-usecs=15") && pt[2].ki[0] == 2, "one knob: %u points, %s", n,
	   pt[2].name);
	ok(sweep_knob_plan(ax, 2, pt, SWEEP_MAX_POINTS, &n, err) == 0 && n == 6,
	   "two knobs: the cross product, %u points", n);
	ok(!strcmp(pt[0].name, "rx-usecs=0,remote:tcp_sack=on") &&
	   !strcmp(pt[1].name, "rx-usecs=0,remote:tcp_sack=off") &&
	   !strcmp(pt[5].name, "rx-usecs=15,remote:tcp_sack=off") &&
	   pt[3].ki[0] == 1 && pt[3].ki[1] == 1,
	   "the first knob is the outer loop, a dotted name cut to its last part: %s, %s",
	   pt[0].name, pt[5].name);
	ax[1].name = "rx-usecs";
	ax[1].end = SWEEP_END_LOCAL;
	ok(sweep_knob_plan(ax, 2, pt, SWEEP_MAX_POINTS, &n, err) == -EINVAL &&
	   !strcmp(err, "knob: rx-usecs twice on the same side; accepted: two different knobs, or local: and remote:"),
	   "one knob twice on one side: %s", err);
	ax[1].end = SWEEP_END_REMOTE;
	ok(sweep_knob_plan(ax, 2, pt, SWEEP_MAX_POINTS, &n, err) == 0 && n == 6,
	   "the same knob on both sides is two knobs");
	ax[0].end = SWEEP_END_BOTH;
	ok(sweep_knob_plan(ax, 2, pt, SWEEP_MAX_POINTS, &n, err) == -EINVAL &&
	   strstr(err, "both:rx-usecs sweeps one knob alone"), "both: beside another: %s", err);
	ok(sweep_knob_plan(ax, 1, pt, SWEEP_MAX_POINTS, &n, err) == 0 && n == 3 &&
	   !strcmp(pt[1].name, "both:rx-usecs=3") && pt[1].ki[1] == 1, "both: alone: %s",
	   pt[1].name);
	for (unsigned i = 0; i < 200; i++)
		many[i] = "1";
	ax[0] = (struct sweep_knob_axis){ .name = "a", .values = many, .n = 200 };
	ax[1] = (struct sweep_knob_axis){ .name = "b", .values = v1, .n = 2 };
	ok(sweep_knob_plan(ax, 2, pt, SWEEP_MAX_POINTS, &n, err) == -EINVAL &&
	   !strcmp(err, "knob: 400 points; accepted: at most 256"), "too many: %s", err);
	ok(sweep_knob_plan(ax, 0, pt, SWEEP_MAX_POINTS, &n, err) == -EINVAL, "no knob: %s", err);
}

int main(void)
{
	test_knob_plan();
	test_knob_end();
	test_knob_point_name();
	test_sizes();
	test_parse_list();
	test_parse_knob();
	test_cliffs();
	return tap_done();
}
