// SPDX-License-Identifier: GPL-2.0-or-later
/* iterate.c - the figures of an iterated run (-i/-I), derived as netperf does. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "session/iterate.h"
#include "session/selector.h"
#include "session/session.h"

void iter_add(struct iter_set *s, const struct session_result *r)
{
	unsigned n = s->n;

	if (n >= ITER_MAX)
		return;
	s->x[ITER_THR][n] = r->throughput;
	s->x[ITER_LCPU][n] = r->local.cpu.ncpu ? r->local.cpu.total.busy : NAN;
	s->x[ITER_RCPU][n] = r->remote.cpu.ncpu ? r->remote.cpu.total.busy : NAN;
	s->x[ITER_LSD][n] = r->local_sd >= 0 ? r->local_sd : NAN;
	s->x[ITER_RSD][n] = r->remote_sd >= 0 ? r->remote_sd : NAN;
	s->n = n + 1;
}

bool iter_done(const struct iter_set *s, const struct iterate *it,
	       bool lcpu, bool rcpu)
{
	const double *fig[3] = { s->x[ITER_THR] };
	unsigned nfig = 1;

	if (lcpu)
		fig[nfig++] = s->x[ITER_LCPU];
	if (rcpu)
		fig[nfig++] = s->x[ITER_RCPU];
	return stats_iterate_done(it, fig, nfig, s->n);
}

double iter_sd(enum test_type type, double util_pct, unsigned ncpu,
	       double throughput)
{
	/* units of work per second: a transaction, or a KB of 1024 bytes */
	double units = test_is_rr(type) ? throughput : throughput * 1e6 / 8 / 1024;

	if (!isfinite(util_pct) || !isfinite(units))
		return -1.0;
	return service_demand(util_pct, ncpu, 1.0, units);
}

void iter_finish(const struct iter_set *s, const struct iterate *it,
		 bool lcpu, bool rcpu, enum test_type type, unsigned ncpu_l,
		 unsigned ncpu_r, struct iter_result *out)
{
	memset(out, 0, sizeof(*out));
	out->n = s->n;
	for (int f = 0; f < ITER_NFIG; f++)
		stats_ci(s->x[f], s->n, it->level, &out->ci[f]);
	out->throughput = out->ci[ITER_THR].mean;
	out->lcpu = out->ci[ITER_LCPU].mean;
	out->rcpu = out->ci[ITER_RCPU].mean;
	out->lsd = iter_sd(type, out->lcpu, ncpu_l, out->throughput);
	out->rsd = iter_sd(type, out->rcpu, ncpu_r, out->throughput);
	out->reached = out->ci[ITER_THR].width_pct <= it->width_pct &&
		       (!lcpu || out->ci[ITER_LCPU].width_pct <= it->width_pct) &&
		       (!rcpu || out->ci[ITER_RCPU].width_pct <= it->width_pct);
}

int iter_run(struct run_summary *sum, bool iterating, const struct iterate *it, bool lcpu,
	     bool rcpu, enum test_type type, const struct iter_ops *ops, void *arg)
{
	struct iter_set *set = calloc(1, sizeof(*set));
	char err[ERR_MAX] = "";
	unsigned max_iter;
	bool stop;
	int ret;

	memset(sum, 0, sizeof(*sum));
	sum->iterating = iterating;
	sum->it = *it;
	sum->started = wall_time();
	if (!set) {
		sum->failed = true;
		snprintf(sum->failure, sizeof(sum->failure), "out of memory");
		return 1;
	}
	max_iter = iterating ? it->max_iter : 1;
	for (unsigned n = 0; n < max_iter && n < ITER_MAX; n++) {
		if (n)
			session_result_free(&sum->res);
		memset(&sum->res, 0, sizeof(sum->res));
		json_decref(sum->series);
		sum->series = NULL;
		stop = ops->stopped(arg, true);
		if (n && stop)
			break;
		ret = ops->once(arg, sum, err);
		sum->iterations = n + 1;
		if (ret) {
			sum->failed = true;
			snprintf(sum->failure, sizeof(sum->failure), "%s", err);
			break;
		}
		iter_add(set, &sum->res);
		if (ops->stopped(arg, false) || !iterating)
			break;
		if (iter_done(set, it, lcpu, rcpu))
			break;
	}
	sum->mean_throughput = sum->res.throughput;
	sum->mean_lcpu = sum->res.local.cpu.total.busy;
	sum->mean_rcpu = sum->res.remote.cpu.total.busy;
	if (iterating && set->n) {
		struct iter_result ir;

		/* Every figure over the same completed iterations. */
		iter_finish(set, it, lcpu, rcpu, type, sum->res.local.cpu.ncpu,
			    sum->res.remote.cpu.ncpu, &ir);
		sum->thr = ir.ci[ITER_THR];
		sum->lcpu = ir.ci[ITER_LCPU];
		sum->rcpu = ir.ci[ITER_RCPU];
		sum->lsd = ir.ci[ITER_LSD];
		sum->rsd = ir.ci[ITER_RSD];
		sum->mean_throughput = ir.throughput;
		sum->mean_lcpu = ir.lcpu;
		sum->mean_rcpu = ir.rcpu;
		sum->res.local_sd = ir.lsd;
		sum->res.remote_sd = ir.rsd;
		sum->ci_reached = ir.reached;
	}
	free(set);
	return sum->failed ? 1 : 0;
}
