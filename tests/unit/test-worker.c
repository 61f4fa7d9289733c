// SPDX-License-Identifier: GPL-2.0-or-later
/* test-worker.c - every test type's two ends over real loopback sockets, played without a session. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "flows/worker.h"

#define NSRV 2		/* CRR server workers sharing one listener */

/* Both ends of one test, with the session's part played by the test. */
struct pair {
	struct test_params p;
	struct flow cli;
	struct flow srv[NSRV];
	unsigned nsrv;
	int stop_c, stop_s, abort_c, abort_s;
	struct hist lat;
	int cfd, sfd, lfd;
	char err[ERR_MAX];
};

static double mono(void)
{
	return (double)now_ns() / 1e9;
}

static void nap(double secs)
{
	struct timespec ts = {
		.tv_sec = (time_t)secs,
		.tv_nsec = (long)((secs - (double)(time_t)secs) * 1e9),
	};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void set_flag(int *flag)
{
	__atomic_store_n(flag, 1, __ATOMIC_RELAXED);
}

/* A loopback address of family with port 0. */
static socklen_t loopback(int family, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_addr = in6addr_loopback;
		return sizeof(*s6);
	}
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

	s4->sin_family = AF_INET;
	s4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return sizeof(*s4);
}

/* A socket of type bound to loopback port 0, server options applied; its address in ss. */
static int bound(const struct test_params *p, int type, struct sockaddr_storage *ss,
		 socklen_t *len)
{
	int fd = socket(p->family, type, 0);

	*len = loopback(p->family, ss);
	if (fd < 0 || flow_sockopts(fd, p, false, NULL) < 0 ||
	    bind(fd, (struct sockaddr *)ss, *len) < 0 ||
	    getsockname(fd, (struct sockaddr *)ss, len) < 0) {
		perror("bound");
		exit(99);
	}
	return fd;
}

/* Create the sockets a session would: connected pair, listener or UDP pair. */
static void pair_setup(struct pair *t)
{
	const struct test_params *p = &t->p;
	struct sockaddr_storage ss;
	socklen_t len;

	t->cfd = t->sfd = t->lfd = -1;
	hist_init(&t->lat);
	if (test_is_udp(p->type)) {
		t->sfd = bound(p, SOCK_DGRAM, &ss, &len);
		t->cfd = socket(p->family, SOCK_DGRAM, 0);
		if (t->cfd < 0 || flow_sockopts(t->cfd, p, true, NULL) < 0 ||
		    connect(t->cfd, (struct sockaddr *)&ss, len) < 0) {
			perror("udp connect");
			exit(99);
		}
	} else {
		t->lfd = bound(p, SOCK_STREAM, &ss, &len);
		if (listen(t->lfd, 128) < 0) {
			perror("listen");
			exit(99);
		}
		if (p->type != TEST_TCP_CRR) {
			t->cfd = socket(p->family, SOCK_STREAM, 0);
			if (t->cfd < 0 ||
			    flow_sockopts(t->cfd, p, true, NULL) < 0 ||
			    connect(t->cfd, (struct sockaddr *)&ss, len) < 0 ||
			    (t->sfd = accept(t->lfd, NULL, NULL)) < 0) {
				perror("tcp connect");
				exit(99);
			}
			close(t->lfd);
			t->lfd = -1;
		}
	}
	t->nsrv = p->type == TEST_TCP_CRR ? NSRV : 1;
	t->cli = (struct flow){
		.idx = 0, .p = p, .is_client = true, .fd = t->cfd,
		.listen_fd = -1, .cpu = -1, .stop = &t->stop_c,
		.abort = &t->abort_c, .lat = test_is_rr(p->type) ? &t->lat : NULL,
	};
	if (p->type == TEST_TCP_CRR) {
		memcpy(&t->cli.peer, &ss, len);
		t->cli.peerlen = len;
	}
	for (unsigned i = 0; i < t->nsrv; i++)
		t->srv[i] = (struct flow){
			.idx = i, .p = p, .is_client = false, .fd = t->sfd,
			.listen_fd = t->lfd, .cpu = -1, .stop = &t->stop_s,
			.abort = &t->abort_s,
		};
}

static void pair_close(struct pair *t)
{
	if (t->cfd >= 0)
		close(t->cfd);
	if (t->sfd >= 0)
		close(t->sfd);
	if (t->lfd >= 0)
		close(t->lfd);
}

static struct test_params params(enum test_type type, int family)
{
	struct test_params p;

	params_default(&p);
	p.type = type;
	p.family = family;
	p.nodelay = true;
	return p;
}

/* Run both ends for secs and end them the way the session does. */
static bool pair_run(struct pair *t, double secs)
{
	bool ok = true;

	for (unsigned i = 0; i < t->nsrv; i++)
		if (flow_start(&t->srv[i], t->err) < 0)
			return false;
	if (flow_start(&t->cli, t->err) < 0)
		return false;
	nap(secs);
	set_flag(&t->stop_c);
	if (t->p.type == TEST_TCP_CRR || test_is_udp(t->p.type)) {
		flow_join(&t->cli);
		set_flag(&t->stop_s);
	} else {
		set_flag(&t->stop_s);
	}
	if (flow_join(&t->cli) < 0) {
		printf("# client: %s\n", t->cli.errbuf);
		ok = false;
	}
	for (unsigned i = 0; i < t->nsrv; i++) {
		if (flow_join(&t->srv[i]) < 0) {
			printf("# server %u: %s\n", i, t->srv[i].errbuf);
			ok = false;
		}
	}
	return ok;
}

/* The servers' counters added up. */
static struct flow_counters srv_total(const struct pair *t)
{
	struct flow_counters c = { 0 };

	for (unsigned i = 0; i < t->nsrv; i++) {
		c.trans += t->srv[i].ctr.trans;
		c.bytes_sent += t->srv[i].ctr.bytes_sent;
		c.bytes_recv += t->srv[i].ctr.bytes_recv;
		c.msgs_sent += t->srv[i].ctr.msgs_sent;
		c.msgs_recv += t->srv[i].ctr.msgs_recv;
	}
	return c;
}

/* Run one configuration and check that both ends' counts agree as the type promises. */
static void check_counts(const struct test_params *p, double secs,
			 const char *what)
{
	struct pair *t = calloc(1, sizeof(*t));
	const struct flow_counters *c = &t->cli.ctr;
	struct flow_counters s;
	bool ran;

	t->p = *p;
	pair_setup(t);
	ran = pair_run(t, secs);
	s = srv_total(t);
	ok(ran, "%s: both ends end without an error", what);
	switch (p->type) {
	case TEST_TCP_RR:
	case TEST_TCP_CRR:
		ok(c->trans > 0 && c->trans == s.trans,
		   "%s: transactions agree (client %llu, server %llu)", what,
		   (unsigned long long)c->trans, (unsigned long long)s.trans);
		ok(c->bytes_sent == s.bytes_recv && c->bytes_recv == s.bytes_sent &&
		   c->bytes_sent == c->trans * p->req_size &&
		   c->bytes_recv == c->trans * p->resp_size,
		   "%s: bytes agree both ways and match trans x size", what);
		ok(t->lat.count == c->trans,
		   "%s: one latency per transaction (%llu)", what,
		   (unsigned long long)t->lat.count);
		break;
	case TEST_TCP_STREAM:
		ok(c->bytes_sent > 0 && c->bytes_sent == s.bytes_recv,
		   "%s: bytes agree (sent %llu, received %llu)", what,
		   (unsigned long long)c->bytes_sent,
		   (unsigned long long)s.bytes_recv);
		break;
	case TEST_TCP_MAERTS:
		ok(s.bytes_sent > 0 && s.bytes_sent == c->bytes_recv,
		   "%s: bytes agree (sent %llu, received %llu)", what,
		   (unsigned long long)s.bytes_sent,
		   (unsigned long long)c->bytes_recv);
		break;
	case TEST_UDP_RR:
		ok(c->trans > 0 && c->trans <= s.trans &&
		   c->msgs_sent >= s.msgs_recv && s.msgs_recv >= s.trans,
		   "%s: answered <= served <= sent (client %llu/%llu, server %llu)",
		   what, (unsigned long long)c->trans,
		   (unsigned long long)c->msgs_sent, (unsigned long long)s.trans);
		ok(t->lat.count == c->trans,
		   "%s: one latency per transaction (%llu)", what,
		   (unsigned long long)t->lat.count);
		break;
	case TEST_UDP_STREAM:
		ok(s.msgs_recv > 0 && c->msgs_sent >= s.msgs_recv &&
		   c->bytes_sent >= s.bytes_recv &&
		   s.bytes_recv == s.msgs_recv * params_send_size(p),
		   "%s: sent >= received > 0 (%llu, %llu datagrams)", what,
		   (unsigned long long)c->msgs_sent,
		   (unsigned long long)s.msgs_recv);
		break;
	default:
		break;
	}
	pair_close(t);
	free(t);
}

static void test_every_type_both_families(void)
{
	static const int fams[] = { AF_INET, AF_INET6 };
	char what[64];

	for (int ty = 0; ty < TEST_COUNT; ty++) {
		for (unsigned i = 0; i < 2; i++) {
			struct test_params p = params(ty, fams[i]);

			snprintf(what, sizeof(what), "%s %s", test_type_name(ty),
				 fams[i] == AF_INET ? "IPv4" : "IPv6");
			check_counts(&p, 0.3, what);
		}
	}
}

static void test_burst_and_large_sizes(void)
{
	struct test_params p;

	p = params(TEST_TCP_RR, AF_INET);
	p.burst = 16;
	check_counts(&p, 0.3, "TCP_RR -b 16");

	p = params(TEST_UDP_RR, AF_INET6);
	p.burst = 16;
	check_counts(&p, 0.3, "UDP_RR -b 16");

	/* Requests and responses far beyond the socket buffers, in a burst:
	 * both ends would block in send() if the client did not read while
	 * it sends. */
	p = params(TEST_TCP_RR, AF_INET);
	p.req_size = p.resp_size = 100000;
	p.burst = 16;
	p.lsndbuf = p.lrcvbuf = p.rsndbuf = p.rrcvbuf = 65536;
	check_counts(&p, 0.3, "TCP_RR -r 100000,100000 -b 16 -s/-S 64K");

	p = params(TEST_TCP_RR, AF_INET6);
	p.req_size = p.resp_size = 1 << 20;
	p.burst = 4;
	check_counts(&p, 0.3, "TCP_RR -r 1M,1M -b 4");

	p = params(TEST_TCP_RR, AF_INET);
	p.req_size = 1;
	p.resp_size = 1 << 20;
	check_counts(&p, 0.3, "TCP_RR -r 1,1M");

	p = params(TEST_TCP_CRR, AF_INET);
	p.req_size = p.resp_size = 100000;
	check_counts(&p, 0.3, "TCP_CRR -r 100000,100000");

	p = params(TEST_TCP_STREAM, AF_INET);
	p.send_size = 1 << 20;
	p.recv_size = 1 << 20;
	check_counts(&p, 0.3, "TCP_STREAM -m 1M -M 1M");

	p = params(TEST_TCP_MAERTS, AF_INET6);
	p.send_size = 1 << 20;
	p.recv_size = 1000;
	check_counts(&p, 0.3, "TCP_MAERTS -m 1M -M 1000");

	p = params(TEST_UDP_STREAM, AF_INET);
	p.send_size = 60000;
	check_counts(&p, 0.3, "UDP_STREAM -m 60000");

	/* Beyond the 1 MiB buffer cap: sent and received in chunks. */
	p = params(TEST_TCP_STREAM, AF_INET);
	p.send_size = p.recv_size = 3000000;
	check_counts(&p, 0.3, "TCP_STREAM -m 3000000 -M 3000000 (1 MiB chunks)");
	p = params(TEST_TCP_MAERTS, AF_INET);
	p.send_size = p.recv_size = 64 << 20;
	check_counts(&p, 0.3, "TCP_MAERTS -m 64M -M 64M (1 MiB chunks)");
}

/* The memory budget's estimate: buffers capped at 1 MiB, per flow. */
static void test_mem_need(void)
{
	struct test_params p = params(TEST_TCP_STREAM, AF_INET);
	uint64_t per = sizeof(struct flow) + FLOW_MEM_OVERHEAD;

	p.flows = 128;
	p.send_size = p.recv_size = 64 << 20;
	ok(flows_mem_need(&p, false) == 128 * (per + (1 << 20)),
	   "128 TCP_STREAM flows of -M 64M need 128 x (1 MiB + overhead) on the server: %llu",
	   (unsigned long long)flows_mem_need(&p, false));
	p.recv_size = 4096;
	ok(flows_mem_need(&p, false) == 128 * (per + 4096) &&
	   flows_mem_need(&p, true) == 128 * (per + (1 << 20)),
	   "a stream's receiver counts -M, its sender -m (capped)");
	p = params(TEST_UDP_RR, AF_INET);
	p.resp_size = 65507;
	ok(flows_mem_need(&p, false) == per + 65507 + 65507,
	   "a UDP_RR server: one whole datagram in, one response out");
	p = params(TEST_TCP_RR, AF_INET);
	p.req_size = p.resp_size = 64 << 20;
	p.burst = 4;
	ok(flows_mem_need(&p, false) == per + 2 * (1 << 20),
	   "TCP_RR buffers are capped at 1 MiB each");
}

/*
 * Start one end alone against a peer that does nothing; abort must end it
 * within 1 s: by itself, or with flow_interrupt() for TCP_RR (no timeouts).
 */
static void check_abort(enum test_type type, bool client, uint32_t req,
			uint32_t resp, const char *what)
{
	struct pair *t = calloc(1, sizeof(*t));
	struct flow *f;
	double t0, took;
	int r;

	t->p = params(type, AF_INET);
	t->p.req_size = req;
	t->p.resp_size = resp;
	pair_setup(t);
	f = client ? &t->cli : &t->srv[0];
	if (!ok(flow_start(f, t->err) == 0, "%s: starts", what))
		goto out;
	if (type == TEST_TCP_RR && !client && resp > 1) {
		char b[1] = { 0 };

		if (write(t->cfd, b, 1) != 1)
			perror("write");
	}
	nap(0.3);
	ok(!__atomic_load_n(&f->done, __ATOMIC_ACQUIRE),
	   "%s: still waiting on the silent peer", what);
	set_flag(client ? &t->abort_c : &t->abort_s);
	t0 = mono();
	if (type == TEST_TCP_RR)
		flow_interrupt(f);
	r = flow_join(f);
	took = mono() - t0;
	ok(r == 0 && took < 1.0, "%s: abort ends it in %.3f s without an error (%d %s)",
	   what, took, r, f->errbuf);
out:
	pair_close(t);
	free(t);
}

static void test_abort_with_silent_peer(void)
{
	check_abort(TEST_TCP_RR, true, 1, 1,
		    "TCP_RR client waiting for a response");
	check_abort(TEST_TCP_RR, true, 64u << 20, 1,
		    "TCP_RR client sending a 64 MiB request nobody reads");
	check_abort(TEST_TCP_RR, false, 1, 1,
		    "TCP_RR server waiting for a request");
	check_abort(TEST_TCP_RR, false, 1, 64u << 20,
		    "TCP_RR server sending a 64 MiB response nobody reads");
	check_abort(TEST_TCP_STREAM, true, 1, 1,
		    "TCP_STREAM sender nobody reads");
	check_abort(TEST_TCP_STREAM, false, 1, 1,
		    "TCP_STREAM receiver with no data");
	check_abort(TEST_TCP_MAERTS, true, 1, 1,
		    "TCP_MAERTS receiver with no data");
	check_abort(TEST_TCP_CRR, false, 1, 1,
		    "TCP_CRR server with no connections");
	check_abort(TEST_UDP_RR, false, 1, 1,
		    "UDP_RR server with no requests");
	check_abort(TEST_UDP_STREAM, false, 1, 1,
		    "UDP_STREAM server with no datagrams");
}

/* A UDP_RR client whose requests are never answered counts them lost. */
static void test_udp_rr_counts_unanswered_requests_lost(void)
{
	struct pair *t = calloc(1, sizeof(*t));
	int r;

	t->p = params(TEST_UDP_RR, AF_INET);
	t->p.burst = 3;
	pair_setup(t);
	if (flow_start(&t->cli, t->err) == 0) {
		nap(0.9);
		set_flag(&t->stop_c);
		r = flow_join(&t->cli);
		ok(r == 0 && t->cli.ctr.lost >= 1 &&
		   t->cli.ctr.trans == 0 &&
		   t->cli.ctr.msgs_sent == t->cli.ctr.lost,
		   "UDP_RR with a silent server: every request ends lost "
		   "(%llu sent, %llu lost)",
		   (unsigned long long)t->cli.ctr.msgs_sent,
		   (unsigned long long)t->cli.ctr.lost);
	}
	pair_close(t);
	free(t);
}

/* Sends refused by the kernel (no one listening: ECONNREFUSED) are counted, not fatal. */
static void test_udp_stream_refused_sends_are_retried(void)
{
	struct pair *t = calloc(1, sizeof(*t));
	int r;

	t->p = params(TEST_UDP_STREAM, AF_INET);
	pair_setup(t);
	close(t->sfd);
	t->sfd = -1;
	if (flow_start(&t->cli, t->err) == 0) {
		nap(0.2);
		set_flag(&t->stop_c);
		r = flow_join(&t->cli);
		ok(r == 0 && t->cli.send_errors > 0 &&
		   t->cli.ctr.msgs_sent > 0,
		   "UDP_STREAM to a closed port: %llu refusals counted, "
		   "sending went on (%llu sent)",
		   (unsigned long long)t->cli.send_errors,
		   (unsigned long long)t->cli.ctr.msgs_sent);
	}
	pair_close(t);
	free(t);
}

/* Whether the thread tid may run only on CPU cpu. */
static bool only_on(pid_t tid, int cpu)
{
	cpu_set_t set;

	if (sched_getaffinity(tid, sizeof(set), &set) < 0)
		return false;
	return CPU_COUNT(&set) == 1 && CPU_ISSET(cpu, &set);
}

static void test_pinning(void)
{
	struct pair *t = calloc(1, sizeof(*t));
	pid_t tid = 0;
	int r;

	t->p = params(TEST_TCP_RR, AF_INET);
	pair_setup(t);
	t->cli.cpu = 0;
	t->srv[0].cpu = 0;
	if (flow_start(&t->srv[0], t->err) == 0 &&
	    flow_start(&t->cli, t->err) == 0) {
		nap(0.2);
		/* Both on CPU 0 of a loaded machine: bounded, until one
		 * transaction is done (10 s at most). */
		for (int i = 0; i < 980 && !__atomic_load_n(&t->cli.ctr.trans, __ATOMIC_RELAXED); i++)
			nap(0.01);
		tid = __atomic_load_n(&t->cli.tid, __ATOMIC_ACQUIRE);
		ok(tid > 0 && tid != gettid() && only_on(tid, 0),
		   "a flow pinned to CPU 0 runs only on CPU 0 (tid %d)", tid);
		set_flag(&t->stop_c);
		set_flag(&t->stop_s);
		r = flow_join(&t->cli);
		r = r ? r : flow_join(&t->srv[0]);
		ok(r == 0 && t->cli.ctr.trans > 0 &&
		   t->cli.ctr.trans == t->srv[0].ctr.trans,
		   "pinned flows run and agree (%llu transactions)",
		   (unsigned long long)t->cli.ctr.trans);
	}
	pair_close(t);

	t->p = params(TEST_TCP_RR, AF_INET);
	pair_setup(t);
	t->cli.cpu = 9999;
	t->cli.idx = 7;
	r = flow_start(&t->cli, t->err);
	if (r == 0)
		r = flow_join(&t->cli);
	ok(r == -EINVAL && strstr(t->cli.errbuf, "flow 7: pin to CPU 9999: ") &&
	   t->cli.ctr.bytes_sent == 0,
	   "pinning to CPU 9999 fails before any data, saying so: %s",
	   t->cli.errbuf);
	pair_close(t);
	free(t);
}

/* A peer that closes half-way through a request: the server names the byte counts. */
static void check_mid_request(enum test_type type)
{
	struct pair *t = calloc(1, sizeof(*t));
	char buf[50] = { 0 };
	char want[ERR_MAX];
	int r, fd;

	t->p = params(type, AF_INET);
	t->p.req_size = 100;
	pair_setup(t);
	t->srv[0].idx = 2;
	if (type == TEST_TCP_CRR) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (connect(fd, (struct sockaddr *)&t->cli.peer, t->cli.peerlen) < 0)
			perror("connect");
	} else {
		fd = t->cfd;
		t->cfd = -1;
	}
	r = flow_start(&t->srv[0], t->err);
	if (r == 0) {
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			perror("write");
		close(fd);
		r = flow_join(&t->srv[0]);
	}
	snprintf(want, sizeof(want), "flow 2: peer closed mid-request after "
		 "50 of 100 bytes");
	ok(r == -EPIPE && !strcmp(t->srv[0].errbuf, want),
	   "%s server: a client closing mid-request is an error: %s",
	   test_type_name(type), t->srv[0].errbuf);
	pair_close(t);
	free(t);
}

/* A server that closes with a response outstanding is an error for the client. */
static void test_rr_client_sees_server_close(void)
{
	struct pair *t = calloc(1, sizeof(*t));
	char b;
	int r;

	t->p = params(TEST_TCP_RR, AF_INET);
	pair_setup(t);
	r = flow_start(&t->cli, t->err);
	if (r == 0) {
		if (read(t->sfd, &b, 1) != 1)
			perror("read");
		shutdown(t->sfd, SHUT_WR);
		r = flow_join(&t->cli);
	}
	ok(r == -EPIPE && strstr(t->cli.errbuf, "flow 0: recv: peer closed"),
	   "TCP_RR client: server closing with a response due is an error: %s",
	   t->cli.errbuf);
	pair_close(t);
	free(t);
}

/* Reset by the peer: an error while running, not one once stop is set. */
static void check_reset(bool stopped)
{
	struct pair *t = calloc(1, sizeof(*t));
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	int r;

	t->p = params(TEST_TCP_STREAM, AF_INET);
	pair_setup(t);
	t->srv[0].idx = 3;
	if (stopped)
		t->stop_s = 1;
	r = flow_start(&t->srv[0], t->err);
	if (r == 0) {
		nap(0.05);
		setsockopt(t->cfd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		close(t->cfd);
		t->cfd = -1;
		r = flow_join(&t->srv[0]);
	}
	if (stopped)
		ok(r == 0, "a peer reset after stop is not an error (%s)",
		   t->srv[0].errbuf);
	else
		ok(r == -ECONNRESET &&
		   !strcmp(t->srv[0].errbuf, "flow 3: recv: Connection reset by peer"),
		   "a peer reset while running is an error: %s", t->srv[0].errbuf);
	pair_close(t);
	free(t);
}

static void test_sockopts(void)
{
	struct test_params p = params(TEST_TCP_RR, AF_INET);
	int fd = socket(AF_INET, SOCK_STREAM, 0), v = 0, nd = 0, r;
	socklen_t len = sizeof(v);
	char err[ERR_MAX] = "";

	p.lsndbuf = 100000;
	p.rsndbuf = 50000;
	r = flow_sockopts(fd, &p, true, err);
	getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &len);
	len = sizeof(nd);
	getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &nd, &len);
	ok(r == 0 && v >= 100000 && v < 2 * 100000 + 4096,
	   "client -s sets SO_SNDBUF from lsndbuf (%d)", v);
	ok(r == 0 && nd, "-D sets TCP_NODELAY");
	close(fd);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	len = sizeof(v);
	r = flow_sockopts(fd, &p, false, err);
	getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &len);
	ok(r == 0 && v >= 50000 && v < 2 * 50000 + 4096,
	   "server -S sets SO_SNDBUF from rsndbuf (%d)", v);
	close(fd);
	p.type = TEST_UDP_RR;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	ok(flow_sockopts(fd, &p, true, err) == 0,
	   "-D is skipped on a UDP socket (%s)", err);
	close(fd);
}

/*
 * -n 1024 under the usual soft limit of 1024 open files: flows_fd_room
 * raises the soft limit, and names the hard one when even that is too
 * low.  Last, as it lowers this process's hard limit for good.
 */
static void test_fd_room(void)
{
	struct rlimit rl, now;
	char err[ERR_MAX] = "";
	int fds[300], k = 0, ret;

	if (getrlimit(RLIMIT_NOFILE, &rl) || (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < 400)) {
		ok(0, "a hard open files limit of 400 or more to test with");
		return;
	}
	now = (struct rlimit){ .rlim_cur = 128, .rlim_max = rl.rlim_max };
	ok(setrlimit(RLIMIT_NOFILE, &now) == 0, "soft open files limit lowered to 128");
	ok(flows_fd_room(150, 2, err) == 0, "room for 150 flows at 2 ends over a soft limit of 128 (%s)", err);
	while (k < 300 && (fds[k] = socket(AF_INET, SOCK_STREAM, 0)) >= 0)
		k++;
	ok(k == 300, "300 sockets opened after it (%d: %s)", k, k < 300 ? strerror(errno) : "");
	while (k > 0)
		close(fds[--k]);
	getrlimit(RLIMIT_NOFILE, &now);
	ok(now.rlim_max == rl.rlim_max, "the hard limit is left alone");
	ok(flows_fd_room(1, 1, err) == 0, "no change when the flows fit");

	now = (struct rlimit){ .rlim_cur = 200, .rlim_max = 200 };
	ok(setrlimit(RLIMIT_NOFILE, &now) == 0, "hard open files limit lowered to 200");
	err[0] = '\0';
	ret = flows_fd_room(300, 1, err);
	ok(ret == -EMFILE && strstr(err, "300 flow(s) (1 end in") && strstr(err, "hard limit of 200") &&
	   strstr(err, "accepted are fewer flows"),
	   "300 flows over a hard limit of 200: %d (%s)", ret, err);
}

/*
 * Every test type has complete ops (docs/HACKING.md, "a test type"), and
 * their counts checks say what the session printed before they moved
 * there: agreement, the text, and UDP's loss.
 */
static void test_ops_counts(void)
{
	struct test_params p;
	struct flow_counters l = { 0 }, m = { 0 };
	uint64_t lost = 7;
	char out[256];
	unsigned full = 0;
	bool agree;

	for (int t = 0; t < TEST_COUNT; t++) {
		const struct flow_ops *o = flow_ops_for(t);

		if (o && o->client && o->server && o->bufs && o->counts)
			full++;
		else
			ok(0, "%s: ops incomplete", test_type_name(t));
	}
	ok(full == TEST_COUNT, "flow ops: all %u test types have client, server, bufs, counts",
	   full);
	ok(flow_ops_for(TEST_TCP_CRR)->conn_per_trans &&
	   !flow_ops_for(TEST_TCP_RR)->conn_per_trans,
	   "flow ops: only TCP_CRR connects per transaction");
	ok(flow_ops_for(TEST_TCP_MAERTS)->server_sends &&
	   !flow_ops_for(TEST_TCP_STREAM)->server_sends,
	   "flow ops: only TCP_MAERTS has the server send");

	params_default(&p);
	l.trans = m.trans = 10;
	l.bytes_sent = m.bytes_recv = 10;
	l.bytes_recv = m.bytes_sent = 20;
	agree = flow_ops_for(TEST_TCP_CRR)->counts(&l, &m, &p, false, &lost, out, sizeof(out));
	ok(agree && lost == 7 &&
	   !strcmp(out, "transactions local 10 remote 10, bytes out 10/10, back 20/20"),
	   "TCP_CRR counts agree, loss untouched: %s", out);

	p.type = TEST_TCP_MAERTS;
	p.send_size = 1000;
	m.bytes_sent = 5000;
	l.bytes_recv = 5400;
	agree = flow_ops_for(TEST_TCP_MAERTS)->counts(&l, &m, &p, false, &lost, out, sizeof(out));
	ok(!agree && !strcmp(out, "bytes sent by the remote end 5000, received 5400"),
	   "TCP_MAERTS: 400 bytes more received than sent disagree: %s", out);
	agree = flow_ops_for(TEST_TCP_MAERTS)->counts(&l, &m, &p, true, &lost, out, sizeof(out));
	ok(agree && !strcmp(out, "bytes sent by the remote end 5000, received 5400 (400 of netserver's last send, which it does not count)"),
	   "TCP_MAERTS: less than one send more from netserver agrees: %s", out);
	l.bytes_recv = 6000;
	agree = flow_ops_for(TEST_TCP_MAERTS)->counts(&l, &m, &p, true, &lost, out, sizeof(out));
	ok(!agree, "TCP_MAERTS: a whole send more from netserver disagrees: %s", out);

	l.msgs_sent = 100;
	m.msgs_recv = 97;
	agree = flow_ops_for(TEST_UDP_STREAM)->counts(&l, &m, &p, false, &lost, out, sizeof(out));
	ok(agree && lost == 3 && !strcmp(out, "datagrams sent 100, received 97, 3 lost"),
	   "UDP_STREAM: loss named, counts agree: %s", out);
	m.msgs_sent = 97;
	l.trans = 95;
	agree = flow_ops_for(TEST_UDP_RR)->counts(&l, &m, &p, false, &lost, out, sizeof(out));
	ok(agree && lost == 5 &&
	   !strcmp(out, "requests sent 100, received 97; responses sent 97, received 95; 5 datagrams lost"),
	   "UDP_RR: loss both ways: %s", out);
}

int main(void)
{
	test_ops_counts();
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_sockopts();
	test_every_type_both_families();
	test_burst_and_large_sizes();
	test_mem_need();
	test_abort_with_silent_peer();
	test_udp_rr_counts_unanswered_requests_lost();
	test_udp_stream_refused_sends_are_retried();
	test_pinning();
	check_mid_request(TEST_TCP_RR);
	check_mid_request(TEST_TCP_CRR);
	test_rr_client_sees_server_close();
	check_reset(false);
	check_reset(true);
	test_fd_room();
	return tap_done();
}
