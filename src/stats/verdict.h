/* SPDX-License-Identifier: GPL-2.0-or-later */
/* verdict.h - the one rule for "is run B different from run A" (docs/why.md). */
#ifndef TT_VERDICT_H
#define TT_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The rule, for every front end (the runs panel, the rate header, `runs
 * diff`, `runs check`, the report, sweeps): a figure of run B against the
 * same figure of run A, judged against the noise *between runs* of one
 * setup, never against the spread of one run's ticks (the ticks of one
 * run say little of the next run: docs/why.md measured both).  Rates vary
 * by a factor, so the change is judged as ln(B / A).  The noise comes,
 * best first, from
 *   1. both runs' confidence half-widths (-i/-I: each run is a loop of
 *      repeats): beyond when |B - A| exceeds their sum;
 *   2. the history: earlier runs of the same test, parameters, target and
 *      knobs (at least verdict_rule.min_history): the standard deviation
 *      s of their ln(figure), the interval t x s x sqrt(2), t Student's at
 *      verdict_rule.level with their degrees of freedom;
 *   3. else the stated prior: s = verdict_rule.prior_sd (prior_tail_sd
 *      for a tail latency), the interval
 *      k x s x sqrt(2) (docs/why.md: measured on identical lab runs).
 * Outside the interval: BETTER or WORSE by the figure's direction.
 * Inside it: "~" when the noise was measured (1 or 2), "can't tell" when
 * it is only the prior -- then an A/B (the dashboard's key A, `tunetop
 * ab`) is what can tell, and the reason says so.  A figure missing (or
 * not above 0) on either side is "can't tell" too.
 */

#define VERDICT_REASON_MAX 200

enum verdict_word {
	VERDICT_CANT_TELL,	/* "can't tell" */
	VERDICT_SAME,		/* "~" */
	VERDICT_BETTER,		/* "BETTER" */
	VERDICT_WORSE,		/* "WORSE" */
};

/* Where the noise came from. */
enum verdict_src {
	VERDICT_SRC_NONE,	/* no figure to judge */
	VERDICT_SRC_CI,		/* both runs' -i/-I confidence half-widths */
	VERDICT_SRC_HISTORY,	/* earlier runs of the same setup */
	VERDICT_SRC_PRIOR,	/* the stated prior of verdict_rule */
};

/* The rule's numbers (docs/why.md: how they were measured). */
struct verdict_rule {
	double k;		/* the interval: k standard deviations of the change */
	double prior_sd;	/* one run's between-run sd of ln(figure), unmeasured */
	double prior_tail_sd;	/* the same of a tail latency (p99): tails spread wider */
	double level;		/* two-sided level of k, %: with history, Student-t at it */
	unsigned min_history;	/* fewer earlier runs: the prior */
};
extern const struct verdict_rule verdict_rule;

/* What the rule is given: one figure of each run and what is known of its noise. */
struct verdict_in {
	double a, b;		/* the figure of run A (the reference) and B; NAN n/a */
	bool higher_better;	/* throughput: true; latency: false */
	double ci_a, ci_b;	/* confidence half-widths (-i/-I), figure units; NAN none */
	const double *hist;	/* the figure in earlier runs of the same setup */
	unsigned nhist;
	bool tail;		/* a tail latency (p99): the prior is prior_tail_sd */
};

struct verdict {
	enum verdict_word word;
	double delta_pct;	/* (B - A) / A x 100; NAN n/a */
	double lo_pct, hi_pct;	/* the noise band: changes from lo_pct to hi_pct % are
				 * within the noise (a factor either way for rates,
				 * so -65 to +184 around a ratio of 2.84); NAN n/a */
	double noise;		/* the between-run sd used (figure units); NAN none */
	enum verdict_src src;
	unsigned nsrc;		/* runs the noise came from (history), else 0 */
	char reason[VERDICT_REASON_MAX];	/* "within the noise of 6 runs of this setup" */
};

/* Every input unknown: NAN figures and intervals, no history. */
void verdict_in_init(struct verdict_in *in, bool higher_better);

/* Judge in by the rule into out. */
void verdict_judge(const struct verdict_in *in, struct verdict *out);

/* "WORSE", "BETTER", "~", "can't tell". */
const char *verdict_word_text(enum verdict_word w);

/* "-i intervals", "history", "prior". */
const char *verdict_src_text(enum verdict_src s);

/* "WORSE -78.7 % (noise -64.8..+184.4 %)", "~ +0.4 % (noise -3.1..+3.1 %)". */
const char *verdict_text(const struct verdict *v, char *buf, size_t len);

#endif
