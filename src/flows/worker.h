/* SPDX-License-Identifier: GPL-2.0-or-later */
/* worker.h - the data-path thread of one flow, on either end, for every test type. */
#ifndef TT_WORKER_H
#define TT_WORKER_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "stats/hist.h"
#include "core/params.h"
#include "sample/sample.h"
#include "core/util.h"

/*
 * One flow.  The session fills the "set up" part, calls flow_start(), and
 * later flow_join().  While it runs, the worker alone writes ctr and lat
 * (relaxed atomic stores) and the sampler reads them.
 *
 * Ending, so both ends count every transaction and byte exactly:
 * - stop (set by the session at the end of the measured time, or, for a
 *   client, its end_ns reached, whichever comes first): the client
 *   of an RR test stops issuing requests, collects the responses still in
 *   flight, shuts down its write side and reads to EOF; a stream sender
 *   shuts down its write side after its last send and waits for the peer's
 *   EOF; the server sender of MAERTS does the same when told to stop.
 *   TCP receivers and TCP RR servers run until EOF; UDP and CRR servers run
 *   until stop, then drain what is already queued.  So a session sets the
 *   stop of UDP and CRR servers only after the client's flows have ended.
 * - abort: the other end failed; return at once, with err 0: the failure
 *   is the other end's to report.  The session sets *abort and then calls
 *   flow_interrupt() on every flow.  Workers end within ~200 ms of *abort
 *   by themselves, except TCP_RR's, which block without a timeout (the
 *   kernel timer behind one costs ~3 % of a 1-byte TCP_RR) and need the
 *   interrupt when their peer has gone silent.
 *
 * Sockets: the session creates, connects (or binds/listens) and closes
 * them; a worker only shuts down its write side (CRR clients open and
 * close their own).  flow_sockopts() must be applied by the session before
 * connect() or listen() (accepted sockets inherit the listener's options):
 * buffer sizes set later do not change the window scale.  Except for
 * TCP_RR, the worker sets SO_RCVTIMEO/SO_SNDTIMEO itself (on the listener
 * for CRR servers, whose accepted sockets inherit them) so blocked calls
 * return to look at stop and abort.  Worker threads block all signals.
 */
/*
 * Where started workers wait until every thread of the run exists
 * (flows_start()): a thread created while hundreds already send gets a
 * CPU only after all of them, so starting 1024 running flows one by one
 * took over 20 s on two CPUs.  open is 0 until flows_start() opens it.
 */
struct flow_gate {
	int open;
};

struct flow {
	/* set up by the session */
	unsigned idx;
	const struct test_params *p;
	bool is_client;
	int fd;				/* connected data socket; -1 for a CRR client */
	int listen_fd;			/* CRR server: the shared listener */
	/*
	 * CRR client: where to connect.  UDP server: the only source it
	 * answers and counts (the session's client, from its control
	 * connection); port 0 until learned from the first datagram from
	 * that address.  peerlen 0: any source (the test's own client side).
	 */
	struct sockaddr_storage peer;
	/* -F: what the send buffers hold, repeated (NULL: zeros); the
	 * session's, read once (fill_read) */
	const uint8_t *fill;
	size_t fill_len;
	socklen_t peerlen;
	int cpu;			/* pin to this CPU, -1 = not */
	const int *stop;
	const int *abort;
	/*
	 * Client: the now_ns() at which the worker stops by itself, as if
	 * *stop were set (flows_start() sets it; 0 = only *stop).  The
	 * session's thread shares the CPUs with every worker and may run
	 * seconds late among 1024 busy ones; the workers need no one.
	 */
	uint64_t end_ns;
	struct flow_gate *gate;		/* wait here before the test (flows_start) */
	struct hist *lat;		/* client of RR tests: latency per transaction; NULL = none */
	/*
	 * SO_SNDBUF/SO_RCVBUF right after socket() and -s/-S, before
	 * connect() or listen(): netperf's LSS_SIZE etc.  -1 = not read.
	 * The session sets them (flow_note_bufs); a CRR client's worker
	 * sets them from its first connection (release store).
	 */
	int32_t sndbuf_pre, rcvbuf_pre;
	/* TCP_CONGESTION then ("" UDP): written before sndbuf_pre, for the
	 * sampler of a CRR flow, whose sockets it never sees */
	char cong_pre[16];

	/* written by the worker */
	struct flow_counters ctr;
	uint64_t send_errors;		/* UDP: sends refused (ENOBUFS, ECONNREFUSED) */
	uint64_t strays;		/* UDP server: datagrams from sources other
					 * than peer: not answered, not counted */
	pid_t tid;			/* set before the worker touches data */
	int err;			/* 0, or -errno when it ended on an error */
	char errbuf[ERR_MAX];
	uint64_t ctx_vol, ctx_invol;	/* the thread's context switches, at its end */
	uint64_t cpu_ns;		/* the thread's CPU time (user + system), at its end */
	uint64_t done_ns;		/* now_ns() when the worker ended */
	bool done;			/* set (release) when the worker has ended */

	pthread_t thread;
	bool started;
};

/*
 * One test type: its two ends and what the session and the server ask of
 * it, so they hold no code per type (docs/HACKING.md, "How to add ...").
 * One per type in the file of its concern, in flow_table of worker.c.
 */
struct flow_ops {
	/* The worker of each end: 0, FLOW_END or -errno (errbuf filled). */
	int (*client)(struct flow *f);
	int (*server)(struct flow *f);
	/*
	 * The bytes one worker of that end allocates for p (its buffers,
	 * computed by the same rule the worker uses), for the memory budget
	 * of flows_mem_need().
	 */
	size_t (*bufs)(const struct test_params *p, bool client);
	/*
	 * Whether the client's totals (local) and the server's (remote)
	 * agree, with both written into out for the run's counts line;
	 * *lost set to the datagrams lost (UDP only).  netserver: the server
	 * is netperf's, whose counts are its own (docs/netserver.md).
	 */
	bool (*counts)(const struct flow_counters *local,
		       const struct flow_counters *remote,
		       const struct test_params *p, bool netserver,
		       uint64_t *lost, char *out, size_t n);
	/*
	 * A connection per transaction (TCP_CRR): a client's worker connects
	 * and closes its own, the server's share the listener and accept.
	 */
	bool conn_per_trans;
	/*
	 * The server end sends (TCP_MAERTS): the client does not stop by
	 * itself at the end of -l; the server hears of the stop first.
	 */
	bool server_sends;
};

/* The ops of test type t (every type has them). */
const struct flow_ops *flow_ops_for(enum test_type t);

/*
 * Apply the socket options of the test to fd (-s/-S, -D); client selects
 * local/remote.  Call before connect() or listen().  0 or -errno.
 */
int flow_sockopts(int fd, const struct test_params *p, bool client, char *err);

/*
 * Note fd's SO_SNDBUF and SO_RCVBUF as f's sizes before connect (call
 * right after flow_sockopts).  Sizes already noted are kept.
 */
void flow_note_bufs(struct flow *f, int fd);

/*
 * What one worker holds besides its buffers: the part of its thread's
 * stack it touches, its flow, a socket sample per tick (an estimate,
 * measured with VmRSS over many flows; docs/security.md).
 */
#define FLOW_MEM_OVERHEAD (64u * 1024)

/*
 * Memory the p->flows workers of one end of test p allocate (buffers
 * capped at 1 MiB each, plus FLOW_MEM_OVERHEAD per flow), for a memory
 * budget checked before anything is allocated.  p must be valid.
 */
uint64_t flows_mem_need(const struct test_params *p, bool client);

/*
 * Make room in this process for the sockets of n flows at `ends` ends (2
 * when the embedded server's end shares it): when the descriptors open now
 * plus n x ends (and a few spare) do not fit under the soft RLIMIT_NOFILE
 * (often 1024), raise it to the hard limit.  -EMFILE, with the hard limit
 * named in err, when even that is too low.
 */
int flows_fd_room(unsigned n, unsigned ends, char *err);

/* Start the worker thread. 0 or -errno. */
int flow_start(struct flow *f, char *err);

/*
 * Start the n workers of a run together: each waits in gate (reset here;
 * the caller keeps it until the flows are joined) until all threads
 * exist, then the gate opens; *t0 is the now_ns() it opened at.  With
 * duration_ns, each flow's end_ns is *t0 + duration_ns (clients).  On an
 * error the started flows are aborted (*abort) and still need joining.
 */
int flows_start(struct flow *flows, unsigned n, struct flow_gate *gate,
		uint64_t duration_ns, int *abort, uint64_t *t0, char *err);

/*
 * After setting *abort: wake the worker if it is blocked on a TCP socket
 * (shuts f->fd down both ways; the session still closes it).  Any thread.
 */
void flow_interrupt(struct flow *f);

/*
 * When the last of the joined flows ended (their done_ns), or t when none
 * told: a run's end, which the joining thread may notice much later.
 */
uint64_t flows_last_done(const struct flow *flows, unsigned n, uint64_t t);

/* Wait for the worker; returns f->err. */
int flow_join(struct flow *f);

/* Set *abort for flows[0..n-1] and wake each of them (flow_interrupt). */
void flows_abort(struct flow *flows, unsigned n, int *abort);

/*
 * Wait for every started flow to end, reading nothing; flows still running
 * drain_ms after the call are aborted.  Returns 0, -ETIMEDOUT when they had
 * to be aborted, or the first flow's error; err says which ("who: ...").
 */
int flows_join(struct flow *flows, unsigned n, int *abort, int drain_ms,
	       const char *who, char *err);

#endif
