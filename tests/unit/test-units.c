// SPDX-License-Identifier: GPL-2.0-or-later
/* test-units.c - a test's rate unit, the axis top, the human timestamp. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tap.h"
#include "core/units.h"

static void rate_unit_follows_the_test_type(void)
{
	for (int t = 0; t < TEST_COUNT; t++) {
		const struct rate_unit *u = units_rate((enum test_type)t);
		bool rr = test_is_rr((enum test_type)t);

		ok(!strcmp(u->name, rr ? "Trans/s" : "10^6bits/s") &&
		   !strcmp(u->text, rr ? "trans/s" : "10^6bits/s") &&
		   !strcmp(u->label, rr ? "trans/s" : "Mbit/s") &&
		   u->div == (rr ? 1 : 1e6),
		   "%s: %s / %s / %s, divided by %g", test_type_name((enum test_type)t),
		   u->name, u->text, u->label, u->div);
	}
	ok(units_rate_scaled(TEST_TCP_RR, 12345.678) == 12345.678,
	   "an RR rate is shown as it is");
	ok(units_rate_scaled(TEST_TCP_STREAM, 9.41e9) == 9.41e9 / 1e6,
	   "a stream's bits/s are shown in 10^6 bits/s, as raw / 1e6 to the bit");
}

static void axis_top_is_a_nice_number_at_or_above(void)
{
	static const struct { double max, top; } c[] = {
		{ 0.9, 1 }, { 1, 1 }, { 1.1, 1.2 }, { 1.2, 1.2 }, { 1.3, 1.5 },
		{ 1.6, 2 }, { 2.2, 2.5 }, { 2.6, 3 }, { 3.5, 4 }, { 4.5, 5 },
		{ 5.5, 6 }, { 7, 8 }, { 8.5, 10 }, { 9.9, 10 }, { 10, 10 },
		{ 105, 120 }, { 3406.62, 4000 }, { 0.0042, 0.005 },
		{ 1.2000000001, 1.2 },	/* within the 1e-9 tolerance */
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		double top = units_axis_top(c[i].max);

		ok(fabs(top - c[i].top) <= c[i].top * 1e-12, "top of %g is %g (got %g)",
		   c[i].max, c[i].top, top);
	}
	ok(units_axis_top(0) == 1 && units_axis_top(-3) == 1 &&
	   units_axis_top(NAN) == 1 && units_axis_top(INFINITY) == 1,
	   "nothing to show (0, below 0, NaN, inf) gives 1");
}

static void time_text_is_local_and_fixed_width(void)
{
	char buf[UNITS_TIME_MAX], small[8];

	setenv("TZ", "UTC", 1);
	tzset();
	ok(!units_time_text(1796611832.9, buf, sizeof(buf)) &&
	   !strcmp(buf, "2026-12-07 02:50:32"), "UTC: %s", buf);
	setenv("TZ", "CET-1", 1);
	tzset();
	ok(!units_time_text(1796611832, buf, sizeof(buf)) &&
	   !strcmp(buf, "2026-12-07 03:50:32"), "local time, here CET: %s", buf);
	ok(units_time_text(1796611832, small, sizeof(small)) == -EINVAL &&
	   small[0] == '\0', "a buffer too short gives -EINVAL and \"\"");
}

int main(void)
{
	rate_unit_follows_the_test_type();
	axis_top_is_a_nice_number_at_or_above();
	time_text_is_local_and_fixed_width();
	return tap_done();
}
