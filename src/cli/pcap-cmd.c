// SPDX-License-Identifier: GPL-2.0-or-later
/* pcap-cmd.c - `tunetop pcap FILE`: per-direction payload sizes of a capture file. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine.h"
#include "cli-util.h"
#include "pcap-cmd.h"
#include "segout.h"

/* Rows per direction in the human output unless --all. */
#define PCAP_DEFAULT_ROWS 20

/* "[v6 endpoint]:port > [v6 endpoint]:port" fits. */
#define LABEL_MAX 160

enum pcap_fmt { PF_HUMAN, PF_CSV, PF_JSON };

struct pcap_cli {
	const char *file;
	struct pcapread_opts ro;
	enum pcap_fmt fmt;
	bool all;
};

static void pcap_usage(FILE *f)
{
	fprintf(f,
		"Usage: tunetop pcap FILE [--filter BPF] [--port N] [--mss N] [-o | --json] [--all]\n"
		"\n"
		"Count the TCP and UDP payload sizes of a pcap or pcapng file, per\n"
		"direction of each flow: what `tcpdump -r FILE | awk '{print $NF}' |\n"
		"sort -n | uniq -c` shows, with sizes from the IP and TCP headers (a\n"
		"short snaplen does not matter) and each size put against the MSS.\n"
		"Link types: Ethernet (802.1Q/802.1ad tags), Linux cooked (SLL, SLL2),\n"
		"raw IP, loopback (NULL, LOOP).  FILE - reads standard input.\n"
		"\n"
		"  --filter BPF   only packets the tcpdump-style filter BPF passes\n"
		"  --port N       only packets from or to port N (1..65535)\n"
		"  --mss N        classify sizes against MSS N (default: from the SYNs'\n"
		"                 MSS options, 12 less with timestamps)\n"
		"  -o             CSV: direction,size,count,class\n"
		"  --json         one JSON document\n"
		"  --all          list every size (default: the %d commonest per direction)\n"
		"  -h, --help     this help\n"
		"\n"
		"Exit status: 0 when the file was read to its end, 1 when a truncated or\n"
		"corrupt record stopped the reading (what was read before it is printed),\n"
		"2 for bad options or a file that cannot be read.\n",
		PCAP_DEFAULT_ROWS);
}

/* A format option after another one is a conflict. */
static int set_fmt(struct pcap_cli *c, enum pcap_fmt f, const char *name)
{
	if (c->fmt != PF_HUMAN && c->fmt != f) {
		fprintf(stderr, "tunetop: option %s: conflicts with %s; accepted: one of -o, --json\n",
			name, c->fmt == PF_CSV ? "-o" : "--json");
		return 2;
	}
	c->fmt = f;
	return 0;
}

/* Parse argv; 0, 1 (help printed) or 2 (said on stderr). */
static int pcap_parse(int argc, char **argv, struct pcap_cli *c)
{
	memset(c, 0, sizeof(*c));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		bool missing;
		uint64_t n;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			pcap_usage(stdout);
			return 1;
		}
		if (!strcmp(a, "-o") || !strcmp(a, "--json")) {
			if (set_fmt(c, a[1] == 'o' ? PF_CSV : PF_JSON, a))
				return 2;
			continue;
		}
		if (!strcmp(a, "--all")) {
			c->all = true;
			continue;
		}
		if ((v = cli_opt_value(argc, argv, &i, "--filter", &missing))) {
			c->ro.filter = v;
			continue;
		}
		if (!missing && (v = cli_opt_value(argc, argv, &i, "--port", &missing))) {
			if (parse_uint(v, 1, 65535, &n)) {
				fprintf(stderr, "tunetop: --port %s: accepted is a port number 1..65535\n", v);
				return 2;
			}
			c->ro.port = (int)n;
			continue;
		}
		if (!missing && (v = cli_opt_value(argc, argv, &i, "--mss", &missing))) {
			if (parse_uint(v, 1, 65535, &n)) {
				fprintf(stderr, "tunetop: --mss %s: accepted is a segment size 1..65535 bytes\n", v);
				return 2;
			}
			c->ro.mss = (uint32_t)n;
			continue;
		}
		if (missing) {
			fprintf(stderr, "tunetop: option %s: missing value\n", a);
			return 2;
		}
		if (a[0] == '-' && a[1]) {
			fprintf(stderr, "tunetop: option %s: unknown; accepted: FILE, --filter BPF, --port N, --mss N, -o, --json, --all, -h\n",
				a);
			return 2;
		}
		if (c->file) {
			fprintf(stderr, "tunetop: %s: one capture file only (already %s)\n",
				a, c->file);
			return 2;
		}
		c->file = a;
	}
	if (!c->file) {
		fprintf(stderr, "tunetop: pcap needs a capture file: tunetop pcap FILE (-h lists the options)\n");
		return 2;
	}
	return 0;
}

/* "SRC:PORT > DST:PORT" of one direction. */
static void flow_label(const struct pcapread_flow *f, char *buf, size_t len)
{
	char a[64], b[64];

	pkt_endpoint(f->family, f->src, f->sport, a, sizeof(a));
	pkt_endpoint(f->family, f->dst, f->dport, b, sizeof(b));
	snprintf(buf, len, "%s > %s", a, b);
}

static const char *mss_note(enum pcapread_mss_src s)
{
	switch (s) {
	case MSS_FROM_SYN:
		return "SYN";
	case MSS_GIVEN:
		return "--mss";
	default:
		return NULL;
	}
}

/* The directions as segout prints them; labels in one block of LABEL_MAX bytes each. */
static struct segout_dir *make_dirs(const struct pcapread *r, char **labels)
{
	struct segout_dir *d = calloc(r->nflows + 1, sizeof(*d));
	char *l = calloc(r->nflows + 1, LABEL_MAX);

	if (!d || !l) {
		free(d);
		free(l);
		return NULL;
	}
	for (unsigned i = 0; i < r->nflows; i++) {
		const struct pcapread_flow *f = &r->flows[i];

		flow_label(f, l + i * LABEL_MAX, LABEL_MAX);
		d[i].label = l + i * LABEL_MAX;
		d[i].mss_note = mss_note(f->mss_src);
		d[i].h = &f->h;
		d[i].mss = f->mss;
		d[i].udp = f->proto == IPPROTO_UDP;
	}
	*labels = l;
	return d;
}

/* The header: the file, what it holds and what was not counted. */
static void print_header(FILE *f, const struct pcapread *r)
{
	fprintf(f, "%s: %s, link type %s: %" PRIu64 " packets read, %" PRIu64
		" counted in %u directions",
		r->path, r->pcapng ? "pcapng" : "pcap", r->dlt_name, r->packets,
		r->counted, r->nflows);
	fprintf(f, "; filtered %" PRIu64 ", not IP %" PRIu64
		", other protocols %" PRIu64 ", fragments %" PRIu64
		", short %" PRIu64 ", malformed %" PRIu64,
		r->filtered, r->not_ip, r->other_proto, r->fragments,
		r->short_hdr, r->malformed);
	if (r->first_bad[0])
		fprintf(f, " (first: %s)", r->first_bad);
	if (!r->complete)
		fprintf(f, "; INCOMPLETE, stopped at %s", r->error);
	fputc('\n', f);
}

static json_t *addr_json(int family, const uint8_t *a)
{
	char buf[INET6_ADDRSTRLEN];

	if (!inet_ntop(family, a, buf, sizeof(buf)))
		return json_null();
	return json_string(buf);
}

/* One direction: segout_json plus the flow's addresses, ports and protocol. */
static json_t *dir_json(const struct segout_dir *d,
			const struct pcapread_flow *f)
{
	json_t *j = segout_json(d);

	if (!j)
		return NULL;
	if (json_object_set_new(j, "proto", json_string(f->proto == IPPROTO_UDP ? "udp" : "tcp")) ||
	    json_object_set_new(j, "src", addr_json(f->family, f->src)) ||
	    json_object_set_new(j, "sport", json_integer(f->sport)) ||
	    json_object_set_new(j, "dst", addr_json(f->family, f->dst)) ||
	    json_object_set_new(j, "dport", json_integer(f->dport)) ||
	    json_object_set_new(j, "first_packet", json_integer((json_int_t)f->first_packet))) {
		json_decref(j);
		return NULL;
	}
	return j;
}

/* The whole result as one JSON document; NULL when out of memory. */
static json_t *result_json(const struct pcapread *r, const struct segout_dir *d)
{
	json_t *dirs = json_array(), *doc;

	if (!dirs)
		return NULL;
	for (unsigned i = 0; i < r->nflows; i++)
		if (json_array_append_new(dirs, dir_json(&d[i], &r->flows[i]))) {
			json_decref(dirs);
			return NULL;
		}
	doc = json_pack("{s:o, s:s, s:i, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
			"file", json_string_lossy(r->path),
			"link_type", r->dlt_name,
			"dlt", r->dlt,
			"format", r->pcapng ? "pcapng" : "pcap",
			"packets", (json_int_t)r->packets,
			"filtered", (json_int_t)r->filtered,
			"counted", (json_int_t)r->counted,
			"not_ip", (json_int_t)r->not_ip,
			"other_proto", (json_int_t)r->other_proto,
			"fragments", (json_int_t)r->fragments,
			"short", (json_int_t)r->short_hdr,
			"malformed", (json_int_t)r->malformed);
	if (!doc ||
	    json_object_set_new(doc, "first_bad", r->first_bad[0] ? json_string_lossy(r->first_bad) : json_null()) ||
	    json_object_set_new(doc, "complete", json_boolean(r->complete)) ||
	    json_object_set_new(doc, "error", r->complete ? json_null() : json_string_lossy(r->error)) ||
	    json_object_set_new(doc, "directions", dirs)) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

/* Print r in the chosen format; 0 or -ENOMEM / -EIO. */
static int print_result(const struct pcap_cli *c, const struct pcapread *r)
{
	struct segout_dir *d;
	char *labels = NULL;
	int ret = 0;

	d = make_dirs(r, &labels);
	if (!d)
		return -ENOMEM;
	switch (c->fmt) {
	case PF_CSV:
		segout_csv(stdout, d, r->nflows, false);
		break;
	case PF_JSON: {
		json_t *doc = result_json(r, d);

		if (!doc) {
			ret = -ENOMEM;
			break;
		}
		if (json_dumpf(doc, stdout, JSON_INDENT(2)) || fputc('\n', stdout) == EOF)
			ret = -EIO;
		json_decref(doc);
		break;
	}
	default:
		print_header(stdout, r);
		if (r->nflows)
			fputc('\n', stdout);
		segout_human(stdout, d, r->nflows, c->all ? 0 : PCAP_DEFAULT_ROWS);
		break;
	}
	if (fflush(stdout) && !ret)
		ret = -EIO;
	free(d);
	free(labels);
	return ret;
}

int pcap_main(int argc, char **argv)
{
	struct pcap_cli c;
	struct pcapread *r;
	char err[ERR_MAX];
	int ret, pr;

	ret = pcap_parse(argc, argv, &c);
	if (ret)
		return ret == 1 ? 0 : 2;
	r = calloc(1, sizeof(*r));
	if (!r) {
		fprintf(stderr, "tunetop: out of memory\n");
		return 1;
	}
	ret = pcapread_file(c.file, &c.ro, r, err);
	if (ret && ret != -EBADMSG) {
		fprintf(stderr, "tunetop: %s\n", err);
		free(r);
		return ret == -ENOMEM ? 1 : 2;
	}
	pr = print_result(&c, r);
	pcapread_free(r);
	free(r);
	if (pr) {
		fprintf(stderr, "tunetop: %s: writing the result: %s\n", c.file,
			strerror(-pr));
		return 1;
	}
	if (ret == -EBADMSG) {
		fprintf(stderr, "tunetop: %s: %s\n", c.file, err);
		return 1;
	}
	return 0;
}
