/* SPDX-License-Identifier: GPL-2.0-or-later */
/* segout.h - segment-size histograms in the human, CSV and JSON forms of tunetop run. */
#ifndef TT_SEGOUT_H
#define TT_SEGOUT_H

#include <jansson.h>
#include <stdio.h>

#include "engine.h"

/* One direction to print. */
struct segout_dir {
	const char *label;		/* "local sent", "198.18.0.1:40000 > 198.18.0.2:5001" */
	const char *mss_note;		/* where the MSS came from ("TCP_INFO", "SYN", "--mss"), or NULL */
	const struct seghist *h;	/* compact (size-sorted) */
	uint32_t mss;			/* 0: unknown, sizes are not classified */
	bool udp;			/* datagram sizes: no ACKs, no MSS classes */
};

/*
 * Human: per direction a heading line with the totals, a line of the
 * classes (below MSS / = MSS / super-segments, multiples or not, with
 * counts and percentages of data segments; pure ACKs and SYN/FIN/RST
 * apart), then a table size | count | % | class, sizes ascending.  At most
 * max_rows sizes are listed (the commonest, shown in size order) and one
 * line says how many sizes and segments were left out; 0 = all.
 */
void segout_human(FILE *f, const struct segout_dir *d, unsigned n, unsigned max_rows);
/* CSV: a header line "direction,size,count,class" (with no_header false),
 * then one row per size per direction; the label is quoted as CSV needs. */
void segout_csv(FILE *f, const struct segout_dir *d, unsigned n, bool no_header);
/*
 * JSON of one direction: {"label", "mss", "mss_source", "packets", "acks",
 * "ctl", "data", "bytes", "classes": {"below-mss": {"segments", "bytes"},
 * ...}, "largest", "commonest", "sizes": [[size, count], ...]}.  A new
 * reference, NULL when out of memory.
 */
json_t *segout_json(const struct segout_dir *d);

#endif
