/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lab-internal.h - what the lab's files share: the handle, netlink, owner records. */
#ifndef TT_LAB_INTERNAL_H
#define TT_LAB_INTERNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lab/lab.h"
#include "core/util.h"

#define LAB_NETNS_DIR "/run/netns"	/* where iproute2 looks (ip/ipnetns.c) */

struct netlink;
struct rtnl_link;

/* A lab handle: its name and each side's namespace file and route socket. */
struct lab {
	char name[LAB_NAME_MAX];
	char path[2][PATH_MAX];		/* /run/netns/<name>-a, -b */
	int fd[2];			/* -1: side missing */
	struct netlink *nl[2];		/* route sockets; NULL: side missing */
	bool has6;
	bool made[2];			/* lab_create made this netns file */
	bool claimed;			/* lab_create wrote the owner record */
	bool used;			/* lab_use wrote a user record */
	char note[ERR_MAX];		/* lab_make's lab_reap_note; "" none */
};

/* The veth names, side a then side b: "veth-a", "veth-b" (lab.c). */
extern const char *const lab_dev[2];

/* Look dev up by name inside side s; the link in *out (rtnl_link_put it). */
int lab_link_get(const struct lab *l, int s, const char *dev,
		 struct rtnl_link **out, char *err);

/* The global addresses and root qdisc of side s's veth, and its MTU. */
int lab_side_read(const struct lab *l, int s, struct lab_info *out,
		  char *err);

/* What an owner record says. */
struct lab_owner {
	bool present;
	bool valid;
	bool persistent;
	pid_t pid;
	unsigned long long start;
};

/* True when name is [A-Za-z0-9_.-]{1,40}, not "." or "..", no leading '-'. */
bool lab_owner_name_ok(const char *name);

/* The path of name's owner record: LAB_RECORD_DIR/name (or the test's dir). */
void lab_owner_path(const char *name, char *buf, size_t len);

/* Make the owner record directory (0755) and its parents.  0 or -errno. */
int lab_owner_dir_make(char *err);

/* The directory of the owner records: LAB_RECORD_DIR, or the test's. */
const char *lab_owner_dir(void);

/* Parse name's owner record; r->present is false when there is none. */
void lab_owner_read(const char *name, struct lab_owner *r);

/*
 * Write name's owner record: "owner PID START" for this process, or
 * "persistent"; exclusive claims the name atomically (-EEXIST when taken),
 * else the record is replaced.  0 or -errno.
 */
int lab_owner_write(const char *name, bool persistent, bool exclusive,
		    char *err);

/* Write this process's user record of name (NAME@PID).  0 or -errno. */
int lab_user_write(const char *name, char *err);

/* Remove pid's user record of name, if there is one. */
void lab_user_remove(const char *name, pid_t pid);

/*
 * True when a live process other than this one has a user record of name
 * (its pid in *pid); with purge, remove all of name's user records instead.
 */
bool lab_users_scan(const char *name, bool purge, pid_t *pid);

#endif
