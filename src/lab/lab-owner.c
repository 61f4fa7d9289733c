// SPDX-License-Identifier: GPL-2.0-or-later
/* lab-owner.c - who owns a lab: owner records, and the labs they list. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

static char lab_rec_dir[PATH_MAX - LAB_NAME_MAX - 16] = LAB_RECORD_DIR;

/* Point the owner records at dir (tests), or back at LAB_RECORD_DIR. */
void lab_set_record_dir(const char *dir)
{
	snprintf(lab_rec_dir, sizeof(lab_rec_dir), "%s",
		 dir ? dir : LAB_RECORD_DIR);
}

/* The directory of the owner records. */
const char *lab_owner_dir(void)
{
	return lab_rec_dir;
}

/* True when name is [A-Za-z0-9_.-]{1,40}, not "." or "..", no leading '-'. */
bool lab_owner_name_ok(const char *name)
{
	size_t i, len = strlen(name);

	if (len < 1 || len > LAB_NAME_LEN || name[0] == '-' ||
	    !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      c == '-'))
			return false;
	}
	return true;
}

/* The path of name's owner record. */
void lab_owner_path(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", lab_rec_dir, name);
}

/* mkdir -p with mode for every missing component. */
static int lab_mkdir_p(const char *dir, mode_t mode, char *err)
{
	char buf[PATH_MAX];
	char *p;

	snprintf(buf, sizeof(buf), "%s", dir);
	for (p = buf + 1;; p++) {
		char c = *p;

		if (c != '/' && c)
			continue;
		*p = '\0';
		if (mkdir(buf, mode) && errno != EEXIST) {
			int e = -errno;

			return err_set(err, e, "mkdir %s: %s", buf, strerror(-e));
		}
		if (!c)
			return 0;
		*p = c;
	}
}

/* Make the owner record directory. */
int lab_owner_dir_make(char *err)
{
	return lab_mkdir_p(lab_rec_dir, 0755, err);
}

/* Parse LAB_RECORD_DIR/name; r->present is false when there is none. */
void lab_owner_read(const char *name, struct lab_owner *r)
{
	char path[PATH_MAX], buf[128];
	int fd, pid;
	ssize_t n;

	memset(r, 0, sizeof(*r));
	lab_owner_path(name, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	r->present = true;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	if (!strncmp(buf, "persistent", 10)) {
		/* "persistent SID START": the session that ran `lab up`; a bare
		 * "persistent" (older tunetop) leaves the maker unknown. */
		r->valid = r->persistent = true;
		if (sscanf(buf, "persistent %d %llu", &pid, &r->start) == 2 &&
		    pid > 0)
			r->pid = pid;
		else
			r->start = 0;
	} else if (sscanf(buf, "owner %d %llu", &pid, &r->start) == 2 &&
		   pid > 0) {
		r->pid = pid;
		r->valid = true;
	}
}

/*
 * Put buf at path: to a temporary name first (path~PID: '~' is in no lab
 * name, so lab_list and lab_reap pass it by), then link() it into place
 * (fails with EEXIST, atomically claiming the name) when exclusive, or
 * rename() it over the old one.  0 or -errno with err naming lab name.
 */
static int lab_record_put(const char *name, const char *path, const char *buf,
			  size_t len, bool exclusive, char *err)
{
	char tmp[PATH_MAX + 16];
	int fd, e;

	snprintf(tmp, sizeof(tmp), "%s~%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		e = -errno;
		return err_set(err, e, "lab %s: create %s: %s", name, tmp,
			       strerror(-e));
	}
	e = write_full(fd, buf, len);
	if (close(fd) && !e)
		e = -errno;
	if (!e && (exclusive ? link(tmp, path) : rename(tmp, path)))
		e = -errno;
	unlink(tmp);	/* after rename() it is gone already */
	if (e == -EEXIST)
		return err_set(err, e,
			       "lab %s: exists (tunetop lab down %s to remove it)",
			       name, name);
	if (e)
		return err_set(err, e, "lab %s: write %s: %s", name, path,
			       strerror(-e));
	return 0;
}

/* Write the owner record (lab-internal.h). */
int lab_owner_write(const char *name, bool persistent, bool exclusive,
		    char *err)
{
	char path[PATH_MAX], buf[96];
	unsigned long long start = 0;
	char state;
	int len, e = 0;

	lab_owner_path(name, path, sizeof(path));
	if (persistent) {
		pid_t sid = getsid(0);

		/* The maker is the session (terminal, login, CI job) that ran
		 * `lab up`: the lab is orphaned only when that ends. */
		if (sid > 0 && !procstat_start(sid, &state, &start))
			len = snprintf(buf, sizeof(buf), "persistent %d %llu\n",
				       (int)sid, start);
		else
			len = snprintf(buf, sizeof(buf), "persistent\n");
	} else {
		e = procstat_start(getpid(), &state, &start);
		if (e)
			return err_set(err, e, "lab %s: read /proc/self/stat: %s",
				       name, strerror(-e));
		len = snprintf(buf, sizeof(buf), "owner %d %llu\n",
			       (int)getpid(), start);
	}
	return lab_record_put(name, path, buf, (size_t)len, exclusive, err);
}

/* Collected names for lab_list. */
struct lab_names {
	char (*v)[LAB_NAME_MAX];
	unsigned n, cap;
};

/* Append name unless it is there already. */
static int lab_names_add(struct lab_names *ns, const char *name)
{
	unsigned i;

	for (i = 0; i < ns->n; i++)
		if (!strcmp(ns->v[i], name))
			return 0;
	if (ns->n == ns->cap) {
		unsigned cap = ns->cap ? ns->cap * 2 : 16;
		void *v = realloc(ns->v, cap * sizeof(*ns->v));

		if (!v)
			return -ENOMEM;
		ns->v = v;
		ns->cap = cap;
	}
	snprintf(ns->v[ns->n++], LAB_NAME_MAX, "%s", name);
	return 0;
}

/* qsort order of names: strcmp. */
static int lab_names_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The labs present: owner records, plus record-less tunetop-* netns pairs. */
int lab_list(char names[][LAB_NAME_MAX], unsigned max, unsigned *n, char *err)
{
	struct lab_names ns = { 0 };
	struct dirent *de;
	unsigned i;
	DIR *d;
	int r = 0;

	*n = 0;
	d = opendir(lab_rec_dir);
	if (!d && errno != ENOENT) {
		r = -errno;
		return err_set(err, r, "%s: %s", lab_rec_dir, strerror(-r));
	}
	while (d && !r && (de = readdir(d)))
		if (lab_owner_name_ok(de->d_name))
			r = lab_names_add(&ns, de->d_name);
	if (d)
		closedir(d);
	d = opendir(LAB_NETNS_DIR);
	if (!r && !d && errno != ENOENT) {
		r = -errno;
		free(ns.v);
		return err_set(err, r, "%s: %s", LAB_NETNS_DIR, strerror(-r));
	}
	/* Record-less namespaces of tunetop's default naming, e.g. half-made. */
	while (d && !r && (de = readdir(d))) {
		char base[LAB_NAME_MAX];
		size_t len = strlen(de->d_name);

		if (len < 3 || len - 2 >= sizeof(base) ||
		    strncmp(de->d_name, "tunetop-", 8) ||
		    de->d_name[len - 2] != '-' ||
		    (de->d_name[len - 1] != 'a' && de->d_name[len - 1] != 'b'))
			continue;
		memcpy(base, de->d_name, len - 2);
		base[len - 2] = '\0';
		if (lab_owner_name_ok(base))
			r = lab_names_add(&ns, base);
	}
	if (d)
		closedir(d);
	if (r) {
		free(ns.v);
		return err_set(err, r, "lab list: %s", strerror(-r));
	}
	if (ns.n)
		qsort(ns.v, ns.n, sizeof(*ns.v), lab_names_cmp);
	for (i = 0; i < ns.n && i < max; i++)
		snprintf(names[i], LAB_NAME_MAX, "%s", ns.v[i]);
	*n = ns.n;
	free(ns.v);
	return 0;
}

/*
 * User records: LAB_RECORD_DIR/NAME@PID holding "user PID START", written
 * by a process that runs in a lab it did not make (run --lab), so `lab down
 * --all` sees the lab in use.  '@' is in no lab name: lab_list, lab_reap
 * and the owner records pass these by.
 */
static void lab_user_path(const char *name, pid_t pid, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s@%d", lab_rec_dir, name, (int)pid);
}

int lab_user_write(const char *name, char *err)
{
	char path[PATH_MAX], buf[96];
	unsigned long long start = 0;
	char state;
	int len, e;

	e = lab_owner_dir_make(err);
	if (e)
		return e;
	e = procstat_start(getpid(), &state, &start);
	if (e)
		return err_set(err, e, "lab %s: read /proc/self/stat: %s",
			       name, strerror(-e));
	lab_user_path(name, getpid(), path, sizeof(path));
	len = snprintf(buf, sizeof(buf), "user %d %llu\n", (int)getpid(),
		       start);
	return lab_record_put(name, path, buf, (size_t)len, false, err);
}

void lab_user_remove(const char *name, pid_t pid)
{
	char path[PATH_MAX];

	lab_user_path(name, pid, path, sizeof(path));
	unlink(path);
}

/*
 * Walk name's user records: a live user other than this process sets *pid
 * and returns true; with purge, every record (live or not) is removed.
 */
bool lab_users_scan(const char *name, bool purge, pid_t *pid)
{
	size_t nlen = strlen(name);
	struct dirent *de;
	bool live = false;
	DIR *d;

	d = opendir(lab_rec_dir);
	if (!d)
		return false;
	while ((de = readdir(d))) {
		char path[PATH_MAX + 256], buf[96];
		unsigned long long start;
		ssize_t n;
		int fd, p;

		if (strncmp(de->d_name, name, nlen) || de->d_name[nlen] != '@' ||
		    strchr(de->d_name, '~'))
			continue;
		snprintf(path, sizeof(path), "%s/%s", lab_rec_dir, de->d_name);
		if (purge) {
			unlink(path);
			continue;
		}
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		if (sscanf(buf, "user %d %llu", &p, &start) == 2 && p > 0 &&
		    p != getpid() && procstat_alive(p, start)) {
			*pid = p;
			live = true;
			break;
		}
	}
	closedir(d);
	return live;
}
