/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.h - netperf-style options of `tunetop run`. */
#ifndef TT_OPTIONS_H
#define TT_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "selectors.h"
#include "engine.h"

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
struct cli_opts {
	struct session_opts so;		/* host, port, test parameters */
	char host_buf[256], port_buf[16];
	bool netserver;			/* --netserver: HOST runs netperf's netserver */
	bool local_cpu, remote_cpu;	/* -c, -C */
	double interim;			/* -D secs, 0 = no interim output */
	bool iterating;			/* -i or -I given */
	struct iterate it;
	enum out_format fmt;
	struct selector_list sel;	/* for -o/-k; with OUT_HUMAN, -O columns */
	bool headers;			/* -P 0/1: print banner and column titles */
	bool help;			/* -h: usage was asked for */
	bool loopback;			/* --loopback: never a lab */
	char lab_name[64];		/* --lab NAME: run in this existing lab */
	unsigned lab_mtu;		/* --mtu N of the run's own lab (0: 1500) */
	uint64_t lab_rate;		/* --rate R of the run's own lab, bit/s */
	bool lab_opts_given;		/* --mtu or --rate */
	unsigned nset;			/* --set [local:|remote:]NAME=VALUE */
	char set[32][160];
	bool keep;			/* --keep: leave --set knobs changed */
	bool wait;			/* --wait: wait for a knob another run holds */
	char key_file[4096];		/* --key FILE: tunetopd's knob-control key */
	char capture_file[4096];	/* -w FILE; so.capture_file points here */
	bool capture_given;		/* --capture[=MODE] or -w: the user chose */
	char db_path[4096];		/* --db PATH; "" = the default */
	bool no_db;			/* --no-db: do not store the run */
};

/*
 * Parse `tunetop run [global options] -- [test options]` (argv[0] is "run").
 * Returns 0; 1 when help (-h, -o help) was printed to stdout; or 2 with a
 * one-line "option -X VALUE: what was wrong; accepted: ..." message in err
 * (ERR_MAX bytes).
 */
int options_parse(int argc, char **argv, struct cli_opts *o, char *err);

/* The same, printing help to out instead of stdout. */
int options_parse_to(int argc, char **argv, struct cli_opts *o, FILE *out,
		     char *err);

/* The target options of o (-H, -p, --key, --loopback, --lab, --mtu, --rate) for target_open. */
void options_target_opts(const struct cli_opts *o, struct target_opts *t);

/* Why knobs of the remote end cannot change for o's target (the engine's
 * target_knobs_refusal: "with --netserver: ...", "with -H: ... --key
 * FILE ..."), or NULL when they can. */
const char *options_remote_knobs_refusal(const struct cli_opts *o);

/*
 * Whether the word a, an option of `tunetop run` before `--`, takes the
 * next word as its value ("-l", "-cl", "--set", not "--set=X" or "-l5"):
 * for commands that pass run's options through (tunetop ab).
 */
bool options_takes_next(const char *a);

/* Print usage of `tunetop run` to f. */
void options_usage(FILE *f);

#endif
