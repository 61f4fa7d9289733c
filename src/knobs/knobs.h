/* SPDX-License-Identifier: GPL-2.0-or-later */
/* knobs.h - read, change and snapshot catalog knobs on the host or a lab side. */
#ifndef TT_KNOBS_H
#define TT_KNOBS_H

#include <stdbool.h>

#include <jansson.h>

#include "knobs/catalog.h"
#include "knobs/knob.h"
#include "lab/lab.h"

/*
 * Where a knob is read or set.  dev names the device of device-scope
 * knobs; on a lab side an empty dev means veth-a / veth-b.  A lab side's
 * operations run in a short-lived thread inside the side's namespace, so
 * host devices are never touched for a lab target.
 */
struct knobs_remote;

/*
 * KT_REMOTE is the host of a tunetopd (-H), reached over a link of
 * knobs/knobs-remote.h: tunetopd reads and changes the knob there, on the
 * device its client reached it through, holds and journals it on its host
 * and puts it back when the link closes.
 */
struct knob_target {
	enum { KT_LOCAL, KT_LAB_A, KT_LAB_B, KT_REMOTE } where;
	const struct lab *lab;		/* KT_LAB_*: the open lab */
	struct knobs_remote *remote;	/* KT_REMOTE: the link to tunetopd */
	char dev[32];
	/*
	 * KT_LOCAL of another network namespace (a restore of a journal
	 * entry made there): an fd of it, worked in by a thread of its own
	 * as a lab side is.  false: the calling thread's namespace.
	 */
	bool in_netns;
	int netns_fd;
};

/* "local", "lab-a", "lab-b", "remote". */
const char *knobs_side_name(const struct knob_target *t);

/*
 * Read d on t into v.  What cannot be read here (a driver without it, a
 * host-only knob on a lab side) is v->present false with the reason, and
 * 0.  -errno only for a failure to reach the target at all.
 */
int knobs_get(const struct knob_def *d, const struct knob_target *t,
	      struct knob_value *v, char *err);

/*
 * Why d can never be set (its backend has no set: "read-only (a link
 * figure)"), or NULL for a knob that can: the backend's answer, so a
 * front end refusing a read-only knob need not know its kind.
 */
const char *knobs_read_only(const struct knob_def *d);

/*
 * Whether text may be set on d at t: a valid value (parsed into *val,
 * may be NULL) of a knob that can change there.  -EINVAL/-ERANGE for bad
 * input, -EROFS a read-only figure, -EACCES read-only inside a network
 * namespace, -EOPNOTSUPP host-only on a lab side.  Changes go through a
 * knob transaction (knobs/txn.h).
 */
int knobs_check_set(const struct knob_def *d, const struct knob_target *t,
		    const char *text, struct knob_value *val, char *err);

/*
 * Before a plan (a sweep, a preset, the dashboard's sweeps) runs its first
 * point: whether d can be set to each of texts[0..n-1] on t -- every value
 * checked as knobs_check_set does, and d read there (its value now into
 * *cur, may be NULL).  0, or -errno with one line naming the knob, the end
 * and its device, why, and what that end has of d's group (from catalog c,
 * may be NULL): "adaptive-rx on lab-b (veth-b): veth: coalescing not
 * supported (...); lab-b has no coalescing knob".
 */
int knobs_plan_check(const struct catalog *c, const struct knob_def *d,
		     const struct knob_target *t, const char *const *texts,
		     unsigned n, struct knob_value *cur, char *err);

/*
 * Apply text to d on t and read it back into *after (may be NULL), with
 * no journal: for the knob transaction and for putting journaled
 * originals back, nothing else.
 */
int knobs_apply(const struct knob_def *d, const struct knob_target *t,
		const char *text, struct knob_value *after, char *err);

struct journal_entry;

/* The journal key of d on t (side, lab, device, knob), original text. */
void knobs_journal_key(const struct knob_def *d, const struct knob_target *t,
		       const char *text, struct journal_entry *e);

struct knob_snapshot_item {
	char name[KNOB_NAME_MAX];
	struct knob_value v;
};

struct knob_snapshot {
	char side[8];			/* "local", "lab-a", "lab-b" */
	char dev[32];
	unsigned n;
	struct knob_snapshot_item *item;
};

int knobs_snapshot(const struct catalog *c, const struct knob_target *t,
		   struct knob_snapshot **out, char *err);
void knobs_snapshot_free(struct knob_snapshot *s);

/*
 * Names of knobs whose values differ between a and b (present in one and
 * not the other, or different text); a knob in only one of them counts.
 * At most max stored in names; returns how many differ.
 */
unsigned knobs_snapshot_diff(const struct knob_snapshot *a,
			     const struct knob_snapshot *b,
			     char names[][KNOB_NAME_MAX], unsigned max);

/*
 * Put back every journaled original (journal_restore_all with the knob
 * engine): labs that are gone are dropped, those of a tunetop still
 * running held for it, failures named in failed (a comma list).  0 when
 * every entry was restored, dropped or held, else -EIO.
 */
int knobs_restore_journal(const struct catalog *c, unsigned *restored,
			  unsigned *dropped, unsigned *held, char *failed, unsigned flen,
			  char *err);

/* The members of the two below that a stored result is read back by,
 * named once for the writer and session/result-doc.h's accessors. */
#define KNOBS_KEY_SIDE		"side"
#define KNOBS_KEY_DEV		"dev"
#define KNOBS_KEY_LIST		"knobs"
#define KNOBS_KEY_NAME		"name"
#define KNOBS_KEY_GROUP		"group"
#define KNOBS_KEY_VALUE		"value"
#define KNOBS_KEY_UNIT		"unit"
#define KNOBS_KEY_REASON	"reason"

/* One knob as JSON: {name, group, scope, unit, value (null: n/a), reason}. */
json_t *knobs_knob_to_json(const struct knob_def *d, const char *name,
			   const struct knob_value *v);
/* A snapshot as JSON: {side, dev, knobs: [...]}. */
json_t *knobs_snapshot_to_json(const struct catalog *c, const struct knob_snapshot *s);

/* The device of this namespace's default IPv4 route, or "" when none. */
void knobs_default_dev(char *dev, size_t len);

#endif
