// SPDX-License-Identifier: GPL-2.0-or-later
/* netserver.c - netperf 2.7's control messages, as an unmodified netserver speaks them. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "proto/netserver.h"
#include "proto/proto.h"

/* Word indexes of the fixed block (docs/netserver.md). */
enum {
	W_TYPE = 0, W_ERRNO = 1,
	/* DO_OMNI */
	WQ_SEND_BUF = 2, WQ_SEND_SIZE, WQ_SEND_ALIGN, WQ_SEND_OFFSET, WQ_SEND_WIDTH,
	WQ_REQUEST_SIZE, WQ_RECV_BUF, WQ_RECV_SIZE, WQ_RECV_ALIGN, WQ_RECV_OFFSET,
	WQ_RECV_WIDTH, WQ_RESPONSE_SIZE, WQ_FLAGS, WQ_CPU_RATE, WQ_TEST_LENGTH,
	WQ_RCVAVOID, WQ_SNDAVOID, WQ_SEND_DIRTY, WQ_RECV_DIRTY, WQ_RECV_CLEAN,
	WQ_DATA_PORT, WQ_IPFAMILY, WQ_SOCKET_TYPE, WQ_PROTOCOL, WQ_DIRECTION,
	WQ_NETPERF_PORT, WQ_BURST, WQ_INTERVAL_US, WQ_NETPERF_IP,
	WQ_NETSERVER_IP = WQ_NETPERF_IP + 4, WQ_PRIO = WQ_NETSERVER_IP + 4, WQ_TOS,
	/* OMNI_RESPONSE */
	WR_RECV_BUF = 2, WR_RECV_SIZE, WR_RECV_WIDTH, WR_SEND_BUF, WR_SEND_SIZE,
	WR_SEND_WIDTH, WR_FLAGS, WR_CPU_RATE, WR_TEST_LENGTH, WR_RCVAVOID,
	WR_SNDAVOID, WR_DATA_PORT,
	/* results */
	WS_RECV_HI = 2, WS_RECV_LO, WS_RECV_CALLS, WS_RECV_BUF, WS_SENT_HI,
	WS_SENT_LO, WS_SEND_CALLS, WS_SEND_BUF, WS_FAILED_SENDS, WS_TRANS,
	WS_ELAPSED, WS_CPU_UTIL, WS_CPU_USER, WS_CPU_SYSTEM, WS_CPU_IOWAIT,
	WS_CPU_IRQ, WS_CPU_SOFTIRQ, WS_SERV_DEM, WS_CPU_METHOD, WS_NUM_CPUS,
	WS_PEAK_CPU_ID, WS_PEAK_CPU_UTIL, WS_VENDOR, WS_DEVICE, WS_SUBVENDOR,
	WS_SUBDEVICE, WS_RETRANS,
	WS_CONG = 69,		/* 16 bytes of text, after five text fields */
};

static uint32_t ns_get(const uint8_t *buf, unsigned w)
{
	const uint8_t *p = buf + 4 * w;

	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void ns_put(uint8_t *buf, unsigned w, uint32_t v)
{
	uint8_t *p = buf + 4 * w;

	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* Floats travel as their IEEE-754 bits in a network-order word. */
static float ns_getf(const uint8_t *buf, unsigned w)
{
	uint32_t v = ns_get(buf, w);
	float f;

	memcpy(&f, &v, sizeof(f));
	return f;
}

static void ns_putf(uint8_t *buf, unsigned w, float f)
{
	uint32_t v;

	memcpy(&v, &f, sizeof(v));
	ns_put(buf, w, v);
}

void ns_request_from_params(const struct test_params *p, struct ns_request *q)
{
	bool rr = test_is_rr(p->type), udp = test_is_udp(p->type);
	double len = ceil(p->duration);

	memset(q, 0, sizeof(*q));
	q->send_buf_size = p->rsndbuf;
	q->recv_buf_size = p->rrcvbuf;
	q->cpu = p->rcpu;
	q->send_size = q->receive_size = -1;
	q->request_size = q->response_size = -1;
	q->send_width = q->recv_width = rr ? 1 : 2;
	if (rr) {
		/* netserver receives requests and sends responses */
		q->request_size = (int32_t)p->req_size;
		q->response_size = (int32_t)p->resp_size;
		q->direction = NS_DIR_XMIT | NS_DIR_RECV;
	} else if (p->type == TEST_TCP_MAERTS) {
		q->send_size = p->send_size ? (int32_t)p->send_size : -1;
		q->direction = NS_DIR_XMIT;
	} else {
		q->receive_size = p->recv_size ? (int32_t)p->recv_size : -1;
		q->direction = NS_DIR_RECV;
	}
	/* netserver measures its CPU always: -C only decides what is shown */
	q->flags = NS_FLAG_MEASURE_CPU;
	if (p->type != TEST_UDP_STREAM)
		q->flags |= NS_FLAG_ROUTING_ALLOWED;
	if (p->nodelay)
		q->flags |= NS_FLAG_NODELAY;
	if (p->type == TEST_TCP_CRR)
		q->flags |= NS_FLAG_CONNECT_TEST;
	q->test_length = len < 1 ? 1 : (int32_t)len;
	q->ipfamily = p->family == AF_INET6 ? 6 : 4;
	q->socket_type = udp ? 2 : 1;
	q->protocol = udp ? IPPROTO_UDP : IPPROTO_TCP;
}

void ns_request_encode(const struct ns_request *q, uint8_t *buf)
{
	memset(buf, 0, NS_MSG_LEN);
	ns_put(buf, W_TYPE, NS_DO_OMNI);
	/* netperf's request header word 1: the CPU to bind netserver to */
	ns_put(buf, W_ERRNO, (uint32_t)q->cpu);
	ns_put(buf, WQ_SEND_BUF, (uint32_t)q->send_buf_size);
	ns_put(buf, WQ_SEND_SIZE, (uint32_t)q->send_size);
	ns_put(buf, WQ_SEND_ALIGN, 8);
	ns_put(buf, WQ_SEND_WIDTH, (uint32_t)q->send_width);
	ns_put(buf, WQ_REQUEST_SIZE, (uint32_t)q->request_size);
	ns_put(buf, WQ_RECV_BUF, (uint32_t)q->recv_buf_size);
	ns_put(buf, WQ_RECV_SIZE, (uint32_t)q->receive_size);
	ns_put(buf, WQ_RECV_ALIGN, 8);
	ns_put(buf, WQ_RECV_WIDTH, (uint32_t)q->recv_width);
	ns_put(buf, WQ_RESPONSE_SIZE, (uint32_t)q->response_size);
	ns_put(buf, WQ_FLAGS, q->flags);
	ns_putf(buf, WQ_CPU_RATE, 0.0f);
	ns_put(buf, WQ_TEST_LENGTH, (uint32_t)q->test_length);
	ns_put(buf, WQ_SEND_DIRTY, UINT32_MAX);
	ns_put(buf, WQ_RECV_DIRTY, UINT32_MAX);
	ns_put(buf, WQ_RECV_CLEAN, UINT32_MAX);
	ns_put(buf, WQ_DATA_PORT, q->data_port);
	ns_put(buf, WQ_IPFAMILY, q->ipfamily);
	ns_put(buf, WQ_SOCKET_TYPE, q->socket_type);
	ns_put(buf, WQ_PROTOCOL, q->protocol);
	ns_put(buf, WQ_DIRECTION, q->direction);
	ns_put(buf, WQ_NETPERF_PORT, q->netperf_port);
	ns_put(buf, WQ_PRIO, UINT32_MAX);
	ns_put(buf, WQ_TOS, UINT32_MAX);
}

/* The type word as netserver writes it: network order, or (results) its own. */
static bool ns_type_is(const uint8_t *buf, uint32_t type)
{
	uint32_t t = ns_get(buf, W_TYPE);

	return t == type || __builtin_bswap32(t) == type;
}

int ns_request_decode(const uint8_t *buf, size_t len, struct ns_request *q, char *err)
{
	if (len != NS_MSG_LEN)
		return err_set(err, -EPROTO, "netserver request: %zu bytes; accepted: %d",
			       len, NS_MSG_LEN);
	if (ns_get(buf, W_TYPE) != NS_DO_OMNI)
		return err_set(err, -EPROTO, "netserver request: type %u; accepted: %d (DO_OMNI)",
			       ns_get(buf, W_TYPE), NS_DO_OMNI);
	memset(q, 0, sizeof(*q));
	q->cpu = (int32_t)ns_get(buf, W_ERRNO);
	q->send_buf_size = (int32_t)ns_get(buf, WQ_SEND_BUF);
	q->send_size = (int32_t)ns_get(buf, WQ_SEND_SIZE);
	q->send_width = (int32_t)ns_get(buf, WQ_SEND_WIDTH);
	q->request_size = (int32_t)ns_get(buf, WQ_REQUEST_SIZE);
	q->recv_buf_size = (int32_t)ns_get(buf, WQ_RECV_BUF);
	q->receive_size = (int32_t)ns_get(buf, WQ_RECV_SIZE);
	q->recv_width = (int32_t)ns_get(buf, WQ_RECV_WIDTH);
	q->response_size = (int32_t)ns_get(buf, WQ_RESPONSE_SIZE);
	q->flags = ns_get(buf, WQ_FLAGS);
	q->test_length = (int32_t)ns_get(buf, WQ_TEST_LENGTH);
	q->data_port = ns_get(buf, WQ_DATA_PORT);
	q->ipfamily = ns_get(buf, WQ_IPFAMILY);
	q->socket_type = ns_get(buf, WQ_SOCKET_TYPE);
	q->protocol = ns_get(buf, WQ_PROTOCOL);
	q->direction = ns_get(buf, WQ_DIRECTION);
	q->netperf_port = ns_get(buf, WQ_NETPERF_PORT);
	return 0;
}

/* The header checks both replies share. */
static int ns_check_reply(const uint8_t *buf, size_t len, const char *what, char *err)
{
	int32_t e;

	if (len != NS_MSG_LEN)
		return err_set(err, -EPROTO, "%s: %zu bytes, netserver 2.7 sends %d", what, len,
			       NS_MSG_LEN);
	e = (int32_t)ns_get(buf, W_ERRNO);
	if (e == NS_ERR_UNKNOWN_TEST)
		return err_set(err, -EPROTONOSUPPORT,
			       "%s: netserver does not know the omni test (a netserver older than 2.5?); accepted: netserver 2.7",
			       what);
	if (!ns_type_is(buf, NS_OMNI_RESPONSE))
		return err_set(err, -EPROTONOSUPPORT,
			       "%s: message type 0x%08x, netserver 2.7 answers %d (OMNI_RESPONSE): not netserver 2.7",
			       what, ns_get(buf, W_TYPE), NS_OMNI_RESPONSE);
	if (e)
		return err_set(err, -EREMOTEIO, "%s: netserver failed: %s (errno %d on its host)",
			       what, e > 0 && e < 4096 ? strerror(e) : "unknown error", e);
	return 0;
}

int ns_response_decode(const uint8_t *buf, size_t len, struct ns_response *r, char *err)
{
	int ret = ns_check_reply(buf, len, "netserver's answer to DO_OMNI", err);

	if (ret)
		return ret;
	memset(r, 0, sizeof(*r));
	r->recv_buf_size = (int32_t)ns_get(buf, WR_RECV_BUF);
	r->receive_size = (int32_t)ns_get(buf, WR_RECV_SIZE);
	r->send_buf_size = (int32_t)ns_get(buf, WR_SEND_BUF);
	r->send_size = (int32_t)ns_get(buf, WR_SEND_SIZE);
	r->flags = ns_get(buf, WR_FLAGS);
	r->cpu_rate = ns_getf(buf, WR_CPU_RATE);
	r->data_port = ns_get(buf, WR_DATA_PORT);
	if (!r->data_port || r->data_port > 65535)
		return err_set(err, -EPROTO, "netserver's answer to DO_OMNI: data port %u; accepted: 1-65535",
			       r->data_port);
	return 0;
}

/* A CPU figure netserver measured: a percentage. */
static bool ns_pct(float f)
{
	return isfinite(f) && f >= 0.0f && f <= 100.5f;
}

int ns_results_decode(const uint8_t *buf, size_t len, bool asked_cpu,
		      struct ns_results *r, char *err)
{
	int ret = ns_check_reply(buf, len, "netserver's results", err);

	if (ret)
		return ret;
	memset(r, 0, sizeof(*r));
	r->bytes_received = (uint64_t)ns_get(buf, WS_RECV_HI) << 32 | ns_get(buf, WS_RECV_LO);
	r->bytes_sent = (uint64_t)ns_get(buf, WS_SENT_HI) << 32 | ns_get(buf, WS_SENT_LO);
	r->recv_calls = ns_get(buf, WS_RECV_CALLS);
	r->send_calls = ns_get(buf, WS_SEND_CALLS);
	r->failed_sends = ns_get(buf, WS_FAILED_SENDS);
	r->trans_received = ns_get(buf, WS_TRANS);
	r->recv_buf_size = (int32_t)ns_get(buf, WS_RECV_BUF);
	r->send_buf_size = (int32_t)ns_get(buf, WS_SEND_BUF);
	r->elapsed = ns_getf(buf, WS_ELAPSED);
	if (!isfinite(r->elapsed) || r->elapsed < 0)
		return err_set(err, -EPROTO, "netserver's results: elapsed time is not a time");
	r->cpu_util = ns_getf(buf, WS_CPU_UTIL);
	r->cpu_user = ns_getf(buf, WS_CPU_USER);
	r->cpu_system = ns_getf(buf, WS_CPU_SYSTEM);
	r->cpu_iowait = ns_getf(buf, WS_CPU_IOWAIT);
	r->cpu_irq = ns_getf(buf, WS_CPU_IRQ);
	r->cpu_softirq = ns_getf(buf, WS_CPU_SOFTIRQ);
	r->cpu_method = ns_get(buf, WS_CPU_METHOD);
	r->num_cpus = ns_get(buf, WS_NUM_CPUS);
	r->peak_cpu_id = (int32_t)ns_get(buf, WS_PEAK_CPU_ID);
	r->peak_cpu_util = ns_getf(buf, WS_PEAK_CPU_UTIL);
	/* Words netserver did not fill keep what the buffer held before
	 * (docs/netserver.md): CPU figures count only when asked for and sane. */
	r->has_cpu = asked_cpu && r->num_cpus >= 1 && r->num_cpus <= 4096 &&
		     ns_pct(r->cpu_util) && ns_pct(r->cpu_user) && ns_pct(r->cpu_system) &&
		     ns_pct(r->cpu_iowait) && ns_pct(r->cpu_irq) && ns_pct(r->cpu_softirq);
	if (!ns_pct(r->peak_cpu_util))
		r->peak_cpu_util = -1;
	r->retrans = (int32_t)ns_get(buf, WS_RETRANS);
	memcpy(r->cong_control, buf + 4 * WS_CONG, 16);
	r->cong_control[16] = '\0';
	for (char *c = r->cong_control; *c; c++)
		if (*c < 0x21 || *c > 0x7e) {
			r->cong_control[0] = '\0';
			break;
		}
	return 0;
}

int ns_send_msg(int fd, const uint8_t *buf, char *err)
{
	size_t off = 0;

	while (off < NS_MSG_LEN) {
		ssize_t n = send(fd, buf + off, NS_MSG_LEN - off, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return err_set(err, -errno, "netserver control: send: %s", strerror(errno));
		off += (size_t)n;
	}
	return 0;
}

/*
 * Name what a peer sent instead of a whole netserver message.  timeout_ms
 * is a deadline for the whole message, not a silence: a peer that sends a
 * byte now and then runs into it as well as one that stops.
 */
static int ns_not_netserver(const uint8_t *buf, size_t got, const char *peer, bool closed,
			    int timeout_ms, char *err)
{
	if (got >= 2 && buf[0] == 'T' && buf[1] == 'T')
		return err_set(err, -EPROTO,
			       "%s: answers in tunetop's own protocol (a tunetopd, not netserver); accepted: -H without --netserver for tunetopd",
			       peer);
	if (!got && closed)
		return err_set(err, -EPIPE,
			       "%s: closed the connection without a whole answer: not netserver 2.7", peer);
	if (!got)
		return err_set(err, -ETIMEDOUT, "%s: no answer within %.1f s: not netserver 2.7",
			       peer, timeout_ms / 1000.0);
	if (closed)
		return err_set(err, -EPROTO,
			       "%s: closed the connection after %zu of the %d bytes netserver 2.7 answers (first bytes %02x%02x%02x%02x): not netserver 2.7",
			       peer, got, NS_MSG_LEN, buf[0], got > 1 ? buf[1] : 0,
			       got > 2 ? buf[2] : 0, got > 3 ? buf[3] : 0);
	return err_set(err, -ETIMEDOUT,
		       "%s: no complete reply within %.1f s: %zu of the %d bytes netserver 2.7 answers (first bytes %02x%02x%02x%02x): not netserver 2.7",
		       peer, timeout_ms / 1000.0, got, NS_MSG_LEN, buf[0], got > 1 ? buf[1] : 0,
		       got > 2 ? buf[2] : 0, got > 3 ? buf[3] : 0);
}

/*
 * Read into buf until it holds a whole message, the peer closes (*closed)
 * or deadline passes; *got counts the bytes.  With tt, first look at what
 * comes without taking it: 1 when it starts a tunetop frame ("TT", left
 * unread).  0, or -errno of poll/recv with err.
 */
static int ns_read(int fd, uint8_t *buf, uint64_t deadline, bool tt, size_t *got,
		   bool *closed, const char *peer, char *err)
{
	*got = 0;
	*closed = false;
	while (*got < NS_MSG_LEN) {
		int64_t left = (int64_t)(deadline - now_ns()) / 1000000;
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;
		int pr;

		if (left <= 0) {
			/* a lone "T" only looked at: take it, to name it */
			if (tt && !*got && (n = recv(fd, buf, NS_MSG_LEN, MSG_DONTWAIT)) > 0)
				*got = (size_t)n;
			return 0;
		}
		pr = poll(&pfd, 1, (int)left);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0)
			return err_set(err, -errno, "%s: poll: %s", peer, strerror(errno));
		if (!pr)
			continue;
		if (tt && !*got) {
			n = recv(fd, buf, 2, MSG_PEEK | MSG_DONTWAIT);
			if (n == 2 && buf[0] == PROTO_MAGIC0 && buf[1] == PROTO_MAGIC1)
				return 1;
			if (n == 1 && buf[0] == PROTO_MAGIC0) {
				/* one byte of what may be a frame: wait for the next */
				struct timespec ts = { .tv_nsec = 10000000 };

				nanosleep(&ts, NULL);
				continue;
			}
		}
		n = recv(fd, buf + *got, NS_MSG_LEN - *got, MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0 && errno != ECONNRESET)
			return err_set(err, -errno, "%s: recv: %s", peer, strerror(errno));
		if (n <= 0) {
			*closed = true;
			return 0;
		}
		*got += (size_t)n;
	}
	return 0;
}

int ns_recv_msg(int fd, uint8_t *buf, int timeout_ms, const char *peer, char *err)
{
	uint64_t deadline = now_ns() + (uint64_t)timeout_ms * 1000000ull;
	size_t got;
	bool closed;
	int ret = ns_read(fd, buf, deadline, false, &got, &closed, peer, err);

	if (ret)
		return ret;
	if (got < NS_MSG_LEN)
		return ns_not_netserver(buf, got, peer, closed, timeout_ms, err);
	return 0;
}

/*
 * What answered tunetop's HELLO padded to NS_MSG_LEN bytes (docs/netserver.md,
 * "Telling netserver from something else"): a tunetop frame is left unread
 * for proto_recv; anything else must be netserver's refusal of an unknown
 * request, a whole message with errno 998.
 */
int ns_detect(int fd, int timeout_ms, const char *peer, char *err)
{
	static const char neither[] = "neither a tunetopd (a HELLO_OK frame) nor a netserver (a 656-byte answer)";
	uint64_t deadline = now_ns() + (uint64_t)timeout_ms * 1000000ull;
	uint8_t buf[NS_MSG_LEN];
	size_t got;
	bool closed;
	int ret = ns_read(fd, buf, deadline, true, &got, &closed, peer, err);

	if (ret)
		return ret == 1 ? 0 : ret;
	if (got == NS_MSG_LEN) {
		int32_t e = (int32_t)ns_get(buf, W_ERRNO);

		if (e == NS_ERR_UNKNOWN_TEST)
			return 1;
		return err_set(err, -EPROTO,
			       "%s: answered tunetop's HELLO with 656 bytes whose word 1 is %d, not netserver's 998 for an unknown request: %s",
			       peer, e, neither);
	}
	if (!got && closed)
		return err_set(err, -EPIPE, "%s: closed the connection without answering tunetop's HELLO: %s",
			       peer, neither);
	if (!got)
		return err_set(err, -ETIMEDOUT, "%s: no answer to tunetop's HELLO within %.3g s: %s",
			       peer, timeout_ms / 1000.0, neither);
	if (closed)
		return err_set(err, -EPROTO,
			       "%s: answered tunetop's HELLO with %zu bytes (first bytes %02x%02x%02x%02x), then closed the connection: %s",
			       peer, got, buf[0], got > 1 ? buf[1] : 0, got > 2 ? buf[2] : 0,
			       got > 3 ? buf[3] : 0, neither);
	/* A deadline for the whole answer: the bytes may have come slowly. */
	return err_set(err, -ETIMEDOUT,
		       "%s: answered tunetop's HELLO with %zu bytes (first bytes %02x%02x%02x%02x), no complete reply within %.3g s: %s",
		       peer, got, buf[0], got > 1 ? buf[1] : 0, got > 2 ? buf[2] : 0,
		       got > 3 ? buf[3] : 0, timeout_ms / 1000.0, neither);
}

_Static_assert(PROTO_HELLO_PAD == NS_MSG_LEN, "the HELLO is padded to one netserver message");

int ns_hello(int fd, const json_t *hello, int timeout_ms, const char *peer, char *err)
{
	int ret = proto_send_padded(fd, MSG_HELLO, hello, PROTO_HELLO_PAD, err);

	return ret ? ret : ns_detect(fd, timeout_ms, peer, err);
}
