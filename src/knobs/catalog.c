// SPDX-License-Identifier: GPL-2.0-or-later
/* catalog.c - load and check the knob catalog (asking the kinds' backends), look knobs up. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knobs/backend.h"
#include "knobs/catalog.h"
#include "core/datadir.h"
#include "core/util.h"


struct catalog {
	struct knob_def *defs;
	unsigned *lines;	/* line number of each entry, for duplicate errors */
	unsigned n, cap;
};

static const char *const field_names[] = {
	"name", "kind", "type", "scope", "where", "min", "max", "unit", "group",
};

#define FIELDS_USAGE "name kind type scope where min max unit group description"

/* Copy src into a fixed field; false when it does not fit. */
static bool copy_field(char *dst, size_t size, const char *src)
{
	size_t len = strlen(src);

	if (len >= size)
		return false;
	memcpy(dst, src, len + 1);
	return true;
}

/* The kinds the catalog accepts, "sysctl, coalesce, ...", in enum order. */
static void kinds_text(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int k = 0; k < KNOB_KIND_COUNT && n < size; k++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", k ? ", " : "",
				      knob_kind_name(k));
}

/*
 * Parse one non-comment line into d; 0 or -EINVAL with err set.  What a
 * kind takes (types, scope, where) is its backend's to say (backend.h).
 */
static int parse_line(char *line, const char *path, unsigned lineno,
		      struct knob_def *d, char *err)
{
	char *f[9], *p = line, *desc;
	const struct knob_backend *b;
	const char *why;
	int idx;

	memset(d, 0, sizeof(*d));
	for (unsigned i = 0; i < 9; i++) {
		f[i] = knob_next_field(&p);
		if (!f[i])
			return err_set(err, -EINVAL,
				       "%s:%u: %s missing: expected %s",
				       path, lineno, field_names[i],
				       FIELDS_USAGE);
	}
	desc = p;
	while (*desc == ' ' || *desc == '\t')
		desc++;
	if (!*desc)
		return err_set(err, -EINVAL,
			       "%s:%u: description missing: expected %s",
			       path, lineno, FIELDS_USAGE);

	if (!isalpha((unsigned char)f[0][0]) || !knob_chars_ok(f[0], "._-") ||
	    !copy_field(d->name, sizeof(d->name), f[0]))
		return err_set(err, -EINVAL,
			       "%s:%u: name '%s': letters, digits, '.', '_' and '-', starting with a letter, at most %d characters",
			       path, lineno, f[0], KNOB_NAME_MAX - 1);

	idx = knob_kind_parse(f[1]);
	if (idx < 0) {
		char kinds[256];

		kinds_text(kinds, sizeof(kinds));
		return err_set(err, -EINVAL, "%s:%u: kind '%s': accepted are %s",
			       path, lineno, f[1], kinds);
	}
	d->kind = idx;
	b = backend_for(d->kind);

	idx = knob_type_parse(f[2]);
	if (idx < 0)
		return err_set(err, -EINVAL,
			       "%s:%u: type '%s': accepted are int, bool, string, int3",
			       path, lineno, f[2]);
	d->type = idx;
	if (!(b->types & KNOB_TYPE_BIT(d->type)))
		return err_set(err, -EINVAL, "%s:%u: type '%s': %s", path,
			       lineno, f[2], b->types_why);

	if (!strcmp(f[3], "netns-ro")) {
		d->scope = KNOB_SCOPE_NETNS;
		d->flags |= KNOB_F_NETNS_RO;
	} else {
		idx = knob_scope_parse(f[3]);
		if (idx < 0)
			return err_set(err, -EINVAL,
				       "%s:%u: scope '%s': accepted are host, netns, netns-ro, device",
				       path, lineno, f[3]);
		d->scope = idx;
	}
	if (!b->per_device && d->scope == KNOB_SCOPE_DEVICE)
		return err_set(err, -EINVAL,
			       "%s:%u: scope '%s': a %s is host, netns or netns-ro",
			       path, lineno, f[3], b->name);
	if (b->per_device && d->scope != KNOB_SCOPE_DEVICE)
		return err_set(err, -EINVAL,
			       "%s:%u: scope '%s': a %s knob belongs to a device",
			       path, lineno, f[3], b->name);

	why = b->where_problem(f[4]);
	if (!why && !copy_field(d->where, sizeof(d->where), f[4]))
		why = "too long";
	if (why)
		return err_set(err, -EINVAL, "%s:%u: where '%s': %s", path,
			       lineno, f[4], why);

	if (d->type == KNOB_INT || d->type == KNOB_INT3) {
		if (knob_parse_i64(f[5], &d->min))
			return err_set(err, -EINVAL,
				       "%s:%u: min '%s': a whole number is expected",
				       path, lineno, f[5]);
		if (knob_parse_i64(f[6], &d->max))
			return err_set(err, -EINVAL,
				       "%s:%u: max '%s': a whole number is expected",
				       path, lineno, f[6]);
		if (d->min > d->max)
			return err_set(err, -EINVAL,
				       "%s:%u: max '%s': below min %s",
				       path, lineno, f[6], f[5]);
	} else {
		for (unsigned i = 5; i <= 6; i++)
			if (strcmp(f[i], "-"))
				return err_set(err, -EINVAL,
					       "%s:%u: %s '%s': a %s knob has no range, write '-'",
					       path, lineno, field_names[i], f[i],
					       knob_type_name(d->type));
	}

	if (strcmp(f[7], "-") &&
	    (!copy_field(d->unit, sizeof(d->unit), f[7]) ||
	     !knob_chars_ok(f[7], "/_-")))
		return err_set(err, -EINVAL,
			       "%s:%u: unit '%s': '-' or a short unit name (us, bytes, bit/s), at most %zu characters",
			       path, lineno, f[7], sizeof(d->unit) - 1);
	if (d->type != KNOB_INT && !strcmp(d->unit, "bit/s"))
		return err_set(err, -EINVAL,
			       "%s:%u: unit '%s': only an int knob can be a rate",
			       path, lineno, f[7]);

	if (!knob_chars_ok(f[8], "-") ||
	    !copy_field(d->group, sizeof(d->group), f[8]))
		return err_set(err, -EINVAL,
			       "%s:%u: group '%s': letters, digits and '-', at most %zu characters",
			       path, lineno, f[8], sizeof(d->group) - 1);

	if (!copy_field(d->desc, sizeof(d->desc), desc))
		return err_set(err, -EINVAL,
			       "%s:%u: description: at most %zu characters",
			       path, lineno, sizeof(d->desc) - 1);
	return 0;
}

/* Append d (from line lineno) to c; 0 or -ENOMEM. */
static int catalog_add(struct catalog *c, const struct knob_def *d,
		       unsigned lineno)
{
	if (c->n == c->cap) {
		unsigned cap = c->cap ? c->cap * 2 : 64;
		struct knob_def *defs = realloc(c->defs, cap * sizeof(*defs));
		unsigned *lines;

		if (!defs)
			return -ENOMEM;
		c->defs = defs;
		lines = realloc(c->lines, cap * sizeof(*lines));
		if (!lines)
			return -ENOMEM;
		c->lines = lines;
		c->cap = cap;
	}
	c->defs[c->n] = *d;
	c->lines[c->n] = lineno;
	c->n++;
	return 0;
}

/*
 * Whether s holds a control character other than a tab, or bytes that are
 * not UTF-8 (str_printable_len): catalog text reaches terminals and logs.
 */
static bool has_control(const char *s)
{
	size_t len = strlen(s), n;

	for (size_t i = 0; i < len; i += n) {
		n = s[i] == '\t' ? 1 : str_printable_len(s + i, len - i);
		if (!n)
			return true;
	}
	return false;
}

/* Strip trailing whitespace (and the newline) in place. */
static void rstrip(char *s)
{
	size_t len = strlen(s);

	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
}

int catalog_load(struct catalog **cp, const char *path, char *err)
{
	struct catalog *c;
	struct knob_def d;
	char *line = NULL;
	size_t size = 0;
	unsigned lineno = 0;
	FILE *f;
	int rc = 0;

	*cp = NULL;
	f = fopen(path, "re");
	if (!f) {
		rc = -errno;
		return err_set(err, rc, "%s: %s", path, strerror(-rc));
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		fclose(f);
		return err_set(err, -ENOMEM, "%s: %s", path, strerror(ENOMEM));
	}
	while (getline(&line, &size, f) >= 0) {
		const char *s = line;

		lineno++;
		rstrip(line);
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#')
			continue;
		if (has_control(line)) {
			rc = err_set(err, -EINVAL,
				     "%s:%u: control character or invalid UTF-8 in the line",
				     path, lineno);
			break;
		}
		rc = parse_line(line, path, lineno, &d, err);
		if (rc)
			break;
		for (unsigned i = 0; i < c->n; i++) {
			if (strcmp(c->defs[i].name, d.name))
				continue;
			rc = err_set(err, -EINVAL,
				     "%s:%u: name '%s': already defined on line %u",
				     path, lineno, d.name, c->lines[i]);
			break;
		}
		if (rc)
			break;
		rc = catalog_add(c, &d, lineno);
		if (rc) {
			err_set(err, rc, "%s: %s", path, strerror(-rc));
			break;
		}
	}
	if (!rc && ferror(f))
		rc = err_set(err, -EIO, "%s: read error", path);
	if (!rc && c->n == 0)
		rc = err_set(err, -EINVAL, "%s: no knobs in the file", path);
	free(line);
	fclose(f);
	if (rc) {
		catalog_free(c);
		return rc;
	}
	*cp = c;
	return 0;
}

void catalog_free(struct catalog *c)
{
	if (!c)
		return;
	free(c->defs);
	free(c->lines);
	free(c);
}

const struct knob_def *catalog_find(const struct catalog *c, const char *name)
{
	char dotted[KNOB_NAME_MAX];

	if (!c || !name)
		return NULL;
	for (unsigned i = 0; i < c->n; i++)
		if (!strcmp(c->defs[i].name, name))
			return &c->defs[i];
	if (!strchr(name, '/') || !copy_field(dotted, sizeof(dotted), name))
		return NULL;
	for (char *p = dotted; *p; p++)
		if (*p == '/')
			*p = '.';
	for (unsigned i = 0; i < c->n; i++)
		if (c->defs[i].kind == KNOB_SYSCTL &&
		    !strcmp(c->defs[i].name, dotted))
			return &c->defs[i];
	return NULL;
}

unsigned catalog_count(const struct catalog *c)
{
	return c ? c->n : 0;
}

const struct knob_def *catalog_at(const struct catalog *c, unsigned i)
{
	return c && i < c->n ? &c->defs[i] : NULL;
}

const char *catalog_default_path(void)
{
	static char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s/knobs", datadir_path());
	return buf;
}
