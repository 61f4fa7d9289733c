// SPDX-License-Identifier: GPL-2.0-or-later
/* dashboard.c - `tunetop` with no subcommand: the live dashboard's loop, layout and keys. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "compare.h"
#include "control.h"
#include "dashboard.h"
#include "plan.h"
#include "results.h"
#include "term.h"
#include "ui.h"

#define MIN_W 80
#define MIN_H 24
#define FRAME_MS 100

/* Keys the table names that curses spells as variables. */
enum { K_BTAB = -2, K_F1 = -3, K_RESIZE = -4 };

enum action {
	A_RUN, A_STOP, A_LOOP, A_NEXT, A_PREV, A_ZOOM, A_UNDO, A_BASELINE,
	A_COMPARE, A_TEST, A_SWEEP, A_AB, A_FIND, A_COMMAND, A_HELP, A_REDRAW, A_QUIT,
};

/* The global keymap: it drives both the keys and the help screen. */
static const struct keybind {
	int key;
	enum action a;
	const char *what;
} keymap[] = {
	{ 'r', A_RUN, "run the test (again when one has ended)" },
	{ 's', A_STOP, "stop the run: it reports what it measured so far" },
	{ 'l', A_LOOP, "loop: rerun whenever a run ends (demos); again: stop looping" },
	{ '\t', A_NEXT, "focus the next panel" },
	{ K_BTAB, A_PREV, "focus the previous panel" },
	{ 'z', A_ZOOM, "zoom the focused panel to the whole screen; again: back" },
	{ 'u', A_UNDO, "undo every knob change made here (pending edits too)" },
	{ 'b', A_BASELINE, "mark the run on show as the baseline of its test" },
	{ 'c', A_COMPARE, "compare the run on show with the baseline; again: off" },
	{ 't', A_TEST, "edit the test and its parameters (tunetop run's options)" },
	{ 'S', A_SWEEP, "sweep: size [--response] | burst LIST | send-size LIST | "
			"knob [remote:]NAME=V1,V2,... (each [--columns LIST]) | preset NAME" },
	{ 'A', A_AB, "A/B: --a KNOB=V[,...] --b KNOB=V[,...] [-n N] [--seed S] [--alpha A]: interleaved runs and a verdict" },
	{ '/', A_FIND, "find a knob by (part of) its name, from any panel: the Knobs panel shows it" },
	{ ':', A_COMMAND, "command line, the batch syntax: set [local:|remote:|both:]NAME=V ...; "
			  "run [options] [-- test options]; ab ...; sweep ... (as A and S); "
			  "show [sweep|ab] ID|last: its plot or table" },
	{ '?', A_HELP, "this help" },
	{ K_F1, A_HELP, "this help" },
	{ 12, A_REDRAW, "redraw the screen (Ctrl-L)" },
	{ 'q', A_QUIT, "quit (asks whether to keep changed knobs)" },
};


struct dash {
	struct ui u;
	struct term t;
	bool help, zoom, quit, quit_asked, keep_knobs;
	int help_top, help_rows;	/* the help's first row shown, and how many it has */
	unsigned long frames, max_frames;
	unsigned per_page;		/* panels on the screen at once */
	struct grid header, status, overlay;
};

static const struct panel_ops *const all_panels[] = {
	&panel_rate, &panel_segments, &panel_buffers,
	&panel_interrupts, &panel_knobs, &panel_runs,
};
#define NPANELS (sizeof(all_panels) / sizeof(all_panels[0]))

static void mark_all(struct ui *u)
{
	for (unsigned i = 0; i < u->npanels; i++)
		u->panels[i].dirty = true;
}

/*
 * Place the panels: the first of 3x2, 2x3, 2x2, 2x1, 1x2, 1x1 whose cells
 * hold every panel's minimum size; when not all six fit, a page of them
 * around the focused one (Tab moves on to the next page).  A zoomed panel
 * has the screen to itself.
 */
static void layout(struct dash *d)
{
	static const int shapes[][2] = { { 3, 2 }, { 2, 3 }, { 2, 2 }, { 2, 1 }, { 1, 2 }, { 1, 1 } };
	struct ui *u = &d->u;
	int top = 1, h = d->t.h - 2, cols = 1, rows = 1, minw = 0, minh = 0;
	unsigned per, first;

	for (unsigned i = 0; i < u->npanels; i++) {
		if (u->panels[i].ops->min_w > minw)
			minw = u->panels[i].ops->min_w;
		if (u->panels[i].ops->min_h > minh)
			minh = u->panels[i].ops->min_h;
	}
	for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
		cols = shapes[k][0];
		rows = shapes[k][1];
		if (d->t.w / cols >= minw && h / rows >= minh)
			break;
	}
	per = (unsigned)(cols * rows);
	first = (u->focus / per) * per;
	for (unsigned i = 0; i < u->npanels; i++) {
		struct panel *p = &u->panels[i];
		int slot = (int)(i - first), c = slot % cols, r = slot / cols;

		if (d->zoom) {
			p->shown = i == u->focus;
			p->x = 0;
			p->y = top;
			p->w = d->t.w;
			p->h = h;
		} else if (i < first || i >= first + per) {
			p->shown = false;
		} else {
			p->x = c * (d->t.w / cols);
			p->w = c == cols - 1 ? d->t.w - p->x : d->t.w / cols;
			p->y = top + r * (h / rows);
			p->h = r == rows - 1 ? top + h - p->y : h / rows;
			p->shown = true;
		}
		if (p->shown) {
			grid_resize(&p->g, p->w, p->h);
			p->g.utf8 = u->utf8;
		}
	}
	d->per_page = per;
	grid_resize(&d->header, d->t.w, 1);
	grid_resize(&d->status, d->t.w, 1);
	grid_resize(&d->overlay, d->t.w, d->t.h);
	d->header.utf8 = d->status.utf8 = d->overlay.utf8 = u->utf8;
	term_message(&d->t, "");
	mark_all(u);
}

/* Where the ends ran in the newest finished run. */
static const char *placement(const struct ui *u, char *buf, size_t len)
{
	const struct model_run *r = NULL;

	for (unsigned i = u->model.nruns; i-- > 0;)
		if (u->model.runs[i]->has_result) {
			r = u->model.runs[i];
			break;
		}
	if (!r || r->res.local.cpu_main < 0) {
		snprintf(buf, len, "CPUs: after a run");
		return buf;
	}
	/* netserver does not say where its end ran */
	if (r->res.remote.cpu_main < 0) {
		snprintf(buf, len, "CPUs: local %d%s, remote not seen", r->res.local.cpu_main,
			 r->p.lcpu >= 0 ? " pinned" : "");
		return buf;
	}
	snprintf(buf, len, "CPUs: local %d%s, remote %d%s (%s)", r->res.local.cpu_main,
		 r->p.lcpu >= 0 ? " pinned" : "", r->res.remote.cpu_main,
		 r->p.rcpu >= 0 ? " pinned" : "",
		 r->res.local.cpu_main == r->res.remote.cpu_main ? "one CPU" : "two CPUs");
	return buf;
}

static void draw_header(struct dash *d)
{
	struct ui *u = &d->u;
	char params[160], cpus[96], state[64], name[24];
	int x = 0;
	double left = ctl_time_left(u);

	grid_clear(&d->header);
	if (u->state == UI_RUNNING)
		snprintf(state, sizeof(state), "RUNNING %.1f s left", left);
	else if (u->state == UI_STOPPING)
		snprintf(state, sizeof(state), "STOPPING");
	else if (u->cur)
		snprintf(state, sizeof(state), "run %s %s",
			 model_run_name(u->cur, name, sizeof(name)), model_state_name(u->cur->state));
	else
		snprintf(state, sizeof(state), "idle");
	/* Most urgent first: a narrow terminal cuts the end. */
	x += grid_printf(&d->header, x, 0, STY_TITLE, 0, " tunetop ");
	x += grid_printf(&d->header, x, 0,
			 u->state == UI_IDLE ? STY_NORMAL : STY_GOOD, 0, " %s%s ", state,
			 u->loop ? " (loop)" : "");
	if (d->per_page < u->npanels && !d->zoom)
		x += grid_printf(&d->header, x, 0, STY_PENDING, 0, " panels %u/%u Tab ",
				 u->focus / d->per_page + 1,
				 (u->npanels + d->per_page - 1) / d->per_page);
	if (plan_active(u)) {
		char prog[96];

		x += grid_printf(&d->header, x, 0, STY_PENDING, 0, " %s ",
				 plan_progress(u, prog, sizeof(prog)));
	}
	if (u->compare_note[0] && u->compare == u->compare_for)
		x += grid_printf(&d->header, x, 0, STY_WARN, 0, " %s ", u->compare_note);
	else if (u->compare)
		x += grid_printf(&d->header, x, 0, STY_GHOST, 0, " vs run %s ",
				 model_run_name(u->compare, name, sizeof(name)));
	x += grid_printf(&d->header, x, 0, STY_MAIN, 0, " %s ",
			 model_params_text(&u->p, params, sizeof(params)));
	x += grid_printf(&d->header, x, 0, STY_NORMAL, 0, " %s ", u->target);
	grid_printf(&d->header, x, 0, STY_DIM, 0, " %s ", placement(u, cpus, sizeof(cpus)));
}

static void draw_status(struct dash *d)
{
	struct ui *u = &d->u;
	double now = (double)now_ns() / 1e9;
	char right[96];
	int rw;

	grid_clear(&d->status);
	if (d->u.prompt.on) {
		int x = grid_printf(&d->status, 0, 0, STY_PENDING, 0, "%s", d->u.prompt.question);

		x += grid_text(&d->status, x, 0, d->u.prompt.text, STY_NORMAL, 0);
		grid_text(&d->status, x, 0, "_", STY_SELECTED, 1);
		return;
	}
	snprintf(right, sizeof(right), " %u pending, %u changed ", u->npending, u->nchanged);
	rw = (int)strlen(right);
	if (!u->npending && !u->nchanged)
		rw = 0;
	if (u->status[0] && now < u->status_until) {
		/* A message wider than the room beside the counts has the whole line. */
		if ((int)strlen(u->status) > d->t.w - rw - 1)
			rw = 0;
		grid_text(&d->status, 0, 0, u->status, u->status_style, d->t.w - rw - 1);
	} else {
		grid_text(&d->status, 0, 0,
			  " ? help  r run  s stop  Tab panel  / find  : cmd  q quit",
			  STY_DIM, d->t.w - rw - 1);
	}
	if (rw)
		grid_text(&d->status, d->t.w - rw, 0, right,
			  u->npending ? STY_PENDING : STY_CHANGED, rw);
}

/*
 * One entry of the help at row *row of the whole help (d->help_top the
 * first shown): its name, then its text wrapped at spaces, never cut.
 */
static void help_entry(struct dash *d, int *row, const char *name, enum style st,
		       const char *text)
{
	struct grid *g = &d->overlay;
	int y = 1 + *row - d->help_top, skip = y < 1 ? 1 - y : 0;

	if (y >= 1 && y < g->h - 1)
		grid_printf(g, 2, y, st, 12, "%s", name);
	*row += grid_wrap(g, 14, y + skip, g->w - 16, skip, g->h - 1 - (y + skip), STY_NORMAL,
			  text);
}

/* The help screen, made from the keymap and each panel's own keys; it
 * scrolls when it is taller than the terminal, and says so. */
static void draw_help(struct dash *d)
{
	struct grid *g = &d->overlay;
	int row = 0;

	grid_clear(g);
	for (size_t i = 0; i < sizeof(keymap) / sizeof(keymap[0]); i++) {
		char name[32];
		int key = keymap[i].key == K_BTAB ? TERM_KEY_BTAB :
			  keymap[i].key == K_F1 ? TERM_KEY_F1 : keymap[i].key;

		help_entry(d, &row, term_key_name(key, name, sizeof(name)), STY_MAIN,
			   keymap[i].what);
	}
	row++;
	for (unsigned i = 0; i < d->u.npanels; i++) {
		const struct panel_ops *o = d->u.panels[i].ops;

		if (o->help)
			help_entry(d, &row, o->name, STY_TITLE, o->help);
	}
	help_entry(d, &row, "results", STY_TITLE, results_help);
	d->help_rows = row;
	grid_box(g, 0, 0, g->w, g->h,
		 row - d->help_top > g->h - 2 ? "tunetop keys (Down: more, other keys close)" :
		 d->help_top ? "tunetop keys (Up: back, other keys close)" :
		 "tunetop keys (any key closes)", STY_TITLE_FOCUS);
}

/* Draw what changed and send it to the terminal in one update. */
static void frame(struct dash *d)
{
	struct ui *u = &d->u;

	if (d->t.w < MIN_W || d->t.h < MIN_H) {
		char line[128];

		snprintf(line, sizeof(line), "tunetop needs at least %dx%d; this terminal is %dx%d",
			 MIN_W, MIN_H, d->t.w, d->t.h);
		term_message(&d->t, line);
		term_flush(&d->t);
		return;
	}
	if (compare_follow(u))
		for (unsigned i = 0; i < u->npanels; i++)
			u->panels[i].dirty = true;
	if (d->help) {
		draw_help(d);
		term_paint(&d->t, &d->overlay, 0, 0);
		term_flush(&d->t);
		return;
	}
	for (unsigned i = 0; i < u->npanels; i++) {
		struct panel *p = &u->panels[i];

		if (!p->shown || !p->dirty)
			continue;
		p->ops->draw(u, p);
		term_paint(&d->t, &p->g, p->x, p->y);
		p->dirty = false;
	}
	if (results_shown(u)) {
		int y;
		struct grid *g = results_grid(u, d->t.w, d->t.h - 2, &y);

		if (g)
			term_paint(&d->t, g, 0, y);
	}
	draw_header(d);
	term_paint(&d->t, &d->header, 0, 0);
	draw_status(d);
	term_paint(&d->t, &d->status, 0, d->t.h - 1);
	term_flush(&d->t);
}

static void test_done(struct ui *u, const char *text, void *arg)
{
	char err[ERR_MAX];

	(void)arg;
	if (ctl_set_test(u, text, err))
		ui_status(u, STY_WARN, 15, "test: %s", err);
	else
		ui_status(u, STY_GOOD, 5, "next run: %s", text);
}

static void plan_done(struct ui *u, const char *text, void *arg)
{
	char err[ERR_MAX];

	if (plan_start(u, text, arg != NULL, err))
		ui_status(u, STY_WARN, 15, "%s", err);
}

/* '/' from any panel: the Knobs panel gets the focus, its cursor on the knob. */
static void find_done(struct ui *u, const char *text, void *arg)
{
	struct dash *d = arg;

	for (unsigned i = 0; i < u->npanels; i++) {
		if (u->panels[i].ops != &panel_knobs)
			continue;
		if (panel_knobs_find(u, &u->panels[i], text)) {
			u->focus = i;
			layout(d);
		}
		return;
	}
}

/* ":set SPEC ...": each knob setting as tunetop run --set takes it, on its end(s). */
static void command_set(struct ui *u, const char *args)
{
	struct plan_setting s[16];
	char err[ERR_MAX];
	unsigned n = 0;
	int test = -1;

	if (plan_side_parse(u->cat, args, s, 16, &n, &test, err)) {
		ui_status(u, STY_WARN, 15, ":set %s", err);
		return;
	}
	if (test >= 0 || !n) {
		ui_status(u, STY_WARN, 15, ":set %s: accepted: " PLAN_SETTING_ACCEPTS " ... "
			  "(test options go to :run)", args);
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		bool remote[2];
		unsigned k = 0, ne = sweep_end_sides(s[i].end, remote);

		while (k < u->nknobs && u->knobs[k].d != s[i].d)
			k++;
		if (k == u->nknobs) {
			ui_status(u, STY_WARN, 15, ":set %s: not shown in the Knobs panel", s[i].d->name);
			return;
		}
		for (unsigned e = 0; e < ne; e++)
			if (ui_knob_edit(u, k, remote[e] ? END_R : END_L, s[i].value))
				return;
	}
}

/*
 * The ':' command line: tunetop's batch syntax for what the keys do, so
 * a line tried here is the line of a script (docs/tunetop.1, "Dashboard
 * keys").  Errors are one line in the status bar.
 */
/* ":show [sweep|ab] ID": a stored sweep's plot or A/B's table (results.c). */
static void command_show(struct ui *u, const char *rest)
{
	char err[ERR_MAX];

	if (!strncmp(rest, "sweep", 5) || !strncmp(rest, "ab", 2))
		rest += strcspn(rest, " \t");
	rest += strspn(rest, " \t");
	if (!*rest) {
		ui_status(u, STY_WARN, 10, ":show: which? accepted: [sweep|ab] ID, last or last-N "
			  "(tunetop runs shows the ids)");
		return;
	}
	if (results_open_named(u, rest, err))
		ui_status(u, STY_WARN, 15, ":show %s", err);
}

static void command_done(struct ui *u, const char *text, void *arg)
{
	static const char accepted[] = "accepted: set, run, ab, sweep, show (? shows how)";
	char word[16], err[ERR_MAX];
	const char *rest;
	size_t n;

	(void)arg;
	text += strspn(text, " \t");
	n = strcspn(text, " \t");
	rest = text + n + strspn(text + n, " \t");
	if (!n) {
		ui_status(u, STY_WARN, 10, "empty command: %s", accepted);
		return;
	}
	snprintf(word, sizeof(word), "%.*s", (int)(n < 15 ? n : 15), text);
	if (!strcmp(word, "set")) {
		command_set(u, rest);
		return;
	}
	if (!strcmp(word, "show")) {
		command_show(u, rest);
		return;
	}
	if (strcmp(word, "run") && strcmp(word, "ab") && strcmp(word, "sweep")) {
		ui_status(u, STY_WARN, 15, "unknown command '%.*s': %s", (int)n, text, accepted);
		return;
	}
	if (u->state != UI_IDLE || plan_active(u)) {
		ui_status(u, STY_WARN, 5, ":%s: a run is in flight: s stops it", word);
		return;
	}
	if (!strcmp(word, "run")) {
		if (*rest && ctl_set_test(u, rest, err))
			ui_status(u, STY_WARN, 15, ":run %s", err);
		else
			ctl_run(u);
	} else if (plan_start(u, rest, word[0] == 'a', err)) {
		ui_status(u, STY_WARN, 15, ":%s %s", word, err);
	}
}

static void quit_done(struct ui *u, const char *text, void *arg)
{
	struct dash *d = arg;

	(void)u;
	d->keep_knobs = text[0] == 'y' || text[0] == 'Y';
	d->quit = true;
}

/* Quit, asking first whether changed knobs stay (the default puts them back). */
static void ask_quit(struct dash *d)
{
	char q[128];

	if (!d->u.nchanged || d->quit_asked || !ctl_changes_outlive(&d->u)) {
		d->quit = true;
		return;
	}
	d->quit_asked = true;
	snprintf(q, sizeof(q), "%u knob value%s changed: keep them? [y/N] ", d->u.nchanged,
		 d->u.nchanged == 1 ? "" : "s");
	ui_prompt(&d->u, q, "", quit_done, d);
}

static int do_action(struct dash *d, enum action a)
{
	struct ui *u = &d->u;
	char buf[256];

	switch (a) {
	case A_RUN:
		if (u->state != UI_IDLE)
			ui_status(u, STY_WARN, 3, "a run is in flight: s stops it");
		else
			ctl_run(u);
		return UK_REDRAW;
	case A_STOP:
		ctl_stop(u);
		plan_cancel(u);
		return UK_HANDLED;
	case A_LOOP:
		u->loop = !u->loop;
		ui_status(u, STY_NORMAL, 3, "loop %s", u->loop ? "on" : "off");
		if (u->loop && u->state == UI_IDLE)
			ctl_run(u);
		return UK_REDRAW;
	case A_NEXT:
	case A_PREV: {
		unsigned page = d->per_page ? u->focus / d->per_page : 0;

		u->focus = (u->focus + (a == A_NEXT ? 1 : u->npanels - 1)) % u->npanels;
		/* A new page, or a zoomed panel, needs the layout again. */
		if (d->zoom || (d->per_page && u->focus / d->per_page != page))
			return UK_RELAYOUT;
		return UK_REDRAW;
	}
	case A_ZOOM:
		d->zoom = !d->zoom;
		return UK_RELAYOUT;
	case A_UNDO:
		if (u->state != UI_IDLE) {
			for (unsigned i = 0; i < u->nknobs; i++)
				for (int e = 0; e < END_N; e++)
					ui_knob_unpend(u, i, e);
			ui_status(u, STY_NORMAL, 5, "pending edits dropped; u again when idle undoes changes");
		} else {
			ctl_undo_all(u);
		}
		return UK_REDRAW;
	case A_BASELINE:
		if (!u->cur || (!u->cur->has_result && !u->cur->history)) {
			ui_status(u, STY_WARN, 4, "no finished run to mark yet");
			return UK_HANDLED;
		}
		ctl_mark_baseline(u, u->cur);
		ui_status(u, STY_GOOD, 4, "run %s (on show) is the baseline of %s",
			  model_run_name(u->cur, buf, sizeof(buf)), test_type_name(u->cur->p.type));
		return UK_REDRAW;
	case A_COMPARE: {
		struct model_run *b = NULL;

		u->compare_note[0] = '\0';
		if (u->compare) {
			u->compare = NULL;
			return UK_REDRAW;
		}
		for (unsigned i = 0; i < u->model.nruns; i++)
			if (u->model.runs[i]->baseline && u->cur &&
			    params_same_test(&u->model.runs[i]->p, &u->cur->p) &&
			    u->model.runs[i] != u->cur)
				b = u->model.runs[i];
		if (!b)
			ui_status(u, STY_WARN, 5, "no baseline of this test and its parameters: b marks one");
		u->compare = b;
		return UK_REDRAW;
	}
	case A_TEST: {
		char params[160];

		model_params_text(&u->p, params, sizeof(params));
		snprintf(buf, sizeof(buf), "-t %s", params);
		ui_prompt(u, "test: ", buf, test_done, NULL);
		return UK_HANDLED;
	}
	case A_SWEEP:
	case A_AB:
		if (u->state != UI_IDLE || plan_active(u)) {
			ui_status(u, STY_WARN, 4, "a run is in flight: s stops it");
			return UK_HANDLED;
		}
		ui_prompt(u, a == A_SWEEP ? "sweep: " : "A/B: ", a == A_SWEEP ? "burst 0,1,4,16" :
			  "--a gro=on --b gro=off -n 5", plan_done, a == A_AB ? (void *)u : NULL);
		return UK_HANDLED;
	case A_FIND:
		ui_prompt(u, "find knob: ", "", find_done, d);
		return UK_HANDLED;
	case A_COMMAND:
		ui_prompt(u, ":", "", command_done, d);
		return UK_HANDLED;
	case A_HELP:
		d->help = true;
		d->help_top = 0;
		return UK_HANDLED;
	case A_REDRAW:
		return UK_RELAYOUT;
	case A_QUIT:
		ask_quit(d);
		return UK_HANDLED;
	}
	return 0;
}

/* A key in the prompt: edit the line; Enter answers, Esc drops it. */
static void prompt_key(struct dash *d, int key)
{
	struct ui *u = &d->u;
	size_t n = strlen(u->prompt.text);

	if (key == 27) {
		u->prompt.on = false;
		if (d->quit_asked)
			d->quit_asked = false;
	} else if (key == '\n' || key == '\r' || key == TERM_KEY_ENTER) {
		u->prompt.on = false;
		u->prompt.done(u, u->prompt.text, u->prompt.arg);
	} else if (key == 21) {		/* ^U: the whole line, as readline does */
		u->prompt.text[0] = '\0';
	} else if (key == TERM_KEY_BACKSPACE || key == 127 || key == 8) {
		while (n && ((unsigned char)u->prompt.text[n - 1] & 0xc0) == 0x80)
			u->prompt.text[--n] = '\0';
		if (n)
			u->prompt.text[n - 1] = '\0';
	} else if (key >= 32 && key < 127 && n + 1 < sizeof(u->prompt.text)) {
		u->prompt.text[n] = (char)key;
		u->prompt.text[n + 1] = '\0';
	}
}

static int handle_key(struct dash *d, int key)
{
	struct ui *u = &d->u;
	struct panel *fp = &u->panels[u->focus];
	int r;

	if (key == TERM_KEY_RESIZE) {
		term_resize(&d->t);
		return UK_RELAYOUT;
	}
	if (d->u.prompt.on) {
		prompt_key(d, key);
		return UK_REDRAW;
	}
	if (d->help) {
		int page = d->t.h - 2, last = d->help_rows > page ? d->help_rows - page : 0;

		/* Up and Down scroll (and do nothing at either end); other keys close. */
		if (key == TERM_KEY_DOWN || key == TERM_KEY_PGDN || key == ' ' || key == 'j') {
			d->help_top += key == TERM_KEY_DOWN || key == 'j' ? 1 : page - 1;
			if (d->help_top > last)
				d->help_top = last;
			return UK_HANDLED;
		}
		if (key == TERM_KEY_UP || key == TERM_KEY_PGUP || key == 'k') {
			d->help_top -= key == TERM_KEY_PGUP ? page - 1 : 1;
			if (d->help_top < 0)
				d->help_top = 0;
			return UK_HANDLED;
		}
		d->help = false;
		return UK_RELAYOUT;
	}
	r = results_key(u, key);
	if (r)
		return r;
	if (fp->ops->key) {
		r = fp->ops->key(u, fp, key);
		if (r)
			return r;
	}
	if (key == TERM_KEY_BTAB)
		key = K_BTAB;
	else if (key == TERM_KEY_F1)
		key = K_F1;
	for (size_t i = 0; i < sizeof(keymap) / sizeof(keymap[0]); i++)
		if (keymap[i].key == key)
			return do_action(d, keymap[i].a) | UK_HANDLED;
	return 0;
}

/* SIGINT asks to quit like q; SIGTERM and SIGHUP quit putting knobs back. */
static int dash_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGQUIT);
	if (sigprocmask(SIG_BLOCK, set, NULL))
		return -errno;
	return signalfd(-1, set, SFD_CLOEXEC | SFD_NONBLOCK);
}

static void dash_usage(FILE *f)
{
	fputs("usage: tunetop [--frames N] [--ascii] [--colours 0|8|256] [run options]\n"
	      "The live dashboard: the test of `tunetop run`'s options (default TCP_RR)\n"
	      "against the embedded server in a lab of its own (or loopback), or -H HOST.\n"
	      "  --frames N    quit after N frames (tests; knobs are put back)\n"
	      "  --ascii       no UTF-8 braille or block characters\n"
	      "  --colours N   0, 8 or 256 colours instead of what the terminal says\n"
	      "Keys: ? in the dashboard.  tunetop -h lists the subcommands.\n", f);
}

/* --frames, --ascii, --colours; the rest goes to `tunetop run`'s parser. */
static int dash_options(int argc, char **argv, struct dash *d, struct term_opts *to,
			char **rest, int *nrest)
{
	*nrest = 0;
	rest[(*nrest)++] = "run";
	for (int i = 1; i < argc; i++) {
		uint64_t v;

		if (!strcmp(argv[i], "--frames") || !strcmp(argv[i], "--colours") ||
		    !strcmp(argv[i], "--colors")) {
			bool frames = !strcmp(argv[i], "--frames");

			if (i + 1 >= argc ||
			    parse_uint(argv[i + 1], frames ? 1 : 0, frames ? 100000000 : 256, &v) ||
			    (!frames && v != 0 && v != 8 && v != 256)) {
				fprintf(stderr, "tunetop: option %s %s: accepted: %s\n", argv[i],
					i + 1 < argc ? argv[i + 1] : "(missing)",
					frames ? "a number of frames, 1 or more" : "0, 8 or 256");
				return 2;
			}
			if (frames)
				d->max_frames = (unsigned long)v;
			else
				to->force_colours = v == 0 ? TERM_MONO : v == 8 ? TERM_8 : TERM_256;
			i++;
		} else if (!strcmp(argv[i], "--ascii")) {
			to->force_ascii = 1;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			dash_usage(stdout);
			return 1;
		} else if (*nrest < 255) {
			rest[(*nrest)++] = argv[i];
		}
	}
	rest[*nrest] = NULL;
	return 0;
}

/* One pass of the loop: wait for a key, a frame tick, an engine event or a signal. */
static void dash_poll(struct dash *d, int tfd, int sfd)
{
	struct ui *u = &d->u;
	struct pollfd pfd[4] = {
		{ .fd = 0, .events = POLLIN },
		{ .fd = tfd, .events = POLLIN },
		{ .fd = sfd, .events = POLLIN },
		{ .fd = ctl_event_fd(u), .events = POLLIN },
	};
	int relayout = 0, key;
	uint64_t x;

	if (poll(pfd, 4, -1) < 0 && errno != EINTR)
		return;
	if (pfd[2].revents) {
		struct signalfd_siginfo si;

		while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo == SIGINT)
				ask_quit(d);
			else
				d->quit = true;
		}
	}
	if (pfd[3].fd >= 0 && pfd[3].revents) {
		struct model_run *ended = NULL;
		int what = ctl_events(u, &ended);

		/* What waited for the run: the plan's next point, or a loop's rerun. */
		if (ended && u->plan)
			plan_run_ended(u, ended);
		else if (ended && u->loop)
			ctl_run(u);

		/* A tick changes what the live panels show; the knobs only
		 * change when a run ends (pending edits, a fresh read). */
		if (what & CTL_ENDED)
			mark_all(u);
		else if (what & CTL_SAMPLES)
			for (unsigned i = 0; i < u->npanels; i++)
				if (u->panels[i].ops != &panel_knobs)
					u->panels[i].dirty = true;
	}
	while ((key = term_key(&d->t)) != -1)
		relayout |= handle_key(d, key);
	if (relayout & UK_RELAYOUT)
		layout(d);
	else if (relayout & UK_REDRAW)
		mark_all(u);
	if (pfd[1].revents && read(tfd, &x, sizeof(x)) == sizeof(x)) {
		/* The header's time left and the status line change by themselves. */
		frame(d);
		d->frames++;
		if (d->max_frames && d->frames >= d->max_frames)
			d->quit = true;
	}
}

/* Everything the dashboard holds, the lab (via ctl_close) included. */
static void dash_free(struct dash *d)
{
	plan_free(&d->u);
	plan_table_free(&d->u);
	results_free(&d->u);
	ctl_close(&d->u);
	for (unsigned i = 0; d->u.panels && i < d->u.npanels; i++)
		grid_free(&d->u.panels[i].g);
	grid_free(&d->header);
	grid_free(&d->status);
	grid_free(&d->overlay);
	free(d->u.panels);
	free(d->u.knobs);
	catalog_free(d->u.cat);
	model_free(&d->u.model);
	free(d);
}

int dashboard_main(int argc, char **argv, enum options_help *help)
{
	struct dash *d = calloc(1, sizeof(*d));
	struct term_opts to = { .force_colours = -1, .force_ascii = -1 };
	struct dash_request *rq = calloc(1, sizeof(*rq));
	char err[ERR_MAX], exe[PATH_MAX], *rest[256];
	static char *restore_argv[3];
	int nrest, rc, tfd = -1, sfd;
	struct itimerspec its = { .it_interval = { 0, FRAME_MS * 1000000L },
				  .it_value = { 0, FRAME_MS * 1000000L } };
	sigset_t set;
	ssize_t n;

	if (!d || !rq) {
		fprintf(stderr, "tunetop: out of memory\n");
		free(d);
		free(rq);
		return 1;
	}
	*help = OPTIONS_HELP_NONE;
	rc = dash_options(argc, argv, d, &to, rest, &nrest);
	if (!rc) {
		rc = ctl_request(nrest, rest, false, rq, help, err);
		if (rc > 1)
			fprintf(stderr, "tunetop: %s\n", err);
	}
	if (!rc && (!isatty(0) || !isatty(1))) {
		fprintf(stderr, "tunetop: the dashboard needs a terminal; "
			"accepted without one: tunetop run (the same options, printed results)\n");
		rc = 2;
	}
	if (rc) {
		free(rq);
		free(d);
		return rc == 1 ? 0 : 2;
	}
	model_init(&d->u.model);
	rc = ctl_open(&d->u, rq, err);
	free(rq);
	if (rc) {
		fprintf(stderr, "tunetop: %s\n", err);
		dash_free(d);
		return 1;
	}
	sfd = dash_signals(&set);
	rc = term_start(&d->t, &to, err);
	if (rc) {
		fprintf(stderr, "tunetop: %s\n", err);
		close(sfd);
		dash_free(d);
		return 1;
	}
	/* After a crash, a child puts the knobs and the lab back. */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		restore_argv[0] = exe;
		restore_argv[1] = "restore";
		term_crash_guard(restore_argv);
	}
	d->u.utf8 = d->t.utf8;
	d->u.npanels = NPANELS;
	d->u.panels = calloc(NPANELS, sizeof(*d->u.panels));
	grid_init(&d->header, 1, 1, d->u.utf8);
	grid_init(&d->status, 1, 1, d->u.utf8);
	grid_init(&d->overlay, 1, 1, d->u.utf8);
	for (unsigned i = 0; d->u.panels && i < NPANELS; i++) {
		d->u.panels[i].ops = all_panels[i];
		grid_init(&d->u.panels[i].g, 1, 1, d->u.utf8);
	}
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (!d->u.panels || tfd < 0 || timerfd_settime(tfd, 0, &its, NULL)) {
		term_stop(&d->t);
		fprintf(stderr, "tunetop: dashboard: %s\n", strerror(errno));
		if (tfd >= 0)
			close(tfd);
		close(sfd);
		dash_free(d);
		return 1;
	}
	layout(d);
	ctl_run(&d->u);
	while (!d->quit)
		dash_poll(d, tfd, sfd);
	/* Quit: the run ends, and the knobs go back unless asked to stay. */
	if (d->u.state != UI_IDLE) {
		ctl_stop(&d->u);
		plan_cancel(&d->u);
	}
	term_stop(&d->t);
	rc = 0;
	if (d->u.nchanged && !d->keep_knobs) {
		d->u.state = UI_IDLE;
		if (ctl_undo_all(&d->u)) {
			fprintf(stderr, "tunetop: %s\n", d->u.status);
			rc = 1;
		}
	} else if (d->u.nchanged) {
		printf("tunetop: %u knob value%s kept as changed; tunetop knobs restore puts them back\n",
		       d->u.nchanged, d->u.nchanged == 1 ? "" : "s");
	}
	close(tfd);
	close(sfd);
	dash_free(d);
	return rc;
}
