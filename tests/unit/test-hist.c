// SPDX-License-Identifier: GPL-2.0-or-later
/* test-hist.c - histogram buckets, percentiles, deltas and snapshots. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"
#include "tap.h"

/* Percentiles checked, in thousandths of a percent (0 = min, 100000 = max). */
static const unsigned pct_milli[] = {
	0, 1, 100, 1000, 10000, 25000, 50000, 73300, 90000,
	99000, 99900, 99990, 99999, 100000,
};
#define NPCT (sizeof(pct_milli) / sizeof(pct_milli[0]))

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* xorshift64*: deterministic, so a failure reproduces. */
static uint64_t rng_next(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

/* Uniform in (0, 1). */
static double rng_unit(void)
{
	return ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The nearest-rank percentile of sorted v[0..n-1], computed in integers. */
static uint64_t ref_percentile(const uint64_t *v, size_t n, unsigned milli)
{
	uint64_t rank;

	if (milli == 0)
		return v[0];
	rank = ((uint64_t)milli * n + 99999) / 100000;
	if (rank < 1)
		rank = 1;
	return v[rank - 1];
}

static struct hist *hist_new(void)
{
	struct hist *h = malloc(sizeof(*h));

	if (!h)
		abort();
	hist_init(h);
	return h;
}

static bool hist_equal(const struct hist *a, const struct hist *b)
{
	return a->count == b->count && a->sum_ns == b->sum_ns &&
	       a->min_ns == b->min_ns && a->max_ns == b->max_ns &&
	       !memcmp(a->b, b->b, sizeof(a->b));
}

/*
 * Record v into a histogram and compare every percentile with the sorted
 * reference: within 1 % (the promise) and within the 1/256 that
 * the bucket layout guarantees.
 */
static void check_distribution(const char *name, uint64_t *v, size_t n)
{
	struct hist *h = hist_new();
	double worst = 0, worst_any = 0;
	bool exact_ends;
	size_t i, k;

	for (i = 0; i < n; i++)
		hist_record(h, v[i]);
	qsort(v, n, sizeof(*v), cmp_u64);
	for (k = 0; k < NPCT; k++) {
		uint64_t want = ref_percentile(v, n, pct_milli[k]);
		uint64_t got = hist_percentile(h, pct_milli[k] / 1000.0);
		double err = want ? fabs((double)got - (double)want) /
					    (double)want :
				    (double)got;

		if (err > worst_any)
			worst_any = err;
		if (want >= 1000 && err > worst)
			worst = err;
	}
	ok(worst <= 0.01, "%s: percentiles >= 1 us within 1 %% of nearest rank "
	   "(worst %.4f %%)", name, worst * 100);
	ok(worst_any <= 1.0 / 256,
	   "%s: every percentile within its bucket's half width "
	   "(worst %.4f %%)", name, worst_any * 100);
	exact_ends = hist_percentile(h, 0) == v[0] &&
		     hist_percentile(h, 100) == v[n - 1] &&
		     h->min_ns == v[0] && h->max_ns == v[n - 1];
	ok(exact_ends, "%s: p0 is the exact min and p100 the exact max", name);
	ok(h->count == n, "%s: count is the number recorded", name);
	free(h);
}

static void test_distributions(void)
{
	size_t n = 200000, i;
	uint64_t *v = malloc(n * sizeof(*v));

	if (!v)
		abort();
	/* log-uniform from 1 us to 100 s */
	for (i = 0; i < n; i++)
		v[i] = (uint64_t)(1e3 * pow(1e8, rng_unit()));
	check_distribution("log-uniform 1us..100s", v, n);

	/* exponential, mean 50 us, offset by a 5 us floor */
	for (i = 0; i < n; i++)
		v[i] = 5000 + (uint64_t)(-50000.0 * log(rng_unit()));
	check_distribution("exponential", v, n);

	/* a spike at 123.457 us with a 0.5 % tail at 10 ms */
	for (i = 0; i < n; i++)
		v[i] = i % 200 ? 123457 : 10000000 + rng_next() % 1000;
	check_distribution("spike", v, n);

	/* a handful of values, including sub-microsecond ones */
	v[0] = 3;
	v[1] = 700;
	v[2] = 1500;
	v[3] = 2000000;
	v[4] = 99999999999ull;
	check_distribution("five values", v, 5);
	free(v);
}

/* p is nearest rank without float rounding pushing 99.9 % of 1000 to 1000. */
static void test_rank_rounding(void)
{
	static const int tenths[] = { 161, 322, 644, 573 };
	struct hist *h = hist_new();
	unsigned k;
	int i;

	for (i = 0; i < 1000; i++)
		hist_record(h, i < 999 ? 10 : 200);
	ok(hist_percentile(h, 99.9) == 10 && hist_percentile(h, 99.91) == 200,
	   "99.9th of 1000 is rank 999, 99.91th is rank 1000");
	/* p * 1000 / 100 comes out a hair above the integer for these */
	for (k = 0; k < sizeof(tenths) / sizeof(tenths[0]); k++) {
		hist_init(h);
		for (i = 0; i < 1000; i++)
			hist_record(h, i < tenths[k] ? 10 : 20);
		ok(hist_percentile(h, tenths[k] / 10.0) == 10 &&
		   hist_percentile(h, tenths[k] / 10.0 + 0.01) == 20,
		   "%.1fth of 1000 is rank %d, the next hundredth rank %d",
		   tenths[k] / 10.0, tenths[k], tenths[k] + 1);
	}
	hist_init(h);
	for (i = 1; i <= 100; i++)
		hist_record(h, (uint64_t)i);
	for (i = 1; i <= 100; i++)
		if (hist_percentile(h, i) != (uint64_t)i)
			break;
	if (!ok(i == 101, "percentile p of the values 1..100 is p"))
		printf("#   wrong at p = %d\n", i);
	free(h);
}

/* Bucket i's [low, high] must hold v, and v must land in bucket i. */
static bool covers(uint64_t v)
{
	unsigned i = hist_index(v);

	return i < HIST_BUCKETS && hist_bucket_low(i) <= v &&
	       v <= hist_bucket_high(i);
}

static void test_buckets(void)
{
	uint64_t v, bad = UINT64_MAX;
	unsigned i, k, bad_i = 0;
	int d;

	for (v = 0; v <= (1u << 20); v++)
		if (!covers(v)) {
			bad = v;
			break;
		}
	if (!ok(bad == UINT64_MAX, "every value 0..2^20 lies in its bucket"))
		printf("#   first miss %llu\n", (unsigned long long)bad);

	for (k = 8; k <= 38 && bad == UINT64_MAX; k++)
		for (d = -1000; d <= 1000; d++) {
			if (d < 0 && (uint64_t)-d > (1ull << k))
				continue;
			v = (1ull << k) + (uint64_t)(int64_t)d;
			if (!covers(v)) {
				bad = v;
				break;
			}
		}
	for (i = 0; i < 2000000 && bad == UINT64_MAX; i++) {
		v = rng_next() % ((1ull << 38) + 1);
		if (!covers(v))
			bad = v;
	}
	if (!ok(bad == UINT64_MAX, "values near every power of two up to 2^38 "
		"and random ones lie in their buckets"))
		printf("#   first miss %llu\n", (unsigned long long)bad);

	for (i = 1; i < HIST_BUCKETS; i++)
		if (hist_bucket_low(i) != hist_bucket_high(i - 1) + 1 ||
		    hist_index(hist_bucket_low(i)) != i ||
		    hist_index(hist_bucket_high(i)) != i) {
			bad_i = i;
			break;
		}
	if (!ok(!bad_i && hist_bucket_low(0) == 0 &&
		hist_bucket_high(HIST_BUCKETS - 1) == UINT64_MAX,
		"buckets tile 0..UINT64_MAX without gaps or overlap"))
		printf("#   first bad bucket %u\n", bad_i);

	bad_i = 0;
	for (i = HIST_SUB; i < HIST_BUCKETS - 1; i++)
		if ((hist_bucket_high(i) - hist_bucket_low(i) + 1) * HIST_SUB >
		    hist_bucket_low(i)) {
			bad_i = i;
			break;
		}
	if (!ok(!bad_i, "every bucket from 128 ns up is at most 1/128 of its "
		"low edge wide"))
		printf("#   first bad bucket %u\n", bad_i);
	ok(hist_index(100000000000ull) < HIST_BUCKETS - 1,
	   "100 s still has a bounded bucket of its own");
}

/* Record n values of a mixture spanning ns to ms into h and, if ref, ref. */
static void record_mix(struct hist *h, struct hist *ref, size_t n, double scale)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t v = (uint64_t)(scale * pow(1e5, rng_unit()));

		hist_record(h, v);
		if (ref)
			hist_record(ref, v);
	}
}

static void test_delta_add(void)
{
	struct hist *live = hist_new(), *ref = hist_new(), *s1 = hist_new();
	struct hist *s2 = hist_new(), *d = hist_new(), *a = hist_new();
	bool same;

	record_mix(live, NULL, 50000, 100);
	hist_snapshot(s1, live);
	record_mix(live, ref, 30000, 500);
	hist_snapshot(s2, live);
	hist_delta(d, s2, s1);
	same = d->count == ref->count && d->sum_ns == ref->sum_ns &&
	       !memcmp(d->b, ref->b, sizeof(d->b));
	ok(same, "delta of two snapshots has the buckets, count and sum of the "
	   "values recorded in between");
	ok(hist_index(d->min_ns) == hist_index(ref->min_ns) &&
	   d->min_ns <= ref->min_ns &&
	   hist_index(d->max_ns) == hist_index(ref->max_ns) &&
	   d->max_ns >= ref->max_ns,
	   "delta min/max lie in the buckets of the interval's true min/max");
	ok(hist_percentile(d, 50) == hist_percentile(ref, 50) ||
	   hist_index(hist_percentile(d, 50)) ==
	   hist_index(hist_percentile(ref, 50)),
	   "delta median falls in the interval's median bucket");

	hist_init(ref);
	hist_record(live, 1);
	hist_record(ref, 1);
	hist_record(live, 999999999);
	hist_record(ref, 999999999);
	hist_snapshot(s1, live);
	hist_delta(d, s1, s2);
	ok(d->count == 2 && d->min_ns == 1 && d->max_ns == 999999999,
	   "an interval holding the overall min and max reports them exactly");

	hist_delta(d, s2, s2);
	ok(d->count == 0 && d->min_ns == UINT64_MAX && d->max_ns == 0 &&
	   hist_percentile(d, 50) == 0,
	   "delta of a snapshot with itself is empty");

	hist_init(a);
	hist_init(ref);
	record_mix(a, ref, 1000, 10);
	hist_init(d);
	record_mix(d, ref, 1000, 1000);
	hist_add(a, d);
	ok(hist_equal(a, ref), "adding two histograms equals recording both "
	   "sets of values into one");

	hist_snapshot(d, s1);
	hist_delta(d, d, s2);
	hist_delta(a, s1, s2);
	ok(a->count == 2 && hist_equal(a, d),
	   "delta with out aliasing now gives the same result");
	free(live);
	free(ref);
	free(s1);
	free(s2);
	free(d);
	free(a);
}

struct writer {
	struct hist *h;
	struct hist *mine;	/* the writer's own copy, read after join */
	uint64_t n;
	int done;
};

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	uint64_t x = 88172645463325252ull, i;

	for (i = 0; i < w->n; i++) {
		uint64_t v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = 50 + (x % 4000000) * (x >> 60);
		hist_record(w->h, v);
		hist_record(w->mine, v);
	}
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* The sampler's sum of many flows: hist_add_snapshot as snapshot + add. */
static void test_add_snapshot(void)
{
	struct hist *f[3], *want = hist_new(), *got = hist_new(), *tmp = hist_new();
	bool same;
	int i;

	for (i = 0; i < 3; i++)
		f[i] = hist_new();
	record_mix(f[0], NULL, 20000, 100);
	record_mix(f[1], NULL, 5000, 3000);
	hist_record(f[1], 1);
	hist_record(f[1], 4000000000000ull);	/* past the last bucket */
	/* f[2] stays empty */
	for (i = 0; i < 3; i++) {
		hist_snapshot(tmp, f[i]);
		hist_add(want, tmp);
		hist_add_snapshot(got, f[i]);
	}
	same = got->count == want->count && got->sum_ns == want->sum_ns &&
	       got->min_ns == want->min_ns && got->max_ns == want->max_ns &&
	       !memcmp(got->b, want->b, sizeof(got->b));
	ok(same, "adding snapshots of three flows (one empty, one with the "
	   "extreme buckets) reads the same as snapshot then add (count %llu)",
	   (unsigned long long)got->count);
	hist_init(got);
	hist_add_snapshot(got, f[2]);
	ok(got->count == 0 && got->min_ns == UINT64_MAX && got->max_ns == 0,
	   "an empty flow adds nothing");
	for (i = 0; i < 3; i++)
		free(f[i]);
	free(want);
	free(got);
	free(tmp);
}

/* A histogram read while written: buckets sum to count, min/max bound them. */
static bool snap_consistent(const struct hist *snap)
{
	unsigned i, lo = HIST_BUCKETS, hi = 0;
	uint64_t sum = 0;

	for (i = 0; i < HIST_BUCKETS; i++) {
		sum += snap->b[i];
		if (snap->b[i] && lo == HIST_BUCKETS)
			lo = i;
		if (snap->b[i])
			hi = i;
	}
	return !snap->count || (sum == snap->count &&
				snap->min_ns <= snap->max_ns &&
				hist_index(snap->min_ns) <= lo &&
				hist_index(snap->max_ns) >= hi &&
				hist_percentile(snap, 50) >= snap->min_ns &&
				hist_percentile(snap, 50) <= snap->max_ns);
}

/*
 * The sampler's reads of a flow's histogram while its worker writes it:
 * hist_snapshot and hist_add_snapshot (which reads only the buckets
 * between the min and max it saw) each give a histogram whose count never
 * goes back and that is consistent in itself.
 */
static void test_concurrent(void)
{
	struct writer w = { .h = hist_new(), .mine = hist_new(), .n = 2000000 };
	struct hist *snap = hist_new(), *sum = hist_new();
	uint64_t last = 0, last_sum = 0, snaps = 0, backwards = 0, inconsistent = 0;
	uint64_t sum_backwards = 0, sum_inconsistent = 0;
	pthread_t t;

	if (pthread_create(&t, NULL, writer_main, &w)) {
		ok(0, "start writer thread");
		return;
	}
	while (!__atomic_load_n(&w.done, __ATOMIC_ACQUIRE)) {
		hist_snapshot(snap, w.h);
		snaps++;
		if (snap->count < last)
			backwards++;
		last = snap->count;
		if (!snap_consistent(snap))
			inconsistent++;
		hist_init(sum);
		hist_add_snapshot(sum, w.h);
		if (sum->count < last_sum)
			sum_backwards++;
		last_sum = sum->count;
		if (!snap_consistent(sum))
			sum_inconsistent++;
	}
	pthread_join(t, NULL);
	ok(!backwards, "snapshot counts never go backwards (%llu snapshots)",
	   (unsigned long long)snaps);
	ok(!inconsistent, "every snapshot's buckets sum to its count, its "
	   "min/max bound the occupied buckets and its median lies in them");
	ok(!sum_backwards && !sum_inconsistent,
	   "hist_add_snapshot of the same histogram: count never back (%llu times), "
	   "consistent (%llu not)", (unsigned long long)sum_backwards,
	   (unsigned long long)sum_inconsistent);
	hist_snapshot(snap, w.h);
	ok(snap->count == w.n && hist_equal(snap, w.mine),
	   "final snapshot equals the writer's histogram (%llu values)",
	   (unsigned long long)snap->count);
	hist_init(sum);
	hist_add_snapshot(sum, w.h);
	ok(hist_equal(sum, w.mine), "and so does hist_add_snapshot of it");
	free(w.h);
	free(w.mine);
	free(snap);
	free(sum);
}

/*
 * A reader can see a record's bucket before its count, min and max; the
 * snapshot must still be self-consistent (count = buckets, min/max bound
 * them), as the wire decoder in msg.c insists.
 */
static void test_half_written(void)
{
	struct hist *h = hist_new(), *s = hist_new();
	unsigned i = hist_index(5000), j = hist_index(90000);

	h->b[i] = 1;		/* first store of hist_record(h, 5000) only */
	hist_snapshot(s, h);
	ok(s->count == 1 && hist_index(s->min_ns) == i &&
	   hist_index(s->max_ns) == i &&
	   hist_index(hist_percentile(s, 50)) == i,
	   "a lone half-written record: count 1, min, max, median in its "
	   "bucket");

	hist_init(h);
	hist_record(h, 5000);
	h->b[j]++;	/* hist_record(h, 90000) seen after its bucket */
	hist_snapshot(s, h);
	ok(s->count == 2 && s->min_ns == 5000 && hist_index(s->max_ns) == j,
	   "a half-written new max: count 2, max raised into its bucket");

	hist_init(h);
	hist_record(h, 90000);
	h->b[i]++;	/* hist_record(h, 5000) seen after its bucket */
	hist_snapshot(s, h);
	ok(s->count == 2 && hist_index(s->min_ns) == i && s->max_ns == 90000,
	   "a half-written new min: count 2, min lowered into its bucket");
	free(h);
	free(s);
}

static void test_summary(void)
{
	struct hist *h = hist_new(), *s = hist_new();
	struct lat_summary ls, zero;
	uint64_t v;

	memset(&zero, 0, sizeof(zero));
	hist_summary(h, &ls);
	ok(!memcmp(&ls, &zero, sizeof(ls)),
	   "empty histogram: summary all zero");
	ok(hist_percentile(h, 0) == 0 && hist_percentile(h, 50) == 0 &&
	   hist_percentile(h, 100) == 0, "empty histogram: percentiles are 0");
	hist_snapshot(s, h);
	ok(s->count == 0 && s->min_ns == UINT64_MAX && s->max_ns == 0,
	   "snapshot of an empty histogram is empty");

	for (v = 1000; v <= 4000; v += 1000)
		hist_record(h, v);
	hist_summary(h, &ls);
	ok(ls.count == 4 && ls.min_us == 1.0 && ls.max_us == 4.0 &&
	   ls.mean_us == 2.5, "1,2,3,4 us: count, exact min, max and mean");
	ok(fabs(ls.p50_us - 2.0) <= 0.02 && ls.p99_us == 4.0 &&
	   ls.p999_us == 4.0,
	   "1,2,3,4 us: p50 ~ 2 us (%.4f), p99 = p99.9 = max", ls.p50_us);
	ok(fabs(ls.stddev_us - sqrt(1.25)) <= 0.01 * sqrt(1.25),
	   "1,2,3,4 us: population stddev ~ 1.118 us (%.4f)", ls.stddev_us);

	hist_init(h);
	for (v = 0; v < 1000; v++)
		hist_record(h, 777777);
	hist_summary(h, &ls);
	ok(ls.stddev_us == 0 && ls.p50_us == 777.777 && ls.p90_us == 777.777 &&
	   ls.p999_us == 777.777, "a single repeated value: exact percentiles, "
	   "zero stddev");
	free(h);
	free(s);
}

int main(void)
{
	test_buckets();
	test_rank_rounding();
	test_distributions();
	test_delta_add();
	test_add_snapshot();
	test_concurrent();
	test_half_written();
	test_summary();
	return tap_done();
}
