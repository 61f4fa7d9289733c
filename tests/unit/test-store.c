// SPDX-License-Identifier: GPL-2.0-or-later
/* test-store.c - run history: round trip, migration, concurrency, failures. */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "store/store.h"
#include "core/util.h"
#include "tap.h"

/*
 * Schema version 1 exactly as src/store/store-schema.c holds it: the test keeps its own
 * frozen copy, as old files on users' disks have it, and checks that a
 * migrated v1 file ends up with the same schema as a new one (so the two
 * copies cannot drift apart unnoticed).
 */
static const char schema_v1[] =
	"CREATE TABLE runs (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	time REAL NOT NULL,\n"
	"	test TEXT NOT NULL,\n"
	"	target TEXT NOT NULL,\n"
	"	source TEXT NOT NULL,\n"
	"	failed INTEGER NOT NULL,\n"
	"	throughput REAL,\n"
	"	units TEXT NOT NULL,\n"
	"	p50_us REAL,\n"
	"	p99_us REAL,\n"
	"	lcpu REAL,\n"
	"	rcpu REAL,\n"
	"	lsd REAL,\n"
	"	rsd REAL,\n"
	"	params TEXT NOT NULL,\n"
	"	result TEXT NOT NULL\n"
	");\n"
	"CREATE TABLE series (\n"
	"	run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"	data TEXT NOT NULL\n"
	");\n";

static char tmpdir[256];

/* A path in the test's directory. */
static const char *tpath(const char *name)
{
	static char buf[4][512];
	static unsigned i;
	char *p = buf[i++ % 4];

	snprintf(p, sizeof(buf[0]), "%s/%s", tmpdir, name);
	return p;
}

/* nftw callback removing one entry. */
static int rm_cb(const char *path, const struct stat *st, int flag,
		 struct FTW *ftw)
{
	return remove(path);
}

/* TCP_RR parameters as params_to_json() writes them. */
static json_t *rr_params(unsigned req, double duration)
{
	return json_pack(
		"{s:s, s:i, s:f, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:b, "
		"s:i, s:i, s:i, s:i, s:s}",
		"test", "TCP_RR", "family", 4, "duration", duration, "req_size",
		req, "resp_size", 1, "burst", 0, "send_size", 0, "recv_size", 0,
		"lsndbuf", -1, "lrcvbuf", -1, "rsndbuf", -1, "rrcvbuf", -1,
		"nodelay", 0, "flows", 1, "lcpu", -1, "rcpu", -1, "sample_ms",
		100, "capture", "auto");
}

/* A run to store: TCP_RR with request size req, at time t. */
static void make_run(struct store_run *r, double t, const char *test,
		     unsigned req)
{
	store_run_init(r);
	r->time = t;
	snprintf(r->test, sizeof(r->test), "%s", test);
	snprintf(r->target, sizeof(r->target),
		 "lab: tunetop-1 (veth, MTU 1500)");
	snprintf(r->target_short, sizeof(r->target_short), "lab:tunetop-1");
	snprintf(r->source, sizeof(r->source), "run");
	snprintf(r->units, sizeof(r->units), "Trans/s");
	r->throughput = 1000 + t;
	r->params = rr_params(req, 10);
	/* The shape of `tunetop run --json`: knob snapshots, histograms. */
	r->result = json_pack("{s:{s:{s:i}, s:n}, s:{s:{s:[i,i,i]}}}", "knobs",
			      "local", "rx-usecs", 3, "remote", "local", "hist",
			      "counts", 1, 5, 2);
}

/* One integer from SQL on a connection of the test's own. */
static long long sql_int(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long long v = -1;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) ==
		    SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return v;
}

/* One text from SQL (a new string, "" when none). */
static char *sql_text(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	char *v = NULL;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) ==
		    SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_text(st, 0))
			v = strdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return v ? v : strdup("");
}

/* Run SQL on a connection of the test's own; the sqlite3 result code. */
static int sql_exec(const char *path, const char *sql)
{
	sqlite3 *db;
	int rc;

	rc = sqlite3_open_v2(path, &db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
	return rc;
}

/* Whole-file contents (a new buffer) and its size; NULL when unreadable. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(1 << 20);
	*len = buf ? fread(buf, 1, 1 << 20, f) : 0;
	fclose(f);
	return buf;
}

static void default_path_follows_env(void)
{
	char buf[512], want[512];
	struct stat st;

	unsetenv("TUNETOP_DB");
	setenv("XDG_DATA_HOME", tpath("xdg/a/b"), 1);
	snprintf(want, sizeof(want), "%s/tunetop/runs.db", tpath("xdg/a/b"));
	ok(store_default_path(buf, sizeof(buf)) && !strcmp(buf, want),
	   "default_path_is_under_xdg_data_home (%s)", buf);
	ok(stat(tpath("xdg/a/b/tunetop"), &st) == 0 && S_ISDIR(st.st_mode) &&
		   (st.st_mode & 0777) == 0700,
	   "default_path_makes_its_directory_0700");
	unsetenv("XDG_DATA_HOME");
	setenv("HOME", tpath("home"), 1);
	snprintf(want, sizeof(want), "%s/.local/share/tunetop/runs.db",
		 tpath("home"));
	ok(store_default_path(buf, sizeof(buf)) && !strcmp(buf, want),
	   "default_path_falls_back_to_home (%s)", buf);
	setenv("TUNETOP_DB", tpath("env.db"), 1);
	ok(store_default_path(buf, sizeof(buf)) &&
		   !strcmp(buf, tpath("env.db")),
	   "default_path_is_tunetop_db_when_set");
	unsetenv("TUNETOP_DB");
	ok(store_default_path(buf, 8) == NULL && errno == ENAMETOOLONG,
	   "default_path_too_long_is_null");
}

static void params_key_drops_volatile_members(void)
{
	json_t *a = rr_params(1, 10), *b = rr_params(1, 60),
	       *c = rr_params(64, 10);
	char *ka = store_params_key("TCP_RR", a), *kb, *kc;

	json_object_set_new(b, "lcpu", json_integer(3));
	json_object_set_new(b, "capture", json_string("on"));
	json_object_set_new(b, "sample_ms", json_integer(10));
	kb = store_params_key("TCP_RR", b);
	kc = store_params_key("TCP_RR", c);
	ok(ka && !strncmp(ka, "TCP_RR {", 8) && !strstr(ka, "duration") &&
		   !strstr(ka, "sample_ms") && !strstr(ka, "capture") &&
		   !strstr(ka, "lcpu") && !strstr(ka, "rcpu"),
	   "params_key_is_test_and_params_without_volatile (%s)",
	   ka ? ka : "NULL");
	ok(ka && strstr(ka, "\"burst\":0,\"family\":4,\"flows\":1"),
	   "params_key_sorts_keys_compactly");
	ok(ka && kb && !strcmp(ka, kb),
	   "params_key_ignores_duration_cpu_sample_capture");
	ok(ka && kc && strcmp(ka, kc), "params_key_differs_with_request_size");
	ok(json_object_get(a, "duration") && json_object_get(a, "lcpu") &&
		   json_object_size(a) == 18,
	   "params_key_leaves_params_alone");
	free(ka);
	free(kb);
	free(kc);
	json_decref(a);
	json_decref(b);
	json_decref(c);
}

static void run_round_trips(void)
{
	struct store *s;
	struct store_run r, g;
	char err[ERR_MAX] = "", q[128];
	int rc;

	rc = store_open(&s, tpath("rt.db"), err);
	if (!ok(rc == 0, "open_new_database (%s)", err))
		return;
	ok(!strcmp(store_path(s), tpath("rt.db")),
	   "store_path_is_the_path_opened");
	ok(sql_int(tpath("rt.db"), "PRAGMA user_version") ==
		   STORE_SCHEMA_VERSION,
	   "new_database_has_current_version");
	{
		char *mode = sql_text(tpath("rt.db"), "PRAGMA journal_mode");

		ok(!strcmp(mode, "wal"), "database_is_in_wal_mode (%s)", mode);
		free(mode);
	}
	make_run(&r, 1700000000.25, "TCP_RR", 1);
	snprintf(r.source, sizeof(r.source), "dashboard");
	snprintf(r.point, sizeof(r.point), "rx-usecs=15");
	r.failed = true;
	r.p50_us = 21.5;
	r.p99_us = NAN;
	r.lcpu = 3.5;
	r.rcpu = NAN;
	r.lsd = 12.25;
	r.rsd = NAN;
	r.series = json_pack("{s:[f,f], s:[i,i], s:[f,f]}", "t", 0.0, 0.1,
			     "rate", 10, 20, "p50_us", 20.5, 22.5);
	r.limits = json_pack("[{s:s, s:i, s:f, s:s}]", "rule", "latency", "tier", 1,
			     "strength", 1.0, "evidence",
			     "latency bound: 1 transaction in flight, RTT 14 us");
	rc = store_add(s, &r, err);
	ok(rc == 0 && r.id > 0, "add_sets_id (%lld, %s)", (long long)r.id, err);
	rc = store_get(s, r.id, &g, err);
	if (ok(rc == 0, "get_finds_added_run (%s)", err)) {
		ok(g.id == r.id && g.time == r.time &&
			   !strcmp(g.test, "TCP_RR") &&
			   !strcmp(g.target, r.target) &&
			   !strcmp(g.target_short, r.target_short) &&
			   !strcmp(g.source, "dashboard") &&
			   !strcmp(g.point, "rx-usecs=15") &&
			   !strcmp(g.units, "Trans/s") && g.sweep_id == 0 &&
			   !g.baseline && g.failed,
		   "get_returns_fields_as_added");
		ok(g.throughput == r.throughput && g.p50_us == 21.5 &&
			   g.lcpu == 3.5 && g.lsd == 12.25,
		   "get_returns_figures");
		ok(isnan(g.p99_us) && isnan(g.rcpu) && isnan(g.rsd),
		   "nan_figures_come_back_nan");
		ok(json_equal(g.params, r.params), "params_json_round_trips");
		ok(json_equal(g.result, r.result), "result_json_round_trips");
		ok(json_equal(g.series, r.series), "series_json_round_trips");
		ok(json_equal(g.limits, r.limits), "limits_json_round_trips");
		store_run_free(&g);
	}
	snprintf(q, sizeof(q),
		 "SELECT count(*) FROM runs WHERE id = %lld AND p99_us IS NULL "
		 "AND rcpu IS NULL AND rsd IS NULL AND lcpu = 3.5",
		 (long long)r.id);
	ok(sql_int(tpath("rt.db"), q) == 1, "nan_is_stored_as_null");
	store_run_free(&r);

	make_run(&r, 1700000001, "TCP_RR", 1);
	r.result = (json_decref(r.result), NULL);
	rc = store_add(s, &r, err);
	ok(rc == -EINVAL && r.id == 0, "add_without_result_is_einval (%s)",
	   err);
	store_run_free(&r);

	make_run(&r, 1700000002, "TCP_RR", 1);
	ok(store_add(s, &r, err) == 0 && store_get(s, r.id, &g, err) == 0 &&
		   g.series == NULL,
	   "run_without_series_has_none");
	store_run_free(&g);
	store_run_free(&r);

	rc = store_get(s, 999, &g, err);
	ok(rc == -ENOENT && strstr(err, "run 999: no such run in ") &&
		   strstr(err, "rt.db"),
	   "get_missing_run_is_enoent (%s)", err);
	store_close(s);
}

static void list_orders_filters_limits(void)
{
	static const struct {
		double t;
		const char *test;
		int sweep;
	} add[] = {
		{300, "TCP_RR", 0}, {100, "TCP_STREAM", 0}, {200, "TCP_RR", 1},
		{500, "TCP_RR", 1}, {400, "UDP_RR", 0},
	};
	struct store_filter f = {0};
	struct store_run r, *l = NULL;
	struct store *s;
	char err[ERR_MAX] = "";
	int64_t sweep;
	json_t *spec;
	unsigned n, i;
	bool fine;
	int rc;

	if (!ok(store_open(&s, tpath("list.db"), err) == 0, "open_list_db (%s)",
		err))
		return;
	spec = json_pack("{s:[i,i]}", "sizes", 1, 2);
	ok(store_add_sweep(s, "size", spec, &sweep, err) == 0 && sweep > 0,
	   "add_sweep (%s)", err);
	json_decref(spec);
	for (i = 0; i < sizeof(add) / sizeof(add[0]); i++) {
		make_run(&r, add[i].t, add[i].test, 1);
		r.sweep_id = add[i].sweep ? sweep : 0;
		r.series = json_pack("{s:[i]}", "t", 0);
		if (store_add(s, &r, err))
			ok(0, "add_list_run (%s)", err);
		store_run_free(&r);
	}
	rc = store_list(s, NULL, &l, &n, err);
	ok(rc == 0 && n == 5, "list_all (%u)", n);
	fine = n == 5;
	for (i = 0; fine && i < n; i++)
		fine = (i == 0 || l[i - 1].time < l[i].time) && l[i].params &&
		       !l[i].result && !l[i].series;
	ok(fine && l[0].time == 100 && l[4].time == 500,
	   "list_is_oldest_first_with_params_without_result_or_series");
	for (i = 0; i < n; i++)
		store_run_free(&l[i]);
	free(l);

	f.test = "TCP_RR";
	rc = store_list(s, &f, &l, &n, err);
	ok(rc == 0 && n == 3 && !strcmp(l[0].test, "TCP_RR") &&
		   !strcmp(l[2].test, "TCP_RR") && l[0].time == 200,
	   "list_filters_by_test (%u)", n);
	for (i = 0; i < n; i++)
		store_run_free(&l[i]);
	free(l);

	f.test = NULL;
	f.sweep_id = sweep;
	rc = store_list(s, &f, &l, &n, err);
	ok(rc == 0 && n == 2 && l[0].sweep_id == sweep && l[0].time == 200 &&
		   l[1].time == 500,
	   "list_filters_by_sweep (%u)", n);
	for (i = 0; i < n; i++)
		store_run_free(&l[i]);
	free(l);

	f.sweep_id = 0;
	f.limit = 2;
	rc = store_list(s, &f, &l, &n, err);
	ok(rc == 0 && n == 2 && l[0].time == 400 && l[1].time == 500,
	   "list_limit_keeps_the_newest_oldest_first (%u)", n);
	for (i = 0; i < n; i++)
		store_run_free(&l[i]);
	free(l);

	f.test = "TCP_MAERTS";
	f.limit = 0;
	ok(store_list(s, &f, &l, &n, err) == 0 && n == 0 && l == NULL,
	   "list_of_nothing_is_empty");

	make_run(&r, 600, "TCP_RR", 1);
	r.sweep_id = sweep + 41;
	ok(store_add(s, &r, err) == -ENOENT && strstr(err, "no such sweep"),
	   "add_with_unknown_sweep_is_enoent (%s)", err);
	store_run_free(&r);

	/* Remove the run at t=200 and check its series went with it. */
	f.test = NULL;
	f.sweep_id = sweep;
	if (store_list(s, &f, &l, &n, err) == 0 && n == 2) {
		int64_t id = l[0].id;
		char q[96];
		struct store_run g;

		ok(store_rm(s, id, err) == 0, "rm_removes_run (%s)", err);
		ok(store_get(s, id, &g, err) == -ENOENT, "removed_run_is_gone");
		snprintf(q, sizeof(q),
			 "SELECT count(*) FROM series WHERE run_id = %lld",
			 (long long)id);
		ok(sql_int(tpath("list.db"), q) == 0 &&
			   sql_int(tpath("list.db"),
				   "SELECT count(*) FROM series") == 4,
		   "rm_removes_its_series_only");
		ok(store_rm(s, id, err) == -ENOENT &&
			   strstr(err, "no such run"),
		   "rm_twice_is_enoent (%s)", err);
		for (i = 0; i < n; i++)
			store_run_free(&l[i]);
		free(l);
	} else {
		ok(0, "list_sweep_again (%s)", err);
	}
	store_close(s);
}

static void baselines_per_params(void)
{
	struct store_run a, b, c, g;
	struct store *s;
	char err[ERR_MAX] = "";
	int64_t base = -1;

	if (!ok(store_open(&s, tpath("base.db"), err) == 0, "open_base_db (%s)",
		err))
		return;
	make_run(&a, 1, "TCP_RR", 1);
	make_run(&b, 2, "TCP_RR", 1);
	json_object_set_new(b.params, "duration",
			    json_real(60)); /* -l differs */
	make_run(&c, 3, "TCP_RR", 64);	    /* -r differs */
	if (store_add(s, &a, err) || store_add(s, &b, err) ||
	    store_add(s, &c, err)) {
		ok(0, "add_baseline_runs (%s)", err);
		goto out;
	}
	ok(store_baseline_of(s, b.id, &base, err) == 0 && base == 0,
	   "no_baseline_at_first");
	ok(store_set_baseline(s, a.id, err) == 0, "set_baseline (%s)", err);
	ok(store_baseline_of(s, b.id, &base, err) == 0 && base == a.id,
	   "same_params_other_duration_has_the_baseline");
	ok(store_baseline_of(s, c.id, &base, err) == 0 && base == 0,
	   "other_request_size_is_not_matched");
	ok(store_get(s, a.id, &g, err) == 0 && g.baseline,
	   "baseline_run_is_marked");
	store_run_free(&g);
	ok(store_set_baseline(s, b.id, err) == 0 &&
		   store_baseline_of(s, a.id, &base, err) == 0 && base == b.id,
	   "new_baseline_replaces_old");
	ok(store_get(s, a.id, &g, err) == 0 && !g.baseline,
	   "old_baseline_unmarked");
	store_run_free(&g);
	ok(sql_int(tpath("base.db"), "SELECT count(*) FROM baselines") == 1,
	   "one_baseline_per_params_key");
	ok(store_rm(s, b.id, err) == 0 &&
		   store_baseline_of(s, a.id, &base, err) == 0 && base == 0,
	   "rm_of_baseline_run_clears_it");
	ok(store_set_baseline(s, 12345, err) == -ENOENT &&
		   strstr(err, "no such run"),
	   "set_baseline_of_missing_run_is_enoent (%s)", err);
	ok(store_baseline_of(s, 12345, &base, err) == -ENOENT,
	   "baseline_of_missing_run_is_enoent");

	store_run_free(&g);
	make_run(&g, 4, "TCP_RR", 64);
	g.baseline = true;
	ok(store_add(s, &g, err) == 0 &&
		   store_baseline_of(s, c.id, &base, err) == 0 && base == g.id,
	   "add_with_baseline_marks_it");
	store_run_free(&g);
out:
	store_run_free(&a);
	store_run_free(&b);
	store_run_free(&c);
	store_close(s);
}

static void sweeps_round_trip(void)
{
	struct store *s;
	char err[ERR_MAX] = "", kind[16];
	json_t *spec, *got = NULL;
	int64_t id = 0;

	if (!ok(store_open(&s, tpath("sweep.db"), err) == 0,
		"open_sweep_db (%s)", err))
		return;
	spec = json_pack("{s:s, s:[i,i,i]}", "knob", "rx-usecs", "values", 0,
			 15, 100);
	ok(store_add_sweep(s, "knob", spec, &id, err) == 0 && id > 0,
	   "add_knob_sweep (%s)", err);
	ok(store_get_sweep(s, id, kind, sizeof(kind), &got, err) == 0 &&
		   !strcmp(kind, "knob") && json_equal(got, spec),
	   "get_sweep_returns_kind_and_spec");
	json_decref(got);
	got = NULL;
	json_object_set_new(spec, "mss", json_integer(1448));
	ok(store_set_sweep(s, id, spec, err) == 0 &&
		   store_get_sweep(s, id, kind, sizeof(kind), &got, err) == 0 &&
		   json_equal(got, spec),
	   "set_sweep_replaces_its_spec (%s)", err);
	json_decref(got);
	ok(store_set_sweep(s, id + 1, spec, err) == -ENOENT,
	   "set_missing_sweep_is_enoent (%s)", err);
	ok(store_get_sweep(s, id + 1, kind, sizeof(kind), &got, err) ==
			   -ENOENT &&
		   !got && strstr(err, "no such sweep"),
	   "get_missing_sweep_is_enoent (%s)", err);
	json_decref(spec);
	store_close(s);
}

static void migrates_from_v1(void)
{
	const char *p = tpath("v1.db");
	struct store *s;
	struct store_run g;
	char err[ERR_MAX] = "", sql[1024], *pj, *key, *got, *fresh, *migrated;
	json_t *params = rr_params(32, 10);
	int64_t base = -1;
	sqlite3 *watch;
	sqlite3_stmt *st;
	long long dv0 = -1, dv1 = -2;

	pj = json_dumps(params, JSON_COMPACT);
	key = store_params_key("TCP_RR", params);
	ok(sql_exec(p, schema_v1) == SQLITE_OK &&
		   sql_exec(p, "PRAGMA user_version = 1") == 0,
	   "build_v1_file");
	snprintf(
		sql, sizeof(sql),
		"INSERT INTO runs VALUES (7, 1600000000.5, 'TCP_RR', 'host', 'run', 0, 5000.5, "
		"'Trans/s', 30, NULL, 1.5, NULL, 2.5, NULL, '%s', '{\"ok\":true}');"
		"INSERT INTO series VALUES (7, '{\"t\":[0]}');",
		pj);
	ok(sql_exec(p, sql) == SQLITE_OK, "add_v1_row");

	ok(store_open(&s, p, err) == 0, "open_migrates_v1 (%s)", err);
	ok(sql_int(p, "PRAGMA user_version") == STORE_SCHEMA_VERSION,
	   "migrated_file_is_the_current_version");
	if (s && store_get(s, 7, &g, err) == 0) {
		ok(g.time == 1600000000.5 && g.throughput == 5000.5 &&
			   isnan(g.p99_us) && g.sweep_id == 0 &&
			   !strcmp(g.point, "") &&
			   json_equal(g.params, params) &&
			   json_is_true(json_object_get(g.result, "ok")) &&
			   json_object_get(g.series, "t"),
		   "old_row_readable_after_migration");
		store_run_free(&g);
	} else {
		ok(0, "old_row_readable_after_migration (%s)", err);
	}
	got = sql_text(p, "SELECT params_key FROM runs WHERE id = 7");
	ok(key && !strcmp(got, key), "migration_fills_params_key (%s)", got);
	free(got);
	ok(s && store_set_baseline(s, 7, err) == 0 &&
		   store_baseline_of(s, 7, &base, err) == 0 && base == 7,
	   "old_row_can_be_a_baseline");
	store_close(s);

	/* A second open commits nothing: a watcher's data_version stays. */
	if (sqlite3_open_v2(p, &watch, SQLITE_OPEN_READWRITE, NULL) ==
		    SQLITE_OK &&
	    sqlite3_prepare_v2(watch, "PRAGMA data_version", -1, &st, NULL) ==
		    SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			dv0 = sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
		ok(store_open(&s, p, err) == 0, "second_open (%s)", err);
		store_close(s);
		if (sqlite3_step(st) == SQLITE_ROW)
			dv1 = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(watch);
	ok(dv0 == dv1, "second_open_is_a_no_op (%lld %lld)", dv0, dv1);
	/* ...and the watcher does see a commit from another connection. */
	if (sqlite3_open_v2(p, &watch, SQLITE_OPEN_READWRITE, NULL) ==
		    SQLITE_OK &&
	    sqlite3_prepare_v2(watch, "PRAGMA data_version", -1, &st, NULL) ==
		    SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			dv0 = sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
		sql_exec(p, "UPDATE runs SET point = 'x' WHERE id = 7");
		if (sqlite3_step(st) == SQLITE_ROW)
			dv1 = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(watch);
	ok(dv0 != dv1, "data_version_sees_commits (%lld %lld)", dv0, dv1);

	/* The migrated schema is the schema of a new file. */
	if (store_open(&s, tpath("fresh.db"), err) == 0)
		store_close(s);
	fresh = sql_text(
		tpath("fresh.db"),
		"SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_schema ORDER BY name)");
	migrated = sql_text(
		p,
		"SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_schema ORDER BY name)");
	ok(*fresh && !strcmp(fresh, migrated),
	   "migrated_schema_equals_new_schema");
	free(fresh);
	free(migrated);
	free(pj);
	free(key);
	json_decref(params);
}

static void refuses_newer_version(void)
{
	const char *p = tpath("v99.db");
	struct store *s = (struct store *)1;
	char err[ERR_MAX] = "";
	int rc;

	sql_exec(
		p,
		"CREATE TABLE runs (id INTEGER PRIMARY KEY); PRAGMA user_version = 99");
	rc = store_open(&s, p, err);
	ok(rc == -ENOTSUP && s == NULL &&
		   strstr(err,
			  "v99.db: schema version 99 is newer than this tunetop's (4)"),
	   "newer_version_is_refused (%s)", err);
	ok(sql_int(p, "PRAGMA user_version") == 99,
	   "newer_file_keeps_its_version");
}

static void refuses_corrupt_file(void)
{
	const char *p = tpath("garbage.db");
	char err[ERR_MAX] = "", buf[4096], *after;
	struct store *s;
	size_t len = 0;
	unsigned x = 12345;
	FILE *f;
	int rc;

	for (size_t i = 0; i < sizeof(buf); i++) {
		x = x * 1103515245 + 12345;
		buf[i] = (char)(x >> 16);
	}
	f = fopen(p, "wb");
	fwrite(buf, 1, sizeof(buf), f);
	fclose(f);
	rc = store_open(&s, p, err);
	ok(rc == -EBADMSG &&
		   strstr(err,
			  "garbage.db: not a tunetop database (file is not a database)"),
	   "corrupt_file_is_refused (%d, %s)", rc, err);
	after = slurp(p, &len);
	ok(after && len == sizeof(buf) && !memcmp(after, buf, len),
	   "corrupt_file_is_unchanged");
	free(after);
	ok(access(tpath("garbage.db-wal"), F_OK) != 0,
	   "corrupt_file_gets_no_wal");
}

static void refuses_other_application(void)
{
	const char *p = tpath("other.db");
	char err[ERR_MAX] = "";
	struct store *s;

	sql_exec(
		p,
		"CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('x')");
	ok(store_open(&s, p, err) == -EBADMSG &&
		   strstr(err, "not a tunetop database"),
	   "other_application_file_is_refused (%s)", err);
	ok(sql_int(p, "SELECT count(*) FROM sqlite_schema") == 1 &&
		   sql_int(p, "PRAGMA user_version") == 0,
	   "other_application_file_is_untouched");
}

/* A child: open the store and add count runs, exit 0 when all went in. */
static void writer_child(const char *path, int who, int count)
{
	char err[ERR_MAX] = "";
	struct store_run r;
	struct store *s;
	int i, bad = 0;

	if (store_open(&s, path, err)) {
		fprintf(stderr, "child %d: %s\n", who, err);
		_exit(2);
	}
	for (i = 0; i < count; i++) {
		make_run(&r, 1000 + i, "TCP_RR", 1);
		snprintf(r.source, sizeof(r.source), "w%d", who);
		r.series = json_pack("{s:[i,i]}", "rate", i, who);
		if (store_add(s, &r, err)) {
			fprintf(stderr, "child %d: %s\n", who, err);
			bad = 1;
		}
		store_run_free(&r);
	}
	store_close(s);
	_exit(bad);
}

static void two_writers_lose_nothing(void)
{
	const char *p = tpath("concurrent.db");
	char err[ERR_MAX] = "";
	struct store_run *l = NULL;
	struct store *s;
	unsigned n = 0, w0 = 0, i;
	pid_t pid[2];
	int status, good = 0;
	bool distinct = true;

	for (int c = 0; c < 2; c++) {
		pid[c] = fork();
		if (pid[c] == 0)
			writer_child(p, c, 200);
	}
	for (int c = 0; c < 2; c++)
		if (pid[c] > 0 && waitpid(pid[c], &status, 0) == pid[c] &&
		    WIFEXITED(status) && WEXITSTATUS(status) == 0)
			good++;
	ok(good == 2, "both_writers_succeed");
	if (store_open(&s, p, err) || store_list(s, NULL, &l, &n, err)) {
		ok(0, "list_concurrent (%s)", err);
		return;
	}
	ok(n == 400, "all_400_runs_present (%u)", n);
	for (i = 0; i < n; i++) {
		w0 += !strcmp(l[i].source, "w0");
		for (unsigned j = 0; j < i && distinct; j++)
			distinct = l[j].id != l[i].id;
	}
	ok(distinct && w0 == 200, "ids_distinct_and_200_from_each (%u)", w0);
	ok(sql_int(p, "SELECT count(*) FROM series") == 400,
	   "all_400_series_present");
	for (i = 0; i < n; i++)
		store_run_free(&l[i]);
	free(l);
	store_close(s);
}

/*
 * Many tunetops making one new file at the same moment (released together
 * by closing a pipe) all open it: the WAL switch and the first migration
 * race here.
 */
static void new_file_opened_by_many_at_once(void)
{
	enum { ROUNDS = 20, KIDS = 6 };
	char name[32], err[ERR_MAX];
	int good = 0, status, gate[2];
	pid_t pid[KIDS];

	for (int round = 0; round < ROUNDS; round++) {
		snprintf(name, sizeof(name), "race%d.db", round);
		if (pipe(gate))
			break;
		for (int c = 0; c < KIDS; c++) {
			pid[c] = fork();
			if (pid[c] == 0) {
				struct store *s;
				char b;

				close(gate[1]);
				if (read(gate[0], &b, 1) < 0)
					_exit(3);
				if (store_open(&s, tpath(name), err)) {
					fprintf(stderr, "opener %d: %s\n", c,
						err);
					_exit(1);
				}
				store_close(s);
				_exit(0);
			}
		}
		close(gate[0]);
		close(gate[1]);
		for (int c = 0; c < KIDS; c++)
			if (pid[c] > 0 &&
			    waitpid(pid[c], &status, 0) == pid[c] &&
			    WIFEXITED(status) && WEXITSTATUS(status) == 0)
				good++;
	}
	ok(good == ROUNDS * KIDS, "new_file_opened_by_many_at_once (%d of %d)",
	   good, ROUNDS * KIDS);
	ok(sql_int(tpath("race0.db"), "PRAGMA user_version") ==
		   STORE_SCHEMA_VERSION,
	   "raced_file_is_migrated_once_to_current");
}

static void locked_database_is_ebusy(void)
{
	const char *p = tpath("locked.db");
	char err[ERR_MAX] = "";
	struct store_run r;
	struct store *s;
	sqlite3 *holder;
	uint64_t t0, t1;
	int rc;

	setenv("TUNETOP_DB_TIMEOUT_MS", "200", 1);
	rc = store_open(&s, p, err);
	unsetenv("TUNETOP_DB_TIMEOUT_MS");
	if (!ok(rc == 0, "open_locked_db (%s)", err))
		return;
	if (sqlite3_open(p, &holder) != SQLITE_OK ||
	    sqlite3_exec(
		    holder,
		    "BEGIN EXCLUSIVE; INSERT INTO sweeps (kind, spec, time) "
		    "VALUES ('x', '{}', 0)",
		    NULL, NULL, NULL) != SQLITE_OK) {
		ok(0, "hold_lock");
		sqlite3_close(holder);
		store_close(s);
		return;
	}
	make_run(&r, 1, "TCP_RR", 1);
	t0 = now_ns();
	rc = store_add(s, &r, err);
	t1 = now_ns();
	ok(rc == -EBUSY &&
		   strstr(err, "locked.db: add run: database is locked") &&
		   strstr(err, "0.2 s"),
	   "add_while_locked_is_ebusy (%s)", err);
	ok(t1 - t0 >= 150000000ull, "add_waited_for_the_timeout (%.3f s)",
	   (t1 - t0) / 1e9);
	ok(r.id == 0 && sql_int(p, "SELECT count(*) FROM runs") == 0,
	   "failed_add_stores_nothing_and_sets_no_id");
	/* Opening an up-to-date file takes no write lock: no waiting. */
	{
		struct store *s2;

		setenv("TUNETOP_DB_TIMEOUT_MS", "200", 1);
		rc = store_open(&s2, p, err);
		unsetenv("TUNETOP_DB_TIMEOUT_MS");
		ok(rc == 0, "open_while_locked_works (%s)", err);
		store_close(s2);
	}
	sqlite3_exec(holder, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(holder);
	ok(store_add(s, &r, err) == 0 && r.id > 0,
	   "add_after_unlock_works (%s)", err);
	store_run_free(&r);
	store_close(s);
}

static void full_database_is_enospc(void)
{
	const char *p = tpath("full.db");
	char err[ERR_MAX] = "", *big;
	struct store_run r, *l = NULL;
	struct store *s;
	unsigned n = 99;
	int rc;

	setenv("TUNETOP_DB_MAX_PAGES", "20", 1);
	rc = store_open(&s, p, err);
	unsetenv("TUNETOP_DB_MAX_PAGES");
	if (!ok(rc == 0, "open_small_db (%s)", err))
		return;
	big = malloc(256 * 1024);
	memset(big, 'x', 256 * 1024 - 1);
	big[256 * 1024 - 1] = '\0';
	make_run(&r, 1, "TCP_RR", 1);
	json_object_set_new(r.result, "blob", json_string(big));
	rc = store_add(s, &r, err);
	ok(rc == -ENOSPC && strstr(err, "full.db: add run: disk full"),
	   "add_to_full_database_is_enospc (%s)", err);
	ok(store_list(s, NULL, &l, &n, err) == 0 && n == 0,
	   "full_add_left_nothing_behind");
	free(l);
	store_run_free(&r);
	make_run(&r, 2, "TCP_RR", 1);
	ok(store_add(s, &r, err) == 0, "small_run_still_fits (%s)", err);
	store_run_free(&r);
	free(big);
	store_close(s);
}

static void open_errors_name_the_path(void)
{
	char err[ERR_MAX] = "";
	struct store *s;
	int rc;

	rc = store_open(&s, tpath("no/such/dir/runs.db"), err);
	ok(rc == -ENOENT &&
		   strstr(err, "no/such/dir/runs.db: cannot open the database: its directory") &&
		   strstr(err, "no/such/dir does not exist"),
	   "missing_directory_is_enoent (%d, %s)", rc, err);
	setenv("TUNETOP_DB_TIMEOUT_MS", "soon", 1);
	rc = store_open(&s, tpath("x.db"), err);
	unsetenv("TUNETOP_DB_TIMEOUT_MS");
	ok(rc == -EINVAL &&
		   strstr(err, "TUNETOP_DB_TIMEOUT_MS: 'soon': accepted"),
	   "bad_timeout_env_is_einval (%s)", err);
	setenv("TUNETOP_DB", tpath("envdefault.db"), 1);
	rc = store_open(&s, NULL, err);
	unsetenv("TUNETOP_DB");
	ok(rc == 0 && !strcmp(store_path(s), tpath("envdefault.db")),
	   "null_path_opens_the_default (%s)", err);
	store_close(s);
}

/* One unreadable row: store_list refuses naming it, store_list_all lists the rest. */
static void bad_row_is_named(void)
{
	const char *p = tpath("badrow.db");
	struct store_run r, *l = NULL;
	struct store *s = NULL;
	char err[ERR_MAX] = "";
	unsigned n = 9, nbad = 9;
	int rc;

	if (!ok(store_open(&s, p, err) == 0, "open badrow.db (%s)", err))
		return;
	for (unsigned i = 1; i <= 3; i++) {
		make_run(&r, 100 * i, "TCP_RR", i);
		snprintf(r.target, sizeof(r.target), "host: \x1b]0;title\x07 %u", i);
		if (store_add(s, &r, err))
			ok(0, "add run (%s)", err);
		store_run_free(&r);
	}
	store_close(s);
	ok(sql_exec(p, "UPDATE runs SET params = '{oops' WHERE id = 2") == SQLITE_OK,
	   "corrupt the params of run 2");
	rc = store_open(&s, p, err);
	if (rc == 0)
		rc = store_list(s, NULL, &l, &n, err);
	ok(rc == -EBADMSG && !l && n == 0 && strstr(err, "badrow.db: run 2: params: bad JSON"),
	   "store_list refuses, naming run 2 (%d, %s)", rc, err);
	rc = store_list_all(s, NULL, &l, &n, &nbad, err);
	ok(rc == 0 && n == 2 && nbad == 1 && l[0].id == 1 && l[1].id == 3 &&
	   strstr(err, "run 2: params: bad JSON"),
	   "store_list_all lists runs 1 and 3 and names run 2 (%d, %u, %u, %s)", rc, n, nbad, err);
	ok(n == 2 && !strcmp(l[0].target, "host: \\x1b]0;title\\x07 1"),
	   "text columns come back escaped (%s)", n ? l[0].target : "");
	for (unsigned i = 0; i < n; i++)
		store_run_free(&l[i]);
	free(l);
	store_close(s);
	ok(sql_exec(p, "UPDATE runs SET params = '[1]' WHERE id = 1") == SQLITE_OK,
	   "make the params of run 1 an array");
	rc = store_open(&s, p, err);
	if (rc == 0)
		rc = store_list_all(s, NULL, &l, &n, &nbad, err);
	ok(rc == 0 && n == 1 && nbad == 2 &&
	   strstr(err, "run 1: params: not a JSON object; also unreadable: run 2"),
	   "two bad rows: the first named with why, the other by id (%d, %u, %u, %s)", rc, n, nbad, err);
	for (unsigned i = 0; i < n; i++)
		store_run_free(&l[i]);
	free(l);
	store_close(s);
	ok(sql_exec(p, "UPDATE runs SET result = '{\"k\":[\"a\\u001b[31m\",{\"v\":\"1\\n2\"}]}' WHERE id = 3") == SQLITE_OK,
	   "put escapes in the result of run 3");
	rc = store_open(&s, p, err);
	if (rc == 0)
		rc = store_get(s, 3, &r, err);
	ok(rc == 0 && r.result &&
	   !strcmp(json_string_value(json_array_get(json_object_get(r.result, "k"), 0)) ?: "", "a\\x1b[31m") &&
	   !strcmp(json_string_value(json_object_get(json_array_get(json_object_get(r.result, "k"), 1), "v")) ?: "",
		   "1\\x0a2"),
	   "strings in a stored document come back escaped (%d, %s)", rc, err);
	if (rc == 0)
		store_run_free(&r);
	store_close(s);
}

/* Version 3 derives the short target of old rows from their line. */
static void migrates_target_short(void)
{
	static const char *const rows[][2] = {
		{ "lab: tt-9 (veth, MTU 1500, no rate limit)", "lab:tt-9" },
		{ "loopback: embedded tunetopd on 127.0.0.1 (no -H given)", "loopback" },
		{ "host: tunetopd at 10.1.2.3 port 12866", "host:10.1.2.3" },
		{ "something else", "" },
	};
	const char *p = tpath("v1t.db");
	struct store *s = NULL;
	char err[ERR_MAX] = "", sql[512];
	bool all = true;

	ok(sql_exec(p, schema_v1) == SQLITE_OK &&
		   sql_exec(p, "PRAGMA user_version = 1") == 0,
	   "build a version-1 file with targets");
	for (unsigned i = 0; i < 4; i++) {
		snprintf(sql, sizeof(sql),
			 "INSERT INTO runs VALUES (%u, 1.0, 'TCP_RR', '%s', 'run', 0, 1, "
			 "'Trans/s', NULL, NULL, NULL, NULL, NULL, NULL, '{}', '{}');",
			 i + 1, rows[i][0]);
		all &= sql_exec(p, sql) == SQLITE_OK;
	}
	ok(all && store_open(&s, p, err) == 0, "open migrates (%s)", err);
	for (unsigned i = 0; i < 4; i++) {
		char *got;

		snprintf(sql, sizeof(sql),
			 "SELECT target_short FROM runs WHERE id = %u", i + 1);
		got = sql_text(p, sql);
		ok(got && !strcmp(got, rows[i][1]),
		   "v3 derives '%s' from '%s' (%s)", rows[i][1], rows[i][0],
		   got ? got : "NULL");
		free(got);
	}
	store_close(s);
}

/* Version 4 adds the limits column: old runs have none (NULL), not []. */
static void migrates_limits(void)
{
	const char *p = tpath("v1l.db");
	struct store *s = NULL;
	struct store_run g;
	char err[ERR_MAX] = "";

	ok(sql_exec(p, schema_v1) == SQLITE_OK &&
		   sql_exec(p, "PRAGMA user_version = 1") == 0 &&
		   sql_exec(p, "INSERT INTO runs VALUES (1, 1.0, 'TCP_RR', 'x', 'run', 0, 1, "
			       "'Trans/s', NULL, NULL, NULL, NULL, NULL, NULL, '{}', '{}');") ==
			   SQLITE_OK,
	   "build a version-1 file with a run");
	if (!ok(store_open(&s, p, err) == 0, "open migrates to 4 (%s)", err))
		return;
	ok(sql_int(p, "SELECT count(*) FROM runs WHERE limits IS NULL") == 1,
	   "v4: an old run's limits are NULL (not judged)");
	ok(store_get(s, 1, &g, err) == 0 && g.limits == NULL,
	   "v4: store_get gives NULL limits for it (%s)", err);
	store_run_free(&g);
	store_close(s);
}

int main(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/tunetop-store-XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	default_path_follows_env();
	params_key_drops_volatile_members();
	run_round_trips();
	list_orders_filters_limits();
	baselines_per_params();
	sweeps_round_trip();
	migrates_from_v1();
	migrates_target_short();
	migrates_limits();
	refuses_newer_version();
	refuses_corrupt_file();
	refuses_other_application();
	two_writers_lose_nothing();
	new_file_opened_by_many_at_once();
	locked_database_is_ebusy();
	full_database_is_enospc();
	open_errors_name_the_path();
	bad_row_is_named();
	nftw(tmpdir, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
