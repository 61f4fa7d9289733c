/* SPDX-License-Identifier: GPL-2.0-or-later */
/* worker-internal.h - what worker.c and flow.c share with the per-test workers. */
#ifndef TT_WORKER_INTERNAL_H
#define TT_WORKER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "flows/worker.h"

/* A blocked call returns this often to look at *stop and *abort. */
#define FLOW_TIMEOUT_MS 200

/* Largest buffer a worker hands to one send()/recv() for RR and CRR. */
#define FLOW_IO_MAX (1u << 20)

/*
 * What the I/O helpers return besides 0 and -errno: FLOW_END means "return
 * now without an error" (abort was set, or a peer reset after stop/abort),
 * FLOW_EOF means the peer closed its write side.
 */
#define FLOW_END 1
#define FLOW_EOF 2

extern const struct flow_ops rr_ops;
extern const struct flow_ops crr_ops;
extern const struct flow_ops stream_ops;
extern const struct flow_ops maerts_ops;
extern const struct flow_ops udp_rr_ops;
extern const struct flow_ops udp_stream_ops;

/* The counts check of TCP_RR and TCP_CRR (struct flow_ops.counts). */
bool rr_counts(const struct flow_counters *local,
	       const struct flow_counters *remote, const struct test_params *p,
	       bool netserver, uint64_t *lost, char *out, size_t n);

/* Stop set, or (a client) its end time reached at now_ns() t. */
static inline bool flow_stopping_at(const struct flow *f, uint64_t t)
{
	return __atomic_load_n(f->stop, __ATOMIC_RELAXED) != 0 ||
	       (f->end_ns && t >= f->end_ns);
}

/* Stop set, or the flow's end time passed (flows_start()); the clock is
 * read only when the flow has an end time. */
static inline bool flow_stopping(const struct flow *f)
{
	return flow_stopping_at(f, f->end_ns ? now_ns() : 0);
}

static inline bool flow_aborted(const struct flow *f)
{
	return __atomic_load_n(f->abort, __ATOMIC_RELAXED) != 0;
}

/* Publish the worker's private counters for the sampler (single writer). */
static inline void flow_publish(struct flow *f, const struct flow_counters *c)
{
	__atomic_store_n(&f->ctr.trans, c->trans, __ATOMIC_RELAXED);
	__atomic_store_n(&f->ctr.bytes_sent, c->bytes_sent, __ATOMIC_RELAXED);
	__atomic_store_n(&f->ctr.bytes_recv, c->bytes_recv, __ATOMIC_RELAXED);
	__atomic_store_n(&f->ctr.msgs_sent, c->msgs_sent, __ATOMIC_RELAXED);
	__atomic_store_n(&f->ctr.msgs_recv, c->msgs_recv, __ATOMIC_RELAXED);
	__atomic_store_n(&f->ctr.lost, c->lost, __ATOMIC_RELAXED);
}

/* Fill f->errbuf with "flow N: " and the message; returns code. */
int flow_err(struct flow *f, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * An I/O call failed with code: "flow N: what: strerror".  A peer reset
 * (ECONNRESET, EPIPE) while stop or abort is set is not an error: FLOW_END.
 */
int flow_io_err(struct flow *f, int code, const char *what);

/* Set SO_RCVTIMEO and SO_SNDTIMEO to FLOW_TIMEOUT_MS on fd. */
int flow_timeouts(struct flow *f, int fd);

/* Zeroed buffer of len bytes, or NULL with errbuf filled. */
void *flow_alloc(struct flow *f, size_t len);
/* A buffer data is sent from: f->fill repeated (netperf's -F), else zeros. */
void *flow_alloc_send(struct flow *f, size_t len);

/*
 * Blocking send of total bytes from buf, bufsz at a time (the content does
 * not matter).  Timeouts retry; abort gives FLOW_END.  Counts into c.
 */
int flow_send_n(struct flow *f, int fd, const char *buf, size_t bufsz,
		uint64_t total, struct flow_counters *c);

/*
 * Blocking receive of exactly total bytes into buf, bufsz at a time.
 * FLOW_EOF when the peer closes first, with *got bytes received.
 */
int flow_recv_n(struct flow *f, int fd, char *buf, size_t bufsz,
		uint64_t total, struct flow_counters *c, uint64_t *got);

/*
 * After our shutdown(SHUT_WR): read until the peer's EOF.  Bytes that still
 * arrive are counted in c and in *extra.  0, FLOW_END or -errno.
 */
int flow_wait_eof(struct flow *f, int fd, char *buf, size_t bufsz,
		  struct flow_counters *c, uint64_t *extra);

#endif
