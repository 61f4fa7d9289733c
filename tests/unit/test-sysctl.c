// SPDX-License-Identifier: GPL-2.0-or-later
/* test-sysctl.c - sysctl knobs against a fake /proc/sys and, as root, a namespace. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "knobs/catalog.h"
#include "knobs/sysctl.h"
#include "tap.h"
#include "core/util.h"

static struct catalog *cat;
static char root[64];
static int64_t host_reordering;	/* the host's tcp_reordering, read first */

/* The catalog entry called name; the tests need the shipped definitions. */
static const struct knob_def *knob(const char *name)
{
	const struct knob_def *d = catalog_find(cat, name);

	if (!d) {
		printf("Bail out! %s is not in the catalog\n", name);
		exit(1);
	}
	return d;
}

/* Copy the directory tree src into dst (which exists). 0 or -errno. */
static int copy_tree(const char *src, const char *dst)
{
	char s[4096], t[4096], buf[4096];
	struct dirent *de;
	struct stat st;
	DIR *dir = opendir(src);
	int rc = 0;

	if (!dir)
		return -errno;
	while (!rc && (de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(s, sizeof(s), "%s/%s", src, de->d_name);
		snprintf(t, sizeof(t), "%s/%s", dst, de->d_name);
		if (lstat(s, &st)) {
			rc = -errno;
		} else if (S_ISDIR(st.st_mode)) {
			rc = mkdir(t, 0755) ? -errno : copy_tree(s, t);
		} else if (S_ISREG(st.st_mode)) {
			int in = open(s, O_RDONLY), out;
			ssize_t n;

			out = open(t, O_WRONLY | O_CREAT | O_EXCL, 0644);
			if (in < 0 || out < 0)
				rc = -errno;
			while (!rc && (n = read(in, buf, sizeof(buf))) > 0)
				rc = write_full(out, buf, (size_t)n);
			if (in >= 0)
				close(in);
			if (out >= 0)
				close(out);
		}
	}
	closedir(dir);
	return rc;
}

/* nftw callback: remove one entry of the temporary tree. */
static int remove_cb(const char *path, const struct stat *st, int flag,
		     struct FTW *ftw)
{
	return remove(path);
}

/* The content of root/rel, newline and all, or "" when unreadable. */
static const char *file_text(const char *rel)
{
	static char buf[256];
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	buf[0] = '\0';
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return buf;
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	return buf;
}

/* Reads from the fake tree: numbers, int3 with tabs, strings, bools. */
static void test_get(void)
{
	struct knob_value v;
	char err[ERR_MAX] = "";
	int rc;

	rc = sysctl_get(root, knob("net.ipv4.tcp_reordering"), &v, err);
	ok(rc == 0 && v.present && v.num[0] == 3 && !strcmp(v.text, "3"),
	   "int read: tcp_reordering 3 (%s)", err);
	rc = sysctl_get(root, knob("net.ipv4.tcp_rmem"), &v, err);
	ok(rc == 0 && v.present && v.num[0] == 4096 && v.num[1] == 131072 &&
	   v.num[2] == 6291456 && !strcmp(v.text, "4096 131072 6291456"),
	   "int3 read: tabs become single spaces: '%s'", v.text);
	rc = sysctl_get(root, knob("net.ipv4.tcp_congestion_control"), &v, err);
	ok(rc == 0 && v.present && !strcmp(v.text, "cubic"),
	   "string read: '%s'", v.text);
	rc = sysctl_get(root, knob("net.ipv4.tcp_sack"), &v, err);
	ok(rc == 0 && v.present && v.num[0] == 1 && !strcmp(v.text, "on"),
	   "bool read: 1 is on");
	rc = sysctl_get(root, knob("net.ipv4.tcp_notsent_lowat"), &v, err);
	ok(rc == 0 && v.num[0] == 4294967295ll,
	   "u32 read without overflow: %s", v.text);

	rc = sysctl_get(root, knob("net.core.busy_poll"), &v, err);
	ok(rc == 0 && !v.present && v.text[0] == '\0' &&
	   !strcmp(v.reason, "host-only: not in this namespace"),
	   "absent host-only knob is n/a with a reason: '%s'", v.reason);
	rc = sysctl_get(root, knob("net.ipv4.tcp_autocorking"), &v, err);
	ok(rc == 0 && !v.present && !strcmp(v.reason, "not in this kernel"),
	   "absent per-namespace knob is n/a: '%s'", v.reason);
	rc = sysctl_get("/nonexistent-root", knob("net.ipv4.tcp_sack"), &v,
			err);
	ok(rc == -ENOENT && strstr(err, "/nonexistent-root"),
	   "a missing root is an error, not n/a: %s", err);
}

/* Writes to the fake tree are read back; refusals are explained. */
static void test_set(void)
{
	struct knob_value v, after;
	char err[ERR_MAX] = "", path[128];
	bool took = false;
	int rc;

	knob_parse_value(knob("net.ipv4.tcp_reordering"), "10", &v, err);
	rc = sysctl_set(root, knob("net.ipv4.tcp_reordering"), &v, &after,
			&took, err);
	ok(rc == 0 && took && !strcmp(after.text, "10") &&
	   !strcmp(file_text("net/ipv4/tcp_reordering"), "10\n"),
	   "int set then read back: %s", after.text);

	knob_parse_value(knob("net.ipv4.tcp_rmem"), "4096 87380 16M", &v, err);
	rc = sysctl_set(root, knob("net.ipv4.tcp_rmem"), &v, &after, &took,
			err);
	ok(rc == 0 && took && !strcmp(after.text, "4096 87380 16777216") &&
	   !strcmp(file_text("net/ipv4/tcp_rmem"), "4096 87380 16777216\n"),
	   "int3 set then read back, shorter than before: '%s'", after.text);

	knob_parse_value(knob("net.ipv4.tcp_congestion_control"), "reno", &v,
			 err);
	rc = sysctl_set(root, knob("net.ipv4.tcp_congestion_control"), &v,
			&after, &took, err);
	ok(rc == 0 && took && !strcmp(after.text, "reno"),
	   "string set then read back");

	knob_parse_value(knob("net.ipv4.tcp_sack"), "off", &v, err);
	rc = sysctl_set(root, knob("net.ipv4.tcp_sack"), &v, NULL, &took, err);
	ok(rc == 0 && took && !strcmp(file_text("net/ipv4/tcp_sack"), "0\n"),
	   "bool off is written as 0");

	knob_parse_value(knob("net.core.busy_poll"), "50", &v, err);
	rc = sysctl_set(root, knob("net.core.busy_poll"), &v, NULL, &took, err);
	ok(rc == -ENOENT && !took &&
	   !strcmp(err, "net.core.busy_poll: host-only: not in this namespace"),
	   "set of an absent host-only knob: %s", err);

	memset(&v, 0, sizeof(v));
	rc = sysctl_set(root, knob("net.ipv4.tcp_sack"), &v, NULL, &took, err);
	ok(rc == -EINVAL, "set of an n/a value refused: %s", err);

	/* /dev/full takes the open and fails the write, like a kernel EINVAL. */
	snprintf(path, sizeof(path), "%s/net/ipv4/tcp_ecn", root);
	if (symlink("/dev/full", path) == 0) {
		knob_parse_value(knob("net.ipv4.tcp_ecn"), "1", &v, err);
		rc = sysctl_set(root, knob("net.ipv4.tcp_ecn"), &v, NULL,
				&took, err);
		ok(rc == -ENOSPC && !took &&
		   strstr(err, "net.ipv4.tcp_ecn: kernel refused '1': "),
		   "a refused write carries the kernel's error: %s", err);
		unlink(path);
	}
}

/*
 * A write the kernel accepts but normalises: /proc/self/comm keeps 15
 * characters.  Done in a child so the test keeps its own name.
 */
static void test_not_taken(void)
{
	struct knob_def d;
	int fds[2], status;
	char link[128];
	pid_t pid;
	struct {
		int rc;
		bool took;
		char after[KNOB_TEXT_MAX];
		char err[ERR_MAX];
	} r;

	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "comm");
	d.kind = KNOB_SYSCTL;
	d.type = KNOB_STRING;
	d.scope = KNOB_SCOPE_NETNS;
	snprintf(d.where, sizeof(d.where), "comm");
	snprintf(link, sizeof(link), "%s/comm", root);
	if (!ok(symlink("/proc/self/comm", link) == 0 && pipe(fds) == 0,
		"set up a normalising file"))
		return;
	memset(&r, 0, sizeof(r));
	pid = fork();
	if (pid == 0) {
		struct knob_value v, after;
		char err[ERR_MAX] = "";

		memset(&after, 0, sizeof(after));
		knob_parse_value(&d, "abcdefghijklmnopqrstuvwxyz", &v, err);
		r.rc = sysctl_set(root, &d, &v, &after, &r.took, r.err);
		snprintf(r.after, sizeof(r.after), "%s", after.text);
		if (write(fds[1], &r, sizeof(r)) != (ssize_t)sizeof(r))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], &r, sizeof(r)) != (ssize_t)sizeof(r))
		r.rc = -EPIPE;
	close(fds[0]);
	waitpid(pid, &status, 0);
	unlink(link);
	ok(r.rc == 0 && !r.took && !strcmp(r.after, "abcdefghijklmno") &&
	   strstr(r.err, "but the kernel kept 'abcdefghijklmno'"),
	   "a value that did not take returns 0, took=false and the kept value: %s",
	   r.err);
}

/* A file the caller may not write: a clear -EACCES naming the knob. */
static void test_read_only(void)
{
	char path[128], err[ERR_MAX] = "";
	int fds[2], status, rc = 0;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/net/core/wmem_max", root);
	chmod(path, 0444);
	if (!ok(pipe(fds) == 0, "pipe for the child's results"))
		return;
	/* Root ignores file modes: drop to nobody in a child first. */
	pid = fork();
	if (pid == 0) {
		struct knob_value v;
		bool took = true;

		if (geteuid() == 0 && setresuid(65534, 65534, 65534))
			_exit(2);
		knob_parse_value(knob("net.core.wmem_max"), "4194304", &v, err);
		rc = sysctl_set(root, knob("net.core.wmem_max"), &v, NULL,
				&took, err);
		if (took)
			rc = 1;
		if (write(fds[1], &rc, sizeof(rc)) != sizeof(rc) ||
		    write(fds[1], err, sizeof(err)) != sizeof(err))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], &rc, sizeof(rc)) != sizeof(rc) ||
	    read(fds[0], err, sizeof(err)) != sizeof(err))
		rc = -EPIPE;
	close(fds[0]);
	waitpid(pid, &status, 0);
	ok(rc == -EACCES &&
	   !strcmp(err, "net.core.wmem_max: Permission denied (changing it needs root)"),
	   "a read-only file gives -EACCES and a clear message: %s", err);
	ok(!strcmp(file_text("net/core/wmem_max"), "212992\n"),
	   "the read-only file is unchanged");
}

/* What the namespace child found, sent to the parent through a pipe. */
struct live_result {
	int step;		/* how far the child got; 6 = all */
	int unshare_rc;
	char ns_before[64], ns_after[64];
	struct knob_value ns_default, set_after, get_after, busy, rmem;
	bool took;
	int set_rc, rmem_rc;
	char set_err[ERR_MAX], rmem_err[ERR_MAX];
};

/* In a forked child: a fresh network namespace, then sysctls inside it. */
static void live_child(int fd)
{
	struct live_result r;
	struct knob_value v;
	char err[ERR_MAX], text[32];
	ssize_t n;

	memset(&r, 0, sizeof(r));
	n = readlink("/proc/self/ns/net", r.ns_before, sizeof(r.ns_before) - 1);
	r.unshare_rc = unshare(CLONE_NEWNET) ? -errno : 0;
	n = readlink("/proc/self/ns/net", r.ns_after, sizeof(r.ns_after) - 1);
	r.step = 1;
	/* Never write unless we are certainly out of the host's namespace. */
	if (r.unshare_rc || n <= 0 || !strcmp(r.ns_before, r.ns_after))
		goto out;
	r.step = 2;
	if (sysctl_get(SYSCTL_ROOT, knob("net.ipv4.tcp_reordering"),
		       &r.ns_default, err) || !r.ns_default.present)
		goto out;
	r.step = 3;
	/* A value neither the namespace nor the host has. */
	snprintf(text, sizeof(text), "%lld", (long long)
		 (r.ns_default.num[0] > host_reordering ?
		  r.ns_default.num[0] : host_reordering) + 7);
	knob_parse_value(knob("net.ipv4.tcp_reordering"), text, &v, err);
	r.set_rc = sysctl_set(SYSCTL_ROOT, knob("net.ipv4.tcp_reordering"), &v,
			      &r.set_after, &r.took, r.set_err);
	sysctl_get(SYSCTL_ROOT, knob("net.ipv4.tcp_reordering"), &r.get_after,
		   err);
	r.step = 4;
	sysctl_get(SYSCTL_ROOT, knob("net.core.busy_poll"), &r.busy, err);
	r.step = 5;
	sysctl_get(SYSCTL_ROOT, knob("net.core.rmem_max"), &r.rmem, err);
	knob_parse_value(knob("net.core.rmem_max"), "16777216", &v, err);
	r.rmem_rc = sysctl_set(SYSCTL_ROOT, knob("net.core.rmem_max"), &v,
			       NULL, NULL, r.rmem_err);
	r.step = 6;
out:
	if (write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(1);
	_exit(0);
}

/* As root: sysctls in a namespace of our own, the host's values untouched. */
static void test_live(void)
{
	const char *ci = getenv("CI");
	struct knob_value host_before, host_after, host_rmem, host_rmem_after;
	struct live_result r;
	char err[ERR_MAX] = "";
	int fds[2], status;
	pid_t pid;

	if (geteuid() != 0) {
		if (ci && !strcmp(ci, "true"))
			ok(0, "live namespace tests need root (CI=true: not skipped)");
		else
			ok(1, "live namespace tests # SKIP not root");
		return;
	}
	if (!ok(sysctl_get(SYSCTL_ROOT, knob("net.ipv4.tcp_reordering"),
			   &host_before, err) == 0 && host_before.present &&
		sysctl_get(SYSCTL_ROOT, knob("net.core.rmem_max"), &host_rmem,
			   err) == 0,
		"host values read (tcp_reordering %s)", host_before.text))
		return;
	host_reordering = host_before.num[0];
	if (!ok(pipe(fds) == 0, "pipe for the child's results"))
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		live_child(fds[1]);
	}
	close(fds[1]);
	memset(&r, 0, sizeof(r));
	if (read(fds[0], &r, sizeof(r)) != (ssize_t)sizeof(r))
		r.step = 0;
	close(fds[0]);
	waitpid(pid, &status, 0);

	ok(r.step >= 2, "child is in a new network namespace (%s -> %s, unshare %d)",
	   r.ns_before, r.ns_after, r.unshare_rc);
	ok(r.step >= 3, "tcp_reordering readable in the namespace: %s",
	   r.ns_default.text);
	ok(r.set_rc == 0 && r.took && r.get_after.present &&
	   r.get_after.num[0] != r.ns_default.num[0] &&
	   r.get_after.num[0] != host_before.num[0] &&
	   r.set_after.num[0] == r.get_after.num[0],
	   "tcp_reordering set in the namespace and read back: %s -> %s (%s)",
	   r.ns_default.text, r.get_after.text, r.set_err);
	ok(!r.busy.present &&
	   !strcmp(r.busy.reason, "host-only: not in this namespace"),
	   "busy_poll is n/a inside the namespace: %s", r.busy.reason);
	ok(r.rmem.present && host_rmem.present &&
	   r.rmem.num[0] == host_rmem.num[0],
	   "rmem_max reads the host's value inside the namespace: %s",
	   r.rmem.text);
	ok(r.step == 6 && r.rmem_rc == -EACCES &&
	   !strcmp(r.rmem_err,
		   "net.core.rmem_max: read-only inside a network namespace (change it on the host)"),
	   "rmem_max write inside the namespace: %s", r.rmem_err);

	sysctl_get(SYSCTL_ROOT, knob("net.ipv4.tcp_reordering"), &host_after,
		   err);
	sysctl_get(SYSCTL_ROOT, knob("net.core.rmem_max"), &host_rmem_after,
		   err);
	ok(host_after.present && host_after.num[0] == host_before.num[0],
	   "the host's tcp_reordering is unchanged: %s -> %s",
	   host_before.text, host_after.text);
	ok(host_rmem_after.num[0] == host_rmem.num[0],
	   "the host's rmem_max is unchanged: %s", host_rmem_after.text);
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	char src[4096], err[ERR_MAX] = "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (catalog_load(&cat, catalog_default_path(), err)) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	snprintf(src, sizeof(src), "%s/tests/data/sys",
		 top && *top ? top : ".");
	snprintf(root, sizeof(root), "/tmp/tt-sysctl-XXXXXX");
	if (!mkdtemp(root) || chmod(root, 0755)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	if (ok(copy_tree(src, root) == 0, "fake /proc/sys copied from %s", src)) {
		test_get();
		test_set();
		test_not_taken();
		test_read_only();
	}
	nftw(root, remove_cb, 16, FTW_DEPTH | FTW_PHYS);
	test_live();
	catalog_free(cat);
	return tap_done();
}
