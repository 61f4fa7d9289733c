/* SPDX-License-Identifier: GPL-2.0-or-later */
/* irqstat.h - per-CPU interrupts of a device and NET_RX/NET_TX softirqs. */
#ifndef TT_IRQSTAT_H
#define TT_IRQSTAT_H

#include <stdint.h>

#include "sample/sample.h"

/* Room for one name to match against /proc/interrupts (IFNAMSIZ is 16). */
#define IRQSTAT_NAME_MAX 32

/*
 * One reading.  With names to match, the CPUs are the columns of
 * /proc/interrupts (the online CPUs); with none, those of /proc/softirqs
 * (the possible CPUs).  Ids are ascending and may be sparse.
 */
struct irqstat_raw {
	unsigned ncpu;
	int id[TT_MAX_CPUS];
	uint64_t dev_irqs[TT_MAX_CPUS];	/* sum of the matching lines */
	unsigned nlines;		/* IRQ lines that matched */
	uint64_t net_rx[TT_MAX_CPUS], net_tx[TT_MAX_CPUS];
};


/*
 * Read <proc_root>/interrupts and <proc_root>/softirqs ("/proc" normally).
 * An IRQ line belongs to the device when one of its action names holds one
 * of names[0..nnames-1] as a whole '-', '@' or ':' separated part:
 * "eth1", "eth1-TxRx-0", "ice-eth1-TxRx-0", "virtio0-input.0" for the
 * alias "virtio0", "mlx5_comp0@pci:0000:81:00.0" for "0000:81:00.0".
 * With nnames 0 only /proc/softirqs is read.  A device without IRQ lines
 * (veth, lo) gives nlines 0.  0 or -errno with err set.
 */
int irqstat_read(const char *proc_root, const char *const *names,
		 unsigned nnames, struct irqstat_raw *out, char *err);

/*
 * Per-CPU rates over secs seconds.  A CPU absent from either reading, or
 * whose counters went backwards (hotplug), is left out; secs <= 0 gives
 * rates of 0.  When the number of matching lines changed (channels were
 * reconfigured) the IRQ sums are not comparable: nlines is 0 and the IRQ
 * rates are 0, the softirq rates still hold.
 */
void irqstat_delta(const struct irqstat_raw *a, const struct irqstat_raw *b,
		   double secs, struct irq_sample *out);

/*
 * The names dev's interrupts go by: dev itself, then the basename of the
 * <sys_root>/class/net/<dev>/device link ("virtio0", "0000:81:00.0") when
 * there is one.  A virtual device (veth, lo) gets {dev} alone.  0, -ENODEV
 * when sys_root has no such interface, -EINVAL for a bad name or max 0.
 */
int irqstat_dev_aliases(const char *sys_root, const char *dev,
			char names[][IRQSTAT_NAME_MAX], unsigned max,
			unsigned *n);

#endif
