// SPDX-License-Identifier: GPL-2.0-or-later
/* test-sockinfo.c - buffer sizes, queues and TCP_INFO of loopback sockets. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "flows/sockinfo.h"
#include "uapi/tcp_info.h"
#include "core/util.h"
#include "tap.h"

/* A bound loopback socket of type; its address goes to *sa. */
static int bound(int type, struct sockaddr_in *sa)
{
	socklen_t len = sizeof(*sa);
	int fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)sa, sizeof(*sa)) < 0 ||
	    getsockname(fd, (struct sockaddr *)sa, &len) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* A connected TCP pair on 127.0.0.1 plus its listener; 0 or -1. */
static int tcp_pair(int *lst, int *cli, int *srv)
{
	struct sockaddr_in sa;

	*lst = bound(SOCK_STREAM, &sa);
	if (*lst < 0 || listen(*lst, 4) < 0)
		return -1;
	*cli = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*cli < 0 || connect(*cli, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -1;
	*srv = accept(*lst, NULL, NULL);
	return *srv < 0 ? -1 : 0;
}

/* Poll sockinfo_read on fd until pred holds or 2 s pass; returns pred. */
static int wait_for(int fd, bool tcp, struct sock_sample *s,
		    int (*pred)(const struct sock_sample *, long), long arg)
{
	uint64_t t0 = now_ns();

	for (;;) {
		if (sockinfo_read(fd, tcp, s) == 0 && pred(s, arg))
			return 1;
		if (now_ns() - t0 > 2000000000ull)
			return 0;
		usleep(1000);
	}
}

static int inq_is(const struct sock_sample *s, long n)
{
	return s->inq == n;
}

static int outq_is(const struct sock_sample *s, long n)
{
	return s->outq == n;
}

static void test_tcp(void)
{
	struct sock_sample c, c0, sv;
	char buf[10000];
	int lst = -1, cli = -1, srv = -1, rc, got;
	int32_t before_init;

	if (!ok(tcp_pair(&lst, &cli, &srv) == 0, "tcp: loopback pair connects"))
		goto out;
	memset(&c, 0, sizeof(c));
	c.flow = 77;
	c.sndbuf_init = before_init = 12345;
	rc = sockinfo_read(cli, true, &c);
	ok(rc == 0, "tcp: sockinfo_read succeeds (%d)", rc);
	ok(c.flow == 77 && c.sndbuf_init == before_init,
	   "tcp: flow and *_init are left alone");
	ok(c.sndbuf > 0 && c.rcvbuf > 0,
	   "tcp: sndbuf %d and rcvbuf %d are positive", c.sndbuf, c.rcvbuf);
	ok(c.tcp.has, "tcp: TCP_INFO figures are present");
	ok(c.tcp.snd_mss > 0 && c.tcp.snd_mss < 65536 && c.tcp.rcv_mss > 0,
	   "tcp: snd_mss %u within 1..65535", c.tcp.snd_mss);
	ok(c.tcp.snd_cwnd > 0 && c.tcp.rcv_space > 0,
	   "tcp: cwnd %u and rcv_space %u set", c.tcp.snd_cwnd,
	   c.tcp.rcv_space);
	ok(c.tcp.rtt_us > 0 && c.tcp.rtt_us < 1000000,
	   "tcp: handshake rtt %u us measured", c.tcp.rtt_us);
	ok(c.outq == 0 && c.inq == 0,
	   "tcp: idle queues read 0 (outq %d inq %d)", c.outq, c.inq);

	c0 = c;
	memset(buf, 'x', sizeof(buf));
	if (!ok(write_full(cli, buf, sizeof(buf)) == 0, "tcp: %zu bytes sent",
		sizeof(buf)))
		goto out;
	got = wait_for(srv, true, &sv, inq_is, (long)sizeof(buf));
	ok(got, "tcp: receiver's inq reaches the %zu unread bytes (got %d)",
	   sizeof(buf), sv.inq);
	ok(sv.tcp.data_segs_in > 0 && sv.tcp.segs_in > sv.tcp.data_segs_in,
	   "tcp: receiver counts data segments in (%u of %u)",
	   sv.tcp.data_segs_in, sv.tcp.segs_in);
	got = wait_for(cli, true, &c, outq_is, 0);
	ok(got, "tcp: sender's outq drains to 0 once acked (%d)", c.outq);
	ok(c.tcp.segs_out > c0.tcp.segs_out &&
		   c.tcp.data_segs_out > c0.tcp.data_segs_out,
	   "tcp: segs_out grows %u -> %u", c0.tcp.segs_out, c.tcp.segs_out);
	ok(c.tcp.notsent_bytes == 0, "tcp: nothing left unsent");
	ok(c.tcp.delivery_rate > 0,
	   "tcp: delivery_rate %llu B/s after an acked burst",
	   (unsigned long long)c.tcp.delivery_rate);
out:
	if (cli >= 0)
		close(cli);
	if (srv >= 0)
		close(srv);
	if (lst >= 0)
		close(lst);
}

static void test_bufsize(void)
{
	struct sock_sample s;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int x = 32768, rc;

	if (!ok(fd >= 0, "bufsize: socket"))
		return;
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &x, sizeof(x));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &x, sizeof(x));
	rc = sockinfo_read(fd, false, &s);
	ok(rc == 0 && s.sndbuf == 2 * x && s.rcvbuf == 2 * x,
	   "bufsize: SO_SNDBUF/SO_RCVBUF %d read back doubled (%d, %d)", x,
	   s.sndbuf, s.rcvbuf);
	close(fd);
}

static void test_udp(void)
{
	struct sockaddr_in sa;
	struct sock_sample s;
	char buf[300] = "";
	int rx, tx, rc, got;

	rx = bound(SOCK_DGRAM, &sa);
	tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (!ok(rx >= 0 && tx >= 0 &&
			connect(tx, (struct sockaddr *)&sa, sizeof(sa)) == 0,
		"udp: loopback sockets"))
		return;
	rc = sockinfo_read(tx, false, &s);
	ok(rc == 0 && s.outq == 0 && !s.tcp.has,
	   "udp: outq is read (%d), no TCP figures", s.outq);
	send(tx, buf, 100, 0);
	send(tx, buf, 200, 0);
	got = wait_for(rx, false, &s, inq_is, 100);
	ok(got,
	   "udp: receiver's inq is the first datagram's 100 bytes (got %d)",
	   s.inq);
	rc = sockinfo_read(tx, true, &s);
	ok(rc < 0 && !s.tcp.has,
	   "udp: asking TCP_INFO of a UDP socket fails (%d)", rc);
	close(rx);
	close(tx);
}

/* A listening TCP socket refuses SIOCOUTQ and SIOCINQ (EINVAL): both read -1.
 */
static void test_listen(void)
{
	struct sockaddr_in sa;
	struct sock_sample a, b;
	int fd = bound(SOCK_STREAM, &sa), rc1, rc2;

	if (!ok(fd >= 0 && listen(fd, 1) == 0, "listen: socket listens"))
		return;
	rc1 = sockinfo_read(fd, true, &a);
	rc2 = sockinfo_read(fd, true, &b);
	ok(rc1 == 0 && a.outq == -1 && a.inq == -1,
	   "listen: outq and inq read -1 (%d %d)", a.outq, a.inq);
	ok(rc2 == 0 && b.outq == a.outq && b.inq == a.inq && b.tcp.has,
	   "listen: a second read agrees and TCP_INFO still answers");
	close(fd);
}

static void test_badfd(void)
{
	struct sock_sample s;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	close(fd);
	ok(sockinfo_read(fd, true, &s) == -EBADF,
	   "badfd: a closed descriptor is -EBADF");
}

/* Decode a copy of ti cut to len bytes, in a buffer of exactly that size. */
static int decode_cut(const struct tt_tcp_info *ti, size_t len,
		      struct tcp_figures *f, unsigned *present)
{
	void *buf = malloc(len ? len : 1);
	int rc;

	if (!buf)
		return -ENOMEM;
	memcpy(buf, ti, len);
	rc = sockinfo_tcp_decode(buf, len, f, present);
	free(buf);
	return rc;
}

static void test_decode(void)
{
	struct tt_tcp_info ti;
	struct tcp_figures f;
	unsigned present;
	int rc;

	memset(&ti, 0xa5, sizeof(ti));
	ti.tcpi_snd_cwnd = 10;
	ti.tcpi_rtt = 42;
	ti.tcpi_rttvar = 7;
	ti.tcpi_total_retrans = 3;
	ti.tcpi_rcv_space = 65483;
	ti.tcpi_snd_mss = 32741;
	ti.tcpi_rcv_mss = 536;
	ti.tcpi_segs_out = 1000;
	ti.tcpi_segs_in = 900;
	ti.tcpi_notsent_bytes = 4096;
	ti.tcpi_data_segs_in = 5;
	ti.tcpi_data_segs_out = 800;
	ti.tcpi_delivery_rate = 3000000000ull;
	ti.tcpi_delivery_rate_app_limited = 1;
	ti.tcpi_busy_time = 2000000;
	ti.tcpi_rwnd_limited = 1500000;
	ti.tcpi_sndbuf_limited = 250000;

	rc = decode_cut(&ti, sizeof(ti), &f, &present);
	ok(rc == 0 && f.has_chrono && f.busy_us == 2000000 &&
		   f.rwnd_limited_us == 1500000 &&
		   f.sndbuf_limited_us == 250000 && f.app_limited,
	   "decode: the full answer has the limiter times and the app-limited flag");

	rc = decode_cut(&ti, 192, &f, &present);
	ok(rc == 0 && present == SOCKINFO_TCP_ALL && f.has_chrono &&
		   f.sndbuf_limited_us == 250000,
	   "decode: a 192-byte (Linux 4.10) answer ends with tcpi_sndbuf_limited");

	rc = decode_cut(&ti, 168, &f, &present);
	ok(rc == 0 && !(present & SOCKINFO_TCP_CHRONO) && !f.has_chrono &&
		   f.busy_us == 0 && f.rwnd_limited_us == 0 && f.app_limited,
	   "decode: a 168-byte (Linux 4.9) answer has no limiter times (n/a)");

	rc = decode_cut(&ti, sizeof(ti), &f, &present);
	ok(rc == 0 && present == SOCKINFO_TCP_ALL && f.has &&
		   f.snd_cwnd == 10 && f.rtt_us == 42 && f.rttvar_us == 7 &&
		   f.total_retrans == 3 && f.rcv_space == 65483 &&
		   f.snd_mss == 32741 && f.rcv_mss == 536 &&
		   f.segs_out == 1000 && f.segs_in == 900 &&
		   f.notsent_bytes == 4096 && f.data_segs_in == 5 &&
		   f.data_segs_out == 800 && f.delivery_rate == 3000000000ull,
	   "decode: the full %zu-byte answer fills every figure", sizeof(ti));

	rc = decode_cut(&ti, TT_TCP_INFO_LEN_6_1, &f, &present);
	ok(rc == 0 && present == SOCKINFO_TCP_ALL &&
		   f.delivery_rate == 3000000000ull && f.segs_out == 1000,
	   "decode: a 232-byte (Linux 6.1) answer holds delivery_rate (ends at 168)");

	rc = decode_cut(&ti, 167, &f, &present);
	ok(rc == 0 && present == (SOCKINFO_TCP_SEGS | SOCKINFO_TCP_DATA_SEGS) &&
		   f.delivery_rate == 0 && f.data_segs_out == 800,
	   "decode: cut inside delivery_rate, it is absent and 0");

	rc = decode_cut(&ti, 160, &f, &present);
	ok(rc == 0 && present == (SOCKINFO_TCP_SEGS | SOCKINFO_TCP_DATA_SEGS) &&
		   f.delivery_rate == 0 && f.notsent_bytes == 4096,
	   "decode: a 160-byte (Linux 4.6) answer lacks only delivery_rate");

	rc = decode_cut(&ti, 144, &f, &present);
	ok(rc == 0 && present == SOCKINFO_TCP_SEGS && f.segs_in == 900 &&
		   f.notsent_bytes == 0 && f.data_segs_in == 0 &&
		   f.data_segs_out == 0 && f.delivery_rate == 0,
	   "decode: a 144-byte (Linux 4.2) answer has segs but no data_segs/notsent");

	rc = decode_cut(&ti, TT_TCP_INFO_LEN_GLIBC, &f, &present);
	ok(rc == 0 && present == 0 && f.has && f.snd_mss == 32741 &&
		   f.total_retrans == 3 && f.segs_out == 0 && f.segs_in == 0 &&
		   f.delivery_rate == 0,
	   "decode: the original 104-byte struct gives only the base figures");

	rc = decode_cut(&ti, TT_TCP_INFO_LEN_GLIBC - 1, &f, &present);
	ok(rc == -EPROTO && !f.has && present == 0,
	   "decode: shorter than 104 bytes is -EPROTO");
}

/* Not a check: what the running kernel answers, for the log. */
static void note_kernel_len(void)
{
	char buf[1024];
	socklen_t len = sizeof(buf);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd >= 0 && getsockopt(fd, IPPROTO_TCP, TCP_INFO, buf, &len) == 0)
		printf("# running kernel's struct tcp_info: %u bytes, ours: %zu\n",
		       (unsigned)len, sizeof(struct tt_tcp_info));
	if (fd >= 0)
		close(fd);
}

/* The device of a socket's address: lo for 127.0.0.1, ::1 and ::ffff:127.0.0.1. */
static void test_netdev(void)
{
	static const struct {
		int family;
		const char *addr;
	} cases[] = {
		{ AF_INET, "127.0.0.1" }, { AF_INET6, "::1" }, { AF_INET6, "::ffff:127.0.0.1" },
	};
	char dev[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sockaddr_storage a = { .ss_family = (sa_family_t)cases[i].family };
		int fd = socket(cases[i].family, SOCK_DGRAM, 0), zero = 0;
		socklen_t len;

		if (cases[i].family == AF_INET) {
			inet_pton(AF_INET, cases[i].addr, &((struct sockaddr_in *)&a)->sin_addr);
			len = sizeof(struct sockaddr_in);
		} else {
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
			inet_pton(AF_INET6, cases[i].addr, &((struct sockaddr_in6 *)&a)->sin6_addr);
			len = sizeof(struct sockaddr_in6);
		}
		strcpy(dev, "?");
		ok(fd >= 0 && bind(fd, (struct sockaddr *)&a, len) == 0 &&
		   sockinfo_netdev(fd, dev, sizeof(dev)) == 0 && !strcmp(dev, "lo"),
		   "a socket bound to %s is on lo (%s)", cases[i].addr, dev);
		close(fd);
	}
	{
		int fd = socket(AF_INET, SOCK_DGRAM, 0);

		ok(sockinfo_netdev(fd, dev, sizeof(dev)) == -ENODEV,
		   "an unbound socket (0.0.0.0) is on no device");
		close(fd);
	}
}

int main(void)
{
	test_netdev();
	note_kernel_len();
	test_tcp();
	test_bufsize();
	test_udp();
	test_listen();
	test_badfd();
	test_decode();
	return tap_done();
}
