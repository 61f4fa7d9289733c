/* SPDX-License-Identifier: GPL-2.0-or-later */
/* store-save.h - a finished run into the history, as every front end keeps it. */
#ifndef TT_STORE_SAVE_H
#define TT_STORE_SAVE_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/params.h"
#include "session/session.h"
#include "store/store.h"

/* One tick of both ends into a series (store.h's layout; streams in 10^6 bits/s). */
void store_series_add_event(json_t *series, const struct session_event *ev, enum test_type type);

/* A finished run as a front end hands it to the store. */
struct store_finished {
	const struct test_params *p;	/* the test as asked for */
	const struct session_result *res;	/* the last iteration: target, units, CPUs, service demand */
	json_t *result;			/* the result document (`tunetop run --json`'s) */
	json_t *series;			/* the ticks (store_series_add_event), or NULL */
	double started;			/* wall clock of the first iteration's start */
	bool failed;
	double throughput;		/* as reported: the mean over the iterations */
	double lcpu, rcpu;		/* likewise, CPU utilisation % */
	const char *source;		/* "run", "dashboard", "sweep", "ab" */
	int64_t sweep_id;		/* the sweep or A/B it belongs to; 0 none */
	const char *point;		/* its point ("size=4345", "a"), or NULL */
};

/*
 * Store f in the database at path (NULL: the default); *id (may be NULL)
 * gets the new run's id.  0, or -errno with err.
 */
int store_save(const char *path, const struct store_finished *f, int64_t *id, char *err);

#endif
