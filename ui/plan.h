/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan.h - sweeps and A/B comparisons started from the dashboard: a queue of runs. */
#ifndef TT_PLAN_H
#define TT_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "ui.h"

/*
 * A dashboard sweep's table, as tunetop sweep's (docs/sweeps.md,
 * "Columns"): each point's rate and its value in the sweep's columns,
 * the cliffs once it ended.  The runs panel shows the newest (u->sweep).
 */
struct plan_table_pt {
	char point[64];
	char knob[2][SWEEP_COL_TEXT];	/* two crossed knobs: each one's value */
	bool ran, failed, cliff;
	double rate;			/* NAN unless it ran to its end (or was stopped) */
	double drop_pct;		/* a cliff's drop below its neighbours */
	char col[SWEEP_COLS_MAX][SWEEP_COL_TEXT];	/* sweep_cols_text */
};

struct plan_table {
	char kind[16];
	char preset[64];		/* the preset it came from, "" none */
	struct sweep_cols cols;
	char note[128];			/* what its columns turned on, "" nothing */
	char reverse[96];		/* --reverse: what the runs do (target_reverse_desc), "" not */
	unsigned nknob;			/* 2: two crossed knobs, a column each; else 0 */
	char knob[2][SWEEP_COL_TEXT];	/* their titles: "rx-usecs", "remote:tcp_sack" */
	bool rr;
	char units[16];			/* its runs' units, "" before the first */
	unsigned n;			/* points planned */
	struct plan_table_pt pt[SWEEP_MAX_POINTS];
};

/*
 * Start a sweep ("size", "size --response", "burst 0,1,4 [--reverse]",
 * "send-size 1K,4K", "knob [remote:]NAME=V1,V2,... [[remote:]NAME2=W1,...]"
 * (two crossed as tunetop sweep crosses them), each with "--columns LIST";
 * "preset NAME" of data/sweeps) or, with ab, an A/B comparison
 * ("--a SPEC --b SPEC [-n N]", SPEC as tunetop ab's) of the test on show.
 * Each point is one run of the dashboard; knobs the plan changes are put
 * back when it ends or is stopped.  0, or -EINVAL with err saying what is
 * accepted (nothing started).
 */
int plan_start(struct ui *u, const char *spec, bool ab, char *err);
/* A plan is in progress. */
bool plan_active(const struct ui *u);
/* "sweep 3/17 size=4345" / "A/B 2/10 b"; "" when none. */
const char *plan_progress(const struct ui *u, char *buf, unsigned len);
/* The run ended: note its figures, then start the next point or finish
 * (knobs put back, the cliffs or the verdict in the status line). */
void plan_run_ended(struct ui *u, struct model_run *r);
/* Stop after the run in flight: knobs put back, what was measured reported. */
void plan_cancel(struct ui *u);
void plan_free(struct ui *u);
/* Drop the newest sweep's table (u->sweep). */
void plan_table_free(struct ui *u);

/* A run as a point of a dashboard sweep: the rate and noise figures the
 * cliff rule reads (rate NAN unless it ended cleanly). */
void plan_point_of_run(const struct model_run *r, struct sweep_policy_pt *pt);
/*
 * The end of a dashboard sweep: its cliffs marked by the engine's rule
 * (pt[i].cliff) and the status line, "sweep burst done: 3 points, 1
 * cliff burst=4" (the points with a result, the cliffs by name).
 * Returns the number of cliffs.
 */
unsigned plan_sweep_summary(const char *kind, struct sweep_policy_pt *pt, unsigned n,
			    char *line, size_t len);

#endif
