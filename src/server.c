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
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "msg.h"
#include "proto.h"
#include "sampler.h"
#include "server.h"
#include "wire.h"
#include "worker.h"

#define DEFAULT_MAX_SESSIONS 16
#define DEFAULT_IDLE_TIMEOUT 30
/* A connection that has not said HELLO by then is half-open: dropped. */
#define HELLO_TIMEOUT_MS 5000
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
	struct srv_session *sessions;
	unsigned nsessions;
};

struct srv_session {
	struct server *srv;
	int cfd;
	char peer[80];
	pthread_t thread;
	int done;
	struct srv_session *next;

	/* the test in progress */
	pthread_mutex_t wlock;		/* the sampler and the session both send */
	struct test_params p;
	struct flow *flows;
	unsigned nflows;
	int data_lfd;
	int stop, abort;
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

/* The server end's tick goes to the client as a SAMPLE frame. */
static void ss_sample_cb(const struct end_sample *smp, void *arg)
{
	struct srv_session *ss = arg;
	json_t *b = sample_to_json(smp);

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
	int one = 1;

	if (getsockname(ss->cfd, (struct sockaddr *)&a, &alen) < 0)
		return err_set(err, -errno, "getsockname: %s", strerror(errno));
	wire_set_port(&a, 0);
	for (unsigned i = 0; i < (udp ? ss->nflows : 1); i++) {
		int fd = socket(a.ss_family, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
		struct sockaddr_storage b;
		socklen_t blen = sizeof(b);
		int ret;

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

/* One test: SETUP has arrived with parameters p. */
static int ss_test(struct srv_session *ss, const struct test_params *p, char *err)
{
	struct msg_ready ready = { 0 };
	struct end_result res = { 0 };
	struct sampler *smp = NULL;
	enum msg_type t;
	json_t *b = NULL;
	uint64_t t0;
	int ret, jret;
	char jerr[ERR_MAX];

	ss->p = *p;
	ss->nflows = p->flows;
	ss->stop = ss->abort = 0;
	ss->data_lfd = -1;
	ss->flows = calloc(ss->nflows, sizeof(*ss->flows));
	if (!ss->flows)
		return err_set(err, -ENOMEM, "out of memory for %u flows", ss->nflows);
	for (unsigned i = 0; i < ss->nflows; i++) {
		struct flow *f = &ss->flows[i];

		f->idx = i;
		f->p = &ss->p;
		f->fd = f->listen_fd = -1;
		f->cpu = p->rcpu;
		f->stop = &ss->stop;
		f->abort = &ss->abort;
	}
	ret = ss_prepare(ss, ready.ports, err);
	if (ret)
		goto out;
	ready.nports = test_is_udp(p->type) ? ss->nflows : 1;
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
	if (p->type == TEST_TCP_CRR) {
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
	ret = sampler_start(smp, err);
	if (ret)
		goto out;
	t0 = now_ns();
	for (unsigned i = 0; i < ss->nflows && !ret; i++)
		ret = flow_start(&ss->flows[i], err);
	if (!ret)
		ret = ss_wait_stop(ss, err);
	if (ret)
		flows_abort(ss->flows, ss->nflows, &ss->abort);
	__atomic_store_n(&ss->stop, 1, __ATOMIC_RELEASE);
	jret = ss_join(ss, jerr);
	res.elapsed = (double)(now_ns() - t0) / 1e9;
	sampler_final(smp, &res, NULL);
	res.cpu_bind = p->rcpu;
	gethostname(res.host, sizeof(res.host) - 1);
	if (!ret && jret)
		ret = err_set(err, jret, "%s", jerr);
	if (!ret) {
		b = result_to_json(&res);
		ret = b ? ss_send(ss, MSG_RESULT, b, err) : err_set(err, -ENOMEM, "result: out of memory");
		json_decref(b);
		b = NULL;
	}
	srv_log(ss->srv, "%s: %s ended%s%s: %llu transactions, %llu bytes in, %llu bytes out",
		ss->peer, test_type_name(p->type), ret ? ": " : "", ret ? err : "",
		(unsigned long long)res.total.trans, (unsigned long long)res.total.bytes_recv,
		(unsigned long long)res.total.bytes_sent);
out:
	if (smp)
		sampler_destroy(smp);
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
	if (ret) {
		if (ret != -EPIPE)
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

		ret = proto_recv(ss->cfd, &t, &b, idle_ms, err);
		if (ret == -ETIMEDOUT)
			snprintf(err, sizeof(err), "idle for %u s", srv->o.idle_timeout);
		if (ret) {
			if (ret != -EPIPE)
				ss_error(ss, ss_code(ret), err);
			break;
		}
		if (t == MSG_BYE)
			break;
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
		srv_log(srv, "%s: %s, %u flow(s), %g s", ss->peer, test_type_name(p.type),
			p.flows, p.duration);
		ret = ss_test(ss, &p, err);
		if (ret && ret != -EPIPE)
			ss_error(ss, ss_code(ret), err);
	}
out:
	json_decref(b);
	if (ret && ret != -EPIPE)
		srv_log(srv, "%s: session ended: %s", ss->peer, err);
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

/* A new control connection: a session thread, or "busy". */
static void srv_accept(struct server *srv)
{
	struct sockaddr_storage a;
	socklen_t alen = sizeof(a);
	struct srv_session *ss;
	char peer[80], msg[160];
	int fd = accept4(srv->lfd, (struct sockaddr *)&a, &alen, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	wire_addr_str(&a, peer, sizeof(peer));
	srv_reap(srv, false);
	if (srv->nsessions >= srv->o.max_sessions) {
		snprintf(msg, sizeof(msg), "tunetopd busy: %u sessions running, the limit is %u; try again later",
			 srv->nsessions, srv->o.max_sessions);
		proto_send_error(fd, "busy", msg);
		srv_log(srv, "%s: refused: busy", peer);
		close(fd);
		return;
	}
	ss = calloc(1, sizeof(*ss));
	if (!ss) {
		proto_send_error(fd, "internal", "tunetopd: out of memory");
		close(fd);
		return;
	}
	ss->srv = srv;
	ss->cfd = fd;
	ss->data_lfd = -1;
	snprintf(ss->peer, sizeof(ss->peer), "%s", peer);
	pthread_mutex_init(&ss->wlock, NULL);
	if (pthread_create(&ss->thread, NULL, ss_thread, ss)) {
		proto_send_error(fd, "internal", "tunetopd: cannot start a session thread");
		close(fd);
		pthread_mutex_destroy(&ss->wlock);
		free(ss);
		return;
	}
	pthread_mutex_lock(&srv->lock);
	ss->next = srv->sessions;
	srv->sessions = ss;
	srv->nsessions++;
	pthread_mutex_unlock(&srv->lock);
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
	srv->lfd = -1;
	pthread_mutex_init(&srv->lock, NULL);
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
	free(srv);
}
