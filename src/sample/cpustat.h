/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpustat.h - per-CPU utilisation from /proc/stat, context switches of threads. */
#ifndef TT_CPUSTAT_H
#define TT_CPUSTAT_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "sample/sample.h"

/* The jiffy counters of /proc/stat: user nice system idle iowait irq softirq steal. */
#define CPUSTAT_FIELDS 8

struct cpustat_raw {
	unsigned ncpu;
	uint64_t all[CPUSTAT_FIELDS];		/* the "cpu" line */
	int id[TT_MAX_CPUS];			/* "cpuN" */
	uint64_t cpu[TT_MAX_CPUS][CPUSTAT_FIELDS];
};

/* Read <proc_root>/stat ("/proc" normally). 0 or -errno with err set. */
int cpustat_read(const char *proc_root, struct cpustat_raw *out, char *err);

/* Utilisation between two readings; a CPU absent from either is skipped. */
void cpustat_delta(const struct cpustat_raw *before, const struct cpustat_raw *after,
		   struct cpu_sample *out);

/* Voluntary and involuntary context switches of thread tid of process pid,
 * from <proc_root>/<pid>/task/<tid>/status.  0 or -errno. */
int taskstat_ctx(const char *proc_root, pid_t pid, pid_t tid, uint64_t *vol, uint64_t *invol);

/* The CPU thread tid last ran on (field 39 of <proc_root>/<pid>/task/<tid>/stat).
 * 0 or -errno. */
int taskstat_cpu(const char *proc_root, pid_t pid, pid_t tid, int *cpu);

#endif
