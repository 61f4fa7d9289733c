// SPDX-License-Identifier: GPL-2.0-or-later
/* panel-knobs.c - the knob catalog grouped, both ends' values, changes and pending edits. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "term.h"
#include "ui.h"

/* The socket options of the test, shown as knobs of their own group. */
enum test_opt { TO_NODELAY, TO_SNDBUF, TO_RCVBUF, TO_COUNT };
static const char *const test_opt_name[TO_COUNT] = {
	"TCP_NODELAY (-D)", "SO_SNDBUF (-s/-S)", "SO_RCVBUF (-s/-S)",
};

/* ROW_FOLD: a group's knobs n/a on both ends, on one line ("17
 * coalescing settings n/a on both ends: ..."), so the panel shows what
 * can be changed here. */
enum row_kind { ROW_GROUP, ROW_KNOB, ROW_TEST, ROW_FOLD };

struct row {
	enum row_kind kind;
	unsigned idx;			/* knob index (ROW_FOLD: the first folded), or enum test_opt */
	unsigned nfold;			/* ROW_FOLD: how many */
	const char *group;
};

#define MAX_ROWS 512
static struct row rows[MAX_ROWS];
static unsigned nrows;
/* The end the cursor is on: Left/Right choose it for the row under the
 * cursor and one edit; it goes back to local when the cursor moves or an
 * edit is made, so no later Space lands on an end chosen long ago. */
static int col = END_L;

/* A group folds its knobs n/a on both ends into one line from this many. */
#define FOLD_MIN 2

/* n/a on both ends, nothing pending: shown only in its group's folded line. */
static bool knob_folds(const struct ui_knob *k)
{
	return !k->v[END_L].present && !k->v[END_R].present && !k->has_pending[END_L] &&
	       !k->has_pending[END_R];
}

/* Groups in the catalog's order, each followed by its knobs, then the test's. */
static void build_rows(const struct ui *u)
{
	const char *groups[32];
	unsigned ng = 0;

	nrows = 0;
	for (unsigned i = 0; i < u->nknobs; i++) {
		const char *g = u->knobs[i].d->group;
		unsigned j;

		for (j = 0; j < ng && strcmp(groups[j], g); j++)
			;
		if (j == ng && ng < 32)
			groups[ng++] = g;
	}
	for (unsigned j = 0; j < ng && nrows < MAX_ROWS; j++) {
		unsigned nf = 0, first = 0;

		rows[nrows++] = (struct row){ .kind = ROW_GROUP, .group = groups[j] };
		for (unsigned i = 0; i < u->nknobs; i++)
			if (!strcmp(u->knobs[i].d->group, groups[j]) && knob_folds(&u->knobs[i]) &&
			    !nf++)
				first = i;
		for (unsigned i = 0; i < u->nknobs && nrows < MAX_ROWS; i++)
			if (!strcmp(u->knobs[i].d->group, groups[j]) &&
			    (nf < FOLD_MIN || !knob_folds(&u->knobs[i])))
				rows[nrows++] = (struct row){ .kind = ROW_KNOB, .idx = i };
		if (nf >= FOLD_MIN && nrows < MAX_ROWS)
			rows[nrows++] = (struct row){ .kind = ROW_FOLD, .idx = first, .nfold = nf,
						      .group = groups[j] };
	}
	if (nrows + TO_COUNT + 1 <= MAX_ROWS) {
		rows[nrows++] = (struct row){ .kind = ROW_GROUP, .group = "socket options of the test" };
		for (unsigned t = 0; t < TO_COUNT; t++)
			rows[nrows++] = (struct row){ .kind = ROW_TEST, .idx = t };
	}
}

/* A test option's value on one end, as text. */
static const char *test_opt_text(const struct ui *u, unsigned t, int e, char *buf, size_t len)
{
	int32_t v;

	switch (t) {
	case TO_NODELAY:
		return u->p.nodelay ? "on" : "off";
	case TO_SNDBUF:
		v = e == END_L ? u->p.lsndbuf : u->p.rsndbuf;
		break;
	default:
		v = e == END_L ? u->p.lrcvbuf : u->p.rrcvbuf;
		break;
	}
	if (v < 0)
		return "auto";
	snprintf(buf, len, "%d", v);
	return buf;
}

/* A knob's name in w cells: a sysctl's without its dotted prefix when the
 * whole one does not fit ("tcp_congestion_control"); / finds either. */
static const char *short_name(const char *name, int w)
{
	const char *dot = strrchr(name, '.');

	return (int)strlen(name) > w && dot ? dot + 1 : name;
}

/* A row the cursor can be on: a knob or a test option. */
static bool selectable(const struct row *r)
{
	return r->kind == ROW_KNOB || r->kind == ROW_TEST;
}

/* One knob's cell: value, '*' when changed here, "-> v" when an edit waits. */
static void knob_cell(struct grid *g, int x, int y, int w, const struct ui_knob *k, int e,
		      bool sel)
{
	const struct knob_value *v = &k->v[e];
	bool changed = v->present && k->original[e][0] && strcmp(v->text, k->original[e]);
	int n;

	if (!v->present) {
		n = grid_text(g, x, y, "n/a", sel ? STY_SELECTED : STY_DIM, w);
		if (w - n > 6)
			grid_text(g, x + n + 1, y, v->reason, STY_DIM, w - n - 1);
		return;
	}
	n = grid_text(g, x, y, v->text, sel ? STY_SELECTED : changed ? STY_CHANGED : STY_NORMAL, w);
	if (changed && n < w)
		n += grid_text(g, x + n, y, "*", STY_CHANGED, 1);
	if (k->has_pending[e] && n + 4 < w)
		grid_printf(g, x + n + 1, y, STY_PENDING, w - n - 1, "-> %s", k->pending[e]);
}

static void knobs_draw(struct ui *u, struct panel *p)
{
	int ix, iy, iw, ih, nw, nws, vw, vmax;
	char buf[32];

	panel_frame(u, p, &ix, &iy, &iw, &ih);
	build_rows(u);
	if (!nrows) {
		grid_text(&p->g, ix + 1, iy, "no catalog", STY_WARN, iw - 1);
		return;
	}
	if (p->cursor >= (int)nrows)
		p->cursor = (int)nrows - 1;
	while (p->cursor < (int)nrows - 1 && !selectable(&rows[p->cursor]))
		p->cursor++;
	/* Names whole when they fit in half the width; values share the rest. */
	/* Labels shorten before values: the sysctls' dotted prefixes go when
	 * whole names would leave the widest value ("4096 131072 6291456")
	 * no room on both ends. */
	nw = nws = vmax = 0;
	for (unsigned i = 0; i < u->nknobs; i++) {
		const char *name = u->knobs[i].d->name, *dot = strrchr(name, '.');
		int l = (int)strlen(name) + 2, ls = dot ? (int)strlen(dot + 1) + 2 : l;

		if (l > nw)
			nw = l;
		if (ls > nws)
			nws = ls;
		for (int e = 0; e < END_N; e++)
			if (u->knobs[i].v[e].present && (int)strlen(u->knobs[i].v[e].text) > vmax)
				vmax = (int)strlen(u->knobs[i].v[e].text);
	}
	if (nw + 2 * (vmax + 2) > iw && nws < nw)
		nw = nws;
	if (nw < 20)
		nw = 20;
	if (nw > iw / 2)
		nw = iw / 2;
	vw = (iw - nw - 1) / 2;
	grid_printf(&p->g, ix, iy, STY_DIM, nw, "%-*s", nw, u->lab ? "knob" : "knob (this host)");
	/* The sides' names only where they fit whole (labels shortened first). */
	grid_text(&p->g, ix + nw, iy, u->lab && vw >= 14 ? "local (lab-a)" : "local",
		  col == END_L ? STY_TITLE : STY_DIM, vw);
	grid_text(&p->g, ix + nw + vw + 1, iy, u->lab && vw >= 14 ? "remote (lab-b)" : "remote",
		  col == END_R ? STY_TITLE : STY_DIM, vw);
	/* Keep the cursor in view. */
	if (p->cursor < p->scroll)
		p->scroll = p->cursor;
	if (p->cursor >= p->scroll + ih - 1)
		p->scroll = p->cursor - (ih - 2);
	if (p->scroll < 0)
		p->scroll = 0;
	for (int i = 0; i < ih - 1 && p->scroll + i < (int)nrows; i++) {
		const struct row *r = &rows[p->scroll + i];
		bool sel = p->scroll + i == p->cursor && panel_focused(u, p);
		int y = iy + 1 + i;

		if (r->kind == ROW_GROUP) {
			grid_printf(&p->g, ix, y, STY_TITLE, iw, "%s", r->group);
			continue;
		}
		if (r->kind == ROW_FOLD) {
			size_t gl = strlen(r->group);
			char fold[160];

			/* "27 coalescing settings: not supported by veth", else
			 * "4 sysctls n/a on both ends: host-only: ..." */
			if (panel_coalesce_na(u, r->idx, -1, r->nfold, fold, sizeof(fold)))
				grid_text(&p->g, ix + 1, y, fold, STY_DIM, iw - 1);
			else
				grid_printf(&p->g, ix + 1, y, STY_DIM, iw - 1,
					    "%u %s%s n/a on both ends: %s", r->nfold, r->group,
					    gl && r->group[gl - 1] == 's' ? "" : " settings",
					    u->knobs[r->idx].v[END_L].reason);
			continue;
		}
		if (r->kind == ROW_TEST) {
			grid_text(&p->g, ix + 1, y, test_opt_name[r->idx], sel ? STY_SELECTED : STY_NORMAL, nw - 2);
			for (int e = 0; e < END_N; e++) {
				if (r->idx == TO_NODELAY && e == END_R)
					continue;
				grid_text(&p->g, ix + nw + e * (vw + 1), y,
					  test_opt_text(u, r->idx, e, buf, sizeof(buf)),
					  sel && col == e ? STY_SELECTED : STY_NORMAL, vw);
			}
			continue;
		}
		grid_text(&p->g, ix + 1, y, short_name(u->knobs[r->idx].d->name, nw - 2),
			  sel ? STY_SELECTED : STY_NORMAL, nw - 2);
		for (int e = 0; e < END_N; e++)
			knob_cell(&p->g, ix + nw + e * (vw + 1), y, vw, &u->knobs[r->idx], e,
				  sel && col == e);
	}
}

/* What the edit prompt was asked for. */
static struct {
	unsigned row;
	int end;
} editing;

static void edit_done(struct ui *u, const char *text, void *arg)
{
	const struct row *r = &rows[editing.row];
	uint64_t v;

	(void)arg;
	if (editing.row >= nrows)
		return;
	if (r->kind == ROW_KNOB) {
		ui_knob_edit(u, r->idx, editing.end, text);
		return;
	}
	if (!strcmp(text, "auto")) {
		v = 0;
	} else if (parse_size(text, &v) || v < 1 || v > (1u << 30)) {
		ui_status(u, STY_WARN, 8, "%s %s: accepted: a size of 1 byte to 1G, or auto",
			  test_opt_name[r->idx], text);
		return;
	}
	if (r->idx == TO_SNDBUF)
		*(editing.end == END_L ? &u->p.lsndbuf : &u->p.rsndbuf) = v ? (int32_t)v : -1;
	else
		*(editing.end == END_L ? &u->p.lrcvbuf : &u->p.rrcvbuf) = v ? (int32_t)v : -1;
	ui_status(u, STY_GOOD, 4, "next run: %s %s on the %s end", test_opt_name[r->idx], text,
		  editing.end == END_L ? "local" : "remote");
}

bool panel_knobs_find(struct ui *u, struct panel *p, const char *text)
{
	build_rows(u);
	/* An exact name first, then a name that holds the text. */
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < nrows; i++) {
			const char *name = rows[i].kind == ROW_KNOB ? u->knobs[rows[i].idx].d->name :
					   rows[i].kind == ROW_TEST ? test_opt_name[rows[i].idx] : NULL;

			if (name && *text && (pass ? strstr(name, text) != NULL : !strcmp(name, text))) {
				p->cursor = (int)i;
				col = END_L;
				return true;
			}
		}
	for (unsigned i = 0; i < u->nknobs; i++)
		if (*text && strstr(u->knobs[i].d->name, text) && knob_folds(&u->knobs[i])) {
			ui_status(u, STY_WARN, 8, "%s: n/a on both ends (%s), in the folded line of %s",
				  u->knobs[i].d->name, u->knobs[i].v[END_L].reason, u->knobs[i].d->group);
			return false;
		}
	ui_status(u, STY_WARN, 5, "no knob named like '%s': / takes part of a name "
		  "(gro, tcp_rmem, rx-usecs)", text);
	return false;
}

/* Move the cursor by delta rows, over the group headings. */
static void knobs_move(struct panel *p, int delta)
{
	int c = p->cursor + delta;
	int step = delta < 0 ? -1 : 1;

	if (c < 0)
		c = 0;
	if (c >= (int)nrows)
		c = (int)nrows - 1;
	while (c >= 0 && c < (int)nrows && !selectable(&rows[c]))
		c += step;
	if (c < 0 || c >= (int)nrows)
		return;
	if (c != p->cursor)
		col = END_L;
	p->cursor = c;
}

static int knobs_key(struct ui *u, struct panel *p, int key)
{
	const struct row *r;
	char q[96], cur[KNOB_TEXT_MAX];

	if (!nrows)
		build_rows(u);
	if (!nrows)
		return 0;
	r = &rows[p->cursor < (int)nrows ? p->cursor : 0];
	if (key == TERM_KEY_UP || key == 'k')
		knobs_move(p, -1);
	else if (key == TERM_KEY_DOWN || key == 'j')
		knobs_move(p, 1);
	else if (key == TERM_KEY_PGUP)
		knobs_move(p, -(p->h - 3));
	else if (key == TERM_KEY_PGDN)
		knobs_move(p, p->h - 3);
	else if (key == TERM_KEY_LEFT || key == TERM_KEY_RIGHT)
		col = key == TERM_KEY_LEFT ? END_L : END_R;
	else if (key == ' ') {
		if (r->kind == ROW_KNOB)
			ui_knob_toggle(u, r->idx, col);
		else if (r->kind == ROW_TEST && r->idx == TO_NODELAY)
			u->p.nodelay = !u->p.nodelay;
		else
			return UK_HANDLED;
		col = END_L;
	} else if (key == '\n' || key == '\r' || key == TERM_KEY_ENTER) {
		editing.row = (unsigned)p->cursor;
		editing.end = col;
		if (r->kind == ROW_TEST && r->idx == TO_NODELAY) {
			u->p.nodelay = !u->p.nodelay;
			return UK_REDRAW;
		}
		if (r->kind == ROW_KNOB) {
			const struct ui_knob *k = &u->knobs[r->idx];

			snprintf(cur, sizeof(cur), "%s", k->has_pending[col] ? k->pending[col] :
				 k->v[col].present ? k->v[col].text : "");
			snprintf(q, sizeof(q), "%s on the %s end = ", k->d->name,
				 col == END_L ? "local" : "remote");
		} else {
			char b[32];

			snprintf(cur, sizeof(cur), "%s", test_opt_text(u, r->idx, col, b, sizeof(b)));
			snprintf(q, sizeof(q), "%s on the %s end = ", test_opt_name[r->idx],
				 col == END_L ? "local" : "remote");
		}
		ui_prompt(u, q, cur, edit_done, NULL);
		col = END_L;
	} else if (key == 'x') {
		if (r->kind == ROW_KNOB)
			ui_knob_unpend(u, r->idx, col);
	} else {
		return 0;
	}
	return UK_REDRAW;
}

const struct panel_ops panel_knobs = {
	.name = "knobs",
	.title = "Knobs",
	.draw = knobs_draw,
	.key = knobs_key,
	.min_w = 40,
	.min_h = 6,
	.help = "Up/Down move, Left/Right the end (local/remote) of the next edit, then local again, Enter edit, Space toggle on/off, x drop the pending edit",
};
