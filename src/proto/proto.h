/* SPDX-License-Identifier: GPL-2.0-or-later */
/* proto.h - control-connection framing between tunetop and tunetopd. */
#ifndef TT_PROTO_H
#define TT_PROTO_H

#include <jansson.h>
#include <stdint.h>

/*
 * A frame is an 8-byte header and a JSON object body (docs/protocol.md):
 *   magic "TT" (2 bytes), version (1), type (1), body length (4, big-endian)
 */
#define PROTO_MAGIC0 'T'
#define PROTO_MAGIC1 'T'
#define PROTO_VERSION 1
#define PROTO_HDR_LEN 8
#define PROTO_MAX_BODY (1u << 20)

enum msg_type {
	MSG_HELLO = 1,		/* client -> server: version, name */
	MSG_HELLO_OK = 2,	/* server -> client: name, host, ncpu */
	MSG_SETUP = 3,		/* client -> server: test parameters */
	MSG_READY = 4,		/* server -> client: data port */
	MSG_GO = 5,		/* client -> server: data connections made, start */
	MSG_SAMPLE = 6,		/* server -> client: one tick of the server end */
	MSG_STOP = 7,		/* client -> server: the client's side has ended */
	MSG_RESULT = 8,		/* server -> client: final figures of the server end */
	MSG_ERROR = 9,		/* either way: code and message, then close */
	MSG_BYE = 10,		/* client -> server: done with this session */
	MSG_KNOB_GET = 11,	/* client -> server: names, dev; no auth needed */
	MSG_KNOB_VALUES = 12,	/* server -> client: the values asked for */
	MSG_AUTH_BEGIN = 13,	/* client -> server: {} */
	MSG_AUTH_CHALLENGE = 14,	/* server -> client: random bytes, hex */
	MSG_AUTH_RESPONSE = 15,	/* client -> server: HMAC-SHA256(key, challenge), hex */
	MSG_AUTH_OK = 16,	/* server -> client: {} */
	MSG_KNOB_SET = 17,	/* client -> server: settings, dev; needs auth */
	MSG_KNOB_RESULT = 18,	/* server -> client: per setting before/after or error */
	MSG_TYPE_MAX = MSG_KNOB_RESULT
};

const char *proto_type_name(int type);

/*
 * Encode and send one frame on a connected stream socket (body may be NULL
 * for {}).  0 or -errno:
 * -EINVAL for an unknown type or a body that is not an object, -EMSGSIZE
 * for a body over PROTO_MAX_BODY, -EPIPE when the peer has closed (never
 * SIGPIPE), -ETIMEDOUT when the peer has not taken the whole frame within
 * the frame timeout.
 */
int proto_send(int fd, enum msg_type type, const json_t *body, char *err);
/*
 * The same, the body followed by spaces up to a whole frame of frame_len
 * bytes (0 or less than the frame: no padding).  tunetop pads its HELLO
 * to PROTO_HELLO_PAD so a netserver answers it (ns_hello() in
 * proto/netserver.c; docs/protocol.md, HELLO).
 */
int proto_send_padded(int fd, enum msg_type type, const json_t *body, size_t frame_len,
		      char *err);
#define PROTO_HELLO_PAD 656

/*
 * Receive one frame.  Waits up to timeout_ms for its first byte (-1 =
 * forever), then at most the frame timeout (PROTO_FRAME_TIMEOUT_MS) for the
 * rest.  Rejects a bad magic, an unknown type, a body over PROTO_MAX_BODY,
 * and a body that is not one JSON object.  On success *body is a new
 * reference.  Returns 0, -ETIMEDOUT, -EPIPE (peer closed before a frame,
 * or reset the connection), -EPROTO (malformed, or EOF mid-frame),
 * -EPROTONOSUPPORT (the peer speaks another protocol version), -EMSGSIZE,
 * or another -errno of poll/read.
 */
#define PROTO_FRAME_TIMEOUT_MS 5000
int proto_recv(int fd, enum msg_type *type, json_t **body, int timeout_ms, char *err);

/* Override the frame timeout of this process (tests); ms <= 0 restores it. */
void proto_set_frame_timeout(int ms);

/* Send MSG_ERROR {code, message}; best effort. */
void proto_send_error(int fd, const char *code, const char *message);

/*
 * The MSG_ERROR code that answers a failure rc of proto_recv or of a
 * msg_*_from_json: "version", "malformed", "invalid", "timeout", "busy" or
 * "internal"; NULL for -EPIPE (nobody left to tell).  ("auth", a refused
 * or failed knob-control authentication, and "aborted" are sent by name.)
 */
const char *proto_error_code(int rc);

/* A JSON string of s (null for NULL), bytes that are not valid UTF-8
 * replaced by '?': error texts may quote what a peer or a file held. */
json_t *json_string_lossy(const char *s);

#endif
