// SPDX-License-Identifier: GPL-2.0-or-later
/* params.c - test parameter defaults, names and validation. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "core/params.h"
#include "core/util.h"

static const char *const type_names[TEST_COUNT] = {
	[TEST_TCP_RR] = "TCP_RR",
	[TEST_TCP_CRR] = "TCP_CRR",
	[TEST_TCP_STREAM] = "TCP_STREAM",
	[TEST_TCP_MAERTS] = "TCP_MAERTS",
	[TEST_UDP_RR] = "UDP_RR",
	[TEST_UDP_STREAM] = "UDP_STREAM",
};

const char *test_type_name(enum test_type t)
{
	return (unsigned)t < TEST_COUNT ? type_names[t] : "?";
}

int test_type_parse(const char *name)
{
	for (int i = 0; i < TEST_COUNT; i++)
		if (!strcasecmp(name, type_names[i]))
			return i;
	return -1;
}

void params_default(struct test_params *p)
{
	*p = (struct test_params){
		.type = TEST_TCP_RR,
		.family = AF_INET,
		.duration = 10.0,
		.req_size = 1,
		.resp_size = 1,
		.burst = 0,
		.send_size = 0,
		.recv_size = 0,
		.lsndbuf = -1, .lrcvbuf = -1, .rsndbuf = -1, .rrcvbuf = -1,
		.nodelay = false,
		.flows = 1,
		.lcpu = -1,
		.rcpu = -1,
		.sample_ms = TT_DEFAULT_SAMPLE_MS,
	};
}

/*
 * The most a TCP stream's receiving end reads per call without -M: its
 * SO_RCVBUF as -s/-S ask for it (the kernel doubles the request), else
 * the default the kernel gives a new socket (tcp_rmem's middle value,
 * 131072 on Debian's kernels).  The memory budgets count this much.
 */
static uint32_t recv_default_max(const struct test_params *p)
{
	int32_t req = test_client_sends(p->type) ? p->rrcvbuf : p->lrcvbuf;
	uint64_t n = req > 0 ? 2ull * (uint64_t)req : TT_RECV_DEFAULT;

	if (test_is_udp(p->type))
		return TT_MAX_UDP_MSG;	/* any datagram, whatever the buffer */
	return n < TT_MAX_MSG ? (uint32_t)n : TT_MAX_MSG;
}

/*
 * The most a stream's sending end sends per call without -m: its SO_SNDBUF
 * as -s/-S ask for it (the kernel doubles the request), else the default
 * the kernel gives a new TCP socket (tcp_wmem's middle value, 16384 on
 * Debian's kernels); a UDP datagram at most 65507 bytes.
 */
static uint32_t send_default_max(const struct test_params *p)
{
	int32_t req = test_client_sends(p->type) ? p->lsndbuf : p->rsndbuf;
	uint32_t cap = test_is_udp(p->type) ? TT_MAX_UDP_MSG : TT_MAX_MSG;
	uint64_t n = req > 0 ? 2ull * (uint64_t)req :
		     test_is_udp(p->type) ? TT_MAX_UDP_MSG : TT_SEND_DEFAULT;

	return n < cap ? (uint32_t)n : cap;
}

uint32_t params_send_size(const struct test_params *p)
{
	return p->send_size ? p->send_size : send_default_max(p);
}

uint32_t params_send_size_at(const struct test_params *p, int32_t sndbuf_pre)
{
	uint32_t max = params_send_size(p);

	if (p->send_size || sndbuf_pre <= 0)
		return max;
	return (uint32_t)sndbuf_pre < max ? (uint32_t)sndbuf_pre : max;
}

uint32_t params_recv_size(const struct test_params *p)
{
	return p->recv_size ? p->recv_size : recv_default_max(p);
}

uint32_t params_recv_size_at(const struct test_params *p, int32_t rcvbuf_pre)
{
	uint32_t max = params_recv_size(p);

	if (p->recv_size || rcvbuf_pre <= 0 || test_is_udp(p->type))
		return max;
	return (uint32_t)rcvbuf_pre < max ? (uint32_t)rcvbuf_pre : max;
}

int params_validate(const struct test_params *p, char *err)
{
	uint32_t max_msg = test_is_udp(p->type) ? TT_MAX_UDP_MSG : TT_MAX_MSG;

	if ((unsigned)p->type >= TEST_COUNT)
		return err_set(err, -EINVAL, "test type: accepted are TCP_RR, TCP_CRR, TCP_STREAM, TCP_MAERTS, UDP_RR, UDP_STREAM");
	if (p->family != AF_INET && p->family != AF_INET6)
		return err_set(err, -EINVAL, "family: accepted are IPv4 and IPv6");
	if (!(p->duration > 0 && p->duration <= TT_MAX_DURATION))
		return err_set(err, -EINVAL, "-l %g: accepted is 0 < seconds <= %d", p->duration, TT_MAX_DURATION);
	if (test_is_rr(p->type)) {
		if (p->req_size < 1 || p->req_size > max_msg || p->resp_size < 1 || p->resp_size > max_msg)
			return err_set(err, -EINVAL, "-r %u,%u: accepted sizes are 1 to %u bytes", p->req_size, p->resp_size, max_msg);
		if (p->burst > TT_MAX_BURST)
			return err_set(err, -EINVAL, "-b %u: accepted is 0 to %d", p->burst, TT_MAX_BURST);
		if (p->type == TEST_TCP_CRR && p->burst)
			return err_set(err, -EINVAL, "-b: TCP_CRR has one request per connection; accepted is 0");
	} else {
		/* send_size 0: no -m, the sender's default; recv_size 0: no -M,
		 * the receiver's default (TCP streams) */
		if (p->send_size > max_msg || p->recv_size > max_msg)
			return err_set(err, -EINVAL, "-m/-M: accepted sizes are 1 to %u bytes", max_msg);
	}
	if (p->flows < 1 || p->flows > TT_MAX_FLOWS)
		return err_set(err, -EINVAL, "-n %u: accepted is 1 to %d flows", p->flows, TT_MAX_FLOWS);
	if (p->lcpu < -1 || p->lcpu > 4095 || p->rcpu < -1 || p->rcpu > 4095)
		return err_set(err, -EINVAL, "-T: accepted is a CPU number 0 to 4095");
	if ((unsigned)p->capture > CAPTURE_AUTO)
		return err_set(err, -EINVAL, "capture mode %d: accepted are off, on and auto", (int)p->capture);
	if (p->sample_ms < 10 || p->sample_ms > 10000)
		return err_set(err, -EINVAL, "sample interval %u ms: accepted is 10 to 10000", p->sample_ms);
	for (int i = 0; i < 4; i++) {
		int32_t v = (&p->lsndbuf)[i];

		if (v != -1 && (v < 1 || v > (1 << 30)))
			return err_set(err, -EINVAL, "-s/-S %d: accepted is 1 byte to 1G", v);
	}
	return 0;
}

static const char *const capture_modes[] = {
	[CAPTURE_OFF] = "off", [CAPTURE_ON] = "on", [CAPTURE_AUTO] = "auto",
};

const char *capture_mode_name(enum capture_mode m)
{
	return (unsigned)m < 3 ? capture_modes[m] : "?";
}

int capture_mode_parse(const char *s)
{
	for (int m = 0; m < 3; m++)
		if (!strcmp(s, capture_modes[m]))
			return m;
	return -1;
}

/*
 * "8192" (both halves alike), "8192,4096", ",8192" (the send half not set):
 * a -s/-S value in netperf's own form, which tunetop's -s/-S parse back;
 * NULL when neither half is set.
 */
static const char *params_bufs_text(char *buf, size_t len, int32_t snd, int32_t rcv)
{
	char a[16] = "", b[16] = "";

	if (snd < 0 && rcv < 0)
		return NULL;
	if (snd == rcv) {
		snprintf(buf, len, "%d", (int)snd);
		return buf;
	}
	if (snd >= 0)
		snprintf(a, sizeof(a), "%d", (int)snd);
	if (rcv >= 0)
		snprintf(b, sizeof(b), "%d", (int)rcv);
	snprintf(buf, len, "%s,%s", a, b);
	return buf;
}

const char *params_text(const struct test_params *p, char *buf, unsigned len)
{
	char opts[160] = "", bufs[40];
	size_t w = 0;

#define OPT(...) (w += (size_t)snprintf(opts + w, w < sizeof(opts) ? sizeof(opts) - w : 0, __VA_ARGS__), \
		  w = w < sizeof(opts) ? w : sizeof(opts) - 1)
	if (test_is_rr(p->type)) {
		OPT(" -r %u,%u", p->req_size, p->resp_size);
	} else {
		if (p->send_size)
			OPT(" -m %u", p->send_size);
		if (p->recv_size)
			OPT(" -M %u", p->recv_size);
	}
	if (p->burst)
		OPT(" -b %u", p->burst);
	if (params_bufs_text(bufs, sizeof(bufs), p->lsndbuf, p->lrcvbuf))
		OPT(" -s %s", bufs);
	if (params_bufs_text(bufs, sizeof(bufs), p->rsndbuf, p->rrcvbuf))
		OPT(" -S %s", bufs);
	if (p->nodelay)
		OPT(" -D");
	if (p->flows > 1)
		OPT(" -n %u", p->flows);
#undef OPT
	snprintf(buf, len, "%s -l %g%s%s", test_type_name(p->type), p->duration,
		 opts[0] ? " --" : "", opts);
	return buf;
}

bool params_same_test(const struct test_params *a, const struct test_params *b)
{
	return a->type == b->type && a->family == b->family &&
	       a->req_size == b->req_size && a->resp_size == b->resp_size &&
	       a->burst == b->burst && params_send_size(a) == params_send_size(b) &&
	       params_recv_size(a) == params_recv_size(b) && a->lsndbuf == b->lsndbuf &&
	       a->lrcvbuf == b->lrcvbuf && a->rsndbuf == b->rsndbuf &&
	       a->rrcvbuf == b->rrcvbuf && a->nodelay == b->nodelay && a->flows == b->flows;
}
