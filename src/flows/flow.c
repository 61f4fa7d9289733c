// SPDX-License-Identifier: GPL-2.0-or-later
/* flow.c - what every test type's worker shares: socket options, errors, I/O. */
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

void *flow_alloc_send(struct flow *f, size_t len)
{
	uint8_t *p = flow_alloc(f, len);

	for (size_t at = 0; p && f->fill_len && at < len; at += f->fill_len)
		memcpy(p + at, f->fill, len - at < f->fill_len ? len - at : f->fill_len);
	return p;
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
 * netperf reads the sizes it reports as LSS_SIZE/RSR_SIZE right after
 * making the socket and applying -s/-S, before connect(): the handshake
 * and the first data grow them (docs/HACKING.md, "Kernel facts").
 */
void flow_note_bufs(struct flow *f, int fd)
{
	int32_t snd = -1, rcv = -1;
	int v;
	socklen_t len = sizeof(v);

	if (__atomic_load_n(&f->sndbuf_pre, __ATOMIC_ACQUIRE) >= 0)
		return;
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, &len) == 0)
		rcv = v;
	len = sizeof(v);
	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &len) == 0)
		snd = v;
	len = sizeof(f->cong_pre) - 1;
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, f->cong_pre, &len))
		f->cong_pre[0] = '\0';
	__atomic_store_n(&f->rcvbuf_pre, rcv, __ATOMIC_RELAXED);
	__atomic_store_n(&f->sndbuf_pre, snd, __ATOMIC_RELEASE);
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
