/* SPDX-License-Identifier: GPL-2.0-or-later */
/* msg.h - JSON bodies of control messages, strictly validated both ways. */
#ifndef TT_MSG_H
#define TT_MSG_H

#include <jansson.h>
#include <stdint.h>

#include "params.h"
#include "sample.h"
#include "util.h"

/*
 * Every *_from_json rejects a missing member, a member of the wrong type or
 * out of range, and an unknown member, with "what: accepted" in err, and
 * returns -EPROTO (params_from_json: -EINVAL when the members are well
 * formed but params_validate refuses the test).  Every *_to_json returns a
 * new reference, or NULL when out of memory or when a value cannot be
 * carried (a NaN or infinite double, an integer above 2^63 - 1).
 * Decoders allocate socks and hist (free with sample_free/result_free); a
 * failed decode frees what it allocated and leaves them NULL.  The
 * layouts are in docs/protocol.md.
 */
json_t *params_to_json(const struct test_params *p);
int params_from_json(const json_t *j, struct test_params *p, char *err);

json_t *sample_to_json(const struct end_sample *s);
int sample_from_json(const json_t *j, struct end_sample *s, char *err);

json_t *result_to_json(const struct end_result *r);
int result_from_json(const json_t *j, struct end_result *r, char *err);

json_t *lat_to_json(const struct lat_summary *l);
json_t *cpu_to_json(const struct cpu_sample *c);
json_t *irq_to_json(const struct irq_sample *q);
json_t *counters_to_json(const struct flow_counters *c);
json_t *socks_to_json(const struct sock_sample *s, unsigned n);

/* The small bodies: HELLO, HELLO_OK, READY, STOP, ERROR; GO and BYE are {}. */
#define MSG_NAME_MAX 64

struct msg_hello {			/* client -> server */
	char name[MSG_NAME_MAX];	/* program, e.g. "tunetop" */
	char version[MSG_NAME_MAX];	/* its version, e.g. "0.1.0" */
};

struct msg_hello_ok {			/* server -> client */
	char name[MSG_NAME_MAX];	/* "tunetopd" */
	char version[MSG_NAME_MAX];
	char host[MSG_NAME_MAX];	/* the server's host name */
	unsigned ncpu;			/* online CPUs, 1..65535 */
};

struct msg_ready {			/* server -> client */
	unsigned nports;		/* 1 (TCP tests) or one per flow (UDP) */
	uint16_t ports[TT_MAX_FLOWS];	/* data ports, 1..65535 */
};

struct msg_stop {			/* client -> server */
	double elapsed;			/* the client's measured seconds */
	struct flow_counters total;	/* the client's counts */
};

struct msg_error {			/* either way */
	char code[16];			/* one of the codes in proto.h */
	char message[ERR_MAX];		/* longer texts are cut */
};

json_t *msg_hello_to_json(const struct msg_hello *m);
int msg_hello_from_json(const json_t *j, struct msg_hello *m, char *err);
json_t *msg_hello_ok_to_json(const struct msg_hello_ok *m);
int msg_hello_ok_from_json(const json_t *j, struct msg_hello_ok *m, char *err);
json_t *msg_ready_to_json(const struct msg_ready *m);
/* n: the number of ports expected (1, or the flows of a UDP test). */
int msg_ready_from_json(const json_t *j, struct msg_ready *m, unsigned n, char *err);
json_t *msg_stop_to_json(const struct msg_stop *m);
int msg_stop_from_json(const json_t *j, struct msg_stop *m, char *err);
/* (ERROR is sent with proto_send_error.) */
int msg_error_from_json(const json_t *j, struct msg_error *m, char *err);
/* GO and BYE: the body must be {}; what names the message in err. */
int msg_empty_from_json(const json_t *j, const char *what, char *err);

#endif
