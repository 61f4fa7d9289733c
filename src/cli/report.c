// SPDX-License-Identifier: GPL-2.0-or-later
/* report.c - `tunetop report ID... -o FILE.html`: stored runs as one HTML file with SVG plots. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli-util.h"
#include "report-internal.h"
#include "report.h"
#include "engine.h"
#include "svg.h"

/*
 * The file is HTML5 that is also well-formed XML (every tag closed, every
 * attribute quoted, every string from the database escaped), with inline
 * CSS and inline SVG and nothing else: no script, no external resource,
 * so it can be mailed, archived and opened anywhere, and a test can parse
 * it with any XML parser.
 */

/* A range like 1-100000 is a typo more often than a wish. */
#define REPORT_MAX_RANGE 4096


/* One item of the command line: a run, a range of runs or a sweep. */
struct report_sel {
	int64_t lo, hi;
	bool range, sweep;
	const char *text;
};

struct report_cli {
	const char *out, *db, *title;
	struct report_sel *sel;
	unsigned nsel;
};


static void report_usage(FILE *f)
{
	fprintf(f,
		"Usage: tunetop report ID... -o FILE.html [--db PATH] [--title TEXT]\n"
		"\n"
		"Write stored runs as one self-contained HTML file (inline SVG and CSS,\n"
		"no script): the verdict of each comparison (A/B, sweep cliffs, run\n"
		"against run), a summary table, what limited each run, rate, latency\n"
		"and socket buffers over time with the runs overlaid, sweep curves with\n"
		"their cliffs marked, segment-size histograms and the knobs that differ\n"
		"between the runs.  A chart holds one unit and at most 8 lines; more\n"
		"runs are drawn as a selection, named in a note (docs/report.md).\n"
		"\n"
		"  ID             a run id (12), a range (3-7: the runs of it that exist)\n"
		"                 or sweep:N (every run of sweep or A/B comparison N)\n"
		"  -o FILE        the HTML file to write (required)\n"
		"  --db PATH      the run history (default: $TUNETOP_DB, else\n"
		"                 ~/.local/share/tunetop/runs.db)\n"
		"  --title TEXT   the report's heading\n"
		"  -h, --help     this help\n"
		"\n"
		"Exit status: 0 written, 1 an unknown run or sweep, a database that\n"
		"cannot be read or a file that cannot be written, 2 bad options.\n");
}

/* One run selection: "12", "3-7" or "sweep:4"; 0 or -EINVAL. */
static int parse_sel(const char *a, struct report_sel *s)
{
	const char *dash = strchr(a, '-');
	char lo[24];
	uint64_t v, w;

	memset(s, 0, sizeof(*s));
	s->text = a;
	if (!strncmp(a, "sweep:", 6)) {
		if (parse_uint(a + 6, 1, INT64_MAX, &v))
			return -EINVAL;
		s->sweep = true;
		s->lo = s->hi = (int64_t)v;
		return 0;
	}
	if (!dash) {
		if (parse_uint(a, 1, INT64_MAX, &v))
			return -EINVAL;
		s->lo = s->hi = (int64_t)v;
		return 0;
	}
	if (dash == a || (size_t)(dash - a) >= sizeof(lo))
		return -EINVAL;
	memcpy(lo, a, (size_t)(dash - a));
	lo[dash - a] = '\0';
	if (parse_uint(lo, 1, INT64_MAX, &v) || parse_uint(dash + 1, 1, INT64_MAX, &w) || w < v)
		return -EINVAL;
	if (w - v >= REPORT_MAX_RANGE)
		return -ERANGE;
	s->range = true;
	s->lo = (int64_t)v;
	s->hi = (int64_t)w;
	return 0;
}

/* Parse argv; 0, 1 (help printed) or 2 (said on stderr). */
static int report_parse(int argc, char **argv, struct report_cli *c)
{
	memset(c, 0, sizeof(*c));
	c->sel = calloc((size_t)argc, sizeof(*c->sel));
	if (!c->sel) {
		fprintf(stderr, "tunetop: out of memory\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		bool missing;
		int err;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			report_usage(stdout);
			return 1;
		}
		if ((v = cli_opt_value(argc, argv, &i, "-o", &missing)) ||
		    (!missing && (v = cli_opt_value(argc, argv, &i, "--output", &missing)))) {
			if (!*v) {
				fprintf(stderr, "tunetop: option %s: accepted is a file name\n", a);
				return 2;
			}
			c->out = v;
			continue;
		}
		if (!missing && (v = cli_opt_value(argc, argv, &i, "--db", &missing))) {
			c->db = v;
			continue;
		}
		if (!missing && (v = cli_opt_value(argc, argv, &i, "--title", &missing))) {
			c->title = v;
			continue;
		}
		if (missing) {
			fprintf(stderr, "tunetop: option %s: missing value\n", a);
			return 2;
		}
		if (a[0] == '-') {
			fprintf(stderr, "tunetop: option %s: unknown; accepted: ID..., -o FILE, --db PATH, --title TEXT, -h\n",
				a);
			return 2;
		}
		err = parse_sel(a, &c->sel[c->nsel]);
		if (err == -ERANGE) {
			fprintf(stderr, "tunetop: %s: a range spans at most %d run ids\n", a,
				REPORT_MAX_RANGE);
			return 2;
		}
		if (err) {
			fprintf(stderr, "tunetop: %s: accepted: a run id (12), a range (3-7) or sweep:N\n",
				a);
			return 2;
		}
		c->nsel++;
	}
	if (!c->nsel) {
		fprintf(stderr, "tunetop: report needs run ids: tunetop report ID... -o FILE.html (-h lists the options)\n");
		return 2;
	}
	if (!c->out) {
		fprintf(stderr, "tunetop: report needs an output file: -o FILE.html\n");
		return 2;
	}
	return 0;
}

/* Add run id to rp (once) from the store; 0, -ENOENT or another -errno. */
static int add_run(struct report *rp, struct store *s, int64_t id, char *err)
{
	struct store_run *grown;
	int ret;

	for (unsigned i = 0; i < rp->n; i++)
		if (rp->runs[i].id == id)
			return 0;
	grown = realloc(rp->runs, (rp->n + 1) * sizeof(*grown));
	if (!grown)
		return err_set(err, -ENOMEM, "run %" PRId64 ": out of memory", id);
	rp->runs = grown;
	store_run_init(&rp->runs[rp->n]);
	ret = store_get(s, id, &rp->runs[rp->n], err);
	if (ret) {
		store_run_free(&rp->runs[rp->n]);
		return ret;
	}
	rp->n++;
	return 0;
}

static int run_id_cmp(const void *a, const void *b)
{
	const struct store_run *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* Every run of sweep id, oldest first; -ENOENT when the sweep does not exist. */
static int add_sweep_runs(struct report *rp, struct store *s, int64_t id, char *err)
{
	struct store_filter f = { .sweep_id = id };
	struct store_run *list = NULL;
	unsigned n = 0;
	json_t *spec = NULL;
	char kind[16];
	int ret;

	ret = store_get_sweep(s, id, kind, sizeof(kind), &spec, err);
	if (ret)
		return ret;
	json_decref(spec);
	ret = store_list(s, &f, &list, &n, err);
	if (ret)
		return ret;
	/* In the order they ran, so legends follow the sweep. */
	qsort(list, n, sizeof(*list), run_id_cmp);
	for (unsigned i = 0; i < n && !ret; i++)
		ret = add_run(rp, s, list[i].id, err);
	for (unsigned i = 0; i < n; i++)
		store_run_free(&list[i]);
	free(list);
	if (!ret && !n)
		ret = err_set(err, -ENOENT, "sweep %" PRId64 ": has no runs in %s", id,
			      store_path(s));
	return ret;
}

/*
 * An A/B's seed and each side's settings from its stored spec ({"a":
 * ["gro=on", ...], "b": [...], "seed": N}, ab-cmd.c and ui/plan.c).
 */
static void ab_spec_read(const json_t *spec, struct report_sweep *sw)
{
	static const char *const key[2] = { "a", "b" };
	const json_t *seed = json_object_get(spec, "seed");

	sw->seed = json_is_integer(seed) && json_integer_value(seed) > 0 ?
		(uint64_t)json_integer_value(seed) : 0;
	for (int k = 0; k < 2; k++) {
		const json_t *a = json_object_get(spec, key[k]), *v;
		size_t i, o = 0;

		sw->side[k][0] = '\0';
		json_array_foreach(a, i, v)
			if (json_is_string(v) && o < sizeof(sw->side[k]))
				o += (size_t)snprintf(sw->side[k] + o, sizeof(sw->side[k]) - o,
						      "%s%s", o ? " " : "", json_string_value(v));
	}
}

/* The runs the selections name, and the sweeps they belong to; 0 or -errno. */
static int report_load(struct report *rp, struct store *s, const struct report_cli *c,
		       char *err)
{
	int ret = 0;

	for (unsigned i = 0; i < c->nsel && !ret; i++) {
		const struct report_sel *sel = &c->sel[i];
		unsigned before = rp->n, found = 0;

		if (sel->sweep) {
			ret = add_sweep_runs(rp, s, sel->lo, err);
			continue;
		}
		if (!sel->range) {
			ret = add_run(rp, s, sel->lo, err);
			continue;
		}
		for (int64_t id = sel->lo; id <= sel->hi && !ret; id++) {
			ret = add_run(rp, s, id, err);
			if (ret == -ENOENT)
				ret = 0;
			else if (!ret)
				found++;
		}
		if (!ret && !found && rp->n == before)
			ret = err_set(err, -ENOENT, "runs %s: none of them is in %s", sel->text,
				      store_path(s));
	}
	for (unsigned i = 0; i < rp->n && !ret; i++) {
		const struct store_run *r = &rp->runs[i];
		struct report_sweep *grown;
		json_t *spec = NULL;
		bool seen = !r->sweep_id;

		for (unsigned j = 0; j < rp->nsweeps && !seen; j++)
			seen = rp->sweeps[j].id == r->sweep_id;
		if (seen)
			continue;
		grown = realloc(rp->sweeps, (rp->nsweeps + 1) * sizeof(*grown));
		if (!grown)
			return err_set(err, -ENOMEM, "sweeps: out of memory");
		rp->sweeps = grown;
		memset(&grown[rp->nsweeps], 0, sizeof(*grown));
		grown[rp->nsweeps].id = r->sweep_id;
		ret = store_get_sweep(s, r->sweep_id, grown[rp->nsweeps].kind,
				      sizeof(grown[0].kind), &spec, err);
		grown[rp->nsweeps].has_cols = !ret &&
			!sweep_cols_from_spec(spec, &grown[rp->nsweeps].cols);
		if (!ret)
			ab_spec_read(spec, &grown[rp->nsweeps]);
		json_decref(spec);
		if (!ret)
			rp->nsweeps++;
	}
	return ret;
}

static bool test_rr(const char *test)
{
	return strstr(test, "RR") != NULL;
}

/*
 * The test options that shape the run, as tunetop run's (netperf's) options
 * after the test's name: params_text(), the one text of a test; "" when
 * the stored parameters do not read back.
 */
static void report_params_text(const json_t *j, char *buf, size_t len)
{
	struct test_params p;
	char err[ERR_MAX], text[256];
	const char *sp;

	buf[0] = '\0';
	if (!j || params_from_json(j, &p, err))
		return;
	params_text(&p, text, sizeof(text));
	sp = strchr(text, ' ');
	snprintf(buf, len, "%s", sp ? sp + 1 : "");
}

/*
 * "run 12 (size=4345): TCP_RR -l 10 -- -r 1,1": a run in legends, its
 * parts set apart; no unit, which the chart's axis names.
 */
static void run_label(const struct store_run *r, char *buf, size_t len)
{
	char pt[160];

	report_params_text(r->params, pt, sizeof(pt));
	snprintf(buf, len, "run %" PRId64 "%s%s%s: %s%s%s", r->id, r->point[0] ? " (" : "",
		 r->point, r->point[0] ? ")" : "", r->test, pt[0] ? " " : "", pt);
}

/* One line of a plot over time: a series of a run, and its values once read. */
struct tline {
	unsigned run, colour;
	const char *key, *dash, *suffix;
	double *x, *y;
	size_t n;			/* 0: nothing to draw */
};

/*
 * A plot over time of the lines that have data, all in unit; a note
 * instead when none has.  Time is the series' "t", seconds from the start
 * of each run, so runs are overlaid from their starts.
 */
static void time_plot(FILE *f, const struct report *rp, const char *id, const char *title,
		      const char *ylabel, const char *unit, struct tline *lines, unsigned nl)
{
	struct svg_plot_spec s = { .id = id, .title = title, .xlabel = "time, s", .ylabel = ylabel,
				   .unit = unit };
	double xmax = 0, ymax = 0;
	struct svg_plot p;
	char label[320];

	for (unsigned i = 0; i < nl; i++) {
		struct tline *l = &lines[i];
		size_t nt, nv;
		bool any = false;

		l->x = store_series_get(rp->runs[l->run].series, "t", &nt);
		l->y = store_series_get(rp->runs[l->run].series, l->key, &nv);
		l->n = nt < nv ? nt : nv;
		for (size_t k = 0; k < l->n; k++) {
			if (!isfinite(l->x[k]) || !isfinite(l->y[k]))
				continue;
			any = true;
			xmax = fmax(xmax, l->x[k]);
			ymax = fmax(ymax, l->y[k]);
		}
		l->n = any ? l->n : 0;
		s.nlegend += any;
	}
	if (!s.nlegend) {
		fprintf(f, "<p class=\"note\" id=\"%s\">", id);
		svg_escf(f, "%s: no run here has this stored in its time series.", title);
		fputs("</p>\n", f);
	} else {
		s.x1 = units_axis_top(xmax);
		s.y1 = units_axis_top(ymax);
		svg_plot_open(&p, f, &s);
		for (unsigned i = 0; i < nl; i++) {
			const struct tline *l = &lines[i];

			if (!l->n)
				continue;
			svg_plot_path(&p, l->x, l->y, l->n, svg_colour(l->colour), l->dash, unit);
			run_label(&rp->runs[l->run], label, sizeof(label));
			snprintf(label + strlen(label), sizeof(label) - strlen(label), "%s%s",
				 l->suffix ? ", " : "", l->suffix ? l->suffix : "");
			svg_plot_legend(&p, svg_colour(l->colour), l->dash, false, label);
		}
		svg_plot_close(&p);
	}
	for (unsigned i = 0; i < nl; i++) {
		free(lines[i].x);
		free(lines[i].y);
		lines[i].x = lines[i].y = NULL;
	}
}

/* The id of the chart of unit group g: "plot-rate", then "plot-rate-2". */
static void group_id(char *buf, size_t len, const char *base, unsigned g)
{
	if (g)
		snprintf(buf, len, "%s-%u", base, g + 1);
	else
		snprintf(buf, len, "%s", base);
}

/*
 * Rate, latency (RR runs) and socket buffers over time, the runs
 * overlaid: one chart per unit, at most REPORT_MAX_SERIES lines each.
 */
static int write_time_plots(FILE *f, const struct report *rp)
{
	static const struct {
		const char *key, *dash, *name;
	} bufs[] = {
		{ "sndbuf_l", NULL, "local send buffer" },
		{ "rcvbuf_l", "6 3", "local receive buffer" },
		{ "sndbuf_r", "2 2", "remote send buffer" },
		{ "rcvbuf_r", "9 3 2 3", "remote receive buffer" },
	};
	const struct rate_unit *units[REPORT_UNITS_MAX];
	struct tline *l = calloc(rp->n * 4 + 1, sizeof(*l));
	unsigned *cand = calloc(rp->n + 1, sizeof(*cand));
	unsigned nu = 0, n, nc, total;
	char id[64], title[160], left[512];
	int ret = -ENOMEM;

	if (!l || !cand)
		goto out;
	for (unsigned i = 0; i < rp->n; i++) {
		unsigned k;

		for (k = 0; k < nu && units[k] != report_unit(&rp->runs[i]); k++)
			;
		if (k == nu && nu < REPORT_UNITS_MAX)
			units[nu++] = report_unit(&rp->runs[i]);
	}
	fputs("<h2>Over time</h2>\n", f);
	for (unsigned g = 0; g < nu; g++) {
		total = 0;
		for (unsigned i = 0; i < rp->n; i++)
			if (report_unit(&rp->runs[i]) == units[g])
				cand[total++] = i;
		nc = report_pick_runs(rp, cand, total, REPORT_MAX_SERIES, left, sizeof(left));
		for (unsigned i = 0; i < nc; i++)
			l[i] = (struct tline){ .run = cand[i], .colour = i, .key = "rate" };
		group_id(id, sizeof(id), "plot-rate", g);
		snprintf(title, sizeof(title), "Rate over time, %s", units[g]->name);
		time_plot(f, rp, id, title, units[g]->name, units[g]->name, l, nc);
		report_pick_note(f, id, nc, total, REPORT_MAX_SERIES, "lines to a chart", left);
	}
	total = 0;
	for (unsigned i = 0; i < rp->n; i++)
		if (test_rr(rp->runs[i].test))
			cand[total++] = i;
	nc = report_pick_runs(rp, cand, total, REPORT_MAX_SERIES / 2, left, sizeof(left));
	n = 0;
	for (unsigned i = 0; i < nc; i++) {
		l[n++] = (struct tline){ .run = cand[i], .colour = i, .key = "p50_us", .suffix = "p50" };
		l[n++] = (struct tline){ .run = cand[i], .colour = i, .key = "p99_us", .dash = "6 3",
					 .suffix = "p99" };
	}
	if (n) {
		time_plot(f, rp, "plot-latency", "Latency over time (p50 solid, p99 dashed)",
			  "latency, \xc2\xb5s", "us", l, n);
		report_pick_note(f, "plot-latency", nc, total, REPORT_MAX_SERIES / 2, "runs to a chart (two lines each)", left);
	}
	for (unsigned i = 0; i < rp->n; i++)
		cand[i] = i;
	nc = report_pick_runs(rp, cand, rp->n, REPORT_MAX_SERIES, left, sizeof(left));
	if (nc * 4 <= REPORT_MAX_SERIES) {
		n = 0;
		for (unsigned i = 0; i < nc; i++)
			for (unsigned k = 0; k < 4; k++)
				l[n++] = (struct tline){ .run = cand[i], .colour = i, .key = bufs[k].key,
							 .dash = bufs[k].dash, .suffix = bufs[k].name };
		time_plot(f, rp, "plot-buffers", "Socket buffers over time", "bytes", "bytes", l, n);
	} else {
		/* Small multiples: a chart per buffer, each run a line. */
		fprintf(f, "<p class=\"note\">The socket buffers of %u runs: a chart for each buffer.</p>\n",
			nc);
		for (unsigned k = 0; k < 4; k++) {
			for (unsigned i = 0; i < nc; i++)
				l[i] = (struct tline){ .run = cand[i], .colour = i, .key = bufs[k].key };
			snprintf(id, sizeof(id), "plot-buffers-%s", bufs[k].key);
			snprintf(title, sizeof(title), "Socket buffers over time: %s", bufs[k].name);
			time_plot(f, rp, id, title, "bytes", "bytes", l, nc);
		}
	}
	report_pick_note(f, "plot-buffers", nc, rp->n, REPORT_MAX_SERIES, "lines to a chart", left);
	ret = 0;
out:
	free(l);
	free(cand);
	return ret;
}


/* The summary: one row per run with its key figures. */
static void write_summary(FILE *f, const struct report *rp)
{
	bool points = false;
	char a[32], b[32], pt[160];

	for (unsigned i = 0; i < rp->n; i++)
		points |= rp->runs[i].point[0] != '\0';
	fputs("<h2>Runs</h2>\n<table id=\"summary\">\n<tr><th>run</th><th>time</th><th>test</th><th>parameters</th><th>target</th>",
	      f);
	if (points)
		fputs("<th>sweep point</th>", f);
	fputs("<th>throughput</th><th>units</th><th>p50 \xc2\xb5s</th><th>p99 \xc2\xb5s</th><th>CPU % local/remote</th><th>service demand local/remote</th></tr>\n",
	      f);
	for (unsigned i = 0; i < rp->n; i++) {
		const struct store_run *r = &rp->runs[i];
		const char *sdu = result_doc_str(r->result, SEL_SD_UNITS);

		fprintf(f, "<tr id=\"run-%" PRId64 "\"%s><td class=\"num\">%" PRId64 "%s</td><td>", r->id,
			r->failed ? " class=\"failed\"" : "", r->id, r->baseline ? " (baseline)" : "");
		if (!units_time_text(r->time, a, sizeof(a)))
			svg_esc(f, a);
		fputs("</td><td>", f);
		svg_esc(f, r->test);
		report_params_text(r->params, pt, sizeof(pt));
		fputs("</td><td>", f);
		svg_esc(f, pt);
		fputs("</td><td>", f);
		svg_esc(f, r->target);
		if (points) {
			fputs("</td><td>", f);
			if (r->sweep_id)
				svg_escf(f, "sweep %" PRId64 ": %s", r->sweep_id, r->point);
		}
		fprintf(f, "</td><td class=\"num\">%s</td><td>",
			r->failed ? "failed" : svg_fmt_fix(r->throughput, 2, a, sizeof(a)));
		svg_esc(f, r->units);
		fprintf(f, "</td><td class=\"num\">%s</td>", svg_fmt_fix(r->p50_us, 1, a, sizeof(a)));
		fprintf(f, "<td class=\"num\">%s</td>", svg_fmt_fix(r->p99_us, 1, a, sizeof(a)));
		fprintf(f, "<td class=\"num\">%s / ", svg_fmt_fix(r->lcpu, 1, a, sizeof(a)));
		fprintf(f, "%s</td>", svg_fmt_fix(r->rcpu, 1, a, sizeof(a)));
		fprintf(f, "<td class=\"num\">%s / %s", svg_fmt_fix(r->lsd, 3, a, sizeof(a)),
			svg_fmt_fix(r->rsd, 3, b, sizeof(b)));
		if ((isfinite(r->lsd) || isfinite(r->rsd)) && sdu)
			svg_escf(f, " %s", sdu);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static const char report_css[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222;background:#fff}"
	"h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.5em;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;margin:0.5em 0 1.5em}"
	"th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;font-size:13px;vertical-align:top}"
	"th{background:#f2f2f2}td.num{text-align:right;font-variant-numeric:tabular-nums}"
	"td.diff{background:#ffe08a;font-weight:bold}td.absent{color:#999}"
	"tr.failed td{color:#b00}caption{text-align:left;font-size:12px;color:#555}"
	"svg.plot{display:block;margin:0.5em 0 1.5em;max-width:100%;height:auto}"
	"p.note{color:#666}ul.verdicts{list-style:none;padding-left:0}"
	"li.verdict{margin:0.3em 0;font-size:15px}"
	".word{display:inline-block;min-width:7em;padding:1px 6px;margin-right:0.5em;border-radius:3px;text-align:center}"
	".word.better{background:#2ca02c;color:#fff}.word.worse{background:#d62728;color:#fff}.word.same{background:#ddd;color:#222}";

/* The whole document. */
static int report_write(FILE *f, const struct report *rp)
{
	char when[UNITS_TIME_MAX];
	int ret;

	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>",
	      f);
	svg_esc(f, rp->title);
	fprintf(f, "</title>\n<meta name=\"generator\" content=\"tunetop %s\"/>\n<style>%s</style>\n</head>\n<body>\n<h1>",
		PACKAGE_VERSION, report_css);
	svg_esc(f, rp->title);
	units_time_text(wall_time(), when, sizeof(when));
	fprintf(f, "</h1>\n<p>%u run%s from ", rp->n, rp->n == 1 ? "" : "s");
	svg_esc(f, rp->db);
	fprintf(f, ", written %s by tunetop %s.</p>\n", when, PACKAGE_VERSION);
	ret = report_write_verdicts(f, rp);
	if (ret)
		goto end;
	write_summary(f, rp);
	report_write_limits(f, rp);
	report_write_moved(f, rp);
	ret = write_time_plots(f, rp);
	if (!ret)
		ret = report_write_sweeps(f, rp);
	if (!ret)
		ret = report_write_segments(f, rp);
	if (!ret)
		ret = report_write_knob_diff(f, rp);
end:
	fputs("</body>\n</html>\n", f);
	return ret;
}

/* The default heading: "tunetop report: runs 3, 4, 7-12" or of the sweep. */
static void default_title(const struct report *rp, char *buf, size_t len)
{
	int64_t *id;
	size_t o;

	if (rp->nsweeps == 1) {
		bool all = true;

		for (unsigned i = 0; i < rp->n; i++)
			all &= rp->runs[i].sweep_id == rp->sweeps[0].id;
		if (all) {
			snprintf(buf, len, "tunetop report: sweep %" PRId64 " (%s)", rp->sweeps[0].id,
				 rp->sweeps[0].kind);
			return;
		}
	}
	o = (size_t)snprintf(buf, len, "tunetop report: run%s", rp->n == 1 ? "" : "s");
	id = calloc(rp->n + 1, sizeof(*id));
	if (!id)
		return;
	for (unsigned i = 0; i < rp->n; i++)
		id[i] = rp->runs[i].id;
	if (o < len)
		buf[o++] = ' ';
	if (o < len)
		report_ids_text(id, rp->n, buf + o, len - o);
	free(id);
}

/* Write the document to memory first, so a failure leaves no half-written file. */
static int report_save(const struct report *rp, const char *path, char *err)
{
	char *doc = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&doc, &len), *f;
	int ret;

	if (!m)
		return err_set(err, -errno, "%s: %s", path, strerror(errno));
	ret = report_write(m, rp);
	if (fclose(m) && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(doc);
		return err_set(err, ret, "%s: %s", path, strerror(-ret));
	}
	f = fopen(path, "w");
	if (!f) {
		ret = -errno;
		free(doc);
		return err_set(err, ret, "%s: cannot write: %s", path, strerror(-ret));
	}
	if (fwrite(doc, 1, len, f) != len)
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	free(doc);
	if (ret)
		return err_set(err, ret, "%s: cannot write: %s", path, strerror(-ret));
	return 0;
}

int report_main(int argc, char **argv)
{
	struct report rp = { 0 };
	struct report_cli c;
	struct store *s = NULL;
	char err[ERR_MAX], dbpath[4096], title[512];
	int ret;

	ret = report_parse(argc, argv, &c);
	if (ret) {
		free(c.sel);
		return ret == 1 ? 0 : 2;
	}
	/* Opening makes a missing database; a report only reads one. */
	if (!c.db)
		c.db = store_default_path(dbpath, sizeof(dbpath));
	if (access(c.db, F_OK)) {
		fprintf(stderr, "tunetop: %s: no run history there (%s)\n", c.db, strerror(errno));
		free(c.sel);
		return 1;
	}
	ret = store_open(&s, c.db, err);
	if (!ret)
		ret = report_load(&rp, s, &c, err);
	if (!ret) {
		if (!c.title)
			default_title(&rp, title, sizeof(title));
		rp.title = c.title ? c.title : title;
		rp.db = store_path(s);
		ret = report_mark_cliffs(&rp);
		if (ret)
			err_set(err, ret, "%s: %s", c.out, strerror(-ret));
		else
			ret = report_save(&rp, c.out, err);
	}
	if (ret)
		fprintf(stderr, "tunetop: %s\n", err);
	else
		printf("tunetop report: wrote %s (%u run%s)\n", c.out, rp.n, rp.n == 1 ? "" : "s");
	for (unsigned i = 0; i < rp.n; i++)
		store_run_free(&rp.runs[i]);
	free(rp.runs);
	free(rp.sweeps);
	free(rp.cliff);
	free(c.sel);
	if (s)
		store_close(s);
	return ret ? 1 : 0;
}
