// SPDX-License-Identifier: GPL-2.0-or-later
/* sample.c - ownership of the samples and results of one end. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sample.h"

void sample_free(struct end_sample *s)
{
	free(s->socks);
	s->socks = NULL;
	s->nsocks = 0;
}

void result_free(struct end_result *r)
{
	free(r->socks);
	r->socks = NULL;
	r->nsocks = 0;
	free(r->hist);
	r->hist = NULL;
}

/* Copy src into dst with a socks array of dst's own. */
int sample_copy(struct end_sample *dst, const struct end_sample *src)
{
	struct sock_sample *socks = NULL;

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
	*dst = *src;
	dst->socks = socks;
	if (!socks)
		dst->nsocks = 0;
	return 0;
}
