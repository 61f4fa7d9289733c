/* SPDX-License-Identifier: GPL-2.0-or-later */
/* svg.h - XML escaping, number formats, nice scales and SVG line plots (axes, paths, legends). */
#ifndef TT_SVG_H
#define TT_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Everything is written straight to a FILE (report.c gives an
 * open_memstream); every string passes svg_esc, so the output is
 * well-formed XML whatever bytes the caller's strings hold.
 */

/* Line i's colour (Tableau 10): the palette repeats from the eleventh line
 * on, so a plot with more lines dashes them (report.c's runs). */
#define SVG_NCOLOURS 10
const char *svg_colour(unsigned i);

/* Plot geometry in SVG user units: the plotting area and its margins. */
#define SVG_PLOT_W 760
#define SVG_PLOT_ML 76
#define SVG_PLOT_MR 24
#define SVG_PLOT_MT 34
#define SVG_PLOT_AH 240
#define SVG_PLOT_MB 52
#define SVG_LEG_ROW 17

/* What a plot shows and how its axes run. */
struct svg_plot_spec {
	const char *id, *title, *xlabel, *ylabel;
	const char *unit;		/* the one unit of its y axis (data-unit), or NULL */
	double x0, x1, y0, y1;		/* x1 > x0, y1 > y0 */
	bool logx;			/* log2 x axis; x0 > 0 */
	char (*xcats)[40];		/* categories at x = 0..ncats-1, or NULL; "\n" splits a label */
	unsigned ncats;
	unsigned nlegend;		/* legend rows below the plot */
};

/* An SVG plot being written. */
struct svg_plot {
	FILE *f;
	double x0, x1, y0, y1;
	bool logx;
	int leg_y;			/* baseline of the next legend row */
};

/*
 * s (NULL: "") as XML text or a quoted attribute value: & < > " '
 * escaped, control characters and bytes that are not UTF-8 as U+FFFD.
 */
void svg_esc(FILE *f, const char *s);

/* printf, then escaped as svg_esc() does (at most 1023 bytes). */
void __attribute__((format(printf, 2, 3))) svg_escf(FILE *f, const char *fmt, ...);

/* v with an SI suffix and three digits (23.3k, 1.45M), "n/a" when not finite; returns buf. */
const char *svg_fmt_si(double v, char *buf, size_t len);

/* v with prec decimals, "n/a" when not finite; returns buf. */
const char *svg_fmt_fix(double v, int prec, char *buf, size_t len);

/* A round step (1, 2 or 5 times a power of ten) for about n ticks over span. */
double svg_nice_step(double span, int n);

/* Open an <svg> in f for s: title, grid, ticks with labels, axes and axis labels. */
void svg_plot_open(struct svg_plot *p, FILE *f, const struct svg_plot_spec *s);

/* The SVG x coordinate of data value x on p's x axis (linear or log2). */
double svg_plot_x(const struct svg_plot *p, double x);

/* The SVG y coordinate of data value y on p's y axis. */
double svg_plot_y(const struct svg_plot *p, double y);

/*
 * A line through (x[i], y[i]) in colour, dashed when dash, its values in
 * unit (data-unit, which a test compares with the plot's; NULL none); a
 * missing value breaks it.  Returns the points drawn.
 */
unsigned svg_plot_path(struct svg_plot *p, const double *x, const double *y, size_t n,
		       const char *colour, const char *dash, const char *unit);

/* The next legend row below the plot: a line sample (or a swatch) and its text. */
void svg_plot_legend(struct svg_plot *p, const char *colour, const char *dash, bool swatch,
		     const char *text);

/* Close the <svg> svg_plot_open began. */
void svg_plot_close(struct svg_plot *p);

#endif
