// SPDX-License-Identifier: GPL-2.0-or-later
/* lab-metrics.c - empty the kernel's TCP metrics cache in a lab's namespaces. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <linux/tcp_metrics.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "core/netlink.h"
#include "lab/lab.h"
#include "core/util.h"

struct lab_metrics_job {
	const struct lab *l;
	enum lab_side side;
	int ret;
	char err[ERR_MAX];
};

/*
 * TCP_METRICS_CMD_DEL without an address flushes every entry of the
 * namespace (the kernel's tcp_metrics_nl_cmd_del); it needs CAP_NET_ADMIN.
 * The genl socket is made in the side's namespace, which the entry
 * belongs to: a thread of its own enters it.
 */
static void *lab_metrics_thread(void *arg)
{
	struct lab_metrics_job *j = arg;
	struct netlink *n = NULL;
	struct nl_msg *msg;
	int family;

	j->ret = lab_enter(j->l, j->side, j->err);
	if (!j->ret)
		j->ret = netlink_open(&n, NETLINK_GENERIC, j->err);
	if (j->ret)
		return NULL;
	family = netlink_genl_family(n, TCP_METRICS_GENL_NAME, j->err);
	if (family < 0) {
		j->ret = family;
		netlink_close(n);
		return NULL;
	}
	msg = nlmsg_alloc();
	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, 0,
				TCP_METRICS_CMD_DEL, TCP_METRICS_GENL_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	j->ret = netlink_request(n, msg, false, NULL, NULL,
				 "tcp_metrics: flush", j->err);
	netlink_close(n);
	return NULL;
}

int lab_flush_tcp_metrics(const struct lab *l, char *err)
{
	for (int s = LAB_A; s <= LAB_B; s++) {
		struct lab_metrics_job j = { .l = l, .side = s };
		pthread_t t;
		int r = pthread_create(&t, NULL, lab_metrics_thread, &j);

		if (r)
			return err_set(err, -r, "lab %s: start a thread: %s",
				       lab_name(l), strerror(r));
		pthread_join(t, NULL);
		if (j.ret)
			return err_set(err, j.ret, "lab %s-%c: %s", lab_name(l),
				       s == LAB_A ? 'a' : 'b', j.err);
	}
	return 0;
}
