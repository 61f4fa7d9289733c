// SPDX-License-Identifier: GPL-2.0-or-later
/* ethtool-rings.c - ring sizes (ethtool -g / -G) over ethtool netlink. */
#include "config.h"

#include "knobs/backend.h"
#include "knobs/ethtool-nl.h"

_Static_assert(ETHTOOL_A_RINGS_TX_PUSH == 13, "rings attribute numbers are ABI");

/* Ring attributes up to the running 6.18 kernel, by ethtool -g/-G names. */
static const struct ethtool_attr ring_attrs[] = {
	{ "rx-max", ETHTOOL_A_RINGS_RX_MAX, 4, false },
	{ "rx-mini-max", ETHTOOL_A_RINGS_RX_MINI_MAX, 4, false },
	{ "rx-jumbo-max", ETHTOOL_A_RINGS_RX_JUMBO_MAX, 4, false },
	{ "tx-max", ETHTOOL_A_RINGS_TX_MAX, 4, false },
	{ "rx", ETHTOOL_A_RINGS_RX, 4, true },
	{ "rx-mini", ETHTOOL_A_RINGS_RX_MINI, 4, true },
	{ "rx-jumbo", ETHTOOL_A_RINGS_RX_JUMBO, 4, true },
	{ "tx", ETHTOOL_A_RINGS_TX, 4, true },
	{ "rx-buf-len", ETHTOOL_A_RINGS_RX_BUF_LEN, 4, true },
	{ "tcp-data-split", ETHTOOL_A_RINGS_TCP_DATA_SPLIT, 1, true },
	{ "cqe-size", ETHTOOL_A_RINGS_CQE_SIZE, 4, true },
	{ "tx-push", ETHTOOL_A_RINGS_TX_PUSH, 1, true },
	{ "rx-push", TT_ETHTOOL_A_RINGS_RX_PUSH, 1, true },
	{ "tx-push-buf-len", TT_ETHTOOL_A_RINGS_TX_PUSH_BUF_LEN, 4, true },
	{ "tx-push-buf-len-max", TT_ETHTOOL_A_RINGS_TX_PUSH_BUF_LEN_MAX, 4, false },
	{ "hds-thresh", TT_ETHTOOL_A_RINGS_HDS_THRESH, 4, true },
	{ "hds-thresh-max", TT_ETHTOOL_A_RINGS_HDS_THRESH_MAX, 4, false },
};

static const struct ethtool_family rings_family = {
	.what = "rings",
	.prefix = "ETHTOOL_A_RINGS_",
	.get_cmd = ETHTOOL_MSG_RINGS_GET,
	.set_cmd = ETHTOOL_MSG_RINGS_SET,
	.hdr_attr = ETHTOOL_A_RINGS_HEADER,
	.table = ring_attrs,
	.ntable = sizeof(ring_attrs) / sizeof(ring_attrs[0]),
};

int ethtool_rings_get(struct ethtool_nl *n, const char *dev, const char *name,
		      struct knob_value *v, char *err)
{
	return ethtool_family_get(n, &rings_family, dev, name, v, err);
}

int ethtool_rings_set(struct ethtool_nl *n, const char *dev, const char *name,
		      uint32_t value, char *err)
{
	return ethtool_family_set(n, &rings_family, dev, name, value, err);
}

int ethtool_rings_parse(const struct nlmsghdr *nlh, const char *name,
			struct knob_value *v, char *err)
{
	return ethtool_family_parse(&rings_family, nlh, name, v, err);
}

/* Backend: the rings attribute a catalog knob names, on the run's device. */
static int rings_knob_get(struct knob_ctx *c, const struct knob_def *d,
			  struct knob_value *v, char *err)
{
	return knob_ctx_family_get(c, &rings_family, d, v, err);
}

static int rings_knob_set(struct knob_ctx *c, const struct knob_def *d,
			  const struct knob_value *val, bool *took, char *err)
{
	(void)took;
	return knob_ctx_family_set(c, &rings_family, d, val, err);
}

/* The catalog's where column: one ETHTOOL_A_RINGS_* attribute. */
static const char *rings_where_problem(const char *w)
{
	return knob_attr_ok(w, "ETHTOOL_A_RINGS_") ? NULL :
		"an ETHTOOL_A_RINGS_* attribute name is expected";
}

const struct knob_backend ethtool_rings_backend = {
	.name = "ring",
	.where_problem = rings_where_problem,
	.types = KNOB_TYPE_BIT(KNOB_INT),
	.types_why = KNOB_INT_ONLY,
	.per_device = true,
	.get = rings_knob_get,
	.set = rings_knob_set,
};
