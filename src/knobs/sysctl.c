// SPDX-License-Identifier: GPL-2.0-or-later
/* sysctl.c - read and change sysctl and sysfs knobs through their files. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "knobs/backend.h"
#include "knobs/catalog.h"
#include "knobs/sysctl.h"
#include "core/util.h"

/* The longest content we expect from one of these files. */
#define SYSCTL_READ_MAX 4096

/* Build root/where into path; 0 or -ENAMETOOLONG. */
static int knob_path(const char *root, const struct knob_def *d, char *path,
		     size_t size, char *err)
{
	if (d->kind != KNOB_SYSCTL && d->kind != KNOB_SYSFS)
		return err_set(err, -EINVAL, "%s: a %s knob is not a file",
			       d->name, knob_kind_name(d->kind));
	if ((size_t)snprintf(path, size, "%s/%s", root, d->where) >= size)
		return err_set(err, -ENAMETOOLONG, "%s: %s/%s: %s", d->name,
			       root, d->where, strerror(ENAMETOOLONG));
	return 0;
}

/* Why a knob whose file is missing is n/a, for the reason field. */
static const char *absent_reason(const struct knob_def *d)
{
	if (d->kind == KNOB_SYSFS)
		return "not supported by this device or kernel";
	if (d->scope == KNOB_SCOPE_HOST)
		return "host-only: not in this namespace";
	return "not in this kernel";
}

/* Copy src to dst with runs of whitespace made one space, ends trimmed. */
static void squeeze_spaces(char *dst, size_t size, const char *src)
{
	size_t n = 0;
	bool space = false;

	while (isspace((unsigned char)*src))
		src++;
	for (; *src && n + 1 < size; src++) {
		if (isspace((unsigned char)*src)) {
			space = true;
			continue;
		}
		if (space && n + 2 < size)
			dst[n++] = ' ';
		space = false;
		dst[n++] = *src;
	}
	dst[n] = '\0';
}

/* Parse count whitespace-separated integers of s into num; 0 or -EINVAL. */
static int parse_ints(const char *s, int64_t *num, unsigned count)
{
	char *end;

	for (unsigned i = 0; i < count; i++) {
		errno = 0;
		num[i] = strtoll(s, &end, 10);
		if (errno || end == s || (*end && *end != ' '))
			return -EINVAL;
		s = end;
	}
	return *s ? -EINVAL : 0;
}

/* Turn the file's content into a knob value of d's type. */
static int value_from_text(const struct knob_def *d, const char *raw,
			   struct knob_value *v, char *err)
{
	char text[SYSCTL_READ_MAX];
	int rc = 0;

	squeeze_spaces(text, sizeof(text), raw);
	switch (d->type) {
	case KNOB_INT:
		rc = parse_ints(text, v->num, 1);
		snprintf(v->text, sizeof(v->text), "%lld", (long long)v->num[0]);
		break;
	case KNOB_BOOL:
		rc = parse_ints(text, v->num, 1);
		v->num[0] = v->num[0] != 0;
		snprintf(v->text, sizeof(v->text), "%s",
			 v->num[0] ? "on" : "off");
		break;
	case KNOB_INT3:
		rc = parse_ints(text, v->num, 3);
		snprintf(v->text, sizeof(v->text), "%lld %lld %lld",
			 (long long)v->num[0], (long long)v->num[1],
			 (long long)v->num[2]);
		break;
	case KNOB_STRING:
		if (!*text || strlen(text) >= sizeof(v->text))
			rc = -EINVAL;
		else
			memcpy(v->text, text, strlen(text) + 1);
		break;
	default:
		rc = -EINVAL;
	}
	if (rc) {
		memset(v, 0, sizeof(*v));
		return err_set(err, -EIO, "%s: unexpected content '%.60s' for a %s knob",
			       d->name, text, knob_type_name(d->type));
	}
	v->present = true;
	return 0;
}

int sysctl_get(const char *root, const struct knob_def *d,
	       struct knob_value *v, char *err)
{
	char path[PATH_MAX], buf[SYSCTL_READ_MAX];
	struct stat st;
	ssize_t n;
	size_t len = 0;
	int fd, rc;

	memset(v, 0, sizeof(*v));
	rc = knob_path(root, d, path, sizeof(path), err);
	if (rc)
		return rc;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		if (rc == -ENOENT && stat(root, &st) == 0) {
			snprintf(v->reason, sizeof(v->reason), "%s",
				 absent_reason(d));
			return 0;
		}
		return err_set(err, rc, "%s: %s: %s", d->name, path,
			       strerror(-rc));
	}
	/* procfs hands out the value in one read; loop for ordinary files. */
	while (len < sizeof(buf) - 1) {
		n = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			close(fd);
			return err_set(err, rc, "%s: read %s: %s", d->name,
				       path, strerror(-rc));
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return value_from_text(d, buf, v, err);
}

/* Explain a refused open for writing: read-only namespace copy, or rights. */
static int open_error(const struct knob_def *d, const char *path, int rc,
		      char *err)
{
	if (rc == -ENOENT)
		return err_set(err, rc, "%s: %s", d->name, absent_reason(d));
	if (rc != -EACCES && rc != -EPERM)
		return err_set(err, rc, "%s: %s: %s", d->name, path,
			       strerror(-rc));
	/*
	 * Root gets EACCES for net.core.rmem_max and friends only inside a
	 * network namespace: the kernel makes them read-only there
	 * (docs/HACKING.md, "Kernel facts").
	 */
	if (geteuid() == 0 && (d->flags & KNOB_F_NETNS_RO))
		return err_set(err, rc,
			       "%s: read-only inside a network namespace (change it on the host)",
			       d->name);
	if (geteuid() != 0)
		return err_set(err, rc, "%s: %s (changing it needs root)",
			       d->name, strerror(-rc));
	return err_set(err, rc, "%s: %s: %s", d->name, path, strerror(-rc));
}

int sysctl_set(const char *root, const struct knob_def *d,
	       const struct knob_value *v, struct knob_value *after,
	       bool *took, char *err)
{
	char path[PATH_MAX], line[KNOB_TEXT_MAX + 2];
	struct knob_value back;
	int fd, rc, len;

	if (took)
		*took = false;
	rc = knob_path(root, d, path, sizeof(path), err);
	if (rc)
		return rc;
	if (!v->present)
		return err_set(err, -EINVAL, "%s: no value to set", d->name);
	switch (d->type) {
	case KNOB_INT:
		len = snprintf(line, sizeof(line), "%lld\n",
			       (long long)v->num[0]);
		break;
	case KNOB_BOOL:
		len = snprintf(line, sizeof(line), "%d\n", v->num[0] ? 1 : 0);
		break;
	case KNOB_INT3:
		len = snprintf(line, sizeof(line), "%lld %lld %lld\n",
			       (long long)v->num[0], (long long)v->num[1],
			       (long long)v->num[2]);
		break;
	case KNOB_STRING:
		for (const char *p = v->text; *p; p++)
			if (!isgraph((unsigned char)*p))
				return err_set(err, -EINVAL,
					       "%s: one word of printable characters expected",
					       d->name);
		if (!v->text[0])
			return err_set(err, -EINVAL, "%s: empty value", d->name);
		len = snprintf(line, sizeof(line), "%s\n", v->text);
		break;
	default:
		return err_set(err, -EINVAL, "%s: unknown type", d->name);
	}

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return open_error(d, path, -errno, err);
	rc = write_full(fd, line, (size_t)len);
	if (close(fd) && !rc)
		rc = -errno;
	if (rc) {
		line[len - 1] = '\0';
		return err_set(err, rc, "%s: kernel refused '%s': %s", d->name,
			       line, strerror(-rc));
	}

	rc = sysctl_get(root, d, &back, err);
	if (rc)
		return rc;
	if (after)
		*after = back;
	if (!back.present)
		return err_set(err, -ENOENT, "%s: gone after the write (%s)",
			       d->name, back.reason);
	if (knob_value_equal(d, v, &back)) {
		if (took)
			*took = true;
		return 0;
	}
	err_set(err, 0, "%s: set to '%s' but the kernel kept '%s'", d->name,
		v->text, back.text);
	return 0;
}

/* Backend: a sysctl of the namespace the run is in. */
static int sysctl_backend_get(struct knob_ctx *c, const struct knob_def *d,
			      struct knob_value *v, char *err)
{
	(void)c;
	return sysctl_get(SYSCTL_ROOT, d, v, err);
}

static int sysctl_backend_set(struct knob_ctx *c, const struct knob_def *d,
			      const struct knob_value *val, bool *took,
			      char *err)
{
	(void)c;
	return sysctl_set(SYSCTL_ROOT, d, val, NULL, took, err);
}

/*
 * The catalog's where column of a sysctl or sysfs knob: a relative path
 * below /proc/sys or the device's folder, with no empty or ".." parts.
 */
static const char *sysctl_where_problem(const char *s)
{
	const char *p = s;
	static const char why[] =
		"a relative path without '..' is expected (net/ipv4/tcp_sack)";

	if (!*s || !knob_chars_ok(s, "._-/"))
		return why;
	while (*p) {
		size_t len = strcspn(p, "/");

		if (len == 0 || (len == 2 && !strncmp(p, "..", 2)) ||
		    (len == 1 && *p == '.'))
			return why;
		p += len;
		if (*p == '/' && !*++p)
			return why;
	}
	return NULL;
}

const struct knob_backend sysctl_backend = {
	.name = "sysctl",
	.where_problem = sysctl_where_problem,
	.types = KNOB_TYPES_ALL,
	.get = sysctl_backend_get,
	.set = sysctl_backend_set,
};

/* The sysfs folder of the run's device, seen from the run's namespace. */
static int sysfs_root(struct knob_ctx *c, char *root, size_t len, char *err)
{
	int rc = knob_ctx_sysfs(c, err);

	if (!rc)
		snprintf(root, len, "/sys/class/net/%s", c->dev);
	return rc;
}

/* Backend: a file of the device's sysfs folder. */
static int sysfs_backend_get(struct knob_ctx *c, const struct knob_def *d,
			     struct knob_value *v, char *err)
{
	char root[128];
	int rc = sysfs_root(c, root, sizeof(root), err);

	return rc ? rc : sysctl_get(root, d, v, err);
}

static int sysfs_backend_set(struct knob_ctx *c, const struct knob_def *d,
			     const struct knob_value *val, bool *took,
			     char *err)
{
	char root[128];
	int rc = sysfs_root(c, root, sizeof(root), err);

	return rc ? rc : sysctl_set(root, d, val, NULL, took, err);
}

const struct knob_backend sysfs_backend = {
	.name = "sysfs",
	.where_problem = sysctl_where_problem,
	.types = KNOB_TYPE_BIT(KNOB_INT),
	.types_why = KNOB_INT_ONLY,
	.per_device = true,
	.get = sysfs_backend_get,
	.set = sysfs_backend_set,
};
