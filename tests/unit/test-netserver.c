// SPDX-License-Identifier: GPL-2.0-or-later
/* test-netserver.c - netserver's control messages against the bytes netperf 2.7.1 exchanged with it. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proto/netserver.h"
#include "core/util.h"
#include "tap.h"

static char datadir[4096];

/* One recorded message of tests/data/netserver; 0 or -1 (reported). */
static int load(const char *name, uint8_t *buf, size_t *len)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.bin", datadir, name);
	f = fopen(path, "rb");
	if (!ok(f != NULL, "open %s", path))
		return -1;
	*len = fread(buf, 1, NS_MSG_LEN + 16, f);
	fclose(f);
	return 0;
}

static void check_requests(void)
{
	static const struct {
		const char *file;
		enum test_type type;
		uint32_t flags, socket_type, protocol, direction;
		int32_t request_size, response_size, test_length;
	} want[] = {
		{ "tcp_rr-01-request", TEST_TCP_RR, 0x28, 1, 6, 6, 1, 1, 1 },
		{ "tcp_crr-01-request", TEST_TCP_CRR, 0x24, 1, 6, 6, 1, 1, 1 },
		{ "tcp_stream-01-request", TEST_TCP_STREAM, 0x28, 1, 6, 4, -1, -1, 1 },
		{ "tcp_maerts-01-request", TEST_TCP_MAERTS, 0x20, 1, 6, 2, -1, -1, 1 },
		{ "udp_rr-01-request", TEST_UDP_RR, 0x20, 2, 17, 6, 1, 1, 1 },
		{ "udp_stream-01-request", TEST_UDP_STREAM, 0x00, 2, 17, 4, -1, -1, 1 },
		{ "omni_rr_sel-01-request", TEST_TCP_RR, 0x21, 1, 6, 6, 1, 1, 1 },
	};
	uint8_t buf[NS_MSG_LEN + 16], mine[NS_MSG_LEN];
	char err[ERR_MAX];

	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct ns_request q, m;
		struct test_params p;
		size_t len;

		if (load(want[i].file, buf, &len))
			continue;
		if (!ok(ns_request_decode(buf, len, &q, err) == 0, "%s decodes (%s)",
			want[i].file, err))
			continue;
		ok(q.flags == want[i].flags && q.socket_type == want[i].socket_type &&
		   q.protocol == want[i].protocol && q.direction == want[i].direction &&
		   q.request_size == want[i].request_size &&
		   q.response_size == want[i].response_size &&
		   q.test_length == want[i].test_length && q.ipfamily == 4,
		   "%s: flags 0x%x type %u proto %u dir %u sizes %d,%d -l %d",
		   want[i].file, q.flags, q.socket_type, q.protocol, q.direction,
		   q.request_size, q.response_size, q.test_length);

		/* Ours for the same test: the same words where they mean the same. */
		params_default(&p);
		p.type = want[i].type;
		p.family = AF_INET;
		p.duration = 1;
		p.nodelay = q.flags & NS_FLAG_NODELAY;
		ns_request_from_params(&p, &m);
		ns_request_encode(&m, mine);
		ok(ns_request_decode(mine, sizeof(mine), &m, err) == 0 &&
		   m.socket_type == q.socket_type && m.protocol == q.protocol &&
		   m.direction == q.direction && m.test_length == q.test_length &&
		   (m.flags & ~(uint32_t)(NS_FLAG_MEASURE_CPU | NS_FLAG_ROUTING_ALLOWED)) ==
		   (q.flags & ~(uint32_t)(NS_FLAG_MEASURE_CPU | NS_FLAG_ROUTING_ALLOWED)) &&
		   m.send_buf_size == q.send_buf_size && m.recv_buf_size == q.recv_buf_size &&
		   (!test_is_rr(p.type) || (m.request_size == q.request_size &&
					    m.response_size == q.response_size)) &&
		   m.receive_size == q.receive_size && m.send_size == q.send_size,
		   "%s: tunetop's request matches netperf's (flags 0x%x/0x%x, receive size %d/%d)",
		   want[i].file, m.flags, q.flags, m.receive_size, q.receive_size);
		/* The fixed words netperf always writes: header, alignments, prio/tos. */
		ok(!memcmp(mine, buf, 8) && !memcmp(mine + 16, buf + 16, 4) &&
		   !memcmp(mine + 40, buf + 40, 4) && !memcmp(mine + 76, buf + 76, 12) &&
		   !memcmp(mine + 152, buf + 152, 8) && !memcmp(mine + 160, buf + 160, 496),
		   "%s: constant words byte for byte", want[i].file);
	}
}

/* -M goes to netserver as it is; without it netserver picks (word 9 = -1). */
static void check_receive_size(void)
{
	struct test_params p;
	struct ns_request m;

	params_default(&p);
	p.type = TEST_TCP_STREAM;
	p.send_size = 65536;
	ns_request_from_params(&p, &m);
	ok(m.receive_size == -1 && params_recv_size_at(&p, 131072) == 131072,
	   "TCP_STREAM -m 64K without -M: netserver is asked for no receive size (%d), tunetop's own receiver reads its SO_RCVBUF (128K), as netserver does",
	   m.receive_size);
	p.rrcvbuf = 4096;
	ok(params_recv_size(&p) == 8192 && params_recv_size_at(&p, 1 << 20) == 8192,
	   "TCP_STREAM -S 4K without -M: the receiver (the remote end) reads at most the 8K the kernel gives its socket (%u)",
	   params_recv_size(&p));
	p.type = TEST_TCP_MAERTS;
	p.lrcvbuf = 16384;
	ok(params_recv_size(&p) == 32768 && params_recv_size_at(&p, 20000) == 20000,
	   "TCP_MAERTS -s 16K without -M: the receiver (the local end) reads at most 32K, its socket's size when smaller (%u)",
	   params_recv_size(&p));
	p.type = TEST_TCP_STREAM;
	p.recv_size = 4096;
	ns_request_from_params(&p, &m);
	ok(m.receive_size == 4096 && params_recv_size_at(&p, 131072) == 4096,
	   "TCP_STREAM -M 4K: netserver is asked for 4096 (%d), and tunetop's receiver reads 4096",
	   m.receive_size);
	{
		uint8_t msg[NS_MSG_LEN];
		struct ns_request d;
		char err[ERR_MAX];

		p.rcpu = 1;
		ns_request_from_params(&p, &m);
		ns_request_encode(&m, msg);
		ok(m.cpu == 1 && msg[4] == 0 && msg[7] == 1 &&
		   ns_request_decode(msg, sizeof(msg), &d, err) == 0 && d.cpu == 1,
		   "-T ,1: word 1 of the request is 1, where netperf puts the CPU netserver binds to");
	}
}

static void check_replies(void)
{
	static const struct {
		const char *resp, *res;
		uint32_t port;
		int32_t rbuf, sbuf;
		uint64_t brecv, bsent;
		uint32_t trans;
		bool cpu;
		float util;
	} want[] = {
		{ "tcp_rr-02-reply", "tcp_rr-03-reply", 0x9beb, 131072, 16384, 18139, 18139, 18139, true, 29.24f },
		{ "tcp_stream-02-reply", "tcp_stream-03-reply", 0xb0f9, 131072, 16384,
		  0xb970c000ull, 0, 0, true, 71.81f },
		{ "tcp_maerts-02-reply", "tcp_maerts-03-reply", 0xa49d, 131072, 16384,
		  0, 0xb8aa4000ull, 0, false, 0 },
		{ "tcp_crr-02-reply", "tcp_crr-03-reply", 0x946f, 131072, 16384, 12785, 12785, 12785, false, 0 },
		{ "udp_rr-02-reply", "udp_rr-03-reply", 0xd6a3, 212992, 212992, 18362, 18362, 18362, false, 0 },
		{ "udp_stream-02-reply", "udp_stream-03-reply", 0xee29, 212992, 212992, 258128448, 0, 0, false, 0 },
		{ "tcp_rr_ci-05-reply", "tcp_rr_ci-06-reply", 0x8db7, 131072, 16384, 0x45c3, 0x45c3, 0x45c3, false, 0 },
	};
	uint8_t buf[NS_MSG_LEN + 16];
	char err[ERR_MAX];

	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct ns_response r;
		struct ns_results s;
		size_t len;

		if (load(want[i].resp, buf, &len))
			continue;
		if (ok(ns_response_decode(buf, len, &r, err) == 0, "%s decodes (%s)",
		       want[i].resp, err))
			ok(r.data_port == want[i].port && r.recv_buf_size == want[i].rbuf &&
			   r.send_buf_size == want[i].sbuf,
			   "%s: data port %u, buffers %d/%d", want[i].resp, r.data_port,
			   r.recv_buf_size, r.send_buf_size);
		if (load(want[i].res, buf, &len))
			continue;
		if (!ok(ns_results_decode(buf, len, want[i].cpu, &s, err) == 0, "%s decodes (%s)",
			want[i].res, err))
			continue;
		ok(s.bytes_received == want[i].brecv && s.bytes_sent == want[i].bsent &&
		   s.trans_received == want[i].trans && fabsf(s.elapsed - 1.0f) < 0.01f,
		   "%s: received %llu, sent %llu, trans %u, elapsed %.4f", want[i].res,
		   (unsigned long long)s.bytes_received, (unsigned long long)s.bytes_sent,
		   s.trans_received, s.elapsed);
		ok(s.has_cpu == want[i].cpu && (!s.has_cpu || (fabsf(s.cpu_util - want[i].util) < 0.01f &&
							       s.num_cpus == 2)),
		   "%s: CPU %s %.2f%% of %u CPUs", want[i].res, s.has_cpu ? "measured" : "n/a",
		   s.cpu_util, s.num_cpus);
	}
}

/* The CPU words of a run without -C hold stale bytes: never trusted. */
static void check_stale_cpu(void)
{
	uint8_t buf[NS_MSG_LEN + 16];
	struct ns_results s;
	char err[ERR_MAX];
	size_t len;

	if (load("tcp_rr_ci-03-reply", buf, &len))
		return;
	ok(ns_results_decode(buf, len, true, &s, err) == 0 && !s.has_cpu,
	   "stale CPU words (0x%08x as a float) are not a measurement", 0xb78d0000u);
	if (load("tcp_rr-03-reply", buf, &len))
		return;
	ok(ns_results_decode(buf, len, true, &s, err) == 0 && !strcmp(s.cong_control, "bbr") &&
	   s.peak_cpu_id == 0 && fabsf(s.peak_cpu_util - 31.645f) < 0.01f &&
	   fabsf(s.cpu_user + s.cpu_system + s.cpu_softirq - s.cpu_util) < 0.05f,
	   "tcp_rr results: cong %s, peak CPU %d at %.2f%%, user+sys+softirq = util",
	   s.cong_control, s.peak_cpu_id, s.peak_cpu_util);
}

static void check_errors(void)
{
	uint8_t buf[NS_MSG_LEN + 16];
	struct ns_response r;
	char err[ERR_MAX];
	size_t len;
	int sv[2];
	pid_t pid;

	if (load("tcp_rr-02-reply", buf, &len))
		return;
	ok(ns_response_decode(buf, 600, &r, err) == -EPROTO && strstr(err, "600 bytes"),
	   "a short message is named (%s)", err);
	buf[7] = 0xe6;
	buf[6] = 0x03;		/* errno word 998 */
	ok(ns_response_decode(buf, len, &r, err) == -EPROTONOSUPPORT && strstr(err, "omni"),
	   "an older netserver is named (%s)", err);
	buf[6] = 0;
	buf[7] = 98;
	ok(ns_response_decode(buf, len, &r, err) == -EREMOTEIO && strstr(err, "netserver failed"),
	   "netserver's errno is reported (%s)", err);
	buf[7] = 0;
	buf[3] = 0x63;
	ok(ns_response_decode(buf, len, &r, err) == -EPROTONOSUPPORT && strstr(err, "not netserver 2.7"),
	   "another message type is not netserver 2.7 (%s)", err);

	if (!ok(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair"))
		return;
	ok(write(sv[1], "TT\x01\x09\0\0\0\x02{}", 10) == 10, "tunetopd's frame written");
	ok(ns_recv_msg(sv[0], buf, 200, "peer", err) == -EPROTO && strstr(err, "tunetopd"),
	   "a tunetopd frame is named within the timeout (%s)", err);
	close(sv[1]);
	ok(ns_recv_msg(sv[0], buf, 200, "peer", err) == -EPIPE && strstr(err, "closed"),
	   "a closed connection is named (%s)", err);
	close(sv[0]);

	/* A byte every 50 ms never goes quiet: the timeout is a deadline. */
	if (!ok(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair"))
		return;
	pid = fork();
	if (pid == 0) {
		struct timespec ts = { .tv_nsec = 50 * 1000 * 1000 };

		close(sv[0]);
		for (int i = 0; i < 20 && write(sv[1], "x", 1) == 1; i++)
			nanosleep(&ts, NULL);
		_exit(0);
	}
	close(sv[1]);
	ok(ns_recv_msg(sv[0], buf, 300, "peer", err) == -ETIMEDOUT &&
	   strstr(err, "peer: no complete reply within 0.3 s: ") &&
	   strstr(err, " of the 656 bytes netserver 2.7 answers (first bytes 78787878)") &&
	   !strstr(err, "quiet"),
	   "a peer trickling bytes past the deadline is said to, not to have gone quiet (%s)", err);
	close(sv[0]);
	waitpid(pid, NULL, 0);
}

/* detect_after BYTES LEN CLOSE: what ns_detect says of a peer that wrote
 * those bytes (and closed, with CLOSE); err gets its line. */
static int detect_after(const void *bytes, size_t len, bool close_it, int sv[2], char *err)
{
	int ret;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return -999;
	if (len && write(sv[1], bytes, len) != (ssize_t)len)
		return -998;
	if (close_it) {
		close(sv[1]);
		sv[1] = -1;
	}
	ret = ns_detect(sv[0], 200, "peer", err);
	return ret;
}

static void close_both(int sv[2])
{
	close(sv[0]);
	if (sv[1] >= 0)
		close(sv[1]);
}

/* The answers to tunetop's padded HELLO (docs/netserver.md). */
static void check_detect(void)
{
	uint8_t msg[NS_MSG_LEN] = { 0 }, rest[16];
	char err[ERR_MAX];
	int sv[2];

	msg[6] = 0x03;
	msg[7] = 0xe6;		/* word 1: 998, what process_requests() sends */
	ok(detect_after(msg, sizeof(msg), false, sv, err) == 1 &&
	   recv(sv[0], rest, 1, MSG_DONTWAIT) < 0,
	   "656 bytes with errno 998: a netserver, its answer read whole");
	close_both(sv);
	ok(detect_after("TT\x01\x02\0\0\0\x02{}", 10, false, sv, err) == 0 &&
	   recv(sv[0], rest, sizeof(rest), 0) == 10,
	   "a tunetop frame: 0, and the frame is left for the protocol reader");
	close_both(sv);
	msg[7] = 0x62;
	ok(detect_after(msg, sizeof(msg), false, sv, err) == -EPROTO && strstr(err, "word 1 is 866"),
	   "656 bytes with another errno word are named (%s)", err);
	close_both(sv);
	ok(detect_after("SSH-2.0-x\r\n", 11, true, sv, err) == -EPROTO &&
	   strstr(err, "11 bytes (first bytes 5353482d), then closed") && strstr(err, "neither"),
	   "other bytes, then a close, are named (%s)", err);
	close_both(sv);
	ok(detect_after("T", 1, false, sv, err) == -ETIMEDOUT && strstr(err, "1 bytes") &&
	   strstr(err, "no complete reply within 0.2 s"),
	   "half a magic, then silence: the timeout ends it (%s)", err);
	close_both(sv);
	ok(detect_after(NULL, 0, false, sv, err) == -ETIMEDOUT && strstr(err, "no answer") &&
	   strstr(err, "0.2 s"), "silence is named after the timeout (%s)", err);
	close_both(sv);
	ok(detect_after(NULL, 0, true, sv, err) == -EPIPE && strstr(err, "closed the connection without"),
	   "a close without a word is named (%s)", err);
	close_both(sv);
}

int main(void)
{
	const char *top = getenv("top_srcdir");

	snprintf(datadir, sizeof(datadir), "%s/tests/data/netserver", top && *top ? top : ".");
	check_requests();
	check_receive_size();
	check_replies();
	check_stale_cpu();
	check_errors();
	check_detect();
	return tap_done();
}
