// SPDX-License-Identifier: GPL-2.0-or-later
/* why-out.c - what moved between two runs (why-change.h), as every CLI output shows it. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include <jansson.h>

#include "engine.h"
#include "svg.h"
#include "why-out.h"

/*
 * "Throughput A -> B: 100 -> 120 Trans/s: BETTER +20.0 % (noise -9.1..+10.0 %)"
 * (the reason of the verdict goes on a line of its own).
 */
static void why_out_thr(const struct why_change *c, const char *units, char *buf, size_t len)
{
	char v[96];

	snprintf(buf, len, "Throughput A -> B: %.6g -> %.6g %s: %s", c->thr_a, c->thr_b, units,
		 c->unlike ? verdict_word_text(c->verdict.word) :
			     verdict_text(&c->verdict, v, sizeof(v)));
}

void why_out_change(FILE *f, const struct why_change *c, const char *units,
		    enum why_out_style st, const char *prefix, unsigned max)
{
	unsigned n = c->n < max ? c->n : max;
	char thr[256];

	why_out_thr(c, units, thr, sizeof(thr));
	switch (st) {
	case WHY_OUT_TEXT:
		fprintf(f, "%s%s\n%s  %s\n", prefix, thr, prefix, c->verdict.reason);
		if (!n)
			fprintf(f, "%sWhat moved with it: nothing of the mechanisms compared (docs/why.md)\n",
				prefix);
		else {
			fprintf(f, "%sWhat moved with it, largest first (docs/why.md):\n", prefix);
			for (unsigned i = 0; i < n; i++)
				fprintf(f, "%s  %u. %s\n", prefix, i + 1, c->m[i].text);
		}
		if (c->note[0])
			fprintf(f, "%sNote: %s\n", prefix, c->note);
		return;
	case WHY_OUT_HTML:
		fprintf(f, "<p id=\"%s-thr\">", prefix);
		svg_escf(f, "%s: %s.", thr, c->verdict.reason);
		fprintf(f, "</p>\n<ol id=\"%s\">", prefix);
		for (unsigned i = 0; i < n; i++) {
			fputs("<li>", f);
			svg_esc(f, c->m[i].text);
			fputs("</li>", f);
		}
		if (!n)
			fputs("<li>nothing of the mechanisms compared (docs/why.md)</li>", f);
		fputs("</ol>\n", f);
		if (c->note[0]) {
			fprintf(f, "<p id=\"%s-note\">Note: ", prefix);
			svg_esc(f, c->note);
			fputs("</p>\n", f);
		}
		return;
	case WHY_OUT_BRIEF:
		for (unsigned i = 0; i < n; i++)
			fprintf(f, "%s%s", i ? ", " : "", c->m[i].what);
		return;
	}
}

void why_out_knobs(FILE *f, const struct why_change *c, int64_t ida, int64_t idb,
		   const char *prefix)
{
	if (!c->knobs_recorded) {
		fprintf(f, "%sKnobs: not recorded in both runs\n", prefix);
		return;
	}
	if (!c->nknobs) {
		fprintf(f, "%sKnobs: the same on both ends\n", prefix);
		return;
	}
	fprintf(f, "%sKnobs that differ (run %" PRId64 " -> run %" PRId64 "):\n", prefix, ida, idb);
	for (unsigned i = 0; i < c->nknobs; i++)
		fprintf(f, "%s  %s\n", prefix, c->k[i].text);
	if (c->knobs_more)
		fprintf(f, "%s  and %u more (tunetop runs show ID --json lists every knob)\n", prefix,
			c->knobs_more);
}

/* A number for JSON, null when n/a. */
static json_t *why_out_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *why_out_json(const struct why_change *c)
{
	json_t *moved = json_array();
	const struct verdict *v = &c->verdict;
	json_t *doc = json_pack("{s:o, s:o, s:o, s:b, s:b, s:{s:s, s:o, s:o, s:o, s:s, s:i, s:s}}",
				"throughput_a", why_out_num(c->thr_a),
				"throughput_b", why_out_num(c->thr_b),
				"change_pct", why_out_num(c->change_pct),
				"beyond_noise", c->beyond_noise, "unlike", c->unlike,
				"verdict", "word", verdict_word_text(v->word),
				"change_pct", why_out_num(v->delta_pct),
				"noise_lo_pct", why_out_num(v->lo_pct),
				"noise_hi_pct", why_out_num(v->hi_pct),
				"noise_from", verdict_src_text(v->src), "noise_runs", (int)v->nsrc,
				"reason", v->reason);

	if (!doc || !moved) {
		json_decref(doc);
		json_decref(moved);
		return NULL;
	}
	for (unsigned i = 0; i < c->n; i++)
		json_array_append_new(moved, json_pack("{s:s, s:o, s:o, s:o, s:s}", "what", c->m[i].what,
						       "a", why_out_num(c->m[i].a),
						       "b", why_out_num(c->m[i].b),
						       "score", why_out_num(c->m[i].score),
						       "text", c->m[i].text));
	json_object_set_new(doc, "moved", moved);
	if (c->knobs_recorded) {
		json_t *knobs = json_array();

		for (unsigned i = 0; knobs && i < c->nknobs; i++)
			json_array_append_new(knobs, json_pack("{s:s, s:s, s:s, s:s, s:s}", "end", c->k[i].end,
							       "name", c->k[i].name, "group", c->k[i].group,
							       "a", c->k[i].a, "b", c->k[i].b));
		json_object_set_new(doc, "knobs", knobs ? knobs : json_null());
		json_object_set_new(doc, "knobs_more", json_integer(c->knobs_more));
	} else {
		json_object_set_new(doc, "knobs", json_null());
	}
	if (c->note[0])
		json_object_set_new(doc, "note", json_string(c->note));
	return doc;
}
