// SPDX-License-Identifier: GPL-2.0-or-later
/* plan.c - a series of runs as both front ends plan it: knob settings, the A/B verdict and seed, the MSS a size sweep plans around. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "knobs/knobs.h"
#include "lab/lab.h"
#include "plan/plan.h"

int plan_knob_find(const struct catalog *c, const char *name, const struct knob_def **d,
		   char *err)
{
	*d = catalog_find(c, name);
	if (!*d)
		return err_set(err, -ENOENT, "%s: unknown knob; accepted: a name `tunetop knobs list` shows",
			       name);
	if (knobs_read_only(*d))
		return err_set(err, -EROFS, "%s: %s; accepted: a knob that can be set", (*d)->name,
			       knobs_read_only(*d));
	return 0;
}

int plan_setting_parse(const struct catalog *c, const char *spec, struct plan_setting *s,
		       char *err)
{
	char name[KNOB_NAME_MAX];
	const char *body = sweep_knob_end(spec, &s->end), *eq = strchr(body, '=');
	struct knob_value v;
	int rc;

	s->d = NULL;
	s->value[0] = '\0';
	if (!eq || eq == body)
		return err_set(err, -EINVAL, "\"%.64s\" is not NAME=VALUE; accepted: " PLAN_SETTING_ACCEPTS,
			       spec);
	if ((size_t)(eq - body) >= sizeof(name))
		return err_set(err, -ENOENT, "%.*s...: unknown knob; accepted: a name `tunetop knobs list` shows",
			       40, body);
	memcpy(name, body, (size_t)(eq - body));
	name[eq - body] = '\0';
	rc = plan_knob_find(c, name, &s->d, err);
	if (rc)
		return rc;
	rc = knob_parse_value(s->d, eq + 1, &v, err);
	if (rc)
		return rc;
	snprintf(s->value, sizeof(s->value), "%s", v.text);
	return 0;
}

int plan_side_parse(const struct catalog *c, const char *spec, struct plan_setting *s,
		    unsigned max, unsigned *n, int *test, char *err)
{
	char buf[4096], item[KNOB_NAME_MAX + KNOB_TEXT_MAX + 8], *save = NULL, *w;
	bool have = false;
	int rc;

	*n = 0;
	*test = -1;
	item[0] = '\0';
	if (strlen(spec) >= sizeof(buf))
		return err_set(err, -EINVAL, "longer than %zu characters", sizeof(buf) - 1);
	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *t = buf; *t; t++)
		if (*t == '-' && (t == buf || strchr(", \t\n", t[-1]))) {
			*test = (int)(t - buf);
			*t = '\0';
			break;
		}
	/* Each item is parsed when the next one starts (or at the end). */
	for (w = strtok_r(buf, ", \t\n", &save);; w = strtok_r(NULL, ", \t\n", &save)) {
		if (w && !strchr(w, '=')) {
			size_t l = strlen(item);

			if (!have)
				return err_set(err, -EINVAL, "\"%.64s\" is not NAME=VALUE; accepted: " PLAN_SETTING_ACCEPTS " separated by commas or spaces",
					       w);
			snprintf(item + l, sizeof(item) - l, " %s", w);
			continue;
		}
		if (have) {
			if (*n == max)
				return err_set(err, -EINVAL, "more than %u knobs", max);
			rc = plan_setting_parse(c, item, &s[*n], err);
			if (rc)
				return rc;
			(*n)++;
		}
		if (!w)
			return 0;
		if (strlen(w) >= sizeof(item))
			return err_set(err, -EINVAL, "\"%.40s...\" longer than %zu characters; accepted: " PLAN_SETTING_ACCEPTS,
				       w, sizeof(item) - 1);
		snprintf(item, sizeof(item), "%s", w);
		have = true;
	}
}

int plan_alpha_parse(const char *text, double *alpha, char *err)
{
	double a;

	if (!text || parse_double(text, 0, 0.5, &a) || !(a > 0))
		return err_set(err, -EINVAL, "--alpha %s: not a significance level; accepted: 0 < alpha <= 0.5 (e.g. 0.05)",
			       text ? text : "");
	*alpha = a;
	return 0;
}

int plan_pairs_parse(const char *text, unsigned *pairs, char *err)
{
	uint64_t v;

	if (!text || parse_uint(text, PLAN_AB_MIN_PAIRS, PLAN_AB_MAX_PAIRS, &v))
		return err_set(err, -EINVAL, "-n %s: accepted: %d-%d pairs", text ? text : "",
			       PLAN_AB_MIN_PAIRS, PLAN_AB_MAX_PAIRS);
	*pairs = (unsigned)v;
	return 0;
}

int plan_knob_begin(const struct catalog *c, struct plan_knob *k, const char *const *values,
		    unsigned n, char *err)
{
	struct knob_value cur;
	int rc = knobs_plan_check(c, k->d, &k->t, values, n, &cur, err);

	if (rc)
		return rc;
	snprintf(k->original, sizeof(k->original), "%s", cur.text);
	snprintf(k->now, sizeof(k->now), "%s", cur.text);
	return 0;
}

int plan_knob_set(struct knobs_txn *txn, struct plan_knob *k, const char *want, char *err)
{
	struct knob_value after;
	int rc;

	if (!strcmp(want, k->now))
		return 0;
	rc = knobs_txn_set(txn, k->d, &k->t, want, NULL, &after, err);
	if (!rc)
		snprintf(k->now, sizeof(k->now), "%s", after.present ? after.text : want);
	return rc;
}

uint64_t plan_ab_seed(void)
{
	uint64_t t = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);

	return ab_rand(&t) % 1000000;
}

int plan_ab_compare(const double *a, unsigned na, const double *b, unsigned nb, double alpha,
		    uint64_t seed, unsigned m, struct ab_result *r)
{
	return ab_compare(a, na, b, nb, alpha, PLAN_AB_BOOT,
			  seed ^ (0x100000001b3ULL * (uint64_t)(m + 1)), r);
}

int plan_ab_judge(const int *side, const double *fig, unsigned n, double alpha, uint64_t seed,
		  unsigned m, struct ab_result *r, unsigned *na, unsigned *nb)
{
	double v[2][PLAN_AB_MAX_RUNS];
	unsigned c[2] = { 0, 0 };

	memset(r, 0, sizeof(*r));
	/* Too many runs: none counted, rather than the first MAX of them. */
	if (n <= PLAN_AB_MAX_RUNS)
		for (unsigned i = 0; i < n; i++)
			if (!isnan(fig[i]))
				v[!!side[i]][c[!!side[i]]++] = fig[i];
	if (na)
		*na = c[0];
	if (nb)
		*nb = c[1];
	if (n > PLAN_AB_MAX_RUNS)
		return -EINVAL;
	return plan_ab_compare(v[0], c[0], v[1], c[1], alpha, seed, m, r);
}

int plan_ab_median(const int *side, const double *fig, unsigned n, int s)
{
	double v[PLAN_AB_MAX_RUNS];

	if (n > PLAN_AB_MAX_RUNS)
		return -1;
	for (unsigned i = 0; i < n; i++)
		v[i] = side[i] == s ? fig[i] : NAN;
	return ab_median_run(v, n);
}

void plan_ab_order(uint64_t seed, unsigned pairs, int *first)
{
	uint64_t rng = seed;

	for (unsigned i = 0; i < pairs; i++)
		first[i] = ab_pair_first(&rng);
}

uint32_t plan_sweep_mss(const struct session_result *r, bool response)
{
	const struct end_result *e[2] = { response ? &r->remote : &r->local,
					  response ? &r->local : &r->remote };

	for (int i = 0; i < 2; i++)
		if (e[i]->nsocks && e[i]->socks[0].tcp.has && e[i]->socks[0].tcp.snd_mss)
			return e[i]->socks[0].tcp.snd_mss;
	return 0;
}

void plan_setting_text(const struct knob_def *d, bool remote, const char *value, char *buf,
		       size_t len)
{
	snprintf(buf, len, "%s%s=%s", remote ? "remote:" : "", d->name, value);
}

int plan_ab_record_add(struct plan_ab_record *r, int s, const char *text, char *err)
{
	if (r->n[s] == PLAN_AB_REC_ITEMS)
		return err_set(err, -EINVAL, "side %c: more than %d settings", 'A' + s,
			       PLAN_AB_REC_ITEMS);
	snprintf(r->item[s][r->n[s]++], PLAN_AB_REC_TEXT, "%s", text);
	return 0;
}

json_t *plan_ab_record_json(const struct plan_ab_record *r)
{
	json_t *side[2] = { json_array(), json_array() }, *j;

	for (int s = 0; s < 2; s++)
		for (unsigned i = 0; side[s] && i < r->n[s]; i++)
			if (json_array_append_new(side[s], json_string(r->item[s][i])))
				json_decref(side[s]), side[s] = NULL;
	if (!side[0] || !side[1]) {
		json_decref(side[0]);
		json_decref(side[1]);
		return NULL;
	}
	j = json_pack("{s:o, s:o, s:i, s:I, s:s}", "a", side[0], "b", side[1], "n",
		      (int)r->pairs, "seed", (json_int_t)r->seed, "front", r->front);
	if (j && isfinite(r->alpha) && json_object_set_new(j, "alpha", json_real(r->alpha)))
		json_decref(j), j = NULL;
	return j;
}

/* The dashboard's first records: its prompt's words, "--a X --b Y -n N --seed S". */
static int plan_ab_record_words(const char *text, struct plan_ab_record *r, char *err)
{
	char copy[400], *save = NULL, *w;

	snprintf(copy, sizeof(copy), "%s", text);
	for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		const char *v = strtok_r(NULL, " ", &save);
		uint64_t x;

		if (!v)
			break;
		if (!strcmp(w, "--a") || !strcmp(w, "--b")) {
			char *save2 = NULL, *item;

			for (item = strtok_r((char *)v, ",", &save2); item;
			     item = strtok_r(NULL, ",", &save2))
				if (plan_ab_record_add(r, w[2] - 'a', item, err))
					return -EINVAL;
		} else if (!strcmp(w, "-n") && !parse_uint(v, 1, 1000, &x)) {
			r->pairs = (unsigned)x;
		} else if (!strcmp(w, "--alpha")) {
			plan_alpha_parse(v, &r->alpha, err);
		}
	}
	return 0;
}

int plan_ab_record_read(const json_t *spec, struct plan_ab_record *r, char *err)
{
	const json_t *side[2] = { json_object_get(spec, "a"), json_object_get(spec, "b") };
	const json_t *words = json_object_get(spec, "spec"), *v;

	memset(r, 0, sizeof(*r));
	r->alpha = NAN;
	r->pairs = 5;		/* the dashboard's default, before its records said */
	if (!json_is_object(spec))
		return err_set(err, -EINVAL, "A/B record: not a JSON object");
	if (json_is_string(words)) {
		snprintf(r->front, sizeof(r->front), "dashboard");
		if (plan_ab_record_words(json_string_value(words), r, err))
			return -EINVAL;
	} else if (json_is_array(side[0]) && json_is_array(side[1])) {
		snprintf(r->front, sizeof(r->front), "%s",
			 json_is_string(json_object_get(spec, "front")) ?
			 json_string_value(json_object_get(spec, "front")) : "tunetop ab");
		for (int s = 0; s < 2; s++) {
			size_t i;

			json_array_foreach(side[s], i, v)
				if (json_is_string(v) && plan_ab_record_add(r, s, json_string_value(v), err))
					return -EINVAL;
		}
		if (json_is_integer(json_object_get(spec, "n")))
			r->pairs = (unsigned)json_integer_value(json_object_get(spec, "n"));
	} else {
		return err_set(err, -EINVAL, "A/B record: neither sides \"a\" and \"b\" nor the dashboard's \"spec\"");
	}
	v = json_object_get(spec, "seed");
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return err_set(err, -EINVAL, "A/B record: no seed");
	r->seed = (uint64_t)json_integer_value(v);
	if (json_is_number(json_object_get(spec, "alpha")))
		r->alpha = json_number_value(json_object_get(spec, "alpha"));
	return 0;
}

void plan_target_text(const struct session_opts *so, char *buf, size_t len)
{
	if (so->host)
		snprintf(buf, len, "tunetopd at %s", so->host);
	else if (so->lab)
		snprintf(buf, len, "lab: %s", lab_name(so->lab));
	else
		snprintf(buf, len, "loopback (%s)", so->why ? so->why : "embedded server");
}

json_t *plan_sweep_record_json(const struct plan_sweep_record *r)
{
	json_t *spec = json_pack("{s:s, s:s, s:s, s:b}", "kind", sweep_policy_kind_name(r->kind),
				 "test", r->test, "target", r->target, "reverse", r->reverse);
	json_t *pts = json_array(), *knobs = json_array();
	bool bad = !spec || !pts || !knobs;

	for (unsigned i = 0; !bad && i < r->npoints; i++)
		bad = json_array_append_new(pts, json_string(r->points[i])) != 0;
	for (unsigned j = 0; !bad && j < r->nknobs; j++) {
		json_t *vals = json_array();

		for (unsigned i = 0; vals && i < r->knob[j].n; i++)
			if (json_array_append_new(vals, json_string(r->knob[j].values[i])))
				json_decref(vals), vals = NULL;
		bad = !vals || json_array_append_new(knobs, json_pack("{s:s, s:s, s:o}", "name",
								      r->knob[j].name, "side",
								      r->knob[j].remote ? "remote" : "local",
								      "values", vals)) != 0;
	}
	if (!bad)
		bad = json_object_set_new(spec, "points", pts) ||
		      json_object_set_new(spec, "knobs", knobs);
	else
		json_decref(pts), json_decref(knobs);
	pts = knobs = NULL;
	if (!bad && r->cols)
		bad = sweep_cols_to_spec(r->cols, spec) != 0;
	if (!bad && r->kind == SW_SIZE)
		bad = json_object_set_new(spec, "mss", json_integer(r->mss)) ||
		      json_object_set_new(spec, "response", json_boolean(r->response));
	if (!bad && r->preset)
		bad = json_object_set_new(spec, "preset", json_string(r->preset)) != 0;
	if (!bad && r->front)
		bad = json_object_set_new(spec, "front", json_string(r->front)) != 0;
	if (bad) {
		json_decref(spec);
		return NULL;
	}
	return spec;
}
