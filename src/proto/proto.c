// SPDX-License-Identifier: GPL-2.0-or-later
/* proto.c - control-connection framing: 8-byte header, one JSON object body. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "proto/proto.h"
#include "core/util.h"

static int frame_timeout_ms = PROTO_FRAME_TIMEOUT_MS;

static const char *const type_names[MSG_TYPE_MAX + 1] = {
	[MSG_HELLO] = "HELLO",
	[MSG_HELLO_OK] = "HELLO_OK",
	[MSG_SETUP] = "SETUP",
	[MSG_READY] = "READY",
	[MSG_GO] = "GO",
	[MSG_SAMPLE] = "SAMPLE",
	[MSG_STOP] = "STOP",
	[MSG_RESULT] = "RESULT",
	[MSG_ERROR] = "ERROR",
	[MSG_BYE] = "BYE",
	[MSG_KNOB_GET] = "KNOB_GET",
	[MSG_KNOB_VALUES] = "KNOB_VALUES",
	[MSG_AUTH_BEGIN] = "AUTH_BEGIN",
	[MSG_AUTH_CHALLENGE] = "AUTH_CHALLENGE",
	[MSG_AUTH_RESPONSE] = "AUTH_RESPONSE",
	[MSG_AUTH_OK] = "AUTH_OK",
	[MSG_KNOB_SET] = "KNOB_SET",
	[MSG_KNOB_RESULT] = "KNOB_RESULT",
};

const char *proto_type_name(int type)
{
	if (type < MSG_HELLO || type > MSG_TYPE_MAX)
		return "?";
	return type_names[type];
}

void proto_set_frame_timeout(int ms)
{
	__atomic_store_n(&frame_timeout_ms, ms > 0 ? ms : PROTO_FRAME_TIMEOUT_MS,
			 __ATOMIC_RELAXED);
}

static int frame_timeout(void)
{
	return __atomic_load_n(&frame_timeout_ms, __ATOMIC_RELAXED);
}

/* Milliseconds left until deadline (ns), rounded up; 0 once it has passed. */
static int ms_left(uint64_t deadline)
{
	uint64_t now = now_ns();

	if (now >= deadline)
		return 0;
	return (int)((deadline - now + 999999) / 1000000);
}

/*
 * Wait until fd is ready for events or deadline passes (deadline 0 =
 * forever).  0 when ready (or hung up: the next read/send says how),
 * -ETIMEDOUT, or -errno of poll.
 */
static int wait_fd(int fd, short events, uint64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	/* Poll at least once, so a deadline already past still sees what
	 * is waiting (a timeout of 0 means "only what is here now"). */
	for (;;) {
		int ms = deadline ? ms_left(deadline) : -1;
		int n = poll(&pfd, 1, ms);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n > 0) {
			if (pfd.revents & POLLNVAL)
				return -EBADF;
			return 0;
		}
		if (deadline && !ms_left(deadline))
			return -ETIMEDOUT;
	}
}

/*
 * Read len bytes by deadline, never blocking past it.  *got counts what
 * arrived.  0, -ETIMEDOUT, -EPIPE on EOF, -ECONNRESET or another -errno.
 */
static int read_by(int fd, void *buf, size_t len, uint64_t deadline,
		   size_t *got)
{
	char *p = buf;

	*got = 0;
	while (*got < len) {
		int rc = wait_fd(fd, POLLIN, deadline);
		ssize_t n;

		if (rc)
			return rc;
		n = read(fd, p + *got, len - *got);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN ||
			    errno == EWOULDBLOCK)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EPIPE;
		*got += (size_t)n;
	}
	return 0;
}

/* Turn a failed read of part ("header"/"body") of a frame into rc and err. */
static int read_failed(int rc, const char *part, size_t got, size_t len,
		       char *err)
{
	if (rc == -ECONNRESET)
		return err_set(err, -EPIPE, "control connection: reset by peer");
	if (rc == -EPIPE)
		return err_set(err, -EPROTO,
			       "control frame: connection closed after %zu of %zu %s bytes",
			       got, len, part);
	if (rc == -ETIMEDOUT)
		return err_set(err, rc,
			       "control frame: only %zu of %zu %s bytes within %d ms",
			       got, len, part, frame_timeout());
	return err_set(err, rc, "control frame: read %s: %s", part,
		       strerror(-rc));
}

int proto_recv(int fd, enum msg_type *type, json_t **body, int timeout_ms,
	       char *err)
{
	unsigned char hdr[PROTO_HDR_LEN];
	uint64_t deadline = 0;
	json_error_t jerr;
	uint32_t len;
	size_t got;
	char *buf;
	json_t *j;
	int rc;

	*body = NULL;
	if (timeout_ms >= 0)
		deadline = now_ns() + (uint64_t)timeout_ms * 1000000 + 1;
	rc = wait_fd(fd, POLLIN, deadline);
	if (rc == -ETIMEDOUT)
		return err_set(err, rc, "control connection: no frame within %d ms",
			       timeout_ms);
	if (rc)
		return err_set(err, rc, "control connection: poll: %s",
			       strerror(-rc));

	deadline = now_ns() + (uint64_t)frame_timeout() * 1000000;
	rc = read_by(fd, hdr, sizeof(hdr), deadline, &got);
	if (rc == -EPIPE && !got)
		return err_set(err, rc, "control connection: closed by peer");
	if (rc)
		return read_failed(rc, "header", got, sizeof(hdr), err);

	if (hdr[0] != PROTO_MAGIC0 || hdr[1] != PROTO_MAGIC1)
		return err_set(err, -EPROTO,
			       "control frame: bad magic 0x%02x%02x (not a tunetop peer?)",
			       hdr[0], hdr[1]);
	if (hdr[2] != PROTO_VERSION)
		return err_set(err, -EPROTONOSUPPORT,
			       "control frame: version %u, accepted is %u",
			       hdr[2], PROTO_VERSION);
	if (hdr[3] < MSG_HELLO || hdr[3] > MSG_TYPE_MAX)
		return err_set(err, -EPROTO,
			       "control frame: unknown type %u, accepted is %d..%d",
			       hdr[3], MSG_HELLO, MSG_TYPE_MAX);
	len = (uint32_t)hdr[4] << 24 | (uint32_t)hdr[5] << 16 |
	      (uint32_t)hdr[6] << 8 | hdr[7];
	if (len > PROTO_MAX_BODY)
		return err_set(err, -EMSGSIZE,
			       "control frame: body of %u bytes exceeds %u",
			       len, PROTO_MAX_BODY);

	buf = malloc(len ? len : 1);
	if (!buf)
		return err_set(err, -ENOMEM, "control frame: body of %u bytes: %s",
			       len, strerror(ENOMEM));
	rc = read_by(fd, buf, len, deadline, &got);
	if (rc) {
		free(buf);
		return read_failed(rc, "body", got, len, err);
	}

	/* No JSON_DISABLE_EOF_CHECK: anything after the object is an error. */
	j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	free(buf);
	if (!j) {
		/* jansson quotes the bad token: escape the peer's bytes. */
		str_sanitize(jerr.text, sizeof(jerr.text));
		return err_set(err, -EPROTO,
			       "control frame: %s body is not JSON: %s at byte %d",
			       proto_type_name(hdr[3]), jerr.text, jerr.position);
	}
	if (!json_is_object(j)) {
		json_decref(j);
		return err_set(err, -EPROTO,
			       "control frame: %s body is not a JSON object",
			       proto_type_name(hdr[3]));
	}
	*type = (enum msg_type)hdr[3];
	*body = j;
	return 0;
}

int proto_send(int fd, enum msg_type type, const json_t *body, char *err)
{
	return proto_send_padded(fd, type, body, 0, err);
}

int proto_send_padded(int fd, enum msg_type type, const json_t *body, size_t frame_len,
		      char *err)
{
	unsigned char hdr[PROTO_HDR_LEN];
	struct iovec iov[2];
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };
	uint64_t deadline;
	size_t len;
	char *text;
	bool torn;
	int rc = 0;

	if ((int)type < MSG_HELLO || type > MSG_TYPE_MAX)
		return err_set(err, -EINVAL, "control frame: unknown type %d",
			       (int)type);
	if (body && !json_is_object(body))
		return err_set(err, -EINVAL,
			       "control frame: %s body is not a JSON object",
			       proto_type_name(type));
	text = body ? json_dumps(body, JSON_COMPACT) : strdup("{}");
	if (!text)
		return err_set(err, -ENOMEM, "control frame: encode %s: %s",
			       proto_type_name(type), strerror(ENOMEM));
	len = strlen(text);
	/* Spaces after the object: receivers accept whitespace there. */
	if (len + PROTO_HDR_LEN < frame_len && frame_len - PROTO_HDR_LEN <= PROTO_MAX_BODY) {
		char *t = realloc(text, frame_len - PROTO_HDR_LEN);

		if (!t) {
			free(text);
			return err_set(err, -ENOMEM, "control frame: encode %s: %s",
				       proto_type_name(type), strerror(ENOMEM));
		}
		memset(t + len, ' ', frame_len - PROTO_HDR_LEN - len);
		text = t;
		len = frame_len - PROTO_HDR_LEN;
	}
	if (len > PROTO_MAX_BODY) {
		free(text);
		return err_set(err, -EMSGSIZE,
			       "control frame: %s body of %zu bytes exceeds %u",
			       proto_type_name(type), len, PROTO_MAX_BODY);
	}

	hdr[0] = PROTO_MAGIC0;
	hdr[1] = PROTO_MAGIC1;
	hdr[2] = PROTO_VERSION;
	hdr[3] = (unsigned char)type;
	hdr[4] = (unsigned char)(len >> 24);
	hdr[5] = (unsigned char)(len >> 16);
	hdr[6] = (unsigned char)(len >> 8);
	hdr[7] = (unsigned char)len;
	iov[0] = (struct iovec){ .iov_base = hdr, .iov_len = sizeof(hdr) };
	iov[1] = (struct iovec){ .iov_base = text, .iov_len = len };

	/*
	 * MSG_DONTWAIT plus poll keeps a peer that stops reading from
	 * blocking us forever; MSG_NOSIGNAL turns a closed peer into EPIPE.
	 */
	deadline = now_ns() + (uint64_t)frame_timeout() * 1000000;
	while (mh.msg_iovlen) {
		ssize_t n = sendmsg(fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				rc = wait_fd(fd, POLLOUT, deadline);
				if (rc)
					break;
				continue;
			}
			rc = -errno;
			break;
		}
		while (mh.msg_iovlen && (size_t)n >= mh.msg_iov->iov_len) {
			n -= (ssize_t)mh.msg_iov->iov_len;
			mh.msg_iov++;
			mh.msg_iovlen--;
		}
		if (mh.msg_iovlen) {
			mh.msg_iov->iov_base = (char *)mh.msg_iov->iov_base + n;
			mh.msg_iov->iov_len -= (size_t)n;
		}
	}
	free(text);

	if (rc == -EPIPE || rc == -ECONNRESET)
		return err_set(err, -EPIPE, "control connection: send %s: closed by peer",
			       proto_type_name(type));
	/*
	 * Part of the frame is out: whatever is sent next would be read as
	 * the rest of its body.  No frame may follow; the peer reads a frame
	 * cut short by EOF.
	 */
	torn = rc && (mh.msg_iov != iov || mh.msg_iov->iov_len < sizeof(hdr));
	if (torn)
		shutdown(fd, SHUT_WR);
	if (rc == -ETIMEDOUT)
		return err_set(err, rc,
			       "control connection: send %s: peer did not take all %zu bytes within %d ms%s",
			       proto_type_name(type), len + PROTO_HDR_LEN, frame_timeout(),
			       torn ? "; the frame is cut short, so no more are sent" : "");
	if (rc)
		return err_set(err, rc, "control connection: send %s: %s",
			       proto_type_name(type), strerror(-rc));
	return 0;
}

void proto_send_error(int fd, const char *code, const char *message)
{
	json_t *j = json_object();

	if (!j)
		return;
	if (!json_object_set_new(j, "code", json_string_lossy(code ? code : "internal")) &&
	    !json_object_set_new(j, "message", json_string_lossy(message ? message : "")))
		proto_send(fd, MSG_ERROR, j, NULL);
	json_decref(j);
}

const char *proto_error_code(int rc)
{
	switch (rc) {
	case -EPIPE:
		return NULL;
	case -EPROTONOSUPPORT:
		return "version";
	case -EPROTO:
	case -EMSGSIZE:
		return "malformed";
	case -EINVAL:
		return "invalid";
	case -ETIMEDOUT:
		return "timeout";
	case -EBUSY:
		return "busy";
	default:
		return "internal";
	}
}

json_t *json_string_lossy(const char *s)
{
	json_t *j;
	char *copy;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	copy = strdup(s);
	if (!copy)
		return NULL;
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}
