// SPDX-License-Identifier: GPL-2.0-or-later
/* panel-segs.c - the segment-size panel: the sender's and the receiver's capture side by side. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "plot.h"
#include "ui.h"

/* Bars one column can show; taller panels show this many. */
#define SEGS_MAX_BARS 96

/* One column: an end and the direction of its capture shown. */
struct segs_col {
	int end;		/* END_L, END_R */
	int dir;		/* CAP_OUT, CAP_IN */
};

/* A size picked for a bar. */
struct segs_pick {
	uint32_t size;
	uint64_t count;
};

/* Word-wrap s into at most h rows of w cells; returns the rows used. */
static int segs_wrap(struct grid *g, int x, int y, int w, int h, const char *s,
		     enum style st)
{
	int row = 0;

	while (*s == ' ')
		s++;
	while (*s && row < h && w > 0) {
		int cells = 0, cut = 0, brk = -1;
		char line[256];

		/* Advance over at most w cells, remembering the last space. */
		while (s[cut] && cells < w && cut < (int)sizeof(line) - 8) {
			if (s[cut] == ' ')
				brk = cut;
			cut++;
			while ((s[cut] & 0xc0) == 0x80)
				cut++;
			cells++;
		}
		if (s[cut] && s[cut] != ' ' && brk > 0 && row < h - 1)
			cut = brk;
		memcpy(line, s, (size_t)cut);
		line[cut] = '\0';
		grid_put(g, x, y + row, w, st, line);
		s += cut;
		while (*s == ' ')
			s++;
		row++;
	}
	return row;
}

/* "1.90M"-style count; plot_si's buffer. */
static const char *segs_count(uint64_t v, char *buf, unsigned len)
{
	return plot_si((double)v, buf, len);
}

/* A share as "0%", "<1%" or "42%". */
static const char *segs_pct(uint64_t part, uint64_t total, char *buf, size_t len)
{
	double pc = total ? 100.0 * (double)part / (double)total : 0;

	if (part && pc < 1)
		snprintf(buf, len, "<1%%");
	else
		snprintf(buf, len, "%.0f%%", pc);
	return buf;
}

/*
 * Which end sends the data: the client (local) in RR (its requests) and
 * TCP/UDP_STREAM, the server (remote) in MAERTS.  reverse shows the other
 * direction: RR responses, or the ACKs of a stream.
 */
static const char *segs_pair(const struct test_params *tp, bool reverse,
			     struct segs_col col[2])
{
	int snd = test_is_rr(tp->type) || test_client_sends(tp->type) ? END_L : END_R;
	int rcv = snd == END_L ? END_R : END_L;

	if (reverse) {
		int t = snd;

		snd = rcv;
		rcv = t;
	}
	col[0].end = snd;
	col[0].dir = CAP_OUT;
	col[1].end = rcv;
	col[1].dir = CAP_IN;
	if (test_is_rr(tp->type))
		return reverse ? "responses" : "requests";
	return reverse ? "reverse (ACKs)" : "data";
}

static const char *segs_end_name(int end)
{
	return end == END_L ? "local" : "remote";
}

/* True when a is a better pick than b: more segments, or the smaller size on a tie. */
static bool segs_better(const struct segs_pick *a, const struct segs_pick *b)
{
	return a->count > b->count || (a->count == b->count && a->size < b->size);
}

/* Restore the min-heap (the worst pick at the root) below slot i. */
static void segs_sift_down(struct segs_pick *hp, unsigned n, unsigned i)
{
	for (;;) {
		unsigned l = 2 * i + 1, r = l + 1, m = i;
		struct segs_pick t;

		if (l < n && segs_better(&hp[m], &hp[l]))
			m = l;
		if (r < n && segs_better(&hp[m], &hp[r]))
			m = r;
		if (m == i)
			return;
		t = hp[i];
		hp[i] = hp[m];
		hp[m] = t;
		i = m;
	}
}

/*
 * The max commonest sizes of h (either shape) into out, sorted by size;
 * a bounded min-heap keeps it O(bins log max) for captures with many sizes.
 */
static unsigned segs_commonest(const struct seghist *h, struct segs_pick *out,
			       unsigned max)
{
	uint32_t slots = h->cap ? h->cap : h->nbins;
	unsigned n = 0;

	if (!h->bins)
		return 0;
	for (uint32_t i = 0; i < slots; i++) {
		struct segs_pick c = { h->bins[i].size, h->bins[i].count };

		if (!c.count)
			continue;
		if (n < max) {
			unsigned j = n++;

			out[j] = c;
			while (j && segs_better(&out[(j - 1) / 2], &out[j])) {
				struct segs_pick t = out[j];

				out[j] = out[(j - 1) / 2];
				out[(j - 1) / 2] = t;
				j = (j - 1) / 2;
			}
		} else if (max && segs_better(&c, &out[0])) {
			out[0] = c;
			segs_sift_down(out, n, 0);
		}
	}
	for (unsigned i = 1; i < n; i++) {
		struct segs_pick t = out[i];
		unsigned j = i;

		for (; j && out[j - 1].size > t.size; j--)
			out[j] = out[j - 1];
		out[j] = t;
	}
	return n;
}

/* Rows of a column per largest size kept in view (at least one). */
#define SEGS_ROWS_PER_LARGEST 4

/*
 * The largest sizes of h always among the n picks (sorted by size): a
 * capture of many sizes keeps its super-segments, the point of GRO and
 * TSO, in view rather than behind "+735 more sizes" -- the largest one
 * in any column, one more per SEGS_ROWS_PER_LARGEST picks in a tall one
 * (the zoomed panel); the least common other picks give their rows.
 * Returns the picks' number.
 */
static unsigned segs_keep_largest(const struct seghist *h, struct segs_pick *pick, unsigned n)
{
	uint32_t slots = h->cap ? h->cap : h->nbins, below = UINT32_MAX;
	unsigned k = n / SEGS_ROWS_PER_LARGEST ? n / SEGS_ROWS_PER_LARGEST : 1;

	if (!n || !h->bins)
		return n;
	for (unsigned j = 0; j < k; j++) {
		struct segs_pick big = { 0, 0 };
		unsigned least = n, i;

		/* the next largest size below the ones kept */
		for (uint32_t s = 0; s < slots; s++)
			if (h->bins[s].count && h->bins[s].size < below && h->bins[s].size >= big.size)
				big = (struct segs_pick){ h->bins[s].size, h->bins[s].count };
		if (!big.count)
			break;
		below = big.size;
		for (i = 0; i < n && pick[i].size != big.size; i++)
			;
		if (i < n)
			continue;	/* among the commonest already */
		/* the least common pick smaller than every size kept */
		for (i = 0; i < n; i++)
			if (pick[i].size < below && (least == n || pick[i].count < pick[least].count))
				least = i;
		if (least == n)
			break;
		memmove(&pick[least], &pick[least + 1], (n - 1 - least) * sizeof(*pick));
		/* in order of size: the kept sizes are the largest, at the end */
		for (i = n - 1; i > 0 && pick[i - 1].size > big.size; i--)
			pick[i] = pick[i - 1];
		pick[i] = big;
	}
	return n;
}

/*
 * "=MSS", "2xMSS", "3xMSS+1" or "" for a size against mss; the short
 * form for narrow columns is "=MSS", "2x", "3x+1".
 */
static void segs_suffix(uint32_t size, uint32_t mss, bool brief, char *buf, size_t len)
{
	const char *m = brief ? "" : "MSS";

	switch (seg_class_of(size, mss)) {
	case SEG_AT_MSS:
		snprintf(buf, len, "=MSS");
		break;
	case SEG_SUPER_MULTIPLE:
		snprintf(buf, len, "%ux%s", size / mss, m);
		break;
	case SEG_SUPER_OTHER:
		snprintf(buf, len, "%ux%s+%u", size / mss, m, size % mss);
		break;
	default:
		buf[0] = '\0';
		break;
	}
}

static enum style segs_class_style(enum seg_class k)
{
	switch (k) {
	case SEG_AT_MSS:
		return STY_MSS;
	case SEG_SUPER_MULTIPLE:
	case SEG_SUPER_OTHER:
		return STY_SUPER;
	default:
		return STY_NORMAL;
	}
}

/* The bars of the commonest sizes of h in rows y..y+h-1 of a w-wide column. */
static void segs_bars(struct grid *g, int x, int y, int w, int rows,
		      const struct seghist *h, uint32_t mss)
{
	static struct segs_pick pick[SEGS_MAX_BARS];
	static struct plot_bar bar[SEGS_MAX_BARS];
	static char label[SEGS_MAX_BARS][32], note[SEGS_MAX_BARS][24];
	unsigned want, n, i;
	uint64_t shown = 0;
	int sw = 1, xw, lw;
	bool brief;
	char cb[16], pb[16], sfx[24];

	if (rows <= 0 || w <= 0)
		return;
	want = (unsigned)rows;
	if (h->nbins > want && rows >= 2)
		want--;			/* the last row sums up the rest */
	if (want > SEGS_MAX_BARS)
		want = SEGS_MAX_BARS;
	n = segs_commonest(h, pick, want);
	if (h->nbins > n)
		n = segs_keep_largest(h, pick, n);

	/*
	 * Sizes right-aligned, suffixes left-aligned: labels of one width, at
	 * most half the column; the short suffixes when the long ones do not
	 * fit, none when neither does (the bar's style still tells).
	 */
	for (i = 0; i < n; i++) {
		int d = snprintf(cb, sizeof(cb), "%u", pick[i].size);

		if (d > sw)
			sw = d;
	}
	for (int pass = 0; pass < 3; pass++) {
		brief = pass > 0;
		xw = 0;
		for (i = 0; i < n && pass < 2; i++) {
			segs_suffix(pick[i].size, mss, brief, sfx, sizeof(sfx));
			if ((int)strlen(sfx) > xw)
				xw = (int)strlen(sfx);
		}
		lw = xw ? sw + 1 + xw : sw;
		if (lw <= w / 2)
			break;
	}
	for (i = 0; i < n; i++) {
		enum seg_class k = seg_class_of(pick[i].size, mss);

		segs_suffix(pick[i].size, mss, brief, sfx, sizeof(sfx));
		if (xw)
			snprintf(label[i], sizeof(label[i]), "%*u %-*s", sw,
				 pick[i].size, xw, sfx);
		else
			snprintf(label[i], sizeof(label[i]), "%*u", sw, pick[i].size);
		snprintf(note[i], sizeof(note[i]), "%s %s",
			 segs_count(pick[i].count, cb, sizeof(cb)),
			 segs_pct(pick[i].count, h->data, pb, sizeof(pb)));
		bar[i] = (struct plot_bar){
			.label = label[i],
			.value = (double)pick[i].count,
			.style = segs_class_style(k),
			.note = note[i],
		};
		shown += pick[i].count;
	}
	plot_hbars(g, x, y, w, n < (unsigned)rows ? (int)n : rows, bar, n, lw, 0);
	if (h->nbins > n && (int)n < rows)
		grid_putf(g, x, y + (int)n, w, STY_DIM, "+%u more sizes (%s)",
			    h->nbins - n, segs_pct(h->data - shown, h->data, pb, sizeof(pb)));
}

/* The cells UTF-8 text s takes. */
static int segs_cells(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += (*s & 0xc0) != 0x80;
	return n;
}

/* Counts of data segments and pure ACKs, in the longest form that fits w. */
static void segs_counts(struct grid *g, int x, int y, int w, const struct seghist *hh)
{
	char b1[16], b2[16], line[64];

	segs_count(hh->data, b1, sizeof(b1));
	segs_count(hh->acks, b2, sizeof(b2));
	snprintf(line, sizeof(line), "%s data  %s pure ACKs", b1, b2);
	if (segs_cells(line) > w)
		snprintf(line, sizeof(line), "%s data %s ACKs", b1, b2);
	if (segs_cells(line) > w)
		snprintf(line, sizeof(line), "%s data", b1);
	grid_put(g, x, y, w, STY_NORMAL, line);
}

/*
 * Shares of the data segments below, at and above the MSS, in the MSS
 * and super-segment styles: "<MSS 48%  =MSS 1%  super 51%", shorter
 * down to "<M 48% =M 1% >M 51%" in a narrow column -- never a number
 * cut short.
 */
static void segs_classes(struct grid *g, int x, int y, int w,
			 const struct seghist *hh, uint32_t mss)
{
	static const char *const forms[3][3] = {
		{ "<MSS %s  ", "=MSS %s  ", "super %s" },
		{ "<MSS %s ", "=MSS %s ", ">MSS %s" },
		{ "<M %s ", "=M %s ", ">M %s" },
	};
	static const enum style st[3] = { STY_NORMAL, STY_MSS, STY_SUPER };
	struct seg_classes c;
	uint64_t part[3], total = 0;
	char pc[3][16], text[3][32];
	int need = 0, cx = 0;

	if (!mss) {
		grid_put(g, x, y, w, STY_DIM, "MSS unknown: sizes unclassified");
		return;
	}
	seghist_classify(hh, mss, &c);
	for (int k = 0; k < SEG_NCLASSES; k++)
		total += c.segs[k];
	part[0] = c.segs[SEG_BELOW_MSS];
	part[1] = c.segs[SEG_AT_MSS];
	part[2] = c.segs[SEG_SUPER_MULTIPLE] + c.segs[SEG_SUPER_OTHER];
	for (int f = 0; f < 3; f++) {
		need = 0;
		for (int i = 0; i < 3; i++) {
			snprintf(text[i], sizeof(text[i]), forms[f][i],
				 segs_pct(part[i], total, pc[i], sizeof(pc[i])));
			need += segs_cells(text[i]);
		}
		if (need <= w)
			break;
	}
	if (need > w)
		return;
	for (int i = 0; i < 3; i++)
		cx += grid_put(g, x + cx, y, w - cx, st[i], text[i]);
}

/* The capture's drops as a warning ("3 dropped!"), else a dim "no drops". */
static void segs_drops(struct grid *g, int x, int y, int w, const struct seg_capture *cap)
{
	uint64_t drops = cap->n.kernel_drop + cap->n.if_drop;
	int cx;

	if (drops)
		cx = grid_putf(g, x, y, w, STY_WARN, "%llu dropped!",
				 (unsigned long long)drops);
	else
		cx = grid_put(g, x, y, w, STY_DIM, "no drops");
	if (cap->n.table_full)
		cx += grid_putf(g, x + cx, y, w - cx, STY_WARN, "  %llu sizes lost",
				  (unsigned long long)cap->n.table_full);
	if (cap->warning[0])
		grid_putf(g, x + cx, y, w - cx, STY_WARN, "  %s", cap->warning);
}

/* Why an end shows no histogram. */
static void segs_no_capture(struct grid *g, int x, int y, int w, int h,
			    const struct model_run *r, int end)
{
	if (end == END_R && model_run_netserver(r))
		grid_put(g, x, y, w, STY_DIM, "netserver: no live figures");
	else if (r->cap_note[end][0])
		segs_wrap(g, x, y, w, h, r->cap_note[end], STY_WARN);
	else if (r->p.capture == CAPTURE_OFF)
		grid_put(g, x, y, w, STY_DIM, "capture off");
	else if (r->state == MS_STARTING || r->state == MS_RUNNING)
		grid_put(g, x, y, w, STY_DIM, "waiting for the capture");
	else
		grid_put(g, x, y, w, STY_DIM, "no capture from this end");
}

/* One column: a header naming the end and direction, then its histogram. */
static void segs_column(struct grid *g, int x, int y, int w, int h,
			const struct model_run *r, struct segs_col c)
{
	const struct seg_capture *cap = r->cap[c.end];
	const struct seghist *hh;
	uint32_t mss;
	char part[48];
	int cx;

	if (h <= 0 || w <= 0)
		return;
	cx = grid_putf(g, x, y, w, c.end == END_L ? STY_LOCAL : STY_REMOTE, "%s %s",
			 segs_end_name(c.end), c.dir == CAP_OUT ? "sent" : "received");
	if (!cap) {
		segs_no_capture(g, x, y + 1, w, h - 1, r, c.end);
		return;
	}
	hh = &cap->dir[c.dir];
	mss = cap->mss[c.dir] ? cap->mss[c.dir] : cap->syn_mss[c.dir];
	if (mss) {
		snprintf(part, sizeof(part), "  MSS %u", mss);
		if (cx + segs_cells(part) <= w)
			cx += grid_put(g, x + cx, y, w - cx, STY_NORMAL, part);
	}
	if (cap->dev[0]) {
		snprintf(part, sizeof(part), "  on %s", cap->dev);
		if (cx + segs_cells(part) <= w)
			grid_put(g, x + cx, y, w - cx, STY_DIM, part);
	}
	if (h > 1)
		segs_counts(g, x, y + 1, w, hh);
	if (h > 2)
		segs_classes(g, x, y + 2, w, hh, mss);
	if (h > 3)
		segs_drops(g, x, y + 3, w, cap);
	if (h <= 4)
		return;
	if (!hh->data)
		grid_put(g, x, y + 4, w, STY_DIM,
			 r->state == MS_STARTING || r->state == MS_RUNNING ? "no data segments yet" :
			 "no data segments this way (pure ACKs only)");
	else
		segs_bars(g, x, y + 4, w, h - 4, hh, mss);
}

/* The panel: a line saying which direction pair, then the two columns. */
static void segs_draw(struct ui *u, struct panel *p)
{
	const struct model_run *r = u->cur;
	struct segs_col col[2];
	const char *what;
	char hint[32];
	int ix, iy, iw, ih, cw, cx;

	panel_frame(u, p, &ix, &iy, &iw, &ih);
	if (iw <= 0 || ih <= 0)
		return;
	grid_fill(&p->g, ix, iy, iw, ih, " ", STY_NORMAL);
	if (!r) {
		grid_put(&p->g, ix + (iw > 10 ? (iw - 10) / 2 : 0), iy + ih / 2, iw,
			 STY_DIM, "no run yet");
		return;
	}
	what = segs_pair(&r->p, p->cursor != 0, col);
	cx = grid_putf(&p->g, ix, iy, iw, STY_NORMAL, "%s: %s -> %s", what,
			 segs_end_name(col[0].end), segs_end_name(col[1].end));
	snprintf(hint, sizeof(hint), "   d: %s",
		 test_is_rr(r->p.type) ? (p->cursor ? "requests" : "responses")
				       : (p->cursor ? "data" : "reverse"));
	if (cx + segs_cells(hint) <= iw)
		grid_put(&p->g, ix + cx, iy, iw - cx, STY_DIM, hint);
	cw = (iw - 2) / 2;
	segs_column(&p->g, ix, iy + 1, cw, ih - 1, r, col[0]);
	segs_column(&p->g, ix + cw + 2, iy + 1, cw, ih - 1, r, col[1]);
}

/* 'd' flips the direction pair shown (p->cursor: 0 forward, 1 reverse). */
static int segs_key(struct ui *u, struct panel *p, int key)
{
	if (key != 'd')
		return 0;
	p->cursor = !p->cursor;
	p->dirty = true;
	return UK_HANDLED;
}

const struct panel_ops panel_segments = {
	.name = "segments",
	.title = "Segment sizes",
	.draw = segs_draw,
	.key = segs_key,
	.min_w = 44,
	.min_h = 9,
	.help = "d: the other direction (RR responses / stream ACKs)",
};
