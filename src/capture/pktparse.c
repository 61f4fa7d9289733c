// SPDX-License-Identifier: GPL-2.0-or-later
/* pktparse.c - link, IP and TCP/UDP headers of a frame, read within caplen. */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pcap/pcap.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "capture/pktparse.h"
#include "capture/seghist.h"

/*
 * Link type numbers as they appear in capture files (pcap-linktype(7)).
 * DLT_RAW is 12 on most systems and 14 on OpenBSD; a file says 101.
 */
#define LT_NULL		0
#define LT_EN10MB	1
#define LT_RAW_12	12
#define LT_RAW_14	14
#define LT_RAW		101
#define LT_LOOP		108
#define LT_LINUX_SLL	113
#define LT_IPV4		228
#define LT_IPV6		229
#define LT_LINUX_SLL2	276

#define ETH_IPV4	0x0800
#define ETH_IPV6	0x86dd

/* Address families a BSD loopback header may carry for IPv6. */
#define BSD_AF_INET	2
#define BSD_AF_INET6_BSD	24	/* NetBSD, OpenBSD */
#define BSD_AF_INET6_FREEBSD	28
#define BSD_AF_INET6_DARWIN	30
#define BSD_AF_INET6_LINUX	10

bool pkt_dlt_supported(int dlt)
{
	switch (dlt) {
	case LT_NULL:
	case LT_EN10MB:
	case LT_RAW_12:
	case LT_RAW_14:
	case LT_RAW:
	case LT_LOOP:
	case LT_LINUX_SLL:
	case LT_IPV4:
	case LT_IPV6:
	case LT_LINUX_SLL2:
		return true;
	default:
		return false;
	}
}

const char *pkt_dlt_name(int dlt, char *buf, unsigned len)
{
	const char *name = pcap_datalink_val_to_name(dlt);

	/* libpcap names DLT_ values; 101 and OpenBSD's 14 are raw IP too. */
	if (!name && (dlt == LT_RAW || dlt == LT_RAW_14))
		name = "RAW";
	if (name)
		return name;
	if (!buf || !len)
		return "DLT ?";
	snprintf(buf, len, "DLT %d", dlt);
	return buf;
}

const char *pkt_endpoint(int family, const uint8_t *addr, uint16_t port,
			 char *buf, unsigned len)
{
	char ip[INET6_ADDRSTRLEN];

	if (!buf || !len)
		return "";
	if (!inet_ntop(family, addr, ip, sizeof(ip)))
		snprintf(buf, len, "?:%u", port);
	else if (family == AF_INET6)
		snprintf(buf, len, "[%s]:%u", ip, port);
	else
		snprintf(buf, len, "%s:%u", ip, port);
	return buf;
}

static inline uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t rd32be(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint32_t rd32le(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | p[0];
}

/*
 * The text behind *why: formatted per thread, so it stays valid until the
 * same thread parses its next frame (callers copy it into their messages).
 */
static __thread char pkt_why_buf[128];

__attribute__((format(printf, 3, 4)))
static enum pkt_verdict pkt_bad(enum pkt_verdict v, const char **why,
				const char *fmt, ...)
{
	va_list ap;

	if (why) {
		va_start(ap, fmt);
		vsnprintf(pkt_why_buf, sizeof(pkt_why_buf), fmt, ap);
		va_end(ap);
		*why = pkt_why_buf;
	}
	return v;
}

/* Where the network header starts and which one it is. */
struct pkt_link {
	uint32_t off;			/* link header and VLAN tags */
	int family;			/* AF_INET, AF_INET6 or 0 (not IP) */
};

/* Follow an ethertype through 802.1Q/802.1ad tags to IPv4, IPv6 or not IP. */
static enum pkt_verdict pkt_ethertype(const uint8_t *frame, uint32_t caplen,
				      uint32_t type, struct pkt_link *l,
				      const char **why)
{
	while (type == 0x8100 || type == 0x88a8 || type == 0x9100) {
		if (caplen < l->off + 4)
			return pkt_bad(PKT_SHORT, why,
				       "VLAN tag cut off: %u of 4 bytes captured",
				       caplen - l->off);
		type = rd16(frame + l->off + 2);
		l->off += 4;
	}
	if (type == ETH_IPV4)
		l->family = AF_INET;
	else if (type == ETH_IPV6)
		l->family = AF_INET6;
	else
		return PKT_NOT_IP;
	return PKT_OK;
}

/* The IP version from the first nibble of a raw-IP frame. */
static enum pkt_verdict pkt_version(const uint8_t *frame, uint32_t caplen,
				    struct pkt_link *l, const char **why)
{
	if (caplen < 1)
		return pkt_bad(PKT_SHORT, why, "IP header cut off: 0 of 20 bytes captured");
	switch (frame[0] >> 4) {
	case 4:
		l->family = AF_INET;
		return PKT_OK;
	case 6:
		l->family = AF_INET6;
		return PKT_OK;
	default:
		return PKT_NOT_IP;
	}
}

/* A BSD loopback family, read in either byte order. */
static int pkt_bsd_family(uint32_t fam)
{
	switch (fam) {
	case BSD_AF_INET:
		return AF_INET;
	case BSD_AF_INET6_BSD:
	case BSD_AF_INET6_FREEBSD:
	case BSD_AF_INET6_DARWIN:
	case BSD_AF_INET6_LINUX:
		return AF_INET6;
	default:
		return 0;
	}
}

/* Find the network header behind the link header of type dlt. */
static enum pkt_verdict pkt_link(int dlt, const uint8_t *frame,
				 uint32_t caplen, struct pkt_link *l,
				 const char **why)
{
	l->off = 0;
	l->family = 0;
	switch (dlt) {
	case LT_EN10MB:
		if (caplen < 14)
			return pkt_bad(PKT_SHORT, why,
				       "Ethernet header cut off: %u of 14 bytes captured",
				       caplen);
		l->off = 14;
		return pkt_ethertype(frame, caplen, rd16(frame + 12), l, why);
	case LT_LINUX_SLL:
		if (caplen < 16)
			return pkt_bad(PKT_SHORT, why,
				       "Linux cooked header cut off: %u of 16 bytes captured",
				       caplen);
		l->off = 16;
		return pkt_ethertype(frame, caplen, rd16(frame + 14), l, why);
	case LT_LINUX_SLL2:
		if (caplen < 20)
			return pkt_bad(PKT_SHORT, why,
				       "Linux cooked v2 header cut off: %u of 20 bytes captured",
				       caplen);
		l->off = 20;
		return pkt_ethertype(frame, caplen, rd16(frame), l, why);
	case LT_RAW_12:
	case LT_RAW_14:
	case LT_RAW:
		return pkt_version(frame, caplen, l, why);
	case LT_IPV4:
		l->family = AF_INET;
		return PKT_OK;
	case LT_IPV6:
		l->family = AF_INET6;
		return PKT_OK;
	case LT_NULL:
	case LT_LOOP:
		/* NULL is host order, LOOP network order; files travel. */
		if (caplen < 4)
			return pkt_bad(PKT_SHORT, why,
				       "loopback header cut off: %u of 4 bytes captured",
				       caplen);
		l->off = 4;
		l->family = pkt_bsd_family(rd32le(frame));
		if (!l->family)
			l->family = pkt_bsd_family(rd32be(frame));
		return l->family ? PKT_OK : PKT_NOT_IP;
	default:
		return PKT_NOT_IP;
	}
}

/* What the network layer hands to the transport header. */
struct pkt_l4 {
	const uint8_t *p;		/* transport header */
	uint32_t avail;			/* bytes of it captured */
	uint32_t len;			/* with payload, per IP header */
	uint8_t proto;
	bool from_wire;			/* len is from the wire length */
};

/* IPv4: addresses, protocol and the transport length from total length. */
static enum pkt_verdict pkt_ipv4(const uint8_t *p, uint32_t avail,
				 uint32_t wire, struct pkt_info *pi,
				 struct pkt_l4 *l4, const char **why)
{
	uint32_t ihl, tot;

	if (avail < 20)
		return pkt_bad(PKT_SHORT, why,
			       "IPv4 header cut off: %u of 20 bytes captured",
			       avail);
	if (p[0] >> 4 != 4)
		return pkt_bad(PKT_MALFORMED, why,
			       "IPv4 header with version %u", p[0] >> 4);
	ihl = (p[0] & 0x0f) * 4u;
	if (ihl < 20)
		return pkt_bad(PKT_MALFORMED, why,
			       "IPv4 header length %u bytes, below 20", ihl);
	tot = rd16(p + 2);
	if (tot == 0) {
		/* BIG TCP / TSO seen on the sender: the wire says how much. */
		if (wire < ihl)
			return pkt_bad(PKT_MALFORMED, why,
				       "IPv4 total length 0 and wire length %u below its header length %u",
				       wire, ihl);
		tot = wire;
		l4->from_wire = true;
	} else if (tot < ihl) {
		return pkt_bad(PKT_MALFORMED, why,
			       "IPv4 total length %u below its header length %u",
			       tot, ihl);
	}
	pi->family = AF_INET;
	memcpy(pi->src, p + 12, 4);
	memcpy(pi->dst, p + 16, 4);
	pi->proto = p[9];
	if (rd16(p + 6) & 0x1fff)
		return PKT_FRAGMENT;
	if (avail < ihl)
		return pkt_bad(PKT_SHORT, why,
			       "IPv4 options cut off: %u of %u header bytes captured",
			       avail, ihl);
	l4->p = p + ihl;
	l4->avail = avail - ihl;
	l4->len = tot - ihl;
	l4->proto = p[9];
	return PKT_OK;
}

/* IPv6: the fixed header, then hop-by-hop, routing, fragment, dest options. */
static enum pkt_verdict pkt_ipv6(const uint8_t *p, uint32_t avail,
				 uint32_t wire, struct pkt_info *pi,
				 struct pkt_l4 *l4, const char **why)
{
	uint32_t plen, hlen;
	uint8_t nh;

	if (avail < 40)
		return pkt_bad(PKT_SHORT, why,
			       "IPv6 header cut off: %u of 40 bytes captured",
			       avail);
	if (p[0] >> 4 != 6)
		return pkt_bad(PKT_MALFORMED, why,
			       "IPv6 header with version %u", p[0] >> 4);
	plen = rd16(p + 4);
	if (plen == 0) {
		/* A jumbogram or BIG TCP: the wire says how much. */
		if (wire < 40)
			return pkt_bad(PKT_MALFORMED, why,
				       "IPv6 payload length 0 and wire length %u below 40",
				       wire);
		plen = wire - 40;
		l4->from_wire = true;
	}
	pi->family = AF_INET6;
	memcpy(pi->src, p + 8, 16);
	memcpy(pi->dst, p + 24, 16);
	nh = p[6];
	p += 40;
	avail -= 40;
	while (nh == IPPROTO_HOPOPTS || nh == IPPROTO_ROUTING ||
	       nh == IPPROTO_DSTOPTS || nh == IPPROTO_FRAGMENT) {
		if (avail < 8)
			return pkt_bad(PKT_SHORT, why,
				       "IPv6 extension header %u cut off: %u of 8 bytes captured",
				       nh, avail);
		if (nh == IPPROTO_FRAGMENT) {
			pi->proto = p[0];
			if (rd16(p + 2) & 0xfff8)
				return PKT_FRAGMENT;
			hlen = 8;
		} else {
			hlen = (p[1] + 1u) * 8;
		}
		if (hlen > plen)
			return pkt_bad(PKT_MALFORMED, why,
				       "IPv6 extension header %u of %u bytes beyond the payload length %u",
				       nh, hlen, plen);
		if (avail < hlen)
			return pkt_bad(PKT_SHORT, why,
				       "IPv6 extension header %u cut off: %u of %u bytes captured",
				       nh, avail, hlen);
		nh = p[0];
		p += hlen;
		avail -= hlen;
		plen -= hlen;
	}
	pi->proto = nh;
	l4->p = p;
	l4->avail = avail;
	l4->len = plen;
	l4->proto = nh;
	return PKT_OK;
}

/* Walk the captured TCP options (up to end) for a SYN's MSS and timestamps. */
static void pkt_tcp_options(const uint8_t *t, uint32_t end, struct pkt_info *pi)
{
	uint32_t i = 20, olen;

	while (i < end) {
		if (t[i] == 0)
			break;
		if (t[i] == 1) {
			i++;
			continue;
		}
		if (i + 1 >= end)
			break;
		olen = t[i + 1];
		if (olen < 2 || i + olen > end)
			break;
		if (t[i] == 2 && olen == 4 && (pi->tcp_flags & SEG_SYN))
			pi->mss_opt = rd16(t + i + 2);
		else if (t[i] == 8 && olen == 10)
			pi->ts_opt = true;
		i += olen;
	}
}

static enum pkt_verdict pkt_tcp(const struct pkt_l4 *l4, struct pkt_info *pi,
				const char **why)
{
	const uint8_t *t = l4->p;
	uint32_t doff;

	if (l4->avail < 20)
		return pkt_bad(PKT_SHORT, why,
			       "TCP header cut off: %u of 20 bytes captured",
			       l4->avail);
	doff = (t[12] >> 4) * 4u;
	if (doff < 20)
		return pkt_bad(PKT_MALFORMED, why,
			       "TCP data offset %u words, below 5", doff / 4);
	if (doff > l4->len)
		return pkt_bad(PKT_MALFORMED, why,
			       "TCP header of %u bytes beyond the IP payload length %u",
			       doff, l4->len);
	pi->sport = rd16(t);
	pi->dport = rd16(t + 2);
	pi->tcp_flags = t[13];
	pi->payload = l4->len - doff;
	/* Options the snaplen cut off are simply not found. */
	pkt_tcp_options(t, doff < l4->avail ? doff : l4->avail, pi);
	return PKT_OK;
}

static enum pkt_verdict pkt_udp(const struct pkt_l4 *l4, struct pkt_info *pi,
				const char **why)
{
	const uint8_t *u = l4->p;
	uint32_t ulen;

	if (l4->avail < 8)
		return pkt_bad(PKT_SHORT, why,
			       "UDP header cut off: %u of 8 bytes captured",
			       l4->avail);
	ulen = rd16(u + 4);
	/* RFC 2675: a jumbogram's UDP length is 0, the IP layer's counts. */
	if (ulen == 0 && l4->from_wire)
		ulen = l4->len;
	if (ulen < 8)
		return pkt_bad(PKT_MALFORMED, why,
			       "UDP length %u, below its 8-byte header", ulen);
	if (ulen > l4->len)
		return pkt_bad(PKT_MALFORMED, why,
			       "UDP length %u beyond the IP payload length %u",
			       ulen, l4->len);
	pi->sport = rd16(u);
	pi->dport = rd16(u + 2);
	pi->payload = ulen - 8;
	return PKT_OK;
}

enum pkt_verdict pkt_parse(int dlt, const uint8_t *frame, uint32_t caplen,
			   uint32_t wirelen, struct pkt_info *pi,
			   const char **why)
{
	struct pkt_link l;
	struct pkt_l4 l4 = { 0 };
	enum pkt_verdict v;
	uint32_t wire;

	memset(pi, 0, sizeof(*pi));
	v = pkt_link(dlt, frame, caplen, &l, why);
	if (v != PKT_OK)
		return v;
	wire = wirelen > l.off ? wirelen - l.off : 0;
	if (l.family == AF_INET)
		v = pkt_ipv4(frame + l.off, caplen - l.off, wire, pi, &l4, why);
	else
		v = pkt_ipv6(frame + l.off, caplen - l.off, wire, pi, &l4, why);
	if (v != PKT_OK)
		return v;
	switch (l4.proto) {
	case IPPROTO_TCP:
		return pkt_tcp(&l4, pi, why);
	case IPPROTO_UDP:
		return pkt_udp(&l4, pi, why);
	default:
		return PKT_OTHER_PROTO;
	}
}
