// SPDX-License-Identifier: GPL-2.0-or-later
/* server.c - the tunetopd end: control sessions, data flows, remote samples. */
#include "config.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <linux/sockios.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "proto/auth.h"
#include "knobs/catalog.h"
#include "knobs/journal.h"
#include "knobs/knobs.h"
#include "knobs/txn.h"
#include "proto/msg.h"
#include "proto/proto.h"
#include "sample/sampler.h"
#include "daemon/server.h"
#include "flows/sockinfo.h"
#include "proto/wire.h"
#include "flows/worker.h"

#define DEFAULT_MAX_SESSIONS 16
#define DEFAULT_IDLE_TIMEOUT 30
/* A connection that has not said HELLO by then is half-open: dropped. */
#define HELLO_TIMEOUT_MS 5000
/*
 * Connections waiting for their HELLO hold no session slot; at most this
 * many wait at once, and a new one pushes out the oldest.
 */
#define MAX_PENDING 64
/* A read-only session is evicted only this long after its HELLO (so a
 * client between HELLO_OK and its SETUP keeps its slot). */
#define EVICT_MIN_AGE_MS 1000
/* How long the client may take to connect its flows after READY. */
#define SETUP_TIMEOUT_MS 10000
/* Grace beyond the test's duration before a silent client is given up. */
#define RUN_GRACE_MS 60000
#define DRAIN_TIMEOUT_MS 10000

struct server {
	struct server_opts o;
	int lfd;
	int port;
	int stop_efd;
	pthread_t thread;
	bool threaded;
	int shutdown;
	pthread_mutex_t lock;
	struct srv_session *sessions;	/* pending, serving and ending; under lock */
	unsigned nsessions;
	uint64_t mem_used;		/* reserved by the tests running; under lock */

	/* Serialises every remote knob change and restore of this daemon;
	 * which session holds a knob is the journal's (knobs/txn.h). */
	pthread_mutex_t knob_lock;
};

struct srv_session {
	struct server *srv;
	int cfd;
	char peer[80];			/* address and port, for the log */
	struct sockaddr_storage paddr;	/* the client's address, port 0 */
	char addr[64];			/* paddr as text: the --per-peer key */
	pthread_t thread;
	int done;
	struct srv_session *next;

	/* admission, under srv->lock */
	uint64_t accept_ns, hello_ns, active_ns;
	bool slot;			/* past HELLO, holding a session slot */
	bool kicked;			/* pushed out before HELLO, evicted, or refused */
	bool idle;			/* waiting for a frame between tests */
	bool writer;			/* did SETUP or authenticated: never evicted */
	uint64_t mem;			/* of srv->mem_used, for the test running */

	/* the test in progress */
	pthread_mutex_t wlock;		/* the sampler and the session both send */
	struct test_params p;
	struct flow *flows;
	unsigned nflows;
	int data_lfd;
	int stop, abort;
	struct flow_gate gate;	/* the flows start together (flows_start) */
	uint64_t ticks_unsent;		/* SAMPLEs skipped: the client was not reading */

	/* knob control */
	bool challenged, authed;
	uint8_t challenge[AUTH_CHALLENGE_LEN];
	struct knobs_txn *txn;		/* the knobs it holds, put back at its end */
};

/* One line to the server's log, if it has one. */
__attribute__((format(printf, 2, 3)))
static void srv_log(struct server *srv, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!srv->o.log_cb)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* One line, whatever a peer put in the strings it sent. */
	str_sanitize(line, sizeof(line));
	srv->o.log_cb(line, srv->o.log_arg);
}

/* Send a frame under the session's write lock. */
static int ss_send(struct srv_session *ss, enum msg_type t, const json_t *b, char *err)
{
	int ret;

	pthread_mutex_lock(&ss->wlock);
	ret = proto_send(ss->cfd, t, b, err);
	pthread_mutex_unlock(&ss->wlock);
	return ret;
}

static void ss_error(struct srv_session *ss, const char *code, const char *msg)
{
	pthread_mutex_lock(&ss->wlock);
	proto_send_error(ss->cfd, code, msg);
	pthread_mutex_unlock(&ss->wlock);
}

/*
 * The server end's tick goes to the client as a SAMPLE frame, unless bytes
 * of the last ones are still unsent (SIOCOUTQNSD: the client's window is
 * shut; sent but unacknowledged bytes, a long round trip, do not count): a
 * client too busy to read (1024 flows on its CPUs, a SAMPLE of ~400 kB each
 * tick) then misses ticks, a gap in seq, instead of this send waiting for
 * it until the frame timeout cuts the frame and with it the session.
 */
static void ss_sample_cb(const struct end_sample *smp, void *arg)
{
	struct srv_session *ss = arg;
	int queued = 0;
	json_t *b;

	if (ioctl(ss->cfd, SIOCOUTQNSD, &queued) == 0 && queued > 0) {
		__atomic_add_fetch(&ss->ticks_unsent, 1, __ATOMIC_RELAXED);
		return;
	}
	b = sample_to_json(smp);
	if (b)
		ss_send(ss, MSG_SAMPLE, b, NULL);
	json_decref(b);
}

/* Data sockets on the address the client reached us at: a TCP listener,
 * or one bound UDP socket per flow. */
static int ss_prepare(struct srv_session *ss, uint16_t *ports, char *err)
{
	struct sockaddr_storage a;
	socklen_t alen = sizeof(a);
	bool udp = test_is_udp(ss->p.type);
	int one = 1, ret = flows_fd_room(ss->nflows, 1, err);

	if (ret)
		return ret;
	if (getsockname(ss->cfd, (struct sockaddr *)&a, &alen) < 0)
		return err_set(err, -errno, "getsockname: %s", strerror(errno));
	wire_set_port(&a, 0);
	/* A UDP server answers and counts the client alone (its port is
	 * learned from its first datagram); the rest are strays. */
	for (unsigned i = 0; udp && i < ss->nflows; i++) {
		ss->flows[i].peer = ss->paddr;
		ss->flows[i].peerlen = sizeof(ss->paddr);
	}
	for (unsigned i = 0; i < (udp ? ss->nflows : 1); i++) {
		int fd = socket(a.ss_family, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
		struct sockaddr_storage b;
		socklen_t blen = sizeof(b);

		if (fd < 0)
			return err_set(err, -errno, "data socket: %s", strerror(errno));
		if (udp)
			ss->flows[i].fd = fd;
		else
			ss->data_lfd = fd;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		/* Accepted sockets inherit the buffer sizes and TCP_NODELAY. */
		ret = flow_sockopts(fd, &ss->p, false, err);
		if (ret)
			return ret;
		/* TCP: every data socket is accepted from this listener. */
		for (unsigned k = udp ? i : 0; k < (udp ? i + 1 : ss->nflows); k++)
			flow_note_bufs(&ss->flows[k], fd);
		if (bind(fd, (struct sockaddr *)&a, alen) < 0)
			return err_set(err, -errno, "data socket: bind: %s", strerror(errno));
		if (!udp && listen(fd, ss->nflows > 128 ? (int)ss->nflows : 128) < 0)
			return err_set(err, -errno, "data socket: listen: %s", strerror(errno));
		if (getsockname(fd, (struct sockaddr *)&b, &blen) < 0)
			return err_set(err, -errno, "data socket: getsockname: %s", strerror(errno));
		ports[i] = wire_get_port(&b);
	}
	return 0;
}

/* Accept the client's data connections (TCP tests other than CRR). */
static int ss_accept(struct srv_session *ss, char *err)
{
	uint64_t deadline = now_ns() + SETUP_TIMEOUT_MS * 1000000ull;

	for (unsigned i = 0; i < ss->nflows; i++) {
		struct pollfd pfd = { .fd = ss->data_lfd, .events = POLLIN };
		int64_t left = (int64_t)(deadline - now_ns()) / 1000000;
		int n = poll(&pfd, 1, left > 0 ? (int)left : 0);

		if (n <= 0)
			return err_set(err, -ETIMEDOUT, "data connections: %u of %u arrived within %d s",
				       i, ss->nflows, SETUP_TIMEOUT_MS / 1000);
		ss->flows[i].fd = accept4(ss->data_lfd, NULL, NULL, SOCK_CLOEXEC);
		if (ss->flows[i].fd < 0)
			return err_set(err, -errno, "data connections: accept: %s", strerror(errno));
	}
	return 0;
}

/* Wait for every worker, aborting them if they outlast the drain time. */
static int ss_join(struct srv_session *ss, char *err)
{
	return flows_join(ss->flows, ss->nflows, &ss->abort, DRAIN_TIMEOUT_MS, "server end", err);
}

/* Release the test's sockets and flows. */
static void ss_cleanup(struct srv_session *ss)
{
	for (unsigned i = 0; ss->flows && i < ss->nflows; i++)
		if (ss->flows[i].fd >= 0)
			close(ss->flows[i].fd);
	if (ss->data_lfd >= 0)
		close(ss->data_lfd);
	ss->data_lfd = -1;
	free(ss->flows);
	ss->flows = NULL;
	ss->nflows = 0;
}

/*
 * Wait for the client's STOP during the run.  Returns 0 on STOP, or
 * -errno when the client went away or misbehaved (the test is aborted).
 */
static int ss_wait_stop(struct srv_session *ss, char *err)
{
	uint64_t deadline = now_ns() + (uint64_t)(ss->p.duration * 1e9) +
			    RUN_GRACE_MS * 1000000ull;

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = ss->cfd, .events = POLLIN },
			{ .fd = ss->srv->stop_efd, .events = POLLIN },
		};
		int64_t left = (int64_t)(deadline - now_ns()) / 1000000;
		enum msg_type t;
		json_t *b = NULL;
		int n, ret;

		if (left <= 0)
			return err_set(err, -ETIMEDOUT, "client sent no STOP within %.0f s of the test's end",
				       RUN_GRACE_MS / 1000.0);
		n = poll(pfd, 2, left > 1000 ? 1000 : (int)left);
		if (n < 0 && errno != EINTR)
			return err_set(err, -errno, "poll: %s", strerror(errno));
		if (n > 0 && pfd[1].revents)
			return err_set(err, -ECANCELED, "server shutting down");
		if (n <= 0 || !pfd[0].revents)
			continue;
		ret = proto_recv(ss->cfd, &t, &b, 0, err);
		if (ret == -EPIPE)
			return err_set(err, ret, "client closed the control connection mid-run");
		if (ret)
			return ret;
		if (t == MSG_STOP) {
			struct msg_stop m;

			ret = msg_stop_from_json(b, &m, err);
			json_decref(b);
			return ret;
		}
		if (t == MSG_ERROR) {
			struct msg_error e;

			ret = msg_error_from_json(b, &e, err);
			json_decref(b);
			return ret ? ret : err_set(err, -ECANCELED, "client gave up: %s", e.message);
		}
		json_decref(b);
		return err_set(err, -EPROTO, "unexpected %s frame during the run", proto_type_name(t));
	}
}

/*
 * Capture on the device the client reached us through, before READY so
 * the SYNs of the data connections are seen.  With capture "on" a failure
 * ends the test; in "auto" it is noted in note and the test goes on.
 */
static int ss_capture_open(struct srv_session *ss, const struct msg_ready *ready,
			   struct capture **cap, char *note, char *err)
{
	struct capture_opts co = {
		.family = ss->p.family, .ports = ready->ports, .nports = ready->nports,
		.server = true, .udp = test_is_udp(ss->p.type),
		.in_only = ss->srv->o.capture_in_only,
	};
	struct sockaddr_storage a;
	socklen_t alen = sizeof(a);
	char dev[32], peer[64];
	int ret;

	if (ss->p.capture == CAPTURE_OFF)
		return 0;
	if (sockinfo_netdev(ss->cfd, dev, sizeof(dev)))
		ret = err_set(note, -ENODEV, "capture: cannot tell which device carries the test");
	else if (getpeername(ss->cfd, (struct sockaddr *)&a, &alen) ||
		 getnameinfo((struct sockaddr *)&a, alen, peer, sizeof(peer), NULL, 0,
			     NI_NUMERICHOST))
		ret = err_set(note, -EINVAL, "capture: cannot write the client's address");
	else {
		co.dev = dev;
		co.peer = peer;
		ret = capture_open(cap, &co, note);
	}
	if (!ret)
		return 0;
	srv_log(ss->srv, "%s: %s", ss->peer, note);
	if (ss->p.capture == CAPTURE_ON)
		return err_set(err, ret, "%s", note);
	return 0;
}

/* Bytes as MiB for a message. */
static double mib(uint64_t b)
{
	return (double)b / (1 << 20);
}

/*
 * Reserve what test p's workers will allocate on this end, before any of
 * it is: over --session-mem is -EINVAL (ERROR invalid), over what other
 * tests left of --mem is -EBUSY (ERROR busy).
 */
static int ss_mem_reserve(struct srv_session *ss, const struct test_params *p, char *err)
{
	struct server *srv = ss->srv;
	uint64_t need = flows_mem_need(p, false);
	uint64_t used;

	if (need > srv->o.session_mem)
		return err_set(err, -EINVAL,
			       "setup: %u flow(s) of %s need %.1f MiB on this end, over its per-session budget of %.1f MiB (tunetopd --session-mem); accepted are fewer flows or smaller messages",
			       p->flows, test_type_name(p->type), mib(need), mib(srv->o.session_mem));
	pthread_mutex_lock(&srv->lock);
	used = srv->mem_used;
	if (used + need <= srv->o.mem) {
		srv->mem_used += need;
		ss->mem = need;
	}
	pthread_mutex_unlock(&srv->lock);
	if (!ss->mem)
		return err_set(err, -EBUSY,
			       "tunetopd busy: this test needs %.1f MiB and other tests hold %.1f MiB of its budget of %.1f MiB (tunetopd --mem); try again later",
			       mib(need), mib(used), mib(srv->o.mem));
	return 0;
}

static void ss_mem_release(struct srv_session *ss)
{
	pthread_mutex_lock(&ss->srv->lock);
	ss->srv->mem_used -= ss->mem;
	ss->mem = 0;
	pthread_mutex_unlock(&ss->srv->lock);
}

/* One test: SETUP has arrived with parameters p. */
static int ss_test(struct srv_session *ss, const struct test_params *p, char *err)
{
	struct msg_ready ready = { 0 };
	struct end_result res = { 0 };
	struct sampler *smp = NULL;
	struct capture *cap = NULL;
	char cap_note[ERR_MAX] = "";
	enum msg_type t;
	json_t *b = NULL;
	uint64_t t0;
	int ret, jret;
	char jerr[ERR_MAX];

	ss->p = *p;
	ss->nflows = p->flows;
	ss->stop = ss->abort = 0;
	ss->ticks_unsent = 0;
	ss->data_lfd = -1;
	ss->flows = calloc(ss->nflows, sizeof(*ss->flows));
	if (!ss->flows)
		return err_set(err, -ENOMEM, "out of memory for %u flows", ss->nflows);
	for (unsigned i = 0; i < ss->nflows; i++) {
		struct flow *f = &ss->flows[i];

		f->idx = i;
		f->p = &ss->p;
		f->fd = f->listen_fd = -1;
		f->sndbuf_pre = f->rcvbuf_pre = -1;
		f->cpu = p->rcpu;
		f->stop = &ss->stop;
		f->abort = &ss->abort;
	}
	ret = ss_prepare(ss, ready.ports, err);
	if (ret)
		goto out;
	ready.nports = test_is_udp(p->type) ? ss->nflows : 1;
	ret = ss_capture_open(ss, &ready, &cap, cap_note, err);
	if (ret)
		goto out;
	b = msg_ready_to_json(&ready);
	ret = ss_send(ss, MSG_READY, b, err);
	json_decref(b);
	b = NULL;
	if (ret)
		goto out;
	ret = proto_recv(ss->cfd, &t, &b, SETUP_TIMEOUT_MS, err);
	if (ret)
		goto out;
	json_decref(b);
	b = NULL;
	if (t != MSG_GO) {
		ret = err_set(err, -EPROTO, "expected GO, got %s", proto_type_name(t));
		goto out;
	}
	if (flow_ops_for(p->type)->conn_per_trans) {
		for (unsigned i = 0; i < ss->nflows; i++)
			ss->flows[i].listen_fd = ss->data_lfd;
	} else if (!test_is_udp(p->type)) {
		ret = ss_accept(ss, err);
		if (ret)
			goto out;
	}
	ret = sampler_create(&smp, ss->flows, ss->nflows, &ss->p, ss_sample_cb, ss, err);
	if (ret)
		goto out;
	if (cap)
		sampler_set_capture(smp, cap);
	ret = sampler_start(smp, err);
	if (ret)
		goto out;
	t0 = now_ns();
	ret = flows_start(ss->flows, ss->nflows, &ss->gate, 0, &ss->abort, &t0, err);
	if (!ret)
		ret = ss_wait_stop(ss, err);
	if (ret)
		flows_abort(ss->flows, ss->nflows, &ss->abort);
	__atomic_store_n(&ss->stop, 1, __ATOMIC_RELEASE);
	jret = ss_join(ss, jerr);
	res.elapsed = (double)(flows_last_done(ss->flows, ss->nflows, now_ns()) - t0) / 1e9;
	sampler_final(smp, &res, NULL);
	res.cpu_bind = p->rcpu;
	if (!res.cap)
		snprintf(res.cap_note, sizeof(res.cap_note), "%s", cap_note);
	gethostname(res.host, sizeof(res.host) - 1);
	if (!ret && jret)
		ret = err_set(err, jret, "%s", jerr);
	if (!ret) {
		b = result_to_json(&res);
		ret = b ? ss_send(ss, MSG_RESULT, b, err) : err_set(err, -ENOMEM, "result: out of memory");
		json_decref(b);
		b = NULL;
	}
	srv_log(ss->srv, "%s: %s ended%s%s: %llu transactions, %llu bytes in, %llu bytes out, %llu stray datagrams",
		ss->peer, test_type_name(p->type), ret ? ": " : "", ret ? err : "",
		(unsigned long long)res.total.trans, (unsigned long long)res.total.bytes_recv,
		(unsigned long long)res.total.bytes_sent, (unsigned long long)res.strays);
	if (ss->ticks_unsent)
		srv_log(ss->srv, "%s: %llu ticks not sent as SAMPLE: the client had not taken the ones before",
			ss->peer, (unsigned long long)ss->ticks_unsent);
out:
	if (smp)
		sampler_destroy(smp);
	capture_destroy(cap);
	result_free(&res);
	json_decref(b);
	if (ret && ss->flows) {
		flows_abort(ss->flows, ss->nflows, &ss->abort);
		ss_join(ss, jerr);
	}
	ss_cleanup(ss);
	return ret;
}

/* The ERROR code for an engine error. */
static const char *ss_code(int ret)
{
	const char *c = proto_error_code(ret);

	return c ? c : "internal";
}

/* --- remote knobs ------------------------------------------------------------ */

#define KNOBS_OFF_MSG "knob control is off on this tunetopd (start it with --knobs --key FILE)"

/*
 * The target of a KNOB_GET/KNOB_SET: this host (namespace) and dev, or
 * the device the client reached us through, or the default route's.
 */
static void ss_knob_target(const struct srv_session *ss, const char *dev,
			   struct knob_target *t)
{
	memset(t, 0, sizeof(*t));
	t->where = KT_LOCAL;
	if (dev[0])
		snprintf(t->dev, sizeof(t->dev), "%s", dev);
	else if (sockinfo_netdev(ss->cfd, t->dev, sizeof(t->dev)))
		knobs_default_dev(t->dev, sizeof(t->dev));
}

/* KNOB_GET: answer with the values; any client may ask. */
static int ss_knob_get(struct srv_session *ss, const json_t *body, char *err)
{
	const struct catalog *cat = ss->srv->o.catalog;
	struct msg_knob_get *q = calloc(1, sizeof(*q));
	struct msg_knob_values *a = calloc(1, sizeof(*a));
	struct knob_target t;
	json_t *b = NULL;
	int ret;

	if (!q || !a) {
		ret = err_set(err, -ENOMEM, "knob_get: out of memory");
		goto out;
	}
	ret = msg_knob_get_from_json(body, q, err);
	if (ret)
		goto out;
	if (!cat) {
		ret = err_set(err, -ENOENT, "this tunetopd has no knob catalog (see its log)");
		goto out;
	}
	ss_knob_target(ss, q->dev, &t);
	a->n = q->n ? q->n : catalog_count(cat);
	if (a->n > MSG_KNOBS_MAX)
		a->n = MSG_KNOBS_MAX;
	for (unsigned i = 0; i < a->n; i++) {
		const struct knob_def *d = q->n ? catalog_find(cat, q->names[i]) : catalog_at(cat, i);
		struct msg_knob_value *v = &a->v[i];
		struct knob_value kv;
		char gerr[ERR_MAX];

		snprintf(v->name, sizeof(v->name), "%s", q->n ? q->names[i] : d->name);
		if (!d) {
			snprintf(v->reason, sizeof(v->reason), "not in this tunetopd's knob catalog");
			continue;
		}
		if (knobs_get(d, &t, &kv, gerr)) {
			snprintf(v->reason, sizeof(v->reason), "%.95s", gerr);
			continue;
		}
		v->present = kv.present && kv.text[0];
		if (v->present)
			snprintf(v->text, sizeof(v->text), "%s", kv.text);
		else
			snprintf(v->reason, sizeof(v->reason), "%s", kv.present ? "empty" : kv.reason);
	}
	b = msg_knob_values_to_json(a);
	ret = b ? ss_send(ss, MSG_KNOB_VALUES, b, err) :
		  err_set(err, -ENOMEM, "knob_values: out of memory");
out:
	json_decref(b);
	free(q);
	free(a);
	return ret;
}

/* AUTH_BEGIN: a fresh challenge, when knob control is on. */
static int ss_auth_begin(struct srv_session *ss, const json_t *body, char *err)
{
	struct msg_auth m;
	json_t *b;
	int ret;

	ret = msg_empty_from_json(body, "auth_begin", err);
	if (ret)
		return ret;
	if (!ss->srv->o.knob_control)
		return err_set(err, -EACCES, KNOBS_OFF_MSG);
	auth_challenge(ss->challenge);
	ss->challenged = true;
	ss->authed = false;
	memcpy(m.bytes, ss->challenge, sizeof(m.bytes));
	b = msg_auth_to_json(&m, true);
	ret = b ? ss_send(ss, MSG_AUTH_CHALLENGE, b, err) :
		  err_set(err, -ENOMEM, "auth_challenge: out of memory");
	json_decref(b);
	return ret;
}

/* AUTH_RESPONSE: AUTH_OK for the right key, else -EACCES "wrong key". */
static int ss_auth_response(struct srv_session *ss, const json_t *body, char *err)
{
	struct msg_auth m;
	bool good;
	int ret;

	ret = msg_auth_from_json(body, &m, false, err);
	if (ret)
		return ret;
	/* Refused as authentication ("auth"), like a wrong key. */
	if (!ss->challenged)
		return err_set(err, -EACCES, "AUTH_RESPONSE without AUTH_BEGIN first; accepted is AUTH_BEGIN, AUTH_CHALLENGE, then AUTH_RESPONSE");
	good = auth_verify(ss->srv->o.key, ss->challenge, m.bytes);
	/* A challenge answers once. */
	ss->challenged = false;
	memset(ss->challenge, 0, sizeof(ss->challenge));
	if (!good) {
		srv_log(ss->srv, "%s: knob control: authentication failed: wrong key", ss->peer);
		return err_set(err, -EACCES, "wrong key");
	}
	ss->authed = true;
	ss->writer = true;
	srv_log(ss->srv, "%s: knob control: authenticated", ss->peer);
	return ss_send(ss, MSG_AUTH_OK, NULL, err);
}

/* One setting of a KNOB_SET, under knob_lock. */
static void ss_knob_set_one(struct srv_session *ss, const struct knob_target *t,
			    const struct msg_knob_setting *st, struct msg_knob_outcome *o)
{
	struct server *srv = ss->srv;
	const struct knob_def *d = catalog_find(srv->o.catalog, st->name);
	struct knob_value before, after;
	const char *dev = d && d->scope == KNOB_SCOPE_DEVICE ? t->dev : "";

	snprintf(o->name, sizeof(o->name), "%s", st->name);
	if (!d) {
		snprintf(o->error, sizeof(o->error), "%s: unknown knob (not in this tunetopd's catalog)",
			 st->name);
		return;
	}
	if (!ss->txn) {
		char who[128];

		/* The journal keeps JOURNAL_WHO_MAX - 1 characters of it. */
		snprintf(who, sizeof(who), "tunetopd session from %s", ss->peer);
		if (knobs_txn_begin(&ss->txn, who, 0, o->error))
			return;
	}
	if (knobs_txn_set(ss->txn, d, t, st->value, &before, &after, o->error)) {
		srv_log(srv, "%s: refused %s=%s%s%s: %s", ss->peer, d->name, st->value,
			*dev ? " on " : "", dev, o->error);
		return;
	}
	o->ok = true;
	snprintf(o->before, sizeof(o->before), "%s", before.text);
	snprintf(o->after, sizeof(o->after), "%s", after.text);
	srv_log(srv, "%s: set %s %s -> %s%s%s", ss->peer, d->name, before.text, after.text,
		*dev ? " on " : "", dev);
}

/* KNOB_SET: only with knob control on and this session authenticated. */
static int ss_knob_set(struct srv_session *ss, const json_t *body, char *err)
{
	struct server *srv = ss->srv;
	struct msg_knob_set *q;
	struct msg_knob_result *a;
	struct knob_target t;
	json_t *b = NULL;
	int ret;

	if (!srv->o.knob_control || !srv->o.catalog)
		return err_set(err, -EACCES, KNOBS_OFF_MSG);
	if (!ss->authed)
		return err_set(err, -EACCES, "knob changes need authentication first (AUTH_BEGIN; tunetop --key FILE)");
	q = calloc(1, sizeof(*q));
	a = calloc(1, sizeof(*a));
	if (!q || !a) {
		ret = err_set(err, -ENOMEM, "knob_set: out of memory");
		goto out;
	}
	ret = msg_knob_set_from_json(body, q, err);
	if (ret)
		goto out;
	ss_knob_target(ss, q->dev, &t);
	pthread_mutex_lock(&srv->knob_lock);
	for (unsigned i = 0; i < q->n; i++)
		ss_knob_set_one(ss, &t, &q->s[i], &a->r[i]);
	pthread_mutex_unlock(&srv->knob_lock);
	a->n = q->n;
	b = msg_knob_result_to_json(a);
	ret = b ? ss_send(ss, MSG_KNOB_RESULT, b, err) :
		  err_set(err, -ENOMEM, "knob_result: out of memory");
out:
	json_decref(b);
	free(q);
	free(a);
	return ret;
}

/* Log what ss_knobs_restore did with one knob. */
static void ss_undo_cb(const struct knob_def *d, const struct knob_target *t,
		       const char *was, const char *found, int rc, const char *err, void *arg)
{
	struct srv_session *ss = arg;
	const char *dev = d->scope == KNOB_SCOPE_DEVICE ? t->dev : "";

	if (rc)
		srv_log(ss->srv, "%s: could not restore %s to %s%s%s: %s (its journal entry stays: tunetop restore)",
			ss->peer, d->name, found, *dev ? " on " : "", dev, err);
	else
		srv_log(ss->srv, "%s: restored %s %s -> %s%s%s", ss->peer, d->name, was, found,
			*dev ? " on " : "", dev);
}

/* Put back every knob this session changed, newest change first. */
static void ss_knobs_restore(struct srv_session *ss)
{
	struct server *srv = ss->srv;

	if (!ss->txn)
		return;
	pthread_mutex_lock(&srv->knob_lock);
	knobs_txn_undo(ss->txn, ss_undo_cb, ss);
	knobs_txn_free(ss->txn);
	ss->txn = NULL;
	pthread_mutex_unlock(&srv->knob_lock);
}

/*
 * After a good HELLO: take a session slot, or say why not in err (-EBUSY).
 * A full server (or a full --per-peer share) gives the slot of the
 * read-only session idle longest, if one is older than EVICT_MIN_AGE_MS:
 * it is woken (shutdown SHUT_RD) and tells its client it was evicted.
 */
static int srv_take_slot(struct srv_session *ss, char *err)
{
	struct server *srv = ss->srv;
	struct srv_session *any = NULL, *mine = NULL, *victim = NULL;
	uint64_t now = now_ns(), min_age = EVICT_MIN_AGE_MS * 1000000ull;
	unsigned n = 0, nmine = 0;
	char evicted[sizeof(ss->peer)] = "";
	int ret = 0;

	pthread_mutex_lock(&srv->lock);
	for (struct srv_session *x = srv->sessions; x; x = x->next) {
		bool same;

		if (x == ss || !x->slot)
			continue;
		same = !strcmp(x->addr, ss->addr);
		n++;
		nmine += same;
		if (x->writer || !x->idle || now - x->hello_ns < min_age)
			continue;
		if (!any || x->active_ns < any->active_ns)
			any = x;
		if (same && (!mine || x->active_ns < mine->active_ns))
			mine = x;
	}
	if (ss->kicked)
		ret = err_set(err, -ECONNABORTED, "pushed out by newer connections before its HELLO");
	else if (nmine >= srv->o.per_peer && !(victim = mine))
		ret = err_set(err, -EBUSY, "tunetopd busy: %u sessions from %s already, the limit per address is %u (tunetopd --per-peer); try again later",
			      nmine, ss->addr, srv->o.per_peer);
	else if (!victim && n >= srv->o.max_sessions && !(victim = any))
		ret = err_set(err, -EBUSY, "tunetopd busy: %u sessions running, the limit is %u; try again later",
			      n, srv->o.max_sessions);
	if (victim) {
		victim->slot = false;
		victim->kicked = true;
		shutdown(victim->cfd, SHUT_RD);
		/* Once unlocked, the victim may end and be reaped. */
		snprintf(evicted, sizeof(evicted), "%s", victim->peer);
	}
	if (ret)
		ss->kicked = true;
	else {
		ss->slot = true;
		ss->hello_ns = ss->active_ns = now;
	}
	pthread_mutex_unlock(&srv->lock);
	if (evicted[0])
		srv_log(srv, "%s: evicted (idle read-only session) for %s", evicted, ss->peer);
	return ret;
}

/* Mark the session waiting for a frame (idle) or not; true if it was evicted. */
static bool ss_set_idle(struct srv_session *ss, bool idle)
{
	bool kicked;

	pthread_mutex_lock(&ss->srv->lock);
	ss->idle = idle;
	if (!idle)
		ss->active_ns = now_ns();
	kicked = ss->kicked;
	pthread_mutex_unlock(&ss->srv->lock);
	return kicked;
}

/* One control connection, from HELLO to BYE or an error. */
static void *ss_thread(void *arg)
{
	struct srv_session *ss = arg;
	struct server *srv = ss->srv;
	int idle_ms = (int)srv->o.idle_timeout * 1000;
	char err[ERR_MAX] = "";
	enum msg_type t;
	json_t *b = NULL;
	struct msg_hello hello;
	struct msg_hello_ok hok = { .name = "tunetopd", .version = PACKAGE_VERSION };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int ret;

	wire_keepalive(ss->cfd);
	ret = proto_recv(ss->cfd, &t, &b, HELLO_TIMEOUT_MS, err);
	if (!ret && t != MSG_HELLO)
		ret = err_set(err, -EPROTO, "expected HELLO, got %s", proto_type_name(t));
	if (!ret)
		ret = msg_hello_from_json(b, &hello, err);
	json_decref(b);
	b = NULL;
	if (!ret)
		ret = srv_take_slot(ss, err);
	if (ret) {
		if (ret != -EPIPE && ret != -ECONNABORTED)
			ss_error(ss, ss_code(ret), err);
		goto out;
	}
	gethostname(hok.host, sizeof(hok.host) - 1);
	hok.ncpu = ncpu > 0 ? (unsigned)ncpu : 1;
	b = msg_hello_ok_to_json(&hok);
	ret = ss_send(ss, MSG_HELLO_OK, b, err);
	json_decref(b);
	b = NULL;
	while (!ret) {
		struct test_params p;

		ss_set_idle(ss, true);
		ret = proto_recv(ss->cfd, &t, &b, idle_ms, err);
		if (ss_set_idle(ss, false)) {
			json_decref(b);
			b = NULL;
			ret = err_set(err, -EBUSY, "evicted: this session only read and was idle, and a new client needed its slot (tunetopd -m %u, --per-peer %u)",
				      srv->o.max_sessions, srv->o.per_peer);
			ss_error(ss, "busy", err);
			break;
		}
		if (ret == -ETIMEDOUT)
			snprintf(err, sizeof(err), "idle for %u s", srv->o.idle_timeout);
		if (ret) {
			if (ret != -EPIPE)
				ss_error(ss, ss_code(ret), err);
			break;
		}
		if (t == MSG_BYE)
			break;
		if (t >= MSG_KNOB_GET) {
			const char *code = "malformed";

			switch (t) {
			case MSG_KNOB_GET:
				ret = ss_knob_get(ss, b, err);
				break;
			case MSG_AUTH_BEGIN:
				ret = ss_auth_begin(ss, b, err);
				break;
			case MSG_AUTH_RESPONSE:
				ret = ss_auth_response(ss, b, err);
				break;
			case MSG_KNOB_SET:
				ret = ss_knob_set(ss, b, err);
				break;
			default:
				ret = err_set(err, -EPROTO, "unexpected %s frame", proto_type_name(t));
				break;
			}
			json_decref(b);
			b = NULL;
			if (ret == -EACCES)
				code = "auth";
			else if (ret != -EPROTO)
				code = ss_code(ret);
			/* ERROR, then close (docs/protocol.md). */
			if (ret && ret != -EPIPE)
				ss_error(ss, code, err);
			if (ret)
				break;
			continue;
		}
		if (t != MSG_SETUP) {
			ret = err_set(err, -EPROTO, "unexpected %s frame", proto_type_name(t));
			ss_error(ss, "malformed", err);
			break;
		}
		ret = params_from_json(b, &p, err);
		json_decref(b);
		b = NULL;
		if (ret) {
			ss_error(ss, ss_code(ret), err);
			break;
		}
		ss->writer = true;
		ret = ss_mem_reserve(ss, &p, err);
		if (ret) {
			srv_log(srv, "%s: refused %s, %u flow(s): %s", ss->peer,
				test_type_name(p.type), p.flows, err);
			ss_error(ss, ss_code(ret), err);
			break;
		}
		srv_log(srv, "%s: %s, %u flow(s), %g s", ss->peer, test_type_name(p.type),
			p.flows, p.duration);
		ret = ss_test(ss, &p, err);
		ss_mem_release(ss);
		if (ret && ret != -EPIPE)
			ss_error(ss, ss_code(ret), err);
	}
out:
	json_decref(b);
	if (ret && ret != -EPIPE)
		srv_log(srv, "%s: session ended: %s", ss->peer, err);
	/* However the session ended, its knob changes are undone. */
	ss_knobs_restore(ss);
	pthread_mutex_lock(&srv->lock);
	ss->slot = false;
	pthread_mutex_unlock(&srv->lock);
	/* srv_reap closes cfd after the join, so server_shutdown can never
	 * shut down a descriptor number that was already reused. */
	shutdown(ss->cfd, SHUT_RDWR);
	__atomic_store_n(&ss->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Join sessions that have ended; all of them when all is set. */
static void srv_reap(struct server *srv, bool all)
{
	struct srv_session **pp = &srv->sessions;

	pthread_mutex_lock(&srv->lock);
	while (*pp) {
		struct srv_session *ss = *pp;

		if (all || __atomic_load_n(&ss->done, __ATOMIC_ACQUIRE)) {
			*pp = ss->next;
			srv->nsessions--;
			pthread_mutex_unlock(&srv->lock);
			pthread_join(ss->thread, NULL);
			close(ss->cfd);
			pthread_mutex_destroy(&ss->wlock);
			free(ss);
			pthread_mutex_lock(&srv->lock);
		} else {
			pp = &ss->next;
		}
	}
	pthread_mutex_unlock(&srv->lock);
}

/*
 * Make room for one more connection waiting for its HELLO: with
 * MAX_PENDING waiting, the oldest is shut down (its thread ends on its
 * own).  Under srv->lock; returns the connection pushed out, or NULL.
 */
static struct srv_session *srv_push_pending(struct server *srv)
{
	struct srv_session *oldest = NULL;
	unsigned n = 0;

	for (struct srv_session *x = srv->sessions; x; x = x->next) {
		if (x->slot || x->kicked || __atomic_load_n(&x->done, __ATOMIC_ACQUIRE))
			continue;
		n++;
		if (!oldest || x->accept_ns < oldest->accept_ns)
			oldest = x;
	}
	if (n < MAX_PENDING)
		return NULL;
	oldest->kicked = true;
	shutdown(oldest->cfd, SHUT_RDWR);
	return oldest;
}

/*
 * A new control connection: a session thread that waits for its HELLO
 * without holding a slot (srv_take_slot decides after it).
 */
static void srv_accept(struct server *srv)
{
	struct sockaddr_storage a;
	socklen_t alen = sizeof(a);
	struct srv_session *ss, *pushed;
	char peer[80], pushed_peer[80] = "";
	int fd = accept4(srv->lfd, (struct sockaddr *)&a, &alen, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	wire_addr_str(&a, peer, sizeof(peer));
	srv_reap(srv, false);
	ss = calloc(1, sizeof(*ss));
	if (!ss) {
		proto_send_error(fd, "internal", "tunetopd: out of memory");
		close(fd);
		return;
	}
	ss->srv = srv;
	ss->cfd = fd;
	ss->data_lfd = -1;
	ss->accept_ns = now_ns();
	snprintf(ss->peer, sizeof(ss->peer), "%s", peer);
	ss->paddr = a;
	wire_set_port(&ss->paddr, 0);
	wire_addr_str(&ss->paddr, ss->addr, sizeof(ss->addr));
	pthread_mutex_init(&ss->wlock, NULL);
	pthread_mutex_lock(&srv->lock);
	pushed = srv_push_pending(srv);
	if (pushed)
		snprintf(pushed_peer, sizeof(pushed_peer), "%s", pushed->peer);
	/* Linked before its thread starts, so srv_take_slot sees it. */
	ss->next = srv->sessions;
	srv->sessions = ss;
	srv->nsessions++;
	if (pthread_create(&ss->thread, NULL, ss_thread, ss)) {
		srv->sessions = ss->next;
		srv->nsessions--;
		pthread_mutex_unlock(&srv->lock);
		proto_send_error(fd, "internal", "tunetopd: cannot start a session thread");
		close(fd);
		pthread_mutex_destroy(&ss->wlock);
		free(ss);
		return;
	}
	pthread_mutex_unlock(&srv->lock);
	if (pushed_peer[0])
		srv_log(srv, "%s: dropped before its HELLO: %d connections were waiting for theirs",
			pushed_peer, MAX_PENDING);
	srv_log(srv, "%s: connected", peer);
}

/* Bind the control listener: addr, or every address (IPv6 and IPv4). */
static int srv_listen(struct server *srv, char *err)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE }, *ai, *a;
	const char *port = srv->o.port ? srv->o.port : "12866";
	int ret, last = 0, one = 1, zero = 0;

	ret = getaddrinfo(srv->o.listen_addr, port, &hints, &ai);
	if (ret)
		return err_set(err, -EINVAL, "-L %s -p %s: %s", srv->o.listen_addr ? srv->o.listen_addr : "*",
			       port, gai_strerror(ret));
	/* With no address, prefer one dual-stack IPv6 socket. */
	for (int pass = 0; pass < 2 && srv->lfd < 0; pass++) {
		for (a = ai; a; a = a->ai_next) {
			int fd;

			if (!srv->o.listen_addr && pass == 0 && a->ai_family != AF_INET6)
				continue;
			fd = socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
			if (fd < 0) {
				last = -errno;
				continue;
			}
			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
			if (a->ai_family == AF_INET6 && !srv->o.listen_addr)
				setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
			if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 && listen(fd, 64) == 0) {
				struct sockaddr_storage b;
				socklen_t blen = sizeof(b);

				getsockname(fd, (struct sockaddr *)&b, &blen);
				srv->port = wire_get_port(&b);
				srv->lfd = fd;
				break;
			}
			last = -errno;
			close(fd);
		}
	}
	freeaddrinfo(ai);
	if (srv->lfd < 0)
		return err_set(err, last ? last : -EADDRNOTAVAIL, "listen on %s port %s: %s",
			       srv->o.listen_addr ? srv->o.listen_addr : "*", port,
			       strerror(last ? -last : EADDRNOTAVAIL));
	return 0;
}

int server_open(struct server **sp, const struct server_opts *o, char *err)
{
	struct server *srv = calloc(1, sizeof(*srv));
	int ret;

	if (!srv)
		return err_set(err, -ENOMEM, "server: out of memory");
	srv->o = *o;
	if (!srv->o.max_sessions)
		srv->o.max_sessions = DEFAULT_MAX_SESSIONS;
	if (!srv->o.idle_timeout)
		srv->o.idle_timeout = DEFAULT_IDLE_TIMEOUT;
	if (!srv->o.per_peer)
		srv->o.per_peer = SERVER_DEFAULT_PER_PEER;
	if (!srv->o.session_mem)
		srv->o.session_mem = SERVER_DEFAULT_SESSION_MEM;
	if (!srv->o.mem)
		srv->o.mem = SERVER_DEFAULT_MEM;
	srv->lfd = -1;
	pthread_mutex_init(&srv->lock, NULL);
	pthread_mutex_init(&srv->knob_lock, NULL);
	srv->stop_efd = eventfd(0, EFD_CLOEXEC);
	if (srv->stop_efd < 0) {
		ret = err_set(err, -errno, "server: eventfd: %s", strerror(errno));
		goto fail;
	}
	ret = srv_listen(srv, err);
	if (ret)
		goto fail;
	*sp = srv;
	return 0;
fail:
	server_destroy(srv);
	return ret;
}

int server_port(const struct server *s)
{
	return s->port;
}

int server_run(struct server *srv, char *err)
{
	while (!__atomic_load_n(&srv->shutdown, __ATOMIC_ACQUIRE)) {
		struct pollfd pfd[2] = {
			{ .fd = srv->lfd, .events = POLLIN },
			{ .fd = srv->stop_efd, .events = POLLIN },
		};
		int n = poll(pfd, 2, 1000);

		if (n < 0 && errno != EINTR)
			return err_set(err, -errno, "poll: %s", strerror(errno));
		if (n > 0 && pfd[1].revents)
			break;
		if (n > 0 && pfd[0].revents)
			srv_accept(srv);
		srv_reap(srv, false);
	}
	return 0;
}

static void *srv_thread(void *arg)
{
	server_run(arg, NULL);
	return NULL;
}

int server_start_thread(struct server *s, char *err)
{
	int ret = pthread_create(&s->thread, NULL, srv_thread, s);

	if (ret)
		return err_set(err, -ret, "server: thread: %s", strerror(ret));
	s->threaded = true;
	return 0;
}

void server_shutdown(struct server *srv)
{
	uint64_t one = 1;

	__atomic_store_n(&srv->shutdown, 1, __ATOMIC_RELEASE);
	if (write(srv->stop_efd, &one, sizeof(one)) < 0)
		return;
	if (srv->threaded) {
		pthread_join(srv->thread, NULL);
		srv->threaded = false;
	}
	/* Wake sessions blocked on their control connection. */
	pthread_mutex_lock(&srv->lock);
	for (struct srv_session *ss = srv->sessions; ss; ss = ss->next)
		shutdown(ss->cfd, SHUT_RDWR);
	pthread_mutex_unlock(&srv->lock);
	srv_reap(srv, true);
}

void server_destroy(struct server *srv)
{
	if (!srv)
		return;
	if (srv->threaded || srv->sessions)
		server_shutdown(srv);
	if (srv->lfd >= 0)
		close(srv->lfd);
	if (srv->stop_efd >= 0)
		close(srv->stop_efd);
	pthread_mutex_destroy(&srv->lock);
	pthread_mutex_destroy(&srv->knob_lock);
	free(srv);
}
