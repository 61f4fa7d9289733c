// SPDX-License-Identifier: GPL-2.0-or-later
/* report-limits.c - the report's "what limited each run" and, for two runs, what moved between them. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include <jansson.h>

#include "report-internal.h"
#include "engine.h"
#include "svg.h"
#include "why-out.h"

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

/* Two runs: the throughput against the noise and what moved (why-change.h). */
void report_write_moved(FILE *f, const struct report *rp)
{
	const struct store_run *a = &rp->runs[0], *b = &rp->runs[1];
	struct why_change c;

	if (rp->n != 2 || a->failed || b->failed)
		return;
	/* Like with like: the verdict says why there is no comparison. */
	if (report_unit(a) != report_unit(b))
		return;
	store_why_change(a, b, &c);
	fprintf(f, "<h2>What moved from run %" PRId64 " to run %" PRId64 "</h2>\n", a->id, b->id);
	why_out_change(f, &c, b->units, WHY_OUT_HTML, "moved", WHY_CHANGE_MAX);
}
