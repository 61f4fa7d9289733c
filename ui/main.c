// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - tunetop's entry point, above the CLI and the dashboard: a
 * subcommand goes to the CLI (its table below), none to the dashboard
 * (the dashboard includes nothing of the CLI, the CLI nothing of ui/).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab-cmd.h"
#include "dashboard.h"
#include "engine.h"
#include "knobs-cmd.h"
#include "lab-cmd.h"
#include "options.h"
#include "pcap-cmd.h"
#include "report.h"
#include "run.h"
#include "runs-cmd.h"
#include "sweep-cmd.h"

/*
 * A subcommand: its name, the words it takes first (NULL none), what it
 * does, and its main (argv[0] is the name).  `tunetop -h` and the
 * unknown-subcommand error are made from this table, and
 * tests/integration/commands.sh holds tunetop(1)'s SYNOPSIS to it.
 */
struct cmd_entry {
	const char *name;
	const char *usage;
	const char *summary;		/* a '\n' continues it on an indented line */
	int (*main)(int argc, char **argv);
};

static const struct cmd_entry cmd_table[] = {
	{ "run", NULL, "run one netperf-style test and print its results\n"
		       "(tunetop run -h lists the options)", run_main },
	{ "lab", "up|status|down", "a private two-host network of namespaces", lab_main },
	{ "knobs", "list|get|set|snapshot|diff|restore", "sysctls, ethtool settings", knobs_main },
	{ "pcap", NULL, "segment-size histograms per direction of a pcap/pcapng file", pcap_main },
	{ "runs", "list|show|diff|export|rm|baseline|check", "the run history", runs_main },
	{ "report", NULL, "one self-contained HTML file with SVG plots of stored runs", report_main },
	{ "sweep", "size|burst|knob|send-size|preset", "the seeds' sweeps, cliffs marked", sweep_main },
	{ "ab", "--a KNOBS --b KNOBS -n N", "is the difference real? (interleaved runs)", ab_main },
	{ "restore", NULL, "remove labs left behind by a tunetop that was killed and\n"
			   "put back knob values changed by tunetop knobs set", restore_main },
};

#define CMD_COUNT (sizeof(cmd_table) / sizeof(cmd_table[0]))

/* The table's line of each subcommand, its summary's further lines indented. */
static void usage_commands(FILE *f)
{
	for (size_t i = 0; i < CMD_COUNT; i++) {
		const struct cmd_entry *e = &cmd_table[i];
		const char *s = e->summary, *nl;

		fprintf(f, "  %-8s %s%s", e->name, e->usage ? e->usage : "", e->usage ? ": " : "");
		while ((nl = strchr(s, '\n'))) {
			fprintf(f, "%.*s\n%11s", (int)(nl - s), s, "");
			s = nl + 1;
		}
		fprintf(f, "%s\n", s);
	}
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tunetop [run] [global options] -- [test options]\n"
		"\n"
		"Subcommands:\n");
	usage_commands(f);
	fprintf(f,
		"\n"
		"With no subcommand tunetop opens the live dashboard and starts the\n"
		"default test (TCP_RR, 10 s; or the test `tunetop run`'s options name)\n"
		"against its embedded server: in a lab of its own when it may make one\n"
		"(CAP_NET_ADMIN), else over loopback.  tunetop --help-dashboard for its\n"
		"own options; ? inside it for the keys.\n"
		"  -V, --version   print the version\n"
		"  -h, --help      this help\n");
}

/* The subcommand named name, or NULL. */
static const struct cmd_entry *cmd_find(const char *name)
{
	for (size_t i = 0; i < CMD_COUNT; i++)
		if (!strcmp(cmd_table[i].name, name))
			return &cmd_table[i];
	return NULL;
}

static const struct cmd_entry *cmd_find(const char *name);

/*
 * Run as `netperf` (a symlink in $(pkglibexecdir)/netperf-compat, or
 * any name ending in /netperf), or with no subcommand and --netperf
 * before `--`: `tunetop run --netperf ARGS`, whose stdout is netperf's
 * alone (docs/netperf.md).
 */
static bool netperf_mode(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');

	if (!strcmp(base ? base + 1 : argv[0], "netperf"))
		return true;
	if (argc > 1 && cmd_find(argv[1]))
		return false;
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--netperf"))
			return true;
	return false;
}

/* `tunetop run --netperf` with argv's options (its own --netperf kept). */
static int netperf_main(int argc, char **argv)
{
	char **v = calloc((size_t)argc + 2, sizeof(*v));
	int rc;

	if (!v) {
		fprintf(stderr, "netperf: out of memory\n");
		return 1;
	}
	v[0] = "run";
	v[1] = "--netperf";
	for (int i = 1; i < argc; i++)
		v[i + 1] = argv[i];
	rc = run_main(argc + 1, v);
	free(v);
	return rc;
}

int main(int argc, char **argv)
{
	const struct cmd_entry *cmd;
	enum options_help help;
	int rc;

	if (netperf_mode(argc, argv))
		return netperf_main(argc, argv);

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
			 !strcmp(argv[1], "help"))) {
		usage(stdout);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--help-dashboard")) {
		char *h[] = { argv[0], "--help", NULL };

		return dashboard_main(2, h, &help);
	}
	if (argc > 1 && (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))) {
		printf("tunetop %s\n", PACKAGE_VERSION);
		return 0;
	}
	/*
	 * Labs left by a tunetop that was killed go when the next lab is made
	 * (lab_make) or with `tunetop restore`, never at start-up: a command
	 * refused for bad input, or one that reads files, changes nothing.
	 */
	cmd = argc > 1 ? cmd_find(argv[1]) : NULL;
	if (cmd)
		return cmd->main(argc - 1, argv + 1);
	if (argc > 1 && argv[1][0] != '-' && strcmp(argv[1], "--")) {
		fprintf(stderr, "tunetop: unknown subcommand '%s'; accepted: ", argv[1]);
		for (size_t i = 0; i < CMD_COUNT; i++)
			fprintf(stderr, "%s%s", i ? ", " : "", cmd_table[i].name);
		fprintf(stderr, " (see tunetop -h)\n");
		return 2;
	}
	/* No subcommand: the dashboard, with `tunetop run`'s options; the
	 * help they ask for is `tunetop run`'s. */
	rc = dashboard_main(argc, argv, &help);
	if (help)
		options_help(stdout, help);
	return rc;
}
