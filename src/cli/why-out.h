/* SPDX-License-Identifier: GPL-2.0-or-later */
/* why-out.h - what moved between two runs (why-change.h), as every CLI output shows it. */
#ifndef TT_WHY_OUT_H
#define TT_WHY_OUT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "engine.h"

/* How why_out_change() writes. */
enum why_out_style {
	WHY_OUT_TEXT,		/* the throughput line, then the mechanisms numbered, a line each */
	WHY_OUT_HTML,		/* the report's <p> and <ol> */
	WHY_OUT_BRIEF,		/* one line: the names of the largest, ", " between */
};

/*
 * What moved from run A to run B (c; the throughput in units) to f: the
 * throughput against the noise, then at most max mechanisms, largest
 * first (docs/why.md).  prefix: with WHY_OUT_TEXT the indent of each
 * line, with WHY_OUT_HTML the id of the list (and "-thr" of the
 * throughput's paragraph); with WHY_OUT_BRIEF nothing is printed when
 * nothing moved.  Every front end of the CLI prints it here:
 * `runs diff`, `ab`, `sweep` and `sweep show` cliffs, the report.
 */
void why_out_change(FILE *f, const struct why_change *c, const char *units,
		    enum why_out_style st, const char *prefix, unsigned max);

/* The knobs that differ between run ida (A) and idb (B), one a line, each
 * line after prefix; or that they are the same or not recorded. */
void why_out_knobs(FILE *f, const struct why_change *c, int64_t ida, int64_t idb,
		   const char *prefix);

/* c as JSON: throughput_a, throughput_b, change_pct, noise,
 * beyond_noise, moved [{what, a, b, score, text}], knobs [{end, name,
 * group, a, b}] (null: not recorded in both), knobs_more, note; NULL out
 * of memory. */
json_t *why_out_json(const struct why_change *c);

#endif
