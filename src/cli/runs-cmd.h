/* SPDX-License-Identifier: GPL-2.0-or-later */
/* runs-cmd.h - `tunetop runs`: the run history. */
#ifndef TT_RUNS_CMD_H
#define TT_RUNS_CMD_H

/* argv[0] is "runs".  0; 1 on a failure (check: a regression); 2 bad use. */
int runs_main(int argc, char **argv);

#endif
