// SPDX-License-Identifier: GPL-2.0-or-later
/* hist.c - log-linear latency histogram: buckets, snapshots, percentiles. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "stats/hist.h"

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

/*
 * Bucket i = octave * HIST_SUB + sub.  Octave 0 holds 0..127 exactly;
 * octave o >= 1 holds values whose top bit is o + 6, split into HIST_SUB
 * buckets 2^(o-1) wide.
 */
uint64_t hist_bucket_low(unsigned i)
{
	unsigned oct = i / HIST_SUB, sub = i % HIST_SUB;

	if (i >= HIST_BUCKETS)
		return UINT64_MAX;
	if (oct == 0)
		return sub;
	return (uint64_t)(HIST_SUB + sub) << (oct - 1);
}

/* The last bucket also takes everything beyond the covered range. */
uint64_t hist_bucket_high(unsigned i)
{
	unsigned oct = i / HIST_SUB;

	if (i >= HIST_BUCKETS - 1)
		return UINT64_MAX;
	if (oct == 0)
		return i;
	return hist_bucket_low(i) + (1ull << (oct - 1)) - 1;
}

/* Middle of bucket i; for the open-ended last bucket, of its nominal width. */
static uint64_t hist_bucket_mid(unsigned i)
{
	unsigned oct = i / HIST_SUB;

	if (oct == 0)
		return i;
	return hist_bucket_low(i) + ((1ull << (oct - 1)) - 1) / 2;
}

static uint64_t clamp_u64(uint64_t v, uint64_t lo, uint64_t hi)
{
	if (v < lo)
		return lo;
	if (v > hi)
		return hi;
	return v;
}

/*
 * Copy with relaxed loads.  count is read first with acquire, so sum, min,
 * max and the buckets cover at least that many records; the buckets may
 * also hold records the writer has begun but not finished.  The copy's
 * count is the sum of its buckets (never less than the count read, and
 * never less than an earlier snapshot's), so percentiles and deltas of a
 * snapshot are self-consistent, and min/max are widened to the occupied
 * buckets when an unfinished record's min/max store was not yet visible.
 */
void hist_snapshot(struct hist *dst, const struct hist *src)
{
	uint64_t total = 0;
	unsigned i, lo = HIST_BUCKETS, hi = 0;

	/* pairs with hist_record's release: the loads below see its stores */
	(void)__atomic_load_n(&src->count, __ATOMIC_ACQUIRE);
	for (i = 0; i < HIST_BUCKETS; i++) {
		dst->b[i] = __atomic_load_n(&src->b[i], __ATOMIC_RELAXED);
		if (dst->b[i]) {
			total += dst->b[i];
			if (lo == HIST_BUCKETS)
				lo = i;
			hi = i;
		}
	}
	dst->sum_ns = __atomic_load_n(&src->sum_ns, __ATOMIC_RELAXED);
	dst->min_ns = __atomic_load_n(&src->min_ns, __ATOMIC_RELAXED);
	dst->max_ns = __atomic_load_n(&src->max_ns, __ATOMIC_RELAXED);
	dst->count = total;
	if (!total)
		return;
	if (dst->min_ns == UINT64_MAX || hist_index(dst->min_ns) > lo)
		dst->min_ns = hist_bucket_low(lo);
	if (dst->max_ns < dst->min_ns || hist_index(dst->max_ns) < hi)
		dst->max_ns = hi == HIST_BUCKETS - 1 ? hist_bucket_low(hi) :
						       hist_bucket_high(hi);
}

/*
 * hist_snapshot of src added to dst, reading only src's buckets from its
 * min to its max: the sampler does this for every flow each tick, and the
 * 4096 buckets of 1024 flows' histograms, each copied then added, were
 * 32 MiB read a tick, 320 MB/s, where a flow's records span a few
 * octaves (bench/README.md, flows).  A record stores its
 * bucket before its min and max, and those only widen, so a bucket
 * outside them is empty or holds a record whose min/max are not yet
 * visible, which the next tick counts: a bucket once read is read every
 * tick after, and the sums never go back (hist_delta).
 */
void hist_add_snapshot(struct hist *dst, const struct hist *src)
{
	uint64_t total = 0, min, max;
	unsigned i, hi;

	/* pairs with hist_record's release: the loads below see its stores */
	if (!__atomic_load_n(&src->count, __ATOMIC_ACQUIRE))
		return;
	min = __atomic_load_n(&src->min_ns, __ATOMIC_RELAXED);
	max = __atomic_load_n(&src->max_ns, __ATOMIC_RELAXED);
	if (min == UINT64_MAX || max < min)
		return;
	hi = hist_index(max);
	for (i = hist_index(min); i <= hi; i++) {
		uint64_t v = __atomic_load_n(&src->b[i], __ATOMIC_RELAXED);

		dst->b[i] += v;
		total += v;
	}
	if (!total)
		return;
	dst->count += total;
	dst->sum_ns += __atomic_load_n(&src->sum_ns, __ATOMIC_RELAXED);
	if (min < dst->min_ns)
		dst->min_ns = min;
	if (max > dst->max_ns)
		dst->max_ns = max;
}

void hist_add(struct hist *dst, const struct hist *src)
{
	unsigned i;

	for (i = 0; i < HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

/*
 * The records of an interval are the bucket differences; their exact
 * min/max are lost, so take the edges of the lowest and highest occupied
 * buckets, clamped into the range the later snapshot has seen.  out may
 * alias now or before.
 */
void hist_delta(struct hist *out, const struct hist *now,
		const struct hist *before)
{
	uint64_t now_min = now->min_ns, now_max = now->max_ns;
	uint64_t sum = now->sum_ns - before->sum_ns, total = 0;
	unsigned i, lo = HIST_BUCKETS, hi = 0;

	for (i = 0; i < HIST_BUCKETS; i++) {
		uint64_t a = now->b[i], b = before->b[i];

		out->b[i] = a > b ? a - b : 0;
		if (out->b[i]) {
			total += out->b[i];
			if (lo == HIST_BUCKETS)
				lo = i;
			hi = i;
		}
	}
	out->count = total;
	out->sum_ns = total ? sum : 0;
	if (!total) {
		out->min_ns = UINT64_MAX;
		out->max_ns = 0;
		return;
	}
	out->min_ns = clamp_u64(hist_bucket_low(lo), now_min, now_max);
	out->max_ns = clamp_u64(hist_bucket_high(hi), now_min, now_max);
}

/*
 * Nearest rank: the value at rank ceil(p/100 * count).  The product is
 * nudged down by a few ulps so that e.g. 99.9 % of 1000 is rank 999, not
 * 1000 through rounding.
 */
static uint64_t hist_rank(double p, uint64_t count)
{
	double r = p * (double)count / 100.0;
	uint64_t rank;

	r -= r * 64 * DBL_EPSILON;
	rank = (uint64_t)ceil(r);
	if (rank < 1)
		rank = 1;
	if (rank > count)
		rank = count;
	return rank;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, cum = 0;
	unsigned i;

	if (!h->count)
		return 0;
	if (!(p > 0))
		return h->min_ns;
	if (p >= 100)
		return h->max_ns;
	rank = hist_rank(p, h->count);
	for (i = 0; i < HIST_BUCKETS; i++) {
		cum += h->b[i];
		if (cum >= rank)
			return clamp_u64(hist_bucket_mid(i), h->min_ns,
					 h->max_ns);
	}
	return h->max_ns;
}

/* Population standard deviation of the bucket midpoints, ns. */
static double hist_stddev(const struct hist *h)
{
	double n = 0, mean = 0, m2 = 0;
	unsigned i;

	for (i = 0; i < HIST_BUCKETS; i++) {
		double w, mid, d;

		if (!h->b[i])
			continue;
		w = (double)h->b[i];
		mid = (double)clamp_u64(hist_bucket_mid(i), h->min_ns,
					h->max_ns);
		/* West's weighted update: one pass, no cancellation. */
		n += w;
		d = mid - mean;
		mean += d * w / n;
		m2 += w * d * (mid - mean);
	}
	if (n < 1 || m2 <= 0)
		return 0;
	return sqrt(m2 / n);
}

void hist_summary(const struct hist *h, struct lat_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->count = h->count;
	if (!h->count)
		return;
	s->min_us = (double)h->min_ns / 1e3;
	s->max_us = (double)h->max_ns / 1e3;
	s->mean_us = (double)h->sum_ns / (double)h->count / 1e3;
	s->p50_us = (double)hist_percentile(h, 50) / 1e3;
	s->p90_us = (double)hist_percentile(h, 90) / 1e3;
	s->p99_us = (double)hist_percentile(h, 99) / 1e3;
	s->p999_us = (double)hist_percentile(h, 99.9) / 1e3;
	s->stddev_us = hist_stddev(h) / 1e3;
}
