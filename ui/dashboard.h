/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dashboard.h - `tunetop` with no subcommand: the live dashboard. */
#ifndef TT_DASHBOARD_H
#define TT_DASHBOARD_H

/*
 * argv[0] is the program; the rest are the dashboard's own options
 * (--frames N, --ascii, --colours N) and `tunetop run`'s.  Returns the
 * exit status: 0, 1 when something failed, 2 for bad options or no
 * terminal.
 */
int dashboard_main(int argc, char **argv);

#endif
