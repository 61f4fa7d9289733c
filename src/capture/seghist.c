// SPDX-License-Identifier: GPL-2.0-or-later
/* seghist.c - exact counts per TCP payload size: hash table, sorted copies. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture/seghist.h"

/* First table size: a stream shows a handful of sizes, RR one or two. */
#define SEGHIST_MIN_CAP 64u

/*
 * The table grows when it would pass 70% full; with SEGHIST_MAX_BINS sizes
 * it is at most 262144 slots (4 MiB), about half full.
 */
static inline int seghist_too_full(uint32_t nbins, uint32_t cap)
{
	return (uint64_t)nbins * 10 > (uint64_t)cap * 7;
}

/* Fibonacci hashing: the top bits of size * 2^32/phi pick the home slot. */
static inline uint32_t seghist_home(uint32_t size, uint32_t cap)
{
	return (uint32_t)(size * 2654435761u) >> (32 - __builtin_ctz(cap));
}

void seghist_init(struct seghist *h)
{
	memset(h, 0, sizeof(*h));
}

void seghist_free(struct seghist *h)
{
	free(h->bins);
	seghist_init(h);
}

/* Put a size known to be absent into a table with a free slot. */
static void seghist_place(struct seg_bin *bins, uint32_t cap, uint32_t size,
			  uint64_t count)
{
	uint32_t mask = cap - 1, i = seghist_home(size, cap);

	while (bins[i].count)
		i = (i + 1) & mask;
	bins[i].size = size;
	bins[i].count = count;
}

/*
 * Rebuild h as a table of cap slots from whichever shape it has now (an
 * empty one, a table or a compact copy).  0 or -ENOMEM, h untouched then.
 */
static int seghist_rehash(struct seghist *h, uint32_t cap)
{
	struct seg_bin *nb = calloc(cap, sizeof(*nb));
	uint32_t i, n = h->cap ? h->cap : h->nbins;

	if (!nb)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (h->bins[i].count)
			seghist_place(nb, cap, h->bins[i].size,
				      h->bins[i].count);
	free(h->bins);
	h->bins = nb;
	h->cap = cap;
	return 0;
}

/* Smallest table size that holds nbins under the load limit. */
static uint32_t seghist_cap_for(uint32_t nbins)
{
	uint32_t cap = SEGHIST_MIN_CAP;

	while (seghist_too_full(nbins, cap))
		cap *= 2;
	return cap;
}

/*
 * The slow half of a bin update: a size not in its home slot.  Probes on,
 * inserts (growing the table, or turning a compact copy into one) and
 * counts a size that finds no room in lost_bins.
 */
static int seghist_bin_slow(struct seghist *h, uint32_t size, uint64_t n)
{
	uint32_t mask, i;
	int err;

	if (!h->cap) {
		err = seghist_rehash(h, seghist_cap_for(h->nbins + 1));
		if (err)
			goto lost;
	}
	mask = h->cap - 1;
	for (i = seghist_home(size, h->cap); h->bins[i].count;
	     i = (i + 1) & mask) {
		if (h->bins[i].size == size) {
			h->bins[i].count += n;
			return 0;
		}
	}
	if (h->nbins >= SEGHIST_MAX_BINS) {
		h->lost_bins += n;
		return 0;
	}
	if (seghist_too_full(h->nbins + 1, h->cap)) {
		err = seghist_rehash(h, h->cap * 2);
		if (err)
			goto lost;
	}
	seghist_place(h->bins, h->cap, size, n);
	h->nbins++;
	return 0;
lost:
	h->lost_bins += n;
	return err;
}

/*
 * Add n segments to the bin of size (> 0), totals untouched.  Empty slots
 * of a table are all-zero, so a home slot holding this size is the one
 * compare of the fast path (the commonest case: a stream's MSS).
 */
static inline int seghist_bin_add(struct seghist *h, uint32_t size, uint64_t n)
{
	if (h->cap) {
		struct seg_bin *b = &h->bins[seghist_home(size, h->cap)];

		if (b->size == size) {
			b->count += n;
			return 0;
		}
	}
	return seghist_bin_slow(h, size, n);
}

int seghist_add(struct seghist *h, uint32_t payload, uint8_t tcp_flags)
{
	h->packets++;
	if (!payload) {
		if (tcp_flags & (SEG_SYN | SEG_FIN | SEG_RST))
			h->ctl++;
		else
			h->acks++;
		return 0;
	}
	h->data++;
	h->bytes += payload;
	return seghist_bin_add(h, payload, 1);
}

/* Size 0 counts pure ACKs, as seghist_add with no payload and no flags. */
int seghist_add_n(struct seghist *h, uint32_t size, uint64_t count)
{
	if (!count)
		return 0;
	h->packets += count;
	if (!size) {
		h->acks += count;
		return 0;
	}
	h->data += count;
	h->bytes += (uint64_t)size * count;
	return seghist_bin_add(h, size, count);
}

/* Slots to walk over: a table's cap or a compact copy's nbins. */
static inline uint32_t seghist_slots(const struct seghist *h)
{
	return h->cap ? h->cap : h->nbins;
}

static int seg_bin_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct seg_bin *)a)->size;
	uint32_t y = ((const struct seg_bin *)b)->size;

	return (x > y) - (x < y);
}

int seghist_copy_sorted(struct seghist *dst, const struct seghist *src)
{
	uint32_t i, j = 0, n = seghist_slots(src);

	seghist_init(dst);
	if (src->nbins) {
		dst->bins = malloc((size_t)src->nbins * sizeof(*dst->bins));
		if (!dst->bins)
			return -ENOMEM;
		for (i = 0; i < n && j < src->nbins; i++)
			if (src->bins[i].count)
				dst->bins[j++] = src->bins[i];
		if (src->cap)
			qsort(dst->bins, j, sizeof(*dst->bins), seg_bin_cmp);
	}
	dst->packets = src->packets;
	dst->acks = src->acks;
	dst->ctl = src->ctl;
	dst->data = src->data;
	dst->bytes = src->bytes;
	dst->lost_bins = src->lost_bins;
	dst->nbins = j;
	return 0;
}

/* Merging a histogram into itself doubles every count. */
static void seghist_double(struct seghist *h)
{
	uint32_t i, n = seghist_slots(h);

	for (i = 0; i < n; i++)
		h->bins[i].count *= 2;
	h->packets *= 2;
	h->acks *= 2;
	h->ctl *= 2;
	h->data *= 2;
	h->bytes *= 2;
	h->lost_bins *= 2;
}

int seghist_merge(struct seghist *dst, const struct seghist *src)
{
	uint32_t i, n = seghist_slots(src);
	int err, ret = 0;

	if (dst == src) {
		seghist_double(dst);
		return 0;
	}
	/* Size the table once rather than doubling through the merge. */
	if (src->nbins > 8) {
		uint32_t want = dst->nbins + src->nbins;

		if (want > SEGHIST_MAX_BINS)
			want = SEGHIST_MAX_BINS;
		want = seghist_cap_for(want);
		if (want > dst->cap && seghist_rehash(dst, want))
			ret = -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (!src->bins[i].count)
			continue;
		err = seghist_bin_add(dst, src->bins[i].size,
				      src->bins[i].count);
		if (err)
			ret = err;
	}
	dst->packets += src->packets;
	dst->acks += src->acks;
	dst->ctl += src->ctl;
	dst->data += src->data;
	dst->bytes += src->bytes;
	dst->lost_bins += src->lost_bins;
	return ret;
}

uint64_t seghist_count(const struct seghist *h, uint32_t size)
{
	uint32_t lo, hi, mask, i;

	if (!size || !h->nbins)
		return 0;
	if (!h->cap) {
		lo = 0;
		hi = h->nbins;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (h->bins[mid].size < size)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo < h->nbins && h->bins[lo].size == size ?
			h->bins[lo].count : 0;
	}
	mask = h->cap - 1;
	for (i = seghist_home(size, h->cap); h->bins[i].count;
	     i = (i + 1) & mask)
		if (h->bins[i].size == size)
			return h->bins[i].count;
	return 0;
}

bool seghist_equal(const struct seghist *a, const struct seghist *b)
{
	uint32_t i, n = seghist_slots(a);

	if (a->packets != b->packets || a->acks != b->acks ||
	    a->ctl != b->ctl || a->data != b->data || a->bytes != b->bytes ||
	    a->lost_bins != b->lost_bins || a->nbins != b->nbins)
		return false;
	for (i = 0; i < n; i++)
		if (a->bins[i].count &&
		    seghist_count(b, a->bins[i].size) != a->bins[i].count)
			return false;
	return true;
}

enum seg_class seg_class_of(uint32_t size, uint32_t mss)
{
	if (!mss)
		return SEG_UNCLASSIFIED;
	if (size < mss)
		return SEG_BELOW_MSS;
	if (size == mss)
		return SEG_AT_MSS;
	return size % mss ? SEG_SUPER_OTHER : SEG_SUPER_MULTIPLE;
}

const char *seg_class_name(enum seg_class c)
{
	static const char *const names[SEG_NCLASSES] = {
		[SEG_BELOW_MSS] = "below-mss",
		[SEG_AT_MSS] = "mss",
		[SEG_SUPER_MULTIPLE] = "super-multiple",
		[SEG_SUPER_OTHER] = "super-other",
		[SEG_UNCLASSIFIED] = "unclassified",
	};

	if ((unsigned)c >= SEG_NCLASSES)
		return "?";
	return names[c];
}

/*
 * Segments and bytes per class, the largest size and the commonest one
 * (the smaller size on a tie, so both shapes give the same answer).
 * Segments counted only in lost_bins have no size and fall in no class.
 */
void seghist_classify(const struct seghist *h, uint32_t mss,
		      struct seg_classes *c)
{
	uint32_t i, n = seghist_slots(h);
	uint64_t best = 0;

	memset(c, 0, sizeof(*c));
	c->mss = mss;
	for (i = 0; i < n; i++) {
		const struct seg_bin *b = &h->bins[i];
		enum seg_class k;

		if (!b->count)
			continue;
		k = seg_class_of(b->size, mss);
		c->segs[k] += b->count;
		c->bytes[k] += (uint64_t)b->size * b->count;
		if (b->size > c->largest)
			c->largest = b->size;
		if (b->count > best ||
		    (b->count == best && b->size < c->commonest)) {
			best = b->count;
			c->commonest = b->size;
		}
	}
}

struct seg_bin *seghist_bins_sorted(const struct seghist *h, uint32_t *n)
{
	uint32_t slots = h->cap ? h->cap : h->nbins, k = 0;
	struct seg_bin *v;

	*n = 0;
	if (!h->nbins || !h->bins)
		return NULL;
	v = malloc(h->nbins * sizeof(*v));
	if (!v)
		return NULL;
	for (uint32_t i = 0; i < slots && k < h->nbins; i++)
		if (h->bins[i].count)
			v[k++] = h->bins[i];
	if (h->cap)
		qsort(v, k, sizeof(*v), seg_bin_cmp);
	*n = k;
	return v;
}
