// SPDX-License-Identifier: GPL-2.0-or-later
/* output-why.c - what limits the run (the engine's why rules) in the results of `tunetop run`. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "engine.h"
#include "output.h"

void output_why_human(FILE *f, const struct session_result *res)
{
	const struct why_report *w = &res->why;

	if (!w->n)
		return;
	fprintf(f, "What limits this run (best first; docs/why.md):\n");
	for (unsigned i = 0; i < w->n; i++)
		fprintf(f, "  %u. %s\n", i + 1, w->v[i].evidence);
}

int output_why_json(json_t *doc, const struct session_result *res)
{
	json_t *a = why_report_to_json(&res->why);
	struct why_input in;

	if (!a || json_object_set_new(doc, "limits", a))
		return -ENOMEM;
	/* each end's limiter figures, per flow, under "local" and "remote" */
	why_input_result(&in, &res->p, res, 0);
	for (unsigned i = 0; i < 2; i++) {
		json_t *end = json_object_get(doc, i ? "remote" : "local");

		if (!json_is_object(end))
			continue;
		a = why_end_to_json(i ? &in.remote : &in.local);
		if (!a || json_object_set_new(end, "limiter", a))
			return -ENOMEM;
	}
	return 0;
}
