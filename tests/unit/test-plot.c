// SPDX-License-Identifier: GPL-2.0-or-later
/* test-plot.c - the cell grid (UTF-8, boxes, diffs) and plots drawn into it. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "grid.h"
#include "plot.h"
#include "tap.h"

/* The braille dot bits of a cell, or -1 when it is not a braille character. */
static int braille(const struct cell *c)
{
	const unsigned char *s = (const unsigned char *)c->ch;

	if (s[0] != 0xe2 || (s[1] & 0xfc) != 0xa0 || s[3])
		return -1;
	return (s[1] & 3) << 6 | (s[2] & 0x3f);
}

/* The UTF-8 bytes of code point cp (below U+10000). */
static const char *utf8_of(unsigned cp)
{
	static char buf[4][5];
	static unsigned k;
	char *b = buf[k++ % 4];

	memset(b, 0, 5);
	if (cp < 0x80) {
		b[0] = (char)cp;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
	} else {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
	}
	return b;
}

static bool blank(const struct cell *c)
{
	return !strcmp(c->ch, " ");
}

/* Dot rows (from the bottom) set in dot column dc of a braille area. */
static void dot_extent(struct grid *g, int dc, int *lo, int *hi)
{
	static const int bit[2][4] = {{0x01, 0x02, 0x04, 0x40},
				      {0x08, 0x10, 0x20, 0x80}};
	int rows = 4 * g->h, r, rt, b;

	*lo = rows;
	*hi = -1;
	for (r = 0; r < rows; r++) {
		rt = rows - 1 - r;
		b = braille(grid_at(g, dc / 2, rt / 4));
		if (b > 0 && (b & bit[dc & 1][rt & 3])) {
			if (r < *lo)
				*lo = r;
			*hi = r;
		}
	}
}

/* True when every byte of every cell is ASCII. */
static bool all_ascii(const struct grid *g)
{
	int i, j;

	for (i = 0; i < g->w * g->h; i++)
		for (j = 0; g->c[i].ch[j]; j++)
			if ((unsigned char)g->c[i].ch[j] >= 0x80)
				return false;
	return true;
}

static void test_grid_text(void)
{
	struct grid g;
	char row[128];
	int n;

	ok(grid_init(&g, 8, 2, true) == 0, "grid_init makes an 8 x 2 grid");
	ok(blank(grid_at(&g, 7, 1)) && grid_at(&g, 7, 1)->style == STY_NORMAL,
	   "a new grid is blank in STY_NORMAL");
	ok(grid_at(&g, 8, 0) == NULL && grid_at(&g, -1, 0) == NULL &&
	       grid_at(&g, 0, 2) == NULL,
	   "grid_at outside the grid is NULL");

	n = grid_text(&g, 0, 0,
		      "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"
		      "b",
		      STY_TITLE, 0);
	ok(n == 5, "five code points take five cells (got %d)", n);
	ok(!strcmp(grid_at(&g, 1, 0)->ch, "\xc3\xa9") &&
	       !strcmp(grid_at(&g, 2, 0)->ch, "\xe2\x82\xac") &&
	       !strcmp(grid_at(&g, 3, 0)->ch, "\xf0\x9f\x98\x80") &&
	       !strcmp(grid_at(&g, 4, 0)->ch, "b"),
	   "2-, 3- and 4-byte characters land whole in one cell each");
	ok(grid_at(&g, 3, 0)->style == STY_TITLE,
	   "written cells take the style");

	grid_clear(&g);
	n = grid_text(&g, 5, 0, "abcdef", STY_NORMAL, 0);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(n == 3 && !strcmp(row, "     ab\xe2\x80\xa6"),
	   "text is clipped at the right edge, an ellipsis saying so (%d, '%s')", n, row);
	n = grid_text(&g, 6, 1, "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac",
		      STY_NORMAL, 0);
	grid_row_text(&g, 1, row, sizeof(row));
	ok(n == 2 && !strcmp(row, "      \xe2\x82\xac\xe2\x80\xa6"),
	   "multi-byte text is clipped by cells, not bytes ('%s')", row);

	grid_clear(&g);
	n = grid_text(&g, 0, 0, "abcdef", STY_NORMAL, 3);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(n == 3 && !strcmp(row, "ab\xe2\x80\xa6"),
	   "max cuts the text at max cells ('%s')", row);
	grid_clear(&g);
	grid_resize(&g, 40, 2);
	grid_text(&g, 0, 0, "coalescing not supported (Operation not supported)", STY_NORMAL, 28);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strcmp(row, "coalescing not supported\xe2\x80\xa6"),
	   "a word is never cut: the words that fit, then an ellipsis ('%s')", row);
	grid_text(&g, 0, 1, "4096 131072 33554432", STY_NORMAL, 15);
	grid_row_text(&g, 1, row, sizeof(row));
	ok(!strcmp(row, "4096 131072\xe2\x80\xa6"), "nor a figure ('%s')", row);
	grid_clear(&g);
	grid_text(&g, 0, 0, "gro: on", STY_NORMAL, 4);
	grid_text(&g, 0, 1, "ab   ", STY_NORMAL, 3);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strcmp(row, "gro\xe2\x80\xa6"), "a cut after a whole word still says so ('%s')", row);
	grid_row_text(&g, 1, row, sizeof(row));
	ok(!strcmp(row, "ab"), "only spaces left out is no cut ('%s')", row);
	grid_clear(&g);
	ok(grid_wrap(&g, 0, 0, 14, 1, 1, STY_NORMAL, "not supported (Operation not supported)") == 3,
	   "grid_wrap: a reason in lines of whole words");
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strcmp(row, "(Operation not"), "grid_wrap: skip lines and rows drawn ('%s')", row);
	grid_row_text(&g, 1, row, sizeof(row));
	ok(!row[0], "grid_wrap: no more than rows lines ('%s')", row);
	grid_resize(&g, 8, 2);
	n = grid_text(&g, -2, 1, "abcd", STY_NORMAL, 0);
	grid_row_text(&g, 1, row, sizeof(row));
	ok(n == 2 && !strcmp(row, "cd"),
	   "text starting left of the grid is clipped there ('%s')", row);
	ok(grid_text(&g, 0, 5, "x", STY_NORMAL, 0) == 0,
	   "a row outside the grid writes nothing");

	grid_clear(&g);
	grid_text(&g, 0, 0,
		  "a\xff"
		  "b\x80"
		  "c",
		  STY_NORMAL, 0);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strcmp(row, "a?b?c"), "stray bytes become '?' ('%s')", row);
	grid_clear(&g);
	grid_text(&g, 0, 0,
		  "\xe2\x82"
		  "A\xc0\xaf"
		  "B\xe2",
		  STY_NORMAL, 0);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strcmp(row, "?A??B?"),
	   "cut-short and overlong sequences become '?' ('%s')", row);
	grid_clear(&g);
	grid_text(&g, 0, 0,
		  "\xed\xa0\x80"
		  "\x1b[m",
		  STY_NORMAL, 0);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strcmp(row, "????[m"),
	   "surrogates and control characters become '?' ('%s')", row);
	grid_free(&g);

	grid_init(&g, 4, 1, false);
	grid_text(&g, 0, 0, "a\xc3\xa9z", STY_NORMAL, 0);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strcmp(row, "a?z"),
	   "an ASCII grid takes no UTF-8: non-ASCII is '?' ('%s')", row);
	grid_free(&g);
}

static void test_grid_misc(void)
{
	struct grid g, h;
	char row[700], big[650];
	int n;

	grid_init(&g, 700, 2, true);
	memset(big, 'x', 600);
	big[600] = '\0';
	n = grid_printf(&g, 0, 0, STY_NORMAL, 0, "%s%d", big, 42);
	ok(n == 602,
	   "grid_printf writes text longer than its stack buffer whole (%d)",
	   n);
	n = grid_printf(&g, 0, 1, STY_DIM, 4, "%d%%", 12345);
	grid_row_text(&g, 1, row, sizeof(row));
	ok(n == 4 && !strcmp(row, "123\xe2\x80\xa6"), "grid_printf clips at max ('%s')",
	   row);
	grid_free(&g);

	grid_init(&g, 5, 3, true);
	grid_fill(&g, 3, 1, 10, 10, "\xe2\x96\x88", STY_MAIN);
	ok(!strcmp(grid_at(&g, 4, 2)->ch, "\xe2\x96\x88") &&
	       grid_at(&g, 4, 2)->style == STY_MAIN &&
	       blank(grid_at(&g, 2, 1)) && blank(grid_at(&g, 3, 0)),
	   "grid_fill fills its rectangle, clipped to the grid");

	grid_text(&g, 0, 0,
		  "a\xe2\x82\xac"
		  "b",
		  STY_NORMAL, 0);
	n = grid_row_text(&g, 0, row, 4);
	ok(n == 1 && !strcmp(row, "a"),
	   "grid_row_text never cuts a character in half ('%s')", row);
	n = grid_row_text(&g, 0, row, sizeof(row));
	ok(n == 5 && !strcmp(row, "a\xe2\x82\xac"
				  "b"),
	   "grid_row_text returns the bytes written");
	ok(grid_row_text(&g, 3, row, sizeof(row)) < 0 && row[0] == '\0',
	   "grid_row_text of a row outside the grid fails with an empty "
	   "string");

	ok(grid_resize(&g, 3, 2) == 0 && g.w == 3 && g.h == 2 &&
	       blank(grid_at(&g, 0, 0)),
	   "grid_resize gives a blank grid of the new size");
	grid_free(&g);

	grid_init(&g, 6, 2, true);
	grid_init(&h, 6, 2, true);
	ok(!grid_differs(&g, &h), "two blank grids do not differ");
	grid_text(&h, 5, 1, "x", STY_NORMAL, 0);
	ok(grid_differs(&g, &h), "a changed character is a difference");
	grid_text(&g, 5, 1, "x", STY_NORMAL, 0);
	ok(!grid_differs(&g, &h),
	   "the same characters and styles are no difference");
	grid_text(&h, 5, 1, "x", STY_WARN, 0);
	ok(grid_differs(&g, &h), "a changed style alone is a difference");
	grid_resize(&h, 6, 3);
	grid_resize(&g, 6, 2);
	ok(grid_differs(&g, &h), "a different size is a difference");
	grid_free(&g);
	grid_free(&h);
}

static void test_grid_box(void)
{
	struct grid g;
	char row[128];

	grid_init(&g, 10, 3, true);
	grid_box(&g, 0, 0, 10, 3, "ab", STY_TITLE_FOCUS);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strcmp(row, "┌ ab ────┐"),
	   "UTF-8 box: top edge with the title ('%s')", row);
	grid_row_text(&g, 1, row, sizeof(row));
	ok(!strcmp(row, "│        │"), "UTF-8 box: sides ('%s')", row);
	grid_row_text(&g, 2, row, sizeof(row));
	ok(!strcmp(row, "└────────┘"), "UTF-8 box: bottom edge ('%s')", row);
	ok(grid_at(&g, 2, 0)->style == STY_TITLE_FOCUS &&
	       grid_at(&g, 1, 0)->style == STY_TITLE_FOCUS &&
	       grid_at(&g, 6, 0)->style != STY_TITLE_FOCUS,
	   "the title and its padding take the title style, the line does not");
	grid_clear(&g);
	grid_box(&g, 0, 0, 6, 3, "abcdef", STY_TITLE);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strcmp(row, "┌ a\xe2\x80\xa6 ┐"),
	   "a long title is cut to fit between the corners ('%s')", row);
	grid_free(&g);

	grid_init(&g, 10, 3, false);
	grid_box(&g, 0, 0, 10, 3, "ab", STY_TITLE);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strcmp(row, "+ ab ----+"),
	   "ASCII box: top edge with the title ('%s')", row);
	grid_row_text(&g, 1, row, sizeof(row));
	ok(!strcmp(row, "|        |"), "ASCII box: sides ('%s')", row);
	grid_row_text(&g, 2, row, sizeof(row));
	ok(!strcmp(row, "+--------+"), "ASCII box: bottom edge ('%s')", row);
	ok(all_ascii(&g), "ASCII box is ASCII only");
	grid_clear(&g);
	grid_box(&g, 6, 1, 10, 5, "title", STY_TITLE);
	grid_row_text(&g, 1, row, sizeof(row));
	ok(!strcmp(row, "      + t~"),
	   "a box partly outside the grid is clipped ('%s')", row);
	grid_free(&g);
}

static void test_lines_basic(void)
{
	struct grid g;
	double xs[40], ys[40], ymin, ymax;
	struct plot_opts o = {.xmin = NAN, .xmax = NAN, .ymin = 0, .ymax = 10};
	struct plot_series s = {xs, ys, 10, STY_MAIN};
	bool row_ok = true, rest_blank = true, monotonic = true,
	     connected = true;
	int i, j, lo, hi, plo = -1, phi = -1;

	/* A flat line at 2.5 of 0..10 on 5 rows: dot row round(0.25 * 19) = 5,
	 * cell row 3. */
	grid_init(&g, 10, 5, true);
	for (i = 0; i < 10; i++) {
		xs[i] = i;
		ys[i] = 2.5;
	}
	plot_lines(&g, 0, 0, 10, 5, &s, 1, &o, &ymin, &ymax);
	for (i = 0; i < 10; i++)
		for (j = 0; j < 5; j++) {
			if (j == 3)
				row_ok &= braille(grid_at(&g, i, j)) == 0x24 &&
					  grid_at(&g, i, j)->style == STY_MAIN;
			else
				rest_blank &= blank(grid_at(&g, i, j));
		}
	ok(row_ok,
	   "a flat line is one row of dots (U+2824) on the expected cell row");
	ok(rest_blank, "a flat line leaves every other row blank");
	ok(ymin == 0 && ymax == 10,
	   "given ymin/ymax are the scale used (%g..%g)", ymin, ymax);

	/* A rising line: its dot columns climb and touch, no gaps. */
	grid_clear(&g);
	for (i = 0; i < 7; i++) {
		xs[i] = i * 3;
		ys[i] = i * i;
	}
	s.n = 7;
	o.ymin = o.ymax = NAN;
	o.ymin_zero = true;
	plot_lines(&g, 0, 0, 10, 5, &s, 1, &o, &ymin, &ymax);
	for (i = 0; i < 20; i++) {
		dot_extent(&g, i, &lo, &hi);
		if (hi < 0) {
			connected = false;
			continue;
		}
		if (plo >= 0 && (lo < plo || hi < phi))
			monotonic = false;
		if (plo >= 0 && lo > phi + 1)
			connected = false;
		plo = lo;
		phi = hi;
	}
	ok(monotonic,
	   "a rising series rises monotonically across the dot columns");
	ok(connected, "consecutive points are joined: every dot column has "
		      "dots, touching the last");
	dot_extent(&g, 0, &lo, &hi);
	ok(lo == 0,
	   "the first point (0) is on the bottom dot row with ymin_zero");
	dot_extent(&g, 19, &lo, &hi);
	ok(ymin == 0 && ymax >= 36 && ymax <= 36 * 1.5 && hi < 19,
	   "auto scale: 0..a bit above the maximum (%g), so the top point is "
	   "below the top",
	   ymax);
	grid_free(&g);
}

static void test_lines_braille(void)
{
	struct grid g;
	double xs[] = {0, 1, 2, 3}, ys[] = {0, 1, 2, 3};
	double x2[] = {0, 3}, y2[] = {0, 3};
	double x3[] = {0, 0.1, 0.2, 1}, y3[] = {0, 3, 0, 0};
	struct plot_opts o = {.xmin = NAN, .xmax = NAN, .ymin = 0, .ymax = 3};
	struct plot_series s = {xs, ys, 4, STY_MAIN};
	int b0, b1;

	/* 2 x 1 cells = 4 x 4 dots; point i at dot (i, i) from bottom left. */
	grid_init(&g, 2, 1, true);
	plot_lines(&g, 0, 0, 2, 1, &s, 1, &o, NULL, NULL);
	b0 = braille(grid_at(&g, 0, 0));
	b1 = braille(grid_at(&g, 1, 0));
	ok(b0 == 0x60 && b1 == 0x0a &&
	       !strcmp(grid_at(&g, 0, 0)->ch, utf8_of(0x2860)) &&
	       !strcmp(grid_at(&g, 1, 0)->ch, utf8_of(0x280a)),
	   "4 points on 2 x 1 cells: U+2860 U+280A exactly (got %#x %#x)", b0,
	   b1);

	grid_clear(&g);
	s.x = x2;
	s.y = y2;
	s.n = 2;
	plot_lines(&g, 0, 0, 2, 1, &s, 1, &o, NULL, NULL);
	ok(braille(grid_at(&g, 0, 0)) == 0x60 &&
	       braille(grid_at(&g, 1, 0)) == 0x0a,
	   "2 points are joined by the line's dots in between (same cells as 4 "
	   "points)");
	grid_free(&g);

	/* Points sharing a dot column show their whole vertical extent. */
	grid_init(&g, 1, 1, true);
	s.x = x3;
	s.y = y3;
	s.n = 4;
	plot_lines(&g, 0, 0, 1, 1, &s, 1, &o, NULL, NULL);
	b0 = braille(grid_at(&g, 0, 0));
	ok(b0 == 0xc7,
	   "points in one dot column draw its full extent: U+28C7 (got %#x)",
	   b0);
	grid_free(&g);
}

static void test_lines_gap_and_styles(void)
{
	struct grid g;
	double xs[40], ys[40], yg[40], yl[40];
	struct plot_opts o = {.xmin = NAN, .xmax = NAN, .ymin = 0, .ymax = 10};
	struct plot_series s[2];
	bool gap_empty = true, others = true, all_main = true, all_ghost = true;
	int i, j, b;

	grid_init(&g, 20, 3, true);
	for (i = 0; i < 40; i++) {
		xs[i] = i;
		ys[i] = (i >= 16 && i < 24) ? NAN : 5;
	}
	s[0] = (struct plot_series){xs, ys, 40, STY_MAIN};
	plot_lines(&g, 0, 0, 20, 3, s, 1, &o, NULL, NULL);
	for (i = 0; i < 20; i++) {
		bool any = false;

		for (j = 0; j < 3; j++)
			any |= !blank(grid_at(&g, i, j));
		if (i >= 8 && i < 12)
			gap_empty &= !any;
		else
			others &= any;
	}
	ok(gap_empty,
	   "a run of NAN leaves its cells empty: the line is broken");
	ok(others, "the cells either side of the gap keep their dots");

	/* A NAN also breaks a segment that would enter from outside the window.
	 */
	{
		double ex[] = {5, 8, 20}, ey[] = {10, NAN, 0};
		struct plot_opts w = {
		    .xmin = 10, .xmax = 30, .ymin = 0, .ymax = 10};
		bool left_empty = true;

		grid_clear(&g);
		s[0] = (struct plot_series){ex, ey, 3, STY_MAIN};
		plot_lines(&g, 0, 0, 20, 3, s, 1, &w, NULL, NULL);
		for (i = 0; i < 10; i++)
			for (j = 0; j < 3; j++)
				left_empty &= blank(grid_at(&g, i, j));
		ok(left_empty && !blank(grid_at(&g, 10, 2)),
		   "a point before the window and a NAN draw nothing up to the "
		   "next point");
		ex[0] = 0;
		ey[0] = 0;
		ex[1] = 30;
		ey[1] = 10;
		s[0].n = 2;
		grid_clear(&g);
		plot_lines(&g, 0, 0, 20, 3, s, 1, &w, NULL, NULL);
		ok(!blank(grid_at(&g, 0, 1)) && !blank(grid_at(&g, 19, 0)),
		   "a segment entering the window is drawn from its left edge");
	}

	/* Ghost first, then main: shared cells show the main style. */
	grid_clear(&g);
	for (i = 0; i < 40; i++) {
		ys[i] = 5;
		yg[i] = 5;
	}
	s[0] = (struct plot_series){xs, yg, 40, STY_GHOST};
	s[1] = (struct plot_series){xs, ys, 40, STY_MAIN};
	plot_lines(&g, 0, 0, 20, 3, s, 2, &o, NULL, NULL);
	for (i = 0; i < 20; i++)
		for (j = 0; j < 3; j++)
			if (!blank(grid_at(&g, i, j)))
				all_main &=
				    grid_at(&g, i, j)->style == STY_MAIN;
	ok(all_main, "where ghost and main share cells, the main series (drawn "
		     "last) wins");
	grid_clear(&g);
	s[0].style = STY_MAIN;
	s[1].style = STY_GHOST;
	plot_lines(&g, 0, 0, 20, 3, s, 2, &o, NULL, NULL);
	for (i = 0; i < 20; i++)
		for (j = 0; j < 3; j++)
			if (!blank(grid_at(&g, i, j)))
				all_ghost &=
				    grid_at(&g, i, j)->style == STY_GHOST;
	ok(all_ghost,
	   "the last series drawn sets a shared cell's style, whatever it is");
	grid_free(&g);

	/* Two series in one cell: their dots are ORed. */
	grid_init(&g, 2, 1, true);
	for (i = 0; i < 4; i++) {
		yg[i] = 0;
		yl[i] = 3;
	}
	o.ymax = 3;
	s[0] = (struct plot_series){xs, yg, 4, STY_GHOST};
	s[1] = (struct plot_series){xs, yl, 4, STY_MAIN};
	plot_lines(&g, 0, 0, 2, 1, s, 2, &o, NULL, NULL);
	b = braille(grid_at(&g, 0, 0));
	ok(b == 0xc9 && grid_at(&g, 0, 0)->style == STY_MAIN,
	   "a cell shared by two series holds both series' dots (U+28C9, got "
	   "%#x)",
	   b);
	grid_free(&g);
}

static void test_lines_labels(void)
{
	struct grid g;
	double xs[61], ys[61], ymin, ymax;
	struct plot_opts o = {.xmin = NAN,
			      .xmax = NAN,
			      .ymin = 0,
			      .ymax = 12300,
			      .ylabel_w = 10,
			      .yunit = "b/s",
			      .xaxis = true};
	struct plot_series s = {xs, ys, 61, STY_MAIN};
	char row[256], lab[32];
	size_t n;
	int i;

	for (i = 0; i <= 60; i++) {
		xs[i] = i;
		ys[i] = 5000 + 100 * i;
	}
	grid_init(&g, 40, 6, true);
	plot_lines(&g, 0, 0, 40, 6, &s, 1, &o, &ymin, &ymax);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strncmp(row, " 12.3kb/s┤", strlen(" 12.3kb/s┤")),
	   "the top label is ymax with SI suffix and unit, right-aligned "
	   "('%s')",
	   row);
	ok(grid_at(&g, 1, 0)->style == STY_AXIS,
	   "labels are drawn in STY_AXIS");
	grid_row_text(&g, 4, row, sizeof(row));
	ok(!strncmp(row, "        0┤", strlen("        0┤")),
	   "the bottom label is ymin ('%s')", row);
	grid_row_text(&g, 2, row, sizeof(row));
	ok(!strncmp(row, "         │", strlen("         │")),
	   "rows between show the axis line");
	grid_row_text(&g, 5, row, sizeof(row));
	n = strlen(row);
	ok(!strncmp(row, "         └0s─", strlen("         └0s─")) && n > 3 &&
	       !strcmp(row + n - 3, "60s"),
	   "the x axis shows the seconds at both ends ('%s')", row);
	ok(!blank(grid_at(&g, 10, 2)) || !blank(grid_at(&g, 10, 1)) ||
	       !blank(grid_at(&g, 10, 3)),
	   "the series starts right after the label area");
	grid_free(&g);

	/* Narrow labels drop the unit rather than the number. */
	grid_init(&g, 30, 4, true);
	o.ylabel_w = 6;
	o.xaxis = false;
	plot_lines(&g, 0, 0, 30, 4, &s, 1, &o, NULL, NULL);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strncmp(row, "12.3k┤", strlen("12.3k┤")),
	   "a label too wide for its unit drops it ('%s')", row);

	/* Auto scale with ymin_zero: 0 .. a bit above the maximum. */
	grid_clear(&g);
	o.ymin = o.ymax = NAN;
	o.ymin_zero = true;
	o.ylabel_w = 10;
	plot_lines(&g, 0, 0, 30, 4, &s, 1, &o, &ymin, &ymax);
	ok(ymin == 0 && ymax > 11000 && ymax <= 11000 * 1.5,
	   "auto scale 0..%g for a 11000 maximum", ymax);
	plot_si(ymax, lab, sizeof(lab));
	strcat(lab, "b/s┤");
	grid_row_text(&g, 0, row, sizeof(row));
	ok(strstr(row, lab) != NULL,
	   "the top label names the scale's ymax ('%s' in '%s')", lab, row);

	/* Auto scale without ymin_zero hugs the data. */
	o.ymin_zero = false;
	for (i = 0; i <= 60; i++)
		ys[i] = 1000 + i / 6.0;
	plot_lines(&g, 0, 0, 30, 4, &s, 1, &o, &ymin, &ymax);
	ok(ymin == 1000 && ymax >= 1010 && ymax < 1030,
	   "auto scale %g..%g for data 1000..1010", ymin, ymax);

	/* A window narrower than the data: only the visible part scales. */
	o.xmin = 50;
	o.xmax = 60;
	for (i = 0; i <= 60; i++)
		ys[i] = i < 50 ? 1e9 : 10;
	plot_lines(&g, 0, 0, 30, 4, &s, 1, &o, &ymin, &ymax);
	ok(ymax < 100,
	   "points outside the x window do not set the y scale (ymax %g)",
	   ymax);
	grid_free(&g);
}

static void test_ascii_and_band(void)
{
	struct grid g;
	double xs[] = {0, 3}, lo[] = {2, 2}, hi[] = {8, 8}, ys[] = {0.5, 0.5};
	double sp[] = {1, 5, 2, 8};
	struct plot_opts o = {.xmin = NAN, .xmax = NAN, .ymin = 0, .ymax = 10};
	struct plot_series s = {xs, ys, 2, STY_MAIN};
	struct plot_bar b[] = {{"a\xc3\xa9", 3, STY_MAIN, "3 \xc2\xb5s"}};
	bool band_ok = true;
	int i, j, bits;
	char row[64];

	/* Band 2..8 of 0..10 on 5 rows: dot rows 4..15, cell rows 1..3 full. */
	grid_init(&g, 4, 5, true);
	plot_band(&g, 0, 0, 4, 5, xs, lo, hi, 2, STY_BAND, &o);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 5; j++) {
			bits = braille(grid_at(&g, i, j));
			if (j >= 1 && j <= 3)
				band_ok &= bits == 0xff &&
					   grid_at(&g, i, j)->style == STY_BAND;
			else
				band_ok &= blank(grid_at(&g, i, j));
		}
	ok(band_ok, "a band of two points fills every dot column between lo "
		    "and hi (U+28FF)");
	grid_free(&g);

	grid_init(&g, 4, 5, false);
	plot_band(&g, 0, 0, 4, 5, xs, lo, hi, 2, STY_BAND, &o);
	grid_row_text(&g, 2, row, sizeof(row));
	ok(!strcmp(row, "::::"), "an ASCII band is ':' ('%s')", row);
	grid_free(&g);

	grid_init(&g, 4, 1, false);
	o.ymax = 1;
	plot_lines(&g, 0, 0, 4, 1, &s, 1, &o, NULL, NULL);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strcmp(row, "----"), "ASCII: a line at mid height is '-' ('%s')",
	   row);
	ys[0] = 0;
	ys[1] = 1;
	grid_clear(&g);
	plot_lines(&g, 0, 0, 4, 1, &s, 1, &o, NULL, NULL);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(row[0] == '.' && row[3] == '\'',
	   "ASCII: low is '.', high is '\\'' ('%s')", row);
	grid_free(&g);

	grid_init(&g, 40, 12, false);
	o = (struct plot_opts){.xmin = NAN,
			       .xmax = NAN,
			       .ymin = NAN,
			       .ymax = NAN,
			       .ylabel_w = 8,
			       .yunit = "\xc2\xb5s",
			       .xaxis = true};
	plot_lines(&g, 0, 0, 40, 4, &s, 1, &o, NULL, NULL);
	plot_band(&g, 0, 4, 40, 4, xs, lo, hi, 2, STY_BAND, &o);
	plot_hbars(&g, 0, 8, 40, 1, b, 1, 4, 0);
	plot_spark(&g, 0, 9, 40, sp, 4, STY_MAIN);
	grid_box(&g, 0, 10, 40, 2, "\xc3\xa9t\xc3\xa9", STY_TITLE);
	ok(all_ascii(&g), "ASCII mode: lines, band, axes, bars, sparkline and "
			  "box are ASCII only");
	grid_free(&g);
}

static void test_hbars_spark(void)
{
	struct grid g;
	struct plot_bar b[] = {
	    {"ab", 100, STY_MAIN, NULL},
	    {"c", 50, STY_GHOST, NULL},
	    {"d", 100.0 * 43 / 128, STY_MAIN, NULL},
	    {"e", 0, STY_MAIN, NULL},
	};
	struct plot_bar bn[] = {{"x", 10, STY_MAIN, "12%"},
				{"y", 5, STY_MAIN, "3%"}};
	double sp[] = {0, 1, 2, 3, 4, 5, 6, 7}, sp2[] = {1, NAN, 2};
	char row[128];
	bool eighths = true;
	int i, full;

	/* w 21, labels 4 + a space: 16 cells of bar. */
	grid_init(&g, 21, 4, true);
	plot_hbars(&g, 0, 0, 21, 4, b, 4, 4, 0);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strncmp(row, "  ab ", 5),
	   "the label is right-aligned in label_w ('%s')", row);
	for (full = 0; full < 16 && !strcmp(grid_at(&g, 5 + full, 0)->ch, "█");
	     full++)
		;
	ok(full == 16, "the largest value fills the bar width (%d cells)",
	   full);
	for (full = 0; full < 16 && !strcmp(grid_at(&g, 5 + full, 1)->ch, "█");
	     full++)
		;
	ok(full == 8 && blank(grid_at(&g, 13, 1)) &&
	       grid_at(&g, 5, 1)->style == STY_GHOST,
	   "a half value fills half the cells in the bar's style (%d)", full);
	for (i = 0; i < 5; i++)
		eighths &= !strcmp(grid_at(&g, 5 + i, 2)->ch, "█");
	ok(eighths && !strcmp(grid_at(&g, 10, 2)->ch, utf8_of(0x258d)) &&
	       blank(grid_at(&g, 11, 2)),
	   "43/128 of 16 cells is 5 full cells and a 3/8 block (U+258D)");
	grid_row_text(&g, 3, row, sizeof(row));
	ok(!strcmp(row, "   e"), "a zero value draws no bar ('%s')", row);

	/* Values over max are capped; max sets the scale. */
	grid_clear(&g);
	plot_hbars(&g, 0, 0, 21, 2, b, 4, 4, 200);
	for (full = 0; full < 16 && !strcmp(grid_at(&g, 5 + full, 0)->ch, "█");
	     full++)
		;
	ok(full == 8, "with max 200 a value of 100 is half the width (%d)",
	   full);
	grid_row_text(&g, 2, row, sizeof(row));
	ok(!strcmp(row, ""), "rows beyond h are not drawn");
	grid_free(&g);

	/* Notes after the bars, with room kept for the longest. */
	grid_init(&g, 16, 2, true);
	plot_hbars(&g, 0, 0, 16, 2, bn, 2, 1, 0);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strcmp(row, "x ██████████ 12%"), "the note follows the bar ('%s')",
	   row);
	grid_row_text(&g, 1, row, sizeof(row));
	ok(!strcmp(row, "y █████ 3%"),
	   "a shorter bar has its note closer ('%s')", row);
	ok(grid_at(&g, 13, 0)->style == STY_DIM, "notes are STY_DIM");
	grid_free(&g);

	grid_init(&g, 12, 1, false);
	plot_hbars(&g, 0, 0, 12, 1, b + 1, 1, 1, 100);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strcmp(row, "c #####"), "ASCII bars are '#', proportional ('%s')",
	   row);
	grid_free(&g);

	grid_init(&g, 10, 1, true);
	plot_spark(&g, 0, 0, 10, sp, 8, STY_MAIN);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strcmp(row, "  ▁▂▃▄▅▆▇█"),
	   "sparkline 0..7 is U+2581..U+2588, newest at the right ('%s')", row);
	grid_clear(&g);
	plot_spark(&g, 0, 0, 3, sp, 8, STY_MAIN);
	grid_row_text(&g, 0, row, sizeof(row));
	ok(!strcmp(row, "▆▇█"), "a sparkline shows the last w values ('%s')",
	   row);
	grid_clear(&g);
	plot_spark(&g, 0, 0, 3, sp2, 3, STY_MAIN);
	ok(blank(grid_at(&g, 1, 0)) && !blank(grid_at(&g, 0, 0)),
	   "a NAN in a sparkline is a blank");
	grid_free(&g);
}

static void test_si(void)
{
	static const struct {
		double v;
		const char *s;
	} t[] = {
	    {0, "0"},		{980, "980"},	  {12345, "12.3k"},
	    {1210000, "1.21M"}, {3.4e9, "3.4G"},  {-5000, "-5k"},
	    {-12.3, "-12.3"},	{1000, "1k"},	  {999.7, "1k"},
	    {99999, "100k"},	{999999, "1M"},	  {1500, "1.5k"},
	    {12, "12"},		{1.5, "1.5"},	  {0.25, "0.25"},
	    {0.0123, "12.3m"},	{2.5e-6, "2.5u"}, {7.2e12, "7.2T"},
	    {NAN, "n/a"},	{-0.0, "0"},
	};
	char buf[16];
	unsigned i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		plot_si(t[i].v, buf, sizeof(buf));
		ok(!strcmp(buf, t[i].s), "plot_si(%g) is \"%s\" (got \"%s\")",
		   t[i].v, t[i].s, buf);
	}
	ok(plot_si(-1234567, buf, sizeof(buf)) == buf && strlen(buf) <= 6,
	   "plot_si keeps to 6 characters with sign and suffix ('%s')", buf);
}

/* Not a test: the time a 100 x 20 plot of 2 x 3000 points takes. */
static void time_render(void)
{
	static double xs[3000], y1[3000], y2[3000];
	struct plot_opts o = {.xmin = NAN,
			      .xmax = NAN,
			      .ymin = NAN,
			      .ymax = NAN,
			      .ymin_zero = true,
			      .ylabel_w = 8,
			      .yunit = "b/s",
			      .xaxis = true};
	struct plot_series s[2] = {{xs, y2, 3000, STY_GHOST},
				   {xs, y1, 3000, STY_MAIN}};
	struct timespec a, b;
	struct grid g;
	int i, reps = 300;
	double ns;

	for (i = 0; i < 3000; i++) {
		xs[i] = i * 0.02;
		y1[i] = 5e9 + 3e9 * sin(i * 0.01) + 5e8 * sin(i * 1.3);
		y2[i] = 4e9 + 2e9 * cos(i * 0.013) + 9e8 * sin(i * 2.1);
	}
	grid_init(&g, 100, 20, true);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < reps; i++) {
		grid_clear(&g);
		plot_lines(&g, 0, 0, 100, 20, s, 2, &o, NULL, NULL);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	ns = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / reps;
	printf("# plot_lines 100x20 cells, 2 series x 3000 points: %.1f us per "
	       "render\n",
	       ns / 1000);
	grid_free(&g);
}

/* plot_cell: a point's cell is where plot_lines drew its dot. */
static void test_cell(void)
{
	struct grid g;
	double xs[] = { 0, 5, 9 }, ys[] = { 0, 10, 5 }, ymin, ymax;
	struct plot_opts o = { .xmin = 0, .xmax = 9, .ymin = 0, .ymax = 10, .ylabel_w = 3 };
	struct plot_series s = { xs, ys, 3, STY_MAIN };
	bool all = true;
	int cx, cy;

	grid_init(&g, 20, 6, true);
	plot_lines(&g, 0, 0, 20, 6, &s, 1, &o, &ymin, &ymax);
	for (int i = 0; i < 3; i++)
		all &= plot_cell(&g, 0, 0, 20, 6, &o, ymin, ymax, xs[i], ys[i], &cx, &cy) &&
		       braille(grid_at(&g, cx, cy)) != 0;
	ok(all, "plot_cell: each point's cell holds the dots of its line");
	/* x 5 of 0..9 over 17 cells of 2 dots: dot round(5 x 33 / 9) = 18, cell 3 + 9 */
	all = plot_cell(&g, 0, 0, 20, 6, &o, ymin, ymax, 5, 10, &cx, &cy);
	ok(all && cy == 0 && cx == 3 + 9,
	   "plot_cell: the highest point is on the top row, at its column (%d, %d)", cx, cy);
	ok(!plot_cell(&g, 0, 0, 20, 6, &o, ymin, ymax, 12, 5, &cx, &cy) &&
		   !plot_cell(&g, 0, 0, 20, 6, &o, ymin, ymax, NAN, 5, &cx, &cy),
	   "plot_cell: a point outside the x scale or n/a has no cell");
	grid_free(&g);
}

int main(void)
{
	test_grid_text();
	test_grid_misc();
	test_grid_box();
	test_lines_basic();
	test_lines_braille();
	test_lines_gap_and_styles();
	test_lines_labels();
	test_ascii_and_band();
	test_hbars_spark();
	test_si();
	test_cell();
	time_render();
	return tap_done();
}
