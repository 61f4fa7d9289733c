// SPDX-License-Identifier: GPL-2.0-or-later
/* test-options.c - netperf command lines of `tunetop run`, accepted and refused. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "options.h"
#include "tap.h"

#define MAX_ARGS 64

/* Parse "run" plus the space-separated words of line; help goes to *help. */
static int parse_help(const char *line, struct run_opts *o, char *err,
		      char **help)
{
	char *copy = strdup(line), *argv[MAX_ARGS], *save = NULL;
	int argc = 0, ret;
	size_t len = 0;
	FILE *out;

	argv[argc++] = (char *)"run";
	for (char *w = strtok_r(copy, " ", &save); w && argc < MAX_ARGS - 1;
	     w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	*help = NULL;
	out = open_memstream(help, &len);
	err[0] = '\0';
	ret = options_parse_to(argc, argv, o, out, err);
	fclose(out);
	free(copy);
	return ret;
}

static int parse(const char *line, struct run_opts *o, char *err)
{
	char *help;
	int ret = parse_help(line, o, err, &help);

	free(help);
	return ret;
}

/* A refusal: exit code 2 and one line naming the option. */
static void refused(const char *line, const char *opt, const char *also)
{
	struct run_opts o;
	char err[ERR_MAX];
	int ret = parse(line, &o, err);

	ok(ret == 2, "'%s' is refused (ret %d)", line, ret);
	ok(err[0] && !strchr(err, '\n') && strstr(err, opt),
	   "'%s': one-line message naming %s: %s", line, opt, err);
	if (also)
		ok(strcasestr(err, also) != NULL,
		   "'%s': message says \"%s\": %s", line, also, err);
}

static void test_defaults(void)
{
	struct run_opts o;
	char err[ERR_MAX];

	ok(parse("", &o, err) == 0, "no options parse: %s", err);
	ok(o.so.p.type == TEST_TCP_RR && o.so.host == NULL && o.so.port == NULL,
	   "defaults: TCP_RR, embedded server, default port");
	ok(o.so.p.duration == 10 && o.so.p.req_size == 1 && o.so.p.resp_size == 1,
	   "defaults: 10 s, 1-byte request and response");
	ok(o.headers && o.fmt == OUT_HUMAN && !o.iterating && o.interim == 0 &&
	   o.so.p.sample_ms == TT_DEFAULT_SAMPLE_MS && o.sel.n == 0,
	   "defaults: headers, human output, no iterations, no interim");
	ok(o.so.p.lcpu == -1 && o.so.p.rcpu == -1, "defaults: not pinned");
}

static void test_netperf_lines(void)
{
	struct run_opts o;
	char err[ERR_MAX];
	int ret;

	ret = parse("-H 10.0.0.1 -l 20 -t TCP_STREAM -c -i 10,3 -- -m 256K -s 128K,256K",
		    &o, err);
	ok(ret == 0, "seed 003's stream line parses: %s", err);
	ok(o.so.host && !strcmp(o.so.host, "10.0.0.1"), "-H sets the host");
	ok(o.so.p.type == TEST_TCP_STREAM && o.so.p.duration == 20,
	   "-t TCP_STREAM -l 20");
	ok(o.local_cpu && !o.remote_cpu, "-c asks for local CPU only");
	ok(o.iterating && o.it.max_iter == 10 && o.it.min_iter == 3 &&
	   o.it.level == 99 && o.it.width_pct == 5,
	   "-i 10,3 iterates with netperf's -I 99,5");
	ok(o.so.p.send_size == 256 * 1024 && o.so.p.recv_size == 0 &&
	   params_recv_size_at(&o.so.p, 131072) == 131072,
	   "-m 256K is 262144 bytes; without -M the receiver reads its SO_RCVBUF, not the send size");
	ok(o.so.p.lsndbuf == 128 * 1024 && o.so.p.lrcvbuf == 256 * 1024 &&
	   o.so.p.rsndbuf == -1 && o.so.p.rrcvbuf == -1,
	   "-s 128K,256K sets the local send and receive buffers only");

	ret = parse("-t tcp_rr -T 0,1 -- -r 1 -b 15 -D", &o, err);
	ok(ret == 0, "seed 001's RR line parses: %s", err);
	ok(o.so.p.type == TEST_TCP_RR, "-t is case-insensitive");
	ok(o.so.p.lcpu == 0 && o.so.p.rcpu == 1, "-T 0,1 pins local 0, remote 1");
	ok(o.so.p.req_size == 1 && o.so.p.resp_size == 1, "-r 1 means 1,1");
	ok(o.so.p.burst == 15 && o.so.p.nodelay, "-b 15 -D");

	ok(parse("-- -r ,512", &o, err) == 0 && o.so.p.req_size == 1 &&
	   o.so.p.resp_size == 512, "-r ,512 sets only the response");
	ok(parse("-- -r 4345,", &o, err) == 0 && o.so.p.req_size == 4345 &&
	   o.so.p.resp_size == 1, "-r 4345, sets only the request");
	ok(parse("-- -r 64k", &o, err) == 0 && o.so.p.req_size == 64000 &&
	   o.so.p.resp_size == 64000, "-r 64k is 64000 both ways");
	ok(parse("-T ,1", &o, err) == 0 && o.so.p.lcpu == -1 && o.so.p.rcpu == 1,
	   "-T ,1 pins only the remote end");
	ok(parse("-T 1,", &o, err) == 0 && o.so.p.lcpu == 1 && o.so.p.rcpu == -1,
	   "-T 1, pins only the local end");
	ok(parse("-T 2", &o, err) == 0 && o.so.p.lcpu == 2 && o.so.p.rcpu == 2,
	   "-T 2 pins both ends");
	ok(parse("-p 12999 -6", &o, err) == 0 && o.so.port &&
	   !strcmp(o.so.port, "12999") && o.so.p.family == AF_INET6 &&
	   o.so.af_hint == AF_INET6, "-p 12999 -6");
	ok(parse("-4", &o, err) == 0 && o.so.p.family == AF_INET &&
	   o.so.af_hint == AF_INET, "-4 sets the family hint");
	ok(parse("-cC -l5 -tTCP_MAERTS", &o, err) == 0 && o.local_cpu &&
	   o.remote_cpu && o.so.p.duration == 5 &&
	   o.so.p.type == TEST_TCP_MAERTS,
	   "grouped flags and attached values work as with getopt");
	ok(parse("-t UDP_STREAM -- -m 1472 -S 1M -n 4", &o, err) == 0 &&
	   o.so.p.rsndbuf == 1 << 20 && o.so.p.rrcvbuf == 1 << 20 &&
	   o.so.p.flows == 4 && o.so.p.send_size == 1472,
	   "-S 1M sets both remote buffers; -n 4 flows: %s", err);
	ok(parse("-t TCP_STREAM -- -s ,64K", &o, err) == 0 &&
	   o.so.p.lsndbuf == -1 && o.so.p.lrcvbuf == 64 * 1024,
	   "-s ,64K sets only the receive buffer");
	ok(parse("-P 0", &o, err) == 0 && !o.headers, "-P 0 turns headers off");
}

static void test_iterations(void)
{
	struct run_opts o;
	char err[ERR_MAX];

	ok(parse("-I 95,10", &o, err) == 0 && o.iterating &&
	   o.it.max_iter == 10 && o.it.min_iter == 3 && o.it.level == 95 &&
	   o.it.width_pct == 10, "-I alone iterates -i 10,3");
	ok(parse("-I 95", &o, err) == 0 && o.it.level == 95 &&
	   o.it.width_pct == 5, "-I 95 sets the level, keeps the 5%% width");
	ok(parse("-i 5", &o, err) == 0 && o.it.max_iter == 5 &&
	   o.it.min_iter == 5, "-i 5 means 5,5 as netperf's break_args does");
	ok(parse("-i 2,", &o, err) == 0 && o.it.max_iter == 2 &&
	   o.it.min_iter == 2, "-i 2, lowers the minimum to the maximum");
	ok(parse("-i 30,1", &o, err) == 0 && o.it.max_iter == 30 &&
	   o.it.min_iter == 1, "-i 30,1 is the widest range accepted");
}

static void test_interim(void)
{
	struct run_opts o;
	char err[ERR_MAX];

	ok(parse("-H 127.0.0.1,4", &o, err) == 0 && !strcmp(o.so.host, "127.0.0.1") &&
	   o.so.p.family == AF_INET && parse("-H ::1,inet6", &o, err) == 0 &&
	   !strcmp(o.so.host, "::1") && o.so.p.family == AF_INET6,
	   "-H host,family: netperf's family after a comma");
	ok(parse("-H 127.0.0.1 -- -H 127.0.0.1,4", &o, err) == 0 &&
	   parse("-H ::1 -- -H 0:0::1", &o, err) == 0,
	   "-- -H: the control host again, by name or by address, as flent passes it (%s)", err);
	ok(parse("-F /dev/urandom", &o, err) == 0 && !strcmp(o.so.fill_file, "/dev/urandom"),
	   "-F FILE: netperf's fill file, for the session to read (%s)", err);
	ok(parse("", &o, err) == 0 && !o.terse && parse("-v 0", &o, err) == 0 &&
	   o.terse, "-v: netperf's verbosity, 1 unless -v 0");
	ok(parse("-D 0.5", &o, err) == 0 && o.interim == 0.5 &&
	   o.so.p.sample_ms == 500, "-D 0.5 ticks every 500 ms");
	ok(parse("-D 0.0125", &o, err) == 0 && o.so.p.sample_ms == 13,
	   "-D 0.0125 rounds to 13 ms");
	ok(parse("-D 0.001", &o, err) == 0 && o.so.p.sample_ms == 10,
	   "-D 0.001 is clamped to the 10 ms tick");
	ok(parse("-D -0.2", &o, err) == 0 && o.interim == 0.2 && o.so.p.sample_ms == 200,
	   "-D -0.2 (netperf's demo mode 2, as flent passes it) is an interval of 0.2 s");
	ok(parse("-D 30", &o, err) == 0 && o.so.p.sample_ms == 10000 &&
	   o.interim == 30, "-D 30 is clamped to the 10 s tick");
	ok(parse("--sample-ms 50", &o, err) == 0 && o.so.p.sample_ms == 50 &&
	   o.interim == 0, "--sample-ms 50");
	ok(parse("--sample-ms=250", &o, err) == 0 && o.so.p.sample_ms == 250,
	   "--sample-ms=250");
	ok(parse("--connect-timeout 2.5", &o, err) == 0 && o.so.connect_timeout == 2.5,
	   "--connect-timeout 2.5");
	ok(parse("--connect-timeout=0.05", &o, err) == 2 && strstr(err, "--connect-timeout"),
	   "--connect-timeout below 0.1 s is refused (%s)", err);
	ok(parse("-D 0.5 --sample-ms 500", &o, err) == 0,
	   "-D and --sample-ms may agree");
}

static void test_formats(void)
{
	struct run_opts o;
	char err[ERR_MAX];
	char *help;
	int i;

	ok(parse("--json", &o, err) == 0 && o.fmt == OUT_JSON, "--json");
	ok(parse("--json-stream -D 1", &o, err) == 0 &&
	   o.fmt == OUT_JSON_STREAM, "--json-stream");
	ok(parse("-- -o", &o, err) == 0 && o.fmt == OUT_CSV && o.sel.n > 3,
	   "-o alone selects the default set (%u)", o.sel.n);
	ok(o.sel.n && selector_find("P99_LATENCY") >= 0,
	   "P99_LATENCY is a selector");
	ok(parse("-- -o THROUGHPUT,p99_latency", &o, err) == 0 && o.sel.n == 2 &&
	   (int)o.sel.idx[0] == selector_find("THROUGHPUT") &&
	   (int)o.sel.idx[1] == selector_find("P99_LATENCY"),
	   "-o THROUGHPUT,p99_latency: two selectors, any case");
	ok(parse("-- -oTHROUGHPUT", &o, err) == 0 && o.sel.n == 1,
	   "-oTHROUGHPUT attached");
	ok(parse("-- -k THROUGHPUT,TEST", &o, err) == 0 && o.fmt == OUT_KEYVAL &&
	   o.sel.n == 2, "-k selects keyval");
	ok(parse("-- -O THROUGHPUT -D", &o, err) == 0 && o.fmt == OUT_HUMAN &&
	   o.sel.n == 1 && o.so.p.nodelay,
	   "-O columns; the next option is not taken as its list");

	i = parse_help("-- -o help", &o, err, &help);
	ok(i == 1 && o.help, "-o help returns 1");
	ok(help && strstr(help, "P99_LATENCY") && strstr(help, "THROUGHPUT_CONFID"),
	   "-o help lists the selectors");
	free(help);
	i = parse_help("-- -o ?", &o, err, &help);
	ok(i == 1 && help && strstr(help, "LOCAL_CPU_PEAK_UTIL"),
	   "-o ? lists the selectors too");
	free(help);
	i = parse_help("-h", &o, err, &help);
	ok(i == 1 && o.help && help && strstr(help, "usage: tunetop run"),
	   "-h prints usage and returns 1");
	free(help);
	i = parse_help("-t TCP_RR -- -h", &o, err, &help);
	ok(i == 1 && help && strstr(help, "-r REQ"), "test -h prints usage too");
	free(help);
}

static void test_refusals(void)
{
	struct run_opts o;
	char err[ERR_MAX];
	char *argv_empty_host[] = { (char *)"run", (char *)"-H", (char *)"", NULL };

	refused("-t FOO", "-t FOO", "TCP_RR");
	refused("-l abc", "-l abc", NULL);
	refused("-l -5", "-l -5", "transaction count");
	refused("-l 0", "-l 0", NULL);
	refused("-l 100000", "-l 100000", NULL);
	refused("-- -r 0", "-r 0", NULL);
	refused("-t TCP_STREAM -- -m 1X", "-m 1X", "size");
	refused("-T a", "-T a", NULL);
	refused("-T 5000", "-T 5000", NULL);
	refused("-T ,", "-T ,", NULL);
	refused("-i 40,3", "-i 40,3", "30");
	refused("-i 3,10", "-i 3,10", "minimum");
	refused("-i 0", "-i 0", NULL);
	refused("-I 90,5", "-I 90,5", "95 or 99");
	refused("-I 99,0", "-I 99,0", "width");
	refused("-- -n 0", "-n 0", "1-1024");
	refused("-- -n 1025", "-n 1025", NULL);
	refused("-- -b 99999", "-b 99999", "4096");
	refused("-Z", "-Z", "unknown");
	refused("-- -Z", "-Z", "unknown");
	refused("-l", "-l", "missing");
	refused("-- -r", "-r", "missing");
	refused("-- -o BOGUS", "BOGUS", "help");
	refused("-- -o THROUGHPUT,BOGUS", "BOGUS", NULL);
	refused("-- -o THROUGHPUT,,TEST", "-o", "empty");
	refused("-p 12866,5000", "-p 12866,5000", "not supported");
	refused("-p 0", "-p 0", NULL);
	refused("-p 70000", "-p 70000", NULL);
	refused("-P 2", "-P 2", NULL);
	refused("-D 0", "-D 0", NULL);
	refused("-v 2", "-v 2", "verbose tables");
	refused("-F /nonexistent/x", "-F /nonexistent/x", "No such file");
	refused("-F /dev/null", "-F /dev/null", "empty");
	refused("-H 127.0.0.1,x", "-H 127.0.0.1,x", "family 'x'");
	refused("-H 127.0.0.1 -- -H 127.0.0.2", "-H 127.0.0.2 after", "control host");
	refused("-- -H 127.0.0.1", "-H 127.0.0.1 after", "no -H");
	refused("-v x", "-v x", "not a verbosity");
	refused("-D abc", "-D abc", NULL);
	refused("-t TCP_STREAM -- -r 1", "-r 1", "request/response");
	refused("-- -m 1K", "-m 1K", "stream");
	refused("-t UDP_RR -- -D", "-D", "TCP");
	refused("-t UDP_RR -- -r 70000", "-r 70000", "65507");
	refused("-t TCP_CRR -- -b 1", "-b", NULL);
	refused("-t TCP_STREAM -- -s 2G", "-s 2G", NULL);
	refused("-- -l 5", "-l", "before `--`");
	refused("-r 1", "-r", "after `--`");
	refused("--bogus", "--bogus", "unknown");
	refused("--sample-ms 5", "--sample-ms 5", NULL);
	refused("--sample-ms", "--sample-ms", "missing");
	refused("-D 0.5 --sample-ms 100", "--sample-ms 100", "-D");
	refused("--json -- -o", "-o", "--json");
	refused("--json --json-stream", "--json-stream", "--json");
	refused("-- -o TEST -k TEST", "-k", "-o");
	refused("-- --json", "--json", "before `--`");
	refused("foo", "foo", NULL);
	refused("-- -P 5000", "-P 5000", NULL);

	err[0] = '\0';
	ok(options_parse(3, argv_empty_host, &o, err) == 2 && strstr(err, "-H"),
	   "-H with an empty host is refused: %s", err);
}

/* Remote knobs with -H: a key or a one-line refusal saying how to get one. */
static void test_remote_knobs(void)
{
	struct run_opts o;
	struct target_opts to;
	char err[ERR_MAX];

	refused("-H h --set remote:gro=off", "--set remote:gro=off", "--key FILE");
	refused("-H h --set remote:gro=off", "--set", "tunetopd --gen-key");
	refused("-H h --netserver --set remote:gro=off", "--set", "netserver has no knobs");
	refused("-H h --netserver --key k", "--key", "--netserver");
	refused("--key k", "--key", "-H");
	refused("-H h --key k --keep --set remote:gro=off", "--keep", "--hold");
	ok(parse("-H h --key k --set remote:gro=off --set gro=on", &o, err) == 0 &&
	   !strcmp(o.key_file, "k") && !options_remote_knobs_refusal(&o),
	   "-H with --key takes remote: knobs: %s", err);
	ok(parse("-H h --key k --keep --set gro=on", &o, err) == 0,
	   "--keep of a local knob with -H --key is fine: %s", err);
	ok(parse("-H h --set gro=on", &o, err) == 0,
	   "a local knob with -H needs no key: %s", err);
	options_target_opts(&o, &to);
	ok(!target_knobs_refusal(&to, false) && target_knobs_refusal(&to, true) &&
	   strstr(target_knobs_refusal(&to, true), "--key FILE"),
	   "the engine: the local end can change, the remote one needs a key");
	ok(parse("--lab x", &o, err) == 0, "--lab x parses: %s", err);
	options_target_opts(&o, &to);
	ok(!target_knobs_refusal(&to, true), "in a lab, side b's knobs can change");
}

/*
 * params_text() writes a test as run's options: each line parses, its text
 * is what a netperf user would type (-s/-S in netperf's own form, an unset
 * half left empty), and the text parses back to the same test.
 */
static void test_params_text_round_trip(void)
{
	static const struct { const char *line, *text; } cases[] = {
		{ "-t TCP_RR -l 10 -- -r 1,1 -b 15 -D", "TCP_RR -l 10 -- -r 1,1 -b 15 -D" },
		{ "-t TCP_STREAM -l 3 -- -m 1000 -M 2000 -s ,8K -S 4096",
		  "TCP_STREAM -l 3 -- -m 1000 -M 2000 -s ,8192 -S 4096" },
		{ "-t TCP_MAERTS -l 2 -- -s 8K, -S 16K,32K",
		  "TCP_MAERTS -l 2 -- -s 8192, -S 16384,32768" },
		{ "-t UDP_RR -l 1 -- -r 64,1024 -n 4", "UDP_RR -l 1 -- -r 64,1024 -n 4" },
		{ "-t TCP_STREAM -l 5", "TCP_STREAM -l 5" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run_opts a, b;
		char err[ERR_MAX], text[256], line[300];
		int ra = parse(cases[i].line, &a, err);

		ok(ra == 0, "'%s' parses (%d %s)", cases[i].line, ra, err);
		if (ra)
			continue;
		params_text(&a.so.p, text, sizeof(text));
		ok(!strcmp(text, cases[i].text), "'%s' is written '%s' (got '%s')", cases[i].line,
		   cases[i].text, text);
		snprintf(line, sizeof(line), "-t %s", text);
		ok(parse(line, &b, err) == 0 && params_same_test(&a.so.p, &b.so.p) &&
		   a.so.p.duration == b.so.p.duration,
		   "'%s' parses back to the same test (%s)", line, err);
	}
}

/*
 * Every option before `--` that the parser's own list of them names (its
 * "unknown option" message): options_takes_next(), the one list tunetop ab
 * passes run's options through with, says it takes the next word exactly
 * when the parser wants a value after it ("missing value" when alone).
 */
static void test_takes_next(void)
{
	struct run_opts o;
	char err[ERR_MAX], hint[2 * ERR_MAX], *save = NULL, *w, *cut;
	const char *acc;
	unsigned n = 0, bad = 0;

	/* The short ones (to "after --"), then the long ones. */
	parse("-Z", &o, err);
	acc = strstr(err, "accepted: ");
	if (!ok(acc != NULL && strlen(err) < ERR_MAX - 1,
		"an unknown option lists the accepted ones, whole: %s", err))
		return;
	snprintf(hint, sizeof(hint), "%s", acc + 10);
	cut = strstr(hint, "; after");
	if (cut)
		*cut = '\0';
	parse("--no-such-option", &o, err);
	acc = strstr(err, "accepted: ");
	if (!ok(acc != NULL && strlen(err) < ERR_MAX - 1,
		"an unknown long option lists the long ones, whole: %s", err))
		return;
	snprintf(hint + strlen(hint), sizeof(hint) - strlen(hint), " %s", acc + 10);
	for (w = strtok_r(hint, " ;", &save); w && strcmp(w, "after");
	     w = strtok_r(NULL, " ;", &save)) {
		bool wants;
		int ret;

		ret = parse(w, &o, err);
		wants = ret == 2 && strstr(err, "missing value") != NULL;
		if (wants != options_takes_next(w)) {
			printf("# %s: the parser %s a value, options_takes_next says %s\n", w,
			       wants ? "wants" : "does not want", options_takes_next(w) ? "yes" : "no");
			bad++;
		}
		n++;
	}
	ok(n >= 30 && !bad, "%u options: options_takes_next agrees with the parser on each (%u differ)",
	   n, bad);
	ok(options_takes_next("--key") && !options_takes_next("--key=k") &&
	   options_takes_next("-cl") && !options_takes_next("-l5") && !options_takes_next("-c") &&
	   !options_takes_next("x"), "--key, a cluster ending in -l; not --key=k, -l5, -c or a word");
}

int main(void)
{
	test_defaults();
	test_netperf_lines();
	test_iterations();
	test_interim();
	test_formats();
	test_refusals();
	test_remote_knobs();
	test_params_text_round_trip();
	test_takes_next();
	return tap_done();
}
