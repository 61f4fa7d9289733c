// SPDX-License-Identifier: GPL-2.0-or-later
/* run.c - `tunetop run`: iterations of a session, interim and final output. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "output.h"
#include "run.h"
#include "session.h"

#define MAX_ITER 30

static struct session *volatile current;
static volatile sig_atomic_t interrupted;

/* Ctrl-C ends the measured interval now; the results are still printed. */
static void on_signal(int sig)
{
	struct session *s = current;

	interrupted++;
	if (s && interrupted == 1)
		session_stop(s);
	else
		_exit(130);
}

/* One iteration: run the session, printing interim lines as they come. */
static int run_once(const struct cli_opts *o, struct session_result *res, char *err)
{
	struct session *s;
	int ret, fd;
	bool end = false;

	ret = session_create(&s, &o->so, err);
	if (ret)
		return ret;
	ret = session_start(s, err);
	if (ret) {
		session_destroy(s);
		return ret;
	}
	current = s;
	fd = session_event_fd(s);
	while (!end) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct session_event ev;

		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			break;
		while (session_next_event(s, &ev) == 0) {
			if (ev.kind == SESSION_EV_END)
				end = true;
			else if (o->interim > 0 || o->fmt == OUT_JSON_STREAM)
				output_interim(stdout, o, &ev);
			session_event_free(&ev);
		}
		fflush(stdout);
	}
	ret = session_wait(s, res, err);
	current = NULL;
	session_destroy(s);
	return ret;
}

int run_main(int argc, char **argv)
{
	static struct cli_opts o;
	static struct run_summary sum;
	double thr[MAX_ITER], lcpu[MAX_ITER], rcpu[MAX_ITER];
	char err[ERR_MAX] = "";
	unsigned max_iter;
	int ret;
	struct sigaction sa = { .sa_handler = on_signal };

	ret = options_parse(argc, argv, &o, err);
	if (ret == 1)
		return 0;
	if (ret) {
		fprintf(stderr, "tunetop run: %s\n", err);
		return 2;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	sum.iterating = o.iterating;
	sum.it = o.it;
	max_iter = o.iterating ? o.it.max_iter : 1;
	for (unsigned n = 0; n < max_iter; n++) {
		const double *figs[3] = { thr, lcpu, rcpu };
		unsigned nfig = 1;

		if (n)
			session_result_free(&sum.res);
		memset(&sum.res, 0, sizeof(sum.res));
		ret = run_once(&o, &sum.res, err);
		sum.iterations = n + 1;
		if (ret) {
			sum.failed = true;
			snprintf(sum.failure, sizeof(sum.failure), "%s", err);
			break;
		}
		thr[n] = sum.res.throughput;
		lcpu[n] = sum.res.local.cpu.total.busy;
		rcpu[n] = sum.res.remote.cpu.total.busy;
		if (o.local_cpu)
			figs[nfig++] = lcpu;
		if (o.remote_cpu)
			figs[nfig++] = rcpu;
		if (interrupted || !o.iterating)
			break;
		if (o.iterating && stats_iterate_done(&o.it, figs, nfig, n + 1))
			break;
	}
	{
		unsigned n = sum.failed ? sum.iterations - 1 : sum.iterations;

		sum.mean_throughput = sum.res.throughput;
		sum.mean_lcpu = sum.res.local.cpu.total.busy;
		sum.mean_rcpu = sum.res.remote.cpu.total.busy;
		if (o.iterating && n) {
			stats_ci(thr, n, o.it.level, &sum.thr);
			stats_ci(lcpu, n, o.it.level, &sum.lcpu);
			stats_ci(rcpu, n, o.it.level, &sum.rcpu);
			sum.mean_throughput = sum.thr.mean;
			sum.mean_lcpu = sum.lcpu.mean;
			sum.mean_rcpu = sum.rcpu.mean;
			sum.ci_reached = sum.thr.width_pct <= o.it.width_pct &&
					 (!o.local_cpu || sum.lcpu.width_pct <= o.it.width_pct) &&
					 (!o.remote_cpu || sum.rcpu.width_pct <= o.it.width_pct);
		}
	}
	output_result(stdout, &o, &sum);
	fflush(stdout);
	if (sum.failed) {
		fprintf(stderr, "tunetop run: %s\n", sum.failure);
		ret = 1;
	}
	session_result_free(&sum.res);
	return ret ? 1 : 0;
}
