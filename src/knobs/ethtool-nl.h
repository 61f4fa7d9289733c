/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ethtool-nl.h - what the ethtool-<family>.c files share: genl socket, attribute tables, ioctl. */
#ifndef TT_ETHTOOL_NL_H
#define TT_ETHTOOL_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "core/netlink.h"
#include "knobs/ethtool.h"
#include "uapi/ethtool_netlink.h"

/*
 * The ethtool genl socket: a netlink socket (core/netlink.h) made in the
 * calling thread's namespace, and the id of the "ethtool" family there.
 */
struct ethtool_nl {
	struct netlink *nl;
	int family;
};

/*
 * A new request for cmd with its header nest (attribute hdr_attr)
 * naming dev (NULL: no device) and carrying flags.  NULL on ENOMEM.
 * Send it with netlink_request(n->nl, ...).
 */
struct nl_msg *ethtool_nl_msg(struct ethtool_nl *n, uint8_t cmd,
			      uint16_t hdr_attr, const char *dev,
			      uint32_t flags);

/* Parse the attributes of an ethtool reply into tb[0..max]; 0 or -EINVAL. */
int ethtool_nl_parse(const struct nlmsghdr *nlh, struct nlattr **tb, int max);

/* The device name a reply's header nest carries, or "?". */
void ethtool_reply_dev(struct nlattr *hdr, char *out, size_t len);

/* A u8/u32 attribute of a message family, by ethtool's name. */
struct ethtool_attr {
	const char *name;
	uint16_t type;
	uint8_t width;		/* 1: u8, 4: u32 */
	bool settable;
};

/* The attribute called name in table, or NULL. */
const struct ethtool_attr *ethtool_attr_find(const struct ethtool_attr *table,
					     unsigned ntable, const char *name);

/* Values of every table attribute present in a reply. */
void ethtool_attrs_parse(struct nlattr **tb, int max,
			 const struct ethtool_attr *table, unsigned ntable,
			 bool *present, uint32_t *value);

/*
 * One message family's "get one attribute" and "set one attribute, read
 * back" for rings and channels: what ("rings", "channels") names the
 * family in reasons and errors.
 */
struct ethtool_family {
	const char *what;
	const char *prefix;	/* of the catalog's attribute names: "ETHTOOL_A_RINGS_" */
	uint8_t get_cmd, set_cmd;
	uint16_t hdr_attr;
	const struct ethtool_attr *table;
	unsigned ntable;
};

int ethtool_family_parse(const struct ethtool_family *fam,
			 const struct nlmsghdr *nlh, const char *name,
			 struct knob_value *v, char *err);
int ethtool_family_get(struct ethtool_nl *n, const struct ethtool_family *fam,
		       const char *dev, const char *name,
		       struct knob_value *v, char *err);
int ethtool_family_set(struct ethtool_nl *n, const struct ethtool_family *fam,
		       const char *dev, const char *name, uint32_t value,
		       char *err);

/*
 * Run one SIOCETHTOOL command (cmd points at its struct) on dev, in the
 * calling thread's namespace; what names it in errors.  0 or -errno.
 */
int ethtool_ioctl(const char *dev, void *cmd, const char *what, char *err);

/* "<driver>" of dev for reasons, falling back to dev itself. */
void ethtool_driver_label(const char *dev, char *out, size_t len);

#endif
