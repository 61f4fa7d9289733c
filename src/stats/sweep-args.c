// SPDX-License-Identifier: GPL-2.0-or-later
/* sweep-args.c - a sweep's own arguments, between its kind and the run options. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "core/util.h"
#include "stats/sweep-args.h"

/* "--NAME VALUE" or "--NAME=VALUE" at argv[*i]: its value (NULL none), *i past it. */
static const char *sweep_arg_value(int argc, char **argv, int *i, size_t len)
{
	const char *a = argv[*i];

	if (a[len])
		return a + len + 1;
	return *i + 1 < argc ? argv[++*i] : NULL;
}

/* Whether a is option name, alone or with "=VALUE". */
static bool sweep_arg_is(const char *a, const char *name)
{
	size_t len = strlen(name);

	return !strncmp(a, name, len) && (!a[len] || a[len] == '=');
}

bool sweep_arg_own(const char *a)
{
	return !strcmp(a, "--response") || !strcmp(a, "--reverse") ||
	       sweep_arg_is(a, "--columns") || sweep_arg_is(a, "--mss");
}

int sweep_arg_next(enum sweep_kind kind, int argc, char **argv, int *i, const char **val,
		   uint32_t *mss, char *err)
{
	const char *a;
	uint64_t x;

	*val = NULL;
	if (*i >= argc)
		return SWEEP_ARG_END;
	a = argv[*i];
	if (!strcmp(a, "-h") || !strcmp(a, "--help"))
		return SWEEP_ARG_HELP;
	if (!strcmp(a, "--response") || !strcmp(a, "--reverse")) {
		bool resp = a[4] == 's';

		if (kind != (resp ? SW_SIZE : SW_BURST))
			return err_set(err, -EINVAL, "option %s: applies to sweep %s only", a,
				       resp ? "size" : "burst");
		(*i)++;
		return resp ? SWEEP_ARG_RESPONSE : SWEEP_ARG_REVERSE;
	}
	if (sweep_arg_is(a, "--columns")) {
		*val = sweep_arg_value(argc, argv, i, 9);
		if (!*val || !**val || **val == '-' || strlen(*val) >= SWEEP_ARGS_COLUMNS)
			return err_set(err, -EINVAL, "option --columns%s%.40s: %s; accepted: --columns NAME[,NAME...] of `tunetop run -- -o ?`",
				       *val && **val ? " " : "", *val ? *val : "",
				       *val && **val == '-' ? "an option, not a list" :
				       *val && **val ? "list too long" : "no list");
		(*i)++;
		return SWEEP_ARG_COLUMNS;
	}
	if (sweep_arg_is(a, "--mss")) {
		if (kind != SW_SIZE)
			return err_set(err, -EINVAL, "option --mss: applies to sweep size only");
		*val = sweep_arg_value(argc, argv, i, 5);
		if (!*val || parse_uint(*val, 1, 65535, &x))
			return err_set(err, -EINVAL, "option --mss %s: not an MSS; accepted: bytes, 1-65535 (e.g. 1448)",
				       *val ? *val : "");
		*mss = (uint32_t)x;
		(*i)++;
		return SWEEP_ARG_MSS;
	}
	if (a[0] == '-')
		return SWEEP_ARG_END;
	*val = a;
	(*i)++;
	return SWEEP_ARG_WORD;
}
