// SPDX-License-Identifier: GPL-2.0-or-later
/* netlink.c - one netlink request: send, await reply and ACK, keep extack. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "core/netlink.h"
#include "core/util.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* A reply that does not come within this time is an error, never a hang. */
#define NETLINK_TIMEOUT_S 5

struct netlink {
	struct nl_sock *sk;
	int kerr;		/* -errno of the kernel's last error, 0 if none */
	char extack[160];	/* its extack message, "" if none */
	void (*tap_cb)(const struct nlmsghdr *nlh, void *arg);
	void *tap_arg;
};

int netlink_errno(int nlerr)
{
	switch (nlerr < 0 ? -nlerr : nlerr) {
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_INVAL:
	case NLE_MISSING_ATTR:
		return -EINVAL;
	case NLE_RANGE:
		return -ERANGE;
	case NLE_EXIST:
		return -EEXIST;
	case NLE_PERM:
		return -EPERM;
	case NLE_NOACCESS:
		return -EACCES;
	case NLE_BUSY:
		return -EBUSY;
	case NLE_NODEV:
	case NLE_OBJ_NOTFOUND:
		return -ENODEV;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_PROTO_MISMATCH:
		return -EPROTONOSUPPORT;
	case NLE_AGAIN:
		return -EAGAIN;
	default:
		return -EIO;
	}
}

const char *netlink_error_parse(const struct nlmsghdr *nlh, int *error)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { NULL };
	const struct nlmsgerr *e;
	size_t off;

	if (nlh->nlmsg_type == NLMSG_DONE) {
		/* A dump's end carries its error code, then the TLVs. */
		if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(int)) {
			*error = 0;
			return NULL;
		}
		*error = *(const int *)nlmsg_data(nlh);
		off = NLMSG_HDRLEN + sizeof(int);
	} else {
		if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*e)) {
			*error = -EIO;
			return NULL;
		}
		e = nlmsg_data(nlh);
		*error = e->error;
		/* TLVs follow the error and, unless capped, the whole request. */
		off = NLMSG_HDRLEN + sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
		    e->msg.nlmsg_len > NLMSG_HDRLEN)
			off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	}
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	off = NLMSG_ALIGN(off);
	if (off >= nlh->nlmsg_len)
		return NULL;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX,
		      (struct nlattr *)((char *)nlh + off),
		      (int)(nlh->nlmsg_len - off), NULL) < 0)
		return NULL;
	if (!tb[NLMSGERR_ATTR_MSG] || nla_len(tb[NLMSGERR_ATTR_MSG]) < 1)
		return NULL;
	if (((const char *)nla_data(tb[NLMSGERR_ATTR_MSG]))
		    [nla_len(tb[NLMSGERR_ATTR_MSG]) - 1] != '\0')
		return NULL;
	return nla_data(tb[NLMSGERR_ATTR_MSG]);
}

/* Keep the errno and extack text of an error message on n. */
static void netlink_keep_error(struct netlink *n, const struct nlmsghdr *nlh,
			       int *error)
{
	const char *text = netlink_error_parse(nlh, error);

	if (*error > 0)
		*error = -*error;
	n->kerr = *error;
	snprintf(n->extack, sizeof(n->extack), "%s", text ? text : "");
}

/*
 * libnl's error callback for its own calls on the socket (cache dumps):
 * keep what the kernel said, since libnl 3.7 keeps neither errno nor text.
 */
static int netlink_err_cb(struct sockaddr_nl *who, struct nlmsgerr *e,
			  void *arg)
{
	const struct nlmsghdr *nlh =
		(const struct nlmsghdr *)((const char *)e - NLMSG_HDRLEN);
	int error;

	(void)who;
	netlink_keep_error(arg, nlh, &error);
	return NL_STOP;
}

/* Set a socket option on the netlink fd; 0 or -errno. */
static int netlink_sockopt(struct netlink *n, int level, int opt,
			   const void *val, socklen_t len)
{
	if (setsockopt(nl_socket_get_fd(n->sk), level, opt, val, len) < 0)
		return -errno;
	return 0;
}

int netlink_open(struct netlink **np, int protocol, char *err)
{
	struct timeval tv = { .tv_sec = NETLINK_TIMEOUT_S };
	struct netlink *n;
	struct nl_cb *cb;
	int one = 1, rc;

	*np = NULL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return err_set(err, -ENOMEM, "netlink socket: %s",
			       strerror(ENOMEM));
	n->sk = nl_socket_alloc();
	if (!n->sk) {
		free(n);
		return err_set(err, -ENOMEM, "netlink socket: %s",
			       strerror(ENOMEM));
	}
	/* Made here: the socket belongs to the calling thread's namespace. */
	rc = nl_connect(n->sk, protocol);
	if (rc < 0) {
		rc = err_set(err, netlink_errno(rc), "netlink socket: %s",
			     nl_geterror(rc));
		goto fail;
	}
	nl_socket_disable_auto_ack(n->sk);
	nl_socket_enable_msg_peek(n->sk);
	rc = netlink_sockopt(n, SOL_NETLINK, NETLINK_EXT_ACK, &one,
			     sizeof(one));
	if (!rc)
		rc = netlink_sockopt(n, SOL_NETLINK, NETLINK_CAP_ACK, &one,
				     sizeof(one));
	if (rc) {
		rc = err_set(err, rc, "netlink socket: extended ACK: %s",
			     strerror(-rc));
		goto fail;
	}
	rc = netlink_sockopt(n, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (rc) {
		rc = err_set(err, rc, "netlink socket: receive timeout: %s",
			     strerror(-rc));
		goto fail;
	}
	cb = nl_socket_get_cb(n->sk);
	nl_cb_err(cb, NL_CB_CUSTOM, netlink_err_cb, n);
	nl_cb_put(cb);
	*np = n;
	return 0;
fail:
	nl_socket_free(n->sk);
	free(n);
	return rc;
}

void netlink_close(struct netlink *n)
{
	if (!n)
		return;
	nl_socket_free(n->sk);
	free(n);
}

struct nl_sock *netlink_sock(struct netlink *n)
{
	return n->sk;
}

const char *netlink_extack(const struct netlink *n)
{
	return n->extack;
}

void netlink_reset(struct netlink *n)
{
	n->kerr = 0;
	n->extack[0] = '\0';
}

void netlink_set_tap(struct netlink *n,
		     void (*tap_cb)(const struct nlmsghdr *nlh, void *arg),
		     void *arg)
{
	n->tap_cb = tap_cb;
	n->tap_arg = arg;
}

/* err = "what: strerror (netlink: extack)"; returns code. */
static int netlink_fail_what(struct netlink *n, int code, const char *what,
			     char *err)
{
	if (n->extack[0])
		return err_set(err, code, "%s: %s (netlink: %s)", what,
			       strerror(-code), n->extack);
	return err_set(err, code, "%s: %s", what, strerror(-code));
}

int netlink_fail(struct netlink *n, int nlerr, char *err, const char *fmt,
		 ...)
{
	char what[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (n->kerr)
		return netlink_fail_what(n, n->kerr, what, err);
	return err_set(err, netlink_errno(nlerr), "%s: %s", what,
		       nl_geterror(nlerr));
}

/*
 * Handle the messages of one datagram that belong to request seq: 1 when
 * the request is over (*rc its result), 0 to read on.
 */
static int netlink_handle(struct netlink *n, unsigned char *buf, int len,
			  uint32_t seq, netlink_reply_cb reply_cb, void *arg,
			  const char *what, int *rc, char *err)
{
	struct nlmsghdr *nlh;
	int error;

	for (nlh = (struct nlmsghdr *)buf; nlmsg_ok(nlh, len);
	     nlh = nlmsg_next(nlh, &len)) {
		if (nlh->nlmsg_seq != seq)
			continue;	/* a stale reply */
		if (n->tap_cb)
			n->tap_cb(nlh, n->tap_arg);
		if (nlh->nlmsg_type == NLMSG_DONE ||
		    nlh->nlmsg_type == NLMSG_ERROR) {
			netlink_keep_error(n, nlh, &error);
			*rc = error ? netlink_fail_what(n, error, what, err)
				    : 0;
			return 1;	/* the ACK, the dump's end, or why not */
		}
		if (nlh->nlmsg_type < NLMSG_MIN_TYPE || !reply_cb)
			continue;	/* NOOP, OVERRUN; a reply nobody reads */
		*rc = reply_cb(nlh, arg, err);
		if (*rc < 0)
			return 1;
	}
	return 0;
}

int netlink_request(struct netlink *n, struct nl_msg *msg, bool dump,
		    netlink_reply_cb reply_cb, void *arg, const char *what,
		    char *err)
{
	struct nlmsghdr *req;
	uint32_t seq;
	int rc;

	netlink_reset(n);
	if (!msg)
		return err_set(err, -ENOMEM, "%s: %s", what, strerror(ENOMEM));
	/* Our own ACK on a request; a dump ends on NLMSG_DONE instead. */
	req = nlmsg_hdr(msg);
	req->nlmsg_flags |= dump ? NLM_F_DUMP : NLM_F_ACK;
	rc = nl_send_auto(n->sk, msg);
	seq = req->nlmsg_seq;
	nlmsg_free(msg);
	if (rc < 0)
		return err_set(err, netlink_errno(rc), "%s: send: %s", what,
			       nl_geterror(rc));
	for (;;) {
		struct sockaddr_nl peer;
		unsigned char *buf = NULL;
		int len, done;

		len = nl_recv(n->sk, &peer, &buf, NULL);
		if (len <= 0) {
			free(buf);
			if (len == 0 || len == -NLE_AGAIN)
				return err_set(err, -ETIMEDOUT,
					       "%s: no reply from the kernel",
					       what);
			return err_set(err, netlink_errno(len),
				       "%s: receive: %s", what,
				       nl_geterror(len));
		}
		done = netlink_handle(n, buf, len, seq, reply_cb, arg, what,
				      &rc, err);
		free(buf);
		if (done)
			return rc;
	}
}

struct genl_family_ctx {
	int id;
};

/* Reply callback: the family id of a CTRL_CMD_GETFAMILY reply. */
static int genl_family_cb(const struct nlmsghdr *nlh, void *arg, char *err)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1] = { NULL };
	struct genl_family_ctx *c = arg;

	if (genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, CTRL_ATTR_MAX,
			  NULL) < 0 || !tb[CTRL_ATTR_FAMILY_ID])
		return err_set(err, -EINVAL, "generic netlink: bad family reply");
	c->id = nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	return 0;
}

int netlink_genl_family(struct netlink *n, const char *name, char *err)
{
	struct genl_family_ctx c = { .id = -1 };
	struct nl_msg *msg = nlmsg_alloc();
	char what[96];
	int rc;

	snprintf(what, sizeof(what), "generic netlink: family \"%s\"", name);
	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL,
				 0, 0, CTRL_CMD_GETFAMILY, 1) ||
	    nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, name) < 0) {
		nlmsg_free(msg);
		return err_set(err, -ENOMEM, "%s: %s", what, strerror(ENOMEM));
	}
	rc = netlink_request(n, msg, false, genl_family_cb, &c, what, err);
	if (rc < 0)
		return rc;
	if (c.id < 0)
		return err_set(err, -ENOENT, "%s: not found", what);
	return c.id;
}
