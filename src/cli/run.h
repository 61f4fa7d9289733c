/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run.h - `tunetop run`: iterations of a session, interim and final output. */
#ifndef TT_RUN_H
#define TT_RUN_H

#include <stdbool.h>

#include "session.h"
#include "stats.h"

struct cli_opts;

/* What `tunetop run` reports: the last iteration's figures and, with -i,
 * the confidence interval over all iterations. */
struct run_summary {
	struct session_result res;	/* the last iteration; throughput etc. */
	unsigned iterations;		/* run so far */
	bool iterating;			/* -i/-I given */
	struct iterate it;
	struct ci thr;			/* throughput over the iterations */
	struct ci lcpu, rcpu;		/* CPU util, when -c / -C */
	bool ci_reached;
	double mean_throughput;		/* reported throughput (mean with -i) */
	double mean_lcpu, mean_rcpu;
	bool failed;			/* a run failed: figures are partial */
	char failure[ERR_MAX];		/* which end failed and why */
};

/*
 * With no -H: an existing lab (--lab), loopback (--loopback, or no
 * privilege for a lab), or a new lab (*own, for the caller to destroy).
 * Sets o->so.lab and o->so.why.  0 or -errno with err.
 */
struct lab;
int run_pick_target(struct cli_opts *o, struct lab **own, char *err);

/* Run the test as the options say and print it; returns the exit status. */
int run_main(int argc, char **argv);

#endif
