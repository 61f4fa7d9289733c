/* SPDX-License-Identifier: GPL-2.0-or-later */
/* knobs-cmd.h - `tunetop knobs list|get|set|snapshot|diff|restore`. */
#ifndef TT_KNOBS_CMD_H
#define TT_KNOBS_CMD_H

#include <stdio.h>

int knobs_main(int argc, char **argv);

/* Put back every journaled knob value, saying so on f; 0, or 1 on a failure. */
int knobs_restore_report(FILE *f, const char *who);

#endif
