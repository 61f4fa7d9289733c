// SPDX-License-Identifier: GPL-2.0-or-later
/* csv.c - the one CSV field writer every CSV output uses (RFC 4180). */
#include <errno.h>
#include <string.h>

#include "csv.h"

int csv_put_quoted(FILE *f, const char *s)
{
	if (fputc('"', f) == EOF)
		return -EIO;
	for (; *s; s++) {
		if (*s == '"' && fputc('"', f) == EOF)
			return -EIO;
		if (fputc(*s, f) == EOF)
			return -EIO;
	}
	return fputc('"', f) == EOF ? -EIO : 0;
}

/* RFC 4180 section 2, rules 5 to 7: quote only what needs it. */
int csv_put(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n"))
		return fputs(s, f) < 0 ? -EIO : 0;
	return csv_put_quoted(f, s);
}
