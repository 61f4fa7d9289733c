// SPDX-License-Identifier: GPL-2.0-or-later
/* svg.c - XML escaping, number formats, nice scales and SVG line plots (axes, paths, legends). */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "svg.h"

/* Tableau 10: one colour per line of a plot (svg_colour). */
static const char *const svg_palette[SVG_NCOLOURS] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

const char *svg_colour(unsigned i)
{
	return svg_palette[i % SVG_NCOLOURS];
}

/* Length of the well-formed UTF-8 sequence XML allows at p; 0 when it is not one. */
static unsigned svg_utf8_len(const unsigned char *p)
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
void svg_esc(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		unsigned n = svg_utf8_len(p);

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

/* printf, then escaped as svg_esc() does. */
void svg_escf(FILE *f, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	svg_esc(f, buf);
}

/* A number with an SI suffix and three digits: 23.3k, 1.45M; "n/a" when missing. */
const char *svg_fmt_si(double v, char *buf, size_t len)
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
const char *svg_fmt_fix(double v, int prec, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.*f", prec, v);
	return buf;
}

/* A round step (1, 2 or 5 times a power of ten) for about n ticks over span. */
double svg_nice_step(double span, int n)
{
	double raw = span / n, mag, f;

	if (!(raw > 0) || !isfinite(raw))
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/* The SVG x coordinate of data value x on p's x axis (linear or log2). */
double svg_plot_x(const struct svg_plot *p, double x)
{
	double f = p->logx ? (log2(x) - log2(p->x0)) / (log2(p->x1) - log2(p->x0)) :
			     (x - p->x0) / (p->x1 - p->x0);

	return SVG_PLOT_ML + f * (SVG_PLOT_W - SVG_PLOT_ML - SVG_PLOT_MR);
}

/* The SVG y coordinate of data value y on p's y axis. */
double svg_plot_y(const struct svg_plot *p, double y)
{
	return SVG_PLOT_MT + SVG_PLOT_AH - (y - p->y0) / (p->y1 - p->y0) * SVG_PLOT_AH;
}

/* A tick label of a log2 axis: 512, 4K, 1M. */
static void svg_fmt_pow2(double v, char *buf, size_t len)
{
	if (v >= 1048576 && fmod(v, 1048576) == 0)
		snprintf(buf, len, "%.0fM", v / 1048576);
	else if (v >= 1024 && fmod(v, 1024) == 0)
		snprintf(buf, len, "%.0fK", v / 1024);
	else
		snprintf(buf, len, "%g", v);
}

/* One tick of the x axis at x with label text (a "\n" starts a second line). */
static void svg_plot_xtick(struct svg_plot *p, double x, const char *text)
{
	const char *nl = strchr(text, '\n');
	double px = svg_plot_x(p, x);

	fprintf(p->f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\"/>\n",
		px, SVG_PLOT_MT + SVG_PLOT_AH, px, SVG_PLOT_MT + SVG_PLOT_AH + 4);
	fprintf(p->f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", px,
		SVG_PLOT_MT + SVG_PLOT_AH + 16);
	if (nl) {
		svg_escf(p->f, "%.*s", (int)(nl - text), text);
		fprintf(p->f, "<tspan x=\"%.1f\" dy=\"1.1em\">", px);
		svg_esc(p->f, nl + 1);
		fputs("</tspan>", p->f);
	} else {
		svg_esc(p->f, text);
	}
	fputs("</text>\n", p->f);
}

/* Open the <svg>: title, grid, ticks with labels, axes and axis labels. */
void svg_plot_open(struct svg_plot *p, FILE *f, const struct svg_plot_spec *s)
{
	int height = SVG_PLOT_MT + SVG_PLOT_AH + SVG_PLOT_MB + (int)s->nlegend * SVG_LEG_ROW;
	double step;
	char buf[40];

	*p = (struct svg_plot){ .f = f, .x0 = s->x0, .x1 = s->x1, .y0 = s->y0, .y1 = s->y1,
				.logx = s->logx,
				.leg_y = SVG_PLOT_MT + SVG_PLOT_AH + SVG_PLOT_MB + 6 };
	fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" id=\"", f);
	svg_esc(f, s->id);
	if (s->unit) {
		fputs("\" data-unit=\"", f);
		svg_esc(f, s->unit);
	}
	fprintf(f, "\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"sans-serif\" font-size=\"11\">\n<title>",
		SVG_PLOT_W, height, SVG_PLOT_W, height);
	svg_esc(f, s->title);
	fprintf(f, "</title>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
		SVG_PLOT_W, height);
	fprintf(f, "<text x=\"%d\" y=\"18\" font-size=\"13\" font-weight=\"bold\">", SVG_PLOT_ML);
	svg_esc(f, s->title);
	fputs("</text>\n", f);
	step = svg_nice_step(s->y1 - s->y0, 5);
	for (double v = s->y0; v <= s->y1 + step * 1e-6; v += step) {
		double y = svg_plot_y(p, v);

		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
			SVG_PLOT_ML, y, SVG_PLOT_W - SVG_PLOT_MR, y);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			SVG_PLOT_ML - 6, y + 4,
			svg_fmt_si(fabs(v) < step * 1e-6 ? 0 : v, buf, sizeof(buf)));
	}
	if (s->xcats) {
		for (unsigned i = 0; i < s->ncats; i++)
			svg_plot_xtick(p, i, s->xcats[i]);
	} else if (s->logx) {
		int k0 = (int)ceil(log2(s->x0) - 1e-9), k1 = (int)floor(log2(s->x1) + 1e-9);
		int kstep = (k1 - k0) / 10 + 1;

		for (int k = k0; k <= k1; k += kstep) {
			svg_fmt_pow2(ldexp(1, k), buf, sizeof(buf));
			svg_plot_xtick(p, ldexp(1, k), buf);
		}
	} else {
		step = svg_nice_step(s->x1 - s->x0, 8);
		for (double v = ceil(s->x0 / step) * step; v <= s->x1 + step * 1e-6; v += step)
			svg_plot_xtick(p, v, svg_fmt_si(fabs(v) < step * 1e-6 ? 0 : v, buf,
							sizeof(buf)));
	}
	fprintf(f, "<path d=\"M%d %d V%d H%d\" fill=\"none\" stroke=\"#444\"/>\n", SVG_PLOT_ML,
		SVG_PLOT_MT, SVG_PLOT_MT + SVG_PLOT_AH, SVG_PLOT_W - SVG_PLOT_MR);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		(SVG_PLOT_ML + SVG_PLOT_W - SVG_PLOT_MR) / 2, SVG_PLOT_MT + SVG_PLOT_AH + 44);
	svg_esc(f, s->xlabel);
	fprintf(f, "</text>\n<text transform=\"translate(16 %d) rotate(-90)\" text-anchor=\"middle\">",
		SVG_PLOT_MT + SVG_PLOT_AH / 2);
	svg_esc(f, s->ylabel);
	fputs("</text>\n", f);
}

/* A line through (x[i], y[i]); a missing value breaks it.  Returns the points drawn. */
unsigned svg_plot_path(struct svg_plot *p, const double *x, const double *y, size_t n,
		       const char *colour, const char *dash, const char *unit)
{
	unsigned drawn = 0;
	bool pen = false;

	fprintf(p->f, "<path class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" stroke-linecap=\"round\"",
		colour);
	if (dash)
		fprintf(p->f, " stroke-dasharray=\"%s\"", dash);
	if (unit) {
		fputs(" data-unit=\"", p->f);
		svg_esc(p->f, unit);
		fputs("\"", p->f);
	}
	fputs(" d=\"", p->f);
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]) || !isfinite(y[i]) || (p->logx && x[i] <= 0)) {
			pen = false;
			continue;
		}
		fprintf(p->f, "%s%c%.1f %.1f", drawn ? " " : "", pen ? 'L' : 'M',
			svg_plot_x(p, x[i]), svg_plot_y(p, y[i]));
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
void svg_plot_legend(struct svg_plot *p, const char *colour, const char *dash, bool swatch,
		     const char *text)
{
	if (swatch)
		fprintf(p->f, "<rect x=\"%d\" y=\"%d\" width=\"22\" height=\"10\" fill=\"%s\"/>\n",
			SVG_PLOT_ML, p->leg_y - 9, colour);
	else
		fprintf(p->f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s%s%s/>\n",
			SVG_PLOT_ML, p->leg_y - 4, SVG_PLOT_ML + 22, p->leg_y - 4, colour,
			dash ? " stroke-dasharray=\"" : "", dash ? dash : "", dash ? "\"" : "");
	fprintf(p->f, "<text class=\"legend\" x=\"%d\" y=\"%d\">", SVG_PLOT_ML + 30, p->leg_y);
	svg_esc(p->f, text);
	fputs("</text>\n", p->f);
	p->leg_y += SVG_LEG_ROW;
}

/* Close the <svg> svg_plot_open began. */
void svg_plot_close(struct svg_plot *p)
{
	fputs("</svg>\n", p->f);
}
