/* SPDX-License-Identifier: GPL-2.0-or-later */
/* selectors.h - netperf omni-style output selectors over a run summary. */
#ifndef TT_SELECTORS_H
#define TT_SELECTORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"
#include "run.h"

/* Most selectors one -o/-O/-k list may name (repeats count). */
#define SEL_MAX 192
/* Longest string value a selector yields, including the NUL. */
#define SEL_STR_MAX 256

enum sel_kind {
	SEL_NA,		/* absent: "n/a", JSON null */
	SEL_INT,
	SEL_REAL,
	SEL_STR,
};

/* One selector's value for one run. */
struct sel_value {
	enum sel_kind kind;
	int64_t i;
	double d;
	int prec;		/* digits after the point for SEL_REAL */
	char s[SEL_STR_MAX];
};

/* A selector: its getter reads r, told by arg which variant (end, field). */
struct selector {
	const char *name;	/* upper case, netperf's omni name where one exists */
	const char *desc;	/* one line for `-o help` */
	void (*get)(const struct run_summary *r, int arg, struct sel_value *v);
	int arg;
};

/* The selectors a list names, as indexes into the table. */
struct selector_list {
	unsigned n;
	unsigned idx[SEL_MAX];
};

/* The table of every selector, in `-o help` order; *n gets its length. */
const struct selector *selector_table(unsigned *n);

/* The index of name (case-insensitive) in the table, or -1. */
int selector_find(const char *name);

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

/* Evaluate selector i of the table for r; never yields NaN or infinity. */
void selector_eval(unsigned i, const struct run_summary *r,
		   struct sel_value *v);

/* Format v as text ("n/a" when absent) into buf; returns buf. */
const char *sel_value_format(const struct sel_value *v, char *buf, size_t len);

#endif
