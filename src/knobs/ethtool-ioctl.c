// SPDX-License-Identifier: GPL-2.0-or-later
/* ethtool-ioctl.c - SIOCETHTOOL: driver info, and coalescing as a fallback. */
#include "config.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "knobs/ethtool-nl.h"
#include "core/util.h"

/*
 * Run one SIOCETHTOOL command on dev.  The socket is made here, so the
 * ioctl reaches dev in the calling thread's network namespace.
 */
static int ethtool_ioctl(const char *dev, void *cmd, const char *what,
			 char *err)
{
	struct ifreq ifr;
	int fd, rc = 0;

	if (strlen(dev) >= IFNAMSIZ)
		return err_set(err, -EINVAL, "%s: %s: name too long", dev,
			       what);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		rc = -errno;
		return err_set(err, rc, "%s: %s: socket: %s", dev, what,
			       strerror(-rc));
	}
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, dev, strlen(dev));
	ifr.ifr_data = cmd;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0) {
		rc = -errno;
		err_set(err, rc, "%s: %s: %s", dev, what, strerror(-rc));
	}
	close(fd);
	return rc;
}

int ethtool_drvinfo(const char *dev, char *driver, size_t len, char *err)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	int rc;

	if (len)
		driver[0] = '\0';
	rc = ethtool_ioctl(dev, &info, "driver info", err);
	if (rc < 0)
		return rc;
	snprintf(driver, len, "%.*s", (int)sizeof(info.driver), info.driver);
	return 0;
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

int ethtool_coalesce_get_ioctl(const char *dev,
			       struct ethtool_coalesce_params *out, char *err)
{
	struct ethtool_coalesce ec = { .cmd = ETHTOOL_GCOALESCE };
	char drv[64];
	int rc;

	ethtool_coalesce_init(out);
	rc = ethtool_ioctl(dev, &ec, "get coalescing", err);
	if (rc == -EOPNOTSUPP) {
		ethtool_driver_label(dev, drv, sizeof(drv));
		out->supported = false;
		snprintf(out->reason, sizeof(out->reason),
			 "%s: coalescing not supported (%s)", drv,
			 strerror(EOPNOTSUPP));
		return 0;
	}
	if (rc < 0)
		return rc;
	coalesce_from_ioctl(&ec, out);
	return 0;
}
