// SPDX-License-Identifier: GPL-2.0-or-later
/* ethtool-coalesce.c - interrupt coalescing (ethtool -c / -C) over netlink, or the legacy ioctl. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/ethtool.h>

#include "knobs/backend.h"
#include "knobs/ethtool-nl.h"
#include "core/util.h"

_Static_assert(ETHTOOL_A_COALESCE_USE_CQE_MODE_RX == 25,
	       "coalesce attribute numbers are ABI");

/*
 * Every scalar coalescing attribute up to the running 6.18 kernel, by the
 * name ethtool -C takes.  RX_PROFILE/TX_PROFILE (29, 30) are nests of DIM
 * profiles, not single values, and are not knobs.
 */
static const struct ethtool_attr coalesce_attrs[] = {
	{ "rx-usecs", ETHTOOL_A_COALESCE_RX_USECS, 4, true },
	{ "rx-frames", ETHTOOL_A_COALESCE_RX_MAX_FRAMES, 4, true },
	{ "rx-usecs-irq", ETHTOOL_A_COALESCE_RX_USECS_IRQ, 4, true },
	{ "rx-frames-irq", ETHTOOL_A_COALESCE_RX_MAX_FRAMES_IRQ, 4, true },
	{ "tx-usecs", ETHTOOL_A_COALESCE_TX_USECS, 4, true },
	{ "tx-frames", ETHTOOL_A_COALESCE_TX_MAX_FRAMES, 4, true },
	{ "tx-usecs-irq", ETHTOOL_A_COALESCE_TX_USECS_IRQ, 4, true },
	{ "tx-frames-irq", ETHTOOL_A_COALESCE_TX_MAX_FRAMES_IRQ, 4, true },
	{ "stats-block-usecs", ETHTOOL_A_COALESCE_STATS_BLOCK_USECS, 4, true },
	{ "adaptive-rx", ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX, 1, true },
	{ "adaptive-tx", ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX, 1, true },
	{ "pkt-rate-low", ETHTOOL_A_COALESCE_PKT_RATE_LOW, 4, true },
	{ "rx-usecs-low", ETHTOOL_A_COALESCE_RX_USECS_LOW, 4, true },
	{ "rx-frames-low", ETHTOOL_A_COALESCE_RX_MAX_FRAMES_LOW, 4, true },
	{ "tx-usecs-low", ETHTOOL_A_COALESCE_TX_USECS_LOW, 4, true },
	{ "tx-frames-low", ETHTOOL_A_COALESCE_TX_MAX_FRAMES_LOW, 4, true },
	{ "pkt-rate-high", ETHTOOL_A_COALESCE_PKT_RATE_HIGH, 4, true },
	{ "rx-usecs-high", ETHTOOL_A_COALESCE_RX_USECS_HIGH, 4, true },
	{ "rx-frames-high", ETHTOOL_A_COALESCE_RX_MAX_FRAMES_HIGH, 4, true },
	{ "tx-usecs-high", ETHTOOL_A_COALESCE_TX_USECS_HIGH, 4, true },
	{ "tx-frames-high", ETHTOOL_A_COALESCE_TX_MAX_FRAMES_HIGH, 4, true },
	{ "sample-interval", ETHTOOL_A_COALESCE_RATE_SAMPLE_INTERVAL, 4, true },
	{ "cqe-mode-tx", ETHTOOL_A_COALESCE_USE_CQE_MODE_TX, 1, true },
	{ "cqe-mode-rx", ETHTOOL_A_COALESCE_USE_CQE_MODE_RX, 1, true },
	{ "tx-aggr-max-bytes", TT_ETHTOOL_A_COALESCE_TX_AGGR_MAX_BYTES, 4, true },
	{ "tx-aggr-max-frames", TT_ETHTOOL_A_COALESCE_TX_AGGR_MAX_FRAMES, 4, true },
	{ "tx-aggr-time-usecs", TT_ETHTOOL_A_COALESCE_TX_AGGR_TIME_USECS, 4, true },
};

#define NCOALESCE (sizeof(coalesce_attrs) / sizeof(coalesce_attrs[0]))
_Static_assert(NCOALESCE <= ETHTOOL_COALESCE_ATTRS, "struct too small");

static const struct ethtool_family coalesce_family = {
	.what = "coalescing",
	.prefix = "ETHTOOL_A_COALESCE_",
	.get_cmd = ETHTOOL_MSG_COALESCE_GET,
	.set_cmd = ETHTOOL_MSG_COALESCE_SET,
	.hdr_attr = ETHTOOL_A_COALESCE_HEADER,
	.table = coalesce_attrs,
	.ntable = NCOALESCE,
};

/* Reset out to "supported, every parameter absent", names filled. */
static void coalesce_init(struct ethtool_coalesce_params *out)
{
	memset(out, 0, sizeof(*out));
	out->n = NCOALESCE;
	out->supported = true;
	for (unsigned i = 0; i < NCOALESCE; i++)
		snprintf(out->a[i].name, sizeof(out->a[i].name), "%s",
			 coalesce_attrs[i].name);
}

int ethtool_coalesce_parse(const struct nlmsghdr *nlh,
			   struct ethtool_coalesce_params *out, char *err)
{
	struct nlattr *tb[TT_ETHTOOL_PARSE_MAX + 1] = { NULL };
	bool present[NCOALESCE];
	uint32_t value[NCOALESCE];

	coalesce_init(out);
	if (ethtool_nl_parse(nlh, tb, TT_ETHTOOL_PARSE_MAX) < 0)
		return err_set(err, -EINVAL, "coalescing reply: malformed");
	ethtool_attrs_parse(tb, TT_ETHTOOL_PARSE_MAX, coalesce_attrs,
			    NCOALESCE, present, value);
	for (unsigned i = 0; i < NCOALESCE; i++) {
		out->a[i].present = present[i];
		out->a[i].value = value[i];
	}
	return 0;
}

const struct ethtool_coalesce_param *
ethtool_coalesce_find(const struct ethtool_coalesce_params *c, const char *name)
{
	for (unsigned i = 0; i < c->n; i++)
		if (!strcmp(c->a[i].name, name))
			return &c->a[i];
	return NULL;
}

/* Copy the legacy struct into out by name; cqe-mode and tx-aggr stay n/a. */
static void coalesce_from_ioctl(const struct ethtool_coalesce *ec,
				struct ethtool_coalesce_params *out)
{
	const struct {
		const char *name;
		uint32_t value;
	} f[] = {
		{ "rx-usecs", ec->rx_coalesce_usecs },
		{ "rx-frames", ec->rx_max_coalesced_frames },
		{ "rx-usecs-irq", ec->rx_coalesce_usecs_irq },
		{ "rx-frames-irq", ec->rx_max_coalesced_frames_irq },
		{ "tx-usecs", ec->tx_coalesce_usecs },
		{ "tx-frames", ec->tx_max_coalesced_frames },
		{ "tx-usecs-irq", ec->tx_coalesce_usecs_irq },
		{ "tx-frames-irq", ec->tx_max_coalesced_frames_irq },
		{ "stats-block-usecs", ec->stats_block_coalesce_usecs },
		{ "adaptive-rx", ec->use_adaptive_rx_coalesce },
		{ "adaptive-tx", ec->use_adaptive_tx_coalesce },
		{ "pkt-rate-low", ec->pkt_rate_low },
		{ "rx-usecs-low", ec->rx_coalesce_usecs_low },
		{ "rx-frames-low", ec->rx_max_coalesced_frames_low },
		{ "tx-usecs-low", ec->tx_coalesce_usecs_low },
		{ "tx-frames-low", ec->tx_max_coalesced_frames_low },
		{ "pkt-rate-high", ec->pkt_rate_high },
		{ "rx-usecs-high", ec->rx_coalesce_usecs_high },
		{ "rx-frames-high", ec->rx_max_coalesced_frames_high },
		{ "tx-usecs-high", ec->tx_coalesce_usecs_high },
		{ "tx-frames-high", ec->tx_max_coalesced_frames_high },
		{ "sample-interval", ec->rate_sample_interval },
	};

	out->legacy = true;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		for (unsigned j = 0; j < out->n; j++)
			if (!strcmp(out->a[j].name, f[i].name)) {
				out->a[j].present = true;
				out->a[j].value = f[i].value;
			}
}

/* What follows the driver in the reason of a driver without coalescing. */
#define COALESCE_NA ": coalescing not supported ("

/* A driver without coalescing: out n/a, the reason naming the driver. */
static void coalesce_unsupported(const char *dev, const char *extack,
				 struct ethtool_coalesce_params *out)
{
	char drv[64];

	coalesce_init(out);
	out->supported = false;
	ethtool_driver_label(dev, drv, sizeof(drv));
	snprintf(out->reason, sizeof(out->reason), "%s" COALESCE_NA "%s%s%s)", drv,
		 strerror(EOPNOTSUPP), extack[0] ? ": " : "", extack);
}

bool ethtool_coalesce_unsupported_by(const char *reason, char *drv, size_t len)
{
	const char *m = strstr(reason, COALESCE_NA);

	if (!m || m == reason)
		return false;
	snprintf(drv, len, "%.*s", (int)(m - reason), reason);
	return true;
}

int ethtool_coalesce_get_ioctl(const char *dev,
			       struct ethtool_coalesce_params *out, char *err)
{
	struct ethtool_coalesce ec = { .cmd = ETHTOOL_GCOALESCE };
	int rc;

	coalesce_init(out);
	rc = ethtool_ioctl(dev, &ec, "get coalescing", err);
	if (rc == -EOPNOTSUPP) {
		coalesce_unsupported(dev, "", out);
		return 0;
	}
	if (rc < 0)
		return rc;
	coalesce_from_ioctl(&ec, out);
	return 0;
}

struct coalesce_ctx {
	struct ethtool_coalesce_params *out;
	bool got;
};

/* Reply callback: the one COALESCE_GET reply. */
static int coalesce_get_cb(const struct nlmsghdr *nlh, void *arg, char *err)
{
	struct coalesce_ctx *c = arg;

	c->got = true;
	return ethtool_coalesce_parse(nlh, c->out, err);
}

int ethtool_coalesce_get(struct ethtool_nl *n, const char *dev,
			 struct ethtool_coalesce_params *out, char *err)
{
	struct coalesce_ctx c = { .out = out };
	char what[128];
	struct nl_msg *msg;
	int rc;

	if (!n)
		return ethtool_coalesce_get_ioctl(dev, out, err);
	coalesce_init(out);
	msg = ethtool_nl_msg(n, ETHTOOL_MSG_COALESCE_GET,
			     ETHTOOL_A_COALESCE_HEADER, dev, 0);
	if (!msg)
		return err_set(err, -ENOMEM, "%s: coalescing: %s", dev,
			       strerror(ENOMEM));
	snprintf(what, sizeof(what), "%s: get coalescing", dev);
	rc = netlink_request(n->nl, msg, false, coalesce_get_cb, &c, what, err);
	if (rc == -EOPNOTSUPP) {
		coalesce_unsupported(dev, netlink_extack(n->nl), out);
		return 0;
	}
	if (rc < 0)
		return rc;
	if (!c.got)
		return err_set(err, -EIO, "%s: the kernel sent no reply", what);
	return 0;
}

int ethtool_coalesce_set(struct ethtool_nl *n, const char *dev,
			 const char *name, uint32_t value, char *err)
{
	return ethtool_family_set(n, &coalesce_family, dev, name, value, err);
}

/*
 * Backend: one coalescing parameter by its ethtool name.  The device's
 * coalescing is read once per run; a set makes the next get read again.
 */
static int coalesce_knob_get(struct knob_ctx *c, const struct knob_def *d,
			     struct knob_value *v, char *err)
{
	const struct ethtool_coalesce_param *p;

	if (!c->co_read) {
		c->co_read = true;
		c->co_rc = knob_ctx_ethtool(c, c->co_err);
		if (!c->co_rc)
			c->co_rc = ethtool_coalesce_get(c->et, c->dev, &c->co,
							c->co_err);
	}
	if (c->co_rc)
		return err_set(err, c->co_rc, "%s", c->co_err);
	if (!c->co.supported) {
		knob_value_na(v, "%s", c->co.reason);
		return 0;
	}
	p = ethtool_coalesce_find(&c->co, d->name);
	if (!p || !p->present) {
		knob_value_na(v, "%s: not supported by the driver", c->dev);
		return 0;
	}
	knob_value_from_u64(d, p->value, v);
	return 0;
}

static int coalesce_knob_set(struct knob_ctx *c, const struct knob_def *d,
			     const struct knob_value *val, bool *took,
			     char *err)
{
	int rc = knob_ctx_ethtool(c, err);

	(void)took;
	if (!rc)
		rc = ethtool_coalesce_set(c->et, c->dev, d->name,
					  (uint32_t)val->num[0], err);
	c->co_read = false;
	return rc;
}

/* The catalog's where column: one ETHTOOL_A_COALESCE_* attribute. */
static const char *coalesce_where_problem(const char *w)
{
	return knob_attr_ok(w, "ETHTOOL_A_COALESCE_") ? NULL :
		"an ETHTOOL_A_COALESCE_* attribute name is expected";
}

const struct knob_backend ethtool_coalesce_backend = {
	.name = "coalesce",
	.where_problem = coalesce_where_problem,
	.types = KNOB_TYPE_BIT(KNOB_INT) | KNOB_TYPE_BIT(KNOB_BOOL),
	.types_why = "a coalesce knob is int or bool",
	.per_device = true,
	.get = coalesce_knob_get,
	.set = coalesce_knob_set,
};
