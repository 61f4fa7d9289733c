// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * results.c - the results of a sweep or an A/B over the panels, read from
 * the history as `tunetop sweep show` reads them, so a sweep made by
 * `tunetop sweep` looks the same here as one made from the dashboard:
 * an A/B's table (each side named by its settings, each metric's
 * medians, the change with its interval and the verdict word) and a
 * sweep's plot (the rate against the swept value, cliffs marked by the
 * engine's rule, a cursor on a point with its columns).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "plot.h"
#include "results.h"
#include "term.h"

/* The most points or runs read: an A/B's runs (a sweep has fewer). */
#define RES_MAX PLAN_AB_MAX_RUNS
/* Curves of a two-knob sweep drawn, a style each. */
#define RES_CURVES 4

const char results_help[] =
	"Esc close, z zoom to the whole screen (again: back), Left/Right the sweep's point under "
	"the cursor; recalled by v on a run of the Runs panel or :show ID";

/* One run of the sweep or A/B, as stored. */
struct res_pt {
	char point[64];
	int64_t id;
	bool failed;
	double x, rate;			/* x: the swept value, else its order */
	double ci, tick_sd;		/* the cliff rule's noise (sweep show's) */
	double fig[PLAN_AB_METRICS];	/* an A/B's metrics (plan.h), NAN n/a */
	char col[SWEEP_COLS_MAX][SWEEP_COL_TEXT];
};

struct results {
	int64_t id;
	char kind[16];
	bool ab;
	char units[16], test[160];
	unsigned n;
	struct res_pt pt[RES_MAX];
	struct sweep_policy_pt pol[RES_MAX];
	unsigned ncliffs;
	struct sweep_cols cols;
	char curve[RES_CURVES][64];
	unsigned ncurves;

	struct plan_ab_record rec;
	double alpha;
	struct {
		int rc;
		struct ab_result r;
		unsigned na, nb;
	} m[PLAN_AB_METRICS];

	unsigned cursor;
	bool zoom, dirty;
	struct grid g;
};

/* Metric m of an A/B's table: its label and whether higher is better. */
static const struct {
	const char *label;
	bool higher_better;
} ab_metric[PLAN_AB_METRICS] = {
	[PLAN_AB_RATE] = { "rate", true },
	[PLAN_AB_P50] = { "p50 us", false },
	[PLAN_AB_P99] = { "p99 us", false },
	[PLAN_AB_LCPU] = { "CPU local %", false },
	[PLAN_AB_RCPU] = { "CPU remote %", false },
};

static struct results *res_of(const struct ui *u)
{
	return u->results;
}

bool results_shown(const struct ui *u)
{
	return u->results != NULL;
}

void results_free(struct ui *u)
{
	struct results *rs = res_of(u);

	if (!rs)
		return;
	grid_free(&rs->g);
	free(rs);
	u->results = NULL;
}

/* The results' runs are of a request/response test. */
static bool res_rr(const struct results *rs)
{
	int t = test_type_parse(rs->test);

	return t >= 0 && test_is_rr((enum test_type)t);
}

/* Stored run r as point p; a sweep's columns read from its document. */
static void res_point(struct results *rs, const struct store_run *r, struct res_pt *p)
{
	snprintf(p->point, sizeof(p->point), "%s", r->point[0] ? r->point : "?");
	p->id = r->id;
	p->failed = r->failed;
	p->rate = r->failed ? NAN : r->throughput;
	p->fig[PLAN_AB_RATE] = p->rate;
	p->fig[PLAN_AB_P50] = r->failed ? NAN : r->p50_us;
	p->fig[PLAN_AB_P99] = r->failed ? NAN : r->p99_us;
	p->fig[PLAN_AB_LCPU] = r->failed ? NAN : r->lcpu;
	p->fig[PLAN_AB_RCPU] = r->failed ? NAN : r->rcpu;
	for (unsigned c = 0; c < rs->cols.n; c++)
		sweep_cols_text(r->result, rs->cols.name[c], p->col[c], sizeof(p->col[c]));
	if (!rs->units[0])
		snprintf(rs->units, sizeof(rs->units), "%s", r->units);
	/* the cliff rule's noise: the run's -i interval, else its ticks' spread */
	p->ci = store_result_ci(r->result);
	p->tick_sd = isfinite(p->ci) ? NAN : store_series_sd(r->series, store_series_names[SS_RATE]);
}

/* The A/B judged again as tunetop ab judges it: per metric, its seed and alpha. */
static void res_ab_judge(struct results *rs)
{
	static int side[RES_MAX];
	static double fig[RES_MAX];

	rs->alpha = isfinite(rs->rec.alpha) ? rs->rec.alpha : PLAN_AB_ALPHA;
	for (unsigned m = 0; m < PLAN_AB_METRICS; m++) {
		for (unsigned i = 0; i < rs->n; i++) {
			side[i] = !strcmp(rs->pt[i].point, "b");
			fig[i] = rs->pt[i].fig[m];
		}
		rs->m[m].rc = plan_ab_judge(side, fig, rs->n, rs->alpha, rs->rec.seed, m,
					    &rs->m[m].r, &rs->m[m].na, &rs->m[m].nb);
	}
}

static int res_cmp_x(const void *a, const void *b)
{
	const struct res_pt *p = a, *q = b;

	return p->x < q->x ? -1 : p->x > q->x;
}

/* A sweep's points in order of x (stable per curve), its cliffs by the engine's rule. */
static void res_sweep_plot(struct results *rs)
{
	bool numeric = true;
	char curve[64];

	for (unsigned i = 0; i < rs->n; i++) {
		rs->pt[i].x = sweep_policy_point_x(rs->pt[i].point, curve, sizeof(curve), NULL);
		numeric &= isfinite(rs->pt[i].x);
	}
	for (unsigned i = 0; i < rs->n; i++)
		if (!numeric)
			rs->pt[i].x = i;
	if (numeric)
		qsort(rs->pt, rs->n, sizeof(rs->pt[0]), res_cmp_x);
	for (unsigned i = 0; i < rs->n; i++) {
		unsigned k;

		sweep_policy_point_x(rs->pt[i].point, curve, sizeof(curve), NULL);
		for (k = 0; k < rs->ncurves && strcmp(rs->curve[k], curve); k++)
			;
		if (k == rs->ncurves && k < RES_CURVES)
			snprintf(rs->curve[rs->ncurves++], sizeof(rs->curve[0]), "%s", curve);
		rs->pol[i] = (struct sweep_policy_pt){ .point = rs->pt[i].point,
						       .rate = rs->pt[i].rate, .ci = rs->pt[i].ci,
						       .tick_sd = rs->pt[i].tick_sd };
	}
	rs->ncliffs = sweep_policy_cliffs(rs->pol, rs->n);
}

/* The runs of stored sweep or A/B id into rs; 0, or -errno with err. */
static int res_load(struct ui *u, struct results *rs, int64_t id, char *err)
{
	struct store_filter f = { .sweep_id = id };
	struct store_run *list = NULL;
	struct store *st = NULL;
	json_t *spec = NULL;
	unsigned n = 0;
	int rc;

	rc = store_open(&st, ctl_db_path(u), err);
	if (!rc)
		rc = store_get_sweep(st, id, rs->kind, sizeof(rs->kind), &spec, err);
	if (!rc) {
		rs->ab = !strcmp(rs->kind, "ab");
		if (rs->ab)
			rc = plan_ab_record_read(spec, &rs->rec, err);
		else if (sweep_cols_from_spec(spec, &rs->cols))
			rs->cols.n = 0;
	}
	json_decref(spec);
	if (!rc)
		rc = store_list(st, &f, &list, &n, err);
	for (unsigned i = 0; i < n && !rc && rs->n < RES_MAX; i++) {
		struct store_run r;

		store_run_init(&r);
		rc = store_get(st, list[i].id, &r, err);
		if (!rc) {
			if (!rs->n)
				snprintf(rs->test, sizeof(rs->test), "%s", r.test);
			res_point(rs, &r, &rs->pt[rs->n]);
			rs->n++;
		}
		store_run_free(&r);
	}
	for (unsigned i = 0; i < n; i++)
		store_run_free(&list[i]);
	free(list);
	store_close(st);
	if (!rc && !rs->n)
		rc = err_set(err, -ENOENT, "%s %" PRId64 " has no runs in the history", rs->ab ? "A/B" : "sweep", id);
	return rc;
}

int results_open(struct ui *u, int64_t id, char *err)
{
	struct results *rs;
	int rc;

	if (ctl_no_db(u))
		return err_set(err, -ENOENT, "results are read from the history: none with --no-db");
	rs = calloc(1, sizeof(*rs));
	if (!rs)
		return err_set(err, -ENOMEM, "out of memory");
	rs->id = id;
	rc = res_load(u, rs, id, err);
	if (rc) {
		free(rs);
		return rc;
	}
	if (rs->ab)
		res_ab_judge(rs);
	else
		res_sweep_plot(rs);
	if (grid_init(&rs->g, 1, 1, u->utf8)) {
		free(rs);
		return err_set(err, -ENOMEM, "out of memory");
	}
	results_free(u);
	u->results = rs;
	rs->dirty = true;
	return 0;
}

int results_open_named(struct ui *u, const char *name, char *err)
{
	struct store *st = NULL;
	int64_t id = 0;
	int rc;

	if (ctl_no_db(u))
		return err_set(err, -ENOENT, "results are read from the history: none with --no-db");
	rc = store_open(&st, ctl_db_path(u), err);
	if (!rc)
		rc = store_id_named(st, name, true, &id, err);
	store_close(st);
	return rc ? rc : results_open(u, id, err);
}

int results_open_run(struct ui *u, int64_t db_id, char *err)
{
	struct store_run r;
	struct store *st = NULL;
	int rc;

	if (!db_id)
		return err_set(err, -ENOENT, "this run is not stored: no sweep or A/B to show");
	store_run_init(&r);
	rc = store_open(&st, ctl_db_path(u), err);
	if (!rc)
		rc = store_get(st, db_id, &r, err);
	store_close(st);
	if (!rc && !r.sweep_id)
		rc = err_set(err, -ENOENT, "run %" PRId64 " is not part of a sweep or an A/B (S and A make one)",
			     db_id);
	if (!rc)
		rc = results_open(u, r.sweep_id, err);
	store_run_free(&r);
	return rc;
}

void results_open_plan(struct ui *u, int64_t sweep_id)
{
	char err[ERR_MAX];

	if (!sweep_id)
		return;		/* not stored (--no-db): its table stays in the Runs panel */
	if (results_open(u, sweep_id, err))
		ui_status(u, STY_WARN, 15, "results of %" PRId64 ": %s", sweep_id, err);
}

/* A side of an A/B named by its settings: "remote:gro=on rx-usecs=0". */
static void ab_side_text(const struct results *rs, int s, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < rs->rec.n[s] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "",
					 rs->rec.item[s][i]);
	if (!rs->rec.n[s])
		snprintf(buf, len, "the knobs as they were");
}

/* "12.3k", "n/a". */
static const char *fig_text(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		return snprintf(buf, len, "n/a"), buf;
	return plot_si(v, buf, (unsigned)len);
}

/* An A/B metric's verdict word by the direction that is better. */
static enum verdict_word ab_word(const struct results *rs, unsigned m)
{
	const struct ab_result *r = &rs->m[m].r;

	if (rs->m[m].rc)
		return VERDICT_CANT_TELL;
	if (!r->significant)
		return VERDICT_SAME;
	return (r->delta_pct > 0) == ab_metric[m].higher_better ? VERDICT_BETTER : VERDICT_WORSE;
}

/*
 * The A/B's table: a title, A and B by their settings, then a row per
 * metric measured: medians, change with its interval, the word; the
 * interval column goes first when narrow, then the medians' (the rule:
 * drop a column rather than cut a word).
 */
static void draw_ab(struct results *rs, struct grid *g, int x, int y, int w, int h)
{
	char a[160], b[160], s1[24], s2[24], s3[48];
	bool wide = w >= 72, meds = w >= 50;
	int row = y, col;

	ab_side_text(rs, 0, a, sizeof(a));
	ab_side_text(rs, 1, b, sizeof(b));
	grid_printf(g, x, row++, STY_NORMAL, w, "%u pairs (seed %llu, alpha %g), %s", rs->rec.pairs,
		    (unsigned long long)rs->rec.seed, rs->alpha, rs->test);
	col = grid_printf(g, x, row, STY_TITLE, w, "A: ");
	grid_text(g, x + col, row++, a, STY_NORMAL, w - col);
	col = grid_printf(g, x, row, STY_TITLE, w, "B: ");
	grid_text(g, x + col, row++, b, STY_NORMAL, w - col);
	if (row >= y + h)
		return;
	grid_printf(g, x, row++, STY_DIM, w, "%-13s%s%-9s%s", "", meds ? "  A median  B median" : "",
		    "  change", wide ? "  95 % interval   " : "  ");
	for (unsigned m = 0; m < PLAN_AB_METRICS && row < y + h; m++) {
		const struct ab_result *r = &rs->m[m].r;
		enum verdict_word v = ab_word(rs, m);
		char label[40];
		int n;

		if (!rs->m[m].na && !rs->m[m].nb)
			continue;	/* not measured: no row */
		if (m == PLAN_AB_RATE)
			snprintf(label, sizeof(label), "%s %s", ab_metric[m].label,
				 res_rr(rs) ? "tr/s" : "Mb/s");
		else
			snprintf(label, sizeof(label), "%s", ab_metric[m].label);
		n = grid_printf(g, x, row, STY_NORMAL, w, "%-13.13s", label);
		if (meds)
			n += grid_printf(g, x + n, row, STY_NORMAL, w - n, "  %8s  %8s",
					 fig_text(r->median_a, s1, sizeof(s1)),
					 fig_text(r->median_b, s2, sizeof(s2)));
		snprintf(s3, sizeof(s3), "%+.1f %%", r->delta_pct);
		n += grid_printf(g, x + n, row, STY_NORMAL, w - n, "  %7s", rs->m[m].rc ? "n/a" : s3);
		if (wide) {
			snprintf(s3, sizeof(s3), "%+.1f..%+.1f %%", r->ci_lo_pct, r->ci_hi_pct);
			n += grid_printf(g, x + n, row, STY_DIM, w - n, "  %-16s",
					 rs->m[m].rc || !isfinite(r->ci_lo_pct) ? "" : s3);
		}
		n += grid_printf(g, x + n, row, panel_verdict_style(v), w - n, "  %s",
				 verdict_word_text(v));
		if (v == VERDICT_SAME || v == VERDICT_CANT_TELL) {
			snprintf(s3, sizeof(s3), " (%s)", rs->m[m].rc ? "too few runs" : r->why);
			panel_text_whole(g, x + n, row, w - n, s3, STY_DIM);
		}
		row++;
	}
	if (row < y + h) {
		int n = grid_printf(g, x, row, STY_DIM, w, "runs:");

		for (unsigned i = 0; i < rs->n; i++) {
			snprintf(s3, sizeof(s3), " %" PRId64 "%s%s", rs->pt[i].id, rs->pt[i].point,
				 rs->pt[i].failed ? "(failed)" : "");
			if (!panel_text_whole(g, x + n, row, w - n, s3, STY_DIM))
				break;
			n += (int)strlen(s3);
		}
	}
}

/* The point under the cursor: its name, run, rate and the sweep's columns, whole parts. */
static void draw_cursor_line(struct results *rs, struct grid *g, int x, int y, int w)
{
	const struct res_pt *p = &rs->pt[rs->cursor];
	const struct sweep_policy_pt *q = &rs->pol[rs->cursor];
	char part[96], f[24];
	int n;

	n = grid_printf(g, x, y, STY_SELECTED, w, "%s", p->point);
	snprintf(part, sizeof(part), " (run %" PRId64 "): %s %s", p->id, fig_text(p->rate, f, sizeof(f)),
		 rs->units);
	n += panel_text_whole(g, x + n, y, w - n, part, STY_NORMAL);
	if (q->cliff) {
		snprintf(part, sizeof(part), "  cliff %.0f %% below its neighbours", q->drop_pct);
		n += panel_text_whole(g, x + n, y, w - n, part, STY_WARN);
	}
	for (unsigned c = 0; c < rs->cols.n; c++) {
		snprintf(part, sizeof(part), "  %s %s", sweep_cols_title(rs->cols.name[c]), p->col[c]);
		n += panel_text_whole(g, x + n, y, w - n, part, STY_NORMAL);
	}
}

/*
 * The sweep's plot: the rate of each curve against the swept value, a
 * cliff marked '!' at its point, the cursor's point '*' and its line
 * below; the x axis's ends and the swept name under the plot.
 */
static void draw_sweep(struct results *rs, struct grid *g, int x, int y, int w, int h)
{
	static double xs[RES_CURVES][RES_MAX], ys[RES_CURVES][RES_MAX];
	static const enum style cst[RES_CURVES] = { STY_MAIN, STY_LOCAL, STY_REMOTE, STY_GHOST };
	struct plot_series s[RES_CURVES];
	struct plot_opts o = { .ylabel_w = 7, .xaxis = false, .ymin_zero = true, .ymin = NAN,
			       .ymax = NAN, .xmin = NAN, .xmax = NAN };
	unsigned cn[RES_CURVES] = { 0 };
	double ymin, ymax;
	const char *lo = "", *hi = "";
	char curve[64];
	int ph = h - 2, cx, cy, n;

	if (ph < 2) {
		grid_text(g, x, y, "too small for the plot: z zooms", STY_DIM, w);
		return;
	}
	o.xmin = rs->pt[0].x;
	o.xmax = rs->pt[rs->n - 1].x > o.xmin ? rs->pt[rs->n - 1].x : o.xmin + 1;
	o.yunit = res_rr(rs) ? "" : "Mb";
	for (unsigned i = 0; i < rs->n; i++) {
		unsigned k;

		sweep_policy_point_x(rs->pt[i].point, curve, sizeof(curve), NULL);
		for (k = 0; k < rs->ncurves && strcmp(rs->curve[k], curve); k++)
			;
		if (k == rs->ncurves)
			continue;
		xs[k][cn[k]] = rs->pt[i].x;
		ys[k][cn[k]++] = rs->pt[i].rate;
	}
	for (unsigned k = 0; k < rs->ncurves; k++)
		s[k] = (struct plot_series){ .x = xs[k], .y = ys[k], .n = cn[k], .style = cst[k] };
	plot_lines(g, x, y, w, ph, s, rs->ncurves, &o, &ymin, &ymax);
	for (unsigned i = 0; i < rs->n; i++)
		if (rs->pol[i].cliff && plot_cell(g, x, y, w, ph, &o, ymin, ymax, rs->pt[i].x,
						  rs->pt[i].rate, &cx, &cy))
			grid_text(g, cx, cy, "!", STY_WARN, 1);
	if (plot_cell(g, x, y, w, ph, &o, ymin, ymax, rs->pt[rs->cursor].x,
		      rs->pt[rs->cursor].rate, &cx, &cy))
		grid_text(g, cx, cy, "*", STY_SELECTED, 1);
	/* the x axis: its two ends, the swept value's name between them */
	sweep_policy_point_x(rs->pt[0].point, NULL, 0, &lo);
	sweep_policy_point_x(rs->pt[rs->n - 1].point, NULL, 0, &hi);
	n = grid_printf(g, x + o.ylabel_w, y + ph, STY_AXIS, w - o.ylabel_w, "%s", lo);
	snprintf(curve, sizeof(curve), "%s%s", rs->kind,
		 rs->ncurves > 1 ? " (a line per first knob's value)" : "");
	if ((int)strlen(curve) + 5 < w - o.ylabel_w - n - (int)strlen(hi))
		grid_text(g, x + o.ylabel_w + (w - o.ylabel_w - (int)strlen(curve)) / 2, y + ph,
			  curve, STY_DIM, (int)strlen(curve));
	/* a cell short of the border: a figure against it would read as cut */
	grid_text(g, x + w - 1 - (int)strlen(hi), y + ph, hi, STY_AXIS, (int)strlen(hi));
	draw_cursor_line(rs, g, x, y + ph + 1, w);
}

struct grid *results_grid(struct ui *u, int w, int h, int *y)
{
	struct results *rs = res_of(u);
	const char *keys;
	char title[96];
	int gh;

	if (!rs)
		return NULL;
	gh = rs->zoom ? h : h / 2 > 12 ? h / 2 : h < 12 ? h : 12;
	*y = 1;
	if (rs->g.w != w || rs->g.h != gh) {
		if (grid_resize(&rs->g, w, gh))
			return NULL;
		rs->dirty = true;
	}
	if (!rs->dirty)
		return &rs->g;
	grid_clear(&rs->g);
	if (rs->ab)
		snprintf(title, sizeof(title), "A/B %" PRId64 ": B vs A", rs->id);
	else
		snprintf(title, sizeof(title), "sweep %" PRId64 " %s: %u points, %u cliff%s", rs->id,
			 rs->kind, rs->n, rs->ncliffs, rs->ncliffs == 1 ? "" : "s");
	grid_box(&rs->g, 0, 0, w, gh, title, STY_TITLE_FOCUS);
	keys = rs->ab ? " Esc close  z zoom " : " Left/Right point  Esc close  z zoom ";
	if ((int)strlen(title) + (int)strlen(keys) + 8 < w)
		grid_text(&rs->g, w - 1 - (int)strlen(keys), 0, keys, STY_DIM, (int)strlen(keys));
	if (rs->ab)
		draw_ab(rs, &rs->g, 1, 1, w - 2, gh - 2);
	else
		draw_sweep(rs, &rs->g, 1, 1, w - 2, gh - 2);
	rs->dirty = false;
	return &rs->g;
}

int results_key(struct ui *u, int key)
{
	struct results *rs = res_of(u);

	if (!rs)
		return 0;
	if (key == 27) {
		results_free(u);
		return UK_REDRAW | UK_HANDLED;
	}
	if (key == 'z') {
		rs->zoom = !rs->zoom;
		rs->dirty = true;
		return UK_REDRAW | UK_HANDLED;
	}
	if (!rs->ab && (key == TERM_KEY_LEFT || key == TERM_KEY_RIGHT)) {
		if (key == TERM_KEY_LEFT && rs->cursor > 0)
			rs->cursor--;
		else if (key == TERM_KEY_RIGHT && rs->cursor + 1 < rs->n)
			rs->cursor++;
		rs->dirty = true;
		return UK_HANDLED;
	}
	return 0;
}
