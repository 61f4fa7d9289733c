/* SPDX-License-Identifier: GPL-2.0-or-later */
/* why-change.h - what moved between two runs: the mechanisms, largest first. */
#ifndef TT_WHY_CHANGE_H
#define TT_WHY_CHANGE_H

#include <stdbool.h>

#include <jansson.h>

#include "session/why.h"
#include "stats/verdict.h"

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
	struct verdict verdict;		/* the throughput of B against A's (verdict.h) */
	bool beyond_noise;		/* verdict BETTER or WORSE */
	bool unlike;			/* not the same test or unit: no verdict */
	bool knobs_recorded;		/* both runs have a knob snapshot of an end */
	unsigned nknobs;		/* knobs that differ, local end first, listed */
	unsigned knobs_more;		/* ... and this many more, beyond WHY_KNOBS_MAX */
	struct why_knob_change k[WHY_KNOBS_MAX];
	unsigned n;			/* moved mechanisms, largest first */
	struct why_moved m[WHY_CHANGE_MAX];
	char note[WHY_EVIDENCE_MAX];	/* what could not be compared and why; "" none */
};

/*
 * What is known of the noise between runs of the two setups compared
 * (verdict.h): each run's confidence half-width when it iterated (-i/-I,
 * NAN none), and the throughputs of earlier runs of the same test,
 * parameters, target and knobs (store_why_history()).
 */
struct why_noise {
	double ci_a, ci_b;
	const double *hist;
	unsigned nhist;
};

/*
 * Compare two run documents (`tunetop run --json`, the store's result):
 * the knobs whose snapshot values differ (both ends), the throughput of B
 * against A's by the one verdict rule (verdict_judge() with noise; NULL:
 * nothing known, the rule's prior) -- only between runs of the same test
 * and unit, else unlike is set, the verdict "can't tell" and its reason
 * names both tests -- and every mechanism of the table in why-change.c
 * that moved by at least its threshold (docs/why.md).  A mechanism's
 * score is symmetric: B against A scores as A against B.
 */
void why_change(const json_t *a, const json_t *b, const struct why_noise *noise,
		struct why_change *out);

/*
 * The test options that differ between two runs' params (params_to_json()),
 * as the user types them: "-S 8192 -> 65536, -b 0 -> 7" into buf ("" none).
 * Returns how many differ.
 */
unsigned why_change_params(const json_t *pa, const json_t *pb, char *buf, size_t len);

/* Whether the knob snapshots of a and b agree on both ends (both recorded). */
bool why_change_same_knobs(const json_t *a, const json_t *b);

#endif
