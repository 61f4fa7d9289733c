// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - tunetop's entry point: picks the subcommand. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "knobs-cmd.h"
#include "lab-cmd.h"
#include "pcap-cmd.h"
#include "run.h"

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
		"  restore  remove labs left behind by a tunetop that was killed and\n"
		"           put back knob values changed by tunetop knobs set\n"
		"\n"
		"With no subcommand tunetop runs the default test (TCP_RR, 10 s) live\n"
		"against its embedded server, one line per second: in a lab of its own\n"
		"when it may make one (CAP_NET_ADMIN), else over loopback.\n"
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
	if (argc > 1 && (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))) {
		printf("tunetop %s\n", PACKAGE_VERSION);
		return 0;
	}
	/* Reading a file needs nothing of the host. */
	if (argc > 1 && !strcmp(argv[1], "pcap"))
		return pcap_main(argc - 1, argv + 1);
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
	if (argc > 1 && argv[1][0] != '-') {
		fprintf(stderr, "tunetop: unknown subcommand '%s'; accepted: run, lab, knobs, pcap, restore (see tunetop -h)\n",
			argv[1]);
		return 2;
	}
	/* No subcommand: the live default run (the dashboard's place). */
	{
		char *def[] = { "run", "-D", "1", NULL };

		if (argc > 1) {
			fprintf(stderr, "tunetop: options go after a subcommand: tunetop run %s ...\n", argv[1]);
			return 2;
		}
		return run_main(3, def);
	}
}
