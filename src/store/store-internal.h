/* SPDX-License-Identifier: GPL-2.0-or-later */
/* store-internal.h - shared by the store's files, not store.h: handle, SQL helpers. */
#ifndef TT_STORE_INTERNAL_H
#define TT_STORE_INTERNAL_H

#include <limits.h>
#include <stdint.h>

#include <sqlite3.h>

#include "store/store.h"

/* An open database: the connection, its busy timeout and its file. */
struct store {
	sqlite3 *db;
	unsigned timeout_ms;
	char path[PATH_MAX];
};

/*
 * Turn an SQLite failure into -errno and one line naming the file, what
 * was being done (what, NULL for nothing) and what to do about it.
 */
int store_fail(const struct store *s, int rc, const char *what, char *err);
/* Run SQL with no results.  0 or -errno with err. */
int store_exec(struct store *s, const char *sql, const char *what, char *err);
/* Prepare one statement.  0 or -errno with err. */
int store_prepare(struct store *s, const char *sql, sqlite3_stmt **st,
		  const char *what, char *err);
/* Start a write transaction, taking the write lock now (or timing out). */
int store_tx_begin(struct store *s, const char *what, char *err);
/* Commit when rc is 0, else roll back; returns rc or the commit's error. */
int store_tx_end(struct store *s, int rc, const char *what, char *err);

/*
 * Look before writing anything, in a read transaction: read the schema
 * version into *version, refusing a garbage file, a version newer than
 * ours and another application's database, all left untouched.
 */
int store_schema_check(struct store *s, int64_t *version, char *err);
/* Switch the database to WAL mode (waiting out another opener). */
int store_schema_set_wal(struct store *s, char *err);
/* Register the SQL functions the migration steps call. */
int store_schema_add_functions(struct store *s, char *err);
/* Migrate to STORE_SCHEMA_VERSION, one write transaction per step. */
int store_schema_migrate(struct store *s, char *err);

#endif
