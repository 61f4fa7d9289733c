// SPDX-License-Identifier: GPL-2.0-or-later
/* mkpcap.c - writes the test captures of tests/data/pcap and their manifest. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pcap/pcap.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Every file is built from real frames: a link header, an IPv4 header with
 * its checksum or an IPv6 header, and TCP (handshake with MSS options, data,
 * pure ACKs, FIN) or UDP with correct checksums over the whole payload,
 * although a 128-byte snaplen keeps most payload bytes out of the file: the
 * sizes a reader reports must come from the headers.  Nothing is random and
 * every timestamp is fixed, so two runs write the same bytes.  Classic pcap
 * goes through libpcap's dumper (host byte order, as libpcap writes it);
 * pcapng is written by hand since libpcap 1.10 cannot write it.
 *
 * While writing, the tool tallies what a correct reader must find -- per
 * direction of each flow: packets, pure ACKs, control segments, data
 * segments, bytes, the MSS from the peer's SYN and every payload size --
 * and writes it to DIR/expected, one fact per line:
 *
 *   FILE KEY VALUE		a whole-file fact
 *   FILE SRC>DST KEY VALUE...	a fact about one direction
 *
 * (see the header of the manifest for the keys).
 */

#define SNAPLEN		128
#define TS_BASE		1700000000u	/* 2023-11-14 22:13:20 UTC */
#define MAX_FRAME	(256 * 1024)
#define MAX_DIRS	16
#define MAX_SIZES	32

enum link {
	LINK_ETH,		/* DLT_EN10MB, o->vlan_tags 802.1Q/ad tags */
	LINK_SLL,		/* DLT_LINUX_SLL */
	LINK_SLL2,		/* DLT_LINUX_SLL2 */
	LINK_RAW,		/* DLT_RAW: the IP header first */
	LINK_IPV6,		/* LINKTYPE_IPV6 (229) */
	LINK_NULL,		/* DLT_NULL: BSD family in host byte order */
	LINK_LOOP,		/* DLT_LOOP: BSD family in network byte order */
};

struct size_count {
	uint32_t size;
	uint64_t count;
};

/* What a reader must report for one direction of one flow. */
struct dir_tally {
	int family;
	uint8_t proto;
	uint8_t src[16], dst[16];
	uint16_t sport, dport;
	uint64_t first, packets, acks, ctl, data, bytes;
	uint32_t mss;
	unsigned nsizes;
	struct size_count sizes[MAX_SIZES];
};

/* One capture file being written, and its tally. */
struct out {
	const char *name;
	char path[4096];
	enum link link;
	int dlt;
	bool pcapng, nano;
	pcap_t *dead;
	pcap_dumper_t *dumper;
	FILE *ng;
	int vlan_tags;		/* LINK_ETH: 0, 1 (802.1Q), 2 (802.1ad + Q) */
	int sll_type;		/* LINK_SLL/SLL2: packet type of next frames */
	uint32_t bsd_inet6;	/* LINK_NULL/LOOP: the family number for IPv6 */
	uint32_t caplen_cut;	/* next frame only: capture this many bytes */
	uint32_t pad;		/* next frame only: Ethernet padding after IP */
	uint64_t n;		/* frames written */
	uint64_t cut;		/* reading stops at this frame: tally before */
	uint64_t not_ip, other_proto, fragments, short_hdr, malformed;
	uint64_t counted, first_bad;
	unsigned ndirs;
	struct dir_tally dirs[MAX_DIRS];
};

static FILE *manifest;
static uint8_t frame[MAX_FRAME];
static uint8_t ipbuf[MAX_FRAME];

/* Print a message and quit: half-written captures are worth nothing. */
__attribute__((noreturn, format(printf, 1, 2)))
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "mkpcap: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void put16le(uint8_t *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static void put32le(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* The byte at offset k of every payload: a fixed pattern. */
static uint8_t payload_byte(uint32_t k)
{
	return 'a' + k % 26;
}

/* Add bytes to a one's-complement sum (RFC 1071), odd lengths padded. */
static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

/* --- the tally ------------------------------------------------------------ */

static int addr_len(int family)
{
	return family == AF_INET ? 4 : 16;
}

/* The tally of a direction, created at its first packet. */
static struct dir_tally *dir_get(struct out *o, int family, uint8_t proto,
				 const uint8_t *src, const uint8_t *dst,
				 uint16_t sport, uint16_t dport)
{
	struct dir_tally *d;
	unsigned i;

	for (i = 0; i < o->ndirs; i++) {
		d = &o->dirs[i];
		if (d->family == family && d->proto == proto &&
		    d->sport == sport && d->dport == dport &&
		    !memcmp(d->src, src, addr_len(family)) &&
		    !memcmp(d->dst, dst, addr_len(family)))
			return d;
	}
	if (o->ndirs == MAX_DIRS)
		die("%s: too many directions", o->name);
	d = &o->dirs[o->ndirs++];
	memset(d, 0, sizeof(*d));
	d->family = family;
	d->proto = proto;
	memcpy(d->src, src, addr_len(family));
	memcpy(d->dst, dst, addr_len(family));
	d->sport = sport;
	d->dport = dport;
	d->first = o->n;
	return d;
}

/* Whether the frame being written is one a reader gets to see. */
static bool tallied(const struct out *o)
{
	return !o->cut || o->n < o->cut;
}

/* Count a packet no flow gets (not IP, fragment, short, malformed...). */
static void tally_bad(struct out *o, uint64_t *counter)
{
	if (!tallied(o))
		return;
	(*counter)++;
	if (counter == &o->short_hdr || counter == &o->malformed)
		if (!o->first_bad)
			o->first_bad = o->n;
}

/* Count one TCP or UDP packet the way seghist.h defines its counters. */
static void tally_l4(struct out *o, int family, uint8_t proto,
		     const uint8_t *src, const uint8_t *dst, uint16_t sport,
		     uint16_t dport, uint32_t payload, uint8_t flags)
{
	struct dir_tally *d;
	unsigned i;

	if (!tallied(o))
		return;
	if (o->caplen_cut) {	/* its headers will not be in the file */
		tally_bad(o, &o->short_hdr);
		return;
	}
	d = dir_get(o, family, proto, src, dst, sport, dport);
	o->counted++;
	d->packets++;
	if (payload) {
		d->data++;
		d->bytes += payload;
		for (i = 0; i < d->nsizes && d->sizes[i].size != payload; i++)
			;
		if (i == d->nsizes) {
			if (d->nsizes == MAX_SIZES)
				die("%s: too many sizes", o->name);
			d->sizes[d->nsizes++].size = payload;
		}
		d->sizes[i].count++;
	} else if (flags & 0x07) {	/* FIN, SYN or RST */
		d->ctl++;
	} else {
		d->acks++;
	}
}

/* --- writing files -------------------------------------------------------- */

static void ng_write(struct out *o, const void *p, size_t len)
{
	if (fwrite(p, 1, len, o->ng) != len)
		die("%s: %s", o->path, strerror(errno));
}

/* A pcapng option: code, length, value padded to 32 bits. */
static size_t ng_option(uint8_t *p, uint16_t code, const void *val,
			uint16_t len)
{
	size_t padded = (len + 3u) & ~3u;

	put16le(p, code);
	put16le(p + 2, len);
	memset(p + 4, 0, padded);
	if (len)
		memcpy(p + 4, val, len);
	return 4 + padded;
}

/* Close a pcapng block: trailing total length, and the leading one. */
static void ng_block(struct out *o, uint8_t *b, uint32_t type, size_t len)
{
	len += 4;
	put32le(b, type);
	put32le(b + 4, len);
	put32le(b + len - 4, len);
	ng_write(o, b, len);
}

/* Section header and one interface (Ethernet, snaplen 128, microseconds). */
static void ng_start(struct out *o)
{
	static const char appl[] = "tunetop mkpcap";
	static const char ifname[] = "eth0";
	static const uint8_t tsresol = 6;
	uint8_t b[128];
	size_t n;

	memset(b, 0, sizeof(b));
	put32le(b + 8, 0x1a2b3c4d);
	put16le(b + 12, 1);
	put16le(b + 14, 0);
	put32le(b + 16, 0xffffffff);	/* section length: unknown (-1) */
	put32le(b + 20, 0xffffffff);
	n = 24;
	/* shb_userappl, then opt_endofopt */
	n += ng_option(b + n, 4, appl, sizeof(appl) - 1);
	n += ng_option(b + n, 0, NULL, 0);
	ng_block(o, b, 0x0a0d0d0a, n);

	memset(b, 0, sizeof(b));
	put16le(b + 8, o->dlt);
	put32le(b + 12, SNAPLEN);
	n = 16;
	n += ng_option(b + n, 2, ifname, sizeof(ifname) - 1);	/* if_name */
	n += ng_option(b + n, 9, &tsresol, 1);			/* if_tsresol */
	n += ng_option(b + n, 0, NULL, 0);
	ng_block(o, b, 0x00000001, n);
}

/* One enhanced packet block. */
static void ng_packet(struct out *o, uint64_t usec, const uint8_t *data,
		      uint32_t caplen, uint32_t wirelen)
{
	static uint8_t b[SNAPLEN + 64];
	size_t n = 28;

	memset(b, 0, sizeof(b));
	put32le(b + 8, 0);			/* interface 0 */
	put32le(b + 12, usec >> 32);
	put32le(b + 16, usec);
	put32le(b + 20, caplen);
	put32le(b + 24, wirelen);
	memcpy(b + n, data, caplen);
	n += (caplen + 3u) & ~3u;
	ng_block(o, b, 0x00000006, n);
}

static void out_open(struct out *o, const char *dir, const char *name,
		     enum link link, int dlt)
{
	memset(o, 0, sizeof(*o));
	o->name = name;
	o->link = link;
	o->dlt = dlt;
	o->pcapng = strstr(name, ".pcapng") != NULL;
	o->nano = !strcmp(name, "sll2.pcap");
	o->bsd_inet6 = 24;
	snprintf(o->path, sizeof(o->path), "%s/%s", dir, name);
	if (o->pcapng) {
		o->ng = fopen(o->path, "wb");
		if (!o->ng)
			die("%s: %s", o->path, strerror(errno));
		ng_start(o);
		return;
	}
	o->dead = pcap_open_dead_with_tstamp_precision(dlt, SNAPLEN,
			o->nano ? PCAP_TSTAMP_PRECISION_NANO :
				  PCAP_TSTAMP_PRECISION_MICRO);
	if (!o->dead)
		die("%s: pcap_open_dead failed", o->name);
	o->dumper = pcap_dump_open(o->dead, o->path);
	if (!o->dumper)
		die("%s: %s", o->path, pcap_geterr(o->dead));
}

/* Write one frame: wirelen bytes long, of which the first caplen are given. */
static void out_frame(struct out *o, const uint8_t *data, uint32_t wirelen)
{
	uint32_t caplen = wirelen < SNAPLEN ? wirelen : SNAPLEN;
	uint64_t usec = (uint64_t)TS_BASE * 1000000 + o->n * 1250;
	struct pcap_pkthdr h;

	if (o->caplen_cut) {
		caplen = o->caplen_cut;
		o->caplen_cut = 0;
	}
	if (o->pcapng) {
		ng_packet(o, usec, data, caplen, wirelen);
		return;
	}
	memset(&h, 0, sizeof(h));
	h.ts.tv_sec = usec / 1000000;
	h.ts.tv_usec = usec % 1000000;
	if (o->nano)		/* a nanosecond file: tv_usec holds ns */
		h.ts.tv_usec = h.ts.tv_usec * 1000 + 7 * (o->n % 3);
	h.caplen = caplen;
	h.len = wirelen;
	pcap_dump((u_char *)o->dumper, &h, data);
}

/* Begin the next frame: its number, for the tally. */
static void out_next(struct out *o)
{
	o->n++;
}

/* Frame an IP packet of ip_len bytes (at most SNAPLEN of them captured). */
static void out_ip(struct out *o, const uint8_t *ip, uint32_t ip_len)
{
	bool v6 = (ip[0] >> 4) == 6;
	uint16_t ethertype = v6 ? 0x86dd : 0x0800;
	uint32_t hl = 0, pad = o->pad, fam;
	int i;

	switch (o->link) {
	case LINK_ETH:
		memcpy(frame, "\x02\x00\x00\x00\x00\x02", 6);
		memcpy(frame + 6, "\x02\x00\x00\x00\x00\x01", 6);
		hl = 12;
		for (i = 0; i < o->vlan_tags; i++) {
			put16(frame + hl, i == 0 && o->vlan_tags > 1 ?
				0x88a8 : 0x8100);
			put16(frame + hl + 2, i == 0 && o->vlan_tags > 1 ?
				10 : 100);
			hl += 4;
		}
		put16(frame + hl, ethertype);
		hl += 2;
		break;
	case LINK_SLL:
		put16(frame, o->sll_type);
		put16(frame + 2, 1);		/* ARPHRD_ETHER */
		put16(frame + 4, 6);
		memcpy(frame + 6, "\x02\x00\x00\x00\x00\x01\x00\x00", 8);
		put16(frame + 14, ethertype);
		hl = 16;
		break;
	case LINK_SLL2:
		put16(frame, ethertype);
		put16(frame + 2, 0);
		put32(frame + 4, 2);		/* ifindex */
		put16(frame + 8, 1);		/* ARPHRD_ETHER */
		frame[10] = o->sll_type;
		frame[11] = 6;
		memcpy(frame + 12, "\x02\x00\x00\x00\x00\x01\x00\x00", 8);
		hl = 20;
		break;
	case LINK_RAW:
	case LINK_IPV6:
		break;
	case LINK_NULL:
	case LINK_LOOP:
		fam = v6 ? o->bsd_inet6 : 2;
		if (o->link == LINK_LOOP)
			put32(frame, fam);
		else
			memcpy(frame, &fam, 4);	/* host byte order */
		hl = 4;
		break;
	}
	o->pad = 0;
	/* only the first SNAPLEN bytes of a frame go into the file */
	memcpy(frame + hl, ip, ip_len < SNAPLEN ? ip_len : SNAPLEN);
	if (ip_len < SNAPLEN)
		memset(frame + hl + ip_len, 0, pad);
	out_frame(o, frame, hl + ip_len + pad);
}

/* A non-IP Ethernet frame (ARP, LLDP), padded to the 60-byte minimum. */
static void out_eth_other(struct out *o, uint16_t ethertype,
			  const uint8_t *body, uint32_t len)
{
	uint32_t hl = 12;
	int i;

	out_next(o);
	memset(frame, 0, 64 + len);
	memcpy(frame, "\xff\xff\xff\xff\xff\xff", 6);
	memcpy(frame + 6, "\x02\x00\x00\x00\x00\x01", 6);
	for (i = 0; i < o->vlan_tags; i++) {
		put16(frame + hl, 0x8100);
		put16(frame + hl + 2, 100);
		hl += 4;
	}
	put16(frame + hl, ethertype);
	hl += 2;
	memcpy(frame + hl, body, len);
	tally_bad(o, &o->not_ip);
	out_frame(o, frame, hl + len < 60 ? 60 : hl + len);
}

/* The manifest lines of one direction. */
static void manifest_dir(const struct out *o, const struct dir_tally *d)
{
	char s[INET6_ADDRSTRLEN], t[INET6_ADDRSTRLEN], key[160];
	struct size_count tmp;
	struct dir_tally c = *d;
	unsigned i, j;

	inet_ntop(d->family, d->src, s, sizeof(s));
	inet_ntop(d->family, d->dst, t, sizeof(t));
	if (d->family == AF_INET)
		snprintf(key, sizeof(key), "%s %s:%u>%s:%u", o->name,
			 s, d->sport, t, d->dport);
	else
		snprintf(key, sizeof(key), "%s [%s]:%u>[%s]:%u", o->name,
			 s, d->sport, t, d->dport);
	fprintf(manifest, "%s proto %s\n", key,
		d->proto == IPPROTO_TCP ? "tcp" : "udp");
	fprintf(manifest, "%s first %llu\n", key, (unsigned long long)d->first);
	fprintf(manifest, "%s packets %llu\n", key,
		(unsigned long long)d->packets);
	fprintf(manifest, "%s acks %llu\n", key, (unsigned long long)d->acks);
	fprintf(manifest, "%s ctl %llu\n", key, (unsigned long long)d->ctl);
	fprintf(manifest, "%s data %llu\n", key, (unsigned long long)d->data);
	fprintf(manifest, "%s bytes %llu\n", key, (unsigned long long)d->bytes);
	fprintf(manifest, "%s mss %u\n", key, d->mss);
	for (i = 1; i < c.nsizes; i++)
		for (j = i; j && c.sizes[j - 1].size > c.sizes[j].size; j--) {
			tmp = c.sizes[j];
			c.sizes[j] = c.sizes[j - 1];
			c.sizes[j - 1] = tmp;
		}
	for (i = 0; i < c.nsizes; i++)
		fprintf(manifest, "%s size %u %llu\n", key, c.sizes[i].size,
			(unsigned long long)c.sizes[i].count);
}

/* Finish the file and write its manifest lines. */
static void out_close(struct out *o)
{
	uint64_t seen = o->cut ? o->cut - 1 : o->n;
	unsigned i;

	if (o->pcapng) {
		if (fclose(o->ng))
			die("%s: %s", o->path, strerror(errno));
	} else {
		pcap_dump_close(o->dumper);
		pcap_close(o->dead);
	}
	fprintf(manifest, "\n%s format %s\n", o->name,
		o->pcapng ? "pcapng" : "pcap");
	fprintf(manifest, "%s dlt %d\n", o->name, o->dlt);
	fprintf(manifest, "%s packets %llu\n", o->name,
		(unsigned long long)seen);
	fprintf(manifest, "%s counted %llu\n", o->name,
		(unsigned long long)o->counted);
	fprintf(manifest, "%s not-ip %llu\n", o->name,
		(unsigned long long)o->not_ip);
	fprintf(manifest, "%s other-proto %llu\n", o->name,
		(unsigned long long)o->other_proto);
	fprintf(manifest, "%s fragments %llu\n", o->name,
		(unsigned long long)o->fragments);
	fprintf(manifest, "%s short %llu\n", o->name,
		(unsigned long long)o->short_hdr);
	fprintf(manifest, "%s malformed %llu\n", o->name,
		(unsigned long long)o->malformed);
	fprintf(manifest, "%s first-bad %llu\n", o->name,
		(unsigned long long)o->first_bad);
	if (o->cut)
		fprintf(manifest, "%s error-packet %llu\n", o->name,
			(unsigned long long)o->cut);
	fprintf(manifest, "%s directions %u\n", o->name, o->ndirs);
	for (i = 0; i < o->ndirs; i++)
		manifest_dir(o, &o->dirs[i]);
}

/* --- IP, TCP and UDP ------------------------------------------------------ */

/*
 * An IP header for l4_len bytes of protocol proto into ipbuf; returns its
 * length.  total_len_zero writes IPv4 total length / IPv6 payload length 0,
 * as a capture of a BIG TCP or TSO packet on the sender shows.
 */
static uint32_t ip_header(int family, const uint8_t *src, const uint8_t *dst,
			  uint8_t proto, uint32_t l4_len, bool total_len_zero)
{
	static uint16_t ip_id = 0x1000;
	uint8_t *p = ipbuf;

	if (family == AF_INET) {
		memset(p, 0, 20);
		p[0] = 0x45;
		put16(p + 2, total_len_zero ? 0 : 20 + l4_len);
		put16(p + 4, ip_id++);
		put16(p + 6, 0x4000);	/* DF */
		p[8] = 64;
		p[9] = proto;
		memcpy(p + 12, src, 4);
		memcpy(p + 16, dst, 4);
		put16(p + 10, csum_fold(csum_add(0, p, 20)));
		return 20;
	}
	memset(p, 0, 40);
	put32(p, 0x60000000);
	put16(p + 4, total_len_zero ? 0 : l4_len);
	p[6] = proto;
	p[7] = 64;
	memcpy(p + 8, src, 16);
	memcpy(p + 24, dst, 16);
	return 40;
}

/* Fill the payload and the transport checksum (pseudo-header, RFC 793/8200). */
static void l4_finish(int family, const uint8_t *src, const uint8_t *dst,
		      uint8_t proto, uint8_t *l4, uint32_t hdr_len,
		      uint32_t payload, uint8_t *csum_at)
{
	uint32_t sum = 0, i, len = hdr_len + payload;
	uint8_t w[4];

	for (i = 0; i < payload; i++)
		l4[hdr_len + i] = payload_byte(i);
	sum = csum_add(sum, src, addr_len(family));
	sum = csum_add(sum, dst, addr_len(family));
	put32(w, len);
	sum = csum_add(sum, w, 4);
	w[0] = w[1] = w[2] = 0;
	w[3] = proto;
	sum = csum_add(sum, w, 4);
	put16(csum_at, 0);
	sum = csum_add(sum, l4, len);
	put16(csum_at, csum_fold(sum));
	if (proto == IPPROTO_UDP && !csum_at[0] && !csum_at[1])
		put16(csum_at, 0xffff);
}

enum { C2S, S2C };

/* A TCP connection between a client (side 0) and a server (side 1). */
struct conv {
	struct out *o;
	int family;
	uint8_t addr[2][16];
	uint16_t port[2];
	uint32_t seq[2];
	uint32_t tsval[2];	/* the next timestamp value of each side */
	uint32_t ts_seen[2];	/* the last one sent, echoed by the peer */
	bool ts;
	uint16_t syn_mss[2];
};

static void conv_init(struct conv *c, struct out *o, int family,
		      const char *client, const char *server,
		      uint16_t cport, uint16_t sport)
{
	memset(c, 0, sizeof(*c));
	c->o = o;
	c->family = family;
	if (inet_pton(family, client, c->addr[C2S]) != 1 ||
	    inet_pton(family, server, c->addr[S2C]) != 1)
		die("bad address %s or %s", client, server);
	c->port[C2S] = cport;
	c->port[S2C] = sport;
	c->seq[C2S] = 0x10000000u + cport * 7919u;
	c->seq[S2C] = 0x70000000u + sport * 104729u;
	c->tsval[C2S] = 100000 + cport;
	c->tsval[S2C] = 900000 + sport;
}

/* Options a segment carries. */
struct tcp_opts {
	uint16_t mss;		/* SYN: the MSS option */
	bool ts;		/* timestamps */
	bool dstopts;		/* IPv6: a destination options header first */
	bool len_zero;		/* IP length field 0 (BIG TCP) */
};

/* Build and write one TCP segment from side with flags and payload bytes. */
static void conv_seg(struct conv *c, int side, uint8_t flags, uint32_t payload,
		     const struct tcp_opts *op)
{
	struct out *o = c->o;
	uint32_t ihl, ext = 0, ol = 0, l4_len;
	uint8_t *t, opt[40];

	if (op->mss) {
		opt[ol++] = 2;
		opt[ol++] = 4;
		put16(opt + ol, op->mss);
		ol += 2;
		if (op->ts) {
			opt[ol++] = 4;		/* SACK permitted */
			opt[ol++] = 2;
		} else {
			opt[ol++] = 1;
			opt[ol++] = 1;
			opt[ol++] = 4;
			opt[ol++] = 2;
		}
	}
	if (op->ts) {
		if (!op->mss) {
			opt[ol++] = 1;
			opt[ol++] = 1;
		}
		opt[ol++] = 8;
		opt[ol++] = 10;
		put32(opt + ol, c->tsval[side]);
		put32(opt + ol + 4, flags == 0x02 ? 0 : c->ts_seen[!side]);
		ol += 8;
		c->ts_seen[side] = c->tsval[side];
		c->tsval[side] += 3;
	}
	if (op->mss) {
		opt[ol++] = 1;			/* window scale 7 */
		opt[ol++] = 3;
		opt[ol++] = 3;
		opt[ol++] = 7;
	}
	l4_len = 20 + ol + payload;
	if (op->dstopts)
		ext = 8;
	ihl = ip_header(c->family, c->addr[side], c->addr[!side],
			ext ? 60 : IPPROTO_TCP, ext + l4_len, op->len_zero);
	if (ext) {
		memset(ipbuf + ihl, 0, 8);
		ipbuf[ihl] = IPPROTO_TCP;
		ipbuf[ihl + 2] = 1;		/* PadN, 4 bytes */
		ipbuf[ihl + 3] = 4;
	}
	t = ipbuf + ihl + ext;
	memset(t, 0, 20);
	put16(t, c->port[side]);
	put16(t + 2, c->port[!side]);
	put32(t + 4, c->seq[side]);
	put32(t + 8, flags & 0x10 ? c->seq[!side] : 0);
	t[12] = (20 + ol) / 4 << 4;
	t[13] = flags;
	put16(t + 14, flags & 0x02 ? 64240 : 502);
	memcpy(t + 20, opt, ol);
	if (ihl + ext + l4_len > MAX_FRAME - 64)
		die("segment too large");
	l4_finish(c->family, c->addr[side], c->addr[!side], IPPROTO_TCP,
		  t, 20 + ol, payload, t + 16);
	c->seq[side] += payload + !!(flags & 0x03);

	out_next(o);
	tally_l4(o, c->family, IPPROTO_TCP, c->addr[side], c->addr[!side],
		 c->port[side], c->port[!side], payload, flags);
	out_ip(o, ipbuf, ihl + ext + l4_len);
}

/*
 * SYN, SYN-ACK and ACK; each side's MSS option less 12 bytes of timestamp
 * option is what the other side's data may carry (RFC 7323, 879).
 */
static void conv_handshake(struct conv *c, uint16_t cmss, uint16_t smss,
			   bool ts)
{
	struct tcp_opts op = { .ts = ts };
	struct dir_tally *d;
	int side;

	c->ts = ts;
	c->syn_mss[C2S] = cmss;
	c->syn_mss[S2C] = smss;
	if (c->o->link == LINK_SLL || c->o->link == LINK_SLL2)
		c->o->sll_type = 4;		/* PACKET_OUTGOING */
	op.mss = cmss;
	conv_seg(c, C2S, 0x02, 0, &op);
	if (c->o->link == LINK_SLL || c->o->link == LINK_SLL2)
		c->o->sll_type = 0;		/* PACKET_HOST */
	op.mss = smss;
	conv_seg(c, S2C, 0x12, 0, &op);
	op.mss = 0;
	if (c->o->link == LINK_SLL || c->o->link == LINK_SLL2)
		c->o->sll_type = 4;
	conv_seg(c, C2S, 0x10, 0, &op);
	for (side = C2S; side <= S2C; side++) {
		d = dir_get(c->o, c->family, IPPROTO_TCP, c->addr[side],
			    c->addr[!side], c->port[side], c->port[!side]);
		d->mss = c->syn_mss[!side] - (ts ? 12 : 0);
	}
}

static void conv_side(struct conv *c, int side)
{
	if (c->o->link == LINK_SLL || c->o->link == LINK_SLL2)
		c->o->sll_type = side == C2S ? 4 : 0;
}

/* n data segments of size bytes from side (ACK|PSH). */
static void conv_data(struct conv *c, int side, uint32_t size, int n)
{
	struct tcp_opts op = { .ts = c->ts };

	conv_side(c, side);
	while (n-- > 0)
		conv_seg(c, side, 0x18, size, &op);
}

/* A data segment with a special shape (extension header, length 0...). */
static void conv_data_op(struct conv *c, int side, uint8_t flags, uint32_t size,
			 struct tcp_opts op)
{
	op.ts = c->ts;
	conv_side(c, side);
	conv_seg(c, side, flags, size, &op);
}

/* n pure ACKs from side. */
static void conv_ack(struct conv *c, int side, int n)
{
	struct tcp_opts op = { .ts = c->ts };

	conv_side(c, side);
	while (n-- > 0)
		conv_seg(c, side, 0x10, 0, &op);
}

/* FIN from the client, FIN from the server, last ACK. */
static void conv_close(struct conv *c)
{
	struct tcp_opts op = { .ts = c->ts };

	conv_side(c, C2S);
	conv_seg(c, C2S, 0x11, 0, &op);
	conv_side(c, S2C);
	conv_seg(c, S2C, 0x11, 0, &op);
	conv_side(c, C2S);
	conv_seg(c, C2S, 0x10, 0, &op);
}

/* One UDP datagram of size payload bytes. */
static void udp(struct out *o, int family, const char *src, const char *dst,
		uint16_t sport, uint16_t dport, uint32_t size)
{
	uint8_t s[16], d[16], *u;
	uint32_t ihl;

	if (inet_pton(family, src, s) != 1 || inet_pton(family, dst, d) != 1)
		die("bad address %s or %s", src, dst);
	ihl = ip_header(family, s, d, IPPROTO_UDP, 8 + size, false);
	u = ipbuf + ihl;
	put16(u, sport);
	put16(u + 2, dport);
	put16(u + 4, 8 + size);
	l4_finish(family, s, d, IPPROTO_UDP, u, 8, size, u + 6);
	if (o->link == LINK_SLL || o->link == LINK_SLL2)
		o->sll_type = 4;
	out_next(o);
	tally_l4(o, family, IPPROTO_UDP, s, d, sport, dport, size, 0);
	out_ip(o, ipbuf, ihl + 8 + size);
}

/* An ICMP or ICMPv6 echo request or reply (not TCP or UDP). */
static void icmp_echo(struct out *o, int family, const char *src,
		      const char *dst, bool reply)
{
	uint8_t s[16], d[16], *m;
	uint32_t ihl, i;
	uint8_t proto = family == AF_INET ? IPPROTO_ICMP : IPPROTO_ICMPV6;

	if (inet_pton(family, src, s) != 1 || inet_pton(family, dst, d) != 1)
		die("bad address %s or %s", src, dst);
	ihl = ip_header(family, s, d, proto, 8 + 32, false);
	m = ipbuf + ihl;
	memset(m, 0, 8);
	if (family == AF_INET)
		m[0] = reply ? 0 : 8;
	else
		m[0] = reply ? 129 : 128;
	put16(m + 4, 0x4242);
	put16(m + 6, 1);
	for (i = 0; i < 32; i++)
		m[8 + i] = payload_byte(i);
	if (family == AF_INET)
		put16(m + 2, csum_fold(csum_add(0, m, 40)));
	else
		l4_finish(family, s, d, proto, m, 40, 0, m + 2);
	out_next(o);
	tally_bad(o, &o->other_proto);
	out_ip(o, ipbuf, ihl + 40);
}

/* A non-first fragment of a UDP datagram: no transport header to read. */
static void fragment(struct out *o, int family, const char *src,
		     const char *dst, uint32_t offset, uint32_t len)
{
	uint8_t s[16], d[16], *p;
	uint32_t ihl, i;

	if (inet_pton(family, src, s) != 1 || inet_pton(family, dst, d) != 1)
		die("bad address %s or %s", src, dst);
	if (family == AF_INET) {
		ihl = ip_header(family, s, d, IPPROTO_UDP, len, false);
		put16(ipbuf + 6, offset / 8);	/* no DF, no MF: the last one */
		put16(ipbuf + 10, 0);
		put16(ipbuf + 10, csum_fold(csum_add(0, ipbuf, 20)));
	} else {
		ihl = ip_header(family, s, d, 44, 8 + len, false);
		p = ipbuf + ihl;
		memset(p, 0, 8);
		p[0] = IPPROTO_UDP;
		put16(p + 2, offset);	/* 8-byte units << 3, M = 0 */
		put32(p + 4, 0xf00d);
		ihl += 8;
	}
	for (i = 0; i < len; i++)
		ipbuf[ihl + i] = payload_byte(offset + i);
	out_next(o);
	tally_bad(o, &o->fragments);
	out_ip(o, ipbuf, ihl + len);
}

static void arp(struct out *o, bool reply)
{
	uint8_t a[28];

	put16(a, 1);
	put16(a + 2, 0x0800);
	a[4] = 6;
	a[5] = 4;
	put16(a + 6, reply ? 2 : 1);
	memcpy(a + 8, "\x02\x00\x00\x00\x00\x01", 6);
	memcpy(a + 14, "\xc6\x12\x00\x01", 4);
	memcpy(a + 18, reply ? "\x02\x00\x00\x00\x00\x02" : "\0\0\0\0\0\0", 6);
	memcpy(a + 24, "\xc6\x12\x00\x02", 4);
	out_eth_other(o, 0x0806, a, sizeof(a));
}

/* --- the files ------------------------------------------------------------ */

#define V4C "198.18.0.1"
#define V4S "198.18.0.2"
#define V6C "fd74:7400::1"
#define V6S "fd74:7400::2"

static void file_en10mb_v4(const char *dir)
{
	struct out o;
	struct conv c;

	out_open(&o, dir, "en10mb-v4.pcap", LINK_ETH, DLT_EN10MB);
	conv_init(&c, &o, AF_INET, V4C, V4S, 40001, 5001);
	conv_handshake(&c, 1460, 1460, true);
	conv_data(&c, C2S, 1, 3);
	conv_ack(&c, S2C, 1);
	conv_data(&c, C2S, 100, 2);
	conv_data(&c, C2S, 1448, 5);
	conv_ack(&c, S2C, 2);
	udp(&o, AF_INET, V4C, V4S, 40002, 53, 33);
	conv_data(&c, C2S, 2896, 2);
	udp(&o, AF_INET, V4S, V4C, 53, 40002, 49);
	conv_data(&c, C2S, 4345, 1);
	conv_ack(&c, S2C, 1);
	conv_data(&c, S2C, 100, 1);
	conv_ack(&c, C2S, 1);
	udp(&o, AF_INET, V4C, V4S, 40002, 53, 33);
	conv_close(&c);
	out_close(&o);
}

static void file_en10mb_v6(const char *dir)
{
	struct out o;
	struct conv c;

	out_open(&o, dir, "en10mb-v6.pcap", LINK_ETH, DLT_EN10MB);
	conv_init(&c, &o, AF_INET6, V6C, V6S, 40101, 5001);
	/* unequal MSS options: each direction takes its peer's */
	conv_handshake(&c, 1440, 1220, true);
	conv_data(&c, C2S, 1, 1);
	conv_data(&c, C2S, 100, 3);
	conv_data_op(&c, C2S, 0x18, 100, (struct tcp_opts){ .dstopts = true });
	conv_data(&c, C2S, 1208, 3);
	conv_ack(&c, S2C, 1);
	icmp_echo(&o, AF_INET6, V6C, V6S, false);
	conv_data(&c, C2S, 2416, 1);
	conv_data(&c, S2C, 1428, 2);
	fragment(&o, AF_INET6, V6S, V6C, 1448, 600);
	conv_data(&c, S2C, 2856, 1);
	conv_data(&c, S2C, 4285, 1);
	conv_ack(&c, C2S, 2);
	udp(&o, AF_INET6, V6C, V6S, 40102, 53, 61);
	conv_close(&c);
	out_close(&o);
}

static void file_vlan(const char *dir)
{
	struct out o;
	struct conv c;

	out_open(&o, dir, "vlan.pcap", LINK_ETH, DLT_EN10MB);
	o.vlan_tags = 1;
	arp(&o, false);
	conv_init(&c, &o, AF_INET, V4C, V4S, 40201, 5001);
	conv_handshake(&c, 1460, 1460, true);
	conv_data(&c, C2S, 1448, 4);
	conv_ack(&c, S2C, 2);
	o.vlan_tags = 2;		/* the one 802.1ad + 802.1Q frame */
	conv_data(&c, C2S, 2896, 1);
	o.vlan_tags = 1;
	conv_data(&c, C2S, 1, 2);
	conv_data(&c, S2C, 100, 3);
	udp(&o, AF_INET6, V6C, V6S, 40202, 5353, 77);
	conv_close(&c);
	out_close(&o);
}

/*
 * Linux cooked capture of a connection without timestamps: MSS is the
 * option itself; frames received short carry Ethernet padding, which the
 * payload size must not include.
 */
static void file_sll(const char *dir)
{
	struct out o;
	struct conv c;

	out_open(&o, dir, "sll.pcap", LINK_SLL, DLT_LINUX_SLL);
	conv_init(&c, &o, AF_INET, V4C, V4S, 40301, 5001);
	conv_handshake(&c, 1460, 1460, false);
	o.pad = 6;
	conv_data(&c, S2C, 1, 1);
	conv_data(&c, C2S, 1, 4);
	o.pad = 6;
	conv_ack(&c, S2C, 1);
	conv_data(&c, C2S, 1460, 3);
	conv_data(&c, C2S, 2920, 1);
	conv_data(&c, C2S, 4381, 1);
	o.pad = 6;
	conv_ack(&c, S2C, 1);
	o.pad = 6;
	conv_ack(&c, S2C, 1);
	udp(&o, AF_INET6, V6C, V6S, 40302, 53, 45);
	conv_close(&c);
	out_close(&o);
}

static void file_sll2(const char *dir)
{
	struct out o;
	struct conv c;

	out_open(&o, dir, "sll2.pcap", LINK_SLL2, DLT_LINUX_SLL2);
	conv_init(&c, &o, AF_INET6, V6C, V6S, 40401, 5001);
	conv_handshake(&c, 1440, 1440, true);
	conv_data(&c, C2S, 1428, 2);
	udp(&o, AF_INET, V4C, V4S, 40402, 53, 40);
	conv_data(&c, C2S, 2856, 3);
	udp(&o, AF_INET, V4C, V4S, 40402, 53, 40);
	conv_ack(&c, S2C, 1);
	conv_data(&c, C2S, 100, 1);
	conv_data(&c, S2C, 1, 2);
	udp(&o, AF_INET, V4C, V4S, 40402, 53, 40);
	conv_close(&c);
	out_close(&o);
}

static void file_raw_v4(const char *dir)
{
	struct out o;
	struct conv c;

	out_open(&o, dir, "raw-v4.pcap", LINK_RAW, DLT_RAW);
	conv_init(&c, &o, AF_INET, V4C, V4S, 40501, 5001);
	conv_handshake(&c, 1460, 1460, true);
	conv_data(&c, C2S, 1448, 6);
	conv_ack(&c, S2C, 3);
	conv_data(&c, C2S, 4345, 2);
	conv_data(&c, S2C, 1, 1);
	/* the last byte travels with the FIN: a data segment, not control */
	conv_data_op(&c, C2S, 0x19, 1, (struct tcp_opts){ 0 });
	conv_ack(&c, S2C, 1);
	out_close(&o);
}

static void file_raw_v6(const char *dir)
{
	struct out o;
	struct conv c;

	out_open(&o, dir, "raw-v6.pcap", LINK_IPV6, DLT_IPV6);
	conv_init(&c, &o, AF_INET6, V6C, V6S, 40601, 5001);
	conv_handshake(&c, 1440, 1440, true);
	conv_data(&c, C2S, 1428, 1);
	conv_data(&c, C2S, 100, 5);
	conv_ack(&c, S2C, 1);
	conv_data(&c, S2C, 2856, 2);
	conv_ack(&c, C2S, 1);
	conv_close(&c);
	out_close(&o);
}

/* macOS lo0: DLT_NULL, family in host order, AF_INET6 = 30. */
static void file_null(const char *dir)
{
	struct out o;
	struct conv c, c6;

	out_open(&o, dir, "null.pcap", LINK_NULL, DLT_NULL);
	o.bsd_inet6 = 30;
	conv_init(&c, &o, AF_INET, "127.0.0.1", "127.0.0.1", 40701, 5001);
	conv_handshake(&c, 65495, 65495, true);
	conv_data(&c, C2S, 65483, 2);
	conv_ack(&c, S2C, 1);
	conv_data(&c, C2S, 1, 1);
	conv_data(&c, S2C, 100, 1);
	conv_init(&c6, &o, AF_INET6, "::1", "::1", 40702, 5001);
	conv_handshake(&c6, 65476, 65476, true);
	conv_data(&c6, C2S, 100, 2);
	conv_data(&c, C2S, 32768, 1);
	conv_ack(&c6, S2C, 1);
	conv_close(&c);
	out_close(&o);
}

/* OpenBSD lo0: DLT_LOOP, family in network order, AF_INET6 = 24. */
static void file_loop(const char *dir)
{
	struct out o;
	struct conv c;

	out_open(&o, dir, "loop.pcap", LINK_LOOP, DLT_LOOP);
	o.bsd_inet6 = 24;
	conv_init(&c, &o, AF_INET, "10.0.0.1", "10.0.0.2", 40801, 5001);
	conv_handshake(&c, 1460, 1460, true);
	conv_data(&c, C2S, 1448, 2);
	conv_data(&c, C2S, 2896, 2);
	udp(&o, AF_INET6, V6C, V6S, 40802, 9, 512);
	conv_data(&c, C2S, 4345, 3);
	conv_ack(&c, S2C, 2);
	udp(&o, AF_INET6, V6C, V6S, 40802, 9, 512);
	conv_data(&c, S2C, 100, 2);
	conv_close(&c);
	out_close(&o);
}

static void file_pcapng(const char *dir)
{
	struct out o;
	struct conv c, c6;

	out_open(&o, dir, "capture.pcapng", LINK_ETH, DLT_EN10MB);
	conv_init(&c, &o, AF_INET, V4C, V4S, 40901, 5001);
	conv_init(&c6, &o, AF_INET6, V6C, V6S, 40902, 5001);
	conv_handshake(&c, 1460, 1460, true);
	conv_handshake(&c6, 1440, 1440, true);
	conv_data(&c, C2S, 1448, 4);
	conv_data(&c6, C2S, 1428, 3);
	conv_data(&c, C2S, 1, 2);
	conv_ack(&c, S2C, 1);
	conv_data(&c6, C2S, 4285, 1);
	udp(&o, AF_INET, V4C, V4S, 40903, 53, 128);
	conv_data(&c, C2S, 1448, 3);
	conv_data(&c, C2S, 2896, 1);
	conv_data(&c6, S2C, 1, 3);
	conv_data(&c, S2C, 100, 2);
	conv_close(&c6);
	conv_close(&c);
	out_close(&o);
}

/*
 * Everything a reader skips, around two connections on ports 5001 and
 * 5002 (for --port and BPF filters) and one caught mid-stream (no SYN: MSS
 * unknown) that ends with a reset.
 */
static void file_mixed(const char *dir)
{
	static const uint8_t lldp[] = { 0x02, 0x07, 0x04, 0x02, 0, 0, 0, 0, 1,
					0x04, 0x03, 0x05, 'e', '0', 0, 0 };
	struct out o;
	struct conv a, b, m;
	uint32_t ihl, i;
	uint8_t s[4], d[4];

	out_open(&o, dir, "mixed.pcap", LINK_ETH, DLT_EN10MB);
	arp(&o, false);
	arp(&o, true);
	conv_init(&a, &o, AF_INET, V4C, V4S, 41001, 5001);
	conv_init(&b, &o, AF_INET, V4C, V4S, 41002, 5002);
	conv_init(&m, &o, AF_INET, "198.18.0.3", V4S, 41003, 5003);
	conv_handshake(&a, 1460, 1460, true);
	icmp_echo(&o, AF_INET, V4C, V4S, false);
	icmp_echo(&o, AF_INET, V4S, V4C, true);
	conv_handshake(&b, 1460, 1400, true);
	conv_data(&a, C2S, 1448, 2);
	conv_data(&b, C2S, 1388, 3);
	conv_data(&m, C2S, 100, 2);
	out_eth_other(&o, 0x88cc, lldp, sizeof(lldp));
	/* a segment of connection a cut off 6 bytes into its TCP header */
	o.caplen_cut = 14 + 20 + 6;
	conv_data(&a, C2S, 1448, 1);
	udp(&o, AF_INET, V4C, V4S, 41004, 53, 40);
	udp(&o, AF_INET, V4S, V4C, 53, 41004, 56);
	fragment(&o, AF_INET, V4C, V4S, 1480, 520);
	conv_data(&b, S2C, 100, 2);
	conv_data(&a, S2C, 1, 4);
	conv_data(&m, C2S, 1448, 1);

	/* IHL 3: a header of 12 bytes, below the 20 every IPv4 header has */
	inet_pton(AF_INET, V4C, s);
	inet_pton(AF_INET, V4S, d);
	ihl = ip_header(AF_INET, s, d, IPPROTO_TCP, 40, false);
	ipbuf[0] = 0x43;
	put16(ipbuf + 10, 0);
	put16(ipbuf + 10, csum_fold(csum_add(0, ipbuf, 12)));
	for (i = 0; i < 40; i++)
		ipbuf[ihl + i] = payload_byte(i);
	out_next(&o);
	tally_bad(&o, &o.malformed);
	out_ip(&o, ipbuf, ihl + 40);

	conv_ack(&a, S2C, 1);
	conv_ack(&b, S2C, 1);
	conv_data_op(&m, S2C, 0x04, 0, (struct tcp_opts){ 0 });
	conv_close(&b);
	conv_close(&a);
	out_close(&o);
}

/*
 * Super-segments as a capture on the sender shows them: 45 MSS with a real
 * IPv4 total length, and BIG TCP (RFC 2675's idea, Linux 6.3+ for IPv4)
 * with IPv4 total length 0 or IPv6 payload length 0 and the size only in
 * the wire length.
 */
static void file_bigtcp(const char *dir)
{
	const struct tcp_opts big = { .len_zero = true };
	struct out o;
	struct conv c, c6;

	out_open(&o, dir, "bigtcp.pcap", LINK_ETH, DLT_EN10MB);
	conv_init(&c, &o, AF_INET, V4C, V4S, 42001, 5001);
	conv_handshake(&c, 1460, 1460, true);
	conv_data(&c, C2S, 65160, 2);
	conv_data_op(&c, C2S, 0x18, 144800, big);
	conv_ack(&c, S2C, 1);
	conv_data_op(&c, C2S, 0x18, 185344, big);
	conv_data(&c, C2S, 1448, 1);
	conv_ack(&c, S2C, 1);
	conv_init(&c6, &o, AF_INET6, V6C, V6S, 42002, 5001);
	conv_handshake(&c6, 1440, 1440, true);
	conv_data_op(&c6, C2S, 0x18, 142800, big);
	conv_data(&c6, C2S, 64260, 1);
	conv_ack(&c6, S2C, 1);
	out_close(&o);
}

/* A good capture whose file ends in the middle of packet 9's bytes. */
static void file_truncated(const char *dir)
{
	struct out o;
	struct conv c;
	long off = 0;

	out_open(&o, dir, "truncated.pcap", LINK_ETH, DLT_EN10MB);
	o.cut = 9;
	conv_init(&c, &o, AF_INET, V4C, V4S, 43001, 5001);
	conv_handshake(&c, 1460, 1460, true);
	conv_data(&c, C2S, 1448, 2);
	conv_ack(&c, S2C, 1);
	conv_data(&c, C2S, 2896, 1);
	conv_data(&c, S2C, 100, 1);
	if (pcap_dump_flush(o.dumper) == 0)
		off = pcap_dump_ftell(o.dumper);
	conv_data(&c, C2S, 4345, 2);
	conv_close(&c);
	out_close(&o);
	if (off <= 0 || truncate(o.path, off + 16 + 50))
		die("%s: cannot truncate", o.path);
}

/* Six good packets, then a record header claiming 0x7fffffff bytes. */
static void file_badrecord(const char *dir)
{
	struct out o;
	struct conv c;
	uint32_t h[4] = { TS_BASE + 1, 0, 0x7fffffff, 0x7fffffff };
	FILE *f;

	out_open(&o, dir, "badrecord.pcap", LINK_ETH, DLT_EN10MB);
	o.cut = 7;
	conv_init(&c, &o, AF_INET, V4C, V4S, 43101, 5001);
	conv_handshake(&c, 1460, 1460, true);
	conv_data(&c, C2S, 100, 2);
	conv_ack(&c, S2C, 1);
	if (pcap_dump_flush(o.dumper))
		die("%s: flush failed", o.path);
	f = pcap_dump_file(o.dumper);
	if (fwrite(h, sizeof(h), 1, f) != 1)
		die("%s: %s", o.path, strerror(errno));
	out_next(&o);			/* the bad record is packet 7 */
	conv_data(&c, C2S, 1448, 2);
	out_close(&o);
}

/* A pcap header with a wrong magic number, then one good record. */
static void file_badheader(const char *dir)
{
	static const uint32_t hdr[6] = { 0x0badcafe, 0x00040002, 0, 0,
					 SNAPLEN, DLT_EN10MB };
	uint32_t rec[4] = { TS_BASE, 0, 60, 60 };
	char path[4096];
	uint8_t body[60];
	FILE *f;

	snprintf(path, sizeof(path), "%s/badheader.pcap", dir);
	f = fopen(path, "wb");
	if (!f)
		die("%s: %s", path, strerror(errno));
	memset(body, 0, sizeof(body));
	memcpy(body, "\xff\xff\xff\xff\xff\xff\x02\x00\x00\x00\x00\x01\x08\x06",
	       14);
	if (fwrite(hdr, sizeof(hdr), 1, f) != 1 ||
	    fwrite(rec, sizeof(rec), 1, f) != 1 ||
	    fwrite(body, sizeof(body), 1, f) != 1 || fclose(f))
		die("%s: %s", path, strerror(errno));
	fprintf(manifest, "\nbadheader.pcap open-error\n");
}

/* A link type the reader does not parse (802.11): refused when opened. */
static void file_ieee802_11(const char *dir)
{
	static const uint8_t wifi[] = {
		0x08, 0x01, 0x2c, 0x00,			/* data, to DS */
		0x02, 0x00, 0x00, 0x00, 0x00, 0x10,	/* BSSID */
		0x02, 0x00, 0x00, 0x00, 0x00, 0x01,	/* source */
		0x02, 0x00, 0x00, 0x00, 0x00, 0x02,	/* destination */
		0x10, 0x00,				/* sequence */
		0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x06,	/* LLC: ARP */
	};
	struct out o;

	out_open(&o, dir, "ieee802-11.pcap", LINK_RAW, DLT_IEEE802_11);
	out_next(&o);
	out_frame(&o, wifi, sizeof(wifi));
	pcap_dump_close(o.dumper);
	pcap_close(o.dead);
	fprintf(manifest, "\nieee802-11.pcap open-error\n");
}

int main(int argc, char **argv)
{
	char path[4096];

	if (argc != 2) {
		fprintf(stderr, "usage: mkpcap DIR\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/expected", argv[1]);
	manifest = fopen(path, "w");
	if (!manifest)
		die("%s: %s", path, strerror(errno));
	fputs("# What tests/tools/mkpcap wrote into each capture; regenerate\n"
	      "# with `tests/tools/mkpcap tests/data/pcap`.  One fact a line:\n"
	      "#   FILE format pcap|pcapng, dlt N (pcap_datalink), packets N\n"
	      "#     (records readable), counted N (TCP/UDP packets in\n"
	      "#     flows), not-ip N, other-proto N, fragments N, short N,\n"
	      "#     malformed N, first-bad N (number of the first short or\n"
	      "#     malformed packet; 0 none), error-packet N (reading stops\n"
	      "#     at packet N), open-error, directions N\n"
	      "#   FILE SRC>DST proto tcp|udp, first N (its first packet),\n"
	      "#     packets N, acks N, ctl N, data N, bytes N, mss N (the\n"
	      "#     peer's SYN option, less 12 with timestamps; 0 unknown),\n"
	      "#     size SIZE COUNT (one line a size)\n", manifest);
	file_en10mb_v4(argv[1]);
	file_en10mb_v6(argv[1]);
	file_vlan(argv[1]);
	file_sll(argv[1]);
	file_sll2(argv[1]);
	file_raw_v4(argv[1]);
	file_raw_v6(argv[1]);
	file_null(argv[1]);
	file_loop(argv[1]);
	file_pcapng(argv[1]);
	file_mixed(argv[1]);
	file_bigtcp(argv[1]);
	file_truncated(argv[1]);
	file_badrecord(argv[1]);
	file_badheader(argv[1]);
	file_ieee802_11(argv[1]);
	if (fclose(manifest))
		die("%s: %s", path, strerror(errno));
	return 0;
}
