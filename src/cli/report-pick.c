// SPDX-License-Identifier: GPL-2.0-or-later
/* report-pick.c - which runs a report's chart draws when it cannot draw them all (docs/report.md). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "report-internal.h"
#include "svg.h"

static int id_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

void report_ids_text(int64_t *id, unsigned n, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	qsort(id, n, sizeof(*id), id_cmp);
	for (unsigned i = 0, j; i < n && o < len; i = j) {
		for (j = i + 1; j < n && id[j] == id[j - 1] + 1; j++)
			;
		o += (size_t)snprintf(buf + o, len - o, "%s%" PRId64, i ? ", " : "", id[i]);
		if (j - i > 2 && o < len)
			o += (size_t)snprintf(buf + o, len - o, "-%" PRId64, id[j - 1]);
		else if (j - i == 2 && o < len)
			o += (size_t)snprintf(buf + o, len - o, ", %" PRId64, id[j - 1]);
	}
}

/* Why a run was kept in a selection (pick_runs). */
enum pick_why { PICK_NO, PICK_CLIFF, PICK_END, PICK_EXTREME, PICK_SPREAD };

unsigned report_pick_runs(const struct report *rp, unsigned *cand, unsigned n, unsigned max,
			  char *left, size_t leftlen)
{
	enum pick_why *why = calloc(n + 1, sizeof(*why));
	int64_t *out = calloc(n + 1, sizeof(*out));
	unsigned kept = 0, hi = 0, lo = 0, o = 0, nout = 0;

	if (left && leftlen)
		left[0] = '\0';
	if (n <= max || !why || !out) {
		free(why);
		free(out);
		return n < max ? n : max;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct store_run *r = &rp->runs[cand[i]];

		if (r->throughput > rp->runs[cand[hi]].throughput)
			hi = i;
		if (r->throughput < rp->runs[cand[lo]].throughput)
			lo = i;
	}
#define KEEP(i, w) do { if (!why[i] && kept < max) { why[i] = (w); kept++; } } while (0)
	for (unsigned i = 0; i < n; i++)
		if (rp->cliff && rp->cliff[cand[i]])
			KEEP(i, PICK_CLIFF);
	KEEP(0, PICK_END);
	KEEP(n - 1, PICK_END);
	KEEP(hi, PICK_EXTREME);
	KEEP(lo, PICK_EXTREME);
	/* Evenly spread: halve the gaps until the chart is full. */
	for (unsigned step = n / 2; step && kept < max; step /= 2)
		for (unsigned i = step; i < n && kept < max; i += step)
			KEEP(i, PICK_SPREAD);
	for (unsigned i = 0; i < n && kept < max; i++)
		KEEP(i, PICK_SPREAD);
#undef KEEP
	for (unsigned i = 0; i < n; i++) {
		if (why[i])
			cand[o++] = cand[i];
		else
			out[nout++] = rp->runs[cand[i]].id;
	}
	if (left)
		report_ids_text(out, nout, left, leftlen);
	free(why);
	free(out);
	return o;
}

void report_pick_note(FILE *f, const char *id, unsigned shown, unsigned total, unsigned max,
		      const char *per, const char *left)
{
	if (shown == total)
		return;
	fprintf(f, "<p class=\"note omitted\" id=\"%s-omitted\">", id);
	svg_escf(f, "Drawn: %u of %u runs, at most %u %s: the cliffs and the points before them, the first and last, the highest and lowest, then evenly spread. Left out: run%s %s. Every run is in the Runs table; a report of fewer runs (tunetop report ID...) draws the others.",
		 shown, total, max, per, strchr(left, ',') || strchr(left, '-') ? "s" : "", left);
	fputs("</p>\n", f);
}

int report_mark_cliffs(struct report *rp)
{
	bool *cliff = calloc(rp->n + 1, sizeof(*cliff));

	if (!cliff)
		return -ENOMEM;
	rp->cliff = cliff;
	for (unsigned k = 0; k < rp->nsweeps; k++) {
		struct report_cliffs c;
		int ret = report_sweep_cliffs(rp, &rp->sweeps[k], &c);

		if (ret)
			return ret;
		for (unsigned j = 0; j < c.shown; j++)
			for (unsigned i = 0; i < rp->n; i++)
				cliff[i] |= &rp->runs[i] == c.c[j].run || &rp->runs[i] == c.c[j].before;
	}
	return 0;
}

