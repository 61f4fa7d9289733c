/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ethtool.h - ethtool settings: coalescing, offloads, rings, channels, driver. */
#ifndef TT_ETHTOOL_H
#define TT_ETHTOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "knobs/knob.h"

struct nlmsghdr;

/*
 * One ethtool generic-netlink socket.  It lives in the network namespace
 * of the thread that called ethtool_nl_open() and can only see that
 * namespace's devices; devices are always addressed by name, never by
 * index (indexes collide between namespaces).
 */
struct ethtool_nl;

/* Open a socket, resolve the "ethtool" family; 0 or -errno (-ENOENT: none). */
int ethtool_nl_open(struct ethtool_nl **np, char *err);
void ethtool_nl_close(struct ethtool_nl *n);

/* ---- coalescing (ethtool -c / -C) ---- */

#define ETHTOOL_COALESCE_ATTRS 40

/* One coalescing parameter by ethtool's name; present false = n/a. */
struct ethtool_coalesce_param {
	char name[32];
	bool present;
	uint32_t value;
};

/*
 * Every coalescing parameter this build knows, present or not.  supported
 * false: the driver has no coalescing at all, reason says so
 * ("veth: coalescing not supported (Operation not supported)").  legacy:
 * read through the SIOCETHTOOL ioctl, which cannot tell an unsupported
 * parameter from 0, so every field it has reads as present.  (Not named
 * struct ethtool_coalesce: <linux/ethtool.h> has the ioctl's.)
 */
struct ethtool_coalesce_params {
	unsigned n;
	struct ethtool_coalesce_param a[ETHTOOL_COALESCE_ATTRS];
	bool supported;
	bool legacy;
	char reason[96];
};

/*
 * Read coalescing of dev.  -EOPNOTSUPP from the driver is not an error:
 * supported=false with the reason, and 0.  n NULL reads through the ioctl.
 */
int ethtool_coalesce_get(struct ethtool_nl *n, const char *dev,
			 struct ethtool_coalesce_params *out, char *err);

/*
 * Set one parameter by name, then read it back: -ENOENT unknown name,
 * the kernel's error and extack text when refused, -EIO when it was
 * accepted but reads back different.
 */
int ethtool_coalesce_set(struct ethtool_nl *n, const char *dev,
			 const char *name, uint32_t value, char *err);

/* The entry called name in c, or NULL. */
const struct ethtool_coalesce_param *
ethtool_coalesce_find(const struct ethtool_coalesce_params *c,
		      const char *name);

/* Parse one COALESCE_GET reply (recorded or live) into out. */
int ethtool_coalesce_parse(const struct nlmsghdr *nlh,
			   struct ethtool_coalesce_params *out, char *err);

/* Legacy SIOCETHTOOL ETHTOOL_GCOALESCE read, in the caller's netns. */
int ethtool_coalesce_get_ioctl(const char *dev,
			       struct ethtool_coalesce_params *out, char *err);

/* ---- offloads (ethtool -k / -K) ---- */

#define ETHTOOL_FEATURE_BITS 128
#define ETHTOOL_FEATURE_NAME 32		/* ETH_GSTRING_LEN */

/* One feature bit; fixed = not changeable (not in hw, or in nochange). */
struct ethtool_feature {
	char name[ETHTOOL_FEATURE_NAME];
	bool hw, wanted, active, nochange;
};

/* Every feature bit of a device, indexed by the running kernel's bit index. */
struct ethtool_features {
	unsigned n;
	struct ethtool_feature bit[ETHTOOL_FEATURE_BITS];
};

/* Names of the features string set (index -> name) for compact bitsets. */
struct ethtool_feature_names {
	unsigned n;
	char name[ETHTOOL_FEATURE_BITS][ETHTOOL_FEATURE_NAME];
};

/* All feature bits of dev; compact: value/mask bitsets, names from STRSET. */
int ethtool_features_get_all(struct ethtool_nl *n, const char *dev,
			     bool compact, struct ethtool_features *out,
			     char *err);

/* One bit by name: -ENOENT "bit not found" if this kernel has no such bit. */
int ethtool_features_get(struct ethtool_nl *n, const char *dev,
			 const char *bit, bool *active, bool *fixed, char *err);

/*
 * Turn bits on or off by name, then read back.  Any bit that did not
 * change: -EIO "dev: rx-gro-hw: requested on, still off (fixed by the
 * driver)".  A name the kernel does not know: -ENOENT with the kernel's
 * "bit name not found".
 */
int ethtool_features_set(struct ethtool_nl *n, const char *dev,
			 const char *const *bits, unsigned nbits, bool on,
			 char *err);

/*
 * A user-level offload over several bits, as a comma list ("tso" is
 * "tx-tcp-segmentation,tx-tcp6-segmentation,..."), the way ethtool -k/-K
 * treat a group: bits this kernel lacks are skipped (-ENOENT if none is
 * known); active if any bit is on; fixed if no bit can change.  A set
 * moves only the changeable bits and reads them back like
 * ethtool_features_set(); a fully fixed group not in the requested state
 * is -EIO.
 */
int ethtool_features_group_get(struct ethtool_nl *n, const char *dev,
			       const char *bits, bool *active, bool *fixed,
			       char *err);
int ethtool_features_group_set(struct ethtool_nl *n, const char *dev,
			       const char *bits, bool on, char *err);

/* The bit called name, or NULL. */
const struct ethtool_feature *
ethtool_features_find(const struct ethtool_features *f, const char *name);

/* Parse a FEATURES_GET reply, list or compact form (names: compact only). */
int ethtool_features_parse(const struct nlmsghdr *nlh,
			   const struct ethtool_feature_names *names,
			   struct ethtool_features *out, char *err);

/* Read the kernel's feature names (STRSET_GET, ETH_SS_FEATURES). */
int ethtool_feature_names_get(struct ethtool_nl *n,
			      struct ethtool_feature_names *out, char *err);

/* Parse a STRSET_GET reply holding the features string set. */
int ethtool_feature_names_parse(const struct nlmsghdr *nlh,
				struct ethtool_feature_names *out, char *err);

/* ---- rings (ethtool -g / -G) and channels (ethtool -l / -L) ---- */

/*
 * Rings by ethtool's names: "rx", "rx-mini", "rx-jumbo", "tx", their
 * "-max" limits, "rx-buf-len", "cqe-size", "tx-push", "rx-push",
 * "tx-push-buf-len", "hds-thresh", "tcp-data-split".  A driver without
 * rings, or a ring it does not report, reads present=false with a reason
 * and returns 0.
 */
int ethtool_rings_get(struct ethtool_nl *n, const char *dev, const char *name,
		      struct knob_value *v, char *err);
int ethtool_rings_set(struct ethtool_nl *n, const char *dev, const char *name,
		      uint32_t value, char *err);
int ethtool_rings_parse(const struct nlmsghdr *nlh, const char *name,
			struct knob_value *v, char *err);

/* Channels: "rx", "tx", "other", "combined" and their "-max" limits. */
int ethtool_channels_get(struct ethtool_nl *n, const char *dev,
			 const char *name, struct knob_value *v, char *err);
int ethtool_channels_set(struct ethtool_nl *n, const char *dev,
			 const char *name, uint32_t value, char *err);
int ethtool_channels_parse(const struct nlmsghdr *nlh, const char *name,
			   struct knob_value *v, char *err);

/* ---- link figures (ethtool DEV), read-only ---- */

/*
 * One link figure by its name or the catalog's attribute name: "speed"
 * (ETHTOOL_A_LINKMODES_SPEED, Mb/s), "duplex" (_DUPLEX, half/full),
 * "autoneg" (_AUTONEG, on/off) from LINKMODES_GET; "link-detected"
 * (ETHTOOL_A_LINKSTATE_LINK, on/off) from LINKSTATE_GET; "port"
 * (ETHTOOL_A_LINKINFO_PORT: tp, aui, mii, fibre, bnc, da, none, other)
 * from LINKINFO_GET.  What the driver does not report (SPEED_UNKNOWN,
 * DUPLEX_UNKNOWN, an absent attribute, no link settings at all) reads
 * present=false with the reason ("virtio_net: speed not reported") and
 * returns 0.  -ENOENT for an unknown name.
 */
int ethtool_linkinfo_get(struct ethtool_nl *n, const char *dev,
			 const char *name, struct knob_value *v, char *err);

/* Parse one LINKMODES/LINKSTATE/LINKINFO reply for figure name. */
int ethtool_linkinfo_parse(const struct nlmsghdr *nlh, const char *name,
			   struct knob_value *v, char *err);

/* ---- driver info (ethtool -i), ioctl only ---- */

/* Driver name of dev ("virtio_net", "veth"), in the caller's netns. */
int ethtool_drvinfo(const char *dev, char *driver, size_t len, char *err);

#endif
