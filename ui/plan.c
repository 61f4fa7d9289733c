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

#define PLAN_MAX_KNOBS 8

/* One knob setting of a point: catalog index, end, value. */
struct step_knob {
	unsigned idx;
	int end;
	char value[KNOB_TEXT_MAX];
};

struct plan_step {
	char point[64];			/* "size=4345", "rx-usecs=15", "a", "b" */
	struct test_params p;
	unsigned nk;
	struct step_knob k[PLAN_MAX_KNOBS];
	struct sweep_policy_pt fig;	/* its rate and noise once run (rate NAN until) */
	unsigned run_id;		/* its run in the model; 0 not run */
};

struct plan {
	bool ab;
	uint64_t seed;			/* an A/B's order seed (plan_ab_seed or --seed) */
	double alpha;			/* an A/B's significance level (--alpha) */
	struct plan_ab_record rec;	/* an A/B as the history keeps it, tunetop ab's shape */
	char kind[16];
	int64_t sweep_id;
	unsigned n, next;		/* steps, and the next to run */
	struct plan_step steps[SWEEP_MAX_POINTS];
	/* Every knob the plan touches, with its value before the plan. */
	unsigned ntouched;
	struct step_knob before[2 * PLAN_MAX_KNOBS];
	bool cancelled;
	struct test_params p0;		/* the test before the plan, given back after */
	bool lcpu, rcpu;		/* -c / -C for its runs' documents (its columns) */
	bool reverse;			/* --reverse: every run turned around (target_reverse) */
	struct plan_table *tab;		/* a sweep's table (u->sweep once started); NULL for A/B */
	/* A sweep as the history keeps it, tunetop sweep's shape (plan_sweep_record). */
	enum sweep_kind skind;
	bool response;
	uint32_t mss;			/* a size sweep's, 0 for the others */
	char test[256];			/* params_text of the test its points start from */
	struct plan_sweep_knob rk[4];	/* a knob sweep's knobs, one an end */
	unsigned nrk;
};

static struct plan *plan_of(const struct ui *u)
{
	return u->plan;
}

bool plan_active(const struct ui *u)
{
	return u->plan != NULL;
}

/*
 * A setting the engine read (plan_setting_parse, as tunetop's --set,
 * sweeps and ab take it) into knob settings at k[*n..max), one an end
 * (both: two); -EINVAL with err.
 */
static int add_setting(struct ui *u, const struct plan_setting *ps, struct step_knob *k,
		       unsigned max, unsigned *n, char *err)
{
	bool remote[2];
	unsigned idx, ne;

	for (idx = 0; idx < u->nknobs && u->knobs[idx].d != ps->d; idx++)
		;
	if (idx == u->nknobs)
		return err_set(err, -EINVAL, "%s: not a knob of the knobs panel", ps->d->name);
	ne = plan_setting_ends(ps->end, remote);
	for (unsigned e = 0; e < ne; e++) {
		if (*n == max)
			return err_set(err, -EINVAL, "at most %u knobs a point or side", max);
		k[*n].idx = idx;
		k[*n].end = remote[e] ? END_R : END_L;
		snprintf(k[*n].value, sizeof(k[*n].value), "%s", ps->value);
		(*n)++;
	}
	return 0;
}

/* "[local:|remote:|both:]NAME=VALUE" into knob settings (add_setting); -EINVAL with err. */
static int parse_setting(struct ui *u, const char *spec, struct step_knob *k, unsigned max,
			 unsigned *n, char *err)
{
	struct plan_setting ps;

	if (plan_setting_parse(u->cat, spec, &ps, err))
		return -EINVAL;
	return add_setting(u, &ps, k, max, n, err);
}

/* Remember a knob's value before the plan, once. */
static void touch(struct ui *u, struct plan *pl, const struct step_knob *k)
{
	const struct knob_value *v = &u->knobs[k->idx].v[k->end];

	for (unsigned i = 0; i < pl->ntouched; i++)
		if (pl->before[i].idx == k->idx && pl->before[i].end == k->end)
			return;
	if (pl->ntouched < 2 * PLAN_MAX_KNOBS && v->present) {
		pl->before[pl->ntouched] = *k;
		snprintf(pl->before[pl->ntouched].value, KNOB_TEXT_MAX, "%s", v->text);
		pl->ntouched++;
	}
}

/*
 * The MSS a size sweep plans around, from the newest run with a
 * connection: its sender's as tunetop sweep takes it (plan_sweep_mss,
 * the remote end's for --response); 0 when none.
 */
static uint32_t newest_mss(const struct ui *u, bool response)
{
	for (unsigned i = u->model.nruns; i-- > 0;) {
		const struct model_run *r = u->model.runs[i];
		uint32_t mss = r->has_result ? plan_sweep_mss(&r->res, response) : 0;

		if (mss)
			return mss;
	}
	return 0;
}

static struct plan_step *add_step(struct plan *pl, const struct test_params *p)
{
	struct plan_step *s;

	if (pl->n == SWEEP_MAX_POINTS)
		return NULL;
	s = &pl->steps[pl->n++];
	memset(s, 0, sizeof(*s));
	s->p = *p;
	s->fig = (struct sweep_policy_pt){ .point = s->point, .rate = NAN, .ci = NAN,
					   .tick_sd = NAN };
	return s;
}

static int too_many(char *err)
{
	return err_set(err, -EINVAL, "at most %d runs in one sweep or A/B", SWEEP_MAX_POINTS);
}

/* A knob sweep point's setting of one knob: value on end (both: each end alike). */
static int knob_step(struct ui *u, struct plan *pl, struct plan_step *s,
		     enum sweep_end end, const char *name, const char *value, char *err)
{
	char spec1[200];
	unsigned from = s->nk;

	snprintf(spec1, sizeof(spec1), "%s%s=%s", sweep_end_prefix(end), name, value);
	if (parse_setting(u, spec1, s->k, PLAN_MAX_KNOBS, &s->nk, err))
		return -EINVAL;
	for (unsigned i = from; i < s->nk; i++)
		touch(u, pl, &s->k[i]);
	return 0;
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
static int plan_columns(struct ui *u, struct plan *pl, const char *columns,
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
 * (sweep_knob_plan) as tunetop sweep plans them; two get a column each
 * in the table.  -EINVAL with err.
 */
static int plan_knobs(struct ui *u, struct plan *pl, const struct plan_args *a,
		      const struct test_params *base, char *err)
{
	static struct sweep_knob_pt kp[SWEEP_MAX_POINTS];
	static char name[2][KNOB_NAME_MAX + 8], buf[2][512];
	static const char *values[2][SWEEP_MAX_POINTS];
	struct sweep_knob_axis ax[2];
	struct plan_table *t = pl->tab;
	unsigned n = 0;

	for (unsigned j = 0; j < a->nknob; j++) {
		const char *body = sweep_knob_end(a->knob[j], &ax[j].end);

		if (sweep_parse_knob(body, name[j], sizeof(name[j]), buf[j], sizeof(buf[j]),
				     values[j], SWEEP_MAX_POINTS, &ax[j].n, err))
			return -EINVAL;
		ax[j].name = name[j];
		ax[j].values = values[j];
	}
	if (sweep_knob_plan(ax, a->nknob, kp, SWEEP_MAX_POINTS, &n, err))
		return -EINVAL;
	for (unsigned j = 0; j < a->nknob; j++) {
		bool remote[2];
		unsigned ne = plan_setting_ends(ax[j].end, remote);

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
	for (unsigned i = 0; i < n; i++) {
		struct plan_step *s = add_step(pl, base);

		if (!s)
			return too_many(err);
		for (unsigned j = 0; j < a->nknob; j++)
			if (knob_step(u, pl, s, ax[j].end, name[j], values[j][kp[i].ki[j]], err))
				return -EINVAL;
		snprintf(s->point, sizeof(s->point), "%s", kp[i].name);
	}
	return 0;
}

/* The points of a sweep spec ("KIND ARGS" or "preset NAME"); -EINVAL with err. */
static int plan_sweep(struct ui *u, struct plan *pl, const char *spec, char *err)
{
	static struct sweep_preset preset;
	char copy[256], *w[SWEEP_PRESET_WORDS], *save = NULL, *tok;
	uint64_t list[SWEEP_MAX_POINTS];
	struct test_params base = u->p;
	struct plan_args a;
	unsigned n = 0, nw = 0;

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
	pl->skind = a.kind;
	pl->response = a.response;
	params_text(&base, pl->test, sizeof(pl->test));
	pl->reverse = a.reverse;
	if (a.reverse)
		snprintf(pl->tab->reverse, sizeof(pl->tab->reverse), "%s", ctl_reverse_desc(u));
	if (a.kind != SW_KNOB) {
		uint32_t mss = a.mss ? a.mss : newest_mss(u, a.response);

		if (sweep_policy_needs_mss(a.kind, a.list) && !mss)
			return err_set(err, -EINVAL, "sweep size: the MSS comes from a run's connection: r first, or --mss N (or a list of sizes)");
		if (sweep_policy_needs_mss(a.kind, a.list))
			pl->mss = mss;
		if (sweep_policy_plan(a.kind, a.list, mss, list, SWEEP_MAX_POINTS, &n, err))
			return -EINVAL;
		for (unsigned i = 0; i < n; i++) {
			struct plan_step *s = add_step(pl, &base);

			if (!s)
				return too_many(err);
			if (sweep_policy_point_params(a.kind, a.response, list[i], &s->p, err))
				return -EINVAL;
			sweep_policy_point_name(a.kind, a.response, list[i], s->point, sizeof(s->point));
		}
		return 0;
	}
	return plan_knobs(u, pl, &a, &base, err);
}

/*
 * "--a SPEC --b SPEC [-n N] [--seed S] [--alpha A]": pairs in the order
 * of the seed (plan_ab_seed() when none is given, as tunetop ab chooses
 * it, shown in the header and stored with the A/B), judged at alpha
 * (plan_alpha_parse, as tunetop ab takes it); -EINVAL with err.
 */
static int plan_ab(struct ui *u, struct plan *pl, const char *spec, char *err)
{
	char copy[400], *w, *save = NULL, *side[2] = { NULL, NULL };
	struct step_knob set[2][PLAN_MAX_KNOBS];
	unsigned nset[2] = { 0, 0 }, pairs = 5;
	int order[50];
	bool seeded = false;

	snprintf(copy, sizeof(copy), "%s", spec);
	snprintf(pl->kind, sizeof(pl->kind), "ab");
	pl->alpha = PLAN_AB_ALPHA;
	for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		uint64_t v;

		if ((!strcmp(w, "--a") || !strcmp(w, "--b")) && (side[w[2] - 'a'] = strtok_r(NULL, " ", &save)))
			continue;
		if (!strcmp(w, "-n") && (w = strtok_r(NULL, " ", &save)) && !parse_uint(w, 3, 50, &v)) {
			pairs = (unsigned)v;
			continue;
		}
		if (!strcmp(w, "--seed") && (w = strtok_r(NULL, " ", &save)) &&
		    !parse_uint(w, 0, INT64_MAX, &v)) {
			pl->seed = v;
			seeded = true;
			continue;
		}
		if (!strcmp(w, "--alpha")) {
			char e[ERR_MAX];

			if (plan_alpha_parse(strtok_r(NULL, " ", &save), &pl->alpha, e))
				return err_set(err, -EINVAL, "A/B: %s", e);
			continue;
		}
		return err_set(err, -EINVAL, "A/B: accepted: --a SPEC --b SPEC [-n 3..50] [--seed S] [--alpha A], "
			       "SPEC " PLAN_SETTING_ACCEPTS "[,...]");
	}
	for (int s = 0; s < 2; s++) {
		struct plan_setting ps[PLAN_MAX_KNOBS];
		unsigned n;
		int test;

		if (!side[s])
			return err_set(err, -EINVAL, "A/B: --a and --b are both needed (\"\" not here: "
				       "give the value the knob has)");
		/* A side as tunetop ab reads it (plan_side_parse). */
		if (plan_side_parse(u->cat, side[s], ps, PLAN_MAX_KNOBS, &n, &test, err))
			return -EINVAL;
		if (test >= 0)
			return err_set(err, -EINVAL, "A/B: --%c %.40s: a side's test options are not here; accepted: the test on show (t changes it) for both sides",
				       'a' + s, side[s] + test);
		for (unsigned i = 0; i < n; i++)
			if (add_setting(u, &ps[i], set[s], PLAN_MAX_KNOBS, &nset[s], err))
				return -EINVAL;
		for (unsigned i = 0; i < nset[s]; i++) {
			char t[PLAN_AB_REC_TEXT];

			touch(u, pl, &set[s][i]);
			plan_setting_text(u->knobs[set[s][i].idx].d, set[s][i].end == END_R,
					  set[s][i].value, t, sizeof(t));
			if (plan_ab_record_add(&pl->rec, s, t, err))
				return -EINVAL;
		}
	}
	pl->ab = true;
	if (!seeded)
		pl->seed = plan_ab_seed();
	pl->rec.pairs = pairs;
	pl->rec.seed = pl->seed;
	pl->rec.alpha = pl->alpha;
	snprintf(pl->rec.front, sizeof(pl->rec.front), "dashboard");
	plan_ab_order(pl->seed, pairs, order);
	for (unsigned i = 0; i < pairs; i++) {
		int first = order[i];

		for (int k = 0; k < 2; k++) {
			int s = k ? !first : first;
			struct plan_step *st = add_step(pl, &u->p);

			if (!st)
				return too_many(err);
			snprintf(st->point, sizeof(st->point), "%c", 'a' + s);
			st->nk = nset[s];
			memcpy(st->k, set[s], sizeof(set[s]));
		}
	}
	return 0;
}

/*
 * Set touched knob b to want, unless it has it already: an edit to the
 * value a knob has would hold it in the dashboard's transaction (a held
 * knob no other tunetop may change) with nothing changed.
 */
static int plan_knob_to(struct ui *u, const struct step_knob *b, const char *want)
{
	if (u->knobs[b->idx].v[b->end].present && !strcmp(u->knobs[b->idx].v[b->end].text, want))
		return 0;
	return ui_knob_edit(u, b->idx, b->end, want) ? -EIO : 0;
}

/* Set a step's knobs: its own, and every other touched knob to its value before. */
static int plan_apply(struct ui *u, struct plan *pl, const struct plan_step *s)
{
	for (unsigned i = 0; i < pl->ntouched; i++) {
		const struct step_knob *b = &pl->before[i];
		const char *want = b->value;

		for (unsigned k = 0; k < s->nk; k++)
			if (s->k[k].idx == b->idx && s->k[k].end == b->end)
				want = s->k[k].value;
		if (plan_knob_to(u, b, want))
			return -EIO;
	}
	return 0;
}

/* Each step's side (0 A, 1 B) and rate (NAN until it ran to its end). */
static void plan_ab_runs(const struct plan *pl, int *sides, double *rate)
{
	for (unsigned i = 0; i < pl->n; i++) {
		sides[i] = pl->steps[i].point[0] == 'b';
		rate[i] = pl->steps[i].fig.rate;
	}
}

/*
 * What moved from A to B: the median-rate run of each side, as `tunetop
 * ab` picks them (plan_ab_median()), compared by the model; the runs panel
 * then shows B beside A with the whole list (docs/why.md).  Into buf:
 * "; moved (run 3 -> run 6, the median of each): ...", or why not.
 */
static void plan_ab_moved(struct ui *u, const struct plan *pl, char *buf, size_t len)
{
	struct model_run *run[2] = { NULL, NULL };
	int sides[SWEEP_MAX_POINTS];
	double rate[SWEEP_MAX_POINTS];
	struct why_change c;

	plan_ab_runs(pl, sides, rate);
	for (int side = 0; side < 2; side++) {
		int k = plan_ab_median(sides, rate, pl->n, side);

		run[side] = k < 0 ? NULL : model_by_id(&u->model, pl->steps[k].run_id);
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

/* The sweep's table on show from now on, its points named, none run yet. */
static void plan_table_start(struct ui *u, struct plan *pl)
{
	struct plan_table *t = pl->tab;

	t->n = pl->n;
	for (unsigned i = 0; i < pl->n; i++) {
		snprintf(t->pt[i].point, sizeof(t->pt[i].point), "%s", pl->steps[i].point);
		/* Two crossed knobs: each one's value (its first end's) in its column. */
		for (unsigned j = 0; j < t->nknob && j < pl->steps[i].nk; j++)
			snprintf(t->pt[i].knob[j], sizeof(t->pt[i].knob[j]), "%s",
				 pl->steps[i].k[j].value);
	}
	free(u->sweep);
	u->sweep = t;
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

/* Start the next point, or finish. */
static void plan_next(struct ui *u)
{
	struct plan *pl = plan_of(u);

	while (pl->next < pl->n && !pl->cancelled) {
		struct plan_step *s = &pl->steps[pl->next];

		if (plan_apply(u, pl, s) == 0) {
			u->p = s->p;
			if (ctl_run_point(u, pl->ab ? "ab" : "sweep", pl->sweep_id, s->point,
					  pl->lcpu, pl->rcpu, pl->reverse) == 0)
				return;
		}
		pl->cancelled = true;
	}
	/* Done (or stopped): the test and the knobs back, then the summary. */
	u->p = pl->p0;
	for (unsigned i = 0; i < pl->ntouched; i++)
		plan_knob_to(u, &pl->before[i], pl->before[i].value);
	if (pl->ab) {
		int sides[SWEEP_MAX_POINTS];
		double rate[SWEEP_MAX_POINTS];
		unsigned na, nb;
		struct ab_result r;
		char moved[320];

		plan_ab_runs(pl, sides, rate);
		plan_ab_moved(u, pl, moved, sizeof(moved));
		/* The rate judged as tunetop ab judges it: its alpha, resamples and seed. */
		if (plan_ab_judge(sides, rate, pl->n, pl->alpha, pl->seed, PLAN_AB_RATE, &r, &na,
				  &nb) == 0)
			ui_status(u, r.significant ? STY_GOOD : STY_NORMAL, 60,
				  "A/B done: B vs A rate %s (%s; seed %llu, alpha %g; n=%u+%u, medians %.6g / %.6g)%s%s",
				  r.verdict, r.significant ? "real" : r.why, (unsigned long long)pl->seed,
				  pl->alpha, na, nb, r.median_a, r.median_b,
				  pl->cancelled ? "; stopped early" : "", moved);
		else
			ui_status(u, STY_WARN, 30, "A/B: too few runs to compare (%u+%u, seed %llu)",
				  na, nb, (unsigned long long)pl->seed);
	} else {
		struct sweep_policy_pt pt[SWEEP_MAX_POINTS];
		char line[256];
		unsigned nc;

		for (unsigned i = 0; i < pl->n; i++)
			pt[i] = pl->steps[i].fig;
		nc = plan_sweep_summary(pl->kind, pt, pl->n, line, sizeof(line));
		plan_table_cliffs(pl->tab, pt, pl->n);
		ui_status(u, nc ? STY_WARN : STY_GOOD, 60, "%s%s", line,
			  pl->cancelled ? "; stopped early" : "");
	}
	results_open_plan(u, pl->sweep_id);
	plan_free(u);
}

int plan_start(struct ui *u, const char *spec, bool ab, char *err)
{
	struct plan *pl;
	int rc;

	if (u->plan || u->state != UI_IDLE)
		return err_set(err, -EBUSY, "a run is in flight: s stops it first");
	pl = calloc(1, sizeof(*pl));
	if (!pl)
		return err_set(err, -ENOMEM, "out of memory");
	pl->p0 = u->p;
	if (!ab && !(pl->tab = calloc(1, sizeof(*pl->tab)))) {
		free(pl);
		return err_set(err, -ENOMEM, "out of memory");
	}
	rc = ab ? plan_ab(u, pl, spec, err) : plan_sweep(u, pl, spec, err);
	if (!rc && !pl->n)
		rc = err_set(err, -EINVAL, "nothing to run");
	/* Every knob the plan sets, checked on its end before the first point. */
	for (unsigned i = 0; !rc && i < pl->n; i++)
		for (unsigned k = 0; !rc && k < pl->steps[i].nk; k++)
			rc = ui_knob_plan_check(u, pl->steps[i].k[k].idx, pl->steps[i].k[k].end,
						pl->steps[i].k[k].value, err);
	if (rc) {
		free(pl->tab);
		free(pl);
		return rc;
	}
	if (pl->tab)
		plan_table_start(u, pl);
	{
		struct store *st = NULL;
		/* In tunetop ab's and tunetop sweep's shapes: an A/B's sides,
		 * pairs, seed and alpha (its order can be repeated), a sweep's
		 * points, knobs and columns (sweep show, report). */
		static const char *names[SWEEP_MAX_POINTS];
		struct plan_sweep_record sr = {
			.kind = pl->skind, .test = pl->test,
			.reverse = pl->reverse, .npoints = pl->n, .points = names,
			.nknobs = pl->nrk, .cols = pl->tab ? &pl->tab->cols : NULL, .mss = pl->mss,
			.response = pl->response, .front = "dashboard",
			.preset = pl->tab && pl->tab->preset[0] ? pl->tab->preset : NULL,
		};
		json_t *j;
		char e2[ERR_MAX], target[160];

		ctl_target_text(u, target, sizeof(target));
		sr.target = target;
		memcpy(sr.knob, pl->rk, sizeof(sr.knob));
		for (unsigned i = 0; i < pl->n; i++)
			names[i] = pl->steps[i].point;
		j = ab ? plan_ab_record_json(&pl->rec) : plan_sweep_record_json(&sr);
		if (j && !ctl_no_db(u) && store_open(&st, ctl_db_path(u), e2) == 0)
			store_add_sweep(st, ab ? "ab" : pl->kind, j, &pl->sweep_id, e2);
		store_close(st);
		json_decref(j);
	}
	u->plan = pl;
	u->loop = false;
	plan_next(u);
	return 0;
}

const char *plan_progress(const struct ui *u, char *buf, unsigned len)
{
	const struct plan *pl = plan_of(u);
	unsigned i;

	buf[0] = '\0';
	if (!pl)
		return buf;
	i = pl->next < pl->n ? pl->next : pl->n - 1;
	if (pl->ab)
		snprintf(buf, len, "A/B %u/%u %s seed %llu", i + 1, pl->n, pl->steps[i].point,
			 (unsigned long long)pl->seed);
	else
		snprintf(buf, len, "sweep %u/%u %s%s", i + 1, pl->n, pl->steps[i].point,
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
	struct plan *pl = plan_of(u);

	if (!pl)
		return;
	if (pl->next < pl->n) {
		snprintf(r->point, sizeof(r->point), "%s", pl->steps[pl->next].point);
		pl->steps[pl->next].run_id = r->id;
		if (r->state == MS_DONE)
			plan_point_of_run(r, &pl->steps[pl->next].fig);
		plan_table_point(pl->tab, pl->next, r);
		if (r->state == MS_STOPPED)
			pl->cancelled = true;
		pl->next++;
	}
	plan_next(u);
}

void plan_cancel(struct ui *u)
{
	struct plan *pl = plan_of(u);

	if (pl)
		pl->cancelled = true;
}

void plan_free(struct ui *u)
{
	struct plan *pl = plan_of(u);

	/* Its table stays on show (u->sweep) after the sweep. */
	free(pl);
	u->plan = NULL;
}

void plan_table_free(struct ui *u)
{
	free(u->sweep);
	u->sweep = NULL;
}
