// SPDX-License-Identifier: GPL-2.0-or-later
/* model.c - the dashboard's runs: per-tick series and key figures, from engine snapshots. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* Ticks the live verdicts judge: the last second at the default 100 ms. */
#define MODEL_WHY_TICKS 10

/* A ring of the last ticks of both ends, without their captures. */
struct model_why_window {
	unsigned n, next;
	struct end_sample loc[MODEL_WHY_TICKS], rem[MODEL_WHY_TICKS];
	bool has_rem[MODEL_WHY_TICKS];
};

/* Copy s into slot d (its sockets, not its capture); false when out of memory. */
static bool why_slot_set(struct end_sample *d, const struct end_sample *s)
{
	struct sock_sample *socks = NULL;

	if (s->nsocks) {
		socks = malloc(s->nsocks * sizeof(*socks));
		if (!socks)
			return false;
		memcpy(socks, s->socks, s->nsocks * sizeof(*socks));
	}
	free(d->socks);
	*d = *s;
	d->socks = socks;
	d->cap = NULL;
	return true;
}

static void why_window_free(struct model_why_window *w)
{
	if (!w)
		return;
	for (unsigned i = 0; i < MODEL_WHY_TICKS; i++) {
		free(w->loc[i].socks);
		free(w->rem[i].socks);
	}
	free(w);
}

/* Keep the tick and judge the window with the engine's why rules. */
static void why_live(struct model_run *r, const struct session_event *ev)
{
	const struct end_sample *lp[MODEL_WHY_TICKS], *rp[MODEL_WHY_TICKS];
	struct model_why_window *w = r->whywin;
	struct why_input in;
	unsigned slot;

	if (!w && !(w = r->whywin = calloc(1, sizeof(*w))))
		return;
	slot = w->next;
	if (!why_slot_set(&w->loc[slot], &ev->local))
		return;
	w->has_rem[slot] = ev->has_remote && why_slot_set(&w->rem[slot], &ev->remote);
	w->next = (slot + 1) % MODEL_WHY_TICKS;
	if (w->n < MODEL_WHY_TICKS)
		w->n++;
	for (unsigned i = 0; i < w->n; i++) {
		unsigned k = (w->next + MODEL_WHY_TICKS - w->n + i) % MODEL_WHY_TICKS;

		lp[i] = &w->loc[k];
		rp[i] = w->has_rem[k] ? &w->rem[k] : NULL;
	}
	why_input_init(&in, &r->p);
	why_input_ticks(&in, lp, rp, w->n);
	/* The sysctl ceilings and coalescing as read before the run. */
	in.local.kn = ev->knobs_local;
	in.remote.kn = ev->knobs_remote;
	in.tbf_bps = r->tbf_bps;
	why_eval(&in, &r->why_live);
}

const struct why_verdict *model_why_top(const struct model_run *r)
{
	const struct why_report *w;

	if (!r)
		return NULL;
	w = r->has_result && r->state != MS_FAILED ? &r->res.why : &r->why_live;
	return w->n ? &w->v[0] : NULL;
}

void model_init(struct model *m)
{
	memset(m, 0, sizeof(*m));
}

static void run_free(struct model_run *r)
{
	if (!r)
		return;
	for (int e = 0; e < END_N; e++) {
		seg_capture_free(r->cap[e]);
		free(r->cap[e]);
	}
	if (r->has_result)
		session_result_free(&r->res);
	why_window_free(r->whywin);
	json_decref(r->doc);
	json_decref(r->doc_series);
	free(r->ticks);
	free(r);
}

void model_free(struct model *m)
{
	for (unsigned i = 0; i < m->nruns; i++)
		run_free(m->runs[i]);
	m->nruns = 0;
}

/* Make room for one more run: the oldest that is not a baseline goes. */
static void model_evict(struct model *m)
{
	for (unsigned i = 0; i < m->nruns; i++) {
		if (m->runs[i]->baseline)
			continue;
		run_free(m->runs[i]);
		memmove(&m->runs[i], &m->runs[i + 1], (m->nruns - i - 1) * sizeof(m->runs[0]));
		m->nruns--;
		return;
	}
}

struct model_run *model_begin(struct model *m, const struct test_params *p,
			      const char *target)
{
	struct model_run *r;

	if (m->nruns == MODEL_MAX_RUNS)
		model_evict(m);
	if (m->nruns == MODEL_MAX_RUNS)
		return NULL;	/* every run is a baseline */
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->id = ++m->next_id;
	r->p = *p;
	snprintf(r->target, sizeof(r->target), "%s", target ? target : "");
	r->state = MS_STARTING;
	r->started = wall_time();
	r->p50_us = r->p99_us = r->lcpu = r->rcpu = r->rate_ci = NAN;
	r->lsd = r->rsd = -1;
	for (int e = 0; e < END_N; e++)
		r->sndbuf_init[e] = r->rcvbuf_init[e] = -1;
	m->runs[m->nruns++] = r;
	return r;
}

/* Room for one more tick: grow, or drop the oldest tenth at the limit. */
static struct model_tick *tick_slot(struct model_run *r)
{
	if (r->nticks == r->tick_cap) {
		unsigned cap = r->tick_cap ? r->tick_cap * 2 : 256;
		struct model_tick *t;

		if (cap > MODEL_MAX_TICKS)
			cap = MODEL_MAX_TICKS;
		if (cap == r->tick_cap) {
			unsigned drop = MODEL_MAX_TICKS / 10;

			memmove(r->ticks, r->ticks + drop, (r->nticks - drop) * sizeof(*r->ticks));
			r->nticks -= drop;
			r->dropped_ticks += drop;
		} else {
			t = realloc(r->ticks, cap * sizeof(*t));
			if (!t)
				return NULL;
			r->ticks = t;
			r->tick_cap = cap;
		}
	}
	return &r->ticks[r->nticks++];
}

/* One end's part of a tick: the first flow's socket figures, CPU, IRQs. */
static void tick_end(struct model_tick *k, int e, const struct end_sample *s)
{
	const struct sock_sample *so = s->nsocks ? &s->socks[0] : NULL;

	k->sndbuf[e] = so ? so->sndbuf : -1;
	k->rcvbuf[e] = so ? so->rcvbuf : -1;
	k->outq[e] = so ? so->outq : -1;
	k->inq[e] = so ? so->inq : -1;
	k->cwnd[e] = so && so->tcp.has ? so->tcp.snd_cwnd : NAN;
	k->cpu[e] = s->cpu.ncpu ? s->cpu.total.busy : NAN;
	k->irq[e] = s->irq.nlines ? s->irq.irq_total : NAN;
	k->net_rx[e] = s->irq.ncpu ? s->irq.rx_total : NAN;
}

/* The newest snapshot of one end that is not a series. */
static void keep_end(struct model_run *r, int e, const struct end_sample *s)
{
	r->irq[e] = s->irq;
	snprintf(r->irq_dev[e], sizeof(r->irq_dev[e]), "%s", s->irq_dev);
	r->cpu[e] = s->cpu;
	if (s->nsocks) {
		r->sndbuf_init[e] = s->socks[0].sndbuf_init;
		r->rcvbuf_init[e] = s->socks[0].rcvbuf_init;
	}
	if (s->cap) {
		struct seg_capture *c = seg_capture_dup(s->cap);

		if (c) {
			seg_capture_free(r->cap[e]);
			free(r->cap[e]);
			r->cap[e] = c;
		}
	}
}

static void tick_blank(struct model_tick *k)
{
	for (int e = 0; e < END_N; e++) {
		k->sndbuf[e] = k->rcvbuf[e] = k->outq[e] = k->inq[e] = -1;
		k->cwnd[e] = k->cpu[e] = k->irq[e] = k->net_rx[e] = NAN;
	}
}

void model_sample(struct model_run *r, const struct session_event *ev)
{
	const struct end_sample *l = &ev->local;
	struct model_tick *k;

	if (ev->kind != SESSION_EV_SAMPLE)
		return;
	k = tick_slot(r);
	if (!k)
		return;
	tick_blank(k);
	k->t = l->t;
	k->rate = units_rate_scaled(r->p.type, l->rate);
	k->p50_us = k->p99_us = NAN;
	if (l->has_lat && l->lat_iv.count) {
		k->p50_us = l->lat_iv.p50_us;
		k->p99_us = l->lat_iv.p99_us;
	}
	tick_end(k, END_L, l);
	keep_end(r, END_L, l);
	if (ev->has_remote) {
		tick_end(k, END_R, &ev->remote);
		keep_end(r, END_R, &ev->remote);
	}
	r->elapsed = l->t;
	r->state = MS_RUNNING;
	why_live(r, ev);
}

/* "gro: on -> off (remote)" for every knob that differs between a and b. */
static void changes_text(char *buf, size_t len, const struct knob_snapshot *a,
			 const struct knob_snapshot *b, const char *end, size_t *used)
{
	if (!a || !b)
		return;
	for (unsigned i = 0; i < b->n && *used < len; i++) {
		const struct knob_snapshot_item *nb = &b->item[i];
		const struct knob_snapshot_item *na = NULL;

		for (unsigned j = 0; j < a->n; j++)
			if (!strcmp(a->item[j].name, nb->name)) {
				na = &a->item[j];
				break;
			}
		if (!na || na->v.present != nb->v.present ||
		    (nb->v.present && strcmp(na->v.text, nb->v.text))) {
			int w = snprintf(buf + *used, len - *used, "%s%s: %s -> %s (%s)",
					 *used ? "; " : "", nb->name,
					 na && na->v.present ? na->v.text : "n/a",
					 nb->v.present ? nb->v.text : "n/a", end);

			if (w > 0)
				*used += (size_t)w;
		}
	}
	if (*used >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

/* The run before r in the model that ended with a result, or NULL. */
static struct model_run *previous_with_result(const struct model *m, const struct model_run *r)
{
	struct model_run *prev = NULL;

	for (unsigned i = 0; i < m->nruns && m->runs[i] != r; i++)
		if (m->runs[i]->has_result)
			prev = m->runs[i];
	return prev;
}

void model_end(struct model *m, struct model_run *r, int ret, const char *err,
	       struct session_result *res)
{
	struct model_run *prev;
	size_t used = 0;

	r->state = ret == 0 ? MS_DONE : ret == -ECANCELED ? MS_STOPPED : MS_FAILED;
	why_window_free(r->whywin);
	r->whywin = NULL;
	if (ret && ret != -ECANCELED)
		snprintf(r->failure, sizeof(r->failure), "%s", err ? err : "failed");
	if (res) {
		r->res = *res;
		memset(res, 0, sizeof(*res));
		r->has_result = true;
		r->rate = r->res.throughput;
		r->elapsed = r->res.elapsed;
		if (r->res.local.has_lat && r->res.local.lat.count) {
			r->p50_us = r->res.local.lat.p50_us;
			r->p99_us = r->res.local.lat.p99_us;
		}
		r->lcpu = r->res.local.cpu.ncpu ? r->res.local.cpu.total.busy : NAN;
		r->rcpu = r->res.remote.cpu.ncpu ? r->res.remote.cpu.total.busy : NAN;
		r->lsd = r->res.local_sd;
		r->rsd = r->res.remote_sd;
		for (int e = 0; e < END_N; e++) {
			const struct end_result *er = e == END_L ? &r->res.local : &r->res.remote;

			if (er->cap) {
				struct seg_capture *c = seg_capture_dup(er->cap);

				if (c) {
					seg_capture_free(r->cap[e]);
					free(r->cap[e]);
					r->cap[e] = c;
				}
			}
			snprintf(r->cap_note[e], sizeof(r->cap_note[e]), "%s", er->cap_note);
			if (er->irq_dev[0])
				snprintf(r->irq_dev[e], sizeof(r->irq_dev[e]), "%s", er->irq_dev);
		}
	}
	prev = previous_with_result(m, r);
	r->changes[0] = '\0';
	if (prev && r->has_result) {
		changes_text(r->changes, sizeof(r->changes), prev->res.knobs_local,
			     r->res.knobs_local, "local", &used);
		changes_text(r->changes, sizeof(r->changes), prev->res.knobs_remote,
			     r->res.knobs_remote, "remote", &used);
	}
}

void model_keep_doc(struct model *m, struct model_run *r, json_t *doc, json_t *series,
		    const struct model_run *keep)
{
	unsigned kept = 0;

	json_decref(r->doc);
	json_decref(r->doc_series);
	r->doc = json_incref(doc);
	r->doc_series = json_incref(series);
	for (unsigned i = 0; i < m->nruns; i++)
		kept += m->runs[i]->doc != NULL;
	/* Oldest first: the runs on show are the newest, or kept by keep. */
	for (unsigned i = 0; i < m->nruns && kept > MODEL_MAX_DOCS; i++) {
		struct model_run *o = m->runs[i];

		if (!o->doc || o == r || o == keep)
			continue;
		json_decref(o->doc);
		json_decref(o->doc_series);
		o->doc = o->doc_series = NULL;
		kept--;
	}
}

int model_why_change(const struct model_run *a, const struct model_run *b,
		     struct why_change *out)
{
	struct store_run ra, rb;

	if (!a->doc || !b->doc)
		return -ENOENT;
	store_run_init(&ra);
	store_run_init(&rb);
	ra.result = a->doc;
	ra.series = a->doc_series;
	rb.result = b->doc;
	rb.series = b->doc_series;
	store_why_change(&ra, &rb, out);
	return 0;
}

struct model_run *model_compared(const struct model *m, const struct model_run *sel,
				 const struct model_run *cur, struct model_run *beside)
{
	if (!sel)
		return NULL;
	if (sel == cur && beside && beside != sel)
		return beside;
	return model_ghost(m, sel);
}

struct model_run *model_by_id(const struct model *m, unsigned id)
{
	for (unsigned i = 0; i < m->nruns; i++)
		if (!m->runs[i]->history && m->runs[i]->id == id)
			return m->runs[i];
	return NULL;
}

/* Value i of series name, NAN for a null or a missing series. */
static double stored_at(const json_t *series, const char *name, size_t i)
{
	const json_t *v = json_array_get(json_object_get(series, name), i);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int32_t stored_int(const json_t *series, const char *name, size_t i)
{
	double v = stored_at(series, name, i);

	return isfinite(v) ? (int32_t)v : -1;
}

double model_run_rate(const struct model_run *r)
{
	if (r->state == MS_RUNNING || !(r->has_result || r->history))
		return NAN;
	return r->rate;
}

struct model_run *model_add_history(struct model *m, const struct store_run *sr)
{
	struct test_params p;
	struct model_run *r;
	char err[ERR_MAX];
	size_t n;

	if (!sr->params || params_from_json(sr->params, &p, err)) {
		params_default(&p);
		if (test_type_parse(sr->test) >= 0)
			p.type = (enum test_type)test_type_parse(sr->test);
	}
	r = model_begin(m, &p, sr->target);
	if (!r)
		return NULL;
	/* This session's numbering is for its own runs: history has none. */
	m->next_id--;
	r->id = 0;
	r->history = true;
	r->db_id = sr->id;
	r->started = sr->time;
	r->state = sr->failed ? MS_FAILED : MS_DONE;
	r->rate = sr->throughput;
	r->rate_ci = store_result_ci(sr->result);
	r->p50_us = sr->p50_us;
	r->p99_us = sr->p99_us;
	r->lcpu = sr->lcpu;
	r->rcpu = sr->rcpu;
	r->lsd = isfinite(sr->lsd) ? sr->lsd : -1;
	r->rsd = isfinite(sr->rsd) ? sr->rsd : -1;
	r->baseline = sr->baseline;
	/* its stored verdicts (docs/store.md, version 4); none before */
	if (sr->limits && why_report_from_json(sr->limits, &r->why_live, err))
		memset(&r->why_live, 0, sizeof(r->why_live));
	if (sr->failed)
		snprintf(r->failure, sizeof(r->failure), "failed (stored run %lld)", (long long)sr->id);
	n = json_array_size(json_object_get(sr->series, store_series_names[SS_T]));
	for (size_t i = 0; i < n; i++) {
		struct model_tick *k = tick_slot(r);

		if (!k)
			break;
		tick_blank(k);
		k->t = stored_at(sr->series, store_series_names[SS_T], i);
		k->rate = stored_at(sr->series, store_series_names[SS_RATE], i);
		k->p50_us = stored_at(sr->series, store_series_names[SS_P50], i);
		k->p99_us = stored_at(sr->series, store_series_names[SS_P99], i);
		k->sndbuf[END_L] = stored_int(sr->series, store_series_names[SS_SNDBUF_L], i);
		k->rcvbuf[END_L] = stored_int(sr->series, store_series_names[SS_RCVBUF_L], i);
		k->sndbuf[END_R] = stored_int(sr->series, store_series_names[SS_SNDBUF_R], i);
		k->rcvbuf[END_R] = stored_int(sr->series, store_series_names[SS_RCVBUF_R], i);
		k->cwnd[END_L] = stored_at(sr->series, store_series_names[SS_CWND_L], i);
		k->cwnd[END_R] = stored_at(sr->series, store_series_names[SS_CWND_R], i);
		r->elapsed = k->t;
	}
	return r;
}

struct model_run *model_last(const struct model *m)
{
	return m->nruns ? m->runs[m->nruns - 1] : NULL;
}

struct model_run *model_at(const struct model *m, unsigned i)
{
	return i < m->nruns ? m->runs[i] : NULL;
}

void model_set_baseline(struct model *m, struct model_run *r)
{
	for (unsigned i = 0; i < m->nruns; i++)
		if (r && params_same_test(&m->runs[i]->p, &r->p))
			m->runs[i]->baseline = false;
	if (r)
		r->baseline = true;
}

struct model_run *model_ghost(const struct model *m, const struct model_run *r)
{
	struct model_run *prev = NULL;

	if (!r)
		return NULL;
	for (unsigned i = 0; i < m->nruns; i++)
		if (m->runs[i] != r && m->runs[i]->baseline && params_same_test(&m->runs[i]->p, &r->p))
			return m->runs[i];
	for (unsigned i = 0; i < m->nruns && m->runs[i] != r; i++)
		if (m->runs[i]->p.type == r->p.type && m->runs[i]->nticks &&
		    m->runs[i]->state != MS_RUNNING && m->runs[i]->state != MS_STARTING)
			prev = m->runs[i];
	return prev;
}

/* One field of one tick; NAN where the tick has none. */
static double tick_field(const struct model_tick *k, enum model_field f)
{
	switch (f) {
	case MF_RATE: return k->rate;
	case MF_P50: return k->p50_us;
	case MF_P99: return k->p99_us;
	case MF_SNDBUF_L: return k->sndbuf[END_L] < 0 ? NAN : k->sndbuf[END_L];
	case MF_RCVBUF_L: return k->rcvbuf[END_L] < 0 ? NAN : k->rcvbuf[END_L];
	case MF_SNDBUF_R: return k->sndbuf[END_R] < 0 ? NAN : k->sndbuf[END_R];
	case MF_RCVBUF_R: return k->rcvbuf[END_R] < 0 ? NAN : k->rcvbuf[END_R];
	case MF_CWND_L: return k->cwnd[END_L];
	case MF_CWND_R: return k->cwnd[END_R];
	case MF_OUTQ_L: return k->outq[END_L] < 0 ? NAN : k->outq[END_L];
	case MF_OUTQ_R: return k->outq[END_R] < 0 ? NAN : k->outq[END_R];
	case MF_CPU_L: return k->cpu[END_L];
	case MF_CPU_R: return k->cpu[END_R];
	case MF_IRQ_L: return k->irq[END_L];
	case MF_IRQ_R: return k->irq[END_R];
	case MF_NETRX_L: return k->net_rx[END_L];
	case MF_NETRX_R: return k->net_rx[END_R];
	}
	return NAN;
}

unsigned model_series(const struct model_run *r, enum model_field f, double *xs,
		      double *ys, unsigned n)
{
	unsigned first, k = 0;

	if (!r || !n)
		return 0;
	first = r->nticks > n ? r->nticks - n : 0;
	for (unsigned i = first; i < r->nticks; i++, k++) {
		xs[k] = r->ticks[i].t;
		ys[k] = tick_field(&r->ticks[i], f);
	}
	return k;
}

unsigned model_series_span(const struct model_run *r, enum model_field f, double *xs,
			   double *ys, unsigned n)
{
	if (!r || !n)
		return 0;
	if (r->nticks <= n)
		return model_series(r, f, xs, ys, n);
	for (unsigned k = 0; k < n; k++) {
		unsigned i = n == 1 ? r->nticks - 1 :
			     (unsigned)((uint64_t)k * (r->nticks - 1) / (n - 1));

		xs[k] = r->ticks[i].t;
		ys[k] = tick_field(&r->ticks[i], f);
	}
	return n;
}

const char *model_params_text(const struct test_params *p, char *buf, unsigned len)
{
	return params_text(p, buf, len);
}

const char *model_run_name(const struct model_run *r, char *buf, size_t len)
{
	if (r->db_id > 0)
		snprintf(buf, len, "%lld", (long long)r->db_id);
	else if (r->state == MS_STARTING || r->state == MS_RUNNING)
		snprintf(buf, len, "now");
	else
		snprintf(buf, len, "s%u", r->id);
	return buf;
}

const char *model_state_name(enum model_state s)
{
	switch (s) {
	case MS_STARTING: return "starting";
	case MS_RUNNING: return "running";
	case MS_DONE: return "done";
	case MS_STOPPED: return "stopped";
	case MS_FAILED: return "FAILED";
	}
	return "?";
}

bool model_run_netserver(const struct model_run *r)
{
	/* target_describe() and the stored runs name it so (docs/netserver.md) */
	return r && !strncmp(r->target, "netserver", 9);
}
