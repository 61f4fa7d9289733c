// SPDX-License-Identifier: GPL-2.0-or-later
/* selector.c - the result's fields (output selectors): their table and getters. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "core/params.h"
#include "core/units.h"
#include "session/selector.h"
#include "session/session.h"

enum { END_LOCAL, END_REMOTE };

static void v_na(struct sel_value *v)
{
	v->kind = SEL_NA;
}

static void v_int(struct sel_value *v, int64_t i)
{
	v->kind = SEL_INT;
	v->i = i;
}

/* A real number; NaN and infinity are "absent", never printed. */
static void v_real(struct sel_value *v, double d, int prec)
{
	if (!isfinite(d)) {
		v_na(v);
		return;
	}
	v->kind = SEL_REAL;
	v->d = d;
	v->prec = prec;
}

static void v_str(struct sel_value *v, const char *s)
{
	if (!s || !*s) {
		v_na(v);
		return;
	}
	v->kind = SEL_STR;
	snprintf(v->s, sizeof(v->s), "%s", s);
}

static const struct end_result *end_of(const struct run_summary *r, int end)
{
	return end == END_LOCAL ? &r->res.local : &r->res.remote;
}

/* The first flow's socket of one end, or NULL when that end reported none. */
static const struct sock_sample *sock0(const struct run_summary *r, int end)
{
	const struct end_result *e = end_of(r, end);

	return e->nsocks && e->socks ? &e->socks[0] : NULL;
}

/* An end's congestion control; netperf says "TCP Only" of a local UDP
 * socket (get_transport_cong_control), and its netserver "" (n/a) of a
 * remote one. */
static void get_cong(const struct run_summary *r, int arg, struct sel_value *v)
{
	if (arg == END_LOCAL && test_is_udp(r->res.p.type))
		v_str(v, "TCP Only");
	else
		v_str(v, end_of(r, arg)->cong_control);
}

/*
 * An end's IP_TOS as netperf's LOCAL/REMOTE_SOCKET_TOS has it: the value
 * its -Y set, read back from the socket (set_socket_tos), and -1 (not
 * set) without -Y.  tunetop takes no -Y (docs/netperf.md), so no TOS is
 * set: n/a, which netperf's format prints as it prints -1.
 */
static void get_socket_tos(const struct run_summary *r, int arg, struct sel_value *v)
{
	(void)r;
	(void)arg;
	v_na(v);
}

static const char *units_of(const struct run_summary *r)
{
	if (r->res.units && *r->res.units)
		return r->res.units;
	return units_rate(r->res.p.type)->name;
}

static void get_throughput(const struct run_summary *r, int arg,
			   struct sel_value *v)
{
	double k = r->thr_scale > 0 ? r->thr_scale : 1;

	v_real(v, (r->iterating ? r->mean_throughput : r->res.throughput) * k, 2);
}

static void get_units(const struct run_summary *r, int arg,
		      struct sel_value *v)
{
	v_str(v, units_of(r));
}

/* RR: transactions per second; streams: send calls per second of the
 * sending end, as netperf's omni output reports it. */
static void get_trans_rate(const struct run_summary *r, int arg,
			   struct sel_value *v)
{
	const struct test_params *p = &r->res.p;
	const struct end_result *snd;

	if (test_is_rr(p->type)) {
		/* the transactions whatever unit -f shows THROUGHPUT in */
		v_real(v, r->iterating ? r->mean_throughput : r->res.throughput, 2);
		return;
	}
	if (!(r->res.elapsed > 0)) {
		v_na(v);
		return;
	}
	snd = end_of(r, test_client_sends(p->type) ? END_LOCAL : END_REMOTE);
	v_real(v, (double)snd->total.msgs_sent / r->res.elapsed, 2);
}

static void get_elapsed(const struct run_summary *r, int arg,
			struct sel_value *v)
{
	v_real(v, r->res.elapsed, 2);
}

static void get_protocol(const struct run_summary *r, int arg,
			 struct sel_value *v)
{
	v_str(v, test_is_udp(r->res.p.type) ? "UDP" : "TCP");
}

static void get_direction(const struct run_summary *r, int arg,
			  struct sel_value *v)
{
	enum test_type t = r->res.p.type;

	if (test_is_rr(t))
		v_str(v, "Send|Recv");
	else
		v_str(v, test_client_sends(t) ? "Send" : "Receive");
}

static void get_test(const struct run_summary *r, int arg,
		     struct sel_value *v)
{
	v_str(v, test_type_name(r->res.p.type));
}

enum { RR_REQ, RR_RESP, RR_BURST };

static void get_rr(const struct run_summary *r, int arg, struct sel_value *v)
{
	const struct test_params *p = &r->res.p;

	if (!test_is_rr(p->type)) {
		v_na(v);
		return;
	}
	v_int(v, arg == RR_REQ ? p->req_size :
		 arg == RR_RESP ? p->resp_size : p->burst);
}

enum { MSG_LOCAL_SEND, MSG_LOCAL_RECV, MSG_REMOTE_SEND, MSG_REMOTE_RECV };

/*
 * The size of one send or receive call on one end: -m / -M on the sending
 * and receiving end of streams; the remote's request and response in RR
 * tests.  netperf's local send_size and recv_size are 0 until a stream
 * sets them (an RR test sends req_size, never send_size), so the local
 * end says 0 where it makes no such call; the remote's, -1 (n/a).
 */
static void get_msg_size(const struct run_summary *r, int arg,
			 struct sel_value *v)
{
	const struct test_params *p = &r->res.p;
	bool client_sends = test_client_sends(p->type);
	bool local = arg == MSG_LOCAL_SEND || arg == MSG_LOCAL_RECV;

	if (test_is_rr(p->type)) {
		if (local)
			v_int(v, 0);
		else
			v_int(v, arg == MSG_REMOTE_RECV ? p->req_size : p->resp_size);
		return;
	}
	if (local && client_sends != (arg == MSG_LOCAL_SEND)) {
		v_int(v, 0);
		return;
	}
	switch (arg) {
	case MSG_LOCAL_SEND:
	case MSG_REMOTE_SEND:
		if (client_sends == (arg == MSG_LOCAL_SEND)) {
			/* the sending end's SO_SNDBUF before connect, as it read
			 * (a netserver's from its answer) */
			const struct sock_sample *s =
				sock0(r, arg == MSG_REMOTE_SEND ? END_REMOTE : END_LOCAL);

			v_int(v, params_send_size_at(p, s ? s->sndbuf_init : -1));
		} else
			v_na(v);
		break;
	default:
		/* without -M a netserver reads what its socket buffer holds
		 * (its answer's word 3, not kept in the result): n/a rather
		 * than tunetop's own default */
		if (client_sends == (arg == MSG_REMOTE_RECV) &&
		    (p->recv_size || arg != MSG_REMOTE_RECV || !r->res.remote_final_only)) {
			/* the receiving end's SO_RCVBUF before connect, as it read */
			const struct sock_sample *s =
				sock0(r, arg == MSG_REMOTE_RECV ? END_REMOTE : END_LOCAL);

			v_int(v, params_recv_size_at(p, s ? s->rcvbuf_init : -1));
		} else {
			v_na(v);
		}
		break;
	}
}

/* arg of get_sockbuf: bit 0 the end, bit 1 receive buffer, bits 2-3 stage. */
#define SB_RECV 2
#define SB_REQ (0 << 2)
#define SB_INIT (1 << 2)
#define SB_END (2 << 2)
#define SB_CONN (3 << 2)
#define SB_GROW (4 << 2)

/* A socket buffer: as requested with -s/-S (-1 = autotuned, as netperf
 * prints it), before connect (netperf's initial size), right after
 * connect, at the end of the run, or how much it grew from after connect
 * to the end (autotuning during the run). */
static void get_sockbuf(const struct run_summary *r, int arg,
			struct sel_value *v)
{
	const struct test_params *p = &r->res.p;
	int end = arg & 1;
	bool recv = arg & SB_RECV;
	const struct sock_sample *s;
	int32_t x;

	if ((arg & ~3) == SB_REQ) {
		if (end == END_LOCAL)
			v_int(v, recv ? p->lrcvbuf : p->lsndbuf);
		else
			v_int(v, recv ? p->rrcvbuf : p->rsndbuf);
		return;
	}
	s = sock0(r, end);
	if (!s) {
		v_na(v);
		return;
	}
	if ((arg & ~3) == SB_GROW) {
		int32_t a = recv ? s->rcvbuf_conn : s->sndbuf_conn;

		x = recv ? s->rcvbuf : s->sndbuf;
		if (a < 0 || x < 0)
			v_na(v);
		else
			v_int(v, (int64_t)x - a);
		return;
	}
	if ((arg & ~3) == SB_INIT)
		x = recv ? s->rcvbuf_init : s->sndbuf_init;
	else if ((arg & ~3) == SB_CONN)
		x = recv ? s->rcvbuf_conn : s->sndbuf_conn;
	else
		x = recv ? s->rcvbuf : s->sndbuf;
	if (x < 0)
		v_na(v);
	else
		v_int(v, x);
}

enum { LAT_MIN, LAT_MAX, LAT_MEAN, LAT_STDDEV, LAT_P50, LAT_P90, LAT_P99,
       LAT_P999 };

/* Round-trip latency measured by the client, microseconds. */
static void get_lat(const struct run_summary *r, int arg, struct sel_value *v)
{
	const struct end_result *e = &r->res.local;
	const struct lat_summary *l = &e->lat;
	double x;

	if (!e->has_lat || !l->count) {
		v_na(v);
		return;
	}
	switch (arg) {
	case LAT_MIN: x = l->min_us; break;
	case LAT_MAX: x = l->max_us; break;
	case LAT_MEAN: x = l->mean_us; break;
	case LAT_STDDEV: x = l->stddev_us; break;
	case LAT_P50: x = l->p50_us; break;
	case LAT_P90: x = l->p90_us; break;
	case LAT_P99: x = l->p99_us; break;
	default: x = l->p999_us; break;
	}
	v_real(v, x, 2);
}

/* CPU utilisation of one end: the mean over the iterations with -i, else
 * the run's average over all CPUs. */
static void get_cpu_util(const struct run_summary *r, int arg,
			 struct sel_value *v)
{
	const struct ci *ci = arg == END_LOCAL ? &r->lcpu : &r->rcpu;
	const struct end_result *e = end_of(r, arg);

	if (r->iterating && ci->n)
		v_real(v, arg == END_LOCAL ? r->mean_lcpu : r->mean_rcpu, 2);
	else if (e->cpu.ncpu)
		v_real(v, e->cpu.total.busy, 2);
	else
		v_na(v);
}

/* arg: bit 0 the end, bit 1 the CPU's id rather than its utilisation. */
static void get_cpu_peak(const struct run_summary *r, int arg,
			 struct sel_value *v)
{
	const struct cpu_sample *c = &end_of(r, arg & 1)->cpu;

	if (!c->ncpu || c->peak_id < 0)
		v_na(v);
	else if (arg & 2)
		v_int(v, c->peak_id);
	else
		v_real(v, c->peak_busy, 2);
}

static void get_cpu_count(const struct run_summary *r, int arg,
			  struct sel_value *v)
{
	unsigned n = arg == END_LOCAL ? r->res.local_ncpu : r->res.remote_ncpu;

	if (n)
		v_int(v, n);
	else
		v_na(v);
}

static void get_sd(const struct run_summary *r, int arg, struct sel_value *v)
{
	double sd = arg == END_LOCAL ? r->res.local_sd : r->res.remote_sd;

	if (sd >= 0)
		v_real(v, sd, 3);
	else
		v_na(v);
}

static void get_sd_units(const struct run_summary *r, int arg,
			 struct sel_value *v)
{
	if (r->res.sd_units && *r->res.sd_units)
		v_str(v, r->res.sd_units);
	else
		v_str(v, test_is_rr(r->res.p.type) ? "us/Tran" : "us/KB");
}

/* The CPU the end's workers were pinned to; -1 (netperf's value) = not. */
static void get_cpu_bind(const struct run_summary *r, int arg,
			 struct sel_value *v)
{
	v_int(v, end_of(r, arg)->cpu_bind);
}

/* The CPU the end's workers were seen on most; -1 = not seen. */
static void get_cpu_main(const struct run_summary *r, int arg,
			 struct sel_value *v)
{
	v_int(v, end_of(r, arg)->cpu_main);
}

/* Retransmitted segments summed over the end's TCP sockets. */
static void get_retrans(const struct run_summary *r, int arg,
			struct sel_value *v)
{
	const struct end_result *e = end_of(r, arg);
	uint64_t sum = 0;
	bool any = false;

	for (uint32_t i = 0; e->socks && i < e->nsocks; i++) {
		if (!e->socks[i].tcp.has)
			continue;
		sum += e->socks[i].tcp.total_retrans;
		any = true;
	}
	if (any)
		v_int(v, (int64_t)sum);
	else
		v_na(v);
}

static void get_conf_level(const struct run_summary *r, int arg,
			   struct sel_value *v)
{
	if (r->iterating)
		v_real(v, r->it.level, 0);
	else
		v_na(v);
}

static void get_conf_interval(const struct run_summary *r, int arg,
			      struct sel_value *v)
{
	if (r->iterating)
		v_real(v, r->it.width_pct, 2);
	else
		v_na(v);
}

static void get_conf_iteration(const struct run_summary *r, int arg,
			       struct sel_value *v)
{
	if (r->iterations)
		v_int(v, r->iterations);
	else
		v_na(v);
}

enum { CI_THR, CI_LCPU, CI_RCPU, CI_LSD, CI_RSD };

/* The width reached, percent of the mean; needs two iterations. */
static void get_confid(const struct run_summary *r, int arg,
		       struct sel_value *v)
{
	const struct ci *ci = arg == CI_THR ? &r->thr :
			      arg == CI_LCPU ? &r->lcpu :
			      arg == CI_RCPU ? &r->rcpu :
			      arg == CI_LSD ? &r->lsd : &r->rsd;

	if (r->iterating && ci->n >= 2)
		v_real(v, ci->width_pct, 2);
	else
		v_na(v);
}

static void get_conf_reached(const struct run_summary *r, int arg,
			     struct sel_value *v)
{
	if (r->iterating)
		v_str(v, r->ci_reached ? "yes" : "no");
	else
		v_na(v);
}

static void get_transactions(const struct run_summary *r, int arg,
			     struct sel_value *v)
{
	if (test_is_rr(r->res.p.type))
		v_int(v, (int64_t)end_of(r, arg)->total.trans);
	else
		v_na(v);
}

/* arg: bit 0 the end, bit 1 received rather than sent. */
static void get_bytes(const struct run_summary *r, int arg,
		      struct sel_value *v)
{
	const struct flow_counters *c = &end_of(r, arg & 1)->total;

	v_int(v, (int64_t)(arg & 2 ? c->bytes_recv : c->bytes_sent));
}

/* arg: bit 0 the end, bit 1 receive calls rather than send calls. */
static void get_calls(const struct run_summary *r, int arg,
		      struct sel_value *v)
{
	const struct flow_counters *c = &end_of(r, arg & 1)->total;

	v_int(v, (int64_t)(arg & 2 ? c->msgs_recv : c->msgs_sent));
}

static void get_flows(const struct run_summary *r, int arg,
		      struct sel_value *v)
{
	v_int(v, r->res.p.flows);
}

enum { TCPF_MSS, TCPF_CWND, TCPF_RTT, TCPF_RTTVAR };

/* arg: bit 0 the end, the rest which TCP_INFO figure of the first flow. */
static void get_tcp(const struct run_summary *r, int arg, struct sel_value *v)
{
	const struct sock_sample *s = sock0(r, arg & 1);

	if (!s || !s->tcp.has) {
		v_na(v);
		return;
	}
	switch (arg >> 1) {
	case TCPF_MSS: v_int(v, s->tcp.snd_mss); break;
	case TCPF_CWND: v_int(v, s->tcp.snd_cwnd); break;
	case TCPF_RTT: v_int(v, s->tcp.rtt_us); break;
	default: v_int(v, s->tcp.rttvar_us); break;
	}
}

enum { SEGF_OUT, SEGF_IN, SEGF_DATA_OUT, SEGF_DATA_IN };

/* arg: bit 0 the end, the rest which figure (segs_per_trans). */
static void get_segs(const struct run_summary *r, int arg,
		     struct sel_value *v)
{
	const struct segs_per_trans *s = (arg & 1) == END_LOCAL ?
					 &r->res.segs_local : &r->res.segs_remote;
	double x;

	switch (arg >> 1) {
	case SEGF_OUT: x = s->out; break;
	case SEGF_IN: x = s->in; break;
	case SEGF_DATA_OUT: x = s->data_out; break;
	default: x = s->data_in; break;
	}

	if (x >= 0)
		v_real(v, x, 3);
	else
		v_na(v);
}

/* Whether an end counted its threads' context switches (netserver does not). */
static bool ctx_known(const struct run_summary *r, int end)
{
	return end != END_REMOTE || !r->res.remote_final_only;
}

/* arg: bit 0 the end, bit 1 involuntary rather than voluntary. */
static void get_ctx(const struct run_summary *r, int arg, struct sel_value *v)
{
	const struct end_result *e = end_of(r, arg & 1);

	if (ctx_known(r, arg & 1))
		v_int(v, (int64_t)(arg & 2 ? e->ctx_invol : e->ctx_vol));
	else
		v_na(v);
}

/* The device carrying the test at an end ("" = not found: n/a). */
static void get_irq_dev(const struct run_summary *r, int arg, struct sel_value *v)
{
	v_str(v, end_of(r, arg)->irq_dev);
}

/* Interrupts/s (arg bit 1: NET_RX, bit 2: NET_TX softirqs/s) over the run. */
static void get_irq_rate(const struct run_summary *r, int arg, struct sel_value *v)
{
	const struct end_result *e = end_of(r, arg & 1);

	if (!e->irq_dev[0]) {
		v_na(v);
		return;
	}
	if (arg & 2)
		v_real(v, e->irq.rx_total, 1);
	else if (arg & 4)
		v_real(v, e->irq.tx_total, 1);
	else if (e->irq.nlines)
		v_real(v, e->irq.irq_total, 1);
	else
		v_na(v);	/* lo and veth have no IRQ lines of their own */
}

/*
 * The capture's figures: arg bit 0 the end, bit 1 the direction (sent,
 * received), the rest the figure.  n/a without a capture; the classes
 * also when the MSS is unknown.
 */
enum { CAPF_DATA, CAPF_ACKS, CAPF_BELOW, CAPF_AT_MSS, CAPF_SUPER, CAPF_COMMONEST,
       CAPF_LARGEST, CAPF_DROPS, CAPF_MEAN };

static void get_cap(const struct run_summary *r, int arg, struct sel_value *v)
{
	const struct end_result *e = end_of(r, arg & 1);
	int d = (arg >> 1) & 1 ? CAP_IN : CAP_OUT, f = arg >> 2;
	const struct seghist *h;
	struct seg_classes cls;

	if (!e->cap) {
		v_na(v);
		return;
	}
	h = &e->cap->dir[d];
	seghist_classify(h, e->cap->mss[d], &cls);
	switch (f) {
	case CAPF_DATA:
		v_int(v, (int64_t)h->data);
		return;
	case CAPF_ACKS:
		v_int(v, (int64_t)h->acks);
		return;
	case CAPF_COMMONEST:
	case CAPF_LARGEST:
		if (!h->data)
			v_na(v);
		else
			v_int(v, f == CAPF_LARGEST ? cls.largest : cls.commonest);
		return;
	case CAPF_DROPS:
		v_int(v, (int64_t)(e->cap->n.kernel_drop + e->cap->n.if_drop));
		return;
	case CAPF_MEAN:
		if (!h->data)
			v_na(v);
		else
			v_real(v, (double)h->bytes / (double)h->data, 1);
		return;
	}
	if (!e->cap->mss[d]) {
		v_na(v);
		return;
	}
	if (f == CAPF_BELOW)
		v_int(v, (int64_t)cls.segs[SEG_BELOW_MSS]);
	else if (f == CAPF_AT_MSS)
		v_int(v, (int64_t)cls.segs[SEG_AT_MSS]);
	else
		v_int(v, (int64_t)(cls.segs[SEG_SUPER_MULTIPLE] + cls.segs[SEG_SUPER_OTHER]));
}

static void get_ctx_rate(const struct run_summary *r, int arg,
			 struct sel_value *v)
{
	const struct end_result *e = end_of(r, arg);

	if (r->res.elapsed > 0 && ctx_known(r, arg))
		v_real(v, (double)(e->ctx_vol + e->ctx_invol) / r->res.elapsed,
		       2);
	else
		v_na(v);
}

/* arg: bit 0 the end, bit 1 the flow threads rather than the sampler; in %
 * of one CPU over the run (n/a: netserver keeps no such figure). */
static void get_thread_cpu(const struct run_summary *r, int arg,
			   struct sel_value *v)
{
	const struct end_result *e = end_of(r, arg & 1);
	double secs = arg & 2 ? e->flows_cpu : e->sampler_cpu;
	double el = e->elapsed > 0 ? e->elapsed : r->res.elapsed;

	if (secs >= 0 && el > 0)
		v_real(v, 100.0 * secs / el, 3);
	else
		v_na(v);
}

static void get_udp_lost(const struct run_summary *r, int arg,
			 struct sel_value *v)
{
	if (test_is_udp(r->res.p.type))
		v_int(v, (int64_t)r->res.udp_lost);
	else
		v_na(v);
}

static void get_counts_agree(const struct run_summary *r, int arg,
			     struct sel_value *v)
{
	v_str(v, r->res.counts_agree ? "yes" : "no");
}

enum { STR_TARGET, STR_TARGET_DESC, STR_COUNTS, STR_LHOST, STR_RHOST,
       STR_RADDR, STR_LMETRICS, STR_RMETRICS, STR_STATE_NOTE, STR_LIMIT, STR_FAILURE };

static void get_string(const struct run_summary *r, int arg,
		       struct sel_value *v)
{
	switch (arg) {
	case STR_TARGET: v_str(v, r->res.target_short); break;
	case STR_TARGET_DESC: v_str(v, r->res.target); break;
	case STR_LMETRICS: v_str(v, r->res.metrics_local); break;
	case STR_RMETRICS: v_str(v, r->res.metrics_remote); break;
	case STR_STATE_NOTE: v_str(v, r->res.state_note); break;
	case STR_COUNTS: v_str(v, r->res.counts); break;
	case STR_LHOST: v_str(v, r->res.local.host); break;
	case STR_RHOST: v_str(v, r->res.remote.host); break;
	case STR_RADDR: v_str(v, r->res.remote_addr); break;
	case STR_LIMIT: v_str(v, r->res.why.n ? r->res.why.v[0].rule : NULL); break;
	default:
		if (r->failed)
			v_str(v, r->failure);
		else
			v_na(v);
		break;
	}
}

static void get_nodelay(const struct run_summary *r, int arg,
			struct sel_value *v)
{
	if (test_is_udp(r->res.p.type))
		v_na(v);
	else
		v_int(v, r->res.p.nodelay);
}

static void get_family(const struct run_summary *r, int arg,
		       struct sel_value *v)
{
	v_str(v, r->res.p.family == AF_INET6 ? "AF_INET6" : "AF_INET");
}

static void get_sample_ms(const struct run_summary *r, int arg,
			  struct sel_value *v)
{
	v_int(v, r->res.p.sample_ms);
}

static void get_socket_type(const struct run_summary *r, int arg,
			    struct sel_value *v)
{
	v_str(v, test_is_udp(r->res.p.type) ? "SOCK_DGRAM" : "SOCK_STREAM");
}

/* How CPU utilisation is measured: /proc/stat, netperf's method S. */
static void get_cpu_method(const struct run_summary *r, int arg,
			   struct sel_value *v)
{
	v_str(v, "S");
}

/* netperf's RT_LATENCY: microseconds per transaction of one flow, counting
 * the requests a burst keeps in flight (RR only). */
static void get_rt_latency(const struct run_summary *r, int arg,
			   struct sel_value *v)
{
	double thr = r->iterating ? r->mean_throughput : r->res.throughput;
	unsigned flows = r->res.p.flows ? r->res.p.flows : 1;

	if (!test_is_rr(r->res.p.type) || !(thr > 0)) {
		v_na(v);
		return;
	}
	v_real(v, 1e6 / (thr / flows) * (1 + r->res.p.burst), 3);
}

/* arg: bit 0 the end; bit 1 per receive call, bit 2 per send call, else
 * all bytes moved both ways. */
static void get_bytes_calc(const struct run_summary *r, int arg,
			   struct sel_value *v)
{
	const struct flow_counters *c = &end_of(r, arg & 1)->total;

	if (arg & 2)
		v_real(v, c->msgs_recv ? (double)c->bytes_recv / (double)c->msgs_recv : NAN, 2);
	else if (arg & 4)
		v_real(v, c->msgs_sent ? (double)c->bytes_sent / (double)c->msgs_sent : NAN, 2);
	else
		v_real(v, (double)(c->bytes_sent + c->bytes_recv), 0);
}

static void get_dest_family(const struct run_summary *r, int arg,
			    struct sel_value *v)
{
	v_int(v, r->res.p.family == AF_INET6 ? AF_INET6 : AF_INET);
}

/* Sends the kernel refused (ENOBUFS, ECONNREFUSED): netperf's UDP_STREAM
 * "Errors" column. */
static void get_send_errors(const struct run_summary *r, int arg,
			    struct sel_value *v)
{
	if (arg == END_LOCAL)
		v_int(v, (int64_t)r->res.local.send_errors);
	else
		v_na(v);
}

#define L END_LOCAL
#define R END_REMOTE

/* A row of the table: its name is its id's, so the two cannot drift. */
#define ROW(id, desc, get, arg) [SEL_##id] = { #id, desc, get, arg }

static const struct selector sel_table[SEL_NIDS] = {
	ROW(THROUGHPUT, "throughput: Trans/s (RR) or 10^6bits/s (streams); the mean over the iterations with -i", get_throughput, 0),
	ROW(THROUGHPUT_UNITS, "units of THROUGHPUT", get_units, 0),
	ROW(TRANSACTION_RATE, "transactions/s (RR), send calls/s of the sending end (streams)", get_trans_rate, 0),
	ROW(ELAPSED_TIME, "length of the measured interval, seconds", get_elapsed, 0),
	ROW(PROTOCOL, "TCP or UDP", get_protocol, 0),
	ROW(DIRECTION, "data direction seen from the local end: Send, Receive or Send|Recv (netperf's words)", get_direction, 0),
	ROW(TEST, "test type (TCP_RR, TCP_CRR, TCP_STREAM, TCP_MAERTS, UDP_RR, UDP_STREAM)", get_test, 0),
	ROW(REQUEST_SIZE, "request size, bytes (RR: -r)", get_rr, RR_REQ),
	ROW(RESPONSE_SIZE, "response size, bytes (RR: -r)", get_rr, RR_RESP),
	ROW(BURST_SIZE, "requests in flight beyond the first (RR: -b)", get_rr, RR_BURST),
	ROW(LOCAL_SEND_SIZE, "bytes per local send call of a stream (-m); 0 in RR and where the local end does not send, as netperf", get_msg_size, MSG_LOCAL_SEND),
	ROW(LOCAL_RECV_SIZE, "bytes per local receive call of a stream (-M); 0 in RR and where the local end does not receive, as netperf", get_msg_size, MSG_LOCAL_RECV),
	ROW(REMOTE_SEND_SIZE, "bytes per remote send call (-m in MAERTS, or the response in RR)", get_msg_size, MSG_REMOTE_SEND),
	ROW(REMOTE_RECV_SIZE, "bytes per remote receive call (-M, or the request in RR)", get_msg_size, MSG_REMOTE_RECV),
	ROW(LSS_SIZE_REQ, "local SO_SNDBUF requested with -s; -1 = autotuned", get_sockbuf, L | SB_REQ),
	ROW(LSS_SIZE, "local SO_SNDBUF before connect, after -s (first flow; netperf's initial size), bytes", get_sockbuf, L | SB_INIT),
	ROW(LSS_SIZE_CONN, "local SO_SNDBUF right after connect (first flow), bytes", get_sockbuf, L | SB_CONN),
	ROW(LSS_SIZE_END, "local SO_SNDBUF at the end (first flow), bytes", get_sockbuf, L | SB_END),
	ROW(LSR_SIZE_REQ, "local SO_RCVBUF requested with -s; -1 = autotuned", get_sockbuf, L | SB_RECV | SB_REQ),
	ROW(LSR_SIZE, "local SO_RCVBUF before connect, after -s (first flow; netperf's initial size), bytes", get_sockbuf, L | SB_RECV | SB_INIT),
	ROW(LSR_SIZE_CONN, "local SO_RCVBUF right after connect (first flow), bytes", get_sockbuf, L | SB_RECV | SB_CONN),
	ROW(LSR_SIZE_END, "local SO_RCVBUF at the end (first flow), bytes", get_sockbuf, L | SB_RECV | SB_END),
	ROW(LSS_SIZE_GROWTH, "local SO_SNDBUF growth from right after connect to the end (autotuning; first flow), bytes", get_sockbuf, L | SB_GROW),
	ROW(LSR_SIZE_GROWTH, "local SO_RCVBUF growth from right after connect to the end (autotuning; first flow), bytes", get_sockbuf, L | SB_RECV | SB_GROW),
	ROW(RSS_SIZE_REQ, "remote SO_SNDBUF requested with -S; -1 = autotuned", get_sockbuf, R | SB_REQ),
	ROW(RSS_SIZE, "remote SO_SNDBUF before connect, after -S (first flow; netperf's initial size), bytes", get_sockbuf, R | SB_INIT),
	ROW(RSS_SIZE_CONN, "remote SO_SNDBUF right after connect (first flow), bytes", get_sockbuf, R | SB_CONN),
	ROW(RSS_SIZE_END, "remote SO_SNDBUF at the end (first flow), bytes", get_sockbuf, R | SB_END),
	ROW(RSR_SIZE_REQ, "remote SO_RCVBUF requested with -S; -1 = autotuned", get_sockbuf, R | SB_RECV | SB_REQ),
	ROW(RSR_SIZE, "remote SO_RCVBUF before connect, after -S (first flow; netperf's initial size), bytes", get_sockbuf, R | SB_RECV | SB_INIT),
	ROW(RSR_SIZE_CONN, "remote SO_RCVBUF right after connect (first flow), bytes", get_sockbuf, R | SB_RECV | SB_CONN),
	ROW(RSR_SIZE_END, "remote SO_RCVBUF at the end (first flow), bytes", get_sockbuf, R | SB_RECV | SB_END),
	ROW(RSS_SIZE_GROWTH, "remote SO_SNDBUF growth from right after connect to the end (autotuning; first flow), bytes", get_sockbuf, R | SB_GROW),
	ROW(RSR_SIZE_GROWTH, "remote SO_RCVBUF growth from right after connect to the end (autotuning; first flow), bytes", get_sockbuf, R | SB_RECV | SB_GROW),
	ROW(MIN_LATENCY, "smallest round trip, microseconds (RR)", get_lat, LAT_MIN),
	ROW(MAX_LATENCY, "largest round trip, microseconds (RR)", get_lat, LAT_MAX),
	ROW(MEAN_LATENCY, "mean round trip, microseconds (RR)", get_lat, LAT_MEAN),
	ROW(STDDEV_LATENCY, "standard deviation of the round trip, microseconds (RR)", get_lat, LAT_STDDEV),
	ROW(P50_LATENCY, "median round trip, microseconds (RR)", get_lat, LAT_P50),
	ROW(P90_LATENCY, "90th percentile round trip, microseconds (RR)", get_lat, LAT_P90),
	ROW(P99_LATENCY, "99th percentile round trip, microseconds (RR)", get_lat, LAT_P99),
	ROW(P999_LATENCY, "99.9th percentile round trip, microseconds (RR)", get_lat, LAT_P999),
	ROW(LOCAL_CONG_CONTROL, "congestion control of the local end's first TCP socket (TCP_CONGESTION); TCP Only for UDP tests", get_cong, END_LOCAL),
	ROW(REMOTE_CONG_CONTROL, "congestion control of the remote end's first TCP socket (TCP_CONGESTION)", get_cong, END_REMOTE),
	ROW(LOCAL_CPU_UTIL, "local CPU utilisation, percent of all CPUs (mean over iterations with -i)", get_cpu_util, L),
	ROW(REMOTE_CPU_UTIL, "remote CPU utilisation, percent of all CPUs (mean over iterations with -i)", get_cpu_util, R),
	ROW(LOCAL_CPU_PEAK_UTIL, "utilisation of the busiest local CPU, percent", get_cpu_peak, L),
	ROW(LOCAL_CPU_PEAK_ID, "number of the busiest local CPU", get_cpu_peak, L | 2),
	ROW(REMOTE_CPU_PEAK_UTIL, "utilisation of the busiest remote CPU, percent", get_cpu_peak, R),
	ROW(REMOTE_CPU_PEAK_ID, "number of the busiest remote CPU", get_cpu_peak, R | 2),
	ROW(LOCAL_CPU_COUNT, "CPUs of the local host", get_cpu_count, L),
	ROW(REMOTE_CPU_COUNT, "CPUs of the remote host", get_cpu_count, R),
	ROW(LOCAL_SD, "local service demand (-c), SD_UNITS; with -i from the mean throughput and CPU", get_sd, L),
	ROW(REMOTE_SD, "remote service demand (-C), SD_UNITS; with -i from the mean throughput and CPU", get_sd, R),
	ROW(SD_UNITS, "units of service demand: us/Tran (RR) or us/KB (streams)", get_sd_units, 0),
	ROW(LOCAL_CPU_BIND, "CPU the local workers were pinned to (-T); -1 = not pinned", get_cpu_bind, L),
	ROW(REMOTE_CPU_BIND, "CPU the remote workers were pinned to (-T); -1 = not pinned", get_cpu_bind, R),
	ROW(LOCAL_CPU_RAN, "CPU the local workers were seen running on most; -1 = not seen", get_cpu_main, L),
	ROW(REMOTE_CPU_RAN, "CPU the remote workers were seen running on most; -1 = not seen", get_cpu_main, R),
	ROW(LOCAL_TRANSPORT_RETRANS, "TCP segments the local end retransmitted, all flows", get_retrans, L),
	ROW(REMOTE_TRANSPORT_RETRANS, "TCP segments the remote end retransmitted, all flows", get_retrans, R),
	ROW(CONFIDENCE_LEVEL, "confidence level asked for with -I, percent", get_conf_level, 0),
	ROW(CONFIDENCE_INTERVAL, "confidence interval width asked for with -I, percent of the mean", get_conf_interval, 0),
	ROW(CONFIDENCE_ITERATION, "iterations run", get_conf_iteration, 0),
	ROW(CONFIDENCE_REACHED, "yes when every tracked figure reached the asked-for width (-i/-I)", get_conf_reached, 0),
	ROW(THROUGHPUT_CONFID, "confidence interval width of the throughput, percent of the mean", get_confid, CI_THR),
	ROW(LOCAL_CPU_CONFID, "confidence interval width of the local CPU utilisation, percent", get_confid, CI_LCPU),
	ROW(REMOTE_CPU_CONFID, "confidence interval width of the remote CPU utilisation, percent", get_confid, CI_RCPU),
	ROW(LOCAL_SD_CONFID, "confidence interval width of the iterations' local service demands, percent", get_confid, CI_LSD),
	ROW(REMOTE_SD_CONFID, "confidence interval width of the iterations' remote service demands, percent", get_confid, CI_RSD),
	ROW(LOCAL_TRANSACTIONS, "transactions the local end completed (RR)", get_transactions, L),
	ROW(REMOTE_TRANSACTIONS, "transactions the remote end completed (RR)", get_transactions, R),
	ROW(LOCAL_BYTES_SENT, "bytes the local end sent, all flows", get_bytes, L),
	ROW(LOCAL_BYTES_RECVD, "bytes the local end received, all flows", get_bytes, L | 2),
	ROW(REMOTE_BYTES_SENT, "bytes the remote end sent, all flows", get_bytes, R),
	ROW(REMOTE_BYTES_RECVD, "bytes the remote end received, all flows", get_bytes, R | 2),
	ROW(LOCAL_SEND_CALLS, "send calls (or datagrams) of the local end", get_calls, L),
	ROW(LOCAL_RECV_CALLS, "receive calls (or datagrams) of the local end", get_calls, L | 2),
	ROW(REMOTE_SEND_CALLS, "send calls (or datagrams) of the remote end", get_calls, R),
	ROW(REMOTE_RECV_CALLS, "receive calls (or datagrams) of the remote end", get_calls, R | 2),
	ROW(NUM_FLOWS, "data connections run at once (-n)", get_flows, 0),
	ROW(LOCAL_MSS, "local TCP send MSS (first flow), bytes", get_tcp, L | TCPF_MSS << 1),
	ROW(REMOTE_MSS, "remote TCP send MSS (first flow), bytes", get_tcp, R | TCPF_MSS << 1),
	ROW(SEGS_OUT_PER_TRANS, "TCP segments (pure ACKs too) the client sent per transaction, from TCP_INFO", get_segs, L | SEGF_OUT << 1),
	ROW(SEGS_IN_PER_TRANS, "TCP segments (pure ACKs too) the client received per transaction, from TCP_INFO", get_segs, L | SEGF_IN << 1),
	ROW(DATA_SEGS_OUT_PER_TRANS, "TCP data segments the client sent per transaction (tcpi_data_segs_out)", get_segs, L | SEGF_DATA_OUT << 1),
	ROW(DATA_SEGS_IN_PER_TRANS, "TCP data segments the client received per transaction (tcpi_data_segs_in)", get_segs, L | SEGF_DATA_IN << 1),
	ROW(REMOTE_SEGS_OUT_PER_TRANS, "TCP segments (pure ACKs too) the server sent per transaction, from its TCP_INFO", get_segs, R | SEGF_OUT << 1),
	ROW(REMOTE_SEGS_IN_PER_TRANS, "TCP segments (pure ACKs too) the server received per transaction, from its TCP_INFO", get_segs, R | SEGF_IN << 1),
	ROW(REMOTE_DATA_SEGS_OUT_PER_TRANS, "TCP data segments the server sent per transaction", get_segs, R | SEGF_DATA_OUT << 1),
	ROW(REMOTE_DATA_SEGS_IN_PER_TRANS, "TCP data segments the server received per transaction", get_segs, R | SEGF_DATA_IN << 1),
	ROW(LOCAL_CTX_VOLUNTARY, "voluntary context switches of the local test threads", get_ctx, L),
	ROW(LOCAL_CTX_INVOLUNTARY, "involuntary context switches of the local test threads", get_ctx, L | 2),
	ROW(REMOTE_CTX_VOLUNTARY, "voluntary context switches of the remote test threads", get_ctx, R),
	ROW(REMOTE_CTX_INVOLUNTARY, "involuntary context switches of the remote test threads", get_ctx, R | 2),
	ROW(LOCAL_CTX_PER_SEC, "context switches per second of the local test threads", get_ctx_rate, L),
	ROW(LOCAL_IRQ_DEV, "the local device carrying the test (its IRQ lines are counted)", get_irq_dev, L),
	ROW(REMOTE_IRQ_DEV, "the remote device carrying the test", get_irq_dev, R),
	ROW(LOCAL_IRQ_RATE, "interrupts/s of the local device's IRQ lines (n/a: it has none, e.g. lo, veth)", get_irq_rate, L),
	ROW(REMOTE_IRQ_RATE, "interrupts/s of the remote device's IRQ lines", get_irq_rate, R),
	ROW(LOCAL_NET_RX_RATE, "NET_RX softirqs/s on the local host, all CPUs", get_irq_rate, L | 2),
	ROW(REMOTE_NET_RX_RATE, "NET_RX softirqs/s on the remote host, all CPUs", get_irq_rate, R | 2),
	ROW(LOCAL_NET_TX_RATE, "NET_TX softirqs/s on the local host, all CPUs", get_irq_rate, L | 4),
	ROW(REMOTE_NET_TX_RATE, "NET_TX softirqs/s on the remote host, all CPUs", get_irq_rate, R | 4),
	ROW(REMOTE_CTX_PER_SEC, "context switches per second of the remote test threads", get_ctx_rate, R),
	ROW(LOCAL_SAMPLER_CPU, "% of one CPU the local sampler thread used over the run: what watching cost", get_thread_cpu, L),
	ROW(REMOTE_SAMPLER_CPU, "% of one CPU the remote sampler thread used over the run", get_thread_cpu, R),
	ROW(LOCAL_FLOWS_CPU, "% of one CPU the local test threads used over the run (user + system, summed over flows)", get_thread_cpu, L | 2),
	ROW(REMOTE_FLOWS_CPU, "% of one CPU the remote test threads used over the run", get_thread_cpu, R | 2),
	ROW(LOCAL_CAP_SENT_DATA, "captured data segments sent by the local end", get_cap, L | 0 | CAPF_DATA << 2),
	ROW(LOCAL_CAP_SENT_ACKS, "captured pure ACKs sent by the local end", get_cap, L | 0 | CAPF_ACKS << 2),
	ROW(LOCAL_CAP_SENT_BELOW_MSS, "captured data segments below the MSS sent by the local end", get_cap, L | 0 | CAPF_BELOW << 2),
	ROW(LOCAL_CAP_SENT_AT_MSS, "captured data segments of exactly the MSS sent by the local end", get_cap, L | 0 | CAPF_AT_MSS << 2),
	ROW(LOCAL_CAP_SENT_SUPER, "captured super-segments (above the MSS: TSO/GSO or GRO/LRO) sent by the local end", get_cap, L | 0 | CAPF_SUPER << 2),
	ROW(LOCAL_CAP_SENT_COMMONEST, "captured commonest payload size, bytes sent by the local end", get_cap, L | 0 | CAPF_COMMONEST << 2),
	ROW(LOCAL_CAP_SENT_LARGEST, "captured largest payload size, bytes sent by the local end", get_cap, L | 0 | CAPF_LARGEST << 2),
	ROW(LOCAL_CAP_RECV_DATA, "captured data segments received by the local end", get_cap, L | 2 | CAPF_DATA << 2),
	ROW(LOCAL_CAP_RECV_ACKS, "captured pure ACKs received by the local end", get_cap, L | 2 | CAPF_ACKS << 2),
	ROW(LOCAL_CAP_RECV_BELOW_MSS, "captured data segments below the MSS received by the local end", get_cap, L | 2 | CAPF_BELOW << 2),
	ROW(LOCAL_CAP_RECV_AT_MSS, "captured data segments of exactly the MSS received by the local end", get_cap, L | 2 | CAPF_AT_MSS << 2),
	ROW(LOCAL_CAP_RECV_SUPER, "captured super-segments (above the MSS: TSO/GSO or GRO/LRO) received by the local end", get_cap, L | 2 | CAPF_SUPER << 2),
	ROW(LOCAL_CAP_RECV_COMMONEST, "captured commonest payload size, bytes received by the local end", get_cap, L | 2 | CAPF_COMMONEST << 2),
	ROW(LOCAL_CAP_RECV_LARGEST, "captured largest payload size, bytes received by the local end", get_cap, L | 2 | CAPF_LARGEST << 2),
	ROW(LOCAL_CAP_SENT_MEAN_SIZE, "captured mean payload size of the data segments sent by the local end, bytes", get_cap, L | 0 | CAPF_MEAN << 2),
	ROW(LOCAL_CAP_RECV_MEAN_SIZE, "captured mean payload size of the data segments received by the local end, bytes", get_cap, L | 2 | CAPF_MEAN << 2),
	ROW(LOCAL_CAP_DROPS, "packets the local capture lost (kernel ring full, interface drops)", get_cap, L | CAPF_DROPS << 2),
	ROW(REMOTE_CAP_SENT_DATA, "captured data segments sent by the remote end", get_cap, R | 0 | CAPF_DATA << 2),
	ROW(REMOTE_CAP_SENT_ACKS, "captured pure ACKs sent by the remote end", get_cap, R | 0 | CAPF_ACKS << 2),
	ROW(REMOTE_CAP_SENT_BELOW_MSS, "captured data segments below the MSS sent by the remote end", get_cap, R | 0 | CAPF_BELOW << 2),
	ROW(REMOTE_CAP_SENT_AT_MSS, "captured data segments of exactly the MSS sent by the remote end", get_cap, R | 0 | CAPF_AT_MSS << 2),
	ROW(REMOTE_CAP_SENT_SUPER, "captured super-segments (above the MSS: TSO/GSO or GRO/LRO) sent by the remote end", get_cap, R | 0 | CAPF_SUPER << 2),
	ROW(REMOTE_CAP_SENT_COMMONEST, "captured commonest payload size, bytes sent by the remote end", get_cap, R | 0 | CAPF_COMMONEST << 2),
	ROW(REMOTE_CAP_SENT_LARGEST, "captured largest payload size, bytes sent by the remote end", get_cap, R | 0 | CAPF_LARGEST << 2),
	ROW(REMOTE_CAP_RECV_DATA, "captured data segments received by the remote end", get_cap, R | 2 | CAPF_DATA << 2),
	ROW(REMOTE_CAP_RECV_ACKS, "captured pure ACKs received by the remote end", get_cap, R | 2 | CAPF_ACKS << 2),
	ROW(REMOTE_CAP_RECV_BELOW_MSS, "captured data segments below the MSS received by the remote end", get_cap, R | 2 | CAPF_BELOW << 2),
	ROW(REMOTE_CAP_RECV_AT_MSS, "captured data segments of exactly the MSS received by the remote end", get_cap, R | 2 | CAPF_AT_MSS << 2),
	ROW(REMOTE_CAP_RECV_SUPER, "captured super-segments (above the MSS: TSO/GSO or GRO/LRO) received by the remote end", get_cap, R | 2 | CAPF_SUPER << 2),
	ROW(REMOTE_CAP_RECV_COMMONEST, "captured commonest payload size, bytes received by the remote end", get_cap, R | 2 | CAPF_COMMONEST << 2),
	ROW(REMOTE_CAP_RECV_LARGEST, "captured largest payload size, bytes received by the remote end", get_cap, R | 2 | CAPF_LARGEST << 2),
	ROW(REMOTE_CAP_SENT_MEAN_SIZE, "captured mean payload size of the data segments sent by the remote end, bytes", get_cap, R | 0 | CAPF_MEAN << 2),
	ROW(REMOTE_CAP_RECV_MEAN_SIZE, "captured mean payload size of the data segments received by the remote end, bytes", get_cap, R | 2 | CAPF_MEAN << 2),
	ROW(REMOTE_CAP_DROPS, "packets the remote capture lost (kernel ring full, interface drops)", get_cap, R | CAPF_DROPS << 2),
	ROW(UDP_LOST, "UDP datagrams lost (sent - received)", get_udp_lost, 0),
	ROW(COUNTS_AGREE, "yes when both ends' transaction/byte counts agree", get_counts_agree, 0),
	ROW(COUNTS, "what the counts check compared, and how it came out", get_string, STR_COUNTS),
	ROW(TARGET, "where the run went: lab:NAME, loopback or host:ADDR", get_string, STR_TARGET),
	ROW(TARGET_DESC, "what was tested and why, in one line", get_string, STR_TARGET_DESC),
	ROW(LOCAL_TCP_METRICS, "the local end's TCP metrics cache: flushed (a lab, before the run) or kept (host)", get_string, STR_LMETRICS),
	ROW(REMOTE_TCP_METRICS, "the remote end's TCP metrics cache: flushed (a lab, before the run) or kept (host)", get_string, STR_RMETRICS),
	ROW(STATE_NOTE, "state of an end that tunetop cannot clear and that earlier runs may have left", get_string, STR_STATE_NOTE),
	ROW(LOCAL_HOST, "name of the local host", get_string, STR_LHOST),
	ROW(REMOTE_HOST, "name of the remote host", get_string, STR_RHOST),
	ROW(REMOTE_ADDR, "address the test connected to", get_string, STR_RADDR),
	ROW(LOCAL_ADDRESS_FAMILY, "AF_INET or AF_INET6 (-4/-6)", get_family, 0),
	ROW(LOCAL_NODELAY, "1 when TCP_NODELAY was set locally (-D)", get_nodelay, 0),
	ROW(REMOTE_NODELAY, "1 when TCP_NODELAY was set remotely (-D)", get_nodelay, 1),
	ROW(LOCAL_CWND_END, "local TCP congestion window at the end (first flow), segments", get_tcp, L | TCPF_CWND << 1),
	ROW(REMOTE_CWND_END, "remote TCP congestion window at the end (first flow), segments", get_tcp, R | TCPF_CWND << 1),
	ROW(LOCAL_RTT_US_END, "local TCP smoothed RTT at the end (first flow), microseconds", get_tcp, L | TCPF_RTT << 1),
	ROW(REMOTE_RTT_US_END, "remote TCP smoothed RTT at the end (first flow), microseconds", get_tcp, R | TCPF_RTT << 1),
	ROW(LOCAL_RTTVAR_US_END, "local TCP RTT variation at the end (first flow), microseconds", get_tcp, L | TCPF_RTTVAR << 1),
	ROW(REMOTE_RTTVAR_US_END, "remote TCP RTT variation at the end (first flow), microseconds", get_tcp, R | TCPF_RTTVAR << 1),
	ROW(SOCKET_TYPE, "SOCK_STREAM (TCP) or SOCK_DGRAM (UDP)", get_socket_type, 0),
	ROW(LOCAL_CPU_METHOD, "how CPU utilisation is measured: S (/proc/stat)", get_cpu_method, L),
	ROW(REMOTE_CPU_METHOD, "how the remote CPU utilisation is measured: S (/proc/stat)", get_cpu_method, R),
	ROW(RT_LATENCY, "microseconds per transaction of one flow, burst included (RR; netperf's definition)", get_rt_latency, 0),
	ROW(TRANSPORT_MSS, "local TCP send MSS (first flow), bytes, as netperf names it", get_tcp, L | TCPF_MSS << 1),
	ROW(LOCAL_BYTES_XFERD, "bytes the local end sent and received, all flows", get_bytes_calc, L),
	ROW(REMOTE_BYTES_XFERD, "bytes the remote end sent and received, all flows", get_bytes_calc, R),
	ROW(LOCAL_BYTES_PER_RECV, "bytes per local receive call", get_bytes_calc, L | 2),
	ROW(LOCAL_BYTES_PER_SEND, "bytes per local send call", get_bytes_calc, L | 4),
	ROW(REMOTE_BYTES_PER_RECV, "bytes per remote receive call", get_bytes_calc, R | 2),
	ROW(REMOTE_BYTES_PER_SEND, "bytes per remote send call", get_bytes_calc, R | 4),
	ROW(DEST_ADDR, "address the test connected to (netperf's name for REMOTE_ADDR)", get_string, STR_RADDR),
	ROW(DEST_FAMILY, "address family number of the test connection (2 AF_INET, 10 AF_INET6)", get_dest_family, 0),
	ROW(LOCAL_SEND_ERRORS, "sends the local kernel refused (UDP: ENOBUFS, ECONNREFUSED)", get_send_errors, L),
	ROW(SAMPLE_MS, "sampler tick, milliseconds (--sample-ms, or -D)", get_sample_ms, 0),
	ROW(LIMIT, "what limits the run, the first verdict of docs/why.md's rules (cpu-local, tbf, ...); n/a none", get_string, STR_LIMIT),
	ROW(FAILURE, "which end failed and why, when a run failed (figures are then partial)", get_string, STR_FAILURE),
	ROW(LOCAL_SOCKET_TOS, "the IP_TOS netperf's -Y sets on the local data socket, read back; n/a: tunetop takes no -Y", get_socket_tos, END_LOCAL),
	ROW(REMOTE_SOCKET_TOS, "the IP_TOS netperf's -Y sets on the remote data socket, read back; n/a: tunetop takes no -Y", get_socket_tos, END_REMOTE),
};

#undef ROW
#undef L
#undef R

const struct selector *selector_table(unsigned *n)
{
	*n = SEL_NIDS;
	return sel_table;
}

int selector_find(const char *name)
{
	for (unsigned i = 0; i < SEL_NIDS; i++)
		if (!strcasecmp(name, sel_table[i].name))
			return (int)i;
	return -1;
}

void selector_eval(unsigned i, const struct run_summary *r,
		   struct sel_value *v)
{
	v->kind = SEL_NA;
	v->s[0] = '\0';
	if (i >= SEL_NIDS)
		return;
	sel_table[i].get(r, sel_table[i].arg, v);
}

const char *sel_value_format(const struct sel_value *v, char *buf, size_t len)
{
	switch (v->kind) {
	case SEL_INT:
		snprintf(buf, len, "%" PRId64, v->i);
		break;
	case SEL_REAL:
		if (isfinite(v->d))
			snprintf(buf, len, "%.*f", v->prec, v->d);
		else
			snprintf(buf, len, "n/a");
		break;
	case SEL_STR:
		snprintf(buf, len, "%s", v->s);
		break;
	default:
		snprintf(buf, len, "n/a");
		break;
	}
	return buf;
}

/* Default -o sets: what a netperf user looks at first for each kind of test. */
static const enum sel_id default_rr[] = {
	SEL_TEST, SEL_REQUEST_SIZE, SEL_RESPONSE_SIZE, SEL_BURST_SIZE,
	SEL_NUM_FLOWS, SEL_ELAPSED_TIME, SEL_THROUGHPUT, SEL_THROUGHPUT_UNITS,
	SEL_P50_LATENCY, SEL_P90_LATENCY, SEL_P99_LATENCY, SEL_LOCAL_CPU_UTIL,
	SEL_REMOTE_CPU_UTIL, SEL_LOCAL_SD, SEL_REMOTE_SD, SEL_SD_UNITS, SEL_NIDS
};

static const enum sel_id default_stream[] = {
	SEL_TEST, SEL_LOCAL_SEND_SIZE, SEL_REMOTE_RECV_SIZE, SEL_NUM_FLOWS,
	SEL_ELAPSED_TIME, SEL_THROUGHPUT, SEL_THROUGHPUT_UNITS,
	SEL_LOCAL_CPU_UTIL, SEL_REMOTE_CPU_UTIL, SEL_LOCAL_SD, SEL_REMOTE_SD,
	SEL_SD_UNITS, SEL_NIDS
};

static const enum sel_id default_maerts[] = {
	SEL_TEST, SEL_REMOTE_SEND_SIZE, SEL_LOCAL_RECV_SIZE, SEL_NUM_FLOWS,
	SEL_ELAPSED_TIME, SEL_THROUGHPUT, SEL_THROUGHPUT_UNITS,
	SEL_LOCAL_CPU_UTIL, SEL_REMOTE_CPU_UTIL, SEL_LOCAL_SD, SEL_REMOTE_SD,
	SEL_SD_UNITS, SEL_NIDS
};

static const enum sel_id default_iterating[] = {
	SEL_CONFIDENCE_ITERATION, SEL_CONFIDENCE_REACHED,
	SEL_THROUGHPUT_CONFID, SEL_NIDS
};

/* Add the ids of a SEL_NIDS-ended list. */
static void sel_add_ids(struct selector_list *out, const enum sel_id *ids)
{
	for (; *ids != SEL_NIDS && out->n < SEL_MAX; ids++)
		out->idx[out->n++] = (unsigned)*ids;
}

void selectors_default(enum test_type t, bool iterating,
		       struct selector_list *out)
{
	out->n = 0;
	if (test_is_rr(t))
		sel_add_ids(out, default_rr);
	else if (test_client_sends(t))
		sel_add_ids(out, default_stream);
	else
		sel_add_ids(out, default_maerts);
	if (test_is_udp(t))
		sel_add_ids(out, (const enum sel_id[]){ SEL_UDP_LOST, SEL_NIDS });
	if (iterating)
		sel_add_ids(out, default_iterating);
}

/*
 * netperf's own defaults of a bare -o/-k (its set_output_list_by_test():
 * socket sizes at the end, message sizes, time, throughput; with -c/-C
 * its CPU figures, less the per-state percentages tunetop does not
 * measure), for netperf mode.
 */
static const enum sel_id np_default_stream[] = {
	SEL_LSS_SIZE_END, SEL_RSR_SIZE_END, SEL_LOCAL_SEND_SIZE, SEL_NIDS
};
static const enum sel_id np_default_maerts[] = {
	SEL_RSS_SIZE_END, SEL_LSR_SIZE_END, SEL_REMOTE_SEND_SIZE, SEL_NIDS
};
static const enum sel_id np_default_rr[] = {
	SEL_LSS_SIZE_END, SEL_LSR_SIZE_END, SEL_RSR_SIZE_END, SEL_RSS_SIZE_END,
	SEL_REQUEST_SIZE, SEL_RESPONSE_SIZE, SEL_NIDS
};
static const enum sel_id np_default_tput[] = {
	SEL_ELAPSED_TIME, SEL_THROUGHPUT, SEL_THROUGHPUT_UNITS, SEL_NIDS
};
static const enum sel_id np_default_cpu[] = {
	SEL_LOCAL_CPU_UTIL, SEL_LOCAL_CPU_METHOD, SEL_REMOTE_CPU_UTIL,
	SEL_REMOTE_CPU_METHOD, SEL_LOCAL_SD, SEL_REMOTE_SD, SEL_SD_UNITS, SEL_NIDS
};

void selectors_netperf_default(enum test_type t, bool cpu, struct selector_list *out)
{
	out->n = 0;
	sel_add_ids(out, test_is_rr(t) ? np_default_rr :
			 test_client_sends(t) ? np_default_stream : np_default_maerts);
	sel_add_ids(out, np_default_tput);
	if (cpu)
		sel_add_ids(out, np_default_cpu);
}

int selectors_parse(const char *list, char opt, enum test_type t,
		    bool iterating, struct selector_list *out, char *err)
{
	const char *p = list;

	out->n = 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p) {
		selectors_default(t, iterating, out);
		return 0;
	}
	for (;;) {
		const char *start, *end;
		char name[64];
		size_t len;
		int i;

		while (*p == ' ' || *p == '\t')
			p++;
		start = p;
		while (*p && *p != ',')
			p++;
		end = p;
		while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		len = (size_t)(end - start);
		if (!len)
			return err_set(err, -EINVAL, "option -%c %s: empty selector name between commas; accepted: NAME[,NAME...] from `tunetop run -- -%c help`",
				       opt, list, opt);
		if (len >= sizeof(name))
			len = sizeof(name) - 1;
		memcpy(name, start, len);
		name[len] = '\0';
		i = selector_find(name);
		if (i < 0)
			return err_set(err, -EINVAL, "option -%c %s: unknown output selector; accepted: a name `-- -%c ?` lists (`-- -%c help` describes each)",
				       opt, name, opt, opt);
		if (out->n >= SEL_MAX)
			return err_set(err, -EINVAL, "option -%c: more than %d selectors; accepted: up to %d names",
				       opt, SEL_MAX, SEL_MAX);
		out->idx[out->n++] = (unsigned)i;
		if (!*p)
			break;
		p++;
	}
	return 0;
}
