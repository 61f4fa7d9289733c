/* SPDX-License-Identifier: GPL-2.0-or-later */
/* params.h - what one test is: type, sizes, flows, pinning, durations. */
#ifndef TT_PARAMS_H
#define TT_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

enum test_type {
	TEST_TCP_RR,
	TEST_TCP_CRR,
	TEST_TCP_STREAM,
	TEST_TCP_MAERTS,
	TEST_UDP_RR,
	TEST_UDP_STREAM,
	TEST_COUNT
};

#define TT_DEFAULT_PORT 12866
#define TT_MAX_FLOWS 1024
#define TT_MAX_BURST 4096
#define TT_MAX_MSG (64u * 1024 * 1024)	/* largest -r/-m size */
#define TT_MAX_UDP_MSG 65507u
#define TT_MAX_DURATION 86400
#define TT_DEFAULT_SAMPLE_MS 100

/* Segment-size capture on each end (--capture; the dashboard uses auto). */
enum capture_mode {
	CAPTURE_OFF,
	CAPTURE_ON,		/* the run fails when an end cannot capture */
	CAPTURE_AUTO,		/* capture where privileges allow, say why not elsewhere */
};

/*
 * The parameters of one test, shared by both ends.  The client fills this
 * from the command line; the server receives it in TEST_SETUP and checks it
 * with params_validate() before acting on it.
 */
struct test_params {
	enum test_type type;
	int family;		/* AF_INET or AF_INET6 */
	double duration;	/* seconds (-l) */
	uint32_t req_size;	/* -r req,resp (RR, CRR) */
	uint32_t resp_size;
	uint32_t burst;		/* -b: extra requests in flight beyond the first */
	uint32_t send_size;	/* -m (streams); 0 = default */
	uint32_t recv_size;	/* -M (streams); 0 = default */
	int32_t lsndbuf;	/* -s: local SO_SNDBUF request, -1 = autotune */
	int32_t lrcvbuf;
	int32_t rsndbuf;	/* -S: remote */
	int32_t rrcvbuf;
	bool nodelay;		/* -D (test option) */
	uint32_t flows;		/* -n */
	int lcpu;		/* -T lcpu,rcpu; -1 = not pinned */
	int rcpu;
	uint32_t sample_ms;	/* sampler tick */
	uint32_t loss_ms;	/* -e SECS (UDP_RR, the client alone): a request
				 * unanswered this long is lost; 0 = 500 ms */
	enum capture_mode capture;
};

/* Fill p with netperf's defaults for a TCP_RR test. */
void params_default(struct test_params *p);

/* Check p as a server would; 0, or -EINVAL with "what: accepted" in err. */
int params_validate(const struct test_params *p, char *err);

/*
 * send_size and recv_size 0 (no -m, no -M) stay 0 in the parameters: each
 * end applies netperf's defaults to its own socket.
 *
 * What one receive call of a TCP stream asks for, netperf's rule: -M,
 * else the receiving socket's SO_RCVBUF as read before connect (netperf's
 * lsr/rsr size; 131072 on a default Debian host).  recv_size 0 (no -M) is
 * never sent to a netserver, which applies that rule itself
 * (docs/netserver.md).  params_recv_size() is the most it can be before
 * the socket exists (from -s/-S or the kernel's default): what memory
 * budgets count; params_recv_size_at() the size with the socket's
 * before-connect SO_RCVBUF (rcvbuf_pre <= 0: not known), at most that.
 */
#define TT_RECV_DEFAULT 131072u
/*
 * What one send call of a stream carries, netperf's rule: -m, else the
 * sending socket's SO_SNDBUF as read before connect (netperf's lss/rss
 * size: 16384 for TCP on a default Debian host, 212992 for UDP), at most
 * 65507 bytes for UDP.  send_size 0 (no -m) is never sent to a netserver,
 * which applies the rule itself.  params_send_size() is the most it can be
 * before the socket exists (twice -s/-S, else TT_SEND_DEFAULT for TCP and
 * 65507 for UDP): what memory budgets count; params_send_size_at() the
 * size with the socket's before-connect SO_SNDBUF, at most that.
 */
#define TT_SEND_DEFAULT 16384u
uint32_t params_send_size(const struct test_params *p);
uint32_t params_send_size_at(const struct test_params *p, int32_t sndbuf_pre);
uint32_t params_recv_size(const struct test_params *p);
uint32_t params_recv_size_at(const struct test_params *p, int32_t rcvbuf_pre);

const char *test_type_name(enum test_type t);
/*
 * The same test and parameters, as baselines are kept (store.h's key):
 * everything but the duration, the tick, capture and CPU pinning.
 */
bool params_same_test(const struct test_params *a, const struct test_params *b);
/*
 * "TCP_RR -l 10 -- -r 1,1 -b 15 -s ,8192 -D": the test as tunetop run's
 * options (netperf's), which parse back to the same test; the one text of a
 * test for runs list, A/B, sweeps, the report and the dashboard's prompt.
 */
const char *params_text(const struct test_params *p, char *buf, unsigned len);
/* "off", "on", "auto"; capture_mode_parse returns the mode or -1. */
const char *capture_mode_name(enum capture_mode m);
int capture_mode_parse(const char *s);
/* Returns the type for a netperf name (case-insensitive) or -1. */
int test_type_parse(const char *name);

static inline bool test_is_rr(enum test_type t)
{
	return t == TEST_TCP_RR || t == TEST_TCP_CRR || t == TEST_UDP_RR;
}

static inline bool test_is_udp(enum test_type t)
{
	return t == TEST_UDP_RR || t == TEST_UDP_STREAM;
}

/* The client sends data in TCP_STREAM/UDP_STREAM, the server in MAERTS. */
static inline bool test_client_sends(enum test_type t)
{
	return t == TEST_TCP_STREAM || t == TEST_UDP_STREAM;
}

#endif
