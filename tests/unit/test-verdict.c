// SPDX-License-Identifier: GPL-2.0-or-later
/* test-verdict.c - the one verdict rule: between-run noise, its sources, its words. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "stats/verdict.h"
#include "tap.h"

/* Throughputs of 15 identical 1 s lab runs each (docs/why.md, "The verdict"). */
static const double rr[] = { 49533, 55799, 40878, 28916, 75712, 51611, 56267, 40094,
			     59857, 33691, 31791, 61772, 21562, 55996, 34454 };
static const double stream[] = { 2956, 3684, 2633, 1967, 4968, 2077, 1960, 1954,
				 2813, 4252, 2209, 3892, 3095, 3742, 3728 };
#define N 15

/* How many of all pairs of v the rule calls different, with or without history. */
static unsigned false_calls(const double *v, bool history, unsigned *pairs)
{
	unsigned called = 0;

	*pairs = 0;
	for (unsigned i = 0; i < N; i++)
		for (unsigned j = i + 1; j < N; j++) {
			struct verdict_in in;
			struct verdict out;

			verdict_in_init(&in, true);
			in.a = v[i];
			in.b = v[j];
			if (history) {
				in.hist = v;
				in.nhist = N;
			}
			verdict_judge(&in, &out);
			called += out.word == VERDICT_BETTER || out.word == VERDICT_WORSE;
			(*pairs)++;
		}
	return called;
}

static void identical_runs_are_not_called_different(void)
{
	unsigned pairs, c;

	c = false_calls(rr, false, &pairs) + false_calls(stream, false, &pairs);
	ok(c * 20 <= 2 * pairs, "prior: %u of %u pairs of identical runs called different (at most 1 in 20)",
	   c, 2 * pairs);
	c = false_calls(rr, true, &pairs) + false_calls(stream, true, &pairs);
	ok(c * 20 <= 2 * pairs, "history: %u of %u pairs called different (at most 1 in 20)", c,
	   2 * pairs);
}

/* One judgement of b against a with the prior (nhist 0) or history v. */
static struct verdict judge(double a, double b, bool higher_better, const double *v, unsigned n)
{
	struct verdict_in in;
	struct verdict out;

	verdict_in_init(&in, higher_better);
	in.a = a;
	in.b = b;
	in.hist = v;
	in.nhist = n;
	verdict_judge(&in, &out);
	return out;
}

static void real_changes_are_called_with_their_sign(void)
{
	/* -S 8K on a lab stream: runs list's figures of issue 27 */
	struct verdict v = judge(7361.65, 1571.54, true, NULL, 0);
	char buf[96];

	ok(v.word == VERDICT_WORSE, "-S 8K: %s (%s)", verdict_text(&v, buf, sizeof(buf)), v.reason);
	ok(fabs(v.delta_pct + 78.65) < 0.01, "its change is -78.65 %% (%.2f)", v.delta_pct);
	v = judge(1571.54, 7361.65, true, NULL, 0);
	ok(v.word == VERDICT_BETTER, "the way back is BETTER (%s)", verdict_word_text(v.word));
	v = judge(100, 400, false, NULL, 0);
	ok(v.word == VERDICT_WORSE, "latency 4 times as long: WORSE (%s)", verdict_word_text(v.word));
	/* a tight history calls what the prior cannot */
	{
		const double tight[] = { 1000, 1010, 990, 1005, 995 };

		v = judge(1000, 900, true, tight, 5);
		ok(v.word == VERDICT_WORSE && v.src == VERDICT_SRC_HISTORY && v.nsrc == 5,
		   "-10 %% against 5 runs within 1 %%: WORSE from history (%s)", v.reason);
		v = judge(1000, 900, true, NULL, 0);
		ok(v.word == VERDICT_CANT_TELL && v.src == VERDICT_SRC_PRIOR &&
		   strstr(v.reason, "tunetop ab"), "-10 %% with the prior only: can't tell, offers the A/B (%s)",
		   v.reason);
		v = judge(1000, 1004, true, tight, 5);
		ok(v.word == VERDICT_SAME, "+0.4 %% against that history: ~ (%s)", v.reason);
		v = judge(1000, 900, true, tight, 3);
		ok(v.src == VERDICT_SRC_PRIOR, "3 earlier runs are too few: the prior");
	}
}

static void intervals_and_missing_figures(void)
{
	struct verdict_in in;
	struct verdict v;

	verdict_in_init(&in, true);
	in.a = 1000;
	in.b = 960;
	in.ci_a = 10;
	in.ci_b = 15;
	verdict_judge(&in, &v);
	ok(v.word == VERDICT_WORSE && v.src == VERDICT_SRC_CI, "-4 %% beyond -i intervals +-25: WORSE (%s)",
	   v.reason);
	in.b = 980;
	verdict_judge(&in, &v);
	ok(v.word == VERDICT_SAME, "-2 %% within them: ~ (%s)", v.reason);
	in.a = NAN;
	verdict_judge(&in, &v);
	ok(v.word == VERDICT_CANT_TELL && isnan(v.delta_pct) && strstr(v.reason, "A"),
	   "no figure of A: can't tell (%s)", v.reason);
	ok(!strcmp(verdict_word_text(VERDICT_SAME), "~") &&
	   !strcmp(verdict_word_text(VERDICT_CANT_TELL), "can't tell"), "the words");
}

int main(void)
{
	identical_runs_are_not_called_different();
	real_changes_are_called_with_their_sign();
	intervals_and_missing_figures();
	return tap_done();
}
