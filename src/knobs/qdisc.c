// SPDX-License-Identifier: GPL-2.0-or-later
/* qdisc.c - the lab's rate limit knob: the tbf on both veth ends of a lab. */
#include "config.h"

#include <errno.h>

#include "knobs/backend.h"
#include "lab/lab.h"

#define QDISC_LAB_ONLY \
	"lab-only: the rate limit of a lab (--side lab-a|lab-b --lab NAME)"

/* Backend: the lab's tbf rate, read through lab_info. */
static int qdisc_knob_get(const struct knob_def *d, const struct knob_target *t,
			  struct knob_value *v, char *err)
{
	struct lab_info li;
	char e[ERR_MAX];

	(void)err;
	if (t->where == KT_LOCAL || !t->lab) {
		knob_value_na(v, "%s", QDISC_LAB_ONLY);
		return 0;
	}
	if (lab_info(t->lab, &li, e)) {
		knob_value_na(v, "%s", e);
		return 0;
	}
	knob_value_from_u64(d, li.rate_bps, v);
	return 0;
}

/* The lab's rate on both veth ends (0: none). */
static int qdisc_knob_set(const struct knob_def *d, const struct knob_target *t,
			  const struct knob_value *val, char *err)
{
	if (t->where == KT_LOCAL || !t->lab)
		return err_set(err, -EOPNOTSUPP, "%s: %s", d->name,
			       QDISC_LAB_ONLY);
	return lab_set_rate(t->lab, (uint64_t)val->num[0], err);
}

const struct knob_backend qdisc_backend = {
	.name = "qdisc",
	.where_problem = knob_where_lower,
	.types = KNOB_TYPE_BIT(KNOB_INT),
	.types_why = KNOB_INT_ONLY,
	.per_device = true,
	.lab_get = qdisc_knob_get,
	.lab_set = qdisc_knob_set,
	.lab_only = QDISC_LAB_ONLY,
};
