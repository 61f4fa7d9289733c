// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - tunetop's entry point: picks the subcommand. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ab-cmd.h"
#include "dashboard.h"
#include "knobs-cmd.h"
#include "lab-cmd.h"
#include "pcap-cmd.h"
#include "report.h"
#include "run.h"
#include "runs-cmd.h"
#include "sweep-cmd.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tunetop [run] [global options] -- [test options]\n"
		"\n"
		"Subcommands:\n"
		"  run      run one netperf-style test and print its results\n"
		"           (tunetop run -h lists the options)\n"
		"  lab      up|status|down: a private two-host network of namespaces\n"
		"  knobs    list|get|set|snapshot|diff|restore: sysctls, ethtool settings\n"
		"  pcap     segment-size histograms per direction of a pcap/pcapng file\n"
		"  runs     list|show|diff|export|rm|baseline|check: the run history\n"
		"  report   one self-contained HTML file with SVG plots of stored runs\n"
		"  sweep    size|burst|knob|send-size|preset: the seeds' sweeps, cliffs marked\n"
		"  ab       --a KNOBS --b KNOBS -n N: is the difference real? (interleaved runs)\n"
		"  restore  remove labs left behind by a tunetop that was killed and\n"
		"           put back knob values changed by tunetop knobs set\n"
		"\n"
		"With no subcommand tunetop opens the live dashboard and starts the\n"
		"default test (TCP_RR, 10 s; or the test `tunetop run`'s options name)\n"
		"against its embedded server: in a lab of its own when it may make one\n"
		"(CAP_NET_ADMIN), else over loopback.  tunetop --help-dashboard for its\n"
		"own options; ? inside it for the keys.\n"
		"  -V, --version   print the version\n"
		"  -h, --help      this help\n");
}

int main(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
			 !strcmp(argv[1], "help"))) {
		usage(stdout);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--help-dashboard")) {
		char *h[] = { argv[0], "--help", NULL };

		return dashboard_main(2, h);
	}
	if (argc > 1 && (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))) {
		printf("tunetop %s\n", PACKAGE_VERSION);
		return 0;
	}
	/* Reading a file needs nothing of the host. */
	if (argc > 1 && !strcmp(argv[1], "pcap"))
		return pcap_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "report"))
		return report_main(argc - 1, argv + 1);
	/* A lab left by a tunetop that was killed goes before anything else. */
	if (lab_privileged() && !(argc > 1 && !strcmp(argv[1], "restore")))
		lab_reap_report(stderr, "tunetop", false);
	if (argc > 1 && !strcmp(argv[1], "run"))
		return run_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "lab"))
		return lab_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "knobs"))
		return knobs_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "restore"))
		return restore_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "runs"))
		return runs_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "sweep"))
		return sweep_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "ab"))
		return ab_main(argc - 1, argv + 1);
	if (argc > 1 && argv[1][0] != '-' && strcmp(argv[1], "--")) {
		fprintf(stderr, "tunetop: unknown subcommand '%s'; accepted: run, lab, knobs, pcap, runs, report, sweep, ab, restore (see tunetop -h)\n",
			argv[1]);
		return 2;
	}
	/* No subcommand: the dashboard, with `tunetop run`'s options. */
	return dashboard_main(argc, argv);
}
