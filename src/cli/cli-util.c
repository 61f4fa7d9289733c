// SPDX-License-Identifier: GPL-2.0-or-later
/* cli-util.c - small helpers the subcommands share. */
#include "config.h"

#include <string.h>

#include "cli-util.h"

const char *cli_opt_value(int argc, char **argv, int *i, const char *name, bool *missing)
{
	const char *a = argv[*i];
	size_t n = strlen(name);

	*missing = false;
	if (strncmp(a, name, n))
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n])
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}
