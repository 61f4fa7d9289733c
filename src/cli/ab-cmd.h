/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ab-cmd.h - `tunetop ab`: two knob sets run in interleaved pairs, then "is it real?". */
#ifndef TT_AB_CMD_H
#define TT_AB_CMD_H

/*
 * argv[0] is "ab": tunetop ab --a SPEC --b SPEC [-n N] [--seed S]
 * [--alpha A] [run options].  Runs N pairs of A and B in random order on
 * one target, puts every knob back, stores the runs (source "ab") and
 * prints per metric the medians, the difference with its 95 % bootstrap
 * interval, the Mann-Whitney p-value and a benchstat-like verdict.
 * Exit status: 0 compared (whatever the verdict), 1 a run or a knob
 * change failed or a knob could not be put back, 2 bad options, 130 when
 * a second signal aborted a run.
 */
int ab_main(int argc, char **argv);

#endif
