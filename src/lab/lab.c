// SPDX-License-Identifier: GPL-2.0-or-later
/* lab.c - a lab's namespaces, veth pair, addresses and tbf, made with libnl-route-3. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <linux/magic.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>

#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/veth.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/qdisc/tbf.h>
#include <netlink/route/tc.h>

#include "core/netlink.h"
#include "lab/lab-internal.h"
#include "lab/lab.h"
#include "core/util.h"

#define LAB_MTU_DEFAULT 1500
#define LAB_MTU_IPV6 1280		/* RFC 8200 section 5 */
#define LAB_RATE_MIN 8000ull		/* 1 kbyte/s */
#define LAB_HZ 250			/* tbf burst: one tick of a HZ=250 kernel */

const char *const lab_dev[2] = { "veth-a", "veth-b" };
static const char *const lab_v4[2] = { "198.18.0.1", "198.18.0.2" };
static const char *const lab_v6[2] = { "fd74:7400::1", "fd74:7400::2" };
static const int lab_prefix[2] = { 24, 64 };	/* IPv4, IPv6 */

static char lab_fail_step[16];

/* Make lab_create fail at step (tests). */
void lab_fail_at(const char *step)
{
	snprintf(lab_fail_step, sizeof(lab_fail_step), "%s", step ? step : "");
}

/* Whether lab_fail_at asked for a failure at step. */
static bool lab_fail_here(const char *step)
{
	return lab_fail_step[0] && !strcmp(lab_fail_step, step);
}

/* lab_owner_name_ok, with the accepted form in the error. */
int lab_name_check(const char *name, char *err)
{
	char shown[64];

	if (lab_owner_name_ok(name))
		return 0;
	str_escape(shown, sizeof(shown), name, strnlen(name, 48));
	return err_set(err, -EINVAL,
		       "lab name \"%s\": invalid (1 to %d of A-Z a-z 0-9 _ . -, not starting with -, not . or ..)",
		       shown, LAB_NAME_LEN);
}

/*
 * Make /run/netns exist and be a shared mount point, as ip/ipnetns.c does,
 * so a namespace unmounted here is unmounted in every mount namespace that
 * sees it and can be freed.
 */
static int lab_netns_dir(char *err)
{
	bool made = false;

	if (mkdir(LAB_NETNS_DIR, 0755) && errno != EEXIST) {
		int e = -errno;

		return err_set(err, e, "mkdir %s: %s", LAB_NETNS_DIR,
			       strerror(-e));
	}
	while (mount("", LAB_NETNS_DIR, "none", MS_SHARED | MS_REC, NULL)) {
		int e = -errno;

		if (e != -EINVAL || made)
			return err_set(err, e, "%s: make a shared mount: %s",
				       LAB_NETNS_DIR, strerror(-e));
		/* Not a mount point yet: make it one, bound onto itself. */
		if (mount(LAB_NETNS_DIR, LAB_NETNS_DIR, "none",
			  MS_BIND | MS_REC, NULL)) {
			e = -errno;
			return err_set(err, e, "%s: bind mount onto itself: %s",
				       LAB_NETNS_DIR, strerror(-e));
		}
		made = true;
	}
	return 0;
}

/* A lab handle for name with both sides missing; NULL on ENOMEM. */
static struct lab *lab_alloc(const char *name)
{
	struct lab *l = calloc(1, sizeof(*l));
	int s;

	if (!l)
		return NULL;
	snprintf(l->name, sizeof(l->name), "%s", name);
	for (s = LAB_A; s <= LAB_B; s++) {
		l->fd[s] = -1;
		snprintf(l->path[s], sizeof(l->path[s]), "%s/%s-%c",
			 LAB_NETNS_DIR, name, s == LAB_A ? 'a' : 'b');
	}
	l->has6 = true;
	return l;
}

/*
 * Remove a lab from the system: sockets and fds first (they hold the
 * namespaces), then the bind mounts and files under /run/netns, then the
 * record.  With only_made, touch only what lab_create made.  Missing parts
 * are not errors; the first real error is returned, the rest still done.
 */
static int lab_teardown(struct lab *l, bool only_made, char *err)
{
	char path[PATH_MAX];
	int s, ret = 0;

	for (s = LAB_A; s <= LAB_B; s++) {
		netlink_close(l->nl[s]);
		l->nl[s] = NULL;
		if (l->fd[s] >= 0)
			close(l->fd[s]);
		l->fd[s] = -1;
	}
	for (s = LAB_A; s <= LAB_B; s++) {
		if (only_made && !l->made[s])
			continue;
		if (umount2(l->path[s], MNT_DETACH) && errno != EINVAL &&
		    errno != ENOENT && !ret) {
			ret = -errno;
			err_set(err, ret, "lab %s: umount %s: %s", l->name,
				l->path[s], strerror(-ret));
		}
		if (unlink(l->path[s]) && errno != ENOENT && !ret) {
			ret = -errno;
			err_set(err, ret, "lab %s: remove %s: %s", l->name,
				l->path[s], strerror(-ret));
		}
		l->made[s] = false;
	}
	if (l->used)
		lab_user_remove(l->name, getpid());
	l->used = false;
	if (!only_made)
		lab_users_scan(l->name, true, NULL);
	if (!only_made || l->claimed) {
		lab_owner_path(l->name, path, sizeof(path));
		if (unlink(path) && errno != ENOENT && !ret) {
			ret = -errno;
			err_set(err, ret, "lab %s: remove %s: %s", l->name,
				path, strerror(-ret));
		}
		l->claimed = false;
	}
	return ret;
}

/* Work a helper thread does inside namespaces, so the caller's stays put. */
struct lab_job {
	struct lab *l;
	bool create;		/* make new namespaces; else setns into l->fd */
	int ret;
	char err[ERR_MAX];
};

/* In the job thread: make side s's namespace and bind it to its file. */
static int lab_ns_make(struct lab *l, int s, char *err)
{
	char proc[64];
	int fd, e;

	fd = open(l->path[s], O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
	if (fd < 0) {
		e = -errno;
		if (e == -EEXIST)
			return err_set(err, e,
				       "lab %s: exists (tunetop lab down %s to remove it)",
				       l->name, l->name);
		return err_set(err, e, "lab %s: create %s: %s", l->name,
			       l->path[s], strerror(-e));
	}
	close(fd);
	l->made[s] = true;
	if (unshare(CLONE_NEWNET)) {
		e = -errno;
		return err_set(err, e, "lab %s: unshare a network namespace: %s",
			       l->name, strerror(-e));
	}
	/* /proc/self/ns is the main thread's; this thread's is under task/. */
	snprintf(proc, sizeof(proc), "/proc/self/task/%d/ns/net", (int)gettid());
	if (mount(proc, l->path[s], "none", MS_BIND, NULL)) {
		e = -errno;
		return err_set(err, e, "lab %s: bind %s: %s", l->name,
			       l->path[s], strerror(-e));
	}
	l->fd[s] = open(l->path[s], O_RDONLY | O_CLOEXEC);
	if (l->fd[s] < 0) {
		e = -errno;
		return err_set(err, e, "lab %s: open %s: %s", l->name,
			       l->path[s], strerror(-e));
	}
	return 0;
}

/* Thread body: per side, enter or make the namespace and open a socket there. */
static void *lab_job_run(void *arg)
{
	struct lab_job *j = arg;
	struct lab *l = j->l;
	int s, r = 0;

	for (s = LAB_A; s <= LAB_B && !r; s++) {
		if (j->create) {
			if (s == LAB_B && lab_fail_here("netns")) {
				r = err_set(j->err, -EIO,
					    "lab %s: make %s: injected failure",
					    l->name, l->path[s]);
				break;
			}
			r = lab_ns_make(l, s, j->err);
		} else if (l->fd[s] < 0) {
			continue;
		} else if (setns(l->fd[s], CLONE_NEWNET)) {
			r = -errno;
			err_set(j->err, r, "lab %s: enter %s: %s", l->name,
				l->path[s], strerror(-r));
		}
		if (!r) {
			r = netlink_open(&l->nl[s], NETLINK_ROUTE, j->err);
			if (r) {
				char why[ERR_MAX];

				snprintf(why, sizeof(why), "%s", j->err);
				err_set(j->err, r, "lab %s: %s-%c: %s", l->name,
					l->name, s == LAB_A ? 'a' : 'b', why);
			}
		}
	}
	j->ret = r;
	return NULL;
}

/* Run lab_job_run in a thread of its own and wait for it. */
static int lab_job(struct lab *l, bool create, char *err)
{
	struct lab_job j = { .l = l, .create = create };
	pthread_t t;
	int r;

	r = pthread_create(&t, NULL, lab_job_run, &j);
	if (r)
		return err_set(err, -r, "lab %s: start a thread: %s", l->name,
			       strerror(r));
	pthread_join(t, NULL);
	if (j.ret)
		return err_set(err, j.ret, "%s", j.err);
	return 0;
}

/*
 * Send a request libnl built (built: the builder's result) on n and wait
 * for its ACK; errors read "<fmt>: why (netlink: extack)".
 */
__attribute__((format(printf, 7, 8)))
static int lab_request(struct netlink *n, int built, struct nl_msg *msg,
		       netlink_reply_cb reply_cb, void *arg, char *err,
		       const char *fmt, ...)
{
	char what[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (built < 0)
		return err_set(err, netlink_errno(built), "%s: %s", what,
			       nl_geterror(built));
	return netlink_request(n, msg, false, reply_cb, arg, what, err);
}

/* The veth pair, made from inside namespace a with its peer placed in b. */
static int lab_veth_add(struct lab *l, char *err)
{
	struct rtnl_link *link, *peer;
	struct nl_msg *msg = NULL;
	int r;

	if (lab_fail_here("veth"))
		return err_set(err, -EIO, "lab %s: add veth: injected failure",
			       l->name);
	link = rtnl_link_veth_alloc();
	if (!link)
		return err_set(err, -ENOMEM, "lab %s: add veth: %s", l->name,
			       strerror(ENOMEM));
	peer = rtnl_link_veth_get_peer(link);
	rtnl_link_set_name(link, lab_dev[LAB_A]);
	rtnl_link_set_ns_fd(link, l->fd[LAB_A]);
	rtnl_link_set_name(peer, lab_dev[LAB_B]);
	rtnl_link_set_ns_fd(peer, l->fd[LAB_B]);
	rtnl_link_put(peer);
	r = rtnl_link_build_add_request(link, NLM_F_CREATE | NLM_F_EXCL, &msg);
	rtnl_link_veth_release(link);
	return lab_request(l->nl[LAB_A], r, msg, NULL, NULL, err,
			   "lab %s: add veth %s/%s", l->name, lab_dev[LAB_A],
			   lab_dev[LAB_B]);
}

/* libnl's parser callback: keep the first link object of a reply. */
static void lab_link_obj_cb(struct nl_object *obj, void *arg)
{
	struct rtnl_link **out = arg;

	if (*out)
		return;
	nl_object_get(obj);
	*out = (struct rtnl_link *)obj;
}

/* Reply callback: the RTM_NEWLINK answer to a get, as a libnl link. */
static int lab_link_reply_cb(const struct nlmsghdr *nlh, void *arg, char *err)
{
	struct nl_msg *msg = nlmsg_convert((struct nlmsghdr *)nlh);
	int r;

	if (!msg)
		return err_set(err, -ENOMEM, "link reply: %s", strerror(ENOMEM));
	nlmsg_set_proto(msg, NETLINK_ROUTE);
	r = nl_msg_parse(msg, lab_link_obj_cb, arg);
	nlmsg_free(msg);
	if (r < 0)
		return err_set(err, netlink_errno(r), "link reply: %s",
			       nl_geterror(r));
	return 0;
}

/* Look dev up by name inside side s; its index there in *ifindex. */
int lab_link_get(const struct lab *l, int s, const char *dev,
		 struct rtnl_link **out, char *err)
{
	struct nl_msg *msg = NULL;
	int r;

	*out = NULL;
	r = rtnl_link_build_get_request(0, dev, &msg);
	r = lab_request(l->nl[s], r, msg, lab_link_reply_cb, out, err,
			"lab %s: %s-%c: get %s", l->name, l->name,
			s == LAB_A ? 'a' : 'b', dev);
	if (!r && !*out)
		r = err_set(err, -EIO, "lab %s: %s-%c: get %s: no reply",
			    l->name, l->name, s == LAB_A ? 'a' : 'b', dev);
	if (r && *out) {
		rtnl_link_put(*out);
		*out = NULL;
	}
	if (r == -ENODEV)
		return err_set(err, -ENODEV, "lab %s: %s-%c: %s: %s", l->name,
			       l->name, s == LAB_A ? 'a' : 'b', dev,
			       strerror(ENODEV));
	return r;
}

/* The global addresses and root qdisc of side s's veth, and its MTU. */
int lab_side_read(const struct lab *l, int s, struct lab_info *out,
		  char *err)
{
	struct netlink *n = l->nl[s];
	struct nl_cache *cache = NULL;
	struct rtnl_link *link = NULL;
	struct nl_object *obj;
	struct rtnl_qdisc *q;
	int idx, r;

	if (!n)
		return err_set(err, -ENOENT,
			       "lab %s: namespace %s-%c missing (tunetop lab down %s removes the rest)",
			       l->name, l->name, s == LAB_A ? 'a' : 'b',
			       l->name);
	r = lab_link_get(l, s, lab_dev[s], &link, err);
	if (r)
		return r;
	idx = rtnl_link_get_ifindex(link);
	if (s == LAB_A)
		out->mtu = rtnl_link_get_mtu(link);
	rtnl_link_put(link);

	netlink_reset(n);
	r = rtnl_addr_alloc_cache(netlink_sock(n), &cache);
	if (r < 0)
		return netlink_fail(n, r, err, "lab %s: %s: dump addresses",
				    l->name, lab_dev[s]);
	for (obj = nl_cache_get_first(cache); obj;
	     obj = nl_cache_get_next(obj)) {
		struct rtnl_addr *a = (struct rtnl_addr *)obj;
		struct nl_addr *local = rtnl_addr_get_local(a);
		int fam = rtnl_addr_get_family(a);

		if (rtnl_addr_get_ifindex(a) != idx || !local ||
		    rtnl_addr_get_scope(a) != RT_SCOPE_UNIVERSE)
			continue;
		if (fam == AF_INET && !out->addr4[s][0])
			inet_ntop(AF_INET, nl_addr_get_binary_addr(local),
				  out->addr4[s], sizeof(out->addr4[s]));
		else if (fam == AF_INET6 && !out->addr6[s][0])
			inet_ntop(AF_INET6, nl_addr_get_binary_addr(local),
				  out->addr6[s], sizeof(out->addr6[s]));
	}
	nl_cache_free(cache);

	netlink_reset(n);
	r = rtnl_qdisc_alloc_cache(netlink_sock(n), &cache);
	if (r < 0)
		return netlink_fail(n, r, err, "lab %s: %s: dump qdiscs",
				    l->name, lab_dev[s]);
	q = rtnl_qdisc_get_by_parent(cache, idx, TC_H_ROOT);
	if (!q) {
		snprintf(out->qdisc[s], sizeof(out->qdisc[s]), "none");
	} else {
		const char *kind = rtnl_tc_get_kind(TC_CAST(q));

		if (kind && !strcmp(kind, "tbf")) {
			uint64_t bps = (uint64_t)rtnl_qdisc_tbf_get_rate(q) * 8;
			char rate[24];

			if (bps && bps % 1000000000ull == 0)
				snprintf(rate, sizeof(rate), "%llugbit",
					 (unsigned long long)(bps / 1000000000ull));
			else if (bps && bps % 1000000ull == 0)
				snprintf(rate, sizeof(rate), "%llumbit",
					 (unsigned long long)(bps / 1000000ull));
			else if (bps && bps % 1000ull == 0)
				snprintf(rate, sizeof(rate), "%llukbit",
					 (unsigned long long)(bps / 1000ull));
			else
				snprintf(rate, sizeof(rate), "%llubit",
					 (unsigned long long)bps);
			snprintf(out->qdisc[s], sizeof(out->qdisc[s]), "tbf %s",
				 rate);
			if (s == LAB_A)
				out->rate_bps = bps;
		} else {
			snprintf(out->qdisc[s], sizeof(out->qdisc[s]), "%s",
				 kind ? kind : "?");
		}
		rtnl_qdisc_put(q);
	}
	nl_cache_free(cache);
	return 0;
}

/* Set dev's MTU (0: leave it) and bring it up, from inside side s. */
static int lab_link_up(struct lab *l, int s, const char *dev, unsigned mtu,
		       int *ifindex, char *err)
{
	struct rtnl_link *orig = NULL, *chg;
	struct nl_msg *msg = NULL;
	char up[32];
	int r;

	r = lab_link_get(l, s, dev, &orig, err);
	if (r)
		return r;
	chg = rtnl_link_alloc();
	if (!chg) {
		rtnl_link_put(orig);
		return err_set(err, -ENOMEM, "lab %s: %s: %s", l->name, dev,
			       strerror(ENOMEM));
	}
	if (mtu)
		rtnl_link_set_mtu(chg, mtu);
	rtnl_link_set_flags(chg, IFF_UP);
	r = rtnl_link_build_change_request(orig, chg, 0, &msg);
	if (ifindex)
		*ifindex = rtnl_link_get_ifindex(orig);
	rtnl_link_put(chg);
	rtnl_link_put(orig);
	if (mtu)
		snprintf(up, sizeof(up), "set mtu %u and up", mtu);
	else
		snprintf(up, sizeof(up), "set up");
	return lab_request(l->nl[s], r, msg, NULL, NULL, err,
			   "lab %s: %s-%c: %s: %s", l->name, l->name,
			   s == LAB_A ? 'a' : 'b', dev, up);
}

/* Add side s's address of family (no DAD for IPv6, so it is usable at once). */
static int lab_addr_add(struct lab *l, int s, int ifindex, int family,
			char *err)
{
	const char *txt = family == AF_INET ? lab_v4[s] : lab_v6[s];
	int plen = lab_prefix[family == AF_INET ? 0 : 1];
	struct nl_addr *local = NULL;
	struct nl_msg *msg = NULL;
	struct rtnl_addr *a;
	int r;

	r = nl_addr_parse(txt, family, &local);
	if (r < 0)
		return err_set(err, netlink_errno(r), "lab %s: %s: %s",
			       l->name, txt, nl_geterror(r));
	nl_addr_set_prefixlen(local, plen);
	a = rtnl_addr_alloc();
	if (!a) {
		nl_addr_put(local);
		return err_set(err, -ENOMEM, "lab %s: %s: %s", l->name, txt,
			       strerror(ENOMEM));
	}
	rtnl_addr_set_ifindex(a, ifindex);
	rtnl_addr_set_local(a, local);
	if (family == AF_INET6)
		rtnl_addr_set_flags(a, IFA_F_NODAD);
	r = rtnl_addr_build_add_request(a, 0, &msg);
	rtnl_addr_put(a);
	nl_addr_put(local);
	return lab_request(l->nl[s], r, msg, NULL, NULL, err,
			   "lab %s: %s: add %s/%d", l->name, lab_dev[s], txt,
			   plen);
}

/*
 * A tbf on the root of side s's veth.  Burst: one HZ=250 tick of tokens but
 * at least ten frames, so a full-size frame always fits; limit: the burst
 * plus 10 ms of queue at the rate.
 */
static int lab_tbf_add(struct lab *l, int s, int ifindex, uint64_t rate_bps,
		       unsigned mtu, char *err)
{
	uint64_t bytes = rate_bps / 8;
	uint64_t burst = bytes / LAB_HZ;
	uint64_t limit;
	struct nl_msg *msg = NULL;
	struct rtnl_qdisc *q;
	int r;

	if (burst < 10ull * (mtu + 14))
		burst = 10ull * (mtu + 14);
	limit = burst + bytes / 100;
	if (limit > INT_MAX)
		limit = INT_MAX;
	q = rtnl_qdisc_alloc();
	if (!q)
		return err_set(err, -ENOMEM, "lab %s: tbf: %s", l->name,
			       strerror(ENOMEM));
	rtnl_tc_set_ifindex(TC_CAST(q), ifindex);
	rtnl_tc_set_parent(TC_CAST(q), TC_H_ROOT);
	r = rtnl_tc_set_kind(TC_CAST(q), "tbf");
	if (r < 0) {
		rtnl_qdisc_put(q);
		return err_set(err, netlink_errno(r), "lab %s: tbf: %s",
			       l->name, nl_geterror(r));
	}
	rtnl_qdisc_tbf_set_limit(q, (int)limit);
	rtnl_qdisc_tbf_set_rate(q, (int)bytes, (int)burst, 0);
	r = rtnl_qdisc_build_add_request(q, NLM_F_CREATE | NLM_F_REPLACE, &msg);
	rtnl_qdisc_put(q);
	return lab_request(l->nl[s], r, msg, NULL, NULL, err,
			   "lab %s: %s: add tbf rate %llu bit/s", l->name,
			   lab_dev[s], (unsigned long long)rate_bps);
}

/* Configure the made namespaces: veth, MTU, links up, addresses, tbf. */
static int lab_build(struct lab *l, unsigned mtu, uint64_t rate_bps,
		     char *err)
{
	int ifindex[2], s, r;

	r = lab_veth_add(l, err);
	for (s = LAB_A; s <= LAB_B && !r; s++) {
		unsigned m = mtu;

		if (s == LAB_B && lab_fail_here("mtu"))
			m = LAB_MTU_MAX + 1;
		r = lab_link_up(l, s, lab_dev[s], m, &ifindex[s], err);
		if (!r)
			r = lab_link_up(l, s, "lo", 0, NULL, err);
	}
	for (s = LAB_A; s <= LAB_B && !r; s++) {
		if (s == LAB_B && lab_fail_here("addr"))
			return err_set(err, -EIO,
				       "lab %s: %s: add addresses: injected failure",
				       l->name, lab_dev[s]);
		r = lab_addr_add(l, s, ifindex[s], AF_INET, err);
		if (!r && l->has6)
			r = lab_addr_add(l, s, ifindex[s], AF_INET6, err);
	}
	for (s = LAB_A; s <= LAB_B && !r && rate_bps; s++) {
		if (s == LAB_B && lab_fail_here("qdisc"))
			return err_set(err, -EIO,
				       "lab %s: %s: add tbf: injected failure",
				       l->name, lab_dev[s]);
		r = lab_tbf_add(l, s, ifindex[s], rate_bps, mtu, err);
	}
	return r;
}

/* Check mtu and rate against what the veth and libnl's tbf accept. */
static int lab_opts_check(const char *name, unsigned mtu, uint64_t rate,
			  char *err)
{
	if (mtu < LAB_MTU_MIN || mtu > LAB_MTU_MAX)
		return err_set(err, -EINVAL,
			       "lab %s: mtu %u: out of range (accepted %d..%d, the veth maximum)",
			       name, mtu, LAB_MTU_MIN, LAB_MTU_MAX);
	if (rate && (rate < LAB_RATE_MIN || rate > LAB_RATE_MAX))
		return err_set(err, -EINVAL,
			       "lab %s: rate %llu bit/s: out of range (accepted %llu..%llu bit/s, about 17.1 Gbit/s, the most libnl's tbf can express)",
			       name, (unsigned long long)rate, LAB_RATE_MIN,
			       LAB_RATE_MAX);
	return 0;
}

/* Claim the name, make both namespaces and the veth, then hand the lab over. */
int lab_create(struct lab **lp, const struct lab_opts *o, char *err)
{
	char def[LAB_NAME_MAX], rec[PATH_MAX];
	const char *name = o->name;
	unsigned mtu = o->mtu ? o->mtu : LAB_MTU_DEFAULT;
	struct stat st;
	struct lab *l;
	int s, r;

	*lp = NULL;
	if (!name) {
		snprintf(def, sizeof(def), "tunetop-%d", (int)getpid());
		name = def;
	}
	r = lab_name_check(name, err);
	if (!r)
		r = lab_opts_check(name, mtu, o->rate_bps, err);
	if (r)
		return r;
	l = lab_alloc(name);
	if (!l)
		return err_set(err, -ENOMEM, "lab %s: %s", name,
			       strerror(ENOMEM));
	l->has6 = mtu >= LAB_MTU_IPV6;
	r = lab_owner_dir_make(err);
	if (!r)
		r = lab_netns_dir(err);
	if (r)
		goto fail;
	/* Fail early and clearly; the O_EXCL creations below decide races. */
	lab_owner_path(name, rec, sizeof(rec));
	for (s = LAB_A; s <= LAB_B; s++)
		if (!lstat(l->path[s], &st))
			break;
	if (s <= LAB_B || !lstat(rec, &st)) {
		r = err_set(err, -EEXIST,
			    "lab %s: exists (tunetop lab down %s to remove it)",
			    name, name);
		goto fail;
	}
	/* The record comes first, so a crash from here on leaves a lab that
	 * lab_reap() finds with a dead owner. */
	r = lab_owner_write(name, false, true, err);
	if (r)
		goto fail;
	l->claimed = true;
	r = lab_job(l, true, err);
	if (!r)
		r = lab_build(l, mtu, o->rate_bps, err);
	if (!r && lab_fail_here("record"))
		r = err_set(err, -EIO, "lab %s: write record: injected failure",
			    name);
	if (!r && o->persistent)
		r = lab_owner_write(name, true, false, err);
	if (r)
		goto fail;
	l->made[LAB_A] = l->made[LAB_B] = l->claimed = false;
	*lp = l;
	return 0;
fail:
	lab_teardown(l, true, NULL);
	free(l);
	return r;
}

/* Open the sides of an existing lab that are still there. */
int lab_open(struct lab **lp, const char *name, char *err)
{
	struct lab_info tmp;
	struct lab_owner rec;
	struct statfs sf;
	struct stat st;
	bool any = false;
	struct lab *l;
	int s, r;

	*lp = NULL;
	r = lab_name_check(name, err);
	if (r)
		return r;
	l = lab_alloc(name);
	if (!l)
		return err_set(err, -ENOMEM, "lab %s: %s", name,
			       strerror(ENOMEM));
	for (s = LAB_A; s <= LAB_B; s++) {
		if (lstat(l->path[s], &st))
			continue;
		any = true;
		l->fd[s] = open(l->path[s], O_RDONLY | O_CLOEXEC);
		/* A file not (or no longer) bound to a namespace is no side. */
		if (l->fd[s] >= 0 &&
		    (fstatfs(l->fd[s], &sf) || sf.f_type != NSFS_MAGIC)) {
			close(l->fd[s]);
			l->fd[s] = -1;
		}
	}
	lab_owner_read(name, &rec);
	if (!any && !rec.present) {
		free(l);
		return err_set(err, -ENOENT,
			       "lab %s: no such lab (no %s/%s-a, -b, no record)",
			       name, LAB_NETNS_DIR, name);
	}
	r = lab_job(l, false, err);
	if (r) {
		lab_close(l);
		return r;
	}
	memset(&tmp, 0, sizeof(tmp));
	l->has6 = l->nl[LAB_A] && !lab_side_read(l, LAB_A, &tmp, NULL) &&
		  tmp.addr6[LAB_A][0];
	*lp = l;
	return 0;
}

int lab_netns_fd(const struct lab *l, enum lab_side side)
{
	return l->fd[side] >= 0 ? l->fd[side] : -ENOENT;
}

/* Move the calling thread into one side's namespace. */
int lab_enter(const struct lab *l, enum lab_side side, char *err)
{
	int e;

	if (l->fd[side] < 0)
		return err_set(err, -ENOENT, "lab %s: namespace %s-%c missing",
			       l->name, l->name, side == LAB_A ? 'a' : 'b');
	if (setns(l->fd[side], CLONE_NEWNET)) {
		e = -errno;
		return err_set(err, e, "lab %s: enter %s: %s", l->name,
			       l->path[side], strerror(-e));
	}
	return 0;
}

const char *lab_addr(const struct lab *l, enum lab_side side, int family)
{
	if (family == AF_INET)
		return lab_v4[side];
	if (family == AF_INET6 && l->has6)
		return lab_v6[side];
	return NULL;
}

const char *lab_name(const struct lab *l)
{
	return l->name;
}

/* Tear the whole lab down and free l. */
int lab_destroy(struct lab *l, char *err)
{
	int r;

	if (!l)
		return 0;
	r = lab_teardown(l, false, err);
	free(l);
	return r;
}

/* Mark the lab in use by this process until lab_close or lab_destroy. */
int lab_use(struct lab *l, char *err)
{
	int r = lab_user_write(l->name, err);

	if (!r)
		l->used = true;
	return r;
}

/* Free l's sockets and fds, leaving the lab in place. */
void lab_close(struct lab *l)
{
	int s;

	if (!l)
		return;
	if (l->used)
		lab_user_remove(l->name, getpid());
	for (s = LAB_A; s <= LAB_B; s++) {
		netlink_close(l->nl[s]);
		if (l->fd[s] >= 0)
			close(l->fd[s]);
	}
	free(l);
}

/* Replace (or remove) the tbf on both veth ends. */
int lab_set_rate(const struct lab *cl, uint64_t rate_bps, char *err)
{
	/* The netlink sockets are the lab's working state, not what it is. */
	struct lab *l = (struct lab *)cl;
	int r = lab_opts_check(l->name, 1500, rate_bps, err);

	if (r)
		return r;
	for (int s = LAB_A; s <= LAB_B; s++) {
		struct rtnl_link *link = NULL;
		unsigned mtu;
		int idx;

		if (!l->nl[s])
			return err_set(err, -ENOENT, "lab %s: namespace %s-%c missing",
				       l->name, l->name, s == LAB_A ? 'a' : 'b');
		r = lab_link_get(l, s, lab_dev[s], &link, err);
		if (r)
			return r;
		idx = rtnl_link_get_ifindex(link);
		mtu = rtnl_link_get_mtu(link);
		rtnl_link_put(link);
		if (rate_bps) {
			r = lab_tbf_add(l, s, idx, rate_bps, mtu, err);
		} else {
			struct rtnl_qdisc *q = rtnl_qdisc_alloc();
			struct nl_msg *msg = NULL;
			char e[ERR_MAX];

			if (!q)
				return err_set(err, -ENOMEM, "lab %s: tbf: %s", l->name, strerror(ENOMEM));
			rtnl_tc_set_ifindex(TC_CAST(q), idx);
			rtnl_tc_set_parent(TC_CAST(q), TC_H_ROOT);
			r = rtnl_qdisc_build_delete_request(q, &msg);
			rtnl_qdisc_put(q);
			r = lab_request(l->nl[s], r, msg, NULL, NULL, e,
					"lab %s: %s: remove tbf", l->name,
					lab_dev[s]);
			/* No root qdisc to remove is "no rate limit" already. */
			if (r == -ENOENT || r == -EADDRNOTAVAIL || r == -EINVAL)
				r = 0;
			else if (r)
				err_set(err, r, "%s", e);
		}
		if (r)
			return r;
	}
	return 0;
}
