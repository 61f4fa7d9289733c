// SPDX-License-Identifier: GPL-2.0-or-later
/* options.c - `tunetop run`'s options in the CLI: the engine's parse, its help printed. */
#include "config.h"

#include <errno.h>

#include "options.h"
#include "selectors.h"
#include "selectors-netperf.h"
#include "engine.h"

int options_parse_to(int argc, char **argv, struct run_opts *o, FILE *out,
		     char *err)
{
	int rc = options_argv(argc, argv, o, err);

	if (!out)
		out = stdout;
	if (rc < 0)
		return 2;
	if (rc == 1)
		options_help(out, o->help);
	return rc;
}

void options_help(FILE *f, enum options_help h)
{
	if (h == OPTIONS_HELP_USAGE)
		options_usage(f);
	else if (h == OPTIONS_HELP_SEL_NAMES)
		np_sel_list(f);
	else if (h == OPTIONS_HELP_SEL_DESC)
		selectors_help(f);
}

int options_parse(int argc, char **argv, struct run_opts *o, char *err)
{
	return options_parse_to(argc, argv, o, stdout, err);
}

void options_usage(FILE *f)
{
	fputs(
"usage: tunetop run [global options] [-- test options]\n"
"netperf's options; without -H the test runs against an embedded server.\n"
"\n"
"Global options:\n"
"  -t TYPE        TCP_RR (default), TCP_CRR, TCP_STREAM, TCP_MAERTS, UDP_RR,\n"
"                 UDP_STREAM (any case)\n"
"  -H HOST        the remote tunetopd (or a netserver: found by the first message)\n"
"  -p PORT        its control port (default 12866; 12865 with --netserver)\n"
"  --netserver    HOST runs netperf's netserver 2.7, not tunetopd: its end\n"
"                 reports only final figures (docs/netserver.md)\n"
"  -4, -6         use IPv4 / IPv6\n"
"  -l SECS        test length (default 10); a negative -l is not supported\n"
"  -T L,R         pin the local/remote workers to CPU L/R (N both, ,N remote, N, local)\n"
"  -c, -C         report local / remote CPU utilisation and service demand\n"
"  -D SECS        print an interim result every SECS seconds (e.g. 0.5)\n"
"  -i MAX,MIN     iterate MIN to MAX times (<= 30) for a confidence interval\n"
"  -I LEVEL,WIDTH confidence level 95 or 99 and interval width in percent (99,5)\n"
"  -P 0|1         print the banner and column titles (default 1)\n"
"  -v 0|1         0: the rate alone (netperf's terse form); 1: the table\n"
"  -f UNIT        k, m, g (10^3/6/9 bits/s), K, M, G (KBytes..GBytes/s);\n"
"                 x: Trans/s (RR's default)\n"
"  -F FILE        netperf's fill file: the send buffers hold its bytes\n"
"  --json         print the result as one JSON document\n"
"  --json-stream  print a JSON line per sample tick, then the result\n"
"  --sample-ms N  sampler tick, 10-10000 ms (default 100; -D sets it)\n"
"  --connect-timeout S  give up connecting to tunetopd after S seconds (5)\n"
"  --loopback     with no -H: test over loopback even when a lab is possible\n"
"  --lab NAME     with no -H: run in a lab made by `tunetop lab up`\n"
"  --mtu N        the MTU of the run's own lab (default 1500, up to 65535)\n"
"  --rate R       a tbf rate limit for the run's own lab (1gbit, 10gbit, none)\n"
"  --set [local:|remote:|both:]NAME=VALUE  change a knob for this run (lab\n"
"                 sides a/b, this host, or with -H --key tunetopd's host;\n"
"                 both: each end alike); put back when the run ends\n"
"  --keep         leave the --set knobs changed after the run\n"
"  --wait         wait for a knob another tunetop run holds instead of\n"
"                 refusing it (^C gives up)\n"
"  --key FILE     with -H: tunetopd's knob-control key (tunetopd --knobs\n"
"                 --key FILE), needed for remote: knobs; it changes them\n"
"                 on its host and puts them back when tunetop goes\n"
"  --capture[=on|auto|off]  count TCP segment sizes on both ends with\n"
"                 libpcap (needs CAP_NET_RAW); auto: where allowed\n"
"  -w FILE        write the local end's capture to FILE (pcap; implies\n"
"                 --capture)\n"
"  --db PATH      store the run in this history database (default\n"
"                 $TUNETOP_DB, else ~/.local/share/tunetop/runs.db)\n"
"  --no-db        do not store the run\n"
"  --netperf      netperf mode (as when run as `netperf`): stdout is netperf's\n"
"                 alone; no lab without -H (docs/netperf.md)\n"
"  --extras       with --netperf: tunetop's own lines on stderr\n"
"  -h             this help\n"
"\n"
"Test options (after --):\n"
"  -r REQ[,RESP]  request/response sizes (RR; -r 1 = 1,1; -r ,N = response only)\n"
"  -b N           requests in flight beyond the first (RR, 0-4096)\n"
"  -D             set TCP_NODELAY\n"
"  -m SIZE        send size (streams)\n"
"  -M SIZE        receive size (streams)\n"
"  -s SND[,RCV]   local socket buffers (one value sets both)\n"
"  -S SND[,RCV]   remote socket buffers\n"
"  -n N           parallel flows (1-1024)\n"
"  -e SECS        UDP_RR: a request unanswered SECS seconds is lost (500 ms)\n"
"  -o [SEL,...]   CSV of output selectors (-o help lists them)\n"
"  -O [SEL,...]   columns of output selectors\n"
"  -k [SEL,...]   NAME=value lines of output selectors\n"
"  -h             this help\n"
"Sizes take K/M/G (x1024) or k/m/g (x1000) suffixes.\n", f);
}
