/* SPDX-License-Identifier: GPL-2.0-or-later */
/* session.h - one run seen from the client: control, data flows, samples, results. */
#ifndef TT_SESSION_H
#define TT_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "knobs/knobs.h"
#include "lab/lab.h"
#include "core/params.h"
#include "sample/sample.h"
#include "session/why.h"
#include "core/util.h"

/*
 * What the runs of one command share about their far end (-H): whether it
 * turned out to be a netserver (tunetop's HELLO got netserver's answer,
 * docs/netserver.md), and, between the iterations of one run, netserver's
 * control connection and the data port it announced first, asked for again
 * as netperf's -i does.  The session takes the connection and gives it
 * back after a successful test; session_link_release() closes it.
 */
struct session_link {
	bool netserver;			/* found, or --netserver */
	int cfd;			/* netserver's control connection; -1 none */
	struct sockaddr_storage raddr;
	socklen_t raddrlen;
	uint16_t data_port;		/* netserver's first data port; 0 none yet */
};
void session_link_init(struct session_link *l);
/* Close the kept control connection and forget its data port (the end of a
 * run); what was found about the far end stays. */
void session_link_release(struct session_link *l);

struct session_opts {
	const char *host;		/* NULL: embedded server on loopback */
	const char *port;		/* control port, NULL = 12866 (12865 for netserver) */
	bool netserver;			/* host runs netperf's netserver, not tunetopd */
	int af_hint;			/* AF_INET/AF_INET6 from -4/-6, else 0 */
	struct lab *lab;		/* with no host: client in side a, server in b */
	bool lab_reverse;		/* the far end initiates: client in side b, server in a */
	const char *why;		/* why this target, for the output */
	struct test_params p;
	double connect_timeout;		/* seconds */
	const char *capture_file;	/* -w: the local capture also goes here */
	const char *fill_file;		/* -F: the local end's send buffers hold it */
	struct session_link *link;	/* shared by a command's runs, or NULL */
	struct knobs_remote *knobs;	/* with host: the link for its knobs (target.h) */
};

/*
 * The lab side the client (server false) or the server (true) of so runs
 * in: a and b, or b and a with so->lab_reverse.
 */
static inline enum lab_side target_lab_side(const struct session_opts *so, bool server)
{
	return server != so->lab_reverse ? LAB_B : LAB_A;
}

/* TCP segments per transaction of one end, from TCP_INFO; < 0 = n/a. */
struct segs_per_trans {
	double out, in;			/* every segment, pure ACKs too */
	double data_out, data_in;	/* data segments only (Linux 4.6+) */
};

/* Derived figures of a finished run. */
struct session_result {
	struct test_params p;
	char target[160];		/* what was tested and why */
	char target_short[96];		/* "lab:NAME", "loopback", "host:ADDR" or "netserver:ADDR" */
	/*
	 * The kernel's TCP metrics cache of each end: "flushed" (a lab's
	 * namespace, emptied before the run) or "kept (host)" (state tunetop
	 * does not change: earlier runs may influence this one); state_note
	 * says so in one line, or is "" when nothing is kept.
	 */
	const char *metrics_local, *metrics_remote;
	char state_note[160];
	char remote_addr[64];
	struct end_result local, remote;
	bool remote_final_only;		/* netserver: its end told only its final figures,
					 * not context switches, TCP_INFO, IRQs */
	double elapsed;
	double throughput;		/* trans/s (RR) or 10^6 bits/s (streams) */
	const char *units;		/* "Trans/s" or "10^6bits/s" */
	double local_sd, remote_sd;	/* us/Tran or us/KB; < 0 = n/a */
	const char *sd_units;		/* "us/Tran" or "us/KB" */
	/* RR: client (local) and server (remote) segments per transaction */
	struct segs_per_trans segs_local, segs_remote;
	unsigned local_ncpu, remote_ncpu;
	bool counts_agree;
	char counts[ERR_MAX];		/* what was compared, and how it came out */
	uint64_t udp_lost;		/* UDP: datagrams lost (sent - received) */
	/* Every catalog knob of both ends before the run; NULL = not read,
	 * and knobs_note says why. */
	struct catalog *catalog;
	struct knob_snapshot *knobs_local, *knobs_remote;
	char knobs_note[ERR_MAX];
	/* What limited the run, best first (why.h, docs/why.md). */
	struct why_report why;
};

enum session_event_kind { SESSION_EV_SAMPLE, SESSION_EV_END, SESSION_EV_NOTE };

/* A tick: the local sample and the newest remote one (has_remote); or a
 * line the front end shows the user (SESSION_EV_NOTE: "HOST:PORT is a
 * netserver: running as --netserver"). */
struct session_event {
	enum session_event_kind kind;
	struct end_sample local;
	struct end_sample remote;
	bool has_remote;
	/* Each end's knob figures the why rules read, from the snapshot
	 * before the run (-1 where not read), for the live verdicts. */
	struct why_knobs knobs_local, knobs_remote;
	char note[200];
	char target[160];		/* NOTE of a netserver found: the run's target now */
};

struct session;

int session_create(struct session **sp, const struct session_opts *o, char *err);
/* Connect, set up and start the test in a thread of its own. 0 or -errno. */
int session_start(struct session *s, char *err);
/* Readable (eventfd) when events are waiting. */
int session_event_fd(const struct session *s);
/* Take the next event: 0, or -EAGAIN when none is waiting. */
int session_next_event(struct session *s, struct session_event *ev);
void session_event_free(struct session_event *ev);
/* Ask the run to end now (the measured interval ends here).  Both are
 * async-signal-safe. */
void session_stop(struct session *s);
/* End the run at once, not waiting for in-flight work (a second Ctrl-C). */
void session_abort(struct session *s);
/* Wait for the run's end. 0 with r filled, or -errno with err saying which
 * end failed; r then holds what was measured so far. */
int session_wait(struct session *s, struct session_result *r, char *err);
void session_destroy(struct session *s);
void session_result_free(struct session_result *r);

/*
 * Segments per transaction of one end: its TCP_INFO segment deltas over
 * its own transaction count (RR tests); every field < 0 when n/a.
 */
void session_segs_per_trans(const struct end_result *e, bool rr,
			    struct segs_per_trans *out);

/* Service demand as netperf defines it: CPU time per unit of work. */
double service_demand(double util_pct, unsigned ncpu, double elapsed,
		      double units);

#endif
