// SPDX-License-Identifier: GPL-2.0-or-later
/* knobs-remote.c - the client of tunetopd's knob control: read, authenticate, set. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "knobs/knobs-remote.h"
#include "core/params.h"
#include "proto/netserver.h"
#include "proto/proto.h"
#include "core/util.h"
#include "proto/wire.h"

/* How long tunetopd may take to answer one knob message. */
#define REPLY_TIMEOUT_MS 30000

struct knobs_remote {
	int fd;
	char addr[64];
	char host[MSG_NAME_MAX];
};


/*
 * Wait for a frame of type want; an ERROR becomes -EACCES for code "auth",
 * else wire_error_from's -errno.  *body is a new reference on success.
 */
static int expect(struct knobs_remote *r, enum msg_type want, json_t **body, char *err)
{
	enum msg_type t;
	json_t *b = NULL;
	int ret;

	ret = proto_recv(r->fd, &t, &b, REPLY_TIMEOUT_MS, err);
	if (ret == -ETIMEDOUT)
		return err_set(err, ret, "tunetopd (%s): no %s within %d s", r->addr,
			       proto_type_name(want), REPLY_TIMEOUT_MS / 1000);
	if (ret == -EPIPE)
		return err_set(err, ret, "tunetopd (%s): closed the control connection", r->addr);
	if (ret)
		return ret;
	if (t == want) {
		*body = b;
		return 0;
	}
	if (t == MSG_ERROR) {
		struct msg_error e;

		if (msg_error_from_json(b, &e, err) == 0 && !strcmp(e.code, "auth")) {
			json_decref(b);
			return err_set(err, -EACCES, "tunetopd (%s): %s", r->addr, e.message);
		}
	}
	ret = wire_error_from(t, b, "tunetopd", r->addr, err);
	json_decref(b);
	return ret;
}

/* Send one frame of type t with body b (a new reference, taken). */
static int send_new(struct knobs_remote *r, enum msg_type t, json_t *b, char *err)
{
	int ret;

	if (!b)
		return err_set(err, -ENOMEM, "%s: out of memory or a value JSON cannot carry",
			       proto_type_name(t));
	ret = proto_send(r->fd, t, b, err);
	json_decref(b);
	return ret;
}

int knobs_remote_open(struct knobs_remote **rp, const char *host, const char *port,
		      int timeout_ms, char *err)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai, *a;
	struct msg_hello hello = { .name = "tunetop", .version = PACKAGE_VERSION };
	struct msg_hello_ok hok;
	char pbuf[16], peer[320];
	struct knobs_remote *r;
	json_t *b;
	int ret, last = -EHOSTUNREACH;

	*rp = NULL;
	if (!port) {
		snprintf(pbuf, sizeof(pbuf), "%d", TT_DEFAULT_PORT);
		port = pbuf;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return err_set(err, -ENOMEM, "out of memory");
	r->fd = -1;
	ret = getaddrinfo(host, port, &hints, &ai);
	if (ret) {
		free(r);
		return err_set(err, -EHOSTUNREACH, "-H %s: %s", host, gai_strerror(ret));
	}
	for (a = ai; a && r->fd < 0; a = a->ai_next) {
		int fd = socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		struct sockaddr_storage ss;

		if (fd < 0) {
			last = -errno;
			continue;
		}
		last = wire_connect(fd, a->ai_addr, a->ai_addrlen, timeout_ms);
		if (last) {
			close(fd);
			continue;
		}
		r->fd = fd;
		memcpy(&ss, a->ai_addr, a->ai_addrlen);
		wire_addr_str(&ss, r->addr, sizeof(r->addr));
	}
	freeaddrinfo(ai);
	if (r->fd < 0) {
		free(r);
		return err_set(err, last, "connect to tunetopd at %s port %s: %s", host, port,
			       strerror(-last));
	}
	wire_keepalive(r->fd);
	/* the HELLO every tunetop sends: a netserver there answers it too */
	snprintf(peer, sizeof(peer), "-H %.200s port %s", host, port);
	b = msg_hello_to_json(&hello);
	ret = b ? ns_hello(r->fd, b, timeout_ms, peer, err) :
		  err_set(err, -ENOMEM, "hello: out of memory");
	json_decref(b);
	b = NULL;
	if (ret == 1)
		ret = err_set(err, -EPROTONOSUPPORT,
			      "%s is a netserver: netserver has no knobs to read or change; accepted: -H HOST of a tunetopd",
			      peer);
	if (!ret)
		ret = expect(r, MSG_HELLO_OK, &b, err);
	if (!ret) {
		ret = msg_hello_ok_from_json(b, &hok, err);
		json_decref(b);
	}
	if (ret) {
		close(r->fd);
		free(r);
		return ret;
	}
	snprintf(r->host, sizeof(r->host), "%s", hok.host);
	*rp = r;
	return 0;
}

const char *knobs_remote_host(const struct knobs_remote *r)
{
	return r->host;
}

int knobs_remote_get(struct knobs_remote *r, const struct msg_knob_get *q,
		     struct msg_knob_values *a, char *err)
{
	json_t *b;
	int ret;

	ret = send_new(r, MSG_KNOB_GET, msg_knob_get_to_json(q), err);
	if (!ret)
		ret = expect(r, MSG_KNOB_VALUES, &b, err);
	if (ret)
		return ret;
	ret = msg_knob_values_from_json(b, a, err);
	json_decref(b);
	return ret;
}

int knobs_remote_auth(struct knobs_remote *r, const uint8_t key[AUTH_KEY_LEN], char *err)
{
	struct msg_auth ch, mac;
	json_t *b;
	int ret;

	ret = proto_send(r->fd, MSG_AUTH_BEGIN, NULL, err);
	if (!ret)
		ret = expect(r, MSG_AUTH_CHALLENGE, &b, err);
	if (ret)
		return ret;
	ret = msg_auth_from_json(b, &ch, true, err);
	json_decref(b);
	if (ret)
		return ret;
	auth_response(key, ch.bytes, mac.bytes);
	ret = send_new(r, MSG_AUTH_RESPONSE, msg_auth_to_json(&mac, false), err);
	if (!ret)
		ret = expect(r, MSG_AUTH_OK, &b, err);
	if (ret)
		return ret;
	ret = msg_empty_from_json(b, "auth_ok", err);
	json_decref(b);
	return ret;
}

int knobs_remote_set(struct knobs_remote *r, const struct msg_knob_set *q,
		     struct msg_knob_result *a, char *err)
{
	json_t *b;
	int ret;

	ret = send_new(r, MSG_KNOB_SET, msg_knob_set_to_json(q), err);
	if (!ret)
		ret = expect(r, MSG_KNOB_RESULT, &b, err);
	if (ret)
		return ret;
	ret = msg_knob_result_from_json(b, a, err);
	json_decref(b);
	if (!ret && a->n != q->n)
		ret = err_set(err, -EPROTO, "tunetopd (%s): %u results for %u settings", r->addr,
			      a->n, q->n);
	return ret;
}

void knobs_remote_close(struct knobs_remote *r)
{
	if (!r)
		return;
	proto_send(r->fd, MSG_BYE, NULL, NULL);
	close(r->fd);
	free(r);
}
