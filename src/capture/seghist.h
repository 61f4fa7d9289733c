/* SPDX-License-Identifier: GPL-2.0-or-later */
/* seghist.h - TCP payload sizes of one direction: an exact count per size. */
#ifndef TT_SEGHIST_H
#define TT_SEGHIST_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The sizes seen in one direction of one connection (or of all the test's
 * connections), counted exactly: payload size -> segments.  Sizes come from
 * the IP and TCP headers, never from the captured length (seed 000: a 3MSS
 * super-segment and a 1-byte one must be told apart with a 128-byte
 * snaplen).
 *
 * Two shapes share the struct:
 * - a live table (cap > 0): bins is an open-addressing hash table of cap
 *   slots (a power of two, count 0 = empty slot), grown by seghist_add;
 * - a compact copy (cap == 0): bins holds nbins entries sorted by size,
 *   made by seghist_copy_sorted; this is what snapshots, messages and
 *   outputs carry.  seghist_add on a compact copy turns it back into a
 *   table.
 */
struct seg_bin {
	uint32_t size;			/* payload bytes, > 0 */
	uint64_t count;			/* segments of exactly this size */
};

/* At most this many distinct sizes are kept per direction. */
#define SEGHIST_MAX_BINS 131072u

struct seghist {
	uint64_t packets;		/* every segment counted here */
	uint64_t acks;			/* pure ACKs: no payload, no SYN, FIN or RST */
	uint64_t ctl;			/* SYN, FIN or RST without payload */
	uint64_t data;			/* segments with payload (= sum of counts) */
	uint64_t bytes;			/* payload bytes of those */
	uint64_t lost_bins;		/* data segments whose size found no slot
					 * (more than SEGHIST_MAX_BINS sizes) */
	uint32_t nbins;			/* distinct sizes held */
	uint32_t cap;			/* table slots; 0 for a compact copy */
	struct seg_bin *bins;
};

/* TCP header flag bits as on the wire (tcp_flags of seghist_add). */
#define SEG_FIN 0x01
#define SEG_SYN 0x02
#define SEG_RST 0x04
#define SEG_ACK 0x10

/* An empty histogram (no allocation until the first data segment). */
void seghist_init(struct seghist *h);
/* Count one segment: payload bytes and its TCP flags.  0 or -ENOMEM
 * (then the segment is still counted in packets/data/bytes and lost_bins). */
int seghist_add(struct seghist *h, uint32_t payload, uint8_t tcp_flags);
/* Add count segments of one size (merging histograms, decoding): packets,
 * data, bytes and the size's count; size 0 counts pure ACKs.  0 or -ENOMEM. */
int seghist_add_n(struct seghist *h, uint32_t size, uint64_t count);
/* dst = a compact, size-sorted copy of src (either shape).  0 or -ENOMEM;
 * dst is initialised either way.  dst must not be src. */
int seghist_copy_sorted(struct seghist *dst, const struct seghist *src);
/* Add every count of src into dst.  0 or -ENOMEM. */
int seghist_merge(struct seghist *dst, const struct seghist *src);
/* Count of one size; 0 if never seen. */
uint64_t seghist_count(const struct seghist *h, uint32_t size);
/* Same totals and same count for every size (shapes may differ). */
bool seghist_equal(const struct seghist *a, const struct seghist *b);
void seghist_free(struct seghist *h);

/*
 * What a payload size is relative to the MSS of the connection
 * (tcpi_snd_mss of the sender): below it, equal to it, or a super-segment
 * above it -- built by TSO/GSO on the sender or GRO/LRO on the receiver --
 * that is an exact multiple of the MSS or not.  With mss 0 (unknown)
 * every size is SEG_UNCLASSIFIED.
 */
enum seg_class {
	SEG_BELOW_MSS,
	SEG_AT_MSS,
	SEG_SUPER_MULTIPLE,
	SEG_SUPER_OTHER,
	SEG_UNCLASSIFIED,
	SEG_NCLASSES
};

enum seg_class seg_class_of(uint32_t size, uint32_t mss);
/* Short names for outputs: "below-mss", "mss", "super-multiple",
 * "super-other", "unclassified". */
const char *seg_class_name(enum seg_class c);

struct seg_classes {
	uint32_t mss;			/* as given */
	uint64_t segs[SEG_NCLASSES];	/* data segments per class */
	uint64_t bytes[SEG_NCLASSES];	/* their payload bytes */
	uint32_t largest;		/* largest payload seen; 0 none */
	uint32_t commonest;		/* size with the highest count; 0 none */
};

void seghist_classify(const struct seghist *h, uint32_t mss, struct seg_classes *c);

/* The non-empty bins of h in size order, in a new array (*n of them); NULL
 * with *n 0 when h is empty or out of memory. */
struct seg_bin *seghist_bins_sorted(const struct seghist *h, uint32_t *n);

#endif
