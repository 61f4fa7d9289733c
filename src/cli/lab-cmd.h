/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lab-cmd.h - `tunetop lab ...` and `tunetop restore`. */
#ifndef TT_LAB_CMD_H
#define TT_LAB_CMD_H

#include <stdbool.h>
#include <stdio.h>

int lab_main(int argc, char **argv);
int restore_main(int argc, char **argv);
/* Remove labs whose owner is dead, saying so on f (also when there were
 * none, if verbose); 0, or 1 on an error. */
int lab_reap_report(FILE *f, const char *who, bool verbose);

#endif
