/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep-show.h - `tunetop sweep show ID`: a stored sweep's table again. */
#ifndef TT_SWEEP_SHOW_H
#define TT_SWEEP_SHOW_H

/*
 * `tunetop sweep show ID [--json] [--db PATH]` (argv[0] "sweep", argv[1]
 * "show"): the table (or --json document) of stored sweep ID, its cliffs
 * marked by the engine's rule as a live sweep marks them.  Returns the
 * exit status: 0, 1 when the sweep cannot be read, 2 for bad options.
 */
int sweep_show_main(int argc, char **argv);

#endif
