// SPDX-License-Identifier: GPL-2.0-or-later
/* panel-rate.c - transactions/s or throughput over time, the ghost run behind it, RR latency band. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "plot.h"
#include "ui.h"

/* A panel this tall (inside) gives a row to what limits the run: the
 * 100x30 layout's 7 rows too, the chart keeping 4. */
#define RATE_WHY_MIN_H 6
/* Narrower than this, the latency figures are p99 alone (p50 is the band's). */
#define RATE_P50_MIN_W 72
/* ... and this tall, a second row to a verdict cut at the panel's width. */
#define RATE_WHY_WRAP_H 14

/* Points per series: two per braille column of the widest panel. */
#define RATE_PTS 1024

static double xs[RATE_PTS], ys[RATE_PTS], gx[RATE_PTS], gy[RATE_PTS];
static double lo[RATE_PTS], hi[RATE_PTS];

/* The newest tick's rate, or the run's final one when it has ended. */
static double rate_now(const struct model_run *r)
{
	if (r->has_result && r->state != MS_RUNNING)
		return r->rate;
	return r->nticks ? r->ticks[r->nticks - 1].rate : NAN;
}

/*
 * The change from the compared run: while the run goes, its percent,
 * faint; once it ended, the verdict of the pair (compare_why(): the
 * engine's rule with the history, as the runs panel and `runs diff` say
 * it), its word standing out, the change and the noise band as room
 * allows; another test is not compared.
 */
static void rate_verdict(struct ui *u, struct grid *g, int x, int y, int w, struct model_run *r,
			 struct model_run *ghost, double now)
{
	double gr = model_run_rate(ghost);
	const struct compare_pair *cp;
	char pct[48];
	int n;

	if (!compare_like(ghost, r)) {
		snprintf(pct, sizeof(pct), " (%s: not compared)", test_type_name(ghost->p.type));
		panel_text_whole(g, x, y, w, pct, STY_DIM);
		return;
	}
	if (!isfinite(gr) || gr <= 0 || !isfinite(now))
		return;
	if (!isfinite(model_run_rate(r)) || compare_why(u, ghost, r, &cp)) {
		snprintf(pct, sizeof(pct), " (%+.1f %%)", (now - gr) / gr * 100);
		panel_text_whole(g, x, y, w, pct, STY_GHOST);
		return;
	}
	/* never cut: the word and its change, else the word alone, else nothing */
	n = (int)strlen(verdict_word_text(cp->c.verdict.word)) + 1;
	if (n > w)
		return;
	grid_printf(g, x, y, panel_verdict_style(cp->c.verdict.word), w, " %s",
		    verdict_word_text(cp->c.verdict.word));
	if (!isfinite(cp->c.change_pct))
		return;
	snprintf(pct, sizeof(pct), " %+.1f %%", cp->c.change_pct);
	n += panel_text_whole(g, x + n, y, w - n, pct, STY_NORMAL);
	snprintf(pct, sizeof(pct), " (noise %+.1f..%+.1f %%)", cp->c.verdict.lo_pct,
		 cp->c.verdict.hi_pct);
	panel_text_whole(g, x + n, y, w - n, pct, STY_DIM);
}

/* The cells the ended verdict's word and change take (rate_verdict()); 0 none. */
static int rate_verdict_w(struct ui *u, struct model_run *r, struct model_run *ghost)
{
	const struct compare_pair *cp;
	char pct[32];

	if (!compare_like(ghost, r) || !isfinite(model_run_rate(r)) ||
	    !isfinite(model_run_rate(ghost)) || compare_why(u, ghost, r, &cp))
		return 0;
	snprintf(pct, sizeof(pct), " %+.1f %%", cp->c.change_pct);
	return 1 + (int)strlen(verdict_word_text(cp->c.verdict.word)) +
	       (isfinite(cp->c.change_pct) ? (int)strlen(pct) : 0);
}

/*
 * "now 12.3k trans/s  p50 75.0 us  p99 130 us   vs run 2: 11.9k (+3.4 %)";
 * shortened by rule so the verdict of an ended run stays whole: p50 goes
 * first, then p99 (the runs panel has it), then the compared run's rate.
 */
static void rate_line(struct ui *u, struct grid *g, int x, int y, int w, struct model_run *r,
		      struct model_run *ghost)
{
	bool rr = test_is_rr(r->p.type);
	const char *unit = units_rate(r->p.type)->label;
	double now = rate_now(r);
	char now_t[64], p50[32] = "", p99[32] = "", gh[64] = "", gs[48] = "", f[32], id[24];
	char *drop[] = { p50, p99, gh };	/* the parts that can go, in this order */
	int n, vw = ghost ? rate_verdict_w(u, r, ghost) : 0;

	snprintf(now_t, sizeof(now_t), "%s %s %s", r->state == MS_RUNNING ? "now" : "run",
		 plot_si(now, f, sizeof(f)), unit);
	if (rr && r->nticks) {
		const struct model_tick *k = &r->ticks[r->nticks - 1];

		if (w >= RATE_P50_MIN_W)
			snprintf(p50, sizeof(p50), "  p50 %s us",
				 plot_si(r->state == MS_RUNNING ? k->p50_us : r->p50_us, f, sizeof(f)));
		snprintf(p99, sizeof(p99), "  p99 %s us",
			 plot_si(r->state == MS_RUNNING ? k->p99_us : r->p99_us, f, sizeof(f)));
	}
	if (ghost) {
		model_run_name(ghost, id, sizeof(id));
		snprintf(gs, sizeof(gs), "   %s run %s", ghost->baseline ? "baseline" : "vs", id);
		snprintf(gh, sizeof(gh), "%s: %s", gs, plot_si(model_run_rate(ghost), f, sizeof(f)));
	}
	for (unsigned i = 0; vw && i < 3 && (int)(strlen(now_t) + strlen(p50) + strlen(p99) +
						   strlen(gh)) + vw > w; i++)
		if (drop[i] == gh)
			snprintf(gh, sizeof(gh), "%s", gs);
		else
			drop[i][0] = '\0';
	n = grid_put(g, x, y, w, STY_MAIN, now_t);
	n += grid_put(g, x + n, y, w - n, STY_BAND, p50);
	n += grid_put(g, x + n, y, w - n, STY_BAND, p99);
	if (ghost && n < w) {
		n += grid_put(g, x + n, y, w - n, STY_GHOST, gh);
		rate_verdict(u, g, x + n, y, w - n, r, ghost, now);
	}
}

/*
 * "limit: receive window: 87 % of busy time rwnd-limited, ..." -- the top
 * verdict of the why rules (docs/why.md), live while the run goes, final
 * once it ended.  A verdict wider than the panel goes on in a second row
 * (cut at a space) when rows allows it, so a flows' split is seen; returns
 * the rows used.
 */
static int why_line(struct grid *g, int x, int y, int w, const struct model_run *r, int rows)
{
	const struct why_verdict *v = model_why_top(r);
	char head[WHY_EVIDENCE_MAX];
	enum style st;
	int n, cut;

	if (!v)
		return 0;
	st = v->tier == WHY_DIRECT ? STY_NORMAL : STY_DIM;
	n = grid_printf(g, x, y, STY_DIM, w, "limit%s: ", r->state == MS_RUNNING ? " now" : "");
	cut = w - n;
	if (rows < 2 || cut <= 0 || strlen(v->evidence) <= (size_t)cut) {
		grid_text(g, x + n, y, v->evidence, st, w - n);
		return 1;
	}
	/* at a space before the last cell: no word of the first row touches
	 * the border, which would read as a word cut there */
	cut--;
	while (cut > 0 && v->evidence[cut] != ' ')
		cut--;
	if (!cut)
		cut = w - n;
	snprintf(head, sizeof(head), "%.*s", cut, v->evidence);
	grid_text(g, x + n, y, head, st, w - n);
	grid_text(g, x + n, y + 1, v->evidence + cut + (v->evidence[cut] == ' '), st, w - n);
	return 2;
}

static void rate_draw(struct ui *u, struct panel *p)
{
	struct model_run *r = u->cur, *ghost;
	struct plot_series s[2];
	struct plot_opts o = {
		.xmin = 0, .xmax = NAN, .ymin = NAN, .ymax = NAN, .ymin_zero = true,
		.ylabel_w = 7, .xaxis = true,
	};
	int ix, iy, iw, ih, ch, bh = 0, why = 0;
	unsigned n, ng = 0, npts;
	bool rr;

	panel_frame(u, p, &ix, &iy, &iw, &ih);
	if (!r) {
		grid_text(&p->g, ix + 1, iy, "no run yet: r starts one", STY_DIM, iw - 1);
		return;
	}
	rr = test_is_rr(r->p.type);
	ghost = u->compare ? u->compare : model_ghost(&u->model, r);
	rate_line(u, &p->g, ix, iy, iw, r, ghost);
	if (r->state == MS_FAILED)
		grid_text(&p->g, ix, iy + 1, r->failure, STY_WARN, iw);
	else if (ih >= RATE_WHY_MIN_H)
		why = why_line(&p->g, ix, iy + 1, iw, r, ih >= RATE_WHY_WRAP_H ? 2 : 1);
	npts = (unsigned)(iw - o.ylabel_w) * 2;
	if (npts > RATE_PTS)
		npts = RATE_PTS;
	n = model_series_span(r, MF_RATE, xs, ys, npts);
	if (ghost)
		ng = model_series_span(ghost, MF_RATE, gx, gy, npts);
	o.xmax = r->p.duration;
	if (n && xs[n - 1] > o.xmax)
		o.xmax = xs[n - 1];
	if (ng && gx[ng - 1] > o.xmax)
		o.xmax = gx[ng - 1];
	o.yunit = rr ? "" : "Mb";
	/* RR: the rate over a p50..p99 latency band, 3 : 2. */
	ch = ih - 1 - (r->state == MS_FAILED) - why;
	if (rr && ch >= 9) {
		bh = ch * 2 / 5;
		ch -= bh;
	}
	if (ch < 3)
		return;
	s[0] = (struct plot_series){ .x = gx, .y = gy, .n = ng, .style = STY_GHOST };
	s[1] = (struct plot_series){ .x = xs, .y = ys, .n = n, .style = STY_MAIN };
	plot_lines(&p->g, ix, iy + ih - ch - bh, iw, ch, ghost ? s : s + 1, ghost ? 2 : 1, &o,
		   NULL, NULL);
	if (bh) {
		unsigned nl = model_series_span(r, MF_P50, xs, lo, npts);
		struct plot_opts bo = o;

		model_series_span(r, MF_P99, xs, hi, npts);
		bo.yunit = "us";
		bo.xaxis = false;
		grid_text(&p->g, ix, iy + ih - bh, "latency p50..p99", STY_BAND, iw);
		plot_band(&p->g, ix, iy + ih - bh + 1, iw, bh - 1, xs, lo, hi, nl, STY_BAND, &bo);
	}
}

const struct panel_ops panel_rate = {
	.name = "rate",
	.title = "Rate",
	.draw = rate_draw,
	.min_w = 30,
	.min_h = 6,
	.help = NULL,
};
