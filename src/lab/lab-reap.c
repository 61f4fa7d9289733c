// SPDX-License-Identifier: GPL-2.0-or-later
/* lab-reap.c - labs left by processes that are gone, and who may remove them. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/procstat.h"
#include "lab/lab-internal.h"
#include "lab/lab.h"
#include "core/util.h"

/* CAP_NET_ADMIN and CAP_SYS_ADMIN (namespaces, mounts) in the effective set. */
bool lab_privileged(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long eff = 0;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return (eff & (1ull << 12)) && (eff & (1ull << 21));
}

/* Destroy the labs whose owner record names a dead process. */
int lab_reap(unsigned *reaped, char *names_out, size_t len, char *err)
{
	struct dirent *de;
	struct lab *l;
	size_t used = 0;
	int r, ret = 0;
	DIR *d;

	*reaped = 0;
	if (names_out && len)
		names_out[0] = '\0';
	d = opendir(lab_owner_dir());
	if (!d) {
		r = -errno;
		if (r == -ENOENT)
			return 0;
		return err_set(err, r, "%s: %s", lab_owner_dir(), strerror(-r));
	}
	while ((de = readdir(d))) {
		struct lab_owner rec;
		char e2[ERR_MAX];

		if (!lab_owner_name_ok(de->d_name))
			continue;
		lab_owner_read(de->d_name, &rec);
		/* Unreadable or half-written records are left alone too. */
		if (!rec.present || !rec.valid || rec.persistent ||
		    procstat_alive(rec.pid, rec.start))
			continue;
		r = lab_open(&l, de->d_name, e2);
		if (r == -ENOENT)
			continue;	/* gone meanwhile */
		if (!r)
			r = lab_destroy(l, e2);
		if (r) {
			if (!ret)
				ret = err_set(err, r, "%s", e2);
			continue;
		}
		(*reaped)++;
		if (names_out && len > used + 1) {
			int w = snprintf(names_out + used, len - used, "%s%s",
					 used ? "," : "", de->d_name);

			if (w > 0)
				used += (size_t)w < len - used ? (size_t)w :
								len - used - 1;
		}
	}
	closedir(d);
	return ret;
}

int lab_reap_note(char *buf, size_t len)
{
	char names[512], err[ERR_MAX];
	unsigned n = 0;
	int r;

	buf[0] = '\0';
	r = lab_reap(&n, names, sizeof(names), err);
	if (r)
		snprintf(buf, len, "%s", err);
	else if (n)
		snprintf(buf, len, "removed %u lab%s left by a process that is gone: %s",
			 n, n == 1 ? "" : "s", names);
	return r;
}

int lab_make(struct lab **lp, const struct lab_opts *o, char *err)
{
	char note[ERR_MAX];
	int r;

	/* First: a dead tunetop's lab may hold this very name (its pid
	 * reused).  Failing to remove one is said, not fatal. */
	lab_reap_note(note, sizeof(note));
	r = lab_create(lp, o, err);
	if (!r)
		snprintf((*lp)->note, sizeof((*lp)->note), "%s", note);
	return r;
}

const char *lab_made_note(const struct lab *l)
{
	return l && l->note[0] ? l->note : NULL;
}

/*
 * A process (not this one) with a thread inside one of the namespaces
 * ns[0..1] (have[s] false: no such side): its pid, or 0.
 */
static pid_t lab_ns_user(const struct stat ns[2], const bool have[2])
{
	struct dirent *pe;
	pid_t found = 0;
	DIR *proc;

	proc = opendir("/proc");
	if (!proc)
		return 0;
	while (!found && (pe = readdir(proc))) {
		char path[PATH_MAX];
		struct dirent *te;
		char *end;
		long pid = strtol(pe->d_name, &end, 10);
		DIR *task;

		if (*end || pid <= 0 || pid == (long)getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/task", pid);
		task = opendir(path);
		if (!task)
			continue;	/* gone meanwhile */
		while (!found && (te = readdir(task))) {
			struct stat st;
			int s;

			if (te->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%ld/task/%s/ns/net",
				 pid, te->d_name);
			if (stat(path, &st))
				continue;
			for (s = 0; s < 2; s++)
				if (have[s] && st.st_dev == ns[s].st_dev &&
				    st.st_ino == ns[s].st_ino)
					found = (pid_t)pid;
		}
		closedir(task);
	}
	closedir(proc);
	return found;
}

/* The name of pid's program, for messages ("?" when gone). */
static void lab_comm(pid_t pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(buf, len, "?");
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* Who owns and who uses lab name, and so what `lab down --all` may do. */
int lab_claim_of(const char *name, struct lab_usage *u, char *err)
{
	struct stat ns[2];
	bool have[2];
	struct lab_owner rec;
	char path[PATH_MAX], comm[32];
	pid_t pid = 0;
	int s;

	memset(u, 0, sizeof(*u));
	if (!lab_owner_name_ok(name))
		return err_set(err, -EINVAL,
			       "lab %s: bad name; accepted: [A-Za-z0-9_.-]{1,40}, no leading '-'",
			       name);
	lab_owner_read(name, &rec);
	if (!rec.present || !rec.valid) {
		u->claim = LAB_UNOWNED;
		snprintf(u->why, sizeof(u->why), "%s",
			 rec.present ? "its owner record is unreadable or half-written" :
			 "it has no owner record (another tool's, or a lab being made or tested)");
		return 0;
	}
	if (rec.persistent && !rec.pid) {
		u->claim = LAB_UNOWNED;
		snprintf(u->why, sizeof(u->why),
			 "made by `lab up` of an older tunetop, its maker unknown");
		return 0;
	}
	u->claim = LAB_IN_USE;
	u->pid = rec.pid;
	if (procstat_alive(rec.pid, rec.start)) {
		if (rec.persistent)
			snprintf(u->why, sizeof(u->why),
				 "made by `lab up` in session %d, which is still open",
				 (int)rec.pid);
		else
			snprintf(u->why, sizeof(u->why),
				 "its run (pid %d) is still going", (int)rec.pid);
		return 0;
	}
	if (lab_users_scan(name, false, &pid)) {
		u->pid = pid;
		lab_comm(pid, comm, sizeof(comm));
		snprintf(u->why, sizeof(u->why), "%s (pid %d) runs in it",
			 comm, (int)pid);
		return 0;
	}
	for (s = 0; s < 2; s++) {
		snprintf(path, sizeof(path), "%s/%s-%c", LAB_NETNS_DIR, name,
			 s ? 'b' : 'a');
		have[s] = !stat(path, &ns[s]);
	}
	pid = lab_ns_user(ns, have);
	if (pid) {
		u->pid = pid;
		lab_comm(pid, comm, sizeof(comm));
		snprintf(u->why, sizeof(u->why),
			 "%s (pid %d) is inside its namespaces", comm, (int)pid);
		return 0;
	}
	u->claim = LAB_ORPHANED;
	u->pid = rec.pid;
	snprintf(u->why, sizeof(u->why), rec.persistent ?
		 "the session %d that made it with `lab up` is gone, nothing runs in it" :
		 "its owner (pid %d) is gone, nothing runs in it", (int)rec.pid);
	return 0;
}

bool lab_all_takes(const struct lab_usage *u, bool force)
{
	return u->claim == LAB_ORPHANED || (force && u->claim == LAB_IN_USE);
}
