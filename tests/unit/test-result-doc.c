// SPDX-License-Identifier: GPL-2.0-or-later
/* test-result-doc.c - the result's fields by id and the document read back by them. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <math.h>
#include <string.h>

#include <jansson.h>

#include "engine.h"
#include "tap.h"

/* Every id names one row, and the row's name finds that id again. */
static void table_has_every_id(void)
{
	unsigned n, holes = 0, lost = 0;
	const struct selector *tab = selector_table(&n);

	ok(n == SEL_NIDS, "the table has a row for each id (%u of %d)", n, SEL_NIDS);
	for (unsigned i = 0; i < n; i++) {
		if (!tab[i].name || !tab[i].desc || !tab[i].get)
			holes++;
		else if (selector_find(tab[i].name) != (int)i)
			lost++;
	}
	ok(!holes && !lost, "no row left empty (%u), each name finds its own id (%u off)",
	   holes, lost);
	ok(!strcmp(tab[SEL_P50_LATENCY].name, "P50_LATENCY") &&
	   !strcmp(tab[SEL_THROUGHPUT_UNITS].name, "THROUGHPUT_UNITS") &&
	   !strcmp(tab[SEL_FAILURE].name, "FAILURE"), "an id is its row's name");
}

/* A 10 s test of type at throughput in units, nothing else known. */
static void base(struct session_result *res, enum test_type type, double throughput,
		 const char *units)
{
	memset(res, 0, sizeof(*res));
	params_default(&res->p);
	res->p.type = type;
	res->elapsed = 10;
	res->throughput = throughput;
	res->units = units;
}

/* A 1-byte TCP_RR of one iteration, its latency known. */
static void build(struct session_result *res)
{
	base(res, TEST_TCP_RR, 41234.5678, "Trans/s");
	res->local.has_lat = true;
	res->local.lat = (struct lat_summary){
		.count = 412345, .min_us = 12, .max_us = 900, .mean_us = 23.456,
		.p50_us = 21.004, .p90_us = 30, .p99_us = 77.126, .p999_us = 300,
	};
	res->local_sd = res->remote_sd = -1;
}

/* The document keeps every field under its lower-case name, and the
 * readers by id get what the table's getters give. */
static void doc_reads_by_id(void)
{
	struct session_result res;
	json_t *doc;
	unsigned missing = 0, n;
	const struct selector *tab = selector_table(&n);

	build(&res);
	doc = result_doc_one(&res, false, NULL, false, false);
	ok(doc != NULL, "result_doc_one makes a document");
	for (unsigned i = 0; i < n; i++) {
		char key[64];
		size_t k;

		for (k = 0; tab[i].name[k] && k < sizeof(key) - 1; k++)
			key[k] = (char)tolower((unsigned char)tab[i].name[k]);
		key[k] = '\0';
		if (!json_object_get(json_object_get(doc, "result"), key) ||
		    result_doc_field(doc, (enum sel_id)i) !=
		    json_object_get(json_object_get(doc, "result"), key))
			missing++;
	}
	ok(!missing, "every id reads its key of \"result\" (%u not)", missing);
	ok(result_doc_num(doc, SEL_P50_LATENCY) == 21.0 &&
	   result_doc_num(doc, SEL_P99_LATENCY) == 77.13,
	   "p50 and p99 by id, rounded as printed (%g, %g)",
	   result_doc_num(doc, SEL_P50_LATENCY), result_doc_num(doc, SEL_P99_LATENCY));
	ok(result_doc_num(doc, SEL_THROUGHPUT) == 41234.57 &&
	   !strcmp(result_doc_str(doc, SEL_THROUGHPUT_UNITS) ?: "", "Trans/s") &&
	   !strcmp(result_doc_str(doc, SEL_TEST) ?: "", "TCP_RR"),
	   "throughput, its units and the test by id");
	ok(isnan(result_doc_num(doc, SEL_LOCAL_SD)) && !result_doc_str(doc, SEL_THROUGHPUT) &&
	   isnan(result_doc_num(doc, SEL_FAILURE)),
	   "service demand without -c is null; a number is no string, a string no number");
	ok(json_is_false(json_object_get(doc, "failed")) &&
	   json_integer_value(json_object_get(doc, "iterations")) == 1 &&
	   json_is_null(json_object_get(doc, "confidence")),
	   "one iteration, not failed, no confidence");
	json_decref(doc);

	doc = result_doc_one(&res, true, "remote end: gone", true, false);
	ok(json_is_true(json_object_get(doc, "failed")) &&
	   !strcmp(result_doc_str(doc, SEL_FAILURE) ?: "", "remote end: gone") &&
	   !strcmp(json_string_value(json_object_get(doc, "failure")) ?: "", "remote end: gone"),
	   "a failed run says why, in failure and in the FAILURE field");
	json_decref(doc);
	ok(isnan(result_doc_num(NULL, SEL_THROUGHPUT)) && !result_doc_field(NULL, SEL_TEST),
	   "no document: every field absent");
}

/* A one-line catalog of the knob tcp_x (group sysctls), at path. */
static struct catalog *one_knob_catalog(const char *path)
{
	struct catalog *c = NULL;
	char err[ERR_MAX] = "";
	FILE *f = fopen(path, "w");

	if (!f)
		return NULL;
	fputs("tcp_x sysctl int netns net/ipv4/tcp_x 0 100 - sysctls a knob for the test\n", f);
	fclose(f);
	if (catalog_load(&c, path, err))
		printf("# catalog: %s\n", err);
	return c;
}

/*
 * An iterated TCP_STREAM with -c: both ends on host "h1", the local end
 * with one socket's limiter times, its segments, a capture (10 segments of
 * 1448 B received, one dropped by the kernel) and tcp_x=value; the remote
 * end with 12.5 % softirq and tcp_x n/a.  Free with summary_free().
 */
struct filled {
	struct run_summary sum;
	struct sock_sample sock;
	struct seg_capture cap;
	struct knob_snapshot snap[2];
	struct knob_snapshot_item item[2];
};

static void fill(struct filled *f, struct catalog *cat, const char *value)
{
	struct session_result *res = &f->sum.res;

	memset(f, 0, sizeof(*f));
	base(res, TEST_TCP_STREAM, 9000, "10^6bits/s");
	res->local_sd = 1.5;
	res->remote_sd = -1;
	snprintf(res->local.host, sizeof(res->local.host), "h1");
	snprintf(res->remote.host, sizeof(res->remote.host), "h1");
	res->local.segs_out = 1234;
	res->remote.segs_out = -1;
	res->local.cpu_bind = res->remote.cpu_bind = -1;
	res->local.cpu_main = res->remote.cpu_main = -1;
	res->remote.cpu.total.softirq = 12.5;
	f->sock.tcp.has = f->sock.tcp.has_chrono = true;
	f->sock.tcp.busy_us = 1000;
	f->sock.tcp.rwnd_limited_us = 250;
	f->sock.tcp.sndbuf_limited_us = 100;
	res->local.nsocks = 1;
	res->local.socks = &f->sock;
	for (int d = 0; d < CAP_NDIRS; d++)
		seghist_init(&f->cap.dir[d]);
	seghist_add_n(&f->cap.dir[CAP_IN], 1448, 10);
	f->cap.n.kernel_drop = 1;
	f->cap.mss[CAP_IN] = 1448;
	snprintf(f->cap.dev, sizeof(f->cap.dev), "lo");
	res->local.cap = &f->cap;
	res->catalog = cat;
	for (int e = 0; e < 2; e++) {
		snprintf(f->item[e].name, sizeof(f->item[e].name), "tcp_x");
		f->snap[e].n = 1;
		f->snap[e].item = &f->item[e];
		snprintf(f->snap[e].side, sizeof(f->snap[e].side), "%s", e ? "lab-b" : "local");
	}
	f->item[0].v.present = true;
	snprintf(f->item[0].v.text, sizeof(f->item[0].v.text), "%s", value);
	snprintf(f->item[1].v.reason, sizeof(f->item[1].v.reason), "not supported");
	res->knobs_local = &f->snap[0];
	res->knobs_remote = &f->snap[1];
	f->sum.iterations = 5;
	f->sum.iterating = true;
	f->sum.it.level = 95;
	f->sum.it.width_pct = 2.5;
	f->sum.it.min_iter = 3;
	f->sum.it.max_iter = 10;
	f->sum.thr = (struct ci){ .n = 5, .mean = 9000, .stddev = 10, .half_width = 12.25,
				  .width_pct = 0.27 };
	f->sum.mean_throughput = 9000;
}

static void summary_free(struct filled *f)
{
	free(f->cap.dir[CAP_IN].bins);
}

/* Every accessor finds the member result_doc wrote: writer and readers
 * name each member once, so they cannot drift apart. */
static void accessors_find_members(struct catalog *cat)
{
	static struct filled f;
	const char *L = result_doc_ends[0], *R = result_doc_ends[1];
	double data, bytes, busy, rwnd, sndbuf;
	struct result_doc_conf c;
	const json_t *l;
	json_t *doc;

	fill(&f, cat, "7");
	doc = result_doc(&f.sum, true, false);
	if (!ok(doc != NULL, "result_doc makes the filled summary's document"))
		return;
	ok(!strcmp(L, "local") && !strcmp(R, "remote") &&
	   result_doc_end(doc, L) && result_doc_end(doc, R) && !result_doc_end(doc, "middle"),
	   "the two ends, by their names");
	ok(!strcmp(result_doc_host(doc, L) ?: "", "h1") &&
	   !strcmp(result_doc_host(doc, R) ?: "", "h1"), "each end's host");
	ok(result_doc_segs_out(doc, L) == 1234 && result_doc_segs_out(doc, R) == -1,
	   "segments sent (%g, %g)", result_doc_segs_out(doc, L), result_doc_segs_out(doc, R));
	ok(result_doc_softirq(doc, R) == 12.5 && result_doc_softirq(doc, L) == 0,
	   "softirq share of the host (%g)", result_doc_softirq(doc, R));
	result_doc_sock_limited(doc, L, 0, &busy, &rwnd, &sndbuf);
	ok(result_doc_nsocks(doc, L) == 1 && result_doc_nsocks(doc, R) == 0 &&
	   busy == 1000 && rwnd == 250 && sndbuf == 100,
	   "one socket's limiter times (%g, %g, %g)", busy, rwnd, sndbuf);
	result_doc_sock_limited(doc, L, 1, &busy, &rwnd, &sndbuf);
	ok(isnan(busy) && isnan(rwnd) && isnan(sndbuf), "a socket not there: n/a");
	result_doc_capture_counts(doc, L, CAP_IN, &data, &bytes);
	ok(data == 10 && bytes == 14480, "the capture received 10 segments, 14480 B (%g, %g)",
	   data, bytes);
	result_doc_capture_counts(doc, L, CAP_OUT, &data, &bytes);
	ok(data == 0 && bytes == 0, "and sent none");
	result_doc_capture_counts(doc, R, CAP_IN, &data, &bytes);
	ok(isnan(data) && isnan(bytes) && !result_doc_capture_dropped(doc, R),
	   "the remote end captured nothing");
	ok(result_doc_capture_dropped(doc, L), "the local capture dropped packets");
	{
		const json_t *in = result_doc_capture_dir(doc, L, CAP_IN);
		double size = 0, count = 0;

		result_doc_seg_size(in, 0, &size, &count);
		ok(in && result_doc_seg_mss(in) == 1448 && result_doc_seg_data(in) == 10 &&
		   result_doc_seg_nsizes(in) == 1 && size == 1448 && count == 10,
		   "the received direction: MSS 1448, one size, 1448 B x 10 (%g x %g)",
		   size, count);
		ok(result_doc_capture(doc, L) && !result_doc_capture(doc, R) &&
		   !result_doc_capture_dir(doc, R, CAP_IN) &&
		   !result_doc_capture_dir(doc, L, CAP_NDIRS) &&
		   isnan(result_doc_seg_mss(result_doc_capture_dir(doc, L, CAP_OUT))),
		   "no capture, no direction; the sent direction's MSS unknown");
	}
	ok(result_doc_confidence(doc, &c) && c.level == 95 && c.width_pct == 2.5 &&
	   c.min_iter == 3 && c.max_iter == 10 && c.thr_n == 5 && c.thr_mean == 9000 &&
	   c.thr_half_width == 12.25,
	   "the confidence: -I95,2.5 -i10,3, n 5, mean 9000, half width 12.25");
	ok(store_result_ci(doc) == 12.25, "store_result_ci reads it (%g)", store_result_ci(doc));
	l = result_doc_knob_list(doc, L);
	ok(l && !strcmp(result_doc_knob_name(result_doc_knob(l, "tcp_x")) ?: "", "tcp_x") &&
	   !strcmp(result_doc_knob_value(result_doc_knob(l, "tcp_x")) ?: "", "7") &&
	   !strcmp(result_doc_knob_group(result_doc_knob(l, "tcp_x")) ?: "", "sysctls") &&
	   result_doc_knob_unit(result_doc_knob(l, "tcp_x")) &&
	   !result_doc_knob_reason(result_doc_knob(l, "tcp_x")) &&
	   !result_doc_knob(l, "nope"),
	   "the local knob, its value, group and unit; no other knob");
	l = result_doc_knob_list(doc, R);
	ok(l && result_doc_knob(l, "tcp_x") && !result_doc_knob_value(result_doc_knob(l, "tcp_x")) &&
	   !strcmp(result_doc_knob_reason(result_doc_knob(l, "tcp_x")) ?: "", "not supported"),
	   "the remote knob is n/a, and says why");
	ok(json_object_size(result_doc_fields(doc)) == SEL_NIDS &&
	   result_doc_fields(doc) == json_object_get(doc, "result"),
	   "the fields' member holds every field");
	json_decref(doc);

	f.sum.iterating = false;
	f.sum.res.knobs_remote = NULL;
	doc = result_doc(&f.sum, false, false);
	ok(!result_doc_confidence(doc, &c) && c.thr_n == 0 && isnan(c.thr_half_width) &&
	   isnan(store_result_ci(doc)) && result_doc_knob_list(doc, L) &&
	   !result_doc_knob_list(doc, R),
	   "one iteration: no confidence; a snapshot not taken: no knob list");
	json_decref(doc);
	summary_free(&f);
}

/* Add the filled summary's document, with tcp_x=value, to s. */
static int add_run(struct store *s, struct catalog *cat, const char *value, bool iterating,
		   bool lcpu, char *err)
{
	static struct filled f;
	struct store_run r;
	int rc;

	fill(&f, cat, value);
	f.sum.iterating = iterating;
	store_run_init(&r);
	snprintf(r.test, sizeof(r.test), "TCP_STREAM");
	snprintf(r.source, sizeof(r.source), "run");
	r.params = params_to_json(&f.sum.res.p);
	r.result = result_doc(&f.sum, lcpu, false);
	rc = store_add(s, &r, err);
	store_run_free(&r);
	summary_free(&f);
	return rc;
}

/* The store's paths into a stored document (json_extract in SQLite) find
 * the members result_doc wrote: -c, -i/-I and the knob that changed. */
static void store_reads_members(const char *dir, struct catalog *cat)
{
	char path[4096], err[ERR_MAX] = "";
	struct store *s = NULL;
	struct store_run *runs = NULL;
	struct store_setup set[3];
	unsigned n = 0;

	snprintf(path, sizeof(path), "%s/runs.db", dir);
	if (!ok(store_open(&s, path, err) == 0, "open a store (%s)", err))
		return;
	ok(!add_run(s, cat, "7", true, true, err) && !add_run(s, cat, "7", false, false, err) &&
	   !add_run(s, cat, "8", false, false, err), "three runs stored (%s)", err);
	ok(!store_list(s, NULL, &runs, &n, err) && n == 3 &&
	   !store_list_setup(s, runs, n, set, err), "listed with their setup (%s)", err);
	if (n == 3) {
		ok(!strcmp(set[0].flags, "-c -i10,3 -I95,2.5") && !set[0].knobs[0],
		   "run 1: service demand and confidence found (%s)", set[0].flags);
		ok(!set[1].flags[0] && !set[1].knobs[0], "run 2: nothing set, no knob changed");
		ok(!set[2].flags[0] && !strcmp(set[2].knobs, "tcp_x=8"),
		   "run 3: the knob that changed (%s)", set[2].knobs);
	}
	for (unsigned i = 0; i < n; i++)
		store_run_free(&runs[i]);
	free(runs);
	store_close(s);
	unlink(path);
}

int main(void)
{
	table_has_every_id();
	doc_reads_by_id();
	{
		char dir[] = "/tmp/tunetop-result-doc-XXXXXX", path[4096];
		struct catalog *cat;

		if (!mkdtemp(dir))
			return 1;
		snprintf(path, sizeof(path), "%s/knobs", dir);
		cat = one_knob_catalog(path);
		ok(cat != NULL, "a catalog of one knob");
		accessors_find_members(cat);
		store_reads_members(dir, cat);
		catalog_free(cat);
		unlink(path);
		rmdir(dir);
	}
	return tap_done();
}
