/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sockinfo.h - socket buffer sizes, queue depths and TCP_INFO of one socket. */
#ifndef TT_SOCKINFO_H
#define TT_SOCKINFO_H

#include <stdbool.h>
#include <stddef.h>

#include "sample/sample.h"

/*
 * Fill out's sndbuf, rcvbuf, outq, inq and (for tcp) tcp from the socket;
 * the *_init and flow fields are left alone.  outq/inq are -1 when the
 * ioctl is refused (a listening TCP socket refuses both).  0 or -errno.
 */
int sockinfo_read(int fd, bool tcp, struct sock_sample *out);

/*
 * Groups of tcp_figures that an older kernel's shorter TCP_INFO answer may
 * lack (snd_cwnd, rtt, rttvar, total_retrans, rcv_space and the MSSes are
 * always there).  Absent fields are left 0.
 */
#define SOCKINFO_TCP_SEGS      (1u << 0) /* segs_out, segs_in */
#define SOCKINFO_TCP_DATA_SEGS (1u << 1) /* notsent_bytes, data_segs_* */
#define SOCKINFO_TCP_DELIVERY  (1u << 2) /* delivery_rate, app_limited */
#define SOCKINFO_TCP_CHRONO    (1u << 3) /* busy_us, *_limited_us (4.10+) */
#define SOCKINFO_TCP_ALL                                                       \
	(SOCKINFO_TCP_SEGS | SOCKINFO_TCP_DATA_SEGS | SOCKINFO_TCP_DELIVERY |  \
	 SOCKINFO_TCP_CHRONO)

/*
 * Decode a TCP_INFO answer of len bytes (struct tt_tcp_info layout) into
 * out and set *present (may be NULL) to the SOCKINFO_TCP_* groups it held.
 * 0, or -EPROTO when len is shorter than the original 104-byte struct.
 */
int sockinfo_tcp_decode(const void *buf, size_t len, struct tcp_figures *out,
			unsigned *present);

/*
 * The network device holding fd's local address, looked up in the calling
 * thread's namespace (an IPv4-mapped address counts as its IPv4 one).
 * 0, or -ENODEV when no device holds it, or -errno.
 */
int sockinfo_netdev(int fd, char *dev, size_t len);

#endif
