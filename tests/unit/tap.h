/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tap.h - the smallest TAP producer the unit tests need. */
#ifndef TT_TAP_H
#define TT_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_n, tap_failed;

/* Report one check; returns cond so callers can bail out of dependent checks. */
#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

__attribute__((format(printf, 4, 5), unused))
static int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond) {
		printf("#   failed at %s:%d\n", file, line);
		tap_failed++;
	}
	fflush(stdout);
	return cond;
}

/* Print the plan and return the exit status for main(). */
__attribute__((unused))
static int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
