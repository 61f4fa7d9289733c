// SPDX-License-Identifier: GPL-2.0-or-later
/* runs-cmd.c - `tunetop runs`: the run history -- list, show, diff, export, rm, baseline, check. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "runs-cmd.h"
#include "why-out.h"

static void runs_usage(FILE *f)
{
	fputs("usage: tunetop runs [--db PATH] COMMAND\n"
	      "  list [--test TYPE] [--sweep ID] [-n N] [--json]   the stored runs, oldest first\n"
	      "  show ID [--json]          one run: figures, both ends' knobs, its ticks, its limits\n"
	      "  diff A B                  the knobs that differ, every figure side by side, limits\n"
	      "  export ID --json|--csv    the whole record, or its ticks as CSV\n"
	      "  rm ID...                  delete runs\n"
	      "  baseline ID               make ID the baseline of its test and parameters\n"
	      "  check ID --against baseline|ID [--threshold PCT]\n"
	      "                            exit 1 when a figure is worse than the reference\n"
	      "                            beyond its noise (scripts, CI)\n"
	      "An ID is a run number from list, or last (the newest run), last-N (N before it).\n"
	      "The database is --db PATH, else $TUNETOP_DB, else ~/.local/share/tunetop/runs.db.\n",
	      f);
}

/* A run id as typed: a number, last or last-N (store_id_named()).  0 with
 * *id set, else the exit status with a message: 2 when s is not an id's
 * form, 1 when it names no stored run (as runs show of a missing number). */
static int runs_id(struct store *st, const char *s, int64_t *id)
{
	char err[ERR_MAX];
	int ret = store_id_named(st, s, false, id, err);

	if (!ret)
		return 0;
	fprintf(stderr, "tunetop runs: %s\n", err);
	return ret == -EINVAL ? 2 : 1;
}

static const char *fmt_time(double t, char *buf, size_t len)
{
	if (units_time_text(t, buf, len))
		snprintf(buf, len, "?");
	return buf;
}

static const char *fmt_num(double v, int prec, char *buf, size_t len)
{
	if (!isfinite(v))
		return "n/a";
	snprintf(buf, len, "%.*f", prec, v);
	return buf;
}

/* The test as `tunetop run` options, from the stored params. */
static const char *run_params(const struct store_run *r, char *buf, size_t len)
{
	struct test_params p;
	char err[ERR_MAX];

	if (!r->params || params_from_json(r->params, &p, err)) {
		snprintf(buf, len, "%s", r->test);
		return buf;
	}
	return params_text(&p, buf, (unsigned)len);
}

static int runs_list(struct store *st, int argc, char **argv)
{
	struct store_setup *su;
	struct store_filter f = { 0 };
	struct store_run *a = NULL;
	char err[ERR_MAX], serr[ERR_MAX];
	bool json = false;
	unsigned n, nbad;
	uint64_t v;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--test") && i + 1 < argc && test_type_parse(argv[i + 1]) >= 0) {
			f.test = test_type_name(test_type_parse(argv[++i]));
		} else if (!strcmp(argv[i], "--sweep") && i + 1 < argc &&
			   !parse_uint(argv[i + 1], 1, INT64_MAX, &v)) {
			f.sweep_id = (int64_t)v;
			i++;
		} else if (!strcmp(argv[i], "-n") && i + 1 < argc &&
			   !parse_uint(argv[i + 1], 1, 1000000, &v)) {
			f.limit = (unsigned)v;
			i++;
		} else {
			fprintf(stderr, "tunetop runs list: option '%s': accepted: --test TYPE, --sweep ID, -n N, --json\n",
				argv[i]);
			return 2;
		}
	}
	if (store_list_all(st, &f, &a, &n, &nbad, err)) {
		fprintf(stderr, "tunetop runs list: %s\n", err);
		return 1;
	}
	su = calloc(n ? n : 1, sizeof(*su));
	if (!su || store_list_setup(st, a, n, su, serr)) {
		fprintf(stderr, "tunetop runs list: %s\n", su ? serr : "out of memory");
		free(su);
		for (unsigned i = 0; i < n; i++)
			store_run_free(&a[i]);
		free(a);
		return 1;
	}
	if (json) {
		json_t *arr = json_array();

		for (unsigned i = 0; i < n; i++)
			json_array_append_new(arr, json_pack("{s:I, s:f, s:s, s:s, s:s, s:s, s:I, s:s, s:b, s:b, s:o, s:s, s:o, s:o, s:s, s:s}",
				"id", (json_int_t)a[i].id, "time", a[i].time, "test", a[i].test,
				"target", a[i].target, "target_short", a[i].target_short,
				"source", a[i].source,
				"sweep_id", (json_int_t)a[i].sweep_id, "point", a[i].point,
				"baseline", a[i].baseline, "failed", a[i].failed,
				"throughput", isfinite(a[i].throughput) ? json_real(a[i].throughput) : json_null(),
				"units", a[i].units,
				"p99_us", isfinite(a[i].p99_us) ? json_real(a[i].p99_us) : json_null(),
				"params", a[i].params ? json_incref(a[i].params) : json_null(),
				"flags", su[i].flags, "knobs_changed", su[i].knobs));
		json_dumpf(arr, stdout, JSON_INDENT(1));
		putchar('\n');
		json_decref(arr);
	} else {
		printf("%5s  %-19s  %-38s %-14s %14s %-10s %9s  %-20s %-30s %s\n", "ID", "TIME", "TEST",
		       "FLAGS", "RESULT", "", "P99 us", "TARGET", "KNOBS CHANGED", "WHERE");
		for (unsigned i = 0; i < n; i++) {
			char t[32], p[96], x[32], y[32];

			printf("%5" PRId64 "%c %-19s  %-38.38s %-14s %14s %-10s %9s  %-20s %-30s %.60s%s%s\n", a[i].id,
			       a[i].baseline ? 'B' : ' ', fmt_time(a[i].time, t, sizeof(t)),
			       run_params(&a[i], p, sizeof(p)), su[i].flags[0] ? su[i].flags : "-",
			       a[i].failed ? "FAILED" : fmt_num(a[i].throughput, 2, x, sizeof(x)),
			       a[i].units, fmt_num(a[i].p99_us, 1, y, sizeof(y)),
			       a[i].target_short[0] ? a[i].target_short : "?",
			       su[i].knobs[0] ? su[i].knobs : "-", a[i].target,
			       a[i].point[0] ? "  " : "", a[i].point);
		}
		if (!n && !nbad)
			printf("(no runs in %s)\n", store_path(st));
	}
	for (unsigned i = 0; i < n; i++)
		store_run_free(&a[i]);
	free(a);
	free(su);
	if (nbad) {
		fprintf(stderr, "tunetop runs list: %s\n", err);
		return 1;
	}
	return 0;
}

/*
 * What limited a stored run (docs/why.md), indented under head; a run
 * stored before tunetop judged runs, or failed, says so.
 */
static void print_limits(const struct store_run *r, const char *head, unsigned max)
{
	struct why_report w;
	char err[ERR_MAX];

	if (r->failed || !r->limits) {
		printf("%s not judged (%s)\n", head,
		       r->failed ? "the run failed" : "stored before tunetop named limits");
		return;
	}
	if (why_report_from_json(r->limits, &w, err)) {
		printf("%s unreadable: %s\n", head, err);
		return;
	}
	printf("%s\n", head);
	for (unsigned i = 0; i < w.n && i < max; i++)
		printf("  %u. %s\n", i + 1, w.v[i].evidence);
}

static int runs_show(struct store *st, int64_t id, bool json)
{
	struct store_run r;
	char err[ERR_MAX], t[32], p[96], x[32];

	if (store_get(st, id, &r, err)) {
		fprintf(stderr, "tunetop runs show: %s\n", err);
		return 1;
	}
	if (json) {
		json_t *doc = json_pack("{s:I, s:f, s:s, s:s, s:I, s:s, s:b, s:O, s:O}", "id",
					(json_int_t)r.id, "time", r.time, "source", r.source,
					"target", r.target, "sweep_id", (json_int_t)r.sweep_id,
					"point", r.point, "baseline", r.baseline, "result",
					r.result ? r.result : json_null(), "series",
					r.series ? r.series : json_null());

		json_dumpf(doc, stdout, JSON_INDENT(1));
		putchar('\n');
		json_decref(doc);
		store_run_free(&r);
		return 0;
	}
	printf("Run %" PRId64 "%s: %s, %s (%s)\n", r.id, r.baseline ? " (baseline)" : "",
	       fmt_time(r.time, t, sizeof(t)), run_params(&r, p, sizeof(p)), r.source);
	printf("Target: %s\n", r.target);
	if (r.sweep_id)
		printf("Sweep %" PRId64 ", point %s\n", r.sweep_id, r.point);
	printf("Result: %s %s%s\n", r.failed ? "FAILED" : fmt_num(r.throughput, 2, x, sizeof(x)),
	       r.units, r.failed ? "" : "");
	if (isfinite(r.p50_us))
		printf("Latency: p50 %.1f us, p99 %.1f us\n", r.p50_us, r.p99_us);
	if (isfinite(r.lcpu) || isfinite(r.rcpu))
		printf("CPU: local %s %%, remote %s %%\n", fmt_num(r.lcpu, 1, t, sizeof(t)),
		       fmt_num(r.rcpu, 1, x, sizeof(x)));
	if (r.series)
		printf("Ticks stored: %zu\n", json_array_size(json_object_get(r.series, "t")));
	print_limits(&r, "What limited it:", WHY_MAX);
	printf("Knobs recorded: %zu on each end (runs show %" PRId64 " --json lists them)\n",
	       json_array_size(result_doc_knob_list(r.result, result_doc_ends[0])), r.id);
	store_run_free(&r);
	return 0;
}

/* Every numeric figure of the two results, side by side, with the change. */
static void figures_diff(const json_t *a, const json_t *b)
{
	const json_t *ra = result_doc_fields(a), *rb = result_doc_fields(b);
	const char *key;
	json_t *vb;

	printf("%-32s %16s %16s %9s\n", "figure", "A", "B", "change");
	json_object_foreach((json_t *)rb, key, vb) {
		const json_t *va = json_object_get(ra, key);
		double x, y;

		if (!json_is_number(va) || !json_is_number(vb))
			continue;
		x = json_number_value(va);
		y = json_number_value(vb);
		printf("%-32s %16.6g %16.6g", key, x, y);
		if (x != 0 && isfinite(x) && isfinite(y))
			printf(" %+8.1f%%", (y - x) / fabs(x) * 100);
		putchar('\n');
	}
}

/* "Test options that differ (run A -> run B): -S receive auto -> 8192", beside the knobs. */
static void print_options_changed(const struct store_run *a, const struct store_run *b)
{
	char buf[512];

	if (!why_change_params(a->params, b->params, buf, sizeof(buf)))
		printf("Test options: the same\n");
	else
		printf("Test options that differ (run %" PRId64 " -> run %" PRId64 "): %s\n", a->id,
		       b->id, buf);
}

static int runs_diff(struct store *st, int64_t ia, int64_t ib)
{
	struct store_run a, b;
	char err[ERR_MAX], pa[96], pb[96];
	struct why_change c;

	if (store_get(st, ia, &a, err)) {
		fprintf(stderr, "tunetop runs diff: %s\n", err);
		return 1;
	}
	if (store_get(st, ib, &b, err)) {
		fprintf(stderr, "tunetop runs diff: %s\n", err);
		store_run_free(&a);
		return 1;
	}
	printf("A: run %" PRId64 " %s\nB: run %" PRId64 " %s\n", a.id, run_params(&a, pa, sizeof(pa)),
	       b.id, run_params(&b, pb, sizeof(pb)));
	if (store_why_change_hist(st, &a, &b, &c, err))
		fprintf(stderr, "tunetop runs diff: %s (the verdict uses the prior)\n", err);
	print_options_changed(&a, &b);
	why_out_knobs(stdout, &c, a.id, b.id, "");
	figures_diff(a.result, b.result);
	printf("\n");
	why_out_change(stdout, &c, b.units, WHY_OUT_TEXT, "", WHY_CHANGE_MAX);
	print_limits(&a, "What limited A:", 2);
	print_limits(&b, "What limited B:", 2);
	store_run_free(&a);
	store_run_free(&b);
	return 0;
}

static int runs_export(struct store *st, int64_t id, bool csv)
{
	struct store_run r;
	char err[ERR_MAX];
	const char *const *cols = store_series_names;
	size_t n;

	if (!csv)
		return runs_show(st, id, true);
	if (store_get(st, id, &r, err)) {
		fprintf(stderr, "tunetop runs export: %s\n", err);
		return 1;
	}
	n = json_array_size(json_object_get(r.series, "t"));
	for (size_t c = 0; c < STORE_NSERIES; c++)
		printf("%s%s", c ? "," : "", cols[c]);
	putchar('\n');
	for (size_t i = 0; i < n; i++) {
		for (size_t c = 0; c < STORE_NSERIES; c++) {
			const json_t *v = json_array_get(json_object_get(r.series, cols[c]), i);

			if (c)
				putchar(',');
			if (json_is_number(v))
				printf("%.6g", json_number_value(v));
		}
		putchar('\n');
	}
	store_run_free(&r);
	return 0;
}

/*
 * The reference of runs check --against baseline: the baseline of the
 * run's test and parameters, else the newest baseline of its test and
 * target, whose differing parameters are named.  0 with *against, or the
 * exit status 2 with a message.
 */
static int check_baseline(struct store *st, int64_t id, int64_t *against)
{
	char err[ERR_MAX];

	if (store_baseline_of(st, id, against, err) ||
	    (!*against && store_baseline_like(st, id, against, err))) {
		fprintf(stderr, "tunetop runs check: %s\n", err);
		return 2;
	}
	if (!*against) {
		fprintf(stderr, "tunetop runs check: run %" PRId64 " has no baseline of its test and target; accepted: tunetop runs baseline ID first, or --against ID\n", id);
		return 2;
	}
	return 0;
}

/* One figure of run against base by the verdict rule; true when WORSE beyond threshold. */
static bool check_figure(const char *name, const struct verdict *v, double a, double b,
			 double threshold)
{
	char t[128];
	bool bad = v->word == VERDICT_WORSE && fabs(v->delta_pct) > threshold;

	printf("  %-12s %12.6g -> %-12.6g %s: %s\n", name, a, b, verdict_text(v, t, sizeof(t)),
	       v->reason);
	return bad;
}

/*
 * Is run c worse than reference b beyond the noise?  The figures are
 * those runs list shows (the runs' results), judged by the one verdict
 * rule with the noise the store knows (store_why_change_hist(): -i
 * intervals, the history of the setup, else the prior); latency by the
 * same rule with its own history, p99 with the tail prior.  A figure regresses when its verdict is WORSE and the change
 * is larger than threshold percent.  Only like with like: runs of another
 * test or unit are refused.
 */
static int runs_check(struct store *st, int argc, char **argv)
{
	static const struct {
		const char *name;
		size_t off;
		enum store_why_fig fig;
		bool tail;
	} lat[] = {
		{ "p50 latency", offsetof(struct store_run, p50_us), SWF_P50, false },
		{ "p99 latency", offsetof(struct store_run, p99_us), SWF_P99, true },
	};
	double hist[STORE_WHY_HIST];
	struct store_run base, run;
	int64_t id, against = 0;
	double threshold = 1.0;
	char err[ERR_MAX], opts[512];
	struct why_change c;
	int worse = 0, rc;

	if (argc < 2 || runs_id(st, argv[1], &id))
		return 2;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--against") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], "baseline")) {
				if ((rc = check_baseline(st, id, &against)))
					return rc;
			} else if (runs_id(st, argv[i], &against)) {
				return 2;
			}
		} else if (!strcmp(argv[i], "--threshold") && i + 1 < argc &&
			   !parse_double(argv[i + 1], 0, 1000, &threshold)) {
			i++;
		} else {
			fprintf(stderr, "tunetop runs check: option '%s': accepted: --against baseline|ID, --threshold PCT\n",
				argv[i]);
			return 2;
		}
	}
	if (!against) {
		fprintf(stderr, "tunetop runs check: --against is needed: baseline or a run id\n");
		return 2;
	}
	if (store_get(st, against, &base, err)) {
		fprintf(stderr, "tunetop runs check: %s\n", err);
		return 2;
	}
	if (store_get(st, id, &run, err)) {
		fprintf(stderr, "tunetop runs check: %s\n", err);
		store_run_free(&base);
		return 2;
	}
	if (store_why_change_hist(st, &base, &run, &c, err))
		fprintf(stderr, "tunetop runs check: %s (the verdict uses the prior)\n", err);
	if (c.unlike) {
		fprintf(stderr, "tunetop runs check: run %" PRId64 " against run %" PRId64 ": %s; accepted: --against a run of the same test\n",
			id, against, c.verdict.reason);
		store_run_free(&base);
		store_run_free(&run);
		return 2;
	}
	printf("Run %" PRId64 " against run %" PRId64 " (threshold %.1f %%):\n", id, against, threshold);
	if (why_change_params(base.params, run.params, opts, sizeof(opts)))
		printf("  Test options that differ: %s\n", opts);
	worse += check_figure("throughput", &c.verdict, base.throughput, run.throughput, threshold);
	for (size_t f = 0; f < sizeof(lat) / sizeof(lat[0]); f++) {
		double a = *(const double *)((const char *)&base + lat[f].off);
		double b = *(const double *)((const char *)&run + lat[f].off);
		struct verdict_in in;
		struct verdict v;

		if (!isfinite(a) || !isfinite(b))
			continue;
		verdict_in_init(&in, false);
		in.a = a;
		in.b = b;
		in.tail = lat[f].tail;
		in.hist = hist;
		if (store_why_history(st, &base, lat[f].fig, run.id > base.id ? run.id : base.id, hist,
				      STORE_WHY_HIST, &in.nhist, err)) {
			fprintf(stderr, "tunetop runs check: %s (the verdict uses the prior)\n", err);
			in.nhist = 0;
		}
		verdict_judge(&in, &v);
		worse += check_figure(lat[f].name, &v, a, b, threshold);
	}
	store_run_free(&base);
	store_run_free(&run);
	printf("%s\n", worse ? "REGRESSION: worse than the reference beyond its noise" :
			       "ok: not worse than the reference beyond its noise");
	return worse ? 1 : 0;
}

int runs_main(int argc, char **argv)
{
	const char *db = NULL;
	struct store *st = NULL;
	char err[ERR_MAX];
	int64_t id, id2;
	int i = 1, rc;

	if (argc > 2 && !strcmp(argv[1], "--db")) {
		db = argv[2];
		i = 3;
	}
	if (i >= argc || !strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
		runs_usage(i >= argc ? stderr : stdout);
		return i >= argc ? 2 : 0;
	}
	if (strcmp(argv[i], "list") && strcmp(argv[i], "show") && strcmp(argv[i], "diff") &&
	    strcmp(argv[i], "export") && strcmp(argv[i], "rm") && strcmp(argv[i], "baseline") &&
	    strcmp(argv[i], "check")) {
		fprintf(stderr, "tunetop runs: '%s': accepted: list, show, diff, export, rm, baseline, check\n",
			argv[i]);
		return 2;
	}
	if (store_open(&st, db, err)) {
		fprintf(stderr, "tunetop runs: %s\n", err);
		return 1;
	}
	argc -= i;
	argv += i;
	rc = 2;
	if (!strcmp(argv[0], "list")) {
		rc = runs_list(st, argc, argv);
	} else if (!strcmp(argv[0], "show") && (argc == 2 || argc == 3)) {
		if (argc == 3 && strcmp(argv[2], "--json"))
			fprintf(stderr, "tunetop runs show: '%s': accepted: --json\n", argv[2]);
		else if (!(rc = runs_id(st, argv[1], &id)))
			rc = runs_show(st, id, argc == 3);
	} else if (!strcmp(argv[0], "diff") && argc == 3) {
		if (!(rc = runs_id(st, argv[1], &id)) && !(rc = runs_id(st, argv[2], &id2)))
			rc = runs_diff(st, id, id2);
	} else if (!strcmp(argv[0], "export") && argc == 3 &&
		   (!strcmp(argv[2], "--json") || !strcmp(argv[2], "--csv"))) {
		if (!(rc = runs_id(st, argv[1], &id)))
			rc = runs_export(st, id, !strcmp(argv[2], "--csv"));
	} else if (!strcmp(argv[0], "rm") && argc >= 2) {
		rc = 0;
		for (int k = 1; k < argc; k++) {
			if ((rc = runs_id(st, argv[k], &id)))
				break;
			if (store_rm(st, id, err)) {
				fprintf(stderr, "tunetop runs rm: %s\n", err);
				rc = 1;
			} else {
				printf("run %" PRId64 " removed\n", id);
			}
		}
	} else if (!strcmp(argv[0], "baseline") && argc == 2) {
		if (!(rc = runs_id(st, argv[1], &id))) {
			rc = store_set_baseline(st, id, err) ? 1 : 0;
			if (rc)
				fprintf(stderr, "tunetop runs baseline: %s\n", err);
			else
				printf("run %" PRId64 " is the baseline of its test and parameters\n", id);
		}
	} else if (!strcmp(argv[0], "check")) {
		rc = runs_check(st, argc, argv);
	} else {
		fprintf(stderr, "tunetop runs %s: wrong arguments; see tunetop runs -h\n", argv[0]);
	}
	store_close(st);
	return rc;
}
