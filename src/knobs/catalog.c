// SPDX-License-Identifier: GPL-2.0-or-later
/* catalog.c - load and check the knob catalog, look knobs up, validate values. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "knobs/catalog.h"
#include "core/util.h"

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/tunetop"
#endif

struct catalog {
	struct knob_def *defs;
	unsigned *lines;	/* line number of each entry, for duplicate errors */
	unsigned n, cap;
};

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

/* Whether every character of s is a letter, digit or one of extra. */
static bool chars_ok(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return false;
	return true;
}

/* A relative path below a root: no leading '/', no empty or ".." parts. */
static bool rel_path_ok(const char *s)
{
	const char *p = s;

	if (!*s || !chars_ok(s, "._-/"))
		return false;
	while (*p) {
		size_t len = strcspn(p, "/");

		if (len == 0 || (len == 2 && !strncmp(p, "..", 2)) ||
		    (len == 1 && *p == '.'))
			return false;
		p += len;
		if (*p == '/' && !*++p)
			return false;
	}
	return true;
}

/* A comma list of netdev feature names ("tx-tcp-segmentation,rx-gro"). */
static bool feature_list_ok(const char *s)
{
	if (!*s || *s == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,"))
		return false;
	return chars_ok(s, "-_,");
}

/* Parse a catalog number: an optional '-' and decimal digits. */
static int parse_i64(const char *s, int64_t *out)
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

/* Split the next whitespace-separated field off *p; NULL when none is left. */
static char *next_field(char **p)
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

/* Check where against the kind: a path, a feature list or an attribute name. */
static const char *where_problem(enum knob_kind kind, const char *w)
{
	switch (kind) {
	case KNOB_SYSCTL:
	case KNOB_SYSFS:
		return rel_path_ok(w) ? NULL :
			"a relative path without '..' is expected (net/ipv4/tcp_sack)";
	case KNOB_COALESCE:
		return !strncmp(w, "ETHTOOL_A_COALESCE_", 19) && w[19] &&
		       chars_ok(w, "_") ? NULL :
			"an ETHTOOL_A_COALESCE_* attribute name is expected";
	case KNOB_RING:
		return !strncmp(w, "ETHTOOL_A_RINGS_", 16) && w[16] &&
		       chars_ok(w, "_") ? NULL :
			"an ETHTOOL_A_RINGS_* attribute name is expected";
	case KNOB_CHANNEL:
		return !strncmp(w, "ETHTOOL_A_CHANNELS_", 19) && w[19] &&
		       chars_ok(w, "_") ? NULL :
			"an ETHTOOL_A_CHANNELS_* attribute name is expected";
	case KNOB_FEATURE:
		return feature_list_ok(w) ? NULL :
			"a comma list of kernel feature names is expected (tx-tcp-segmentation,rx-gro)";
	case KNOB_LINKINFO:
		return (!strncmp(w, "ETHTOOL_A_LINKMODES_", 20) ||
			!strncmp(w, "ETHTOOL_A_LINKSTATE_", 20) ||
			!strncmp(w, "ETHTOOL_A_LINKINFO_", 19)) &&
		       w[strlen(w) - 1] != '_' && chars_ok(w, "_") ? NULL :
			"an ETHTOOL_A_LINKMODES_*, _LINKSTATE_* or _LINKINFO_* attribute name is expected";
	case KNOB_LINK:
	case KNOB_QDISC:
		return chars_ok(w, "_-") ? NULL :
			"a lowercase attribute name is expected (mtu, rate)";
	default:
		return "unknown kind";
	}
}

/* Which types a kind can hold, as text for errors, or NULL when t fits. */
static const char *type_problem(enum knob_kind kind, enum knob_type t)
{
	switch (kind) {
	case KNOB_SYSCTL:
		return NULL;
	case KNOB_COALESCE:
		return t == KNOB_INT || t == KNOB_BOOL ? NULL :
			"a coalesce knob is int or bool";
	case KNOB_FEATURE:
		return t == KNOB_BOOL ? NULL : "a feature knob is bool";
	case KNOB_LINKINFO:
		return t != KNOB_INT3 ? NULL :
			"a linkinfo knob is int, bool or string";
	default:
		return t == KNOB_INT ? NULL : "this kind of knob is int";
	}
}

/* Parse one non-comment line into d; 0 or -EINVAL with err set. */
static int parse_line(char *line, const char *path, unsigned lineno,
		      struct knob_def *d, char *err)
{
	char *f[9], *p = line, *desc;
	const char *why;
	int idx;

	memset(d, 0, sizeof(*d));
	for (unsigned i = 0; i < 9; i++) {
		f[i] = next_field(&p);
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

	if (!isalpha((unsigned char)f[0][0]) || !chars_ok(f[0], "._-") ||
	    !copy_field(d->name, sizeof(d->name), f[0]))
		return err_set(err, -EINVAL,
			       "%s:%u: name '%s': letters, digits, '.', '_' and '-', starting with a letter, at most %d characters",
			       path, lineno, f[0], KNOB_NAME_MAX - 1);

	idx = name_index(kind_names, KNOB_KIND_COUNT, f[1]);
	if (idx < 0)
		return err_set(err, -EINVAL,
			       "%s:%u: kind '%s': accepted are sysctl, coalesce, feature, ring, channel, link, sysfs, qdisc, linkinfo",
			       path, lineno, f[1]);
	d->kind = idx;

	idx = name_index(type_names, KNOB_TYPE_COUNT, f[2]);
	if (idx < 0)
		return err_set(err, -EINVAL,
			       "%s:%u: type '%s': accepted are int, bool, string, int3",
			       path, lineno, f[2]);
	d->type = idx;
	why = type_problem(d->kind, d->type);
	if (why)
		return err_set(err, -EINVAL, "%s:%u: type '%s': %s", path,
			       lineno, f[2], why);

	if (!strcmp(f[3], "netns-ro")) {
		d->scope = KNOB_SCOPE_NETNS;
		d->flags |= KNOB_F_NETNS_RO;
	} else {
		idx = name_index(scope_names, KNOB_SCOPE_COUNT, f[3]);
		if (idx < 0)
			return err_set(err, -EINVAL,
				       "%s:%u: scope '%s': accepted are host, netns, netns-ro, device",
				       path, lineno, f[3]);
		d->scope = idx;
	}
	if (d->kind == KNOB_SYSCTL && d->scope == KNOB_SCOPE_DEVICE)
		return err_set(err, -EINVAL,
			       "%s:%u: scope '%s': a sysctl is host, netns or netns-ro",
			       path, lineno, f[3]);
	if (d->kind != KNOB_SYSCTL && d->scope != KNOB_SCOPE_DEVICE)
		return err_set(err, -EINVAL,
			       "%s:%u: scope '%s': a %s knob belongs to a device",
			       path, lineno, f[3], kind_names[d->kind]);

	why = where_problem(d->kind, f[4]);
	if (!why && !copy_field(d->where, sizeof(d->where), f[4]))
		why = "too long";
	if (why)
		return err_set(err, -EINVAL, "%s:%u: where '%s': %s", path,
			       lineno, f[4], why);

	if (d->type == KNOB_INT || d->type == KNOB_INT3) {
		if (parse_i64(f[5], &d->min))
			return err_set(err, -EINVAL,
				       "%s:%u: min '%s': a whole number is expected",
				       path, lineno, f[5]);
		if (parse_i64(f[6], &d->max))
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
					       type_names[d->type]);
	}

	if (strcmp(f[7], "-") &&
	    (!copy_field(d->unit, sizeof(d->unit), f[7]) ||
	     !chars_ok(f[7], "/_-")))
		return err_set(err, -EINVAL,
			       "%s:%u: unit '%s': '-' or a short unit name (us, bytes, bit/s), at most %zu characters",
			       path, lineno, f[7], sizeof(d->unit) - 1);
	if (d->type != KNOB_INT && !strcmp(d->unit, "bit/s"))
		return err_set(err, -EINVAL,
			       "%s:%u: unit '%s': only an int knob can be a rate",
			       path, lineno, f[7]);

	if (!chars_ok(f[8], "-") ||
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

/* Whether path names a readable file. */
static bool readable(const char *path)
{
	return access(path, R_OK) == 0;
}

const char *catalog_default_path(void)
{
	static char buf[PATH_MAX];
	char exe[PATH_MAX - 16];	/* room for "/data/knobs" in buf */
	const char *env;
	ssize_t len;

	env = getenv("TUNETOP_DATADIR");
	if (env && *env) {
		snprintf(buf, sizeof(buf), "%s/knobs", env);
		return buf;
	}
	env = getenv("top_srcdir");
	if (env && *env) {
		snprintf(buf, sizeof(buf), "%s/data/knobs", env);
		if (readable(buf))
			return buf;
	}
	snprintf(buf, sizeof(buf), "%s/knobs", PKGDATADIR);
	if (readable(buf))
		return buf;

	/*
	 * Running uninstalled: the program is in a build tree (build/, or
	 * build/tests/unit/ for a test) somewhere below the source tree.
	 */
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		for (int up = 0; up < 5; up++) {
			char *slash = strrchr(exe, '/');

			if (!slash || slash == exe)
				break;
			*slash = '\0';
			snprintf(buf, sizeof(buf), "%s/data/knobs", exe);
			if (readable(buf))
				return buf;
		}
	}
	snprintf(buf, sizeof(buf), "%s/knobs", PKGDATADIR);
	return buf;
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
	} else if (parse_i64(s, out)) {
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
		while (n < 4 && (tok[n] = next_field(&p)))
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
