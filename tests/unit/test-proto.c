// SPDX-License-Identifier: GPL-2.0-or-later
/* test-proto.c - control framing over socketpairs: round trips and every rejection. */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "proto/proto.h"
#include "tap.h"
#include "core/util.h"

static void pair(int sv[2])
{
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		perror("socketpair");
		exit(99);
	}
}

static void close_pair(int sv[2])
{
	if (sv[0] >= 0)
		close(sv[0]);
	if (sv[1] >= 0)
		close(sv[1]);
}

/* Write a header with the given fields, then len_sent bytes of body. */
static void raw_frame(int fd, int m0, int m1, int ver, int type, uint32_t len,
		      const char *body, size_t len_sent)
{
	unsigned char h[PROTO_HDR_LEN] = {
		(unsigned char)m0, (unsigned char)m1, (unsigned char)ver,
		(unsigned char)type, (unsigned char)(len >> 24),
		(unsigned char)(len >> 16), (unsigned char)(len >> 8),
		(unsigned char)len,
	};

	if (write_full(fd, h, sizeof(h)) || (len_sent && write_full(fd, body, len_sent))) {
		perror("write");
		exit(99);
	}
}

/* A well-formed frame of type with body text. */
static void raw_body(int fd, int type, const char *text, size_t len)
{
	raw_frame(fd, 'T', 'T', PROTO_VERSION, type, (uint32_t)len, text, len);
}

static double ms_since(uint64_t t0)
{
	return (double)(now_ns() - t0) / 1e6;
}

/* Receive on sv[1] what was written to sv[0]; returns the rc. */
static int recv_one(int fd, enum msg_type *type, json_t **body, char *err)
{
	return proto_recv(fd, type, body, 1000, err);
}

static void test_every_type_round_trips(void)
{
	char err[ERR_MAX];
	int sv[2];

	pair(sv);
	for (int t = MSG_HELLO; t <= MSG_TYPE_MAX; t++) {
		json_t *b = json_pack("{s:i,s:s,s:[f,b]}", "n", t, "s",
				      "gr\xc3\xbc\xc3\x9f \"q\"", "a", 1.5, 1);
		enum msg_type got = 0;
		json_t *rb = NULL;
		int rc = proto_send(sv[0], (enum msg_type)t, b, err);

		ok(rc == 0, "%s: proto_send returns 0 (%d)", proto_type_name(t), rc);
		rc = recv_one(sv[1], &got, &rb, err);
		ok(rc == 0 && got == (enum msg_type)t && json_equal(b, rb),
		   "%s: received with the same type and an equal body (rc %d)",
		   proto_type_name(t), rc);
		json_decref(b);
		json_decref(rb);
	}
	close_pair(sv);
}

static void test_null_body_is_sent_as_empty_object(void)
{
	enum msg_type t;
	json_t *b = NULL;
	char err[ERR_MAX];
	int sv[2], rc;

	pair(sv);
	rc = proto_send(sv[0], MSG_GO, NULL, err);
	ok(rc == 0, "proto_send with a NULL body returns 0");
	rc = recv_one(sv[1], &t, &b, err);
	ok(rc == 0 && t == MSG_GO && json_is_object(b) && json_object_size(b) == 0,
	   "a NULL body arrives as {}");
	json_decref(b);
	close_pair(sv);
}

static void test_header_is_magic_version_type_and_big_endian_length(void)
{
	unsigned char buf[64];
	json_t *b = json_pack("{s:i}", "a", 1);
	char err[ERR_MAX];
	int sv[2];

	pair(sv);
	proto_send(sv[0], MSG_READY, b, err);
	ok(read_full(sv[1], buf, 15) == 0, "15 bytes arrive for a 7-byte body");
	ok(buf[0] == 'T' && buf[1] == 'T' && buf[2] == 1 && buf[3] == MSG_READY &&
	   buf[4] == 0 && buf[5] == 0 && buf[6] == 0 && buf[7] == 7,
	   "header is 'T' 'T' 1 4 and length 7 big-endian");
	ok(!memcmp(buf + 8, "{\"a\":1}", 7), "body is compact JSON");
	json_decref(b);
	close_pair(sv);
}

/* The HELLO padded for netserver's sake: one frame of exactly 656 bytes,
 * spaces after the object, read back as the same HELLO; no padding when the
 * body is longer already. */
static void test_padded_frame_is_whole_and_round_trips(void)
{
	unsigned char buf[PROTO_HELLO_PAD];
	char name[701];
	json_t *b = json_pack("{s:s,s:s}", "name", "tunetop", "version", "0.1.0");
	json_t *big, *rb = NULL;
	enum msg_type t = 0;
	char err[ERR_MAX];
	size_t n;
	int sv[2];
	bool spaces = true;

	pair(sv);
	ok(proto_send_padded(sv[0], MSG_HELLO, b, PROTO_HELLO_PAD, err) == 0,
	   "proto_send_padded returns 0");
	ok(read_full(sv[1], buf, PROTO_HELLO_PAD) == 0, "656 bytes arrive");
	ok(buf[4] == 0 && buf[5] == 0 && buf[6] == 0x02 && buf[7] == 0x88,
	   "the length says a body of 648 bytes");
	for (n = PROTO_HDR_LEN; n < PROTO_HELLO_PAD && buf[n] != '}'; n++)
		;
	for (size_t i = n + 1; i < PROTO_HELLO_PAD; i++)
		spaces = spaces && buf[i] == ' ';
	ok(n < PROTO_HELLO_PAD && spaces, "spaces follow the object to the end of the frame");
	ok(recv(sv[1], buf, 1, MSG_DONTWAIT) < 0, "and nothing comes after the 656 bytes");
	close_pair(sv);

	pair(sv);
	proto_send_padded(sv[0], MSG_HELLO, b, PROTO_HELLO_PAD, err);
	ok(recv_one(sv[1], &t, &rb, err) == 0 && t == MSG_HELLO && json_equal(b, rb),
	   "the padded frame is received as the same HELLO");
	json_decref(rb);
	memset(name, 'x', 700);
	name[700] = '\0';
	big = json_pack("{s:s}", "name", name);
	ok(proto_send_padded(sv[0], MSG_HELLO, big, PROTO_HELLO_PAD, err) == 0 &&
	   read_full(sv[1], buf, PROTO_HDR_LEN) == 0 &&
	   ((size_t)buf[6] << 8 | buf[7]) == 700 + strlen("{\"name\":\"\"}"),
	   "a body longer than the pad goes as it is");
	json_decref(big);
	json_decref(b);
	close_pair(sv);
}

static void test_back_to_back_frames_are_read_one_at_a_time(void)
{
	static const char two[] =
		"TT\x01\x05\x00\x00\x00\x02{}" "TT\x01\x0a\x00\x00\x00\x08{\"x\":42}";
	enum msg_type t1 = 0, t2 = 0;
	json_t *b1 = NULL, *b2 = NULL;
	char err[ERR_MAX];
	int sv[2], rc1, rc2;

	pair(sv);
	write_full(sv[0], two, sizeof(two) - 1);
	rc1 = recv_one(sv[1], &t1, &b1, err);
	rc2 = recv_one(sv[1], &t2, &b2, err);
	ok(rc1 == 0 && t1 == MSG_GO && json_object_size(b1) == 0,
	   "first of two frames in one write is GO {}");
	ok(rc2 == 0 && t2 == MSG_BYE &&
	   json_integer_value(json_object_get(b2, "x")) == 42,
	   "second is BYE {\"x\":42}");
	json_decref(b1);
	json_decref(b2);
	close_pair(sv);
}

/* Send raw bytes, expect rc from proto_recv and needle in err. */
static void expect_reject(const char *what, int rc_want, const char *needle,
			  void (*writer)(int fd))
{
	enum msg_type t;
	json_t *b = (json_t *)1;
	char err[ERR_MAX] = "";
	int sv[2], rc;

	pair(sv);
	writer(sv[0]);
	rc = recv_one(sv[1], &t, &b, err);
	ok(rc == rc_want && b == NULL, "%s: returns %d (got %d: %s)", what,
	   rc_want, rc, err);
	ok(strstr(err, needle) != NULL, "%s: err says \"%s\" (%s)", what, needle,
	   err);
	close_pair(sv);
}

static void w_bad_magic(int fd) { raw_frame(fd, 'G', 'E', 'T', ' ', 2, "{}", 2); }
static void w_bad_version(int fd) { raw_frame(fd, 'T', 'T', 7, MSG_HELLO, 2, "{}", 2); }
static void w_type0(int fd) { raw_frame(fd, 'T', 'T', 1, 0, 2, "{}", 2); }
static void w_type19(int fd) { raw_frame(fd, 'T', 'T', 1, 19, 2, "{}", 2); }
static void w_type255(int fd) { raw_frame(fd, 'T', 'T', 1, 255, 2, "{}", 2); }
static void w_oversize(int fd) { raw_frame(fd, 'T', 'T', 1, MSG_SAMPLE, 2000000, NULL, 0); }
static void w_not_json(int fd) { raw_body(fd, MSG_SETUP, "hello", 5); }
static void w_array(int fd) { raw_body(fd, MSG_SETUP, "[1,2]", 5); }
static void w_scalar(int fd) { raw_body(fd, MSG_SETUP, "17", 2); }
static void w_trailing(int fd) { raw_body(fd, MSG_SETUP, "{\"a\":1}x", 8); }
static void w_two_objects(int fd) { raw_body(fd, MSG_SETUP, "{}{}", 4); }
static void w_dup_keys(int fd) { raw_body(fd, MSG_SETUP, "{\"a\":1,\"a\":2}", 13); }
static void w_empty(int fd) { raw_body(fd, MSG_GO, "", 0); }
static void w_bad_utf8(int fd) { raw_body(fd, MSG_SETUP, "{\"a\":\"\xff\"}", 8); }
static void w_nul(int fd) { raw_body(fd, MSG_SETUP, "{\"a\":\"\0\"}", 8); }

static void test_malformed_frames_are_rejected(void)
{
	expect_reject("bad magic", -EPROTO,
		      "control frame: bad magic 0x4745 (not a tunetop peer?)",
		      w_bad_magic);
	expect_reject("version 7", -EPROTONOSUPPORT,
		      "control frame: version 7, accepted is 1", w_bad_version);
	expect_reject("type 0", -EPROTO, "unknown type 0", w_type0);
	expect_reject("type 19", -EPROTO, "unknown type 19", w_type19);
	expect_reject("type 255", -EPROTO, "unknown type 255", w_type255);
	expect_reject("oversize length, no body sent", -EMSGSIZE,
		      "control frame: body of 2000000 bytes exceeds 1048576",
		      w_oversize);
	expect_reject("body not JSON", -EPROTO, "not JSON", w_not_json);
	expect_reject("JSON array", -EPROTO, "not a JSON object", w_array);
	expect_reject("JSON scalar", -EPROTO, "SETUP body", w_scalar);
	expect_reject("trailing garbage", -EPROTO, "not JSON", w_trailing);
	expect_reject("two objects", -EPROTO, "not JSON", w_two_objects);
	expect_reject("duplicate member", -EPROTO, "duplicate", w_dup_keys);
	expect_reject("empty body", -EPROTO, "GO body is not JSON", w_empty);
	expect_reject("invalid UTF-8", -EPROTO, "not JSON", w_bad_utf8);
	expect_reject("NUL in a string", -EPROTO, "not JSON", w_nul);
}

static void test_oversize_length_fails_without_waiting_for_a_body(void)
{
	enum msg_type t;
	json_t *b;
	char err[ERR_MAX];
	uint64_t t0;
	int sv[2], rc;

	pair(sv);
	w_oversize(sv[0]);
	t0 = now_ns();
	rc = proto_recv(sv[1], &t, &b, 1000, err);
	ok(rc == -EMSGSIZE && ms_since(t0) < 500,
	   "an oversize length is refused at once (%.0f ms)", ms_since(t0));
	close_pair(sv);
}

struct writer_arg {
	int fd;
	const char *buf;
	size_t len;
	int rc;
};

static void *writer_thread(void *p)
{
	struct writer_arg *a = p;

	a->rc = write_full(a->fd, a->buf, a->len);
	return NULL;
}

/* A body of exactly n bytes: {"s":"xxx...x"}. */
static char *body_of(size_t n)
{
	char *s = malloc(n + 1);

	memcpy(s, "{\"s\":\"", 6);
	memset(s + 6, 'x', n - 8);
	memcpy(s + n - 2, "\"}", 3);
	return s;
}

static void test_body_of_exactly_the_limit_is_accepted(void)
{
	char *text = body_of(PROTO_MAX_BODY), *frame;
	struct writer_arg a;
	enum msg_type t;
	pthread_t th;
	json_t *b = NULL;
	char err[ERR_MAX];
	int sv[2], rc;

	frame = malloc(PROTO_HDR_LEN + PROTO_MAX_BODY);
	memcpy(frame, "TT\x01\x06\x00\x10\x00\x00", PROTO_HDR_LEN);
	memcpy(frame + PROTO_HDR_LEN, text, PROTO_MAX_BODY);
	pair(sv);
	a = (struct writer_arg){ sv[0], frame, PROTO_HDR_LEN + PROTO_MAX_BODY, 0 };
	pthread_create(&th, NULL, writer_thread, &a);
	rc = proto_recv(sv[1], &t, &b, 2000, err);
	pthread_join(th, NULL);
	ok(rc == 0 && t == MSG_SAMPLE &&
	   json_string_length(json_object_get(b, "s")) == PROTO_MAX_BODY - 8,
	   "a body of exactly %u bytes is accepted (rc %d)", PROTO_MAX_BODY, rc);
	json_decref(b);
	close_pair(sv);
	free(frame);
	free(text);
}

static void test_truncated_frames_then_close_are_protocol_errors(void)
{
	enum msg_type t;
	json_t *b;
	char err[ERR_MAX];
	int sv[2], rc;

	pair(sv);
	raw_frame(sv[0], 'T', 'T', 1, MSG_SETUP, 10, "{\"a\"", 4);
	close(sv[0]);
	sv[0] = -1;
	rc = recv_one(sv[1], &t, &b, err);
	ok(rc == -EPROTO, "truncated body then close returns -EPROTO (%d)", rc);
	ok(strstr(err, "closed after 4 of 10 body bytes") != NULL,
	   "err says how much of the body came (%s)", err);
	close_pair(sv);

	pair(sv);
	write_full(sv[0], "TT\x01", 3);
	close(sv[0]);
	sv[0] = -1;
	rc = recv_one(sv[1], &t, &b, err);
	ok(rc == -EPROTO && strstr(err, "closed after 3 of 8 header bytes"),
	   "truncated header then close returns -EPROTO (%d: %s)", rc, err);
	close_pair(sv);
}

static void test_clean_eof_before_a_frame_is_epipe(void)
{
	enum msg_type t;
	json_t *b;
	char err[ERR_MAX];
	int sv[2], rc;

	pair(sv);
	close(sv[0]);
	sv[0] = -1;
	rc = recv_one(sv[1], &t, &b, err);
	ok(rc == -EPIPE, "EOF before a frame returns -EPIPE (%d: %s)", rc, err);
	close_pair(sv);
}

static void test_silence_times_out(void)
{
	enum msg_type t;
	json_t *b;
	char err[ERR_MAX];
	uint64_t t0;
	double ms;
	int sv[2], rc;

	pair(sv);
	t0 = now_ns();
	rc = proto_recv(sv[1], &t, &b, 50, err);
	ms = ms_since(t0);
	ok(rc == -ETIMEDOUT && ms >= 49 && ms < 1000,
	   "nothing within 50 ms returns -ETIMEDOUT after %.0f ms", ms);
	ok(strstr(err, "no frame within 50 ms") != NULL, "err: %s", err);
	close_pair(sv);
}

static void test_half_frame_then_silence_times_out(void)
{
	enum msg_type t;
	json_t *b;
	char err[ERR_MAX];
	uint64_t t0;
	double ms;
	int sv[2], rc;

	proto_set_frame_timeout(100);
	pair(sv);
	write_full(sv[0], "TT\x01\x03", 4);
	t0 = now_ns();
	rc = proto_recv(sv[1], &t, &b, -1, err);
	ms = ms_since(t0);
	ok(rc == -ETIMEDOUT && ms >= 99 && ms < 2000,
	   "half a header then silence times out after the frame timeout (%.0f ms, rc %d)",
	   ms, rc);
	ok(strstr(err, "only 4 of 8 header bytes within 100 ms") != NULL,
	   "err: %s", err);
	close_pair(sv);

	pair(sv);
	raw_frame(sv[0], 'T', 'T', 1, MSG_SETUP, 100, "{\"a\":", 5);
	t0 = now_ns();
	rc = proto_recv(sv[1], &t, &b, -1, err);
	ms = ms_since(t0);
	ok(rc == -ETIMEDOUT && ms >= 99 && ms < 2000,
	   "half a body then silence times out (%.0f ms, rc %d)", ms, rc);
	ok(strstr(err, "only 5 of 100 body bytes") != NULL, "err: %s", err);
	close_pair(sv);
	proto_set_frame_timeout(0);
}

static void test_send_to_closed_peer_is_epipe_not_sigpipe(void)
{
	json_t *b = json_pack("{s:s}", "a", "b");
	char err[ERR_MAX];
	int sv[2], rc;

	signal(SIGPIPE, SIG_DFL);
	pair(sv);
	close(sv[1]);
	sv[1] = -1;
	rc = proto_send(sv[0], MSG_HELLO, b, err);
	ok(rc == -EPIPE, "proto_send to a closed peer returns -EPIPE and we live (%d: %s)",
	   rc, err);
	json_decref(b);
	close_pair(sv);
}

static void test_send_refuses_bad_arguments(void)
{
	char *text = body_of(PROTO_MAX_BODY + 1);
	json_t *big = json_loads(text, 0, NULL), *arr = json_array();
	struct pollfd pfd;
	char err[ERR_MAX];
	int sv[2], rc;

	pair(sv);
	rc = proto_send(sv[0], MSG_SAMPLE, big, err);
	ok(rc == -EMSGSIZE, "a body that encodes to over the limit is refused (%d: %s)",
	   rc, err);
	pfd = (struct pollfd){ .fd = sv[1], .events = POLLIN };
	ok(poll(&pfd, 1, 0) == 0, "and nothing was sent");
	ok(proto_send(sv[0], MSG_SETUP, arr, err) == -EINVAL,
	   "a body that is not an object is refused");
	ok(proto_send(sv[0], 0, NULL, err) == -EINVAL &&
	   proto_send(sv[0], 19, NULL, err) == -EINVAL,
	   "types 0 and 19 are refused");
	json_decref(big);
	json_decref(arr);
	free(text);
	close_pair(sv);
}

struct reader_arg {
	int fd;
	int rc;
	enum msg_type type;
	json_t *body;
	char err[ERR_MAX];
};

static void *reader_thread(void *p)
{
	struct reader_arg *a = p;

	a->rc = proto_recv(a->fd, &a->type, &a->body, 2000, a->err);
	return NULL;
}

static void test_large_body_survives_partial_writes(void)
{
	char *text = body_of(900000);
	struct reader_arg a = { .rc = 1 };
	json_t *b = json_loads(text, 0, NULL);
	char err[ERR_MAX];
	pthread_t th;
	int sv[2], rc;

	pair(sv);
	a.fd = sv[1];
	pthread_create(&th, NULL, reader_thread, &a);
	rc = proto_send(sv[0], MSG_RESULT, b, err);
	pthread_join(th, NULL);
	ok(rc == 0 && a.rc == 0 && a.type == MSG_RESULT && json_equal(a.body, b),
	   "a 900 kB body arrives whole (send %d, recv %d)", rc, a.rc);
	json_decref(a.body);
	json_decref(b);
	free(text);
	close_pair(sv);
}

static void test_send_to_a_peer_that_does_not_read_times_out(void)
{
	char *text = body_of(PROTO_MAX_BODY);
	json_t *b = json_loads(text, 0, NULL);
	char err[ERR_MAX];
	uint64_t t0;
	double ms;
	int sv[2], rc;

	proto_set_frame_timeout(100);
	pair(sv);
	t0 = now_ns();
	rc = proto_send(sv[0], MSG_RESULT, b, err);
	ms = ms_since(t0);
	ok(rc == -ETIMEDOUT && ms >= 99 && ms < 2000,
	   "a peer that takes nothing gives -ETIMEDOUT after %.0f ms (%d: %s)",
	   ms, rc, err);
	proto_set_frame_timeout(0);
	json_decref(b);
	free(text);
	close_pair(sv);
}

/*
 * A send that times out with part of its frame out (a tunetopd SAMPLE of
 * 1024 flows to a client too busy to read) ends the sending: the next
 * frame would be read as the rest of the cut one ("SAMPLE body is not
 * JSON ... near 'TT'").  The reader gets the cut frame and EOF.
 */
static void test_no_frame_follows_a_cut_one(void)
{
	char *text = body_of(PROTO_MAX_BODY);
	json_t *b = json_loads(text, 0, NULL), *small = json_pack("{s:i}", "seq", 2);
	struct reader_arg a = { .rc = 1 };
	char err[ERR_MAX], err2[ERR_MAX] = "";
	pthread_t th;
	int sv[2], rc, rc2;

	proto_set_frame_timeout(100);
	pair(sv);
	rc = proto_send(sv[0], MSG_SAMPLE, b, err);
	ok(rc == -ETIMEDOUT && strstr(err, "cut short"),
	   "a frame cut by the timeout says so (%d: %s)", rc, err);
	a.fd = sv[1];
	pthread_create(&th, NULL, reader_thread, &a);
	rc2 = proto_send(sv[0], MSG_SAMPLE, small, err2);
	pthread_join(th, NULL);
	ok(rc2 == -EPIPE, "no frame is sent after it (%d: %s)", rc2, err2);
	ok(a.rc == -EPROTO && strstr(a.err, "closed after"),
	   "the reader sees the frame cut by EOF, not a next frame inside it (%d: %s)",
	   a.rc, a.err);
	proto_set_frame_timeout(0);
	json_decref(a.body);
	json_decref(small);
	json_decref(b);
	free(text);
	close_pair(sv);
}

static void test_send_error_arrives_as_error_frame(void)
{
	enum msg_type t = 0;
	json_t *b = NULL;
	char err[ERR_MAX];
	int sv[2], rc;

	pair(sv);
	proto_send_error(sv[0], "busy", "server: 16 sessions running");
	rc = recv_one(sv[1], &t, &b, err);
	ok(rc == 0 && t == MSG_ERROR &&
	   !strcmp(json_string_value(json_object_get(b, "code")), "busy") &&
	   !strcmp(json_string_value(json_object_get(b, "message")),
		   "server: 16 sessions running"),
	   "proto_send_error sends ERROR {code, message}");
	json_decref(b);

	proto_send_error(sv[0], "malformed", "peer sent \xff\xfe");
	rc = recv_one(sv[1], &t, &b, err);
	ok(rc == 0 && t == MSG_ERROR &&
	   !strcmp(json_string_value(json_object_get(b, "message")),
		   "peer sent ??"),
	   "bytes that are not UTF-8 are sent as '?'");
	json_decref(b);
	close_pair(sv);
}

static void test_reset_connection_is_epipe(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	socklen_t sl = sizeof(sa);
	int l, c, s, rc;
	enum msg_type t;
	json_t *b;
	char err[ERR_MAX];

	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&sa, sizeof(sa)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&sa, &sl)) {
		ok(0, "loopback listener: %s", strerror(errno));
		return;
	}
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (connect(c, (struct sockaddr *)&sa, sizeof(sa))) {
		ok(0, "connect: %s", strerror(errno));
		return;
	}
	s = accept(l, NULL, NULL);
	setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	write_full(c, "TT\x01", 3);
	close(c);
	rc = proto_recv(s, &t, &b, 1000, err);
	ok(rc == -EPIPE && strstr(err, "reset"),
	   "a reset mid-frame returns -EPIPE (%d: %s)", rc, err);
	close(s);
	close(l);
}

static void test_names_and_error_codes(void)
{
	ok(!strcmp(proto_type_name(MSG_HELLO), "HELLO") &&
	   !strcmp(proto_type_name(MSG_HELLO_OK), "HELLO_OK") &&
	   !strcmp(proto_type_name(MSG_BYE), "BYE") &&
	   !strcmp(proto_type_name(MSG_KNOB_GET), "KNOB_GET") &&
	   !strcmp(proto_type_name(MSG_AUTH_CHALLENGE), "AUTH_CHALLENGE") &&
	   !strcmp(proto_type_name(MSG_KNOB_RESULT), "KNOB_RESULT"),
	   "type names are the enum's");
	ok(!strcmp(proto_type_name(0), "?") && !strcmp(proto_type_name(19), "?") &&
	   !strcmp(proto_type_name(-1), "?"),
	   "unknown types are named ?");
	ok(!strcmp(proto_error_code(-EPROTONOSUPPORT), "version") &&
	   !strcmp(proto_error_code(-EPROTO), "malformed") &&
	   !strcmp(proto_error_code(-EMSGSIZE), "malformed") &&
	   !strcmp(proto_error_code(-EINVAL), "invalid") &&
	   !strcmp(proto_error_code(-ETIMEDOUT), "timeout") &&
	   !strcmp(proto_error_code(-EBUSY), "busy") &&
	   !strcmp(proto_error_code(-ENOMEM), "internal") &&
	   proto_error_code(-EPIPE) == NULL,
	   "failures map to the documented error codes");
}

int main(void)
{
	test_every_type_round_trips();
	test_null_body_is_sent_as_empty_object();
	test_header_is_magic_version_type_and_big_endian_length();
	test_back_to_back_frames_are_read_one_at_a_time();
	test_padded_frame_is_whole_and_round_trips();
	test_malformed_frames_are_rejected();
	test_oversize_length_fails_without_waiting_for_a_body();
	test_body_of_exactly_the_limit_is_accepted();
	test_truncated_frames_then_close_are_protocol_errors();
	test_clean_eof_before_a_frame_is_epipe();
	test_silence_times_out();
	test_half_frame_then_silence_times_out();
	test_send_to_closed_peer_is_epipe_not_sigpipe();
	test_send_refuses_bad_arguments();
	test_large_body_survives_partial_writes();
	test_send_to_a_peer_that_does_not_read_times_out();
	test_no_frame_follows_a_cut_one();
	test_send_error_arrives_as_error_frame();
	test_reset_connection_is_epipe();
	test_names_and_error_codes();
	return tap_done();
}
