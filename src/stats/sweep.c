// SPDX-License-Identifier: GPL-2.0-or-later
/* sweep.c - sweep points (seed 000's packet_byte_script), value lists, cliffs
 * in a curve. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/sweep.h"

#define SWEEP_SIZE_ACCEPTS                                                     \
	"non-negative integers with an optional K/M/G (x1024) or k/m/g "       \
	"(x1000) suffix"
#define SWEEP_KNOB_ACCEPTS "name=v1,v2,... (e.g. rx-usecs=0,16,64)"

/*
 * packet_byte_script (netperf doc/examples, seed 000): start at 1 byte,
 * double while still below the MSS, then MSS, MSS+1, 2MSS, 2MSS+1, 3MSS,
 * 3MSS+1 -- the +1 points cost one more segment each.
 */
int sweep_sizes(uint32_t mss, uint32_t *out, unsigned max)
{
	uint64_t p, m;
	unsigned n = 0;

	if (mss == 0 || mss > (UINT32_MAX - 1) / 3 || (!out && max))
		return -EINVAL;
	for (p = 1; p < mss && n < max; p *= 2)
		out[n++] = (uint32_t)p;
	for (m = 1; m <= 3 && n < max; m++) {
		out[n++] = (uint32_t)(m * mss);
		if (n < max)
			out[n++] = (uint32_t)(m * mss + 1);
	}
	return (int)n;
}

/* Length of s[0..len) without leading and trailing blanks; *start gets the
 * first non-blank. */
static size_t sweep_trim(const char *s, size_t len, const char **start)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	*start = s;
	return len;
}

int sweep_parse_list(const char *s, uint64_t *out, unsigned max, unsigned *n,
		     char *err)
{
	const char *p, *item;
	unsigned count = 0;

	if (n)
		*n = 0;
	if (!s || !out || !n)
		return err_set(err, -EINVAL, "value list: missing");
	if (!*s)
		return err_set(err, -EINVAL, "value list: empty (accepted: %s)",
			       SWEEP_SIZE_ACCEPTS);
	for (p = s;; p++) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char tmp[32];
		uint64_t v;
		int rc;

		len = sweep_trim(p, len, &item);
		if (!len)
			return err_set(err, -EINVAL,
				       "value list \"%.64s\": item %u is empty "
				       "(accepted: %s)",
				       s, count + 1, SWEEP_SIZE_ACCEPTS);
		if (count == max)
			return err_set(
			    err, -EINVAL,
			    "value list \"%.64s\": more than %u values", s,
			    max);
		rc = -EINVAL;
		if (len < sizeof(tmp)) {
			memcpy(tmp, item, len);
			tmp[len] = '\0';
			rc = parse_size(tmp, &v);
		}
		if (rc == -ERANGE)
			return err_set(
			    err, -EINVAL,
			    "value list: \"%.*s\": too large (at most %llu)",
			    (int)(len > 40 ? 40 : len), item,
			    (unsigned long long)UINT64_MAX);
		if (rc)
			return err_set(
			    err, -EINVAL,
			    "value list: \"%.*s\": not a size (accepted: %s)",
			    (int)(len > 40 ? 40 : len), item,
			    SWEEP_SIZE_ACCEPTS);
		out[count++] = v;
		if (!end)
			break;
		p = end;
	}
	*n = count;
	return 0;
}

void sweep_knob_point_name(enum sweep_end end, const char *name, const char *value, char *buf,
			   size_t len)
{
	static const char *const prefix[] = {
		[SWEEP_END_LOCAL] = "", [SWEEP_END_REMOTE] = "remote:", [SWEEP_END_BOTH] = "both:",
	};
	char whole[512];

	snprintf(whole, sizeof(whole), "%s%s=%s", prefix[end], name, value);
	/* The store keeps 63 characters. */
	snprintf(buf, len, "%.63s", whole);
}

/* A knob as a point of two names it: "rx-usecs", "remote:tcp_sack". */
static const char *sweep_knob_label(const struct sweep_knob_axis *a, char *buf, size_t len)
{
	const char *dot = strrchr(a->name, '.');

	snprintf(buf, len, "%s%s", a->end == SWEEP_END_REMOTE ? "remote:" : "",
		 dot ? dot + 1 : a->name);
	return buf;
}

int sweep_knob_plan(const struct sweep_knob_axis *ax, unsigned nax, struct sweep_knob_pt *pt,
		    unsigned max, unsigned *n, char *err)
{
	unsigned n0, n1;

	*n = 0;
	if (nax < 1 || nax > 2)
		return err_set(err, -EINVAL, "knob: %u knobs; accepted: one, or two crossed: [local:|remote:]NAME=V1,... [local:|remote:]NAME2=W1,...",
			       nax);
	if (nax == 2 && (ax[0].end == SWEEP_END_BOTH || ax[1].end == SWEEP_END_BOTH))
		return err_set(err, -EINVAL, "knob: both:%s sweeps one knob alone; accepted: both:NAME=V1,V2,... or up to two [local:|remote:]NAME=V1,...",
			       ax[ax[0].end == SWEEP_END_BOTH ? 0 : 1].name);
	if (nax == 2 && !strcmp(ax[0].name, ax[1].name) && ax[0].end == ax[1].end)
		return err_set(err, -EINVAL, "knob: %s twice on the same side; accepted: two different knobs, or local: and remote:",
			       ax[0].name);
	n0 = ax[0].n;
	n1 = nax == 2 ? ax[1].n : 1;
	if (!n0 || !n1 || n0 * n1 > max)
		return err_set(err, -EINVAL, "knob: %u points; accepted: at most %u", n0 * n1, max);
	for (unsigned a = 0; a < n0; a++)
		for (unsigned b = 0; b < n1; b++) {
			struct sweep_knob_pt *p = &pt[(*n)++];
			char l0[160], l1[160], whole[512];

			p->ki[0] = a;
			p->ki[1] = nax == 2 ? b : a;
			if (nax == 1) {
				sweep_knob_point_name(ax[0].end, ax[0].name, ax[0].values[a], p->name,
						      sizeof(p->name));
				continue;
			}
			snprintf(whole, sizeof(whole), "%s=%s,%s=%s",
				 sweep_knob_label(&ax[0], l0, sizeof(l0)), ax[0].values[a],
				 sweep_knob_label(&ax[1], l1, sizeof(l1)), ax[1].values[b]);
			/* The store keeps 63 characters; a JSON has the values whole. */
			snprintf(p->name, sizeof(p->name), "%.63s", whole);
		}
	return 0;
}

/* The prefix of each end, as a knob spec writes it. */
/* Each end of a setting: its prefix and the ends it is made on (remote flags). */
static const struct {
	const char *prefix;
	unsigned n;
	bool remote[2];
} sweep_ends[] = {
	[SWEEP_END_LOCAL] = { "local:", 1, { false } },
	[SWEEP_END_REMOTE] = { "remote:", 1, { true } },
	[SWEEP_END_BOTH] = { "both:", 2, { false, true } },
};

const char *sweep_end_prefix(enum sweep_end end)
{
	return (unsigned)end <= SWEEP_END_BOTH ? sweep_ends[end].prefix : "";
}

unsigned sweep_end_sides(enum sweep_end end, bool remote[2])
{
	if ((unsigned)end > SWEEP_END_BOTH)
		end = SWEEP_END_LOCAL;
	memcpy(remote, sweep_ends[end].remote, sizeof(sweep_ends[end].remote));
	return sweep_ends[end].n;
}

/* Which end a knob spec names; the rest of the spec is returned. */
const char *sweep_knob_end(const char *spec, enum sweep_end *end)
{
	*end = SWEEP_END_LOCAL;
	for (unsigned i = SWEEP_END_LOCAL; i <= SWEEP_END_BOTH; i++) {
		size_t len = strlen(sweep_ends[i].prefix);

		if (!strncmp(spec, sweep_ends[i].prefix, len)) {
			*end = (enum sweep_end)i;
			return spec + len;
		}
	}
	return spec;
}

/* Knob names as the catalog spells them: ethtool's rx-usecs, sysctl's
 * net.ipv4.x or net/ipv4/x. */
static bool sweep_name_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || !isalpha((unsigned char)s[0]))
		return false;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!isalnum(c) && c != '-' && c != '_' && c != '.' && c != '/')
			return false;
	}
	return true;
}

int sweep_parse_knob(const char *spec, char *name, size_t nlen, char *buf,
		     size_t blen, const char **values, unsigned max,
		     unsigned *n, char *err)
{
	const char *eq, *p, *item;
	size_t len, used = 0;
	unsigned count = 0;

	if (n)
		*n = 0;
	if (!spec || !name || !nlen || !buf || !values || !n)
		return err_set(err, -EINVAL, "knob sweep: missing");
	eq = strchr(spec, '=');
	if (!eq)
		return err_set(err, -EINVAL,
			       "knob sweep \"%.64s\": no '=' (accepted: %s)",
			       spec, SWEEP_KNOB_ACCEPTS);
	len = sweep_trim(spec, (size_t)(eq - spec), &item);
	if (!sweep_name_ok(item, len))
		return err_set(
		    err, -EINVAL,
		    "knob sweep \"%.64s\": bad knob name \"%.*s\" (accepted: a "
		    "catalog "
		    "name such as rx-usecs or net.ipv4.tcp_notsent_lowat)",
		    spec, (int)(len > 64 ? 64 : len), item);
	if (len >= nlen)
		return err_set(err, -EINVAL,
			       "knob sweep: name \"%.*s\" longer than %zu",
			       (int)(len > 64 ? 64 : len), item, nlen - 1);
	memcpy(name, item, len);
	name[len] = '\0';
	for (p = eq + 1;; p++) {
		const char *end = strchr(p, ',');
		size_t i;

		len = sweep_trim(p, end ? (size_t)(end - p) : strlen(p), &item);
		if (!len)
			return err_set(
			    err, -EINVAL,
			    "knob sweep %s: value %u is empty (accepted: %s)",
			    name, count + 1, SWEEP_KNOB_ACCEPTS);
		for (i = 0; i < len; i++)
			if (!isgraph((unsigned char)item[i]))
				return err_set(err, -EINVAL,
					       "knob sweep %s: value \"%.*s\" "
					       "has a blank (accepted: "
					       "values without blanks, "
					       "separated by commas)",
					       name, (int)(len > 40 ? 40 : len),
					       item);
		if (count == max)
			return err_set(err, -EINVAL,
				       "knob sweep %s: more than %u values",
				       name, max);
		if (used + len + 1 > blen)
			return err_set(
			    err, -EINVAL,
			    "knob sweep %s: values longer than %zu bytes", name,
			    blen);
		memcpy(buf + used, item, len);
		buf[used + len] = '\0';
		values[count++] = buf + used;
		used += len + 1;
		if (!end)
			break;
		p = end;
	}
	*n = count;
	return 0;
}

/* The noise of point i: its own figure, else noise_pct of its rate. */
static double sweep_noise(const double *rate, const double *noise, unsigned i,
			  double noise_pct)
{
	if (noise && noise[i] > 0 && isfinite(noise[i]))
		return noise[i];
	return fabs(rate[i]) * noise_pct / 100;
}

/*
 * A point is measured against the straight line through its nearest
 * measured neighbours (by index; a NAN point is skipped, never taken as
 * 0), or against its one neighbour at an end.  The expected value's
 * noise is that line's: (1-w)^2 s_l^2 + w^2 s_r^2.  A step down (seed
 * 000's rate stayed low past 3MSS+1) flags its first low point; a dip
 * flags its bottom.
 */
unsigned sweep_cliffs(const double *rate, const double *noise, unsigned n,
		      double noise_pct, double k, double min_drop_pct,
		      bool *cliff, double *drop_pct)
{
	unsigned i, found = 0;

	if (!rate || !cliff)
		return 0;
	for (i = 0; i < n; i++) {
		cliff[i] = false;
		if (drop_pct)
			drop_pct[i] = NAN;
	}
	for (i = 0; i < n; i++) {
		double expect, var, s, drop;
		long l, r;

		if (!isfinite(rate[i]))
			continue;
		for (l = (long)i - 1; l >= 0 && !isfinite(rate[l]); l--)
			;
		for (r = (long)i + 1; r < (long)n && !isfinite(rate[r]); r++)
			;
		if (l >= 0 && r < (long)n) {
			double w = (double)((long)i - l) / (double)(r - l);
			double sl =
			    sweep_noise(rate, noise, (unsigned)l, noise_pct);
			double sr =
			    sweep_noise(rate, noise, (unsigned)r, noise_pct);

			expect = rate[l] + w * (rate[r] - rate[l]);
			var = (1 - w) * (1 - w) * sl * sl + w * w * sr * sr;
		} else if (l >= 0 || r < (long)n) {
			unsigned j = (unsigned)(l >= 0 ? l : r);
			double sj = sweep_noise(rate, noise, j, noise_pct);

			expect = rate[j];
			var = sj * sj;
		} else {
			continue;
		}
		s = sweep_noise(rate, noise, i, noise_pct);
		drop = expect - rate[i];
		if (expect > 0 && drop > k * sqrt(s * s + var) &&
		    100 * drop / expect > min_drop_pct) {
			cliff[i] = true;
			if (drop_pct)
				drop_pct[i] = 100 * drop / expect;
			found++;
		}
	}
	return found;
}
