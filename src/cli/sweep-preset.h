/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep-preset.h - `tunetop sweep preset`: the named sweeps of data/sweeps. */
#ifndef TT_SWEEP_PRESET_H
#define TT_SWEEP_PRESET_H

/*
 * Replace `sweep preset NAME [run options]` in *argc, *argv by the preset's
 * `sweep KIND ARGS... [run options]` (kept in static storage): 0 when
 * replaced, -1 when there was no NAME and the presets were listed on
 * stdout, or the exit status (1, 2) with the reason on stderr.
 */
int sweep_preset_expand(int *argc, char ***argv);

#endif
