/* SPDX-License-Identifier: GPL-2.0-or-later */
/* segcap.h - one end's capture at one moment: counts and segment sizes. */
#ifndef TT_SEGCAP_H
#define TT_SEGCAP_H

#include <stdint.h>

#include "capture/seghist.h"
#include "core/util.h"

enum { CAP_OUT, CAP_IN, CAP_NDIRS };	/* sent by this end, received by it */

/* Counts of one capture: ours, and the kernel's from pcap_stats. */
struct cap_counts {
	uint64_t seen;			/* packets our callback got */
	uint64_t counted;		/* of those, parsed and counted */
	uint64_t unparsed;		/* not TCP/UDP over IP, or cut short */
	uint64_t kernel_recv;		/* pcap_stats ps_recv (only arriving ones when in_only) */
	uint64_t kernel_drop;		/* ps_drop: the ring was full */
	uint64_t if_drop;		/* ps_ifdrop */
	uint64_t table_full;		/* segments whose size found no histogram slot */
};

/* One end's capture at one moment (a tick, or the end of the run). */
struct seg_capture {
	char dev[32];			/* interface captured on */
	char filter[256];		/* the BPF filter in force */
	struct cap_counts n;
	struct seghist dir[CAP_NDIRS];	/* compact copies */
	uint32_t mss[CAP_NDIRS];	/* MSS of each direction's sender (TCP_INFO); 0 unknown */
	uint32_t syn_mss[CAP_NDIRS];	/* the same from the SYNs captured; 0 none seen */
	char warning[ERR_MAX];		/* pcap_activate's warning, or "" */
};

/* Deep copy / free of a snapshot. */
int seg_capture_copy(struct seg_capture *dst, const struct seg_capture *src);
void seg_capture_free(struct seg_capture *sc);
/* A heap copy of src, or NULL when out of memory. */
struct seg_capture *seg_capture_dup(const struct seg_capture *src);

#endif
