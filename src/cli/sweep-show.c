// SPDX-License-Identifier: GPL-2.0-or-later
/* sweep-show.c - `tunetop sweep show ID`: a stored sweep's table, cliffs marked again. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "sweep-out.h"
#include "sweep-show.h"

#define WHO "tunetop sweep show"

/* Stored run r as point p of sw, the figures the live sweep would have. */
static void show_point(struct sweep *sw, const struct store_run *r, struct sweep_point *p)
{
	char why[ERR_MAX];
	double x;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", r->point[0] ? r->point : "?");
	p->ran = true;
	p->run_id = r->id;
	p->failed = r->failed;
	if (p->failed)
		snprintf(p->failure, sizeof(p->failure), "failed (stored run %" PRId64 ")", r->id);
	p->thr = r->throughput;
	p->ci = store_result_ci(r->result);
	p->tick_sd = isfinite(p->ci) ? NAN : store_series_sd(r->series, store_series_names[SS_RATE]);
	p->p50 = r->p50_us;
	p->p99 = r->p99_us;
	p->lcpu = r->lcpu;
	p->rcpu = r->rcpu;
	p->iterations = 1;
	p->drop_pct = p->noise = NAN;
	x = sweep_policy_point_x(p->name, NULL, 0, NULL);
	if (sw->kind != SW_KNOB && isfinite(x) && x >= 0)
		p->value = (uint64_t)x;
	/* The test: the first run's parameters. */
	if (sw->npt == 0 && (!r->params || params_from_json(r->params, &sw->o.so.p, why))) {
		params_default(&sw->o.so.p);
		if (test_type_parse(r->test) >= 0)
			sw->o.so.p.type = (enum test_type)test_type_parse(r->test);
	}
	sw->o.iterating |= isfinite(p->ci);
	/* The level the runs iterated to titles the interval column (+-99%ci). */
	if (isfinite(p->ci) && !(sw->o.it.level > 0)) {
		struct result_doc_conf c;

		if (result_doc_confidence(r->result, &c) && c.level > 0)
			sw->o.it.level = c.level;
	}
	sw->o.local_cpu |= isfinite(p->lcpu);
	sw->o.remote_cpu |= isfinite(p->rcpu);
	if (!sw->units[0])
		snprintf(sw->units, sizeof(sw->units), "%s", r->units);
	if (!sw->target[0])
		snprintf(sw->target, sizeof(sw->target), "%s", r->target);
}

/* Load sweep id's runs into sw; 0, or -errno with err. */
static int show_load(struct sweep *sw, struct store *st, int64_t id, char *err)
{
	struct store_filter f = { .sweep_id = id };
	struct store_run *list = NULL;
	char kind[16];
	json_t *spec = NULL;
	bool have_cols;
	unsigned n = 0;
	int ret;

	ret = store_get_sweep(st, id, kind, sizeof(kind), &spec, err);
	if (ret)
		return ret;
	/* The columns it was shown with; an older sweep gets the default. */
	have_cols = !sweep_cols_from_spec(spec, &sw->cols);
	json_decref(spec);
	if (sweep_policy_kind_parse(kind, &sw->kind))
		return err_set(err, -EINVAL, "sweep %" PRId64 ": kind \"%s\" has no table; accepted: a size, burst, knob or send-size sweep, or an A/B",
			       id, kind);
	ret = store_list(st, &f, &list, &n, err);
	for (unsigned i = 0; i < n && !ret; i++) {
		struct store_run r;

		if (sw->npt == SWEEP_MAX_POINTS)
			break;
		store_run_init(&r);
		ret = store_get(st, list[i].id, &r, err);
		if (!ret) {
			if (!sw->npt && !have_cols && r.params &&
			    !params_from_json(r.params, &sw->o.so.p, err))
				sweep_cols_make(NULL, test_is_rr(sw->o.so.p.type),
						isfinite(r.lcpu), isfinite(r.rcpu), &sw->cols, err);
			show_point(sw, &r, &sw->pt[sw->npt]);
			sweep_out_point_cols(sw, &sw->pt[sw->npt++], r.result);
		}
		store_run_free(&r);
	}
	for (unsigned i = 0; i < n; i++)
		store_run_free(&list[i]);
	free(list);
	if (!ret && !sw->npt)
		ret = err_set(err, -ENOENT, "sweep %" PRId64 ": has no runs in %s", id,
			      store_path(st));
	sw->nrun = sw->npt;
	sw->sweep_id = id;
	return ret;
}

/*
 * A stored A/B (kind "ab", either front end's record, plan_ab_record_read):
 * its sides, pairs, seed and alpha, its runs in the order they ran, and
 * the rate judged again as tunetop ab judged it (plan_ab_judge with the
 * stored seed and alpha).  0, or -errno with err.
 */
static int show_ab(struct store *st, int64_t id, const json_t *spec, bool json, char *err)
{
	static struct plan_ab_record rec;
	static int side[PLAN_AB_MAX_RUNS];
	static double rate[PLAN_AB_MAX_RUNS];
	struct store_filter f = { .sweep_id = id };
	struct store_run *list = NULL;
	struct ab_result r;
	unsigned n = 0, na = 0, nb = 0;
	double alpha;
	int ret, judged;

	ret = plan_ab_record_read(spec, &rec, err);
	if (!ret)
		ret = store_list(st, &f, &list, &n, err);
	if (ret)
		return ret;
	alpha = isfinite(rec.alpha) ? rec.alpha : PLAN_AB_ALPHA;
	for (unsigned i = 0; i < n && i < PLAN_AB_MAX_RUNS; i++) {
		side[i] = !strcmp(list[i].point, "b");
		rate[i] = list[i].failed ? NAN : list[i].throughput;
	}
	judged = plan_ab_judge(side, rate, n, alpha, rec.seed, PLAN_AB_RATE, &r, &na, &nb);
	if (json) {
		json_t *doc = plan_ab_record_json(&rec), *runs = json_array();

		for (unsigned i = 0; doc && runs && i < n; i++)
			json_array_append_new(runs, json_pack("{s:I, s:s, s:b, s:o}", "id",
							      (json_int_t)list[i].id, "point",
							      list[i].point, "failed", list[i].failed,
							      "rate", isfinite(rate[i]) ?
							      json_real(rate[i]) : json_null()));
		if (doc && runs) {
			json_object_set_new(doc, "id", json_integer((json_int_t)id));
			json_object_set_new(doc, "kind", json_string("ab"));
			json_object_set_new(doc, "alpha", json_real(alpha));
			json_object_set_new(doc, "runs", runs);
			runs = NULL;
			if (!judged)
				json_object_set_new(doc, "rate", json_pack("{s:s, s:b, s:f, s:f, s:i, s:i}",
									   "verdict", r.verdict, "significant", r.significant,
									   "median_a", r.median_a, "median_b", r.median_b,
									   "na", (int)na, "nb", (int)nb));
		}
		json_decref(runs);
		ret = !doc || json_dumpf(doc, stdout, JSON_INDENT(2)) || fputc('\n', stdout) == EOF ?
		      err_set(err, -EIO, "could not write the JSON document") : 0;
		json_decref(doc);
	} else {
		printf("A/B %" PRId64 " (%s): %u pairs in random order (seed %llu), alpha %g%s\n", id,
		       rec.front, rec.pairs, (unsigned long long)rec.seed, alpha,
		       isfinite(rec.alpha) ? "" : " (the default: an older record without it)");
		for (int s = 0; s < 2; s++) {
			printf("%c:", 'A' + s);
			for (unsigned i = 0; i < rec.n[s]; i++)
				printf(" %s", rec.item[s][i]);
			printf("%s\n", rec.n[s] ? "" : " (the knobs as they were)");
		}
		printf("Runs:");
		for (unsigned i = 0; i < n; i++)
			printf(" %" PRId64 "%s%s", list[i].id, list[i].point, list[i].failed ? "(failed)" : "");
		printf("\n");
		if (judged)
			printf("B vs A rate: too few runs to compare (%u+%u)\n", na, nb);
		else
			printf("B vs A rate: %s (%s, n=%u+%u, medians %.6g / %.6g %s)\n", r.verdict,
			       r.significant ? "real" : r.why, na, nb, r.median_a, r.median_b,
			       n ? list[0].units : "");
	}
	for (unsigned i = 0; i < n; i++)
		store_run_free(&list[i]);
	free(list);
	return ret;
}

/*
 * What kind sweep id is: 1 (and shown) for an A/B, 0 for a sweep with a
 * table, -errno with err.
 */
static int show_if_ab(struct store *st, int64_t id, bool json, char *err)
{
	char kind[16];
	json_t *spec = NULL;
	int ret = store_get_sweep(st, id, kind, sizeof(kind), &spec, err);

	if (!ret && !strcmp(kind, "ab"))
		ret = show_ab(st, id, spec, json, err) ? -EINVAL : 1;
	json_decref(spec);
	return ret;
}

int sweep_show_main(int argc, char **argv)
{
	static struct sweep sw;
	const char *db = NULL, *idtext = NULL;
	struct store *st = NULL;
	char err[ERR_MAX] = "";
	bool json = false;
	int64_t id = 0;
	int ret;

	memset(&sw, 0, sizeof(sw));
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--db") && i + 1 < argc) {
			db = argv[++i];
		} else if (!strncmp(argv[i], "--db=", 5)) {
			db = argv[i] + 5;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: tunetop sweep show ID [--json] [--db PATH]\n"
			       "The table of stored sweep ID (tunetop runs shows the ids; last is\n"
			       "the newest, last-N the one N before it), its\n"
			       "cliffs marked by the rule of docs/sweeps.md.  An A/B (tunetop ab's\n"
			       "or the dashboard's): its sides, seed, alpha, runs and rate verdict.\n");
			return 0;
		} else if (!idtext && argv[i][0] != '-') {
			idtext = argv[i];
		} else {
			fprintf(stderr, WHO ": argument \"%.64s\": not known; accepted: ID, --json, --db PATH\n",
				argv[i]);
			return 2;
		}
	}
	if (!idtext) {
		fprintf(stderr, WHO ": no sweep id; accepted: a number from tunetop runs, last or last-N\n");
		return 2;
	}
	ret = store_open(&st, db, err);
	if (!ret && (ret = store_id_named(st, idtext, true, &id, err)) == -EINVAL) {
		fprintf(stderr, WHO ": %s\n", err);
		store_close(st);
		return 2;
	}
	if (!ret && (ret = show_if_ab(st, id, json, err)) == 1) {
		store_close(st);
		return 0;
	}
	if (!ret)
		ret = show_load(&sw, st, id, err);
	store_close(st);
	if (ret) {
		fprintf(stderr, WHO ": %s\n", err);
		return 1;
	}
	sweep_out_mark_cliffs(&sw);
	sweep_out_cliffs_moved(&sw, db, false);
	ret = json ? sweep_out_json(&sw) ? 1 : 0 : 0;
	if (!json)
		sweep_out_table(&sw);
	sweep_out_free(&sw);
	return ret;
}
