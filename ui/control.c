// SPDX-License-Identifier: GPL-2.0-or-later
/* control.c - the dashboard's commands to the engine: target, runs, knobs. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"

/* Runs of the history shown when the dashboard starts. */
#define HISTORY_RUNS 20

struct ctl {
	struct dash_request rq;		/* the test and the history; rq.so points into target */
	struct target target;
	struct session *s;		/* the run in flight */
	struct model_run *r;
	json_t *series;			/* its ticks, as the history keeps them */
	double t0;			/* monotonic start of the run */
	struct knobs_txn *txn;		/* every knob the dashboard changes */
	/* What the run is to the history: "dashboard", or a plan's point. */
	const char *source;
	int64_t sweep_id;
	char point[64];
	bool lcpu, rcpu;		/* a plan's point: CPU figures in its document */
};

static double mono_secs(void)
{
	return (double)now_ns() / 1e9;
}

/* Where knob k of end e lives: the lab's side, or this host. */
static void knob_target_of(const struct ui *u, int e, struct knob_target *t)
{
	const struct ctl *c = u->ctl;

	target_knob_target(&c->rq.so, e != END_L, t);
}

/* Why end e's knobs cannot change from here (the engine decides), or NULL. */
static const char *end_refusal(const struct ui *u, int e)
{
	const struct ctl *c = u->ctl;

	return target_knobs_refusal(&c->rq.target, e != END_L);
}

/* The end's knobs can be read and changed here (a lab, this host, a tunetopd with --key). */
static bool end_writable(const struct ui *u, int e)
{
	return !end_refusal(u, e);
}

/* How many knob values (per end) differ from the dashboard's start. */
static void count_changed(struct ui *u)
{
	u->nchanged = 0;
	for (unsigned i = 0; i < u->nknobs; i++)
		for (int e = 0; e < END_N; e++)
			if (u->knobs[i].v[e].present && u->knobs[i].original[e][0] &&
			    strcmp(u->knobs[i].v[e].text, u->knobs[i].original[e]))
				u->nchanged++;
}

int ctl_read_knobs(struct ui *u)
{
	char err[ERR_MAX];
	int rc = 0;

	for (int e = 0; e < END_N; e++) {
		struct knob_snapshot *snap = NULL;
		struct knob_target t;

		if (!end_writable(u, e)) {
			for (unsigned i = 0; i < u->nknobs; i++) {
				u->knobs[i].v[e].present = false;
				snprintf(u->knobs[i].v[e].reason, sizeof(u->knobs[i].v[e].reason),
					 "remote: see the run's record (-H needs --key here)");
			}
			continue;
		}
		knob_target_of(u, e, &t);
		if (knobs_snapshot(u->cat, &t, &snap, err)) {
			ui_status(u, STY_WARN, 10, "knobs: %s", err);
			rc = -EIO;
			continue;
		}
		for (unsigned i = 0; i < u->nknobs && i < snap->n; i++)
			u->knobs[i].v[e] = snap->item[i].v;
		knobs_snapshot_free(snap);
	}
	count_changed(u);
	return rc;
}

/* The newest runs of the history into the runs panel (baselines as ghosts). */
static void load_history(struct ui *u)
{
	struct ctl *c = u->ctl;
	struct store_filter f = { .limit = HISTORY_RUNS };
	struct store_run *a = NULL;
	struct store *st = NULL;
	char err[ERR_MAX];
	unsigned n = 0;

	if (c->rq.no_db)
		return;
	if (store_open(&st, ctl_db_path(u), err) ||
	    store_list(st, &f, &a, &n, err)) {
		ui_status(u, STY_WARN, 10, "history: %s", err);
		store_close(st);
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		struct store_run full;

		if (store_get(st, a[i].id, &full, err) == 0) {
			model_add_history(&u->model, &full);
			store_run_free(&full);
		}
		store_run_free(&a[i]);
	}
	free(a);
	store_close(st);
}

int ctl_mark_baseline(struct ui *u, struct model_run *r)
{
	struct ctl *c = u->ctl;
	struct store *st = NULL;
	char err[ERR_MAX];
	int rc = 0;

	model_set_baseline(&u->model, r);
	if (!r->db_id || c->rq.no_db)
		return 0;
	rc = store_open(&st, ctl_db_path(u), err);
	if (!rc)
		rc = store_set_baseline(st, r->db_id, err);
	store_close(st);
	if (rc)
		ui_status(u, STY_WARN, 10, "baseline not stored: %s", err);
	return rc;
}

int ctl_request(int argc, char **argv, bool test_only, struct dash_request *rq,
		enum options_help *help, char *err)
{
	struct run_opts *o = calloc(1, sizeof(*o));
	int rc;

	if (!o)
		return err_set(err, 2, "out of memory");
	rc = options_argv(argc, argv, o, err);
	if (rc < 0)
		rc = 2;
	if (rc == 1 && help)
		*help = o->help;
	if (rc == 0 && test_only && (o->so.host || o->lab_name[0] || o->loopback ||
				     o->lab_opts_given || o->nset || o->capture_file[0]))
		rc = err_set(err, 2, "the target, --set and -w are chosen when tunetop starts; "
			     "accepted here: the test and its options");
	if (rc == 0) {
		memset(rq, 0, sizeof(*rq));
		options_target_opts(o, &rq->target);
		rq->so = o->so;
		rq->so.host = rq->so.port = NULL;
		rq->so.lab = NULL;
		rq->so.why = NULL;
		rq->so.capture_file = NULL;
		snprintf(rq->db_path, sizeof(rq->db_path), "%s", o->db_path);
		rq->no_db = o->no_db;
		rq->local_cpu = o->local_cpu;
		rq->remote_cpu = o->remote_cpu;
		rq->capture_given = o->capture_given;
	}
	free(o);
	return rc;
}

int ctl_open(struct ui *u, const struct dash_request *rq, char *err)
{
	struct ctl *c = calloc(1, sizeof(*c));
	int rc;

	if (!c)
		return err_set(err, -ENOMEM, "out of memory");
	u->ctl = c;
	c->rq = *rq;
	/* The dashboard captures where it can unless told otherwise (tunetop(1)). */
	if (!c->rq.capture_given)
		c->rq.so.p.capture = CAPTURE_AUTO;
	rc = target_open(&c->target, &rq->target, err);
	if (rc)
		return rc;
	target_session_opts(&c->target, &c->rq.so);
	u->p = c->rq.so.p;
	u->lab = c->target.lab != NULL;
	snprintf(u->target, sizeof(u->target), "%s", c->target.desc);
	if (lab_made_note(c->target.lab)) {
		/* On stderr too: it stays in the terminal after the dashboard. */
		fprintf(stderr, "tunetop: %s\n", lab_made_note(c->target.lab));
		ui_status(u, STY_NORMAL, 10, "%s", lab_made_note(c->target.lab));
	}
	load_history(u);
	rc = catalog_load(&u->cat, catalog_default_path(), err);
	if (rc)
		return rc;
	u->nknobs = catalog_count(u->cat);
	u->knobs = calloc(u->nknobs ? u->nknobs : 1, sizeof(*u->knobs));
	if (!u->knobs)
		return err_set(err, -ENOMEM, "out of memory");
	for (unsigned i = 0; i < u->nknobs; i++)
		u->knobs[i].d = catalog_at(u->cat, i);
	rc = knobs_txn_begin(&c->txn, "tunetop dashboard", 0, err);
	if (rc)
		return rc;
	ctl_read_knobs(u);
	for (unsigned i = 0; i < u->nknobs; i++)
		for (int e = 0; e < END_N; e++)
			if (u->knobs[i].v[e].present)
				snprintf(u->knobs[i].original[e], KNOB_TEXT_MAX, "%s",
					 u->knobs[i].v[e].text);
	return 0;
}

void ctl_close(struct ui *u)
{
	struct ctl *c = u->ctl;
	char err[ERR_MAX];

	if (!c)
		return;
	if (c->s) {
		session_abort(c->s);
		session_destroy(c->s);
		c->s = NULL;
	}
	/* What was not put back stays journaled for `tunetop restore`. */
	knobs_txn_keep(c->txn, err);
	knobs_txn_free(c->txn);
	target_close(&c->target, err);
	json_decref(c->series);
	free(c);
	u->ctl = NULL;
}

int ctl_run(struct ui *u)
{
	return ctl_run_point(u, "dashboard", 0, NULL, false, false, false);
}

int ctl_run_point(struct ui *u, const char *source, int64_t sweep_id, const char *point,
		  bool lcpu, bool rcpu, bool reverse)
{
	struct ctl *c = u->ctl;
	struct session_opts so;
	char err[ERR_MAX], target[sizeof(u->target) + 64];
	int rc;

	if (c->s)
		return -EBUSY;
	c->lcpu = lcpu;
	c->rcpu = rcpu;
	c->source = source;
	c->sweep_id = sweep_id;
	snprintf(c->point, sizeof(c->point), "%s", point ? point : "");
	json_decref(c->series);
	c->series = store_series_new();
	c->rq.so.p = u->p;
	/* Reversed (a sweep's --reverse): the engine turns this run around;
	 * the knobs stay read and set on their own sides (c->rq.so). */
	so = c->rq.so;
	snprintf(target, sizeof(target), "%s", u->target);
	if (reverse) {
		target_reverse(&so);
		c->rq.so.p = so.p;
		snprintf(target, sizeof(target), "%.80s, reversed: %s", u->target,
			 target_reverse_desc(&so));
	}
	c->r = model_begin(&u->model, &so.p, target);
	if (!c->r) {
		ui_status(u, STY_WARN, 10, "run: out of memory");
		return -ENOMEM;
	}
	c->r->tbf_bps = c->target.tbf_bps;
	rc = session_create(&c->s, &so, err);
	if (!rc)
		rc = session_start(c->s, err);
	if (rc) {
		if (c->s)
			session_destroy(c->s);
		c->s = NULL;
		model_end(&u->model, c->r, rc, err, NULL);
		u->cur = c->r;
		ui_status(u, STY_WARN, 15, "run: %s", err);
		u->loop = false;
		return rc;
	}
	c->t0 = mono_secs();
	u->cur = c->r;
	u->state = UI_RUNNING;
	u->run_started = c->t0;
	ui_status(u, STY_NORMAL, 3, "%s run started", test_type_name(u->p.type));
	return 0;
}

void ctl_stop(struct ui *u)
{
	struct ctl *c = u->ctl;

	if (!c->s || u->state != UI_RUNNING)
		return;
	session_stop(c->s);
	u->state = UI_STOPPING;
	u->loop = false;
	ui_status(u, STY_NORMAL, 3, "stopping: the run reports what it measured so far");
}

int ctl_event_fd(const struct ui *u)
{
	const struct ctl *c = u->ctl;

	return c && c->s ? session_event_fd(c->s) : -1;
}

/* Pending edits go in now that nothing runs; each result in the status line. */
static void apply_pending(struct ui *u)
{
	for (unsigned i = 0; i < u->nknobs; i++)
		for (int e = 0; e < END_N; e++) {
			char text[KNOB_TEXT_MAX];

			if (!u->knobs[i].has_pending[e])
				continue;
			snprintf(text, sizeof(text), "%s", u->knobs[i].pending[e]);
			u->knobs[i].has_pending[e] = false;
			u->npending--;
			ui_knob_edit(u, i, e, text);
		}
}

/*
 * Keep a finished run in the history, as tunetop run does (unless
 * --no-db); its result document stays in the model (r->doc) for what
 * moved and a plan's columns.
 */
static void store_run_of(struct ui *u, struct model_run *r, struct session_result *res,
			 bool failed, const char *why)
{
	struct ctl *c = u->ctl;
	struct store_finished f = {
		.p = &c->rq.so.p,
		.res = res,
		.series = c->series,
		.started = r->started,
		.failed = failed,
		.throughput = res->throughput,
		.lcpu = res->local.cpu.total.busy,
		.rcpu = res->remote.cpu.total.busy,
		.source = c->source,
		.sweep_id = c->sweep_id,
		.point = c->point[0] ? c->point : NULL,
	};
	char err[ERR_MAX];
	int rc;

	/* The document is kept for what moved (docs/why.md) and a plan's
	 * columns, stored or not. */
	f.result = result_doc_one(res, failed, why, c->rq.local_cpu || c->lcpu,
				  c->rq.remote_cpu || c->rcpu);
	if (f.result)
		model_keep_doc(&u->model, r, f.result, c->series, u->compare);
	else
		snprintf(r->doc_na, sizeof(r->doc_na), "out of memory");
	if (c->rq.no_db) {
		json_decref(f.result);
		return;
	}
	rc = f.result ? store_save(ctl_db_path(u), &f, &r->db_id, err) :
			err_set(err, -ENOMEM, "out of memory");
	if (rc)
		ui_status(u, STY_WARN, 15, "run s%u not stored: %s", r->id, err);
	json_decref(f.result);
}

int ctl_run_doc(struct ui *u, struct model_run *r, const struct model_run *keep)
{
	struct store_run sr;
	struct store *st = NULL;
	int rc;

	if (r->doc)
		return 0;
	if (r->doc_na[0])
		return -ENOENT;
	if (r->state == MS_RUNNING || r->state == MS_STARTING)
		return -EAGAIN;
	if (!r->db_id) {
		snprintf(r->doc_na, sizeof(r->doc_na), "%s",
			 ctl_no_db(u) ? "not kept, not stored (--no-db)" : "not stored");
		return -ENOENT;
	}
	store_run_init(&sr);
	rc = store_open(&st, ctl_db_path(u), r->doc_na);
	if (!rc)
		rc = store_get(st, r->db_id, &sr, r->doc_na);
	store_close(st);
	if (!rc && !sr.result)
		rc = err_set(r->doc_na, -ENOENT, "stored run %lld has no document", (long long)r->db_id);
	if (!rc)
		model_keep_doc(&u->model, r, sr.result, sr.series, keep);
	store_run_free(&sr);
	return rc;
}

/* The run has ended: its result into the model, then what waited for it. */
static void run_ended(struct ui *u)
{
	struct ctl *c = u->ctl;
	struct session_result res;
	char err[ERR_MAX] = "", name[24];
	bool stopped = u->state == UI_STOPPING;
	int rc;

	memset(&res, 0, sizeof(res));
	rc = session_wait(c->s, &res, err);
	session_destroy(c->s);
	c->s = NULL;
	if (rc == 0 && stopped)
		rc = -ECANCELED;
	if (res.elapsed > 0)
		store_run_of(u, c->r, &res, rc && rc != -ECANCELED, err);
	model_end(&u->model, c->r, rc, err, &res);
	session_result_free(&res);
	u->state = UI_IDLE;
	model_run_name(c->r, name, sizeof(name));
	if (rc && rc != -ECANCELED) {
		ui_status(u, STY_WARN, 30, "run %s failed: %s", name, err);
		u->loop = false;
	} else {
		ui_status(u, STY_GOOD, 8, "run %s %s: %.2f %s%s%s", name,
			  rc ? "stopped" : "done", c->r->rate,
			  units_rate(c->r->p.type)->label,
			  c->r->changes[0] ? "; knobs since the run before: " : "", c->r->changes);
	}
	if (u->npending)
		apply_pending(u);
	ctl_read_knobs(u);
}

int ctl_events(struct ui *u, struct model_run **ended)
{
	struct ctl *c = u->ctl;
	struct session_event ev;
	int what = 0;

	if (!c->s)
		return 0;
	while (session_next_event(c->s, &ev) == 0) {
		if (ev.kind == SESSION_EV_END) {
			what |= CTL_ENDED;
		} else if (ev.kind == SESSION_EV_NOTE) {
			/* a netserver found: its panels say what it cannot show */
			if (ev.target[0]) {
				snprintf(c->r->target, sizeof(c->r->target), "%s", ev.target);
				/* and the header, which said tunetopd */
				snprintf(u->target, sizeof(u->target), "%s", ev.target);
			}
			ui_status(u, STY_NORMAL, 8, "%s", ev.note);
		} else {
			model_sample(c->r, &ev);
			store_series_add_event(c->series, &ev, c->rq.so.p.type);
			what |= CTL_SAMPLES;
		}
		session_event_free(&ev);
	}
	if (what & CTL_ENDED) {
		run_ended(u);
		*ended = c->r;
	}
	return what;
}

/* A dashboard drawn without its control part (bench/uiframe, tests)
 * has no history: nothing is stored or read back. */
const char *ctl_db_path(const struct ui *u)
{
	const struct ctl *c = u->ctl;

	return c && c->rq.db_path[0] ? c->rq.db_path : NULL;
}

bool ctl_no_db(const struct ui *u)
{
	const struct ctl *c = u->ctl;

	return !c || c->rq.no_db;
}

bool ctl_changes_outlive(const struct ui *u)
{
	const struct ctl *c = u->ctl;

	return c->target.kind != TARGET_OWN_LAB;
}

double ctl_time_left(const struct ui *u)
{
	const struct ctl *c = u->ctl;
	double left;

	if (!c || !c->s)
		return -1;
	left = u->p.duration - (mono_secs() - c->t0);
	return left < 0 ? 0 : left;
}

const char *ctl_end_refusal(const struct ui *u, bool remote)
{
	return end_refusal(u, remote ? END_R : END_L);
}

const struct session_opts *ctl_knob_opts(const struct ui *u)
{
	const struct ctl *c = u->ctl;

	return &c->rq.so;
}

struct knobs_txn *ctl_txn(struct ui *u)
{
	return ((struct ctl *)u->ctl)->txn;
}

int ui_knob_edit(struct ui *u, unsigned k, int e, const char *text)
{
	struct ui_knob *kn = &u->knobs[k];
	struct knob_value v, after;
	struct knob_target t;
	char err[ERR_MAX], before[KNOB_TEXT_MAX], found[KNOB_TEXT_MAX];
	struct ctl *c = u->ctl;
	int rc;

	if (k >= u->nknobs || e < 0 || e >= END_N)
		return -EINVAL;
	if (!end_writable(u, e)) {
		ui_status(u, STY_WARN, 8, "%s on the remote end: %s", kn->d->name, end_refusal(u, e));
		return -EPERM;
	}
	if (knob_parse_value(kn->d, text, &v, err)) {
		ui_status(u, STY_WARN, 10, "%s", err);
		return -EINVAL;
	}
	if (u->state != UI_IDLE) {
		if (!kn->has_pending[e])
			u->npending++;
		kn->has_pending[e] = true;
		snprintf(kn->pending[e], sizeof(kn->pending[e]), "%s", v.text);
		ui_status(u, STY_PENDING, 5, "%s = %s on the %s end: applied when the run ends",
			  kn->d->name, v.text, e == END_L ? "local" : "remote");
		return 0;
	}
	knob_target_of(u, e, &t);
	snprintf(before, sizeof(before), "%s", kn->v[e].present ? kn->v[e].text : "n/a");
	/* Back to the value found: undo, so the journal forgets the change. */
	if (knobs_txn_has(c->txn, kn->d, &t, found, sizeof(found)) &&
	    !strcmp(v.text, found) && strcmp(before, v.text)) {
		rc = knobs_txn_undo_one(c->txn, kn->d, &t, err);
		if (!rc)
			rc = knobs_get(kn->d, &t, &after, err);
	} else {
		rc = knobs_txn_set(c->txn, kn->d, &t, v.text, NULL, &after, err);
	}
	if (rc) {
		ui_status(u, STY_WARN, 15, "%s", err);
		return rc;
	}
	kn->v[e] = after;
	if (!kn->original[e][0])
		snprintf(kn->original[e], KNOB_TEXT_MAX, "%s", before);
	ui_status(u, STY_CHANGED, 6, "%s on %s: %s -> %s", kn->d->name, knobs_side_name(&t),
		  before, after.text);
	count_changed(u);
	return 0;
}

int ui_knob_toggle(struct ui *u, unsigned k, int e)
{
	const struct ui_knob *kn = &u->knobs[k];
	const char *cur;

	if (k >= u->nknobs)
		return -EINVAL;
	if (kn->d->type != KNOB_BOOL) {
		ui_status(u, STY_WARN, 5, "%s is not on/off: Enter edits it", kn->d->name);
		return -EINVAL;
	}
	cur = kn->has_pending[e] ? kn->pending[e] : kn->v[e].present ? kn->v[e].text : NULL;
	if (!cur) {
		ui_status(u, STY_WARN, 8, "%s: n/a on this end: %s", kn->d->name, kn->v[e].reason);
		return -EOPNOTSUPP;
	}
	return ui_knob_edit(u, k, e, strcmp(cur, "on") ? "on" : "off");
}

void ui_knob_unpend(struct ui *u, unsigned k, int e)
{
	if (k < u->nknobs && u->knobs[k].has_pending[e]) {
		u->knobs[k].has_pending[e] = false;
		u->npending--;
	}
}

/* Count and name what ctl_undo_all put back or could not. */
struct undo_tally {
	struct ui *u;
	unsigned done, failed;
};

static void undo_cb(const struct knob_def *d, const struct knob_target *t,
		    const char *was, const char *found, int rc, const char *err, void *arg)
{
	struct undo_tally *n = arg;

	(void)t;
	(void)was;
	(void)found;
	if (rc) {
		n->failed++;
		ui_status(n->u, STY_WARN, 15, "%s: %s (tunetop restore will retry)", d->name, err);
	} else {
		n->done++;
	}
}

int ctl_undo_all(struct ui *u)
{
	struct undo_tally n = { .u = u };

	for (unsigned i = 0; i < u->nknobs; i++)
		for (int e = 0; e < END_N; e++)
			ui_knob_unpend(u, i, e);
	knobs_txn_undo(((struct ctl *)u->ctl)->txn, undo_cb, &n);
	ctl_read_knobs(u);
	if (!n.failed)
		ui_status(u, STY_GOOD, 5, "%u knob value%s put back", n.done, n.done == 1 ? "" : "s");
	return n.failed ? -EIO : 0;
}

int ctl_set_test(struct ui *u, const char *args, char *err)
{
	struct ctl *c = u->ctl;
	struct dash_request *rq = calloc(1, sizeof(*rq));
	char *copy = strdup(args), *argv[64], *save = NULL;
	int argc = 0, rc;

	if (!rq || !copy) {
		rc = err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	argv[argc++] = "run";
	for (char *w = strtok_r(copy, " \t", &save); w && argc < 63; w = strtok_r(NULL, " \t", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	rc = ctl_request(argc, argv, true, rq, NULL, err);
	if (rc == 0) {
		enum capture_mode cap = u->p.capture;

		u->p = rq->so.p;
		if (!rq->capture_given)
			u->p.capture = cap;
		c->rq.so.p = u->p;
	} else if (rc == 1) {
		rc = err_set(err, 2, "help is `tunetop run -h`");
	}
out:
	free(copy);
	free(rq);
	return rc > 0 ? -EINVAL : rc;
}

const char *ctl_reverse_desc(const struct ui *u)
{
	const struct ctl *c = u->ctl;
	struct session_opts so = c->rq.so;

	target_reverse(&so);
	return target_reverse_desc(&so);
}

void ctl_target_text(const struct ui *u, char *buf, size_t len)
{
	const struct ctl *c = u->ctl;

	plan_target_text(&c->rq.so, buf, len);
}

void ctl_cpu_opts(const struct ui *u, bool *lcpu, bool *rcpu)
{
	const struct ctl *c = u->ctl;

	*lcpu = c->rq.local_cpu;
	*rcpu = c->rq.remote_cpu;
}

int ctl_columns_check(const struct ui *u, const char *list, enum test_type t, char *err)
{
	return sweep_cols_check(list, t, false, err);
}
