/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.h - `tunetop run`'s options in the CLI: the engine's parse (session/options.h), help printed. */
#ifndef TT_OPTIONS_H
#define TT_OPTIONS_H

#include <stdio.h>

#include "engine.h"

/*
 * Parse `tunetop run [global options] -- [test options]` (argv[0] is "run").
 * Returns 0; 1 when help (-h, -o help) was printed to stdout; or 2 with a
 * one-line "option -X VALUE: what was wrong; accepted: ..." message in err
 * (ERR_MAX bytes).
 */
int options_parse(int argc, char **argv, struct run_opts *o, char *err);

/* The same, printing help to out instead of stdout. */
int options_parse_to(int argc, char **argv, struct run_opts *o, FILE *out,
		     char *err);

/* Print the help h asked for (options_argv's o->help) to f, as `tunetop run` does. */
void options_help(FILE *f, enum options_help h);

/*
 * Whether the word a, an option of `tunetop run` before `--`, takes the
 * next word as its value ("-l", "-cl", "--set", not "--set=X" or "-l5"):
 * for commands that pass run's options through (tunetop ab).
 */
bool options_takes_next(const char *a);

/* Print usage of `tunetop run` to f. */
void options_usage(FILE *f);

#endif
