// SPDX-License-Identifier: GPL-2.0-or-later
/* test-csv.c - the CSV field writer: RFC 4180 quoting, only where needed. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "core/csv.h"

/* The bytes csv_put (csv_put_quoted if always) writes for s; NULL on failure. */
static char *written(const char *s, bool always)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return NULL;
	ret = always ? csv_put_quoted(f, s) : csv_put(f, s);
	if (fclose(f) || ret) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void check(const char *in, const char *want, const char *what)
{
	char *got = written(in, false);

	ok(got && !strcmp(got, want), "%s: [%s] (got [%s])", what, want,
	   got ? got : "(failed)");
	free(got);
}

static void plain_fields_stay_as_they_are(void)
{
	check("", "", "an empty field is empty");
	check("12345.67", "12345.67", "a number is bare");
	check("Trans/s", "Trans/s", "a unit is bare");
	check("lab: a (veth; MTU 1500)", "lab: a (veth; MTU 1500)",
	      "a semicolon and spaces need no quotes");
	check("a\tb", "a\tb", "a tab needs no quotes");
	check("it's", "it's", "a single quote needs no quotes");
}

static void special_fields_are_quoted(void)
{
	check("a,b", "\"a,b\"", "a comma is quoted");
	check("say \"hi\"", "\"say \"\"hi\"\"\"", "a quote is doubled, the field quoted");
	check("\"", "\"\"\"\"", "a lone quote");
	check("a\nb", "\"a\nb\"", "an LF is quoted");
	check("a\rb", "\"a\rb\"", "a CR is quoted");
	check("x=\"1,2\",y", "\"x=\"\"1,2\"\",y\"", "quotes and commas together");
}

static void quoted_fields_are_always_quoted(void)
{
	static const char *const in[] = { "4096", "", "a,b", "say \"hi\"" };
	static const char *const want[] = {
		"\"4096\"", "\"\"", "\"a,b\"", "\"say \"\"hi\"\"\"",
	};

	for (unsigned i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		char *got = written(in[i], true);

		ok(got && !strcmp(got, want[i]), "csv_put_quoted: [%s] (got [%s])",
		   want[i], got ? got : "(failed)");
		free(got);
	}
}

static void a_full_stream_is_an_error(void)
{
	char buf[4];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	int ret;

	if (!ok(f, "fmemopen"))
		return;
	setvbuf(f, NULL, _IONBF, 0);
	ret = csv_put(f, "\"longer than four bytes\"");
	fclose(f);
	ok(ret < 0, "a stream that cannot take the field gives an error (%d)", ret);
}

int main(void)
{
	plain_fields_stay_as_they_are();
	special_fields_are_quoted();
	quoted_fields_are_always_quoted();
	a_full_stream_is_an_error();
	return tap_done();
}
