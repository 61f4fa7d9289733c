// SPDX-License-Identifier: GPL-2.0-or-later
/* crr.c - TCP_CRR: one connection per transaction (connect, request, response, close). */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "flows/worker-internal.h"

/* Both ends' buffer: the larger message, at most FLOW_IO_MAX. */
static size_t crr_bufsz(const struct test_params *p)
{
	size_t n = p->req_size > p->resp_size ? p->req_size : p->resp_size;

	return n < FLOW_IO_MAX ? n : FLOW_IO_MAX;
}

/* Connect fd to the peer; a connect cut short by SO_SNDTIMEO is resumed. */
static int crr_connect(struct flow *f, int fd)
{
	for (;;) {
		int err;

		if (connect(fd, (const struct sockaddr *)&f->peer,
			    f->peerlen) == 0)
			return 0;
		err = -errno;
		if (err == -EISCONN)
			return 0;
		if (err != -EINTR && err != -EINPROGRESS && err != -EALREADY) {
			if (err == -EADDRNOTAVAIL)
				return flow_err(f, err, "connect: %s (local "
						"ports exhausted?)", strerror(-err));
			return flow_io_err(f, err, "connect");
		}
		if (flow_aborted(f))
			return FLOW_END;
	}
}

/* One transaction on a new connection: the server closes first, we read its EOF. */
static int crr_once(struct flow *f, char *buf, size_t bufsz,
		    struct flow_counters *c)
{
	const struct test_params *p = f->p;
	uint64_t got, extra;
	int fd, r;

	fd = socket(p->family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		r = -errno;
		return flow_err(f, r, "socket: %s", strerror(-r));
	}
	r = flow_sockopts(fd, p, true, f->errbuf);
	if (r) {
		char why[ERR_MAX];

		memcpy(why, f->errbuf, sizeof(why));
		flow_err(f, r, "%s", why);
		goto out;
	}
	flow_note_bufs(f, fd);
	r = flow_timeouts(f, fd);
	if (!r)
		r = crr_connect(f, fd);
	if (!r)
		r = flow_send_n(f, fd, buf, bufsz, p->req_size, c);
	if (!r)
		r = flow_recv_n(f, fd, buf, bufsz, p->resp_size, c, &got);
	if (r == FLOW_EOF) {
		r = flow_aborted(f) ? FLOW_END :
		    flow_err(f, -EPIPE, "peer closed mid-response after %llu "
			     "of %u bytes", (unsigned long long)got,
			     p->resp_size);
		goto out;
	}
	if (!r)
		r = flow_wait_eof(f, fd, buf, bufsz, c, &extra);
	if (!r && extra)
		r = flow_err(f, -EPROTO, "server sent %llu bytes after the "
			     "response", (unsigned long long)extra);
out:
	close(fd);
	return r;
}

/*
 * Open, use and close connections until stop.  The latency of one
 * transaction runs from the end of the previous one (socket() is part of
 * the cost) to our close().  Client sockets are made in the calling
 * thread's network namespace.
 */
static int crr_client(struct flow *f)
{
	const struct test_params *p = f->p;
	struct flow_counters c = { 0 };
	size_t bufsz = crr_bufsz(p);
	uint64_t t0, t1;
	char *buf;
	int r = 0;

	buf = flow_alloc_send(f, bufsz);
	if (!buf)
		return -ENOMEM;
	t0 = now_ns();
	while (!flow_stopping(f)) {
		if (flow_aborted(f)) {
			r = FLOW_END;
			break;
		}
		r = crr_once(f, buf, bufsz, &c);
		if (r)
			break;
		t1 = now_ns();
		if (f->lat)
			hist_record(f->lat, t1 - t0);
		t0 = t1;
		c.trans++;
		flow_publish(f, &c);
	}
	flow_publish(f, &c);
	free(buf);
	return r;
}

/*
 * Serve one accepted connection: read the request, send the response and
 * close first, so TIME_WAIT stays on this side.  The socket inherits the
 * listener's options and timeouts.
 */
static int crr_serve(struct flow *f, int fd, char *buf, size_t bufsz,
		     struct flow_counters *c)
{
	const struct test_params *p = f->p;
	uint64_t got;
	int r;

	r = flow_recv_n(f, fd, buf, bufsz, p->req_size, c, &got);
	if (r == FLOW_EOF)
		r = flow_stopping(f) || flow_aborted(f) ? FLOW_END :
		    flow_err(f, -EPIPE, "peer closed mid-request after %llu "
			     "of %u bytes", (unsigned long long)got, p->req_size);
	if (!r)
		r = flow_send_n(f, fd, buf, bufsz, p->resp_size, c);
	if (!r)
		c->trans++;
	close(fd);
	/* A client gone after stop costs its connection, not the server. */
	if (r == FLOW_END && !flow_aborted(f))
		r = 0;
	return r;
}

/* True when a connection waits in the listener's queue. */
static bool crr_pending(int lfd)
{
	struct pollfd pfd = { .fd = lfd, .events = POLLIN };

	return poll(&pfd, 1, 0) > 0 && (pfd.revents & POLLIN);
}

/*
 * Accept and serve connections on the shared listener until stop; after
 * stop, serve what is already queued and return once nothing is pending.
 */
static int crr_server(struct flow *f)
{
	const struct test_params *p = f->p;
	struct flow_counters c = { 0 };
	size_t bufsz = crr_bufsz(p);
	char *buf;
	int r;

	buf = flow_alloc_send(f, bufsz);
	r = buf ? flow_timeouts(f, f->listen_fd) : -ENOMEM;
	while (!r) {
		int fd;

		if (flow_aborted(f)) {
			r = FLOW_END;
			break;
		}
		if (flow_stopping(f) && !crr_pending(f->listen_fd))
			break;
		fd = accept4(f->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			int err = -errno;

			if (err == -EINTR || err == -EAGAIN ||
			    err == -ECONNABORTED)
				continue;
			r = flow_err(f, err, "accept: %s", strerror(-err));
			break;
		}
		r = crr_serve(f, fd, buf, bufsz, &c);
		flow_publish(f, &c);
	}
	flow_publish(f, &c);
	free(buf);
	return r;
}

static size_t crr_bufs(const struct test_params *p, bool client)
{
	(void)client;
	return crr_bufsz(p);
}

const struct flow_ops crr_ops = {
	.client = crr_client,
	.server = crr_server,
	.bufs = crr_bufs,
	.counts = rr_counts,
	.conn_per_trans = true,
};
