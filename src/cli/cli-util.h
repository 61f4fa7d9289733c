/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli-util.h - small helpers the subcommands share. */
#ifndef TT_CLI_UTIL_H
#define TT_CLI_UTIL_H

#include <stdbool.h>

/*
 * "--name VALUE" or "--name=VALUE" at argv[*i]: the value (advancing *i
 * past a separate one), or NULL when argv[*i] is another option; *missing
 * is set when --name is last with no value.
 */
const char *cli_opt_value(int argc, char **argv, int *i, const char *name, bool *missing);

#endif
