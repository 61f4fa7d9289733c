// SPDX-License-Identifier: GPL-2.0-or-later
/* ab-cmd.c - `tunetop ab`: two knob sets in interleaved pairs, then "is it real?". */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/signalfd.h>

#include "ab-cmd.h"
#include "ab-report.h"
#include "engine.h"
#include "options.h"
#include "run.h"

#define AB_MAX_ARGS 512

static const char *const side_names[2] = { "A", "B" };
static const char *const side_opts[2] = { "--a", "--b" };

static void ab_usage(FILE *f)
{
	fprintf(f,
		"Usage: tunetop ab --a SPEC --b SPEC [-n N] [--seed S] [--alpha A] [run options]\n"
		"\n"
		"Runs the test of `tunetop run`'s options N times with knob set A and N\n"
		"times with knob set B, in pairs whose order is random (to cancel drift),\n"
		"then puts every knob back and reports per metric the medians, the\n"
		"difference of B from A with a 95 %% bootstrap interval, the Mann-Whitney\n"
		"p-value and a verdict: \"~\" when the difference is not significant,\n"
		"then what moved from A to B between the median-rate run of each side\n"
		"(docs/why.md).\n"
		"\n"
		"  --a SPEC, --b SPEC  knob settings, [local:|remote:|both:]NAME=VALUE\n"
		"                      separated by commas or spaces (\"gro=on\",\n"
		"                      \"remote:gro=off,rx-usecs=64\"; both: each end);\n"
		"                      \"\" is the knobs as they are.  A knob only one side\n"
		"                      names has its original value in the other.  From\n"
		"                      the first word starting with '-', the side's own\n"
		"                      test options (\"-b 7\", \"gro=off -r 64,64\").\n"
		"  -n N                pairs, %d-%d (default %d)\n"
		"  --seed S            seed of the random order (default: from the clock;\n"
		"                      printed, so a comparison can be repeated)\n"
		"  --alpha A           significance level, 0 < A <= 0.5 (default 0.05)\n"
		"  --json              one document: every run's figures and each metric's\n"
		"                      comparison; progress goes to stderr\n"
		"\n"
		"Run options (tunetop run -h): -t -l -c -C -i -I -D -T -H -p -4 -6 --lab\n"
		"--loopback --mtu --rate --db --no-db ... -- -r -b -m -s -S -n ...\n"
		"Runs are stored with source \"ab\" and point \"a\" or \"b\".\n"
		"Exit status: 0 compared (whatever the verdict), 1 a run or a knob change\n"
		"failed or a knob could not be put back, 2 bad options.\n",
		PLAN_AB_MIN_PAIRS, PLAN_AB_MAX_PAIRS, PLAN_AB_PAIRS);
}

/* The value of --NAME / --NAME=V at argv[*i]; NULL when missing. */
static const char *ab_long_val(int argc, char **argv, int *i, size_t namelen)
{
	const char *a = argv[*i];

	if (a[namelen] == '=')
		return a + namelen + 1;
	if (*i + 1 < argc)
		return argv[++*i];
	return NULL;
}

/*
 * Take ab's own options out of argv and leave `tunetop run`'s in rargv
 * (rargv[0] "ab").  0, 1 when help was printed, or 2 with err.
 */
static int ab_args(int argc, char **argv, struct ab_state *st, int *rargc, char **rargv,
		   char *err)
{
	bool test_part = false, given[2] = { false, false };
	uint64_t x;
	int n = 0;

	st->pairs = PLAN_AB_PAIRS;
	st->alpha = PLAN_AB_ALPHA;
	st->seed = 0;
	st->side[0].spec = st->side[1].spec = "";
	rargv[n++] = (char *)"ab";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val;

		if (n >= AB_MAX_ARGS - 2)
			return err_set(err, 2, "too many arguments; accepted: at most %d", AB_MAX_ARGS - 2);
		if (test_part) {
			rargv[n++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			test_part = true;
			rargv[n++] = argv[i];
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			ab_usage(stdout);
			return 1;
		}
		if (!strncmp(a, "--a", 3) && (a[3] == '\0' || a[3] == '=')) {
			val = ab_long_val(argc, argv, &i, 3);
			if (!val)
				return err_set(err, 2, "option --a: missing value; accepted: " PLAN_SETTING_ACCEPTS ",... or \"\"");
			st->side[0].spec = val;
			given[0] = true;
			continue;
		}
		if (!strncmp(a, "--b", 3) && (a[3] == '\0' || a[3] == '=')) {
			val = ab_long_val(argc, argv, &i, 3);
			if (!val)
				return err_set(err, 2, "option --b: missing value; accepted: " PLAN_SETTING_ACCEPTS ",... or \"\"");
			st->side[1].spec = val;
			given[1] = true;
			continue;
		}
		if (!strncmp(a, "--seed", 6) && (a[6] == '\0' || a[6] == '=')) {
			val = ab_long_val(argc, argv, &i, 6);
			if (!val || parse_uint(val, 0, INT64_MAX, &x))
				return err_set(err, 2, "option --seed %s: not a seed; accepted: an integer 0-%lld",
					       val ? val : "", (long long)INT64_MAX);
			st->seed = x;
			st->seed_given = true;
			continue;
		}
		if (!strncmp(a, "--alpha", 7) && (a[7] == '\0' || a[7] == '=')) {
			char e[ERR_MAX];

			val = ab_long_val(argc, argv, &i, 7);
			if (plan_alpha_parse(val, &st->alpha, e))
				return err_set(err, 2, "option %s", e);
			continue;
		}
		if (!strncmp(a, "-n", 2)) {
			char e[ERR_MAX];

			val = a[2] ? a + 2 : i + 1 < argc ? argv[++i] : NULL;
			if (plan_pairs_parse(val, &st->pairs, e))
				return err_set(err, 2, "option %s (-n before `--`; after it, -n is the flows)", e);
			continue;
		}
		rargv[n++] = argv[i];
		if (options_takes_next(a) && i + 1 < argc)
			rargv[n++] = argv[++i];
	}
	rargv[n] = NULL;
	*rargc = n;
	if (!given[0] && !given[1])
		return err_set(err, 2, "--a and --b missing; accepted: tunetop ab --a SPEC --b SPEC (e.g. --a gro=on --b gro=off; \"\" is the knobs as they are)");
	return 0;
}

/*
 * A side's spec into items: its settings as the engine reads a side
 * (plan_side_parse(), each checked against the catalog), both: one item
 * an end, and its own test options.  0, or 2 with err.
 */
static int ab_parse_side(const struct catalog *cat, const struct run_opts *o, int s,
			 struct ab_side *side, char *err)
{
	struct plan_setting ps[AB_MAX_ITEMS];
	const char *opt = side_opts[s];
	unsigned n;
	int test;
	char e[ERR_MAX];

	if (plan_side_parse(cat, side->spec, ps, AB_MAX_ITEMS, &n, &test, e))
		return err_set(err, 2, "option %s: %s", opt, e);
	side->test[0] = '\0';
	if (test >= 0 && strlen(side->spec + test) >= sizeof(side->test))
		return err_set(err, 2, "option %s: test options longer than %zu characters",
			       opt, sizeof(side->test) - 1);
	if (test >= 0)
		snprintf(side->test, sizeof(side->test), "%s", side->spec + test);
	side->n = 0;
	for (unsigned i = 0; i < n; i++) {
		bool remote[2];
		unsigned ne = sweep_end_sides(ps[i].end, remote);

		for (unsigned k = 0; k < ne; k++) {
			struct ab_item *it = &side->item[side->n];

			if (side->n >= AB_MAX_ITEMS)
				return err_set(err, 2, "option %s: more than %d knobs", opt, AB_MAX_ITEMS);
			it->d = ps[i].d;
			it->remote = remote[k];
			if (knob_parse_value(it->d, ps[i].value, &it->v, e))
				return err_set(err, 2, "option %s: %s", opt, e);
			if (it->remote && options_remote_knobs_refusal(o))
				return err_set(err, 2, "option %s: remote:%s: %s",
					       opt, it->d->name, options_remote_knobs_refusal(o));
			for (unsigned j = 0; j < side->n; j++)
				if (side->item[j].d == it->d && side->item[j].remote == it->remote)
					return err_set(err, 2, "option %s: %s%s given twice; accepted: each knob once per side",
						       opt, it->remote ? "remote:" : "", it->d->name);
			side->n++;
		}
	}
	return 0;
}

/*
 * Each side's test: `tunetop run`'s options (rargv) with the side's own
 * test options after `--` ("-b 7"), checked as `tunetop run` checks them.
 * 0, or 2 with err.
 */
static int ab_side_tests(struct ab_state *st, int rargc, char **rargv, char *err)
{
	static struct run_opts o;
	static char *argv[AB_MAX_ARGS + 64];
	char text[2][256], e[ERR_MAX];
	int rc;

	for (int s = 0; s < 2; s++) {
		char words[256], *save = NULL, *w;
		bool dashdash = false;
		int n = 0;

		st->side[s].p = st->o.so.p;
		if (!st->side[s].test[0])
			continue;
		for (int i = 0; i < rargc; i++) {
			dashdash |= !strcmp(rargv[i], "--");
			argv[n++] = rargv[i];
		}
		if (!dashdash)
			argv[n++] = (char *)"--";
		snprintf(words, sizeof(words), "%s", st->side[s].test);
		for (w = strtok_r(words, " \t\n", &save); w && n < AB_MAX_ARGS + 62;
		     w = strtok_r(NULL, " \t\n", &save))
			if (strcmp(w, "--"))	/* "-- -b 7" as run's own line has it */
				argv[n++] = w;
		argv[n] = NULL;
		memset(&o, 0, sizeof(o));
		rc = options_parse_to(n, argv, &o, stderr, e);
		if (rc == 1)
			return err_set(err, 2, "option %s: help is not a test option; accepted: test options such as -b 7",
				       side_opts[s]);
		if (rc)
			return err_set(err, 2, "option %s \"%s\": %s", side_opts[s], st->side[s].test, e);
		st->side[s].p = o.so.p;
	}
	for (int s = 0; s < 2; s++)
		params_text(&st->side[s].p, text[s], sizeof(text[s]));
	st->tests_differ = strcmp(text[0], text[1]) != 0;
	return 0;
}

/* The knob d of one end in st's union, added if new. */
static struct ab_knob *ab_knob_of(struct ab_state *st, const struct knob_def *d, bool remote)
{
	struct ab_knob *k;

	for (unsigned i = 0; i < st->nknobs; i++)
		if (st->knob[i].k.d == d && st->knob[i].remote == remote)
			return &st->knob[i];
	k = &st->knob[st->nknobs++];
	memset(k, 0, sizeof(*k));
	k->k.d = d;
	k->remote = remote;
	return k;
}

/* The union of both sides' knobs; 2 with err when A and B ask for the same. */
static int ab_union(struct ab_state *st, char *err)
{
	bool same = true;

	st->nknobs = 0;
	for (int s = 0; s < 2; s++)
		for (unsigned i = 0; i < st->side[s].n; i++) {
			struct ab_item *it = &st->side[s].item[i];

			ab_knob_of(st, it->d, it->remote)->val[s] = it->v.text;
		}
	for (unsigned i = 0; i < st->nknobs; i++)
		if (!plan_value_same(st->knob[i].k.d, st->knob[i].val[0], st->knob[i].val[1]))
			same = false;
	if (same && !st->tests_differ)
		return err_set(err, 2, "options --a \"%s\" and --b \"%s\" ask for the same settings; accepted: two knob sets (or test options) that differ (either may be \"\", the knobs as they are)",
			       st->side[0].spec, st->side[1].spec);
	return 0;
}

/*
 * The A/B as the engine's plan (struct plan): each side's settings, its
 * test, the pairs in the order of the seed.  0, or 2 with err.
 */
static int ab_plan(struct ab_state *st, const struct catalog *cat, char *err)
{
	struct test_params p[2] = { st->side[0].p, st->side[1].p };
	char e[ERR_MAX];

	st->pl = plan_new(cat);
	if (!st->pl)
		return err_set(err, 2, "out of memory");
	for (int s = 0; s < 2; s++)
		for (unsigned i = 0; i < st->side[s].n; i++) {
			const struct ab_item *it = &st->side[s].item[i];

			if (plan_ab_set(st->pl, s, it->d, it->remote, it->v.text, e))
				return err_set(err, 2, "option %s: %s", side_opts[s], e);
		}
	if (plan_ab_build(st->pl, p, st->pairs, st->seed, st->alpha, e))
		return err_set(err, 2, "%s", e);
	return 0;
}

/*
 * Check every knob on its end (plan_begin: each value the sides ask for,
 * then the knob read there) and keep its original for the report.  0, or
 * 2 with err for a value that end refuses (read-only there) or sides that
 * come to the same settings, 1 when the end lacks the knob or it could
 * not be read.
 */
static int ab_originals(struct ab_state *st, char *err)
{
	int rc = plan_begin(st->pl, &st->o.so, st->txn, true, err);

	if (rc == -EINVAL || rc == -ERANGE || rc == -EROFS || rc == -EACCES) {
		size_t l = strlen(err);

		snprintf(err + l, ERR_MAX - l, "; accepted: a knob that can change there");
		return 2;
	}
	if (rc)
		return rc == -EALREADY ? 2 : 1;
	for (unsigned i = 0; i < st->nknobs && i < st->pl->nknobs; i++)
		st->knob[i].k = st->pl->knob[i].k;
	return 0;
}

/* Say what ab_restore did with one knob. */
static void ab_undo_cb(const struct knob_def *d, const struct knob_target *t,
		       const char *was, const char *found, int rc, const char *err, void *arg)
{
	FILE *f = arg;

	(void)was;
	if (rc)
		fprintf(stderr, "tunetop ab: could not put back %s (%s) to %s: %s (tunetop restore will retry)\n",
			d->name, knobs_side_name(t), found, err);
	else if (f)
		fprintf(f, "Knob %s on %s put back to %s\n", d->name, knobs_side_name(t), found);
}

/* Put back every knob a side changed, newest first; 0, or 1 when one failed. */
static int ab_restore(struct ab_state *st, FILE *f)
{
	char err[ERR_MAX];

	return plan_restore(st->pl, ab_undo_cb, f, err) ? 1 : 0;
}

/* Signals that arrived outside a run, counted into c->signals. */
static void ab_take_signals(struct run_ctx *c)
{
	struct signalfd_siginfo si;

	while (read(c->sfd, &si, sizeof(si)) == sizeof(si))
		c->signals++;
}

/* The figures of one run the comparison covers; NAN where not measured. */
static void ab_figures(const struct run_opts *o, const struct run_summary *sum, double *fig)
{
	const struct session_result *r = &sum->res;
	bool lat = r->local.has_lat && r->local.lat.count;

	for (int m = 0; m < AB_M_COUNT; m++)
		fig[m] = NAN;
	if (sum->failed)
		return;
	fig[AB_M_THR] = sum->mean_throughput;
	if (lat) {
		fig[AB_M_P50] = r->local.lat.p50_us;
		fig[AB_M_P99] = r->local.lat.p99_us;
	}
	if (o->local_cpu && r->local.cpu.ncpu)
		fig[AB_M_LCPU] = sum->mean_lcpu;
	if (o->remote_cpu && r->remote.cpu.ncpu)
		fig[AB_M_RCPU] = sum->mean_rcpu;
	if (o->local_cpu && r->local_sd >= 0)
		fig[AB_M_LSD] = r->local_sd;
	if (o->remote_cpu && r->remote_sd >= 0)
		fig[AB_M_RSD] = r->remote_sd;
}

/* One progress line per pair, for the runs run[from..to). */
static void ab_progress(const struct ab_state *st, FILE *f, unsigned pair, int first,
			unsigned from, unsigned to)
{
	fprintf(f, "pair %u/%u: %s then %s:", pair, st->pairs, side_names[first],
		side_names[!first]);
	for (unsigned i = from; i < to; i++) {
		const struct ab_run *r = &st->run[i];
		char num[48];

		fprintf(f, "%s %s ", i > from ? "," : "", side_names[r->side]);
		if (r->failed) {
			fprintf(f, "failed: %s", r->failure);
			continue;
		}
		ab_report_fig(AB_M_THR, r->fig[AB_M_THR], num, sizeof(num));
		fprintf(f, "%s %s", num, ab_report_thr_units(&st->o));
		if (r->cut)
			fprintf(f, " (cut short by a signal: not counted, not stored)");
	}
	if (to - from < 2)
		fprintf(f, "%s %s not run", to > from ? "," : "",
			side_names[to > from ? !st->run[from].side : first]);
	fputc('\n', f);
	fflush(f);
}

/* Compare A with B for every metric over the counted runs (the plan's verdict). */
static void ab_compare_all(struct ab_state *st)
{
	for (int m = 0; m < AB_M_COUNT; m++) {
		unsigned na, nb;

		st->cmp_rc[m] = plan_ab_verdict(st->pl, (unsigned)m, &st->res[m], &na, &nb);
		st->measured[m] = na || nb;
	}
}

/*
 * What moved from A to B: the median-rate run of each side, as the engine
 * picks it (plan_ab_median(), the dashboard's A/B asks the same), read back
 * from the history and compared by store_why_change().
 */
static void ab_what_moved(struct ab_state *st)
{
	struct store_run r[2];
	struct store *s = NULL;
	char err[ERR_MAX];
	int rc = 0;

	st->has_moved = false;
	st->moved_id[0] = st->moved_id[1] = 0;
	for (int side = 0; side < 2; side++) {
		int k = plan_ab_median_step(st->pl, side);

		if (k < 0) {
			snprintf(st->moved_na, sizeof(st->moved_na), "no run of %s was counted",
				 side_names[side]);
			return;
		}
		st->moved_id[side] = st->pl->step[k].run_id;
	}
	if (!st->moved_id[0] || !st->moved_id[1]) {
		snprintf(st->moved_na, sizeof(st->moved_na), "the runs were not stored%s",
			 st->o.no_db ? ": --no-db" : "");
		return;
	}
	store_run_init(&r[0]);
	store_run_init(&r[1]);
	rc = store_open(&s, st->o.db_path[0] ? st->o.db_path : NULL, err);
	for (int side = 0; side < 2 && !rc; side++)
		rc = store_get(s, st->moved_id[side], &r[side], err);
	store_close(s);
	if (rc)
		snprintf(st->moved_na, sizeof(st->moved_na), "%s", err);
	else
		store_why_change(&r[0], &r[1], &st->moved);
	st->has_moved = !rc;
	store_run_free(&r[0]);
	store_run_free(&r[1]);
}

/* The smallest two-sided p the exact Mann-Whitney test gives with n+n
 * values: 2 / C(2n, n). */
static double ab_min_p(unsigned n)
{
	double c = 1;

	for (unsigned i = 1; i <= n; i++)
		c = c * (double)(n + i) / (double)i;
	return 2.0 / c;
}

/* What is measured, for the header: "lab NAME", "loopback", "host H". */
static void ab_target_text(const struct run_opts *o, char *buf, size_t len)
{
	if (o->so.host)
		snprintf(buf, len, "host %s", o->so.host);
	else if (o->so.lab)
		snprintf(buf, len, "lab %s", lab_name(o->so.lab));
	else
		snprintf(buf, len, "loopback (%s)", o->so.why ? o->so.why : "");
}

/* Record the A/B in the history (the engine's one shape, plan_ab_record);
 * a failure only means nothing is stored. */
static void ab_store_sweep(struct ab_state *st)
{
	static struct plan_ab_record rec;
	struct store *s = NULL;
	char err[ERR_MAX];
	json_t *spec = NULL;
	int rc = 0;

	st->ab_id = 0;
	if (st->o.no_db)
		return;
	memset(&rec, 0, sizeof(rec));
	for (int side = 0; side < 2 && !rc; side++) {
		const struct ab_side *sd = &st->side[side];

		for (unsigned i = 0; i < sd->n && !rc; i++) {
			char t[PLAN_AB_REC_TEXT];

			plan_setting_text(sd->item[i].d, sd->item[i].remote, sd->item[i].v.text, t,
					  sizeof(t));
			rc = plan_ab_record_add(&rec, side, t, err);
		}
		if (!rc && sd->test[0])
			rc = plan_ab_record_add(&rec, side, sd->test, err);
	}
	rec.pairs = st->pairs;
	rec.seed = st->seed;
	rec.alpha = st->alpha;
	snprintf(rec.front, sizeof(rec.front), "tunetop ab");
	spec = rc ? NULL : plan_ab_record_json(&rec);
	if (!spec) {
		fprintf(stderr, "tunetop ab: %s: the runs will not be stored\n", rc ? err : "out of memory");
		return;
	}
	rc = store_open(&s, st->o.db_path[0] ? st->o.db_path : NULL, err);
	if (!rc)
		rc = store_add_sweep(s, "ab", spec, &st->ab_id, err);
	if (rc) {
		fprintf(stderr, "tunetop ab: %s: the runs will not be stored\n", err);
		st->ab_id = 0;
	}
	store_close(s);
	json_decref(spec);
}

/* Refuse `tunetop run` options that make no sense for a comparison. */
static int ab_check_run_opts(const struct run_opts *o, char *err)
{
	if (o->nset)
		return err_set(err, 2, "option --set: not with ab; accepted: the knobs in --a and --b");
	if (o->keep)
		return err_set(err, 2, "option --keep: not with ab, which always puts the knobs back");
	if (o->netperf_mode)
		return err_set(err, 2, "option --netperf: not with ab; accepted: tunetop run --netperf (netperf's output of one run)");
	if (o->fmt != OUT_HUMAN && o->fmt != OUT_JSON)
		return err_set(err, 2, "options -o, -k and --json-stream: not with ab; accepted: the table, or --json");
	if (o->sel.n)
		return err_set(err, 2, "option -O: not with ab; accepted: the table, or --json");
	if (o->capture_file[0])
		return err_set(err, 2, "option -w: not with ab (each run would overwrite %.64s); accepted: --capture",
			       o->capture_file);
	return 0;
}

/* Run the plan's steps pair by pair; stops at a failure or a signal. */
static void ab_loop(struct ab_state *st, struct run_ctx *c, FILE *prog)
{
	static struct run_summary sum;
	bool stop = false;

	for (unsigned i = 0; i < st->pairs && !stop; i++) {
		int first = st->pl->step[2 * i].side;
		unsigned from = st->nruns, counted = 0;

		for (int k = 0; k < 2 && !stop; k++) {
			struct plan_step *ps = plan_next(st->pl);
			struct plan_outcome out = { .ci = NAN, .tick_sd = NAN };
			struct ab_run *r;
			unsigned sig0;
			char err[ERR_MAX];
			int ret, s;

			if (!ps)
				break;
			s = ps->side;
			ab_take_signals(c);
			if (c->signals) {
				st->interrupted = true;
				stop = true;
				break;
			}
			if (plan_apply(st->pl, ps, err)) {
				snprintf(st->failure, sizeof(st->failure), "%s: %.*s", side_names[s],
					 ERR_MAX - 4, err);
				st->failed = true;
				stop = true;
				break;
			}
			sig0 = c->signals;
			st->o.so.p = ps->p;
			ret = run_iterate(c, &sum);
			r = &st->run[st->nruns++];
			memset(r, 0, sizeof(*r));
			r->pair = i + 1;
			r->side = s;
			r->failed = ret != 0;
			if (r->failed)
				snprintf(r->failure, sizeof(r->failure), "%s", sum.failure);
			r->cut = !r->failed && c->signals != sig0;
			ab_figures(&st->o, &sum, r->fig);
			if (c->signals != sig0)
				st->interrupted = true;
			if (!r->cut && sum.iterations && st->ab_id && !st->store_failed &&
			    run_store(c, &sum, "ab", st->ab_id, s ? "b" : "a", &r->id, err)) {
				fprintf(stderr, "tunetop ab: a run was not stored: %s; the rest will not be either\n",
					err);
				st->store_failed = true;
			}
			run_summary_free(&sum);
			out.failed = r->failed;
			out.cut = r->cut;
			out.run_id = r->id;
			for (int m = 0; m < PLAN_FIGS; m++)
				out.fig[m] = m < AB_M_COUNT ? r->fig[m] : NAN;
			plan_step_done(st->pl, &out);
			if (r->failed) {
				st->failed = true;
				snprintf(st->failure, sizeof(st->failure), "pair %u, %s: %s", i + 1,
					 side_names[s], r->failure);
			}
			if (r->failed || r->cut)
				stop = true;
			else
				counted++;
		}
		if (st->nruns > from)
			ab_progress(st, prog, i + 1, first, from, st->nruns);
		if (counted == 2)
			st->pairs_done++;
	}
}

int ab_main(int argc, char **argv)
{
	static struct ab_state st;
	static char *rargv[AB_MAX_ARGS];
	struct catalog *cat = NULL;
	struct run_ctx c;
	char err[ERR_MAX] = "", target[160];
	bool json;
	FILE *prog;
	int rargc = 0, ret;

	memset(&st, 0, sizeof(st));
	ret = ab_args(argc, argv, &st, &rargc, rargv, err);
	if (ret == 1)
		return 0;
	if (ret) {
		fprintf(stderr, "tunetop ab: %s\n", err);
		return 2;
	}
	ret = options_parse(rargc, rargv, &st.o, err);
	if (ret == 1)
		return 0;
	if (!ret)
		ret = ab_check_run_opts(&st.o, err);
	if (ret) {
		fprintf(stderr, "tunetop ab: %s\n", err);
		return 2;
	}
	if (!st.seed_given)
		st.seed = plan_ab_seed();
	ret = catalog_load(&cat, catalog_default_path(), err);
	if (ret) {
		fprintf(stderr, "tunetop ab: %s\n", err);
		return 1;
	}
	/* Every name and value is checked before a lab is made or a knob read. */
	for (int s = 0; s < 2 && !ret; s++)
		ret = ab_parse_side(cat, &st.o, s, &st.side[s], err);
	if (!ret)
		ret = ab_side_tests(&st, rargc, rargv, err);
	if (!ret)
		ret = ab_union(&st, err);
	if (!ret)
		ret = ab_plan(&st, cat, err);
	if (ret) {
		fprintf(stderr, "tunetop ab: %s\n", err);
		plan_destroy(st.pl);
		catalog_free(cat);
		return 2;
	}
	json = st.o.fmt == OUT_JSON;
	prog = json ? stderr : stdout;
	st.utf8 = ab_report_utf8();
	if (run_ctx_open(&c, &st.o, "tunetop ab")) {
		plan_destroy(st.pl);
		catalog_free(cat);
		return 1;
	}
	if (run_txn_begin(&c, "tunetop ab", &st.txn)) {
		plan_destroy(st.pl);
		run_ctx_close(&c);
		catalog_free(cat);
		return 1;
	}
	ret = ab_originals(&st, err);
	if (ret) {
		fprintf(stderr, "tunetop ab: %s\n", err);
		knobs_txn_free(st.txn);
		plan_destroy(st.pl);
		run_ctx_close(&c);
		catalog_free(cat);
		return ret;
	}
	ab_target_text(&st.o, target, sizeof(target));
	fprintf(prog, "tunetop ab: %s in %s, %u pairs of %g s runs in random order (seed %llu)\n",
		test_type_name(st.o.so.p.type), target, st.pairs, st.o.so.p.duration,
		(unsigned long long)st.seed);
	for (int s = 0; s < 2; s++)
		fprintf(prog, "%s: %s\n", side_names[s],
			st.side[s].n || st.side[s].test[0] ? st.side[s].spec : "(the knobs as they are)");
	if (ab_min_p(st.pairs) >= st.alpha) {
		unsigned enough = st.pairs;

		while (ab_min_p(enough) >= st.alpha)
			enough++;
		fprintf(prog, "note: with %u pairs the smallest p Mann-Whitney can give is %.2g, not below alpha %g: every verdict will be ~ (use -n %u or more)\n",
			st.pairs, ab_min_p(st.pairs), st.alpha, enough);
	}
	fflush(prog);
	ab_store_sweep(&st);

	ab_loop(&st, &c, prog);
	st.o.so.p = st.side[0].p;

	/* Put back before reporting, whatever happened. */
	ab_take_signals(&c);
	st.restore_failed = ab_restore(&st, prog) != 0;
	knobs_txn_free(st.txn);
	st.txn = NULL;
	ab_compare_all(&st);
	ab_what_moved(&st);
	if (st.interrupted)
		fprintf(prog, "Interrupted: %u of %u pairs measured\n", st.pairs_done, st.pairs);
	if (st.failed)
		fprintf(stderr, "tunetop ab: %s\n", st.failure);
	if (json) {
		json_t *doc = ab_report_json(&st, target);

		if (!doc || json_dumpf(doc, stdout, JSON_INDENT(2)) || fputc('\n', stdout) == EOF) {
			fprintf(stderr, "tunetop ab: could not write the JSON document\n");
			st.failed = true;
		}
		json_decref(doc);
	} else {
		ab_report_print(&st, stdout);
		unsigned stored = 0;

		for (unsigned i = 0; i < st.nruns; i++)
			stored += st.run[i].id != 0;
		if (st.ab_id)
			printf("Stored as A/B %lld: %u runs with source \"ab\"\n",
			       (long long)st.ab_id, stored);
	}
	fflush(stdout);
	plan_destroy(st.pl);
	run_ctx_close(&c);
	catalog_free(cat);
	if (c.signals >= 2)
		return 130;
	return st.failed || st.restore_failed ? 1 : 0;
}
