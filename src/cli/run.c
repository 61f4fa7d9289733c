// SPDX-License-Identifier: GPL-2.0-or-later
/* run.c - `tunetop run`: iterations of a session, interim and final output. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/signalfd.h>

#include "options.h"
#include "output.h"
#include "run.h"
#include "engine.h"

/*
 * SIGINT, SIGTERM and SIGHUP are blocked in every thread and read from a
 * signalfd in the main loop: the first ends the measured interval (the
 * results are still printed), the second ends the run at once; either way
 * the run's lab is torn down before tunetop exits.
 */
static int run_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	if (pthread_sigmask(SIG_BLOCK, set, NULL))
		return -1;
	return signalfd(-1, set, SFD_CLOEXEC | SFD_NONBLOCK);
}

/* Signals that arrived, counted; 0 when none. */
static unsigned run_take_signals(int sfd)
{
	struct signalfd_siginfo si;
	unsigned n = 0;

	while (read(sfd, &si, sizeof(si)) == sizeof(si))
		n++;
	return n;
}

/* One iteration: run the session, printing interim lines as they come. */
static int run_once(const struct run_opts *o, int sfd, unsigned *signals,
		    struct session_result *res, json_t *series, char *err)
{
	struct session *s;
	int ret, fd;
	bool end = false;
	unsigned ticks = 0;	/* the index of -k's NETPERF_INTERIM_RESULT[i] */

	ret = session_create(&s, &o->so, err);
	if (ret)
		return ret;
	ret = session_start(s, err);
	if (ret) {
		session_destroy(s);
		return ret;
	}
	fd = session_event_fd(s);
	while (!end) {
		struct pollfd pfd[2] = {
			{ .fd = fd, .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
		};
		struct session_event ev;

		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents) {
			unsigned before = *signals;

			*signals += run_take_signals(sfd);
			if (before == 0 && *signals >= 1)
				session_stop(s);
			if (*signals >= 2)
				session_abort(s);
		}
		while (session_next_event(s, &ev) == 0) {
			if (ev.kind == SESSION_EV_END)
				end = true;
			else if (ev.kind == SESSION_EV_NOTE) {
				if (output_notes(o))
					fprintf(output_notes(o), "tunetop: %s\n", ev.note);
			} else {
				store_series_add_event(series, &ev, o->so.p.type);
				if (o->interim > 0 || o->fmt == OUT_JSON_STREAM)
					output_interim(stdout, o, &ev, ticks);
				ticks++;
			}
			session_event_free(&ev);
		}
		fflush(stdout);
	}
	ret = session_wait(s, res, err);
	session_destroy(s);
	return ret;
}

void run_knob_target(const struct run_opts *o, bool remote, struct knob_target *t)
{
	target_knob_target(&o->so, remote, t);
}

void run_undo_say(const struct knob_def *d, const struct knob_target *t,
		  const char *was, const char *found, int rc, const char *err, void *arg)
{
	const char *who = arg;

	(void)was;
	if (rc)
		fprintf(stderr, "%s: could not put back %s (%s) to %s: %s (tunetop restore will retry)\n",
			who, d->name, knobs_side_name(t), found, err);
}

int run_undo_knobs(struct knobs_txn *x, const char *who)
{
	return knobs_txn_undo(x, run_undo_say, (void *)who) ? 1 : 0;
}

/* Whether a signal is waiting on the signalfd (a ^C while --wait waits). */
static int run_txn_cancel_cb(void *arg)
{
	struct run_ctx *c = arg;
	struct pollfd pfd = { .fd = c->sfd, .events = POLLIN };

	return c->sfd >= 0 && poll(&pfd, 1, 0) > 0;
}

int run_txn_begin(struct run_ctx *c, const char *who, struct knobs_txn **x)
{
	char err[ERR_MAX];

	if (knobs_txn_begin(x, who, c->o->wait ? KNOBS_TXN_WAIT : 0, err)) {
		fprintf(stderr, "%s: %s\n", who, err);
		return 1;
	}
	knobs_txn_set_cancel(*x, run_txn_cancel_cb, c);
	return 0;
}

int run_set_knobs(const struct run_opts *o, const struct catalog *cat, struct knobs_txn *x,
		  const char *who, const char *note, FILE *human)
{
	struct plan_setting s[sizeof(o->set) / sizeof(o->set[0])];
	char err[ERR_MAX];

	/* Every setting is checked (plan_setting_parse) before any knob changes. */
	for (unsigned i = 0; i < o->nset; i++) {
		if (plan_setting_parse(cat, o->set[i], &s[i], err)) {
			fprintf(stderr, "%s: --set %s\n", who, err);
			return 2;
		}
		if (s[i].end != SWEEP_END_LOCAL && options_remote_knobs_refusal(o)) {
			fprintf(stderr, "%s: --set %s: %s\n", who, o->set[i],
				options_remote_knobs_refusal(o));
			return 2;
		}
	}
	for (unsigned i = 0; i < o->nset; i++) {
		bool remote[2];
		unsigned ne = sweep_end_sides(s[i].end, remote);

		for (unsigned e = 0; e < ne; e++) {
			struct knob_value cur, after;
			struct knob_target t;

			run_knob_target(o, remote[e], &t);
			if (knobs_txn_set(x, s[i].d, &t, s[i].value, &cur, &after, err)) {
				fprintf(stderr, "%s: --set %s: %s\n", who, s[i].d->name, err);
				run_undo_knobs(x, who);
				return 1;
			}
			if (human)
				fprintf(human, "Knob %s on %s: %s -> %s%s\n", s[i].d->name,
				       knobs_side_name(&t), cur.text, after.text, note ? note : "");
		}
	}
	return 0;
}

int run_ctx_open(struct run_ctx *c, struct run_opts *o, const char *who)
{
	struct target_opts to;
	char err[ERR_MAX];
	sigset_t sigs;
	int ret;

	memset(c, 0, sizeof(*c));
	c->o = o;
	session_link_init(&c->link);
	signal(SIGPIPE, SIG_IGN);
	c->sfd = run_signals(&sigs);
	if (c->sfd < 0) {
		fprintf(stderr, "%s: signalfd: %s\n", who, strerror(errno));
		return 1;
	}
	options_target_opts(o, &to);
	ret = target_open(&c->target, &to, err);
	if (ret) {
		fprintf(stderr, "%s: %s\n", who, err);
		close(c->sfd);
		c->sfd = -1;
		return 1;
	}
	if (lab_made_note(c->target.lab))
		fprintf(stderr, "%s: %s\n", who, lab_made_note(c->target.lab));
	target_session_opts(&c->target, &o->so);
	o->so.link = &c->link;
	c->link.netserver = o->netserver;
	return 0;
}

void run_ctx_close(struct run_ctx *c)
{
	char err[ERR_MAX];

	session_link_release(&c->link);
	c->o->so.link = NULL;
	if (target_close(&c->target, err))
		fprintf(stderr, "tunetop: %s\n", err);
	c->o->so.lab = NULL;
	if (c->sfd >= 0)
		close(c->sfd);
	c->sfd = -1;
}

void run_summary_free(struct run_summary *sum)
{
	session_result_free(&sum->res);
	json_decref(sum->series);
	sum->series = NULL;
}

/* iter_run's ops for a run_ctx: run_once with its signals. */
static int run_iter_once(void *arg, struct run_summary *sum, char *err)
{
	struct run_ctx *c = arg;

	sum->series = store_series_new();
	return run_once(c->o, c->sfd, &c->signals, &sum->res, sum->series, err);
}

static bool run_iter_stopped(void *arg, bool take)
{
	struct run_ctx *c = arg;

	if (take)
		c->signals += run_take_signals(c->sfd);
	return c->signals != 0;
}

static const struct iter_ops run_iter_ops = {
	.once = run_iter_once,
	.stopped = run_iter_stopped,
};

int run_iterate(struct run_ctx *c, struct run_summary *sum)
{
	const struct run_opts *o = c->o;
	int ret = iter_run(sum, o->iterating, &o->it, o->local_cpu, o->remote_cpu,
			   o->so.p.type, &run_iter_ops, c);

	/* One control connection per run: its iterations, not the next run. */
	session_link_release(&c->link);
	return ret;
}

int run_store(const struct run_ctx *c, const struct run_summary *sum, const char *source,
	      int64_t sweep_id, const char *point, int64_t *id, char *errp)
{
	const struct run_opts *o = c->o;
	struct store_finished f = {
		.p = &o->so.p,
		.res = &sum->res,
		.series = sum->series,
		.started = sum->started,
		.failed = sum->failed,
		.throughput = sum->mean_throughput,
		.lcpu = sum->mean_lcpu,
		.rcpu = sum->mean_rcpu,
		.source = source,
		.sweep_id = sweep_id,
		.point = point,
	};
	char ebuf[ERR_MAX], *err = errp ? errp : ebuf;
	int rc;

	if (o->no_db)
		return 0;
	f.result = output_result_json(o, sum);
	rc = f.result ? store_save(o->db_path[0] ? o->db_path : NULL, &f, id, err) :
			err_set(err, -ENOMEM, "out of memory");
	if (rc && !errp)
		fprintf(stderr, "tunetop: the run was not stored: %s\n", err);
	json_decref(f.result);
	return rc;
}

int run_main(int argc, char **argv)
{
	static struct run_opts o;
	static struct run_summary sum;
	struct knobs_txn *txn = NULL;
	struct run_ctx c;
	struct catalog *cat = NULL;
	char err[ERR_MAX] = "";
	bool measured;
	int ret;

	ret = options_parse(argc, argv, &o, err);
	if (ret == 1)
		return 0;
	if (ret && o.netperf_mode && o.bad_test[0]) {
		/* netperf's words for a test it does not know, on stdout */
		printf("The test you requested (%s) is unknown to this netperf.\n"
		       "Please verify that you have the correct test name, \n"
		       "and that test family has been compiled into this netperf.\n", o.bad_test);
		return 1;
	}
	if (ret) {
		/* netperf exits 1 on bad input; tunetop run 2 */
		fprintf(stderr, "tunetop run: %s\n", err);
		return o.netperf_mode ? 1 : 2;
	}
	if (run_ctx_open(&c, &o, "tunetop run"))
		return 1;
	if (o.nset) {
		ret = catalog_load(&cat, catalog_default_path(), err);
		if (ret) {
			fprintf(stderr, "tunetop run: %s\n", err);
			ret = 1;
		} else {
			ret = run_txn_begin(&c, "tunetop run", &txn);
		}
		if (!ret)
			ret = run_set_knobs(&o, cat, txn, "tunetop run", NULL,
					    output_extras(&o, stdout));
		if (ret) {
			knobs_txn_free(txn);
			catalog_free(cat);
			run_ctx_close(&c);
			return ret;
		}
	}
	output_banner(stdout, &o);
	run_iterate(&c, &sum);
	/*
	 * A run that failed before it measured anything (connection refused,
	 * SETUP refused) has no figures: the one-line error only, as netperf
	 * says "establish control" after its banner, and nothing stored.
	 */
	measured = !(sum.failed && sum.iterations == 1 && !(sum.res.elapsed > 0));
	if (measured)
		output_result(stdout, &o, &sum);
	fflush(stdout);
	ret = 0;
	if (sum.failed) {
		fprintf(stderr, "tunetop run: %s\n", sum.failure);
		ret = 1;
	}
	if (sum.iterations && measured) {
		int64_t id = 0;

		/* Measured but not stored: a script must see it (3). */
		if (run_store(&c, &sum, "run", 0, NULL, &id, NULL))
			ret = ret ? ret : 3;
		else if (id && output_notes(&o)) /* a failed run's partial figures are kept, marked so */
			fprintf(output_notes(&o), "Stored as run %" PRId64 "%s\n", id,
				sum.failed ? ", marked FAILED (partial figures)" : "");
	}
	run_summary_free(&sum);
	/* A clean exit puts back what --set changed, unless --keep. */
	if (knobs_txn_count(txn) && o.keep) {
		if (knobs_txn_keep(txn, err)) {
			fprintf(stderr, "tunetop run: --keep: %s\n", err);
			ret = 1;
		} else if (o.fmt == OUT_HUMAN && output_notes(&o)) {
			FILE *x = output_extras(&o, stdout);

			/* stdout stays netperf's rows with -P 0, -O and -v 0 */
			fprintf(x ? x : output_notes(&o), "Knobs changed with --set are kept (--keep): tunetop knobs restore puts them back\n");
		}
	} else if (run_undo_knobs(txn, "tunetop run")) {
		ret = 1;
	}
	knobs_txn_free(txn);
	catalog_free(cat);
	run_ctx_close(&c);
	if (c.signals >= 2)
		return 130;
	return ret;
}
