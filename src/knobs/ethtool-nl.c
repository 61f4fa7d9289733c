// SPDX-License-Identifier: GPL-2.0-or-later
/* ethtool-nl.c - the ethtool genl socket, request headers, attribute tables, one-attribute get/set. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netlink.h>
#include <netlink/genl/genl.h>

#include "knobs/ethtool-nl.h"
#include "core/util.h"

int ethtool_nl_open(struct ethtool_nl **np, char *err)
{
	struct ethtool_nl *n;
	int rc;

	*np = NULL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return err_set(err, -ENOMEM, "ethtool netlink: %s",
			       strerror(ENOMEM));
	/*
	 * The socket is created here, so it belongs to the network namespace
	 * of the calling thread, and sees only that namespace's devices.
	 */
	rc = netlink_open(&n->nl, NETLINK_GENERIC, err);
	if (!rc) {
		rc = netlink_genl_family(n->nl, "ethtool", err);
		n->family = rc;
	}
	if (rc < 0) {
		char why[ERR_MAX];

		snprintf(why, sizeof(why), "%s", err);
		err_set(err, rc, "ethtool netlink: %s", why);
		ethtool_nl_close(n);
		return rc;
	}
	*np = n;
	return 0;
}

void ethtool_nl_close(struct ethtool_nl *n)
{
	if (!n)
		return;
	netlink_close(n->nl);
	free(n);
}

struct nl_msg *ethtool_nl_msg(struct ethtool_nl *n, uint8_t cmd,
			      uint16_t hdr_attr, const char *dev,
			      uint32_t flags)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct nlattr *hdr;

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, n->family, 0, 0,
			 cmd, ETHTOOL_GENL_VERSION))
		goto fail;
	hdr = nla_nest_start(msg, hdr_attr);
	if (!hdr)
		goto fail;
	/* By name only: an index means another device in another netns. */
	if (dev && nla_put_string(msg, ETHTOOL_A_HEADER_DEV_NAME, dev) < 0)
		goto fail;
	/*
	 * Always present: libnl trims an empty nest, and STRSET_GET (no
	 * device) then misses the header the kernel requires.
	 */
	if (nla_put_u32(msg, ETHTOOL_A_HEADER_FLAGS, flags) < 0)
		goto fail;
	nla_nest_end(msg, hdr);
	return msg;
fail:
	nlmsg_free(msg);
	return NULL;
}

int ethtool_nl_parse(const struct nlmsghdr *nlh, struct nlattr **tb, int max)
{
	if (genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, max, NULL) < 0)
		return -EINVAL;
	return 0;
}

const struct ethtool_attr *ethtool_attr_find(const struct ethtool_attr *table,
					     unsigned ntable, const char *name)
{
	for (unsigned i = 0; i < ntable; i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

void ethtool_attrs_parse(struct nlattr **tb, int max,
			 const struct ethtool_attr *table, unsigned ntable,
			 bool *present, uint32_t *value)
{
	for (unsigned i = 0; i < ntable; i++) {
		struct nlattr *a = table[i].type <= max ? tb[table[i].type]
							: NULL;

		present[i] = false;
		value[i] = 0;
		if (!a)
			continue;
		if (table[i].width == 1 && nla_len(a) >= 1) {
			value[i] = nla_get_u8(a);
			present[i] = true;
		} else if (table[i].width == 4 && nla_len(a) >= 4) {
			value[i] = nla_get_u32(a);
			present[i] = true;
		}
	}
}

void ethtool_reply_dev(struct nlattr *hdr, char *out, size_t len)
{
	struct nlattr *tb[TT_ETHTOOL_PARSE_MAX + 1] = { NULL };

	snprintf(out, len, "?");
	if (hdr && nla_parse_nested(tb, TT_ETHTOOL_PARSE_MAX, hdr, NULL) == 0 &&
	    tb[ETHTOOL_A_HEADER_DEV_NAME])
		nla_strlcpy(out, tb[ETHTOOL_A_HEADER_DEV_NAME], len);
}

int ethtool_family_parse(const struct ethtool_family *fam,
			 const struct nlmsghdr *nlh, const char *name,
			 struct knob_value *v, char *err)
{
	struct nlattr *tb[TT_ETHTOOL_PARSE_MAX + 1] = { NULL };
	bool present[TT_ETHTOOL_PARSE_MAX];
	uint32_t value[TT_ETHTOOL_PARSE_MAX];
	const struct ethtool_attr *a;
	char dev[64];
	unsigned i;

	memset(v, 0, sizeof(*v));
	a = ethtool_attr_find(fam->table, fam->ntable, name);
	if (!a)
		return err_set(err, -ENOENT, "%s: no %s parameter called %s",
			       fam->what, fam->what, name);
	if (ethtool_nl_parse(nlh, tb, TT_ETHTOOL_PARSE_MAX) < 0)
		return err_set(err, -EINVAL, "%s reply: malformed", fam->what);
	ethtool_attrs_parse(tb, TT_ETHTOOL_PARSE_MAX, fam->table, fam->ntable,
			    present, value);
	i = (unsigned)(a - fam->table);
	if (!present[i]) {
		ethtool_reply_dev(tb[fam->hdr_attr], dev, sizeof(dev));
		snprintf(v->reason, sizeof(v->reason),
			 "%s: %s not reported by the driver", dev, name);
		return 0;
	}
	v->present = true;
	v->num[0] = value[i];
	snprintf(v->text, sizeof(v->text), "%u", value[i]);
	return 0;
}

struct family_get_ctx {
	const struct ethtool_family *fam;
	const char *name;
	struct knob_value *v;
	bool got;
};

/* Reply callback: parse the one GET reply into the caller's knob value. */
static int family_get_cb(const struct nlmsghdr *nlh, void *arg, char *err)
{
	struct family_get_ctx *c = arg;

	c->got = true;
	return ethtool_family_parse(c->fam, nlh, c->name, c->v, err);
}

int ethtool_family_get(struct ethtool_nl *n, const struct ethtool_family *fam,
		       const char *dev, const char *name,
		       struct knob_value *v, char *err)
{
	struct family_get_ctx c = { .fam = fam, .name = name, .v = v };
	char what[128], drv[64];
	struct nl_msg *msg;
	int rc;

	memset(v, 0, sizeof(*v));
	if (!ethtool_attr_find(fam->table, fam->ntable, name))
		return err_set(err, -ENOENT, "%s: no %s parameter called %s",
			       dev, fam->what, name);
	msg = ethtool_nl_msg(n, fam->get_cmd, fam->hdr_attr, dev, 0);
	if (!msg)
		return err_set(err, -ENOMEM, "%s: %s: %s", dev, fam->what,
			       strerror(ENOMEM));
	snprintf(what, sizeof(what), "%s: get %s", dev, fam->what);
	rc = netlink_request(n->nl, msg, false, family_get_cb, &c, what, err);
	if (rc == -EOPNOTSUPP) {
		/* A driver without this family: n/a with the reason, not 0. */
		memset(v, 0, sizeof(*v));
		ethtool_driver_label(dev, drv, sizeof(drv));
		snprintf(v->reason, sizeof(v->reason),
			 "%s: %s not supported (%s)", drv, fam->what,
			 strerror(EOPNOTSUPP));
		return 0;
	}
	if (rc < 0)
		return rc;
	if (!c.got)
		return err_set(err, -EIO, "%s: the kernel sent no reply", what);
	return 0;
}

int ethtool_family_set(struct ethtool_nl *n, const struct ethtool_family *fam,
		       const char *dev, const char *name, uint32_t value,
		       char *err)
{
	const struct ethtool_attr *a;
	struct knob_value v;
	struct nl_msg *msg;
	char what[160];
	int rc;

	a = ethtool_attr_find(fam->table, fam->ntable, name);
	if (!a)
		return err_set(err, -ENOENT, "%s: no %s parameter called %s",
			       dev, fam->what, name);
	snprintf(what, sizeof(what), "%s: set %s %u", dev, name, value);
	if (!a->settable)
		return err_set(err, -EINVAL, "%s: %s is read-only", what,
			       name);
	if (a->width == 1 && value > 255)
		return err_set(err, -ERANGE, "%s: at most 255", what);
	msg = ethtool_nl_msg(n, fam->set_cmd, fam->hdr_attr, dev, 0);
	if (!msg)
		return err_set(err, -ENOMEM, "%s: %s", what, strerror(ENOMEM));
	if ((a->width == 1 ? nla_put_u8(msg, a->type, (uint8_t)value)
			   : nla_put_u32(msg, a->type, value)) < 0) {
		nlmsg_free(msg);
		return err_set(err, -ENOMEM, "%s: %s", what, strerror(ENOMEM));
	}
	rc = netlink_request(n->nl, msg, false, NULL, NULL, what, err);
	if (rc < 0)
		return rc;
	/* Accepted is not applied: read it back. */
	rc = ethtool_family_get(n, fam, dev, name, &v, err);
	if (rc < 0)
		return rc;
	if (!v.present)
		return err_set(err, -EIO, "%s: accepted, but reads back n/a (%s)",
			       what, v.reason);
	if ((uint32_t)v.num[0] != value)
		return err_set(err, -EIO, "%s: accepted, but reads back %s",
			       what, v.text);
	return 0;
}
