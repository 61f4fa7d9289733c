// SPDX-License-Identifier: GPL-2.0-or-later
/* knob-ctx.c - what knob backends share in a run: sockets, sysfs, values. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include <linux/netlink.h>

#include "core/netlink.h"
#include "knobs/backend.h"
#include "knobs/catalog.h"
#include "knobs/ethtool-nl.h"

int knob_ctx_ethtool(struct knob_ctx *c, char *err)
{
	if (!c->et_tried) {
		c->et_tried = true;
		c->et_rc = ethtool_nl_open(&c->et, c->et_err);
	}
	if (c->et_rc)
		return err_set(err, c->et_rc, "%s", c->et_err);
	return 0;
}

int knob_ctx_route(struct knob_ctx *c, char *err)
{
	char e[ERR_MAX];
	int rc;

	if (c->rt)
		return 0;
	rc = netlink_open(&c->rt, NETLINK_ROUTE, e);
	if (rc)
		return err_set(err, rc, "rtnetlink: %s", e);
	return 0;
}

/*
 * Inside a lab: a mount namespace of this thread's own with a fresh sysfs
 * on /sys (a sysfs shows the network namespace of the task that mounts it).
 */
int knob_ctx_sysfs(struct knob_ctx *c, char *err)
{
	if (!c->in_lab)
		return 0;
	if (!c->sysfs_tried) {
		c->sysfs_tried = true;
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("sysfs", "/sys", "sysfs",
			  MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
			c->sysfs_rc = err_set(c->sysfs_err, -errno,
					      "sysfs of the lab's namespace: %s",
					      strerror(errno));
	}
	if (c->sysfs_rc)
		return err_set(err, c->sysfs_rc, "%s", c->sysfs_err);
	return 0;
}

/* ethtool's name of a family attribute from the catalog's attribute name. */
static void family_attr_name(const struct ethtool_family *fam,
			     const char *where, char *out, size_t len)
{
	size_t pl = strlen(fam->prefix), i = 0;
	const char *s = where;

	if (!strncmp(s, fam->prefix, pl))
		s += pl;
	for (; *s && i + 1 < len; s++, i++)
		out[i] = *s == '_' ? '-' : (char)tolower((unsigned char)*s);
	out[i] = '\0';
	if (i > 6 && !strcmp(out + i - 6, "-count"))
		out[i - 6] = '\0';
}

/* The context's ethtool socket, and ethtool's name of d's attribute. */
static int family_prepare(struct knob_ctx *c, const struct ethtool_family *fam,
			  const struct knob_def *d, char *name, size_t len,
			  char *err)
{
	int rc = knob_ctx_ethtool(c, err);

	if (!rc)
		family_attr_name(fam, d->where, name, len);
	return rc;
}

int knob_ctx_family_get(struct knob_ctx *c, const struct ethtool_family *fam,
			const struct knob_def *d, struct knob_value *v,
			char *err)
{
	char name[32];
	int rc = family_prepare(c, fam, d, name, sizeof(name), err);

	return rc ? rc : ethtool_family_get(c->et, fam, c->dev, name, v, err);
}

int knob_ctx_family_set(struct knob_ctx *c, const struct ethtool_family *fam,
			const struct knob_def *d, const struct knob_value *val,
			char *err)
{
	char name[32];
	int rc = family_prepare(c, fam, d, name, sizeof(name), err);

	return rc ? rc : ethtool_family_set(c->et, fam, c->dev, name,
					    (uint32_t)val->num[0], err);
}

void knob_ctx_close(struct knob_ctx *c)
{
	ethtool_nl_close(c->et);
	netlink_close(c->rt);
	c->et = NULL;
	c->rt = NULL;
}

void knob_value_na(struct knob_value *v, const char *fmt, ...)
{
	va_list ap;

	memset(v, 0, sizeof(*v));
	va_start(ap, fmt);
	vsnprintf(v->reason, sizeof(v->reason), fmt, ap);
	va_end(ap);
}

void knob_value_from_u64(const struct knob_def *d, uint64_t n,
			 struct knob_value *v)
{
	char buf[32], e[ERR_MAX];

	if (d->type == KNOB_BOOL)
		snprintf(buf, sizeof(buf), "%s", n ? "on" : "off");
	else
		snprintf(buf, sizeof(buf), "%" PRIu64, n);
	if (knob_parse_value(d, buf, v, e)) {
		memset(v, 0, sizeof(*v));
		v->present = true;
		v->num[0] = (int64_t)n;
		snprintf(v->text, sizeof(v->text), "%s", buf);
	}
}

const char *knob_where_lower(const char *w)
{
	return knob_chars_ok(w, "_-") ? NULL :
		"a lowercase attribute name is expected (mtu, rate)";
}
