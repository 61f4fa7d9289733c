/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hist.h - log-linear latency histogram (<= 0.4 % error, 1 ns to ~275 s). */
#ifndef TT_HIST_H
#define TT_HIST_H

#include <stdint.h>

/*
 * Values are nanoseconds.  Values below HIST_SUB are exact; above, each
 * power of two is split into HIST_SUB linear buckets, so a bucket is at most
 * 1/128 of its value wide and its midpoint is within 0.4 % of any value in
 * it.  HIST_OCTAVES covers 2^7 .. 2^38 ns (~275 s), beyond the 100 s the
 * engine promises; larger values land in the last bucket.
 *
 * One thread writes (hist_record); any thread may read concurrently with
 * hist_snapshot, which copies with relaxed atomic loads.
 */
#define HIST_SUB_BITS 7
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_OCTAVES 31
#define HIST_BUCKETS (HIST_SUB * (HIST_OCTAVES + 1))

struct hist {
	uint64_t count;
	uint64_t sum_ns;	/* wraps only after ~584 years of latency */
	uint64_t min_ns;	/* UINT64_MAX when empty */
	uint64_t max_ns;
	uint64_t b[HIST_BUCKETS];
};

/* Latency figures of a histogram, in microseconds; count 0 = empty. */
struct lat_summary {
	uint64_t count;
	double min_us, mean_us, p50_us, p90_us, p99_us, p999_us, max_us;
	double stddev_us;	/* population, from bucket midpoints */
};

static inline unsigned hist_index(uint64_t v)
{
	unsigned msb;

	if (v < HIST_SUB)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	if (msb >= HIST_SUB_BITS + HIST_OCTAVES)
		return HIST_BUCKETS - 1;
	return (msb - HIST_SUB_BITS + 1) * HIST_SUB +
	       (unsigned)((v >> (msb - HIST_SUB_BITS)) & (HIST_SUB - 1));
}

/* Record one value; single writer, readers use hist_snapshot. */
static inline void hist_record(struct hist *h, uint64_t ns)
{
	unsigned i = hist_index(ns);

	__atomic_store_n(&h->b[i], h->b[i] + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&h->sum_ns, h->sum_ns + ns, __ATOMIC_RELAXED);
	if (ns < h->min_ns)
		__atomic_store_n(&h->min_ns, ns, __ATOMIC_RELAXED);
	if (ns > h->max_ns)
		__atomic_store_n(&h->max_ns, ns, __ATOMIC_RELAXED);
	__atomic_store_n(&h->count, h->count + 1, __ATOMIC_RELEASE);
}

void hist_init(struct hist *h);
/* Lowest and highest value that land in bucket i. */
uint64_t hist_bucket_low(unsigned i);
uint64_t hist_bucket_high(unsigned i);
/*
 * Copy src (being written by another thread) into dst.  dst->count is the
 * sum of the copied buckets, so it never goes backwards between snapshots.
 */
void hist_snapshot(struct hist *dst, const struct hist *src);
/*
 * Add src (being written by another thread) to dst, as hist_snapshot then
 * hist_add, reading only the buckets between src's min and max.
 */
void hist_add_snapshot(struct hist *dst, const struct hist *src);
/* dst += src. */
void hist_add(struct hist *dst, const struct hist *src);
/* out = now - before (an interval); min/max of out come from its buckets. */
void hist_delta(struct hist *out, const struct hist *now,
		const struct hist *before);
/*
 * The value at percentile p (0..100), ns: nearest rank ceil(p/100 * count),
 * reported as its bucket's midpoint clamped to [min,max]; p = 0 gives min,
 * p = 100 max, an empty histogram 0.
 */
uint64_t hist_percentile(const struct hist *h, double p);
/* count, min, mean (from sum), p50/90/99/99.9, max, stddev; 0s if empty. */
void hist_summary(const struct hist *h, struct lat_summary *s);

#endif
