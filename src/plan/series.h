/* SPDX-License-Identifier: GPL-2.0-or-later */
/* series.h - a series of runs as one object, struct plan: its steps, the knobs they set, and what each step's end means (docs/HACKING.md, "Sweeps and A/B"). */
#ifndef TT_PLAN_SERIES_H
#define TT_PLAN_SERIES_H

#include <stdbool.h>
#include <stdint.h>

#include "core/params.h"
#include "knobs/catalog.h"
#include "knobs/txn.h"
#include "plan/plan.h"
#include "session/session.h"
#include "stats/abstat.h"
#include "stats/sweep.h"
#include "stats/sweep-policy.h"

#define PLAN_MAX_STEPS SWEEP_MAX_POINTS
#define PLAN_MAX_KNOBS 64		/* knob ends one plan changes (ab: 32 a side) */
#define PLAN_FIGS 8			/* figures a step keeps; [PLAN_AB_RATE] the rate */

/* One run of a plan: its test, each knob's value, and once run what it measured. */
struct plan_step {
	unsigned i;			/* its index in the plan */
	char point[64];			/* "size=4345", "rx-usecs=15", "a", "b" */
	struct test_params p;		/* the test it runs */
	int side;			/* an A/B's: 0 A, 1 B; -1 a sweep's */
	unsigned pair;			/* an A/B's pair, 1-based */
	uint64_t value;			/* a numeric sweep's value */
	unsigned ki[2];			/* a knob sweep's: each axis's value index */
	short vi[PLAN_MAX_KNOBS];	/* each knob's value (plan.knob[k].val), -1 its original */
	/* Once it ran (plan_step_done). */
	bool ran, failed, cut;
	char note[96];			/* why the plan failed it ("no MSS"), "" none */
	double fig[PLAN_FIGS];		/* NAN not measured */
	struct sweep_policy_pt pt;	/* a sweep's point for the cliff rule */
	int64_t run_id;			/* in the history; 0 not stored */
};

/* A knob a plan changes on one end, with every value its steps give it. */
struct plan_series_knob {
	struct plan_knob k;		/* where, original, value now */
	bool remote;
	unsigned nval;
	char **val;
};

enum plan_kind { PLAN_AB, PLAN_SWEEP };

struct plan {
	enum plan_kind kind;
	const struct catalog *cat;
	/* A/B: */
	unsigned pairs;
	uint64_t seed;
	double alpha;
	struct test_params side_p[2];
	bool tests_differ;		/* the sides run two tests */
	/* sweep: */
	enum sweep_kind skind;
	bool response;
	char list[256];			/* its own list or range, "" the default */
	uint32_t mss;			/* the MSS its points follow; 0 none (yet) */
	bool mss_wait;			/* the points wait for the first one's MSS */
	struct test_params base;	/* the test its points start from */
	/* Its knobs and steps. */
	unsigned nknobs;
	struct plan_series_knob knob[PLAN_MAX_KNOBS];
	short side_vi[2][PLAN_MAX_KNOBS];	/* an A/B side's value of each knob, -1 none */
	struct knobs_txn *txn;		/* plan_begin's */
	bool own_txn;			/* txn holds this plan's changes only */
	unsigned n, next;		/* steps, and the next to run */
	bool stopped;
	struct plan_step step[PLAN_MAX_STEPS];
};

/* An empty plan whose settings name knobs of catalog c; NULL out of memory. */
struct plan *plan_new(const struct catalog *c);
void plan_destroy(struct plan *pl);

/*
 * Side s (0 A, 1 B) of an A/B sets d on one end to value (canonical).
 * -EINVAL with err when that side names it twice or the plan is full.
 */
int plan_ab_set(struct plan *pl, int s, const struct knob_def *d, bool remote,
		const char *value, char *err);

/*
 * An A/B's steps: pairs pairs in the order of seed (plan_ab_order), side
 * s running test p[s], judged at alpha.  -EINVAL with err when full.
 */
int plan_ab_build(struct plan *pl, const struct test_params p[2], unsigned pairs,
		  uint64_t seed, double alpha, char *err);

/*
 * A numeric sweep's steps (size, burst, send-size) from test p: list
 * ("" or NULL the default) planned by sweep_policy_plan around mss; a
 * size sweep that needs an MSS and has none plans its first point, and
 * the rest once that point's connection says its MSS (plan_step_done,
 * PLAN_EV_MSS; UDP_RR has no MSS to find, so it needs mss).  -EDOM
 * with err for a list or range it cannot plan,
 * -EINVAL for a point the test refuses or too many.
 */
int plan_sweep_build(struct plan *pl, enum sweep_kind kind, const struct test_params *p,
		     bool response, const char *list, uint32_t mss, char *err);

/*
 * A knob sweep's steps from test p: one knob or two crossed
 * (sweep_knob_plan), both: one knob set alike on both ends.  Each
 * axis's knob must be settable (plan_knob_find).  -EINVAL / -ENOENT /
 * -EROFS with err.
 */
int plan_sweep_knobs(struct plan *pl, const struct test_params *p,
		     const struct sweep_knob_axis *ax, unsigned nax, char *err);

/*
 * Before the first step, once so's target is open: each knob's end is
 * where so's run has it (target_knob_target: a lab's side, this host,
 * -H's tunetopd), every knob checked on its end with every value
 * the steps give it, its original read (plan_knob_begin); an A/B whose
 * sides come to the same settings there is refused (-EALREADY).  Its
 * changes go through txn; own_txn: txn holds nothing else, so
 * plan_restore undoes it whole.  0, or -errno with one line naming the
 * knob and its end in err, no knob changed.
 */
int plan_begin(struct plan *pl, const struct session_opts *so, struct knobs_txn *txn,
	       bool own_txn, char *err);

/* The step to run next; NULL when the plan is done or stopped. */
struct plan_step *plan_next(struct plan *pl);

/*
 * Every knob of the plan to step s's value (its original where s gives
 * none), through the transaction (plan_knob_set).  0, or -errno with err
 * "set NAME on END to VALUE: why".
 */
int plan_apply(struct plan *pl, const struct plan_step *s, char *err);

/* What a front end says of the step plan_next gave it, once it ran. */
struct plan_outcome {
	bool failed;			/* the run failed */
	bool cut;			/* stopped by the user or a signal: not counted */
	const struct session_result *res;	/* its result, NULL none (for the MSS) */
	double fig[PLAN_FIGS];		/* [PLAN_AB_RATE] the rate; NAN not measured */
	double ci, tick_sd;		/* the rate's noise (sweep_policy_pt); NAN none */
	int64_t run_id;
};

/* What plan_step_done's step meant (a mask). */
enum plan_event {
	PLAN_EV_POINT = 1,		/* the step's figures are noted */
	PLAN_EV_MSS = 2,		/* the points around the MSS are planned (pl->mss) */
	PLAN_EV_STOP = 4,		/* the plan stops early (failed A/B run, a cut, no MSS) */
	PLAN_EV_DONE = 8,		/* no step is left: cliffs marked, verdict ready */
	PLAN_EV_CLIFF = 16,		/* with DONE: a sweep has a cliff (step[i].pt.cliff) */
};

/*
 * The step plan_next gave ran as o: its figures noted, a size sweep's
 * points planned around its first point's MSS, and whether the plan goes
 * on: an A/B stops at a failed or cut run, a sweep at a cut one.
 * Returns the events (enum plan_event).
 */
unsigned plan_step_done(struct plan *pl, const struct plan_outcome *o);

/*
 * A sweep's test changed after it was planned (--reverse turned the run
 * around, target_reverse): every step's test is p with its own point.
 */
void plan_rebase(struct plan *pl, const struct test_params *p);

/*
 * Mark the cliffs among the steps run by the engine's one rule
 * (sweep_policy_cliffs, docs/sweeps.md): step[i].pt; how many.  Done by
 * plan_step_done at the end, and by a front end that stops a plan itself.
 */
unsigned plan_cliffs(struct plan *pl);

/* Stop after the step in flight (a signal, a target gone); DONE follows. */
void plan_stop(struct plan *pl);

/*
 * Every knob the plan changed back to its original: the whole
 * transaction undone, newest first, when it is the plan's own (cb hears
 * of each, as knobs_txn_undo), else each knob of the plan set back (the
 * dashboard's, whose transaction also holds the user's edits; undone in
 * the transaction when that is the value it found).  0, or -EIO when one
 * could not be put back (cb told, or err).
 */
int plan_restore(struct plan *pl, knobs_txn_undo_cb cb, void *arg, char *err);

/*
 * An A/B's verdict on figure m over the steps run (plan_ab_judge: its
 * alpha and seed), na and nb (may be NULL) the runs counted.
 */
int plan_ab_verdict(const struct plan *pl, unsigned m, struct ab_result *r, unsigned *na,
		    unsigned *nb);

/* The step of side s whose rate is that side's median (plan_ab_median); -1 none. */
int plan_ab_median_step(const struct plan *pl, int s);

/*
 * Whether a and b (canonical texts; NULL the original, equal only to
 * NULL) are one setting of d (knob_value_equal: "on" is "1").
 */
bool plan_value_same(const struct knob_def *d, const char *a, const char *b);

/* A knob's value at step s: its text, the original where s gives none. */
const char *plan_step_value(const struct plan *pl, const struct plan_step *s, unsigned k);

#endif
