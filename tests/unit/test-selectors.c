// SPDX-License-Identifier: GPL-2.0-or-later
/* test-selectors.c - selector lists and every output format over hand-built runs. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "options.h"
#include "output.h"
#include "selectors.h"
#include "tap.h"

static struct sock_sample rr_lsock, rr_rsock, st_lsock, st_rsock;

static void fill_cpu(struct cpu_sample *c, double busy, double peak, int id)
{
	c->ncpu = 2;
	c->total.id = -1;
	c->total.busy = busy;
	c->total.idle = 100 - busy;
	c->cpu[0].id = 0;
	c->cpu[0].busy = busy;
	c->cpu[1].id = 1;
	c->cpu[1].busy = peak;
	c->peak_busy = peak;
	c->peak_id = id;
}

static void fill_sock(struct sock_sample *s, int32_t snd0, int32_t rcv0,
		      int32_t snd, int32_t rcv)
{
	memset(s, 0, sizeof(*s));
	s->sndbuf_init = snd0;
	s->rcvbuf_init = rcv0;
	s->sndbuf = snd;
	s->rcvbuf = rcv;
	s->outq = 0;
	s->inq = 0;
	s->tcp.has = true;
	s->tcp.snd_mss = 65483;
	s->tcp.rcv_mss = 65483;
	s->tcp.snd_cwnd = 10;
	s->tcp.rtt_us = 45;
	s->tcp.rttvar_us = 12;
	s->tcp.total_retrans = 2;
}

/* A 1-byte TCP_RR over loopback, pinned, with -b 15 (seed 001). */
static void build_rr(struct run_summary *r)
{
	struct session_result *s = &r->res;

	memset(r, 0, sizeof(*r));
	params_default(&s->p);
	snprintf(s->local.cong_control, sizeof(s->local.cong_control), "cubic");
	snprintf(s->remote.cong_control, sizeof(s->remote.cong_control), "cubic");
	s->p.burst = 15;
	s->p.nodelay = true;
	s->p.lcpu = 0;
	s->p.rcpu = 1;
	snprintf(s->target, sizeof(s->target), "loopback, embedded server");
	snprintf(s->local.host, sizeof(s->local.host), "client1");
	snprintf(s->remote.host, sizeof(s->remote.host), "server1");
	snprintf(s->remote_addr, sizeof(s->remote_addr), "127.0.0.1");
	s->elapsed = 10.0;
	s->local.elapsed = s->remote.elapsed = 10.0;
	s->local.total.trans = 180000;
	s->local.total.bytes_sent = s->local.total.bytes_recv = 180000;
	s->local.total.msgs_sent = s->local.total.msgs_recv = 180000;
	s->remote.total = s->local.total;
	s->local.has_lat = true;
	s->local.lat = (struct lat_summary){
		.count = 180000, .min_us = 30.5, .mean_us = 53.25,
		.p50_us = 52.1, .p90_us = 60.4, .p99_us = 80.0,
		.p999_us = 120.75, .max_us = 900.0, .stddev_us = 9.5,
	};
	fill_sock(&rr_lsock, 16384, 131072, 121200, 131072);
	fill_sock(&rr_rsock, 16384, 131072, 121200, 2097152);
	s->local.nsocks = s->remote.nsocks = 1;
	s->local.socks = &rr_lsock;
	s->remote.socks = &rr_rsock;
	fill_cpu(&s->local.cpu, 45.5, 80.0, 1);
	fill_cpu(&s->remote.cpu, 30.25, 60.0, 0);
	s->local.ctx_vol = 1000;
	s->local.ctx_invol = 20;
	s->remote.ctx_vol = 900;
	s->remote.ctx_invol = 10;
	s->local.segs_out = s->local.segs_in = 180000;
	s->remote.segs_out = s->remote.segs_in = -1;
	s->local.cpu_bind = 0;
	s->remote.cpu_bind = 1;
	snprintf(s->local.host, sizeof(s->local.host), "client1");
	snprintf(s->remote.host, sizeof(s->remote.host), "server1");
	s->throughput = 18000.0;
	s->units = "Trans/s";
	s->local_sd = 25.3;
	s->remote_sd = 22.125;
	s->sd_units = "us/Tran";
	s->segs_local = (struct segs_per_trans){ 1.0, 1.0, 1.0, 1.0 };
	s->segs_remote = (struct segs_per_trans){ 1.0, 1.0, 1.0, 1.0 };
	s->local_ncpu = s->remote_ncpu = 2;
	s->counts_agree = true;
	snprintf(s->counts, sizeof(s->counts), "transactions local 180000 remote 180000");
	r->iterations = 1;
	r->mean_throughput = s->throughput;
	r->mean_lcpu = 45.5;
	r->mean_rcpu = 30.25;
}

/* A TCP_STREAM with -m 256K that iterated without reaching the width (seed 003). */
static void build_stream(struct run_summary *r)
{
	struct session_result *s = &r->res;

	memset(r, 0, sizeof(*r));
	params_default(&s->p);
	snprintf(s->local.cong_control, sizeof(s->local.cong_control), "cubic");
	snprintf(s->remote.cong_control, sizeof(s->remote.cong_control), "cubic");
	s->p.type = TEST_TCP_STREAM;
	s->p.send_size = 256 * 1024;
	snprintf(s->target, sizeof(s->target), "10.0.0.1 (-H)");
	snprintf(s->local.host, sizeof(s->local.host), "client1");
	snprintf(s->remote.host, sizeof(s->remote.host), "server1");
	snprintf(s->remote_addr, sizeof(s->remote_addr), "10.0.0.1");
	s->elapsed = 20.0;
	s->local.elapsed = s->remote.elapsed = 20.0;
	s->local.total.bytes_sent = 40000000000ull;
	s->local.total.msgs_sent = 40000000000ull / (256 * 1024);
	s->remote.total.bytes_recv = 40000000000ull;
	s->remote.total.msgs_recv = 3000000;
	fill_sock(&st_lsock, 16384, 131072, 3056328, 131072);
	fill_sock(&st_rsock, 16384, 131072, 16384, 6291456);
	s->local.nsocks = s->remote.nsocks = 1;
	s->local.socks = &st_lsock;
	s->remote.socks = &st_rsock;
	fill_cpu(&s->local.cpu, 2.97, 40.0, 1);
	fill_cpu(&s->remote.cpu, 5.5, 50.0, 0);
	s->local.cpu_bind = s->remote.cpu_bind = -1;
	s->local.segs_out = s->local.segs_in = -1;
	s->remote.segs_out = s->remote.segs_in = -1;
	s->throughput = 16311.69;
	s->units = "10^6bits/s";
	s->local_sd = 0.359;
	s->remote_sd = -1;
	s->sd_units = "us/KB";
	s->segs_local = s->segs_remote = (struct segs_per_trans){ -1, -1, -1, -1 };
	s->local_ncpu = s->remote_ncpu = 2;
	s->counts_agree = true;
	snprintf(s->counts, sizeof(s->counts), "bytes sent 40000000000, received by the remote end 40000000000");
	r->iterations = 10;
	r->iterating = true;
	r->it = (struct iterate){ .max_iter = 10, .min_iter = 3, .level = 99, .width_pct = 5 };
	r->thr = (struct ci){ .n = 10, .mean = 16000, .stddev = 500, .half_width = 550, .width_pct = 6.875 };
	r->lcpu = (struct ci){ .n = 10, .mean = 3.0, .stddev = 0.1, .half_width = 0.1, .width_pct = 6.6 };
	r->ci_reached = false;
	r->mean_throughput = 16000.0;
	r->mean_lcpu = 3.0;
}

/* A run whose figures went bad: NaN and infinity must never be printed. */
static void build_broken(struct run_summary *r)
{
	build_rr(r);
	r->res.throughput = NAN;
	r->mean_throughput = NAN;
	r->res.elapsed = 0;
	r->res.local_sd = NAN;
	r->res.remote_sd = INFINITY;
	r->res.local.lat.p99_us = NAN;
	r->res.local.cpu.total.busy = NAN;
	r->res.local.nsocks = 0;
	r->res.local.socks = NULL;
	r->res.segs_local.out = NAN;
	r->iterating = true;
	r->it = (struct iterate){ .max_iter = 3, .min_iter = 3, .level = 95, .width_pct = 5 };
	r->thr = (struct ci){ .n = 3, .mean = 0, .width_pct = NAN };
	r->failed = true;
	snprintf(r->failure, sizeof(r->failure), "remote end: data connection reset\nby peer");
	r->res.counts_agree = false;
	snprintf(r->res.counts, sizeof(r->res.counts), "COUNTS DISAGREE: transactions local 5, remote 6");
}

/* Options as `tunetop run` would have them for one format. */
static void opts_for(struct run_opts *o, enum out_format fmt, bool all)
{
	unsigned n;

	memset(o, 0, sizeof(*o));
	params_default(&o->so.p);
	o->fmt = fmt;
	o->headers = true;
	o->local_cpu = o->remote_cpu = true;
	if (all) {
		selector_table(&n);
		for (unsigned i = 0; i < n && i < SEL_MAX; i++)
			o->sel.idx[o->sel.n++] = i;
	}
}

/* Print r with o into a string (caller frees). */
static char *render(const struct run_opts *o, const struct run_summary *r,
		    int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = output_result(f, o, r);
	fclose(f);
	return buf;
}

/* Show a rendered block as TAP comments, a "# " before every line. */
static void diag_block(const char *s)
{
	while (s && *s) {
		size_t n = strcspn(s, "\n");

		printf("# %.*s\n", (int)n, s);
		s += n + (s[n] == '\n');
	}
}

static unsigned count_char(const char *s, size_t len, char c)
{
	unsigned n = 0;

	for (size_t i = 0; i < len; i++)
		n += s[i] == c;
	return n;
}

/* The commas of s that separate RFC 4180 fields (none inside quotes). */
static unsigned count_seps(const char *s, size_t len)
{
	unsigned n = 0;
	bool q = false;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '"')
			q = !q;
		n += !q && s[i] == ',';
	}
	return n;
}

static unsigned count_lines(const char *s)
{
	return count_char(s, strlen(s), '\n');
}

/* True when no word of s is a printed NaN or infinity ("TCP_INFO" is fine). */
static bool no_nan(const char *s)
{
	static const char *const bad[] = { "nan", "inf" };

	for (const char *p = s; *p; p++)
		for (unsigned k = 0; k < 2; k++)
			if (!strncasecmp(p, bad[k], 3) &&
			    (p == s || !isalpha((unsigned char)p[-1])) &&
			    !isalpha((unsigned char)p[3]))
				return false;
	return true;
}

/* The value of selector name in a CSV header/values pair of every
 * selector in table order (the header holds netperf's titles). */
/* What output_banner prints for o, as a heap string. */
static char *render_banner(const struct run_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	output_banner(f, o);
	fclose(f);
	return buf;
}

/* Column name of the CSV value line of out, an RFC 4180 field unquoted. */
static char *csv_field(const char *out, const char *name, char *val, size_t n)
{
	const char *v = strchr(out, '\n');
	int col = selector_find(name);
	size_t k = 0;
	bool q = false;

	val[0] = '\0';
	if (!v || col < 0)
		return val;
	for (v++; *v && *v != '\n' && col >= 0; v++) {
		if (q && *v == '"' && v[1] == '"')
			v++;
		else if (*v == '"') {
			q = !q;
			continue;
		} else if (!q && *v == ',') {
			col--;
			continue;
		}
		if (!col && k + 1 < n)
			val[k++] = *v;
	}
	val[k] = '\0';
	return val;
}

static void test_table(void)
{
	static const char *const required[] = {
		"THROUGHPUT", "THROUGHPUT_UNITS", "TRANSACTION_RATE", "ELAPSED_TIME",
		"PROTOCOL", "DIRECTION", "TEST", "REQUEST_SIZE", "RESPONSE_SIZE",
		"BURST_SIZE", "LOCAL_SEND_SIZE", "REMOTE_RECV_SIZE", "LSS_SIZE_REQ",
		"LSS_SIZE", "LSS_SIZE_END", "LSR_SIZE_REQ", "LSR_SIZE",
		"LSR_SIZE_END", "RSS_SIZE_REQ", "RSS_SIZE", "RSS_SIZE_END",
		"RSR_SIZE_REQ", "RSR_SIZE", "RSR_SIZE_END", "MIN_LATENCY",
		"MAX_LATENCY", "MEAN_LATENCY", "STDDEV_LATENCY", "P50_LATENCY",
		"P90_LATENCY", "P99_LATENCY", "P999_LATENCY", "LOCAL_CPU_UTIL",
		"REMOTE_CPU_UTIL", "LOCAL_CPU_PEAK_UTIL", "LOCAL_CPU_PEAK_ID",
		"REMOTE_CPU_PEAK_UTIL", "REMOTE_CPU_PEAK_ID", "LOCAL_SD",
		"REMOTE_SD", "SD_UNITS", "LOCAL_CPU_BIND", "REMOTE_CPU_BIND",
		"LOCAL_TRANSPORT_RETRANS", "REMOTE_TRANSPORT_RETRANS",
		"CONFIDENCE_LEVEL", "CONFIDENCE_INTERVAL", "CONFIDENCE_ITERATION",
		"THROUGHPUT_CONFID", "LOCAL_CPU_CONFID", "REMOTE_CPU_CONFID",
		"LOCAL_TRANSACTIONS", "REMOTE_TRANSACTIONS", "LOCAL_BYTES_SENT",
		"LOCAL_BYTES_RECVD", "REMOTE_BYTES_SENT", "REMOTE_BYTES_RECVD",
		"NUM_FLOWS", "LOCAL_MSS", "REMOTE_MSS", "SEGS_OUT_PER_TRANS",
		"SEGS_IN_PER_TRANS", "LOCAL_CTX_VOLUNTARY", "LOCAL_CTX_INVOLUNTARY",
		"REMOTE_CTX_VOLUNTARY", "REMOTE_CTX_INVOLUNTARY", "UDP_LOST",
		"COUNTS_AGREE", "TARGET", "REMOTE_HOST", "LOCAL_CWND_END",
		"LOCAL_RTT_US_END", NULL
	};
	const struct selector *tab;
	unsigned n, missing = 0, bad = 0, dups = 0;

	tab = selector_table(&n);
	ok(n > 0 && n <= SEL_MAX, "the table has %u selectors, at most %d", n, SEL_MAX);
	for (const char *const *p = required; *p; p++)
		if (selector_find(*p) < 0) {
			missing++;
			printf("# missing %s\n", *p);
		}
	ok(!missing, "every selector the brief names is in the table");
	for (unsigned i = 0; i < n; i++) {
		for (const char *c = tab[i].name; *c; c++)
			if (!((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'))
				bad++;
		if (!tab[i].desc || !*tab[i].desc || strchr(tab[i].desc, '\n') || !tab[i].get)
			bad++;
		for (unsigned j = i + 1; j < n; j++)
			dups += !strcmp(tab[i].name, tab[j].name);
	}
	ok(!bad, "names are upper case; each has a one-line description and a getter");
	ok(!dups, "names are unique");
	ok(selector_find("p99_latency") == selector_find("P99_LATENCY") &&
	   selector_find("NOPE") == -1, "lookup is case-insensitive; unknown is -1");
}

static bool list_has(const struct selector_list *l, const char *name)
{
	int i = selector_find(name);

	for (unsigned k = 0; k < l->n; k++)
		if ((int)l->idx[k] == i)
			return true;
	return false;
}

static void test_parse(void)
{
	struct selector_list l;
	char err[ERR_MAX];
	int ret;

	ret = selectors_parse("THROUGHPUT, p99_latency ,Local_Cpu_Util", 'o',
			      TEST_TCP_RR, false, &l, err);
	ok(ret == 0 && l.n == 3 && (int)l.idx[0] == selector_find("THROUGHPUT") &&
	   (int)l.idx[1] == selector_find("P99_LATENCY") &&
	   (int)l.idx[2] == selector_find("LOCAL_CPU_UTIL"),
	   "a list parses in order, any case, spaces trimmed");
	ok(selectors_parse("TEST,TEST", 'o', TEST_TCP_RR, false, &l, err) == 0 &&
	   l.n == 2, "a repeated name is kept");
	err[0] = '\0';
	ret = selectors_parse("THROUGHPUT,BOGUS_THING", 'k', TEST_TCP_RR, false, &l, err);
	ok(ret == -EINVAL && strstr(err, "BOGUS_THING") && strstr(err, "-k help") &&
	   !strchr(err, '\n'), "an unknown name is refused, named, pointing to help: %s", err);
	ok(selectors_parse("A,", 'o', TEST_TCP_RR, false, &l, err) == -EINVAL,
	   "a trailing comma is refused");
	ok(selectors_parse("", 'o', TEST_TCP_RR, false, &l, err) == 0 &&
	   list_has(&l, "THROUGHPUT") && list_has(&l, "P50_LATENCY") &&
	   list_has(&l, "P99_LATENCY") && list_has(&l, "THROUGHPUT_UNITS") &&
	   !list_has(&l, "THROUGHPUT_CONFID"),
	   "empty list: the RR default set has throughput and latency");
	ok(selectors_parse("", 'o', TEST_TCP_STREAM, true, &l, err) == 0 &&
	   list_has(&l, "THROUGHPUT") && !list_has(&l, "P50_LATENCY") &&
	   list_has(&l, "LOCAL_SEND_SIZE") && list_has(&l, "THROUGHPUT_CONFID"),
	   "the stream default has no latency; iterating adds the confidence");
	ok(selectors_parse(" ", 'o', TEST_UDP_STREAM, false, &l, err) == 0 &&
	   list_has(&l, "UDP_LOST"), "the UDP default has the loss");
	ok(selectors_parse("", 'o', TEST_TCP_MAERTS, false, &l, err) == 0 &&
	   list_has(&l, "REMOTE_SEND_SIZE") && !list_has(&l, "LOCAL_SEND_SIZE"),
	   "the MAERTS default shows the remote send size");
}

/* Every selector, as CSV: one field each, no NaN, header and values agree. */
static void check_csv(const char *what, const struct run_summary *r)
{
	struct run_opts o;
	char *out;
	int ret;
	size_t len;
	const char *nl;

	opts_for(&o, OUT_CSV, true);
	out = render(&o, r, &ret);
	ok(ret == 0 && out, "%s: CSV of all selectors printed", what);
	if (!out)
		return;
	len = strlen(out);
	nl = strchr(out, '\n');
	ok(count_lines(out) == 2, "%s: CSV is a header line and a value line", what);
	ok(nl && count_char(out, (size_t)(nl - out), ',') == o.sel.n - 1,
	   "%s: the header has %u commas", what, o.sel.n - 1);
	ok(nl && count_seps(nl + 1, len - (size_t)(nl + 1 - out)) == o.sel.n - 1,
	   "%s: the value line has exactly %u commas outside quotes", what, o.sel.n - 1);
	ok(nl && no_nan(nl + 1), "%s: no nan or inf among the values", what);
	ok(nl && !strstr(nl + 1, ",,") && nl[1] != ',',
	   "%s: no field is empty", what);
	free(out);

	o.headers = false;
	out = render(&o, r, &ret);
	ok(out && count_lines(out) == 1, "%s: -P 0 drops the CSV header", what);
	free(out);
}

static void check_keyval(const char *what, const struct run_summary *r)
{
	struct run_opts o;
	const struct selector *tab;
	unsigned n, good = 0, i = 0;
	char *out, *save = NULL;
	int ret;

	opts_for(&o, OUT_KEYVAL, true);
	tab = selector_table(&n);
	out = render(&o, r, &ret);
	ok(ret == 0 && out && count_lines(out) == o.sel.n,
	   "%s: keyval prints one line per selector (%u)", what, o.sel.n);
	if (!out)
		return;
	ok(no_nan(out), "%s: keyval has no nan or inf", what);
	for (char *line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), i++) {
		size_t nl = strlen(tab[i].name);

		if (i < n && !strncmp(line, tab[i].name, nl) && line[nl] == '=' && line[nl + 1])
			good++;
	}
	ok(good == o.sel.n, "%s: every line is NAME=value in list order", what);
	free(out);
}

static void check_json(const char *what, const struct run_summary *r,
		       bool stream)
{
	static const char *const members[] = {
		"test", "params", "target", "result", "local", "remote",
		"iterations", "confidence", "counts_agree", NULL
	};
	struct run_opts o;
	json_error_t jerr;
	json_t *j, *res;
	char *out;
	int ret;
	unsigned missing = 0, nulls_ok = 0;
	const struct selector *tab;
	unsigned n;

	opts_for(&o, stream ? OUT_JSON_STREAM : OUT_JSON, false);
	out = render(&o, r, &ret);
	ok(ret == 0 && out, "%s: %s printed", what, stream ? "--json-stream" : "--json");
	if (!out)
		return;
	if (stream)
		ok(count_lines(out) == 1, "%s: the stream result is one line", what);
	j = json_loads(out, 0, &jerr);
	ok(j != NULL, "%s: the JSON parses back (%s)", what, j ? "ok" : jerr.text);
	ok(no_nan(out), "%s: the JSON has no nan or inf", what);
	free(out);
	if (!j)
		return;
	for (const char *const *m = members; *m; m++)
		if (!json_object_get(j, *m))
			missing++;
	ok(!missing, "%s: the document has every expected member", what);
	if (stream)
		ok(json_is_string(json_object_get(j, "type")) &&
		   !strcmp(json_string_value(json_object_get(j, "type")), "result"),
		   "%s: the stream line is of type result", what);
	ok(!strcmp(json_string_value(json_object_get(j, "test")) ?: "",
		   test_type_name(r->res.p.type)), "%s: test is the type name", what);
	res = json_object_get(j, "result");
	tab = selector_table(&n);
	for (unsigned i = 0; i < n; i++) {
		char key[64];
		size_t k;

		for (k = 0; tab[i].name[k]; k++)
			key[k] = (char)tolower((unsigned char)tab[i].name[k]);
		key[k] = '\0';
		if (json_object_get(res, key))
			nulls_ok++;
	}
	ok(json_is_object(res) && nulls_ok == n,
	   "%s: result has every selector by lower-case name", what);
	if (test_is_rr(r->res.p.type) && !r->failed) {
		ok(json_real_value(json_object_get(res, "throughput")) == 18000.0 &&
		   json_real_value(json_object_get(res, "p99_latency")) == 80.0 &&
		   json_integer_value(json_object_get(res, "burst_size")) == 15,
		   "%s: throughput, p99 and burst have their values", what);
		ok(json_is_null(json_object_get(j, "confidence")),
		   "%s: confidence is null without -i", what);
		ok(json_is_object(json_object_get(j, "local")) &&
		   json_is_object(json_object_get(j, "params")),
		   "%s: local and params are objects from msg.c", what);
	} else if (!r->failed) {
		json_t *c = json_object_get(j, "confidence");

		ok(json_is_null(json_object_get(res, "p99_latency")),
		   "%s: latency is null on a stream", what);
		ok(json_is_object(c) && json_is_false(json_object_get(c, "reached")) &&
		   json_object_get(c, "throughput"),
		   "%s: confidence says it was not reached", what);
	} else {
		ok(json_is_null(json_object_get(res, "throughput")) &&
		   json_is_null(json_object_get(res, "local_sd")) &&
		   json_is_true(json_object_get(j, "failed")),
		   "%s: NaN figures are null; failed is true", what);
	}
	json_decref(j);
}

static void test_values(void)
{
	struct run_summary *rr = calloc(1, sizeof(*rr));
	struct run_summary *st = calloc(1, sizeof(*st));
	struct run_opts o;
	char *out, v[SEL_STR_MAX];
	int ret;

	build_rr(rr);
	build_stream(st);
	strcpy(rr->res.remote.cong_control, "reno");

	opts_for(&o, OUT_CSV, true);
	out = render(&o, rr, &ret);
	ok(out && !strcmp(csv_field(out, "LOCAL_CONG_CONTROL", v, sizeof(v)), "cubic") &&
	   !strcmp(csv_field(out, "REMOTE_CONG_CONTROL", v, sizeof(v)), "reno"),
	   "each end's congestion control, as its socket said (%s)", v);
	free(out);
	rr->res.p.type = TEST_UDP_RR;
	out = render(&o, rr, &ret);
	ok(out && !strcmp(csv_field(out, "LOCAL_CONG_CONTROL", v, sizeof(v)), "TCP Only"),
	   "UDP: the local congestion control is netperf's 'TCP Only' (%s)", v);
	free(out);
	rr->res.p.type = TEST_TCP_RR;
	out = render(&o, rr, &ret);
	ok(out && !strcmp(csv_field(out, "P99_LATENCY", v, sizeof(v)), "80"),
	   "RR: P99_LATENCY is an integer, 80, as netperf prints it (%s)", v);
	ok(out && !strcmp(csv_field(out, "THROUGHPUT", v, sizeof(v)), "18000.00"),
	   "RR: THROUGHPUT is 18000.00 (%s)", v);
	ok(out && !strcmp(csv_field(out, "LOCAL_SD", v, sizeof(v)), "25.300"),
	   "RR with -c: LOCAL_SD is 25.300 (%s)", v);
	ok(out && !strcmp(csv_field(out, "RSR_SIZE_END", v, sizeof(v)), "2097152"),
	   "RR: RSR_SIZE_END is the remote final receive buffer (%s)", v);
	ok(out && !strcmp(csv_field(out, "LSS_SIZE_REQ", v, sizeof(v)), "-1"),
	   "RR: LSS_SIZE_REQ is -1 without -s, as netperf prints it (%s)", v);
	ok(out && !strcmp(csv_field(out, "TARGET_DESC", v, sizeof(v)), "loopback, embedded server") &&
	   strstr(out, ",\"loopback, embedded server\","),
	   "a comma inside a CSV value is quoted and cannot shift a column (%s)", v);
	ok(out && !strcmp(csv_field(out, "SEGS_OUT_PER_TRANS", v, sizeof(v)), "1.000"),
	   "RR: SEGS_OUT_PER_TRANS (%s)", v);
	ok(out && !strcmp(csv_field(out, "UDP_LOST", v, sizeof(v)), "n/a"),
	   "TCP: UDP_LOST is n/a (%s)", v);
	ok(out && !strcmp(csv_field(out, "LOCAL_CPU_BIND", v, sizeof(v)), "0") &&
	   !strcmp(csv_field(out, "LOCAL_TRANSPORT_RETRANS", v, sizeof(v)), "2"),
	   "RR: CPU binding and retransmits");
	free(out);

	o.local_cpu = o.remote_cpu = false;
	out = render(&o, rr, &ret);
	ok(out && !strcmp(csv_field(out, "LOCAL_SD", v, sizeof(v)), "-1.000") &&
	   !strcmp(csv_field(out, "REMOTE_SD", v, sizeof(v)), "-1.000") &&
	   !strcmp(csv_field(out, "LOCAL_CPU_UTIL", v, sizeof(v)), "-1.00"),
	   "without -c/-C service demand and CPU are netperf's -1 placeholders (%s)", v);
	free(out);

	opts_for(&o, OUT_CSV, true);
	out = render(&o, st, &ret);
	ok(out && !strcmp(csv_field(out, "P50_LATENCY", v, sizeof(v)), "-1") &&
	   !strcmp(csv_field(out, "REQUEST_SIZE", v, sizeof(v)), "-1") &&
	   !strcmp(csv_field(out, "UDP_LOST", v, sizeof(v)), "n/a"),
	   "stream: latency and request size are netperf's -1, tunetop's own n/a (%s)", v);
	ok(out && !strcmp(csv_field(out, "THROUGHPUT", v, sizeof(v)), "16000.00"),
	   "stream with -i: THROUGHPUT is the mean over iterations (%s)", v);
	ok(out && !strcmp(csv_field(out, "THROUGHPUT_CONFID", v, sizeof(v)), "6.875") &&
	   !strcmp(csv_field(out, "CONFIDENCE_ITERATION", v, sizeof(v)), "10") &&
	   !strcmp(csv_field(out, "CONFIDENCE_REACHED", v, sizeof(v)), "no"),
	   "stream: confidence width, iterations, not reached");
	ok(out && !strcmp(csv_field(out, "LOCAL_SEND_SIZE", v, sizeof(v)), "262144") &&
	   !strcmp(csv_field(out, "DIRECTION", v, sizeof(v)), "Send"),
	   "stream: send size and direction");
	ok(out && !strcmp(csv_field(out, "REMOTE_SD", v, sizeof(v)), "-1.000"),
	   "stream: a remote SD the engine did not measure is -1.000, as netperf prints it");
	free(out);
	free(rr);
	free(st);
}

static void test_formats(void)
{
	struct run_summary *rr = calloc(1, sizeof(*rr));
	struct run_summary *st = calloc(1, sizeof(*st));
	struct run_summary *bad = calloc(1, sizeof(*bad));

	build_rr(rr);
	build_stream(st);
	build_broken(bad);
	check_csv("RR", rr);
	check_csv("stream", st);
	check_csv("broken", bad);
	check_keyval("RR", rr);
	check_keyval("stream", st);
	check_keyval("broken", bad);
	check_json("RR", rr, false);
	check_json("RR", rr, true);
	check_json("stream", st, false);
	check_json("broken", bad, false);
	check_json("broken", bad, true);
	free(rr);
	free(st);
	free(bad);
}

static void test_human(void)
{
	struct run_summary *rr = calloc(1, sizeof(*rr));
	struct run_summary *st = calloc(1, sizeof(*st));
	struct run_summary *bad = calloc(1, sizeof(*bad));
	struct run_opts o;
	char *out;
	int ret;

	build_rr(rr);
	build_stream(st);
	build_broken(bad);
	opts_for(&o, OUT_HUMAN, false);

	o.so.p = rr->res.p;
	out = render_banner(&o);
	ok(out && !strcmp(out, "MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 () port 0 AF_INET : nodelay : histogram : demo : first burst 15 : cpu bind\n"),
	   "RR: netperf's banner with its modifiers in netperf's order");
	diag_block(out);
	free(out);
	out = render(&o, rr, &ret);
	ok(ret == 0 && out && !strstr(out, "MIGRATED") &&
	   strstr(out, "Local /Remote\nSocket Size   Request Resp.  Elapsed Trans.   CPU    CPU    S.dem   S.dem\n") == out,
	   "RR: netperf's titles with the CPU columns of -c -C");
	ok(out && strstr(out, "\n\n16384  131072 1       1      10.00   18000.00  ") &&
	   strstr(out, "25.300") && strstr(out, "\n16384  131072\n\nTarget: "),
	   "RR: netperf's rows with initial socket sizes, then a blank line and the extras");
	ok(out && strstr(out, "local send 16384 -> ") && strstr(out, " -> 121200"),
	   "RR: buffer growth among the extras");
	ok(out && strstr(out, "CPU placement: local CPU 0 (pinned), remote CPU 1 (pinned)"),
	   "RR: the CPU placement is shown");
	ok(out && strstr(out, "p99 80.00") && strstr(out, "Service demand: local 25.300 us/Tran"),
	   "RR: latency and service demand lines");
	ok(out && strstr(out, "Segments per transaction") && strstr(out, "Counts agree"),
	   "RR: segments per transaction and the counts line");
	ok(out && no_nan(out), "RR: no nan in human output");
	diag_block(out);
	free(out);

	o.headers = false;
	out = render(&o, rr, &ret);
	ok(out && count_lines(out) == 2 && !strstr(out, "Trans.") && strstr(out, "18000.00") &&
	   !strstr(out, "Target") && !strstr(out, "Counts"),
	   "-P 0: netperf's two rows only");
	free(out);
	out = render_banner(&o);
	ok(out && !*out, "-P 0: no banner");
	free(out);

	opts_for(&o, OUT_HUMAN, false);
	o.so.p = st->res.p;
	o.iterating = true;
	o.it = st->it;
	out = render_banner(&o);
	ok(out && strstr(out, "MIGRATED TCP STREAM TEST") && strstr(out, "+/-2.500% @ 99% conf.  : histogram"),
	   "stream: banner with the confidence asked for");
	free(out);
	out = render(&o, st, &ret);
	ok(out && strstr(out, "!!! WARNING") &&
	   strstr(out, "Desired confidence was not achieved") &&
	   strstr(out, "Throughput      : 6.875%"),
	   "stream: the loud warning when the width was not reached");
	ok(out && strstr(out, "10^6bits/s") && strstr(out, "6291456") &&
	   strstr(out, "16000.00") &&
	   strstr(out, "CPU placement: local not pinned, CPU not seen, remote not pinned"),
	   "stream: netperf columns, receiver's final buffer, mean throughput");
	diag_block(out);
	free(out);

	/* UDP_STREAM: the sending line counts the sends the kernel refused. */
	st->res.p.type = TEST_UDP_STREAM;
	st->res.local.send_errors = 7;
	st->iterating = false;
	o.local_cpu = o.remote_cpu = false;
	out = render(&o, st, &ret);
	ok(out && strstr(out, "bytes   bytes    secs            #      #   10^6bits/sec\n\n") &&
	   strstr(out, "   152587      7    16000.00\n") &&
	   strstr(out, "          20.00     3000000           16000.00\n\nTarget"),
	   "UDP_STREAM: netperf's two lines, the Errors column the refused sends");
	diag_block(out);
	free(out);
	st->res.p.type = TEST_TCP_STREAM;
	st->iterating = true;
	o.local_cpu = o.remote_cpu = true;

	st->ci_reached = true;
	st->thr.width_pct = 2.25;
	out = render(&o, st, &ret);
	ok(out && !strstr(out, "WARNING") &&
	   strstr(out, "10 iterations, 99% confidence interval width 2.2% of the mean throughput"),
	   "stream: the iteration line when the width was reached");
	free(out);

	out = render(&o, bad, &ret);
	ok(out && strstr(out, "!!! The run failed") && strstr(out, "!!! COUNTS DISAGREE") &&
	   no_nan(out), "broken: failure and disagreement are loud, no nan");
	diag_block(out);
	free(out);

	bad->res.counts[0] = '\0';
	bad->res.local.cpu.ncpu = 0;
	out = render(&o, bad, &ret);
	ok(out && strstr(out, "Counts: n/a (not compared)") &&
	   !strstr(out, "DISAGREE") && strstr(out, "CPU utilisation: local n/a,"),
	   "counts never compared and CPU not measured read n/a, not a disagreement");
	free(out);

	opts_for(&o, OUT_HUMAN, false);
	selectors_parse("TEST,THROUGHPUT,P99_LATENCY", 'O', TEST_TCP_RR, false, &o.sel, NULL);
	out = render(&o, rr, &ret);
	ok(out && count_lines(out) == 5 && strstr(out, "TEST    Throughput 99th         \n") == out &&
	   strstr(out, "\nTCP_RR  18000.00   80           \n"),
	   "-O: netperf's four title lines over the values, tunetop's own under its name");
	diag_block(out);
	free(out);
	free(rr);
	free(st);
	free(bad);
}

static void test_interim(void)
{
	struct session_event ev;
	struct run_opts o;
	json_error_t jerr;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	json_t *j;

	memset(&ev, 0, sizeof(ev));
	ev.kind = SESSION_EV_SAMPLE;
	ev.local.seq = 5;
	ev.local.t = 2.5;
	ev.local.iv_secs = 0.5;
	ev.local.rate = 18123.45;
	ev.local.has_lat = true;
	ev.local.lat_iv = (struct lat_summary){ .count = 9000, .min_us = 40, .mean_us = 55,
		.p50_us = 53.5, .p90_us = 60, .p99_us = 81.25, .p999_us = 100, .max_us = 200,
		.stddev_us = 5 };
	ev.local.lat_total = ev.local.lat_iv;
	fill_cpu(&ev.local.cpu, 42.0, 90.0, 1);
	ev.has_remote = false;

	opts_for(&o, OUT_HUMAN, false);
	o.interim = 0.5;
	f = open_memstream(&buf, &len);
	ok(output_interim(f, &o, &ev, 0) == 0, "human interim printed");
	fclose(f);
	ok(buf && strstr(buf, "Interim result: 18123.45 Trans/s over 0.500 seconds ending at ") &&
	   strstr(buf, "p50 53.50 us p99 81.25 us") && strstr(buf, "local CPU 42.0%") &&
	   count_lines(buf) == 1, "the interim line is netperf's, with latency and CPU: %s",
	   buf ? buf : "");
	free(buf);

	o.interim = 0;
	buf = NULL;
	f = open_memstream(&buf, &len);
	output_interim(f, &o, &ev, 0);
	fclose(f);
	ok(buf && !*buf, "no interim line without -D");
	free(buf);

	opts_for(&o, OUT_CSV, false);
	o.interim = 0.5;
	buf = NULL;
	f = open_memstream(&buf, &len);
	output_interim(f, &o, &ev, 3);
	fclose(f);
	ok(buf && !strncmp(buf, "18123.45,Trans/s,0.500,", 23) && count_lines(buf) == 1,
	   "CSV with -D: netperf's interim line RATE,UNITS,INTERVAL,ENDING: %s", buf ? buf : "");
	free(buf);

	opts_for(&o, OUT_KEYVAL, false);
	o.interim = 0.5;
	buf = NULL;
	f = open_memstream(&buf, &len);
	output_interim(f, &o, &ev, 3);
	fclose(f);
	const char *kv = "NETPERF_INTERIM_RESULT[3]=18123.45\nNETPERF_UNITS[3]=Trans/s\n"
			 "NETPERF_INTERVAL[3]=0.500\nNETPERF_ENDING[3]=";
	ok(buf && !strncmp(buf, kv, strlen(kv)) && count_lines(buf) == 4,
	   "keyval with -D: netperf's four NETPERF_*[3] lines: %s", buf ? buf : "");
	free(buf);

	opts_for(&o, OUT_JSON_STREAM, false);
	buf = NULL;
	f = open_memstream(&buf, &len);
	ok(output_interim(f, &o, &ev, 0) == 0, "json-stream interim printed");
	fclose(f);
	j = buf ? json_loads(buf, 0, &jerr) : NULL;
	ok(j && count_lines(buf) == 1 &&
	   !strcmp(json_string_value(json_object_get(j, "type")) ?: "", "interval") &&
	   json_real_value(json_object_get(j, "t")) == 2.5 &&
	   json_is_object(json_object_get(j, "local")) &&
	   json_is_null(json_object_get(j, "remote")),
	   "the interval line parses: type, t, local, remote null");
	json_decref(j);
	free(buf);
}

/* A run with a capture: drops are flagged, a missing end says why, the
 * selectors and the JSON carry the classes. */
static void test_capture(void)
{
	struct run_summary *rr = calloc(1, sizeof(*rr));
	struct seg_capture cap;
	struct run_opts o;
	struct sel_value v;
	json_t *j, *sent;
	char *out;
	int ret;

	build_rr(rr);
	rr->res.p.capture = CAPTURE_ON;
	memset(&cap, 0, sizeof(cap));
	snprintf(cap.dev, sizeof(cap.dev), "veth-a");
	snprintf(cap.filter, sizeof(cap.filter), "tcp and port 5001 and host 198.18.0.2");
	cap.n.counted = 1000;
	cap.n.kernel_drop = 5;
	for (int d = 0; d < CAP_NDIRS; d++) {
		seghist_init(&cap.dir[d]);
		cap.mss[d] = 1448;
	}
	seghist_add_n(&cap.dir[CAP_OUT], 1, 990);
	seghist_add_n(&cap.dir[CAP_OUT], 4345, 2);
	seghist_add_n(&cap.dir[CAP_OUT], 2896, 3);
	seghist_add_n(&cap.dir[CAP_IN], 0, 500);
	rr->res.local.cap = &cap;
	snprintf(rr->res.remote.cap_note, sizeof(rr->res.remote.cap_note),
		 "capture on eth0: permission denied (needs CAP_NET_RAW: run as root, or without --capture)");
	opts_for(&o, OUT_HUMAN, false);
	out = render(&o, rr, &ret);
	ok(ret == 0 && out && strstr(out, "Capture, local end: veth-a, filter \"tcp and port 5001 and host 198.18.0.2\": 1000 packets counted, SOME DROPPED") &&
	   strstr(out, "!!! Capture, local end: 5 packets dropped (kernel ring 5, interface 0): the histograms below miss them"),
	   "human: a drop is flagged on the capture line and in a loud line of its own");
	ok(out && strstr(out, "Capture, remote end: none: capture on eth0: permission denied"),
	   "human: an end without a capture says why");
	ok(out && strstr(out, "local end sent  MSS 1448") && strstr(out, "super (3 MSS + 1)") &&
	   strstr(out, "2 x MSS") && strstr(out, "local end received  MSS 1448"),
	   "human: the sizes of each direction with their classes");
	diag_block(out);
	free(out);

	selector_eval((unsigned)selector_find("LOCAL_CAP_DROPS"), rr, &v);
	ok(v.kind == SEL_INT && v.i == 5, "LOCAL_CAP_DROPS is 5 (%lld)", (long long)v.i);
	selector_eval((unsigned)selector_find("LOCAL_CAP_SENT_SUPER"), rr, &v);
	ok(v.kind == SEL_INT && v.i == 5, "LOCAL_CAP_SENT_SUPER counts multiples and others (%lld)", (long long)v.i);
	selector_eval((unsigned)selector_find("LOCAL_CAP_RECV_ACKS"), rr, &v);
	ok(v.kind == SEL_INT && v.i == 500, "LOCAL_CAP_RECV_ACKS is 500 (%lld)", (long long)v.i);
	selector_eval((unsigned)selector_find("REMOTE_CAP_SENT_DATA"), rr, &v);
	ok(v.kind == SEL_NA, "an end without a capture has n/a figures");

	j = output_result_json(&o, rr);
	sent = json_object_get(json_object_get(json_object_get(j, "local"), "capture"), "sent");
	ok(sent && json_integer_value(json_object_get(json_object_get(json_object_get(sent, "classes"),
								      "super-other"), "segments")) == 2 &&
	   json_is_true(json_object_get(json_object_get(json_object_get(j, "local"), "capture"), "dropped")) &&
	   json_is_null(json_object_get(json_object_get(j, "remote"), "capture")),
	   "JSON: classes per direction, dropped true, null for the end without one");
	json_decref(j);
	rr->res.local.cap = NULL;
	seg_capture_free(&cap);
	free(rr);
}

int main(void)
{
	test_table();
	test_parse();
	test_values();
	test_formats();
	test_human();
	test_interim();
	test_capture();
	return tap_done();
}
