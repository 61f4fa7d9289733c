// SPDX-License-Identifier: GPL-2.0-or-later
/* dashcliffs.c - a stored sweep's cliffs as the dashboard marks them, for tests. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"
#include "model.h"
#include "plan.h"

/*
 * Usage: dashcliffs DB SWEEP_ID
 *
 * Loads the sweep's runs from the history into the dashboard's model as
 * the dashboard loads its history (model_add_history), takes each as a
 * point of a dashboard sweep (plan_point_of_run) and ends the sweep as
 * the dashboard does (plan_sweep_summary).  Prints the status line, then
 * one "cliff POINT" line per cliff.  Exit 0, or 1 with a message.
 */
int main(int argc, char **argv)
{
	static struct sweep_policy_pt pt[SWEEP_MAX_POINTS];
	struct store_filter f = { 0 };
	struct store_run *list = NULL;
	struct store *st = NULL;
	struct model m;
	char err[ERR_MAX] = "", kind[16], line[256];
	json_t *spec = NULL;
	unsigned n = 0, np = 0;
	uint64_t id;

	if (argc != 3 || parse_uint(argv[2], 1, INT64_MAX, &id)) {
		fprintf(stderr, "usage: dashcliffs DB SWEEP_ID\n");
		return 1;
	}
	f.sweep_id = (int64_t)id;
	model_init(&m);
	if (store_open(&st, argv[1], err) ||
	    store_get_sweep(st, f.sweep_id, kind, sizeof(kind), &spec, err) ||
	    store_list(st, &f, &list, &n, err)) {
		fprintf(stderr, "dashcliffs: %s\n", err);
		store_close(st);
		return 1;
	}
	json_decref(spec);
	for (unsigned i = 0; i < n && np < SWEEP_MAX_POINTS; i++) {
		struct store_run full;
		struct model_run *r;

		store_run_init(&full);
		if (store_get(st, list[i].id, &full, err) == 0 &&
		    (r = model_add_history(&m, &full)) != NULL) {
			snprintf(r->point, sizeof(r->point), "%s", full.point);
			pt[np] = (struct sweep_policy_pt){ .point = r->point };
			plan_point_of_run(r, &pt[np++]);
		}
		store_run_free(&full);
		store_run_free(&list[i]);
	}
	free(list);
	store_close(st);
	plan_sweep_summary(kind, pt, np, line, sizeof(line));
	printf("%s\n", line);
	for (unsigned i = 0; i < np; i++)
		if (pt[i].cliff)
			printf("cliff %s\n", pt[i].point);
	model_free(&m);
	return 0;
}
