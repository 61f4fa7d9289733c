// SPDX-License-Identifier: GPL-2.0-or-later
/* options.c - netperf's command line of `tunetop run` and the dashboard, checked strictly. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/util.h"
#include "session/options.h"
#include "stats/sweep.h"
#include "session/target.h"

/*
 * Option letters as getopt spells them: "x:" takes a value, "x::" takes an
 * optional one (attached, or the next word unless it starts with '-').
 */
#define GLOBAL_SPEC "t:H:p:46l:T:cCD:i:I:P:v:w:F:f:h"
#define TEST_SPEC "r:b:Dm:M:s:S:n:o::O::k::P:H:e:h"

#define SIZE_HINT "bytes, optionally with K/M/G (x1024) or k/m/g (x1000)"
#define TYPES_HINT "TCP_RR, TCP_CRR, TCP_STREAM, TCP_MAERTS, UDP_RR, UDP_STREAM"
/* The options, for "unknown" messages: short ones, and long ones (each
 * message within ERR_MAX; test-options.c checks both lists). */
#define TEST_OPTS_HINT "-r -b -D -m -M -s -S -n -o -O -k -H -e -h"
#define ALL_OPTS_HINT "-t -H -p -4 -6 -l -T -c -C -D -i -I -P -v -w -F -f -h; after --: " \
	TEST_OPTS_HINT "; and long options (tunetop run -h)"
#define LONG_OPTS_HINT "--json --json-stream --sample-ms --connect-timeout --netserver " \
	"--lab --loopback --mtu --rate --set --keep --wait --key --capture --db --no-db " \
	"--netperf --extras"

/* A sample tick no shorter or longer than this (params_validate agrees). */
#define SAMPLE_MS_MIN 10
#define SAMPLE_MS_MAX 10000

struct parse_state {
	struct run_opts *o;
	char *err;
	bool i_given, I_given;
	bool sample_ms_given;
	uint32_t sample_ms;
	const char *fmt_opt;	/* the option that chose the format */
};

/* How spec takes option c: 0 unknown, 1 no value, 2 a value, 3 optional. */
static int opt_kind(const char *spec, char c)
{
	const char *p = c && c != ':' ? strchr(spec, c) : NULL;

	if (!p)
		return 0;
	if (p[1] != ':')
		return 1;
	return p[2] == ':' ? 3 : 2;
}

/* What an option accepts, for "missing value" and range messages. */
static const char *opt_hint(char c, bool test)
{
	if (test) {
		switch (c) {
		case 'r': return "req[,resp] sizes in " SIZE_HINT ", each at least 1 (,N sets only the response)";
		case 'b': return "0-4096 requests in flight beyond the first";
		case 'm': return "the send size in " SIZE_HINT;
		case 'M': return "the receive size in " SIZE_HINT;
		case 's': return "local send[,recv] socket buffer in " SIZE_HINT ", 1 byte to 1G";
		case 'S': return "remote send[,recv] socket buffer in " SIZE_HINT ", 1 byte to 1G";
		case 'n': return "1-1024 flows";
		case 'e': return "seconds 1-3600 a UDP_RR request waits for its response before it is lost (netperf's receive timeout)";
		case 'H': return "host[,family]: the data connections' host, as netperf's; the control host's (-H) here";
		default: return "see tunetop run -h";
		}
	}
	switch (c) {
	case 't': return TYPES_HINT;
	case 'H': return "host[,family]: a host name or address, family 4, 6, inet, inet6, 0 or unspec (or -4/-6)";
	case 'p': return "a control port number 1-65535";
	case 'l': return "seconds, 0 < secs <= 86400";
	case 'T': return "lcpu,rcpu CPU numbers 0-4095 (N pins both, ,N only the remote, N, only the local)";
	case 'D': return "seconds between interim results, not 0 (e.g. 0.5, or netperf's -0.5)";
	case 'i': return "max[,min] iterations, 1 <= min <= max <= 30 (e.g. 10,3)";
	case 'I': return "level[,width]: level 95 or 99, width percent of the mean > 0 (e.g. 99,5)";
	case 'P': return "0 (no banner or column titles) or 1";
	case 'v': return "0 (the rate alone, or the service demand with -c/-C) or 1 (netperf's table)";
	case 'w': return "a file name for the pcap file of the local end's capture";
	case 'f': return "k, m, g (10^3, 10^6, 10^9 bits/s), K, M, G (KBytes, MBytes, GBytes/s); x (Trans/s) for RR";
	case 'F': return "a readable, non-empty file whose bytes the local send buffers hold (netperf's fill file)";
	default: return "see tunetop run -h";
	}
}

/*
 * netperf's "-H host[,family]" (global and test-specific): host into buf
 * ("" when only the family was given), the family into *af (-1 when
 * none): "4"/"inet" AF_INET, "6"/"inet6" AF_INET6, "0"/"unspec" AF_UNSPEC,
 * as netperf's parse_address_family reads them; what it would only warn
 * about is refused here.
 */
static int opt_host(struct parse_state *st, char c, bool test, const char *val, char *buf,
		    size_t len, int *af)
{
	const char *comma = strchr(val, ',');
	size_t n = comma ? (size_t)(comma - val) : strlen(val);

	if (!*val)
		return err_set(st->err, 2, "option -H: empty host; accepted: %s", opt_hint(c, test));
	if (n >= len)
		return err_set(st->err, 2, "option -H: host name longer than %zu characters; accepted: %s",
			       len - 1, opt_hint(c, test));
	memcpy(buf, val, n);
	buf[n] = '\0';
	if (!comma)
		return 0;
	if (!strcmp(comma + 1, "4") || !strcmp(comma + 1, "inet"))
		*af = AF_INET;
	else if (!strcmp(comma + 1, "6") || !strcmp(comma + 1, "inet6"))
		*af = AF_INET6;
	else if (!strcmp(comma + 1, "0") || !strcmp(comma + 1, "unspec"))
		*af = AF_UNSPEC;
	else
		return err_set(st->err, 2, "option -H %s: family '%s' unknown; accepted: %s", val,
			       comma + 1, opt_hint(c, test));
	return 0;
}

/* Why parse_uint or parse_double refused a value. */
static const char *num_why(int ret)
{
	return ret == -ERANGE ? "out of range" : "not a number";
}

/*
 * Split "a,b" into a and b (each at most n - 1 characters).  Without a comma
 * a gets the value, and so does b when copy_single (netperf's break_args).
 * Returns -EINVAL when a part is too long.
 */
static int split_pair(const char *val, char *a, char *b, size_t n,
		      bool copy_single)
{
	const char *comma = strchr(val, ',');
	size_t la = comma ? (size_t)(comma - val) : strlen(val);
	const char *second = comma ? comma + 1 : copy_single ? val : "";
	size_t lb = comma ? strlen(second) : copy_single ? la : 0;

	if (la >= n || lb >= n)
		return -EINVAL;
	memcpy(a, val, la);
	a[la] = '\0';
	memcpy(b, second, lb);
	b[lb] = '\0';
	return 0;
}

/* Choose the output format; a second, different choice is an error. */
static int set_format(struct parse_state *st, enum out_format fmt,
		      const char *opt)
{
	if (st->fmt_opt && strcmp(st->fmt_opt, opt))
		return err_set(st->err, 2, "option %s: conflicts with %s; accepted: one output format of -o, -O, -k, --json, --json-stream",
			       opt, st->fmt_opt);
	st->fmt_opt = opt;
	st->o->fmt = fmt;
	return 0;
}

/* Parse a size for option c into *out, in [min, max]. */
static int opt_size(struct parse_state *st, char c, const char *val,
		    const char *part, uint64_t min, uint64_t max,
		    uint64_t *out)
{
	int ret = parse_size(part, out);

	if (ret)
		return err_set(st->err, 2, "option -%c %s: \"%s\" is not a size; accepted: %s",
			       c, val, part, opt_hint(c, true));
	if (*out < min || *out > max)
		return err_set(st->err, 2, "option -%c %s: %s is out of range; accepted: %llu to %llu bytes",
			       c, val, part, (unsigned long long)min,
			       (unsigned long long)max);
	return 0;
}

/* -s / -S: send[,recv] socket buffers; one value sets both. */
static int opt_sockbufs(struct parse_state *st, char c, const char *val,
			int32_t *snd, int32_t *rcv)
{
	char a[64], b[64];
	uint64_t x;
	int ret;

	if (split_pair(val, a, b, sizeof(a), true) || (!*a && !*b))
		return err_set(st->err, 2, "option -%c %s: not send[,recv] sizes; accepted: %s",
			       c, val, opt_hint(c, true));
	if (*a) {
		ret = opt_size(st, c, val, a, 1, 1u << 30, &x);
		if (ret)
			return ret;
		*snd = (int32_t)x;
	}
	if (*b) {
		ret = opt_size(st, c, val, b, 1, 1u << 30, &x);
		if (ret)
			return ret;
		*rcv = (int32_t)x;
	}
	return 0;
}

/* -T lcpu,rcpu; "N" pins both ends, ",N" only the remote, "N," only the local. */
static int opt_cpus(struct parse_state *st, const char *val)
{
	struct test_params *p = &st->o->so.p;
	char a[32], b[32];
	uint64_t x;

	if (split_pair(val, a, b, sizeof(a), true) || (!*a && !*b))
		goto bad;
	if (*a) {
		if (parse_uint(a, 0, 4095, &x))
			goto bad;
		p->lcpu = (int)x;
	}
	if (*b) {
		if (parse_uint(b, 0, 4095, &x))
			goto bad;
		p->rcpu = (int)x;
	}
	return 0;
bad:
	return err_set(st->err, 2, "option -T %s: not CPU numbers; accepted: %s",
		       val, opt_hint('T', false));
}

/* -i max[,min]: how many iterations to run for a confidence interval. */
static int opt_iterations(struct parse_state *st, const char *val)
{
	struct iterate *it = &st->o->it;
	unsigned max = it->max_iter, min = it->min_iter;
	char a[32], b[32];
	uint64_t x;

	int ret;

	if (split_pair(val, a, b, sizeof(a), true) || (!*a && !*b))
		return err_set(st->err, 2, "option -i %s: not max[,min]; accepted: %s",
			       val, opt_hint('i', false));
	if (*a) {
		ret = parse_uint(a, 1, 30, &x);
		if (ret)
			return err_set(st->err, 2, "option -i %s: maximum %s is %s; accepted: %s",
				       val, a, num_why(ret),
				       opt_hint('i', false));
		max = (unsigned)x;
	}
	if (*b) {
		ret = parse_uint(b, 1, 30, &x);
		if (ret)
			return err_set(st->err, 2, "option -i %s: minimum %s is %s; accepted: %s",
				       val, b, num_why(ret),
				       opt_hint('i', false));
		min = (unsigned)x;
	} else if (min > max) {
		/* "-i 2,": only the maximum was given; the minimum follows it. */
		min = max;
	}
	if (min > max)
		return err_set(st->err, 2, "option -i %s: the minimum %u is above the maximum %u; accepted: %s",
			       val, min, max, opt_hint('i', false));
	it->max_iter = max;
	it->min_iter = min;
	st->i_given = true;
	return 0;
}

/*
 * -I level[,width].  Unlike netperf's break_args, one value sets only the
 * level: "-I 95" meaning a 95 % wide interval is never what is meant.
 */
static int opt_confidence(struct parse_state *st, const char *val)
{
	struct iterate *it = &st->o->it;
	char a[32], b[32];
	uint64_t level;
	double width;

	if (split_pair(val, a, b, sizeof(a), false) || (!*a && !*b))
		goto bad;
	if (*a) {
		if (parse_uint(a, 0, 1000, &level) ||
		    (level != 95 && level != 99))
			return err_set(st->err, 2, "option -I %s: confidence level %s is not supported; accepted: level 95 or 99, as level[,width] (e.g. 99,5)",
				       val, a);
		it->level = (double)level;
	}
	if (*b) {
		if (parse_double(b, 0, 100, &width) || !(width > 0))
			return err_set(st->err, 2, "option -I %s: interval width %s is out of range; accepted: percent of the mean, 0 < width <= 100, as level[,width] (e.g. 99,5)",
				       val, b);
		it->width_pct = width;
	}
	st->I_given = true;
	return 0;
bad:
	return err_set(st->err, 2, "option -I %s: not level[,width]; accepted: %s",
		       val, opt_hint('I', false));
}

/* -l seconds; netperf's negative -l (a transaction count) is refused. */
static int opt_duration(struct parse_state *st, const char *val)
{
	double d;

	if (parse_double(val, -1e18, 1e18, &d))
		return err_set(st->err, 2, "option -l %s: not a number of seconds; accepted: %s",
			       val, opt_hint('l', false));
	if (d < 0)
		return err_set(st->err, 2, "option -l %s: a transaction count (negative -l) is not supported; accepted: %s",
			       val, opt_hint('l', false));
	if (!(d > 0) || d > TT_MAX_DURATION)
		return err_set(st->err, 2, "option -l %s: out of range; accepted: %s",
			       val, opt_hint('l', false));
	st->o->so.p.duration = d;
	return 0;
}

/* One option before `--`; returns 0, 1 (help asked: o->help) or 2 (err set). */
static int global_opt(struct parse_state *st, char c, const char *val)
{
	struct run_opts *o = st->o;
	uint64_t x;
	double d;
	int t, ret;

	switch (c) {
	case 't':
		t = test_type_parse(val);
		if (t < 0) {
			snprintf(o->bad_test, sizeof(o->bad_test), "%s", val);
			return err_set(st->err, 2, "option -t %s: unknown test type; accepted: %s",
				       val, TYPES_HINT);
		}
		o->so.p.type = (enum test_type)t;
		return 0;
	case 'H': {
		char host[sizeof(o->host_buf)];
		int af = -1;

		ret = opt_host(st, c, false, val, host, sizeof(host), &af);
		if (ret)
			return ret;
		if (af >= 0)
			o->so.p.family = o->so.af_hint = af;
		if (!*host)	/* netperf's "-H ,6": the family alone */
			return 0;
		strcpy(o->host_buf, host);
		o->so.host = o->host_buf;
		return 0;
	}
	case 'p':
		if (strchr(val, ','))
			return err_set(st->err, 2, "option -p %s: a local control port (port,lport) is not supported; accepted: %s",
				       val, opt_hint(c, false));
		if (parse_uint(val, 1, 65535, &x))
			return err_set(st->err, 2, "option -p %s: not a port number; accepted: %s",
				       val, opt_hint(c, false));
		snprintf(o->port_buf, sizeof(o->port_buf), "%llu",
			 (unsigned long long)x);
		o->so.port = o->port_buf;
		return 0;
	case '4':
	case '6':
		o->so.p.family = c == '4' ? AF_INET : AF_INET6;
		o->so.af_hint = o->so.p.family;
		return 0;
	case 'l':
		return opt_duration(st, val);
	case 'T':
		return opt_cpus(st, val);
	case 'c':
		o->local_cpu = true;
		return 0;
	case 'C':
		o->remote_cpu = true;
		return 0;
	case 'D':
		/* netperf's negative -D (its demo mode 2) stamps the time at
		 * every unit of work so intervals keep to the clock; ticks
		 * here always keep to the clock, so -D -X is -D X. */
		if (parse_double(val, -TT_MAX_DURATION, TT_MAX_DURATION, &d) || d == 0)
			return err_set(st->err, 2, "option -D %s: not an interval; accepted: %s",
				       val, opt_hint(c, false));
		o->interim = fabs(d);
		return 0;
	case 'i':
		return opt_iterations(st, val);
	case 'I':
		return opt_confidence(st, val);
	case 'P':
		if (strcmp(val, "0") && strcmp(val, "1"))
			return err_set(st->err, 2, "option -P %s: not 0 or 1; accepted: %s",
				       val, opt_hint(c, false));
		o->headers = val[0] == '1';
		return 0;
	case 'f':
		if (strlen(val) != 1 || !strchr("kmgKMGx", val[0]))
			return err_set(st->err, 2, "option -f %s: not a unit; accepted: %s", val, opt_hint(c, false));
		o->units = val[0];
		return 0;
	case 'v':
		/* netperf's -v 2 adds tables of alignments, bytes per call
		 * and TCP statistics: not printed yet (docs/netperf.md) */
		if (strcmp(val, "0") && strcmp(val, "1"))
			return err_set(st->err, 2, "option -v %s: %s; accepted: %s", val,
				       strcmp(val, "2") ? "not a verbosity" :
				       "netperf's verbose tables are not printed", opt_hint(c, false));
		o->terse = val[0] == '0';
		return 0;
	case 'F': {
		char b;
		int fd;

		if (!*val || strlen(val) >= sizeof(o->fill_file))
			return err_set(st->err, 2, "option -F: accepted: %s", opt_hint(c, false));
		errno = 0;
		fd = open(val, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0 || read(fd, &b, 1) != 1) {
			const char *why = errno ? strerror(errno) : "empty";

			if (fd >= 0)
				close(fd);
			return err_set(st->err, 2, "option -F %.64s: %s; accepted: %s", val, why,
				       opt_hint(c, false));
		}
		close(fd);
		snprintf(o->fill_file, sizeof(o->fill_file), "%s", val);
		o->so.fill_file = o->fill_file;
		return 0;
	}
	case 'w':
		if (!*val || strlen(val) >= sizeof(o->capture_file))
			return err_set(st->err, 2, "option -w: accepted: %s", opt_hint(c, false));
		snprintf(o->capture_file, sizeof(o->capture_file), "%s", val);
		o->so.capture_file = o->capture_file;
		return 0;
	default:	/* 'h' */
		o->help = OPTIONS_HELP_USAGE;
		return 1;
	}
}

/* The test type an option needs, as a message, or NULL when it applies. */
static const char *opt_misplaced(char c, enum test_type t)
{
	switch (c) {
	case 'r':
	case 'b':
		return test_is_rr(t) ? NULL :
		       "applies to request/response tests; accepted: with -t TCP_RR, TCP_CRR or UDP_RR";
	case 'm':
	case 'M':
		return !test_is_rr(t) ? NULL :
		       "applies to stream tests; accepted: with -t TCP_STREAM, TCP_MAERTS or UDP_STREAM";
	case 'D':
		return !test_is_udp(t) ? NULL :
		       "TCP_NODELAY applies to TCP tests; accepted: with -t TCP_RR, TCP_CRR, TCP_STREAM or TCP_MAERTS";
	case 'e':
		return test_is_udp(t) && test_is_rr(t) ? NULL :
		       "the receive timeout applies to UDP_RR; accepted: with -t UDP_RR";
	default:
		return NULL;
	}
}

/* -o/-O/-k [sel,...]: "help" or "?" lists the selectors. */
static int opt_selectors(struct parse_state *st, char c, const char *val)
{
	static const char *const names[] = { "-o", "-O", "-k" };
	struct run_opts *o = st->o;
	enum out_format fmt;
	const char *name;
	int ret;

	if (!strcmp(val, "?")) {
		o->help = OPTIONS_HELP_SEL_NAMES;
		return 1;
	}
	if (!strcasecmp(val, "help")) {
		o->help = OPTIONS_HELP_SEL_DESC;
		return 1;
	}
	fmt = c == 'o' ? OUT_CSV : c == 'k' ? OUT_KEYVAL : OUT_HUMAN;
	name = names[c == 'o' ? 0 : c == 'O' ? 1 : 2];
	ret = set_format(st, fmt, name);
	if (ret)
		return ret;
	if (o->netperf_mode && !val[strspn(val, " \t")]) {
		selectors_netperf_default(o->so.p.type, o->local_cpu || o->remote_cpu, &o->sel);
		return 0;
	}
	if (selectors_parse(val, c, o->so.p.type, st->i_given || st->I_given,
			    &o->sel, st->err))
		return 2;
	return 0;
}

/* One option after `--`; returns 0, 1 (help asked: o->help) or 2 (err set). */
static int test_opt(struct parse_state *st, char c, const char *val)
{
	struct test_params *p = &st->o->so.p;
	uint64_t max_msg = test_is_udp(p->type) ? TT_MAX_UDP_MSG : TT_MAX_MSG;
	const char *why = opt_misplaced(c, p->type);
	char a[64], b[64];
	uint64_t x;
	int ret;

	if (why)
		return err_set(st->err, 2, "option -%c%s%s: %s (the test is %s)",
			       c, val ? " " : "", val ? val : "", why,
			       test_type_name(p->type));
	switch (c) {
	case 'r':
		if (split_pair(val, a, b, sizeof(a), true) || (!*a && !*b))
			return err_set(st->err, 2, "option -r %s: not req[,resp]; accepted: %s",
				       val, opt_hint(c, true));
		if (*a) {
			ret = opt_size(st, c, val, a, 1, max_msg, &x);
			if (ret)
				return ret;
			p->req_size = (uint32_t)x;
		}
		if (*b) {
			ret = opt_size(st, c, val, b, 1, max_msg, &x);
			if (ret)
				return ret;
			p->resp_size = (uint32_t)x;
		}
		return 0;
	case 'b':
		ret = parse_uint(val, 0, TT_MAX_BURST, &x);
		if (ret)
			return err_set(st->err, 2, "option -b %s: %s; accepted: %s",
				       val, num_why(ret), opt_hint(c, true));
		p->burst = (uint32_t)x;
		return 0;
	case 'D':
		p->nodelay = true;
		return 0;
	case 'm':
	case 'M':
		ret = opt_size(st, c, val, val, 1, max_msg, &x);
		if (ret)
			return ret;
		if (c == 'm')
			p->send_size = (uint32_t)x;
		else
			p->recv_size = (uint32_t)x;
		return 0;
	case 's':
		return opt_sockbufs(st, c, val, &p->lsndbuf, &p->lrcvbuf);
	case 'S':
		return opt_sockbufs(st, c, val, &p->rsndbuf, &p->rrcvbuf);
	case 'e':
		ret = parse_uint(val, 1, 3600, &x);
		if (ret)
			return err_set(st->err, 2, "option -e %s: %s; accepted: %s",
				       val, num_why(ret), opt_hint(c, true));
		p->loss_ms = (uint32_t)(x * 1000);
		return 0;
	case 'n':
		ret = parse_uint(val, 1, TT_MAX_FLOWS, &x);
		if (ret)
			return err_set(st->err, 2, "option -n %s: %s; accepted: %s",
				       val, num_why(ret), opt_hint(c, true));
		p->flows = (uint32_t)x;
		return 0;
	case 'o':
	case 'O':
	case 'k':
		return opt_selectors(st, c, val);
	case 'P':
		return err_set(st->err, 2, "option -P %s: choosing data connection ports is not supported; accepted: no -P after `--` (-p sets the control port)",
			       val);
	case 'H': {
		int af = -1;

		ret = opt_host(st, c, true, val, st->o->data_host, sizeof(st->o->data_host), &af);
		if (ret)
			return ret;
		if (!*st->o->data_host)
			return err_set(st->err, 2, "option -H %s after `--`: no host; accepted: %s", val,
				       opt_hint(c, true));
		return 0;
	}
	default:	/* 'h' */
		st->o->help = OPTIONS_HELP_USAGE;
		return 1;
	}
}

/* An option letter the part does not know; say where it belongs. */
static int unknown_opt(struct parse_state *st, char c, bool test)
{
	if (!test && opt_kind(TEST_SPEC, c))
		return err_set(st->err, 2, "option -%c: a test option before `--`; accepted: test options after `--`, e.g. tunetop run -t TCP_RR -- -r 1,1",
			       c);
	if (test && opt_kind(GLOBAL_SPEC, c))
		return err_set(st->err, 2, "option -%c: a global option after `--`; accepted: global options before `--`",
			       c);
	if (test)
		return err_set(st->err, 2, "option -%c after `--`: unknown; accepted: %s", c,
			       TEST_OPTS_HINT);
	return err_set(st->err, 2, "option -%c: unknown; accepted: %s", c,
		       ALL_OPTS_HINT);
}

/*
 * The long options whose value may be the next word: the one list of them
 * (options_takes_next() answers from it for `tunetop ab`, which passes
 * run's options through); tests/unit/test-options checks it against
 * long_opt() for every long option LONG_OPTS_HINT names.
 */
static const char *const value_longs[] = {
	"--sample-ms", "--connect-timeout", "--set", "--key", "--db", "--lab", "--mtu", "--rate",
};

bool options_takes_next(const char *a)
{
	if (a[0] != '-' || !a[1])
		return false;
	if (a[1] == '-') {
		if (strchr(a, '='))
			return false;
		for (size_t i = 0; i < sizeof(value_longs) / sizeof(value_longs[0]); i++)
			if (!strcmp(a, value_longs[i]))
				return true;
		return false;
	}
	/* A cluster like "-cl": the first letter that takes a value takes
	 * the next word when none is attached. */
	for (size_t i = 1; a[i]; i++)
		if (opt_kind(GLOBAL_SPEC, a[i]) >= 2)
			return opt_kind(GLOBAL_SPEC, a[i]) == 2 && a[i + 1] == '\0';
	return false;
}

/* The value of a long option: after '=' or the next word. 0, or 2 with err. */
static int long_val(struct parse_state *st, int argc, char **argv, int *i,
		    const char *eq, const char *name, const char *accepted,
		    const char **val)
{
	if (eq)
		*val = eq + 1;
	else if (*i + 1 < argc)
		*val = argv[++*i];
	else
		return err_set(st->err, 2, "option %s: missing value; accepted: %s", name, accepted);
	return 0;
}

/* A long option whose value is a path that must fit buf: 0, or 2 with err. */
static int path_val(struct parse_state *st, int argc, char **argv, int *i, const char *eq,
		    const char *name, const char *accepted, char *buf, size_t size)
{
	const char *val = NULL;

	if (long_val(st, argc, argv, i, eq, name, accepted, &val))
		return 2;
	if (!*val || strlen(val) >= size)
		return err_set(st->err, 2, "option %s: accepted: %s", name, accepted);
	snprintf(buf, size, "%s", val);
	return 0;
}

/* --json, --json-stream, --sample-ms N, --connect-timeout S, --lab NAME,
 * --loopback, --mtu N, --rate R (values also as --opt=value), --help. */
static int long_opt(struct parse_state *st, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	const char *eq = strchr(a, '=');
	size_t len = eq ? (size_t)(eq - a) : strlen(a);
	const char *val = NULL;
	uint64_t x;

	if (len == 6 && !strncmp(a, "--json", len) && !eq)
		return set_format(st, OUT_JSON, "--json");
	if (len == 13 && !strncmp(a, "--json-stream", len) && !eq)
		return set_format(st, OUT_JSON_STREAM, "--json-stream");
	if (len == 6 && !strncmp(a, "--help", len) && !eq) {
		st->o->help = OPTIONS_HELP_USAGE;
		return 1;
	}
	if (len == 11 && !strncmp(a, "--sample-ms", len)) {
		if (long_val(st, argc, argv, i, eq, "--sample-ms", "milliseconds 10-10000", &val))
			return 2;
		if (parse_uint(val, SAMPLE_MS_MIN, SAMPLE_MS_MAX, &x))
			return err_set(st->err, 2, "option --sample-ms %s: not a tick length; accepted: milliseconds %d-%d",
				       val, SAMPLE_MS_MIN, SAMPLE_MS_MAX);
		st->sample_ms = (uint32_t)x;
		st->sample_ms_given = true;
		return 0;
	}
	if (len == 17 && !strncmp(a, "--connect-timeout", len)) {
		double secs;

		if (long_val(st, argc, argv, i, eq, "--connect-timeout", "seconds, 0.1-600", &val))
			return 2;
		if (parse_double(val, 0.1, 600, &secs))
			return err_set(st->err, 2, "option --connect-timeout %s: not a time; accepted: seconds, 0.1-600",
				       val);
		st->o->so.connect_timeout = secs;
		return 0;
	}
	if (len == 5 && !strncmp(a, "--set", len)) {
		if (long_val(st, argc, argv, i, eq, "--set", "[local:|remote:|both:]NAME=VALUE, a knob of `tunetop knobs list`", &val))
			return 2;
		if (!strchr(val, '=') || strlen(val) >= sizeof(st->o->set[0]))
			return err_set(st->err, 2, "option --set %.60s: accepted: [local:|remote:|both:]NAME=VALUE (e.g. remote:gro=off)",
				       val);
		if (st->o->nset >= sizeof(st->o->set) / sizeof(st->o->set[0]))
			return err_set(st->err, 2, "option --set: at most 32 knobs");
		snprintf(st->o->set[st->o->nset++], sizeof(st->o->set[0]), "%s", val);
		return 0;
	}
	if (len == 5 && !strncmp(a, "--key", len)) {
		return path_val(st, argc, argv, i, eq, "--key",
				"the key file tunetopd --knobs --key was started with", st->o->key_file,
				sizeof(st->o->key_file));
	}
	if (len == 9 && !strncmp(a, "--capture", len)) {
		int m = eq ? capture_mode_parse(eq + 1) : CAPTURE_ON;

		if (m < 0)
			return err_set(st->err, 2, "option --capture=%.32s: accepted: --capture, --capture=on, --capture=auto or --capture=off",
				       eq + 1);
		st->o->so.p.capture = (enum capture_mode)m;
		st->o->capture_given = true;
		return 0;
	}
	if (len == 4 && !strncmp(a, "--db", len)) {
		return path_val(st, argc, argv, i, eq, "--db", "the path of a run history database (SQLite)",
				st->o->db_path, sizeof(st->o->db_path));
	}
	if (len == 11 && !strncmp(a, "--netserver", len) && !eq) {
		st->o->netserver = true;
		return 0;
	}
	if (len == 7 && !strncmp(a, "--no-db", len) && !eq) {
		st->o->no_db = true;
		return 0;
	}
	if (len == 9 && !strncmp(a, "--netperf", len) && !eq) {
		st->o->netperf_mode = true;
		return 0;
	}
	if (len == 8 && !strncmp(a, "--extras", len) && !eq) {
		st->o->extras = true;
		return 0;
	}
	if (len == 6 && !strncmp(a, "--keep", len) && !eq) {
		st->o->keep = true;
		return 0;
	}
	if (len == 6 && !strncmp(a, "--wait", len) && !eq) {
		st->o->wait = true;
		return 0;
	}
	if (len == 10 && !strncmp(a, "--loopback", len) && !eq) {
		st->o->loopback = true;
		return 0;
	}
	if (len == 5 && !strncmp(a, "--lab", len)) {
		if (long_val(st, argc, argv, i, eq, "--lab", "the name of a lab from `tunetop lab up`", &val))
			return 2;
		if (!*val || strlen(val) >= sizeof(st->o->lab_name))
			return err_set(st->err, 2, "option --lab: accepted: the name of a lab from `tunetop lab up`");
		if (lab_name_check(val, st->err)) {
			char why[ERR_MAX];

			snprintf(why, sizeof(why), "%s", st->err);
			return err_set(st->err, 2, "option --lab: %s", why);
		}
		snprintf(st->o->lab_name, sizeof(st->o->lab_name), "%s", val);
		return 0;
	}
	if (len == 5 && !strncmp(a, "--mtu", len)) {
		if (long_val(st, argc, argv, i, eq, "--mtu", "the lab's MTU, 68-65535", &val))
			return 2;
		if (parse_uint(val, 68, 65535, &x))
			return err_set(st->err, 2, "option --mtu %s: accepted: the lab's MTU, 68-65535 (e.g. 1500, 9000)",
				       val);
		st->o->lab_mtu = (unsigned)x;
		st->o->lab_opts_given = true;
		return 0;
	}
	if (len == 6 && !strncmp(a, "--rate", len)) {
		if (long_val(st, argc, argv, i, eq, "--rate", "a rate like 1gbit, 10gbit, 100mbit or none", &val))
			return 2;
		if (parse_rate(val, &x))
			return err_set(st->err, 2, "option --rate %s: accepted: a rate like 1gbit, 10gbit, 100mbit or none",
				       val);
		st->o->lab_rate = x;
		st->o->lab_opts_given = true;
		return 0;
	}
	return err_set(st->err, 2, "option %.*s: unknown; accepted: %s",
		       (int)(len > 64 ? 64 : len), a, LONG_OPTS_HINT);
}

void options_target_opts(const struct run_opts *o, struct target_opts *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->host, sizeof(t->host), "%s", o->so.host ? o->so.host : "");
	snprintf(t->port, sizeof(t->port), "%s", o->so.port ? o->so.port : "");
	t->netserver = o->netserver;
	t->loopback = o->loopback;
	snprintf(t->lab_name, sizeof(t->lab_name), "%s", o->lab_name);
	t->lab_mtu = o->lab_mtu;
	t->lab_rate = o->lab_rate;
	t->lab_opts_given = o->lab_opts_given;
	snprintf(t->key_file, sizeof(t->key_file), "%s", o->key_file);
}

const char *options_remote_knobs_refusal(const struct run_opts *o)
{
	static struct target_opts t;

	options_target_opts(o, &t);
	return target_knobs_refusal(&t, true);
}

static void options_init(struct run_opts *o)
{
	memset(o, 0, sizeof(*o));
	params_default(&o->so.p);
	o->so.host = NULL;
	o->so.port = NULL;
	o->fmt = OUT_HUMAN;
	o->headers = true;
	/* netperf: -I alone runs -i 10,3; -i alone aims at -I 99,5. */
	o->it = (struct iterate){
		.max_iter = 10, .min_iter = 3, .level = 99, .width_pct = 5,
	};
}

/* Whether host names b (NULL: none given) or an address of b: by the
 * string, else numerically (no name is looked up here). */
static bool same_host(const char *a, const char *b)
{
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST }, *ra, *rb;
	bool same = false;

	if (!b)
		return false;
	if (!strcmp(a, b))
		return true;
	if (getaddrinfo(a, NULL, &hints, &ra))
		return false;
	if (!getaddrinfo(b, NULL, &hints, &rb)) {
		same = ra->ai_family == rb->ai_family && ra->ai_addrlen == rb->ai_addrlen &&
		       !memcmp(ra->ai_addr, rb->ai_addr, ra->ai_addrlen);
		freeaddrinfo(rb);
	}
	freeaddrinfo(ra);
	return same;
}

/* Whether a --set reaches the remote end: remote: or both:. */
static bool options_set_remote(const char *set)
{
	enum sweep_end end;

	sweep_knob_end(set, &end);
	return end != SWEEP_END_LOCAL;
}

/* Settle what depends on several options, then check as a server would. */
static int options_finish(struct parse_state *st)
{
	struct run_opts *o = st->o;
	struct test_params *p = &o->so.p;
	char why[ERR_MAX];

	o->iterating = st->i_given || st->I_given;
	if (o->extras && !o->netperf_mode)
		return err_set(st->err, 2, "option --extras: outside netperf mode tunetop's own lines follow netperf's block already; accepted: --extras with --netperf (or tunetop run as netperf)");
	/* netperf's RR with -f k..G shows the bits of the transactions; its
	 * CPU table so is not known here (docs/netperf.md). */
	if (o->units == 'x' && !test_is_rr(p->type))
		return err_set(st->err, 2, "option -f x: transactions a second are an RR test's unit; accepted: %s",
			       opt_hint('f', false));
	if (o->units && o->units != 'x' && test_is_rr(p->type) && (o->local_cpu || o->remote_cpu))
		return err_set(st->err, 2, "option -f %c: an RR test's rate in bits with -c/-C is not printed; accepted: -f %c without -c/-C, or -f x",
			       o->units, o->units);
	/* netperf makes no namespaces: with no -H or --lab, loopback. */
	if (o->netperf_mode && !o->so.host && !o->lab_name[0] && !o->lab_opts_given)
		o->loopback = true;
	/* flent passes the control host again as the data host (-- -H):
	 * taken when it is that host, by name or by the same address. */
	if (o->data_host[0] && !same_host(o->data_host, o->so.host))
		return err_set(st->err, 2, "option -H %s after `--`: data connections to another host than the control connection's (%s) are not supported; accepted: the control host's name or address, as flent passes it",
			       o->data_host, o->so.host ? o->so.host : "none: no -H");
	if (o->netserver && !o->so.host)
		return err_set(st->err, 2, "option --netserver: needs -H HOST; accepted: -H HOST --netserver [-p PORT], for a netserver on HOST");
	for (unsigned i = 0; i < o->nset; i++)
		if (options_set_remote(o->set[i]) && options_remote_knobs_refusal(o))
			return err_set(st->err, 2, "option --set %.60s: %s",
				       o->set[i], options_remote_knobs_refusal(o));
	if (o->key_file[0] && (!o->so.host || o->netserver))
		return err_set(st->err, 2, "option --key: the key of a tunetopd's knob control; accepted with -H HOST (a tunetopd), not %s",
			       o->netserver ? "--netserver" : "without -H");
	for (unsigned i = 0; o->keep && o->so.host && i < o->nset; i++)
		if (options_set_remote(o->set[i]))
			return err_set(st->err, 2, "option --keep: %.60s goes back when the run ends (tunetopd puts back what a client changed when it goes); accepted: --keep for local: knobs, or tunetop knobs set --side remote --hold SECS",
				       o->set[i]);
	if (o->so.host && (o->lab_name[0] || o->loopback || o->lab_opts_given))
		return err_set(st->err, 2, "option -H: conflicts with %s; accepted: -H for a remote tunetopd, or --lab/--loopback/--mtu/--rate for the embedded one",
			       o->lab_name[0] ? "--lab" : o->loopback ? "--loopback" : "--mtu/--rate");
	if (o->loopback && (o->lab_name[0] || o->lab_opts_given))
		return err_set(st->err, 2, "option --loopback: conflicts with %s; accepted: one of them",
			       o->lab_name[0] ? "--lab" : "--mtu/--rate");
	if (o->lab_name[0] && o->lab_opts_given)
		return err_set(st->err, 2, "option --lab %s: conflicts with --mtu/--rate, which shape a new lab; accepted: tunetop lab up --mtu/--rate, then --lab",
			       o->lab_name);
	if (o->capture_file[0]) {
		char dir[sizeof(o->capture_file)];
		char *slash;

		snprintf(dir, sizeof(dir), "%s", o->capture_file);
		slash = strrchr(dir, '/');
		if (slash)
			*(slash == dir ? slash + 1 : slash) = '\0';
		if (access(slash ? dir : ".", W_OK))
			return err_set(st->err, 2, "option -w %.64s: cannot write in %.64s: %s; accepted: a file in a writable directory",
				       o->capture_file, slash ? dir : ".", strerror(errno));
		if (o->capture_given && p->capture != CAPTURE_ON)
			return err_set(st->err, 2, "option -w %.64s: conflicts with --capture=%s; accepted: -w with --capture or alone",
				       o->capture_file, capture_mode_name(p->capture));
		p->capture = CAPTURE_ON;
		o->capture_given = true;
	}
	if (o->interim > 0) {
		double ms = round(o->interim * 1000.0);
		uint32_t tick;

		if (ms < SAMPLE_MS_MIN)
			tick = SAMPLE_MS_MIN;
		else if (ms > SAMPLE_MS_MAX)
			tick = SAMPLE_MS_MAX;
		else
			tick = (uint32_t)ms;
		if (st->sample_ms_given && st->sample_ms != tick)
			return err_set(st->err, 2, "option --sample-ms %u: conflicts with -D %g, which sets the tick to %u ms; accepted: one of them, or the same interval",
				       st->sample_ms, o->interim, tick);
		p->sample_ms = tick;
	} else if (st->sample_ms_given) {
		p->sample_ms = st->sample_ms;
	}
	if (params_validate(p, why)) {
		/* Its messages name the option ("-b: ..."): say it is one. */
		err_set(st->err, 2, "%s%s", why[0] == '-' ? "option " : "", why);
		return 2;
	}
	return 0;
}

/* options_argv, the parse itself: 0, 1 for help, 2 with err. */
static int options_walk(int argc, char **argv, struct run_opts *o, char *err)
{
	struct parse_state st = {
		.o = o, .err = err,
	};
	bool test_part = false;
	int ret;

	options_init(o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *spec = test_part ? TEST_SPEC : GLOBAL_SPEC;

		if (!test_part && !strcmp(a, "--")) {
			test_part = true;
			continue;
		}
		if (a[0] == '-' && a[1] == '-' && a[2]) {
			if (test_part)
				return err_set(err, 2, "option %.64s: a global option after `--`; accepted: global options before `--`",
					       a);
			ret = long_opt(&st, argc, argv, &i);
			if (ret)
				return ret;
			continue;
		}
		if (a[0] != '-' || !a[1])
			return err_set(err, 2, "argument \"%.64s\": not an option; accepted: %s",
				       a, ALL_OPTS_HINT);
		for (int j = 1; a[j]; j++) {
			char c = a[j];
			int kind = opt_kind(spec, c);
			const char *val = NULL;

			if (!kind)
				return unknown_opt(&st, c, test_part);
			if (kind == 2) {
				if (a[j + 1])
					val = &a[j + 1];
				else if (i + 1 < argc)
					val = argv[++i];
				else
					return err_set(err, 2, "option -%c: missing value; accepted: %s",
						       c,
						       opt_hint(c, test_part));
			} else if (kind == 3) {
				if (a[j + 1])
					val = &a[j + 1];
				else if (i + 1 < argc && argv[i + 1][0] != '-')
					val = argv[++i];
				else
					val = "";
			}
			ret = test_part ? test_opt(&st, c, val) :
					  global_opt(&st, c, val);
			if (ret)
				return ret;
			if (kind != 1)
				break;
		}
	}
	return options_finish(&st);
}

int options_argv(int argc, char **argv, struct run_opts *o, char *err)
{
	int rc = options_walk(argc, argv, o, err);

	return rc == 2 ? -EINVAL : rc;
}
