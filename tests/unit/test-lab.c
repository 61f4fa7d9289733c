// SPDX-License-Identifier: GPL-2.0-or-later
/* test-lab.c - the lab's namespaces, veth, addresses, qdisc, records and reaping. */
#include "config.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "lab/lab.h"
#include "tap.h"
#include "core/util.h"

static char prefix[24];		/* "ttlabtest-<pid>-": every lab made here */
static char recdir[64];		/* private owner records, so reap sees only ours */
static int seq;

/* A fresh lab name of this test run. */
static const char *test_name(char *buf, size_t len)
{
	snprintf(buf, len, "%s%d", prefix, ++seq);
	return buf;
}

/* Run a shell command, capturing its stdout (stderr too) into out. */
static int sh(char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int sh(char *out, size_t len, const char *fmt, ...)
{
	char cmd[512];
	size_t n = 0, r;
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	strncat(cmd, " 2>&1", sizeof(cmd) - strlen(cmd) - 1);
	out[0] = '\0';
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (n + 1 < len && (r = fread(out + n, 1, len - n - 1, f)) > 0)
		n += r;
	while (n && out[n - 1] == '\n')
		n--;
	out[n] = '\0';
	return pclose(f);
}

/* Entries of /run/netns starting with pfx. */
static int netns_count(const char *pfx)
{
	struct dirent *de;
	DIR *d = opendir("/run/netns");
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, pfx, strlen(pfx)))
			n++;
	closedir(d);
	return n;
}

/* Mount points (field 5 of mountinfo) under /run/netns/ starting with pfx. */
static int mount_count(const char *pfx)
{
	char line[1024], want[128];
	int n = 0;
	FILE *f = fopen("/proc/self/mountinfo", "r");

	snprintf(want, sizeof(want), " /run/netns/%s", pfx);
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line;
		int i;

		for (i = 0; i < 4 && p; i++)
			p = strchr(p + 1, ' ');
		if (p && !strncmp(p, want, strlen(want)))
			n++;
	}
	fclose(f);
	return n;
}

static bool record_exists(const char *dir, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

/* Records in recdir starting with pfx. */
static int record_count(const char *pfx)
{
	struct dirent *de;
	DIR *d = opendir(recdir);
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, pfx, strlen(pfx)))
			n++;
	closedir(d);
	return n;
}

/*
 * Watch the host namespace for new links: a route socket in the test's own
 * (host) namespace joined to RTNLGRP_LINK, read after the fact.  It sees a
 * veth end that appears in the host even for a moment.
 */
static int host_watch_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK,
				  .nl_groups = RTMGRP_LINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	int sz = 4 << 20;

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Count RTM_NEWLINK notifications for links named veth-a or veth-b (the
 * lab's) that reached the host watch, then close it; -1 if it overflowed.
 */
static int host_watch_count(int fd)
{
	static char buf[65536];
	int hits = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while ((n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		struct nlmsghdr *h = (struct nlmsghdr *)buf;
		int len = (int)n;

		for (; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			struct ifinfomsg *ifi = NLMSG_DATA(h);
			struct rtattr *a = IFLA_RTA(ifi);
			int alen = IFLA_PAYLOAD(h);

			if (h->nlmsg_type != RTM_NEWLINK)
				continue;
			for (; RTA_OK(a, alen); a = RTA_NEXT(a, alen))
				if (a->rta_type == IFLA_IFNAME &&
				    (!strcmp(RTA_DATA(a), "veth-a") ||
				     !strcmp(RTA_DATA(a), "veth-b")))
					hits++;
		}
	}
	if (n < 0 && errno == ENOBUFS)
		hits = -1;
	close(fd);
	return hits;
}

/* Open the link watch inside side a of l (to check the watch itself). */
struct watch_in {
	const struct lab *l;
	int fd;
};

static void *watch_in_run(void *arg)
{
	struct watch_in *w = arg;
	char e[ERR_MAX];

	w->fd = lab_enter(w->l, LAB_A, e) ? -1 : host_watch_open();
	return NULL;
}

/* True when the host namespace has a link named veth-a or veth-b. */
static bool host_has_lab_veth(void)
{
	char out[256];

	return sh(out, sizeof(out), "ip link show dev veth-a") == 0 ||
	       sh(out, sizeof(out), "ip link show dev veth-b") == 0;
}

/* True when nothing of lab name is left: no netns file, mount or record. */
static bool lab_gone(const char *name)
{
	char pfx[96];

	snprintf(pfx, sizeof(pfx), "%s-", name);
	return netns_count(pfx) == 0 && mount_count(pfx) == 0 &&
	       !record_exists(recdir, name);
}

/* One end of the TCP check, run in a thread inside a lab side. */
struct tcp_end {
	const struct lab *l;
	int family;
	int lfd;		/* listener, made by the server in side b */
	unsigned short port;
	char peer[INET6_ADDRSTRLEN];	/* server: who connected */
	char local[INET6_ADDRSTRLEN];	/* client: its own address */
	char got[8];
	int ret;
	char err[ERR_MAX];
	int ready[2];		/* server -> main: listening */
};

static void addr_fill(int family, const char *ip, unsigned short port,
		      struct sockaddr_storage *ss, socklen_t *len)
{
	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET) {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		a->sin_family = AF_INET;
		a->sin_port = htons(port);
		inet_pton(AF_INET, ip, &a->sin_addr);
		*len = sizeof(*a);
	} else {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons(port);
		inet_pton(AF_INET6, ip, &a->sin6_addr);
		*len = sizeof(*a);
	}
}

static void addr_text(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	if (ss->ss_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)ss)->sin_addr,
			  buf, len);
	else
		inet_ntop(AF_INET6,
			  &((const struct sockaddr_in6 *)ss)->sin6_addr, buf,
			  len);
}

static void set_timeouts(int fd)
{
	struct timeval tv = { .tv_sec = 5 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* Side b: listen on the lab address, echo "ping" back as "pong". */
static void *tcp_server(void *arg)
{
	struct tcp_end *t = arg;
	struct sockaddr_storage ss;
	struct pollfd pfd;
	socklen_t len;
	int one = 1, c;
	char buf[4];

	t->ret = lab_enter(t->l, LAB_B, t->err);
	if (t->ret)
		goto out;
	t->lfd = socket(t->family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	addr_fill(t->family, lab_addr(t->l, LAB_B, t->family), 0, &ss, &len);
	setsockopt(t->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (t->lfd < 0 || bind(t->lfd, (struct sockaddr *)&ss, len) ||
	    listen(t->lfd, 1) ||
	    getsockname(t->lfd, (struct sockaddr *)&ss, &len)) {
		t->ret = -errno;
		goto out;
	}
	t->port = ntohs(ss.ss_family == AF_INET ?
				((struct sockaddr_in *)&ss)->sin_port :
				((struct sockaddr_in6 *)&ss)->sin6_port);
	if (write(t->ready[1], "r", 1) != 1) {
		t->ret = -EIO;
		goto out;
	}
	pfd = (struct pollfd){ .fd = t->lfd, .events = POLLIN };
	if (poll(&pfd, 1, 5000) != 1) {
		t->ret = -ETIMEDOUT;
		goto out;
	}
	len = sizeof(ss);
	c = accept(t->lfd, (struct sockaddr *)&ss, &len);
	if (c < 0) {
		t->ret = -errno;
		goto out;
	}
	addr_text(&ss, t->peer, sizeof(t->peer));
	set_timeouts(c);
	if (read_full(c, buf, 4) || memcmp(buf, "ping", 4) ||
	    write_full(c, "pong", 4))
		t->ret = -EIO;
	close(c);
out:
	if (t->ret)
		(void)!write(t->ready[1], "e", 1);
	if (t->lfd >= 0)
		close(t->lfd);
	return NULL;
}

/* Side a: connect to side b's address, send "ping", read the answer. */
static void *tcp_client(void *arg)
{
	struct tcp_end *t = arg;
	struct sockaddr_storage ss;
	socklen_t len;
	int fd;

	t->ret = lab_enter(t->l, LAB_A, t->err);
	if (t->ret)
		return NULL;
	fd = socket(t->family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		t->ret = -errno;
		return NULL;
	}
	set_timeouts(fd);
	addr_fill(t->family, lab_addr(t->l, LAB_B, t->family), t->port, &ss,
		  &len);
	if (connect(fd, (struct sockaddr *)&ss, len)) {
		t->ret = -errno;
	} else {
		len = sizeof(ss);
		getsockname(fd, (struct sockaddr *)&ss, &len);
		addr_text(&ss, t->local, sizeof(t->local));
		if (write_full(fd, "ping", 4) || read_full(fd, t->got, 4))
			t->ret = -EIO;
	}
	close(fd);
	return NULL;
}

/* A TCP exchange from a thread in side a to a listener thread in side b. */
static void check_tcp(const struct lab *l, int family)
{
	const char *fam = family == AF_INET ? "IPv4" : "IPv6";
	struct tcp_end srv = { .l = l, .family = family, .lfd = -1 };
	struct tcp_end cli = { .l = l, .family = family };
	pthread_t ts, tc;
	char c = 'e';

	if (!ok(!pipe(srv.ready), "pipe"))
		return;
	pthread_create(&ts, NULL, tcp_server, &srv);
	if (read(srv.ready[0], &c, 1) == 1 && c == 'r') {
		cli.port = srv.port;
		pthread_create(&tc, NULL, tcp_client, &cli);
		pthread_join(tc, NULL);
	} else {
		cli.ret = -EIO;
	}
	pthread_join(ts, NULL);
	close(srv.ready[0]);
	close(srv.ready[1]);
	ok(srv.ret == 0 && cli.ret == 0 && !memcmp(cli.got, "pong", 4),
	   "TCP over %s from side a to side b's %s works (server %d %s, client %d %s)",
	   fam, lab_addr(l, LAB_B, family), srv.ret, srv.err, cli.ret,
	   cli.err);
	ok(!strcmp(srv.peer, lab_addr(l, LAB_A, family)) &&
	   !strcmp(cli.local, lab_addr(l, LAB_A, family)),
	   "the %s connection runs between the lab addresses (server saw %s, client bound %s)",
	   fam, srv.peer, cli.local);
}

/* Defaults: namespaces, addresses, MTU 1500, links up, TCP both ways, gone. */
static void test_defaults(void)
{
	char name[64], out[4096], e[ERR_MAX] = "", path[128];
	struct lab_opts o = { .name = test_name(name, sizeof(name)) };
	struct lab_info in;
	struct lab *l;
	int r, s;

	r = lab_create(&l, &o, e);
	if (!ok(r == 0 && l, "create with defaults (%d %s)", r, e))
		return;
	for (s = 0; s < 2; s++) {
		const char *dev = s ? "veth-b" : "veth-a";
		char ns[80], want[128];

		snprintf(ns, sizeof(ns), "%s-%c", name, s ? 'b' : 'a');
		snprintf(path, sizeof(path), "/run/netns/%s", ns);
		ok(access(path, F_OK) == 0, "%s is in /run/netns", ns);
		sh(out, sizeof(out), "ip netns list");
		ok(strstr(out, ns) != NULL, "ip netns list shows %s", ns);
		sh(out, sizeof(out), "ip -n %s -br addr show dev %s", ns, dev);
		snprintf(want, sizeof(want), "%s/24 %s/64", s ? "198.18.0.2" :
			 "198.18.0.1", s ? "fd74:7400::2" : "fd74:7400::1");
		ok(strstr(out, want) != NULL, "ip -br addr in %s shows %s: %s",
		   ns, want, out);
		sh(out, sizeof(out), "ip -n %s -o link show dev %s", ns, dev);
		ok(strstr(out, ",UP") && strstr(out, "mtu 1500 "),
		   "%s in %s is up with MTU 1500: %.120s", dev, ns, out);
		sh(out, sizeof(out), "ip -n %s -o link show dev lo", ns);
		ok(strstr(out, ",UP") != NULL, "lo in %s is up", ns);
	}
	r = lab_info(l, &in, e);
	ok(r == 0 && in.mtu == 1500 && in.rate_bps == 0 &&
	   !strcmp(in.qdisc[0], "noqueue") && !strcmp(in.qdisc[1], "noqueue"),
	   "lab_info reads back MTU 1500, no rate, qdisc noqueue (%d %s: %u %s %s)",
	   r, e, in.mtu, in.qdisc[0], in.qdisc[1]);
	ok(!strcmp(in.addr4[0], "198.18.0.1") &&
	   !strcmp(in.addr4[1], "198.18.0.2") &&
	   !strcmp(in.addr6[0], "fd74:7400::1") &&
	   !strcmp(in.addr6[1], "fd74:7400::2") &&
	   !strcmp(in.dev[0], "veth-a") && !strcmp(in.dev[1], "veth-b"),
	   "lab_info reads back the devices and addresses");
	ok(in.owner == getpid() && in.owner_alive && in.recorded,
	   "lab_info names this process as the live owner");
	check_tcp(l, AF_INET);
	check_tcp(l, AF_INET6);
	{
		struct watch_in w = { .l = l, .fd = -1 };
		pthread_t t;
		int hits;

		pthread_create(&t, NULL, watch_in_run, &w);
		pthread_join(t, NULL);
		sh(out, sizeof(out), "ip -n %s-a link set dev veth-a mtu 1400",
		   name);
		hits = host_watch_count(w.fd);
		ok(hits >= 1,
		   "the link watch used on the host sees a change of veth-a when aimed at side a (%d)",
		   hits);
	}
	r = lab_destroy(l, e);
	ok(r == 0, "destroy (%d %s)", r, e);
	ok(lab_gone(name), "destroy leaves no namespace, mount or record");
	sh(out, sizeof(out), "ip netns list");
	ok(strstr(out, name) == NULL, "ip netns list no longer shows %s", name);
}

/* The default name and the default record directory. */
static void test_default_name(void)
{
	char e[ERR_MAX] = "", want[64], rec[256], buf[128] = "";
	char names[64][LAB_NAME_MAX];
	struct lab_opts o = { 0 };
	unsigned n = 0, i;
	bool listed = false;
	struct lab *l;
	FILE *f;
	int r;

	snprintf(want, sizeof(want), "tunetop-%d", (int)getpid());
	lab_set_record_dir(NULL);
	r = lab_create(&l, &o, e);
	if (ok(r == 0, "create with no name (%d %s)", r, e)) {
		ok(!strcmp(lab_name(l), want), "the default name is %s (%s)",
		   want, lab_name(l));
		snprintf(rec, sizeof(rec), "%s/%s", LAB_RECORD_DIR, want);
		f = fopen(rec, "r");
		if (f) {
			if (!fgets(buf, sizeof(buf), f))
				buf[0] = '\0';
			buf[strcspn(buf, "\n")] = '\0';
			fclose(f);
		}
		snprintf(rec, sizeof(rec), "owner %d ", (int)getpid());
		ok(!strncmp(buf, rec, strlen(rec)),
		   "its record in %s names this process: %s", LAB_RECORD_DIR,
		   buf);
		r = lab_list(names, 64, &n, e);
		for (i = 0; i < n && i < 64; i++)
			listed |= !strcmp(names[i], want);
		ok(r == 0 && listed, "lab_list shows %s", want);
		r = lab_destroy(l, e);
		ok(r == 0 && !record_exists(LAB_RECORD_DIR, want) &&
		   netns_count(want) == 0,
		   "destroy removes it and its record (%d %s)", r, e);
	}
	lab_set_record_dir(recdir);
}

/* Twenty create/destroy cycles leave nothing; time each pair. */
static void test_cycles(void)
{
	char name[64], e[ERR_MAX] = "", pfx[40];
	int watch = host_watch_open(), i, fails = 0, hits;
	uint64_t total = 0, worst = 0;

	snprintf(pfx, sizeof(pfx), "%scyc", prefix);
	for (i = 0; i < 20; i++) {
		struct lab_opts o = { .name = name };
		struct lab *l;
		uint64_t t0 = now_ns(), dt;

		snprintf(name, sizeof(name), "%s%d", pfx, i);
		if (lab_create(&l, &o, e) || lab_destroy(l, e)) {
			fails++;
			continue;
		}
		dt = now_ns() - t0;
		total += dt;
		if (dt > worst)
			worst = dt;
	}
	ok(fails == 0, "20 create/destroy cycles succeed (%d failed, last: %s)",
	   fails, e);
	ok(netns_count(pfx) == 0 && mount_count(pfx) == 0 &&
	   record_count(pfx) == 0,
	   "after 20 cycles no namespace, mount or record is left");
	hits = host_watch_count(watch);
	ok(hits == 0 && !host_has_lab_veth(),
	   "no lab veth appeared in the host namespace, even for a moment (%d seen)",
	   hits);
	printf("# create+destroy: mean %.1f ms, worst %.1f ms over %d cycles (target < 300 ms)\n",
	       (double)total / 1e6 / (20 - fails ? 20 - fails : 1),
	       (double)worst / 1e6, 20 - fails);
}

/* MTU 9000 and a small MTU (IPv4 only below 1280). */
static void test_mtu(void)
{
	char name[64], e[ERR_MAX] = "", out[1024];
	struct lab_opts o = { .name = test_name(name, sizeof(name)),
			      .mtu = 9000 };
	struct lab_info in;
	struct lab *l;
	int r;

	r = lab_create(&l, &o, e);
	if (ok(r == 0, "create with MTU 9000 (%d %s)", r, e)) {
		r = lab_info(l, &in, e);
		ok(r == 0 && in.mtu == 9000, "MTU 9000 reads back (%u)",
		   in.mtu);
		sh(out, sizeof(out), "ip -n %s-b -o link show dev veth-b",
		   name);
		ok(strstr(out, "mtu 9000 ") != NULL,
		   "ip shows MTU 9000 on veth-b too");
		lab_destroy(l, e);
	}
	o.name = test_name(name, sizeof(name));
	o.mtu = 1000;
	r = lab_create(&l, &o, e);
	if (ok(r == 0, "create with MTU 1000 (%d %s)", r, e)) {
		r = lab_info(l, &in, e);
		ok(r == 0 && in.mtu == 1000 && !in.addr6[0][0] &&
		   !strcmp(in.addr4[1], "198.18.0.2") &&
		   lab_addr(l, LAB_A, AF_INET6) == NULL,
		   "below MTU 1280 the lab is IPv4 only (%d %s)", r, e);
		check_tcp(l, AF_INET);
		lab_close(l);
		r = lab_open(&l, name, e);
		ok(r == 0 && lab_addr(l, LAB_A, AF_INET6) == NULL &&
		   !strcmp(lab_addr(l, LAB_B, AF_INET), "198.18.0.2"),
		   "lab_open of it knows it has no IPv6");
		if (!r)
			lab_destroy(l, e);
	}
}

/* A rate gives a tbf on both veth ends, read back. */
static void test_rate(void)
{
	static const struct {
		uint64_t bps;
		const char *info, *tc;
	} cases[] = {
		{ 1000000000ull, "tbf 1gbit", "rate 1Gbit" },
		{ 10000000000ull, "tbf 10gbit", "rate 10Gbit" },
	};
	char name[64], e[ERR_MAX] = "", out[1024];
	struct lab_info in;
	struct lab *l;
	unsigned i;
	int r, s;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lab_opts o = { .name = test_name(name, sizeof(name)),
				      .rate_bps = cases[i].bps };

		r = lab_create(&l, &o, e);
		if (!ok(r == 0, "create with rate %s (%d %s)", cases[i].info,
			r, e))
			continue;
		r = lab_info(l, &in, e);
		ok(r == 0 && in.rate_bps == cases[i].bps &&
		   !strcmp(in.qdisc[0], cases[i].info) &&
		   !strcmp(in.qdisc[1], cases[i].info),
		   "lab_info reads back %s on both ends (%s / %s, %llu bit/s)",
		   cases[i].info, in.qdisc[0], in.qdisc[1],
		   (unsigned long long)in.rate_bps);
		for (s = 0; s < 2; s++) {
			sh(out, sizeof(out),
			   "tc -n %s-%c qdisc show dev veth-%c root", name,
			   s ? 'b' : 'a', s ? 'b' : 'a');
			ok(strstr(out, "qdisc tbf") && strstr(out, cases[i].tc),
			   "tc shows a tbf with %s on veth-%c: %.100s",
			   cases[i].tc, s ? 'b' : 'a', out);
		}
		lab_destroy(l, e);
	}
}

/* Bad input is refused with a clear error and leaves nothing behind. */
static void test_bad_input(void)
{
	static const char *const bad[] = {
		"", "a/b", "x y", "..", ".", "-x", "tab\tname", "ümlaut",
		"0123456789012345678901234567890123456789x",
	};
	char name[64], e[ERR_MAX] = "", e2[ERR_MAX] = "", want[200];
	struct lab_opts o = { .name = test_name(name, sizeof(name)) };
	struct lab_info in;
	struct lab *l, *l2 = NULL;
	unsigned i;
	int r;

	o.mtu = 70000;
	r = lab_create(&l, &o, e);
	ok(r == -EINVAL && l == NULL && strstr(e, "mtu 70000") &&
	   strstr(e, "68..65535"),
	   "mtu 70000 is -EINVAL naming mtu and 68..65535: %s", e);
	o.mtu = 67;
	r = lab_create(&l, &o, e);
	ok(r == -EINVAL && strstr(e, "mtu 67"), "mtu 67 is -EINVAL: %s", e);
	o.mtu = 0;
	o.rate_bps = 100000000000ull;
	r = lab_create(&l, &o, e);
	ok(r == -EINVAL && strstr(e, "rate"),
	   "rate 100 Gbit/s is -EINVAL: %s", e);
	o.rate_bps = LAB_RATE_MAX + 1;
	r = lab_create(&l, &o, e);
	ok(r == -EINVAL, "a rate just above libnl's limit is -EINVAL");
	o.rate_bps = 0;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct lab_opts b = { .name = bad[i] };

		r = lab_create(&l, &b, e);
		ok(r == -EINVAL && strstr(e, "invalid"),
		   "name \"%s\" is -EINVAL: %s", bad[i], e);
	}
	r = lab_open(&l, "a/b", e);
	ok(r == -EINVAL, "lab_open refuses a bad name too");
	ok(lab_gone(name), "refused input made nothing");

	e[0] = '\0';
	r = lab_create(&l, &o, e);
	if (!ok(r == 0, "create %s (%d %s)", name, r, e))
		return;
	r = lab_create(&l2, &o, e2);
	snprintf(want, sizeof(want),
		 "lab %s: exists (tunetop lab down %s to remove it)", name,
		 name);
	ok(r == -EEXIST && l2 == NULL && !strcmp(e2, want),
	   "creating it again is -EEXIST: %s", e2);
	r = lab_info(l, &in, e);
	ok(r == 0 && !strcmp(in.addr4[0], "198.18.0.1"),
	   "the refused second create left the first lab intact (%d %s)", r,
	   e);
	lab_destroy(l, e);
	snprintf(name, sizeof(name), "%snope", prefix);
	r = lab_open(&l, name, e);
	ok(r == -ENOENT && strstr(e, name) && strstr(e, "no such lab"),
	   "lab_open of a missing lab is -ENOENT: %s", e);
}

/* A failure at any step of lab_create tears down what was made. */
static void test_half_way(void)
{
	static const char *const steps[] = {
		"netns", "veth", "mtu", "addr", "qdisc", "record",
	};
	int watch = host_watch_open(), hits;
	char name[64], e[ERR_MAX];
	unsigned i;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		struct lab_opts o = { .name = test_name(name, sizeof(name)),
				      .rate_bps = 1000000000ull,
				      .persistent = true };
		struct lab *l = NULL;
		int r;

		e[0] = '\0';
		lab_fail_at(steps[i]);
		r = lab_create(&l, &o, e);
		lab_fail_at(NULL);
		ok(r < 0 && l == NULL && e[0],
		   "a failure at step %s fails lab_create: %d %s", steps[i], r,
		   e);
		ok(lab_gone(name),
		   "a failure at step %s leaves no namespace, mount or record",
		   steps[i]);
		if (!strcmp(steps[i], "mtu"))
			ok(r == -EINVAL && strstr(e, "set mtu 65536") &&
			   strstr(e, "veth-b"),
			   "the kernel's refusal of the MTU names the step and device: %s",
			   e);
	}
	hits = host_watch_count(watch);
	ok(hits == 0 && !host_has_lab_veth(),
	   "no lab veth appeared in the host namespace (%d seen)", hits);
}

/* lab_destroy finishes a lab of which one namespace is already gone. */
static void test_half_gone(void)
{
	char name[64], e[ERR_MAX] = "", path[128];
	struct lab_opts o = { .name = test_name(name, sizeof(name)) };
	struct lab_info in;
	struct lab *l;
	int r;

	r = lab_create(&l, &o, e);
	if (!ok(r == 0, "create %s (%d %s)", name, r, e))
		return;
	lab_close(l);
	snprintf(path, sizeof(path), "/run/netns/%s-b", name);
	ok(!umount2(path, MNT_DETACH) && !unlink(path),
	   "remove side b of our own lab by hand");
	r = lab_open(&l, name, e);
	if (!ok(r == 0, "a half-gone lab opens (%d %s)", r, e))
		return;
	ok(lab_netns_fd(l, LAB_A) >= 0 && lab_netns_fd(l, LAB_B) == -ENOENT,
	   "its missing side has no fd");
	r = lab_info(l, &in, e);
	ok(r == -ENOENT && strstr(e, "missing"),
	   "lab_info names the missing side: %s", e);
	e[0] = '\0';
	r = lab_destroy(l, e);
	ok(r == 0 && lab_gone(name), "lab_destroy removes the rest (%d %s)",
	   r, e);
	r = lab_open(&l, name, e);
	ok(r == -ENOENT, "then it is gone for lab_open");
}

/* Make a lab in a child, which is then killed with SIGKILL. */
static pid_t killed_owner(const char *name)
{
	int p[2], status;
	pid_t pid;
	char c = 0;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		struct lab_opts o = { .name = name };
		char e[ERR_MAX];
		struct lab *l;

		close(p[0]);
		c = lab_create(&l, &o, e) ? 'e' : 'r';
		(void)!write(p[1], &c, 1);
		pause();
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1)
		c = 0;
	close(p[0]);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return c == 'r' ? pid : -1;
}

/* Replace name's record with an owner of this pid but another start time. */
static int record_reused_pid(const char *name)
{
	char path[256];
	unsigned long long start;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", recdir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "owner %*d %llu", &start) != 1) {
		fclose(f);
		return -1;
	}
	fclose(f);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "owner %d %llu\n", (int)getpid(), start + 1);
	return fclose(f);
}

/* Reap takes dead owners' labs and leaves live, persistent, record-less ones. */
static void test_reap(void)
{
	char dead[64], reused[64], live[64], pers[64], bare[64];
	char e[ERR_MAX] = "", names[256], path[128];
	char list[64][LAB_NAME_MAX];
	struct lab *l, *lv = NULL, *lp = NULL, *lb = NULL;
	struct lab_opts o = { 0 };
	struct lab_info in;
	unsigned n = 0, i, seen = 0;
	pid_t pid;
	int r;

	test_name(dead, sizeof(dead));
	pid = killed_owner(dead);
	ok(pid > 0, "a child made lab %s and was killed with SIGKILL", dead);
	ok(pid > 0 && kill(pid, 0) == -1 && errno == ESRCH,
	   "no process of it lingers");
	snprintf(path, sizeof(path), "/run/netns/%s-a", dead);
	ok(access(path, F_OK) == 0 && record_exists(recdir, dead),
	   "its namespaces and record outlive it until reaped");
	r = lab_open(&l, dead, e);
	if (!r) {
		r = lab_info(l, &in, e);
		ok(r == 0 && in.owner == pid && !in.owner_alive,
		   "lab_info shows the owner %d dead (%d %s)", (int)pid, r, e);
		lab_close(l);
	}

	o.name = test_name(reused, sizeof(reused));
	r = lab_create(&l, &o, e);
	ok(r == 0 && record_reused_pid(reused) == 0,
	   "a lab whose record has this pid but another start time");
	if (!r)
		lab_close(l);
	o.name = test_name(live, sizeof(live));
	r = lab_create(&lv, &o, e);
	ok(r == 0, "a lab owned by this live process (%d %s)", r, e);
	o.name = test_name(pers, sizeof(pers));
	o.persistent = true;
	r = lab_create(&lp, &o, e);
	ok(r == 0, "a persistent lab (%d %s)", r, e);
	o.name = test_name(bare, sizeof(bare));
	o.persistent = false;
	r = lab_create(&lb, &o, e);
	snprintf(path, sizeof(path), "%s/%s", recdir, bare);
	ok(r == 0 && unlink(path) == 0,
	   "a lab whose record is removed (namespaces only)");

	r = lab_list(list, 64, &n, e);
	for (i = 0; i < n && i < 64; i++)
		seen += !strcmp(list[i], dead) + !strcmp(list[i], live) +
			!strcmp(list[i], pers);
	ok(r == 0 && seen == 3, "lab_list shows the recorded labs (%d %s)", r,
	   e);

	r = lab_reap(&n, names, sizeof(names), e);
	ok(r == 0 && n == 2, "lab_reap reaps 2 labs (%d %s, %u: %s)", r, e, n,
	   names);
	ok(strstr(names, dead) && strstr(names, reused) && strchr(names, ','),
	   "it names them: %s", names);
	ok(lab_gone(dead), "the SIGKILLed owner's lab is gone");
	ok(lab_gone(reused), "the lab of a reused pid is gone");
	r = lab_info(lv, &in, e);
	ok(r == 0 && record_exists(recdir, live) && in.owner_alive,
	   "the live owner's lab is untouched (%d %s)", r, e);
	r = lab_info(lp, &in, e);
	ok(r == 0 && record_exists(recdir, pers) && in.owner == 0 &&
	   in.recorded,
	   "the persistent lab is untouched (%d %s)", r, e);
	r = lab_info(lb, &in, e);
	ok(r == 0 && !in.recorded, "the record-less lab is untouched (%d %s)",
	   r, e);
	r = lab_reap(&n, NULL, 0, e);
	ok(r == 0 && n == 0, "a second reap finds nothing (%u)", n);
	ok(lab_destroy(lv, e) == 0 && lab_destroy(lp, e) == 0 &&
	   lab_destroy(lb, e) == 0 && lab_gone(live) && lab_gone(pers) &&
	   lab_gone(bare),
	   "lab_destroy removes the other three");
}

/* Destroy whatever a failed check left of this run's labs. */
static void cleanup(void)
{
	struct dirent *de;
	DIR *d = opendir("/run/netns");
	char e[ERR_MAX], base[LAB_NAME_MAX];
	struct lab *l;
	size_t len;

	while (d && (de = readdir(d))) {
		len = strlen(de->d_name);
		if (strncmp(de->d_name, prefix, strlen(prefix)) || len < 3 ||
		    len - 2 >= sizeof(base))
			continue;
		memcpy(base, de->d_name, len - 2);
		base[len - 2] = '\0';
		if (!lab_open(&l, base, e))
			lab_destroy(l, e);
	}
	if (d)
		closedir(d);
	d = opendir(recdir);
	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, prefix, strlen(prefix)) &&
		    !lab_open(&l, de->d_name, e))
			lab_destroy(l, e);
	if (d)
		closedir(d);
	rmdir(recdir);
}

int main(void)
{
	const char *ci = getenv("CI");

	if (geteuid() != 0) {
		if (ci && !strcmp(ci, "true")) {
			ok(0, "the lab test needs root (CI=true: not skipped)");
			return tap_done();
		}
		printf("1..0 # SKIP not root\n");
		return 0;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(prefix, sizeof(prefix), "ttlabtest-%d-", (int)getpid());
	snprintf(recdir, sizeof(recdir), "/tmp/ttlabtest-%d-records",
		 (int)getpid());
	if (mkdir(recdir, 0755)) {
		ok(0, "mkdir %s: %s", recdir, strerror(errno));
		return tap_done();
	}
	lab_set_record_dir(recdir);

	test_reap();	/* first: it forks, best while no thread runs */
	test_defaults();
	test_default_name();
	test_cycles();
	test_mtu();
	test_rate();
	test_bad_input();
	test_half_way();
	test_half_gone();

	cleanup();
	ok(netns_count(prefix) == 0 && mount_count(prefix) == 0,
	   "the whole run left no namespace or mount named %s*", prefix);
	return tap_done();
}
