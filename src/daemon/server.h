/* SPDX-License-Identifier: GPL-2.0-or-later */
/* server.h - the tunetopd end: control sessions, data flows, remote samples. */
#ifndef TT_SERVER_H
#define TT_SERVER_H

#include <stdbool.h>
#include <stdint.h>

struct catalog;

struct server_opts {
	const char *listen_addr;	/* NULL: all addresses, IPv6 and IPv4 */
	const char *port;		/* NULL: 12866; "0" picks one */
	unsigned max_sessions;		/* 0: default (16) */
	unsigned idle_timeout;		/* seconds between control frames, 0: 30 */
	void (*log_cb)(const char *line, void *arg);
	void *log_arg;
	/*
	 * Remote knobs.  catalog: KNOB_GET answered to anyone (NULL: refused).
	 * knob_control: KNOB_SET allowed to a session that proved it holds
	 * key (AUTH_KEY_LEN bytes); each change is journaled (journal.h, the
	 * state directory of this process) and undone when its session ends.
	 */
	const struct catalog *catalog;
	bool knob_control;
	const uint8_t *key;
};

struct server;

int server_open(struct server **sp, const struct server_opts *o, char *err);
/* The port actually bound (useful with "0"). */
int server_port(const struct server *s);
/* Serve until server_shutdown(); 0 or -errno. */
int server_run(struct server *s, char *err);
/* Serve from a thread of this process (the embedded server). */
int server_start_thread(struct server *s, char *err);
/* Stop accepting, end every session, join threads. Safe from a signal
 * handler's flag-driven path, not from the handler itself. */
void server_shutdown(struct server *s);
void server_destroy(struct server *s);

#endif
