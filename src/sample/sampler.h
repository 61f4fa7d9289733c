/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sampler.h - the timerfd tick that turns flows' counters into snapshots. */
#ifndef TT_SAMPLER_H
#define TT_SAMPLER_H

#include "capture/capture.h"
#include "sample/sample.h"
#include "flows/worker.h"

typedef void (*sampler_cb)(const struct end_sample *s, void *arg);

struct sampler;

/*
 * Prepare a sampler over flows[0..n-1]: reads the initial socket buffer
 * sizes and the CPU baseline.  Call before the workers start moving data.
 */
int sampler_create(struct sampler **sp, struct flow *flows, unsigned n,
		   const struct test_params *p, sampler_cb cb, void *arg,
		   char *err);
/* Attach a running capture: each tick and the final figures carry a
 * snapshot of it (the sampler neither stops nor frees it). */
void sampler_set_capture(struct sampler *s, struct capture *cap);
/* Start ticking every p->sample_ms from now; t = 0 is this moment. */
int sampler_start(struct sampler *s, char *err);
/* Stop ticking (no more callbacks once this returns). */
void sampler_stop(struct sampler *s);
/*
 * The end's final figures, after the workers have been joined: totals,
 * the whole latency histogram, final socket figures, average CPU over the
 * run, context switches of the workers.  elapsed is set by the caller.
 */
int sampler_final(struct sampler *s, struct end_result *r, char *err);
void sampler_destroy(struct sampler *s);

#endif
