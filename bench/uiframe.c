// SPDX-License-Identifier: GPL-2.0-or-later
/* uiframe.c - how long one frame of the full dashboard takes to draw, at 200x60. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

/*
 * A run as a 60 s TCP_STREAM leaves it: 600 ticks of both ends with
 * growing buffers, a capture of a few hundred sizes per direction (TSO
 * remainders), the catalog's knobs; a ghost run behind it.  Then every
 * panel is drawn into its grid, as the dashboard does when all are dirty.
 */
static struct seg_capture *fake_capture(unsigned seed)
{
	struct seg_capture *c = calloc(1, sizeof(*c));

	snprintf(c->dev, sizeof(c->dev), "veth-a");
	for (int d = 0; d < CAP_NDIRS; d++) {
		seghist_init(&c->dir[d]);
		c->mss[d] = 1448;
	}
	seghist_add_n(&c->dir[CAP_OUT], 1448, 1000);
	for (unsigned i = 1; i <= 300; i++)
		seghist_add_n(&c->dir[CAP_OUT], 1448 * (i % 45 + 1) + (i * seed) % 1448, i);
	seghist_add_n(&c->dir[CAP_IN], 0, 50000);
	return c;
}

static void fake_run(struct model *m, struct test_params *p, double scale)
{
	struct model_run *r = model_begin(m, p, "lab: bench");
	struct session_result res;
	struct sock_sample ls, rs;

	for (int i = 1; i <= 600; i++) {
		struct session_event ev;

		memset(&ev, 0, sizeof(ev));
		ev.kind = SESSION_EV_SAMPLE;
		ev.local.t = i * 0.1;
		ev.local.rate = scale * 9.4e9 * (1 + 0.05 * sin(i / 7.0));
		memset(&ls, 0, sizeof(ls));
		ls.sndbuf_init = 16384;
		ls.rcvbuf_init = 131072;
		ls.sndbuf = 16384 + i * 6000;
		ls.rcvbuf = 131072 + i * 9000;
		ls.tcp.has = true;
		ls.tcp.snd_cwnd = 10 + i % 300;
		rs = ls;
		ev.local.nsocks = ev.remote.nsocks = 1;
		ev.local.socks = &ls;
		ev.remote.socks = &rs;
		ev.has_remote = true;
		for (int e = 0; e < 2; e++) {
			struct end_sample *s = e ? &ev.remote : &ev.local;

			s->cpu.ncpu = 2;
			s->cpu.total.busy = 60;
			s->irq.ncpu = 2;
			s->irq.id[0] = 0;
			s->irq.id[1] = 1;
			s->irq.rx_rate[0] = 1e4 + i;
			s->irq.rx_rate[1] = 2e4 - i;
			s->irq.rx_total = 3e4;
			snprintf(s->irq_dev, sizeof(s->irq_dev), "veth-%c", e ? 'b' : 'a');
		}
		if (i == 600) {
			ev.local.cap = fake_capture(7);
			ev.remote.cap = fake_capture(11);
		}
		model_sample(r, &ev);
		seg_capture_free(ev.local.cap);
		free(ev.local.cap);
		seg_capture_free(ev.remote.cap);
		free(ev.remote.cap);
	}
	memset(&res, 0, sizeof(res));
	res.throughput = scale * 9400;
	res.local.cpu_main = res.remote.cpu_main = -1;
	model_end(m, r, 0, NULL, &res);
}

/* The dashboard's 3x2 layout of 200x60 (a header and a status line). */
static void place(struct panel *p, unsigned i)
{
	int cols = 3, w = 200, h = 58, c = (int)i % cols, r = (int)i / cols;

	p->x = c * (w / cols);
	p->w = c == cols - 1 ? w - p->x : w / cols;
	p->y = 1 + r * (h / 2);
	p->h = r == 1 ? 1 + h - p->y : h / 2;
}

int main(int argc, char **argv)
{
	static const struct panel_ops *const ops[] = {
		&panel_rate, &panel_segments, &panel_buffers,
		&panel_interrupts, &panel_knobs, &panel_runs,
	};
	unsigned frames = argc > 1 ? (unsigned)atoi(argv[1]) : 2000;
	struct panel panels[6];
	struct ui u;
	char err[ERR_MAX];
	double worst = 0, total = 0;

	memset(&u, 0, sizeof(u));
	model_init(&u.model);
	params_default(&u.p);
	u.p.type = TEST_TCP_STREAM;
	u.p.duration = 60;
	u.utf8 = true;
	snprintf(u.target, sizeof(u.target), "lab: bench");
	if (catalog_load(&u.cat, catalog_default_path(), err)) {
		fprintf(stderr, "uiframe: %s\n", err);
		return 2;
	}
	u.nknobs = catalog_count(u.cat);
	u.knobs = calloc(u.nknobs, sizeof(*u.knobs));
	for (unsigned i = 0; i < u.nknobs; i++) {
		u.knobs[i].d = catalog_at(u.cat, i);
		for (int e = 0; e < END_N; e++) {
			u.knobs[i].v[e].present = i % 3 != 0;
			snprintf(u.knobs[i].v[e].text, KNOB_TEXT_MAX, "%u", i * 7);
			snprintf(u.knobs[i].v[e].reason, sizeof(u.knobs[i].v[e].reason),
				 "veth: not supported by the driver");
			snprintf(u.knobs[i].original[e], KNOB_TEXT_MAX, "%u", i % 5 ? i * 7 : 1);
		}
	}
	fake_run(&u.model, &u.p, 0.95);
	fake_run(&u.model, &u.p, 1.0);
	u.cur = model_last(&u.model);
	u.panels = panels;
	u.npanels = 6;
	memset(panels, 0, sizeof(panels));
	for (unsigned i = 0; i < 6; i++) {
		panels[i].ops = ops[i];
		place(&panels[i], i);
		grid_init(&panels[i].g, panels[i].w, panels[i].h, true);
	}
	for (unsigned f = 0; f < frames; f++) {
		uint64_t t0 = now_ns();
		double us;

		for (unsigned i = 0; i < 6; i++)
			panels[i].ops->draw(&u, &panels[i]);
		us = (double)(now_ns() - t0) / 1e3;
		total += us;
		if (us > worst)
			worst = us;
	}
	printf("frame 200x60, 6 panels, %u frames: mean %.0f us, worst %.0f us\n", frames,
	       total / frames, worst);
	for (unsigned i = 0; i < 6; i++)
		grid_free(&panels[i].g);
	free(u.knobs);
	catalog_free(u.cat);
	model_free(&u.model);
	return 0;
}
