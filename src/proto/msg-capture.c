// SPDX-License-Identifier: GPL-2.0-or-later
/* msg-capture.c - one end's segment-size capture in SAMPLE and RESULT bodies. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/msg.h"
#include "proto/msg-rw.h"

static json_t *counts_to_json(const struct cap_counts *n)
{
	struct wr w;

	w_begin(&w);
	w_u64(&w, "seen", n->seen);
	w_u64(&w, "counted", n->counted);
	w_u64(&w, "unparsed", n->unparsed);
	w_u64(&w, "kernel_recv", n->kernel_recv);
	w_u64(&w, "kernel_drop", n->kernel_drop);
	w_u64(&w, "if_drop", n->if_drop);
	w_u64(&w, "table_full", n->table_full);
	return w_end(&w);
}

static int bin_by_count_desc(const void *a, const void *b)
{
	const struct seg_bin *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->size < y->size ? -1 : x->size > y->size;
}

static int bin_by_size(const void *a, const void *b)
{
	const struct seg_bin *x = a, *y = b;

	return x->size < y->size ? -1 : x->size > y->size;
}

/*
 * The sizes of one direction, at most MSG_CAPTURE_BINS of them: beyond
 * that the commonest are kept and the others' segments move to lost_bins,
 * so the totals still add up and a frame stays far below 1 MiB.
 */
static json_t *dir_to_json(const struct seghist *h, uint32_t mss, uint32_t syn_mss)
{
	struct seghist s;
	struct seg_bin *keep = NULL;
	uint64_t lost = h->lost_bins;
	uint32_t n;
	json_t *arr;
	struct wr w;

	if (seghist_copy_sorted(&s, h))
		return NULL;
	n = s.nbins;
	if (n > MSG_CAPTURE_BINS) {
		keep = malloc(n * sizeof(*keep));
		if (!keep) {
			seghist_free(&s);
			return NULL;
		}
		memcpy(keep, s.bins, n * sizeof(*keep));
		qsort(keep, n, sizeof(*keep), bin_by_count_desc);
		for (uint32_t i = MSG_CAPTURE_BINS; i < n; i++)
			lost += keep[i].count;
		n = MSG_CAPTURE_BINS;
		qsort(keep, n, sizeof(*keep), bin_by_size);
	}
	w_begin(&w);
	w_u64(&w, "packets", s.packets);
	w_u64(&w, "acks", s.acks);
	w_u64(&w, "ctl", s.ctl);
	w_u64(&w, "data", s.data);
	w_u64(&w, "bytes", s.bytes);
	w_u64(&w, "lost_bins", lost);
	w_u64(&w, "mss", mss);
	w_u64(&w, "syn_mss", syn_mss);
	arr = json_array();
	for (uint32_t i = 0; arr && i < n; i++) {
		const struct seg_bin *b = keep ? &keep[i] : &s.bins[i];

		if (b->count > INT64_MAX ||
		    json_array_append_new(arr, json_pack("[II]", (json_int_t)b->size,
							 (json_int_t)b->count))) {
			json_decref(arr);
			arr = NULL;
		}
	}
	w_set(&w, "sizes", arr);
	free(keep);
	seghist_free(&s);
	return w_end(&w);
}

json_t *seg_capture_to_json(const struct seg_capture *c)
{
	json_t *dirs = json_array();
	struct wr w;

	for (int d = 0; dirs && d < CAP_NDIRS; d++) {
		json_t *o = dir_to_json(&c->dir[d], c->mss[d], c->syn_mss[d]);

		if (!o || json_array_append_new(dirs, o)) {
			json_decref(dirs);
			dirs = NULL;
		}
	}
	w_begin(&w);
	w_str(&w, "dev", c->dev);
	w_str(&w, "filter", c->filter);
	w_str(&w, "warning", c->warning);
	w_set(&w, "counts", counts_to_json(&c->n));
	w_set(&w, "dirs", dirs);
	return w_end(&w);
}

static void counts_read(struct rd *parent, struct cap_counts *n)
{
	const json_t *j = r_obj(parent, "counts", false);
	char path[128];
	struct rd r;

	if (!r_begin(&r, parent->c, j, r_path(parent, "counts", -1, path, sizeof(path))))
		return;
	r_u64(&r, "seen", &n->seen);
	r_u64(&r, "counted", &n->counted);
	r_u64(&r, "unparsed", &n->unparsed);
	r_u64(&r, "kernel_recv", &n->kernel_recv);
	r_u64(&r, "kernel_drop", &n->kernel_drop);
	r_u64(&r, "if_drop", &n->if_drop);
	r_u64(&r, "table_full", &n->table_full);
	r_end(&r);
}

/* One [size, count] pair, sizes strictly ascending. */
static void bin_read(struct rd *r, const json_t *pair, uint32_t i, uint32_t prev,
		     struct seghist *h)
{
	json_int_t size, count;

	if (!json_is_array(pair) || json_array_size(pair) != 2 ||
	    !json_is_integer(json_array_get(pair, 0)) ||
	    !json_is_integer(json_array_get(pair, 1))) {
		d_fail(r->c, "%s.sizes[%u]: accepted is [size, count], two integers", r->what, i);
		return;
	}
	size = json_integer_value(json_array_get(pair, 0));
	count = json_integer_value(json_array_get(pair, 1));
	if (size < 1 || size > INT32_MAX || count < 1) {
		d_fail(r->c, "%s.sizes[%u]: accepted is a size 1..%d and a count >= 1",
		       r->what, i, INT32_MAX);
		return;
	}
	if ((uint32_t)size <= prev) {
		d_fail(r->c, "%s.sizes[%u]: size %lld: accepted are sizes in ascending order, each once",
		       r->what, i, (long long)size);
		return;
	}
	if (seghist_add_n(h, (uint32_t)size, (uint64_t)count))
		d_fail(r->c, "%s: %s", r->what, strerror(ENOMEM));
}

static void dir_read(struct dctx *c, const json_t *j, const char *what,
		     struct seg_capture *sc, int d)
{
	struct seghist *h = &sc->dir[d];
	uint64_t packets = 0, acks = 0, ctl = 0, data = 0, bytes = 0, lost = 0, sum = 0;
	const json_t *arr;
	struct seghist t;
	uint32_t prev = 0;
	struct rd r;

	seghist_init(&t);
	if (!r_begin(&r, c, j, what))
		return;
	r_u64(&r, "packets", &packets);
	r_u64(&r, "acks", &acks);
	r_u64(&r, "ctl", &ctl);
	r_u64(&r, "data", &data);
	r_u64(&r, "bytes", &bytes);
	r_u64(&r, "lost_bins", &lost);
	r_u32(&r, "mss", 0, 65535, &sc->mss[d]);
	r_u32(&r, "syn_mss", 0, 65535, &sc->syn_mss[d]);
	arr = r_arr_upto(&r, "sizes", 0, MSG_CAPTURE_BINS);
	for (uint32_t i = 0; arr && !c->rc && i < json_array_size(arr); i++) {
		const json_t *pair = json_array_get(arr, i);

		bin_read(&r, pair, i, prev, &t);
		if (!c->rc) {
			prev = (uint32_t)json_integer_value(json_array_get(pair, 0));
			sum += (uint64_t)json_integer_value(json_array_get(pair, 1));
		}
	}
	r_end(&r);
	if (!c->rc && (sum + lost != data || acks + ctl + data != packets))
		d_fail(c, "%s: accepted are counts that add up: sizes + lost_bins = data, "
		       "acks + ctl + data = packets", what);
	if (!c->rc && seghist_copy_sorted(h, &t))
		d_fail(c, "%s: %s", what, strerror(ENOMEM));
	seghist_free(&t);
	if (c->rc)
		return;
	/* The totals as sent; the bins alone would miss lost_bins. */
	h->packets = packets;
	h->acks = acks;
	h->ctl = ctl;
	h->data = data;
	h->bytes = bytes;
	h->lost_bins = lost;
}

int seg_capture_from_json(const json_t *j, const char *what, struct seg_capture *sc,
			  char *err)
{
	struct dctx c = { .err = err };
	const json_t *dirs;
	char path[128];
	struct rd r;

	memset(sc, 0, sizeof(*sc));
	for (int d = 0; d < CAP_NDIRS; d++)
		seghist_init(&sc->dir[d]);
	if (r_begin(&r, &c, j, what)) {
		r_str(&r, "dev", 0, sc->dev, sizeof(sc->dev));
		r_str(&r, "filter", 0, sc->filter, sizeof(sc->filter));
		r_str(&r, "warning", 0, sc->warning, sizeof(sc->warning));
		counts_read(&r, &sc->n);
		dirs = r_arr(&r, "dirs", CAP_NDIRS);
		for (int d = 0; dirs && d < CAP_NDIRS && !c.rc; d++)
			dir_read(&c, json_array_get(dirs, (size_t)d),
				 r_path(&r, "dirs", d, path, sizeof(path)), sc, d);
		r_end(&r);
	}
	if (c.rc)
		seg_capture_free(sc);
	return c.rc;
}
