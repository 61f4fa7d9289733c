// SPDX-License-Identifier: GPL-2.0-or-later
/* plot.c - line charts, bands, bars and sparklines turned into grid cells. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "plot.h"

/*
 * Plot maths in plain C, bmon's graph.c idea: a series becomes cells, a
 * panel only paints them, so all of this is tested with no terminal.
 *
 * Dots.  In UTF-8 a cell is a braille character, U+2800 plus one bit per
 * dot of its 2 x 4 matrix (Unicode's braille block layout); in ASCII a
 * cell is one column of three levels, bottom to top '.', '-', '\'', and
 * '|' when a line crosses more than one level of the cell.  Dots are
 * ORed into what a cell already holds, so a band drawn first and a line
 * drawn over it share cells; a cell takes the style of the last series
 * that put a dot in it.  The plot area is not blanked first: panels
 * start each frame from a clear grid.
 */
static const uint8_t braille_bit[2][4] = {
    {0x01, 0x02, 0x04, 0x40}, /* dot column 0, rows top to bottom */
    {0x08, 0x10, 0x20, 0x80}, /* dot column 1 */
};

#define ASCII_LEVELS 3
static const char ascii_level[ASCII_LEVELS] = {'.', '-', '\''};
#define ASCII_MULTI '|'
#define ASCII_BAND ':'

/* The dot area of one plot call: where it is and how values map to dots. */
struct canvas {
	struct grid *g;
	int px, py, pw, ph; /* the dot area, in cells */
	int cols, rows;	    /* the dot area, in dots */
	bool utf8;
	bool band; /* ASCII: fill with ':' */
	enum style st;
	double xmin, xmax, ymin, ymax;
	double sx, sy; /* dots per unit of x, y */
};

/* The dot bits a cell holds now (0 when it holds no dots). */
static unsigned cell_bits(const struct cell *c, bool utf8)
{
	const unsigned char *s = (const unsigned char *)c->ch;

	if (utf8) {
		if (s[0] == 0xe2 && (s[1] & 0xfc) == 0xa0 &&
		    (s[2] & 0xc0) == 0x80)
			return (s[1] & 0x03u) << 6 | (s[2] & 0x3fu);
		return 0;
	}
	switch (s[0]) {
	case '.':
		return 1;
	case '-':
		return 2;
	case '\'':
		return 4;
	case ASCII_MULTI:
		return 7;
	default:
		return 0;
	}
}

/* Set dot (c, r) of the canvas, r counted from the bottom. */
static void dot_set(const struct canvas *cv, int c, int r)
{
	struct cell *cell;
	unsigned bits, bit;
	int rt, cx, cy;

	if (c < 0 || r < 0 || c >= cv->cols || r >= cv->rows)
		return;
	rt = cv->rows - 1 - r;
	if (cv->utf8) {
		cx = c >> 1;
		cy = rt >> 2;
		bit = braille_bit[c & 1][rt & 3];
	} else {
		cx = c;
		cy = rt / ASCII_LEVELS;
		bit = 1u << (ASCII_LEVELS - 1 - rt % ASCII_LEVELS);
	}
	cell = grid_at(cv->g, cv->px + cx, cv->py + cy);
	if (!cell)
		return;
	bits = cell_bits(cell, cv->utf8) | bit;
	memset(cell->ch, 0, sizeof(cell->ch));
	if (cv->utf8) {
		cell->ch[0] = (char)0xe2;
		cell->ch[1] = (char)(0xa0 | bits >> 6);
		cell->ch[2] = (char)(0x80 | (bits & 0x3f));
	} else if (cv->band) {
		cell->ch[0] = ASCII_BAND;
	} else {
		cell->ch[0] = bits == 1	  ? ascii_level[0]
			      : bits == 2 ? ascii_level[1]
			      : bits == 4 ? ascii_level[2]
					  : ASCII_MULTI;
	}
	cell->style = (uint8_t)cv->st;
}

/* Dots r0..r1 (either order) of dot column c. */
static void dot_vline(const struct canvas *cv, int c, int r0, int r1)
{
	int r;

	if (r0 > r1) {
		r = r0;
		r0 = r1;
		r1 = r;
	}
	for (r = r0; r <= r1; r++)
		dot_set(cv, c, r);
}

/* A straight line of dots from (c0, r0) to (c1, r1): Bresenham's algorithm. */
static void dot_line(const struct canvas *cv, int c0, int r0, int c1, int r1)
{
	int dc = abs(c1 - c0), dr = -abs(r1 - r0);
	int sc = c0 < c1 ? 1 : -1, sr = r0 < r1 ? 1 : -1;
	int err = dc + dr, e2;

	for (;;) {
		dot_set(cv, c0, r0);
		if (c0 == c1 && r0 == r1)
			break;
		e2 = 2 * err;
		if (e2 >= dr) {
			err += dr;
			c0 += sc;
		}
		if (e2 <= dc) {
			err += dc;
			r0 += sr;
		}
	}
}

/* Clamp v to [0, top] and round it to a dot index. */
static int dot_index(double v, int top)
{
	v += 0.5;
	if (!(v > 0))
		return 0;
	if (v >= top)
		return top;
	return (int)v;
}

static int dot_col(const struct canvas *cv, double x)
{
	return dot_index((x - cv->xmin) * cv->sx, cv->cols - 1);
}

static int dot_row(const struct canvas *cv, double y)
{
	return dot_index((y - cv->ymin) * cv->sy, cv->rows - 1);
}

/*
 * Where a segment (x0 -> x1) lies inside [lo, hi], as parameters t0 <= t1
 * of the segment; false when it misses the window.
 */
static bool clip_t(double lo, double hi, double x0, double x1, double *t0,
		   double *t1)
{
	if ((x0 < lo && x1 < lo) || (x0 > hi && x1 > hi))
		return false;
	*t0 = 0;
	*t1 = 1;
	if (x0 < lo)
		*t0 = (lo - x0) / (x1 - x0);
	else if (x0 > hi)
		*t0 = (hi - x0) / (x1 - x0);
	if (x1 > hi)
		*t1 = (hi - x0) / (x1 - x0);
	else if (x1 < lo)
		*t1 = (lo - x0) / (x1 - x0);
	return true;
}

/*
 * The points of one series falling in one dot column, reduced to their
 * vertical extent: a column holding many points costs one vertical line,
 * so drawing is O(points + dots) however long the series.
 */
struct run {
	int col, rmin, rmax, rlast; /* lines: rows; bands: lo and hi rows */
	int lo_last, hi_last;
	bool has;
};

/* Draw what the run holds and empty it. */
static void run_flush(const struct canvas *cv, struct run *r)
{
	if (r->has)
		dot_vline(cv, r->col, r->rmin, r->rmax);
	r->has = false;
}

/* Add dot (c, rw); joined: draw the line from the previous point to it. */
static void run_add(const struct canvas *cv, struct run *r, int c, int rw,
		    bool joined)
{
	int pc, pr;
	bool had = r->has;

	if (had && joined && c == r->col) {
		if (rw < r->rmin)
			r->rmin = rw;
		if (rw > r->rmax)
			r->rmax = rw;
		r->rlast = rw;
		return;
	}
	pc = r->col;
	pr = r->rlast;
	run_flush(cv, r);
	if (had && joined)
		dot_line(cv, pc, pr, c, rw);
	r->has = true;
	r->col = c;
	r->rmin = r->rmax = r->rlast = rw;
}

/*
 * Add the band's extent lo..hi (dot rows) at dot column c; joined: fill
 * the columns between the previous point and this one by interpolating,
 * so a band of few points is still continuous.
 */
static void band_add(const struct canvas *cv, struct run *r, int c, int lo,
		     int hi, bool joined)
{
	int k, n, dir, l0 = r->lo_last, h0 = r->hi_last;

	if (r->has && joined && c == r->col) {
		if (lo < r->rmin)
			r->rmin = lo;
		if (hi > r->rmax)
			r->rmax = hi;
		r->lo_last = lo;
		r->hi_last = hi;
		return;
	}
	n = abs(c - r->col);
	if (r->has && joined && n > 1) {
		dir = c > r->col ? 1 : -1;
		for (k = 1; k < n; k++)
			dot_vline(cv, r->col + dir * k,
				  l0 + (int)lround((double)k * (lo - l0) / n),
				  h0 + (int)lround((double)k * (hi - h0) / n));
	}
	run_flush(cv, r);
	r->has = true;
	r->col = c;
	r->rmin = r->lo_last = lo;
	r->rmax = r->hi_last = hi;
}

/* A point of a series, or of a band (lo..hi; lo == hi for a line). */
struct pt {
	double x, lo, hi;
};

/* The point a fraction t of the way from a to b. */
static struct pt pt_lerp(const struct pt *a, const struct pt *b, double t)
{
	return (struct pt){a->x + t * (b->x - a->x),
			   a->lo + t * (b->lo - a->lo),
			   a->hi + t * (b->hi - a->hi)};
}

/* Add point p to the run: its dots, and the join from the last when asked. */
static void trace_add(const struct canvas *cv, struct run *r,
		      const struct pt *p, bool joined)
{
	int c = dot_col(cv, p->x), lo = dot_row(cv, p->lo);

	if (cv->band)
		band_add(cv, r, c, lo, dot_row(cv, p->hi), joined);
	else
		run_add(cv, r, c, lo, joined);
}

/*
 * Draw a series (hi NULL: a line joining the points) or a band (filled
 * between lo and hi).  A NAN breaks it; a segment crossing the edge of
 * the x window is cut there, so only the visible part costs anything.
 */
static void trace_draw(const struct canvas *cv, const double *xs,
		       const double *lo, const double *hi, unsigned n)
{
	struct run run = {.has = false};
	struct pt p = {0, 0, 0}, q, a;
	bool have_prev = false, prev_in = false, in;
	double t0, t1, tmp;
	unsigned i;

	for (i = 0; i < n; i++) {
		q.x = xs ? xs[i] : (double)i;
		q.lo = lo[i];
		q.hi = hi ? hi[i] : lo[i];
		if (!isfinite(q.x) || !isfinite(q.lo) || !isfinite(q.hi)) {
			run_flush(cv, &run);
			have_prev = false;
			continue;
		}
		if (q.lo > q.hi) {
			tmp = q.lo;
			q.lo = q.hi;
			q.hi = tmp;
		}
		in = q.x >= cv->xmin && q.x <= cv->xmax;
		if (have_prev && !(prev_in && in)) {
			if (clip_t(cv->xmin, cv->xmax, p.x, q.x, &t0, &t1)) {
				if (!prev_in) {
					a = pt_lerp(&p, &q, t0);
					trace_add(cv, &run, &a, false);
				}
				a = pt_lerp(&p, &q, t1);
				trace_add(cv, &run, &a, true);
			}
		} else if (in) {
			trace_add(cv, &run, &q, have_prev);
		}
		p = q;
		have_prev = true;
		prev_in = in;
	}
	run_flush(cv, &run);
}

/* Widen [lo, hi] (x data range) into the x scale, the options first. */
static void x_scale(const struct plot_opts *o, double lo, double hi,
		    double *xmin, double *xmax)
{
	*xmin = o ? o->xmin : NAN;
	*xmax = o ? o->xmax : NAN;
	if (lo > hi) {
		lo = 0;
		hi = 1;
	}
	if (!isfinite(*xmin))
		*xmin = lo;
	if (!isfinite(*xmax))
		*xmax = hi > *xmin ? hi : *xmin + 1;
	if (!(*xmax > *xmin))
		*xmax = *xmin + 1;
}

/*
 * The y scale from the data range [dmin, dmax] (empty when dmin > dmax):
 * the options where given; ymin the data minimum, or 0 with ymin_zero
 * (lower when data go below 0); ymax 5% above the data maximum, the span
 * rounded up to a nice number so labels read well.
 */
static void y_scale(const struct plot_opts *o, double dmin, double dmax,
		    double *ymin, double *ymax)
{
	bool auto_min = !o || !isfinite(o->ymin);
	double d;

	*ymin = o ? o->ymin : NAN;
	*ymax = o ? o->ymax : NAN;
	if (dmin > dmax)
		dmin = dmax = 0;
	if (auto_min)
		*ymin = o && o->ymin_zero ? fmin(0, dmin) : dmin;
	if (!isfinite(*ymax)) {
		if (dmax > *ymin) {
			*ymax = *ymin + units_axis_top((dmax - *ymin) * 1.05);
		} else if (auto_min && !(o && o->ymin_zero)) {
			/* A flat series: centre it. */
			d = dmin != 0 ? fabs(dmin) * 0.1 : 1;
			*ymin = dmin - d;
			*ymax = dmax + d;
		} else {
			*ymax = *ymin + (*ymin != 0 ? fabs(*ymin) : 1);
		}
	}
	if (!(*ymax > *ymin)) {
		if (auto_min)
			*ymin = *ymax - 1;
		else
			*ymax = *ymin + 1;
	}
}

/* Cells a UTF-8 string takes: one per code point. */
static int text_cells(const char *s)
{
	int n = 0;

	for (; s && *s; s++)
		if ((*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* Seconds for the x axis: "12s", "2.5s", "-60s". */
static void secs_fmt(double v, char *buf, size_t len)
{
	double r = round(v);

	if (fabs(v) < 100 && fabs(v - r) >= 0.05) {
		r = round(v * 10) / 10;
		if (r == 0)
			r = 0;
		snprintf(buf, len, "%.1fs", r);
		return;
	}
	if (r == 0)
		r = 0; /* no "-0s" */
	snprintf(buf, len, "%.0fs", r);
}

/*
 * Lay out (x, y, w, h): ylabel_w cells of labels at the left (the last
 * of them the axis line), an x-axis row at the bottom when asked, the
 * rest dots.  False when no dot area is left.
 */
static bool canvas_layout(struct canvas *cv, struct grid *g, int x, int y,
			  int w, int h, const struct plot_opts *o, int *lw,
			  bool *xaxis)
{
	*lw = o ? o->ylabel_w : 0;
	if (*lw < 0)
		*lw = 0;
	if (*lw > w - 1)
		*lw = w - 1;
	*xaxis = o && o->xaxis && h >= 2;
	memset(cv, 0, sizeof(*cv));
	cv->g = g;
	cv->utf8 = g->utf8;
	cv->px = x + *lw;
	cv->py = y;
	cv->pw = w - *lw;
	cv->ph = h - (*xaxis ? 1 : 0);
	if (cv->pw < 1 || cv->ph < 1)
		return false;
	cv->cols = cv->utf8 ? 2 * cv->pw : cv->pw;
	cv->rows = cv->utf8 ? 4 * cv->ph : ASCII_LEVELS * cv->ph;
	return true;
}

/* Fix the canvas's scale: dots per unit on both axes. */
static void canvas_scale(struct canvas *cv, double xmin, double xmax,
			 double ymin, double ymax)
{
	cv->xmin = xmin;
	cv->xmax = xmax;
	cv->ymin = ymin;
	cv->ymax = ymax;
	cv->sx = (cv->cols - 1) / (xmax - xmin);
	cv->sy = (cv->rows - 1) / (ymax - ymin);
}

/* Right-align s in the w cells from x (cut at the left edge when longer). */
static void text_right(struct grid *g, int x, int y, int w, const char *s,
		       enum style st)
{
	int n = text_cells(s);

	grid_text(g, n < w ? x + w - n : x, y, s, st, w);
}

/*
 * The axes: y labels (top: ymax with its unit, bottom: ymin) right-aligned
 * before an axis line, and the x-axis row with the seconds at both ends.
 */
static void axes_draw(const struct canvas *cv, int x, int lw, bool xaxis,
		      const struct plot_opts *o)
{
	struct grid *g = cv->g;
	int tw = lw - 1, j, ay = cv->py + cv->ph;
	char num[32], lab[96], right[32];
	const char *unit = o && o->yunit ? o->yunit : "";

	if (lw > 0) {
		grid_fill(g, x, cv->py, tw, cv->ph, " ", STY_NORMAL);
		for (j = 0; j < cv->ph; j++)
			grid_text(g, x + tw, cv->py + j,
				  j == 0 || j == cv->ph - 1
				      ? (g->utf8 ? "┤" : "+")
				      : (g->utf8 ? "│" : "|"),
				  STY_AXIS, 1);
		plot_si(cv->ymax, num, sizeof(num));
		snprintf(lab, sizeof(lab), "%s%s", num, unit);
		text_right(g, x, cv->py, tw, text_cells(lab) <= tw ? lab : num,
			   STY_AXIS);
		if (cv->ph >= 2)
			text_right(g, x, cv->py + cv->ph - 1, tw,
				   plot_si(cv->ymin, num, sizeof(num)),
				   STY_AXIS);
	}
	if (!xaxis)
		return;
	if (lw > 0) {
		grid_fill(g, x, ay, tw, 1, " ", STY_NORMAL);
		grid_text(g, x + tw, ay, g->utf8 ? "└" : "+", STY_AXIS, 1);
	}
	grid_fill(g, cv->px, ay, cv->pw, 1, g->utf8 ? "─" : "-", STY_AXIS);
	secs_fmt(cv->xmin, lab, sizeof(lab));
	secs_fmt(cv->xmax, right, sizeof(right));
	if (text_cells(lab) + 1 + text_cells(right) <= cv->pw)
		grid_text(g, cv->px, ay, lab, STY_AXIS, 0);
	text_right(g, cv->px, ay, cv->pw, right, STY_AXIS);
}

void plot_lines(struct grid *g, int x, int y, int w, int h,
		const struct plot_series *s, unsigned ns,
		const struct plot_opts *o, double *ymin_out, double *ymax_out)
{
	double xlo = INFINITY, xhi = -INFINITY, dmin = INFINITY,
	       dmax = -INFINITY;
	double xmin, xmax, ymin, ymax, xv, yv;
	struct canvas cv;
	unsigned k, i;
	bool xaxis;
	int lw;

	for (k = 0; k < ns; k++)
		for (i = 0; i < s[k].n; i++) {
			xv = s[k].x ? s[k].x[i] : (double)i;
			if (isfinite(xv)) {
				xlo = fmin(xlo, xv);
				xhi = fmax(xhi, xv);
			}
		}
	x_scale(o, xlo, xhi, &xmin, &xmax);
	for (k = 0; k < ns; k++)
		for (i = 0; i < s[k].n; i++) {
			xv = s[k].x ? s[k].x[i] : (double)i;
			yv = s[k].y[i];
			if (isfinite(yv) && xv >= xmin && xv <= xmax) {
				dmin = fmin(dmin, yv);
				dmax = fmax(dmax, yv);
			}
		}
	y_scale(o, dmin, dmax, &ymin, &ymax);
	if (ymin_out)
		*ymin_out = ymin;
	if (ymax_out)
		*ymax_out = ymax;
	if (!canvas_layout(&cv, g, x, y, w, h, o, &lw, &xaxis))
		return;
	canvas_scale(&cv, xmin, xmax, ymin, ymax);
	axes_draw(&cv, x, lw, xaxis, o);
	for (k = 0; k < ns; k++) {
		cv.st = s[k].style;
		trace_draw(&cv, s[k].x, s[k].y, NULL, s[k].n);
	}
}

bool plot_cell(struct grid *g, int x, int y, int w, int h, const struct plot_opts *o,
	       double ymin, double ymax, double xv, double yv, int *cx, int *cy)
{
	struct canvas cv;
	bool xaxis;
	int lw, c, r, rt;

	if (!canvas_layout(&cv, g, x, y, w, h, o, &lw, &xaxis) || !isfinite(xv) ||
	    !isfinite(yv) || !(o->xmax > o->xmin) || !(ymax > ymin) || xv < o->xmin ||
	    xv > o->xmax)
		return false;
	canvas_scale(&cv, o->xmin, o->xmax, ymin, ymax);
	c = dot_col(&cv, xv);
	r = dot_row(&cv, yv);
	rt = cv.rows - 1 - r;
	*cx = cv.px + (cv.utf8 ? c >> 1 : c);
	*cy = cv.py + (cv.utf8 ? rt >> 2 : rt / ASCII_LEVELS);
	return true;
}

void plot_band(struct grid *g, int x, int y, int w, int h, const double *xs,
	       const double *lo, const double *hi, unsigned n, enum style st,
	       const struct plot_opts *o)
{
	double xlo = INFINITY, xhi = -INFINITY, dmin = INFINITY,
	       dmax = -INFINITY;
	double xmin, xmax, ymin, ymax, xv;
	struct canvas cv;
	bool xaxis;
	unsigned i;
	int lw;

	for (i = 0; i < n; i++) {
		xv = xs ? xs[i] : (double)i;
		if (isfinite(xv)) {
			xlo = fmin(xlo, xv);
			xhi = fmax(xhi, xv);
		}
	}
	x_scale(o, xlo, xhi, &xmin, &xmax);
	for (i = 0; i < n; i++) {
		xv = xs ? xs[i] : (double)i;
		if (!(xv >= xmin && xv <= xmax) || !isfinite(lo[i]) ||
		    !isfinite(hi[i]))
			continue;
		dmin = fmin(dmin, fmin(lo[i], hi[i]));
		dmax = fmax(dmax, fmax(lo[i], hi[i]));
	}
	y_scale(o, dmin, dmax, &ymin, &ymax);
	if (!canvas_layout(&cv, g, x, y, w, h, o, &lw, &xaxis))
		return;
	canvas_scale(&cv, xmin, xmax, ymin, ymax);
	axes_draw(&cv, x, lw, xaxis, o);
	cv.st = st;
	cv.band = true;
	trace_draw(&cv, xs, lo, hi, n);
}

/*
 * Bars: the label right-aligned in label_w cells, a space, the bar, a
 * space and the note.  Room for the longest note is kept at the right
 * so every bar has the same scale; a value above zero always shows at
 * least its smallest step, so a tiny count is not mistaken for none.
 */
void plot_hbars(struct grid *g, int x, int y, int w, int h,
		const struct plot_bar *b, unsigned n, int label_w, double max)
{
	unsigned i, rows = h > 0 && n > (unsigned)h ? (unsigned)h : n;
	int note_w = 0, gap, bar_w, bx, yy, steps, full, rem, j;
	char part[4] = {(char)0xe2, (char)0x96, 0, 0};
	double v, f;

	if (w <= 0 || h <= 0)
		return;
	if (label_w < 0)
		label_w = 0;
	if (label_w > w)
		label_w = w;
	if (!(max > 0) || !isfinite(max)) {
		max = 0;
		for (i = 0; i < n; i++)
			if (isfinite(b[i].value) && b[i].value > max)
				max = b[i].value;
	}
	for (i = 0; i < rows; i++)
		if (b[i].note && text_cells(b[i].note) > note_w)
			note_w = text_cells(b[i].note);
	gap = label_w > 0 ? 1 : 0;
	bar_w = w - label_w - gap - (note_w ? note_w + 1 : 0);
	if (bar_w < 1) {
		note_w = 0;
		bar_w = w - label_w - gap;
	}
	for (i = 0; i < rows; i++) {
		yy = y + (int)i;
		grid_fill(g, x, yy, w, 1, " ", STY_NORMAL);
		if (label_w > 0 && b[i].label)
			text_right(g, x, yy, label_w, b[i].label, STY_NORMAL);
		bx = x + label_w + gap;
		full = rem = 0;
		v = b[i].value;
		if (bar_w > 0 && max > 0 && v > 0) {
			f = v >= max ? 1 : v / max;
			steps = (int)lround(f * bar_w * (g->utf8 ? 8 : 1));
			if (steps < 1)
				steps = 1;
			full = g->utf8 ? steps / 8 : steps;
			rem = g->utf8 ? steps % 8 : 0;
		}
		for (j = 0; j < full; j++)
			grid_text(g, bx + j, yy, g->utf8 ? "█" : "#",
				  b[i].style, 1);
		if (rem) {
			/* U+258F is 1/8 of a cell .. U+2589 7/8. */
			part[2] = (char)(0x90 - rem);
			grid_text(g, bx + full, yy, part, b[i].style, 1);
		}
		if (note_w && b[i].note)
			grid_text(g, bx + full + (rem ? 1 : 0) + 1, yy,
				  b[i].note, STY_DIM, note_w);
	}
}

/*
 * The newest value at the right end; the height from 0 (or the lowest
 * value when below 0) to the highest value shown; NAN is a blank.
 */
void plot_spark(struct grid *g, int x, int y, int w, const double *v,
		unsigned n, enum style st)
{
	static const char ascii[] = "_.-^";
	char ch[4] = {(char)0xe2, (char)0x96, 0, 0};
	double lo = 0, hi = -INFINITY, f;
	unsigned m, first, k;
	int pad, level;

	if (w <= 0)
		return;
	m = n < (unsigned)w ? n : (unsigned)w;
	first = n - m;
	for (k = first; k < n; k++)
		if (isfinite(v[k])) {
			lo = fmin(lo, v[k]);
			hi = fmax(hi, v[k]);
		}
	pad = w - (int)m;
	grid_fill(g, x, y, pad, 1, " ", st);
	for (k = 0; k < m; k++) {
		if (!isfinite(v[first + k])) {
			grid_text(g, x + pad + (int)k, y, " ", st, 1);
			continue;
		}
		f = hi > lo ? (v[first + k] - lo) / (hi - lo) : 0;
		if (g->utf8) {
			level = (int)lround(f * 7);
			ch[2] = (char)(0x81 + level); /* U+2581 .. U+2588 */
			grid_text(g, x + pad + (int)k, y, ch, st, 1);
		} else {
			level = (int)lround(f * 3);
			grid_text(g, x + pad + (int)k, y,
				  (char[2]){ascii[level], 0}, st, 1);
		}
	}
}

/*
 * Three significant digits, trailing zeros cut, and an SI prefix:
 * "980", "12.3k", "1.21M", "3.4G", "-5k", "0.25", "12.3m", "n/a" for NAN.
 */
const char *plot_si(double v, char *buf, unsigned len)
{
	static const char up[] = "kMGTPE", down[] = "munpfa";
	double a = fabs(v), s, p, r;
	int k = 0, dec;
	char sfx[2] = "", *dot, *end, *z;

	if (!len)
		return buf;
	if (isnan(v)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, len, v < 0 ? "-inf" : "inf");
		return buf;
	}
	if (a == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	if (a >= 1e21 || a < 1e-18) {
		snprintf(buf, len, "%.2g", v);
		return buf;
	}
	if (a >= 0.09995 && a < 1) { /* "0.25" reads better than "250m" */
		snprintf(buf, len, "%.3g", v);
		return buf;
	}
	s = a;
	while (s >= 1000 && k < 6) {
		s /= 1000;
		k++;
	}
	while (s < 1 && k > -6) {
		s *= 1000;
		k--;
	}
	dec = s >= 100 ? 0 : s >= 10 ? 1 : 2;
	p = pow(10, dec);
	r = round(s * p); /* what %.*f will print, times p */
	if (r >= 1000 * p && k < 6) {
		s /= 1000; /* 999.7 -> "1k", not "1000" */
		k++;
		dec = 2;
	} else if (r >= 100 * p && dec == 1) {
		dec = 0; /* 99.96 -> "100" */
	} else if (r >= 10 * p && dec == 2) {
		dec = 1; /* 9.996 -> "10" */
	}
	if (k > 0)
		sfx[0] = up[k - 1];
	else if (k < 0)
		sfx[0] = down[-k - 1];
	snprintf(buf, len, "%s%.*f%s", v < 0 ? "-" : "", dec, s, sfx);
	/* Cut the fraction's trailing zeros: "1.50k" -> "1.5k". */
	dot = strchr(buf, '.');
	if (dot) {
		end = dot + strlen(dot);
		while (end > dot && (end[-1] < '0' || end[-1] > '9'))
			end--; /* back over the suffix */
		z = end;
		while (z > dot + 1 && z[-1] == '0')
			z--;
		if (z == dot + 1)
			z = dot;
		memmove(z, end, strlen(end) + 1);
	}
	return buf;
}
