// SPDX-License-Identifier: GPL-2.0-or-later
/* knob.c - what a knob is: the names of kinds, types and scopes, values. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "knobs/knob.h"
#include "core/util.h"

/* The catalog's kind column, one name per enum knob_kind (docs/knobs.md). */
static const char *const kind_names[KNOB_KIND_COUNT] = {
	[KNOB_SYSCTL] = "sysctl",
	[KNOB_COALESCE] = "coalesce",
	[KNOB_FEATURE] = "feature",
	[KNOB_RING] = "ring",
	[KNOB_CHANNEL] = "channel",
	[KNOB_LINK] = "link",
	[KNOB_SYSFS] = "sysfs",
	[KNOB_QDISC] = "qdisc",
	[KNOB_LINKINFO] = "linkinfo",
};

static const char *const type_names[KNOB_TYPE_COUNT] = {
	[KNOB_INT] = "int",
	[KNOB_BOOL] = "bool",
	[KNOB_STRING] = "string",
	[KNOB_INT3] = "int3",
};

static const char *const scope_names[KNOB_SCOPE_COUNT] = {
	[KNOB_SCOPE_HOST] = "host",
	[KNOB_SCOPE_NETNS] = "netns",
	[KNOB_SCOPE_DEVICE] = "device",
};

const char *knob_kind_name(enum knob_kind k)
{
	return (unsigned)k < KNOB_KIND_COUNT ? kind_names[k] : "?";
}

const char *knob_type_name(enum knob_type t)
{
	return (unsigned)t < KNOB_TYPE_COUNT ? type_names[t] : "?";
}

const char *knob_scope_name(enum knob_scope s)
{
	return (unsigned)s < KNOB_SCOPE_COUNT ? scope_names[s] : "?";
}

const char *knob_scope_text(const struct knob_def *d)
{
	if (d->scope == KNOB_SCOPE_NETNS && (d->flags & KNOB_F_NETNS_RO))
		return "netns-ro";
	return knob_scope_name(d->scope);
}

/* Index of s in names[0..n), or -1. */
static int name_index(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

int knob_kind_parse(const char *s)
{
	return name_index(kind_names, KNOB_KIND_COUNT, s);
}

int knob_type_parse(const char *s)
{
	return name_index(type_names, KNOB_TYPE_COUNT, s);
}

int knob_scope_parse(const char *s)
{
	return name_index(scope_names, KNOB_SCOPE_COUNT, s);
}

bool knob_chars_ok(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return false;
	return true;
}

bool knob_attr_ok(const char *w, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(w, prefix, n) && w[n] && knob_chars_ok(w, "_");
}

int knob_parse_i64(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (!*s || (!isdigit((unsigned char)*s) &&
		    !(*s == '-' && isdigit((unsigned char)s[1]))))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

char *knob_next_field(char **p)
{
	char *s = *p, *start;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return NULL;
	start = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return start;
}

/* " us" for unit us, "" for none: the unit as a message suffix. */
static void unit_suffix(const struct knob_def *d, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", d->unit[0] ? " " : "", d->unit);
}

/* The size suffixes parse_size takes: K/M/G binary, k/m/g decimal. */
static bool has_size_suffix(const char *s)
{
	size_t len = strlen(s);

	return len > 1 && strchr("KMGkmg", s[len - 1]) &&
	       isdigit((unsigned char)s[len - 2]);
}

/* Parse one number of d (int or one of int3's three) and check its range. */
static int parse_number(const struct knob_def *d, const char *s, int64_t *out,
			char *err)
{
	char unit[24];
	uint64_t u;
	int rc = 0;

	unit_suffix(d, unit, sizeof(unit));
	if (!strcmp(d->unit, "bit/s")) {
		if (!strcasecmp(s, "none"))
			u = 0;
		else if (s[strspn(s, "0123456789")] == '\0' && *s)
			rc = parse_uint(s, 0, UINT64_MAX, &u);
		else
			rc = parse_rate(s, &u);
		if (rc || u > INT64_MAX)
			return err_set(err, -EINVAL,
				       "%s '%s': not a rate; accepted is %lld..%lld bit/s, tc units (100mbit, 1gbit) or none",
				       d->name, s, (long long)d->min,
				       (long long)d->max);
		*out = (int64_t)u;
	} else if (!strcmp(d->unit, "bytes") && has_size_suffix(s)) {
		if (parse_size(s, &u) || u > INT64_MAX)
			return err_set(err, -EINVAL,
				       "%s '%s': not a size; accepted is %lld..%lld bytes (suffixes K M G = 1024, k m g = 1000)",
				       d->name, s, (long long)d->min,
				       (long long)d->max);
		*out = (int64_t)u;
	} else if (knob_parse_i64(s, out)) {
		return err_set(err, -EINVAL,
			       "%s '%s': not a number; accepted is %lld..%lld%s",
			       d->name, s, (long long)d->min,
			       (long long)d->max, unit);
	}
	if (*out < d->min || *out > d->max)
		return err_set(err, -ERANGE,
			       "%s %s: accepted is %lld..%lld%s", d->name, s,
			       (long long)d->min, (long long)d->max, unit);
	return 0;
}

/* Parse a bool spelling: on/off, 1/0, true/false, yes/no (any case). */
static int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "on", "1", "true", "yes" };
	static const char *const no[] = { "off", "0", "false", "no" };

	for (unsigned i = 0; i < 4; i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

int knob_parse_value(const struct knob_def *d, const char *text,
		     struct knob_value *out, char *err)
{
	char buf[KNOB_TEXT_MAX * 2], *p, *tok[4];
	size_t len;
	unsigned n = 0;
	bool b;
	int rc;

	memset(out, 0, sizeof(*out));
	while (isspace((unsigned char)*text))
		text++;
	len = strlen(text);
	while (len && isspace((unsigned char)text[len - 1]))
		len--;
	if (len == 0)
		return err_set(err, -EINVAL, "%s: empty value", d->name);
	if (len >= sizeof(buf))
		return err_set(err, -EINVAL, "%s: value too long (%zu characters)",
			       d->name, len);
	memcpy(buf, text, len);
	buf[len] = '\0';

	switch (d->type) {
	case KNOB_INT:
		rc = parse_number(d, buf, &out->num[0], err);
		if (rc)
			return rc;
		snprintf(out->text, sizeof(out->text), "%lld",
			 (long long)out->num[0]);
		break;
	case KNOB_BOOL:
		if (parse_bool(buf, &b))
			return err_set(err, -EINVAL,
				       "%s '%s': accepted are on/off, 1/0, true/false, yes/no",
				       d->name, buf);
		out->num[0] = b;
		snprintf(out->text, sizeof(out->text), "%s", b ? "on" : "off");
		break;
	case KNOB_INT3:
		p = buf;
		while (n < 4 && (tok[n] = knob_next_field(&p)))
			n++;
		if (n != 3)
			return err_set(err, -EINVAL,
				       "%s '%s': three numbers expected: min default max",
				       d->name, buf);
		for (unsigned i = 0; i < 3; i++) {
			rc = parse_number(d, tok[i], &out->num[i], err);
			if (rc)
				return rc;
		}
		if (out->num[0] > out->num[1] || out->num[1] > out->num[2])
			return err_set(err, -ERANGE,
				       "%s '%lld %lld %lld': min <= default <= max expected",
				       d->name, (long long)out->num[0],
				       (long long)out->num[1],
				       (long long)out->num[2]);
		snprintf(out->text, sizeof(out->text), "%lld %lld %lld",
			 (long long)out->num[0], (long long)out->num[1],
			 (long long)out->num[2]);
		break;
	case KNOB_STRING:
		if (len >= sizeof(out->text))
			return err_set(err, -EINVAL,
				       "%s: value too long (at most %zu characters)",
				       d->name, sizeof(out->text) - 1);
		for (p = buf; *p; p++)
			if (!isgraph((unsigned char)*p))
				return err_set(err, -EINVAL,
					       "%s '%s': one word of printable characters expected",
					       d->name, buf);
		memcpy(out->text, buf, len + 1);
		break;
	default:
		return err_set(err, -EINVAL, "%s: unknown type", d->name);
	}
	out->present = true;
	return 0;
}

bool knob_value_equal(const struct knob_def *d, const struct knob_value *a,
		      const struct knob_value *b)
{
	if (!a->present || !b->present)
		return a->present == b->present;
	switch (d->type) {
	case KNOB_INT:
	case KNOB_BOOL:
		return a->num[0] == b->num[0];
	case KNOB_INT3:
		return a->num[0] == b->num[0] && a->num[1] == b->num[1] &&
		       a->num[2] == b->num[2];
	default:
		return !strcmp(a->text, b->text);
	}
}
