// SPDX-License-Identifier: GPL-2.0-or-later
/* msg-rw.c - the strict JSON object writer and reader behind every message body. */
#include "config.h"

#include <errno.h>
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/msg-rw.h"
#include "core/util.h"

void w_begin(struct wr *w)
{
	w->o = json_object();
	w->bad = !w->o;
}

/* Add v (a new reference or NULL) as member name. */
void w_set(struct wr *w, const char *name, json_t *v)
{
	if (!v || json_object_set_new(w->o, name, v))
		w->bad = true;
}

void w_u64(struct wr *w, const char *name, uint64_t v)
{
	if (v > INT64_MAX)
		w->bad = true;
	else
		w_set(w, name, json_integer((json_int_t)v));
}

void w_int(struct wr *w, const char *name, long long v)
{
	w_set(w, name, json_integer(v));
}

/* json_real refuses NaN and infinities, which marks the writer bad. */
void w_real(struct wr *w, const char *name, double v)
{
	w_set(w, name, json_real(v));
}

void w_bool(struct wr *w, const char *name, bool v)
{
	w_set(w, name, json_boolean(v));
}

void w_str(struct wr *w, const char *name, const char *v)
{
	w_set(w, name, json_string(v));
}

json_t *w_end(struct wr *w)
{
	if (w->bad) {
		json_decref(w->o);
		return NULL;
	}
	return w->o;
}

/* Keep the first error only. */
void d_fail(struct dctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->rc)
		return;
	c->rc = -EPROTO;
	if (c->err) {
		va_start(ap, fmt);
		vsnprintf(c->err, ERR_MAX, fmt, ap);
		va_end(ap);
	}
}

/* Start reading j as an object called what; false if it is not one. */
bool r_begin(struct rd *r, struct dctx *c, const json_t *j,
	     const char *what)
{
	r->c = c;
	r->obj = j;
	r->nseen = 0;
	r->what = what;
	if (c->rc)
		return false;
	if (!json_is_object(j)) {
		d_fail(c, "%s: accepted is a JSON object", what);
		return false;
	}
	return true;
}

/* The member name, which must be present; NULL (and an error) if not. */
const json_t *r_get(struct rd *r, const char *name)
{
	const json_t *j;

	if (r->c->rc)
		return NULL;
	if (r->nseen == R_MAX_MEMBERS) {
		/* a reader of this tree that reads more: a bug, said so,
		 * never a member silently taken as unknown by r_end */
		d_fail(r->c, "%s: member '%s': more than %d members read (R_MAX_MEMBERS)",
		       r->what, name, R_MAX_MEMBERS);
		return NULL;
	}
	r->seen[r->nseen++] = name;
	j = json_object_get(r->obj, name);
	if (!j)
		d_fail(r->c, "%s: member '%s' missing", r->what, name);
	return j;
}

/* Reject members that were not read. */
void r_end(struct rd *r)
{
	const char *key;
	json_t *v;

	if (r->c->rc)
		return;
	json_object_foreach((json_t *)r->obj, key, v) {
		unsigned i;

		for (i = 0; i < r->nseen; i++)
			if (!strcmp(r->seen[i], key))
				break;
		if (i == r->nseen) {
			char name[64];

			str_escape(name, sizeof(name), key, strlen(key));
			d_fail(r->c, "%s: unknown member '%s'", r->what, name);
			return;
		}
	}
}

/* An integer in [min, max]. */
bool r_ll(struct rd *r, const char *name, long long min,
		 long long max, long long *out)
{
	const json_t *j = r_get(r, name);
	json_int_t v;

	if (!j)
		return false;
	v = json_is_integer(j) ? json_integer_value(j) : 0;
	if (!json_is_integer(j) || v < min || v > max) {
		if (max == INT64_MAX)
			d_fail(r->c, "%s: member '%s': accepted is an integer >= %lld",
			       r->what, name, min);
		else
			d_fail(r->c, "%s: member '%s': accepted is an integer %lld..%lld",
			       r->what, name, min, max);
		return false;
	}
	*out = v;
	return true;
}

void r_u64(struct rd *r, const char *name, uint64_t *out)
{
	long long v;

	if (r_ll(r, name, 0, INT64_MAX, &v))
		*out = (uint64_t)v;
}

void r_u32(struct rd *r, const char *name, uint32_t min, uint32_t max,
	uint32_t *out)
{
	long long v;

	if (r_ll(r, name, min, max, &v))
		*out = (uint32_t)v;
}

void r_i32(struct rd *r, const char *name, int32_t min, int32_t max,
	int32_t *out)
{
	long long v;

	if (r_ll(r, name, min, max, &v))
		*out = (int32_t)v;
}

void r_int(struct rd *r, const char *name, int min, int max, int *out)
{
	long long v;

	if (r_ll(r, name, min, max, &v))
		*out = (int)v;
}

/*
 * A number (an integer is taken too) in [min, max]; slack widens the range
 * silently for rounding in figures computed as 100 - a - b.
 */
void r_real_slack(struct rd *r, const char *name, double min,
			 double max, double slack, double *out)
{
	const json_t *j = r_get(r, name);
	double v;

	if (!j)
		return;
	v = json_is_number(j) ? json_number_value(j) : 0;
	if (!json_is_number(j) || !(v >= min - slack && v <= max + slack)) {
		if (max == DBL_MAX)
			d_fail(r->c, "%s: member '%s': accepted is a number >= %g",
			       r->what, name, min);
		else
			d_fail(r->c, "%s: member '%s': accepted is a number %g..%g",
			       r->what, name, min, max);
		return;
	}
	*out = v;
}

void r_real(struct rd *r, const char *name, double min, double max,
		   double *out)
{
	r_real_slack(r, name, min, max, 0, out);
}

void r_bool(struct rd *r, const char *name, bool *out)
{
	const json_t *j = r_get(r, name);

	if (!j)
		return;
	if (!json_is_boolean(j)) {
		d_fail(r->c, "%s: member '%s': accepted is true or false",
	        r->what, name);
		return;
	}
	*out = json_is_true(j);
}

/*
 * A string of min_len..size-1 bytes without NUL, copied into buf with its
 * control characters escaped (str_escape), so no front end can print a
 * peer's escape sequence or newline raw.
 */
void r_str(struct rd *r, const char *name, size_t min_len, char *buf,
	size_t size)
{
	const json_t *j = r_get(r, name);
	size_t len;

	if (!j)
		return;
	len = json_is_string(j) ? json_string_length(j) : 0;
	if (!json_is_string(j) || len < min_len || len >= size ||
	    strlen(json_string_value(j)) != len) {
		d_fail(r->c, "%s: member '%s': accepted is a string of %zu..%zu bytes",
	        r->what, name, min_len, size - 1);
		return;
	}
	str_escape(buf, size, json_string_value(j), len);
}

/* An object member, or NULL: absent/wrong (error), or JSON null if nullable. */
const json_t *r_obj(struct rd *r, const char *name, bool nullable)
{
	const json_t *j = r_get(r, name);

	if (!j || (nullable && json_is_null(j)))
		return NULL;
	if (!json_is_object(j)) {
		d_fail(r->c, "%s: member '%s': accepted is an object%s", r->what,
	        name, nullable ? " or null" : "");
		return NULL;
	}
	return j;
}

/* An array member of exactly n elements. */
const json_t *r_arr(struct rd *r, const char *name, size_t n)
{
	const json_t *j = r_get(r, name);

	if (!j)
		return NULL;
	if (!json_is_array(j) || json_array_size(j) != n) {
		d_fail(r->c, "%s: member '%s': accepted is an array of %zu elements",
	        r->what, name, n);
		return NULL;
	}
	return j;
}

/* The path of a member of r, for the reader of that member. */
const char *r_path(const struct rd *r, const char *name, long idx,
			  char *buf, size_t size)
{
	if (idx >= 0)
		snprintf(buf, size, "%s.%s[%ld]", r->what, name, idx);
	else
		snprintf(buf, size, "%s.%s", r->what, name);
	return buf;
}

/* An array member of at most max elements (min..max). */
const json_t *r_arr_upto(struct rd *r, const char *name, size_t min,
				size_t max)
{
	const json_t *j = r_get(r, name);

	if (!j)
		return NULL;
	if (!json_is_array(j) || json_array_size(j) < min ||
	    json_array_size(j) > max) {
		d_fail(r->c, "%s: member '%s': accepted is an array of %zu..%zu elements",
	        r->what, name, min, max);
		return NULL;
	}
	return j;
}
