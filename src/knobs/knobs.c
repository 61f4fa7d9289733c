// SPDX-License-Identifier: GPL-2.0-or-later
/* knobs.c - read, change and snapshot catalog knobs on the host or a lab side. */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knobs/backend.h"
#include "knobs/journal.h"
#include "knobs/knobs-remote.h"
#include "knobs/knobs.h"
#include "core/util.h"

typedef int (*knobs_op)(struct knob_ctx *c, void *arg, char *err);

const char *knobs_side_name(const struct knob_target *t)
{
	switch (t->where) {
	case KT_LAB_A:
		return "lab-a";
	case KT_LAB_B:
		return "lab-b";
	case KT_REMOTE:
		return "remote";
	default:
		return "local";
	}
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

/* Read one knob of a namespace-run backend inside the target's namespace. */
static int get_one(struct knob_ctx *c, const struct knob_def *d,
		   struct knob_value *v, char *err)
{
	const struct knob_backend *b = backend_for(d->kind);
	char e[ERR_MAX] = "";

	(void)err;
	memset(v, 0, sizeof(*v));
	if (c->in_lab && d->scope == KNOB_SCOPE_HOST) {
		knob_value_na(v, "host-only: not inside a lab namespace");
		return 0;
	}
	if (d->scope == KNOB_SCOPE_DEVICE && !c->dev[0]) {
		knob_value_na(v, "no device given (--dev)");
		return 0;
	}
	if (!b->get) {
		knob_value_na(v, "%s", b->lab_only);
		return 0;
	}
	/* Whatever stops one knob being read makes it n/a, with why. */
	if (b->get(c, d, v, e))
		knob_value_na(v, "%s", e);
	return 0;
}

/* Apply a checked value of one knob inside the namespace and read it back. */
static int set_one(struct knob_ctx *c, const struct knob_def *d,
		   const struct knob_value *val, struct knob_value *after, char *err)
{
	const struct knob_backend *b = backend_for(d->kind);
	struct knob_value back;
	char e[ERR_MAX];
	bool took = true;
	int rc;

	if (c->in_lab && d->scope == KNOB_SCOPE_HOST)
		return err_set(err, -EOPNOTSUPP, "%s: host-only: not inside a lab namespace", d->name);
	if (d->scope == KNOB_SCOPE_DEVICE && !c->dev[0])
		return err_set(err, -EINVAL, "%s: no device given (--dev)", d->name);
	if (!b->set)
		return err_set(err, b->readonly ? -EROFS : -EOPNOTSUPP, "%s: %s", d->name,
			       b->readonly ? b->readonly : b->lab_only);
	rc = b->set(c, d, val, &took, err);
	if (rc)
		return rc;
	get_one(c, d, &back, e);
	if (after)
		*after = back;
	if (!took || !back.present || !knob_value_equal(d, val, &back))
		return err_set(err, -EIO, "set %s: asked %s, kernel kept %s", d->name,
			       val->text, back.present ? back.text : back.reason);
	return 0;
}

struct run_args {
	const struct knob_target *t;
	knobs_op op;
	void *arg;
	char *err;
	int rc;
};

/* Move the calling thread into t's namespace: a lab side, or its netns_fd. */
static int run_enter(const struct knob_target *t, char *err)
{
	if (t->where != KT_LOCAL)
		return lab_enter(t->lab, t->where == KT_LAB_A ? LAB_A : LAB_B, err);
	if (setns(t->netns_fd, CLONE_NEWNET))
		return err_set(err, -errno, "enter its network namespace: %s", strerror(errno));
	return 0;
}

/*
 * Thread body: enter the lab side (or other namespace), then run the
 * operation there, as a thread of that namespace (host-only knobs n/a,
 * a sysfs of its own) unless it is the host's.
 */
static void *run_thread(void *p)
{
	struct run_args *ra = p;
	struct knob_ctx c = { .in_lab = true };

	target_dev(ra->t, c.dev, sizeof(c.dev));
	ra->rc = run_enter(ra->t, ra->err);
	if (!ra->rc && ra->t->where == KT_LOCAL) {
		struct journal_netns ns;

		/* Back in the host's (a restore run inside another): its
		 * host-only knobs are there. */
		journal_netns_here(&ns);
		c.in_lab = ns.ino != 0;
	}
	if (!ra->rc)
		ra->rc = ra->op(&c, ra->arg, ra->err);
	knob_ctx_close(&c);
	return NULL;
}

/* Run op with a context in t's namespace (a thread of its own for a lab). */
static int knobs_run(const struct knob_target *t, knobs_op op, void *arg, char *err)
{
	struct run_args ra = { .t = t, .op = op, .arg = arg, .err = err };
	pthread_t th;
	int r;

	if (t->where == KT_REMOTE)
		return err_set(err, -EINVAL, "remote: knobs there are tunetopd's to read and change");
	if (t->where == KT_LOCAL && !t->in_netns) {
		struct knob_ctx c = { .in_lab = false };

		target_dev(t, c.dev, sizeof(c.dev));
		r = op(&c, arg, err);
		knob_ctx_close(&c);
		return r;
	}
	if (t->where != KT_LOCAL && !t->lab)
		return err_set(err, -EINVAL, "%s: which lab? (--lab NAME)", knobs_side_name(t));
	r = pthread_create(&th, NULL, run_thread, &ra);
	if (r)
		return err_set(err, -r, "knobs: thread: %s", strerror(r));
	pthread_join(th, NULL);
	return ra.rc;
}

/* A whole-lab knob (its backend's lab_get), outside any thread of ours. */
static int lab_knob_get(const struct knob_def *d, const struct knob_target *t,
			struct knob_value *v, char *err)
{
	return backend_for(d->kind)->lab_get(d, t, v, err);
}

/* knobs_apply's way for a whole-lab knob (its backend's lab_set): set, read back. */
static int lab_knob_set(const struct knob_def *d, const struct knob_target *t,
			const struct knob_value *val, struct knob_value *after, char *err)
{
	int rc;

	rc = backend_for(d->kind)->lab_set(d, t, val, err);
	if (rc)
		return rc;
	rc = lab_knob_get(d, t, after, err);
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

static int op_get(struct knob_ctx *c, void *arg, char *err)
{
	struct one_args *a = arg;

	return get_one(c, a->d, a->v, err);
}

static int op_set(struct knob_ctx *c, void *arg, char *err)
{
	struct one_args *a = arg;

	return set_one(c, a->d, a->val, a->v, err);
}

/*
 * tunetopd's text of d into v, parsed as a local value is (outside the
 * catalog's range too: values read are shown as they are).  0 or -EPROTO.
 */
static int remote_parse(const struct knob_def *d, const char *text, struct knob_value *v,
			char *err)
{
	char e[ERR_MAX], copy[KNOB_TEXT_MAX];
	struct knob_def any = *d;

	snprintf(copy, sizeof(copy), "%s", text);
	any.min = INT64_MIN;
	any.max = INT64_MAX;
	if (knob_parse_value(&any, copy, v, e))
		return err_set(err, -EPROTO, "%s: tunetopd's value %.40s: %s", d->name, copy, e);
	return 0;
}

/* Read d over t's link to tunetopd. */
static int remote_get(const struct knob_def *d, const struct knob_target *t,
		      struct knob_value *v, char *err)
{
	char e[ERR_MAX];
	int rc;

	if (!t->remote)
		return err_set(err, -EINVAL, "%s on remote: no tunetopd (-H HOST)", d->name);
	rc = knobs_remote_read(t->remote, d->name, v, err);
	if (rc || !v->present)
		return rc;
	if (remote_parse(d, v->text, v, e))
		knob_value_na(v, "%.90s", e);
	return 0;
}

/* knobs_apply's way for KT_REMOTE: tunetopd sets, reads back and says so. */
static int remote_apply(const struct knob_def *d, const struct knob_target *t,
			const struct knob_value *val, struct knob_value *after, char *err)
{
	char now[KNOB_TEXT_MAX];
	int rc;

	if (!t->remote)
		return err_set(err, -EINVAL, "%s on remote: no tunetopd (-H HOST)", d->name);
	rc = knobs_remote_write(t->remote, d->name, val->text, NULL, now, sizeof(now), err);
	if (rc || !after)
		return rc;
	return remote_parse(d, now, after, err);
}

int knobs_get(const struct knob_def *d, const struct knob_target *t,
	      struct knob_value *v, char *err)
{
	struct one_args a = { .d = d, .v = v };

	if (t->where == KT_REMOTE)
		return remote_get(d, t, v, err);
	if (backend_for(d->kind)->lab_get)
		return lab_knob_get(d, t, v, err);
	return knobs_run(t, op_get, &a, err);
}

int knobs_apply(const struct knob_def *d, const struct knob_target *t,
		const char *text, struct knob_value *after, char *err)
{
	const struct knob_backend *b = backend_for(d->kind);
	struct knob_value val, back;
	struct one_args a = { .d = d, .v = after ? after : &back, .val = &val };
	int rc;

	if (knobs_read_only(d))
		return err_set(err, -EROFS, "%s: %s", d->name, knobs_read_only(d));
	rc = knob_parse_value(d, text, &val, err);
	if (rc)
		return rc;
	if (t->where == KT_REMOTE)
		return remote_apply(d, t, &val, a.v, err);
	if (b->lab_set)
		return lab_knob_set(d, t, &val, a.v, err);
	return knobs_run(t, op_set, &a, err);
}

void knobs_journal_key(const struct knob_def *d, const struct knob_target *t,
		       const char *text, struct journal_entry *e)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->side, sizeof(e->side), "%s", knobs_side_name(t));
	if (t->where == KT_LAB_A || t->where == KT_LAB_B)
		snprintf(e->lab, sizeof(e->lab), "%s", lab_name(t->lab));
	else if (t->where == KT_LOCAL && !t->in_netns)
		journal_netns_here(&e->ns);
	if (d->scope == KNOB_SCOPE_DEVICE)
		target_dev(t, e->dev, sizeof(e->dev));
	snprintf(e->knob, sizeof(e->knob), "%s", d->name);
	snprintf(e->text, sizeof(e->text), "%s", text);
}

const char *knobs_read_only(const struct knob_def *d)
{
	const struct knob_backend *b = backend_for(d->kind);

	return b->set || b->lab_set ? NULL : b->readonly ? b->readonly : "read-only";
}

int knobs_check_set(const struct knob_def *d, const struct knob_target *t,
		    const char *text, struct knob_value *val, char *err)
{
	struct knob_value v;
	int rc;

	if (knobs_read_only(d))
		return err_set(err, -EROFS, "%s: %s", d->name, knobs_read_only(d));
	rc = knob_parse_value(d, text, val ? val : &v, err);
	if (rc)
		return rc;
	/* tunetopd knows its own host: it checks there and says why. */
	if (t->where == KT_LOCAL || t->where == KT_REMOTE)
		return 0;
	if (d->flags & KNOB_F_NETNS_RO)
		return err_set(err, -EACCES,
			       "%s: read-only inside a network namespace (change it on the host)",
			       d->name);
	if (d->scope == KNOB_SCOPE_HOST)
		return err_set(err, -EOPNOTSUPP, "%s: host-only: not inside a lab namespace", d->name);
	return 0;
}

struct snap_args {
	const struct catalog *c;
	struct knob_snapshot *s;
};

static int op_snapshot(struct knob_ctx *c, void *arg, char *err)
{
	struct snap_args *a = arg;

	for (unsigned i = 0; i < a->s->n; i++) {
		const struct knob_def *d = catalog_at(a->c, i);

		if (!backend_for(d->kind)->lab_get)
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
		if (t->where == KT_REMOTE) {
			rc = remote_get(d, t, &s->item[i].v, err);
			if (rc) {
				knobs_snapshot_free(s);
				return rc;
			}
		} else if (backend_for(d->kind)->lab_get) {
			lab_knob_get(d, t, &s->item[i].v, e);
		}
	}
	rc = t->where == KT_REMOTE ? 0 : knobs_run(t, op_snapshot, &a, err);
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

/*
 * Where a "local" entry goes back: its namespace when that is not this
 * thread's (t->in_netns set, the fd to close).  0, or -errno with why:
 * the entry is kept.
 */
static int restore_netns(const struct journal_entry *e, struct knob_target *t, char *err)
{
	int fd = journal_netns_open(e, err);

	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	t->in_netns = true;
	t->netns_fd = fd;
	return 0;
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
	} else {
		/* Never "restored" for a write made elsewhere: kept, and why. */
		rc = restore_netns(e, &t, err);
		if (rc)
			return rc;
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
	if (t.in_netns)
		close(t.netns_fd);
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

	json_object_set_new(j, KNOBS_KEY_NAME, json_string(name));
	if (d) {
		json_object_set_new(j, KNOBS_KEY_GROUP, json_string(d->group));
		json_object_set_new(j, "scope", json_string(knob_scope_text(d)));
		json_object_set_new(j, KNOBS_KEY_UNIT, json_string(d->unit));
	}
	json_object_set_new(j, KNOBS_KEY_VALUE, v->present ? json_string(v->text) : json_null());
	if (!v->present)
		json_object_set_new(j, KNOBS_KEY_REASON, json_string(v->reason));
	return j;
}

/* A snapshot as JSON: {"side", "dev", "knobs": [...]}. */
json_t *knobs_snapshot_to_json(const struct catalog *c, const struct knob_snapshot *s)
{
	json_t *j = json_object(), *a = json_array();

	json_object_set_new(j, KNOBS_KEY_SIDE, json_string(s->side));
	json_object_set_new(j, KNOBS_KEY_DEV, json_string(s->dev));
	for (unsigned i = 0; i < s->n; i++)
		json_array_append_new(a, knobs_knob_to_json(catalog_find(c, s->item[i].name),
						   s->item[i].name, &s->item[i].v));
	json_object_set_new(j, KNOBS_KEY_LIST, a);
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

/* Before a plan runs: every value checked, the knob read on its end. */
int knobs_plan_check(const struct catalog *c, const struct knob_def *d,
		     const struct knob_target *t, const char *const *texts,
		     unsigned n, struct knob_value *cur, char *err)
{
	const char *side = knobs_side_name(t);
	char why[ERR_MAX], dev[40] = "", has[160] = "";
	struct knob_snapshot *s;
	struct knob_value v;
	unsigned i;
	int rc;

	if (!cur)
		cur = &v;
	target_dev(t, why, 32);
	if (why[0] && d->scope == KNOB_SCOPE_DEVICE)
		snprintf(dev, sizeof(dev), " (%.32s)", why);
	for (i = 0; i < n; i++) {
		rc = knobs_check_set(d, t, texts[i], NULL, why);
		if (rc)
			return err_set(err, rc, "%s on %s%s: %s", d->name, side, dev,
				       why);
	}
	rc = knobs_get(d, t, cur, why);
	if (rc)
		return err_set(err, rc, "%s on %s%s: %s", d->name, side, dev, why);
	if (cur->present)
		return 0;
	/* Say what that end has of the knob's group instead. */
	if (c && knobs_snapshot(c, t, &s, why) == 0) {
		for (i = 0; i < s->n; i++) {
			const struct knob_def *o = catalog_at(c, i);
			size_t used = strlen(has);

			if (strcmp(o->group, d->group) || !s->item[i].v.present ||
			    used + strlen(o->name) + 3 >= sizeof(has))
				continue;
			snprintf(has + used, sizeof(has) - used, "%s%s",
				 used ? ", " : "", o->name);
		}
		knobs_snapshot_free(s);
	}
	if (has[0])
		return err_set(err, -EOPNOTSUPP, "%s on %s%s: %s; its %s knobs there: %s",
			       d->name, side, dev, cur->reason, d->group, has);
	return err_set(err, -EOPNOTSUPP, "%s on %s%s: %s; %s has no %s knob",
		       d->name, side, dev, cur->reason, side, d->group);
}
