/* SPDX-License-Identifier: GPL-2.0-or-later */
/* datadir.h - where tunetop's data files (data/knobs, data/sweeps) are. */
#ifndef TT_DATADIR_H
#define TT_DATADIR_H

/*
 * The data folder: $TUNETOP_DATADIR if set; else $top_srcdir/data (set by
 * `make check`) if its knobs file is readable; else PKGDATADIR if its
 * knobs is; else a data/ folder with a readable knobs up to five levels
 * above the running program (a build tree); else PKGDATADIR.  A static
 * buffer, without a trailing '/'.
 */
const char *datadir_path(void);

#endif
