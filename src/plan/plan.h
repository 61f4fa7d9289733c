/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan.h - a series of runs as both front ends plan it: knob settings, the A/B verdict and seed, the MSS a size sweep plans around. */
#ifndef TT_PLAN_PLAN_H
#define TT_PLAN_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "knobs/catalog.h"
#include "knobs/knob.h"
#include "knobs/txn.h"
#include "session/session.h"
#include "stats/abstat.h"
#include "session/sweep-cols.h"
#include "stats/sweep.h"
#include "stats/sweep-policy.h"

/*
 * The one knob setting of `run --set`, `sweep --set`, `ab --a/--b` and
 * the dashboard's sweeps and A/B (docs/sweeps.md, "Knob settings"):
 * "[local:|remote:|both:]NAME=VALUE", no prefix the local end, both: the
 * same value on both ends.
 */
#define PLAN_SETTING_ACCEPTS "[local:|remote:|both:]NAME=VALUE"

struct plan_setting {
	const struct knob_def *d;
	enum sweep_end end;
	char value[KNOB_TEXT_MAX];	/* canonical (knob_parse_value) */
};

/*
 * The knob NAME of catalog c, for a plan to set: one the catalog has,
 * which its backend can set (knobs_read_only()).  0, or -ENOENT /
 * -EROFS with err "NAME: why; accepted: ...".
 */
int plan_knob_find(const struct catalog *c, const char *name, const struct knob_def **d,
		   char *err);

/*
 * "[local:|remote:|both:]NAME=VALUE" into s: the end, the knob
 * (plan_knob_find) and the value checked against the catalog.  0, or
 * -EINVAL (not NAME=VALUE, a bad value), -ENOENT or -EROFS with err, one
 * line naming what was wrong and what is accepted.
 */
int plan_setting_parse(const struct catalog *c, const char *spec, struct plan_setting *s,
		       char *err);

/*
 * A side of an A/B as tunetop ab and the dashboard take it (--a/--b
 * SPEC): settings separated by commas or spaces, a word without '='
 * continuing the value before it ("net.ipv4.tcp_rmem=4096 131072
 * 6291456"); from the first word starting with '-', the side's own test
 * options, whose offset in spec goes to *test (-1 when none).  Each
 * setting as plan_setting_parse() takes it, into s[0..max), *n of them.
 * 0, or -errno with err.
 */
int plan_side_parse(const struct catalog *c, const char *spec, struct plan_setting *s,
		    unsigned max, unsigned *n, int *test, char *err);

/*
 * A knob a plan changes on one end: where it lives (d and t, set by the
 * front end), its value before the plan and the one it has now.
 */
struct plan_knob {
	const struct knob_def *d;
	struct knob_target t;
	char original[KNOB_TEXT_MAX];	/* its value before the plan */
	char now[KNOB_TEXT_MAX];	/* the value it was last set to (or the original) */
};

/*
 * Before a plan's first step: whether k can take each of values[0..n)
 * on its end (knobs_plan_check), and its value there kept as its
 * original.  0, or knobs_plan_check's -errno with its line in err.
 */
int plan_knob_begin(const struct catalog *c, struct plan_knob *k, const char *const *values,
		    unsigned n, char *err);

/*
 * A step's value for k: set through txn (journaled, so `tunetop restore`
 * puts it back after a crash) unless it has it already.  0, or
 * knobs_txn_set's -errno with err.
 */
int plan_knob_set(struct knobs_txn *txn, struct plan_knob *k, const char *want, char *err);

/*
 * The A/B verdict's parameters, the CLI's and the dashboard's
 * (docs/sweeps.md, "A/B"): significance level by default, bootstrap
 * resamples.
 */
#define PLAN_AB_ALPHA 0.05
#define PLAN_AB_BOOT 10000
/*
 * An A/B's --alpha, the CLI's and the dashboard's: 0 < alpha <= 0.5.
 * 0, or -EINVAL with err "--alpha TEXT: ...; accepted: ...".
 */
int plan_alpha_parse(const char *text, double *alpha, char *err);

/* An A/B's pairs (-n), the CLI's and the dashboard's. */
#define PLAN_AB_MIN_PAIRS 3
#define PLAN_AB_MAX_PAIRS 100
#define PLAN_AB_PAIRS 5
/*
 * An A/B's -n: PLAN_AB_MIN_PAIRS..PLAN_AB_MAX_PAIRS pairs.  0, or -EINVAL
 * with err "-n TEXT: accepted: 3-100 pairs".
 */
int plan_pairs_parse(const char *text, unsigned *pairs, char *err);
/*
 * The metrics of an A/B, in the order tunetop ab judges them: each has
 * its own bootstrap seed from the A/B's (plan_ab_compare's m), so every
 * front end that judges a stored A/B again gets the same intervals.  The
 * dashboard's status line judges the rate, its results table each.
 */
enum plan_ab_metric {
	PLAN_AB_RATE, PLAN_AB_P50, PLAN_AB_P99, PLAN_AB_LCPU, PLAN_AB_RCPU,
	PLAN_AB_METRICS
};

/*
 * A seed for the order of an A/B's pairs when none is given: from the
 * clock and the process id, below 1000000 so it can be typed back in
 * with --seed.  Both front ends print it and store it with the A/B.
 */
uint64_t plan_ab_seed(void);

/*
 * Compare A's values of metric m with B's (ab_compare) with alpha,
 * PLAN_AB_BOOT resamples and m's own bootstrap seed from the A/B's seed,
 * so a repeated --seed gives the same intervals.
 */
int plan_ab_compare(const double *a, unsigned na, const double *b, unsigned nb, double alpha,
		    uint64_t seed, unsigned m, struct ab_result *r);

/* The most runs an A/B may have (ab's 100 pairs, the dashboard's 256 steps). */
#define PLAN_AB_MAX_RUNS 512

/*
 * The verdict of an A/B on one metric, from its runs as both front ends
 * keep them: run i ran side[i] (0 A, 1 B) and measured fig[i] (NAN when
 * it failed, was cut short or did not measure it, and is left out).
 * plan_ab_compare() of A's and B's figures ("~" with fewer than 3 a
 * side); *na and *nb (may be NULL) the runs counted on each side, also
 * when it fails.  -EINVAL for a side with none (or a median of 0), or more
 * than PLAN_AB_MAX_RUNS runs.
 */
int plan_ab_judge(const int *side, const double *fig, unsigned n, double alpha, uint64_t seed,
		  unsigned m, struct ab_result *r, unsigned *na, unsigned *nb);

/*
 * The run of side s whose figure is the median of that side's
 * (ab_median_run(): the lower middle one of an even count): the run
 * compared with the other side's for what moved.  Its index, or -1.
 */
int plan_ab_median(const int *side, const double *fig, unsigned n, int s);

/*
 * The order of an A/B's pairs from seed (ab_pair_first): for pair i,
 * first[i] is the side (0 A, 1 B) that runs first.
 */
void plan_ab_order(uint64_t seed, unsigned pairs, int *first);

/*
 * The MSS a size sweep plans around, from a run's connection: the
 * sender's of the swept direction -- the local end's for the request,
 * the remote end's for --response (response) -- else the other end's;
 * 0 when neither has a TCP connection.
 */
uint32_t plan_sweep_mss(const struct session_result *r, bool response);

/*
 * A setting as an A/B record keeps it, one end: "NAME=VALUE" (local),
 * "remote:NAME=VALUE".
 */
void plan_setting_text(const struct knob_def *d, bool remote, const char *value, char *buf,
		       size_t len);

/*
 * The one stored shape of an A/B, whichever front end made it (the
 * sweeps row of kind "ab"; docs/sweeps.md, "A/B"):
 *   {"a": [SETTING, ..., TEST], "b": [...], "n": PAIRS, "seed": S,
 *    "alpha": A, "front": "tunetop ab" | "dashboard"}
 * each side its settings one end each (plan_setting_text), then its own
 * test options if it has any.  Older records are read too: the CLI's
 * without alpha and front, the dashboard's {"spec": "--a .. --b .. -n N",
 * "dashboard": true, "seed": S}.
 */
#define PLAN_AB_REC_ITEMS 64
#define PLAN_AB_REC_TEXT (KNOB_NAME_MAX + KNOB_TEXT_MAX + 16)

struct plan_ab_record {
	unsigned n[2];
	char item[2][PLAN_AB_REC_ITEMS][PLAN_AB_REC_TEXT];
	unsigned pairs;
	uint64_t seed;
	double alpha;			/* NAN: an older record that did not keep it */
	char front[16];			/* "tunetop ab", "dashboard" */
};

/* r's settings of side s (0 A, 1 B) to add to; -EINVAL with err when full. */
int plan_ab_record_add(struct plan_ab_record *r, int s, const char *text, char *err);
/* r as the history stores it; NULL out of memory. */
json_t *plan_ab_record_json(const struct plan_ab_record *r);
/* A stored A/B spec (either shape) into r; 0, or -EINVAL with err. */
int plan_ab_record_read(const json_t *spec, struct plan_ab_record *r, char *err);

/*
 * The one stored shape of a sweep, whichever front end made it (the
 * sweeps row of its kind; docs/sweeps.md, "Stored"):
 *   {"kind", "test", "target", "reverse", "points": [NAME...],
 *    "knobs": [{"name", "side": "local"|"remote", "values": [...]}],
 *    the columns (sweep_cols_to_spec), "mss" and "response" (size),
 *    "preset" (when from one), "front" (when stored)}
 * both: a knob on both ends is two entries, local then remote.
 */
struct plan_sweep_knob {
	const char *name;
	bool remote;
	unsigned n;
	const char *const *values;
};

struct plan_sweep_record {
	enum sweep_kind kind;
	const char *test;		/* params_text of its test */
	const char *target;
	bool reverse;
	unsigned npoints;
	const char *const *points;
	unsigned nknobs;
	struct plan_sweep_knob knob[4];	/* two knobs, each on one end or both */
	const struct sweep_cols *cols;
	uint32_t mss;			/* size: the MSS planned around; 0 not known */
	bool response;
	const char *preset;		/* NULL: not from a preset */
	const char *front;		/* "tunetop sweep", "dashboard"; NULL: not said */
};

/*
 * The target as a sweep's record and header name it: "tunetopd at HOST",
 * "lab: NAME", "loopback (WHY)".
 */
void plan_target_text(const struct session_opts *so, char *buf, size_t len);

/* r as the history stores it (and sweep --json shows it); NULL out of memory. */
json_t *plan_sweep_record_json(const struct plan_sweep_record *r);

#endif
