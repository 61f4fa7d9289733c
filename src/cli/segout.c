// SPDX-License-Identifier: GPL-2.0-or-later
/* segout.c - print segment-size histograms: netperf/ethtool-like text, CSV, JSON. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "segout.h"

static int bin_size_cmp(const void *a, const void *b)
{
	const struct seg_bin *x = a, *y = b;

	return (x->size > y->size) - (x->size < y->size);
}

/* Highest count first; equal counts by size. */
static int bin_count_cmp(const void *a, const void *b)
{
	const struct seg_bin *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return bin_size_cmp(a, b);
}

static double pct_of(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Bytes as people read them: "512 B", "1.9 MB" (powers of 1000). */
static const char *human_bytes(char *buf, size_t len, uint64_t b)
{
	static const char *const unit[] = { "kB", "MB", "GB", "TB", "PB" };
	double d = (double)b;
	unsigned u = 0;

	if (b < 1000) {
		snprintf(buf, len, "%" PRIu64 " B", b);
		return buf;
	}
	d /= 1000;
	while (d >= 999.95 && u + 1 < sizeof(unit) / sizeof(unit[0])) {
		d /= 1000;
		u++;
	}
	snprintf(buf, len, "%.1f %s", d, unit[u]);
	return buf;
}

/* The class column: "below MSS", "= MSS", "3 x MSS", "super (3 MSS + 1)". */
static const char *class_text(char *buf, size_t len, uint32_t size,
			      uint32_t mss, bool udp)
{
	if (udp)
		return "";
	switch (seg_class_of(size, mss)) {
	case SEG_BELOW_MSS:
		return "below MSS";
	case SEG_AT_MSS:
		return "= MSS";
	case SEG_SUPER_MULTIPLE:
		snprintf(buf, len, "%u x MSS", size / mss);
		return buf;
	case SEG_SUPER_OTHER:
		snprintf(buf, len, "super (%u MSS + %u)", size / mss, size % mss);
		return buf;
	default:
		return "-";
	}
}

/* The heading and the totals of one direction. */
static void human_head(FILE *f, const struct segout_dir *d,
		       const struct seg_classes *c)
{
	const struct seghist *h = d->h;
	char b[32];

	if (d->udp)
		fprintf(f, "%s  UDP\n", d->label);
	else if (d->mss)
		fprintf(f, "%s  MSS %u%s%s%s\n", d->label, d->mss,
			d->mss_note ? " (" : "", d->mss_note ? d->mss_note : "",
			d->mss_note ? ")" : "");
	else
		fprintf(f, "%s  MSS unknown\n", d->label);
	if (d->udp)
		fprintf(f, "  %" PRIu64 " datagrams (%s), %" PRIu64 " empty",
			h->data, human_bytes(b, sizeof(b), h->bytes),
			h->acks + h->ctl);
	else
		fprintf(f, "  %" PRIu64 " data segments (%s), %" PRIu64
			" pure ACKs, %" PRIu64 " SYN/FIN/RST",
			h->data, human_bytes(b, sizeof(b), h->bytes), h->acks,
			h->ctl);
	if (h->lost_bins)
		fprintf(f, ", %" PRIu64 " of sizes beyond the %u kept",
			h->lost_bins, SEGHIST_MAX_BINS);
	fputc('\n', f);
	if (d->udp || !h->data)
		return;
	if (!d->mss) {
		fprintf(f, "  sizes not classified: MSS unknown; largest %u, commonest %u\n",
			c->largest, c->commonest);
		return;
	}
	fprintf(f, "  below MSS %" PRIu64 " (%.1f %%)  = MSS %" PRIu64
		" (%.1f %%)  super-segments: %" PRIu64 " multiples, %" PRIu64
		" other\n",
		c->segs[SEG_BELOW_MSS], pct_of(c->segs[SEG_BELOW_MSS], h->data),
		c->segs[SEG_AT_MSS], pct_of(c->segs[SEG_AT_MSS], h->data),
		c->segs[SEG_SUPER_MULTIPLE], c->segs[SEG_SUPER_OTHER]);
}

/* The size table, the max_rows commonest sizes (0 = all) in size order. */
static void human_table(FILE *f, const struct segout_dir *d, unsigned max_rows)
{
	const struct seghist *h = d->h;
	struct seg_bin *v;
	uint64_t shown = 0;
	uint32_t n, rows;

	v = seghist_bins_sorted(h, &n);
	if (!v) {
		if (h->nbins)
			fprintf(f, "  (size table: out of memory)\n");
		return;
	}
	rows = n;
	if (max_rows && n > max_rows) {
		qsort(v, n, sizeof(*v), bin_count_cmp);
		rows = max_rows;
		qsort(v, rows, sizeof(*v), bin_size_cmp);
	}
	fprintf(f, "  %8s %12s %6s%s\n", "size", "count", "%",
		d->udp ? "" : "  class");
	for (uint32_t i = 0; i < rows; i++) {
		char cb[48];

		fprintf(f, "  %8u %12" PRIu64 " %6.1f%s%s\n", v[i].size,
			v[i].count, pct_of(v[i].count, h->data),
			d->udp ? "" : "  ",
			class_text(cb, sizeof(cb), v[i].size, d->mss, d->udp));
		shown += v[i].count;
	}
	if (rows < n)
		fprintf(f, "  ... %u more sizes with %" PRIu64 " %s (%.1f %%) not listed\n",
			n - rows, h->data - shown,
			d->udp ? "datagrams" : "segments",
			pct_of(h->data - shown, h->data));
	free(v);
}

void segout_human(FILE *f, const struct segout_dir *d, unsigned n,
		  unsigned max_rows)
{
	for (unsigned i = 0; i < n; i++) {
		struct seg_classes c;

		seghist_classify(d[i].h, d[i].udp ? 0 : d[i].mss, &c);
		if (i)
			fputc('\n', f);
		human_head(f, &d[i], &c);
		if (d[i].h->data)
			human_table(f, &d[i], max_rows);
	}
}

void segout_csv(FILE *f, const struct segout_dir *d, unsigned n,
		bool no_header)
{
	if (!no_header)
		fprintf(f, "direction,size,count,class\n");
	for (unsigned i = 0; i < n; i++) {
		uint32_t nb;
		struct seg_bin *v = seghist_bins_sorted(d[i].h, &nb);
		uint32_t mss = d[i].udp ? 0 : d[i].mss;

		for (uint32_t k = 0; k < nb; k++) {
			csv_put(f, d[i].label);
			fprintf(f, ",%u,%" PRIu64 ",%s\n", v[k].size, v[k].count,
				seg_class_name(seg_class_of(v[k].size, mss)));
		}
		free(v);
	}
}

json_t *segout_json(const struct segout_dir *d)
{
	return result_doc_segs(d->h, d->label, d->mss_note, d->mss, d->udp);
}
