// SPDX-License-Identifier: GPL-2.0-or-later
/* grid.c - the character grid panels draw into: UTF-8 cells with a style. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"

/* Box-drawing pieces: U+250C, U+2510, U+2514, U+2518, U+2500, U+2502. */
enum { BOX_TL, BOX_TR, BOX_BL, BOX_BR, BOX_H, BOX_V };
static const char *const box_utf8[] = {"┌", "┐", "└", "┘", "─", "│"};
static const char *const box_ascii[] = {"+", "+", "+", "+", "-", "|"};

/* Store a character of n bytes (n <= 4) and a style in a cell. */
static void cell_put(struct cell *c, const char *ch, unsigned n, enum style st)
{
	memset(c->ch, 0, sizeof(c->ch));
	memcpy(c->ch, ch, n);
	c->style = (uint8_t)st;
}

/* Blank every cell of an array of n cells. */
static void cells_blank(struct cell *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		cell_put(&c[i], " ", 1, STY_NORMAL);
}

int grid_init(struct grid *g, int w, int h, bool utf8)
{
	g->w = 0;
	g->h = 0;
	g->c = NULL;
	g->utf8 = utf8;
	return grid_resize(g, w, h);
}

int grid_resize(struct grid *g, int w, int h)
{
	struct cell *c = NULL;
	size_t n;

	if (w < 0)
		w = 0;
	if (h < 0)
		h = 0;
	n = (size_t)w * (size_t)h;
	if (n) {
		c = malloc(n * sizeof(*c));
		if (!c)
			return -ENOMEM;
		cells_blank(c, n);
	}
	free(g->c);
	g->c = c;
	g->w = n ? w : 0;
	g->h = n ? h : 0;
	return 0;
}

void grid_free(struct grid *g)
{
	free(g->c);
	g->c = NULL;
	g->w = 0;
	g->h = 0;
}

void grid_clear(struct grid *g)
{
	cells_blank(g->c, (size_t)g->w * (size_t)g->h);
}

struct cell *grid_at(struct grid *g, int x, int y)
{
	if (x < 0 || y < 0 || x >= g->w || y >= g->h)
		return NULL;
	return &g->c[(size_t)y * (size_t)g->w + (size_t)x];
}

/*
 * Decode the character at s into out (NUL-terminated) and return the
 * bytes it used.  Invalid UTF-8 (a stray continuation byte, an overlong
 * form, a surrogate, a sequence cut short) becomes one '?' for its
 * maximal valid prefix, as Unicode's "substitution of maximal subparts"
 * suggests; control characters become '?' too, since a terminal would act
 * on them, and so does anything beyond ASCII when utf8 is false.
 */
static unsigned utf8_next(const char *str, char out[5], bool utf8)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned need, i;
	unsigned char lo = 0x80, hi = 0xbf;
	uint32_t cp;

	if (s[0] < 0x80) {
		out[0] = (s[0] < 0x20 || s[0] == 0x7f) ? '?' : (char)s[0];
		out[1] = '\0';
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 1;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 2;
		cp = s[0] & 0x0f;
		if (s[0] == 0xe0)
			lo = 0xa0; /* overlong */
		else if (s[0] == 0xed)
			hi = 0x9f; /* surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 3;
		cp = s[0] & 0x07;
		if (s[0] == 0xf0)
			lo = 0x90; /* overlong */
		else if (s[0] == 0xf4)
			hi = 0x8f; /* beyond U+10FFFF */
	} else {
		out[0] = '?';
		out[1] = '\0';
		return 1;
	}
	for (i = 1; i <= need; i++) {
		if (s[i] < lo || s[i] > hi) {
			out[0] = '?';
			out[1] = '\0';
			return i;
		}
		cp = cp << 6 | (s[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	if (!utf8 || cp < 0xa0) { /* C1 controls, or no UTF-8 wanted */
		out[0] = '?';
		out[1] = '\0';
	} else {
		memcpy(out, s, need + 1);
		out[need + 1] = '\0';
	}
	return need + 1;
}

/*
 * Text clipped after pos cells of x, y, rest the text left out: the
 * words that fit stay whole and an ellipsis says more was left out
 * (docs/HACKING.md, "Conventions": "coalescing not supported (Op" reads
 * "coalescing not supported…", "4096 131072 335" reads "4096 131072…").
 * The last word goes when the ellipsis needs its cell; one word wider
 * than the room keeps what fits, its last cell the ellipsis.  Only spaces
 * left out is no cut.
 */
static void cut_at_word(struct grid *g, int x, int y, int pos, const char *rest, enum style st)
{
	const char *dots = g->utf8 ? "\u2026" : "~";
	struct cell *last = pos > 0 ? grid_at(g, x + pos - 1, y) : NULL;
	int k;

	if (!last || !rest[strspn(rest, " ")])
		return;
	for (k = pos - 1; k > 0; k--) {
		struct cell *c = grid_at(g, x + k, y);

		if (!c || !strcmp(c->ch, " "))
			break;
	}
	if (k <= 0 || !grid_at(g, x + k, y))
		k = pos - 1;
	/* the ellipsis right after the last whole word, not after spaces */
	while (k > 0 && grid_at(g, x + k - 1, y) && !strcmp(grid_at(g, x + k - 1, y)->ch, " "))
		k--;
	for (int i = k + 1; i < pos; i++)
		cell_put(grid_at(g, x + i, y), " ", 1, st);
	cell_put(grid_at(g, x + k, y), dots, (unsigned)strlen(dots), st);
}

/*
 * Write s from x, y as grid_text does; returns the cell positions used
 * (written or clipped at the left) and stores the cells written.
 */
static int text_run(struct grid *g, int x, int y, const char *s, enum style st,
		    int max, int *written)
{
	char ch[5];
	int pos;
	struct cell *c;

	*written = 0;
	if (!s || y < 0 || y >= g->h)
		return 0;
	for (pos = 0; *s && (max <= 0 || pos < max) && x + pos < g->w; pos++) {
		s += utf8_next(s, ch, g->utf8);
		c = grid_at(g, x + pos, y);
		if (!c)
			continue;
		cell_put(c, ch, (unsigned)strlen(ch), st);
		(*written)++;
	}
	if (*s)
		cut_at_word(g, x, y, pos, s, st);
	return pos;
}

int grid_text(struct grid *g, int x, int y, const char *s, enum style st,
	      int max)
{
	int written;

	text_run(g, x, y, s, st, max, &written);
	return written;
}

int grid_printf(struct grid *g, int x, int y, enum style st, int max,
		const char *fmt, ...)
{
	char small[512], *buf = small;
	va_list ap;
	int n, ret;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	if ((size_t)n >= sizeof(small)) {
		/* Longer than the stack buffer: format again whole, so no
		 * character is cut in the middle of its bytes. */
		buf = malloc((size_t)n + 1);
		if (!buf)
			return grid_text(g, x, y, small, st, max);
		va_start(ap, fmt);
		vsnprintf(buf, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	ret = grid_text(g, x, y, buf, st, max);
	if (buf != small)
		free(buf);
	return ret;
}

void grid_fill(struct grid *g, int x, int y, int w, int h, const char *ch,
	       enum style st)
{
	char one[5] = " ";
	unsigned n;
	int i, j;

	if (ch && *ch)
		utf8_next(ch, one, g->utf8);
	n = (unsigned)strlen(one);
	for (j = y < 0 ? 0 : y; j < y + h && j < g->h; j++)
		for (i = x < 0 ? 0 : x; i < x + w && i < g->w; i++)
			cell_put(grid_at(g, i, j), one, n, st);
}

/* Put one box piece at x, y when that is inside the grid. */
static void box_put(struct grid *g, int x, int y, int piece)
{
	const char *s = (g->utf8 ? box_utf8 : box_ascii)[piece];
	struct cell *c = grid_at(g, x, y);

	if (c)
		cell_put(c, s, (unsigned)strlen(s), STY_DIM);
}

/*
 * The border in STY_DIM so panels' contents stand out; the title starts
 * one cell after the top-left corner, padded with a space either side in
 * title_st ("┌ title ───┐"), and is cut to fit between the corners.
 */
void grid_box(struct grid *g, int x, int y, int w, int h, const char *title,
	      enum style title_st)
{
	int i, room, written;

	if (w < 2 || h < 2)
		return;
	box_put(g, x, y, BOX_TL);
	box_put(g, x + w - 1, y, BOX_TR);
	box_put(g, x, y + h - 1, BOX_BL);
	box_put(g, x + w - 1, y + h - 1, BOX_BR);
	for (i = 1; i < w - 1; i++) {
		box_put(g, x + i, y, BOX_H);
		box_put(g, x + i, y + h - 1, BOX_H);
	}
	for (i = 1; i < h - 1; i++) {
		box_put(g, x, y + i, BOX_V);
		box_put(g, x + w - 1, y + i, BOX_V);
	}
	room = w - 4; /* corners and the two padding spaces */
	if (!title || !*title || room < 1)
		return;
	grid_text(g, x + 1, y, " ", title_st, 1);
	i = text_run(g, x + 2, y, title, title_st, room, &written);
	grid_text(g, x + 2 + i, y, " ", title_st, 1);
}

int grid_row_text(const struct grid *g, int y, char *buf, unsigned len)
{
	const struct cell *row;
	unsigned used = 0, n;
	int last, i;

	if (len)
		buf[0] = '\0';
	if (y < 0 || y >= g->h)
		return -ERANGE;
	row = &g->c[(size_t)y * (size_t)g->w];
	for (last = g->w - 1; last >= 0; last--)
		if (row[last].ch[0] && strcmp(row[last].ch, " "))
			break;
	for (i = 0; i <= last && len; i++) {
		const char *ch = row[i].ch[0] ? row[i].ch : " ";

		n = (unsigned)strnlen(ch, sizeof(row[i].ch));
		if (used + n + 1 > len)
			break;
		memcpy(buf + used, ch, n);
		used += n;
	}
	if (len)
		buf[used] = '\0';
	return (int)used;
}

bool grid_differs(const struct grid *a, const struct grid *b)
{
	size_t i, n;

	if (a->w != b->w || a->h != b->h)
		return true;
	n = (size_t)a->w * (size_t)a->h;
	for (i = 0; i < n; i++) {
		if (a->c[i].style != b->c[i].style ||
		    strncmp(a->c[i].ch, b->c[i].ch, sizeof(a->c[i].ch)))
			return true;
	}
	return false;
}

int grid_wrap(struct grid *g, int x, int y, int w, int skip, int rows, enum style st,
	      const char *s)
{
	int line = 0;

	if (w <= 0)
		return 0;
	s += strspn(s, " ");
	while (*s) {
		int cells = 0, fit = 0, brk = 0;
		const char *p = s;

		/* bytes of the longest run of whole words in w cells */
		while (*p && cells < w) {
			if (*p == ' ')
				brk = (int)(p - s);
			p++;
			while ((*p & 0xc0) == 0x80)
				p++;
			cells++;
		}
		fit = !*p || *p == ' ' ? (int)(p - s) : brk ? brk : (int)(p - s);
		if (line >= skip && line - skip < rows) {
			char buf[512];

			snprintf(buf, sizeof(buf), "%.*s", fit, s);
			grid_text(g, x, y + line - skip, buf, st, w);
		}
		line++;
		s += fit;
		s += strspn(s, " ");
	}
	return line;
}

int grid_put(struct grid *g, int x, int y, int w, enum style st, const char *s)
{
	if (w <= 0)
		return 0;
	return grid_text(g, x, y, s, st, w);
}

int grid_putf(struct grid *g, int x, int y, int w, enum style st, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return grid_put(g, x, y, w, st, buf);
}
