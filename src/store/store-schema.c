// SPDX-License-Identifier: GPL-2.0-or-later
/* store-schema.c - the store's schema by version, its migration, open-time checks. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sqlite3.h>

#include "store/store-internal.h"
#include "store/store.h"
#include "core/util.h"

/* Members of params that do not change what a test measures. */
static const char *const volatile_params[] = {
	"duration", "sample_ms", "capture", "lcpu", "rcpu",
};

/* The baseline key: test and params less what does not change the measure. */
char *store_params_key(const char *test, const json_t *params)
{
	json_t *copy = params ? json_deep_copy(params) : json_null();
	char *body, *key;

	if (!copy)
		return NULL;
	if (json_is_object(copy))
		for (size_t i = 0;
		     i < sizeof(volatile_params) / sizeof(volatile_params[0]);
		     i++)
			json_object_del(copy, volatile_params[i]);
	body = json_dumps(copy,
			  JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
	json_decref(copy);
	if (!body)
		return NULL;
	if (asprintf(&key, "%s %s", test ? test : "", body) < 0)
		key = NULL;
	free(body);
	return key;
}

/*
 * Schema version 1, verbatim as the first tunetop wrote it: files in the
 * wild were made by this text, so it is never edited; changes go in a new
 * step below (docs/store.md).
 */
static const char store_schema_v1[] =
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

/*
 * Version 2: sweeps, the sweep and point of a run, the baseline key of a
 * run (filled for old rows by tunetop_params_key(), a function this file
 * registers), the baselines table and the indexes lists and lookups use.
 */
static const char store_schema_v2[] =
	"CREATE TABLE sweeps (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	kind TEXT NOT NULL,\n"
	"	spec TEXT NOT NULL,\n"
	"	time REAL NOT NULL\n"
	");\n"
	"ALTER TABLE runs ADD COLUMN sweep_id INTEGER REFERENCES sweeps(id) ON DELETE SET NULL;\n"
	"ALTER TABLE runs ADD COLUMN point TEXT NOT NULL DEFAULT '';\n"
	"ALTER TABLE runs ADD COLUMN params_key TEXT;\n"
	"UPDATE runs SET params_key = tunetop_params_key(test, params);\n"
	"CREATE TABLE baselines (\n"
	"	params_key TEXT PRIMARY KEY NOT NULL,\n"
	"	run_id INTEGER NOT NULL UNIQUE REFERENCES runs(id) ON DELETE CASCADE\n"
	");\n"
	"CREATE INDEX runs_time ON runs(time);\n"
	"CREATE INDEX runs_params_key ON runs(params_key);\n"
	"CREATE INDEX runs_sweep ON runs(sweep_id);\n"
	"CREATE INDEX series_run ON series(run_id);\n";

/*
 * Version 3: where each run went in short ("lab:NAME", "loopback",
 * "host:ADDR"), derived for old rows from the line they kept.
 */
static const char store_schema_v3[] =
	"ALTER TABLE runs ADD COLUMN target_short TEXT NOT NULL DEFAULT '';\n"
	"UPDATE runs SET target_short = CASE\n"
	"	WHEN target LIKE 'lab: %' THEN 'lab:' ||\n"
	"		substr(target, 6, instr(substr(target, 6) || ' ', ' ') - 1)\n"
	"	WHEN target LIKE 'loopback%' THEN 'loopback'\n"
	"	WHEN target LIKE 'host: tunetopd at %' THEN 'host:' ||\n"
	"		substr(target, 19, instr(substr(target, 19) || ' ', ' ') - 1)\n"
	"	ELSE '' END;\n";

/*
 * Version 4: what limited each run (docs/why.md), the ranked verdicts as
 * a JSON array; NULL for runs judged before it.
 */
static const char store_schema_v4[] =
	"ALTER TABLE runs ADD COLUMN limits TEXT;\n";

/* steps[v] takes a database from version v to v + 1. */
static const char *const store_steps[STORE_SCHEMA_VERSION] = {
	store_schema_v1,
	store_schema_v2,
	store_schema_v3,
	store_schema_v4,
};

/* One integer from a query with no parameters. */
static int query_int(struct store *s, const char *sql, int64_t *v,
		     const char *what, char *err)
{
	sqlite3_stmt *st;
	int rc;

	rc = store_prepare(s, sql, &st, what, err);
	if (rc)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*v = sqlite3_column_int64(st, 0);
		rc = 0;
	} else {
		rc = store_fail(s, rc == SQLITE_DONE ? SQLITE_ERROR : rc, what,
				err);
	}
	sqlite3_finalize(st);
	return rc;
}

/*
 * Whether the file belongs to another application: no tunetop version and
 * tables already there, or a version but no runs table.  Those files are
 * refused and left as they are.
 */
static int check_ours(struct store *s, int64_t version, char *err)
{
	int64_t tables, runs;
	int rc;

	rc = query_int(s, "SELECT count(*) FROM sqlite_schema", &tables, NULL,
		       err);
	if (rc)
		return rc;
	rc = query_int(
		s,
		"SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'runs'",
		&runs, NULL, err);
	if (rc)
		return rc;
	if ((version == 0 && tables > 0) || (version > 0 && runs == 0))
		return err_set(
			err, -EBADMSG,
			"%s: not a tunetop database (it holds another application's tables); choose another --db",
			s->path);
	return 0;
}

/* The running version of the schema, refusing versions newer than ours. */
static int read_version(struct store *s, int64_t *version, char *err)
{
	int rc = query_int(s, "PRAGMA user_version", version, NULL, err);

	if (rc)
		return rc;
	if (*version > STORE_SCHEMA_VERSION || *version < 0)
		return err_set(
			err, -ENOTSUP,
			"%s: schema version %lld is newer than this tunetop's (%d); use a newer tunetop or another --db",
			s->path, (long long)*version, STORE_SCHEMA_VERSION);
	return 0;
}

/* SQL function tunetop_params_key(test, params_text) for the v2 migration. */
static void params_key_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *test = (const char *)sqlite3_value_text(argv[0]);
	const char *text = (const char *)sqlite3_value_text(argv[1]);
	json_t *params;
	char *key;

	if (!test || !text) {
		sqlite3_result_null(ctx);
		return;
	}
	params = json_loads(text, JSON_DECODE_ANY, NULL);
	if (!params) {
		/* An unreadable old row just has no baseline. */
		sqlite3_result_null(ctx);
		return;
	}
	key = store_params_key(test, params);
	json_decref(params);
	if (!key) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	sqlite3_result_text(ctx, key, -1, free);
}

/*
 * Bring the schema to STORE_SCHEMA_VERSION one step at a time, each step
 * in its own write transaction that re-reads the version, so two tunetops
 * opening one old file at once migrate it once.
 */
int store_schema_migrate(struct store *s, char *err)
{
	int64_t version;
	char sql[64];
	int rc;

	for (;;) {
		rc = store_tx_begin(s, "migrate", err);
		if (rc)
			return rc;
		rc = read_version(s, &version, err);
		if (!rc)
			rc = check_ours(s, version, err);
		if (rc || version == STORE_SCHEMA_VERSION)
			return store_tx_end(s, rc, "migrate", err);
		rc = store_exec(s, store_steps[version], "migrate", err);
		if (!rc) {
			snprintf(sql, sizeof(sql), "PRAGMA user_version = %lld",
				 (long long)version + 1);
			rc = store_exec(s, sql, "migrate", err);
		}
		rc = store_tx_end(s, rc, "migrate", err);
		if (rc)
			return rc;
	}
}

/*
 * Switch to WAL mode.  The switch takes its exclusive lock without the
 * busy handler, so two tunetops making a new file at once wait here.
 */
int store_schema_set_wal(struct store *s, char *err)
{
	uint64_t deadline = now_ns() + s->timeout_ms * 1000000ull;
	const unsigned char *mode;
	sqlite3_stmt *st;
	int rc;

	for (;;) {
		rc = store_prepare(s, "PRAGMA journal_mode = WAL", &st,
				   "set WAL mode", err);
		if (rc)
			return rc;
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			mode = sqlite3_column_text(st, 0);
			rc = mode && !strcmp((const char *)mode, "wal")
				     ? 0
				     : err_set(err, -ENOTSUP,
					       "%s: cannot use WAL mode (journal mode stays '%s'); choose a --db on a local file system",
					       s->path,
					       mode ? (const char *)mode : "?");
			sqlite3_finalize(st);
			return rc;
		}
		sqlite3_finalize(st);
		if ((rc & 0xff) != SQLITE_BUSY || now_ns() >= deadline)
			return store_fail(s, rc, "set WAL mode", err);
		sqlite3_sleep(10);
	}
}

/*
 * Look before writing anything: the first read tells a garbage file
 * (SQLITE_NOTADB) and a newer or foreign schema is refused untouched,
 * before journal_mode=WAL rewrites the header.
 */
int store_schema_check(struct store *s, int64_t *version, char *err)
{
	int rc;

	rc = store_exec(s, "BEGIN", NULL, err);
	if (rc)
		return rc;
	rc = read_version(s, version, err);
	if (!rc)
		rc = check_ours(s, *version, err);
	return store_tx_end(s, rc, NULL, err);
}

/* Register tunetop_params_key(), which the version 2 step calls. */
int store_schema_add_functions(struct store *s, char *err)
{
	if (sqlite3_create_function(s->db, "tunetop_params_key", 2,
				    SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
				    params_key_fn, NULL, NULL) != SQLITE_OK)
		return store_fail(s, sqlite3_errcode(s->db), NULL, err);
	return 0;
}
