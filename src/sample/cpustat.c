// SPDX-License-Identifier: GPL-2.0-or-later
/* cpustat.c - per-CPU utilisation from /proc/stat, thread context switches. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/procstat.h"
#include "sample/cpustat.h"
#include "core/util.h"

/* Field order of a "cpu" line (Documentation/filesystems/proc.rst). */
enum { F_USER, F_NICE, F_SYSTEM, F_IDLE, F_IOWAIT, F_IRQ, F_SOFTIRQ, F_STEAL };

/* Buffer size that held the last whole file; grows on big machines. */
static _Atomic size_t cpustat_bufsz = 16384;


/*
 * Parse the counters after "cpu" or "cpuN": up to CPUSTAT_FIELDS numbers.
 * Kernels before 2.6.11 print fewer (no steal, before 2.6 no iowait); those
 * stay 0.  Further columns (guest, guest_nice) are ignored because the
 * kernel already counts guest time in user and nice.  Returns the number of
 * fields read.
 */
static int cpustat_fields(const char *p, uint64_t *f)
{
	int i;

	for (i = 0; i < CPUSTAT_FIELDS; i++)
		f[i] = 0;
	for (i = 0; i < CPUSTAT_FIELDS; i++) {
		char *end;
		unsigned long long v;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (errno)
			break;
		f[i] = v;
		p = end;
	}
	return i;
}

/* Parse the "cpu" line and up to TT_MAX_CPUS "cpuN" lines of <root>/stat. */
int cpustat_read(const char *proc_root, struct cpustat_raw *out, char *err)
{
	char path[PATH_MAX];
	char *buf, *line, *next;
	bool have_all = false;
	int rc;

	if (snprintf(path, sizeof(path), "%s/stat", proc_root) >=
	    (int)sizeof(path))
		return err_set(err, -ENAMETOOLONG, "%s/stat: %s", proc_root,
			       strerror(ENAMETOOLONG));
	rc = proc_slurp(path, &cpustat_bufsz, &buf);
	if (rc)
		return err_set(err, rc, "%s: %s", path, strerror(-rc));

	out->ncpu = 0;
	memset(out->all, 0, sizeof(out->all));
	for (line = buf; line && *line; line = next) {
		char *end;
		unsigned long id;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		/* The cpu lines come first; stop at the first other line. */
		if (strncmp(line, "cpu", 3) != 0)
			break;
		if (line[3] == ' ' || line[3] == '\t') {
			if (cpustat_fields(line + 3, out->all) < 4)
				break;
			have_all = true;
			continue;
		}
		if (line[3] < '0' || line[3] > '9')
			continue;
		errno = 0;
		id = strtoul(line + 3, &end, 10);
		if (errno || id > INT_MAX || (*end != ' ' && *end != '\t'))
			continue;
		/* Beyond TT_MAX_CPUS lines the rest are not kept. */
		if (out->ncpu == TT_MAX_CPUS)
			continue;
		if (cpustat_fields(end, out->cpu[out->ncpu]) < 4) {
			rc = err_set(err, -EINVAL,
				     "%s: malformed line \"%.40s\"", path,
				     line);
			goto out;
		}
		out->id[out->ncpu++] = (int)id;
	}
	if (!have_all)
		rc = err_set(err, -EINVAL,
			     "%s: no \"cpu\" line with at least 4 fields",
			     path);
out:
	free(buf);
	return rc;
}

/* Index of CPU id in raw, trying hint first (both lists are ascending). */
static int cpustat_find(const struct cpustat_raw *raw, int id, unsigned hint)
{
	unsigned i;

	if (hint < raw->ncpu && raw->id[hint] == id)
		return (int)hint;
	for (i = 0; i < raw->ncpu; i++)
		if (raw->id[i] == id)
			return (int)i;
	return -1;
}

/*
 * Percentages of one CPU from two counter sets.  Returns false when a
 * counter went backwards (the CPU went offline and came back: its counters
 * restarted), so the caller treats the CPU as absent.
 */
static bool cpustat_util(const uint64_t *a, const uint64_t *b, int id,
			 struct cpu_util *u)
{
	uint64_t d[CPUSTAT_FIELDS], total = 0;
	double k;
	int i;

	for (i = 0; i < CPUSTAT_FIELDS; i++) {
		if (b[i] < a[i])
			return false;
		d[i] = b[i] - a[i];
		total += d[i];
	}
	memset(u, 0, sizeof(*u));
	u->id = id;
	if (!total)
		return true;
	k = 100.0 / (double)total;
	u->user = (double)d[F_USER] * k;
	u->nice = (double)d[F_NICE] * k;
	u->sys = (double)d[F_SYSTEM] * k;
	u->idle = (double)d[F_IDLE] * k;
	u->iowait = (double)d[F_IOWAIT] * k;
	u->irq = (double)d[F_IRQ] * k;
	u->softirq = (double)d[F_SOFTIRQ] * k;
	u->steal = (double)d[F_STEAL] * k;
	/* Steal is time the CPU was wanted but the hypervisor ran others. */
	u->busy = 100.0 - u->idle - u->iowait;
	if (u->busy < 0)
		u->busy = 0;
	return true;
}

/*
 * The total is the plain mean of the CPUs present in both readings, so a
 * CPU that went offline or restarted its counters drops out of it too; only
 * when no cpuN line is usable does the aggregate "cpu" line stand in.
 */
void cpustat_delta(const struct cpustat_raw *before,
		   const struct cpustat_raw *after, struct cpu_sample *out)
{
	struct cpu_util *t = &out->total;
	unsigned i;

	memset(out, 0, sizeof(*out));
	out->peak_id = -1;
	for (i = 0; i < after->ncpu; i++) {
		struct cpu_util *u = &out->cpu[out->ncpu];
		int j = cpustat_find(before, after->id[i], i);

		if (j < 0 || !cpustat_util(before->cpu[j], after->cpu[i],
					   after->id[i], u))
			continue;
		if (out->peak_id < 0 || u->busy > out->peak_busy) {
			out->peak_busy = u->busy;
			out->peak_id = u->id;
		}
		t->user += u->user;
		t->nice += u->nice;
		t->sys += u->sys;
		t->irq += u->irq;
		t->softirq += u->softirq;
		t->steal += u->steal;
		t->idle += u->idle;
		t->iowait += u->iowait;
		t->busy += u->busy;
		out->ncpu++;
	}
	if (out->ncpu) {
		double n = out->ncpu;

		t->user /= n;
		t->nice /= n;
		t->sys /= n;
		t->irq /= n;
		t->softirq /= n;
		t->steal /= n;
		t->idle /= n;
		t->iowait /= n;
		t->busy /= n;
	} else if (!cpustat_util(before->all, after->all, -1, t)) {
		memset(t, 0, sizeof(*t));
	}
	t->id = -1;
}

/* Buffer size for a task's status file. */
static _Atomic size_t taskstat_bufsz = 4096;

/* The number after "name:" at the start of a line of buf, or -ENODATA. */
static int taskstat_field(const char *buf, const char *name, uint64_t *out)
{
	size_t nlen = strlen(name);
	const char *p = buf;

	while (p && *p) {
		if (strncmp(p, name, nlen) == 0 && p[nlen] == ':') {
			char *end;
			unsigned long long v;

			errno = 0;
			v = strtoull(p + nlen + 1, &end, 10);
			if (errno || end == p + nlen + 1)
				return -EPROTO;
			*out = v;
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -ENODATA;
}

/* Both context-switch counters of one thread from its status file. */
int taskstat_ctx(const char *proc_root, pid_t pid, pid_t tid, uint64_t *vol,
		 uint64_t *invol)
{
	char path[PATH_MAX];
	char *buf;
	uint64_t v = 0, iv = 0;
	int rc;

	if (snprintf(path, sizeof(path), "%s/%d/task/%d/status", proc_root,
		     (int)pid, (int)tid) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	rc = proc_slurp(path, &taskstat_bufsz, &buf);
	if (rc)
		return rc;
	rc = taskstat_field(buf, "voluntary_ctxt_switches", &v);
	if (!rc)
		rc = taskstat_field(buf, "nonvoluntary_ctxt_switches", &iv);
	free(buf);
	if (rc)
		return rc;
	*vol = v;
	*invol = iv;
	return 0;
}

int taskstat_cpu(const char *proc_root, pid_t pid, pid_t tid, int *cpu)
{
	char path[256], val[16];
	int ret;

	snprintf(path, sizeof(path), "%s/%d/task/%d/stat", proc_root, (int)pid, (int)tid);
	ret = procstat_field(path, 39, val, sizeof(val));
	if (ret)
		return ret;
	if (!isdigit((unsigned char)val[0]))
		return -EINVAL;
	*cpu = atoi(val);
	return 0;
}
