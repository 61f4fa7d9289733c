// SPDX-License-Identifier: GPL-2.0-or-later
/* test-pktparse.c - hand-built frames of every link type through pkt_parse. */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "capture/pktparse.h"
#include "capture/seghist.h"
#include "tap.h"

static const uint8_t v4_src[4] = { 198, 18, 0, 1 };
static const uint8_t v4_dst[4] = { 198, 18, 0, 2 };
static const uint8_t v6_src[16] = { 0xfd, 0x74, 0x74, 0, [15] = 1 };
static const uint8_t v6_dst[16] = { 0xfd, 0x74, 0x74, 0, [15] = 2 };

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/* An IPv4 header of ihl words (options are NOPs); returns its length. */
static size_t ip4(uint8_t *p, unsigned ihl, uint16_t tot, uint8_t proto,
		  uint16_t frag)
{
	memset(p, 0, ihl * 4);
	p[0] = 0x40 | ihl;
	put16(p + 2, tot);
	put16(p + 6, frag);
	p[8] = 64;
	p[9] = proto;
	memcpy(p + 12, v4_src, 4);
	memcpy(p + 16, v4_dst, 4);
	if (ihl > 5)
		memset(p + 20, 1, ihl * 4 - 20);
	return ihl * 4;
}

static size_t ip6(uint8_t *p, uint16_t plen, uint8_t nh)
{
	memset(p, 0, 40);
	p[0] = 0x60;
	put16(p + 4, plen);
	p[6] = nh;
	p[7] = 64;
	memcpy(p + 8, v6_src, 16);
	memcpy(p + 24, v6_dst, 16);
	return 40;
}

/* A TCP header with the given options, padded with NOPs to doff words. */
static size_t tcp(uint8_t *p, uint8_t flags, unsigned doff,
		  const uint8_t *opt, size_t optlen)
{
	memset(p, 0, doff * 4 > 20 ? doff * 4 : 20);
	put16(p, 5001);
	put16(p + 2, 40000);
	p[12] = doff << 4;
	p[13] = flags;
	put16(p + 14, 65535);
	if (doff > 5) {
		memset(p + 20, 1, doff * 4 - 20);
		memcpy(p + 20, opt, optlen);
	}
	return doff * 4 > 20 ? doff * 4 : 20;
}

static size_t udp(uint8_t *p, uint16_t len)
{
	memset(p, 0, 8);
	put16(p, 5001);
	put16(p + 2, 40000);
	put16(p + 4, len);
	return 8;
}

/* Link headers: each returns its length, the network header follows. */
static size_t eth(uint8_t *p, const uint16_t *types, unsigned n)
{
	unsigned i;

	memset(p, 0x02, 12);
	for (i = 0; i < n; i++) {
		put16(p + 12 + 4 * i, types[i]);
		if (i + 1 < n)
			put16(p + 14 + 4 * i, 100 + i);	/* TCI */
	}
	return 12 + 4 * (n - 1) + 2;
}

static size_t sll(uint8_t *p, uint16_t proto)
{
	memset(p, 0, 16);
	put16(p + 2, 1);		/* ARPHRD_ETHER */
	put16(p + 4, 6);
	memset(p + 6, 0x02, 6);
	put16(p + 14, proto);
	return 16;
}

static size_t sll2(uint8_t *p, uint16_t proto)
{
	memset(p, 0, 20);
	put16(p, proto);
	p[7] = 3;			/* ifindex */
	put16(p + 8, 1);
	p[11] = 6;
	memset(p + 12, 0x02, 6);
	return 20;
}

static size_t loopfam(uint8_t *p, uint32_t fam, int network_order)
{
	uint32_t v = network_order ? htonl(fam) : fam;

	memcpy(p, &v, 4);
	return 4;
}

/*
 * pkt_parse on an exact-size copy of the first caplen bytes, so a read
 * past caplen is a heap overflow AddressSanitizer reports.
 */
static enum pkt_verdict parse(int dlt, const uint8_t *f, uint32_t caplen,
			      uint32_t wirelen, struct pkt_info *pi,
			      const char **why)
{
	uint8_t *copy = malloc(caplen ? caplen : 1);
	enum pkt_verdict v;

	memcpy(copy, f, caplen);
	*why = NULL;
	v = pkt_parse(dlt, caplen ? copy : copy + 1, caplen, wirelen, pi, why);
	free(copy);
	return v;
}

static const uint8_t syn_opts[] = {
	2, 4, 0x05, 0xb4,			/* MSS 1460 */
	4, 2,					/* SACK permitted */
	8, 10, 0, 0, 0, 1, 0, 0, 0, 0,		/* timestamps */
	1,					/* NOP */
	3, 3, 7,				/* window scale */
};

static const uint8_t ts_opts[] = {
	1, 1, 8, 10, 0, 0, 0, 2, 0, 0, 0, 1,
};

/* IPv4 TCP segment with payload bytes behind a 32-byte TCP header. */
static size_t tcp4_packet(uint8_t *p, uint32_t payload)
{
	size_t n = ip4(p, 5, 20 + 32 + payload, IPPROTO_TCP, 0);

	n += tcp(p + n, SEG_ACK | 0x08, 8, ts_opts, sizeof(ts_opts));
	memset(p + n, 0xab, payload);
	return n + payload;
}

static size_t tcp6_packet(uint8_t *p, uint32_t payload)
{
	size_t n = ip6(p, 32 + payload, IPPROTO_TCP);

	n += tcp(p + n, SEG_ACK, 8, ts_opts, sizeof(ts_opts));
	memset(p + n, 0xab, payload);
	return n + payload;
}

struct link_case {
	const char *name;
	int dlt;
	size_t (*hdr)(uint8_t *p, int family);
};

static const uint16_t t_ip4[] = { 0x0800 }, t_ip6[] = { 0x86dd };
static const uint16_t t_vlan4[] = { 0x8100, 0x0800 };
static const uint16_t t_qinq6[] = { 0x88a8, 0x8100, 0x86dd };
static const uint16_t t_9100[] = { 0x9100, 0x8100, 0x0800 };

static size_t h_eth(uint8_t *p, int fam)
{
	return fam == AF_INET ? eth(p, t_ip4, 1) : eth(p, t_ip6, 1);
}

static size_t h_vlan(uint8_t *p, int fam)
{
	static const uint16_t t6[] = { 0x8100, 0x86dd };

	return fam == AF_INET ? eth(p, t_vlan4, 2) : eth(p, t6, 2);
}

static size_t h_qinq(uint8_t *p, int fam)
{
	return fam == AF_INET ? eth(p, t_9100, 3) : eth(p, t_qinq6, 3);
}

static size_t h_sll(uint8_t *p, int fam)
{
	return sll(p, fam == AF_INET ? 0x0800 : 0x86dd);
}

static size_t h_sll2(uint8_t *p, int fam)
{
	return sll2(p, fam == AF_INET ? 0x0800 : 0x86dd);
}

static size_t h_none(uint8_t *p, int fam)
{
	return 0;
}

static size_t h_null(uint8_t *p, int fam)
{
	return loopfam(p, fam == AF_INET ? 2 : 24, 0);
}

static size_t h_null_swapped(uint8_t *p, int fam)
{
	return loopfam(p, fam == AF_INET ? 2 : 28, 1);
}

static size_t h_loop(uint8_t *p, int fam)
{
	return loopfam(p, fam == AF_INET ? 2 : 30, 1);
}

static size_t h_loop_linux6(uint8_t *p, int fam)
{
	return loopfam(p, fam == AF_INET ? 2 : 10, 0);
}

static const struct link_case links[] = {
	{ "EN10MB", 1, h_eth },
	{ "EN10MB 802.1Q", 1, h_vlan },
	{ "EN10MB QinQ", 1, h_qinq },
	{ "LINUX_SLL", 113, h_sll },
	{ "LINUX_SLL2", 276, h_sll2 },
	{ "RAW 12", 12, h_none },
	{ "RAW 14", 14, h_none },
	{ "LINKTYPE_RAW 101", 101, h_none },
	{ "NULL host order", 0, h_null },
	{ "NULL swapped", 0, h_null_swapped },
	{ "LOOP", 108, h_loop },
	{ "LOOP family 10", 108, h_loop_linux6 },
};

static void every_link_type_yields_addresses_ports_and_payload(void)
{
	static uint8_t f[2048];
	unsigned i;

	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		const struct link_case *lc = &links[i];
		struct pkt_info pi;
		const char *why;
		size_t h, n;
		enum pkt_verdict v;

		ok(pkt_dlt_supported(lc->dlt), "%s is supported", lc->name);
		h = lc->hdr(f, AF_INET);
		n = h + tcp4_packet(f + h, 1448);
		/* snaplen 128: the size must come from the headers */
		v = parse(lc->dlt, f, 128, n, &pi, &why);
		ok(v == PKT_OK && pi.family == AF_INET &&
		   pi.proto == IPPROTO_TCP && pi.payload == 1448 &&
		   pi.sport == 5001 && pi.dport == 40000 &&
		   !memcmp(pi.src, v4_src, 4) && !memcmp(pi.dst, v4_dst, 4) &&
		   pi.tcp_flags == (SEG_ACK | 0x08) && pi.ts_opt &&
		   pi.mss_opt == 0,
		   "%s IPv4 TCP, 128 of %zu bytes: payload %u (verdict %d)",
		   lc->name, n, pi.payload, v);

		h = lc->hdr(f, AF_INET6);
		n = h + tcp6_packet(f + h, 1000);
		v = parse(lc->dlt, f, 128, n, &pi, &why);
		ok(v == PKT_OK && pi.family == AF_INET6 &&
		   pi.proto == IPPROTO_TCP && pi.payload == 1000 &&
		   pi.sport == 5001 && pi.dport == 40000 &&
		   !memcmp(pi.src, v6_src, 16) && !memcmp(pi.dst, v6_dst, 16),
		   "%s IPv6 TCP: payload %u (verdict %d)", lc->name,
		   pi.payload, v);
	}
	{
		struct pkt_info pi;
		const char *why;
		enum pkt_verdict v;
		size_t n = tcp4_packet(f, 200);

		v = parse(228, f, n, n, &pi, &why);
		ok(v == PKT_OK &&
		   pi.family == AF_INET && pi.payload == 200,
		   "LINKTYPE_IPV4 228: IPv4 TCP payload %u", pi.payload);
		n = tcp6_packet(f, 300);
		v = parse(229, f, n, n, &pi, &why);
		ok(v == PKT_OK &&
		   pi.family == AF_INET6 && pi.payload == 300,
		   "LINKTYPE_IPV6 229: IPv6 TCP payload %u", pi.payload);
	}
}

static void udp_payload_comes_from_its_length(void)
{
	enum pkt_verdict v;
	uint8_t f[256];
	struct pkt_info pi;
	const char *why;
	size_t n = eth(f, t_vlan4, 2);

	n += ip4(f + n, 5, 20 + 8 + 1200, IPPROTO_UDP, 0);
	n += udp(f + n, 8 + 1200);
	v = parse(1, f, n, n + 1200, &pi, &why);
	ok(v == PKT_OK &&
	   pi.proto == IPPROTO_UDP && pi.payload == 1200 &&
	   pi.sport == 5001 && pi.dport == 40000 && pi.tcp_flags == 0,
	   "VLAN IPv4 UDP: payload %u", pi.payload);

	n = sll2(f, 0x86dd);
	n += ip6(f + n, 8 + 1, IPPROTO_UDP);
	n += udp(f + n, 8 + 1);
	v = parse(276, f, n, n + 1, &pi, &why);
	ok(v == PKT_OK &&
	   pi.family == AF_INET6 && pi.payload == 1,
	   "SLL2 IPv6 UDP: payload %u", pi.payload);

	n = ip4(f, 5, 20 + 8 + 10, IPPROTO_UDP, 0);
	n += udp(f + n, 4);
	v = parse(101, f, n, n, &pi, &why);
	ok(v == PKT_MALFORMED && why &&
	   strstr(why, "UDP length 4"),
	   "UDP length 4 is malformed (%s)", why ? why : "no reason");
	n = ip4(f, 5, 20 + 8 + 10, IPPROTO_UDP, 0);
	n += udp(f + n, 8 + 11);
	v = parse(101, f, n, n, &pi, &why);
	ok(v == PKT_MALFORMED && why &&
	   strstr(why, "UDP length 19"),
	   "UDP length beyond the IP payload is malformed (%s)",
	   why ? why : "no reason");
}

static void syn_options_give_mss_and_timestamps(void)
{
	enum pkt_verdict v;
	uint8_t f[256];
	struct pkt_info pi;
	const char *why;
	size_t h = eth(f, t_ip4, 1), n, i;
	unsigned mss_end = 14 + 20 + 20 + 4, found = 0, bad = 0;

	n = h + ip4(f + h, 5, 20 + 40, IPPROTO_TCP, 0);
	n += tcp(f + n, SEG_SYN, 10, syn_opts, sizeof(syn_opts));
	v = parse(1, f, n, n, &pi, &why);
	ok(v == PKT_OK && pi.mss_opt == 1460 &&
	   pi.ts_opt && pi.payload == 0 && pi.tcp_flags == SEG_SYN,
	   "SYN: MSS %u, timestamps %d", pi.mss_opt, pi.ts_opt);

	/* Cut the options anywhere: PKT_OK, the MSS only when all captured. */
	for (i = 14 + 20 + 20; i < n; i++) {
		if (parse(1, f, i, n, &pi, &why) != PKT_OK || pi.payload != 0)
			bad++;
		if (pi.mss_opt == 1460)
			found++;
		if ((pi.mss_opt == 1460) != (i >= mss_end))
			bad++;
		if (pi.ts_opt != (i >= mss_end + 2 + 10))
			bad++;
	}
	ok(bad == 0 && found == n - mss_end,
	   "options cut by the snaplen are not found, not an error (%u bad)",
	   bad);

	n = h + ip4(f + h, 5, 20 + 40 + 100, IPPROTO_TCP, 0);
	n += tcp(f + n, SEG_ACK, 10, syn_opts, sizeof(syn_opts));
	v = parse(1, f, n, n + 100, &pi, &why);
	ok(v == PKT_OK && pi.mss_opt == 0 &&
	   pi.ts_opt && pi.payload == 100,
	   "an MSS option outside a SYN is ignored, timestamps are seen");

	{
		static const uint8_t broken[] = { 2, 0, 8, 10, 0, 0, 0, 0,
						  0, 0, 0, 0 };

		n = h + ip4(f + h, 5, 20 + 32, IPPROTO_TCP, 0);
		n += tcp(f + n, SEG_SYN, 8, broken, sizeof(broken));
		v = parse(1, f, n, n, &pi, &why);
		ok(v == PKT_OK &&
		   pi.mss_opt == 0 && !pi.ts_opt,
		   "an option of length 0 ends the walk without an error");
	}
	n = h + ip4(f + h, 5, 20 + 20, IPPROTO_TCP, 0);
	n += tcp(f + n, SEG_SYN | SEG_ACK, 5, NULL, 0);
	v = parse(1, f, n, n, &pi, &why);
	ok(v == PKT_OK && pi.mss_opt == 0 &&
	   !pi.ts_opt && pi.tcp_flags == (SEG_SYN | SEG_ACK),
	   "a SYN-ACK without options: no MSS, no timestamps");
}

static void big_tcp_takes_the_length_from_the_wire(void)
{
	enum pkt_verdict v;
	uint8_t f[256];
	struct pkt_info pi;
	const char *why;
	size_t n = eth(f, t_ip4, 1);

	n += ip4(f + n, 5, 0, IPPROTO_TCP, 0);
	n += tcp(f + n, SEG_ACK, 8, ts_opts, sizeof(ts_opts));
	v = parse(1, f, n, n + 65160, &pi, &why);
	ok(v == PKT_OK &&
	   pi.payload == 65160,
	   "IPv4 total length 0: payload from wirelen (%u)", pi.payload);
	v = parse(1, f, n, n + 130320, &pi, &why);
	ok(v == PKT_OK &&
	   pi.payload == 130320,
	   "IPv4 total length 0 beyond 64 KiB (BIG TCP): %u", pi.payload);

	n = eth(f, t_ip6, 1);
	n += ip6(f + n, 0, IPPROTO_TCP);
	n += tcp(f + n, SEG_ACK, 8, ts_opts, sizeof(ts_opts));
	v = parse(1, f, n, n + 190000, &pi, &why);
	ok(v == PKT_OK &&
	   pi.payload == 190000,
	   "IPv6 payload length 0: payload from wirelen (%u)", pi.payload);

	n = ip6(f, 0, IPPROTO_UDP);
	n += udp(f + n, 0);
	v = parse(229, f, n, n + 70000, &pi, &why);
	ok(v == PKT_OK && pi.payload == 70000,
	   "IPv6 jumbogram with UDP length 0 (RFC 2675): payload %u",
	   pi.payload);
	n = ip4(f, 5, 20 + 8, IPPROTO_UDP, 0);
	n += udp(f + n, 0);
	v = parse(228, f, n, n, &pi, &why);
	ok(v == PKT_MALFORMED && why && strstr(why, "UDP length 0"),
	   "UDP length 0 outside a jumbogram is malformed");

	n = ip4(f, 5, 0, IPPROTO_TCP, 0);
	n += tcp(f + n, SEG_ACK, 5, NULL, 0);
	v = parse(228, f, n, 30, &pi, &why);
	ok(v == PKT_MALFORMED && why,
	   "IPv4 total length 0 with a wire length under the headers is malformed (%s)",
	   why ? why : "no reason");
}

static void ipv6_extension_headers_are_skipped(void)
{
	enum pkt_verdict v;
	uint8_t f[256];
	struct pkt_info pi;
	const char *why;
	size_t n = eth(f, t_ip6, 1), ext;

	/* hop-by-hop (8) -> routing (16) -> fragment (8, first) -> TCP */
	n += ip6(f + n, 8 + 16 + 8 + 20 + 500, IPPROTO_HOPOPTS);
	ext = n;
	memset(f + n, 0, 32);
	f[n] = IPPROTO_ROUTING;
	f[n + 8] = IPPROTO_FRAGMENT;
	f[n + 9] = 1;
	f[n + 24] = IPPROTO_TCP;
	put16(f + n + 26, 0x0001);	/* offset 0, more fragments */
	n += 32;
	n += tcp(f + n, SEG_ACK, 5, NULL, 0);
	v = parse(1, f, n, n + 500, &pi, &why);
	ok(v == PKT_OK &&
	   pi.proto == IPPROTO_TCP && pi.payload == 500,
	   "hop-by-hop, routing and a first fragment skipped: payload %u",
	   pi.payload);

	put16(f + ext + 26, 185 << 3);
	v = parse(1, f, n, n + 500, &pi, &why);
	ok(v == PKT_FRAGMENT,
	   "IPv6 non-first fragment is PKT_FRAGMENT");

	n = ip6(f, 8 + 20, IPPROTO_DSTOPTS);
	memset(f + n, 0, 8);
	f[n] = IPPROTO_UDP;
	f[n + 1] = 3;			/* 32 bytes > payload length */
	n += 8;
	v = parse(229, f, n + 32, n + 32, &pi, &why);
	ok(v == PKT_MALFORMED && why &&
	   strstr(why, "extension"),
	   "extension header longer than the payload length is malformed (%s)",
	   why ? why : "no reason");
}

static void fragments_and_non_ip_are_told_apart(void)
{
	enum pkt_verdict v;
	uint8_t f[256];
	struct pkt_info pi;
	const char *why;
	size_t n = eth(f, t_ip4, 1);
	static const uint16_t t_arp[] = { 0x0806 }, t_llc[] = { 0x0040 };

	n += ip4(f + n, 5, 20 + 100, IPPROTO_TCP, 185);
	memset(f + n, 0, 100);
	v = parse(1, f, n + 100, n + 100, &pi, &why);
	ok(v == PKT_FRAGMENT,
	   "IPv4 fragment offset 185: PKT_FRAGMENT");
	n = eth(f, t_ip4, 1);
	n += ip4(f + n, 5, 20 + 20 + 60, IPPROTO_TCP, 0x2000);
	n += tcp(f + n, SEG_ACK, 5, NULL, 0);
	v = parse(1, f, n, n + 60, &pi, &why);
	ok(v == PKT_OK && pi.payload == 60,
	   "IPv4 first fragment (more fragments set) parses");

	n = eth(f, t_arp, 1);
	memset(f + n, 0, 28);
	v = parse(1, f, n + 28, n + 28, &pi, &why);
	ok(v == PKT_NOT_IP,
	   "ARP is PKT_NOT_IP");
	n = eth(f, t_llc, 1);
	v = parse(1, f, n + 10, n + 10, &pi, &why);
	ok(v == PKT_NOT_IP,
	   "an 802.3 length field is PKT_NOT_IP");
	n = sll(f, 0x0806);
	v = parse(113, f, n + 28, n + 28, &pi, &why);
	ok(v == PKT_NOT_IP,
	   "SLL ARP is PKT_NOT_IP");

	n = eth(f, t_vlan4, 2);
	n += ip4(f + n, 5, 20 + 8, IPPROTO_ICMP, 0);
	memset(f + n, 0, 8);
	v = parse(1, f, n + 8, n + 8, &pi, &why);
	ok(v == PKT_OTHER_PROTO,
	   "ICMP is PKT_OTHER_PROTO");
	n = ip6(f, 8, IPPROTO_ICMPV6);
	memset(f + n, 0, 8);
	v = parse(229, f, n + 8, n + 8, &pi, &why);
	ok(v == PKT_OTHER_PROTO,
	   "ICMPv6 is PKT_OTHER_PROTO");

	n = loopfam(f, 7, 0);
	n += tcp4_packet(f + n, 10);
	v = parse(0, f, n, n, &pi, &why);
	ok(v == PKT_NOT_IP,
	   "NULL with an unknown family is PKT_NOT_IP");
	f[0] = 0x50;
	v = parse(12, f, 40, 40, &pi, &why);
	ok(v == PKT_NOT_IP,
	   "raw IP with version 5 is PKT_NOT_IP");
	ok(!pkt_dlt_supported(105) && !pkt_dlt_supported(-1) &&
	   parse(105, f, 40, 40, &pi, &why) == PKT_NOT_IP,
	   "802.11 (105) is not supported");
}

static void malformed_headers_name_the_contradiction(void)
{
	enum pkt_verdict v;
	uint8_t f[256];
	struct pkt_info pi;
	const char *why;
	size_t n;

	n = ip4(f, 5, 20 + 20, IPPROTO_TCP, 0);
	f[0] = 0x44;
	tcp(f + n, SEG_ACK, 5, NULL, 0);
	v = parse(228, f, 40, 40, &pi, &why);
	ok(v == PKT_MALFORMED && why &&
	   !strcmp(why, "IPv4 header length 16 bytes, below 20"),
	   "IHL 4: \"%s\"", why ? why : "no reason");

	n = ip4(f, 10, 30, IPPROTO_TCP, 0);
	tcp(f + n, SEG_ACK, 5, NULL, 0);
	v = parse(228, f, 60, 60, &pi, &why);
	ok(v == PKT_MALFORMED && why &&
	   !strcmp(why, "IPv4 total length 30 below its header length 40"),
	   "total length under IHL: \"%s\"", why ? why : "no reason");

	n = ip4(f, 5, 20 + 20, IPPROTO_TCP, 0);
	tcp(f + n, SEG_ACK, 3, NULL, 0);
	v = parse(228, f, 40, 40, &pi, &why);
	ok(v == PKT_MALFORMED && why &&
	   !strcmp(why, "TCP data offset 3 words, below 5"),
	   "data offset 3: \"%s\"", why ? why : "no reason");

	n = ip4(f, 5, 20 + 24, IPPROTO_TCP, 0);
	tcp(f + n, SEG_ACK, 8, ts_opts, sizeof(ts_opts));
	v = parse(228, f, 52, 52, &pi, &why);
	ok(v == PKT_MALFORMED && why &&
	   strstr(why, "TCP header of 32 bytes"),
	   "TCP header longer than the IP payload: \"%s\"",
	   why ? why : "no reason");

	n = eth(f, t_ip4, 1);
	n += ip4(f + n, 5, 20 + 20, IPPROTO_TCP, 0);
	tcp(f + n, SEG_ACK, 5, NULL, 0);
	f[14] = 0x55;
	v = parse(1, f, 54, 54, &pi, &why);
	ok(v == PKT_MALFORMED && why &&
	   strstr(why, "version 5"),
	   "ethertype IPv4 with version 5: \"%s\"", why ? why : "no reason");

	n = ip6(f, 20, IPPROTO_TCP);
	tcp(f + n, SEG_ACK, 5, NULL, 0);
	f[0] = 0x40;
	v = parse(229, f, 60, 60, &pi, &why);
	ok(v == PKT_MALFORMED && why &&
	   strstr(why, "version 4"),
	   "IPv6 link type with version 4: \"%s\"", why ? why : "no reason");
}

/*
 * Cut a frame at every length below the headers pkt_parse needs: always
 * PKT_SHORT with a reason, never a read past caplen (the copy is exact).
 */
static void check_cuts(const char *name, int dlt, const uint8_t *f,
		       size_t need, size_t n, uint32_t wirelen,
		       uint32_t payload)
{
	struct pkt_info pi;
	const char *why;
	unsigned shorts = 0, oks = 0;
	size_t c;

	for (c = 0; c < need; c++)
		if (parse(dlt, f, c, wirelen, &pi, &why) == PKT_SHORT && why &&
		    strstr(why, "cut off"))
			shorts++;
	for (c = need; c <= n; c++)
		if (parse(dlt, f, c, wirelen, &pi, &why) == PKT_OK &&
		    pi.payload == payload)
			oks++;
	ok(shorts == need && oks == n - need + 1,
	   "%s: %u of %zu cuts below %zu bytes PKT_SHORT, %u of %zu after it PKT_OK",
	   name, shorts, need, need, oks, n - need + 1);
}

static void frames_cut_at_every_boundary_are_short(void)
{
	enum pkt_verdict v;
	uint8_t f[512];
	size_t n, need;
	const char *why;
	struct pkt_info pi;

	/* QinQ, IPv4 with 8 bytes of options, TCP with 12 of options */
	n = eth(f, t_9100, 3);
	n += ip4(f + n, 7, 28 + 32 + 100, IPPROTO_TCP, 0);
	need = n + 20;
	n += tcp(f + n, SEG_ACK, 8, ts_opts, sizeof(ts_opts));
	check_cuts("QinQ IPv4 TCP", 1, f, need, n, n + 100, 100);

	/* SLL, IPv6, hop-by-hop, UDP */
	n = sll(f, 0x86dd);
	n += ip6(f + n, 8 + 8 + 50, IPPROTO_HOPOPTS);
	memset(f + n, 0, 8);
	f[n] = IPPROTO_UDP;
	n += 8;
	n += udp(f + n, 8 + 50);
	check_cuts("SLL IPv6 hop-by-hop UDP", 113, f, n, n, n + 50, 50);

	/* SLL2 IPv4 UDP */
	n = sll2(f, 0x0800);
	n += ip4(f + n, 5, 20 + 8 + 7, IPPROTO_UDP, 0);
	n += udp(f + n, 8 + 7);
	check_cuts("SLL2 IPv4 UDP", 276, f, n, n, n + 7, 7);

	/* LOOP IPv6 TCP */
	n = loopfam(f, 30, 1);
	n += ip6(f + n, 20 + 3, IPPROTO_TCP);
	n += tcp(f + n, SEG_ACK, 5, NULL, 0);
	check_cuts("LOOP IPv6 TCP", 108, f, n, n, n + 3, 3);

	/* raw IPv4 TCP */
	n = tcp4_packet(f, 0);
	check_cuts("RAW IPv4 TCP", 101, f, 40, n, n, 0);

	v = parse(1, f, 0, 60, &pi, &why);
	ok(v == PKT_SHORT && why &&
	   !strcmp(why, "Ethernet header cut off: 0 of 14 bytes captured"),
	   "empty Ethernet frame: \"%s\"", why ? why : "no reason");
	n = ip4(f, 5, 40, IPPROTO_TCP, 0);
	tcp(f + n, SEG_ACK, 5, NULL, 0);
	v = parse(228, f, 34, 40, &pi, &why);
	ok(v == PKT_SHORT && why &&
	   !strcmp(why, "TCP header cut off: 14 of 20 bytes captured"),
	   "TCP cut at 14 bytes: \"%s\"", why ? why : "no reason");
	ok(pkt_parse(1, f, 0, 60, &pi, NULL) == PKT_SHORT,
	   "a NULL why is allowed");
}

static void names_and_endpoints(void)
{
	char buf[64];
	uint8_t a6[16];

	ok(!strcmp(pkt_dlt_name(1, buf, sizeof(buf)), "EN10MB"),
	   "link type 1 is EN10MB");
	ok(!strcmp(pkt_dlt_name(276, buf, sizeof(buf)), "LINUX_SLL2"),
	   "link type 276 is LINUX_SLL2");
	ok(!strcmp(pkt_dlt_name(101, buf, sizeof(buf)), "RAW"),
	   "link type 101 is RAW");
	ok(!strcmp(pkt_dlt_name(64000, buf, sizeof(buf)), "DLT 64000") &&
	   !strcmp(buf, "DLT 64000"),
	   "an unknown link type is written as DLT n into buf");
	ok(!strcmp(pkt_endpoint(AF_INET, v4_src, 5001, buf, sizeof(buf)),
		   "198.18.0.1:5001"),
	   "IPv4 endpoint: %s", buf);
	inet_pton(AF_INET6, "fd74:7400::1", a6);
	ok(!strcmp(pkt_endpoint(AF_INET6, a6, 5001, buf, sizeof(buf)),
		   "[fd74:7400::1]:5001"),
	   "IPv6 endpoint: %s", buf);
}

int main(void)
{
	every_link_type_yields_addresses_ports_and_payload();
	udp_payload_comes_from_its_length();
	syn_options_give_mss_and_timestamps();
	big_tcp_takes_the_length_from_the_wire();
	ipv6_extension_headers_are_skipped();
	fragments_and_non_ip_are_told_apart();
	malformed_headers_name_the_contradiction();
	frames_cut_at_every_boundary_are_short();
	names_and_endpoints();
	return tap_done();
}
