/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dashboard.h - `tunetop` with no subcommand: the live dashboard. */
#ifndef TT_DASHBOARD_H
#define TT_DASHBOARD_H

#include <stdbool.h>
#include <stdio.h>

#include "engine.h"

/* What the dashboard is asked to run: the target, the test, the history. */
struct dash_request {
	struct target_opts target;
	struct session_opts so;		/* the test (so.p), -4/-6, timeouts; the target fills the rest */
	char db_path[4096];		/* --db; "" = the default */
	bool no_db;			/* --no-db */
	bool local_cpu, remote_cpu;	/* -c, -C: the CPU figures a run's result shows */
	bool capture_given;		/* --capture[=MODE] given: else the dashboard's auto */
};

/*
 * argv[0] is the program; the rest are the dashboard's own options
 * (--frames N, --ascii, --colours N) and `tunetop run`'s (the engine's
 * options_argv).  Returns the exit status: 0, 1 when something failed, 2
 * for bad options or no terminal.  When `tunetop run`'s options asked for
 * help, *help says which and nothing ran: tunetop's main prints it as
 * `tunetop run` does.
 */
int dashboard_main(int argc, char **argv, enum options_help *help);

#endif
