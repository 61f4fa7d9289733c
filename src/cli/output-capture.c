// SPDX-License-Identifier: GPL-2.0-or-later
/* output-capture.c - the segment-size capture of both ends in the results of `tunetop run`. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "engine.h"
#include "output.h"
#include "segout.h"

/* Size rows per direction in the human form; --json has them all. */
#define CAPTURE_HUMAN_ROWS 12

/* The four directions of a run: each end's sent and received. */
static unsigned capture_dirs(const struct session_result *res, struct segout_dir *d)
{
	static const char *const labels[2][CAP_NDIRS] = {
		{ "local end sent", "local end received" },
		{ "remote end sent", "remote end received" },
	};
	bool udp = test_is_udp(res->p.type);
	unsigned n = 0;

	for (int e = 0; e < 2; e++) {
		const struct seg_capture *c = e ? res->remote.cap : res->local.cap;

		for (int k = 0; c && k < CAP_NDIRS; k++)
			d[n++] = (struct segout_dir){
				.label = labels[e][k], .mss_note = result_doc_mss_note(c, k),
				.h = &c->dir[k], .mss = c->mss[k], .udp = udp,
			};
	}
	return n;
}

/* One end's capture line: device, filter, counts, drops never hidden. */
static void capture_line(FILE *f, const char *end, const struct end_result *e)
{
	const struct seg_capture *c = e->cap;
	uint64_t drops;

	if (!c) {
		if (e->cap_note[0])
			fprintf(f, "Capture, %s end: none: %s\n", end, e->cap_note);
		return;
	}
	drops = c->n.kernel_drop + c->n.if_drop;
	fprintf(f, "Capture, %s end: %s, filter \"%s\": %" PRIu64 " packets counted",
		end, c->dev, c->filter, c->n.counted);
	if (c->n.unparsed)
		fprintf(f, ", %" PRIu64 " not TCP/UDP over IP", c->n.unparsed);
	fprintf(f, ", %s\n", drops ? "SOME DROPPED" : "none dropped");
	if (drops)
		fprintf(f, "!!! Capture, %s end: %" PRIu64 " packets dropped (kernel ring %" PRIu64
			", interface %" PRIu64 "): the histograms below miss them\n",
			end, drops, c->n.kernel_drop, c->n.if_drop);
	if (c->n.table_full)
		fprintf(f, "!!! Capture, %s end: %" PRIu64 " segments of sizes beyond the %u kept\n",
			end, c->n.table_full, SEGHIST_MAX_BINS);
	if (c->warning[0])
		fprintf(f, "Capture, %s end: warning: %s\n", end, c->warning);
}

void output_capture_human(FILE *f, const struct session_result *res)
{
	struct segout_dir d[4];
	unsigned n;

	if (res->p.capture == CAPTURE_OFF)
		return;
	capture_line(f, "local", &res->local);
	capture_line(f, "remote", &res->remote);
	n = capture_dirs(res, d);
	if (!n)
		return;
	fprintf(f, "\nSegment sizes (payload bytes, from the IP and %s headers):\n",
		test_is_udp(res->p.type) ? "UDP" : "TCP");
	segout_human(f, d, n, CAPTURE_HUMAN_ROWS);
}
