/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep-args.h - a sweep's own arguments, between its kind and the run options. */
#ifndef TT_SWEEP_ARGS_H
#define TT_SWEEP_ARGS_H

#include <stdint.h>

#include "stats/sweep-policy.h"

/* The longest --columns LIST, with its NUL. */
#define SWEEP_ARGS_COLUMNS 1024

/* What one of a sweep's own arguments is (docs/sweeps.md, Kinds). */
enum sweep_arg {
	SWEEP_ARG_END,		/* the run options begin here (a word starting '-') */
	SWEEP_ARG_HELP,		/* -h, --help */
	SWEEP_ARG_RESPONSE,	/* --response (size) */
	SWEEP_ARG_REVERSE,	/* --reverse (burst) */
	SWEEP_ARG_COLUMNS,	/* --columns LIST: *val */
	SWEEP_ARG_MSS,		/* --mss N (size): *mss */
	SWEEP_ARG_WORD,		/* a list (burst, send-size) or a knob spec (knob): *val */
};

/*
 * Whether a is one of the sweep's own options (--response, --reverse,
 * --columns, --mss, alone or with "=VALUE"): taken anywhere before "--",
 * among the run options too.
 */
bool sweep_arg_own(const char *a);

/*
 * The sweep argument at argv[*i] of a sweep of kind, as `tunetop sweep`
 * and the dashboard's sweep prompt take them: *i moves past it and its
 * value.  Returns what it is (at the end of argv, SWEEP_ARG_END), or
 * -EINVAL with err ("option --mss 0: not an MSS; accepted: ...") for an
 * option of another kind, a missing or bad value, a list to a size sweep.
 */
int sweep_arg_next(enum sweep_kind kind, int argc, char **argv, int *i, const char **val,
		   uint32_t *mss, char *err);

#endif
