/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wire.h - small control-message bodies and socket-address helpers of both ends. */
#ifndef TT_WIRE_H
#define TT_WIRE_H

#include <jansson.h>
#include <stdint.h>
#include <sys/socket.h>

#include "proto/proto.h"

/* "1.2.3.4:80" / "[::1]:80" (port omitted when 0). */
void wire_addr_str(const struct sockaddr_storage *a, char *buf, size_t len);
void wire_set_port(struct sockaddr_storage *a, uint16_t port);
uint16_t wire_get_port(const struct sockaddr_storage *a);
/* Connect fd to addr within timeout_ms (fd's flags are kept); 0 or -errno. */
int wire_connect(int fd, const struct sockaddr *sa, socklen_t len, int timeout_ms);
/* TCP keepalive so a vanished peer is noticed within about 20 s. */
void wire_keepalive(int fd);

/*
 * A frame that was not the one expected: MSG_ERROR becomes "who (addr):
 * message", anything else "who (addr): unexpected TYPE".  Returns -EPROTO
 * (or -EBUSY for a busy server).
 */
int wire_error_from(enum msg_type t, const json_t *b, const char *who,
		    const char *addr, char *err);

#endif
