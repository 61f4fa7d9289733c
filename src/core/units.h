/* SPDX-License-Identifier: GPL-2.0-or-later */
/* units.h - how a figure is shown: a test's rate unit, an axis top, a time. */
#ifndef TT_UNITS_H
#define TT_UNITS_H

#include <stddef.h>

#include "params.h"

/*
 * The unit of a test's rate.  An RR test counts transactions a second; a
 * stream counts bits a second, shown in millions (netperf's 10^6bits/s):
 * shown = raw / div.  Three spellings, each where it is shown today:
 * name is netperf's THROUGHPUT_UNITS ("Trans/s", "10^6bits/s": -o/-k, the
 * result document, sweeps), text the same in running text ("trans/s",
 * "10^6bits/s": the A/B report), label the dashboard's ("trans/s",
 * "Mbit/s").
 */
struct rate_unit {
	const char *name;
	const char *text;
	const char *label;
	const char *title;	/* netperf's column title ("10^6bits/sec") */
	double div;
};

/* The rate unit of a test of type t. */
const struct rate_unit *units_rate(enum test_type t);

/*
 * netperf's -f letter f as a stream's unit: k, m, g (10^3, 10^6, 10^9
 * bits a second), K, M, G (2^10, 2^20, 2^30 bytes a second); NULL for
 * another letter.  Its div turns bits a second into the unit.
 */
const struct rate_unit *units_rate_flag(char f);

/* A raw rate of a test of type t (trans/s, bits/s) in its unit. */
double units_rate_scaled(enum test_type t, double raw);

/*
 * The top of an axis from 0: the least of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6,
 * 8 times a power of ten at or above max; 1 when max is not above 0.
 */
double units_axis_top(double max);

/*
 * Wall-clock time t (seconds since the epoch) as people read it, local
 * time "2026-12-07 02:50:32", into buf.  Returns 0, or -EINVAL (buf "")
 * when t has no such time or buf is too short (UNITS_TIME_MAX will do).
 */
#define UNITS_TIME_MAX 32
int units_time_text(double t, char *buf, size_t len);

#endif
