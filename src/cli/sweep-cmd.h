/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep-cmd.h - `tunetop sweep`: a test repeated over sizes, bursts or knob values. */
#ifndef TT_SWEEP_CMD_H
#define TT_SWEEP_CMD_H

#include <stdbool.h>

#include "engine.h"

/*
 * `tunetop sweep size|burst|knob|send-size|preset ...` (argv[0] is
 * "sweep"): one run per point against one target, a line per point as it
 * finishes, then the table with cliffs marked (docs/sweeps.md).  Returns
 * the exit status: 0, 1 when a point failed or a knob could not be put
 * back, 2 for bad options, 130 when a signal stopped it early.
 */
int sweep_main(int argc, char **argv);

/*
 * Check a --columns list (output selector names) for a test of type t:
 * 0, or 2 with err "option --columns NAME: why; accepted: ...".  The
 * dashboard's sweeps check theirs here too (through ui/main.c).
 */
int sweep_columns_check(const char *list, enum test_type t, bool iterating, char *err);

#endif
