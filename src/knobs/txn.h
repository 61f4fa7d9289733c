/* SPDX-License-Identifier: GPL-2.0-or-later */
/* txn.h - knob transactions: the one way any code changes a knob. */
#ifndef TT_TXN_H
#define TT_TXN_H

#include <stdbool.h>
#include <stddef.h>

#include "knobs/knob.h"
#include "knobs/knobs.h"

/*
 * A knob transaction (docs/HACKING.md, "The life of a knob change"):
 * before a knob first changes, its original goes to the journal, shared
 * by every tunetop process of the host and locked, with this transaction
 * as its holder; then the value is applied and read back.  Undo puts
 * every knob back to the value this transaction found, newest change
 * first, and an original leaves the journal only when the value read
 * back is really the original.  A knob another live transaction holds is
 * refused (-EBUSY, naming the holder) or waited for (KNOBS_TXN_WAIT).
 * `tunetop run --set`, sweeps, A/B, the dashboard's edits, `knobs set`
 * and tunetopd's remote holds all go through here; a SIGKILL at any
 * point leaves the journal such that `tunetop restore` brings back every
 * original.
 */
struct knobs_txn;

/* Wait for a knob another live transaction holds instead of refusing it. */
#define KNOBS_TXN_WAIT 0x1u

/*
 * A new transaction named who ("tunetop run", "tunetopd session from
 * 10.0.0.2"); flags KNOBS_TXN_*.  0 or -errno (no state directory).
 */
int knobs_txn_begin(struct knobs_txn **out, const char *who, unsigned flags, char *err);

/*
 * While waiting (KNOBS_TXN_WAIT), cb is called every 100 ms; a non-zero
 * return gives up with -EINTR ("interrupted while waiting for ...").
 */
void knobs_txn_set_cancel(struct knobs_txn *x, int (*cb)(void *arg), void *arg);

/*
 * Change d on t to text: validate, hold and journal the original (the
 * first time this transaction changes it), apply, read back into *after
 * (may be NULL); *before (may be NULL) gets the value found before this
 * call.  A value the kernel did not keep is -EIO "set X: asked Y, kernel
 * kept Z".  -EINVAL/-ERANGE for bad input and -EACCES/-EOPNOTSUPP for a
 * knob that cannot change here (nothing done), -EBUSY held by another
 * run, else the kernel's error.  The target's lab must outlive x.
 */
int knobs_txn_set(struct knobs_txn *x, const struct knob_def *d,
		  const struct knob_target *t, const char *text,
		  struct knob_value *before, struct knob_value *after, char *err);

/* Whether x has changed d on t; its value before x into found (may be NULL). */
bool knobs_txn_has(const struct knobs_txn *x, const struct knob_def *d,
		   const struct knob_target *t, char *found, size_t len);

/*
 * What undo did with one knob: was its value before, found the value put
 * back; rc 0 done, else why in err.
 */
typedef void (*knobs_txn_undo_cb)(const struct knob_def *d, const struct knob_target *t,
				  const char *was, const char *found, int rc,
				  const char *err, void *arg);

/*
 * Put d on t back to the value x found and give it up (the dashboard's
 * "back to the original").  0, -ENOENT when x never changed it, else the
 * error (the journal keeps the original for `tunetop restore`).
 */
int knobs_txn_undo_one(struct knobs_txn *x, const struct knob_def *d,
		       const struct knob_target *t, char *err);

/*
 * Put every knob back, newest change first; cb (may be NULL) hears of
 * each.  A knob that could not be put back stays journaled, unheld, so
 * `tunetop restore` can.  0, or -EIO when one failed.
 */
int knobs_txn_undo(struct knobs_txn *x, knobs_txn_undo_cb cb, void *arg);

/*
 * Keep the changes: the originals stay in the journal for a later
 * `tunetop restore`, no longer held; a knob whose value is its original
 * again leaves the journal.  0 or -errno.
 */
int knobs_txn_keep(struct knobs_txn *x, char *err);

/* How many knobs x has changed and not yet put back. */
unsigned knobs_txn_count(const struct knobs_txn *x);

/* Free x; changes still held are kept journaled for `tunetop restore`. */
void knobs_txn_free(struct knobs_txn *x);

#endif
