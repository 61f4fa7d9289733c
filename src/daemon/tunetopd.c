// SPDX-License-Identifier: GPL-2.0-or-later
/* tunetopd.c - the remote end: serves tunetop's tests, like netserver. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "proto/auth.h"
#include "knobs/catalog.h"
#include "knobs/journal.h"
#include "core/params.h"
#include "daemon/server.h"
#include "core/units.h"
#include "core/util.h"

static bool use_syslog;

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tunetopd [-L addr] [-p port] [-f] [-m max] [-t secs] [--per-peer N]\n"
		"                [--session-mem SIZE] [--mem SIZE] [--knobs --key FILE]\n"
		"  -L addr   listen on this address only (default: every address, IPv6 and IPv4)\n"
		"  -p port   control port (default %d)\n"
		"  -f        stay in the foreground and log to stderr\n"
		"  -m max    sessions served at once; more get \"busy\" (default 16)\n"
		"  -t secs   drop a control connection idle this long (default 30)\n"
		"  --per-peer N       sessions from one client address at once (default 8)\n"
		"  --session-mem SIZE memory one test may take here, e.g. 256M (default 256M)\n"
		"  --mem SIZE         memory all tests together may take (default 1G)\n"
		"  -h        this help;  -V  version\n"
		"  --gen-key FILE  write a new knob-control key to FILE (mode 0600) and exit\n"
		"  --knobs --key FILE\n"
		"            let clients holding the key in FILE (mode 0600) change catalog\n"
		"            knobs here; every change is logged, journaled in the host's\n"
		"            journal (/run/tunetop as root, or $TUNETOP_STATE_DIR) and undone\n"
		"            when its client disconnects.\n"
		"            Knob reads are answered to any client, with or without --knobs.\n",
		TT_DEFAULT_PORT);
}

/* A log line: stderr with a timestamp in the foreground, syslog otherwise. */
static void log_line_cb(const char *line, void *arg)
{
	char ts[UNITS_TIME_MAX];

	if (use_syslog) {
		syslog(LOG_INFO, "%s", line);
		return;
	}
	units_time_text(wall_time(), ts, sizeof(ts));
	fprintf(stderr, "%s tunetopd: %s\n", ts, line);
}

int main(int argc, char **argv)
{
	struct server_opts o = { .log_cb = log_line_cb };
	struct server *srv;
	struct catalog *cat = NULL;
	uint8_t key[AUTH_KEY_LEN];
	const char *key_path = NULL;
	char err[ERR_MAX];
	bool foreground = false, knobs = false;
	sigset_t set;
	uint64_t v;
	int c, sig;

	static const struct option longopts[] = {
		{ "gen-key", required_argument, NULL, 'G' },
		{ "knobs", no_argument, NULL, 'K' },
		{ "key", required_argument, NULL, 'k' },
		{ "per-peer", required_argument, NULL, 'P' },
		{ "session-mem", required_argument, NULL, 'S' },
		{ "mem", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":L:p:fm:t:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'L':
			o.listen_addr = optarg;
			break;
		case 'p':
			if (parse_uint(optarg, 0, 65535, &v)) {
				fprintf(stderr, "tunetopd: -p %s: accepted is a port number 0..65535\n", optarg);
				return 2;
			}
			o.port = optarg;
			break;
		case 'f':
			foreground = true;
			break;
		case 'm':
			if (parse_uint(optarg, 1, 4096, &v)) {
				fprintf(stderr, "tunetopd: -m %s: accepted is 1..4096 sessions\n", optarg);
				return 2;
			}
			o.max_sessions = (unsigned)v;
			break;
		case 't':
			if (parse_uint(optarg, 1, 86400, &v)) {
				fprintf(stderr, "tunetopd: -t %s: accepted is 1..86400 seconds\n", optarg);
				return 2;
			}
			o.idle_timeout = (unsigned)v;
			break;
		case 'P':
			if (parse_uint(optarg, 1, 4096, &v)) {
				fprintf(stderr, "tunetopd: --per-peer %s: accepted is 1..4096 sessions\n", optarg);
				return 2;
			}
			o.per_peer = (unsigned)v;
			break;
		case 'S':
		case 'M':
			if (parse_size(optarg, &v) || v < (1u << 20) || v > (1ull << 40)) {
				fprintf(stderr, "tunetopd: --%s %s: accepted is a size 1M..1024G (K, M, G: powers of 1024)\n",
					c == 'S' ? "session-mem" : "mem", optarg);
				return 2;
			}
			if (c == 'S')
				o.session_mem = v;
			else
				o.mem = v;
			break;
		case 'G':
			if (auth_init(err) || auth_key_generate(optarg, err)) {
				fprintf(stderr, "tunetopd: %s\n", err);
				return 1;
			}
			printf("tunetopd: wrote a new key to %s (mode 0600); give the same file to tunetop\n",
			       optarg);
			return 0;
		case 'K':
			knobs = true;
			break;
		case 'k':
			key_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("tunetopd %s\n", PACKAGE_VERSION);
			return 0;
		case ':':
			if (optopt == 'G' || optopt == 'k')
				fprintf(stderr, "tunetopd: --%s needs a FILE; see tunetopd -h\n",
					optopt == 'G' ? "gen-key" : "key");
			else if (optopt == 'P' || optopt == 'S' || optopt == 'M')
				fprintf(stderr, "tunetopd: --%s needs an argument; see tunetopd -h\n",
					optopt == 'P' ? "per-peer" : optopt == 'S' ? "session-mem" : "mem");
			else
				fprintf(stderr, "tunetopd: -%c needs an argument; see tunetopd -h\n", optopt);
			return 2;
		default:
			if (optopt)
				fprintf(stderr, "tunetopd: unknown option -%c; accepted are -L -p -f -m -t -h -V --per-peer --session-mem --mem --gen-key --knobs --key\n", optopt);
			else
				fprintf(stderr, "tunetopd: unknown option %s; accepted are -L -p -f -m -t -h -V --per-peer --session-mem --mem --gen-key --knobs --key\n",
					argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "tunetopd: unexpected argument '%s'; see tunetopd -h\n", argv[optind]);
		return 2;
	}
	if ((o.session_mem ? o.session_mem : SERVER_DEFAULT_SESSION_MEM) >
	    (o.mem ? o.mem : SERVER_DEFAULT_MEM)) {
		fprintf(stderr, "tunetopd: --session-mem %llu MiB is over --mem %llu MiB; accepted is a session budget within the daemon's\n",
			(unsigned long long)((o.session_mem ? o.session_mem : SERVER_DEFAULT_SESSION_MEM) >> 20),
			(unsigned long long)((o.mem ? o.mem : SERVER_DEFAULT_MEM) >> 20));
		return 2;
	}
	if (knobs != (key_path != NULL)) {
		fprintf(stderr, "tunetopd: %s: knob control needs both --knobs and --key FILE (tunetopd --gen-key FILE writes one)\n",
			knobs ? "--knobs without --key" : "--key without --knobs");
		return 2;
	}
	if (knobs) {
		char dir[4096];

		if (auth_init(err) || auth_key_load(key_path, key, err)) {
			fprintf(stderr, "tunetopd: %s\n", err);
			return 1;
		}
		/* Originals go to the host's journal, shared with every tunetop. */
		if (journal_dir(dir, sizeof(dir), err)) {
			fprintf(stderr, "tunetopd: --knobs: %s\n", err);
			return 1;
		}
		o.knob_control = true;
		o.key = key;
	}
	if (catalog_load(&cat, catalog_default_path(), err)) {
		if (knobs) {
			fprintf(stderr, "tunetopd: --knobs: %s\n", err);
			return 1;
		}
		fprintf(stderr, "tunetopd: knob reads are off: %s\n", err);
		cat = NULL;
	}
	o.catalog = cat;

	/* Signals are taken by sigwait() below, never by a handler. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (server_open(&srv, &o, err)) {
		fprintf(stderr, "tunetopd: %s\n", err);
		return 1;
	}
	if (!foreground) {
		if (daemon(0, 0) < 0) {
			fprintf(stderr, "tunetopd: daemon: %s\n", strerror(errno));
			return 1;
		}
		use_syslog = true;
		openlog("tunetopd", LOG_PID, LOG_DAEMON);
	}
	if (server_start_thread(srv, err)) {
		log_line_cb(err, NULL);
		return 1;
	}
	{
		char line[128];

		snprintf(line, sizeof(line), "listening on %s port %d", o.listen_addr ? o.listen_addr : "*",
			 server_port(srv));
		log_line_cb(line, NULL);
	}
	if (knobs) {
		struct journal_entry *je;
		char dir[4096], line[4300];
		unsigned n = 0;

		if (journal_dir(dir, sizeof(dir), err) == 0 && journal_load(dir, &je, &n, err) == 0)
			free(je);
		snprintf(line, sizeof(line), "knob control on, key %s, journal in %s", key_path, dir);
		log_line_cb(line, NULL);
		if (n) {
			snprintf(line, sizeof(line),
				 "warning: the journal holds %u original value%s; those no live tunetop holds go back with: TUNETOP_STATE_DIR=%s tunetop restore",
				 n, n == 1 ? "" : "s", dir);
			log_line_cb(line, NULL);
		}
	}
	sigwait(&set, &sig);
	{
		char line[64];

		snprintf(line, sizeof(line), "%s: shutting down", strsignal(sig));
		log_line_cb(line, NULL);
	}
	server_shutdown(srv);
	server_destroy(srv);
	catalog_free(cat);
	memset(key, 0, sizeof(key));
	return 0;
}
