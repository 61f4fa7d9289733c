// SPDX-License-Identifier: GPL-2.0-or-later
/* rr.c - TCP_RR: the client keeps 1 + burst requests in flight, the server answers each. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "flows/worker-internal.h"

/*
 * Client state.  Requests are counted only once fully sent (sent), answered
 * ones in done; ring holds the send time of every request in flight.
 *
 * Deadlock: with big messages and a burst, both ends could block in send()
 * (the client's requests fill the server's receive buffer while the server's
 * responses fill ours).  The client therefore sends with MSG_DONTWAIT and,
 * when a request does not fit, polls for both directions and reads the
 * responses that have arrived before sending on.  The server stays purely
 * blocking; as the client never blocks in send() while responses are
 * waiting, no size or burst can deadlock.  The cost is one poll() per
 * socket-buffer's worth of a large request, nothing for small ones.
 *
 * No SO_RCVTIMEO/SO_SNDTIMEO here: a finite timeout arms and cancels a
 * kernel timer every time recv() blocks, which cost 3.4 % of a 1-byte
 * TCP_RR with both ends on one CPU (70.4k against 72.8k transactions/s).
 * A live peer keeps the loop turning, and it looks at abort every turn;
 * against a silent peer the session's flow_interrupt() wakes the worker.
 */
struct rr_cli {
	struct flow *f;
	struct flow_counters c;
	uint64_t *ring;
	uint64_t mask;
	uint64_t sent, done;
	uint64_t partial;	/* bytes of the oldest response received */
	uint32_t target;	/* requests to keep in flight, walks up to max */
	uint32_t max;
	uint32_t req, resp;
	char *sbuf, *rbuf;
	size_t sbufsz, rbufsz;
	uint64_t t;		/* time of the last completion (or the start) */
};

static size_t rr_min(uint64_t a, uint64_t b)
{
	return (size_t)(a < b ? a : b);
}

/* Slots of the client's ring of send times: a power of two >= max. */
static uint64_t rr_ring_n(uint32_t max)
{
	uint64_t n = 1;

	while (n < max)
		n <<= 1;
	return n;
}

/* The client's buffers: one request, the responses of a whole burst. */
static void rr_client_bufs(const struct test_params *p, size_t *sbufsz, size_t *rbufsz)
{
	*sbufsz = rr_min(p->req_size, FLOW_IO_MAX);
	*rbufsz = rr_min((uint64_t)p->resp_size * (1 + p->burst), FLOW_IO_MAX);
}

/* The server's buffers: requests may be read several at a time. */
static void rr_server_bufs(const struct test_params *p, size_t *rbufsz, size_t *sbufsz)
{
	*rbufsz = rr_min((uint64_t)p->req_size * (1 + p->burst), FLOW_IO_MAX);
	*sbufsz = rr_min(p->resp_size, FLOW_IO_MAX);
}

/* Response bytes still expected for the requests in flight. */
static uint64_t rr_want(const struct rr_cli *s)
{
	return (s->sent - s->done) * s->resp - s->partial;
}

/* n response bytes arrived at s->t: complete transactions, widen the window. */
static void rr_got(struct rr_cli *s, size_t n)
{
	struct hist *lat = s->f->lat;

	s->c.bytes_recv += n;
	s->c.msgs_recv++;
	s->partial += n;
	while (s->partial >= s->resp) {
		s->partial -= s->resp;
		if (lat)
			hist_record(lat, s->t - s->ring[s->done & s->mask]);
		s->done++;
		s->c.trans++;
		if (s->target < s->max)
			s->target++;
	}
	__atomic_store_n(&s->f->ctr.trans, s->c.trans, __ATOMIC_RELAXED);
	__atomic_store_n(&s->f->ctr.bytes_recv, s->c.bytes_recv, __ATOMIC_RELAXED);
	__atomic_store_n(&s->f->ctr.msgs_recv, s->c.msgs_recv, __ATOMIC_RELAXED);
}

/* Read the responses that have already arrived, without blocking. */
static int rr_drain(struct rr_cli *s)
{
	for (;;) {
		uint64_t want = rr_want(s);
		ssize_t n;

		if (!want) {
			char b;

			/* Nothing is due: only EOF, a reset or stray bytes. */
			n = recv(s->f->fd, &b, 1, MSG_DONTWAIT | MSG_PEEK);
			if (n == 0)
				return flow_aborted(s->f) ? FLOW_END :
				       flow_err(s->f, -EPIPE, "recv: peer "
						"closed the connection");
			if (n > 0)
				return flow_err(s->f, -EPROTO,
						"recv: unexpected data from the server");
		} else {
			n = recv(s->f->fd, s->rbuf, rr_min(want, s->rbufsz),
				 MSG_DONTWAIT);
			if (n > 0) {
				s->t = now_ns();
				rr_got(s, (size_t)n);
				continue;
			}
			if (n == 0)
				return flow_aborted(s->f) ? FLOW_END :
				       flow_err(s->f, -EPIPE, "recv: peer closed "
						"with %llu responses outstanding",
						(unsigned long long)(s->sent - s->done));
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN)
			return 0;
		return flow_io_err(s->f, -errno, "recv");
	}
}

/* The rest of a request that did not fit at once: take in responses meanwhile. */
static __attribute__((noinline)) int rr_send_slow(struct rr_cli *s,
						  uint64_t left)
{
	while (left) {
		struct pollfd pfd = { .fd = s->f->fd, .events = POLLIN | POLLOUT };
		ssize_t n = send(s->f->fd, s->sbuf, rr_min(left, s->sbufsz),
				 MSG_DONTWAIT | MSG_NOSIGNAL);
		int r;

		if (n > 0) {
			left -= (uint64_t)n;
			s->c.bytes_sent += (uint64_t)n;
			s->c.msgs_sent++;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN)
			return flow_io_err(s->f, -errno, "send");
		if (flow_aborted(s->f))
			return FLOW_END;
		r = poll(&pfd, 1, FLOW_TIMEOUT_MS);
		if (r < 0 && errno != EINTR)
			return flow_io_err(s->f, -errno, "poll");
		if (r > 0 && (pfd.revents & (POLLIN | POLLHUP | POLLERR))) {
			r = rr_drain(s);
			if (r)
				return r;
		}
	}
	return 0;
}

/* Send one whole request: one send() when it fits, the slow path otherwise. */
static inline int rr_send(struct rr_cli *s)
{
	ssize_t n = send(s->f->fd, s->sbuf, rr_min(s->req, s->sbufsz),
			 MSG_DONTWAIT | MSG_NOSIGNAL);
	int r = 0;

	if (n > 0) {
		s->c.bytes_sent += (uint64_t)n;
		s->c.msgs_sent++;
	}
	if (n != (ssize_t)s->req) {
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			r = flow_io_err(s->f, -errno, "send");
		else
			r = rr_send_slow(s, s->req - (uint64_t)(n > 0 ? n : 0));
	}
	__atomic_store_n(&s->f->ctr.bytes_sent, s->c.bytes_sent, __ATOMIC_RELAXED);
	__atomic_store_n(&s->f->ctr.msgs_sent, s->c.msgs_sent, __ATOMIC_RELAXED);
	return r;
}

/* After stop: no more requests; the in-flight ones are collected, then EOF. */
static int rr_finish(struct rr_cli *s)
{
	uint64_t extra;
	int r;

	if (shutdown(s->f->fd, SHUT_WR) < 0)
		return flow_io_err(s->f, -errno, "shutdown");
	r = flow_wait_eof(s->f, s->f->fd, s->rbuf, s->rbufsz, &s->c, &extra);
	flow_publish(s->f, &s->c);
	if (r)
		return r;
	if (extra)
		return flow_err(s->f, -EPROTO, "server sent %llu bytes after "
				"the last response", (unsigned long long)extra);
	return 0;
}

/* Issue requests until stop, walking up from 1 to 1 + burst in flight. */
static int rr_client(struct flow *f)
{
	const struct test_params *p = f->p;
	struct rr_cli s = {
		.f = f, .target = 1, .max = 1 + p->burst,
		.req = p->req_size, .resp = p->resp_size,
	};
	uint64_t ring_n = rr_ring_n(s.max);
	int r;

	s.mask = ring_n - 1;
	rr_client_bufs(p, &s.sbufsz, &s.rbufsz);
	s.ring = flow_alloc(f, ring_n * sizeof(*s.ring));
	s.sbuf = s.ring ? flow_alloc_send(f, s.sbufsz) : NULL;
	s.rbuf = s.sbuf ? flow_alloc(f, s.rbufsz) : NULL;
	r = s.rbuf ? 0 : -ENOMEM;
	if (r)
		goto out;

	s.t = now_ns();
	for (;;) {
		uint64_t want;
		ssize_t n;

		if (flow_aborted(f)) {
			r = FLOW_END;
			goto out;
		}
		/* A big request's send takes in responses, which widen the
		 * window: look at stop before each request. */
		while (s.sent - s.done < s.target &&
		       !flow_stopping_at(f, s.t)) {
			s.ring[s.sent & s.mask] = s.t;
			r = rr_send(&s);
			if (r)
				goto out;
			s.sent++;
		}
		want = rr_want(&s);
		if (!want)
			break;
		n = recv(f->fd, s.rbuf, rr_min(want, s.rbufsz), 0);
		if (n > 0) {
			s.t = now_ns();
			rr_got(&s, (size_t)n);
			continue;
		}
		if (n == 0) {
			r = flow_aborted(f) ? FLOW_END :
			    flow_err(f, -EPIPE, "recv: peer closed with %llu "
				     "responses outstanding",
				     (unsigned long long)(s.sent - s.done));
			goto out;
		}
		if (errno == EINTR || errno == EAGAIN)
			continue;
		r = flow_io_err(f, -errno, "recv");
		goto out;
	}
	r = rr_finish(&s);
out:
	flow_publish(f, &s.c);
	free(s.rbuf);
	free(s.sbuf);
	free(s.ring);
	return r;
}

/* Send one response: one send() when it fits, flow_send_n for the rest. */
static inline int rr_respond(struct flow *f, const char *sbuf, size_t sbufsz,
			     struct flow_counters *c)
{
	uint32_t resp = f->p->resp_size;
	ssize_t n = send(f->fd, sbuf, rr_min(resp, sbufsz), MSG_NOSIGNAL);

	if (n > 0) {
		c->bytes_sent += (uint64_t)n;
		c->msgs_sent++;
		if (n == (ssize_t)resp)
			return 0;
	} else if (errno != EAGAIN && errno != EINTR) {
		return flow_io_err(f, -errno, "send");
	}
	return flow_send_n(f, f->fd, sbuf, sbufsz,
			   resp - (uint64_t)(n > 0 ? n : 0), c);
}

/*
 * Answer every complete request with one response, until the client's EOF
 * at a request boundary; then shut down our side so the client sees EOF.
 * Requests may be read several at a time; each gets its own send().
 */
static int rr_server(struct flow *f)
{
	const struct test_params *p = f->p;
	struct flow_counters c = { 0 };
	uint64_t got = 0;
	size_t rbufsz, sbufsz;
	char *rbuf, *sbuf = NULL;
	int r;

	rr_server_bufs(p, &rbufsz, &sbufsz);
	rbuf = flow_alloc(f, rbufsz);
	sbuf = rbuf ? flow_alloc_send(f, sbufsz) : NULL;
	r = sbuf ? 0 : -ENOMEM;
	if (r)
		goto out;

	for (;;) {
		ssize_t n;

		if (flow_aborted(f)) {
			r = FLOW_END;
			goto out;
		}
		n = recv(f->fd, rbuf, rbufsz, 0);
		if (n > 0) {
			c.bytes_recv += (uint64_t)n;
			c.msgs_recv++;
			got += (uint64_t)n;
			while (got >= p->req_size) {
				got -= p->req_size;
				r = rr_respond(f, sbuf, sbufsz, &c);
				if (r)
					goto out;
				c.trans++;
			}
			__atomic_store_n(&f->ctr.trans, c.trans, __ATOMIC_RELAXED);
			__atomic_store_n(&f->ctr.bytes_recv, c.bytes_recv, __ATOMIC_RELAXED);
			__atomic_store_n(&f->ctr.msgs_recv, c.msgs_recv, __ATOMIC_RELAXED);
			__atomic_store_n(&f->ctr.bytes_sent, c.bytes_sent, __ATOMIC_RELAXED);
			__atomic_store_n(&f->ctr.msgs_sent, c.msgs_sent, __ATOMIC_RELAXED);
			continue;
		}
		if (n == 0)
			break;
		if (errno == EINTR || errno == EAGAIN)
			continue;
		r = flow_io_err(f, -errno, "recv");
		goto out;
	}
	if (flow_aborted(f)) {
		r = FLOW_END;
		goto out;
	}
	if (got) {
		r = flow_err(f, -EPIPE, "peer closed mid-request after %llu "
			     "of %u bytes", (unsigned long long)got, p->req_size);
		goto out;
	}
	if (shutdown(f->fd, SHUT_WR) < 0)
		r = flow_io_err(f, -errno, "shutdown");
out:
	flow_publish(f, &c);
	free(sbuf);
	free(rbuf);
	return r;
}

static size_t rr_bufs(const struct test_params *p, bool client)
{
	size_t a, b;

	if (client) {
		rr_client_bufs(p, &a, &b);
		return a + b + rr_ring_n(1 + p->burst) * sizeof(uint64_t);
	}
	rr_server_bufs(p, &a, &b);
	return a + b;
}

/* Transactions and the bytes each way agree exactly (TCP_RR, TCP_CRR). */
bool rr_counts(const struct flow_counters *l, const struct flow_counters *m,
	       const struct test_params *p, bool netserver, uint64_t *lost,
	       char *out, size_t n)
{
	(void)p, (void)netserver, (void)lost;
	snprintf(out, n, "transactions local %llu remote %llu, bytes out %llu/%llu, back %llu/%llu",
		 (unsigned long long)l->trans, (unsigned long long)m->trans,
		 (unsigned long long)l->bytes_sent, (unsigned long long)m->bytes_recv,
		 (unsigned long long)m->bytes_sent, (unsigned long long)l->bytes_recv);
	return l->trans == m->trans && l->bytes_sent == m->bytes_recv &&
	       l->bytes_recv == m->bytes_sent;
}

const struct flow_ops rr_ops = {
	.client = rr_client,
	.server = rr_server,
	.bufs = rr_bufs,
	.counts = rr_counts,
};
