// SPDX-License-Identifier: GPL-2.0-or-later
/* wire.c - small control-message bodies and socket-address helpers of both ends. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include "proto/msg.h"
#include "core/params.h"
#include "core/util.h"
#include "proto/wire.h"

void wire_addr_str(const struct sockaddr_storage *a, char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN] = "?";
	uint16_t port = wire_get_port(a);

	if (a->ss_family == AF_INET) {
		inet_ntop(AF_INET, &((const struct sockaddr_in *)a)->sin_addr, ip, sizeof(ip));
		if (port)
			snprintf(buf, len, "%s:%u", ip, port);
		else
			snprintf(buf, len, "%s", ip);
	} else if (a->ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)a)->sin6_addr, ip, sizeof(ip));
		if (port)
			snprintf(buf, len, "[%s]:%u", ip, port);
		else
			snprintf(buf, len, "%s", ip);
	} else {
		snprintf(buf, len, "?");
	}
}

void wire_set_port(struct sockaddr_storage *a, uint16_t port)
{
	if (a->ss_family == AF_INET)
		((struct sockaddr_in *)a)->sin_port = htons(port);
	else if (a->ss_family == AF_INET6)
		((struct sockaddr_in6 *)a)->sin6_port = htons(port);
}

uint16_t wire_get_port(const struct sockaddr_storage *a)
{
	if (a->ss_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)a)->sin_port);
	if (a->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)a)->sin6_port);
	return 0;
}

void wire_keepalive(int fd)
{
	int on = 1, idle = 10, intvl = 3, cnt = 3;

	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
}

int wire_error_from(enum msg_type t, const json_t *b, const char *who,
		    const char *addr, char *err)
{
	struct msg_error e;
	char perr[ERR_MAX];

	if (t != MSG_ERROR)
		return err_set(err, -EPROTO, "%s (%s): unexpected %s frame", who, addr,
			       proto_type_name(t));
	if (msg_error_from_json(b, &e, perr))
		return err_set(err, -EPROTO, "%s (%s): %s", who, addr, perr);
	return err_set(err, !strcmp(e.code, "busy") ? -EBUSY : -EPROTO, "%s (%s): %s",
		       who, addr, e.message);
}

/* Connect fd to addr within timeout_ms; 0 or -errno. */
int wire_connect(int fd, const struct sockaddr *sa, socklen_t len, int timeout_ms)
{
	int flags = fcntl(fd, F_GETFL);
	int ret = 0;

	if (fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
		return -errno;
	if (connect(fd, sa, len) < 0) {
		if (errno != EINPROGRESS) {
			ret = -errno;
		} else {
			struct pollfd pfd = { .fd = fd, .events = POLLOUT };
			int soerr = 0;
			socklen_t sl = sizeof(soerr);
			int n;

			do
				n = poll(&pfd, 1, timeout_ms);
			while (n < 0 && errno == EINTR);
			if (n == 0)
				ret = -ETIMEDOUT;
			else if (n < 0)
				ret = -errno;
			else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
				ret = -errno;
			else
				ret = -soerr;
		}
	}
	if (fcntl(fd, F_SETFL, flags) < 0 && !ret)
		ret = -errno;
	return ret;
}
