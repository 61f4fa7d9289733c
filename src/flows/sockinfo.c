// SPDX-License-Identifier: GPL-2.0-or-later
/* sockinfo.c - socket buffer sizes, queue depths and TCP_INFO of one socket. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stddef.h>
#include <ifaddrs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <linux/sockios.h>

#include "flows/sockinfo.h"
#include "uapi/tcp_info.h"

/* Take the figures out of a TCP_INFO answer, only those its length covers. */
int sockinfo_tcp_decode(const void *buf, size_t len, struct tcp_figures *out,
			unsigned *present)
{
	struct tt_tcp_info ti;
	unsigned has = 0;

	memset(out, 0, sizeof(*out));
	if (present)
		*present = 0;
	if (len < TT_TCP_INFO_LEN_GLIBC)
		return -EPROTO;

	/* Copy what the kernel gave; the rest stays 0 and is not reported. */
	memset(&ti, 0, sizeof(ti));
	memcpy(&ti, buf, len < sizeof(ti) ? len : sizeof(ti));

	out->has = true;
	out->snd_cwnd = ti.tcpi_snd_cwnd;
	out->rtt_us = ti.tcpi_rtt;
	out->rttvar_us = ti.tcpi_rttvar;
	out->total_retrans = ti.tcpi_total_retrans;
	out->rcv_space = ti.tcpi_rcv_space;
	out->snd_mss = ti.tcpi_snd_mss;
	out->rcv_mss = ti.tcpi_rcv_mss;

	if (TT_TCPI_HAS(len, tcpi_segs_in)) {
		out->segs_out = ti.tcpi_segs_out;
		out->segs_in = ti.tcpi_segs_in;
		has |= SOCKINFO_TCP_SEGS;
	}
	if (TT_TCPI_HAS(len, tcpi_data_segs_out)) {
		out->notsent_bytes = ti.tcpi_notsent_bytes;
		out->data_segs_in = ti.tcpi_data_segs_in;
		out->data_segs_out = ti.tcpi_data_segs_out;
		has |= SOCKINFO_TCP_DATA_SEGS;
	}
	if (TT_TCPI_HAS(len, tcpi_delivery_rate)) {
		out->delivery_rate = ti.tcpi_delivery_rate;
		out->app_limited = ti.tcpi_delivery_rate_app_limited;
		has |= SOCKINFO_TCP_DELIVERY;
	}
	if (TT_TCPI_HAS(len, tcpi_sndbuf_limited)) {
		out->has_chrono = true;
		out->busy_us = ti.tcpi_busy_time;
		out->rwnd_limited_us = ti.tcpi_rwnd_limited;
		out->sndbuf_limited_us = ti.tcpi_sndbuf_limited;
		has |= SOCKINFO_TCP_CHRONO;
	}
	if (present)
		*present = has;
	return 0;
}

/* Read an int socket option; 0 or -errno. */
static int sockinfo_int_opt(int fd, int level, int name, int32_t *out)
{
	int v = 0;
	socklen_t len = sizeof(v);

	if (getsockopt(fd, level, name, &v, &len) < 0)
		return -errno;
	*out = v;
	return 0;
}

/* A queue depth from an ioctl, or -1 when the socket refuses it. */
static int32_t sockinfo_queue(int fd, unsigned long req)
{
	int v = 0;

	if (ioctl(fd, req, &v) < 0)
		return -1;
	return v;
}

/*
 * Five syscalls and no allocation, so the sampler can afford it for 1024
 * sockets every 100 ms; SIOCINQ and TCP_INFO hold the socket lock only for
 * the copy, so a worker using the socket meanwhile is barely delayed.
 */
int sockinfo_read(int fd, bool tcp, struct sock_sample *out)
{
	struct tt_tcp_info ti;
	socklen_t len = sizeof(ti);
	int err;

	err = sockinfo_int_opt(fd, SOL_SOCKET, SO_SNDBUF, &out->sndbuf);
	if (err)
		return err;
	err = sockinfo_int_opt(fd, SOL_SOCKET, SO_RCVBUF, &out->rcvbuf);
	if (err)
		return err;
	out->outq = sockinfo_queue(fd, SIOCOUTQ);
	out->inq = sockinfo_queue(fd, SIOCINQ);

	memset(&out->tcp, 0, sizeof(out->tcp));
	if (!tcp)
		return 0;
	/*
	 * Ask for the whole 6.18 struct; an older kernel answers with its own
	 * shorter length and sockinfo_tcp_decode() leaves the fields it lacks
	 * at 0 (delivery_rate needs 168 bytes, Linux 4.9 or later).
	 */
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0)
		return -errno;
	return sockinfo_tcp_decode(&ti, len, &out->tcp, NULL);
}

/*
 * The IP address of sa as bytes (an IPv4-mapped IPv6 address as its IPv4
 * one); 4, 16, or 0 for another family.  Copied out with memcpy, never
 * read through a cast of another sockaddr type (strict aliasing).
 */
static size_t ip_bytes(const void *sa, unsigned char out[16])
{
	sa_family_t fam;
	struct sockaddr_in v4;
	struct sockaddr_in6 v6;
	static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	memcpy(&fam, (const char *)sa + offsetof(struct sockaddr, sa_family), sizeof(fam));
	if (fam == AF_INET) {
		memcpy(&v4, sa, sizeof(v4));
		memcpy(out, &v4.sin_addr, 4);
		return 4;
	}
	if (fam != AF_INET6)
		return 0;
	memcpy(&v6, sa, sizeof(v6));
	if (!memcmp(v6.sin6_addr.s6_addr, mapped, sizeof(mapped))) {
		memcpy(out, v6.sin6_addr.s6_addr + 12, 4);
		return 4;
	}
	memcpy(out, v6.sin6_addr.s6_addr, 16);
	return 16;
}

int sockinfo_netdev(int fd, char *dev, size_t len)
{
	struct sockaddr_storage la;
	socklen_t alen = sizeof(la);
	unsigned char want[16], have[16];
	struct ifaddrs *ifa, *i;
	size_t wlen;
	int ret = -ENODEV;

	if (getsockname(fd, (struct sockaddr *)&la, &alen) < 0)
		return -errno;
	wlen = ip_bytes(&la, want);
	if (!wlen)
		return -EAFNOSUPPORT;
	if (getifaddrs(&ifa) < 0)
		return -errno;
	for (i = ifa; i; i = i->ifa_next) {
		if (i->ifa_addr && ip_bytes(i->ifa_addr, have) == wlen &&
		    !memcmp(want, have, wlen)) {
			snprintf(dev, len, "%s", i->ifa_name);
			ret = 0;
			break;
		}
	}
	freeifaddrs(ifa);
	return ret;
}
