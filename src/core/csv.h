/* SPDX-License-Identifier: GPL-2.0-or-later */
/* csv.h - the one CSV field writer every CSV output uses (RFC 4180). */
#ifndef TT_CSV_H
#define TT_CSV_H

#include <stdio.h>

/*
 * Write s to f as one RFC 4180 field: as it is, unless it holds a comma,
 * a double quote, a CR or an LF; then in double quotes, each '"' doubled.
 * Returns 0, or -EIO when f did not take it.
 */
int csv_put(FILE *f, const char *s);

/*
 * Write s to f in double quotes, each '"' doubled, whatever it holds
 * (RFC 4180 lets any field be quoted: a sweep's POINT always is).
 * Returns 0, or -EIO.
 */
int csv_put_quoted(FILE *f, const char *s);

#endif
