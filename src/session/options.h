/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.h - netperf's command line of `tunetop run`, as every front end takes it. */
#ifndef TT_SESSION_OPTIONS_H
#define TT_SESSION_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "session/selector.h"
#include "session/session.h"
#include "session/target.h"
#include "stats/stats.h"

/* The help an option asked for; the front end prints it. */
enum options_help {
	OPTIONS_HELP_NONE,
	OPTIONS_HELP_USAGE,		/* -h, --help, -- -h: `tunetop run`'s usage */
	OPTIONS_HELP_SEL_NAMES,		/* -o ?: every selector name on one line */
	OPTIONS_HELP_SEL_DESC,		/* -o help: every selector with its description */
};

enum out_format {
	OUT_HUMAN,		/* netperf-like columns */
	OUT_CSV,		/* -o [sel,...] */
	OUT_KEYVAL,		/* -k [sel,...] */
	OUT_JSON,		/* --json: one document */
	OUT_JSON_STREAM,	/* --json-stream: a line per interval, then the result */
};

/*
 * so.host and so.port point into host_buf and port_buf (or are NULL): keep
 * the struct where options_parse filled it.
 */
struct run_opts {
	struct session_opts so;		/* host, port, test parameters */
	char host_buf[256], port_buf[16];
	char data_host[256];		/* -- -H: netperf's data host; the control host's */
	bool netserver;			/* --netserver: HOST runs netperf's netserver */
	bool local_cpu, remote_cpu;	/* -c, -C */
	double interim;			/* -D secs, 0 = no interim output */
	bool iterating;			/* -i or -I given */
	struct iterate it;
	enum out_format fmt;
	struct selector_list sel;	/* for -o/-k; with OUT_HUMAN, -O columns */
	bool headers;			/* -P 0/1: print banner and column titles */
	char units;			/* -f k|m|g|K|M|G (streams), x (RR); 0: the test's own */
	bool terse;			/* -v 0: the rate alone; false (-v 1, default): netperf's table */
	enum options_help help;		/* -h, -o help, -o ?: what help was asked for */
	bool loopback;			/* --loopback: never a lab */
	char lab_name[64];		/* --lab NAME: run in this existing lab */
	unsigned lab_mtu;		/* --mtu N of the run's own lab (0: 1500) */
	uint64_t lab_rate;		/* --rate R of the run's own lab, bit/s */
	bool lab_opts_given;		/* --mtu or --rate */
	unsigned nset;			/* --set [local:|remote:|both:]NAME=VALUE */
	char set[32][160];
	bool keep;			/* --keep: leave --set knobs changed */
	bool wait;			/* --wait: wait for a knob another run holds */
	char key_file[4096];		/* --key FILE: tunetopd's knob-control key */
	char capture_file[4096];	/* -w FILE; so.capture_file points here */
	char fill_file[4096];		/* -F FILE; so.fill_file points here */
	bool capture_given;		/* --capture[=MODE] or -w: the user chose */
	char db_path[4096];		/* --db PATH; "" = the default */
	bool no_db;			/* --no-db: do not store the run */
	bool netperf_mode;		/* --netperf (or run as `netperf`): stdout is netperf's alone */
	bool extras;			/* --extras: in netperf mode, tunetop's own lines on stderr */
	char bad_test[64];		/* -t's value when it named no test (netperf mode says so as netperf) */
};

/*
 * Parse `tunetop run [global options] -- [test options]` (argv[0] is
 * "run"; the dashboard takes the same).  Returns 0; 1 when help was asked
 * for (o->help says which; nothing else of o is meant); or -EINVAL with a
 * one-line "option -X VALUE: what was wrong; accepted: ..." message in err
 * (ERR_MAX bytes).
 */
int options_argv(int argc, char **argv, struct run_opts *o, char *err);

/* The target options of o (-H, -p, --key, --loopback, --lab, --mtu, --rate) for target_open. */
void options_target_opts(const struct run_opts *o, struct target_opts *t);

/* Why knobs of the remote end cannot change for o's target (the engine's
 * target_knobs_refusal: "with --netserver: ...", "with -H: ... --key
 * FILE ..."), or NULL when they can. */
const char *options_remote_knobs_refusal(const struct run_opts *o);

/*
 * Whether the word a, an option of `tunetop run` before `--`, takes the
 * next word as its value ("-l", "-cl", "--set", not "--set=X" or "-l5"):
 * for commands that pass run's options through (tunetop ab).
 */
bool options_takes_next(const char *a);

#endif
