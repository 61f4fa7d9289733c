// SPDX-License-Identifier: GPL-2.0-or-later
/* term.c - the terminal: curses set-up, colours, painting grids, crash safety. */
#include "config.h"

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include <ncurses.h>

#include "term.h"
#include "engine.h"

const int TERM_KEY_UP = KEY_UP;
const int TERM_KEY_DOWN = KEY_DOWN;
const int TERM_KEY_LEFT = KEY_LEFT;
const int TERM_KEY_RIGHT = KEY_RIGHT;
const int TERM_KEY_PGUP = KEY_PPAGE;
const int TERM_KEY_PGDN = KEY_NPAGE;
const int TERM_KEY_HOME = KEY_HOME;
const int TERM_KEY_END = KEY_END;
const int TERM_KEY_BTAB = KEY_BTAB;
const int TERM_KEY_ENTER = '\n';	/* term_key folds CR and keypad Enter into '\n' */
const int TERM_KEY_BACKSPACE = KEY_BACKSPACE;	/* and DEL, ^H */
const int TERM_KEY_RESIZE = KEY_RESIZE;
const int TERM_KEY_F1 = KEY_F(1);

/*
 * The semantic table: what each style looks like with 256 colours, with 8
 * and with none.  -1 is the terminal's default foreground.
 */
struct style_look {
	short fg256;
	attr_t at256;
	short fg8;
	attr_t at8;
	attr_t mono;
};

static const struct style_look looks[STY_COUNT] = {
	[STY_NORMAL]      = { -1,  0,                      -1,            0,                      0 },
	[STY_DIM]         = { 245, 0,                      -1,            A_DIM,                  A_DIM },
	[STY_TITLE]       = { 110, A_BOLD,                 COLOR_CYAN,    A_BOLD,                 A_BOLD },
	[STY_TITLE_FOCUS] = { 81,  A_BOLD | A_REVERSE,     COLOR_CYAN,    A_BOLD | A_REVERSE,     A_BOLD | A_REVERSE },
	[STY_AXIS]        = { 244, 0,                      -1,            0,                      0 },
	[STY_MAIN]        = { 45,  A_BOLD,                 COLOR_CYAN,    A_BOLD,                 A_BOLD },
	[STY_GHOST]       = { 240, 0,                      -1,            A_DIM,                  A_DIM },
	[STY_BAND]        = { 67,  0,                      COLOR_BLUE,    0,                      A_DIM },
	[STY_LOCAL]       = { 39,  0,                      COLOR_CYAN,    0,                      0 },
	[STY_REMOTE]      = { 208, 0,                      COLOR_MAGENTA, 0,                      A_UNDERLINE },
	[STY_MSS]         = { 42,  0,                      COLOR_GREEN,   0,                      A_BOLD },
	[STY_SUPER]       = { 201, A_BOLD,                 COLOR_MAGENTA, A_BOLD,                 A_UNDERLINE },
	[STY_GOOD]        = { 70,  0,                      COLOR_GREEN,   0,                      0 },
	[STY_WARN]        = { 196, A_BOLD,                 COLOR_RED,     A_BOLD,                 A_BOLD | A_UNDERLINE },
	[STY_CHANGED]     = { 214, A_BOLD,                 COLOR_YELLOW,  A_BOLD,                 A_BOLD },
	[STY_PENDING]     = { 226, 0,                      COLOR_YELLOW,  0,                      A_UNDERLINE },
	[STY_SELECTED]    = { -1,  A_REVERSE,              -1,            A_REVERSE,              A_REVERSE },
};

/* What term_start worked out per style: the attributes and the colour pair. */
static attr_t sty_attr[STY_COUNT];
static short sty_pair[STY_COUNT];

static SCREEN *screen;
static int tty_fd = -1;
static struct termios saved_tio;

/* Read by the crash handler: set only while curses owns the terminal. */
static volatile sig_atomic_t tty_active;
static char crash_seq[256];
static volatile size_t crash_seq_len;
static char *const *crash_argv;
static bool guard_armed;
static char alt_stack[64 * 1024];

/* Append capability cap of the terminal, its "$<..>" padding dropped, to crash_seq. */
static void crash_seq_cap(const char *cap)
{
	const char *s = tigetstr(cap);

	if (!s || s == (const char *)-1)
		return;
	for (; *s && crash_seq_len < sizeof(crash_seq) - 3; s++) {
		if (s[0] == '$' && s[1] == '<' && strchr(s, '>')) {
			s = strchr(s, '>');
			continue;
		}
		crash_seq[crash_seq_len++] = *s;
	}
}

/*
 * Precompute what the crash handler writes to leave curses' screen: keypad
 * transmit off, the normal screen back, the cursor shown, attributes off.
 * Terminals without terminfo entries get the xterm sequences.
 */
static void crash_seq_build(void)
{
	static const char xterm[] = "\033[?1049l\033[?25h\033[0m";

	crash_seq_len = 0;
	crash_seq_cap("rmkx");
	crash_seq_cap("rmcup");
	crash_seq_cap("cnorm");
	crash_seq_cap("sgr0");
	if (crash_seq_len == 0) {
		memcpy(crash_seq, xterm, sizeof(xterm) - 1);
		crash_seq_len = sizeof(xterm) - 1;
	}
	crash_seq[crash_seq_len++] = '\r';
	crash_seq[crash_seq_len++] = '\n';
}

/* Fill the per-style attribute and pair tables for the colour mode. */
static void colours_setup(enum term_colours mode)
{
	short bg = -1, deffg = -1;

	if (mode != TERM_MONO) {
		if (use_default_colors() == ERR) {
			bg = COLOR_BLACK;
			deffg = COLOR_WHITE;
		}
	}
	for (int s = 0; s < STY_COUNT; s++) {
		const struct style_look *l = &looks[s];
		short fg;

		switch (mode) {
		case TERM_256:
			fg = l->fg256 < 0 ? deffg : l->fg256;
			sty_attr[s] = l->at256;
			break;
		case TERM_8:
			fg = l->fg8 < 0 ? deffg : l->fg8;
			sty_attr[s] = l->at8;
			break;
		default:
			sty_attr[s] = l->mono;
			sty_pair[s] = 0;
			continue;
		}
		sty_pair[s] = (short)(s + 1);
		if (init_pair(sty_pair[s], fg, bg) == ERR)
			sty_pair[s] = 0;
	}
}

int term_start(struct term *t, const struct term_opts *o, char *err)
{
	const char *name = getenv("TERM");
	int want;

	if (t->started)
		return 0;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return err_set(err, -ENOTTY, "terminal: %s is not a terminal (the dashboard needs one)",
			       isatty(STDIN_FILENO) ? "standard output" : "standard input");
	if (!name || !*name)
		return err_set(err, -EINVAL, "terminal: TERM is not set");

	setlocale(LC_ALL, "");
	t->utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	if (o && o->force_ascii == 1) {
		t->utf8 = false;
	} else if (o && o->force_ascii == 0 && !t->utf8) {
		/* UTF-8 asked for in a locale without it: output in C.UTF-8. */
		if (setlocale(LC_CTYPE, "C.UTF-8"))
			t->utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	}

	tty_fd = STDOUT_FILENO;
	if (tcgetattr(tty_fd, &saved_tio))
		return err_set(err, -errno, "terminal: tcgetattr: %s", strerror(errno));

	screen = newterm(NULL, stdout, stdin);
	if (!screen)
		return err_set(err, -ENOENT, "terminal: unknown terminal type '%s' (TERM)", name);
	set_term(screen);
	if (!tigetstr("cup") || tigetstr("cup") == (char *)-1) {
		endwin();
		delscreen(screen);
		screen = NULL;
		tcsetattr(tty_fd, TCSADRAIN, &saved_tio);
		return err_set(err, -ENOTSUP, "terminal: '%s' cannot move the cursor (TERM)", name);
	}
	crash_seq_build();
	tty_active = 1;

	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	leaveok(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);

	if (has_colors())
		start_color();		/* sets COLORS */
	if (!has_colors() || COLORS < 8)
		t->colours = TERM_MONO;
	else if (COLORS >= 256)
		t->colours = TERM_256;
	else
		t->colours = TERM_8;
	/* A forced mode can ask for fewer colours, never more than there are. */
	want = o ? o->force_colours : -1;
	if (want >= TERM_MONO && want <= TERM_256 && want < (int)t->colours)
		t->colours = (enum term_colours)want;
	colours_setup(t->colours);

	t->started = true;
	term_resize(t);
	term_crash_guard(crash_argv);
	return 0;
}

void term_stop(struct term *t)
{
	if (!t->started)
		return;
	t->started = false;
	curs_set(1);
	endwin();
	tty_active = 0;
	delscreen(screen);
	screen = NULL;
	tcsetattr(tty_fd, TCSADRAIN, &saved_tio);
}

/* write() all of s, retrying short writes; async-signal-safe. */
static void safe_write(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* Append a string to a fixed buffer; async-signal-safe. */
static size_t buf_put(char *buf, size_t at, size_t cap, const char *s)
{
	while (*s && at < cap - 1)
		buf[at++] = *s++;
	buf[at] = '\0';
	return at;
}

/* Decimal of a small non-negative int; async-signal-safe. */
static size_t buf_int(char *buf, size_t at, size_t cap, int v)
{
	char d[12];
	int n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0 && n < (int)sizeof(d));
	while (n > 0 && at < cap - 1)
		buf[at++] = d[--n];
	buf[at] = '\0';
	return at;
}

/*
 * The restore child.  Why a child at all: `tunetop restore` only puts back
 * journal entries whose owner process is gone (it skips a live tunetop's
 * entries, which it would otherwise undo under its feet), so the crashed
 * process must be dead first -- and a dying process cannot run it itself
 * (its heap and locks may be what crashed).  So the child leaves the
 * terminal's session, waits until it has been re-parented (the crashed
 * process has exited, its files closed), then execs restore_argv.  Only
 * async-signal-safe calls: it is forked from a signal handler.
 */
static void restore_child(pid_t crashed)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	sigset_t none;
	int fd;

	/*
	 * A new session: no SIGHUP when the crashed process, maybe a session
	 * leader, exits.  Until setsid() that SIGHUP was blocked (the handler
	 * did that before the fork); ignoring it now discards one pending.
	 */
	setsid();
	signal(SIGHUP, SIG_IGN);
	/* Up to ~10 s; then run anyway -- restore says what it had to skip. */
	for (int i = 0; i < 1000 && getppid() == crashed; i++)
		nanosleep(&tick, NULL);

	/* No fds of the crashed process (sockets, journal locks) past exec. */
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 34)
	if (close_range(3, ~0U, 0))
#endif
		for (fd = 3; fd < 1024; fd++)
			close(fd);
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);	/* stderr stays: the user sees what failed */
		if (fd > STDERR_FILENO)
			close(fd);
	}
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execv(crash_argv[0], crash_argv);
	_exit(127);
}

/* The crash handler: terminal back, the restore child started, die of sig. */
static void crash_handler(int sig)
{
	static volatile sig_atomic_t once;
	int saved_errno = errno;
	char msg[512];
	size_t n = 0;
	pid_t self, pid;

	if (once)
		goto die;
	once = 1;

	if (tty_active) {
		tcsetattr(tty_fd, TCSANOW, &saved_tio);
		safe_write(tty_fd, crash_seq, crash_seq_len);
	}

	n = buf_put(msg, n, sizeof(msg), "tunetop: crashed (signal ");
	n = buf_int(msg, n, sizeof(msg), sig);
	n = buf_put(msg, n, sizeof(msg), ")");
	if (crash_argv && crash_argv[0]) {
		const char *base = strrchr(crash_argv[0], '/');

		n = buf_put(msg, n, sizeof(msg), "; restoring knobs and the lab with `");
		n = buf_put(msg, n, sizeof(msg), base ? base + 1 : crash_argv[0]);
		for (int i = 1; crash_argv[i]; i++) {
			n = buf_put(msg, n, sizeof(msg), " ");
			n = buf_put(msg, n, sizeof(msg), crash_argv[i]);
		}
		n = buf_put(msg, n, sizeof(msg), "`");
	}
	n = buf_put(msg, n, sizeof(msg), "\n");
	safe_write(STDERR_FILENO, msg, n);

	if (crash_argv && crash_argv[0]) {
		sigset_t hup;

		sigemptyset(&hup);
		sigaddset(&hup, SIGHUP);
		sigprocmask(SIG_BLOCK, &hup, NULL);
		self = getpid();
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 34)
		pid = _Fork();		/* no atfork handlers: malloc may be what crashed */
#else
		pid = fork();
#endif
		if (pid == 0)
			restore_child(self);
	}
die:
	errno = saved_errno;
	signal(sig, SIG_DFL);
	raise(sig);
}

void term_crash_guard(char *const *restore_argv)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
	struct sigaction sa;

	crash_argv = restore_argv;
	if (!guard_armed) {
		stack_t ss = { .ss_sp = alt_stack, .ss_size = sizeof(alt_stack) };

		sigaltstack(&ss, NULL);
		guard_armed = true;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = crash_handler;
	sigemptyset(&sa.sa_mask);
	/* Once only (a fault in the handler kills at once), on the spare stack. */
	sa.sa_flags = SA_RESETHAND | SA_NODEFER | SA_ONSTACK;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

void term_resize(struct term *t)
{
	if (!t->started)
		return;
	getmaxyx(stdscr, t->h, t->w);
	/* Whatever the new layout does not cover must not keep old text. */
	erase();
}

/* Decode the cell's UTF-8 into one code point of width 1, or '?'. */
static wchar_t cell_wchar(const struct cell *c, bool utf8)
{
	const unsigned char *s = (const unsigned char *)c->ch;
	unsigned cp, need;

	if (s[0] < 0x80) {
		if (s[0] == 0)
			return L' ';
		return s[0] < 0x20 || s[0] == 0x7f ? L'?' : (wchar_t)s[0];
	}
	if (!utf8)
		return L'?';
	if ((s[0] & 0xe0) == 0xc0) {
		cp = s[0] & 0x1f;
		need = 1;
	} else if ((s[0] & 0xf0) == 0xe0) {
		cp = s[0] & 0x0f;
		need = 2;
	} else if ((s[0] & 0xf8) == 0xf0) {
		cp = s[0] & 0x07;
		need = 3;
	} else {
		return L'?';
	}
	for (unsigned i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return L'?';
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Braille and blocks are the common case: skip the wcwidth lookup. */
	if (cp >= 0x2800 && cp <= 0x28ff)
		return (wchar_t)cp;
	if (cp >= 0x2500 && cp <= 0x259f)
		return (wchar_t)cp;
	if (cp < 0xa0 || cp > 0x10ffff || wcwidth((wchar_t)cp) != 1)
		return L'?';
	return (wchar_t)cp;
}

void term_paint(struct term *t, const struct grid *g, int x, int y)
{
	enum { CHUNK = 256 };
	cchar_t row[CHUNK];
	int x0, x1, y0, y1;

	if (!t->started || !g->c)
		return;
	x0 = x < 0 ? -x : 0;
	y0 = y < 0 ? -y : 0;
	x1 = g->w < t->w - x ? g->w : t->w - x;
	y1 = g->h < t->h - y ? g->h : t->h - y;
	for (int gy = y0; gy < y1; gy++) {
		const struct cell *c = g->c + (size_t)gy * g->w;

		for (int gx = x0; gx < x1; gx += CHUNK) {
			int n = x1 - gx < CHUNK ? x1 - gx : CHUNK;

			for (int i = 0; i < n; i++) {
				const struct cell *ce = &c[gx + i];
				unsigned st = ce->style < STY_COUNT ? ce->style : STY_NORMAL;
				wchar_t wc[2] = { 0, 0 };

				/* Runs of one cell (blanks, bars) reuse the last cchar_t. */
				if (i > 0 && !memcmp(ce, ce - 1, sizeof(*ce))) {
					row[i] = row[i - 1];
					continue;
				}
				wc[0] = cell_wchar(ce, t->utf8);
				setcchar(&row[i], wc, sty_attr[st], sty_pair[st], NULL);
			}
			/* No cursor motion, no wrap: safe in the bottom-right corner. */
			mvadd_wchnstr(y + gy, x + gx, row, n);
		}
	}
}

void term_flush(struct term *t)
{
	if (!t->started)
		return;
	wnoutrefresh(stdscr);
	doupdate();
}

void term_message(struct term *t, const char *line)
{
	int len, x;

	if (!t->started)
		return;
	erase();
	len = (int)strlen(line);
	if (len > t->w)
		len = t->w;
	x = (t->w - len) / 2;
	attrset(sty_attr[STY_WARN] | COLOR_PAIR(sty_pair[STY_WARN]));
	mvaddnstr(t->h / 2, x, line, len);
	attrset(A_NORMAL);
}

int term_key(struct term *t)
{
	wint_t wc;
	int r;

	if (!t->started)
		return -1;
	r = get_wch(&wc);
	if (r == ERR)
		return -1;
	if (r == KEY_CODE_YES) {
		switch ((int)wc) {
		case KEY_RESIZE:
			term_resize(t);
			return KEY_RESIZE;
		case KEY_ENTER:
			return '\n';
		default:
			return (int)wc;
		}
	}
	switch (wc) {
	case '\r':
		return '\n';
	case 0x7f:
	case '\b':
		return KEY_BACKSPACE;
	}
	/* Characters in curses' key-code range would read as keys. */
	if (wc >= KEY_MIN && wc <= KEY_MAX)
		return 0xfffd;
	return (int)wc;
}

/* Named keys for the help screen. */
static const struct {
	int key;
	const char *name;
} key_names[] = {
	{ '\t', "Tab" }, { KEY_BTAB, "S-Tab" }, { '\n', "Enter" }, { '\r', "Enter" },
	{ KEY_ENTER, "Enter" }, { 27, "Esc" }, { ' ', "Space" },
	{ KEY_UP, "Up" }, { KEY_DOWN, "Down" }, { KEY_LEFT, "Left" }, { KEY_RIGHT, "Right" },
	{ KEY_SR, "S-Up" }, { KEY_SF, "S-Down" }, { KEY_SLEFT, "S-Left" }, { KEY_SRIGHT, "S-Right" },
	{ KEY_PPAGE, "PgUp" }, { KEY_NPAGE, "PgDn" }, { KEY_HOME, "Home" }, { KEY_END, "End" },
	{ KEY_IC, "Ins" }, { KEY_DC, "Del" }, { KEY_BACKSPACE, "Backspace" }, { 0x7f, "Backspace" },
	{ KEY_RESIZE, "Resize" },
};

const char *term_key_name(int key, char *buf, unsigned len)
{
	const char *name = NULL;
	char tmp[16];

	if (!buf || len == 0)
		return "";
	for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (key_names[i].key == key) {
			name = key_names[i].name;
			break;
		}
	if (name) {
		snprintf(buf, len, "%s", name);
	} else if (key >= KEY_F0 && key <= KEY_F(63)) {
		snprintf(buf, len, "F%d", key - KEY_F0);
	} else if (key >= 0 && key < 0x20) {
		snprintf(buf, len, "^%c", key + '@');
	} else if (key > 0x20 && key < 0x7f) {
		snprintf(buf, len, "%c", key);
	} else if (key >= 0xa0 && key <= 0x10ffff && (key < KEY_MIN || key > KEY_MAX) &&
		   (key < 0xd800 || key > 0xdfff)) {
		/* A character: its UTF-8. */
		unsigned k = (unsigned)key;
		int n = 0;

		if (k < 0x800) {
			tmp[n++] = (char)(0xc0 | k >> 6);
		} else if (k < 0x10000) {
			tmp[n++] = (char)(0xe0 | k >> 12);
			tmp[n++] = (char)(0x80 | (k >> 6 & 0x3f));
		} else {
			tmp[n++] = (char)(0xf0 | k >> 18);
			tmp[n++] = (char)(0x80 | (k >> 12 & 0x3f));
			tmp[n++] = (char)(0x80 | (k >> 6 & 0x3f));
		}
		tmp[n++] = (char)(0x80 | (k & 0x3f));
		tmp[n] = '\0';
		snprintf(buf, len, "%s", tmp);
	} else {
		snprintf(buf, len, "key %d", key);
	}
	return buf;
}
