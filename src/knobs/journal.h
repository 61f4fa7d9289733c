/* SPDX-License-Identifier: GPL-2.0-or-later */
/* journal.h - original knob values, synced to disk before the first change. */
#ifndef TT_JOURNAL_H
#define TT_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "knobs/knob.h"
#include "lab/lab.h"

/*
 * The journal is STATE_DIR/journal (docs/HACKING.md, "The life of a knob
 * change"): a first line "# tunetop knob journal v3", then one line per
 * (side, lab, network namespace, device, knob):
 *   "SIDE LAB DEV KNOB NETNS PID START TXN WHO ORIGINAL..."
 * with '-' for no lab or device; PID, START (field 22 of /proc/PID/stat)
 * and TXN name the transaction that holds the knob (PID 0: nobody holds
 * it, as after `knobs set`), WHO says what it is ("tunetop_run", spaces
 * as '_'), ORIGINAL is the rest of the line.  NETNS is where a "local"
 * change was made: '-' for the host's own network namespace (pid 1's)
 * and for lab sides (their lab names it), else "INODE:HPID:HSTART:NAME":
 * the namespace's nsfs inode, a process that was in it when the entry
 * was written (HPID HSTART, the oldest one found) and its name under
 * /run/netns ('-' when it has none).  A v2 file ("# ... v2") has no
 * NETNS field, a file without the first line is version 1 ("SIDE LAB
 * DEV KNOB PID START ORIGINAL...", read as held by PID START); both are
 * read as the host's.  STATE_DIR is $TUNETOP_STATE_DIR; else, as root,
 * JOURNAL_HOST_DIR, one journal for every tunetop and tunetopd of the
 * host; else $XDG_STATE_HOME/tunetop or ~/.local/state/tunetop; created
 * mode 0700.
 * Every change of the file is made under an flock of STATE_DIR/journal.lock
 * by every tunetop process and thread.
 */

#define JOURNAL_WHO_MAX 48
#define JOURNAL_HOST_DIR "/run/tunetop"

/*
 * The network namespace of a "local" entry, as a restore from another
 * namespace finds it again: ino 0 is the host's own (pid 1's).
 */
struct journal_netns {
	unsigned long long ino;		/* its nsfs inode; 0: the host's */
	pid_t pid;			/* a process in it when written */
	unsigned long long start;	/* that process's start time */
	char name[LAB_NAME_MAX + 8];	/* under /run/netns, "" when none */
};

struct journal_entry {
	char side[8];			/* "local", "lab-a", "lab-b" */
	char lab[LAB_NAME_MAX];		/* "" for local */
	char dev[32];			/* "" for a knob without a device */
	char knob[KNOB_NAME_MAX];
	pid_t pid;			/* the holder; 0 when none */
	unsigned long long start;
	unsigned long txn;		/* the holder's transaction in its process */
	char who[JOURNAL_WHO_MAX];	/* "tunetop run", "" unknown */
	char text[KNOB_TEXT_MAX];	/* the original value */
	struct journal_netns ns;	/* where a "local" change was made */
};

/* Whether a and b are the same (side, lab, namespace, device, knob). */
bool journal_same_key(const struct journal_entry *a, const struct journal_entry *b);

/*
 * Whether e is held by a live transaction: of another process still
 * running (pid and start time match), or one of this process's still open.
 */
bool journal_entry_held(const struct journal_entry *e);

/*
 * Transactions of this process: a new id, marked open (held entries of
 * an open id are not restored under it), and closed again.
 */
unsigned long journal_txn_open(void);
void journal_txn_close(unsigned long txn);

/*
 * Fill e's holder fields for transaction txn of this process, named who;
 * for an entry of the calling thread's namespace (e->ns.ino, from
 * journal_netns_here) also the process that finds it again.
 */
void journal_set_holder(struct journal_entry *e, unsigned long txn, const char *who);

/*
 * Take e's knob for e's holder: a new entry with e->text as its original
 * when the journal has none (*created true), else the entry's holder
 * becomes e's and its original stays (*created false; the entry as it
 * was in *prev).  -EBUSY, with the live holder in *prev and err naming
 * it, when another live transaction holds it.  Synced before it returns.
 */
int journal_hold(const char *dir, const struct journal_entry *e, bool *created,
		 struct journal_entry *prev, char *err);

/*
 * Give back e's knob, held by e's holder: the entry is removed (drop) or
 * left unheld for `tunetop restore` (!drop).  An entry held by someone
 * else is left alone.  0 or -errno.
 */
int journal_release(const char *dir, const struct journal_entry *e, bool drop,
		    char *err);

/*
 * The network namespace of the calling thread (setns is per thread) into
 * ns: zero for the host's own; else its inode and its name when a file
 * of /run/netns is bound to it (journal_set_holder adds a process).
 */
void journal_netns_here(struct journal_netns *ns);

/*
 * When this thread is in ns's namespace, make ns's process the oldest one
 * in it (the likeliest to outlive this one), for a restore from elsewhere.
 */
void journal_netns_holder(struct journal_netns *ns);

/*
 * Where e goes back, for a restore from anywhere: -ENOENT when that is
 * the calling thread's namespace (work here), else an O_RDONLY fd of it:
 * the host's for an unmarked entry, else by its name (when that file is
 * still bound to the same inode) or its process (when that one still
 * runs in it).  A namespace found neither way is -ESRCH, with why in one
 * line in err ("its network namespace X-b is gone (no /run/netns/X-b,
 * ...)").
 */
int journal_netns_open(const struct journal_entry *e, char *err);

/* "X-b", "inode 4026532301" or "" (the host's) of e, into buf. */
void journal_netns_name(const struct journal_entry *e, char *buf, size_t len);

/* The state directory, made (0700) if missing; 0 or -errno. */
int journal_dir(char *buf, size_t len, char *err);

/*
 * Where earlier versions kept journals that may still hold originals
 * (the user's state directory, tunetopd's /var/lib/tunetop), when they
 * are not journal_dir and hold a journal; none with $TUNETOP_STATE_DIR.
 * How many were written to dirs (at most max).
 */
int journal_legacy_dirs(char dirs[][4096], unsigned max);

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
 * Entries a live transaction holds (journal_entry_held: a `tunetop run
 * --set`, which puts them back itself) are left alone and counted in held.  A second
 * call after a full restore does nothing.  0 when nothing failed, -EIO
 * when some entry could not be restored, else -errno.
 */
int journal_restore_all(const char *dir, journal_restore_cb cb, void *arg,
			unsigned *restored, unsigned *dropped, unsigned *held,
			char *failed, size_t flen, char *err);

#endif
