// SPDX-License-Identifier: GPL-2.0-or-later
/* report-verdict.c - the report's first section: the verdict of each comparison it holds. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "report-internal.h"
#include "svg.h"

/* The most run-against-run verdicts listed; the rest are counted. */
#define REPORT_PAIRS_MAX 16

/* A verdict as the report heads it: a word, its colour class, what it rests on. */
struct report_verdict {
	const char *word;		/* "BETTER", "WORSE", "~", "CLIFF", "SMOOTH", "NOT COMPARED" */
	const char *cls;		/* "better", "worse", "same" */
	char text[600];
};

/* BETTER or WORSE by the sign of a rate's change (a higher rate is better). */
static void verdict_word(struct report_verdict *v, bool differs, double change)
{
	v->word = !differs ? "~" : change > 0 ? "BETTER" : "WORSE";
	v->cls = !differs ? "same" : change > 0 ? "better" : "worse";
}

/*
 * Whether the rate of runs b[] differs from that of runs a[], all of one
 * unit: the one place the report decides it.  Issue 27 brings one engine
 * rule for this (src/stats/verdict.*); switching to it is an edit of this
 * function only.  With more than one run on a side the A/B rule
 * (plan_ab_judge(): medians, a bootstrap interval and a rank test at
 * PLAN_AB_ALPHA, seeded as the A/B was), else a pair of runs by the
 * engine's verdict rule (store_why_change(): their -i intervals, else the
 * rule's prior; the history is not read here yet).
 */
static void report_judge(const struct store_run *const *a, unsigned na,
			 const struct store_run *const *b, unsigned nb, uint64_t seed,
			 struct report_verdict *v)
{
	const char *units = a[0]->units;
	char x[32], y[32];

	if (na > 1 || nb > 1) {
		int side[PLAN_AB_MAX_RUNS];
		double fig[PLAN_AB_MAX_RUNS];
		struct ab_result r;
		unsigned n = 0, ca, cb;

		for (unsigned i = 0; i < na && n < PLAN_AB_MAX_RUNS; i++, n++) {
			side[n] = 0;
			fig[n] = a[i]->throughput;
		}
		for (unsigned i = 0; i < nb && n < PLAN_AB_MAX_RUNS; i++, n++) {
			side[n] = 1;
			fig[n] = b[i]->throughput;
		}
		if (plan_ab_judge(side, fig, n, PLAN_AB_ALPHA, seed, PLAN_AB_RATE, &r, &ca, &cb)) {
			v->word = "NOT COMPARED";
			v->cls = "same";
			snprintf(v->text, sizeof(v->text),
				 "no throughput on a side to compare (%u runs of A, %u of B)", ca, cb);
			return;
		}
		verdict_word(v, r.significant, r.delta_pct);
		if (r.significant)
			snprintf(v->text, sizeof(v->text), "throughput %s", r.verdict);
		else
			snprintf(v->text, sizeof(v->text),
				 "throughput %+.1f %%, not told apart from the noise (%s)",
				 r.delta_pct, r.why[0] ? r.why : "~");
		snprintf(v->text + strlen(v->text), sizeof(v->text) - strlen(v->text),
			 "; medians %s -> %s %s, %u runs of A, %u of B (A/B rule: a rank test at alpha %g and a bootstrap interval)",
			 svg_fmt_si(r.median_a, x, sizeof(x)), svg_fmt_si(r.median_b, y, sizeof(y)),
			 units, ca, cb, PLAN_AB_ALPHA);
		return;
	}
	{
		struct why_change c;

		store_why_change(a[0], b[0], &c);
		if (c.verdict.word == VERDICT_CANT_TELL) {
			v->word = "can't tell";
			v->cls = "same";
		} else {
			verdict_word(v, c.beyond_noise, c.change_pct);
		}
		snprintf(v->text, sizeof(v->text),
			 "throughput %+.1f %% (%s -> %s %s), noise band %+.1f..%+.1f %% (%s): %s",
			 c.change_pct, svg_fmt_si(c.thr_a, x, sizeof(x)),
			 svg_fmt_si(c.thr_b, y, sizeof(y)), units, c.verdict.lo_pct, c.verdict.hi_pct,
			 verdict_src_text(c.verdict.src), c.verdict.reason);
	}
}

/* One verdict as an item of the list: the word, coloured, then what it is about. */
static void write_verdict(FILE *f, const char *kind, const char *about,
			  const struct report_verdict *v)
{
	fprintf(f, "<li class=\"verdict\" data-kind=\"%s\" data-word=\"%s\"><strong class=\"word %s\">%s</strong> ",
		kind, v->word, v->cls, v->word);
	svg_esc(f, about);
	fputs(": ", f);
	svg_esc(f, v->text);
	fputs(".</li>\n", f);
}

/* A/B sw: B's runs against A's. */
static void write_ab(FILE *f, const struct report *rp, const struct report_sweep *sw,
		     const struct store_run **list)
{
	const struct store_run **side[2] = { list, list + rp->n };
	unsigned n[2] = { 0, 0 };
	struct report_verdict v = { 0 };
	char about[512];

	for (unsigned i = 0; i < rp->n; i++) {
		const struct store_run *r = &rp->runs[i];
		int s = !strcmp(r->point, "a") ? 0 : !strcmp(r->point, "b") ? 1 : -1;

		if (r->sweep_id == sw->id && s >= 0 && !r->failed && isfinite(r->throughput))
			side[s][n[s]++] = r;
	}
	snprintf(about, sizeof(about), "A/B %" PRId64 ", B (%s) against A (%s)", sw->id,
		 sw->side[1][0] ? sw->side[1] : "the knobs as they were",
		 sw->side[0][0] ? sw->side[0] : "the knobs as they were");
	if (!n[0] || !n[1]) {
		v = (struct report_verdict){ .word = "NOT COMPARED", .cls = "same" };
		snprintf(v.text, sizeof(v.text), "no run of %s with a throughput among these runs",
			 n[0] ? "B" : "A");
	} else if (report_unit(side[0][0]) != report_unit(side[1][0])) {
		v = (struct report_verdict){ .word = "NOT COMPARED", .cls = "same" };
		snprintf(v.text, sizeof(v.text), "A measures %s, B %s: unlike is not compared",
			 side[0][0]->units, side[1][0]->units);
	} else {
		report_judge(side[0], n[0], side[1], n[1], sw->seed, &v);
	}
	write_verdict(f, "ab", about, &v);
}

/* Sweep sw: its cliffs by the engine's rule (sweep_policy_cliffs()). */
static int write_sweep_verdict(FILE *f, const struct report *rp, const struct report_sweep *sw)
{
	struct report_verdict v = { 0 };
	struct report_cliffs c;
	char about[128], x[32], y[32];
	size_t o;
	int ret = report_sweep_cliffs(rp, sw, &c);

	if (ret)
		return ret;
	snprintf(about, sizeof(about), "Sweep %" PRId64 " (%s), %u points", sw->id, sw->kind,
		 c.npoints);
	v.word = c.n ? "CLIFF" : "SMOOTH";
	v.cls = c.n ? "worse" : "same";
	if (!c.n) {
		snprintf(v.text, sizeof(v.text),
			 "no cliff: no point falls below its neighbours' line beyond the noise");
		write_verdict(f, "sweep", about, &v);
		return 0;
	}
	o = (size_t)snprintf(v.text, sizeof(v.text), "%u clif%s", c.n, c.n == 1 ? "f" : "fs");
	for (unsigned i = 0; i < c.shown && o < sizeof(v.text); i++) {
		const struct report_cliff *k = &c.c[i];

		o += (size_t)snprintf(v.text + o, sizeof(v.text) - o,
				      "%s at %s the rate falls to %s %s, %.1f %% below its neighbours' line",
				      i ? "; " : ": ", k->point, svg_fmt_si(k->rate, x, sizeof(x)),
				      k->units->name, k->drop_pct);
		if (k->before && o < sizeof(v.text))
			o += (size_t)snprintf(v.text + o, sizeof(v.text) - o, " (%s before it: %s)",
					      k->before->point,
					      svg_fmt_si(k->rate_before, y, sizeof(y)));
	}
	if (c.n > c.shown && o < sizeof(v.text))
		snprintf(v.text + o, sizeof(v.text) - o, "; %u more in the sweep's table",
			 c.n - c.shown);
	write_verdict(f, "sweep", about, &v);
	return 0;
}

/*
 * Runs compared run against run: both of a report of two, else each run
 * outside a sweep against the reference of its unit (the baseline among
 * them, else the first).
 */
static void write_pairs(FILE *f, const struct report *rp, bool pair)
{
	const struct store_run *ref[REPORT_UNITS_MAX] = { NULL };
	const struct rate_unit *unit[REPORT_UNITS_MAX];
	unsigned nu = 0, shown = 0, more = 0;

	for (unsigned pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < rp->n; i++) {
			const struct store_run *r = &rp->runs[i];
			unsigned k;

			if ((r->sweep_id && !pair) || r->failed || (pass == 0 && !r->baseline))
				continue;
			for (k = 0; k < nu && unit[k] != report_unit(r); k++)
				;
			if (k == nu && nu < REPORT_UNITS_MAX) {
				unit[nu] = report_unit(r);
				ref[nu++] = r;
			}
		}
	for (unsigned i = 0; i < rp->n; i++) {
		const struct store_run *r = &rp->runs[i], *a = NULL;
		struct report_verdict v = { 0 };
		char about[128];

		if ((r->sweep_id && !pair) || r->failed)
			continue;
		for (unsigned k = 0; k < nu; k++)
			if (unit[k] == report_unit(r))
				a = ref[k];
		if (!a || a == r)
			continue;
		if (shown == REPORT_PAIRS_MAX) {
			more++;
			continue;
		}
		snprintf(about, sizeof(about), "Run %" PRId64 " against run %" PRId64, r->id, a->id);
		report_judge(&a, 1, &r, 1, 0, &v);
		write_verdict(f, "runs", about, &v);
		shown++;
	}
	/* Like with like: a run of another unit has a reference of its own. */
	if (pair && report_unit(&rp->runs[0]) != report_unit(&rp->runs[1]) &&
	    !rp->runs[0].failed && !rp->runs[1].failed) {
		struct report_verdict v = { .word = "NOT COMPARED", .cls = "same" };
		char about[128];

		snprintf(about, sizeof(about), "Run %" PRId64 " against run %" PRId64,
			 rp->runs[1].id, rp->runs[0].id);
		snprintf(v.text, sizeof(v.text), "run %" PRId64 " measures %s (%s), run %" PRId64 " %s (%s): unlike is not compared",
			 rp->runs[0].id, rp->runs[0].units, rp->runs[0].test, rp->runs[1].id,
			 rp->runs[1].units, rp->runs[1].test);
		write_verdict(f, "runs", about, &v);
	}
	if (more)
		fprintf(f, "<li class=\"note\">%u more runs against their reference: see the Runs table.</li>\n",
			more);
}

int report_write_verdicts(FILE *f, const struct report *rp)
{
	const struct store_run **list = calloc(2 * (size_t)rp->n + 1, sizeof(*list));
	bool pair = rp->n == 2;
	int ret = 0;

	if (!list)
		return -ENOMEM;
	fputs("<section id=\"verdicts\">\n<h2>Verdict</h2>\n<ul class=\"verdicts\">\n", f);
	/* Two runs are a pair (two points of a sweep too), unless the sides of one A/B. */
	for (unsigned i = 0; i < rp->nsweeps && pair; i++)
		pair = !(!strcmp(rp->sweeps[i].kind, "ab") && rp->runs[0].sweep_id == rp->sweeps[i].id &&
			 rp->runs[1].sweep_id == rp->sweeps[i].id);
	for (unsigned i = 0; i < rp->nsweeps && !ret && !pair; i++) {
		if (!strcmp(rp->sweeps[i].kind, "ab"))
			write_ab(f, rp, &rp->sweeps[i], list);
		else
			ret = write_sweep_verdict(f, rp, &rp->sweeps[i]);
	}
	write_pairs(f, rp, pair);
	fputs("</ul>\n<p class=\"note\">BETTER and WORSE are the throughput's change told apart from the noise; ~ not told apart; CLIFF a sweep point below its neighbours' line (docs/report.md).</p>\n</section>\n",
	      f);
	free(list);
	return ret;
}
