// SPDX-License-Identifier: GPL-2.0-or-later
/* report-limits.c - the report's "what limited each run": the stored why verdicts. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include <jansson.h>

#include "report-internal.h"
#include "engine.h"
#include "svg.h"

void report_write_limits(FILE *f, const struct report *rp)
{
	char err[ERR_MAX];

	fputs("<h2>What limited each run</h2>\n<table id=\"limits\">\n<tr><th>run</th><th>verdicts, best first (docs/why.md)</th></tr>\n",
	      f);
	for (unsigned i = 0; i < rp->n; i++) {
		const struct store_run *r = &rp->runs[i];
		struct why_report w;

		fprintf(f, "<tr id=\"limits-%" PRId64 "\"><td class=\"num\">%" PRId64 "</td><td>",
			r->id, r->id);
		if (r->failed)
			fputs("the run failed: not judged", f);
		else if (!r->limits)
			fputs("not judged (stored before tunetop named limits)", f);
		else if (why_report_from_json(r->limits, &w, err))
			svg_escf(f, "unreadable: %s", err);
		else {
			fputs("<ol>", f);
			for (unsigned k = 0; k < w.n; k++) {
				fputs("<li>", f);
				svg_esc(f, w.v[k].evidence);
				fputs("</li>", f);
			}
			fputs("</ol>", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}
