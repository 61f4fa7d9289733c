/* SPDX-License-Identifier: GPL-2.0-or-later */
/* control.h - the dashboard's commands to the engine: target, runs, knobs. */
#ifndef TT_CONTROL_H
#define TT_CONTROL_H

#include "dashboard.h"
#include "ui.h"

/*
 * Open the target the way `tunetop run` does (target_open: -H, --lab,
 * --loopback, else a lab of the dashboard's own when privileged, else
 * loopback), load the history, the catalog and every knob on both ends.
 * The test comes from rq.  0, or -errno with err.
 */
int ctl_open(struct ui *u, const struct dash_request *rq, char *err);
/*
 * `tunetop run`'s options (argv[0] is "run") into rq, by the engine's
 * parser (session/options.h).  With test_only (the t key) only the test
 * and its options are accepted.  0; 1 when help was asked for (*help, when
 * not NULL, says which: the caller prints it); 2 with a one-line err.
 */
int ctl_request(int argc, char **argv, bool test_only, struct dash_request *rq,
		enum options_help *help, char *err);
/* Stop any run, free the session and the lab (the lab's knobs go with it). */
void ctl_close(struct ui *u);

/* Start a run of u->p; 0, or -errno (the status line says why). */
int ctl_run(struct ui *u);
/*
 * The same, kept in the history as source's run ("sweep", "ab") at point
 * of sweep sweep_id; its result document shows the CPU figures of -c / -C
 * also when lcpu / rcpu (a sweep's CPU columns), and is kept in the
 * model's run (r->doc) for the plan.  With reverse the run is turned
 * around as tunetop sweep --reverse does (target_reverse: in a lab the
 * client runs in side b, elsewhere the ends trade -r, -s/-S, -T); the
 * knob panel's ends stay where they are.
 */
int ctl_run_point(struct ui *u, const char *source, int64_t sweep_id, const char *point,
		  bool lcpu, bool rcpu, bool reverse);
/* End the measured interval now (the run reports what it measured). */
void ctl_stop(struct ui *u);
/* The event fd to poll, or -1 when no run is in flight. */
int ctl_event_fd(const struct ui *u);
/*
 * Take the session's events into the model; at the run's end store it,
 * apply the pending knob edits, re-read the knobs and set *ended to the
 * run (what comes next -- a plan's point, a loop's rerun -- is the
 * caller's).  Returns CTL_SAMPLES when ticks arrived, CTL_ENDED when a run
 * ended (both may be set), 0 when nothing happened.
 */
enum { CTL_SAMPLES = 1, CTL_ENDED = 2 };
int ctl_events(struct ui *u, struct model_run **ended);

/* Make r the baseline of its test, in the model and in the history. */
int ctl_mark_baseline(struct ui *u, struct model_run *r);

/* Re-read every knob on both ends (idle only). */
int ctl_read_knobs(struct ui *u);
/* Put every knob changed here back to its value at the dashboard's start. */
int ctl_undo_all(struct ui *u);
/* Replace the test with a `tunetop run` argument string ("-t TCP_STREAM -- -m 64K"). */
int ctl_set_test(struct ui *u, const char *args, char *err);

/* Whether knob changes outlive the dashboard (not so in a lab of its own,
 * which goes when it quits). */
bool ctl_changes_outlive(const struct ui *u);

/* The history database chosen (--db), NULL for the default; --no-db. */
const char *ctl_db_path(const struct ui *u);
bool ctl_no_db(const struct ui *u);

/*
 * Have r's result document in the model for what moved (docs/why.md):
 * kept since it ran, or read back from the history (keep's stays kept).
 * 0; -EAGAIN while it runs; -ENOENT with r->doc_na saying why not.
 */
int ctl_run_doc(struct ui *u, struct model_run *r, const struct model_run *keep);

/* The target as a plan's record names it (plan_target_text, tunetop sweep's words). */
void ctl_target_text(const struct ui *u, char *buf, size_t len);
/* Why the remote (or local) end's knobs cannot change from here, or NULL. */
const char *ctl_end_refusal(const struct ui *u, bool remote);
/* Where the dashboard's knobs live (target_knob_target of these), a plan's too. */
const struct session_opts *ctl_knob_opts(const struct ui *u);
/* The dashboard's knob transaction: its edits and its plans' changes. */
struct knobs_txn *ctl_txn(struct ui *u);
/* What a reversed run does against this target (target_reverse_desc). */
const char *ctl_reverse_desc(const struct ui *u);
/* -c, -C as the dashboard was started with. */
void ctl_cpu_opts(const struct ui *u, bool *lcpu, bool *rcpu);
/* A sweep's --columns checked as tunetop sweep checks them: 0, or -EINVAL with err. */
int ctl_columns_check(const struct ui *u, const char *list, enum test_type t, char *err);

/* Seconds left in the run, or -1. */
double ctl_time_left(const struct ui *u);

#endif
