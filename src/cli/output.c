// SPDX-License-Identifier: GPL-2.0-or-later
/* output.c - print interim and final results: netperf-like text, CSV, keyval, JSON. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "engine.h"
#include "output.h"
#include "selectors.h"
#include "selectors-netperf.h"

/* jansson prints reals with 17 digits by default (18123.450000000001). */
#define JSON_FLAGS_REAL JSON_REAL_PRECISION(15)

/* Rotating buffers so one printf can show several selector values; a
 * value stays valid for the next VBUF_N - 1 values fetched. */
#define VBUF_N 32
struct vbufs {
	unsigned next;
	char s[VBUF_N][SEL_STR_MAX];
};

/* The text of field id for r ("n/a" when absent). */
static const char *sv(struct vbufs *b, const struct run_summary *r, enum sel_id id)
{
	char *buf = b->s[b->next++ % VBUF_N];
	struct sel_value v;

	selector_eval(id, r, &v);
	return sel_value_format(&v, buf, SEL_STR_MAX);
}

static bool sv_na(const struct run_summary *r, enum sel_id id)
{
	struct sel_value v;

	selector_eval(id, r, &v);
	return v.kind == SEL_NA;
}

/* Field id with its unit ("45.50%", "25.300 us/Tran"), or "n/a". */
static const char *sv_unit(struct vbufs *b, const struct run_summary *r,
			   enum sel_id id, const char *sep, const char *unit)
{
	const char *x = sv(b, r, id);
	char *buf = b->s[b->next++ % VBUF_N];

	if (!strcmp(x, "n/a"))
		return x;
	snprintf(buf, SEL_STR_MAX, "%s%s%s", x, sep, unit);
	return buf;
}

/* A percentage, or "n/a" without a percent sign. */
static const char *pct(char *buf, size_t n, double d, int prec)
{
	if (isfinite(d))
		snprintf(buf, n, "%.*f%%", prec, d);
	else
		snprintf(buf, n, "n/a");
	return buf;
}

static const char *num(char *buf, size_t n, double d, int prec)
{
	if (isfinite(d))
		snprintf(buf, n, "%.*f", prec, d);
	else
		snprintf(buf, n, "n/a");
	return buf;
}

/* The unit the rate is shown in: -f's, else the test's own. */
static const struct rate_unit *out_unit(const struct run_opts *o)
{
	const struct rate_unit *u = units_rate_flag(o->units);

	return u ? u : units_rate(o->so.p.type);
}

/*
 * A rate of the test's own (Trans/s, 10^6bits/s) in -f's unit: an RR
 * test's transactions in bits are its requests and responses, as
 * netperf counts the bytes both ways.
 */
static double out_scale(const struct run_opts *o)
{
	const struct test_params *p = &o->so.p;

	if (!units_rate_flag(o->units))
		return 1;
	if (test_is_rr(p->type))
		return ((double)p->req_size + p->resp_size) * 8 / out_unit(o)->div;
	return units_rate(p->type)->div / out_unit(o)->div;
}

/*
 * CSV and keyval values stay on one line whatever a string holds (-o is
 * read a line a run, as netperf's); a CSV field is then quoted as RFC 4180
 * says by csv_put().
 */
static void one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r' || *s == '\t')
			*s = ' ';
}

json_t *output_result_json(const struct run_opts *o,
			   const struct run_summary *r)
{
	return result_doc(r, o->local_cpu, o->remote_cpu);
}

/* Print j on one line (stream) or indented, then a newline. */
static int print_json(FILE *f, json_t *j, bool compact)
{
	size_t flags = JSON_FLAGS_REAL |
		       (compact ? JSON_COMPACT : JSON_INDENT(2));
	int ret = 0;

	if (!j)
		return -ENOMEM;
	if (json_dumpf(j, f, flags) || fputc('\n', f) == EOF)
		ret = -EIO;
	json_decref(j);
	fflush(f);
	return ret;
}

static int output_json(FILE *f, const struct run_opts *o,
		       const struct run_summary *r, bool stream)
{
	json_t *doc = output_result_json(o, r);
	json_t *line;

	if (!doc || !stream)
		return print_json(f, doc, false);
	line = json_pack("{s:s}", "type", "result");
	if (!line || json_object_update(line, doc)) {
		json_decref(line);
		json_decref(doc);
		return -ENOMEM;
	}
	json_decref(doc);
	return print_json(f, line, true);
}

/*
 * Selector idx of the list as netperf prints it: its format, and -1
 * style placeholders where netperf has no figure, as for a CPU
 * utilisation without -c (-C).
 */
static const char *sel_text(const struct run_opts *o, const struct run_summary *r,
			    unsigned idx, char *buf, size_t len)
{
	const struct selector *tab;
	struct sel_value v;
	unsigned n;

	tab = selector_table(&n);
	selector_eval(idx, r, &v);
	if ((!o->local_cpu && (idx == SEL_LOCAL_CPU_UTIL || idx == SEL_LOCAL_CPU_CONFID)) ||
	    (!o->remote_cpu && (idx == SEL_REMOTE_CPU_UTIL || idx == SEL_REMOTE_CPU_CONFID)))
		v.kind = SEL_NA;
	return np_sel_format(&tab[idx], &v, buf, len);
}

/* -o: netperf's titles on one line, comma-separated (unless -P 0), then
 * the values; a field with a comma or a quote is quoted (RFC 4180). */
static void output_csv(FILE *f, const struct run_opts *o,
		       const struct run_summary *r)
{
	const struct selector *tab;
	unsigned n;

	tab = selector_table(&n);
	if (o->headers) {
		for (unsigned i = 0; i < o->sel.n; i++) {
			char t[SEL_STR_MAX];

			if (i)
				fputc(',', f);
			csv_put(f, np_sel_title_line(&tab[o->sel.idx[i]], t, sizeof(t)));
		}
		fputc('\n', f);
	}
	for (unsigned i = 0; i < o->sel.n; i++) {
		char buf[SEL_STR_MAX];

		sel_text(o, r, o->sel.idx[i], buf, sizeof(buf));
		one_line(buf);
		if (i)
			fputc(',', f);
		csv_put(f, buf);
	}
	fputc('\n', f);
}

/* -k: NAME=value, one per line. */
static void output_keyval(FILE *f, const struct run_opts *o,
			  const struct run_summary *r)
{
	const struct selector *tab;
	unsigned n;

	tab = selector_table(&n);
	for (unsigned i = 0; i < o->sel.n; i++) {
		char buf[SEL_STR_MAX];

		sel_text(o, r, o->sel.idx[i], buf, sizeof(buf));
		one_line(buf);
		fprintf(f, "%s=%s\n", tab[o->sel.idx[i]].name, buf);
	}
}

/*
 * -O: netperf's print_omni_human(): four title lines and a value line;
 * each column is as wide as its longest title line or its value plus one,
 * and one blank follows every column, the last too.
 */
static int output_columns(FILE *f, const struct run_opts *o,
			  const struct run_summary *r)
{
	char (*vals)[SEL_STR_MAX] = calloc(o->sel.n + 1, SEL_STR_MAX);
	size_t *w = calloc(o->sel.n + 1, sizeof(*w));
	const struct selector *tab;
	unsigned n;

	if (!vals || !w) {
		free(vals);
		free(w);
		return -ENOMEM;
	}
	tab = selector_table(&n);
	for (unsigned i = 0; i < o->sel.n; i++) {
		const char *line[4];

		sel_text(o, r, o->sel.idx[i], vals[i], SEL_STR_MAX);
		one_line(vals[i]);
		np_sel_title(&tab[o->sel.idx[i]], line);
		w[i] = strlen(vals[i]) + 1;
		for (int k = 0; k < 4; k++)
			if (strlen(line[k]) > w[i])
				w[i] = strlen(line[k]);
	}
	for (int k = o->headers ? 0 : 4; k < 5; k++) {
		for (unsigned i = 0; i < o->sel.n; i++) {
			const char *line[4];

			np_sel_title(&tab[o->sel.idx[i]], line);
			fprintf(f, "%-*s ", (int)w[i], k < 4 ? line[k] : vals[i]);
		}
		fputc('\n', f);
	}
	free(vals);
	free(w);
	return 0;
}

static const char *banner_name(enum test_type t)
{
	switch (t) {
	case TEST_TCP_RR: return "TCP REQUEST/RESPONSE";
	case TEST_TCP_CRR: return "TCP Connect/Request/Response";
	case TEST_TCP_STREAM: return "TCP STREAM";
	case TEST_TCP_MAERTS: return "TCP MAERTS";
	case TEST_UDP_RR: return "UDP REQUEST/RESPONSE";
	default: return "UDP STREAM";
	}
}

/* The address the test goes to, before the run: -H's host, the lab's
 * server side, or loopback. */
static const char *banner_remote(const struct session_opts *so, bool v6)
{
	const char *a;

	if (so->host && so->host[0])
		return so->host;
	if (so->lab) {
		a = lab_addr(so->lab, target_lab_side(so, true), v6 ? AF_INET6 : AF_INET);
		if (a && a[0])
			return a;
	}
	return v6 ? "::1" : "127.0.0.1";
}

/*
 * The address netperf 2.7.1 prints in parentheses after a name: its
 * print_top_test_header() gives inet_ntop a buffer of sizeof(char *), 8
 * bytes, so an address of 8 characters or more prints as "" ("127.0.0.1
 * ()") and a shorter one whole ("::1 (::1)", "0.0.0.0 (0.0.0.0)").
 */
static void banner_addr(const char *host, int family, char *buf, size_t len)
{
	struct addrinfo hints = { .ai_family = family }, *ai;
	char a[INET6_ADDRSTRLEN] = "";

	buf[0] = '\0';
	if (getaddrinfo(host, NULL, &hints, &ai))
		return;
	if (ai->ai_family == AF_INET)
		inet_ntop(AF_INET, &((struct sockaddr_in *)ai->ai_addr)->sin_addr, a, sizeof(a));
	else if (ai->ai_family == AF_INET6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr, a, sizeof(a));
	freeaddrinfo(ai);
	if (strlen(a) < 8)
		snprintf(buf, len, "%s", a);
}

/*
 * netperf's banner, as its print_top_test_header() prints it for a
 * MIGRATED test: the local end unbound (port 0; "::0" for IPv6, as
 * netperf names it), the remote by the name it was given with its
 * address as banner_addr() has it, then the modifiers in netperf's
 * order.  tunetop always keeps latency histograms and can print interim
 * results, netperf's "histogram" and "demo" builds.
 */
void output_banner(FILE *f, const struct run_opts *o)
{
	const struct test_params *p = &o->so.p;
	bool v6 = p->family == AF_INET6;
	const char *fam = v6 ? "AF_INET6" : "AF_INET";
	const char *remote = banner_remote(&o->so, v6);
	char addr[8];

	if (!o->headers || o->fmt == OUT_JSON || o->fmt == OUT_JSON_STREAM)
		return;
	banner_addr(remote, v6 ? AF_INET6 : AF_INET, addr, sizeof(addr));
	fprintf(f, "MIGRATED %s TEST from %s (%s) port 0 %s to %s (%s) port 0 %s",
		banner_name(p->type), v6 ? "::0" : "0.0.0.0", v6 ? "::" : "0.0.0.0",
		fam, remote, addr, fam);
	if (o->iterating)
		fprintf(f, " : +/-%.3f%% @ %2.0f%% conf. ", o->it.width_pct / 2,
			o->it.level);
	if (p->nodelay)
		fprintf(f, " : nodelay");
	fprintf(f, " : histogram : demo");
	if (p->type == TEST_TCP_RR || p->type == TEST_UDP_RR)
		fprintf(f, " : first burst %u", p->burst);
	if (p->lcpu >= 0 || p->rcpu >= 0)
		fprintf(f, " : cpu bind");
	fputc('\n', f);
	fflush(f);
}

/* The width a confidence interval reached; needs two iterations. */
static double ci_width(const struct ci *c)
{
	return c->n >= 2 ? c->width_pct : NAN;
}

/* The number field id holds, or -1 (netperf's "no figure"). */
static double nv(const struct run_summary *r, enum sel_id id)
{
	struct sel_value v;

	selector_eval(id, r, &v);
	if (v.kind == SEL_INT)
		return (double)v.i;
	return v.kind == SEL_REAL ? v.d : -1;
}

static int nvi(const struct run_summary *r, enum sel_id id)
{
	return (int)llround(nv(r, id));
}

/*
 * netperf's loud warning when -i/-I did not reach the asked-for width; a
 * CPU not asked for (-c, -C) is 0.000 %, as netperf has no interval of it.
 */
static void print_confidence_warning(FILE *f, const struct run_opts *o,
				     const struct run_summary *r)
{
	double t = ci_width(&r->thr);
	double l = o->local_cpu ? ci_width(&r->lcpu) : 0;
	double m = o->remote_cpu ? ci_width(&r->rcpu) : 0;

	fprintf(f, "!!! WARNING\n"
		"!!! Desired confidence was not achieved within the specified iterations.\n"
		"!!! This implies that there was variability in the test environment that\n"
		"!!! must be investigated before going further.\n"
		"!!! Confidence intervals: Throughput      : %4.3f%%\n"
		"!!!                       Local CPU util  : %4.3f%%\n"
		"!!!                       Remote CPU util : %4.3f%%\n\n",
		isfinite(t) ? t : 0.0, isfinite(l) ? l : 0.0, isfinite(m) ? m : 0.0);
}

/* CPU columns: the figure with -c (-C), else netperf's -1. */
static double cpu_col(const struct run_opts *o, const struct run_summary *r, bool local)
{
	if (local ? !o->local_cpu : !o->remote_cpu)
		return -1;
	return nv(r, local ? SEL_LOCAL_CPU_UTIL : SEL_REMOTE_CPU_UTIL);
}

/* netperf's RR table (TCP_RR, TCP_CRR, UDP_RR): initial socket sizes. */
static void print_rr_block(FILE *f, const struct run_opts *o,
			   const struct run_summary *r)
{
	enum test_type t = r->res.p.type;
	bool cpu = o->local_cpu || o->remote_cpu;

	if (o->headers && !cpu && units_rate_flag(o->units))
		/* -f k..G: netperf's titles of the transactions in bits */
		fprintf(f, "Local /Remote\n"
			"Socket Size   Request  Resp.   Elapsed  \n"
			"Send   Recv   Size     Size    Time     Throughput \n"
			"bytes  Bytes  bytes    bytes   secs.    %s   \n\n", out_unit(o)->title);
	else if (o->headers && !cpu)
		fprintf(f, "Local /Remote\n"
			"Socket Size   Request  Resp.   Elapsed  Trans.\n"
			"Send   Recv   Size     Size    Time     Rate         \n"
			"bytes  Bytes  bytes    bytes   secs.    per sec   \n\n");
	else if (o->headers)
		fprintf(f, "Local /Remote\n"
			"Socket Size   Request Resp.  Elapsed Trans.   CPU    CPU    S.dem   S.dem\n"
			"Send   Recv   Size    Size   Time    Rate     local  remote local   remote\n"
			"bytes  bytes  bytes   bytes  secs.   per sec  %s    %s    us/Tr   us/Tr\n\n",
			t == TEST_TCP_CRR ? "%  " : "% S", t == TEST_TCP_CRR ? "%  " : "% S");
	if (!cpu)
		fprintf(f, "%-6d %-6d %-6d   %-6d  %-6.2f   %7.2f   \n",
			nvi(r, SEL_LSS_SIZE), nvi(r, SEL_LSR_SIZE), nvi(r, SEL_REQUEST_SIZE),
			nvi(r, SEL_RESPONSE_SIZE), nv(r, SEL_ELAPSED_TIME), nv(r, SEL_THROUGHPUT));
	else
		fprintf(f, t == TEST_TCP_RR ?
			"%-6d %-6d %-6d  %-6d %-6.2f  %-6.2f  %-6.2f %-6.2f %-6.3f  %-6.3f \n" :
			t == TEST_UDP_RR ?
			"%-6d %-6d %-6d  %-6d %-6.2f  %-6.2f   %-6.2f %-6.2f %-6.3f  %-6.3f \n" :
			"%-6d %-6d %-6d  %-6d %-6.2f  %-6.2f   %-6.2f %-6.2f %-6.3f  %-6.3f\n",
			nvi(r, SEL_LSS_SIZE), nvi(r, SEL_LSR_SIZE), nvi(r, SEL_REQUEST_SIZE),
			nvi(r, SEL_RESPONSE_SIZE), nv(r, SEL_ELAPSED_TIME), nv(r, SEL_THROUGHPUT),
			cpu_col(o, r, true), cpu_col(o, r, false),
			nv(r, SEL_LOCAL_SD), nv(r, SEL_REMOTE_SD));
	fprintf(f, "%-6d %-6d\n", nvi(r, SEL_RSS_SIZE), nvi(r, SEL_RSR_SIZE));
}

/* netperf's TCP_STREAM / TCP_MAERTS table: the receiver's and the sender's
 * initial socket sizes, the sender's message size. */
static void print_stream_block(FILE *f, const struct run_opts *o,
			       const struct run_summary *r)
{
	bool maerts = r->res.p.type == TEST_TCP_MAERTS;
	bool cpu = o->local_cpu || o->remote_cpu;

	if (o->headers && !cpu)
		fprintf(f, "Recv   Send    Send                          \n"
			"Socket Socket  Message  Elapsed              \n"
			"Size   Size    Size     Time     Throughput  \n"
			"bytes  bytes   bytes    secs.    %s  \n\n", out_unit(o)->title);
	else if (o->headers)
		fprintf(f, "Recv   Send    Send                          Utilization       Service Demand\n"
			"Socket Socket  Message  Elapsed              %s\n"
			"Size   Size    Size     Time     Throughput  local    remote   local   remote\n"
			"bytes  bytes   bytes    secs.    %-10.10s  %% S      %% S      us/KB   us/KB\n\n",
			maerts ? "Recv     Send     Recv    Send" : "Send     Recv     Send    Recv",
			out_unit(o)->name);
	if (!cpu)
		fprintf(f, "%6d %6d %6d    %-6.2f   %7.2f   \n",
			nvi(r, maerts ? SEL_LSR_SIZE : SEL_RSR_SIZE),
			nvi(r, maerts ? SEL_RSS_SIZE : SEL_LSS_SIZE),
			nvi(r, maerts ? SEL_REMOTE_SEND_SIZE : SEL_LOCAL_SEND_SIZE),
			nv(r, SEL_ELAPSED_TIME), nv(r, SEL_THROUGHPUT));
	else
		fprintf(f, "%6d %6d %6d    %-6.2f     %7.2f   %-6.2f   %-6.2f   %-6.3f  %-6.3f \n",
			nvi(r, maerts ? SEL_LSR_SIZE : SEL_RSR_SIZE),
			nvi(r, maerts ? SEL_RSS_SIZE : SEL_LSS_SIZE),
			nvi(r, maerts ? SEL_REMOTE_SEND_SIZE : SEL_LOCAL_SEND_SIZE),
			nv(r, SEL_ELAPSED_TIME), nv(r, SEL_THROUGHPUT),
			cpu_col(o, r, true), cpu_col(o, r, false),
			nv(r, SEL_LOCAL_SD), nv(r, SEL_REMOTE_SD));
}

/* The rate of bytes over secs in o's unit, or -1. */
static double mbits(const struct run_opts *o, uint64_t bytes, double secs)
{
	return secs > 0 ? (double)bytes * 8 / secs / out_unit(o)->div : -1;
}

/* netperf's UDP_STREAM table: the sending end's line (datagrams sent and
 * refused), then the receiving end's; a blank line closes it. */
static void print_udp_stream_block(FILE *f, const struct run_opts *o,
				   const struct run_summary *r)
{
	const struct session_result *res = &r->res;
	bool cpu = o->local_cpu || o->remote_cpu;
	double el = res->elapsed;	/* both lines: THROUGHPUT is the receiver's bytes over it */

	if (o->headers && !cpu)
		fprintf(f, "Socket  Message  Elapsed      Messages                \n"
			"Size    Size     Time         Okay Errors   Throughput\n"
			"bytes   bytes    secs            #      #   %s\n\n", out_unit(o)->title);
	else if (o->headers)
		fprintf(f, "Socket  Message  Elapsed      Messages                   CPU      Service\n"
			"Size    Size     Time         Okay Errors   Throughput   Util     Demand\n"
			"bytes   bytes    secs            #      #   %-12.12s %% SS     us/KB\n\n",
			out_unit(o)->title);
	if (!cpu) {
		fprintf(f, "%6d  %6d   %-7.2f   %7" PRIu64 " %6" PRIu64 "    %7.2f\n",
			nvi(r, SEL_LSS_SIZE), nvi(r, SEL_LOCAL_SEND_SIZE), el,
			res->local.total.msgs_sent, res->local.send_errors,
			mbits(o, res->local.total.bytes_sent, el));
		fprintf(f, "%6d           %-7.2f   %7" PRIu64 "           %7.2f\n\n",
			nvi(r, SEL_RSR_SIZE), el, res->remote.total.msgs_recv,
			mbits(o, res->remote.total.bytes_recv, el));
		return;
	}
	fprintf(f, "%6d  %6d   %-7.2f   %7" PRIu64 " %6" PRIu64 "    %7.1f     %-6.2f   %-6.3f\n",
		nvi(r, SEL_LSS_SIZE), nvi(r, SEL_LOCAL_SEND_SIZE), el,
		res->local.total.msgs_sent, res->local.send_errors,
		mbits(o, res->local.total.bytes_sent, el), cpu_col(o, r, true),
		nv(r, SEL_LOCAL_SD));
	fprintf(f, "%6d           %-7.2f   %7" PRIu64 "           %7.1f     %-6.2f   %-6.3f\n\n",
		nvi(r, SEL_RSR_SIZE), el, res->remote.total.msgs_recv,
		mbits(o, res->remote.total.bytes_recv, el), cpu_col(o, r, false),
		nv(r, SEL_REMOTE_SD));
}

/* netperf's whole block: the -i warning, the titles, the rows. */
static void print_netperf_block(FILE *f, const struct run_opts *o,
				const struct run_summary *r)
{
	enum test_type t = r->res.p.type;

	if (r->iterating && !r->ci_reached)
		print_confidence_warning(f, o, r);
	if (test_is_rr(t))
		print_rr_block(f, o, r);
	else if (t == TEST_UDP_STREAM)
		print_udp_stream_block(f, o, r);
	else
		print_stream_block(f, o, r);
}

/* One end's placement: "CPU 0 (pinned)", "CPU 1", "CPUs 0 and 1 (2 used)". */
static void placement_end(char *buf, size_t len, const struct end_result *e)
{
	if (e->cpu_bind >= 0)
		snprintf(buf, len, "CPU %d (pinned)", e->cpu_bind);
	else if (e->cpu_main < 0 || !e->ncpus_used)
		snprintf(buf, len, "not pinned, CPU not seen");
	else if (e->ncpus_used <= 1)
		snprintf(buf, len, "CPU %d (not pinned)", e->cpu_main);
	else
		snprintf(buf, len, "mostly CPU %d, %u CPUs used (not pinned)",
			 e->cpu_main, e->ncpus_used);
}

/*
 * Where the workers ran: loopback RR changes four-fold between one CPU
 * and two (docs/HACKING.md, "Kernel facts"), so the rate is never shown without it.
 */
static void print_placement(FILE *f, const struct run_summary *r)
{
	const struct end_result *l = &r->res.local, *m = &r->res.remote;
	int lc = l->cpu_bind >= 0 ? l->cpu_bind : l->ncpus_used == 1 ? l->cpu_main : -1;
	int mc = m->cpu_bind >= 0 ? m->cpu_bind : m->ncpus_used == 1 ? m->cpu_main : -1;
	char lb[64], mb[64];
	const char *same = "";

	placement_end(lb, sizeof(lb), l);
	placement_end(mb, sizeof(mb), m);
	/* Both ends share CPUs only when they share a host. */
	if (lc >= 0 && mc >= 0 && !strcmp(r->res.local.host, r->res.remote.host))
		same = lc == mc ? "; both ends on one CPU" : "; the ends on different CPUs";
	fprintf(f, "CPU placement: local %s, remote %s%s\n", lb, mb, same);
}

enum { END_LOCAL, END_REMOTE };

/* "45.50% (busiest CPU 1 at 80.00%)", or "n/a" when not measured. */
static const char *cpu_util(struct vbufs *b, const struct run_summary *r,
			    int end)
{
	bool l = end == END_LOCAL;
	const char *util = sv_unit(b, r, l ? SEL_LOCAL_CPU_UTIL :
					     SEL_REMOTE_CPU_UTIL, "", "%");
	char *buf = b->s[b->next++ % VBUF_N];

	if (!strcmp(util, "n/a") ||
	    sv_na(r, l ? SEL_LOCAL_CPU_PEAK_ID : SEL_REMOTE_CPU_PEAK_ID))
		return util;
	snprintf(buf, SEL_STR_MAX, "%s (busiest CPU %s at %s)", util,
		 sv(b, r, l ? SEL_LOCAL_CPU_PEAK_ID : SEL_REMOTE_CPU_PEAK_ID),
		 sv_unit(b, r, l ? SEL_LOCAL_CPU_PEAK_UTIL :
				   SEL_REMOTE_CPU_PEAK_UTIL, "", "%"));
	return buf;
}

/* Which knobs were recorded, and those that differ between the two ends. */
static void print_knobs(FILE *f, const struct session_result *res)
{
	char names[16][KNOB_NAME_MAX];
	unsigned n;

	if (!res->knobs_local || !res->knobs_remote) {
		if (res->knobs_note[0])
			fprintf(f, "Knobs: %s\n", res->knobs_note);
		return;
	}
	n = knobs_snapshot_diff(res->knobs_local, res->knobs_remote, names, 16);
	fprintf(f, "Knobs: %u recorded on each end (--json lists them); ", res->knobs_local->n);
	if (!n)
		fprintf(f, "both ends alike\n");
	for (unsigned i = 0; i < n && i < 16; i++)
		fprintf(f, "%s%s%s", i ? ", " : "differ between the ends: ", names[i],
			i + 1 == n || i == 15 ? (n > 16 ? ", ...\n" : "\n") : "");
}

static void print_cpu(FILE *f, const struct run_opts *o,
		      const struct run_summary *r, struct vbufs *b)
{
	const char *sd = sv(b, r, SEL_SD_UNITS);

	if (o->local_cpu || o->remote_cpu) {
		fprintf(f, "CPU utilisation:");
		if (o->local_cpu)
			fprintf(f, " local %s%s", cpu_util(b, r, END_LOCAL),
				o->remote_cpu ? "," : "");
		if (o->remote_cpu)
			fprintf(f, " remote %s", cpu_util(b, r, END_REMOTE));
		fprintf(f, "\nService demand:");
		if (o->local_cpu)
			fprintf(f, " local %s%s", sv_unit(b, r, SEL_LOCAL_SD, " ", sd),
				o->remote_cpu ? "," : "");
		if (o->remote_cpu)
			fprintf(f, " remote %s", sv_unit(b, r, SEL_REMOTE_SD, " ", sd));
		fprintf(f, "\nContext switches/s: local %s, remote %s\n",
			sv(b, r, SEL_LOCAL_CTX_PER_SEC), sv(b, r, SEL_REMOTE_CTX_PER_SEC));
		/* What watching took, beside what the test took. */
		fprintf(f, "Sampler CPU: local %s, remote %s of one CPU (test threads %s, %s)\n",
			sv_unit(b, r, SEL_LOCAL_SAMPLER_CPU, " ", "%"),
			sv_unit(b, r, SEL_REMOTE_SAMPLER_CPU, " ", "%"),
			sv_unit(b, r, SEL_LOCAL_FLOWS_CPU, " ", "%"),
			sv_unit(b, r, SEL_REMOTE_FLOWS_CPU, " ", "%"));
	}
	print_knobs(f, &r->res);
	/* Coalescing only means something next to the interrupts it causes. */
	fprintf(f, "Interrupts/s: local %s IRQs %s, NET_RX %s, NET_TX %s; remote %s IRQs %s, NET_RX %s, NET_TX %s\n",
		sv(b, r, SEL_LOCAL_IRQ_DEV), sv(b, r, SEL_LOCAL_IRQ_RATE),
		sv(b, r, SEL_LOCAL_NET_RX_RATE), sv(b, r, SEL_LOCAL_NET_TX_RATE),
		sv(b, r, SEL_REMOTE_IRQ_DEV), sv(b, r, SEL_REMOTE_IRQ_RATE),
		sv(b, r, SEL_REMOTE_NET_RX_RATE), sv(b, r, SEL_REMOTE_NET_TX_RATE));
	print_placement(f, r);
}

static void print_confidence_reached(FILE *f, const struct run_opts *o,
				     const struct run_summary *r)
{
	char a[32];

	fprintf(f, "%u iterations, %.0f%% confidence interval width %s of the mean throughput (asked for %.1f%%)",
		r->iterations, r->it.level,
		pct(a, sizeof(a), ci_width(&r->thr), 1),
		r->it.width_pct);
	if (o->local_cpu)
		fprintf(f, ", local CPU %s",
			pct(a, sizeof(a), ci_width(&r->lcpu), 1));
	if (o->remote_cpu)
		fprintf(f, ", remote CPU %s",
			pct(a, sizeof(a), ci_width(&r->rcpu), 1));
	fputc('\n', f);
}

/* How the socket buffers grew: netperf's rows show the initial sizes. */
static void print_buffer_growth(FILE *f, const struct run_summary *r,
				struct vbufs *b)
{
	fprintf(f, "Socket buffers (before connect -> after connect -> final): local send %s -> %s -> %s, recv %s -> %s -> %s; remote send %s -> %s -> %s, recv %s -> %s -> %s\n",
		sv(b, r, SEL_LSS_SIZE), sv(b, r, SEL_LSS_SIZE_CONN), sv(b, r, SEL_LSS_SIZE_END),
		sv(b, r, SEL_LSR_SIZE), sv(b, r, SEL_LSR_SIZE_CONN), sv(b, r, SEL_LSR_SIZE_END),
		sv(b, r, SEL_RSS_SIZE), sv(b, r, SEL_RSS_SIZE_CONN), sv(b, r, SEL_RSS_SIZE_END),
		sv(b, r, SEL_RSR_SIZE), sv(b, r, SEL_RSR_SIZE_CONN), sv(b, r, SEL_RSR_SIZE_END));
}

static void print_latency(FILE *f, const struct run_summary *r, struct vbufs *b)
{
	if (sv_na(r, SEL_MEAN_LATENCY))
		return;
	fprintf(f, "Latency (us): min %s, mean %s, p50 %s, p90 %s, p99 %s, p99.9 %s, max %s, stddev %s\n",
		sv(b, r, SEL_MIN_LATENCY), sv(b, r, SEL_MEAN_LATENCY),
		sv(b, r, SEL_P50_LATENCY), sv(b, r, SEL_P90_LATENCY),
		sv(b, r, SEL_P99_LATENCY), sv(b, r, SEL_P999_LATENCY),
		sv(b, r, SEL_MAX_LATENCY), sv(b, r, SEL_STDDEV_LATENCY));
}

static void print_segments(FILE *f, const struct run_summary *r, struct vbufs *b)
{
	enum test_type t = r->res.p.type;

	if (test_is_rr(t) && !test_is_udp(t))
		fprintf(f, "Segments per transaction (TCP_INFO, data segments in brackets): client out %s (%s), in %s (%s); server out %s (%s), in %s (%s)\n",
			sv(b, r, SEL_SEGS_OUT_PER_TRANS), sv(b, r, SEL_DATA_SEGS_OUT_PER_TRANS),
			sv(b, r, SEL_SEGS_IN_PER_TRANS), sv(b, r, SEL_DATA_SEGS_IN_PER_TRANS),
			sv(b, r, SEL_REMOTE_SEGS_OUT_PER_TRANS), sv(b, r, SEL_REMOTE_DATA_SEGS_OUT_PER_TRANS),
			sv(b, r, SEL_REMOTE_SEGS_IN_PER_TRANS), sv(b, r, SEL_REMOTE_DATA_SEGS_IN_PER_TRANS));
	if (!test_is_udp(t))
		fprintf(f, "Retransmitted segments: local %s, remote %s\n",
			sv(b, r, SEL_LOCAL_TRANSPORT_RETRANS),
			sv(b, r, SEL_REMOTE_TRANSPORT_RETRANS));
	else
		fprintf(f, "UDP datagrams lost: %s; sends refused: %s\n"
			"Stray datagrams at the server (other senders; not answered, not counted): %llu\n",
			sv(b, r, SEL_UDP_LOST), sv(b, r, SEL_LOCAL_SEND_ERRORS),
			(unsigned long long)r->res.remote.strays);
}

/* A failed run: its figures are partial. */
static void print_failure(FILE *f, const struct run_summary *r)
{
	char why[ERR_MAX];

	if (!r->failed)
		return;
	snprintf(why, sizeof(why), "%s", r->failure);
	one_line(why);
	fprintf(f, "!!! The run failed: %s\n!!! The figures above are partial.\n", why);
}

/* The counts check: agreement (extras only), or a disagreement (warning). */
static void print_counts(FILE *f, const struct session_result *res, bool warnings_only)
{
	if (!res->counts[0]) {
		if (!warnings_only)
			fprintf(f, "Counts: n/a (not compared)\n");
	} else if (res->counts_agree) {
		if (!warnings_only)
			fprintf(f, "Counts agree: %s\n", res->counts);
	} else if (!strncmp(res->counts, "COUNTS DISAGREE", 15)) {
		fprintf(f, "!!! %s\n", res->counts);
	} else {
		fprintf(f, "!!! COUNTS DISAGREE: %s\n", res->counts);
	}
}

/*
 * What tunetop adds to netperf's block, after it and a blank line (-P 1):
 * where the run went, buffer growth, latency percentiles, CPU, knobs,
 * interrupts, placement, segments, the state note, the capture, counts.
 */
static void print_extras(FILE *f, const struct run_opts *o,
			 const struct run_summary *r, struct vbufs *b)
{
	const struct session_result *res = &r->res;

	if (res->p.type != TEST_UDP_STREAM)
		fputc('\n', f);
	if (res->target[0])
		fprintf(f, "Target: %s\n", res->target);
	print_failure(f, r);
	if (res->p.flows > 1)
		fprintf(f, "Flows: %u at once (-n); the rows sum them, socket sizes are the first flow's\n",
			res->p.flows);
	print_buffer_growth(f, r, b);
	print_latency(f, r, b);
	print_cpu(f, o, r, b);
	print_segments(f, r, b);
	if (r->iterating && r->ci_reached)
		print_confidence_reached(f, o, r);
	if (res->state_note[0])
		fprintf(f, "Note: %s\n", res->state_note);
	output_capture_human(f, res);
	print_counts(f, res, false);
	if (!r->failed)
		output_why_human(f, res);
}

/*
 * Where stdout must stay netperf's (-P 0, -o, -O, -k): the target, a
 * failure, the state note and a counts disagreement go to err
 * (output_notes(): stderr, or nowhere as NULL).
 */
static void print_side_notes(FILE *err, const struct run_summary *r)
{
	const struct session_result *res = &r->res;

	if (!err)
		return;
	if (res->target[0])
		fprintf(err, "Target: %s\n", res->target);
	print_failure(err, r);
	if (res->state_note[0])
		fprintf(err, "Note: %s\n", res->state_note);
	print_counts(err, res, true);
	fflush(err);
}

/*
 * netperf's -v 0: the throughput alone ("%7.2f %s\n", its tput_fmt_0), or
 * with -c/-C the local (else the remote) service demand and CPU method
 * ("%6.3f %c %s\n", cpu_fmt_0); the brand (-B) is not taken, "" here.
 */
static void print_terse(FILE *f, const struct run_opts *o, const struct run_summary *r)
{
	if (r->iterating && !r->ci_reached)
		print_confidence_warning(f, o, r);
	if (o->local_cpu || o->remote_cpu)
		fprintf(f, "%6.3f %c %s\n", nv(r, o->local_cpu ? SEL_LOCAL_SD : SEL_REMOTE_SD),
			'S', "");
	else
		fprintf(f, "%7.2f %s\n", nv(r, SEL_THROUGHPUT), "");
}

static int output_human(FILE *f, const struct run_opts *o,
			const struct run_summary *r)
{
	struct vbufs *b;

	FILE *x = output_extras(o, f);

	if (o->terse) {
		print_terse(f, o, r);
		print_side_notes(output_notes(o), r);
		return 0;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	print_netperf_block(f, o, r);
	if (x)
		print_extras(x, o, r, b);
	else
		print_side_notes(output_notes(o), r);
	free(b);
	return 0;
}

FILE *output_extras(const struct run_opts *o, FILE *out)
{
	if (o->fmt != OUT_HUMAN || !o->headers || o->sel.n || o->terse)
		return NULL;
	if (o->netperf_mode)
		return o->extras ? stderr : NULL;
	return out;
}

FILE *output_notes(const struct run_opts *o)
{
	return o->netperf_mode && !o->extras ? NULL : stderr;
}

int output_result(FILE *f, const struct run_opts *o,
		  const struct run_summary *r)
{
	struct run_summary *m;
	int ret = 0;

	if (o->fmt == OUT_JSON || o->fmt == OUT_JSON_STREAM)
		return output_json(f, o, r, o->fmt == OUT_JSON_STREAM);
	m = result_doc_masked(r, o->local_cpu, o->remote_cpu);
	if (!m)
		return -ENOMEM;
	if (units_rate_flag(o->units)) {
		/* -f: the rate as netperf shows it; stored in the test's own unit */
		m->thr_scale = out_scale(o);
		m->res.units = out_unit(o)->name;
	}
	switch (o->fmt) {
	case OUT_CSV:
		output_csv(f, o, m);
		break;
	case OUT_KEYVAL:
		output_keyval(f, o, m);
		break;
	default:
		if (o->sel.n)
			ret = output_columns(f, o, m);
		else
			ret = output_human(f, o, m);
		break;
	}
	if (o->fmt != OUT_HUMAN || o->sel.n)
		print_side_notes(output_notes(o), m);
	free(m);
	if (fflush(f) && !ret)
		ret = -EIO;
	return ret;
}

/*
 * netperf's "Interim result:" line, then tunetop's latency and CPU of the
 * tick (not in netperf mode, whose line is netperf's alone).
 */
static void interim_human(FILE *f, const struct run_opts *o,
			  const struct session_event *ev)
{
	const struct end_sample *l = &ev->local;
	const struct rate_unit *u = out_unit(o);
	double now = wall_time();
	char a[32], c[32];

	fprintf(f, "Interim result: %s %s over %.3f seconds ending at %.3f",
		num(a, sizeof(a), units_rate_scaled(o->so.p.type, l->rate) * out_scale(o), 2),
		u->name, l->iv_secs, now);
	if (o->netperf_mode) {
		fputc('\n', f);
		fflush(f);
		return;
	}
	if (l->has_lat && l->lat_iv.count)
		fprintf(f, ", latency p50 %s us p99 %s us",
			num(a, sizeof(a), l->lat_iv.p50_us, 2),
			num(c, sizeof(c), l->lat_iv.p99_us, 2));
	if (l->cpu.ncpu)
		fprintf(f, ", local CPU %s",
			pct(a, sizeof(a), l->cpu.total.busy, 1));
	if (o->remote_cpu && ev->has_remote && ev->remote.cpu.ncpu)
		fprintf(f, ", remote CPU %s",
			pct(a, sizeof(a), ev->remote.cpu.total.busy, 1));
	fputc('\n', f);
	fflush(f);
}

/*
 * netperf's interim result with -o (CSV: "RATE,UNITS,INTERVAL,ENDING") and
 * with -k (four NETPERF_*[N]= lines), as its demo mode prints them for
 * flent and scripts that read them (docs/netperf.md).
 */
static void interim_selected(FILE *f, const struct run_opts *o,
			     const struct session_event *ev, unsigned n)
{
	const struct rate_unit *u = out_unit(o);
	double now = wall_time();
	double rate = units_rate_scaled(o->so.p.type, ev->local.rate) * out_scale(o);

	if (o->fmt == OUT_CSV)
		fprintf(f, "%.2f,%s,%.3f,%.3f\n", rate, u->name, ev->local.iv_secs, now);
	else
		fprintf(f, "NETPERF_INTERIM_RESULT[%u]=%.2f\nNETPERF_UNITS[%u]=%s\n"
			"NETPERF_INTERVAL[%u]=%.3f\nNETPERF_ENDING[%u]=%.3f\n",
			n, rate, n, u->name, n, ev->local.iv_secs, n, now);
	fflush(f);
}

int output_interim(FILE *f, const struct run_opts *o,
		   const struct session_event *ev, unsigned n)
{
	json_t *line, *l, *r;

	if (ev->kind != SESSION_EV_SAMPLE)
		return 0;
	if (o->fmt == OUT_JSON_STREAM) {
		/* A member msg.c could not write (a NaN in it, say) is null. */
		l = sample_to_json(&ev->local);
		r = ev->has_remote ? sample_to_json(&ev->remote) : NULL;
		line = json_pack("{s:s, s:o, s:o, s:o}",
				 "type", "interval",
				 "t", isfinite(ev->local.t) ? json_real(ev->local.t) : json_null(),
				 "local", l ? l : json_null(),
				 "remote", r ? r : json_null());
		return print_json(f, line, true);
	}
	if (o->interim > 0 && o->fmt == OUT_HUMAN)
		interim_human(f, o, ev);
	else if (o->interim > 0 && (o->fmt == OUT_CSV || o->fmt == OUT_KEYVAL))
		interim_selected(f, o, ev, n);
	return 0;
}
