// SPDX-License-Identifier: GPL-2.0-or-later
/* test-cpustat.c - /proc/stat parsing on recorded snapshots and live /proc. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/procstat.h"
#include "sample/cpustat.h"
#include "core/util.h"
#include "tap.h"

static char data_dir[PATH_MAX / 2];

/* The recorded snapshots live under $top_srcdir/tests/data/proc. */
static const char *root(const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", data_dir, name);
	return path;
}

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

/* Read the snapshots <name>.1 and <name>.2 and compute their delta. */
static int load_pair(const char *name, struct cpustat_raw *a,
		     struct cpustat_raw *b, struct cpu_sample *s)
{
	char err[ERR_MAX] = "";
	char n1[64], n2[64];
	int rc;

	snprintf(n1, sizeof(n1), "%s.1", name);
	snprintf(n2, sizeof(n2), "%s.2", name);
	rc = cpustat_read(root(n1), a, err);
	if (!ok(rc == 0, "%s: first snapshot reads (%s)", name, err))
		return -1;
	rc = cpustat_read(root(n2), b, err);
	if (!ok(rc == 0, "%s: second snapshot reads (%s)", name, err))
		return -1;
	cpustat_delta(a, b, s);
	return 0;
}

static void test_handmade(void)
{
	static struct cpustat_raw a, b;
	static struct cpu_sample s;
	const struct cpu_util *c2, *t = &s.total;

	if (load_pair("handmade", &a, &b, &s))
		return;
	ok(a.ncpu == 4 && a.id[0] == 0 && a.id[3] == 3,
	   "handmade: four cpuN lines read");
	ok(a.all[0] == 4000 && a.all[7] == 70,
	   "handmade: the aggregate cpu line keeps user and steal");
	ok(a.cpu[2][7] == 70,
	   "handmade: guest columns past steal are not read as fields");
	if (!ok(s.ncpu == 4, "handmade: delta covers 4 CPUs (got %u)", s.ncpu))
		return;
	ok(near(s.cpu[0].busy, 20) && near(s.cpu[0].user, 10) &&
		   near(s.cpu[0].sys, 10) && near(s.cpu[0].idle, 80),
	   "handmade: cpu0 is 10 user 10 sys 80 idle");
	ok(near(s.cpu[1].busy, 50) && near(s.cpu[1].nice, 5) &&
		   near(s.cpu[1].iowait, 10),
	   "handmade: cpu1 iowait counts as not busy (busy %.3f)",
	   s.cpu[1].busy);
	c2 = &s.cpu[2];
	ok(near(c2->user, 50) && near(c2->steal, 25) && near(c2->idle, 25),
	   "handmade: cpu2 is 50 user 25 steal of 200 jiffies (%.3f %.3f)",
	   c2->user, c2->steal);
	ok(near(c2->busy, 75),
	   "handmade: steal counts as busy, cpu2 busy 75 (got %.3f)", c2->busy);
	ok(near(s.cpu[3].irq, 5) && near(s.cpu[3].softirq, 15) &&
		   near(s.cpu[3].busy, 20),
	   "handmade: cpu3 irq 5 softirq 15 busy 20");
	ok(near(s.peak_busy, 75) && s.peak_id == 2,
	   "handmade: peak is cpu2 at 75%% (got cpu%d %.3f)", s.peak_id,
	   s.peak_busy);
	ok(near(t->user, 22.5) && near(t->nice, 1.25) && near(t->sys, 6.25) &&
		   near(t->idle, 56.25) && near(t->iowait, 2.5) &&
		   near(t->irq, 1.25) && near(t->softirq, 3.75) &&
		   near(t->steal, 6.25),
	   "handmade: total is the mean of the per-CPU percentages");
	ok(near(t->busy, 41.25) && t->id == -1,
	   "handmade: total busy 41.25 with id -1 (got %.3f)", t->busy);
}

static void test_sparse(void)
{
	static struct cpustat_raw a, b;
	static struct cpu_sample s;

	if (load_pair("sparse", &a, &b, &s))
		return;
	ok(b.ncpu == 4 && b.id[0] == 0 && b.id[1] == 1 && b.id[2] == 3 &&
		   b.id[3] == 5,
	   "sparse: offline cpu2 is absent from the raw ids (0 1 3 5)");
	if (!ok(s.ncpu == 3,
		"sparse: only CPUs present in both readings count (got %u)",
		s.ncpu))
		return;
	ok(s.cpu[0].id == 0 && s.cpu[1].id == 1 && s.cpu[2].id == 3,
	   "sparse: delta ids are 0 1 3 (got %d %d %d)", s.cpu[0].id,
	   s.cpu[1].id, s.cpu[2].id);
	ok(near(s.cpu[0].busy, 60) && near(s.cpu[1].busy, 0) &&
		   near(s.cpu[2].busy, 20),
	   "sparse: per-CPU busy 60 0 20");
	ok(near(s.total.busy, 80.0 / 3),
	   "sparse: total busy averages the 3 CPUs (got %.4f)", s.total.busy);
	ok(s.peak_id == 0 && near(s.peak_busy, 60), "sparse: peak is cpu0");
}

static void test_oldkernel(void)
{
	static struct cpustat_raw a, b;
	static struct cpu_sample s;

	if (load_pair("oldkernel", &a, &b, &s))
		return;
	ok(a.ncpu == 2 && a.cpu[0][6] == 10 && a.cpu[0][7] == 0 &&
		   a.all[7] == 0,
	   "oldkernel: 7-field lines read with steal 0");
	if (!ok(s.ncpu == 2, "oldkernel: two CPUs in the delta"))
		return;
	ok(near(s.cpu[0].busy, 70) && near(s.cpu[0].softirq, 10) &&
		   near(s.cpu[0].steal, 0),
	   "oldkernel: cpu0 busy 70 (got %.3f)", s.cpu[0].busy);
	ok(near(s.cpu[1].busy, 3000.0 / 140) &&
		   near(s.cpu[1].user, 2000.0 / 140),
	   "oldkernel: cpu1 normalised by its own 140-jiffy delta (busy %.4f)",
	   s.cpu[1].busy);
	ok(s.peak_id == 0, "oldkernel: peak is cpu0");
}

static void test_backwards(void)
{
	static struct cpustat_raw a, b;
	static struct cpu_sample s;

	if (load_pair("backwards", &a, &b, &s))
		return;
	if (!ok(s.ncpu == 2,
		"backwards: a CPU whose counters went back is dropped (ncpu %u)",
		s.ncpu))
		return;
	ok(s.cpu[0].id == 0 && s.cpu[1].id == 2,
	   "backwards: remaining ids 0 and 2");
	ok(near(s.cpu[0].busy, 90) && near(s.cpu[1].busy, 80),
	   "backwards: cpu0 90 cpu2 80");
	ok(near(s.total.busy, 85) && !isnan(s.total.busy),
	   "backwards: total busy 85 from the rest");
	ok(s.peak_id == 0 && near(s.peak_busy, 90),
	   "backwards: peak is cpu0 at 90");
}

static void test_recorded(void)
{
	static struct cpustat_raw a, b;
	static struct cpu_sample s;

	if (load_pair("recorded", &a, &b, &s))
		return;
	if (!ok(s.ncpu == 2, "recorded: two CPUs"))
		return;
	/* cpu0: +2 user +2 system +41 idle; cpu1: +13 user +3 system +29 idle.
	 */
	ok(near(s.cpu[0].busy, 400.0 / 45) && near(s.cpu[1].busy, 1600.0 / 45),
	   "recorded: busy %.4f and %.4f as the snapshots say", s.cpu[0].busy,
	   s.cpu[1].busy);
	ok(s.peak_id == 1 && near(s.peak_busy, 1600.0 / 45),
	   "recorded: peak is cpu1");
}

static void test_zero_delta(void)
{
	static struct cpustat_raw a;
	static struct cpu_sample s;
	char err[ERR_MAX];

	if (!ok(cpustat_read(root("handmade.1"), &a, err) == 0,
		"zero delta: snapshot reads"))
		return;
	cpustat_delta(&a, &a, &s);
	ok(s.ncpu == 4 && s.total.busy == 0 && !isnan(s.total.busy) &&
		   s.cpu[2].busy == 0 && !isnan(s.cpu[2].user),
	   "zero delta: 0%% busy, not NaN");
}

static void test_missing(void)
{
	static struct cpustat_raw a;
	char err[ERR_MAX] = "";
	char want[PATH_MAX + 8];
	int rc;

	rc = cpustat_read(root("no-such-root"), &a, err);
	ok(rc == -ENOENT, "missing file: -ENOENT (got %d)", rc);
	snprintf(want, sizeof(want), "%s/stat: ", root("no-such-root"));
	ok(strncmp(err, want, strlen(want)) == 0 &&
		   strstr(err, strerror(ENOENT)),
	   "missing file: message names the path (\"%s\")", err);
}

/* Write text to <dir>/stat. */
static int write_stat(const char *dir, const char *text, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/stat", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fwrite(text, 1, len, f);
	return fclose(f);
}

/* Files larger than the first buffer, too many CPUs, and no cpu line. */
static void test_generated(void)
{
	static struct cpustat_raw a;
	char dir[] = "/tmp/test-cpustat.XXXXXX";
	char err[ERR_MAX] = "";
	char path[PATH_MAX];
	size_t cap = 1 << 20, len = 0;
	char *text;
	int i, rc;

	if (!ok(mkdtemp(dir) != NULL, "generated: temp dir"))
		return;
	text = malloc(cap);
	if (!text)
		return;
	len += (size_t)snprintf(text + len, cap - len,
				"cpu  1 2 3 4 5 6 7 8 9 10\n");
	for (i = 0; i < 300; i++)
		len += (size_t)snprintf(
			text + len, cap - len,
			"cpu%d %d 11111111111 22222222222 33333333333 4 5 6 7 0 0\n",
			i, 1000 + i);
	len += (size_t)snprintf(text + len, cap - len, "intr 1");
	for (i = 0; i < 60000; i++)
		len += (size_t)snprintf(text + len, cap - len, " 0");
	len += (size_t)snprintf(text + len, cap - len, "\nctxt 5\n");
	if (ok(write_stat(dir, text, len) == 0,
	       "generated: %zu-byte stat written", len)) {
		rc = cpustat_read(dir, &a, err);
		ok(rc == 0,
		   "generated: a stat file past the first buffer reads (%s)",
		   err);
		ok(a.ncpu == TT_MAX_CPUS,
		   "generated: keeps the first %d of 300 CPUs (got %u)",
		   TT_MAX_CPUS, a.ncpu);
		ok(a.id[TT_MAX_CPUS - 1] == TT_MAX_CPUS - 1 &&
			   a.cpu[TT_MAX_CPUS - 1][0] ==
				   1000 + TT_MAX_CPUS - 1 &&
			   a.cpu[TT_MAX_CPUS - 1][7] == 7,
		   "generated: the last kept CPU, beyond 16 KiB into the file, is whole");
	}

	len = (size_t)snprintf(text, cap, "intr 1 2\nctxt 3\n");
	write_stat(dir, text, len);
	rc = cpustat_read(dir, &a, err);
	ok(rc == -EINVAL && strstr(err, "/stat: "),
	   "generated: no cpu line is -EINVAL (\"%s\")", err);

	len = (size_t)snprintf(text, cap, "cpu  1 2 3 4\ncpu0 1 2\n");
	write_stat(dir, text, len);
	rc = cpustat_read(dir, &a, err);
	ok(rc == -EINVAL && strstr(err, "malformed"),
	   "generated: a cpuN line with 2 fields is -EINVAL (\"%s\")", err);

	free(text);
	snprintf(path, sizeof(path), "%s/stat", dir);
	unlink(path);
	rmdir(dir);
}

static void test_live(void)
{
	static struct cpustat_raw a, b;
	static struct cpu_sample s;
	char err[ERR_MAX] = "";
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned want = online > TT_MAX_CPUS ? TT_MAX_CPUS : (unsigned)online;
	uint64_t t0;
	volatile uint64_t spin = 0;
	unsigned i, bad = 0;

	if (!ok(cpustat_read("/proc", &a, err) == 0,
		"live: /proc/stat reads (%s)", err))
		return;
	ok(a.ncpu == want,
	   "live: one cpuN line per online CPU (%u, online %ld)", a.ncpu,
	   online);
	t0 = now_ns();
	while (now_ns() - t0 < 200000000ull)
		spin++;
	if (!ok(cpustat_read("/proc", &b, err) == 0, "live: second read (%s)",
		err))
		return;
	cpustat_delta(&a, &b, &s);
	ok(s.ncpu == want, "live: delta covers every online CPU (%u)", s.ncpu);
	ok(s.total.busy >= 0 && s.total.busy <= 100,
	   "live: total busy %.1f within 0..100", s.total.busy);
	ok(s.total.busy > 0, "live: a 200 ms spin shows as busy (%.1f%%)",
	   s.total.busy);
	for (i = 0; i < s.ncpu; i++) {
		const struct cpu_util *u = &s.cpu[i];
		double sum = u->user + u->nice + u->sys + u->irq + u->softirq +
			     u->steal + u->idle + u->iowait;

		if (u->busy < 0 || u->busy > 100 ||
		    (sum != 0 && fabs(sum - 100) > 1e-6))
			bad++;
	}
	ok(bad == 0,
	   "live: every CPU's fields sum to 100 and busy is within 0..100");
	ok(s.peak_busy >= s.total.busy - 1e-9,
	   "live: the peak CPU is at least the mean");
}

static void test_taskstat(void)
{
	uint64_t vol = 0, invol = 0, vol2 = 0, invol2 = 0;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int rc, i;

	rc = taskstat_ctx(root("recorded.1"), 7457, 7498, &vol, &invol);
	ok(rc == 0 && vol == 50 && invol == 1,
	   "taskstat: recorded status: 50 vol, 1 invol (rc %d, %llu %llu)",
	   rc, (unsigned long long)vol, (unsigned long long)invol);
	rc = taskstat_ctx(root("recorded.1"), 7457, 7457, &vol, &invol);
	ok(rc == -ENOENT,
	   "taskstat: a thread that is not there is -ENOENT (got %d)", rc);

	rc = taskstat_ctx("/proc", getpid(), tid, &vol, &invol);
	if (!ok(rc == 0, "taskstat: live thread reads (rc %d)", rc))
		return;
	for (i = 0; i < 10; i++)
		usleep(1000);
	rc = taskstat_ctx("/proc", getpid(), tid, &vol2, &invol2);
	ok(rc == 0 && vol2 >= vol + 10 && invol2 >= invol,
	   "taskstat: 10 sleeps add at least 10 voluntary switches (%llu -> %llu)",
	   (unsigned long long)vol, (unsigned long long)vol2);
}

/* Fields count from the last ')' of the command name, which may hold both. */
static void test_procstat_field_counts_after_comm(void)
{
	char path[] = "/tmp/tt-procstat-XXXXXX", val[32];
	const char *line = "4242 (a b) c) S 1 4242 4242 0 -1 4194560 10 0 0 0 "
			   "1 2 0 0 20 0 1 0 777 1000 10 18446744073709551615 "
			   "1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0\n";
	int fd = mkstemp(path);

	if (!ok(fd >= 0 && write(fd, line, strlen(line)) == (ssize_t)strlen(line),
		"procstat: temp file"))
		return;
	close(fd);
	ok(procstat_field(path, 3, val, sizeof(val)) == 0 && !strcmp(val, "S"),
	   "field 3 is the state even with ') ' in the name (%s)", val);
	ok(procstat_field(path, 22, val, sizeof(val)) == 0 && !strcmp(val, "777"),
	   "field 22 is the start time (%s)", val);
	ok(procstat_field(path, 39, val, sizeof(val)) == 0 && !strcmp(val, "1"),
	   "field 39 is the CPU last run on (%s)", val);
	ok(procstat_field(path, 60, val, sizeof(val)) == -EINVAL,
	   "a field past the end is -EINVAL");
	ok(procstat_field(path, 2, val, sizeof(val)) == -EINVAL,
	   "the name's own field is refused");
	unlink(path);
	ok(procstat_field(path, 3, val, sizeof(val)) == -ENOENT,
	   "a missing file is -ENOENT");
}

int main(void)
{
	const char *top = getenv("top_srcdir");

	snprintf(data_dir, sizeof(data_dir), "%s/tests/data/proc",
		 top && *top ? top : ".");
	test_procstat_field_counts_after_comm();
	test_handmade();
	test_sparse();
	test_oldkernel();
	test_backwards();
	test_recorded();
	test_zero_delta();
	test_missing();
	test_generated();
	test_live();
	test_taskstat();
	return tap_done();
}
