// SPDX-License-Identifier: GPL-2.0-or-later
/* ethtool-features.c - offloads (ethtool -k / -K) by bit name over netlink. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/ethtool.h>

#include "knobs/backend.h"
#include "knobs/ethtool-nl.h"
#include "core/util.h"

/* Which of the four bitsets of a FEATURES reply a parse fills. */
enum feature_set { FEAT_HW, FEAT_WANTED, FEAT_ACTIVE, FEAT_NOCHANGE };

/* Point at the bool of set s in bit b. */
static bool *feature_flag(struct ethtool_feature *b, enum feature_set s)
{
	switch (s) {
	case FEAT_HW:
		return &b->hw;
	case FEAT_WANTED:
		return &b->wanted;
	case FEAT_ACTIVE:
		return &b->active;
	default:
		return &b->nochange;
	}
}

/*
 * Parse one bit nest of a list-form bitset: index, name, and the VALUE
 * flag (with a mask) or mere presence (NOMASK: only set bits are listed).
 */
static int bitset_bit_parse(struct nlattr *bit, bool nomask,
			    enum feature_set s, struct ethtool_features *out,
			    char *err)
{
	struct nlattr *tb[TT_ETHTOOL_PARSE_MAX + 1] = { NULL };
	struct ethtool_feature *b;
	uint32_t idx;

	if (nla_parse_nested(tb, TT_ETHTOOL_PARSE_MAX, bit, NULL) < 0 ||
	    !tb[ETHTOOL_A_BITSET_BIT_INDEX])
		return err_set(err, -EINVAL, "features reply: bad bit");
	idx = nla_get_u32(tb[ETHTOOL_A_BITSET_BIT_INDEX]);
	if (idx >= ETHTOOL_FEATURE_BITS)
		return err_set(err, -E2BIG, "features reply: bit %u beyond %d",
			       idx, ETHTOOL_FEATURE_BITS);
	b = &out->bit[idx];
	if (tb[ETHTOOL_A_BITSET_BIT_NAME])
		nla_strlcpy(b->name, tb[ETHTOOL_A_BITSET_BIT_NAME],
			    sizeof(b->name));
	*feature_flag(b, s) = nomask || tb[ETHTOOL_A_BITSET_BIT_VALUE];
	if (idx + 1 > out->n)
		out->n = idx + 1;
	return 0;
}

/*
 * Parse one bitset nest, in either form: compact (SIZE, VALUE and MASK
 * words) or list (BITS of BIT nests with names).
 */
static int bitset_parse(struct nlattr *set, enum feature_set s,
			struct ethtool_features *out, bool *compact, char *err)
{
	struct nlattr *tb[TT_ETHTOOL_PARSE_MAX + 1] = { NULL };
	bool nomask;

	if (nla_parse_nested(tb, TT_ETHTOOL_PARSE_MAX, set, NULL) < 0)
		return err_set(err, -EINVAL, "features reply: bad bitset");
	nomask = tb[ETHTOOL_A_BITSET_NOMASK] != NULL;
	if (tb[ETHTOOL_A_BITSET_SIZE]) {
		uint32_t size = nla_get_u32(tb[ETHTOOL_A_BITSET_SIZE]);

		if (size > ETHTOOL_FEATURE_BITS)
			return err_set(err, -E2BIG,
				       "features reply: %u bits, at most %d",
				       size, ETHTOOL_FEATURE_BITS);
		if (size > out->n)
			out->n = size;
	}
	if (tb[ETHTOOL_A_BITSET_VALUE]) {
		const uint32_t *words = nla_data(tb[ETHTOOL_A_BITSET_VALUE]);
		unsigned nbits = (unsigned)nla_len(tb[ETHTOOL_A_BITSET_VALUE]) * 8;

		const uint32_t *mask = NULL;

		*compact = true;
		if (nbits > out->n)
			nbits = out->n;
		/* With a mask, bits outside it are unspecified: leave them. */
		if (!nomask && tb[ETHTOOL_A_BITSET_MASK] &&
		    nla_len(tb[ETHTOOL_A_BITSET_MASK]) ==
			    nla_len(tb[ETHTOOL_A_BITSET_VALUE]))
			mask = nla_data(tb[ETHTOOL_A_BITSET_MASK]);
		for (unsigned i = 0; i < nbits; i++)
			if (!mask || ((mask[i / 32] >> (i % 32)) & 1))
				*feature_flag(&out->bit[i], s) =
					(words[i / 32] >> (i % 32)) & 1;
		return 0;
	}
	if (tb[ETHTOOL_A_BITSET_BITS]) {
		struct nlattr *bit;
		int rem, rc;

		nla_for_each_nested(bit, tb[ETHTOOL_A_BITSET_BITS], rem) {
			if (nla_type(bit) != ETHTOOL_A_BITSET_BITS_BIT)
				continue;
			rc = bitset_bit_parse(bit, nomask, s, out, err);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

int ethtool_features_parse(const struct nlmsghdr *nlh,
			   const struct ethtool_feature_names *names,
			   struct ethtool_features *out, char *err)
{
	static const struct {
		uint16_t attr;
		enum feature_set set;
	} sets[] = {
		{ ETHTOOL_A_FEATURES_HW, FEAT_HW },
		{ ETHTOOL_A_FEATURES_WANTED, FEAT_WANTED },
		{ ETHTOOL_A_FEATURES_ACTIVE, FEAT_ACTIVE },
		{ ETHTOOL_A_FEATURES_NOCHANGE, FEAT_NOCHANGE },
	};
	struct nlattr *tb[TT_ETHTOOL_PARSE_MAX + 1] = { NULL };
	bool compact = false;
	int rc;

	memset(out, 0, sizeof(*out));
	if (ethtool_nl_parse(nlh, tb, TT_ETHTOOL_PARSE_MAX) < 0)
		return err_set(err, -EINVAL, "features reply: malformed");
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		if (!tb[sets[i].attr])
			continue;
		rc = bitset_parse(tb[sets[i].attr], sets[i].set, out, &compact,
				  err);
		if (rc < 0)
			return rc;
	}
	/*
	 * Compact bitsets carry no names: take them from the string set.
	 * Some indexes are holes with an empty name (bit 2 on 6.18).
	 */
	if (!compact)
		return 0;
	if (!names)
		return err_set(err, -EINVAL,
			       "features reply: compact form needs the feature names");
	for (unsigned i = 0; i < out->n && i < names->n; i++)
		snprintf(out->bit[i].name, sizeof(out->bit[i].name), "%s",
			 names->name[i]);
	return 0;
}

const struct ethtool_feature *
ethtool_features_find(const struct ethtool_features *f, const char *name)
{
	if (!name[0])
		return NULL;
	for (unsigned i = 0; i < f->n; i++)
		if (!strcmp(f->bit[i].name, name))
			return &f->bit[i];
	return NULL;
}

int ethtool_feature_names_parse(const struct nlmsghdr *nlh,
				struct ethtool_feature_names *out, char *err)
{
	struct nlattr *tb[TT_ETHTOOL_PARSE_MAX + 1] = { NULL };
	struct nlattr *set, *str;
	int rem, rem2;

	memset(out, 0, sizeof(*out));
	if (ethtool_nl_parse(nlh, tb, TT_ETHTOOL_PARSE_MAX) < 0 ||
	    !tb[ETHTOOL_A_STRSET_STRINGSETS])
		return err_set(err, -EINVAL, "string set reply: malformed");
	nla_for_each_nested(set, tb[ETHTOOL_A_STRSET_STRINGSETS], rem) {
		struct nlattr *st[TT_ETHTOOL_PARSE_MAX + 1] = { NULL };

		if (nla_parse_nested(st, TT_ETHTOOL_PARSE_MAX, set, NULL) < 0 ||
		    !st[ETHTOOL_A_STRINGSET_ID] ||
		    nla_get_u32(st[ETHTOOL_A_STRINGSET_ID]) != ETH_SS_FEATURES ||
		    !st[ETHTOOL_A_STRINGSET_STRINGS])
			continue;
		nla_for_each_nested(str, st[ETHTOOL_A_STRINGSET_STRINGS], rem2) {
			struct nlattr *s[TT_ETHTOOL_PARSE_MAX + 1] = { NULL };
			uint32_t idx;

			if (nla_parse_nested(s, TT_ETHTOOL_PARSE_MAX, str,
					     NULL) < 0 ||
			    !s[ETHTOOL_A_STRING_INDEX] ||
			    !s[ETHTOOL_A_STRING_VALUE])
				continue;
			idx = nla_get_u32(s[ETHTOOL_A_STRING_INDEX]);
			if (idx >= ETHTOOL_FEATURE_BITS)
				return err_set(err, -E2BIG,
					       "string set: feature %u beyond %d",
					       idx, ETHTOOL_FEATURE_BITS);
			nla_strlcpy(out->name[idx], s[ETHTOOL_A_STRING_VALUE],
				    sizeof(out->name[idx]));
			if (idx + 1 > out->n)
				out->n = idx + 1;
		}
		return 0;
	}
	return err_set(err, -ENOENT, "string set reply: no features set");
}

/* Reply callback for STRSET_GET. */
static int names_cb(const struct nlmsghdr *nlh, void *arg, char *err)
{
	return ethtool_feature_names_parse(nlh, arg, err);
}

int ethtool_feature_names_get(struct ethtool_nl *n,
			      struct ethtool_feature_names *out, char *err)
{
	struct nlattr *sets, *set;
	struct nl_msg *msg;

	memset(out, 0, sizeof(*out));
	msg = ethtool_nl_msg(n, ETHTOOL_MSG_STRSET_GET, ETHTOOL_A_STRSET_HEADER,
			     NULL, 0);
	if (!msg)
		return err_set(err, -ENOMEM, "feature names: %s",
			       strerror(ENOMEM));
	sets = nla_nest_start(msg, ETHTOOL_A_STRSET_STRINGSETS);
	set = sets ? nla_nest_start(msg, ETHTOOL_A_STRINGSETS_STRINGSET) : NULL;
	if (!set || nla_put_u32(msg, ETHTOOL_A_STRINGSET_ID,
				ETH_SS_FEATURES) < 0) {
		nlmsg_free(msg);
		return err_set(err, -ENOMEM, "feature names: %s",
			       strerror(ENOMEM));
	}
	nla_nest_end(msg, set);
	nla_nest_end(msg, sets);
	return netlink_request(n->nl, msg, false, names_cb, out,
			       "get feature names", err);
}

struct features_ctx {
	const struct ethtool_feature_names *names;
	struct ethtool_features *out;
	bool got;
};

/* Reply callback for FEATURES_GET. */
static int features_cb(const struct nlmsghdr *nlh, void *arg, char *err)
{
	struct features_ctx *c = arg;

	c->got = true;
	return ethtool_features_parse(nlh, c->names, c->out, err);
}

int ethtool_features_get_all(struct ethtool_nl *n, const char *dev,
			     bool compact, struct ethtool_features *out,
			     char *err)
{
	struct ethtool_feature_names names;
	struct features_ctx c = { .out = out };
	struct nl_msg *msg;
	char what[128];
	int rc;

	memset(out, 0, sizeof(*out));
	if (compact) {
		rc = ethtool_feature_names_get(n, &names, err);
		if (rc < 0)
			return rc;
		c.names = &names;
	}
	msg = ethtool_nl_msg(n, ETHTOOL_MSG_FEATURES_GET,
			     ETHTOOL_A_FEATURES_HEADER, dev,
			     compact ? ETHTOOL_FLAG_COMPACT_BITSETS : 0);
	if (!msg)
		return err_set(err, -ENOMEM, "%s: features: %s", dev,
			       strerror(ENOMEM));
	snprintf(what, sizeof(what), "%s: get features", dev);
	rc = netlink_request(n->nl, msg, false, features_cb, &c, what, err);
	if (rc < 0)
		return rc;
	if (!c.got)
		return err_set(err, -EIO, "%s: the kernel sent no reply", what);
	return 0;
}

/* A bit the driver will not let anyone change. */
static bool feature_fixed(const struct ethtool_feature *b)
{
	return !b->hw || b->nochange;
}

int ethtool_features_get(struct ethtool_nl *n, const char *dev,
			 const char *bit, bool *active, bool *fixed, char *err)
{
	struct ethtool_features f;
	const struct ethtool_feature *b;
	int rc;

	rc = ethtool_features_get_all(n, dev, false, &f, err);
	if (rc < 0)
		return rc;
	b = ethtool_features_find(&f, bit);
	if (!b)
		return err_set(err, -ENOENT, "%s: %s: bit not found", dev, bit);
	if (active)
		*active = b->active;
	if (fixed)
		*fixed = feature_fixed(b);
	return 0;
}

/* Build FEATURES_SET: WANTED as a list bitset (no NOMASK) of bits by name. */
static struct nl_msg *features_set_msg(struct ethtool_nl *n, const char *dev,
				       const char *const *bits, unsigned nbits,
				       bool on)
{
	struct nlattr *wanted, *list, *bit;
	struct nl_msg *msg;

	msg = ethtool_nl_msg(n, ETHTOOL_MSG_FEATURES_SET,
			     ETHTOOL_A_FEATURES_HEADER, dev, 0);
	if (!msg)
		return NULL;
	wanted = nla_nest_start(msg, ETHTOOL_A_FEATURES_WANTED);
	list = wanted ? nla_nest_start(msg, ETHTOOL_A_BITSET_BITS) : NULL;
	if (!list)
		goto fail;
	for (unsigned i = 0; i < nbits; i++) {
		bit = nla_nest_start(msg, ETHTOOL_A_BITSET_BITS_BIT);
		if (!bit ||
		    nla_put_string(msg, ETHTOOL_A_BITSET_BIT_NAME, bits[i]) < 0 ||
		    (on && nla_put_flag(msg, ETHTOOL_A_BITSET_BIT_VALUE) < 0))
			goto fail;
		nla_nest_end(msg, bit);
	}
	nla_nest_end(msg, list);
	nla_nest_end(msg, wanted);
	return msg;
fail:
	nlmsg_free(msg);
	return NULL;
}

int ethtool_features_set(struct ethtool_nl *n, const char *dev,
			 const char *const *bits, unsigned nbits, bool on,
			 char *err)
{
	const char *state = on ? "on" : "off";
	const struct ethtool_feature *b, *first = NULL;
	struct ethtool_features f;
	unsigned failed = 0;
	struct nl_msg *msg;
	char what[160];
	int rc;

	if (!nbits)
		return 0;
	snprintf(what, sizeof(what), "%s: set %s%s %s", dev, bits[0],
		 nbits > 1 ? ",..." : "", state);
	msg = features_set_msg(n, dev, bits, nbits, on);
	if (!msg)
		return err_set(err, -ENOMEM, "%s: %s", what, strerror(ENOMEM));
	/*
	 * The reply (WANTED/ACTIVE diffs) is not trusted alone: the kernel
	 * can answer 0 and change nothing, so the bits are read back below.
	 */
	rc = netlink_request(n->nl, msg, false, NULL, NULL, what, err);
	if (rc == -EOPNOTSUPP && strstr(netlink_extack(n->nl), "not found"))
		return err_set(err, -ENOENT, "%s: %s (netlink: %s)", what,
			       strerror(EOPNOTSUPP), netlink_extack(n->nl));
	if (rc < 0)
		return rc;
	rc = ethtool_features_get_all(n, dev, false, &f, err);
	if (rc < 0)
		return rc;
	for (unsigned i = 0; i < nbits; i++) {
		b = ethtool_features_find(&f, bits[i]);
		if (b && b->active == on)
			continue;
		if (!first)
			first = b;
		failed++;
		if (!b)
			return err_set(err, -ENOENT, "%s: %s: bit not found",
				       dev, bits[i]);
	}
	if (!failed)
		return 0;
	return err_set(err, -EIO, "%s: %s: requested %s, still %s (%s)%s", dev,
		       first->name, state, on ? "off" : "on",
		       feature_fixed(first) ? "fixed by the driver"
			: first->wanted == on ? "wanted, but a dependency keeps it"
			: "the kernel did not take it",
		       failed > 1 ? "; more bits did not change" : "");
}

/* Split a comma list of bit names into names[] (pointers into buf). */
static unsigned group_split(const char *list, char *buf, size_t len,
			    const char **names, unsigned max)
{
	unsigned k = 0;
	char *save, *tok;

	snprintf(buf, len, "%s", list);
	for (tok = strtok_r(buf, ", ", &save); tok && k < max;
	     tok = strtok_r(NULL, ", ", &save))
		names[k++] = tok;
	return k;
}

int ethtool_features_group_get(struct ethtool_nl *n, const char *dev,
			       const char *bits, bool *active, bool *fixed,
			       char *err)
{
	struct ethtool_features f;
	const char *names[ETHTOOL_FEATURE_BITS];
	const struct ethtool_feature *b;
	char buf[KNOB_WHERE_MAX];
	unsigned nnames, known = 0;
	int rc;

	nnames = group_split(bits, buf, sizeof(buf), names,
			     ETHTOOL_FEATURE_BITS);
	rc = ethtool_features_get_all(n, dev, false, &f, err);
	if (rc < 0)
		return rc;
	*active = false;
	*fixed = true;
	for (unsigned i = 0; i < nnames; i++) {
		b = ethtool_features_find(&f, names[i]);
		if (!b)
			continue;	/* a bit of a newer kernel */
		known++;
		*active |= b->active;
		*fixed &= feature_fixed(b);
	}
	if (!known)
		return err_set(err, -ENOENT, "%s: %s: bit not found", dev, bits);
	return 0;
}

int ethtool_features_group_set(struct ethtool_nl *n, const char *dev,
			       const char *bits, bool on, char *err)
{
	struct ethtool_features f;
	const char *names[ETHTOOL_FEATURE_BITS];
	const char *change[ETHTOOL_FEATURE_BITS];
	const struct ethtool_feature *b, *stuck = NULL;
	char buf[KNOB_WHERE_MAX];
	unsigned nnames, nchange = 0, known = 0;
	int rc;

	nnames = group_split(bits, buf, sizeof(buf), names,
			     ETHTOOL_FEATURE_BITS);
	rc = ethtool_features_get_all(n, dev, false, &f, err);
	if (rc < 0)
		return rc;
	for (unsigned i = 0; i < nnames; i++) {
		b = ethtool_features_find(&f, names[i]);
		if (!b)
			continue;
		known++;
		if (!feature_fixed(b))
			change[nchange++] = names[i];
		else if (b->active != on && !stuck)
			stuck = b;
	}
	if (!known)
		return err_set(err, -ENOENT, "%s: %s: bit not found", dev, bits);
	/* As ethtool -K does for a group: only the changeable bits move. */
	if (!nchange) {
		if (!stuck)
			return 0;
		return err_set(err, -EIO,
			       "%s: %s: requested %s, still %s (fixed by the driver)",
			       dev, stuck->name, on ? "on" : "off",
			       on ? "off" : "on");
	}
	return ethtool_features_set(n, dev, change, nchange, on, err);
}

/* Backend: a user-level offload, the group of bits d->where lists. */
static int features_knob_get(struct knob_ctx *c, const struct knob_def *d,
			     struct knob_value *v, char *err)
{
	bool active = false, fixed = false;
	int rc = knob_ctx_ethtool(c, err);

	if (!rc)
		rc = ethtool_features_group_get(c->et, c->dev, d->where,
						&active, &fixed, err);
	if (rc == -ENOENT) {
		knob_value_na(v, "%s: no such feature in this kernel", c->dev);
		return 0;
	}
	if (!rc)
		knob_value_from_u64(d, active, v);
	return rc;
}

static int features_knob_set(struct knob_ctx *c, const struct knob_def *d,
			     const struct knob_value *val, bool *took,
			     char *err)
{
	int rc = knob_ctx_ethtool(c, err);

	(void)took;
	return rc ? rc : ethtool_features_group_set(c->et, c->dev, d->where,
						    val->num[0] != 0, err);
}

/* The catalog's where column: a comma list of netdev feature names. */
static const char *features_where_problem(const char *s)
{
	if (!*s || *s == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,") ||
	    !knob_chars_ok(s, "-_,"))
		return "a comma list of kernel feature names is expected (tx-tcp-segmentation,rx-gro)";
	return NULL;
}

const struct knob_backend ethtool_features_backend = {
	.name = "feature",
	.where_problem = features_where_problem,
	.types = KNOB_TYPE_BIT(KNOB_BOOL),
	.types_why = "a feature knob is bool",
	.per_device = true,
	.get = features_knob_get,
	.set = features_knob_set,
};
