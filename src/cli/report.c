// SPDX-License-Identifier: GPL-2.0-or-later
/* report.c - `tunetop report ID... -o FILE.html`: stored runs as one HTML file with SVG plots. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli-util.h"
#include "report.h"
#include "seghist.h"
#include "store.h"
#include "sweep.h"
#include "util.h"

/*
 * The file is HTML5 that is also well-formed XML (every tag closed, every
 * attribute quoted, every string from the database escaped), with inline
 * CSS and inline SVG and nothing else: no script, no external resource,
 * so it can be mailed, archived and opened anywhere, and a test can parse
 * it with any XML parser.
 */

/* A range like 1-100000 is a typo more often than a wish. */
#define REPORT_MAX_RANGE 4096
/* Bars per segment-size histogram: the commonest sizes, as the dashboard. */
#define REPORT_SEG_BARS 12
/*
 * sweep_cliffs' parameters: 5 % noise when a point has neither repeats
 * nor a confidence interval; a cliff falls by more than 3 noise widths
 * and by more than 25 % (seed 000's drop at 3MSS+1 is 70 %).
 */
#define CLIFF_NOISE_PCT 5.0
#define CLIFF_K 3.0
#define CLIFF_MIN_DROP_PCT 25.0

/* Plot geometry in SVG user units: the plotting area and its margins. */
#define PLOT_W 760
#define PLOT_ML 76
#define PLOT_MR 24
#define PLOT_MT 34
#define PLOT_AH 240
#define PLOT_MB 52
#define LEG_ROW 17

/* One colour per run (Tableau 10); dashed from the eleventh run on. */
static const char *const palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

/* Segment classes as the dashboard tells them apart. */
static const char *const seg_colour[SEG_NCLASSES] = {
	[SEG_BELOW_MSS] = "#4e79a7",
	[SEG_AT_MSS] = "#59a14f",
	[SEG_SUPER_MULTIPLE] = "#f28e2b",
	[SEG_SUPER_OTHER] = "#b07aa1",
	[SEG_UNCLASSIFIED] = "#9d9d9d",
};
static const char *const seg_legend[SEG_NCLASSES] = {
	[SEG_BELOW_MSS] = "below MSS",
	[SEG_AT_MSS] = "= MSS",
	[SEG_SUPER_MULTIPLE] = "super-segment, MSS multiple",
	[SEG_SUPER_OTHER] = "super-segment, not a multiple",
	[SEG_UNCLASSIFIED] = "MSS unknown",
};

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

/* A sweep some selected run belongs to. */
struct report_sweep {
	int64_t id;
	char kind[16];
};

struct report {
	const char *title, *db;
	struct store_run *runs;
	unsigned n;
	struct report_sweep *sweeps;
	unsigned nsweeps;
};

static void report_usage(FILE *f)
{
	fprintf(f,
		"Usage: tunetop report ID... -o FILE.html [--db PATH] [--title TEXT]\n"
		"\n"
		"Write stored runs as one self-contained HTML file (inline SVG and CSS,\n"
		"no script): a summary table, rate, latency and socket buffers over\n"
		"time with the runs overlaid, sweep curves with their cliffs marked,\n"
		"segment-size histograms and the knobs that differ between the runs.\n"
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
		grown[rp->nsweeps].id = r->sweep_id;
		ret = store_get_sweep(s, r->sweep_id, grown[rp->nsweeps].kind,
				      sizeof(grown[0].kind), &spec, err);
		json_decref(spec);
		if (!ret)
			rp->nsweeps++;
	}
	return ret;
}

/* Length of the well-formed UTF-8 sequence XML allows at p; 0 when it is not one. */
static unsigned utf8_len(const unsigned char *p)
{
	uint32_t c;
	unsigned n;

	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xe0) == 0xc0) {
		n = 2;
		c = p[0] & 0x1f;
	} else if ((p[0] & 0xf0) == 0xe0) {
		n = 3;
		c = p[0] & 0x0f;
	} else if ((p[0] & 0xf8) == 0xf0) {
		n = 4;
		c = p[0] & 0x07;
	} else {
		return 0;
	}
	for (unsigned i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if ((n == 2 && c < 0x80) || (n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff) || c == 0xfffe || c == 0xffff)
		return 0;
	return n;
}

/*
 * s as XML text or a quoted attribute value: & < > " ' escaped, and
 * control characters and bytes that are not UTF-8 (a target cut short in
 * the middle of a character) written as U+FFFD, which XML accepts.
 */
static void esc(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		unsigned n = utf8_len(p);

		if (n > 1) {
			fwrite(p, 1, n, f);
			p += n;
			continue;
		}
		switch (*p) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		case '\t':
		case '\n':
			fputc(*p, f);
			break;
		default:
			if (!n || *p < 0x20 || *p == 0x7f)
				fputs("\xef\xbf\xbd", f);
			else
				fputc(*p, f);
			break;
		}
		p++;
	}
}

/* printf, then escaped as esc() does. */
static void __attribute__((format(printf, 2, 3))) escf(FILE *f, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	esc(f, buf);
}

/* A number with an SI suffix and three digits: 23.3k, 1.45M; "n/a" when missing. */
static const char *fmt_si(double v, char *buf, size_t len)
{
	static const char *const sfx[] = { "", "k", "M", "G", "T" };
	unsigned i = 0;

	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	while (fabs(v) >= 999.5 && i < 4) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, "%.3g%s", v, sfx[i]);
	return buf;
}

/* A figure with a fixed number of decimals, or "n/a". */
static const char *fmt_fix(double v, int prec, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.*f", prec, v);
	return buf;
}

static double jnum(const json_t *j)
{
	return json_is_number(j) ? json_number_value(j) : NAN;
}

static bool test_rr(const char *test)
{
	return strstr(test, "RR") != NULL;
}

/* The test options that shape the run, as netperf's test-specific options. */
static void params_text(const json_t *p, char *buf, size_t len)
{
	const char *test = json_string_value(json_object_get(p, "test"));
	double ls = jnum(json_object_get(p, "lsndbuf")), lr = jnum(json_object_get(p, "lrcvbuf"));
	double rs = jnum(json_object_get(p, "rsndbuf")), rr = jnum(json_object_get(p, "rrcvbuf"));
	double burst = jnum(json_object_get(p, "burst")), flows = jnum(json_object_get(p, "flows"));
	size_t o = 0;

	buf[0] = '\0';
#define ADD(...) (o += (size_t)snprintf(buf + o, o < len ? len - o : 0, __VA_ARGS__), o = o < len ? o : len - 1)
	if (test && test_rr(test))
		ADD("-r %.0f,%.0f", jnum(json_object_get(p, "req_size")),
		    jnum(json_object_get(p, "resp_size")));
	else
		ADD("-m %.0f", jnum(json_object_get(p, "send_size")));
	if (burst > 0)
		ADD(" -b %.0f", burst);
	if (ls >= 0 || lr >= 0)
		ADD(" -s %.0f,%.0f", ls, lr);
	if (rs >= 0 || rr >= 0)
		ADD(" -S %.0f,%.0f", rs, rr);
	if (json_is_true(json_object_get(p, "nodelay")))
		ADD(" -D");
	if (flows > 1)
		ADD(" -n %.0f", flows);
	ADD(" -l %g", jnum(json_object_get(p, "duration")));
#undef ADD
}

/* "run 12 TCP_RR -r 1,1 size=4345": a run in legends. */
static void run_label(const struct store_run *r, char *buf, size_t len)
{
	char pt[160];

	params_text(r->params, pt, sizeof(pt));
	snprintf(buf, len, "run %" PRId64 " %s %s%s%s", r->id, r->test, pt,
		 r->point[0] ? " " : "", r->point);
}

/* A round step (1, 2 or 5 times a power of ten) for about n ticks over span. */
static double nice_step(double span, int n)
{
	double raw = span / n, mag, f;

	if (!(raw > 0) || !isfinite(raw))
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/* The top of an axis from 0: the least of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8
 * times a power of ten at or above max; 1 when there is nothing. */
static double nice_top(double max)
{
	static const double m[] = { 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 };
	double mag;

	if (!(max > 0) || !isfinite(max))
		return 1;
	mag = pow(10, floor(log10(max)));
	for (unsigned i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i] * mag >= max * (1 - 1e-9))
			return m[i] * mag;
	return 10 * mag;
}

/* What a plot shows and how its axes run. */
struct plot_spec {
	const char *id, *title, *xlabel, *ylabel;
	double x0, x1, y0, y1;		/* x1 > x0, y1 > y0 */
	bool logx;			/* log2 x axis; x0 > 0 */
	char (*xcats)[40];		/* categories at x = 0..ncats-1, or NULL; "\n" splits a label */
	unsigned ncats;
	unsigned nlegend;		/* legend rows below the plot */
};

/* An SVG plot being written. */
struct plot {
	FILE *f;
	double x0, x1, y0, y1;
	bool logx;
	int leg_y;			/* baseline of the next legend row */
};

static double plot_x(const struct plot *p, double x)
{
	double f = p->logx ? (log2(x) - log2(p->x0)) / (log2(p->x1) - log2(p->x0)) :
			     (x - p->x0) / (p->x1 - p->x0);

	return PLOT_ML + f * (PLOT_W - PLOT_ML - PLOT_MR);
}

static double plot_y(const struct plot *p, double y)
{
	return PLOT_MT + PLOT_AH - (y - p->y0) / (p->y1 - p->y0) * PLOT_AH;
}

/* A tick label of a log2 axis: 512, 4K, 1M. */
static void fmt_pow2(double v, char *buf, size_t len)
{
	if (v >= 1048576 && fmod(v, 1048576) == 0)
		snprintf(buf, len, "%.0fM", v / 1048576);
	else if (v >= 1024 && fmod(v, 1024) == 0)
		snprintf(buf, len, "%.0fK", v / 1024);
	else
		snprintf(buf, len, "%g", v);
}

/* One tick of the x axis at x with label text (a "\n" starts a second line). */
static void plot_xtick(struct plot *p, double x, const char *text)
{
	const char *nl = strchr(text, '\n');
	double px = plot_x(p, x);

	fprintf(p->f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\"/>\n",
		px, PLOT_MT + PLOT_AH, px, PLOT_MT + PLOT_AH + 4);
	fprintf(p->f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", px,
		PLOT_MT + PLOT_AH + 16);
	if (nl) {
		escf(p->f, "%.*s", (int)(nl - text), text);
		fprintf(p->f, "<tspan x=\"%.1f\" dy=\"1.1em\">", px);
		esc(p->f, nl + 1);
		fputs("</tspan>", p->f);
	} else {
		esc(p->f, text);
	}
	fputs("</text>\n", p->f);
}

/* Open the <svg>: title, grid, ticks with labels, axes and axis labels. */
static void plot_open(struct plot *p, FILE *f, const struct plot_spec *s)
{
	int height = PLOT_MT + PLOT_AH + PLOT_MB + (int)s->nlegend * LEG_ROW;
	double step;
	char buf[40];

	*p = (struct plot){ .f = f, .x0 = s->x0, .x1 = s->x1, .y0 = s->y0, .y1 = s->y1,
			    .logx = s->logx, .leg_y = PLOT_MT + PLOT_AH + PLOT_MB + 6 };
	fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" id=\"", f);
	esc(f, s->id);
	fprintf(f, "\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"sans-serif\" font-size=\"11\">\n<title>",
		PLOT_W, height, PLOT_W, height);
	esc(f, s->title);
	fprintf(f, "</title>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
		PLOT_W, height);
	fprintf(f, "<text x=\"%d\" y=\"18\" font-size=\"13\" font-weight=\"bold\">", PLOT_ML);
	esc(f, s->title);
	fputs("</text>\n", f);
	step = nice_step(s->y1 - s->y0, 5);
	for (double v = s->y0; v <= s->y1 + step * 1e-6; v += step) {
		double y = plot_y(p, v);

		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
			PLOT_ML, y, PLOT_W - PLOT_MR, y);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			PLOT_ML - 6, y + 4, fmt_si(fabs(v) < step * 1e-6 ? 0 : v, buf, sizeof(buf)));
	}
	if (s->xcats) {
		for (unsigned i = 0; i < s->ncats; i++)
			plot_xtick(p, i, s->xcats[i]);
	} else if (s->logx) {
		int k0 = (int)ceil(log2(s->x0) - 1e-9), k1 = (int)floor(log2(s->x1) + 1e-9);
		int kstep = (k1 - k0) / 10 + 1;

		for (int k = k0; k <= k1; k += kstep) {
			fmt_pow2(ldexp(1, k), buf, sizeof(buf));
			plot_xtick(p, ldexp(1, k), buf);
		}
	} else {
		step = nice_step(s->x1 - s->x0, 8);
		for (double v = ceil(s->x0 / step) * step; v <= s->x1 + step * 1e-6; v += step)
			plot_xtick(p, v, fmt_si(fabs(v) < step * 1e-6 ? 0 : v, buf, sizeof(buf)));
	}
	fprintf(f, "<path d=\"M%d %d V%d H%d\" fill=\"none\" stroke=\"#444\"/>\n", PLOT_ML,
		PLOT_MT, PLOT_MT + PLOT_AH, PLOT_W - PLOT_MR);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		(PLOT_ML + PLOT_W - PLOT_MR) / 2, PLOT_MT + PLOT_AH + 44);
	esc(f, s->xlabel);
	fprintf(f, "</text>\n<text transform=\"translate(16 %d) rotate(-90)\" text-anchor=\"middle\">",
		PLOT_MT + PLOT_AH / 2);
	esc(f, s->ylabel);
	fputs("</text>\n", f);
}

/* A line through (x[i], y[i]); a missing value breaks it.  Returns the points drawn. */
static unsigned plot_path(struct plot *p, const double *x, const double *y, size_t n,
			  const char *colour, const char *dash)
{
	unsigned drawn = 0;
	bool pen = false;

	fprintf(p->f, "<path class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" stroke-linecap=\"round\"",
		colour);
	if (dash)
		fprintf(p->f, " stroke-dasharray=\"%s\"", dash);
	fputs(" d=\"", p->f);
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]) || !isfinite(y[i]) || (p->logx && x[i] <= 0)) {
			pen = false;
			continue;
		}
		fprintf(p->f, "%s%c%.1f %.1f", drawn ? " " : "", pen ? 'L' : 'M',
			plot_x(p, x[i]), plot_y(p, y[i]));
		/* A point with no neighbour to join: a round-capped dot. */
		if (!pen && (i + 1 == n || !isfinite(x[i + 1]) || !isfinite(y[i + 1])))
			fputs(" h0.1", p->f);
		pen = true;
		drawn++;
	}
	fputs("\"/>\n", p->f);
	return drawn;
}

/* A legend row below the plot: a line sample (or a swatch) and its text. */
static void plot_legend(struct plot *p, const char *colour, const char *dash, bool swatch,
			const char *text)
{
	if (swatch)
		fprintf(p->f, "<rect x=\"%d\" y=\"%d\" width=\"22\" height=\"10\" fill=\"%s\"/>\n",
			PLOT_ML, p->leg_y - 9, colour);
	else
		fprintf(p->f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s%s%s/>\n",
			PLOT_ML, p->leg_y - 4, PLOT_ML + 22, p->leg_y - 4, colour,
			dash ? " stroke-dasharray=\"" : "", dash ? dash : "", dash ? "\"" : "");
	fprintf(p->f, "<text class=\"legend\" x=\"%d\" y=\"%d\">", PLOT_ML + 30, p->leg_y);
	esc(p->f, text);
	fputs("</text>\n", p->f);
	p->leg_y += LEG_ROW;
}

static void plot_close(struct plot *p)
{
	fputs("</svg>\n", p->f);
}

static const char *run_colour(unsigned i)
{
	return palette[i % NPALETTE];
}

/* The dash pattern that tells runs apart once the colours repeat. */
static const char *run_dash(unsigned i, const char *own)
{
	return own ? own : i >= NPALETTE ? "8 3" : NULL;
}

/* The series member key of r as doubles (NAN for null); *n 0 when absent. */
static double *series_get(const struct store_run *r, const char *key, size_t *n)
{
	const json_t *a = json_object_get(r->series, key);
	double *v;

	*n = json_array_size(a);
	if (!*n)
		return NULL;
	v = malloc(*n * sizeof(*v));
	if (!v) {
		*n = 0;
		return NULL;
	}
	for (size_t i = 0; i < *n; i++)
		v[i] = jnum(json_array_get(a, i));
	return v;
}

/* One line of a plot over time: a series of a run, and its values once read. */
struct tline {
	unsigned run;
	const char *key, *dash, *suffix;
	double *x, *y;
	size_t n;			/* 0: nothing to draw */
};

/*
 * A plot over time of the lines that have data; a note instead when none
 * has.  Time is the series' "t", seconds from the start of each run, so
 * runs are overlaid from their starts.
 */
static void time_plot(FILE *f, const struct report *rp, const char *id, const char *title,
		      const char *ylabel, struct tline *lines, unsigned nl)
{
	struct plot_spec s = { .id = id, .title = title, .xlabel = "time, s", .ylabel = ylabel };
	double xmax = 0, ymax = 0;
	struct plot p;
	char label[256];

	for (unsigned i = 0; i < nl; i++) {
		struct tline *l = &lines[i];
		size_t nt, nv;
		bool any = false;

		l->x = series_get(&rp->runs[l->run], "t", &nt);
		l->y = series_get(&rp->runs[l->run], l->key, &nv);
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
		escf(f, "%s: no run here has this stored in its time series.", title);
		fputs("</p>\n", f);
	} else {
		s.x1 = nice_top(xmax);
		s.y1 = nice_top(ymax);
		plot_open(&p, f, &s);
		for (unsigned i = 0; i < nl; i++) {
			const struct tline *l = &lines[i];
			const char *dash = run_dash(l->run, l->dash);

			if (!l->n)
				continue;
			plot_path(&p, l->x, l->y, l->n, run_colour(l->run), dash);
			run_label(&rp->runs[l->run], label, sizeof(label));
			snprintf(label + strlen(label), sizeof(label) - strlen(label), "%s",
				 l->suffix ? l->suffix : "");
			plot_legend(&p, run_colour(l->run), dash, false, label);
		}
		plot_close(&p);
	}
	for (unsigned i = 0; i < nl; i++) {
		free(lines[i].x);
		free(lines[i].y);
		lines[i].x = lines[i].y = NULL;
	}
}

/* Rate, latency (RR runs) and socket buffers over time, the runs overlaid. */
static int write_time_plots(FILE *f, const struct report *rp)
{
	static const struct {
		const char *key, *dash, *suffix;
	} bufs[] = {
		{ "sndbuf_l", NULL, ": local send buffer" },
		{ "rcvbuf_l", "6 3", ": local receive buffer" },
		{ "sndbuf_r", "2 2", ": remote send buffer" },
		{ "rcvbuf_r", "9 3 2 3", ": remote receive buffer" },
	};
	struct tline *l = calloc(rp->n * 4 + 1, sizeof(*l));
	const char *units = rp->n ? rp->runs[0].units : "";
	bool mixed = false;
	unsigned n = 0;

	if (!l)
		return -ENOMEM;
	for (unsigned i = 0; i < rp->n; i++)
		mixed |= strcmp(units, rp->runs[i].units) != 0;
	fputs("<h2>Over time</h2>\n", f);
	for (unsigned i = 0; i < rp->n; i++)
		l[i] = (struct tline){ .run = i, .key = "rate",
				       .suffix = mixed ? rp->runs[i].units : NULL };
	time_plot(f, rp, "plot-rate", "Rate over time", mixed ? "rate (units in the legend)" : units,
		  l, rp->n);
	for (unsigned i = 0; i < rp->n; i++) {
		if (!test_rr(rp->runs[i].test))
			continue;
		l[n++] = (struct tline){ .run = i, .key = "p50_us", .suffix = ": p50" };
		l[n++] = (struct tline){ .run = i, .key = "p99_us", .dash = "6 3", .suffix = ": p99" };
	}
	if (n)
		time_plot(f, rp, "plot-latency", "Latency over time (p50 solid, p99 dashed)",
			  "latency, \xc2\xb5s", l, n);
	n = 0;
	for (unsigned i = 0; i < rp->n; i++)
		for (unsigned k = 0; k < 4; k++)
			l[n++] = (struct tline){ .run = i, .key = bufs[k].key, .dash = bufs[k].dash,
						 .suffix = bufs[k].suffix };
	time_plot(f, rp, "plot-buffers", "Socket buffers over time", "bytes", l, n);
	free(l);
	return 0;
}

/* The run-to-run noise of one run's throughput: half its confidence interval, or 0. */
static double run_noise(const struct store_run *r)
{
	double w = jnum(json_object_get(json_object_get(r->result, "result"), "throughput_confid"));

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
	struct plot_spec s = { 0 };
	struct plot p;
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
	s.y1 = nice_top(ymax * 1.08);
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
		double step = nice_step(xmax - xmin > 0 ? xmax - xmin : fabs(xmax) + 1, 8);

		s.x0 = floor(xmin / step) * step;
		s.x1 = ceil(xmax / step) * step;
		if (s.x1 <= s.x0)
			s.x1 = s.x0 + step;
	}
	plot_open(&p, f, &s);
	plot_path(&p, x, y, n, palette[0], NULL);
	for (unsigned i = 0; i < n; i++) {
		double px = plot_x(&p, x[i]), py = plot_y(&p, y[i]);

		fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>",
			px, py, palette[0]);
		escf(f, "%s: %s %s", pt[i].text, fmt_si(y[i], buf, sizeof(buf)), units);
		fputs("</title></circle>\n", f);
		if (!cliff[i])
			continue;
		fprintf(f, "<circle class=\"cliff\" cx=\"%.1f\" cy=\"%.1f\" r=\"9\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/>\n",
			px, py);
		fprintf(f, "<text class=\"cliff\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#d62728\" font-weight=\"bold\">cliff</text>\n",
			px, py - 13);
	}
	plot_legend(&p, palette[0], NULL, false, "mean throughput of the point's runs");
	if (ncliffs) {
		snprintf(title, sizeof(title),
			 "cliff: below its neighbours by more than %g times the noise and %g %%",
			 CLIFF_K, CLIFF_MIN_DROP_PCT);
		plot_legend(&p, "#d62728", NULL, false, title);
	}
	plot_close(&p);
	fprintf(f, "<table class=\"sweep\" id=\"table-sweep-%" PRId64 "\">\n<tr><th>", sw->id);
	escf(f, "%.*s", (int)(name ? namelen : 5), name ? name : "point");
	fputs("</th><th>throughput</th><th>runs</th><th>noise</th><th>cliff</th></tr>\n", f);
	for (unsigned i = 0; i < n; i++) {
		fputs("<tr><td>", f);
		esc(f, pt[i].text);
		fprintf(f, "</td><td class=\"num\">%s</td><td class=\"num\">%u</td>",
			fmt_fix(y[i], 2, buf, sizeof(buf)), pt[i].runs);
		fprintf(f, "<td class=\"num\">%s</td><td%s>%s</td></tr>\n",
			noise[i] > 0 ? fmt_fix(noise[i], 2, buf, sizeof(buf)) : "n/a",
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
static int write_sweeps(FILE *f, const struct report *rp)
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

/* One bar of a segment-size histogram. */
struct segbar {
	uint32_t size;
	double count;
};

static int segbar_by_count(const void *a, const void *b)
{
	const struct segbar *pa = a, *pb = b;

	if (pa->count != pb->count)
		return pa->count < pb->count ? 1 : -1;
	return (pa->size > pb->size) - (pa->size < pb->size);
}

static int segbar_by_size(const void *a, const void *b)
{
	const struct segbar *pa = a, *pb = b;

	return (pa->size > pb->size) - (pa->size < pb->size);
}

/* The bars of the commonest sizes of one direction of one end's capture. */
static void write_segplot(FILE *f, const struct store_run *r, const char *end, const char *dir,
			  const json_t *d)
{
	const json_t *sizes = json_object_get(d, "sizes");
	size_t nsz = json_array_size(sizes), nb = 0;
	double mssd = jnum(json_object_get(d, "mss")), data = jnum(json_object_get(d, "data"));
	uint32_t mss = isfinite(mssd) && mssd > 0 ? (uint32_t)mssd : 0;
	struct segbar *bars = calloc(nsz + 1, sizeof(*bars));
	char (*cats)[40] = NULL, id[96], title[200], buf[24];
	bool present[SEG_NCLASSES] = { false };
	struct plot_spec s = { 0 };
	double ymax = 0, shown = 0;
	unsigned nleg = 0;
	struct plot p;

	snprintf(id, sizeof(id), "plot-segments-%" PRId64 "-%s-%s", r->id, end, dir);
	for (size_t i = 0; bars && i < nsz; i++) {
		const json_t *e = json_array_get(sizes, i);
		double sz = jnum(json_array_get(e, 0)), c = jnum(json_array_get(e, 1));

		if (isfinite(sz) && sz >= 0 && sz <= UINT32_MAX && isfinite(c) && c > 0)
			bars[nb++] = (struct segbar){ .size = (uint32_t)sz, .count = c };
	}
	if (!nb) {
		fprintf(f, "<p class=\"note\" id=\"%s\">Run %" PRId64 ", %s end, %s: no data segments captured.</p>\n",
			id, r->id, end, dir);
		free(bars);
		return;
	}
	qsort(bars, nb, sizeof(*bars), segbar_by_count);
	if (nb > REPORT_SEG_BARS)
		nb = REPORT_SEG_BARS;
	qsort(bars, nb, sizeof(*bars), segbar_by_size);
	cats = calloc(nb, sizeof(*cats));
	if (!cats) {
		free(bars);
		return;
	}
	for (size_t i = 0; i < nb; i++) {
		enum seg_class k = seg_class_of(bars[i].size, mss);
		uint32_t size = bars[i].size;

		present[k] = true;
		ymax = fmax(ymax, bars[i].count);
		shown += bars[i].count;
		if (k == SEG_AT_MSS)
			snprintf(cats[i], sizeof(cats[i]), "%u\n=MSS", size);
		else if (k == SEG_SUPER_MULTIPLE)
			snprintf(cats[i], sizeof(cats[i]), "%u\n%uxMSS", size, size / mss);
		else if (k == SEG_SUPER_OTHER)
			snprintf(cats[i], sizeof(cats[i]), "%u\n%ux%s+%u", size, size / mss,
				 nb > 8 ? "" : "MSS", size % mss);
		else
			snprintf(cats[i], sizeof(cats[i]), "%u", size);
	}
	for (int k = 0; k < SEG_NCLASSES; k++)
		nleg += present[k];
	snprintf(title, sizeof(title), "Run %" PRId64 ", %s end, %s: %s data segments, MSS %s",
		 r->id, end, dir, fmt_fix(data, 0, buf, sizeof(buf)), mss ? "" : "unknown");
	if (mss)
		snprintf(title + strlen(title), sizeof(title) - strlen(title), "%u", mss);
	s = (struct plot_spec){ .id = id, .title = title, .xlabel = "payload size, bytes (the commonest)",
				.ylabel = "segments", .x0 = -0.5, .x1 = nb - 0.5,
				.y1 = nice_top(ymax * 1.1), .xcats = cats, .ncats = (unsigned)nb,
				.nlegend = nleg + 1 };
	plot_open(&p, f, &s);
	for (size_t i = 0; i < nb; i++) {
		double bw = (PLOT_W - PLOT_ML - PLOT_MR) / (double)nb * 0.7;
		double px = plot_x(&p, (double)i) - bw / 2, py = plot_y(&p, bars[i].count);

		fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>",
			px, py, bw, plot_y(&p, 0) - py, seg_colour[seg_class_of(bars[i].size, mss)]);
		escf(f, "%u bytes: %.0f segments", bars[i].size, bars[i].count);
		fprintf(f, "</title></rect>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">",
			px + bw / 2, py - 3);
		if (data > 0)
			fprintf(f, "%.0f%%", bars[i].count / data * 100);
		fputs("</text>\n", f);
	}
	for (int k = 0; k < SEG_NCLASSES; k++)
		if (present[k])
			plot_legend(&p, seg_colour[k], NULL, true, seg_legend[k]);
	snprintf(title, sizeof(title), "the %zu sizes shown hold %.0f%% of the data segments", nb,
		 data > 0 ? shown / data * 100 : 100);
	plot_legend(&p, "#ffffff", NULL, true, title);
	plot_close(&p);
	free(cats);
	free(bars);
}

/* Per run, end and direction the segment-size histogram of its capture. */
static void write_segments(FILE *f, const struct report *rp)
{
	static const char *const ends[] = { "local", "remote" };
	static const struct {
		const char *key, *name;
	} dirs[] = { { "sent", "sent" }, { "received", "received" } };

	fputs("<h2>Segment sizes</h2>\n", f);
	for (unsigned i = 0; i < rp->n; i++) {
		const struct store_run *r = &rp->runs[i];

		for (unsigned e = 0; e < 2; e++) {
			const json_t *cap = json_object_get(json_object_get(r->result, ends[e]), "capture");

			if (!json_is_object(cap)) {
				fprintf(f, "<p class=\"note\">Run %" PRId64 ", %s end: not captured (tunetop run --capture).</p>\n",
					r->id, ends[e]);
				continue;
			}
			for (unsigned d = 0; d < 2; d++)
				write_segplot(f, r, ends[e], dirs[d].name,
					      json_object_get(cap, dirs[d].key));
		}
	}
}

/* A knob's value as text, "n/a" for null; NULL when the run lacks the knob. */
static char *knob_text(const json_t *k)
{
	const json_t *v = json_object_get(k, "value");

	if (!k)
		return NULL;
	if (json_is_string(v))
		return strdup(json_string_value(v));
	if (!v || json_is_null(v))
		return strdup("n/a");
	return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
}

/* The knob named name in one end's list, or NULL. */
static const json_t *knob_find(const json_t *list, const char *name)
{
	size_t i;
	json_t *k;

	json_array_foreach(list, i, k)
		if (!strcmp(name, json_string_value(json_object_get(k, "name")) ?: ""))
			return k;
	return NULL;
}

/* Whether run j's value differs from the reference run's (both have knob lists). */
static bool knob_differs(const json_t **lists, char **vals, unsigned j, unsigned ref)
{
	if (j == ref || !lists[j] || !lists[ref])
		return false;
	if (!vals[j] || !vals[ref])
		return vals[j] != vals[ref];
	return strcmp(vals[j], vals[ref]) != 0;
}

/* One row of the diff: the knob, its end and unit, each run's value. */
static void knob_row(FILE *f, const struct report *rp, const char *end, const char *name,
		     const json_t **lists, char **vals, unsigned ref)
{
	const char *unit = NULL;

	for (unsigned j = 0; j < rp->n && !unit; j++)
		unit = json_string_value(json_object_get(knob_find(lists[j], name), "unit"));
	fputs("<tr><td>", f);
	esc(f, name);
	fprintf(f, "</td><td>%s</td><td>", end);
	esc(f, unit);
	fputs("</td>", f);
	for (unsigned j = 0; j < rp->n; j++) {
		const char *reason = json_string_value(json_object_get(knob_find(lists[j], name),
								       "reason"));

		fprintf(f, "<td class=\"%s%s\"", knob_differs(lists, vals, j, ref) ? "diff" : "same",
			vals[j] ? "" : " absent");
		if (reason) {
			fputs(" title=\"", f);
			esc(f, reason);
			fputc('"', f);
		}
		fputc('>', f);
		esc(f, vals[j] ? vals[j] : lists[j] ? "absent" : "not recorded");
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

/*
 * The rows of the knobs of one end whose values differ between the runs
 * that recorded that end's knobs, against the first of them; the number
 * of rows, or -ENOMEM.
 */
static int knob_rows(FILE *f, const struct report *rp, const char *end, unsigned *ref)
{
	const json_t **lists = calloc(rp->n, sizeof(*lists));
	char **vals = calloc(rp->n, sizeof(*vals));
	json_t *seen = json_object();
	int rows = -ENOMEM;

	*ref = 0;
	if (!lists || !vals || !seen)
		goto out;
	rows = 0;
	for (unsigned i = rp->n; i--;) {
		lists[i] = json_object_get(json_object_get(json_object_get(rp->runs[i].result, "knobs"),
							   end), "knobs");
		lists[i] = json_is_array(lists[i]) ? lists[i] : NULL;
		*ref = lists[i] ? i : *ref;
	}
	for (unsigned i = 0; i < rp->n && rows >= 0; i++) {
		size_t ki;
		json_t *k;

		json_array_foreach(lists[i], ki, k) {
			const char *name = json_string_value(json_object_get(k, "name"));
			bool differ = false;

			if (!name || json_object_get(seen, name))
				continue;
			if (json_object_set_new(seen, name, json_true())) {
				rows = -ENOMEM;
				break;
			}
			for (unsigned j = 0; j < rp->n; j++) {
				const json_t *kj = knob_find(lists[j], name);

				vals[j] = knob_text(kj);
				if (kj && !vals[j])
					rows = -ENOMEM;
			}
			for (unsigned j = 0; j < rp->n; j++)
				differ |= knob_differs(lists, vals, j, *ref);
			if (differ && rows >= 0) {
				knob_row(f, rp, end, name, lists, vals, *ref);
				rows++;
			}
			for (unsigned j = 0; j < rp->n; j++) {
				free(vals[j]);
				vals[j] = NULL;
			}
		}
	}
out:
	json_decref(seen);
	free(lists);
	free(vals);
	return rows;
}

/* The table of knobs that differ between the runs, both ends. */
static int write_knob_diff(FILE *f, const struct report *rp)
{
	unsigned lref, rref;
	char *body = NULL;
	size_t len = 0;
	int lrows, rrows;
	FILE *m;

	fputs("<h2>Knobs that differ</h2>\n", f);
	if (rp->n < 2) {
		fputs("<p class=\"note\" id=\"knob-diff\">One run: nothing to compare.</p>\n", f);
		return 0;
	}
	m = open_memstream(&body, &len);
	if (!m)
		return -errno;
	lrows = knob_rows(m, rp, "local", &lref);
	rrows = knob_rows(m, rp, "remote", &rref);
	if (fclose(m) || lrows < 0 || rrows < 0) {
		free(body);
		return -ENOMEM;
	}
	if (!lrows && !rrows) {
		fputs("<p class=\"note\" id=\"knob-diff\">No knob differs between these runs.</p>\n", f);
		free(body);
		return 0;
	}
	fputs("<table id=\"knob-diff\" class=\"knobs\">\n<caption>", f);
	if (lref == rref)
		escf(f, "Highlighted: differs from run %" PRId64, rp->runs[lref].id);
	else
		escf(f, "Highlighted: differs from run %" PRId64 " (local end), run %" PRId64
		     " (remote end)", rp->runs[lref].id, rp->runs[rref].id);
	fputs(", the first to record the knobs; hover an n/a for its reason.", f);
	fputs("</caption>\n<tr><th>knob</th><th>end</th><th>unit</th>", f);
	for (unsigned i = 0; i < rp->n; i++)
		fprintf(f, "<th>run %" PRId64 "</th>", rp->runs[i].id);
	fputs("</tr>\n", f);
	fwrite(body, 1, len, f);
	fputs("</table>\n", f);
	free(body);
	return 0;
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
		const char *sdu = json_string_value(json_object_get(json_object_get(r->result, "result"),
								    "sd_units"));
		time_t t = (time_t)r->time;
		struct tm tm;

		fprintf(f, "<tr id=\"run-%" PRId64 "\"%s><td class=\"num\">%" PRId64 "%s</td><td>", r->id,
			r->failed ? " class=\"failed\"" : "", r->id, r->baseline ? " (baseline)" : "");
		if (localtime_r(&t, &tm) && strftime(a, sizeof(a), "%Y-%m-%d %H:%M:%S", &tm))
			esc(f, a);
		fputs("</td><td>", f);
		esc(f, r->test);
		params_text(r->params, pt, sizeof(pt));
		fputs("</td><td>", f);
		esc(f, pt);
		fputs("</td><td>", f);
		esc(f, r->target);
		if (points) {
			fputs("</td><td>", f);
			if (r->sweep_id)
				escf(f, "sweep %" PRId64 ": %s", r->sweep_id, r->point);
		}
		fprintf(f, "</td><td class=\"num\">%s</td><td>",
			r->failed ? "failed" : fmt_fix(r->throughput, 2, a, sizeof(a)));
		esc(f, r->units);
		fprintf(f, "</td><td class=\"num\">%s</td>", fmt_fix(r->p50_us, 1, a, sizeof(a)));
		fprintf(f, "<td class=\"num\">%s</td>", fmt_fix(r->p99_us, 1, a, sizeof(a)));
		fprintf(f, "<td class=\"num\">%s / ", fmt_fix(r->lcpu, 1, a, sizeof(a)));
		fprintf(f, "%s</td>", fmt_fix(r->rcpu, 1, a, sizeof(a)));
		fprintf(f, "<td class=\"num\">%s / %s", fmt_fix(r->lsd, 3, a, sizeof(a)),
			fmt_fix(r->rsd, 3, b, sizeof(b)));
		if ((isfinite(r->lsd) || isfinite(r->rsd)) && sdu)
			escf(f, " %s", sdu);
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
	"p.note{color:#666}";

/* The whole document. */
static int report_write(FILE *f, const struct report *rp)
{
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	int ret;

	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>",
	      f);
	esc(f, rp->title);
	fprintf(f, "</title>\n<meta name=\"generator\" content=\"tunetop %s\"/>\n<style>%s</style>\n</head>\n<body>\n<h1>",
		PACKAGE_VERSION, report_css);
	esc(f, rp->title);
	when[0] = '\0';
	if (localtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(f, "</h1>\n<p>%u run%s from ", rp->n, rp->n == 1 ? "" : "s");
	esc(f, rp->db);
	fprintf(f, ", written %s by tunetop %s.</p>\n", when, PACKAGE_VERSION);
	write_summary(f, rp);
	ret = write_time_plots(f, rp);
	if (!ret)
		ret = write_sweeps(f, rp);
	if (!ret) {
		write_segments(f, rp);
		ret = write_knob_diff(f, rp);
	}
	fputs("</body>\n</html>\n", f);
	return ret;
}

/* The default heading: "tunetop report: runs 3, 4, 7" or of the sweep. */
static void default_title(const struct report *rp, char *buf, size_t len)
{
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
	for (unsigned i = 0; i < rp->n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s %" PRId64, i ? "," : "", rp->runs[i].id);
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
	free(c.sel);
	if (s)
		store_close(s);
	return ret ? 1 : 0;
}
