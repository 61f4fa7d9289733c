/* SPDX-License-Identifier: GPL-2.0-or-later */
/* compare.h - which run the dashboard compares with, and the verdict of a pair, once per pair. */
#ifndef TT_COMPARE_H
#define TT_COMPARE_H

#include "ui.h"

/* What moved between two runs as the dashboard shows it. */
struct compare_pair {
	struct why_change c;		/* the engine's why_change(), verdict with history */
	char options[256];		/* the test options that differ, "-b 0 -> 7" ("" none) */
};

/*
 * What moved from run a to run b with all the history knows of their
 * noise: store_why_change_hist() for stored runs (their -i intervals,
 * else >= verdict_rule.min_history earlier runs of the same test, knobs
 * and target, else the prior), store_why_change() for runs not stored.
 * It is what `tunetop runs diff A B` prints for the same two runs; the
 * rate header and the runs panel both take it from here, computed once
 * per pair (the history is read up to the newer run, so it cannot change
 * later) and never per frame.  0 with *out; -EAGAIN while either runs;
 * -ENOENT with the run's doc_na saying why not.
 */
int compare_why(struct ui *u, struct model_run *a, struct model_run *b,
		const struct compare_pair **out);

/* Whether two runs are like with like: the same test type, hence unit. */
bool compare_like(const struct model_run *a, const struct model_run *b);

/*
 * Like with like when the run on show changes: a compared run of another
 * test or unit is dropped for the baseline of the new run's test (else
 * its newest earlier run of the same test, model_ghost()), or for none;
 * u->compare_note says so in words for the header.  Cheap when nothing
 * changed: called once per frame.  True when u->compare changed.
 */
bool compare_follow(struct ui *u);

#endif
