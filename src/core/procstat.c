// SPDX-License-Identifier: GPL-2.0-or-later
/* procstat.c - fields of /proc/<pid>/stat: is a process the one we knew. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/procstat.h"

int procstat_field(const char *path, unsigned n, char *out, size_t len)
{
	char buf[1024];
	const char *p;
	ssize_t r;
	size_t k = 0;
	int fd;
	unsigned field;

	if (n < 3 || !len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return r < 0 ? -errno : -ENODATA;
	buf[r] = '\0';
	/* The command name may hold spaces and ')': fields count from the
	 * last ')', which ends field 2; after it comes field 3 (state). */
	p = strrchr(buf, ')');
	if (!p)
		return -EINVAL;
	for (field = 2, p++; *p && field < n; p++)
		if (*p == ' ')
			field++;
	if (field != n || !*p || *p == ' ')
		return -EINVAL;
	while (p[k] && p[k] != ' ' && p[k] != '\n' && k + 1 < len) {
		out[k] = p[k];
		k++;
	}
	out[k] = '\0';
	return 0;
}

/* Read state (field 3) and start time (field 22) of /proc/<pid>/stat. */
int procstat_start(pid_t pid, char *state, unsigned long long *start)
{
	char path[48], val[32], *end;
	int r;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	r = procstat_field(path, 3, val, sizeof(val));
	if (r)
		return r == -ENOENT ? r : -EIO;
	*state = val[0];
	r = procstat_field(path, 22, val, sizeof(val));
	if (r)
		return r == -ENOENT ? r : -EIO;
	*start = strtoull(val, &end, 10);
	return end == val || *end ? -EIO : 0;
}

/* True when pid runs (not a zombie) and started at start. */
bool procstat_alive(pid_t pid, unsigned long long start)
{
	unsigned long long now;
	char state = '?';

	if (pid <= 0 || procstat_start(pid, &state, &now))
		return false;
	return now == start && state != 'Z' && state != 'X' && state != 'x';
}
