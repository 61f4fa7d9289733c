/* SPDX-License-Identifier: GPL-2.0-or-later */
/* why-change.h - what moved between two runs: the mechanisms, largest first. */
#ifndef TT_WHY_CHANGE_H
#define TT_WHY_CHANGE_H

#include <stdbool.h>

#include <jansson.h>

#include "session/why.h"

#define WHY_CHANGE_MAX 12
#define WHY_KNOBS_MAX 16

/* One measured mechanism that moved between run A and run B. */
struct why_moved {
	char what[96];			/* "segments per transaction, client out" */
	double a, b;
	double score;			/* how far it moved: log of the ratio, or 2 x a share's */
	char text[WHY_EVIDENCE_MAX];	/* "segments per transaction, client out: 1.00 -> 3.00 (+200 %)" */
};

/* One knob whose snapshot value differs between run A and run B. */
struct why_knob_change {
	char end[8];			/* "local", "remote" */
	char name[48];			/* "gro", "net.ipv4.tcp_rmem" */
	char group[24];			/* the catalog's group: "offloads", "coalescing" */
	char a[64], b[64];		/* values; "n/a" none, "(not recorded)" absent */
	char text[WHY_EVIDENCE_MAX];	/* "remote gro: off -> on" */
};

struct why_change {
	double thr_a, thr_b;		/* throughput of each (its units) */
	double change_pct;		/* (B - A) / A; NAN n/a */
	double noise;			/* k x their combined noise (sweep-policy's rule), in units */
	bool beyond_noise;		/* |B - A| > noise */
	bool knobs_recorded;		/* both runs have a knob snapshot of an end */
	unsigned nknobs;		/* knobs that differ, local end first, listed */
	unsigned knobs_more;		/* ... and this many more, beyond WHY_KNOBS_MAX */
	struct why_knob_change k[WHY_KNOBS_MAX];
	unsigned n;			/* moved mechanisms, largest first */
	struct why_moved m[WHY_CHANGE_MAX];
	char note[WHY_EVIDENCE_MAX];	/* what could not be compared and why; "" none */
};

/*
 * Compare two run documents (`tunetop run --json`, the store's result):
 * the knobs whose snapshot values differ (both ends), the throughput
 * against its noise (each run's confidence half-width ci_*
 * when it iterated, else the spread of its tick rates sd_*, never below
 * the floor: sweep_policy_noise()), and every mechanism of the table in
 * why-change.c that moved by at least its threshold (docs/why.md).  A
 * mechanism's score is symmetric: B against A scores as A against B.
 */
void why_change(const json_t *a, const json_t *b, double ci_a, double sd_a,
		double ci_b, double sd_b, struct why_change *out);

#endif
