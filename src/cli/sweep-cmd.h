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

#endif
