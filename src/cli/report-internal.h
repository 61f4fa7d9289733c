/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report-internal.h - what report.c and its sections (report-*.c) share. */
#ifndef TT_REPORT_INTERNAL_H
#define TT_REPORT_INTERNAL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "engine.h"

/* A sweep some selected run belongs to. */
struct report_sweep {
	int64_t id;
	char kind[16];
	bool has_cols;		/* its spec keeps the columns it was shown with */
	struct sweep_cols cols;
};

/* The report being written: its heading, its runs and their sweeps. */
struct report {
	const char *title, *db;
	struct store_run *runs;
	unsigned n;
	struct report_sweep *sweeps;
	unsigned nsweeps;
};

/* A JSON number as a double; NAN for null or anything not a number. */
static inline double report_jnum(const json_t *j)
{
	return json_is_number(j) ? json_number_value(j) : NAN;
}

/* What limited each run: its stored why verdicts (report-limits.c). */
void report_write_limits(FILE *f, const struct report *rp);
/* For exactly two runs: the throughput against the noise and the
 * mechanisms that moved, largest first (report-limits.c). */
void report_write_moved(FILE *f, const struct report *rp);

/* The sweep curves with their cliffs (report-sweep.c); 0 or -ENOMEM. */
int report_write_sweeps(FILE *f, const struct report *rp);

/* The segment-size histograms of the captured runs (report-segments.c). */
void report_write_segments(FILE *f, const struct report *rp);

/* The table of knobs that differ between the runs (report-knobs.c); 0 or -errno. */
int report_write_knob_diff(FILE *f, const struct report *rp);

#endif
