// SPDX-License-Identifier: GPL-2.0-or-later
/* udp.c - UDP_RR and UDP_STREAM over a connected client socket and a bound server socket. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "flows/worker-internal.h"

/* A request with no response this long after it was sent is lost
 * (netperf's -e, test_params.loss_ms, sets another). */
#define UDP_LOSS_NS (500ull * 1000 * 1000)
/* After stop a server drains until its queue has been empty this long. */
#define UDP_DRAIN_NS (50ull * 1000 * 1000)

/* udp_send() gave up on a datagram because stop was set. */
#define UDP_UNSENT 3

/* A send the kernel refused for now: counted, then retried. */
static bool udp_send_soft(int err)
{
	return err == ENOBUFS || err == ECONNREFUSED;
}

static void udp_count_refused(struct flow *f)
{
	__atomic_store_n(&f->send_errors, f->send_errors + 1,
			 __ATOMIC_RELAXED);
}

/* Send one datagram on the connected socket, retrying refusals until stop. */
static int udp_send(struct flow *f, const char *buf, size_t len,
		    struct flow_counters *c)
{
	for (;;) {
		ssize_t n = send(f->fd, buf, len, MSG_NOSIGNAL);
		int err;

		if (n >= 0) {
			c->bytes_sent += (uint64_t)n;
			c->msgs_sent++;
			return 0;
		}
		err = errno;
		if (udp_send_soft(err))
			udp_count_refused(f);
		else if (err != EINTR && err != EAGAIN)
			return flow_io_err(f, -err, "send");
		if (flow_aborted(f))
			return FLOW_END;
		if (flow_stopping(f))
			return UDP_UNSENT;
	}
}

/* Slots of the UDP_RR client's ring of send times: a power of two >= 1 + burst. */
static uint64_t udp_ring_n(const struct test_params *p)
{
	uint64_t n = 1;

	while (n < 1 + (uint64_t)p->burst)
		n <<= 1;
	return n;
}

/*
 * UDP_RR client: like TCP_RR, 1 + burst requests in flight, walking up.
 * Requests carry no sequence number, so a response completes the oldest
 * request in flight.  When nothing arrives, requests older than 500 ms
 * (-e SECS: SECS) are counted lost and replaced, which keeps the burst going.  Limit: in
 * a burst, a lost datagram is only noticed once the responses to the
 * others have stopped coming; until then the window is one smaller.
 */
static int udp_rr_client(struct flow *f)
{
	const struct test_params *p = f->p;
	struct flow_counters c = { 0 };
	uint32_t max = 1 + p->burst, target = 1;
	uint64_t ring_n = udp_ring_n(p), mask, sent = 0, done = 0, t;
	uint64_t loss_ns = p->loss_ms ? p->loss_ms * 1000000ull : UDP_LOSS_NS;
	uint64_t *ring;
	char *sbuf = NULL, *rbuf = NULL;
	int r;

	mask = ring_n - 1;
	ring = flow_alloc(f, ring_n * sizeof(*ring));
	sbuf = ring ? flow_alloc_send(f, p->req_size) : NULL;
	rbuf = sbuf ? flow_alloc(f, p->resp_size) : NULL;
	r = rbuf ? flow_timeouts(f, f->fd) : -ENOMEM;
	if (r)
		goto out;

	t = now_ns();
	for (;;) {
		ssize_t n;

		if (flow_aborted(f)) {
			r = FLOW_END;
			goto out;
		}
		while (!flow_stopping(f) && sent - done < target) {
			ring[sent & mask] = t;
			r = udp_send(f, sbuf, p->req_size, &c);
			if (r == UDP_UNSENT)
				break;
			if (r)
				goto out;
			sent++;
		}
		r = 0;
		if (sent == done && flow_stopping(f))
			break;
		n = recv(f->fd, rbuf, p->resp_size, MSG_TRUNC);
		if (n >= 0) {
			t = now_ns();
			c.bytes_recv += (uint64_t)n;
			c.msgs_recv++;
			if (sent != done) {
				if (f->lat)
					hist_record(f->lat, t - ring[done & mask]);
				done++;
				c.trans++;
				if (target < max)
					target++;
			}
			flow_publish(f, &c);
			continue;
		}
		if (errno == EAGAIN) {
			t = now_ns();
			while (sent != done && t - ring[done & mask] >= loss_ns) {
				done++;
				c.lost++;
			}
			flow_publish(f, &c);
			continue;
		}
		/* ECONNREFUSED: an ICMP error for an earlier datagram. */
		if (errno == EINTR || errno == ECONNREFUSED)
			continue;
		r = flow_io_err(f, -errno, "recv");
		goto out;
	}
out:
	flow_publish(f, &c);
	free(rbuf);
	free(sbuf);
	free(ring);
	return r;
}

/* A server's receive buffer: a whole datagram for UDP_RR, -M for UDP_STREAM. */
static size_t udp_server_rbufsz(const struct test_params *p, bool reply)
{
	return reply ? TT_MAX_UDP_MSG : params_recv_size(p);
}

/* Wait for a datagram for what is left of the drain period; false when over. */
static bool udp_drain_wait(int fd, uint64_t idle_since)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	uint64_t idle = now_ns() - idle_since;

	if (idle >= UDP_DRAIN_NS)
		return false;
	poll(&pfd, 1, (int)((UDP_DRAIN_NS - idle + 999999) / 1000000));
	return true;
}

/*
 * Is src the session's client?  The address must be f->peer's; its port
 * too once learned, and the first datagram from that address teaches it
 * (the client's data socket is bound only when it sends).  With no peer
 * set, every source is the client.
 */
static bool udp_from_client(struct flow *f, const struct sockaddr_storage *src)
{
	struct sockaddr_storage *want = &f->peer;

	if (!f->peerlen)
		return true;
	if (src->ss_family != want->ss_family)
		return false;
	if (src->ss_family == AF_INET) {
		const struct sockaddr_in *a = (const void *)src;
		struct sockaddr_in *w = (void *)want;

		if (a->sin_addr.s_addr != w->sin_addr.s_addr)
			return false;
		if (!w->sin_port)
			w->sin_port = a->sin_port;
		return a->sin_port == w->sin_port;
	}
	if (src->ss_family == AF_INET6) {
		const struct sockaddr_in6 *a = (const void *)src;
		struct sockaddr_in6 *w = (void *)want;

		if (memcmp(&a->sin6_addr, &w->sin6_addr, sizeof(a->sin6_addr)))
			return false;
		if (!w->sin6_port)
			w->sin6_port = a->sin6_port;
		return a->sin6_port == w->sin6_port;
	}
	return false;
}

/*
 * Both UDP servers: receive until stop (answering each request when reply),
 * then drain the queue until it has been empty for 50 ms.  Datagrams from
 * anyone but the client are strays: counted apart, never answered.  Datagram sizes
 * are counted whole (MSG_TRUNC) even when the buffer (-M) is smaller.
 */
static int udp_server(struct flow *f, bool reply)
{
	const struct test_params *p = f->p;
	struct flow_counters c = { 0 };
	size_t rbufsz = udp_server_rbufsz(p, reply);
	uint64_t idle_since = 0;
	bool draining = false;
	char *rbuf, *sbuf = NULL;
	int r;

	rbuf = flow_alloc(f, rbufsz);
	if (rbuf && reply)
		sbuf = flow_alloc_send(f, p->resp_size);
	r = rbuf && (sbuf || !reply) ? flow_timeouts(f, f->fd) : -ENOMEM;
	if (r)
		goto out;

	for (;;) {
		struct sockaddr_storage src;
		socklen_t srclen = sizeof(src);
		ssize_t n;
		int err;

		if (flow_aborted(f)) {
			r = FLOW_END;
			goto out;
		}
		if (!draining && flow_stopping(f)) {
			draining = true;
			idle_since = now_ns();
		}
		n = recvfrom(f->fd, rbuf, rbufsz,
			     MSG_TRUNC | (draining ? MSG_DONTWAIT : 0),
			     (struct sockaddr *)&src, &srclen);
		if (n >= 0 && !udp_from_client(f, &src)) {
			/* Not answered: no reflection, no amplification. */
			__atomic_store_n(&f->strays, f->strays + 1,
					 __ATOMIC_RELAXED);
			/* A flood of strays does not prolong the drain. */
			if (draining && now_ns() - idle_since >= UDP_DRAIN_NS)
				break;
			continue;
		}
		if (n >= 0) {
			c.bytes_recv += (uint64_t)n;
			c.msgs_recv++;
			if (draining)
				idle_since = now_ns();
			/* One response per request, to the client only. */
			if (reply) {
				ssize_t m = sendto(f->fd, sbuf, p->resp_size,
						   MSG_NOSIGNAL,
						   (struct sockaddr *)&src, srclen);

				if (m >= 0) {
					c.bytes_sent += (uint64_t)m;
					c.msgs_sent++;
					c.trans++;
				} else if (udp_send_soft(errno) ||
					   errno == EAGAIN || errno == EINTR) {
					/* The client counts it lost. */
					udp_count_refused(f);
				} else {
					r = flow_io_err(f, -errno, "sendto");
					goto out;
				}
			}
			flow_publish(f, &c);
			continue;
		}
		err = errno;
		if (err == EAGAIN) {
			if (draining && !udp_drain_wait(f->fd, idle_since))
				break;
			continue;
		}
		if (err == EINTR || err == ECONNREFUSED)
			continue;
		r = flow_io_err(f, -err, "recv");
		goto out;
	}
out:
	flow_publish(f, &c);
	free(sbuf);
	free(rbuf);
	return r;
}

static int udp_rr_server(struct flow *f)
{
	return udp_server(f, true);
}

/* UDP_STREAM client: datagrams of params_send_size_at() bytes (-m, else
 * the socket's SO_SNDBUF before connect, at most 65507) until stop;
 * refusals are retried. */
static int udp_stream_client(struct flow *f)
{
	struct flow_counters c = { 0 };
	int32_t pre = __atomic_load_n(&f->sndbuf_pre, __ATOMIC_ACQUIRE);
	uint32_t size = params_send_size_at(f->p, pre);
	char *buf;
	int r;

	buf = flow_alloc_send(f, size);
	r = buf ? flow_timeouts(f, f->fd) : -ENOMEM;
	while (!r && !flow_stopping(f)) {
		if (flow_aborted(f)) {
			r = FLOW_END;
			break;
		}
		r = udp_send(f, buf, size, &c);
		if (r == UDP_UNSENT)
			r = 0;
		__atomic_store_n(&f->ctr.bytes_sent, c.bytes_sent,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&f->ctr.msgs_sent, c.msgs_sent,
				 __ATOMIC_RELAXED);
	}
	flow_publish(f, &c);
	free(buf);
	return r;
}

static int udp_stream_server(struct flow *f)
{
	return udp_server(f, false);
}

static size_t udp_rr_bufs(const struct test_params *p, bool client)
{
	if (client)
		return udp_ring_n(p) * sizeof(uint64_t) + p->req_size + p->resp_size;
	return udp_server_rbufsz(p, true) + p->resp_size;
}

static size_t udp_stream_bufs(const struct test_params *p, bool client)
{
	return client ? params_send_size(p) : udp_server_rbufsz(p, false);
}

/* Datagrams sent but not received; 0 when the receiver counted more
 * (netserver's counts are its own, docs/netserver.md). */
static uint64_t udp_gap(uint64_t sent, uint64_t got)
{
	return sent > got ? sent - got : 0;
}

/* UDP_RR: no end received more than was sent; what was not, is lost. */
static bool udp_rr_counts(const struct flow_counters *l,
			  const struct flow_counters *m,
			  const struct test_params *p, bool netserver,
			  uint64_t *lost, char *out, size_t n)
{
	(void)p, (void)netserver;
	*lost = udp_gap(l->msgs_sent, m->msgs_recv) +
		udp_gap(m->msgs_sent, l->trans);
	snprintf(out, n, "requests sent %llu, received %llu; responses sent %llu, received %llu; %llu datagrams lost",
		 (unsigned long long)l->msgs_sent, (unsigned long long)m->msgs_recv,
		 (unsigned long long)m->msgs_sent, (unsigned long long)l->trans,
		 (unsigned long long)*lost);
	return m->msgs_recv <= l->msgs_sent && l->trans <= m->msgs_sent;
}

/* UDP_STREAM: the server received no more than the client sent. */
static bool udp_stream_counts(const struct flow_counters *l,
			      const struct flow_counters *m,
			      const struct test_params *p, bool netserver,
			      uint64_t *lost, char *out, size_t n)
{
	(void)p, (void)netserver;
	*lost = udp_gap(l->msgs_sent, m->msgs_recv);
	snprintf(out, n, "datagrams sent %llu, received %llu, %llu lost",
		 (unsigned long long)l->msgs_sent, (unsigned long long)m->msgs_recv,
		 (unsigned long long)*lost);
	return m->msgs_recv <= l->msgs_sent;
}

const struct flow_ops udp_rr_ops = {
	.client = udp_rr_client,
	.server = udp_rr_server,
	.bufs = udp_rr_bufs,
	.counts = udp_rr_counts,
};

const struct flow_ops udp_stream_ops = {
	.client = udp_stream_client,
	.server = udp_stream_server,
	.bufs = udp_stream_bufs,
	.counts = udp_stream_counts,
};
