// SPDX-License-Identifier: GPL-2.0-or-later
/* sweep-preset.c - `tunetop sweep preset`: list data/sweeps, or expand one of its lines. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "sweep-preset.h"

#define WHO "tunetop sweep"

/* A preset's line as the list shows it. */
static int sweep_preset_print_cb(const struct sweep_preset *p, void *arg)
{
	(void)arg;
	printf("%s\n", p->text);
	return 0;
}

/*
 * Replace `sweep preset NAME [run options]` by the preset's `sweep KIND
 * ARGS... [run options]`; 0, -1 when listed, or the exit status.  The
 * file, its lines and the checks are the engine's (sweep_preset_find).
 */
int sweep_preset_expand(int *argc, char ***argv)
{
	static struct sweep_preset p;
	static char *pargv[SWEEP_PRESET_WORDS + 260];
	char path[4096], err[ERR_MAX] = "";
	char **av = *argv;
	int ret, i;

	sweep_preset_path(path, sizeof(path));
	if (*argc <= 2) {
		ret = sweep_preset_each(path, sweep_preset_print_cb, NULL, err);
		if (ret) {
			fprintf(stderr, WHO " preset: %s\n", err);
			return ret == -EIO ? 1 : 2;
		}
		return -1;
	}
	ret = sweep_preset_find(path, av[2], &p, err);
	if (ret) {
		fprintf(stderr, WHO " preset%s%s\n", ret == -EIO ? ": " : " ", err);
		return ret == -EIO ? 1 : 2;
	}
	if (*argc - 3 > 256) {
		fprintf(stderr, WHO ": too many arguments; accepted: at most 256 run options\n");
		return 2;
	}
	/* "sweep KIND ARGS... [the user's run options]". */
	pargv[0] = av[0];
	for (i = 1; i < (int)p.nword; i++)
		pargv[i] = p.word[i];
	i--;
	for (int j = 3; j < *argc; j++)
		pargv[++i] = av[j];
	pargv[++i] = NULL;
	*argc = i;
	*argv = pargv;
	return 0;
}
