// SPDX-License-Identifier: GPL-2.0-or-later
/* run.c - `tunetop run`: iterations of a session, interim and final output. */
#include "config.h"

#include <errno.h>
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
#include "lab-cmd.h"
#include "lab.h"
#include "session.h"

#define MAX_ITER 30

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
static int run_once(const struct cli_opts *o, int sfd, unsigned *signals,
		    struct session_result *res, char *err)
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
			else if (o->interim > 0 || o->fmt == OUT_JSON_STREAM)
				output_interim(stdout, o, &ev);
			session_event_free(&ev);
		}
		fflush(stdout);
	}
	ret = session_wait(s, res, err);
	session_destroy(s);
	return ret;
}

/*
 * With no -H: an existing lab (--lab), loopback (--loopback, or no
 * privilege for a lab), or a lab of the run's own, made here.  The choice
 * and its reason go into every output.
 */
static int run_target(struct cli_opts *o, struct lab **own, char *err)
{
	static char why[ERR_MAX + 32];
	struct lab_opts lo = { .mtu = o->lab_mtu, .rate_bps = o->lab_rate };
	int ret;

	*own = NULL;
	if (o->so.host)
		return 0;
	if (o->loopback) {
		o->so.why = "asked for with --loopback";
		return 0;
	}
	if (o->lab_name[0])
		return lab_open(&o->so.lab, o->lab_name, err);
	if (!lab_privileged()) {
		if (o->lab_opts_given)
			return err_set(err, -EPERM, "--mtu/--rate: a lab needs CAP_NET_ADMIN and CAP_SYS_ADMIN (run as root)");
		o->so.why = "no CAP_NET_ADMIN for a lab";
		return 0;
	}
	ret = lab_create(own, &lo, err);
	if (ret && o->lab_opts_given)
		return ret;
	if (ret) {
		snprintf(why, sizeof(why), "the lab could not be made: %s", err);
		o->so.why = why;
		return 0;
	}
	o->so.lab = *own;
	return 0;
}

int run_main(int argc, char **argv)
{
	static struct cli_opts o;
	static struct run_summary sum;
	double thr[MAX_ITER], lcpu[MAX_ITER], rcpu[MAX_ITER];
	char err[ERR_MAX] = "";
	struct lab *own_lab = NULL;
	unsigned max_iter, signals = 0;
	sigset_t sigs;
	int ret, sfd;

	ret = options_parse(argc, argv, &o, err);
	if (ret == 1)
		return 0;
	if (ret) {
		fprintf(stderr, "tunetop run: %s\n", err);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	sfd = run_signals(&sigs);
	if (sfd < 0) {
		fprintf(stderr, "tunetop run: signalfd: %s\n", strerror(errno));
		return 1;
	}
	ret = run_target(&o, &own_lab, err);
	if (ret) {
		fprintf(stderr, "tunetop run: %s\n", err);
		close(sfd);
		return 1;
	}

	sum.iterating = o.iterating;
	sum.it = o.it;
	max_iter = o.iterating ? o.it.max_iter : 1;
	for (unsigned n = 0; n < max_iter; n++) {
		const double *figs[3] = { thr, lcpu, rcpu };
		unsigned nfig = 1;

		if (n)
			session_result_free(&sum.res);
		memset(&sum.res, 0, sizeof(sum.res));
		signals += run_take_signals(sfd);
		if (n && signals)
			break;
		ret = run_once(&o, sfd, &signals, &sum.res, err);
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
		if (signals || !o.iterating)
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
	if (own_lab && lab_destroy(own_lab, err)) {
		fprintf(stderr, "tunetop run: %s\n", err);
		ret = 1;
	} else if (o.so.lab && !own_lab) {
		lab_close(o.so.lab);
	}
	close(sfd);
	if (signals >= 2)
		return 130;
	return ret ? 1 : 0;
}
