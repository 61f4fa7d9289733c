/* SPDX-License-Identifier: GPL-2.0-or-later */
/* why.h - what limits a run: a rule table over its figures, ranked verdicts. */
#ifndef TT_WHY_H
#define TT_WHY_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/params.h"
#include "knobs/knobs.h"
#include "sample/sample.h"

#define WHY_MAX 8		/* verdicts kept per run */
#define WHY_EVIDENCE_MAX 200
#define WHY_FLOWS_MAX 8		/* flows listed per end; the ones beyond are summarised */

/*
 * Tiers: a direct cause (the kernel's own attribution, a setup fact such as
 * a tbf or both ends pinned to one CPU) ranks before a supporting figure
 * (a busy CPU on a shared host, retransmits), which ranks before notes.
 */
enum why_tier { WHY_DIRECT = 1, WHY_SUPPORT = 2, WHY_NOTE = 3 };

struct why_verdict {
	char rule[32];			/* the table's name: "link", "receive window" */
	enum why_tier tier;
	double strength;		/* 0..1: how strongly the evidence points at it */
	char evidence[WHY_EVIDENCE_MAX];	/* one line, starting with what limits */
};

/* The members of a verdict in why_report_to_json's array (the result
 * document's and the store's "limits"), for its writer and its reader. */
#define WHY_KEY_RULE		"rule"
#define WHY_KEY_TIER		"tier"
#define WHY_KEY_STRENGTH	"strength"
#define WHY_KEY_EVIDENCE	"evidence"

/* Best first: tier, then strength, then the table's order. */
struct why_report {
	unsigned n;
	struct why_verdict v[WHY_MAX];
};

/* One flow's limiter times over the window judged (TCP_INFO, docs/why.md). */
struct why_flow {
	uint32_t flow;			/* as socks[].flow: from 0 */
	bool chrono;			/* false: the kernel lacks the times (n/a) */
	double busy_us, rwnd_us, sndbuf_us;
	bool app_limited;
};

/*
 * The flows beyond WHY_FLOWS_MAX: summed, with the lowest and highest
 * rwnd- and sndbuf-limited share of those that were busy at all.
 */
struct why_flows_rest {
	unsigned n, nchrono, nbusy, app_limited;
	double busy_us, rwnd_us, sndbuf_us;
	double rwnd_lo, rwnd_hi, sndbuf_lo, sndbuf_hi;	/* shares 0..1 */
	uint32_t rwnd_hi_flow, sndbuf_hi_flow;
};

/* One end's figures over the window judged (a run, or the last ticks). */
/*
 * The knob figures the rules read of an end, small enough to go with every
 * tick: the session reads them once from the snapshot taken before the
 * run, and the dashboard's live verdicts put them into each window's ends.
 */
struct why_knobs {
	int64_t rmem_max, wmem_max;	/* net.core.*; -1 unknown */
	int64_t tcp_rmem_max, tcp_wmem_max;	/* third value of net.ipv4.tcp_*mem; -1 unknown */
	int64_t rx_usecs;		/* the device's rx-usecs; -1 unknown */
	int64_t rx_usecs_high;		/* rx-usecs-high (adaptive-rx's upper delay); -1 unknown */
	int adaptive_rx;		/* -1 unknown, 0 off, 1 on */
};

struct why_end {
	bool present;
	char host[64];
	unsigned ntcp;			/* TCP sockets with figures */
	unsigned nchrono;		/* of those, with the limiter times (4.10+) */
	double busy_us, rwnd_us, sndbuf_us;	/* summed over sockets */
	unsigned app_limited;		/* sockets whose last rate sample was app-limited */
	unsigned nflows;		/* TCP sockets listed in flow[] */
	struct why_flow flow[WHY_FLOWS_MAX];
	struct why_flows_rest rest;	/* the TCP sockets beyond flow[] */
	double rtt_us;			/* mean smoothed RTT over the TCP sockets */
	int64_t retrans;		/* retransmitted segments; -1 n/a */
	int64_t segs_out;		/* segments sent; -1 n/a */
	int64_t sndbuf, rcvbuf;		/* largest SO_SNDBUF / SO_RCVBUF now; -1 n/a */
	int32_t sndbuf_req, rcvbuf_req;	/* -s / -S asked for this end; -1 autotune */
	struct cpu_sample cpu;		/* average over the window */
	int cpu_bind;			/* -1 not pinned */
	int cpu_main;			/* -1 n/a */
	unsigned ncpus_used;		/* 0 n/a */
	char irq_dev[32];
	double irq_rate;		/* the device's interrupts/s; < 0 n/a */
	struct why_knobs kn;		/* its knobs, from the snapshot before the run */
};

struct why_input {
	enum test_type type;
	unsigned flows;
	unsigned burst;			/* -b */
	uint32_t req_size, resp_size;
	double elapsed;			/* seconds judged */
	double throughput;		/* bits/s (streams) or trans/s (RR) */
	double lat_us;			/* RR: mean transaction latency; 0 n/a */
	uint64_t tbf_bps;		/* the lab's tbf rate; 0 none */
	uint64_t udp_sent, udp_lost;
	struct why_end local, remote;
};

/* The numbers the rules compare against (docs/why.md explains each). */
struct why_thresholds {
	double link_share;		/* throughput / tbf rate that makes the link the limit */
	double limited_share;		/* rwnd- or sndbuf-limited share of busy time */
	double min_busy;		/* busy time / (elapsed x sockets) worth judging */
	double cpu_busy;		/* % of one CPU: saturated */
	double one_cpu_busy;		/* % of the CPU both ends are pinned to */
	double little_lo, little_hi;	/* rate x latency / in flight: closed loop */
	unsigned latency_inflight;	/* at most this many per flow: latency bound */
	double retrans_share;		/* retransmitted / sent segments */
	double udp_lost_share;		/* lost / sent datagrams */
	double udp_lost_direct;		/* ... from this share on, the direct limit */
	double ceiling_share;		/* buffer / its sysctl ceiling: at the ceiling */
	double ceiling_strength;	/* below weak: a ceiling alone is no clear limit */
	double irq_per_trans;		/* fewer interrupts per transaction: coalesced */
	double coalesce_share;		/* rx-usecs / transaction latency that matters */
	double app_limited_share;	/* share of sockets app-limited */
	double idle_share;		/* a stream sender idle this share of the run ... */
	double sndbuf_drain_us;		/* ... with a send buffer holding less than this */
	double flow_limited_share;	/* one flow's rwnd/sndbuf share that names it */
	double flow_even;		/* flows' shares within this: "alike" */
	double weak;			/* a top verdict weaker than this: no clear limit */
};

extern const struct why_thresholds why_thresholds;

/* One rule: fills at most one verdict, returns true when it did. */
struct why_rule {
	const char *name;
	bool (*check)(const struct why_input *in, struct why_verdict *v);
};

/* The table, in the order ties are ranked (why.c). */
extern const struct why_rule why_rules[];
extern const unsigned why_nrules;

/* Every figure unknown (-1, n/a); the caller fills what it has. */
void why_input_init(struct why_input *in, const struct test_params *p);

/*
 * An end's socket figures over a window: the limiter times and retransmits
 * as the difference between first (NULL: the connections' start) and last,
 * matched by flow; buffers and RTT from last.
 */
void why_end_socks(struct why_end *e, const struct sock_sample *first,
		   unsigned nfirst, const struct sock_sample *last,
		   unsigned nlast);

/* The sysctl ceilings and coalescing of an end from its knob snapshot. */
void why_end_knobs(struct why_end *e, const struct knob_snapshot *k);

/* The same figures from a snapshot into kn (NULL: all unknown, -1). */
void why_knobs_read(struct why_knobs *kn, const struct knob_snapshot *k);

/* The CPU figures of an end: the mean of n ticks' per-CPU utilisation. */
void why_end_cpu(struct why_end *e, const struct cpu_sample *const *ticks,
		 unsigned n);

/*
 * A window of n ticks of both ends (rem[i] may be NULL where no remote
 * sample came): rate, CPU and limiter times over them, for the live view
 * and for recorded series.  The caller adds knobs and the tbf rate.
 */
void why_input_ticks(struct why_input *in, const struct end_sample *const *loc,
		     const struct end_sample *const *rem, unsigned n);

struct session_result;

/*
 * A finished run (session.c's result, or one read back from a recorded
 * document): each end's final figures over the whole run, its knob
 * snapshot's ceilings and coalescing, the lab's tbf rate (0 none).
 */
void why_input_result(struct why_input *in, const struct test_params *p,
		      const struct session_result *r, uint64_t tbf_bps);

/*
 * An end's limiter figures: {busy_us, rwnd_pct, sndbuf_pct, app_limited,
 * flows: [{flow, busy_us, rwnd_pct, sndbuf_pct, app_limited}], flows_more}
 * with null where n/a; NULL when out of memory.
 */
json_t *why_end_to_json(const struct why_end *e);

/* Judge in: out gets the verdicts, best first (at least one line). */
void why_eval(const struct why_input *in, struct why_report *out);

/* [{rule, tier, strength, evidence}, ...]; NULL when out of memory. */
json_t *why_report_to_json(const struct why_report *r);

/* Back from why_report_to_json's array (the store, the report). 0 or -EINVAL. */
int why_report_from_json(const json_t *j, struct why_report *r, char *err);

#endif
