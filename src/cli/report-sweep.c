// SPDX-License-Identifier: GPL-2.0-or-later
/* report-sweep.c - the report's sweep curves, cliffs marked, and their tables. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine.h"
#include "report-internal.h"
#include "svg.h"
#include "why-out.h"

/* One point of a sweep curve: its runs' mean throughput and the noise
 * figures the cliff rule reads. */
struct spoint {
	double x, rate, ci, tick_sd, sum;
	unsigned runs, curve;	/* curve: its index in order of appearance */
	unsigned order;		/* the point's own */
	char text[64], curve_key[64];
	const char *name;	/* the point's stored name */
	const json_t *result;	/* its last run's document: the columns' values */
	const struct store_run *run;	/* that run: what moved at a cliff */
};

/* Curves in order of appearance, then x (numbers) or order of appearance. */
static int spoint_cmp(const void *a, const void *b)
{
	const struct spoint *pa = a, *pb = b;

	if (pa->curve != pb->curve)
		return pa->curve < pb->curve ? -1 : 1;
	if (pa->x != pb->x)
		return pa->x < pb->x ? -1 : 1;
	return (pa->order > pb->order) - (pa->order < pb->order);
}

/* Curves in order of appearance, points within one in order of appearance. */
static int spoint_cmp_curve(const void *a, const void *b)
{
	const struct spoint *pa = a, *pb = b;

	if (pa->curve != pb->curve)
		return pa->curve < pb->curve ? -1 : 1;
	return (pa->order > pb->order) - (pa->order < pb->order);
}

/* The larger of two figures, NAN only when both are. */
static double max_known(double a, double b)
{
	return isfinite(a) && !(b > a) ? a : b;
}

/* What moved at each cliff of sweep sw, from the point before it (docs/why.md). */
static void write_cliffs_moved(FILE *f, const struct report_sweep *sw, const struct spoint *pt,
			       const struct sweep_policy_pt *pp, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		const struct spoint *b = pp[i].before >= 0 ? &pt[pp[i].before] : NULL;
		struct why_change c;
		char id[64];

		if (!pp[i].cliff || !b)
			continue;
		fputs("<h3>", f);
		svg_escf(f, "What moved at cliff %s, from %s (run %" PRId64 " -> run %" PRId64 ")",
			 pt[i].name, b->name, b->run->id, pt[i].run->id);
		fputs("</h3>\n", f);
		store_why_change(b->run, pt[i].run, &c);
		snprintf(id, sizeof(id), "moved-sweep-%" PRId64 "-%u", sw->id, i);
		why_out_change(f, &c, pt[i].run->units, WHY_OUT_HTML, id, WHY_CHANGE_MAX);
	}
}

/* A sweep's points of one unit as the report plots and judges them. */
struct sweep_pts {
	struct spoint *pt;
	struct sweep_policy_pt *pp;	/* the engine's cliff rule over pt */
	double *x, *y;
	double *xc;			/* each point's category: its index in cats */
	char (*cats)[40];
	unsigned n, ncurves, ncats, ncliffs;
	bool numeric;
	const char *name;		/* the swept name ("size"), namelen long */
	size_t namelen;
	const char *units;
	struct sweep_cols cols;
};

static void sweep_pts_free(struct sweep_pts *sp)
{
	free(sp->pt);
	free(sp->pp);
	free(sp->x);
	free(sp->xc);
	free(sp->y);
	free(sp->cats);
}

/*
 * The points of sweep sw whose runs are in unit u (report_unit()): one
 * per point name, its runs' mean throughput, sorted by curve then x, the
 * cliffs marked by the engine's rule.  0 (sp->n may be below 2) or -ENOMEM.
 */
static int sweep_gather(const struct report *rp, const struct report_sweep *sw,
			const struct rate_unit *u, struct sweep_pts *sp)
{
	struct spoint *pt;

	memset(sp, 0, sizeof(*sp));
	sp->cols = sw->cols;
	sp->numeric = true;
	sp->pt = pt = calloc(rp->n + 1, sizeof(*pt));
	if (!pt)
		return -ENOMEM;
	for (unsigned i = 0; i < rp->n; i++) {
		const struct store_run *r = &rp->runs[i];
		const char *text, *eq = strrchr(r->point, '=');
		char key[64];
		double v = sweep_policy_point_x(r->point, key, sizeof(key), &text);
		unsigned k, c, n = sp->n;

		if (r->sweep_id != sw->id || r->failed || !isfinite(r->throughput) ||
		    report_unit(r) != u)
			continue;
		if (n == SWEEP_MAX_POINTS)
			break;
		if (!sp->name && eq) {
			sp->name = r->point + (key[0] ? strlen(key) + 1 : 0);
			sp->namelen = (size_t)(eq - sp->name);
		}
		sp->units = sp->units ? sp->units : r->units;
		sp->numeric &= isfinite(v);
		for (k = 0; k < n && (strcmp(pt[k].text, text) || strcmp(pt[k].curve_key, key)); k++)
			;
		if (k == n) {
			for (c = 0; c < n && strcmp(pt[c].curve_key, key); c++)
				;
			snprintf(pt[n].text, sizeof(pt[n].text), "%s", text);
			snprintf(pt[n].curve_key, sizeof(pt[n].curve_key), "%s", key);
			pt[n].curve = c < n ? pt[c].curve : sp->ncurves++;
			pt[n].ci = pt[n].tick_sd = NAN;
			pt[n].name = r->point;
			pt[n].order = n;
			pt[n].x = v;
			sp->n++;
		}
		pt[k].runs++;
		pt[k].result = r->result;
		pt[k].run = r;
		pt[k].sum += r->throughput;
		if (!sp->cols.n && !sw->has_cols) {
			char cerr[ERR_MAX];

			sweep_cols_make(NULL, strstr(r->test, "RR") != NULL, isfinite(r->lcpu),
					isfinite(r->rcpu), &sp->cols, cerr);
		}
		pt[k].ci = max_known(pt[k].ci, store_result_ci(r->result));
		pt[k].tick_sd = max_known(pt[k].tick_sd, store_series_sd(r->series, store_series_names[SS_RATE]));
	}
	if (sp->n < 2)
		return 0;
	sp->x = calloc(sp->n, sizeof(*sp->x));
	sp->xc = calloc(sp->n, sizeof(*sp->xc));
	sp->y = calloc(sp->n, sizeof(*sp->y));
	sp->pp = calloc(sp->n, sizeof(*sp->pp));
	sp->cats = calloc(sp->n, sizeof(*sp->cats));
	if (!sp->x || !sp->xc || !sp->y || !sp->pp || !sp->cats)
		return -ENOMEM;
	qsort(pt, sp->n, sizeof(*pt), sp->numeric ? spoint_cmp : spoint_cmp_curve);
	for (unsigned i = 0; i < sp->n; i++) {
		unsigned c;

		sp->y[i] = pt[i].sum / pt[i].runs;
		sp->pp[i] = (struct sweep_policy_pt){ .point = pt[i].name, .rate = sp->y[i],
						     .ci = pt[i].ci, .tick_sd = pt[i].tick_sd };
		for (c = 0; c < sp->ncats && strcmp(sp->cats[c], pt[i].text); c++)
			;
		if (c == sp->ncats)
			snprintf(sp->cats[sp->ncats++], sizeof(sp->cats[0]), "%.39s", pt[i].text);
		sp->xc[i] = c;
		sp->x[i] = sp->numeric ? pt[i].x : c;
	}
	sp->ncliffs = sweep_policy_cliffs(sp->pp, sp->n);
	return 0;
}

/* The units of sweep sw's runs, each once, in order of appearance; how many. */
static unsigned sweep_units(const struct report *rp, const struct report_sweep *sw,
			    const struct rate_unit **u, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < rp->n; i++) {
		const struct rate_unit *ru = report_unit(&rp->runs[i]);
		unsigned k;

		if (rp->runs[i].sweep_id != sw->id)
			continue;
		for (k = 0; k < n && u[k] != ru; k++)
			;
		if (k == n && n < max)
			u[n++] = ru;
	}
	return n;
}

int report_sweep_cliffs(const struct report *rp, const struct report_sweep *sw,
			struct report_cliffs *out)
{
	const struct rate_unit *u[REPORT_UNITS_MAX];
	unsigned nu = sweep_units(rp, sw, u, REPORT_UNITS_MAX);

	memset(out, 0, sizeof(*out));
	for (unsigned k = 0; k < nu; k++) {
		struct sweep_pts sp;
		int ret = sweep_gather(rp, sw, u[k], &sp);

		if (ret) {
			sweep_pts_free(&sp);
			return ret;
		}
		out->npoints += sp.n;
		for (unsigned i = 0; i < sp.n && sp.n >= 2; i++) {
			struct report_cliff *c;

			if (!sp.pp[i].cliff)
				continue;
			out->n++;
			if (out->shown == REPORT_CLIFFS_MAX)
				continue;
			c = &out->c[out->shown++];
			c->run = sp.pt[i].run;
			c->before = sp.pp[i].before >= 0 ? sp.pt[sp.pp[i].before].run : NULL;
			c->rate = sp.y[i];
			c->rate_before = sp.pp[i].before >= 0 ? sp.y[sp.pp[i].before] : NAN;
			c->drop_pct = sp.pp[i].drop_pct;
			c->units = u[k];
			snprintf(c->point, sizeof(c->point), "%s", sp.pt[i].name);
		}
		sweep_pts_free(&sp);
	}
	return 0;
}

/*
 * The chart of curves [c0, c1) of sp: x the point's value (categories
 * when not numbers), y throughput in its one unit, one line per curve (a
 * two-knob sweep has one per value of its first knob), the cliffs marked.
 */
static void write_sweep_chart(FILE *f, const struct report_sweep *sw, const struct sweep_pts *sp,
			      const char *id, unsigned c0, unsigned c1)
{
	const struct spoint *pt = sp->pt;
	double ymax = 0, xmin = INFINITY, xmax = -INFINITY, xpos = INFINITY;
	const double *x = sp->x;
	bool cats = !sp->numeric;
	char title[600], xlabel[96], buf[32];
	const char *name = sp->name ? sp->name : "point";
	int namelen = (int)(sp->name ? sp->namelen : 5);
	struct svg_plot_spec s = { 0 };
	unsigned ncliffs = 0;
	struct svg_plot p;

	for (unsigned i = 0; i < sp->n; i++) {
		if (pt[i].curve < c0 || pt[i].curve >= c1)
			continue;
		ymax = fmax(ymax, sp->y[i]);
		xmin = fmin(xmin, sp->x[i]);
		xmax = fmax(xmax, sp->x[i]);
		if (sp->x[i] > 0)
			xpos = fmin(xpos, sp->x[i]);
		ncliffs += sp->pp[i].cliff;
	}
	/*
	 * A curve from 0 over powers of two (seed 001's burst 0, 1, 2, 4 ...
	 * 256) has no log axis and crowds its start on a linear one: its
	 * points go evenly spaced, in order, as categories.
	 */
	if (sp->numeric && sp->ncurves == 1 && xmin <= 0 && xmax > 16 * xpos)
		cats = true;
	if (cats)
		x = sp->xc;
	s.id = id;
	s.title = title;
	s.ylabel = sp->units;
	s.unit = sp->units;
	s.xlabel = xlabel;
	s.y1 = units_axis_top(ymax * 1.08);
	s.nlegend = (c1 - c0) + (ncliffs > 0);
	s.logx = !cats && xmin > 0 && xmax > 16 * xmin;
	snprintf(xlabel, sizeof(xlabel), "%.*s%s", namelen, name,
		 s.logx ? " (log2 scale)" : cats && sp->numeric ? " (points evenly spaced)" : "");
	snprintf(title, sizeof(title), "Sweep %" PRId64 " (%s): throughput (%s) by %.*s, %u cliff%s%s",
		 sw->id, sw->kind, sp->units, namelen, name, ncliffs, ncliffs == 1 ? "" : "s",
		 c0 || c1 < sp->ncurves ? ", part of its curves" : "");
	if (cats) {
		s.xcats = sp->cats;
		s.ncats = sp->ncats;
		s.x0 = -0.5;
		s.x1 = sp->ncats - 0.5;
	} else if (s.logx) {
		s.x0 = ldexp(1, (int)floor(log2(xmin)));
		s.x1 = ldexp(1, (int)ceil(log2(xmax)));
		if (s.x1 <= s.x0)
			s.x1 = 2 * s.x0;
	} else {
		double step = svg_nice_step(xmax - xmin > 0 ? xmax - xmin : fabs(xmax) + 1, 8);

		s.x0 = floor(xmin / step) * step;
		s.x1 = ceil(xmax / step) * step;
		if (s.x1 <= s.x0)
			s.x1 = s.x0 + step;
	}
	svg_plot_open(&p, f, &s);
	for (unsigned i = 0, start = 0; i < sp->n; i++)
		if (i + 1 == sp->n || pt[i + 1].curve != pt[i].curve) {
			if (pt[i].curve >= c0 && pt[i].curve < c1)
				svg_plot_path(&p, x + start, sp->y + start, i + 1 - start,
					      svg_colour(pt[i].curve - c0), NULL, sp->units);
			start = i + 1;
		}
	for (unsigned i = 0; i < sp->n; i++) {
		double px = svg_plot_x(&p, x[i]), py = svg_plot_y(&p, sp->y[i]);

		if (pt[i].curve < c0 || pt[i].curve >= c1)
			continue;
		fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>",
			px, py, svg_colour(pt[i].curve - c0));
		svg_escf(f, "%s: %s %s", pt[i].name, svg_fmt_si(sp->y[i], buf, sizeof(buf)),
			 sp->units);
		fputs("</title></circle>\n", f);
		if (!sp->pp[i].cliff)
			continue;
		fprintf(f, "<circle class=\"cliff\" cx=\"%.1f\" cy=\"%.1f\" r=\"9\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/>\n",
			px, py);
		fprintf(f, "<text class=\"cliff\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#d62728\" font-weight=\"bold\">cliff</text>\n",
			px, py - 13);
	}
	for (unsigned i = 0; i < sp->n; i++)
		if ((i + 1 == sp->n || pt[i + 1].curve != pt[i].curve) && pt[i].curve >= c0 &&
		    pt[i].curve < c1) {
			snprintf(title, sizeof(title), "mean throughput of the point's runs%s%s",
				 pt[i].curve_key[0] ? ", " : "", pt[i].curve_key);
			svg_plot_legend(&p, svg_colour(pt[i].curve - c0), NULL, false, title);
		}
	/* The rule in full is the note below the table: a legend row is one line. */
	if (ncliffs)
		svg_plot_legend(&p, "#d62728", NULL, false,
				"cliff: a point below its neighbours' line, beyond the noise (the rule is below the table)");
	svg_plot_close(&p);
}

/*
 * Sweep sw's points of unit u: its charts (at most REPORT_MAX_SERIES
 * curves each: more make small multiples), its table and what moved at
 * each cliff.
 */
static int write_sweep(FILE *f, const struct report *rp, const struct report_sweep *sw,
		       const struct rate_unit *u, unsigned k)
{
	const char *name;
	int namelen;
	struct sweep_pts sp;
	char id[64], buf[32];
	int ret = sweep_gather(rp, sw, u, &sp);

	if (ret)
		goto out;
	/* The first unit's chart keeps the plain id, the next "plot-sweep-N-2". */
	if (k)
		snprintf(id, sizeof(id), "plot-sweep-%" PRId64 "-%u", sw->id, k + 1);
	else
		snprintf(id, sizeof(id), "plot-sweep-%" PRId64, sw->id);
	if (sp.n < 2) {
		fprintf(f, "<p class=\"note\" id=\"%s\">", id);
		svg_escf(f, "Sweep %" PRId64 ": fewer than two points in %s with a result among these runs.",
			 sw->id, u->name);
		fputs("</p>\n", f);
		goto out;
	}
	for (unsigned c0 = 0; c0 < sp.ncurves; c0 += REPORT_MAX_SERIES) {
		unsigned c1 = c0 + REPORT_MAX_SERIES < sp.ncurves ? c0 + REPORT_MAX_SERIES : sp.ncurves;
		char cid[96];

		/* Small multiples: the first chart keeps the id, the next "-curves-9". */
		if (c0)
			snprintf(cid, sizeof(cid), "%s-curves-%u", id, c0 + 1);
		else
			snprintf(cid, sizeof(cid), "%s", id);
		write_sweep_chart(f, sw, &sp, cid, c0, c1);
	}
	if (sp.ncurves > REPORT_MAX_SERIES)
		fprintf(f, "<p class=\"note\">Sweep %" PRId64 " has %u curves: drawn %d to a chart (docs/report.md).</p>\n",
			sw->id, sp.ncurves, REPORT_MAX_SERIES);
	name = sp.name ? sp.name : "point";
	namelen = (int)(sp.name ? sp.namelen : 5);
	fprintf(f, "<table class=\"sweep\" id=\"table%s\">\n<tr><th>", id + strlen("plot"));
	svg_escf(f, "%.*s", namelen, name);
	fputs("</th><th>throughput, ", f);
	svg_esc(f, sp.units);
	fputs("</th>", f);
	for (unsigned c = 0; c < sp.cols.n; c++)
		fprintf(f, "<th>%s</th>", sweep_cols_title(sp.cols.name[c]));
	fputs("<th>runs</th><th>noise</th><th>cliff</th></tr>\n", f);
	for (unsigned i = 0; i < sp.n; i++) {
		const struct sweep_policy_pt *pp = &sp.pp[i];

		fputs("<tr><td>", f);
		/* The value, or with curves of their own the point's whole name. */
		svg_esc(f, sp.pt[i].curve_key[0] ? sp.pt[i].name : sp.pt[i].text);
		fprintf(f, "</td><td class=\"num\">%s</td>", svg_fmt_fix(sp.y[i], 2, buf, sizeof(buf)));
		for (unsigned c = 0; c < sp.cols.n; c++) {
			char t[SWEEP_COL_TEXT];

			fputs("<td class=\"num\">", f);
			svg_esc(f, sweep_cols_text(sp.pt[i].result, sp.cols.name[c], t, sizeof(t)));
			fputs("</td>", f);
		}
		fprintf(f, "<td class=\"num\">%u</td>", sp.pt[i].runs);
		fprintf(f, "<td class=\"num\" title=\"%s\">%s</td><td%s>%s</td></tr>\n",
			sweep_policy_noise_name(pp->noise_src),
			pp->noise > 0 ? svg_fmt_fix(pp->noise, 2, buf, sizeof(buf)) : "n/a",
			pp->cliff ? " class=\"diff\"" : "", pp->cliff ? "cliff" : "");
	}
	fputs("</table>\n", f);
	if (sp.ncliffs) {
		char rule[512];

		fputs("<p class=\"note\">Cliffs: ", f);
		svg_esc(f, sweep_policy_rule_text(rule, sizeof(rule)));
		fputs(" (docs/sweeps.md).</p>\n", f);
		write_cliffs_moved(f, sw, sp.pt, sp.pp, sp.n);
	}
out:
	sweep_pts_free(&sp);
	return ret;
}

/* Every sweep of the selected runs but A/B comparisons, which have no curve. */
int report_write_sweeps(FILE *f, const struct report *rp)
{
	const struct rate_unit *u[REPORT_UNITS_MAX];
	unsigned nu;
	bool any = false;
	int ret = 0;

	for (unsigned i = 0; i < rp->nsweeps && !ret; i++) {
		if (!strcmp(rp->sweeps[i].kind, "ab"))
			continue;
		if (!any)
			fputs("<section id=\"plot-sweep\">\n<h2>Sweeps</h2>\n", f);
		any = true;
		nu = sweep_units(rp, &rp->sweeps[i], u, REPORT_UNITS_MAX);
		for (unsigned k = 0; k < nu && !ret; k++)
			ret = write_sweep(f, rp, &rp->sweeps[i], u[k], k);
	}
	if (any)
		fputs("</section>\n", f);
	return ret;
}
