/* SPDX-License-Identifier: GPL-2.0-or-later */
/* results.h - a sweep's plot or an A/B's table, read from the history, over the panels until Esc. */
#ifndef TT_RESULTS_H
#define TT_RESULTS_H

#include <stdint.h>

#include "ui.h"

/*
 * Show stored sweep or A/B id (the history's sweeps table, whichever
 * front end made it): an A/B as a table of each metric's medians, change
 * with its interval and verdict word; a sweep as a plot of the rate
 * against the swept value, its cliffs marked by the engine's rule and a
 * cursor on a point with its columns.  It stays until Esc.  0, or -errno
 * with err (one line: what, and what is accepted).
 */
int results_open(struct ui *u, int64_t id, char *err);
/* The same by a name `tunetop sweep show` takes: "12", "last", "last-1". */
int results_open_named(struct ui *u, const char *name, char *err);
/* A plan (ui/plan.c) ended: its results shown; the status line says why not. */
void results_open_plan(struct ui *u, int64_t sweep_id);
/* The results of the sweep or A/B the stored run db_id belongs to. */
int results_open_run(struct ui *u, int64_t db_id, char *err);

/* Results are on show. */
bool results_shown(const struct ui *u);
/*
 * The results' grid for a screen of w x h (the header's and the status
 * line's rows left out): the top half, or all of it when zoomed; *y the
 * row it goes at.  Drawn again only when it changed or the size did.
 */
struct grid *results_grid(struct ui *u, int w, int h, int *y);
/* Keys while shown: Esc closes, z zooms, Left/Right move the sweep's
 * cursor; UK_* (0: not for the results). */
int results_key(struct ui *u, int key);
/* What its keys do, for the help. */
extern const char results_help[];
void results_free(struct ui *u);

#endif
