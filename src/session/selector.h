/* SPDX-License-Identifier: GPL-2.0-or-later */
/* selector.h - the fields of a run's result (netperf's omni output selectors). */
#ifndef TT_SELECTOR_H
#define TT_SELECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/util.h"
#include "session/session.h"
#include "stats/stats.h"

/*
 * What a run reports: the last iteration's figures and, with -i, the
 * means and confidence intervals over the iterations (iterate.h);
 * res.local_sd and res.remote_sd are then those of the means.
 */
struct run_summary {
	struct session_result res;	/* the last iteration; throughput etc. */
	unsigned iterations;		/* run so far */
	bool iterating;			/* -i/-I given */
	struct iterate it;
	struct ci thr;			/* throughput over the iterations */
	struct ci lcpu, rcpu;		/* CPU util, when -c / -C */
	struct ci lsd, rsd;		/* the iterations' own service demands */
	bool ci_reached;
	double mean_throughput;		/* reported throughput (mean with -i) */
	double thr_scale;		/* THROUGHPUT shown in -f's unit: times this (0: as measured) */
	double mean_lcpu, mean_rcpu;
	bool failed;			/* a run failed: figures are partial */
	char failure[ERR_MAX];		/* which end failed and why */
	json_t *series;			/* the last iteration's ticks (store.h's layout), or NULL */
	double started;			/* wall clock of the first iteration's start */
};

/* Longest string value a selector yields, including the NUL. */
#define SEL_STR_MAX 256

enum sel_kind {
	SEL_NA,		/* absent: "n/a", JSON null */
	SEL_INT,
	SEL_REAL,
	SEL_STR,
};

/* One selector's value for one run. */
struct sel_value {
	enum sel_kind kind;
	int64_t i;
	double d;
	int prec;		/* digits after the point for SEL_REAL */
	char s[SEL_STR_MAX];
};

/* A selector: its getter reads r, told by arg which variant (end, field). */
struct selector {
	const char *name;	/* upper case, netperf's omni name where one exists */
	const char *desc;	/* one line for `-o help` */
	void (*get)(const struct run_summary *r, int arg, struct sel_value *v);
	int arg;
};

/*
 * Every field of a result, in the table's (and `-o help`'s, and the
 * result document's) order: SEL_<NAME> is the index of selector NAME.
 * Code that reads a field names it by its id, never by a string.
 */
enum sel_id {
	SEL_THROUGHPUT,
	SEL_THROUGHPUT_UNITS,
	SEL_TRANSACTION_RATE,
	SEL_ELAPSED_TIME,
	SEL_PROTOCOL,
	SEL_DIRECTION,
	SEL_TEST,
	SEL_REQUEST_SIZE,
	SEL_RESPONSE_SIZE,
	SEL_BURST_SIZE,
	SEL_LOCAL_SEND_SIZE,
	SEL_LOCAL_RECV_SIZE,
	SEL_REMOTE_SEND_SIZE,
	SEL_REMOTE_RECV_SIZE,
	SEL_LSS_SIZE_REQ,
	SEL_LSS_SIZE,
	SEL_LSS_SIZE_CONN,
	SEL_LSS_SIZE_END,
	SEL_LSR_SIZE_REQ,
	SEL_LSR_SIZE,
	SEL_LSR_SIZE_CONN,
	SEL_LSR_SIZE_END,
	SEL_LSS_SIZE_GROWTH,
	SEL_LSR_SIZE_GROWTH,
	SEL_RSS_SIZE_REQ,
	SEL_RSS_SIZE,
	SEL_RSS_SIZE_CONN,
	SEL_RSS_SIZE_END,
	SEL_RSR_SIZE_REQ,
	SEL_RSR_SIZE,
	SEL_RSR_SIZE_CONN,
	SEL_RSR_SIZE_END,
	SEL_RSS_SIZE_GROWTH,
	SEL_RSR_SIZE_GROWTH,
	SEL_MIN_LATENCY,
	SEL_MAX_LATENCY,
	SEL_MEAN_LATENCY,
	SEL_STDDEV_LATENCY,
	SEL_P50_LATENCY,
	SEL_P90_LATENCY,
	SEL_P99_LATENCY,
	SEL_P999_LATENCY,
	SEL_LOCAL_CONG_CONTROL,
	SEL_REMOTE_CONG_CONTROL,
	SEL_LOCAL_CPU_UTIL,
	SEL_REMOTE_CPU_UTIL,
	SEL_LOCAL_CPU_PEAK_UTIL,
	SEL_LOCAL_CPU_PEAK_ID,
	SEL_REMOTE_CPU_PEAK_UTIL,
	SEL_REMOTE_CPU_PEAK_ID,
	SEL_LOCAL_CPU_COUNT,
	SEL_REMOTE_CPU_COUNT,
	SEL_LOCAL_SD,
	SEL_REMOTE_SD,
	SEL_SD_UNITS,
	SEL_LOCAL_CPU_BIND,
	SEL_REMOTE_CPU_BIND,
	SEL_LOCAL_CPU_RAN,
	SEL_REMOTE_CPU_RAN,
	SEL_LOCAL_TRANSPORT_RETRANS,
	SEL_REMOTE_TRANSPORT_RETRANS,
	SEL_CONFIDENCE_LEVEL,
	SEL_CONFIDENCE_INTERVAL,
	SEL_CONFIDENCE_ITERATION,
	SEL_CONFIDENCE_REACHED,
	SEL_THROUGHPUT_CONFID,
	SEL_LOCAL_CPU_CONFID,
	SEL_REMOTE_CPU_CONFID,
	SEL_LOCAL_SD_CONFID,
	SEL_REMOTE_SD_CONFID,
	SEL_LOCAL_TRANSACTIONS,
	SEL_REMOTE_TRANSACTIONS,
	SEL_LOCAL_BYTES_SENT,
	SEL_LOCAL_BYTES_RECVD,
	SEL_REMOTE_BYTES_SENT,
	SEL_REMOTE_BYTES_RECVD,
	SEL_LOCAL_SEND_CALLS,
	SEL_LOCAL_RECV_CALLS,
	SEL_REMOTE_SEND_CALLS,
	SEL_REMOTE_RECV_CALLS,
	SEL_NUM_FLOWS,
	SEL_LOCAL_MSS,
	SEL_REMOTE_MSS,
	SEL_SEGS_OUT_PER_TRANS,
	SEL_SEGS_IN_PER_TRANS,
	SEL_DATA_SEGS_OUT_PER_TRANS,
	SEL_DATA_SEGS_IN_PER_TRANS,
	SEL_REMOTE_SEGS_OUT_PER_TRANS,
	SEL_REMOTE_SEGS_IN_PER_TRANS,
	SEL_REMOTE_DATA_SEGS_OUT_PER_TRANS,
	SEL_REMOTE_DATA_SEGS_IN_PER_TRANS,
	SEL_LOCAL_CTX_VOLUNTARY,
	SEL_LOCAL_CTX_INVOLUNTARY,
	SEL_REMOTE_CTX_VOLUNTARY,
	SEL_REMOTE_CTX_INVOLUNTARY,
	SEL_LOCAL_CTX_PER_SEC,
	SEL_LOCAL_IRQ_DEV,
	SEL_REMOTE_IRQ_DEV,
	SEL_LOCAL_IRQ_RATE,
	SEL_REMOTE_IRQ_RATE,
	SEL_LOCAL_NET_RX_RATE,
	SEL_REMOTE_NET_RX_RATE,
	SEL_LOCAL_NET_TX_RATE,
	SEL_REMOTE_NET_TX_RATE,
	SEL_REMOTE_CTX_PER_SEC,
	SEL_LOCAL_SAMPLER_CPU,
	SEL_REMOTE_SAMPLER_CPU,
	SEL_LOCAL_FLOWS_CPU,
	SEL_REMOTE_FLOWS_CPU,
	SEL_LOCAL_CAP_SENT_DATA,
	SEL_LOCAL_CAP_SENT_ACKS,
	SEL_LOCAL_CAP_SENT_BELOW_MSS,
	SEL_LOCAL_CAP_SENT_AT_MSS,
	SEL_LOCAL_CAP_SENT_SUPER,
	SEL_LOCAL_CAP_SENT_COMMONEST,
	SEL_LOCAL_CAP_SENT_LARGEST,
	SEL_LOCAL_CAP_RECV_DATA,
	SEL_LOCAL_CAP_RECV_ACKS,
	SEL_LOCAL_CAP_RECV_BELOW_MSS,
	SEL_LOCAL_CAP_RECV_AT_MSS,
	SEL_LOCAL_CAP_RECV_SUPER,
	SEL_LOCAL_CAP_RECV_COMMONEST,
	SEL_LOCAL_CAP_RECV_LARGEST,
	SEL_LOCAL_CAP_SENT_MEAN_SIZE,
	SEL_LOCAL_CAP_RECV_MEAN_SIZE,
	SEL_LOCAL_CAP_DROPS,
	SEL_REMOTE_CAP_SENT_DATA,
	SEL_REMOTE_CAP_SENT_ACKS,
	SEL_REMOTE_CAP_SENT_BELOW_MSS,
	SEL_REMOTE_CAP_SENT_AT_MSS,
	SEL_REMOTE_CAP_SENT_SUPER,
	SEL_REMOTE_CAP_SENT_COMMONEST,
	SEL_REMOTE_CAP_SENT_LARGEST,
	SEL_REMOTE_CAP_RECV_DATA,
	SEL_REMOTE_CAP_RECV_ACKS,
	SEL_REMOTE_CAP_RECV_BELOW_MSS,
	SEL_REMOTE_CAP_RECV_AT_MSS,
	SEL_REMOTE_CAP_RECV_SUPER,
	SEL_REMOTE_CAP_RECV_COMMONEST,
	SEL_REMOTE_CAP_RECV_LARGEST,
	SEL_REMOTE_CAP_SENT_MEAN_SIZE,
	SEL_REMOTE_CAP_RECV_MEAN_SIZE,
	SEL_REMOTE_CAP_DROPS,
	SEL_UDP_LOST,
	SEL_COUNTS_AGREE,
	SEL_COUNTS,
	SEL_TARGET,
	SEL_TARGET_DESC,
	SEL_LOCAL_TCP_METRICS,
	SEL_REMOTE_TCP_METRICS,
	SEL_STATE_NOTE,
	SEL_LOCAL_HOST,
	SEL_REMOTE_HOST,
	SEL_REMOTE_ADDR,
	SEL_LOCAL_ADDRESS_FAMILY,
	SEL_LOCAL_NODELAY,
	SEL_REMOTE_NODELAY,
	SEL_LOCAL_CWND_END,
	SEL_REMOTE_CWND_END,
	SEL_LOCAL_RTT_US_END,
	SEL_REMOTE_RTT_US_END,
	SEL_LOCAL_RTTVAR_US_END,
	SEL_REMOTE_RTTVAR_US_END,
	SEL_SOCKET_TYPE,
	SEL_LOCAL_CPU_METHOD,
	SEL_REMOTE_CPU_METHOD,
	SEL_RT_LATENCY,
	SEL_TRANSPORT_MSS,
	SEL_LOCAL_BYTES_XFERD,
	SEL_REMOTE_BYTES_XFERD,
	SEL_LOCAL_BYTES_PER_RECV,
	SEL_LOCAL_BYTES_PER_SEND,
	SEL_REMOTE_BYTES_PER_RECV,
	SEL_REMOTE_BYTES_PER_SEND,
	SEL_DEST_ADDR,
	SEL_DEST_FAMILY,
	SEL_LOCAL_SEND_ERRORS,
	SEL_SAMPLE_MS,
	SEL_LIMIT,
	SEL_FAILURE,
	SEL_LOCAL_SOCKET_TOS,
	SEL_REMOTE_SOCKET_TOS,
	SEL_NIDS
};

/* The table of every selector, in `-o help` order; *n gets its length. */
const struct selector *selector_table(unsigned *n);

/* The index of name (case-insensitive) in the table, or -1. */
int selector_find(const char *name);

/* Evaluate selector i of the table for r; never yields NaN or infinity. */
void selector_eval(unsigned i, const struct run_summary *r,
		   struct sel_value *v);

/* Format v as text ("n/a" when absent) into buf; returns buf. */
const char *sel_value_format(const struct sel_value *v, char *buf, size_t len);

/* Most selectors one -o/-O/-k list may name (repeats count). */
#define SEL_MAX 192
/* The selectors a list names, as indexes into the table. */
struct selector_list {
	unsigned n;
	unsigned idx[SEL_MAX];
};

/*
 * Parse a comma-separated list of selector names into out.  An empty list
 * gives the default set of test type t (iterating adds the confidence
 * figures).  Returns 0, or -EINVAL with "option -X LIST: ..." in err, where
 * opt is the option letter the list came with.
 */
int selectors_parse(const char *list, char opt, enum test_type t,
		    bool iterating, struct selector_list *out, char *err);

/* netperf's default set of a bare -o/-k for test type t (cpu: -c or -C):
 * netperf mode's, docs/netperf.md. */
void selectors_netperf_default(enum test_type t, bool cpu, struct selector_list *out);

/* The default set for test type t. */
void selectors_default(enum test_type t, bool iterating,
		       struct selector_list *out);

#endif
