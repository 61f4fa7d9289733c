/* SPDX-License-Identifier: GPL-2.0-or-later */
/* capture.h - libpcap on the test's interface: segment sizes per direction, live. */
#ifndef TT_CAPTURE_H
#define TT_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "capture/segcap.h"
#include "core/util.h"

struct capture_opts {
	const char *dev;		/* interface to open */
	int family;			/* AF_INET/AF_INET6 of the test */
	const char *peer;		/* the other end's address (numeric); NULL = any */
	const uint16_t *ports;		/* the server's data ports */
	unsigned nports;
	bool server;			/* this end owns ports (else the peer does) */
	bool udp;
	/*
	 * Only what arrives on dev: where the other end's capture runs on
	 * this host and counts what this end sends (a lab's veth pair), the
	 * kernel does not tap this end's sent packets for us at all
	 * (PACKET_IGNORE_OUTGOING); dir[CAP_OUT] stays empty and the session
	 * fills it from the other end's dir[CAP_IN].
	 */
	bool in_only;
	const char *file;		/* -w: also write the packets here; NULL = no */
};

struct capture;

/*
 * Open a capture on o->dev in the calling thread's network namespace, set
 * its filter and start its reading thread.  TPACKET_V3 ring, headers only,
 * a short block timeout; the thread never touches a test worker.  0 or
 * -errno with err naming the device and libpcap's reason.
 */
int capture_open(struct capture **cp, const struct capture_opts *o, char *err);
/* A consistent copy of the counts and histograms so far (fresh pcap_stats). */
int capture_snapshot(struct capture *c, struct seg_capture *out, char *err);
/* Stop reading (the thread drains what the ring holds first). */
void capture_stop(struct capture *c);
void capture_destroy(struct capture *c);

#endif
