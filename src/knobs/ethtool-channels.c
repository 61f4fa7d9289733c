// SPDX-License-Identifier: GPL-2.0-or-later
/* ethtool-channels.c - queue counts (ethtool -l / -L) over ethtool netlink. */
#include "config.h"

#include "knobs/backend.h"
#include "knobs/ethtool-nl.h"

/* Channel attributes by ethtool -l/-L names; unchanged since 6.1. */
static const struct ethtool_attr channel_attrs[] = {
	{ "rx-max", ETHTOOL_A_CHANNELS_RX_MAX, 4, false },
	{ "tx-max", ETHTOOL_A_CHANNELS_TX_MAX, 4, false },
	{ "other-max", ETHTOOL_A_CHANNELS_OTHER_MAX, 4, false },
	{ "combined-max", ETHTOOL_A_CHANNELS_COMBINED_MAX, 4, false },
	{ "rx", ETHTOOL_A_CHANNELS_RX_COUNT, 4, true },
	{ "tx", ETHTOOL_A_CHANNELS_TX_COUNT, 4, true },
	{ "other", ETHTOOL_A_CHANNELS_OTHER_COUNT, 4, true },
	{ "combined", ETHTOOL_A_CHANNELS_COMBINED_COUNT, 4, true },
};

static const struct ethtool_family channels_family = {
	.what = "channels",
	.prefix = "ETHTOOL_A_CHANNELS_",
	.get_cmd = ETHTOOL_MSG_CHANNELS_GET,
	.set_cmd = ETHTOOL_MSG_CHANNELS_SET,
	.hdr_attr = ETHTOOL_A_CHANNELS_HEADER,
	.table = channel_attrs,
	.ntable = sizeof(channel_attrs) / sizeof(channel_attrs[0]),
};

int ethtool_channels_get(struct ethtool_nl *n, const char *dev,
			 const char *name, struct knob_value *v, char *err)
{
	return ethtool_family_get(n, &channels_family, dev, name, v, err);
}

int ethtool_channels_set(struct ethtool_nl *n, const char *dev,
			 const char *name, uint32_t value, char *err)
{
	return ethtool_family_set(n, &channels_family, dev, name, value, err);
}

int ethtool_channels_parse(const struct nlmsghdr *nlh, const char *name,
			   struct knob_value *v, char *err)
{
	return ethtool_family_parse(&channels_family, nlh, name, v, err);
}

/* Backend: the channels attribute a catalog knob names, on the run's device. */
static int channels_knob_get(struct knob_ctx *c, const struct knob_def *d,
			     struct knob_value *v, char *err)
{
	return knob_ctx_family_get(c, &channels_family, d, v, err);
}

static int channels_knob_set(struct knob_ctx *c, const struct knob_def *d,
			     const struct knob_value *val, bool *took,
			     char *err)
{
	(void)took;
	return knob_ctx_family_set(c, &channels_family, d, val, err);
}

/* The catalog's where column: one ETHTOOL_A_CHANNELS_* attribute. */
static const char *channels_where_problem(const char *w)
{
	return knob_attr_ok(w, "ETHTOOL_A_CHANNELS_") ? NULL :
		"an ETHTOOL_A_CHANNELS_* attribute name is expected";
}

const struct knob_backend ethtool_channels_backend = {
	.name = "channel",
	.where_problem = channels_where_problem,
	.types = KNOB_TYPE_BIT(KNOB_INT),
	.types_why = KNOB_INT_ONLY,
	.per_device = true,
	.get = channels_knob_get,
	.set = channels_knob_set,
};
