/* SPDX-License-Identifier: GPL-2.0-or-later */
/* msg-rw.h - the strict JSON object writer and reader behind every message body. */
#ifndef TT_MSG_RW_H
#define TT_MSG_RW_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Encoding: a writer adds members to one object and remembers any failure
 * (no memory, a NaN, an integer JSON cannot carry), so an encoder is a
 * straight list of w_*() calls and one w_end().
 */
struct wr {
	json_t *o;
	bool bad;
};

void w_begin(struct wr *w);
/* Add v (a new reference or NULL) as member name. */
void w_set(struct wr *w, const char *name, json_t *v);
void w_u64(struct wr *w, const char *name, uint64_t v);
void w_int(struct wr *w, const char *name, long long v);
/* json_real refuses NaN and infinities, which marks the writer bad. */
void w_real(struct wr *w, const char *name, double v);
void w_bool(struct wr *w, const char *name, bool v);
void w_str(struct wr *w, const char *name, const char *v);
/* The object, or NULL (and nothing leaked) when any member failed. */
json_t *w_end(struct wr *w);

/*
 * Decoding: a reader walks one object.  The first error is kept in the
 * shared context and every later call does nothing, so a decoder reads all
 * members in a row and checks once.  Every member read is remembered, and
 * r_end() rejects any member nobody asked for.
 */
struct dctx {
	char *err;
	int rc;
};

#define R_MAX_MEMBERS 32

struct rd {
	struct dctx *c;
	const json_t *obj;
	const char *what;	/* path for err, e.g. "sample.socks[2]" */
	const char *seen[R_MAX_MEMBERS];
	unsigned nseen;
};

/* Keep the first error only. */
__attribute__((format(printf, 2, 3)))
void d_fail(struct dctx *c, const char *fmt, ...);
/* Start reading j as an object called what; false if it is not one. */
bool r_begin(struct rd *r, struct dctx *c, const json_t *j, const char *what);
/* The member name, which must be present; NULL (and an error) if not. */
const json_t *r_get(struct rd *r, const char *name);
/* Reject members that were not read. */
void r_end(struct rd *r);
/* An integer in [min, max]. */
bool r_ll(struct rd *r, const char *name, long long min, long long max,
	  long long *out);
void r_u64(struct rd *r, const char *name, uint64_t *out);
void r_u32(struct rd *r, const char *name, uint32_t min, uint32_t max,
	   uint32_t *out);
void r_i32(struct rd *r, const char *name, int32_t min, int32_t max,
	   int32_t *out);
void r_int(struct rd *r, const char *name, int min, int max, int *out);
/* A number (an integer is taken too) in [min, max]; slack widens the range
 * silently for rounding in figures computed as 100 - a - b. */
void r_real_slack(struct rd *r, const char *name, double min, double max,
		  double slack, double *out);
void r_real(struct rd *r, const char *name, double min, double max,
	    double *out);
void r_bool(struct rd *r, const char *name, bool *out);
/* A string of min_len..size-1 bytes without NUL, copied into buf with
 * control characters and invalid UTF-8 escaped as \xNN (str_escape). */
void r_str(struct rd *r, const char *name, size_t min_len, char *buf,
	   size_t size);
/* An object member, or NULL: absent/wrong (error), or JSON null if nullable. */
const json_t *r_obj(struct rd *r, const char *name, bool nullable);
/* An array member of exactly n elements. */
const json_t *r_arr(struct rd *r, const char *name, size_t n);
/* An array member of min..max elements. */
const json_t *r_arr_upto(struct rd *r, const char *name, size_t min,
			 size_t max);
/* The path of a member of r, for the reader of that member. */
const char *r_path(const struct rd *r, const char *name, long idx,
		   char *buf, size_t size);

#endif
