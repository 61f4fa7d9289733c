// SPDX-License-Identifier: GPL-2.0-or-later
/* panel-runs.c - this session's runs with their key figures; two runs side by side. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot.h"
#include "term.h"
#include "compare.h"
#include "control.h"
#include "plan.h"
#include "results.h"
#include "ui.h"

/* A figure, or n/a. */
static const char *fig(double v, char *buf, size_t len)
{
	if (!isfinite(v) || v < 0)
		return "n/a";
	return plot_si(v, buf, (unsigned)len);
}

/* A CPU percentage as a whole number, or n/a. */
static const char *pct(double v, char *buf, size_t len)
{
	if (!isfinite(v) || v < 0)
		return "n/a";
	snprintf(buf, len, "%.0f", v);
	return buf;
}

/* The widths from which a run's line has its CPU and service demand
 * columns (with ids of 3 characters; wider ids take their room):
 * narrower, the service demand goes first, then the CPU. */
#define RUNS_CPU_W 46
#define RUNS_SD_W 58

/* One run's line: id, test, state, rate, p99, CPU, service demand, changes. */
static void run_row(struct grid *g, int x, int y, int w, int idw, const struct model_run *r,
		    bool sel, bool shown)
{
	char a[16], b[16], c[16], d[16], e[16], f[16];
	enum style st = sel ? STY_SELECTED : r->state == MS_FAILED ? STY_WARN :
			shown ? STY_MAIN : r->history ? STY_DIM : STY_NORMAL;
	int n;

	char id[24];

	model_run_name(r, id, sizeof(id));
	n = grid_printf(g, x, y, st, w, "%c%-*s %-10.10s %-7s %7s %6s", r->baseline ? 'B' : ' ', idw, id,
			r->point[0] ? r->point : test_type_name(r->p.type),
			model_state_name(r->state), fig(r->rate, a, sizeof(a)),
			fig(r->p99_us, b, sizeof(b)));
	if (w - idw + 3 >= RUNS_CPU_W)
		n += grid_printf(g, x + n, y, st, w - n, " %3s/%-3s", pct(r->lcpu, c, sizeof(c)),
				 pct(r->rcpu, d, sizeof(d)));
	if (w - idw + 3 >= RUNS_SD_W)
		n += grid_printf(g, x + n, y, st, w - n, " %5s/%-5s", fig(r->lsd, e, sizeof(e)),
				 fig(r->rsd, f, sizeof(f)));
	if (n < w && strlen(r->point) > 10)
		n += grid_printf(g, x + n + 1, y, STY_PENDING, w - n - 1, "[%s]", r->point) + 1;
	if (n < w && r->changes[0])
		grid_printf(g, x + n + 1, y, STY_CHANGED, w - n - 1, "%s", r->changes);
	else if (n < w && r->state == MS_FAILED)
		grid_printf(g, x + n + 1, y, STY_WARN, w - n - 1, "%s", r->failure);
}

/* a beside b: every key figure and the difference in percent. */
static int compare_rows(struct grid *g, int x, int y, int w, int h, const struct model_run *a,
			const struct model_run *b)
{
	static const char *const names[] = { "rate", "p50 us", "p99 us", "CPU local %",
					     "CPU remote %", "SD local", "SD remote" };
	double va[] = { a->rate, a->p50_us, a->p99_us, a->lcpu, a->rcpu, a->lsd, a->rsd };
	double vb[] = { b->rate, b->p50_us, b->p99_us, b->lcpu, b->rcpu, b->lsd, b->rsd };
	char s1[16], s2[16];
	int row = 0;

	char ia[16], ib[16];

	model_run_name(a, ia, sizeof(ia));
	model_run_name(b, ib, sizeof(ib));
	grid_printf(g, x, y + row++, STY_TITLE, w, "%-13s %10s %10s %8s", "run", ia, ib, "diff");
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]) && row < h; i++, row++) {
		int n = grid_printf(g, x, y + row, STY_NORMAL, w, "%-13s %10s %10s", names[i],
				    fig(va[i], s1, sizeof(s1)), fig(vb[i], s2, sizeof(s2)));

		if (isfinite(va[i]) && isfinite(vb[i]) && vb[i] > 0 && va[i] >= 0)
			grid_printf(g, x + n, y + row, STY_MAIN, w - n, " %+7.1f %%",
				    (va[i] - vb[i]) / vb[i] * 100);
	}
	if (row < h && a->has_result && b->has_result) {
		char names2[12][KNOB_NAME_MAX];
		unsigned nl = 0, nr = 0;
		int n;

		if (a->res.knobs_local && b->res.knobs_local)
			nl = knobs_snapshot_diff(b->res.knobs_local, a->res.knobs_local, names2, 6);
		if (a->res.knobs_remote && b->res.knobs_remote)
			nr = knobs_snapshot_diff(b->res.knobs_remote, a->res.knobs_remote, names2 + 6, 6);
		n = grid_text(g, x, y + row, "knobs differ:", STY_TITLE, w);
		if (!nl && !nr)
			grid_text(g, x + n + 1, y + row, "none", STY_DIM, w - n - 1);
		for (unsigned i = 0; i < 12 && n < w; i++) {
			if ((i < 6 && i >= nl) || (i >= 6 && i - 6 >= nr))
				continue;
			n += grid_printf(g, x + n, y + row, STY_CHANGED, w - n, " %s(%s)", names2[i],
					 i < 6 ? "l" : "r");
		}
		row++;
	}
	return row;
}

/* "changed: -S 8192 -> 65536, remote gro off -> on, local tso on -> off
 * (+2)": the test options then the knobs that differ (why_change()), as
 * many whole as fit in w. */
static void changed_row(struct grid *g, int x, int y, int w, const struct compare_pair *cp)
{
	const struct why_change *c = &cp->c;
	char line[512];
	size_t len = (size_t)snprintf(line, sizeof(line), "changed:");
	unsigned i;

	if (cp->options[0] && len + 1 + strlen(cp->options) <= (size_t)w)
		len += (size_t)snprintf(line + len, sizeof(line) - len, " %s", cp->options);
	for (i = 0; i < c->nknobs; i++) {
		const struct why_knob_change *k = &c->k[i];
		char one[160];
		int n = snprintf(one, sizeof(one), "%s %s %s %s -> %s", len > 8 ? "," : "", k->end,
				 k->name, k->a, k->b);

		/* Room kept for " (+N)" when some must be left out. */
		if (n < 0 || len + (size_t)n + (i + 1 < c->nknobs ? 6 : 0) > (size_t)w ||
		    len + (size_t)n >= sizeof(line))
			break;
		memcpy(line + len, one, (size_t)n + 1);
		len += (size_t)n;
	}
	if (i < c->nknobs + c->knobs_more && len + 8 < sizeof(line))
		snprintf(line + len, sizeof(line) - len, " (+%u)", c->nknobs + c->knobs_more - i);
	grid_text(g, x, y, line, STY_NORMAL, w);
}

/* Rows of what moved below the list (docs/why.md), when the panel has room. */
#define WHY_ROWS 4

/*
 * What moved from the run the selected one is compared with to it
 * (model_compared(): the run beside the one on show, else its ghost):
 * the rate against the noise, then the largest mechanisms, in rows lines.
 * The selected run is the cursor's while the panel has the focus, else
 * the run on show.  Returns the rows it used.
 */
static int why_rows(struct ui *u, struct panel *p, int x, int y, int w, int rows)
{
	struct model_run *sel = panel_focused(u, p) ? model_at(&u->model, (unsigned)p->cursor) : u->cur;
	struct model_run *cmp = model_compared(&u->model, sel, u->cur, u->compare);
	char ia[16], ib[16], s1[16], s2[16], s3[48], why[VERDICT_REASON_MAX + 2];
	const struct compare_pair *cp;
	const struct why_change *c;
	int n, rc, y0 = y;

	if (!sel)
		return 0;
	model_run_name(sel, ib, sizeof(ib));
	if (!cmp) {
		grid_printf(&p->g, x, y, STY_DIM, w, "why: no earlier run of %s to compare run %s with",
			    test_type_name(sel->p.type), ib);
		return 1;
	}
	model_run_name(cmp, ia, sizeof(ia));
	rc = compare_why(u, cmp, sel, &cp);
	if (rc == -EAGAIN) {
		grid_printf(&p->g, x, y, STY_DIM, w, "why %s vs %s: once both have ended", ib, ia);
		return 1;
	}
	if (rc) {
		const struct model_run *na = cmp->doc ? sel : cmp;

		grid_printf(&p->g, x, y, STY_DIM, w, "why %s vs %s: n/a, run %s: %s", ib, ia,
			    na == sel ? ib : ia, na->doc_na);
		return 1;
	}
	c = &cp->c;
	n = grid_printf(&p->g, x, y, STY_TITLE, w, "why %s vs %s:", ib, ia);
	n += grid_printf(&p->g, x + n, y, panel_verdict_style(c->verdict.word), w - n, " %s",
			 verdict_word_text(c->verdict.word));
	/* then as many whole parts as fit: the change, its band, the rates, why */
	if (!c->unlike && isfinite(c->change_pct)) {
		snprintf(s3, sizeof(s3), " %+.1f %%", c->change_pct);
		n += panel_text_whole(&p->g, x + n, y, w - n, s3, STY_NORMAL);
		snprintf(s3, sizeof(s3), " (noise %+.1f..%+.1f %%)", c->verdict.lo_pct, c->verdict.hi_pct);
		n += panel_text_whole(&p->g, x + n, y, w - n, s3, STY_NORMAL);
	}
	snprintf(s3, sizeof(s3), ", rate %s -> %s", fig(c->thr_a, s1, sizeof(s1)),
		 fig(c->thr_b, s2, sizeof(s2)));
	n += panel_text_whole(&p->g, x + n, y, w - n, s3, STY_NORMAL);
	snprintf(why, sizeof(why), ": %s", c->verdict.reason);
	if (!panel_text_whole(&p->g, x + n, y, w - n, why, STY_NORMAL) && rows > 1 &&
	    panel_text_whole(&p->g, x + 1, y + 1, w - 1, c->verdict.reason, STY_DIM)) {
		/* the reason on a row of its own: it says what can tell */
		y++;
		rows--;
	}
	if ((c->nknobs || cp->options[0]) && rows > 1) {
		/* What the user changed first, on one line: test options, knobs. */
		changed_row(&p->g, x + 1, y + 1, w - 1, cp);
		y++;
		rows--;
	}
	if (c->note[0] && rows > 1) {
		/* why nothing moved, or what could not be compared (why_change()) */
		grid_printf(&p->g, x + 1, y + 1, STY_WARN, w - 1, "note: %s", c->note);
		y++;
		rows--;
	}
	if (!c->n && rows > 1) {
		grid_text(&p->g, x + 1, y + 1, "moved: nothing of the mechanisms compared", STY_DIM,
			  w - 1);
		y++;
	}
	for (int i = 0; i + 1 < rows && i < (int)c->n; i++, y++)
		grid_printf(&p->g, x + 1, y + 1, STY_NORMAL, w - 1, "%d. %s", i + 1, c->m[i].text);
	return y - y0 + 1;
}

/*
 * How the newest sweep's table fits a panel: tunetop sweep's table (the
 * point, the rate, a column each, right-aligned) made narrow: a column as
 * wide as its values, a long title on two rows (split after a '_'), the
 * columns that do not fit counted at the right.
 */
struct sweep_layout {
	int nw, rw;			/* the point's and the rate's widths */
	int kw[2];			/* two crossed knobs: each one's column (nw both) */
	int w[SWEEP_COLS_MAX];
	char top[SWEEP_COLS_MAX][SWEEP_COL_NAME];	/* a title's first row, "" when one */
	char bot[SWEEP_COLS_MAX][SWEEP_COL_NAME];
	bool two;			/* a title takes two rows */
	unsigned shown;			/* the columns that fit */
};

/* A point's rate as the table writes it. */
static const char *sweep_rate_text(const struct plan_table_pt *p, char *buf, size_t len)
{
	if (isfinite(p->rate))
		snprintf(buf, len, "%.2f", p->rate);
	else
		snprintf(buf, len, "%s", p->failed ? "failed" : "n/a");
	return buf;
}

/* Title t in w cells: one row, or two split after the '_' or ' ' that fits best; the width. */
static int sweep_title_rows(const char *t, int w, char *top, char *bot, size_t len)
{
	int n = (int)strlen(t), best = -1, bw = n;

	top[0] = '\0';
	snprintf(bot, len, "%s", t);
	if (n <= w)
		return n;
	for (int i = 1; i < n - 1; i++) {
		int m = i + 1 > n - i - 1 ? i + 1 : n - i - 1;

		if ((t[i] == '_' || t[i] == ' ') && m < bw) {
			bw = m;
			best = i;
		}
	}
	if (best < 0)
		return n;
	snprintf(top, len, "%.*s", best + 1, t);
	snprintf(bot, len, "%s", t + best + 1);
	return bw;
}

static void sweep_layout(const struct plan_table *t, int width, struct sweep_layout *l)
{
	char b[32];
	int used;

	memset(l, 0, sizeof(*l));
	l->nw = 5;
	l->rw = (int)strlen(sweep_cols_rate_title(t->units, t->rr));
	for (unsigned j = 0; j < t->nknob; j++) {
		l->kw[j] = (int)strlen(t->knob[j]);
		for (unsigned i = 0; i < t->n; i++)
			if ((int)strlen(t->pt[i].knob[j]) > l->kw[j])
				l->kw[j] = (int)strlen(t->pt[i].knob[j]);
	}
	if (t->nknob == 2)
		l->nw = l->kw[0] + 1 + l->kw[1];
	for (unsigned i = 0; i < t->n; i++) {
		if (!t->nknob && (int)strlen(t->pt[i].point) > l->nw)
			l->nw = (int)strlen(t->pt[i].point);
		if (t->pt[i].ran && (int)strlen(sweep_rate_text(&t->pt[i], b, sizeof(b))) > l->rw)
			l->rw = (int)strlen(b);
	}
	used = l->nw + 1 + l->rw;
	for (unsigned c = 0; c < t->cols.n; c++) {
		int vw = 3;	/* "n/a" */

		for (unsigned i = 0; i < t->n; i++)
			if (t->pt[i].ran && (int)strlen(t->pt[i].col[c]) > vw)
				vw = (int)strlen(t->pt[i].col[c]);
		/* A title of 9 or fewer (tunetop sweep's narrowest column) stays whole. */
		l->w[c] = sweep_title_rows(sweep_cols_title(t->cols.name[c]), vw < 9 ? 9 : vw,
					   l->top[c], l->bot[c], sizeof(l->top[c]));
		if (l->w[c] < vw)
			l->w[c] = vw;
		/* Room for " +N wider" while more columns follow. */
		if (used + 1 + l->w[c] > width - 10 && c + 1 < t->cols.n)
			break;
		if (used + 1 + l->w[c] > width)
			break;
		used += 1 + l->w[c];
		l->two |= l->top[c][0] != '\0';
		l->shown++;
	}
}

/*
 * The point's cell of row i (-1: the title), l->nw wide: its name, or
 * with two crossed knobs each one's value (title) in its own column.
 */
static const char *sweep_point_cell(const struct plan_table *t, const struct sweep_layout *l,
				    int i, char *buf, size_t len)
{
	if (t->nknob == 2 && i < 0)
		snprintf(buf, len, "%-*s %-*s", l->kw[0], t->knob[0], l->kw[1], t->knob[1]);
	else if (t->nknob == 2)
		snprintf(buf, len, "%-*s %-*s", l->kw[0], t->pt[i].knob[0], l->kw[1],
			 t->pt[i].knob[1]);
	else
		snprintf(buf, len, "%s", i < 0 ? "Point" : t->pt[i].point);
	return buf;
}

/* Rows the newest sweep's table takes in a panel of ih rows: 0 when none. */
static int sweep_table_height(const struct plan_table *t, int iw, int ih)
{
	struct sweep_layout l;
	unsigned ran = 0;
	int h;

	if (!t)
		return 0;
	for (unsigned i = 0; i < t->n; i++)
		ran += t->pt[i].ran;
	sweep_layout(t, iw, &l);
	h = 2 + l.two + (int)(ran ? ran : 1);
	return h > (ih - 1) / 2 ? (ih - 1) / 2 : h;
}

/*
 * The newest sweep as tunetop sweep's table has it: the point, its rate,
 * its value in each of the sweep's columns (the engine's titles and
 * text), the cliffs once it ended; the newest points when h is short.
 */
static void sweep_table_rows(struct grid *g, int x, int y, int w, int h,
			     const struct plan_table *t)
{
	struct sweep_layout l;
	unsigned ran = 0, first = 0, k = 0;
	char b[32], cell[160];
	int n, row;

	for (unsigned i = 0; i < t->n; i++)
		ran += t->pt[i].ran;
	sweep_layout(t, w, &l);
	n = grid_putf(g, x, y, w, STY_TITLE, "sweep %s%s%s%s%s: %u of %u points", t->kind,
		      t->preset[0] ? " (preset " : "", t->preset, t->preset[0] ? ")" : "",
		      t->reverse[0] ? " reversed" : "", ran, t->n);
	if (t->reverse[0])
		n += grid_putf(g, x + n, y, w - n, STY_PENDING, "; %s", t->reverse);
	if (t->note[0])
		grid_putf(g, x + n, y, w - n, STY_DIM, "; %s", t->note);
	row = 1;
	if (l.two) {
		n = l.nw + 1 + l.rw;
		for (unsigned c = 0; c < l.shown; c++)
			n += grid_putf(g, x + n, y + row, w - n, STY_DIM, " %-*s", l.w[c], l.top[c]);
		row++;
	}
	n = grid_putf(g, x, y + row, w, STY_DIM, "%-*s %*s", l.nw,
		      sweep_point_cell(t, &l, -1, cell, sizeof(cell)), l.rw,
		      sweep_cols_rate_title(t->units, t->rr));
	for (unsigned c = 0; c < l.shown; c++)
		n += grid_putf(g, x + n, y + row, w - n, STY_DIM, " %*s", l.w[c], l.bot[c]);
	if (l.shown < t->cols.n)
		grid_putf(g, x + n, y + row, w - n, STY_WARN, " +%u wider", t->cols.n - l.shown);
	row++;
	if (ran > (unsigned)(h - row))
		first = ran - (unsigned)(h - row);
	if (!ran && row < h)
		grid_put(g, x, y + row, w, STY_DIM, "no point has ended yet");
	for (unsigned i = 0; i < t->n && row < h; i++) {
		const struct plan_table_pt *p = &t->pt[i];

		if (!p->ran || k++ < first)
			continue;
		n = grid_putf(g, x, y + row, w, p->failed ? STY_WARN : STY_NORMAL, "%-*s %*s",
			      l.nw, sweep_point_cell(t, &l, (int)i, cell, sizeof(cell)), l.rw,
			      sweep_rate_text(p, b, sizeof(b)));
		for (unsigned c = 0; c < l.shown; c++)
			n += grid_putf(g, x + n, y + row, w - n, STY_NORMAL, " %*s", l.w[c],
				       p->col[c][0] ? p->col[c] : "n/a");
		/* tunetop sweep's marker, shorter when the panel is narrow. */
		if (p->cliff && w - n >= 40)
			grid_putf(g, x + n, y + row, w - n, STY_WARN,
				  "  <-- cliff: %.0f %% below its neighbours", p->drop_pct);
		else if (p->cliff)
			grid_putf(g, x + n, y + row, w - n, STY_WARN, " cliff -%.0f%%",
				  p->drop_pct);
		row++;
	}
}

static void runs_draw(struct ui *u, struct panel *p)
{
	const struct model *m = &u->model;
	int ix, iy, iw, ih, lh, th, wr, n, idw = 3;

	panel_frame(u, p, &ix, &iy, &iw, &ih);
	if (!m->nruns) {
		grid_text(&p->g, ix + 1, iy, "no run yet", STY_DIM, iw - 1);
		return;
	}
	if (p->cursor >= (int)m->nruns)
		p->cursor = (int)m->nruns - 1;
	wr = ih >= 2 * WHY_ROWS ? WHY_ROWS : ih >= 4 ? 1 : 0;
	lh = (u->compare && u->cur ? ih - 10 : ih - 1) - wr;
	if (lh < 2)
		lh = ih - 1 - wr;
	/* The newest sweep's table below the list, while the list keeps two rows. */
	th = sweep_table_height(u->sweep, iw - 1, ih);
	if (lh - th < 2)
		th = 0;
	lh -= th;
	/* What moved at the bottom; rows it leaves unused go to a list
	 * that needs them (drawn again in the rows it used: it is cached). */
	if (wr) {
		int used = why_rows(u, p, ix, iy + ih - wr, iw, wr);

		if (used < wr && (int)m->nruns > lh) {
			grid_fill(&p->g, ix, iy + ih - wr, iw, wr, " ", STY_NORMAL);
			lh += wr - used;
			why_rows(u, p, ix, iy + ih - used, iw, used);
		}
	}
	/* The id column as wide as the widest history id on the list. */
	for (unsigned i = 0; i < m->nruns; i++) {
		char id[24];
		int l = (int)strlen(model_run_name(m->runs[i], id, sizeof(id)));

		if (l > idw)
			idw = l;
	}
	n = grid_printf(&p->g, ix, iy, STY_DIM, iw, " %-*s %-10s %-7s %7s %6s", idw, "#", "test", "state",
			"rate", "p99us");
	if (iw - idw + 3 >= RUNS_CPU_W)
		n += grid_printf(&p->g, ix + n, iy, STY_DIM, iw - n, " %7s", "CPU%l/r");
	if (iw - idw + 3 >= RUNS_SD_W)
		n += grid_printf(&p->g, ix + n, iy, STY_DIM, iw - n, " %11s", "SD l/r");
	grid_printf(&p->g, ix + n, iy, STY_DIM, iw - n, " %s", "knobs changed");
	/* Newest at the bottom; with the focus, the cursor kept in view,
	 * without it the newest runs in view. */
	if (!panel_focused(u, p))
		p->scroll = (int)m->nruns > lh ? (int)m->nruns - lh : 0;
	else if (p->cursor < p->scroll)
		p->scroll = p->cursor;
	else if (p->cursor >= p->scroll + lh)
		p->scroll = p->cursor - lh + 1;
	for (int i = 0; i < lh && p->scroll + i < (int)m->nruns; i++) {
		const struct model_run *r = m->runs[p->scroll + i];

		run_row(&p->g, ix, iy + 1 + i, iw, idw, r, panel_focused(u, p) && p->scroll + i == p->cursor,
			r == u->cur);
	}
	if (th)
		sweep_table_rows(&p->g, ix + 1, iy + 1 + lh, iw - 1, th, u->sweep);
	if (u->compare && u->cur && lh + th < ih - 1 - wr)
		compare_rows(&p->g, ix, iy + 1 + lh + th, iw, ih - 1 - lh - th - wr, u->cur, u->compare);
}

static int runs_key(struct ui *u, struct panel *p, int key)
{
	struct model_run *r;

	if (!u->model.nruns)
		return 0;
	if (key == TERM_KEY_UP || key == 'k') {
		if (p->cursor > 0)
			p->cursor--;
		return UK_REDRAW;
	}
	if (key == TERM_KEY_DOWN || key == 'j') {
		if (p->cursor + 1 < (int)u->model.nruns)
			p->cursor++;
		return UK_REDRAW;
	}
	r = model_at(&u->model, (unsigned)p->cursor);
	if (!r)
		return 0;
	if (key == '\n' || key == '\r' || key == TERM_KEY_ENTER) {
		char a[24] = "none", b[24];

		u->compare = r == u->cur ? NULL : r;
		u->compare_note[0] = '\0';
		if (u->cur)
			model_run_name(u->cur, a, sizeof(a));
		model_run_name(r, b, sizeof(b));
		if (r == u->cur)
			ui_status(u, STY_NORMAL, 4, "comparison off");
		else
			ui_status(u, STY_NORMAL, 4, "run %s beside run %s", a, b);
		return UK_REDRAW;
	}
	if (key == 'v') {
		char err[ERR_MAX];

		if (results_open_run(u, r->db_id, err))
			ui_status(u, STY_WARN, 8, "v: %s", err);
		return UK_REDRAW;
	}
	if (key == 'o') {
		if (u->state != UI_IDLE) {
			ui_status(u, STY_WARN, 4, "a run is in flight: o shows another when it ends");
			return UK_HANDLED;
		}
		u->cur = r;
		if (u->compare == r)
			u->compare = NULL;
		return UK_REDRAW;
	}
	return 0;
}

const struct panel_ops panel_runs = {
	.name = "runs",
	.title = "Runs",
	.draw = runs_draw,
	.key = runs_key,
	.min_w = 40,
	.min_h = 5,
	.help = "Up/Down select (what moved: below), Enter compare with the run on show, o show it (then b makes it the baseline), v the results of its sweep or A/B",
};
