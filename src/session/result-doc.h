/* SPDX-License-Identifier: GPL-2.0-or-later */
/* result-doc.h - a run's result document: what --json prints and the history keeps. */
#ifndef TT_RESULT_DOC_H
#define TT_RESULT_DOC_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "capture/seghist.h"
#include "session/selector.h"

/*
 * The result document of r (docs/store.md, "The result document"): test,
 * params, target, target_short, tcp_metrics, result (every selector of
 * selector.h by lower-case name, null when absent), local, remote,
 * iterations, confidence, counts_agree, counts, failed, failure, knobs,
 * limits.  Service demand is there only for an end whose CPU figures were
 * asked for (lcpu: -c, rcpu: -C), as in netperf.  A new reference or NULL.
 */
json_t *result_doc(const struct run_summary *r, bool lcpu, bool rcpu);

/*
 * The document of one run of one iteration (as `tunetop run` without -i
 * writes it): failed, and why, with lcpu / rcpu as for result_doc.  The
 * dashboard's runs and plan points are stored with it.  NULL when out of
 * memory.
 */
json_t *result_doc_one(const struct session_result *res, bool failed, const char *why,
		       bool lcpu, bool rcpu);

/*
 * r as it is reported: service demand needs -c (lcpu, local) or -C (rcpu,
 * remote), as in netperf.  Shallow (shares r's pointers); free() it.
 * NULL when out of memory.
 */
struct run_summary *result_doc_masked(const struct run_summary *r, bool lcpu, bool rcpu);

/*
 * The field id of doc's "result" member, or NULL when the document has
 * none (an older run, not JSON).  Every field the engine reads of a
 * stored result goes through here, by its id.
 */
const json_t *result_doc_field(const json_t *doc, enum sel_id id);

/* The same field as a number, NAN when it is absent or not a number. */
double result_doc_num(const json_t *doc, enum sel_id id);

/* The same field as a string, NULL when it is absent or not a string. */
const char *result_doc_str(const json_t *doc, enum sel_id id);

/*
 * One direction of a capture as the document keeps it: {"label", "mss",
 * "mss_source", "packets", "acks", "ctl", "data", "bytes", "lost_bins",
 * "classes": {"below-mss": {"segments", "bytes"}, ...}, "largest",
 * "commonest", "sizes": [[size, count], ...]}; a UDP direction has no MSS
 * and no classes by it.  A new reference, NULL when out of memory.
 */
json_t *result_doc_segs(const struct seghist *h, const char *label, const char *mss_note,
			uint32_t mss, bool udp);

/* Where the MSS of direction d of capture c came from ("SYN",
 * "TCP_INFO"), for the reader; NULL when it is unknown. */
const char *result_doc_mss_note(const struct seg_capture *c, int d);

#endif
