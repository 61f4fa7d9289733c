// SPDX-License-Identifier: GPL-2.0-or-later
/* test-panels.c - the segments, buffers and interrupts panels drawn into grids, no terminal. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "grid.h"
#include "model.h"
#include "plan.h"
#include "tap.h"
#include "term.h"
#include "ui.h"

#define NTICKS 20
#define MSS 1448

static struct ui u;
static struct panel pn;
static char row[8192];

/* The panel of ops at w x h with the unit's state; the grid is fresh. */
static void panel_at(const struct panel_ops *ops, int w, int h, bool utf8)
{
	grid_free(&pn.g);
	memset(&pn, 0, sizeof(pn));
	pn.ops = ops;
	pn.w = w;
	pn.h = h;
	pn.shown = true;
	if (grid_init(&pn.g, w, h, utf8)) {
		fprintf(stderr, "grid_init: out of memory\n");
		exit(1);
	}
	u.panels = &pn;
	u.npanels = 1;
	u.focus = 0;
	u.utf8 = utf8;
}

static void draw(void)
{
	pn.ops->draw(&u, &pn);
}

/* The first row holding s, or -1. */
static int find_row(const char *s)
{
	for (int y = 0; y < pn.g.h; y++) {
		grid_row_text(&pn.g, y, row, sizeof(row));
		if (strstr(row, s))
			return y;
	}
	return -1;
}

/* Column (in cells) of s in row y, or -1: cells are counted, not bytes. */
static int find_col(int y, const char *s)
{
	char *hit;
	int x = 0;

	grid_row_text(&pn.g, y, row, sizeof(row));
	hit = strstr(row, s);
	if (!hit)
		return -1;
	for (char *c = row; c < hit; c++)
		if ((*c & 0xc0) != 0x80)
			x++;
	return x;
}

/* True when any cell of row y from x on has style st. */
static bool row_has_style(int y, int x, enum style st)
{
	for (; x < pn.g.w; x++)
		if (grid_at(&pn.g, x, y)->style == st)
			return true;
	return false;
}

/* The border drawn by panel_frame is whole: nothing was drawn over it. */
static bool border_intact(void)
{
	struct grid *g = &pn.g;
	const char *v = grid_at(g, 0, 1)->ch, *hz = grid_at(g, 1, g->h - 1)->ch;

	if (!strcmp(v, " ") || !strcmp(hz, " "))
		return false;
	for (int y = 1; y < g->h - 1; y++)
		if (strcmp(grid_at(g, 0, y)->ch, v) || strcmp(grid_at(g, g->w - 1, y)->ch, v))
			return false;
	for (int x = 1; x < g->w - 1; x++)
		if (strcmp(grid_at(g, x, g->h - 1)->ch, hz))
			return false;
	return true;
}

static struct session_event ev;
static struct sock_sample lsock, rsock;
static struct seg_capture lcap, rcap;

/*
 * A TCP_RR run -r 4345,1 (seed 000's 3MSS+1): the local end sends 3MSS
 * super-segments and a 1-byte tail, some 2MSS ones and the MSS, 3
 * packets dropped by its capture; the remote end receives GRO'd 4345s.
 * Local buffers grow with autotuning (seed 001), the remote's do not.
 * The local device has 2 IRQ lines on 4 CPUs, the remote one (veth) none.
 */
static struct model_run *make_run(struct model *m, bool with_remote_cap)
{
	struct test_params tp;
	struct model_run *r;

	params_default(&tp);
	tp.req_size = 4345;
	tp.capture = CAPTURE_AUTO;
	r = model_begin(m, &tp, "loopback: test");
	if (!r)
		return NULL;

	for (int d = 0; d < CAP_NDIRS; d++) {
		seghist_free(&lcap.dir[d]);
		seghist_free(&rcap.dir[d]);
	}
	memset(&lcap, 0, sizeof(lcap));
	memset(&rcap, 0, sizeof(rcap));
	for (int d = 0; d < CAP_NDIRS; d++) {
		seghist_init(&lcap.dir[d]);
		seghist_init(&rcap.dir[d]);
	}
	snprintf(lcap.dev, sizeof(lcap.dev), "eth0");
	seghist_add_n(&lcap.dir[CAP_OUT], 4344, 1000);
	seghist_add_n(&lcap.dir[CAP_OUT], 1, 1000);
	seghist_add_n(&lcap.dir[CAP_OUT], 4345, 50);
	seghist_add_n(&lcap.dir[CAP_OUT], 2896, 30);
	seghist_add_n(&lcap.dir[CAP_OUT], MSS, 20);
	seghist_add_n(&lcap.dir[CAP_OUT], 0, 7);
	seghist_add_n(&lcap.dir[CAP_IN], 1, 1000);
	lcap.mss[CAP_OUT] = MSS;
	lcap.mss[CAP_IN] = MSS;
	lcap.n.kernel_drop = 2;
	lcap.n.if_drop = 1;
	snprintf(rcap.dev, sizeof(rcap.dev), "veth0");
	seghist_add_n(&rcap.dir[CAP_IN], 4345, 1000);
	seghist_add_n(&rcap.dir[CAP_IN], 1, 5);
	rcap.mss[CAP_IN] = MSS;
	rcap.mss[CAP_OUT] = MSS;

	lsock = (struct sock_sample){ .flow = 0, .sndbuf_init = 16384, .rcvbuf_init = 131072 };
	rsock = (struct sock_sample){ .flow = 0, .sndbuf_init = 16384, .rcvbuf_init = 87380 };
	for (int i = 0; i < NTICKS; i++) {
		bool last = i == NTICKS - 1;

		memset(&ev, 0, sizeof(ev));
		ev.kind = SESSION_EV_SAMPLE;
		ev.has_remote = true;
		ev.local.t = ev.remote.t = 0.1 * (i + 1);
		ev.local.rate = 10000;
		lsock.sndbuf = last ? 2097152 : 16384 + i * 100000;
		lsock.rcvbuf = last ? 6291456 : 131072 + i * 300000;
		lsock.outq = 0;
		lsock.inq = i;
		lsock.tcp.has = true;
		lsock.tcp.snd_cwnd = (uint32_t)(10 + i);
		rsock.sndbuf = 16384;
		rsock.rcvbuf = 87380;
		rsock.outq = rsock.inq = 0;
		rsock.tcp.has = true;
		rsock.tcp.snd_cwnd = 10;
		ev.local.nsocks = ev.remote.nsocks = 1;
		ev.local.socks = &lsock;
		ev.remote.socks = &rsock;
		snprintf(ev.local.irq_dev, sizeof(ev.local.irq_dev), "eth0");
		snprintf(ev.remote.irq_dev, sizeof(ev.remote.irq_dev), "veth0");
		ev.local.irq.ncpu = ev.remote.irq.ncpu = 4;
		ev.local.irq.nlines = 2;
		for (int c = 0; c < 4; c++) {
			ev.local.irq.id[c] = ev.remote.irq.id[c] = c;
			ev.local.irq.irq_rate[c] = c == 2 ? 12000 + 100 * i : 0;
			ev.local.irq.rx_rate[c] = c == 2 ? 20000 : c == 3 ? 50 : 0;
			ev.remote.irq.rx_rate[c] = c == 1 ? 31000 : 0;
		}
		ev.local.irq.irq_total = 12000 + 100 * i;
		ev.local.irq.rx_total = 20050;
		ev.remote.irq.rx_total = 31000;
		ev.local.cap = last ? &lcap : NULL;
		ev.remote.cap = last && with_remote_cap ? &rcap : NULL;
		model_sample(r, &ev);
	}
	if (!with_remote_cap)
		snprintf(r->cap_note[END_R], sizeof(r->cap_note[END_R]),
			 "remote: capture needs CAP_NET_RAW (run tunetopd as root)");
	return r;
}

static struct knob_def defs[4];
static struct ui_knob knobs[4];

/* Four catalog knobs: three coalescing, one offload; the remote (veth) has no coalescing. */
static void make_knobs(void)
{
	static const char *const names[4] = { "rx-usecs", "adaptive-rx", "rx-usecs-irq", "gro" };

	memset(defs, 0, sizeof(defs));
	memset(knobs, 0, sizeof(knobs));
	for (int i = 0; i < 4; i++) {
		snprintf(defs[i].name, sizeof(defs[i].name), "%s", names[i]);
		snprintf(defs[i].group, sizeof(defs[i].group), "%s",
			 i == 3 ? "offloads" : "coalescing");
		defs[i].kind = i == 3 ? KNOB_FEATURE : KNOB_COALESCE;
		defs[i].type = i == 0 || i == 2 ? KNOB_INT : KNOB_BOOL;
		snprintf(defs[i].unit, sizeof(defs[i].unit), "%s", i == 0 || i == 2 ? "us" : "");
		knobs[i].d = &defs[i];
		/* as ethtool-coalesce.c says it of a driver without coalescing */
		snprintf(knobs[i].v[END_R].reason, sizeof(knobs[i].v[END_R].reason),
			 "veth: coalescing not supported (Operation not supported)");
	}
	knobs[0].v[END_L] = (struct knob_value){ .present = true, .text = "16", .num = { 16 } };
	snprintf(knobs[0].original[END_L], KNOB_TEXT_MAX, "16");
	knobs[1].v[END_L] = (struct knob_value){ .present = true, .text = "on", .num = { 1 } };
	snprintf(knobs[1].original[END_L], KNOB_TEXT_MAX, "off");
	knobs[2].v[END_L] = (struct knob_value){ .present = false,
		.reason = "eth0: rx-usecs-irq: not supported by the driver" };
	knobs[3].v[END_L] = (struct knob_value){ .present = true, .text = "on", .num = { 1 } };
	knobs[3].v[END_R] = knobs[3].v[END_L];
	u.knobs = knobs;
	u.nknobs = 4;
}

/* Every panel at every size, UTF-8 and ASCII: frame whole, title shown, no crash. */
static void check_sizes(const struct panel_ops *ops, const char *what)
{
	const int sizes[][2] = {
		{ ops->min_w, ops->min_h }, { ops->min_w + 1, ops->min_h + 3 },
		{ 60, 16 }, { 100, 30 }, { 200, 60 }, { 61, 9 },
	};
	bool frames = true, titles = true;

	for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (int utf8 = 0; utf8 < 2; utf8++) {
			if (sizes[s][0] < ops->min_w || sizes[s][1] < ops->min_h)
				continue;
			panel_at(ops, sizes[s][0], sizes[s][1], utf8);
			draw();
			if (!border_intact()) {
				frames = false;
				printf("# %s %dx%d utf8=%d: border overwritten\n", ops->name,
				       sizes[s][0], sizes[s][1], utf8);
			}
			if (find_row(ops->title) != 0)
				titles = false;
		}
	ok(frames, "%s: %s, nothing drawn over the frame at any size", ops->name, what);
	ok(titles, "%s: %s, the title in the top edge at any size", ops->name, what);
}

/* Print the grid as text, as a TAP comment (the report shows a 100x30 rendering). */
static void dump(void)
{
	for (int y = 0; y < pn.g.h; y++) {
		grid_row_text(&pn.g, y, row, sizeof(row));
		printf("# |%s\n", row);
	}
}

/*
 * Microseconds of one draw at the panel's current size: the fastest of
 * 200, so a busy machine preempting the test cannot make it look slow --
 * what is checked is that a draw does not grow with the data, not speed.
 */
static double draw_us(void)
{
	double best = 1e12;

	for (int i = 0; i < 200; i++) {
		struct timespec a, b;
		double us;

		clock_gettime(CLOCK_MONOTONIC, &a);
		draw();
		clock_gettime(CLOCK_MONOTONIC, &b);
		us = (double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3;
		if (us < best)
			best = us;
	}
	return best;
}

static void test_no_run(void)
{
	const struct panel_ops *ops[] = { &panel_segments, &panel_buffers, &panel_interrupts };

	u.cur = NULL;
	for (unsigned i = 0; i < 3; i++) {
		int y;

		check_sizes(ops[i], "no run");
		panel_at(ops[i], 100, 30, true);
		draw();
		y = find_row("no run yet");
		ok(y > 0 && grid_at(&pn.g, find_col(y, "no run yet"), y)->style == STY_DIM,
		   "%s: without a run says \"no run yet\", dimly", ops[i]->name);
	}
}

static void test_segments(struct model *m)
{
	struct model_run *r = make_run(m, true), *r2;
	int y, x;

	if (!ok(r, "a run with ticks and captures"))
		return;
	u.cur = r;
	check_sizes(&panel_segments, "a captured RR run");

	panel_at(&panel_segments, 100, 30, true);
	draw();
	dump();
	ok(find_row("requests: local -> remote") == 1,
	   "segments: RR shows the requests first: local sent, remote received");
	y = find_row("2896 2xMSS");
	ok(y > 0, "segments: a 2896-byte bin with MSS 1448 is labelled 2xMSS");
	ok(y > 0 && row_has_style(y, 1, STY_SUPER),
	   "segments: the 2xMSS bin is drawn as a super-segment");
	y = find_row("4345 3xMSS+1");
	ok(y > 0 && row_has_style(y, 1, STY_SUPER),
	   "segments: a 4345-byte bin is a super-segment, labelled 3xMSS+1");
	y = find_row("1448 =MSS");
	ok(y > 0 && row_has_style(y, 1, STY_MSS), "segments: the MSS bin in the MSS style");
	y = find_row("   1     ");
	ok(y > 0 && !row_has_style(y, 1, STY_MSS) && !row_has_style(y, 1, STY_SUPER),
	   "segments: a 1-byte bin is neither MSS nor super");
	y = find_row("3 dropped!");
	x = y > 0 ? find_col(y, "3 dropped!") : -1;
	ok(x > 0 && grid_at(&pn.g, x, y)->style == STY_WARN,
	   "segments: kernel and interface drops add up to a warning");
	ok(y > 0 && find_col(y, "no drops") > x, "segments: the remote end says it dropped none");
	ok(find_row("2.1k data  7 pure ACKs") > 0,
	   "segments: data segments and pure ACKs counted");
	ok(find_row("<MSS 48%  =MSS <1%  super 51%") > 0,
	   "segments: shares below, at and above the MSS");
	y = find_row("remote received");
	ok(y > 0 && find_col(y, "remote received") > 40,
	   "segments: the receiver's column beside the sender's");

	ok(panel_segments.key(&u, &pn, 'd') & UK_HANDLED, "segments: 'd' is handled");
	ok(panel_segments.key(&u, &pn, 'x') == 0, "segments: other keys fall through");
	draw();
	ok(find_row("responses: remote -> local") == 1,
	   "segments: 'd' switches to the responses: remote sent, local received");
	ok(find_row("1448 =MSS") < 0 && find_row("2xMSS") < 0,
	   "segments: the responses' columns hold no request sizes");

	/* A remote end that could not capture says why, not an empty chart. */
	r2 = make_run(m, false);
	u.cur = r2;
	panel_at(&panel_segments, 100, 30, true);
	draw();
	ok(find_row("capture needs CAP_NET_RAW") > 0, "segments: an end without capture says why");
	ok(find_row("4345 3xMSS+1") > 0, "segments: the other end's histogram still shows");

	/* Capture off: no note, say so. */
	seg_capture_free(r2->cap[END_L]);
	free(r2->cap[END_L]);
	r2->cap[END_L] = NULL;
	r2->cap_note[END_R][0] = '\0';
	r2->p.capture = CAPTURE_OFF;
	draw();
	ok(find_row("capture off") > 0, "segments: with capture off the panel says so");
	u.cur = r;
}

/* A stream whose capture holds many distinct sizes: the commonest make the bars. */
static void test_segments_many_sizes(struct model *m)
{
	struct test_params tp;
	struct model_run *r;
	static struct seg_capture cap;
	double us;

	params_default(&tp);
	tp.type = TEST_TCP_STREAM;
	tp.capture = CAPTURE_AUTO;
	r = model_begin(m, &tp, "loopback: many");
	if (!ok(r, "a stream run"))
		return;
	memset(&cap, 0, sizeof(cap));
	for (int d = 0; d < CAP_NDIRS; d++)
		seghist_init(&cap.dir[d]);
	for (uint32_t s = 1; s <= 60000; s++)
		seghist_add_n(&cap.dir[CAP_OUT], s, 1);
	seghist_add_n(&cap.dir[CAP_OUT], MSS, 5000);
	seghist_add_n(&cap.dir[CAP_OUT], 64 * 1024 - 1, 3000);
	cap.mss[CAP_OUT] = MSS;
	r->cap[END_L] = seg_capture_dup(&cap);
	seghist_free(&cap.dir[CAP_OUT]);
	u.cur = r;
	panel_at(&panel_segments, 60, 16, true);
	draw();
	ok(find_row("data: local -> remote") == 1, "segments: a stream's sender is the client");
	ok(find_row("1448 =MSS") > 0 && find_row("65535 45x+375") > 0,
	   "segments: the two commonest of 60000 sizes are shown, short labels when narrow");
	dump();
	ok(find_row("more sizes") > 0, "segments: the sizes left out are counted");
	ok(find_row("waiting for the capture") > 0,
	   "segments: the receiver without a snapshot yet says so");
	seg_capture_free(r->cap[END_L]);
	free(r->cap[END_L]);
	seghist_init(&cap.dir[CAP_OUT]);
	for (uint32_t s = 1; s <= 500; s++)
		seghist_add_n(&cap.dir[CAP_OUT], s, 10);
	seghist_add_n(&cap.dir[CAP_OUT], 30 * MSS, 1);
	r->cap[END_L] = seg_capture_dup(&cap);
	seghist_free(&cap.dir[CAP_OUT]);
	draw();
	ok(find_row("43440") > 0 && find_row("more sizes") > find_row("43440"),
	   "segments: the largest size, seen once among 500 commoner ones, is shown above the rest's count");
	/* Zoomed (a tall column): the largest sizes, one per 4 rows, all shown. */
	seg_capture_free(r->cap[END_L]);
	free(r->cap[END_L]);
	seghist_init(&cap.dir[CAP_OUT]);
	for (uint32_t s = 1; s <= 500; s++)
		seghist_add_n(&cap.dir[CAP_OUT], s, 10);
	for (uint32_t k = 20; k <= 30; k++)
		seghist_add_n(&cap.dir[CAP_OUT], k * MSS, 1);
	r->cap[END_L] = seg_capture_dup(&cap);
	seghist_free(&cap.dir[CAP_OUT]);
	panel_at(&panel_segments, 100, 30, true);
	draw();
	if (!ok(find_row("43440") > 0 && find_row("41992") > 0 && find_row("40544") > 0 &&
		    find_row("39096") > 0 && find_row("more sizes") > find_row("43440"),
		"segments: a tall column keeps the largest sizes in view (30, 29, 28, 27 x MSS)"))
		dump();
	panel_at(&panel_segments, 60, 16, true);
	panel_at(&panel_segments, 200, 60, true);
	us = draw_us();
	printf("# segments 200x60, 60002 sizes: %.0f us per draw\n", us);
	ok(us < 20000, "segments: a draw over 60002 sizes stays cheap (%.0f us)", us);
}

/* One tick of the local end alone (4K buffers): the remote end said nothing. */
static void local_tick(struct model_run *r)
{
	memset(&ev, 0, sizeof(ev));
	ev.kind = SESSION_EV_SAMPLE;
	ev.local.t = 0.1;
	lsock = (struct sock_sample){ .sndbuf_init = 4096, .rcvbuf_init = 4096,
				      .sndbuf = 4096, .rcvbuf = 4096, .outq = -1, .inq = -1 };
	ev.local.nsocks = 1;
	ev.local.socks = &lsock;
	model_sample(r, &ev);
}

static void test_buffers(struct model *m)
{
	struct model_run *r = model_last(m);
	struct test_params tp;
	double us;
	int y;

	r = make_run(m, true);
	if (!ok(r, "a run for the buffers"))
		return;
	u.cur = r;
	check_sizes(&panel_buffers, "a run with buffers");
	panel_at(&panel_buffers, 100, 30, true);
	draw();
	dump();
	y = find_row("local  snd 16K -> 2.0M");
	ok(y == 1, "buffers: local send buffer initial -> now");
	ok(y == 1 && find_col(y, "rcv 128K -> 6.0M") > 0, "buffers: local receive buffer initial -> now");
	ok(y == 1 && grid_at(&pn.g, find_col(y, "2.0M"), y)->style == STY_CHANGED,
	   "buffers: a buffer autotuning grew stands out");
	y = find_row("remote snd 16K -> 16K");
	ok(y > 0 && find_col(y, "rcv 85K -> 85K") > 0, "buffers: remote buffers that stayed put");
	ok(y > 0 && grid_at(&pn.g, find_col(y, "16K -> 16K") + 7, y)->style != STY_CHANGED,
	   "buffers: an unchanged buffer is not marked");
	ok(find_row("cwnd 29  outq 0  inq 19") == 2, "buffers: the newest cwnd and queues");
	ok(find_row("send buffer") > 0 && find_row("receive buffer") > 0,
	   "buffers: a send and a receive buffer plot");
	ok(row_has_style(find_row("cwnd 29"), 30, STY_LOCAL), "buffers: a sparkline of cwnd");
	us = draw_us();
	printf("# buffers 100x30: %.0f us per draw\n", us);
	ok(us < 20000, "buffers: a draw stays cheap (%.0f us)", us);

	/* A run whose remote end said nothing: n/a, never 0. */
	params_default(&tp);
	r = model_begin(m, &tp, "loopback: quiet");
	local_tick(r);
	u.cur = r;
	draw();
	ok(find_row("remote snd n/a -> n/a") > 0, "buffers: a silent end's buffers are n/a");
	ok(find_row("cwnd n/a  outq n/a  inq n/a") > 0, "buffers: no TCP_INFO, no queues: n/a");
	ok(find_row("4.0K -> 4.0K") > 0, "buffers: small buffers in K");
}

static void test_interrupts(struct model *m)
{
	struct model_run *r = make_run(m, true);
	double us;
	int y, yr;

	if (!ok(r, "a run for the interrupts"))
		return;
	u.cur = r;
	make_knobs();
	check_sizes(&panel_interrupts, "a run with interrupts");
	panel_at(&panel_interrupts, 100, 30, true);
	draw();
	dump();
	yr = find_row("remote veth0");
	ok(find_row("local eth0") == 1 && yr > 1, "interrupts: a block per end with its device");
	y = find_row("adaptive-rx");
	ok(y == 2 && find_col(y, "on") > 0, "interrupts: adaptive-rx first, its value shown");
	ok(y == 2 && grid_at(&pn.g, find_col(y, " on") + 1, y)->style == STY_CHANGED,
	   "interrupts: a knob changed from its original is marked");
	y = find_row("rx-usecs ");
	ok(y > 0 && y < yr && find_col(y, "16 us") > 0, "interrupts: rx-usecs with its unit");
	y = find_row("rx-usecs-irq");
	ok(y > 0 && y < yr && find_col(y, "n/a not supported by the driver") > 0,
	   "interrupts: a knob the driver lacks is n/a with its reason");
	ok(find_row("gro") < 0, "interrupts: knobs of other groups are left out");
	y = find_row("3 coalescing settings: not supported by veth");
	ok(y > yr && find_row("Operation not supported") < 0,
	   "interrupts: an end without coalescing says so once, how many, and its driver");
	y = find_row("irq/s");
	ok(y > 0 && y < yr && find_col(y, "13.9k") > 0, "interrupts: the local interrupt rate");
	ok(y > 0 && row_has_style(y, find_col(y, "13.9k") + 5, STY_LOCAL),
	   "interrupts: a sparkline of the interrupt rate");
	y = find_row("no IRQ lines for veth0");
	ok(y > yr, "interrupts: a device without IRQ lines says so");
	ok(find_row("  2      13.9k       20k") > 0 && find_row("  3          0        50") > 0,
	   "interrupts: per-CPU interrupt and NET_RX rates of the busy CPUs");
	ok(find_row("  0          0         0") < 0, "interrupts: idle CPUs are left out");
	y = find_row("  1        31k");
	ok(y > yr, "interrupts: the remote end's NET_RX per CPU without IRQ figures");
	us = draw_us();
	printf("# interrupts 100x30: %.0f us per draw\n", us);
	ok(us < 20000, "interrupts: a draw stays cheap (%.0f us)", us);

	u.cur = NULL;
	draw();
	ok(find_row("no run yet") > 0 && find_row("adaptive-rx") > 0,
	   "interrupts: the knobs show before any run");
	u.knobs = NULL;
	u.nknobs = 0;
	draw();
	ok(find_row("knobs not read") > 0, "interrupts: without knobs says so");
}

/* The rate panel's line of what limits the run: live, then final. */
static void test_rate_why(struct model *m)
{
	struct model_run *r = make_run(m, true);
	struct session_result res;
	int y;

	u.cur = r;
	u.compare = NULL;
	panel_at(&panel_rate, 100, 20, true);
	draw();
	y = find_row("limit now: ");
	ok(y == 2 && r->why_live.n && find_col(y, r->why_live.v[0].evidence) > 0,
	   "rate: the live top verdict under the rate line (%s)",
	   r->why_live.n ? r->why_live.v[0].evidence : "none");
	check_sizes(&panel_rate, "with a live verdict");
	panel_at(&panel_rate, 48, 9, true);
	draw();
	ok(find_row("limit now: ") == 2,
	   "rate: a panel of 7 rows inside (100x30) still says what limits the run");
	panel_at(&panel_rate, 60, 7, true);
	draw();
	ok(find_row("limit") < 0, "rate: a panel under 6 rows inside gives the plot the row");

	memset(&res, 0, sizeof(res));
	res.throughput = 10000;
	res.why.n = 1;
	snprintf(res.why.v[0].rule, sizeof(res.why.v[0].rule), "link");
	res.why.v[0].tier = WHY_DIRECT;
	snprintf(res.why.v[0].evidence, sizeof(res.why.v[0].evidence),
		 "link: 943 of 1000 Mbit/s tbf (94 %%)");
	model_end(m, r, 0, NULL, &res);
	panel_at(&panel_rate, 100, 20, true);
	draw();
	ok(find_row("limit: link: 943 of 1000 Mbit/s tbf (94 %)") == 2 && find_row("limit now") < 0,
	   "rate: once ended, the session's own top verdict");

	/* a verdict wider than the panel: its flows' split on a second row */
	snprintf(r->res.why.v[0].evidence, sizeof(r->res.why.v[0].evidence), "%s",
		 "receive window: 61 % of busy time rwnd-limited over 4 flows (flow 2 at 97 %, the others 41-55 %), remote SO_RCVBUF 16K (set by -S 8K)");
	panel_at(&panel_rate, 60, 20, true);
	draw();
	y = find_row("limit: receive window: 61 % of busy time");
	/* cut at the space before "over", which would end at the border */
	ok(y == 2 && find_row("over 4 flows (flow 2 at 97 %") == 3 &&
		   find_col(3, "over 4 flows") == find_col(2, "receive window"),
	   "rate: a verdict wider than the panel goes on in a second row, under itself, "
	   "no word of the first against the border");
	check_sizes(&panel_rate, "with a two-row verdict");
	panel_at(&panel_rate, 60, 12, true);
	draw();
	ok(find_row("limit: receive window: 61 %") == 2 && find_row("flow 2 at 97 %") < 0,
	   "rate: a panel under 14 rows inside keeps the verdict to one row");
}

/* A run against netserver: the remote end has no live figures and says so. */
static void test_netserver(struct model *m)
{
	const struct panel_ops *ops[] = { &panel_segments, &panel_buffers, &panel_interrupts };
	struct model_run *r;
	struct test_params tp;

	params_default(&tp);
	tp.type = TEST_TCP_STREAM;
	tp.capture = CAPTURE_AUTO;
	r = model_begin(m, &tp, "netserver at 127.0.0.1 port 12865");
	if (!ok(r && model_run_netserver(r), "a run against netserver"))
		return;
	local_tick(r);
	u.cur = r;
	for (unsigned i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		panel_at(ops[i], 100, 30, true);
		draw();
		ok(find_row("netserver: no live figures") > 0, "%s: the remote end says netserver: no live figures",
		   ops[i]->name);
	}
	ok(!model_run_netserver(make_run(m, true)), "a tunetopd run is not a netserver run");
}

/* The knobs panel: a group's knobs n/a on both ends fold into one line; / says where one went. */
static void test_knobs_fold(void)
{
	make_knobs();
	knobs[1].v[END_L] = (struct knob_value){ .present = false,
		.reason = "eth0: adaptive-rx: not supported by the driver" };
	panel_at(&panel_knobs, 100, 30, true);
	draw();
	ok(find_row(" rx-usecs ") > 0 && find_row(" adaptive-rx ") < 0 && find_row("rx-usecs-irq") < 0,
	   "knobs: the knobs n/a on both ends leave their rows");
	ok(find_row("2 coalescing settings n/a on both ends: eth0: adaptive-rx: not supported") > 0,
	   "knobs: folded into one line with how many and why");
	ok(find_row(" gro ") > 0, "knobs: other groups keep their rows");
	ok(!panel_knobs_find(&u, &pn, "adaptive") && strstr(u.status, "adaptive-rx: n/a on both ends") &&
		   strstr(u.status, "folded line of coalescing"),
	   "knobs: / on a folded knob says where it went (%s)", u.status);
	ok(panel_knobs_find(&u, &pn, "gro"), "knobs: / finds a knob shown");
	/* Both ends without coalescing (veth): the driver named, once. */
	for (int i = 0; i < 3; i++)
		knobs[i].v[END_L] = knobs[i].v[END_R];
	draw();
	ok(find_row(" 3 coalescing settings: not supported by veth ") > 0 &&
		   find_row("Operation") < 0,
	   "knobs: a device without coalescing folds to how many and its driver");
	u.knobs = NULL;
	u.nknobs = 0;
}

/* The runs panel: what moved from the compared run to the selected one (docs/why.md). */
static void test_runs_why(void)
{
	static struct model m;
	struct model tmp = u.model;
	struct test_params tp;
	struct model_run *r1, *r2;
	json_t *d1, *d2;
	int y;

	model_init(&m);
	params_default(&tp);
	r1 = model_begin(&m, &tp, "lab: test");
	r2 = model_begin(&m, &tp, "lab: test");
	if (!ok(r1 && r2, "two runs"))
		return;
	model_end(&m, r1, 0, NULL, NULL);
	model_end(&m, r2, 0, NULL, NULL);
	r1->rate = 1000;
	r2->rate = 4000;
	r1->db_id = 1;			/* stored: named by their ids in the history */
	r2->db_id = 2;
	model_set_baseline(&m, r1);
	d1 = json_pack("{s:{s:f, s:f, s:f}, s:{s:{s:[{s:s, s:s}]}}}", "result", "throughput", 1000.0,
		       "transaction_rate", 1000.0, "mean_latency", 1000.0, "knobs", "remote", "knobs",
		       "name", "gro", "value", "off");
	d2 = json_pack("{s:{s:f, s:f, s:f}, s:{s:{s:[{s:s, s:s}]}}}", "result", "throughput", 4000.0,
		       "transaction_rate", 4000.0, "mean_latency", 2000.0, "knobs", "remote", "knobs",
		       "name", "gro", "value", "on");
	model_keep_doc(&m, r1, d1, NULL, NULL);
	model_keep_doc(&m, r2, d2, NULL, NULL);
	u.model = m;
	u.cur = r2;
	u.compare = NULL;
	panel_at(&panel_runs, 100, 20, true);
	draw();
	ok(find_row("why: no earlier run of TCP_RR to compare run 1 with") > 0,
	   "runs: the selected baseline has nothing to be compared with");
	panel_runs.key(&u, &pn, TERM_KEY_DOWN);
	draw();
	y = find_row("why 2 vs 1: BETTER +300.0 % (noise -64.8..+184.4 %), rate 1k -> 4k");
	if (!ok(y > 0, "runs: the selection moved to run 2: its change from its baseline, BETTER beyond the prior noise"))
		printf("# row: %s\n", find_row("why 2 vs 1") >= 0 ? row : "(none)");
	ok(y > 0 && find_row(" beyond the prior run-to-run noise (docs/why.md)") == y + 1 &&
		   find_row("4k: beyond") < 0,
	   "runs: the verdict's reason, too long for the row, on a row of its own, not cut");
	ok(y > 0 && find_row("changed: remote gro off -> on") == y + 2,
	   "runs: then what changed (test options, knobs), on one line");
	ok(y > 0 && find_row("1. transactions in flight (rate x latency): 1.00 -> 8.00 (+700 %)") == y + 3,
	   "runs: then the mechanisms that moved, largest first");
	/* A test option changed too: listed before the knobs (a new pair:
	 * run 2's ids change, so it is judged anew). */
	r2->p.burst = 7;
	r2->db_id = 3;
	u.compare = r1;
	draw();
	u.compare = NULL;
	if (!ok(find_row("changed: -b 0 -> 7, remote gro off -> on") > 0,
		"runs: a test option that differs is listed beside the knobs"))
		printf("# row: %s\n", find_row("changed:") >= 0 ? row : "(none)");
	json_decref(d1);
	json_decref(d2);
	model_free(&u.model);

	/* Runs without documents, drawn with no control part (as
	 * bench/uiframe draws): nothing to read back, said, no crash. */
	model_init(&m);
	r1 = model_begin(&m, &tp, "lab: test");
	r2 = model_begin(&m, &tp, "lab: test");
	model_end(&m, r1, 0, NULL, NULL);
	model_end(&m, r2, 0, NULL, NULL);
	r1->rate = 1000;
	r2->rate = 4000;
	model_set_baseline(&m, r1);
	u.model = m;
	u.cur = r2;
	draw();
	ok(find_row("why s2 vs s1: n/a, run s1: not kept, not stored (--no-db)") > 0,
	   "runs: runs without documents and no history say why nothing moved");
	/* Ten runs in a panel of 8 rows inside (100x30's): the why line takes
	 * one row, the rows it leaves go to the list (it showed 3 runs). */
	for (int i = 3; i <= 10; i++) {
		struct model_run *r = model_begin(&m, &tp, "lab: test");

		model_end(&m, r, 0, NULL, NULL);
		r->rate = 1000;
		u.cur = r;
	}
	u.model = m;
	panel_at(&panel_runs, 100, 10, true);
	draw();
	y = find_row("why: no earlier run of TCP_RR to compare run s1 with");
	if (!ok(y == 8 && find_row("Bs1 ") == 2 && find_row(" s6 ") == 7,
		"runs: a one-row why leaves its other rows to the list (6 runs shown, why at row %d)", y))
		for (int i = 0; i < pn.g.h; i++) {
			grid_row_text(&pn.g, i, row, sizeof(row));
			printf("# %s\n", row);
		}
	model_free(&u.model);
	u.model = tmp;
	u.cur = NULL;
}

/* The newest sweep's table in the runs panel: titles, values under them, cliffs, a narrow panel. */
static void test_sweep_table(void)
{
	static struct plan_table t;
	static const char *const vals[3][3] = {
		{ "1.000", "1.000", "45.25" }, { "0.968", "0.968", "61.50" }, { "0.866", "0.866", "n/a" },
	};
	const double rates[3] = { 60103, 67666.16, 9747 };
	char err[ERR_MAX];
	int y, yt, xt, xv;

	memset(&t, 0, sizeof(t));
	snprintf(t.kind, sizeof(t.kind), "burst");
	snprintf(t.preset, sizeof(t.preset), "seed004");
	sweep_cols_make("DATA_SEGS_OUT_PER_TRANS,DATA_SEGS_IN_PER_TRANS,P50_LATENCY", true, false,
			false, &t.cols, err);
	t.rr = true;
	t.n = 4;
	for (unsigned i = 0; i < t.n; i++)
		snprintf(t.pt[i].point, sizeof(t.pt[i].point), "burst=%u", 2u << i);
	for (unsigned i = 0; i < 3; i++) {
		t.pt[i].ran = true;
		t.pt[i].rate = rates[i];
		for (unsigned c = 0; c < 3; c++)
			snprintf(t.pt[i].col[c], sizeof(t.pt[i].col[c]), "%s", vals[i][c]);
	}
	t.pt[2].cliff = true;
	t.pt[2].drop_pct = 85;
	u.sweep = &t;
	panel_at(&panel_runs, 66, 24, true);
	draw();
	ok(find_row("sweep burst (preset seed004): 3 of 4 points") > 0,
	   "the table says its kind, preset and how far it is");
	yt = find_row("OUT_PER_TRANS");
	ok(yt > 0 && find_row("DATA_SEGS_") == yt - 1 && find_col(yt, "IN_PER_TRANS") > 0 &&
	   find_col(yt, "Trans/s") > 0 && find_col(yt, "p50 us") > 0,
	   "long titles on two rows, split after a '_'; p50 us and the units whole");
	y = find_row("burst=4");
	xt = find_col(yt, "OUT_PER_TRANS") + (int)strlen("OUT_PER_TRANS");
	xv = find_col(y, "0.968") + 5;
	ok(y > yt && xt == xv, "a value ends where its title ends (%d, %d)", xt, xv);
	ok(find_col(y, "67666.16") > 0 && find_col(y, "61.50") > 0, "the rate and the last column");
	y = find_row("burst=8");
	ok(y > 0 && find_col(y, " cliff -85%") > 0 && row_has_style(y, find_col(y, "cliff"), STY_WARN),
	   "a cliff is marked, short in a narrow panel");
	ok(find_row("burst=16") < 0, "a point not run yet is not a row");
	ok(border_intact(), "the table stays inside the frame");
	panel_at(&panel_runs, 120, 24, true);
	draw();
	ok(find_row("<-- cliff: 85 % below its neighbours") > 0 && border_intact(),
	   "a wide panel marks it as tunetop sweep does");
	panel_at(&panel_runs, 44, 24, true);
	draw();
	ok(find_row(" +2 wider") > 0 && border_intact(),
	   "a narrow panel counts the columns that do not fit, inside the frame");
	/* --reverse: the table says the runs were turned around, and how. */
	snprintf(t.preset, sizeof(t.preset), "seed004-back");
	snprintf(t.reverse, sizeof(t.reverse), "the far end, lab side b, sends the requests");
	panel_at(&panel_runs, 120, 24, true);
	draw();
	ok(find_row("sweep burst (preset seed004-back) reversed: 3 of 4 points; the far end, lab side b, sends the requests") > 0,
	   "a reversed sweep's table says reversed and what the runs did");
	/* Two crossed knobs: a column each instead of the point's name. */
	memset(&t, 0, sizeof(t));
	snprintf(t.kind, sizeof(t.kind), "knob");
	sweep_cols_make(NULL, true, false, false, &t.cols, err);
	t.rr = true;
	t.n = 4;
	t.nknob = 2;
	snprintf(t.knob[0], sizeof(t.knob[0]), "tcp_sack");
	snprintf(t.knob[1], sizeof(t.knob[1]), "remote:tcp_timestamps");
	for (unsigned i = 0; i < t.n; i++) {
		snprintf(t.pt[i].point, sizeof(t.pt[i].point), "tcp_sack=%u,remote:tcp_timestamps=%u",
			 i / 2, i % 2);
		snprintf(t.pt[i].knob[0], sizeof(t.pt[i].knob[0]), "%u", i / 2);
		snprintf(t.pt[i].knob[1], sizeof(t.pt[i].knob[1]), "%u", i % 2);
		t.pt[i].ran = true;
		t.pt[i].rate = 1000 + i;
	}
	draw();
	yt = find_row("tcp_sack remote:tcp_timestamps");
	ok(yt > 0 && find_col(yt, "Trans/s") > 0, "two knobs: a title each, then the rate's");
	y = find_row("1003");
	ok(y > yt && find_col(y, "1        1") == find_col(yt, "tcp_sack") &&
	   find_row("tcp_sack=1") < 0,
	   "each point's values under their knobs, not its long name (row %d)", y);
	ok(border_intact(), "the two-knob table stays inside the frame");
	u.sweep = NULL;
}

int main(void)
{
	model_init(&u.model);
	test_no_run();
	test_segments(&u.model);
	test_segments_many_sizes(&u.model);
	test_buffers(&u.model);
	test_interrupts(&u.model);
	test_rate_why(&u.model);
	test_netserver(&u.model);
	test_runs_why();
	test_knobs_fold();
	test_sweep_table();
	for (int d = 0; d < CAP_NDIRS; d++) {
		seghist_free(&lcap.dir[d]);
		seghist_free(&rcap.dir[d]);
	}
	grid_free(&pn.g);
	model_free(&u.model);
	return tap_done();
}
