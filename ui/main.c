// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - tunetop's entry point, above the CLI and the dashboard: a
 * subcommand goes to the CLI, none to the dashboard, given the CLI's
 * option parser and result document (the dashboard includes nothing of
 * the CLI, the CLI nothing of ui/).
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
#include "output.h"
#include "pcap-cmd.h"
#include "report.h"
#include "run.h"
#include "runs-cmd.h"
#include "sweep-cmd.h"

/* The options the dashboard started with: its runs' result documents follow them. */
static struct cli_opts dash_opts;

/* `tunetop run`'s options into what the dashboard takes (struct dash_front_ops). */
static int dash_parse(int argc, char **argv, bool test_only, struct dash_request *rq,
		      FILE *out, char *err)
{
	struct cli_opts *o = test_only ? calloc(1, sizeof(*o)) : &dash_opts;
	int rc;

	if (!o)
		return err_set(err, 2, "out of memory");
	rc = options_parse_to(argc, argv, o, out, err);
	if (rc == 0 && test_only && (o->so.host || o->lab_name[0] || o->loopback ||
				     o->lab_opts_given || o->nset || o->capture_file[0]))
		rc = err_set(err, 2, "the target, --set and -w are chosen when tunetop starts; "
			     "accepted here: the test and its options");
	if (rc == 0) {
		memset(rq, 0, sizeof(*rq));
		options_target_opts(o, &rq->target);
		rq->so = o->so;
		rq->so.host = rq->so.port = NULL;
		rq->so.lab = NULL;
		rq->so.why = NULL;
		rq->so.capture_file = NULL;
		snprintf(rq->db_path, sizeof(rq->db_path), "%s", o->db_path);
		rq->no_db = o->no_db;
		rq->local_cpu = o->local_cpu;
		rq->remote_cpu = o->remote_cpu;
		rq->capture_given = o->capture_given;
	}
	if (test_only)
		free(o);
	return rc;
}

/* A dashboard run's result document: one iteration, as tunetop run writes it. */
static json_t *dash_result_json(const struct session_result *res, bool failed, const char *why,
				bool lcpu, bool rcpu)
{
	static struct cli_opts o;
	struct run_summary sum;

	memset(&sum, 0, sizeof(sum));
	sum.res = *res;
	sum.iterations = 1;
	sum.mean_throughput = res->throughput;
	sum.mean_lcpu = res->local.cpu.total.busy;
	sum.mean_rcpu = res->remote.cpu.total.busy;
	sum.failed = failed;
	snprintf(sum.failure, sizeof(sum.failure), "%s", why ? why : "");
	o = dash_opts;
	o.local_cpu |= lcpu;
	o.remote_cpu |= rcpu;
	return output_result_json(&o, &sum);
}

/* A dashboard sweep's --columns, checked as tunetop sweep checks them. */
static int dash_columns_check(const char *list, enum test_type t, char *err)
{
	return sweep_columns_check(list, t, false, err);
}

static const struct dash_front_ops dash_front = {
	.parse = dash_parse,
	.result_json = dash_result_json,
	.columns_check = dash_columns_check,
};

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

		return dashboard_main(2, h, &dash_front);
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
	if (argc > 1 && !strcmp(argv[1], "pcap"))
		return pcap_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "report"))
		return report_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "runs"))
		return runs_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "run"))
		return run_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "lab"))
		return lab_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "knobs"))
		return knobs_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "restore"))
		return restore_main(argc - 1, argv + 1);
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
	return dashboard_main(argc, argv, &dash_front);
}
