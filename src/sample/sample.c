// SPDX-License-Identifier: GPL-2.0-or-later
/* sample.c - ownership of the samples and results of one end. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sample/sample.h"

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
