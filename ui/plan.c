// SPDX-License-Identifier: GPL-2.0-or-later
/* plan.c - sweeps and A/B comparisons started from the dashboard: a queue of runs. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "plan.h"
#include "results.h"

/*
 * A plan of the dashboard: the engine's (struct plan: its steps, knobs,
 * MSS, order and verdict) and what the dashboard keeps of it.
 */
struct dash_plan {
	struct plan *pl;
	bool ab;
	struct plan_ab_record rec;	/* an A/B as the history keeps it, tunetop ab's shape */
	char kind[16];
	int64_t sweep_id;
	struct test_params p0;		/* the test before the plan, given back after */
	bool lcpu, rcpu;		/* -c / -C for its runs' documents (its columns) */
	bool reverse;			/* --reverse: every run turned around (target_reverse) */
	struct plan_table *tab;		/* a sweep's table (u->sweep once started); NULL for A/B */
	/* A sweep as the history keeps it, tunetop sweep's shape (plan_sweep_record). */
	bool response;
	char test[256];			/* params_text of the test its points start from */
	struct plan_sweep_knob rk[4];	/* a knob sweep's knobs, one an end */
	unsigned nrk;
};

static struct dash_plan *plan_of(const struct ui *u)
{
	return u->plan;
}

bool plan_active(const struct ui *u)
{
	return u->plan != NULL;
}

/* What a sweep asks for: its kind and own arguments, from the prompt or a preset. */
struct plan_args {
	enum sweep_kind kind;
	const char *list;		/* burst or send-size list; NULL: the default */
	const char *knob[2];		/* knob: [local:|remote:|both:]NAME=V1,V2,..., one or two */
	unsigned nknob;
	const char *columns;		/* --columns LIST; NULL: the default */
	bool response;
	bool reverse;			/* --reverse (burst) */
	uint32_t mss;			/* --mss N; 0: the newest run's */
};

#define PLAN_ACCEPTED "size [LIST|LO..HI] [--response] [--mss N], burst [LIST] [--reverse], send-size [LIST], " \
		      "knob [local:|remote:|both:]NAME=V1,V2 [[local:|remote:]NAME2=W1,W2] " \
		      "(each with --columns LIST), preset NAME"

/*
 * The words of a sweep (KIND ARGS..., as tunetop sweep takes them) into a.
 * 0 or -EINVAL with err.
 */
static int plan_args_parse(char **w, unsigned n, struct plan_args *a, char *err)
{
	int i = 1;

	memset(a, 0, sizeof(*a));
	if (!n || sweep_policy_kind_parse(w[0], &a->kind))
		return err_set(err, -EINVAL, "sweep %s: unknown; accepted: " PLAN_ACCEPTED,
			       n ? w[0] : "");
	for (;;) {
		const char *v;
		int what = sweep_arg_next(a->kind, (int)n, w, &i, &v, &a->mss, err);

		if (what < 0)
			return -EINVAL;
		if (what == SWEEP_ARG_END && i == (int)n)
			break;
		if (what == SWEEP_ARG_RESPONSE)
			a->response = true;
		else if (what == SWEEP_ARG_REVERSE)
			a->reverse = true;
		else if (what == SWEEP_ARG_COLUMNS)
			a->columns = v;
		else if (what == SWEEP_ARG_WORD && a->kind == SW_KNOB && a->nknob < 2)
			a->knob[a->nknob++] = v;
		else if (what == SWEEP_ARG_WORD && a->kind != SW_KNOB && !a->list)
			a->list = v;
		else if (what != SWEEP_ARG_MSS)
			return err_set(err, -EINVAL, "sweep %s: \"%.40s\" not here (the test is t's); accepted: " PLAN_ACCEPTED,
				       w[0], w[i - (what == SWEEP_ARG_WORD)]);
	}
	if (a->kind == SW_KNOB && !a->nknob)
		return err_set(err, -EINVAL, "sweep knob: no knob; accepted: knob [local:|remote:|both:]NAME=V1,V2,...");
	return 0;
}

/*
 * "preset NAME": the preset's words from data/sweeps (sweep_preset_find,
 * as tunetop sweep preset reads them) in p.  0 or -EINVAL with err naming
 * the presets there are.
 */
static int plan_preset(char **w, unsigned n, struct sweep_preset *p, char *err)
{
	char path[4096], names[512], why[ERR_MAX];
	int rc;

	sweep_preset_path(path, sizeof(path));
	if (n == 2) {
		rc = sweep_preset_find(path, w[1], p, why);
		if (!rc)
			return 0;
		return err_set(err, -EINVAL, "sweep preset %s", why);
	}
	if (sweep_preset_names(path, names, sizeof(names), why))
		return err_set(err, -EINVAL, "sweep preset: %s", why);
	return err_set(err, -EINVAL, "sweep preset: %s; accepted: preset NAME (the test is t's), NAME one of %s",
		       n < 2 ? "no name" : "more than a name", names);
}

/*
 * A sweep's columns: its --columns (checked as tunetop sweep checks
 * them) or the default for the test, then what they need turned on for
 * its runs (-c, -C, the capture).  0 or -EINVAL with err.
 */
static int plan_columns(struct ui *u, struct dash_plan *pl, const char *columns,
			struct test_params *base, char *err)
{
	struct plan_table *t = pl->tab;
	bool rr = test_is_rr(base->type);

	if (columns && ctl_columns_check(u, columns, base->type, err))
		return -EINVAL;
	ctl_cpu_opts(u, &pl->lcpu, &pl->rcpu);
	if (sweep_cols_make(columns, rr, pl->lcpu, pl->rcpu, &t->cols, err))
		return -EINVAL;
	sweep_cols_turn_on(&t->cols, &pl->lcpu, &pl->rcpu, &base->capture, t->note,
			   sizeof(t->note));
	t->rr = rr;
	return 0;
}

/*
 * A knob sweep's points: one knob or two crossed, planned by the engine
 * (plan_sweep_knobs) as tunetop sweep plans them; two get a column each
 * in the table.  -EINVAL with err.
 */
static int plan_knobs(struct dash_plan *pl, const struct plan_args *a,
		      const struct test_params *base, char *err)
{
	static char name[2][KNOB_NAME_MAX + 8], buf[2][512];
	static const char *values[2][SWEEP_MAX_POINTS];
	struct sweep_knob_axis ax[2];
	struct plan_table *t = pl->tab;

	for (unsigned j = 0; j < a->nknob; j++) {
		const char *body = sweep_knob_end(a->knob[j], &ax[j].end);

		if (sweep_parse_knob(body, name[j], sizeof(name[j]), buf[j], sizeof(buf[j]),
				     values[j], SWEEP_MAX_POINTS, &ax[j].n, err))
			return -EINVAL;
		ax[j].name = name[j];
		ax[j].values = values[j];
	}
	if (plan_sweep_knobs(pl->pl, base, ax, a->nknob, err))
		return -EINVAL;
	for (unsigned j = 0; j < a->nknob; j++) {
		bool remote[2];
		unsigned ne = sweep_end_sides(ax[j].end, remote);

		for (unsigned e = 0; e < ne && pl->nrk < 4; e++)
			pl->rk[pl->nrk++] = (struct plan_sweep_knob){ .name = name[j],
								      .remote = remote[e],
								      .n = ax[j].n,
								      .values = values[j] };
	}
	if (a->nknob == 2) {
		t->nknob = 2;
		for (unsigned j = 0; j < 2; j++)
			snprintf(t->knob[j], sizeof(t->knob[j]), "%s%.24s",
				 ax[j].end == SWEEP_END_REMOTE ? "remote:" : "",
				 strrchr(name[j], '.') ? strrchr(name[j], '.') + 1 : name[j]);
	}
	return 0;
}

/* The points of a sweep spec ("KIND ARGS" or "preset NAME"); -EINVAL with err. */
static int plan_sweep(struct ui *u, struct dash_plan *pl, const char *spec, char *err)
{
	static struct sweep_preset preset;
	char copy[256], *w[SWEEP_PRESET_WORDS], *save = NULL, *tok;
	struct test_params base = u->p;
	struct plan_args a;
	unsigned nw = 0;

	snprintf(copy, sizeof(copy), "%s", spec);
	for (tok = strtok_r(copy, " \t", &save); tok && nw < SWEEP_PRESET_WORDS;
	     tok = strtok_r(NULL, " \t", &save))
		w[nw++] = tok;
	if (nw && !strcmp(w[0], "preset")) {
		if (plan_preset(w, nw, &preset, err))
			return -EINVAL;
		snprintf(pl->tab->preset, sizeof(pl->tab->preset), "%s", preset.word[0]);
		if (plan_args_parse(preset.word + 1, preset.nword - 1, &a, err))
			return -EINVAL;
	} else if (plan_args_parse(w, nw, &a, err)) {
		return -EINVAL;
	}
	snprintf(pl->kind, sizeof(pl->kind), "%s", sweep_policy_kind_name(a.kind));
	snprintf(pl->tab->kind, sizeof(pl->tab->kind), "%s", pl->kind);
	if (a.kind != SW_KNOB && (a.kind != SW_SEND) != test_is_rr(u->p.type))
		return err_set(err, -EINVAL, "sweep %s: accepted with a %s test (t to change it)",
			       pl->kind, a.kind == SW_SEND ? "stream" : "request/response");
	if (plan_columns(u, pl, a.columns, &base, err))
		return -EINVAL;
	pl->response = a.response;
	params_text(&base, pl->test, sizeof(pl->test));
	pl->reverse = a.reverse;
	if (a.reverse)
		snprintf(pl->tab->reverse, sizeof(pl->tab->reverse), "%s", ctl_reverse_desc(u));
	/* Without --mss a size sweep plans the rest around its first point's. */
	if (a.kind != SW_KNOB)
		return plan_sweep_build(pl->pl, a.kind, &base, a.response, a.list, a.mss, err) ?
		       -EINVAL : 0;
	return plan_knobs(pl, &a, &base, err);
}

/*
 * "--a SPEC --b SPEC [-n N] [--seed S] [--alpha A]": pairs in the order
 * of the seed (plan_ab_seed() when none is given, as tunetop ab chooses
 * it, shown in the header and stored with the A/B), judged at alpha
 * (plan_alpha_parse, as tunetop ab takes it); -EINVAL with err.
 */
static int plan_ab(struct ui *u, struct dash_plan *pl, const char *spec, char *err)
{
	char copy[400], *w, *save = NULL, *side[2] = { NULL, NULL };
	struct test_params p[2] = { u->p, u->p };
	unsigned pairs = PLAN_AB_PAIRS;
	uint64_t seed = 0;
	double alpha = PLAN_AB_ALPHA;
	bool seeded = false;

	snprintf(copy, sizeof(copy), "%s", spec);
	snprintf(pl->kind, sizeof(pl->kind), "ab");
	for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		uint64_t v;

		if ((!strcmp(w, "--a") || !strcmp(w, "--b")) && (side[w[2] - 'a'] = strtok_r(NULL, " ", &save)))
			continue;
		if (!strcmp(w, "-n")) {
			char e[ERR_MAX];

			if (plan_pairs_parse(strtok_r(NULL, " ", &save), &pairs, e))
				return err_set(err, -EINVAL, "A/B: %s", e);
			continue;
		}
		if (!strcmp(w, "--seed") && (w = strtok_r(NULL, " ", &save)) &&
		    !parse_uint(w, 0, INT64_MAX, &v)) {
			seed = v;
			seeded = true;
			continue;
		}
		if (!strcmp(w, "--alpha")) {
			char e[ERR_MAX];

			if (plan_alpha_parse(strtok_r(NULL, " ", &save), &alpha, e))
				return err_set(err, -EINVAL, "A/B: %s", e);
			continue;
		}
		return err_set(err, -EINVAL, "A/B: accepted: --a SPEC --b SPEC [-n 3..100] [--seed S] [--alpha A], "
			       "SPEC " PLAN_SETTING_ACCEPTS "[,...]");
	}
	for (int s = 0; s < 2; s++) {
		struct plan_setting ps[PLAN_AB_REC_ITEMS];
		unsigned n;
		int test;

		if (!side[s])
			return err_set(err, -EINVAL, "A/B: --a and --b are both needed (\"\" not here: "
				       "give the value the knob has)");
		/* A side as tunetop ab reads it (plan_side_parse). */
		if (plan_side_parse(u->cat, side[s], ps, PLAN_AB_REC_ITEMS / 2, &n, &test, err))
			return -EINVAL;
		if (test >= 0)
			return err_set(err, -EINVAL, "A/B: --%c %.40s: a side's test options are not here; accepted: the test on show (t changes it) for both sides",
				       'a' + s, side[s] + test);
		for (unsigned i = 0; i < n; i++) {
			bool remote[2];
			unsigned ne = sweep_end_sides(ps[i].end, remote);

			for (unsigned e = 0; e < ne; e++) {
				char t[PLAN_AB_REC_TEXT];

				if (plan_ab_set(pl->pl, s, ps[i].d, remote[e], ps[i].value, err))
					return -EINVAL;
				plan_setting_text(ps[i].d, remote[e], ps[i].value, t, sizeof(t));
				if (plan_ab_record_add(&pl->rec, s, t, err))
					return -EINVAL;
			}
		}
	}
	pl->ab = true;
	if (!seeded)
		seed = plan_ab_seed();
	pl->rec.pairs = pairs;
	pl->rec.seed = seed;
	pl->rec.alpha = alpha;
	snprintf(pl->rec.front, sizeof(pl->rec.front), "dashboard");
	return plan_ab_build(pl->pl, p, pairs, seed, alpha, err) ? -EINVAL : 0;
}

/*
 * What moved from A to B: the median-rate run of each side, as `tunetop
 * ab` picks them (plan_ab_median()), compared by the model; the runs panel
 * then shows B beside A with the whole list (docs/why.md).  Into buf:
 * "; moved (run 3 -> run 6, the median of each): ...", or why not.
 */
static void plan_ab_moved(struct ui *u, const struct dash_plan *pl, char *buf, size_t len)
{
	struct model_run *run[2] = { NULL, NULL };
	struct why_change c;

	for (int side = 0; side < 2; side++) {
		int k = plan_ab_median_step(pl->pl, side);

		run[side] = k < 0 ? NULL : model_by_id(&u->model, (unsigned)pl->pl->step[k].run_id);
	}
	buf[0] = '\0';
	if (!run[0] || !run[1])
		return;
	if (ctl_run_doc(u, run[0], run[1]) || ctl_run_doc(u, run[1], run[0]) ||
	    model_why_change(run[0], run[1], &c)) {
		snprintf(buf, len, "; what moved: n/a (%.160s)", run[0]->doc ? run[1]->doc_na : run[0]->doc_na);
		return;
	}
	u->cur = run[1];
	u->compare = run[0];
	snprintf(buf, len, "; moved (run %u -> %u, the median of each): %.200s", run[0]->id, run[1]->id,
		 c.n ? c.m[0].text : "nothing of the mechanisms compared");
}

/* The table's points named, as the plan has them now (more after a size sweep's MSS). */
static void plan_table_points(struct dash_plan *pl)
{
	struct plan_table *t = pl->tab;

	t->n = pl->pl->n;
	for (unsigned i = 0; i < t->n; i++) {
		const struct plan_step *s = &pl->pl->step[i];

		snprintf(t->pt[i].point, sizeof(t->pt[i].point), "%s", s->point);
		/* Two crossed knobs, one end each: each one's value in its column. */
		for (unsigned j = 0; j < t->nknob && j < pl->pl->nknobs; j++)
			snprintf(t->pt[i].knob[j], sizeof(t->pt[i].knob[j]), "%s",
				 plan_step_value(pl->pl, s, j));
	}
}

/* The sweep's table on show from now on, its points named, none run yet. */
static void plan_table_start(struct ui *u, struct dash_plan *pl)
{
	plan_table_points(pl);
	free(u->sweep);
	u->sweep = pl->tab;
}

/*
 * Point i ran as r: its rate, and its value in each column from its
 * result document (sweep_cols_text, as tunetop sweep's table has it;
 * the model keeps the document, bounded, for what moved).
 */
static void plan_table_point(struct plan_table *t, unsigned i, struct model_run *r)
{
	struct plan_table_pt *p;

	if (!t || i >= t->n)
		return;
	p = &t->pt[i];
	p->ran = true;
	p->failed = r->state == MS_FAILED;
	p->rate = r->state == MS_DONE || r->state == MS_STOPPED ? r->rate : NAN;
	for (unsigned c = 0; c < t->cols.n; c++)
		sweep_cols_text(r->doc, t->cols.name[c], p->col[c], sizeof(p->col[c]));
	if (r->has_result && r->res.units && !t->units[0])
		snprintf(t->units, sizeof(t->units), "%s", r->res.units);
}

/* The cliffs the engine's rule marked, into the table. */
static void plan_table_cliffs(struct plan_table *t, const struct sweep_policy_pt *pt,
			      unsigned n)
{
	for (unsigned i = 0; t && i < n && i < t->n; i++) {
		t->pt[i].cliff = pt[i].cliff;
		t->pt[i].drop_pct = pt[i].drop_pct;
	}
}

/*
 * Where a plan ends (done, or stopped): the test and the knobs back
 * (plan_restore), then the verdict or the cliffs in the status line.
 */
static void dash_end(struct ui *u)
{
	struct dash_plan *pl = plan_of(u);
	char err[ERR_MAX];

	u->p = pl->p0;
	if (plan_restore(pl->pl, NULL, NULL, err))
		ui_status(u, STY_WARN, 15, "%s (tunetop restore will retry)", err);
	ctl_read_knobs(u);
	if (pl->ab) {
		unsigned na, nb;
		struct ab_result r;
		char moved[320];

		plan_ab_moved(u, pl, moved, sizeof(moved));
		/* The rate judged as tunetop ab judges it: its alpha, resamples and seed. */
		if (plan_ab_verdict(pl->pl, PLAN_AB_RATE, &r, &na, &nb) == 0)
			ui_status(u, r.significant ? STY_GOOD : STY_NORMAL, 60,
				  "A/B done: B vs A rate %s (%s; seed %llu, alpha %g; n=%u+%u, medians %.6g / %.6g)%s%s",
				  r.verdict, r.significant ? "real" : r.why,
				  (unsigned long long)pl->pl->seed, pl->pl->alpha, na, nb, r.median_a,
				  r.median_b, pl->pl->stopped ? "; stopped early" : "", moved);
		else
			ui_status(u, STY_WARN, 30, "A/B: too few runs to compare (%u+%u, seed %llu)",
				  na, nb, (unsigned long long)pl->pl->seed);
	} else {
		struct sweep_policy_pt pt[SWEEP_MAX_POINTS];
		char line[256];
		unsigned nc;

		for (unsigned i = 0; i < pl->pl->n; i++)
			pt[i] = pl->pl->step[i].pt;
		const char *note = pl->pl->step[0].note;

		nc = plan_sweep_summary(pl->kind, pt, pl->pl->n, line, sizeof(line));
		plan_table_cliffs(pl->tab, pt, pl->pl->n);
		/* Its first point's "no MSS" (the only note a step gets) said. */
		ui_status(u, nc || note[0] ? STY_WARN : STY_GOOD, 60, "%s%s%s%s", line,
			  pl->pl->stopped ? "; stopped early" : "", note[0] ? ": " : "", note);
	}
	results_open_plan(u, pl->sweep_id);
	plan_free(u);
}

/* Start the plan's next step (its knobs set by plan_apply), or end it. */
static void dash_next(struct ui *u)
{
	struct dash_plan *pl = plan_of(u);
	struct plan_step *s;

	while ((s = plan_next(pl->pl))) {
		char err[ERR_MAX];
		int rc = plan_apply(pl->pl, s, err);

		ctl_read_knobs(u);
		if (rc) {
			ui_status(u, STY_WARN, 15, "%s: %s", s->point, err);
		} else {
			u->p = s->p;
			if (ctl_run_point(u, pl->ab ? "ab" : "sweep", pl->sweep_id, s->point,
					  pl->lcpu, pl->rcpu, pl->reverse) == 0)
				return;
		}
		plan_stop(pl->pl);
	}
	dash_end(u);
}

/*
 * The plan in the history, in tunetop ab's and tunetop sweep's shapes:
 * an A/B's sides, pairs, seed and alpha (its order can be repeated), a
 * sweep's points, knobs, columns and MSS (sweep show, report).  Stored
 * when it starts; a size sweep's again once its MSS planned the rest.
 */
static void plan_record(struct ui *u, struct dash_plan *pl)
{
	static const char *names[SWEEP_MAX_POINTS];
	struct plan_sweep_record sr = {
		.kind = pl->pl->skind, .test = pl->test,
		.reverse = pl->reverse, .npoints = pl->pl->n, .points = names,
		.nknobs = pl->nrk, .cols = pl->tab ? &pl->tab->cols : NULL, .mss = pl->pl->mss,
		.response = pl->response, .front = "dashboard",
		.preset = pl->tab && pl->tab->preset[0] ? pl->tab->preset : NULL,
	};
	struct store *st = NULL;
	json_t *j;
	char err[ERR_MAX], target[160];

	ctl_target_text(u, target, sizeof(target));
	sr.target = target;
	memcpy(sr.knob, pl->rk, sizeof(sr.knob));
	for (unsigned i = 0; i < pl->pl->n; i++)
		names[i] = pl->pl->step[i].point;
	j = pl->ab ? plan_ab_record_json(&pl->rec) : plan_sweep_record_json(&sr);
	if (j && !ctl_no_db(u) && store_open(&st, ctl_db_path(u), err) == 0) {
		if (!pl->sweep_id)
			store_add_sweep(st, pl->ab ? "ab" : pl->kind, j, &pl->sweep_id, err);
		else
			store_set_sweep(st, pl->sweep_id, j, err);
	}
	store_close(st);
	json_decref(j);
}

int plan_start(struct ui *u, const char *spec, bool ab, char *err)
{
	struct dash_plan *pl;
	int rc;

	if (u->plan || u->state != UI_IDLE)
		return err_set(err, -EBUSY, "a run is in flight: s stops it first");
	pl = calloc(1, sizeof(*pl));
	if (!pl)
		return err_set(err, -ENOMEM, "out of memory");
	pl->p0 = u->p;
	pl->pl = plan_new(u->cat);
	if (!pl->pl || (!ab && !(pl->tab = calloc(1, sizeof(*pl->tab))))) {
		plan_destroy(pl->pl);
		free(pl);
		return err_set(err, -ENOMEM, "out of memory");
	}
	rc = ab ? plan_ab(u, pl, spec, err) : plan_sweep(u, pl, spec, err);
	if (!rc && !pl->pl->n)
		rc = err_set(err, -EINVAL, "nothing to run");
	/* A remote end the dashboard cannot change, then every knob the plan
	 * sets checked on its end and its original read (plan_begin). */
	for (unsigned k = 0; !rc && k < pl->pl->nknobs; k++)
		if (pl->pl->knob[k].remote && ctl_end_refusal(u, true))
			rc = err_set(err, -EPERM, "%s on the remote end: %s",
				     pl->pl->knob[k].k.d->name, ctl_end_refusal(u, true));
	if (!rc)
		rc = plan_begin(pl->pl, ctl_knob_opts(u), ctl_txn(u), false, err);
	if (rc) {
		plan_destroy(pl->pl);
		free(pl->tab);
		free(pl);
		return rc;
	}
	if (pl->tab)
		plan_table_start(u, pl);
	plan_record(u, pl);
	u->plan = pl;
	u->loop = false;
	dash_next(u);
	return 0;
}

const char *plan_progress(const struct ui *u, char *buf, unsigned len)
{
	const struct dash_plan *pl = plan_of(u);
	unsigned i;

	buf[0] = '\0';
	if (!pl)
		return buf;
	i = pl->pl->next < pl->pl->n ? pl->pl->next : pl->pl->n - 1;
	if (pl->ab)
		snprintf(buf, len, "A/B %u/%u %s seed %llu", i + 1, pl->pl->n, pl->pl->step[i].point,
			 (unsigned long long)pl->pl->seed);
	else
		snprintf(buf, len, "sweep %u/%u %s%s", i + 1, pl->pl->n, pl->pl->step[i].point,
			 pl->reverse ? " reversed" : "");
	return buf;
}

void plan_point_of_run(const struct model_run *r, struct sweep_policy_pt *pt)
{
	double *v = r->nticks ? malloc(r->nticks * sizeof(*v)) : NULL;

	for (unsigned i = 0; v && i < r->nticks; i++)
		v[i] = r->ticks[i].rate;
	pt->rate = r->state == MS_DONE ? r->rate : NAN;
	pt->ci = r->rate_ci;
	pt->tick_sd = v ? sweep_policy_spread(v, r->nticks) : NAN;
	free(v);
}

unsigned plan_sweep_summary(const char *kind, struct sweep_policy_pt *pt, unsigned n,
			    char *line, size_t len)
{
	unsigned nc = sweep_policy_cliffs(pt, n), ran = 0;
	size_t used;

	for (unsigned i = 0; i < n; i++)
		ran += isfinite(pt[i].rate);
	used = (size_t)snprintf(line, len, "sweep %s done: %u points, %u cliff%s", kind, ran, nc,
				nc == 1 ? "" : "s");
	for (unsigned i = 0; i < n && used < len; i++)
		if (pt[i].cliff)
			used += (size_t)snprintf(line + used, len - used, " %s", pt[i].point);
	return nc;
}

void plan_run_ended(struct ui *u, struct model_run *r)
{
	struct dash_plan *pl = plan_of(u);

	if (!pl)
		return;
	/* The step in flight (also when the plan was stopped meanwhile). */
	if (pl->pl->next < pl->pl->n) {
		struct plan_step *s = &pl->pl->step[pl->pl->next];
		struct plan_outcome o = { .failed = r->state == MS_FAILED,
					  .cut = r->state == MS_STOPPED, .run_id = r->id };
		struct sweep_policy_pt pt;

		snprintf(r->point, sizeof(r->point), "%s", s->point);
		plan_point_of_run(r, &pt);
		for (unsigned m = 0; m < PLAN_FIGS; m++)
			o.fig[m] = NAN;
		o.fig[PLAN_AB_RATE] = pt.rate;
		o.ci = pt.ci;
		o.tick_sd = pt.tick_sd;
		o.res = r->has_result ? &r->res : NULL;
		plan_table_point(pl->tab, s->i, r);
		/* A size sweep's first point: the rest around its MSS, in the table and record. */
		if (plan_step_done(pl->pl, &o) & PLAN_EV_MSS) {
			plan_table_points(pl);
			plan_record(u, pl);
		}
	}
	dash_next(u);
}

void plan_cancel(struct ui *u)
{
	struct dash_plan *pl = plan_of(u);

	if (pl)
		plan_stop(pl->pl);
}

void plan_free(struct ui *u)
{
	struct dash_plan *pl = plan_of(u);

	/* Its table stays on show (u->sweep) after the sweep. */
	if (pl)
		plan_destroy(pl->pl);
	free(pl);
	u->plan = NULL;
}

void plan_table_free(struct ui *u)
{
	free(u->sweep);
	u->sweep = NULL;
}
