// SPDX-License-Identifier: GPL-2.0-or-later
/* test-term.c - key names, start-up errors, painting, keys and crash restore on a pty. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "term.h"
#include "core/util.h"

/* A child process whose terminal is the slave side of a pty we hold. */
struct ptychild {
	pid_t pid;
	int master, slave;
	struct termios modes0;		/* the terminal's modes before the child ran */
	int rep;			/* the child's reports, one line each */
	int cmd;			/* a byte here lets the child go on */
	char out[1 << 17];		/* everything the child wrote to the terminal */
	size_t len;
};

static int ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int)((t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* Read what the child wrote to the terminal until quiet_ms pass without any. */
static void pump(struct ptychild *pc, int quiet_ms)
{
	struct pollfd p = { .fd = pc->master, .events = POLLIN };

	while (poll(&p, 1, quiet_ms) > 0) {
		ssize_t n = read(pc->master, pc->out + pc->len, sizeof(pc->out) - 1 - pc->len);

		if (n <= 0)
			break;
		pc->len += (size_t)n;
		pc->out[pc->len] = '\0';
	}
}

/* The child's next report line, reading its terminal meanwhile; false on timeout. */
static bool report(struct ptychild *pc, char *line, size_t cap, int timeout_ms)
{
	struct timespec t0;
	size_t n = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (ms_since(&t0) < timeout_ms) {
		struct pollfd p[2] = {
			{ .fd = pc->rep, .events = POLLIN },
			{ .fd = pc->master, .events = POLLIN },
		};

		if (poll(p, 2, 50) <= 0)
			continue;
		if (p[1].revents & POLLIN) {
			ssize_t r = read(pc->master, pc->out + pc->len, sizeof(pc->out) - 1 - pc->len);

			if (r > 0) {
				pc->len += (size_t)r;
				pc->out[pc->len] = '\0';
			}
		}
		if (p[0].revents & (POLLIN | POLLHUP)) {
			char c;

			if (read(pc->rep, &c, 1) != 1)
				return false;
			if (c == '\n') {
				line[n] = '\0';
				return true;
			}
			if (n + 1 < cap)
				line[n++] = c;
		}
	}
	return false;
}

static void go(struct ptychild *pc)
{
	char c = 'g';

	if (write(pc->cmd, &c, 1) != 1)
		perror("write");
}

/* In the child: wait for the parent's go. */
static void wait_go(int cmd)
{
	char c;

	if (read(cmd, &c, 1) != 1)
		_exit(3);
}

/* Does out[from..] contain needle? */
static bool seen(const struct ptychild *pc, size_t from, const char *needle)
{
	return from <= pc->len && memmem(pc->out + from, pc->len - from, needle, strlen(needle));
}

/*
 * Run fn in a child whose stdin, stdout and stderr are a new 80x24 pty, as
 * its session's controlling terminal, with TERM (unset when NULL) and
 * LC_ALL set.
 */
static int spawn(struct ptychild *pc, int (*fn)(int rep, int cmd, void *arg), void *arg,
		 const char *term, const char *lc)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	int rep[2], cmd[2];

	memset(pc, 0, sizeof(*pc));
	if (openpty(&pc->master, &pc->slave, NULL, NULL, &ws) || pipe(rep) || pipe(cmd))
		return -errno;
	/* Read here, not after fork: a quick child may have started curses. */
	tcgetattr(pc->slave, &pc->modes0);
	fflush(stdout);
	pc->pid = fork();
	if (pc->pid < 0)
		return -errno;
	if (pc->pid == 0) {
		close(pc->master);
		close(rep[0]);
		close(cmd[1]);
		setsid();
		ioctl(pc->slave, TIOCSCTTY, 0);
		dup2(pc->slave, STDIN_FILENO);
		dup2(pc->slave, STDOUT_FILENO);
		dup2(pc->slave, STDERR_FILENO);
		if (pc->slave > STDERR_FILENO)
			close(pc->slave);
		if (term)
			setenv("TERM", term, 1);
		else
			unsetenv("TERM");
		setenv("LC_ALL", lc, 1);
		_exit(fn(rep[1], cmd[0], arg));
	}
	close(rep[1]);
	close(cmd[0]);
	pc->rep = rep[0];
	pc->cmd = cmd[1];
	return 0;
}

/* Wait for the child (reading its terminal), return its wait status; the modes after, too. */
static int reap(struct ptychild *pc, struct termios *modes)
{
	int status = -1;

	for (int i = 0; i < 500; i++) {
		pump(pc, 10);
		if (waitpid(pc->pid, &status, WNOHANG) == pc->pid)
			break;
	}
	pump(pc, 100);
	if (modes)
		tcgetattr(pc->slave, modes);
	close(pc->master);
	close(pc->slave);
	close(pc->rep);
	close(pc->cmd);
	return status;
}

/* ------------------------------------------------------------------------ */

static void test_key_names(void)
{
	static const struct {
		int key;
		const char *name;
	} cases[] = {
		{ 'q', "q" }, { 'Q', "Q" }, { '?', "?" }, { '/', "/" }, { '\t', "Tab" },
		{ '\n', "Enter" }, { '\r', "Enter" }, { 27, "Esc" }, { ' ', "Space" },
		{ 3, "^C" }, { 12, "^L" }, { 0, "^@" },
	};
	char buf[32], small[3];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = term_key_name(cases[i].key, buf, sizeof(buf));

		ok(!strcmp(got, cases[i].name), "key %d is named '%s' (got '%s')", cases[i].key,
		   cases[i].name, got);
	}
	ok(!strcmp(term_key_name(TERM_KEY_BTAB, buf, sizeof(buf)), "S-Tab"), "back-tab is S-Tab");
	ok(!strcmp(term_key_name(TERM_KEY_UP, buf, sizeof(buf)), "Up"), "up arrow is Up");
	ok(!strcmp(term_key_name(TERM_KEY_DOWN, buf, sizeof(buf)), "Down"), "down arrow is Down");
	ok(!strcmp(term_key_name(TERM_KEY_LEFT, buf, sizeof(buf)), "Left"), "left arrow is Left");
	ok(!strcmp(term_key_name(TERM_KEY_RIGHT, buf, sizeof(buf)), "Right"), "right arrow is Right");
	ok(!strcmp(term_key_name(TERM_KEY_PGUP, buf, sizeof(buf)), "PgUp"), "page up is PgUp");
	ok(!strcmp(term_key_name(TERM_KEY_PGDN, buf, sizeof(buf)), "PgDn"), "page down is PgDn");
	ok(!strcmp(term_key_name(TERM_KEY_HOME, buf, sizeof(buf)), "Home"), "home is Home");
	ok(!strcmp(term_key_name(TERM_KEY_END, buf, sizeof(buf)), "End"), "end is End");
	ok(!strcmp(term_key_name(TERM_KEY_ENTER, buf, sizeof(buf)), "Enter"), "TERM_KEY_ENTER is Enter");
	ok(!strcmp(term_key_name(TERM_KEY_BACKSPACE, buf, sizeof(buf)), "Backspace"),
	   "TERM_KEY_BACKSPACE is Backspace");
	ok(!strcmp(term_key_name(TERM_KEY_F1, buf, sizeof(buf)), "F1"), "F1 is F1");
	ok(!strcmp(term_key_name(TERM_KEY_F1 + 11, buf, sizeof(buf)), "F12"), "F12 is F12");
	ok(!strcmp(term_key_name(TERM_KEY_RESIZE, buf, sizeof(buf)), "Resize"), "resize is Resize");
	ok(!strcmp(term_key_name(0xe9, buf, sizeof(buf)), "\xc3\xa9"), "a character is its UTF-8");
	ok(!strcmp(term_key_name(0x28ff, buf, sizeof(buf)), "\xe2\xa3\xbf"), "a 3-byte character too");
	ok(!strcmp(term_key_name('q', small, sizeof(small)), "q") &&
	   !strcmp(term_key_name(TERM_KEY_PGUP, small, sizeof(small)), "Pg"),
	   "names are cut to the buffer, NUL-terminated");
	ok(TERM_KEY_UP != TERM_KEY_DOWN && TERM_KEY_PGUP != TERM_KEY_PGDN &&
	   TERM_KEY_ENTER == '\n' && TERM_KEY_RESIZE > 0xff,
	   "key constants are distinct and Enter is newline");
}

/* ------------------------------------------------------------------------ */

static void test_no_terminal(void)
{
	char err[ERR_MAX] = "";
	int p[2], status, rc = 0;
	pid_t pid;

	if (!ok(pipe(p) == 0, "pipe"))
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct term t = { 0 };
		struct term_opts o = { -1, -1 };
		int fd = open("/dev/null", O_RDWR);

		close(p[0]);
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		setenv("TERM", "xterm-256color", 1);
		rc = term_start(&t, &o, err);
		if (write(p[1], &rc, sizeof(rc)) != sizeof(rc) || write(p[1], err, sizeof(err)) != sizeof(err))
			_exit(2);
		_exit(t.started ? 1 : 0);
	}
	close(p[1]);
	ok(read_full(p[0], &rc, sizeof(rc)) == 0 && read_full(p[0], err, sizeof(err)) == 0,
	   "the child reported term_start's result");
	close(p[0]);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "without a terminal term_start returns (no exit), not started");
	ok(rc == -ENOTTY, "the error is -ENOTTY (got %d)", rc);
	ok(strstr(err, "not a terminal") != NULL, "the message says why: '%s'", err);
}

/* Child: start, report "rc colours utf8 w h|err", paint a braille cell, stop. */
static int child_start(int rep, int cmd, void *arg)
{
	const struct term_opts *o = arg;
	struct term t = { 0 };
	char err[ERR_MAX] = "";
	struct cell cells[2] = { { "\xe2\xa3\xbf", STY_MAIN }, { "x", STY_MAIN } };
	struct grid g = { .w = 2, .h = 1, .c = cells, .utf8 = true };
	int rc = term_start(&t, o, err);

	dprintf(rep, "%d %d %d %d %d|%s\n", rc, (int)t.colours, t.utf8, t.w, t.h, err);
	if (rc == 0) {
		term_paint(&t, &g, 0, 0);
		term_flush(&t);
		dprintf(rep, "painted\n");
		wait_go(cmd);
		term_stop(&t);
	}
	return 0;
}

struct start_case {
	const char *term, *lc;
	struct term_opts o;
	int rc, colours, utf8;
	const char *what;
};

static void test_start_modes(void)
{
	static const struct start_case cases[] = {
		{ "xterm-256color", "C.UTF-8", { -1, -1 }, 0, TERM_256, 1, "xterm-256color in C.UTF-8: 256 colours, UTF-8" },
		{ "xterm", "C.UTF-8", { -1, -1 }, 0, TERM_8, 1, "xterm: 8 colours" },
		{ "vt100", "C.UTF-8", { -1, -1 }, 0, TERM_MONO, 1, "vt100: no colours" },
		{ "xterm-256color", "C", { -1, -1 }, 0, TERM_256, 0, "the C locale: ASCII" },
		{ "xterm-256color", "C.UTF-8", { TERM_8, 1 }, 0, TERM_8, 0, "forced 8 colours and ASCII" },
		{ "xterm-256color", "C.UTF-8", { TERM_MONO, -1 }, 0, TERM_MONO, 1, "forced monochrome" },
		{ "xterm", "C.UTF-8", { TERM_256, -1 }, 0, TERM_8, 1, "forcing more colours than there are gives what there is" },
		{ "tunetop-no-such-term", "C.UTF-8", { -1, -1 }, -ENOENT, 0, 0, "an unknown TERM is an error" },
		{ NULL, "C.UTF-8", { -1, -1 }, -EINVAL, 0, 0, "no TERM is an error" },
		{ "dumb", "C.UTF-8", { -1, -1 }, -ENOTSUP, 0, 0, "a terminal that cannot move the cursor is an error" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct start_case *c = &cases[i];
		static struct ptychild pc;
		char line[ERR_MAX + 64], *bar;
		int rc = 1, colours = -1, utf8 = -1, w = 0, h = 0, status;

		if (!ok(spawn(&pc, child_start, (void *)&c->o, c->term, c->lc) == 0, "spawn on a pty"))
			return;
		if (report(&pc, line, sizeof(line), 5000))
			sscanf(line, "%d %d %d %d %d", &rc, &colours, &utf8, &w, &h);
		bar = strchr(line, '|');
		if (c->rc) {
			ok(rc == c->rc && bar && strstr(bar, "TERM"),
			   "%s: %d with a message naming TERM ('%s')", c->what, rc, bar ? bar + 1 : line);
		} else {
			ok(rc == 0 && colours == c->colours && utf8 == c->utf8 && w == 80 && h == 24,
			   "%s (got rc %d, colours %d, utf8 %d, %dx%d)", c->what, rc, colours, utf8, w, h);
			if (report(&pc, line, sizeof(line), 5000)) {
				pump(&pc, 100);
				if (c->utf8)
					ok(seen(&pc, 0, "\xe2\xa3\xbf"), "%s: braille goes out as UTF-8", c->what);
				else
					ok(!seen(&pc, 0, "\xe2\xa3\xbf") && seen(&pc, 0, "?x"),
					   "%s: braille goes out as '?'", c->what);
			}
			go(&pc);
		}
		status = reap(&pc, NULL);
		ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: the child exited normally", c->what);
	}
}

/* ------------------------------------------------------------------------ */

/* In the child: resize its own terminal and wait for term_key's KEY_RESIZE. */
static void set_size(struct term *t, int w, int h)
{
	struct winsize ws = { .ws_row = (unsigned short)h, .ws_col = (unsigned short)w };

	ioctl(STDOUT_FILENO, TIOCSWINSZ, &ws);
	for (int i = 0; i < 400 && term_key(t) != TERM_KEY_RESIZE; i++)
		usleep(5000);
}

/* Child: a whole session -- paint, repaint, message, keys, resize, stop. */
static int child_session(int rep, int cmd, void *arg)
{
	struct term t = { 0 };
	struct term_opts o = { -1, -1 };
	char err[ERR_MAX], name[32];
	struct cell cells[12 * 3];
	struct grid g = { .w = 12, .h = 3, .c = cells, .utf8 = true };
	struct timespec t0, t1;
	struct cell big[200 * 60];
	struct grid bg = { .w = 200, .h = 60, .c = big, .utf8 = true };
	double ns;

	if (term_start(&t, &o, err)) {
		dprintf(rep, "fail %s\n", err);
		return 1;
	}
	for (int i = 0; i < 12 * 3; i++)
		cells[i] = (struct cell){ " ", STY_NORMAL };
	memcpy(cells[0].ch, "h", 2);
	memcpy(cells[1].ch, "e", 2);
	memcpy(cells[2].ch, "l", 2);
	memcpy(cells[3].ch, "l", 2);
	memcpy(cells[4].ch, "o", 2);
	memcpy(cells[12 + 2].ch, "\xe2\xa3\xbf", 4);	/* braille, full */
	memcpy(cells[12 + 3].ch, "\xe2\x96\x88", 4);	/* full block */
	cells[12 + 2].style = STY_MSS;
	cells[12 + 3].style = STY_SUPER;
	term_paint(&t, &g, 3, 2);
	term_paint(&t, &g, 75, 22);		/* clipped at the right and bottom */
	term_paint(&t, &g, -3, -1);		/* clipped at the left and top */
	term_flush(&t);
	dprintf(rep, "P1\n");
	wait_go(cmd);

	term_paint(&t, &g, 3, 2);
	term_flush(&t);
	dprintf(rep, "P2\n");
	wait_go(cmd);

	memcpy(cells[4].ch, "O", 2);
	term_paint(&t, &g, 3, 2);
	term_flush(&t);
	dprintf(rep, "P3\n");
	wait_go(cmd);

	term_message(&t, "tunetop needs at least 80x24, this terminal is 60x20");
	term_flush(&t);
	dprintf(rep, "P4\n");
	wait_go(cmd);

	/* The speed of our own part: painting a 200x60 grid on a 200x60 screen. */
	for (int i = 0; i < 200 * 60; i++)
		big[i] = (struct cell){ "\xe2\xa3\x80", (uint8_t)(i % STY_COUNT) };
	set_size(&t, 200, 60);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < 100; i++)
		term_paint(&t, &bg, 0, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / 100;
	dprintf(rep, "paint %.0f %dx%d\n", ns, t.w, t.h);
	set_size(&t, 80, 24);

	dprintf(rep, "K\n");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		int k = term_key(&t);

		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (t1.tv_sec - t0.tv_sec > 5)
			break;
		if (k < 0) {
			usleep(5000);
			continue;
		}
		dprintf(rep, "k %d %s\n", k, term_key_name(k, name, sizeof(name)));
		if (k == TERM_KEY_RESIZE) {
			dprintf(rep, "size %d %d\n", t.w, t.h);
			break;
		}
	}
	dprintf(rep, "E\n");
	wait_go(cmd);

	term_stop(&t);
	term_stop(&t);
	dprintf(rep, "S\n");
	wait_go(cmd);
	return 0;
}

static void test_session(void)
{
	static struct ptychild pc;
	const struct {
		int key;
		const char *name;
	} want[] = {
		{ 'q', "q" }, { TERM_KEY_UP, "Up" }, { 0xe9, "\xc3\xa9" }, { TERM_KEY_ENTER, "Enter" },
		{ '\t', "Tab" }, { TERM_KEY_BTAB, "S-Tab" }, { 27, "Esc" }, { TERM_KEY_RESIZE, "Resize" },
	};
	struct winsize ws = { .ws_row = 30, .ws_col = 100 };
	struct termios before, after;
	char line[256];
	size_t mark;
	unsigned nk = 0;
	int w = 0, h = 0, status;
	bool keys_ok = true;
	double ns = -1;

	if (!ok(spawn(&pc, child_session, NULL, "xterm-256color", "C.UTF-8") == 0, "spawn on a pty"))
		return;
	before = pc.modes0;

	ok(report(&pc, line, sizeof(line), 5000) && !strcmp(line, "P1"), "started and painted (%s)", line);
	pump(&pc, 150);
	ok(seen(&pc, 0, "\033[?1049h"), "curses switched to the alternate screen");
	ok(seen(&pc, 0, "hello"), "the painted text is on the terminal");
	ok(seen(&pc, 0, "\xe2\xa3\xbf") && seen(&pc, 0, "\xe2\x96\x88"),
	   "braille and block characters go out as UTF-8");
	ok(seen(&pc, 0, "\033[38;5;42m") || seen(&pc, 0, "\033[38;5;42;"),
	   "the MSS style is 256-colour 42 (green-cyan)");
	ok(seen(&pc, 0, "\033[38;5;201m") || seen(&pc, 0, "\033[38;5;201;"),
	   "super-segments are 256-colour 201 (magenta)");
	ok(seen(&pc, 0, "\033[23;76H") && seen(&pc, 0, "\033[24;78H") && !seen(&pc, 0, "\033[24;81H"),
	   "a panel past the corner is clipped to the screen");
	mark = pc.len;
	go(&pc);

	ok(report(&pc, line, sizeof(line), 5000) && !strcmp(line, "P2"), "repainted the same grid");
	pump(&pc, 200);
	ok(pc.len == mark, "an unchanged repaint sends nothing (%zu bytes)", pc.len - mark);
	mark = pc.len;
	go(&pc);

	ok(report(&pc, line, sizeof(line), 5000) && !strcmp(line, "P3"), "repainted with one cell changed");
	pump(&pc, 150);
	ok(seen(&pc, mark, "O") && pc.len - mark < 32,
	   "only the change goes out (%zu bytes)", pc.len - mark);
	mark = pc.len;
	go(&pc);

	ok(report(&pc, line, sizeof(line), 5000) && !strcmp(line, "P4"), "showed the size message");
	pump(&pc, 150);
	ok(seen(&pc, mark, "tunetop needs at least 80x24, this terminal is 60x20") &&
	   seen(&pc, mark, "\033[13;15H"), "the message is one centred line");
	go(&pc);

	if (report(&pc, line, sizeof(line), 5000))
		sscanf(line, "paint %lf %dx%d", &ns, &w, &h);
	ok(w == 200 && h == 60, "the screen grew to 200x60 (got %dx%d)", w, h);
	/* How long is the bench's business (bench/run --only ui): tests check
	 * behaviour, and a sanitizer build is several times slower. */
	ok(ns >= 0, "a 200x60 grid was painted (%.0f ns of our own work)", ns);

	ok(report(&pc, line, sizeof(line), 5000) && !strcmp(line, "K"), "ready for keys");
	ok(write(pc.master, "q\033OA\xc3\xa9\r\t\033[Z", 11) == 11, "typed q, Up, é, Enter, Tab, S-Tab");
	sleep_ms(150);
	ok(write(pc.master, "\033", 1) == 1, "typed Esc alone");
	sleep_ms(200);
	ok(ioctl(pc.master, TIOCSWINSZ, &ws) == 0, "resized the pty to 100x30");
	while (report(&pc, line, sizeof(line), 5000) && strcmp(line, "E")) {
		int k;
		char nm[32] = "";

		if (sscanf(line, "size %d %d", &w, &h) == 2)
			continue;
		if (sscanf(line, "k %d %31s", &k, nm) < 1)
			continue;
		if (nk < sizeof(want) / sizeof(want[0])) {
			int wk = want[nk].key;

			if (k != wk || strcmp(nm, want[nk].name)) {
				keys_ok = false;
				printf("# key %u: got %d '%s', want %d '%s'\n", nk, k, nm, wk, want[nk].name);
			}
		}
		nk++;
	}
	ok(keys_ok && nk == sizeof(want) / sizeof(want[0]),
	   "keys arrive as q, Up, é (one code point), Enter, Tab, S-Tab, Esc, Resize (%u keys)", nk);
	ok(w == 100 && h == 30, "after the resize the size is 100x30 (got %dx%d)", w, h);
	mark = pc.len;
	go(&pc);

	ok(report(&pc, line, sizeof(line), 5000) && !strcmp(line, "S"), "stopped twice");
	/* The modes go back with TCSADRAIN, once the output is read: keep
	 * reading for up to a second until they are back. */
	for (int i = 0; i < 50; i++) {
		pump(&pc, 20);
		tcgetattr(pc.slave, &after);
		if (after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag)
			break;
	}
	ok(seen(&pc, mark, "\033[?1049l"), "the normal screen is back");
	ok(seen(&pc, mark, "\033[?25h"), "the cursor is shown");
	ok((after.c_lflag & (ICANON | ECHO)) == (before.c_lflag & (ICANON | ECHO)) &&
	   after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag,
	   "the terminal modes are as before (echo, canonical input)");
	go(&pc);
	status = reap(&pc, NULL);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the session child exited normally");
	if (getenv("TEST_TERM_DUMP")) {
		FILE *d = fopen(getenv("TEST_TERM_DUMP"), "w");
		fwrite(pc.out, 1, pc.len, d);
		fclose(d);
	}
}

/* ------------------------------------------------------------------------ */

static char restore_cmd[PATH_MAX + 128];
static char *restore_argv[] = { "/bin/sh", "-c", restore_cmd, NULL };
static int *volatile nowhere;
static volatile int depth_limit = INT_MAX;

/* Recurse until the stack runs out. */
static int deep(int n)
{
	volatile char pad[512];

	pad[0] = (char)n;
	if (n >= depth_limit)
		return pad[0];
	return deep(n + 1) + pad[0];
}

/* Child: start, arm the guard with the restore command, then crash. */
static int child_crash(int rep, int cmd, void *arg)
{
	const char *how = arg;
	struct term t = { 0 };
	struct term_opts o = { -1, -1 };
	struct rlimit no_core = { 0, 0 }, stack = { 1 << 20, 1 << 20 };
	char err[ERR_MAX];

	setrlimit(RLIMIT_CORE, &no_core);
	if (term_start(&t, &o, err)) {
		dprintf(rep, "fail %s\n", err);
		return 1;
	}
	term_crash_guard(restore_argv);
	dprintf(rep, "%d\n", (int)getpid());
	wait_go(cmd);
	if (!strcmp(how, "stack")) {
		setrlimit(RLIMIT_STACK, &stack);
		return deep(0);
	}
	/* A real fault, also under UBSan (which stops a NULL store itself):
	 * a page nobody may touch. */
	nowhere = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (nowhere == MAP_FAILED)
		return 1;
	*nowhere = 1;
	return 0;
}

static void test_crash(const char *how, const char *dir)
{
	static struct ptychild pc;
	char file[512], line[256];
	struct termios before, after;
	struct timespec t0;
	int status, crashed = 0, ppid = 0;
	bool there = false;
	FILE *f;
	size_t mark;

	snprintf(file, sizeof(file), "%s/restored-%s", dir, how);
	snprintf(restore_cmd, sizeof(restore_cmd), "echo restored $PPID > %s.tmp && mv %s.tmp %s",
		 file, file, file);
	if (!ok(spawn(&pc, child_crash, (void *)how, "xterm-256color", "C.UTF-8") == 0, "spawn on a pty"))
		return;
	before = pc.modes0;
	ok(report(&pc, line, sizeof(line), 5000) && sscanf(line, "%d", &crashed) == 1,
	   "%s: the child started curses and armed the guard (%s)", how, line);
	pump(&pc, 100);
	tcgetattr(pc.slave, &after);
	ok(!(after.c_lflag & ECHO), "%s: curses turned echo off", how);
	mark = pc.len;
	go(&pc);
	status = reap(&pc, &after);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "%s: the child died of SIGSEGV (status %#x)",
	   how, status);
	ok(seen(&pc, 0, "\033[?1049h") && seen(&pc, mark, "\033[?1049l"),
	   "%s: the crash left the alternate screen", how);
	ok(seen(&pc, mark, "\033[?25h"), "%s: the crash showed the cursor", how);
	ok(after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag &&
	   after.c_oflag == before.c_oflag, "%s: the terminal modes are as before curses", how);
	ok(seen(&pc, mark, "tunetop: crashed (signal 11); restoring knobs and the lab with `sh -c "),
	   "%s: one line says it crashed and what restores", how);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!(there = access(file, F_OK) == 0) && ms_since(&t0) < 5000)
		sleep_ms(20);
	ok(there, "%s: the restore command ran (%d ms)", how, ms_since(&t0));
	f = fopen(file, "r");
	if (f) {
		if (fscanf(f, "restored %d", &ppid) != 1)
			ppid = 0;
		fclose(f);
	}
	ok(ppid > 0 && ppid != crashed,
	   "%s: it ran after the crashed process was gone (its parent %d, not %d)", how, ppid, crashed);
	unlink(file);
}

/*
 * Under AddressSanitizer its own SIGSEGV handler wins over the crash
 * guard's; the guard is what is tested, so run again without ASan's.
 */
static void asan_leave_segv(char **argv)
{
#if defined(__SANITIZE_ADDRESS__)
	const char *o = getenv("ASAN_OPTIONS");

	if (!o || !strstr(o, "handle_segv=0")) {
		char buf[512];

		snprintf(buf, sizeof(buf), "%s%shandle_segv=0:handle_abort=0", o ? o : "", o ? ":" : "");
		setenv("ASAN_OPTIONS", buf, 1);
		execv("/proc/self/exe", argv);
	}
#else
	(void)argv;
#endif
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/test-term-XXXXXX";

	(void)argc;
	asan_leave_segv(argv);

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_key_names();
	test_no_terminal();
	test_start_modes();
	test_session();
	test_crash("fault", dir);
	test_crash("stack", dir);
	rmdir(dir);
	return tap_done();
}
