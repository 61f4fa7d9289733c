// SPDX-License-Identifier: GPL-2.0-or-later
/* store-save.c - a finished run into the history, as every front end keeps it. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "core/units.h"
#include "proto/msg.h"
#include "session/result-doc.h"
#include "store/store-save.h"

void store_series_add_event(json_t *series, const struct session_event *ev, enum test_type type)
{
	const struct end_sample *l = &ev->local, *r = ev->has_remote ? &ev->remote : NULL;
	const struct sock_sample *ls = l->nsocks ? &l->socks[0] : NULL;
	const struct sock_sample *rs = r && r->nsocks ? &r->socks[0] : NULL;
	bool lat = l->has_lat && l->lat_iv.count;
	double v[STORE_NSERIES] = {
		[SS_T] = l->t,
		[SS_RATE] = units_rate_scaled(type, l->rate),
		[SS_P50] = lat ? l->lat_iv.p50_us : NAN,
		[SS_P99] = lat ? l->lat_iv.p99_us : NAN,
		[SS_SNDBUF_L] = ls ? ls->sndbuf : NAN,
		[SS_RCVBUF_L] = ls ? ls->rcvbuf : NAN,
		[SS_SNDBUF_R] = rs ? rs->sndbuf : NAN,
		[SS_RCVBUF_R] = rs ? rs->rcvbuf : NAN,
		[SS_CWND_L] = ls && ls->tcp.has ? ls->tcp.snd_cwnd : NAN,
		[SS_CWND_R] = rs && rs->tcp.has ? rs->tcp.snd_cwnd : NAN,
	};

	store_series_append(series, v);
}

int store_save(const char *path, const struct store_finished *f, int64_t *id, char *err)
{
	const struct session_result *res = f->res;
	struct store_run r;
	struct store *st = NULL;
	int rc;

	store_run_init(&r);
	r.time = f->started;
	snprintf(r.test, sizeof(r.test), "%s", test_type_name(f->p->type));
	snprintf(r.target, sizeof(r.target), "%s", res->target);
	snprintf(r.target_short, sizeof(r.target_short), "%s", res->target_short);
	snprintf(r.source, sizeof(r.source), "%s", f->source);
	r.sweep_id = f->sweep_id;
	snprintf(r.point, sizeof(r.point), "%s", f->point ? f->point : "");
	r.failed = f->failed;
	r.params = params_to_json(f->p);
	r.result = json_incref(f->result);
	r.series = json_incref(f->series);
	r.limits = f->failed ? NULL : why_report_to_json(&res->why);
	r.throughput = f->failed && !res->elapsed ? NAN : f->throughput;
	snprintf(r.units, sizeof(r.units), "%s", res->units ? res->units : "");
	r.p50_us = result_doc_num(r.result, SEL_P50_LATENCY);
	r.p99_us = result_doc_num(r.result, SEL_P99_LATENCY);
	r.lcpu = res->local.cpu.ncpu ? f->lcpu : NAN;
	r.rcpu = res->remote.cpu.ncpu ? f->rcpu : NAN;
	r.lsd = res->local_sd >= 0 ? res->local_sd : NAN;
	r.rsd = res->remote_sd >= 0 ? res->remote_sd : NAN;
	if (!r.params || !r.result)
		rc = err_set(err, -ENOMEM, "out of memory");
	else
		rc = store_open(&st, path, err);
	if (!rc)
		rc = store_add(st, &r, err);
	if (!rc && id)
		*id = r.id;
	store_close(st);
	store_run_free(&r);
	return rc;
}
