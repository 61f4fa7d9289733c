// SPDX-License-Identifier: GPL-2.0-or-later
/* why-change.c - what moved between two runs: the mechanisms, largest first. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/why-change.h"
#include "stats/sweep-policy.h"
#include "store/store.h"

/* How a mechanism is read from a run document. */
enum why_mech_kind {
	WM_SEL,			/* a figure of "result" */
	WM_PER_WORK,		/* a figure of "result" over the throughput */
	WM_SOFTIRQ,		/* an end's softirq share of all CPUs, % */
	WM_RWND,		/* an end's rwnd-limited share of busy time */
	WM_SNDBUF,		/* an end's sndbuf-limited share of busy time */
	WM_INFLIGHT,		/* RR: transactions in flight, rate x mean latency (Little) */
};

/*
 * The mechanisms compared, a row each; a contributor adds one here.
 * min: the smallest move named (relative for figures, in share points /
 * 100 for shares); weight: how much a move counts in the ranking.
 */
static const struct why_mech {
	const char *what;
	enum why_mech_kind kind;
	const char *name;		/* selector, or "local"/"remote" */
	double min;
	int prec;
	double weight;			/* score multiplier */
} why_mechs[] = {
	{ "transactions in flight (rate x latency)", WM_INFLIGHT, "mean_latency", 0.3, 2, 1 },
	{ "segments per transaction, client out", WM_SEL, "segs_out_per_trans", 0.1, 2, 1 },
	{ "segments per transaction, client in", WM_SEL, "segs_in_per_trans", 0.1, 2, 1 },
	{ "segments per transaction, server out", WM_SEL, "remote_segs_out_per_trans", 0.1, 2, 1 },
	{ "segments per transaction, server in", WM_SEL, "remote_segs_in_per_trans", 0.1, 2, 1 },
	{ "NET_RX per unit of work, local", WM_PER_WORK, "local_net_rx_rate", 0.2, 3, 1 },
	{ "NET_RX per unit of work, remote", WM_PER_WORK, "remote_net_rx_rate", 0.2, 3, 1 },
	{ "softirq share, local host", WM_SOFTIRQ, "local", 0.1, 0, 1 },
	{ "softirq share, remote host", WM_SOFTIRQ, "remote", 0.1, 0, 1 },
	{ "receive-window-limited share, local sender", WM_RWND, "local", 0.1, 0, 1 },
	{ "receive-window-limited share, remote sender", WM_RWND, "remote", 0.1, 0, 1 },
	{ "send-buffer-limited share, local sender", WM_SNDBUF, "local", 0.1, 0, 1 },
	{ "send-buffer-limited share, remote sender", WM_SNDBUF, "remote", 0.1, 0, 1 },
	{ "retransmits, local", WM_SEL, "local_transport_retrans", 0.5, 0, 1 },
	{ "retransmits, remote", WM_SEL, "remote_transport_retrans", 0.5, 0, 1 },
	/* autotuning moves buffers far for small causes: a quarter weight */
	{ "send buffer at the end, local", WM_SEL, "lss_size_end", 0.2, 0, 0.25 },
	{ "receive buffer at the end, remote", WM_SEL, "rsr_size_end", 0.2, 0, 0.25 },
	{ "context switches/s, local", WM_SEL, "local_ctx_per_sec", 0.3, 0, 0.5 },
	{ "CPU the local end ran on", WM_SEL, "local_cpu_ran", 0, 0, 1 },
	{ "CPU the remote end ran on", WM_SEL, "remote_cpu_ran", 0, 0, 1 },
};

static double why_num(const json_t *j)
{
	return json_is_number(j) ? json_number_value(j) : NAN;
}

/* One end's limiter share (rwnd or sndbuf) over its sockets; NAN n/a. */
static double why_doc_share(const json_t *doc, const char *end, bool rwnd)
{
	const json_t *socks = json_object_get(json_object_get(doc, end), "socks"), *s;
	double busy = 0, lim = 0;
	size_t i;

	json_array_foreach(socks, i, s) {
		const json_t *t = json_object_get(s, "tcp");
		double b = why_num(json_object_get(t, "busy_us"));
		double l = why_num(json_object_get(t, rwnd ? "rwnd_limited_us" : "sndbuf_limited_us"));

		if (b > 0 && l >= 0) {
			busy += b;
			lim += l;
		}
	}
	return busy > 0 ? lim / busy : NAN;
}

/* The mechanism's value in doc; NAN n/a. */
static double why_mech_value(const struct why_mech *m, const json_t *doc)
{
	const json_t *res = json_object_get(doc, "result");
	double v, thr;

	switch (m->kind) {
	case WM_SEL:
		return why_num(json_object_get(res, m->name));
	case WM_PER_WORK:
		v = why_num(json_object_get(res, m->name));
		thr = why_num(json_object_get(res, "throughput"));
		return thr > 0 ? v / thr : NAN;
	case WM_SOFTIRQ:
		return why_num(json_object_get(json_object_get(json_object_get(
			json_object_get(doc, m->name), "cpu"), "total"), "softirq")) / 100;
	case WM_RWND:
	case WM_SNDBUF:
		return why_doc_share(doc, m->name, m->kind == WM_RWND);
	case WM_INFLIGHT:
		return why_num(json_object_get(res, "transaction_rate")) *
		       why_num(json_object_get(res, m->name)) / 1e6;
	}
	return NAN;
}

/* Score and text of one mechanism; false when it did not move enough. */
static bool why_mech_moved(const struct why_mech *m, double a, double b,
			   struct why_moved *out)
{
	bool share = m->kind == WM_SOFTIRQ || m->kind == WM_RWND || m->kind == WM_SNDBUF;
	double d = b - a;

	if (!isfinite(a) || !isfinite(b) || a == b)
		return false;
	snprintf(out->what, sizeof(out->what), "%s", m->what);
	out->a = a;
	out->b = b;
	if (!strcmp(m->name, "local_cpu_ran") || !strcmp(m->name, "remote_cpu_ran")) {
		out->score = 1.0;	/* a move to another CPU is a change of kind */
		snprintf(out->text, sizeof(out->text), "%s: CPU %.0f -> CPU %.0f", m->what, a, b);
		return a >= 0 && b >= 0;
	}
	if (share) {
		if (fabs(d) < m->min)
			return false;
		out->score = 2 * fabs(d);
		snprintf(out->text, sizeof(out->text), "%s: %.0f %% -> %.0f %%", m->what,
			 a * 100, b * 100);
		return true;
	}
	/* counts: a change from 0 is relative to 1 */
	out->score = fabs(d) / (fabs(a) > 1 || m->prec ? fabs(a) : 1);
	if (!(out->score >= m->min) || !isfinite(out->score))
		return false;
	snprintf(out->text, sizeof(out->text), "%s: %.*f -> %.*f (%+.0f %%)", m->what, m->prec, a,
		 m->prec, b, a != 0 ? d / fabs(a) * 100 : 100.0);
	return true;
}

void why_change(const json_t *a, const json_t *b, double ci_a, double sd_a,
		double ci_b, double sd_b, struct why_change *out)
{
	const json_t *ra = json_object_get(a, "result"), *rb = json_object_get(b, "result");
	struct sweep_policy_pt pa = { .rate = why_num(json_object_get(ra, "throughput")),
				      .ci = ci_a, .tick_sd = sd_a };
	struct sweep_policy_pt pb = { .rate = why_num(json_object_get(rb, "throughput")),
				      .ci = ci_b, .tick_sd = sd_b };
	enum sweep_noise_src src;
	double na, nb;

	memset(out, 0, sizeof(*out));
	out->thr_a = pa.rate;
	out->thr_b = pb.rate;
	out->change_pct = pa.rate > 0 ? (pb.rate - pa.rate) / pa.rate * 100 : NAN;
	na = sweep_policy_noise(&pa, &src);
	nb = sweep_policy_noise(&pb, &src);
	out->noise = sweep_cliff_rule.k * sqrt(na * na + nb * nb);
	out->beyond_noise = isfinite(out->noise) && fabs(pb.rate - pa.rate) > out->noise;
	for (unsigned i = 0; i < sizeof(why_mechs) / sizeof(why_mechs[0]); i++) {
		struct why_moved m;
		unsigned k;

		memset(&m, 0, sizeof(m));
		if (!why_mech_moved(&why_mechs[i], why_mech_value(&why_mechs[i], a),
				    why_mech_value(&why_mechs[i], b), &m))
			continue;
		m.score *= why_mechs[i].weight;
		if (out->n == WHY_CHANGE_MAX && m.score <= out->m[WHY_CHANGE_MAX - 1].score)
			continue;
		k = out->n < WHY_CHANGE_MAX ? out->n++ : WHY_CHANGE_MAX - 1;
		while (k > 0 && out->m[k - 1].score < m.score) {
			out->m[k] = out->m[k - 1];
			k--;
		}
		out->m[k] = m;
	}
}

/*
 * The noise of a run's mean rate from its ticks: their spread over the
 * root of their number (the standard error), NAN without ticks.  The
 * floor of sweep_policy_noise() keeps run-to-run variation in.
 */
static double why_tick_se(const struct store_run *r)
{
	size_t n = 0, finite = 0;
	double *v = store_series_get(r->series, "rate", &n);

	for (size_t i = 0; v && i < n; i++)
		finite += isfinite(v[i]) ? 1 : 0;
	free(v);
	return finite ? store_series_sd(r->series, "rate") / sqrt((double)finite) : NAN;
}

void why_change_stored(const struct store_run *a, const struct store_run *b,
		       struct why_change *out)
{
	why_change(a->result, b->result, store_result_ci(a->result), why_tick_se(a),
		   store_result_ci(b->result), why_tick_se(b), out);
}
