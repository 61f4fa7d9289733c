/* SPDX-License-Identifier: GPL-2.0-or-later */
/* target.h - where runs go: a lab of their own, a named lab, loopback, a tunetopd, a netserver. */
#ifndef TT_TARGET_H
#define TT_TARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "knobs/knobs.h"
#include "lab/lab.h"
#include "session/session.h"
#include "core/util.h"

/* What a front end was asked for (tunetop run's -H, --loopback, --lab, --mtu, --rate). */
struct target_opts {
	char host[256];			/* -H: a remote tunetopd; "" = the embedded server */
	char port[16];			/* its control port; "" = 12866 (netserver: 12865) */
	bool netserver;			/* --netserver: host runs netperf's netserver */
	bool loopback;			/* never a lab */
	char lab_name[64];		/* an existing lab; "" = none (lab_open checks it) */
	unsigned lab_mtu;		/* of the runs' own lab; 0 = 1500 */
	uint64_t lab_rate;		/* its tbf rate, bit/s; 0 = none */
	bool lab_opts_given;		/* lab_mtu or lab_rate asked for: a lab or an error */
	char key_file[4096];		/* --key: tunetopd's knob-control key; "" = none */
};

enum target_kind {
	TARGET_REMOTE,			/* a tunetopd at host */
	TARGET_NETSERVER,		/* netperf's netserver at host (docs/netserver.md) */
	TARGET_LOOPBACK,		/* the embedded server over loopback */
	TARGET_LAB,			/* the embedded server in a named lab */
	TARGET_OWN_LAB,			/* ... in a lab made for these runs */
};

/* An open target.  Keep it where target_open filled it: sessions point into it. */
struct target {
	enum target_kind kind;
	struct lab *lab;		/* TARGET_LAB, TARGET_OWN_LAB */
	char host[256], port[16];	/* TARGET_REMOTE, TARGET_NETSERVER */
	char why[ERR_MAX + 32];		/* why loopback: "asked for with --loopback" */
	char desc[160];			/* "lab: tunetop-123 (veth, MTU 1500, no rate limit)" */
	uint64_t tbf_bps;		/* a lab's tbf rate when opened; 0 none or not a lab */
	struct knobs_remote *knobs;	/* TARGET_REMOTE: the link its knobs change over */
};

/*
 * Choose and open the target: a tunetopd with a host; else loopback when
 * asked, a named lab, loopback without CAP_NET_ADMIN and CAP_SYS_ADMIN, or
 * a lab made here (loopback, with the reason, when that fails and no
 * --mtu/--rate asked for one).  0, or -errno with err.
 */
int target_open(struct target *t, const struct target_opts *o, char *err);
/* Close t: a lab made for it is destroyed, a named one only closed.  0 or -errno. */
int target_close(struct target *t, char *err);
/* Point so's host, port, lab and why at t (the test in so is left alone). */
void target_session_opts(const struct target *t, struct session_opts *so);
/*
 * Where a knob of the local or the remote end lives for a session's
 * target: the lab's side a or b, this host (lo for loopback, the default
 * route's device with a host), or with a tunetopd its host (KT_REMOTE:
 * the target's link, tunetopd's device towards us).
 */
void target_knob_target(const struct session_opts *so, bool remote, struct knob_target *kt);
/*
 * Why the knobs of one end (remote: the far one) cannot change for the
 * target o asks for, as one line ending with what is accepted, or NULL
 * when they can: a netserver has none; a tunetopd changes them only for
 * a client holding its key (--key FILE).  The CLI and the dashboard ask
 * here before a run, a sweep or an A/B changes anything.
 */
const char *target_knobs_refusal(const struct target_opts *o, bool remote);

/*
 * --reverse, seed 004's "backward direction" (netperf ran on the other
 * host, each host keeping its own settings), for a session's options
 * once the target is open.  In a lab the client moves to side b and the
 * server to side a (so->lab_reverse): the far end sends the requests
 * with the same -r, -s/-S, -T.  Against a tunetopd or on loopback the
 * client cannot move, so the ends trade their settings instead: -r
 * req,resp, -s/-S and -T.  Returns true when the lab turned around.
 * The one place the CLI's and the dashboard's sweeps decide it.
 */
bool target_reverse(struct session_opts *so);
/*
 * What target_reverse did to so, for a header: "the far end, lab side b,
 * sends the requests" or "no lab to turn around: the ends trade -r,
 * -s/-S, -T".
 */
const char *target_reverse_desc(const struct session_opts *so);

#endif
