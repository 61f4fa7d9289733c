/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui.h - the dashboard's shared state, its panels and what a panel may ask of it. */
#ifndef TT_UI_H
#define TT_UI_H

#include <stdbool.h>

#include "engine.h"
#include "grid.h"
#include "model.h"

/* What a key handler did (docs/HACKING.md: a bitmask; 0 = not handled). */
enum {
	UK_HANDLED = 1,
	UK_REDRAW = 2,			/* mark every panel dirty */
	UK_RELAYOUT = 4,
	UK_QUIT = 8,
};

struct ui;
struct panel;

/*
 * A panel: draw fills the panel's whole grid (border and title included:
 * panel_frame does those) from the ui's state -- engine snapshots held in
 * the model, never a socket, pcap or netlink call.  key gets keys while
 * the panel has the focus, before the global keymap; NULL = none.
 */
struct panel_ops {
	const char *name;		/* short: "rate", "segments" */
	const char *title;
	void (*draw)(struct ui *u, struct panel *p);
	int (*key)(struct ui *u, struct panel *p, int key);
	int min_w, min_h;		/* below these the panel is not shown */
	const char *help;		/* one line: what the panel's own keys do, or NULL */
};

struct panel {
	const struct panel_ops *ops;
	int x, y, w, h;			/* on the screen */
	bool shown;			/* fits in the layout */
	bool dirty;
	struct grid g;			/* w x h */
	int cursor, scroll;		/* list panels */
};

/* One catalog knob on both ends, as the knobs panel shows it. */
struct ui_knob {
	const struct knob_def *d;
	struct knob_value v[END_N];	/* the newest value read on each end */
	char original[END_N][KNOB_TEXT_MAX];	/* at the dashboard's start ("" n/a) */
	bool has_pending[END_N];
	char pending[END_N][KNOB_TEXT_MAX];	/* edits waiting for the run's end */
};

enum ui_run_state { UI_IDLE, UI_RUNNING, UI_STOPPING };

struct ui {
	struct model model;
	struct model_run *cur;		/* the run on show (running or newest) */
	struct model_run *compare;	/* the run shown beside it, or NULL */
	/* Why compare changed by itself (compare.c: like with like), for
	 * the header while compare is still compare_for; "" none. */
	char compare_note[128];
	struct model_run *compare_for;
	enum ui_run_state state;
	bool loop;			/* rerun when a run ends (demos) */
	double run_started;		/* monotonic seconds of the current run's start */

	struct test_params p;		/* the next run's test */
	char target[160];		/* "lab: tunetop-123 (...)" or "loopback: ..." */
	bool lab;			/* the target is a lab (knobs on sides a/b) */
	bool utf8;

	/* Knobs: the catalog and both ends' values. */
	struct catalog *cat;
	struct ui_knob *knobs;
	unsigned nknobs;
	unsigned npending;
	unsigned nchanged;		/* knobs (per end) now differing from original */

	/* The status line: a message and its style, shown until expires. */
	char status[256];
	enum style status_style;
	double status_until;

	/* A question in the status line (ui_prompt), answered with Enter. */
	struct {
		bool on;
		char question[128];
		char text[256];
		void (*done)(struct ui *u, const char *text, void *arg);
		void *arg;
	} prompt;

	struct panel *panels;
	unsigned npanels;
	unsigned focus;			/* index into panels */

	void *ctl;			/* control.c's state */
	void *plan;			/* plan.c's sweep or A/B in progress, or NULL */
	void *results;			/* results.c's sweep or A/B on show, or NULL */
	struct plan_table *sweep;	/* the newest sweep's table (plan.h), or NULL */
};

/* Show a message in the status line for secs seconds (errors: STY_WARN). */
void ui_status(struct ui *u, enum style st, double secs, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Ask for a line of text in the status line (a knob value, the test's
 * parameters); done(u, text, arg) is called on Enter, never on Esc.
 */
void ui_prompt(struct ui *u, const char *question, const char *initial,
	       void (*done)(struct ui *u, const char *text, void *arg), void *arg);

/* Draw the border and title of p into its grid; returns the inner area. */
void panel_frame(struct ui *u, struct panel *p, int *ix, int *iy, int *iw, int *ih);
/*
 * "27 coalescing settings: not supported by veth": n settings, knob k
 * among them, n/a on end e (END_L, END_R; -1 both) because the driver has
 * no coalescing at all (ethtool_coalesce_unsupported_by()); NULL when
 * that is not why.  The knobs and interrupts panels fold them so.
 */
const char *panel_coalesce_na(const struct ui *u, unsigned k, int e, unsigned n, char *buf,
			      size_t len);
/* True when p has the focus. */
bool panel_focused(const struct ui *u, const struct panel *p);
/* A verdict's word stands out (verdict.h): red WORSE, green BETTER, plain
 * ~, dim can't tell; without colours the word alone says it. */
enum style panel_verdict_style(enum verdict_word w);
/* s at x when all of it fits in w (cells), else nothing: a figure or a
 * reason is never cut mid-word.  Returns the cells drawn. */
int panel_text_whole(struct grid *g, int x, int y, int w, const char *s, enum style st);

/*
 * The knobs panel p's cursor to the knob named text (an exact name first,
 * then one holding it), its end back to local; false, with the status
 * line saying what / takes, when none is.
 */
bool panel_knobs_find(struct ui *u, struct panel *p, const char *text);

/* The panels, each in its own file (ui/panel-<name>.c). */
extern const struct panel_ops panel_rate, panel_segments, panel_buffers,
	panel_interrupts, panel_knobs, panel_runs;

/*
 * Commands the panels send (control.c): a knob edit on one end (applied
 * at once when idle, queued while a run is in flight), a boolean flipped,
 * and the pending edit dropped.  0, or -errno with the status line saying why.
 */
int ui_knob_edit(struct ui *u, unsigned knob, int end, const char *text);

int ui_knob_toggle(struct ui *u, unsigned knob, int end);
void ui_knob_unpend(struct ui *u, unsigned knob, int end);

#endif
