/* SPDX-License-Identifier: GPL-2.0-or-later */
/* util.h - error buffers, clocks and size parsing shared by the engine. */
#ifndef TT_UTIL_H
#define TT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Every engine function that can fail takes an error buffer of this size. */
#define ERR_MAX 256

/* Format "what: why" into err and return code (a -errno, or -1). */
int err_set(char *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A clock in nanoseconds (0 if it cannot be read). */
static inline uint64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Monotonic clock in nanoseconds. */
static inline uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* Wall clock in seconds, for records. */
double wall_time(void);

/*
 * Parse a size the way netperf does: a number with an optional suffix,
 * K/M/G binary (1024) and k/m/g decimal (1000).  Returns 0 or -EINVAL.
 */
int parse_size(const char *s, uint64_t *out);

/*
 * Parse a link rate the way tc does: a number and a unit of bit, kbit,
 * mbit, gbit or tbit (powers of 1000) or bps, kbps, mbps, gbps (bytes/s);
 * "none" is 0.  *bps is bits per second.  0 or -EINVAL.
 */
int parse_rate(const char *s, uint64_t *bps);

/* Parse a non-negative integer in [min, max]; returns 0 or -EINVAL/-ERANGE. */
int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Parse a finite double in [min, max]; returns 0 or -EINVAL/-ERANGE. */
int parse_double(const char *s, double min, double max, double *out);

/* Write/read exactly len bytes, retrying on EINTR; 0 or -errno (-EPIPE on EOF). */
int write_full(int fd, const void *buf, size_t len);
int read_full(int fd, void *buf, size_t len);

/* The integer a (proc) file starts with, or dflt when it cannot be read. */
int read_int_file(const char *path, int dflt);

/*
 * Read a whole (proc) file with one read() into a NUL-terminated buffer
 * the caller frees, growing from *hint and remembering the size that
 * worked.  0 or -errno.
 */
int proc_slurp(const char *path, _Atomic size_t *hint, char **bufp);

/*
 * Copy the len bytes at in to out (size bytes, always NUL-terminated)
 * with every byte that could steer a terminal or split a log line written
 * visibly as \xNN: control characters (C0, DEL and the C1 range
 * U+0080..U+009F) and bytes that are not valid UTF-8 (overlong forms,
 * surrogates, stray continuations, a cut sequence).  Printable UTF-8 is
 * kept.  When out fills, the copy stops at a whole character or escape.
 * Every string that comes from a peer or a file passes here before it
 * reaches a terminal, a log or the store (docs/protocol.md).  Returns the
 * number of input bytes escaped.
 */
size_t str_escape(char *out, size_t size, const char *in, size_t len);

/*
 * The length of the printable UTF-8 character at s (n > 0 bytes left), or
 * 0 when str_escape() would escape its first byte.
 */
size_t str_printable_len(const char *s, size_t n);

/* str_escape() of the string in buf (size bytes) onto itself. */
size_t str_sanitize(char *buf, size_t size);

/* Make path and its parents (mode 0700 for the ones made); 0 or -errno. */
int util_mkdir_p(const char *path);

#endif
