/* SPDX-License-Identifier: GPL-2.0-or-later */
/* procstat.h - fields of /proc/<pid>/stat: a process's state and start time. */
#ifndef TT_PROCSTAT_H
#define TT_PROCSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Field n (>= 3, numbered as in proc(5)) of a /proc/.../stat file at path,
 * as text.  0, or -errno (-EINVAL when the file has no such field). */
int procstat_field(const char *path, unsigned n, char *out, size_t len);

/* State (field 3) and start time (field 22) of /proc/<pid>/stat.  0 or -errno. */
int procstat_start(pid_t pid, char *state, unsigned long long *start);
/* True when pid runs (not a zombie) and started at start: the same process. */
bool procstat_alive(pid_t pid, unsigned long long start);

#endif
