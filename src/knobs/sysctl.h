/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysctl.h - read and change sysctl and sysfs knobs through their files. */
#ifndef TT_SYSCTL_H
#define TT_SYSCTL_H

#include <stdbool.h>

#include "knobs/knob.h"

/* Where sysctls live; tests pass a copy of tests/data/sys instead. */
#define SYSCTL_ROOT "/proc/sys"

/*
 * Read knob d (KNOB_SYSCTL, or KNOB_SYSFS with root "/sys/class/net/DEV")
 * from root/d->where into v, with whitespace made single spaces ("4096
 * 131072 6291456").  A missing file is not an error: v->present is false
 * and v->reason says why ("host-only: not in this namespace").  0 or
 * -errno.
 */
int sysctl_get(const char *root, const struct knob_def *d,
	       struct knob_value *v, char *err);

/*
 * Write v (checked by knob_parse_value) to root/d->where, then read it
 * back into *after (may be NULL).  *took (may be NULL) says whether the
 * read-back equals v; when it does not, 0 is still returned and err says
 * what the kernel kept.  -EACCES for a knob read-only inside a network
 * namespace ("net.core.rmem_max: read-only inside a network namespace
 * ..."), -ENOENT for a knob absent here, else -errno with the kernel's
 * refusal ("net.ipv4.tcp_congestion_control: kernel refused 'foo': No
 * such file or directory").
 */
int sysctl_set(const char *root, const struct knob_def *d,
	       const struct knob_value *v, struct knob_value *after,
	       bool *took, char *err);

#endif
