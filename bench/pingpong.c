// SPDX-License-Identifier: GPL-2.0-or-later
/* pingpong.c - minimal blocking TCP request/response loop: the reference for TCP_RR. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

/*
 * The least a TCP_RR test can do: one blocking socket per side, one thread
 * per side, no latency clock, no sampler.  What tunetop measures is compared
 * with what this program reaches on the same CPUs.
 *
 *   pingpong -s [-p port] [-C cpu] [-1]
 *   pingpong -c host [-p port] -l secs -r req[,resp] -b burst -C cpu [-D] [-j]
 *            [-n conns]
 *
 * The client opens with a 16-byte header (magic, request size, response
 * size, flags) so the server needs no options of its own.  With -p 0 the
 * server binds a free port and prints it on stdout before accepting.
 * With -n the client opens that many connections, one thread each (as
 * tunetop's -n does), and the server serves each in a thread of its own.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define PP_MAGIC 0x50494e47u		/* "PING" */
#define PP_FLAG_NODELAY 1u
#define PP_DEFAULT_PORT "22866"
#define PP_MAX_MSG (64u * 1024 * 1024)
#define PP_MAX_BURST 4096u
#define PP_BUF (256u * 1024)
#define PP_MAX_CONNS 4096u

struct pp_hdr {
	uint32_t magic, req, resp, flags;	/* network byte order */
};

static volatile sig_atomic_t pp_stop;

/* SIGALRM ends the measured interval; blocking calls return EINTR. */
static void pp_alarm_cb(int sig)
{
	pp_stop = 1;
}

static void pp_die(const char *what)
{
	fprintf(stderr, "pingpong: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double pp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Pin the calling thread to one CPU; cpu < 0 leaves it free. */
static void pp_pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		pp_die("sched_setaffinity");
}

static void pp_nodelay(int fd)
{
	int one = 1;

	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0)
		pp_die("setsockopt TCP_NODELAY");
}

/* Read exactly len bytes; returns 0, 1 on EOF, or -1 when interrupted. */
static int pp_read_full(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = recv(fd, p, len, 0);

		if (n == 0)
			return 1;
		if (n < 0) {
			if (errno == EINTR && !pp_stop)
				continue;
			if (errno == EINTR)
				return -1;
			pp_die("recv");
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Send exactly len bytes, retrying on EINTR (sends are never cut short). */
static void pp_write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			pp_die("send");
		}
		p += n;
		len -= (size_t)n;
	}
}

static uint32_t pp_parse_u32(const char *s, uint32_t min, uint32_t max,
			     const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (*s == '\0' || errno || v < min || v > max) {
		fprintf(stderr, "pingpong: %s: expected %u..%u, got '%s'\n",
			what, min, max, s);
		exit(2);
	}
	if (*end == 'K') {
		v *= 1024;
		end++;
	} else if (*end == 'M') {
		v *= 1024 * 1024;
		end++;
	}
	if (*end != '\0' || v < min || v > max) {
		fprintf(stderr, "pingpong: %s: expected %u..%u, got '%s'\n",
			what, min, max, s);
		exit(2);
	}
	return (uint32_t)v;
}

/* Serve one connection: answer each complete request with one response. */
static void pp_serve(int fd)
{
	struct pp_hdr h;
	uint32_t req, resp;
	uint64_t have = 0;
	char *buf;

	if (pp_read_full(fd, &h, sizeof(h)))
		return;
	if (ntohl(h.magic) != PP_MAGIC)
		return;
	req = ntohl(h.req);
	resp = ntohl(h.resp);
	if (!req || !resp || req > PP_MAX_MSG || resp > PP_MAX_MSG)
		return;
	if (ntohl(h.flags) & PP_FLAG_NODELAY)
		pp_nodelay(fd);
	buf = calloc(1, resp > PP_BUF ? resp : PP_BUF);
	if (!buf)
		pp_die("calloc");
	for (;;) {
		ssize_t n = recv(fd, buf, PP_BUF, 0);

		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ECONNRESET)
				break;
			pp_die("recv");
		}
		have += (uint64_t)n;
		while (have >= req) {
			have -= req;
			pp_write_full(fd, buf, resp);
		}
	}
	free(buf);
}

static void *pp_serve_close(void *arg)
{
	int fd = (int)(intptr_t)arg;

	pp_serve(fd);
	close(fd);
	return NULL;
}

/* Listen on port and serve connections, each in a thread (only one, in this thread, with once). */
static int pp_server(const char *port, int cpu, bool once)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t sl = sizeof(sa);
	int one = 1, lfd;

	pp_pin(cpu);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sa.sin_port = htons((uint16_t)pp_parse_u32(port, 0, 65535, "-p"));
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0)
		pp_die("socket");
	if (setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0)
		pp_die("setsockopt SO_REUSEADDR");
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		pp_die("bind");
	if (listen(lfd, SOMAXCONN) < 0)
		pp_die("listen");
	if (getsockname(lfd, (struct sockaddr *)&sa, &sl) < 0)
		pp_die("getsockname");
	printf("%u\n", ntohs(sa.sin_port));
	fflush(stdout);
	for (;;) {
		int fd = accept(lfd, NULL, NULL);
		pthread_t th;

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			pp_die("accept");
		}
		if (once) {
			pp_serve_close((void *)(intptr_t)fd);
			break;
		}
		/* A thread a connection: a client's -n connections at once. */
		errno = pthread_create(&th, NULL, pp_serve_close, (void *)(intptr_t)fd);
		if (errno)
			pp_die("pthread_create");
		pthread_detach(th);
	}
	close(lfd);
	return 0;
}

static int pp_connect(const char *host, const char *port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai, *a;
	int fd = -1, rc;

	rc = getaddrinfo(host, port, &hints, &ai);
	if (rc) {
		fprintf(stderr, "pingpong: %s:%s: %s\n", host, port,
			gai_strerror(rc));
		exit(1);
	}
	for (a = ai; a; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
		if (fd < 0)
			continue;
		if (connect(fd, a->ai_addr, a->ai_addrlen) == 0)
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	if (fd < 0)
		pp_die("connect");
	return fd;
}

struct pp_client_opts {
	const char *host, *port;
	double secs;
	uint32_t req, resp, burst, conns;
	int cpu;
	bool nodelay, json;
};

/* The client's opening header: sizes and flags, so the server needs no options. */
static void pp_hello(const struct pp_client_opts *o, int fd)
{
	struct pp_hdr h = {
		.magic = htonl(PP_MAGIC), .req = htonl(o->req),
		.resp = htonl(o->resp),
		.flags = htonl(o->nodelay ? PP_FLAG_NODELAY : 0),
	};

	if (o->nodelay)
		pp_nodelay(fd);
	pp_write_full(fd, &h, sizeof(h));
}

/*
 * Keep 1 + burst requests in flight on fd until pp_stop; count the
 * responses completed before it, note when it was seen in *t_end, then
 * drain the rest and close fd.
 */
static uint64_t pp_loop(const struct pp_client_opts *o, int fd, double *t_end)
{
	char *rbuf = malloc(PP_BUF), *sbuf = calloc(1, o->req);
	uint64_t have = 0, trans = 0;
	uint32_t i;

	if (!rbuf || !sbuf)
		pp_die("malloc");
	for (i = 0; i <= o->burst; i++)
		pp_write_full(fd, sbuf, o->req);
	while (!__atomic_load_n(&pp_stop, __ATOMIC_RELAXED)) {
		ssize_t n = recv(fd, rbuf, PP_BUF, 0);

		if (n == 0) {
			errno = ECONNRESET;
			pp_die("server closed the connection");
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			pp_die("recv");
		}
		have += (uint64_t)n;
		while (have >= o->resp) {
			have -= o->resp;
			if (__atomic_load_n(&pp_stop, __ATOMIC_RELAXED))
				break;
			trans++;
			pp_write_full(fd, sbuf, o->req);
		}
	}
	*t_end = pp_now();

	/* Drain what is still in flight so the server ends cleanly. */
	if (shutdown(fd, SHUT_WR) < 0)
		pp_die("shutdown");
	while (recv(fd, rbuf, PP_BUF, 0) > 0)
		;
	close(fd);
	free(rbuf);
	free(sbuf);
	return trans;
}

static void pp_report(const struct pp_client_opts *o, uint64_t trans, double secs)
{
	if (o->json)
		printf("{\"trans_per_sec\":%.2f,\"transactions\":%llu,"
		       "\"elapsed\":%.6f,\"req\":%u,\"resp\":%u,\"burst\":%u,"
		       "\"conns\":%u,\"nodelay\":%s}\n", (double)trans / secs,
		       (unsigned long long)trans, secs, o->req, o->resp,
		       o->burst, o->conns, o->nodelay ? "true" : "false");
	else
		printf("%.2f\n", (double)trans / secs);
}

/*
 * One connection: 1 + burst requests in flight for secs seconds (SIGALRM
 * ends the interval, interrupting a blocked recv()).
 */
static int pp_client(const struct pp_client_opts *o)
{
	struct sigaction sa = { .sa_handler = pp_alarm_cb };
	struct itimerval it = { { 0, 0 }, { 0, 0 } };
	uint64_t trans;
	double t0, t1;
	int fd;

	pp_pin(o->cpu);
	fd = pp_connect(o->host, o->port);
	pp_hello(o, fd);

	/* No SA_RESTART: the alarm must interrupt a blocked recv(). */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) < 0)
		pp_die("sigaction");
	it.it_value.tv_sec = (time_t)o->secs;
	it.it_value.tv_usec = (suseconds_t)((o->secs - (double)(time_t)o->secs)
					    * 1e6);
	t0 = pp_now();
	if (setitimer(ITIMER_REAL, &it, NULL) < 0)
		pp_die("setitimer");
	trans = pp_loop(o, fd, &t1);
	pp_report(o, trans, t1 - t0);
	return 0;
}

/* One of -n connections: its socket, its thread, its count. */
struct pp_conn {
	const struct pp_client_opts *o;
	int fd;
	uint64_t trans;
	pthread_t th;
};

static pthread_barrier_t pp_go;

static void *pp_conn_main(void *arg)
{
	struct pp_conn *c = arg;
	double t_end;

	pthread_barrier_wait(&pp_go);
	c->trans = pp_loop(c->o, c->fd, &t_end);
	return NULL;
}

/*
 * -n conns: every connection opened first, one thread each, all started
 * together; the sum of the transactions completed inside the interval.
 */
static int pp_client_many(const struct pp_client_opts *o)
{
	struct pp_conn *c = calloc(o->conns, sizeof(*c));
	struct timespec ts;
	uint64_t trans = 0;
	double t0, t1;
	uint32_t i;

	if (!c)
		pp_die("calloc");
	pp_pin(o->cpu);		/* the threads inherit it */
	pthread_barrier_init(&pp_go, NULL, o->conns + 1);
	for (i = 0; i < o->conns; i++) {
		c[i].o = o;
		c[i].fd = pp_connect(o->host, o->port);
		pp_hello(o, c[i].fd);
		errno = pthread_create(&c[i].th, NULL, pp_conn_main, &c[i]);
		if (errno)
			pp_die("pthread_create");
	}
	pthread_barrier_wait(&pp_go);
	t0 = pp_now();
	ts.tv_sec = (time_t)o->secs;
	ts.tv_nsec = (long)((o->secs - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	__atomic_store_n(&pp_stop, 1, __ATOMIC_RELAXED);
	t1 = pp_now();
	for (i = 0; i < o->conns; i++) {
		pthread_join(c[i].th, NULL);
		trans += c[i].trans;
	}
	free(c);
	pp_report(o, trans, t1 - t0);
	return 0;
}

/* Room for -n connections (a server sees them all too): soft limit to hard. */
static void pp_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static void pp_usage(FILE *f)
{
	fputs("usage: pingpong -s [-p port] [-C cpu] [-1]\n"
	      "       pingpong -c host [-p port] [-l secs] [-r req[,resp]]"
	      " [-b burst] [-C cpu] [-D] [-j] [-n conns]\n"
	      "  -s         serve (port 0 picks a free one; the port is"
	      " printed)\n"
	      "  -1         serve one connection, then exit\n"
	      "  -c host    run the client against host\n"
	      "  -p port    port (default " PP_DEFAULT_PORT ")\n"
	      "  -l secs    duration (default 10)\n"
	      "  -r r[,s]   request and response sizes (default 1,1;"
	      " K/M suffixes)\n"
	      "  -b burst   requests in flight beyond the first (default 0)\n"
	      "  -C cpu     pin this side to cpu\n"
	      "  -D         TCP_NODELAY on both ends\n"
	      "  -j         print a JSON line instead of trans/s\n"
	      "  -n conns   that many connections, a thread each"
	      " (default 1)\n", f);
}

int main(int argc, char **argv)
{
	struct pp_client_opts o = {
		.port = PP_DEFAULT_PORT, .secs = 10, .req = 1, .resp = 1,
		.cpu = -1, .conns = 1,
	};
	bool server = false, once = false;
	char *end, *comma;
	int c;

	while ((c = getopt(argc, argv, "sc:p:l:r:b:C:D1jn:h")) != -1) {
		switch (c) {
		case 's':
			server = true;
			break;
		case 'c':
			o.host = optarg;
			break;
		case 'p':
			o.port = optarg;
			break;
		case 'l':
			o.secs = strtod(optarg, &end);
			if (*end || !(o.secs >= 0.01 && o.secs <= 86400)) {
				fprintf(stderr, "pingpong: -l: expected "
					"0.01..86400 seconds\n");
				return 2;
			}
			break;
		case 'r':
			comma = strchr(optarg, ',');
			if (comma)
				*comma = '\0';
			o.req = pp_parse_u32(optarg, 1, PP_MAX_MSG, "-r");
			o.resp = comma ? pp_parse_u32(comma + 1, 1, PP_MAX_MSG,
						      "-r") : o.req;
			break;
		case 'b':
			o.burst = pp_parse_u32(optarg, 0, PP_MAX_BURST, "-b");
			break;
		case 'C':
			o.cpu = (int)pp_parse_u32(optarg, 0, CPU_SETSIZE - 1,
						  "-C");
			break;
		case 'D':
			o.nodelay = true;
			break;
		case '1':
			once = true;
			break;
		case 'j':
			o.json = true;
			break;
		case 'n':
			o.conns = pp_parse_u32(optarg, 1, PP_MAX_CONNS, "-n");
			break;
		case 'h':
			pp_usage(stdout);
			return 0;
		default:
			pp_usage(stderr);
			return 2;
		}
	}
	if (optind != argc || server == !!o.host) {
		pp_usage(stderr);
		return 2;
	}
	pp_nofile();
	if (server)
		return pp_server(o.port, o.cpu, once);
	return o.conns > 1 ? pp_client_many(&o) : pp_client(&o);
}
