// SPDX-License-Identifier: GPL-2.0-or-later
/* test-seghist.c - exact payload-size histograms against a brute force. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture/seghist.h"
#include "tap.h"

#define MAXSIZE 70000u

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* xorshift64*: the same sequence on every run. */
static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

/* A stream-like mix: mostly 1448, some super-segments, now and then any. */
static uint32_t mixed_size(void)
{
	uint64_t r = rng() % 100;

	if (r < 60)
		return 1448;
	if (r < 75)
		return 1448 * (1 + rng() % 45);
	if (r < 80)
		return 0;
	return 1 + rng() % (MAXSIZE - 1);
}

struct ref {
	uint64_t count[MAXSIZE];
	uint64_t packets, acks, ctl, data, bytes;
	uint32_t distinct;
};

static void ref_add(struct ref *r, uint32_t size, uint8_t flags)
{
	r->packets++;
	if (!size) {
		if (flags & (SEG_SYN | SEG_FIN | SEG_RST))
			r->ctl++;
		else
			r->acks++;
		return;
	}
	r->data++;
	r->bytes += size;
	if (!r->count[size]++)
		r->distinct++;
}

/* Every size and every total of h equals the reference. */
static int matches_ref(const struct seghist *h, const struct ref *r)
{
	uint32_t s;

	if (h->packets != r->packets || h->acks != r->acks ||
	    h->ctl != r->ctl || h->data != r->data || h->bytes != r->bytes ||
	    h->nbins != r->distinct || h->lost_bins)
		return 0;
	for (s = 0; s < MAXSIZE; s++)
		if (seghist_count(h, s) != r->count[s])
			return 0;
	return 1;
}

static const uint8_t flag_mix[] = {
	SEG_ACK, SEG_ACK, SEG_ACK | 0x08, SEG_SYN, SEG_SYN | SEG_ACK,
	SEG_FIN | SEG_ACK, SEG_RST, 0,
};

static void counts_match_brute_force_reference(void)
{
	struct ref *r = calloc(1, sizeof(*r));
	struct seghist h;
	int i, err = 0;

	seghist_init(&h);
	for (i = 0; i < 100000; i++) {
		uint32_t s = mixed_size();
		uint8_t f = flag_mix[rng() % sizeof(flag_mix)];

		err |= seghist_add(&h, s, f);
		ref_add(r, s, f);
	}
	ok(err == 0, "100k random adds all return 0");
	ok(matches_ref(&h, r),
	   "100k random adds: every size count and total match the reference");
	ok(h.data + h.acks + h.ctl == h.packets,
	   "data + acks + ctl = packets (%llu)",
	   (unsigned long long)h.packets);
	ok(h.cap && !(h.cap & (h.cap - 1)) && h.nbins * 10 <= h.cap * 7,
	   "table of %u slots is a power of two at most 70%% full (%u sizes)",
	   h.cap, h.nbins);
	seghist_free(&h);
	ok(h.bins == NULL && h.packets == 0 && h.cap == 0,
	   "free leaves an empty histogram");
	free(r);
}

static void pure_acks_and_control_segments_are_told_apart(void)
{
	struct seghist h;

	seghist_init(&h);
	ok(h.bins == NULL && h.cap == 0, "init allocates nothing");
	seghist_add(&h, 0, SEG_ACK);
	seghist_add(&h, 0, 0);
	seghist_add(&h, 0, SEG_ACK | 0x08);
	ok(h.acks == 3 && h.ctl == 0 && h.data == 0,
	   "no payload, no SYN/FIN/RST: pure ACK (acks %llu)",
	   (unsigned long long)h.acks);
	ok(h.bins == NULL, "pure ACKs allocate no table");
	seghist_add(&h, 0, SEG_SYN);
	seghist_add(&h, 0, SEG_SYN | SEG_ACK);
	seghist_add(&h, 0, SEG_FIN | SEG_ACK);
	seghist_add(&h, 0, SEG_RST | SEG_ACK);
	ok(h.ctl == 4 && h.acks == 3,
	   "SYN, SYN-ACK, FIN, RST without payload count as ctl (%llu)",
	   (unsigned long long)h.ctl);
	seghist_add(&h, 100, SEG_SYN | SEG_ACK);
	seghist_add(&h, 200, SEG_FIN | SEG_ACK);
	ok(h.data == 2 && h.bytes == 300 && h.ctl == 4 &&
	   seghist_count(&h, 100) == 1 && seghist_count(&h, 200) == 1,
	   "SYN or FIN carrying data counts as data in its size bin");
	ok(h.packets == 9, "packets counts every segment (%llu)",
	   (unsigned long long)h.packets);
	ok(seghist_count(&h, 0) == 0 && seghist_count(&h, 101) == 0,
	   "unseen sizes and size 0 count 0");
	seghist_free(&h);
}

static void add_n_counts_segments_and_totals(void)
{
	struct seghist h;

	seghist_init(&h);
	ok(seghist_add_n(&h, 1448, 1000) == 0 && seghist_add_n(&h, 7, 0) == 0,
	   "add_n returns 0");
	seghist_add_n(&h, 0, 5);
	ok(seghist_count(&h, 1448) == 1000 && h.data == 1000 &&
	   h.bytes == 1448000 && h.packets == 1005 && h.acks == 5 &&
	   h.nbins == 1,
	   "add_n: count, data, bytes, packets; size 0 are pure ACKs; count 0 adds nothing");
	seghist_free(&h);
}

static void table_grows_past_thousands_of_sizes(void)
{
	struct seghist h;
	uint32_t s, bad = 0;
	uint64_t data = 0;

	seghist_init(&h);
	for (s = 1; s <= 6000; s++) {
		uint32_t k;

		for (k = 0; k < s % 5 + 1; k++)
			seghist_add(&h, s * 3, SEG_ACK);
		data += s % 5 + 1;
	}
	for (s = 1; s <= 6000; s++)
		if (seghist_count(&h, s * 3) != s % 5 + 1 ||
		    seghist_count(&h, s * 3 + 1) != 0)
			bad++;
	ok(bad == 0, "6000 distinct sizes: every count exact (%u wrong)", bad);
	ok(h.nbins == 6000 && h.data == data && h.lost_bins == 0,
	   "nbins %u, data %llu", h.nbins, (unsigned long long)h.data);
	ok(h.cap >= 8192 && !(h.cap & (h.cap - 1)) &&
	   h.nbins * 10 <= h.cap * 7,
	   "table grew to %u slots, a power of two, under 70%% load", h.cap);
	seghist_free(&h);
}

static void sizes_beyond_the_limit_count_in_lost_bins(void)
{
	struct seghist h;
	uint32_t s;
	uint64_t sum = 0, i;

	seghist_init(&h);
	for (s = 1; s <= SEGHIST_MAX_BINS + 100; s++)
		seghist_add(&h, s, SEG_ACK);
	ok(h.nbins == SEGHIST_MAX_BINS && h.lost_bins == 100,
	   "%u sizes kept, %llu segments in lost_bins", h.nbins,
	   (unsigned long long)h.lost_bins);
	ok(h.data == SEGHIST_MAX_BINS + 100,
	   "lost segments still count as data (%llu)",
	   (unsigned long long)h.data);
	seghist_add(&h, 5, SEG_ACK);
	seghist_add(&h, SEGHIST_MAX_BINS + 500, SEG_ACK);
	ok(seghist_count(&h, 5) == 2 && h.lost_bins == 101,
	   "a full table still counts known sizes; a new one is lost");
	ok(seghist_count(&h, SEGHIST_MAX_BINS + 500) == 0,
	   "a lost size has no count");
	for (i = 0; i < h.cap; i++)
		sum += h.bins[i].count;
	ok(sum + h.lost_bins == h.data, "sum of counts + lost_bins = data");
	seghist_free(&h);
}

static void copy_sorted_is_compact_and_ordered(void)
{
	struct seghist h, c, c2;
	uint32_t i, sorted = 1, bad = 0;
	int k;

	seghist_init(&h);
	for (k = 0; k < 20000; k++)
		seghist_add(&h, mixed_size(), SEG_ACK);
	ok(seghist_copy_sorted(&c, &h) == 0, "copy_sorted returns 0");
	ok(c.cap == 0 && c.nbins == h.nbins && c.packets == h.packets &&
	   c.acks == h.acks && c.bytes == h.bytes,
	   "copy is compact with the same totals (%u sizes)", c.nbins);
	for (i = 1; i < c.nbins; i++)
		if (c.bins[i - 1].size >= c.bins[i].size)
			sorted = 0;
	ok(sorted, "copy is strictly sorted by size");
	for (i = 0; i < c.nbins; i++)
		if (!c.bins[i].count ||
		    seghist_count(&h, c.bins[i].size) != c.bins[i].count ||
		    seghist_count(&c, c.bins[i].size) != c.bins[i].count)
			bad++;
	ok(bad == 0, "every copied bin matches the table (%u wrong)", bad);
	ok(seghist_count(&c, 1448) == seghist_count(&h, 1448) &&
	   seghist_count(&c, MAXSIZE + 1) == 0,
	   "count on a compact copy finds sizes by search");
	ok(seghist_equal(&h, &c) && seghist_equal(&c, &h),
	   "table and its copy are equal both ways");
	ok(seghist_copy_sorted(&c2, &c) == 0 && seghist_equal(&c, &c2) &&
	   c2.cap == 0,
	   "copy of a compact copy is equal and compact");
	seghist_add(&c2, 1448, SEG_ACK);
	seghist_add(&c2, MAXSIZE + 7, SEG_ACK);
	ok(c2.cap > 0 &&
	   seghist_count(&c2, 1448) == seghist_count(&h, 1448) + 1 &&
	   seghist_count(&c2, MAXSIZE + 7) == 1 && c2.nbins == h.nbins + 1,
	   "adding to a compact copy turns it into a table, counts kept");
	seghist_free(&c2);
	seghist_free(&c);
	seghist_init(&c2);
	ok(seghist_copy_sorted(&c, &c2) == 0 && c.nbins == 0 && c.packets == 0,
	   "copy of an empty histogram is empty");
	seghist_free(&c);
	seghist_free(&h);
}

static void merge_adds_every_count(void)
{
	struct ref *r = calloc(1, sizeof(*r));
	struct seghist a, b, bc, m;
	int i;

	seghist_init(&a);
	seghist_init(&b);
	for (i = 0; i < 30000; i++) {
		uint32_t s = mixed_size();
		uint8_t f = flag_mix[rng() % sizeof(flag_mix)];

		seghist_add(i % 3 ? &a : &b, s, f);
		ref_add(r, s, f);
	}
	seghist_init(&m);
	ok(seghist_merge(&m, &a) == 0 && seghist_merge(&m, &b) == 0,
	   "merge returns 0");
	ok(matches_ref(&m, r), "merge of two tables matches the reference");
	seghist_free(&m);

	seghist_copy_sorted(&bc, &b);
	seghist_copy_sorted(&m, &a);
	ok(seghist_merge(&m, &bc) == 0 && matches_ref(&m, r),
	   "merge of compact copies matches the reference");
	seghist_free(&m);

	seghist_init(&m);
	seghist_merge(&m, &a);
	seghist_merge(&m, &m);
	ok(m.packets == 2 * a.packets && m.acks == 2 * a.acks &&
	   seghist_count(&m, 1448) == 2 * seghist_count(&a, 1448),
	   "merging a histogram into itself doubles it");
	seghist_free(&m);
	seghist_free(&bc);
	seghist_free(&a);
	seghist_free(&b);
	free(r);
}

static void equal_notices_any_difference(void)
{
	struct seghist a, b;

	seghist_init(&a);
	seghist_init(&b);
	ok(seghist_equal(&a, &b), "two empty histograms are equal");
	seghist_add(&a, 100, SEG_ACK);
	seghist_add(&b, 101, SEG_ACK);
	ok(!seghist_equal(&a, &b) && !seghist_equal(&b, &a),
	   "same totals, different size: not equal");
	seghist_free(&b);
	seghist_init(&b);
	seghist_add(&b, 100, SEG_ACK);
	ok(seghist_equal(&a, &b), "same segments: equal");
	seghist_add(&b, 0, SEG_ACK);
	ok(!seghist_equal(&a, &b), "one more pure ACK: not equal");
	seghist_add(&a, 0, SEG_SYN);
	ok(!seghist_equal(&a, &b), "a SYN is not a pure ACK: not equal");
	seghist_free(&a);
	seghist_free(&b);
	seghist_init(&a);
	seghist_init(&b);
	seghist_add(&a, 100, SEG_ACK);
	seghist_add(&a, 100, SEG_ACK);
	seghist_add(&a, 200, SEG_ACK);
	seghist_add(&b, 200, SEG_ACK);
	seghist_add(&b, 200, SEG_ACK);
	seghist_add(&b, 100, SEG_ACK);
	b.bytes = a.bytes;
	ok(!seghist_equal(&a, &b), "same totals and sizes, other counts: not equal");
	seghist_free(&a);
	seghist_free(&b);
}

static void sizes_are_classified_against_the_mss(void)
{
	static const struct {
		uint32_t size;
		enum seg_class c;
	} cases[] = {
		{ 1, SEG_BELOW_MSS },
		{ 1447, SEG_BELOW_MSS },
		{ 1448, SEG_AT_MSS },
		{ 2896, SEG_SUPER_MULTIPLE },
		{ 4344, SEG_SUPER_MULTIPLE },
		{ 4345, SEG_SUPER_OTHER },
		{ 65160, SEG_SUPER_MULTIPLE },	/* 45 * 1448 */
		{ 65483, SEG_SUPER_OTHER },
	};
	struct seghist h, c;
	struct seg_classes k, kc;
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum seg_class got = seg_class_of(cases[i].size, 1448);

		ok(got == cases[i].c, "size %u with MSS 1448 is %s (got %s)",
		   cases[i].size, seg_class_name(cases[i].c),
		   seg_class_name(got));
		ok(seg_class_of(cases[i].size, 0) == SEG_UNCLASSIFIED,
		   "size %u with MSS 0 is unclassified", cases[i].size);
	}
	ok(!strcmp(seg_class_name(SEG_BELOW_MSS), "below-mss") &&
	   !strcmp(seg_class_name(SEG_AT_MSS), "mss") &&
	   !strcmp(seg_class_name(SEG_SUPER_MULTIPLE), "super-multiple") &&
	   !strcmp(seg_class_name(SEG_SUPER_OTHER), "super-other") &&
	   !strcmp(seg_class_name(SEG_UNCLASSIFIED), "unclassified"),
	   "class names are the documented ones");

	seghist_init(&h);
	seghist_add_n(&h, 1, 2);
	seghist_add_n(&h, 1447, 1);
	seghist_add_n(&h, 1448, 10);
	seghist_add_n(&h, 2896, 3);
	seghist_add_n(&h, 65160, 4);
	seghist_add_n(&h, 4345, 1);
	seghist_add_n(&h, 0, 50);
	seghist_classify(&h, 1448, &k);
	ok(k.mss == 1448 && k.segs[SEG_BELOW_MSS] == 3 &&
	   k.segs[SEG_AT_MSS] == 10 && k.segs[SEG_SUPER_MULTIPLE] == 7 &&
	   k.segs[SEG_SUPER_OTHER] == 1 && k.segs[SEG_UNCLASSIFIED] == 0,
	   "segments per class with MSS 1448");
	ok(k.bytes[SEG_BELOW_MSS] == 2 + 1447 &&
	   k.bytes[SEG_AT_MSS] == 14480 &&
	   k.bytes[SEG_SUPER_MULTIPLE] == 3 * 2896 + 4 * 65160ull &&
	   k.bytes[SEG_SUPER_OTHER] == 4345,
	   "bytes per class with MSS 1448");
	ok(k.largest == 65160 && k.commonest == 1448,
	   "largest %u, commonest %u", k.largest, k.commonest);
	seghist_copy_sorted(&c, &h);
	seghist_classify(&c, 1448, &kc);
	ok(!memcmp(&k, &kc, sizeof(k)), "a compact copy classifies the same");
	seghist_classify(&h, 0, &k);
	ok(k.segs[SEG_UNCLASSIFIED] == h.data &&
	   k.bytes[SEG_UNCLASSIFIED] == h.bytes &&
	   k.segs[SEG_BELOW_MSS] == 0 && k.mss == 0,
	   "MSS 0: every data segment unclassified");
	seghist_free(&c);
	seghist_free(&h);
	seghist_init(&h);
	seghist_add(&h, 0, SEG_ACK);
	seghist_classify(&h, 1448, &k);
	ok(k.largest == 0 && k.commonest == 0 && k.segs[SEG_AT_MSS] == 0,
	   "no data: largest and commonest 0");
	seghist_add_n(&h, 500, 3);
	seghist_add_n(&h, 300, 3);
	seghist_classify(&h, 1448, &k);
	ok(k.commonest == 300, "a tie for commonest goes to the smaller size");
	seghist_free(&h);
}

/* Not an assertion: the figure the report quotes, printed as a diagnostic. */
static void report_add_rate(void)
{
	struct seghist h;
	static uint32_t sizes[1 << 16];
	struct timespec t0, t1;
	uint32_t i, n = 20000000;
	double s;

	for (i = 0; i < 1u << 16; i++)
		sizes[i] = rng() % 100 ? 1448 : 1 + rng() % 65535;
	seghist_init(&h);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++)
		seghist_add(&h, sizes[i & 0xffff], SEG_ACK);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("# seghist_add: %.1f M adds/s (99%% one size, %u sizes)\n",
	       n / s / 1e6, h.nbins);
	ok(h.data == n, "rate run counted all %u adds", n);
	seghist_free(&h);
}

int main(void)
{
	counts_match_brute_force_reference();
	pure_acks_and_control_segments_are_told_apart();
	add_n_counts_segments_and_totals();
	table_grows_past_thousands_of_sizes();
	sizes_beyond_the_limit_count_in_lost_bins();
	copy_sorted_is_compact_and_ordered();
	merge_adds_every_count();
	equal_notices_any_difference();
	sizes_are_classified_against_the_mss();
	report_add_rate();
	return tap_done();
}
