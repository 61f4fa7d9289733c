// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare.c - the dashboard's comparisons: which run the run on show is
 * compared with (like with like), and the verdict of a pair of runs by
 * the engine's rule with the history (docs/why.md "The verdict"), kept
 * per pair so the rate header and the runs panel say the same as `runs
 * diff` without reading the history at every frame.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "control.h"

/* Pairs kept: the header's, the runs panel's cursor and a few it moved over. */
#define COMPARE_KEEP 8

/* A run as a key: its address, and its ids (a freed run's address may come back). */
struct compare_key {
	const struct model_run *r;
	unsigned id;
	int64_t db_id;
};

static struct compare_slot {
	struct compare_key a, b;
	struct compare_pair p;
} slots[COMPARE_KEEP];
static unsigned next_slot;

static struct compare_key key_of(const struct model_run *r)
{
	return (struct compare_key){ .r = r, .id = r->id, .db_id = r->db_id };
}

static bool key_eq(const struct compare_key *k, const struct model_run *r)
{
	return k->r == r && k->id == r->id && k->db_id == r->db_id;
}

/* The run as the store's history reads it: its id and its documents. */
static void as_stored(const struct model_run *r, struct store_run *sr)
{
	store_run_init(sr);
	sr->id = r->db_id;
	sr->result = r->doc;
	sr->series = r->doc_series;
}

/* The pair's verdict into p: with the history when both are stored. */
static void judge(struct ui *u, const struct model_run *a, const struct model_run *b,
		  struct compare_pair *p)
{
	struct store_run ra, rb;
	struct store *st = NULL;
	char err[ERR_MAX];
	json_t *pa, *pb;

	as_stored(a, &ra);
	as_stored(b, &rb);
	/* out is filled (the prior) when the history cannot be read */
	if (a->db_id && b->db_id && !ctl_no_db(u) && !store_open(&st, ctl_db_path(u), err)) {
		if (store_why_change_hist(st, &ra, &rb, &p->c, err))
			ui_status(u, STY_WARN, 8, "the verdict uses the prior: %s", err);
		store_close(st);
	} else {
		store_why_change(&ra, &rb, &p->c);
	}
	pa = params_to_json(&a->p);
	pb = params_to_json(&b->p);
	p->options[0] = '\0';
	if (pa && pb)
		why_change_params(pa, pb, p->options, sizeof(p->options));
	json_decref(pa);
	json_decref(pb);
}

int compare_why(struct ui *u, struct model_run *a, struct model_run *b,
		const struct compare_pair **out)
{
	struct compare_slot *s;
	int rc;

	for (unsigned i = 0; i < COMPARE_KEEP; i++)
		if (slots[i].a.r && key_eq(&slots[i].a, a) && key_eq(&slots[i].b, b)) {
			*out = &slots[i].p;
			return 0;
		}
	rc = ctl_run_doc(u, a, b);
	if (!rc)
		rc = ctl_run_doc(u, b, a);
	if (rc)
		return rc;
	s = &slots[next_slot];
	next_slot = (next_slot + 1) % COMPARE_KEEP;
	memset(s, 0, sizeof(*s));
	judge(u, a, b, &s->p);
	s->a = key_of(a);
	s->b = key_of(b);
	*out = &s->p;
	return 0;
}

bool compare_like(const struct model_run *a, const struct model_run *b)
{
	return a->p.type == b->p.type;
}

bool compare_follow(struct ui *u)
{
	static const struct model_run *shown;
	static unsigned shown_id;
	struct model_run *old = u->compare, *like;
	char was[24], now[24];

	if (u->cur == shown && (!u->cur || u->cur->id == shown_id))
		return false;
	shown = u->cur;
	shown_id = u->cur ? u->cur->id : 0;
	u->compare_note[0] = '\0';
	if (!old || !u->cur || compare_like(old, u->cur))
		return false;
	like = model_ghost(&u->model, u->cur);
	u->compare = u->compare_for = like;
	model_run_name(old, was, sizeof(was));
	if (like)
		snprintf(u->compare_note, sizeof(u->compare_note), "vs run %s, the %s %s: run %s was %s",
			 model_run_name(like, now, sizeof(now)),
			 like->baseline ? "baseline of" : "newest", test_type_name(u->cur->p.type),
			 was, test_type_name(old->p.type));
	else
		snprintf(u->compare_note, sizeof(u->compare_note),
			 "compare off: run %s was %s, no %s run to compare with", was,
			 test_type_name(old->p.type), test_type_name(u->cur->p.type));
	ui_status(u, STY_WARN, 8, "%s", u->compare_note);
	return true;
}
