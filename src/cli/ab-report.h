/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ab-report.h - `tunetop ab`'s state, and its result as a table or a JSON document. */
#ifndef TT_AB_REPORT_H
#define TT_AB_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "engine.h"
#include "options.h"

#define AB_MAX_ITEMS 32		/* knobs one side may name */
#define AB_MAX_KNOBS (2 * AB_MAX_ITEMS)

/* One [local:|remote:]NAME=VALUE of a side, checked against the catalog. */
struct ab_item {
	const struct knob_def *d;
	bool remote;
	struct knob_value v;		/* v.text is canonical */
};

/* A side, A or B: its spec, the knobs it names and its own test options. */
struct ab_side {
	const char *spec;		/* as given; "" = the knobs as they are */
	unsigned n;
	struct ab_item item[AB_MAX_ITEMS];
	char test[256];			/* test options of the side's spec ("-b 7"); "" none */
	struct test_params p;		/* the test it runs: the options' with test's */
};

/* A knob either side names: the plan's (where, its original, its value
 * now), and what A and B want of it. */
struct ab_knob {
	struct plan_knob k;
	bool remote;
	const char *val[2];		/* A's, B's value; NULL: the original */
};

/* The figures the comparison covers, in the order of the table. */
enum ab_metric_id {
	AB_M_THR, AB_M_P50, AB_M_P99, AB_M_LCPU, AB_M_RCPU, AB_M_LSD, AB_M_RSD, AB_M_COUNT
};

/* One run of the comparison. */
struct ab_run {
	unsigned pair;			/* 1-based */
	int side;			/* 0 A, 1 B */
	int64_t id;			/* in the history; 0 not stored */
	bool failed;
	bool cut;			/* cut short by a signal: not counted */
	double fig[AB_M_COUNT];		/* NAN n/a */
	char failure[ERR_MAX];
};

/* A comparison: options, sides, knobs, runs and the result per metric. */
struct ab_state {
	struct run_opts o;
	struct ab_side side[2];
	bool tests_differ;		/* the sides' test options make two tests */
	unsigned pairs;
	uint64_t seed;			/* 0..INT64_MAX, so JSON shows it as given */
	bool seed_given;
	double alpha;
	struct ab_knob knob[AB_MAX_KNOBS];
	unsigned nknobs;
	struct plan *pl;		/* its steps, knobs and verdict (src/plan/series.h) */
	struct knobs_txn *txn;		/* every knob a side changes */
	struct ab_run run[2 * PLAN_AB_MAX_PAIRS];
	unsigned nruns;
	unsigned pairs_done;		/* pairs with both runs counted */
	int64_t ab_id;			/* the A/B in the history; 0 none */
	bool store_failed;		/* a run could not be stored: stop trying */
	bool interrupted;
	bool failed;			/* a run or a knob change failed */
	char failure[ERR_MAX];
	bool restore_failed;
	bool utf8;			/* the terminal shows "±" */
	struct ab_result res[AB_M_COUNT];
	bool measured[AB_M_COUNT];
	int cmp_rc[AB_M_COUNT];
	/* What moved from A to B (docs/why.md), between the median-rate run
	 * of each side (ab_median_run()): their ids, or why there is none. */
	bool has_moved;
	int64_t moved_id[2];
	struct why_change moved;
	char moved_na[ERR_MAX];
};

/* A side's settings as the history's spec keeps them: ["gro=on", ...]; NULL out of memory. */
json_t *ab_report_side_json(const struct ab_side *side);

/* The throughput's units as the progress line and table show them. */
const char *ab_report_thr_units(const struct run_opts *o);

/* A figure v of metric m as the table shows it ("14,231", "n/a"). */
void ab_report_fig(int m, double v, char *buf, size_t len);

/* The benchstat-like table, the summary line and the knobs of A and B, to f. */
void ab_report_print(const struct ab_state *st, FILE *f);

/* The --json document: settings, every run, every metric's comparison; NULL out of memory. */
json_t *ab_report_json(const struct ab_state *st, const char *target);

/* Whether stdout's locale shows UTF-8 ("±"), without changing the locale. */
bool ab_report_utf8(void);

#endif
