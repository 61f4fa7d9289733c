// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * store-why.c - what moved between two stored runs: why_change() over
 * their documents, with the noise the store knows of them: their -i
 * intervals and the history of their setup (docs/why.md).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <jansson.h>

#include "core/util.h"
#include "session/why-change.h"
#include "store/store-internal.h"
#include "store/store-why.h"

void store_why_change(const struct store_run *a, const struct store_run *b,
		      struct why_change *out)
{
	struct why_noise n = { .ci_a = store_result_ci(a->result),
			       .ci_b = store_result_ci(b->result) };

	why_change(a->result, b->result, &n, out);
}

/*
 * The runs of r's setup up to id upto, newest first: the same test and
 * parameters (params_key), the same target, not failed; their knobs are
 * compared by the caller.
 */
#define STORE_WHY_HIST_SQL(col)                                                     \
	"SELECT c." col ", c.result FROM runs c, runs r WHERE r.id = ?1 "           \
	"AND c.params_key = r.params_key AND c.target_short = r.target_short "     \
	"AND c.failed = 0 AND c." col " IS NOT NULL AND c.id <= ?2 "               \
	"ORDER BY c.id DESC LIMIT ?3"

static const char *const store_why_sql[] = {
	[SWF_THROUGHPUT] = STORE_WHY_HIST_SQL("throughput"),
	[SWF_P50] = STORE_WHY_HIST_SQL("p50_us"),
	[SWF_P99] = STORE_WHY_HIST_SQL("p99_us"),
};

int store_why_history(struct store *s, const struct store_run *r, enum store_why_fig fig,
		      int64_t upto, double *out, unsigned max, unsigned *n, char *err)
{
	sqlite3_stmt *st;
	int rc;

	*n = 0;
	rc = store_prepare(s, store_why_sql[fig], &st, "read the history of a setup", err);
	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, r->id);
	sqlite3_bind_int64(st, 2, upto);
	sqlite3_bind_int(st, 3, (int)(max * 2));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && *n < max) {
		const char *text = (const char *)sqlite3_column_text(st, 1);
		json_t *doc = text ? json_loads(text, 0, NULL) : NULL;

		if (doc && why_change_same_knobs(r->result, doc))
			out[(*n)++] = sqlite3_column_double(st, 0);
		json_decref(doc);
	}
	rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_fail(s, rc, "read the history of a setup", err);
	sqlite3_finalize(st);
	return rc;
}

int store_why_change_hist(struct store *s, const struct store_run *a, const struct store_run *b,
			  struct why_change *out, char *err)
{
	double hist[STORE_WHY_HIST];
	int64_t upto = a->id > b->id ? a->id : b->id;
	struct why_noise n = { .ci_a = store_result_ci(a->result),
			       .ci_b = store_result_ci(b->result), .hist = hist };
	int rc;

	rc = store_why_history(s, a, SWF_THROUGHPUT, upto, hist, STORE_WHY_HIST, &n.nhist, err);
	if (!rc && n.nhist < verdict_rule.min_history)
		rc = store_why_history(s, b, SWF_THROUGHPUT, upto, hist, STORE_WHY_HIST, &n.nhist, err);
	if (rc)
		n.nhist = 0;
	why_change(a->result, b->result, &n, out);
	return rc;
}
