// SPDX-License-Identifier: GPL-2.0-or-later
/* test-plan.c - the plan module: knob settings parsed and checked once, the A/B seed and verdict, a size sweep's MSS. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knobs/knobs.h"
#include "plan/plan.h"
#include "tap.h"

/* Good specs: each end, the value made canonical. */
static void test_setting_good(const struct catalog *c)
{
	struct plan_setting s;
	char err[ERR_MAX] = "";

	ok(plan_setting_parse(c, "net.ipv4.tcp_reordering=7", &s, err) == 0 &&
	   s.end == SWEEP_END_LOCAL && !strcmp(s.d->name, "net.ipv4.tcp_reordering") &&
	   !strcmp(s.value, "7"), "no prefix: the local end (%s)", err);
	ok(plan_setting_parse(c, "local:gro=on", &s, err) == 0 && s.end == SWEEP_END_LOCAL &&
	   !strcmp(s.d->name, "gro"), "local: (%s)", err);
	ok(plan_setting_parse(c, "remote:gro=off", &s, err) == 0 && s.end == SWEEP_END_REMOTE &&
	   !strcmp(s.value, "off"), "remote: (%s)", err);
	ok(plan_setting_parse(c, "both:net.ipv4.tcp_sack=0", &s, err) == 0 &&
	   s.end == SWEEP_END_BOTH && !strcmp(s.d->name, "net.ipv4.tcp_sack"),
	   "both: is taken (%s)", err);
	ok(plan_setting_parse(c, "net.ipv4.tcp_rmem=4096 131072 6291456", &s, err) == 0 &&
	   !strcmp(s.value, "4096 131072 6291456"), "a value of three numbers: %s", s.value);
}

/* Bad specs: one line naming what was wrong and what is accepted. */
static void test_setting_bad(const struct catalog *c)
{
	struct plan_setting s;
	char err[ERR_MAX] = "";
	int rc;

	rc = plan_setting_parse(c, "gro", &s, err);
	ok(rc == -EINVAL && !strcmp(err, "\"gro\" is not NAME=VALUE; accepted: [local:|remote:|both:]NAME=VALUE"),
	   "no '=': %s", err);
	rc = plan_setting_parse(c, "remote:=1", &s, err);
	ok(rc == -EINVAL && strstr(err, "is not NAME=VALUE"), "no name: %s", err);
	rc = plan_setting_parse(c, "nosuch.knob=1", &s, err);
	ok(rc == -ENOENT && !strcmp(err, "nosuch.knob: unknown knob; accepted: a name `tunetop knobs list` shows"),
	   "unknown knob: %s", err);
	rc = plan_setting_parse(c, "both:nosuch=1", &s, err);
	ok(rc == -ENOENT && !strncmp(err, "nosuch: unknown knob", 20),
	   "unknown knob after both:, named without the prefix: %s", err);
	rc = plan_setting_parse(c, "gro=maybe", &s, err);
	ok(rc == -EINVAL && !strncmp(err, "gro ", 4) && strstr(err, "maybe") && strstr(err, "accepted"),
	   "a bad value names the knob, the value and what is accepted: %s", err);
	rc = plan_setting_parse(c, "sideways:gro=on", &s, err);
	ok(rc == -ENOENT && strstr(err, "sideways:gro: unknown knob"),
	   "an unknown prefix is part of the name: %s", err);
	rc = plan_setting_parse(c, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=1",
				&s, err);
	ok(rc == -ENOENT && strstr(err, "unknown knob"), "a name too long: %s", err);
}

/* A side of an A/B: settings by commas or spaces, a value continued, test options. */
static void test_side(const struct catalog *c)
{
	struct plan_setting s[4];
	char err[ERR_MAX] = "";
	const char *spec;
	unsigned n = 9;
	int test = 0;

	ok(plan_side_parse(c, "", s, 4, &n, &test, err) == 0 && n == 0 && test == -1,
	   "\"\": no setting, no test options");
	ok(plan_side_parse(c, "gro=on,remote:gro=off both:net.ipv4.tcp_sack=0", s, 4, &n, &test,
			   err) == 0 && n == 3 && s[1].end == SWEEP_END_REMOTE &&
	   s[2].end == SWEEP_END_BOTH && test == -1, "commas and spaces between settings (%s)", err);
	ok(plan_side_parse(c, "net.ipv4.tcp_rmem=4096 131072 6291456,gro=off", s, 4, &n, &test,
			   err) == 0 && n == 2 && !strcmp(s[0].value, "4096 131072 6291456"),
	   "a word without '=' continues the value before it: %s", s[0].value);
	spec = "gro=off -r 64,64";
	ok(plan_side_parse(c, spec, s, 4, &n, &test, err) == 0 && n == 1 && test >= 0 &&
	   !strcmp(spec + test, "-r 64,64"), "from the first word with '-': test options");
	ok(plan_side_parse(c, "-b 7", s, 4, &n, &test, err) == 0 && n == 0 && test == 0,
	   "test options only");
	ok(plan_side_parse(c, "x", s, 4, &n, &test, err) == -EINVAL &&
	   !strcmp(err, "\"x\" is not NAME=VALUE; accepted: [local:|remote:|both:]NAME=VALUE separated by commas or spaces"),
	   "a first word without '=': %s", err);
	ok(plan_side_parse(c, "gro=on,nosuch=1", s, 4, &n, &test, err) == -ENOENT &&
	   strstr(err, "nosuch: unknown knob"), "each setting checked: %s", err);
	ok(plan_side_parse(c, "gro=on,tso=on,lro=off", s, 2, &n, &test, err) == -EINVAL &&
	   !strcmp(err, "more than 2 knobs"), "at most max: %s", err);
}

/* Read-only is the backend's answer, its reason in the line. */
static void test_read_only(const struct catalog *c)
{
	const struct knob_def *d;
	struct plan_setting s;
	char err[ERR_MAX] = "";
	int rc;

	d = catalog_find(c, "speed");
	ok(d && knobs_read_only(d) && !strcmp(knobs_read_only(d), "read-only (a link figure)"),
	   "the linkinfo backend says speed is read-only: %s", d ? knobs_read_only(d) : "no speed");
	ok(!knobs_read_only(catalog_find(c, "gro")), "gro can be set");
	rc = plan_setting_parse(c, "remote:speed=1000", &s, err);
	ok(rc == -EROFS && !strcmp(err, "speed: read-only (a link figure); accepted: a knob that can be set"),
	   "a read-only knob refused with the backend's reason: %s", err);
	rc = plan_knob_find(c, "duplex", &d, err);
	ok(rc == -EROFS && strstr(err, "read-only (a link figure)"), "plan_knob_find too: %s", err);
}

static void test_ends(void)
{
	bool r[2] = { true, true };

	ok(sweep_end_sides(SWEEP_END_LOCAL, r) == 1 && !r[0], "local: one end, local");
	ok(sweep_end_sides(SWEEP_END_REMOTE, r) == 1 && r[0], "remote: one end, remote");
	ok(sweep_end_sides(SWEEP_END_BOTH, r) == 2 && !r[0] && r[1], "both: local then remote");
}

/* The seed is short, the order repeats with it, the verdict is the CLI's. */
static void test_ab(void)
{
	static const double a[] = { 100, 101, 99, 100, 102 }, b[] = { 90, 91, 89, 90, 92 };
	struct ab_result r1, r2;
	int o1[8], o2[8], o3[8];
	uint64_t s = plan_ab_seed();

	ok(s < 1000000, "a chosen seed can be typed back: %llu", (unsigned long long)s);
	plan_ab_order(7, 8, o1);
	plan_ab_order(7, 8, o2);
	plan_ab_order(8, 8, o3);
	ok(!memcmp(o1, o2, sizeof(o1)), "seed 7 gives one order");
	ok(memcmp(o1, o3, sizeof(o1)) != 0, "seed 8 another");
	ok(plan_ab_compare(a, 5, b, 5, PLAN_AB_ALPHA, 7, PLAN_AB_RATE, &r1) == 0 &&
	   plan_ab_compare(a, 5, b, 5, PLAN_AB_ALPHA, 7, PLAN_AB_RATE, &r2) == 0 &&
	   r1.ci_lo_pct == r2.ci_lo_pct && r1.ci_hi_pct == r2.ci_hi_pct && r1.significant,
	   "one seed, one interval; 10 %% down is real (%s)", r1.verdict);
}

/* A verdict from runs kept as side and figure, uncounted runs NAN. */
static void test_ab_judge(void)
{
	static const int side[] = { 0, 1, 1, 0, 0, 1, 1, 0, 0, 1 };
	static const double fig[] = { 100, 90, 91, NAN, 101, 89, 90, 99, 102, NAN };
	static const double a[] = { 100, 101, 99, 102 }, b[] = { 90, 91, 89, 90 };
	struct ab_result r, want;
	unsigned na = 0, nb = 0;

	ok(plan_ab_judge(side, fig, 10, PLAN_AB_ALPHA, 5, PLAN_AB_RATE, &r, &na, &nb) == 0 &&
	   na == 4 && nb == 4, "NAN runs are left out: %u+%u", na, nb);
	plan_ab_compare(a, 4, b, 4, PLAN_AB_ALPHA, 5, PLAN_AB_RATE, &want);
	ok(r.median_a == want.median_a && r.median_b == want.median_b &&
	   r.ci_lo_pct == want.ci_lo_pct && r.p == want.p,
	   "the same verdict as plan_ab_compare of the sides' figures (%s)", r.verdict);
	ok(plan_ab_judge(side, fig, 3, PLAN_AB_ALPHA, 5, PLAN_AB_RATE, &r, &na, &nb) == 0 &&
	   na == 1 && nb == 2 && !r.significant && !strcmp(r.verdict, "~"),
	   "too few a side: \"~\", the counts given");
	ok(plan_ab_judge(side, fig, 1, PLAN_AB_ALPHA, 5, PLAN_AB_RATE, &r, &na, &nb) == -EINVAL &&
	   na == 1 && nb == 0, "no run of B: -EINVAL, the counts still given");
	/* A's counted figures 100, 101, 99, 102: the lower middle is 100 (run 0). */
	ok(plan_ab_median(side, fig, 10, 0) == 0, "A's median-rate run: %d",
	   plan_ab_median(side, fig, 10, 0));
	/* B's 90, 91, 89, 90: the lower middle is 90, the earlier of equal ones (run 1). */
	ok(plan_ab_median(side, fig, 10, 1) == 1, "B's median-rate run: %d",
	   plan_ab_median(side, fig, 10, 1));
	ok(plan_ab_median(side, fig, 1, 1) == -1, "no run of B counted: -1");
	{
		static int many_side[PLAN_AB_MAX_RUNS + 1];
		static double many_fig[PLAN_AB_MAX_RUNS + 1];

		for (unsigned i = 0; i <= PLAN_AB_MAX_RUNS; i++)
			many_side[i] = i % 2, many_fig[i] = 100 + i % 7;
		ok(plan_ab_judge(many_side, many_fig, PLAN_AB_MAX_RUNS + 1, PLAN_AB_ALPHA, 5,
				 PLAN_AB_RATE, &r, &na, &nb) == -EINVAL && na == 0 && nb == 0,
		   "more than %d runs: -EINVAL, none counted (%u+%u)", PLAN_AB_MAX_RUNS, na, nb);
	}
}

/* A step's value a knob has already: nothing set, no transaction asked. */
static void test_knob_set_same(const struct catalog *c)
{
	struct plan_knob k;
	char err[ERR_MAX] = "";

	memset(&k, 0, sizeof(k));
	k.d = catalog_find(c, "net.ipv4.tcp_reordering");
	snprintf(k.original, sizeof(k.original), "3");
	snprintf(k.now, sizeof(k.now), "3");
	ok(k.d && plan_knob_set(NULL, &k, "3", err) == 0 && !strcmp(k.now, "3"),
	   "a value the knob has is not set again (no transaction needed)");
}

/* --alpha, the CLI's and the dashboard's. */
static void test_alpha(void)
{
	char err[ERR_MAX] = "";
	double a = 1;

	ok(plan_alpha_parse("0.1", &a, err) == 0 && a == 0.1, "--alpha 0.1 (%s)", err);
	ok(plan_alpha_parse("0.5", &a, err) == 0 && a == 0.5, "--alpha 0.5, the top (%s)", err);
	a = 0.2;
	ok(plan_alpha_parse("0", &a, err) == -EINVAL && a == 0.2 &&
	   !strcmp(err, "--alpha 0: not a significance level; accepted: 0 < alpha <= 0.5 (e.g. 0.05)"),
	   "--alpha 0 is refused, alpha left alone: %s", err);
	ok(plan_alpha_parse("0.51", &a, err) == -EINVAL, "--alpha 0.51 is refused: %s", err);
	ok(plan_alpha_parse(NULL, &a, err) == -EINVAL && strstr(err, "accepted"),
	   "--alpha without a value is refused: %s", err);
}

/* -n, the CLI's and the dashboard's (the dashboard took 3..50, the CLI 3..100). */
static void test_pairs(void)
{
	char err[ERR_MAX] = "";
	unsigned n = 0;

	ok(plan_pairs_parse("3", &n, err) == 0 && n == 3, "-n 3, the fewest (%s)", err);
	ok(plan_pairs_parse("100", &n, err) == 0 && n == 100, "-n 100, the most (%s)", err);
	ok(plan_pairs_parse("2", &n, err) == -EINVAL && n == 100 &&
	   !strcmp(err, "-n 2: accepted: 3-100 pairs"), "-n 2 is refused, n left alone: %s", err);
	ok(plan_pairs_parse("101", &n, err) == -EINVAL, "-n 101 is refused: %s", err);
	ok(plan_pairs_parse(NULL, &n, err) == -EINVAL && strstr(err, "accepted"),
	   "-n without a value is refused: %s", err);
}

/* An A/B record: one shape written, both shapes read. */
static void test_ab_record(void)
{
	static struct plan_ab_record r, back;
	char err[ERR_MAX] = "", *text;
	json_t *j, *old;

	memset(&r, 0, sizeof(r));
	plan_ab_record_add(&r, 0, "net.ipv4.tcp_reordering=3", err);
	plan_ab_record_add(&r, 1, "remote:gro=off", err);
	plan_ab_record_add(&r, 1, "-b 7", err);
	r.pairs = 4;
	r.seed = 4242;
	r.alpha = 0.1;
	snprintf(r.front, sizeof(r.front), "dashboard");
	j = plan_ab_record_json(&r);
	text = j ? json_dumps(j, JSON_COMPACT) : NULL;
	ok(text && !strcmp(text, "{\"a\":[\"net.ipv4.tcp_reordering=3\"],\"b\":[\"remote:gro=off\",\"-b 7\"],\"n\":4,\"seed\":4242,\"front\":\"dashboard\",\"alpha\":0.10000000000000001}"),
	   "the stored shape: %s", text ? text : "(null)");
	free(text);
	ok(j && plan_ab_record_read(j, &back, err) == 0 && back.n[0] == 1 && back.n[1] == 2 &&
	   !strcmp(back.item[1][1], "-b 7") && back.pairs == 4 && back.seed == 4242 &&
	   back.alpha == 0.1 && !strcmp(back.front, "dashboard"), "read back as written (%s)", err);
	json_decref(j);
	old = json_pack("{s:s, s:b, s:i}", "spec", "--a gro=on,rx-usecs=8 --b gro=off -n 3 --seed 9",
			"dashboard", 1, "seed", 9);
	ok(plan_ab_record_read(old, &back, err) == 0 && back.n[0] == 2 &&
	   !strcmp(back.item[0][1], "rx-usecs=8") && back.n[1] == 1 && back.pairs == 3 &&
	   back.seed == 9 && isnan(back.alpha) && !strcmp(back.front, "dashboard"),
	   "an older dashboard record: its prompt's words (%s)", err);
	json_decref(old);
	old = json_pack("{s:[s], s:[], s:i, s:i}", "a", "gro=on", "b", "n", 5, "seed", 1);
	ok(plan_ab_record_read(old, &back, err) == 0 && back.n[0] == 1 && back.n[1] == 0 &&
	   back.pairs == 5 && isnan(back.alpha) && !strcmp(back.front, "tunetop ab"),
	   "an older tunetop ab record: no alpha, no front (%s)", err);
	json_decref(old);
	old = json_pack("{s:[s], s:[]}", "a", "gro=on", "b");
	ok(plan_ab_record_read(old, &back, err) == -EINVAL && strstr(err, "no seed"),
	   "a record without its seed is refused: %s", err);
	json_decref(old);
	old = json_pack("{s:i}", "n", 3);
	ok(plan_ab_record_read(old, &back, err) == -EINVAL, "nor sides nor spec: %s", err);
	json_decref(old);
}

/* The sender's MSS: the local end's for the request, the remote's for --response. */
static void test_mss(void)
{
	struct sock_sample ls = { 0 }, rs = { 0 };
	struct session_result r;

	memset(&r, 0, sizeof(r));
	ok(plan_sweep_mss(&r, false) == 0, "no connection: 0");
	ls.tcp.has = true;
	ls.tcp.snd_mss = 488;
	rs.tcp.has = true;
	rs.tcp.snd_mss = 1448;
	r.local.nsocks = r.remote.nsocks = 1;
	r.local.socks = &ls;
	r.remote.socks = &rs;
	ok(plan_sweep_mss(&r, false) == 488, "request sizes: the local end's");
	ok(plan_sweep_mss(&r, true) == 1448, "--response: the remote end's");
	r.remote.nsocks = 0;
	ok(plan_sweep_mss(&r, true) == 488, "--response with no remote figures: the local end's");
}

int main(void)
{
	struct catalog *c = NULL;
	char err[ERR_MAX] = "";

	if (!ok(catalog_load(&c, catalog_default_path(), err) == 0, "the catalog loads (%s)", err))
		return tap_done();
	test_setting_good(c);
	test_setting_bad(c);
	test_read_only(c);
	test_side(c);
	test_ends();
	test_ab();
	test_ab_judge();
	test_alpha();
	test_pairs();
	test_knob_set_same(c);
	test_ab_record();
	test_mss();
	catalog_free(c);
	return tap_done();
}
