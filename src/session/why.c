// SPDX-License-Identifier: GPL-2.0-or-later
/* why.c - what limits a run: a rule table over its figures, ranked verdicts. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/why.h"
#include "core/util.h"

/* Every number a rule compares against; docs/why.md gives the reasons. */
const struct why_thresholds why_thresholds = {
	.link_share = 0.85,
	.limited_share = 0.25,
	.min_busy = 0.05,
	.cpu_busy = 90.0,
	.one_cpu_busy = 50.0,
	.little_lo = 0.6,
	.little_hi = 1.4,
	.latency_inflight = 4,
	.retrans_share = 0.01,
	.udp_lost_share = 0.01,
	.udp_lost_direct = 0.1,
	.ceiling_share = 0.9,
	.ceiling_strength = 0.4,
	.irq_per_trans = 0.7,
	.coalesce_share = 0.25,
	.app_limited_share = 0.5,
	.idle_share = 0.3,
	.sndbuf_drain_us = 1000,
	.flow_limited_share = 0.25,
	.flow_even = 0.1,
	.weak = 0.5,
};

#define TH why_thresholds

/* --- formatting ------------------------------------------------------------ */

/* "8K", "6M", "1.8M", "675K", "5000": a byte count as users read it. */
static const char *why_bytes(char *buf, size_t len, int64_t v)
{
	if (v >= 1048576 && v % 1048576 == 0)
		snprintf(buf, len, "%lldM", (long long)(v / 1048576));
	else if (v >= 1024 && v % 1024 == 0)
		snprintf(buf, len, "%lldK", (long long)(v / 1024));
	else if (v >= 1048576)
		snprintf(buf, len, "%.1fM", (double)v / 1048576);
	else if (v >= 10240)
		snprintf(buf, len, "%.0fK", (double)v / 1024);
	else
		snprintf(buf, len, "%lld", (long long)v);
	return buf;
}

__attribute__((format(printf, 4, 5)))
static bool why_say(struct why_verdict *v, enum why_tier tier, double strength,
		    const char *fmt, ...)
{
	va_list ap;

	v->tier = tier;
	v->strength = strength < 0 ? 0 : strength > 1 ? 1 : strength;
	va_start(ap, fmt);
	vsnprintf(v->evidence, sizeof(v->evidence), fmt, ap);
	va_end(ap);
	return true;
}

/* Whether both ends measured one host (a lab, loopback): one set of CPUs. */
static bool why_same_host(const struct why_input *in)
{
	return !in->remote.present ||
	       (in->local.host[0] && !strcmp(in->local.host, in->remote.host)) ||
	       !in->remote.host[0];
}

/* The end that sends the test's data: the busier one for RR. */
static const struct why_end *why_sender(const struct why_input *in, const char **name,
					const struct why_end **peer, const char **pname)
{
	bool remote;

	if (in->type == TEST_TCP_MAERTS)
		remote = true;
	else if (test_is_rr(in->type))
		remote = in->remote.busy_us > in->local.busy_us;
	else
		remote = false;
	*name = remote ? "remote" : "local";
	*pname = remote ? "local" : "remote";
	*peer = remote ? &in->local : &in->remote;
	return remote ? &in->remote : &in->local;
}

/* Enough busy time to judge the sender's shares by. */
static bool why_busy_enough(const struct why_input *in, const struct why_end *e)
{
	unsigned n = e->nchrono ? e->nchrono : 1;

	return e->nchrono && in->elapsed > 0 &&
	       e->busy_us / 1e6 >= TH.min_busy * in->elapsed * n;
}

/* How a buffer got its size: "set by -S 8K", "at tcp_rmem max", "autotuned". */
static void why_buf_origin(char *buf, size_t len, int64_t have, int32_t req,
			   const char *opt, int64_t auto_max, const char *auto_name)
{
	char a[24];

	if (req > 0)
		snprintf(buf, len, "set by %s %s", opt, why_bytes(a, sizeof(a), req));
	else if (auto_max > 0 && have >= TH.ceiling_share * (double)auto_max)
		snprintf(buf, len, "at %s max %s", auto_name, why_bytes(a, sizeof(a), auto_max));
	else
		snprintf(buf, len, "autotuned");
}

/* --- the rules --------------------------------------------------------------- */

/* A tbf rate in the lab, and the throughput near it. */
static bool why_rule_link(const struct why_input *in, struct why_verdict *v)
{
	double bps = in->throughput, share;

	if (!in->tbf_bps)
		return false;
	if (test_is_rr(in->type))	/* the busier direction's payload */
		bps = in->throughput * 8.0 *
		      (in->req_size > in->resp_size ? in->req_size : in->resp_size);
	share = bps / (double)in->tbf_bps;
	if (share < TH.link_share)
		return false;
	return why_say(v, WHY_DIRECT, share,
		       "link: %.0f of %.0f Mbit/s tbf (%.0f %%)", bps / 1e6,
		       (double)in->tbf_bps / 1e6, share * 100);
}

/* Both ends pinned to one CPU (-T n,n), or seen on one CPU only. */
static bool why_rule_one_cpu(const struct why_input *in, struct why_verdict *v)
{
	const struct why_end *l = &in->local, *r = &in->remote;
	const struct cpu_util *u = NULL;
	bool pinned = l->cpu_bind >= 0 && l->cpu_bind == r->cpu_bind;
	int id;

	if (!r->present || !why_same_host(in))
		return false;
	if (pinned)
		id = l->cpu_bind;
	else if (l->ncpus_used == 1 && r->ncpus_used == 1 && l->cpu_main >= 0 &&
		 l->cpu_main == r->cpu_main)
		id = l->cpu_main;
	else
		return false;
	for (unsigned i = 0; i < l->cpu.ncpu; i++)
		if (l->cpu.cpu[i].id == id)
			u = &l->cpu.cpu[i];
	if (!u || u->busy < TH.one_cpu_busy)
		return false;
	if (pinned)
		return why_say(v, WHY_DIRECT, 1.0,
			       "one CPU for both ends: both pinned to CPU %d (-T %d,%d), %.0f %% busy (%.0f %% softirq)",
			       id, id, id, u->busy, u->softirq);
	return why_say(v, WHY_SUPPORT, u->busy / 100,
		       "one CPU for both ends: both ran on CPU %d only, %.0f %% busy (%.0f %% softirq)",
		       id, u->busy, u->softirq);
}

/* Interrupt coalescing on an RR: fewer interrupts than transactions, and a
 * delay that is a real part of the transaction time. */
static bool why_rule_coalescing(const struct why_input *in, struct why_verdict *v)
{
	const struct why_end *ends[2] = { &in->local, &in->remote };
	static const char *const names[2] = { "local", "remote" };

	if (!test_is_rr(in->type) || in->throughput <= 0)
		return false;
	for (unsigned i = 0; i < 2; i++) {
		const struct why_end *e = ends[i];
		double per = e->irq_rate / in->throughput;
		int64_t delay = e->kn.rx_usecs;
		char ad[48] = "";

		if (!e->present || e->irq_rate < 0 || !e->irq_dev[0] ||
		    per >= TH.irq_per_trans)
			continue;
		/* adaptive-rx may hold an interrupt up to rx-usecs-high */
		if (e->kn.adaptive_rx == 1 && e->kn.rx_usecs_high > delay)
			delay = e->kn.rx_usecs_high;
		if (delay <= 0)
			continue;
		if (e->kn.adaptive_rx == 1)
			snprintf(ad, sizeof(ad), ", adaptive-rx on, rx-usecs-high %lld",
				 (long long)e->kn.rx_usecs_high);
		else if (e->kn.adaptive_rx == 0)
			snprintf(ad, sizeof(ad), ", adaptive-rx off");
		/* strength: how much of a transaction the delay can take */
		return why_say(v,
			       in->lat_us > 0 && delay >= TH.coalesce_share * in->lat_us ?
				       WHY_DIRECT : WHY_SUPPORT,
			       in->lat_us > 0 ? (double)delay / in->lat_us / TH.coalesce_share : 0.5,
			       "interrupt coalescing on the %s end: %.2f interrupts per transaction on %s (rx-usecs %lld%s)",
			       names[i], per, e->irq_dev, (long long)e->kn.rx_usecs, ad);
	}
	return false;
}

/*
 * A stream's sender idle (nothing queued, nothing in flight) for much of
 * the run although its application always has data, with a send buffer
 * that holds less than drain_us of data at the measured rate: every
 * wake-up of the writer leaves the link idle.  The kernel's own
 * sndbuf-limited time misses this case (docs/why.md).
 */
static bool why_rule_sndbuf_idle(const struct why_input *in, struct why_verdict *v,
				 const struct why_end *s, const char *sname)
{
	double idle, drain_us;
	char origin[64], a[24];

	if (test_is_rr(in->type) || test_is_udp(in->type) || !s->nchrono ||
	    in->elapsed <= 0 || in->throughput <= 0 || s->sndbuf <= 0)
		return false;
	idle = 1.0 - s->busy_us / 1e6 / (in->elapsed * s->nchrono);
	drain_us = (double)s->sndbuf * 8.0 / (in->throughput / s->nchrono) * 1e6;
	if (idle < TH.idle_share || drain_us > TH.sndbuf_drain_us)
		return false;
	why_buf_origin(origin, sizeof(origin), s->sndbuf, s->sndbuf_req,
		       s == &in->local ? "-s" : "-S", s->kn.tcp_wmem_max, "tcp_wmem");
	return why_say(v, WHY_DIRECT, idle / (2 * TH.idle_share),
		       "send buffer: %s sender idle %.0f %% of the run, SO_SNDBUF %s (%s) holds %.0f us of data at this rate",
		       sname, idle * 100, why_bytes(a, sizeof(a), s->sndbuf), origin, drain_us);
}

/*
 * How the flows of an end split one limiter's share (rwnd or sndbuf): the
 * flow with the highest share, and the range of the others, over the flows
 * busy enough to judge (listed) or busy at all (the summarised rest).
 */
struct why_split {
	unsigned n;			/* flows judged */
	unsigned nstrong;		/* at flow_limited_share or more (of the rest: its highest) */
	uint32_t top_flow;
	double top;			/* its share */
	double lo, hi;			/* the others' shares */
};

static bool why_flow_split(const struct why_input *in, const struct why_end *e, bool rwnd,
			   struct why_split *sp)
{
	const struct why_flows_rest *r = &e->rest;
	double share[WHY_FLOWS_MAX + 2];
	uint32_t flow[WHY_FLOWS_MAX + 2];
	unsigned n = 0, nl, top = 0;

	memset(sp, 0, sizeof(*sp));
	for (unsigned i = 0; i < e->nflows; i++) {
		const struct why_flow *f = &e->flow[i];

		if (!f->chrono || f->busy_us <= 0 || in->elapsed <= 0 ||
		    f->busy_us / 1e6 < TH.min_busy * in->elapsed)
			continue;
		share[n] = (rwnd ? f->rwnd_us : f->sndbuf_us) / f->busy_us;
		flow[n++] = f->flow;
		sp->nstrong += share[n - 1] >= TH.flow_limited_share;
	}
	nl = n;
	if (r->nbusy) {		/* the rest by its extremes */
		share[n] = rwnd ? r->rwnd_hi : r->sndbuf_hi;
		flow[n++] = rwnd ? r->rwnd_hi_flow : r->sndbuf_hi_flow;
		sp->nstrong += share[n - 1] >= TH.flow_limited_share;
		if (r->nbusy > 1) {
			share[n] = rwnd ? r->rwnd_lo : r->sndbuf_lo;
			flow[n++] = UINT32_MAX;
		}
	}
	sp->n = nl + r->nbusy;
	if (sp->n < 2)
		return false;
	for (unsigned i = 1; i < n; i++)
		if (share[i] > share[top])
			top = i;
	sp->top = share[top];
	sp->top_flow = flow[top];
	sp->lo = sp->hi = -1;
	for (unsigned i = 0; i < n; i++) {
		if (i == top)
			continue;
		if (sp->lo < 0 || share[i] < sp->lo)
			sp->lo = share[i];
		if (share[i] > sp->hi)
			sp->hi = share[i];
	}
	return true;
}

/* "the other 41 %", "the others 41-55 %". */
static void why_others(char *buf, size_t len, const struct why_split *sp)
{
	if (sp->n == 2 || lround(sp->lo * 100) == lround(sp->hi * 100))
		snprintf(buf, len, "the other%s %.0f %%", sp->n == 2 ? "" : "s", sp->hi * 100);
	else
		snprintf(buf, len, "the others %.0f-%.0f %%", sp->lo * 100, sp->hi * 100);
}

/* " over 4 flows (flow 2 at 97 %, the others 41-55 %)", " over 4 flows (alike, 58-66 %)". */
static void why_split_text(char *buf, size_t len, const struct why_split *sp)
{
	char others[48];
	double lo = sp->lo < sp->top ? sp->lo : sp->top;

	if (sp->top - lo <= TH.flow_even) {
		if (lround(lo * 100) == lround(sp->top * 100))
			snprintf(buf, len, " over %u flows (alike)", sp->n);
		else
			snprintf(buf, len, " over %u flows (alike, %.0f-%.0f %%)", sp->n,
				 lo * 100, sp->top * 100);
		return;
	}
	why_others(others, sizeof(others), sp);
	snprintf(buf, len, " over %u flows (flow %u at %.0f %%, %s)", sp->n, sp->top_flow,
		 sp->top * 100, others);
}

/* A limiter share of the sender's busy time (rwnd or sndbuf). */
static bool why_rule_share(const struct why_input *in, struct why_verdict *v, bool rwnd)
{
	const char *sname, *pname;
	const struct why_end *peer, *s = why_sender(in, &sname, &peer, &pname);
	const char *what = rwnd ? "rwnd" : "sndbuf";
	struct why_split sp;
	bool split, minority = false;
	double share, sum;
	char origin[64], a[24], buf[32], flows[WHY_EVIDENCE_MAX] = "", others[48];

	if (test_is_udp(in->type))
		return false;
	sum = s->busy_us > 0 ? (rwnd ? s->rwnd_us : s->sndbuf_us) / s->busy_us : 0;
	share = why_busy_enough(in, s) ? sum : 0;
	split = s->nchrono > 1 && why_flow_split(in, s, rwnd, &sp);
	if (share < TH.limited_share) {
		if (!rwnd && why_rule_sndbuf_idle(in, v, s, sname))
			return true;
		/* one flow starved while the sum is below the threshold */
		if (!split || sp.top < TH.flow_limited_share)
			return false;
		minority = true;
		why_others(others, sizeof(others), &sp);
		snprintf(flows, sizeof(flows),
			 "flow %u at %.0f %% of its busy time %s-limited, %s; %.0f %% over %u flows",
			 sp.top_flow, sp.top * 100, what, others, sum * 100, sp.n);
	} else if (split) {
		why_split_text(flows, sizeof(flows), &sp);
	}
	if (rwnd) {
		bool local = peer == &in->local;

		why_buf_origin(origin, sizeof(origin), peer->rcvbuf, peer->rcvbuf_req,
			       local ? "-s" : "-S", peer->kn.tcp_rmem_max, "tcp_rmem");
		snprintf(buf, sizeof(buf), "%s SO_RCVBUF", pname);
		a[0] = 0;
		if (peer->rcvbuf >= 0)
			why_bytes(a, sizeof(a), peer->rcvbuf);
	} else {
		why_buf_origin(origin, sizeof(origin), s->sndbuf, s->sndbuf_req,
			       s == &in->local ? "-s" : "-S", s->kn.tcp_wmem_max, "tcp_wmem");
		snprintf(buf, sizeof(buf), "%s SO_SNDBUF", sname);
		a[0] = 0;
		if (s->sndbuf >= 0)
			why_bytes(a, sizeof(a), s->sndbuf);
	}
	if (minority)	/* as strong as its flows' part of the sender */
		return why_say(v, WHY_DIRECT, sp.top * sp.nstrong / sp.n,
			       "%s: %s, %s %s (%s)", rwnd ? "receive window" : "send buffer",
			       flows, buf, a[0] ? a : "n/a", origin);
	return why_say(v, WHY_DIRECT, share,
		       "%s: %.0f %% of busy time %s-limited%s, %s %s (%s)",
		       rwnd ? "receive window" : "send buffer", share * 100, what, flows,
		       buf, a[0] ? a : "n/a", origin);
}

static bool why_rule_rwnd(const struct why_input *in, struct why_verdict *v)
{
	return why_rule_share(in, v, true);
}

static bool why_rule_sndbuf(const struct why_input *in, struct why_verdict *v)
{
	return why_rule_share(in, v, false);
}

/* RR in a closed loop: rate x latency = transactions in flight (Little). */
static bool why_rule_latency(const struct why_input *in, struct why_verdict *v)
{
	unsigned per_flow = in->burst + 1;
	double inflight = (double)in->flows * per_flow, little;
	char flows[32] = "";

	if (!test_is_rr(in->type) || in->lat_us <= 0 || in->throughput <= 0 ||
	    per_flow > TH.latency_inflight)
		return false;
	little = in->throughput * in->lat_us / 1e6 / inflight;
	if (little > TH.little_hi)
		return false;
	if (in->flows > 1)
		snprintf(flows, sizeof(flows), " per flow (%u flows)", in->flows);
	/* Below little_lo the ends spend much of the loop between transactions. */
	if (little < TH.little_lo)
		return why_say(v, WHY_SUPPORT, little,
			       "latency bound with gaps: %u transaction%s in flight%s, RTT %.0f us, but rate x RTT = %.2f in flight: %.0f %% of the time is spent between transactions",
			       per_flow, per_flow == 1 ? "" : "s", flows, in->lat_us,
			       little * inflight, (1 - little) * 100);
	return why_say(v, per_flow == 1 ? WHY_DIRECT : WHY_SUPPORT, 1.0 / per_flow,
		       "latency bound: %u transaction%s in flight%s, RTT %.0f us (rate x RTT = %.2f in flight)",
		       per_flow, per_flow == 1 ? "" : "s", flows, in->lat_us,
		       little * inflight);
}

/* A CPU near 100 %: the busiest of each end (once when they share a host). */
static bool why_rule_cpu(const struct why_input *in, struct why_verdict *v)
{
	const struct why_end *ends[2] = { &in->local, &in->remote };
	static const char *const names[2] = { "the local end", "the remote end" };
	unsigned n = why_same_host(in) ? 1 : 2;
	const struct cpu_util *best = NULL;
	unsigned bi = 0;

	for (unsigned i = 0; i < n; i++)
		for (unsigned c = 0; ends[i]->present && c < ends[i]->cpu.ncpu; c++) {
			const struct cpu_util *u = &ends[i]->cpu.cpu[c];

			if (!best || u->busy > best->busy) {
				best = u;
				bi = i;
			}
		}
	if (!best || best->busy < TH.cpu_busy)
		return false;
	return why_say(v, WHY_SUPPORT, best->busy / 100,
		       "CPU %d on %s: %.0f %% (%.0f %% softirq)%s", best->id,
		       n == 1 ? "the host of both ends" : names[bi], best->busy,
		       best->softirq,
		       n == 1 ? "; other work on this host counts too" : "");
}

/* Retransmits (TCP) or lost datagrams (UDP). */
static bool why_rule_loss(const struct why_input *in, struct why_verdict *v)
{
	const char *sname, *pname;
	const struct why_end *peer, *s = why_sender(in, &sname, &peer, &pname);
	double share;

	if (test_is_udp(in->type)) {
		if (!in->udp_sent)
			return false;
		share = (double)in->udp_lost / (double)in->udp_sent;
		if (share < TH.udp_lost_share)
			return false;
		/* UDP has no flow control: heavy loss is what the receiver
		 * could not take, the direct limit of what arrives. */
		return why_say(v, share >= TH.udp_lost_direct ? WHY_DIRECT : WHY_SUPPORT, share * 20,
			       "loss: %.1f %% of datagrams lost (%llu of %llu)",
			       share * 100, (unsigned long long)in->udp_lost,
			       (unsigned long long)in->udp_sent);
	}
	if (s->segs_out <= 0 || s->retrans < 0)
		return false;
	share = (double)s->retrans / (double)s->segs_out;
	if (share < TH.retrans_share)
		return false;
	return why_say(v, WHY_SUPPORT, share * 20,
		       "retransmits: %.1f %% of the %s end's segments (%lld of %lld)",
		       share * 100, sname, (long long)s->retrans, (long long)s->segs_out);
}

/* A buffer grown to its sysctl ceiling: autotuning can give no more. */
static bool why_rule_ceiling(const struct why_input *in, struct why_verdict *v)
{
	const char *sname, *pname;
	const struct why_end *peer, *s = why_sender(in, &sname, &peer, &pname);
	char a[24], b[24];

	if (test_is_udp(in->type) || test_is_rr(in->type))
		return false;
	if (peer->rcvbuf_req < 0 && peer->kn.tcp_rmem_max > 0 && peer->rcvbuf >= 0 &&
	    peer->rcvbuf >= TH.ceiling_share * (double)peer->kn.tcp_rmem_max)
		return why_say(v, WHY_SUPPORT, TH.ceiling_strength,
			       "buffer ceiling: %s SO_RCVBUF %s is at tcp_rmem max %s",
			       pname, why_bytes(a, sizeof(a), peer->rcvbuf),
			       why_bytes(b, sizeof(b), peer->kn.tcp_rmem_max));
	if (s->sndbuf_req < 0 && s->kn.tcp_wmem_max > 0 && s->sndbuf >= 0 &&
	    s->sndbuf >= TH.ceiling_share * (double)s->kn.tcp_wmem_max)
		return why_say(v, WHY_SUPPORT, TH.ceiling_strength,
			       "buffer ceiling: %s SO_SNDBUF %s is at tcp_wmem max %s",
			       sname, why_bytes(a, sizeof(a), s->sndbuf),
			       why_bytes(b, sizeof(b), s->kn.tcp_wmem_max));
	/* An explicit -s/-S is capped at twice net.core.*mem_max. */
	if (peer->rcvbuf_req > 0 && peer->kn.rmem_max > 0 &&
	    peer->rcvbuf >= TH.ceiling_share * 2.0 * (double)peer->kn.rmem_max)
		return why_say(v, WHY_SUPPORT, TH.ceiling_strength,
			       "buffer ceiling: %s SO_RCVBUF %s is capped by net.core.rmem_max %s",
			       pname, why_bytes(a, sizeof(a), peer->rcvbuf),
			       why_bytes(b, sizeof(b), peer->kn.rmem_max));
	return false;
}

/* The sender had nothing queued when its rate was sampled. */
static bool why_rule_app(const struct why_input *in, struct why_verdict *v)
{
	const char *sname, *pname;
	const struct why_end *peer, *s = why_sender(in, &sname, &peer, &pname);

	if (test_is_rr(in->type) || test_is_udp(in->type) || !s->ntcp ||
	    (double)s->app_limited / s->ntcp < TH.app_limited_share)
		return false;
	return why_say(v, WHY_SUPPORT, 0.5,
		       "application: %u of %u %s flows app-limited at their last delivery-rate sample",
		       s->app_limited, s->ntcp, sname);
}

/* Ties rank in this order: the specific before the general. */
const struct why_rule why_rules[] = {
	{ .name = "link", .check = why_rule_link },
	{ .name = "one cpu", .check = why_rule_one_cpu },
	{ .name = "coalescing", .check = why_rule_coalescing },
	{ .name = "receive window", .check = why_rule_rwnd },
	{ .name = "send buffer", .check = why_rule_sndbuf },
	{ .name = "latency", .check = why_rule_latency },
	{ .name = "cpu", .check = why_rule_cpu },
	{ .name = "loss", .check = why_rule_loss },
	{ .name = "buffer ceiling", .check = why_rule_ceiling },
	{ .name = "application", .check = why_rule_app },
};
const unsigned why_nrules = sizeof(why_rules) / sizeof(why_rules[0]);

/* --- ranking ------------------------------------------------------------------ */

static int why_cmp(const struct why_verdict *a, const struct why_verdict *b)
{
	if (a->tier != b->tier)
		return a->tier < b->tier ? -1 : 1;
	if (a->strength != b->strength)
		return a->strength > b->strength ? -1 : 1;
	return 0;
}

/* Insert v in rank order (stable: an equal one stays after earlier rules). */
static void why_add(struct why_report *out, const struct why_verdict *v)
{
	unsigned i = out->n;

	if (out->n == WHY_MAX) {
		if (why_cmp(v, &out->v[WHY_MAX - 1]) >= 0)
			return;
		i = --out->n;
	}
	while (i > 0 && why_cmp(v, &out->v[i - 1]) < 0) {
		out->v[i] = out->v[i - 1];
		i--;
	}
	out->v[i] = *v;
	out->n++;
}

/* What was looked at, for "no clear limit". */
static void why_summary(const struct why_input *in, char *buf, size_t len)
{
	const char *sname, *pname;
	const struct why_end *peer, *s = why_sender(in, &sname, &peer, &pname);
	char shares[64], tbf[32];
	double peak = in->local.cpu.ncpu ? in->local.cpu.peak_busy : -1;

	if (in->remote.present && in->remote.cpu.ncpu && in->remote.cpu.peak_busy > peak)
		peak = in->remote.cpu.peak_busy;
	if (why_busy_enough(in, s))
		snprintf(shares, sizeof(shares), "rwnd %.0f %%, sndbuf %.0f %% of busy time",
			 s->rwnd_us / s->busy_us * 100, s->sndbuf_us / s->busy_us * 100);
	else if (s->ntcp && !s->nchrono)
		snprintf(shares, sizeof(shares), "limiter shares n/a");
	else
		snprintf(shares, sizeof(shares), "sender seldom busy");
	if (in->tbf_bps)
		snprintf(tbf, sizeof(tbf), "tbf %.0f Mbit/s", (double)in->tbf_bps / 1e6);
	else
		snprintf(tbf, sizeof(tbf), "no tbf");
	if (peak >= 0)
		snprintf(buf, len, "no clear limit: busiest CPU %.0f %%, %s, %s", peak, shares, tbf);
	else
		snprintf(buf, len, "no clear limit: CPU n/a, %s, %s", shares, tbf);
}

void why_eval(const struct why_input *in, struct why_report *out)
{
	const char *sname, *pname;
	const struct why_end *peer, *s = why_sender(in, &sname, &peer, &pname);
	struct why_verdict v;

	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < why_nrules; i++) {
		memset(&v, 0, sizeof(v));
		if (why_rules[i].check(in, &v)) {
			snprintf(v.rule, sizeof(v.rule), "%s", why_rules[i].name);
			why_add(out, &v);
		}
	}
	if (!out->n || (out->v[0].tier != WHY_DIRECT && out->v[0].strength < TH.weak)) {
		memset(&v, 0, sizeof(v));
		snprintf(v.rule, sizeof(v.rule), "none");
		v.tier = WHY_DIRECT;	/* said first: nothing above stands out */
		why_summary(in, v.evidence, sizeof(v.evidence));
		why_add(out, &v);
	}
	if (!test_is_udp(in->type) && s->ntcp && !s->nchrono) {
		memset(&v, 0, sizeof(v));
		snprintf(v.rule, sizeof(v.rule), "n/a");
		why_say(&v, WHY_NOTE, 0,
			"limiter shares n/a: the %s end's kernel has no tcpi_busy_time in TCP_INFO (Linux 4.10+)",
			sname);
		why_add(out, &v);
	}
}

/* --- JSON ------------------------------------------------------------------------ */

json_t *why_report_to_json(const struct why_report *r)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && i < r->n; i++) {
		const struct why_verdict *v = &r->v[i];

		if (json_array_append_new(a, json_pack("{s:s, s:i, s:f, s:s}", WHY_KEY_RULE, v->rule,
							WHY_KEY_TIER, (int)v->tier,
							WHY_KEY_STRENGTH, v->strength,
							WHY_KEY_EVIDENCE, v->evidence))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* A share in percent of busy, or null when n/a or never busy. */
static json_t *why_pct(bool known, double part, double busy)
{
	return known && busy > 0 ? json_real(part / busy * 100) : json_null();
}

/* {busy_us, rwnd_pct, sndbuf_pct, app_limited} of one flow or a sum. */
static json_t *why_shares_json(bool known, double busy, double rwnd, double sndbuf,
			       json_t *app)
{
	return json_pack("{s:o, s:o, s:o, s:o}",
			 "busy_us", known ? json_integer((json_int_t)busy) : json_null(),
			 "rwnd_pct", why_pct(known, rwnd, busy),
			 "sndbuf_pct", why_pct(known, sndbuf, busy),
			 "app_limited", app ? app : json_null());
}

json_t *why_end_to_json(const struct why_end *e)
{
	const struct why_flows_rest *r = &e->rest;
	json_t *j, *flows = json_array(), *more;

	if (!flows)
		return NULL;
	for (unsigned i = 0; i < e->nflows; i++) {
		const struct why_flow *f = &e->flow[i];
		json_t *o = why_shares_json(f->chrono, f->busy_us, f->rwnd_us, f->sndbuf_us,
					    json_boolean(f->app_limited));

		if (!o || json_object_set_new(o, "flow", json_integer(f->flow)) ||
		    json_array_append_new(flows, o)) {
			json_decref(flows);
			return NULL;
		}
	}
	more = r->n ? why_shares_json(r->nchrono == r->n, r->busy_us, r->rwnd_us,
				      r->sndbuf_us, json_integer(r->app_limited)) :
		      json_null();
	if (more && r->n && json_object_set_new(more, "flows", json_integer(r->n))) {
		json_decref(more);
		more = NULL;
	}
	if (!more) {
		json_decref(flows);
		return NULL;
	}
	j = why_shares_json(e->nchrono > 0, e->busy_us, e->rwnd_us, e->sndbuf_us,
			    json_integer(e->app_limited));
	if (!j) {
		json_decref(flows);
		json_decref(more);
		return NULL;
	}
	if (json_object_set_new(j, "flows", flows) ||
	    json_object_set_new(j, "flows_more", more)) {
		json_decref(j);
		return NULL;
	}
	return j;
}

int why_report_from_json(const json_t *j, struct why_report *r, char *err)
{
	size_t i;
	const json_t *e;

	memset(r, 0, sizeof(*r));
	if (!json_is_array(j))
		return err_set(err, -EINVAL, "limits: not an array");
	json_array_foreach(j, i, e) {
		const char *rule, *ev;
		int tier;
		double strength;

		if (r->n == WHY_MAX)
			break;
		if (json_unpack((json_t *)e, "{s:s, s:i, s:F, s:s}", WHY_KEY_RULE, &rule,
				WHY_KEY_TIER, &tier, WHY_KEY_STRENGTH, &strength,
				WHY_KEY_EVIDENCE, &ev))
			return err_set(err, -EINVAL,
				       "limits[%zu]: accepted is {" WHY_KEY_RULE ", " WHY_KEY_TIER ", "
				       WHY_KEY_STRENGTH ", " WHY_KEY_EVIDENCE "}", i);
		snprintf(r->v[r->n].rule, sizeof(r->v[r->n].rule), "%s", rule);
		r->v[r->n].tier = tier;
		r->v[r->n].strength = strength;
		snprintf(r->v[r->n].evidence, sizeof(r->v[r->n].evidence), "%s", ev);
		r->n++;
	}
	return 0;
}
