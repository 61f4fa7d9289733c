// SPDX-License-Identifier: GPL-2.0-or-later
/* panel-bufs.c - the socket-buffer panel: autotuning's growth on both ends, cwnd and queues. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "plot.h"
#include "ui.h"

/* Points per series at most: 2 per cell of the widest plot drawn. */
#define BUFS_MAX_POINTS 1024
/* Where the "rcv" figures start on a buffer line, so both ends align. */
#define BUFS_RCV_COL 30
/* Cells of y-axis labels. */
#define BUFS_YLABEL_W 5

/* Bytes the way socket buffers are sized: "87380" -> "85K", "2097152" -> "2.0M"; "n/a" below 0. */
static const char *bufs_size(int64_t v, char *buf, size_t len)
{
	static const char unit[] = "KMG";
	double x = (double)v;
	int u = -1;

	if (v < 0) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	while (x >= 1024 && u < 2) {
		x /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%lld", (long long)v);
	else if (x < 10)
		snprintf(buf, len, "%.1f%c", x, unit[u]);
	else
		snprintf(buf, len, "%.0f%c", x, unit[u]);
	return buf;
}

/* The end's final figures when the run has a result and a socket; else NULL. */
static const struct sock_sample *bufs_final(const struct model_run *r, int end)
{
	const struct end_result *er;

	if (!r->has_result)
		return NULL;
	er = end == END_L ? &r->res.local : &r->res.remote;
	return er->nsocks && er->socks ? &er->socks[0] : NULL;
}

/* A buffer's newest size: the newest tick that has one, else the run's result; -1 n/a. */
static int32_t bufs_now(const struct model_run *r, int end, bool snd)
{
	const struct sock_sample *so;
	unsigned stop = r->nticks > 64 ? r->nticks - 64 : 0;

	for (unsigned i = r->nticks; i > stop; i--) {
		const struct model_tick *k = &r->ticks[i - 1];
		int32_t v = snd ? k->sndbuf[end] : k->rcvbuf[end];

		if (v >= 0)
			return v;
	}
	so = bufs_final(r, end);
	if (so)
		return snd ? so->sndbuf : so->rcvbuf;
	return -1;
}

/* A buffer's size right after setup; -1 n/a. */
static int32_t bufs_init(const struct model_run *r, int end, bool snd)
{
	int32_t v = snd ? r->sndbuf_init[end] : r->rcvbuf_init[end];
	const struct sock_sample *so;

	if (v >= 0)
		return v;
	so = bufs_final(r, end);
	if (so)
		return snd ? so->sndbuf_init : so->rcvbuf_init;
	return -1;
}

/* "16K -> 2.0M" from x: the new size stands out when autotuning changed it. */
static int bufs_change(struct grid *g, int x, int y, int w, int32_t from, int32_t to)
{
	char a[16], b[16];
	int cx;

	cx = grid_put(g, x, y, w, from < 0 ? STY_DIM : STY_NORMAL,
		      bufs_size(from, a, sizeof(a)));
	cx += grid_put(g, x + cx, y, w - cx, STY_DIM, " -> ");
	cx += grid_put(g, x + cx, y, w - cx,
		       to < 0 ? STY_DIM : from >= 0 && to != from ? STY_CHANGED : STY_NORMAL,
		       bufs_size(to, b, sizeof(b)));
	return cx;
}

/* One end's buffer line: "local  snd 16K -> 2.0M   rcv 128K -> 6.0M". */
static void bufs_line(struct grid *g, int x, int y, int w,
		      const struct model_run *r, int end)
{
	const char *rcv, *now;
	char a[16], b[16];
	int cx, need;

	cx = grid_put(g, x, y, w, end == END_L ? STY_LOCAL : STY_REMOTE,
		      end == END_L ? "local " : "remote");
	/* netserver reports its buffers only with its results */
	if (end == END_R && !r->has_result && model_run_netserver(r)) {
		grid_put(g, x + cx, y, w - cx, STY_DIM, " netserver: no live figures");
		return;
	}
	cx += grid_put(g, x + cx, y, w - cx, STY_DIM, " snd ");
	cx += bufs_change(g, x + cx, y, w - cx, bufs_init(r, end, true),
			  bufs_now(r, end, true));
	/* Aligned with the other end's when that fits, else right after. */
	rcv = bufs_size(bufs_init(r, end, false), a, sizeof(a));
	now = bufs_size(bufs_now(r, end, false), b, sizeof(b));
	need = 4 + (int)strlen(rcv) + 4 + (int)strlen(now);
	cx = cx + 2 < BUFS_RCV_COL && BUFS_RCV_COL + need <= w ? BUFS_RCV_COL : cx + 2;
	cx += grid_put(g, x + cx, y, w - cx, STY_DIM, "rcv ");
	bufs_change(g, x + cx, y, w - cx, bufs_init(r, end, false),
		    bufs_now(r, end, false));
}

/* Drop NAN points of v[0..n) in place; returns how many are left. */
static unsigned bufs_squeeze(double *v, unsigned n)
{
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[k++] = v[i];
	return k;
}

/* One end's transport line: newest cwnd and queues, then a sparkline of cwnd. */
static void bufs_tcp_line(struct grid *g, int x, int y, int w,
			  const struct model_run *r, int end)
{
	static double xs[BUFS_MAX_POINTS], ys[BUFS_MAX_POINTS];
	const struct model_tick *k = r->nticks ? &r->ticks[r->nticks - 1] : NULL;
	double cwnd = k ? k->cwnd[end] : NAN;
	int32_t outq = k ? k->outq[end] : -1, inq = k ? k->inq[end] : -1;
	char a[16], b[16];
	int cx = 7, sw;
	unsigned n;

	cx += grid_put(g, x + cx, y, w - cx, STY_DIM, "cwnd ");
	if (isnan(cwnd))
		cx += grid_put(g, x + cx, y, w - cx, STY_DIM, "n/a");
	else
		cx += grid_putf(g, x + cx, y, w - cx, STY_NORMAL, "%.0f", cwnd);
	cx += grid_put(g, x + cx, y, w - cx, STY_DIM, "  outq ");
	cx += grid_put(g, x + cx, y, w - cx, outq < 0 ? STY_DIM : STY_NORMAL,
		       bufs_size(outq, a, sizeof(a)));
	cx += grid_put(g, x + cx, y, w - cx, STY_DIM, "  inq ");
	cx += grid_put(g, x + cx, y, w - cx, inq < 0 ? STY_DIM : STY_NORMAL,
		       bufs_size(inq, b, sizeof(b)));
	sw = w - cx - 2;
	if (sw < 4)
		return;
	if (sw > BUFS_MAX_POINTS)
		sw = BUFS_MAX_POINTS;
	n = model_series(r, end == END_L ? MF_CWND_L : MF_CWND_R, xs, ys, (unsigned)sw);
	n = bufs_squeeze(ys, n);
	if (n)
		plot_spark(g, x + cx + 2, y, sw, ys, n, end == END_L ? STY_LOCAL : STY_REMOTE);
}

/*
 * One plot of the local and remote series of a buffer (send or receive),
 * a caption with its legend above it.
 */
static void bufs_plot(struct grid *g, int x, int y, int w, int h,
		      const struct model_run *r, bool snd)
{
	static double xs[2][BUFS_MAX_POINTS], ys[2][BUFS_MAX_POINTS];
	struct plot_series s[2];
	struct plot_opts o = {
		.xmin = NAN, .xmax = NAN, .ymin = NAN, .ymax = NAN,
		.ymin_zero = true, .ylabel_w = BUFS_YLABEL_W, .yunit = "",
	};
	unsigned want, n[2];
	int cx;

	if (w <= BUFS_YLABEL_W + 2 || h < 2)
		return;
	if (w >= 30) {
		cx = grid_put(g, x, y, w, STY_NORMAL, snd ? "send buffer  " : "receive buffer  ");
		cx += grid_put(g, x + cx, y, w - cx, STY_LOCAL, "local ");
		grid_put(g, x + cx, y, w - cx, STY_REMOTE, "remote");
	} else {
		cx = grid_put(g, x, y, w, STY_NORMAL, snd ? "snd " : "rcv ");
		cx += grid_put(g, x + cx, y, w - cx, STY_LOCAL, "local ");
		grid_put(g, x + cx, y, w - cx, STY_REMOTE, "remote");
	}
	want = 2u * (unsigned)(w - BUFS_YLABEL_W);
	if (want > BUFS_MAX_POINTS)
		want = BUFS_MAX_POINTS;
	n[0] = model_series_span(r, snd ? MF_SNDBUF_L : MF_RCVBUF_L, xs[0], ys[0], want);
	n[1] = model_series_span(r, snd ? MF_SNDBUF_R : MF_RCVBUF_R, xs[1], ys[1], want);
	if (!n[0] && !n[1]) {
		grid_put(g, x, y + 1, w, STY_DIM, "no ticks yet");
		return;
	}
	for (int e = 0; e < END_N; e++)
		s[e] = (struct plot_series){
			.x = xs[e], .y = ys[e], .n = n[e],
			.style = e == END_L ? STY_LOCAL : STY_REMOTE,
		};
	o.xaxis = h - 1 >= 4;
	plot_lines(g, x, y + 1, w, h - 1, s, 2, &o, NULL, NULL);
}

/* The panel: both ends' buffers initial -> now, cwnd and queues, then the plots. */
static void bufs_draw(struct ui *u, struct panel *p)
{
	const struct model_run *r = u->cur;
	int ix, iy, iw, ih, ay, ah;

	panel_frame(u, p, &ix, &iy, &iw, &ih);
	if (iw <= 0 || ih <= 0)
		return;
	grid_fill(&p->g, ix, iy, iw, ih, " ", STY_NORMAL);
	if (!r) {
		grid_put(&p->g, ix + (iw > 10 ? (iw - 10) / 2 : 0), iy + ih / 2, iw,
			 STY_DIM, "no run yet");
		return;
	}
	if (ih < 4) {
		bufs_line(&p->g, ix, iy, iw, r, END_L);
		if (ih > 1)
			bufs_line(&p->g, ix, iy + 1, iw, r, END_R);
		return;
	}
	bufs_line(&p->g, ix, iy, iw, r, END_L);
	bufs_tcp_line(&p->g, ix, iy + 1, iw, r, END_L);
	bufs_line(&p->g, ix, iy + 2, iw, r, END_R);
	bufs_tcp_line(&p->g, ix, iy + 3, iw, r, END_R);

	ay = iy + 4;
	ah = ih - 4;
	if (ah < 3)
		return;
	if (iw >= 56 || ah < 6) {
		int w1 = (iw - 1) / 2;

		bufs_plot(&p->g, ix, ay, w1, ah, r, true);
		bufs_plot(&p->g, ix + w1 + 1, ay, iw - w1 - 1, ah, r, false);
	} else {
		int h1 = ah / 2;

		bufs_plot(&p->g, ix, ay, iw, h1, r, true);
		bufs_plot(&p->g, ix, ay + h1, iw, ah - h1, r, false);
	}
}

const struct panel_ops panel_buffers = {
	.name = "buffers",
	.title = "Socket buffers",
	.draw = bufs_draw,
	.key = NULL,
	.min_w = 44,
	.min_h = 8,
	.help = NULL,
};
