/* SPDX-License-Identifier: GPL-2.0-or-later */
/* iterate.h - the figures of an iterated run (-i/-I), derived as netperf does. */
#ifndef TT_ITERATE_H
#define TT_ITERATE_H

#include <stdbool.h>

#include "core/params.h"
#include "stats/stats.h"

struct session_result;

/* Most iterations -i accepts (netperf's limit). */
#define ITER_MAX 30

/* The figures every iteration contributes; each gets its own interval. */
enum iter_fig {
	ITER_THR,		/* throughput, the result's units */
	ITER_LCPU,		/* local CPU utilisation, % */
	ITER_RCPU,		/* remote CPU utilisation, % */
	ITER_LSD,		/* local service demand of the iteration */
	ITER_RSD,		/* remote service demand of the iteration */
	ITER_NFIG
};

/* The figures of the iterations that completed, in order. */
struct iter_set {
	unsigned n;
	double x[ITER_NFIG][ITER_MAX];
};

/*
 * What an iterated run reports: every figure is over the same n
 * iterations.  Throughput and CPU are the means; service demand is
 * netperf's formula applied to those means (iter_sd), and its interval is
 * the one of the iterations' own service demands.
 */
struct iter_result {
	unsigned n;
	struct ci ci[ITER_NFIG];
	double throughput, lcpu, rcpu;	/* means */
	double lsd, rsd;		/* from the means; < 0 = n/a */
	bool reached;			/* every tracked width within the asked one */
};

/* Record one finished iteration (ignored past ITER_MAX). */
void iter_add(struct iter_set *s, const struct session_result *r);

/*
 * netperf's stopping rule over s: throughput always, local and remote CPU
 * when they are measured for the report (-c, -C).
 */
bool iter_done(const struct iter_set *s, const struct iterate *it,
	       bool lcpu, bool rcpu);

/*
 * The means, intervals and service demands of s.  ncpu_l, ncpu_r are the
 * ends' CPU counts (0 = unknown: service demand n/a).
 */
void iter_finish(const struct iter_set *s, const struct iterate *it,
		 bool lcpu, bool rcpu, enum test_type type, unsigned ncpu_l,
		 unsigned ncpu_r, struct iter_result *out);

struct run_summary;

/* How a front end runs one iteration of iter_run (its events, its signals). */
struct iter_ops {
	/*
	 * Run one iteration into sum->res, its ticks into a new sum->series
	 * (store.h's layout); 0, or -errno with err.
	 */
	int (*once)(void *arg, struct run_summary *sum, char *err);
	/* Whether a signal asked to stop (no further iteration starts); take:
	 * count the signals pending first (before an iteration starts). */
	bool (*stopped)(void *arg, bool take);
};

/*
 * A run into sum (selector.h): one iteration, or with iterating netperf's
 * -i/-I loop over it (max_iter at most, until iter_done), then the means,
 * intervals and service demands of the iterations that completed.  lcpu,
 * rcpu: -c, -C.  0, or 1 when an iteration failed (sum->failed,
 * sum->failure say which end and why; the figures are partial).
 */
int iter_run(struct run_summary *sum, bool iterating, const struct iterate *it, bool lcpu,
	     bool rcpu, enum test_type type, const struct iter_ops *ops, void *arg);

/*
 * Service demand in netperf's units from rates: util_pct of ncpu CPUs
 * spent on throughput (Trans/s for RR, 10^6 bits/s for streams), in
 * us/Tran or us/KB (a KB is 1024 bytes).  < 0 when it cannot be computed.
 */
double iter_sd(enum test_type type, double util_pct, unsigned ncpu,
	       double throughput);

#endif
