// SPDX-License-Identifier: GPL-2.0-or-later
/* lab-reap.c - labs left by processes that are gone, and who may remove them. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "session/cpustat.h"
#include "lab/lab-internal.h"
#include "lab/lab.h"
#include "core/util.h"

/* CAP_NET_ADMIN and CAP_SYS_ADMIN (namespaces, mounts) in the effective set. */
bool lab_privileged(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long eff = 0;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return (eff & (1ull << 12)) && (eff & (1ull << 21));
}

/* Destroy the labs whose owner record names a dead process. */
int lab_reap(unsigned *reaped, char *names_out, size_t len, char *err)
{
	struct dirent *de;
	struct lab *l;
	size_t used = 0;
	int r, ret = 0;
	DIR *d;

	*reaped = 0;
	if (names_out && len)
		names_out[0] = '\0';
	d = opendir(lab_owner_dir());
	if (!d) {
		r = -errno;
		if (r == -ENOENT)
			return 0;
		return err_set(err, r, "%s: %s", lab_owner_dir(), strerror(-r));
	}
	while ((de = readdir(d))) {
		struct lab_owner rec;
		char e2[ERR_MAX];

		if (!lab_owner_name_ok(de->d_name))
			continue;
		lab_owner_read(de->d_name, &rec);
		/* Unreadable or half-written records are left alone too. */
		if (!rec.present || !rec.valid || rec.persistent ||
		    procstat_alive(rec.pid, rec.start))
			continue;
		r = lab_open(&l, de->d_name, e2);
		if (r == -ENOENT)
			continue;	/* gone meanwhile */
		if (!r)
			r = lab_destroy(l, e2);
		if (r) {
			if (!ret)
				ret = err_set(err, r, "%s", e2);
			continue;
		}
		(*reaped)++;
		if (names_out && len > used + 1) {
			int w = snprintf(names_out + used, len - used, "%s%s",
					 used ? "," : "", de->d_name);

			if (w > 0)
				used += (size_t)w < len - used ? (size_t)w :
								len - used - 1;
		}
	}
	closedir(d);
	return ret;
}
