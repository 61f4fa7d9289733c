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
