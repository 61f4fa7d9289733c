// SPDX-License-Identifier: GPL-2.0-or-later
/* test-msg.c - message bodies: exact round trips and strict rejections. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "proto/msg.h"
#include "tap.h"

/* What the wire does to a body: compact text, parsed back strictly. */
static json_t *wire(json_t *j)
{
	char *text;
	json_t *back;

	if (!j)
		return NULL;
	text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	back = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
	free(text);
	return back;
}

/* Member name of object j, or NULL. */
static json_t *member(json_t *j, const char *name)
{
	return json_object_get(j, name);
}

static bool has(const char *err, const char *needle)
{
	return strstr(err, needle) != NULL;
}

/* --- params ------------------------------------------------------------- */

static void fill_params(struct test_params *p)
{
	params_default(p);
	p->type = TEST_UDP_RR;
	p->family = AF_INET6;
	p->duration = 2.5;
	p->req_size = 64;
	p->resp_size = 1024;
	p->burst = 15;
	p->send_size = 7;
	p->recv_size = 9;
	p->lsndbuf = 65536;
	p->lrcvbuf = -1;
	p->rsndbuf = 131072;
	p->rrcvbuf = 262144;
	p->nodelay = true;
	p->flows = 4;
	p->lcpu = 0;
	p->rcpu = 1;
	p->sample_ms = 250;
}

static bool params_equal(const struct test_params *a, const struct test_params *b)
{
	return a->type == b->type && a->family == b->family &&
	       a->duration == b->duration && a->req_size == b->req_size &&
	       a->resp_size == b->resp_size && a->burst == b->burst &&
	       a->send_size == b->send_size && a->recv_size == b->recv_size &&
	       a->lsndbuf == b->lsndbuf && a->lrcvbuf == b->lrcvbuf &&
	       a->rsndbuf == b->rsndbuf && a->rrcvbuf == b->rrcvbuf &&
	       a->nodelay == b->nodelay && a->flows == b->flows &&
	       a->lcpu == b->lcpu && a->rcpu == b->rcpu &&
	       a->sample_ms == b->sample_ms;
}

static void test_params_round_trip(void)
{
	struct test_params p, q;
	char err[ERR_MAX] = "";
	json_t *j;
	int rc;

	fill_params(&p);
	j = wire(params_to_json(&p));
	ok(j && !strcmp(json_string_value(member(j, "test")), "UDP_RR") &&
	   json_integer_value(member(j, "family")) == 6,
	   "test travels as its netperf name, family as 6");
	memset(&q, 0, sizeof(q));
	rc = params_from_json(j, &q, err);
	ok(rc == 0 && params_equal(&p, &q), "UDP_RR params round trip field by field (%s)", err);
	json_decref(j);

	params_default(&p);
	p.type = TEST_TCP_STREAM;
	j = wire(params_to_json(&p));
	rc = params_from_json(j, &q, err);
	ok(rc == 0 && params_equal(&p, &q) && q.family == AF_INET &&
	   q.send_size == 0 && params_send_size(&q) == 16384,
	   "TCP_STREAM defaults round trip, no -m: the sender's SO_SNDBUF, at most 16384 (%s)", err);
	json_decref(j);

	/* docs/protocol.md: send_size and recv_size 0 mean the defaults. */
	params_default(&p);
	p.type = TEST_UDP_STREAM;
	j = wire(params_to_json(&p));
	rc = params_from_json(j, &q, err);
	ok(rc == 0 && q.send_size == 0 && params_send_size(&q) == TT_MAX_UDP_MSG &&
	   params_send_size_at(&q, 212992) == TT_MAX_UDP_MSG &&
	   params_send_size_at(&q, 4608) == 4608 && params_recv_size(&q) == TT_MAX_UDP_MSG,
	   "SETUP send_size/recv_size 0 take the UDP defaults: SO_SNDBUF up to 65507 (%s)", err);
	p.lsndbuf = 32768;
	ok(params_send_size(&p) == 65507 && (p.type = TEST_TCP_STREAM, params_send_size(&p) == 65536) &&
	   params_send_size_at(&p, 65536) == 65536 && params_send_size_at(&p, -1) == 65536 &&
	   (p.send_size = 1000, params_send_size_at(&p, 65536) == 1000),
	   "-s 32K: a sender's most is twice it (65507 for UDP), -m overrides the socket's size");
	json_decref(j);
	p.type = TEST_TCP_STREAM;
	p.send_size = 1 << 20;
	j = wire(params_to_json(&p));
	rc = params_from_json(j, &q, err);
	ok(rc == 0 && q.send_size == 1 << 20 && q.recv_size == 0 &&
	   params_recv_size(&q) == TT_RECV_DEFAULT &&
	   params_recv_size_at(&q, 87380) == 87380,
	   "recv_size 0 stays 0 for TCP streams; a receiver reads its SO_RCVBUF before connect, not the send size (%s)", err);
	json_decref(j);

	p.family = 99;
	ok(params_to_json(&p) == NULL, "an unknown family cannot be encoded");
}

/* Encode good params, set (or delete, val NULL) a member, expect rc and err. */
static void params_expect(const char *what, const char *name, json_t *val,
			  int rc_want, const char *needle)
{
	struct test_params p, q;
	char err[ERR_MAX] = "";
	json_t *j;
	int rc;

	fill_params(&p);
	j = params_to_json(&p);
	if (val)
		json_object_set_new(j, name, val);
	else
		json_object_del(j, name);
	memset(&q, 0xab, sizeof(q));
	rc = params_from_json(j, &q, err);
	ok(rc == rc_want && has(err, needle), "setup %s: rc %d, err \"%s\" (got %d: %s)", what,
	   rc_want, needle, rc, err);
	if (rc)
		ok(q.flows == 0xababababu, "setup %s: output left untouched", what);
	json_decref(j);
}

static void test_params_rejections(void)
{
	struct test_params p, q;
	char err[ERR_MAX] = "";
	json_t *j;

	params_expect("missing flows", "flows", NULL, -EPROTO,
		      "setup: member 'flows' missing");
	params_expect("extra member", "colour", json_string("red"), -EPROTO,
		      "setup: unknown member 'colour'");
	params_expect("flows as a string", "flows", json_string("1"), -EPROTO,
		      "setup: member 'flows': accepted is an integer 1..1024");
	params_expect("flows 1025", "flows", json_integer(1025), -EPROTO,
		      "setup: member 'flows': accepted is an integer 1..1024");
	params_expect("flows 0", "flows", json_integer(0), -EPROTO,
		      "setup: member 'flows': accepted is an integer 1..1024");
	params_expect("flows as a real", "flows", json_real(2.0), -EPROTO,
		      "member 'flows'");
	params_expect("negative req_size", "req_size", json_integer(-1), -EPROTO,
		      "setup: member 'req_size': accepted is an integer 0..67108864");
	params_expect("huge req_size", "req_size", json_integer(1ll << 40), -EPROTO,
		      "member 'req_size'");
	params_expect("test TCP_FOO", "test", json_string("TCP_FOO"), -EPROTO,
		      "setup: member 'test': accepted are TCP_RR");
	params_expect("test in lower case", "test", json_string("udp_rr"), -EPROTO,
		      "member 'test'");
	params_expect("test with a long unknown name", "test",
		      json_string("TCP_STREAM_OVER_A_VERY_LONG_WIRE"), -EPROTO,
		      "setup: member 'test': accepted are TCP_RR");
	params_expect("test with a NUL inside", "test",
		      json_stringn("TCP_RR\0x", 8), -EPROTO,
		      "setup: member 'test': accepted are TCP_RR");
	params_expect("test as a number", "test", json_integer(0), -EPROTO,
		      "setup: member 'test': accepted is a string");
	params_expect("family 5", "family", json_integer(5), -EPROTO,
		      "setup: member 'family': accepted is 4 or 6");
	params_expect("family 2 (AF_INET)", "family", json_integer(2), -EPROTO,
		      "member 'family'");
	params_expect("duration as a string", "duration", json_string("10"),
		      -EPROTO, "setup: member 'duration': accepted is a number 0..86400");
	params_expect("duration over a day", "duration", json_real(86401),
		      -EPROTO, "member 'duration'");
	params_expect("duration 0 (params_validate)", "duration", json_integer(0),
		      -EINVAL, "setup: -l 0: accepted");
	params_expect("nodelay 1", "nodelay", json_integer(1), -EPROTO,
		      "setup: member 'nodelay': accepted is true or false");
	params_expect("lsndbuf -2", "lsndbuf", json_integer(-2), -EPROTO,
		      "member 'lsndbuf'");
	params_expect("lsndbuf 0 (params_validate)", "lsndbuf", json_integer(0),
		      -EINVAL, "setup: -s/-S 0");
	params_expect("rcpu 4096", "rcpu", json_integer(4096), -EPROTO,
		      "setup: member 'rcpu': accepted is an integer -1..4095");
	params_expect("sample_ms 5", "sample_ms", json_integer(5), -EPROTO,
		      "member 'sample_ms': accepted is an integer 10..10000");
	params_expect("resp_size 0 for an RR test (params_validate)", "resp_size",
		      json_integer(0), -EINVAL, "setup: -r 64,0");

	fill_params(&p);
	p.type = TEST_TCP_CRR;
	p.burst = 2;
	j = params_to_json(&p);
	ok(params_from_json(j, &q, err) == -EINVAL && has(err, "setup: -b: TCP_CRR"),
	   "TCP_CRR with a burst is refused by params_validate (%s)", err);
	json_decref(j);

	fill_params(&p);
	j = params_to_json(&p);
	json_object_set_new(j, "duration", json_integer(3));
	ok(params_from_json(j, &q, err) == 0 && q.duration == 3.0,
	   "an integer is taken where a real is expected");
	json_decref(j);

	j = json_array();
	ok(params_from_json(j, &q, err) == -EPROTO &&
	   !strcmp(err, "setup: accepted is a JSON object"),
	   "an array is not a setup body (%s)", err);
	json_decref(j);
}

/* --- samples ------------------------------------------------------------- */

static void fill_counters(struct flow_counters *c, uint64_t base)
{
	memset(c, 0, sizeof(*c));
	c->trans = base + 1;
	c->bytes_sent = base + (1ull << 40);
	c->bytes_recv = base + 3;
	c->msgs_sent = base + 4;
	c->msgs_recv = base + 5;
	c->lost = base + 6;
}

static void fill_lat(struct lat_summary *l, double base)
{
	l->count = (uint64_t)base * 10 + 3;
	l->min_us = base + 0.125;
	l->mean_us = base + 1.1;
	l->p50_us = base + 1.0;
	l->p90_us = base + 2.0 / 3.0;
	l->p99_us = base + 3.3;
	l->p999_us = base + 4.4;
	l->max_us = base + 5.5;
	l->stddev_us = 0.1 + base / 7;
}

static void fill_util(struct cpu_util *u, int id, double x)
{
	u->id = id;
	u->user = x;
	u->nice = x / 10;
	u->sys = x / 3;
	u->irq = 0.5;
	u->softirq = 1.25;
	u->steal = 0.0;
	u->idle = 100 - x - x / 10 - x / 3 - 1.75;
	u->iowait = 0;
	u->busy = 100 - u->idle - u->iowait;
}

static void fill_cpu(struct cpu_sample *c)
{
	memset(c, 0, sizeof(*c));
	c->ncpu = 2;
	fill_util(&c->total, -1, 20);
	fill_util(&c->cpu[0], 0, 30);
	fill_util(&c->cpu[1], 3, 10);
	c->peak_busy = c->cpu[0].busy;
	c->peak_id = 0;
}

static void fill_socks(struct sock_sample *s, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct tcp_figures *t = &s[i].tcp;

		memset(&s[i], 0, sizeof(s[i]));
		s[i].flow = i;
		s[i].sndbuf_init = 16384 + (int)i;
		s[i].rcvbuf_init = 131072 + (int)i;
		s[i].sndbuf = 4194304 - (int)i;
		s[i].rcvbuf = 2097152 - (int)i;
		s[i].outq = i == 1 ? -1 : 100 + (int)i;
		s[i].inq = i == 1 ? -1 : 7;
		if (i == n - 1)
			continue;	/* the last one is not TCP */
		t->has = true;
		t->snd_cwnd = 10 + i;
		t->rtt_us = 45 + i;
		t->rttvar_us = 12;
		t->total_retrans = i;
		t->segs_out = 1000;
		t->segs_in = 999;
		t->data_segs_out = 500;
		t->data_segs_in = 498;
		t->delivery_rate = 3000000000ull + i;
		t->notsent_bytes = 4096;
		t->rcv_space = 65483;
		t->snd_mss = 65483;
		t->rcv_mss = 536;
		/* flow 1 from a kernel without the limiter times (n/a) */
		t->has_chrono = i != 1;
		t->busy_us = t->has_chrono ? 2000000 + i : 0;
		t->rwnd_limited_us = t->has_chrono ? 1500000 : 0;
		t->sndbuf_limited_us = t->has_chrono ? 250000 : 0;
		t->app_limited = i == 0;
	}
}

static bool counters_equal(const struct flow_counters *a, const struct flow_counters *b)
{
	return a->trans == b->trans && a->bytes_sent == b->bytes_sent &&
	       a->bytes_recv == b->bytes_recv && a->msgs_sent == b->msgs_sent &&
	       a->msgs_recv == b->msgs_recv && a->lost == b->lost;
}

static bool lat_equal(const struct lat_summary *a, const struct lat_summary *b)
{
	return a->count == b->count && a->min_us == b->min_us &&
	       a->mean_us == b->mean_us && a->p50_us == b->p50_us &&
	       a->p90_us == b->p90_us && a->p99_us == b->p99_us &&
	       a->p999_us == b->p999_us && a->max_us == b->max_us &&
	       a->stddev_us == b->stddev_us;
}

static bool util_equal(const struct cpu_util *a, const struct cpu_util *b)
{
	return a->id == b->id && a->user == b->user && a->nice == b->nice &&
	       a->sys == b->sys && a->irq == b->irq && a->softirq == b->softirq &&
	       a->steal == b->steal && a->idle == b->idle &&
	       a->iowait == b->iowait && a->busy == b->busy;
}

static bool cpu_equal(const struct cpu_sample *a, const struct cpu_sample *b)
{
	if (a->ncpu != b->ncpu || !util_equal(&a->total, &b->total) ||
	    a->peak_busy != b->peak_busy || a->peak_id != b->peak_id)
		return false;
	for (unsigned i = 0; i < a->ncpu; i++)
		if (!util_equal(&a->cpu[i], &b->cpu[i]))
			return false;
	return true;
}

static bool tcp_equal(const struct tcp_figures *a, const struct tcp_figures *b)
{
	if (a->has != b->has)
		return false;
	return !a->has ||
	       (a->snd_cwnd == b->snd_cwnd && a->rtt_us == b->rtt_us &&
		a->rttvar_us == b->rttvar_us && a->total_retrans == b->total_retrans &&
		a->segs_out == b->segs_out && a->segs_in == b->segs_in &&
		a->data_segs_out == b->data_segs_out &&
		a->data_segs_in == b->data_segs_in &&
		a->delivery_rate == b->delivery_rate &&
		a->notsent_bytes == b->notsent_bytes &&
		a->rcv_space == b->rcv_space && a->snd_mss == b->snd_mss &&
		a->rcv_mss == b->rcv_mss && a->has_chrono == b->has_chrono &&
		a->busy_us == b->busy_us &&
		a->rwnd_limited_us == b->rwnd_limited_us &&
		a->sndbuf_limited_us == b->sndbuf_limited_us &&
		a->app_limited == b->app_limited);
}

static bool socks_equal(const struct sock_sample *a, const struct sock_sample *b,
			unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (a[i].flow != b[i].flow || a[i].sndbuf_init != b[i].sndbuf_init ||
		    a[i].rcvbuf_init != b[i].rcvbuf_init ||
		    a[i].sndbuf != b[i].sndbuf || a[i].rcvbuf != b[i].rcvbuf ||
		    a[i].outq != b[i].outq || a[i].inq != b[i].inq ||
		    !tcp_equal(&a[i].tcp, &b[i].tcp))
			return false;
	return true;
}

static struct sock_sample sock_fixture[3];

/* Two CPUs (ids 0 and 3) of interrupt and softirq rates on "eth0". */
static void fill_irq(char *dev, struct irq_sample *q)
{
	strcpy(dev, "eth0");
	memset(q, 0, sizeof(*q));
	q->ncpu = 2;
	q->nlines = 3;
	q->id[0] = 0;
	q->id[1] = 3;
	q->irq_rate[0] = 1500.5;
	q->irq_rate[1] = 20;
	q->rx_rate[0] = 900;
	q->rx_rate[1] = 1.25;
	q->tx_rate[1] = 7;
	q->irq_total = 1520.5;
	q->rx_total = 901.25;
	q->tx_total = 7;
}

static bool irq_equal(const struct irq_sample *a, const struct irq_sample *b)
{
	if (a->ncpu != b->ncpu || a->nlines != b->nlines || a->irq_total != b->irq_total ||
	    a->rx_total != b->rx_total || a->tx_total != b->tx_total)
		return false;
	for (unsigned i = 0; i < a->ncpu; i++)
		if (a->id[i] != b->id[i] || a->irq_rate[i] != b->irq_rate[i] ||
		    a->rx_rate[i] != b->rx_rate[i] || a->tx_rate[i] != b->tx_rate[i])
			return false;
	return true;
}

static void fill_sample(struct end_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->seq = 7;
	s->t = 1.25;
	s->iv_secs = 0.1000003;
	fill_counters(&s->total, 1000);
	fill_counters(&s->iv, 10);
	s->rate = 12345.678;
	s->has_lat = true;
	fill_lat(&s->lat_iv, 40);
	fill_lat(&s->lat_total, 45);
	fill_socks(sock_fixture, 3);
	s->nsocks = 3;
	s->socks = sock_fixture;
	fill_cpu(&s->cpu);
	s->ctx_vol = 123456789012ull;
	s->ctx_invol = 17;
	s->iv_ctx_vol = 1234;
	s->iv_ctx_invol = 2;
	fill_irq(s->irq_dev, &s->irq);
}

static bool sample_equal(const struct end_sample *a, const struct end_sample *b)
{
	return a->seq == b->seq && a->t == b->t && a->iv_secs == b->iv_secs &&
	       counters_equal(&a->total, &b->total) &&
	       counters_equal(&a->iv, &b->iv) && a->rate == b->rate &&
	       a->has_lat == b->has_lat &&
	       (!a->has_lat || (lat_equal(&a->lat_iv, &b->lat_iv) &&
				lat_equal(&a->lat_total, &b->lat_total))) &&
	       a->nsocks == b->nsocks && socks_equal(a->socks, b->socks, a->nsocks) &&
	       cpu_equal(&a->cpu, &b->cpu) && a->ctx_vol == b->ctx_vol &&
	       a->ctx_invol == b->ctx_invol && a->iv_ctx_vol == b->iv_ctx_vol &&
	       a->iv_ctx_invol == b->iv_ctx_invol && !strcmp(a->irq_dev, b->irq_dev) &&
	       irq_equal(&a->irq, &b->irq);
}

static void test_sample_round_trip(void)
{
	struct end_sample s, d;
	char err[ERR_MAX] = "";
	json_t *j;
	int rc;

	fill_sample(&s);
	j = wire(sample_to_json(&s));
	ok(j != NULL, "a sample encodes");
	rc = sample_from_json(j, &d, err);
	ok(rc == 0 && sample_equal(&s, &d), "a sample round trips field by field (%s)", err);
	ok(d.socks != s.socks && d.socks && !d.socks[2].tcp.has && d.socks[0].tcp.has,
	   "decoded socks are a new array; the non-TCP socket has no tcp figures");
	sample_free(&d);
	ok(d.socks == NULL && d.nsocks == 0, "sample_free clears socks");
	json_decref(j);

	s.has_lat = false;
	s.nsocks = 0;
	s.socks = NULL;
	s.cpu.ncpu = 0;
	j = wire(sample_to_json(&s));
	ok(j && json_is_null(member(j, "lat_iv")) &&
	   json_array_size(member(member(j, "cpu"), "cpus")) == 0,
	   "no latency encodes as null, no CPUs as []");
	rc = sample_from_json(j, &d, err);
	ok(rc == 0 && sample_equal(&s, &d) && !d.has_lat && d.socks == NULL,
	   "a sample without latency or sockets round trips (%s)", err);
	json_decref(j);
}

typedef void (*mutate_fn)(json_t *j);

static void sample_expect(const char *what, mutate_fn fn, const char *needle)
{
	struct end_sample s, d;
	char err[ERR_MAX] = "";
	json_t *j;
	int rc;

	fill_sample(&s);
	j = sample_to_json(&s);
	fn(j);
	rc = sample_from_json(j, &d, err);
	ok(rc == -EPROTO && has(err, needle), "sample %s: -EPROTO, \"%s\" (got %d: %s)",
	   what, needle, rc, err);
	ok(d.socks == NULL && d.nsocks == 0, "sample %s: nothing left allocated", what);
	json_decref(j);
}

static json_t *sock_of(json_t *j, size_t i)
{
	return json_array_get(member(j, "socks"), i);
}

static json_t *cpu_of(json_t *j, size_t i)
{
	return json_array_get(member(member(j, "cpu"), "cpus"), i);
}

static void m_nsocks(json_t *j) { json_object_set_new(j, "nsocks", json_integer(2)); }
static void m_nsocks_big(json_t *j) { json_object_set_new(j, "nsocks", json_integer(1025)); }
static void m_sock_missing(json_t *j) { json_object_del(sock_of(j, 1), "inq"); }
static void m_tcp_extra(json_t *j) { json_object_set_new(member(sock_of(j, 0), "tcp"), "foo", json_true()); }
static void m_tcp_array(json_t *j) { json_object_set_new(sock_of(j, 0), "tcp", json_array()); }
static void m_sock_flow(json_t *j) { json_object_set_new(sock_of(j, 0), "flow", json_integer(1024)); }
static void m_sndbuf(json_t *j) { json_object_set_new(sock_of(j, 2), "sndbuf", json_integer(-2)); }
static void m_neg_total(json_t *j) { json_object_set_new(member(j, "total"), "trans", json_integer(-1)); }
static void m_ncpu_big(json_t *j) { json_object_set_new(member(j, "cpu"), "ncpu", json_integer(300)); }
static void m_ncpu_3(json_t *j) { json_object_set_new(member(j, "cpu"), "ncpu", json_integer(3)); }
static void m_busy(json_t *j) { json_object_set_new(cpu_of(j, 1), "busy", json_real(100.5)); }
static void m_cpu_id(json_t *j) { json_object_set_new(cpu_of(j, 0), "id", json_integer(-1)); }
static void m_lat_mixed(json_t *j) { json_object_set_new(j, "lat_iv", json_null()); }
static void m_lat_neg(json_t *j) { json_object_set_new(member(j, "lat_total"), "p99_us", json_real(-0.5)); }
static void m_rate_str(json_t *j) { json_object_set_new(j, "rate", json_string("fast")); }
static void m_extra(json_t *j) { json_object_set_new(j, "nsock", json_integer(3)); }
static void m_missing(json_t *j) { json_object_del(j, "iv_ctx_invol"); }
static void m_bool_num(json_t *j) { json_object_set_new(j, "seq", json_true()); }

static void test_sample_rejections(void)
{
	sample_expect("nsocks 2 with 3 socks", m_nsocks,
		      "sample: member 'socks': accepted is an array of 2 elements");
	sample_expect("nsocks 1025", m_nsocks_big,
		      "sample: member 'nsocks': accepted is an integer 0..1024");
	sample_expect("sock without inq", m_sock_missing,
		      "sample.socks[1]: member 'inq' missing");
	sample_expect("unknown tcp figure", m_tcp_extra,
		      "sample.socks[0].tcp: unknown member 'foo'");
	sample_expect("tcp as an array", m_tcp_array,
		      "sample.socks[0]: member 'tcp': accepted is an object or null");
	sample_expect("flow 1024", m_sock_flow,
		      "sample.socks[0]: member 'flow': accepted is an integer 0..1023");
	sample_expect("sndbuf -2", m_sndbuf, "sample.socks[2]: member 'sndbuf'");
	sample_expect("negative trans", m_neg_total,
		      "sample.total: member 'trans': accepted is an integer >= 0");
	sample_expect("ncpu 300", m_ncpu_big,
		      "sample.cpu: member 'ncpu': accepted is an integer 0..256");
	sample_expect("ncpu 3 with 2 CPUs", m_ncpu_3,
		      "sample.cpu: member 'cpus': accepted is an array of 3 elements");
	sample_expect("busy 100.5 %", m_busy,
		      "sample.cpu.cpus[1]: member 'busy': accepted is a number 0..100");
	sample_expect("a CPU with id -1", m_cpu_id,
		      "sample.cpu.cpus[0]: member 'id'");
	sample_expect("lat_iv null, lat_total not", m_lat_mixed,
		      "accepted is both objects or both null");
	sample_expect("negative p99", m_lat_neg,
		      "sample.lat_total: member 'p99_us': accepted is a number >= 0");
	sample_expect("rate as a string", m_rate_str,
		      "sample: member 'rate': accepted is a number >= 0");
	sample_expect("an unknown member", m_extra, "sample: unknown member 'nsock'");
	sample_expect("a missing member", m_missing,
		      "sample: member 'iv_ctx_invol' missing");
	sample_expect("seq as true", m_bool_num, "sample: member 'seq'");
}

static void test_sample_encoder_refuses_what_json_cannot_carry(void)
{
	struct end_sample s;
	json_t *j;

	fill_sample(&s);
	s.rate = NAN;
	ok(sample_to_json(&s) == NULL, "a NaN rate is not encoded");
	fill_sample(&s);
	s.total.bytes_sent = UINT64_MAX;
	ok(sample_to_json(&s) == NULL, "a counter above 2^63-1 is not encoded");
	fill_sample(&s);
	s.total.bytes_sent = INT64_MAX;
	j = sample_to_json(&s);
	ok(j != NULL, "a counter of 2^63-1 is encoded");
	json_decref(j);
	fill_sample(&s);
	s.socks = NULL;
	ok(sample_to_json(&s) == NULL, "nsocks without socks is not encoded");
	fill_sample(&s);
	s.cpu.ncpu = TT_MAX_CPUS + 1;
	ok(cpu_to_json(&s.cpu) == NULL, "more than TT_MAX_CPUS CPUs are not encoded");
}

static void test_cli_helpers_use_readable_names(void)
{
	struct end_sample s;
	json_t *l, *c, *k, *so;

	fill_sample(&s);
	l = lat_to_json(&s.lat_total);
	c = cpu_to_json(&s.cpu);
	k = counters_to_json(&s.total);
	so = socks_to_json(s.socks, s.nsocks);
	ok(l && json_real_value(member(l, "p99_us")) == s.lat_total.p99_us &&
	   json_integer_value(member(l, "count")) == (json_int_t)s.lat_total.count,
	   "lat_to_json has p99_us and count");
	ok(c && json_array_size(member(c, "cpus")) == 2 &&
	   json_integer_value(member(json_array_get(member(c, "cpus"), 1), "id")) == 3 &&
	   json_real_value(member(c, "peak_busy")) == s.cpu.peak_busy &&
	   json_integer_value(member(c, "peak_id")) == 0 &&
	   json_real_value(member(member(c, "total"), "steal")) == 0.0,
	   "cpu_to_json lists only ncpu CPUs, with busy/steal/peak names");
	ok(k && json_integer_value(member(k, "trans")) == 1001 &&
	   json_integer_value(member(k, "bytes_sent")) == (json_int_t)(1000 + (1ull << 40)),
	   "counters_to_json has trans and bytes_sent");
	ok(so && json_array_size(so) == 3 &&
	   json_integer_value(member(json_array_get(so, 0), "sndbuf_init")) == 16384 &&
	   json_integer_value(member(member(json_array_get(so, 1), "tcp"), "cwnd")) == 11 &&
	   json_integer_value(member(member(json_array_get(so, 1), "tcp"), "rtt_us")) == 46 &&
	   json_integer_value(member(member(json_array_get(so, 0), "tcp"), "delivery_rate")) == 3000000000ll &&
	   json_is_null(member(json_array_get(so, 2), "tcp")),
	   "socks_to_json has sndbuf_init, tcp.cwnd, tcp.rtt_us, tcp.delivery_rate; null tcp when not TCP");
	json_decref(l);
	json_decref(c);
	json_decref(k);
	json_decref(so);
}

static void test_sample_copy_is_deep(void)
{
	struct end_sample s, d;
	int rc;

	fill_sample(&s);
	rc = sample_copy(&d, &s);
	ok(rc == 0 && d.socks != s.socks && sample_equal(&s, &d),
	   "sample_copy gives an equal sample with its own socks");
	d.socks[0].sndbuf = 1;
	ok(s.socks[0].sndbuf != 1, "changing the copy leaves the original alone");
	sample_free(&d);
	s.nsocks = 0;
	s.socks = NULL;
	rc = sample_copy(&d, &s);
	ok(rc == 0 && d.socks == NULL && d.nsocks == 0, "a sample without socks copies");
}

/* --- results ------------------------------------------------------------- */

static struct hist hist_fixture;

static void fill_result(struct end_result *r, bool with_hist)
{
	static const uint64_t v[] = {
		0, 1, 127, 128, 129, 1000, 12345, 45000, 45001, 999999,
		5000000000ull, 1ull << 40, UINT64_MAX / 4,
	};

	memset(r, 0, sizeof(*r));
	r->elapsed = 10.000123;
	fill_counters(&r->total, 77);
	hist_init(&hist_fixture);
	for (unsigned i = 0; i < sizeof(v) / sizeof(*v); i++)
		for (unsigned k = 0; k <= i; k++)
			hist_record(&hist_fixture, v[i] / 1024 + k);
	r->has_lat = true;
	hist_summary(&hist_fixture, &r->lat);
	r->hist = with_hist ? &hist_fixture : NULL;
	fill_socks(sock_fixture, 2);
	r->nsocks = 2;
	r->socks = sock_fixture;
	fill_cpu(&r->cpu);
	r->ctx_vol = 99;
	r->ctx_invol = 3;
	r->strays = 105;
	r->cpu_bind = 1;
	strcpy(r->host, "lab-b.example");
	fill_irq(r->irq_dev, &r->irq);
	strcpy(r->cong_control, "cubic");
}

static bool hist_equal(const struct hist *a, const struct hist *b)
{
	if (a->count != b->count || a->sum_ns != b->sum_ns ||
	    a->min_ns != b->min_ns || a->max_ns != b->max_ns)
		return false;
	return !memcmp(a->b, b->b, sizeof(a->b));
}

static bool result_equal(const struct end_result *a, const struct end_result *b)
{
	return a->elapsed == b->elapsed && counters_equal(&a->total, &b->total) &&
	       a->has_lat == b->has_lat && (!a->has_lat || lat_equal(&a->lat, &b->lat)) &&
	       !a->hist == !b->hist && (!a->hist || hist_equal(a->hist, b->hist)) &&
	       a->nsocks == b->nsocks && socks_equal(a->socks, b->socks, a->nsocks) &&
	       cpu_equal(&a->cpu, &b->cpu) && a->ctx_vol == b->ctx_vol &&
	       a->ctx_invol == b->ctx_invol && a->strays == b->strays &&
	       a->cpu_bind == b->cpu_bind &&
	       !strcmp(a->host, b->host) && !strcmp(a->irq_dev, b->irq_dev) &&
	       irq_equal(&a->irq, &b->irq) && !strcmp(a->cong_control, b->cong_control);
}

static void test_result_round_trip(void)
{
	struct end_result r, d;
	struct hist empty;
	char err[ERR_MAX] = "";
	json_t *j, *pairs;
	int rc;

	fill_result(&r, true);
	j = wire(result_to_json(&r));
	pairs = member(member(j, "hist"), "buckets");
	ok(j && json_is_array(pairs) && json_array_size(pairs) > 3 &&
	   json_array_size(pairs) < 60 &&
	   json_array_size(json_array_get(pairs, 0)) == 2,
	   "the histogram travels as sparse [index, count] pairs (%zu)",
	   json_array_size(pairs));
	rc = result_from_json(j, &d, err);
	ok(rc == 0 && result_equal(&r, &d),
	   "a result with its histogram round trips, every bucket (%s)", err);
	ok(d.hist && d.hist != r.hist && d.hist->b[HIST_BUCKETS - 1] > 0,
	   "the decoded histogram is new and keeps the last (open) bucket");
	result_free(&d);
	ok(d.hist == NULL && d.socks == NULL, "result_free clears hist and socks");
	json_decref(j);

	hist_init(&empty);
	r.hist = &empty;
	j = wire(result_to_json(&r));
	ok(j && json_is_null(member(member(j, "hist"), "min_ns")),
	   "an empty histogram has null min_ns");
	rc = result_from_json(j, &d, err);
	ok(rc == 0 && result_equal(&r, &d) && d.hist->min_ns == UINT64_MAX,
	   "an empty histogram round trips (%s)", err);
	result_free(&d);
	json_decref(j);

	fill_result(&r, false);
	r.has_lat = false;
	r.nsocks = 0;
	r.socks = NULL;
	j = wire(result_to_json(&r));
	rc = result_from_json(j, &d, err);
	ok(rc == 0 && result_equal(&r, &d) && !d.has_lat && !d.hist,
	   "a result without latency, histogram or sockets round trips (%s)", err);
	result_free(&d);
	json_decref(j);
}

static void result_expect(const char *what, mutate_fn fn, const char *needle)
{
	struct end_result r, d;
	char err[ERR_MAX] = "";
	json_t *j;
	int rc;

	fill_result(&r, true);
	j = result_to_json(&r);
	fn(j);
	rc = result_from_json(j, &d, err);
	ok(rc == -EPROTO && has(err, needle), "result %s: -EPROTO, \"%s\" (got %d: %s)",
	   what, needle, rc, err);
	ok(d.hist == NULL && d.socks == NULL, "result %s: nothing left allocated", what);
	json_decref(j);
}

static json_t *pairs_of(json_t *j)
{
	return member(member(j, "hist"), "buckets");
}

static void m_hist_index(json_t *j)
{
	json_t *pairs = pairs_of(j), *last = json_array_get(pairs, json_array_size(pairs) - 1);

	json_array_set_new(last, 0, json_integer(HIST_BUCKETS));
}

static void m_hist_sum(json_t *j)
{
	json_t *h = member(j, "hist");

	json_object_set_new(h, "count", json_integer(json_integer_value(member(h, "count")) + 1));
}

static void m_hist_order(json_t *j)
{
	json_t *pairs = pairs_of(j), *first = json_incref(json_array_get(pairs, 0));

	json_array_remove(pairs, 0);
	json_array_append_new(pairs, first);
}

static void m_hist_zero(json_t *j) { json_array_set_new(json_array_get(pairs_of(j), 0), 1, json_integer(0)); }
static void m_hist_pair(json_t *j) { json_array_set_new(pairs_of(j), 0, json_pack("[iii]", 1, 2, 3)); }
static void m_hist_min(json_t *j) { json_object_set_new(member(j, "hist"), "min_ns", json_integer(1000000)); }
static void m_hist_min_null(json_t *j) { json_object_set_new(member(j, "hist"), "min_ns", json_null()); }
static void m_hist_obj(json_t *j) { json_object_set_new(member(j, "hist"), "buckets", json_object()); }
static void m_host_long(json_t *j) { json_object_set_new(j, "host", json_string("0123456789012345678901234567890123456789012345678901234567890123")); }
static void m_cpu_bind(json_t *j) { json_object_set_new(j, "cpu_bind", json_integer(5000)); }
static void m_res_nsocks(json_t *j) { json_object_set_new(j, "nsocks", json_integer(3)); }
static void m_res_lat(json_t *j) { json_object_set_new(j, "lat", json_string("none")); }

static void test_result_rejections(void)
{
	char want[ERR_MAX];

	snprintf(want, sizeof(want), "index %u: accepted is 0..%u", HIST_BUCKETS,
		 HIST_BUCKETS - 1);
	result_expect("histogram index out of range", m_hist_index, want);
	result_expect("histogram counts not summing to count", m_hist_sum,
		      "result.hist: bucket counts sum to");
	result_expect("histogram indexes not rising", m_hist_order,
		      "accepted is above the previous index");
	result_expect("histogram bucket of count 0", m_hist_zero,
		      "count 0: accepted is an integer >= 1");
	result_expect("histogram triple", m_hist_pair,
		      "result.hist: buckets[0]: accepted is an [index, count] pair");
	result_expect("histogram min above its lowest bucket", m_hist_min,
		      "accepted are values that bound the occupied buckets");
	result_expect("histogram null min with records", m_hist_min_null,
		      "result.hist: member 'min_ns': accepted is an integer >= 0 when count is above 0");
	result_expect("histogram buckets as an object", m_hist_obj,
		      "member 'buckets': accepted is an array");
	result_expect("host of 64 bytes", m_host_long,
		      "result: member 'host': accepted is a string of 0..63 bytes");
	result_expect("cpu_bind 5000", m_cpu_bind, "result: member 'cpu_bind'");
	result_expect("nsocks 3 with 2 socks", m_res_nsocks,
		      "member 'socks': accepted is an array of 3 elements");
	result_expect("lat as a string", m_res_lat,
		      "result: member 'lat': accepted is an object or null");
}

/* --- the small bodies ------------------------------------------------------ */

static void test_small_bodies(void)
{
	struct msg_hello h = { "tunetop", "0.1.0" }, h2;
	struct msg_hello_ok o = { "tunetopd", "0.1.0", "lab-b", 2 }, o2;
	struct msg_ready rd = { .nports = 2, .ports = { 12867, 12868 } }, rd2 = { 0 };
	struct msg_stop st = { .elapsed = 10.5 }, st2;
	struct msg_error e;
	char err[ERR_MAX] = "", longmsg[300];
	json_t *j;
	int rc;

	j = wire(msg_hello_to_json(&h));
	rc = msg_hello_from_json(j, &h2, err);
	ok(rc == 0 && !strcmp(h2.name, "tunetop") && !strcmp(h2.version, "0.1.0"),
	   "HELLO round trips (%s)", err);
	json_object_set_new(j, "name", json_string(""));
	ok(msg_hello_from_json(j, &h2, err) == -EPROTO &&
	   has(err, "hello: member 'name': accepted is a string of 1..63 bytes"),
	   "HELLO with an empty name is refused (%s)", err);
	json_decref(j);

	j = wire(msg_hello_ok_to_json(&o));
	rc = msg_hello_ok_from_json(j, &o2, err);
	ok(rc == 0 && !strcmp(o2.name, "tunetopd") && !strcmp(o2.host, "lab-b") &&
	   o2.ncpu == 2, "HELLO_OK round trips (%s)", err);
	json_object_set_new(j, "ncpu", json_integer(0));
	ok(msg_hello_ok_from_json(j, &o2, err) == -EPROTO &&
	   has(err, "hello_ok: member 'ncpu': accepted is an integer 1..65535"),
	   "HELLO_OK with 0 CPUs is refused (%s)", err);
	json_decref(j);

	j = wire(msg_ready_to_json(&rd));
	rc = msg_ready_from_json(j, &rd2, 2, err);
	ok(rc == 0 && rd2.nports == 2 && rd2.ports[0] == 12867 && rd2.ports[1] == 12868,
	   "READY round trips (%s)", err);
	ok(msg_ready_from_json(j, &rd2, 3, err) == -EPROTO &&
	   has(err, "ready: member 'ports': accepted is an array of 3 elements"),
	   "READY with fewer ports than flows is refused (%s)", err);
	json_array_set_new(json_object_get(j, "ports"), 1, json_integer(65536));
	ok(msg_ready_from_json(j, &rd2, 2, err) == -EPROTO && rd2.ports[1] == 12868 &&
	   has(err, "ready: member 'ports[1]': accepted is an integer 1..65535"),
	   "READY with port 65536 is refused, output untouched (%s)", err);
	json_decref(j);
	rd.ports[1] = 0;
	ok(msg_ready_to_json(&rd) == NULL, "READY with port 0 is not encoded");

	fill_counters(&st.total, 5);
	j = wire(msg_stop_to_json(&st));
	rc = msg_stop_from_json(j, &st2, err);
	ok(rc == 0 && st2.elapsed == 10.5 && counters_equal(&st.total, &st2.total),
	   "STOP round trips with the client's counts (%s)", err);
	json_object_del(member(j, "total"), "msgs_sent");
	ok(msg_stop_from_json(j, &st2, err) == -EPROTO &&
	   has(err, "stop.total: member 'msgs_sent' missing"),
	   "STOP without msgs_sent is refused (%s)", err);
	json_decref(j);

	j = json_pack("{s:s,s:s}", "code", "version", "message", "server speaks 2");
	rc = msg_error_from_json(j, &e, err);
	ok(rc == 0 && !strcmp(e.code, "version") && !strcmp(e.message, "server speaks 2"),
	   "ERROR decodes code and message");
	json_decref(j);
	j = json_pack("{s:s,s:s}", "code", "oops", "message", "x");
	ok(msg_error_from_json(j, &e, err) == -EPROTO &&
	   has(err, "error: member 'code': accepted are busy, version"),
	   "ERROR with an unknown code is refused (%s)", err);
	json_decref(j);

	memset(longmsg, 'a', 254);
	strcpy(longmsg + 254, "\xc3\xa9 and more");
	j = json_pack("{s:s,s:s}", "code", "internal", "message", longmsg);
	rc = msg_error_from_json(j, &e, err);
	ok(rc == 0 && strlen(e.message) == 254 && e.message[253] == 'a',
	   "a long ERROR message is cut before a split UTF-8 character (%zu)",
	   strlen(e.message));
	json_decref(j);

	/* A rewriting proxy's escapes: every wire string arrives escaped. */
	j = json_pack("{s:s,s:s,s:s,s:i}", "name", "tunetopd", "version", "0.1\n2",
		      "host", "\x1b]0;pwned\x07\x1b[31mevil\nhost", "ncpu", 2);
	rc = msg_hello_ok_from_json(j, &o2, err);
	ok(rc == 0 && !strcmp(o2.host, "\\x1b]0;pwned\\x07\\x1b[31mevil\\x0ahost") &&
	   !strcmp(o2.version, "0.1\\x0a2"),
	   "HELLO_OK: control characters in host and version arrive escaped (%s)", o2.host);
	json_decref(j);
	j = json_pack("{s:s,s:s}", "code", "internal", "message", "a\x1b[2Jb\rc");
	rc = msg_error_from_json(j, &e, err);
	ok(rc == 0 && !strcmp(e.message, "a\\x1b[2Jb\\x0dc"),
	   "ERROR: control characters in the message arrive escaped (%s)", e.message);
	json_decref(j);
	j = json_pack("{s:s,s:s,s:s,s:i}", "name", "tunetopd", "version", "1",
		      "host", "h", "ncpu", 2);
	json_object_set_new(j, "x\x1b[31m", json_true());
	ok(msg_hello_ok_from_json(j, &o2, err) == -EPROTO &&
	   has(err, "unknown member 'x\\x1b[31m'"),
	   "an unknown member's name is escaped in the error (%s)", err);
	json_decref(j);

	j = json_object();
	ok(msg_empty_from_json(j, "go", err) == 0, "GO {} is accepted");
	json_object_set_new(j, "now", json_true());
	ok(msg_empty_from_json(j, "bye", err) == -EPROTO &&
	   !strcmp(err, "bye: unknown member 'now'"),
	   "BYE with a member is refused (%s)", err);
	json_decref(j);
}

/* --- remote knobs ---------------------------------------------------------- */

/* The JSON text t, parsed strictly (NULL if it is not JSON). */
static json_t *parse(const char *t)
{
	return json_loads(t, JSON_REJECT_DUPLICATES, NULL);
}

static void test_knob_get(void)
{
	struct msg_knob_get *q = calloc(1, sizeof(*q)), *b = calloc(1, sizeof(*b));
	char err[ERR_MAX] = "";
	json_t *j;
	int rc;

	q->n = 2;
	strcpy(q->names[0], "rx-usecs");
	strcpy(q->names[1], "net.ipv4.tcp_reordering");
	strcpy(q->dev, "eth0");
	j = wire(msg_knob_get_to_json(q));
	rc = msg_knob_get_from_json(j, b, err);
	ok(rc == 0 && b->n == 2 && !strcmp(b->names[0], "rx-usecs") &&
	   !strcmp(b->names[1], "net.ipv4.tcp_reordering") && !strcmp(b->dev, "eth0"),
	   "KNOB_GET round trip keeps names and dev (%d: %s)", rc, err);
	json_decref(j);

	j = parse("{\"names\": [], \"dev\": \"\"}");
	ok(msg_knob_get_from_json(j, b, err) == 0 && b->n == 0 && !b->dev[0],
	   "KNOB_GET with no names (every knob) and dev \"\" is accepted");
	json_decref(j);

	j = parse("{\"names\": [\"\"], \"dev\": \"\"}");
	rc = msg_knob_get_from_json(j, b, err);
	ok(rc == -EPROTO && has(err, "names[0]") && b->n == 0,
	   "KNOB_GET with an empty name is refused: %s", err);
	json_decref(j);
	j = parse("{\"names\": [3], \"dev\": \"\"}");
	ok(msg_knob_get_from_json(j, b, err) == -EPROTO && has(err, "names[0]"),
	   "KNOB_GET with a name that is not a string is refused: %s", err);
	json_decref(j);
	j = parse("{\"names\": []}");
	ok(msg_knob_get_from_json(j, b, err) == -EPROTO && has(err, "'dev' missing"),
	   "KNOB_GET without dev is refused: %s", err);
	json_decref(j);
	j = parse("{\"names\": [], \"dev\": \"0123456789012345678901234567890123\"}");
	ok(msg_knob_get_from_json(j, b, err) == -EPROTO && has(err, "'dev'"),
	   "KNOB_GET with a dev name of 34 bytes is refused: %s", err);
	json_decref(j);
	j = parse("{\"names\": [], \"dev\": \"\", \"all\": true}");
	ok(msg_knob_get_from_json(j, b, err) == -EPROTO && has(err, "unknown member 'all'"),
	   "KNOB_GET with an unknown member is refused: %s", err);
	json_decref(j);
	j = json_object();
	json_object_set_new(j, "dev", json_string(""));
	json_object_set_new(j, "names", json_array());
	for (int i = 0; i < MSG_KNOBS_MAX + 1; i++)
		json_array_append_new(json_object_get(j, "names"), json_string("gro"));
	ok(msg_knob_get_from_json(j, b, err) == -EPROTO && has(err, "0..256"),
	   "KNOB_GET with %d names is refused: %s", MSG_KNOBS_MAX + 1, err);
	json_decref(j);
	free(q);
	free(b);
}

static void test_knob_values(void)
{
	struct msg_knob_values *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	char err[ERR_MAX] = "";
	json_t *j;
	int rc;

	a->n = 2;
	strcpy(a->v[0].name, "rx-usecs");
	strcpy(a->v[0].reason, "veth: coalescing not supported");
	strcpy(a->v[1].name, "gro");
	a->v[1].present = true;
	strcpy(a->v[1].text, "on");
	j = wire(msg_knob_values_to_json(a));
	rc = msg_knob_values_from_json(j, b, err);
	ok(rc == 0 && b->n == 2 && !b->v[0].present && !b->v[0].text[0] &&
	   !strcmp(b->v[0].reason, a->v[0].reason) && b->v[1].present &&
	   !strcmp(b->v[1].text, "on") && !strcmp(b->v[1].name, "gro"),
	   "KNOB_VALUES round trip keeps n/a with its reason and present values (%d: %s)", rc, err);
	json_decref(j);

	j = parse("{\"values\": [{\"name\": \"gro\", \"present\": true, \"text\": \"\", \"reason\": \"\"}]}");
	ok(msg_knob_values_from_json(j, b, err) == -EPROTO && has(err, "values[0]") && b->n == 0,
	   "KNOB_VALUES present with an empty text is refused: %s", err);
	json_decref(j);
	j = parse("{\"values\": [{\"name\": \"gro\", \"present\": false, \"text\": \"0\", \"reason\": \"n/a\"}]}");
	ok(msg_knob_values_from_json(j, b, err) == -EPROTO,
	   "KNOB_VALUES not present with a text (a 0 that is not a value) is refused: %s", err);
	json_decref(j);
	j = parse("{\"values\": [{\"name\": \"gro\", \"present\": \"yes\", \"text\": \"on\", \"reason\": \"\"}]}");
	ok(msg_knob_values_from_json(j, b, err) == -EPROTO && has(err, "'present'"),
	   "KNOB_VALUES with present not a boolean is refused: %s", err);
	json_decref(j);
	j = parse("{\"values\": [{\"name\": \"gro\", \"present\": true, \"text\": \"on\"}]}");
	ok(msg_knob_values_from_json(j, b, err) == -EPROTO && has(err, "'reason' missing"),
	   "KNOB_VALUES without reason is refused: %s", err);
	json_decref(j);
	free(a);
	free(b);
}

static void test_knob_set_and_result(void)
{
	struct msg_knob_set *q = calloc(1, sizeof(*q)), *qb = calloc(1, sizeof(*qb));
	struct msg_knob_result *a = calloc(1, sizeof(*a)), *ab = calloc(1, sizeof(*ab));
	char err[ERR_MAX] = "";
	json_t *j;
	int rc;

	q->n = 2;
	strcpy(q->s[0].name, "rx-usecs");
	strcpy(q->s[0].value, "64");
	strcpy(q->s[1].name, "gro");
	strcpy(q->s[1].value, "off");
	strcpy(q->dev, "eth1");
	j = wire(msg_knob_set_to_json(q));
	rc = msg_knob_set_from_json(j, qb, err);
	ok(rc == 0 && qb->n == 2 && !strcmp(qb->s[0].value, "64") &&
	   !strcmp(qb->s[1].name, "gro") && !strcmp(qb->dev, "eth1"),
	   "KNOB_SET round trip keeps settings and dev (%d: %s)", rc, err);
	json_decref(j);
	strcpy(q->s[0].value, "64\nfake log line");
	strcpy(q->s[1].name, "gro\x1b[8m");
	j = wire(msg_knob_set_to_json(q));
	rc = msg_knob_set_from_json(j, qb, err);
	ok(rc == 0 && !strcmp(qb->s[0].value, "64\\x0afake log line") &&
	   !strcmp(qb->s[1].name, "gro\\x1b[8m"),
	   "KNOB_SET: a newline in a value and an escape in a name arrive escaped (%s, %s)",
	   qb->s[0].value, qb->s[1].name);
	json_decref(j);
	q->n = 0;
	ok(msg_knob_set_to_json(q) == NULL, "KNOB_SET with no settings is not encoded");
	j = parse("{\"settings\": [], \"dev\": \"\"}");
	ok(msg_knob_set_from_json(j, qb, err) == -EPROTO && has(err, "1..256"),
	   "KNOB_SET with no settings is refused: %s", err);
	json_decref(j);
	j = parse("{\"settings\": [{\"name\": \"gro\", \"value\": \"\"}], \"dev\": \"\"}");
	ok(msg_knob_set_from_json(j, qb, err) == -EPROTO && has(err, "settings[0]") && qb->n == 0,
	   "KNOB_SET with an empty value is refused: %s", err);
	json_decref(j);
	j = parse("{\"settings\": [{\"name\": \"gro\", \"value\": \"on\", \"force\": true}], \"dev\": \"\"}");
	ok(msg_knob_set_from_json(j, qb, err) == -EPROTO && has(err, "unknown member 'force'"),
	   "KNOB_SET with an unknown member in a setting is refused: %s", err);
	json_decref(j);

	a->n = 2;
	strcpy(a->r[0].name, "rx-usecs");
	a->r[0].ok = true;
	strcpy(a->r[0].before, "0");
	strcpy(a->r[0].after, "64");
	strcpy(a->r[1].name, "gro");
	strcpy(a->r[1].before, "on");
	strcpy(a->r[1].error, "gro: Operation not supported");
	j = wire(msg_knob_result_to_json(a));
	rc = msg_knob_result_from_json(j, ab, err);
	ok(rc == 0 && ab->n == 2 && ab->r[0].ok && !strcmp(ab->r[0].before, "0") &&
	   !strcmp(ab->r[0].after, "64") && !ab->r[1].ok && !strcmp(ab->r[1].error, a->r[1].error),
	   "KNOB_RESULT round trip keeps before, after and errors (%d: %s)", rc, err);
	json_decref(j);
	j = parse("{\"results\": [{\"name\": \"gro\", \"ok\": false, \"before\": \"on\", \"after\": \"\", \"error\": \"\"}]}");
	ok(msg_knob_result_from_json(j, ab, err) == -EPROTO && has(err, "non-empty 'error'"),
	   "KNOB_RESULT not ok without an error is refused: %s", err);
	json_decref(j);
	j = parse("{\"results\": [{\"name\": \"gro\", \"ok\": true, \"before\": \"on\", \"after\": \"\", \"error\": \"\"}]}");
	ok(msg_knob_result_from_json(j, ab, err) == -EPROTO && has(err, "'after'"),
	   "KNOB_RESULT ok without an after is refused: %s", err);
	json_decref(j);
	free(q);
	free(qb);
	free(a);
	free(ab);
}

static void test_auth_bodies(void)
{
	struct msg_auth m, b;
	char err[ERR_MAX] = "";
	const char *hex;
	json_t *j;
	int rc;

	for (unsigned i = 0; i < MSG_AUTH_BYTES; i++)
		m.bytes[i] = (uint8_t)(i * 37 + 5);
	j = wire(msg_auth_to_json(&m, true));
	hex = json_string_value(json_object_get(j, "challenge"));
	ok(hex && strlen(hex) == 64 && !strncmp(hex, "052a4f", 6),
	   "AUTH_CHALLENGE carries 64 lower-case hex digits (%s)", hex ? hex : "none");
	rc = msg_auth_from_json(j, &b, true, err);
	ok(rc == 0 && !memcmp(m.bytes, b.bytes, sizeof(m.bytes)),
	   "AUTH_CHALLENGE round trip keeps the bytes (%d: %s)", rc, err);
	ok(msg_auth_from_json(j, &b, false, err) == -EPROTO && has(err, "'mac' missing"),
	   "a challenge is not read as a response: %s", err);
	json_decref(j);
	j = wire(msg_auth_to_json(&m, false));
	rc = msg_auth_from_json(j, &b, false, err);
	ok(rc == 0 && !memcmp(m.bytes, b.bytes, sizeof(m.bytes)),
	   "AUTH_RESPONSE round trip keeps the mac (%d: %s)", rc, err);
	json_decref(j);
	j = parse("{\"mac\": \"abcd\"}");
	ok(msg_auth_from_json(j, &b, false, err) == -EPROTO && has(err, "64 hex digits"),
	   "a short mac is refused: %s", err);
	json_decref(j);
	j = parse("{\"mac\": \"zz2a4f00000000000000000000000000000000000000000000000000000000ff\"}");
	ok(msg_auth_from_json(j, &b, false, err) == -EPROTO && has(err, "64 hex digits"),
	   "a mac with a non-hex digit is refused: %s", err);
	json_decref(j);
	j = parse("{\"code\": \"auth\", \"message\": \"wrong key\"}");
	{
		struct msg_error e;

		ok(msg_error_from_json(j, &e, err) == 0 && !strcmp(e.code, "auth"),
		   "ERROR code auth is accepted (%s)", err);
	}
	json_decref(j);
}

/* --- capture ------------------------------------------------------------- */

static void fill_capture(struct seg_capture *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->dev, sizeof(c->dev), "veth-a");
	snprintf(c->filter, sizeof(c->filter), "tcp and port 5001 and host 198.18.0.2");
	c->n = (struct cap_counts){ .seen = 2020, .counted = 2019, .unparsed = 1,
				    .kernel_recv = 2020, .kernel_drop = 3, .if_drop = 0 };
	for (int d = 0; d < CAP_NDIRS; d++)
		seghist_init(&c->dir[d]);
	for (int i = 0; i < 1000; i++)
		seghist_add(&c->dir[CAP_OUT], 1, SEG_ACK);
	for (int i = 0; i < 5; i++)
		seghist_add(&c->dir[CAP_OUT], 1448, SEG_ACK);
	for (int i = 0; i < 3; i++)
		seghist_add(&c->dir[CAP_OUT], 65160, SEG_ACK);
	for (int i = 0; i < 7; i++)
		seghist_add(&c->dir[CAP_OUT], 0, SEG_ACK);
	seghist_add(&c->dir[CAP_OUT], 0, SEG_SYN);
	seghist_add(&c->dir[CAP_OUT], 0, SEG_FIN | SEG_ACK);
	for (int i = 0; i < 1000; i++)
		seghist_add(&c->dir[CAP_IN], 0, SEG_ACK);
	c->mss[CAP_OUT] = c->mss[CAP_IN] = 1448;
	c->syn_mss[CAP_OUT] = 1448;
}

static json_t *capture_dir_of(json_t *j, size_t d)
{
	return json_array_get(member(member(j, "capture"), "dirs"), d);
}

static void test_capture_bodies(void)
{
	struct seg_capture cap, *back;
	struct end_sample s, d;
	char err[ERR_MAX] = "";
	json_t *j, *sizes;
	int rc;

	fill_capture(&cap);
	fill_sample(&s);
	s.cap = &cap;
	j = wire(sample_to_json(&s));
	ok(j && json_is_object(member(j, "capture")), "a sample with a capture encodes it");
	rc = sample_from_json(j, &d, err);
	back = d.cap;
	ok(rc == 0 && back && seghist_equal(&back->dir[CAP_OUT], &cap.dir[CAP_OUT]) &&
	   seghist_equal(&back->dir[CAP_IN], &cap.dir[CAP_IN]) &&
	   seghist_count(&back->dir[CAP_OUT], 65160) == 3 && back->dir[CAP_OUT].acks == 7 &&
	   back->dir[CAP_OUT].ctl == 2 && back->dir[CAP_IN].acks == 1000,
	   "the histograms round trip size by size, ACKs and SYN/FIN apart (%s)", err);
	ok(rc == 0 && back && back->n.kernel_drop == 3 && back->n.unparsed == 1 &&
	   back->mss[CAP_OUT] == 1448 && back->syn_mss[CAP_OUT] == 1448 &&
	   back->syn_mss[CAP_IN] == 0 && !strcmp(back->dev, "veth-a") &&
	   !strcmp(back->filter, cap.filter),
	   "counts, drops, MSS, device and filter round trip");
	sample_free(&d);
	ok(d.cap == NULL, "sample_free frees the capture");
	json_decref(j);

	/* Each mutation must be refused with what is wrong, nothing leaked. */
	static const struct {
		const char *what, *needle;
		int dir;
		const char *json;
	} bad[] = {
		{ "descending sizes", "ascending order", 0, "[[1448, 5], [1, 1000], [65160, 3]]" },
		{ "a repeated size", "ascending order", 0, "[[1, 500], [1, 500], [1448, 5], [65160, 3]]" },
		{ "a count of 0", "count >= 1", 0, "[[1, 1000], [1448, 0], [65160, 3]]" },
		{ "size 0", "a size 1..", 0, "[[0, 1000], [1448, 5], [65160, 3]]" },
		{ "a triple", "[size, count]", 0, "[[1, 1000, 1], [1448, 5], [65160, 3]]" },
		{ "counts that do not add up", "add up", 0, "[[1, 999], [1448, 5], [65160, 3]]" },
		{ "sizes received that never were", "add up", 1, "[[100, 1]]" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fill_sample(&s);
		s.cap = &cap;
		j = sample_to_json(&s);
		json_object_set_new(capture_dir_of(j, (size_t)bad[i].dir), "sizes",
				    json_loads(bad[i].json, 0, NULL));
		rc = sample_from_json(j, &d, err);
		ok(rc == -EPROTO && has(err, bad[i].needle) && has(err, "sample.capture.dirs[") &&
		   d.cap == NULL && d.socks == NULL,
		   "capture with %s: refused naming it (%s)", bad[i].what, err);
		json_decref(j);
	}
	fill_sample(&s);
	s.cap = &cap;
	j = sample_to_json(&s);
	json_object_set_new(member(member(j, "capture"), "counts"), "extra", json_integer(1));
	rc = sample_from_json(j, &d, err);
	ok(rc == -EPROTO && has(err, "unknown member 'extra'"), "an unknown capture member is refused (%s)", err);
	json_decref(j);
	j = sample_to_json(&s);
	json_array_remove(member(member(j, "capture"), "dirs"), 1);
	rc = sample_from_json(j, &d, err);
	ok(rc == -EPROTO && has(err, "array of 2 elements"), "a capture with one direction is refused (%s)", err);
	json_decref(j);
	seg_capture_free(&cap);

	/* More sizes than a frame carries: the commonest travel, totals stay. */
	memset(&cap, 0, sizeof(cap));
	for (int k = 0; k < CAP_NDIRS; k++)
		seghist_init(&cap.dir[k]);
	for (uint32_t size = 1; size <= MSG_CAPTURE_BINS + 100; size++)
		seghist_add_n(&cap.dir[CAP_OUT], size, size <= 100 ? 1 : 2);
	cap.dir[CAP_OUT].packets = cap.dir[CAP_OUT].data = 2 * (MSG_CAPTURE_BINS + 100) - 100;
	fill_sample(&s);
	s.cap = &cap;
	j = wire(sample_to_json(&s));
	sizes = json_object_get(capture_dir_of(j, 0), "sizes");
	rc = sample_from_json(j, &d, err);
	ok(json_array_size(sizes) == MSG_CAPTURE_BINS && rc == 0 && d.cap &&
	   d.cap->dir[CAP_OUT].nbins == MSG_CAPTURE_BINS && d.cap->dir[CAP_OUT].lost_bins == 100 &&
	   d.cap->dir[CAP_OUT].data == cap.dir[CAP_OUT].data &&
	   seghist_count(&d.cap->dir[CAP_OUT], 1) == 0 && seghist_count(&d.cap->dir[CAP_OUT], 101) == 2,
	   "%u sizes: the %u commonest travel, the 100 rarest count as lost_bins (%s)",
	   MSG_CAPTURE_BINS + 100, MSG_CAPTURE_BINS, err);
	sample_free(&d);
	json_decref(j);
	seg_capture_free(&cap);
}

int main(void)
{
	test_params_round_trip();
	test_params_rejections();
	test_sample_round_trip();
	test_sample_rejections();
	test_sample_encoder_refuses_what_json_cannot_carry();
	test_cli_helpers_use_readable_names();
	test_sample_copy_is_deep();
	test_result_round_trip();
	test_result_rejections();
	test_small_bodies();
	test_knob_get();
	test_knob_values();
	test_knob_set_and_result();
	test_auth_bodies();
	test_capture_bodies();
	return tap_done();
}
