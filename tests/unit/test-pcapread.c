// SPDX-License-Identifier: GPL-2.0-or-later
/* test-pcapread.c - pcapread_file against the manifest of tests/data/pcap. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/pcapread.h"
#include "tap.h"

/*
 * tests/data/pcap/expected is written by tests/tools/mkpcap together with
 * the captures (see its header for the keys); this test holds
 * pcapread_file to every fact in it, then checks the options (--port,
 * --filter, --mss) and the errors on top.
 */

#define MAX_FILES	32
#define MAX_DIRS	16
#define MAX_SIZES	32

struct want_dir {
	char key[128];			/* "SRC:PORT>DST:PORT" */
	char proto[8];
	uint64_t first, packets, acks, ctl, data, bytes;
	uint32_t mss;
	unsigned nsizes;
	struct seg_bin sizes[MAX_SIZES];
};

struct want_file {
	char name[64];
	char format[16];
	bool open_error;
	int dlt;
	uint64_t packets, counted, not_ip, other_proto, fragments, short_hdr;
	uint64_t malformed, first_bad, error_packet, directions;
	unsigned ndirs;
	struct want_dir dirs[MAX_DIRS];
};

static struct want_file files[MAX_FILES];
static unsigned nfiles;
static char datadir[4096];

static struct want_file *want_file_get(const char *name)
{
	struct want_file *f;
	unsigned i;

	for (i = 0; i < nfiles; i++)
		if (!strcmp(files[i].name, name))
			return &files[i];
	if (nfiles == MAX_FILES)
		return NULL;
	f = &files[nfiles++];
	snprintf(f->name, sizeof(f->name), "%s", name);
	return f;
}

static struct want_dir *want_dir_get(struct want_file *f, const char *key)
{
	struct want_dir *d;
	unsigned i;

	for (i = 0; i < f->ndirs; i++)
		if (!strcmp(f->dirs[i].key, key))
			return &f->dirs[i];
	if (f->ndirs == MAX_DIRS)
		return NULL;
	d = &f->dirs[f->ndirs++];
	snprintf(d->key, sizeof(d->key), "%s", key);
	return d;
}

/* The counter of a whole-file key, or NULL if key is not one. */
static uint64_t *want_file_counter(struct want_file *f, const char *key)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "packets", offsetof(struct want_file, packets) },
		{ "counted", offsetof(struct want_file, counted) },
		{ "not-ip", offsetof(struct want_file, not_ip) },
		{ "other-proto", offsetof(struct want_file, other_proto) },
		{ "fragments", offsetof(struct want_file, fragments) },
		{ "short", offsetof(struct want_file, short_hdr) },
		{ "malformed", offsetof(struct want_file, malformed) },
		{ "first-bad", offsetof(struct want_file, first_bad) },
		{ "error-packet", offsetof(struct want_file, error_packet) },
		{ "directions", offsetof(struct want_file, directions) },
	};
	unsigned i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].key, key))
			return (uint64_t *)((char *)f + keys[i].off);
	return NULL;
}

/* The counter of a direction key, or NULL if key is not one. */
static uint64_t *want_dir_counter(struct want_dir *d, const char *key)
{
	if (!strcmp(key, "first"))
		return &d->first;
	if (!strcmp(key, "packets"))
		return &d->packets;
	if (!strcmp(key, "acks"))
		return &d->acks;
	if (!strcmp(key, "ctl"))
		return &d->ctl;
	if (!strcmp(key, "data"))
		return &d->data;
	if (!strcmp(key, "bytes"))
		return &d->bytes;
	return NULL;
}

/* One manifest line into files[]; false if it does not parse. */
static bool manifest_line(char *line)
{
	char *tok[6], *save = NULL, *p;
	struct want_file *f;
	struct want_dir *d;
	uint64_t *c;
	int n = 0;

	for (p = strtok_r(line, " \t\n", &save); p && n < 6;
	     p = strtok_r(NULL, " \t\n", &save))
		tok[n++] = p;
	if (n == 0 || tok[0][0] == '#')
		return true;
	if (n < 2 || !(f = want_file_get(tok[0])))
		return false;
	if (!strchr(tok[1], '>')) {
		if (n == 2 && !strcmp(tok[1], "open-error")) {
			f->open_error = true;
			return true;
		}
		if (n != 3)
			return false;
		if (!strcmp(tok[1], "format")) {
			snprintf(f->format, sizeof(f->format), "%s", tok[2]);
			return true;
		}
		if (!strcmp(tok[1], "dlt")) {
			f->dlt = atoi(tok[2]);
			return true;
		}
		c = want_file_counter(f, tok[1]);
		if (!c)
			return false;
		*c = strtoull(tok[2], NULL, 10);
		return true;
	}
	if (n < 4 || !(d = want_dir_get(f, tok[1])))
		return false;
	if (n == 4 && !strcmp(tok[2], "proto")) {
		snprintf(d->proto, sizeof(d->proto), "%s", tok[3]);
		return true;
	}
	if (n == 4 && !strcmp(tok[2], "mss")) {
		d->mss = strtoul(tok[3], NULL, 10);
		return true;
	}
	if (n == 5 && !strcmp(tok[2], "size")) {
		if (d->nsizes == MAX_SIZES)
			return false;
		d->sizes[d->nsizes].size = strtoul(tok[3], NULL, 10);
		d->sizes[d->nsizes++].count = strtoull(tok[4], NULL, 10);
		return true;
	}
	c = want_dir_counter(d, tok[2]);
	if (n != 4 || !c)
		return false;
	*c = strtoull(tok[3], NULL, 10);
	return true;
}

static bool manifest_load(void)
{
	char path[4200], line[512];
	unsigned lineno = 0;
	bool good = true;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/expected", datadir);
	fp = fopen(path, "r");
	if (!ok(fp != NULL, "the manifest %s opens", path))
		return false;
	while (fgets(line, sizeof(line), fp)) {
		lineno++;
		if (!manifest_line(line)) {
			printf("# %s:%u does not parse\n", path, lineno);
			good = false;
		}
	}
	fclose(fp);
	ok(good && nfiles >= 10, "the manifest parses and names %u files",
	   nfiles);
	return good;
}

/* "SRC:PORT>DST:PORT" of a flow, the manifest's spelling. */
static void flow_key(const struct pcapread_flow *fl, char *buf, size_t len)
{
	char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN];
	bool v6 = fl->family == AF_INET6;

	inet_ntop(fl->family, fl->src, s, sizeof(s));
	inet_ntop(fl->family, fl->dst, d, sizeof(d));
	snprintf(buf, len, "%s%s%s:%u>%s%s%s:%u", v6 ? "[" : "", s,
		 v6 ? "]" : "", fl->sport, v6 ? "[" : "", d, v6 ? "]" : "",
		 fl->dport);
}

static const struct pcapread_flow *find_flow(const struct pcapread *r,
					     const char *key)
{
	char k[128];
	unsigned i;

	for (i = 0; i < r->nflows; i++) {
		flow_key(&r->flows[i], k, sizeof(k));
		if (!strcmp(k, key))
			return &r->flows[i];
	}
	return NULL;
}

/* Append "what: got G, want W" to why when they differ. */
static void differ(char *why, size_t len, const char *what, uint64_t got,
		   uint64_t want)
{
	size_t n = strlen(why);

	if (got != want && n < len)
		snprintf(why + n, len - n, " %s: got %llu, want %llu;", what,
			 (unsigned long long)got, (unsigned long long)want);
}

/*
 * Compare one direction with the manifest: totals, sizes (compact and
 * sorted), and the MSS -- want_mss/want_src, since --mss changes them.
 * Returns the differences as text in why, empty if none.
 */
static void check_dir(const struct pcapread_flow *fl, const struct want_dir *w,
		      uint32_t want_mss, enum pcapread_mss_src want_src,
		      char *why, size_t len)
{
	const struct seghist *h = &fl->h;
	uint32_t i;

	why[0] = 0;
	differ(why, len, "proto", fl->proto,
	       !strcmp(w->proto, "tcp") ? IPPROTO_TCP : IPPROTO_UDP);
	differ(why, len, "first packet", fl->first_packet, w->first);
	differ(why, len, "packets", h->packets, w->packets);
	differ(why, len, "acks", h->acks, w->acks);
	differ(why, len, "ctl", h->ctl, w->ctl);
	differ(why, len, "data", h->data, w->data);
	differ(why, len, "bytes", h->bytes, w->bytes);
	differ(why, len, "lost bins", h->lost_bins, 0);
	differ(why, len, "mss", fl->mss, want_mss);
	differ(why, len, "mss source", fl->mss_src, want_src);
	differ(why, len, "table slots (0 = compact)", h->cap, 0);
	differ(why, len, "distinct sizes", h->nbins, w->nsizes);
	if (h->cap || h->nbins != w->nsizes)
		return;
	for (i = 0; i < h->nbins; i++) {
		differ(why, len, "size", h->bins[i].size, w->sizes[i].size);
		differ(why, len, "count", h->bins[i].count, w->sizes[i].count);
	}
}

/* The MSS and its source a direction has with no --mss. */
static void want_mss_of(const struct want_dir *w, uint32_t *mss,
			enum pcapread_mss_src *src)
{
	*mss = w->mss;
	*src = w->mss ? MSS_FROM_SYN : MSS_UNKNOWN;
}

static void path_of(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", datadir, name);
}

/* Check every direction of f the manifest lists, found in r. */
static void check_dirs(const struct want_file *f, const struct pcapread *r,
		       const char *ctx)
{
	const struct pcapread_flow *fl;
	enum pcapread_mss_src src;
	char why[1024];
	uint32_t mss;
	unsigned i;

	for (i = 0; i < f->ndirs; i++) {
		fl = find_flow(r, f->dirs[i].key);
		if (!ok(fl != NULL, "%s%s: direction %s is reported", f->name,
			ctx, f->dirs[i].key))
			continue;
		want_mss_of(&f->dirs[i], &mss, &src);
		check_dir(fl, &f->dirs[i], mss, src, why, sizeof(why));
		if (!ok(!why[0], "%s%s: %s has its sizes, acks, ctl and mss",
			f->name, ctx, f->dirs[i].key))
			printf("#  %s\n", why);
	}
}

/* Whether text starts with "packet N:". */
static bool names_packet(const char *text, uint64_t n)
{
	char want[32];

	snprintf(want, sizeof(want), "packet %llu:", (unsigned long long)n);
	return !strncmp(text, want, strlen(want));
}

/* Hold the reading of one file to everything the manifest says of it. */
static void check_file(const struct want_file *f)
{
	struct pcapread_opts o = { 0 };
	struct pcapread r;
	char path[4200], err[ERR_MAX] = "";
	unsigned i;
	bool order = true;
	int rc;

	path_of(f->name, path, sizeof(path));
	memset(&r, 0, sizeof(r));
	rc = pcapread_file(path, &o, &r, err);
	if (f->open_error) {
		ok(rc < 0 && rc != -EBADMSG && err[0],
		   "%s: refused at open with an error other than -EBADMSG "
		   "(rc %d, \"%s\")", f->name, rc, err);
		pcapread_free(&r);
		return;
	}
	if (f->error_packet) {
		ok(rc == -EBADMSG, "%s: reading stops with -EBADMSG (rc %d)",
		   f->name, rc);
		ok(!r.complete, "%s: the result says the file was not read "
		   "to its end", f->name);
		ok(names_packet(r.error, f->error_packet) &&
		   strstr(err, r.error),
		   "%s: the error names packet %llu (\"%s\", \"%s\")", f->name,
		   (unsigned long long)f->error_packet, r.error, err);
	} else {
		if (!ok(rc == 0, "%s: read to its end (rc %d, \"%s\")", f->name,
			rc, err))
			return;
		ok(r.complete && !r.error[0], "%s: complete, with no error",
		   f->name);
	}
	ok(r.dlt == f->dlt, "%s: link type %d (got %d, %s)", f->name, f->dlt,
	   r.dlt, r.dlt_name);
	ok(r.pcapng == !strcmp(f->format, "pcapng"), "%s: format %s",
	   f->name, f->format);
	ok(r.packets == f->packets, "%s: %llu records read (got %llu)",
	   f->name, (unsigned long long)f->packets,
	   (unsigned long long)r.packets);
	ok(r.filtered == 0, "%s: nothing filtered without a filter", f->name);
	ok(r.counted == f->counted,
	   "%s: %llu TCP/UDP packets counted (got %llu)", f->name,
	   (unsigned long long)f->counted, (unsigned long long)r.counted);
	ok(r.not_ip == f->not_ip && r.other_proto == f->other_proto &&
	   r.fragments == f->fragments,
	   "%s: %llu not IP, %llu other protocols, %llu fragments "
	   "(got %llu, %llu, %llu)", f->name,
	   (unsigned long long)f->not_ip, (unsigned long long)f->other_proto,
	   (unsigned long long)f->fragments, (unsigned long long)r.not_ip,
	   (unsigned long long)r.other_proto, (unsigned long long)r.fragments);
	ok(r.short_hdr == f->short_hdr && r.malformed == f->malformed,
	   "%s: %llu short, %llu malformed (got %llu, %llu)", f->name,
	   (unsigned long long)f->short_hdr, (unsigned long long)f->malformed,
	   (unsigned long long)r.short_hdr, (unsigned long long)r.malformed);
	if (f->first_bad)
		ok(names_packet(r.first_bad, f->first_bad),
		   "%s: the first bad packet is number %llu (\"%s\")", f->name,
		   (unsigned long long)f->first_bad, r.first_bad);
	else
		ok(!r.first_bad[0], "%s: no bad packet named (\"%s\")",
		   f->name, r.first_bad);
	ok(r.nflows == f->directions && f->ndirs == f->directions,
	   "%s: %llu directions (got %u)", f->name,
	   (unsigned long long)f->directions, r.nflows);
	for (i = 1; i < r.nflows; i++)
		if (r.flows[i].first_packet <= r.flows[i - 1].first_packet)
			order = false;
	ok(order, "%s: directions come in the order of their first packet",
	   f->name);
	check_dirs(f, &r, "");
	pcapread_free(&r);
}

static const struct want_file *want(const char *name)
{
	unsigned i;

	for (i = 0; i < nfiles; i++)
		if (!strcmp(files[i].name, name))
			return &files[i];
	return NULL;
}

/* Whether the key's destination or source port is port. */
static bool key_has_port(const char *key, unsigned port)
{
	char p[16];
	const char *gt = strchr(key, '>');
	size_t n;

	snprintf(p, sizeof(p), ":%u", port);
	n = strlen(p);
	return (gt && (size_t)(gt - key) >= n && !strncmp(gt - n, p, n)) ||
	       (strlen(key) >= n && !strcmp(key + strlen(key) - n, p));
}

/*
 * mixed.pcap through --port and through a BPF filter: only the directions
 * of the one connection on that port remain, each as counted unfiltered.
 */
static void check_port_filters(void)
{
	const struct want_file *f = want("mixed.pcap");
	struct pcapread_opts o = { 0 };
	struct want_file sub;
	struct pcapread r;
	char path[4200], err[ERR_MAX];
	const char *how;
	uint64_t kept = 0;
	unsigned i;
	int rc, pass;

	if (!ok(f != NULL, "mixed.pcap is in the manifest"))
		return;
	memset(&sub, 0, sizeof(sub));
	snprintf(sub.name, sizeof(sub.name), "%s", f->name);
	for (i = 0; i < f->ndirs; i++)
		if (key_has_port(f->dirs[i].key, 5002)) {
			sub.dirs[sub.ndirs++] = f->dirs[i];
			kept += f->dirs[i].packets;
		}
	if (!ok(sub.ndirs == 2 && f->ndirs > 2,
		"mixed.pcap has one connection on port 5002 among others"))
		return;
	path_of(f->name, path, sizeof(path));
	for (pass = 0; pass < 2; pass++) {
		o.port = pass ? 0 : 5002;
		o.filter = pass ? "tcp port 5002" : NULL;
		how = pass ? "filter 'tcp port 5002'" : "--port 5002";
		memset(&r, 0, sizeof(r));
		err[0] = 0;
		rc = pcapread_file(path, &o, &r, err);
		if (!ok(rc == 0, "mixed.pcap with %s: read (rc %d, \"%s\")",
			how, rc, err))
			continue;
		ok(r.nflows == 2, "mixed.pcap with %s: only the 2 directions "
		   "on port 5002 remain (got %u)", how, r.nflows);
		ok(r.packets == f->packets && r.counted == kept,
		   "mixed.pcap with %s: all %llu records read, %llu counted "
		   "(got %llu, %llu)", how,
		   (unsigned long long)f->packets, (unsigned long long)kept,
		   (unsigned long long)r.packets,
		   (unsigned long long)r.counted);
		if (pass)
			ok(r.filtered == f->packets - kept,
			   "mixed.pcap with a BPF filter: the %llu others are "
			   "filtered (got %llu)",
			   (unsigned long long)(f->packets - kept),
			   (unsigned long long)r.filtered);
		check_dirs(&sub, &r, pass ? " (BPF)" : " (--port)");
		pcapread_free(&r);
	}
}

/* --mss: every TCP direction takes the given MSS, sizes unchanged. */
static void check_given_mss(void)
{
	const struct want_file *f = want("en10mb-v4.pcap");
	struct pcapread_opts o = { .mss = 1000 };
	const struct pcapread_flow *fl;
	struct pcapread r;
	char path[4200], err[ERR_MAX] = "", why[1024];
	unsigned i, tcp = 0;
	int rc;

	if (!ok(f != NULL, "en10mb-v4.pcap is in the manifest"))
		return;
	path_of(f->name, path, sizeof(path));
	memset(&r, 0, sizeof(r));
	rc = pcapread_file(path, &o, &r, err);
	if (!ok(rc == 0, "en10mb-v4.pcap with --mss 1000: read (rc %d, \"%s\")",
		rc, err))
		return;
	for (i = 0; i < f->ndirs; i++) {
		if (strcmp(f->dirs[i].proto, "tcp"))
			continue;
		tcp++;
		fl = find_flow(&r, f->dirs[i].key);
		if (!ok(fl != NULL, "--mss 1000: direction %s is reported",
			f->dirs[i].key))
			continue;
		check_dir(fl, &f->dirs[i], 1000, MSS_GIVEN, why, sizeof(why));
		if (!ok(!why[0], "--mss 1000: %s has MSS 1000 (given) and "
			"the same sizes", f->dirs[i].key))
			printf("#  %s\n", why);
	}
	ok(tcp == 2, "en10mb-v4.pcap has one TCP connection");
	pcapread_free(&r);
}

/* A filter libpcap refuses and a file that is not there are errors. */
static void check_open_errors(void)
{
	struct pcapread_opts o = { .filter = "tcp port" };
	struct pcapread r;
	char path[4200], err[ERR_MAX] = "";
	int rc;

	path_of("en10mb-v4.pcap", path, sizeof(path));
	memset(&r, 0, sizeof(r));
	rc = pcapread_file(path, &o, &r, err);
	ok(rc < 0 && rc != -EBADMSG && strstr(err, "tcp port"),
	   "a filter libpcap cannot compile is an error naming it "
	   "(rc %d, \"%s\")", rc, err);
	pcapread_free(&r);

	o.filter = NULL;
	path_of("no-such-file.pcap", path, sizeof(path));
	memset(&r, 0, sizeof(r));
	err[0] = 0;
	rc = pcapread_file(path, &o, &r, err);
	ok(rc == -ENOENT && strstr(err, "no-such-file.pcap"),
	   "a missing file is -ENOENT with its name in the error "
	   "(rc %d, \"%s\")", rc, err);
	pcapread_free(&r);
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	unsigned i;

	snprintf(datadir, sizeof(datadir), "%s/tests/data/pcap",
		 top && *top ? top : ".");
	if (!manifest_load())
		return tap_done();
	for (i = 0; i < nfiles; i++)
		check_file(&files[i]);
	check_port_filters();
	check_given_mss();
	check_open_errors();
	return tap_done();
}
