/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lab.h - a private two-host network: two named netns joined by a veth pair. */
#ifndef TT_LAB_H
#define TT_LAB_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * A lab NAME is two namespaces, /run/netns/NAME-a (client side) and
 * /run/netns/NAME-b (server side), visible to `ip netns`, joined by a veth
 * pair "veth-a" <-> "veth-b" that never exists in the host namespace.
 * Addresses are the same in every lab: 198.18.0.1/24 and fd74:7400::1/64 on
 * side a, .2 and ::2 on side b (RFC 2544's benchmarking range and a ULA).
 * Below an MTU of 1280 a lab has no IPv6 (RFC 8200's minimum link MTU).
 *
 * Each lab has an owner record LAB_RECORD_DIR/NAME: "owner PID START" (START
 * is field 22 of /proc/PID/stat, so a reused pid is not taken for the owner)
 * or "persistent SID START" for `tunetop lab up` (SID: the session that ran
 * it; a bare "persistent" from older tunetops names no maker).  A process
 * running in a lab it did not make writes a user record NAME@PID (lab_use).  lab_reap() only ever destroys labs
 * whose record names a dead owner; a namespace pair without a record (another
 * tool's, or one being made right now) is never touched by it.
 */

#define LAB_NAME_MAX 48
#define LAB_NAME_LEN 40			/* longest name lab_create accepts */
#define LAB_MTU_MIN 68			/* IPv4's minimum (RFC 791) */
#define LAB_MTU_MAX 65535		/* veth's maximum */
#define LAB_RATE_MAX (2147483647ull * 8) /* libnl's tbf rate is int bytes/s */
#define LAB_RECORD_DIR "/run/tunetop/labs"

enum lab_side { LAB_A, LAB_B };		/* a = client side, b = server side */

struct lab_opts {
	const char *name;	/* NULL: "tunetop-<pid>" */
	unsigned mtu;		/* 0 = 1500; LAB_MTU_MIN..LAB_MTU_MAX */
	uint64_t rate_bps;	/* 0 = none; else a tbf on both veth ends */
	bool persistent;	/* `tunetop lab up`: no owner, never reaped */
};

/* What `lab status` shows, read back from the kernel. */
struct lab_info {
	char name[LAB_NAME_MAX];
	char netns[2][LAB_NAME_MAX + 4];	/* "<name>-a", "<name>-b" */
	char dev[2][16];			/* "veth-a", "veth-b" */
	char addr4[2][INET_ADDRSTRLEN];		/* without prefix */
	char addr6[2][INET6_ADDRSTRLEN];	/* "" when the lab has none */
	unsigned mtu;				/* of veth-a */
	uint64_t rate_bps;			/* 0 = none, from the qdisc */
	char qdisc[2][32];	/* "tbf 1gbit", or the kind ("noqueue") */
	char offloads[2][96];	/* "tso on, gso on, gro on, sg on, rx-csum on, tx-csum on" */
	pid_t owner;		/* 0 = persistent or no record */
	bool owner_alive;
	bool recorded;		/* false: no owner record (not reaped) */
};

struct lab;

/*
 * Make a lab; all or nothing: a failure tears down what was made.  -EINVAL
 * for a bad name, MTU or rate, -EEXIST for a name in use.
 */
int lab_create(struct lab **lp, const struct lab_opts *o, char *err);

/*
 * Open an existing lab by name; -ENOENT when neither namespace nor record
 * exists.  A half-gone lab opens (so lab_destroy can finish it); its
 * missing side then gives -ENOENT from lab_netns_fd, lab_enter, lab_info.
 */
int lab_open(struct lab **lp, const char *name, char *err);
/*
 * Whether name can be a lab's name; -EINVAL with the accepted form in err
 * otherwise.  Front ends check names given on the command line with it, so
 * a bad one is a usage error (exit 2) before anything is tried.
 */
int lab_name_check(const char *name, char *err);

/* An O_RDONLY fd of a side's namespace, owned by l; -ENOENT if missing. */
int lab_netns_fd(const struct lab *l, enum lab_side side);

/*
 * setns(CLONE_NEWNET) into a side, for the calling thread only; there is no
 * way back but a saved fd of the old namespace, so use a thread of its own.
 */
int lab_enter(const struct lab *l, enum lab_side side, char *err);

/* "198.18.0.2" / "fd74:7400::2"; NULL for a family the lab lacks. */
const char *lab_addr(const struct lab *l, enum lab_side side, int family);

/* The lab's name. */
const char *lab_name(const struct lab *l);

/*
 * Empty the kernel's TCP metrics cache (ip tcp_metrics flush) in both
 * namespaces, so no run inherits what an earlier one left (docs/HACKING.md,
 * "Kernel facts").  0 or -errno.
 */
int lab_flush_tcp_metrics(const struct lab *l, char *err);

/*
 * Change the lab's rate limit on both veth ends (0 removes it), checked
 * like lab_create's --rate.  0 or -errno.
 */
int lab_set_rate(const struct lab *l, uint64_t rate_bps, char *err);

/* One line for outputs: "lab: NAME (veth, MTU 1500, no rate limit)". */
void lab_describe(const struct lab_info *li, char *buf, size_t len);

/* Read the lab back from the kernel through sockets made in each netns. */
int lab_info(const struct lab *l, struct lab_info *out, char *err);

/*
 * Delete both namespaces (the veth goes with them) and the owner record,
 * then free l.  Idempotent on a half-gone lab.  l must not be used after.
 * Threads still inside (lab_enter) and sockets made there keep the kernel's
 * namespace alive, nameless, until they end.
 */
int lab_destroy(struct lab *l, char *err);

/* Free l without destroying the lab. */
void lab_close(struct lab *l);

/*
 * Names of the labs present: every owner record, plus namespace pairs named
 * tunetop-*-a/-b that have none.  Sorted; at most max stored, *n is the
 * number present.
 */
int lab_list(char names[][LAB_NAME_MAX], unsigned max, unsigned *n,
	     char *err);

/*
 * Destroy the labs whose record names a dead owner (gone, or its pid reused
 * by a process with another start time) -- only those: never a persistent
 * lab, a live owner's, or a namespace without a record.  *reaped counts
 * them; names_out (may be NULL) gets a comma list.
 */
int lab_reap(unsigned *reaped, char *names_out, size_t len, char *err);

/*
 * lab_reap, said in one line for a front end: "removed 2 labs left by a
 * process that is gone: tunetop-41,tunetop-77" into buf, or the error when
 * one could not be removed; "" when there was none.  0 or -errno.
 */
int lab_reap_note(char *buf, size_t len);

/*
 * lab_create for a front end: first the labs of dead tunetops go
 * (lab_reap_note), so only making a lab reaps, and a command refused for
 * bad input, or one that makes none, changes nothing.  lab_create itself
 * reaps nothing (the tests make dead owners' labs on purpose).
 */
int lab_make(struct lab **lp, const struct lab_opts *o, char *err);

/* What lab_make removed before making l (lab_reap_note's line), or NULL. */
const char *lab_made_note(const struct lab *l);

/* Who claims a lab, for `lab down --all` (lab_claim_of). */
enum lab_claim {
	LAB_ORPHANED,	/* its owner or maker is gone, nothing runs in it */
	LAB_IN_USE,	/* a live owner or maker, a user record, a process inside */
	LAB_UNOWNED,	/* no record, or no maker in it: taken only by name */
};

struct lab_usage {
	enum lab_claim claim;
	pid_t pid;		/* the owner, maker session, user or process inside */
	char why[160];		/* "its run (pid 4242) is still going" */
};

/*
 * Classify lab name: its owner record first (a live owner or maker session
 * makes it in use), then user records, then every process's threads'
 * network namespaces.  0 or -errno (a bad name).
 */
int lab_claim_of(const char *name, struct lab_usage *u, char *err);

/* Whether `lab down --all` removes a lab so classified (force: in use too). */
bool lab_all_takes(const struct lab_usage *u, bool force);

/*
 * Mark l in use by this process (a user record) until lab_close or
 * lab_destroy, so `lab down --all` leaves it alone.  0 or -errno.
 */
int lab_use(struct lab *l, char *err);

/* Whether this process may make a lab (CAP_NET_ADMIN and CAP_SYS_ADMIN). */
bool lab_privileged(void);

/*
 * Keep owner records in dir instead of LAB_RECORD_DIR (NULL: back to it), so
 * tests reap only their own labs.  Not thread-safe; call before any lab_*.
 */
void lab_set_record_dir(const char *dir);

/*
 * For tests: make every lab_create fail at step ("netns", "veth", "mtu",
 * "addr", "qdisc", "record"; NULL = none again) after the steps before it
 * were done.  "mtu" asks the kernel for an MTU above the veth maximum on
 * side b, so the kernel itself refuses; the others fail with -EIO.
 */
void lab_fail_at(const char *step);

#endif
