// SPDX-License-Identifier: GPL-2.0-or-later
/* udp.c - UDP_RR and UDP_STREAM over a connected client socket and a bound server socket. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "flows/worker-internal.h"

/* A request with no response this long after it was sent is lost. */
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

/*
 * UDP_RR client: like TCP_RR, 1 + burst requests in flight, walking up.
 * Requests carry no sequence number, so a response completes the oldest
 * request in flight.  When nothing arrives, requests older than 500 ms
 * are counted lost and replaced, which keeps the burst going.  Limit: in
 * a burst, a lost datagram is only noticed once the responses to the
 * others have stopped coming; until then the window is one smaller.
 */
static int udp_rr_client(struct flow *f)
{
	const struct test_params *p = f->p;
	struct flow_counters c = { 0 };
	uint32_t max = 1 + p->burst, target = 1;
	uint64_t ring_n = 1, mask, sent = 0, done = 0, t;
	uint64_t *ring;
	char *sbuf = NULL, *rbuf = NULL;
	int r;

	while (ring_n < max)
		ring_n <<= 1;
	mask = ring_n - 1;
	ring = flow_alloc(f, ring_n * sizeof(*ring));
	sbuf = ring ? flow_alloc(f, p->req_size) : NULL;
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
			while (sent != done && t - ring[done & mask] >= UDP_LOSS_NS) {
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
 * Both UDP servers: receive until stop (answering each request when reply),
 * then drain the queue until it has been empty for 50 ms.  Datagram sizes
 * are counted whole (MSG_TRUNC) even when the buffer (-M) is smaller.
 */
static int udp_server(struct flow *f, bool reply)
{
	const struct test_params *p = f->p;
	struct flow_counters c = { 0 };
	size_t rbufsz = reply ? TT_MAX_UDP_MSG : p->recv_size;
	uint64_t idle_since = 0;
	bool draining = false;
	char *rbuf, *sbuf = NULL;
	int r;

	rbuf = flow_alloc(f, rbufsz);
	if (rbuf && reply)
		sbuf = flow_alloc(f, p->resp_size);
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
		if (n >= 0) {
			c.bytes_recv += (uint64_t)n;
			c.msgs_recv++;
			if (draining)
				idle_since = now_ns();
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

/* UDP_STREAM client: send_size datagrams until stop; refusals are retried. */
static int udp_stream_client(struct flow *f)
{
	struct flow_counters c = { 0 };
	char *buf;
	int r;

	buf = flow_alloc(f, f->p->send_size);
	r = buf ? flow_timeouts(f, f->fd) : -ENOMEM;
	while (!r && !flow_stopping(f)) {
		if (flow_aborted(f)) {
			r = FLOW_END;
			break;
		}
		r = udp_send(f, buf, f->p->send_size, &c);
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

const struct flow_ops udp_rr_ops = {
	.client = udp_rr_client,
	.server = udp_rr_server,
};

const struct flow_ops udp_stream_ops = {
	.client = udp_stream_client,
	.server = udp_stream_server,
};
