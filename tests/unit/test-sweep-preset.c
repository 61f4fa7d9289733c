// SPDX-License-Identifier: GPL-2.0-or-later
/* test-sweep-preset.c - data/sweeps: lines, names, a preset found and checked, bad lines. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "stats/sweep-preset.h"
#include "tap.h"

static char dir[] = "/tmp/tt-preset-XXXXXX";

/* A file of presets with text in it; its path (static, one at a time). */
static const char *file_of(const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sweeps", dir);
	f = fopen(path, "w");
	if (!f || fputs(text, f) == EOF || fclose(f))
		abort();
	return path;
}

static int count_cb(const struct sweep_preset *p, void *arg)
{
	unsigned *n = arg;

	(*n)++;
	return strcmp(p->word[0], "stop") ? 0 : 7;
}

static void lines(void)
{
	const char *path = file_of("# comment only\n\n  one   burst 1,2  # a comment\nstop knob x=1\ntwo size\n");
	struct sweep_preset p;
	char err[ERR_MAX] = "", names[256];
	unsigned n = 0;

	int ret = sweep_preset_each(path, count_cb, &n, err);

	ok(ret == 7 && n == 2,
	   "each: blank and comment lines skipped, the callback's value stops it (%u)", n);
	ok(!sweep_preset_names(path, names, sizeof(names), err) &&
	   !strcmp(names, "one, stop, two"), "names in order: %s", names);
	ok(!sweep_preset_find(path, "one", &p, err) && p.nword == 3 && p.kind == SW_BURST &&
	   !strcmp(p.word[2], "1,2") && p.lineno == 3 && !strcmp(p.text, "  one   burst 1,2") &&
	   !p.columns, "find: words, kind, line number, text without comment (%s)", p.text);
	ok(!sweep_preset_find(path, "two", &p, err) && p.kind == SW_SIZE && p.nword == 2,
	   "a preset with no arguments");
	ok(sweep_preset_find(path, "three", &p, err) == -ENOENT &&
	   strstr(err, "three: unknown preset; accepted: one, stop, two (") && strstr(err, path),
	   "an unknown name lists the names and the file: %s", err);
	path = file_of("tab\tburst\t1,2\nev\x1b[2Jil burst 4\n");
	ok(!sweep_preset_find(path, "tab", &p, err) && p.nword == 3 && !strcmp(p.word[2], "1,2") &&
	   !strcmp(p.text, "tab burst 1,2"), "tabs are blanks (%s)", p.text);
	ok(!sweep_preset_names(path, names, sizeof(names), err) &&
	   !strcmp(names, "tab, ev\\x1b[2Jil"), "a control byte reaches no terminal: %s", names);
	path = file_of("# none\n");
	ok(!sweep_preset_names(path, names, sizeof(names), err) && !strcmp(names, "none defined"),
	   "no preset: none defined");
}

static void columns(void)
{
	const char *path = file_of("a burst 2,4 --reverse --columns X_Y,Z\nb size --columns=P50_LATENCY --response\nc burst --columns\nd burst --columns --reverse\n");
	struct sweep_preset p;
	char err[ERR_MAX] = "";

	ok(!sweep_preset_find(path, "a", &p, err) && p.columns && !strcmp(p.columns, "X_Y,Z") &&
	   p.nword == 6, "--columns LIST found, the words kept whole");
	ok(!sweep_preset_find(path, "b", &p, err) && p.columns &&
	   !strcmp(p.columns, "P50_LATENCY"), "--columns=LIST");
	ok(sweep_preset_find(path, "c", &p, err) == -EINVAL && strstr(err, ":3: --columns without a list; accepted: --columns NAME"),
	   "--columns at the end: file:line and what is accepted: %s", err);
	ok(sweep_preset_find(path, "d", &p, err) == -EINVAL && strstr(err, ":4: --columns"),
	   "--columns before another option: %s", err);
}

static void bad(void)
{
	char err[ERR_MAX] = "", path[300], long_line[1200];
	struct sweep_preset p;
	const char *f;

	f = file_of("x\ny preset seed000\nz wobble 1,2\n");
	ok(sweep_preset_find(f, "x", &p, err) == -EINVAL &&
	   strstr(err, "x: ") && strstr(err, "sweeps:1: the line names no sweep kind; accepted: NAME KIND ARGS with KIND one of size, burst, knob, send-size"),
	   "a name alone: %s", err);
	ok(sweep_preset_find(f, "y", &p, err) == -EINVAL && strstr(err, ":2: unknown sweep kind 'preset'"),
	   "a preset of a preset is no kind: %s", err);
	ok(sweep_preset_find(f, "z", &p, err) == -EINVAL && strstr(err, ":3: unknown sweep kind 'wobble'; accepted:"),
	   "an unknown kind: %s", err);
	memset(long_line, 'a', sizeof(long_line) - 2);
	long_line[sizeof(long_line) - 2] = '\n';
	long_line[sizeof(long_line) - 1] = '\0';
	f = file_of(long_line);
	ok(sweep_preset_find(f, "a", &p, err) == -EINVAL && strstr(err, ":1: line longer than 1023 characters"),
	   "a line past the buffer: %s", err);
	long_line[1023] = '\0';
	memcpy(long_line, "w burst ", 8);
	strcat(long_line, "\n");
	f = file_of(long_line);
	err[0] = '\0';
	ok(!sweep_preset_find(f, "w", &p, err) && p.nword == 3,
	   "a line of exactly 1023 characters is whole (%s)", err);
	snprintf(path, sizeof(path), "%s/nosuch", dir);
	ok(sweep_preset_find(path, "a", &p, err) == -EIO && strstr(err, "nosuch: No such file"),
	   "no file: -EIO naming it: %s", err);
	ok(strstr(sweep_preset_path(path, sizeof(path)), "/sweeps") != NULL,
	   "the presets sit beside the catalog: %s", path);
}

int main(void)
{
	char path[300];

	if (!mkdtemp(dir))
		return 1;
	lines();
	columns();
	bad();
	snprintf(path, sizeof(path), "%s/sweeps", dir);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
