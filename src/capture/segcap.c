// SPDX-License-Identifier: GPL-2.0-or-later
/* segcap.c - copies of one end's capture snapshot, with histograms of their own. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "capture/segcap.h"

/* A copy of src with histograms of its own; dst is left empty on failure. */
int seg_capture_copy(struct seg_capture *dst, const struct seg_capture *src)
{
	*dst = *src;
	for (int d = 0; d < CAP_NDIRS; d++)
		seghist_init(&dst->dir[d]);
	for (int d = 0; d < CAP_NDIRS; d++) {
		if (seghist_copy_sorted(&dst->dir[d], &src->dir[d])) {
			seg_capture_free(dst);
			return -ENOMEM;
		}
	}
	return 0;
}

void seg_capture_free(struct seg_capture *sc)
{
	if (!sc)
		return;
	for (int d = 0; d < CAP_NDIRS; d++)
		seghist_free(&sc->dir[d]);
}

struct seg_capture *seg_capture_dup(const struct seg_capture *src)
{
	struct seg_capture *c = malloc(sizeof(*c));

	if (c && seg_capture_copy(c, src)) {
		free(c);
		c = NULL;
	}
	return c;
}
