// SPDX-License-Identifier: GPL-2.0-or-later
/* sweep-policy.c - one sweep policy: point plans, point names and the cliff
 * rule that `tunetop sweep`, the dashboard and `tunetop report` all use
 * (docs/sweeps.md). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/sweep-policy.h"

/*
 * The rule (docs/sweeps.md "Cliffs"): seed 000's drop at 3MSS+1 was
 * 70 %, so 20 % beyond 3 noise widths finds it with room to spare, while
 * a 3 % floor keeps a quiet point's tiny tick spread from making cliffs
 * of ordinary wobble.  The first point of a curve has nothing before it
 * to fall from: below its one neighbour it is the foot of a rise (seed
 * 001's burst 0), not a cliff.
 */
const struct sweep_cliff_rule sweep_cliff_rule = {
	.k = 3.0,
	.min_drop_pct = 20.0,
	.noise_floor_pct = 3.0,
	.first_is_foot = true,
};

static const char *const sweep_policy_kinds[SWEEP_NKINDS] = {
	[SW_SIZE] = "size",
	[SW_BURST] = "burst",
	[SW_KNOB] = "knob",
	[SW_SEND] = "send-size",
};

const char *sweep_policy_kind_name(enum sweep_kind kind)
{
	return (unsigned)kind < SWEEP_NKINDS ? sweep_policy_kinds[kind] : "?";
}

int sweep_policy_kind_parse(const char *name, enum sweep_kind *kind)
{
	for (unsigned i = 0; name && i < SWEEP_NKINDS; i++)
		if (!strcmp(name, sweep_policy_kinds[i])) {
			*kind = (enum sweep_kind)i;
			return 0;
		}
	return -EINVAL;
}

bool sweep_policy_needs_mss(enum sweep_kind kind, const char *list)
{
	return kind == SW_SIZE && (!list || strstr(list, ".."));
}

/* "LO..HI" into *lo and *hi; 0, or -EINVAL with err. */
static int sweep_size_range(const char *list, uint64_t *lo, uint64_t *hi, char *err)
{
	const char *dots = strstr(list, "..");
	char a[32], b[32];

	if ((size_t)(dots - list) >= sizeof(a) || strlen(dots + 2) >= sizeof(b))
		return err_set(err, -EINVAL, "size \"%.40s\": not a range; accepted: " SWEEP_SIZE_LIST_ACCEPTS,
			       list);
	snprintf(a, sizeof(a), "%.*s", (int)(dots - list), list);
	snprintf(b, sizeof(b), "%s", dots + 2);
	if (parse_size(a, lo) || parse_size(b, hi) || *lo < 1 || *lo > *hi || *hi > UINT32_MAX)
		return err_set(err, -EINVAL, "size \"%.40s\": not a range of sizes from 1 up; accepted: " SWEEP_SIZE_LIST_ACCEPTS,
			       list);
	return 0;
}

/* Point v of a range into out (max of them); -EINVAL with err when full. */
static int sweep_size_add(uint64_t v, uint64_t *out, unsigned max, unsigned *n, char *err)
{
	if (*n == max)
		return err_set(err, -EINVAL, "size: more than %u points in the range; accepted: a narrower range (or --mss N larger)",
			       max);
	out[(*n)++] = v;
	return 0;
}

/* packet_byte_script's points between lo and hi (the MSS's every multiple
 * up to hi, not only three), with lo and hi, ascending. */
static int sweep_size_range_plan(uint32_t mss, uint64_t lo, uint64_t hi, uint64_t *out,
				 unsigned max, unsigned *n, char *err)
{
	int rc = sweep_size_add(lo, out, max, n, err);

	for (uint64_t p = 1; !rc && p < mss; p *= 2)
		if (p > lo && p < hi)
			rc = sweep_size_add(p, out, max, n, err);
	for (uint64_t m = mss; !rc && m < hi; m += mss)
		for (uint64_t p = m; !rc && p <= m + 1; p++)
			if (p > lo && p < hi)
				rc = sweep_size_add(p, out, max, n, err);
	if (!rc && hi > lo)
		rc = sweep_size_add(hi, out, max, n, err);
	return rc;
}

int sweep_policy_plan(enum sweep_kind kind, const char *list, uint32_t mss,
		      uint64_t *out, unsigned max, unsigned *n, char *err)
{
	uint32_t sizes[SWEEP_MAX_POINTS];
	uint64_t lo, hi;
	int k;

	*n = 0;
	switch (kind) {
	case SW_SIZE:
		if (!max)
			return err_set(err, -EINVAL, "size: no room for points");
		if (list && !strstr(list, ".."))
			return sweep_parse_list(list, out, max, n, err);
		if (list && sweep_size_range(list, &lo, &hi, err))
			return -EINVAL;
		if (list && !mss) {
			out[(*n)++] = lo;
			return 0;
		}
		if (list)
			return sweep_size_range_plan(mss, lo, hi, out, max, n, err);
		if (!mss) {
			out[(*n)++] = 1;
			return 0;
		}
		k = sweep_sizes(mss, sizes, max < SWEEP_MAX_POINTS ? max : SWEEP_MAX_POINTS);
		if (k < 0)
			return err_set(err, -EINVAL,
				       "size: MSS %u; accepted: 1 to %u bytes", mss,
				       (UINT32_MAX - 1) / 3);
		for (int i = 0; i < k; i++)
			out[(*n)++] = sizes[i];
		return 0;
	case SW_BURST:
	case SW_SEND:
		if (!list)
			list = kind == SW_BURST ? SWEEP_DEFAULT_BURSTS : SWEEP_DEFAULT_SEND_SIZES;
		return sweep_parse_list(list, out, max, n, err);
	default:
		return err_set(err, -EINVAL, "%s: not a sweep of numbers; accepted: size, burst, send-size",
			       sweep_policy_kind_name(kind));
	}
}

int sweep_policy_point_params(enum sweep_kind kind, bool response, uint64_t v,
			      struct test_params *p, char *err)
{
	uint64_t max = test_is_udp(p->type) ? TT_MAX_UDP_MSG : TT_MAX_MSG;
	char why[ERR_MAX];

	switch (kind) {
	case SW_SIZE:
	case SW_SEND:
		if (v < 1 || v > max)
			return err_set(err, -EINVAL, "%s: %llu bytes is out of range; accepted: 1 to %llu",
				       sweep_policy_kind_name(kind), (unsigned long long)v,
				       (unsigned long long)max);
		if (kind == SW_SEND)
			p->send_size = (uint32_t)v;
		else if (response)
			p->resp_size = (uint32_t)v;
		else
			p->req_size = (uint32_t)v;
		break;
	case SW_BURST:
		if (v > TT_MAX_BURST)
			return err_set(err, -EINVAL, "burst: %llu is out of range; accepted: 0-%u requests in flight beyond the first",
				       (unsigned long long)v, TT_MAX_BURST);
		p->burst = (uint32_t)v;
		break;
	default:
		return 0;
	}
	if (params_validate(p, why))
		return err_set(err, -EINVAL, "%s %llu: %s", sweep_policy_kind_name(kind),
			       (unsigned long long)v, why);
	return 0;
}

const char *sweep_policy_point_name(enum sweep_kind kind, bool response,
				    uint64_t v, char *buf, size_t len)
{
	snprintf(buf, len, "%s=%llu",
		 kind == SW_SIZE && response ? "resp" : sweep_policy_kind_name(kind),
		 (unsigned long long)v);
	return buf;
}

double sweep_policy_point_x(const char *point, char *curve, size_t clen,
			    const char **x_text)
{
	const char *eq = strrchr(point, '='), *text, *comma = NULL;
	uint64_t sz;
	char *end;
	double v;

	text = eq ? eq + 1 : point;
	/* The curve: what comes before the last knob's ",NAME=". */
	for (const char *c = point; eq && c < eq; c++)
		if (*c == ',')
			comma = c;
	if (curve && clen)
		snprintf(curve, clen, "%.*s", comma ? (int)(comma - point) : 0, point);
	if (x_text)
		*x_text = text;
	v = strtod(text, &end);
	if (end != text && !*end && isfinite(v))
		return v;
	if (!parse_size(text, &sz))
		return (double)sz;
	return NAN;
}

double sweep_policy_spread(const double *v, unsigned n)
{
	double sum = 0, sq = 0;
	unsigned m = 0;

	for (unsigned i = 0; v && i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		sum += v[i];
		sq += v[i] * v[i];
		m++;
	}
	return m < 2 ? NAN : sqrt(fmax(0, (sq - sum * sum / m) / (m - 1)));
}

const char *sweep_policy_noise_name(enum sweep_noise_src src)
{
	static const char *const names[] = {
		[SWEEP_NOISE_CI] = "ci", [SWEEP_NOISE_TICKS] = "ticks",
		[SWEEP_NOISE_FLOOR] = "floor",
	};

	return (unsigned)src < sizeof(names) / sizeof(names[0]) ? names[src] : "?";
}

double sweep_policy_noise(const struct sweep_policy_pt *p,
			  enum sweep_noise_src *src)
{
	double floor = isfinite(p->rate) ? fabs(p->rate) * sweep_cliff_rule.noise_floor_pct / 100 : NAN;
	double own = NAN;

	*src = SWEEP_NOISE_FLOOR;
	if (isfinite(p->ci) && p->ci > 0) {
		own = p->ci;
		*src = SWEEP_NOISE_CI;
	} else if (isfinite(p->tick_sd) && p->tick_sd > 0) {
		own = p->tick_sd;
		*src = SWEEP_NOISE_TICKS;
	}
	if (isfinite(own) && !(own < floor))
		return own;
	*src = SWEEP_NOISE_FLOOR;
	return floor;
}

/* Mark one curve: the points idx[0..m) in the order the rule reads them. */
static unsigned sweep_policy_curve(struct sweep_policy_pt *pt, const unsigned *idx,
				   unsigned m)
{
	double rate[SWEEP_MAX_POINTS], noise[SWEEP_MAX_POINTS], drop[SWEEP_MAX_POINTS];
	bool cliff[SWEEP_MAX_POINTS];
	unsigned found = 0;

	for (unsigned i = 0; i < m; i++) {
		rate[i] = pt[idx[i]].rate;
		noise[i] = pt[idx[i]].noise;
	}
	sweep_cliffs(rate, noise, m, sweep_cliff_rule.noise_floor_pct, sweep_cliff_rule.k,
		     sweep_cliff_rule.min_drop_pct, cliff, drop);
	for (unsigned i = 0; sweep_cliff_rule.first_is_foot && i < m; i++)
		if (isfinite(rate[i])) {
			cliff[i] = false;
			drop[i] = NAN;
			break;
		}
	for (unsigned i = 0, last = m; i < m; i++) {
		pt[idx[i]].cliff = cliff[i];
		pt[idx[i]].drop_pct = drop[i];
		pt[idx[i]].before = last < m ? (int)idx[last] : -1;
		if (isfinite(rate[i]))
			last = i;
		found += cliff[i];
	}
	return found;
}

unsigned sweep_policy_cliffs(struct sweep_policy_pt *pt, unsigned n)
{
	char key[SWEEP_MAX_POINTS][64], other[64];
	unsigned idx[SWEEP_MAX_POINTS], found = 0;
	bool done[SWEEP_MAX_POINTS] = { false };

	if (!pt)
		return 0;
	if (n > SWEEP_MAX_POINTS)
		n = SWEEP_MAX_POINTS;
	for (unsigned i = 0; i < n; i++) {
		pt[i].x = sweep_policy_point_x(pt[i].point ? pt[i].point : "", key[i],
					       sizeof(key[i]), NULL);
		pt[i].noise = sweep_policy_noise(&pt[i], &pt[i].noise_src);
		pt[i].cliff = false;
		pt[i].drop_pct = NAN;
		pt[i].before = -1;
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned m = 0;
		bool numeric = true;

		if (done[i])
			continue;
		snprintf(other, sizeof(other), "%s", key[i]);
		for (unsigned j = i; j < n; j++)
			if (!done[j] && !strcmp(key[j], other)) {
				done[j] = true;
				idx[m++] = j;
				numeric &= isfinite(pt[j].x);
			}
		/* In order of x (stable, so equal x keep their order). */
		for (unsigned a = 1; numeric && a < m; a++)
			for (unsigned b = a; b > 0 && pt[idx[b - 1]].x > pt[idx[b]].x; b--) {
				unsigned t = idx[b];

				idx[b] = idx[b - 1];
				idx[b - 1] = t;
			}
		found += sweep_policy_curve(pt, idx, m);
	}
	return found;
}

const char *sweep_policy_rule_text(char *buf, size_t len)
{
	snprintf(buf, len,
		 "a drop beyond %g x the noise (each point's confidence half-width with "
		 "-i/-I, else the standard deviation of its tick rates, at least %g %% of "
		 "its rate) and %g %% below its neighbours' line; a curve's first point "
		 "is %s",
		 sweep_cliff_rule.k, sweep_cliff_rule.noise_floor_pct,
		 sweep_cliff_rule.min_drop_pct,
		 sweep_cliff_rule.first_is_foot ? "never one (the foot of a rise)" : "measured against its one neighbour");
	return buf;
}
