/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep.h - the points of the seeds' sweeps, knob value lists, and cliffs in a curve. */
#ifndef TT_SWEEP_H
#define TT_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "core/util.h"

#define SWEEP_MAX_POINTS 256

/*
 * Seed 000's packet_byte_script: 1, 2, 4, ... (powers of two) below the
 * MSS, then MSS, MSS+1, 2MSS, 2MSS+1, 3MSS, 3MSS+1.  Returns the count
 * (<= max) written to out, or -EINVAL for mss 0.
 */
int sweep_sizes(uint32_t mss, uint32_t *out, unsigned max);

/* A list of unsigned integers "0,1,2,4,16" (sizes may carry K/M/G). -EINVAL with err. */
int sweep_parse_list(const char *s, uint64_t *out, unsigned max, unsigned *n, char *err);

/* The end a swept knob is set on: local:, remote: or both: alike per point. */
enum sweep_end { SWEEP_END_LOCAL, SWEEP_END_REMOTE, SWEEP_END_BOTH };

/*
 * "[local:|remote:|both:]NAME=V1,V2,...": *end from the prefix (none is
 * local), returns the spec after it.  The one parser of the end for the
 * CLI's and the dashboard's sweeps.
 */
const char *sweep_knob_end(const char *spec, enum sweep_end *end);
/* The prefix sweep_knob_end() reads for end: "local:", "remote:", "both:". */
const char *sweep_end_prefix(enum sweep_end end);
/*
 * The ends a setting of end is made on, as remote flags into remote[]
 * (the same table as the prefixes): local: one (false), remote: one
 * (true), both: two (false, true).  Returns how many.
 */
unsigned sweep_end_sides(enum sweep_end end, bool remote[2]);

/*
 * The point of a one-knob sweep as every front end names it (and the
 * history keeps it, 63 characters at most): "NAME=V", "remote:NAME=V",
 * "both:NAME=V" (value as given).
 */
void sweep_knob_point_name(enum sweep_end end, const char *name, const char *value, char *buf,
			   size_t len);

/* One knob a sweep steps through: its name, end and values (as text). */
struct sweep_knob_axis {
	const char *name;
	enum sweep_end end;		/* both: one knob alone, set alike on both ends */
	const char *const *values;
	unsigned n;
};

/* A point of a knob sweep: each axis's value index, and its name. */
struct sweep_knob_pt {
	unsigned ki[2];
	char name[64];
};

/*
 * The points of a knob sweep of one knob or the cross product of two
 * (the first the outer loop), as `tunetop sweep knob` and the
 * dashboard's sweep both plan them: one knob named as
 * sweep_knob_point_name() does, two as "[remote:]A=V,[remote:]B=W" with
 * a dotted name cut to its last part (63 characters at most).  At most
 * max points into pt, *n of them; -EINVAL with err for more than max
 * points, no axis or more than two, both: beside another knob, or one
 * knob twice on the same end.
 */
int sweep_knob_plan(const struct sweep_knob_axis *ax, unsigned nax, struct sweep_knob_pt *pt,
		    unsigned max, unsigned *n, char *err);

/*
 * "rx-usecs=0,3,15,45,100": the knob name and its values as text.
 * values point into buf (at most max).  -EINVAL with "what: accepted" in err.
 */
int sweep_parse_knob(const char *spec, char *name, size_t nlen, char *buf, size_t blen,
		     const char **values, unsigned max, unsigned *n, char *err);

/*
 * Cliffs in a curve: rate[i] with its run-to-run noise noise[i] (a
 * standard deviation or a confidence half-width; 0 when unknown, then
 * noise_pct of the rate is used).  Point i is a cliff when its rate falls
 * below what its neighbours on both sides (or the one side at an end)
 * would have it by more than k times the combined noise and by more than
 * min_drop_pct percent -- seed 000's 70 % drop at 3MSS+1.  cliff[i] is
 * set, and drop_pct[i] (when not NULL) to the drop in percent of what
 * was expected (NAN when not a cliff); returns the number of cliffs.
 * The mechanism: which numbers a sweep uses is sweep-policy.h's rule.
 */
unsigned sweep_cliffs(const double *rate, const double *noise, unsigned n,
		      double noise_pct, double k, double min_drop_pct, bool *cliff,
		      double *drop_pct);

#endif
