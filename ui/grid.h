/* SPDX-License-Identifier: GPL-2.0-or-later */
/* grid.h - a character grid panels draw into, in plain C: no terminal needed. */
#ifndef TT_GRID_H
#define TT_GRID_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Semantic styles: term.c maps each to colours and attributes for 256, 8
 * or no colours.  Panels and plots name what a cell is, never a colour.
 */
enum style {
	STY_NORMAL,
	STY_DIM,		/* secondary text, units */
	STY_TITLE,		/* a panel's title */
	STY_TITLE_FOCUS,	/* the focused panel's title */
	STY_AXIS,		/* plot axes and their labels */
	STY_MAIN,		/* the run's own series */
	STY_GHOST,		/* the previous run or the baseline, faint */
	STY_BAND,		/* p50..p99 latency band */
	STY_LOCAL,		/* local end's series */
	STY_REMOTE,		/* remote end's series */
	STY_MSS,		/* segments of exactly the MSS, MSS marks */
	STY_SUPER,		/* super-segments */
	STY_GOOD,		/* a verdict or state that is fine */
	STY_WARN,		/* drops, failures, n/a reasons that matter */
	STY_CHANGED,		/* a knob changed from its original */
	STY_PENDING,		/* a knob edit not applied yet */
	STY_SELECTED,		/* the cursor row */
	STY_COUNT
};

/* One cell: a UTF-8 character (or ASCII), NUL-terminated, and its style. */
struct cell {
	char ch[5];
	uint8_t style;
};

struct grid {
	int w, h;
	struct cell *c;		/* w * h cells, row by row */
	bool utf8;		/* braille and block characters allowed */
};

/* A blank grid of w x h (spaces, STY_NORMAL).  0 or -ENOMEM. */
int grid_init(struct grid *g, int w, int h, bool utf8);
/* Resize to w x h, blank.  0 or -ENOMEM (then g is unchanged). */
int grid_resize(struct grid *g, int w, int h);
void grid_free(struct grid *g);
/* Every cell a space in STY_NORMAL. */
void grid_clear(struct grid *g);
/* The cell at x, y, or NULL outside the grid. */
struct cell *grid_at(struct grid *g, int x, int y);
/*
 * Write UTF-8 text from x, y on one row, one cell per character, clipped
 * at the right edge (and at max cells when max > 0).  Returns the cells
 * written.  Bytes that are not valid UTF-8 become '?'.
 */
int grid_text(struct grid *g, int x, int y, const char *s, enum style st, int max);
/* printf into the grid; the same clipping.  Returns the cells written. */
int grid_printf(struct grid *g, int x, int y, enum style st, int max,
		const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/*
 * Text in at most w cells from x, y: nothing when w <= 0 (where
 * grid_text's 0 would mean "no limit").  For layouts that compute widths.
 */
int grid_put(struct grid *g, int x, int y, int w, enum style st, const char *s);
/*
 * s in lines of at most w cells broken at spaces (a word wider than w
 * broken at w), from x, y: the first skip lines not drawn, then at most
 * rows lines (rows <= 0: none).  Returns the lines s takes in all.
 */
int grid_wrap(struct grid *g, int x, int y, int w, int skip, int rows, enum style st,
	      const char *s);
/* printf flavour of grid_put. */
int grid_putf(struct grid *g, int x, int y, int w, enum style st, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Fill a rectangle with one character. */
void grid_fill(struct grid *g, int x, int y, int w, int h, const char *ch, enum style st);
/* A box border (UTF-8 light lines, or +-| in ASCII) with a title in its top edge. */
void grid_box(struct grid *g, int x, int y, int w, int h, const char *title, enum style title_st);
/* Row y as plain text (for tests): the cells' characters, trailing spaces cut. */
int grid_row_text(const struct grid *g, int y, char *buf, unsigned len);
/* True when the two grids differ anywhere (size, a character or a style). */
bool grid_differs(const struct grid *a, const struct grid *b);

#endif
