// SPDX-License-Identifier: GPL-2.0-or-later
/* test-why.c - the why rules on recorded tick series and NIC figures. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "proto/msg.h"
#include "sample/irqstat.h"
#include "session/session.h"
#include "session/why.h"
#include "session/why-change.h"
#include "tap.h"

#define MAX_TICKS 64

static char top_dir[PATH_MAX / 2];

/* A recorded series: `tunetop run --json-stream` interval lines of a lab run. */
struct series {
	unsigned n;
	struct end_sample loc[MAX_TICKS], rem[MAX_TICKS];
	const struct end_sample *lp[MAX_TICKS], *rp[MAX_TICKS];
};

static int load_series(const char *name, struct series *s)
{
	char path[PATH_MAX], err[ERR_MAX] = "";
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/tests/data/why/%s.jsonl", top_dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (s->n < MAX_TICKS && getline(&line, &cap, f) > 0) {
		json_t *d = json_loads(line, 0, NULL);
		const json_t *r = json_object_get(d, "remote");
		unsigned i = s->n;

		if (!d || sample_from_json(json_object_get(d, "local"), &s->loc[i], err)) {
			json_decref(d);
			rc = -1;
			break;
		}
		s->lp[i] = &s->loc[i];
		if (r && !json_is_null(r)) {
			if (sample_from_json(r, &s->rem[i], err)) {
				json_decref(d);
				rc = -1;
				break;
			}
			s->rp[i] = &s->rem[i];
		}
		s->n++;
		json_decref(d);
	}
	free(line);
	fclose(f);
	if (rc)
		printf("# %s: %s\n", path, err);
	return rc ? rc : s->n ? 0 : -1;
}

static void free_series(struct series *s)
{
	for (unsigned i = 0; i < s->n; i++) {
		sample_free(&s->loc[i]);
		if (s->rp[i])
			sample_free(&s->rem[i]);
	}
}

/* Judge a recorded series run with p in a lab with tbf rate tbf. */
static int judge(const char *name, const struct test_params *p, uint64_t tbf,
		 struct why_report *out)
{
	static struct series s;
	struct why_input in;

	int rc = load_series(name, &s);

	if (!ok(rc == 0, "%s: the recorded series loads (%u ticks)", name, s.n))
		return -1;
	why_input_init(&in, p);
	why_input_ticks(&in, s.lp, s.rp, s.n);
	in.tbf_bps = tbf;
	why_eval(&in, out);
	free_series(&s);
	for (unsigned i = 0; i < out->n; i++)
		printf("#   %u. [%s, tier %d, %.2f] %s\n", i + 1, out->v[i].rule,
		       (int)out->v[i].tier, out->v[i].strength, out->v[i].evidence);
	return 0;
}

static bool has_rule(const struct why_report *r, const char *rule)
{
	for (unsigned i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].rule, rule))
			return true;
	return false;
}

static void params(struct test_params *p, enum test_type t)
{
	params_default(p);
	p->type = t;
}

static void test_link(void)
{
	struct test_params p;
	struct why_report r;

	params(&p, TEST_TCP_STREAM);
	if (judge("stream-tbf-1gbit", &p, 1000000000ull, &r))
		return;
	ok(r.n && !strcmp(r.v[0].rule, "link") && strstr(r.v[0].evidence, "of 1000 Mbit/s tbf"),
	   "tbf 1gbit stream: the link first (%s)", r.v[0].evidence);
	if (judge("stream-tbf-1gbit", &p, 2000000000ull, &r))
		return;
	ok(!has_rule(&r, "link"),
	   "the same series under a 2 Gbit/s tbf: throughput far below it, no link verdict");
	if (judge("stream-tbf-1gbit", &p, 0, &r))
		return;
	ok(!has_rule(&r, "link"), "no tbf: no link verdict");
}

static void test_rwnd(void)
{
	struct test_params p;
	struct why_report r;

	params(&p, TEST_TCP_STREAM);
	p.rrcvbuf = p.rsndbuf = 8192;
	if (judge("stream-S8K", &p, 0, &r))
		return;
	ok(r.n && !strcmp(r.v[0].rule, "receive window") &&
		   strstr(r.v[0].evidence, "remote SO_RCVBUF 16K (set by -S 8K)"),
	   "-S 8K stream: the receive window first, with the remote buffer and -S (%s)",
	   r.v[0].evidence);
}

static void test_sndbuf(void)
{
	struct test_params p;
	struct why_report r;

	params(&p, TEST_TCP_STREAM);
	p.lsndbuf = p.lrcvbuf = 8192;
	if (judge("stream-s8K", &p, 0, &r))
		return;
	ok(r.n && !strcmp(r.v[0].rule, "send buffer") &&
		   strstr(r.v[0].evidence, "SO_SNDBUF 16K (set by -s 8K)"),
	   "-s 8K stream: the send buffer first, with the local buffer and -s (%s)",
	   r.v[0].evidence);
}

static void test_latency(void)
{
	struct test_params p;
	struct why_report r;

	params(&p, TEST_TCP_RR);
	if (judge("rr-1", &p, 0, &r))
		return;
	ok(r.n && !strcmp(r.v[0].rule, "latency") &&
		   strstr(r.v[0].evidence, "latency bound: 1 transaction in flight, RTT "),
	   "RR, one in flight: latency bound first (%s)", r.v[0].evidence);
	p.burst = 15;
	if (judge("rr-1", &p, 0, &r))
		return;
	ok(!has_rule(&r, "latency"),
	   "the same series taken as -b 15: more in flight than a latency bound, no verdict");
	p.burst = 1;
	if (judge("rr-1", &p, 0, &r))
		return;
	ok(has_rule(&r, "latency") && strstr(r.v[1].evidence, "latency bound with gaps: 2 transactions") &&
		   r.v[1].tier == WHY_SUPPORT,
	   "the same series taken as -b 1: rate x RTT is half of 2 in flight, 'with gaps', supporting (%s)",
	   r.v[1].evidence);
}

static void test_one_cpu(void)
{
	struct test_params p;
	struct why_report r;

	params(&p, TEST_TCP_STREAM);
	p.lcpu = p.rcpu = 0;
	if (judge("stream-T00", &p, 0, &r))
		return;
	ok(r.n && !strcmp(r.v[0].rule, "one cpu") &&
		   strstr(r.v[0].evidence, "both pinned to CPU 0 (-T 0,0)"),
	   "-T 0,0 stream: one CPU for both ends first (%s)", r.v[0].evidence);
	p.lcpu = p.rcpu = -1;
	if (judge("stream-T00", &p, 0, &r))
		return;
	ok(!has_rule(&r, "one cpu"), "the same series, not pinned: no one-CPU verdict");
}

/* Nothing set: none of the scenario rules may claim the run. */
static void test_plain(void)
{
	struct test_params p;
	struct why_report r;

	params(&p, TEST_TCP_STREAM);
	if (judge("stream-plain", &p, 0, &r))
		return;
	ok(r.n && !has_rule(&r, "link") && !has_rule(&r, "send buffer") &&
		   !has_rule(&r, "one cpu") && !has_rule(&r, "latency"),
	   "a plain stream: no link, send buffer, one-CPU or latency verdict (%s)",
	   r.n ? r.v[0].evidence : "");
}

/* A knob snapshot with the given name=value pairs (numbers). */
static void snapshot(struct knob_snapshot *k, struct knob_snapshot_item *items,
		     const char *const *names, const int64_t (*vals)[3], unsigned n)
{
	memset(k, 0, sizeof(*k));
	k->n = n;
	k->item = items;
	for (unsigned i = 0; i < n; i++) {
		memset(&items[i], 0, sizeof(items[i]));
		snprintf(items[i].name, sizeof(items[i].name), "%s", names[i]);
		items[i].v.present = true;
		memcpy(items[i].v.num, vals[i], sizeof(items[i].v.num));
	}
}

/* The recorded eth1 lines of tests/data/proc-irq/handmade, before and after. */
static int read_eth1(const char *what, struct irqstat_raw *a, struct irqstat_raw *b)
{
	static const char *const eth1[] = { "eth1" };
	char dir[PATH_MAX], err[ERR_MAX] = "";

	for (unsigned i = 0; i < 2; i++) {
		snprintf(dir, sizeof(dir), "%s/tests/data/proc-irq/handmade.%u", top_dir, i + 1);
		if (!ok(irqstat_read(dir, eth1, 1, i ? b : a, err) == 0,
			"%s: recorded IRQs read, handmade.%u (%s)", what, i + 1, err))
			return -1;
	}
	return 0;
}

/*
 * Seed 000's RR at 3MSS+1 (4345-byte requests, 3406.62 trans/s, one in
 * flight) on a NIC whose `ethtool -c` said adaptive-rx on, rx-usecs 16,
 * rx-usecs-high 128; its interrupts are the recorded eth1 lines of
 * tests/data/proc-irq/handmade (2150 over 2 s), since labs have none.
 */
static void test_coalescing(void)
{
	static const char *const names[] = { "rx-usecs", "rx-usecs-high", "adaptive-rx" };
	static const int64_t on[][3] = { { 16 }, { 128 }, { 1 } };
	static const int64_t off[][3] = { { 16 }, { 128 }, { 0 } };
	struct knob_snapshot_item items[3];
	struct knob_snapshot k;
	struct irqstat_raw a, b;
	static struct end_sample loc[2], rem[2];
	const struct end_sample *lp[2] = { &loc[0], &loc[1] }, *rp[2] = { &rem[0], &rem[1] };
	struct test_params p;
	struct why_input in;
	struct why_report r;

	if (read_eth1("coalescing", &a, &b))
		return;
	params(&p, TEST_TCP_RR);
	p.req_size = 4345;
	for (unsigned i = 0; i < 2; i++) {
		memset(&loc[i], 0, sizeof(loc[i]));
		memset(&rem[i], 0, sizeof(rem[i]));
		loc[i].t = rem[i].t = 10.0 * i;
		loc[i].iv_secs = 10;
		loc[i].rate = 3406.62;
		loc[i].has_lat = true;
		loc[i].lat_iv.count = 34066;
		loc[i].lat_iv.mean_us = 1e6 / 3406.62;
		snprintf(rem[i].irq_dev, sizeof(rem[i].irq_dev), "eth1");
		irqstat_delta(&a, &b, 2.0, &rem[i].irq);
	}
	why_input_init(&in, &p);
	why_input_ticks(&in, lp, rp, 2);
	snapshot(&k, items, names, on, 3);
	why_end_knobs(&in.remote, &k);
	why_eval(&in, &r);
	ok(r.n && !strcmp(r.v[0].rule, "coalescing") && r.v[0].tier == WHY_DIRECT &&
		   strstr(r.v[0].evidence, "remote end: 0.32 interrupts per transaction on eth1") &&
		   strstr(r.v[0].evidence, "rx-usecs-high 128"),
	   "seed 000's RR with adaptive-rx: coalescing first (%s)", r.n ? r.v[0].evidence : "");
	ok(has_rule(&r, "latency"), "coalescing: latency bound is listed too");

	snapshot(&k, items, names, off, 3);
	in.remote.kn.adaptive_rx = -1;
	why_end_knobs(&in.remote, &k);
	why_eval(&in, &r);
	ok(r.n && !strcmp(r.v[0].rule, "latency") && has_rule(&r, "coalescing"),
	   "adaptive-rx off, rx-usecs 16 of 294 us: latency first, coalescing supporting");

	in.remote.kn.rx_usecs = 0;
	in.remote.kn.adaptive_rx = 0;
	why_eval(&in, &r);
	ok(!has_rule(&r, "coalescing"), "no coalescing set: no coalescing verdict");
}

/* A stream input with a busy sender and nothing else of note. */
static void plain_stream(struct why_input *in)
{
	struct test_params p;

	params(&p, TEST_TCP_STREAM);
	why_input_init(in, &p);
	in->elapsed = 10;
	in->throughput = 9e9;
	for (unsigned i = 0; i < 2; i++) {
		struct why_end *e = i ? &in->remote : &in->local;

		e->present = true;
		snprintf(e->host, sizeof(e->host), "%s", i ? "b" : "a");
		e->ntcp = 1;
		e->cpu.ncpu = 2;
		e->cpu.cpu[0].id = 0;
		e->cpu.cpu[1].id = 1;
		e->cpu.cpu[0].busy = 40;
		e->cpu.cpu[1].busy = 30;
		e->cpu.peak_busy = 40;
		e->sndbuf = 4194304;
		e->rcvbuf = 6291456;
		e->retrans = 0;
		e->segs_out = 100000;
	}
	in->local.nchrono = in->remote.nchrono = 1;
	in->local.busy_us = 9.8e6;
	in->local.rwnd_us = 0.1e6;
	in->local.sndbuf_us = 0;
}

static void test_synthetic(void)
{
	struct why_input in;
	struct why_report r, back;
	char err[ERR_MAX] = "";
	json_t *j;

	plain_stream(&in);
	why_eval(&in, &r);
	ok(r.n && !strcmp(r.v[0].rule, "none") &&
		   !strncmp(r.v[0].evidence, "no clear limit: busiest CPU 40 %, rwnd 1 %, sndbuf 0 % of busy time, no tbf", 74),
	   "nothing stands out: no clear limit, with what was looked at (%s)", r.v[0].evidence);

	plain_stream(&in);
	in.remote.cpu.cpu[1].busy = 98;
	in.remote.cpu.cpu[1].softirq = 61;
	why_eval(&in, &r);
	ok(r.n && !strcmp(r.v[0].rule, "cpu") &&
		   !strcmp(r.v[0].evidence, "CPU 1 on the remote end: 98 % (61 % softirq)"),
	   "two hosts, remote CPU 1 at 98 %%: named with its softirq share (%s)", r.v[0].evidence);

	plain_stream(&in);
	in.local.rwnd_us = in.local.busy_us * (why_thresholds.limited_share - 0.01);
	why_eval(&in, &r);
	ok(!has_rule(&r, "receive window"), "rwnd share just below the threshold: not named");
	in.local.rwnd_us = in.local.busy_us * 0.87;
	in.remote.rcvbuf = 8192;
	in.remote.rcvbuf_req = 4096;
	why_eval(&in, &r);
	ok(r.n && !strcmp(r.v[0].evidence,
			  "receive window: 87 % of busy time rwnd-limited, remote SO_RCVBUF 8K (set by -S 4K)"),
	   "rwnd share 87 %%: the issue's own example line (%s)", r.v[0].evidence);

	plain_stream(&in);
	in.local.nchrono = 0;
	in.local.busy_us = in.local.rwnd_us = 0;
	why_eval(&in, &r);
	ok(has_rule(&r, "n/a") && !has_rule(&r, "receive window") &&
		   strstr(r.v[r.n - 1].evidence, "Linux 4.10+"),
	   "a kernel without tcpi_busy_time: the shares are n/a, said last");

	plain_stream(&in);
	in.local.retrans = 3000;
	why_eval(&in, &r);
	ok(has_rule(&r, "loss") && strstr(r.v[0].evidence, "retransmits: 3.0 % of the local end's segments"),
	   "3 %% retransmitted: named (%s)", r.v[0].evidence);

	plain_stream(&in);
	in.type = TEST_UDP_STREAM;
	in.udp_sent = 123223;
	in.udp_lost = 51526;
	in.remote.cpu.cpu[1].busy = 100;
	why_eval(&in, &r);
	ok(r.n && !strcmp(r.v[0].rule, "loss") &&
		   !strcmp(r.v[0].evidence, "loss: 41.8 % of datagrams lost (51526 of 123223)"),
	   "UDP_STREAM losing 42 %%: the loss first, before a busy CPU (%s)", r.v[0].evidence);
	in.udp_lost = 6000;
	why_eval(&in, &r);
	ok(has_rule(&r, "loss") && strcmp(r.v[0].rule, "loss"),
	   "losing 5 %%: the loss is named, supporting");

	plain_stream(&in);
	in.remote.kn.tcp_rmem_max = 6291456;
	why_eval(&in, &r);
	ok(has_rule(&r, "buffer ceiling") && !strcmp(r.v[0].rule, "none") &&
		   strstr(r.v[r.n - 1].evidence, "remote SO_RCVBUF 6M is at tcp_rmem max 6M"),
	   "receive buffer autotuned to tcp_rmem max: named, after 'no clear limit' (alone it is none)");

	plain_stream(&in);
	in.tbf_bps = 10000000000ull;
	in.local.rwnd_us = in.local.busy_us * 0.5;
	in.remote.cpu.cpu[1].busy = 99;
	why_eval(&in, &r);
	ok(r.n >= 3 && !strcmp(r.v[0].rule, "link") && !strcmp(r.v[1].rule, "receive window") &&
		   !strcmp(r.v[2].rule, "cpu"),
	   "ranking: link (90 %%) and rwnd (50 %%) by strength, then the CPU (tier 2)");

	j = why_report_to_json(&r);
	ok(j && why_report_from_json(j, &back, err) == 0 && back.n == r.n &&
		   !strcmp(back.v[1].evidence, r.v[1].evidence) && back.v[1].tier == r.v[1].tier,
	   "the verdicts go to JSON and back (%s)", err);
	json_decref(j);
	j = json_pack("[{s:s}]", "rule", "x");
	ok(why_report_from_json(j, &back, err) == -EINVAL && strstr(err, "limits[0]"),
	   "a verdict without its members is refused by name (%s)", err);
	json_decref(j);
}

/* plain_stream() with n local flows, flow i rwnd-limited rwnd[i] of its busy time. */
static void flows_stream(struct why_input *in, const double *rwnd, unsigned n)
{
	struct why_end *e = &in->local;

	plain_stream(in);
	e->ntcp = e->nchrono = e->nflows = n;
	e->busy_us = e->rwnd_us = 0;
	for (unsigned i = 0; i < n; i++) {
		struct why_flow *f = &e->flow[i];

		f->flow = i;
		f->chrono = true;
		f->busy_us = 9.8e6 / n;
		f->rwnd_us = f->busy_us * rwnd[i];
		e->busy_us += f->busy_us;
		e->rwnd_us += f->rwnd_us;
	}
}

/* Per-flow limiter shares: the split, a starved minority, n/a, the rest. */
static void test_flows(void)
{
	static const double starved[] = { 0.0, 0.01, 0.90, 0.02 };
	static const double alike_below[] = { 0.23, 0.24, 0.23, 0.22 };
	static const double apart[] = { 0.50, 0.41, 0.97, 0.55 };
	static const double even[] = { 0.60, 0.62, 0.64, 0.62 };
	static struct sock_sample socks[12];
	struct test_params p;
	struct why_input in;
	struct why_report r;
	json_t *j;

	params(&p, TEST_TCP_STREAM);
	p.flows = 4;
	p.rrcvbuf = p.rsndbuf = 8192;
	if (!judge("stream-n4-S8K", &p, 0, &r))
		ok(r.n && !strcmp(r.v[0].rule, "receive window") &&
			   strstr(r.v[0].evidence, "rwnd-limited over 4 flows (") &&
			   strstr(r.v[0].evidence, "remote SO_RCVBUF 16K (set by -S 8K)"),
		   "-n 4 -S 8K stream: the receive window first, with the flows' split (%s)",
		   r.v[0].evidence);

	flows_stream(&in, starved, 4);
	why_eval(&in, &r);
	ok(r.n && !strcmp(r.v[0].rule, "receive window") && r.v[0].tier == WHY_DIRECT &&
		   !strcmp(r.v[0].evidence,
			   "receive window: flow 2 at 90 % of its busy time rwnd-limited, the others 0-2 %; 23 % over 4 flows, remote SO_RCVBUF 6M (autotuned)"),
	   "one of 4 flows starved, the sum below the threshold: that flow is named (%s)",
	   r.v[0].evidence);
	flows_stream(&in, alike_below, 4);
	why_eval(&in, &r);
	ok(!has_rule(&r, "receive window"),
	   "4 flows each just below the threshold: no receive window verdict");
	in.local.flow[1].rwnd_us = in.local.flow[1].busy_us * why_thresholds.flow_limited_share;
	in.local.rwnd_us += in.local.flow[1].rwnd_us - in.local.flow[1].busy_us * 0.24;
	why_eval(&in, &r);
	ok(has_rule(&r, "receive window") && strstr(r.v[0].evidence, "flow 1 at 25 %"),
	   "one flow at the per-flow threshold: named (%s)", r.v[0].evidence);

	flows_stream(&in, apart, 4);
	why_eval(&in, &r);
	ok(r.n && !strcmp(r.v[0].evidence,
			  "receive window: 61 % of busy time rwnd-limited over 4 flows (flow 2 at 97 %, the others 41-55 %), remote SO_RCVBUF 6M (autotuned)"),
	   "the sum above the threshold, one flow apart: the split (%s)", r.v[0].evidence);
	flows_stream(&in, even, 4);
	why_eval(&in, &r);
	ok(r.n && !strcmp(r.v[0].evidence,
			  "receive window: 62 % of busy time rwnd-limited over 4 flows (alike, 60-64 %), remote SO_RCVBUF 6M (autotuned)"),
	   "flows within flow_even of each other: said briefly (%s)", r.v[0].evidence);

	flows_stream(&in, alike_below, 4);
	in.local.rwnd_us = 0;
	for (unsigned i = 0; i < 4; i++) {
		in.local.flow[i].rwnd_us = 0;
		in.local.flow[i].sndbuf_us = i == 1 ? in.local.flow[i].busy_us * 0.8 : 0;
		in.local.sndbuf_us += in.local.flow[i].sndbuf_us;
	}
	why_eval(&in, &r);
	ok(r.n && !strcmp(r.v[0].evidence,
			  "send buffer: flow 1 at 80 % of its busy time sndbuf-limited, the others 0 %; 20 % over 4 flows, local SO_SNDBUF 4M (autotuned)"),
	   "one of 4 flows sndbuf-limited, the sum below: that flow is named (%s)",
	   r.v[0].evidence);

	flows_stream(&in, starved, 4);
	in.local.nchrono = 0;
	in.local.busy_us = in.local.rwnd_us = 0;
	for (unsigned i = 0; i < 4; i++)
		in.local.flow[i].chrono = false;
	why_eval(&in, &r);
	j = why_end_to_json(&in.local);
	ok(has_rule(&r, "n/a") && !has_rule(&r, "receive window") && j &&
		   json_array_size(json_object_get(j, "flows")) == 4 &&
		   json_is_null(json_object_get(json_array_get(json_object_get(j, "flows"), 2),
						"rwnd_pct")) &&
		   json_is_null(json_object_get(j, "busy_us")),
	   "a kernel without the limiter times: no flow named, the shares null in JSON");
	json_decref(j);

	/* 12 flows from socket figures: flow 10 lies beyond the listed 8 */
	plain_stream(&in);
	for (unsigned i = 0; i < 12; i++) {
		memset(&socks[i], 0, sizeof(socks[i]));
		socks[i].flow = i;
		socks[i].sndbuf = 4194304;
		socks[i].rcvbuf = 131072;
		socks[i].tcp.has = socks[i].tcp.has_chrono = true;
		socks[i].tcp.busy_us = 1000000;
		socks[i].tcp.rwnd_limited_us = i == 10 ? 950000 : 0;
		socks[i].tcp.app_limited = i < 3;
	}
	why_end_socks(&in.local, NULL, 0, socks, 12);
	why_eval(&in, &r);
	ok(r.n && !strcmp(r.v[0].evidence,
			  "receive window: flow 10 at 95 % of its busy time rwnd-limited, the others 0 %; 8 % over 12 flows, remote SO_RCVBUF 6M (autotuned)"),
	   "12 flows, the starved one among those summarised: named (%s)", r.v[0].evidence);
	j = why_end_to_json(&in.local);
	ok(j && json_array_size(json_object_get(j, "flows")) == WHY_FLOWS_MAX &&
		   json_integer_value(json_object_get(json_object_get(j, "flows_more"), "flows")) == 4 &&
		   json_integer_value(json_object_get(j, "app_limited")) == 3 &&
		   fabs(json_real_value(json_object_get(json_object_get(j, "flows_more"), "rwnd_pct")) -
			23.75) < 1e-9,
	   "JSON: the first %d flows listed, the other 4 summed (rwnd 23.75 %%)", WHY_FLOWS_MAX);
	json_decref(j);
}

/* A recorded run document of tests/data/why/ (`tunetop run --json`), or NULL. */
static json_t *load_doc(const char *name)
{
	char path[PATH_MAX];
	json_error_t e;
	json_t *d;

	snprintf(path, sizeof(path), "%s/tests/data/why/%s.json", top_dir, name);
	d = json_load_file(path, 0, &e);
	if (!d)
		printf("# %s: %s\n", path, e.text);
	return d;
}

/* The index of the moved mechanism whose text starts with what, or -1. */
static int moved_at(const struct why_change *w, const char *what)
{
	for (unsigned i = 0; i < w->n; i++)
		if (!strncmp(w->m[i].text, what, strlen(what)))
			return (int)i;
	return -1;
}

/* Do w (A -> B) and back (B -> A) name the same mechanisms with the same scores? */
static bool symmetric(const struct why_change *w, const struct why_change *back)
{
	if (w->n != back->n || w->nknobs != back->nknobs)
		return false;
	for (unsigned i = 0; i < w->n; i++)
		if (strcmp(w->m[i].what, back->m[i].what) ||
		    fabs(w->m[i].score - back->m[i].score) > 1e-9 * w->m[i].score ||
		    w->m[i].a != back->m[i].b)
			return false;
	return true;
}

/* A run document with the figures why_change reads. */
static json_t *change_doc(double thr, double segs, int cpu, double rwnd_us, double softirq)
{
	return json_pack("{s:{s:f, s:f, s:i}, s:{s:[{s:{s:i, s:f, s:i}}], s:{s:{s:f}}}}",
			 "result", "throughput", thr, "segs_out_per_trans", segs,
			 "local_cpu_ran", cpu,
			 "local", "socks", "tcp", "busy_us", 1000000, "rwnd_limited_us", rwnd_us,
			 "sndbuf_limited_us", 0, "cpu", "total", "softirq", softirq);
}

/* Five earlier runs of a setup within 1 % of each other: a tight history. */
static const double tight_hist[] = { 1000, 1010, 990, 1005, 995 };
static const struct why_noise tight = { .ci_a = NAN, .ci_b = NAN, .hist = tight_hist, .nhist = 5 };

static void test_change(void)
{
	json_t *a = change_doc(1000, 1.0, 0, 30000, 10);
	json_t *b = change_doc(700, 3.0, 1, 800000, 12);
	json_t *c = change_doc(980, 1.0, 0, 30000, 10);
	struct why_change w;

	why_change(a, b, &tight, &w);
	ok(w.beyond_noise && w.verdict.word == VERDICT_WORSE && fabs(w.change_pct + 30) < 1e-9 &&
		   w.n == 3,
	   "change: -30 %% is WORSE beyond a tight history's noise, three moved (%u)", w.n);
	ok(w.n == 3 && !strcmp(w.m[0].text, "receive-window-limited share, local sender: 3 % -> 80 %") &&
		   !strcmp(w.m[1].text, "segments per transaction, client out: 1.00 -> 3.00 (+200 %)") &&
		   !strcmp(w.m[2].text, "CPU the local end ran on: CPU 0 -> CPU 1"),
	   "change: largest first, the rwnd share (1.54), segments (ln 3), the CPU (1) (%s | %s | %s)",
	   w.n > 0 ? w.m[0].text : "", w.n > 1 ? w.m[1].text : "", w.n > 2 ? w.m[2].text : "");
	ok(w.n == 3, "change: a softirq share 2 points apart is not named");
	{
		struct why_change back;

		why_change(b, a, NULL, &back);
		ok(symmetric(&w, &back) && fabs(back.m[1].score - log(3)) < 1e-12,
		   "change backwards: 3.00 -> 1.00 scores ln 3 as 1.00 -> 3.00 does, the same order");
	}
	why_change(a, c, &tight, &w);
	ok(!w.beyond_noise && w.verdict.word == VERDICT_SAME && w.n == 0,
	   "change: -2 %% with nothing moved is within the noise: ~");
	why_change(a, b, NULL, &w);
	ok(!w.beyond_noise && w.verdict.word == VERDICT_CANT_TELL &&
		   w.verdict.src == VERDICT_SRC_PRIOR && strstr(w.verdict.reason, "A/B"),
	   "change: with no noise measured, -30 %% is within the prior: can't tell, offers the A/B (%s)",
	   w.verdict.reason);
	json_decref(a);
	json_decref(b);
	json_decref(c);

	/* -b 0 -> -b 7 on an RR: 1 -> 8 in flight, by the run's own figures */
	a = json_pack("{s:{s:f, s:f, s:f}}", "result", "throughput", 60000.0,
		      "transaction_rate", 60000.0, "mean_latency", 16.5);
	b = json_pack("{s:{s:f, s:f, s:f}}", "result", "throughput", 160000.0,
		      "transaction_rate", 160000.0, "mean_latency", 50.0);
	why_change(a, b, &tight, &w);
	ok(w.beyond_noise && w.n >= 1 &&
		   !strcmp(w.m[0].text, "transactions in flight (rate x latency): 0.99 -> 8.00 (+708 %)"),
	   "change: a burst change names the transactions in flight first (%s)",
	   w.n ? w.m[0].text : "none");
	json_decref(a);
	json_decref(b);

	/*
	 * The same in a lab (CI, ASan build): both ends on one host, whose
	 * NET_RX per transaction fell 7.54 -> 0.96.  The remote row would
	 * repeat the local one and push the in-flight move to third.
	 */
	a = json_pack("{s:{s:s, s:f, s:f, s:f, s:f, s:f}, s:{s:s}, s:{s:s}}", "result",
		      "throughput_units", "Trans/s", "throughput", 26701.9, "transaction_rate", 26701.9,
		      "mean_latency", 37.45, "local_net_rx_rate", 26701.9 * 7.54,
		      "remote_net_rx_rate", 26701.9 * 7.54, "local", "host", "h1", "remote", "host", "h1");
	b = json_pack("{s:{s:s, s:f, s:f, s:f, s:f, s:f}, s:{s:s}, s:{s:s}}", "result",
		      "throughput_units", "Trans/s", "throughput", 93134.5, "transaction_rate", 93134.5,
		      "mean_latency", 84.3, "local_net_rx_rate", 93134.5 * 0.96,
		      "remote_net_rx_rate", 93134.5 * 0.96, "local", "host", "h1", "remote", "host", "h1");
	why_change(a, b, NULL, &w);
	ok(w.n == 2 && moved_at(&w, "transactions in flight") >= 0 &&
		   moved_at(&w, "NET_RX per transaction, the host of both ends: 7.54 -> 0.96") >= 0,
	   "change, both ends on one host: NET_RX named once, for the host, beside the in-flight move (%s | %s | %s)",
	   w.n > 0 ? w.m[0].text : "", w.n > 1 ? w.m[1].text : "", w.n > 2 ? w.m[2].text : "");
	json_object_set_new(json_object_get(b, "remote"), "host", json_string("h2"));
	json_object_set_new(json_object_get(a, "remote"), "host", json_string("h2"));
	why_change(a, b, NULL, &w);
	ok(w.n == 3 && moved_at(&w, "NET_RX per transaction, local end") >= 0 &&
		   moved_at(&w, "NET_RX per transaction, remote end") >= 0,
	   "change, two hosts: each end's NET_RX has its row (%u)", w.n);
	json_decref(a);
	json_decref(b);
}

/*
 * A GRO flip recorded in a lab (tests/data/why/README): TSO and GSO off on
 * the sender, the receiver's GRO off, then on.  TCP_INFO counts wire
 * segments either way; only the capture shows what GRO merged.
 */
static void test_change_gro(void)
{
	json_t *off = load_doc("gro-off"), *on = load_doc("gro-on"), *near;
	struct why_change w, back;
	json_t *rx;
	int at;

	if (!ok(off && on, "gro flip: both recorded documents load")) {
		json_decref(off);
		json_decref(on);
		return;
	}
	why_change(off, on, NULL, &w);
	ok(w.knobs_recorded && w.nknobs == 1 && !strcmp(w.k[0].text, "remote gro: off -> on") &&
		   !strcmp(w.k[0].group, "offloads"),
	   "gro flip: the one knob that differs is named (%s)", w.nknobs ? w.k[0].text : "none");
	ok(w.n && !strcmp(w.m[0].text, "segment size received, remote end (capture): 1445 -> 60281 B "
					"(+4071 %), 692 -> 17 segments per MB"),
	   "gro flip: the receiver's segment size first, with segments per MB (%s)",
	   w.n ? w.m[0].text : "none");
	ok(moved_at(&w, "segment size received, local end") < 0,
	   "gro flip: the sender received only ACKs: no local segment size");
	why_change(on, off, NULL, &back);
	ok(symmetric(&w, &back) && back.nknobs == 1 && !strcmp(back.k[0].text, "remote gro: on -> off"),
	   "gro flip backwards: the same mechanisms with the same scores, the knob the other way");
	ok(!w.note[0], "gro flip captured: no note (%s)", w.note);

	/* the same flip without --capture on run B: nothing can show GRO */
	near = json_deep_copy(on);
	json_object_set_new(json_object_get(near, "remote"), "capture", json_null());
	json_object_set_new(json_object_get(near, "local"), "capture", json_null());
	why_change(off, near, NULL, &w);
	ok(moved_at(&w, "segment size received") < 0 &&
		   !strcmp(w.note, "remote gro changed but not both runs captured: the receiver's "
				   "segment sizes need --capture"),
	   "gro flip, B not captured: no segment size, a note says why (%s)", w.note);
	json_decref(near);

	/* 19 % larger segments on the receiver: below the 20 % named */
	near = json_deep_copy(off);
	rx = json_object_get(json_object_get(json_object_get(near, "remote"), "capture"), "received");
	json_object_set_new(rx, "bytes", json_real(json_number_value(json_object_get(rx, "bytes")) * 1.19));
	why_change(off, near, NULL, &w);
	at = moved_at(&w, "segment size received");
	ok(at < 0 && w.nknobs == 0, "segment size 19 %% larger: not named, no knob differs");
	json_object_set_new(rx, "bytes", json_real(json_number_value(json_object_get(rx, "bytes")) / 1.19 * 1.25));
	why_change(off, near, NULL, &w);
	ok(moved_at(&w, "segment size received, remote end (capture): 1445 -> 1807 B (+25 %)") >= 0,
	   "segment size 25 %% larger: named");
	json_object_set_new(json_object_get(json_object_get(near, "remote"), "capture"), "dropped",
			    json_true());
	why_change(off, near, NULL, &w);
	at = moved_at(&w, "segment size received, remote end");
	ok(at >= 0 && strstr(w.m[at].text, "segments per MB (the capture dropped packets)"),
	   "a capture that dropped packets says so (%s)", at >= 0 ? w.m[at].text : "none");
	json_decref(near);

	/* the flip as the lab starts: the sender's TSO and GSO on, its whole
	 * segments arrive (25 MSS on average with GRO off): why GRO cannot act */
	{
		json_t *whole = json_deep_copy(off), *lk;
		const json_t *k;
		size_t i;

		rx = json_object_get(json_object_get(json_object_get(whole, "remote"), "capture"), "received");
		json_object_set_new(rx, "bytes", json_real(json_number_value(json_object_get(rx, "bytes")) * 25));
		lk = json_object_get(json_object_get(json_object_get(whole, "knobs"), "local"), "knobs");
		json_array_foreach(lk, i, k)
			if (!strcmp(json_string_value(json_object_get(k, "name")), "tso") ||
			    !strcmp(json_string_value(json_object_get(k, "name")), "gso"))
				json_object_set_new((json_t *)k, "value", json_string("on"));
		near = json_deep_copy(whole);
		lk = json_object_get(json_object_get(json_object_get(near, "knobs"), "remote"), "knobs");
		json_array_foreach(lk, i, k)
			if (!strcmp(json_string_value(json_object_get(k, "name")), "gro"))
				json_object_set_new((json_t *)k, "value", json_string("on"));
		why_change(whole, near, NULL, &w);
		ok(w.nknobs == 1 && moved_at(&w, "segment size received") < 0 &&
			   strstr(w.note, "remote gro off -> on cannot act: local sends TSO/GSO segments, they arrive whole over the veth (") &&
			   strstr(w.note, "tso=off gso=off on local lets GRO act"),
		   "gro flip behind the sender's TSO/GSO: says why it cannot act and what makes it act (%s)",
		   w.note);
		why_change(near, whole, NULL, &w);
		ok(strstr(w.note, "remote gro on -> off cannot act"), "and the flip back the same (%s)", w.note);
		why_change(off, on, NULL, &w);
		ok(!strstr(w.note, "cannot act"), "a flip with the sender's TSO/GSO off says nothing of the kind");
		json_decref(whole);
		json_decref(near);
	}
	json_decref(off);
	json_decref(on);
}

/*
 * A run document of seed 000's RR on a NIC: trans/s, the remote end's
 * interrupts/s on eth1 and its coalescing knobs as the snapshot has them.
 */
static json_t *nic_doc(const char *units, double rate, double irq, const char *adaptive)
{
	return json_pack("{s:{s:s, s:f, s:f, s:f, s:s}, s:{s:{s:[{s:s, s:s, s:s}, {s:s, s:s, s:s}]}}}",
			 "result", "throughput_units", units, "throughput", rate,
			 "transaction_rate", rate, "remote_irq_rate", irq, "remote_irq_dev", "eth1",
			 "knobs", "remote", "knobs", "name", "rx-usecs", "group", "coalescing",
			 "value", "16", "name", "adaptive-rx", "group", "coalescing", "value", adaptive);
}

/*
 * Interrupts per transaction from recorded NIC figures (labs' veth have
 * none): the eth1 lines of tests/data/proc-irq/handmade, 2150 interrupts.
 * Over their 2 s, 1075/s: seed 000's 3406.62 trans/s with adaptive-rx on
 * (0.32 per transaction).  Read as 0.2 s apart, 10750/s: about one per
 * transaction at the 10460.02 trans/s the seed got with adaptive-rx off.
 */
static void test_change_irq(void)
{
	struct irqstat_raw r1, r2;
	struct irq_sample slow, fast;
	struct why_change w, back;
	json_t *a, *b;
	int at;

	if (read_eth1("irq change", &r1, &r2))
		return;
	irqstat_delta(&r1, &r2, 2.0, &slow);
	irqstat_delta(&r1, &r2, 0.2, &fast);
	a = nic_doc("Trans/s", 10460.02, fast.irq_total, "off");
	b = nic_doc("Trans/s", 3406.62, slow.irq_total, "on");
	why_change(a, b, NULL, &w);
	ok(w.nknobs == 1 && !strcmp(w.k[0].text, "remote adaptive-rx: off -> on"),
	   "irq change: adaptive-rx is the knob that differs (%s)", w.nknobs ? w.k[0].text : "none");
	at = moved_at(&w, "interrupts per transaction, remote end (eth1): 1.03 -> 0.32 (-69 %), adaptive-rx off -> on");
	ok(at == 0, "irq change: interrupts per transaction named first, with the coalescing that changed (%s)",
	   w.n ? w.m[0].text : "none");
	why_change(b, a, NULL, &back);
	ok(symmetric(&w, &back), "irq change backwards: the same score");
	json_decref(b);

	/* the same interrupts at 15 % fewer transactions: below the 20 % named */
	b = nic_doc("Trans/s", 10460.02 / 1.15, fast.irq_total, "off");
	why_change(a, b, NULL, &w);
	ok(moved_at(&w, "interrupts") < 0 && w.nknobs == 0,
	   "irq change: 1.03 -> 1.18 per transaction (15 %%) is not named");
	json_decref(a);
	json_decref(b);

	/* a stream's are per MB: 1075/s at 3406.62 Mbit/s is 2.52 per MB */
	a = nic_doc("10^6bits/s", 3406.62, slow.irq_total, "on");
	b = nic_doc("10^6bits/s", 3406.62, fast.irq_total, "on");
	why_change(a, b, NULL, &w);
	ok(moved_at(&w, "interrupts per MB, remote end (eth1): 2.52 -> 25.24 (+900 %)") == 0,
	   "irq change: a stream's interrupts per MB (%s)", w.n ? w.m[0].text : "none");
	json_decref(a);
	json_decref(b);
}

/* A document with an end's retransmits and the segments it sent. */
static json_t *retrans_doc(double retrans, double segs)
{
	return json_pack("{s:{s:f}, s:{s:f}}", "result", "local_transport_retrans", retrans,
			 "local", "segs_out", segs);
}

/*
 * Retransmits count as a share of the segments sent, from 0.1 % up: a
 * loaded lab stream's 288 of 440000 against 2 is no move.
 */
static void test_change_retrans(void)
{
	json_t *few = retrans_doc(288, 440000), *none = retrans_doc(2, 440000);
	json_t *lossy = retrans_doc(4400, 440000);
	struct why_change w, back;

	why_change(few, none, NULL, &w);
	ok(moved_at(&w, "retransmits") < 0, "retransmits: 0.07 %% -> 0.00 %% of the segments is not named");
	why_change(lossy, none, NULL, &w);
	ok(w.n == 1 && !strcmp(w.m[0].text, "retransmits, local end: 1.00 % -> 0.00 % of the segments "
					    "sent (4400 of 440000 -> 2 of 440000)") &&
		   fabs(w.m[0].score - log(10)) < 1e-12,
	   "retransmits: 1 %% -> none is named, ln 10 from the 0.1 %% floor (%s)",
	   w.n ? w.m[0].text : "none");
	why_change(none, lossy, NULL, &back);
	ok(symmetric(&w, &back), "retransmits backwards: the same score");
	json_decref(few);
	json_decref(none);
	json_decref(lossy);
}

/* The knob list is bounded: 20 that differ list 16 and count the rest. */
static void test_change_knobs(void)
{
	json_t *a = json_pack("{s:{s:{s:[]}, s:{s:[]}}}", "knobs", "local", "knobs", "remote", "knobs");
	json_t *b = json_deep_copy(a), *la, *lb;
	struct why_change w;

	la = json_object_get(json_object_get(json_object_get(a, "knobs"), "remote"), "knobs");
	lb = json_object_get(json_object_get(json_object_get(b, "knobs"), "remote"), "knobs");
	for (int i = 0; i < 20; i++) {
		char name[16], val[16];

		snprintf(name, sizeof(name), "k%d", i);
		snprintf(val, sizeof(val), "%d", i);
		json_array_append_new(la, json_pack("{s:s, s:s}", "name", name, "value", val));
		json_array_append_new(lb, json_pack("{s:s, s:s}", "name", name, "value", "on"));
	}
	json_array_append_new(la, json_pack("{s:s, s:n}", "name", "same-na", "value"));
	json_array_append_new(lb, json_pack("{s:s, s:n}", "name", "same-na", "value"));
	json_array_append_new(la, json_pack("{s:s, s:s}", "name", "only-a\x1b", "value", "1"));
	why_change(a, b, NULL, &w);
	ok(w.knobs_recorded && w.nknobs == WHY_KNOBS_MAX && w.knobs_more == 5 &&
		   !strcmp(w.k[0].text, "remote k0: 0 -> on"),
	   "knobs: 21 differ, %u listed, %u more; n/a on both is no change (%s)", w.nknobs,
	   w.knobs_more, w.k[0].text);
	json_array_clear(lb);
	json_array_append_new(lb, json_pack("{s:s, s:s}", "name", "k0", "value", "on"));
	why_change(a, b, NULL, &w);
	ok(w.nknobs == 16 && !strcmp(w.k[15].text, "remote k15: 15 -> (not recorded)"),
	   "knobs: one only A recorded shows as not recorded in B (%s)", w.k[15].text);
	json_array_clear(la);
	json_array_append_new(la, json_pack("{s:s, s:s}", "name", "only-a\x1b", "value", "1"));
	why_change(a, b, NULL, &w);
	ok(w.nknobs == 2 && !strcmp(w.k[1].text, "remote only-a\\x1b: 1 -> (not recorded)"),
	   "knobs: a name with a control byte is escaped (%s)", w.nknobs > 1 ? w.k[1].text : "");
	json_decref(a);
	json_decref(b);
	a = json_pack("{s:{s:f}}", "result", "throughput", 1.0);
	why_change(a, a, NULL, &w);
	ok(!w.knobs_recorded && !w.nknobs, "knobs: documents without a snapshot: not recorded");
	json_decref(a);
}

int main(void)
{
	const char *top = getenv("top_srcdir");

	snprintf(top_dir, sizeof(top_dir), "%s", top && *top ? top : ".");
	test_link();
	test_rwnd();
	test_sndbuf();
	test_latency();
	test_one_cpu();
	test_plain();
	test_coalescing();
	test_synthetic();
	test_flows();
	test_change();
	test_change_gro();
	test_change_irq();
	test_change_knobs();
	test_change_retrans();
	return tap_done();
}
