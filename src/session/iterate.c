// SPDX-License-Identifier: GPL-2.0-or-later
/* iterate.c - the figures of an iterated run (-i/-I), derived as netperf does. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "session/iterate.h"
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
