// SPDX-License-Identifier: GPL-2.0-or-later
/* sweep-out.c - `tunetop sweep`'s output: point lines, cliffs, table, --json. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine.h"
#include "options.h"
#include "sweep-out.h"
#include "why-out.h"

/* Text of a figure, "n/a" when missing. */
static const char *sweep_num(char *buf, size_t len, double v, int prec)
{
	if (!isfinite(v))
		return "n/a";
	snprintf(buf, len, "%.*f", prec, v);
	return buf;
}

/* Width of column i: its title or its widest value, at least 9. */
static int sweep_col_width(const struct sweep *sw, unsigned i)
{
	int w = (int)strlen(sweep_cols_title(sw->cols.name[i]));

	for (unsigned k = 0; k < sw->nrun; k++)
		if ((int)strlen(sw->pt[k].col[i]) > w)
			w = (int)strlen(sw->pt[k].col[i]);
	return w < 9 ? 9 : w;
}

/* Width of the point column. */
static int sweep_name_width(const struct sweep *sw)
{
	int w = 12;

	for (unsigned i = 0; i < sw->npt; i++)
		if ((int)strlen(sw->pt[i].name) > w)
			w = (int)strlen(sw->pt[i].name);
	return w;
}

/* The column titles of the per-point lines and the table. */
static void sweep_titles(const struct sweep *sw)
{
	bool rr = test_is_rr(sw->o.so.p.type);
	char ci[32];

	snprintf(ci, sizeof(ci), "+-%.0f%%ci", sw->o.it.level);
	printf("%-*s %12s", sweep_name_width(sw), "Point",
	       sweep_cols_rate_title(sw->units, rr));
	if (sw->o.iterating)
		printf(" %10s", ci);
	for (unsigned i = 0; i < sw->cols.n; i++)
		printf(" %*s", sweep_col_width(sw, i), sweep_cols_title(sw->cols.name[i]));
	if (!sw->o.no_db)
		printf(" %6s", "Run");
	printf("\n");
}

/* One point as a line of the table (without its newline). */
void sweep_out_row(const struct sweep *sw, const struct sweep_point *p)
{
	char b[2][32];

	printf("%-*s ", sweep_name_width(sw), p->name);
	if (p->failed && !isfinite(p->thr)) {
		printf("failed: %s", p->failure);
		return;
	}
	printf("%12s", sweep_num(b[0], 32, p->thr, 2));
	if (sw->o.iterating)
		printf(" %10s", sweep_num(b[1], 32, p->ci, 2));
	for (unsigned i = 0; i < sw->cols.n; i++)
		printf(" %*s", sweep_col_width(sw, i), p->col[i][0] ? p->col[i] : "n/a");
	if (!sw->o.no_db) {
		if (p->run_id)
			printf(" %6lld", (long long)p->run_id);
		else
			printf(" %6s", "-");
	}
	if (p->failed)
		printf("  (failed: %s)", p->failure);
}

/* The sweep as stored with store_add_sweep, the engine's one shape
 * (plan_sweep_record_json): what was asked for. */
json_t *sweep_out_spec_json(const struct sweep *sw)
{
	static const char *names[SWEEP_MAX_POINTS];
	struct plan_sweep_record r = {
		.kind = sw->kind, .target = sw->target, .reverse = sw->reverse,
		.npoints = sw->npt, .points = names, .nknobs = sw->nknobs, .cols = &sw->cols,
		.mss = sw->mss, .response = sw->response,
	};
	char text[256];

	r.test = params_text(&sw->o.so.p, text, sizeof(text));
	for (unsigned i = 0; i < sw->npt; i++)
		names[i] = sw->pt[i].name;
	for (unsigned j = 0; j < sw->nknobs; j++)
		r.knob[j] = (struct plan_sweep_knob){ .name = sw->knob[j].d->name,
						      .remote = sw->knob[j].remote,
						      .n = sw->knob[j].n,
						      .values = sw->knob[j].values };
	return plan_sweep_record_json(&r);
}

/*
 * Mark the cliffs of the points run by the engine's one rule
 * (sweep_policy_cliffs, docs/sweeps.md): failed points are gaps, each
 * row of a two-knob sweep is a curve, as the report and the dashboard
 * have it.
 */
unsigned sweep_out_mark_cliffs(struct sweep *sw)
{
	struct sweep_policy_pt pt[SWEEP_MAX_POINTS];
	unsigned found;

	for (unsigned i = 0; i < sw->nrun; i++) {
		const struct sweep_point *p = &sw->pt[i];

		pt[i] = (struct sweep_policy_pt){
			.point = p->name,
			.rate = p->failed ? NAN : p->thr,
			.ci = p->ci,
			.tick_sd = p->tick_sd,
		};
	}
	found = sweep_policy_cliffs(pt, sw->nrun);
	for (unsigned i = 0; i < sw->nrun; i++) {
		sw->pt[i].noise = pt[i].noise;
		sw->pt[i].noise_src = pt[i].noise_src;
		sw->pt[i].cliff = pt[i].cliff;
		sw->pt[i].drop_pct = pt[i].drop_pct;
		sw->pt[i].before = pt[i].before;
	}
	return found;
}

/* One cliff's runs from the store s: what moved from the point before. */
static void sweep_cliff_moved(struct sweep *sw, struct store *s, struct sweep_point *p)
{
	const struct sweep_point *b = p->before >= 0 ? &sw->pt[p->before] : NULL;
	struct store_run r[2];
	int rc = 0;

	if (!b) {
		snprintf(p->moved_na, sizeof(p->moved_na), "no point before it");
		return;
	}
	if (!b->run_id || !p->run_id) {
		snprintf(p->moved_na, sizeof(p->moved_na), "run of %s not stored",
			 b->run_id ? p->name : b->name);
		return;
	}
	store_run_init(&r[0]);
	store_run_init(&r[1]);
	rc = store_get(s, b->run_id, &r[0], p->moved_na);
	if (!rc)
		rc = store_get(s, p->run_id, &r[1], p->moved_na);
	if (!rc) {
		p->moved = malloc(sizeof(*p->moved));
		if (p->moved)
			store_why_change(&r[0], &r[1], p->moved);
		else
			snprintf(p->moved_na, sizeof(p->moved_na), "out of memory");
	}
	store_run_free(&r[0]);
	store_run_free(&r[1]);
}

void sweep_out_cliffs_moved(struct sweep *sw, const char *db, bool no_db)
{
	struct store *s = NULL;
	char err[ERR_MAX] = "";
	bool any = false;

	for (unsigned i = 0; i < sw->nrun; i++) {
		struct sweep_point *p = &sw->pt[i];

		free(p->moved);
		p->moved = NULL;
		p->moved_na[0] = '\0';
		if (!p->cliff)
			continue;
		if (no_db) {
			snprintf(p->moved_na, sizeof(p->moved_na), "the runs were not stored");
			continue;
		}
		if (!any && store_open(&s, db, err))
			s = NULL;
		any = true;
		if (!s)
			snprintf(p->moved_na, sizeof(p->moved_na), "%s", err);
		else
			sweep_cliff_moved(sw, s, p);
	}
	store_close(s);
}

/* A number for JSON, null when missing. */
static json_t *sweep_jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The --json document: kind, target, test, points, cliffs. */
int sweep_out_json(const struct sweep *sw)
{
	json_t *doc = sweep_out_spec_json(sw), *pts = json_array(), *cliffs = json_array();
	json_t *moved = json_array();
	char *s;

	for (unsigned i = 0; i < sw->nrun; i++) {
		const struct sweep_point *p = &sw->pt[i];
		json_t *value;

		if (sw->kind != SW_KNOB) {
			value = json_integer((json_int_t)p->value);
		} else if (!sw->nknobs) {
			const char *text;	/* a stored sweep (sweep show) */

			sweep_policy_point_x(p->name, NULL, 0, &text);
			value = json_string(text);
		} else if (sw->nknobs == 1 || sw->both) {
			value = json_string(sw->knob[0].values[p->ki[0]]);
		} else {
			value = json_pack("[s,s]", sw->knob[0].values[p->ki[0]],
					  sw->knob[1].values[p->ki[1]]);
		}
		json_array_append_new(pts, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:i, s:o, s:o, s:b, s:o, s:b, s:o}",
			"point", p->name, "value", value,
			"run_id", p->run_id ? json_integer(p->run_id) : json_null(),
			"throughput", sweep_jnum(p->thr), "ci", sweep_jnum(p->ci),
			"p50", sweep_jnum(p->p50), "p99", sweep_jnum(p->p99),
			"lcpu", sweep_jnum(p->lcpu), "rcpu", sweep_jnum(p->rcpu),
			"iterations", (int)p->iterations, "noise", sweep_jnum(p->noise),
			"noise_from", isfinite(p->noise) ?
				json_string(sweep_policy_noise_name(p->noise_src)) : json_null(),
			"cliff", p->cliff,
			"drop_pct", sweep_jnum(p->drop_pct), "failed", p->failed,
			"failure", p->failed ? json_string(p->failure) : json_null()));
		json_object_set(json_array_get(pts, json_array_size(pts) - 1), "columns",
				p->colv ? p->colv : json_null());
		if (p->cliff) {
			const struct sweep_point *b = p->before >= 0 ? &sw->pt[p->before] : NULL;

			json_array_append_new(cliffs, json_string(p->name));
			json_array_append_new(moved, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}",
				"point", p->name, "from", b ? json_string(b->name) : json_null(),
				"run_id", p->run_id ? json_integer(p->run_id) : json_null(),
				"from_run_id", b && b->run_id ? json_integer(b->run_id) : json_null(),
				"moved", p->moved ? why_out_json(p->moved) : json_null(),
				"moved_na", p->moved ? json_null() : json_string(p->moved_na)));
		}
	}
	json_object_set_new(doc, "points", pts);
	json_object_set_new(doc, "cliffs", cliffs);
	json_object_set_new(doc, "cliff_moved", moved);
	json_object_set_new(doc, "cliff_rule",
			    json_pack("{s:f, s:f, s:f, s:b}", "k", sweep_cliff_rule.k,
				      "min_drop_pct", sweep_cliff_rule.min_drop_pct,
				      "noise_floor_pct", sweep_cliff_rule.noise_floor_pct,
				      "first_is_foot", sweep_cliff_rule.first_is_foot));
	json_object_set_new(doc, "units", json_string(sw->units));
	json_object_set_new(doc, "sweep_id", sw->sweep_id ? json_integer(sw->sweep_id) : json_null());
	json_object_set_new(doc, "planned", json_integer(sw->npt));
	json_object_set_new(doc, "interrupted", json_boolean(sw->interrupted));
	json_object_set_new(doc, "knobs_restored", json_boolean(!sw->restore_failed));
	s = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	if (!s)
		return -ENOMEM;
	printf("%s\n", s);
	free(s);
	return 0;
}

/* The final table, cliffs marked. */
void sweep_out_table(const struct sweep *sw)
{
	char rule[512];

	printf("\nSweep %s", sweep_policy_kind_name(sw->kind));
	if (sw->sweep_id)
		printf(" %lld", (long long)sw->sweep_id);
	printf(": %u of %u points", sw->nrun, sw->npt);
	if (sw->target[0])
		printf(", %s", sw->target);
	printf("\n");
	sweep_titles(sw);
	for (unsigned i = 0; i < sw->nrun; i++) {
		const struct sweep_point *p = &sw->pt[i];

		sweep_out_row(sw, p);
		if (p->cliff)
			printf("  <-- cliff: %.0f %% below its neighbours", p->drop_pct);
		if (p->moved && p->moved->n) {
			printf("; moved: ");
			why_out_change(stdout, p->moved, sw->units, WHY_OUT_BRIEF, "", 3);
		}
		printf("\n");
	}
	printf("Cliffs: %s\n", sweep_policy_rule_text(rule, sizeof(rule)));
	for (unsigned i = 0; i < sw->nrun; i++) {
		const struct sweep_point *p = &sw->pt[i];

		if (!p->cliff)
			continue;
		if (!p->moved) {
			printf("What moved at cliff %s: n/a (%s)\n", p->name, p->moved_na);
			continue;
		}
		printf("What moved at cliff %s, from %s (run %lld -> run %lld; docs/why.md):\n",
		       p->name, sw->pt[p->before].name, (long long)sw->pt[p->before].run_id,
		       (long long)p->run_id);
		why_out_change(stdout, p->moved, sw->units, WHY_OUT_TEXT, "  ", WHY_CHANGE_MAX);
	}
	if (sw->interrupted)
		printf("Interrupted: %u of %u points run\n", sw->nrun, sw->npt);
	if (sw->unreachable)
		printf("Stopped: the target cannot be reached\n");
}

/* The header: what is swept, on what test (first), against what target. */
void sweep_out_header(const struct sweep *sw, const struct test_params *first)
{
	char text[256];
	const struct run_opts *o = &sw->o;

	printf("tunetop sweep %s", sweep_policy_kind_name(sw->kind));
	if (sw->kind == SW_SIZE && sw->list_given)
		printf(": %s sizes %s%s", sw->response ? "response" : "request", sw->list_text,
		       strstr(sw->list_text, "..") ? " around the MSS (packet_byte_script)" : "");
	else if (sw->kind == SW_SIZE)
		printf(": %s sizes 1, 2, 4 ... below the MSS, MSS, MSS+1 ... 3MSS+1 (packet_byte_script)",
		       sw->response ? "response" : "request");
	else if (sw->kind == SW_BURST && sw->reverse)
		printf(" (reverse: %s; --set sides swapped so each knob stays on its %s)",
		       target_reverse_desc(&o->so), o->so.lab_reverse ? "side" : "end");
	if (sweep_policy_needs_mss(sw->kind, sw->list_given ? sw->list_text : NULL) &&
	    !sw->mss_given)
		printf(", the points follow the first one's MSS\n");
	else
		printf(", %u point%s\n", sw->npt, sw->npt == 1 ? "" : "s");
	printf("Test: %s%s\n", params_text(first, text, sizeof(text)),
	       sw->kind != SW_KNOB ? " (the first point)" : "");
	if (o->so.host && o->so.netserver)
		printf("Target: netserver at %s port %s\n", o->so.host, o->so.port ? o->so.port : NS_DEFAULT_PORT);
	else if (o->so.host)
		printf("Target: tunetopd at %s%s%s\n", o->so.host, o->so.port ? " port " : "",
		       o->so.port ? o->so.port : "");
	else if (o->so.lab)
		printf("Target: lab %s (client in %s-%c, server in %s-%c)\n", lab_name(o->so.lab),
		       lab_name(o->so.lab), o->so.lab_reverse ? 'b' : 'a',
		       lab_name(o->so.lab), o->so.lab_reverse ? 'a' : 'b');
	else
		printf("Target: loopback (%s)\n", o->so.why ? o->so.why : "embedded server");
	for (unsigned j = 0; j < sw->nknobs; j++)
		printf("Knob %s on %s: %s now, swept over %u values\n", sw->knob[j].d->name,
		       knobs_side_name(&sw->knob[j].ch.t), sw->knob[j].ch.original, sw->knob[j].n);
	if (sw->cols_note[0])
		printf("Columns: %s\n", sw->cols_note);
	sweep_titles(sw);
	fflush(stdout);
}

void sweep_out_point_cols(const struct sweep *sw, struct sweep_point *p, const json_t *result)
{
	json_decref(p->colv);
	p->colv = result ? json_object() : NULL;
	for (unsigned i = 0; i < sw->cols.n; i++) {
		sweep_cols_text(result, sw->cols.name[i], p->col[i], sizeof(p->col[i]));
		if (p->colv)
			json_object_set_new(p->colv, sw->cols.name[i],
					    sweep_cols_value(result, sw->cols.name[i]));
	}
}

/* The rate of point p as the table has it; "" for a failed point. */
static const char *sweep_rate_text(const struct sweep_point *p, char *buf, size_t len)
{
	if (p->failed && !isfinite(p->thr))
		return "";
	return sweep_num(buf, len, p->thr, 2);
}

void sweep_out_csv(const struct sweep *sw)
{
	char b[32];

	if (sw->o.headers) {
		printf("POINT,THROUGHPUT");
		for (unsigned i = 0; i < sw->cols.n; i++)
			printf(",%s", sw->cols.name[i]);
		printf(",CLIFF,RUN_ID\n");
	}
	for (unsigned k = 0; k < sw->nrun; k++) {
		const struct sweep_point *p = &sw->pt[k];

		/* Knob values may hold commas: the point's name is always quoted. */
		csv_put_quoted(stdout, p->name);
		printf(",%s", sweep_rate_text(p, b, sizeof(b)));
		for (unsigned i = 0; i < sw->cols.n; i++) {
			putchar(',');
			csv_put(stdout, p->col[i][0] ? p->col[i] : "n/a");
		}
		printf(",%s,", p->cliff ? "yes" : "no");
		if (p->run_id)
			printf("%lld", (long long)p->run_id);
		printf("\n");
	}
}

void sweep_out_keyval(const struct sweep *sw)
{
	char b[32];

	for (unsigned k = 0; k < sw->nrun; k++) {
		const struct sweep_point *p = &sw->pt[k];

		printf("%sPOINT=%s\nTHROUGHPUT=%s\n", k ? "\n" : "", p->name,
		       sweep_rate_text(p, b, sizeof(b)));
		for (unsigned i = 0; i < sw->cols.n; i++)
			printf("%s=%s\n", sw->cols.name[i], p->col[i][0] ? p->col[i] : "n/a");
		printf("CLIFF=%s\n", p->cliff ? "yes" : "no");
		if (p->run_id)
			printf("RUN_ID=%lld\n", (long long)p->run_id);
		if (p->failed)
			printf("FAILURE=%s\n", p->failure);
	}
}

void sweep_out_free(struct sweep *sw)
{
	for (unsigned k = 0; k < sw->npt; k++) {
		json_decref(sw->pt[k].colv);
		sw->pt[k].colv = NULL;
		free(sw->pt[k].moved);
		sw->pt[k].moved = NULL;
	}
}
