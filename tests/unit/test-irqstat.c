// SPDX-License-Identifier: GPL-2.0-or-later
/* test-irqstat.c - /proc/interrupts and /proc/softirqs, recorded and live. */
#include "config.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sample/irqstat.h"
#include "core/util.h"
#include "tap.h"

static char data_dir[PATH_MAX / 2];

/* The recorded snapshots live under $top_srcdir/tests/data/proc-irq. */
static const char *root(const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", data_dir, name);
	return path;
}

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

/* Read <name>.1 and <name>.2 with the given names and take their delta. */
static int load_pair(const char *name, const char *const *names,
		     unsigned nnames, double secs, struct irqstat_raw *a,
		     struct irqstat_raw *b, struct irq_sample *s)
{
	char err[ERR_MAX] = "";
	char n1[64], n2[64];
	int rc;

	snprintf(n1, sizeof(n1), "%s.1", name);
	snprintf(n2, sizeof(n2), "%s.2", name);
	rc = irqstat_read(root(n1), names, nnames, a, err);
	if (!ok(rc == 0, "%s: first snapshot reads (%s)", name, err))
		return -1;
	rc = irqstat_read(root(n2), names, nnames, b, err);
	if (!ok(rc == 0, "%s: second snapshot reads (%s)", name, err))
		return -1;
	irqstat_delta(a, b, secs, s);
	return 0;
}

/* Per-CPU rates of s equal want[0..3] for CPUs 0 2 5 7. */
static int rates_are(const double *got, const double *want)
{
	for (int i = 0; i < 4; i++)
		if (!near(got[i], want[i]))
			return 0;
	return 1;
}

static void test_handmade(void)
{
	static struct irqstat_raw a, b;
	static struct irq_sample s;
	const char *eth1[] = { "eth1" };
	const double irq[] = { 250, 350, 25, 450 };
	const double rx[] = { 1000, 2000, 300, 5000 };
	const double tx[] = { 50, 0, 5, 150 };

	if (load_pair("handmade", eth1, 1, 2.0, &a, &b, &s))
		return;
	ok(a.ncpu == 4 && a.id[0] == 0 && a.id[1] == 2 && a.id[2] == 5 &&
		   a.id[3] == 7,
	   "handmade: CPU ids 0 2 5 7 come from the interrupts header");
	ok(a.nlines == 3 && b.nlines == 3,
	   "handmade: eth1 has 3 queue lines, not eth10's nor the short row (%u)",
	   a.nlines);
	ok(a.dev_irqs[0] == 5000 && a.dev_irqs[1] == 7000 &&
		   a.dev_irqs[2] == 100 && a.dev_irqs[3] == 9000,
	   "handmade: raw sums per CPU are 5000 7000 100 9000");
	ok(a.net_rx[1] == 3000 && a.net_tx[3] == 400,
	   "handmade: softirq columns are matched by CPU id, not position (%llu)",
	   (unsigned long long)a.net_rx[1]);
	if (!ok(s.ncpu == 4 && s.nlines == 3,
		"handmade: delta covers 4 CPUs and 3 lines (%u, %u)", s.ncpu,
		s.nlines))
		return;
	ok(s.id[0] == 0 && s.id[1] == 2 && s.id[2] == 5 && s.id[3] == 7,
	   "handmade: delta keeps the sparse ids");
	ok(rates_are(s.irq_rate, irq),
	   "handmade: eth1 irq/s 250 350 25 450 (%.1f %.1f %.1f %.1f)",
	   s.irq_rate[0], s.irq_rate[1], s.irq_rate[2], s.irq_rate[3]);
	ok(near(s.irq_total, 1075), "handmade: eth1 total 1075 irq/s (%.1f)",
	   s.irq_total);
	ok(rates_are(s.rx_rate, rx) && near(s.rx_total, 8300),
	   "handmade: NET_RX/s 1000 2000 300 5000, total 8300 (%.1f)",
	   s.rx_total);
	ok(rates_are(s.tx_rate, tx) && near(s.tx_total, 205),
	   "handmade: NET_TX/s 50 0 5 150, total 205 (%.1f)", s.tx_total);
}

/* Which lines match: exact, shared-IRQ lists, driver prefixes, aliases. */
static void test_matching(void)
{
	static struct irqstat_raw a, b;
	static struct irq_sample s;
	const char *eth2[] = { "eth2" };
	const char *eth3[] = { "eth3" };
	const char *eth4[] = { "eth4" };
	const char *mlx[] = { "eth9", "0000:81:00.0" };
	const char *eth[] = { "eth" };
	const char *pci[] = { "PCI" };
	const char *err_row[] = { "ERR" };
	const char *both[] = { "eth1", "eth2" };

	if (!load_pair("handmade", eth2, 1, 2.0, &a, &b, &s))
		ok(s.nlines == 1 && near(s.irq_rate[0], 10) &&
			   near(s.irq_rate[1], 1) && near(s.irq_total, 11),
		   "matching: eth2 on a shared IRQ after \"ehci_hcd:usb1, \" (%u lines, %.1f/s)",
		   s.nlines, s.irq_total);
	if (!load_pair("handmade", eth4, 1, 2.0, &a, &b, &s))
		ok(s.nlines == 1 && near(s.irq_rate[2], 4) &&
			   near(s.irq_total, 4),
		   "matching: eth4 first in the shared list \"eth4, i801_smbus\" (%u lines)",
		   s.nlines);
	if (!load_pair("handmade", eth3, 1, 2.0, &a, &b, &s))
		ok(s.nlines == 1 && near(s.irq_rate[0], 15),
		   "matching: ice-eth3-TxRx-0 belongs to eth3 (%u lines)",
		   s.nlines);
	if (!load_pair("handmade", mlx, 2, 2.0, &a, &b, &s))
		ok(s.nlines == 1 && near(s.irq_rate[1], 20),
		   "matching: mlx5_comp0@pci:0000:81:00.0 by its PCI alias (%u lines)",
		   s.nlines);
	if (!load_pair("handmade", eth, 1, 2.0, &a, &b, &s))
		ok(s.nlines == 0 && s.irq_total == 0,
		   "matching: \"eth\" is no whole part of any name (%u lines)",
		   s.nlines);
	if (!load_pair("handmade", pci, 1, 2.0, &a, &b, &s))
		ok(s.nlines == 0,
		   "matching: the chip column (PCI-MSI) is not a name (%u lines)",
		   s.nlines);
	if (!load_pair("handmade", err_row, 1, 2.0, &a, &b, &s))
		ok(s.nlines == 0 && s.ncpu == 4,
		   "matching: ERR:/MIS: rows with one count are no device lines");
	if (!load_pair("handmade", both, 2, 2.0, &a, &b, &s))
		ok(s.nlines == 4 && near(s.irq_total, 1086),
		   "matching: eth1 and eth2 together, 4 lines %.1f irq/s",
		   s.irq_total);
}

static void test_sparse(void)
{
	static struct irqstat_raw a, b;
	static struct irq_sample s;
	const char *eth1[] = { "eth1" };

	if (load_pair("sparse", eth1, 1, 1.0, &a, &b, &s))
		return;
	ok(b.ncpu == 4 && b.id[2] == 3,
	   "sparse: CPU3 online in the second reading");
	if (!ok(s.ncpu == 3, "sparse: only CPUs in both readings (got %u)",
		s.ncpu))
		return;
	ok(s.id[0] == 0 && s.id[1] == 2 && s.id[2] == 7,
	   "sparse: delta ids 0 2 7 (%d %d %d)", s.id[0], s.id[1], s.id[2]);
	ok(near(s.irq_rate[0], 1) && near(s.irq_rate[1], 2) &&
		   near(s.irq_rate[2], 4) && near(s.irq_total, 7),
	   "sparse: irq/s 1 2 4");
	ok(near(s.rx_rate[0], 10) && near(s.rx_rate[1], 20) &&
		   near(s.rx_rate[2], 40) && near(s.tx_total, 7),
	   "sparse: NET_RX/s 10 20 40, NET_TX total 7");
}

static void test_backwards(void)
{
	static struct irqstat_raw a, b;
	static struct irq_sample s;
	const char *eth1[] = { "eth1" };

	if (load_pair("backwards", eth1, 1, 0.5, &a, &b, &s))
		return;
	if (!ok(s.ncpu == 1 && s.id[0] == 0,
		"backwards: CPUs whose IRQ or NET_RX counts went back are dropped (ncpu %u)",
		s.ncpu))
		return;
	ok(near(s.irq_rate[0], 200) && near(s.rx_rate[0], 800) &&
		   near(s.tx_rate[0], 40),
	   "backwards: CPU0 200 irq/s 800 rx/s 40 tx/s over 0.5 s");
	ok(near(s.irq_total, 200) && near(s.rx_total, 800),
	   "backwards: totals come from CPU0 alone");
}

static void test_recorded(void)
{
	static struct irqstat_raw a, b;
	static struct irq_sample s;
	const char *eth0[] = { "eth0", "virtio2" };
	const char *vsock[] = { "virtio3" };

	if (!load_pair("recorded", eth0, 2, 1.0, &a, &b, &s)) {
		ok(a.ncpu == 2 && a.nlines == 3,
		   "recorded: eth0 on virtio2 has 3 lines (%u)", a.nlines);
		ok(a.dev_irqs[0] == 354 && a.dev_irqs[1] == 412,
		   "recorded: virtio2 sums 354 and 412");
		ok(s.ncpu == 2 && s.irq_total == 0,
		   "recorded: no eth0 interrupts while traffic stayed on lo");
		ok(near(s.rx_rate[0], 94975) && near(s.rx_rate[1], 250381) &&
			   s.tx_total == 0,
		   "recorded: NET_RX +94975 +250381, NET_TX +0");
	}
	if (!load_pair("recorded", vsock, 1, 1.0, &a, &b, &s))
		ok(s.nlines == 4 && near(s.irq_rate[1], 2) &&
			   near(s.irq_total, 2),
		   "recorded: virtio3 has 4 lines, +2 on CPU1 (%u, %.1f)",
		   s.nlines, s.irq_total);
}

/* Interfaces without interrupts, no names, a changed set of lines. */
static void test_no_lines(void)
{
	static struct irqstat_raw a, b;
	static struct irq_sample s;
	const char *veth[] = { "veth0" };
	const char *lo[] = { "lo" };
	const char *eth1[] = { "eth1" };
	const char *eth12[] = { "eth1", "eth2" };
	char err[ERR_MAX] = "";

	if (!load_pair("recorded", veth, 1, 1.0, &a, &b, &s))
		ok(a.nlines == 0 && s.nlines == 0 && s.ncpu == 2 &&
			   near(s.rx_rate[1], 250381),
		   "no lines: veth0 has nlines 0, softirqs still counted");
	if (!load_pair("recorded", lo, 1, 1.0, &a, &b, &s))
		ok(a.nlines == 0 && s.irq_total == 0,
		   "no lines: lo has nlines 0");
	if (!load_pair("handmade", NULL, 0, 2.0, &a, &b, &s)) {
		ok(a.ncpu == 8 && a.id[7] == 7 && a.net_rx[1] == 77777,
		   "no names: the CPUs are the possible ones of /proc/softirqs (%u)",
		   a.ncpu);
		ok(s.ncpu == 8 && near(s.rx_total, 8300) && s.nlines == 0,
		   "no names: NET_RX total 8300/s over 8 CPUs");
	}
	if (irqstat_read(root("handmade.1"), eth1, 1, &a, err) == 0 &&
	    irqstat_read(root("handmade.2"), eth12, 2, &b, err) == 0) {
		irqstat_delta(&a, &b, 2.0, &s);
		ok(s.nlines == 0 && s.irq_total == 0 && s.ncpu == 4 &&
			   near(s.rx_total, 8300),
		   "changed lines: 3 then 4 lines give no IRQ figure, softirqs stay");
	} else {
		ok(0, "changed lines: snapshots read (%s)", err);
	}
}

static void test_zero_secs(void)
{
	static struct irqstat_raw a, b;
	static struct irq_sample s;
	const char *eth1[] = { "eth1" };

	if (load_pair("handmade", eth1, 1, 0.0, &a, &b, &s))
		return;
	ok(s.ncpu == 4 && s.irq_rate[0] == 0 && s.rx_total == 0 &&
		   !isnan(s.irq_total) && !isnan(s.tx_rate[3]),
	   "zero secs: rates are 0, not NaN or inf");
}

static void test_missing(void)
{
	static struct irqstat_raw a;
	const char *eth1[] = { "eth1" };
	char err[ERR_MAX] = "";
	char want[PATH_MAX + 16];
	int rc;

	rc = irqstat_read(root("no-such-root"), eth1, 1, &a, err);
	ok(rc == -ENOENT, "missing: no interrupts file is -ENOENT (got %d)",
	   rc);
	snprintf(want, sizeof(want), "%s/interrupts: ",
		 root("no-such-root"));
	ok(strncmp(err, want, strlen(want)) == 0 &&
		   strstr(err, strerror(ENOENT)),
	   "missing: message names the path (\"%s\")", err);
	rc = irqstat_read(root("no-such-root"), NULL, 0, &a, err);
	snprintf(want, sizeof(want), "%s/softirqs: ", root("no-such-root"));
	ok(rc == -ENOENT && strncmp(err, want, strlen(want)) == 0,
	   "missing: without names only softirqs is read (\"%s\")", err);
}

/* Write text to <dir>/<name>. */
static int write_file(const char *dir, const char *name, const char *text,
		      size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fwrite(text, 1, len, f);
	return fclose(f);
}

/* Append the header and one row per label of a file with ncols CPUs. */
static size_t gen_table(char *text, size_t cap, int ncols, int nrows,
			const char *tail)
{
	size_t len = 0;
	int i, r;

	len += (size_t)snprintf(text + len, cap - len, "%11s", "");
	for (i = 0; i < ncols; i++)
		len += (size_t)snprintf(text + len, cap - len, "CPU%-8d", i);
	len += (size_t)snprintf(text + len, cap - len, "\n");
	for (r = 0; r < nrows; r++) {
		len += (size_t)snprintf(text + len, cap - len, "%4d:", 100 + r);
		for (i = 0; i < ncols; i++)
			len += (size_t)snprintf(text + len, cap - len, " %10d",
						r == nrows - 1 ? 1000 + i : 1);
		len += (size_t)snprintf(text + len, cap - len,
					"  PCI-MSI %d-edge  %s-%d\n", r,
					r == nrows - 1 ? tail : "other", r);
	}
	return len;
}

/* Files beyond the first buffer, more CPUs than kept, malformed files. */
static void test_generated(void)
{
	static struct irqstat_raw a;
	const char *eth5[] = { "eth5" };
	char dir[] = "/tmp/test-irqstat.XXXXXX";
	char err[ERR_MAX] = "";
	char path[PATH_MAX];
	size_t cap = 4 << 20, len;
	char *text;
	int i, rc;

	if (!ok(mkdtemp(dir) != NULL, "generated: temp dir"))
		return;
	text = malloc(cap);
	if (!text)
		return;
	len = (size_t)snprintf(text, cap, "%20s", "");
	for (i = 0; i < 300; i++)
		len += (size_t)snprintf(text + len, cap - len, "CPU%-8d", i);
	len += (size_t)snprintf(text + len, cap - len, "\n%12s:", "NET_TX");
	for (i = 0; i < 300; i++)
		len += (size_t)snprintf(text + len, cap - len, " %10d", 2 * i);
	len += (size_t)snprintf(text + len, cap - len, "\n%12s:", "NET_RX");
	for (i = 0; i < 300; i++)
		len += (size_t)snprintf(text + len, cap - len, " %10d", 3 * i);
	len += (size_t)snprintf(text + len, cap - len, "\n");
	write_file(dir, "softirqs", text, len);

	rc = irqstat_read(dir, eth5, 1, &a, err);
	ok(rc == -ENOENT && strstr(err, "/interrupts: "),
	   "generated: softirqs alone does not do for a device (\"%s\")", err);
	err[0] = '\0';
	rc = irqstat_read(dir, NULL, 0, &a, err);
	ok(rc == 0 && a.ncpu == TT_MAX_CPUS &&
		   a.net_rx[TT_MAX_CPUS - 1] == 3 * (TT_MAX_CPUS - 1),
	   "generated: softirqs of 300 CPUs keeps the first %d (%s)",
	   TT_MAX_CPUS, err);

	len = gen_table(text, cap, 300, 200, "eth5-TxRx");
	if (ok(write_file(dir, "interrupts", text, len) == 0,
	       "generated: %zu-byte interrupts written", len)) {
		err[0] = '\0';
		rc = irqstat_read(dir, eth5, 1, &a, err);
		ok(rc == 0 && a.nlines == 1,
		   "generated: the last line of a file past the first buffer matches (%s)",
		   err);
		ok(a.ncpu == TT_MAX_CPUS && a.id[TT_MAX_CPUS - 1] ==
						    TT_MAX_CPUS - 1 &&
			   a.dev_irqs[TT_MAX_CPUS - 1] ==
				   1000 + TT_MAX_CPUS - 1 &&
			   a.net_tx[TT_MAX_CPUS - 1] == 2 * (TT_MAX_CPUS - 1),
		   "generated: the last kept CPU is whole");
	}

	len = (size_t)snprintf(text, cap, "  0:  1  2  IO-APIC 2-edge timer\n");
	write_file(dir, "interrupts", text, len);
	rc = irqstat_read(dir, eth5, 1, &a, err);
	ok(rc == -EINVAL && strstr(err, "/interrupts: "),
	   "generated: interrupts without a CPU header is -EINVAL (\"%s\")",
	   err);

	len = gen_table(text, cap, 2, 1, "eth5");
	write_file(dir, "interrupts", text, len);
	len = (size_t)snprintf(text, cap, "%20sCPU0 CPU1\n NET_TX: 1 2\n", "");
	write_file(dir, "softirqs", text, len);
	rc = irqstat_read(dir, eth5, 1, &a, err);
	ok(rc == -EINVAL && strstr(err, "no NET_RX"),
	   "generated: softirqs without NET_RX is -EINVAL (\"%s\")", err);

	len = (size_t)snprintf(text, cap,
			       "%20sCPU0 CPU1\n NET_TX: 1 2\n NET_RX: 5\n", "");
	write_file(dir, "softirqs", text, len);
	rc = irqstat_read(dir, eth5, 1, &a, err);
	ok(rc == -EINVAL && strstr(err, "malformed"),
	   "generated: a short NET_RX row is -EINVAL (\"%s\")", err);

	len = (size_t)snprintf(text, cap,
			       "%20sCPU0\n NET_TX: 1\n NET_RX: 5\n", "");
	write_file(dir, "softirqs", text, len);
	rc = irqstat_read(dir, eth5, 1, &a, err);
	ok(rc == -EINVAL && strstr(err, "CPU1"),
	   "generated: an online CPU missing from softirqs is -EINVAL (\"%s\")",
	   err);

	free(text);
	snprintf(path, sizeof(path), "%s/interrupts", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/softirqs", dir);
	unlink(path);
	rmdir(dir);
}

/*
 * The fake /sys of tests/data/proc-irq/sys.  `make dist` archives with
 * tar -h, which copies what a link points to, so in an unpacked tarball
 * the links are rebuilt, the same, in a temporary directory.
 */
static const char *const fake_links[][2] = {
	{ "class/net/eth0/device",
	  "../../../devices/pci0000:00/0000:00:03.0/virtio0" },
	{ "class/net/eth1/device",
	  "../../../devices/pci0000:00/0000:00:1c.0/0000:81:00.0" },
};
static const char *const fake_dirs[] = {
	"class", "class/net", "class/net/eth0", "class/net/eth1",
	"class/net/veth0", "class/net/lo", "devices",
	"devices/pci0000:00", "devices/pci0000:00/0000:00:03.0",
	"devices/pci0000:00/0000:00:03.0/virtio0",
	"devices/pci0000:00/0000:00:1c.0",
	"devices/pci0000:00/0000:00:1c.0/0000:81:00.0",
};
#define NFAKE_LINKS (sizeof(fake_links) / sizeof(fake_links[0]))
#define NFAKE_DIRS (sizeof(fake_dirs) / sizeof(fake_dirs[0]))

/* Remove the links and directories fake_sys() made under tmp. */
static void fake_sys_remove(const char *tmp)
{
	char path[PATH_MAX];
	unsigned i;

	for (i = 0; i < NFAKE_LINKS; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, fake_links[i][0]);
		unlink(path);
	}
	for (i = NFAKE_DIRS; i-- > 0;) {
		snprintf(path, sizeof(path), "%s/%s", tmp, fake_dirs[i]);
		rmdir(path);
	}
	rmdir(tmp);
}

/*
 * The fake /sys of tests/data/proc-irq/sys.  `make dist` archives with
 * tar -h, which copies what a link points to, so in an unpacked tarball
 * the links are rebuilt, the same, in a temporary directory.
 */
static const char *fake_sys(char *tmp)
{
	char path[PATH_MAX + 64];
	struct stat st;
	unsigned i;

	snprintf(path, sizeof(path), "%s/%s", root("sys"), fake_links[0][0]);
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return root("sys");
	if (!mkdtemp(tmp))
		return NULL;
	for (i = 0; i < NFAKE_DIRS; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, fake_dirs[i]);
		mkdir(path, 0755);
	}
	for (i = 0; i < NFAKE_LINKS; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, fake_links[i][0]);
		if (symlink(fake_links[i][1], path)) {
			fake_sys_remove(tmp);
			return NULL;
		}
	}
	return tmp;
}

static void test_aliases(void)
{
	char names[4][IRQSTAT_NAME_MAX];
	char tmp[] = "/tmp/test-irqstat-sys.XXXXXX";
	const char *sys = fake_sys(tmp);
	unsigned n = 99;
	int rc;

	if (!ok(sys != NULL, "aliases: fake sys root"))
		return;
	rc = irqstat_dev_aliases(sys, "eth0", names, 4, &n);
	ok(rc == 0 && n == 2 && strcmp(names[0], "eth0") == 0 &&
		   strcmp(names[1], "virtio0") == 0,
	   "aliases: eth0 on virtio goes by eth0 and virtio0 (rc %d, n %u, %s)",
	   rc, n, n > 1 ? names[1] : "-");
	rc = irqstat_dev_aliases(sys, "eth1", names, 4, &n);
	ok(rc == 0 && n == 2 && strcmp(names[1], "0000:81:00.0") == 0,
	   "aliases: a PCI NIC's alias is its PCI address (%s)",
	   n > 1 ? names[1] : "-");
	rc = irqstat_dev_aliases(sys, "eth0", names, 1, &n);
	ok(rc == 0 && n == 1 && strcmp(names[0], "eth0") == 0,
	   "aliases: max 1 keeps the device name alone");
	rc = irqstat_dev_aliases(sys, "veth0", names, 4, &n);
	ok(rc == 0 && n == 1 && strcmp(names[0], "veth0") == 0,
	   "aliases: veth0 without a device link is just itself (rc %d, n %u)",
	   rc, n);
	rc = irqstat_dev_aliases(sys, "lo", names, 4, &n);
	ok(rc == 0 && n == 1, "aliases: lo is just itself");
	rc = irqstat_dev_aliases(sys, "eth7", names, 4, &n);
	ok(rc == -ENODEV && n == 0,
	   "aliases: an interface that is not there is -ENODEV (%d)", rc);
	rc = irqstat_dev_aliases(sys, "../eth0", names, 4, &n);
	ok(rc == -EINVAL, "aliases: a name with '/' is -EINVAL (%d)", rc);
	if (sys == tmp)
		fake_sys_remove(tmp);
}

/* The first interface of /sys/class/net with a device link, not lo. */
static int host_nic(char *dev, size_t len)
{
	DIR *d = opendir("/sys/class/net");
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		char path[PATH_MAX];
		struct stat st;

		if (e->d_name[0] == '.' || strcmp(e->d_name, "lo") == 0)
			continue;
		snprintf(path, sizeof(path), "/sys/class/net/%s/device",
			 e->d_name);
		if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
			snprintf(dev, len, "%s", e->d_name);
			found = 1;
		}
	}
	closedir(d);
	return found;
}

/* Some UDP datagrams over loopback, which the kernel delivers by NET_RX. */
static int loopback_traffic(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t sl = sizeof(sa);
	char buf[64] = "tunetop";
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	int c = socket(AF_INET, SOCK_DGRAM, 0);
	int i, got = 0;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || c < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(s, (struct sockaddr *)&sa, &sl))
		goto out;
	for (i = 0; i < 200; i++) {
		if (sendto(c, buf, sizeof(buf), 0, (struct sockaddr *)&sa,
			   sizeof(sa)) < 0)
			break;
		if (recv(s, buf, sizeof(buf), 0) > 0)
			got++;
	}
out:
	if (s >= 0)
		close(s);
	if (c >= 0)
		close(c);
	return got;
}

static void test_live(void)
{
	static struct irqstat_raw a, b;
	static struct irq_sample s;
	char names[2][IRQSTAT_NAME_MAX];
	const char *np[2];
	char dev[NAME_MAX + 1], err[ERR_MAX] = "";
	uint64_t rx_a = 0, rx_b = 0;
	unsigned n = 0, i;
	int got, rc;

	if (!host_nic(dev, sizeof(dev))) {
		ok(1, "# SKIP live: no interface with a device in /sys/class/net");
		return;
	}
	rc = irqstat_dev_aliases("/sys", dev, names, 2, &n);
	if (!ok(rc == 0 && n == 2, "live: %s has a device alias (%s)", dev,
		n > 1 ? names[1] : "-"))
		return;
	np[0] = names[0];
	np[1] = names[1];
	if (!ok(irqstat_read("/proc", np, 2, &a, err) == 0,
		"live: /proc reads (%s)", err))
		return;
	ok(a.ncpu >= 1 && a.ncpu <= TT_MAX_CPUS, "live: %u CPUs", a.ncpu);
	if (strncmp(names[1], "virtio", 6) == 0)
		ok(a.nlines >= 1, "live: virtio NIC %s has %u IRQ lines", dev,
		   a.nlines);
	else
		ok(1, "# SKIP live: %s is not virtio (%u IRQ lines)", dev,
		   a.nlines);
	got = loopback_traffic();
	if (!ok(irqstat_read("/proc", np, 2, &b, err) == 0,
		"live: second read (%s)", err))
		return;
	for (i = 0; i < a.ncpu; i++)
		rx_a += a.net_rx[i];
	for (i = 0; i < b.ncpu; i++)
		rx_b += b.net_rx[i];
	ok(rx_b >= rx_a, "live: NET_RX total does not go back (%llu -> %llu)",
	   (unsigned long long)rx_a, (unsigned long long)rx_b);
	irqstat_delta(&a, &b, 0.1, &s);
	ok(got > 0 && s.rx_total > 0,
	   "live: %d datagrams on 127.0.0.1 show as NET_RX (%.0f/s)", got,
	   s.rx_total);
	ok(s.nlines == a.nlines && s.irq_total >= 0,
	   "live: the same %u lines in both readings", s.nlines);
}

int main(void)
{
	const char *top = getenv("top_srcdir");

	snprintf(data_dir, sizeof(data_dir), "%s/tests/data/proc-irq",
		 top && *top ? top : ".");
	test_handmade();
	test_matching();
	test_sparse();
	test_backwards();
	test_recorded();
	test_no_lines();
	test_zero_secs();
	test_missing();
	test_generated();
	test_aliases();
	test_live();
	return tap_done();
}
