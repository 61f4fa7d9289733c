/* SPDX-License-Identifier: GPL-2.0-or-later */
/* knobs-remote.h - the client of tunetopd's knob control: read, authenticate, set. */
#ifndef TT_KNOBS_REMOTE_H
#define TT_KNOBS_REMOTE_H

#include <stdint.h>

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

#endif
