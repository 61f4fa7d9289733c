// SPDX-License-Identifier: GPL-2.0-or-later
/* knobs.c - read, change and snapshot catalog knobs on the host or a lab side. */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include <netlink/netlink.h>
#include <netlink/route/link.h>

#include "knobs/ethtool.h"
#include "knobs/journal.h"
#include "knobs/knobs.h"
#include "knobs/sysctl.h"
#include "core/util.h"

/* What one run on a target holds: sockets made in the target's namespace. */
struct knobs_ctx {
	const struct knob_target *t;
	bool in_lab;
	char dev[32];			/* effective device, "" if none */
	struct ethtool_nl *et;
	bool et_tried;
	int et_rc;
	char et_err[ERR_MAX];
	struct ethtool_coalesce_params co;
	bool co_read;
	int co_rc;
	char co_err[ERR_MAX];
	struct nl_sock *rt;
	bool sysfs_tried;
	int sysfs_rc;
	char sysfs_err[ERR_MAX];
};

typedef int (*knobs_op)(struct knobs_ctx *c, void *arg, char *err);

const char *knobs_side_name(const struct knob_target *t)
{
	return t->where == KT_LAB_A ? "lab-a" : t->where == KT_LAB_B ? "lab-b" : "local";
}

/* The device a device-scope knob of t addresses: --dev, or the lab's veth. */
static void target_dev(const struct knob_target *t, char *dev, size_t len)
{
	if (t->dev[0])
		snprintf(dev, len, "%s", t->dev);
	else if (t->where == KT_LAB_A)
		snprintf(dev, len, "veth-a");
	else if (t->where == KT_LAB_B)
		snprintf(dev, len, "veth-b");
	else
		dev[0] = '\0';
}

/* Mark v as n/a with a reason. */
static void value_na(struct knob_value *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void value_na(struct knob_value *v, const char *fmt, ...)
{
	va_list ap;

	memset(v, 0, sizeof(*v));
	va_start(ap, fmt);
	vsnprintf(v->reason, sizeof(v->reason), fmt, ap);
	va_end(ap);
}

/* The ethtool socket of this run, opened on first use. */
static int ctx_ethtool(struct knobs_ctx *c, char *err)
{
	if (!c->et_tried) {
		c->et_tried = true;
		c->et_rc = ethtool_nl_open(&c->et, c->et_err);
	}
	if (c->et_rc)
		return err_set(err, c->et_rc, "%s", c->et_err);
	return 0;
}

/* The rtnetlink socket of this run, opened on first use. */
static int ctx_route(struct knobs_ctx *c, char *err)
{
	int r;

	if (c->rt)
		return 0;
	c->rt = nl_socket_alloc();
	if (!c->rt)
		return err_set(err, -ENOMEM, "rtnetlink: out of memory");
	r = nl_connect(c->rt, NETLINK_ROUTE);
	if (r < 0) {
		nl_socket_free(c->rt);
		c->rt = NULL;
		return err_set(err, -EIO, "rtnetlink: %s", nl_geterror(r));
	}
	return 0;
}

/*
 * Make /sys show this namespace's devices: inside a lab, a mount
 * namespace of this thread's own with a fresh sysfs on /sys (a sysfs
 * shows the network namespace of the task that mounts it).
 */
static int ctx_sysfs(struct knobs_ctx *c, char *err)
{
	if (!c->in_lab)
		return 0;
	if (!c->sysfs_tried) {
		c->sysfs_tried = true;
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
			c->sysfs_rc = err_set(c->sysfs_err, -errno,
					      "sysfs of the lab's namespace: %s", strerror(errno));
	}
	if (c->sysfs_rc)
		return err_set(err, c->sysfs_rc, "%s", c->sysfs_err);
	return 0;
}

static void ctx_close(struct knobs_ctx *c)
{
	if (c->et)
		ethtool_nl_close(c->et);
	if (c->rt)
		nl_socket_free(c->rt);
	c->et = NULL;
	c->rt = NULL;
}

/* ethtool's ring or channel name from the catalog's attribute name. */
static void attr_to_name(const char *where, const char *prefix, char *out, size_t len)
{
	size_t pl = strlen(prefix), i = 0;
	const char *s = where;

	if (!strncmp(s, prefix, pl))
		s += pl;
	for (; *s && i + 1 < len; s++, i++)
		out[i] = *s == '_' ? '-' : (char)(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
	out[i] = '\0';
	if (i > 6 && !strcmp(out + i - 6, "-count"))
		out[i - 6] = '\0';
}

/* Fill v from a number the kernel reported, canonical for d's type. */
static void value_from_u64(const struct knob_def *d, uint64_t n, struct knob_value *v)
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

/* Read one knob (not the lab's qdisc) inside the target's namespace. */
static int get_one(struct knobs_ctx *c, const struct knob_def *d,
		   struct knob_value *v, char *err)
{
	char e[ERR_MAX] = "", name[32], root[128];
	int rc = 0;

	memset(v, 0, sizeof(*v));
	if (c->in_lab && d->scope == KNOB_SCOPE_HOST) {
		value_na(v, "host-only: not inside a lab namespace");
		return 0;
	}
	if (d->scope == KNOB_SCOPE_DEVICE && !c->dev[0]) {
		value_na(v, "no device given (--dev)");
		return 0;
	}
	switch (d->kind) {
	case KNOB_SYSCTL:
		rc = sysctl_get(SYSCTL_ROOT, d, v, e);
		break;
	case KNOB_SYSFS:
		rc = ctx_sysfs(c, e);
		if (rc)
			break;
		snprintf(root, sizeof(root), "/sys/class/net/%s", c->dev);
		rc = sysctl_get(root, d, v, e);
		break;
	case KNOB_COALESCE: {
		const struct ethtool_coalesce_param *p;

		if (!c->co_read) {
			c->co_read = true;
			c->co_rc = ctx_ethtool(c, c->co_err);
			if (!c->co_rc)
				c->co_rc = ethtool_coalesce_get(c->et, c->dev, &c->co, c->co_err);
		}
		if (c->co_rc) {
			rc = c->co_rc;
			snprintf(e, sizeof(e), "%s", c->co_err);
			break;
		}
		if (!c->co.supported) {
			value_na(v, "%s", c->co.reason);
			return 0;
		}
		p = ethtool_coalesce_find(&c->co, d->name);
		if (!p || !p->present) {
			value_na(v, "%s: not supported by the driver", c->dev);
			return 0;
		}
		value_from_u64(d, p->value, v);
		return 0;
	}
	case KNOB_FEATURE: {
		bool active = false, fixed = false;

		rc = ctx_ethtool(c, e);
		if (!rc)
			rc = ethtool_features_group_get(c->et, c->dev, d->where, &active, &fixed, e);
		if (rc == -ENOENT) {
			value_na(v, "%s: no such feature in this kernel", c->dev);
			return 0;
		}
		if (!rc)
			value_from_u64(d, active, v);
		break;
	}
	case KNOB_RING:
	case KNOB_CHANNEL:
		rc = ctx_ethtool(c, e);
		if (rc)
			break;
		if (d->kind == KNOB_RING) {
			attr_to_name(d->where, "ETHTOOL_A_RINGS_", name, sizeof(name));
			rc = ethtool_rings_get(c->et, c->dev, name, v, e);
		} else {
			attr_to_name(d->where, "ETHTOOL_A_CHANNELS_", name, sizeof(name));
			rc = ethtool_channels_get(c->et, c->dev, name, v, e);
		}
		break;
	case KNOB_LINKINFO:
		rc = ctx_ethtool(c, e);
		if (!rc)
			rc = ethtool_linkinfo_get(c->et, c->dev, d->where, v, e);
		break;
	case KNOB_LINK: {
		struct rtnl_link *link = NULL;
		int r;

		if (strcmp(d->where, "mtu")) {
			value_na(v, "link attribute '%s' not known to this build", d->where);
			return 0;
		}
		rc = ctx_route(c, e);
		if (rc)
			break;
		r = rtnl_link_get_kernel(c->rt, 0, c->dev, &link);
		if (r < 0) {
			value_na(v, "%s: %s", c->dev, nl_geterror(r));
			return 0;
		}
		value_from_u64(d, rtnl_link_get_mtu(link), v);
		rtnl_link_put(link);
		return 0;
	}
	case KNOB_QDISC:
	default:
		value_na(v, "lab-only: the rate limit of a lab (--side lab-a|lab-b --lab NAME)");
		return 0;
	}
	if (rc) {
		/* Whatever stops one knob being read makes it n/a, with why. */
		value_na(v, "%s", e);
		return 0;
	}
	return 0;
}

/* Apply a checked value of one knob (not the qdisc) and read it back. */
static int set_one(struct knobs_ctx *c, const struct knob_def *d,
		   const struct knob_value *val, struct knob_value *after, char *err)
{
	char name[32], root[128];
	bool took = true;
	int rc = 0;

	if (c->in_lab && d->scope == KNOB_SCOPE_HOST)
		return err_set(err, -EOPNOTSUPP, "%s: host-only: not inside a lab namespace", d->name);
	if (d->scope == KNOB_SCOPE_DEVICE && !c->dev[0])
		return err_set(err, -EINVAL, "%s: no device given (--dev)", d->name);
	switch (d->kind) {
	case KNOB_SYSCTL:
		rc = sysctl_set(SYSCTL_ROOT, d, val, after, &took, err);
		break;
	case KNOB_SYSFS:
		rc = ctx_sysfs(c, err);
		if (rc)
			return rc;
		snprintf(root, sizeof(root), "/sys/class/net/%s", c->dev);
		rc = sysctl_set(root, d, val, after, &took, err);
		break;
	case KNOB_COALESCE:
		rc = ctx_ethtool(c, err);
		if (!rc)
			rc = ethtool_coalesce_set(c->et, c->dev, d->name, (uint32_t)val->num[0], err);
		c->co_read = false;
		break;
	case KNOB_FEATURE:
		rc = ctx_ethtool(c, err);
		if (!rc)
			rc = ethtool_features_group_set(c->et, c->dev, d->where, val->num[0] != 0, err);
		break;
	case KNOB_RING:
		rc = ctx_ethtool(c, err);
		attr_to_name(d->where, "ETHTOOL_A_RINGS_", name, sizeof(name));
		if (!rc)
			rc = ethtool_rings_set(c->et, c->dev, name, (uint32_t)val->num[0], err);
		break;
	case KNOB_CHANNEL:
		rc = ctx_ethtool(c, err);
		attr_to_name(d->where, "ETHTOOL_A_CHANNELS_", name, sizeof(name));
		if (!rc)
			rc = ethtool_channels_set(c->et, c->dev, name, (uint32_t)val->num[0], err);
		break;
	case KNOB_LINK: {
		struct rtnl_link *link = NULL, *chg;
		int r;

		rc = ctx_route(c, err);
		if (rc)
			return rc;
		r = rtnl_link_get_kernel(c->rt, 0, c->dev, &link);
		if (r < 0)
			return err_set(err, -ENODEV, "%s: %s: %s", d->name, c->dev, nl_geterror(r));
		chg = rtnl_link_alloc();
		if (!chg) {
			rtnl_link_put(link);
			return err_set(err, -ENOMEM, "%s: out of memory", d->name);
		}
		rtnl_link_set_mtu(chg, (unsigned)val->num[0]);
		r = rtnl_link_change(c->rt, link, chg, 0);
		rtnl_link_put(chg);
		rtnl_link_put(link);
		if (r < 0)
			return err_set(err, -EINVAL, "%s: %s: kernel refused %s: %s", d->name,
				       c->dev, val->text, nl_geterror(r));
		break;
	}
	case KNOB_QDISC:
	default:
		return err_set(err, -EOPNOTSUPP,
			       "%s: changing a lab's rate here is not supported yet (tunetop lab up --rate)",
			       d->name);
	}
	if (rc)
		return rc;
	{
		struct knob_value back;
		char e[ERR_MAX];

		get_one(c, d, &back, e);
		if (after)
			*after = back;
		if (!took || !back.present || !knob_value_equal(d, val, &back))
			return err_set(err, -EIO, "set %s: asked %s, kernel kept %s", d->name,
				       val->text, back.present ? back.text : back.reason);
	}
	return 0;
}

struct run_args {
	const struct knob_target *t;
	knobs_op op;
	void *arg;
	char *err;
	int rc;
};

/* Thread body: enter the lab side, then run the operation there. */
static void *run_thread(void *p)
{
	struct run_args *ra = p;
	struct knobs_ctx c = { .t = ra->t, .in_lab = true };

	target_dev(ra->t, c.dev, sizeof(c.dev));
	ra->rc = lab_enter(ra->t->lab, ra->t->where == KT_LAB_A ? LAB_A : LAB_B, ra->err);
	if (!ra->rc)
		ra->rc = ra->op(&c, ra->arg, ra->err);
	ctx_close(&c);
	return NULL;
}

/* Run op with a context in t's namespace (a thread of its own for a lab). */
static int knobs_run(const struct knob_target *t, knobs_op op, void *arg, char *err)
{
	struct run_args ra = { .t = t, .op = op, .arg = arg, .err = err };
	pthread_t th;
	int r;

	if (t->where == KT_LOCAL) {
		struct knobs_ctx c = { .t = t };

		target_dev(t, c.dev, sizeof(c.dev));
		r = op(&c, arg, err);
		ctx_close(&c);
		return r;
	}
	if (!t->lab)
		return err_set(err, -EINVAL, "%s: which lab? (--lab NAME)", knobs_side_name(t));
	r = pthread_create(&th, NULL, run_thread, &ra);
	if (r)
		return err_set(err, -r, "knobs: thread: %s", strerror(r));
	pthread_join(th, NULL);
	return ra.rc;
}

/* The lab's tbf rate, read through lab_info (outside any thread of ours). */
static int qdisc_get(const struct knob_def *d, const struct knob_target *t,
		     struct knob_value *v, char *err)
{
	struct lab_info li;
	char e[ERR_MAX];

	if (t->where == KT_LOCAL || !t->lab) {
		value_na(v, "lab-only: the rate limit of a lab (--side lab-a|lab-b --lab NAME)");
		return 0;
	}
	if (lab_info(t->lab, &li, e)) {
		value_na(v, "%s", e);
		return 0;
	}
	value_from_u64(d, li.rate_bps, v);
	return 0;
}

/* The lab's rate on both veth ends, then read back. */
static int qdisc_set(const struct knob_def *d, const struct knob_target *t,
		     const struct knob_value *val, struct knob_value *after, char *err)
{
	int rc;

	if (t->where == KT_LOCAL || !t->lab)
		return err_set(err, -EOPNOTSUPP,
			       "%s: lab-only: the rate limit of a lab (--side lab-a|lab-b --lab NAME)",
			       d->name);
	rc = lab_set_rate(t->lab, (uint64_t)val->num[0], err);
	if (rc)
		return rc;
	rc = qdisc_get(d, t, after, err);
	if (rc)
		return rc;
	if (!after->present || !knob_value_equal(d, val, after))
		return err_set(err, -EIO, "set %s: asked %s, kernel kept %s", d->name, val->text,
			       after->present ? after->text : "n/a");
	return 0;
}

struct one_args {
	const struct knob_def *d;
	struct knob_value *v;
	const struct knob_value *val;
};

static int op_get(struct knobs_ctx *c, void *arg, char *err)
{
	struct one_args *a = arg;

	return get_one(c, a->d, a->v, err);
}

static int op_set(struct knobs_ctx *c, void *arg, char *err)
{
	struct one_args *a = arg;

	return set_one(c, a->d, a->val, a->v, err);
}

int knobs_get(const struct knob_def *d, const struct knob_target *t,
	      struct knob_value *v, char *err)
{
	struct one_args a = { .d = d, .v = v };

	if (d->kind == KNOB_QDISC)
		return qdisc_get(d, t, v, err);
	return knobs_run(t, op_get, &a, err);
}

int knobs_apply(const struct knob_def *d, const struct knob_target *t,
		const char *text, struct knob_value *after, char *err)
{
	struct knob_value val, back;
	struct one_args a = { .d = d, .v = after ? after : &back, .val = &val };
	int rc;

	if (d->kind == KNOB_LINKINFO)
		return err_set(err, -EROFS, "%s: read-only (a link figure)", d->name);
	rc = knob_parse_value(d, text, &val, err);
	if (rc)
		return rc;
	if (d->kind == KNOB_QDISC)
		return qdisc_set(d, t, &val, a.v, err);
	return knobs_run(t, op_set, &a, err);
}

void knobs_journal_key(const struct knob_def *d, const struct knob_target *t,
		       const char *text, struct journal_entry *e)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->side, sizeof(e->side), "%s", knobs_side_name(t));
	if (t->where != KT_LOCAL)
		snprintf(e->lab, sizeof(e->lab), "%s", lab_name(t->lab));
	if (d->scope == KNOB_SCOPE_DEVICE)
		target_dev(t, e->dev, sizeof(e->dev));
	snprintf(e->knob, sizeof(e->knob), "%s", d->name);
	snprintf(e->text, sizeof(e->text), "%s", text);
}

int knobs_check_set(const struct knob_def *d, const struct knob_target *t,
		    const char *text, struct knob_value *val, char *err)
{
	struct knob_value v;
	int rc;

	if (d->kind == KNOB_LINKINFO)
		return err_set(err, -EROFS, "%s: read-only (a link figure)", d->name);
	rc = knob_parse_value(d, text, val ? val : &v, err);
	if (rc)
		return rc;
	if (t->where != KT_LOCAL && (d->flags & KNOB_F_NETNS_RO))
		return err_set(err, -EACCES,
			       "%s: read-only inside a network namespace (change it on the host)",
			       d->name);
	if (t->where != KT_LOCAL && d->scope == KNOB_SCOPE_HOST)
		return err_set(err, -EOPNOTSUPP, "%s: host-only: not inside a lab namespace", d->name);
	return 0;
}

struct snap_args {
	const struct catalog *c;
	struct knob_snapshot *s;
};

static int op_snapshot(struct knobs_ctx *c, void *arg, char *err)
{
	struct snap_args *a = arg;

	for (unsigned i = 0; i < a->s->n; i++) {
		const struct knob_def *d = catalog_at(a->c, i);

		if (d->kind != KNOB_QDISC)
			get_one(c, d, &a->s->item[i].v, err);
	}
	return 0;
}

int knobs_snapshot(const struct catalog *c, const struct knob_target *t,
		   struct knob_snapshot **out, char *err)
{
	struct knob_snapshot *s = calloc(1, sizeof(*s));
	struct snap_args a = { .c = c, .s = s };
	char e[ERR_MAX];
	int rc;

	*out = NULL;
	if (!s)
		return err_set(err, -ENOMEM, "snapshot: out of memory");
	s->n = catalog_count(c);
	s->item = calloc(s->n ? s->n : 1, sizeof(*s->item));
	if (!s->item) {
		free(s);
		return err_set(err, -ENOMEM, "snapshot: out of memory");
	}
	snprintf(s->side, sizeof(s->side), "%s", knobs_side_name(t));
	target_dev(t, s->dev, sizeof(s->dev));
	for (unsigned i = 0; i < s->n; i++) {
		const struct knob_def *d = catalog_at(c, i);

		snprintf(s->item[i].name, sizeof(s->item[i].name), "%s", d->name);
		if (d->kind == KNOB_QDISC)
			qdisc_get(d, t, &s->item[i].v, e);
	}
	rc = knobs_run(t, op_snapshot, &a, err);
	if (rc) {
		knobs_snapshot_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

void knobs_snapshot_free(struct knob_snapshot *s)
{
	if (!s)
		return;
	free(s->item);
	free(s);
}

/* The item called name in s, or NULL. */
static const struct knob_snapshot_item *snap_find(const struct knob_snapshot *s,
						  const char *name)
{
	for (unsigned i = 0; i < s->n; i++)
		if (!strcmp(s->item[i].name, name))
			return &s->item[i];
	return NULL;
}

/* Whether two snapshot values are different settings. */
static bool item_differs(const struct knob_snapshot_item *x,
			 const struct knob_snapshot_item *y)
{
	if (!x || !y)
		return true;
	if (x->v.present != y->v.present)
		return true;
	return x->v.present && strcmp(x->v.text, y->v.text);
}

unsigned knobs_snapshot_diff(const struct knob_snapshot *a,
			     const struct knob_snapshot *b,
			     char names[][KNOB_NAME_MAX], unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < a->n; i++) {
		if (!item_differs(&a->item[i], snap_find(b, a->item[i].name)))
			continue;
		if (n < max)
			snprintf(names[n], KNOB_NAME_MAX, "%s", a->item[i].name);
		n++;
	}
	for (unsigned i = 0; i < b->n; i++) {
		if (snap_find(a, b->item[i].name))
			continue;
		if (n < max)
			snprintf(names[n], KNOB_NAME_MAX, "%s", b->item[i].name);
		n++;
	}
	return n;
}

/* Put one journaled original back through the knob engine. */
static int restore_cb(const struct journal_entry *e, void *arg, char *err)
{
	const struct catalog *c = arg;
	const struct knob_def *d = catalog_find(c, e->knob);
	struct knob_target t = { .where = KT_LOCAL };
	struct lab *l = NULL;
	int rc;

	if (!d)
		return err_set(err, -EINVAL, "not in the knob catalog");
	snprintf(t.dev, sizeof(t.dev), "%s", e->dev);
	if (strcmp(e->side, "local")) {
		enum lab_side side = strcmp(e->side, "lab-b") ? LAB_A : LAB_B;

		t.where = side == LAB_A ? KT_LAB_A : KT_LAB_B;
		rc = lab_open(&l, e->lab, err);
		if (rc == -ENOENT)
			return -ENOENT;		/* the lab is gone, and the value with it */
		if (rc)
			return rc;
		if (lab_netns_fd(l, side) < 0) {
			lab_close(l);
			return -ENOENT;
		}
		t.lab = l;
	}
	{
		struct knob_value want, now;

		/* Already the original (a change that never took): nothing to do. */
		if (knob_parse_value(d, e->text, &want, err) == 0 &&
		    knobs_get(d, &t, &now, err) == 0 && now.present &&
		    knob_value_equal(d, &want, &now))
			rc = 0;
		else
			rc = knobs_apply(d, &t, e->text, NULL, err);
	}
	if (l)
		lab_close(l);
	return rc == -ENOENT ? -EIO : rc;
}

int knobs_restore_journal(const struct catalog *c, unsigned *restored,
			  unsigned *dropped, unsigned *held, char *failed, unsigned flen,
			  char *err)
{
	char dir[4096], legacy[2][4096];
	int rc, n;

	rc = journal_dir(dir, sizeof(dir), err);
	if (rc)
		return rc;
	rc = journal_restore_all(dir, restore_cb, (void *)c, restored, dropped, held,
				 failed, flen, err);
	/* Journals an earlier version kept elsewhere are put back too. */
	n = journal_legacy_dirs(legacy, 2);
	for (int i = 0; i < n; i++) {
		unsigned r = 0, d = 0, h = 0;
		size_t used = failed ? strlen(failed) : 0;
		int lrc = journal_restore_all(legacy[i], restore_cb, (void *)c, &r, &d, &h,
					      failed ? failed + used : NULL,
					      failed ? flen - used : 0, err);

		if (restored)
			*restored += r;
		if (dropped)
			*dropped += d;
		if (held)
			*held += h;
		if (lrc && !rc)
			rc = lrc;
	}
	return rc;
}

/* One knob as a JSON object. */
json_t *knobs_knob_to_json(const struct knob_def *d, const char *name,
			 const struct knob_value *v)
{
	json_t *j = json_object();

	json_object_set_new(j, "name", json_string(name));
	if (d) {
		json_object_set_new(j, "group", json_string(d->group));
		json_object_set_new(j, "scope", json_string(knob_scope_text(d)));
		json_object_set_new(j, "unit", json_string(d->unit));
	}
	json_object_set_new(j, "value", v->present ? json_string(v->text) : json_null());
	if (!v->present)
		json_object_set_new(j, "reason", json_string(v->reason));
	return j;
}

/* A snapshot as JSON: {"side", "dev", "knobs": [...]}. */
json_t *knobs_snapshot_to_json(const struct catalog *c, const struct knob_snapshot *s)
{
	json_t *j = json_object(), *a = json_array();

	json_object_set_new(j, "side", json_string(s->side));
	json_object_set_new(j, "dev", json_string(s->dev));
	for (unsigned i = 0; i < s->n; i++)
		json_array_append_new(a, knobs_knob_to_json(catalog_find(c, s->item[i].name),
						   s->item[i].name, &s->item[i].v));
	json_object_set_new(j, "knobs", a);
	return j;
}

/* The device of this namespace's default IPv4 route, or "". */
void knobs_default_dev(char *dev, size_t len)
{
	FILE *f = fopen("/proc/net/route", "re");
	char line[256], ifname[32];
	unsigned long dst, mask;

	dev[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%31s %lx %*x %*x %*d %*d %*d %lx", ifname, &dst, &mask) == 3 &&
		    dst == 0 && mask == 0) {
			snprintf(dev, len, "%s", ifname);
			break;
		}
	fclose(f);
}
