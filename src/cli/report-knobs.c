// SPDX-License-Identifier: GPL-2.0-or-later
/* report-knobs.c - the report's table of the knobs that differ between its runs. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report-internal.h"
#include "engine.h"
#include "svg.h"

/* A knob's value as text, "n/a" for null; NULL when the run lacks the knob. */
static char *knob_text(const json_t *k)
{
	const json_t *v = json_object_get(k, KNOBS_KEY_VALUE);

	if (!k)
		return NULL;
	if (json_is_string(v))
		return strdup(json_string_value(v));
	if (!v || json_is_null(v))
		return strdup("n/a");
	return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
}

/* Whether run j's value differs from the reference run's (both have knob lists). */
static bool knob_differs(const json_t **lists, char **vals, unsigned j, unsigned ref)
{
	if (j == ref || !lists[j] || !lists[ref])
		return false;
	if (!vals[j] || !vals[ref])
		return vals[j] != vals[ref];
	return strcmp(vals[j], vals[ref]) != 0;
}

/* One row of the diff: the knob, its end and unit, each run's value. */
static void knob_row(FILE *f, const struct report *rp, const char *end, const char *name,
		     const json_t **lists, char **vals, unsigned ref)
{
	const char *unit = NULL;

	for (unsigned j = 0; j < rp->n && !unit; j++)
		unit = result_doc_knob_unit(result_doc_knob(lists[j], name));
	fputs("<tr><td>", f);
	svg_esc(f, name);
	fprintf(f, "</td><td>%s</td><td>", end);
	svg_esc(f, unit);
	fputs("</td>", f);
	for (unsigned j = 0; j < rp->n; j++) {
		const char *reason = result_doc_knob_reason(result_doc_knob(lists[j], name));

		fprintf(f, "<td class=\"%s%s\"", knob_differs(lists, vals, j, ref) ? "diff" : "same",
			vals[j] ? "" : " absent");
		if (reason) {
			fputs(" title=\"", f);
			svg_esc(f, reason);
			fputc('"', f);
		}
		fputc('>', f);
		svg_esc(f, vals[j] ? vals[j] : lists[j] ? "absent" : "not recorded");
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

/*
 * The rows of the knobs of one end whose values differ between the runs
 * that recorded that end's knobs, against the first of them; the number
 * of rows, or -ENOMEM.
 */
static int knob_rows(FILE *f, const struct report *rp, const char *end, unsigned *ref)
{
	const json_t **lists = calloc(rp->n, sizeof(*lists));
	char **vals = calloc(rp->n, sizeof(*vals));
	json_t *seen = json_object();
	int rows = -ENOMEM;

	*ref = 0;
	if (!lists || !vals || !seen)
		goto out;
	rows = 0;
	for (unsigned i = rp->n; i--;) {
		lists[i] = result_doc_knob_list(rp->runs[i].result, end);
		*ref = lists[i] ? i : *ref;
	}
	for (unsigned i = 0; i < rp->n && rows >= 0; i++) {
		size_t ki;
		json_t *k;

		json_array_foreach(lists[i], ki, k) {
			const char *name = result_doc_knob_name(k);
			bool differ = false;

			if (!name || json_object_get(seen, name))
				continue;
			if (json_object_set_new(seen, name, json_true())) {
				rows = -ENOMEM;
				break;
			}
			for (unsigned j = 0; j < rp->n; j++) {
				const json_t *kj = result_doc_knob(lists[j], name);

				vals[j] = knob_text(kj);
				if (kj && !vals[j])
					rows = -ENOMEM;
			}
			for (unsigned j = 0; j < rp->n; j++)
				differ |= knob_differs(lists, vals, j, *ref);
			if (differ && rows >= 0) {
				knob_row(f, rp, end, name, lists, vals, *ref);
				rows++;
			}
			for (unsigned j = 0; j < rp->n; j++) {
				free(vals[j]);
				vals[j] = NULL;
			}
		}
	}
out:
	json_decref(seen);
	free(lists);
	free(vals);
	return rows;
}

/* The table of knobs that differ between the runs, both ends. */
int report_write_knob_diff(FILE *f, const struct report *rp)
{
	unsigned lref, rref;
	char *body = NULL;
	size_t len = 0;
	int lrows, rrows;
	FILE *m;

	fputs("<h2>Knobs that differ</h2>\n", f);
	if (rp->n < 2) {
		fputs("<p class=\"note\" id=\"knob-diff\">One run: nothing to compare.</p>\n", f);
		return 0;
	}
	m = open_memstream(&body, &len);
	if (!m)
		return -errno;
	lrows = knob_rows(m, rp, result_doc_ends[0], &lref);
	rrows = knob_rows(m, rp, result_doc_ends[1], &rref);
	if (fclose(m) || lrows < 0 || rrows < 0) {
		free(body);
		return -ENOMEM;
	}
	if (!lrows && !rrows) {
		fputs("<p class=\"note\" id=\"knob-diff\">No knob differs between these runs.</p>\n", f);
		free(body);
		return 0;
	}
	fputs("<table id=\"knob-diff\" class=\"knobs\">\n<caption>", f);
	if (lref == rref)
		svg_escf(f, "Highlighted: differs from run %" PRId64, rp->runs[lref].id);
	else
		svg_escf(f, "Highlighted: differs from run %" PRId64 " (local end), run %" PRId64
		     " (remote end)", rp->runs[lref].id, rp->runs[rref].id);
	fputs(", the first to record the knobs; hover an n/a for its reason.", f);
	fputs("</caption>\n<tr><th>knob</th><th>end</th><th>unit</th>", f);
	for (unsigned i = 0; i < rp->n; i++)
		fprintf(f, "<th>run %" PRId64 "</th>", rp->runs[i].id);
	fputs("</tr>\n", f);
	fwrite(body, 1, len, f);
	fputs("</table>\n", f);
	free(body);
	return 0;
}
