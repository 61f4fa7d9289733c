// SPDX-License-Identifier: GPL-2.0-or-later
/* why-change.c - what moved between two runs: the mechanisms, largest first. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "core/util.h"
#include "session/result-doc.h"
#include "session/why-change.h"

/* How a mechanism is read from a run document. */
enum why_mech_kind {
	WM_SEL,			/* a figure of "result" */
	WM_PER_WORK,		/* a per-second figure of "result" per transaction or MB */
	WM_IRQ,			/* the same for the test device's interrupts */
	WM_SOFTIRQ,		/* an end's softirq share of all CPUs, % */
	WM_RWND,		/* an end's rwnd-limited share of busy time */
	WM_SNDBUF,		/* an end's sndbuf-limited share of busy time */
	WM_INFLIGHT,		/* RR: transactions in flight, rate x mean latency (Little) */
	WM_CAP_SIZE,		/* an end's mean captured data segment received (GRO) */
	WM_CPU,			/* the CPU an end ran on */
	WM_RETRANS,		/* an end's retransmits, % of the segments it sent */
};

/*
 * Retransmit shares below this (% of segments sent) count as this: a
 * handful of retransmits from none is a large ratio of nothing (a loaded
 * lab stream went from 288 of 440000 segments to 2).
 */
#define WHY_RETRANS_FLOOR 0.1

/*
 * The mechanisms compared, a row each; a contributor adds one here.
 * min: the smallest move named (a figure's ratio less one, see
 * why_move_ratio(), or share points / 100); weight: how much a move
 * counts in the ranking;
 * end: the end whose capture, shares or coalescing knobs the row reads.
 */
static const struct why_mech {
	const char *what;
	enum why_mech_kind kind;
	enum sel_id sel;		/* the field of "result" it reads; SEL_NIDS none */
	const char *end;		/* one of result_doc_ends, or NULL */
	double min;
	int prec;
	double weight;			/* score multiplier */
	bool host_wide;			/* a figure of the whole host: with both ends
					 * on one host (a lab, loopback) the remote
					 * row repeats the local one and is left out */
} why_mechs[] = {
	{ "transactions in flight (rate x latency)", WM_INFLIGHT, SEL_MEAN_LATENCY, NULL, 0.3, 2, 1, false },
	/* before the segments of TCP_INFO: GRO shows only in the capture */
	{ "segment size received, remote end (capture)", WM_CAP_SIZE, SEL_NIDS, RESULT_DOC_KEY_REMOTE, 0.2, 0, 1, false },
	{ "segment size received, local end (capture)", WM_CAP_SIZE, SEL_NIDS, RESULT_DOC_KEY_LOCAL, 0.2, 0, 1, false },
	{ "segments per transaction, client out", WM_SEL, SEL_SEGS_OUT_PER_TRANS, NULL, 0.1, 2, 1, false },
	{ "segments per transaction, client in", WM_SEL, SEL_SEGS_IN_PER_TRANS, NULL, 0.1, 2, 1, false },
	{ "segments per transaction, server out", WM_SEL, SEL_REMOTE_SEGS_OUT_PER_TRANS, NULL, 0.1, 2, 1, false },
	{ "segments per transaction, server in", WM_SEL, SEL_REMOTE_SEGS_IN_PER_TRANS, NULL, 0.1, 2, 1, false },
	{ "interrupts", WM_IRQ, SEL_REMOTE_IRQ_RATE, RESULT_DOC_KEY_REMOTE, 0.2, 2, 1, false },
	{ "interrupts", WM_IRQ, SEL_LOCAL_IRQ_RATE, RESULT_DOC_KEY_LOCAL, 0.2, 2, 1, false },
	{ "NET_RX", WM_PER_WORK, SEL_LOCAL_NET_RX_RATE, RESULT_DOC_KEY_LOCAL, 0.2, 2, 1, true },
	{ "NET_RX", WM_PER_WORK, SEL_REMOTE_NET_RX_RATE, RESULT_DOC_KEY_REMOTE, 0.2, 2, 1, true },
	{ "softirq share, local host", WM_SOFTIRQ, SEL_NIDS, RESULT_DOC_KEY_LOCAL, 0.1, 0, 1, true },
	{ "softirq share, remote host", WM_SOFTIRQ, SEL_NIDS, RESULT_DOC_KEY_REMOTE, 0.1, 0, 1, true },
	{ "receive-window-limited share, local sender", WM_RWND, SEL_NIDS, RESULT_DOC_KEY_LOCAL, 0.1, 0, 1, false },
	{ "receive-window-limited share, remote sender", WM_RWND, SEL_NIDS, RESULT_DOC_KEY_REMOTE, 0.1, 0, 1, false },
	{ "send-buffer-limited share, local sender", WM_SNDBUF, SEL_NIDS, RESULT_DOC_KEY_LOCAL, 0.1, 0, 1, false },
	{ "send-buffer-limited share, remote sender", WM_SNDBUF, SEL_NIDS, RESULT_DOC_KEY_REMOTE, 0.1, 0, 1, false },
	{ "retransmits, local end", WM_RETRANS, SEL_LOCAL_TRANSPORT_RETRANS, RESULT_DOC_KEY_LOCAL, 0.5, 2, 1, false },
	{ "retransmits, remote end", WM_RETRANS, SEL_REMOTE_TRANSPORT_RETRANS, RESULT_DOC_KEY_REMOTE, 0.5, 2, 1, false },
	/* autotuning moves buffers far for small causes: a quarter weight */
	{ "send buffer at the end, local", WM_SEL, SEL_LSS_SIZE_END, NULL, 0.2, 0, 0.25, false },
	{ "receive buffer at the end, remote", WM_SEL, SEL_RSR_SIZE_END, NULL, 0.2, 0, 0.25, false },
	{ "context switches/s, local", WM_SEL, SEL_LOCAL_CTX_PER_SEC, NULL, 0.3, 0, 0.5, false },
	{ "CPU the local end ran on", WM_CPU, SEL_LOCAL_CPU_RAN, NULL, 0, 0, 1, false },
	{ "CPU the remote end ran on", WM_CPU, SEL_REMOTE_CPU_RAN, NULL, 0, 0, 1, false },
};

/* end names the local end ("local"), else the remote one. */
static bool why_is_local(const char *end)
{
	return !strcmp(end, RESULT_DOC_KEY_LOCAL);
}

/*
 * The run's units of work per second and their name: transactions for an
 * RR, MB (10^6 bytes) for a stream, whose throughput is in 10^6 bits/s;
 * NAN when the document has neither.
 */
static double why_doc_work(const json_t *doc, const char **unit)
{
	const char *u = result_doc_str(doc, SEL_THROUGHPUT_UNITS);

	*unit = "unit of work";
	if (u && !strcmp(u, units_rate(TEST_TCP_RR)->name)) {
		*unit = "transaction";
		return result_doc_num(doc, SEL_TRANSACTION_RATE);
	}
	if (u && !strcmp(u, units_rate(TEST_TCP_STREAM)->name)) {
		*unit = "MB";
		return result_doc_num(doc, SEL_THROUGHPUT) / 8;
	}
	return NAN;
}

/* What end's capture counted received (data segments, their bytes); false n/a. */
static bool why_doc_received(const json_t *doc, const char *end, double *data, double *bytes)
{
	result_doc_capture_counts(doc, end, CAP_IN, data, bytes);
	return *data > 0 && *bytes >= 0;
}

/*
 * Captured data segments end received per unit of work: per transaction
 * (the end's own count of them) for an RR, per MB of the captured bytes
 * for a stream; NAN n/a.
 */
static double why_doc_segs_per_work(const json_t *doc, const char *end)
{
	const char *unit;
	double data, bytes, trans;

	if (!why_doc_received(doc, end, &data, &bytes) || !isfinite(why_doc_work(doc, &unit)))
		return NAN;
	if (strcmp(unit, "transaction"))
		return bytes > 0 ? data / (bytes / 1e6) : NAN;
	trans = result_doc_num(doc, why_is_local(end) ? SEL_LOCAL_TRANSACTIONS :
							SEL_REMOTE_TRANSACTIONS);
	return trans > 0 ? data / trans : NAN;
}

/* One end's limiter share (rwnd or sndbuf) over its sockets; NAN n/a. */
static double why_doc_share(const json_t *doc, const char *end, bool rwnd)
{
	size_t n = result_doc_nsocks(doc, end);
	double busy = 0, lim = 0;

	for (size_t i = 0; i < n; i++) {
		double b, rw, sb, l;

		result_doc_sock_limited(doc, end, i, &b, &rw, &sb);
		l = rwnd ? rw : sb;
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
	const char *unit;
	double v, data, bytes;

	switch (m->kind) {
	case WM_SEL:
	case WM_CPU:
		return result_doc_num(doc, m->sel);
	case WM_PER_WORK:
	case WM_IRQ:
		v = result_doc_num(doc, m->sel);
		return v / why_doc_work(doc, &unit);
	case WM_SOFTIRQ:
		return result_doc_softirq(doc, m->end) / 100;
	case WM_RWND:
	case WM_SNDBUF:
		return why_doc_share(doc, m->end, m->kind == WM_RWND);
	case WM_INFLIGHT:
		return result_doc_num(doc, SEL_TRANSACTION_RATE) *
		       result_doc_num(doc, m->sel) / 1e6;
	case WM_RETRANS:
		v = result_doc_segs_out(doc, m->end);
		return v > 0 ? result_doc_num(doc, m->sel) / v * 100 : NAN;
	case WM_CAP_SIZE:
		return why_doc_received(doc, m->end, &data, &bytes) ? bytes / data : NAN;
	}
	return NAN;
}

/*
 * How far a figure moved, the same from A to B as from B to A: the larger
 * over the smaller (1 -> 3 and 3 -> 1 are both 3).  The smaller counts
 * from floor, so a move from 0 is finite.
 */
static double why_move_ratio(double a, double b, double floor)
{
	double lo = fmin(fabs(a), fabs(b));

	return fmax(fabs(a), fabs(b)) / (lo > floor ? lo : floor);
}

/* Whether a run's two ends measured one host (a lab, loopback): both name
 * the same host.  Unlike why_same_host(), which judges a live window, an end
 * without a host name is not taken for the other's host: a row left out
 * wrongly would hide a move. */
static bool why_doc_same_host(const json_t *doc)
{
	const char *l = result_doc_host(doc, RESULT_DOC_KEY_LOCAL);
	const char *r = result_doc_host(doc, RESULT_DOC_KEY_REMOTE);

	return l && r && *l && !strcmp(l, r);
}

/* The mechanism's name in a text: per-work rows say per what, and where;
 * one_host: a host-wide row standing for both ends. */
static void why_mech_what(const struct why_mech *m, const json_t *b, bool one_host,
			  char *buf, size_t len)
{
	const char *unit;
	const char *dev;

	if (m->kind == WM_SOFTIRQ && one_host) {
		snprintf(buf, len, "softirq share, the host of both ends");
		return;
	}
	if (m->kind != WM_PER_WORK && m->kind != WM_IRQ) {
		snprintf(buf, len, "%s", m->what);
		return;
	}
	why_doc_work(b, &unit);
	dev = result_doc_str(b, why_is_local(m->end) ? SEL_LOCAL_IRQ_DEV : SEL_REMOTE_IRQ_DEV);
	if (m->kind == WM_IRQ && dev && *dev)
		snprintf(buf, len, "%s per %s, %s end (%s)", m->what, unit, m->end, dev);
	else if (one_host)
		snprintf(buf, len, "%s per %s, the host of both ends", m->what, unit);
	else
		snprintf(buf, len, "%s per %s, %s end", m->what, unit, m->end);
	str_sanitize(buf, len);
}

/* Append to text what explains the move beside the figure, by the row's kind. */
static void why_mech_more(const struct why_mech *m, const json_t *a, const json_t *b,
			  const struct why_change *c, char *text, size_t len)
{
	size_t used = strlen(text);
	const char *unit;
	double sa, sb;

	if (m->kind == WM_CAP_SIZE) {
		sa = why_doc_segs_per_work(a, m->end);
		sb = why_doc_segs_per_work(b, m->end);
		why_doc_work(b, &unit);
		if (isfinite(sa) && isfinite(sb))
			used += (size_t)snprintf(text + used, len - used,
						 ", %.*f -> %.*f segments per %s", sa < 10 ? 2 : 0,
						 sa, sb < 10 ? 2 : 0, sb, unit);
		/* a sample still gives the mean size, not every segment */
		if (used < len && (result_doc_capture_dropped(a, m->end) ||
				   result_doc_capture_dropped(b, m->end)))
			snprintf(text + used, len - used, " (the capture dropped packets)");
		return;
	}
	if (m->kind == WM_RETRANS) {
		snprintf(text + used, len - used, " (%.0f of %.0f -> %.0f of %.0f)",
			 result_doc_num(a, m->sel),
			 result_doc_segs_out(a, m->end),
			 result_doc_num(b, m->sel),
			 result_doc_segs_out(b, m->end));
		return;
	}
	if (m->kind != WM_IRQ)
		return;
	/* the coalescing of that end's device, where it changed */
	for (unsigned i = 0; i < c->nknobs && used < len; i++) {
		const struct why_knob_change *k = &c->k[i];

		if (strcmp(k->end, m->end) || strcmp(k->group, "coalescing"))
			continue;
		used += (size_t)snprintf(text + used, len - used, ", %s %s -> %s", k->name, k->a, k->b);
	}
}

/* Score and text of one mechanism; false when it did not move enough. */
static bool why_mech_moved(const struct why_mech *m, double a, double b,
			   struct why_moved *out)
{
	bool share = m->kind == WM_SOFTIRQ || m->kind == WM_RWND || m->kind == WM_SNDBUF;
	double d = b - a, ratio;

	if (!isfinite(a) || !isfinite(b) || a == b)
		return false;
	out->a = a;
	out->b = b;
	if (m->kind == WM_CPU) {
		out->score = 1.0;	/* a move to another CPU is a change of kind */
		snprintf(out->text, sizeof(out->text), "%s: CPU %.0f -> CPU %.0f", out->what, a, b);
		return a >= 0 && b >= 0;
	}
	if (share) {
		if (fabs(d) < m->min)
			return false;
		out->score = 2 * fabs(d);
		snprintf(out->text, sizeof(out->text), "%s: %.0f %% -> %.0f %%", out->what,
			 a * 100, b * 100);
		return true;
	}
	/*
	 * Named from a ratio of 1 + min; ranked by its logarithm: a buffer
	 * autotuned 66-fold (4.2, a quarter counted) stays behind a segment
	 * size 14 times as large (2.6), where the ratio less one (16 against
	 * 13) would put it ahead.
	 */
	/* a figure counts from its smallest shown step: 1, or 0.01 at two decimals */
	ratio = why_move_ratio(a, b, m->kind == WM_RETRANS ? WHY_RETRANS_FLOOR : pow(10, -m->prec));
	if (!(ratio - 1 >= m->min) || !isfinite(ratio))
		return false;
	out->score = log(ratio);
	if (m->kind == WM_RETRANS)
		snprintf(out->text, sizeof(out->text), "%s: %.2f %% -> %.2f %% of the segments sent",
			 out->what, a, b);
	else
		snprintf(out->text, sizeof(out->text), "%s: %.*f -> %.*f%s (%+.0f %%)", out->what,
			 m->prec, a, m->prec, b, m->kind == WM_CAP_SIZE ? " B" : "",
			 a != 0 ? d / fabs(a) * 100 : 100.0);
	return true;
}

/* A knob's value as text: its value, "n/a" (the driver has none), "(not recorded)". */
static const char *why_knob_text(const json_t *k)
{
	if (!k)
		return "(not recorded)";
	return result_doc_knob_value(k) ?: "n/a";
}

/* Note knob k of end (from either run) when its values in la and lb differ. */
static void why_knob_note(struct why_change *c, const char *end, const json_t *k,
			  const json_t *la, const json_t *lb)
{
	const char *name = result_doc_knob_name(k);
	const json_t *ka, *kb;
	struct why_knob_change *o;
	const char *va, *vb;
	char text[WHY_EVIDENCE_MAX];

	if (!name)
		return;
	ka = result_doc_knob(la, name);
	kb = result_doc_knob(lb, name);
	va = why_knob_text(ka);
	vb = why_knob_text(kb);
	if (!strcmp(va, vb))
		return;			/* n/a on both is no change either */
	if (c->nknobs == WHY_KNOBS_MAX) {
		c->knobs_more++;
		return;
	}
	o = &c->k[c->nknobs++];
	snprintf(o->end, sizeof(o->end), "%s", end);
	snprintf(o->name, sizeof(o->name), "%s", name);
	snprintf(o->group, sizeof(o->group), "%s",
		 result_doc_knob_group(kb ? kb : ka) ?: "");
	snprintf(o->a, sizeof(o->a), "%s", va);
	snprintf(o->b, sizeof(o->b), "%s", vb);
	/* names and values from a document anyone may have written */
	str_sanitize(o->name, sizeof(o->name));
	str_sanitize(o->group, sizeof(o->group));
	str_sanitize(o->a, sizeof(o->a));
	str_sanitize(o->b, sizeof(o->b));
	snprintf(text, sizeof(text), "%s %s: %s -> %s", end, o->name, o->a, o->b);
	memcpy(o->text, text, sizeof(o->text));
}

/* The knobs that differ between the snapshots of a and b, local end first. */
static void why_knobs_differ(const json_t *a, const json_t *b, struct why_change *c)
{
	for (unsigned e = 0; e < 2; e++) {
		const char *end = result_doc_ends[e];
		const json_t *la = result_doc_knob_list(a, end), *lb = result_doc_knob_list(b, end);
		const json_t *k;
		size_t i;

		if (!la || !lb)
			continue;
		c->knobs_recorded = true;
		json_array_foreach(lb, i, k)
			why_knob_note(c, end, k, la, lb);
		/* those only A recorded */
		json_array_foreach(la, i, k)
			if (!result_doc_knob(lb, result_doc_knob_name(k) ?: ""))
				why_knob_note(c, end, k, la, lb);
	}
}

/* The test options compared, by their params_to_json() key. */
static const struct {
	const char *key, *opt;
} why_params[] = {
	{ "test", "-t" },		{ "family", "-4/-6" },	   { "duration", "-l" },
	{ "req_size", "-r request" },	{ "resp_size", "-r response" }, { "burst", "-b" },
	{ "send_size", "-m" },		{ "recv_size", "-M" },	   { "lsndbuf", "-s send" },
	{ "lrcvbuf", "-s receive" },	{ "rsndbuf", "-S send" },  { "rrcvbuf", "-S receive" },
	{ "nodelay", "-D" },		{ "flows", "--flows" },
};

/* A params value as text: a number bare, -1 "auto", true/false "on"/"off". */
static const char *why_param_text(const json_t *v, char *buf, size_t len)
{
	if (json_is_number(v) && json_number_value(v) == -1)
		return "auto";
	if (json_is_number(v))
		snprintf(buf, len, "%.6g", json_number_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "on" : "off");
	else if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else
		snprintf(buf, len, "n/a");
	str_sanitize(buf, len);
	return buf;
}

unsigned why_change_params(const json_t *pa, const json_t *pb, char *buf, size_t len)
{
	unsigned n = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(why_params) / sizeof(why_params[0]); i++) {
		const json_t *va = json_object_get(pa, why_params[i].key);
		const json_t *vb = json_object_get(pb, why_params[i].key);
		char ta[48], tb[48];

		if (json_equal((json_t *)va, (json_t *)vb) || (!va && !vb))
			continue;
		n++;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s %s -> %s",
						 n > 1 ? ", " : "", why_params[i].opt,
						 why_param_text(va, ta, sizeof(ta)),
						 why_param_text(vb, tb, sizeof(tb)));
	}
	return n;
}

bool why_change_same_knobs(const json_t *a, const json_t *b)
{
	struct why_change *c = calloc(1, sizeof(*c));
	bool same;

	if (!c)
		return false;
	why_knobs_differ(a, b, c);
	same = c->knobs_recorded && !c->nknobs && !c->knobs_more;
	free(c);
	return same;
}

/* Did both runs capture what some end received (--capture)? */
static bool why_both_captured(const json_t *a, const json_t *b)
{
	double data, bytes;

	for (unsigned e = 0; e < 2; e++)
		if (why_doc_received(a, result_doc_ends[e], &data, &bytes) &&
		    why_doc_received(b, result_doc_ends[e], &data, &bytes))
			return true;
	return false;
}

/* Whether knob name of end is "on" in doc's snapshot. */
static bool why_knob_on(const json_t *doc, const char *end, const char *name)
{
	const char *v = result_doc_knob_value(result_doc_knob(result_doc_knob_list(doc, end), name));

	return v && !strcmp(v, "on");
}

/*
 * GRO changed on an end that, in the run with GRO off, already received
 * segments of at least WHY_WHOLE_MSS MSS on average, while the other end
 * sends with TSO or GSO on: its segments arrive whole (a veth hands the
 * sender's TSO/GSO segments over unsplit), so GRO has nothing to merge and
 * what the capture shows moving is the run's own variation.  Say so and
 * what makes GRO act.  True when it said so.
 */
#define WHY_WHOLE_MSS 2.0
static bool why_change_gro_idle(const json_t *a, const json_t *b, const struct why_knob_change *k,
				struct why_change *c)
{
	const char *other, *target = json_string_value(json_object_get(b, "target"));
	const json_t *off_doc = strcmp(k->a, "off") ? b : a;
	double data, bytes, mss;
	const char *off;

	if (strcmp(k->name, "gro") || (strcmp(k->a, "off") && strcmp(k->b, "off")))
		return false;
	other = why_is_local(k->end) ? RESULT_DOC_KEY_REMOTE : RESULT_DOC_KEY_LOCAL;
	if (!why_knob_on(b, other, "tso") && !why_knob_on(b, other, "gso"))
		return false;
	mss = result_doc_seg_mss(result_doc_capture_dir(off_doc, k->end, CAP_IN));
	if (!why_doc_received(off_doc, k->end, &data, &bytes) || !(mss > 0) ||
	    bytes / data < WHY_WHOLE_MSS * mss)
		return false;
	off = why_knob_on(b, other, "tso") && why_knob_on(b, other, "gso") ? "tso=off gso=off" :
	      why_knob_on(b, other, "tso") ? "tso=off" : "gso=off";
	snprintf(c->note, sizeof(c->note),
		 "%.6s gro %.3s -> %.3s cannot act: %.6s sends TSO/GSO segments, they arrive whole%s (%u B, MSS %u) and GRO has nothing to merge; %s on %.6s lets GRO act",
		 k->end, k->a, k->b, other, target && strstr(target, "veth") ? " over the veth" : "",
		 (unsigned)fmin(bytes / data, 1e9), (unsigned)fmin(mss, 1e9), off, other);
	return true;
}

/*
 * An offload changed (GRO, TSO, GSO) but the segments the receiver got
 * were not captured: TCP_INFO counts wire segments, so what the change
 * did cannot show; say so rather than list nothing.  Captured, a GRO
 * change that could not act says why (why_change_gro_idle()).  Runs after
 * the mechanisms are ranked.
 */
static void why_change_note(const json_t *a, const json_t *b, struct why_change *c)
{
	for (unsigned i = 0; i < c->nknobs; i++) {
		if (strcmp(c->k[i].group, "offloads"))
			continue;
		if (!why_both_captured(a, b)) {
			snprintf(c->note, sizeof(c->note),
				 "%s %s changed but not both runs captured: the receiver's segment sizes need --capture",
				 c->k[i].end, c->k[i].name);
			return;
		}
		if (why_change_gro_idle(a, b, &c->k[i], c))
			return;
	}
}

/*
 * The throughput of b against a's by the verdict rule, only between runs
 * of the same test and unit: a STREAM's Mbit/s against an RR's Trans/s is
 * no change of anything.
 */
static void why_change_verdict(const json_t *a, const json_t *b, const struct why_noise *noise,
			       struct why_change *out)
{
	const char *ta = result_doc_str(a, SEL_TEST), *tb = result_doc_str(b, SEL_TEST);
	const char *ua = result_doc_str(a, SEL_THROUGHPUT_UNITS);
	const char *ub = result_doc_str(b, SEL_THROUGHPUT_UNITS);
	struct verdict_in in;

	verdict_in_init(&in, true);
	in.a = out->thr_a;
	in.b = out->thr_b;
	if (noise) {
		in.ci_a = noise->ci_a;
		in.ci_b = noise->ci_b;
		in.hist = noise->hist;
		in.nhist = noise->nhist;
	}
	verdict_judge(&in, &out->verdict);
	out->change_pct = out->verdict.delta_pct;
	if ((ta && tb && strcmp(ta, tb)) || (ua && ub && strcmp(ua, ub))) {
		out->unlike = true;
		out->verdict.word = VERDICT_CANT_TELL;
		out->change_pct = out->verdict.delta_pct = NAN;
		snprintf(out->verdict.reason, sizeof(out->verdict.reason),
			 "not compared: %s (%s) against %s (%s), not like with like", tb ? tb : "?",
			 ub ? ub : "?", ta ? ta : "?", ua ? ua : "?");
		str_sanitize(out->verdict.reason, sizeof(out->verdict.reason));
	}
	out->beyond_noise = out->verdict.word == VERDICT_BETTER ||
			    out->verdict.word == VERDICT_WORSE;
}

void why_change(const json_t *a, const json_t *b, const struct why_noise *noise,
		struct why_change *out)
{
	bool one_host;

	memset(out, 0, sizeof(*out));
	why_knobs_differ(a, b, out);
	out->thr_a = result_doc_num(a, SEL_THROUGHPUT);
	out->thr_b = result_doc_num(b, SEL_THROUGHPUT);
	why_change_verdict(a, b, noise, out);
	one_host = why_doc_same_host(a) && why_doc_same_host(b);
	for (unsigned i = 0; i < sizeof(why_mechs) / sizeof(why_mechs[0]); i++) {
		const struct why_mech *wm = &why_mechs[i];
		struct why_moved m;
		unsigned k;

		if (wm->host_wide && one_host && !strcmp(wm->end, RESULT_DOC_KEY_REMOTE))
			continue;
		memset(&m, 0, sizeof(m));
		why_mech_what(wm, b, wm->host_wide && one_host, m.what, sizeof(m.what));
		if (!why_mech_moved(wm, why_mech_value(wm, a), why_mech_value(wm, b), &m))
			continue;
		why_mech_more(wm, a, b, out, m.text, sizeof(m.text));
		m.score *= wm->weight;
		if (out->n == WHY_CHANGE_MAX && m.score <= out->m[WHY_CHANGE_MAX - 1].score)
			continue;
		k = out->n < WHY_CHANGE_MAX ? out->n++ : WHY_CHANGE_MAX - 1;
		while (k > 0 && out->m[k - 1].score < m.score) {
			out->m[k] = out->m[k - 1];
			k--;
		}
		out->m[k] = m;
	}
	why_change_note(a, b, out);
}
