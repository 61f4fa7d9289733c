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

unsigned plan_setting_ends(enum sweep_end end, bool remote[2])
{
	if (end == SWEEP_END_BOTH) {
		remote[0] = false;
		remote[1] = true;
		return 2;
	}
	remote[0] = end == SWEEP_END_REMOTE;
	return 1;
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
	for (unsigned i = 0; i < n && i < PLAN_AB_MAX_RUNS; i++)
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
