/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report-internal.h - what report.c and its sections (report-*.c) share. */
#ifndef TT_REPORT_INTERNAL_H
#define TT_REPORT_INTERNAL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "engine.h"

/*
 * The most lines one chart draws: past about eight, colours and dashes no
 * longer tell lines apart (docs/report.md).  More runs make a selection,
 * more buffers or curves small multiples, each said in a note.
 */
#define REPORT_MAX_SERIES 8
/* The most units the runs of one report or sweep are grouped by. */
#define REPORT_UNITS_MAX 4

/* A sweep some selected run belongs to. */
struct report_sweep {
	int64_t id;
	char kind[16];
	bool has_cols;		/* its spec keeps the columns it was shown with */
	struct sweep_cols cols;
	/* An A/B's: its seed, and each side's settings ("remote:gro=on"; "" as they were). */
	uint64_t seed;
	char side[2][160];
};

/* The report being written: its heading, its runs and their sweeps. */
struct report {
	const char *title, *db;
	struct store_run *runs;
	unsigned n;
	struct report_sweep *sweeps;
	unsigned nsweeps;
	bool *cliff;		/* per run: a cliff of its sweep or the point before one */
};

/* A JSON number as a double; NAN for null or anything not a number. */
static inline double report_jnum(const json_t *j)
{
	return json_is_number(j) ? json_number_value(j) : NAN;
}

/*
 * The unit of run r's rate by the engine's rule (units_rate() of its
 * test): a chart draws runs of one unit only.
 */
static inline const struct rate_unit *report_unit(const struct store_run *r)
{
	int t = test_type_parse(r->test);

	/* A test this build does not know: a stream's unit, netperf's default. */
	return units_rate(t < 0 ? TEST_TCP_STREAM : (enum test_type)t);
}

/* A cliff of a sweep, as the engine's rule marks it (report-sweep.c). */
struct report_cliff {
	const struct store_run *run, *before;	/* the cliff's run, the point before's (or NULL) */
	double rate, rate_before, drop_pct;
	const struct rate_unit *units;
	char point[64];
};

#define REPORT_CLIFFS_MAX 8
struct report_cliffs {
	unsigned npoints, n;	/* points with a result, cliffs */
	unsigned shown;		/* cliffs in c[], at most REPORT_CLIFFS_MAX */
	struct report_cliff c[REPORT_CLIFFS_MAX];
};

/* The cliffs of sweep sw among rp's runs, each unit's curve judged apart; 0 or -ENOMEM. */
int report_sweep_cliffs(const struct report *rp, const struct report_sweep *sw,
			struct report_cliffs *out);

/* Mark rp->cliff from every sweep's cliffs (report-pick.c); 0 or -ENOMEM. */
int report_mark_cliffs(struct report *rp);

/*
 * Of the runs cand[0..n-1] (indices of rp->runs) at most max to draw,
 * kept in order in cand, their count returned: all when they fit, else
 * the cliffs and the points before them, the first and last, the highest
 * and lowest throughput, then evenly spread ones (docs/report.md); left
 * (may be NULL) gets the ids left out, as report_ids_text() writes them.
 */
unsigned report_pick_runs(const struct report *rp, unsigned *cand, unsigned n, unsigned max,
			  char *left, size_t leftlen);

/* The note below chart id that draws shown of total runs: "at most max per". */
void report_pick_note(FILE *f, const char *id, unsigned shown, unsigned total, unsigned max,
		      const char *per, const char *left);

/* Run ids id[0..n-1] (sorted here) as "1-39, 42, 44, 45": three or more in a row as a range. */
void report_ids_text(int64_t *id, unsigned n, char *buf, size_t len);

/* The verdict of each comparison, the first section (report-verdict.c); 0 or -ENOMEM. */
int report_write_verdicts(FILE *f, const struct report *rp);

/* What limited each run: its stored why verdicts (report-limits.c). */
void report_write_limits(FILE *f, const struct report *rp);
/* For exactly two runs: the throughput against the noise and the
 * mechanisms that moved, largest first (report-limits.c). */
void report_write_moved(FILE *f, const struct report *rp);

/* The sweep curves with their cliffs (report-sweep.c); 0 or -ENOMEM. */
int report_write_sweeps(FILE *f, const struct report *rp);

/* The segment-size histograms of the captured runs (report-segments.c); 0 or -ENOMEM. */
int report_write_segments(FILE *f, const struct report *rp);

/* The table of knobs that differ between the runs (report-knobs.c); 0 or -errno. */
int report_write_knob_diff(FILE *f, const struct report *rp);

#endif
