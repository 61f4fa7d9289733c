/* SPDX-License-Identifier: GPL-2.0-or-later */
/* result-doc.h - a run's result document: what --json prints and the history keeps. */
#ifndef TT_RESULT_DOC_H
#define TT_RESULT_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "capture/segcap.h"
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

/* The "result" member itself (every field by its lower-case name), or
 * NULL, for a reader that walks all fields (`runs diff`). */
const json_t *result_doc_fields(const json_t *doc);

/* The same field as a number, NAN when it is absent or not a number. */
double result_doc_num(const json_t *doc, enum sel_id id);

/* The same field as a string, NULL when it is absent or not a string. */
const char *result_doc_str(const json_t *doc, enum sel_id id);

/*
 * The members of the document the engine reads back, named once for
 * result_doc (the writer) and the accessors below; members written by
 * result_to_json and knobs_snapshot_to_json are named in proto/msg.h and
 * knobs/knobs.h.  RESULT_DOC_PATH makes an SQLite json_extract path of them
 * for the store: RESULT_DOC_PATH(RESULT_DOC_KEY_LOCAL "."
 * RESULT_DOC_KEY_SERVICE_DEMAND) is "$.local.service_demand".
 */
#define RESULT_DOC_KEY_RESULT		"result"
#define RESULT_DOC_KEY_LOCAL		"local"
#define RESULT_DOC_KEY_REMOTE		"remote"
#define RESULT_DOC_KEY_KNOBS		"knobs"
#define RESULT_DOC_KEY_CONFIDENCE	"confidence"
#define RESULT_DOC_KEY_SERVICE_DEMAND	"service_demand"
#define RESULT_DOC_KEY_CAPTURE		"capture"
#define RESULT_DOC_KEY_LIMITS		"limits"	/* why_report_to_json's array */
#define RESULT_DOC_PATH(member)		"$." member

/*
 * The ends of a document (RESULT_DOC_KEY_LOCAL, RESULT_DOC_KEY_REMOTE) as
 * the accessors below take them; end is one of these two strings.
 */
extern const char *const result_doc_ends[2];

/* End end's object (result_to_json's, with service_demand and capture), or
 * NULL when the document has none. */
const json_t *result_doc_end(const json_t *doc, const char *end);

/* End end's host name, NULL when not recorded. */
const char *result_doc_host(const json_t *doc, const char *end);

/* The segments end sent (its TCP_INFO segs_out over the flows); NAN n/a. */
double result_doc_segs_out(const json_t *doc, const char *end);

/* The softirq share of end's host over the run, in percent; NAN n/a. */
double result_doc_softirq(const json_t *doc, const char *end);

/* How many sockets (flows) end's object lists. */
size_t result_doc_nsocks(const json_t *doc, const char *end);

/* Socket i of end's limiter times (docs/why.md): busy, receive-window- and
 * send-buffer-limited, in us; NAN each when absent or not a number. */
void result_doc_sock_limited(const json_t *doc, const char *end, size_t i,
			     double *busy_us, double *rwnd_us, double *sndbuf_us);

/* End end's capture, NULL when it had none; its direction dir (CAP_OUT:
 * "sent", CAP_IN: "received"; result_doc_segs's object), NULL when none. */
const json_t *result_doc_capture(const json_t *doc, const char *end);
const json_t *result_doc_capture_dir(const json_t *doc, const char *end, int dir);

/* Of such a direction d: the sender's MSS (NAN unknown), its data segments
 * (NAN n/a), how many sizes it lists, and size i with its count (NAN each
 * n/a). */
double result_doc_seg_mss(const json_t *d);
double result_doc_seg_data(const json_t *d);
size_t result_doc_seg_nsizes(const json_t *d);
void result_doc_seg_size(const json_t *d, size_t i, double *size, double *count);

/* Direction dir of end's capture: its data segments and their bytes; NAN
 * each n/a (no capture). */
void result_doc_capture_counts(const json_t *doc, const char *end, int dir,
			       double *data, double *bytes);

/* Did end's capture drop packets (its counts are a sample)? */
bool result_doc_capture_dropped(const json_t *doc, const char *end);

/*
 * The confidence interval of an iterated run (-i/-I): the -I level and
 * width, the -i bounds and the throughput's interval (n; mean and half
 * width NAN when not numbers).  false when the document has none (one
 * iteration); another member absent reads 0, as json_number_value does.
 */
struct result_doc_conf {
	double level, width_pct;
	long long min_iter, max_iter;
	long long thr_n;
	double thr_mean, thr_half_width;
};
bool result_doc_confidence(const json_t *doc, struct result_doc_conf *c);

/*
 * End end's knob snapshot (knobs_snapshot_to_json's list), NULL when not
 * recorded; the knob called name in such a list, NULL when not there; a
 * knob's name, value text (NULL: n/a, the driver has none) and group.
 */
const json_t *result_doc_knob_list(const json_t *doc, const char *end);
const json_t *result_doc_knob(const json_t *list, const char *name);
const char *result_doc_knob_name(const json_t *knob);
const char *result_doc_knob_value(const json_t *knob);
const char *result_doc_knob_group(const json_t *knob);
const char *result_doc_knob_unit(const json_t *knob);
/* Why a knob has no value (knobs_knob_to_json's reason), NULL when it has one. */
const char *result_doc_knob_reason(const json_t *knob);

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
