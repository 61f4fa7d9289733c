/* SPDX-License-Identifier: GPL-2.0-or-later */
/* knobs-remote.h - the client of tunetopd's knob control: read, authenticate, set. */
#ifndef TT_KNOBS_REMOTE_H
#define TT_KNOBS_REMOTE_H

#include <stdint.h>

#include "knobs/knob.h"
#include "proto/auth.h"
#include "proto/msg.h"

/*
 * One control connection used for knobs (docs/protocol.md, "Remote
 * knobs").  Changes made through it last as long as it does: tunetopd
 * puts them back when it closes, however it closes.  Every call returns 0
 * or -errno with "what: why" in err; -EACCES is a refusal of tunetopd's
 * (ERROR "auth": knob control off, not authenticated, wrong key), after
 * which the connection is closed and only knobs_remote_close is useful.
 */
struct knobs_remote;

/* Connect to tunetopd at host (port NULL: the default) and say HELLO. */
int knobs_remote_open(struct knobs_remote **rp, const char *host, const char *port,
		      int timeout_ms, char *err);
/* The server's host name as HELLO_OK gave it. */
const char *knobs_remote_host(const struct knobs_remote *r);
/* KNOB_GET -> KNOB_VALUES. */
int knobs_remote_get(struct knobs_remote *r, const struct msg_knob_get *q,
		     struct msg_knob_values *a, char *err);
/* AUTH_BEGIN, AUTH_CHALLENGE, AUTH_RESPONSE -> AUTH_OK. */
int knobs_remote_auth(struct knobs_remote *r, const uint8_t key[AUTH_KEY_LEN], char *err);
/* KNOB_SET -> KNOB_RESULT (each setting's own outcome is in a). */
int knobs_remote_set(struct knobs_remote *r, const struct msg_knob_set *q,
		     struct msg_knob_result *a, char *err);
/* BYE and close (NULL is fine); the server then restores what was set. */
void knobs_remote_close(struct knobs_remote *r);

/*
 * A link to tunetopd at host for the knob transactions of runs, sweeps,
 * A/B and the dashboard (KT_REMOTE targets, src/knobs/txn.c): nothing is
 * connected until the first read or change, which connects; the first
 * change authenticates with key (NULL: none, and a change is refused with
 * how to get one).  While it has changed something a thread asks for one
 * value every KNOBS_REMOTE_PING_MS, so tunetopd's idle timeout (-t, at
 * least 1 s) does not end the connection, which would put the knobs back
 * in the middle of a sweep.  knobs_remote_close ends it; tunetopd then
 * puts back whatever is still changed, as it does when this process dies.
 */
#define KNOBS_REMOTE_PING_MS 400
int knobs_remote_link(struct knobs_remote **rp, const char *host, const char *port,
		      const uint8_t key[AUTH_KEY_LEN], int timeout_ms, char *err);
/* Read knob name over the link into v (n/a with tunetopd's reason). */
int knobs_remote_read(struct knobs_remote *r, const char *name, struct knob_value *v,
		      char *err);
/*
 * Set knob name to text over the link: its value before (may be NULL)
 * and after as tunetopd read them.  tunetopd's refusal ("held by ...",
 * out of range) is -EREMOTEIO with its words; no key is -EACCES.
 */
int knobs_remote_write(struct knobs_remote *r, const char *name, const char *text,
		       char *before, char *after, size_t len, char *err);
/* "tunetopd at HOST port PORT", for messages. */
const char *knobs_remote_where(const struct knobs_remote *r);

/* What a change of a remote knob needs and lacks with -H and no --key. */
#define KNOBS_REMOTE_NEEDS_KEY \
	"tunetopd changes knobs only for a client holding its key; accepted: --key FILE " \
	"(tunetopd --gen-key FILE writes one; tunetopd --knobs --key FILE uses it)"

#endif
