/* SPDX-License-Identifier: GPL-2.0-or-later */
/* catalog.h - the knob catalog (data/knobs): loading and lookup (values: knob.h). */
#ifndef TT_CATALOG_H
#define TT_CATALOG_H

#include <stdbool.h>

#include "knobs/knob.h"

struct catalog;

/*
 * Load the catalog at path (format: docs/knobs.md).  Every line is
 * checked; the first bad one fails the load with "path:LINE: field
 * 'text': why" in err.  Duplicate names are rejected.  0 or -errno
 * (-EINVAL for a malformed file).
 */
int catalog_load(struct catalog **cp, const char *path, char *err);

void catalog_free(struct catalog *c);

/*
 * The knob called name, or NULL.  Exact match; a sysctl may also be
 * named with '/' for '.' ("net/ipv4/tcp_sack").
 */
const struct knob_def *catalog_find(const struct catalog *c, const char *name);

/* Knobs in file order: catalog_at(c, i) for i < catalog_count(c). */
unsigned catalog_count(const struct catalog *c);
const struct knob_def *catalog_at(const struct catalog *c, unsigned i);

/*
 * Where the catalog is: $TUNETOP_DATADIR/knobs if set; else
 * $top_srcdir/data/knobs (set by `make check`); else PKGDATADIR/knobs if
 * it exists; else data/knobs found beside or above the running program
 * (a build tree); else PKGDATADIR/knobs.  A static buffer.
 */
const char *catalog_default_path(void);

#endif
