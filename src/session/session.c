// SPDX-License-Identifier: GPL-2.0-or-later
/* session.c - one run seen from the client: control, data flows, samples, results. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/units.h"
#include "proto/msg.h"
#include "proto/netserver.h"
#include "proto/proto.h"
#include "sample/sampler.h"
#include "flows/sockinfo.h"
#include "daemon/server.h"
#include "session/session.h"
#include "proto/wire.h"
#include "flows/worker.h"

/* Events kept for a consumer that falls behind; the oldest go first. */
#define EVQ_MAX 4096
/* How long the ends may take to finish in-flight work after the stop. */
#define DRAIN_TIMEOUT_MS 10000
/* How long to wait for the server's final figures. */
#define RESULT_TIMEOUT_MS 15000

struct session {
	struct session_opts o;
	struct test_params p;
	uint8_t *fill;		/* -F: the start of the file, fill_len bytes */
	size_t fill_len;
	char host[256], port[16];
	/* Each end's host name: this one's, and the one HELLO_OK (or -H for a
	 * netserver) named; the thread writes them into both ends' results. */
	char local_host[64], remote_host[64];

	pthread_t thread;
	bool started;
	int evfd;		/* consumer's eventfd */
	int stop_efd;		/* session_stop() */
	pthread_mutex_t lock;
	struct session_event **evq;	/* a ring of heap events, so memory stays flat */
	unsigned evq_head, evq_len;
	struct end_sample remote_last;
	bool has_remote;
	struct why_knobs why_kn[2];	/* local, remote: set before the sampler starts */

	int stop, abort;	/* flags the workers read */
	struct flow_gate gate;	/* the flows start together (flows_start) */
	volatile sig_atomic_t user_abort;	/* session_abort() */
	struct flow *flows;
	struct hist *hists;
	unsigned nflows;
	struct sampler *sampler;
	struct capture *cap;
	char cap_note[ERR_MAX];	/* why the local end has no capture (auto) */
	bool cap_in_only[2];	/* local, remote: captures only what arrives */
	struct server *embedded;
	int cfd;
	struct sockaddr_storage raddr;
	socklen_t raddrlen;

	int ret;
	char err[ERR_MAX];
	struct session_result res;
};

double service_demand(double util_pct, unsigned ncpu, double elapsed,
		      double units)
{
	/* netperf: CPU seconds spent (utilisation x CPUs x time) per unit
	 * of work, in microseconds; a unit is a transaction or a KB. */
	if (util_pct < 0 || units <= 0 || !ncpu || elapsed <= 0)
		return -1.0;
	return util_pct / 100.0 * ncpu * elapsed * 1e6 / units;
}

/* count / trans, or -1 when either is missing. */
static double session_per(int64_t count, uint64_t trans)
{
	return count >= 0 && trans ? (double)count / (double)trans : -1.0;
}

void session_segs_per_trans(const struct end_result *e, bool rr,
			    struct segs_per_trans *out)
{
	uint64_t trans = rr ? e->total.trans : 0;

	out->out = session_per(e->segs_out, trans);
	out->in = session_per(e->segs_in, trans);
	out->data_out = session_per(e->data_segs_out, trans);
	out->data_in = session_per(e->data_segs_in, trans);
}

/* Drop the oldest queued event; the lock is held. */
static void session_evq_drop(struct session *s)
{
	session_event_free(s->evq[s->evq_head]);
	free(s->evq[s->evq_head]);
	s->evq_head = (s->evq_head + 1) % EVQ_MAX;
	s->evq_len--;
}

/* Queue one event for the consumer (taking over what it owns) and wake it. */
static void session_push(struct session *s, struct session_event *ev)
{
	struct session_event *e = malloc(sizeof(*e));
	uint64_t one = 1;

	if (!e) {
		session_event_free(ev);
		return;
	}
	*e = *ev;
	pthread_mutex_lock(&s->lock);
	if (s->evq_len == EVQ_MAX)
		session_evq_drop(s);
	s->evq[(s->evq_head + s->evq_len) % EVQ_MAX] = e;
	s->evq_len++;
	pthread_mutex_unlock(&s->lock);
	if (write(s->evfd, &one, sizeof(one)) < 0)
		return;
}

/*
 * What an end receives was sent with the peer's MSS: its tcpi_snd_mss
 * is exact where the receiver's own rcv_mss is only the kernel's guess
 * (536 until full-sized segments arrive).  A SYN captured says it too.
 */
static void session_cross_mss(struct seg_capture *cap, const struct sock_sample *peer_socks,
			      uint32_t peer_nsocks)
{
	if (!cap || cap->syn_mss[CAP_IN])
		return;
	if (peer_nsocks && peer_socks[0].tcp.has && peer_socks[0].tcp.snd_mss)
		cap->mss[CAP_IN] = peer_socks[0].tcp.snd_mss;
}

/*
 * An end captured only what arrives (capture_opts.in_only): what it sent
 * is what the other end received, counted by the other end's capture.
 * On a veth pair nothing is lost between the sender's side and the
 * receiver's taps but what the captures' drop counts (and the veth's
 * tx_dropped) show.  The MSS it sends with is the one the other end saw.
 */
static void session_cap_fill(struct seg_capture *to, const struct seg_capture *from,
			     const char *from_end)
{
	if (!to)
		return;
	seghist_free(&to->dir[CAP_OUT]);
	seghist_init(&to->dir[CAP_OUT]);
	if (!from || seghist_copy_sorted(&to->dir[CAP_OUT], &from->dir[CAP_IN])) {
		if (!to->warning[0])
			snprintf(to->warning, sizeof(to->warning), "what this end sent is "
				 "counted by the %s end's capture: %s", from_end,
				 from ? "out of memory" : "there is none");
		return;
	}
	if (!to->syn_mss[CAP_IN])
		to->syn_mss[CAP_IN] = from->syn_mss[CAP_OUT];
	if (from->mss[CAP_OUT])
		to->mss[CAP_IN] = from->mss[CAP_OUT];
}

/* Both ends' captures as if each had seen both directions. */
static void session_cap_merge(const struct session *s, struct seg_capture *local,
			      struct seg_capture *remote)
{
	if (local && s->cap_in_only[0])
		session_cap_fill(local, remote, "remote");
	if (remote && s->cap_in_only[1])
		session_cap_fill(remote, local, "local");
}

/* The local sampler's tick: pair it with the newest remote sample. */
static void session_sample_cb(const struct end_sample *smp, void *arg)
{
	struct session *s = arg;
	struct session_event ev = { .kind = SESSION_EV_SAMPLE,
				    .knobs_local = s->why_kn[0], .knobs_remote = s->why_kn[1] };

	if (sample_copy(&ev.local, smp))
		return;
	pthread_mutex_lock(&s->lock);
	if (s->has_remote && sample_copy(&ev.remote, &s->remote_last) == 0)
		ev.has_remote = true;
	pthread_mutex_unlock(&s->lock);
	if (ev.has_remote) {
		/* A tick before the remote end's first capture stays as it is. */
		if (ev.local.cap && ev.remote.cap)
			session_cap_merge(s, ev.local.cap, ev.remote.cap);
		session_cross_mss(ev.local.cap, ev.remote.socks, ev.remote.nsocks);
		session_cross_mss(ev.remote.cap, ev.local.socks, ev.local.nsocks);
	}
	session_push(s, &ev);
}

/*
 * Capture on the device that carries the control connection (the data
 * connections go the same way: same peer address), filtered to the data
 * ports the server announced.  With --capture a failure ends the run;
 * in auto mode it is noted and the run goes on.
 */
static int session_capture_open(struct session *s, const struct msg_ready *ready, char *err)
{
	/* In a lab the embedded server captures the other veth on this host;
	 * -w's file keeps both directions. */
	struct capture_opts co = {
		.family = s->p.family, .ports = ready->ports, .server = false,
		.udp = test_is_udp(s->p.type), .file = s->o.capture_file,
		.in_only = s->cap_in_only[1] && !s->o.capture_file,
	};
	char dev[32], peer[64], why[ERR_MAX];
	int ret;

	s->cap_in_only[0] = false;
	if (s->p.capture == CAPTURE_OFF)
		return 0;
	co.nports = co.udp ? s->nflows : 1;
	if (sockinfo_netdev(s->cfd, dev, sizeof(dev)))
		ret = err_set(why, -ENODEV, "capture: cannot tell which device carries the test");
	else if (getnameinfo((struct sockaddr *)&s->raddr, s->raddrlen, peer, sizeof(peer),
			     NULL, 0, NI_NUMERICHOST))
		ret = err_set(why, -EINVAL, "capture: cannot write the peer's address");
	else {
		co.dev = dev;
		co.peer = peer;
		ret = capture_open(&s->cap, &co, why);
	}
	if (!ret) {
		s->cap_in_only[0] = co.in_only;
		return 0;
	}
	if (s->p.capture == CAPTURE_ON || (s->o.capture_file && ret != -EPERM))
		return err_set(err, ret, "%s", why);
	snprintf(s->cap_note, sizeof(s->cap_note), "%s", why);
	return 0;
}


/* Resolve the host and open the control connection. */
static int session_connect(struct session *s, char *err)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai, *a;
	int timeout_ms = (int)(s->o.connect_timeout * 1000);
	int ret, last = -EHOSTUNREACH;

	hints.ai_family = s->o.af_hint;
	ret = getaddrinfo(s->host, s->port, &hints, &ai);
	if (ret)
		return err_set(err, -EHOSTUNREACH, "-H %s: %s", s->host, gai_strerror(ret));
	for (a = ai; a; a = a->ai_next) {
		int fd = socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (fd < 0) {
			last = -errno;
			continue;
		}
		last = wire_connect(fd, a->ai_addr, a->ai_addrlen, timeout_ms);
		if (!last) {
			memcpy(&s->raddr, a->ai_addr, a->ai_addrlen);
			s->raddrlen = a->ai_addrlen;
			s->cfd = fd;
			break;
		}
		close(fd);
	}
	freeaddrinfo(ai);
	if (s->cfd < 0)
		return err_set(err, last, "connect to %s at %s port %s: %s%s",
			       s->o.netserver ? "netserver" : "tunetopd", s->host, s->port, strerror(-last),
			       last == -ETIMEDOUT ? " (no answer within the connect timeout)" : "");
	s->p.family = s->raddr.ss_family;
	wire_addr_str(&s->raddr, s->res.remote_addr, sizeof(s->res.remote_addr));
	wire_keepalive(s->cfd);
	return 0;
}

/* Wait for one frame of the wanted type; SAMPLE frames are kept as they come. */
static int session_expect(struct session *s, enum msg_type want, json_t **body,
			  int timeout_ms, char *err)
{
	uint64_t deadline = now_ns() + (uint64_t)timeout_ms * 1000000ull;

	for (;;) {
		enum msg_type t;
		json_t *b = NULL;
		int64_t left = (int64_t)(deadline - now_ns()) / 1000000;
		int ret;

		if (left < 0)
			left = 0;
		ret = proto_recv(s->cfd, &t, &b, (int)left, err);
		if (ret == -ETIMEDOUT)
			return err_set(err, ret, "remote end (%s): no %s within %.3g s",
				       s->res.remote_addr, proto_type_name(want), timeout_ms / 1000.0);
		if (ret == -EPIPE)
			return err_set(err, ret, "remote end (%s): closed the control connection",
				       s->res.remote_addr);
		if (ret)
			return ret;
		if (t == want) {
			*body = b;
			return 0;
		}
		if (t == MSG_SAMPLE) {
			struct end_sample smp;
			char serr[ERR_MAX];

			if (sample_from_json(b, &smp, serr) == 0) {
				pthread_mutex_lock(&s->lock);
				sample_free(&s->remote_last);
				s->remote_last = smp;
				s->has_remote = true;
				pthread_mutex_unlock(&s->lock);
			}
			json_decref(b);
			continue;
		}
		ret = wire_error_from(t, b, "remote end", s->res.remote_addr, err);
		json_decref(b);
		return ret;
	}
}

/*
 * A remote tunetopd's knobs, asked for with KNOB_GET on the control
 * connection before the test (any client may read them): the device is the
 * one the daemon is reached through.
 */
static int session_remote_knobs(struct session *s, char *err)
{
	struct msg_knob_get *q = calloc(1, sizeof(*q));
	struct msg_knob_values *a = calloc(1, sizeof(*a));
	struct knob_snapshot *snap = calloc(1, sizeof(*snap));
	json_t *b = NULL;
	int ret;

	if (!q || !a || !snap) {
		ret = err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	b = msg_knob_get_to_json(q);
	ret = b ? proto_send(s->cfd, MSG_KNOB_GET, b, err) : err_set(err, -ENOMEM, "out of memory");
	json_decref(b);
	b = NULL;
	if (!ret)
		ret = session_expect(s, MSG_KNOB_VALUES, &b, 10000, err);
	if (!ret)
		ret = msg_knob_values_from_json(b, a, err);
	if (ret)
		goto out;
	snap->item = calloc(a->n ? a->n : 1, sizeof(*snap->item));
	if (!snap->item) {
		ret = err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	snprintf(snap->side, sizeof(snap->side), "remote");
	for (unsigned i = 0; i < a->n; i++) {
		struct knob_snapshot_item *it = &snap->item[snap->n++];

		snprintf(it->name, sizeof(it->name), "%s", a->v[i].name);
		it->v.present = a->v[i].present;
		snprintf(it->v.text, sizeof(it->v.text), "%s", a->v[i].text);
		snprintf(it->v.reason, sizeof(it->v.reason), "%s", a->v[i].reason);
	}
	s->res.knobs_remote = snap;
	snap = NULL;
out:
	json_decref(b);
	knobs_snapshot_free(snap);
	free(q);
	free(a);
	return ret;
}

/*
 * Record every catalog knob of both ends before the run (DESIGN's data
 * flow, step 1): the lab's two sides, this host twice for the embedded
 * loopback server, or this host and a remote tunetopd.
 */
static void session_snapshot_knobs(struct session *s)
{
	struct session_result *r = &s->res;
	struct knob_target lt = { .where = KT_LOCAL }, rt = { .where = KT_LOCAL };
	char err[ERR_MAX];

	if (catalog_load(&r->catalog, catalog_default_path(), err)) {
		snprintf(r->knobs_note, sizeof(r->knobs_note), "knobs not recorded: %.200s", err);
		return;
	}
	if (s->o.lab && !s->o.host) {
		bool rev = s->o.lab_reverse;

		lt = (struct knob_target){ .where = rev ? KT_LAB_B : KT_LAB_A, .lab = s->o.lab };
		rt = (struct knob_target){ .where = rev ? KT_LAB_A : KT_LAB_B, .lab = s->o.lab };
		snprintf(lt.dev, sizeof(lt.dev), "%s", rev ? "veth-b" : "veth-a");
		snprintf(rt.dev, sizeof(rt.dev), "%s", rev ? "veth-a" : "veth-b");
	} else if (sockinfo_netdev(s->cfd, lt.dev, sizeof(lt.dev))) {
		lt.dev[0] = '\0';
	}
	if (knobs_snapshot(r->catalog, &lt, &r->knobs_local, err))
		snprintf(r->knobs_note, sizeof(r->knobs_note), "local knobs not recorded: %.200s", err);
	if (s->o.netserver) {
		snprintf(r->knobs_note, sizeof(r->knobs_note),
			 "remote knobs not recorded: netserver has none to read");
		return;
	}
	if (s->o.host) {
		if (session_remote_knobs(s, err))
			snprintf(r->knobs_note, sizeof(r->knobs_note),
				 "remote knobs not recorded: %.200s", err);
		return;
	}
	/* Loopback: the same device; a lab's server end was named above
	 * (veth-a when reversed). */
	if (!s->o.lab)
		snprintf(rt.dev, sizeof(rt.dev), "%s", lt.dev);
	if (knobs_snapshot(r->catalog, &rt, &r->knobs_remote, err))
		snprintf(r->knobs_note, sizeof(r->knobs_note), "remote knobs not recorded: %.200s", err);
}

static void session_snapshot(struct session *s)
{
	session_snapshot_knobs(s);
	/* What the live verdicts need of it, copied into every tick. */
	why_knobs_read(&s->why_kn[0], s->res.knobs_local);
	why_knobs_read(&s->why_kn[1], s->res.knobs_remote);
}

/*
 * HELLO, then SETUP; returns the data ports of READY.  1 (nothing else
 * done) when -H HOST answered the HELLO as a netserver does.
 */
static int session_handshake(struct session *s, struct msg_ready *ready, char *err)
{
	struct msg_hello hello = { .name = "tunetop", .version = PACKAGE_VERSION };
	int tmo = (int)(s->o.connect_timeout * 1000);
	struct msg_hello_ok hok;
	json_t *b, *setup;
	char peer[320];
	int ret;

	/* Padded to a whole netserver message, so that a netserver answers it
	 * as an unknown request instead of waiting for the rest in silence
	 * (docs/netserver.md, "Telling netserver from something else").  A
	 * tunetopd answers HELLO at once; the connect timeout bounds it. */
	snprintf(peer, sizeof(peer), "-H %.200s port %s",
		 s->o.host ? s->host : "(embedded server)", s->port);
	b = msg_hello_to_json(&hello);
	ret = b ? ns_hello(s->cfd, b, tmo, peer, err) :
		  err_set(err, -ENOMEM, "hello: out of memory");
	json_decref(b);
	if (ret)
		return ret;
	ret = session_expect(s, MSG_HELLO_OK, &b, tmo, err);
	if (ret)
		return ret;
	ret = msg_hello_ok_from_json(b, &hok, err);
	json_decref(b);
	if (ret)
		return ret;
	snprintf(s->remote_host, sizeof(s->remote_host), "%s", hok.host);
	s->res.remote_ncpu = hok.ncpu;
	/* Knobs are read between HELLO and SETUP, before anything runs. */
	session_snapshot(s);

	setup = params_to_json(&s->p);
	if (!setup)
		return err_set(err, -ENOMEM, "setup: out of memory");
	ret = proto_send(s->cfd, MSG_SETUP, setup, err);
	json_decref(setup);
	if (ret)
		return ret;
	ret = session_expect(s, MSG_READY, &b, 10000, err);
	if (ret)
		return ret;
	ret = msg_ready_from_json(b, ready, test_is_udp(s->p.type) ? s->nflows : 1, err);
	json_decref(b);
	return ret;
}

/* Open every flow's data socket towards the server's data port(s). */
static int session_open_flows(struct session *s, const uint16_t *ports, char *err)
{
	bool udp = test_is_udp(s->p.type);
	/* The embedded server's end accepts its sockets in this process
	 * after ours are open. */
	int ret = flows_fd_room(s->nflows, s->embedded ? 2 : 1, err);

	if (ret)
		return ret;

	for (unsigned i = 0; i < s->nflows; i++) {
		struct flow *f = &s->flows[i];
		struct sockaddr_storage a = s->raddr;

		wire_set_port(&a, udp ? ports[i] : ports[0]);
		memcpy(&f->peer, &a, sizeof(a));
		f->peerlen = s->raddrlen;
		if (flow_ops_for(s->p.type)->conn_per_trans)
			continue;
		f->fd = socket(s->p.family, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
		if (f->fd < 0)
			return err_set(err, -errno, "flow %u: socket: %s", i, strerror(errno));
		ret = flow_sockopts(f->fd, &s->p, true, err);
		if (ret)
			return ret;
		flow_note_bufs(f, f->fd);
		ret = wire_connect(f->fd, (struct sockaddr *)&a, s->raddrlen,
				      (int)(s->o.connect_timeout * 1000));
		if (ret)
			return err_set(err, ret, "flow %u: connect to data port %u: %s",
				       i, udp ? ports[i] : ports[0], strerror(-ret));
	}
	return 0;
}

/* Wait for every local worker to end. */
static int session_join(struct session *s, char *err)
{
	return flows_join(s->flows, s->nflows, &s->abort, DRAIN_TIMEOUT_MS, "local end", err);
}

/* The other end failed: end the local workers at once. */
static void session_abort_flows(struct session *s)
{
	flows_abort(s->flows, s->nflows, &s->abort);
}

/*
 * The measured interval: wait until the duration from t0 (when the flows
 * started: this thread may get the CPU back long after), a stop, or a
 * failure of the remote end, keeping the newest remote sample.
 */
static int session_wait_run(struct session *s, uint64_t t0, char *err)
{
	uint64_t end = t0 + (uint64_t)(s->p.duration * 1e9);

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = s->stop_efd, .events = POLLIN },
			{ .fd = s->cfd, .events = POLLIN },
		};
		int64_t left = (int64_t)(end - now_ns());
		int n;

		if (left <= 0)
			return 0;
		/* netserver says nothing until its results: the flows tell. */
		n = poll(pfd, s->o.netserver ? 1 : 2, (int)((left + 999999) / 1000000));
		if (n < 0 && errno != EINTR)
			return err_set(err, -errno, "local end: poll: %s", strerror(errno));
		if (n > 0 && pfd[0].revents)
			return 0;
		if (n > 0 && pfd[1].revents) {
			json_t *b = NULL;
			int ret = session_expect(s, MSG_RESULT, &b, 0, err);

			/* A RESULT before the stop means the server ended. */
			json_decref(b);
			if (ret == -ETIMEDOUT)
				continue;
			return ret ? ret : err_set(err, -EPROTO,
				"remote end (%s): sent its result before the stop", s->res.remote_addr);
		}
		for (unsigned i = 0; i < s->nflows; i++)
			if (__atomic_load_n(&s->flows[i].done, __ATOMIC_ACQUIRE) && s->flows[i].err)
				return err_set(err, s->flows[i].err, "local end: %s", s->flows[i].errbuf);
	}
}

/* Tell the server the client's side has ended, with its counts. */
static int session_send_stop(struct session *s, const struct flow_counters *c,
			     double elapsed, char *err)
{
	struct msg_stop m = { .elapsed = elapsed, .total = *c };
	json_t *b = msg_stop_to_json(&m);
	int ret = proto_send(s->cfd, MSG_STOP, b, err);

	json_decref(b);
	return ret;
}

/* Compare both ends' counts; they must agree exactly (UDP: loss is named). */
static void session_check_counts(struct session *s)
{
	struct session_result *r = &s->res;
	char *out = r->counts;
	size_t n = sizeof(r->counts);

	r->counts_agree = flow_ops_for(s->p.type)->counts(&r->local.total,
		&r->remote.total, &s->p, s->o.netserver, &r->udp_lost, out, n);
	if (!r->counts_agree) {
		static const char pre[] = "COUNTS DISAGREE: ";
		size_t len = strnlen(out, n - sizeof(pre));

		memmove(out + sizeof(pre) - 1, out, len);
		memcpy(out, pre, sizeof(pre) - 1);
		out[sizeof(pre) - 1 + len] = '\0';
	}
}

/* Judge what limited the finished run: res.why (docs/why.md). */
static void session_why(struct session *s)
{
	struct session_result *r = &s->res;
	struct why_input in;
	struct lab_info li;
	char err[ERR_MAX];
	uint64_t tbf = 0;

	if (s->o.lab && !s->o.host && lab_info(s->o.lab, &li, err) == 0)
		tbf = li.rate_bps;
	why_input_result(&in, &s->p, r, tbf);
	why_eval(&in, &r->why);
}

/* Throughput, service demand and segments per transaction. */
static void session_derive(struct session *s)
{
	struct session_result *r = &s->res;
	double e = r->elapsed;
	double units;

	session_cap_merge(s, r->local.cap, r->remote.cap);
	session_cross_mss(r->local.cap, r->remote.socks, r->remote.nsocks);
	session_cross_mss(r->remote.cap, r->local.socks, r->local.nsocks);
	if (!r->local.cap && s->cap_note[0])
		snprintf(r->local.cap_note, sizeof(r->local.cap_note), "%s", s->cap_note);

	r->units = units_rate(s->p.type)->name;
	if (test_is_rr(s->p.type)) {
		r->sd_units = "us/Tran";
		units = (double)r->local.total.trans;
		r->throughput = e > 0 ? units / e : 0;
	} else {
		/* netperf reports what the receiving end got. */
		uint64_t bytes = flow_ops_for(s->p.type)->server_sends ?
				 r->local.total.bytes_recv :
				 r->remote.total.bytes_recv;

		r->sd_units = "us/KB";
		units = (double)bytes / 1024.0;
		r->throughput = e > 0 ? (double)bytes * 8.0 / units_rate(s->p.type)->div / e : 0;
	}
	r->local_sd = service_demand(r->local.cpu.total.busy, r->local.cpu.ncpu, e, units);
	r->remote_sd = service_demand(r->remote.cpu.total.busy, r->remote.cpu.ncpu,
				      r->remote.elapsed > 0 ? r->remote.elapsed : e, units);
	r->local_ncpu = r->local.cpu.ncpu;
	session_segs_per_trans(&r->local, test_is_rr(s->p.type), &r->segs_local);
	session_segs_per_trans(&r->remote, test_is_rr(s->p.type), &r->segs_remote);
	session_why(s);
}

struct embed_ctx {
	struct session *s;
	struct server_opts so;
	int ret;
	char err[ERR_MAX];
};

/*
 * Open the embedded server from a thread of its own that first enters the
 * lab's server side: its sockets, and the threads it starts, live there.
 */
static void *embed_thread(void *arg)
{
	struct embed_ctx *e = arg;

	e->ret = lab_enter(e->s->o.lab, target_lab_side(&e->s->o, true), e->err);
	if (!e->ret)
		e->ret = server_open(&e->s->embedded, &e->so, e->err);
	if (!e->ret)
		e->ret = server_start_thread(e->s->embedded, e->err);
	return NULL;
}

/* Start the embedded server (in the lab, or on loopback) and aim at it. */
static int session_embed(struct session *s, char *err)
{
	bool v6 = s->o.af_hint == AF_INET6;
	struct embed_ctx e = {
		.s = s,
		.so = { .port = "0", .max_sessions = 4 },
	};
	const char *why = s->o.why ? s->o.why : "no -H given";
	pthread_t t;
	int ret;

	if (s->o.lab) {
		struct lab_info li;

		e.so.listen_addr = lab_addr(s->o.lab, target_lab_side(&s->o, true),
					    v6 ? AF_INET6 : AF_INET);
		e.so.capture_in_only = s->cap_in_only[1] = true;
		ret = pthread_create(&t, NULL, embed_thread, &e);
		if (ret)
			return err_set(err, -ret, "embedded server: thread: %s", strerror(ret));
		pthread_join(t, NULL);
		if (e.ret)
			return err_set(err, e.ret, "%s", e.err);
		snprintf(s->res.target_short, sizeof(s->res.target_short), "lab:%s",
			 lab_name(s->o.lab));
		if (lab_info(s->o.lab, &li, NULL) == 0)
			lab_describe(&li, s->res.target, sizeof(s->res.target));
		else
			snprintf(s->res.target, sizeof(s->res.target), "lab");
	} else {
		e.so.listen_addr = v6 ? "::1" : "127.0.0.1";
		ret = server_open(&s->embedded, &e.so, err);
		if (!ret)
			ret = server_start_thread(s->embedded, err);
		if (ret)
			return ret;
		snprintf(s->res.target, sizeof(s->res.target),
			 "loopback: embedded tunetopd on %s (%s)", e.so.listen_addr, why);
		snprintf(s->res.target_short, sizeof(s->res.target_short), "loopback");
	}
	snprintf(s->host, sizeof(s->host), "%s", e.so.listen_addr);
	snprintf(s->port, sizeof(s->port), "%d", server_port(s->embedded));
	return 0;
}

/* Whether this host's namespace saves TCP metrics of closed connections. */
static bool session_host_saves_metrics(void)
{
	return read_int_file("/proc/sys/net/ipv4/tcp_no_metrics_save", 0) == 0;
}

/*
 * Runs must not inherit what earlier runs left in the kernel's TCP
 * metrics cache (ssthresh, reordering, RTT per destination: they size a
 * new connection's buffers).  A lab of tunetop's is emptied before every
 * run; a host is not tunetop's to change, so the result says what it
 * keeps (docs/HACKING.md, "Kernel facts").
 */
static int session_metrics(struct session *s, char *err)
{
	struct session_result *r = &s->res;
	bool saves = session_host_saves_metrics();
	int ret;

	r->state_note[0] = '\0';
	if (s->o.lab) {
		ret = lab_flush_tcp_metrics(s->o.lab, err);
		if (ret)
			return ret;
		r->metrics_local = r->metrics_remote = "flushed";
		return 0;
	}
	r->metrics_local = saves ? "kept (host)" : "not saved (host: tcp_no_metrics_save=1)";
	if (!s->o.host) {
		r->metrics_remote = r->metrics_local;
		if (saves)
			snprintf(r->state_note, sizeof(r->state_note),
				 "both ends keep the host's TCP metrics cache (loopback): runs may influence each other");
		return 0;
	}
	r->metrics_remote = "kept (remote host)";
	snprintf(r->state_note, sizeof(r->state_note),
		 "%s TCP metrics cache (host): runs may influence each other",
		 saves ? "both ends keep their host's" : "the remote end keeps its host's");
	return 0;
}

/* The whole run, on the session's own thread. */
/*
 * The measured interval: open the flows to the data port(s), run them until
 * the duration or a stop, and keep the local end's final figures.
 */
static int session_measure(struct session *s, const struct msg_ready *ready, char *err)
{
	uint64_t t0, t1;
	int ret, fret;
	char ferr[ERR_MAX] = "";

	ret = session_capture_open(s, ready, err);
	if (ret)
		return ret;
	ret = session_open_flows(s, ready->ports, err);
	if (ret)
		return ret;
	ret = sampler_create(&s->sampler, s->flows, s->nflows, &s->p,
			     session_sample_cb, s, err);
	if (ret)
		return ret;
	if (s->cap)
		sampler_set_capture(s->sampler, s->cap);
	/* netserver starts on its own once the data connection is there. */
	if (!s->o.netserver) {
		ret = proto_send(s->cfd, MSG_GO, NULL, err);
		if (ret)
			return ret;
	}
	ret = sampler_start(s->sampler, err);
	if (ret)
		return ret;
	/* Clients stop by themselves at the end of -l (not MAERTS: there the
	 * server sends and hears of the stop from us). */
	ret = flows_start(s->flows, s->nflows, &s->gate,
			  flow_ops_for(s->p.type)->server_sends ? 0 :
			  (uint64_t)(s->p.duration * 1e9), &s->abort, &t0, err);
	if (ret) {
		session_join(s, ferr);
		return ret;
	}

	ret = session_wait_run(s, t0, err);
	if (!ret && s->user_abort)
		ret = err_set(err, -ECANCELED, "local end: run aborted by the user");
	if (ret)
		session_abort_flows(s);
	/* MAERTS: the server is the sender and must hear of the stop first
	 * (netserver stops on its own timer and closes). */
	if (!ret && flow_ops_for(s->p.type)->server_sends && !s->o.netserver)
		ret = session_send_stop(s, &(struct flow_counters){ 0 },
					(double)(now_ns() - t0) / 1e9, err);
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
	fret = session_join(s, ferr);
	/* The run ended with its last flow, not when this thread saw it. */
	t1 = flows_last_done(s->flows, s->nflows, now_ns());
	s->res.elapsed = s->res.local.elapsed = (double)(t1 - t0) / 1e9;
	sampler_final(s->sampler, &s->res.local, ferr[0] ? NULL : ferr);
	if (ret)
		return ret;
	if (fret)
		return err_set(err, fret, "%s", ferr);
	return 0;
}

static int session_found_netserver(struct session *s, char *err);

static int session_run(struct session *s, char *err)
{
	struct msg_ready ready = { 0 };
	struct flow_counters ltot;
	json_t *b = NULL;
	int ret;

	ret = session_metrics(s, err);
	if (ret)
		return ret;
	if (!s->o.host) {
		ret = session_embed(s, err);
		if (ret)
			return ret;
	} else {
		snprintf(s->res.target, sizeof(s->res.target), "host: tunetopd at %.100s port %s",
			 s->host, s->port);
		snprintf(s->res.target_short, sizeof(s->res.target_short), "host:%.80s",
			 s->host);
	}
	ret = session_connect(s, err);
	if (ret)
		return ret;
	ret = session_handshake(s, &ready, err);
	if (ret == 1)
		return session_found_netserver(s, err);
	if (ret)
		return ret;
	ret = session_measure(s, &ready, err);
	if (ret)
		return ret;

	ltot = s->res.local.total;
	if (!flow_ops_for(s->p.type)->server_sends) {
		ret = session_send_stop(s, &ltot, s->res.elapsed, err);
		if (ret)
			return ret;
	}
	ret = session_expect(s, MSG_RESULT, &b, RESULT_TIMEOUT_MS, err);
	if (ret)
		return ret;
	ret = result_from_json(b, &s->res.remote, err);
	json_decref(b);
	if (ret) {
		/* The decoder's "result: member 'X': ...", named once. */
		char why[ERR_MAX];
		const char *w = why;

		snprintf(why, sizeof(why), "%s", err);
		if (!strncmp(w, "result: ", 8))
			w += 8;
		return err_set(err, ret, "remote end (%s): bad result: %s", s->res.remote_addr, w);
	}
	proto_send(s->cfd, MSG_BYE, NULL, NULL);
	s->res.remote_ncpu = s->res.remote.cpu.ncpu;
	session_check_counts(s);
	if (!s->res.counts_agree)
		return err_set(err, -EPROTO, "%s", s->res.counts);
	return 0;
}

/* What a run against netserver cannot do; checked before anything starts. */
static int session_netserver_check(const struct session *s, char *err)
{
	if (!s->o.host)
		return err_set(err, -EINVAL, "--netserver: needs -H HOST, the host netserver runs on");
	if (s->p.flows != 1)
		return err_set(err, -EINVAL, "-n %u against netserver: netserver serves one data connection per test; accepted: -n 1",
			       s->p.flows);
	return 0;
}

/* netserver's final figures as the remote end's result (docs/netserver.md). */
static void session_netserver_result(struct session *s, const struct ns_response *a,
				     const struct ns_results *z)
{
	struct end_result *e = &s->res.remote;
	struct sock_sample *k = calloc(1, sizeof(*k));

	s->res.remote_final_only = true;
	e->elapsed = z->elapsed;
	e->total.trans = z->trans_received;
	e->total.bytes_sent = z->bytes_sent;
	e->total.bytes_recv = z->bytes_received;
	e->total.msgs_sent = z->send_calls;
	e->total.msgs_recv = z->recv_calls;
	/* -T ,N went in the request's word 1; netserver binds its child */
	e->cpu_bind = s->p.rcpu;
	e->cpu_main = -1;
	e->segs_out = e->segs_in = e->data_segs_out = e->data_segs_in = -1;
	e->sampler_cpu = e->flows_cpu = -1;
	snprintf(e->cong_control, sizeof(e->cong_control), "%.15s", z->cong_control);
	if (k) {
		*k = (struct sock_sample){
			.sndbuf_init = a->send_buf_size, .rcvbuf_init = a->recv_buf_size,
			.sndbuf_conn = -1, .rcvbuf_conn = -1,
			.sndbuf = z->send_buf_size, .rcvbuf = z->recv_buf_size,
			.outq = -1, .inq = -1,
		};
		e->socks = k;
		e->nsocks = 1;
	}
	if (z->has_cpu) {
		struct cpu_util *t = &e->cpu.total;

		e->cpu.ncpu = z->num_cpus;
		*t = (struct cpu_util){
			.id = -1, .user = z->cpu_user, .sys = z->cpu_system,
			.irq = z->cpu_irq, .softirq = z->cpu_softirq, .iowait = z->cpu_iowait,
			.busy = z->cpu_util, .idle = 100.0 - z->cpu_util - z->cpu_iowait,
		};
		e->cpu.peak_busy = z->peak_cpu_util;
		e->cpu.peak_id = z->peak_cpu_util >= 0 ? z->peak_cpu_id : -1;
		s->res.remote_ncpu = z->num_cpus;
	}
	if (s->p.capture != CAPTURE_OFF)
		snprintf(e->cap_note, sizeof(e->cap_note), "netserver: no capture on its end");
}

/* What the run is against: a netserver, named as target_describe() does. */
static void session_netserver_target(struct session *s)
{
	snprintf(s->res.target, sizeof(s->res.target), "netserver at %.100s port %s",
		 s->host, s->port);
	snprintf(s->res.target_short, sizeof(s->res.target_short), "netserver:%.80s", s->host);
	snprintf(s->remote_host, sizeof(s->remote_host), "%.63s", s->host);
}

/*
 * The whole run against an unmodified netserver 2.7 (docs/netserver.md):
 * DO_OMNI, its answer with the data port, tunetop's own flows for the
 * measured interval, then netserver's results.
 */
static int session_run_netserver(struct session *s, char *err)
{
	struct session_link *l = s->o.link;
	struct msg_ready ready = { .nports = 1 };
	int tmo = (int)(s->o.connect_timeout * 1000);
	struct ns_request q;
	struct ns_response a;
	struct ns_results z;
	uint8_t msg[NS_MSG_LEN];
	char peer[320], why[ERR_MAX];
	int ret;

	ret = session_metrics(s, err);
	if (ret)
		return ret;
	session_netserver_target(s);
	snprintf(peer, sizeof(peer), "-H %.200s port %s (netserver)", s->host, s->port);
	if (l && l->cfd >= 0) {
		/* -i: the next test on the connection of the first, asking
		 * for its data port again, as netperf does */
		s->cfd = l->cfd;
		l->cfd = -1;
		memcpy(&s->raddr, &l->raddr, l->raddrlen);
		s->raddrlen = l->raddrlen;
		s->p.family = s->raddr.ss_family;
		wire_addr_str(&s->raddr, s->res.remote_addr, sizeof(s->res.remote_addr));
	} else {
		ret = session_connect(s, err);
		if (ret)
			return ret;
	}
	session_snapshot(s);
	ns_request_from_params(&s->p, &q);
	if (l)
		q.data_port = l->data_port;
	ns_request_encode(&q, msg);
	ret = ns_send_msg(s->cfd, msg, err);
	if (!ret)
		ret = ns_recv_msg(s->cfd, msg, tmo, peer, err);
	if (!ret && (ret = ns_response_decode(msg, NS_MSG_LEN, &a, why)))
		err_set(err, ret, "%s: %s", peer, why);
	if (ret)
		return ret;
	ready.ports[0] = (uint16_t)a.data_port;
	if (l && !l->data_port)
		l->data_port = ready.ports[0];
	ret = session_measure(s, &ready, err);
	if (ret)
		return ret;
	/* UDP: netserver ends on its own timer, one test length after its answer. */
	ret = ns_recv_msg(s->cfd, msg, RESULT_TIMEOUT_MS + q.test_length * 1000, peer, err);
	if (!ret && (ret = ns_results_decode(msg, NS_MSG_LEN, q.flags & NS_FLAG_MEASURE_CPU, &z, why)))
		err_set(err, ret, "%s: %s", peer, why);
	if (ret)
		return ret;
	session_netserver_result(s, &a, &z);
	/* netserver's own counts; they are reported, not a reason to fail. */
	session_check_counts(s);
	if (l) {
		/* netserver waits on this connection for the next test */
		l->cfd = s->cfd;
		memcpy(&l->raddr, &s->raddr, s->raddrlen);
		l->raddrlen = s->raddrlen;
		s->cfd = -1;
	}
	return 0;
}

/*
 * -H HOST answered tunetop's HELLO as a netserver (docs/netserver.md): say
 * so once, and run as with --netserver on a new control connection (the
 * one of the HELLO has a netserver child that took the frame's length for
 * a CPU to bind to).
 */
static int session_found_netserver(struct session *s, char *err)
{
	struct session_event ev = { .kind = SESSION_EV_NOTE };
	bool v6 = strchr(s->host, ':') != NULL;
	int ret;

	close(s->cfd);
	s->cfd = -1;
	s->o.netserver = true;
	if (s->o.link)
		s->o.link->netserver = true;
	snprintf(ev.note, sizeof(ev.note), "%s%.100s%s:%s is a netserver: running as --netserver",
		 v6 ? "[" : "", s->host, v6 ? "]" : "", s->port);
	session_netserver_target(s);
	snprintf(ev.target, sizeof(ev.target), "%s", s->res.target);
	session_push(s, &ev);
	ret = session_netserver_check(s, err);
	if (ret)
		return ret;
	return session_run_netserver(s, err);
}

void session_link_init(struct session_link *l)
{
	memset(l, 0, sizeof(*l));
	l->cfd = -1;
}

void session_link_release(struct session_link *l)
{
	if (l->cfd >= 0)
		close(l->cfd);
	l->cfd = -1;
	l->data_port = 0;
}

static void *session_thread(void *arg)
{
	struct session *s = arg;
	struct session_event ev = { .kind = SESSION_EV_END };

	/* In a lab, every socket of the client end (and of the workers this
	 * thread starts) is made inside side a: never aimed at a lab address
	 * from the host. */
	s->ret = 0;
	if (s->o.lab && !s->o.host)
		s->ret = lab_enter(s->o.lab, target_lab_side(&s->o, false), s->err);
	if (!s->ret)
		s->ret = s->o.netserver ? session_run_netserver(s, s->err) : session_run(s, s->err);
	if (s->ret) {
		session_abort_flows(s);
		if (s->cfd >= 0 && !s->o.netserver)
			proto_send_error(s->cfd, "aborted", s->err);
	}
	/* Each end's host, in one place for every kind of run: the stored
	 * document names both (why-change.c leaves a host-wide row out once
	 * when both ends name the same host). */
	snprintf(s->res.local.host, sizeof(s->res.local.host), "%s", s->local_host);
	if (s->remote_host[0])
		snprintf(s->res.remote.host, sizeof(s->res.remote.host), "%s", s->remote_host);
	session_derive(s);
	session_push(s, &ev);
	return NULL;
}

/*
 * -F FILE: what netperf's send buffers hold, read once: up to the largest
 * send buffer of the test (repeated beyond the file's end), at most
 * SESSION_FILL_MAX bytes.  /dev/urandom is what flent passes.
 */
#define SESSION_FILL_MAX (4u << 20)

static int session_fill(struct session *s, const char *path, char *err)
{
	size_t want = s->p.req_size > s->p.send_size ? s->p.req_size : s->p.send_size;
	ssize_t n = 0;
	int fd;

	if (want < 65536)	/* the send size -m leaves to SO_SNDBUF */
		want = 65536;
	if (want > SESSION_FILL_MAX)
		want = SESSION_FILL_MAX;
	s->fill = malloc(want);
	if (!s->fill)
		return err_set(err, -ENOMEM, "-F %s: out of memory", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, -errno, "-F %s: %s; accepted: a readable file", path,
			       strerror(errno));
	while (s->fill_len < want && (n = read(fd, s->fill + s->fill_len, want - s->fill_len)) > 0)
		s->fill_len += (size_t)n;
	n = n < 0 ? -errno : 0;
	close(fd);
	if (n)
		return err_set(err, (int)n, "-F %s: %s", path, strerror((int)-n));
	if (!s->fill_len)
		return err_set(err, -EINVAL, "-F %s: empty; accepted: a file with something in it", path);
	return 0;
}

int session_create(struct session **sp, const struct session_opts *o, char *err)
{
	struct session *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return err_set(err, -ENOMEM, "session: out of memory");
	s->o = *o;
	s->p = o->p;
	s->cfd = -1;
	s->evfd = s->stop_efd = -1;
	why_knobs_read(&s->why_kn[0], NULL);
	why_knobs_read(&s->why_kn[1], NULL);
	pthread_mutex_init(&s->lock, NULL);
	if (!s->o.connect_timeout)
		s->o.connect_timeout = 5.0;
	if (o->af_hint)
		s->p.family = o->af_hint;
	ret = params_validate(&s->p, err);
	if (ret)
		goto fail;
	snprintf(s->host, sizeof(s->host), "%s", o->host ? o->host : "");
	snprintf(s->port, sizeof(s->port), "%s", o->port ? o->port :
		 o->netserver ? NS_DEFAULT_PORT : "12866");
	/* an earlier run of the command found a netserver there */
	if (o->host && o->link && o->link->netserver)
		s->o.netserver = true;
	if (s->o.netserver) {
		ret = session_netserver_check(s, err);
		if (ret)
			goto fail;
	}
	s->o.host = o->host ? s->host : NULL;
	s->nflows = s->p.flows;
	s->evq = calloc(EVQ_MAX, sizeof(*s->evq));
	s->flows = calloc(s->nflows, sizeof(*s->flows));
	if (!s->evq || !s->flows) {
		ret = err_set(err, -ENOMEM, "session: out of memory");
		goto fail;
	}
	if (test_is_rr(s->p.type)) {
		s->hists = malloc(sizeof(*s->hists) * s->nflows);
		if (!s->hists) {
			ret = err_set(err, -ENOMEM, "session: out of memory for %u histograms", s->nflows);
			goto fail;
		}
	}
	if (o->fill_file) {
		ret = session_fill(s, o->fill_file, err);
		if (ret)
			goto fail;
	}
	for (unsigned i = 0; i < s->nflows; i++) {
		struct flow *f = &s->flows[i];

		f->idx = i;
		f->p = &s->p;
		f->is_client = true;
		f->fd = f->listen_fd = -1;
		f->sndbuf_pre = f->rcvbuf_pre = -1;
		f->cpu = s->p.lcpu;
		f->stop = &s->stop;
		f->abort = &s->abort;
		f->fill = s->fill;
		f->fill_len = s->fill_len;
		if (s->hists) {
			hist_init(&s->hists[i]);
			f->lat = &s->hists[i];
		}
	}
	s->res.p = s->p;
	s->res.local.cpu_bind = s->p.lcpu;
	s->res.remote.cpu_bind = s->p.rcpu;
	gethostname(s->local_host, sizeof(s->local_host) - 1);
	s->evfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	s->stop_efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (s->evfd < 0 || s->stop_efd < 0) {
		ret = err_set(err, -errno, "session: eventfd: %s", strerror(errno));
		goto fail;
	}
	*sp = s;
	return 0;
fail:
	session_destroy(s);
	return ret;
}

int session_start(struct session *s, char *err)
{
	int ret = pthread_create(&s->thread, NULL, session_thread, s);

	if (ret)
		return err_set(err, -ret, "session: thread: %s", strerror(ret));
	s->started = true;
	return 0;
}

int session_event_fd(const struct session *s)
{
	return s->evfd;
}

int session_next_event(struct session *s, struct session_event *ev)
{
	uint64_t v;
	int ret = -EAGAIN;

	pthread_mutex_lock(&s->lock);
	if (s->evq_len) {
		*ev = *s->evq[s->evq_head];
		free(s->evq[s->evq_head]);
		s->evq_head = (s->evq_head + 1) % EVQ_MAX;
		s->evq_len--;
		ret = 0;
	}
	if (!s->evq_len && read(s->evfd, &v, sizeof(v)) < 0)
		v = 0;
	pthread_mutex_unlock(&s->lock);
	return ret;
}

void session_event_free(struct session_event *ev)
{
	sample_free(&ev->local);
	if (ev->has_remote)
		sample_free(&ev->remote);
	ev->has_remote = false;
}

void session_abort(struct session *s)
{
	s->user_abort = 1;
	session_stop(s);
}

void session_stop(struct session *s)
{
	uint64_t one = 1;

	if (write(s->stop_efd, &one, sizeof(one)) < 0)
		return;
}

int session_wait(struct session *s, struct session_result *r, char *err)
{
	if (!s->started)
		return err_set(err, -EINVAL, "session: not started");
	pthread_join(s->thread, NULL);
	s->started = false;
	*r = s->res;
	/* The caller owns what r points to now. */
	memset(&s->res.local, 0, sizeof(s->res.local));
	memset(&s->res.remote, 0, sizeof(s->res.remote));
	s->res.knobs_local = s->res.knobs_remote = NULL;
	s->res.catalog = NULL;
	if (s->ret)
		snprintf(err, ERR_MAX, "%s", s->err);
	return s->ret;
}

void session_result_free(struct session_result *r)
{
	result_free(&r->local);
	result_free(&r->remote);
	knobs_snapshot_free(r->knobs_local);
	knobs_snapshot_free(r->knobs_remote);
	catalog_free(r->catalog);
	r->knobs_local = r->knobs_remote = NULL;
	r->catalog = NULL;
}

void session_destroy(struct session *s)
{
	if (!s)
		return;
	if (s->started) {
		session_stop(s);
		pthread_join(s->thread, NULL);
	}
	sampler_destroy(s->sampler);
	capture_destroy(s->cap);
	for (unsigned i = 0; s->flows && i < s->nflows; i++)
		if (s->flows[i].fd >= 0)
			close(s->flows[i].fd);
	if (s->cfd >= 0)
		close(s->cfd);
	if (s->embedded) {
		server_shutdown(s->embedded);
		server_destroy(s->embedded);
	}
	while (s->evq && s->evq_len)
		session_evq_drop(s);
	if (s->has_remote)
		sample_free(&s->remote_last);
	session_result_free(&s->res);
	free(s->fill);
	if (s->evfd >= 0)
		close(s->evfd);
	if (s->stop_efd >= 0)
		close(s->stop_efd);
	pthread_mutex_destroy(&s->lock);
	free(s->evq);
	free(s->flows);
	free(s->hists);
	free(s);
}
