// SPDX-License-Identifier: GPL-2.0-or-later
/* ab-report.c - `tunetop ab`'s result: benchstat-like table, summary line, JSON document. */
#include "config.h"

#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ab-report.h"
#include "engine.h"
#include "why-out.h"

/* The figures the comparison covers, in the order of the table. */
static const struct ab_metric {
	const char *key;		/* in --json */
	const char *label;		/* in the table; units follow */
	bool rr_only;			/* a row only for request/response tests */
	char needs;			/* 'c' / 'C': measured with -c / -C only */
	int decimals;
} ab_metrics[AB_M_COUNT] = {
	[AB_M_THR] = { "throughput", "throughput", false, 0, -1 },
	[AB_M_P50] = { "p50_us", "p50 latency", true, 0, 1 },
	[AB_M_P99] = { "p99_us", "p99 latency", true, 0, 1 },
	[AB_M_LCPU] = { "local_cpu", "local CPU", false, 'c', 2 },
	[AB_M_RCPU] = { "remote_cpu", "remote CPU", false, 'C', 2 },
	[AB_M_LSD] = { "local_sd", "local SD", false, 'c', 3 },
	[AB_M_RSD] = { "remote_sd", "remote SD", false, 'C', 3 },
};

/* A side's settings as the history's spec keeps them: ["gro=on", ...]. */
json_t *ab_report_side_json(const struct ab_side *side)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && i < side->n; i++) {
		char t[PLAN_AB_REC_TEXT];

		plan_setting_text(side->item[i].d, side->item[i].remote, side->item[i].v.text, t,
				  sizeof(t));
		json_array_append_new(a, json_string(t));
	}
	if (a && side->test[0])
		json_array_append_new(a, json_string(side->test));
	return a;
}

/* The throughput's units as the progress line and table show them. */
const char *ab_report_thr_units(const struct run_opts *o)
{
	return units_rate(o->so.p.type)->text;
}

/* The units of metric m. */
static const char *ab_report_units(const struct run_opts *o, int m)
{
	switch (m) {
	case AB_M_THR: return ab_report_thr_units(o);
	case AB_M_P50:
	case AB_M_P99: return "us";
	case AB_M_LCPU:
	case AB_M_RCPU: return "%";
	default: return test_is_rr(o->so.p.type) ? "us/Tran" : "us/KB";
	}
}

/* v with thousands separators and dec decimals ("14,231", "9,412.33"). */
static void ab_report_num(double v, int dec, char *buf, size_t len)
{
	char digits[64], *dot;
	size_t n, lead, o = 0;
	bool neg = v < 0;

	if (isnan(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	snprintf(digits, sizeof(digits), "%.*f", dec, fabs(v));
	dot = strchr(digits, '.');
	n = dot ? (size_t)(dot - digits) : strlen(digits);
	lead = n % 3 ? n % 3 : 3;
	if (neg && o + 1 < len)
		buf[o++] = '-';
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		if (i >= lead && (i - lead) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	if (dot)
		snprintf(buf + o, len - o, "%s", dot);
}

/* A figure of metric m as the table shows it. */
void ab_report_fig(int m, double v, char *buf, size_t len)
{
	int dec = ab_metrics[m].decimals;

	if (dec < 0)		/* throughput: whole numbers from 1000 up */
		dec = fabs(v) >= 1000 ? 0 : 2;
	ab_report_num(v, dec, buf, len);
}

/* "±" as UTF-8, or "+-" for a terminal without it. */
static void ab_report_verdict_text(const struct ab_state *st, const char *v, char *buf, size_t len)
{
	const char *pm = strstr(v, "\u00b1");

	if (st->utf8 || !pm)
		snprintf(buf, len, "%s", v);
	else
		snprintf(buf, len, "%.*s+-%s", (int)(pm - v), v, pm + strlen("\u00b1"));
}

/* Whether metric m has a row: latency rows only for request/response. */
static bool ab_report_has_row(const struct ab_state *st, int m)
{
	return !ab_metrics[m].rr_only || test_is_rr(st->o.so.p.type);
}

/* The knobs of both sides: original, A's value, B's value. */
static void ab_report_knobs(const struct ab_state *st, FILE *f)
{
	if (!st->nknobs) {
		fprintf(f, "none: the sides differ in their test options (A: %s; B: %s)\n",
			st->side[0].test[0] ? st->side[0].test : "as given",
			st->side[1].test[0] ? st->side[1].test : "as given");
		return;
	}
	fprintf(f, "%-32s %-6s %-12s %-12s %s\n", "knob", "side", "original", "A", "B");
	for (unsigned i = 0; i < st->nknobs; i++) {
		const struct ab_knob *k = &st->knob[i];

		fprintf(f, "%-32s %-6s %-12s %-12s %s\n", k->k.d->name, knobs_side_name(&k->k.t),
			k->k.original, k->val[0] ? k->val[0] : k->k.original,
			k->val[1] ? k->val[1] : k->k.original);
	}
}

/* What moved from A to B, between the median-rate run of each side. */
static void ab_report_moved(const struct ab_state *st, FILE *f)
{
	if (!st->has_moved) {
		fprintf(f, "\nWhat moved from A to B: n/a (%s)\n", st->moved_na);
		return;
	}
	fprintf(f, "\nWhat moved from A to B, run %lld -> run %lld (the median-rate run of each side):\n",
		(long long)st->moved_id[0], (long long)st->moved_id[1]);
	why_out_change(f, &st->moved, ab_report_thr_units(&st->o), WHY_OUT_TEXT, "  ",
		       WHY_CHANGE_MAX);
}

/* The benchstat-like table, the summary line and the knobs. */
void ab_report_print(const struct ab_state *st, FILE *f)
{
	const struct ab_result *t = &st->res[AB_M_THR];
	char verdict[96];

	if (!st->measured[AB_M_THR]) {
		fprintf(f, "\nB vs A: n/a (no run was counted)\n\nKnobs of A and B:\n");
		ab_report_knobs(st, f);
		return;
	}
	fprintf(f, "\n%-24s %12s %12s %9s  %-20s %7s  %s\n", "metric", "A (median)", "B (median)",
		"delta", "95 % CI of delta", "p", "verdict");
	for (int m = 0; m < AB_M_COUNT; m++) {
		const struct ab_result *r = &st->res[m];
		char label[48], fa[32], fb[32], delta[24], ci[48], p[16];

		if (!ab_report_has_row(st, m))
			continue;
		snprintf(label, sizeof(label), "%s (%s)", ab_metrics[m].label, ab_report_units(&st->o, m));
		if (!st->measured[m]) {
			char why[64];

			if (ab_metrics[m].needs)
				snprintf(why, sizeof(why), "n/a (needs -%c)", ab_metrics[m].needs);
			else
				snprintf(why, sizeof(why), "n/a (not measured)");
			fprintf(f, "%-24s %12s %12s %9s  %-20s %7s  %s\n", label, "n/a", "n/a", "n/a",
				"", "n/a", why);
			continue;
		}
		ab_report_fig(m, r->median_a, fa, sizeof(fa));
		ab_report_fig(m, r->median_b, fb, sizeof(fb));
		if (isnan(r->delta_pct))
			snprintf(delta, sizeof(delta), "n/a");
		else
			snprintf(delta, sizeof(delta), "%+.1f %%", r->delta_pct);
		if (isnan(r->ci_lo_pct))
			ci[0] = '\0';
		else
			snprintf(ci, sizeof(ci), "[%+.1f %%, %+.1f %%]", r->ci_lo_pct, r->ci_hi_pct);
		if (isnan(r->p))
			snprintf(p, sizeof(p), "n/a");
		else
			snprintf(p, sizeof(p), "%.2g", r->p);
		ab_report_verdict_text(st, r->verdict, verdict, sizeof(verdict));
		fprintf(f, "%-24s %12s %12s %9s  %-20s %7s  %s", label, fa, fb, delta, ci, p,
			verdict);
		if (!r->significant && r->why[0])
			fprintf(f, " (%s)", r->why);
		fputc('\n', f);
	}
	ab_report_verdict_text(st, t->verdict, verdict, sizeof(verdict));
	if (t->significant)
		fprintf(f, "\nB vs A: throughput %s (p=%.2g, n=%u+%u)\n", verdict, t->p, t->na, t->nb);
	else
		fprintf(f, "\nB vs A: throughput ~ (%s, n=%u+%u): no significant difference at alpha %g\n",
			t->why[0] ? t->why : "n/a", t->na, t->nb, st->alpha);
	ab_report_moved(st, f);
	fprintf(f, "\nKnobs of A and B:\n");
	ab_report_knobs(st, f);
}

/* A number for JSON, null when n/a. */
static json_t *ab_report_jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The --json document: settings, every run, every metric's comparison. */
json_t *ab_report_json(const struct ab_state *st, const char *target)
{
	json_t *doc = json_object(), *knobs = json_array(), *runs = json_array();
	json_t *metrics = json_object();

	if (!doc || !knobs || !runs || !metrics) {
		json_decref(doc);
		json_decref(knobs);
		json_decref(runs);
		json_decref(metrics);
		return NULL;
	}
	json_object_set_new(doc, "test", json_string(test_type_name(st->o.so.p.type)));
	json_object_set_new(doc, "target", json_string(target));
	json_object_set_new(doc, "ab_id", st->ab_id ? json_integer(st->ab_id) : json_null());
	json_object_set_new(doc, "a", ab_report_side_json(&st->side[0]));
	json_object_set_new(doc, "b", ab_report_side_json(&st->side[1]));
	json_object_set_new(doc, "pairs", json_integer(st->pairs));
	json_object_set_new(doc, "pairs_done", json_integer(st->pairs_done));
	json_object_set_new(doc, "seed", json_integer((json_int_t)st->seed));
	json_object_set_new(doc, "alpha", json_real(st->alpha));
	json_object_set_new(doc, "duration", json_real(st->o.so.p.duration));
	json_object_set_new(doc, "interrupted", json_boolean(st->interrupted));
	json_object_set_new(doc, "failed", json_boolean(st->failed));
	json_object_set_new(doc, "failure", st->failure[0] ? json_string(st->failure) : json_null());
	json_object_set_new(doc, "restored", json_boolean(!st->restore_failed));
	for (unsigned i = 0; i < st->nknobs; i++) {
		const struct ab_knob *k = &st->knob[i];

		json_array_append_new(knobs, json_pack("{s:s, s:s, s:s, s:s, s:s}",
			"name", k->k.d->name, "side", knobs_side_name(&k->k.t),
			"original", k->k.original,
			"a", k->val[0] ? k->val[0] : k->k.original,
			"b", k->val[1] ? k->val[1] : k->k.original));
	}
	json_object_set_new(doc, "knobs", knobs);
	for (unsigned i = 0; i < st->nruns; i++) {
		const struct ab_run *r = &st->run[i];
		json_t *j = json_pack("{s:i, s:s, s:o, s:b, s:b, s:o}",
			"pair", (int)r->pair, "point", r->side ? "b" : "a",
			"id", r->id ? json_integer(r->id) : json_null(),
			"failed", r->failed, "counted", !r->failed && !r->cut,
			"failure", r->failed ? json_string(r->failure) : json_null());

		for (int m = 0; j && m < AB_M_COUNT; m++)
			json_object_set_new(j, ab_metrics[m].key, ab_report_jnum(r->fig[m]));
		json_array_append_new(runs, j);
	}
	json_object_set_new(doc, "runs", runs);
	for (int m = 0; m < AB_M_COUNT; m++) {
		const struct ab_result *r = &st->res[m];

		if (!ab_report_has_row(st, m))
			continue;
		if (!st->measured[m]) {
			json_object_set_new(metrics, ab_metrics[m].key, json_null());
			continue;
		}
		json_object_set_new(metrics, ab_metrics[m].key, json_pack(
			"{s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:s, s:s}",
			"units", ab_report_units(&st->o, m), "na", (int)r->na, "nb", (int)r->nb,
			"median_a", ab_report_jnum(r->median_a), "median_b", ab_report_jnum(r->median_b),
			"delta_pct", ab_report_jnum(r->delta_pct), "ci_lo_pct", ab_report_jnum(r->ci_lo_pct),
			"ci_hi_pct", ab_report_jnum(r->ci_hi_pct), "p", ab_report_jnum(r->p),
			"significant", r->significant, "verdict", r->verdict, "why", r->why));
	}
	json_object_set_new(doc, "metrics", metrics);
	if (st->has_moved) {
		json_t *m = why_out_json(&st->moved);

		if (m)
			json_object_set_new(m, "runs", json_pack("{s:I, s:I}", "a",
				(json_int_t)st->moved_id[0], "b", (json_int_t)st->moved_id[1]));
		json_object_set_new(doc, "moved", m ? m : json_null());
	} else {
		json_object_set_new(doc, "moved", json_null());
	}
	json_object_set_new(doc, "moved_na", st->has_moved ? json_null() : json_string(st->moved_na));
	return doc;
}

/* Whether stdout's locale shows UTF-8 ("±"), without changing the locale. */
bool ab_report_utf8(void)
{
	const char *cs;
	bool u;

	if (!setlocale(LC_CTYPE, ""))
		return false;
	cs = nl_langinfo(CODESET);
	u = cs && !strcmp(cs, "UTF-8");
	setlocale(LC_CTYPE, "C");
	return u;
}
