// SPDX-License-Identifier: GPL-2.0-or-later
/* store.c - run history in SQLite: opening the store, runs, baselines, sweeps. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>
#include <sqlite3.h>

#include "session/result-doc.h"
#include "store/store-internal.h"
#include "store/store.h"
#include "stats/sweep-policy.h"
#include "core/util.h"

/* How long a writer waits for another one before "database is locked". */
#define STORE_TIMEOUT_MS 5000

/* The default database path (see store_default_path), its directory made. */
static int default_path(char *buf, size_t len, char *err)
{
	const char *e = getenv("TUNETOP_DB");
	char dir[PATH_MAX];
	int n, rc;

	if (e && *e) {
		n = snprintf(buf, len, "%s", e);
		if (n < 0 || (size_t)n >= len)
			return err_set(err, -ENAMETOOLONG,
				       "TUNETOP_DB: path too long");
		return 0;
	}
	if ((e = getenv("XDG_DATA_HOME")) && *e == '/')
		n = snprintf(dir, sizeof(dir), "%s/tunetop", e);
	else if ((e = getenv("HOME")) && *e)
		n = snprintf(dir, sizeof(dir), "%s/.local/share/tunetop", e);
	else
		return err_set(
			err, -ENOENT,
			"database: no data directory: set --db, TUNETOP_DB, XDG_DATA_HOME or HOME");
	if (n < 0 || (size_t)n >= sizeof(dir))
		return err_set(err, -ENAMETOOLONG,
			       "database: data directory path too long");
	rc = util_mkdir_p(dir);
	if (rc)
		return err_set(err, rc, "%s: %s", dir, strerror(-rc));
	n = snprintf(buf, len, "%s/runs.db", dir);
	if (n < 0 || (size_t)n >= len)
		return err_set(err, -ENAMETOOLONG,
			       "database: data directory path too long");
	return 0;
}

/* The default database path, or NULL with errno. */
const char *store_default_path(char *buf, size_t len)
{
	int rc = default_path(buf, len, NULL);

	if (rc) {
		errno = -rc;
		return NULL;
	}
	return buf;
}

/* Parse an optional unsigned environment variable. */
static int env_uint(const char *name, uint64_t max, uint64_t *v, char *err)
{
	const char *e = getenv(name);

	if (!e || !*e)
		return 0;
	if (parse_uint(e, 0, max, v))
		return err_set(err, -EINVAL,
			       "%s: '%s': accepted is an integer 0..%llu", name,
			       e, (unsigned long long)max);
	return 0;
}

/* Open the database, check it is ours and migrate it to the current schema. */
int store_open(struct store **sp, const char *path, char *err)
{
	uint64_t timeout = STORE_TIMEOUT_MS, max_pages = 0;
	struct store *s;
	int64_t version;
	char sql[64];
	int rc, n;

	*sp = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return err_set(err, -ENOMEM, "database: out of memory");
	if (path) {
		n = snprintf(s->path, sizeof(s->path), "%s", path);
		rc = n < 0 || (size_t)n >= sizeof(s->path)
			     ? err_set(err, -ENAMETOOLONG,
				       "%.64s...: path too long", path)
			     : 0;
	} else {
		rc = default_path(s->path, sizeof(s->path), err);
	}
	if (!rc)
		rc = env_uint("TUNETOP_DB_TIMEOUT_MS", 3600000, &timeout, err);
	if (!rc)
		rc = env_uint("TUNETOP_DB_MAX_PAGES", INT_MAX, &max_pages, err);
	if (rc)
		goto fail;
	s->timeout_ms = (unsigned)timeout;

	rc = sqlite3_open_v2(s->path, &s->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		rc = store_fail(s, rc, NULL, err);
		goto fail;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, (int)s->timeout_ms);

	rc = store_schema_check(s, &version, err);
	if (rc)
		goto fail;

	rc = store_schema_set_wal(s, err);
	if (!rc)
		rc = store_exec(s, "PRAGMA foreign_keys = ON", NULL, err);
	if (!rc && max_pages) {
		snprintf(sql, sizeof(sql), "PRAGMA max_page_count = %llu",
			 (unsigned long long)max_pages);
		rc = store_exec(s, sql, NULL, err);
	}
	if (!rc)
		rc = store_schema_add_functions(s, err);
	/* Up to date: no write transaction, so the open never waits. */
	if (!rc && version != STORE_SCHEMA_VERSION)
		rc = store_schema_migrate(s, err);
	if (rc)
		goto fail;
	*sp = s;
	return 0;
fail:
	store_close(s);
	return rc;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
	free(s);
}

const char *store_path(const struct store *s)
{
	return s->path;
}

void store_run_init(struct store_run *r)
{
	memset(r, 0, sizeof(*r));
	r->throughput = NAN;
	r->p50_us = r->p99_us = NAN;
	r->lcpu = r->rcpu = NAN;
	r->lsd = r->rsd = NAN;
}

void store_run_free(struct store_run *r)
{
	json_decref(r->params);
	json_decref(r->result);
	json_decref(r->series);
	json_decref(r->limits);
	r->params = r->result = r->series = r->limits = NULL;
}

/* Bind a figure: NAN (n/a) is NULL. */
static int bind_figure(sqlite3_stmt *st, int i, double v)
{
	return isnan(v) ? sqlite3_bind_null(st, i)
			: sqlite3_bind_double(st, i, v);
}

/* A figure column: NULL is NAN. */
static double col_figure(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL
		       ? NAN
		       : sqlite3_column_double(st, i);
}

/*
 * A text column into a fixed buffer ("" for NULL, cut to fit), control
 * characters escaped: a database is a file anyone may have written.
 */
static void col_str(sqlite3_stmt *st, int i, char *buf, size_t len)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	str_escape(buf, len, t ? (const char *)t : "",
		   t ? (size_t)sqlite3_column_bytes(st, i) : 0);
}

/* Bind JSON as compact text (NULL json binds NULL); -ENOMEM when it cannot. */
static int bind_json(sqlite3_stmt *st, int i, const json_t *j)
{
	char *text;

	if (!j)
		return sqlite3_bind_null(st, i) == SQLITE_OK ? 0 : -ENOMEM;
	text = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
	if (!text)
		return -ENOMEM;
	return sqlite3_bind_text(st, i, text, -1, free) == SQLITE_OK ? 0
								     : -ENOMEM;
}

/*
 * Escape, in place, every string value in j that holds a control
 * character or invalid UTF-8 (str_escape): a stored document is printed
 * by runs show and diff.  -ENOMEM when a string cannot be replaced.
 */
static int json_escape_strings(json_t *j)
{
	const char *key, *text;
	size_t i, len, n;
	json_t *v;
	char *esc;
	int rc = 0;

	if (json_is_object(j)) {
		json_object_foreach(j, key, v)
			if ((rc = json_escape_strings(v)))
				return rc;
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			if ((rc = json_escape_strings(v)))
				return rc;
	} else if (json_is_string(j)) {
		text = json_string_value(j);
		len = json_string_length(j);
		for (i = 0; i < len; i += n)
			if (!(n = str_printable_len(text + i, len - i)))
				break;
		if (i == len)
			return 0;
		esc = malloc(4 * len + 1);
		if (!esc)
			return -ENOMEM;
		str_escape(esc, 4 * len + 1, text, len);
		rc = json_string_set(j, esc) ? -ENOMEM : 0;
		free(esc);
	}
	return rc;
}

/* Decode a JSON text column of run id; a NULL column gives NULL. */
static int col_json(struct store *s, sqlite3_stmt *st, int i, int64_t id,
		    const char *what, json_t **out, char *err)
{
	const char *text = (const char *)sqlite3_column_text(st, i);
	json_error_t jerr;

	*out = NULL;
	if (!text)
		return 0;
	*out = json_loads(text, JSON_DECODE_ANY, &jerr);
	if (!*out) {
		str_sanitize(jerr.text, sizeof(jerr.text));
		return err_set(err, -EBADMSG, "%s: run %lld: %s: bad JSON (%s)",
			       s->path, (long long)id, what, jerr.text);
	}
	if (json_escape_strings(*out)) {
		json_decref(*out);
		*out = NULL;
		return err_set(err, -ENOMEM, "%s: run %lld: %s: out of memory",
			       s->path, (long long)id, what);
	}
	return 0;
}

/* One statement with run id as ?1 that returns no rows. */
static int exec_id(struct store *s, const char *sql, int64_t id, const char *what, char *err)
{
	sqlite3_stmt *st;
	int rc = store_prepare(s, sql, &st, what, err);

	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	rc = rc == SQLITE_DONE ? 0 : store_fail(s, rc, what, err);
	sqlite3_finalize(st);
	return rc;
}

/* Run id is the baseline of its key: the primary key replaces the previous one. */
static int mark_baseline(struct store *s, int64_t id, char *err)
{
	return exec_id(s, "INSERT OR REPLACE INTO baselines (params_key, run_id) "
			  "SELECT params_key, id FROM runs WHERE id = ?1",
		       id, "set baseline", err);
}

/* Insert the run, its series and its baseline mark in the open transaction. */
static int add_rows(struct store *s, struct store_run *r, char *err)
{
	static const char sql_run[] =
		"INSERT INTO runs (time, test, target, source, failed, throughput, units, "
		"p50_us, p99_us, lcpu, rcpu, lsd, rsd, params, result, sweep_id, point, params_key, "
		"target_short, limits) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)";
	sqlite3_stmt *st;
	char *key;
	int rc;

	key = store_params_key(r->test, r->params);
	if (!key)
		return err_set(err, -ENOMEM, "%s: add run: out of memory",
			       s->path);
	rc = store_prepare(s, sql_run, &st, "add run", err);
	if (rc) {
		free(key);
		return rc;
	}
	sqlite3_bind_double(st, 1, r->time);
	sqlite3_bind_text(st, 2, r->test, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, r->target, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, r->source, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 5, r->failed);
	bind_figure(st, 6, r->throughput);
	sqlite3_bind_text(st, 7, r->units, -1, SQLITE_TRANSIENT);
	bind_figure(st, 8, r->p50_us);
	bind_figure(st, 9, r->p99_us);
	bind_figure(st, 10, r->lcpu);
	bind_figure(st, 11, r->rcpu);
	bind_figure(st, 12, r->lsd);
	bind_figure(st, 13, r->rsd);
	if (r->sweep_id)
		sqlite3_bind_int64(st, 16, r->sweep_id);
	sqlite3_bind_text(st, 17, r->point, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 18, key, -1, free);
	sqlite3_bind_text(st, 19, r->target_short, -1, SQLITE_TRANSIENT);
	if (bind_json(st, 14, r->params) || bind_json(st, 15, r->result) ||
	    bind_json(st, 20, r->limits)) {
		sqlite3_finalize(st);
		return err_set(err, -ENOMEM, "%s: add run: out of memory",
			       s->path);
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
		rc = err_set(err, -ENOENT,
			     "%s: add run: sweep %lld: no such sweep", s->path,
			     (long long)r->sweep_id);
	else
		rc = rc == SQLITE_DONE ? 0 : store_fail(s, rc, "add run", err);
	sqlite3_finalize(st);
	if (rc)
		return rc;
	r->id = sqlite3_last_insert_rowid(s->db);

	if (r->series) {
		rc = store_prepare(
			s, "INSERT INTO series (run_id, data) VALUES (?1, ?2)",
			&st, "add series", err);
		if (rc)
			return rc;
		sqlite3_bind_int64(st, 1, r->id);
		if (bind_json(st, 2, r->series)) {
			sqlite3_finalize(st);
			return err_set(err, -ENOMEM,
				       "%s: add series: out of memory",
				       s->path);
		}
		rc = sqlite3_step(st);
		rc = rc == SQLITE_DONE ? 0
				       : store_fail(s, rc, "add series", err);
		sqlite3_finalize(st);
		if (rc)
			return rc;
	}
	if (!r->baseline)
		return 0;
	return mark_baseline(s, r->id, err);
}

/* Add a run in one write transaction. */
int store_add(struct store *s, struct store_run *r, char *err)
{
	int rc;

	if (!r->params || !r->result)
		return err_set(err, -EINVAL,
			       "%s: add run: params and result are required",
			       s->path);
	rc = store_tx_begin(s, "add run", err);
	if (rc)
		return rc;
	rc = add_rows(s, r, err);
	rc = store_tx_end(s, rc, "add run", err);
	if (rc)
		r->id = 0;
	return rc;
}

/* The columns store_list and store_get read, in the order read_run expects. */
#define RUN_COLUMNS                                                           \
	"r.id, r.time, r.test, r.target, r.source, r.sweep_id, r.point, "     \
	"b.run_id IS NOT NULL AS baseline, r.failed, r.throughput, r.units, " \
	"r.p50_us, r.p99_us, r.lcpu, r.rcpu, r.lsd, r.rsd, r.target_short, "    \
	"r.limits, r.params"
#define RUN_FROM " FROM runs r LEFT JOIN baselines b ON b.run_id = r.id "

/* Fill r from a row of RUN_COLUMNS (params decoded; no result or series). */
static int read_run(struct store *s, sqlite3_stmt *st, struct store_run *r,
		    char *err)
{
	store_run_init(r);
	r->id = sqlite3_column_int64(st, 0);
	r->time = sqlite3_column_double(st, 1);
	col_str(st, 2, r->test, sizeof(r->test));
	col_str(st, 3, r->target, sizeof(r->target));
	col_str(st, 4, r->source, sizeof(r->source));
	r->sweep_id = sqlite3_column_int64(st, 5);
	col_str(st, 6, r->point, sizeof(r->point));
	r->baseline = sqlite3_column_int(st, 7);
	r->failed = sqlite3_column_int(st, 8);
	r->throughput = col_figure(st, 9);
	col_str(st, 10, r->units, sizeof(r->units));
	r->p50_us = col_figure(st, 11);
	r->p99_us = col_figure(st, 12);
	r->lcpu = col_figure(st, 13);
	r->rcpu = col_figure(st, 14);
	r->lsd = col_figure(st, 15);
	r->rsd = col_figure(st, 16);
	col_str(st, 17, r->target_short, sizeof(r->target_short));
	/* A bad row frees what it read: runs list reuses the slot. */
	if (col_json(s, st, 18, r->id, "limits", &r->limits, err) ||
	    col_json(s, st, 19, r->id, "params", &r->params, err)) {
		store_run_free(r);
		return -EBADMSG;
	}
	if (r->params && !json_is_object(r->params)) {
		store_run_free(r);
		return err_set(err, -EBADMSG, "%s: run %lld: params: not a JSON object",
			       s->path, (long long)r->id);
	}
	return 0;
}

/* Read one run whole, with its series. */
int store_get(struct store *s, int64_t id, struct store_run *out, char *err)
{
	sqlite3_stmt *st;
	int rc;

	store_run_init(out);
	rc = store_prepare(s,
			   "SELECT " RUN_COLUMNS ", r.result" RUN_FROM
			   "WHERE r.id = ?1",
			   &st, "get run", err);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE)
		rc = err_set(err, -ENOENT, "run %lld: no such run in %s",
			     (long long)id, s->path);
	else if (rc != SQLITE_ROW)
		rc = store_fail(s, rc, "get run", err);
	else if (!(rc = read_run(s, st, out, err)))
		rc = col_json(s, st, 20, id, "result", &out->result, err);
	sqlite3_finalize(st);
	if (rc)
		goto fail;

	rc = store_prepare(s,
			   "SELECT data FROM series WHERE run_id = ?1 LIMIT 1",
			   &st, "get series", err);
	if (rc)
		goto fail;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		rc = col_json(s, st, 0, id, "series", &out->series, err);
	else
		rc = rc == SQLITE_DONE ? 0
				       : store_fail(s, rc, "get series", err);
	sqlite3_finalize(st);
	if (!rc)
		return 0;
fail:
	store_run_free(out);
	return rc;
}

/* Delete one run (its series and baseline mark go with it). */
int store_rm(struct store *s, int64_t id, char *err)
{
	int rc;

	rc = store_tx_begin(s, "remove run", err);
	if (rc)
		return rc;
	/* The series and a baseline mark go with it (ON DELETE CASCADE). */
	rc = exec_id(s, "DELETE FROM runs WHERE id = ?1", id, "remove run", err);
	if (!rc && sqlite3_changes(s->db) == 0)
		rc = err_set(err, -ENOENT, "run %lld: no such run in %s",
			     (long long)id, s->path);
	return store_tx_end(s, rc, "remove run", err);
}

/* The runs matching f, oldest first, without result and series; bad rows left out. */
int store_list_all(struct store *s, const struct store_filter *f,
		   struct store_run **out, unsigned *n, unsigned *nbad, char *err)
{
	/* The newest `limit` (-1: all), then oldest first. */
	static const char sql[] =
		"SELECT * FROM (SELECT " RUN_COLUMNS RUN_FROM
		"WHERE (?1 IS NULL OR r.test = ?1) AND (?2 = 0 OR r.sweep_id = ?2) "
		"ORDER BY r.time DESC, r.id DESC LIMIT ?3) ORDER BY time, id";
	struct store_run *runs = NULL, *grown;
	unsigned count = 0, cap = 0;
	char why[ERR_MAX], first[ERR_MAX], more[ERR_MAX] = "";
	sqlite3_stmt *st;
	int rc;

	*out = NULL;
	*n = 0;
	*nbad = 0;
	rc = store_prepare(s, sql, &st, "list runs", err);
	if (rc)
		return rc;
	if (f && f->test)
		sqlite3_bind_text(st, 1, f->test, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, f ? f->sweep_id : 0);
	sqlite3_bind_int64(st, 3, f && f->limit ? (sqlite3_int64)f->limit : -1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (count == cap) {
			cap = cap ? cap * 2 : 16;
			grown = realloc(runs, cap * sizeof(*runs));
			if (!grown) {
				rc = err_set(err, -ENOMEM,
					     "%s: list runs: out of memory",
					     s->path);
				goto fail;
			}
			runs = grown;
		}
		if (read_run(s, st, &runs[count], why)) {
			/* Name the first bad row and what is wrong; the rest by id. */
			if (!(*nbad)++)
				snprintf(first, sizeof(first), "%s", why);
			else
				snprintf(more + strlen(more), sizeof(more) - strlen(more), "%s%lld",
					 *nbad > 2 ? ", " : "", (long long)runs[count].id);
			continue;
		}
		count++;
	}
	if (rc != SQLITE_DONE) {
		rc = store_fail(s, rc, "list runs", err);
		goto fail;
	}
	sqlite3_finalize(st);
	if (*nbad == 1)
		err_set(err, 0, "%s", first);
	else if (*nbad > 1)
		err_set(err, 0, "%s; also unreadable: run%s %s", first, *nbad > 2 ? "s" : "", more);
	*out = runs;
	*n = count;
	return 0;
fail:
	sqlite3_finalize(st);
	for (unsigned i = 0; i < count; i++)
		store_run_free(&runs[i]);
	free(runs);
	return rc;
}

/* The runs matching f, or -EBADMSG naming the first row that cannot be read. */
int store_list(struct store *s, const struct store_filter *f,
	       struct store_run **out, unsigned *n, char *err)
{
	unsigned nbad;
	int rc = store_list_all(s, f, out, n, &nbad, err);

	if (rc || !nbad)
		return rc;
	for (unsigned i = 0; i < *n; i++)
		store_run_free(&(*out)[i]);
	free(*out);
	*out = NULL;
	*n = 0;
	return -EBADMSG;
}

/* Make run id the baseline of its test and parameters. */
int store_set_baseline(struct store *s, int64_t id, char *err)
{
	sqlite3_stmt *st;
	int rc;

	rc = store_tx_begin(s, "set baseline", err);
	if (rc)
		return rc;
	rc = store_prepare(
		s, "SELECT params_key IS NOT NULL FROM runs WHERE id = ?1", &st,
		"set baseline", err);
	if (rc)
		return store_tx_end(s, rc, "set baseline", err);
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE)
		rc = err_set(err, -ENOENT, "run %lld: no such run in %s",
			     (long long)id, s->path);
	else if (rc != SQLITE_ROW)
		rc = store_fail(s, rc, "set baseline", err);
	else if (!sqlite3_column_int(st, 0))
		rc = err_set(err, -EBADMSG,
			     "%s: run %lld: its parameters are unreadable",
			     s->path, (long long)id);
	else
		rc = 0;
	sqlite3_finalize(st);
	if (rc)
		return store_tx_end(s, rc, "set baseline", err);
	rc = mark_baseline(s, id, err);
	return store_tx_end(s, rc, "set baseline", err);
}

/* The baseline run of run id's test and parameters. */
/* The run the query sql (run id as ?1) names first into *base, 0 when NULL. */
static int store_baseline_query(struct store *s, const char *sql, int64_t id, int64_t *base,
				char *err)
{
	sqlite3_stmt *st;
	int rc;

	*base = 0;
	rc = store_prepare(s, sql, &st, "find baseline", err);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*base = sqlite3_column_int64(st, 0);
		rc = 0;
	} else if (rc == SQLITE_DONE) {
		rc = err_set(err, -ENOENT, "run %lld: no such run in %s",
			     (long long)id, s->path);
	} else {
		rc = store_fail(s, rc, "find baseline", err);
	}
	sqlite3_finalize(st);
	return rc;
}

int store_baseline_of(struct store *s, int64_t id, int64_t *base, char *err)
{
	return store_baseline_query(s,
				    "SELECT b.run_id FROM runs r LEFT JOIN baselines b "
				    "ON b.params_key = r.params_key WHERE r.id = ?1",
				    id, base, err);
}

int store_baseline_like(struct store *s, int64_t id, int64_t *base, char *err)
{
	return store_baseline_query(s,
				    "SELECT (SELECT c.id FROM baselines b JOIN runs c ON c.id = b.run_id "
				    "WHERE c.test = r.test AND c.target_short = r.target_short "
				    "ORDER BY c.id DESC LIMIT 1) FROM runs r WHERE r.id = ?1",
				    id, base, err);
}

int store_id_named(struct store *s, const char *name, bool sweeps, int64_t *id, char *err)
{
	const char *what = sweeps ? "sweep" : "run";
	uint64_t back = 0, v;
	sqlite3_stmt *st;
	int rc;

	*id = 0;
	if (!parse_uint(name, 1, INT64_MAX, &v)) {
		*id = (int64_t)v;
		return 0;
	}
	if (strncmp(name, "last", 4) ||
	    (name[4] && (name[4] != '-' || parse_uint(name + 5, 1, 1000000, &back))))
		return err_set(err, -EINVAL, "%s %.64s: not a %s id; accepted: a number from tunetop runs%s, last or last-N",
			       what, name, what, sweeps ? "" : " list");
	rc = store_prepare(s, sweeps ? "SELECT id FROM sweeps ORDER BY id DESC LIMIT 1 OFFSET ?1" :
				       "SELECT id FROM runs ORDER BY id DESC LIMIT 1 OFFSET ?1",
			   &st, "find the newest id", err);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, (int64_t)back);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		rc = 0;
	} else if (rc == SQLITE_DONE) {
		rc = back ? err_set(err, -ENOENT, "%s: fewer than %llu %ss stored in %s", name,
				    (unsigned long long)back + 1, what, s->path) :
			    err_set(err, -ENOENT, "last: no %ss stored in %s", what, s->path);
	} else {
		rc = store_fail(s, rc, "find the newest id", err);
	}
	sqlite3_finalize(st);
	return rc;
}

/* Record a sweep or an A/B comparison. */
int store_add_sweep(struct store *s, const char *kind, const json_t *spec,
		    int64_t *id, char *err)
{
	sqlite3_stmt *st;
	int rc;

	*id = 0;
	rc = store_tx_begin(s, "add sweep", err);
	if (rc)
		return rc;
	rc = store_prepare(
		s, "INSERT INTO sweeps (kind, spec, time) VALUES (?1, ?2, ?3)",
		&st, "add sweep", err);
	if (rc)
		return store_tx_end(s, rc, "add sweep", err);
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(st, 3, wall_time());
	if (bind_json(st, 2, spec ? spec : json_null())) {
		rc = err_set(err, -ENOMEM, "%s: add sweep: out of memory",
			     s->path);
	} else {
		rc = sqlite3_step(st);
		rc = rc == SQLITE_DONE ? 0
				       : store_fail(s, rc, "add sweep", err);
	}
	sqlite3_finalize(st);
	if (!rc)
		*id = sqlite3_last_insert_rowid(s->db);
	rc = store_tx_end(s, rc, "add sweep", err);
	if (rc)
		*id = 0;
	return rc;
}

int store_set_sweep(struct store *s, int64_t id, const json_t *spec, char *err)
{
	sqlite3_stmt *st;
	int rc;

	rc = store_tx_begin(s, "set sweep", err);
	if (rc)
		return rc;
	rc = store_prepare(s, "UPDATE sweeps SET spec = ?2 WHERE id = ?1", &st, "set sweep",
			   err);
	if (rc)
		return store_tx_end(s, rc, "set sweep", err);
	sqlite3_bind_int64(st, 1, id);
	if (bind_json(st, 2, spec ? spec : json_null())) {
		rc = err_set(err, -ENOMEM, "%s: set sweep: out of memory", s->path);
	} else {
		rc = sqlite3_step(st);
		rc = rc == SQLITE_DONE ? 0 : store_fail(s, rc, "set sweep", err);
	}
	sqlite3_finalize(st);
	if (!rc && !sqlite3_changes(s->db))
		rc = err_set(err, -ENOENT, "%s: no such sweep %lld", s->path, (long long)id);
	return store_tx_end(s, rc, "set sweep", err);
}

/* Read a sweep's kind and spec back. */
int store_get_sweep(struct store *s, int64_t id, char *kind, size_t klen,
		    json_t **spec, char *err)
{
	json_error_t jerr;
	sqlite3_stmt *st;
	int rc;

	*spec = NULL;
	rc = store_prepare(s, "SELECT kind, spec FROM sweeps WHERE id = ?1",
			   &st, "get sweep", err);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		rc = err_set(err, -ENOENT, "sweep %lld: no such sweep in %s",
			     (long long)id, s->path);
	} else if (rc != SQLITE_ROW) {
		rc = store_fail(s, rc, "get sweep", err);
	} else {
		const char *text = (const char *)sqlite3_column_text(st, 1);

		col_str(st, 0, kind, klen);
		*spec = text ? json_loads(text, JSON_DECODE_ANY, &jerr) : NULL;
		if (!text)
			snprintf(jerr.text, sizeof(jerr.text), "no spec");
		rc = *spec ? 0
			   : err_set(err, -EBADMSG,
				     "%s: sweep %lld: spec: bad JSON (%s)",
				     s->path, (long long)id, jerr.text);
	}
	sqlite3_finalize(st);
	return rc;
}

const char *const store_series_names[STORE_NSERIES] = {
	[SS_T] = "t", [SS_RATE] = "rate", [SS_P50] = "p50_us", [SS_P99] = "p99_us",
	[SS_SNDBUF_L] = "sndbuf_l", [SS_RCVBUF_L] = "rcvbuf_l",
	[SS_SNDBUF_R] = "sndbuf_r", [SS_RCVBUF_R] = "rcvbuf_r",
	[SS_CWND_L] = "cwnd_l", [SS_CWND_R] = "cwnd_r",
};

json_t *store_series_new(void)
{
	json_t *j = json_object();

	for (int i = 0; j && i < STORE_NSERIES; i++)
		if (json_object_set_new(j, store_series_names[i], json_array())) {
			json_decref(j);
			return NULL;
		}
	return j;
}

void store_series_append(json_t *series, const double v[STORE_NSERIES])
{
	for (int i = 0; series && i < STORE_NSERIES; i++)
		json_array_append_new(json_object_get(series, store_series_names[i]),
				      isfinite(v[i]) ? json_real(v[i]) : json_null());
}

double *store_series_get(const json_t *series, const char *name, size_t *n)
{
	const json_t *a = json_object_get(series, name);
	double *v;

	*n = json_array_size(a);
	if (!*n)
		return NULL;
	v = malloc(*n * sizeof(*v));
	if (!v) {
		*n = 0;
		return NULL;
	}
	for (size_t i = 0; i < *n; i++) {
		const json_t *e = json_array_get(a, i);

		v[i] = json_is_number(e) ? json_number_value(e) : NAN;
	}
	return v;
}

double store_series_sd(const json_t *series, const char *name)
{
	size_t n;
	double *v = store_series_get(series, name, &n);
	double sd = sweep_policy_spread(v, (unsigned)n);

	free(v);
	return sd;
}

double store_result_ci(const json_t *result)
{
	struct result_doc_conf c;

	if (!result_doc_confidence(result, &c) || c.thr_n < 2 || isnan(c.thr_half_width))
		return NAN;
	return c.thr_half_width;
}

/* The knobs of now that differ from before (documents with their knobs
 * member), into buf. */
static void setup_knobs_changed(const json_t *before, const json_t *now, char *buf, size_t len)
{
	unsigned shown = 0, more = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned e = 0; e < 2; e++) {
		const json_t *lb = result_doc_knob_list(before, result_doc_ends[e]);
		const json_t *ln = result_doc_knob_list(now, result_doc_ends[e]);
		size_t i;
		const json_t *k;

		if (!lb || !ln)
			continue;
		json_array_foreach(ln, i, k) {
			const char *name = result_doc_knob_name(k);
			const char *v = result_doc_knob_value(k);
			const char *was;

			if (!name)
				continue;
			was = result_doc_knob_value(result_doc_knob(lb, name));
			/* n/a on both (no value either time) is no change. */
			if ((!v && !was) || (v && was && !strcmp(v, was)))
				continue;
			if (shown == 3) {
				more++;
				continue;
			}
			shown++;
			used += (size_t)snprintf(buf + used, used < len ? len - used : 0,
						 "%s%s%s=%s", used ? ", " : "",
						 e ? "remote:" : "", name, v ? v : "n/a");
			if (used >= len)
				used = len - 1;
		}
	}
	if (more && used < len)
		snprintf(buf + used, len - used, ", +%u more", more);
}

/*
 * -c, -C, -i max,min and -I level,width of a run (doc: a document with
 * its confidence member), into buf: the result document has a service
 * demand only when -c (local) or -C (remote) asked for it, and a
 * confidence object only when iterating.
 */
static void setup_flags(bool lsd, bool rsd, const json_t *doc, char *buf, size_t len)
{
	struct result_doc_conf c;
	size_t used = 0;

	buf[0] = '\0';
	if (lsd)
		used += (size_t)snprintf(buf + used, len - used, "-c");
	if (rsd && used < len)
		used += (size_t)snprintf(buf + used, len - used, "%s-C", used ? " " : "");
	if (result_doc_confidence(doc, &c) && used < len) {
		used += (size_t)snprintf(buf + used, len - used, "%s-i%lld,%lld",
					 used ? " " : "", c.max_iter, c.min_iter);
		/* netperf's default -I is 99,5: shown only when other. */
		if ((c.level != 99.0 || c.width_pct != 5.0) && used < len)
			snprintf(buf + used, len - used, " -I%g,%g", c.level, c.width_pct);
	}
}

/* A document of the members knobs and conf (either NULL: absent), stolen;
 * NULL when out of memory. */
static json_t *setup_doc(json_t *knobs, json_t *conf)
{
	json_t *doc = json_object();

	if (knobs)
		json_object_set_new(doc, RESULT_DOC_KEY_KNOBS, knobs);
	if (conf)
		json_object_set_new(doc, RESULT_DOC_KEY_CONFIDENCE, conf);
	return doc;
}

int store_list_setup(struct store *s, const struct store_run *runs, unsigned n,
		     struct store_setup *out, char *err)
{
	json_t *before = NULL;
	sqlite3_stmt *st;
	int rc;

	rc = store_prepare(s,
			   "SELECT json_extract(result, '" RESULT_DOC_PATH(RESULT_DOC_KEY_KNOBS) "'), "
			   "json_extract(result, '" RESULT_DOC_PATH(RESULT_DOC_KEY_CONFIDENCE) "'), "
			   "json_extract(result, '" RESULT_DOC_PATH(RESULT_DOC_KEY_LOCAL "."
						RESULT_DOC_KEY_SERVICE_DEMAND) "') IS NOT NULL, "
			   "json_extract(result, '" RESULT_DOC_PATH(RESULT_DOC_KEY_REMOTE "."
						RESULT_DOC_KEY_SERVICE_DEMAND) "') IS NOT NULL "
			   "FROM runs WHERE id = ?1",
			   &st, "list runs", err);
	if (rc)
		return rc;
	for (unsigned i = 0; i < n; i++) {
		json_t *knobs = NULL, *conf = NULL, *doc;
		bool lsd = false, rsd = false;
		const char *t;

		memset(&out[i], 0, sizeof(out[i]));
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, runs[i].id);
		/* A result that is not JSON: this run's fields stay empty. */
		if (sqlite3_step(st) == SQLITE_ROW) {
			t = (const char *)sqlite3_column_text(st, 0);
			knobs = t ? json_loads(t, 0, NULL) : NULL;
			t = (const char *)sqlite3_column_text(st, 1);
			conf = t ? json_loads(t, 0, NULL) : NULL;
			lsd = sqlite3_column_int(st, 2);
			rsd = sqlite3_column_int(st, 3);
		}
		doc = setup_doc(knobs, conf);
		setup_flags(lsd, rsd, doc, out[i].flags, sizeof(out[i].flags));
		if (before && knobs)
			setup_knobs_changed(before, doc, out[i].knobs, sizeof(out[i].knobs));
		/* Names and values from a file anyone may have written. */
		str_sanitize(out[i].knobs, sizeof(out[i].knobs));
		/* A run without a snapshot (failed early) leaves the one before. */
		if (knobs && doc) {
			json_decref(before);
			before = doc;
		} else {
			json_decref(doc);
		}
	}
	json_decref(before);
	sqlite3_finalize(st);
	return 0;
}
