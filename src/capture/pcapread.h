/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcapread.h - segment-size histograms per direction of each flow in a pcap or pcapng file. */
#ifndef TT_PCAPREAD_H
#define TT_PCAPREAD_H

#include <stdbool.h>
#include <stdint.h>

#include "capture/seghist.h"
#include "core/util.h"

enum pcapread_mss_src {
	MSS_UNKNOWN,			/* no SYN seen and no --mss */
	MSS_FROM_SYN,			/* the peer's SYN MSS option, minus 12 with timestamps */
	MSS_GIVEN,			/* the caller's mss */
};

/* One direction of one flow (src -> dst). */
struct pcapread_flow {
	int family;
	uint8_t proto;			/* IPPROTO_TCP or IPPROTO_UDP */
	uint8_t src[16], dst[16];
	uint16_t sport, dport;
	uint32_t mss;			/* 0: unknown */
	enum pcapread_mss_src mss_src;
	uint64_t first_packet;		/* number (from 1) of its first packet in the file */
	struct seghist h;		/* compact (sorted) once pcapread_file returns */
};

struct pcapread {
	char path[4096];
	int dlt;
	char dlt_name[32];
	bool pcapng;
	uint64_t packets;		/* records read from the file */
	uint64_t filtered;		/* of those, dropped by --filter / --port */
	uint64_t counted;		/* TCP/UDP packets put into a flow */
	uint64_t not_ip, other_proto, fragments, short_hdr, malformed;
	char first_bad[ERR_MAX];	/* "packet N: why" of the first short or malformed one */
	unsigned nflows;		/* directions, in order of first packet */
	struct pcapread_flow *flows;
	bool complete;			/* the whole file was read */
	char error[ERR_MAX];		/* when !complete: "packet N: what was wrong" */
};

struct pcapread_opts {
	const char *filter;		/* BPF, compiled by libpcap; NULL = none */
	int port;			/* keep packets with this source or destination port; 0 = all */
	uint32_t mss;			/* classify with this MSS; 0 = from the SYNs */
};

/*
 * Read a pcap or pcapng file (libpcap's pcap_open_offline) and count, for
 * each direction of each TCP or UDP flow, the payload sizes.
 * Returns 0 when the file was read to its end; -EBADMSG when a truncated
 * or corrupt record stopped the reading: out holds everything read before
 * it, out->error and err say "packet N: what"; any other -errno when
 * nothing could be read (no such file, not a capture file, an unsupported
 * link type, a filter libpcap refuses), err naming it.
 */
int pcapread_file(const char *path, const struct pcapread_opts *o,
		  struct pcapread *out, char *err);
void pcapread_free(struct pcapread *r);

#endif
