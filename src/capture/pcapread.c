// SPDX-License-Identifier: GPL-2.0-or-later
/* pcapread.c - read a pcap or pcapng file into per-direction segment-size histograms. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <pcap/pcap.h>

#include "capture/pcapread.h"
#include "capture/pktparse.h"

/* What identifies one direction: compared with memcmp, so no padding. */
struct flow_key {
	uint8_t src[16], dst[16];
	uint16_t sport, dport;
	uint8_t family, proto;
	uint8_t pad[2];
};

/* What a direction needs while reading, beside its public record. */
struct flow_aux {
	struct flow_key key;
	uint64_t hash;
	uint16_t syn_mss;		/* MSS option of this direction's SYN */
	bool syn_seen;
	bool syn_ts;			/* that SYN carried a timestamp option */
	bool data_ts;			/* a later segment carried one */
};

struct reader {
	struct pcapread *out;
	struct flow_aux *aux;		/* parallel to out->flows */
	unsigned cap;			/* slots of both arrays */
	uint32_t *slots;		/* hash table: flow index + 1, 0 = empty */
	unsigned nslots;		/* a power of two */
	unsigned last[2];		/* the two last flows hit (index + 1) */
};

/* The link types pktparse understands, for the refusal message. */
static const char accepted_dlts[] =
	"EN10MB (Ethernet, with 802.1Q/802.1ad tags), LINUX_SLL, LINUX_SLL2, "
	"RAW, IPV4, IPV6, NULL, LOOP";

static uint64_t key_hash(const struct flow_key *k)
{
	uint64_t w[5], h = 0x9e3779b97f4a7c15ull;

	memcpy(w, k, sizeof(w));
	for (unsigned i = 0; i < 5; i++) {
		h ^= w[i];
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	return h;
}

static void key_fill(struct flow_key *k, const struct pkt_info *pi, bool reverse)
{
	size_t alen = pi->family == AF_INET6 ? 16 : 4;

	memset(k, 0, sizeof(*k));
	memcpy(k->src, reverse ? pi->dst : pi->src, alen);
	memcpy(k->dst, reverse ? pi->src : pi->dst, alen);
	k->sport = reverse ? pi->dport : pi->sport;
	k->dport = reverse ? pi->sport : pi->dport;
	k->family = (uint8_t)pi->family;
	k->proto = pi->proto;
}

/* The index of the flow with key k, or -1. */
static int flow_find(const struct reader *r, const struct flow_key *k,
		     uint64_t h)
{
	unsigned mask = r->nslots - 1;

	if (!r->nslots)
		return -1;
	for (unsigned i = (unsigned)h & mask;; i = (i + 1) & mask) {
		uint32_t s = r->slots[i];

		if (!s)
			return -1;
		if (r->aux[s - 1].hash == h &&
		    !memcmp(&r->aux[s - 1].key, k, sizeof(*k)))
			return (int)(s - 1);
	}
}

static void slot_put(uint32_t *slots, unsigned nslots, uint64_t h, uint32_t v)
{
	unsigned mask = nslots - 1, i = (unsigned)h & mask;

	while (slots[i])
		i = (i + 1) & mask;
	slots[i] = v;
}

/* Add a new direction with key k (its first packet is number pkt); index or -ENOMEM. */
static int flow_add(struct reader *r, const struct flow_key *k, uint64_t h,
		    uint64_t pkt)
{
	struct pcapread *out = r->out;
	struct pcapread_flow *f;
	unsigned n = out->nflows;

	if ((n + 1) * 2 > r->nslots) {
		unsigned ns = r->nslots ? r->nslots * 2 : 64;
		uint32_t *slots = calloc(ns, sizeof(*slots));

		if (!slots)
			return -ENOMEM;
		for (unsigned i = 0; i < n; i++)
			slot_put(slots, ns, r->aux[i].hash, i + 1);
		free(r->slots);
		r->slots = slots;
		r->nslots = ns;
	}
	if (n == r->cap) {
		unsigned nc = r->cap ? r->cap * 2 : 32;
		struct pcapread_flow *fl = realloc(out->flows, nc * sizeof(*fl));
		struct flow_aux *ax;

		if (!fl)
			return -ENOMEM;
		out->flows = fl;
		ax = realloc(r->aux, nc * sizeof(*ax));
		if (!ax)
			return -ENOMEM;
		r->aux = ax;
		r->cap = nc;
	}
	memset(&r->aux[n], 0, sizeof(r->aux[n]));
	r->aux[n].key = *k;
	r->aux[n].hash = h;
	f = &out->flows[n];
	memset(f, 0, sizeof(*f));
	f->family = k->family;
	f->proto = k->proto;
	memcpy(f->src, k->src, sizeof(f->src));
	memcpy(f->dst, k->dst, sizeof(f->dst));
	f->sport = k->sport;
	f->dport = k->dport;
	f->first_packet = pkt;
	seghist_init(&f->h);
	slot_put(r->slots, r->nslots, h, n + 1);
	out->nflows = n + 1;
	return (int)n;
}

/* The direction of packet pi: the last two hit first (RR alternates). */
static int flow_get(struct reader *r, const struct pkt_info *pi, uint64_t pkt)
{
	struct flow_key k;
	uint64_t h;
	int i;

	key_fill(&k, pi, false);
	for (unsigned c = 0; c < 2; c++) {
		unsigned l = r->last[c];

		if (l && !memcmp(&r->aux[l - 1].key, &k, sizeof(k))) {
			if (c) {
				r->last[1] = r->last[0];
				r->last[0] = l;
			}
			return (int)(l - 1);
		}
	}
	h = key_hash(&k);
	i = flow_find(r, &k, h);
	if (i < 0)
		i = flow_add(r, &k, h, pkt);
	if (i >= 0) {
		r->last[1] = r->last[0];
		r->last[0] = (unsigned)i + 1;
	}
	return i;
}

/*
 * The MSS each direction was allowed to send: the peer's SYN MSS option
 * (RFC 9293 3.7.1: it limits what the peer receives), 12 bytes less when
 * both SYNs carried timestamps (RFC 7323: the option rides in every
 * segment).  With only this direction's SYN captured, its own option is
 * the best guess; timestamps then count as in use when the segments that
 * followed carried them.
 */
static void flows_mss(struct reader *r, uint32_t given)
{
	struct pcapread *out = r->out;

	for (unsigned i = 0; i < out->nflows; i++) {
		struct pcapread_flow *f = &out->flows[i];
		const struct flow_aux *a = &r->aux[i], *b = NULL;
		struct flow_key rk = a->key;
		bool ts;
		int j;

		if (f->proto != IPPROTO_TCP)
			continue;
		if (given) {
			f->mss = given;
			f->mss_src = MSS_GIVEN;
			continue;
		}
		memcpy(rk.src, a->key.dst, sizeof(rk.src));
		memcpy(rk.dst, a->key.src, sizeof(rk.dst));
		rk.sport = a->key.dport;
		rk.dport = a->key.sport;
		j = flow_find(r, &rk, key_hash(&rk));
		if (j >= 0)
			b = &r->aux[j];
		if (b && b->syn_seen && b->syn_mss) {
			ts = a->syn_seen ? a->syn_ts && b->syn_ts :
					   b->syn_ts && (a->data_ts || b->data_ts);
			f->mss = b->syn_mss;
		} else if (a->syn_seen && a->syn_mss) {
			ts = a->syn_ts && (a->data_ts || (b && b->data_ts));
			f->mss = a->syn_mss;
		} else {
			continue;
		}
		if (ts && f->mss > 12)
			f->mss -= 12;
		f->mss_src = MSS_FROM_SYN;
	}
}

/* Count one parsed packet into its direction; 0 or -ENOMEM. */
static int count_packet(struct reader *r, const struct pkt_info *pi,
			uint64_t pkt)
{
	struct flow_aux *a;
	int i = flow_get(r, pi, pkt);

	if (i < 0)
		return i;
	a = &r->aux[i];
	if (pi->tcp_flags & SEG_SYN) {
		if (!a->syn_seen) {
			a->syn_seen = true;
			a->syn_mss = pi->mss_opt;
			a->syn_ts = pi->ts_opt;
		}
	} else if (pi->ts_opt) {
		a->data_ts = true;
	}
	r->out->counted++;
	/* -ENOMEM here is counted in lost_bins; the reading goes on. */
	seghist_add(&r->out->flows[i].h, pi->payload, pi->tcp_flags);
	return 0;
}

/* Replace each live table by its compact, size-sorted copy; 0 or -ENOMEM. */
static int flows_compact(struct pcapread *out)
{
	for (unsigned i = 0; i < out->nflows; i++) {
		struct seghist c;
		int ret = seghist_copy_sorted(&c, &out->flows[i].h);

		if (ret) {
			seghist_free(&c);
			return ret;
		}
		seghist_free(&out->flows[i].h);
		out->flows[i].h = c;
	}
	return 0;
}

/* The verdicts pkt_parse gives besides PKT_OK, into the counters. */
static void count_verdict(struct pcapread *out, enum pkt_verdict v,
			  const char *why, uint64_t pkt)
{
	switch (v) {
	case PKT_NOT_IP:
		out->not_ip++;
		return;
	case PKT_OTHER_PROTO:
		out->other_proto++;
		return;
	case PKT_FRAGMENT:
		out->fragments++;
		return;
	case PKT_SHORT:
		out->short_hdr++;
		break;
	default:
		out->malformed++;
		break;
	}
	if (!out->first_bad[0])
		snprintf(out->first_bad, sizeof(out->first_bad),
			 "packet %llu: %s", (unsigned long long)pkt,
			 why ? why : v == PKT_SHORT ? "headers cut off" :
						      "malformed headers");
}

/* Open path (or "-", standard input) with libpcap; 0 or -errno, err set. */
static int open_file(const char *path, pcap_t **pp, char *err)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	FILE *fp = stdin;
	pcap_t *p;

	if (strcmp(path, "-")) {
		fp = fopen(path, "rb");
		if (!fp) {
			int e = -errno;

			return err_set(err, e, "%s: %s", path, strerror(-e));
		}
	}
	p = pcap_fopen_offline(fp, ebuf);
	if (!p) {
		if (fp != stdin)
			fclose(fp);
		return err_set(err, -EINVAL, "%s: not a pcap or pcapng file: %s",
			       path, ebuf[0] ? ebuf : "libpcap refused it");
	}
	*pp = p;
	return 0;
}

/* Read every record of p into out; 0, -EBADMSG (out->error set) or -ENOMEM. */
static int read_records(struct reader *r, pcap_t *p,
			const struct bpf_program *prog, const struct pcapread_opts *o)
{
	struct pcapread *out = r->out;
	int dlt = out->dlt;
	struct pcap_pkthdr *hdr;
	const u_char *data;
	int ret;

	while ((ret = pcap_next_ex(p, &hdr, &data)) == 1) {
		uint64_t pkt = ++out->packets;
		struct pkt_info pi;
		const char *why = NULL;
		enum pkt_verdict v;

		if (prog && !pcap_offline_filter(prog, hdr, data)) {
			out->filtered++;
			continue;
		}
		v = pkt_parse(dlt, data, hdr->caplen, hdr->len, &pi, &why);
		if (o->port) {
			/* Only a packet whose ports were read can match. */
			if (v != PKT_OK || (pi.sport != o->port && pi.dport != o->port)) {
				out->filtered++;
				continue;
			}
		}
		if (v != PKT_OK) {
			count_verdict(out, v, why, pkt);
			continue;
		}
		if (count_packet(r, &pi, pkt))
			return -ENOMEM;
	}
	if (ret == PCAP_ERROR) {
		snprintf(out->error, sizeof(out->error), "packet %llu: %s",
			 (unsigned long long)out->packets + 1, pcap_geterr(p));
		return -EBADMSG;
	}
	return 0;
}

int pcapread_file(const char *path, const struct pcapread_opts *o,
		  struct pcapread *out, char *err)
{
	static const struct pcapread_opts none;
	struct reader r = { .out = out };
	struct bpf_program prog;
	bool have_prog = false;
	char dlt_buf[32];
	pcap_t *p = NULL;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!o)
		o = &none;
	/* For display only: a file name can hold escapes too. */
	str_escape(out->path, sizeof(out->path), path, strlen(path));
	ret = open_file(path, &p, err);
	if (ret)
		return ret;
	out->dlt = pcap_datalink(p);
	snprintf(out->dlt_name, sizeof(out->dlt_name), "%s",
		 pkt_dlt_name(out->dlt, dlt_buf, sizeof(dlt_buf)));
	/* pcapng's section header is version 1.0, pcap's file header 2.4. */
	out->pcapng = pcap_major_version(p) == 1;
	if (!pkt_dlt_supported(out->dlt)) {
		ret = err_set(err, -EPROTONOSUPPORT,
			      "%s: link type %s (%d) not supported; accepted: %s",
			      path, out->dlt_name, out->dlt, accepted_dlts);
		goto out;
	}
	if (o->filter) {
		if (pcap_compile(p, &prog, o->filter, 1, PCAP_NETMASK_UNKNOWN)) {
			ret = err_set(err, -EINVAL, "filter '%s': %s", o->filter,
				      pcap_geterr(p));
			goto out;
		}
		have_prog = true;
	}
	ret = read_records(&r, p, have_prog ? &prog : NULL, o);
	if (ret && ret != -EBADMSG) {
		err_set(err, ret, "%s: packet %llu: out of memory", path,
			(unsigned long long)out->packets);
		goto out;
	}
	out->complete = ret == 0;
	flows_mss(&r, o->mss);
	if (flows_compact(out)) {
		ret = err_set(err, -ENOMEM, "%s: out of memory", path);
		goto out;
	}
	if (ret == -EBADMSG)
		snprintf(err, ERR_MAX, "%s", out->error);
out:
	if (have_prog)
		pcap_freecode(&prog);
	pcap_close(p);
	free(r.aux);
	free(r.slots);
	if (ret && ret != -EBADMSG)
		pcapread_free(out);
	return ret;
}

void pcapread_free(struct pcapread *r)
{
	for (unsigned i = 0; i < r->nflows; i++)
		seghist_free(&r->flows[i].h);
	free(r->flows);
	r->flows = NULL;
	r->nflows = 0;
}
