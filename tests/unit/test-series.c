// SPDX-License-Identifier: GPL-2.0-or-later
/* test-series.c - struct plan driven as a front end drives it: steps, the order by seed, the MSS after the first point, apply and restore (in a network namespace of its own). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knobs/knobs.h"
#include "plan/series.h"
#include "tap.h"

#define REORDERING "net.ipv4.tcp_reordering"

static struct test_params rr(void)
{
	struct test_params p;

	params_default(&p);
	p.type = TEST_TCP_RR;
	p.duration = 1;
	p.req_size = p.resp_size = 1;
	return p;
}

/* An outcome of a run that measured rate r (NAN elsewhere). */
static struct plan_outcome measured(double r, bool failed)
{
	struct plan_outcome o = { .failed = failed, .ci = NAN, .tick_sd = NAN };

	for (unsigned m = 0; m < PLAN_FIGS; m++)
		o.fig[m] = NAN;
	o.fig[PLAN_AB_RATE] = r;
	return o;
}

/* An A/B's steps: pairs in the seed's order, each side its knob value and test. */
static void test_ab_steps(const struct catalog *c)
{
	const struct knob_def *d = catalog_find(c, REORDERING);
	struct test_params p[2] = { rr(), rr() };
	struct plan *pl = plan_new(c), *again = plan_new(c), *other = plan_new(c);
	int first[5];
	bool in_order = true, same = true, differ = false;
	char err[ERR_MAX] = "";

	p[1].burst = 7;
	ok(pl && d && plan_ab_set(pl, 0, d, false, "5", err) == 0 &&
	   plan_ab_set(pl, 1, d, false, "9", err) == 0 && plan_ab_build(pl, p, 5, 4242, 0.1, err) == 0 &&
	   pl->n == 10 && pl->nknobs == 1 && pl->tests_differ, "5 pairs, 10 steps, one knob (%s)", err);
	ok(plan_ab_set(pl, 0, d, false, "6", err) == -EINVAL && strstr(err, "given twice"),
	   "a side names a knob once: %s", err);
	plan_ab_order(4242, 5, first);
	for (unsigned i = 0; i < 10; i++) {
		const struct plan_step *s = &pl->step[i];
		int want = i % 2 ? !first[i / 2] : first[i / 2];

		in_order &= s->side == want && s->pair == i / 2 + 1 && s->point[0] == 'a' + want &&
			    !strcmp(plan_step_value(pl, s, 0), want ? "9" : "5") &&
			    s->p.burst == (want ? 7u : 0u);
	}
	ok(in_order, "each pair in plan_ab_order's order, its side's value and test");
	plan_ab_set(again, 0, d, false, "5", err);
	plan_ab_set(again, 1, d, false, "9", err);
	plan_ab_build(again, p, 5, 4242, 0.1, err);
	plan_ab_set(other, 0, d, false, "5", err);
	plan_ab_set(other, 1, d, false, "9", err);
	for (uint64_t seed = 1; !differ && seed < 50; seed++) {
		other->n = 0;
		plan_ab_build(other, p, 5, seed, 0.1, err);
		for (unsigned i = 0; i < 10; i++)
			differ |= other->step[i].side != pl->step[i].side;
	}
	for (unsigned i = 0; i < 10; i++)
		same &= again->step[i].side == pl->step[i].side;
	ok(same && differ, "one seed, one order; another seed, another order");
	plan_destroy(pl);
	plan_destroy(again);
	plan_destroy(other);
}

/* A size sweep without an MSS: its first point, then the rest around that point's MSS. */
static void test_mss_planning(const struct catalog *c)
{
	struct sock_sample ls = { 0 }, rs = { 0 };
	struct session_result res;
	struct test_params p = rr();
	struct plan *pl = plan_new(c);
	struct plan_outcome o = measured(1000, false);
	struct plan_step *s;
	char err[ERR_MAX] = "";
	unsigned ev;
	bool has1448 = false, has1449 = false;

	memset(&res, 0, sizeof(res));
	ls.tcp.has = rs.tcp.has = true;
	ls.tcp.snd_mss = 1448;
	rs.tcp.snd_mss = 488;
	res.local.nsocks = res.remote.nsocks = 1;
	res.local.socks = &ls;
	res.remote.socks = &rs;
	ok(pl && plan_sweep_build(pl, SW_SIZE, &p, false, NULL, 0, err) == 0 && pl->n == 1 &&
	   pl->mss_wait && !strcmp(pl->step[0].point, "size=1"),
	   "without an MSS only the first point is planned (%s)", err);
	s = plan_next(pl);
	o.res = &res;
	ev = s ? plan_step_done(pl, &o) : 0;
	ok(ev == (PLAN_EV_POINT | PLAN_EV_MSS) && pl->mss == 1448 && pl->n > 2,
	   "its connection's MSS plans the rest: %u points around %u (events %u)", pl->n, pl->mss, ev);
	for (unsigned i = 1; i < pl->n; i++) {
		has1448 |= !strcmp(pl->step[i].point, "size=1448");
		has1449 |= !strcmp(pl->step[i].point, "size=1449") && pl->step[i].p.req_size == 1449;
	}
	ok(has1448 && has1449, "MSS and MSS+1 are points");
	plan_destroy(pl);

	pl = plan_new(c);
	plan_sweep_build(pl, SW_SIZE, &p, true, NULL, 0, err);
	plan_next(pl);
	plan_step_done(pl, &o);
	ok(pl->mss == 488 && !strcmp(pl->step[1].point, "resp=2"),
	   "--response plans around the remote end's MSS (%u, then %s)", pl->mss, pl->step[1].point);
	plan_destroy(pl);

	pl = plan_new(c);
	plan_sweep_build(pl, SW_SIZE, &p, false, NULL, 0, err);
	plan_next(pl);
	res.local.nsocks = res.remote.nsocks = 0;
	ev = plan_step_done(pl, &o);
	ok(ev == (PLAN_EV_POINT | PLAN_EV_STOP | PLAN_EV_DONE) && pl->step[0].failed &&
	   strstr(pl->step[0].note, "no MSS") && !plan_next(pl),
	   "no MSS: the point fails with why, the plan stops (%s)", pl->step[0].note);
	plan_destroy(pl);

	pl = plan_new(c);
	p.type = TEST_UDP_RR;
	ok(plan_sweep_build(pl, SW_SIZE, &p, false, NULL, 0, err) == -EINVAL &&
	   !strcmp(err, "size: UDP_RR has no MSS to find; accepted: --mss N with UDP_RR"),
	   "UDP_RR has no MSS to wait for: %s", err);
	plan_destroy(pl);
	pl = plan_new(c);
	ok(plan_sweep_build(pl, SW_SIZE, &p, false, NULL, 1472, err) == 0 && pl->n > 2 &&
	   !pl->mss_wait, "with --mss it plans every point (%s)", err);
	plan_destroy(pl);
	p.type = TEST_TCP_RR;

	pl = plan_new(c);
	ok(plan_sweep_build(pl, SW_SIZE, &p, false, "1,1448,4345", 0, err) == 0 && pl->n == 3 &&
	   !pl->mss_wait, "a list of sizes needs no MSS (%s)", err);
	plan_destroy(pl);
}

/* A sweep's end: the cliffs of the engine's rule, DONE with CLIFF. */
static void test_cliffs(const struct catalog *c)
{
	struct test_params p = rr();
	struct plan *pl = plan_new(c);
	const double rate[] = { 1000, 1010, 990, 200, 1000, 1005 };
	unsigned ev = 0, i = 0;
	char err[ERR_MAX] = "";

	plan_sweep_build(pl, SW_SIZE, &p, false, "1,2,3,4,5,6", 0, err);
	while (plan_next(pl)) {
		struct plan_outcome o = measured(rate[i++], false);

		o.tick_sd = 5;
		ev = plan_step_done(pl, &o);
	}
	ok((ev & PLAN_EV_DONE) && (ev & PLAN_EV_CLIFF) && pl->step[3].pt.cliff &&
	   !pl->step[2].pt.cliff, "the drop at size=4 is a cliff (events %u)", ev);
	plan_destroy(pl);
}

/* sysctl value of REORDERING here. */
static void reordering(const struct catalog *c, char *buf)
{
	struct knob_target t = { 0 };
	struct knob_value v;
	char err[ERR_MAX];

	buf[0] = '\0';
	if (!knobs_get(catalog_find(c, REORDERING), &t, &v, err) && v.present)
		snprintf(buf, KNOB_TEXT_MAX, "%s", v.text);
}

/* Apply, a failed run mid-plan, restore; another plan over a transaction with an edit. */
static void test_apply_restore(const struct catalog *c)
{
	const struct knob_def *d = catalog_find(c, REORDERING);
	struct test_params p[2] = { rr(), rr() };
	struct session_opts so;
	struct knobs_txn *txn = NULL;
	struct plan *pl = plan_new(c);
	struct plan_step *s;
	struct plan_outcome o = measured(100, false), bad = measured(NAN, true);
	char err[ERR_MAX] = "", now[KNOB_TEXT_MAX], before[KNOB_TEXT_MAX], found[KNOB_TEXT_MAX];
	unsigned ev = 0, ran = 0;
	struct ab_result r;

	memset(&so, 0, sizeof(so));
	reordering(c, before);
	plan_ab_set(pl, 0, d, false, "5", err);
	plan_ab_set(pl, 1, d, false, "9", err);
	plan_ab_build(pl, p, 3, 7, 0.05, err);
	ok(knobs_txn_begin(&txn, "test-series", 0, err) == 0 &&
	   plan_begin(pl, &so, txn, true, err) == 0 && !strcmp(pl->knob[0].k.original, before),
	   "the plan begins, original %s read (%s)", before, err);
	while ((s = plan_next(pl))) {
		ok(plan_apply(pl, s, err) == 0, "step %u applied (%s)", s->i, err);
		reordering(c, now);
		ok(!strcmp(now, s->side ? "9" : "5"), "step %u (%s) has %s", s->i, s->point, now);
		ev = plan_step_done(pl, ran++ == 2 ? &bad : &o);
	}
	ok(ran == 3 && (ev & PLAN_EV_STOP) && (ev & PLAN_EV_DONE),
	   "an A/B stops at its failed third run (events %u)", ev);
	ok(plan_ab_verdict(pl, PLAN_AB_RATE, &r, NULL, NULL) == 0 && !r.significant,
	   "a verdict over what ran: %s", r.verdict);
	ok(plan_restore(pl, NULL, NULL, err) == 0, "restored (%s)", err);
	reordering(c, now);
	ok(!strcmp(now, before), "the original is back: %s", now);
	plan_destroy(pl);
	knobs_txn_free(txn);

	/* Not its own transaction, the last step back at the original: released. */
	txn = NULL;
	pl = plan_new(c);
	knobs_txn_begin(&txn, "test-series", 0, err);
	plan_ab_set(pl, 0, d, false, "9", err);
	plan_ab_build(pl, p, 3, 7, 0.05, err);
	plan_begin(pl, &so, txn, false, err);
	while ((s = plan_next(pl))) {
		plan_apply(pl, s, err);
		plan_step_done(pl, &o);
	}
	ok(plan_restore(pl, NULL, NULL, err) == 0 && knobs_txn_count(txn) == 0,
	   "a knob back at its original leaves the transaction (%u held): %s", knobs_txn_count(txn), err);
	reordering(c, now);
	ok(!strcmp(now, before), "and has its original: %s", now);
	plan_destroy(pl);
	knobs_txn_free(txn);

	/* The dashboard's: its transaction holds the user's edit (4) too. */
	txn = NULL;
	pl = plan_new(c);
	knobs_txn_begin(&txn, "test-series", 0, err);
	ok(knobs_txn_set(txn, d, &(struct knob_target){ 0 }, "4", NULL, NULL, err) == 0,
	   "the user's edit to 4 (%s)", err);
	plan_ab_set(pl, 0, d, false, "5", err);
	plan_ab_set(pl, 1, d, false, "9", err);
	plan_ab_build(pl, p, 3, 7, 0.05, err);
	plan_begin(pl, &so, txn, false, err);
	s = plan_next(pl);
	plan_apply(pl, s, err);
	plan_step_done(pl, &o);
	plan_stop(pl);
	ok(!plan_next(pl), "stopped: no step left");
	ok(plan_restore(pl, NULL, NULL, err) == 0, "restored (%s)", err);
	reordering(c, now);
	ok(!strcmp(now, "4") && knobs_txn_has(txn, d, &(struct knob_target){ 0 }, found, sizeof(found)) &&
	   !strcmp(found, before), "back to the user's 4, not %s: the edit stays in the transaction", before);
	knobs_txn_undo(txn, NULL, NULL);
	reordering(c, now);
	ok(!strcmp(now, before), "the transaction's undo gives %s back", now);
	plan_destroy(pl);
	knobs_txn_free(txn);
}

/* A knob that refuses a value on its end stops the plan before any run, named. */
static void test_refused(const struct catalog *c)
{
	const struct knob_def *d = catalog_find(c, REORDERING);
	const char *vals[] = { "5", "0" };
	struct sweep_knob_axis ax = { .name = REORDERING, .end = SWEEP_END_LOCAL,
				      .values = vals, .n = 2 };
	struct test_params p[2] = { rr(), rr() };
	struct session_opts so;
	struct knobs_txn *txn = NULL;
	struct plan *pl = plan_new(c);
	char err[ERR_MAX] = "", now[KNOB_TEXT_MAX], before[KNOB_TEXT_MAX];
	int rc;

	memset(&so, 0, sizeof(so));
	reordering(c, before);
	knobs_txn_begin(&txn, "test-series", 0, err);
	rc = plan_sweep_knobs(pl, &p[0], &ax, 1, err);
	ok(rc && strstr(err, REORDERING) && strstr(err, "accepted"),
	   "a sweep value the catalog refuses: no plan, the knob named: %s", err);
	plan_destroy(pl);

	pl = plan_new(c);
	plan_ab_set(pl, 0, d, false, "9", err);
	plan_ab_set(pl, 1, d, false, "0", err);
	plan_ab_build(pl, p, 3, 1, 0.05, err);
	rc = plan_begin(pl, &so, txn, true, err);
	reordering(c, now);
	ok(rc && strstr(err, REORDERING) && !strcmp(now, before) && knobs_txn_count(txn) == 0,
	   "a value out of range stops it before any run (%d): %s", rc, err);
	plan_destroy(pl);

	pl = plan_new(c);
	plan_ab_set(pl, 0, d, false, before, err);
	plan_ab_build(pl, p, 3, 1, 0.05, err);
	rc = plan_begin(pl, &so, txn, true, err);
	ok(rc == -EALREADY && strstr(err, "come to the same settings here"),
	   "sides that come to the same settings here: %s", err);
	plan_destroy(pl);
	knobs_txn_free(txn);
}

int main(void)
{
	const char *ci = getenv("CI");
	struct catalog *c = NULL;
	char err[ERR_MAX] = "", dir[] = "/tmp/test-series.XXXXXX";

	if (!ok(catalog_load(&c, catalog_default_path(), err) == 0, "the catalog loads (%s)", err))
		return tap_done();
	test_ab_steps(c);
	test_mss_planning(c);
	test_cliffs(c);
	/* Knobs change only in a network namespace of this test's own. */
	if (geteuid() != 0 || unshare(CLONE_NEWNET) || !mkdtemp(dir)) {
		ok(!(ci && !strcmp(ci, "true")), "apply and restore need root and a namespace # SKIP %s",
		   geteuid() ? "not root" : strerror(errno));
	} else {
		setenv("TUNETOP_STATE_DIR", dir, 1);
		test_apply_restore(c);
		test_refused(c);
		unlink(strcat(strcpy(err, dir), "/journal"));
		rmdir(dir);
	}
	catalog_free(c);
	return tap_done();
}
