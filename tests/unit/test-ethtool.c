// SPDX-License-Identifier: GPL-2.0-or-later
/* test-ethtool.c - ethtool netlink: recorded replies, a veth in a private netns, the host NIC. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "knobs/ethtool-nl.h"
#include "knobs/ethtool.h"
#include "tap.h"
#include "core/util.h"

#define MSG_BUF 65536
#define FEATURES_REPLY ETHTOOL_MSG_FEATURES_GET_REPLY
#define STRSET_REPLY ETHTOOL_MSG_STRSET_GET_REPLY
#define TSO_GROUP "tx-tcp-segmentation,tx-tcp6-segmentation," \
	"tx-tcp-ecn-segmentation,tx-tcp-mangleid-segmentation," \
	"tx-tcp-accecn-segmentation"

static char data_dir[512];

/* Load a recorded .hex file (comment lines start with '#') into buf. */
static int load_hex(const char *name, unsigned char *buf, size_t cap,
		    size_t *len)
{
	char path[700], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", data_dir, name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	*len = 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = line;
		unsigned v;
		int used;

		if (line[0] == '#')
			continue;
		while (sscanf(p, "%2x%n", &v, &used) == 1 && *len < cap) {
			buf[(*len)++] = (unsigned char)v;
			p += used;
		}
	}
	fclose(f);
	return 0;
}

/* The first message of a recorded stream with this type, or NULL. */
static const struct nlmsghdr *find_msg(unsigned char *buf, size_t len,
				       int type)
{
	int rem = (int)len;

	for (struct nlmsghdr *h = (struct nlmsghdr *)buf; nlmsg_ok(h, rem);
	     h = nlmsg_next(h, &rem))
		if (h->nlmsg_type == type)
			return h;
	return NULL;
}

/* The first ethtool reply of a stream carrying genl command cmd, or NULL. */
static const struct nlmsghdr *find_reply(unsigned char *buf, size_t len,
					 uint8_t cmd)
{
	int rem = (int)len;

	for (struct nlmsghdr *h = (struct nlmsghdr *)buf; nlmsg_ok(h, rem);
	     h = nlmsg_next(h, &rem))
		if (h->nlmsg_type >= NLMSG_MIN_TYPE &&
		    h->nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN &&
		    ((struct genlmsghdr *)nlmsg_data(h))->cmd == cmd)
			return h;
	return NULL;
}

/* Count the top-level attributes of a reply other than its header. */
static int count_attrs(const struct nlmsghdr *nlh)
{
	struct nlattr *a;
	int rem, n = 0;

	nla_for_each_attr(a, nlmsg_attrdata(nlh, GENL_HDRLEN),
			  nlmsg_attrlen(nlh, GENL_HDRLEN), rem)
		if (nla_type(a) != 1)
			n++;
	return n;
}

/* Recorded COALESCE_GET from a virtio NIC: most attributes absent. */
static void test_coalesce_recorded(void)
{
	static unsigned char buf[MSG_BUF];
	struct ethtool_coalesce_params c;
	const struct ethtool_coalesce_param *p;
	const struct nlmsghdr *nlh;
	char err[ERR_MAX] = "";
	unsigned present = 0;
	size_t len;

	if (!ok(load_hex("coalesce-virtio.hex", buf, sizeof(buf), &len) == 0,
		"recorded: coalesce-virtio.hex loads"))
		return;
	nlh = find_reply(buf, len, ETHTOOL_MSG_COALESCE_GET_REPLY);
	if (!ok(nlh, "recorded: coalesce stream holds a reply"))
		return;
	ok(ethtool_coalesce_parse(nlh, &c, err) == 0 && c.supported,
	   "coalesce_parse: virtio reply parses (%s)", err);
	p = ethtool_coalesce_find(&c, "rx-usecs");
	ok(p && p->present, "coalesce_parse: rx-usecs reported by virtio is present");
	p = ethtool_coalesce_find(&c, "rx-frames");
	ok(p && p->present && p->value == 1,
	   "coalesce_parse: rx-frames reads the recorded 1");
	p = ethtool_coalesce_find(&c, "adaptive-rx");
	ok(p && p->present && p->value == 0,
	   "coalesce_parse: adaptive-rx (u8) present and off");
	p = ethtool_coalesce_find(&c, "rx-usecs-irq");
	ok(p && !p->present,
	   "absent_attr_is_na: rx-usecs-irq not sent -> not present, not 0");
	p = ethtool_coalesce_find(&c, "cqe-mode-rx");
	ok(p && !p->present, "absent_attr_is_na: cqe-mode-rx not present");
	p = ethtool_coalesce_find(&c, "tx-aggr-time-usecs");
	ok(p && !p->present,
	   "absent_attr_is_na: tx-aggr-time-usecs (newer than 6.1) not present");
	for (unsigned i = 0; i < c.n; i++)
		present += c.a[i].present;
	ok((int)present == count_attrs(nlh),
	   "coalesce_parse: every attribute in the reply is kept (%u vs %d)",
	   present, count_attrs(nlh));
	ok(ethtool_coalesce_find(&c, "no-such-thing") == NULL,
	   "coalesce_find: unknown name gives NULL");
}

/* An attribute above the 6.1 maximum (25) must survive parsing. */
static void test_coalesce_new_attr(void)
{
	static unsigned char buf[MSG_BUF];
	struct ethtool_coalesce_params c;
	const struct ethtool_coalesce_param *p;
	struct nlmsghdr *nlh;
	struct nlattr *a;
	char err[ERR_MAX] = "";
	size_t len;

	if (load_hex("coalesce-virtio.hex", buf, sizeof(buf), &len) ||
	    !(nlh = (struct nlmsghdr *)find_reply(buf, len, ETHTOOL_MSG_COALESCE_GET_REPLY))) {
		ok(0, "recorded: coalesce-virtio.hex for the new-attribute test");
		return;
	}
	/* Append TX_AGGR_TIME_USECS (28) = 77 to the recorded reply. */
	a = (struct nlattr *)((char *)nlh + NLMSG_ALIGN(nlh->nlmsg_len));
	a->nla_type = TT_ETHTOOL_A_COALESCE_TX_AGGR_TIME_USECS;
	a->nla_len = NLA_HDRLEN + 4;
	*(uint32_t *)((char *)a + NLA_HDRLEN) = 77;
	nlh->nlmsg_len = NLMSG_ALIGN(nlh->nlmsg_len) + NLA_ALIGN(a->nla_len);
	ok(ethtool_coalesce_parse(nlh, &c, err) == 0, "coalesce_parse: extended reply parses");
	p = ethtool_coalesce_find(&c, "tx-aggr-time-usecs");
	ok(p && p->present && p->value == 77,
	   "coalesce_parse: attribute 28 (above 6.1's max 25) is not dropped");
}

/* Features in list and compact form must describe the same bits. */
static void test_features_recorded(void)
{
	static unsigned char lbuf[MSG_BUF], cbuf[MSG_BUF], sbuf[MSG_BUF];
	static struct ethtool_features lf, cf, nf;
	static struct ethtool_feature_names names;
	const struct ethtool_feature *b;
	char err[ERR_MAX] = "";
	size_t llen, clen, slen;
	unsigned same = 0;
	int rc;

	if (!ok(load_hex("features-list.hex", lbuf, sizeof(lbuf), &llen) == 0 &&
		load_hex("features-compact.hex", cbuf, sizeof(cbuf), &clen) == 0 &&
		load_hex("strset-features.hex", sbuf, sizeof(sbuf), &slen) == 0,
		"recorded: features list, compact and string set files load"))
		return;
	rc = ethtool_features_parse(find_reply(lbuf, llen, FEATURES_REPLY),
				    NULL, &lf, err);
	ok(rc == 0, "features_parse: list form parses without a name table (%s)",
	   err);
	ok(lf.n > 32, "features_parse: list form has %u bits", lf.n);
	rc = ethtool_feature_names_parse(find_reply(sbuf, slen, STRSET_REPLY),
					 &names, err);
	ok(rc == 0 && names.n == lf.n,
	   "feature_names_parse: %u names for %u bits (%s)", names.n, lf.n, err);
	rc = ethtool_features_parse(find_reply(cbuf, clen, FEATURES_REPLY),
				    NULL, &nf, err);
	ok(rc == -EINVAL, "features_parse: compact form without names is refused (%s)",
	   err);
	rc = ethtool_features_parse(find_reply(cbuf, clen, FEATURES_REPLY),
				    &names, &cf, err);
	ok(rc == 0, "features_parse: compact form with names parses (%s)", err);
	ok(lf.bit[2].name[0] == '\0' &&
	   ethtool_features_find(&lf, "") == NULL,
	   "features_find: an unnamed hole in the bit table matches nothing");
	for (unsigned i = 0; i < lf.n && i < cf.n; i++)
		same += !strcmp(lf.bit[i].name, cf.bit[i].name) &&
			lf.bit[i].hw == cf.bit[i].hw &&
			lf.bit[i].wanted == cf.bit[i].wanted &&
			lf.bit[i].active == cf.bit[i].active &&
			lf.bit[i].nochange == cf.bit[i].nochange;
	ok(cf.n == lf.n && same == lf.n,
	   "features_parse: both forms agree on every bit (%u of %u)", same,
	   lf.n);
	b = ethtool_features_find(&lf, "tx-tcp-segmentation");
	ok(b && b->active && b->hw, "features_parse: tx-tcp-segmentation on and changeable");
	b = ethtool_features_find(&lf, "rx-gro-hw");
	ok(b && b->active && !b->hw, "features_parse: virtio rx-gro-hw on [fixed]");
	b = ethtool_features_find(&lf, "rx-lro");
	ok(b && !b->active && !b->hw, "features_parse: rx-lro off [fixed]");
	b = ethtool_features_find(&lf, "rx-gro");
	ok(b && b->active && b->hw, "features_parse: rx-gro on and changeable");
	ok(ethtool_features_find(&lf, "no-such-bit") == NULL,
	   "features_find: unknown bit gives NULL");
}

/* Recorded kernel errors carry the extack text. */
static void test_errors_recorded(void)
{
	static unsigned char buf[MSG_BUF];
	const struct nlmsghdr *nlh;
	const char *text;
	size_t len;
	int error = 0;

	if (ok(load_hex("coalesce-veth-error.hex", buf, sizeof(buf), &len) == 0 &&
	       (nlh = find_msg(buf, len, NLMSG_ERROR)),
	       "recorded: veth COALESCE_GET error loads")) {
		netlink_error_parse(nlh, &error);
		ok(error == -EOPNOTSUPP, "error_parse: veth coalescing is -EOPNOTSUPP (%d)",
		   error);
	}
	if (ok(load_hex("features-set-unknown-error.hex", buf, sizeof(buf),
			&len) == 0 &&
	       (nlh = find_msg(buf, len, NLMSG_ERROR)),
	       "recorded: FEATURES_SET unknown-bit error loads")) {
		text = netlink_error_parse(nlh, &error);
		ok(error == -EOPNOTSUPP && text &&
		   strstr(text, "bit name not found"),
		   "error_parse: unknown bit gives extack \"%s\"",
		   text ? text : "(none)");
	}
}

/* Recorded rings and channels of a virtio NIC; absent ones are n/a. */
static void test_rings_channels_recorded(void)
{
	static unsigned char buf[MSG_BUF];
	char err[ERR_MAX] = "";
	struct knob_value v;
	size_t len;

	if (ok(load_hex("rings-virtio.hex", buf, sizeof(buf), &len) == 0,
	       "recorded: rings-virtio.hex loads")) {
		ok(ethtool_rings_parse(find_reply(buf, len, ETHTOOL_MSG_RINGS_GET_REPLY), "rx", &v, err) == 0 &&
		   v.present && v.num[0] == 256 && !strcmp(v.text, "256"),
		   "rings_parse: rx reads 256");
		ok(ethtool_rings_parse(find_reply(buf, len, ETHTOOL_MSG_RINGS_GET_REPLY), "rx-jumbo", &v, err) == 0 &&
		   !v.present && strstr(v.reason, "not reported"),
		   "rings_parse: rx-jumbo absent is n/a (%s)", v.reason);
		ok(ethtool_rings_parse(find_reply(buf, len, ETHTOOL_MSG_RINGS_GET_REPLY), "rx-bogus", &v, err) == -ENOENT,
		   "rings_parse: unknown ring name is -ENOENT (%s)", err);
	}
	if (ok(load_hex("channels-virtio.hex", buf, sizeof(buf), &len) == 0,
	       "recorded: channels-virtio.hex loads")) {
		ok(ethtool_channels_parse(find_reply(buf, len, ETHTOOL_MSG_CHANNELS_GET_REPLY), "combined", &v, err) == 0 &&
		   v.present && v.num[0] >= 1,
		   "channels_parse: combined present (%s)", v.text);
		ok(ethtool_channels_parse(find_reply(buf, len, ETHTOOL_MSG_CHANNELS_GET_REPLY), "rx", &v, err) == 0 &&
		   !v.present && v.reason[0],
		   "channels_parse: rx absent is n/a (%s)", v.reason);
	}
}

/* The payload of top-level attribute type in a reply, or NULL. */
static void *reply_attr(const struct nlmsghdr *nlh, int type)
{
	struct nlattr *a;
	int rem;

	nla_for_each_attr(a, nlmsg_attrdata(nlh, GENL_HDRLEN),
			  nlmsg_attrlen(nlh, GENL_HDRLEN), rem)
		if (nla_type(a) == type)
			return nla_data(a);
	return NULL;
}

/* Recorded LINKMODES/LINKSTATE/LINKINFO of a virtio NIC: unknowns are n/a. */
static void test_linkinfo_recorded(void)
{
	static unsigned char mbuf[MSG_BUF], sbuf[MSG_BUF], ibuf[MSG_BUF];
	struct nlmsghdr *modes = NULL, *state = NULL, *info = NULL;
	char err[ERR_MAX] = "";
	struct knob_value v;
	size_t mlen, slen, ilen;
	uint32_t *speed;
	uint8_t *duplex;
	int rc;

	if (!ok(load_hex("linkmodes-virtio.hex", mbuf, sizeof(mbuf), &mlen) == 0 &&
		load_hex("linkstate-virtio.hex", sbuf, sizeof(sbuf), &slen) == 0 &&
		load_hex("linkinfo-virtio.hex", ibuf, sizeof(ibuf), &ilen) == 0,
		"recorded: linkmodes, linkstate and linkinfo files load"))
		return;
	modes = (struct nlmsghdr *)find_reply(mbuf, mlen, ETHTOOL_MSG_LINKMODES_GET_REPLY);
	state = (struct nlmsghdr *)find_reply(sbuf, slen, ETHTOOL_MSG_LINKSTATE_GET_REPLY);
	info = (struct nlmsghdr *)find_reply(ibuf, ilen, ETHTOOL_MSG_LINKINFO_GET_REPLY);
	if (!ok(modes && state && info, "recorded: each stream holds its reply"))
		return;
	speed = reply_attr(modes, ETHTOOL_A_LINKMODES_SPEED);
	duplex = reply_attr(modes, ETHTOOL_A_LINKMODES_DUPLEX);
	ok(speed && *speed == (uint32_t)SPEED_UNKNOWN && duplex && *duplex == DUPLEX_UNKNOWN,
	   "recorded: virtio reports SPEED_UNKNOWN and DUPLEX_UNKNOWN");

	rc = ethtool_linkinfo_parse(modes, "speed", &v, err);
	ok(rc == 0 && !v.present && strstr(v.reason, "speed not reported") &&
	   !v.text[0] && v.num[0] == 0,
	   "linkinfo_parse: SPEED_UNKNOWN is n/a, not -1 or 0 (%s)", v.reason);
	rc = ethtool_linkinfo_parse(modes, "duplex", &v, err);
	ok(rc == 0 && !v.present && strstr(v.reason, "duplex not reported"),
	   "linkinfo_parse: DUPLEX_UNKNOWN is n/a (%s)", v.reason);
	rc = ethtool_linkinfo_parse(modes, "autoneg", &v, err);
	ok(rc == 0 && v.present && !strcmp(v.text, "off") && v.num[0] == 0,
	   "linkinfo_parse: autoneg reads off (%s)", v.text);
	rc = ethtool_linkinfo_parse(modes, "ETHTOOL_A_LINKMODES_AUTONEG", &v, err);
	ok(rc == 0 && v.present && !strcmp(v.text, "off"),
	   "linkinfo_parse: the catalog's attribute name works as the figure's name");
	rc = ethtool_linkinfo_parse(state, "link-detected", &v, err);
	ok(rc == 0 && v.present && !strcmp(v.text, "on") && v.num[0] == 1,
	   "linkinfo_parse: link-detected reads on (%s)", v.text);
	rc = ethtool_linkinfo_parse(info, "port", &v, err);
	ok(rc == 0 && v.present && !strcmp(v.text, "other"),
	   "linkinfo_parse: port PORT_OTHER reads other (%s)", v.text);

	err[0] = '\0';
	rc = ethtool_linkinfo_parse(state, "speed", &v, err);
	ok(rc == -EINVAL && strstr(err, "link modes reply: got genl command"),
	   "linkinfo_parse: a LINKSTATE reply is not read as link modes (%s)", err);
	err[0] = '\0';
	rc = ethtool_linkinfo_parse(modes, "lanes-per-furlong", &v, err);
	ok(rc == -ENOENT && !v.present, "linkinfo_parse: unknown figure is -ENOENT (%s)", err);

	/* The same reply with a known speed and duplex, as a real NIC sends. */
	if (speed && duplex) {
		*speed = 25000;
		*duplex = DUPLEX_FULL;
		ok(ethtool_linkinfo_parse(modes, "speed", &v, err) == 0 && v.present &&
		   v.num[0] == 25000 && !strcmp(v.text, "25000"),
		   "linkinfo_parse: speed 25000 reads 25000 (%s)", v.text);
		ok(ethtool_linkinfo_parse(modes, "duplex", &v, err) == 0 && v.present &&
		   !strcmp(v.text, "full"),
		   "linkinfo_parse: DUPLEX_FULL reads full (%s)", v.text);
		*duplex = DUPLEX_HALF;
		ok(ethtool_linkinfo_parse(modes, "duplex", &v, err) == 0 && v.present &&
		   !strcmp(v.text, "half"),
		   "linkinfo_parse: DUPLEX_HALF reads half (%s)", v.text);
		*speed = 0;
		ok(ethtool_linkinfo_parse(modes, "speed", &v, err) == 0 && !v.present &&
		   strstr(v.reason, "not reported"),
		   "linkinfo_parse: speed 0 is n/a too, as ethtool says Unknown! (%s)",
		   v.reason);
	}
}

/* Run cmd and tell whether its output holds needle. */
static bool cmd_output_has(const char *cmd, const char *needle)
{
	char line[512];
	bool found = false;
	FILE *p = popen(cmd, "r");

	if (!p)
		return false;
	while (fgets(line, sizeof(line), p))
		if (strstr(line, needle))
			found = true;
	pclose(p);
	return found;
}

/* The host's first device with a bus behind it (a real or virtio NIC). */
static bool host_nic(char *out, size_t len)
{
	const char *env = getenv("TT_TEST_NIC");
	struct dirent *de;
	char path[600];
	struct stat st;
	DIR *d;

	if (env && *env) {
		snprintf(out, len, "%s", env);
		return true;
	}
	d = opendir("/sys/class/net");
	if (!d)
		return false;
	while ((de = readdir(d))) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/device",
			 de->d_name);
		if (de->d_name[0] != '.' && stat(path, &st) == 0) {
			snprintf(out, len, "%.*s", (int)len - 1, de->d_name);
			closedir(d);
			return true;
		}
	}
	closedir(d);
	return false;
}

/* Bits of the user-level "tso" knob this kernel has. */
static unsigned tso_bits(struct ethtool_nl *n, const char *dev,
			 const char **out)
{
	static const char *const all[] = {
		"tx-tcp-segmentation", "tx-tcp6-segmentation",
		"tx-tcp-ecn-segmentation", "tx-tcp-mangleid-segmentation",
		"tx-tcp-accecn-segmentation",
	};
	char err[ERR_MAX];
	unsigned k = 0;
	bool active, fixed;

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (ethtool_features_get(n, dev, all[i], &active, &fixed,
					 err) == 0 && !fixed)
			out[k++] = all[i];
	return k;
}

/* Link figures of the veth dev, a bridge without ports and lo, in the netns. */
static void live_linkinfo(struct ethtool_nl *n, const char *dev)
{
	char err[ERR_MAX] = "", cmd[256], br[32], want[KNOB_TEXT_MAX + 16];
	struct knob_value v;
	int rc;

	snprintf(cmd, sizeof(cmd), "ethtool %s", dev);
	rc = ethtool_linkinfo_get(n, dev, "speed", &v, err);
	snprintf(want, sizeof(want), "Speed: %sMb/s", v.text);
	if (cmd_output_has(cmd, "Speed: Unknown!"))
		ok(rc == 0 && !v.present && strstr(v.reason, "veth: speed not reported"),
		   "linkinfo_get: veth speed n/a as ethtool says (%s)", v.reason);
	else
		ok(rc == 0 && v.present && v.num[0] > 0 && cmd_output_has(cmd, want),
		   "linkinfo_get: veth speed %s Mb/s, as ethtool says (%s)", v.text, err);
	rc = ethtool_linkinfo_get(n, dev, "duplex", &v, err);
	ok(rc == 0 && v.present && !strcmp(v.text, "full") &&
	   cmd_output_has(cmd, "Duplex: Full"),
	   "linkinfo_get: veth duplex full, as ethtool says (%s)", v.present ? v.text : v.reason);
	rc = ethtool_linkinfo_get(n, dev, "autoneg", &v, err);
	ok(rc == 0 && v.present && !strcmp(v.text, "off") &&
	   cmd_output_has(cmd, "Auto-negotiation: off"),
	   "linkinfo_get: veth autoneg off, as ethtool says (%s)", v.text);
	rc = ethtool_linkinfo_get(n, dev, "link-detected", &v, err);
	ok(rc == 0 && v.present &&
	   cmd_output_has(cmd, v.num[0] ? "Link detected: yes" : "Link detected: no"),
	   "linkinfo_get: veth link-detected %s, as ethtool says", v.text);
	rc = ethtool_linkinfo_get(n, dev, "port", &v, err);
	ok(rc == 0 && v.present && !strcmp(v.text, "tp") &&
	   cmd_output_has(cmd, "Port: Twisted Pair"),
	   "linkinfo_get: veth port tp, as ethtool says (%s)", v.text);
	err[0] = '\0';
	rc = ethtool_linkinfo_get(n, dev, "mdix", &v, err);
	ok(rc == -ENOENT && strstr(err, "no link figure called mdix"),
	   "linkinfo_get: unknown figure is -ENOENT (%s)", err);

	/* A bridge without ports has no speed: SPEED_UNKNOWN, live. */
	snprintf(br, sizeof(br), "ttb%d", (int)getpid() % 100000);
	snprintf(cmd, sizeof(cmd), "ip link add %s type bridge", br);
	if (ok(system(cmd) == 0, "live: bridge %s without ports", br)) {
		snprintf(cmd, sizeof(cmd), "ethtool %s", br);
		rc = ethtool_linkinfo_get(n, br, "speed", &v, err);
		ok(rc == 0 && !v.present && !strcmp(v.reason, "bridge: speed not reported") &&
		   cmd_output_has(cmd, "Speed: Unknown!"),
		   "linkinfo_get: a portless bridge's speed is n/a \"%s\"", v.reason);
		rc = ethtool_linkinfo_get(n, br, "duplex", &v, err);
		ok(rc == 0 && !v.present && strstr(v.reason, "bridge: duplex not reported"),
		   "linkinfo_get: and its duplex n/a \"%s\"", v.reason);
		snprintf(cmd, sizeof(cmd), "ip link del %s", br);
		ok(system(cmd) == 0, "live: bridge deleted");
	}

	/* lo has no link settings at all: n/a with the kernel's reason. */
	rc = ethtool_linkinfo_get(n, "lo", "speed", &v, err);
	ok(rc == 0 && !v.present && strstr(v.reason, "link modes not supported"),
	   "linkinfo_get: lo speed n/a \"%s\"", v.reason);
	err[0] = '\0';
	rc = ethtool_linkinfo_get(n, "tt-no-such-dev", "speed", &v, err);
	ok(rc == -ENODEV && strstr(err, "tt-no-such-dev"),
	   "linkinfo_get: a missing device is -ENODEV (%s)", err);
}

/* Live checks on a veth pair inside this process's own network namespace. */
static void live_veth(struct ethtool_nl *host)
{
	struct ethtool_coalesce_params c;
	struct ethtool_nl *n = NULL;
	char err[ERR_MAX] = "", cmd[256], drv[64];
	const char *tso[8];
	const char *gro[] = { "rx-gro" };
	const char *grohw[] = { "rx-gro-hw" };
	const char *bogus[] = { "no-such-bit" };
	char dev[32], peer[32];
	struct knob_value v;
	unsigned ntso;
	bool active = false, fixed = true;
	int rc;

	snprintf(dev, sizeof(dev), "tte%da", (int)getpid() % 100000);
	snprintf(peer, sizeof(peer), "tte%db", (int)getpid() % 100000);
	snprintf(cmd, sizeof(cmd),
		 "ip link add %s type veth peer name %s && ip link set %s up && ip link set %s up",
		 dev, peer, dev, peer);
	if (!ok(system(cmd) == 0, "live: veth pair %s/%s in a private netns", dev, peer))
		return;
	if (!ok(ethtool_nl_open(&n, err) == 0, "live: ethtool_nl_open in the netns (%s)", err))
		return;

	err[0] = '\0';
	rc = ethtool_features_get(host, dev, "rx-gro", &active, &fixed, err);
	ok(rc == -ENODEV,
	   "netns: a socket made in the host netns does not see the veth (%d: %s)",
	   rc, err);

	ok(ethtool_drvinfo(dev, drv, sizeof(drv), err) == 0 && !strcmp(drv, "veth"),
	   "drvinfo: ioctl in the netns names the driver veth (%s)", drv);

	err[0] = '\0';
	rc = ethtool_coalesce_get(n, dev, &c, err);
	ok(rc == 0 && !c.supported && strstr(c.reason, "not supported") &&
	   strstr(c.reason, "veth"),
	   "coalesce_get: veth reads supported=false \"%s\"", c.reason);
	ok(!ethtool_coalesce_find(&c, "rx-usecs")->present,
	   "coalesce_get: veth rx-usecs is n/a, not 0");
	err[0] = '\0';
	rc = ethtool_coalesce_get(NULL, dev, &c, err);
	ok(rc == 0 && !c.supported && strstr(c.reason, "not supported"),
	   "coalesce_get_ioctl: veth is not supported by the ioctl either (%s)",
	   c.reason);
	err[0] = '\0';
	rc = ethtool_coalesce_set(n, dev, "rx-usecs", 8, err);
	ok(rc == -EOPNOTSUPP && strstr(err, "Operation not supported"),
	   "coalesce_set: veth refuses with the kernel's text (%s)", err);

	err[0] = '\0';
	rc = ethtool_features_set(n, dev, gro, 1, true, err);
	snprintf(cmd, sizeof(cmd), "ethtool -k %s", dev);
	ok(rc == 0 && cmd_output_has(cmd, "generic-receive-offload: on"),
	   "features_set: gro on, ethtool -k agrees (%d %s)", rc, err);
	err[0] = '\0';
	rc = ethtool_features_set(n, dev, gro, 1, false, err);
	ok(rc == 0 && cmd_output_has(cmd, "generic-receive-offload: off"),
	   "features_set: gro off, ethtool -k agrees (%d %s)", rc, err);

	ntso = tso_bits(n, dev, tso);
	ok(ntso >= 2, "features_get: %u changeable TSO bits on veth", ntso);
	err[0] = '\0';
	rc = ethtool_features_set(n, dev, tso, ntso, false, err);
	ok(rc == 0 && cmd_output_has(cmd, "tcp-segmentation-offload: off"),
	   "features_set: tso (all %u bits) off, ethtool -k agrees (%d %s)",
	   ntso, rc, err);
	err[0] = '\0';
	rc = ethtool_features_set(n, dev, tso, ntso, true, err);
	ok(rc == 0 && cmd_output_has(cmd, "tcp-segmentation-offload: on"),
	   "features_set: tso on, ethtool -k agrees (%d %s)", rc, err);
	ok(ethtool_features_get(n, dev, "tx-tcp6-segmentation", &active, &fixed,
				err) == 0 && active && !fixed,
	   "features_get: tx-tcp6-segmentation reads back on");

	err[0] = '\0';
	rc = ethtool_features_group_set(n, dev, TSO_GROUP ",tx-tcp-future-segmentation",
					false, err);
	ok(rc == 0 && cmd_output_has(cmd, "tcp-segmentation-offload: off"),
	   "features_group_set: tso off over the group, unknown bit skipped (%d %s)",
	   rc, err);
	err[0] = '\0';
	rc = ethtool_features_group_get(n, dev, TSO_GROUP, &active, &fixed, err);
	ok(rc == 0 && !active && !fixed,
	   "features_group_get: tso reads off and changeable (%s)", err);
	err[0] = '\0';
	rc = ethtool_features_group_set(n, dev, TSO_GROUP, true, err);
	ok(rc == 0 && cmd_output_has(cmd, "tcp-segmentation-offload: on"),
	   "features_group_set: tso on, ethtool -k agrees (%d %s)", rc, err);
	err[0] = '\0';
	rc = ethtool_features_group_set(n, dev, "rx-gro-hw", true, err);
	ok(rc == -EIO && strstr(err, "fixed by the driver"),
	   "features_group_set: a fixed group refuses \"%s\"", err);
	err[0] = '\0';
	rc = ethtool_features_group_get(n, dev, "tx-none-such,tx-nor-this", &active,
					&fixed, err);
	ok(rc == -ENOENT, "features_group_get: no known bit is -ENOENT (%s)", err);
	err[0] = '\0';
	rc = ethtool_features_set(n, dev, grohw, 1, true, err);
	ok(rc == -EIO && strstr(err, "rx-gro-hw: requested on, still off") &&
	   strstr(err, "fixed by the driver"),
	   "features_set: rx-gro-hw on veth did not take: \"%s\"", err);
	err[0] = '\0';
	rc = ethtool_features_set(n, dev, bogus, 1, true, err);
	ok(rc == -ENOENT && strstr(err, "bit name not found"),
	   "features_set: unknown bit is -ENOENT with the kernel's text \"%s\"",
	   err);
	err[0] = '\0';
	rc = ethtool_features_get(n, dev, "no-such-bit", &active, &fixed, err);
	ok(rc == -ENOENT && strstr(err, "bit not found"),
	   "features_get: unknown bit is -ENOENT (%s)", err);

	err[0] = '\0';
	rc = ethtool_rings_get(n, dev, "rx", &v, err);
	ok(rc == 0 && !v.present && strstr(v.reason, "not supported"),
	   "rings_get: veth rings are n/a \"%s\"", v.reason);
	err[0] = '\0';
	rc = ethtool_channels_get(n, dev, "rx", &v, err);
	ok(rc == 0 && v.present && v.num[0] >= 1,
	   "channels_get: veth rx channels %s", v.text);
	err[0] = '\0';
	rc = ethtool_channels_set(n, dev, "rx", 2, err);
	snprintf(cmd, sizeof(cmd), "ethtool -l %s | tail -4 | grep -q '^RX:[[:space:]]*2'", dev);
	ok(rc == 0 && system(cmd) == 0,
	   "channels_set: veth rx 2, ethtool -l agrees (%d %s)", rc, err);
	err[0] = '\0';
	rc = ethtool_channels_set(n, dev, "rx-max", 2, err);
	ok(rc == -EINVAL && strstr(err, "read-only"),
	   "channels_set: rx-max is read-only (%s)", err);
	err[0] = '\0';
	rc = ethtool_channels_set(n, dev, "combined", 1, err);
	ok(rc < 0 && strstr(err, "netlink:"),
	   "channels_set: refusal carries the kernel's extack (%s)", err);

	live_linkinfo(n, dev);

	ethtool_nl_close(n);
	snprintf(cmd, sizeof(cmd), "ip link del %s", dev);
	ok(system(cmd) == 0, "live: veth pair deleted");
}

/* Fork, unshare the network namespace in the child, run the veth checks there. */
static void test_live_netns(void)
{
	struct ethtool_nl *host = NULL;
	char err[ERR_MAX] = "";
	int fds[2], st = 0, counts[2];
	pid_t pid;

	if (!ok(pipe(fds) == 0, "live: pipe"))
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		/* A socket made before unshare() stays in the host netns. */
		if (ethtool_nl_open(&host, err) < 0)
			ok(0, "live: host ethtool_nl_open (%s)", err);
		else if (unshare(CLONE_NEWNET) < 0)
			ok(0, "live: unshare(CLONE_NEWNET): %s", strerror(errno));
		else
			live_veth(host);
		ethtool_nl_close(host);
		counts[0] = tap_n;
		counts[1] = tap_failed;
		fflush(stdout);
		_exit(write(fds[1], counts, sizeof(counts)) == sizeof(counts) ? 0 : 1);
	}
	close(fds[1]);
	if (read(fds[0], counts, sizeof(counts)) == sizeof(counts)) {
		tap_n = counts[0];
		tap_failed = counts[1];
	} else {
		ok(0, "live: the netns child reported nothing");
	}
	close(fds[0]);
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "live: netns child exited cleanly");
}

/* The host NIC's link figures (read only) agree with `ethtool NIC`. */
static void live_host_linkinfo(struct ethtool_nl *n, const char *nic)
{
	char err[ERR_MAX] = "", cmd[128], want[KNOB_TEXT_MAX + 16];
	struct knob_value v;
	int rc;

	snprintf(cmd, sizeof(cmd), "ethtool %s", nic);
	rc = ethtool_linkinfo_get(n, nic, "speed", &v, err);
	if (cmd_output_has(cmd, "Speed: Unknown!")) {
		ok(rc == 0 && !v.present && strstr(v.reason, "speed not reported"),
		   "host: %s speed n/a as ethtool says Unknown! (%s)", nic, v.reason);
	} else {
		snprintf(want, sizeof(want), "Speed: %sMb/s", v.text);
		ok(rc == 0 && v.present && cmd_output_has(cmd, want),
		   "host: %s speed %s Mb/s, as ethtool says (%s)", nic, v.text, err);
	}
	rc = ethtool_linkinfo_get(n, nic, "duplex", &v, err);
	if (cmd_output_has(cmd, "Duplex: Unknown!"))
		ok(rc == 0 && !v.present && strstr(v.reason, "duplex not reported"),
		   "host: %s duplex n/a as ethtool says Unknown! (%s)", nic, v.reason);
	else
		ok(rc == 0 && v.present &&
		   cmd_output_has(cmd, !strcmp(v.text, "full") ? "Duplex: Full" : "Duplex: Half"),
		   "host: %s duplex %s, as ethtool says", nic, v.text);
	rc = ethtool_linkinfo_get(n, nic, "link-detected", &v, err);
	ok(rc == 0 && v.present &&
	   cmd_output_has(cmd, v.num[0] ? "Link detected: yes" : "Link detected: no"),
	   "host: %s link-detected %s, as ethtool says", nic, v.present ? v.text : v.reason);
}

/* The host NIC: read only, and coalescing set to exactly what it has. */
static void test_live_host(void)
{
	static struct ethtool_features lf, cf;
	struct ethtool_coalesce_params c, c2, legacy;
	const struct ethtool_coalesce_param *p, *p2, *pl;
	struct ethtool_nl *n = NULL;
	char err[ERR_MAX] = "", nic[64], drv[64];
	struct knob_value v;
	unsigned same = 0;
	bool active, fixed;
	int rc;

	if (!host_nic(nic, sizeof(nic))) {
		printf("ok %d - # SKIP no NIC with a device behind it\n", ++tap_n);
		return;
	}
	if (!ok(ethtool_nl_open(&n, err) == 0, "host: ethtool_nl_open (%s)", err))
		return;
	ok(ethtool_drvinfo(nic, drv, sizeof(drv), err) == 0 && drv[0],
	   "host: %s driver is %s", nic, drv);
	err[0] = '\0';
	rc = ethtool_coalesce_get(n, nic, &c, err);
	p = ethtool_coalesce_find(&c, "rx-usecs");
	if (ok(rc == 0 && c.supported && p && p->present,
	       "host: %s coalescing read, rx-usecs present (%s)", nic, err)) {
		err[0] = '\0';
		rc = ethtool_coalesce_set(n, nic, "rx-usecs", p->value, err);
		ok(rc == 0, "host: set rx-usecs to the %u it already has (%s)",
		   p->value, err);
		err[0] = '\0';
		rc = ethtool_coalesce_get(n, nic, &c2, err);
		p2 = ethtool_coalesce_find(&c2, "rx-usecs");
		ok(rc == 0 && p2->present && p2->value == p->value,
		   "host: rx-usecs reads back %u", p2->value);
		err[0] = '\0';
		rc = ethtool_coalesce_get_ioctl(nic, &legacy, err);
		pl = ethtool_coalesce_find(&legacy, "rx-usecs");
		ok(rc == 0 && legacy.legacy && pl->present && pl->value == p->value,
		   "host: the ioctl fallback reads the same rx-usecs (%s)", err);
	}
	err[0] = '\0';
	rc = ethtool_features_get_all(n, nic, false, &lf, err);
	ok(rc == 0, "host: features in list form (%s)", err);
	err[0] = '\0';
	rc = ethtool_features_get_all(n, nic, true, &cf, err);
	ok(rc == 0, "host: features in compact form (%s)", err);
	for (unsigned i = 0; i < lf.n; i++)
		same += !strcmp(lf.bit[i].name, cf.bit[i].name) &&
			lf.bit[i].active == cf.bit[i].active &&
			lf.bit[i].hw == cf.bit[i].hw;
	ok(lf.n && cf.n == lf.n && same == lf.n,
	   "host: list and compact agree live (%u of %u bits)", same, lf.n);
	err[0] = '\0';
	rc = ethtool_features_group_get(n, nic, TSO_GROUP, &active, &fixed, err);
	ok(rc == 0 && active && !fixed,
	   "host: tso group reads on and changeable (read only) (%s)", err);
	err[0] = '\0';
	rc = ethtool_rings_get(n, nic, "rx", &v, err);
	ok(rc == 0 && (v.present || v.reason[0]),
	   "host: rings rx %s", v.present ? v.text : v.reason);
	live_host_linkinfo(n, nic);
	ethtool_nl_close(n);
}

/* Recorder: write every message a request receives into the open file. */
static void record_cb(const struct nlmsghdr *nlh, void *arg)
{
	FILE *f = arg;
	const unsigned char *b = (const unsigned char *)nlh;

	fprintf(f, "# message type %u, %u bytes\n", nlh->nlmsg_type,
		nlh->nlmsg_len);
	for (unsigned i = 0; i < nlh->nlmsg_len; i++)
		fprintf(f, "%02x%s", b[i], i % 16 == 15 ? "\n" : " ");
	if (nlh->nlmsg_len % 16)
		fprintf(f, "\n");
}

/* Open a recording named name under dir, headed with what it holds. */
static FILE *record_open(struct ethtool_nl *n, const char *dir,
			 const char *name, const char *what)
{
	char path[700];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return NULL;
	fprintf(f, "# tunetop recorded ethtool netlink messages (test-ethtool --record)\n");
	fprintf(f, "# %s\n", what);
	netlink_set_tap(n->nl, record_cb, f);
	return f;
}

/* Close a recording and stop the tap. */
static void record_close(struct ethtool_nl *n, FILE *f)
{
	netlink_set_tap(n->nl, NULL, NULL);
	if (f)
		fclose(f);
}

/* --record DIR: capture the replies the recorded tests parse. */
static int record(const char *dir)
{
	static struct ethtool_features f;
	static struct ethtool_feature_names names;
	struct ethtool_coalesce_params c;
	struct ethtool_nl *n;
	struct knob_value v;
	char err[ERR_MAX], nic[64], what[256], drv[64] = "?";
	const char *bogus[] = { "no-such-bit" };
	FILE *out;
	pid_t pid;
	int st;

	if (!host_nic(nic, sizeof(nic)) || ethtool_nl_open(&n, err) < 0) {
		fprintf(stderr, "record: no NIC or no ethtool netlink\n");
		return 1;
	}
	ethtool_drvinfo(nic, drv, sizeof(drv), err);
	snprintf(what, sizeof(what), "%s (%s), COALESCE_GET", nic, drv);
	out = record_open(n, dir, "coalesce-virtio.hex", what);
	ethtool_coalesce_get(n, nic, &c, err);
	record_close(n, out);
	snprintf(what, sizeof(what), "%s (%s), FEATURES_GET, list form", nic, drv);
	out = record_open(n, dir, "features-list.hex", what);
	ethtool_features_get_all(n, nic, false, &f, err);
	record_close(n, out);
	ethtool_feature_names_get(n, &names, err);
	snprintf(what, sizeof(what), "%s (%s), FEATURES_GET, compact form", nic, drv);
	out = record_open(n, dir, "features-compact.hex", what);
	ethtool_features_get_all(n, nic, true, &f, err);
	record_close(n, out);
	out = record_open(n, dir, "strset-features.hex",
			  "STRSET_GET of ETH_SS_FEATURES");
	ethtool_feature_names_get(n, &names, err);
	record_close(n, out);
	snprintf(what, sizeof(what), "%s (%s), RINGS_GET", nic, drv);
	out = record_open(n, dir, "rings-virtio.hex", what);
	ethtool_rings_get(n, nic, "rx", &v, err);
	record_close(n, out);
	snprintf(what, sizeof(what), "%s (%s), CHANNELS_GET", nic, drv);
	out = record_open(n, dir, "channels-virtio.hex", what);
	ethtool_channels_get(n, nic, "combined", &v, err);
	record_close(n, out);
	snprintf(what, sizeof(what), "%s (%s), LINKMODES_GET, compact bitsets", nic, drv);
	out = record_open(n, dir, "linkmodes-virtio.hex", what);
	ethtool_linkinfo_get(n, nic, "speed", &v, err);
	record_close(n, out);
	snprintf(what, sizeof(what), "%s (%s), LINKSTATE_GET", nic, drv);
	out = record_open(n, dir, "linkstate-virtio.hex", what);
	ethtool_linkinfo_get(n, nic, "link-detected", &v, err);
	record_close(n, out);
	snprintf(what, sizeof(what), "%s (%s), LINKINFO_GET", nic, drv);
	out = record_open(n, dir, "linkinfo-virtio.hex", what);
	ethtool_linkinfo_get(n, nic, "port", &v, err);
	record_close(n, out);
	ethtool_nl_close(n);

	pid = fork();
	if (pid == 0) {
		if (unshare(CLONE_NEWNET) < 0 ||
		    system("ip link add ttrec0 type veth peer name ttrec1") ||
		    ethtool_nl_open(&n, err) < 0)
			_exit(1);
		out = record_open(n, dir, "coalesce-veth-error.hex",
				  "ttrec0 (veth), COALESCE_GET: the error");
		ethtool_coalesce_get(n, "ttrec0", &c, err);
		record_close(n, out);
		out = record_open(n, dir, "features-set-unknown-error.hex",
				  "ttrec0 (veth), FEATURES_SET no-such-bit on: the error");
		ethtool_features_set(n, "ttrec0", bogus, 1, true, err);
		record_close(n, out);
		ethtool_nl_close(n);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *top = getenv("top_srcdir");
	const char *ci = getenv("CI");

	if (argc == 3 && !strcmp(argv[1], "--record"))
		return record(argv[2]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(data_dir, sizeof(data_dir), "%s/tests/data/ethtool",
		 top && *top ? top : ".");
	test_coalesce_recorded();
	test_coalesce_new_attr();
	test_features_recorded();
	test_errors_recorded();
	test_rings_channels_recorded();
	test_linkinfo_recorded();
	if (geteuid() != 0) {
		if (ci && !strcmp(ci, "true"))
			ok(0, "live ethtool tests need root (CI=true: not skipped)");
		else
			printf("ok %d - # SKIP live ethtool tests need root\n",
			       ++tap_n);
		return tap_done();
	}
	test_live_netns();
	test_live_host();
	return tap_done();
}
