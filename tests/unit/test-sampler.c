// SPDX-License-Identifier: GPL-2.0-or-later
/* test-sampler.c - the tick numbers keep the schedule when the sampler runs late. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tap.h"
#include "session/sampler.h"

#define TICK_MS 20
#define NTICKS 6

struct ticks {
	unsigned n;
	uint64_t seq[NTICKS];
	double t[NTICKS];
};

/* Runs on the sampler thread: the second tick takes 3.5 periods. */
static void tick_cb(const struct end_sample *smp, void *arg)
{
	struct ticks *k = arg;
	struct timespec ts = { 0, 70 * 1000000L };

	if (k->n >= NTICKS)
		return;
	k->seq[k->n] = smp->seq;
	k->t[k->n] = smp->t;
	if (++k->n == 2)
		nanosleep(&ts, NULL);
}

/*
 * A tick taken late (its thread busy, or kept off the CPUs) covers every
 * period the timer counted: seq jumps, so tick seq is still due at
 * seq x the interval and the gap says a tick was missed.  Only lower
 * bounds are checked: load makes the sampler later, never earlier.
 */
static void test_late_tick_keeps_the_schedule(void)
{
	struct test_params p;
	struct sampler *s = NULL;
	struct ticks k = { 0 };
	struct timespec ts = { 0, 5 * 1000000L };
	char err[ERR_MAX] = "";
	bool ontime = true;

	params_default(&p);
	p.sample_ms = TICK_MS;
	ok(sampler_create(&s, NULL, 0, &p, tick_cb, &k, err) == 0 &&
	   sampler_start(s, err) == 0, "a sampler of no flows ticks every %d ms (%s)",
	   TICK_MS, err);
	/* Bounded: at most 10 s, whatever the load. */
	for (int i = 0; i < 2000 && __atomic_load_n(&k.n, __ATOMIC_ACQUIRE) < NTICKS; i++)
		nanosleep(&ts, NULL);
	sampler_stop(s);
	sampler_destroy(s);
	ok(k.n == NTICKS, "%d ticks seen (%u)", NTICKS, k.n);
	ok(k.n >= 3 && k.seq[2] - k.seq[1] >= 3,
	   "the tick after a 70 ms stall counts the periods it covered (seq %llu then %llu)",
	   (unsigned long long)k.seq[1], (unsigned long long)k.seq[2]);
	for (unsigned i = 0; i < k.n; i++) {
		if (i && k.seq[i] <= k.seq[i - 1])
			ontime = false;
		if (k.t[i] < (double)k.seq[i] * TICK_MS / 1000.0 - 0.001)
			ontime = false;
	}
	ok(ontime, "tick numbers rise and no tick comes before seq x %d ms", TICK_MS);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_late_tick_keeps_the_schedule();
	return tap_done();
}
