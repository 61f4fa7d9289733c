// SPDX-License-Identifier: GPL-2.0-or-later
/* report-segments.c - the report's segment-size histograms, one per capture direction. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report-internal.h"
#include "engine.h"
#include "svg.h"

/* Bars per segment-size histogram: the commonest sizes, as the dashboard. */
#define REPORT_SEG_BARS 12
/* Captured runs whose histograms are drawn: four charts each (docs/report.md). */
#define REPORT_SEG_RUNS 4

/* Segment classes as the dashboard tells them apart. */
static const char *const seg_colour[SEG_NCLASSES] = {
	[SEG_BELOW_MSS] = "#4e79a7",
	[SEG_AT_MSS] = "#59a14f",
	[SEG_SUPER_MULTIPLE] = "#f28e2b",
	[SEG_SUPER_OTHER] = "#b07aa1",
	[SEG_UNCLASSIFIED] = "#9d9d9d",
};
static const char *const seg_legend[SEG_NCLASSES] = {
	[SEG_BELOW_MSS] = "below MSS",
	[SEG_AT_MSS] = "= MSS",
	[SEG_SUPER_MULTIPLE] = "super-segment, MSS multiple",
	[SEG_SUPER_OTHER] = "super-segment, not a multiple",
	[SEG_UNCLASSIFIED] = "MSS unknown",
};

/* One bar of a segment-size histogram. */
struct segbar {
	uint32_t size;
	double count;
};

static int segbar_by_count(const void *a, const void *b)
{
	const struct segbar *pa = a, *pb = b;

	if (pa->count != pb->count)
		return pa->count < pb->count ? 1 : -1;
	return (pa->size > pb->size) - (pa->size < pb->size);
}

static int segbar_by_size(const void *a, const void *b)
{
	const struct segbar *pa = a, *pb = b;

	return (pa->size > pb->size) - (pa->size < pb->size);
}

/* The bars of the commonest sizes of one direction of one end's capture. */
static void write_segplot(FILE *f, const struct store_run *r, const char *end, const char *dir,
			  const json_t *d)
{
	size_t nsz = result_doc_seg_nsizes(d), nb = 0;
	double mssd = result_doc_seg_mss(d), data = result_doc_seg_data(d);
	uint32_t mss = isfinite(mssd) && mssd > 0 ? (uint32_t)mssd : 0;
	struct segbar *bars = calloc(nsz + 1, sizeof(*bars));
	char (*cats)[40] = NULL, id[96], title[200], buf[24];
	bool present[SEG_NCLASSES] = { false };
	struct svg_plot_spec s = { 0 };
	double ymax = 0, shown = 0;
	unsigned nleg = 0;
	struct svg_plot p;

	snprintf(id, sizeof(id), "plot-segments-%" PRId64 "-%s-%s", r->id, end, dir);
	for (size_t i = 0; bars && i < nsz; i++) {
		double sz, c;

		result_doc_seg_size(d, i, &sz, &c);

		if (isfinite(sz) && sz >= 0 && sz <= UINT32_MAX && isfinite(c) && c > 0)
			bars[nb++] = (struct segbar){ .size = (uint32_t)sz, .count = c };
	}
	if (!nb) {
		fprintf(f, "<p class=\"note\" id=\"%s\">Run %" PRId64 ", %s end, %s: no data segments captured.</p>\n",
			id, r->id, end, dir);
		free(bars);
		return;
	}
	qsort(bars, nb, sizeof(*bars), segbar_by_count);
	if (nb > REPORT_SEG_BARS)
		nb = REPORT_SEG_BARS;
	qsort(bars, nb, sizeof(*bars), segbar_by_size);
	cats = calloc(nb, sizeof(*cats));
	if (!cats) {
		free(bars);
		return;
	}
	for (size_t i = 0; i < nb; i++) {
		enum seg_class k = seg_class_of(bars[i].size, mss);
		uint32_t size = bars[i].size;

		present[k] = true;
		ymax = fmax(ymax, bars[i].count);
		shown += bars[i].count;
		if (k == SEG_AT_MSS)
			snprintf(cats[i], sizeof(cats[i]), "%u\n=MSS", size);
		else if (k == SEG_SUPER_MULTIPLE)
			snprintf(cats[i], sizeof(cats[i]), "%u\n%uxMSS", size, size / mss);
		else if (k == SEG_SUPER_OTHER)
			snprintf(cats[i], sizeof(cats[i]), "%u\n%ux%s+%u", size, size / mss,
				 nb > 8 ? "" : "MSS", size % mss);
		else
			snprintf(cats[i], sizeof(cats[i]), "%u", size);
	}
	for (int k = 0; k < SEG_NCLASSES; k++)
		nleg += present[k];
	snprintf(title, sizeof(title), "Run %" PRId64 ", %s end, %s: %s data segments, MSS %s",
		 r->id, end, dir, svg_fmt_fix(data, 0, buf, sizeof(buf)), mss ? "" : "unknown");
	if (mss)
		snprintf(title + strlen(title), sizeof(title) - strlen(title), "%u", mss);
	s = (struct svg_plot_spec){ .id = id, .title = title, .xlabel = "payload size, bytes (the commonest)",
				.ylabel = "segments", .x0 = -0.5, .x1 = nb - 0.5,
				.y1 = units_axis_top(ymax * 1.1), .xcats = cats, .ncats = (unsigned)nb,
				.nlegend = nleg + 1 };
	svg_plot_open(&p, f, &s);
	for (size_t i = 0; i < nb; i++) {
		double bw = (SVG_PLOT_W - SVG_PLOT_ML - SVG_PLOT_MR) / (double)nb * 0.7;
		double px = svg_plot_x(&p, (double)i) - bw / 2, py = svg_plot_y(&p, bars[i].count);

		fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>",
			px, py, bw, svg_plot_y(&p, 0) - py, seg_colour[seg_class_of(bars[i].size, mss)]);
		svg_escf(f, "%u bytes: %.0f segments", bars[i].size, bars[i].count);
		fprintf(f, "</title></rect>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">",
			px + bw / 2, py - 3);
		if (data > 0)
			fprintf(f, "%.0f%%", bars[i].count / data * 100);
		fputs("</text>\n", f);
	}
	for (int k = 0; k < SEG_NCLASSES; k++)
		if (present[k])
			svg_plot_legend(&p, seg_colour[k], NULL, true, seg_legend[k]);
	snprintf(title, sizeof(title), "the %zu sizes shown hold %.0f%% of the data segments", nb,
		 data > 0 ? shown / data * 100 : 100);
	svg_plot_legend(&p, "#ffffff", NULL, true, title);
	svg_plot_close(&p);
	free(cats);
	free(bars);
}

/*
 * Per captured run, end and direction the segment-size histogram: up to
 * REPORT_SEG_RUNS runs (four charts each), picked as the charts over time
 * pick theirs; the runs not captured in one line.  0 or -ENOMEM.
 */
int report_write_segments(FILE *f, const struct report *rp)
{
	static const struct {
		int dir;
		const char *name;
	} dirs[] = { { CAP_OUT, "sent" }, { CAP_IN, "received" } };
	unsigned *cand = calloc(rp->n + 1, sizeof(*cand));
	int64_t *bare = calloc(rp->n + 1, sizeof(*bare));
	unsigned n = 0, nbare = 0, shown;
	char left[512];

	if (!cand || !bare) {
		free(cand);
		free(bare);
		return -ENOMEM;
	}
	fputs("<h2>Segment sizes</h2>\n", f);
	for (unsigned i = 0; i < rp->n; i++) {
		const json_t *res = rp->runs[i].result;

		if (result_doc_capture(res, result_doc_ends[0]) ||
		    result_doc_capture(res, result_doc_ends[1]))
			cand[n++] = i;
		else
			bare[nbare++] = rp->runs[i].id;
	}
	if (nbare) {
		report_ids_text(bare, nbare, left, sizeof(left));
		fputs("<p class=\"note\" id=\"segments-none\">", f);
		svg_escf(f, "Not captured (tunetop run --capture): run%s %s.", nbare > 1 ? "s" : "",
			 left);
		fputs("</p>\n", f);
	}
	shown = report_pick_runs(rp, cand, n, REPORT_SEG_RUNS, left, sizeof(left));
	for (unsigned i = 0; i < shown; i++) {
		const struct store_run *r = &rp->runs[cand[i]];

		for (unsigned e = 0; e < 2; e++) {
			const char *end = result_doc_ends[e];

			if (!result_doc_capture(r->result, end)) {
				fprintf(f, "<p class=\"note\">Run %" PRId64 ", %s end: not captured (tunetop run --capture).</p>\n",
					r->id, end);
				continue;
			}
			for (unsigned d = 0; d < 2; d++)
				write_segplot(f, r, end, dirs[d].name,
					      result_doc_capture_dir(r->result, end, dirs[d].dir));
		}
	}
	report_pick_note(f, "segments", shown, n, REPORT_SEG_RUNS, "captured runs' histograms",
			 left);
	free(cand);
	free(bare);
	return 0;
}
