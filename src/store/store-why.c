// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * store-why.c - what moved between two stored runs: why_change() over
 * their documents, with each run's noise as the store keeps it
 * (docs/why.md).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "session/why-change.h"
#include "store/store-why.h"

/*
 * The noise of a run's mean rate from its ticks: their spread over the
 * root of their number (the standard error), NAN without ticks.  The
 * floor of sweep_policy_noise() keeps run-to-run variation in.
 */
static double store_tick_se(const struct store_run *r)
{
	size_t n = 0, finite = 0;
	double *v = store_series_get(r->series, "rate", &n);

	for (size_t i = 0; v && i < n; i++)
		finite += isfinite(v[i]) ? 1 : 0;
	free(v);
	return finite ? store_series_sd(r->series, "rate") / sqrt((double)finite) : NAN;
}

void store_why_change(const struct store_run *a, const struct store_run *b,
		      struct why_change *out)
{
	why_change(a->result, b->result, store_result_ci(a->result), store_tick_se(a),
		   store_result_ci(b->result), store_tick_se(b), out);
}
