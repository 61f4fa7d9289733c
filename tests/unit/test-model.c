// SPDX-License-Identifier: GPL-2.0-or-later
/* test-model.c - the dashboard's runs: ticks from samples, key figures, changes, ghosts. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "tap.h"

static struct sock_sample sock_l, sock_r;

/* A tick of both ends: rate, latency, buffers growing with t. */
static void fill_event(struct session_event *ev, double t, double rate, int32_t rcvbuf)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = SESSION_EV_SAMPLE;
	ev->local.t = t;
	ev->local.rate = rate;
	ev->local.has_lat = true;
	ev->local.lat_iv.count = 100;
	ev->local.lat_iv.p50_us = 50;
	ev->local.lat_iv.p99_us = 99;
	ev->local.lat_iv.mean_us = 1e6 / rate;	/* one in flight */
	sock_l = (struct sock_sample){ .sndbuf_init = 16384, .rcvbuf_init = 131072,
				       .sndbuf = 16384, .rcvbuf = rcvbuf, .outq = 0, .inq = 0 };
	sock_l.tcp.has = true;
	sock_l.tcp.snd_cwnd = 10;
	sock_r = sock_l;
	sock_r.rcvbuf = rcvbuf * 2;
	ev->local.nsocks = 1;
	ev->local.socks = &sock_l;
	ev->local.cpu.ncpu = 2;
	ev->local.cpu.total.busy = 40;
	ev->has_remote = true;
	ev->remote = ev->local;
	ev->remote.has_lat = false;
	ev->remote.socks = &sock_r;
	ev->remote.irq.ncpu = 2;
	ev->remote.irq.nlines = 0;
	ev->remote.irq.rx_total = 1234;
}

/* A snapshot of one knob. */
static struct knob_snapshot *snap(const char *name, const char *value)
{
	struct knob_snapshot *s = calloc(1, sizeof(*s));

	s->n = 1;
	s->item = calloc(1, sizeof(*s->item));
	snprintf(s->item[0].name, sizeof(s->item[0].name), "%s", name);
	s->item[0].v.present = true;
	snprintf(s->item[0].v.text, sizeof(s->item[0].v.text), "%s", value);
	return s;
}

static void result_with(struct session_result *res, double thr, const char *gro_remote)
{
	memset(res, 0, sizeof(*res));
	res->throughput = thr;
	res->elapsed = 10;
	res->local.cpu.ncpu = 2;
	res->local.cpu.total.busy = 33;
	res->local.has_lat = true;
	res->local.lat.count = 10;
	res->local.lat.p50_us = 51;
	res->local.lat.p99_us = 98;
	res->local_sd = 12.5;
	res->remote_sd = -1;
	res->knobs_local = snap("gro", "on");
	res->knobs_remote = snap("gro", gro_remote);
	res->local.cpu_main = res->remote.cpu_main = -1;
}

int main(void)
{
	struct model m;
	struct test_params p;
	struct session_event ev;
	struct session_result res;
	struct model_run *r1, *r2, *r3;
	struct why_change c;
	json_t *d1, *d2;
	int rc;
	double xs[8], ys[8];
	unsigned n;

	params_default(&p);
	p.duration = 10;
	model_init(&m);
	r1 = model_begin(&m, &p, "lab: test");
	ok(r1 && r1->id == 1 && r1->state == MS_STARTING && m.nruns == 1,
	   "a new run starts as run 1, starting");
	for (int i = 1; i <= 5; i++) {
		fill_event(&ev, i * 0.1, 1000 * i, 131072 * i);
		model_sample(r1, &ev);
	}
	ok(r1->nticks == 5 && r1->state == MS_RUNNING, "five samples make five ticks, running");
	ok(r1->ticks[4].rate == 5000 && r1->ticks[4].p50_us == 50 && r1->ticks[4].p99_us == 99,
	   "RR rate is trans/s with the tick's p50/p99");
	ok(r1->ticks[2].rcvbuf[END_L] == 3 * 131072 && r1->ticks[2].rcvbuf[END_R] == 6 * 131072 &&
	   r1->ticks[2].cwnd[END_L] == 10, "both ends' buffers and cwnd per tick");
	ok(isnan(r1->ticks[0].irq[END_R]) && r1->ticks[0].net_rx[END_R] == 1234,
	   "a device without IRQ lines is n/a (NAN), NET_RX is kept");
	ok(r1->sndbuf_init[END_L] == 16384 && r1->rcvbuf_init[END_R] == 131072,
	   "initial buffer sizes are kept");
	n = model_series(r1, MF_RCVBUF_R, xs, ys, 3);
	ok(n == 3 && xs[0] > 0.29 && xs[0] < 0.31 && ys[2] == 10 * 131072,
	   "model_series gives the newest n points of a field");
	n = model_series_span(r1, MF_RCVBUF_R, xs, ys, 3);
	ok(n == 3 && xs[0] == r1->ticks[0].t && xs[1] == r1->ticks[2].t &&
		   xs[2] == r1->ticks[4].t && ys[2] == 10 * 131072,
	   "model_series_span spreads n points over the whole run, first and newest tick in");
	ok(model_why_top(r1) && !strcmp(model_why_top(r1)->rule, "latency") &&
		   strstr(model_why_top(r1)->evidence, "latency bound: 1 transaction in flight"),
	   "while it runs, the live verdict over the last ticks (%s)",
	   model_why_top(r1) ? model_why_top(r1)->evidence : "none");
	result_with(&res, 4321, "on");
	model_end(&m, r1, 0, NULL, &res);
	ok(!model_why_top(r1) && !r1->whywin,
	   "once ended, the session's verdicts (none in this result) replace the live ones");
	ok(r1->state == MS_DONE && r1->rate == 4321 && r1->p99_us == 98 && r1->lcpu == 33 &&
	   r1->lsd == 12.5 && r1->rsd < 0, "the result gives the key figures");
	ok(res.knobs_local == NULL && r1->has_result, "the model takes the result over");
	ok(r1->changes[0] == '\0', "the first run has no knob changes to name");

	/* Run 2 flips gro on the remote end. */
	r2 = model_begin(&m, &p, "lab: test");
	fill_event(&ev, 0.1, 900, 131072);
	model_sample(r2, &ev);
	ok(model_ghost(&m, r2) == r1, "the ghost of run 2 is run 1");
	result_with(&res, 4000, "off");
	model_end(&m, r2, 0, NULL, &res);
	ok(!strcmp(r2->changes, "gro: on -> off (remote)"),
	   "run 2 names the knob changed since run 1 (%s)", r2->changes);

	/* What moved (docs/why.md): the documents kept, compared, bounded. */
	d1 = json_pack("{s:{s:f, s:f, s:f}}", "result", "throughput", 1000.0,
		       "transaction_rate", 1000.0, "mean_latency", 1000.0);
	d2 = json_pack("{s:{s:f, s:f, s:f}}", "result", "throughput", 4000.0,
		       "transaction_rate", 4000.0, "mean_latency", 2000.0);
	ok(model_why_change(r1, r2, &c) == -ENOENT, "without documents there is nothing to compare");
	model_keep_doc(&m, r1, d1, NULL, NULL);
	model_keep_doc(&m, r2, d2, NULL, NULL);
	memset(&c, 0, sizeof(c));
	rc = model_why_change(r1, r2, &c);
	ok(rc == 0 && c.beyond_noise && c.n == 1 &&
	   !strcmp(c.m[0].what, "transactions in flight (rate x latency)") && c.m[0].b == 8,
	   "kept documents compare: %s", c.n ? c.m[0].text : "nothing moved");
	ok(model_compared(&m, r2, r2, NULL) == r1 && model_compared(&m, r1, r2, r1) == NULL &&
	   model_compared(&m, r2, r2, r1) == r1 && model_by_id(&m, 2) == r2,
	   "the runs panel compares a run with the run beside it, else its ghost");
	model_set_baseline(&m, r1);
	r3 = model_begin(&m, &p, "lab: test");
	ok(model_ghost(&m, r3) == r1 && r1->baseline, "with a baseline, the baseline is the ghost");
	model_end(&m, r3, -ECANCELED, NULL, NULL);
	ok(r3->state == MS_STOPPED && !r3->has_result, "a stopped run without a result");
	model_end(&m, model_begin(&m, &p, "x"), -ECONNREFUSED, "remote end refused", NULL);
	ok(model_last(&m)->state == MS_FAILED &&
	   !strcmp(model_last(&m)->failure, "remote end refused"), "a failed run keeps why");

	/* At the limit the oldest non-baseline run goes; the baseline stays. */
	while (m.nruns < MODEL_MAX_RUNS)
		model_end(&m, model_begin(&m, &p, "x"), 0, NULL, NULL);
	ok(model_begin(&m, &p, "x") != NULL && m.nruns == MODEL_MAX_RUNS &&
	   model_at(&m, 0) == r1 && model_at(&m, 1) != r2,
	   "run %u evicts run 2, not the baseline", MODEL_MAX_RUNS + 5);
	{
		unsigned kept = 0;

		for (unsigned i = 1; i < m.nruns; i++)
			model_keep_doc(&m, model_at(&m, i), d2, NULL, r1);
		for (unsigned i = 0; i < m.nruns; i++)
			kept += model_at(&m, i)->doc != NULL;
		ok(kept == MODEL_MAX_DOCS && r1->doc && model_last(&m)->doc,
		   "at most %u documents kept (%u), the newest and the one asked for",
		   MODEL_MAX_DOCS, kept);
	}
	json_decref(d1);
	json_decref(d2);

	/* Ticks beyond the limit: the oldest tenth goes. */
	{
		struct model_run *big = model_last(&m);

		for (unsigned i = 0; i < MODEL_MAX_TICKS + 1; i++) {
			fill_event(&ev, i * 0.1, i, 1);
			model_sample(big, &ev);
		}
		ok(big->nticks == MODEL_MAX_TICKS - MODEL_MAX_TICKS / 10 + 1 &&
		   big->dropped_ticks == MODEL_MAX_TICKS / 10 &&
		   big->ticks[big->nticks - 1].rate == MODEL_MAX_TICKS,
		   "past %u ticks the oldest tenth is dropped (%u kept)", MODEL_MAX_TICKS, big->nticks);
	}
	/* Live verdicts read the knobs the session snapshotted before the run:
	 * a receive buffer grown to tcp_rmem's max is named while it runs. */
	{
		struct test_params ps = p;
		struct model_run *st;
		bool seen[2] = { false, false };

		ps.type = TEST_TCP_STREAM;
		for (int k = 0; k < 2; k++) {
			st = model_begin(&m, &ps, "lab: test");
			for (int i = 1; i <= 5; i++) {
				fill_event(&ev, i * 0.1, 1000, 3145728);
				why_knobs_read(&ev.knobs_local, NULL);
				why_knobs_read(&ev.knobs_remote, NULL);
				if (k)
					ev.knobs_remote.tcp_rmem_max = 6291456;
				model_sample(st, &ev);
			}
			for (unsigned i = 0; i < st->why_live.n; i++)
				seen[k] |= strstr(st->why_live.v[i].evidence,
						  "remote SO_RCVBUF 6M is at tcp_rmem max 6M") != NULL;
			model_end(&m, st, -ECANCELED, NULL, NULL);
		}
		ok(!seen[0] && seen[1],
		   "a live window names a buffer at its tcp_rmem ceiling only with the knobs read before the run");
	}
	{
		char b[128];

		p.req_size = 1;
		p.resp_size = 1;
		p.burst = 15;
		p.nodelay = true;
		ok(!strcmp(model_params_text(&p, b, sizeof(b)), "TCP_RR -l 10 -- -r 1,1 -b 15 -D"),
		   "parameters read as tunetop run's options (%s)", b);
	}
	model_free(&m);
	return tap_done();
}
