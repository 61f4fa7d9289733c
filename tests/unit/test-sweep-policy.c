// SPDX-License-Identifier: GPL-2.0-or-later
/* test-sweep-policy.c - point plans, point names and curves, the noise model,
 * the cliff rule, the A/B pair order. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/abstat.h"
#include "stats/sweep-policy.h"
#include "tap.h"

/* A point with a rate and its tick spread. */
static struct sweep_policy_pt pt_of(const char *point, double rate, double tick_sd)
{
	return (struct sweep_policy_pt){ .point = point, .rate = rate, .ci = NAN,
					 .tick_sd = tick_sd };
}

static void plans(void)
{
	uint64_t v[SWEEP_MAX_POINTS];
	struct test_params p;
	char err[ERR_MAX] = "", name[64];
	unsigned n = 0;
	int rc;

	rc = sweep_policy_plan(SW_SIZE, NULL, 1448, v, SWEEP_MAX_POINTS, &n, err);
	ok(!rc && n == 17 &&
	   v[0] == 1 && v[10] == 1024 && v[11] == 1448 && v[12] == 1449 && v[16] == 4345,
	   "size around MSS 1448: packet_byte_script's 17 points (%u)", n);
	ok(!sweep_policy_plan(SW_SIZE, NULL, 0, v, SWEEP_MAX_POINTS, &n, err) && n == 1 && v[0] == 1,
	   "size with the MSS unknown: its first point only, 1 byte");
	rc = sweep_policy_plan(SW_BURST, NULL, 0, v, SWEEP_MAX_POINTS, &n, err);
	ok(!rc && n == 8 &&
	   v[0] == 0 && v[7] == 256, "burst's default list is seed 001's 0..256 (%u)", n);
	rc = sweep_policy_plan(SW_SEND, NULL, 0, v, SWEEP_MAX_POINTS, &n, err);
	ok(!rc && n == 5 &&
	   v[0] == 1024 && v[4] == 262144, "send-size's default list is 1K..256K (%u)", n);
	ok(!sweep_policy_plan(SW_BURST, "0,4", 0, v, SWEEP_MAX_POINTS, &n, err) && n == 2 &&
	   v[1] == 4, "a list given is the list run");
	/* A size sweep's own list or range (docs/sweeps.md, "Kinds"). */
	ok(!sweep_policy_plan(SW_SIZE, "1,1448,4345,4346", 0, v, SWEEP_MAX_POINTS, &n, err) &&
	   n == 4 && v[0] == 1 && v[3] == 4346 && !sweep_policy_needs_mss(SW_SIZE, "1,1448"),
	   "size LIST: those sizes, no MSS needed (%s)", err);
	rc = sweep_policy_plan(SW_SIZE, "1..4500", 1448, v, SWEEP_MAX_POINTS, &n, err);
	ok(!rc && n == 18 && v[0] == 1 && v[10] == 1024 && v[11] == 1448 && v[12] == 1449 &&
	   v[15] == 4344 && v[16] == 4345 && v[17] == 4500,
	   "size 1..4500 around MSS 1448: 1 .. 1024, each multiple and one more, then 4500 (%u: %s)",
	   n, err);
	rc = sweep_policy_plan(SW_SIZE, "1000..3000", 1448, v, SWEEP_MAX_POINTS, &n, err);
	ok(!rc && n == 7 && v[0] == 1000 && v[1] == 1024 && v[2] == 1448 && v[4] == 2896 &&
	   v[6] == 3000, "size 1000..3000: only the points between, with both ends (%u)", n);
	ok(!sweep_policy_plan(SW_SIZE, "64..4K", 0, v, SWEEP_MAX_POINTS, &n, err) && n == 1 &&
	   v[0] == 64 && sweep_policy_needs_mss(SW_SIZE, "64..4K"),
	   "size LO..HI with the MSS unknown: LO first, the rest follow its MSS");
	ok(sweep_policy_plan(SW_SIZE, "9..3", 1448, v, SWEEP_MAX_POINTS, &n, err) == -EINVAL &&
	   strstr(err, "size \"9..3\": not a range of sizes from 1 up; accepted: a list of sizes"),
	   "a range upside down is refused: %s", err);
	ok(sweep_policy_plan(SW_SIZE, "1..10M", 1448, v, SWEEP_MAX_POINTS, &n, err) == -EINVAL &&
	   strstr(err, "more than 256 points"), "a range of too many points is refused: %s", err);
	ok(sweep_policy_plan(SW_SIZE, "1,x", 1448, v, SWEEP_MAX_POINTS, &n, err) == -EINVAL &&
	   strstr(err, "\"x\": not a size"), "a list with a word that is no size: %s", err);
	ok(sweep_policy_plan(SW_KNOB, NULL, 0, v, SWEEP_MAX_POINTS, &n, err) == -EINVAL &&
	   strstr(err, "accepted"), "a knob sweep has no list of numbers: %s", err);

	params_default(&p);
	ok(!sweep_policy_point_params(SW_SIZE, true, 4345, &p, err) && p.resp_size == 4345,
	   "a response size point sets -r's response");
	ok(sweep_policy_point_params(SW_BURST, false, 99999, &p, err) == -EINVAL &&
	   strstr(err, "burst: 99999 is out of range; accepted: 0-"), "a burst too large: %s", err);
	ok(sweep_policy_point_params(SW_SIZE, false, 0, &p, err) == -EINVAL &&
	   strstr(err, "size: 0 bytes"), "a size of 0: %s", err);
	ok(!strcmp(sweep_policy_point_name(SW_SIZE, true, 1, name, sizeof(name)), "resp=1") &&
	   !strcmp(sweep_policy_point_name(SW_SEND, false, 1024, name, sizeof(name)),
		   "send-size=1024"), "point names: resp=1, send-size=1024");
}

static void points(void)
{
	char curve[64];
	const char *text;
	double x;

	x = sweep_policy_point_x("size=4345", curve, sizeof(curve), &text);
	ok(x == 4345 && !curve[0] && !strcmp(text, "4345"), "size=4345: x 4345 of the one curve");
	x = sweep_policy_point_x("send-size=1K", curve, sizeof(curve), NULL);
	ok(x == 1024, "send-size=1K: x 1024");
	x = sweep_policy_point_x("tcp_reordering=5,tcp_sack=off", curve, sizeof(curve), &text);
	ok(isnan(x) && !strcmp(curve, "tcp_reordering=5") && !strcmp(text, "off"),
	   "two knobs: curve \"%s\", x \"%s\" (not a number)", curve, text);
}

static void noise(void)
{
	struct sweep_policy_pt p = pt_of("burst=1", 1000, 50);
	enum sweep_noise_src src;

	ok(sweep_policy_noise(&p, &src) == 50 && src == SWEEP_NOISE_TICKS,
	   "without -i the tick spread is the noise");
	p.ci = 40;
	ok(sweep_policy_noise(&p, &src) == 40 && src == SWEEP_NOISE_CI,
	   "with -i the confidence half-width is");
	p.ci = 10;
	ok(sweep_policy_noise(&p, &src) == 30 && src == SWEEP_NOISE_FLOOR,
	   "never below 3 %% of the rate (30)");
	p.ci = p.tick_sd = NAN;
	ok(sweep_policy_noise(&p, &src) == 30 && src == SWEEP_NOISE_FLOOR,
	   "and 3 %% when nothing is known");
	{
		double v[] = { 1, NAN, 3 };

		ok(sweep_policy_spread(v, 3) == sqrt(2), "spread leaves NANs out");
		ok(isnan(sweep_policy_spread(v, 1)), "one value has no spread");
	}
}

static unsigned count(const struct sweep_policy_pt *pt, unsigned n)
{
	unsigned c = 0;

	for (unsigned i = 0; i < n; i++)
		c += pt[i].cliff;
	return c;
}

static void cliffs(void)
{
	struct sweep_policy_pt pt[8];
	char buf[512];
	unsigned n;

	/* Seed 000: flat, then 70 % down at 3MSS+1. */
	pt[0] = pt_of("size=1448", 20000, 200);
	pt[1] = pt_of("size=2896", 19800, 200);
	pt[2] = pt_of("size=4344", 19700, 200);
	pt[3] = pt_of("size=4345", 6000, 100);
	n = sweep_policy_cliffs(pt, 4);
	ok(n == 1 && pt[3].cliff && fabs(pt[3].drop_pct - 69.5) < 0.1,
	   "seed 000's drop at 3MSS+1 is the one cliff (%.1f %%)", pt[3].drop_pct);

	/* The foot of a rise (seed 001's burst 0) is not a cliff. */
	pt[0] = pt_of("burst=0", 30000, 300);
	pt[1] = pt_of("burst=8", 130000, 1300);
	pt[2] = pt_of("burst=16", 150000, 1500);
	ok(sweep_policy_cliffs(pt, 3) == 0, "a low first point is the foot of a rise, no cliff");

	/* In order of x: given out of order, the same curve. */
	pt[0] = pt_of("size=4345", 6000, 100);
	pt[1] = pt_of("size=1448", 20000, 200);
	pt[2] = pt_of("size=4344", 19700, 200);
	pt[3] = pt_of("size=2896", 19800, 200);
	ok(sweep_policy_cliffs(pt, 4) == 1 && pt[0].cliff,
	   "points given out of order are taken in order of x: 4345 is still the cliff, "
	   "not the foot");
	ok(pt[0].before == 2 && pt[1].before == -1 && pt[3].before == 1,
	   "each point's before is the one below it in x (4345 after 4344: %d)", pt[0].before);
	pt[2].rate = NAN;
	sweep_policy_cliffs(pt, 4);
	ok(pt[0].before == 3, "a failed point is a gap: 4345's before is then 2896 (%d)",
	   pt[0].before);

	/* A 25 % dip within 3 noise widths (tick spread 10 %) is none. */
	pt[0] = pt_of("rx-usecs=0", 10000, 1000);
	pt[1] = pt_of("rx-usecs=3", 10000, 1000);
	pt[2] = pt_of("rx-usecs=15", 7500, 750);
	pt[3] = pt_of("rx-usecs=45", 10000, 1000);
	ok(sweep_policy_cliffs(pt, 4) == 0, "a 25 %% dip within 3x its tick spread is no cliff");
	pt[2].tick_sd = 75;
	pt[0].tick_sd = pt[1].tick_sd = pt[3].tick_sd = 100;
	ok(sweep_policy_cliffs(pt, 4) == 1 && pt[2].cliff, "with a quiet spread it is");
	pt[2].rate = 8200;
	ok(sweep_policy_cliffs(pt, 4) == 0, "an 18 %% dip is under the 20 %% minimum");

	/* A failed point is a gap. */
	pt[2].rate = NAN;
	pt[3].rate = 5000;
	ok(sweep_policy_cliffs(pt, 4) == 1 && pt[3].cliff && !pt[2].cliff,
	   "a failed point is a gap: the next point is measured past it");

	/* Two knobs: a curve per value of the first, each with its own foot. */
	pt[0] = pt_of("a=1,b=off", 10000, 100);
	pt[1] = pt_of("a=1,b=on", 4000, 40);
	pt[2] = pt_of("a=2,b=off", 3000, 30);
	pt[3] = pt_of("a=2,b=on", 9000, 90);
	n = sweep_policy_cliffs(pt, 4);
	ok(n == 1 && pt[1].cliff && !pt[2].cliff,
	   "two knobs: a=1,b=on falls within its curve; a=2,b=off starts its own (%u)", n);
	ok(count(pt, 4) == n, "the count is the points marked");

	sweep_policy_rule_text(buf, sizeof(buf));
	ok(strstr(buf, "3 x the noise") && strstr(buf, "at least 3 %") && strstr(buf, "20 %") &&
	   strstr(buf, "foot of a rise"), "the rule's text has the numbers used: %s", buf);
	ok(sweep_cliff_rule.k == 3 && sweep_cliff_rule.min_drop_pct == 20 &&
	   sweep_cliff_rule.noise_floor_pct == 3 && sweep_cliff_rule.first_is_foot,
	   "the rule's numbers are docs/sweeps.md's");
}

static void pair_order(void)
{
	uint64_t s1 = 42, s2 = 42;
	unsigned same = 1, bfirst = 0;
	enum sweep_kind k;

	for (int i = 0; i < 1000; i++) {
		int a = ab_pair_first(&s1), b = ab_pair_first(&s2);

		same &= a == b;
		bfirst += a == 1;
	}
	ok(same, "the same seed gives the same pair order");
	ok(bfirst > 430 && bfirst < 570, "B goes first in about half the pairs (%u/1000)", bfirst);
	ok(!sweep_policy_kind_parse("send-size", &k) && k == SW_SEND &&
	   sweep_policy_kind_parse("wobble", &k) == -EINVAL &&
	   !strcmp(sweep_policy_kind_name(SW_BURST), "burst"), "kind names both ways");
}

int main(void)
{
	plans();
	points();
	noise();
	cliffs();
	pair_order();
	return tap_done();
}
