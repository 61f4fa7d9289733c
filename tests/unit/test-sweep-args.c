// SPDX-License-Identifier: GPL-2.0-or-later
/* test-sweep-args.c - a sweep's own arguments: options, their kinds and values, the end. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "core/util.h"
#include "stats/sweep-args.h"
#include "tap.h"

/* Every argument of argv (from 1) until the run options; the kinds in what[]. */
static int walk(enum sweep_kind kind, int argc, char **argv, int *what, const char **val,
		uint32_t *mss, int *next, char *err)
{
	int i = 1, n = 0;

	for (;;) {
		int w = sweep_arg_next(kind, argc, argv, &i, &val[n], mss, err);

		if (w < 0)
			return w;
		what[n++] = w;
		if (w == SWEEP_ARG_END || w == SWEEP_ARG_HELP || n == 16)
			break;
	}
	*next = i;
	return n;
}

static void good(void)
{
	char *burst[] = { "burst", "1,2,4", "--reverse", "--columns", "P50_LATENCY", "-l", "1" };
	char *size[] = { "size", "--mss=1448", "--response", "--columns=A,B" };
	char *knob[] = { "knob", "remote:gro=on,off", "rx-usecs=0,3", "--help" };
	const char *val[16];
	char err[ERR_MAX] = "";
	uint32_t mss = 0;
	int what[16], next, n;

	n = walk(SW_BURST, 7, burst, what, val, &mss, &next, err);
	ok(n == 4 && what[0] == SWEEP_ARG_WORD && !strcmp(val[0], "1,2,4") &&
	   what[1] == SWEEP_ARG_REVERSE && what[2] == SWEEP_ARG_COLUMNS &&
	   !strcmp(val[2], "P50_LATENCY") && what[3] == SWEEP_ARG_END && next == 5,
	   "burst: a list, --reverse, --columns LIST, then the run options at -l (%d, next %d)",
	   n, next);
	n = walk(SW_SIZE, 4, size, what, val, &mss, &next, err);
	ok(n == 4 && what[0] == SWEEP_ARG_MSS && mss == 1448 && what[1] == SWEEP_ARG_RESPONSE &&
	   what[2] == SWEEP_ARG_COLUMNS && !strcmp(val[2], "A,B") && what[3] == SWEEP_ARG_END &&
	   next == 4, "size: --mss=N, --response, --columns=LIST, the end of argv");
	n = walk(SW_KNOB, 4, knob, what, val, &mss, &next, err);
	ok(n == 3 && what[0] == SWEEP_ARG_WORD && what[1] == SWEEP_ARG_WORD &&
	   !strcmp(val[1], "rx-usecs=0,3") && what[2] == SWEEP_ARG_HELP,
	   "knob: two specs, then --help");
}

static void bad(void)
{
	char *a1[] = { "burst", "--response" };
	char *a2[] = { "size", "--reverse" };
	char *a3[] = { "burst", "--mss", "1448" };
	char *a4[] = { "size", "--mss", "0" };
	char *a5[] = { "size", "--mss" };
	char *a6[] = { "size", "4,8" };
	char *a7[] = { "knob", "--columns" };
	char *a8[] = { "knob", "--columns=" };
	const char *val[16];
	char err[ERR_MAX] = "";
	uint32_t mss = 7;
	int what[16], next;

	ok(walk(SW_BURST, 2, a1, what, val, &mss, &next, err) == -EINVAL &&
	   !strcmp(err, "option --response: applies to sweep size only"), "%s", err);
	ok(walk(SW_SIZE, 2, a2, what, val, &mss, &next, err) == -EINVAL &&
	   !strcmp(err, "option --reverse: applies to sweep burst only"), "%s", err);
	ok(walk(SW_BURST, 3, a3, what, val, &mss, &next, err) == -EINVAL &&
	   !strcmp(err, "option --mss: applies to sweep size only"), "%s", err);
	ok(walk(SW_SIZE, 3, a4, what, val, &mss, &next, err) == -EINVAL &&
	   strstr(err, "option --mss 0: not an MSS; accepted: bytes, 1-65535") && mss == 7,
	   "%s (the MSS untouched)", err);
	ok(walk(SW_SIZE, 2, a5, what, val, &mss, &next, err) == -EINVAL &&
	   strstr(err, "option --mss : not an MSS"), "--mss without a value: %s", err);
	ok(walk(SW_SIZE, 2, a6, what, val, &mss, &next, err) == 2 && what[0] == SWEEP_ARG_WORD &&
	   !strcmp(val[0], "4,8"), "sweep size takes a list of its own (the engine plans it)");
	ok(walk(SW_KNOB, 2, a7, what, val, &mss, &next, err) == -EINVAL &&
	   strstr(err, "option --columns: no list; accepted: --columns NAME"), "%s", err);
	ok(walk(SW_KNOB, 2, a8, what, val, &mss, &next, err) == -EINVAL,
	   "--columns= with nothing after it: %s", err);
	{
		char *a9[] = { "burst", "--columns", "-l" };

		ok(walk(SW_BURST, 3, a9, what, val, &mss, &next, err) == -EINVAL &&
		   !strcmp(err, "option --columns -l: an option, not a list; accepted: --columns NAME[,NAME...] of `tunetop run -- -o ?`"),
		   "--columns followed by an option: %s", err);
	}
}

int main(void)
{
	good();
	bad();
	return tap_done();
}
