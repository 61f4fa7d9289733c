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

/* Where the MSS of direction d came from, for the reader. */
static const char *mss_note(const struct seg_capture *c, int d)
{
	if (!c->mss[d])
		return NULL;
	return c->mss[d] == c->syn_mss[d] ? "SYN" : "TCP_INFO";
}

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
				.label = labels[e][k], .mss_note = mss_note(c, k),
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

json_t *output_capture_json(const struct end_result *e, bool udp)
{
	const struct seg_capture *c = e->cap;
	json_t *j, *dirs[CAP_NDIRS];

	if (!c)
		return json_null();
	for (int k = 0; k < CAP_NDIRS; k++) {
		struct segout_dir d = {
			.label = k == CAP_OUT ? "sent" : "received", .mss_note = mss_note(c, k),
			.h = &c->dir[k], .mss = c->mss[k], .udp = udp,
		};

		dirs[k] = segout_json(&d);
	}
	j = json_pack("{s:s, s:s, s:s, s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I}, s:b, s:o?, s:o?}",
		      "dev", c->dev, "filter", c->filter, "warning", c->warning,
		      "counts",
		      "seen", (json_int_t)c->n.seen, "counted", (json_int_t)c->n.counted,
		      "unparsed", (json_int_t)c->n.unparsed,
		      "kernel_recv", (json_int_t)c->n.kernel_recv,
		      "kernel_drop", (json_int_t)c->n.kernel_drop,
		      "if_drop", (json_int_t)c->n.if_drop,
		      "table_full", (json_int_t)c->n.table_full,
		      "dropped", c->n.kernel_drop + c->n.if_drop > 0,
		      "sent", dirs[CAP_OUT], "received", dirs[CAP_IN]);
	return j ? j : json_null();
}
