/* SPDX-License-Identifier: GPL-2.0-or-later */
/* store-why.h - what moved between two stored runs, with the noise the store knows. */
#ifndef TT_STORE_WHY_H
#define TT_STORE_WHY_H

#include "session/why-change.h"
#include "store/store.h"

/* At most this many runs of a setup make its history (the newest). */
#define STORE_WHY_HIST 30

/*
 * why_change() for two runs whose history is not at hand (the dashboard's
 * unsaved runs, a sweep's points): their -i intervals when they iterated,
 * else the verdict rule's prior.
 */
void store_why_change(const struct store_run *a, const struct store_run *b,
		      struct why_change *out);

/* The figures a setup's history is read of: the columns of runs list. */
enum store_why_fig { SWF_THROUGHPUT, SWF_P50, SWF_P99 };

/*
 * The figure fig (throughputs for store_why_change_hist()) of r's setup in the store, newest first, up to run id
 * upto: runs of the same test and parameters (store_params_key()), the
 * same target and the same knobs on both ends (why_change_same_knobs()),
 * r itself included, at most max into out[*n].  0 or -errno with err.
 */
int store_why_history(struct store *s, const struct store_run *r, enum store_why_fig fig,
		      int64_t upto, double *out, unsigned max, unsigned *n, char *err);

/*
 * why_change() for two stored runs with all the store knows of their
 * noise: their -i intervals, else the history of A's setup (B's when A's
 * has fewer than verdict_rule.min_history runs), else the prior.  This is
 * what `runs diff`, `runs check` and the report call for stored runs.
 * out is always filled; -errno with err when the history could not be
 * read (the verdict then used the prior).
 */
int store_why_change_hist(struct store *s, const struct store_run *a, const struct store_run *b,
			  struct why_change *out, char *err);

#endif
