// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * journal-netns.c - which network namespace a journal entry was made in,
 * and entering it again for a restore from elsewhere (docs/HACKING.md,
 * "The life of a knob change").
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/procstat.h"
#include "core/util.h"
#include "knobs/journal.h"

/* The network namespace at path (a /proc ns link or a bind mount) in *st. */
static bool netns_stat(const char *path, struct stat *st)
{
	return stat(path, st) == 0;
}

/* Whether a and b are the same namespace (nsfs device and inode). */
static bool same_ns(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The name under /run/netns bound to the namespace *me into name, or "". */
static void netns_find_name(const struct stat *me, char *name, size_t len)
{
	DIR *d = opendir("/run/netns");
	struct dirent *de;

	name[0] = '\0';
	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[300];
		struct stat st;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= len ||
		    strpbrk(de->d_name, " \t\n"))
			continue;
		snprintf(path, sizeof(path), "/run/netns/%s", de->d_name);
		if (netns_stat(path, &st) && same_ns(&st, me)) {
			snprintf(name, len, "%s", de->d_name);
			break;
		}
	}
	closedir(d);
}

/*
 * The oldest process in the namespace *me (the likeliest to outlive this
 * one: the shell that made it, its daemon) into ns, else this process.
 */
static void netns_find_holder(const struct stat *me, struct journal_netns *ns)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	bool found = false;

	char state;

	ns->pid = getpid();
	if (procstat_start(ns->pid, &state, &ns->start))
		ns->start = 0;
	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[300];
		unsigned long long start;
		struct stat st;
		int pid = atoi(de->d_name);

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/ns/net", pid);
		if (!netns_stat(path, &st) || !same_ns(&st, me) ||
		    procstat_start(pid, &state, &start) || state == 'Z')
			continue;
		if (!found || start < ns->start) {
			ns->pid = pid;
			ns->start = start;
			found = true;
		}
	}
	closedir(d);
}

/*
 * The inode of the host's network namespace: pid 1's, or when that may
 * not be looked at (an LSM, hidepid), the one the kernel gives its
 * initial namespace (PROC_NET_INIT_INO, fixed since Linux 6.x; on an
 * older kernel every entry is then marked, which restores as well).
 */
static unsigned long long host_netns_ino(void)
{
	struct stat host;

	if (netns_stat("/proc/1/ns/net", &host))
		return (unsigned long long)host.st_ino;
	return 0xEFFFFFF9ull;
}

void journal_netns_here(struct journal_netns *ns)
{
	struct stat me;

	memset(ns, 0, sizeof(*ns));
	/* No /proc: the host's, as every entry was before v3. */
	if (!netns_stat("/proc/thread-self/ns/net", &me) ||
	    (unsigned long long)me.st_ino == host_netns_ino())
		return;
	ns->ino = (unsigned long long)me.st_ino;
	netns_find_name(&me, ns->name, sizeof(ns->name));
}

void journal_netns_name(const struct journal_entry *e, char *buf, size_t len)
{
	if (!e->ns.ino)
		snprintf(buf, len, "%s", "");
	else if (*e->ns.name)
		snprintf(buf, len, "%s", e->ns.name);
	else
		snprintf(buf, len, "netns inode %llu", e->ns.ino);
}

/* path opened when it is the namespace ino: the fd, else -1 (*other: another one). */
static int netns_open_if(const char *path, unsigned long long ino, bool *other)
{
	struct stat st, me;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	/* nsfs has one device: the one of our own namespace's link. */
	if (fstat(fd, &st) == 0 && netns_stat("/proc/self/ns/net", &me) &&
	    st.st_dev == me.st_dev && (unsigned long long)st.st_ino == ino)
		return fd;
	if (other)
		*other = true;
	close(fd);
	return -1;
}

/* The namespace ino through process pid or a thread of it; fd or -1. */
static int netns_open_by_pid(pid_t pid, unsigned long long ino)
{
	char path[300];
	struct dirent *de;
	DIR *d;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)pid);
	fd = netns_open_if(path, ino, NULL);
	if (fd >= 0)
		return fd;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while (fd < 0 && (de = readdir(d)))
		if (atoi(de->d_name) > 0) {
			snprintf(path, sizeof(path), "/proc/%d/task/%s/ns/net", (int)pid,
				 de->d_name);
			fd = netns_open_if(path, ino, NULL);
		}
	closedir(d);
	return fd;
}

/* The host's namespace: pid 1's, else any process's in it; fd or -errno. */
static int netns_open_host(char *err)
{
	unsigned long long ino = host_netns_ino();
	struct dirent *de;
	int fd = -1;
	DIR *d;

	fd = netns_open_if("/proc/1/ns/net", ino, NULL);
	if (fd >= 0 || !(d = opendir("/proc")))
		goto out;
	while (fd < 0 && (de = readdir(d))) {
		char path[300];

		if (atoi(de->d_name) <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/ns/net", de->d_name);
		fd = netns_open_if(path, ino, NULL);
	}
	closedir(d);
out:
	if (fd < 0)
		return err_set(err, -ESRCH, "the host's network namespace (inode %llu): no process of it may be entered",
			       ino);
	return fd;
}

int journal_netns_open(const struct journal_entry *e, char *err)
{
	struct journal_netns here;
	char path[300];
	bool other = false;
	int fd = -1;

	journal_netns_here(&here);
	if (e->ns.ino == here.ino)
		return -ENOENT;
	if (!e->ns.ino)
		return netns_open_host(err);
	if (*e->ns.name) {
		snprintf(path, sizeof(path), "/run/netns/%s", e->ns.name);
		fd = netns_open_if(path, e->ns.ino, &other);
	}
	if (fd < 0 && e->ns.pid > 0 && procstat_alive(e->ns.pid, e->ns.start))
		fd = netns_open_by_pid(e->ns.pid, e->ns.ino);
	if (fd >= 0)
		return fd;
	if (other)
		return err_set(err, -ESRCH, "/run/netns/%s is another network namespace now, and no process of the one the change was made in (inode %llu, pid %d) is left",
			       e->ns.name, e->ns.ino, (int)e->ns.pid);
	if (*e->ns.name)
		return err_set(err, -ESRCH, "its network namespace %s is gone (no /run/netns/%s, pid %d that was in it has ended)",
			       e->ns.name, e->ns.name, (int)e->ns.pid);
	return err_set(err, -ESRCH, "its network namespace (inode %llu) cannot be found: pid %d that was in it has ended or left it",
		       e->ns.ino, (int)e->ns.pid);
}

void journal_netns_holder(struct journal_netns *ns)
{
	struct stat me;

	/* A process that finds the namespace again, if this thread is in it. */
	if (ns->ino && netns_stat("/proc/thread-self/ns/net", &me) &&
	    (unsigned long long)me.st_ino == ns->ino)
		netns_find_holder(&me, ns);
}
