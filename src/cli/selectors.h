/* SPDX-License-Identifier: GPL-2.0-or-later */
/* selectors.h - the help of the output selectors (-o/-O/-k help). */
#ifndef TT_SELECTORS_H
#define TT_SELECTORS_H

#include <stdio.h>

#include "engine.h"

/* Print every selector with its description, for `-o help`. */
void selectors_help(FILE *f);

#endif
