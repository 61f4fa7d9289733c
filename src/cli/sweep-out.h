/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep-out.h - `tunetop sweep`'s state and its output (sweep-out.c). */
#ifndef TT_SWEEP_OUT_H
#define TT_SWEEP_OUT_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "engine.h"
#include "options.h"
#include "run.h"
#include "engine.h"

struct catalog;

/* A knob swept, with where it lives and the value it had before. */
struct sweep_knob {
	const struct knob_def *d;
	bool remote;
	char name[KNOB_NAME_MAX];
	char buf[2048];
	const char *values[SWEEP_MAX_POINTS];
	unsigned n;
	struct plan_knob ch;	/* where it lives, its value before the sweep */
};

/* One point: its setting, and the figures of its run once run. */
struct sweep_point {
	char name[64];
	uint64_t value;		/* size, burst or send size */
	unsigned ki[2];		/* the knobs' value indices */
	bool ran, failed;
	char failure[ERR_MAX];
	int64_t run_id;		/* 0: not stored */
	unsigned iterations;
	double thr, ci, p50, p99, lcpu, rcpu;
	double tick_sd;		/* the rate's spread over the run's ticks; NAN n/a */
	double noise;		/* the noise the cliff rule used; NAN n/a */
	enum sweep_noise_src noise_src;
	bool cliff;
	double drop_pct;
	int before;		/* the point before it in its curve (pt[]), -1 none */
	/* A cliff: what moved from the point before it (docs/why.md), or why
	 * not known (moved_na); NULL for other points. */
	struct why_change *moved;
	char moved_na[ERR_MAX];
	/* Its value in each of the sweep's columns (sweep_cols_text) and
	 * those values as JSON {NAME: value}; NULL before it ran. */
	char col[SWEEP_COLS_MAX][SWEEP_COL_TEXT];
	json_t *colv;
};

/* One sweep: its options, its knobs, its points and how it ended. */
struct sweep {
	enum sweep_kind kind;
	bool response, reverse, mss_given, list_given;
	bool both;		/* knob both:NAME: knob[1] is knob[0] on the remote end, in step */
	uint32_t mss;
	char list_text[512];
	char columns[SWEEP_ARGS_COLUMNS];	/* --columns LIST (a preset's); "" none */
	struct sweep_cols cols;	/* the table's columns after the rate */
	char cols_note[256];	/* what the columns turned on (-c, -C, capture) */
	unsigned nknobs;
	struct sweep_knob knob[2];
	struct run_opts o;
	struct run_ctx c;
	bool ctx_open;
	struct catalog *cat;
	struct plan *pl;		/* its steps and knobs (src/plan/series.h) */
	struct knobs_txn *txn;		/* every knob the sweep changes (--set too) */
	struct sweep_point pt[SWEEP_MAX_POINTS];
	unsigned npt, nrun;
	int64_t sweep_id;
	char units[16];
	char target[160];
	bool target_of_run;	/* target is the first run's own description */
	bool interrupted, unreachable, restore_failed;
};

/* The sweep as store_add_sweep keeps it: what was asked for. */
json_t *sweep_out_spec_json(const struct sweep *sw);

/*
 * The human header: what is swept, first's test (the first point's
 * parameters, or the options' for a knob sweep), the target, the column
 * titles.
 */
void sweep_out_header(const struct sweep *sw, const struct test_params *first);

/* One point as a line of the table (without its newline). */
void sweep_out_row(const struct sweep *sw, const struct sweep_point *p);

/* Mark the cliffs among the points run (docs/sweeps.md); how many. */
unsigned sweep_out_mark_cliffs(struct sweep *sw);

/*
 * What moved at each cliff, from the point before it to the cliff point,
 * their stored runs read from the history at db (NULL: the default) and
 * compared by store_why_change(); no_db: the runs were not stored.
 */
void sweep_out_cliffs_moved(struct sweep *sw, const char *db, bool no_db);

/* The final table, cliffs marked. */
void sweep_out_table(const struct sweep *sw);

/* The --json document: kind, target, test, points, cliffs.  0 or -ENOMEM. */
int sweep_out_json(const struct sweep *sw);

/* Point p's column values from its run's result document (NULL: none). */
void sweep_out_point_cols(const struct sweep *sw, struct sweep_point *p, const json_t *result);

/* -o: the table as CSV (titles unless -P 0); -k: NAME=value lines per point. */
void sweep_out_csv(const struct sweep *sw);
void sweep_out_keyval(const struct sweep *sw);

/* Drop what the points hold (their column values). */
void sweep_out_free(struct sweep *sw);

#endif
