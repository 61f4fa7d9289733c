// SPDX-License-Identifier: GPL-2.0-or-later
/* flow.c - flow threads (start, pin, dispatch, join), socket options, shared worker I/O. */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include "flows/worker-internal.h"

/* Which worker runs each test type; client and server ends of each. */
static const struct flow_ops *const flow_table[TEST_COUNT] = {
	[TEST_TCP_RR] = &rr_ops,
	[TEST_TCP_CRR] = &crr_ops,
	[TEST_TCP_STREAM] = &stream_ops,
	[TEST_TCP_MAERTS] = &maerts_ops,
	[TEST_UDP_RR] = &udp_rr_ops,
	[TEST_UDP_STREAM] = &udp_stream_ops,
};

int flow_err(struct flow *f, int code, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(f->errbuf, ERR_MAX, "flow %u: ", f->idx);
	if (n < 0 || n >= ERR_MAX)
		return code;
	va_start(ap, fmt);
	vsnprintf(f->errbuf + n, ERR_MAX - (size_t)n, fmt, ap);
	va_end(ap);
	return code;
}

int flow_io_err(struct flow *f, int code, const char *what)
{
	if ((code == -ECONNRESET || code == -EPIPE) &&
	    (flow_stopping(f) || flow_aborted(f)))
		return FLOW_END;
	return flow_err(f, code, "%s: %s", what, strerror(-code));
}

int flow_timeouts(struct flow *f, int fd)
{
	struct timeval tv = {
		.tv_sec = FLOW_TIMEOUT_MS / 1000,
		.tv_usec = (FLOW_TIMEOUT_MS % 1000) * 1000,
	};

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0) {
		int err = -errno;

		return flow_err(f, err, "set socket timeouts: %s",
				strerror(-err));
	}
	return 0;
}

void *flow_alloc(struct flow *f, size_t len)
{
	void *p = calloc(1, len ? len : 1);

	if (!p)
		flow_err(f, -ENOMEM, "buffer of %zu bytes: %s", len,
			 strerror(ENOMEM));
	return p;
}

int flow_send_n(struct flow *f, int fd, const char *buf, size_t bufsz,
		uint64_t total, struct flow_counters *c)
{
	while (total) {
		size_t len = total < bufsz ? (size_t)total : bufsz;
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n < 0) {
			int err = -errno;

			if (err == -EINTR)
				continue;
			if (err == -EAGAIN) {
				if (flow_aborted(f))
					return FLOW_END;
				continue;
			}
			return flow_io_err(f, err, "send");
		}
		total -= (uint64_t)n;
		c->bytes_sent += (uint64_t)n;
		c->msgs_sent++;
	}
	return 0;
}

int flow_recv_n(struct flow *f, int fd, char *buf, size_t bufsz,
		uint64_t total, struct flow_counters *c, uint64_t *got)
{
	uint64_t have = 0;

	while (have < total) {
		uint64_t left = total - have;
		size_t len = left < bufsz ? (size_t)left : bufsz;
		ssize_t n = recv(fd, buf, len, 0);

		if (n > 0) {
			have += (uint64_t)n;
			c->bytes_recv += (uint64_t)n;
			c->msgs_recv++;
			continue;
		}
		if (n == 0) {
			if (got)
				*got = have;
			return FLOW_EOF;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN) {
			if (flow_aborted(f))
				return FLOW_END;
			continue;
		}
		return flow_io_err(f, -errno, "recv");
	}
	if (got)
		*got = have;
	return 0;
}

int flow_wait_eof(struct flow *f, int fd, char *buf, size_t bufsz,
		  struct flow_counters *c, uint64_t *extra)
{
	*extra = 0;
	for (;;) {
		ssize_t n = recv(fd, buf, bufsz, 0);

		if (n == 0)
			return 0;
		if (n > 0) {
			*extra += (uint64_t)n;
			c->bytes_recv += (uint64_t)n;
			c->msgs_recv++;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN) {
			if (flow_aborted(f))
				return FLOW_END;
			continue;
		}
		return flow_io_err(f, -errno, "recv");
	}
}

/*
 * Socket options are applied by the session before connect() (client) or
 * listen() (server, so accepted sockets inherit them): buffer sizes must be
 * set before the handshake to fix the window scale, as netperf does.
 */
int flow_sockopts(int fd, const struct test_params *p, bool client, char *err)
{
	int sndbuf = client ? p->lsndbuf : p->rsndbuf;
	int rcvbuf = client ? p->lrcvbuf : p->rrcvbuf;
	int one = 1;

	if (sndbuf != -1 &&
	    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf)) < 0) {
		int e = -errno;

		return err_set(err, e, "SO_SNDBUF %d: %s", sndbuf, strerror(-e));
	}
	if (rcvbuf != -1 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)) < 0) {
		int e = -errno;

		return err_set(err, e, "SO_RCVBUF %d: %s", rcvbuf, strerror(-e));
	}
	if (p->nodelay && !test_is_udp(p->type) &&
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0) {
		int e = -errno;

		return err_set(err, e, "TCP_NODELAY: %s", strerror(-e));
	}
	return 0;
}

/* Pin the calling worker thread to f->cpu (any CPU number, not just < 1024). */
static int flow_pin(struct flow *f)
{
	cpu_set_t *set;
	size_t size;
	int r;

	if (f->cpu < 0)
		return 0;
	set = CPU_ALLOC((size_t)f->cpu + 1);
	if (!set)
		return flow_err(f, -ENOMEM, "pin to CPU %d: %s", f->cpu,
				strerror(ENOMEM));
	size = CPU_ALLOC_SIZE((size_t)f->cpu + 1);
	CPU_ZERO_S(size, set);
	CPU_SET_S((size_t)f->cpu, size, set);
	r = pthread_setaffinity_np(pthread_self(), size, set);
	CPU_FREE(set);
	if (r)
		return flow_err(f, -r, "pin to CPU %d: %s (%ld CPUs online; "
				"the CPU must exist and be allowed to this process)",
				f->cpu, strerror(r), sysconf(_SC_NPROCESSORS_ONLN));
	return 0;
}

/* The worker thread: record its id, pin it, run the end of the test it plays. */
static void *flow_main(void *arg)
{
	struct flow *f = arg;
	const struct flow_ops *ops = flow_table[f->p->type];
	struct rusage ru;
	sigset_t all;
	int r;

	/* Signals belong to the program's main thread, not to data paths. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	__atomic_store_n(&f->tid, gettid(), __ATOMIC_RELEASE);
	r = flow_pin(f);
	if (!r)
		r = f->is_client ? ops->client(f) : ops->server(f);
	f->err = r < 0 ? r : 0;
	/* The thread's own context switches; its /proc entry goes with it. */
	if (getrusage(RUSAGE_THREAD, &ru) == 0) {
		f->ctx_vol = (uint64_t)ru.ru_nvcsw;
		f->ctx_invol = (uint64_t)ru.ru_nivcsw;
	}
	__atomic_store_n(&f->done, true, __ATOMIC_RELEASE);
	return NULL;
}

int flow_start(struct flow *f, char *err)
{
	int r;

	if (!f->p || (unsigned)f->p->type >= TEST_COUNT || !f->stop ||
	    !f->abort)
		return err_set(err, -EINVAL, "flow %u: start: incomplete setup",
			       f->idx);
	memset(&f->ctr, 0, sizeof(f->ctr));
	f->send_errors = 0;
	f->tid = 0;
	f->err = 0;
	f->errbuf[0] = '\0';
	f->done = false;
	r = pthread_create(&f->thread, NULL, flow_main, f);
	if (r)
		return err_set(err, -r, "flow %u: start thread: %s", f->idx,
			       strerror(r));
	f->started = true;
	return 0;
}

void flow_interrupt(struct flow *f)
{
	if (f->p && !test_is_udp(f->p->type) && f->fd >= 0)
		shutdown(f->fd, SHUT_RDWR);
}

void flows_abort(struct flow *flows, unsigned n, int *abort)
{
	__atomic_store_n(abort, 1, __ATOMIC_RELEASE);
	for (unsigned i = 0; i < n; i++)
		flow_interrupt(&flows[i]);
}

int flows_join(struct flow *flows, unsigned n, int *abort, int drain_ms,
	       const char *who, char *err)
{
	uint64_t deadline = now_ns() + (uint64_t)drain_ms * 1000000ull;
	bool aborted = __atomic_load_n(abort, __ATOMIC_ACQUIRE);
	int ret = 0;

	for (;;) {
		bool all = true;

		for (unsigned i = 0; i < n && all; i++)
			if (flows[i].started &&
			    !__atomic_load_n(&flows[i].done, __ATOMIC_ACQUIRE))
				all = false;
		if (all)
			break;
		if (!aborted && now_ns() > deadline) {
			flows_abort(flows, n, abort);
			aborted = true;
			ret = err_set(err, -ETIMEDOUT,
				      "%s: flows did not finish within %d s of the stop (the other end not answering?)",
				      who, drain_ms / 1000);
		}
		usleep(1000);
	}
	for (unsigned i = 0; i < n; i++) {
		int fret = flow_join(&flows[i]);

		if (fret && !ret)
			ret = err_set(err, fret, "%s: %s", who, flows[i].errbuf);
	}
	return ret;
}

int flow_join(struct flow *f)
{
	if (f->started) {
		pthread_join(f->thread, NULL);
		f->started = false;
	}
	return f->err;
}
