/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep-preset.h - the named sweeps of data/sweeps, for every front end. */
#ifndef TT_STATS_SWEEP_PRESET_H
#define TT_STATS_SWEEP_PRESET_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/sweep-policy.h"

/*
 * data/sweeps holds one preset a line, "NAME KIND ARGS...", blanks
 * between the fields, '#' starting a comment (docs/sweeps.md, "Presets").
 * `tunetop sweep preset` and the dashboard's sweep prompt read it here.
 */
#define SWEEP_PRESET_LINE 1024
#define SWEEP_PRESET_WORDS 64

struct sweep_preset {
	char text[SWEEP_PRESET_LINE];	/* the line, its comment and trailing blanks dropped,
					 * tabs as spaces, control bytes as \xNN (str_escape) */
	char buf[SWEEP_PRESET_LINE];	/* the words' storage */
	char *word[SWEEP_PRESET_WORDS];	/* NAME KIND ARGS... */
	unsigned nword;
	unsigned lineno;		/* in the file, from 1 */
	enum sweep_kind kind;		/* word[1], when sweep_preset_find checked it */
	const char *columns;		/* its --columns LIST (in buf), or NULL */
};

/* The presets' file: beside the knob catalog (data/, or $(pkgdatadir)); buf returned. */
const char *sweep_preset_path(char *buf, size_t len);

/*
 * Call cb for every preset line of the file at path, in order (words
 * split, nothing checked beyond the line's length); cb returning non-zero
 * stops there with that value.  0, the value of cb, or -EIO with err
 * ("PATH: why") when the file cannot be read, -EINVAL with err
 * ("PATH:LINE: ...") for a line too long.
 */
int sweep_preset_each(const char *path, int (*cb)(const struct sweep_preset *p, void *arg),
		      void *arg, char *err);

/* The presets' names, ", " between them ("none defined" when none).  0 or as _each. */
int sweep_preset_names(const char *path, char *buf, size_t len, char *err);

/*
 * Preset name of the file at path into p, its line checked: a kind of
 * sweep_policy_kind_parse() (show and preset are not kinds), a list after
 * --columns.  0; -ENOENT with err "NAME: unknown preset; accepted: NAMES
 * (PATH)"; -EINVAL with err "NAME: PATH:LINE: what; accepted: what"; or
 * -EIO as _each.
 */
int sweep_preset_find(const char *path, const char *name, struct sweep_preset *p, char *err);

#endif
