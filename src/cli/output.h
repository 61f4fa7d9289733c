/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output.h - interim and final results of `tunetop run`: human, CSV, keyval, JSON. */
#ifndef TT_OUTPUT_H
#define TT_OUTPUT_H

#include <stdio.h>

#include <jansson.h>

#include "options.h"
#include "run.h"
#include "engine.h"

/*
 * Tick n (from 0) of a running test: with -D a netperf-like "Interim
 * result:" line, with -D and -o netperf's CSV interim line, with -D and -k
 * its NETPERF_INTERIM_RESULT[n] and three more lines; with --json-stream
 * one {"type":"interval",...} line.  Returns 0, or -ENOMEM/-EIO.
 */
int output_interim(FILE *f, const struct run_opts *o,
		   const struct session_event *ev, unsigned n);

/*
 * netperf's banner line ("MIGRATED TCP STREAM TEST from ... : demo") for
 * the test o describes, printed before the run as netperf does (so it
 * leads -D's interim lines); nothing with -P 0 or JSON.
 */
void output_banner(FILE *f, const struct run_opts *o);

/*
 * Where tunetop's own lines go beside netperf's on out (docs/netperf.md):
 * the lines after netperf's block (target, buffer growth, latency, CPU,
 * counts, limits, knobs set) go to out itself in the human form with
 * titles (-P 1, no -O, no -v 0), else nowhere (NULL); in netperf mode to
 * stderr with --extras, else nowhere.
 */
FILE *output_extras(const struct run_opts *o, FILE *out);
/*
 * Where the notes go that are no part of netperf's output (the target, a
 * failure, a counts disagreement, "Stored as run N"): stderr, or in
 * netperf mode without --extras nowhere (NULL).
 */
FILE *output_notes(const struct run_opts *o);

/* The final result in the format the options chose.  0, -ENOMEM or -EIO. */
int output_result(FILE *f, const struct run_opts *o,
		  const struct run_summary *r);

/*
 * The result as --json prints it: test, params, target, result (every
 * selector by lower-case name, null when absent), local, remote, iterations,
 * confidence, counts_agree, counts, failed, failure.  A new reference or NULL.
 */
json_t *output_result_json(const struct run_opts *o,
			   const struct run_summary *r);

/*
 * The capture of both ends (output-capture.c): a line per end with its
 * device, filter, counts and any drop flagged, then the segment sizes of
 * each end's sent and received directions.  Nothing without --capture.
 */
void output_capture_human(FILE *f, const struct session_result *res);
/*
 * What limits the run (output-why.c): the ranked verdicts of the engine's
 * why rules, one line each, after the figures; in --json the "limits"
 * array of [{rule, tier, strength, evidence}].  0 or -ENOMEM.
 */
void output_why_human(FILE *f, const struct session_result *res);

#endif
