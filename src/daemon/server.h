/* SPDX-License-Identifier: GPL-2.0-or-later */
/* server.h - the tunetopd end: control sessions, data flows, remote samples. */
#ifndef TT_SERVER_H
#define TT_SERVER_H

#include <stdbool.h>
#include <stdint.h>

struct catalog;

#define SERVER_DEFAULT_PER_PEER 8
#define SERVER_DEFAULT_SESSION_MEM (256ull << 20)
#define SERVER_DEFAULT_MEM (1ull << 30)

struct server_opts {
	const char *listen_addr;	/* NULL: all addresses, IPv6 and IPv4 */
	const char *port;		/* NULL: 12866; "0" picks one */
	unsigned max_sessions;		/* 0: default (16) */
	unsigned idle_timeout;		/* seconds between control frames, 0: 30 */
	/*
	 * Limits against whoever can reach the port (docs/security.md).
	 * per_peer: sessions from one client address (0: 8).  session_mem:
	 * bytes one test's workers may take (0: 256 MiB); mem: all tests
	 * at once (0: 1 GiB).  A SETUP over either is refused before
	 * anything is allocated.
	 */
	unsigned per_peer;
	uint64_t session_mem;
	uint64_t mem;
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
	/*
	 * The client captures on this host too (the embedded server in a
	 * lab): capture only what arrives, the client's capture counts
	 * what this end sends (capture_opts.in_only).
	 */
	bool capture_in_only;
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
