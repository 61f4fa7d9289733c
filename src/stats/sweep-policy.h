/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep-policy.h - one sweep policy: point plans, point names and the cliff rule. */
#ifndef TT_SWEEP_POLICY_H
#define TT_SWEEP_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/params.h"
#include "stats/sweep.h"

/* What a sweep varies: -r sizes, -b bursts, knob values or -m send sizes. */
enum sweep_kind { SW_SIZE, SW_BURST, SW_KNOB, SW_SEND };
#define SWEEP_NKINDS 4

/* The lists a burst or send-size sweep runs when none is given. */
#define SWEEP_DEFAULT_BURSTS "0,1,2,4,16,64,128,256"	/* seed 001 */
#define SWEEP_DEFAULT_SEND_SIZES "1K,4K,16K,64K,256K"	/* seed 003's -m */

/* The name users type for a kind: "size", "burst", "knob", "send-size". */
const char *sweep_policy_kind_name(enum sweep_kind kind);
/* A kind by that name; -EINVAL when it is none. */
int sweep_policy_kind_parse(const char *name, enum sweep_kind *kind);

/*
 * A size sweep's own list (docs/sweeps.md, "Kinds"): "LO..HI" plans
 * packet_byte_script's points around the MSS that fall between LO and
 * HI, with LO and HI; "A,B,C" runs those sizes as given.
 */
#define SWEEP_SIZE_LIST_ACCEPTS "a list of sizes (1,1448,4345) or a range LO..HI (1..4500)"

/* Whether a sweep of kind with list (NULL: none) plans around the MSS:
 * a size sweep without a list of its own, or with a range. */
bool sweep_policy_needs_mss(enum sweep_kind kind, const char *list);

/*
 * The values of a size, burst or send-size sweep: size, packet_byte_script
 * around mss (sweep_sizes) -- between LO and HI for a list "LO..HI" --
 * or only its first point (1 byte, or LO) when mss is 0 (the rest follow
 * that point's MSS), or list's sizes as given; burst and send-size, list
 * or the default list when list is NULL.  0, or -EINVAL with err.
 */
int sweep_policy_plan(enum sweep_kind kind, const char *list, uint32_t mss,
		      uint64_t *out, unsigned max, unsigned *n, char *err);

/*
 * p with point value v set (request size, or response with response;
 * burst; send size) and checked as a server would.  0, or -EINVAL with
 * "size: 0 bytes is out of range; accepted: 1 to 65507".
 */
int sweep_policy_point_params(enum sweep_kind kind, bool response, uint64_t v,
			      struct test_params *p, char *err);

/* A point's name as runs are stored with it: "size=4345", "resp=1",
 * "burst=16", "send-size=1024". */
const char *sweep_policy_point_name(enum sweep_kind kind, bool response,
				    uint64_t v, char *buf, size_t len);

/*
 * The curve and x of a point name: "size=4345" is x 4345 of curve "";
 * "rx-usecs=15,gro=on" is x "on" (not a number: NAN) of curve
 * "rx-usecs=15" -- a two-knob sweep has a curve per value of its first
 * knob.  x_text (may be NULL) gets the value's text.
 */
double sweep_policy_point_x(const char *point, char *curve, size_t clen,
			    const char **x_text);

/*
 * The cliff rule's numbers (docs/sweeps.md), so that whoever prints
 * cliffs prints the numbers that made them.
 */
struct sweep_cliff_rule {
	double k;		/* a drop beyond k times the combined noise ... */
	double min_drop_pct;	/* ... and beyond this % of the expected rate */
	double noise_floor_pct;	/* a point's noise is at least this % of its rate */
	bool first_is_foot;	/* a curve's first point is never a cliff */
};
extern const struct sweep_cliff_rule sweep_cliff_rule;

/* Where a point's noise came from. */
enum sweep_noise_src {
	SWEEP_NOISE_CI,		/* its confidence half-width (-i/-I) */
	SWEEP_NOISE_TICKS,	/* the standard deviation of its tick rates */
	SWEEP_NOISE_FLOOR,	/* noise_floor_pct of its rate */
};

/* "ci", "ticks" or "floor". */
const char *sweep_policy_noise_name(enum sweep_noise_src src);

/* One point of a sweep as the cliff rule reads it. */
struct sweep_policy_pt {
	const char *point;	/* its name: curve and x (sweep_policy_point_x) */
	double rate;		/* NAN: failed, a gap in its curve */
	double ci;		/* the rate's confidence half-width; NAN none */
	double tick_sd;		/* standard deviation of its tick rates; NAN none */
	/* Set by sweep_policy_cliffs: */
	double x;		/* its value, NAN when not a number */
	double noise;
	enum sweep_noise_src noise_src;
	bool cliff;
	double drop_pct;	/* below its neighbours' line, %; NAN unless a cliff */
	int before;		/* the measured point before it in its curve (an
				 * index of pt[]), -1 none: what moved at a cliff
				 * is read from that point to the cliff */
};

/* Standard deviation of the finite values of v; NAN with fewer than 2. */
double sweep_policy_spread(const double *v, unsigned n);

/* A point's noise by the rule: the confidence half-width, else the tick
 * spread, never below the floor.  *src says which. */
double sweep_policy_noise(const struct sweep_policy_pt *p,
			  enum sweep_noise_src *src);

/*
 * Mark the cliffs of a sweep by the rule: the points are split into
 * curves by their names, each curve is taken in order of x when every x
 * is a number (else in the given order), and sweep_cliffs() measures each
 * point against its neighbours with sweep_cliff_rule's numbers; a curve's
 * first measured point is never a cliff.  Each point's before is set.
 * Returns the number of cliffs.
 */
unsigned sweep_policy_cliffs(struct sweep_policy_pt *pt, unsigned n);

/* The rule in one line, its numbers as used: "a drop beyond 3 x ...". */
const char *sweep_policy_rule_text(char *buf, size_t len);

#endif
