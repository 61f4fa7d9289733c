/* SPDX-License-Identifier: GPL-2.0-or-later */
/* msg.h - JSON bodies of control messages, strictly validated both ways. */
#ifndef TT_MSG_H
#define TT_MSG_H

#include <jansson.h>
#include <stdint.h>

#include "knobs/knob.h"
#include "core/params.h"
#include "sample/sample.h"
#include "core/util.h"

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

/*
 * Members of result_to_json's end object that the engine reads back from a
 * stored result document (session/result-doc.h's accessors), named once
 * here for the writer and its readers.
 */
#define MSG_KEY_HOST			"host"
#define MSG_KEY_SEGS_OUT		"segs_out"
#define MSG_KEY_SOCKS			"socks"
#define MSG_KEY_TCP			"tcp"
#define MSG_KEY_BUSY_US			"busy_us"
#define MSG_KEY_RWND_LIMITED_US		"rwnd_limited_us"
#define MSG_KEY_SNDBUF_LIMITED_US	"sndbuf_limited_us"
#define MSG_KEY_CPU			"cpu"
#define MSG_KEY_CPU_TOTAL		"total"
#define MSG_KEY_SOFTIRQ			"softirq"

int result_from_json(const json_t *j, struct end_result *r, char *err);

/*
 * One end's capture (docs/protocol.md): at most MSG_CAPTURE_BINS sizes per
 * direction travel; beyond that the commonest are kept and the rest is
 * counted in lost_bins.  what names it in err ("sample.capture").
 */
#define MSG_CAPTURE_BINS 8192
json_t *seg_capture_to_json(const struct seg_capture *c);
int seg_capture_from_json(const json_t *j, const char *what, struct seg_capture *c,
			  char *err);

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

/*
 * Remote knobs (docs/protocol.md): KNOB_GET, KNOB_VALUES, AUTH_CHALLENGE,
 * AUTH_RESPONSE, KNOB_SET, KNOB_RESULT; AUTH_BEGIN and AUTH_OK are {}.
 * At most MSG_KNOBS_MAX names, values, settings or results in one body.
 * These structs are large: allocate them, do not put them on a stack.
 */
#define MSG_KNOBS_MAX 256
#define MSG_DEV_MAX 32			/* as struct knob_target.dev */
#define MSG_AUTH_BYTES 32		/* challenge and mac: 64 hex digits */

struct msg_knob_get {			/* client -> server */
	char dev[MSG_DEV_MAX];		/* "": the server's default-route device */
	unsigned n;			/* 0: every catalog knob */
	char names[MSG_KNOBS_MAX][KNOB_NAME_MAX];
};

struct msg_knob_value {
	char name[KNOB_NAME_MAX];
	bool present;			/* false: n/a, reason says why; text "" */
	char text[KNOB_TEXT_MAX];
	char reason[96];		/* as struct knob_value.reason; "" if present */
};

struct msg_knob_values {		/* server -> client */
	unsigned n;
	struct msg_knob_value v[MSG_KNOBS_MAX];
};

struct msg_knob_setting {
	char name[KNOB_NAME_MAX];
	char value[KNOB_TEXT_MAX];
};

struct msg_knob_set {			/* client -> server */
	char dev[MSG_DEV_MAX];
	unsigned n;			/* 1..MSG_KNOBS_MAX */
	struct msg_knob_setting s[MSG_KNOBS_MAX];
};

struct msg_knob_outcome {
	char name[KNOB_NAME_MAX];
	bool ok;
	char before[KNOB_TEXT_MAX];	/* "" when it could not be read */
	char after[KNOB_TEXT_MAX];	/* "" when not ok */
	char error[ERR_MAX];		/* "" when ok */
};

struct msg_knob_result {		/* server -> client */
	unsigned n;
	struct msg_knob_outcome r[MSG_KNOBS_MAX];
};

struct msg_auth {			/* AUTH_CHALLENGE {challenge}, AUTH_RESPONSE {mac} */
	uint8_t bytes[MSG_AUTH_BYTES];
};

json_t *msg_knob_get_to_json(const struct msg_knob_get *m);
int msg_knob_get_from_json(const json_t *j, struct msg_knob_get *m, char *err);
json_t *msg_knob_values_to_json(const struct msg_knob_values *m);
int msg_knob_values_from_json(const json_t *j, struct msg_knob_values *m, char *err);
json_t *msg_knob_set_to_json(const struct msg_knob_set *m);
int msg_knob_set_from_json(const json_t *j, struct msg_knob_set *m, char *err);
json_t *msg_knob_result_to_json(const struct msg_knob_result *m);
int msg_knob_result_from_json(const json_t *j, struct msg_knob_result *m, char *err);
/* challenge: AUTH_CHALLENGE {"challenge": hex}; else AUTH_RESPONSE {"mac": hex}. */
json_t *msg_auth_to_json(const struct msg_auth *m, bool challenge);
int msg_auth_from_json(const json_t *j, struct msg_auth *m, bool challenge, char *err);

#endif
