// SPDX-License-Identifier: GPL-2.0-or-later
/* sweep-preset.c - `tunetop sweep preset`: list data/sweeps, or expand one of its lines. */
#include "config.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "sweep-preset.h"

#define WHO "tunetop sweep"
#define PRESET_WORDS 64

/* Where the presets are: beside the knob catalog (data/, or $(pkgdatadir)). */
static const char *sweep_preset_path(void)
{
	static char path[4096];
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s", catalog_default_path());
	snprintf(path, sizeof(path), "%s/sweeps", dirname(dir));
	return path;
}

/* Split line into blank-separated words, dropping a '#' comment; the count. */
static unsigned sweep_words(char *line, char **w, unsigned max)
{
	char *hash = strchr(line, '#'), *save = NULL, *tok;
	unsigned n = 0;

	if (hash)
		*hash = '\0';
	for (tok = strtok_r(line, " \t\r\n", &save); tok && n < max;
	     tok = strtok_r(NULL, " \t\r\n", &save))
		w[n++] = tok;
	return n;
}

/*
 * `sweep preset [NAME]`: with no name list the presets; else find NAME's
 * line ("NAME KIND ARGS...") and put its kind and arguments in words[]
 * (*nw of them; 0 when listing).  0, or the exit status with the reason
 * printed.
 */
static int sweep_preset(const char *name, char *line, size_t llen, char **words,
			unsigned *nw)
{
	const char *path = sweep_preset_path();
	char names[1024] = "";
	FILE *f = fopen(path, "re");
	int found = 0;

	*nw = 0;
	if (!f) {
		fprintf(stderr, WHO " preset: %s: %s\n", path, strerror(errno));
		return 1;
	}
	while (fgets(line, (int)llen, f)) {
		char copy[1024];
		unsigned n;

		snprintf(copy, sizeof(copy), "%s", line);
		n = sweep_words(line, words, PRESET_WORDS);
		if (!n)
			continue;
		if (!name) {
			char *hash = strchr(copy, '#');

			if (hash)
				*hash = '\0';
			copy[strcspn(copy, "\r\n")] = '\0';
			while (*copy && strchr(" \t", copy[strlen(copy) - 1]))
				copy[strlen(copy) - 1] = '\0';
			printf("%s\n", copy);
			continue;
		}
		if (!strcmp(words[0], name)) {
			found = 1;
			*nw = n - 1;
			memmove(words, words + 1, (n - 1) * sizeof(*words));
			break;
		}
		if (strlen(names) + strlen(words[0]) + 3 < sizeof(names))
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 *names ? ", " : "", words[0]);
	}
	if (name && !found) {
		/* Finish the list of names for the message. */
		while (fgets(line, (int)llen, f)) {
			unsigned n = sweep_words(line, words, PRESET_WORDS);

			if (n && strlen(names) + strlen(words[0]) + 3 < sizeof(names))
				snprintf(names + strlen(names), sizeof(names) - strlen(names),
					 "%s%s", *names ? ", " : "", words[0]);
		}
	}
	fclose(f);
	if (name && !found) {
		fprintf(stderr, WHO " preset %s: unknown preset; accepted: %s (%s)\n", name,
			*names ? names : "none defined", path);
		return 2;
	}
	if (found && (*nw == 0 || !strcmp(words[0], "preset"))) {
		fprintf(stderr, WHO " preset %s: %s: the line names no sweep kind; accepted: NAME KIND ARGS with KIND one of size, burst, knob, send-size\n",
			name, path);
		return 2;
	}
	return 0;
}

/*
 * Replace `sweep preset NAME [run options]` by the preset's `sweep KIND
 * ARGS... [run options]`; 0, -1 when listed, or the exit status.
 */
int sweep_preset_expand(int *argc, char ***argv)
{
	static char line[1024];
	static char *pargv[PRESET_WORDS + 260];
	char *words[PRESET_WORDS];
	char **av = *argv;
	unsigned nw = 0;
	int ret, i;

	ret = sweep_preset(*argc > 2 ? av[2] : NULL, line, sizeof(line), words, &nw);
	if (ret)
		return ret;
	if (!nw)
		return -1;
	if (*argc - 3 > 256) {
		fprintf(stderr, WHO ": too many arguments; accepted: at most 256 run options\n");
		return 2;
	}
	/* "sweep KIND ARGS... [the user's run options]". */
	pargv[0] = av[0];
	for (i = 0; i < (int)nw; i++)
		pargv[i + 1] = words[i];
	for (int j = 3; j < *argc; j++)
		pargv[++i] = av[j];
	pargv[++i] = NULL;
	*argc = i;
	*argv = pargv;
	return 0;
}
