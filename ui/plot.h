/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plot.h - line charts, bands and bar histograms turned into grid cells. */
#ifndef TT_PLOT_H
#define TT_PLOT_H

#include <stdbool.h>

#include "grid.h"

/*
 * A series: n points (x[i], y[i]), x rising.  A NAN y is a gap.  In UTF-8
 * a cell holds a 2 x 4 braille dot matrix (U+2800..U+28FF), so a w x h
 * area plots 2w x 4h points; in ASCII one of . - ' per cell (three rows
 * of resolution) -- bmon's graph.c idea.
 */
struct plot_series {
	const double *x, *y;
	unsigned n;
	enum style style;
};

struct plot_opts {
	double xmin, xmax;		/* NAN: from the data */
	double ymin, ymax;		/* NAN: from the data (all series), ymin 0 if ymin_zero */
	bool ymin_zero;
	int ylabel_w;			/* cells for y-axis labels at the left; 0 = none */
	const char *yunit;		/* appended to the top label ("", "us", "Mb/s") */
	bool xaxis;			/* a bottom row of x labels (seconds) */
};

/*
 * Plot the series into the rectangle (x, y, w, h) of g: axis labels as
 * asked, then the series in order (later ones over earlier ones where
 * they share a cell: draw the ghost first).  Values are scaled with SI
 * suffixes in labels (12.3k, 1.2M).  The scale used is returned in
 * *ymin_out / *ymax_out when not NULL.
 */
void plot_lines(struct grid *g, int x, int y, int w, int h,
		const struct plot_series *s, unsigned ns, const struct plot_opts *o,
		double *ymin_out, double *ymax_out);

/*
 * The cell (*cx, *cy) where plot_lines() with the same rectangle and o
 * (its x scale given: o->xmin < o->xmax) and the y scale it returned
 * put the point (xv, yv): to mark a point of a plot (a cliff, a cursor).
 * False when the point is outside the plot.
 */
bool plot_cell(struct grid *g, int x, int y, int w, int h, const struct plot_opts *o,
	       double ymin, double ymax, double xv, double yv, int *cx, int *cy);

/*
 * A band between lo[i] and hi[i] (e.g. p50..p99 latency), filled, at the
 * same x positions, on its own scale (o as for plot_lines).
 */
void plot_band(struct grid *g, int x, int y, int w, int h,
	       const double *xs, const double *lo, const double *hi, unsigned n,
	       enum style st, const struct plot_opts *o);

/* One bar of a horizontal bar chart. */
struct plot_bar {
	const char *label;		/* at the left, right-aligned in label_w */
	double value;			/* >= 0 */
	enum style style;
	const char *note;		/* after the bar (count, %), or NULL */
};

/*
 * Horizontal bars, one row each, lengths proportional to value against
 * the largest (or max when > 0), with eighth-block resolution in UTF-8
 * (U+2588..U+258F), '#' in ASCII.  Rows beyond h are not drawn.
 */
void plot_hbars(struct grid *g, int x, int y, int w, int h,
		const struct plot_bar *b, unsigned n, int label_w, double max);

/* A one-row sparkline of the last w values (U+2581..U+2588, or ASCII _.-^). */
void plot_spark(struct grid *g, int x, int y, int w, const double *v, unsigned n,
		enum style st);

/* v with an SI suffix in at most width characters: "980", "12.3k", "1.21M". */
const char *plot_si(double v, char *buf, unsigned len);

#endif
