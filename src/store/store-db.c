// SPDX-License-Identifier: GPL-2.0-or-later
/* store-db.c - the store's SQLite plumbing: statements, transactions, errors. */
#include "config.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/store-internal.h"
#include "core/util.h"

/*
 * Why SQLite could not open path: its own errno often names the last file
 * it tried (the -wal or -shm next to the database, in WAL mode), which
 * reads as "No such file or directory" when the directory is read-only.
 * Ask the file and its directory instead; the errno of the cause.
 */
static int cantopen_fail(const char *path, int sys, char *err)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", path);
	dirname(dir);
	if (access(path, F_OK) == 0 && access(path, R_OK | W_OK)) {
		sys = errno;
		return err_set(err, -sys, "%s: cannot open the database: the file is not writable (%s)",
			       path, strerror(sys));
	}
	if (access(dir, W_OK | X_OK)) {
		sys = errno;
		if (sys == ENOENT)
			return err_set(err, -sys, "%s: cannot open the database: its directory %s does not exist",
				       path, dir);
		return err_set(err, -sys, "%s: cannot open the database: its directory %s is not writable (%s); the database and its -wal and -shm files need it",
			       path, dir, strerror(sys));
	}
	sys = sys ? sys : EACCES;
	return err_set(err, -sys, "%s: cannot open the database (%s)", path,
		       strerror(sys));
}

/*
 * Turn an SQLite failure into -errno and one line naming the file, what
 * was being done and what to do about it.
 */
int store_fail(const struct store *s, int rc, const char *what, char *err)
{
	const char *msg = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);
	int sys = s->db ? sqlite3_system_errno(s->db) : 0;
	char ctx[96] = "";

	if (what)
		snprintf(ctx, sizeof(ctx), "%s: ", what);
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return err_set(
			err, -EBUSY,
			"%s: %sdatabase is locked (another tunetop holds it for more than %g s); try again",
			s->path, ctx, s->timeout_ms / 1000.0);
	case SQLITE_FULL:
		return err_set(
			err, -ENOSPC,
			"%s: %sdisk full (%s); free space or choose another --db",
			s->path, ctx, msg);
	case SQLITE_NOTADB:
		return err_set(err, -EBADMSG, "%s: not a tunetop database (%s)",
			       s->path, msg);
	case SQLITE_CORRUPT:
		return err_set(
			err, -EBADMSG,
			"%s: %sdatabase is corrupt (%s); move it aside to start a new one",
			s->path, ctx, msg);
	case SQLITE_CANTOPEN:
		return cantopen_fail(s->path, sys, err);
	case SQLITE_READONLY:
		return err_set(err, -EROFS,
			       "%s: %sread-only (%s); choose a writable --db",
			       s->path, ctx, msg);
	case SQLITE_IOERR:
		if (sys == ENOSPC || sys == EDQUOT || sys == EFBIG)
			return err_set(
				err, -ENOSPC,
				"%s: %sdisk full (%s); free space or choose another --db",
				s->path, ctx, strerror(sys));
		sys = sys ? sys : EIO;
		return err_set(err, -sys, "%s: %sI/O error (%s)", s->path, ctx,
			       strerror(sys));
	case SQLITE_NOMEM:
		return err_set(err, -ENOMEM, "%s: %s%s", s->path, ctx, msg);
	case SQLITE_CONSTRAINT:
		return err_set(err, -EINVAL, "%s: %s%s", s->path, ctx, msg);
	default:
		return err_set(err, -EIO, "%s: %s%s", s->path, ctx, msg);
	}
}

/* Run SQL with no results. */
int store_exec(struct store *s, const char *sql, const char *what, char *err)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : store_fail(s, rc, what, err);
}

/* Prepare one statement. */
int store_prepare(struct store *s, const char *sql, sqlite3_stmt **st,
		  const char *what, char *err)
{
	int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);

	return rc == SQLITE_OK ? 0 : store_fail(s, rc, what, err);
}

/* Start a write transaction, taking the write lock now (or timing out). */
int store_tx_begin(struct store *s, const char *what, char *err)
{
	return store_exec(s, "BEGIN IMMEDIATE", what, err);
}

/* Commit when rc is 0, else roll back; returns rc or the commit's error. */
int store_tx_end(struct store *s, int rc, const char *what, char *err)
{
	if (rc == 0) {
		rc = store_exec(s, "COMMIT", what, err);
		if (rc == 0)
			return 0;
	}
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}
