// SPDX-License-Identifier: GPL-2.0-or-later
/* capture.c - libpcap on the test's interface: segment sizes per direction, live. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <pcap/pcap.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "capture/capture.h"
#include "capture/pktparse.h"

/*
 * Headers only: Ethernet with two VLAN tags (22), IPv6 with a few
 * extension headers (~80) and TCP with options (60) fit in 192 bytes.
 */
#define CAPTURE_SNAPLEN 192
/*
 * docs/HACKING.md, "Kernel facts": with TPACKET_V3 (immediate mode off) and a 1-32 MB ring
 * there are no drops up to ~630k packets/s here.  1, 2, 4 and 16 MB cost a
 * 1-byte TCP_RR the same within the noise.  A block is handed to us when
 * full or after the timeout, so 20 ms keeps the 100 ms ticks current.
 * libpcap 1.10's V3 blocks are 256 KiB: at a 1-byte RR's rate a block
 * leaves after its 20 ms, so the ring holds (size / 256 KiB) x 20 ms of
 * packets while this thread waits for a CPU.  4 MB (320 ms) dropped
 * packets on a 2-CPU machine at load 200-550 (bench/README.md,
 * capture); 16 MB holds 1.3 s.
 */
#define CAPTURE_BUFFER (16 << 20)
#define CAPTURE_TIMEOUT_MS 20

struct capture {
	pcap_t *pcap;
	pcap_dumper_t *dumper;
	int dlt;
	int fd;				/* pcap's selectable fd */
	int efd;			/* stop request */
	bool server;
	bool in_only;			/* only what arrives (capture_opts) */
	bool ts_on;			/* this namespace answers timestamps (in_only server) */
	uint64_t ports[65536 / 64];	/* the server's data ports, a bitmap */
	pthread_t thread;
	bool running;

	pthread_mutex_t lock;		/* guards everything below */
	struct cap_counts n;
	struct seghist dir[CAP_NDIRS];
	uint16_t syn_mss[CAP_NDIRS];	/* MSS option of the SYN sent that way */
	bool syn_ts[CAP_NDIRS];
	char dev[32];
	char filter[256];
	char warning[ERR_MAX];
};

static bool capture_port_is_server(const struct capture *c, uint16_t port)
{
	return c->ports[port / 64] & (1ull << (port % 64));
}

/* One packet: which way it went, and its payload size. */
static void capture_packet_cb(u_char *arg, const struct pcap_pkthdr *h, const u_char *bytes)
{
	struct capture *c = (struct capture *)arg;
	struct pkt_info pi;
	int d;

	c->n.seen++;
	if (c->dumper)
		pcap_dump((u_char *)c->dumper, h, bytes);
	if (pkt_parse(c->dlt, bytes, h->caplen, h->len, &pi, NULL) != PKT_OK) {
		c->n.unparsed++;
		return;
	}
	/* The server sends from its data ports; the client sends to them. */
	if (c->server)
		d = capture_port_is_server(c, pi.sport) ? CAP_OUT : CAP_IN;
	else
		d = capture_port_is_server(c, pi.dport) ? CAP_OUT : CAP_IN;
	c->n.counted++;
	if (seghist_add(&c->dir[d], pi.payload, pi.tcp_flags))
		c->n.table_full++;
	if ((pi.tcp_flags & SEG_SYN) && pi.mss_opt) {
		c->syn_mss[d] = pi.mss_opt;
		c->syn_ts[d] = pi.ts_opt;
	}
}

/* Read what the ring holds; the lock keeps snapshots consistent. */
static int capture_dispatch(struct capture *c)
{
	int r;

	pthread_mutex_lock(&c->lock);
	r = pcap_dispatch(c->pcap, -1, capture_packet_cb, (u_char *)c);
	pthread_mutex_unlock(&c->lock);
	return r;
}

static void *capture_thread(void *arg)
{
	struct capture *c = arg;
	struct pollfd pfd[2] = {
		{ .fd = c->fd, .events = POLLIN },
		{ .fd = c->efd, .events = POLLIN },
	};
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	pthread_setname_np(pthread_self(), "tt-capture");
	for (;;) {
		int r = poll(pfd, 2, 4 * CAPTURE_TIMEOUT_MS);

		if (r < 0 && errno != EINTR)
			break;
		if (r > 0 && (pfd[0].revents & POLLIN) && capture_dispatch(c) < 0)
			break;
		if (pfd[1].revents)
			break;
	}
	/*
	 * The last packets sit in a block the kernel retires only when its
	 * timeout expires: read until a few timeouts pass with nothing new.
	 */
	for (int quiet = 0; quiet < 3;) {
		int r = poll(pfd, 1, 2 * CAPTURE_TIMEOUT_MS);

		if (r < 0 && errno != EINTR)
			break;
		if (r > 0 && capture_dispatch(c) > 0)
			quiet = 0;
		else
			quiet++;
	}
	return NULL;
}

/* "tcp and port 5001 and host 198.18.0.2": the test's data connections only. */
static int capture_filter(const struct capture_opts *o, char *buf, size_t len, char *err)
{
	size_t at;
	unsigned lo = 65535, hi = 0;

	if (!o->nports)
		return err_set(err, -EINVAL, "capture: no data port to filter on");
	at = (size_t)snprintf(buf, len, "%s and ", o->udp ? "udp" : "tcp");
	for (unsigned i = 0; i < o->nports; i++) {
		if (o->ports[i] < lo)
			lo = o->ports[i];
		if (o->ports[i] > hi)
			hi = o->ports[i];
	}
	/* Many UDP flows: their ports as one range (the bitmap sorts them). */
	if (o->nports == 1)
		at += (size_t)snprintf(buf + at, len - at, "port %u", lo);
	else if (o->nports <= 8) {
		at += (size_t)snprintf(buf + at, len - at, "(");
		for (unsigned i = 0; i < o->nports && at < len; i++)
			at += (size_t)snprintf(buf + at, len - at, "%sport %u",
					       i ? " or " : "", o->ports[i]);
		at += (size_t)snprintf(buf + at, len - at, ")");
	} else
		at += (size_t)snprintf(buf + at, len - at, "portrange %u-%u", lo, hi);
	/* A dual-stack listener sees IPv4 clients as ::ffff:a.b.c.d; on
	 * the wire they are plain IPv4. */
	if (o->peer && !strncmp(o->peer, "::ffff:", 7) && strchr(o->peer, '.'))
		at += (size_t)snprintf(buf + at, len - at, " and host %s", o->peer + 7);
	else if (o->peer && at < len)
		at += (size_t)snprintf(buf + at, len - at, " and host %s", o->peer);
	if (at >= len)
		return err_set(err, -E2BIG, "capture: filter longer than %zu bytes", len - 1);
	return 0;
}

static bool capture_dev_is_loopback(int fd, const char *dev)
{
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	return ioctl(fd, SIOCGIFFLAGS, &ifr) == 0 && (ifr.ifr_flags & IFF_LOOPBACK);
}

/*
 * The kernel taps every packet a device sends (a clone in
 * dev_queue_xmit_nit) and every one it receives, and copies each into
 * our ring: on lo each packet twice, the copy going out being dropped
 * by libpcap afterwards; on a veth each end sees what it sent and what
 * it received.  PACKET_IGNORE_OUTGOING (Linux 4.20) keeps the sent ones
 * out of the socket before any clone or copy; libpcap 1.10's
 * pcap_setdirection(PCAP_D_IN) does not, it only skips them in
 * userspace once the kernel has paid for them.  On lo nothing counted
 * changes (every packet also arrives); with in_only an older kernel
 * gets libpcap's direction check, the same packets at the full cost.
 */
static int capture_ignore_outgoing(struct capture *c, const char *dev, char *err)
{
	int fd = pcap_fileno(c->pcap), one = 1;
	bool lo = capture_dev_is_loopback(fd, dev);

	if (!lo && !c->in_only)
		return 0;
	if (setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one)) == 0 || lo)
		return 0;
	if (pcap_setdirection(c->pcap, PCAP_D_IN))
		return err_set(err, -EIO, "capture on %s: incoming only: %s", dev,
			       pcap_geterr(c->pcap));
	return 0;
}

/* libpcap's reason for a failed activation, in words a user acts on. */
static int capture_activate_error(pcap_t *p, int r, const char *dev, char *err)
{
	switch (r) {
	case PCAP_ERROR_PERM_DENIED:
		return err_set(err, -EPERM, "capture on %s: permission denied "
			       "(needs CAP_NET_RAW: run as root, or without --capture)", dev);
	case PCAP_ERROR_NO_SUCH_DEVICE:
		return err_set(err, -ENODEV, "capture on %s: no such device here", dev);
	case PCAP_ERROR_IFACE_NOT_UP:
		return err_set(err, -ENETDOWN, "capture on %s: interface is down", dev);
	default:
		return err_set(err, -EIO, "capture on %s: %s", dev, pcap_geterr(p));
	}
}

static int capture_setup(struct capture *c, const struct capture_opts *o, char *err)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	struct bpf_program prog;
	char name[32];
	int r;

	c->pcap = pcap_create(o->dev, ebuf);
	if (!c->pcap)
		return err_set(err, -ENODEV, "capture on %s: %s", o->dev, ebuf);
	if (pcap_set_snaplen(c->pcap, CAPTURE_SNAPLEN) || pcap_set_promisc(c->pcap, 0) ||
	    pcap_set_timeout(c->pcap, CAPTURE_TIMEOUT_MS) ||
	    pcap_set_buffer_size(c->pcap, CAPTURE_BUFFER) ||
	    pcap_set_immediate_mode(c->pcap, 0))
		return err_set(err, -EINVAL, "capture on %s: %s", o->dev, pcap_geterr(c->pcap));
	r = pcap_activate(c->pcap);
	if (r < 0)
		return capture_activate_error(c->pcap, r, o->dev, err);
	if (r > 0)	/* a warning to show, not a failure (docs/HACKING.md, "Conventions") */
		snprintf(c->warning, sizeof(c->warning), "capture on %s: %s", o->dev,
			 pcap_geterr(c->pcap));
	c->dlt = pcap_datalink(c->pcap);
	if (!pkt_dlt_supported(c->dlt))
		return err_set(err, -EPROTONOSUPPORT, "capture on %s: link type %s is not one "
			       "tunetop reads (Ethernet, Linux cooked, raw IP, loopback)",
			       o->dev, pkt_dlt_name(c->dlt, name, sizeof(name)));
	r = capture_ignore_outgoing(c, o->dev, err);
	if (r)
		return r;
	r = capture_filter(o, c->filter, sizeof(c->filter), err);
	if (r)
		return r;
	if (pcap_compile(c->pcap, &prog, c->filter, 1, PCAP_NETMASK_UNKNOWN))
		return err_set(err, -EINVAL, "capture on %s: filter '%s': %s", o->dev,
			       c->filter, pcap_geterr(c->pcap));
	r = pcap_setfilter(c->pcap, &prog);
	pcap_freecode(&prog);
	if (r)
		return err_set(err, -EINVAL, "capture on %s: filter '%s': %s", o->dev,
			       c->filter, pcap_geterr(c->pcap));
	if (pcap_setnonblock(c->pcap, 1, ebuf))
		return err_set(err, -EIO, "capture on %s: %s", o->dev, ebuf);
	c->fd = pcap_get_selectable_fd(c->pcap);
	if (c->fd < 0)
		return err_set(err, -EIO, "capture on %s: no selectable descriptor", o->dev);
	if (o->file) {
		c->dumper = pcap_dump_open(c->pcap, o->file);
		if (!c->dumper)
			return err_set(err, -EIO, "-w %s: %s", o->file, pcap_geterr(c->pcap));
	}
	return 0;
}

int capture_open(struct capture **cp, const struct capture_opts *o, char *err)
{
	struct capture *c = calloc(1, sizeof(*c));
	int r;

	if (!c)
		return err_set(err, -ENOMEM, "capture: out of memory");
	pthread_mutex_init(&c->lock, NULL);
	c->efd = -1;
	c->server = o->server;
	c->in_only = o->in_only;
	/* This thread's namespace answers a SYN's timestamps (also IPv6). */
	c->ts_on = read_int_file("/proc/sys/net/ipv4/tcp_timestamps", 1) != 0;
	snprintf(c->dev, sizeof(c->dev), "%s", o->dev);
	for (unsigned i = 0; i < o->nports; i++)
		c->ports[o->ports[i] / 64] |= 1ull << (o->ports[i] % 64);
	for (int d = 0; d < CAP_NDIRS; d++)
		seghist_init(&c->dir[d]);
	r = capture_setup(c, o, err);
	if (r)
		goto fail;
	c->efd = eventfd(0, EFD_CLOEXEC);
	if (c->efd < 0) {
		r = err_set(err, -errno, "capture: eventfd: %s", strerror(errno));
		goto fail;
	}
	r = pthread_create(&c->thread, NULL, capture_thread, c);
	if (r) {
		r = err_set(err, -r, "capture: thread: %s", strerror(r));
		goto fail;
	}
	c->running = true;
	*cp = c;
	return 0;
fail:
	capture_destroy(c);
	return r;
}

/*
 * The MSS a direction's sender uses, as far as the SYNs tell: what the
 * receiver announced (the option of the SYN going the other way), less 12
 * bytes when both SYNs carried timestamps (RFC 7323 option on every segment).
 *
 * A capture of what arrives sees one SYN, the peer's: what this end
 * sends with.  The client's is the SYN-ACK, which carries timestamps
 * only when both ends agreed; the server's is the client's SYN, and the
 * server agreed when its namespace's tcp_timestamps is on.  What this
 * end announced it does not see: 0, the session takes it from the other
 * end's capture.
 */
static uint32_t capture_syn_mss(const struct capture *c, int d)
{
	int o = d == CAP_OUT ? CAP_IN : CAP_OUT;
	uint32_t mss = c->syn_mss[o] ? c->syn_mss[o] : c->syn_mss[d];

	if (c->in_only) {
		bool ts = c->syn_ts[CAP_IN] && (!c->server || c->ts_on);

		mss = c->syn_mss[CAP_IN];
		if (d == CAP_IN)
			return 0;
		return ts && mss > 12 ? mss - 12 : mss;
	}
	if (mss && c->syn_ts[o] && c->syn_ts[d] && mss > 12)
		mss -= 12;
	return mss;
}

int capture_snapshot(struct capture *c, struct seg_capture *out, char *err)
{
	struct pcap_stat st;
	int r = 0;

	memset(out, 0, sizeof(*out));
	for (int d = 0; d < CAP_NDIRS; d++)
		seghist_init(&out->dir[d]);
	pthread_mutex_lock(&c->lock);
	if (pcap_stats(c->pcap, &st) == 0) {
		c->n.kernel_recv = st.ps_recv;
		c->n.kernel_drop = st.ps_drop;
		c->n.if_drop = st.ps_ifdrop;
	}
	out->n = c->n;
	snprintf(out->dev, sizeof(out->dev), "%s", c->dev);
	snprintf(out->filter, sizeof(out->filter), "%s", c->filter);
	snprintf(out->warning, sizeof(out->warning), "%s", c->warning);
	for (int d = 0; d < CAP_NDIRS && !r; d++) {
		out->syn_mss[d] = capture_syn_mss(c, d);
		if (seghist_copy_sorted(&out->dir[d], &c->dir[d]))
			r = err_set(err, -ENOMEM, "capture: out of memory");
	}
	pthread_mutex_unlock(&c->lock);
	if (r)
		seg_capture_free(out);
	return r;
}

void capture_stop(struct capture *c)
{
	uint64_t one = 1;

	if (!c || !c->running)
		return;
	if (write(c->efd, &one, sizeof(one)) == sizeof(one))
		pthread_join(c->thread, NULL);
	c->running = false;
	if (c->dumper)
		pcap_dump_flush(c->dumper);
}

void capture_destroy(struct capture *c)
{
	if (!c)
		return;
	capture_stop(c);
	if (c->dumper)
		pcap_dump_close(c->dumper);
	if (c->pcap)
		pcap_close(c->pcap);
	if (c->efd >= 0)
		close(c->efd);
	for (int d = 0; d < CAP_NDIRS; d++)
		seghist_free(&c->dir[d]);
	pthread_mutex_destroy(&c->lock);
	free(c);
}
