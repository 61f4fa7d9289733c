// SPDX-License-Identifier: GPL-2.0-or-later
/* ui.c - what panels ask of the dashboard: the status line, a prompt, their frame. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ui.h"

void ui_status(struct ui *u, enum style st, double secs, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->status, sizeof(u->status), fmt, ap);
	va_end(ap);
	u->status_style = st;
	u->status_until = (double)now_ns() / 1e9 + secs;
}

void ui_prompt(struct ui *u, const char *question, const char *initial,
	       void (*done)(struct ui *u, const char *text, void *arg), void *arg)
{
	u->prompt.on = true;
	snprintf(u->prompt.question, sizeof(u->prompt.question), "%s", question);
	snprintf(u->prompt.text, sizeof(u->prompt.text), "%s", initial ? initial : "");
	u->prompt.done = done;
	u->prompt.arg = arg;
}

enum style panel_verdict_style(enum verdict_word w)
{
	switch (w) {
	case VERDICT_WORSE:
		return STY_WARN;
	case VERDICT_BETTER:
		return STY_GOOD;
	case VERDICT_SAME:
		return STY_NORMAL;
	case VERDICT_CANT_TELL:
		break;
	}
	return STY_DIM;
}

int panel_text_whole(struct grid *g, int x, int y, int w, const char *s, enum style st)
{
	int cells = 0;

	for (const char *c = s; *c; c++)
		cells += (*c & 0xc0) != 0x80;	/* one cell per UTF-8 character */
	if (cells > w)
		return 0;
	return grid_put(g, x, y, w, st, s);
}

const char *panel_coalesce_na(const struct ui *u, unsigned k, int e, unsigned n, char *buf,
			      size_t len)
{
	char d[END_N][64];
	bool na[END_N];

	for (int i = 0; i < END_N; i++)
		na[i] = ethtool_coalesce_unsupported_by(u->knobs[k].v[i].reason, d[i], sizeof(d[i]));
	if ((e < 0 && !(na[END_L] && na[END_R])) || (e >= 0 && !na[e]))
		return NULL;
	if (e < 0 && strcmp(d[END_L], d[END_R]))
		snprintf(buf, len, "%u coalescing settings: not supported by %s (local), %s (remote)", n,
			 d[END_L], d[END_R]);
	else
		snprintf(buf, len, "%u coalescing settings: not supported by %s", n, d[e < 0 ? END_L : e]);
	return buf;
}

bool panel_focused(const struct ui *u, const struct panel *p)
{
	return u->panels && &u->panels[u->focus] == p;
}

void panel_frame(struct ui *u, struct panel *p, int *ix, int *iy, int *iw, int *ih)
{
	grid_clear(&p->g);
	grid_box(&p->g, 0, 0, p->w, p->h, p->ops->title,
		 panel_focused(u, p) ? STY_TITLE_FOCUS : STY_TITLE);
	*ix = 1;
	*iy = 1;
	*iw = p->w - 2;
	*ih = p->h - 2;
}
