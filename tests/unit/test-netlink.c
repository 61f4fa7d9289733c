// SPDX-License-Identifier: GPL-2.0-or-later
/* test-netlink.c - netlink requests in a private netns: ACKs, dumps, extack. */
#include "config.h"

#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/route/link.h>

#include "core/netlink.h"
#include "core/util.h"
#include "tap.h"

/* An RTM_GETLINK for dev, as libnl builds it. */
static struct nl_msg *get_msg(const char *dev)
{
	struct nl_msg *msg = NULL;

	rtnl_link_build_get_request(0, dev, &msg);
	return msg;
}

/* An RTM_SETLINK of dev's MTU, dev by name (index 0). */
static struct nl_msg *mtu_msg(const char *dev, unsigned mtu)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_SETLINK, 0);

	if (msg && (nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO) < 0 ||
		    nla_put_string(msg, IFLA_IFNAME, dev) < 0 ||
		    nla_put_u32(msg, IFLA_MTU, mtu) < 0)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

/* Reply callback: count RTM_NEWLINK messages and keep the last MTU. */
static int count_cb(const struct nlmsghdr *nlh, void *arg, char *err)
{
	struct nlattr *tb[IFLA_MAX + 1];
	unsigned *n = arg;

	(void)err;
	if (nlh->nlmsg_type != RTM_NEWLINK ||
	    nlmsg_parse((struct nlmsghdr *)nlh, sizeof(struct ifinfomsg), tb,
			IFLA_MAX, NULL) < 0 || !tb[IFLA_MTU])
		return -EINVAL;
	n[0]++;
	n[1] = nla_get_u32(tb[IFLA_MTU]);
	return 0;
}

/* Seconds since an arbitrary point, for "did not hang". */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The checks, inside a fresh network namespace (only lo in it). */
static void live(void)
{
	struct netlink *rt = NULL, *gn = NULL;
	char err[ERR_MAX] = "";
	unsigned got[2] = { 0, 0 };
	double t0;
	int rc;

	if (!ok(netlink_open(&rt, NETLINK_ROUTE, err) == 0,
		"open: a route socket (%s)", err))
		return;

	t0 = now_s();
	rc = netlink_request(rt, get_msg("lo"), true,
			     count_cb, got, "dump links", err);
	ok(rc == 0 && got[0] == 1 && now_s() - t0 < 2,
	   "dump: ends on NLMSG_DONE, no ACK wait (%d, %u links, %.2f s: %s)",
	   rc, got[0], now_s() - t0, err);

	got[0] = 0;
	t0 = now_s();
	rc = netlink_request(rt, get_msg("lo"), false,
			     count_cb, got, "get lo", err);
	ok(rc == 0 && got[0] == 1 && got[1] == 65536 && now_s() - t0 < 2,
	   "get: one reply, then the ACK (%d, %u replies, mtu %u: %s)", rc,
	   got[0], got[1], err);

	/* A veth has MTU limits (68..65535), lo has none. */
	if (!ok(system("ip link add ttn0 type veth peer name ttn1") == 0,
		"a veth pair in the private netns"))
		return;
	err[0] = '\0';
	rc = netlink_request(rt, mtu_msg("ttn0", 1), false, NULL,
			     NULL, "ttn0: set mtu 1", err);
	ok(rc == -EINVAL && strstr(err, "ttn0: set mtu 1: Invalid argument") &&
	   strstr(err, "(netlink: mtu less than device minimum)"),
	   "extack: the kernel's text reaches err \"%s\"", err);
	ok(strstr(netlink_extack(rt), "less than device minimum") != NULL,
	   "extack: kept for the caller too \"%s\"", netlink_extack(rt));

	err[0] = '\0';
	rc = netlink_request(rt, mtu_msg("ttn0", 9000), false,
			     NULL, NULL, "ttn0: set mtu 9000", err);
	ok(rc == 0 && netlink_extack(rt)[0] == '\0',
	   "ack: a request the kernel takes is 0, the old extack gone (%d %s)",
	   rc, err);

	err[0] = '\0';
	rc = netlink_request(rt, get_msg("tt-none"), false,
			     count_cb, got, "get tt-none", err);
	ok(rc == -ENODEV && strstr(err, "get tt-none: No such device"),
	   "error: a missing device is -ENODEV (%s)", err);

	err[0] = '\0';
	if (ok(netlink_open(&gn, NETLINK_GENERIC, err) == 0,
	       "open: a generic socket (%s)", err)) {
		rc = netlink_genl_family(gn, "ethtool", err);
		ok(rc > 0, "genl: family ethtool resolves (%d %s)", rc, err);
		err[0] = '\0';
		rc = netlink_genl_family(gn, "tt-nofamily", err);
		ok(rc == -ENOENT && strstr(err, "tt-nofamily"),
		   "genl: an unknown family is -ENOENT (%s)", err);
	}
	netlink_close(gn);
	netlink_close(rt);
}

int main(void)
{
	const char *ci = getenv("CI");
	int fds[2], st = 0, counts[2];
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() != 0) {
		if (ci && !strcmp(ci, "true"))
			ok(0, "netlink tests need root for a netns (CI=true: not skipped)");
		else
			printf("ok %d - # SKIP netlink tests need root for a netns\n",
			       ++tap_n);
		return tap_done();
	}
	if (!ok(pipe(fds) == 0, "pipe"))
		return tap_done();
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		if (unshare(CLONE_NEWNET) < 0)
			ok(0, "unshare(CLONE_NEWNET): %s", strerror(errno));
		else
			live();
		counts[0] = tap_n;
		counts[1] = tap_failed;
		fflush(stdout);
		_exit(write(fds[1], counts, sizeof(counts)) == sizeof(counts) ? 0 : 1);
	}
	close(fds[1]);
	if (read(fds[0], counts, sizeof(counts)) == sizeof(counts)) {
		tap_n = counts[0];
		tap_failed = counts[1];
	} else {
		ok(0, "the netns child reported nothing");
	}
	close(fds[0]);
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the netns child exited cleanly");
	return tap_done();
}
