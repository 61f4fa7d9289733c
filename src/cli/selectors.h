/* SPDX-License-Identifier: GPL-2.0-or-later */
/* selectors.h - lists of output selectors (-o/-O/-k) over the engine's result fields. */
#ifndef TT_SELECTORS_H
#define TT_SELECTORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"

/* Most selectors one -o/-O/-k list may name (repeats count). */
#define SEL_MAX 192
/* The selectors a list names, as indexes into the table. */
struct selector_list {
	unsigned n;
	unsigned idx[SEL_MAX];
};

/*
 * Parse a comma-separated list of selector names into out.  An empty list
 * gives the default set of test type t (iterating adds the confidence
 * figures).  Returns 0, or -EINVAL with "option -X LIST: ..." in err, where
 * opt is the option letter the list came with.
 */
int selectors_parse(const char *list, char opt, enum test_type t,
		    bool iterating, struct selector_list *out, char *err);

/* The default set for test type t. */
void selectors_default(enum test_type t, bool iterating,
		       struct selector_list *out);

/* Print every selector with its description, for `-o help`. */
void selectors_help(FILE *f);

#endif
