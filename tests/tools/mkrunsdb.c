// SPDX-License-Identifier: GPL-2.0-or-later
/* mkrunsdb.c - builds a run history database for tests from a JSON description. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "store/store.h"
#include "core/util.h"

/*
 * Usage: mkrunsdb DB FILE.json
 *
 * FILE holds {"sweeps": [{"kind": "size", "spec": {...}}, ...],
 * "runs": [{"result": <a `tunetop run --json` document>, "series": {...},
 * "time": 1700000000, "target": "...", "source": "run", "sweep": 1,
 * "point": "size=4345", "failed": false, "baseline": false}, ...]}.
 * Only "result" is required; "sweep" is a 1-based index into "sweeps".
 * The run's figures come from the document's "result" object, as
 * `tunetop run` stores them.  The runs go in through store.h, so the
 * database is whatever the store makes of them, schema and all.  Prints
 * "sweep ID" and "run ID" lines in the order of the file.
 */

/* A figure of the document's "result" object, NAN when it has none. */
static double figure(const json_t *doc, const char *name)
{
	const json_t *v = json_object_get(json_object_get(doc, "result"), name);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A string member of o, or dflt. */
static const char *str_or(const json_t *o, const char *name, const char *dflt)
{
	const char *s = json_string_value(json_object_get(o, name));

	return s ? s : dflt;
}

/* Fill r from one entry of "runs"; sweep ids are those store_add_sweep gave. */
static int run_from_json(const json_t *e, const int64_t *sweeps, size_t nsweeps,
			 struct store_run *r, char *err)
{
	const json_t *doc = json_object_get(e, "result");
	const json_t *t = json_object_get(e, "time");
	json_int_t sw = json_integer_value(json_object_get(e, "sweep"));

	if (!json_is_object(doc) || !json_is_object(json_object_get(doc, "params")))
		return err_set(err, -EINVAL, "run without a result document with params");
	if (sw < 0 || (size_t)sw > nsweeps)
		return err_set(err, -EINVAL, "sweep %lld: no such entry in sweeps", (long long)sw);
	r->time = json_is_number(t) ? json_number_value(t) : wall_time();
	snprintf(r->test, sizeof(r->test), "%s", str_or(doc, "test", ""));
	snprintf(r->target, sizeof(r->target), "%s", str_or(e, "target", str_or(doc, "target", "")));
	snprintf(r->source, sizeof(r->source), "%s", str_or(e, "source", "run"));
	r->sweep_id = sw ? sweeps[sw - 1] : 0;
	snprintf(r->point, sizeof(r->point), "%s", str_or(e, "point", ""));
	r->failed = json_is_true(json_object_get(e, "failed")) ||
		    json_is_true(json_object_get(doc, "failed"));
	r->throughput = figure(doc, "throughput");
	snprintf(r->units, sizeof(r->units), "%s", str_or(json_object_get(doc, "result"),
							   "throughput_units", ""));
	r->p50_us = figure(doc, "p50_latency");
	r->p99_us = figure(doc, "p99_latency");
	r->lcpu = figure(doc, "local_cpu_util");
	r->rcpu = figure(doc, "remote_cpu_util");
	r->lsd = figure(doc, "local_sd");
	r->rsd = figure(doc, "remote_sd");
	r->params = json_incref(json_object_get(doc, "params"));
	r->result = json_incref((json_t *)doc);
	r->series = json_incref(json_object_get(e, "series"));
	return 0;
}

int main(int argc, char **argv)
{
	const json_t *sweeps, *runs, *e;
	struct store *s = NULL;
	char err[ERR_MAX] = "";
	json_error_t jerr;
	int64_t *ids = NULL;
	json_t *in;
	size_t i;
	int rc = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: mkrunsdb DB FILE.json\n");
		return 2;
	}
	in = json_load_file(argv[2], 0, &jerr);
	if (!in) {
		fprintf(stderr, "mkrunsdb: %s: %s (line %d)\n", argv[2], jerr.text, jerr.line);
		return 2;
	}
	sweeps = json_object_get(in, "sweeps");
	runs = json_object_get(in, "runs");
	ids = calloc(json_array_size(sweeps) + 1, sizeof(*ids));
	if (!ids)
		rc = err_set(err, -ENOMEM, "out of memory");
	if (!rc)
		rc = store_open(&s, argv[1], err);
	json_array_foreach(sweeps, i, e) {
		if (rc)
			break;
		rc = store_add_sweep(s, str_or(e, "kind", "size"), json_object_get(e, "spec"),
				     &ids[i], err);
		if (!rc)
			printf("sweep %" PRId64 "\n", ids[i]);
	}
	json_array_foreach(runs, i, e) {
		struct store_run r;

		if (rc)
			break;
		store_run_init(&r);
		rc = run_from_json(e, ids, json_array_size(sweeps), &r, err);
		if (!rc)
			rc = store_add(s, &r, err);
		if (!rc && json_is_true(json_object_get(e, "baseline")))
			rc = store_set_baseline(s, r.id, err);
		if (!rc)
			printf("run %" PRId64 "\n", r.id);
		store_run_free(&r);
	}
	if (rc)
		fprintf(stderr, "mkrunsdb: %s\n", err);
	if (s)
		store_close(s);
	free(ids);
	json_decref(in);
	return rc ? 1 : 0;
}
