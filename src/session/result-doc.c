// SPDX-License-Identifier: GPL-2.0-or-later
/* result-doc.c - a run's result document: built once for every front end, read by id. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knobs/knobs.h"
#include "proto/msg.h"
#include "proto/proto.h"
#include "session/result-doc.h"
#include "session/why.h"

/* Members written here and read back by the accessors below; the rest are
 * named in result-doc.h, proto/msg.h and knobs/knobs.h. */
#define KEY_MSS		"mss"
#define KEY_SIZES	"sizes"
#define KEY_DATA	"data"
#define KEY_BYTES	"bytes"
#define KEY_DROPPED	"dropped"
#define KEY_LEVEL	"level"
#define KEY_WIDTH_PCT	"width_pct"
#define KEY_MIN_ITER	"min_iter"
#define KEY_MAX_ITER	"max_iter"
#define KEY_THROUGHPUT	"throughput"
#define KEY_N		"n"
#define KEY_MEAN	"mean"
#define KEY_HALF_WIDTH	"half_width"

/* A capture's directions by CAP_OUT, CAP_IN: their label and member name. */
static const char *const cap_dir_key[CAP_NDIRS] = { "sent", "received" };

const char *const result_doc_ends[2] = { RESULT_DOC_KEY_LOCAL, RESULT_DOC_KEY_REMOTE };

static json_t *uint_or_null(uint64_t v)
{
	return v ? json_integer((json_int_t)v) : json_null();
}

json_t *result_doc_segs(const struct seghist *h, const char *label, const char *mss_note,
			uint32_t mss, bool udp)
{
	json_t *classes = json_object(), *sizes = json_array(), *j;
	struct seg_bin *v;
	struct seg_classes c;
	uint32_t nb;

	if (udp)
		mss = 0;
	if (!classes || !sizes)
		goto fail;
	seghist_classify(h, mss, &c);
	for (int k = 0; k < SEG_NCLASSES; k++)
		if (json_object_set_new(classes, seg_class_name(k),
					json_pack("{s:I, s:I}",
						  "segments", (json_int_t)c.segs[k],
						  "bytes", (json_int_t)c.bytes[k])))
			goto fail;
	v = seghist_bins_sorted(h, &nb);
	if (!v && h->nbins)
		goto fail;
	for (uint32_t k = 0; k < nb; k++)
		if (json_array_append_new(sizes, json_pack("[I, I]",
							   (json_int_t)v[k].size,
							   (json_int_t)v[k].count))) {
			free(v);
			goto fail;
		}
	free(v);
	j = json_pack("{s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o}",
		      "label", json_string_lossy(label),
		      KEY_MSS, uint_or_null(mss),
		      "mss_source", mss ? json_string_lossy(mss_note) : json_null(),
		      "packets", (json_int_t)h->packets,
		      "acks", (json_int_t)h->acks,
		      "ctl", (json_int_t)h->ctl,
		      KEY_DATA, (json_int_t)h->data,
		      KEY_BYTES, (json_int_t)h->bytes,
		      "lost_bins", (json_int_t)h->lost_bins,
		      "classes", classes,
		      "largest", uint_or_null(c.largest),
		      "commonest", uint_or_null(c.commonest),
		      KEY_SIZES, sizes);
	return j;
fail:
	json_decref(classes);
	json_decref(sizes);
	return NULL;
}

const char *result_doc_mss_note(const struct seg_capture *c, int d)
{
	if (!c->mss[d])
		return NULL;
	return c->mss[d] == c->syn_mss[d] ? "SYN" : "TCP_INFO";
}

/* One end's capture with classes per direction ("sent", "received"), or
 * JSON null when it had none. */
static json_t *capture_json(const struct end_result *e, bool udp)
{
	const struct seg_capture *c = e->cap;
	json_t *j, *dirs[CAP_NDIRS];

	if (!c)
		return json_null();
	for (int k = 0; k < CAP_NDIRS; k++)
		dirs[k] = result_doc_segs(&c->dir[k], cap_dir_key[k],
					  result_doc_mss_note(c, k), c->mss[k], udp);
	j = json_pack("{s:s, s:s, s:s, s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I}, s:b, s:o?, s:o?}",
		      "dev", c->dev, "filter", c->filter, "warning", c->warning,
		      "counts",
		      "seen", (json_int_t)c->n.seen, "counted", (json_int_t)c->n.counted,
		      "unparsed", (json_int_t)c->n.unparsed,
		      "kernel_recv", (json_int_t)c->n.kernel_recv,
		      "kernel_drop", (json_int_t)c->n.kernel_drop,
		      "if_drop", (json_int_t)c->n.if_drop,
		      "table_full", (json_int_t)c->n.table_full,
		      KEY_DROPPED, c->n.kernel_drop + c->n.if_drop > 0,
		      cap_dir_key[CAP_OUT], dirs[CAP_OUT], cap_dir_key[CAP_IN], dirs[CAP_IN]);
	return j ? j : json_null();
}

/* What limits the run: "limits" (the ranked verdicts of the why rules),
 * and each end's limiter figures, per flow, under "local" and "remote". */
static int why_json(json_t *doc, const struct session_result *res)
{
	json_t *a = why_report_to_json(&res->why);
	struct why_input in;

	if (!a || json_object_set_new(doc, RESULT_DOC_KEY_LIMITS, a))
		return -ENOMEM;
	/* each end's limiter figures, per flow, under "local" and "remote" */
	why_input_result(&in, &res->p, res, 0);
	for (unsigned i = 0; i < 2; i++) {
		json_t *end = json_object_get(doc, result_doc_ends[i]);

		if (!json_is_object(end))
			continue;
		a = why_end_to_json(i ? &in.remote : &in.local);
		if (!a || json_object_set_new(end, "limiter", a))
			return -ENOMEM;
	}
	return 0;
}

struct run_summary *result_doc_masked(const struct run_summary *r, bool lcpu, bool rcpu)
{
	struct run_summary *m = malloc(sizeof(*m));

	if (!m)
		return NULL;
	*m = *r;
	if (!lcpu)
		m->res.local_sd = -1;
	if (!rcpu)
		m->res.remote_sd = -1;
	return m;
}

/* A member msg.c could not write (a NaN in it, say) becomes null. */
static json_t *or_null(json_t *j)
{
	return j ? j : json_null();
}

static json_t *json_num(double d)
{
	return isfinite(d) ? json_real(d) : json_null();
}

/* A selector value as JSON, rounded the way the text output rounds it. */
static json_t *sel_json(const struct sel_value *v)
{
	char buf[64];

	switch (v->kind) {
	case SEL_INT:
		return json_integer(v->i);
	case SEL_REAL:
		snprintf(buf, sizeof(buf), "%.*f", v->prec, v->d);
		return json_num(strtod(buf, NULL));
	case SEL_STR:
		return json_string_lossy(v->s);
	default:
		return json_null();
	}
}

static json_t *ci_json(const struct ci *c)
{
	return json_pack("{s:I, s:o, s:o, s:o, s:o}",
			 KEY_N, (json_int_t)c->n,
			 KEY_MEAN, json_num(c->mean),
			 "stddev", json_num(c->stddev),
			 KEY_HALF_WIDTH, json_num(c->half_width),
			 "width_pct", json_num(c->width_pct));
}

/* result_to_json of one end, with its service demand beside it and its
 * capture with the size classes. */
static json_t *end_json(const struct end_result *e, double sd, bool udp, bool local)
{
	json_t *j = result_to_json(e);

	if (!j)
		return json_null();
	json_object_set_new(j, RESULT_DOC_KEY_SERVICE_DEMAND, sd >= 0 ? json_num(sd) : json_null());
	/* Counted where tunetop sends (the local end); the protocol does not
	 * carry the remote end's. */
	json_object_set_new(j, "send_errors", local ? json_integer((json_int_t)e->send_errors) : json_null());
	json_object_set_new(j, RESULT_DOC_KEY_CAPTURE, capture_json(e, udp));
	return j;
}

static json_t *result_selectors_json(const struct run_summary *r)
{
	json_t *res = json_object();
	const struct selector *tab;
	unsigned n;

	if (!res)
		return NULL;
	tab = selector_table(&n);
	for (unsigned i = 0; i < n; i++) {
		struct sel_value v;
		char key[64];
		size_t k;

		for (k = 0; tab[i].name[k] && k < sizeof(key) - 1; k++)
			key[k] = (char)tolower((unsigned char)tab[i].name[k]);
		key[k] = '\0';
		selector_eval(i, r, &v);
		if (json_object_set_new(res, key, sel_json(&v))) {
			json_decref(res);
			return NULL;
		}
	}
	return res;
}

/* Both ends' knob snapshots: {local, remote, note}; null where not read. */
static json_t *knobs_json(const struct session_result *res)
{
	return json_pack("{s:o, s:o, s:o}",
			 RESULT_DOC_KEY_LOCAL, res->knobs_local ?
				or_null(knobs_snapshot_to_json(res->catalog, res->knobs_local)) : json_null(),
			 RESULT_DOC_KEY_REMOTE, res->knobs_remote ?
				or_null(knobs_snapshot_to_json(res->catalog, res->knobs_remote)) : json_null(),
			 "note", res->knobs_note[0] ? json_string_lossy(res->knobs_note) : json_null());
}

json_t *result_doc(const struct run_summary *r, bool lcpu, bool rcpu)
{
	struct run_summary *m = result_doc_masked(r, lcpu, rcpu);
	const struct session_result *res;
	json_t *doc = NULL, *conf;

	if (!m)
		return NULL;
	res = &m->res;
	if (m->iterating)
		conf = json_pack("{s:o, s:o, s:I, s:I, s:b, s:o, s:o, s:o, s:o, s:o}",
				 KEY_LEVEL, json_num(m->it.level),
				 KEY_WIDTH_PCT, json_num(m->it.width_pct),
				 KEY_MIN_ITER, (json_int_t)m->it.min_iter,
				 KEY_MAX_ITER, (json_int_t)m->it.max_iter,
				 "reached", m->ci_reached,
				 KEY_THROUGHPUT, ci_json(&m->thr),
				 "local_cpu", m->lcpu.n ? ci_json(&m->lcpu) : json_null(),
				 "remote_cpu", m->rcpu.n ? ci_json(&m->rcpu) : json_null(),
				 "local_sd", m->lsd.n ? ci_json(&m->lsd) : json_null(),
				 "remote_sd", m->rsd.n ? ci_json(&m->rsd) : json_null());
	else
		conf = json_null();
	if (!conf)
		goto out;
	doc = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:o, s:b, s:o, s:b, s:o, s:o}",
			"test", test_type_name(res->p.type),
			"params", or_null(params_to_json(&res->p)),
			"target", json_string_lossy(res->target),
			"target_short", json_string_lossy(res->target_short),
			"tcp_metrics", or_null(json_pack("{s:s?, s:s?, s:s?}",
				"local", res->metrics_local, "remote", res->metrics_remote,
				"note", res->state_note[0] ? res->state_note : NULL)),
			RESULT_DOC_KEY_RESULT, result_selectors_json(m),
			RESULT_DOC_KEY_LOCAL, end_json(&res->local, res->local_sd,
						       test_is_udp(res->p.type), true),
			RESULT_DOC_KEY_REMOTE, end_json(&res->remote, res->remote_sd,
							test_is_udp(res->p.type), false),
			"iterations", (json_int_t)m->iterations,
			RESULT_DOC_KEY_CONFIDENCE, conf,
			"counts_agree", res->counts_agree,
			"counts", json_string_lossy(res->counts),
			"failed", m->failed,
			"failure", m->failed ? json_string_lossy(m->failure) : json_null(),
			RESULT_DOC_KEY_KNOBS, knobs_json(res));
	if (doc && why_json(doc, res)) {
		json_decref(doc);
		doc = NULL;
	}
out:
	free(m);
	return doc;
}

json_t *result_doc_one(const struct session_result *res, bool failed, const char *why,
		       bool lcpu, bool rcpu)
{
	struct run_summary *sum = calloc(1, sizeof(*sum));
	json_t *doc;

	if (!sum)
		return NULL;
	sum->res = *res;
	sum->iterations = 1;
	sum->mean_throughput = res->throughput;
	sum->mean_lcpu = res->local.cpu.total.busy;
	sum->mean_rcpu = res->remote.cpu.total.busy;
	sum->failed = failed;
	snprintf(sum->failure, sizeof(sum->failure), "%s", why ? why : "");
	doc = result_doc(sum, lcpu, rcpu);
	free(sum);
	return doc;
}

const json_t *result_doc_fields(const json_t *doc)
{
	return json_object_get(doc, RESULT_DOC_KEY_RESULT);
}

const json_t *result_doc_field(const json_t *doc, enum sel_id id)
{
	unsigned n;
	const struct selector *tab = selector_table(&n);
	char key[64];
	size_t k;

	if ((unsigned)id >= n)
		return NULL;
	for (k = 0; tab[id].name[k] && k < sizeof(key) - 1; k++)
		key[k] = (char)tolower((unsigned char)tab[id].name[k]);
	key[k] = '\0';
	return json_object_get(result_doc_fields(doc), key);
}

double result_doc_num(const json_t *doc, enum sel_id id)
{
	const json_t *v = result_doc_field(doc, id);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *result_doc_str(const json_t *doc, enum sel_id id)
{
	return json_string_value(result_doc_field(doc, id));
}

/* j's number, NAN when it is absent or not a number. */
static double doc_num(const json_t *j)
{
	return json_is_number(j) ? json_number_value(j) : NAN;
}

const json_t *result_doc_end(const json_t *doc, const char *end)
{
	const json_t *e = json_object_get(doc, end);

	return json_is_object(e) ? e : NULL;
}

const char *result_doc_host(const json_t *doc, const char *end)
{
	return json_string_value(json_object_get(result_doc_end(doc, end), MSG_KEY_HOST));
}

double result_doc_segs_out(const json_t *doc, const char *end)
{
	return doc_num(json_object_get(result_doc_end(doc, end), MSG_KEY_SEGS_OUT));
}

double result_doc_softirq(const json_t *doc, const char *end)
{
	const json_t *cpu = json_object_get(result_doc_end(doc, end), MSG_KEY_CPU);

	return doc_num(json_object_get(json_object_get(cpu, MSG_KEY_CPU_TOTAL), MSG_KEY_SOFTIRQ));
}

size_t result_doc_nsocks(const json_t *doc, const char *end)
{
	return json_array_size(json_object_get(result_doc_end(doc, end), MSG_KEY_SOCKS));
}

void result_doc_sock_limited(const json_t *doc, const char *end, size_t i,
			     double *busy_us, double *rwnd_us, double *sndbuf_us)
{
	const json_t *s = json_array_get(json_object_get(result_doc_end(doc, end),
							 MSG_KEY_SOCKS), i);
	const json_t *t = json_object_get(s, MSG_KEY_TCP);

	*busy_us = doc_num(json_object_get(t, MSG_KEY_BUSY_US));
	*rwnd_us = doc_num(json_object_get(t, MSG_KEY_RWND_LIMITED_US));
	*sndbuf_us = doc_num(json_object_get(t, MSG_KEY_SNDBUF_LIMITED_US));
}

const json_t *result_doc_capture(const json_t *doc, const char *end)
{
	const json_t *c = json_object_get(result_doc_end(doc, end), RESULT_DOC_KEY_CAPTURE);

	return json_is_object(c) ? c : NULL;
}

const json_t *result_doc_capture_dir(const json_t *doc, const char *end, int dir)
{
	const json_t *d;

	if (dir < 0 || dir >= CAP_NDIRS)
		return NULL;
	d = json_object_get(result_doc_capture(doc, end), cap_dir_key[dir]);
	return json_is_object(d) ? d : NULL;
}

double result_doc_seg_mss(const json_t *d)
{
	return doc_num(json_object_get(d, KEY_MSS));
}

double result_doc_seg_data(const json_t *d)
{
	return doc_num(json_object_get(d, KEY_DATA));
}

size_t result_doc_seg_nsizes(const json_t *d)
{
	return json_array_size(json_object_get(d, KEY_SIZES));
}

void result_doc_seg_size(const json_t *d, size_t i, double *size, double *count)
{
	const json_t *e = json_array_get(json_object_get(d, KEY_SIZES), i);

	*size = doc_num(json_array_get(e, 0));
	*count = doc_num(json_array_get(e, 1));
}

void result_doc_capture_counts(const json_t *doc, const char *end, int dir,
			       double *data, double *bytes)
{
	const json_t *d = result_doc_capture_dir(doc, end, dir);

	*data = result_doc_seg_data(d);
	*bytes = doc_num(json_object_get(d, KEY_BYTES));
}

bool result_doc_capture_dropped(const json_t *doc, const char *end)
{
	return json_is_true(json_object_get(result_doc_capture(doc, end), KEY_DROPPED));
}

bool result_doc_confidence(const json_t *doc, struct result_doc_conf *c)
{
	const json_t *conf = json_object_get(doc, RESULT_DOC_KEY_CONFIDENCE);
	const json_t *t = json_object_get(conf, KEY_THROUGHPUT);

	c->level = json_number_value(json_object_get(conf, KEY_LEVEL));
	c->width_pct = json_number_value(json_object_get(conf, KEY_WIDTH_PCT));
	c->min_iter = (long long)json_integer_value(json_object_get(conf, KEY_MIN_ITER));
	c->max_iter = (long long)json_integer_value(json_object_get(conf, KEY_MAX_ITER));
	c->thr_n = (long long)json_integer_value(json_object_get(t, KEY_N));
	c->thr_mean = doc_num(json_object_get(t, KEY_MEAN));
	c->thr_half_width = doc_num(json_object_get(t, KEY_HALF_WIDTH));
	return json_is_object(conf);
}

const json_t *result_doc_knob_list(const json_t *doc, const char *end)
{
	const json_t *snap = json_object_get(json_object_get(doc, RESULT_DOC_KEY_KNOBS), end);
	const json_t *l = json_object_get(snap, KNOBS_KEY_LIST);

	return json_is_array(l) ? l : NULL;
}

const char *result_doc_knob_name(const json_t *knob)
{
	return json_string_value(json_object_get(knob, KNOBS_KEY_NAME));
}

const json_t *result_doc_knob(const json_t *list, const char *name)
{
	size_t i;
	const json_t *k;

	json_array_foreach(list, i, k)
		if (!strcmp(result_doc_knob_name(k) ?: "", name))
			return k;
	return NULL;
}

const char *result_doc_knob_value(const json_t *knob)
{
	return json_string_value(json_object_get(knob, KNOBS_KEY_VALUE));
}

const char *result_doc_knob_group(const json_t *knob)
{
	return json_string_value(json_object_get(knob, KNOBS_KEY_GROUP));
}

const char *result_doc_knob_unit(const json_t *knob)
{
	return json_string_value(json_object_get(knob, KNOBS_KEY_UNIT));
}

const char *result_doc_knob_reason(const json_t *knob)
{
	return json_string_value(json_object_get(knob, KNOBS_KEY_REASON));
}
