// SPDX-License-Identifier: GPL-2.0-or-later
/* test-catalog.c - the knob catalog: the shipped file, malformed lines, values. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knobs/backend.h"
#include "knobs/catalog.h"
#include "tap.h"
#include "core/util.h"

static char catalog_path[4096];
static char tmp_path[64];

/* Every name issue 4 asks the catalog to hold. */
static const char *const required[] = {
	"net.ipv4.tcp_reordering", "net.ipv4.tcp_notsent_lowat",
	"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem", "net.ipv4.tcp_autocorking",
	"net.ipv4.tcp_slow_start_after_idle",
	"net.ipv4.tcp_congestion_control", "net.ipv4.tcp_moderate_rcvbuf",
	"net.ipv4.tcp_limit_output_bytes", "net.ipv4.tcp_tso_win_divisor",
	"net.ipv4.tcp_min_tso_segs", "net.ipv4.tcp_timestamps",
	"net.ipv4.tcp_sack", "net.ipv4.tcp_ecn", "net.ipv4.tcp_no_metrics_save",
	"net.core.rmem_max", "net.core.wmem_max", "net.core.rmem_default",
	"net.core.wmem_default", "net.core.busy_poll", "net.core.busy_read",
	"net.core.netdev_budget", "net.core.netdev_max_backlog",
	"rx-usecs", "rx-frames", "rx-usecs-irq", "rx-frames-irq", "tx-usecs",
	"tx-frames", "tx-usecs-irq", "tx-frames-irq", "stats-block-usecs",
	"adaptive-rx", "adaptive-tx", "pkt-rate-low", "rx-usecs-low",
	"rx-frames-low", "tx-usecs-low", "tx-frames-low", "pkt-rate-high",
	"rx-usecs-high", "rx-frames-high", "tx-usecs-high", "tx-frames-high",
	"sample-interval", "cqe-mode-rx", "cqe-mode-tx", "tx-aggr-max-bytes",
	"tx-aggr-max-frames", "tx-aggr-time-usecs",
	"tso", "gso", "gro", "lro", "rx-gro-hw", "rx-gro-list", "sg",
	"rx-checksum", "tx-checksum",
	"ring-rx", "ring-tx", "channels-rx", "channels-tx", "channels-combined",
	"mtu", "gro_flush_timeout", "napi_defer_hard_irqs", "lab-rate",
};

/* Write text to the temporary catalog and load it. */
static int load_text(const char *text, struct catalog **c, char *err)
{
	FILE *f = fopen(tmp_path, "w");

	if (!f)
		return -errno;
	fputs(text, f);
	fclose(f);
	return catalog_load(c, tmp_path, err);
}

/* The catalog that ships loads cleanly and holds every required knob. */
static void test_shipped(void)
{
	struct catalog *c = NULL;
	const struct knob_def *d;
	char err[ERR_MAX] = "";
	unsigned missing = 0;
	int rc;

	rc = catalog_load(&c, catalog_path, err);
	if (!ok(rc == 0, "shipped catalog %s loads (%s)", catalog_path, err))
		return;
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		if (!catalog_find(c, required[i])) {
			printf("# missing: %s\n", required[i]);
			missing++;
		}
	}
	ok(missing == 0, "shipped catalog holds all %zu required knobs",
	   sizeof(required) / sizeof(required[0]));
	ok(catalog_count(c) >= sizeof(required) / sizeof(required[0]),
	   "catalog_count covers them (%u)", catalog_count(c));

	d = catalog_find(c, "net.core.busy_poll");
	ok(d && d->scope == KNOB_SCOPE_HOST, "busy_poll is host-only");
	d = catalog_find(c, "net.core.netdev_max_backlog");
	ok(d && d->scope == KNOB_SCOPE_HOST, "netdev_max_backlog is host-only");
	d = catalog_find(c, "net.core.rmem_max");
	ok(d && d->scope == KNOB_SCOPE_NETNS && (d->flags & KNOB_F_NETNS_RO) &&
	   !strcmp(knob_scope_text(d), "netns-ro") &&
	   strstr(d->desc, "read-only"),
	   "rmem_max is per namespace, read-only inside one, and says so");
	d = catalog_find(c, "net.ipv4.tcp_reordering");
	ok(d && d->scope == KNOB_SCOPE_NETNS && !(d->flags & KNOB_F_NETNS_RO) &&
	   !strcmp(d->where, "net/ipv4/tcp_reordering"),
	   "tcp_reordering is per namespace and writable, at net/ipv4/tcp_reordering");
	d = catalog_find(c, "net/ipv4/tcp_sack");
	ok(d && !strcmp(d->name, "net.ipv4.tcp_sack"),
	   "a sysctl is also found by its slash name");
	ok(catalog_find(c, "tcp_sack") == NULL && catalog_find(c, "rx") == NULL,
	   "no partial or unknown names match");
	d = catalog_find(c, "tso");
	ok(d && d->kind == KNOB_FEATURE && d->type == KNOB_BOOL &&
	   strstr(d->where, "tx-tcp6-segmentation") &&
	   strstr(d->where, "tx-tcp-mangleid-segmentation"),
	   "tso covers every TSO feature bit");
	d = catalog_find(c, "rx-usecs-high");
	ok(d && d->kind == KNOB_COALESCE &&
	   !strcmp(d->where, "ETHTOOL_A_COALESCE_RX_USECS_HIGH") &&
	   !strcmp(d->unit, "us"),
	   "rx-usecs-high maps to ETHTOOL_A_COALESCE_RX_USECS_HIGH in us");
	d = catalog_find(c, "rx-frames");
	ok(d && !strcmp(d->where, "ETHTOOL_A_COALESCE_RX_MAX_FRAMES"),
	   "rx-frames maps to the MAX_FRAMES attribute");
	d = catalog_find(c, "channels-combined");
	ok(d && d->kind == KNOB_CHANNEL &&
	   !strcmp(d->where, "ETHTOOL_A_CHANNELS_COMBINED_COUNT"),
	   "channels-combined maps to ETHTOOL_A_CHANNELS_COMBINED_COUNT");
	d = catalog_find(c, "speed");
	ok(d && d->kind == KNOB_LINKINFO && d->type == KNOB_INT &&
	   d->scope == KNOB_SCOPE_DEVICE && !strcmp(d->unit, "Mb/s") &&
	   !strcmp(d->where, "ETHTOOL_A_LINKMODES_SPEED") &&
	   !strcmp(knob_kind_name(d->kind), "linkinfo"),
	   "speed is a per-device linkinfo figure in Mb/s from LINKMODES");
	d = catalog_find(c, "duplex");
	ok(d && d->kind == KNOB_LINKINFO && d->type == KNOB_STRING,
	   "duplex is a linkinfo string (half/full)");
	d = catalog_find(c, "link-detected");
	ok(d && d->kind == KNOB_LINKINFO && d->type == KNOB_BOOL &&
	   !strcmp(d->where, "ETHTOOL_A_LINKSTATE_LINK"),
	   "link-detected is a linkinfo bool from LINKSTATE");
	d = catalog_at(c, 0);
	ok(d && !strcmp(d->name, "net.ipv4.tcp_reordering") &&
	   catalog_at(c, catalog_count(c)) == NULL,
	   "catalog_at walks the file in order and stops at the end");
	missing = 0;
	for (unsigned i = 0; i < catalog_count(c); i++) {
		d = catalog_at(c, i);
		if ((d->kind == KNOB_SYSCTL) == (d->scope == KNOB_SCOPE_DEVICE))
			missing++;
	}
	ok(missing == 0, "sysctls are host or netns, every other knob per device");
	catalog_free(c);
}

/* Each malformed line is rejected with the file, its line number and field. */
static void test_malformed(void)
{
	static const struct {
		const char *line;
		const char *expect;	/* expected after "path:3: " */
	} cases[] = {
		{ "x sysctl integer netns net/x 0 1 - g desc\n",
		  "type 'integer': accepted are int, bool, string, int3" },
		{ "x ethtool int device ETHTOOL_A_COALESCE_RX_USECS 0 1 - g d\n",
		  "kind 'ethtool': accepted are sysctl, coalesce, feature, ring, channel, link, sysfs, qdisc, linkinfo" },
		{ "x ring bool device ETHTOOL_A_RINGS_RX - - - g d\n",
		  "type 'bool': this kind of knob is int" },
		{ "x channel int device ETHTOOL_A_RINGS_RX 0 1 - g d\n",
		  "where 'ETHTOOL_A_RINGS_RX': an ETHTOOL_A_CHANNELS_* attribute name is expected" },
		{ "x ring int device ETHTOOL_A_RINGS_ 0 1 - g d\n",
		  "where 'ETHTOOL_A_RINGS_': an ETHTOOL_A_RINGS_* attribute name is expected" },
		{ "x link int device mtu! 0 1 - g d\n",
		  "where 'mtu!': a lowercase attribute name is expected (mtu, rate)" },
		{ "x qdisc string device rate - - - g d\n",
		  "type 'string': this kind of knob is int" },
		{ "x sysfs int netns gro_flush_timeout 0 1 - g d\n",
		  "scope 'netns': a sysfs knob belongs to a device" },
		{ "x sysfs int device ../x 0 1 - g d\n",
		  "where '../x': a relative path without '..' is expected (net/ipv4/tcp_sack)" },
		{ "x sysctl int global net/x 0 1 - g desc\n",
		  "scope 'global': accepted are" },
		{ "x sysctl int netns net/x 0 1 - g\n", "description missing" },
		{ "x sysctl int netns net/x\n", "min missing" },
		{ "x sysctl int netns net/x zero 1 - g desc\n", "min 'zero'" },
		{ "x sysctl int netns net/x 5 1 - g desc\n", "max '1': below min 5" },
		{ "x sysctl bool netns net/x 0 1 - g desc\n",
		  "min '0': a bool knob has no range" },
		{ "x sysctl int netns ../etc/passwd 0 1 - g desc\n",
		  "where '../etc/passwd'" },
		{ "x sysctl int netns /proc/sys/x 0 1 - g desc\n",
		  "where '/proc/sys/x'" },
		{ "x coalesce int device RX_USECS 0 1 us g desc\n",
		  "where 'RX_USECS': an ETHTOOL_A_COALESCE_* attribute" },
		{ "x feature int device rx-gro - - - g desc\n",
		  "type 'int': a feature knob is bool" },
		{ "x feature bool netns rx-gro - - - g desc\n",
		  "scope 'netns': a feature knob belongs to a device" },
		{ "x sysctl int device net/x 0 1 - g desc\n",
		  "scope 'device': a sysctl is host, netns or netns-ro" },
		{ "x linkinfo int netns ETHTOOL_A_LINKMODES_SPEED 0 1 Mb/s g d\n",
		  "scope 'netns': a linkinfo knob belongs to a device" },
		{ "x linkinfo bool host ETHTOOL_A_LINKSTATE_LINK - - - g d\n",
		  "scope 'host': a linkinfo knob belongs to a device" },
		{ "x linkinfo int3 device ETHTOOL_A_LINKMODES_SPEED 0 1 - g d\n",
		  "type 'int3': a linkinfo knob is int, bool or string" },
		{ "x linkinfo int device ETHTOOL_A_RINGS_RX 0 1 - g d\n",
		  "where 'ETHTOOL_A_RINGS_RX': an ETHTOOL_A_LINKMODES_*" },
		{ "x linkinfo int device ETHTOOL_A_LINKMODES_ 0 1 - g d\n",
		  "where 'ETHTOOL_A_LINKMODES_'" },
		{ "-x sysctl int netns net/x 0 1 - g desc\n", "name '-x'" },
		{ "x feature bool device rx-gro,,tx-gso - - - g desc\n",
		  "where 'rx-gro,,tx-gso'" },
		{ "x sysctl int netns net/x 0 1 a-very-long-unit-name g d\n",
		  "unit 'a-very-long-unit-name'" },
	};
	char text[512], err[ERR_MAX], want[300];
	struct catalog *c;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc;

		snprintf(text, sizeof(text),
			 "# a comment\n\n%sgood sysctl int netns net/good 0 1 - g ok\n",
			 cases[i].line);
		err[0] = '\0';
		c = (struct catalog *)1;
		rc = load_text(text, &c, err);
		snprintf(want, sizeof(want), "%s:3: %s", tmp_path,
			 cases[i].expect);
		ok(rc == -EINVAL && c == NULL &&
		   !strncmp(err, want, strlen(want)),
		   "malformed line %zu rejected at line 3: %s", i, err);
	}

	err[0] = '\0';
	ok(load_text("a sysctl int netns net/a 0 1 - g one\n"
		     "# between\n"
		     "a sysctl int netns net/b 0 1 - g two\n", &c, err) ==
		   -EINVAL &&
	   strstr(err, ":3: name 'a': already defined on line 1"),
	   "duplicate name rejected with both lines: %s", err);

	/* A description reaches terminals: C1 controls and bad UTF-8 are refused, UTF-8 kept. */
	err[0] = '\0';
	ok(load_text("a sysctl int netns net/a 0 1 - g csi \xc2\x9b" "31m here\n", &c, err) == -EINVAL &&
	   strstr(err, ":1: control character or invalid UTF-8"),
	   "a C1 control in a description is refused: %s", err);
	err[0] = '\0';
	ok(load_text("a sysctl int netns net/a 0 1 - g latin1 \xe9t\xe9\n", &c, err) == -EINVAL &&
	   strstr(err, ":1: control character or invalid UTF-8"),
	   "invalid UTF-8 in a description is refused: %s", err);
	c = NULL;
	ok(load_text("a sysctl int netns net/a 0 1 - g \xc3\xa9t\xc3\xa9 \xe2\x82\xac\n", &c, err) == 0,
	   "UTF-8 in a description is taken (%s)", err);
	catalog_free(c);

	err[0] = '\0';
	ok(load_text("# nothing but comments\n\n", &c, err) == -EINVAL &&
	   strstr(err, "no knobs"), "a catalog without knobs is rejected: %s",
	   err);

	err[0] = '\0';
	ok(catalog_load(&c, "/nonexistent/knobs", err) == -ENOENT &&
	   strstr(err, "/nonexistent/knobs: No such file"),
	   "a missing file is -ENOENT naming it: %s", err);

	err[0] = '\0';
	if (ok(load_text("  k  sysctl\tint3  netns  net/k  1  100  bytes  tcp   "
			 "three  words \t here  \r\n", &c, err) == 0,
	       "tabs, runs of spaces and CRLF are accepted (%s)", err)) {
		const struct knob_def *d = catalog_find(c, "k");

		ok(d && d->type == KNOB_INT3 && d->min == 1 && d->max == 100 &&
		   !strcmp(d->unit, "bytes") && !strcmp(d->group, "tcp") &&
		   !strcmp(d->desc, "three  words \t here"),
		   "fields and the description (rest of line) are parsed");
		catalog_free(c);
	}
	err[0] = '\0';
	if (ok(load_text("n sysctl int netns net/n -10 -1 - g negative ok\n",
			 &c, err) == 0, "negative ranges load (%s)", err)) {
		const struct knob_def *d = catalog_find(c, "n");

		ok(d && d->min == -10 && d->max == -1 && d->unit[0] == '\0',
		   "negative min/max kept, '-' unit is empty");
		catalog_free(c);
	}
}

/* A def for value tests, built without a file. */
static struct knob_def def(const char *name, enum knob_type t, int64_t min,
			   int64_t max, const char *unit)
{
	struct knob_def d;

	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "%s", name);
	d.type = t;
	d.min = min;
	d.max = max;
	snprintf(d.unit, sizeof(d.unit), "%s", unit);
	return d;
}

/* Values are checked against type and range, and come out canonical. */
static void test_values(void)
{
	struct knob_def usecs = def("rx-usecs", KNOB_INT, 0, 65535, "us");
	struct knob_def gro = def("gro", KNOB_BOOL, 0, 0, "");
	struct knob_def rmem = def("net.ipv4.tcp_rmem", KNOB_INT3, 1,
				   2147483647, "bytes");
	struct knob_def lowat = def("net.ipv4.tcp_notsent_lowat", KNOB_INT, 0,
				    4294967295ll, "bytes");
	struct knob_def cc = def("net.ipv4.tcp_congestion_control",
				 KNOB_STRING, 0, 0, "");
	struct knob_def rate = def("lab-rate", KNOB_INT, 0, 17179869176ll,
				   "bit/s");
	struct knob_def neg = def("n", KNOB_INT, -5, 5, "");
	struct knob_value v, w;
	char err[ERR_MAX];
	int rc;

	rc = knob_parse_value(&usecs, "64", &v, err);
	ok(rc == 0 && v.present && v.num[0] == 64 && !strcmp(v.text, "64"),
	   "rx-usecs 64 accepted");
	rc = knob_parse_value(&usecs, "  0065535 ", &v, err);
	ok(rc == 0 && v.num[0] == 65535 && !strcmp(v.text, "65535"),
	   "the top of the range, padded, is canonicalised to 65535");
	rc = knob_parse_value(&usecs, "70000", &v, err);
	ok(rc == -ERANGE && !strcmp(err, "rx-usecs 70000: accepted is 0..65535 us")
	   && !v.present, "out of range names the range and unit: %s", err);
	rc = knob_parse_value(&usecs, "-1", &v, err);
	ok(rc == -ERANGE, "a negative number is out of range: %s", err);
	rc = knob_parse_value(&usecs, "12abc", &v, err);
	ok(rc == -EINVAL && strstr(err, "not a number") &&
	   strstr(err, "0..65535 us"), "garbage is not a number: %s", err);
	rc = knob_parse_value(&usecs, "   ", &v, err);
	ok(rc == -EINVAL && strstr(err, "empty"), "empty is refused: %s", err);
	rc = knob_parse_value(&usecs, "99999999999999999999", &v, err);
	ok(rc == -EINVAL, "a number past int64 is refused: %s", err);
	rc = knob_parse_value(&neg, "-5", &v, err);
	ok(rc == 0 && v.num[0] == -5 && !strcmp(v.text, "-5"),
	   "negative values accepted when the range allows");

	static const char *const on[] = { "on", "ON", "1", "true", "Yes" };
	static const char *const off[] = { "off", "0", "False", "no" };
	for (unsigned i = 0; i < 5; i++) {
		rc = knob_parse_value(&gro, on[i], &v, err);
		ok(rc == 0 && v.num[0] == 1 && !strcmp(v.text, "on"),
		   "bool '%s' is on", on[i]);
	}
	for (unsigned i = 0; i < 4; i++) {
		rc = knob_parse_value(&gro, off[i], &v, err);
		ok(rc == 0 && v.num[0] == 0 && !strcmp(v.text, "off"),
		   "bool '%s' is off", off[i]);
	}
	rc = knob_parse_value(&gro, "2", &v, err);
	ok(rc == -EINVAL && strstr(err, "accepted are on/off, 1/0"),
	   "bool '2' refused with the spellings: %s", err);

	rc = knob_parse_value(&rmem, "4096\t131072   6291456", &v, err);
	ok(rc == 0 && v.num[0] == 4096 && v.num[1] == 131072 &&
	   v.num[2] == 6291456 && !strcmp(v.text, "4096 131072 6291456"),
	   "int3 with tabs canonicalised to single spaces");
	rc = knob_parse_value(&rmem, "4K 128K 6M", &v, err);
	ok(rc == 0 && v.num[0] == 4096 && v.num[1] == 131072 &&
	   v.num[2] == 6291456, "byte knobs take size suffixes: %s", v.text);
	rc = knob_parse_value(&rmem, "4096 131072", &v, err);
	ok(rc == -EINVAL && strstr(err, "three numbers"),
	   "int3 with two numbers refused: %s", err);
	rc = knob_parse_value(&rmem, "1 2 3 4", &v, err);
	ok(rc == -EINVAL, "int3 with four numbers refused");
	rc = knob_parse_value(&rmem, "8192 4096 6291456", &v, err);
	ok(rc == -ERANGE && strstr(err, "min <= default <= max"),
	   "int3 decreasing refused: %s", err);
	rc = knob_parse_value(&rmem, "0 4096 6291456", &v, err);
	ok(rc == -ERANGE && strstr(err, "accepted is 1..2147483647 bytes"),
	   "int3 number out of range refused: %s", err);
	rc = knob_parse_value(&rmem, "4096 4096 4096", &v, err);
	ok(rc == 0, "int3 equal numbers accepted");

	rc = knob_parse_value(&lowat, "128K", &v, err);
	ok(rc == 0 && v.num[0] == 131072 && !strcmp(v.text, "131072"),
	   "tcp_notsent_lowat 128K is 131072");
	rc = knob_parse_value(&lowat, "4294967295", &v, err);
	ok(rc == 0 && v.num[0] == 4294967295ll, "u32 max accepted");
	rc = knob_parse_value(&lowat, "4G", &v, err);
	ok(rc == -ERANGE, "4G is past u32: %s", err);
	rc = knob_parse_value(&usecs, "64K", &v, err);
	ok(rc == -EINVAL, "size suffixes only for byte knobs");

	rc = knob_parse_value(&rate, "100mbit", &v, err);
	ok(rc == 0 && v.num[0] == 100000000 && !strcmp(v.text, "100000000"),
	   "lab-rate 100mbit is 100000000 bit/s");
	rc = knob_parse_value(&rate, "2500000", &v, err);
	ok(rc == 0 && v.num[0] == 2500000, "lab-rate plain number is bit/s");
	rc = knob_parse_value(&rate, "none", &v, err);
	ok(rc == 0 && v.num[0] == 0, "lab-rate none is 0");
	rc = knob_parse_value(&rate, "100furlongs", &v, err);
	ok(rc == -EINVAL && strstr(err, "tc units"),
	   "lab-rate bad unit refused: %s", err);
	rc = knob_parse_value(&rate, "3gbps", &v, err);
	ok(rc == -ERANGE && strstr(err, "bit/s"),
	   "lab-rate above the lab's maximum refused: %s", err);

	rc = knob_parse_value(&cc, " bbr ", &v, err);
	ok(rc == 0 && !strcmp(v.text, "bbr"), "string trimmed");
	rc = knob_parse_value(&cc, "bb r", &v, err);
	ok(rc == -EINVAL && strstr(err, "one word"),
	   "string with a space refused: %s", err);
	rc = knob_parse_value(&cc, "bbr\nreno", &v, err);
	ok(rc == -EINVAL, "string with a newline refused");
	rc = knob_parse_value(&cc, "bb\x01r", &v, err);
	ok(rc == -EINVAL, "string with a control character refused");
	rc = knob_parse_value(&cc, "", &v, err);
	ok(rc == -EINVAL, "empty string refused");
	{
		char big[200];

		memset(big, 'a', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		rc = knob_parse_value(&cc, big, &v, err);
		ok(rc == -EINVAL && strstr(err, "too long"),
		   "string too long refused: %s", err);
	}

	knob_parse_value(&rmem, "1 2 3", &v, err);
	knob_parse_value(&rmem, "1  2\t3", &w, err);
	ok(knob_value_equal(&rmem, &v, &w), "equal int3 values compare equal");
	knob_parse_value(&rmem, "1 2 4", &w, err);
	ok(!knob_value_equal(&rmem, &v, &w), "different int3 values differ");
	memset(&w, 0, sizeof(w));
	ok(!knob_value_equal(&rmem, &v, &w), "n/a differs from a value");
}

/* The default path follows TUNETOP_DATADIR, then top_srcdir. */
static void test_default_path(void)
{
	const char *top = getenv("top_srcdir");
	char want[4200];

	setenv("TUNETOP_DATADIR", "/opt/tt", 1);
	ok(!strcmp(catalog_default_path(), "/opt/tt/knobs"),
	   "TUNETOP_DATADIR wins: %s", catalog_default_path());
	unsetenv("TUNETOP_DATADIR");
	if (top && *top) {
		snprintf(want, sizeof(want), "%s/data/knobs", top);
		ok(!strcmp(catalog_default_path(), want),
		   "under make check the source tree's catalog is used: %s",
		   catalog_default_path());
	}
	ok(access(catalog_default_path(), R_OK) == 0 ||
	   !strcmp(catalog_default_path(), PKGDATADIR "/knobs"),
	   "the default path is a readable catalog or the installed one: %s",
	   catalog_default_path());
}

/*
 * Every kind the catalog accepts has a backend under the same name, which
 * says what the catalog takes of it (where, types, scope: backend.h).
 */
static void test_backends(void)
{
	unsigned full = 0;

	for (int k = 0; k < KNOB_KIND_COUNT; k++) {
		const struct knob_backend *b = backend_for(k);

		if (b && b->name && !strcmp(b->name, knob_kind_name(k)) &&
		    (b->get || b->lab_get) &&
		    (b->set || b->readonly || b->lab_set) &&
		    (!b->lab_get || b->lab_only) && b->where_problem &&
		    b->types && (b->types == KNOB_TYPES_ALL || b->types_why))
			full++;
		else
			ok(0, "backend of kind %d (%s) missing or incomplete", k,
			   knob_kind_name(k));
	}
	ok(full == KNOB_KIND_COUNT,
	   "backends: all %u kinds have one, named as in the catalog",
	   full);
	ok(backend_for(KNOB_KIND_COUNT) == NULL,
	   "backends: none past the last kind");
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	int fd;

	if (top && *top)
		snprintf(catalog_path, sizeof(catalog_path), "%s/data/knobs",
			 top);
	else
		snprintf(catalog_path, sizeof(catalog_path), "%s",
			 catalog_default_path());
	snprintf(tmp_path, sizeof(tmp_path), "/tmp/tt-catalog-XXXXXX");
	fd = mkstemp(tmp_path);
	if (fd < 0) {
		ok(0, "mkstemp: %s", strerror(errno));
		return tap_done();
	}
	close(fd);
	test_shipped();
	test_malformed();
	test_values();
	test_default_path();
	test_backends();
	unlink(tmp_path);
	return tap_done();
}
