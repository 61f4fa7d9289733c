// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-msg.c - the control-message reader: the input is what a peer sends
 * on the control connection; proto_recv() reads one frame of it, and the
 * body goes through every message decoder (a decoder must refuse any body
 * that is not its own, cleanly).
 */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/msg.h"
#include "proto/proto.h"
#include "fuzz.h"

/* A pipe holds this much without a reader: the whole input is written first. */
#define FUZZ_MSG_MAX 65536

static void decode_all(const json_t *b)
{
	struct msg_knob_values *kv = calloc(1, sizeof(*kv));
	struct msg_knob_result *kr = calloc(1, sizeof(*kr));
	struct msg_knob_set *ks = calloc(1, sizeof(*ks));
	struct msg_knob_get *kg = calloc(1, sizeof(*kg));
	struct end_sample s;
	struct end_result r;
	struct seg_capture c;
	struct test_params p;
	struct msg_hello h;
	struct msg_hello_ok ho;
	struct msg_ready rd;
	struct msg_stop st;
	struct msg_error e;
	struct msg_auth a;
	char err[ERR_MAX];

	msg_hello_from_json(b, &h, err);
	msg_hello_ok_from_json(b, &ho, err);
	params_from_json(b, &p, err);
	for (unsigned n = 1; n <= 3; n++)
		msg_ready_from_json(b, &rd, n, err);
	msg_stop_from_json(b, &st, err);
	msg_error_from_json(b, &e, err);
	msg_empty_from_json(b, "go", err);
	msg_auth_from_json(b, &a, true, err);
	msg_auth_from_json(b, &a, false, err);
	if (kv && kr && ks && kg) {
		msg_knob_get_from_json(b, kg, err);
		msg_knob_values_from_json(b, kv, err);
		msg_knob_set_from_json(b, ks, err);
		msg_knob_result_from_json(b, kr, err);
	}
	memset(&s, 0, sizeof(s));
	sample_from_json(b, &s, err);
	sample_free(&s);
	memset(&r, 0, sizeof(r));
	result_from_json(b, &r, err);
	result_free(&r);
	memset(&c, 0, sizeof(c));
	seg_capture_from_json(b, "capture", &c, err);
	seg_capture_free(&c);
	free(kv);
	free(kr);
	free(ks);
	free(kg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[ERR_MAX];
	enum msg_type type;
	json_t *body = NULL;
	int p[2];

	if (size > FUZZ_MSG_MAX || pipe2(p, O_CLOEXEC))
		return 0;
	if (write_full(p[1], data, size) == 0) {
		close(p[1]);
		p[1] = -1;
		/* Every frame in the input, as a session reads them. */
		while (proto_recv(p[0], &type, &body, 1000, err) == 0) {
			decode_all(body);
			json_decref(body);
		}
	}
	if (p[1] >= 0)
		close(p[1]);
	close(p[0]);
	return 0;
}
