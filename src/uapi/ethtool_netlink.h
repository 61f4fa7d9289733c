/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uapi/ethtool_netlink.h - ethtool netlink constants newer than Debian 12's
 * 6.1 <linux/ethtool_netlink.h>, from the kernel's
 * include/uapi/linux/ethtool_netlink_generated.h (6.18).
 *
 * The kernel declares these as enumerators, which #ifndef cannot guard, so
 * they carry a TT_ prefix and never clash with the system header.  The
 * values are ABI and do not change between kernels.
 */
#ifndef TT_UAPI_ETHTOOL_NETLINK_H
#define TT_UAPI_ETHTOOL_NETLINK_H

#include <linux/ethtool_netlink.h>

/* COALESCE: 6.1 stops at USE_CQE_MODE_RX (25). */
#define TT_ETHTOOL_A_COALESCE_TX_AGGR_MAX_BYTES		26	/* u32 */
#define TT_ETHTOOL_A_COALESCE_TX_AGGR_MAX_FRAMES	27	/* u32 */
#define TT_ETHTOOL_A_COALESCE_TX_AGGR_TIME_USECS	28	/* u32 */
#define TT_ETHTOOL_A_COALESCE_RX_PROFILE		29	/* nest */
#define TT_ETHTOOL_A_COALESCE_TX_PROFILE		30	/* nest */
#define TT_ETHTOOL_A_COALESCE_MAX			30

/* RINGS: 6.1 stops at TX_PUSH (13). */
#define TT_ETHTOOL_A_RINGS_RX_PUSH			14	/* u8 */
#define TT_ETHTOOL_A_RINGS_TX_PUSH_BUF_LEN		15	/* u32 */
#define TT_ETHTOOL_A_RINGS_TX_PUSH_BUF_LEN_MAX		16	/* u32 */
#define TT_ETHTOOL_A_RINGS_HDS_THRESH			17	/* u32 */
#define TT_ETHTOOL_A_RINGS_HDS_THRESH_MAX		18	/* u32 */
#define TT_ETHTOOL_A_RINGS_MAX				18

/* CHANNELS and FEATURES are unchanged since 6.1. */
#define TT_ETHTOOL_A_CHANNELS_MAX			9
#define TT_ETHTOOL_A_FEATURES_MAX			5

/* HEADER gained PHY_INDEX (4) in 6.12; BITSET and STRSET are as in 6.1. */
#define TT_ETHTOOL_A_HEADER_PHY_INDEX			4
#define TT_ETHTOOL_A_HEADER_MAX				4
#define TT_ETHTOOL_A_BITSET_MAX				5
#define TT_ETHTOOL_A_BITSET_BIT_MAX			3
#define TT_ETHTOOL_A_STRSET_COUNTS_ONLY			3
#define TT_ETHTOOL_A_STRSET_MAX				3

/*
 * Parse tables are sized with room to spare: an attribute above the max
 * handed to nla_parse() is dropped without a word (docs/HACKING.md, "Kernel facts").
 */
#define TT_ETHTOOL_PARSE_MAX				64

/* Netlink extended-ACK constants (linux/netlink.h), for old headers. */
#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK		11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK		10
#endif
#ifndef NLM_F_CAPPED
#define NLM_F_CAPPED		0x100
#endif
#ifndef NLM_F_ACK_TLVS
#define NLM_F_ACK_TLVS		0x200
#endif

#endif
