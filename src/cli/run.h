/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run.h - `tunetop run`: iterations of a session, interim and final output. */
#ifndef TT_RUN_H
#define TT_RUN_H

#include <stdbool.h>

#include <jansson.h>

#include "engine.h"

struct knobs_txn;
struct catalog;

struct run_opts;

/*
 * What sweeps and A/B comparisons share with `tunetop run`: the target
 * (a lab made once for all their runs), the signals, and one run with its
 * iterations.  run_ctx_open returns 0, or the exit status with the
 * reason printed.
 */
struct run_ctx {
	struct run_opts *o;
	struct target target;		/* o->so's host, port, lab and why point here */
	int sfd;
	unsigned signals;		/* SIGINT/SIGTERM/SIGHUP seen */
	struct session_link link;	/* o->so.link: a netserver found, -i's connection */
};
int run_ctx_open(struct run_ctx *c, struct run_opts *o, const char *who);
void run_ctx_close(struct run_ctx *c);
/* One run (iterating with -i/-I) into sum; 0, or 1 when it failed (sum says why). */
int run_iterate(struct run_ctx *c, struct run_summary *sum);
void run_summary_free(struct run_summary *sum);
/*
 * Store sum in the history (unless --no-db): source "run", "sweep", "ab",
 * "dashboard"; sweep_id and point as in store.h.  *id gets the new run's
 * id (may be NULL).  0, or -errno with the reason in err, or on stderr
 * when err is NULL (the results were printed already).
 */
int run_store(const struct run_ctx *c, const struct run_summary *sum, const char *source,
	      int64_t sweep_id, const char *point, int64_t *id, char *err);

/* A knob changed for a run (--set, a sweep, an A/B side), and its value before. */
struct run_change {
	const struct knob_def *d;
	struct knob_target t;
	char original[KNOB_TEXT_MAX];	/* its value before the command */
};
/* Where a knob of the local or remote end lives for o's target: the lab's
 * side a or b, or this host (lo for loopback, the default route's device
 * with -H). */
void run_knob_target(const struct run_opts *o, bool remote, struct knob_target *t);
/*
 * A knob transaction for a CLI command named who: it waits for a knob
 * another run holds with --wait, until a signal arrives on c's signalfd.
 * 0, or 1 printed.
 */
int run_txn_begin(struct run_ctx *c, const char *who, struct knobs_txn **x);
/*
 * --set [local:|remote:|both:]NAME=VALUE: every setting is checked by the
 * engine (plan_setting_parse) first, then each knob changes through x on
 * its end, both: on each (the lab's side a and b, or this host and the
 * tunetopd's), each printed with note on human (NULL: not printed).  0,
 * or the exit status (what changed is put back).
 */
int run_set_knobs(const struct run_opts *o, const struct catalog *cat, struct knobs_txn *x,
		  const char *who, const char *note, FILE *human);
/* Put back what x changed, newest first, naming each failure; 0, or 1. */
int run_undo_knobs(struct knobs_txn *x, const char *who);
/* A knobs_txn_undo_cb that names a knob not put back on stderr, arg the program ("tunetop sweep"). */
void run_undo_say(const struct knob_def *d, const struct knob_target *t, const char *was,
		  const char *found, int rc, const char *err, void *arg);

/* Run the test as the options say and print it; returns the exit status. */
int run_main(int argc, char **argv);

#endif
