/* SPDX-License-Identifier: GPL-2.0-or-later */
/* netlink.h - one netlink request: send, await reply and ACK, keep extack. */
#ifndef TT_NETLINK_H
#define TT_NETLINK_H

#include <stdbool.h>

struct nl_msg;
struct nl_sock;
struct nlmsghdr;

/*
 * A libnl socket (route or generic netlink) made in the network namespace
 * of the calling thread, with the kernel's extended ACK turned on.  Every
 * request asks for its own ACK and ends on that ACK, NLMSG_DONE or an
 * error (libnl's auto-ACK waits for an ACK after a dump that never comes),
 * and gives up after a few seconds.  Extended ACKs: the kernel's
 * Documentation/userspace-api/netlink/intro.rst.
 */
struct netlink;

/* Reply callback: one data message of a reply; 0 or -errno to stop. */
typedef int (*netlink_reply_cb)(const struct nlmsghdr *nlh, void *arg,
				char *err);

/* Open a socket of protocol (NETLINK_ROUTE, NETLINK_GENERIC); 0 or -errno. */
int netlink_open(struct netlink **np, int protocol, char *err);

/* Close it (NULL is fine). */
void netlink_close(struct netlink *n);

/*
 * The libnl socket, for libnl's own calls (cache dumps): their kernel
 * errors and extack are kept too, for netlink_fail().
 */
struct nl_sock *netlink_sock(struct netlink *n);

/*
 * Send msg (freed here; NULL is -ENOMEM) and read until the ACK,
 * NLMSG_DONE (dump) or an error; reply_cb (may be NULL) sees each data
 * message of the reply.
 * Errors read "what: strerror (netlink: extack)".  0 or -errno.
 */
int netlink_request(struct netlink *n, struct nl_msg *msg, bool dump,
		    netlink_reply_cb reply_cb, void *arg, const char *what,
		    char *err);

/* The id of generic netlink family name ("ethtool"), or -errno. */
int netlink_genl_family(struct netlink *n, const char *name, char *err);

/* The extack message of the last request's error or ACK, "" if none. */
const char *netlink_extack(const struct netlink *n);

/* Forget the kernel's last error before a libnl call of one's own. */
void netlink_reset(struct netlink *n);

/*
 * Fill err with "what: why (netlink: extack)" for a libnl call that
 * failed with libnl error nlerr: the kernel's errno and text when it sent
 * one, else libnl's.  Returns the -errno.
 */
__attribute__((format(printf, 4, 5)))
int netlink_fail(struct netlink *n, int nlerr, char *err, const char *fmt,
		 ...);

/* A libnl error code (negative or not) as a -errno. */
int netlink_errno(int nlerr);

/*
 * The extack text of an NLMSG_ERROR (or a dump's NLMSG_DONE) message, or
 * NULL; *error gets its code.
 */
const char *netlink_error_parse(const struct nlmsghdr *nlh, int *error);

/* Show every message a request receives, errors too, to tap_cb (recording). */
void netlink_set_tap(struct netlink *n,
		     void (*tap_cb)(const struct nlmsghdr *nlh, void *arg),
		     void *arg);

#endif
