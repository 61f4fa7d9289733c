// SPDX-License-Identifier: GPL-2.0-or-later
/* sweep-cols.c - the columns of a sweep's table and how a point's value in one reads. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "core/util.h"
#include "session/result-doc.h"
#include "session/sweep-cols.h"

/* Short titles of the columns a sweep shows by default. */
static const struct {
	enum sel_id id;
	const char *title;
} sweep_col_titles[] = {
	{ SEL_P50_LATENCY, "p50 us" },
	{ SEL_P99_LATENCY, "p99 us" },
	{ SEL_LOCAL_CPU_UTIL, "lCPU %" },
	{ SEL_REMOTE_CPU_UTIL, "rCPU %" },
};

/* The name of field id, as a column is named. */
static const char *sweep_col_name(enum sel_id id)
{
	unsigned n;

	return selector_table(&n)[id].name;
}

/* Add name (len bytes) upper-cased, once; THROUGHPUT is the rate column. */
static int sweep_cols_add(struct sweep_cols *c, const char *name, size_t len, char *err)
{
	char up[SWEEP_COL_NAME];

	if (len >= sizeof(up))
		return err_set(err, -EINVAL, "column %.*s: name too long; accepted: a selector name",
			       (int)(len > 64 ? 64 : len), name);
	for (size_t i = 0; i < len; i++)
		up[i] = (char)toupper((unsigned char)name[i]);
	up[len] = '\0';
	if (selector_find(up) == SEL_THROUGHPUT)
		return 0;
	for (unsigned i = 0; i < c->n; i++)
		if (!strcmp(c->name[i], up))
			return 0;
	if (c->n == SWEEP_COLS_MAX)
		return err_set(err, -EINVAL, "columns: more than %d; accepted: up to %d selectors",
			       SWEEP_COLS_MAX, SWEEP_COLS_MAX);
	memcpy(c->name[c->n++], up, len + 1);
	return 0;
}

/* Add field id, once. */
static void sweep_cols_add_id(struct sweep_cols *c, enum sel_id id, char *err)
{
	const char *name = sweep_col_name(id);

	sweep_cols_add(c, name, strlen(name), err);
}

int sweep_cols_check(const char *list, enum test_type t, bool iterating, char *err)
{
	struct selector_list sl;
	char why[ERR_MAX];
	const char *rest;

	if (!selectors_parse(list, 'O', t, iterating, &sl, err))
		return 0;
	/* "option -O NAME: why" as "option --columns NAME: why". */
	snprintf(why, sizeof(why), "%s", err);
	rest = strchr(why, ' ');
	rest = rest ? strchr(rest + 1, ' ') : NULL;
	return err_set(err, -EINVAL, "option --columns%s", rest ? rest : why);
}

int sweep_cols_make(const char *list, bool rr, bool lcpu, bool rcpu, struct sweep_cols *c,
		    char *err)
{
	const char *p = list;

	memset(c, 0, sizeof(*c));
	if (!p || !p[strspn(p, " \t,")]) {
		if (rr) {
			sweep_cols_add_id(c, SEL_P50_LATENCY, err);
			sweep_cols_add_id(c, SEL_P99_LATENCY, err);
		}
		if (lcpu)
			sweep_cols_add_id(c, SEL_LOCAL_CPU_UTIL, err);
		if (rcpu)
			sweep_cols_add_id(c, SEL_REMOTE_CPU_UTIL, err);
		return 0;
	}
	while (*p) {
		size_t len;

		p += strspn(p, " \t,");
		len = strcspn(p, " \t,");
		if (len && sweep_cols_add(c, p, len, err))
			return -EINVAL;
		p += len;
	}
	return 0;
}

/* Whether name is a figure of one end's CPU: utilisation or service demand. */
static bool sweep_col_cpu(const char *name, const char *end)
{
	size_t n = strlen(end), len = strlen(name);

	if (strncmp(name, end, n))
		return false;
	return strstr(name + n, "CPU_UTIL") || strstr(name + n, "CPU_PEAK") ||
	       strstr(name + n, "CPU_CONFID") || !strcmp(name + n, "SD") ||
	       (len > 10 && !strcmp(name + len - 10, "_SD_CONFID"));
}

void sweep_cols_needs(const struct sweep_cols *c, bool *lcpu, bool *rcpu, bool *capture)
{
	*lcpu = *rcpu = *capture = false;
	for (unsigned i = 0; i < c->n; i++) {
		*lcpu |= sweep_col_cpu(c->name[i], "LOCAL_");
		*rcpu |= sweep_col_cpu(c->name[i], "REMOTE_");
		*capture |= strstr(c->name[i], "_CAP_") != NULL;
	}
}

void sweep_cols_turn_on(const struct sweep_cols *c, bool *lcpu, bool *rcpu,
			enum capture_mode *capture, char *note, size_t len)
{
	bool l, r, cap, addl, addr;
	size_t used;

	sweep_cols_needs(c, &l, &r, &cap);
	addl = l && !*lcpu;
	addr = r && !*rcpu;
	snprintf(note, len, "%s%s%s%s", addl ? "-c" : "", addl && addr ? " " : "",
		 addr ? "-C" : "", addl || addr ? " turned on for the CPU columns" : "");
	*lcpu |= l;
	*rcpu |= r;
	used = strlen(note);
	if (cap && *capture == CAPTURE_OFF) {
		*capture = CAPTURE_AUTO;
		snprintf(note + used, len - used, "%s--capture=auto for the capture columns (n/a where capture needs privileges)",
			 used ? "; " : "");
	} else if (cap) {
		snprintf(note + used, len - used, "%scapture %s", used ? "; " : "",
			 capture_mode_name(*capture));
	}
}

const char *sweep_cols_rate_title(const char *units, bool rr)
{
	if (units && *units)
		return units;
	return units_rate(rr ? TEST_TCP_RR : TEST_TCP_STREAM)->name;
}

const char *sweep_cols_title(const char *name)
{
	for (size_t i = 0; i < sizeof(sweep_col_titles) / sizeof(sweep_col_titles[0]); i++)
		if (!strcmp(sweep_col_name(sweep_col_titles[i].id), name))
			return sweep_col_titles[i].title;
	return name;
}

json_t *sweep_cols_value(const json_t *result, const char *name)
{
	int id = selector_find(name);
	json_t *v;

	/* A column a stored spec names that this tunetop does not know. */
	if (id < 0)
		return json_null();
	v = (json_t *)result_doc_field(result, (enum sel_id)id);
	if (json_is_number(v) || json_is_string(v))
		return json_incref(v);
	return json_null();
}

const char *sweep_cols_text(const json_t *result, const char *name, char *buf, size_t len)
{
	json_t *v = sweep_cols_value(result, name);
	double d;

	if (json_is_integer(v)) {
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	} else if (json_is_real(v) && isfinite(d = json_real_value(v))) {
		snprintf(buf, len, "%.*f", fabs(d) < 10 ? 3 : 2, d);
	} else if (json_is_string(v) && *json_string_value(v)) {
		snprintf(buf, len, "%s", json_string_value(v));
		for (char *s = buf; *s; s++)
			if (!isprint((unsigned char)*s))
				*s = '?';
	} else {
		snprintf(buf, len, "n/a");
	}
	json_decref(v);
	return buf;
}

int sweep_cols_to_spec(const struct sweep_cols *c, json_t *spec)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && i < c->n; i++)
		if (json_array_append_new(a, json_string(c->name[i]))) {
			json_decref(a);
			a = NULL;
		}
	if (!a || json_object_set_new(spec, "columns", a))
		return -ENOMEM;
	return 0;
}

int sweep_cols_from_spec(const json_t *spec, struct sweep_cols *c)
{
	const json_t *a = json_object_get(spec, "columns"), *v;
	char err[ERR_MAX];
	size_t i;

	memset(c, 0, sizeof(*c));
	if (!json_is_array(a))
		return -ENOENT;
	json_array_foreach(a, i, v)
		if (json_is_string(v))
			sweep_cols_add(c, json_string_value(v), strlen(json_string_value(v)), err);
	return 0;
}
