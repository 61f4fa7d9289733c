// SPDX-License-Identifier: GPL-2.0-or-later
/* sample.c - ownership of the samples and results of one end. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "session/sample.h"

void sample_free(struct end_sample *s)
{
	free(s->socks);
	s->socks = NULL;
	s->nsocks = 0;
	seg_capture_free(s->cap);
	free(s->cap);
	s->cap = NULL;
}

void result_free(struct end_result *r)
{
	free(r->socks);
	r->socks = NULL;
	r->nsocks = 0;
	free(r->hist);
	r->hist = NULL;
	seg_capture_free(r->cap);
	free(r->cap);
	r->cap = NULL;
}

/* Copy src into dst with a socks array and a capture of dst's own. */
int sample_copy(struct end_sample *dst, const struct end_sample *src)
{
	struct sock_sample *socks = NULL;
	struct seg_capture *cap = NULL;

	if (src->nsocks && src->socks) {
		socks = malloc(src->nsocks * sizeof(*socks));
		if (!socks) {
			*dst = *src;
			dst->socks = NULL;
			dst->nsocks = 0;
			return -ENOMEM;
		}
		memcpy(socks, src->socks, src->nsocks * sizeof(*socks));
	}
	if (src->cap) {
		cap = seg_capture_dup(src->cap);
		if (!cap) {
			free(socks);
			*dst = *src;
			dst->socks = NULL;
			dst->nsocks = 0;
			dst->cap = NULL;
			return -ENOMEM;
		}
	}
	*dst = *src;
	dst->socks = socks;
	dst->cap = cap;
	if (!socks)
		dst->nsocks = 0;
	return 0;
}

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
