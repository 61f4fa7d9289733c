// SPDX-License-Identifier: GPL-2.0-or-later
/* txn.c - knob transactions: hold and journal, apply, undo newest first. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"
#include "knobs/catalog.h"
#include "knobs/journal.h"
#include "knobs/txn.h"

/*
 * One knob this transaction holds.  A remote one (KT_REMOTE) is held and
 * journaled by tunetopd on its host, for as long as the link lives: no
 * entry of ours (`tunetop restore` here could not put it back there).
 */
struct txn_change {
	const struct knob_def *d;
	struct knob_target t;
	struct journal_entry key;	/* side, lab, dev, knob; our holder */
	char found[KNOB_TEXT_MAX];	/* its value when we first changed it */
	bool created;			/* the journal entry is ours, not adopted */
};

struct knobs_txn {
	char dir[4096];
	char who[JOURNAL_WHO_MAX];
	unsigned long id;
	unsigned flags;
	int (*cancel_cb)(void *arg);
	void *cancel_arg;
	unsigned n, cap;
	struct txn_change *ch;		/* in the order of their first change */
};

int knobs_txn_begin(struct knobs_txn **out, const char *who, unsigned flags, char *err)
{
	struct knobs_txn *x = calloc(1, sizeof(*x));
	int rc;

	*out = NULL;
	if (!x)
		return err_set(err, -ENOMEM, "knob transaction: out of memory");
	rc = journal_dir(x->dir, sizeof(x->dir), err);
	if (rc) {
		free(x);
		return rc;
	}
	snprintf(x->who, sizeof(x->who), "%s", who);
	x->flags = flags;
	x->id = journal_txn_open();
	*out = x;
	return 0;
}

void knobs_txn_set_cancel(struct knobs_txn *x, int (*cb)(void *arg), void *arg)
{
	x->cancel_cb = cb;
	x->cancel_arg = arg;
}

/* The change of d on t, or NULL. */
static struct txn_change *txn_find(const struct knobs_txn *x, const struct knob_def *d,
				   const struct knob_target *t)
{
	struct journal_entry k;

	knobs_journal_key(d, t, "", &k);
	for (unsigned i = 0; i < x->n; i++)
		if (journal_same_key(&x->ch[i].key, &k))
			return &x->ch[i];
	return NULL;
}

bool knobs_txn_has(const struct knobs_txn *x, const struct knob_def *d,
		   const struct knob_target *t, char *found, size_t len)
{
	const struct txn_change *c = txn_find(x, d, t);

	if (c && found)
		snprintf(found, len, "%s", c->found);
	return c != NULL;
}

unsigned knobs_txn_count(const struct knobs_txn *x)
{
	return x ? x->n : 0;
}

/*
 * Hold d on t for x, its value now (into *cur) journaled first as the
 * original: a new change in x, or -EBUSY (after waiting, with
 * KNOBS_TXN_WAIT) when another live transaction holds it.  The value is
 * read again after each wait: the holder puts its own back first.
 */
static int txn_hold(struct knobs_txn *x, const struct knob_def *d,
		    const struct knob_target *t, struct knob_value *cur,
		    struct txn_change **out, char *err)
{
	struct journal_entry e, prev;
	bool created = false;
	int rc;

	if (x->n == x->cap) {
		unsigned cap = x->cap ? 2 * x->cap : 8;
		struct txn_change *na = realloc(x->ch, cap * sizeof(*na));

		if (!na)
			return err_set(err, -ENOMEM, "knob transaction: out of memory");
		x->ch = na;
		x->cap = cap;
	}
	for (;;) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		rc = knobs_get(d, t, cur, err);
		if (rc)
			return rc;
		if (!cur->present)
			return err_set(err, -EOPNOTSUPP, "%s: n/a here: %s", d->name, cur->reason);
		knobs_journal_key(d, t, cur->text, &e);
		journal_set_holder(&e, x->id, x->who);
		if (t->where == KT_REMOTE)
			break;
		rc = journal_hold(x->dir, &e, &created, &prev, err);
		if (rc != -EBUSY || !(x->flags & KNOBS_TXN_WAIT))
			break;
		if (x->cancel_cb && x->cancel_cb(x->cancel_arg))
			return err_set(err, -EINTR, "%s: interrupted while waiting for %s (pid %d) to give it back",
				       d->name, *prev.who ? prev.who : "another tunetop",
				       (int)prev.pid);
		nanosleep(&ts, NULL);
	}
	if (rc)
		return rc;
	*out = &x->ch[x->n++];
	memset(*out, 0, sizeof(**out));
	(*out)->d = d;
	(*out)->t = *t;
	(*out)->key = e;
	(*out)->created = created;
	snprintf((*out)->found, sizeof((*out)->found), "%s", cur->text);
	return 0;
}

/* Drop change c from x (it is no longer held). */
static void txn_drop(struct knobs_txn *x, struct txn_change *c)
{
	size_t i = (size_t)(c - x->ch);

	memmove(&x->ch[i], &x->ch[i + 1], (x->n - i - 1) * sizeof(*c));
	x->n--;
}

/* Release c's journal entry (forget it when forget); tunetopd keeps remote ones. */
static int txn_release(struct knobs_txn *x, const struct txn_change *c, bool forget,
		       char *err)
{
	char e2[ERR_MAX];

	if (c->t.where == KT_REMOTE)
		return 0;
	return journal_release(x->dir, &c->key, forget, err ? err : e2);
}

/* Whether d on t reads back as text now. */
static bool txn_reads(const struct knob_def *d, const struct knob_target *t,
		      const char *text, char *now, size_t len)
{
	struct knob_value want, v;
	char e[ERR_MAX];

	if (now)
		snprintf(now, len, "?");
	if (knobs_get(d, t, &v, e) || !v.present)
		return false;
	if (now)
		snprintf(now, len, "%s", v.text);
	return knob_parse_value(d, text, &want, e) == 0 && knob_value_equal(d, &want, &v);
}

int knobs_txn_set(struct knobs_txn *x, const struct knob_def *d,
		  const struct knob_target *t, const char *text,
		  struct knob_value *before, struct knob_value *after, char *err)
{
	struct knob_value val, cur;
	struct txn_change *c;
	bool fresh = false;
	int rc;

	rc = knobs_check_set(d, t, text, &val, err);
	if (rc)
		return rc;
	c = txn_find(x, d, t);
	if (!c) {
		/* The original goes to disk, held by us, before anything changes. */
		rc = txn_hold(x, d, t, &cur, &c, err);
		if (rc)
			return rc;
		fresh = true;
	} else {
		rc = knobs_get(d, t, &cur, err);
		if (rc)
			return rc;
	}
	if (before)
		*before = cur;
	rc = knobs_apply(d, t, val.text, after, err);
	if (rc && fresh && txn_reads(d, t, c->found, NULL, 0)) {
		/* Refused and unchanged: give the knob back as we found it. */
		txn_release(x, c, c->created, NULL);
		txn_drop(x, c);
	}
	return rc;
}

/*
 * Put change c back to the value x found; the journal entry goes when we
 * made it and the value reads back, else it stays unheld for `tunetop
 * restore`.  0 or the error.
 */
static int txn_put_back(struct knobs_txn *x, struct txn_change *c, char *was,
			size_t wlen, char *err)
{
	int rc = 0;

	if (!txn_reads(c->d, &c->t, c->found, was, wlen)) {
		rc = knobs_apply(c->d, &c->t, c->found, NULL, err);
		if (rc == 0 && !txn_reads(c->d, &c->t, c->found, NULL, 0))
			rc = err_set(err, -EIO, "%s: put back %s, but the kernel kept another value",
				     c->d->name, c->found);
	}
	if (rc) {
		txn_release(x, c, false, NULL);
		return rc;
	}
	return txn_release(x, c, c->created, err);
}

int knobs_txn_undo_one(struct knobs_txn *x, const struct knob_def *d,
		       const struct knob_target *t, char *err)
{
	struct txn_change *c = txn_find(x, d, t);
	int rc;

	if (!c)
		return err_set(err, -ENOENT, "%s: not changed here", d->name);
	rc = txn_put_back(x, c, NULL, 0, err);
	txn_drop(x, c);
	return rc;
}

int knobs_txn_undo(struct knobs_txn *x, knobs_txn_undo_cb cb, void *arg)
{
	int ret = 0;

	if (!x)
		return 0;
	while (x->n) {
		struct txn_change *c = &x->ch[x->n - 1];
		char err[ERR_MAX] = "", was[KNOB_TEXT_MAX];
		int rc = txn_put_back(x, c, was, sizeof(was), err);

		if (rc)
			ret = -EIO;
		if (cb)
			cb(c->d, &c->t, was, c->found, rc, err, arg);
		x->n--;
	}
	return ret;
}

int knobs_txn_keep(struct knobs_txn *x, char *err)
{
	int ret = 0;

	if (!x)
		return 0;
	for (unsigned i = 0; i < x->n; i++) {
		struct txn_change *c = &x->ch[i];
		struct journal_entry *a;
		char original[KNOB_TEXT_MAX] = "";
		unsigned n;
		int rc;

		/* tunetopd puts it back when the link closes: say so, now. */
		if (c->t.where == KT_REMOTE) {
			char e2[ERR_MAX];

			rc = txn_put_back(x, c, NULL, 0, e2);
			ret = err_set(err, -EXDEV, "%s on remote: put back%s%s: tunetopd keeps a change only while its client is connected (tunetop knobs set --side remote --hold SECS)",
				      c->d->name, rc ? ", or not: " : "", rc ? e2 : "");
			continue;
		}
		/* The journal's original: ours, or the one adopted. */
		if (journal_load(x->dir, &a, &n, err) == 0) {
			for (unsigned j = 0; j < n; j++)
				if (journal_same_key(&a[j], &c->key))
					snprintf(original, sizeof(original), "%s", a[j].text);
			free(a);
		}
		rc = journal_release(x->dir, &c->key,
				     *original && txn_reads(c->d, &c->t, original, NULL, 0), err);
		if (rc)
			ret = rc;
	}
	x->n = 0;
	return ret;
}

void knobs_txn_free(struct knobs_txn *x)
{
	if (!x)
		return;
	journal_txn_close(x->id);
	free(x->ch);
	free(x);
}
