// SPDX-License-Identifier: GPL-2.0-or-later
/* backend.c - the knob backends in one table indexed by enum knob_kind. */
#include "config.h"

#include "knobs/backend.h"

static const struct knob_backend *const backends[KNOB_KIND_COUNT] = {
	[KNOB_SYSCTL] = &sysctl_backend,
	[KNOB_COALESCE] = &ethtool_coalesce_backend,
	[KNOB_FEATURE] = &ethtool_features_backend,
	[KNOB_RING] = &ethtool_rings_backend,
	[KNOB_CHANNEL] = &ethtool_channels_backend,
	[KNOB_LINK] = &link_backend,
	[KNOB_SYSFS] = &sysfs_backend,
	[KNOB_QDISC] = &qdisc_backend,
	[KNOB_LINKINFO] = &ethtool_linkinfo_backend,
};

const struct knob_backend *backend_for(enum knob_kind k)
{
	return (unsigned)k < KNOB_KIND_COUNT ? backends[k] : NULL;
}
