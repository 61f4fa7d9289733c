// SPDX-License-Identifier: GPL-2.0-or-later
/* series.c - a series of runs as one object, struct plan: its steps, the knobs they set, and what each step's end means (docs/HACKING.md, "Sweeps and A/B"). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knobs/knobs.h"
#include "plan/series.h"
#include "session/target.h"

static const char *const side_names[2] = { "A", "B" };

struct plan *plan_new(const struct catalog *c)
{
	struct plan *pl = calloc(1, sizeof(*pl));

	if (!pl)
		return NULL;
	pl->cat = c;
	pl->alpha = PLAN_AB_ALPHA;
	memset(pl->side_vi, 0xff, sizeof(pl->side_vi));	/* -1: no value */
	return pl;
}

void plan_destroy(struct plan *pl)
{
	if (!pl)
		return;
	for (unsigned k = 0; k < pl->nknobs; k++) {
		for (unsigned v = 0; v < pl->knob[k].nval; v++)
			free(pl->knob[k].val[v]);
		free(pl->knob[k].val);
	}
	free(pl);
}

/* The plan's knob d on one end, added if new; its index or -1 when full. */
static int knob_of(struct plan *pl, const struct knob_def *d, bool remote)
{
	struct plan_series_knob *k;

	for (unsigned i = 0; i < pl->nknobs; i++)
		if (pl->knob[i].k.d == d && pl->knob[i].remote == remote)
			return (int)i;
	if (pl->nknobs == PLAN_MAX_KNOBS)
		return -1;
	k = &pl->knob[pl->nknobs];
	memset(k, 0, sizeof(*k));
	k->k.d = d;
	k->remote = remote;
	return (int)pl->nknobs++;
}

/* Value text among knob k's values, added if new; its index or -1 out of memory. */
static int value_of(struct plan_series_knob *k, const char *text)
{
	char **v;

	for (unsigned i = 0; i < k->nval; i++)
		if (!strcmp(k->val[i], text))
			return (int)i;
	if (k->nval >= PLAN_MAX_STEPS)
		return -1;
	v = realloc(k->val, (k->nval + 1) * sizeof(*v));
	if (!v)
		return -1;
	k->val = v;
	if (!(v[k->nval] = strdup(text)))
		return -1;
	return (int)k->nval++;
}

/* A new step of test p, every knob at its original; NULL when the plan is full. */
static struct plan_step *add_step(struct plan *pl, const struct test_params *p)
{
	struct plan_step *s;

	if (pl->n == PLAN_MAX_STEPS)
		return NULL;
	s = &pl->step[pl->n];
	memset(s, 0, sizeof(*s));
	s->i = pl->n++;
	s->p = *p;
	s->side = -1;
	memset(s->vi, 0xff, sizeof(s->vi));
	for (unsigned m = 0; m < PLAN_FIGS; m++)
		s->fig[m] = NAN;
	s->pt = (struct sweep_policy_pt){ .point = s->point, .rate = NAN, .ci = NAN,
					  .tick_sd = NAN, .x = NAN, .noise = NAN,
					  .drop_pct = NAN, .before = -1 };
	return s;
}

static int too_many(char *err)
{
	return err_set(err, -EINVAL, "more than %d runs in one sweep or A/B", PLAN_MAX_STEPS);
}

int plan_ab_set(struct plan *pl, int s, const struct knob_def *d, bool remote,
		const char *value, char *err)
{
	int k = knob_of(pl, d, remote), v;

	if (k < 0)
		return err_set(err, -EINVAL, "more than %d knobs; accepted: at most %d", PLAN_MAX_KNOBS,
			       PLAN_MAX_KNOBS);
	if (pl->side_vi[s][k] >= 0)
		return err_set(err, -EINVAL, "side %s: %s%s given twice; accepted: each knob once per side",
			       side_names[s], remote ? "remote:" : "", d->name);
	v = value_of(&pl->knob[k], value);
	if (v < 0)
		return err_set(err, -ENOMEM, "out of memory");
	pl->side_vi[s][k] = (short)v;
	return 0;
}

int plan_ab_build(struct plan *pl, const struct test_params p[2], unsigned pairs,
		  uint64_t seed, double alpha, char *err)
{
	int first[PLAN_MAX_STEPS / 2];
	char text[2][256];

	if (pairs > PLAN_MAX_STEPS / 2)
		return too_many(err);
	pl->kind = PLAN_AB;
	pl->pairs = pairs;
	pl->seed = seed;
	pl->alpha = alpha;
	for (int s = 0; s < 2; s++) {
		pl->side_p[s] = p[s];
		params_text(&p[s], text[s], sizeof(text[s]));
	}
	pl->tests_differ = strcmp(text[0], text[1]) != 0;
	plan_ab_order(seed, pairs, first);
	for (unsigned i = 0; i < pairs; i++)
		for (int k = 0; k < 2; k++) {
			int s = k ? !first[i] : first[i];
			struct plan_step *st = add_step(pl, &p[s]);

			if (!st)
				return too_many(err);
			st->side = s;
			st->pair = i + 1;
			snprintf(st->point, sizeof(st->point), "%c", 'a' + s);
			memcpy(st->vi, pl->side_vi[s], sizeof(st->vi));
		}
	return 0;
}

/* Numeric points v[0..n) of the plan's sweep kind as steps; -EINVAL with err. */
static int add_values(struct plan *pl, const uint64_t *v, unsigned n, char *err)
{
	for (unsigned i = 0; i < n; i++) {
		struct plan_step *s = add_step(pl, &pl->base);

		if (!s)
			return err_set(err, -EINVAL, "sweep: more than %d points", PLAN_MAX_STEPS);
		if (sweep_policy_point_params(pl->skind, pl->response, v[i], &s->p, err)) {
			pl->n--;
			return -EINVAL;
		}
		s->value = v[i];
		sweep_policy_point_name(pl->skind, pl->response, v[i], s->point, sizeof(s->point));
	}
	return 0;
}

int plan_sweep_build(struct plan *pl, enum sweep_kind kind, const struct test_params *p,
		     bool response, const char *list, uint32_t mss, char *err)
{
	uint64_t v[PLAN_MAX_STEPS];
	unsigned n = 0;

	pl->kind = PLAN_SWEEP;
	pl->skind = kind;
	pl->response = response;
	pl->base = *p;
	snprintf(pl->list, sizeof(pl->list), "%s", list ? list : "");
	pl->mss_wait = sweep_policy_needs_mss(kind, list && *list ? list : NULL) && !mss;
	pl->mss = sweep_policy_needs_mss(kind, list && *list ? list : NULL) ? mss : 0;
	if (pl->mss_wait && test_is_udp(p->type))
		return err_set(err, -EINVAL, "size: UDP_RR has no MSS to find; accepted: --mss N with UDP_RR");
	/* Without an MSS a size sweep plans its first point only. */
	if (sweep_policy_plan(kind, list && *list ? list : NULL, mss, v, PLAN_MAX_STEPS, &n, err))
		return -EDOM;
	return add_values(pl, v, n, err);
}

int plan_sweep_knobs(struct plan *pl, const struct test_params *p,
		     const struct sweep_knob_axis *ax, unsigned nax, char *err)
{
	static struct sweep_knob_pt kp[PLAN_MAX_STEPS];
	int k[2][2];			/* each axis's knob on each of its ends */
	short vi[2][PLAN_MAX_STEPS];	/* each axis's value indices */
	unsigned n = 0, ne[2] = { 0, 0 };

	pl->kind = PLAN_SWEEP;
	pl->skind = SW_KNOB;
	pl->base = *p;
	if (sweep_knob_plan(ax, nax, kp, PLAN_MAX_STEPS, &n, err))
		return -EINVAL;
	for (unsigned j = 0; j < nax; j++) {
		const struct knob_def *d;
		bool remote[2];
		int rc = plan_knob_find(pl->cat, ax[j].name, &d, err);

		if (rc)
			return rc;
		ne[j] = sweep_end_sides(ax[j].end, remote);
		for (unsigned e = 0; e < ne[j]; e++)
			if ((k[j][e] = knob_of(pl, d, remote[e])) < 0)
				return err_set(err, -EINVAL, "more than %d knobs", PLAN_MAX_KNOBS);
		for (unsigned i = 0; i < ax[j].n; i++) {
			struct knob_value kv;
			int v;

			rc = knob_parse_value(d, ax[j].values[i], &kv, err);
			if (rc)
				return rc;
			/* Both ends get the values alike, so one index serves each. */
			for (unsigned e = 0; e < ne[j]; e++) {
				v = value_of(&pl->knob[k[j][e]], ax[j].values[i]);
				if (v < 0)
					return err_set(err, -ENOMEM, "out of memory");
				vi[j][i] = (short)v;
			}
		}
	}
	for (unsigned i = 0; i < n; i++) {
		struct plan_step *s = add_step(pl, p);

		if (!s)
			return too_many(err);
		memcpy(s->ki, kp[i].ki, sizeof(s->ki));
		snprintf(s->point, sizeof(s->point), "%s", kp[i].name);
		for (unsigned j = 0; j < nax; j++)
			for (unsigned e = 0; e < ne[j]; e++)
				s->vi[k[j][e]] = vi[j][kp[i].ki[j]];
	}
	return 0;
}

void plan_rebase(struct plan *pl, const struct test_params *p)
{
	char err[ERR_MAX];

	pl->base = *p;
	for (unsigned i = 0; i < pl->n; i++) {
		struct plan_step *s = &pl->step[i];

		s->p = pl->kind == PLAN_AB ? pl->side_p[s->side] : *p;
		if (pl->kind == PLAN_SWEEP && pl->skind != SW_KNOB)
			sweep_policy_point_params(pl->skind, pl->response, s->value, &s->p, err);
	}
}

const char *plan_step_value(const struct plan *pl, const struct plan_step *s, unsigned k)
{
	const struct plan_series_knob *kn = &pl->knob[k];

	return s->vi[k] >= 0 ? kn->val[s->vi[k]] : kn->k.original;
}

bool plan_value_same(const struct knob_def *d, const char *a, const char *b)
{
	struct knob_value va, vb;
	char e[ERR_MAX];

	if (!a || !b)
		return !a && !b;
	if (knob_parse_value(d, a, &va, e) || knob_parse_value(d, b, &vb, e))
		return !strcmp(a, b);
	return knob_value_equal(d, &va, &vb);
}

/* An A/B whose sides come to one setting of every knob and one test. */
static int ab_same(const struct plan *pl, char *err)
{
	const struct plan_series_knob *k = &pl->knob[0];

	if (pl->tests_differ)
		return 0;
	for (unsigned i = 0; i < pl->nknobs; i++) {
		const struct plan_series_knob *ki = &pl->knob[i];
		const char *v[2];

		for (int s = 0; s < 2; s++)
			v[s] = pl->side_vi[s][i] >= 0 ? ki->val[pl->side_vi[s][i]] : ki->k.original;
		if (!plan_value_same(ki->k.d, v[0], v[1]))
			return 0;
	}
	if (!pl->nknobs)
		return err_set(err, -EALREADY, "options --a and --b ask for the same settings; accepted: two knob sets (or test options) that differ");
	return err_set(err, -EALREADY, "options --a and --b come to the same settings here: the knobs already have the values asked for (%s on %s is %s); accepted: two knob sets that differ from each other",
		       k->k.d->name, knobs_side_name(&k->k.t), k->k.original);
}

int plan_begin(struct plan *pl, const struct session_opts *so, struct knobs_txn *txn,
	       bool own_txn, char *err)
{
	pl->txn = txn;
	pl->own_txn = own_txn;
	pl->next = 0;
	pl->stopped = false;
	for (unsigned i = 0; i < pl->nknobs; i++) {
		struct plan_series_knob *k = &pl->knob[i];
		int rc;

		target_knob_target(so, k->remote, &k->k.t);
		rc = plan_knob_begin(pl->cat, &k->k, (const char *const *)k->val, k->nval, err);
		if (rc)
			return rc;
	}
	return pl->kind == PLAN_AB ? ab_same(pl, err) : 0;
}

struct plan_step *plan_next(struct plan *pl)
{
	return pl->stopped || pl->next >= pl->n ? NULL : &pl->step[pl->next];
}

int plan_apply(struct plan *pl, const struct plan_step *s, char *err)
{
	for (unsigned i = 0; i < pl->nknobs; i++) {
		struct plan_series_knob *k = &pl->knob[i];
		const char *want = plan_step_value(pl, s, i);
		char e[ERR_MAX];
		int rc = plan_knob_set(pl->txn, &k->k, want, e);

		if (rc)
			return err_set(err, rc, "set %s on %s to %s: %s", k->k.d->name,
				       knobs_side_name(&k->k.t), want, e);
	}
	return 0;
}

/* The first point of a size sweep ran: the rest planned around its MSS. */
static unsigned plan_mss(struct plan *pl, struct plan_step *s, const struct plan_outcome *o)
{
	uint64_t v[PLAN_MAX_STEPS];
	unsigned n = 0;
	char err[ERR_MAX];

	pl->mss_wait = false;
	pl->mss = o->failed || !o->res ? 0 : plan_sweep_mss(o->res, pl->response);
	if (!pl->mss) {
		if (!o->failed) {
			s->failed = true;
			snprintf(s->note, sizeof(s->note), "the connection reported no MSS (give --mss N)");
			s->pt.rate = NAN;
		}
		pl->stopped = true;
		return PLAN_EV_STOP;
	}
	/* Its first point (1 byte) has run already. */
	if (!sweep_policy_plan(pl->skind, pl->list[0] ? pl->list : NULL, pl->mss, v,
			       PLAN_MAX_STEPS, &n, err) && n > 1)
		add_values(pl, v + 1, n - 1, err);
	return PLAN_EV_MSS;
}

unsigned plan_cliffs(struct plan *pl)
{
	static struct sweep_policy_pt pt[PLAN_MAX_STEPS];
	unsigned nc;

	for (unsigned i = 0; i < pl->next; i++)
		pt[i] = pl->step[i].pt;
	nc = sweep_policy_cliffs(pt, pl->next);
	for (unsigned i = 0; i < pl->next; i++)
		pl->step[i].pt = pt[i];
	return nc;
}

unsigned plan_step_done(struct plan *pl, const struct plan_outcome *o)
{
	struct plan_step *s;
	unsigned ev = PLAN_EV_POINT;

	if (pl->next >= pl->n)
		return 0;
	s = &pl->step[pl->next];
	s->ran = true;
	s->failed = o->failed;
	s->cut = o->cut;
	s->run_id = o->run_id;
	memcpy(s->fig, o->fig, sizeof(s->fig));
	s->pt.rate = o->failed ? NAN : o->fig[PLAN_AB_RATE];
	s->pt.ci = o->ci;
	s->pt.tick_sd = o->tick_sd;
	pl->next++;
	if (pl->kind == PLAN_SWEEP && pl->mss_wait && s->i == 0)
		ev |= plan_mss(pl, s, o);
	if (o->cut || (pl->kind == PLAN_AB && o->failed)) {
		pl->stopped = true;
		ev |= PLAN_EV_STOP;
	}
	if (pl->stopped || pl->next >= pl->n) {
		ev |= PLAN_EV_DONE;
		if (pl->kind == PLAN_SWEEP && plan_cliffs(pl))
			ev |= PLAN_EV_CLIFF;
	}
	return ev;
}

void plan_stop(struct plan *pl)
{
	pl->stopped = true;
}

int plan_restore(struct plan *pl, knobs_txn_undo_cb cb, void *arg, char *err)
{
	int rc = 0;

	if (!pl->txn)
		return 0;
	if (pl->own_txn) {
		rc = knobs_txn_undo(pl->txn, cb, arg) ? -EIO : 0;
		for (unsigned i = 0; i < pl->nknobs; i++)
			memcpy(pl->knob[i].k.now, pl->knob[i].k.original, sizeof(pl->knob[i].k.now));
		if (rc)
			err_set(err, rc, "a knob could not be put back (tunetop restore will retry)");
		return rc;
	}
	/* Newest first; each back to the value it had before the plan. */
	for (unsigned i = pl->nknobs; i-- > 0;) {
		struct plan_knob *k = &pl->knob[i].k;
		char found[KNOB_TEXT_MAX], e[ERR_MAX];
		int r;

		/* The value the transaction found: undone, so the journal forgets
		 * it and the knob is no longer held (also when a later step
		 * already set it back). */
		if (knobs_txn_has(pl->txn, k->d, &k->t, found, sizeof(found)) &&
		    !strcmp(found, k->original)) {
			r = knobs_txn_undo_one(pl->txn, k->d, &k->t, e);
			if (!r)
				memcpy(k->now, k->original, sizeof(k->now));
		} else if (strcmp(k->now, k->original)) {
			r = plan_knob_set(pl->txn, k, k->original, e);
		} else {
			continue;
		}
		if (r && !rc)
			rc = err_set(err, -EIO, "put back %s on %s to %s: %s", k->d->name,
				     knobs_side_name(&k->t), k->original, e);
	}
	return rc;
}

/* Each step's side and figure m; NAN for one not counted (failed, cut, not run). */
static void ab_runs(const struct plan *pl, unsigned m, int *side, double *fig)
{
	for (unsigned i = 0; i < pl->n; i++) {
		const struct plan_step *s = &pl->step[i];

		side[i] = s->side;
		fig[i] = !s->ran || s->failed || s->cut ? NAN : s->fig[m];
	}
}

int plan_ab_verdict(const struct plan *pl, unsigned m, struct ab_result *r, unsigned *na,
		    unsigned *nb)
{
	int side[PLAN_MAX_STEPS];
	double fig[PLAN_MAX_STEPS];

	ab_runs(pl, m, side, fig);
	return plan_ab_judge(side, fig, pl->n, pl->alpha, pl->seed, m, r, na, nb);
}

int plan_ab_median_step(const struct plan *pl, int s)
{
	int side[PLAN_MAX_STEPS];
	double fig[PLAN_MAX_STEPS];

	ab_runs(pl, PLAN_AB_RATE, side, fig);
	return plan_ab_median(side, fig, pl->n, s);
}
