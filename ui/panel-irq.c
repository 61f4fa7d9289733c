// SPDX-License-Identifier: GPL-2.0-or-later
/* panel-irq.c - the coalescing panel: each end's coalescing knobs next to its interrupt and NET_RX rates. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "plot.h"
#include "ui.h"

/* Knob rows and CPU rows one block shows at most. */
#define IRQ_MAX_ROWS 128
/* Points of a sparkline at most. */
#define IRQ_MAX_SPARK 512

/*
 * The coalescing knobs that decide an RX interrupt's delay come first
 * (seed 000: adaptive-rx and rx-usecs-high made a 70% cliff), then the
 * TX ones; the rest follow in catalog order as rows allow.
 */
static const char *const irq_first[] = {
	"adaptive-rx", "rx-usecs", "rx-frames", "rx-usecs-high", "rx-usecs-low",
	"pkt-rate-low", "pkt-rate-high", "adaptive-tx", "tx-usecs", "tx-frames",
};
#define IRQ_NFIRST (sizeof(irq_first) / sizeof(irq_first[0]))

static bool irq_is_coalescing(const struct ui_knob *k)
{
	return k->d && !strcmp(k->d->group, "coalescing");
}

/*
 * The coalescing knobs of end e in the order shown: irq_first's names,
 * then the others that are present, then the others that are n/a.
 */
static unsigned irq_knob_order(const struct ui *u, int e, unsigned *out, unsigned max)
{
	unsigned n = 0;

	for (unsigned f = 0; f < IRQ_NFIRST && n < max; f++)
		for (unsigned i = 0; i < u->nknobs; i++)
			if (irq_is_coalescing(&u->knobs[i]) &&
			    !strcmp(u->knobs[i].d->name, irq_first[f])) {
				out[n++] = i;
				break;
			}
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < u->nknobs && n < max; i++) {
			const struct ui_knob *k = &u->knobs[i];
			bool first = false;

			if (!irq_is_coalescing(k) || k->v[e].present != (pass == 0))
				continue;
			for (unsigned f = 0; f < IRQ_NFIRST && !first; f++)
				first = !strcmp(k->d->name, irq_first[f]);
			if (!first)
				out[n++] = i;
		}
	return n;
}

/* The last part of an n/a reason: "veth0: coalescing not supported" -> "coalescing not supported". */
static const char *irq_short_reason(const char *reason)
{
	const char *s = reason, *c;

	while ((c = strstr(s, ": ")))
		s = c + 2;
	return *s ? s : reason;
}

/* One knob row: "rx-usecs      16 us", its change or pending edit marked. */
static void irq_knob_row(struct grid *g, int x, int y, int w, int nw,
			 const struct ui_knob *k, int e)
{
	const struct knob_value *v = &k->v[e];
	int cx;

	grid_put(g, x, y, nw < w ? nw : w, STY_NORMAL, k->d->name);
	cx = nw + 1;
	if (!v->present) {
		cx += grid_put(g, x + cx, y, w - cx, STY_DIM, "n/a");
		if (v->reason[0])
			grid_putf(g, x + cx, y, w - cx, STY_DIM, " %s",
				   irq_short_reason(v->reason));
		return;
	}
	cx += grid_put(g, x + cx, y, w - cx,
		      k->original[e][0] && strcmp(k->original[e], v->text) ?
		      STY_CHANGED : STY_NORMAL, v->text);
	if (k->d->unit[0] && k->d->type == KNOB_INT)
		cx += grid_putf(g, x + cx, y, w - cx, STY_DIM, " %s", k->d->unit);
	if (k->has_pending[e])
		grid_putf(g, x + cx, y, w - cx, STY_PENDING, " -> %s", k->pending[e]);
}

/* The left half of a block: end e's coalescing knobs in h rows. */
static void irq_knobs(struct grid *g, int x, int y, int w, int h,
		      const struct ui *u, int e)
{
	unsigned idx[IRQ_MAX_ROWS], n, shown, present = 0;
	int nw = 0, vw = 0;

	if (h <= 0 || w <= 0)
		return;
	n = irq_knob_order(u, e, idx, IRQ_MAX_ROWS);
	if (!n) {
		grid_put(g, x, y, w, STY_DIM,
			u->nknobs ? "no coalescing knobs in the catalog" : "knobs not read");
		return;
	}
	for (unsigned i = 0; i < n; i++)
		present += u->knobs[idx[i]].v[e].present;
	if (!present) {
		/* One line for a device without coalescing at all (veth, lo). */
		const struct knob_value *v = &u->knobs[idx[0]].v[e];
		char line[160];

		/* "27 coalescing settings: not supported by veth" when that is
		 * why, wrapped; else the count and the reason below it */
		if (panel_coalesce_na(u, idx[0], e, n, line, sizeof(line)) &&
		    ((int)strlen(line) <= w || h > 1)) {
			grid_wrap(g, x, y, w, 0, h, STY_DIM, line);
			return;
		}
		/* shortened by rule: the count goes when it does not fit */
		snprintf(line, sizeof(line), "%u coalescing settings n/a", n);
		grid_put(g, x, y, w, STY_DIM, (int)strlen(line) <= w ? line : "coalescing n/a");
		if (h > 1 && v->reason[0])
			grid_wrap(g, x, y + 1, w, 0, h - 1, STY_DIM, irq_short_reason(v->reason));
		return;
	}
	/* Names cut before values: a value is never shown cut short. */
	shown = n < (unsigned)h ? n : (unsigned)h;
	for (unsigned i = 0; i < shown; i++) {
		const struct knob_value *v = &u->knobs[idx[i]].v[e];
		int l = (int)strlen(u->knobs[idx[i]].d->name);
		int vl = v->present ? (int)strlen(v->text) : 3;

		if (l > nw)
			nw = l;
		if (vl > vw)
			vw = vl;
	}
	if (nw > w - 1 - vw)
		nw = w - 1 - vw > 6 ? w - 1 - vw : 6;
	for (unsigned i = 0; i < shown; i++)
		irq_knob_row(g, x, y + (int)i, w, nw, &u->knobs[idx[i]], e);
}

/* Drop NAN points of v[0..n) in place; returns how many are left. */
static unsigned irq_squeeze(double *v, unsigned n)
{
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[k++] = v[i];
	return k;
}

/* "label   12.3k ▁▂▃▅" : a rate and the sparkline of its history. */
static void irq_rate_row(struct grid *g, int x, int y, int w, const char *label,
			 double now, const struct model_run *r, enum model_field f,
			 enum style st)
{
	static double xs[IRQ_MAX_SPARK], ys[IRQ_MAX_SPARK];
	char b[16];
	int cx, sw;
	unsigned n;

	cx = grid_putf(g, x, y, w, STY_DIM, "%-9s", label);
	cx += grid_putf(g, x + cx, y, w - cx, STY_NORMAL, "%6s", plot_si(now, b, sizeof(b)));
	sw = w - cx - 1;
	if (sw < 3)
		return;
	if (sw > IRQ_MAX_SPARK)
		sw = IRQ_MAX_SPARK;
	n = irq_squeeze(ys, model_series(r, f, xs, ys, (unsigned)sw));
	if (n)
		plot_spark(g, x + cx + 1, y, sw, ys, n, st);
}

/* The busiest CPUs (interrupts plus NET_RX) of s, at most max, in id order. */
static unsigned irq_busiest(const struct irq_sample *s, unsigned *out, unsigned max,
			    unsigned *active)
{
	unsigned n = 0, ncpu = s->ncpu < TT_MAX_CPUS ? s->ncpu : TT_MAX_CPUS;

	*active = 0;
	for (unsigned c = 0; c < ncpu; c++) {
		double load = s->irq_rate[c] + s->rx_rate[c];
		unsigned j;

		if (!(load > 0))
			continue;
		(*active)++;
		if (n < max) {
			out[n++] = c;
			continue;
		}
		/* Full: replace the least busy if this one is busier. */
		j = 0;
		for (unsigned i = 1; i < n; i++)
			if (s->irq_rate[out[i]] + s->rx_rate[out[i]] <
			    s->irq_rate[out[j]] + s->rx_rate[out[j]])
				j = i;
		if (load > s->irq_rate[out[j]] + s->rx_rate[out[j]])
			out[j] = c;
	}
	for (unsigned i = 1; i < n; i++) {
		unsigned t = out[i], k = i;

		for (; k && s->id[out[k - 1]] > s->id[t]; k--)
			out[k] = out[k - 1];
		out[k] = t;
	}
	return n;
}

/* The right half of a block: rates with their history, then per CPU. */
static void irq_rates(struct grid *g, int x, int y, int w, int h,
		      const struct model_run *r, int e)
{
	const struct irq_sample *s;
	const char *dev;
	unsigned pick[IRQ_MAX_ROWS], n, active, want;
	bool lines;
	char b1[16], b2[16];
	int row = 0;

	if (h <= 0 || w <= 0)
		return;
	if (!r) {
		grid_put(g, x, y, w, STY_DIM, "no run yet");
		return;
	}
	s = &r->irq[e];
	dev = r->irq_dev[e][0] ? r->irq_dev[e] : "the device";
	if (!s->ncpu) {
		grid_put(g, x, y, w, STY_DIM, r->state == MS_STARTING || r->state == MS_RUNNING ?
			"no interrupt figures yet" : "no interrupt figures from this end");
		return;
	}
	lines = s->nlines > 0;
	if (lines)
		irq_rate_row(g, x, y + row, w, "irq/s", s->irq_total, r,
			     e == END_L ? MF_IRQ_L : MF_IRQ_R, e == END_L ? STY_LOCAL : STY_REMOTE);
	else if ((int)strlen(dev) + 32 <= w)
		grid_putf(g, x, y + row, w, STY_DIM, "irq/s    n/a: no IRQ lines for %s", dev);
	else
		grid_put(g, x, y + row, w, STY_DIM, "irq/s    n/a: no IRQ lines");
	if (++row >= h)
		return;
	irq_rate_row(g, x, y + row, w, "NET_RX/s", s->rx_total, r,
		     e == END_L ? MF_NETRX_L : MF_NETRX_R, e == END_L ? STY_LOCAL : STY_REMOTE);
	if (++row >= h)
		return;
	if (lines)
		grid_put(g, x, y + row, w, STY_DIM, "CPU      irq/s  NET_RX/s");
	else
		grid_put(g, x, y + row, w, STY_DIM, "CPU   NET_RX/s");
	if (++row >= h)
		return;
	want = (unsigned)(h - row);
	if (want > IRQ_MAX_ROWS)
		want = IRQ_MAX_ROWS;
	n = irq_busiest(s, pick, want, &active);
	if (!active) {
		grid_put(g, x, y + row, w, STY_DIM, "no interrupts or NET_RX");
		return;
	}
	if (active > n && n > 1)
		n--;			/* the last row counts the rest */
	for (unsigned i = 0; i < n; i++, row++) {
		unsigned c = pick[i];

		if (lines)
			grid_putf(g, x, y + row, w, STY_NORMAL, "%3d  %9s %9s", s->id[c],
				   plot_si(s->irq_rate[c], b1, sizeof(b1)),
				   plot_si(s->rx_rate[c], b2, sizeof(b2)));
		else
			grid_putf(g, x, y + row, w, STY_NORMAL, "%3d  %9s", s->id[c],
				   plot_si(s->rx_rate[c], b2, sizeof(b2)));
	}
	if (active > n && row < h)
		grid_putf(g, x, y + row, w, STY_DIM, "+%u more CPUs", active - n);
}

/* One end's block: a header, its knobs on the left, its rates on the right. */
static void irq_block(struct grid *g, int x, int y, int w, int h,
		      const struct ui *u, int e)
{
	const struct model_run *r = u->cur;
	int kw, cx;

	if (h <= 0 || w <= 0)
		return;
	cx = grid_put(g, x, y, w, e == END_L ? STY_LOCAL : STY_REMOTE,
		     e == END_L ? "local" : "remote");
	if (e == END_R && model_run_netserver(r)) {
		grid_put(g, x + cx, y, w - cx, STY_DIM, "  netserver: no live figures");
		return;
	}
	if (r && r->irq_dev[e][0])
		cx += grid_putf(g, x + cx, y, w - cx, STY_NORMAL, " %s", r->irq_dev[e]);
	if (r && r->irq[e].ncpu)
		grid_putf(g, x + cx, y, w - cx, STY_DIM, "  %u CPUs", r->irq[e].ncpu);
	kw = w * 9 / 20;
	if (kw < 20)
		kw = 20;
	if (kw > 44)
		kw = 44;
	irq_knobs(g, x, y + 1, kw < w ? kw : w, h - 1, u, e);
	irq_rates(g, x + kw + 2, y + 1, w - kw - 2, h - 1, r, e);
}

/* The panel: the local end's block above the remote end's. */
static void irq_draw(struct ui *u, struct panel *p)
{
	int ix, iy, iw, ih, h1;

	panel_frame(u, p, &ix, &iy, &iw, &ih);
	if (iw <= 0 || ih <= 0)
		return;
	grid_fill(&p->g, ix, iy, iw, ih, " ", STY_NORMAL);
	h1 = (ih + 1) / 2;
	irq_block(&p->g, ix, iy, iw, h1, u, END_L);
	irq_block(&p->g, ix, iy + h1, iw, ih - h1, u, END_R);
}

const struct panel_ops panel_interrupts = {
	.name = "interrupts",
	.title = "Coalescing & interrupts",
	.draw = irq_draw,
	.key = NULL,
	.min_w = 48,
	.min_h = 8,
	.help = NULL,
};
