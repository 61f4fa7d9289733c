/* SPDX-License-Identifier: GPL-2.0-or-later */
/* backend.h - how a kind of knob is read and set: ops table, run context. */
#ifndef TT_BACKEND_H
#define TT_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/util.h"
#include "knobs/ethtool.h"
#include "knobs/knob.h"
#include "knobs/knobs.h"

struct ethtool_family;
struct netlink;

/*
 * One run of knob operations on one target, inside the target's network
 * namespace (a thread of its own for a lab side).  The sockets are made
 * on first use, in that namespace, and closed by knob_ctx_close().
 */
struct knob_ctx {
	bool in_lab;
	char dev[32];			/* effective device, "" if none */
	struct ethtool_nl *et;
	bool et_tried;
	int et_rc;
	char et_err[ERR_MAX];
	struct ethtool_coalesce_params co;	/* read once per run */
	bool co_read;
	int co_rc;
	char co_err[ERR_MAX];
	struct netlink *rt;
	bool sysfs_tried;
	int sysfs_rc;
	char sysfs_err[ERR_MAX];
};

/*
 * How one kind of knob (enum knob_kind) is read and set.  Either get/set,
 * run inside the target's namespace with a context, or lab_get/lab_set,
 * for a knob of a whole lab (its tbf), run from the caller's thread.
 */
struct knob_backend {
	const char *name;		/* the catalog's kind column */
	/*
	 * Read d into v: 0, with v n/a and the reason when the device has
	 * no such thing; -errno with err when it could not be read (shown
	 * as n/a with err as the reason).
	 */
	int (*get)(struct knob_ctx *c, const struct knob_def *d,
		   struct knob_value *v, char *err);
	/*
	 * Apply a checked value; *took false (with err) when the kernel kept
	 * another one.  NULL: read-only, refused with readonly.
	 */
	int (*set)(struct knob_ctx *c, const struct knob_def *d,
		   const struct knob_value *val, bool *took, char *err);
	const char *readonly;		/* why set is refused */
	int (*lab_get)(const struct knob_def *d, const struct knob_target *t,
		       struct knob_value *v, char *err);
	int (*lab_set)(const struct knob_def *d, const struct knob_target *t,
		       const struct knob_value *val, char *err);
	/* What n/a means off a lab for lab_get/lab_set knobs. */
	const char *lab_only;
	/*
	 * What the catalog takes of this kind (catalog.c asks, so a new kind
	 * needs no code there; docs/knobs.md): NULL for a good where column,
	 * else what is expected; the types (KNOB_TYPE_BIT), and types_why
	 * saying which for another; per_device: the knobs belong to a device
	 * (scope "device"), else to a host or a namespace.
	 */
	const char *(*where_problem)(const char *where);
	unsigned types;
	const char *types_why;
	bool per_device;
};

/* What a kind that holds only numbers says of another type. */
#define KNOB_INT_ONLY "this kind of knob is int"

/* The where check of link and qdisc: a lowercase attribute name. */
const char *knob_where_lower(const char *where);

/* The backend of kind k (every kind has one), NULL past KNOB_KIND_COUNT. */
const struct knob_backend *backend_for(enum knob_kind k);

/* One per kind, each in the file of its concern (ethtool-<family>.c). */
extern const struct knob_backend sysctl_backend;	/* sysctl.c */
extern const struct knob_backend sysfs_backend;		/* sysctl.c */
extern const struct knob_backend ethtool_coalesce_backend;
extern const struct knob_backend ethtool_features_backend;
extern const struct knob_backend ethtool_rings_backend;
extern const struct knob_backend ethtool_channels_backend;
extern const struct knob_backend ethtool_linkinfo_backend;
extern const struct knob_backend link_backend;		/* link.c */
extern const struct knob_backend qdisc_backend;		/* qdisc.c */

/* The context's ethtool socket, opened on first use; 0 or -errno. */
int knob_ctx_ethtool(struct knob_ctx *c, char *err);

/* The context's rtnetlink socket, opened on first use; 0 or -errno. */
int knob_ctx_route(struct knob_ctx *c, char *err);

/* Make /sys show the context's namespace's devices; 0 or -errno. */
int knob_ctx_sysfs(struct knob_ctx *c, char *err);

/*
 * Get or set the attribute of an ethtool message family (rings, channels)
 * that d->where names ("ETHTOOL_A_RINGS_RX_MINI" is ethtool's "rx-mini",
 * "ETHTOOL_A_CHANNELS_RX_COUNT" its "rx"), on the context's device.
 */
int knob_ctx_family_get(struct knob_ctx *c, const struct ethtool_family *fam,
			const struct knob_def *d, struct knob_value *v,
			char *err);
int knob_ctx_family_set(struct knob_ctx *c, const struct ethtool_family *fam,
			const struct knob_def *d, const struct knob_value *val,
			char *err);

/* Close the context's sockets. */
void knob_ctx_close(struct knob_ctx *c);

/* Mark v as n/a with a reason. */
__attribute__((format(printf, 2, 3)))
void knob_value_na(struct knob_value *v, const char *fmt, ...);

/* Fill v from a number the kernel reported, canonical for d's type. */
void knob_value_from_u64(const struct knob_def *d, uint64_t n,
			 struct knob_value *v);

#endif
