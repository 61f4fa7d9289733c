// SPDX-License-Identifier: GPL-2.0-or-later
/* ethtool-nl.c - the ethtool genl socket: family, requests, replies, extack. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "knobs/ethtool-nl.h"
#include "core/util.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* A reply that does not come within this time is an error, never a hang. */
#define ETHTOOL_NL_TIMEOUT_S 5

struct ethtool_nl {
	struct nl_sock *sk;
	int family;
	char extack[160];
	void (*tap_cb)(const struct nlmsghdr *nlh, void *arg);
	void *tap_arg;
};

/* Set an int socket option on the netlink fd; 0 or -errno. */
static int ethtool_nl_sockopt(struct ethtool_nl *n, int level, int opt,
			      const void *val, socklen_t len)
{
	if (setsockopt(nl_socket_get_fd(n->sk), level, opt, val, len) < 0)
		return -errno;
	return 0;
}

int ethtool_nl_open(struct ethtool_nl **np, char *err)
{
	struct timeval tv = { .tv_sec = ETHTOOL_NL_TIMEOUT_S };
	struct ethtool_nl *n;
	int one = 1;
	int rc;

	*np = NULL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return err_set(err, -ENOMEM, "ethtool netlink: %s",
			       strerror(ENOMEM));
	n->sk = nl_socket_alloc();
	if (!n->sk) {
		free(n);
		return err_set(err, -ENOMEM, "ethtool netlink: %s",
			       strerror(ENOMEM));
	}
	/*
	 * The socket is created here, so it belongs to the network namespace
	 * of the calling thread, and sees only that namespace's devices.
	 */
	rc = genl_connect(n->sk);
	if (rc < 0) {
		rc = err_set(err, -EPROTONOSUPPORT,
			     "ethtool netlink: connect: %s", nl_geterror(rc));
		goto fail;
	}
	/*
	 * libnl's auto-ACK waits for an ACK after a dump that never comes;
	 * requests set NLM_F_ACK themselves and end on ACK or DONE.
	 */
	nl_socket_disable_auto_ack(n->sk);
	nl_socket_enable_msg_peek(n->sk);
	if (ethtool_nl_sockopt(n, SOL_NETLINK, NETLINK_EXT_ACK, &one,
			       sizeof(one)) < 0 ||
	    ethtool_nl_sockopt(n, SOL_NETLINK, NETLINK_CAP_ACK, &one,
			       sizeof(one)) < 0) {
		rc = -errno;
		rc = err_set(err, rc, "ethtool netlink: extended ACK: %s",
			     strerror(-rc));
		goto fail;
	}
	if (ethtool_nl_sockopt(n, SOL_SOCKET, SO_RCVTIMEO, &tv,
			       sizeof(tv)) < 0) {
		rc = -errno;
		rc = err_set(err, rc, "ethtool netlink: receive timeout: %s",
			     strerror(-rc));
		goto fail;
	}
	n->family = genl_ctrl_resolve(n->sk, "ethtool");
	if (n->family < 0) {
		rc = err_set(err, -ENOENT,
			     "ethtool netlink: family \"ethtool\" not found: %s",
			     nl_geterror(n->family));
		goto fail;
	}
	*np = n;
	return 0;
fail:
	nl_socket_free(n->sk);
	free(n);
	return rc;
}

void ethtool_nl_close(struct ethtool_nl *n)
{
	if (!n)
		return;
	nl_socket_free(n->sk);
	free(n);
}

void ethtool_nl_set_tap(struct ethtool_nl *n,
			void (*tap_cb)(const struct nlmsghdr *nlh, void *arg),
			void *arg)
{
	n->tap_cb = tap_cb;
	n->tap_arg = arg;
}

const char *ethtool_nl_extack(const struct ethtool_nl *n)
{
	return n->extack;
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

const char *ethtool_nl_error_parse(const struct nlmsghdr *nlh, int *error)
{
	const struct nlmsgerr *e;
	struct nlattr *tb[16] = { NULL };
	size_t off;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*e)) {
		*error = -EIO;
		return NULL;
	}
	e = nlmsg_data(nlh);
	*error = e->error;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	/* TLVs follow the error and, unless capped, the whole request. */
	off = NLMSG_HDRLEN + sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
	    e->msg.nlmsg_len > NLMSG_HDRLEN)
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	off = NLMSG_ALIGN(off);
	if (off >= nlh->nlmsg_len)
		return NULL;
	if (nla_parse(tb, 15, (struct nlattr *)((char *)nlh + off),
		      (int)(nlh->nlmsg_len - off), NULL) < 0)
		return NULL;
	if (!tb[NLMSGERR_ATTR_MSG] || nla_len(tb[NLMSGERR_ATTR_MSG]) < 1)
		return NULL;
	if (((const char *)nla_data(tb[NLMSGERR_ATTR_MSG]))
		    [nla_len(tb[NLMSGERR_ATTR_MSG]) - 1] != '\0')
		return NULL;
	return nla_data(tb[NLMSGERR_ATTR_MSG]);
}

/* Fill err for a failed request: "what: strerror (netlink: extack)". */
static int ethtool_nl_fail(struct ethtool_nl *n, int code, const char *what,
			   char *err)
{
	if (n->extack[0])
		return err_set(err, code, "%s: %s (netlink: %s)", what,
			       strerror(-code), n->extack);
	return err_set(err, code, "%s: %s", what, strerror(-code));
}

int ethtool_nl_request(struct ethtool_nl *n, struct nl_msg *msg, bool dump,
		       int (*reply_cb)(const struct nlmsghdr *nlh, void *arg,
				       char *err),
		       void *arg, const char *what, char *err)
{
	struct nlmsghdr *req = nlmsg_hdr(msg);
	uint32_t seq;
	int rc;

	n->extack[0] = '\0';
	req->nlmsg_flags |= dump ? NLM_F_DUMP : NLM_F_ACK;
	rc = nl_send_auto(n->sk, msg);
	seq = req->nlmsg_seq;
	nlmsg_free(msg);
	if (rc < 0)
		return err_set(err, -EIO, "%s: send: %s", what,
			       nl_geterror(rc));

	for (;;) {
		struct sockaddr_nl peer;
		unsigned char *buf = NULL;
		struct nlmsghdr *nlh;
		int len;

		len = nl_recv(n->sk, &peer, &buf, NULL);
		if (len <= 0) {
			free(buf);
			if (len == 0 || len == -NLE_AGAIN)
				return err_set(err, -ETIMEDOUT,
					       "%s: no reply from the kernel",
					       what);
			return err_set(err, -EIO, "%s: receive: %s", what,
				       nl_geterror(len));
		}
		for (nlh = (struct nlmsghdr *)buf; nlmsg_ok(nlh, len);
		     nlh = nlmsg_next(nlh, &len)) {
			const char *msgtext;
			int error;

			if (nlh->nlmsg_seq != seq)
				continue;	/* a stale reply */
			if (n->tap_cb)
				n->tap_cb(nlh, n->tap_arg);
			if (nlh->nlmsg_type == NLMSG_DONE) {
				free(buf);
				return 0;
			}
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				msgtext = ethtool_nl_error_parse(nlh, &error);
				if (msgtext)
					snprintf(n->extack, sizeof(n->extack),
						 "%s", msgtext);
				free(buf);
				if (error > 0)
					error = -error;
				if (error)
					return ethtool_nl_fail(n, error, what,
							       err);
				return 0;	/* the ACK */
			}
			if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
				continue;	/* NOOP, OVERRUN */
			if (reply_cb) {
				rc = reply_cb(nlh, arg, err);
				if (rc < 0) {
					free(buf);
					return rc;
				}
			}
		}
		free(buf);
	}
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

void ethtool_driver_label(const char *dev, char *out, size_t len)
{
	char e[ERR_MAX];

	if (ethtool_drvinfo(dev, out, len, e) < 0 || !out[0])
		snprintf(out, len, "%s", dev);
}

/* The device name a reply's header nest carries, or "?" */
static void ethtool_reply_dev(struct nlattr *hdr, char *out, size_t len)
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
	rc = ethtool_nl_request(n, msg, false, family_get_cb, &c, what, err);
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
	rc = ethtool_nl_request(n, msg, false, NULL, NULL, what, err);
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
