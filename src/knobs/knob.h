/* SPDX-License-Identifier: GPL-2.0-or-later */
/* knob.h - what a knob is: its catalog entry and a value read from a host. */
#ifndef TT_KNOB_H
#define TT_KNOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where a knob lives and so which code reads and sets it. */
enum knob_kind {
	KNOB_SYSCTL,		/* /proc/sys/<where> */
	KNOB_COALESCE,		/* ethtool netlink COALESCE, attribute <where> */
	KNOB_FEATURE,		/* ethtool netlink FEATURES, bit names <where> (comma list) */
	KNOB_RING,		/* ethtool netlink RINGS, attribute <where> */
	KNOB_CHANNEL,		/* ethtool netlink CHANNELS, attribute <where> */
	KNOB_LINK,		/* rtnetlink link attribute <where> ("mtu") */
	KNOB_SYSFS,		/* /sys/class/net/<dev>/<where> */
	KNOB_QDISC,		/* the lab's tbf, <where> = "rate" */
	KNOB_LINKINFO,		/* ethtool netlink LINKMODES/LINKSTATE/LINKINFO, attribute <where>; read-only */
	KNOB_KIND_COUNT
};

enum knob_type {
	KNOB_INT,		/* a number in [min, max] */
	KNOB_BOOL,		/* on/off (also 1/0, true/false, yes/no) */
	KNOB_STRING,		/* free text the kernel validates (tcp_congestion_control) */
	KNOB_INT3,		/* three numbers "min default max" (tcp_rmem, tcp_wmem) */
	KNOB_TYPE_COUNT
};

enum knob_scope {
	KNOB_SCOPE_HOST,	/* one per host, absent inside a namespace */
	KNOB_SCOPE_NETNS,	/* one per network namespace */
	KNOB_SCOPE_DEVICE,	/* one per network device (--dev) */
	KNOB_SCOPE_COUNT
};

#define KNOB_NAME_MAX 64
#define KNOB_WHERE_MAX 192
#define KNOB_TEXT_MAX 128

/* One line of the catalog (data/knobs, docs/knobs.md). */
struct knob_def {
	char name[KNOB_NAME_MAX];	/* what users type: "rx-usecs", "tso", "net.ipv4.tcp_sack" */
	enum knob_kind kind;
	enum knob_type type;
	enum knob_scope scope;
	char where[KNOB_WHERE_MAX];
	int64_t min, max;		/* KNOB_INT, KNOB_INT3 (each number) */
	char unit[16];			/* "us", "bytes", "frames", "" */
	char group[16];			/* "coalescing", "offloads", "sysctls", "link", "rings", "channels", "lab" */
	char desc[160];
	unsigned flags;			/* KNOB_F_* */
};

/*
 * Per namespace, but read-only inside a non-initial network namespace
 * (EACCES even for root): net.core.rmem_max and friends.  Written
 * "netns-ro" in the catalog's scope column; scope stays KNOB_SCOPE_NETNS.
 */
#define KNOB_F_NETNS_RO 0x1u

/*
 * A value as read from one host (or namespace, or device).  present false
 * means "n/a": reason says why ("veth: coalescing not supported"), and
 * the value is never shown as 0.
 */
struct knob_value {
	bool present;
	char text[KNOB_TEXT_MAX];	/* canonical: "64", "on", "cubic", "4096 131072 6291456" */
	int64_t num[3];			/* KNOB_INT: num[0]; KNOB_BOOL: 0/1; KNOB_INT3: all three */
	char reason[96];
};

/*
 * The driver an n/a reason names as having no coalescing at all: "veth"
 * of "veth: coalescing not supported (Operation not supported)", as
 * ethtool-coalesce.c writes it; false for any other reason.  The panels
 * fold such a device's settings into "27 coalescing settings: not
 * supported by veth".
 */
bool ethtool_coalesce_unsupported_by(const char *reason, char *drv, size_t len);

/* A bit per enum knob_type, for a backend's types (backend.h). */
#define KNOB_TYPE_BIT(t) (1u << (t))
#define KNOB_TYPES_ALL ((1u << KNOB_TYPE_COUNT) - 1)

const char *knob_kind_name(enum knob_kind k);
const char *knob_type_name(enum knob_type t);
const char *knob_scope_name(enum knob_scope s);

/* The kind, type or scope named s (the catalog's spelling), or -1. */
int knob_kind_parse(const char *s);
int knob_type_parse(const char *s);
int knob_scope_parse(const char *s);

/*
 * Check text against d's type and range and fill out (present, canonical
 * text, numbers).  Bytes accept size suffixes (64K), bit/s accept tc
 * rate units (100mbit).  0, -EINVAL (not a value of that type) or
 * -ERANGE; err says what is accepted: "rx-usecs 70000: accepted is
 * 0..65535 us".
 */
int knob_parse_value(const struct knob_def *d, const char *text,
		     struct knob_value *out, char *err);

/* Whether two present values of d are the same setting. */
bool knob_value_equal(const struct knob_def *d, const struct knob_value *a,
		      const struct knob_value *b);

/* The scope as the catalog spells it: "host", "netns", "netns-ro", "device". */
const char *knob_scope_text(const struct knob_def *d);

/* Whether every character of s is a letter, digit or one of extra. */
bool knob_chars_ok(const char *s, const char *extra);

/* An attribute name of one ethtool family: prefix, then [A-Za-z0-9_]+. */
bool knob_attr_ok(const char *w, const char *prefix);

/* A catalog number: an optional '-' and decimal digits; 0 or -EINVAL. */
int knob_parse_i64(const char *s, int64_t *out);

/* Split the next blank-separated field off *p; NULL when none is left. */
char *knob_next_field(char **p);

#endif
