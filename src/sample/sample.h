/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sample.h - what one end reports each tick and at the end of a run. */
#ifndef TT_SAMPLE_H
#define TT_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/hist.h"
#include "capture/segcap.h"
#include "core/util.h"

#define TT_MAX_CPUS 256

/* TCP_INFO fields the engine reports; has = false when not TCP. */
struct tcp_figures {
	bool has;
	uint32_t snd_cwnd;
	uint32_t rtt_us, rttvar_us;
	uint32_t total_retrans;
	uint32_t segs_out, segs_in;
	uint32_t data_segs_out, data_segs_in;
	uint64_t delivery_rate;		/* bytes/s */
	uint32_t notsent_bytes;
	uint32_t rcv_space;
	uint32_t snd_mss, rcv_mss;
	/*
	 * What limited the sender (Linux 4.10+, docs/why.md): microseconds
	 * since the connection began that it had data to send (busy), of
	 * which it waited on the peer's receive window or its own send
	 * buffer.  has_chrono false: the kernel's TCP_INFO lacks them (n/a).
	 */
	bool has_chrono;
	uint64_t busy_us, rwnd_limited_us, sndbuf_limited_us;
	bool app_limited;		/* tcpi_delivery_rate_app_limited (4.9+) */
};

/* One data socket of one end. */
struct sock_sample {
	uint32_t flow;
	int32_t sndbuf_init, rcvbuf_init;	/* before connect/listen, after -s/-S (netperf's) */
	int32_t sndbuf_conn, rcvbuf_conn;	/* right after connect/accept */
	int32_t sndbuf, rcvbuf;			/* now (SO_SNDBUF/SO_RCVBUF) */
	int32_t outq, inq;			/* SIOCOUTQ/SIOCINQ, -1 = n/a */
	struct tcp_figures tcp;
};

/* Utilisation of one CPU over an interval, percent of that CPU. */
struct cpu_util {
	int id;		/* CPU number as in /proc/stat; -1 for the total */
	double user, nice, sys, irq, softirq, steal, idle, iowait;
	double busy;	/* 100 - idle - iowait */
};

struct cpu_sample {
	unsigned ncpu;
	struct cpu_util total;		/* average over all CPUs */
	struct cpu_util cpu[TT_MAX_CPUS];
	double peak_busy;		/* busiest CPU's busy % */
	int peak_id;
};

/* Rates between two readings, per second. */
struct irq_sample {
	unsigned ncpu;			/* CPUs in both readings */
	int id[TT_MAX_CPUS];
	double irq_rate[TT_MAX_CPUS];	/* the device's interrupts/s */
	double rx_rate[TT_MAX_CPUS];	/* NET_RX softirqs/s */
	double tx_rate[TT_MAX_CPUS];	/* NET_TX softirqs/s */
	double irq_total, rx_total, tx_total;
	unsigned nlines;		/* 0: no IRQ figures this tick */
};

/* Counters one worker keeps; written by it alone, read by the sampler. */
struct flow_counters {
	uint64_t trans;		/* transactions completed (RR/CRR) */
	uint64_t bytes_sent;
	uint64_t bytes_recv;
	uint64_t msgs_sent;	/* datagrams or send() calls */
	uint64_t msgs_recv;
	uint64_t lost;		/* UDP_RR: requests given up after a timeout */
} __attribute__((aligned(64)));

/*
 * One end's snapshot at one tick.  Totals are since the start of the
 * measured interval; "iv_" figures cover the tick just ended.  socks is
 * owned by the sample (sample_free).
 */
struct end_sample {
	uint64_t seq;
	double t;		/* seconds since the test started */
	double iv_secs;		/* length of the tick */
	struct flow_counters total;
	struct flow_counters iv;
	double rate;		/* trans/s (RR) or bits/s (streams) over the tick */
	bool has_lat;		/* the client of an RR test measures latency */
	struct lat_summary lat_iv;
	struct lat_summary lat_total;
	uint32_t nsocks;
	struct sock_sample *socks;
	struct cpu_sample cpu;
	uint64_t ctx_vol, ctx_invol;		/* totals of the test's threads */
	uint64_t iv_ctx_vol, iv_ctx_invol;
	char irq_dev[32];		/* the device carrying the test; "" unknown */
	struct irq_sample irq;		/* its interrupts and NET_RX/TX softirqs */
	struct seg_capture *cap;	/* segment sizes so far; NULL = no capture */
};

/* The final figures of one end. */
struct end_result {
	double elapsed;			/* seconds of the measured interval */
	struct flow_counters total;
	uint64_t send_errors;		/* UDP sends refused (ENOBUFS, ECONNREFUSED);
					 * local end only, not on the wire */
	bool has_lat;
	struct lat_summary lat;
	struct hist *hist;		/* full latency histogram, NULL if none */
	uint32_t nsocks;
	struct sock_sample *socks;	/* final values; *_init, *_conn kept;
					 * a CRR flow has only *_init (-1 else) */
	struct cpu_sample cpu;		/* average over the run */
	uint64_t ctx_vol, ctx_invol;
	/* CPU seconds over the run of this end's sampler thread (what watching
	 * cost) and of its flow threads (the test itself); -1 n/a (netserver) */
	double sampler_cpu, flows_cpu;
	uint64_t strays;		/* UDP server: datagrams from others than
					 * the client, not in total */
	char irq_dev[32];
	struct irq_sample irq;		/* rates averaged over the run */
	char cong_control[16];		/* TCP_CONGESTION of the first flow's
					 * socket; "" n/a (UDP, none seen) */
	int64_t segs_out, segs_in;	/* over the run, TCP_INFO deltas; -1 n/a */
	int64_t data_segs_out, data_segs_in;	/* the same, data segments only */
	int cpu_bind;			/* -1 = not pinned */
	int cpu_main;			/* CPU the workers were seen on most; -1 n/a */
	unsigned ncpus_used;		/* CPUs the workers were seen on */
	char host[64];
	struct seg_capture *cap;	/* final segment sizes; NULL = no capture */
	char cap_note[ERR_MAX];		/* why there is no capture, when asked for; or "" */
};

void sample_free(struct end_sample *s);
void result_free(struct end_result *r);
/* Deep copy (socks, cap). 0 or -ENOMEM. */
int sample_copy(struct end_sample *dst, const struct end_sample *src);

#endif
