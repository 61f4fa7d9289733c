// SPDX-License-Identifier: GPL-2.0-or-later
/* util.c - error buffers, clocks and number parsing shared by the engine. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

int err_set(char *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err, ERR_MAX, fmt, ap);
		va_end(ap);
	}
	return code;
}

double wall_time(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return errno == ERANGE ? -ERANGE : -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	uint64_t mult = 1;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	switch (*end) {
	case '\0': break;
	case 'K': mult = 1024ull; break;
	case 'M': mult = 1024ull * 1024; break;
	case 'G': mult = 1024ull * 1024 * 1024; break;
	case 'k': mult = 1000ull; break;
	case 'm': mult = 1000ull * 1000; break;
	case 'g': mult = 1000ull * 1000 * 1000; break;
	default: return -EINVAL;
	}
	if (*end && end[1])
		return -EINVAL;
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	*out = v * mult;
	return 0;
}

int parse_rate(const char *s, uint64_t *bps)
{
	static const struct {
		const char *unit;
		double mult;
	} units[] = {
		{ "bit", 1 }, { "kbit", 1e3 }, { "mbit", 1e6 }, { "gbit", 1e9 },
		{ "tbit", 1e12 }, { "bps", 8 }, { "kbps", 8e3 }, { "mbps", 8e6 },
		{ "gbps", 8e9 },
	};
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	if (!strcasecmp(s, "none")) {
		*bps = 0;
		return 0;
	}
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v <= 0)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		double r = v * units[i].mult;

		if (strcasecmp(end, units[i].unit))
			continue;
		if (r < 1 || r > 1e15)
			return -EINVAL;
		*bps = (uint64_t)(r + 0.5);
		return 0;
	}
	return -EINVAL;
}

int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int read_int_file(const char *path, int dflt)
{
	FILE *f = fopen(path, "re");
	int v = dflt;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = dflt;
		fclose(f);
	}
	return v;
}

int read_full(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EPIPE;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Read the whole of path with one read() into a malloc'd, NUL-terminated
 * buffer.  A read that fills the buffer may have been cut short, so the
 * buffer doubles and the file is read again from the start.  0 or -errno.
 */
int proc_slurp(const char *path, _Atomic size_t *hint, char **bufp)
{
	size_t size = atomic_load(hint);

	for (;;) {
		char *buf = malloc(size);
		ssize_t n;
		int fd, err;

		if (!buf)
			return -ENOMEM;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			err = -errno;
			free(buf);
			return err;
		}
		do {
			n = read(fd, buf, size);
		} while (n < 0 && errno == EINTR);
		err = n < 0 ? -errno : 0;
		close(fd);
		if (err) {
			free(buf);
			return err;
		}
		if ((size_t)n < size) {
			buf[n] = '\0';
			*bufp = buf;
			return 0;
		}
		free(buf);
		if (size > SIZE_MAX / 2)
			return -EFBIG;
		size *= 2;
		atomic_store(hint, size);
	}
}

int util_mkdir_p(const char *path)
{
	char tmp[PATH_MAX];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(tmp))
		return -ENAMETOOLONG;
	memcpy(tmp, path, len + 1);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0700) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * RFC 3629 section 4 gives the well-formed sequences; U+0080..U+009F
 * (C2 80..C2 9F) are the C1 controls.
 */
size_t str_printable_len(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (p[0] >= 0x20 && p[0] < 0x7f)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (p[0] == 0xc2)
		lo = 0xa0;		/* C1 controls */
	else if (p[0] == 0xe0)
		lo = 0xa0;		/* overlong */
	else if (p[0] == 0xed)
		hi = 0x9f;		/* surrogates */
	else if (p[0] == 0xf0)
		lo = 0x90;		/* overlong */
	else if (p[0] == 0xf4)
		hi = 0x8f;		/* above U+10FFFF */
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return len;
}

size_t str_escape(char *out, size_t size, const char *in, size_t len)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t i = 0, o = 0, escaped = 0, n;

	if (!size)
		return 0;
	while (i < len) {
		n = str_printable_len(in + i, len - i);
		if (n) {
			if (o + n >= size)
				break;
			memcpy(out + o, p + i, n);
			o += n;
			i += n;
			continue;
		}
		if (o + 4 >= size)
			break;
		snprintf(out + o, 5, "\\x%02x", p[i]);
		o += 4;
		i++;
		escaped++;
	}
	out[o] = '\0';
	return escaped;
}

size_t str_sanitize(char *buf, size_t size)
{
	size_t len = strnlen(buf, size), i, n, escaped;
	char *copy;

	for (i = 0; i < len; i += n) {
		n = str_printable_len(buf + i, len - i);
		if (!n)
			break;
	}
	if (i == len)
		return 0;
	copy = strndup(buf, len);
	if (!copy) {
		/* No room to expand: blank what would have been escaped. */
		for (escaped = 0; i < len; i += n ? n : 1) {
			n = str_printable_len(buf + i, len - i);
			if (!n) {
				buf[i] = '?';
				escaped++;
			}
		}
		return escaped;
	}
	escaped = str_escape(buf, size, copy, len);
	free(copy);
	return escaped;
}
