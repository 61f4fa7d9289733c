// SPDX-License-Identifier: GPL-2.0-or-later
/* ethtool-ioctl.c - SIOCETHTOOL: one command on a device, and driver info. */
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
 * The socket is made here, so the ioctl reaches dev in the calling
 * thread's network namespace.
 */
int ethtool_ioctl(const char *dev, void *cmd, const char *what,
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

void ethtool_driver_label(const char *dev, char *out, size_t len)
{
	char e[ERR_MAX];

	if (ethtool_drvinfo(dev, out, len, e) < 0 || !out[0])
		snprintf(out, len, "%s", dev);
}
