/* SPDX-License-Identifier: GPL-2.0-or-later */
/* term.h - the terminal: curses set-up, colours, painting grids, crash safety. */
#ifndef TT_TERM_H
#define TT_TERM_H

#include <stdbool.h>
#include <sys/types.h>

#include "grid.h"

enum term_colours { TERM_MONO, TERM_8, TERM_256 };

struct term_opts {
	int force_colours;		/* -1: what the terminal says; else an enum term_colours */
	int force_ascii;		/* -1: from the locale; 0/1 */
};

struct term {
	int w, h;			/* screen size */
	bool utf8;			/* the locale's codeset is UTF-8 (and not forced off) */
	enum term_colours colours;
	bool started;
};

/*
 * setlocale(LC_ALL, ""), initscr in cbreak/noecho/keypad/nodelay mode,
 * the cursor hidden, colours from the semantic table (grid.h's styles) for
 * 256, 8 or no colours (attributes only: bold, dim, reverse, underline).
 * Also arms term_crash_guard.  0, or -errno with err saying why (no
 * terminal, TERM unknown) -- never exits.
 */
int term_start(struct term *t, const struct term_opts *o, char *err);
/* Leave curses and put the terminal back as it was.  Safe to call twice. */
void term_stop(struct term *t);

/*
 * On SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT: put the terminal back
 * with async-signal-safe calls only (the saved termios, the escape
 * sequences that leave the alternate screen and show the cursor), then,
 * if restore_argv is set, fork a child that waits for this process to be
 * gone and execs restore_argv (e.g. {"/proc/self/exe"-resolved path,
 * "restore", NULL}) so the knobs and the lab are put back, then re-raise
 * the signal with its default action.  restore_argv must stay valid.
 */
void term_crash_guard(char *const *restore_argv);

/* Re-read the size after KEY_RESIZE / SIGWINCH into t->w, t->h. */
void term_resize(struct term *t);

/*
 * Copy grid g to the screen at (x, y) -- a panel's place -- into curses'
 * virtual screen (wnoutrefresh-style, no output yet): characters as
 * wide-char cells (UTF-8) with the style's attributes.
 */
void term_paint(struct term *t, const struct grid *g, int x, int y);
/* Send what changed to the terminal (doupdate). */
void term_flush(struct term *t);
/* Clear the screen and show one centred line (the minimum-size message). */
void term_message(struct term *t, const char *line);

/*
 * The next key, or -1 when none is waiting (nodelay): curses key codes
 * (KEY_UP, KEY_RESIZE, ...) and characters; UTF-8 input as one code point.
 */
int term_key(struct term *t);

/* Name of a key for the help screen ("q", "Tab", "S-Tab", "Up", "F1", "^C"). */
const char *term_key_name(int key, char *buf, unsigned len);

/* Key codes term_key returns for keys ui code names without curses. */
extern const int TERM_KEY_UP, TERM_KEY_DOWN, TERM_KEY_LEFT, TERM_KEY_RIGHT,
	TERM_KEY_PGUP, TERM_KEY_PGDN, TERM_KEY_HOME, TERM_KEY_END, TERM_KEY_BTAB,
	TERM_KEY_ENTER, TERM_KEY_BACKSPACE, TERM_KEY_RESIZE, TERM_KEY_F1;

#endif
