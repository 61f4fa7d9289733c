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
		return err_set(err, -EINVAL, "sweep %" PRId64 ": kind \"%s\" has no table (an A/B comparison?); accepted: a size, burst, knob or send-size sweep",
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
			       "cliffs marked by the rule of docs/sweeps.md.\n");
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
