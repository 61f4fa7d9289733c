/* SPDX-License-Identifier: GPL-2.0-or-later */
/* journal.h - original knob values, synced to disk before the first change. */
#ifndef TT_JOURNAL_H
#define TT_JOURNAL_H

#include <stddef.h>
#include <sys/types.h>

#include "knobs/knob.h"
#include "lab/lab.h"

/*
 * The journal is STATE_DIR/journal, one line per (side, lab, device,
 * knob): "SIDE LAB DEV KNOB PID START ORIGINAL..." with '-' for no lab or
 * device, PID and START (field 22 of /proc/PID/stat) naming the process
 * that made the change, ORIGINAL the rest of the line.  STATE_DIR is
 * $TUNETOP_STATE_DIR, else $XDG_STATE_HOME/tunetop, else
 * ~/.local/state/tunetop, created mode 0700.
 */

struct journal_entry {
	char side[8];			/* "local", "lab-a", "lab-b" */
	char lab[LAB_NAME_MAX];		/* "" for local */
	char dev[32];			/* "" for a knob without a device */
	char knob[KNOB_NAME_MAX];
	pid_t pid;
	unsigned long long start;
	char text[KNOB_TEXT_MAX];	/* the original value */
};

/* The state directory, made (0700) if missing; 0 or -errno. */
int journal_dir(char *buf, size_t len, char *err);

/*
 * Record e's original value unless the journal already holds an entry for
 * the same side, lab, device and knob (the first original wins).  pid and
 * start are filled in for this process.  The file and its directory are
 * fsync'ed before this returns.  1 when a new entry was written, 0 when
 * one was already there, or -errno.
 */
int journal_record(const char *dir, struct journal_entry *e, char *err);

/*
 * Remove the entry with e's side, lab, device and knob: for a change that
 * was journaled but then refused, so the value never changed.  0 or -errno.
 */
int journal_forget(const char *dir, const struct journal_entry *e, char *err);

/* All entries; *out is malloc'ed (free it), *n their count. */
int journal_load(const char *dir, struct journal_entry **out, unsigned *n,
		 char *err);

/*
 * Put one entry back: 0 restored, -ENOENT nothing to restore any more
 * (its lab is gone), else -errno with err naming why.
 */
typedef int (*journal_restore_cb)(const struct journal_entry *e, void *arg,
				  char *err);

/*
 * Call cb for every entry; entries restored or gone are removed, the rest
 * kept and named in failed ("knob on side: why; ...", may be NULL).
 * Entries of another process still running (a `tunetop run --set`, which
 * puts them back itself) are left alone and counted in held.  A second
 * call after a full restore does nothing.  0 when nothing failed, -EIO
 * when some entry could not be restored, else -errno.
 */
int journal_restore_all(const char *dir, journal_restore_cb cb, void *arg,
			unsigned *restored, unsigned *dropped, unsigned *held,
			char *failed, size_t flen, char *err);

#endif
