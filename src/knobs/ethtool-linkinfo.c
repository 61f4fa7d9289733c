// SPDX-License-Identifier: GPL-2.0-or-later
/* ethtool-linkinfo.c - read-only link figures (ethtool DEV): speed, duplex, autoneg, link, port. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <linux/ethtool.h>
#include <linux/genetlink.h>

#include "knobs/backend.h"
#include "knobs/ethtool-nl.h"
#include "core/util.h"

/* How the attribute's number becomes a canonical value. */
enum linkinfo_decode {
	LINKINFO_SPEED,		/* u32 Mb/s; 0 and SPEED_UNKNOWN are not a speed */
	LINKINFO_DUPLEX,	/* u8 DUPLEX_HALF/FULL; DUPLEX_UNKNOWN is n/a */
	LINKINFO_BOOL,		/* u8 0/1 -> off/on */
	LINKINFO_PORT,		/* u8 PORT_* -> ethtool -s port words */
};

/* One figure: its name, the catalog's attribute name, and its message. */
struct linkinfo_attr {
	const char *name;
	const char *attr;
	const char *what;	/* the message family in reasons */
	uint8_t get_cmd, reply_cmd;
	uint16_t hdr_attr, type;
	uint32_t flags;
	enum linkinfo_decode decode;
};

static const struct linkinfo_attr linkinfo_attrs[] = {
	{ "speed", "ETHTOOL_A_LINKMODES_SPEED", "link modes",
	  ETHTOOL_MSG_LINKMODES_GET, ETHTOOL_MSG_LINKMODES_GET_REPLY,
	  ETHTOOL_A_LINKMODES_HEADER, ETHTOOL_A_LINKMODES_SPEED,
	  ETHTOOL_FLAG_COMPACT_BITSETS, LINKINFO_SPEED },
	{ "duplex", "ETHTOOL_A_LINKMODES_DUPLEX", "link modes",
	  ETHTOOL_MSG_LINKMODES_GET, ETHTOOL_MSG_LINKMODES_GET_REPLY,
	  ETHTOOL_A_LINKMODES_HEADER, ETHTOOL_A_LINKMODES_DUPLEX,
	  ETHTOOL_FLAG_COMPACT_BITSETS, LINKINFO_DUPLEX },
	{ "autoneg", "ETHTOOL_A_LINKMODES_AUTONEG", "link modes",
	  ETHTOOL_MSG_LINKMODES_GET, ETHTOOL_MSG_LINKMODES_GET_REPLY,
	  ETHTOOL_A_LINKMODES_HEADER, ETHTOOL_A_LINKMODES_AUTONEG,
	  ETHTOOL_FLAG_COMPACT_BITSETS, LINKINFO_BOOL },
	{ "link-detected", "ETHTOOL_A_LINKSTATE_LINK", "link state",
	  ETHTOOL_MSG_LINKSTATE_GET, ETHTOOL_MSG_LINKSTATE_GET_REPLY,
	  ETHTOOL_A_LINKSTATE_HEADER, ETHTOOL_A_LINKSTATE_LINK,
	  0, LINKINFO_BOOL },
	{ "port", "ETHTOOL_A_LINKINFO_PORT", "link info",
	  ETHTOOL_MSG_LINKINFO_GET, ETHTOOL_MSG_LINKINFO_GET_REPLY,
	  ETHTOOL_A_LINKINFO_HEADER, ETHTOOL_A_LINKINFO_PORT,
	  0, LINKINFO_PORT },
};

#define LINKINFO_NATTRS (sizeof(linkinfo_attrs) / sizeof(linkinfo_attrs[0]))

/* The figure called name ("speed") or attribute name, or NULL. */
static const struct linkinfo_attr *linkinfo_find(const char *name)
{
	for (unsigned i = 0; i < LINKINFO_NATTRS; i++)
		if (!strcmp(linkinfo_attrs[i].name, name) ||
		    !strcmp(linkinfo_attrs[i].attr, name))
			return &linkinfo_attrs[i];
	return NULL;
}

/* The word `ethtool -s DEV port` uses for a PORT_* value. */
static const char *port_word(unsigned port)
{
	switch (port) {
	case PORT_TP:
		return "tp";
	case PORT_AUI:
		return "aui";
	case PORT_MII:
		return "mii";
	case PORT_FIBRE:
		return "fibre";
	case PORT_BNC:
		return "bnc";
	case PORT_DA:
		return "da";
	case PORT_NONE:
		return "none";
	case PORT_OTHER:
		return "other";
	default:
		return NULL;
	}
}

/* Mark v n/a: "<label>: <name> not reported". */
static void linkinfo_na(struct knob_value *v, const char *label,
			const struct linkinfo_attr *a)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->reason, sizeof(v->reason), "%s: %s not reported", label,
		 a->name);
}

/* Fill v with a present value: text and the number behind it. */
static void linkinfo_set(struct knob_value *v, const char *text, int64_t num)
{
	memset(v, 0, sizeof(*v));
	v->present = true;
	v->num[0] = num;
	snprintf(v->text, sizeof(v->text), "%s", text);
}

/* Decode attribute a of a parsed reply into v; label names the device. */
static void linkinfo_decode(const struct linkinfo_attr *a, struct nlattr **tb,
			    const char *label, struct knob_value *v)
{
	struct nlattr *at = tb[a->type];
	char buf[32];
	uint32_t val;
	const char *w;

	if (!at || nla_len(at) < (a->decode == LINKINFO_SPEED ? 4 : 1)) {
		linkinfo_na(v, label, a);
		return;
	}
	val = a->decode == LINKINFO_SPEED ? nla_get_u32(at) : nla_get_u8(at);
	switch (a->decode) {
	case LINKINFO_SPEED:
		/*
		 * The ethtool tool's rule: 0, SPEED_UNKNOWN and the old u16
		 * -1 are "Unknown!", never a speed of 0 or 4294967295.
		 */
		if (val == 0 || val == (uint32_t)SPEED_UNKNOWN ||
		    val == 0xffff || val > INT_MAX) {
			linkinfo_na(v, label, a);
			return;
		}
		snprintf(buf, sizeof(buf), "%u", val);
		linkinfo_set(v, buf, val);
		return;
	case LINKINFO_DUPLEX:
		if (val == DUPLEX_HALF)
			linkinfo_set(v, "half", val);
		else if (val == DUPLEX_FULL)
			linkinfo_set(v, "full", val);
		else
			linkinfo_na(v, label, a);
		return;
	case LINKINFO_BOOL:
		linkinfo_set(v, val ? "on" : "off", val != 0);
		return;
	case LINKINFO_PORT:
		w = port_word(val);
		if (w) {
			linkinfo_set(v, w, val);
		} else {
			snprintf(buf, sizeof(buf), "port-%u", val);
			linkinfo_set(v, buf, val);
		}
		return;
	}
}

/*
 * Parse one reply for figure a; label NULL names the device from the
 * reply's own header.  -EINVAL for a malformed reply or another message.
 */
static int linkinfo_parse(const struct linkinfo_attr *a,
			  const struct nlmsghdr *nlh, const char *label,
			  struct knob_value *v, char *err)
{
	struct nlattr *tb[TT_ETHTOOL_PARSE_MAX + 1] = { NULL };
	const struct genlmsghdr *g;
	char dev[64];

	memset(v, 0, sizeof(*v));
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return err_set(err, -EINVAL, "%s reply: truncated", a->what);
	g = nlmsg_data(nlh);
	if (g->cmd != a->reply_cmd)
		return err_set(err, -EINVAL,
			       "%s reply: got genl command %u, expected %u",
			       a->what, g->cmd, a->reply_cmd);
	if (ethtool_nl_parse(nlh, tb, TT_ETHTOOL_PARSE_MAX) < 0)
		return err_set(err, -EINVAL, "%s reply: malformed", a->what);
	if (!label) {
		ethtool_reply_dev(tb[a->hdr_attr], dev, sizeof(dev));
		label = dev;
	}
	linkinfo_decode(a, tb, label, v);
	return 0;
}

int ethtool_linkinfo_parse(const struct nlmsghdr *nlh, const char *name,
			   struct knob_value *v, char *err)
{
	const struct linkinfo_attr *a = linkinfo_find(name);

	memset(v, 0, sizeof(*v));
	if (!a)
		return err_set(err, -ENOENT, "link: no link figure called %s",
			       name);
	return linkinfo_parse(a, nlh, NULL, v, err);
}

struct linkinfo_ctx {
	const struct linkinfo_attr *a;
	const char *label;
	struct knob_value *v;
	bool got;
};

/* Reply callback: decode the one GET reply into the caller's value. */
static int linkinfo_get_cb(const struct nlmsghdr *nlh, void *arg, char *err)
{
	struct linkinfo_ctx *c = arg;

	c->got = true;
	return linkinfo_parse(c->a, nlh, c->label, c->v, err);
}

int ethtool_linkinfo_get(struct ethtool_nl *n, const char *dev,
			 const char *name, struct knob_value *v, char *err)
{
	const struct linkinfo_attr *a = linkinfo_find(name);
	struct linkinfo_ctx c = { .a = a, .v = v };
	char what[128], drv[64];
	struct nl_msg *msg;
	int rc;

	memset(v, 0, sizeof(*v));
	if (!a)
		return err_set(err, -ENOENT, "%s: no link figure called %s",
			       dev, name);
	/* Reasons name the driver ("veth: speed not reported"). */
	ethtool_driver_label(dev, drv, sizeof(drv));
	c.label = drv;
	msg = ethtool_nl_msg(n, a->get_cmd, a->hdr_attr, dev, a->flags);
	if (!msg)
		return err_set(err, -ENOMEM, "%s: %s: %s", dev, a->what,
			       strerror(ENOMEM));
	snprintf(what, sizeof(what), "%s: get %s", dev, a->what);
	rc = netlink_request(n->nl, msg, false, linkinfo_get_cb, &c, what, err);
	if (rc == -EOPNOTSUPP) {
		/* No link settings at all (lo): n/a with the reason, not 0. */
		memset(v, 0, sizeof(*v));
		snprintf(v->reason, sizeof(v->reason),
			 "%s: %s not supported (%s)", drv, a->what,
			 strerror(EOPNOTSUPP));
		return 0;
	}
	if (rc < 0)
		return rc;
	if (!c.got)
		return err_set(err, -EIO, "%s: the kernel sent no reply", what);
	return 0;
}

/* Backend: a link figure of the run's device; read-only. */
static int linkinfo_knob_get(struct knob_ctx *c, const struct knob_def *d,
			     struct knob_value *v, char *err)
{
	int rc = knob_ctx_ethtool(c, err);

	return rc ? rc : ethtool_linkinfo_get(c->et, c->dev, d->where, v, err);
}

/* The catalog's where column: a LINKMODES, LINKSTATE or LINKINFO attribute. */
static const char *linkinfo_where_problem(const char *w)
{
	return (!strncmp(w, "ETHTOOL_A_LINKMODES_", 20) ||
		!strncmp(w, "ETHTOOL_A_LINKSTATE_", 20) ||
		!strncmp(w, "ETHTOOL_A_LINKINFO_", 19)) &&
	       w[strlen(w) - 1] != '_' && knob_chars_ok(w, "_") ? NULL :
		"an ETHTOOL_A_LINKMODES_*, _LINKSTATE_* or _LINKINFO_* attribute name is expected";
}

const struct knob_backend ethtool_linkinfo_backend = {
	.name = "linkinfo",
	.where_problem = linkinfo_where_problem,
	.types = KNOB_TYPE_BIT(KNOB_INT) | KNOB_TYPE_BIT(KNOB_BOOL) |
		 KNOB_TYPE_BIT(KNOB_STRING),
	.types_why = "a linkinfo knob is int, bool or string",
	.per_device = true,
	.get = linkinfo_knob_get,
	.readonly = "read-only (a link figure)",
};
