// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-catalog.c - the knob catalog parser: the input is a catalog file
 * (data/knobs); every knob it defines is then asked to parse a set of
 * values of every kind, as knobs set and KNOB_SET would.
 */
#include "config.h"

#include <unistd.h>

#include "knobs/catalog.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const values[] = {
		"0", "1", "-1", "64", "64K", "1G", "9223372036854775807",
		"18446744073709551616", "100mbit", "on", "off", "1 2 3", "4096 87380 6291456",
		"", " ", "x", "1e9", "0x10", "-0",
	};
	char path[64], err[ERR_MAX];
	struct knob_value v;
	struct catalog *c = NULL;
	int fd = fuzz_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	if (catalog_load(&c, path, err) == 0) {
		for (unsigned i = 0; i < catalog_count(c); i++) {
			const struct knob_def *d = catalog_at(c, i);

			catalog_find(c, d->name);
			knob_scope_text(d);
			for (size_t j = 0; j < sizeof(values) / sizeof(*values); j++)
				knob_parse_value(d, values[j], &v, err);
		}
		catalog_free(c);
	}
	close(fd);
	return 0;
}
