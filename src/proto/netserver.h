/* SPDX-License-Identifier: GPL-2.0-or-later */
/* netserver.h - netperf 2.7's control messages, as an unmodified netserver speaks them. */
#ifndef TT_NETSERVER_H
#define TT_NETSERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/params.h"

/*
 * docs/netserver.md has the layout.  Every message either way is one
 * fixed block of NS_MSG_LEN bytes (no length prefix): a type word, an
 * errno word and 162 words of test data, integers in network order.
 */
#define NS_MSG_LEN 656
#define NS_DEFAULT_PORT "12865"

#define NS_DO_OMNI 97		/* request: run an omni test */
#define NS_OMNI_RESPONSE 98	/* reply to it; the results message says the same */
#define NS_ERR_UNKNOWN_TEST 998	/* errno word of a netserver without the omni test */

/* Request flags (netserver's point of view). */
#define NS_FLAG_NODELAY 0x01
#define NS_FLAG_CONNECT_TEST 0x04
#define NS_FLAG_MEASURE_CPU 0x08
#define NS_FLAG_ROUTING_ALLOWED 0x20

/* Directions, from netserver's side. */
#define NS_DIR_XMIT 0x2
#define NS_DIR_RECV 0x4

/* What tunetop asks of netserver (DO_OMNI); -1 = netserver's default. */
struct ns_request {
	int32_t send_buf_size, send_size, send_width, request_size;
	int32_t recv_buf_size, receive_size, recv_width, response_size;
	uint32_t flags;
	int32_t test_length;		/* seconds */
	uint32_t data_port;		/* 0: netserver picks */
	uint32_t ipfamily;		/* 4 or 6 (netperf's own numbers) */
	uint32_t socket_type;		/* 1 stream, 2 datagram */
	uint32_t protocol;		/* IPPROTO_TCP / IPPROTO_UDP */
	uint32_t direction;		/* NS_DIR_* */
	uint32_t netperf_port;
	int32_t cpu;			/* word 1: the CPU netserver binds to (-T ,N); -1 none */
};

/* netserver's answer: its data socket, listening on data_port. */
struct ns_response {
	int32_t serv_errno;
	int32_t recv_buf_size, receive_size, send_buf_size, send_size;
	uint32_t flags;
	float cpu_rate;
	uint32_t data_port;
};

/* netserver's figures at the end of the test. */
struct ns_results {
	int32_t serv_errno;
	uint64_t bytes_received, bytes_sent;
	uint32_t recv_calls, send_calls, failed_sends, trans_received;
	int32_t recv_buf_size, send_buf_size;	/* at the end of the test */
	float elapsed;				/* seconds */
	bool has_cpu;				/* CPU measured and sane */
	float cpu_util, cpu_user, cpu_system, cpu_iowait, cpu_irq, cpu_softirq;
	uint32_t cpu_method, num_cpus;
	int32_t peak_cpu_id;
	float peak_cpu_util;
	int32_t retrans;			/* -1 n/a */
	char cong_control[17];
};

/* The request for a test with parameters p (netserver's view). */
void ns_request_from_params(const struct test_params *p, struct ns_request *q);
void ns_request_encode(const struct ns_request *q, uint8_t *buf);
/* 0, or -EPROTO with err when buf is not a DO_OMNI request. */
int ns_request_decode(const uint8_t *buf, size_t len, struct ns_request *q, char *err);
/*
 * Decode netserver's answer to DO_OMNI: 0, or -EPROTO / -EPROTONOSUPPORT
 * (not netserver 2.7's answer) / -EREMOTEIO (netserver refused: serv_errno)
 * with "what: why" in err.
 */
int ns_response_decode(const uint8_t *buf, size_t len, struct ns_response *r, char *err);
/* The same for the results message; asked_cpu says whether CPU was measured. */
int ns_results_decode(const uint8_t *buf, size_t len, bool asked_cpu,
		      struct ns_results *r, char *err);

/*
 * Read one message within timeout_ms.  0, or -errno with err naming what
 * came instead: -ETIMEDOUT (nothing, or too little), -EPIPE (closed
 * first), -EPROTO (a tunetopd frame, or other bytes).
 */
int ns_recv_msg(int fd, uint8_t *buf, int timeout_ms, const char *peer, char *err);
/*
 * After tunetop's HELLO, sent padded to NS_MSG_LEN bytes (proto_send_padded):
 * within timeout_ms, 0 when a tunetop frame starts on fd (left unread), 1
 * when netserver answered it as an unknown request (656 bytes, errno 998;
 * read), or -errno with err naming what came instead: -ETIMEDOUT
 * (nothing, or too little), -EPIPE (closed first), -EPROTO (other bytes).
 */
int ns_detect(int fd, int timeout_ms, const char *peer, char *err);
/*
 * Send tunetop's HELLO (its body hello) padded to NS_MSG_LEN bytes, and
 * tell what answers as ns_detect does: 0 (a tunetop frame waits on fd),
 * 1 (a netserver), or -errno with err.  Every HELLO tunetop sends goes
 * through here (docs/protocol.md, HELLO).
 */
int ns_hello(int fd, const json_t *hello, int timeout_ms, const char *peer, char *err);
/* Send one message; 0 or -errno. */
int ns_send_msg(int fd, const uint8_t *buf, char *err);

#endif
