// SPDX-License-Identifier: GPL-2.0-or-later
/* knobs-remote.c - the client of tunetopd's knob control: read, authenticate, set. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
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
	/* A link (knobs_remote_link): where to connect, and with what. */
	bool link;
	char to_host[256], to_port[16], where[300];
	uint8_t key[AUTH_KEY_LEN];
	bool has_key, authed;
	int timeout_ms;
	pthread_mutex_t lock;		/* one request at a time: the pinger too */
	pthread_cond_t cond;
	pthread_t pinger;
	bool pinging, stop;
	char ping_name[KNOB_NAME_MAX];
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

/* Connect r to tunetopd at host and say HELLO.  0 or -errno with err. */
static int remote_connect(struct knobs_remote *r, const char *host, const char *port,
			  int timeout_ms, char *err)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai, *a;
	struct msg_hello hello = { .name = "tunetop", .version = PACKAGE_VERSION };
	struct msg_hello_ok hok;
	char pbuf[16], peer[320];
	json_t *b;
	int ret, last = -EHOSTUNREACH;

	if (!port) {
		snprintf(pbuf, sizeof(pbuf), "%d", TT_DEFAULT_PORT);
		port = pbuf;
	}
	r->fd = -1;
	ret = getaddrinfo(host, port, &hints, &ai);
	if (ret)
		return err_set(err, -EHOSTUNREACH, "-H %s: %s", host, gai_strerror(ret));
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
	if (r->fd < 0)
		return err_set(err, last, "connect to tunetopd at %s port %s: %s", host, port,
			       strerror(-last));
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
		r->fd = -1;
		return ret;
	}
	snprintf(r->host, sizeof(r->host), "%s", hok.host);
	return 0;
}

int knobs_remote_open(struct knobs_remote **rp, const char *host, const char *port,
		      int timeout_ms, char *err)
{
	struct knobs_remote *r = calloc(1, sizeof(*r));
	int ret;

	*rp = NULL;
	if (!r)
		return err_set(err, -ENOMEM, "out of memory");
	ret = remote_connect(r, host, port, timeout_ms, err);
	if (ret) {
		free(r);
		return ret;
	}
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
	if (r->link) {
		pthread_mutex_lock(&r->lock);
		r->stop = true;
		pthread_cond_signal(&r->cond);
		pthread_mutex_unlock(&r->lock);
		if (r->pinging)
			pthread_join(r->pinger, NULL);
		pthread_cond_destroy(&r->cond);
		pthread_mutex_destroy(&r->lock);
		memset(r->key, 0, sizeof(r->key));
	}
	if (r->fd >= 0) {
		proto_send(r->fd, MSG_BYE, NULL, NULL);
		close(r->fd);
	}
	free(r);
}

/* --- links: the knob transactions' connection ----------------------------- */

int knobs_remote_link(struct knobs_remote **rp, const char *host, const char *port,
		      const uint8_t key[AUTH_KEY_LEN], int timeout_ms, char *err)
{
	struct knobs_remote *r = calloc(1, sizeof(*r));

	*rp = NULL;
	if (!r)
		return err_set(err, -ENOMEM, "out of memory");
	r->fd = -1;
	r->link = true;
	snprintf(r->to_host, sizeof(r->to_host), "%s", host);
	snprintf(r->to_port, sizeof(r->to_port), "%s", port ? port : "");
	snprintf(r->where, sizeof(r->where), "tunetopd at %s port %s", host,
		 port ? port : "(default)");
	if (key) {
		memcpy(r->key, key, sizeof(r->key));
		r->has_key = true;
	}
	r->timeout_ms = timeout_ms;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	*rp = r;
	return 0;
}

const char *knobs_remote_where(const struct knobs_remote *r)
{
	return r->where;
}

/* Connected, under r->lock; a connection lost earlier is not made again. */
static int link_ready(struct knobs_remote *r, char *err)
{
	if (r->fd >= 0)
		return 0;
	if (r->authed)
		return err_set(err, -EPIPE, "%s: the knob connection was lost (tunetopd puts back what it changed)",
			       r->where);
	return remote_connect(r, r->to_host, r->to_port[0] ? r->to_port : NULL,
			      r->timeout_ms, err);
}

/* One KNOB_GET of name over a ready link, under r->lock. */
static int link_get(struct knobs_remote *r, const char *name, struct knob_value *v, char *err)
{
	struct msg_knob_get *q = calloc(1, sizeof(*q));
	struct msg_knob_values *a = calloc(1, sizeof(*a));
	int ret;

	if (!q || !a) {
		ret = err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	q->n = 1;
	snprintf(q->names[0], sizeof(q->names[0]), "%s", name);
	ret = knobs_remote_get(r, q, a, err);
	if (!ret && a->n != 1)
		ret = err_set(err, -EPROTO, "%s: %u values for 1 knob", r->where, a->n);
	if (ret || !v)
		goto out;
	memset(v, 0, sizeof(*v));
	v->present = a->v[0].present;
	snprintf(v->text, sizeof(v->text), "%s", a->v[0].text);
	snprintf(v->reason, sizeof(v->reason), "%s", a->v[0].reason);
out:
	free(q);
	free(a);
	return ret;
}

/*
 * After a failed exchange the stream's state is unknown: close it
 * (tunetopd then puts back what this link changed).
 */
static void link_lost(struct knobs_remote *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

/*
 * After a failed exchange (under r->lock): the connection is closed;
 * whether to try once more on a new one.  Only while nothing is changed:
 * a link that only read may have been ended by tunetopd's idle timeout
 * (the dashboard reads, then a change comes minutes later), while one
 * holding changes is kept alive by the pinger, and when it is lost
 * tunetopd has put them back: that is said, not hidden by a new one.
 */
static bool link_retry(struct knobs_remote *r, int ret)
{
	link_lost(r);
	return !r->authed && ret != -EHOSTUNREACH && ret != -ECONNREFUSED && ret != -ETIMEDOUT;
}

int knobs_remote_read(struct knobs_remote *r, const char *name, struct knob_value *v,
		      char *err)
{
	int ret;

	pthread_mutex_lock(&r->lock);
	/* A second try on a fresh connection: see link_retry. */
	for (int i = 0; i < 2; i++) {
		ret = link_ready(r, err);
		if (!ret)
			ret = link_get(r, name, v, err);
		if (!ret || !link_retry(r, ret))
			break;
	}
	pthread_mutex_unlock(&r->lock);
	return ret;
}

/* The pinger: a value now and then while changes are held (see the header). */
static void *link_ping_thread(void *arg)
{
	struct knobs_remote *r = arg;

	pthread_mutex_lock(&r->lock);
	while (!r->stop && r->fd >= 0) {
		struct timespec ts;
		char err[ERR_MAX];

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += KNOBS_REMOTE_PING_MS * 1000000L;
		ts.tv_sec += ts.tv_nsec / 1000000000L;
		ts.tv_nsec %= 1000000000L;
		pthread_cond_timedwait(&r->cond, &r->lock, &ts);
		if (r->stop || r->fd < 0)
			break;
		if (link_get(r, r->ping_name, NULL, err))
			link_lost(r);
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

int knobs_remote_write(struct knobs_remote *r, const char *name, const char *text,
		       char *before, char *after, size_t len, char *err)
{
	struct msg_knob_set *q = NULL;
	struct msg_knob_result *a = NULL;
	int ret;

	if (!r->has_key)
		return err_set(err, -EACCES, "%s: with -H, %s", name, KNOBS_REMOTE_NEEDS_KEY);
	pthread_mutex_lock(&r->lock);
	for (int i = 0; i < 2; i++) {
		ret = link_ready(r, err);
		if (!ret && !r->authed) {
			ret = knobs_remote_auth(r, r->key, err);
			r->authed = ret == 0;
		}
		if (!ret || ret == -EACCES || !link_retry(r, ret))
			break;
	}
	if (ret)
		goto out;
	q = calloc(1, sizeof(*q));
	a = calloc(1, sizeof(*a));
	if (!q || !a) {
		ret = err_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	q->n = 1;
	snprintf(q->s[0].name, sizeof(q->s[0].name), "%s", name);
	snprintf(q->s[0].value, sizeof(q->s[0].value), "%s", text);
	ret = knobs_remote_set(r, q, a, err);
	if (ret)
		goto out;
	if (!a->r[0].ok) {
		ret = err_set(err, -EREMOTEIO, "%s (%s): %s", r->host, r->where, a->r[0].error);
		goto out;
	}
	if (before)
		snprintf(before, len, "%s", a->r[0].before);
	if (after)
		snprintf(after, len, "%s", a->r[0].after);
	snprintf(r->ping_name, sizeof(r->ping_name), "%s", name);
	if (!r->pinging)
		r->pinging = pthread_create(&r->pinger, NULL, link_ping_thread, r) == 0;
out:
	if (ret && ret != -EREMOTEIO)
		link_lost(r);
	pthread_mutex_unlock(&r->lock);
	free(q);
	free(a);
	return ret;
}
