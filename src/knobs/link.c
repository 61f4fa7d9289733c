// SPDX-License-Identifier: GPL-2.0-or-later
/* link.c - the link attribute knob (mtu) over rtnetlink, by device name. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "core/netlink.h"
#include "knobs/backend.h"

/*
 * An RTM_GETLINK or RTM_SETLINK for dev by name (index 0: the kernel
 * looks the name up in the socket's namespace), with IFLA_MTU when mtu is
 * not 0.  NULL on ENOMEM.
 */
static struct nl_msg *link_msg(int type, const char *dev, uint32_t mtu)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct nl_msg *msg = nlmsg_alloc_simple(type, 0);

	if (!msg)
		return NULL;
	if (nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO) < 0 ||
	    nla_put_string(msg, IFLA_IFNAME, dev) < 0 ||
	    (mtu && nla_put_u32(msg, IFLA_MTU, mtu) < 0)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* Reply callback: IFLA_MTU of the RTM_NEWLINK answer, into *(int64_t *)arg. */
static int link_mtu_cb(const struct nlmsghdr *nlh, void *arg, char *err)
{
	struct nlattr *tb[IFLA_MAX + 1];
	int64_t *mtu = arg;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return 0;
	if (nlmsg_parse((struct nlmsghdr *)nlh, sizeof(struct ifinfomsg), tb,
			IFLA_MAX, NULL) < 0)
		return err_set(err, -EINVAL, "link reply: malformed");
	if (tb[IFLA_MTU])
		*mtu = nla_get_u32(tb[IFLA_MTU]);
	return 0;
}

/* Backend: a link attribute of the run's device ("mtu" only). */
static int link_knob_get(struct knob_ctx *c, const struct knob_def *d,
			 struct knob_value *v, char *err)
{
	int64_t mtu = -1;
	char what[96];
	int rc;

	if (strcmp(d->where, "mtu")) {
		knob_value_na(v, "link attribute '%s' not known to this build",
			      d->where);
		return 0;
	}
	rc = knob_ctx_route(c, err);
	if (rc)
		return rc;
	snprintf(what, sizeof(what), "%s: get mtu", c->dev);
	rc = netlink_request(c->rt, link_msg(RTM_GETLINK, c->dev, 0), false,
			     link_mtu_cb, &mtu, what, err);
	if (rc)
		return rc;
	if (mtu < 0)
		return err_set(err, -EIO, "%s: no MTU in the reply", what);
	knob_value_from_u64(d, (uint64_t)mtu, v);
	return 0;
}

static int link_knob_set(struct knob_ctx *c, const struct knob_def *d,
			 const struct knob_value *val, bool *took, char *err)
{
	char what[128];
	int rc;

	(void)took;
	if (strcmp(d->where, "mtu"))
		return err_set(err, -EOPNOTSUPP,
			       "%s: link attribute '%s' not known to this build",
			       d->name, d->where);
	rc = knob_ctx_route(c, err);
	if (rc)
		return rc;
	snprintf(what, sizeof(what), "%s: %s: set mtu %u", d->name, c->dev,
		 (unsigned)val->num[0]);
	return netlink_request(c->rt,
			       link_msg(RTM_SETLINK, c->dev,
					(uint32_t)val->num[0]),
			       false, NULL, NULL, what, err);
}

const struct knob_backend link_backend = {
	.name = "link",
	.where_problem = knob_where_lower,
	.types = KNOB_TYPE_BIT(KNOB_INT),
	.types_why = KNOB_INT_ONLY,
	.per_device = true,
	.get = link_knob_get,
	.set = link_knob_set,
};
