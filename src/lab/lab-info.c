// SPDX-License-Identifier: GPL-2.0-or-later
/* lab-info.c - a lab read back from the kernel: its sides, offloads, owner; one line of it. */
#include "config.h"

#include <errno.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "core/netlink.h"
#include "core/procstat.h"
#include "lab/lab-internal.h"
#include "lab/lab.h"
#include "core/util.h"

struct lab_sock_job {
	int nsfd;
	int fd;
};

/* A thread of its own enters the namespace to make the socket, which keeps
 * that namespace for good; the caller's thread stays where it is. */
static void *lab_sock_thread(void *arg)
{
	struct lab_sock_job *j = arg;

	if (setns(j->nsfd, CLONE_NEWNET) == 0)
		j->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	return NULL;
}

/*
 * The offload state of side s's veth, read with the legacy SIOCETHTOOL
 * gets from a socket made inside its namespace (device names, not
 * indexes, so the host's devices are never asked).
 */
static void lab_side_offloads(const struct lab *l, int s, struct lab_info *out)
{
	static const struct {
		const char *name;
		__u32 cmd;
	} feats[] = {
		{ "tso", ETHTOOL_GTSO }, { "gso", ETHTOOL_GGSO },
		{ "gro", ETHTOOL_GGRO }, { "sg", ETHTOOL_GSG },
		{ "rx-csum", ETHTOOL_GRXCSUM }, { "tx-csum", ETHTOOL_GTXCSUM },
	};
	struct lab_sock_job j = { .nsfd = l->fd[s], .fd = -1 };
	char *p = out->offloads[s];
	size_t left = sizeof(out->offloads[s]);
	pthread_t t;

	snprintf(p, left, "n/a");
	if (l->fd[s] < 0 || pthread_create(&t, NULL, lab_sock_thread, &j))
		return;
	pthread_join(t, NULL);
	if (j.fd < 0)
		return;
	for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
		struct ethtool_value ev = { .cmd = feats[i].cmd };
		struct ifreq ifr = { 0 };
		int n;

		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", lab_dev[s]);
		ifr.ifr_data = (void *)&ev;
		n = snprintf(p, left, "%s%s %s", i ? ", " : "", feats[i].name,
			     ioctl(j.fd, SIOCETHTOOL, &ifr) < 0 ? "n/a" : ev.data ? "on" : "off");
		if (n < 0 || (size_t)n >= left)
			break;
		p += n;
		left -= (size_t)n;
	}
	close(j.fd);
}

/* Read the lab back from the kernel, with its owner record. */
int lab_info(const struct lab *l, struct lab_info *out, char *err)
{
	struct lab_owner rec;
	int s, r;

	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", l->name);
	for (s = LAB_A; s <= LAB_B; s++) {
		snprintf(out->netns[s], sizeof(out->netns[s]), "%s-%c",
			 l->name, s == LAB_A ? 'a' : 'b');
		snprintf(out->dev[s], sizeof(out->dev[s]), "%s", lab_dev[s]);
	}
	/* A missing side first: with side b's namespace gone the kernel
	 * takes the veth pair with it, so side a's read would fail too,
	 * naming only its device (racing the namespace's teardown). */
	for (s = LAB_A; s <= LAB_B; s++)
		if (!l->nl[s])
			return lab_side_read(l, s, out, err);
	for (s = LAB_A; s <= LAB_B; s++) {
		r = lab_side_read(l, s, out, err);
		if (r)
			return r;
		lab_side_offloads(l, s, out);
	}
	lab_owner_read(l->name, &rec);
	out->recorded = rec.present;
	if (rec.valid && !rec.persistent) {
		out->owner = rec.pid;
		out->owner_alive = procstat_alive(rec.pid, rec.start);
	}
	return 0;
}

/* One line naming the lab, its MTU and its rate limit. */
void lab_describe(const struct lab_info *li, char *buf, size_t len)
{
	char rate[32] = "no rate limit";

	if (li->rate_bps >= 1000000000ull && li->rate_bps % 1000000000ull == 0)
		snprintf(rate, sizeof(rate), "tbf %llu Gbit/s", (unsigned long long)(li->rate_bps / 1000000000ull));
	else if (li->rate_bps)
		snprintf(rate, sizeof(rate), "tbf %.1f Mbit/s", (double)li->rate_bps / 1e6);
	snprintf(buf, len, "lab: %s (veth, MTU %u, %s)", li->name, li->mtu, rate);
}
