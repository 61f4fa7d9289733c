// SPDX-License-Identifier: GPL-2.0-or-later
/* selectors.c - the help of the output selectors (-o/-O/-k help). */
#include "config.h"

#include "selectors.h"
#include "engine.h"

void selectors_help(FILE *f)
{
	unsigned n;
	const struct selector *tab = selector_table(&n);

	fprintf(f, "Output selectors (-o A,B CSV, -O A,B columns, -k A,B NAME=value; names are case-insensitive, n/a = not measured):\n");
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "  %-25s %s\n", tab[i].name, tab[i].desc);
}

