// SPDX-License-Identifier: GPL-2.0-or-later
/* datadir.c - find the data folder, installed or in a source tree. */
#include "config.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/datadir.h"

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/tunetop"
#endif

/* Whether dir/knobs, the file that marks a data folder, is readable. */
static bool has_knobs(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/knobs", dir);
	return access(path, R_OK) == 0;
}

const char *datadir_path(void)
{
	/* room for "/knobs" after it in a PATH_MAX buffer */
	static char buf[PATH_MAX - 16];
	char exe[PATH_MAX - 32];	/* room for "/data" in buf */
	const char *env;
	ssize_t len;

	env = getenv("TUNETOP_DATADIR");
	if (env && *env) {
		snprintf(buf, sizeof(buf), "%s", env);
		return buf;
	}
	env = getenv("top_srcdir");
	if (env && *env) {
		snprintf(buf, sizeof(buf), "%s/data", env);
		if (has_knobs(buf))
			return buf;
	}
	if (has_knobs(PKGDATADIR))
		return PKGDATADIR;

	/*
	 * Running uninstalled: the program is in a build tree (build/, or
	 * build/tests/unit/ for a test) somewhere below the source tree.
	 */
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		for (int up = 0; up < 5; up++) {
			char *slash = strrchr(exe, '/');

			if (!slash || slash == exe)
				break;
			*slash = '\0';
			snprintf(buf, sizeof(buf), "%s/data", exe);
			if (has_knobs(buf))
				return buf;
		}
	}
	return PKGDATADIR;
}
