// SPDX-License-Identifier: GPL-2.0-or-later
/* stream.c - TCP_STREAM and TCP_MAERTS: one end sends until stop, the other receives to EOF. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "flows/worker-internal.h"

/*
 * The buffer of a stream end: the message size, at most FLOW_IO_MAX.  A
 * larger -m/-M is sent or received in chunks of that size (as netperf's
 * send ring does), so no flow holds more than 1 MiB whatever it asks for
 * (but a single-flow receiver: stream_recv_bufsz()).
 */
static size_t stream_bufsz(uint32_t size)
{
	return size < FLOW_IO_MAX ? size : FLOW_IO_MAX;
}

/*
 * The receive buffers of one stream receiver, used in turn: netperf's rule
 * (its recv_width), SO_RCVBUF before connect over the receive size, plus
 * one, at least two; each recv() lands in the buffer after the last one's.
 * Reading into one buffer over and over keeps it in the cache, and on
 * loopback that alone had TCP_MAERTS run 1.3-1.7x netperf's rate against
 * the same netserver; with netperf's two buffers the rates and the number
 * of recv() calls are netperf's (docs/netserver.md, "Why a loopback
 * TCP_MAERTS has two speeds").  One flow only: with -n each flow's buffer
 * is its own already, and two per flow would double what 1024 flows hold.
 * That one flow also reads up to STREAM_ONE_MAX a call, netperf's size
 * with -s 1M (its doubled SO_RCVBUF, 2 MB), where FLOW_IO_MAX bounds the
 * buffer of each of many flows; the ring holds at most two of those.
 */
#define STREAM_ONE_MAX (4 * (size_t)1024 * 1024)
#define STREAM_RING_MAX (2 * STREAM_ONE_MAX)

/* The receive size of a stream receiver: params_recv_size_at(), bounded. */
static size_t stream_recv_bufsz(const struct test_params *p, int32_t rcvbuf_pre)
{
	size_t size = params_recv_size_at(p, rcvbuf_pre);

	if (p->flows == 1)
		return size < STREAM_ONE_MAX ? size : STREAM_ONE_MAX;
	return stream_bufsz((uint32_t)size);
}

static size_t stream_recv_width(const struct test_params *p, int32_t rcvbuf_pre, size_t size)
{
	size_t w;

	if (p->flows != 1 || !size)
		return 1;
	w = (rcvbuf_pre > 0 ? (size_t)rcvbuf_pre : 0) / size + 1;
	if (w < 2)
		w = 2;
	return w * size > STREAM_RING_MAX ? STREAM_RING_MAX / size : w;
}

/*
 * Send params_send_size_at() bytes per message (netperf's: -m, else the
 * socket's SO_SNDBUF before connect) until stop (one send() per message, or
 * one per chunk of a message larger than the buffer), then shut down our
 * write side and wait for the receiver's EOF: the receiver closes only
 * after reading our EOF, so once we see its EOF every byte we counted has
 * been counted by it too.  A send cut short by the 200 ms timeout counts
 * what it sent.
 */
static int stream_sender(struct flow *f)
{
	struct flow_counters c = { 0 };
	int32_t pre = __atomic_load_n(&f->sndbuf_pre, __ATOMIC_ACQUIRE);
	size_t size = params_send_size_at(f->p, pre), bufsz = stream_bufsz((uint32_t)size);
	size_t left = size;
	uint64_t extra;
	char *buf;
	int r;

	buf = flow_alloc_send(f, bufsz);
	r = buf ? flow_timeouts(f, f->fd) : -ENOMEM;
	if (r)
		goto out;

	while (!flow_stopping(f)) {
		ssize_t n;

		if (flow_aborted(f)) {
			r = FLOW_END;
			goto out;
		}
		n = send(f->fd, buf, left < bufsz ? left : bufsz, MSG_NOSIGNAL);
		if (n > 0) {
			c.bytes_sent += (uint64_t)n;
			left -= (size_t)n < left ? (size_t)n : left;
			if (!left || size <= bufsz) {
				c.msgs_sent++;
				left = size;
			}
			__atomic_store_n(&f->ctr.bytes_sent, c.bytes_sent,
					 __ATOMIC_RELAXED);
			__atomic_store_n(&f->ctr.msgs_sent, c.msgs_sent,
					 __ATOMIC_RELAXED);
			continue;
		}
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0) {
			r = flow_io_err(f, -errno, "send");
			goto out;
		}
	}
	if (shutdown(f->fd, SHUT_WR) < 0) {
		r = flow_io_err(f, -errno, "shutdown");
		goto out;
	}
	r = flow_wait_eof(f, f->fd, buf, bufsz, &c, &extra);
	if (!r && extra)
		r = flow_err(f, -EPROTO, "receiver sent %llu unexpected bytes",
			     (unsigned long long)extra);
out:
	flow_publish(f, &c);
	free(buf);
	return r;
}

/*
 * recv() params_recv_size_at() at a time (netperf's: -M, else the socket's
 * SO_RCVBUF before connect; at most stream_recv_bufsz()) into stream_recv_width()
 * buffers in turn until the sender's EOF, then close our side.
 */
static int stream_receiver(struct flow *f)
{
	struct flow_counters c = { 0 };
	int32_t pre = __atomic_load_n(&f->rcvbuf_pre, __ATOMIC_RELAXED);
	size_t size = stream_recv_bufsz(f->p, pre);
	size_t width = stream_recv_width(f->p, pre, size), k = 0;
	char *buf;
	int r;

	buf = flow_alloc(f, size * width);
	r = buf ? flow_timeouts(f, f->fd) : -ENOMEM;
	if (r)
		goto out;

	for (;;) {
		ssize_t n;

		if (flow_aborted(f)) {
			r = FLOW_END;
			goto out;
		}
		n = recv(f->fd, buf + k * size, size, 0);
		k = k + 1 < width ? k + 1 : 0;
		if (n > 0) {
			c.bytes_recv += (uint64_t)n;
			c.msgs_recv++;
			__atomic_store_n(&f->ctr.bytes_recv, c.bytes_recv,
					 __ATOMIC_RELAXED);
			__atomic_store_n(&f->ctr.msgs_recv, c.msgs_recv,
					 __ATOMIC_RELAXED);
			continue;
		}
		if (n == 0)
			break;
		if (errno == EINTR || errno == EAGAIN)
			continue;
		r = flow_io_err(f, -errno, "recv");
		goto out;
	}
	if (shutdown(f->fd, SHUT_WR) < 0)
		r = flow_io_err(f, -errno, "shutdown");
out:
	flow_publish(f, &c);
	free(buf);
	return r;
}

/* TCP_STREAM: the client sends; TCP_MAERTS: the server does. */
static size_t stream_bufs(const struct test_params *p, bool client)
{
	bool sender = client == (p->type == TEST_TCP_STREAM);

	if (sender)
		return stream_bufsz(params_send_size(p));
	/* The ring of one flow is not known before its socket: its bound. */
	return p->flows == 1 ? STREAM_RING_MAX : stream_bufsz(params_recv_size(p));
}

/* TCP_STREAM: what the client sent, the server received. */
static bool stream_counts(const struct flow_counters *l,
			  const struct flow_counters *m,
			  const struct test_params *p, bool netserver,
			  uint64_t *lost, char *out, size_t n)
{
	(void)p, (void)netserver, (void)lost;
	snprintf(out, n, "bytes sent %llu, received by the remote end %llu",
		 (unsigned long long)l->bytes_sent, (unsigned long long)m->bytes_recv);
	return l->bytes_sent == m->bytes_recv;
}

/* TCP_MAERTS: what the server sent, the client received. */
static bool maerts_counts(const struct flow_counters *l,
			  const struct flow_counters *m,
			  const struct test_params *p, bool netserver,
			  uint64_t *lost, char *out, size_t n)
{
	size_t w;

	(void)lost;
	snprintf(out, n, "bytes sent by the remote end %llu, received %llu",
		 (unsigned long long)m->bytes_sent, (unsigned long long)l->bytes_recv);
	if (m->bytes_sent == l->bytes_recv)
		return true;
	/* netserver does not count the send its timer cut short, whose
	 * bytes still arrive: less than one send more (docs/netserver.md) */
	if (!netserver || l->bytes_recv < m->bytes_sent ||
	    l->bytes_recv - m->bytes_sent >= params_send_size(p))
		return false;
	w = strnlen(out, n);
	snprintf(out + w, n - w, " (%llu of netserver's last send, which it does not count)",
		 (unsigned long long)(l->bytes_recv - m->bytes_sent));
	return true;
}

const struct flow_ops stream_ops = {
	.client = stream_sender,
	.server = stream_receiver,
	.bufs = stream_bufs,
	.counts = stream_counts,
};

const struct flow_ops maerts_ops = {
	.client = stream_receiver,
	.server = stream_sender,
	.bufs = stream_bufs,
	.counts = maerts_counts,
	.server_sends = true,
};
