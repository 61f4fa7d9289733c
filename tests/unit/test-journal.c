// SPDX-License-Identifier: GPL-2.0-or-later
/* test-journal.c - the knob journal: record, first original wins, crash, restore. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/procstat.h"
#include "knobs/journal.h"
#include "core/util.h"
#include "tap.h"

static char base[256];

/* A journal entry for the test. */
static struct journal_entry entry(const char *side, const char *lab, const char *dev,
				  const char *knob, const char *text)
{
	struct journal_entry e;

	memset(&e, 0, sizeof(e));
	snprintf(e.side, sizeof(e.side), "%s", side);
	snprintf(e.lab, sizeof(e.lab), "%s", lab);
	snprintf(e.dev, sizeof(e.dev), "%s", dev);
	snprintf(e.knob, sizeof(e.knob), "%s", knob);
	snprintf(e.text, sizeof(e.text), "%s", text);
	return e;
}

/*
 * The first original wins: e's original journaled unless an entry is
 * there, held by this process outside any transaction.  1 new, 0 there.
 */
static int record(const char *dir, struct journal_entry *e, char *err)
{
	struct journal_entry prev;
	bool created = false;
	int rc;

	journal_set_holder(e, 0, "");
	rc = journal_hold(dir, e, &created, &prev, err);
	return rc ? rc : created;
}

/* Forget e's entry: a change journaled, then refused. */
static int forget(const char *dir, struct journal_entry *e, char *err)
{
	journal_set_holder(e, 0, "");
	return journal_release(dir, e, true, err);
}

/* Restore callback: "fail" knobs fail, "gone" labs are gone, the rest restore. */
struct cb_log {
	unsigned calls;
	char seen[16][KNOB_NAME_MAX + KNOB_TEXT_MAX + 2];
};

static int fake_restore(const struct journal_entry *e, void *arg, char *err)
{
	struct cb_log *log = arg;

	if (log->calls < 16)
		snprintf(log->seen[log->calls], sizeof(log->seen[0]), "%s=%s", e->knob, e->text);
	log->calls++;
	if (!strcmp(e->lab, "gone"))
		return -ENOENT;
	if (!strcmp(e->knob, "fail"))
		return err_set(err, -EPERM, "kernel refused it");
	return 0;
}

/* Whether log saw "knob=text". */
static bool saw(const struct cb_log *log, const char *s)
{
	for (unsigned i = 0; i < log->calls && i < 16; i++)
		if (!strcmp(log->seen[i], s))
			return true;
	return false;
}

int main(void)
{
	char dir[300], err[ERR_MAX], failed[512];
	struct journal_entry *a, e;
	struct cb_log log = { 0 };
	unsigned n, restored, dropped;
	struct stat st;
	pid_t pid;
	int status;

	snprintf(base, sizeof(base), "/tmp/tt-journal-XXXXXX");
	if (!mkdtemp(base))
		return 1;
	snprintf(dir, sizeof(dir), "%s/state/deep", base);
	setenv("TUNETOP_STATE_DIR", dir, 1);

	ok(journal_dir(dir, sizeof(dir), err) == 0 && !strcmp(dir + strlen(base), "/state/deep"),
	   "the state dir comes from TUNETOP_STATE_DIR and is made: %s", dir);
	memset(&st, 0, sizeof(st));
	stat(dir, &st);
	ok((st.st_mode & 0777) == 0700, "and it is mode 0700 (%o)", st.st_mode & 0777);
	unsetenv("TUNETOP_STATE_DIR");
	setenv("XDG_STATE_HOME", base, 1);
	{
		char d2[300];

		/* As root, the host's one journal; else the user's own. */
		if (geteuid() == 0)
			ok(journal_dir(d2, sizeof(d2), err) == 0 && !strcmp(d2, JOURNAL_HOST_DIR),
			   "without it, as root, the host's journal %s: %s", JOURNAL_HOST_DIR, d2);
		else
			ok(journal_dir(d2, sizeof(d2), err) == 0 &&
			   !strcmp(d2 + strlen(base), "/tunetop"),
			   "without it, $XDG_STATE_HOME/tunetop: %s", d2);
	}
	setenv("TUNETOP_STATE_DIR", dir, 1);

	ok(journal_load(dir, &a, &n, err) == 0 && n == 0, "an empty state dir has no entries");
	free(a);

	e = entry("lab-a", "ttlab", "veth-a", "rx-usecs", "0");
	ok(record(dir, &e, err) == 1, "record rx-usecs=0 on lab-a: a new entry");
	ok(e.pid == getpid() && e.start > 0, "the entry names this process (pid %d, start %llu)",
	   (int)e.pid, e.start);
	e = entry("lab-a", "ttlab", "veth-a", "rx-usecs", "64");
	ok(record(dir, &e, err) == 0, "a second change of rx-usecs finds the entry there");
	e = entry("local", "", "", "net.ipv4.tcp_rmem", "4096 131072 6291456");
	ok(record(dir, &e, err) == 1, "a value with spaces records");
	e = entry("lab-b", "ttlab", "veth-b", "rx-usecs", "8");
	record(dir, &e, err);
	n = 0;
	journal_load(dir, &a, &n, err);
	ok(n == 3, "three keys, three entries (%u)", n);
	ok(n == 3 && !strcmp(a[0].knob, "rx-usecs") && !strcmp(a[0].text, "0"),
	   "the second change did not overwrite the original: rx-usecs=%s", n ? a[0].text : "?");
	ok(n == 3 && !strcmp(a[1].text, "4096 131072 6291456") && !a[1].lab[0] && !a[1].dev[0],
	   "the spaced value and empty lab/dev read back as written");
	ok(n == 3 && !strcmp(a[2].side, "lab-b") && !strcmp(a[2].dev, "veth-b"),
	   "the same knob on another side is its own entry");
	free(a);

	/* A child journals, then dies without any cleanup: the entry is on disk. */
	pid = fork();
	if (pid == 0) {
		struct journal_entry c = entry("lab-a", "ttlab", "veth-a", "gro", "on");

		_exit(record(dir, &c, err) == 1 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a child journals gro=on and _exits");
	ok(journal_load(dir, &a, &n, err) == 0 && n == 4 && !strcmp(a[3].knob, "gro") &&
	   a[3].pid == pid, "its entry is there, naming the dead child (pid %d)", (int)pid);
	free(a);

	/* A refused change is forgotten; other entries stay. */
	e = entry("lab-b", "ttlab", "veth-b", "mtu", "1500");
	record(dir, &e, err);
	ok(forget(dir, &e, err) == 0, "forget the mtu entry");
	journal_load(dir, &a, &n, err);
	ok(n == 4 && strcmp(a[n - 1].knob, "mtu"), "it is gone and the four others stay (%u)", n);
	free(a);

	/* One entry fails, one lab is gone, the rest restore. */
	e = entry("lab-a", "gone", "veth-a", "tso", "on");
	record(dir, &e, err);
	e = entry("local", "", "", "fail", "1");
	record(dir, &e, err);
	ok(journal_restore_all(dir, fake_restore, &log, &restored, &dropped, NULL, failed,
			       sizeof(failed), err) == -EIO,
	   "restore with one failing entry reports -EIO: %s", err);
	ok(restored == 4 && dropped == 1, "the other four are restored, the gone lab's dropped (%u, %u)",
	   restored, dropped);
	ok(saw(&log, "rx-usecs=0") && saw(&log, "net.ipv4.tcp_rmem=4096 131072 6291456") &&
	   !saw(&log, "rx-usecs=64"), "restore puts back the originals, not later values");
	ok(strstr(failed, "fail on local: kernel refused it") != NULL,
	   "the failing entry is named with why: %s", failed);
	journal_load(dir, &a, &n, err);
	ok(n == 1 && !strcmp(a[0].knob, "fail"),
	   "only the failing entry stays in the journal (%u)", n);
	free(a);

	memset(&log, 0, sizeof(log));
	journal_restore_all(dir, fake_restore, &log, &restored, &dropped, NULL, failed, sizeof(failed), err);
	ok(log.calls == 1 && restored == 0, "a second restore tries only the failed one again");

	/* Once nothing fails, restore empties the journal and then does nothing. */
	{
		char path[400];

		snprintf(path, sizeof(path), "%s/journal", dir);
		e = entry("local", "", "", "x", "1");
		/* Rewrite: drop "fail" by restoring through a callback that accepts all. */
		memset(&log, 0, sizeof(log));
		ok(journal_restore_all(dir, fake_restore, &log, &restored, &dropped, NULL, failed,
				       sizeof(failed), err) == -EIO, "still failing: kept");
		unlink(path);
		record(dir, &e, err);
		memset(&log, 0, sizeof(log));
		ok(journal_restore_all(dir, fake_restore, &log, &restored, &dropped, NULL, failed,
				       sizeof(failed), err) == 0 && restored == 1,
		   "a restorable journal restores fully");
		ok(access(path, F_OK) != 0, "and the journal file is gone");
		memset(&log, 0, sizeof(log));
		ok(journal_restore_all(dir, fake_restore, &log, &restored, &dropped, NULL, failed,
				       sizeof(failed), err) == 0 && log.calls == 0 && restored == 0,
		   "restore again is a no-op");
	}

	/*
	 * One namespace by two spellings is one key; a remote side never is.
	 * Entries that cannot be matched are restored newest first, so the
	 * oldest original is the last written.
	 */
	{
		char path[400];
		struct journal_entry in = entry("local", "", "", "net.ipv4.tcp_reordering", "3");
		struct journal_entry side = entry("lab-b", "ttlab", "", "net.ipv4.tcp_reordering", "5");
		struct journal_entry rem = entry("remote", "", "", "net.ipv4.tcp_reordering", "3");
		struct journal_entry other = side;
		struct journal_entry host = entry("local", "", "", "net.ipv4.tcp_reordering", "3");

		in.ns.ino = 4026532238ULL;
		snprintf(in.ns.name, sizeof(in.ns.name), "%s", "ttlab-b");
		ok(journal_same_key(&in, &side) && journal_same_key(&side, &in),
		   "a local change inside ttlab-b and lab-b of ttlab are one key");
		snprintf(other.side, sizeof(other.side), "%s", "lab-a");
		ok(!journal_same_key(&in, &other) && !journal_same_key(&rem, &in) &&
		   !journal_same_key(&rem, &host) && !journal_same_key(&host, &in),
		   "lab-a, a remote side and the host's own are other places");

		snprintf(path, sizeof(path), "%s/journal", dir);
		unlink(path);
		e = entry("local", "", "", "order", "first");
		record(dir, &e, err);
		e = entry("lab-a", "ttlab", "", "order", "second");
		record(dir, &e, err);
		memset(&log, 0, sizeof(log));
		journal_restore_all(dir, fake_restore, &log, &restored, &dropped, NULL, failed,
				    sizeof(failed), err);
		ok(log.calls == 2 && !strcmp(log.seen[0], "order=second") &&
		   !strcmp(log.seen[1], "order=first"), "restore goes newest first (%s, %s)",
		   log.seen[0], log.seen[1]);
	}

	/* An entry of a process still running (pid 1 here) is held for it. */
	{
		char path[400], state = '?';
		unsigned long long st1 = 0;
		unsigned held = 0;
		FILE *f;

		snprintf(path, sizeof(path), "%s/journal", dir);
		int r = procstat_start(1, &state, &st1);

		ok(r == 0 && st1 > 0, "pid 1's start time reads (%llu)", st1);
		f = fopen(path, "w");
		if (!f)
			return 1;
		fprintf(f, "local - - held 1 %llu 7\n", st1);
		fclose(f);
		memset(&log, 0, sizeof(log));
		ok(journal_restore_all(dir, fake_restore, &log, &restored, &dropped, &held, failed,
				       sizeof(failed), err) == 0 && held == 1 && log.calls == 0 &&
		   restored == 0, "a running process's entry is held, not restored, and is no failure");
		journal_load(dir, &a, &n, err);
		ok(n == 1 && !strcmp(a[0].knob, "held"), "and stays in the journal (%u)", n);
		free(a);
		f = fopen(path, "w");
		if (!f)
			return 1;
		fprintf(f, "local - - held 1 %llu 7\n", st1 + 1);
		fclose(f);
		memset(&log, 0, sizeof(log));
		ok(journal_restore_all(dir, fake_restore, &log, &restored, &dropped, &held, failed,
				       sizeof(failed), err) == 0 && held == 0 && restored == 1,
		   "the same pid with another start time is another process: restored");
	}

	/* Holding: a transaction of this process, another process, release. */
	{
		char path[400], state = '?';
		unsigned long long st1 = 0;
		struct journal_entry prev, h;
		unsigned long t1 = journal_txn_open(), t2 = journal_txn_open();
		bool created = false;
		FILE *f;

		snprintf(path, sizeof(path), "%s/journal", dir);
		unlink(path);
		h = entry("lab-b", "ttlab", "", "net.ipv4.tcp_reordering", "3");
		journal_set_holder(&h, t1, "tunetop run");
		ok(journal_hold(dir, &h, &created, &prev, err) == 0 && created,
		   "transaction 1 holds tcp_reordering: a new entry");
		journal_load(dir, &a, &n, err);
		ok(n == 1 && a[0].txn == t1 && !strcmp(a[0].who, "tunetop run") &&
		   !strcmp(a[0].text, "3") && journal_entry_held(&a[0]),
		   "it reads back with its holder and is held while open");
		free(a);
		h = entry("lab-b", "ttlab", "", "net.ipv4.tcp_reordering", "11");
		journal_set_holder(&h, t2, "tunetop sweep");
		ok(journal_hold(dir, &h, &created, &prev, err) == -EBUSY &&
		   strstr(err, "held by tunetop run (pid ") && prev.txn == t1,
		   "transaction 2 of the same process is refused, naming 1: %s", err);
		h = entry("lab-b", "ttlab", "", "net.ipv4.tcp_reordering", "3");
		journal_set_holder(&h, t1, "tunetop run");
		ok(journal_release(dir, &h, false, err) == 0, "transaction 1 releases it, kept");
		journal_load(dir, &a, &n, err);
		ok(n == 1 && a[0].pid == 0 && !journal_entry_held(&a[0]) && !strcmp(a[0].text, "3"),
		   "the entry stays, unheld, with its original");
		free(a);
		h = entry("lab-b", "ttlab", "", "net.ipv4.tcp_reordering", "5");
		journal_set_holder(&h, t2, "tunetop sweep");
		ok(journal_hold(dir, &h, &created, &prev, err) == 0 && !created &&
		   !strcmp(prev.text, "3"), "transaction 2 adopts the unheld entry");
		journal_load(dir, &a, &n, err);
		ok(n == 1 && !strcmp(a[0].text, "3") && a[0].txn == t2,
		   "the first original (3) stays, the holder is 2");
		free(a);
		journal_txn_close(t2);
		journal_load(dir, &a, &n, err);
		ok(n == 1 && !journal_entry_held(&a[0]), "a closed transaction holds nothing");
		free(a);
		journal_set_holder(&h, t2, "tunetop sweep");
		ok(journal_release(dir, &h, true, err) == 0 && access(path, F_OK) != 0,
		   "dropping the last entry removes the file");

		/* Another live process (pid 1) holds a knob. */
		procstat_start(1, &state, &st1);
		f = fopen(path, "w");
		if (!f)
			return 1;
		fprintf(f, "# tunetop knob journal v2\nlocal - - gro 1 %llu 4 tunetopd_session_from_x on\n", st1);
		fclose(f);
		h = entry("local", "", "", "gro", "off");
		journal_set_holder(&h, t1, "tunetop run");
		ok(journal_hold(dir, &h, &created, &prev, err) == -EBUSY &&
		   strstr(err, "held by tunetopd session from x (pid 1)"),
		   "a knob another live process holds is refused, naming it: %s", err);
		h = entry("local", "", "", "gro", "on");
		journal_set_holder(&h, 99, "x");
		ok(journal_release(dir, &h, true, err) == 0 && journal_load(dir, &a, &n, err) == 0 &&
		   n == 1, "a release by someone else leaves the entry alone");
		free(a);
		journal_txn_close(t1);
		unlink(path);
	}

	/* Versions: v2 lines read as the host's, v3 keeps the namespace. */
	{
		char path[400];
		struct journal_entry x, y, prev;
		bool created = false;
		FILE *f;
		int fd;

		snprintf(path, sizeof(path), "%s/journal", dir);
		f = fopen(path, "w");
		if (!f)
			return 1;
		fprintf(f, "# tunetop knob journal v2\n"
			   "local - - net.ipv4.tcp_reordering 0 0 0 - 3\n"
			   "lab-b ttlab veth-b rx-usecs 0 0 0 - 8\n");
		fclose(f);
		ok(journal_load(dir, &a, &n, err) == 0 && n == 2 && !a[0].ns.ino &&
		   !a[0].ns.name[0] && !strcmp(a[0].text, "3") && !strcmp(a[1].dev, "veth-b") &&
		   !strcmp(a[1].text, "8") && !a[1].ns.ino,
		   "a v2 journal reads: its entries are the host's");
		free(a);
		x = entry("local", "", "", "net.ipv4.tcp_reordering", "4");
		x.ns.ino = 4026532301ull;
		x.ns.pid = 999999;
		x.ns.start = 77;
		snprintf(x.ns.name, sizeof(x.ns.name), "tt-gone-%d", (int)getpid());
		journal_set_holder(&x, 0, "");
		ok(journal_hold(dir, &x, &created, &prev, err) == 0 && created,
		   "the same knob in another namespace is an entry of its own");
		journal_load(dir, &a, &n, err);
		ok(n == 3 && a[2].ns.ino == 4026532301ull && a[2].ns.pid == 999999 &&
		   a[2].ns.start == 77 && !strcmp(a[2].ns.name, x.ns.name) &&
		   !strcmp(a[2].text, "4") && journal_same_key(&a[2], &x) &&
		   !journal_same_key(&a[2], &a[0]),
		   "rewritten as v3, its namespace (inode, process, name) reads back");
		free(a);
		{
			char line[512] = "";

			f = fopen(path, "r");
			if (f) {
				if (!fgets(line, sizeof(line), f))
					line[0] = '\0';
				fclose(f);
			}
			ok(!strcmp(line, "# tunetop knob journal v3\n"), "the file says v3: %s", line);
		}
		y = x;
		y.ns.name[0] = '\0';
		fd = journal_netns_open(&x, err);
		ok(fd == -ESRCH && strstr(err, "its network namespace tt-gone-") &&
		   strstr(err, " is gone (no /run/netns/tt-gone-"),
		   "a namespace whose name is gone and whose process ended is -ESRCH, why: %s", err);
		fd = journal_netns_open(&y, err);
		ok(fd == -ESRCH && strstr(err, "(inode 4026532301) cannot be found"),
		   "a nameless one too: %s", err);
		journal_netns_here(&y.ns);
		ok(journal_netns_open(&y, err) == -ENOENT,
		   "an entry of this thread's own namespace is put back here");
		memset(&log, 0, sizeof(log));
		f = fopen(path, "w");
		if (!f)
			return 1;
		fprintf(f, "# tunetop knob journal v4\nlocal - - x - 0 0 0 - 1 new field\n");
		fclose(f);
		ok(journal_load(dir, &a, &n, err) == -EPROTO && strstr(err, "is version 4, newer"),
		   "a newer version's journal is not read (nor rewritten): %s", err);
		unlink(path);
	}

	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
		if (system(cmd))
			return 1;
	}
	return tap_done();
}
