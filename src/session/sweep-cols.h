/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep-cols.h - the columns of a sweep's table and how a point's value in one reads. */
#ifndef TT_SWEEP_COLS_H
#define TT_SWEEP_COLS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "core/params.h"

/*
 * A sweep's table is its point, its rate (THROUGHPUT, the figure the
 * cliff rule reads, with its confidence half-width when iterating), then
 * these columns: output selector names (`tunetop run -- -o help`),
 * upper case.  Every front end (tunetop sweep and sweep show, the
 * dashboard's sweeps, tunetop report) takes the columns and the text of
 * a point's value in them from here (docs/sweeps.md, "Columns").
 */
#define SWEEP_COLS_MAX 16
#define SWEEP_COL_NAME 40
#define SWEEP_COL_TEXT 32

struct sweep_cols {
	unsigned n;
	char name[SWEEP_COLS_MAX][SWEEP_COL_NAME];
};

/*
 * The columns of a sweep: list (comma-separated selector names, from
 * -o/-O/-k or a preset's --columns; the caller has checked the names)
 * or, when list is NULL or empty, the default: p50 and p99 latency for a
 * request/response test, the CPU of an end with -c / -C.  THROUGHPUT is
 * left out (the rate column is always there); repeats are kept once.
 * 0, or -EINVAL with err (too many, a name too long).
 */
int sweep_cols_make(const char *list, bool rr, bool lcpu, bool rcpu, struct sweep_cols *c,
		    char *err);

/*
 * Check a --columns list (output selector names) for a test of type t,
 * as every front end takes it: 0, or -EINVAL with err "option --columns
 * NAME: why; accepted: ...".
 */
int sweep_cols_check(const char *list, enum test_type t, bool iterating, char *err);

/*
 * What the columns need of the runs: the local CPU figures (-c), the
 * remote ones (-C), a capture of the segments on the wire.
 */
void sweep_cols_needs(const struct sweep_cols *c, bool *lcpu, bool *rcpu, bool *capture);

/*
 * Turn on what the columns need (docs/sweeps.md, "Columns"): -c and -C
 * (*lcpu, *rcpu) for a column of an end's CPU, the capture (off becomes
 * auto) for a capture column.  note says what was turned on, or the
 * capture mode when a capture column finds it on; "" when neither.
 */
void sweep_cols_turn_on(const struct sweep_cols *c, bool *lcpu, bool *rcpu,
			enum capture_mode *capture, char *note, size_t len);

/* The title of the rate column: the runs' units, else by the test type. */
const char *sweep_cols_rate_title(const char *units, bool rr);

/* The title of column name in a human table ("p50 us"; else the name). */
const char *sweep_cols_title(const char *name);

/*
 * The value of column name for one run, from its result document (the
 * `tunetop run --json` document the history keeps): a new reference to
 * the number or string, or json_null() when the run has no such figure.
 */
json_t *sweep_cols_value(const json_t *result, const char *name);

/*
 * The text of that value: an integer as it is, a real with 2 decimals
 * (3 below 10), a string with anything unprintable as '?' (a comma stays:
 * CSV quotes it, src/core/csv.c), "n/a" when the run has no such figure.
 * Returns buf.
 */
const char *sweep_cols_text(const json_t *result, const char *name, char *buf, size_t len);

/* Keep the columns in a sweep's stored spec ("columns": [names]).  0 or -ENOMEM. */
int sweep_cols_to_spec(const struct sweep_cols *c, json_t *spec);

/* The columns a stored spec keeps; -ENOENT when it has none (an older sweep). */
int sweep_cols_from_spec(const json_t *spec, struct sweep_cols *c);

#endif
