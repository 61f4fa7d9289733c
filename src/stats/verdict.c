// SPDX-License-Identifier: GPL-2.0-or-later
/* verdict.c - the one rule for "is run B different from run A" (docs/why.md). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "stats/verdict.h"

/*
 * prior_sd: the standard deviation of ln(throughput) over 15 identical
 * 1 s lab runs, TCP_RR 0.34 and TCP_STREAM 0.31, on a shared 2-CPU guest
 * (docs/why.md, "The verdict").  k 2.24 (level 97.5 %, the normal's
 * P(|Z| < 2.24): 1 pair in 40 by chance, half the 1 in 20 allowed)
 * called 2 of 210 pairs of those runs different.
 * prior_tail_sd: the p99 latency of those RR runs spread 0.68 (32.6 to
 * 600 us), another 10 runs' from 37 to 1176 us: 1.0 calls none of them.
 */
const struct verdict_rule verdict_rule = {
	.k = 2.24,
	.prior_sd = 0.33,
	.prior_tail_sd = 1.0,
	.level = 97.5,
	.min_history = 4,
};

void verdict_in_init(struct verdict_in *in, bool higher_better)
{
	memset(in, 0, sizeof(*in));
	in->a = in->b = in->ci_a = in->ci_b = NAN;
	in->higher_better = higher_better;
}

/* The standard deviation of ln of the finite, positive values of v; *n of them. */
static double verdict_log_sd(const double *v, unsigned nv, unsigned *n)
{
	double *lg = calloc(nv ? nv : 1, sizeof(*lg));
	struct ci c;

	*n = 0;
	if (!lg)
		return NAN;
	for (unsigned i = 0; i < nv; i++)
		if (isfinite(v[i]) && v[i] > 0)
			lg[(*n)++] = log(v[i]);
	stats_ci(lg, *n, verdict_rule.level, &c);
	free(lg);
	return *n >= 2 ? c.stddev : NAN;
}

/* BETTER or WORSE by the sign of the change and the figure's direction. */
static enum verdict_word verdict_dir(const struct verdict_in *in)
{
	return (in->b > in->a) == in->higher_better ? VERDICT_BETTER : VERDICT_WORSE;
}

void verdict_judge(const struct verdict_in *in, struct verdict *out)
{
	double lr, s, t, half;
	unsigned n = 0;

	memset(out, 0, sizeof(*out));
	out->word = VERDICT_CANT_TELL;
	out->delta_pct = out->lo_pct = out->hi_pct = out->noise = NAN;
	if (!isfinite(in->a) || !isfinite(in->b) || in->a <= 0 || in->b < 0) {
		snprintf(out->reason, sizeof(out->reason), "no figure of %s to compare",
			 isfinite(in->a) && in->a > 0 ? "B" : "A");
		return;
	}
	out->delta_pct = (in->b - in->a) / in->a * 100;
	if (isfinite(in->ci_a) && isfinite(in->ci_b)) {
		half = in->ci_a + in->ci_b;
		out->src = VERDICT_SRC_CI;
		out->noise = half;
		out->hi_pct = half / in->a * 100;
		out->lo_pct = -out->hi_pct;
		if (fabs(in->b - in->a) > half) {
			out->word = verdict_dir(in);
			snprintf(out->reason, sizeof(out->reason),
				 "beyond both runs' -i intervals");
		} else {
			out->word = VERDICT_SAME;
			snprintf(out->reason, sizeof(out->reason),
				 "within both runs' -i intervals");
		}
		return;
	}
	s = verdict_log_sd(in->hist, in->nhist, &n);
	if (n >= verdict_rule.min_history && isfinite(s)) {
		out->src = VERDICT_SRC_HISTORY;
		out->nsrc = n;
		t = stats_t_quantile(verdict_rule.level, n - 1);
	} else {
		out->src = VERDICT_SRC_PRIOR;
		s = in->tail ? verdict_rule.prior_tail_sd : verdict_rule.prior_sd;
		t = verdict_rule.k;
	}
	out->noise = s;
	half = t * s * sqrt(2);
	out->hi_pct = (exp(half) - 1) * 100;
	out->lo_pct = (exp(-half) - 1) * 100;
	lr = in->b > 0 ? log(in->b / in->a) : -INFINITY;
	if (fabs(lr) > half) {
		out->word = verdict_dir(in);
		if (out->src == VERDICT_SRC_HISTORY)
			snprintf(out->reason, sizeof(out->reason),
				 "beyond the noise of %u runs of this setup",
				 n);
		else
			snprintf(out->reason, sizeof(out->reason),
				 "beyond the prior run-to-run noise (docs/why.md)");
	} else if (out->src == VERDICT_SRC_HISTORY) {
		out->word = VERDICT_SAME;
		snprintf(out->reason, sizeof(out->reason),
			 "within the noise of %u runs of this setup", n);
	} else {
		snprintf(out->reason, sizeof(out->reason),
			 "within the prior run-to-run noise; an A/B can tell (key A, tunetop ab)");
	}
}

const char *verdict_word_text(enum verdict_word w)
{
	switch (w) {
	case VERDICT_SAME:
		return "~";
	case VERDICT_BETTER:
		return "BETTER";
	case VERDICT_WORSE:
		return "WORSE";
	case VERDICT_CANT_TELL:
		break;
	}
	return "can't tell";
}

const char *verdict_src_text(enum verdict_src s)
{
	switch (s) {
	case VERDICT_SRC_CI:
		return "-i intervals";
	case VERDICT_SRC_HISTORY:
		return "history";
	case VERDICT_SRC_PRIOR:
		return "prior";
	case VERDICT_SRC_NONE:
		break;
	}
	return "none";
}

const char *verdict_text(const struct verdict *v, char *buf, size_t len)
{
	if (!isfinite(v->delta_pct))
		snprintf(buf, len, "%s", verdict_word_text(v->word));
	else
		snprintf(buf, len, "%s %+.1f %% (noise %+.1f..%+.1f %%)",
			 verdict_word_text(v->word), v->delta_pct, v->lo_pct, v->hi_pct);
	return buf;
}
