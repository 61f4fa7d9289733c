/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * selectors-netperf.h - netperf 2.7.1's titles and printf formats of the
 * output selectors it has, for -o, -O and -k (docs/tunetop.1, OUTPUT).
 */
#ifndef TT_SELECTORS_NETPERF_H
#define TT_SELECTORS_NETPERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "selectors.h"

/* How netperf prints a value: its printf conversion. */
enum np_fmt {
	NPF_D,		/* %d; a measured real is rounded */
	NPF_U64,	/* %PRIu64 */
	NPF_F0,		/* %.0f */
	NPF_F2,		/* %.2f */
	NPF_F3,		/* %.3f */
	NPF_F6,		/* %f */
	NPF_S,		/* %s */
	NPF_C,		/* %c */
	NPF_X2,		/* 0x%.2x of an int (netperf's socket TOS; -1 is 0xffffffff) */
};

/* A selector as netperf prints it: up to four title lines and a format. */
struct np_sel {
	const char *name;
	const char *line[4];
	enum np_fmt fmt;
};

/* netperf's entry for name (case-insensitive), or NULL: a tunetop selector. */
const struct np_sel *np_sel_find(const char *name);

/*
 * The title lines of selector s: netperf's, or for a selector netperf
 * lacks its name as the one line.  Unused lines are "".
 */
void np_sel_title(const struct selector *s, const char *line[4]);

/* The title on one line, as -o's header row prints it ("Local CPU Util %"). */
const char *np_sel_title_line(const struct selector *s, char *buf, size_t len);

/*
 * Format v of selector s as netperf would: its format, and for an absent
 * figure netperf's placeholder (-1, -1.00, -1.000, ""); a selector
 * netperf lacks prints as sel_value_format does ("n/a").  Returns buf.
 */
const char *np_sel_format(const struct selector *s, const struct sel_value *v,
			  char *buf, size_t len);

/*
 * `-o ?`: every selector name on one line, comma-separated, netperf's in
 * netperf's order first, then tunetop's own.
 */
void np_sel_list(FILE *f);

#endif
