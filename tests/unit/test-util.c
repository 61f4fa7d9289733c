// SPDX-License-Identifier: GPL-2.0-or-later
/* test-util.c - size/number parsing, error buffers, full reads and writes. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "core/util.h"

struct size_case {
	const char *s;
	int ret;
	uint64_t want;
};

static const struct size_case size_cases[] = {
	{ "0", 0, 0 },
	{ "1", 0, 1 },
	{ "4096", 0, 4096 },
	{ "1K", 0, 1024 },
	{ "1k", 0, 1000 },
	{ "16K", 0, 16384 },
	{ "64k", 0, 64000 },
	{ "2M", 0, 2097152 },
	{ "2m", 0, 2000000 },
	{ "3G", 0, 3221225472ull },
	{ "3g", 0, 3000000000ull },
	{ "18446744073709551615", 0, UINT64_MAX },
	{ "", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "+1", -EINVAL, 0 },
	{ " 1", -EINVAL, 0 },
	{ "12x", -EINVAL, 0 },
	{ "1KK", -EINVAL, 0 },
	{ "1K ", -EINVAL, 0 },
	{ "K", -EINVAL, 0 },
	{ "1.5K", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
	{ "18446744073709551616", -EINVAL, 0 },
	{ "17179869184G", -ERANGE, 0 },
	{ "18446744073709552k", -ERANGE, 0 },
};

static void test_parse_size(void)
{
	unsigned i;

	for (i = 0; i < sizeof(size_cases) / sizeof(size_cases[0]); i++) {
		const struct size_case *c = &size_cases[i];
		uint64_t out = 12345;
		int ret = parse_size(c->s, &out);

		if (c->ret == 0)
			ok(ret == 0 && out == c->want,
			   "parse_size(\"%s\") = %llu", c->s,
			   (unsigned long long)c->want);
		else
			ok(ret == c->ret && out == 12345,
			   "parse_size(\"%s\") fails with %s, output untouched",
			   c->s, c->ret == -ERANGE ? "-ERANGE" : "-EINVAL");
	}
	ok(parse_size(NULL, &(uint64_t){ 0 }) == -EINVAL,
	   "parse_size(NULL) is -EINVAL");
}

static void test_parse_uint(void)
{
	uint64_t v = 7;

	ok(parse_uint("5", 1, 10, &v) == 0 && v == 5, "parse_uint 5 in [1,10]");
	ok(parse_uint("1", 1, 10, &v) == 0 && v == 1 &&
	   parse_uint("10", 1, 10, &v) == 0 && v == 10,
	   "parse_uint accepts both ends of the range");
	v = 7;
	ok(parse_uint("0", 1, 10, &v) == -ERANGE &&
	   parse_uint("11", 1, 10, &v) == -ERANGE && v == 7,
	   "parse_uint rejects values just outside the range with -ERANGE");
	ok(parse_uint("18446744073709551615", 0, UINT64_MAX, &v) == 0 &&
	   v == UINT64_MAX, "parse_uint takes UINT64_MAX");
	ok(parse_uint("18446744073709551616", 0, UINT64_MAX, &v) == -ERANGE,
	   "parse_uint: beyond 64 bits is -ERANGE");
	ok(parse_uint("", 0, 10, &v) == -EINVAL &&
	   parse_uint("-1", 0, 10, &v) == -EINVAL &&
	   parse_uint("+1", 0, 10, &v) == -EINVAL &&
	   parse_uint("3x", 0, 10, &v) == -EINVAL &&
	   parse_uint("1K", 0, 10000, &v) == -EINVAL &&
	   parse_uint(NULL, 0, 10, &v) == -EINVAL,
	   "parse_uint rejects empty, signs, suffixes and NULL with -EINVAL");
}

static void test_parse_double(void)
{
	double d = 42;

	ok(parse_double("2.5", 0, 10, &d) == 0 && d == 2.5,
	   "parse_double 2.5 in [0,10]");
	ok(parse_double("-0.25", -1, 1, &d) == 0 && d == -0.25 &&
	   parse_double("1e2", 0, 1000, &d) == 0 && d == 100,
	   "parse_double takes negatives and exponents");
	ok(parse_double("99", 50, 99, &d) == 0 && d == 99,
	   "parse_double accepts the upper end");
	d = 42;
	ok(parse_double("100", 50, 99.9, &d) == -ERANGE &&
	   parse_double("49.99", 50, 99.9, &d) == -ERANGE && d == 42,
	   "parse_double: outside the range is -ERANGE, output untouched");
	ok(parse_double("nan", -1e300, 1e300, &d) == -EINVAL &&
	   parse_double("inf", -1e300, 1e300, &d) == -EINVAL &&
	   parse_double("-infinity", -1e300, 1e300, &d) == -EINVAL &&
	   parse_double("1e999", -1e300, 1e300, &d) == -EINVAL,
	   "parse_double rejects nan, inf and overflow");
	ok(parse_double("", 0, 1, &d) == -EINVAL &&
	   parse_double("abc", 0, 1, &d) == -EINVAL &&
	   parse_double("0.5x", 0, 1, &d) == -EINVAL &&
	   parse_double(NULL, 0, 1, &d) == -EINVAL && d == 42,
	   "parse_double rejects empty, garbage and trailing text");
}

static void test_err_set(void)
{
	char err[ERR_MAX];
	char long_arg[2 * ERR_MAX];
	int ret;

	ret = err_set(err, -ENOENT, "%s: %s", "eth9", strerror(ENOENT));
	ok(ret == -ENOENT && !strcmp(err, "eth9: No such file or directory"),
	   "err_set formats \"what: why\" and returns the code");
	memset(long_arg, 'a', sizeof(long_arg) - 1);
	long_arg[sizeof(long_arg) - 1] = '\0';
	ret = err_set(err, -1, "x: %s", long_arg);
	ok(ret == -1 && strlen(err) == ERR_MAX - 1 &&
	   !strncmp(err, "x: aaa", 6),
	   "err_set truncates to ERR_MAX - 1 characters");
	ok(err_set(NULL, -EIO, "ignored %d", 1) == -EIO,
	   "err_set with no buffer still returns the code");
}

struct drain {
	int fd;
	size_t len;
	unsigned char *buf;
	int ret;
};

static void *drain_main(void *arg)
{
	struct drain *d = arg;

	d->ret = read_full(d->fd, d->buf, d->len);
	return NULL;
}

static void test_full_io(void)
{
	size_t len = 1 << 20, i;	/* far beyond a pipe's buffer */
	unsigned char *out = malloc(len), *in = malloc(len), small[16];
	struct drain d;
	pthread_t t;
	int p[2], ret;
	bool same;

	if (!out || !in || pipe(p)) {
		ok(0, "set up buffers and a pipe");
		free(out);
		free(in);
		return;
	}
	for (i = 0; i < len; i++)
		out[i] = (unsigned char)(i * 131 + 7);
	d = (struct drain){ .fd = p[0], .len = len, .buf = in, .ret = 1 };
	if (pthread_create(&t, NULL, drain_main, &d)) {
		ok(0, "start reader thread");
		return;
	}
	ret = write_full(p[1], out, len);
	pthread_join(t, NULL);
	same = !memcmp(in, out, len);
	ok(ret == 0 && d.ret == 0 && same,
	   "1 MiB through a pipe: write_full and read_full move every byte");

	ret = write_full(p[1], "abc", 3);
	close(p[1]);
	memset(small, 0, sizeof(small));
	ok(ret == 0 && read_full(p[0], small, 3) == 0 &&
	   !memcmp(small, "abc", 3), "a short message arrives whole");
	ok(read_full(p[0], small, 1) == -EPIPE,
	   "read_full at EOF returns -EPIPE");
	close(p[0]);

	if (pipe(p)) {
		ok(0, "second pipe");
		free(out);
		free(in);
		return;
	}
	ret = write_full(p[1], "hello", 5);
	close(p[1]);
	ok(ret == 0 && read_full(p[0], small, 8) == -EPIPE,
	   "read_full of more than was written returns -EPIPE at EOF");
	close(p[0]);

	if (pipe(p)) {
		ok(0, "third pipe");
		free(out);
		free(in);
		return;
	}
	close(p[0]);
	ok(write_full(p[1], "x", 1) == -EPIPE,
	   "write_full to a pipe with no reader returns -EPIPE");
	close(p[1]);
	ok(read_full(-1, small, 1) == -EBADF &&
	   write_full(-1, "x", 1) == -EBADF,
	   "a bad descriptor gives -EBADF");
	free(out);
	free(in);
}


/* tc's rate syntax: units, "none", and everything else refused. */
static void test_parse_rate(void)
{
	static const struct {
		const char *in;
		int rc;
		uint64_t want;
	} cases[] = {
		{ "1gbit", 0, 1000000000ull }, { "10gbit", 0, 10000000000ull },
		{ "100mbit", 0, 100000000ull }, { "2.5gbit", 0, 2500000000ull },
		{ "1GBIT", 0, 1000000000ull }, { "125mbps", 0, 1000000000ull },
		{ "64kbit", 0, 64000ull }, { "none", 0, 0 }, { "8bit", 0, 8 },
		{ "fast", -EINVAL, 0 }, { "", -EINVAL, 0 }, { "1", -EINVAL, 0 },
		{ "1gb", -EINVAL, 0 }, { "-1gbit", -EINVAL, 0 }, { "0gbit", -EINVAL, 0 },
		{ "1e20gbit", -EINVAL, 0 }, { "gbit", -EINVAL, 0 }, { "nan gbit", -EINVAL, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;
		int rc = parse_rate(cases[i].in, &v);

		ok(rc == cases[i].rc && (rc || v == cases[i].want),
		   "parse_rate(\"%s\") = %d, %llu", cases[i].in, rc, (unsigned long long)v);
	}
}

/* Peer and file strings: controls and bad UTF-8 escaped, printable kept. */
static void test_str_escape(void)
{
	static const struct {
		const char *in;
		size_t len;	/* 0: strlen */
		const char *want;
		size_t escaped;
	} cases[] = {
		{ "lab-b", 0, "lab-b", 0 },
		{ "h\xc3\xa9te \xe2\x82\xac \xf0\x9f\x98\x80", 0, "h\xc3\xa9te \xe2\x82\xac \xf0\x9f\x98\x80", 0 },
		{ "\x1b]0;pwned\x07x", 0, "\\x1b]0;pwned\\x07x", 2 },
		{ "\x1b[31mred", 0, "\\x1b[31mred", 1 },
		{ "a\nb\rc\td", 0, "a\\x0ab\\x0dc\\x09d", 3 },
		{ "del\x7f", 0, "del\\x7f", 1 },
		{ "csi\xc2\x9b", 0, "csi\\xc2\\x9b", 2 },		/* C1 CSI */
		{ "nbsp\xc2\xa0", 0, "nbsp\xc2\xa0", 0 },
		{ "bad\xff\xfe", 0, "bad\\xff\\xfe", 2 },
		{ "over\xc0\xaf", 0, "over\\xc0\\xaf", 2 },		/* overlong '/' */
		{ "sur\xed\xa0\x80", 0, "sur\\xed\\xa0\\x80", 3 },	/* U+D800 */
		{ "big\xf4\x90\x80\x80", 0, "big\\xf4\\x90\\x80\\x80", 4 },
		{ "cut\xe2\x82", 0, "cut\\xe2\\x82", 2 },
		{ "nul\0x", 5, "nul\\x00x", 1 },
	};
	char out[64], small[8];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len = cases[i].len ? cases[i].len : strlen(cases[i].in);
		size_t n = str_escape(out, sizeof(out), cases[i].in, len);

		ok(!strcmp(out, cases[i].want) && n == cases[i].escaped,
		   "str_escape case %zu: \"%s\", %zu escaped", i, out, n);
	}
	/* Full: stops before an escape or a character that does not fit. */
	str_escape(small, sizeof(small), "abcde\x1b", 6);
	ok(!strcmp(small, "abcde"), "a full buffer does not get half an escape (%s)", small);
	str_escape(small, sizeof(small), "abcdef\xc3\xa9", 8);
	ok(!strcmp(small, "abcdef"), "a full buffer does not get half a character (%s)", small);
	strcpy(out, "x\x1b]2;t\x07");
	ok(str_sanitize(out, sizeof(out)) == 2 && !strcmp(out, "x\\x1b]2;t\\x07"),
	   "str_sanitize escapes in place (%s)", out);
	strcpy(small, "\n\n\n");
	str_sanitize(small, sizeof(small));
	ok(!strcmp(small, "\\x0a"), "str_sanitize in place stops when full (%s)", small);
}

int main(void)
{
	test_str_escape();
	test_parse_rate();
	signal(SIGPIPE, SIG_IGN);
	test_parse_size();
	test_parse_uint();
	test_parse_double();
	test_err_set();
	test_full_io();
	return tap_done();
}
