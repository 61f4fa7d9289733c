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

#include "report-internal.h"
#include "engine.h"
#include "svg.h"

/*
 * sweep_cliffs' parameters: 5 % noise when a point has neither repeats
 * nor a confidence interval; a cliff falls by more than 3 noise widths
 * and by more than 25 % (seed 000's drop at 3MSS+1 is 70 %).
 */
#define CLIFF_NOISE_PCT 5.0
#define CLIFF_K 3.0
#define CLIFF_MIN_DROP_PCT 25.0

/* The run-to-run noise of one run's throughput: half its confidence interval, or 0. */
static double run_noise(const struct store_run *r)
{
	double w = report_jnum(json_object_get(json_object_get(r->result, "result"), "throughput_confid"));

	return isfinite(w) && w > 0 ? w / 200 * r->throughput : 0;
}

/* A point's value: the text after the last '=' ("size=4345" -> 4345); NAN when not a number. */
static double point_value(const char *point, const char **text)
{
	const char *eq = strrchr(point, '=');
	uint64_t sz;
	char *end;
	double v;

	*text = eq ? eq + 1 : point;
	v = strtod(*text, &end);
	if (end != *text && !*end && isfinite(v))
		return v;
	if (!parse_size(*text, &sz))
		return (double)sz;
	return NAN;
}

/* One point of a sweep curve: its runs' mean throughput and noise. */
struct spoint {
	double x, rate, noise, sum, sumsq;
	unsigned runs;
	char text[64];
};

static int spoint_cmp(const void *a, const void *b)
{
	const struct spoint *pa = a, *pb = b;

	return (pa->x > pb->x) - (pa->x < pb->x);
}

/* The curve of sweep sw: x the point's value (categories when not numbers), y throughput. */
static int write_sweep(FILE *f, const struct report *rp, const struct report_sweep *sw)
{
	struct spoint *pt = calloc(rp->n + 1, sizeof(*pt));
	double *x = NULL, *y = NULL, *noise = NULL, ymax = 0, xmin = INFINITY, xmax = -INFINITY;
	bool *cliff = NULL, numeric = true;
	char (*cats)[40] = NULL, id[48], title[160], xlabel[96], buf[32];
	const char *units = NULL, *name = NULL;
	unsigned n = 0, ncliffs;
	size_t namelen = 0;
	struct svg_plot_spec s = { 0 };
	struct svg_plot p;
	int ret = -ENOMEM;

	if (!pt)
		return -ENOMEM;
	for (unsigned i = 0; i < rp->n; i++) {
		const struct store_run *r = &rp->runs[i];
		const char *text, *eq = strrchr(r->point, '=');
		double v = point_value(r->point, &text);
		unsigned k;

		if (r->sweep_id != sw->id || r->failed || !isfinite(r->throughput))
			continue;
		if (!name && eq) {
			name = r->point;
			namelen = (size_t)(eq - r->point);
		}
		units = units ? units : r->units;
		numeric &= isfinite(v);
		for (k = 0; k < n && strcmp(pt[k].text, text); k++)
			;
		if (k == n) {
			snprintf(pt[n].text, sizeof(pt[n].text), "%s", text);
			pt[n++].x = v;
		}
		pt[k].runs++;
		pt[k].sum += r->throughput;
		pt[k].sumsq += r->throughput * r->throughput;
		pt[k].noise = fmax(pt[k].noise, run_noise(r));
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
	noise = calloc(n, sizeof(*noise));
	cliff = calloc(n, sizeof(*cliff));
	cats = calloc(n, sizeof(*cats));
	if (!x || !y || !noise || !cliff || !cats)
		goto out;
	if (numeric)
		qsort(pt, n, sizeof(*pt), spoint_cmp);
	for (unsigned i = 0; i < n; i++) {
		y[i] = pt[i].sum / pt[i].runs;
		noise[i] = pt[i].noise;
		if (pt[i].runs > 1)
			noise[i] = sqrt(fmax(0, (pt[i].sumsq - pt[i].sum * y[i]) / (pt[i].runs - 1)));
		x[i] = numeric ? pt[i].x : i;
		snprintf(cats[i], sizeof(cats[i]), "%s", pt[i].text);
		ymax = fmax(ymax, y[i]);
		xmin = fmin(xmin, x[i]);
		xmax = fmax(xmax, x[i]);
	}
	ncliffs = sweep_cliffs(y, noise, n, CLIFF_NOISE_PCT, CLIFF_K, CLIFF_MIN_DROP_PCT, cliff);
	s.id = id;
	s.title = title;
	s.ylabel = units;
	s.xlabel = xlabel;
	s.y1 = svg_nice_top(ymax * 1.08);
	s.nlegend = 1 + (ncliffs > 0);
	s.logx = numeric && xmin > 0 && xmax > 16 * xmin;
	snprintf(xlabel, sizeof(xlabel), "%.*s%s", (int)(name ? namelen : 5),
		 name ? name : "point", s.logx ? " (log2 scale)" : "");
	snprintf(title, sizeof(title), "Sweep %" PRId64 " (%s): throughput by %.*s, %u cliff%s",
		 sw->id, sw->kind, (int)(name ? namelen : 5), name ? name : "point", ncliffs,
		 ncliffs == 1 ? "" : "s");
	if (!numeric) {
		s.xcats = cats;
		s.ncats = n;
		s.x0 = -0.5;
		s.x1 = n - 0.5;
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
	svg_plot_path(&p, x, y, n, svg_colour(0), NULL);
	for (unsigned i = 0; i < n; i++) {
		double px = svg_plot_x(&p, x[i]), py = svg_plot_y(&p, y[i]);

		fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>",
			px, py, svg_colour(0));
		svg_escf(f, "%s: %s %s", pt[i].text, svg_fmt_si(y[i], buf, sizeof(buf)), units);
		fputs("</title></circle>\n", f);
		if (!cliff[i])
			continue;
		fprintf(f, "<circle class=\"cliff\" cx=\"%.1f\" cy=\"%.1f\" r=\"9\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/>\n",
			px, py);
		fprintf(f, "<text class=\"cliff\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#d62728\" font-weight=\"bold\">cliff</text>\n",
			px, py - 13);
	}
	svg_plot_legend(&p, svg_colour(0), NULL, false, "mean throughput of the point's runs");
	if (ncliffs) {
		snprintf(title, sizeof(title),
			 "cliff: below its neighbours by more than %g times the noise and %g %%",
			 CLIFF_K, CLIFF_MIN_DROP_PCT);
		svg_plot_legend(&p, "#d62728", NULL, false, title);
	}
	svg_plot_close(&p);
	fprintf(f, "<table class=\"sweep\" id=\"table-sweep-%" PRId64 "\">\n<tr><th>", sw->id);
	svg_escf(f, "%.*s", (int)(name ? namelen : 5), name ? name : "point");
	fputs("</th><th>throughput</th><th>runs</th><th>noise</th><th>cliff</th></tr>\n", f);
	for (unsigned i = 0; i < n; i++) {
		fputs("<tr><td>", f);
		svg_esc(f, pt[i].text);
		fprintf(f, "</td><td class=\"num\">%s</td><td class=\"num\">%u</td>",
			svg_fmt_fix(y[i], 2, buf, sizeof(buf)), pt[i].runs);
		fprintf(f, "<td class=\"num\">%s</td><td%s>%s</td></tr>\n",
			noise[i] > 0 ? svg_fmt_fix(noise[i], 2, buf, sizeof(buf)) : "n/a",
			cliff[i] ? " class=\"diff\"" : "", cliff[i] ? "cliff" : "");
	}
	fputs("</table>\n", f);
	ret = 0;
out:
	free(pt);
	free(x);
	free(y);
	free(noise);
	free(cliff);
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
