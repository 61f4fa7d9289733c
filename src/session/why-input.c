// SPDX-License-Identifier: GPL-2.0-or-later
/* why-input.c - what the why rules judge: a run's or a tick window's figures of both ends. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "session/why.h"
#include "session/session.h"

void why_input_init(struct why_input *in, const struct test_params *p)
{
	struct why_end *ends[2] = { &in->local, &in->remote };

	memset(in, 0, sizeof(*in));
	in->type = p->type;
	in->flows = p->flows ? p->flows : 1;
	in->burst = p->burst;
	in->req_size = p->req_size;
	in->resp_size = p->resp_size;
	for (unsigned i = 0; i < 2; i++) {
		struct why_end *e = ends[i];

		e->retrans = e->segs_out = -1;
		e->sndbuf = e->rcvbuf = -1;
		e->cpu_bind = e->cpu_main = -1;
		e->irq_rate = -1;
		why_knobs_read(&e->kn, NULL);
	}
	in->local.sndbuf_req = p->lsndbuf;
	in->local.rcvbuf_req = p->lrcvbuf;
	in->remote.sndbuf_req = p->rsndbuf;
	in->remote.rcvbuf_req = p->rrcvbuf;
	in->local.cpu_bind = p->lcpu;
	in->remote.cpu_bind = p->rcpu;
}

/* The socket of flow in s[0..n), or NULL. */
static const struct sock_sample *why_flow(const struct sock_sample *s, unsigned n,
					  uint32_t flow)
{
	for (unsigned i = 0; i < n; i++)
		if (s[i].flow == flow)
			return &s[i];
	return NULL;
}

/* b - a of a cumulative counter, 0 when it went backwards (a new socket). */
static double why_delta(uint64_t a, uint64_t b)
{
	return b >= a ? (double)(b - a) : (double)b;
}

/* Widen lo..hi to take share in (the first share sets both). */
static void why_range(double *lo, double *hi, bool first, double share)
{
	if (first || share < *lo)
		*lo = share;
	if (first || share > *hi)
		*hi = share;
}

/* A flow into e's list, or into the summary of the flows beyond it. */
static void why_flow_add(struct why_end *e, const struct why_flow *f)
{
	struct why_flows_rest *r = &e->rest;
	bool first;

	if (e->nflows < WHY_FLOWS_MAX) {
		e->flow[e->nflows++] = *f;
		return;
	}
	r->n++;
	r->app_limited += f->app_limited;
	if (!f->chrono)
		return;
	r->nchrono++;
	r->busy_us += f->busy_us;
	r->rwnd_us += f->rwnd_us;
	r->sndbuf_us += f->sndbuf_us;
	if (f->busy_us <= 0)
		return;
	first = !r->nbusy++;
	if (first || f->rwnd_us / f->busy_us > r->rwnd_hi)
		r->rwnd_hi_flow = f->flow;
	if (first || f->sndbuf_us / f->busy_us > r->sndbuf_hi)
		r->sndbuf_hi_flow = f->flow;
	why_range(&r->rwnd_lo, &r->rwnd_hi, first, f->rwnd_us / f->busy_us);
	why_range(&r->sndbuf_lo, &r->sndbuf_hi, first, f->sndbuf_us / f->busy_us);
}

void why_end_socks(struct why_end *e, const struct sock_sample *first,
		   unsigned nfirst, const struct sock_sample *last,
		   unsigned nlast)
{
	struct why_flow fl;
	double rtt = 0;

	e->ntcp = e->nchrono = e->app_limited = e->nflows = 0;
	memset(&e->rest, 0, sizeof(e->rest));
	e->busy_us = e->rwnd_us = e->sndbuf_us = 0;
	e->retrans = e->segs_out = -1;
	e->sndbuf = e->rcvbuf = -1;
	for (unsigned i = 0; i < nlast; i++) {
		const struct sock_sample *l = &last[i];
		const struct sock_sample *f = first ? why_flow(first, nfirst, l->flow) : NULL;
		const struct tcp_figures *t = &l->tcp, *ft = f && f->tcp.has ? &f->tcp : NULL;

		if (l->sndbuf > e->sndbuf)
			e->sndbuf = l->sndbuf;
		if (l->rcvbuf > e->rcvbuf)
			e->rcvbuf = l->rcvbuf;
		if (!t->has)
			continue;
		e->ntcp++;
		rtt += t->rtt_us;
		if (t->app_limited)
			e->app_limited++;
		if (e->retrans < 0)
			e->retrans = e->segs_out = 0;
		e->retrans += (int64_t)why_delta(ft ? ft->total_retrans : 0, t->total_retrans);
		e->segs_out += (int64_t)why_delta(ft ? ft->segs_out : 0, t->segs_out);
		memset(&fl, 0, sizeof(fl));
		fl.flow = l->flow;
		fl.app_limited = t->app_limited;
		if (t->has_chrono) {
			bool base = ft && ft->has_chrono;

			fl.chrono = true;
			fl.busy_us = why_delta(base ? ft->busy_us : 0, t->busy_us);
			fl.rwnd_us = why_delta(base ? ft->rwnd_limited_us : 0, t->rwnd_limited_us);
			fl.sndbuf_us = why_delta(base ? ft->sndbuf_limited_us : 0,
						 t->sndbuf_limited_us);
			e->nchrono++;
			e->busy_us += fl.busy_us;
			e->rwnd_us += fl.rwnd_us;
			e->sndbuf_us += fl.sndbuf_us;
		}
		why_flow_add(e, &fl);
	}
	e->rtt_us = e->ntcp ? rtt / e->ntcp : 0;
}

/* The knob called name in k, or NULL when absent or n/a. */
static const struct knob_value *why_knob(const struct knob_snapshot *k, const char *name)
{
	for (unsigned i = 0; k && i < k->n; i++)
		if (!strcmp(k->item[i].name, name))
			return k->item[i].v.present ? &k->item[i].v : NULL;
	return NULL;
}

/* The knobs the rules read: name, which of its values, the field it fills. */
static const struct {
	const char *name;
	unsigned idx;
	size_t off;
} why_knob_fields[] = {
	{ "net.core.rmem_max", 0, offsetof(struct why_knobs, rmem_max) },
	{ "net.core.wmem_max", 0, offsetof(struct why_knobs, wmem_max) },
	{ "net.ipv4.tcp_rmem", 2, offsetof(struct why_knobs, tcp_rmem_max) },
	{ "net.ipv4.tcp_wmem", 2, offsetof(struct why_knobs, tcp_wmem_max) },
	{ "rx-usecs", 0, offsetof(struct why_knobs, rx_usecs) },
	{ "rx-usecs-high", 0, offsetof(struct why_knobs, rx_usecs_high) },
};

void why_knobs_read(struct why_knobs *kn, const struct knob_snapshot *k)
{
	const struct knob_value *v;

	kn->rmem_max = kn->wmem_max = kn->tcp_rmem_max = kn->tcp_wmem_max = -1;
	kn->rx_usecs = kn->rx_usecs_high = -1;
	kn->adaptive_rx = -1;
	for (unsigned i = 0; i < sizeof(why_knob_fields) / sizeof(why_knob_fields[0]); i++)
		if ((v = why_knob(k, why_knob_fields[i].name)))
			memcpy((char *)kn + why_knob_fields[i].off,
			       &v->num[why_knob_fields[i].idx], sizeof(int64_t));
	if ((v = why_knob(k, "adaptive-rx")))
		kn->adaptive_rx = v->num[0] ? 1 : 0;
}

void why_end_knobs(struct why_end *e, const struct knob_snapshot *k)
{
	why_knobs_read(&e->kn, k);
}

void why_end_cpu(struct why_end *e, const struct cpu_sample *const *ticks,
		 unsigned n)
{
	struct cpu_sample *c = &e->cpu;
	unsigned used = 0;

	memset(c, 0, sizeof(*c));
	c->peak_id = -1;
	for (unsigned t = 0; t < n; t++) {
		const struct cpu_sample *s = ticks[t];

		if (!s || !s->ncpu)
			continue;
		used++;
		c->total.busy += s->total.busy;
		c->total.softirq += s->total.softirq;
		for (unsigned i = 0; i < s->ncpu && i < TT_MAX_CPUS; i++) {
			unsigned j;

			for (j = 0; j < c->ncpu; j++)
				if (c->cpu[j].id == s->cpu[i].id)
					break;
			if (j == c->ncpu) {
				if (c->ncpu == TT_MAX_CPUS)
					continue;
				c->ncpu++;
				c->cpu[j].id = s->cpu[i].id;
			}
			c->cpu[j].busy += s->cpu[i].busy;
			c->cpu[j].softirq += s->cpu[i].softirq;
			c->cpu[j].irq += s->cpu[i].irq;
		}
	}
	if (!used)
		return;
	c->total.id = -1;
	c->total.busy /= used;
	c->total.softirq /= used;
	c->peak_busy = -1;
	for (unsigned j = 0; j < c->ncpu; j++) {
		c->cpu[j].busy /= used;
		c->cpu[j].softirq /= used;
		c->cpu[j].irq /= used;
		if (c->cpu[j].busy > c->peak_busy) {
			c->peak_busy = c->cpu[j].busy;
			c->peak_id = c->cpu[j].id;
		}
	}
}

/* An end's side of a tick window. */
static void why_end_ticks(struct why_end *e, const struct end_sample *const *s,
			  unsigned n)
{
	const struct cpu_sample *cpu[64];
	const struct end_sample *first = NULL, *last = NULL;
	unsigned nc = 0;
	double irq = 0;
	unsigned nirq = 0;

	for (unsigned i = 0; i < n; i++) {
		if (!s[i])
			continue;
		if (!first)
			first = s[i];
		last = s[i];
		if (nc < 64)
			cpu[nc++] = &s[i]->cpu;
		if (s[i]->irq.nlines) {
			irq += s[i]->irq.irq_total;
			nirq++;
		}
	}
	if (!last)
		return;
	e->present = true;
	why_end_cpu(e, cpu, nc);
	/* The first tick is the baseline of the counters: deltas over n - 1. */
	why_end_socks(e, n > 1 ? first->socks : NULL, n > 1 ? first->nsocks : 0,
		      last->socks, last->nsocks);
	snprintf(e->irq_dev, sizeof(e->irq_dev), "%s", last->irq_dev);
	e->irq_rate = nirq ? irq / nirq : -1;
}

void why_input_ticks(struct why_input *in, const struct end_sample *const *loc,
		     const struct end_sample *const *rem, unsigned n)
{
	const struct end_sample *first = NULL, *last = NULL;
	double rate = 0, lat = 0, count = 0;
	unsigned nr = 0;

	for (unsigned i = 0; i < n; i++) {
		if (!loc[i])
			continue;
		if (!first)
			first = loc[i];
		last = loc[i];
		/* The first tick is the counters' baseline: judge the ones after. */
		if (first == loc[i] && n > 1)
			continue;
		rate += loc[i]->rate;
		nr++;
		if (loc[i]->has_lat && loc[i]->lat_iv.count) {
			lat += loc[i]->lat_iv.mean_us * (double)loc[i]->lat_iv.count;
			count += (double)loc[i]->lat_iv.count;
		}
	}
	if (!last)
		return;
	in->elapsed = n > 1 ? last->t - first->t : last->iv_secs;
	in->throughput = nr ? rate / nr : 0;
	in->lat_us = count > 0 ? lat / count : 0;
	why_end_ticks(&in->local, loc, n);
	if (rem)
		why_end_ticks(&in->remote, rem, n);
}

/* An end's final figures as the rules see them. */
static void why_end_result(struct why_end *e, const struct end_result *r,
			   const struct knob_snapshot *k)
{
	const struct cpu_sample *cpu = &r->cpu;

	e->present = r->cpu.ncpu || r->nsocks;
	snprintf(e->host, sizeof(e->host), "%s", r->host);
	why_end_socks(e, NULL, 0, r->socks, r->nsocks);
	why_end_cpu(e, &cpu, 1);
	why_end_knobs(e, k);
	e->cpu_main = r->cpu_main;
	e->ncpus_used = r->ncpus_used;
	if (r->cpu_bind >= 0)
		e->cpu_bind = r->cpu_bind;
	snprintf(e->irq_dev, sizeof(e->irq_dev), "%s", r->irq_dev);
	e->irq_rate = r->irq.nlines ? r->irq.irq_total : -1;
}

void why_input_result(struct why_input *in, const struct test_params *p,
		      const struct session_result *r, uint64_t tbf_bps)
{
	why_input_init(in, p);
	in->elapsed = r->elapsed;
	in->throughput = r->throughput * units_rate(p->type)->div;
	in->lat_us = r->local.has_lat ? r->local.lat.mean_us : 0;
	in->tbf_bps = tbf_bps;
	if (test_is_udp(p->type) && !test_is_rr(p->type)) {
		in->udp_sent = r->local.total.msgs_sent;
		in->udp_lost = r->udp_lost;
	}
	why_end_result(&in->local, &r->local, r->knobs_local);
	why_end_result(&in->remote, &r->remote, r->knobs_remote);
}
