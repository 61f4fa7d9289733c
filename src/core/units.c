// SPDX-License-Identifier: GPL-2.0-or-later
/* units.c - how a figure is shown: a test's rate unit, an axis top, a time. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "units.h"

static const struct rate_unit rate_trans = {
	.name = "Trans/s", .text = "trans/s", .label = "trans/s", .title = "per sec", .div = 1,
};

/* netperf's -f units (its format_units(): titles "...sec", names "...s"). */
static const struct rate_unit rate_flags[] = {
	{ .name = "10^3bits/s", .text = "10^3bits/s", .label = "kbit/s", .title = "10^3bits/sec", .div = 1e3 },
	{ .name = "10^6bits/s", .text = "10^6bits/s", .label = "Mbit/s", .title = "10^6bits/sec", .div = 1e6 },
	{ .name = "10^9bits/s", .text = "10^9bits/s", .label = "Gbit/s", .title = "10^9bits/sec", .div = 1e9 },
	{ .name = "KBytes/s", .text = "KBytes/s", .label = "KiB/s", .title = "KBytes/sec", .div = 8.0 * 1024 },
	{ .name = "MBytes/s", .text = "MBytes/s", .label = "MiB/s", .title = "MBytes/sec", .div = 8.0 * 1024 * 1024 },
	{ .name = "GBytes/s", .text = "GBytes/s", .label = "GiB/s", .title = "GBytes/sec", .div = 8.0 * 1024 * 1024 * 1024 },
};

const struct rate_unit *units_rate_flag(char f)
{
	static const char letters[] = "kmgKMG";
	const char *p = f ? strchr(letters, f) : NULL;

	return p ? &rate_flags[p - letters] : NULL;
}

const struct rate_unit *units_rate(enum test_type t)
{
	return test_is_rr(t) ? &rate_trans : units_rate_flag('m');
}

double units_rate_scaled(enum test_type t, double raw)
{
	return raw / units_rate(t)->div;
}

/* The steps read well as axis labels (1.2 and 1.5 keep a top near max). */
double units_axis_top(double max)
{
	static const double m[] = { 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 };
	double mag;

	if (!(max > 0) || !isfinite(max))
		return 1;
	mag = pow(10, floor(log10(max)));
	for (unsigned i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i] * mag >= max * (1 - 1e-9))
			return m[i] * mag;
	return 10 * mag;
}

int units_time_text(double t, char *buf, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;

	if (!len)
		return -EINVAL;
	if (!localtime_r(&s, &tm) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm)) {
		buf[0] = '\0';
		return -EINVAL;
	}
	return 0;
}
