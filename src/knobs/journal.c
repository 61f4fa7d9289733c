// SPDX-License-Identifier: GPL-2.0-or-later
/* journal.c - original knob values, synced to disk before the first change. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/procstat.h"
#include "knobs/journal.h"
#include "core/util.h"

/* dir, made (0700) if missing, into buf; 0 or -errno. */
static int state_dir_at(char *buf, size_t len, int n, char *err)
{
	int rc;

	if (n < 0 || (size_t)n >= len)
		return err_set(err, -ENAMETOOLONG, "journal: state directory path too long");
	rc = util_mkdir_p(buf);
	if (rc)
		return err_set(err, rc, "journal: %s: %s", buf, strerror(-rc));
	return 0;
}

/* The user's own state directory ($XDG_STATE_HOME/tunetop, ~/.local/state/tunetop). */
static int user_state_dir(char *buf, size_t len, char *err)
{
	const char *e;

	if ((e = getenv("XDG_STATE_HOME")) && *e)
		return state_dir_at(buf, len, snprintf(buf, len, "%s/tunetop", e), err);
	if ((e = getenv("HOME")) && *e)
		return state_dir_at(buf, len, snprintf(buf, len, "%s/.local/state/tunetop", e),
				    err);
	return err_set(err, -ENOENT, "journal: no state directory: set TUNETOP_STATE_DIR or HOME");
}

int journal_dir(char *buf, size_t len, char *err)
{
	const char *e = getenv("TUNETOP_STATE_DIR");

	if (e && *e)
		return state_dir_at(buf, len, snprintf(buf, len, "%s", e), err);
	/*
	 * As root, one journal for the host: every tunetop and tunetopd sees
	 * every other's holds, whatever its HOME.  In /run, as the values it
	 * keeps do not outlive a reboot either.
	 */
	if (geteuid() == 0)
		return state_dir_at(buf, len, snprintf(buf, len, "%s", JOURNAL_HOST_DIR), err);
	return user_state_dir(buf, len, err);
}

int journal_legacy_dirs(char dirs[][4096], unsigned max)
{
	char d[4096], err[ERR_MAX], cur[4096];
	const char *cands[2] = { NULL, "/var/lib/tunetop" };
	unsigned n = 0;

	if (journal_dir(cur, sizeof(cur), err))
		return 0;
	if (getenv("TUNETOP_STATE_DIR") && *getenv("TUNETOP_STATE_DIR"))
		return 0;
	if (user_state_dir(d, sizeof(d), err) == 0)
		cands[0] = d;
	for (unsigned i = 0; i < 2 && n < max; i++) {
		char path[4200];

		if (!cands[i] || !strcmp(cands[i], cur))
			continue;
		snprintf(path, sizeof(path), "%s/journal", cands[i]);
		if (access(path, F_OK) == 0)
			snprintf(dirs[n++], 4096, "%s", cands[i]);
	}
	return (int)n;
}

/* Take the journal's lock (DIR/journal.lock); the fd, or -errno. */
static int journal_lock(const char *dir, char *err)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/journal.lock", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return err_set(err, -errno, "journal: %s: %s", path, strerror(errno));
	if (flock(fd, LOCK_EX)) {
		int rc = -errno;

		close(fd);
		return err_set(err, rc, "journal: lock %s: %s", path, strerror(-rc));
	}
	return fd;
}

/* A field as written: '-' for empty. */
static const char *field(const char *s)
{
	return *s ? s : "-";
}

#define JOURNAL_HEADER_V "# tunetop knob journal v"
#define JOURNAL_VERSION 3

/* who as a field: spaces become '_', nothing empty. */
static void who_field(const char *who, char *out, size_t len)
{
	size_t i;

	snprintf(out, len, "%s", *who ? who : "-");
	for (i = 0; out[i]; i++)
		if (out[i] == ' ' || out[i] == '\t' || out[i] == '\n')
			out[i] = '_';
}

/* The NETNS field of a v3 line into ns; 0, or -EINVAL. */
static int parse_netns(const char *f, struct journal_netns *ns)
{
	int pid, off = 0;

	memset(ns, 0, sizeof(*ns));
	if (!strcmp(f, "-"))
		return 0;
	if (sscanf(f, "%llu:%d:%llu:%n", &ns->ino, &pid, &ns->start, &off) != 3 || !off ||
	    !ns->ino || !f[off])
		return -EINVAL;
	ns->pid = pid;
	if (strcmp(f + off, "-"))
		snprintf(ns->name, sizeof(ns->name), "%s", f + off);
	return 0;
}

/* Parse one journal line (version v) into e; 0, or -EINVAL for a line not ours. */
static int parse_line(char *line, int v, struct journal_entry *e)
{
	char side[8], lab[LAB_NAME_MAX], dev[32], knob[KNOB_NAME_MAX];
	char who[JOURNAL_WHO_MAX] = "-", netns[128] = "-";
	struct journal_netns ns;
	unsigned long long start;
	unsigned long txn = 0;
	int pid, off = 0;

	line[strcspn(line, "\n")] = '\0';
	if (v == 1) {
		if (sscanf(line, "%7s %47s %31s %63s %d %llu %n", side, lab, dev, knob,
			   &pid, &start, &off) != 6 || !off)
			return -EINVAL;
	} else if (v == 2) {
		if (sscanf(line, "%7s %47s %31s %63s %d %llu %lu %47s %n", side, lab, dev,
			   knob, &pid, &start, &txn, who, &off) != 8 || !off)
			return -EINVAL;
	} else if (sscanf(line, "%7s %47s %31s %63s %127s %d %llu %lu %47s %n", side, lab,
			  dev, knob, netns, &pid, &start, &txn, who, &off) != 9 || !off) {
		return -EINVAL;
	}
	if (parse_netns(netns, &ns))
		return -EINVAL;
	memset(e, 0, sizeof(*e));
	e->ns = ns;
	snprintf(e->side, sizeof(e->side), "%s", side);
	snprintf(e->lab, sizeof(e->lab), "%s", strcmp(lab, "-") ? lab : "");
	snprintf(e->dev, sizeof(e->dev), "%s", strcmp(dev, "-") ? dev : "");
	snprintf(e->knob, sizeof(e->knob), "%s", knob);
	e->pid = pid;
	e->start = start;
	e->txn = txn;
	if (strcmp(who, "-"))
		for (unsigned i = 0; who[i] && i + 1 < sizeof(e->who); i++)
			e->who[i] = who[i] == '_' ? ' ' : who[i];
	snprintf(e->text, sizeof(e->text), "%s", line + off);
	return 0;
}

int journal_load(const char *dir, struct journal_entry **out, unsigned *n,
		 char *err)
{
	char path[PATH_MAX], line[512];
	struct journal_entry *a = NULL, e;
	unsigned cnt = 0, cap = 0;
	int version = 1;
	FILE *f;

	*out = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "%s/journal", dir);
	f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		return err_set(err, -errno, "journal: %s: %s", path, strerror(errno));
	}
	while (fgets(line, sizeof(line), f)) {
		/* v2 and v3 files say so; a later version's are not ours to
		 * read, nor to rewrite without its entries. */
		if (!strncmp(line, JOURNAL_HEADER_V, strlen(JOURNAL_HEADER_V))) {
			version = atoi(line + strlen(JOURNAL_HEADER_V));
			if (version > JOURNAL_VERSION) {
				fclose(f);
				free(a);
				return err_set(err, -EPROTO, "journal: %s is version %d, newer than this tunetop's %d: restore with that tunetop",
					       path, version, JOURNAL_VERSION);
			}
			continue;
		}
		if (parse_line(line, version, &e))
			continue;
		if (cnt == cap) {
			struct journal_entry *na;

			cap = cap ? cap * 2 : 16;
			na = realloc(a, cap * sizeof(*a));
			if (!na) {
				free(a);
				fclose(f);
				return err_set(err, -ENOMEM, "journal: out of memory");
			}
			a = na;
		}
		a[cnt++] = e;
	}
	fclose(f);
	*out = a;
	*n = cnt;
	return 0;
}

/* fsync a directory so a rename or unlink in it is on disk. */
static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd))
		rc = -errno;
	close(fd);
	return rc;
}

/* Replace the journal with a[0..n) atomically, file and directory synced. */
static int journal_write(const char *dir, const struct journal_entry *a,
			 unsigned n, char *err)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/journal", dir);
	if (n == 0) {
		if (unlink(path) && errno != ENOENT)
			return err_set(err, -errno, "journal: %s: %s", path, strerror(errno));
		rc = sync_dir(dir);
		return rc ? err_set(err, rc, "journal: sync %s: %s", dir, strerror(-rc)) : 0;
	}
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "we");
	if (!f)
		return err_set(err, -errno, "journal: %s: %s", tmp, strerror(errno));
	fchmod(fileno(f), 0600);
	fprintf(f, "%s%d\n", JOURNAL_HEADER_V, JOURNAL_VERSION);
	for (unsigned i = 0; i < n; i++) {
		char who[JOURNAL_WHO_MAX], netns[128] = "-";
		const struct journal_netns *ns = &a[i].ns;

		who_field(a[i].who, who, sizeof(who));
		if (ns->ino)
			snprintf(netns, sizeof(netns), "%llu:%d:%llu:%s", ns->ino, (int)ns->pid,
				 ns->start, field(ns->name));
		fprintf(f, "%s %s %s %s %s %d %llu %lu %s %s\n", a[i].side, field(a[i].lab),
			field(a[i].dev), a[i].knob, netns, (int)a[i].pid, a[i].start,
			a[i].txn, who, a[i].text);
	}
	if (fflush(f) || fsync(fileno(f)))
		rc = -errno;
	if (fclose(f) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (!rc)
		rc = sync_dir(dir);
	if (rc) {
		unlink(tmp);
		return err_set(err, rc, "journal: write %s: %s", path, strerror(-rc));
	}
	return 0;
}

/*
 * The name of the network namespace e's change was made in, whichever way
 * it was reached: a lab side is the namespace "LAB-a"/"LAB-b" (lab.h), as
 * is a "local" change made by a process in that namespace (`ip netns exec
 * LAB-b tunetop knobs set`); "" for a nameless one and for the host's.
 */
static void place_name(const struct journal_entry *e, char *buf, size_t len)
{
	if (!strcmp(e->side, "lab-a") || !strcmp(e->side, "lab-b"))
		snprintf(buf, len, "%s-%c", e->lab, e->side[4]);
	else if (!strcmp(e->side, "local"))
		snprintf(buf, len, "%s", e->ns.ino ? e->ns.name : "");
	else
		buf[0] = '\0';
}

bool journal_same_key(const struct journal_entry *a, const struct journal_entry *b)
{
	char pa[LAB_NAME_MAX + 8], pb[LAB_NAME_MAX + 8];

	if (strcmp(a->dev, b->dev) || strcmp(a->knob, b->knob))
		return false;
	if (!strcmp(a->side, b->side) && !strcmp(a->lab, b->lab) &&
	    a->ns.ino == b->ns.ino && !strcmp(a->ns.name, b->ns.name))
		return true;
	/* One namespace by two spellings: --side lab-b and a local change
	 * inside LAB-b.  A remote side is another host's: never the same. */
	place_name(a, pa, sizeof(pa));
	place_name(b, pb, sizeof(pb));
	return *pa && !strcmp(pa, pb);
}

/* Whether e's fields can be written as one journal line. */
static bool journalable(const struct journal_entry *e)
{
	return *e->side && *e->knob && !strpbrk(e->text, "\n") &&
	       !strpbrk(e->ns.name, " \t\n") &&
	       !strpbrk(e->side, " \t\n") && !strpbrk(e->lab, " \t\n") &&
	       !strpbrk(e->dev, " \t\n") && !strpbrk(e->knob, " \t\n");
}

/*
 * The open transactions of this process.  A fixed table: a process holds
 * a handful at most (a run, a dashboard, a tunetopd session each).
 */
#define JOURNAL_TXN_MAX 256
static pthread_mutex_t txn_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long txn_next = 1;
static unsigned long txn_open_ids[JOURNAL_TXN_MAX];

unsigned long journal_txn_open(void)
{
	unsigned long id;

	pthread_mutex_lock(&txn_lock);
	id = txn_next++;
	for (unsigned i = 0; i < JOURNAL_TXN_MAX; i++)
		if (!txn_open_ids[i]) {
			txn_open_ids[i] = id;
			break;
		}
	pthread_mutex_unlock(&txn_lock);
	return id;
}

void journal_txn_close(unsigned long txn)
{
	pthread_mutex_lock(&txn_lock);
	for (unsigned i = 0; i < JOURNAL_TXN_MAX; i++)
		if (txn_open_ids[i] == txn)
			txn_open_ids[i] = 0;
	pthread_mutex_unlock(&txn_lock);
}

/* Whether transaction txn of this process is open. */
static bool txn_is_open(unsigned long txn)
{
	bool open = false;

	pthread_mutex_lock(&txn_lock);
	for (unsigned i = 0; i < JOURNAL_TXN_MAX && !open; i++)
		open = txn && txn_open_ids[i] == txn;
	pthread_mutex_unlock(&txn_lock);
	return open;
}

bool journal_entry_held(const struct journal_entry *e)
{
	if (e->pid <= 0)
		return false;
	if (e->pid == getpid())
		return txn_is_open(e->txn);
	return procstat_alive(e->pid, e->start);
}

void journal_set_holder(struct journal_entry *e, unsigned long txn, const char *who)
{
	char state;

	e->pid = getpid();
	if (procstat_start(e->pid, &state, &e->start))
		e->start = 0;
	e->txn = txn;
	snprintf(e->who, sizeof(e->who), "%s", who ? who : "");
	journal_netns_holder(&e->ns);
}

/* Whether a is held by exactly e's holder. */
static bool same_holder(const struct journal_entry *a, const struct journal_entry *e)
{
	return a->pid == e->pid && a->start == e->start && a->txn == e->txn;
}

/* "net.ipv4.tcp_reordering on lab-b of X", "... on local in X-b" into buf. */
static void entry_name(const struct journal_entry *e, char *buf, size_t len)
{
	char ns[80];

	journal_netns_name(e, ns, sizeof(ns));
	snprintf(buf, len, "%s%s%s on %s%s%s%s%s", e->knob, *e->dev ? " of " : "", e->dev,
		 e->side, *e->lab ? " of lab " : "", e->lab, *ns ? " in " : "", ns);
}

/*
 * Change the journal under its lock: edit gets the entries (it may
 * realloc *a and change *n) and returns 1 to have them written, 0 to
 * leave the file as it is, or -errno.  Every change of the journal goes
 * through here.
 */
typedef int (*journal_edit_fn)(struct journal_entry **a, unsigned *n, void *arg,
			       char *err);

static int journal_edit(const char *dir, journal_edit_fn edit, void *arg, char *err)
{
	struct journal_entry *a;
	unsigned n;
	int lock, rc;

	lock = journal_lock(dir, err);
	if (lock < 0)
		return lock;
	rc = journal_load(dir, &a, &n, err);
	if (rc == 0) {
		rc = edit(&a, &n, arg, err);
		if (rc > 0)
			rc = journal_write(dir, a, n, err);
	}
	free(a);
	close(lock);
	return rc;
}

struct hold_args {
	const struct journal_entry *e;
	bool *created;
	struct journal_entry *prev;
};

/* journal_hold's edit: adopt the entry or add one; -EBUSY when held. */
static int hold_edit(struct journal_entry **a, unsigned *n, void *arg, char *err)
{
	struct hold_args *h = arg;
	struct journal_entry *x = *a, *na;
	unsigned i;

	for (i = 0; i < *n && !journal_same_key(&x[i], h->e); i++)
		;
	if (i < *n) {
		*h->prev = x[i];
		*h->created = false;
		if (!same_holder(&x[i], h->e) && journal_entry_held(&x[i])) {
			char name[256];

			entry_name(h->e, name, sizeof(name));
			return err_set(err, -EBUSY, "%s: held by %s (pid %d) until it ends; accepted: wait for it (--wait) or change another knob",
				       name, *x[i].who ? x[i].who : "another tunetop",
				       (int)x[i].pid);
		}
		snprintf(x[i].who, sizeof(x[i].who), "%s", h->e->who);
		x[i].pid = h->e->pid;
		x[i].start = h->e->start;
		x[i].txn = h->e->txn;
		/* The namespace is the same (the key says so); the process
		 * that finds it again is the newest writer's.  An entry
		 * spelt as a lab side keeps its spelling: its lab names it. */
		if (!strcmp(x[i].side, h->e->side))
			x[i].ns = h->e->ns;
		return 1;
	}
	na = realloc(x, (*n + 1) * sizeof(*x));
	if (!na)
		return err_set(err, -ENOMEM, "journal: out of memory");
	na[(*n)++] = *h->e;
	*a = na;
	*h->created = true;
	return 1;
}

int journal_hold(const char *dir, const struct journal_entry *e, bool *created,
		 struct journal_entry *prev, char *err)
{
	struct hold_args h = { .e = e, .created = created, .prev = prev };

	if (!journalable(e) || e->pid <= 0)
		return err_set(err, -EINVAL, "journal: %s: cannot be journaled", e->knob);
	return journal_edit(dir, hold_edit, &h, err);
}

struct release_args {
	const struct journal_entry *e;
	bool drop;
};

/* journal_release's edit: drop or unhold e's entry if e's holder has it. */
static int release_edit(struct journal_entry **a, unsigned *n, void *arg, char *err)
{
	struct release_args *r = arg;
	struct journal_entry *x = *a;
	unsigned keep = 0;
	bool changed = false;

	(void)err;
	for (unsigned i = 0; i < *n; i++) {
		if (journal_same_key(&x[i], r->e) && same_holder(&x[i], r->e)) {
			changed = true;
			if (r->drop)
				continue;
			x[i].pid = 0;
			x[i].start = 0;
			x[i].txn = 0;
			x[i].who[0] = '\0';
		}
		x[keep++] = x[i];
	}
	*n = keep;
	return changed;
}

int journal_release(const char *dir, const struct journal_entry *e, bool drop,
		    char *err)
{
	struct release_args r = { .e = e, .drop = drop };

	return journal_edit(dir, release_edit, &r, err);
}

struct restore_args {
	journal_restore_cb cb;
	void *arg;
	unsigned nr, nd, nh, nf;
	char *failed;
	size_t flen, used;
};

/* journal_restore_all's edit: put back what no live transaction holds. */
static int restore_edit(struct journal_entry **a, unsigned *n, void *arg, char *err)
{
	struct restore_args *r = arg;
	struct journal_entry *x = *a;
	unsigned top = *n;	/* kept entries are x[top..n), in their order */

	(void)err;
	/*
	 * Newest first: when one place was changed through two spellings the
	 * key cannot match (a nameless namespace reached as a lab side), the
	 * oldest entry's original is the one written last.
	 */
	for (unsigned i = *n; i-- > 0;) {
		char why[ERR_MAX] = "";
		int rc;

		/* A running tunetop (a run with --set) puts its own back when it
		 * ends; restoring under it would change its test half-way. */
		if (journal_entry_held(&x[i])) {
			x[--top] = x[i];
			r->nh++;
			continue;
		}
		rc = r->cb(&x[i], r->arg, why);
		if (rc == 0) {
			r->nr++;
			continue;
		}
		if (rc == -ENOENT) {
			r->nd++;
			continue;
		}
		r->nf++;
		if (r->failed && r->used < r->flen) {
			char ns[80];
			int w;

			journal_netns_name(&x[i], ns, sizeof(ns));
			w = snprintf(r->failed + r->used, r->flen - r->used, "%s%s on %s%s%s%s%s: %s",
				     r->used ? "; " : "", x[i].knob, x[i].side,
				     *x[i].lab ? " of " : "", x[i].lab, *ns ? " in " : "", ns,
				     *why ? why : strerror(-rc));
			if (w > 0)
				r->used += (size_t)w;
		}
		x[--top] = x[i];
	}
	if (top < *n)	/* an empty journal's x is NULL, which memmove may not take */
		memmove(x, x + top, (*n - top) * sizeof(*x));
	*n -= top;
	return r->nr || r->nd;
}

int journal_restore_all(const char *dir, journal_restore_cb cb, void *arg,
			unsigned *restored, unsigned *dropped, unsigned *held,
			char *failed, size_t flen, char *err)
{
	struct restore_args r = { .cb = cb, .arg = arg, .failed = failed, .flen = flen };
	int rc;

	if (failed && flen)
		failed[0] = '\0';
	rc = journal_edit(dir, restore_edit, &r, err);
	if (!rc && r.nf)
		rc = err_set(err, -EIO, "journal: %u value%s could not be restored", r.nf,
			     r.nf == 1 ? "" : "s");
	if (restored)
		*restored = r.nr;
	if (dropped)
		*dropped = r.nd;
	if (held)
		*held = r.nh;
	return rc;
}
