// SPDX-License-Identifier: GPL-2.0-or-later
/* msg.c - JSON bodies of control messages: encoders and strict decoders. */
#include "config.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "proto/msg.h"
#include "proto/msg-rw.h"

/* --- flow counters ----------------------------------------------------- */

json_t *counters_to_json(const struct flow_counters *c)
{
	struct wr w;

	w_begin(&w);
	w_u64(&w, "trans", c->trans);
	w_u64(&w, "bytes_sent", c->bytes_sent);
	w_u64(&w, "bytes_recv", c->bytes_recv);
	w_u64(&w, "msgs_sent", c->msgs_sent);
	w_u64(&w, "msgs_recv", c->msgs_recv);
	w_u64(&w, "lost", c->lost);
	return w_end(&w);
}

static void counters_read(struct rd *parent, const char *name,
			  struct flow_counters *c)
{
	const json_t *j = r_obj(parent, name, false);
	char path[128];
	struct rd r;

	if (!r_begin(&r, parent->c, j, r_path(parent, name, -1, path, sizeof(path))))
		return;
	memset(c, 0, sizeof(*c));
	r_u64(&r, "trans", &c->trans);
	r_u64(&r, "bytes_sent", &c->bytes_sent);
	r_u64(&r, "bytes_recv", &c->bytes_recv);
	r_u64(&r, "msgs_sent", &c->msgs_sent);
	r_u64(&r, "msgs_recv", &c->msgs_recv);
	r_u64(&r, "lost", &c->lost);
	r_end(&r);
}

/* --- latency summary ---------------------------------------------------- */

json_t *lat_to_json(const struct lat_summary *l)
{
	struct wr w;

	w_begin(&w);
	w_u64(&w, "count", l->count);
	w_real(&w, "min_us", l->min_us);
	w_real(&w, "mean_us", l->mean_us);
	w_real(&w, "p50_us", l->p50_us);
	w_real(&w, "p90_us", l->p90_us);
	w_real(&w, "p99_us", l->p99_us);
	w_real(&w, "p999_us", l->p999_us);
	w_real(&w, "max_us", l->max_us);
	w_real(&w, "stddev_us", l->stddev_us);
	return w_end(&w);
}

static void lat_read(struct dctx *c, const json_t *j, const char *what,
		     struct lat_summary *l)
{
	struct rd r;

	if (!r_begin(&r, c, j, what))
		return;
	r_u64(&r, "count", &l->count);
	r_real(&r, "min_us", 0, DBL_MAX, &l->min_us);
	r_real(&r, "mean_us", 0, DBL_MAX, &l->mean_us);
	r_real(&r, "p50_us", 0, DBL_MAX, &l->p50_us);
	r_real(&r, "p90_us", 0, DBL_MAX, &l->p90_us);
	r_real(&r, "p99_us", 0, DBL_MAX, &l->p99_us);
	r_real(&r, "p999_us", 0, DBL_MAX, &l->p999_us);
	r_real(&r, "max_us", 0, DBL_MAX, &l->max_us);
	r_real(&r, "stddev_us", 0, DBL_MAX, &l->stddev_us);
	r_end(&r);
}

/* --- CPU utilisation ------------------------------------------------------ */

#define CPU_ID_MAX 65535
#define PCT_SLACK 1e-6

static json_t *util_to_json(const struct cpu_util *u)
{
	struct wr w;

	w_begin(&w);
	w_int(&w, "id", u->id);
	w_real(&w, "user", u->user);
	w_real(&w, "nice", u->nice);
	w_real(&w, "sys", u->sys);
	w_real(&w, "irq", u->irq);
	w_real(&w, MSG_KEY_SOFTIRQ, u->softirq);
	w_real(&w, "steal", u->steal);
	w_real(&w, "idle", u->idle);
	w_real(&w, "iowait", u->iowait);
	w_real(&w, "busy", u->busy);
	return w_end(&w);
}

static void util_read(struct dctx *c, const json_t *j, const char *what,
		      int min_id, struct cpu_util *u)
{
	struct rd r;

	if (!r_begin(&r, c, j, what))
		return;
	r_int(&r, "id", min_id, CPU_ID_MAX, &u->id);
	r_real_slack(&r, "user", 0, 100, PCT_SLACK, &u->user);
	r_real_slack(&r, "nice", 0, 100, PCT_SLACK, &u->nice);
	r_real_slack(&r, "sys", 0, 100, PCT_SLACK, &u->sys);
	r_real_slack(&r, "irq", 0, 100, PCT_SLACK, &u->irq);
	r_real_slack(&r, MSG_KEY_SOFTIRQ, 0, 100, PCT_SLACK, &u->softirq);
	r_real_slack(&r, "steal", 0, 100, PCT_SLACK, &u->steal);
	r_real_slack(&r, "idle", 0, 100, PCT_SLACK, &u->idle);
	r_real_slack(&r, "iowait", 0, 100, PCT_SLACK, &u->iowait);
	r_real_slack(&r, "busy", 0, 100, PCT_SLACK, &u->busy);
	r_end(&r);
}

json_t *cpu_to_json(const struct cpu_sample *c)
{
	json_t *arr;
	struct wr w;
	unsigned i;

	w_begin(&w);
	if (c->ncpu > TT_MAX_CPUS)
		w.bad = true;
	w_int(&w, "ncpu", c->ncpu);
	w_set(&w, MSG_KEY_CPU_TOTAL, util_to_json(&c->total));
	arr = json_array();
	for (i = 0; arr && !w.bad && i < c->ncpu; i++)
		if (json_array_append_new(arr, util_to_json(&c->cpu[i])))
			w.bad = true;
	w_set(&w, "cpus", arr);
	w_real(&w, "peak_busy", c->peak_busy);
	w_int(&w, "peak_id", c->peak_id);
	return w_end(&w);
}

static void cpu_read(struct rd *parent, const char *name, struct cpu_sample *cs)
{
	const json_t *j = r_obj(parent, name, false), *arr;
	char path[128], sub[128];
	struct rd r;
	unsigned i;

	if (!r_begin(&r, parent->c, j, r_path(parent, name, -1, path, sizeof(path))))
		return;
	memset(cs, 0, sizeof(*cs));
	r_u32(&r, "ncpu", 0, TT_MAX_CPUS, &cs->ncpu);
	util_read(r.c, r_obj(&r, MSG_KEY_CPU_TOTAL, false),
		  r_path(&r, MSG_KEY_CPU_TOTAL, -1, sub, sizeof(sub)), -1, &cs->total);
	arr = r_arr(&r, "cpus", cs->ncpu);
	for (i = 0; arr && i < cs->ncpu; i++)
		util_read(r.c, json_array_get(arr, i),
			  r_path(&r, "cpus", i, sub, sizeof(sub)), 0, &cs->cpu[i]);
	r_real_slack(&r, "peak_busy", 0, 100, PCT_SLACK, &cs->peak_busy);
	r_int(&r, "peak_id", -1, CPU_ID_MAX, &cs->peak_id);
	r_end(&r);
}

/* --- interrupts and softirqs of the test's device ------------------------------ */

json_t *irq_to_json(const struct irq_sample *q)
{
	json_t *arr;
	struct wr w;

	w_begin(&w);
	if (q->ncpu > TT_MAX_CPUS)
		w.bad = true;
	w_u64(&w, "ncpu", q->ncpu);
	w_u64(&w, "nlines", q->nlines);
	w_real(&w, "irq", q->irq_total);
	w_real(&w, "net_rx", q->rx_total);
	w_real(&w, "net_tx", q->tx_total);
	arr = json_array();
	for (unsigned i = 0; arr && !w.bad && i < q->ncpu; i++) {
		struct wr c;

		w_begin(&c);
		w_int(&c, "id", q->id[i]);
		w_real(&c, "irq", q->irq_rate[i]);
		w_real(&c, "net_rx", q->rx_rate[i]);
		w_real(&c, "net_tx", q->tx_rate[i]);
		if (json_array_append_new(arr, w_end(&c)))
			w.bad = true;
	}
	w_set(&w, "cpus", arr);
	return w_end(&w);
}

static void irq_read(struct rd *parent, const char *name, struct irq_sample *q)
{
	const json_t *j = r_obj(parent, name, false), *arr;
	char path[128], sub[128];
	struct rd r;

	if (!r_begin(&r, parent->c, j, r_path(parent, name, -1, path, sizeof(path))))
		return;
	memset(q, 0, sizeof(*q));
	r_u32(&r, "ncpu", 0, TT_MAX_CPUS, &q->ncpu);
	r_u32(&r, "nlines", 0, 65535, &q->nlines);
	r_real(&r, "irq", 0, DBL_MAX, &q->irq_total);
	r_real(&r, "net_rx", 0, DBL_MAX, &q->rx_total);
	r_real(&r, "net_tx", 0, DBL_MAX, &q->tx_total);
	arr = r_arr(&r, "cpus", q->ncpu);
	for (unsigned i = 0; arr && i < q->ncpu; i++) {
		struct rd c;

		if (!r_begin(&c, r.c, json_array_get(arr, i),
			     r_path(&r, "cpus", i, sub, sizeof(sub))))
			break;
		r_int(&c, "id", 0, CPU_ID_MAX, &q->id[i]);
		r_real(&c, "irq", 0, DBL_MAX, &q->irq_rate[i]);
		r_real(&c, "net_rx", 0, DBL_MAX, &q->rx_rate[i]);
		r_real(&c, "net_tx", 0, DBL_MAX, &q->tx_rate[i]);
		r_end(&c);
	}
	r_end(&r);
}

/* --- sockets ---------------------------------------------------------------- */

static json_t *tcp_to_json(const struct tcp_figures *t)
{
	struct wr w;

	if (!t->has)
		return json_null();
	w_begin(&w);
	w_u64(&w, "cwnd", t->snd_cwnd);
	w_u64(&w, "rtt_us", t->rtt_us);
	w_u64(&w, "rttvar_us", t->rttvar_us);
	w_u64(&w, "total_retrans", t->total_retrans);
	w_u64(&w, MSG_KEY_SEGS_OUT, t->segs_out);
	w_u64(&w, "segs_in", t->segs_in);
	w_u64(&w, "data_segs_out", t->data_segs_out);
	w_u64(&w, "data_segs_in", t->data_segs_in);
	w_u64(&w, "delivery_rate", t->delivery_rate);
	w_u64(&w, "notsent_bytes", t->notsent_bytes);
	w_u64(&w, "rcv_space", t->rcv_space);
	w_u64(&w, "snd_mss", t->snd_mss);
	w_u64(&w, "rcv_mss", t->rcv_mss);
	/* limiter times (docs/why.md): -1 = n/a, the kernel lacks them */
	w_int(&w, MSG_KEY_BUSY_US, t->has_chrono ? (long long)t->busy_us : -1);
	w_int(&w, MSG_KEY_RWND_LIMITED_US, t->has_chrono ? (long long)t->rwnd_limited_us : -1);
	w_int(&w, MSG_KEY_SNDBUF_LIMITED_US, t->has_chrono ? (long long)t->sndbuf_limited_us : -1);
	w_bool(&w, "app_limited", t->app_limited);
	return w_end(&w);
}

/* The limiter times of a tcp object: all three present, or all -1 (n/a). */
static void tcp_read_chrono(struct rd *r, struct tcp_figures *t)
{
	long long busy = -1, rwnd = -1, sndbuf = -1;

	r_ll(r, MSG_KEY_BUSY_US, -1, INT64_MAX, &busy);
	r_ll(r, MSG_KEY_RWND_LIMITED_US, -1, INT64_MAX, &rwnd);
	r_ll(r, MSG_KEY_SNDBUF_LIMITED_US, -1, INT64_MAX, &sndbuf);
	if (!r->c->rc && ((busy < 0) != (rwnd < 0) || (busy < 0) != (sndbuf < 0)))
		d_fail(r->c, "%s: members 'busy_us', 'rwnd_limited_us' and 'sndbuf_limited_us': accepted is all three >= 0 or all three -1",
		       r->what);
	t->has_chrono = busy >= 0;
	t->busy_us = busy >= 0 ? (uint64_t)busy : 0;
	t->rwnd_limited_us = rwnd >= 0 ? (uint64_t)rwnd : 0;
	t->sndbuf_limited_us = sndbuf >= 0 ? (uint64_t)sndbuf : 0;
	r_bool(r, "app_limited", &t->app_limited);
}

static void tcp_read(struct dctx *c, const json_t *j, const char *what,
		     struct tcp_figures *t)
{
	struct rd r;

	memset(t, 0, sizeof(*t));
	if (!j)
		return;
	if (!r_begin(&r, c, j, what))
		return;
	t->has = true;
	r_u32(&r, "cwnd", 0, UINT32_MAX, &t->snd_cwnd);
	r_u32(&r, "rtt_us", 0, UINT32_MAX, &t->rtt_us);
	r_u32(&r, "rttvar_us", 0, UINT32_MAX, &t->rttvar_us);
	r_u32(&r, "total_retrans", 0, UINT32_MAX, &t->total_retrans);
	r_u32(&r, MSG_KEY_SEGS_OUT, 0, UINT32_MAX, &t->segs_out);
	r_u32(&r, "segs_in", 0, UINT32_MAX, &t->segs_in);
	r_u32(&r, "data_segs_out", 0, UINT32_MAX, &t->data_segs_out);
	r_u32(&r, "data_segs_in", 0, UINT32_MAX, &t->data_segs_in);
	r_u64(&r, "delivery_rate", &t->delivery_rate);
	r_u32(&r, "notsent_bytes", 0, UINT32_MAX, &t->notsent_bytes);
	r_u32(&r, "rcv_space", 0, UINT32_MAX, &t->rcv_space);
	r_u32(&r, "snd_mss", 0, UINT32_MAX, &t->snd_mss);
	r_u32(&r, "rcv_mss", 0, UINT32_MAX, &t->rcv_mss);
	tcp_read_chrono(&r, t);
	r_end(&r);
}

static json_t *sock_to_json(const struct sock_sample *s)
{
	struct wr w;

	w_begin(&w);
	w_u64(&w, "flow", s->flow);
	w_int(&w, "sndbuf_init", s->sndbuf_init);
	w_int(&w, "rcvbuf_init", s->rcvbuf_init);
	w_int(&w, "sndbuf_conn", s->sndbuf_conn);
	w_int(&w, "rcvbuf_conn", s->rcvbuf_conn);
	w_int(&w, "sndbuf", s->sndbuf);
	w_int(&w, "rcvbuf", s->rcvbuf);
	w_int(&w, "outq", s->outq);
	w_int(&w, "inq", s->inq);
	w_set(&w, MSG_KEY_TCP, tcp_to_json(&s->tcp));
	return w_end(&w);
}

static void sock_read(struct dctx *c, const json_t *j, const char *what,
		      struct sock_sample *s)
{
	char sub[128];
	struct rd r;

	if (!r_begin(&r, c, j, what))
		return;
	r_u32(&r, "flow", 0, TT_MAX_FLOWS - 1, &s->flow);
	r_i32(&r, "sndbuf_init", -1, INT32_MAX, &s->sndbuf_init);
	r_i32(&r, "rcvbuf_init", -1, INT32_MAX, &s->rcvbuf_init);
	r_i32(&r, "sndbuf_conn", -1, INT32_MAX, &s->sndbuf_conn);
	r_i32(&r, "rcvbuf_conn", -1, INT32_MAX, &s->rcvbuf_conn);
	r_i32(&r, "sndbuf", -1, INT32_MAX, &s->sndbuf);
	r_i32(&r, "rcvbuf", -1, INT32_MAX, &s->rcvbuf);
	r_i32(&r, "outq", -1, INT32_MAX, &s->outq);
	r_i32(&r, "inq", -1, INT32_MAX, &s->inq);
	tcp_read(c, r_obj(&r, MSG_KEY_TCP, true),
		 r_path(&r, MSG_KEY_TCP, -1, sub, sizeof(sub)), &s->tcp);
	r_end(&r);
}

json_t *socks_to_json(const struct sock_sample *s, unsigned n)
{
	json_t *arr = json_array();
	unsigned i;

	for (i = 0; arr && i < n; i++) {
		if (json_array_append_new(arr, sock_to_json(&s[i]))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/* Read members "nsocks" and "socks" of r into a new array. */
static void socks_read(struct rd *r, uint32_t *nsocks, struct sock_sample **socks)
{
	const json_t *arr;
	char sub[128];
	uint32_t i, n = 0;

	*nsocks = 0;
	*socks = NULL;
	r_u32(r, "nsocks", 0, TT_MAX_FLOWS, &n);
	arr = r_arr(r, MSG_KEY_SOCKS, n);
	if (!arr || !n)
		return;
	*socks = calloc(n, sizeof(**socks));
	if (!*socks) {
		d_fail(r->c, "%s: socks: %s", r->what, strerror(ENOMEM));
		r->c->rc = -ENOMEM;
		return;
	}
	*nsocks = n;
	for (i = 0; i < n; i++)
		sock_read(r->c, json_array_get(arr, i),
			  r_path(r, MSG_KEY_SOCKS, i, sub, sizeof(sub)), &(*socks)[i]);
}

/* --- latency histogram ---------------------------------------------------- */

/* {"count", "sum_ns", "min_ns", "max_ns", "buckets": [[index, count], ...]}. */
static json_t *hist_to_json(const struct hist *h)
{
	json_t *arr;
	struct wr w;
	unsigned i;

	w_begin(&w);
	w_u64(&w, "count", h->count);
	w_u64(&w, "sum_ns", h->sum_ns);
	if (h->count) {
		w_u64(&w, "min_ns", h->min_ns);
		w_u64(&w, "max_ns", h->max_ns);
	} else {
		w_set(&w, "min_ns", json_null());
		w_set(&w, "max_ns", json_null());
	}
	arr = json_array();
	for (i = 0; arr && !w.bad && i < HIST_BUCKETS; i++) {
		if (!h->b[i])
			continue;
		if (h->b[i] > INT64_MAX ||
		    json_array_append_new(arr, json_pack("[iI]", (int)i,
							 (json_int_t)h->b[i])))
			w.bad = true;
	}
	w_set(&w, "buckets", arr);
	return w_end(&w);
}

/* An integer member that is null exactly when empty is true. */
static void r_u64_or_null(struct rd *r, const char *name, bool empty,
			  uint64_t *out)
{
	const json_t *j = r_get(r, name);

	if (!j)
		return;
	if (empty ? !json_is_null(j) :
		    !json_is_integer(j) || json_integer_value(j) < 0) {
		d_fail(r->c, "%s: member '%s': accepted is %s", r->what, name,
		       empty ? "null when count is 0" :
			       "an integer >= 0 when count is above 0");
		return;
	}
	if (!empty)
		*out = (uint64_t)json_integer_value(j);
}

/*
 * Read a histogram: buckets in rising index order below HIST_BUCKETS, each
 * count >= 1, summing to count; min_ns and max_ns must fall in or beyond
 * the lowest and highest occupied buckets.
 */
static void hist_read(struct dctx *c, const json_t *j, const char *what,
		      struct hist *h)
{
	const json_t *arr, *pair;
	uint64_t total = 0;
	long long next = 0, first = -1, last = -1;
	struct rd r;
	size_t k;

	if (!r_begin(&r, c, j, what))
		return;
	hist_init(h);
	r_u64(&r, "count", &h->count);
	r_u64(&r, "sum_ns", &h->sum_ns);
	r_u64_or_null(&r, "min_ns", !h->count, &h->min_ns);
	r_u64_or_null(&r, "max_ns", !h->count, &h->max_ns);
	arr = r_get(&r, "buckets");
	if (arr && !json_is_array(arr)) {
		d_fail(c, "%s: member 'buckets': accepted is an array of [index, count] pairs",
		       what);
		return;
	}
	json_array_foreach(arr, k, pair) {
		json_int_t idx, n;

		if (c->rc)
			return;
		if (!json_is_array(pair) || json_array_size(pair) != 2 ||
		    !json_is_integer(json_array_get(pair, 0)) ||
		    !json_is_integer(json_array_get(pair, 1))) {
			d_fail(c, "%s: buckets[%zu]: accepted is an [index, count] pair of integers",
			       what, k);
			return;
		}
		idx = json_integer_value(json_array_get(pair, 0));
		n = json_integer_value(json_array_get(pair, 1));
		if (idx < 0 || idx >= (json_int_t)HIST_BUCKETS) {
			d_fail(c, "%s: buckets[%zu]: index %lld: accepted is 0..%u",
			       what, k, (long long)idx, HIST_BUCKETS - 1);
			return;
		}
		if (idx < next) {
			d_fail(c, "%s: buckets[%zu]: index %lld: accepted is above the previous index %lld",
			       what, k, (long long)idx, next - 1);
			return;
		}
		if (n < 1 || (uint64_t)n > UINT64_MAX - total) {
			d_fail(c, "%s: buckets[%zu]: count %lld: accepted is an integer >= 1",
			       what, k, (long long)n);
			return;
		}
		h->b[idx] = (uint64_t)n;
		total += (uint64_t)n;
		if (first < 0)
			first = idx;
		last = idx;
		next = idx + 1;
	}
	if (c->rc)
		return;
	if (total != h->count) {
		d_fail(c, "%s: bucket counts sum to %" PRIu64 ", accepted is count %" PRIu64,
		       what, total, h->count);
		return;
	}
	if (h->count && (h->min_ns > h->max_ns ||
			 hist_index(h->min_ns) > (unsigned)first ||
			 hist_index(h->max_ns) < (unsigned)last)) {
		d_fail(c, "%s: min_ns %" PRIu64 " and max_ns %" PRIu64 ": accepted are values that bound the occupied buckets",
		       what, h->min_ns, h->max_ns);
		return;
	}
	r_end(&r);
}

/* --- test parameters ------------------------------------------------------- */

json_t *params_to_json(const struct test_params *p)
{
	struct wr w;

	if ((unsigned)p->type >= TEST_COUNT ||
	    (p->family != AF_INET && p->family != AF_INET6))
		return NULL;
	w_begin(&w);
	w_str(&w, "test", test_type_name(p->type));
	w_int(&w, "family", p->family == AF_INET ? 4 : 6);
	w_real(&w, "duration", p->duration);
	w_u64(&w, "req_size", p->req_size);
	w_u64(&w, "resp_size", p->resp_size);
	w_u64(&w, "burst", p->burst);
	w_u64(&w, "send_size", p->send_size);
	w_u64(&w, "recv_size", p->recv_size);
	w_int(&w, "lsndbuf", p->lsndbuf);
	w_int(&w, "lrcvbuf", p->lrcvbuf);
	w_int(&w, "rsndbuf", p->rsndbuf);
	w_int(&w, "rrcvbuf", p->rrcvbuf);
	w_bool(&w, "nodelay", p->nodelay);
	w_u64(&w, "flows", p->flows);
	w_int(&w, "lcpu", p->lcpu);
	w_int(&w, "rcpu", p->rcpu);
	w_u64(&w, "sample_ms", p->sample_ms);
	w_str(&w, "capture", capture_mode_name(p->capture));
	return w_end(&w);
}

int params_from_json(const json_t *j, struct test_params *out, char *err)
{
	struct dctx c = { .err = err };
	struct test_params p;
	const json_t *test;
	char why[ERR_MAX], mode[8];
	int family = 0, type;
	struct rd r;

	params_default(&p);
	if (r_begin(&r, &c, j, "setup")) {
		test = r_get(&r, "test");
		if (test && !json_is_string(test))
			d_fail(&c, "setup: member 'test': accepted is a string");
		type = c.rc ? 0 : test_type_parse(json_string_value(test));
		/* The wire takes the canonical spelling only. */
		if (type < 0 || (!c.rc && (strcmp(json_string_value(test),
						  test_type_name(type)) ||
					   json_string_length(test) !=
						   strlen(test_type_name(type)))))
			d_fail(&c, "setup: member 'test': accepted are TCP_RR, TCP_CRR, TCP_STREAM, TCP_MAERTS, UDP_RR, UDP_STREAM");
		p.type = (enum test_type)(type < 0 ? 0 : type);
		r_int(&r, "family", 4, 6, &family);
		if (!c.rc && family == 5)
			d_fail(&c, "setup: member 'family': accepted is 4 or 6");
		p.family = family == 4 ? AF_INET : AF_INET6;
		r_real(&r, "duration", 0, TT_MAX_DURATION, &p.duration);
		r_u32(&r, "req_size", 0, TT_MAX_MSG, &p.req_size);
		r_u32(&r, "resp_size", 0, TT_MAX_MSG, &p.resp_size);
		r_u32(&r, "burst", 0, TT_MAX_BURST, &p.burst);
		r_u32(&r, "send_size", 0, TT_MAX_MSG, &p.send_size);
		r_u32(&r, "recv_size", 0, TT_MAX_MSG, &p.recv_size);
		r_i32(&r, "lsndbuf", -1, 1 << 30, &p.lsndbuf);
		r_i32(&r, "lrcvbuf", -1, 1 << 30, &p.lrcvbuf);
		r_i32(&r, "rsndbuf", -1, 1 << 30, &p.rsndbuf);
		r_i32(&r, "rrcvbuf", -1, 1 << 30, &p.rrcvbuf);
		r_bool(&r, "nodelay", &p.nodelay);
		r_u32(&r, "flows", 1, TT_MAX_FLOWS, &p.flows);
		r_int(&r, "lcpu", -1, 4095, &p.lcpu);
		r_int(&r, "rcpu", -1, 4095, &p.rcpu);
		r_u32(&r, "sample_ms", 10, 10000, &p.sample_ms);
		r_str(&r, "capture", 1, mode, sizeof(mode));
		if (!c.rc && capture_mode_parse(mode) < 0)
			d_fail(&c, "setup: member 'capture': accepted are \"off\", \"on\" and \"auto\"");
		p.capture = c.rc ? CAPTURE_OFF : (enum capture_mode)capture_mode_parse(mode);
		r_end(&r);
	}
	if (c.rc)
		return c.rc;
	/* send_size and recv_size 0 mean the defaults (docs/protocol.md),
	 * which each end applies to its own socket (params_send_size_at()). */
	if (params_validate(&p, why))
		return err_set(err, -EINVAL, "setup: %s", why);
	*out = p;
	return 0;
}

/* --- one end's tick and final figures -------------------------------------- */

/* Member "capture": null, or one end's capture into a new *out. */
static void capture_read(struct rd *r, struct seg_capture **out)
{
	const json_t *j = r_obj(r, "capture", true);
	char path[128];
	int rc;

	*out = NULL;
	if (!j || r->c->rc)
		return;
	*out = malloc(sizeof(**out));
	if (!*out) {
		d_fail(r->c, "%s: capture: %s", r->what, strerror(ENOMEM));
		r->c->rc = -ENOMEM;
		return;
	}
	rc = seg_capture_from_json(j, r_path(r, "capture", -1, path, sizeof(path)), *out,
				   r->c->err);
	if (rc) {
		free(*out);
		*out = NULL;
		r->c->rc = rc;
	}
}

json_t *sample_to_json(const struct end_sample *s)
{
	struct wr w;

	w_begin(&w);
	if (s->nsocks > TT_MAX_FLOWS || (s->nsocks && !s->socks))
		w.bad = true;
	w_u64(&w, "seq", s->seq);
	w_real(&w, "t", s->t);
	w_real(&w, "iv_secs", s->iv_secs);
	w_set(&w, "total", counters_to_json(&s->total));
	w_set(&w, "iv", counters_to_json(&s->iv));
	w_real(&w, "rate", s->rate);
	w_set(&w, "lat_iv", s->has_lat ? lat_to_json(&s->lat_iv) : json_null());
	w_set(&w, "lat_total", s->has_lat ? lat_to_json(&s->lat_total) : json_null());
	w_u64(&w, "nsocks", s->nsocks);
	w_set(&w, MSG_KEY_SOCKS, w.bad ? NULL : socks_to_json(s->socks, s->nsocks));
	w_set(&w, MSG_KEY_CPU, cpu_to_json(&s->cpu));
	w_u64(&w, "ctx_vol", s->ctx_vol);
	w_u64(&w, "ctx_invol", s->ctx_invol);
	w_u64(&w, "iv_ctx_vol", s->iv_ctx_vol);
	w_u64(&w, "iv_ctx_invol", s->iv_ctx_invol);
	w_str(&w, "irq_dev", s->irq_dev);
	w_set(&w, "irq", irq_to_json(&s->irq));
	w_set(&w, "capture", s->cap ? seg_capture_to_json(s->cap) : json_null());
	return w_end(&w);
}

int sample_from_json(const json_t *j, struct end_sample *s, char *err)
{
	struct dctx c = { .err = err };
	const json_t *li, *lt;
	struct rd r;

	memset(s, 0, sizeof(*s));
	if (r_begin(&r, &c, j, "sample")) {
		r_u64(&r, "seq", &s->seq);
		r_real(&r, "t", 0, DBL_MAX, &s->t);
		r_real(&r, "iv_secs", 0, DBL_MAX, &s->iv_secs);
		counters_read(&r, "total", &s->total);
		counters_read(&r, "iv", &s->iv);
		r_real(&r, "rate", 0, DBL_MAX, &s->rate);
		li = r_obj(&r, "lat_iv", true);
		lt = r_obj(&r, "lat_total", true);
		if (!c.rc && !li != !lt)
			d_fail(&c, "sample: members 'lat_iv' and 'lat_total': accepted is both objects or both null");
		s->has_lat = li && lt;
		if (s->has_lat) {
			lat_read(&c, li, "sample.lat_iv", &s->lat_iv);
			lat_read(&c, lt, "sample.lat_total", &s->lat_total);
		}
		socks_read(&r, &s->nsocks, &s->socks);
		cpu_read(&r, MSG_KEY_CPU, &s->cpu);
		r_u64(&r, "ctx_vol", &s->ctx_vol);
		r_u64(&r, "ctx_invol", &s->ctx_invol);
		r_u64(&r, "iv_ctx_vol", &s->iv_ctx_vol);
		r_u64(&r, "iv_ctx_invol", &s->iv_ctx_invol);
		r_str(&r, "irq_dev", 0, s->irq_dev, sizeof(s->irq_dev));
		irq_read(&r, "irq", &s->irq);
		capture_read(&r, &s->cap);
		r_end(&r);
	}
	if (c.rc)
		sample_free(s);
	return c.rc;
}

json_t *result_to_json(const struct end_result *r)
{
	struct wr w;

	w_begin(&w);
	if (r->nsocks > TT_MAX_FLOWS || (r->nsocks && !r->socks) ||
	    !memchr(r->host, '\0', sizeof(r->host)))
		w.bad = true;
	w_real(&w, "elapsed", r->elapsed);
	w_set(&w, "total", counters_to_json(&r->total));
	w_set(&w, "lat", r->has_lat ? lat_to_json(&r->lat) : json_null());
	w_set(&w, "hist", r->hist ? hist_to_json(r->hist) : json_null());
	w_u64(&w, "nsocks", r->nsocks);
	w_set(&w, MSG_KEY_SOCKS, w.bad ? NULL : socks_to_json(r->socks, r->nsocks));
	w_set(&w, MSG_KEY_CPU, cpu_to_json(&r->cpu));
	w_u64(&w, "ctx_vol", r->ctx_vol);
	w_u64(&w, "ctx_invol", r->ctx_invol);
	w_real(&w, "sampler_cpu", r->sampler_cpu);
	w_real(&w, "flows_cpu", r->flows_cpu);
	w_u64(&w, "strays", r->strays);
	w_str(&w, "irq_dev", r->irq_dev);
	w_set(&w, "irq", irq_to_json(&r->irq));
	w_str(&w, "cong_control", r->cong_control);
	w_int(&w, "cpu_bind", r->cpu_bind);
	w_int(&w, "cpu_main", r->cpu_main);
	w_u64(&w, "ncpus_used", r->ncpus_used);
	w_int(&w, MSG_KEY_SEGS_OUT, r->segs_out);
	w_int(&w, "segs_in", r->segs_in);
	w_int(&w, "data_segs_out", r->data_segs_out);
	w_int(&w, "data_segs_in", r->data_segs_in);
	w_set(&w, "capture", r->cap ? seg_capture_to_json(r->cap) : json_null());
	w_str(&w, "cap_note", r->cap_note);
	if (!w.bad)
		w_str(&w, MSG_KEY_HOST, r->host);
	return w_end(&w);
}

int result_from_json(const json_t *j, struct end_result *res, char *err)
{
	struct dctx c = { .err = err };
	const json_t *lat, *hist;
	uint32_t ncpus_used = 0;
	long long ll;
	struct rd r;

	memset(res, 0, sizeof(*res));
	if (r_begin(&r, &c, j, "result")) {
		r_real(&r, "elapsed", 0, DBL_MAX, &res->elapsed);
		counters_read(&r, "total", &res->total);
		lat = r_obj(&r, "lat", true);
		res->has_lat = lat != NULL;
		if (lat)
			lat_read(&c, lat, "result.lat", &res->lat);
		hist = r_obj(&r, "hist", true);
		if (hist) {
			res->hist = malloc(sizeof(*res->hist));
			if (!res->hist)
				c.rc = err_set(err, -ENOMEM, "result: hist: %s",
					       strerror(ENOMEM));
			else
				hist_read(&c, hist, "result.hist", res->hist);
		}
		socks_read(&r, &res->nsocks, &res->socks);
		cpu_read(&r, MSG_KEY_CPU, &res->cpu);
		r_u64(&r, "ctx_vol", &res->ctx_vol);
		r_u64(&r, "ctx_invol", &res->ctx_invol);
		r_real(&r, "sampler_cpu", -1, 1e9, &res->sampler_cpu);
		r_real(&r, "flows_cpu", -1, 1e9, &res->flows_cpu);
		r_u64(&r, "strays", &res->strays);
		r_str(&r, "irq_dev", 0, res->irq_dev, sizeof(res->irq_dev));
		irq_read(&r, "irq", &res->irq);
		r_str(&r, "cong_control", 0, res->cong_control, sizeof(res->cong_control));
		r_int(&r, "cpu_bind", -1, 4095, &res->cpu_bind);
		r_int(&r, "cpu_main", -1, 4095, &res->cpu_main);
		r_u32(&r, "ncpus_used", 0, TT_MAX_CPUS, &ncpus_used);
		res->ncpus_used = ncpus_used;
		if (r_ll(&r, MSG_KEY_SEGS_OUT, -1, INT64_MAX, &ll))
			res->segs_out = ll;
		if (r_ll(&r, "segs_in", -1, INT64_MAX, &ll))
			res->segs_in = ll;
		if (r_ll(&r, "data_segs_out", -1, INT64_MAX, &ll))
			res->data_segs_out = ll;
		if (r_ll(&r, "data_segs_in", -1, INT64_MAX, &ll))
			res->data_segs_in = ll;
		r_str(&r, MSG_KEY_HOST, 0, res->host, sizeof(res->host));
		capture_read(&r, &res->cap);
		r_str(&r, "cap_note", 0, res->cap_note, sizeof(res->cap_note));
		r_end(&r);
	}
	if (c.rc)
		result_free(res);
	return c.rc;
}

/* --- the small bodies ------------------------------------------------------- */

json_t *msg_hello_to_json(const struct msg_hello *m)
{
	struct wr w;

	w_begin(&w);
	w_str(&w, "name", m->name);
	w_str(&w, "version", m->version);
	return w_end(&w);
}

int msg_hello_from_json(const json_t *j, struct msg_hello *m, char *err)
{
	struct dctx c = { .err = err };
	struct msg_hello h = { .name = "" };
	struct rd r;

	if (r_begin(&r, &c, j, "hello")) {
		r_str(&r, "name", 1, h.name, sizeof(h.name));
		r_str(&r, "version", 0, h.version, sizeof(h.version));
		r_end(&r);
	}
	if (!c.rc)
		*m = h;
	return c.rc;
}

json_t *msg_hello_ok_to_json(const struct msg_hello_ok *m)
{
	struct wr w;

	w_begin(&w);
	w_str(&w, "name", m->name);
	w_str(&w, "version", m->version);
	w_str(&w, "host", m->host);
	w_u64(&w, "ncpu", m->ncpu);
	return w_end(&w);
}

int msg_hello_ok_from_json(const json_t *j, struct msg_hello_ok *m, char *err)
{
	struct dctx c = { .err = err };
	struct msg_hello_ok h = { .ncpu = 0 };
	uint32_t ncpu = 0;
	struct rd r;

	if (r_begin(&r, &c, j, "hello_ok")) {
		r_str(&r, "name", 1, h.name, sizeof(h.name));
		r_str(&r, "version", 0, h.version, sizeof(h.version));
		r_str(&r, "host", 0, h.host, sizeof(h.host));
		r_u32(&r, "ncpu", 1, 65535, &ncpu);
		r_end(&r);
	}
	h.ncpu = ncpu;
	if (!c.rc)
		*m = h;
	return c.rc;
}

json_t *msg_ready_to_json(const struct msg_ready *m)
{
	json_t *a;
	struct wr w;

	if (!m->nports || m->nports > TT_MAX_FLOWS)
		return NULL;
	a = json_array();
	for (unsigned i = 0; a && i < m->nports; i++) {
		if (!m->ports[i]) {
			json_decref(a);
			return NULL;
		}
		json_array_append_new(a, json_integer(m->ports[i]));
	}
	w_begin(&w);
	w_set(&w, "ports", a);
	return w_end(&w);
}

int msg_ready_from_json(const json_t *j, struct msg_ready *m, unsigned n, char *err)
{
	struct dctx c = { .err = err };
	struct msg_ready tmp;
	const json_t *a;
	struct rd r;

	if (n < 1 || n > TT_MAX_FLOWS)
		return err_set(err, -EPROTO, "ready: %u ports asked for, accepted is 1..%d", n, TT_MAX_FLOWS);
	if (r_begin(&r, &c, j, "ready")) {
		a = r_arr(&r, "ports", n);
		for (unsigned i = 0; a && i < n; i++) {
			const json_t *v = json_array_get(a, i);
			json_int_t p = json_is_integer(v) ? json_integer_value(v) : 0;

			if (p < 1 || p > 65535) {
				d_fail(&c, "ready: member 'ports[%u]': accepted is an integer 1..65535", i);
				break;
			}
			tmp.ports[i] = (uint16_t)p;
		}
		r_end(&r);
	}
	if (!c.rc) {
		memcpy(m->ports, tmp.ports, n * sizeof(tmp.ports[0]));
		m->nports = n;
	}
	return c.rc;
}

json_t *msg_stop_to_json(const struct msg_stop *m)
{
	struct wr w;

	w_begin(&w);
	w_real(&w, "elapsed", m->elapsed);
	w_set(&w, "total", counters_to_json(&m->total));
	return w_end(&w);
}

int msg_stop_from_json(const json_t *j, struct msg_stop *m, char *err)
{
	struct dctx c = { .err = err };
	struct msg_stop s = { .elapsed = 0 };
	struct rd r;

	if (r_begin(&r, &c, j, "stop")) {
		r_real(&r, "elapsed", 0, DBL_MAX, &s.elapsed);
		counters_read(&r, "total", &s.total);
		r_end(&r);
	}
	if (!c.rc)
		*m = s;
	return c.rc;
}

static const char *const error_codes[] = {
	"busy", "version", "malformed", "invalid", "timeout", "internal",
	"aborted", "auth",
};

int msg_error_from_json(const json_t *j, struct msg_error *m, char *err)
{
	struct dctx c = { .err = err };
	struct msg_error e = { .code = "" };
	const json_t *msg;
	size_t i;
	struct rd r;

	if (r_begin(&r, &c, j, "error")) {
		r_str(&r, "code", 1, e.code, sizeof(e.code));
		for (i = 0; !c.rc && i < sizeof(error_codes) / sizeof(*error_codes); i++)
			if (!strcmp(e.code, error_codes[i]))
				break;
		if (!c.rc && i == sizeof(error_codes) / sizeof(*error_codes))
			d_fail(&c, "error: member 'code': accepted are busy, version, malformed, invalid, timeout, internal, aborted, auth");
		msg = r_get(&r, "message");
		if (msg && !json_is_string(msg))
			d_fail(&c, "error: member 'message': accepted is a string");
		r_end(&r);
		if (!c.rc) {
			/* Escaped, cut at a character boundary. */
			str_escape(e.message, sizeof(e.message),
				   json_string_value(msg), json_string_length(msg));
		}
	}
	if (!c.rc)
		*m = e;
	return c.rc;
}

int msg_empty_from_json(const json_t *j, const char *what, char *err)
{
	struct dctx c = { .err = err };
	struct rd r;

	if (r_begin(&r, &c, j, what))
		r_end(&r);
	return c.rc;
}
