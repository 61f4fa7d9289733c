/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pktparse.h - from a captured frame to its IP addresses, ports and payload size. */
#ifndef TT_PKTPARSE_H
#define TT_PKTPARSE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Link types (pcap's LINKTYPE_/DLT_ numbers) pkt_parse understands:
 * DLT_EN10MB (with any number of 802.1Q / 802.1ad tags), DLT_LINUX_SLL,
 * DLT_LINUX_SLL2, DLT_RAW (both of its numbers, 12 and 14, and
 * LINKTYPE_RAW 101), LINKTYPE_IPV4 (228), LINKTYPE_IPV6 (229), DLT_NULL
 * and DLT_LOOP (BSD loopback, family in host or network order).
 */
bool pkt_dlt_supported(int dlt);
/* A name for a link type ("EN10MB", "LINUX_SLL2"...), from libpcap if it
 * knows one, else "DLT n" written into buf. */
const char *pkt_dlt_name(int dlt, char *buf, unsigned len);

struct pkt_info {
	int family;			/* AF_INET or AF_INET6 */
	uint8_t proto;			/* IPPROTO_TCP or IPPROTO_UDP */
	uint8_t src[16], dst[16];	/* IPv4 addresses use the first 4 bytes */
	uint16_t sport, dport;		/* host order */
	uint32_t payload;		/* TCP/UDP payload bytes, from the headers */
	uint8_t tcp_flags;		/* SEG_* bits of seghist.h; 0 for UDP */
	uint16_t mss_opt;		/* MSS option of a SYN; 0 if none or not captured */
	bool ts_opt;			/* a timestamp option was seen (TCP) */
};

enum pkt_verdict {
	PKT_OK,				/* pi filled */
	PKT_NOT_IP,			/* ARP, LLDP, other ethertypes/families */
	PKT_OTHER_PROTO,		/* IP but not TCP or UDP (ICMP, ...) */
	PKT_FRAGMENT,			/* a non-first IP fragment: no L4 header */
	PKT_SHORT,			/* the headers needed are cut off by the snaplen */
	PKT_MALFORMED,			/* a header that contradicts itself */
};

/*
 * Parse one frame of link type dlt: caplen bytes were captured of a frame
 * of wirelen bytes.  The payload size is IP length - IP header(s) - TCP
 * data offset (UDP: its length - 8).  IPv4 total length 0 (BIG TCP, TSO
 * seen on the sender) or an IPv6 jumbogram / payload length 0 fall back to
 * the wire length minus the headers (docs/HACKING.md, "Kernel facts").  IPv6
 * extension headers (hop-by-hop, routing, destination options, fragment)
 * are skipped.  On PKT_SHORT and PKT_MALFORMED, *why (if why is not NULL)
 * points to a static text naming what was wrong, e.g. "IPv4 header length
 * 12 bytes, below 20" or "TCP header cut off: 14 of 20 bytes captured";
 * the text is per thread and valid until that thread's next pkt_parse.
 */
enum pkt_verdict pkt_parse(int dlt, const uint8_t *frame, uint32_t caplen,
			   uint32_t wirelen, struct pkt_info *pi, const char **why);

/* "198.18.0.1:5001" or "[fd74:7400::1]:5001" into buf. */
const char *pkt_endpoint(int family, const uint8_t *addr, uint16_t port,
			 char *buf, unsigned len);

#endif
