/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ethtool-nl.h - the ethtool genl socket shared by the ethtool-<family>.c files. */
#ifndef TT_ETHTOOL_NL_H
#define TT_ETHTOOL_NL_H

#include <stdbool.h>
#include <stdint.h>

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "knobs/ethtool.h"
#include "uapi/ethtool_netlink.h"

/* Show every message a request receives, errors too, to tap_cb (recording). */
void ethtool_nl_set_tap(struct ethtool_nl *n,
			void (*tap_cb)(const struct nlmsghdr *nlh, void *arg),
			void *arg);

/* The extack message of the last error or ACK, "" if none. */
const char *ethtool_nl_extack(const struct ethtool_nl *n);

/*
 * A new request for cmd with its header nest (attribute hdr_attr)
 * naming dev (NULL: no device) and carrying flags.  NULL on ENOMEM.
 */
struct nl_msg *ethtool_nl_msg(struct ethtool_nl *n, uint8_t cmd,
			      uint16_t hdr_attr, const char *dev,
			      uint32_t flags);

/*
 * Send msg (freed here) and read until the ACK, NLMSG_DONE (dump) or an
 * error; reply_cb sees each data message and may fail with -errno.
 * Errors read "what: strerror (netlink: extack)".
 */
int ethtool_nl_request(struct ethtool_nl *n, struct nl_msg *msg, bool dump,
		       int (*reply_cb)(const struct nlmsghdr *nlh, void *arg,
				       char *err),
		       void *arg, const char *what, char *err);

/* Parse the attributes of an ethtool reply into tb[0..max]; 0 or -EINVAL. */
int ethtool_nl_parse(const struct nlmsghdr *nlh, struct nlattr **tb, int max);

/* The extack text of an NLMSG_ERROR message, or NULL; *error gets its code. */
const char *ethtool_nl_error_parse(const struct nlmsghdr *nlh, int *error);

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

/* Reset out to "supported, every parameter absent", names filled. */
void ethtool_coalesce_init(struct ethtool_coalesce_params *out);

/* "<driver>" of dev for reasons, falling back to dev itself. */
void ethtool_driver_label(const char *dev, char *out, size_t len);

#endif
