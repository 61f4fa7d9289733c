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
#include "engine.h"
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

/*
 * The curves of sweep sw: x the point's value (categories when not
 * numbers), y throughput, one line per curve (a two-knob sweep has one
 * per value of its first knob), the cliffs marked by the engine's rule.
 */
static int write_sweep(FILE *f, const struct report *rp, const struct report_sweep *sw)
{
	struct spoint *pt = calloc(rp->n + 1, sizeof(*pt));
	struct sweep_policy_pt *pp = NULL;
	double *x = NULL, *y = NULL, ymax = 0, xmin = INFINITY, xmax = -INFINITY;
	bool numeric = true;
	char (*cats)[40] = NULL, id[48], title[600], xlabel[96], buf[32];
	const char *units = NULL, *name = NULL;
	unsigned n = 0, ncliffs, ncurves = 0, ncats = 0;
	size_t namelen = 0;
	struct svg_plot_spec s = { 0 };
	struct sweep_cols cols = sw->cols;
	struct svg_plot p;
	int ret = -ENOMEM;

	if (!pt)
		return -ENOMEM;
	for (unsigned i = 0; i < rp->n; i++) {
		const struct store_run *r = &rp->runs[i];
		const char *text, *eq = strrchr(r->point, '=');
		char key[64];
		double v = sweep_policy_point_x(r->point, key, sizeof(key), &text);
		unsigned k, c;

		if (r->sweep_id != sw->id || r->failed || !isfinite(r->throughput))
			continue;
		if (n == SWEEP_MAX_POINTS)
			break;
		if (!name && eq) {
			name = r->point + (key[0] ? strlen(key) + 1 : 0);
			namelen = (size_t)(eq - name);
		}
		units = units ? units : r->units;
		numeric &= isfinite(v);
		for (k = 0; k < n && (strcmp(pt[k].text, text) || strcmp(pt[k].curve_key, key)); k++)
			;
		if (k == n) {
			for (c = 0; c < n && strcmp(pt[c].curve_key, key); c++)
				;
			snprintf(pt[n].text, sizeof(pt[n].text), "%s", text);
			snprintf(pt[n].curve_key, sizeof(pt[n].curve_key), "%s", key);
			pt[n].curve = c < n ? pt[c].curve : ncurves++;
			pt[n].ci = pt[n].tick_sd = NAN;
			pt[n].name = r->point;
			pt[n].order = n;
			pt[n++].x = v;
		}
		pt[k].runs++;
		pt[k].result = r->result;
		pt[k].run = r;
		pt[k].sum += r->throughput;
		if (!cols.n && !sw->has_cols) {
			char cerr[ERR_MAX];

			sweep_cols_make(NULL, strstr(r->test, "RR") != NULL, isfinite(r->lcpu),
					isfinite(r->rcpu), &cols, cerr);
		}
		pt[k].ci = max_known(pt[k].ci, store_result_ci(r->result));
		pt[k].tick_sd = max_known(pt[k].tick_sd, store_series_sd(r->series, store_series_names[SS_RATE]));
	}
	snprintf(id, sizeof(id), "plot-sweep-%" PRId64, sw->id);
	if (n < 2) {
		fprintf(f, "<p class=\"note\" id=\"%s\">Sweep %" PRId64 ": fewer than two points with a result among these runs.</p>\n",
			id, sw->id);
		free(pt);
		return 0;
	}
	x = calloc(n, sizeof(*x));
	y = calloc(n, sizeof(*y));
	pp = calloc(n, sizeof(*pp));
	cats = calloc(n, sizeof(*cats));
	if (!x || !y || !pp || !cats)
		goto out;
	qsort(pt, n, sizeof(*pt), numeric ? spoint_cmp : spoint_cmp_curve);
	for (unsigned i = 0; i < n; i++) {
		unsigned c;

		y[i] = pt[i].sum / pt[i].runs;
		pp[i] = (struct sweep_policy_pt){ .point = pt[i].name, .rate = y[i],
						 .ci = pt[i].ci, .tick_sd = pt[i].tick_sd };
		for (c = 0; c < ncats && strcmp(cats[c], pt[i].text); c++)
			;
		if (c == ncats)
			snprintf(cats[ncats++], sizeof(cats[0]), "%s", pt[i].text);
		x[i] = numeric ? pt[i].x : c;
		ymax = fmax(ymax, y[i]);
		xmin = fmin(xmin, x[i]);
		xmax = fmax(xmax, x[i]);
	}
	ncliffs = sweep_policy_cliffs(pp, n);
	s.id = id;
	s.title = title;
	s.ylabel = units;
	s.xlabel = xlabel;
	s.y1 = units_axis_top(ymax * 1.08);
	s.nlegend = ncurves + (ncliffs > 0);
	s.logx = numeric && xmin > 0 && xmax > 16 * xmin;
	snprintf(xlabel, sizeof(xlabel), "%.*s%s", (int)(name ? namelen : 5),
		 name ? name : "point", s.logx ? " (log2 scale)" : "");
	snprintf(title, sizeof(title), "Sweep %" PRId64 " (%s): throughput by %.*s, %u cliff%s",
		 sw->id, sw->kind, (int)(name ? namelen : 5), name ? name : "point", ncliffs,
		 ncliffs == 1 ? "" : "s");
	if (!numeric) {
		s.xcats = cats;
		s.ncats = ncats;
		s.x0 = -0.5;
		s.x1 = ncats - 0.5;
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
	for (unsigned i = 0, start = 0; i < n; i++)
		if (i + 1 == n || pt[i + 1].curve != pt[i].curve) {
			svg_plot_path(&p, x + start, y + start, i + 1 - start,
				      svg_colour(pt[i].curve), NULL);
			start = i + 1;
		}
	for (unsigned i = 0; i < n; i++) {
		double px = svg_plot_x(&p, x[i]), py = svg_plot_y(&p, y[i]);

		fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>",
			px, py, svg_colour(pt[i].curve));
		svg_escf(f, "%s: %s %s", pt[i].name, svg_fmt_si(y[i], buf, sizeof(buf)), units);
		fputs("</title></circle>\n", f);
		if (!pp[i].cliff)
			continue;
		fprintf(f, "<circle class=\"cliff\" cx=\"%.1f\" cy=\"%.1f\" r=\"9\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/>\n",
			px, py);
		fprintf(f, "<text class=\"cliff\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#d62728\" font-weight=\"bold\">cliff</text>\n",
			px, py - 13);
	}
	for (unsigned i = 0; i < n; i++)
		if (i + 1 == n || pt[i + 1].curve != pt[i].curve) {
			snprintf(title, sizeof(title), "mean throughput of the point's runs%s%s",
				 pt[i].curve_key[0] ? ", " : "", pt[i].curve_key);
			svg_plot_legend(&p, svg_colour(pt[i].curve), NULL, false, title);
		}
	if (ncliffs) {
		char rule[512];

		snprintf(title, sizeof(title), "cliff: %s", sweep_policy_rule_text(rule, sizeof(rule)));
		svg_plot_legend(&p, "#d62728", NULL, false, title);
	}
	svg_plot_close(&p);
	fprintf(f, "<table class=\"sweep\" id=\"table-sweep-%" PRId64 "\">\n<tr><th>", sw->id);
	svg_escf(f, "%.*s", (int)(name ? namelen : 5), name ? name : "point");
	fputs("</th><th>throughput</th>", f);
	for (unsigned c = 0; c < cols.n; c++)
		fprintf(f, "<th>%s</th>", sweep_cols_title(cols.name[c]));
	fputs("<th>runs</th><th>noise</th><th>cliff</th></tr>\n", f);
	for (unsigned i = 0; i < n; i++) {
		fputs("<tr><td>", f);
		/* The value, or with curves of their own the point's whole name. */
		svg_esc(f, pt[i].curve_key[0] ? pt[i].name : pt[i].text);
		fprintf(f, "</td><td class=\"num\">%s</td>", svg_fmt_fix(y[i], 2, buf, sizeof(buf)));
		for (unsigned c = 0; c < cols.n; c++) {
			char t[SWEEP_COL_TEXT];

			fputs("<td class=\"num\">", f);
			svg_esc(f, sweep_cols_text(pt[i].result, cols.name[c], t, sizeof(t)));
			fputs("</td>", f);
		}
		fprintf(f, "<td class=\"num\">%u</td>", pt[i].runs);
		fprintf(f, "<td class=\"num\" title=\"%s\">%s</td><td%s>%s</td></tr>\n",
			sweep_policy_noise_name(pp[i].noise_src),
			pp[i].noise > 0 ? svg_fmt_fix(pp[i].noise, 2, buf, sizeof(buf)) : "n/a",
			pp[i].cliff ? " class=\"diff\"" : "", pp[i].cliff ? "cliff" : "");
	}
	fputs("</table>\n", f);
	if (ncliffs) {
		char rule[512];

		fputs("<p class=\"note\">Cliffs: ", f);
		svg_esc(f, sweep_policy_rule_text(rule, sizeof(rule)));
		fputs(" (docs/sweeps.md).</p>\n", f);
		write_cliffs_moved(f, sw, pt, pp, n);
	}
	ret = 0;
out:
	free(pt);
	free(x);
	free(y);
	free(pp);
	free(cats);
	return ret;
}

/* Every sweep of the selected runs but A/B comparisons, which have no curve. */
int report_write_sweeps(FILE *f, const struct report *rp)
{
	bool any = false;
	int ret = 0;

	for (unsigned i = 0; i < rp->nsweeps && !ret; i++) {
		if (!strcmp(rp->sweeps[i].kind, "ab"))
			continue;
		if (!any)
			fputs("<section id=\"plot-sweep\">\n<h2>Sweeps</h2>\n", f);
		any = true;
		ret = write_sweep(f, rp, &rp->sweeps[i]);
	}
	if (any)
		fputs("</section>\n", f);
	return ret;
}
